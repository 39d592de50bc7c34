/* --timeline's view of the shader-core engine (timeline_gpu.c), for the board (devices/board_gpu.c). */
#ifndef MALIBU_TIMELINE_GPU_H
#define MALIBU_TIMELINE_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "../gpu/compute.h"

/* hooks, with job_begin also telling the timeline the job's shader (timeline_gpu_job_shader) */
gpu_compute_hooks timeline_gpu_hooks(gpu_compute_hooks hooks);
/* A job of `type` at job_va is about to run: a COMPUTE job's workgroups, read with peek (no fault
 * raised), go to the timeline (timeline_gpu_job_groups). */
void timeline_gpu_invocation(int (*peek)(void *ctx, uint64_t va, void *buf, size_t len), void *ctx,
                             uint64_t job_va, unsigned type);

#endif
