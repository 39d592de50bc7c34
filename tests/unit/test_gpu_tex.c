/* The texture unit's lookups for graphics (bifrost_tex.c through bi_tex_texc_grad): level of detail
 * from derivatives, mip level selection (nearest and trilinear), explicit / biased / zero LODs,
 * the sampler's LOD clamps, min versus mag filters, fetches from a level, shadow compare, and the
 * packed, sRGB and depth formats.  Descriptors are built with the generated pack functions in a
 * small flat address space; every expected value is worked out here from GL's rules. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "bifrost_exec.h"
#include "bifrost_tex.h"
#include "mali_formats.h"

enum { BASE = 0x10000, SIZE = 1 << 16 };
static uint8_t mem[SIZE];
static unsigned next;

static int rd(void *ctx, uint64_t va, void *buf, unsigned n)
{
    (void)ctx;
    if (va < BASE || va + n > BASE + SIZE)
        return -1;
    memcpy(buf, mem + (va - BASE), n);
    return 0;
}

static int wr(void *ctx, uint64_t va, const void *buf, unsigned n)
{
    (void)ctx;
    if (va < BASE || va + n > BASE + SIZE)
        return -1;
    memcpy(mem + (va - BASE), buf, n);
    return 0;
}

static uint64_t alloc(unsigned n)
{
    uint64_t va = BASE + next;
    next += (n + 63) & ~63u;
    ck_assert_uint_le(next, SIZE);
    return va;
}

static uint8_t *at(uint64_t va) { return mem + (va - BASE); }
static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

enum { OP_GRDESC_DER = 4, OP_GRDESC = 5, OP_FETCH = 6, OP_TEX = 7, LOD_GRDESC = 3, LOD_EXPLICIT = 4, LOD_BIAS = 5, LOD_ZERO = 6, LOD_COMPUTE = 7, RF_F32 = 4 };
enum { SWZ_RGBA = 0 | 1 << 3 | 2 << 6 | 3 << 9 };
enum { WRAP_REPEAT_ = 8, WRAP_EDGE_ = 9, WRAP_BORDER_ = 11 };

static bi_mem M;

/* A 2D texture (arch 7 pixel format: format << 12, RGBA order) of `levels` levels, w x h at
 * level 0, bpp bytes per texel, linear; level i's texels from fill(level, x, y, texel bytes). */
static void make_texture(unsigned fmt, unsigned w, unsigned h, unsigned levels, unsigned bpp,
                         void (*fill)(unsigned level, unsigned x, unsigned y, uint8_t *t))
{
    uint64_t tex = alloc(MALI_TEXTURE_LENGTH), surf = alloc(MALI_SURFACE_WITH_STRIDE_LENGTH * levels);
    struct mali_texture td = { .type = 2, .dimension = 2, .format = fmt << 12, .width = w, .height = h,
                               .swizzle = SWZ_RGBA, .texel_ordering = MALI_TEXTURE_LAYOUT_LINEAR, .levels = levels,
                               .surfaces = surf, .array_size = 1, .depth = 1, .maximum_lod = levels - 1 };
    mali_texture_pack(at(tex), &td);
    for (unsigned l = 0; l < levels; l++) {
        unsigned lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1;
        uint64_t data = alloc(lw * lh * bpp);
        for (unsigned y = 0; y < lh; y++)
            for (unsigned x = 0; x < lw; x++)
                fill(l, x, y, at(data) + (y * lw + x) * bpp);
        struct mali_surface_with_stride sd = { .pointer = data, .row_stride = (int32_t)(lw * bpp) };
        mali_surface_with_stride_pack(at(surf) + MALI_SURFACE_WITH_STRIDE_LENGTH * l, &sd);
    }
    M.textures = tex;
}

/* sampler: min / mag linear, mipmap mode, LOD clamps and bias in 8.8, compare function */
static void make_sampler(int min_linear, int mag_linear, unsigned mip, unsigned min_lod, unsigned max_lod, int bias,
                         unsigned func)
{
    uint64_t s = alloc(MALI_SAMPLER_LENGTH);
    struct mali_sampler sd = { .type = 1, .wrap_mode_s = 9, .wrap_mode_t = 9, .wrap_mode_r = 9,
                               .normalized_coordinates = 1, .minify_nearest = !min_linear,
                               .magnify_nearest = !mag_linear, .mipmap_mode = mip, .minimum_lod = min_lod,
                               .maximum_lod = max_lod, .lod_bias = bias, .compare_function = func };
    mali_sampler_pack(at(s), &sd);
    M.samplers = s;
}

static void reset(void)
{
    memset(mem, 0, sizeof mem);
    next = 0;
    M = (bi_mem){ .read = rd, .write = wr, .arch_major = 7 };
}

/* TEXC descriptor: texture 0, sampler 0, immediate indices, 2D */
static uint32_t texc(unsigned op, unsigned lod, int shadow)
{
    return 1u << 11 | op << 12 | (unsigned)shadow << 16 | 2u << 18 | lod << 20 | (uint32_t)RF_F32 << 24 | 0xfu << 28;
}

/* red channel of a lookup at (s, t) with derivatives rho_x along x (ds/dx), staging sr */
static float lookup(uint32_t desc, float s, float t, const bi_tex_grad *g, const uint32_t *sr, unsigned nsr)
{
    uint32_t out[4] = { 0 };
    unsigned n = 0;
    char why[160] = "";
    int rc = bi_tex_texc_grad(&M, desc, fbits(s), fbits(t), sr, nsr, g, out, &n, why, sizeof why);
    ck_assert_msg(rc == 0, "lookup failed: %s", why);
    ck_assert_uint_eq(n, 4);
    return bitsf(out[0]);
}

/* level l of an RGBA8 texture: every texel red = 40 (l + 1) */
static void level_fill(unsigned l, unsigned x, unsigned y, uint8_t *t)
{
    (void)x, (void)y;
    t[0] = (uint8_t)(40 * (l + 1));
    t[1] = t[2] = 0;
    t[3] = 255;
}

static float level_red(unsigned l) { return (float)(40.0 * (l + 1) / 255); }

/* a gradient of `texels` texels of level 0 per pixel along x (64-texel-wide texture) */
static bi_tex_grad grad_x(double texels)
{
    bi_tex_grad g = { { (float)(texels / 64), 0, 0 }, { 0, 0, 0 } };
    return g;
}

