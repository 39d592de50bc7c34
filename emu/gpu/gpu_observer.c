/* gpu_observer.h: points the executor's per-clause hook and the engine's job hooks at the
 * observer. */
#include "gpu_observer.h"

#include "bifrost_exec_int.h"
#include "compute.h"

void gpu_observe(const gpu_observer *o)
{
    bi_exec_hook = o ? o->clause : NULL;
    bi_exec_hook_run = o && o->clause ? o->counts : NULL;
    gpu_compute_stats_hook = o ? o->job_begin : NULL;
    gpu_compute_stats_end_hook = o ? o->job_end : NULL;
}
