/* The front ends by job type (job_type.h). */
#include "job_type.h"

#include <stddef.h>

#include "engine_int.h"

/* VERTEX and GEOMETRY jobs with a compute-shaped descriptor (what OpenCL drivers submit) run as
 * compute jobs, as the hardware's compute path does. */
static const gpu_job_type job_types[] = {
    { MALI_JOB_TYPE_COMPUTE, "compute", compute_job_run },
    { MALI_JOB_TYPE_VERTEX, "vertex", compute_job_run },
    { MALI_JOB_TYPE_GEOMETRY, "geometry", compute_job_run },
    { MALI_JOB_TYPE_TILER, "tiler", gfx_tiler_job_run },
    { MALI_JOB_TYPE_FRAGMENT, "fragment", gfx_fragment_job_run },
    { MALI_JOB_TYPE_INDEXED_VERTEX, "indexed vertex", gfx_idvs_job_run },
};

const gpu_job_type *gpu_job_type_find(unsigned type)
{
    for (size_t i = 0; i < sizeof(job_types) / sizeof(job_types[0]); i++)
        if (job_types[i].type == type)
            return &job_types[i];
    return NULL;
}

uint32_t gpu_job_type_mask(void)
{
    uint32_t m = 0;
    for (size_t i = 0; i < sizeof(job_types) / sizeof(job_types[0]); i++)
        m |= 1u << job_types[i].type;
    return m;
}
