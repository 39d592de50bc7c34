/* The tiler (gfx_tiler.h): reads the draw's Primitive, index buffer and shaded positions
 * (window x, y, depth and 1/w per vertex slot, as the position shader wrote them), assembles its
 * primitives (gfx_prim.h), culls zero-area and back/front faces as the fragment DCD asks, and
 * bins the rest by their tile boxes inside the scissor into the polygon list (gfx_polylist.h).
 * Primitives that cross w = 0 are binned by the box of their clipped part (gfx_clip_bounds) and
 * clipped again when rasterized. */
#include "gfx_tiler.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx_clip.h"
#include "gfx_fb.h"
#include "gfx_pixel.h"
#include "gfx_polylist.h"
#include "gfx_prim.h"
#include "mali_formats.h"

#define MAX_INDEX_BYTES (64u << 20)
#define MAX_POSITIONS (4u << 20)             /* vertex slots read per draw */
#define MAX_ENTRIES (16u << 20)              /* (primitive, tile) pairs per draw */
#define TILER_CONTEXT_BYTES 192u

typedef struct {
    const float (*pos)[4];
    uint32_t nslots;
    uint32_t count, instance, instance_size;
    unsigned kind;                           /* GFX_PL_* */
    bool cull_front, cull_back, front_ccw;
    int sx0, sy0, sx1, sy1;                  /* scissor box, pixels, inclusive */
    float point_size;                        /* points: fixed size (0: per-vertex array) */
    const uint16_t *psize;                   /* per-vertex fp16 sizes (host copy), or NULL */
    float line_width;
    gfx_pl_prim *prims;
    uint16_t (*box)[4];
    size_t n, cap;
    uint64_t culled, dropped;
    uint64_t in, clipped;                    /* for the observer */
    bool oom;
} bin_ctx;