START_TEST(test_lod_from_grad)
{
    bi_tex_grad g = grad_x(1);
    ck_assert_int_eq(bi_tex_lod_from_grad(64, 64, 1, 2, 1, &g), 0);
    g = grad_x(4);
    ck_assert_int_eq(bi_tex_lod_from_grad(64, 64, 1, 2, 1, &g), 512);
    g = grad_x(3);                                   /* log2(3) = 1.58496 -> 405.75 -> 406 */
    ck_assert_int_eq(bi_tex_lod_from_grad(64, 64, 1, 2, 1, &g), 406);
    /* the longer of the x and y derivatives: |(3, 4)| = 5 texels along y */
    g = (bi_tex_grad){ { 1.0f / 64, 0, 0 }, { 3.0f / 64, 4.0f / 32, 0 } };
    ck_assert_int_eq(bi_tex_lod_from_grad(64, 32, 1, 2, 1, &g), (int)floor(log2(5.0) * 256 + 0.5));
    /* unnormalized coordinates: derivatives already in texels */
    g = (bi_tex_grad){ { 2, 0, 0 }, { 0, 0, 0 } };
    ck_assert_int_eq(bi_tex_lod_from_grad(64, 64, 1, 2, 0, &g), 256);
    /* quad derivatives: lanes 0 1 / 2 3, coarse (top row and left column) */
    uint32_t x[4] = { fbits(0.5f), fbits(0.75f), fbits(0.5f), fbits(0.75f) };
    uint32_t y[4] = { fbits(0.25f), fbits(0.25f), fbits(0.375f), fbits(0.375f) };
    bi_tex_quad_grad(0, x, y, NULL, &g);
    ck_assert(g.dx[0] == 0.25f && g.dx[1] == 0 && g.dy[0] == 0 && g.dy[1] == 0.125f);
}
END_TEST

START_TEST(test_mip_nearest)
{
    reset();
    make_texture(MALI_FORMAT_RGBA8_UNORM, 64, 64, 4, 4, level_fill);
    make_sampler(0, 0, MALI_MIPMAP_MODE_NEAREST, 0, 16 << 8, 0, 0);
    uint32_t d = texc(OP_TEX, LOD_COMPUTE, 0);
    static const struct { double texels; unsigned level; } c[] = {
        { 1, 0 },           /* lambda 0: magnification, the base level */
        { 1.3195, 0 },      /* lambda 0.4 (<= 1/2): level 0 */
        { 1.5157, 1 },      /* lambda 0.6: ceil(1.1) - 1 = 1 */
        { 2, 1 },           /* lambda 1 */
        { 2.8284, 1 },      /* lambda 1.5: ceil(2) - 1 = 1 */
        { 2.9, 2 },         /* lambda 1.536 */
        { 64, 3 },          /* lambda 6: the last level */
    };
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
        bi_tex_grad g = grad_x(c[i].texels);
        ck_assert_msg(lookup(d, 0.3f, 0.3f, &g, NULL, 0) == level_red(c[i].level), "rho %g: level %u expected",
                      c[i].texels, c[i].level);
    }
    /* no derivatives (the compute path) and LOD zero: the base level */
    ck_assert(lookup(d, 0.3f, 0.3f, NULL, NULL, 0) == level_red(0));
    ck_assert(lookup(texc(OP_TEX, LOD_ZERO, 0), 0.3f, 0.3f, NULL, NULL, 0) == level_red(0));
    /* explicit LOD 2.0 (8.8 in the staging register) and computed lambda 2 with a shader bias -1 */
    uint32_t sr = 2 << 8;
    ck_assert(lookup(texc(OP_TEX, LOD_EXPLICIT, 0), 0.3f, 0.3f, NULL, &sr, 1) == level_red(2));
    bi_tex_grad g = grad_x(4);
    sr = (uint32_t)(uint16_t)(-256);
    ck_assert(lookup(texc(OP_TEX, LOD_BIAS, 0), 0.3f, 0.3f, &g, &sr, 1) == level_red(1));
    /* the sampler's bias (+1) and minimum LOD (3) */
    make_sampler(0, 0, MALI_MIPMAP_MODE_NEAREST, 0, 16 << 8, 256, 0);
    ck_assert(lookup(d, 0.3f, 0.3f, &g, NULL, 0) == level_red(3));
    make_sampler(0, 0, MALI_MIPMAP_MODE_NEAREST, 3 << 8, 16 << 8, 0, 0);
    ck_assert(lookup(d, 0.3f, 0.3f, NULL, NULL, 0) == level_red(3));
    /* maximum LOD 1: level 1 at lambda 6 */
    make_sampler(0, 0, MALI_MIPMAP_MODE_NEAREST, 0, 1 << 8, 0, 0);
    g = grad_x(64);
    ck_assert(lookup(d, 0.3f, 0.3f, &g, NULL, 0) == level_red(1));
    /* mipmap mode none: the base level whatever lambda */
    make_sampler(0, 0, MALI_MIPMAP_MODE_NONE, 0, 16 << 8, 0, 0);
    ck_assert(lookup(d, 0.3f, 0.3f, &g, NULL, 0) == level_red(0));
    /* fetch from level 2 (Mesa's LOD register: level << 8), integer coordinates */
    sr = 2 << 8;
    uint32_t out[4];
    unsigned n;
    char why[160] = "";
    ck_assert_int_eq(bi_tex_texc_grad(&M, texc(OP_FETCH, 1, 0), 0, 0, &sr, 1, NULL, out, &n, why, sizeof why), 0);
    ck_assert(bitsf(out[0]) == level_red(2));
}
END_TEST

