/* --timeline: what the shader-core engine tells of the job a job slot runs (timeline.h): its
 * shader, through the engine's job_begin hook wrapped around the installed observer's, and its
 * workgroups, read from the job's invocation descriptor. */
#include "timeline_gpu.h"

#include "job_walk.h"
#include "mali_formats.h"
#include "timeline.h"

static gpu_compute_hooks inner;   /* the hooks wrapped (one engine observer per process) */

static void job_begin(const void *prog, uint64_t epoch, uint64_t shader_va, unsigned as, unsigned type,
                      unsigned stage)
{
    if (timeline_on)
        timeline_gpu_job_shader(shader_va, as, stage);
    if (inner.job_begin)
        inner.job_begin(prog, epoch, shader_va, as, type, stage);
}

gpu_compute_hooks timeline_gpu_hooks(gpu_compute_hooks hooks)
{
    inner = hooks;
    hooks.job_begin = job_begin;
    return hooks;
}

void timeline_gpu_invocation(int (*peek)(void *ctx, uint64_t va, void *buf, size_t len), void *ctx,
                             uint64_t job_va, unsigned type)
{
    if (type != MALI_JOB_TYPE_COMPUTE)
        return;
    uint8_t pl[MALI_COMPUTE_PAYLOAD_LENGTH];
    if (peek(ctx, job_va + MALI_JOB_HEADER_LENGTH, pl, sizeof pl))
        return;   /* unreadable: the engine reports the fault, the timeline lists no workgroups */
    struct mali_compute_payload p;
    mali_compute_payload_unpack(pl, &p);
    unsigned local[3], groups[3];
    if (!mali_invocation_decode(&p, local, groups))
        timeline_gpu_job_groups(local, groups);
}
