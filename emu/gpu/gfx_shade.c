/* One tile of a FRAGMENT job (gfx_frag_int.h): the tile buffer starts from the clear values;
 * the primitives the tiler binned into the tile are taken draw by draw, in order, set up and
 * rasterized over the tile (gfx_raster.h), and their quads shaded in warps (one 2x2 quad per
 * 4 lanes: one quad a v6 warp, two a v7 warp).  The fragment shader's messages come back here
 * (bifrost_gfx.h): varyings interpolated from the draw's varying buffers, ATEST, ZS_EMIT, BLEND
 * into the tile buffer.  Depth/stencil run before the shader (early) when the renderer state
 * allows both the kill and the update early, else at the warp's first BLEND or its end (late).
 * The tile is written back at the end (gfx_tile.c). */
#include "gfx_frag_int.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bifrost_gfx.h"
#include "bifrost_tex.h"
#include "gfx_clip.h"
#include "gfx_draw_state.h"
#include "gfx_interp.h"
#include "gfx_pixel.h"
#include "gfx_raster.h"

#define QUADS_MAX (GFX_TILE_PIXELS / 4)
#define TURN_CLAUSES 65536u

/* The warp's state (bi_warp.gfx_ctx) */
typedef struct {
    gfx_frame *f;
    const gfx_draw *dr;
    gfx_tile *t;
    worker *wk;
    const gfx_pl_prim *pr;
    const struct gfx_quad *q[2];
    unsigned nq;
    uint16_t cov[BI_MAX_LANES];              /* samples covered, per lane */
    int sample;                              /* per-sample shading: the sample shaded (-1: the pixel) */
    float sz[BI_MAX_LANES];                  /* ZS_EMIT depth / stencil, per lane */
    uint8_t ss[BI_MAX_LANES];
    uint32_t has_z, has_s;                   /* lanes ZS_EMIT gave a depth / stencil */
    bool zs_done;
    uint32_t fault;                          /* a memory fault's exception code */
    uint64_t fault_va;
} warp_ctx;

/* Why a shader's memory access ended the tile: the device stopped the job (the driver's soft or
 * hard stop, e.g. its job timeout), or a fault. */
static const char *access_end(uint32_t code)
{
    return code == MALI_EXC_STOPPED || code == MALI_EXC_TERMINATED ? "job stopped by the driver"
                                                                    : "memory fault";
}

static int why(char *w, unsigned n, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w, n, fmt, ap);
    va_end(ap);
    return rc;
}

/* The tile-buffer index of sample s of lane l's pixel */
static inline unsigned tile_index(const warp_ctx *c, unsigned l, unsigned s)
{
    const struct gfx_quad *q = c->q[l / 4];
    unsigned p = l % 4, x = (unsigned)q->x + (p & 1) - c->t->x0, y = (unsigned)q->y + (p >> 1) - c->t->y0;
    return (y * GFX_TILE + x) * c->t->samples + s;
}

/* ---- depth / stencil ---------------------------------------------------------------------- */

static bool compare(unsigned func, float a, float b)
{
    switch (func) {
    case MALI_FUNC_NEVER: return false;
    case MALI_FUNC_LESS: return a < b;
    case MALI_FUNC_EQUAL: return a == b;
    case MALI_FUNC_LEQUAL: return a <= b;
    case MALI_FUNC_GREATER: return a > b;
    case MALI_FUNC_NOT_EQUAL: return a != b;
    case MALI_FUNC_GEQUAL: return a >= b;
    default: return true;
    }
}

static uint8_t stencil_op(unsigned op, uint8_t s, uint8_t ref)
{
    switch (op) {
    case MALI_STENCIL_OP_REPLACE: return ref;
    case MALI_STENCIL_OP_ZERO: return 0;
    case MALI_STENCIL_OP_INVERT: return (uint8_t)~s;
    case MALI_STENCIL_OP_INCR_WRAP: return (uint8_t)(s + 1);
    case MALI_STENCIL_OP_DECR_WRAP: return (uint8_t)(s - 1);
    case MALI_STENCIL_OP_INCR_SAT: return s == 255 ? 255 : (uint8_t)(s + 1);
    case MALI_STENCIL_OP_DECR_SAT: return s == 0 ? 0 : (uint8_t)(s - 1);
    default: return s;
    }
}

/* The depth buffer's precision (Framebuffer Parameters' Z internal format) */
static float quantize_z(unsigned fmt, float z)
{
    z = z < 0 ? 0 : z > 1 ? 1 : z;
    if (fmt == MALI_Z_INTERNAL_FORMAT_D16)
        return (float)(nearbyint((double)z * 65535.0) / 65535.0);
    if (fmt == MALI_Z_INTERNAL_FORMAT_D24)
        return (float)(nearbyint((double)z * 16777215.0) / 16777215.0);
    return z;
}

/* Test (and update) depth and stencil for the lanes' covered samples; failing samples leave
 * cov.  Shader depth / stencil (ZS_EMIT) replace the rasterized ones where given. */