START_TEST(test_trilinear)
{
    reset();
    make_texture(MALI_FORMAT_RGBA8_UNORM, 64, 64, 4, 4, level_fill);
    make_sampler(1, 1, MALI_MIPMAP_MODE_TRILINEAR, 0, 16 << 8, 0, 0);
    /* explicit lambda 1.5: half level 1, half level 2; 1.25: three quarters level 1 */
    uint32_t sr = 384;
    float r = lookup(texc(OP_TEX, LOD_EXPLICIT, 0), 0.3f, 0.3f, NULL, &sr, 1);
    ck_assert_float_eq_tol(r, (level_red(1) + level_red(2)) / 2, 1e-6);
    sr = 320;
    r = lookup(texc(OP_TEX, LOD_EXPLICIT, 0), 0.3f, 0.3f, NULL, &sr, 1);
    ck_assert_float_eq_tol(r, level_red(1) * 0.75f + level_red(2) * 0.25f, 1e-6);
    /* beyond the last level: the last level alone */
    sr = 10 << 8;
    ck_assert(lookup(texc(OP_TEX, LOD_EXPLICIT, 0), 0.3f, 0.3f, NULL, &sr, 1) == level_red(3));
}
END_TEST

/* a 4x1 RGBA8 texture, red 0, 100, 200, 250 */
static void ramp_fill(unsigned l, unsigned x, unsigned y, uint8_t *t)
{
    static const uint8_t r[4] = { 0, 100, 200, 250 };
    (void)l, (void)y;
    t[0] = r[x & 3];
    t[1] = t[2] = 0;
    t[3] = 255;
}

START_TEST(test_min_mag_filters)
{
    reset();
    make_texture(MALI_FORMAT_RGBA8_UNORM, 4, 1, 1, 4, ramp_fill);
    /* GL's default pair: minify nearest (here without mips), magnify linear.  s = 0.5 is the
     * boundary of texels 1 and 2: linear gives their mean, nearest texel 2 */
    uint32_t d = texc(OP_TEX, LOD_COMPUTE, 0);
    bi_tex_grad mag = { { 0.5f / 4, 0, 0 }, { 0, 0, 0 } }, min = { { 2.0f / 4, 0, 0 }, { 0, 0, 0 } };
    make_sampler(0, 1, MALI_MIPMAP_MODE_NONE, 0, 16 << 8, 0, 0);
    ck_assert_float_eq_tol(lookup(d, 0.5f, 0.5f, &mag, NULL, 0), 150.0f / 255, 1e-6);
    ck_assert(lookup(d, 0.5f, 0.5f, &min, NULL, 0) == 200.0f / 255);
    /* the other way round */
    make_sampler(1, 0, MALI_MIPMAP_MODE_NONE, 0, 16 << 8, 0, 0);
    ck_assert(lookup(d, 0.5f, 0.5f, &mag, NULL, 0) == 200.0f / 255);
    ck_assert_float_eq_tol(lookup(d, 0.5f, 0.5f, &min, NULL, 0), 150.0f / 255, 1e-6);
}
END_TEST

/* a 2x1 R32F depth texture: 0.25, 0.75 */
static void depth_fill(unsigned l, unsigned x, unsigned y, uint8_t *t)
{
    (void)l, (void)y;
    float d = x ? 0.75f : 0.25f;
    memcpy(t, &d, 4);
}

START_TEST(test_shadow)
{
    reset();
    make_texture(MALI_FORMAT_R32F, 2, 1, 1, 4, depth_fill);
    uint32_t d = texc(OP_TEX, LOD_ZERO, 1), ref = fbits(0.5f);
    /* panfrost's GL_LEQUAL (ref <= D) is Mali's GEQUAL (texel >= ref) */
    make_sampler(0, 0, MALI_MIPMAP_MODE_NONE, 0, 0, 0, MALI_FUNC_GEQUAL);
    ck_assert(lookup(d, 0.25f, 0.5f, NULL, &ref, 1) == 0.0f);
    ck_assert(lookup(d, 0.75f, 0.5f, NULL, &ref, 1) == 1.0f);
    make_sampler(0, 0, MALI_MIPMAP_MODE_NONE, 0, 0, 0, MALI_FUNC_LESS);
    ck_assert(lookup(d, 0.25f, 0.5f, NULL, &ref, 1) == 1.0f);
    /* linear: the results of the comparisons filtered (midway: 1/2) */
    make_sampler(1, 1, MALI_MIPMAP_MODE_NONE, 0, 0, 0, MALI_FUNC_GEQUAL);
    ck_assert(lookup(d, 0.5f, 0.5f, NULL, &ref, 1) == 0.5f);
}
END_TEST

static uint8_t fmt_bytes[4];
static unsigned fmt_order;          /* texel()'s v7 RGB component order (0: RGBA) */
static void bytes_fill(unsigned l, unsigned x, unsigned y, uint8_t *t)
{
    (void)l, (void)x, (void)y;
    memcpy(t, fmt_bytes, 4);
}

static void texel(unsigned fmt, unsigned srgb, const uint8_t b[4], unsigned bpp, float expect[4])
{
    reset();
    memcpy(fmt_bytes, b, 4);
    make_texture(fmt, 1, 1, 1, bpp, bytes_fill);
    uint32_t w0;
    memcpy(&w0, at(M.textures), 4);
    w0 |= (srgb ? 1u << (10 + 20) : 0) | fmt_order << 10;
    memcpy(at(M.textures), &w0, 4);
    make_sampler(0, 0, MALI_MIPMAP_MODE_NONE, 0, 0, 0, 0);
    uint32_t out[4];
    unsigned n;
    char why[160] = "";
    int rc = bi_tex_texc_grad(&M, texc(OP_TEX, LOD_ZERO, 0), fbits(0.5f), fbits(0.5f), NULL, 0, NULL, out, &n, why,
                              sizeof why);
    ck_assert_msg(rc == 0, "format %u: %s", fmt, why);
    for (unsigned c = 0; c < 4; c++)
        expect[c] = bitsf(out[c]);
}

