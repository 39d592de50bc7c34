/* GPU job dumps (--gpu-dump DIR / MALIBU_GPU_DUMP=DIR): when a job chain starts, the descriptors
 * the job-chain walker (job_walk.h) reaches from its head are written to DIR/chain-<n>.dump, and
 * its shaders to DIR/shader-<VA>.bin (raw code for malibu-disasm).  build/malibu-decode reads the
 * dumps back.
 *
 * A .dump file is text, one item per line:
 *   malibu-gpu-dump 1         format and version
 *   arch 6|7                  descriptor / instruction-set version of the GPU
 *   as N                      address space the job ran in
 *   job 0xVA                  the chain's first job (the walk follows its next links)
 *   mem 0xVA LEN              LEN bytes of GPU memory at VA, as lower-case hex on the lines
 *                             below it (32 bytes a line); one block per descriptor read
 * Lines starting with '#' are comments. */
#ifndef MALIBU_GPU_JOB_DUMP_H
#define MALIBU_GPU_JOB_DUMP_H

#include <stddef.h>
#include <stdint.h>

/* Writes the dump of the chain from job_va (memory through read, which must not fault) to path;
 * shaders also to shader_dir/shader-<VA>.bin when shader_dir is not NULL.  0 or -1 (errno). */
int mali_dump_write(const char *path, const char *shader_dir, unsigned arch, unsigned as, uint64_t job_va,
                    int (*read)(void *ctx, uint64_t va, void *buf, size_t len), void *ctx);

typedef struct mali_dump_block {
    uint64_t va;
    size_t len;
    uint8_t *data;
} mali_dump_block;

typedef struct mali_dump {
    unsigned arch, as;
    uint64_t job_va;
    size_t nblocks;
    mali_dump_block *blocks;
} mali_dump;

/* Reads a .dump file: 0, or -1 with a message in err. */
int mali_dump_load(const char *path, mali_dump *d, char *err, size_t errlen);
/* The walker's read over the dumped memory (ctx = mali_dump *): 0 when one block holds it all. */
int mali_dump_read(void *ctx, uint64_t va, void *buf, size_t len);
void mali_dump_free(mali_dump *d);

#endif