static void depth_stencil(warp_ctx *c, uint32_t lanes)
{
    const gfx_draw *dr = c->dr;
    const gfx_fb *fb = &c->f->fb;
    gfx_tile *t = c->t;
    c->zs_done = true;
    for (unsigned l = 0; l < 8; l++) {
        if (!(lanes >> l & 1) || !c->cov[l])
            continue;
        const struct gfx_quad *q = c->q[l / 4];
        unsigned p = l % 4;
        const gfx_stencil *st = &dr->stencil[q->front_facing ? 0 : 1];
        for (unsigned s = 0; s < t->samples; s++) {
            if (!(c->cov[l] >> s & 1))
                continue;
            unsigned i = tile_index(c, l, s);
            float z = c->has_z >> l & 1 ? c->sz[l] : q->depth[p][t->samples > 1 ? s : 0];
            if ((dr->near_discard && z < dr->zmin) || (dr->far_discard && z > dr->zmax) || isnan(z)) {
                c->cov[l] &= (uint16_t)~(1u << s);
                continue;
            }
            z = quantize_z(fb->z_internal, z);
            bool pass = true;
            if (dr->stencil_enable) {
                uint8_t sv = t->s[i], ref = c->has_s >> l & 1 ? c->ss[l] : st->ref;
                bool spass = compare(st->func, (float)(ref & st->mask), (float)(sv & st->mask));
                uint8_t nv;
                if (!spass) {
                    nv = stencil_op(st->fail, sv, ref);
                    pass = false;
                } else {
                    bool zpass = compare(dr->depth_func, z, t->z[i]);
                    nv = stencil_op(zpass ? st->zpass : st->zfail, sv, ref);
                    pass = zpass;
                }
                t->s[i] = (uint8_t)((sv & ~st->write_mask) | (nv & st->write_mask));
            } else {
                pass = compare(dr->depth_func, z, t->z[i]);
            }
            if (!pass) {
                c->cov[l] &= (uint16_t)~(1u << s);
                continue;
            }
            if (dr->depth_write)
                t->z[i] = z;
        }
    }
}

/* ---- messages ------------------------------------------------------------------------------ */

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Read vertex slot's value of varying `index` as 4 floats (or integers) */
static int vertex_varying(warp_ctx *c, unsigned index, uint32_t slot, uint32_t v[4], bool *is_int, char *w,
                          unsigned wl)
{
    const gfx_draw *dr = c->dr;
    const bi_mem *m = &c->wk->mem;
    uint8_t a[MALI_ATTRIBUTE_LENGTH], b[MALI_ATTRIBUTE_BUFFER_LENGTH];
    uint64_t ava = dr->d.varyings + (uint64_t)MALI_ATTRIBUTE_LENGTH * index;
    if (!dr->d.varyings || m->read(m->ctx, ava, a, sizeof(a)))
        return why(w, wl, BI_EXEC_ERROR, "varying %u descriptor fault at %#llx", index, (unsigned long long)ava);
    struct mali_attribute at;
    mali_attribute_unpack(a, &at);
    uint64_t bva = dr->d.varying_bufs + (uint64_t)MALI_ATTRIBUTE_BUFFER_LENGTH * at.buffer_index;
    if (m->read(m->ctx, bva, b, sizeof(b)))
        return why(w, wl, BI_EXEC_ERROR, "varying buffer %u fault at %#llx", at.buffer_index, (unsigned long long)bva);
    struct mali_attribute_buffer ab;
    mali_attribute_buffer_unpack(b, &ab);
    uint64_t addr = ab.pointer + (uint64_t)slot * ab.stride + (uint32_t)at.offset;
    unsigned fmt = at.format >> 12 & 0xff;
    *is_int = (fmt >= 131 && fmt <= 157) || (fmt >= 195 && fmt <= 221 && fmt != 199 && fmt != 207 && fmt != 215 &&
                                             fmt != 223);
    uint32_t conv = (at.format & 0x3fffff) | (uint32_t)(*is_int ? ((fmt >= 195) ? BI_RF_I32 : BI_RF_U32) : BI_RF_F32) << 24;
    char err[120];
    int rc = bi_tex_ld_cvt(m, addr, conv, v, 4, err, sizeof(err));
    if (rc)
        return why(w, wl, rc, "varying %u: %s", index, err);
    return 0;
}

/* The perspective weights a smooth varying is interpolated with: at the pixel centre, or on a
 * multisampled tile at a sample (SAMPLE: the one r61 names, as Mesa passes it) or at the centroid
 * (CENTROID, a partly covered pixel: its covered sample nearest the centre, inside both the
 * pixel and the primitive as GL asks).  Explicit offsets take the centre. */
static const float *sample_weights(const warp_ctx *c, const bi_gfx_varying *v, const struct gfx_quad *q, unsigned p,
                                   uint32_t r61)
{
    unsigned n = c->t->samples, cov = gfx_quad_pixel_coverage(q, p);
    if (n == 1 || (c->dr >= c->f->frame && c->dr < c->f->frame + 3))   /* frame shaders: whole pixels */
        return q->bary[p];
    if (v->sample == BI_GFX_SAMPLE_SAMPLE) {
        unsigned s = r61 >> 16 & 0x1f;
        return s < n ? q->sample_bary[p][s] : q->bary[p];
    }
    if (v->sample != BI_GFX_SAMPLE_CENTROID || !cov || cov == (1u << n) - 1)
        return q->bary[p];
    unsigned best = 0, bestd = ~0u;
    for (unsigned s = 0; s < n; s++) {
        int sx, sy;
        gfx_raster_sample_pos(n, s, &sx, &sy);
        unsigned d = (unsigned)((sx - 128) * (sx - 128) + (sy - 128) * (sy - 128));
        if (cov >> s & 1 && d < bestd)
            best = s, bestd = d;
    }
    return q->sample_bary[p][best];
}

