/* malibu-decode DIR|FILE...: prints GPU job dumps (--gpu-dump DIR, emu/gpu/job_dump.h): each job
 * chain, every descriptor with its fields named (generated from isa/mali/bifrost.fmt), and the
 * shaders disassembled.  A directory stands for its chain-<n>.dump files in order of n. */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bifrost_decode.h"
#include "job_dump.h"
#include "job_walk.h"
#include "mali_formats.h"

typedef struct {
    unsigned arch;
    int problems;       /* descriptors missing from the dump, reserved bits set */
} printer;

/* Unpacks and prints descriptor T, then names any reserved bits that are set. */
#define PRINT_DESC(T, bytes, ind, arch)                                                      \
    do {                                                                                     \
        struct mali_##T s_;                                                                  \
        uint32_t bits_;                                                                      \
        mali_##T##_unpack(bytes, &s_);                                                       \
        mali_##T##_print(stdout, &s_, ind, arch);                                            \
        int w_ = mali_##T##_reserved(bytes, arch, &bits_);                                   \
        if (w_ >= 0) {                                                                       \
            printf("%*s!! reserved bits 0x%08x set in word %d\n", (int)(ind), "", bits_, w_); \
            pr->problems++;                                                                  \
        }                                                                                    \
    } while (0)

static void print_shader(const uint8_t *code, size_t len, unsigned arch, unsigned ind)
{
    char *text = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&text, &n);
    if (!m)
        return;
    int rc = bi_disasm_shader(m, code, len, arch >= 7 ? BI_ARCH_V7 : BI_ARCH_V6);
    fclose(m);
    for (char *line = text, *end; line && *line; line = end ? end + 1 : NULL) {
        end = strchr(line, '\n');
        printf("%*s%.*s\n", (int)ind, "", end ? (int)(end - line) : (int)strlen(line), line);
    }
    if (rc)
        printf("%*s(disassembly stopped at an undecodable clause)\n", (int)ind, "");
    free(text);
}

static void print_compute(printer *pr, const uint8_t *b, unsigned ind)
{
    struct mali_compute_payload p;
    unsigned local[3], groups[3];
    PRINT_DESC(compute_payload, b, ind, pr->arch);
    mali_compute_payload_unpack(b, &p);
    if (mali_invocation_decode(&p, local, groups))
        printf("%*s(invocation shifts out of range)\n", (int)ind, "");
    else
        printf("%*s(local size %u x %u x %u, workgroups %u x %u x %u)\n", (int)ind, "", local[0], local[1],
               local[2], groups[0], groups[1], groups[2]);
}

static void visit(void *ctx, enum mali_desc_kind kind, uint64_t va, const uint8_t *b, size_t len, unsigned index,
                  unsigned depth)
{
    printer *pr = ctx;
    unsigned ind = 2 * depth, in = ind + 2, arch = pr->arch;
    if (kind == MALI_DESC_JOB_HEADER)
        printf("\n");
    printf("%*s%s", (int)ind, "", mali_desc_name(kind));
    if (kind == MALI_DESC_JOB_HEADER || kind == MALI_DESC_UNIFORM_BUFFER || kind == MALI_DESC_TEXTURE ||
        kind == MALI_DESC_SURFACE || kind == MALI_DESC_SAMPLER || kind == MALI_DESC_ATTRIBUTE ||
        kind == MALI_DESC_ATTRIBUTE_BUFFER || kind == MALI_DESC_ATTRIBUTE_BUFFER_3D)
        printf(" %u", index);
    printf(" @ 0x%" PRIx64 " (%zu bytes):\n", va, len);
    switch (kind) {
    case MALI_DESC_JOB_HEADER: PRINT_DESC(job_header, b, in, arch); break;
    case MALI_DESC_WRITE_VALUE: PRINT_DESC(write_value_job, b, in, arch); break;
    case MALI_DESC_CACHE_FLUSH: PRINT_DESC(cache_flush_job, b, in, arch); break;
    case MALI_DESC_COMPUTE_PAYLOAD: print_compute(pr, b, in); break;
    case MALI_DESC_DRAW: PRINT_DESC(draw, b, in, arch); break;
    case MALI_DESC_RENDERER_STATE: PRINT_DESC(renderer_state, b, in, arch); break;
    case MALI_DESC_SHADER: print_shader(b, len, arch, in); break;
    case MALI_DESC_UNIFORM_BUFFER: PRINT_DESC(uniform_buffer, b, in, arch); break;
    case MALI_DESC_LOCAL_STORAGE: PRINT_DESC(local_storage, b, in, arch); break;
    case MALI_DESC_TEXTURE: PRINT_DESC(texture, b, in, arch); break;
    case MALI_DESC_SURFACE: PRINT_DESC(surface_with_stride, b, in, arch); break;
    case MALI_DESC_SAMPLER: PRINT_DESC(sampler, b, in, arch); break;
    case MALI_DESC_ATTRIBUTE: PRINT_DESC(attribute, b, in, arch); break;
    case MALI_DESC_ATTRIBUTE_BUFFER: PRINT_DESC(attribute_buffer, b, in, arch); break;
    case MALI_DESC_ATTRIBUTE_BUFFER_3D: PRINT_DESC(attribute_buffer_continuation_3d, b, in, arch); break;
    case MALI_DESC_FRAGMENT_JOB: PRINT_DESC(fragment_job, b, in, arch); break;
    case MALI_DESC_PRIMITIVE: PRINT_DESC(primitive, b, in, arch); break;
    case MALI_DESC_PUSH_UNIFORMS:
        for (size_t i = 0; i + 4 <= len; i += 4) {      /* 32-bit words, four a line */
            if (i % 16 == 0)
                printf("%*sword %zu:", (int)in, "", i / 4);
            printf(" 0x%08" PRIx32 "%s", mali_w32(b, (unsigned)(i / 4)), i % 16 == 12 || i + 4 == len ? "\n" : "");
        }
        break;
    }
}