START_TEST(test_formats)
{
    float v[4];
    /* RGB565: 0xf81f = R 31, G 0, B 31 */
    texel(MALI_FORMAT_RGB565, 0, (const uint8_t[]){ 0x1f, 0xf8, 0, 0 }, 2, v);
    ck_assert(v[0] == 1.0f && v[1] == 0.0f && v[2] == 1.0f && v[3] == 1.0f);
    /* RGBA4: 0x8421 -> R 1, G 2, B 4, A 8 (R in the low bits) per gfx_pixel */
    texel(MALI_FORMAT_RGBA4_UNORM, 0, (const uint8_t[]){ 0x21, 0x84, 0, 0 }, 2, v);
    ck_assert_float_eq_tol(v[0] + v[1] + v[2] + v[3], 15.0f / 15, 1e-6);
    /* sRGB RGBA8: 0x80 decodes to ((128/255 + 0.055) / 1.055)^2.4, alpha stays linear */
    texel(MALI_FORMAT_RGBA8_UNORM, 1, (const uint8_t[]){ 0x80, 0xff, 0, 0x80 }, 4, v);
    ck_assert_float_eq_tol(v[0], powf((128.0f / 255 + 0.055f) / 1.055f, 2.4f), 1e-6);
    ck_assert(v[1] == 1.0f && v[2] == 0.0f && v[3] == 128.0f / 255);
    /* Z24X8: depth 0x800000 / 0xffffff in red, the stencil byte unread */
    texel(MALI_FORMAT_Z24X8_UNORM, 0, (const uint8_t[]){ 0, 0, 0x80, 0x5a }, 4, v);
    ck_assert(v[0] == (float)(8388608.0 / 16777215.0) && v[1] == 0.0f && v[3] == 1.0f);
    /* v7's Z16_UNORM (format 75, GL_DEPTH_COMPONENT16 textures): 0x8000 / 0xffff in red */
    texel(MALI_FORMAT_Z16_UNORM, 0, (const uint8_t[]){ 0, 0x80, 0x5a, 0x5a }, 2, v);
    ck_assert(v[0] == (float)(32768.0 / 65535.0) && v[1] == 0.0f && v[3] == 1.0f);
    /* R11G11B10F: 1.0 in each (exponent 15, mantissa 0) */
    uint32_t w = 15u << 6 | (15u << 6) << 11 | (15u << 5) << 22;
    texel(MALI_FORMAT_R11F_G11F_B10F, 0, (const uint8_t[]){ (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24) }, 4, v);
    ck_assert(v[0] == 1.0f && v[1] == 1.0f && v[2] == 1.0f && v[3] == 1.0f);
}
END_TEST

/* v7 component orders of one-channel formats: panfrost's luminance (RRR1) and intensity (RRRR)
 * views, e.g. OES_texture_float's LUMINANCE half-float textures (R16F RRR1), and the constants */
START_TEST(test_component_orders)
{
    static const struct { unsigned order; float v[4]; } t[] = {
        { MALI_RGB_COMPONENT_ORDER_RRR1, { 0.5f, 0.5f, 0.5f, 1.0f } },
        { MALI_RGB_COMPONENT_ORDER_RRRR, { 0.5f, 0.5f, 0.5f, 0.5f } },
        { MALI_RGB_COMPONENT_ORDER_0001, { 0.0f, 0.0f, 0.0f, 1.0f } },
        { MALI_RGB_COMPONENT_ORDER_0000, { 0.0f, 0.0f, 0.0f, 0.0f } },
        { MALI_RGB_COMPONENT_ORDER_RGBA, { 0.5f, 0.0f, 0.0f, 1.0f } },
    };
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++) {
        float v[4];
        fmt_order = t[i].order;
        texel(MALI_FORMAT_R16F, 0, (const uint8_t[]){ 0x00, 0x38, 0, 0 }, 2, v);     /* half 0.5 */
        for (unsigned c = 0; c < 4; c++)
            ck_assert_msg(v[c] == t[i].v[c], "order %u channel %u: %g, not %g", t[i].order, c, v[c], t[i].v[c]);
    }
    fmt_order = 0;
}
END_TEST

/* ST_CVT to the packed formats (render targets of those formats written through their blend
 * conversion, e.g. arb_texture_view's RGB10_A2UI view): bytes worked out by hand, integers
 * saturated, and LD_CVT reads the values back */
START_TEST(test_st_cvt_packed)
{
    reset();
    uint64_t a = alloc(16);
    char why[160] = "";
    uint32_t back[4];
    /* RGB10_A2UI (pixel format 0x47000): 1023 | 512 << 10 | 3 << 20 | 2 << 30 */
    uint32_t conv = (uint32_t)MALI_FORMAT_RGB10_A2UI << 12 | (uint32_t)BI_RF_U32 << 24;
    const uint32_t ui[4] = { 1023, 512, 3, 2 };
    ck_assert_msg(bi_tex_st_cvt(&M, a, conv, ui, 4, why, sizeof why) == 0, "%s", why);
    uint32_t w;
    memcpy(&w, at(a), 4);
    ck_assert_uint_eq(w, 0x803803ffu);
    ck_assert_msg(bi_tex_ld_cvt(&M, a, conv, back, 4, why, sizeof why) == 0, "%s", why);
    ck_assert(back[0] == 1023 && back[1] == 512 && back[2] == 3 && back[3] == 2);
    const uint32_t big[4] = { 5000, 0, 1024, 7 };       /* saturate: 1023, 0, 1023, 3 */
    ck_assert(bi_tex_st_cvt(&M, a, conv, big, 4, why, sizeof why) == 0);
    memcpy(&w, at(a), 4);
    ck_assert_uint_eq(w, 0x3ffu | 0x3ffu << 20 | 3u << 30);
    /* RGB565 from floats (1, 0.5, 0): 31 | 32 << 5 = 0x041f (R in the low bits) */
    conv = (uint32_t)MALI_FORMAT_RGB565 << 12 | MALI_RGB_COMPONENT_ORDER_RGB1 | (uint32_t)BI_RF_F32 << 24;
    const uint32_t fl[4] = { fbits(1.0f), fbits(0.5f), fbits(0.0f), fbits(1.0f) };
    memset(at(a), 0xee, 4);
    ck_assert_msg(bi_tex_st_cvt(&M, a, conv, fl, 4, why, sizeof why) == 0, "%s", why);
    ck_assert(at(a)[0] == 0x1f && at(a)[1] == 0x04 && at(a)[2] == 0xee);
}
END_TEST

/* A cube texture (one cube, 2 levels, 4x4 RGBA8 faces) whose surface for (face, level) holds red
 * 20 face + 120 level, its surfaces in the order panfrost writes them for arch (v7: per face, the
 * levels inside; v6: per level, the faces inside). */
