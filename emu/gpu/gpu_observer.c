/* gpu_observer.h: points the executor's per-clause hook at the observer, and keeps its job calls
 * for the engines created afterwards (each engine calls the hooks it was created with). */
#include "gpu_observer.h"

#include "bifrost_exec_int.h"

static gpu_compute_hooks installed;

void gpu_observe(const gpu_observer *o)
{
    bi_exec_hook = o ? o->clause : NULL;
    bi_exec_hook_run = o && o->clause ? o->counts : NULL;
    installed.job_begin = o ? o->job_begin : NULL;
    installed.job_end = o ? o->job_end : NULL;
    installed.job_grid = o ? o->job_grid : NULL;
    installed.gfx_draw = o ? o->gfx_draw : NULL;
    installed.gfx_frame = o ? o->gfx_frame : NULL;
}

void gpu_observe_timing(void (*fn)(const void *prog, uint64_t epoch, const struct gpu_timing_job *jt))
{
    installed.timing = fn;
}

gpu_compute_hooks gpu_observer_hooks(void) { return installed; }
