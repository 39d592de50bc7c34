/* The FRAGMENT job front end (job_type.h): the job's tile bounds and framebuffer descriptor
 * (gfx_fb.h); the polygon list the frame's tiler jobs left in the tiler heap (gfx_polylist.h),
 * read once; for each draw on it, the state its fragment DCD gives (shader program, tables,
 * depth/stencil, blend descriptors, scissor); then the tiles in the bounds as the pool's work
 * items (gfx_shade.c), each independent of the others, so results do not depend on the number of
 * host threads. */
#include "gfx_frag_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DRAWS (1u << 20)
#define MAX_LIST_BYTES (256u << 20)          /* polygon-list bytes read per frame */

static uint32_t fail(gfx_frame *f, uint64_t *fva, uint64_t va, uint32_t code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->err, sizeof(f->err), fmt, ap);
    va_end(ap);
    *fva = va;
    return code;
}

static void *read_array(const gpu_mem_if *m, uint64_t va, size_t n, size_t size, uint64_t *budget, uint32_t *code)
{
    size_t bytes = n * size;
    if (bytes > *budget) {
        *code = MALI_EXC_DATA_INVALID_FAULT;
        return NULL;
    }
    *budget -= bytes;
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        *code = MALI_EXC_DATA_INVALID_FAULT;
        return NULL;
    }
    if (bytes && (*code = m->read(m->ctx, va, p, bytes))) {
        free(p);
        return NULL;
    }
    return p;
}

