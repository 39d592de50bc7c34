/* Replays fuzz inputs (tests/fuzz/regress/HARNESS/NAME.bin) through a harness's
 * LLVMFuzzerTestOneInput without libFuzzer, in the normal and the ASan/UBSan build: every input
 * that once crashed, hung or tripped a sanitizer must now run to its end (within 10 s each). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 1;
        }
        uint8_t *buf = NULL;
        size_t len = 0, cap = 0, n;
        do {
            if (len == cap) {
                cap = cap ? 2 * cap : 65536;
                uint8_t *nb = realloc(buf, cap);
                if (!nb) {
                    fprintf(stderr, "%s: out of memory\n", argv[i]);
                    return 1;
                }
                buf = nb;
            }
            n = fread(buf + len, 1, cap - len, f);
            len += n;
        } while (n);
        fclose(f);
        alarm(10);            /* a hang fails the test (SIGALRM) */
        LLVMFuzzerTestOneInput(buf, len);
        alarm(0);
        free(buf);
    }
    printf("%s: %d inputs replayed\n", argv[0], argc - 1);
    return 0;
}