static bool add_prim(void *vctx, const struct gfx_prim *p)
{
    bin_ctx *c = vctx;
    gfx_pl_prim pr = { .id = p->id };
    float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    bool clip = false;
    c->in++;
    for (unsigned i = 0; i < p->nverts; i++) {
        if (p->v[i] >= c->count) {           /* an index outside the shaded vertices */
            c->dropped++;
            return true;
        }
        uint32_t slot = p->v[i] + c->instance * c->instance_size;
        if (slot >= c->nslots) {
            c->dropped++;
            return true;
        }
        pr.v[i] = slot;
        if (p->v[i] == p->provoking)
            pr.provoking = i;
        const float *q = c->pos[slot];
        if (!(q[3] > 0) || !isfinite(q[0]) || !isfinite(q[1]) || !isfinite(q[3])) {
            clip = true;
            continue;
        }
        float r = 0;
        if (c->kind == GFX_PL_POINTS)
            r = (c->psize ? gfx_half_to_float(c->psize[slot]) : c->point_size) * 0.5f + 1;
        else if (c->kind == GFX_PL_LINES)
            r = c->line_width * 0.5f + 1;
        x0 = fminf(x0, q[0] - r);
        y0 = fminf(y0, q[1] - r);
        x1 = fmaxf(x1, q[0] + r);
        y1 = fmaxf(y1, q[1] + r);
    }
    for (unsigned i = p->nverts; i < 3; i++)
        pr.v[i] = pr.v[0];
    if (clip) {
        /* crosses w = 0 (or has a lost position): bin the part the fragment side will draw, clipped
         * as it clips (gfx_shade.c: w >= GFX_CLIP_W_MIN and the guard band, no depth planes); a
         * primitive wholly behind the eye leaves nothing and is culled (glmark2's terrain: some
         * 18000 such triangles of the ground behind the camera each took every tile of the
         * frame, 54 million entries).  Assumption: the hardware's tiler, whose clipping Arm does
         * not document, does not list primitives it cannot draw either. */
        static const struct gfx_clip_params cp = { .depth_clip = false };
        struct gfx_clip_vertex cv[3];
        for (unsigned i = 0; i < p->nverts; i++) {
            const float *q = c->pos[pr.v[i]];
            cv[i] = (struct gfx_clip_vertex){ q[0], q[1], q[2], q[3] };
        }
        float b[4];
        if (!gfx_clip_bounds(&cp, cv, p->nverts, b)) {
            c->culled++;
            return true;
        }
        float r = c->kind == GFX_PL_POINTS ? (c->psize ? gfx_half_to_float(c->psize[pr.v[0]]) : c->point_size) * 0.5f + 1
                  : c->kind == GFX_PL_LINES ? c->line_width * 0.5f + 1
                                            : 0;
        x0 = b[0] - r;
        y0 = b[1] - r;
        x1 = b[2] + r;
        y1 = b[3] + r;
    }
    if (c->kind == GFX_PL_TRIANGLES && !clip) {
        const float *a = c->pos[pr.v[0]], *b = c->pos[pr.v[1]], *d = c->pos[pr.v[2]];
        double area = ((double)a[0] * b[1] - (double)b[0] * a[1]) + ((double)b[0] * d[1] - (double)d[0] * b[1]) +
                      ((double)d[0] * a[1] - (double)a[0] * d[1]);
        if (area == 0 || !isfinite(area)) {
            c->culled++;
            return true;
        }
        bool front = (area > 0) != c->front_ccw; /* rows going down: as gfx_raster.c */
        if (!front)
            pr.flags |= GFX_PL_BACK;
        if ((front && c->cull_front) || (!front && c->cull_back)) {
            c->culled++;
            return true;
        }
    }
    int bx0 = c->sx0, by0 = c->sy0, bx1 = c->sx1, by1 = c->sy1;
    if (x1 < bx0 || y1 < by0 || x0 > bx1 + 1 || y0 > by1 + 1) {
        c->culled++;
        return true;
    }
    if (clip) {
        pr.flags |= GFX_PL_CLIP;
        c->clipped++;
    }
    if (x0 > bx0)
        bx0 = (int)x0;
    if (y0 > by0)
        by0 = (int)y0;
    if (x1 < bx1)
        bx1 = (int)x1;
    if (y1 < by1)
        by1 = (int)y1;
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 256;
        gfx_pl_prim *np = realloc(c->prims, cap * sizeof(*np));
        uint16_t (*nb)[4] = realloc(c->box, cap * sizeof(*nb));
        if (np)
            c->prims = np;
        if (nb)
            c->box = nb;
        if (!np || !nb) {
            c->oom = true;
            return false;
        }
        c->cap = cap;
    }
    c->prims[c->n] = pr;
    c->box[c->n][0] = (uint16_t)(bx0 / GFX_TILE);
    c->box[c->n][1] = (uint16_t)(by0 / GFX_TILE);
    c->box[c->n][2] = (uint16_t)(bx1 / GFX_TILE);
    c->box[c->n][3] = (uint16_t)(by1 / GFX_TILE);
    c->n++;
    return true;
}

static uint32_t fail(uint64_t *fva, uint64_t va, uint32_t code, char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    *fva = va;
    return code;
}

static unsigned prim_kind(unsigned mode)
{
    switch (mode) {
    case GFX_DRAW_POINTS: return GFX_PL_POINTS;
    case GFX_DRAW_LINES: case GFX_DRAW_LINE_STRIP: case GFX_DRAW_LINE_LOOP: return GFX_PL_LINES;
    default: return GFX_PL_TRIANGLES;
    }
}

/* Append the draw's record and arrays to the heap and link it into the list.  The arrays are
 * built here: bins over the draw's tile box, entries in primitive order. */
