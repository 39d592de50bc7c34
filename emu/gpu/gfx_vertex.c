/* The INDEXED_VERTEX (IDVS) job front end (job_type.h): one draw.  The position shader (the
 * vertex DCD's renderer state) runs for every vertex of every instance with the vertex preloads
 * (workgroup.h: bi_vertex_grid), writing each position to its slot of the fragment DCD's position
 * buffer; the varying shader (the renderer state's secondary shader, when the Primitive asks for
 * it) runs over the same grid; then the tiler bins the draw's primitives (gfx_tiler.c).
 * Layout (genxml "Indexed Vertex Job", 384 bytes): header, invocation (+32), primitive (+40),
 * primitive size (+64), tiler pointer (+72), fragment DCD (+128), vertex DCD (+256). */
#include "engine_int.h"
#include "gfx_tiler.h"
#include "job_walk.h"

#include <stdio.h>
#include <string.h>

#define VERTICES_PER_WG 64u          /* vertices a workgroup of the vertex grid shades */
#define MAX_VERTICES (1u << 24)      /* per job: vertex count x instances */

/* The draw's vertex count and instances from its invocation (Mesa: pan_pack_work_groups_compute
 * with 1 x count x instances workgroups, or count - 1 in the invocation word alone). */
static int draw_size(const uint8_t *inv, unsigned *count, unsigned *instances)
{
    struct mali_compute_payload pl;
    unsigned local[3], groups[3];
    mali_compute_payload_unpack(inv, &pl);
    if (mali_invocation_decode(&pl, local, groups))
        return -1;
    uint64_t c = (uint64_t)local[0] * local[1] * local[2] * groups[0] * groups[1];
    if (!c || c * groups[2] > MAX_VERTICES)
        return -1;
    *count = (unsigned)c;
    *instances = groups[2];
    return 0;
}

/* Run one of the vertex DCD's shaders over the vertex grid. */
static uint32_t shade(gpu_compute *e, const gpu_compute_job *job, const uint8_t *vdraw, bool secondary,
                      const bi_vertex_grid *grid, unsigned instances, uint64_t *fva)
{
    job_desc d;
    memset(&d, 0, sizeof(d));
    uint32_t code = draw_desc_parse(&job->mem, vdraw, secondary, &d, fva);
    if (!code) {
        d.vertex = grid;
        d.stage = secondary ? GPU_STAGE_VARYING : GPU_STAGE_POSITION;
        d.local[0] = VERTICES_PER_WG;
        d.local[1] = d.local[2] = 1;
        d.groups[0] = (grid->count + VERTICES_PER_WG - 1) / VERTICES_PER_WG;
        d.groups[1] = instances;
        d.groups[2] = 1;
        d.wls_size = 0;
        code = engine_run_desc(e, job, &d, fva);
    }
    draw_desc_free(&d);
    return code;
}

/* Read the first len bytes of a draw's job (IDVS or TILER) and its vertex count and instances
 * from the invocation at inv_offset: 0 or the exception code (*fault_va set). */
static uint32_t read_draw(const gpu_compute_job *job, uint8_t *jd, size_t len, size_t inv_offset, const char *what,
                          unsigned *count, unsigned *instances, uint64_t *fault_va)
{
    const gpu_mem_if *m = &job->mem;
    uint32_t code;
    *fault_va = 0;
    if ((code = m->read(m->ctx, job->job_va, jd, len))) {
        *fault_va = job->job_va;
        return code;
    }
    if (draw_size(jd + inv_offset, count, instances)) {
        fprintf(stderr, "gpu: %s job at 0x%llx: invocation gives no vertices or too many\n", what,
                (unsigned long long)job->job_va);
        *fault_va = job->job_va;
        return EXC_JOB_CONFIG_FAULT;
    }
    return 0;
}

/* A draw's end: its counts to the observer when it binned, else its fault reported. */
static uint32_t end_draw(gpu_compute *e, const gpu_compute_job *job, const char *what, uint32_t code, uint64_t fva,
                         const char *err, const gpu_gfx_draw_counts *dc, uint64_t *fault_va)
{
    if (!code) {
        if (e->hooks.gfx_draw)
            e->hooks.gfx_draw(job->type, dc);
        return EXC_DONE;
    }
    if (*err)
        fprintf(stderr, "gpu: %s job at 0x%llx: %s\n", what, (unsigned long long)job->job_va, err);
    *fault_va = fva ? fva : job->job_va;
    return code;
}

uint32_t gfx_idvs_job_run(gpu_compute *e, const gpu_compute_job *job, uint64_t *fault_va)
{
    uint8_t jd[MALI_INDEXED_VERTEX_JOB_LENGTH];
    char err[160] = "";
    uint64_t fva = job->job_va;
    unsigned count, instances;
    uint32_t code = read_draw(job, jd, sizeof(jd), MALI_INDEXED_VERTEX_JOB_SECTION_INVOCATION_OFFSET, "IDVS", &count,
                              &instances, fault_va);
    if (code)
        return code;
    struct mali_draw fdraw;
    struct mali_primitive prim;
    mali_draw_unpack(jd + MALI_INDEXED_VERTEX_JOB_SECTION_FRAGMENT_DRAW_OFFSET, &fdraw);
    mali_primitive_unpack(jd + MALI_INDEXED_VERTEX_JOB_SECTION_PRIMITIVE_OFFSET, &prim);
    /* Instance Size is a padded count (Mesa: the padded vertex count of an instanced draw) */
    uint64_t isz = gfx_instance_size(&fdraw, instances);
    if (isz > MAX_VERTICES) {
        fprintf(stderr, "gpu: IDVS job at 0x%llx: instance size %llu\n", (unsigned long long)job->job_va,
                (unsigned long long)isz);
        *fault_va = job->job_va;
        return EXC_JOB_CONFIG_FAULT;
    }
    bi_vertex_grid grid = { .count = count, .instance_size = (uint32_t)isz, .pos_base = fdraw.position };
    code = shade(e, job, jd + MALI_INDEXED_VERTEX_JOB_SECTION_VERTEX_DRAW_OFFSET, false, &grid, instances, &fva);
    if (!code && prim.secondary_shader)
        code = shade(e, job, jd + MALI_INDEXED_VERTEX_JOB_SECTION_VERTEX_DRAW_OFFSET, true, &grid, instances, &fva);
    gpu_gfx_draw_counts dc = { 0 };
    if (!code)
        code = gfx_tiler_bin(job, jd, count, instances, &fva, err, sizeof(err), &dc);
    return end_draw(e, job, "IDVS", code, fva, err, &dc, fault_va);
}

/* The TILER job front end (job_type.h): the tiler half of a draw whose vertices a VERTEX job
 * (compute-shaped, compute_job.c) shaded before it; same layout up to the fragment DCD (genxml
 * "Tiler Job", 256 bytes). */
uint32_t gfx_tiler_job_run(gpu_compute *e, const gpu_compute_job *job, uint64_t *fault_va)
{
    uint8_t jd[MALI_TILER_JOB_LENGTH];
    char err[160] = "";
    uint64_t fva = job->job_va;
    unsigned count, instances;
    uint32_t code = read_draw(job, jd, sizeof(jd), MALI_TILER_JOB_SECTION_INVOCATION_OFFSET, "tiler", &count, &instances,
                              fault_va);
    if (code)
        return code;
    gpu_gfx_draw_counts dc = { 0 };
    code = gfx_tiler_bin(job, jd, count, instances, &fva, err, sizeof(err), &dc);
    return end_draw(e, job, "tiler", code, fva, err, &dc, fault_va);
}
