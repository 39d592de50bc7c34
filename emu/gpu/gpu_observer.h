/* What the shader-core engine and the Bifrost executor report to an observer (emu/stats
 * implements one): every clause a warp ran, and each job's begin and end.  The GPU side owns this
 * interface; an observer includes it, never the other way round. */
#ifndef MALIBU_GPU_OBSERVER_H
#define MALIBU_GPU_OBSERVER_H

#include <stdint.h>

#include "bifrost_exec.h"

typedef struct gpu_observer {
    /* After every clause a warp ran (bi_exec_program, on the host thread running the warp): the
     * prepared clause (x->c.offset = its pc), the lanes that ran it (exec) and the warp, whose
     * pc[] / done[] already hold each lane's next clause / end. */
    void (*clause)(const bi_warp *w, const bi_program *p, const bi_xclause *x, uint32_t exec);
    /* Optional: what clause() would have seen, counted per clause, for clauses a warp ran back to
     * back (compiled clauses chained, --gpu-backend jit), before any later clause() call: each
     * clause r[k].x ran with exec r[k].fall + r[k].taken times, every lane of exec went on to the
     * clause after it or to r[k].taken_pc and none finished, and the warp's other lanes kept the
     * pc[] / done[] they have in w.  The records are in the order the clauses first ran.  Compiled
     * code counts these itself, and only when this was installed before it was compiled.  NULL:
     * clause() is called after each of them (and compiled code returns to C after every clause). */
    void (*counts)(const bi_warp *w, const bi_program *p, const bi_clause_count *r, unsigned n, uint32_t exec);
    /* The engine's submitting thread, once per job before any workgroup runs: the job's program,
     * the bi_mem epoch its warps see, shader VA, address space, job type ... */
    void (*job_begin)(const void *prog, uint64_t epoch, uint64_t shader_va, unsigned as, unsigned type);
    /* ... and once after the last (status: the job's exception code). */
    void (*job_end)(const void *prog, uint64_t epoch, uint32_t status);
} gpu_observer;

/* Install o (NULL: none; a NULL member: not observed) before any GPU work runs.  Unobserved,
 * each clause costs one predictable branch. */
void gpu_observe(const gpu_observer *o);

#endif