/* A draw's state from the fragment DCD at dva (a draw's job + 128, or a frame shader's) */
static uint32_t draw_state(gfx_frame *f, gfx_draw *dr, uint64_t dva, uint64_t *fva)
{
    const gpu_mem_if *m = &f->job->mem;
    uint8_t dcd[MALI_DRAW_LENGTH], rsd[MALI_RENDERER_STATE_LENGTH];
    uint32_t code;
    if ((code = m->read(m->ctx, dva, dcd, sizeof(dcd))))
        return fail(f, fva, dva, code, "fragment DCD at %#llx unreadable", (unsigned long long)dva);
    *fva = dva;
    if ((code = draw_desc_parse(m, dcd, false, &dr->d, fva)))
        return fail(f, fva, *fva, code, "fragment DCD at %#llx: bad descriptors", (unsigned long long)dva);
    struct mali_draw dd;
    mali_draw_unpack(dcd, &dd);
    dr->position = dd.position;
    dr->front_ccw = dd.front_face_ccw;
    dr->cull_front = dd.cull_front_face;
    dr->cull_back = dd.cull_back_face;
    dr->flat_vertex = dd.flat_shading_vertex;
    dr->sx0 = 0;
    dr->sy0 = 0;
    dr->sx1 = (int)f->fb.width - 1;
    dr->sy1 = (int)f->fb.height - 1;
    dr->zmin = 0;
    dr->zmax = 1;
    if (dd.viewport) {
        uint8_t vp[MALI_VIEWPORT_LENGTH];
        struct mali_viewport v;
        if ((code = m->read(m->ctx, dd.viewport, vp, sizeof(vp))))
            return fail(f, fva, dd.viewport, code, "viewport unreadable");
        mali_viewport_unpack(vp, &v);
        dr->sx0 = (int)v.scissor_minimum_x > dr->sx0 ? (int)v.scissor_minimum_x : dr->sx0;
        dr->sy0 = (int)v.scissor_minimum_y > dr->sy0 ? (int)v.scissor_minimum_y : dr->sy0;
        dr->sx1 = (int)v.scissor_maximum_x < dr->sx1 ? (int)v.scissor_maximum_x : dr->sx1;
        dr->sy1 = (int)v.scissor_maximum_y < dr->sy1 ? (int)v.scissor_maximum_y : dr->sy1;
        dr->zmin = v.minimum_z;
        dr->zmax = v.maximum_z;
    }
    if ((code = m->read(m->ctx, dr->d.rsd, rsd, sizeof(rsd))))
        return fail(f, fva, dr->d.rsd, code, "renderer state unreadable");
    struct mali_renderer_state rs;
    mali_renderer_state_unpack(rsd, &rs);
    dr->depth_func = rs.depth_function;
    dr->depth_write = rs.depth_write_mask;
    dr->stencil_enable = rs.stencil_enable;
    dr->depth_from_shader = rs.depth_source == MALI_DEPTH_SOURCE_SHADER;
    dr->stencil_from_shader = rs.stencil_from_shader;
    dr->early_kill = rs.pixel_kill_operation != MALI_PIXEL_KILL_FORCE_LATE && !dr->depth_from_shader;
    dr->early_update = rs.zs_update_operation != MALI_PIXEL_KILL_FORCE_LATE && !dr->depth_from_shader;
    dr->near_discard = rs.fixed_function_near_discard;
    dr->far_discard = rs.fixed_function_far_discard;
    dr->alpha_to_coverage = rs.alpha_to_coverage;
    dr->sample_mask = (uint16_t)(rs.multisample_enable ? rs.sample_mask : 0xffff);
    dr->per_sample = rs.multisample_enable && rs.evaluate_per_sample;
    dr->depth_units = rs.depth_units;
    dr->depth_factor = rs.depth_factor;
    dr->depth_clamp = rs.depth_bias_clamp;
    dr->bias_front = rs.front_facing_depth_bias;
    dr->bias_back = rs.back_facing_depth_bias;
    dr->point_origin_max_y = rs.point_sprite_coord_origin_max_y;
    if (f->job->arch_major >= 7) {            /* v7: messages the hardware runs before the shader */
        dr->msg[0] = (uint16_t)rs.message_preload_1;
        dr->msg[1] = (uint16_t)rs.message_preload_2;
    }
    /* the blend descriptors follow the renderer state, one per render target */
    dr->blend_va = dr->d.rsd + MALI_RENDERER_STATE_LENGTH;
    for (unsigned i = 0; i < f->fb.nrts; i++) {
        uint8_t b[MALI_BLEND_LENGTH];
        struct mali_blend bl = { 0 };
        uint64_t bva = dr->blend_va + (uint64_t)MALI_BLEND_LENGTH * i;
        if ((code = m->read(m->ctx, bva, b, sizeof(b))))
            return fail(f, fva, bva, code, "blend descriptor %u unreadable", i);
        (void)bl;
        uint32_t words[4];
        memcpy(words, b, sizeof(words));
        const gfx_rt *rt = &f->fb.rt[i];
        bool unorm = rt->internal_format >= MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A8 &&
                     rt->internal_format <= MALI_COLOR_BUFFER_INTERNAL_FORMAT_R5G5B5A1;
        unsigned bits = rt->internal_format == MALI_COLOR_BUFFER_INTERNAL_FORMAT_R10G10B10A2 ? 10
                        : rt->internal_format == MALI_COLOR_BUFFER_INTERNAL_FORMAT_R4G4B4A4 ? 4
                        : rt->internal_format == MALI_COLOR_BUFFER_INTERNAL_FORMAT_R5G6B5A0 ||
                          rt->internal_format == MALI_COLOR_BUFFER_INTERNAL_FORMAT_R5G5B5A1 ? 5 : 8;
        int brc = gfx_blend_state_init(&dr->blend[i], words, bits, unorm);
        dr->blend_shader[i] = brc == -1;
        if (brc == -2)
            fprintf(stderr, "gpu: fragment job at 0x%llx: blend descriptor %u uses a reserved operand (read as 0)\n",
                    (unsigned long long)f->job->job_va, i);
        memcpy(&dr->blend_desc[i], b + 8, 8);
        dr->fau[8 + i] = dr->blend_desc[i];
    }
    dr->fau[4] = (uint64_t)f->fb.width | (uint64_t)f->fb.height << 16;
    dr->fau[6] = f->fb.sample_locations;
    if (dr->d.shader_va) {
        pthread_mutex_lock(&f->e->lock);
        dr->prog = program_cache_get(&f->e->cache, dr->d.shader_va, f->job->as, f->job->arch_major >= 7 ? 7 : 6,
                                     &dr->cached);
        pthread_mutex_unlock(&f->e->lock);
        if (!dr->prog)
            return fail(f, fva, dr->d.shader_va, MALI_EXC_DATA_INVALID_FAULT, "host out of memory");
    }
    return 0;
}