static void make_cube(unsigned arch)
{
    uint64_t tex = alloc(MALI_TEXTURE_LENGTH), surf = alloc(MALI_SURFACE_WITH_STRIDE_LENGTH * 12);
    struct mali_texture td = { .type = 2, .dimension = MALI_TEXTURE_DIMENSION_CUBE,
                               .format = arch >= 7 ? MALI_FORMAT_RGBA8_UNORM << 12 : MALI_FORMAT_RGBA8_UNORM << 12 | SWZ_RGBA,
                               .width = 4, .height = 4, .swizzle = SWZ_RGBA,
                               .texel_ordering = MALI_TEXTURE_LAYOUT_LINEAR, .levels = 2, .surfaces = surf,
                               .array_size = 1, .depth = 1, .maximum_lod = 1 };
    mali_texture_pack(at(tex), &td);
    for (unsigned f = 0; f < 6; f++)
        for (unsigned l = 0; l < 2; l++) {
            unsigned wl = 4 >> l;
            uint64_t data = alloc(wl * wl * 4);
            for (unsigned i = 0; i < wl * wl; i++) {
                at(data)[4 * i] = (uint8_t)(20 * f + 120 * l);
                at(data)[4 * i + 3] = 255;
            }
            unsigned idx = arch >= 7 ? f * 2 + l : l * 6 + f;
            struct mali_surface_with_stride sd = { .pointer = data, .row_stride = (int32_t)(wl * 4) };
            mali_surface_with_stride_pack(at(surf) + MALI_SURFACE_WITH_STRIDE_LENGTH * idx, &sd);
        }
    M.textures = tex;
}

START_TEST(test_cube)
{
    for (unsigned arch = 6; arch <= 7; arch++) {
        reset();
        M.arch_major = arch;
        make_cube(arch);
        make_sampler(0, 0, MALI_MIPMAP_MODE_NEAREST, 0, 16 << 8, 0, 0);
        /* TEXC cube: dimension 0; src0 = face << 29 | s's low 29 bits (Mesa's cube descriptor) */
        uint32_t d = 1u << 11 | OP_TEX << 12 | 0u << 18 | LOD_EXPLICIT << 20 | (uint32_t)RF_F32 << 24 | 0xfu << 28;
        for (unsigned f = 0; f < 6; f++)
            for (unsigned l = 0; l < 2; l++) {
                uint32_t sr = l << 8, out[4], n;
                char why[160] = "";
                uint32_t s0 = f << 29 | (fbits(0.375f) & 0x1fffffffu);
                ck_assert_msg(bi_tex_texc_grad(&M, d, s0, fbits(0.625f), &sr, 1, NULL, out, &n, why, sizeof why) == 0,
                              "%s", why);
                ck_assert_msg(bitsf(out[0]) == (float)((20.0 * f + 120 * l) / 255), "arch %u face %u level %u: %g",
                              arch, f, l, bitsf(out[0]));
            }
        /* a face index of 6 or 7 is refused */
        uint32_t sr = 0, out[4], n;
        char why[160];
        ck_assert_int_eq(bi_tex_texc_grad(&M, d, 6u << 29, 0, &sr, 1, NULL, out, &n, why, sizeof why), BI_EXEC_ERROR);
    }
}
END_TEST

/* ---- textureGather and seamless cube maps ---- */

/* TEXC gather of component comp: the fetch op in gather mode 4 + comp (Mesa's
 * BIFROST_TEXTURE_FETCH_GATHER4_R + component), staging: LOD, [shadow reference], [offsets] */
static uint32_t gather_desc(unsigned dim, unsigned comp, int shadow, int offsets)
{
    return 1u << 11 | OP_FETCH << 12 | (unsigned)offsets << 15 | (unsigned)shadow << 16 | dim << 18 | (4 + comp) << 20 |
           (uint32_t)RF_F32 << 24 | 0xfu << 28;
}

/* the four registers of a gather at (s, t) (s: a cube's face over s, as Mesa packs it) */
static void gather(uint32_t desc, uint32_t s, float t, const uint32_t *sr, unsigned nsr, float r[4])
{
    uint32_t out[4] = { 0 };
    unsigned n = 0;
    char why[160] = "";
    int rc = bi_tex_texc_grad(&M, desc, s, fbits(t), sr, nsr, NULL, out, &n, why, sizeof why);
    ck_assert_msg(rc == 0, "gather failed: %s", why);
    ck_assert_uint_eq(n, 4);
    for (unsigned k = 0; k < 4; k++)
        r[k] = bitsf(out[k]);
}

/* a 4x4 RGBA8 texture: texel (x, y) = (10 x + 50 y, 200 - 10 x - 50 y, 7, 255) */
static void xy_fill(unsigned l, unsigned x, unsigned y, uint8_t *t)
{
    (void)l;
    t[0] = (uint8_t)(10 * x + 50 * y);
    t[1] = (uint8_t)(200 - 10 * x - 50 * y);
    t[2] = 7;
    t[3] = 255;
}

static float xy_red(unsigned x, unsigned y) { return (float)((10.0 * x + 50 * y) / 255); }

static void set_wrap(unsigned mode)
{
    struct mali_sampler sd;
    mali_sampler_unpack(at(M.samplers), &sd);
    sd.wrap_mode_s = sd.wrap_mode_t = mode;
    mali_sampler_pack(at(M.samplers), &sd);
}