static int cb_varying(void *ctx, const bi_warp *wp, uint32_t lanes, const bi_gfx_varying *v, const uint32_t *src0,
                      const uint32_t *index, uint32_t out[4][BI_MAX_LANES], char *w, unsigned wl)
{
    warp_ctx *c = ctx;
    (void)wp;
    (void)src0;
    if (v->kind == BI_GFX_VARY_SPECIAL) {
        for (unsigned l = 0; l < 8; l++) {
            if (!(lanes >> l & 1))
                continue;
            const struct gfx_quad *q = c->q[l / 4];
            unsigned p = l % 4;
            float r[4] = { 0, 0, 0, 0 };
            if (v->special == BI_GFX_SPECIAL_POINT) {
                r[0] = q->point_coord[p][0];
                r[1] = q->point_coord[p][1];
            } else if (v->special == BI_GFX_SPECIAL_FRAG_W) {
                r[0] = q->rw[p];
            } else {
                r[0] = q->depth_centre[p];
            }
            for (unsigned k = 0; k < v->ncomp; k++)
                out[k][l] = f32_bits(r[k]);
        }
        return 0;
    }
    /* the three vertices' values: one read per varying and warp (every lane shares the
     * primitive); per-lane indices are rare and read per lane */
    uint32_t vals[3][4];
    bool is_int = false;
    unsigned cached = ~0u;
    for (unsigned l = 0; l < 8; l++) {
        if (!(lanes >> l & 1))
            continue;
        unsigned idx = v->imm ? v->index : index[l];
        if (idx != cached) {
            for (unsigned k = 0; k < 3; k++) {
                if (v->kind == BI_GFX_VARY_FLAT && k != c->pr->provoking)
                    continue;
                int rc = vertex_varying(c, idx, c->pr->v[k], vals[k], &is_int, w, wl);
                if (rc)
                    return rc;
            }
            cached = idx;
        }
        const struct gfx_quad *q = c->q[l / 4];
        unsigned p = l % 4;
        uint32_t r[4];
        if (v->kind == BI_GFX_VARY_FLAT || is_int) {
            memcpy(r, vals[c->pr->provoking], sizeof(r));
        } else {
            /* from vertex 0 along the two edges: a varying equal at the three vertices
             * interpolates to exactly that value, as the hardware's plane equations do */
            const float *bw = sample_weights(c, v, q, p, src0[l]);
            for (unsigned k = 0; k < 4; k++)
                r[k] = gfx_interp_f32(bw, vals[0][k], vals[1][k], vals[2][k]);
        }
        if (v->regfmt == BI_RF_F16 && !is_int) {
            for (unsigned k = 0; k < (v->ncomp + 1u) / 2; k++) {
                uint32_t lo = gfx_float_to_half(bits_f32(r[2 * k]));
                uint32_t hi = 2 * k + 1 < v->ncomp ? gfx_float_to_half(bits_f32(r[2 * k + 1])) : 0;
                out[k][l] = lo | hi << 16;
            }
        } else {
            for (unsigned k = 0; k < v->ncomp; k++)
                out[k][l] = r[k];
        }
    }
    return 0;
}

static int cb_atest(void *ctx, const bi_warp *wp, uint32_t lanes, const uint32_t *coverage, const uint32_t *alpha,
                    uint32_t datum, uint32_t *coverage_out, char *w, unsigned wl)
{
    warp_ctx *c = ctx;
    (void)wp;
    (void)datum;
    (void)w;
    (void)wl;
    for (unsigned l = 0; l < 8; l++) {
        if (!(lanes >> l & 1))
            continue;
        uint32_t cov = coverage[l];
        if (c->dr->alpha_to_coverage) {
            float a = bits_f32(alpha[l]);
            unsigned n = c->t->samples;
            unsigned keep = !(a > 0) ? 0 : a >= 1 ? n : (unsigned)(a * (float)n + 0.5f);
            cov &= (1u << keep) - 1;
        }
        coverage_out[l] = cov;
        c->cov[l] &= (uint16_t)cov;
    }
    return 0;
}

static int cb_zs_emit(void *ctx, const bi_warp *wp, uint32_t lanes, const uint32_t *z, const uint32_t *stencil,
                      int write_z, int write_s, const uint32_t *coverage, uint32_t *coverage_out, char *w,
                      unsigned wl)
{
    warp_ctx *c = ctx;
    (void)wp;
    (void)w;
    (void)wl;
    for (unsigned l = 0; l < 8; l++) {
        if (!(lanes >> l & 1))
            continue;
        if (write_z) {
            c->sz[l] = bits_f32(z[l]);
            c->has_z |= 1u << l;
        }
        if (write_s) {
            c->ss[l] = (uint8_t)stencil[l];
            c->has_s |= 1u << l;
        }
        coverage_out[l] = coverage[l];
    }
    return 0;
}

/* A bi_mem over one tile-buffer pixel (16 bytes at address 0), for the texture unit's format
 * conversions (bi_tex_st_cvt / bi_tex_ld_cvt) */
typedef struct {
    uint8_t *px;
} pixel_mem;

static int px_read(void *ctx, uint64_t addr, void *buf, unsigned size)
{
    if (addr + size > 16)
        return -1;
    memcpy(buf, ((pixel_mem *)ctx)->px + addr, size);
    return 0;
}

static int px_write(void *ctx, uint64_t addr, const void *buf, unsigned size)
{
    if (addr + size > 16)
        return -1;
    memcpy(((pixel_mem *)ctx)->px + addr, buf, size);
    return 0;
}

/* The memory format a blend conversion stores in the tile buffer: the tile-buffer ("TB")
 * formats hold their plain format's bits. */
static uint32_t tile_format(uint32_t fmt)
{
    unsigned n = fmt >> 12 & 0xff;
    if (n == 237)                                   /* RGBA8 TB */
        return (fmt & ~0xff000u) | 187u << 12;      /* RGBA8 UNORM */
    return fmt;
}

/* The memory conversion of a tile-buffer access for the conversion word conv (register format
 * in bits 26:24): 16-bit register formats convert through their 32-bit kind, and the
 * tile-buffer ("TB") formats hold their plain format's bits. */
