/* Shared by the engine's files (compute.h is the engine's interface; nothing outside emu/gpu
 * includes this): a job being run (run), a host thread's state (worker), the engine itself.
 *
 *   compute.c        the engine object: creation, configuration, statistics
 *   engine_mem.c     GPU memory as the shader sees it: soft TLB / page cache, WLS/TLS windows,
 *                    atomics, the bi_mem callbacks (and their --timing recording twins)
 *   program_cache.c  decoded shader programs, keyed by (VA, AS, arch)
 *   scheduler.c      the workgroup scheduler and its pool of host threads
 *   compute_job.c    the COMPUTE job front end: descriptors -> a run
 *   job_type.c       the front ends by job type (job_type.h) */
#ifndef MALIBU_GPU_ENGINE_INT_H
#define MALIBU_GPU_ENGINE_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "bifrost_exec.h"
#include "compute.h"
#include "gpu_timing.h"
#include "job_gate.h"
#include "mali_formats.h"
#include "program_cache.h"
#include "workgroup.h"

/* exception codes (enum mali_exc, isa/mali/bifrost.fmt) */
#define EXC_DONE MALI_EXC_DONE
#define EXC_JOB_CONFIG_FAULT MALI_EXC_JOB_CONFIG_FAULT
#define EXC_INSTR_INVALID_PC MALI_EXC_INSTR_INVALID_PC
#define EXC_INSTR_INVALID_ENC MALI_EXC_INSTR_INVALID_ENC
#define EXC_DATA_INVALID_FAULT MALI_EXC_DATA_INVALID_FAULT

/* Local (WLS) and thread-local (TLS) storage live in host memory private to the workgroup; the
 * shader sees them at these addresses (above any 48-bit GPU VA, so they never alias memory). */
#define WLS_WINDOW 0xFFFF000000000000ull
#define TLS_WINDOW 0xFFFF100000000000ull

struct worker;

/* What a front end hands the scheduler: one program run over a grid of workgroups. */
typedef struct job_desc {
    unsigned local[3], groups[3];
    uint64_t shader_va;
    uint32_t preload;
    uint32_t *uniforms;       /* push uniforms (32-bit words) */
    unsigned nuniforms;
    unsigned nubos;
    uint64_t *ubo_addr;
    uint32_t *ubo_size;
    uint32_t wls_size;        /* bytes per workgroup (0: none) */
    uint32_t tls_stride;      /* bytes per thread (0: none) */
    uint64_t textures, samplers, attributes, attr_bufs;   /* DCD descriptor tables (images) */
    uint64_t varyings, varying_bufs;      /* the DCD's varying tables (vertex / fragment shaders) */
    uint64_t rsd;                         /* its renderer state */
    uint32_t offset_start, instance_size; /* vertex shaders: the DCD's attribute index terms */
    /* Vertex shading (gfx_vertex.c): NULL for compute grids; else workgroup x's threads are the
     * vertices x * local[0] + t below vertex_count of instance y, with vertex preloads. */
    const struct bi_vertex_grid *vertex;
    unsigned stage;                       /* enum gpu_stage, for the observer */
} job_desc;

typedef struct run {
    gpu_compute *e;
    const gpu_compute_job *job;
    job_desc d;
    bi_program *prog;                     /* item runs: NULL, or the program --timing's per-job
                                             counters are charged to (the caller's) */
    uint64_t epoch;
    unsigned ncores, core_ids[64];
    uint64_t total_wgs;
    uint64_t next_wg;                     /* atomic */
    int abort;                            /* atomic: stop picking workgroups */
    pthread_mutex_t lock;                 /* the fields below */
    uint64_t fault_wg;                    /* lowest faulting workgroup */
    uint32_t status;
    uint64_t fault_va;
    unsigned active;                      /* threads still working on this run */
    pthread_cond_t done;
    gpu_compute_stats st;
    /* Optional: the run's work items are not workgroups of d's program but what item(w, idx)
     * does for idx < total_wgs (0 or an exception code, *fault_va in w->fault_va); d then only
     * sizes the workers' warp and storage (d.local threads), the caller owns the programs and
     * the observer's calls, and total_wgs is set by the caller. */
    uint32_t (*item)(struct worker *w, uint64_t idx);
    void *item_ctx;
    /* Optional, with item: called where job_begin (begin) and job_end (!begin) would be, under
     * the engine's lock, once r->epoch is known: the caller's observer calls. */
    void (*announce)(struct run *r, bool begin);
} run;

/* per host thread: cached host pages of global memory (map fast path), indexed by a hash of the
 * page number: buffers allocated a power-of-two size apart (vecadd's a, b and c) would otherwise
 * share slots and evict each other on every access */
