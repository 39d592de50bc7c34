/* Counters of FRAGMENT jobs for the observer (gfx_stats.h). */
#include "gfx_stats.h"

#include <stdlib.h>
#include <string.h>

#include "gfx_frag_int.h"
#include "gfx_raster.h"

void gfx_stats_tile_begin(gfx_shade_counts *s)
{
    s->c.tiles++;
    s->tile_warps = 0;
    memset(s->shaded, 0, sizeof(s->shaded));
}

unsigned gfx_stats_tile_end(gfx_shade_counts *s)
{
    for (unsigned i = 0; i < GFX_TILE_PIXELS / 64; i++)
        s->c.pixels += (uint64_t)__builtin_popcountll(s->shaded[i]);
    return s->tile_warps ? s->tile_warps : 1;
}

void gfx_stats_warp(gfx_shade_counts *s, const struct gfx_quad *const *q, unsigned nq, unsigned x0, unsigned y0,
                    uint32_t covered, uint32_t live, const uint16_t *cov, bool shaded, bool frame)
{
    s->c.killed_early += (uint64_t)__builtin_popcount(covered & ~live);
    if (!shaded || !live)
        return;
    s->tile_warps++;
    if (frame) {
        s->c.frame_fragments += (uint64_t)__builtin_popcount(live);
        return;
    }
    uint32_t quad_lanes = nq >= 8 ? 0xffffffffu : (1u << (4 * nq)) - 1;
    s->c.quads += nq;
    s->c.fragments += (uint64_t)__builtin_popcount(live);
    s->c.helpers += (uint64_t)__builtin_popcount(quad_lanes & ~live);
    for (uint32_t m = live; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        const struct gfx_quad *qq = q[l / 4];
        unsigned px = (unsigned)qq->x + (l & 1) - x0, py = (unsigned)qq->y + (l >> 1 & 1) - y0;
        s->c.samples += (uint64_t)__builtin_popcount(cov[l]);
        if (px < GFX_TILE && py < GFX_TILE) {
            unsigned i = py * GFX_TILE + px;
            s->shaded[i / 64] |= 1ull << (i % 64);
        }
    }
}

/* the distinct programs of the frame, in first-use order: frame shaders, then draws */
static void each_program(run *r, bool begin)
{
    gfx_frame *f = r->item_ctx;
    gpu_compute *e = r->e;
    size_t n = 3 + (size_t)f->ndraws, cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    const void **seen = calloc(cap, sizeof(*seen));
    if (!seen)
        return;
    for (size_t i = 0; i < n; i++) {
        const gfx_draw *dr = i < 3 ? &f->frame[i] : &f->draws[i - 3];
        if (!dr->prog)
            continue;
        size_t h = ((uintptr_t)dr->prog >> 4) * 0x9e3779b97f4a7c15ull >> 20 & (cap - 1);
        while (seen[h] && seen[h] != dr->prog)
            h = (h + 1) & (cap - 1);
        if (seen[h])
            continue;
        seen[h] = dr->prog;
        if (begin && e->hooks.job_begin)
            e->hooks.job_begin(dr->prog, r->epoch, dr->d.shader_va, r->job->as, r->job->type, GPU_STAGE_FRAGMENT);
        else if (!begin && e->hooks.job_end)
            e->hooks.job_end(dr->prog, r->epoch, r->status ? r->status : EXC_DONE);
    }
    free(seen);
    /* the blend shaders the draws' descriptors name (distinct by address) */
    for (unsigned i = 0; i < f->nblend_known; i++) {
        if (begin && e->hooks.job_begin)
            e->hooks.job_begin(f->blend_progs[i].prog, r->epoch, f->blend_progs[i].va, r->job->as, r->job->type,
                               GPU_STAGE_BLEND);
        else if (!begin && e->hooks.job_end)
            e->hooks.job_end(f->blend_progs[i].prog, r->epoch, r->status ? r->status : EXC_DONE);
    }
}

void gfx_stats_announce(run *r, bool begin)
{
    each_program(r, begin);
}

bi_program *gfx_stats_first_program(const gfx_frame *f)
{
    for (unsigned k = 0; k < 3; k++)
        if (f->frame[k].prog)
            return f->frame[k].prog;
    for (unsigned i = 0; i < f->ndraws; i++)
        if (f->draws[i].prog)
            return f->draws[i].prog;
    return NULL;
}

void gfx_stats_frame_sum(const gfx_frame *f, unsigned nslots, gpu_gfx_frame_counts *out)
{
    memset(out, 0, sizeof(*out));
    out->width = f->fb.width;
    out->height = f->fb.height;
    out->draws = f->ndraws;
    for (unsigned i = 0; f->counts && i < nslots; i++) {
        const gpu_gfx_frame_counts *c = &f->counts[i].c;
        out->tiles += c->tiles;
        out->prims += c->prims;
        out->quads += c->quads;
        out->fragments += c->fragments;
        out->samples += c->samples;
        out->helpers += c->helpers;
        out->killed_early += c->killed_early;
        out->pixels += c->pixels;
        out->frame_fragments += c->frame_fragments;
    }
}