static uint32_t tile_conv(uint32_t conv)
{
    unsigned regfmt = conv >> 24 & 7;
    unsigned wide = regfmt == BI_RF_F16 ? BI_RF_F32 : regfmt == BI_RF_I16 ? BI_RF_I32
                    : regfmt == BI_RF_U16 ? BI_RF_U32 : regfmt;
    return tile_format(conv & 0x3fffff) | (uint32_t)wide << 24;
}

/* Lane l's values in staging rows of register format regfmt, as 32-bit values (16-bit formats
 * hold two a register: halves widened to binary32, integers sign- or zero-extended); 32-bit
 * formats take ncomp rows, the others stay 0. */
static void regs_in(unsigned regfmt, const uint32_t rows[4][BI_MAX_LANES], unsigned l, unsigned ncomp, uint32_t v[4])
{
    for (unsigned k = 0; k < 4; k++) {
        uint32_t h = rows[k / 2][l] >> (16 * (k & 1)) & 0xffff;
        if (regfmt == BI_RF_F16)
            v[k] = f32_bits(gfx_half_to_float((uint16_t)h));
        else if (regfmt == BI_RF_I16)
            v[k] = (uint32_t)(int32_t)(int16_t)h;
        else if (regfmt == BI_RF_U16)
            v[k] = h;
        else
            v[k] = k < ncomp ? rows[k][l] : 0;
    }
}

/* The inverse: lane l's ncomp values into staging rows of register format regfmt. */
static void regs_out(unsigned regfmt, const uint32_t v[4], unsigned ncomp, uint32_t rows[4][BI_MAX_LANES], unsigned l)
{
    if (regfmt == BI_RF_F16) {
        for (unsigned k = 0; k < (ncomp + 1) / 2 && k < 2; k++)
            rows[k][l] = gfx_float_to_half(bits_f32(v[2 * k])) | (uint32_t)gfx_float_to_half(bits_f32(v[2 * k + 1])) << 16;
    } else if (regfmt == BI_RF_I16 || regfmt == BI_RF_U16) {
        for (unsigned k = 0; k < (ncomp + 1) / 2 && k < 2; k++)
            rows[k][l] = (v[2 * k] & 0xffff) | (v[2 * k + 1] & 0xffff) << 16;
    } else {
        for (unsigned k = 0; k < ncomp && k < 4; k++)
            rows[k][l] = v[k];
    }
}

static int cb_blend(void *ctx, const bi_warp *wp, uint32_t lanes, unsigned rt, uint64_t desc,
                    const uint32_t colour[4][BI_MAX_LANES], const uint32_t *coverage, uint64_t *shader, char *w,
                    unsigned wl)
{
    warp_ctx *c = ctx;
    const gfx_draw *dr = c->dr;
    *shader = 0;
    if (!c->zs_done)
        depth_stencil(c, lanes | wp->helper);
    uint64_t call;
    unsigned mask, mode = desc & 3, target = (unsigned)(desc >> 16 & 15);
    const gfx_blend_state *bs = &dr->blend[target < GFX_MAX_RTS ? target : 0];
    gfx_blend_action act = gfx_blend_route(desc, rt, c->f->fb.nrts, wp->in_blend, dr->d.shader_va, bs, &call, &mask);
    if (act == GFX_BLEND_DROP)
        return 0;
    if (act == GFX_BLEND_BAD)
        return why(w, wl, BI_EXEC_ERROR, "blend shader at address 0");
    if (act == GFX_BLEND_CALL) {
        *shader = call;
        return 0;
    }
    if (target >= c->f->fb.nrts)
        return why(w, wl, BI_EXEC_ERROR, "blend to render target %u of %u", target, c->f->fb.nrts);
    uint32_t conv = (uint32_t)(desc >> 32);
    unsigned regfmt = conv >> 24 & 7;
    bool is_float = regfmt == BI_RF_F16 || regfmt == BI_RF_F32;
    uint32_t mconv = tile_conv(conv);
    bi_mem pm = { .read = px_read, .write = px_write, .arch_major = c->f->job->arch_major };
    pixel_mem px;
    pm.ctx = &px;
    char err[120];
    for (unsigned l = 0; l < 8; l++) {
        if (!(lanes >> l & 1))
            continue;
        uint16_t cov = (uint16_t)(c->cov[l] & coverage[l]);
        if (!cov)
            continue;
        uint32_t v[4];
        regs_in(regfmt, colour, l, 4, v);
        for (unsigned s = 0; s < c->t->samples; s++) {
            if (!(cov >> s & 1))
                continue;
            uint32_t *word = c->t->color[target][tile_index(c, l, s)];
            const gfx_rt *rtd = &c->f->fb.rt[target];
            if (is_float && gfx_internal_blendable(rtd->internal_format)) {
                /* the blender on the tile buffer's fixed-point word (gfx_pixel.h) */
                float src[4], dst[4];
                for (unsigned k = 0; k < 4; k++)
                    src[k] = bits_f32(v[k]);
                gfx_tib_unpack(rtd->internal_format, word[0], rtd->srgb, dst);
                if (mode == MALI_BLEND_MODE_FIXED_FUNCTION) {
                    gfx_blend_apply(bs, src, dst);
                } else {
                    for (unsigned k = 0; k < 4; k++)
                        if (mask >> k & 1)
                            dst[k] = src[k];
                }
                word[0] = gfx_tib_pack(rtd->internal_format, dst, rtd->srgb);
                continue;
            }
            px.px = (uint8_t *)word;
            uint32_t old[4], nv[4];
            int rc = bi_tex_ld_cvt(&pm, 0, mconv, old, 4, err, sizeof(err));
            if (rc)
                return why(w, wl, rc, "render target %u: %s", target, err);
            if (is_float && mode == MALI_BLEND_MODE_FIXED_FUNCTION) {
                float src[4], dst[4];
                for (unsigned k = 0; k < 4; k++) {
                    src[k] = bits_f32(v[k]);
                    dst[k] = bits_f32(old[k]);
                }
                gfx_blend_apply(bs, src, dst);
                for (unsigned k = 0; k < 4; k++)
                    nv[k] = f32_bits(dst[k]);
            } else {                            /* opaque, and integer targets: the masked source */
                for (unsigned k = 0; k < 4; k++)
                    nv[k] = mask >> k & 1 ? v[k] : old[k];
            }
            if ((rc = bi_tex_st_cvt(&pm, 0, mconv, nv, 4, err, sizeof(err))))
                return why(w, wl, rc, "render target %u: %s", target, err);
        }
    }
    return 0;
}

