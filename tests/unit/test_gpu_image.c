/* Texture and image messages (emu/gpu/bifrost_tex.c) through whole COMPUTE jobs: descriptors
 * (Texture, Surface with stride, Sampler, Attribute, 3D Attribute Buffer) built here in a flat
 * simulated GPU address space and hung off the DCD; shaders tests/gpu/gpu_tex*.s (TEXC, TEXS_2D) and
 * gpu_img_store_*.s (TEXC / LEA_ATTR_TEX + ST_CVT as Mesa emits them), gpu_img_buf.s (Mesa 26's
 * texel buffers: LEA_ATTR_IMM / LEA_ATTR .auto, LD_CVT, ST_CVT).  Expected values are
 * computed here from the OpenCL rules: texel index floor(u) wrapped per addressing mode, UNORM8
 * reads c / 255, writes convert_uchar_sat_rte(f * 255.0f), integer writes saturate.  v6 (pixel
 * format swizzles) and v7 (RGB component orders).  Linear filtering against the OpenCL spec's
 * formulas written out here.  Refusals (trilinear mip filtering, linear on integer textures)
 * and descriptor faults end the job with the right status. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bifrost_exec.h"
#include "bifrost_tex.h"
#include "compute.h"
#include "shaders.inc"

#include "gpu_flat_mem.h"

#define INVALID_ENC 0x51u

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* descriptor tables of a job (0: none) */
typedef struct { uint64_t textures, samplers, attributes, attr_bufs; } tables;

/* Runs `code` over a gw x gh grid (one workgroup per row) with push uniforms u0-u4. */
static uint32_t run(unsigned arch, const uint8_t *code, size_t len, unsigned gw, unsigned gh, const uint64_t push[5],
                    const tables *t, uint64_t *fva)
{
    uint64_t sh = alloc((len + 128 + 4095) & ~(size_t)4095, 4096);
    memcpy(host(sh, len), code, len);
    uint64_t job = alloc(192, 64), rsd = alloc(64, 64), ls = alloc(32, 64), pu = alloc(40, 16);
    unsigned lx = 0, ly = 0;
    while ((1u << lx) < gw)
        lx++;
    while ((1u << ly) < gh)
        ly++;
    w32(job + 16, 1u | (4u << 1) | (1u << 16));
    /* local size gw x 1 x 1, workgroups 1 x gh x 1 */
    w32(job + 32, (gw - 1) | (gh - 1) << lx);
    w32(job + 36, lx | lx << 5 | lx << 10 | lx << 16 | (lx + ly) << 22 | lx << 28);
    w32(job + 64, 3);
    w64(job + 96, t->textures);
    w64(job + 104, t->samplers);
    w64(job + 112, pu);
    w64(job + 120, rsd);
    w64(job + 128, t->attr_bufs);
    w64(job + 136, t->attributes);
    w64(job + 176, ls);
    for (unsigned i = 0; i < 5; i++)
        w64(pu + 8 * i, push[i]);
    w64(rsd, sh);
    w32(rsd + 48, 0x7fc0u | (5u << 15));
    w32(ls + 4, 31);
    gpu_compute *e = gpu_compute_new(2);
    ck_assert_ptr_nonnull(e);
    gpu_compute_job j = { .job_va = job, .type = 4, .as = 0, .arch_major = arch, .core_mask = 0xf,
                          .mem = { .read = flat_read, .write = flat_write, .fetch = flat_read } };
    uint64_t f = 0;
    uint32_t st = gpu_compute_run(e, &j, &f);
    gpu_compute_free(e);
    if (fva)
        *fva = f;
    return st;
}

/* pixel format: Mali format number + identity channel layout (v6 swizzle RGBA / v7 order RGBA),
 * bgra: B and R swapped (v6 swizzle BGRA / v7 order BGRA), r001: one channel (v6 R001 / v7 RGB1) */
enum { L_RGBA, L_BGRA, L_R001 };
static uint32_t pixfmt(unsigned arch, unsigned fmt, int layout)
{
    static const uint32_t v6[] = { 0 | 1 << 3 | 2 << 6 | 3 << 9, 2 | 1 << 3 | 0 << 6 | 3 << 9, 0 | 4 << 3 | 4 << 6 | 5 << 9 };
    static const uint32_t v7[] = { 0, 4, 16 };
    return fmt << 12 | (arch == 6 ? v6[layout] : v7[layout]);
}
#define SWZ_RGBA (0 | 1 << 3 | 2 << 6 | 3 << 9)

/* Texture descriptor at tex (one surface per layer, allocated here). */
static void fill_texture(uint64_t tex, unsigned dim, uint32_t pf, unsigned w, unsigned h, unsigned d, unsigned layers,
                         uint64_t data, uint32_t row, uint32_t slice)
{
    uint64_t surf = alloc(16u * layers, 64);
    w32(tex, 2 | dim << 4 | pf << 10);
    w32(tex + 4, (w - 1) | (h - 1) << 16);
    w32(tex + 8, SWZ_RGBA | 2u << 12);
    w64(tex + 16, surf);
    w32(tex + 24, layers - 1);
    w32(tex + 28, d - 1);
    for (unsigned l = 0; l < layers; l++) {
        w64(surf + 16 * l, data + (uint64_t)l * slice);
        w32(surf + 16 * l + 8, row);
        w32(surf + 16 * l + 12, slice);
    }
}

/* a texture table of one descriptor */
static uint64_t make_texture(unsigned arch, unsigned dim, uint32_t pf, unsigned w, unsigned h, unsigned d, unsigned layers,
                             uint64_t data, uint32_t row, uint32_t slice)
{
    uint64_t tex = alloc(32, 64);
    fill_texture(tex, dim, pf, w, h, d, layers, data, row, slice);
    return tex;
}

enum { WR_REPEAT = 8, WR_EDGE = 9, WR_BORDER = 11, WR_MIRROR = 12 };
static void fill_sampler(uint64_t s, unsigned wrap, int norm, int linear, const uint32_t border[4])
{
    w32(s, 1 | wrap << 8 | wrap << 12 | wrap << 16 | (uint32_t)norm << 25 | 1u << 26 | (linear ? 0u : 3u << 27));
    for (unsigned c = 0; c < 4 && border; c++)
        w32(s + 16 + 4 * c, border[c]);
}

/* a sampler table of one descriptor */
static uint64_t make_sampler(unsigned wrap, int norm, int linear, const uint32_t border[4])
{
    uint64_t s = alloc(32, 64);
    fill_sampler(s, wrap, norm, linear, border);
    return s;
}

