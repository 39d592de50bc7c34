/* libFuzzer harness: COMPUTE job descriptors (emu/gpu/compute.c gpu_compute_run) and everything
 * they lead to (DCD, RSD, uniforms, UBO table, thread/local storage, texture, sampler and
 * attribute tables, shader bytes) in a flat GPU address space the input fills.
 *
 * Input: byte 0 flags, byte 1 an unmapped page (>= FLAT_PAGES: none), then the contents of GPU
 * VAs 0 .. FLAT_SIZE (zero beyond the input); the job header is at VA 0x40.  VAs outside the
 * flat space fault (translation fault).  Runs are bounded through the engine's stop poll: the
 * job is asked to stop at its second poll (the fuzz build polls every 2048 clauses), as a guest
 * soft-stop would. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compute.h"

#define FLAT_SIZE (64u << 10)
#define FLAT_PAGES (FLAT_SIZE / 4096)
#define JOB_VA 0x40u
#define FAULT_CODE 0xC3u        /* TRANSLATION_FAULT, level 3 */

enum {
    F_V7 = 1,           /* arch 7 (G52), else 6 (G71) */
    F_MAP = 2,          /* offer the map fast path */
    F_CORES = 4,        /* core mask 0xf0 (else 0x1) */
    F_TWICE = 8,        /* run the job twice (shader cache reuse / revalidation) */
};

static uint8_t *flat;
static unsigned unmapped = ~0u, polls;

static uint8_t *host(uint64_t va, size_t len)
{
    if (va >= FLAT_SIZE || len > FLAT_SIZE - va)
        return NULL;
    if (unmapped < FLAT_PAGES && va / 4096 <= unmapped && (va + len - 1) / 4096 >= unmapped)
        return NULL;
    return flat + va;
}

static uint32_t f_read(void *ctx, uint64_t va, void *buf, size_t len)
{
    uint8_t *h = host(va, len);
    if (!h)
        return FAULT_CODE;
    memcpy(buf, h, len);
    return 0;
}

static uint32_t f_write(void *ctx, uint64_t va, const void *buf, size_t len)
{
    uint8_t *h = host(va, len);
    if (!h)
        return FAULT_CODE;
    memcpy(h, buf, len);
    return 0;
}

static uint32_t f_atomic(void *ctx, uint64_t va, unsigned size, uint64_t (*op)(uint64_t, void *), void *arg,
                         uint64_t *old)
{
    uint8_t *h = host(va, size);
    uint64_t o = 0, n;
    if (!h)
        return FAULT_CODE;
    memcpy(&o, h, size);
    n = op(o, arg);
    memcpy(h, &n, size);
    *old = o;
    return 0;
}

static void *f_map(void *ctx, uint64_t va, unsigned access, uint64_t *gen)
{
    *gen = 1;
    return host(va & ~4095ull, 4096);
}

static uint64_t f_gen(void *ctx) { return 1; }

static bool f_should_stop(void *ctx) { return ++polls > 1; }

static gpu_compute *engine;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!engine) {
        engine = gpu_compute_new(1);      /* the caller's thread only: deterministic */
        flat = malloc(FLAT_SIZE);
        if (!engine || !flat)
            abort();
    }
    static int verbose = -1;
    if (verbose < 0)
        verbose = getenv("FUZZ_VERBOSE") != NULL;     /* job status of each input, on stdout */
    if (size < 2)
        return 0;
    unsigned flags = data[0];
    unmapped = data[1];
    size_t n = size - 2 < FLAT_SIZE ? size - 2 : FLAT_SIZE;
    memset(flat, 0, FLAT_SIZE);
    memcpy(flat, data + 2, n);
    gpu_compute_invalidate(engine, -1);    /* every input starts with an empty shader cache */
    gpu_compute_job job = {
        .job_va = JOB_VA, .type = 4, .as = 0, .arch_major = flags & F_V7 ? 7 : 6,
        .core_mask = flags & F_CORES ? 0xf0 : 0x1,
        .mem = { .read = f_read, .write = f_write, .fetch = f_read, .atomic = f_atomic,
                 .should_stop = f_should_stop },
    };
    if (flags & F_MAP) {
        job.mem.map = f_map;
        job.mem.generation = f_gen;
    }
    for (int i = 0; i < (flags & F_TWICE ? 2 : 1); i++) {
        uint64_t fva;
        polls = 0;
        uint32_t st = gpu_compute_run(engine, &job, &fva);
        if (verbose)
            printf("status %#x fault va %#llx\n", st, (unsigned long long)fva);
    }
    return 0;
}
