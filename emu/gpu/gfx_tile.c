/* Tile buffers (gfx_tile.h): clear and write-back.  Surfaces are linear (rows of row_stride bytes)
 * or 16x16 U-interleaved (gfx_layout.h). */
#include "gfx_tile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx_pixel.h"
#include "mali_formats.h"

int gfx_tile_reserve(gfx_tile *t, const gfx_fb *fb)
{
    size_t n = (size_t)GFX_TILE_PIXELS * fb->samples;
    t->samples = fb->samples;
    if (n <= t->cap)
        return 0;
    gfx_tile_free(t);
    for (unsigned i = 0; i < GFX_MAX_RTS; i++)
        if (!(t->color[i] = malloc(n * sizeof(*t->color[i]))))
            return -1;
    t->z = malloc(n * sizeof(float));
    t->s = malloc(n);
    if (!t->z || !t->s)
        return -1;
    t->cap = n;
    return 0;
}

void gfx_tile_free(gfx_tile *t)
{
    for (unsigned i = 0; i < GFX_MAX_RTS; i++) {
        free(t->color[i]);
        t->color[i] = NULL;
    }
    free(t->z);
    free(t->s);
    t->z = NULL;
    t->s = NULL;
    t->cap = 0;
}

void gfx_tile_clear(gfx_tile *t, const gfx_fb *fb, unsigned tx, unsigned ty)
{
    size_t n = (size_t)GFX_TILE_PIXELS * t->samples;
    t->x0 = tx * GFX_TILE;
    t->y0 = ty * GFX_TILE;
    for (unsigned i = 0; i < fb->nrts; i++)
        for (size_t k = 0; k < n; k++)
            memcpy(t->color[i][k], fb->rt[i].clear, 16);
    for (size_t k = 0; k < n; k++)
        t->z[k] = fb->z_clear;
    memset(t->s, fb->s_clear, n);
}

unsigned gfx_color_format_bytes(unsigned f)
{
    static const uint8_t raw[16] = { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 0 };
    if (f < 16)
        return raw[f] <= 16 ? raw[f] : 0;      /* the tile buffer holds at most 128 bits a pixel */
    switch (f) {
    case MALI_COLOR_FORMAT_R8: return 1;
    case MALI_COLOR_FORMAT_R8G8: return 2;
    case MALI_COLOR_FORMAT_R8G8B8: return 3;
    case MALI_COLOR_FORMAT_R8G8B8A8: return 4;
    case MALI_COLOR_FORMAT_R4G4B4A4: case MALI_COLOR_FORMAT_R5G6B5: case MALI_COLOR_FORMAT_R5G5B5A1: return 2;
    case MALI_COLOR_FORMAT_R10G10B10A2: return 4;
    default: return 0;
    }
}

/* Write the tile's pixels in [x0, x1) x [y0, y1) (frame coordinates, within this tile) of one
 * plane: pixel bytes from px(ctx, tile-relative index, out). */
static uint64_t pixel_addr(const gfx_surface *s, unsigned x, unsigned y, unsigned plane)
{
    return s->base + (uint64_t)gfx_surface_offset(s, x, y, plane);
}

static uint32_t write_plane(const gpu_mem_if *m, const gfx_surface *s, unsigned plane, unsigned tx0, unsigned ty0,
                            unsigned x0, unsigned y0, unsigned x1, unsigned y1,
                            void (*px)(const void *ctx, unsigned idx, uint8_t *out), const void *ctx, uint64_t *fva)
{
    uint8_t buf[GFX_TILE_PIXELS * 16];
    uint32_t code;
    bool whole = x0 == tx0 && y0 == ty0 && x1 == tx0 + GFX_TILE && y1 == ty0 + GFX_TILE;
    if (s->tiled) {
        /* one contiguous block: read it first when only part of it changes */
        uint64_t a = pixel_addr(s, tx0, ty0, plane);
        size_t len = (size_t)GFX_TILE_PIXELS * s->bpp;
        if (!whole && (code = m->read(m->ctx, a, buf, len))) {
            *fva = a;
            return code;
        }
        for (unsigned y = y0; y < y1; y++)
            for (unsigned x = x0; x < x1; x++)
                px(ctx, (y - ty0) * GFX_TILE + (x - tx0), buf + (size_t)gfx_uinterleave_index(x, y) * s->bpp);
        if ((code = m->write(m->ctx, a, buf, len)))
            *fva = a;
        return code;
    }
    for (unsigned y = y0; y < y1; y++) {
        uint8_t *p = buf;
        for (unsigned x = x0; x < x1; x++, p += s->bpp)
            px(ctx, (y - ty0) * GFX_TILE + (x - tx0), p);
        uint64_t a = pixel_addr(s, x0, y, plane);
        if ((code = m->write(m->ctx, a, buf, (size_t)(p - buf)))) {
            *fva = a;
            return code;
        }
    }
    return 0;
}