/* TEXC descriptor: immediate indices 0, op, dimension, LOD/fetch mode, result format, mask 0xf */
static uint32_t texc(unsigned op, unsigned dim, int array, unsigned lod, unsigned fmt)
{
    return 1u << 11 | op << 12 | (uint32_t)array << 17 | dim << 18 | lod << 20 | fmt << 24 | 0xfu << 28;
}
#define OP_FETCH 6
#define OP_TEX 7
#define LOD_ZERO 6
#define FETCH_TEXEL 1
#define RF_F16 0
#define RF_F32 4
#define RF_U32 14

/* the OpenCL nearest texel index for texel coordinate u along n texels (-1: border) */
static long cl_texel(double u, long n, unsigned wrap)
{
    long i = (long)floor(u);
    switch (wrap) {
    case WR_REPEAT: return ((i % n) + n) % n;
    case WR_MIRROR: {
        long p = ((i % (2 * n)) + 2 * n) % (2 * n);
        return p < n ? p : 2 * n - 1 - p;
    }
    case WR_BORDER: return i < 0 || i >= n ? -1 : i;
    default: return i < 0 ? 0 : i >= n ? n - 1 : i;
    }
}

static uint64_t pack(uint32_t lo, uint32_t hi) { return lo | (uint64_t)hi << 32; }

/* integer fetch of a 2D RGBA8UI texture: every texel comes back zero-extended */
static void check_fetch(unsigned arch)
{
    flat_reset();
    const unsigned W = 13, H = 5;
    uint64_t data = alloc(W * H * 4, 64), out = alloc(W * H * 16, 64);
    for (unsigned i = 0; i < W * H * 4; i++)
        host(data, W * H * 4)[i] = (uint8_t)(i * 37 + 11);
    tables t = { .textures = make_texture(arch, 2, pixfmt(arch, 155, L_RGBA), W, H, 1, 1, data, W * 4, 0) };
    uint64_t push[5] = { out, 0, pack(texc(OP_FETCH, 2, 0, FETCH_TEXEL, RF_U32), W), 0, 0 };
    ck_assert_uint_eq(run(arch, bi_shader_gpu_tex_fetch, sizeof(bi_shader_gpu_tex_fetch), W, H, push, &t, NULL), 1);
    for (unsigned i = 0; i < W * H * 4; i++) {
        uint32_t got;
        memcpy(&got, host(out + 4 * i, 4), 4);
        ck_assert_msg(got == host(data, W * H * 4)[i], "arch %u channel %u: %u", arch, i, got);
    }
}
START_TEST(test_fetch) { check_fetch(6); check_fetch(7); }
END_TEST

/* the same fetch from a 16x16 U-interleaved texture (texel ordering 1): texel (x, y) stored in tile
 * (x / 16, y / 16), a row of tiles `row` bytes, at the index whose bits 7..0 are y3 (x3^y3) y2
 * (x2^y2) y1 (x1^y1) y0 (x0^y0) (Mesa's pan_tiling.c), placed here bit by bit */
static void check_fetch_tiled(unsigned arch)
{
    flat_reset();
    const unsigned W = 37, H = 21, TW = 3, TH = 2, row = TW * 256 * 4;
    uint64_t data = alloc(row * TH, 64), out = alloc(W * H * 16, 64);
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < W; x++) {
            unsigned idx = 0;
            for (unsigned b = 0; b < 4; b++)
                idx |= ((x >> b & 1) ^ (y >> b & 1)) << (2 * b) | (y >> b & 1) << (2 * b + 1);
            uint64_t a = data + (uint64_t)(y / 16) * row + ((x / 16) * 256 + idx) * 4;
            for (unsigned c = 0; c < 4; c++)
                host(a + c, 1)[0] = (uint8_t)((y * W + x) * 4 + c);
        }
    tables t = { .textures = make_texture(arch, 2, pixfmt(arch, 155, L_RGBA), W, H, 1, 1, data, row, 0) };
    w32(t.textures + 8, SWZ_RGBA | 1u << 12);
    uint64_t push[5] = { out, 0, pack(texc(OP_FETCH, 2, 0, FETCH_TEXEL, RF_U32), W), 0, 0 };
    ck_assert_uint_eq(run(arch, bi_shader_gpu_tex_fetch, sizeof(bi_shader_gpu_tex_fetch), W, H, push, &t, NULL), 1);
    for (unsigned i = 0; i < W * H * 4; i++) {
        uint32_t got;
        memcpy(&got, host(out + 4 * i, 4), 4);
        ck_assert_msg(got == (uint8_t)i, "arch %u tiled channel %u: %u", arch, i, got);
    }
}
START_TEST(test_fetch_tiled) { check_fetch_tiled(6); check_fetch_tiled(7); }
END_TEST

/* nearest sampling of an RGBA32F texture on a grid reaching beyond every edge, every wrap mode,
 * normalized and unnormalized coordinates */
static void check_sample(unsigned arch, unsigned wrap, int norm)
{
    flat_reset();
    const unsigned W = 7, H = 5, GW = 3 * W, GH = 3 * H;
    uint64_t data = alloc(W * H * 16, 64), out = alloc(GW * GH * 16, 64);
    float *px = (float *)host(data, W * H * 16);
    for (unsigned i = 0; i < W * H * 4; i++)
        px[i] = (float)i * 0.25f - 3.0f;
    const uint32_t border[4] = { fbits(9.0f), fbits(-9.0f), fbits(0.5f), fbits(2.0f) };
    tables t = { .textures = make_texture(arch, 2, pixfmt(arch, 191, L_RGBA), W, H, 1, 1, data, W * 16, 0),
                 .samplers = make_sampler(wrap, norm, 0, border) };
    /* coordinate gid * scale + off (exact in float): unnormalized u = gid - 6.5 texels, normalized
     * s = (gid - 6.5) / 8 (u = s * size): never on a texel boundary, reaching past both edges */
    float scale = norm ? 1.0f / 8.0f : 1.0f, off = norm ? (-(float)W + 0.5f) / 8.0f : -(float)W + 0.5f;
    uint64_t push[5] = { out, pack(fbits(scale), fbits(off)), pack(texc(OP_TEX, 2, 0, LOD_ZERO, RF_F32), GW), 0, 0 };
    ck_assert_uint_eq(run(arch, bi_shader_gpu_tex, sizeof(bi_shader_gpu_tex), GW, GH, push, &t, NULL), 1);
    for (unsigned y = 0; y < GH; y++)
        for (unsigned x = 0; x < GW; x++) {
            double ux = ((double)x * scale + off) * (norm ? W : 1), uy = ((double)y * scale + off) * (norm ? H : 1);
            long tx = cl_texel(ux, W, wrap), ty = cl_texel(uy, H, wrap);
            for (unsigned c = 0; c < 4; c++) {
                float want = tx < 0 || ty < 0 ? bitsf(border[c]) : px[(ty * W + tx) * 4 + c], got;
                memcpy(&got, host(out + ((uint64_t)y * GW + x) * 16 + 4 * c, 4), 4);
                ck_assert_msg(got == want, "arch %u wrap %u norm %d (%u,%u).%u: %g, want %g", arch, wrap, norm, x, y, c,
                              got, want);
            }
        }
}
START_TEST(test_sample_wrap)
{
    static const unsigned modes[] = { WR_REPEAT, WR_EDGE, WR_BORDER, WR_MIRROR };
    for (unsigned a = 6; a <= 7; a++)
        for (unsigned m = 0; m < 4; m++) {
            check_sample(a, modes[m], 1);
            if (modes[m] == WR_EDGE || modes[m] == WR_BORDER)
                check_sample(a, modes[m], 0);
        }
}
END_TEST

