/* Glue between the shader-core engine (compute.h) and the Mali device (devices/mali/mali.h):
 * the device's MaliComputeFn runs jobs on one process-wide engine.  Compiled only into the device
 * objects (tests/gpu/gpu.mk builds it with -DMALIBU_COMPUTE_MALI); empty elsewhere. */
#ifdef MALIBU_COMPUTE_MALI
#include <pthread.h>
#include <stdio.h>

#include "compute.h"
#include "../../devices/mali/mali.h"

static uint32_t g_read(void *c, uint64_t va, void *buf, size_t len) { return mali_gpu_read(c, va, buf, len); }
static uint32_t g_write(void *c, uint64_t va, const void *buf, size_t len) { return mali_gpu_write(c, va, buf, len); }
static uint32_t g_fetch(void *c, uint64_t va, void *buf, size_t len) { return mali_gpu_fetch(c, va, buf, len); }
static uint32_t g_atomic(void *c, uint64_t va, unsigned size, uint64_t (*op)(uint64_t, void *), void *arg,
                         uint64_t *old)
{
    return mali_gpu_atomic(c, va, size, op, arg, old);
}
static bool g_stop(void *c) { return mali_job_should_stop(c); }
static void *g_map(void *c, uint64_t va, unsigned access, uint64_t *gen) { return mali_gpu_map(c, va, access, gen); }
static uint64_t g_gen(void *c) { return mali_gpu_generation(c); }

static uint32_t run_job(void *opaque, const MaliComputeJob *mj)
{
    gpu_compute_job j = {
        .job_va = mj->job_va, .type = mj->type, .as = mj->as, .arch_major = mj->arch_major,
        .core_mask = mj->shader_present,
        .mem = { .ctx = mj->ctx, .read = g_read, .write = g_write, .fetch = g_fetch, .atomic = g_atomic,
                 .should_stop = g_stop, .map = g_map, .generation = g_gen },
    };
    uint64_t fva = 0;
    uint32_t st = gpu_compute_run(opaque, &j, &fva);
    if (st != 1)
        mali_job_set_fault_address(mj->ctx, fva ? fva : mj->job_va);
    return st;
}

static gpu_compute *engine;
static pthread_once_t engine_once = PTHREAD_ONCE_INIT;

static void engine_create(void)
{
    engine = gpu_compute_new(0);      /* --gpu-threads, default: host CPUs */
    if (!engine)
        fprintf(stderr, "gpu: cannot start the shader-core engine\n");
}

void gpu_compute_attach_mali(struct Mali *m)
{
    pthread_once(&engine_once, engine_create);
    if (engine && m)
        mali_set_compute_engine(m, run_job, engine);
}

gpu_compute *gpu_compute_mali_engine(void)
{
    pthread_once(&engine_once, engine_create);
    return engine;
}
#endif