static uint32_t write_draw(const gpu_mem_if *m, uint64_t ctx_va, gfx_pl_state *st, uint64_t heap_top, uint64_t job_va,
                           const bin_ctx *c, float psize_fixed, uint64_t psize_array, uint64_t *fva, char *err,
                           size_t errlen)
{
    gfx_pl_draw d = { .magic = GFX_PL_DRAW_MAGIC, .nprims = (uint32_t)c->n, .job = job_va, .tx0 = 1, .tx1 = 0,
                      .kind = c->kind, .line_width = c->kind == GFX_PL_POINTS ? (psize_array ? 0 : psize_fixed) : c->line_width,
                      .psize = psize_array };
    unsigned tx0 = 0xffff, ty0 = 0xffff, tx1 = 0, ty1 = 0;
    for (size_t i = 0; i < c->n; i++) {
        tx0 = c->box[i][0] < tx0 ? c->box[i][0] : tx0;
        ty0 = c->box[i][1] < ty0 ? c->box[i][1] : ty0;
        tx1 = c->box[i][2] > tx1 ? c->box[i][2] : tx1;
        ty1 = c->box[i][3] > ty1 ? c->box[i][3] : ty1;
    }
    size_t nbins = 0, nentries = 0;
    gfx_pl_bin *bins = NULL;
    uint32_t *entries = NULL;
    if (c->n) {
        d.tx0 = (uint16_t)tx0;
        d.ty0 = (uint16_t)ty0;
        d.tx1 = (uint16_t)tx1;
        d.ty1 = (uint16_t)ty1;
        unsigned w = tx1 - tx0 + 1;
        nbins = (size_t)w * (ty1 - ty0 + 1);
        bins = calloc(nbins, sizeof(*bins));
        if (!bins)
            return fail(fva, job_va, MALI_EXC_DATA_INVALID_FAULT, err, errlen, "host out of memory");
        for (size_t i = 0; i < c->n; i++)
            for (unsigned y = c->box[i][1]; y <= c->box[i][3]; y++)
                for (unsigned x = c->box[i][0]; x <= c->box[i][2]; x++)
                    bins[(size_t)(y - ty0) * w + (x - tx0)].count++;
        for (size_t b = 0; b < nbins; b++) {
            bins[b].first = (uint32_t)nentries;
            nentries += bins[b].count;
            bins[b].count = 0;
        }
        if (nentries > MAX_ENTRIES) {
            free(bins);
            return fail(fva, job_va, MALI_EXC_OOM, err, errlen, "%zu primitive-tile pairs in one draw", nentries);
        }
        entries = malloc((nentries ? nentries : 1) * sizeof(*entries));
        if (!entries) {
            free(bins);
            return fail(fva, job_va, MALI_EXC_DATA_INVALID_FAULT, err, errlen, "host out of memory");
        }
        for (size_t i = 0; i < c->n; i++)
            for (unsigned y = c->box[i][1]; y <= c->box[i][3]; y++)
                for (unsigned x = c->box[i][0]; x <= c->box[i][2]; x++) {
                    gfx_pl_bin *b = &bins[(size_t)(y - ty0) * w + (x - tx0)];
                    entries[b->first + b->count++] = (uint32_t)i;
                }
    }
    uint64_t at = (st->write + 7) & ~7ull;
    d.prims = at + sizeof(d);
    d.bins = d.prims + c->n * sizeof(gfx_pl_prim);
    d.entries = d.bins + nbins * sizeof(gfx_pl_bin);
    uint64_t end = (d.entries + nentries * sizeof(uint32_t) + 7) & ~7ull;
    uint32_t code = 0;
    if (end > heap_top || end < at) {
        code = fail(fva, job_va, MALI_EXC_OOM, err, errlen, "tiler heap full (%llu bytes more needed)",
                    (unsigned long long)(end - at));
    } else if ((code = m->write(m->ctx, at, &d, sizeof(d))) ||
               (c->n && (code = m->write(m->ctx, d.prims, c->prims, c->n * sizeof(gfx_pl_prim)))) ||
               (nbins && (code = m->write(m->ctx, d.bins, bins, nbins * sizeof(gfx_pl_bin)))) ||
               (nentries && (code = m->write(m->ctx, d.entries, entries, nentries * sizeof(uint32_t))))) {
        *fva = at;
        snprintf(err, errlen, "polygon list write fault in the tiler heap at %#llx", (unsigned long long)at);
    } else if (st->last && (code = m->write(m->ctx, st->last + offsetof(gfx_pl_draw, next), &at, 8))) {
        *fva = st->last;
        snprintf(err, errlen, "polygon list link fault at %#llx", (unsigned long long)st->last);
    }
    free(bins);
    free(entries);
    if (code)
        return code;
    if (!st->first)
        st->first = at;
    st->last = at;
    st->write = end;
    st->ndraws++;
    if ((code = m->write(m->ctx, ctx_va + GFX_PL_STATE_OFFSET, st, sizeof(*st)))) {
        *fva = ctx_va;
        snprintf(err, errlen, "tiler context state write fault");
    }
    return code;
}

