/* What the shader-core engine and the Bifrost executor report to an observer (emu/stats
 * implements one): every clause a warp ran, and each job's begin and end.  The GPU side owns this
 * interface; an observer includes it, never the other way round. */
#ifndef MALIBU_GPU_OBSERVER_H
#define MALIBU_GPU_OBSERVER_H

#include <stdint.h>

#include "bifrost_exec.h"
#include "compute.h"

typedef struct gpu_observer {
    /* After every clause a warp ran (bi_exec_program, on the host thread running the warp): the
     * prepared clause (x->c.offset = its pc), the lanes that ran it (exec) and the warp, whose
     * pc[] / done[] already hold each lane's next clause / end. */
    void (*clause)(const bi_warp *w, const bi_program *p, const bi_xclause *x, uint32_t exec);
    /* Optional: what clause() would have seen of the clauses that compiled code (--gpu-backend
     * jit) ran with lanes going on together or split two ways, summed per clause
     * (bi_clause_count): for the job whose bi_mem epoch is `epoch` (0: a runner without
     * bi_mem), in warps of `lanes` lanes.
     * The executor sums these per host thread and hands them over late: when the thread's part
     * of a job ends (bi_exec_flush, before job_end), when the thread starts on another program
     * or job, after every 2^18 clauses it ran (before a count can overflow), when a clause's
     * lanes go to a second branch target, and before the program is freed.  Compiled
     * code counts only if this was installed before it was compiled.  NULL: clause() is called
     * after each clause (and compiled code returns to C after every clause). */
    void (*counts)(const bi_program *p, uint64_t epoch, unsigned lanes, const bi_clause_count *r, unsigned n);
    /* The engine's submitting thread, once per job before any workgroup runs: the job's program,
     * the bi_mem epoch its warps see, shader VA, address space, job type ... */
    void (*job_begin)(const void *prog, uint64_t epoch, uint64_t shader_va, unsigned as, unsigned type,
                      unsigned stage);
    /* ... and once after the last (status: the job's exception code).  A FRAGMENT job runs one
     * program per draw (and frame shader) in one epoch: each distinct program gets its own
     * job_begin / job_end pair, with stage GPU_STAGE_FRAGMENT. */
    void (*job_end)(const void *prog, uint64_t epoch, uint32_t status);
    /* Optional, on the same thread just before job_begin of a job with a workgroup grid
     * (compute, vertex): workgroup size and count per dimension. */
    void (*job_grid)(const unsigned local[3], const unsigned groups[3]);
    /* Graphics counters (compute.h): per draw the tiler binned, per FRAGMENT job, on the
     * submitting thread, summed over the job's host threads (the same for any number). */
    void (*gfx_draw)(unsigned type, const gpu_gfx_draw_counts *c);
    void (*gfx_frame)(const gpu_gfx_frame_counts *c);
} gpu_observer;

/* Install o (NULL: none; a NULL member: not observed) before any GPU work runs.  Unobserved,
 * each clause costs one predictable branch.  The per-clause calls are the executor's, for every
 * engine of the process (one --stats report per process); the job calls go to the engines
 * created afterwards with gpu_observer_hooks() in their parameters (the board's do). */
void gpu_observe(const gpu_observer *o);
/* --timing's per-job counters (gpu_compute_hooks.timing; emu/stats), for engines created after. */
void gpu_observe_timing(void (*fn)(const void *prog, uint64_t epoch, const struct gpu_timing_job *jt));
/* The job calls installed so far, as an engine's hooks (gpu_compute_params). */
gpu_compute_hooks gpu_observer_hooks(void);

#endif
