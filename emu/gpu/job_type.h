/* The engine's front ends, one per Mali job type: how a job of that type becomes work for the
 * shared parts of the engine (memory access, program cache, workgroup scheduler).  The job
 * manager reaches the engine only through gpu_compute_run, which picks the front end here by
 * the job's type; a type with no front end is never handed over (gpu_job_type_mask: the device
 * ends such jobs with its own fault).  Vertex, tiler and fragment front ends register here. */
#ifndef MALIBU_GPU_JOB_TYPE_H
#define MALIBU_GPU_JOB_TYPE_H

#include <stdint.h>

#include "compute.h"

typedef struct gpu_job_type {
    unsigned type;            /* MALI job type (regs: 4 COMPUTE, 5 VERTEX, 6 GEOMETRY, 7 TILER, ...) */
    const char *name;
    /* Run the job to its end: MALI_EXC_DONE or the exception code, *fault_va as gpu_compute_run. */
    uint32_t (*run)(gpu_compute *e, const gpu_compute_job *job, uint64_t *fault_va);
} gpu_job_type;

/* The front end of a job type, NULL if none. */
const gpu_job_type *gpu_job_type_find(unsigned type);
/* The types with a front end: bit t for type t. */
uint32_t gpu_job_type_mask(void);

#endif