/* The polygon list of the framebuffer's tiler context, draw by draw */
static uint32_t read_polygon_list(gfx_frame *f, uint64_t *fva)
{
    const gpu_mem_if *m = &f->job->mem;
    uint32_t code;
    if (!f->fb.tiler)
        return 0;                                /* no tiler context: nothing was drawn */
    gfx_pl_state st;
    if ((code = m->read(m->ctx, f->fb.tiler + GFX_PL_STATE_OFFSET, &st, sizeof(st))))
        return fail(f, fva, f->fb.tiler, code, "tiler context unreadable");
    if (st.magic != GFX_PL_STATE_MAGIC)
        return 0;                                /* no tiler job ran: clear only */
    if (st.ndraws > MAX_DRAWS)
        return fail(f, fva, f->fb.tiler, MALI_EXC_DATA_INVALID_FAULT, "%u draws in the polygon list", st.ndraws);
    f->draws = calloc(st.ndraws ? st.ndraws : 1, sizeof(*f->draws));
    if (!f->draws)
        return fail(f, fva, f->fb.tiler, MALI_EXC_DATA_INVALID_FAULT, "host out of memory");
    uint64_t budget = MAX_LIST_BYTES, va = st.first;
    for (unsigned i = 0; i < st.ndraws && va; i++) {
        gfx_draw *dr = &f->draws[f->ndraws++];
        if ((code = m->read(m->ctx, va, &dr->pl, sizeof(dr->pl))))
            return fail(f, fva, va, code, "polygon list record unreadable");
        if (dr->pl.magic != GFX_PL_DRAW_MAGIC)
            return fail(f, fva, va, MALI_EXC_DATA_INVALID_FAULT, "polygon list record %u damaged", i);
        size_t nbins = dr->pl.tx0 <= dr->pl.tx1 && dr->pl.ty0 <= dr->pl.ty1
                           ? (size_t)(dr->pl.tx1 - dr->pl.tx0 + 1u) * (dr->pl.ty1 - dr->pl.ty0 + 1u) : 0;
        if (!nbins) {
            dr->pl.tx0 = 1;
            dr->pl.tx1 = 0;
        }
        dr->prims = read_array(m, dr->pl.prims, dr->pl.nprims, sizeof(gfx_pl_prim), &budget, &code);
        dr->bins = dr->prims ? read_array(m, dr->pl.bins, nbins, sizeof(gfx_pl_bin), &budget, &code) : NULL;
        if (!dr->prims || !dr->bins)
            return fail(f, fva, va, code, "polygon list arrays unreadable");
        size_t nentries = 0;
        for (size_t b = 0; b < nbins; b++) {
            if ((uint64_t)dr->bins[b].first + dr->bins[b].count > nentries)
                nentries = (size_t)dr->bins[b].first + dr->bins[b].count;
        }
        dr->entries = read_array(m, dr->pl.entries, nentries, sizeof(uint32_t), &budget, &code);
        if (!dr->entries)
            return fail(f, fva, va, code, "polygon list entries unreadable");
        for (size_t k = 0; k < nentries; k++)
            if (dr->entries[k] >= dr->pl.nprims)
                return fail(f, fva, va, MALI_EXC_DATA_INVALID_FAULT, "polygon list entry out of range");
        for (uint32_t k = 0; k < dr->pl.nprims; k++)
            if (dr->prims[k].provoking > 2)
                return fail(f, fva, va, MALI_EXC_DATA_INVALID_FAULT, "polygon list primitive damaged");
        if ((code = draw_state(f, dr, dr->pl.job + MALI_INDEXED_VERTEX_JOB_SECTION_FRAGMENT_DRAW_OFFSET, fva)))
            return code;
        va = dr->pl.next;
    }
    return 0;
}

/* The pre- and post-frame shaders' DCDs (three after Frame Shader DCDs: pre-frame 0 and 1,
 * post-frame), each drawn over whole tiles with its position buffer's first three vertices as
 * the plane its varyings follow */
static uint32_t read_frame_shaders(gfx_frame *f, uint64_t *fva)
{
    const gpu_mem_if *m = &f->job->mem;
    unsigned modes[3] = { f->fb.pre_frame[0], f->fb.pre_frame[1], f->fb.post_frame };
    for (unsigned k = 0; k < 3; k++) {
        if (modes[k] == MALI_PRE_POST_FRAME_SHADER_MODE_NEVER)
            continue;
        gfx_draw *dr = &f->frame[k];
        uint64_t dva = f->fb.frame_dcds + (uint64_t)MALI_DRAW_LENGTH * k;
        uint32_t code = draw_state(f, dr, dva, fva);
        if (code)
            return code;
        float pos[3][4];
        if ((code = m->read(m->ctx, dr->position, pos, sizeof(pos))))
            return fail(f, fva, dr->position, code, "frame shader %u: positions unreadable", k);
        double x0 = pos[0][0], y0 = pos[0][1];
        double d = (pos[1][0] - x0) * (pos[2][1] - y0) - (pos[2][0] - x0) * (pos[1][1] - y0);
        if (!(d != 0) || !isfinite(d))
            return fail(f, fva, dr->position, MALI_EXC_DATA_INVALID_FAULT, "frame shader %u: degenerate positions", k);
        /* barycentric weight of vertex 1 / 2 at (x, y): a plane in x and y */
        f->frame_plane[k][0] = x0;
        f->frame_plane[k][1] = y0;
        f->frame_plane[k][2] = (pos[2][1] - y0) / d;
        f->frame_plane[k][3] = -(pos[2][0] - x0) / d;
        f->frame_plane[k][4] = -(pos[1][1] - y0) / d;
        f->frame_plane[k][5] = (pos[1][0] - x0) / d;
        f->frame_mode[k] = modes[k];
    }
    return 0;
}