/* OpenCL's linear filtering along one axis, written out from the spec ("Addressing and filter
 * modes"): texel coordinate s -> the two texels i[0], i[1] (-1: border colour) and the weight a of
 * i[1].  Repeat and mirrored repeat take the spec's own formulas on s (the emulator wraps texel
 * indices instead); a is quantised to 8 bits (the emulator's sub-texel precision) only where
 * the test asks for it (quant), the grids below use exact multiples of 1/256. */
static void cl_linear(double s, long n, int norm, unsigned wrap, int quant, long i[2], double *a)
{
    double u = norm ? s * n : s;
    if (wrap == WR_REPEAT)
        u = (s - floor(s)) * n;
    else if (wrap == WR_MIRROR)
        u = fabs(s - 2 * rint(0.5 * s)) * n;
    double t = u - 0.5;
    if (quant)
        t = floor(t * 256 + 0.5) / 256;
    long i0 = (long)floor(t), i1 = i0 + 1;
    *a = t - floor(t);
    switch (wrap) {
    case WR_REPEAT:
        i0 = i0 < 0 ? n + i0 : i0;
        i1 = i1 > n - 1 ? i1 - n : i1;
        break;
    case WR_MIRROR:
        i0 = i0 < 0 ? 0 : i0;
        i1 = i1 > n - 1 ? n - 1 : i1;
        break;
    case WR_BORDER:
        i0 = i0 < 0 || i0 >= n ? -1 : i0;
        i1 = i1 < 0 || i1 >= n ? -1 : i1;
        break;
    default:
        i0 = i0 < 0 ? 0 : i0 > n - 1 ? n - 1 : i0;
        i1 = i1 < 0 ? 0 : i1 > n - 1 ? n - 1 : i1;
    }
    i[0] = i0;
    i[1] = i1;
}

/* The spec's bilinear / trilinear sum for channel c of an RGBA32F texture px (w x h x d):
 * sum over the 2^dim corners of prod(a or 1 - a) x texel (border colour outside). */
static double cl_filter(const float *px, const long n[3], unsigned dim, const long ix[3][2], const double a[3],
                        const uint32_t border[4], unsigned c)
{
    double sum = 0;
    for (unsigned k = 0; k < 1u << dim; k++) {
        double w = 1;
        long at[3] = { 0, 0, 0 };
        int out = 0;
        for (unsigned d = 0; d < dim; d++) {
            unsigned hi = (k >> d) & 1;
            w *= hi ? a[d] : 1 - a[d];
            at[d] = ix[d][hi];
            out |= at[d] < 0;
        }
        double v = out ? bitsf(border[c]) : px[((at[2] * n[1] + at[1]) * n[0] + at[0]) * 4 + c];
        sum += w * v;
    }
    return sum;
}

/* Linear filtering of an RGBA32F texture (1D, 2D, 3D at a few depths) on a grid reaching past
 * every edge, with the given wrap mode and coordinates: compared with the spec's formula.  Texel
 * values (multiples of 1/4) and fractions (multiples of 1/8) make every sum exact, so the
 * results must be equal. */
static void check_linear(unsigned arch, unsigned dim, unsigned wrap, int norm)
{
    flat_reset();
    const unsigned W = 8, H = dim >= 2 ? 4 : 1, D = dim == 3 ? 4 : 1, GW = 4 * W, GH = dim >= 2 ? 4 * W : 1;
    const long n[3] = { W, H, D };
    uint64_t data = alloc(W * H * D * 16, 64), out = alloc(GW * GH * 16, 64);
    float *px = (float *)host(data, W * H * D * 16);
    for (unsigned i = 0; i < W * H * D * 4; i++)
        px[i] = (float)((i * 7) % 61) * 0.25f - 3.0f;
    const uint32_t border[4] = { fbits(9.0f), fbits(-9.0f), fbits(0.5f), fbits(2.0f) };
    tables t = { .textures = make_texture(arch, dim, pixfmt(arch, 191, L_RGBA), W, H, D, 1, data, W * 16, W * H * 16),
                 .samplers = make_sampler(wrap, norm, 1, border) };
    /* texel coordinate u = gid * 3/4 - W + 1/8 (from -W to about 2W): every fraction of 1/8 */
    const double uscale = 0.75, uoff = -(double)W + 0.125;
    static const double zs[] = { 1.25, 0.375, 3.875, -0.5 };
    for (unsigned zi = 0; zi < (dim == 3 ? 4u : 1u); zi++) {
        double zu = zs[zi];
        float sx = (float)(norm ? uscale / W : uscale), ox = (float)(norm ? uoff / W : uoff);
        /* the shader scales x and y alike: y's coordinate is x's formula (normalized: by W) */
        float z = (float)(norm ? zu / D : zu);
        uint64_t push[5] = { out, pack(fbits(sx), fbits(ox)), pack(texc(OP_TEX, dim, 0, LOD_ZERO, RF_F32), GW),
                             pack(fbits(z), 0), 0 };
        ck_assert_uint_eq(run(arch, bi_shader_gpu_tex, sizeof(bi_shader_gpu_tex), GW, GH, push, &t, NULL), 1);
        for (unsigned y = 0; y < GH; y++)
            for (unsigned x = 0; x < GW; x++) {
                double cx = (double)x * sx + ox, cy = (double)y * sx + ox, cz = z;
                long ix[3][2] = { { 0, 0 }, { 0, 0 }, { 0, 0 } };
                double a[3] = { 0, 0, 0 };
                cl_linear(cx, W, norm, wrap, 0, ix[0], &a[0]);
                if (dim >= 2)
                    cl_linear(cy, H, norm, wrap, 0, ix[1], &a[1]);
                if (dim == 3)
                    cl_linear(cz, D, norm, wrap, 0, ix[2], &a[2]);
                for (unsigned c = 0; c < 4; c++) {
                    float want = (float)cl_filter(px, n, dim, ix, a, border, c), got;
                    memcpy(&got, host(out + ((uint64_t)y * GW + x) * 16 + 4 * c, 4), 4);
                    ck_assert_msg(got == want, "arch %u %uD wrap %u norm %d z %g (%u,%u).%u: %g, want %g", arch, dim,
                                  wrap, norm, zu, x, y, c, got, want);
                }
            }
    }
}