typedef struct {
    const gfx_tile *t;
    const gfx_rt *rt;
    const uint32_t (*c)[4];
    unsigned sample, bpp;
} color_ctx;

/* sample RESOLVE: a resolving write-back (MSAA Average) */
#define RESOLVE (~0u)

/* The average of a pixel's samples as the blender sees them, packed back into the tile buffer's
 * word (linear values: an sRGB target averages after decoding, as GL's resolve does) */
static uint32_t resolve_word(const color_ctx *k, unsigned idx)
{
    float sum[4] = { 0, 0, 0, 0 }, rgba[4];
    unsigned n = k->t->samples;
    for (unsigned s = 0; s < n; s++) {
        gfx_tib_unpack(k->rt->internal_format, k->c[idx * n + s][0], k->rt->srgb, rgba);
        for (unsigned c = 0; c < 4; c++)
            sum[c] += rgba[c];
    }
    for (unsigned c = 0; c < 4; c++)
        sum[c] /= (float)n;
    return gfx_tib_pack(k->rt->internal_format, sum, k->rt->srgb);
}

static void color_px(const void *vctx, unsigned idx, uint8_t *out)
{
    const color_ctx *k = vctx;
    /* raw formats (integer targets) resolve to sample 0, as GL resolves integer samples */
    const uint32_t *v = k->c[idx * k->t->samples + (k->sample == RESOLVE ? 0 : k->sample)];
    if (gfx_internal_blendable(k->rt->internal_format)) {
        uint32_t word = k->sample == RESOLVE ? resolve_word(k, idx) : v[0];
        gfx_tib_write(k->rt->internal_format, k->rt->writeback_format, k->rt->swizzle, word, out);
        return;
    }
    memcpy(out, v, k->bpp);                    /* raw: the bits as the shader stored them */
}

typedef struct {
    const gfx_tile *t;
    unsigned sample, zs_format, s_format;
    bool stencil_plane;
} zs_ctx;

static void zs_px(const void *vctx, unsigned idx, uint8_t *out)
{
    const zs_ctx *k = vctx;
    unsigned i = idx * k->t->samples + k->sample;
    if (k->stencil_plane) {
        out[0] = k->t->s[i];
        return;
    }
    float z = k->t->z[i];
    z = z < 0 ? 0 : z > 1 ? 1 : z;
    switch (k->zs_format) {
    case MALI_ZS_FORMAT_D16: {
        uint16_t v = (uint16_t)lrintf(z * 65535.0f);
        memcpy(out, &v, 2);
        break;
    }
    case MALI_ZS_FORMAT_D32: {
        memcpy(out, &k->t->z[i], 4);
        break;
    }
    default: {                                  /* D24S8 / D24X8: depth in the low 24 bits */
        uint32_t v = (uint32_t)lrint((double)z * 16777215.0);
        if (k->zs_format == MALI_ZS_FORMAT_D24S8)
            v |= (uint32_t)k->t->s[i] << 24;
        memcpy(out, &v, 4);
        break;
    }
    }
}

/* How a colour target of a tile with t->samples samples is written (Mesa's mali_sampling_mode):
 * Single (sample 0) and Layered (sample s to plane s at s * surface stride) write the samples
 * as they are; Average resolves them into one plane (first = RESOLVE).  0 or an exception. */
static uint32_t msaa_planes(const gfx_tile *t, unsigned msaa, unsigned *planes, unsigned *first)
{
    *planes = 1;
    *first = 0;
    switch (msaa) {
    case MALI_MSAA_SINGLE:              /* sample 0 (a multisampled tile: Mesa asks for Average) */
        return 0;
    case MALI_MSAA_LAYERED:
        *planes = t->samples;
        return 0;
    case MALI_MSAA_AVERAGE:
        *first = t->samples > 1 ? RESOLVE : 0;
        return 0;
    default:
        return MALI_EXC_DATA_INVALID_FAULT;
    }
}

