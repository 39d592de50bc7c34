/* libFuzzer harness: the job-chain walker (emu/gpu/job_walk.c) and printer (emu/decode/
 * job_print.c: malibu-decode, --gpu-trace jobs, GPU fault reports) and the dump writer
 * (emu/gpu/job_dump.c) on hostile GPU memory: any job type, any pointers, loops.
 *
 * Input: as fuzz_compute's (its seeds apply): byte 0 flags, byte 1 an unreadable page
 * (>= FLAT_PAGES: none), then the contents of GPU VAs 0 .. FLAT_SIZE (zero beyond the input);
 * the chain starts at VA 0x40.  Flag bits [3:1] may retype that first job (vertex, tiler,
 * IDVS, fragment, ...), so the compute seeds' descriptors are walked as every graphics job's.
 * Every walk must end (libFuzzer's -timeout catches a hang) and never read outside the flat
 * space. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../emu/decode/job_print.h"
#include "job_dump.h"
#include "mali_formats.h"

#define FLAT_SIZE (64u << 10)
#define FLAT_PAGES (FLAT_SIZE / 4096)
#define JOB_VA 0x40u
#define MAX_JOBS 16u

enum { F_V7 = 1 };

typedef struct {
    const uint8_t *mem;
    unsigned bad_page;
} flat_mem;

static int flat_read(void *ctx, uint64_t va, void *buf, size_t len)
{
    const flat_mem *m = ctx;
    if (va >= FLAT_SIZE || len > FLAT_SIZE - va)
        return -1;
    if (m->bad_page < FLAT_PAGES && va < 4096ull * (m->bad_page + 1) && va + len > 4096ull * m->bad_page)
        return -1;
    memcpy(buf, m->mem + va, len);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t *mem;
    static FILE *null;
    if (size < 2)
        return 0;
    if (!mem && !(mem = malloc(FLAT_SIZE)))
        abort();
    if (!null && !(null = fopen("/dev/null", "w")))
        abort();
    size_t n = size - 2 < FLAT_SIZE ? size - 2 : FLAT_SIZE;
    memset(mem, 0, FLAT_SIZE);
    memcpy(mem, data + 2, n);
    static const uint8_t retype[8] = { 0, MALI_JOB_TYPE_VERTEX, MALI_JOB_TYPE_TILER, MALI_JOB_TYPE_INDEXED_VERTEX,
                                       MALI_JOB_TYPE_FRAGMENT, MALI_JOB_TYPE_COMPUTE, MALI_JOB_TYPE_WRITE_VALUE,
                                       MALI_JOB_TYPE_CACHE_FLUSH };
    if (retype[data[0] >> 1 & 7])           /* the type field: word 4 [7:1] of the header */
        mem[JOB_VA + 16] = (uint8_t)((mem[JOB_VA + 16] & 1) | retype[data[0] >> 1 & 7] << 1);
    flat_mem m = { .mem = mem, .bad_page = data[1] };
    unsigned arch = data[0] & F_V7 ? 7 : 6;
    int problems = 0;
    unsigned jobs = mali_print_chain(null, arch, JOB_VA, MAX_JOBS, flat_read, &m, "not readable", &problems);
    if (jobs > MAX_JOBS)
        abort();
    if (mali_dump_write("/dev/null", NULL, arch, 0, JOB_VA, flat_read, &m))
        abort();
    return 0;
}