START_TEST(test_gather)
{
    reset();
    make_texture(MALI_FORMAT_RGBA8_UNORM, 4, 4, 1, 4, xy_fill);
    make_sampler(0, 0, MALI_MIPMAP_MODE_NONE, 0, 0, 0, 0);     /* nearest: gathers ignore filters */
    float r[4];
    uint32_t sr[2] = { 0, 0 };
    /* (1.75, 2.25) texels: the bilinear footprint's texels i 1, 2 and j 1, 2, in the order
     * (i0, j0), (i1, j0), (i0, j1), (i1, j1) */
    gather(gather_desc(2, 0, 0, 0), fbits(1.75f / 4), 2.25f / 4, sr, 1, r);
    ck_assert(r[0] == xy_red(1, 1) && r[1] == xy_red(2, 1) && r[2] == xy_red(1, 2) && r[3] == xy_red(2, 2));
    /* component 1 (green), 2 (blue: 7 everywhere), 3 (alpha) */
    gather(gather_desc(2, 1, 0, 0), fbits(1.75f / 4), 2.25f / 4, sr, 1, r);
    ck_assert(r[0] == (float)((200 - 60) / 255.0) && r[3] == (float)((200 - 120) / 255.0));
    gather(gather_desc(2, 2, 0, 0), fbits(1.75f / 4), 2.25f / 4, sr, 1, r);
    ck_assert(r[0] == (float)(7 / 255.0) && r[1] == r[0] && r[2] == r[0] && r[3] == r[0]);
    gather(gather_desc(2, 3, 0, 0), fbits(1.75f / 4), 2.25f / 4, sr, 1, r);
    ck_assert(r[0] == 1.0f && r[3] == 1.0f);
    /* textureGatherOffset: offsets (-1, +1) in the offset register's bytes */
    sr[1] = 0xffu | 1u << 8;
    gather(gather_desc(2, 0, 0, 1), fbits(1.75f / 4), 2.25f / 4, sr, 2, r);
    ck_assert(r[0] == xy_red(0, 2) && r[1] == xy_red(1, 2) && r[2] == xy_red(0, 3) && r[3] == xy_red(1, 3));
    /* the wrap modes: at s = 0.1 texel i0 = -1 -> 3 (repeat), 0 (edge), the border colour */
    set_wrap(WRAP_REPEAT_);
    gather(gather_desc(2, 0, 0, 0), fbits(0.1f / 4), 2.25f / 4, sr, 1, r);
    ck_assert(r[0] == xy_red(3, 1) && r[1] == xy_red(0, 1));
    set_wrap(WRAP_EDGE_);
    gather(gather_desc(2, 0, 0, 0), fbits(0.1f / 4), 2.25f / 4, sr, 1, r);
    ck_assert(r[0] == xy_red(0, 1) && r[1] == xy_red(0, 1));
    set_wrap(WRAP_BORDER_);
    gather(gather_desc(2, 0, 0, 0), fbits(0.1f / 4), 2.25f / 4, sr, 1, r);
    ck_assert(r[0] == 0.0f && r[1] == xy_red(0, 1) && r[2] == 0.0f);
    /* the texture swizzle applies before the component is chosen: BGR1 -> component 0 is blue,
     * component 3 one */
    struct mali_texture td;
    mali_texture_unpack(at(M.textures), &td);
    td.swizzle = 2 | 1 << 3 | 0 << 6 | 5 << 9;
    mali_texture_pack(at(M.textures), &td);
    gather(gather_desc(2, 0, 0, 0), fbits(1.75f / 4), 2.25f / 4, sr, 1, r);
    ck_assert(r[0] == (float)(7 / 255.0) && r[3] == (float)(7 / 255.0));
    gather(gather_desc(2, 2, 0, 0), fbits(1.75f / 4), 2.25f / 4, sr, 1, r);
    ck_assert(r[0] == xy_red(1, 1) && r[1] == xy_red(2, 1));

    /* shadow gather: each texel's comparison, unfiltered (depth 0.25 | 0.75, ref 0.5) */
    reset();
    make_texture(MALI_FORMAT_R32F, 2, 1, 1, 4, depth_fill);
    make_sampler(1, 1, MALI_MIPMAP_MODE_NONE, 0, 0, 0, MALI_FUNC_GEQUAL);
    uint32_t zr[2] = { 0, fbits(0.5f) };
    gather(gather_desc(2, 0, 1, 0), fbits(0.5f), 0.5f, zr, 2, r);
    ck_assert(r[0] == 0.0f && r[1] == 1.0f && r[2] == 0.0f && r[3] == 1.0f);
}
END_TEST

/* A cube (one level, 4x4 RGBA8 faces) whose texel (x, y) of face f has red 16 f + 4 y + x: a
 * texel read says where it came from.  Surfaces in the order panfrost writes them for arch. */
static void make_cube_xy(unsigned arch)
{
    uint64_t tex = alloc(MALI_TEXTURE_LENGTH), surf = alloc(MALI_SURFACE_WITH_STRIDE_LENGTH * 6);
    struct mali_texture td = { .type = 2, .dimension = MALI_TEXTURE_DIMENSION_CUBE,
                               .format = arch >= 7 ? MALI_FORMAT_RGBA8_UNORM << 12 : MALI_FORMAT_RGBA8_UNORM << 12 | SWZ_RGBA,
                               .width = 4, .height = 4, .swizzle = SWZ_RGBA,
                               .texel_ordering = MALI_TEXTURE_LAYOUT_LINEAR, .levels = 1, .surfaces = surf,
                               .array_size = 1, .depth = 1 };
    mali_texture_pack(at(tex), &td);
    for (unsigned f = 0; f < 6; f++) {
        uint64_t data = alloc(4 * 4 * 4);
        for (unsigned i = 0; i < 16; i++) {
            at(data)[4 * i] = (uint8_t)(16 * f + i);
            at(data)[4 * i + 3] = 255;
        }
        struct mali_surface_with_stride sd = { .pointer = data, .row_stride = 16 };
        mali_surface_with_stride_pack(at(surf) + MALI_SURFACE_WITH_STRIDE_LENGTH * f, &sd);
    }
    M.textures = tex;
}

static float cube_red(unsigned f, unsigned x, unsigned y) { return (float)((16.0 * f + 4 * y + x) / 255); }

static void set_seamless(int on)
{
    struct mali_sampler sd;
    mali_sampler_unpack(at(M.samplers), &sd);
    sd.seamless_cube_map = on;
    mali_sampler_pack(at(M.samplers), &sd);
}

static uint32_t cube_src0(unsigned face, float s) { return face << 29 | (fbits(s) & 0x1fffffffu); }