static void missing(void *ctx, enum mali_desc_kind kind, uint64_t va, size_t len, unsigned index, unsigned depth)
{
    printer *pr = ctx;
    printf("%*s%s %u @ 0x%" PRIx64 ": not in the dump\n", (int)(2 * depth), "", mali_desc_name(kind), index, va);
    pr->problems++;
}

static int decode_file(const char *path)
{
    mali_dump d;
    char err[256];
    if (mali_dump_load(path, &d, err, sizeof err)) {
        fprintf(stderr, "malibu-decode: %s\n", err);
        return -1;
    }
    printer pr = { .arch = d.arch };
    printf("== %s: v%u descriptors, address space %u, chain from job 0x%" PRIx64 "\n", path, d.arch, d.as, d.job_va);
    mali_walk w = { .read = mali_dump_read, .read_ctx = &d, .visit = visit, .missing = missing, .visit_ctx = &pr };
    unsigned jobs = mali_walk_chain(&w, d.job_va, 64);
    printf("\n== %u job%s, %d problem%s\n", jobs, jobs == 1 ? "" : "s", pr.problems, pr.problems == 1 ? "" : "s");
    mali_dump_free(&d);
    return jobs ? 0 : -1;
}

static int by_chain_number(const void *a, const void *b)
{
    unsigned x = 0, y = 0;
    sscanf(*(char *const *)a, "chain-%u", &x);
    sscanf(*(char *const *)b, "chain-%u", &y);
    return x < y ? -1 : x > y;
}

/* The chain-<n>.dump files of dir, in order of n. */
static int decode_dir(const char *dir, DIR *dp)
{
    char **names = NULL;
    size_t n = 0;
    int rc = 0;
    for (struct dirent *e; (e = readdir(dp));) {
        size_t l = strlen(e->d_name);
        if (strncmp(e->d_name, "chain-", 6) || l < 5 || strcmp(e->d_name + l - 5, ".dump"))
            continue;
        char **nn = realloc(names, (n + 1) * sizeof *nn);
        if (!nn || !(nn[n] = strdup(e->d_name))) {
            free(nn ? nn : names);
            return -1;
        }
        names = nn;
        n++;
    }
    if (!n)
        fprintf(stderr, "malibu-decode: %s: no chain-<n>.dump files\n", dir);
    qsort(names, n, sizeof *names, by_chain_number);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        rc |= decode_file(path);
        free(names[i]);
    }
    free(names);
    return n ? rc : -1;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        printf("usage: malibu-decode DIR|FILE...  (DIR: a --gpu-dump directory; FILE: one chain-<n>.dump)\n");
        return argc < 2 ? 2 : 0;
    }
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        DIR *dp = opendir(argv[i]);
        if (dp) {
            rc |= decode_dir(argv[i], dp);
            closedir(dp);
        } else {
            rc |= decode_file(argv[i]);
        }
    }
    return rc ? 1 : 0;
}