START_TEST(test_linear_wrap)
{
    static const unsigned modes[] = { WR_REPEAT, WR_EDGE, WR_BORDER, WR_MIRROR };
    for (unsigned a = 6; a <= 7; a++)
        for (unsigned dim = 1; dim <= 3; dim++)
            for (unsigned m = 0; m < 4; m++) {
                check_linear(a, dim, modes[m], 1);
                if (modes[m] == WR_EDGE || modes[m] == WR_BORDER)
                    check_linear(a, dim, modes[m], 0);
            }
}
END_TEST

/* Hand-checked points of a 1D R32F row 0, 256, 512, ... (texel i = 256 i), unnormalized, clamp
 * to edge: the midpoint of two texels is their mean, a quarter point 1/4 of the way, the edges
 * clamp; a fraction off the 1/256 grid (0.3) comes back quantised to 8 bits (77/256); a 2D
 * RGBA8 UNORM midpoint is the mean of c/255 values; a 2D array reads its layer. */
START_TEST(test_linear_points)
{
    for (unsigned arch = 6; arch <= 7; arch++) {
        flat_reset();
        const unsigned W = 8;
        uint64_t data = alloc(W * W * 4 * 4, 64), out = alloc(W * W * 16, 64);
        float *rf = (float *)host(data, W * 4);
        for (unsigned i = 0; i < W; i++)
            rf[i] = 256.0f * (float)i;
        tables t = { .textures = make_texture(arch, 1, pixfmt(arch, 167, L_R001), W, 1, 1, 1, data, W * 4, 0),
                     .samplers = make_sampler(WR_EDGE, 0, 1, NULL) };
        /* u = x + off for the 8 lanes */
        static const struct { float off; float want[8]; } cases[] = {
            { 0.5f, { 0, 256, 512, 768, 1024, 1280, 1536, 1792 } },            /* texel centres */
            { 1.0f, { 128, 384, 640, 896, 1152, 1408, 1664, 1792 } },          /* midpoints: means */
            { 0.75f, { 64, 320, 576, 832, 1088, 1344, 1600, 1792 } },          /* quarter points */
            { 0.8f, { 77, 333, 589, 845, 1101, 1357, 1613, 1792 } },           /* 0.3: 77/256 */
            { -3.0f, { 0, 0, 0, 0, 128, 384, 640, 896 } },                     /* left edge clamps */
        };
        for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
            uint64_t push[5] = { out, pack(fbits(1.0f), fbits(cases[k].off)), pack(texc(OP_TEX, 1, 0, LOD_ZERO, RF_F32), W),
                                 0, 0 };
            ck_assert_uint_eq(run(arch, bi_shader_gpu_tex, sizeof(bi_shader_gpu_tex), W, 1, push, &t, NULL), 1);
            for (unsigned x = 0; x < W; x++) {
                float got[4];
                memcpy(got, host(out + 16 * x, 16), 16);
                ck_assert_msg(got[0] == cases[k].want[x] && got[1] == 0 && got[2] == 0 && got[3] == 1,
                              "arch %u off %g lane %u: (%g %g %g %g), want %g", arch, cases[k].off, x, got[0], got[1],
                              got[2], got[3], cases[k].want[x]);
            }
        }
        /* RGBA8 UNORM 2D array, layer 1: the point between four texels is their mean */
        uint8_t *p8 = host(data, W * W * 4 * 2);
        for (unsigned i = 0; i < W * W * 4 * 2; i++)
            p8[i] = (uint8_t)(i * 29 + 3);
        t.textures = make_texture(arch, 2, pixfmt(arch, 187, L_RGBA), W, W, 1, 2, data, W * 4, W * W * 4);
        uint64_t push[5] = { out, pack(fbits(1.0f), fbits(1.0f)), pack(texc(OP_TEX, 2, 1, LOD_ZERO, RF_F32), W),
                             1, 0 };
        ck_assert_uint_eq(run(arch, bi_shader_gpu_tex, sizeof(bi_shader_gpu_tex), W, W, push, &t, NULL), 1);
        for (unsigned y = 0; y + 1 < W; y++)
            for (unsigned x = 0; x + 1 < W; x++)
                for (unsigned c = 0; c < 4; c++) {
                    const uint8_t *l1 = p8 + W * W * 4;
                    double want = ((double)l1[(y * W + x) * 4 + c] + l1[(y * W + x + 1) * 4 + c] +
                                   l1[((y + 1) * W + x) * 4 + c] + l1[((y + 1) * W + x + 1) * 4 + c]) / (4 * 255.0);
                    float got;
                    memcpy(&got, host(out + ((uint64_t)y * W + x) * 16 + 4 * c, 4), 4);
                    ck_assert_msg(fabs(got - want) <= 0x1p-24 * 2, "arch %u UNORM8 (%u,%u).%u: %a, want %a", arch, x, y,
                                  c, got, want);
                }
    }
}
END_TEST