/* LD_TILE / ST_TILE: a render target's tile-buffer value at a pixel.  pixel: Mesa's
 * bifrost_pixel_indices (sample [7:0], render target [15:8], x [23:16], y [31:24]; y = 255:
 * the lane's own pixel); conv: the internal conversion (memory format | register format << 24). */
static int cb_tile(void *ctx, const bi_warp *wp, uint32_t lanes, int store, const uint32_t *pixel,
                   const uint32_t *coverage, uint32_t conv, unsigned ncomp, uint32_t data[4][BI_MAX_LANES], char *w,
                   unsigned wl)
{
    warp_ctx *c = ctx;
    (void)wp;
    (void)coverage;
    unsigned regfmt = conv >> 24 & 7;
    bool is_float = regfmt == BI_RF_F16 || regfmt == BI_RF_F32;
    uint32_t mconv = tile_conv(conv);
    bi_mem pm = { .read = px_read, .write = px_write, .arch_major = c->f->job->arch_major };
    pixel_mem px;
    pm.ctx = &px;
    char err[120];
    for (unsigned l = 0; l < 8; l++) {
        if (!(lanes >> l & 1))
            continue;
        unsigned sample = pixel[l] & 0xff, rt = pixel[l] >> 8 & 0xff, x = pixel[l] >> 16 & 0xff, y = pixel[l] >> 24;
        /* per-sample shading: the sample being shaded joins the index's (assumption, from Mesa's
         * use: blend shaders name it themselves, sample id | sample id; framebuffer fetch names
         * sample 0 and must read its own sample, which real G52s do) */
        if (c->sample > 0)
            sample |= (unsigned)c->sample;
        if (rt >= c->f->fb.nrts || sample >= c->t->samples)
            return why(w, wl, BI_EXEC_ERROR, "%s_TILE of render target %u sample %u", store ? "ST" : "LD", rt, sample);
        unsigned i;
        if (y == 255)                          /* Mesa's BIFROST_CURRENT_PIXEL (in y alone) */
            i = tile_index(c, l, sample);
        else if (x < GFX_TILE && y < GFX_TILE)
            i = (y * GFX_TILE + x) * c->t->samples + sample;
        else
            return why(w, wl, BI_EXEC_ERROR, "%s_TILE of pixel %u,%u", store ? "ST" : "LD", x, y);
        uint32_t *word = c->t->color[rt][i];
        const gfx_rt *rtd = &c->f->fb.rt[rt];
        uint32_t v[4] = { 0, 0, 0, 0 };
        if (store)
            regs_in(regfmt, (const uint32_t (*)[BI_MAX_LANES])data, l, ncomp, v);
        if (is_float && gfx_internal_blendable(rtd->internal_format)) {
            float rgba[4];
            if (store) {
                for (unsigned k = 0; k < 4; k++)
                    rgba[k] = bits_f32(v[k]);
                word[0] = gfx_tib_pack(rtd->internal_format, rgba, rtd->srgb);
                continue;
            }
            gfx_tib_unpack(rtd->internal_format, word[0], rtd->srgb, rgba);
            for (unsigned k = 0; k < 4; k++)
                v[k] = f32_bits(rgba[k]);
        } else {
            px.px = (uint8_t *)word;
            int rc = store ? bi_tex_st_cvt(&pm, 0, mconv, v, 4, err, sizeof(err))
                           : bi_tex_ld_cvt(&pm, 0, mconv, v, 4, err, sizeof(err));
            if (rc)
                return why(w, wl, rc, "render target %u: %s", rt, err);
            if (store)
                continue;
        }
        regs_out(regfmt, v, ncomp, data, l);
    }
    return 0;
}

static const bi_gfx_if gfx_if = {
    .varying = cb_varying, .atest = cb_atest, .zs_emit = cb_zs_emit, .blend = cb_blend, .tile = cb_tile,
};

/* ---- warps ---------------------------------------------------------------------------------- */