START_TEST(test_cube_seamless)
{
    for (unsigned arch = 6; arch <= 7; arch++) {
        reset();
        M.arch_major = arch;
        make_cube_xy(arch);
        make_sampler(1, 1, MALI_MIPMAP_MODE_NONE, 0, 0, 0, 0);
        set_wrap(WRAP_REPEAT_);        /* GL's default: ignored by seamless cubes */
        set_seamless(1);
        float r[4];
        uint32_t sr = 0;
        uint32_t g = gather_desc(MALI_TEXTURE_DIMENSION_CUBE, 0, 0, 0);
        /* +X at s = 0.05, t = 0.4: texels i -1, 0 and j 1, 2; +X's s = 0 edge (rz = +1) is +Z's
         * s = 1 edge, rows alike (both faces' t is -ry): (-1, j) is +Z's (3, j) */
        gather(g, cube_src0(0, 0.05f), 0.4f, &sr, 1, r);
        ck_assert_msg(r[0] == cube_red(4, 3, 1) && r[1] == cube_red(0, 0, 1) && r[2] == cube_red(4, 3, 2) &&
                      r[3] == cube_red(0, 0, 2), "arch %u: %g %g %g %g", arch, r[0] * 255, r[1] * 255, r[2] * 255, r[3] * 255);
        /* +Y at s = 0.3, t = 0.05: texels i 0, 1, j -1, 0; +Y's t = 0 edge (rz = -1) is -Z's t = 0
         * edge (ry = +1), -Z's s = -rx runs the other way: (i, -1) is -Z's (3 - i, 0) */
        gather(g, cube_src0(2, 0.3f), 0.05f, &sr, 1, r);
        ck_assert_msg(r[0] == cube_red(5, 3, 0) && r[1] == cube_red(5, 2, 0) && r[2] == cube_red(2, 0, 0) &&
                      r[3] == cube_red(2, 1, 0), "arch %u: %g %g %g %g", arch, r[0] * 255, r[1] * 255, r[2] * 255, r[3] * 255);
        /* +X's corner (s, t = 0.05): (0, -1) is +Y's (3, 3), (-1, 0) +Z's (3, 0), and (-1, -1),
         * past the corner, the average of the three */
        gather(g, cube_src0(0, 0.05f), 0.05f, &sr, 1, r);
        ck_assert(r[1] == cube_red(2, 3, 3) && r[2] == cube_red(4, 3, 0) && r[3] == cube_red(0, 0, 0));
        ck_assert_msg(r[0] == (float)(((double)r[1] + r[2] + r[3]) / 3), "corner %g", r[0] * 255);
        /* bilinear filtering weights the same four texels (s: u - 1/2 = -0.3 -> weight 179/256 on
         * i = 0; t: 1.1 -> 26/256 on j = 2) */
        uint32_t d = 1u << 11 | OP_TEX << 12 | 0u << 18 | LOD_ZERO << 20 | (uint32_t)RF_F32 << 24 | 0xfu << 28;
        gather(g, cube_src0(0, 0.05f), 0.4f, &sr, 1, r);
        uint32_t out[4], n;
        char why[160] = "";
        ck_assert(bi_tex_texc_grad(&M, d, cube_src0(0, 0.05f), fbits(0.4f), &sr, 0, NULL, out, &n, why, sizeof why) == 0);
        double a = 179 / 256.0, b = 26 / 256.0;
        double want = (1 - a) * (1 - b) * r[0] + a * (1 - b) * r[1] + (1 - a) * b * r[2] + a * b * r[3];
        ck_assert_msg(bitsf(out[0]) == (float)want, "linear %g, want %g", bitsf(out[0]) * 255, want * 255);
        /* without the sampler's seamless bit the faces clamp (wrap modes apply): (-1, j) is (0, j) */
        set_wrap(WRAP_EDGE_);
        set_seamless(0);
        gather(g, cube_src0(0, 0.05f), 0.4f, &sr, 1, r);
        ck_assert(r[0] == cube_red(0, 0, 1) && r[2] == cube_red(0, 0, 2));
    }
}
END_TEST

/* A multisampled 2D array (2 layers, 2 levels, 4x4 RGBA8, 4 samples) whose surface for (layer,
 * level, sample) holds red 60 layer + 120 level + 16 sample, its surfaces in the order panfrost
 * writes them for arch (pan_emit_iview_texture_payload: v7 per layer the samples, the levels
 * inside; v6 per layer the levels, the samples inside). */
static void make_ms(unsigned arch)
{
    uint64_t tex = alloc(MALI_TEXTURE_LENGTH), surf = alloc(MALI_SURFACE_WITH_STRIDE_LENGTH * 16);
    struct mali_texture td = { .type = 2, .dimension = 2,
                               .format = arch >= 7 ? MALI_FORMAT_RGBA8_UNORM << 12 : MALI_FORMAT_RGBA8_UNORM << 12 | SWZ_RGBA,
                               .width = 4, .height = 4, .swizzle = SWZ_RGBA, .sample_count_log2 = 2,
                               .texel_ordering = MALI_TEXTURE_LAYOUT_LINEAR, .levels = 2, .surfaces = surf,
                               .array_size = 2, .depth = 1, .maximum_lod = 1 };
    mali_texture_pack(at(tex), &td);
    for (unsigned ly = 0; ly < 2; ly++)
        for (unsigned l = 0; l < 2; l++)
            for (unsigned sm = 0; sm < 4; sm++) {
                unsigned wl = 4 >> l;
                uint64_t data = alloc(wl * wl * 4);
                for (unsigned i = 0; i < wl * wl; i++) {
                    at(data)[4 * i] = (uint8_t)(60 * ly + 120 * l + 16 * sm);
                    at(data)[4 * i + 3] = 255;
                }
                unsigned idx = arch >= 7 ? (ly * 4 + sm) * 2 + l : (ly * 2 + l) * 4 + sm;
                struct mali_surface_with_stride sd = { .pointer = data, .row_stride = (int32_t)(wl * 4) };
                mali_surface_with_stride_pack(at(surf) + MALI_SURFACE_WITH_STRIDE_LENGTH * idx, &sd);
            }
    M.textures = tex;
}

/* texelFetch from a multisampled texture: the sample in the offset / MS-index register's top
 * byte (Mesa's bi_emit_texc_offset_ms_index), on v6 and v7 */