/* TEXS_2D.f32 with immediate texture 1 / sampler 2: the right table entries, nearest, clamp to edge */
START_TEST(test_texs)
{
    for (unsigned arch = 6; arch <= 7; arch++) {
        flat_reset();
        const unsigned W = 6, H = 4, GW = W + 4, GH = H + 4;
        uint64_t data = alloc(W * H * 16, 64), out = alloc(GW * GH * 16, 64);
        float *px = (float *)host(data, W * H * 16);
        for (unsigned i = 0; i < W * H * 4; i++)
            px[i] = (float)i + 0.5f;
        /* entries 0 (1x1) and 1; samplers 0 and 1 linear, repeat, normalized (other values if used), 2 nearest */
        uint64_t texs = alloc(64, 64), smps = alloc(96, 64);
        fill_texture(texs, 2, pixfmt(arch, 191, L_RGBA), 1, 1, 1, 1, data, 16, 0);
        fill_texture(texs + 32, 2, pixfmt(arch, 191, L_RGBA), W, H, 1, 1, data, W * 16, 0);
        fill_sampler(smps, WR_REPEAT, 1, 1, NULL);
        fill_sampler(smps + 32, WR_REPEAT, 1, 1, NULL);
        fill_sampler(smps + 64, WR_EDGE, 0, 0, NULL);
        tables t = { .textures = texs, .samplers = smps };
        uint64_t push[5] = { out, pack(fbits(1.0f), fbits(-1.5f)), pack(0, GW), 0, 0 };
        ck_assert_uint_eq(run(arch, bi_shader_gpu_texs, sizeof(bi_shader_gpu_texs), GW, GH, push, &t, NULL), 1);
        for (unsigned y = 0; y < GH; y++)
            for (unsigned x = 0; x < GW; x++) {
                long tx = cl_texel((double)x - 1.5, W, WR_EDGE), ty = cl_texel((double)y - 1.5, H, WR_EDGE);
                for (unsigned c = 0; c < 4; c++) {
                    float got;
                    memcpy(&got, host(out + ((uint64_t)y * GW + x) * 16 + 4 * c, 4), 4);
                    ck_assert_msg(got == px[(ty * W + tx) * 4 + c], "arch %u TEXS (%u,%u).%u: %g", arch, x, y, c, got);
                }
            }
    }
}
END_TEST

/* BGRA UNORM8 as f32 (c / 255, correctly rounded) and as f16; R32F with one channel and its
 * border colour (0, 0, 0, 1) */
static void check_formats(unsigned arch)
{
    flat_reset();
    const unsigned W = 16, H = 16;
    uint64_t data = alloc(W * H * 4, 64), out = alloc(W * H * 16, 64);
    uint8_t *px = host(data, W * H * 4);
    for (unsigned i = 0; i < W * H * 4; i++)
        px[i] = (uint8_t)i;
    tables t = { .textures = make_texture(arch, 2, pixfmt(arch, 187, L_BGRA), W, H, 1, 1, data, W * 4, 0) };
    uint64_t push[5] = { out, 0, pack(texc(OP_FETCH, 2, 0, FETCH_TEXEL, RF_F32), W), 0, 0 };
    ck_assert_uint_eq(run(arch, bi_shader_gpu_tex_fetch, sizeof(bi_shader_gpu_tex_fetch), W, H, push, &t, NULL), 1);
    for (unsigned i = 0; i < W * H; i++)
        for (unsigned c = 0; c < 4; c++) {
            float got, want = (float)px[i * 4 + (c == 3 ? 3 : 2 - c)] / 255.0f;
            memcpy(&got, host(out + 16 * i + 4 * c, 4), 4);
            ck_assert_msg(got == want, "arch %u texel %u.%u: %a, want %a", arch, i, c, got, want);
        }
    /* f16 results: two registers, channels packed low half first */
    push[2] = pack(texc(OP_FETCH, 2, 0, FETCH_TEXEL, RF_F16), W);
    ck_assert_uint_eq(run(arch, bi_shader_gpu_tex_fetch, sizeof(bi_shader_gpu_tex_fetch), W, H, push, &t, NULL), 1);
    for (unsigned i = 0; i < W * H; i++)
        for (unsigned c = 0; c < 4; c++) {
            uint16_t got;
            memcpy(&got, host(out + 16 * i + 2 * c, 2), 2);
            float want = (float)px[i * 4 + (c == 3 ? 3 : 2 - c)] / 255.0f;
            ck_assert_msg(fabsf(bitsf(bi_f16_to_f32(got)) - want) <= 0x1p-12f && bi_f32_to_f16(fbits(want), 0) == got,
                          "arch %u texel %u.%u: f16 %#x", arch, i, c, got);
        }
    /* R32F, clamp to border with a zero border colour: inside (r, 0, 0, 1), outside (0, 0, 0, 1) */
    float *rf = (float *)host(data, W * H * 4);
    for (unsigned i = 0; i < W * H; i++)
        rf[i] = (float)i - 100.0f;
    t.textures = make_texture(arch, 2, pixfmt(arch, 167, L_R001), W, H, 1, 1, data, W * 4, 0);
    t.samplers = make_sampler(WR_BORDER, 0, 0, NULL);
    push[1] = pack(fbits(1.0f), fbits(-1.5f));      /* texel -2 .. W - 3 */
    push[2] = pack(texc(OP_TEX, 2, 0, LOD_ZERO, RF_F32), W);
    ck_assert_uint_eq(run(arch, bi_shader_gpu_tex, sizeof(bi_shader_gpu_tex), W, H, push, &t, NULL), 1);
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < W; x++) {
            long tx = (long)x - 2, ty = (long)y - 2;
            int in = tx >= 0 && ty >= 0;
            float want[4] = { in ? rf[ty * W + tx] : 0.0f, 0.0f, 0.0f, 1.0f }, got[4];
            memcpy(got, host(out + ((uint64_t)y * W + x) * 16, 16), 16);
            for (unsigned c = 0; c < 4; c++)
                ck_assert_msg(got[c] == want[c], "arch %u R32F (%u,%u).%u: %g, want %g", arch, x, y, c, got[c], want[c]);
        }
}
START_TEST(test_formats) { check_formats(6); check_formats(7); }
END_TEST

/* 3D: z from the first staging register (float); 2D array: layer from a staging register after
 * the fetch LOD (Mesa's staging order), out-of-range layers clamp */
