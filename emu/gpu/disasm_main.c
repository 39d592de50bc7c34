/* malibu-disasm [--arch v6|v7] FILE: disassemble a Bifrost shader binary (raw clauses). */
#include "bifrost_decode.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    enum bi_arch arch = BI_ARCH_V7;
    const char *path = NULL;
    bool verbose = false;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--arch") && i + 1 < argc) {
            const char *a = argv[++i];
            if (!strcmp(a, "v6") || !strcmp(a, "6"))
                arch = BI_ARCH_V6;
            else if (!strcmp(a, "v7") || !strcmp(a, "7"))
                arch = BI_ARCH_V7;
            else {
                fprintf(stderr, "malibu-disasm: unknown arch %s (v6 or v7)\n", a);
                return 2;
            }
        } else if (!strncmp(argv[i], "--arch=", 7)) {
            arch = !strcmp(argv[i] + 7, "v6") ? BI_ARCH_V6 : BI_ARCH_V7;
        } else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
            verbose = true;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: malibu-disasm [--arch v6|v7] [--verbose] FILE  (FILE '-' = stdin)\n");
            return 0;
        } else if (!path) {
            path = argv[i];
        } else {
            fprintf(stderr, "usage: malibu-disasm [--arch v6|v7] [--verbose] FILE\n");
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "usage: malibu-disasm [--arch v6|v7] FILE\n");
        return 2;
    }
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) {
        perror(path);
        return 1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap)
            buf = realloc(buf, cap *= 2);
    }
    if (f != stdin)
        fclose(f);
    if (!buf)
        return 1;
    int rc = bi_disasm_shader_verbose(stdout, buf, len, arch, verbose);
    free(buf);
    return rc ? 1 : 0;
}
