/* The shader-core engine object (compute.h): creation with its pool, timing model and program
 * cache, the configuration it is made with, statistics, and the job entry point, which hands a
 * job to the front end of its type (job_type.h).  The parts: engine_int.h. */
#include "engine_int.h"
#include "bifrost_exec_jit.h"
#include "gpu_observer.h"
#include "job_type.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --gpu-backend NAME as the executor's back end and host code (-1: the process's); NULL or "":
 * the process's */
const char *const gpu_stage_names[GPU_STAGES] = { "compute", "position", "varying", "fragment", "blend" };

static int backend_parse(const char *name, int *backend, int *isa, char *err, size_t errlen)
{
    *backend = *isa = -1;
    if (!name || !*name)
        return 0;
    if (!strcmp(name, "interp")) {
        *backend = BI_BACKEND_INTERP;
        return 0;
    }
    const char *isa_name = !strcmp(name, "jit-avx2") ? "avx2" : !strcmp(name, "jit-sse") ? "sse" : NULL;
    if (strcmp(name, "jit") && !isa_name) {
        snprintf(err, errlen, "--gpu-backend: jit, jit-avx2, jit-sse or interp");
        return -1;
    }
    if (!bx_jit_host_ok()) {
        snprintf(err, errlen, "--gpu-backend %s: needs an x86-64 host with AVX2 and FMA, or SSE4.1 and SSSE3 (use interp)",
                 name);
        return -1;
    }
    if (isa_name && (*isa = bi_jit_isa_code(isa_name)) < 0) {
        snprintf(err, errlen, "--gpu-backend %s: the host lacks %s (use jit)", name,
                 !strcmp(isa_name, "avx2") ? "AVX2 and FMA" : "SSE4.1 and SSSE3");
        return -1;
    }
    *backend = BI_BACKEND_JIT;
    return 0;
}

int gpu_compute_backend_check(const char *name, char *err, size_t errlen)
{
    int backend, isa;
    return backend_parse(name, &backend, &isa, err, errlen);
}

gpu_compute *gpu_compute_new(unsigned nthreads)
{
    gpu_compute_params p = { .threads = nthreads, .hooks = gpu_observer_hooks() };
    char err[256];
    gpu_compute *e = gpu_compute_create(&p, err, sizeof(err));
    if (!e)
        fprintf(stderr, "gpu: %s\n", err);
    return e;
}

gpu_compute *gpu_compute_create(const gpu_compute_params *p, char *err, size_t errlen)
{
    unsigned nthreads = p->threads;
    int backend, isa;
    if (backend_parse(p->backend, &backend, &isa, err, errlen))
        return NULL;
    if (!nthreads) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        nthreads = n > 0 ? (unsigned)n : 1;
    }
    if (nthreads > 256)
        nthreads = 256;
    gpu_compute *e = calloc(1, sizeof(*e));
    if (!e)
        return snprintf(err, errlen, "out of memory"), NULL;
    e->nthreads = nthreads;
    e->hooks = p->hooks;
    e->cache.backend = backend;
    e->cache.jit_isa = isa;
    e->w = calloc(nthreads, sizeof(*e->w));
    char why[256];
    if (p->timing && !(e->timing = gpu_timing_new(p->timing, why, sizeof(why))))
        fprintf(stderr, "gpu: --timing: %s: caches not modelled\n", why);
    if (!e->w) {
        gpu_timing_free(e->timing);
        free(e);
        return snprintf(err, errlen, "out of memory"), NULL;
    }
    pthread_mutex_init(&e->lock, NULL);
    scheduler_start(e);
    return e;
}

void gpu_compute_free(gpu_compute *e)
{
    if (!e)
        return;
    scheduler_stop(e);
    program_cache_free(&e->cache);
    free(e->w);
    gpu_timing_free(e->timing);
    pthread_mutex_destroy(&e->lock);
    free(e);
}

unsigned gpu_compute_threads(const gpu_compute *e) { return e->nthreads; }

bool gpu_compute_last_timing(gpu_compute *e, gpu_timing_job *out)
{
    pthread_mutex_lock(&e->lock);
    *out = e->last_timing;
    pthread_mutex_unlock(&e->lock);
    return e->timing != NULL;
}

const tm_config *gpu_compute_timing_config(const gpu_compute *e)
{
    return e->timing ? gpu_timing_config(e->timing) : NULL;
}

void gpu_compute_get_stats(gpu_compute *e, gpu_compute_stats *st)
{
    pthread_mutex_lock(&e->lock);
    *st = e->st;
    st->programs_decoded = e->cache.decoded;
    st->programs_reused = e->cache.reused;
    pthread_mutex_unlock(&e->lock);
}

void gpu_compute_invalidate(gpu_compute *e, int as)
{
    pthread_mutex_lock(&e->lock);
    program_cache_invalidate(&e->cache, as);
    pthread_mutex_unlock(&e->lock);
}

uint32_t gpu_compute_run(gpu_compute *e, const gpu_compute_job *job, uint64_t *fault_va)
{
    const gpu_job_type *t = gpu_job_type_find(job->type);
    if (!t) {                 /* the device hands over only gpu_job_type_mask()'s types */
        *fault_va = job->job_va;
        return EXC_JOB_CONFIG_FAULT;
    }
    return t->run(e, job, fault_va);
}