static void check_3d_array(unsigned arch)
{
    flat_reset();
    const unsigned W = 4, H = 3, D = 5;
    uint64_t data = alloc(W * H * D * 4, 64), out = alloc(W * H * 16, 64);
    for (unsigned i = 0; i < W * H * D * 4; i++)
        host(data, W * H * D * 4)[i] = (uint8_t)(i ^ 0x5a);
    const uint8_t *px = host(data, W * H * D * 4);
    tables t = { .textures = make_texture(arch, 3, pixfmt(arch, 155, L_RGBA), W, H, D, 1, data, W * 4, W * H * 4),
                 .samplers = make_sampler(WR_EDGE, 0, 0, NULL) };
    for (unsigned z = 0; z < D; z++) {
        uint64_t push[5] = { out, pack(fbits(1.0f), fbits(0.5f)), pack(texc(OP_TEX, 3, 0, LOD_ZERO, RF_U32), W),
                             fbits((float)z + 0.5f), 0 };
        ck_assert_uint_eq(run(arch, bi_shader_gpu_tex, sizeof(bi_shader_gpu_tex), W, H, push, &t, NULL), 1);
        for (unsigned i = 0; i < W * H * 4; i++) {
            uint32_t got;
            memcpy(&got, host(out + 4 * i, 4), 4);
            ck_assert_msg(got == px[z * W * H * 4 + i], "arch %u 3D z %u channel %u: %u", arch, z, i, got);
        }
    }
    t.textures = make_texture(arch, 2, pixfmt(arch, 155, L_RGBA), W, H, 1, D, data, W * 4, W * H * 4);
    for (unsigned l = 0; l < D + 2; l++) {
        uint64_t push[5] = { out, 0, pack(texc(OP_FETCH, 2, 1, FETCH_TEXEL, RF_U32), W), pack(0, l), 0 };
        ck_assert_uint_eq(run(arch, bi_shader_gpu_tex_fetch, sizeof(bi_shader_gpu_tex_fetch), W, H, push, &t, NULL), 1);
        unsigned lw = l < D ? l : D - 1;
        for (unsigned i = 0; i < W * H * 4; i++) {
            uint32_t got;
            memcpy(&got, host(out + 4 * i, 4), 4);
            ck_assert_msg(got == px[lw * W * H * 4 + i], "arch %u layer %u channel %u: %u", arch, l, i, got);
        }
    }
}
START_TEST(test_3d_array) { check_3d_array(6); check_3d_array(7); }
END_TEST

/* OpenCL's float -> UNORM8: convert_uchar_sat_rte(f * 255.0f) */
static uint8_t unorm8(float f)
{
    volatile float v = f * 255.0f;
    if (!(v > 0.0f))
        return 0;
    if (v >= 255.0f)
        return 255;
    float r = floorf(v), d = v - r;
    return (uint8_t)(d > 0.5f || (d == 0.5f && fmodf(r, 2.0f) != 0.0f) ? r + 1.0f : r);
}

/* image stores through a 3D attribute buffer: f32 -> RGBA8 UNORM / BGRA8 UNORM, u32 -> R8UI
 * (saturating) at slice z */
static void check_store(unsigned arch, int bgra)
{
    flat_reset();
    const unsigned W = 16, H = 8, D = 3, Z = 2;
    uint64_t img = alloc(W * H * D * 4, 64), in = alloc(W * H * 16, 64);
    uint64_t attr = alloc(8, 64), buf = alloc(32, 64);
    float *v = (float *)host(in, W * H * 16);
    for (unsigned i = 0; i < W * H * 4; i++)      /* [-0.25, 1.25] in 1/1024 steps (exact ties), NaN */
        v[i] = i == 5 ? NAN : (float)((int)((i * 97u) % 1537u) - 256) / 1024.0f;
    w32(attr, 0 | 1u << 9 | pixfmt(arch, 187, bgra ? L_BGRA : L_RGBA) << 10);
    w32(attr + 4, 0);
    w64(buf, img | 5);
    w32(buf + 8, 4);
    w32(buf + 12, W * H * D * 4);
    w32(buf + 16, 32 | (W - 1) << 16);
    w32(buf + 20, (H - 1) | (D - 1) << 16);
    w32(buf + 24, W * 4);
    w32(buf + 28, W * H * 4);
    tables t = { .attributes = attr, .attr_bufs = buf };
    uint64_t push[5] = { in, 0, W, pack(Z, 0), 0 };
    ck_assert_uint_eq(run(arch, bi_shader_gpu_img_store_f32, sizeof(bi_shader_gpu_img_store_f32), W, H, push, &t, NULL), 1);
    const uint8_t *px = host(img, W * H * D * 4);
    for (unsigned i = 0; i < W * H * D * 4; i++) {
        unsigned z = i / (W * H * 4), k = i % (W * H * 4), c = k % 4;
        uint8_t want = z != Z ? 0 : unorm8(v[k - c + (bgra && c != 3 ? 2 - c : c)]);
        ck_assert_msg(px[i] == want, "arch %u bgra %d byte %u: %u, want %u", arch, bgra, i, px[i], want);
    }
    /* u32 -> R8UI: channel 0 only, saturating at 255 */
    uint32_t *u = (uint32_t *)v;
    for (unsigned i = 0; i < W * H * 4; i++)
        u[i] = i * 3u + (i & 8 ? 0xfff0u : 0);
    memset(host(img, W * H * D * 4), 0, W * H * D * 4);
    w32(attr, 0 | 1u << 9 | pixfmt(arch, 131, L_R001) << 10);
    w32(buf + 8, 1);
    w32(buf + 24, W);
    w32(buf + 28, W * H);
    ck_assert_uint_eq(run(arch, bi_shader_gpu_img_store_u32, sizeof(bi_shader_gpu_img_store_u32), W, H, push, &t, NULL), 1);
    for (unsigned i = 0; i < W * H * D; i++) {
        unsigned z = i / (W * H), k = i % (W * H);
        uint8_t want = z != Z ? 0 : (uint8_t)(u[4 * k] > 255 ? 255 : u[4 * k]);
        ck_assert_msg(px[i] == want, "arch %u R8UI texel %u: %u, want %u", arch, i, px[i], want);
    }
}
START_TEST(test_store) { check_store(6, 0); check_store(6, 1); check_store(7, 0); check_store(7, 1); }
END_TEST

/* Byte offset of texel (x, y) of a U-interleaved layer `row` bytes per row of 16x16 tiles, bpp
 * bytes a texel: tile by tile along the row, inside a tile y3 x3^y3 y2 x2^y2 ... (bit 7 .. 0). */
static uint64_t uorder(unsigned x, unsigned y, uint64_t row, unsigned bpp)
{
    unsigned idx = 0;
    for (unsigned b = 0; b < 4; b++)
        idx |= ((x >> b & 1) ^ (y >> b & 1)) << (2 * b) | (y >> b & 1) << (2 * b + 1);
    return (uint64_t)(y / 16) * row + ((x / 16) * 256 + idx) * (uint64_t)bpp;
}

/* Images stored U-interleaved (attribute buffer type 6, 3D Interleaved: panfrost's images on
 * tiled resources): loads with LD_ATTR_TEX (Mesa's image loads) and stores with LEA_ATTR_TEX +
 * ST_CVT address texel (x, y) of layer z through the continuation record's row stride (a row of
 * tiles) and slice stride, RGBA8UI, a size that is no multiple of the tile. */