uint32_t gfx_tile_write_back(const gfx_tile *t, const gfx_fb *fb, const gpu_mem_if *m, uint64_t *fva, char *err,
                             size_t errlen)
{
    /* the tile's part inside the bounds and the frame */
    unsigned x0 = t->x0 > fb->bound[0] ? t->x0 : fb->bound[0], y0 = t->y0 > fb->bound[1] ? t->y0 : fb->bound[1];
    unsigned x1 = t->x0 + GFX_TILE, y1 = t->y0 + GFX_TILE;
    if (x1 > fb->bound[2] + 1)
        x1 = fb->bound[2] + 1;
    if (y1 > fb->bound[3] + 1)
        y1 = fb->bound[3] + 1;
    if (x1 > fb->width)
        x1 = fb->width;
    if (y1 > fb->height)
        y1 = fb->height;
    if (x0 >= x1 || y0 >= y1)
        return 0;
    uint32_t code;
    for (unsigned i = 0; i < fb->nrts; i++) {
        const gfx_rt *rt = &fb->rt[i];
        if (!rt->write)
            continue;
        unsigned bpp = gfx_color_format_bytes(rt->writeback_format);
        uint8_t probe[16];
        if (!bpp || (gfx_internal_blendable(rt->internal_format)
                         ? gfx_tib_write(rt->internal_format, rt->writeback_format, rt->swizzle, 0, probe) != bpp
                         : rt->internal_format < MALI_COLOR_BUFFER_INTERNAL_FORMAT_RAW8)) {
            snprintf(err, errlen, "render target %u: internal format %u, writeback format %u not implemented", i,
                     rt->internal_format, rt->writeback_format);
            *fva = fb->va;
            return MALI_EXC_DATA_INVALID_FAULT;
        }
        if (rt->block_format != GFX_BLOCK_LINEAR && rt->block_format != GFX_BLOCK_U_INTERLEAVED) {
            snprintf(err, errlen, "render target %u: block format %u not implemented", i, rt->block_format);
            *fva = fb->va;
            return MALI_EXC_DATA_INVALID_FAULT;
        }
        gfx_surface s = { rt->base, rt->row_stride, rt->surface_stride, bpp, rt->block_format == GFX_BLOCK_U_INTERLEAVED };
        unsigned planes, first;
        if ((code = msaa_planes(t, rt->msaa, &planes, &first))) {
            snprintf(err, errlen, "render target %u: MSAA mode %u with %u samples not implemented", i, rt->msaa,
                     t->samples);
            *fva = fb->va;
            return code;
        }
        for (unsigned p = 0; p < planes; p++) {
            color_ctx k = { t, rt, (const uint32_t (*)[4])t->color[i], first == RESOLVE ? RESOLVE : p, bpp };
            if ((code = write_plane(m, &s, p, t->x0, t->y0, x0, y0, x1, y1, color_px, &k, fva))) {
                snprintf(err, errlen, "render target %u: write-back fault", i);
                return code;
            }
        }
    }
    /* depth and stencil: Layered keeps every sample; otherwise sample 0 is written (a resolve of
     * depth has no single right value: the hardware's choice is not documented) */
    if (fb->has_ext && fb->z_write) {
        unsigned bpp = fb->zs_format == MALI_ZS_FORMAT_D16 ? 2 : 4;
        gfx_surface s = { fb->zs_base, fb->zs_row_stride, fb->zs_surface_stride, bpp, fb->zs_block == GFX_BLOCK_U_INTERLEAVED };
        unsigned planes = fb->zs_msaa == MALI_MSAA_LAYERED ? t->samples : 1;
        for (unsigned p = 0; p < planes; p++) {
            zs_ctx k = { t, p, fb->zs_format, fb->s_format, false };
            if ((code = write_plane(m, &s, p, t->x0, t->y0, x0, y0, x1, y1, zs_px, &k, fva))) {
                snprintf(err, errlen, "depth write-back fault");
                return code;
            }
        }
    }
    if (fb->has_ext && fb->s_write && fb->s_base && fb->zs_format != MALI_ZS_FORMAT_D24S8) {
        gfx_surface s = { fb->s_base, fb->s_row_stride, fb->s_surface_stride, 1, fb->s_block == GFX_BLOCK_U_INTERLEAVED };
        unsigned planes = fb->s_msaa == MALI_MSAA_LAYERED ? t->samples : 1;
        for (unsigned p = 0; p < planes; p++) {
            zs_ctx k = { t, p, fb->zs_format, fb->s_format, true };
            if ((code = write_plane(m, &s, p, t->x0, t->y0, x0, y0, x1, y1, zs_px, &k, fva))) {
                snprintf(err, errlen, "stencil write-back fault");
                return code;
            }
        }
    }
    return 0;
}