bi_program *gfx_blend_program(gfx_frame *f, uint64_t va)
{
    bi_program *p = NULL;
    pthread_mutex_lock(&f->err_lock);
    for (unsigned i = 0; i < f->nblend_progs && !p; i++)
        if (f->blend_progs[i].va == va)
            p = f->blend_progs[i].prog;
    if (!p && f->nblend_progs < sizeof(f->blend_progs) / sizeof(f->blend_progs[0])) {
        int cached;
        pthread_mutex_lock(&f->e->lock);
        p = program_cache_get(&f->e->cache, va, f->job->as, f->job->arch_major >= 7 ? 7 : 6, &cached);
        pthread_mutex_unlock(&f->e->lock);
        if (p)
            f->blend_progs[f->nblend_progs++] = (typeof(f->blend_progs[0])){ va, p, cached };
    }
    pthread_mutex_unlock(&f->err_lock);
    return p;
}

void gfx_blend_programs_find(gfx_frame *f)
{
    for (size_t i = 0; i < 3 + (size_t)f->ndraws; i++) {
        const gfx_draw *dr = i < 3 ? &f->frame[i] : &f->draws[i - 3];
        if (!dr->prog)
            continue;
        for (unsigned rt = 0; rt < f->fb.nrts && rt < GFX_MAX_RTS; rt++) {
            uint64_t call = 0;
            unsigned mask;
            if (dr->blend_shader[rt] &&
                gfx_blend_route(dr->blend_desc[rt], rt, f->fb.nrts, 0, dr->d.shader_va, &dr->blend[rt], &call,
                                &mask) == GFX_BLEND_CALL)
                (void)gfx_blend_program(f, call);
        }
    }
    f->nblend_known = f->nblend_progs;
}

static void frame_free(gfx_frame *f)
{
    for (unsigned i = 0; i < f->nblend_progs; i++) {
        pthread_mutex_lock(&f->e->lock);
        program_cache_put(&f->e->cache, f->blend_progs[i].prog, f->blend_progs[i].cached);
        pthread_mutex_unlock(&f->e->lock);
    }
    for (unsigned k = 0; k < 3; k++) {
        gfx_draw *dr = &f->frame[k];
        if (dr->prog) {
            pthread_mutex_lock(&f->e->lock);
            program_cache_put(&f->e->cache, dr->prog, dr->cached);
            pthread_mutex_unlock(&f->e->lock);
        }
        draw_desc_free(&dr->d);
    }
    for (unsigned i = 0; i < f->ndraws; i++) {
        gfx_draw *dr = &f->draws[i];
        if (dr->prog) {
            pthread_mutex_lock(&f->e->lock);
            program_cache_put(&f->e->cache, dr->prog, dr->cached);
            pthread_mutex_unlock(&f->e->lock);
        }
        draw_desc_free(&dr->d);
        free(dr->prims);
        free(dr->bins);
        free(dr->entries);
    }
    free(f->draws);
    if (f->tiles)
        for (unsigned i = 0; i < f->e->nthreads; i++)
            gfx_tile_free(&f->tiles[i]);
    free(f->tiles);
    free(f->counts);
    pthread_mutex_destroy(&f->err_lock);
}