/* Shade quads q[0..nq) of primitive pr (nq <= lanes / 4) */
static uint32_t shade_warp(warp_ctx *c, bi_warp *w, char *err, size_t errlen)
{
    const gfx_draw *dr = c->dr;
    unsigned lanes = c->f->lanes;
    uint32_t live = 0;
    memset(w, 0, sizeof(*w));            /* all registers zero: results never depend on the warp before */
    w->lanes = lanes;
    w->mem = &c->wk->mem;
    w->uniforms = dr->d.uniforms;
    w->nuniforms = dr->d.nuniforms;
    w->gfx_ctx = c;
    w->gfx_fau = dr->fau;
    w->core_id = c->wk->core_id;
    c->has_z = c->has_s = 0;
    c->zs_done = false;
    for (unsigned l = 0; l < lanes; l++) {
        c->cov[l] = 0;
        if (l / 4 >= c->nq) {
            w->done[l] = 1;
            continue;
        }
        const struct gfx_quad *q = c->q[l / 4];
        unsigned p = l % 4;
        c->cov[l] = (uint16_t)(gfx_quad_pixel_coverage(q, p) & dr->sample_mask);
        if (c->sample >= 0)
            c->cov[l] &= (uint16_t)(1u << c->sample);
        if (c->cov[l])
            live |= 1u << l;
        w->reg[57][l] = c->pr->id;
        w->reg[58][l] = q->front_facing ? 0 : 1;
        w->reg[59][l] = (uint32_t)(q->x + (int)(p & 1)) | (uint32_t)(q->y + (int)(p >> 1)) << 16;
        w->reg[60][l] = c->cov[l];
        /* sample mask, and the sample id in bits 16-23 (Mesa's load_sample_id) */
        w->reg[61][l] = c->cov[l] | (uint32_t)(c->sample > 0 ? c->sample : 0) << 16;
        w->tls_base[l] = TLS_WINDOW + (uint64_t)l * dr->d.tls_stride;
    }
    uint32_t covered = live;
    if (dr->early_kill && dr->early_update)
        depth_stencil(c, live);
    live = 0;
    for (unsigned l = 0; l < lanes; l++)
        if (c->cov[l])
            live |= 1u << l;
    gfx_stats_warp(&c->f->counts[c->wk->slot], c->q, c->nq, c->t->x0, c->t->y0, covered, live, c->cov,
                   dr->prog != NULL, dr >= c->f->frame && dr < c->f->frame + 3);
    if (!live)
        return 0;                                 /* every sample failed early: nothing to run */
    w->helper = ~live & ((1u << lanes) - 1);
    for (unsigned l = 0; l < lanes; l++)
        w->reg[60][l] = c->cov[l];
    uint32_t run_lanes = 0;
    for (unsigned l = 0; l < lanes; l++)
        if (!w->done[l])
            run_lanes |= 1u << l;
    bi_fault f;
    for (unsigned i = 0; i < 2; i++)      /* v7: messages the hardware runs before the shader */
        if (dr->msg[i] && bi_gfx_message_preload(w, run_lanes, i, dr->msg[i], &f) < 0) {
            snprintf(err, errlen, "message preload %u: %.100s", i, f.msg);
            return c->wk->fault ? c->wk->fault : MALI_EXC_INSTR_INVALID_ENC;
        }
    if (!c->dr->prog) {                           /* no fragment shader: depth / stencil only */
        if (!c->zs_done)
            depth_stencil(c, live);
        return 0;
    }
    const gpu_mem_if *jm = &c->f->job->mem;
    for (;;) {
        int rc = bi_exec_program(w, dr->prog, TURN_CLAUSES, &f);
        if (rc == BI_EXEC_END)
            break;
        if (rc == BI_EXEC_BLEND_CALL) {           /* BLEND named a blend shader: run it, go on */
            bi_program *bp = gfx_blend_program(c->f, w->blend_shader);
            if (!bp) {
                snprintf(err, errlen, "blend shader at %#llx: host out of memory", (unsigned long long)w->blend_shader);
                return MALI_EXC_DATA_INVALID_FAULT;
            }
            uint64_t base = c->wk->shader_base, bva = w->blend_shader;
            c->wk->shader_base = bva;            /* its code, relative to its own address */
            rc = bi_gfx_run_blend(w, bp, NULL, TURN_CLAUSES * 16, &f);
            c->wk->shader_base = base;
            if (rc >= 0)
                continue;
            if (c->wk->fault) {
                snprintf(err, errlen, "blend shader at %#llx: %s", (unsigned long long)bva, access_end(c->wk->fault));
                return c->wk->fault;
            }
            snprintf(err, errlen, "blend shader at %#llx: %.100s", (unsigned long long)bva, f.msg);
            return f.kind == BI_FAULT_BAD_PC ? MALI_EXC_INSTR_INVALID_PC : MALI_EXC_INSTR_INVALID_ENC;
        }
        if (rc < 0 && f.kind == BI_FAULT_CLAUSE_LIMIT) {
            if (jm->should_stop && jm->should_stop(jm->ctx))
                return 0x03;                      /* STOPPED */
            continue;
        }
        if (c->wk->fault) {
            snprintf(err, errlen, "fragment shader at %#llx: %s", (unsigned long long)dr->d.shader_va,
                     access_end(c->wk->fault));
            return c->wk->fault;
        }
        snprintf(err, errlen, "fragment shader at %#llx: %.100s", (unsigned long long)dr->d.shader_va, f.msg);
        return f.kind == BI_FAULT_BAD_PC ? MALI_EXC_INSTR_INVALID_PC : MALI_EXC_INSTR_INVALID_ENC;
    }
    c->wk->trace.tuples += w->tuples_run;          /* --timing: the tile's issue time */
    c->wk->tuples_unreported += w->tuples_run;     /* the job's modelled time (mem.progress) */
    c->wk->since_poll += w->clauses_run;           /* and a stop polled between tiles */
    if (!c->zs_done)
        depth_stencil(c, live);
    return 0;
}

typedef struct {
    struct gfx_quad q[QUADS_MAX];
    unsigned n;
} quad_list;

static void collect(void *ctx, const struct gfx_quad *q)
{
    quad_list *ql = ctx;
    if (ql->n < QUADS_MAX)
        ql->q[ql->n++] = *q;
}

static uint32_t walk_prim(warp_ctx *c, bi_warp *w, quad_list *ql, const struct gfx_raster_state *st,
                          const struct gfx_rvertex *v, unsigned nv, char *err, size_t errlen);