static void check_image_tiled(unsigned arch)
{
    flat_reset();
    const unsigned W = 37, H = 21, D = 3, Z = 1, TW = 3, TH = 2;
    const uint64_t row = TW * 256 * 4, slice = row * TH;
    uint64_t img = alloc(slice * D, 64), out = alloc(W * H * 16, 64), attr = alloc(8, 64), buf = alloc(32, 64);
    uint8_t *px = host(img, slice * D);
    for (unsigned i = 0; i < slice * D; i++)
        px[i] = (uint8_t)(i * 7 + 3);
    w32(attr, 0 | 1u << 9 | pixfmt(arch, 155, L_RGBA) << 10);
    w32(attr + 4, 0);
    w64(buf, img | 6);
    w32(buf + 8, 4);
    w32(buf + 12, (uint32_t)(slice * D));
    w32(buf + 16, 32 | (W - 1) << 16);
    w32(buf + 20, (H - 1) | (D - 1) << 16);
    w32(buf + 24, (uint32_t)row);
    w32(buf + 28, (uint32_t)slice);
    tables t = { .attributes = attr, .attr_bufs = buf };
    uint64_t push[5] = { out, 0, W, pack(Z, 0), 0 };
    ck_assert_uint_eq(run(arch, bi_shader_gpu_img_load, sizeof(bi_shader_gpu_img_load), W, H, push, &t, NULL), 1);
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < W; x++)
            for (unsigned c = 0; c < 4; c++) {
                uint32_t got;
                memcpy(&got, host(out + (y * W + x) * 16 + 4 * c, 4), 4);
                uint8_t want = px[Z * slice + uorder(x, y, row, 4) + c];
                ck_assert_msg(got == want, "arch %u load (%u, %u, %u) channel %u: %u, want %u", arch, x, y, Z, c, got,
                              want);
            }
    /* stores: u32 -> RGBA8UI (saturating) at the same places, the other layers untouched */
    uint64_t in = alloc(W * H * 16, 64);
    uint32_t *u = (uint32_t *)host(in, W * H * 16);
    for (unsigned i = 0; i < W * H * 4; i++)
        u[i] = i * 5u + (i & 16 ? 0x1f0u : 0);
    memset(px, 0xee, slice * D);
    push[0] = in;
    ck_assert_uint_eq(run(arch, bi_shader_gpu_img_store_u32, sizeof(bi_shader_gpu_img_store_u32), W, H, push, &t, NULL),
                      1);
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < W; x++)
            for (unsigned c = 0; c < 4; c++) {
                uint32_t v = u[(y * W + x) * 4 + c];
                uint8_t want = v > 255 ? 255 : (uint8_t)v, got = px[Z * slice + uorder(x, y, row, 4) + c];
                ck_assert_msg(got == want, "arch %u store (%u, %u) channel %u: %u, want %u", arch, x, y, c, got, want);
                px[Z * slice + uorder(x, y, row, 4) + c] = 0xee;
            }
    for (unsigned i = 0; i < slice * D; i++)
        ck_assert_msg(px[i] == 0xee, "arch %u byte %u written (%u)", arch, i, px[i]);
}
START_TEST(test_image_tiled) { check_image_tiled(6); check_image_tiled(7); }
END_TEST

/* Texel buffers as Mesa 26 reads and writes them (LEA_ATTR_IMM.auto / LEA_ATTR.auto, LD_CVT,
 * ST_CVT through 1D attribute buffers): element gid.x of attribute 0 (format src) copied to
 * attribute 1 (format dst); .auto takes the register format of each pixel format. */
static void texel_copy(unsigned arch, unsigned src, unsigned dst, unsigned src_bytes, unsigned dst_bytes,
                       const void *in, void *out, unsigned n)
{
    flat_reset();
    uint64_t a = alloc(n * src_bytes, 64), b = alloc(n * dst_bytes, 64), attr = alloc(16, 64), buf = alloc(32, 64);
    memcpy(host(a, n * src_bytes), in, n * src_bytes);
    w32(attr, 0 | pixfmt(arch, src, L_RGBA) << 10);
    w32(attr + 8, 1 | pixfmt(arch, dst, L_RGBA) << 10);
    w64(buf, a | 1);                                  /* type 1D */
    w32(buf + 8, src_bytes);
    w32(buf + 12, n * src_bytes);
    w64(buf + 16, b | 1);
    w32(buf + 24, dst_bytes);
    w32(buf + 28, n * dst_bytes);
    tables t = { .attributes = attr, .attr_bufs = buf };
    uint64_t push[5] = { 1, 0, 0, 0, 0 };
    ck_assert_uint_eq(run(arch, bi_shader_gpu_img_buf, sizeof(bi_shader_gpu_img_buf), n, 1, push, &t, NULL), 1);
    memcpy(out, host(b, n * dst_bytes), n * dst_bytes);
}

static void check_texel_buffer(unsigned arch)
{
    enum { N = 32 };
    uint8_t u8[N * 4];
    for (unsigned i = 0; i < N * 4; i++)
        u8[i] = (uint8_t)(i * 73u + 11u);
    /* RGBA8UI -> RGBA16UI: u32 registers */
    uint16_t u16[N * 4];
    texel_copy(arch, 155, 156, 4, 8, u8, u16, N);
    for (unsigned i = 0; i < N * 4; i++)
        ck_assert_msg(u16[i] == u8[i], "arch %u RGBA16UI %u: %u, want %u", arch, i, u16[i], u8[i]);
    /* RGBA8 UNORM -> RGBA32F: f32 registers holding c / 255 */
    float f[N * 4];
    texel_copy(arch, 187, 191, 4, 16, u8, f, N);
    for (unsigned i = 0; i < N * 4; i++)
        ck_assert_msg(fbits(f[i]) == fbits((float)u8[i] / 255.0f), "arch %u RGBA32F %u: %a, want %a", arch, i,
                      (double)f[i], (double)((float)u8[i] / 255.0f));
    /* R32I -> RGBA32I: the channels R32I lacks load as 0, 0, 1 */
    int32_t r[N], rgba[N * 4];
    for (unsigned i = 0; i < N; i++)
        r[i] = (int32_t)(i * 0x9e3779b9u);
    texel_copy(arch, 197, 221, 4, 16, r, rgba, N);
    for (unsigned i = 0; i < N; i++) {
        int32_t want[4] = { r[i], 0, 0, 1 };
        for (unsigned c = 0; c < 4; c++)
            ck_assert_msg(rgba[4 * i + c] == want[c], "arch %u RGBA32I %u.%u: %d, want %d", arch, i, c,
                          rgba[4 * i + c], want[c]);
    }
    /* RGB10_A2 UNORM (format 67: 10, 10, 10, 2 bits from the low end) -> RGBA32F and back */
    uint32_t packed[N], back[N];
    float p4[N * 4];
    for (unsigned i = 0; i < N; i++)
        packed[i] = i * 0x9e3779b9u;
    texel_copy(arch, 67, 191, 4, 16, packed, p4, N);
    for (unsigned i = 0; i < N; i++) {
        unsigned c[4] = { packed[i] & 1023, packed[i] >> 10 & 1023, packed[i] >> 20 & 1023, packed[i] >> 30 };
        for (unsigned k = 0; k < 4; k++) {
            float want = (float)((double)c[k] / (k < 3 ? 1023.0 : 3.0));
            ck_assert_msg(fbits(p4[4 * i + k]) == fbits(want), "arch %u RGB10_A2 %u.%u: %a, want %a", arch, i, k,
                          (double)p4[4 * i + k], (double)want);
        }
    }
    texel_copy(arch, 191, 67, 16, 4, p4, back, N);
    for (unsigned i = 0; i < N; i++)
        ck_assert_msg(back[i] == packed[i], "arch %u RGB10_A2 store %u: %#x, want %#x", arch, i, back[i], packed[i]);
    /* a job without attribute tables (Mesa 26's read-only image1d_buffer): the descriptor read
     * faults at VA 0 */
    uint64_t fva = 1;
    tables none = { 0 };
    uint64_t push[5] = { 1, 0, 0, 0, 0 };
    ck_assert_uint_eq(run(arch, bi_shader_gpu_img_buf, sizeof(bi_shader_gpu_img_buf), N, 1, push, &none, &fva),
                      FAULT_CODE);
    ck_assert_uint_eq(fva, 0);
}
START_TEST(test_texel_buffer) { check_texel_buffer(6); check_texel_buffer(7); }
END_TEST

