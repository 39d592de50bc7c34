/* Bifrost shader-core engine: runs COMPUTE (and VERTEX/GEOMETRY: same descriptor) jobs the way
 * the hardware does.  The job manager hands over a job (header VA, address space, architecture)
 * and a memory interface (GPU VA -> bytes through the GPU MMU, faults reported as exception
 * codes); the engine parses the descriptors (reference §6.2-6.5), gets the shader's decoded clauses
 * from its cache, and runs the workgroups on a pool of host threads.
 *
 *   compute.h        this interface; the engine's files: engine_int.h (memory access, program
 *                    cache, workgroup scheduler + host threads, job front ends by type: job_type.h)
 * The board (devices/board_gpu.c) creates the engine for its Mali device, whose job manager
 * implements gpu_mem_if with its own functions (mali_gpu_read, ...).
 *
 * Results never depend on the number of host threads: workgroups are independent except through
 * global memory (host atomics), core ids are assigned per workgroup (linear index modulo the
 * cores of the job's core mask), and local (WLS) and thread-local (TLS) storage live in host
 * memory private to the workgroup being run. */
#ifndef MALIBU_GPU_COMPUTE_H
#define MALIBU_GPU_COMPUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Memory as the job sees it (all GPU VAs in the job's address space).  Every call returns 0 or
 * the exception code the job must end with (translation / permission / bus fault, stop). */
typedef struct gpu_mem_if {
    void *ctx;
    uint32_t (*read)(void *ctx, uint64_t va, void *buf, size_t len);
    uint32_t (*write)(void *ctx, uint64_t va, const void *buf, size_t len);
    uint32_t (*fetch)(void *ctx, uint64_t va, void *buf, size_t len);   /* execute permission */
    /* atomic read-modify-write of 4 or 8 aligned bytes: *old = memory before, memory = op(old) */
    uint32_t (*atomic)(void *ctx, uint64_t va, unsigned size, uint64_t (*op)(uint64_t old, void *arg),
                       void *arg, uint64_t *old);
    bool (*should_stop)(void *ctx);          /* optional: polled between workgroups */
    /* Optional fast path: host address of the byte at va (valid to the end of its 4 KiB page)
     * when the access (GPU_ACCESS_*) is allowed right now, else NULL (no fault reported: the
     * engine then uses the calls above); *gen = generation(): cached host pages are reused only
     * while generation() returns the same value. */
    void *(*map)(void *ctx, uint64_t va, unsigned access, uint64_t *gen);
    uint64_t (*generation)(void *ctx);
    /* Optional: the word generation() returns, for the job's duration (read atomically, acquire);
     * the engine, which checks the generation on every access, loads it instead of calling. */
    const uint64_t *generation_word;
    /* Optional: work done so far, as warp-tuple issues (one warp issuing one tuple); reported in
     * batches from any engine thread, summing to the job's total by the time run() returns.
     * The device turns it into modelled time (the guest clock's device-wait model). */
    void (*progress)(void *ctx, uint64_t warp_tuples);
    /* Optional (--timing): memory stall cycles (GPU clock) the job's modelled time grows by beyond
     * its issue time, once at the job's end (gpu_timing.h: the overlap model). */
    void (*stall)(void *ctx, uint64_t cycles);
} gpu_mem_if;

/* access types of map() (the Mali FAULTSTATUS access-type values) */
#define GPU_ACCESS_ATOMIC 0u
#define GPU_ACCESS_READ 2u
#define GPU_ACCESS_WRITE 3u

typedef struct gpu_compute_job {
    uint64_t job_va;          /* GPU VA of the job header (descriptor at +32 .. +192) */
    unsigned type;            /* 4 compute, 5 vertex, 6 geometry */
    unsigned as;              /* address space: part of the shader-cache key */
    unsigned arch_major;      /* 6 (G71/G72: 4-lane warps) or 7 (G52: 8-lane warps) */
    uint64_t core_mask;       /* shader cores the job may use (core ids seen by the shader) */
    /* LD_GCLK (bi_mem): cycle counter and system timestamp at the job's start, their rates, and
     * whether they run (cycle counting on) */
    uint64_t clock_cycles, clock_ts, gpu_hz, ts_hz;
    bool clock_running;
    unsigned priority;        /* jobs waiting for the pool go highest first (job_gate.h) */
    unsigned engines;         /* execution engines per core (--timing: a core's issue time) */
    gpu_mem_if mem;
} gpu_compute_job;

typedef struct gpu_compute_stats {
    uint64_t jobs, workgroups, warps, clauses, lane_clauses, lane_instrs, barriers;
    uint64_t programs_decoded, programs_reused;
    uint64_t cpu_ns;          /* host CPU time of the threads running the jobs' workgroups */
} gpu_compute_stats;

typedef struct gpu_compute gpu_compute;

/* What the engine calls an observer with (emu/stats: --stats, --timing's per-job counters), on
 * the submitting thread: job_begin before a job's first workgroup (its program, the bi_mem epoch
 * its warps see, shader VA, address space, type), timing after its last (--timing only), then
 * job_end (status: its exception code).  A NULL member: not called. */
struct gpu_timing_job;
/* The shader stage a program runs as (job_begin): compute jobs' kernels, the vertex stage's
 * position and varying shaders (IDVS; a VERTEX job's shader counts as position), fragment
 * shaders (draws' and frame shaders'), blend shaders. */
enum gpu_stage { GPU_STAGE_COMPUTE, GPU_STAGE_POSITION, GPU_STAGE_VARYING, GPU_STAGE_FRAGMENT, GPU_STAGE_BLEND,
                 GPU_STAGES };
