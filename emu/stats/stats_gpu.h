/* The GPU section of the stats (stats_gpu*.c): the executor observer's clause call and test queries. */
#ifndef MALIBU_STATS_GPU_H
#define MALIBU_STATS_GPU_H

#include "bifrost_exec.h"
#include "compute.h"
#include "gpu_clause.h"
#include "stats.h"

#define STATS_GPU_EXIT 0xffffffffu      /* edge target: the lanes finished */
#define STATS_GPU_OTHER 0xfffffffeu     /* edge target: more distinct targets than recorded */

/* The observer's clause call (gpu_observer.h): a warp ran prepared clause x of program p for the
 * lanes in exec (w->pc[] / w->done[] already hold each lane's next clause / end).  Exported so
 * tests and other runners can call it directly. */
void stats_gpu_clause(const bi_warp *w, const bi_program *p, const bi_xclause *x, uint32_t exec);
/* stats_gpu_clause for clauses a converged warp ran back to back, counted per clause
 * (gpu_observer.h: counts) */
void stats_gpu_counts(const bi_program *p, uint64_t epoch, unsigned lanes, const bi_clause_count *r, unsigned n);

/* Queries over every thread's records (tests; call when no GPU work runs). */
typedef struct {
    uint64_t execs, lanes, diverged, partial;
    sc_clause_info info;
    unsigned nedges;
    uint32_t edge_to[6];
    uint64_t edge_threads[6], edge_warps[6];
} stats_gpu_clause_totals;
int stats_gpu_get_clause(const void *prog, uint32_t pc, stats_gpu_clause_totals *out);   /* -1: none */

typedef struct {
    uint64_t kernels, jobs, clauses, execs, lanes, warp_instrs, thread_instrs, diverged, partial;
    uint64_t cls[SC_N], data[SD_N];        /* thread level */
} stats_gpu_totals;
void stats_gpu_get_totals(stats_gpu_totals *out);

/* Kernel `id` of the report (programs in the order they were identified); -1: none. */
typedef struct {
    uint64_t code_hash, code_bytes, jobs, clauses, execs, thread_instrs;
    uint64_t shader_va;                    /* of its first job (0: not announced) */
} stats_gpu_kernel_info;
int stats_gpu_get_kernel(size_t id, stats_gpu_kernel_info *out);
/* The kernel job `job` (0, 1, ... in the order jobs began) ran: -1 none, -2 no such job. */
int64_t stats_gpu_job_kernel(size_t job);

/* ---- graphics (stats_gfx.c: the report's "graphics" section) ---------------------------------- */
/* The observer's graphics calls (gpu_observer.h) */
void stats_gfx_draw(unsigned type, const gpu_gfx_draw_counts *c);
void stats_gfx_frame(const gpu_gfx_frame_counts *c);
typedef struct {
    uint64_t draws, frames;
    gpu_gfx_draw_counts prims;           /* summed over draws */
    gpu_gfx_frame_counts frame;          /* summed over frames (width, height: 0) */
} stats_gfx_totals;
void stats_gfx_get(stats_gfx_totals *out);
int stats_gfx_get_frame(size_t i, gpu_gfx_frame_counts *out);     /* -1: not listed */
void stats_gfx_reset(void);
/* Instruction totals of the kernels whose first job ran as `stage` (enum gpu_stage). */
void stats_gpu_get_stage_totals(unsigned stage, stats_gpu_totals *out);

#endif
