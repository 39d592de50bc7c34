/* malibu-decode DIR|FILE...: prints GPU job dumps (--gpu-dump DIR, emu/gpu/job_dump.h): each job
 * chain, every descriptor with its fields named (generated from isa/mali/bifrost.fmt), and the
 * shaders disassembled.  A directory stands for its chain-<n>.dump files in order of n. */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job_dump.h"
#include "../emu/decode/job_print.h"

static int decode_file(const char *path)
{
    mali_dump d;
    char err[256];
    if (mali_dump_load(path, &d, err, sizeof err)) {
        fprintf(stderr, "malibu-decode: %s\n", err);
        return -1;
    }
    int problems = 0;
    printf("== %s: v%u descriptors, address space %u, chain from job 0x%" PRIx64 "\n", path, d.arch, d.as, d.job_va);
    unsigned jobs = mali_print_chain(stdout, d.arch, d.job_va, 64, mali_dump_read, &d, "not in the dump", &problems);
    printf("\n== %u job%s, %d problem%s\n", jobs, jobs == 1 ? "" : "s", problems, problems == 1 ? "" : "s");
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