extern const char *const gpu_stage_names[GPU_STAGES];
/* What the tiler did with one draw's primitives (gfx_tiler.c) */
typedef struct gpu_gfx_draw_counts {
    uint64_t prims_in;        /* primitives assembled */
    uint64_t culled;          /* zero area, facing, outside the scissor */
    uint64_t clipped;         /* crossing w = 0: clipped when rasterized */
    uint64_t dropped;         /* naming a vertex outside the draw */
} gpu_gfx_draw_counts;
/* What one FRAGMENT job shaded (gfx_stats.h), summed over its tiles */
typedef struct gpu_gfx_frame_counts {
    uint32_t width, height;   /* framebuffer */
    uint64_t tiles, draws;
    uint64_t prims;           /* (primitive, tile) pairs rasterized */
    uint64_t quads;           /* 2x2 quads shaded (their warps ran the fragment shader) */
    uint64_t fragments;       /* lanes of those quads that covered a sample */
    uint64_t samples;         /* samples those lanes covered */
    uint64_t helpers;         /* helper lanes: in the quads, covering nothing */
    uint64_t killed_early;    /* quads' covered lanes the early depth/stencil test killed */
    uint64_t pixels;          /* distinct pixels shaded at least once */
    uint64_t frame_fragments; /* lanes pre- and post-frame shaders ran (not in the above) */
} gpu_gfx_frame_counts;
typedef struct gpu_compute_hooks {
    /* stage: enum gpu_stage */
    void (*job_begin)(const void *prog, uint64_t epoch, uint64_t shader_va, unsigned as, unsigned type,
                      unsigned stage);
    void (*job_end)(const void *prog, uint64_t epoch, uint32_t status);
    /* optional, just before job_begin of a job with a workgroup grid: its workgroup size and
     * count per dimension (what names a compute job by the launch it came from) */
    void (*job_grid)(const unsigned local[3], const unsigned groups[3]);
    void (*timing)(const void *prog, uint64_t epoch, const struct gpu_timing_job *jt);
    /* graphics: after the tiler binned a draw (job type 10 or 7), after a FRAGMENT job ran */
    void (*gfx_draw)(unsigned type, const gpu_gfx_draw_counts *c);
    void (*gfx_frame)(const gpu_gfx_frame_counts *c);
} gpu_compute_hooks;

/* The engine's parameters, fixed at creation (the board's GPU holds them: devices/board_gpu.h). */
struct tm_config;
typedef struct gpu_compute_params {
    unsigned threads;                 /* host worker threads (0: number of online host CPUs) */
    const struct tm_config *timing;   /* --timing: model the GPU's caches and DRAM (copied); NULL:
                                         off, costing nothing */
    const char *backend;              /* --gpu-backend (gpu_compute_backend_check); NULL: the
                                         process's (bi_set_backend; the host's best) */
    gpu_compute_hooks hooks;
} gpu_compute_params;

/* NULL (err says why) on a bad back end or when the host is out of resources. */
gpu_compute *gpu_compute_create(const gpu_compute_params *p, char *err, size_t errlen);
/* nthreads host threads, no timing model, the host's back end, the hooks of the installed
 * observer (gpu_observer.h): tests and fuzz harnesses. */
gpu_compute *gpu_compute_new(unsigned nthreads);
void gpu_compute_free(gpu_compute *e);
unsigned gpu_compute_threads(const gpu_compute *e);

/* Run a job to completion on the calling thread + the pool, through the front end of its type
 * (job_type.h; a type without one: 0x40 JOB_CONFIG_FAULT).  Returns MALI exception status:
 * 1 DONE, or a fault code (0x40 JOB_CONFIG_FAULT for bad descriptors, 0x50 INSTR_INVALID_PC,
 * 0x51 INSTR_INVALID_ENC for undecodable/unsupported instructions, 0x58 DATA_INVALID_FAULT,
 * or the code a memory call returned); *fault_va = the faulting address (0 if none).
 * Jobs from several callers (job slots) may run at once; they share the pool. */
uint32_t gpu_compute_run(gpu_compute *e, const gpu_compute_job *job, uint64_t *fault_va);

/* Shader cache.  Decoded programs are keyed by (shader VA, AS, arch).  A cached program is reused
 * by a later job only if every clause it decoded reads back byte-identical through that job's
 * address space (with execute permission) at the start of the job, so rewritten or remapped
 * shader memory is always seen.  gpu_compute_invalidate drops cached programs at once:
 * as < 0 all address spaces; the job manager calls it on AS UPDATE / FLUSH_PT / FLUSH_MEM and
 * on cache-flush jobs and GPU cache-clean/invalidate commands. */
void gpu_compute_invalidate(gpu_compute *e, int as);

void gpu_compute_get_stats(gpu_compute *e, gpu_compute_stats *st);

/* --timing (emu/timing/timing.h, gpu_timing.h): false when the engine does not model the
 * caches, else *out = the last job's counters and times; and the configuration it models. */
bool gpu_compute_last_timing(gpu_compute *e, struct gpu_timing_job *out);
const struct tm_config *gpu_compute_timing_config(const gpu_compute *e);

/* Shader-core back end (--gpu-backend): "jit" (clauses compiled to host code, AVX2 or SSE as the
 * host has them; the default on x86-64), "jit-avx2" / "jit-sse" (that code: bi_set_jit_isa) or
 * "interp" (the interpreter, the reference).  Returns 0, or -1 with the reason in err for an
 * unknown name or a back end this host cannot run.  An engine's programs compile under its own
 * choice (bi_program_set_backend); without one, under the process's (bi_set_backend). */
int gpu_compute_backend_check(const char *name, char *err, size_t errlen);

#endif
