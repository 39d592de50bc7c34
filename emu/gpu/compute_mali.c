/* Glue between the shader-core engine (compute.h) and the Mali device (devices/mali/mali.h):
 * the device's MaliComputeFn runs jobs on one process-wide engine.  Compiled only into the device
 * objects (tests/gpu/gpu.mk builds it with -DMALIBU_COMPUTE_MALI); empty elsewhere. */
#ifdef MALIBU_COMPUTE_MALI
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compute.h"
#include "job_dump.h"
#include "../../devices/mali/mali.h"

static int log_jobs;          /* MALIBU_GPU_LOG=1: one stderr line per job */

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
static void g_progress(void *c, uint64_t warp_tuples) { mali_job_progress(c, warp_tuples); }

/* MALIBU_GPU_DUMP=DIR: before each job runs, the descriptors reachable from it go to
 * DIR/job-<n>.dump and its shader to DIR/shader-<VA>.bin (job_dump.h; build/malibu-decode prints
 * the dumps, malibu-disasm the shaders).  Memory is read through mali_gpu_map only, so dumping
 * never raises a GPU fault the job itself would not. */
static const char *dump_dir;
static unsigned dump_n;

static int dump_read(void *ctx, uint64_t va, void *buf, size_t len)
{
    for (size_t done = 0; done < len;) {
        uint64_t gen;
        const uint8_t *h = mali_gpu_map(ctx, va + done, 2 /* read */, &gen);
        if (!h)
            return -1;
        size_t n = 4096 - ((va + done) & 4095);
        if (n > len - done)
            n = len - done;
        memcpy((uint8_t *)buf + done, h, n);
        done += n;
    }
    return 0;
}

static void dump_job(const MaliComputeJob *mj)
{
    char path[512];
    unsigned n = __atomic_fetch_add(&dump_n, 1, __ATOMIC_RELAXED);
    snprintf(path, sizeof(path), "%s/job-%u.dump", dump_dir, n);
    if (mali_dump_write(path, dump_dir, mj->arch_major, mj->as, mj->job_va, dump_read, mj->ctx))
        fprintf(stderr, "gpu: cannot write %s\n", path);
}

static uint32_t run_job(void *opaque, const MaliComputeJob *mj)
{
    if (dump_dir)
        dump_job(mj);
    gpu_compute_job j = {
        .job_va = mj->job_va, .type = mj->type, .as = mj->as, .arch_major = mj->arch_major,
        .core_mask = mj->shader_present,
        .mem = { .ctx = mj->ctx, .read = g_read, .write = g_write, .fetch = g_fetch, .atomic = g_atomic,
                 .should_stop = g_stop, .map = g_map, .generation = g_gen,
                 .progress = g_progress },
    };
    uint64_t fva = 0;
    gpu_compute_stats s0, s1;
    struct timespec t0, t1;
    if (log_jobs) {
        gpu_compute_get_stats(opaque, &s0);
        clock_gettime(CLOCK_MONOTONIC, &t0);
    }
    uint32_t st = gpu_compute_run(opaque, &j, &fva);
    if (log_jobs) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        gpu_compute_get_stats(opaque, &s1);
        double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-6;
        fprintf(stderr, "gpu: job 0x%llx as%u: status 0x%x, %llu workgroups, %llu lane-instructions, %.1f ms"
                " (%.1f M lane-instr/s)\n", (unsigned long long)mj->job_va, mj->as, st,
                (unsigned long long)(s1.workgroups - s0.workgroups),
                (unsigned long long)(s1.lane_instrs - s0.lane_instrs), ms,
                (double)(s1.lane_instrs - s0.lane_instrs) / (ms > 0 ? ms : 1) / 1e3);
    }
    if (st != 1)
        mali_job_set_fault_address(mj->ctx, fva ? fva : mj->job_va);
    return st;
}

static gpu_compute *engine;
static pthread_once_t engine_once = PTHREAD_ONCE_INIT;

void gpu_compute_mali_debug(bool log, const char *dir)
{
    if (log)
        log_jobs = 1;
    if (dir)
        dump_dir = dir;
}

static void engine_create(void)
{
    const char *l = getenv("MALIBU_GPU_LOG");
    if (l && *l && strcmp(l, "0"))
        log_jobs = 1;
    if (!dump_dir)
        dump_dir = getenv("MALIBU_GPU_DUMP");
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