/* Shade the quads of ql in warps, in order */
static uint32_t shade_quads(warp_ctx *c, bi_warp *w, quad_list *ql, char *err, size_t errlen)
{
    unsigned per_warp = c->f->lanes / 4;
    for (unsigned i = 0; i < ql->n; i += per_warp) {
        c->nq = ql->n - i < per_warp ? ql->n - i : per_warp;
        for (unsigned k = 0; k < c->nq; k++)
            c->q[k] = &ql->q[i + k];
        /* per-sample shading: the warp once per sample, each lane covering that sample alone
         * (the others' lanes are helpers); sample order keeps a pixel's results in order */
        bool per_sample = c->dr->per_sample && c->t->samples > 1;
        for (unsigned s = 0; s < (per_sample ? c->t->samples : 1); s++) {
            c->sample = per_sample ? (int)s : -1;
            uint32_t code = shade_warp(c, w, err, errlen);
            if (code)
                return code;
        }
    }
    c->sample = -1;
    return 0;
}


/* Rasterize primitive pr of draw dr over the tile and shade its quads */
static uint32_t draw_prim(warp_ctx *c, bi_warp *w, quad_list *ql, char *err, size_t errlen)
{
    const gfx_draw *dr = c->dr;
    const gfx_pl_prim *pr = c->pr;
    const gpu_mem_if *m = &c->f->job->mem;
    struct gfx_raster_state st;
    gfx_draw_raster_state(&c->f->fb, dr, c->t->samples, &st);
    st.sample_bary = c->t->samples > 1;     /* sample and centroid interpolation */
    struct gfx_rvertex v[3];
    unsigned nv = dr->pl.kind == GFX_PL_POINTS ? 1 : dr->pl.kind == GFX_PL_LINES ? 2 : 3;
    for (unsigned i = 0; i < nv; i++) {
        float p[4];
        uint32_t code = m->read(m->ctx, dr->position + 16ull * pr->v[i], p, sizeof(p));
        if (code) {
            snprintf(err, errlen, "position of vertex slot %u unreadable", pr->v[i]);
            return code;
        }
        v[i] = (struct gfx_rvertex){ .x = p[0], .y = p[1], .z = p[2], .rw = p[3] };
        v[i].persp[i] = v[i].lin[i] = 1;
    }
    if (pr->flags & GFX_PL_CLIP) {                /* crosses w = 0: clip, then fan */
        struct gfx_clip_params cp = { .depth_clip = false };
        struct gfx_clip_vertex in[3];
        struct gfx_rvertex out[GFX_CLIP_MAX_VERTS];
        unsigned n = 0;
        enum gfx_clip_result res;
        for (unsigned i = 0; i < nv; i++)
            in[i] = (struct gfx_clip_vertex){ v[i].x, v[i].y, v[i].z, v[i].rw };
        if (nv == 3) {
            res = gfx_clip_triangle(&cp, in, out, &n, NULL);
        } else if (nv == 2) {
            res = gfx_clip_line(&cp, in, out, NULL);
            n = 2;
        } else {
            res = gfx_clip_point(&cp, in, out, NULL);
            n = 1;
        }
        if (res == GFX_CLIP_CULLED)
            return 0;
        if (nv < 3)
            return walk_prim(c, w, ql, &st, out, nv, err, errlen);
        for (unsigned k = 1; k + 1 < n; k++) {
            struct gfx_rvertex t[3] = { out[0], out[k], out[k + 1] };
            uint32_t code = walk_prim(c, w, ql, &st, t, 3, err, errlen);
            if (code)
                return code;
        }
        return 0;
    }
    return walk_prim(c, w, ql, &st, v, nv, err, errlen);
}

/* Set up one primitive of nv vertices, rasterize it over the tile and shade its quads */
static uint32_t walk_prim(warp_ctx *c, bi_warp *w, quad_list *ql, const struct gfx_raster_state *st,
                          const struct gfx_rvertex *v, unsigned nv, char *err, size_t errlen)
{
    const gfx_draw *dr = c->dr;
    struct gfx_raster_setup s;
    bool ok;
    if (nv == 3) {
        ok = gfx_raster_setup_triangle(st, v, &s, NULL);
        /* the bias is enabled per facing: set up again without it for the other one */
        if (ok && st->offset_enable && !gfx_draw_offset_applies(dr, s.front_facing)) {
            struct gfx_raster_state nob = *st;
            nob.offset_enable = false;
            ok = gfx_raster_setup_triangle(&nob, v, &s, NULL);
        }
    } else if (nv == 2)
        ok = gfx_raster_setup_line(st, v, dr->pl.line_width, &s, NULL);
    else {
        float size = dr->pl.line_width;
        if (dr->pl.psize) {                      /* per-vertex sizes (fp16, gl_PointSize) */
            uint16_t h;
            const gpu_mem_if *m = &c->f->job->mem;
            uint32_t code = m->read(m->ctx, dr->pl.psize + 2ull * c->pr->v[0], &h, 2);
            if (code) {
                snprintf(err, errlen, "point size of vertex slot %u unreadable", c->pr->v[0]);
                return code;
            }
            size = gfx_half_to_float(h);
        }
        ok = gfx_raster_setup_point(st, v, size, &s, NULL);
    }
    if (!ok)
        return 0;
    ql->n = 0;
    gfx_raster_walk(&s, (int)c->t->x0, (int)c->t->y0, (int)c->t->x0 + GFX_TILE, (int)c->t->y0 + GFX_TILE, collect, ql,
                    NULL);
    return shade_quads(c, w, ql, err, errlen);
}