uint32_t gfx_tiler_bin(const gpu_compute_job *job, const uint8_t *jd, unsigned count, unsigned instances,
                       uint64_t *fva, char *err, size_t errlen, gpu_gfx_draw_counts *counts)
{
    const gpu_mem_if *m = &job->mem;
    struct mali_primitive prim;
    struct mali_primitive_size psz;
    struct mali_draw fdraw;
    uint32_t code;
    mali_primitive_unpack(jd + MALI_INDEXED_VERTEX_JOB_SECTION_PRIMITIVE_OFFSET, &prim);
    mali_primitive_size_unpack(jd + MALI_INDEXED_VERTEX_JOB_SECTION_PRIMITIVE_SIZE_OFFSET, &psz);
    mali_draw_unpack(jd + MALI_INDEXED_VERTEX_JOB_SECTION_FRAGMENT_DRAW_OFFSET, &fdraw);
    uint64_t ctx_va;
    memcpy(&ctx_va, jd + MALI_INDEXED_VERTEX_JOB_SECTION_TILER_OFFSET, 8);

    /* the tiler context, its heap and state */
    uint8_t tc[TILER_CONTEXT_BYTES], hp[MALI_TILER_HEAP_LENGTH], vp[MALI_VIEWPORT_LENGTH];
    if ((code = m->read(m->ctx, ctx_va, tc, sizeof(tc))))
        return fail(fva, ctx_va, code, err, errlen, "tiler context at %#llx unreadable", (unsigned long long)ctx_va);
    struct mali_tiler_context tctx;
    struct mali_tiler_heap heap;
    mali_tiler_context_unpack(tc, &tctx);
    if ((code = m->read(m->ctx, tctx.heap, hp, sizeof(hp))))
        return fail(fva, tctx.heap, code, err, errlen, "tiler heap descriptor unreadable");
    mali_tiler_heap_unpack(hp, &heap);
    gfx_pl_state st;
    memcpy(&st, tc + GFX_PL_STATE_OFFSET, sizeof(st));
    if (st.magic != GFX_PL_STATE_MAGIC) {        /* the frame's first draw: claim the heap */
        memset(&st, 0, sizeof(st));
        st.magic = GFX_PL_STATE_MAGIC;
        st.write = heap.bottom;
    }
    if (heap.top <= heap.bottom || st.write < heap.bottom || st.write > heap.top)
        return fail(fva, tctx.heap, MALI_EXC_JOB_CONFIG_FAULT, err, errlen, "tiler heap [%#llx, %#llx) write %#llx",
                    (unsigned long long)heap.bottom, (unsigned long long)heap.top, (unsigned long long)st.write);

    bin_ctx c;
    memset(&c, 0, sizeof(c));
    c.count = count;
    uint64_t isz = gfx_instance_size(&fdraw, instances);
    if (isz > MAX_POSITIONS)
        return fail(fva, job->job_va, MALI_EXC_JOB_CONFIG_FAULT, err, errlen, "instance size %llu",
                    (unsigned long long)isz);
    c.instance_size = (uint32_t)isz;
    c.kind = prim_kind(prim.draw_mode);
    c.cull_front = fdraw.cull_front_face;
    c.cull_back = fdraw.cull_back_face;
    c.front_ccw = fdraw.front_face_ccw;
    c.line_width = psz.fixed_sized;
    c.point_size = prim.point_size_array_format ? 0 : psz.fixed_sized;
    c.sx0 = 0;
    c.sy0 = 0;
    c.sx1 = (int)tctx.fb_width - 1;
    c.sy1 = (int)tctx.fb_height - 1;
    if (fdraw.viewport) {
        if ((code = m->read(m->ctx, fdraw.viewport, vp, sizeof(vp))))
            return fail(fva, fdraw.viewport, code, err, errlen, "viewport unreadable");
        struct mali_viewport v;
        mali_viewport_unpack(vp, &v);
        c.sx0 = (int)v.scissor_minimum_x > c.sx0 ? (int)v.scissor_minimum_x : c.sx0;
        c.sy0 = (int)v.scissor_minimum_y > c.sy0 ? (int)v.scissor_minimum_y : c.sy0;
        c.sx1 = (int)v.scissor_maximum_x < c.sx1 ? (int)v.scissor_maximum_x : c.sx1;
        c.sy1 = (int)v.scissor_maximum_y < c.sy1 ? (int)v.scissor_maximum_y : c.sy1;
    }

    /* the vertex slots the draw's primitives may name, and their positions */
    uint64_t nslots = (uint64_t)count + (uint64_t)(instances - 1) * c.instance_size;
    if (nslots > MAX_POSITIONS)
        return fail(fva, job->job_va, MALI_EXC_JOB_CONFIG_FAULT, err, errlen, "%llu vertex slots",
                    (unsigned long long)nslots);
    c.nslots = (uint32_t)nslots;
    float (*pos)[4] = malloc(nslots * sizeof(*pos));
    uint16_t *psize = NULL;
    void *indices = NULL;
    if (!pos)
        return fail(fva, job->job_va, MALI_EXC_DATA_INVALID_FAULT, err, errlen, "host out of memory");
    c.pos = (const float (*)[4])pos;
    if ((code = m->read(m->ctx, fdraw.position, pos, nslots * sizeof(*pos)))) {
        fail(fva, fdraw.position, code, err, errlen, "position buffer at %#llx unreadable",
             (unsigned long long)fdraw.position);
        goto out;
    }
    if (c.kind == GFX_PL_POINTS && prim.point_size_array_format) {
        if (prim.point_size_array_format != MALI_POINT_SIZE_ARRAY_FORMAT_FP16 ||
            !(psize = malloc(nslots * sizeof(*psize)))) {
            code = fail(fva, job->job_va, MALI_EXC_DATA_INVALID_FAULT, err, errlen, "point size array format %u",
                        prim.point_size_array_format);
            goto out;
        }
        if ((code = m->read(m->ctx, psz.size_array, psize, nslots * sizeof(*psize)))) {
            fail(fva, psz.size_array, code, err, errlen, "point size array unreadable");
            goto out;
        }
        c.psize = psize;
    }
    struct gfx_prim_input in = {
        .mode = (enum gfx_draw_mode)prim.draw_mode, .index_type = (enum gfx_index_type)prim.index_type,
        .count = prim.index_count, .restart = (enum gfx_restart)prim.primitive_restart,
        .restart_index = prim.primitive_restart_index, .first_provoking = prim.first_provoking_vertex,
    };
    if (prim.index_type) {
        size_t isize = prim.index_type == 3 ? 4 : prim.index_type;
        size_t bytes = (size_t)prim.index_count * isize;
        if (bytes > MAX_INDEX_BYTES || !(indices = malloc(bytes ? bytes : 1))) {
            code = fail(fva, prim.indices, MALI_EXC_JOB_CONFIG_FAULT, err, errlen, "%zu bytes of indices", bytes);
            goto out;
        }
        if ((code = m->read(m->ctx, prim.indices, indices, bytes))) {
            fail(fva, prim.indices, code, err, errlen, "index buffer at %#llx unreadable",
                 (unsigned long long)prim.indices);
            goto out;
        }
        in.indices = indices;
        in.index_bytes = bytes;
        in.base = prim.base_vertex_offset;
    }
    for (unsigned i = 0; i < instances && !c.oom; i++) {
        c.instance = i;
        if (gfx_prim_assemble(&in, add_prim, &c) < 0) {
            code = fail(fva, job->job_va, MALI_EXC_JOB_CONFIG_FAULT, err, errlen, "draw mode %u / index type %u",
                        prim.draw_mode, prim.index_type);
            goto out;
        }
    }
    if (c.oom) {
        code = fail(fva, job->job_va, MALI_EXC_DATA_INVALID_FAULT, err, errlen, "host out of memory");
        goto out;
    }
    code = write_draw(m, ctx_va, &st, heap.top, job->job_va, &c, psz.fixed_sized,
                      c.psize ? psz.size_array : 0, fva, err, errlen);
out:
    if (counts)
        *counts = (gpu_gfx_draw_counts){ c.in, c.culled, c.clipped, c.dropped };
    free(pos);
    free(psize);
    free(indices);
    free(c.prims);
    free(c.box);
    return code;
}