START_TEST(test_multisampled_fetch)
{
    for (unsigned arch = 6; arch <= 7; arch++) {
        reset();
        M.arch_major = arch;
        make_ms(arch);
        /* staging: the level (8.8), the layer, the offsets | sample << 24 */
        uint32_t d = texc(OP_FETCH, 1, 0) | 1u << 15 | 1u << 17;     /* fetch mode 1: texel fetch */
        for (unsigned ly = 0; ly < 2; ly++)
            for (unsigned l = 0; l < 2; l++)
                for (unsigned sm = 0; sm < 4; sm++) {
                    uint32_t sr[3] = { l << 8, ly, sm << 24 }, out[4], n;
                    char why[160] = "";
                    ck_assert_msg(bi_tex_texc_grad(&M, d, 1, 1, sr, 3, NULL, out, &n, why, sizeof why) == 0, "%s", why);
                    ck_assert_msg(bitsf(out[0]) == (float)((60.0 * ly + 120 * l + 16 * sm) / 255),
                                  "arch %u layer %u level %u sample %u: %g", arch, ly, l, sm, bitsf(out[0]));
                }
    }
}
END_TEST

/* Gradient descriptors: GRDESC_DER from explicit derivatives (textureGrad: Mesa passes the
 * descriptor's LOD to an explicit-LOD TEXC) and GRDESC from the quad's (textureQueryLod); the
 * LOD in signed 8.8 in the first register, the sampler's bias and clamp unless bits 15 / 16
 * disable them; a TEXC in gradient-descriptor LOD mode reads both registers. */
static uint32_t grdesc(unsigned op, int bias_off, int clamp_off, unsigned mask)
{
    return 1u << 11 | op << 12 | (unsigned)bias_off << 15 | (unsigned)clamp_off << 16 | 2u << 18 |
           (uint32_t)RF_F32 << 24 | mask << 28;
}

static int16_t grdesc_lod(uint32_t desc, float dxs, float dxt, float dys, float dyt, const bi_tex_grad *quad,
                          unsigned want_n)
{
    uint32_t sr[2] = { fbits(dys), fbits(dyt) }, out[4] = { 0, 0xdead, 0xdead, 0xdead };
    unsigned n = 0;
    char why[160] = "";
    ck_assert_int_eq(bi_tex_staging_count(desc), ((desc >> 12) & 7) == OP_GRDESC_DER ? 2 : 0);
    int rc = bi_tex_texc_grad(&M, desc, fbits(dxs), fbits(dxt), sr, 2, quad, out, &n, why, sizeof why);
    ck_assert_msg(rc == 0, "%s", why);
    ck_assert_uint_eq(n, want_n);
    ck_assert_uint_eq(out[0] >> 16, 0);
    if (n > 1)
        ck_assert_uint_eq(out[1], 0);
    return (int16_t)out[0];
}

START_TEST(test_gradient_desc)
{
    reset();
    make_texture(MALI_FORMAT_RGBA8_UNORM, 64, 64, 4, 4, level_fill);
    make_sampler(0, 0, MALI_MIPMAP_MODE_NEAREST, 0, 16 << 8, 0, 0);
    /* Mesa's textureGrad: bias and clamp off; 4 texels along x: lambda 2; 8 along y: 3 */
    uint32_t der = grdesc(OP_GRDESC_DER, 1, 1, 0xf);
    ck_assert_int_eq(grdesc_lod(der, 4.0f / 64, 0, 0, 0, NULL, 2), 512);
    ck_assert_int_eq(grdesc_lod(der, 4.0f / 64, 0, 0, 8.0f / 64, NULL, 2), 768);
    ck_assert_int_eq(grdesc_lod(der, 3.0f / 64, 0, 0, 0, NULL, 2), 406);
    ck_assert_int_eq(grdesc_lod(der, 0.25f / 64, 0, 0, 0, NULL, 2), -512);
    /* the sampler's bias (+1) and maximum LOD (1.5), each unless disabled */
    make_sampler(0, 0, MALI_MIPMAP_MODE_NEAREST, 0, 384, 256, 0);
    ck_assert_int_eq(grdesc_lod(der, 4.0f / 64, 0, 0, 0, NULL, 2), 512);
    ck_assert_int_eq(grdesc_lod(grdesc(OP_GRDESC_DER, 0, 1, 0xf), 4.0f / 64, 0, 0, 0, NULL, 2), 768);
    ck_assert_int_eq(grdesc_lod(grdesc(OP_GRDESC_DER, 1, 0, 0xf), 4.0f / 64, 0, 0, 0, NULL, 2), 384);
    ck_assert_int_eq(grdesc_lod(grdesc(OP_GRDESC_DER, 0, 0, 0xf), 4.0f / 64, 0, 0, 0, NULL, 2), 384);
    /* textureQueryLod's GRDESC: the quad's derivatives, one register (write mask 1) */
    make_sampler(0, 0, MALI_MIPMAP_MODE_NEAREST, 0, 16 << 8, 0, 0);
    bi_tex_grad g = grad_x(8);
    ck_assert_int_eq(grdesc_lod(grdesc(OP_GRDESC, 0, 0, 1), 0.5f, 0.5f, 0, 0, &g, 1), 768);
    /* textureGrad end to end: the descriptor's LOD as the explicit LOD picks level 2; a TEXC in
     * gradient-descriptor mode reads the same from its two registers */
    uint32_t sr[2] = { (uint32_t)(uint16_t)grdesc_lod(der, 4.0f / 64, 0, 0, 0, NULL, 2), 0 };
    ck_assert(lookup(texc(OP_TEX, LOD_EXPLICIT, 0), 0.3f, 0.3f, NULL, sr, 1) == level_red(2));
    ck_assert_int_eq(bi_tex_staging_count(texc(OP_TEX, LOD_GRDESC, 0)), 2);
    ck_assert(lookup(texc(OP_TEX, LOD_GRDESC, 0), 0.3f, 0.3f, NULL, sr, 2) == level_red(2));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("gpu_tex");
    TCase *c = tcase_create("core");
    tcase_add_test(c, test_lod_from_grad);
    tcase_add_test(c, test_mip_nearest);
    tcase_add_test(c, test_trilinear);
    tcase_add_test(c, test_min_mag_filters);
    tcase_add_test(c, test_shadow);
    tcase_add_test(c, test_formats);
    tcase_add_test(c, test_component_orders);
    tcase_add_test(c, test_st_cvt_packed);
    tcase_add_test(c, test_cube);
    tcase_add_test(c, test_gather);
    tcase_add_test(c, test_cube_seamless);
    tcase_add_test(c, test_multisampled_fetch);
    tcase_add_test(c, test_gradient_desc);
    suite_add_tcase(s, c);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