uint32_t gfx_fragment_job_run(gpu_compute *e, const gpu_compute_job *job, uint64_t *fault_va)
{
    const gpu_mem_if *m = &job->mem;
    uint8_t pl[MALI_FRAGMENT_JOB_PAYLOAD_LENGTH];
    uint32_t code;
    gfx_frame f;
    memset(&f, 0, sizeof(f));
    pthread_mutex_init(&f.err_lock, NULL);
    f.e = e;
    f.job = job;
    f.lanes = job->arch_major >= 7 ? 8 : 4;
    *fault_va = 0;
    uint64_t fva = 0;
    if ((code = m->read(m->ctx, job->job_va + MALI_FRAGMENT_JOB_SECTION_PAYLOAD_OFFSET, pl, sizeof(pl)))) {
        *fault_va = job->job_va;
        frame_free(&f);
        return code;
    }
    struct mali_fragment_job_payload p;
    mali_fragment_job_payload_unpack(pl, &p);
    code = gfx_fb_parse(m, p.framebuffer, job->arch_major, &f.fb, &fva, f.err, sizeof(f.err));
    if (!code && p.has_tile_enable_map)
        code = fail(&f, &fva, job->job_va, MALI_EXC_DATA_INVALID_FAULT, "tile enable maps not implemented");
    if (!code && (p.bound_max_x < p.bound_min_x || p.bound_max_y < p.bound_min_y))
        code = fail(&f, &fva, job->job_va, MALI_EXC_JOB_CONFIG_FAULT, "empty tile bounds");
    if (!code)
        code = read_polygon_list(&f, &fva);
    if (!code)
        code = read_frame_shaders(&f, &fva);
    if (!code)
        gfx_blend_programs_find(&f);
    if (!code) {
        f.tiles = calloc(e->nthreads, sizeof(*f.tiles));
        f.counts = calloc(e->nthreads, sizeof(*f.counts));
        for (unsigned i = 0; f.tiles && i < e->nthreads; i++)
            if (gfx_tile_reserve(&f.tiles[i], &f.fb))
                code = fail(&f, &fva, job->job_va, MALI_EXC_DATA_INVALID_FAULT, "host out of memory");
        if (!f.tiles || !f.counts)
            code = fail(&f, &fva, job->job_va, MALI_EXC_DATA_INVALID_FAULT, "host out of memory");
    }
    if (!code) {
        /* tiles inside the frame: the job's bounds clipped to the framebuffer */
        unsigned tx1 = p.bound_max_x, ty1 = p.bound_max_y;
        unsigned fx1 = f.fb.width ? (f.fb.width - 1) / GFX_TILE : 0, fy1 = f.fb.height ? (f.fb.height - 1) / GFX_TILE : 0;
        tx1 = tx1 < fx1 ? tx1 : fx1;
        ty1 = ty1 < fy1 ? ty1 : fy1;
        f.tx0 = p.bound_min_x;
        f.ty0 = p.bound_min_y;
        if (f.tx0 <= tx1 && f.ty0 <= ty1) {
            f.tiles_x = tx1 - f.tx0 + 1;
            run r;
            memset(&r, 0, sizeof(r));
            r.job = job;
            r.item = gfx_shade_tile;
            r.item_ctx = &f;
            r.announce = gfx_stats_announce;
            r.prog = gfx_stats_first_program(&f);          /* --timing's per-job counters */
            r.total_wgs = (uint64_t)f.tiles_x * (ty1 - f.ty0 + 1);
            r.d.local[0] = f.lanes;
            r.d.local[1] = r.d.local[2] = 1;
            r.d.groups[0] = r.d.groups[1] = r.d.groups[2] = 1;
            for (unsigned i = 0; i < f.ndraws; i++)
                if (f.draws[i].d.tls_stride > r.d.tls_stride)
                    r.d.tls_stride = f.draws[i].d.tls_stride;
            for (unsigned k = 0; k < 3; k++)
                if (f.frame[k].d.tls_stride > r.d.tls_stride)
                    r.d.tls_stride = f.frame[k].d.tls_stride;
            for (unsigned i = 0; i < 64 && r.ncores < 64; i++)
                if (job->core_mask >> i & 1)
                    r.core_ids[r.ncores++] = i;
            if (!r.ncores)
                r.core_ids[r.ncores++] = 0;
            code = scheduler_run(e, &r);
            if (!code && r.status) {
                code = r.status;
                fva = r.fault_va;
            }
            if (!code && e->hooks.gfx_frame) {
                gpu_gfx_frame_counts fc;
                gfx_stats_frame_sum(&f, e->nthreads, &fc);
                e->hooks.gfx_frame(&fc);
            }
        }
    }
    if (code) {
        if (*f.err)
            fprintf(stderr, "gpu: fragment job at 0x%llx: %s\n", (unsigned long long)job->job_va, f.err);
        *fault_va = fva ? fva : job->job_va;
    }
    frame_free(&f);
    return code ? code : EXC_DONE;
}