/* unsupported requests end the job with INSTR_INVALID_ENC; descriptor and texel reads fault */
START_TEST(test_refused_and_faults)
{
    for (unsigned arch = 6; arch <= 7; arch++) {
        flat_reset();
        const unsigned W = 4, H = 4;
        uint64_t data = alloc(4096, 4096), out = alloc(W * H * 16, 64), fva = 0;
        tables t = { .textures = make_texture(arch, 2, pixfmt(arch, 191, L_RGBA), W, H, 1, 1, data, W * 16, 0),
                     .samplers = make_sampler(WR_EDGE, 0, 1, NULL) };
        uint64_t push[5] = { out, pack(fbits(1.0f), fbits(0.5f)), pack(texc(OP_TEX, 2, 0, LOD_ZERO, RF_F32), W), 0, 0 };
        /* linear filtering of an integer texture (undefined in OpenCL) */
        t.textures = make_texture(arch, 2, pixfmt(arch, 155, L_RGBA), W, H, 1, 1, data, W * 4, 0);
        push[2] = pack(texc(OP_TEX, 2, 0, LOD_ZERO, RF_U32), W);
        ck_assert_uint_eq(run(arch, bi_shader_gpu_tex, sizeof(bi_shader_gpu_tex), W, H, push, &t, NULL), INVALID_ENC);
        t.textures = make_texture(arch, 2, pixfmt(arch, 191, L_RGBA), W, H, 1, 1, data, W * 16, 0);
        /* a 16-bit integer result format is refused too */
        t.samplers = make_sampler(WR_EDGE, 0, 0, NULL);
        push[2] = pack(texc(OP_TEX, 2, 0, LOD_ZERO, 12), W);
        ck_assert_uint_eq(run(arch, bi_shader_gpu_tex, sizeof(bi_shader_gpu_tex), W, H, push, &t, NULL), INVALID_ENC);
        /* texels on an unmapped page: the job faults at a texel address */
        push[2] = pack(texc(OP_TEX, 2, 0, LOD_ZERO, RF_F32), W);
        mapped[(data - VA_BASE) / 4096] = 0;
        ck_assert_uint_eq(run(arch, bi_shader_gpu_tex, sizeof(bi_shader_gpu_tex), W, H, push, &t, &fva), FAULT_CODE);
        ck_assert(fva >= data && fva < data + W * H * 16);
        mapped[(data - VA_BASE) / 4096] = 1;
        /* the texture descriptor table itself unmapped */
        uint64_t hole = alloc(4096, 4096);
        mapped[(hole - VA_BASE) / 4096] = 0;
        t.textures = hole;
        ck_assert_uint_eq(run(arch, bi_shader_gpu_tex, sizeof(bi_shader_gpu_tex), W, H, push, &t, &fva), FAULT_CODE);
        ck_assert_uint_eq(fva, hole);
        /* no texture table at all */
        t.textures = 0;
        ck_assert_uint_eq(run(arch, bi_shader_gpu_tex, sizeof(bi_shader_gpu_tex), W, H, push, &t, NULL), INVALID_ENC);
    }
}
END_TEST

/* the OpenCL conversion helpers at their edges */
START_TEST(test_conversions)
{
    ck_assert_uint_eq(bi_tex_float_to_unorm(0.5f, 8), 128);            /* 127.5: tie to even */
    ck_assert_uint_eq(bi_tex_float_to_unorm(1.5f / 255.0f, 8), 2);      /* 1.5 (rounded product): even */
    ck_assert_uint_eq(bi_tex_float_to_unorm(-0.0f, 8), 0);
    ck_assert_uint_eq(bi_tex_float_to_unorm(NAN, 8), 0);
    ck_assert_uint_eq(bi_tex_float_to_unorm(2.0f, 16), 65535);
    ck_assert_int_eq(bi_tex_float_to_snorm(-1.0f, 8), -127);
    ck_assert_int_eq(bi_tex_float_to_snorm(-2.0f, 8), -128);
    ck_assert_int_eq(bi_tex_float_to_snorm(0.5f, 8), 64);               /* 63.5: tie to even */
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("gpu_image");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_fetch);
    tcase_add_test(tc, test_fetch_tiled);
    tcase_add_test(tc, test_sample_wrap);
    tcase_add_test(tc, test_linear_wrap);
    tcase_add_test(tc, test_linear_points);
    tcase_add_test(tc, test_texs);
    tcase_add_test(tc, test_formats);
    tcase_add_test(tc, test_3d_array);
    tcase_add_test(tc, test_store);
    tcase_add_test(tc, test_image_tiled);
    tcase_add_test(tc, test_texel_buffer);
    tcase_add_test(tc, test_refused_and_faults);
    tcase_add_test(tc, test_conversions);
    suite_add_tcase(s, tc);
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
