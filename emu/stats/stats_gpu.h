/* GPU side of the stats registry (stats_gpu.c): the executor hook and its installation. */
#ifndef MALIBU_STATS_GPU_H
#define MALIBU_STATS_GPU_H

#include "bifrost_exec.h"
#include "gpu_clause.h"
#include "stats.h"

#define STATS_GPU_EXIT 0xffffffffu      /* edge target: the lanes finished */
#define STATS_GPU_OTHER 0xfffffffeu     /* edge target: more distinct targets than recorded */

/* The executor hook: called after a warp ran prepared clause x of program p for the lanes in
 * exec (w->pc[] / w->done[] already hold each lane's next clause / end).  Exported so tests and
 * other runners can call it directly. */
void stats_gpu_clause(const bi_warp *w, const bi_program *p, const bi_xclause *x, uint32_t exec);
/* Point the executor's bi_exec_hook (and the engine's gpu_compute_stats_hook) here; false when
 * the executor has no hook (built without the instrumentation patch). */
bool stats_gpu_install(void);
/* The registry's thread list (stats.c keeps it up to date). */
void stats_gpu_set_threads(stats_thread *list);

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
    uint64_t kernels, clauses, execs, lanes, warp_instrs, thread_instrs, diverged, partial;
    uint64_t cls[SC_N], data[SD_N];        /* thread level */
} stats_gpu_totals;
void stats_gpu_get_totals(stats_gpu_totals *out);

#endif