#define WTLB_BITS 8
#define WTLB_SIZE (1u << WTLB_BITS)
#define WTLB_SLOT(vp) ((unsigned)(((vp) * 0x9e3779b97f4a7c15ull) >> (64 - WTLB_BITS)))
typedef struct {
    uint64_t vpage, gen;
    uint8_t *host;            /* the page's first byte; NULL: empty */
    unsigned perm;            /* 1 read, 2 write */
} wtlb_entry;

typedef struct worker {
    wtlb_entry tlb[WTLB_SIZE];
    unsigned slot;                        /* 0 .. nthreads - 1 (the caller's: nthreads - 1) */
    gpu_compute *e;
    pthread_t thread;
    run *r;                               /* current run */
    const gpu_mem_if *jm;                 /* its job's memory (&r->job->mem, one load nearer) */
    uint64_t shader_base;                 /* code offsets of the program being run are from here */
    const uint64_t *gen_word;             /* jm->generation_word, NULL: call jm->generation */
    bi_mem mem;
    uint8_t *wls;
    size_t wls_cap;
    uint8_t *tls;
    size_t tls_cap, tls_size;
    uint32_t wls_size;
    bi_wg_warps warps;                    /* reused from one workgroup to the next */
    uint32_t fault;                       /* memory fault of the current workgroup */
    uint64_t fault_va;
    uint64_t since_poll;
    uint64_t tuples_unreported;        /* warp-tuples not yet passed to mem.progress */
    gpu_compute_stats st;
    gt_trace trace;                       /* --timing: the current workgroup's accesses */
    uint32_t core_id;                     /* the current workgroup's core */
} worker;

struct gpu_compute {
    unsigned nthreads;
    worker *w;                            /* nthreads - 1 pool threads + one per caller */
    pthread_mutex_t lock;
    pthread_cond_t work;                  /* pool: a run was posted / quit */
    run *cur;                             /* the run pool threads join */
    uint64_t cur_gen;
    int quit;
    job_gate gate;                        /* one job at a time on the pool, by priority */
    worker caller;                        /* the submitting thread's worker state */
    program_cache cache;                  /* under lock */
    uint64_t epoch;
    gpu_compute_stats st;
    gpu_timing *timing;                   /* --timing, else NULL */
    gpu_timing_job last_timing;           /* the last job's (gpu_compute_last_timing) */
    gpu_compute_hooks hooks;              /* its observer's (gpu_compute_params) */
};

/* engine_mem.c: point w->mem (the executor's memory calls) at the run's memory; recording: every
 * access also goes to w->trace (--timing), none through mapped pages.  Empties w's page cache. */
void engine_mem_bind(worker *w, const run *r, bool recording);
/* The job's memory (read / write only) for one message of a front end's own accesses on worker w
 * (a tile's write-back): recorded for --timing like a shader's when w records, else job->mem. */
gpu_mem_if engine_mem_job_message(worker *w);

/* scheduler.c: start / stop the pool threads of e (e->nthreads, e->w allocated); and run r
 * (descriptors parsed, core ids set) to completion on the calling thread and the pool: returns
 * 0 (the job's status is in r->status) or an exception code when no program could be made. */
void scheduler_start(gpu_compute *e);
void scheduler_stop(gpu_compute *e);
uint32_t scheduler_run(gpu_compute *e, run *r);

/* compute_job.c: the COMPUTE front end (job_type.h); a DCD (draw, MALI_DRAW_LENGTH bytes) read
 * into d for its primary or secondary (IDVS varying) shader: 0 or an exception code (*fva at
 * fault); d's allocations freed by draw_desc_free whatever it returned; and a parsed job_desc run
 * over its grid on the pool: 0 or the job's exception code (*fault_va). */
uint32_t compute_job_run(gpu_compute *e, const gpu_compute_job *job, uint64_t *fault_va);
uint32_t draw_desc_parse(const gpu_mem_if *m, const uint8_t *draw, bool secondary, job_desc *d, uint64_t *fva);
void draw_desc_free(job_desc *d);
uint32_t engine_run_desc(gpu_compute *e, const gpu_compute_job *job, job_desc *d, uint64_t *fault_va);

/* The graphics front ends (job_type.h): IDVS and TILER (gfx_vertex.c, gfx_tiler.c), FRAGMENT
 * (gfx_fragment.c). */
uint32_t gfx_idvs_job_run(gpu_compute *e, const gpu_compute_job *job, uint64_t *fault_va);
uint32_t gfx_tiler_job_run(gpu_compute *e, const gpu_compute_job *job, uint64_t *fault_va);
uint32_t gfx_fragment_job_run(gpu_compute *e, const gpu_compute_job *job, uint64_t *fault_va);

#endif
