/* The COMPUTE job front end (job_type.h): reads a compute job's descriptors (reference
 * §6.2-6.5: invocation, DCD, renderer state, uniforms, UBOs, local storage), checks them against
 * the engine's limits, and hands the workgroup grid to the scheduler.  VERTEX and GEOMETRY jobs
 * of compute shape (the same descriptor) come here too. */
#include "engine_int.h"
#include "job_walk.h"

#include <stdlib.h>
#include <string.h>

#define MAX_WLS (1u << 20)
#define MAX_TLS_TOTAL (64u << 20)
#define MAX_WG_THREADS 1024u          /* THREAD_MAX_WORKGROUP_SIZE of the models is <= 384 */

void draw_desc_free(job_desc *d)
{
    free(d->uniforms);
    free(d->ubo_addr);
    free(d->ubo_size);
    memset(d, 0, sizeof(*d));
}

uint32_t draw_desc_parse(const gpu_mem_if *m, const uint8_t *draw, bool secondary, job_desc *d, uint64_t *fva)
{
    uint8_t rsd[MALI_RENDERER_STATE_LENGTH];
    uint32_t code;
#define READ(va, buf, len)                                   \
    do {                                                     \
        if ((code = m->read(m->ctx, (va), (buf), (len)))) {  \
            *fva = (va);                                     \
            return code;                                     \
        }                                                    \
    } while (0)
    struct mali_draw dcd;
    struct mali_renderer_state rs;
    mali_draw_unpack(draw, &dcd);
    uint64_t ubo_ptr = dcd.uniform_buffers, push_ptr = dcd.push_uniforms, rsd_ptr = dcd.state;
    uint64_t ls_ptr = dcd.thread_storage;
    d->textures = dcd.textures;
    d->samplers = dcd.samplers;
    d->attr_bufs = dcd.attribute_buffers;
    d->attributes = dcd.attributes;
    d->varyings = dcd.varyings;
    d->varying_bufs = dcd.varying_buffers;
    d->offset_start = dcd.offset_start;
    {   /* a padded count (genxml): the decoded value, saturated (a hostile one then faults on access) */
        uint64_t isz = mali_padded_decode(dcd.instance_size);
        d->instance_size = isz > UINT32_MAX ? UINT32_MAX : (uint32_t)isz;
    }
    if (!rsd_ptr)
        return EXC_JOB_CONFIG_FAULT;
    READ(rsd_ptr, rsd, sizeof(rsd));
    mali_renderer_state_unpack(rsd, &rs);
    d->rsd = rsd_ptr;
    d->shader_va = secondary ? rs.secondary_shader : rs.shader;
    d->preload = secondary ? rs.secondary_preload : rs.preload;
    unsigned nuni = rs.uniform_count;            /* 64-bit FAU slots */
    d->nubos = rs.uniform_buffer_count;
    if (nuni) {
        d->uniforms = calloc(nuni, 8);
        if (!d->uniforms)
            return EXC_DATA_INVALID_FAULT;
        READ(push_ptr, d->uniforms, nuni * 8u);
        d->nuniforms = 2 * nuni;
    }
    if (d->nubos) {
        d->ubo_addr = calloc(d->nubos, sizeof(*d->ubo_addr));
        d->ubo_size = calloc(d->nubos, sizeof(*d->ubo_size));
        uint8_t *t = malloc(8u * d->nubos);
        if (!d->ubo_addr || !d->ubo_size || !t) {
            free(t);
            return EXC_DATA_INVALID_FAULT;
        }
        if ((code = m->read(m->ctx, ubo_ptr, t, 8u * d->nubos))) {
            free(t);
            *fva = ubo_ptr;
            return code;
        }
        for (unsigned i = 0; i < d->nubos; i++) {
            struct mali_uniform_buffer u;
            mali_uniform_buffer_unpack(t + MALI_UNIFORM_BUFFER_LENGTH * i, &u);
            d->ubo_size[i] = u.entries * 16;
            d->ubo_addr[i] = u.pointer;
        }
        free(t);
    }
    if (ls_ptr) {
        uint8_t ls[MALI_LOCAL_STORAGE_LENGTH];
        struct mali_local_storage lsd;
        READ(ls_ptr, ls, sizeof(ls));
        mali_local_storage_unpack(ls, &lsd);
        if (lsd.tls_base_pointer && lsd.tls_size < 24)
            d->tls_stride = 16u << lsd.tls_size;
        unsigned inst = lsd.wls_instances, scale = lsd.wls_size_scale;
        if (inst != 31 && scale)
            d->wls_size = scale - 1 >= 31 ? MAX_WLS + 1 : 1u << (scale - 1);
        if (d->wls_size > MAX_WLS) {
            *fva = ls_ptr;
            return EXC_JOB_CONFIG_FAULT;
        }
    }
#undef READ
    if (d->shader_va & 15) {
        *fva = d->shader_va;
        return EXC_INSTR_INVALID_PC;
    }
    return 0;
}

/* Returns 0 or an exception code (*fva = address). */
static uint32_t parse_job(const gpu_compute_job *job, job_desc *d, uint64_t *fva)
{
    const gpu_mem_if *m = &job->mem;
    uint8_t jd[MALI_COMPUTE_PAYLOAD_LENGTH + MALI_DRAW_LENGTH];
    uint32_t code;
    memset(d, 0, sizeof(*d));
    if ((code = m->read(m->ctx, job->job_va + MALI_JOB_HEADER_LENGTH, jd, sizeof(jd)))) {
        *fva = job->job_va + MALI_JOB_HEADER_LENGTH;
        return code;
    }
    struct mali_compute_payload pl;
    mali_compute_payload_unpack(jd, &pl);
    if (mali_invocation_decode(&pl, d->local, d->groups)) {
        *fva = job->job_va;
        return EXC_JOB_CONFIG_FAULT;
    }
    *fva = job->job_va;
    if ((code = draw_desc_parse(m, jd + MALI_COMPUTE_PAYLOAD_LENGTH, false, d, fva)))
        return code;
    unsigned threads = d->local[0] * d->local[1] * d->local[2];
    if (threads > MAX_WG_THREADS || (uint64_t)threads * d->tls_stride > MAX_TLS_TOTAL) {
        *fva = job->job_va;
        return EXC_JOB_CONFIG_FAULT;
    }
    return 0;
}

uint32_t engine_run_desc(gpu_compute *e, const gpu_compute_job *job, job_desc *d, uint64_t *fault_va)
{
    run r;
    memset(&r, 0, sizeof(r));
    r.d = *d;
    r.job = job;
    for (unsigned i = 0; i < 64 && r.ncores < 64; i++)
        if (job->core_mask >> i & 1)
            r.core_ids[r.ncores++] = i;
    if (!r.ncores)
        r.core_ids[r.ncores++] = 0;
    uint32_t code = scheduler_run(e, &r);
    if (code)
        return code;
    if (r.status) {
        *fault_va = r.fault_va;
        return r.status;
    }
    return 0;
}

uint32_t compute_job_run(gpu_compute *e, const gpu_compute_job *job, uint64_t *fault_va)
{
    job_desc d;
    uint64_t fva = 0;
    *fault_va = 0;
    uint32_t code = parse_job(job, &d, &fva);
    d.stage = job->type == 5 ? GPU_STAGE_POSITION : GPU_STAGE_COMPUTE;   /* a VERTEX job: the vertex shader */
    if (!code)
        code = engine_run_desc(e, job, &d, &fva);
    draw_desc_free(&d);
    if (code) {
        *fault_va = fva;
        return code;
    }
    return EXC_DONE;
}