/* The frame shader k over the whole tile (its pixels inside the framebuffer bounds) */
static uint32_t frame_shader(warp_ctx *c, bi_warp *w, quad_list *ql, unsigned k, char *err, size_t errlen)
{
    const gfx_frame *f = c->f;
    const double *pl = f->frame_plane[k];
    static const gfx_pl_prim prim = { .v = { 0, 1, 2 } };
    c->pr = &prim;
    ql->n = 0;
    for (unsigned y = c->t->y0; y < c->t->y0 + GFX_TILE; y += 2)
        for (unsigned x = c->t->x0; x < c->t->x0 + GFX_TILE; x += 2) {
            struct gfx_quad *q = &ql->q[ql->n];
            memset(q, 0, sizeof(*q));
            q->x = (int)x;
            q->y = (int)y;
            q->front_facing = true;
            for (unsigned p = 0; p < 4; p++) {
                unsigned px = x + (p & 1), py = y + (p >> 1);
                bool in = px >= f->fb.bound[0] && px <= f->fb.bound[2] && py >= f->fb.bound[1] &&
                          py <= f->fb.bound[3] && px < f->fb.width && py < f->fb.height;
                if (in) {
                    q->coverage |= (uint64_t)((1u << c->t->samples) - 1) << (p * GFX_MAX_SAMPLES);
                    q->pixel_mask |= (uint8_t)(1u << p);
                }
                double dx = px + 0.5 - pl[0], dy = py + 0.5 - pl[1];
                double b1 = pl[2] * dx + pl[3] * dy, b2 = pl[4] * dx + pl[5] * dy;
                q->bary[p][0] = q->bary_lin[p][0] = (float)(1 - b1 - b2);
                q->bary[p][1] = q->bary_lin[p][1] = (float)b1;
                q->bary[p][2] = q->bary_lin[p][2] = (float)b2;
                q->rw[p] = 1;
            }
            if (q->pixel_mask)
                ql->n++;
        }
    return shade_quads(c, w, ql, err, errlen);
}

/* The draw's tables for its shader's memory messages, and its code */
static void bind_draw(worker *wk, const gfx_draw *dr)
{
    wk->mem.nubos = dr->d.nubos;
    wk->mem.ubo_addr = dr->d.ubo_addr;
    wk->mem.ubo_size = dr->d.ubo_size;
    wk->mem.textures = dr->d.textures;
    wk->mem.samplers = dr->d.samplers;
    wk->mem.attributes = dr->d.attributes;
    wk->mem.attr_bufs = dr->d.attr_bufs;
    wk->shader_base = dr->d.shader_va;
}

uint32_t gfx_shade_tile(worker *wk, uint64_t idx)
{
    run *r = wk->r;
    gfx_frame *f = r->item_ctx;
    gfx_tile *t = &f->tiles[wk->slot];
    unsigned tx = f->tx0 + (unsigned)(idx % f->tiles_x), ty = f->ty0 + (unsigned)(idx / f->tiles_x);
    char err[160] = "";
    uint32_t code = 0;
    wk->fault = 0;
    gfx_tile_clear(t, &f->fb, tx, ty);
    gfx_stats_tile_begin(&f->counts[wk->slot]);
    static __thread bi_warp warp;
    static __thread quad_list ql;
    wk->mem.gfx = &gfx_if;
    for (unsigned k = 0; k < 2 && !code; k++)              /* pre-frame shaders */
        if (f->frame_mode[k]) {
            warp_ctx c = { .f = f, .dr = &f->frame[k], .t = t, .wk = wk };
            bind_draw(wk, c.dr);
            code = frame_shader(&c, &warp, &ql, k, err, sizeof(err));
        }
    for (unsigned d = 0; d < f->ndraws && !code; d++) {
        const gfx_draw *dr = &f->draws[d];
        if (tx < dr->pl.tx0 || tx > dr->pl.tx1 || ty < dr->pl.ty0 || ty > dr->pl.ty1)
            continue;
        const gfx_pl_bin *b = &dr->bins[(size_t)(ty - dr->pl.ty0) * (dr->pl.tx1 - dr->pl.tx0 + 1u) + (tx - dr->pl.tx0)];
        bind_draw(wk, dr);
        warp_ctx c = { .f = f, .dr = dr, .t = t, .wk = wk };
        f->counts[wk->slot].c.prims += b->count;
        for (uint32_t k = 0; k < b->count && !code; k++) {
            c.pr = &dr->prims[dr->entries[b->first + k]];
            code = draw_prim(&c, &warp, &ql, err, sizeof(err));
        }
    }
    if (!code && f->frame_mode[2]) {                        /* post-frame shader */
        warp_ctx c = { .f = f, .dr = &f->frame[2], .t = t, .wk = wk };
        bind_draw(wk, c.dr);
        code = frame_shader(&c, &warp, &ql, 2, err, sizeof(err));
    }
    wk->trace.warps = gfx_stats_tile_end(&f->counts[wk->slot]);  /* --timing: the tile's warps */
    uint64_t fva = 0;
    if (!code)
    {
        gpu_mem_if wm = engine_mem_job_message(wk);        /* --timing sees the write-back */
        code = gfx_tile_write_back(t, &f->fb, &wm, &fva, err, sizeof(err));
    }
    if (code) {
        wk->fault_va = fva ? fva : f->fb.va;
        pthread_mutex_lock(&f->err_lock);
        if (!*f->err || idx < f->err_tile) {
            snprintf(f->err, sizeof(f->err), "tile %u,%u: %.120s", tx, ty, err);
            f->err_tile = idx;
        }
        pthread_mutex_unlock(&f->err_lock);
    }
    return code;
}
