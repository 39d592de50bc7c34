/* Render-target and depth/stencil formats (emu/gpu/gfx_pixel.c): packs against bytes worked out by
 * hand from GL's rules, edge cases (NaN, infinities, negatives into unorm, float16 overflow),
 * every memory value of the 8- and 16-bit formats and random ones of the wider formats round-tripping
 * through unpack and pack, float16 against the compiler's _Float16 conversion (libgcc, round to
 * nearest even), the render-target swizzle, the Mali code mappings and depth/stencil layouts. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gfx_pixel.h"

/* A check inside the long loops: Check's ck_assert* records every passing assertion with a
 * system call, which millions of them turn into seconds; this one costs nothing until it fails. */
#define EXPECT(cond, ...)                                                                          \
    do {                                                                                          \
        if (!(cond))                                                                              \
            ck_abort_msg(__VA_ARGS__);                                                            \
    } while (0)

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static gfx_color fc(float r, float g, float b, float a) { return (gfx_color){ .f = { r, g, b, a } }; }
static gfx_color uc(uint32_t r, uint32_t g, uint32_t b, uint32_t a) { return (gfx_color){ .u = { r, g, b, a } }; }
static gfx_color ic(int32_t r, int32_t g, int32_t b, int32_t a) { return (gfx_color){ .i = { r, g, b, a } }; }

/* Packs c in format f and compares with the expected bytes. */
static void expect_pack(gfx_format f, gfx_color c, const uint8_t *want, unsigned n)
{
    const gfx_format_info *fi = gfx_format_get(f);
    ck_assert_ptr_nonnull(fi);
    ck_assert_uint_eq(fi->bpp, n);
    uint8_t got[16];
    memset(got, 0xee, sizeof got);
    fi->pack(&c, got);
    for (unsigned i = 0; i < n; i++)
        EXPECT(got[i] == want[i], "%s byte %u: got %#04x, want %#04x", fi->name, i, got[i], want[i]);
    EXPECT(got[n] == 0xee, "%s wrote past its %u bytes", fi->name, n);
}

#define PACK(f, c, ...)                                                                            \
    do {                                                                                          \
        static const uint8_t w_[] = { __VA_ARGS__ };                                              \
        expect_pack(f, c, w_, sizeof w_);                                                         \
    } while (0)

START_TEST(test_unorm_bytes)
{
    /* 0.5 * 255 = 127.5 -> 128 (nearest, ties to even); 0.25 * 255 = 63.75 -> 64 */
    PACK(GFX_FMT_RGBA8_UNORM, fc(0.5f, 0.0f, 1.0f, 0.25f), 128, 0, 255, 64);
    /* NaN -> 0, negative -> 0, above 1 and +inf -> 255, -inf -> 0 */
    PACK(GFX_FMT_RGBA8_UNORM, fc(NAN, -0.5f, 7.0f, INFINITY), 0, 0, 255, 255);
    PACK(GFX_FMT_R8_UNORM, fc(-INFINITY, 0, 0, 0), 0);
    /* sRGB: 1.055 * 0.5^(1/2.4) - 0.055 = 0.73536 -> 187.5 + 0.016 -> 188; alpha stays linear */
    PACK(GFX_FMT_RGBA8_SRGB, fc(0.5f, 0.0f, 1.0f, 0.5f), 188, 0, 255, 128);
    /* linear part: 0.002 * 12.92 * 255 = 6.59 -> 7 */
    PACK(GFX_FMT_RGBA8_SRGB, fc(0.002f, NAN, -1.0f, 1.0f), 7, 0, 0, 255);
    PACK(GFX_FMT_BGRA8_UNORM, fc(1.0f, 0.5f, 0.0f, 1.0f), 0, 128, 255, 255);
    PACK(GFX_FMT_BGRA8_SRGB, fc(0.5f, 0.0f, 0.0f, 0.0f), 0, 0, 188, 0);
    PACK(GFX_FMT_RGB8_UNORM, fc(0.2f, 0.4f, 0.6f, 0.0f), 51, 102, 153);
    PACK(GFX_FMT_RG8_UNORM, fc(0.1f, 0.9f, 0, 0), 26, 229);      /* 0.1f * 255 = 25.5000004, 0.9f * 255 = 229.49999 */
    /* RGB565: R = 31, G = 0.5 * 63 = 31.5 -> 32, B = 0: 31 | 32 << 5 = 0x041f */
    PACK(GFX_FMT_RGB565_UNORM, fc(1.0f, 0.5f, 0.0f, 0.0f), 0x1f, 0x04);
    /* RGBA4: 15, 0, 7.5 -> 8, 1/3 * 15 = 5: 0xf | 8 << 8 | 5 << 12 = 0x580f */
    PACK(GFX_FMT_RGBA4_UNORM, fc(1.0f, 0.0f, 0.5f, 1.0f / 3), 0x0f, 0x58);
    /* RGB5A1: G = 31 << 5, A = 0.6 -> 1: 0x83e0 */
    PACK(GFX_FMT_RGB5A1_UNORM, fc(0.0f, 1.0f, 0.0f, 0.6f), 0xe0, 0x83);
    /* RGB10A2: 1023 | 511.5 -> 512 << 10 | 0 | 3 << 30 = 0xc00803ff */
    PACK(GFX_FMT_RGB10A2_UNORM, fc(1.0f, 0.5f, 0.0f, 1.0f), 0xff, 0x03, 0x08, 0xc0);
}
END_TEST

START_TEST(test_float_bytes)
{
    /* 1.0, -2.0, 65504 (largest half), 1e6 (overflow -> +inf) */
    PACK(GFX_FMT_RGBA16_FLOAT, fc(1.0f, -2.0f, 65504.0f, 1e6f), 0x00, 0x3c, 0x00, 0xc0, 0xff, 0x7b, 0x00, 0x7c);
    /* 65519 rounds down to 65504, 65520 is the tie with 65536: even -> +inf; -inf; 1/3 = 0x3555 */
    PACK(GFX_FMT_RGBA16_FLOAT, fc(65519.0f, 65520.0f, -INFINITY, 1.0f / 3), 0xff, 0x7b, 0x00, 0x7c, 0x00, 0xfc,
         0x55, 0x35);
    /* subnormals: 2^-24 = 0x0001, 2^-25 ties to 0 (even), 3 * 2^-25 ties to 2 (even), -2^-14 = 0x8400 */
    PACK(GFX_FMT_RGBA16_FLOAT, fc(0x1p-24f, 0x1p-25f, 3 * 0x1p-25f, -0x1p-14f), 0x01, 0x00, 0x00, 0x00, 0x02, 0x00,
         0x00, 0x84);
    PACK(GFX_FMT_RG16_FLOAT, fc(0.5f, -0.0f, 0, 0), 0x00, 0x38, 0x00, 0x80);
    PACK(GFX_FMT_R16_FLOAT, fc(2049.0f, 0, 0, 0), 0x00, 0x68);      /* 2049 ties between 2048 and 2050 -> 2048 */
    /* NaN stays NaN: exponent all ones, mantissa not zero */
    {
        const gfx_format_info *fi = gfx_format_get(GFX_FMT_R16_FLOAT);
        gfx_color c = fc(NAN, 0, 0, 0);
        uint8_t b[2];
        fi->pack(&c, b);
        uint16_t h = (uint16_t)(b[0] | b[1] << 8);
        ck_assert_uint_eq(h & 0x7c00, 0x7c00);
        ck_assert_uint_ne(h & 0x3ff, 0);
    }
    /* R11G11B10F: 1.0 = 15 << 6, 2.0 = 16 << 6, 0.5 (10-bit) = 14 << 5: 0x3c0 | 0x400 << 11 | 0x1c0 << 22 */
    PACK(GFX_FMT_R11G11B10_FLOAT, fc(1.0f, 2.0f, 0.5f, 0.0f), 0xc0, 0x03, 0x20, 0x70);
    /* negative -> 0, finite overflow -> largest (0x7bf = 65024; 10-bit 0x3df = 64512), +inf -> 0x7c0 */
    PACK(GFX_FMT_R11G11B10_FLOAT, fc(-3.0f, 1e30f, 1e30f, 0.0f), 0x00, 0xf8, 0xfd, 0xf7);
    PACK(GFX_FMT_R11G11B10_FLOAT, fc(INFINITY, -INFINITY, 0.0f, 0.0f), 0xc0, 0x07, 0x00, 0x00);
    ck_assert_uint_eq(gfx_float_to_ufloat(NAN, 6) >> 6, 31);
    ck_assert_uint_ne(gfx_float_to_ufloat(NAN, 6) & 63, 0);
    ck_assert_uint_eq(gfx_float_to_ufloat(65024.0f, 6), 0x7bf);
    ck_assert_uint_eq(gfx_float_to_ufloat(64512.0f, 5), 0x3df);
    /* 11-bit rounding: 1 + 1/128 is the tie between 1 and 1 + 1/64 -> 1 (even mantissa) */
    ck_assert_uint_eq(gfx_float_to_ufloat(1.0f + 1.0f / 128, 6), 0x3c0);
    ck_assert_uint_eq(gfx_float_to_ufloat(1.0f + 3.0f / 128, 6), 0x3c2);
    PACK(GFX_FMT_R32_FLOAT, fc(-1.5f, 0, 0, 0), 0x00, 0x00, 0xc0, 0xbf);
    PACK(GFX_FMT_RG32_FLOAT, fc(1.0f, INFINITY, 0, 0), 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x80, 0x7f);
}
END_TEST

START_TEST(test_integer_bytes)
{
    /* render targets saturate (Mesa, pan_blend.c: GL requires it, Bifrost's conversion does it) */
    PACK(GFX_FMT_RGBA8_UINT, uc(300, 255, 0, 7), 0xff, 0xff, 0x00, 0x07);
    PACK(GFX_FMT_RGBA8_SINT, ic(-200, 127, -128, 200), 0x80, 0x7f, 0x80, 0x7f);
    PACK(GFX_FMT_RG8_SINT, ic(-1, 5, 0, 0), 0xff, 0x05);
    PACK(GFX_FMT_R8_UINT, uc(0xffffffffu, 0, 0, 0), 0xff);
    PACK(GFX_FMT_R16_SINT, ic(-40000, 0, 0, 0), 0x00, 0x80);
    PACK(GFX_FMT_RG16_UINT, uc(70000, 1, 0, 0), 0xff, 0xff, 0x01, 0x00);
    PACK(GFX_FMT_RGBA16_SINT, ic(40000, -2, 32767, -32768), 0xff, 0x7f, 0xfe, 0xff, 0xff, 0x7f, 0x00, 0x80);
    PACK(GFX_FMT_R32_SINT, ic(-5, 0, 0, 0), 0xfb, 0xff, 0xff, 0xff);
    PACK(GFX_FMT_RG32_UINT, uc(0x12345678, 0xffffffffu, 0, 0), 0x78, 0x56, 0x34, 0x12, 0xff, 0xff, 0xff, 0xff);
    /* RGB10A2UI: 1023 | min(2000, 1023) << 10 | 5 << 20 | min(7, 3) << 30 = 0xc05fffff */
    PACK(GFX_FMT_RGB10A2_UINT, uc(1023, 2000, 5, 7), 0xff, 0xff, 0x5f, 0xc0);
}
END_TEST

/* a and b are the same value for the format's kind (NaNs equal each other) */
static int same(const gfx_format_info *fi, const gfx_color *a, const gfx_color *b)
{
    for (unsigned c = 0; c < 4; c++) {
        if (fi->kind == GFX_KIND_FLOAT && isnan(a->f[c]) && isnan(b->f[c]))
            continue;
        if (a->u[c] != b->u[c])
            return 0;
    }
    return 1;
}

/* Every memory value unpacks to a colour that packs back to the same bytes: each format reads
 * what it writes.  NaN encodings of the small floats are exempt (any NaN packs to one NaN). */
static int roundtrip(const gfx_format_info *fi, const uint8_t *m)
{
    gfx_color c, c2;
    uint8_t back[16];
    fi->unpack(m, &c);
    fi->pack(&c, back);
    if (!memcmp(back, m, fi->bpp))
        return 1;
    fi->unpack(back, &c2);
    for (unsigned k = 0; k < fi->ncomp; k++)
        if (fi->kind == GFX_KIND_FLOAT && isnan(c.f[k]) && isnan(c2.f[k]) && fi->bits[k] < 32)
            return same(fi, &c, &c2);
    return 0;
}

START_TEST(test_roundtrip_all)
{
    unsigned formats = 0;
    for (int f = 1; f < GFX_FMT_COUNT; f++) {
        const gfx_format_info *fi = gfx_format_get((gfx_format)f);
        ck_assert_ptr_nonnull(fi);
        formats++;
        uint8_t m[16] = { 0 };
        if (fi->bpp <= 2) {
            for (uint32_t v = 0; v < 1u << (8 * fi->bpp); v++) {
                m[0] = (uint8_t)v, m[1] = (uint8_t)(v >> 8);
                EXPECT(roundtrip(fi, m), "%s: %#x does not round-trip", fi->name, v);
            }
        } else {
            for (unsigned n = 0; n < 200000; n++) {
                for (unsigned i = 0; i < fi->bpp; i++)
                    m[i] = (uint8_t)rnd();
                EXPECT(roundtrip(fi, m), "%s: %02x%02x%02x%02x... does not round-trip", fi->name, m[3], m[2],
                              m[1], m[0]);
            }
        }
    }
    ck_assert_uint_eq(formats, GFX_FMT_COUNT - 1);
    ck_assert_ptr_null(gfx_format_get(GFX_FMT_NONE));
    ck_assert_ptr_null(gfx_format_get(GFX_FMT_COUNT));
}
END_TEST

START_TEST(test_unpack_values)
{
    const gfx_format_info *fi = gfx_format_get(GFX_FMT_RGB565_UNORM);
    uint8_t m[4] = { 0x1f, 0x04 };
    gfx_color c;
    fi->unpack(m, &c);
    ck_assert_float_eq(c.f[0], 1.0f);
    ck_assert_float_eq(c.f[1], 32.0f / 63);
    ck_assert_float_eq(c.f[2], 0.0f);
    ck_assert_float_eq(c.f[3], 1.0f);       /* missing alpha reads 1 */
    fi = gfx_format_get(GFX_FMT_RGBA8_SRGB);
    uint8_t s[4] = { 188, 0, 255, 128 };
    fi->unpack(s, &c);
    ck_assert_float_eq_tol(c.f[0], 0.5029f, 1e-4f);     /* ((188/255 + 0.055) / 1.055)^2.4 */
    ck_assert_float_eq(c.f[3], 128.0f / 255);
    fi = gfx_format_get(GFX_FMT_RG8_SINT);
    uint8_t i8[2] = { 0x80, 0x7f };
    fi->unpack(i8, &c);
    ck_assert_int_eq(c.i[0], -128);
    ck_assert_int_eq(c.i[1], 127);
    ck_assert_int_eq(c.i[2], 0);
    ck_assert_int_eq(c.i[3], 1);
    fi = gfx_format_get(GFX_FMT_R11G11B10_FLOAT);
    uint8_t p[4] = { 0xc0, 0x03, 0x20, 0x70 };
    fi->unpack(p, &c);
    ck_assert_float_eq(c.f[0], 1.0f);
    ck_assert_float_eq(c.f[1], 2.0f);
    ck_assert_float_eq(c.f[2], 0.5f);
    /* the sRGB pack's table search gives the formula's result: every float at and around each
     * threshold, and random ones */
    for (unsigned v = 1; v < 256; v++) {
        float lo = 0.0f, hi = 1.0f;                 /* bisect for the formula's threshold of v */
        for (int k = 0; k < 60; k++) {
            float mid = (lo + hi) / 2;
            if (gfx_float_to_unorm(gfx_srgb_encode(mid), 8) >= v)
                hi = mid;
            else
                lo = mid;
        }
        for (float f = nextafterf(nextafterf(lo, 0), 0), n = 0; n < 5; n++, f = nextafterf(f, 2))
            EXPECT(gfx_srgb_float_to_unorm8(f) == gfx_float_to_unorm(gfx_srgb_encode(f), 8), "srgb(%a)", f);
    }
    for (unsigned n = 0; n < 300000; n++) {
        float f = (float)(rnd() & 0xffffff) / (float)0xfffff0 - 0.01f;
        EXPECT(gfx_srgb_float_to_unorm8(f) == gfx_float_to_unorm(gfx_srgb_encode(f), 8), "srgb(%a)", f);
    }
    /* sRGB: every 8-bit code decodes into the interval that encodes back to it */
    for (unsigned v = 0; v < 256; v++)
        EXPECT(gfx_float_to_unorm(gfx_srgb_encode(gfx_srgb_decode(v / 255.0f)), 8) == v, "sRGB %u", v);
}
END_TEST

static uint16_t ref_half(float f)
{
    _Float16 h = (_Float16)f;
    uint16_t u;
    memcpy(&u, &h, 2);
    return u;
}

START_TEST(test_half_against_compiler)
{
    /* every half value, its neighbours' midpoints and one float-ulp either side of them */
    for (uint32_t h = 0; h < 0x7c00; h++) {
        float lo = gfx_half_to_float((uint16_t)h), hi = gfx_half_to_float((uint16_t)(h + 1));
        float mid = (float)(((double)lo + hi) / 2);
        float cases[5] = { lo, mid, nextafterf(mid, 0.0f), nextafterf(mid, INFINITY), -mid };
        for (unsigned k = 0; k < 5; k++)
            EXPECT(gfx_float_to_half(cases[k]) == ref_half(cases[k]), "half(%a): %#x, compiler %#x", cases[k],
                          gfx_float_to_half(cases[k]), ref_half(cases[k]));
        _Float16 hh;
        uint16_t hv = (uint16_t)h;
        memcpy(&hh, &hv, 2);
        EXPECT(gfx_half_to_float(hv) == (float)hh, "float(%#x)", h);
    }
    for (unsigned n = 0; n < 2000000; n++) {
        uint32_t u = rnd() << 16 ^ rnd();
        float f;
        memcpy(&f, &u, 4);
        if (isnan(f))
            continue;
        EXPECT(gfx_float_to_half(f) == ref_half(f), "half(%a): %#x, compiler %#x", f, gfx_float_to_half(f),
                      ref_half(f));
    }
}
END_TEST

START_TEST(test_swizzle)
{
    /* BGRA8 as panfrost programs it: R8G8B8A8 write-back with swizzle B G R A (2, 1, 0, 3) */
    uint32_t bgra = 2 | 1 << 3 | 0 << 6 | 3 << 9;
    const gfx_format_info *rgba = gfx_format_get(GFX_FMT_RGBA8_UNORM), *bgr = gfx_format_get(GFX_FMT_BGRA8_UNORM);
    for (unsigned n = 0; n < 1000; n++) {
        gfx_color c = fc((rnd() & 1023) / 1023.0f, (rnd() & 1023) / 1023.0f, (rnd() & 1023) / 1023.0f,
                         (rnd() & 1023) / 1023.0f), s;
        uint8_t a[4], b[4];
        gfx_swizzle_for_write(bgra, &c, &s, 0x3f800000);
        rgba->pack(&s, a);
        bgr->pack(&c, b);
        ck_assert_mem_eq(a, b, 4);
    }
    /* RGB1 (alpha forced to 1), and 0 selectors; a reserved selector gives 0 */
    gfx_color c = ic(10, 20, 30, 40), o;
    gfx_swizzle_for_write(0 | 1 << 3 | 2 << 6 | 5 << 9, &c, &o, 1);
    ck_assert_int_eq(o.i[3], 1);
    ck_assert_int_eq(o.i[2], 30);
    gfx_swizzle_for_write(4 | 7 << 3 | 3 << 6 | 0 << 9, &c, &o, 1);
    ck_assert_int_eq(o.i[0], 0);
    ck_assert_int_eq(o.i[1], 0);
    ck_assert_int_eq(o.i[2], 40);
    ck_assert_int_eq(o.i[3], 10);
}
END_TEST

START_TEST(test_mali_codes)
{
    ck_assert_int_eq(gfx_format_from_mali(223, 0), GFX_FMT_RGBA16_FLOAT);
    ck_assert_int_eq(gfx_format_from_mali(89, 0), GFX_FMT_R11G11B10_FLOAT);
    ck_assert_int_eq(gfx_format_from_mali(71, 0), GFX_FMT_RGB10A2_UINT);
    ck_assert_int_eq(gfx_format_from_mali(221, 0), GFX_FMT_RGBA32_SINT);
    ck_assert_int_eq(gfx_format_from_mali(237, 1), GFX_FMT_RGBA8_SRGB);       /* RGBA8 TB with the sRGB bit */
    ck_assert_int_eq(gfx_format_from_mali(227, 0), GFX_FMT_RGB565_UNORM);     /* R5G6B5 PU */
    ck_assert_int_eq(gfx_format_from_mali(223, 1), GFX_FMT_NONE);
    ck_assert_int_eq(gfx_format_from_mali(1, 0), GFX_FMT_NONE);              /* ETC2: not a render target */
    ck_assert_int_eq(gfx_format_from_writeback(19, 0), GFX_FMT_RGBA8_UNORM);
    ck_assert_int_eq(gfx_format_from_writeback(19, 1), GFX_FMT_RGBA8_SRGB);
    ck_assert_int_eq(gfx_format_from_writeback(21, 0), GFX_FMT_RGB565_UNORM);
    ck_assert_int_eq(gfx_format_from_writeback(24, 0), GFX_FMT_RGB10A2_UNORM);
    ck_assert_int_eq(gfx_format_from_writeback(5, 0), GFX_FMT_NONE);         /* RAW64: raw tile bytes */
}
END_TEST

START_TEST(test_depth_stencil)
{
    uint8_t p[4];
    gfx_zs_pack_depth(GFX_ZS_D16, 0.5f, p);         /* 32767.5 -> 32768 */
    ck_assert_uint_eq(p[0] | p[1] << 8, 0x8000);
    ck_assert_float_eq(gfx_zs_unpack_depth(GFX_ZS_D16, p), 32768.0f / 65535);
    /* D24S8: depth in bits 23:0, stencil in bits 31:24, each write keeps the other */
    uint32_t w = 0xaabbccdd;
    memcpy(p, &w, 4);
    gfx_zs_pack_depth(GFX_ZS_D24S8, 1.0f, p);
    memcpy(&w, p, 4);
    ck_assert_uint_eq(w, 0xaaffffff);
    gfx_zs_pack_stencil(GFX_ZS_D24S8, 0x5a, p);
    memcpy(&w, p, 4);
    ck_assert_uint_eq(w, 0x5affffff);
    ck_assert_uint_eq(gfx_zs_unpack_stencil(GFX_ZS_D24S8, p), 0x5a);
    gfx_zs_pack_depth(GFX_ZS_D24X8, 0.25f, p);      /* 4194303.75 -> 4194304 = 0x400000 */
    memcpy(&w, p, 4);
    ck_assert_uint_eq(w, 0x5a400000);
    gfx_zs_pack_depth(GFX_ZS_D24X8, NAN, p);
    memcpy(&w, p, 4);
    ck_assert_uint_eq(w, 0x5a000000);
    gfx_zs_pack_depth(GFX_ZS_D16, 2.0f, p);
    ck_assert_uint_eq(p[0] | p[1] << 8, 0xffff);
    gfx_zs_pack_depth(GFX_ZS_D32F, 0.375f, p);
    memcpy(&w, p, 4);
    ck_assert_uint_eq(w, 0x3ec00000);
    ck_assert_float_eq(gfx_zs_unpack_depth(GFX_ZS_D32F, p), 0.375f);
    p[0] = 0;
    gfx_zs_pack_stencil(GFX_ZS_S8, 0xc3, p);
    ck_assert_uint_eq(p[0], 0xc3);
    ck_assert_uint_eq(gfx_zs_bpp(GFX_ZS_D16), 2);
    ck_assert_uint_eq(gfx_zs_bpp(GFX_ZS_D24S8), 4);
    ck_assert_uint_eq(gfx_zs_bpp(GFX_ZS_S8), 1);
    ck_assert_uint_eq(gfx_zs_bpp(GFX_ZS_COUNT), 0);
    /* genxml codes: ZS Format D16 = 1, D24X8 = 4, D24S8 = 5, D32 = 14; S Format S8 = 1, X24S8 = 4 */
    ck_assert_int_eq(gfx_zs_from_mali_zs(1), GFX_ZS_D16);
    ck_assert_int_eq(gfx_zs_from_mali_zs(4), GFX_ZS_D24X8);
    ck_assert_int_eq(gfx_zs_from_mali_zs(5), GFX_ZS_D24S8);
    ck_assert_int_eq(gfx_zs_from_mali_zs(14), GFX_ZS_D32F);
    ck_assert_int_eq(gfx_zs_from_mali_zs(3), GFX_ZS_NONE);
    ck_assert_int_eq(gfx_zs_from_mali_s(1), GFX_ZS_S8);
    ck_assert_int_eq(gfx_zs_from_mali_s(4), GFX_ZS_D24S8);
    /* every 16-bit depth code reads back to itself */
    for (uint32_t v = 0; v < 65536; v++) {
        uint8_t q[2] = { (uint8_t)v, (uint8_t)(v >> 8) }, r[2];
        gfx_zs_pack_depth(GFX_ZS_D16, gfx_zs_unpack_depth(GFX_ZS_D16, q), r);
        EXPECT(!memcmp(q, r, 2), "D16 %#x reads back as %#x", v, r[0] | r[1] << 8);
    }
}
END_TEST

/* Tile-buffer words: clear words packed by hand as pan_clear.c does, and the word path
 * (gfx_tib_pack, gfx_tib_write) against the memory formats' own pack for every pair panfrost uses */
START_TEST(test_tile_buffer_words)
{
    float c[4];
    static const uint8_t rgba[4] = { 0, 1, 2, 3 }, bgra[4] = { 2, 1, 0, 3 }, a_only[4] = { 3, 4, 4, 4 };
    uint8_t out[4];
    /* R8G8B8A8 (1): (0.5, 0.25, 1, 0) -> 128, 64, 255, 0 */
    ck_assert_int_eq(gfx_tib_unpack(1, 0x00ff4080, 0, c), 0);
    ck_assert_float_eq(c[0], 128.0f / 255);
    ck_assert_float_eq(c[1], 64.0f / 255);
    ck_assert_float_eq(c[2], 1.0f);
    ck_assert_float_eq(c[3], 0.0f);
    ck_assert_uint_eq(gfx_tib_write(1, 19, rgba, 0x00ff4080, out), 4);
    ck_assert_uint_eq(out[0] | out[1] << 8 | out[2] << 16 | (uint32_t)out[3] << 24, 0x00ff4080);
    ck_assert_uint_eq(gfx_tib_write(1, 19, bgra, 0x00ff4080, out), 4);     /* BGRA8: B, G, R, A */
    ck_assert_uint_eq(out[0] | out[1] << 8 | out[2] << 16 | (uint32_t)out[3] << 24, 0xff | 0x40 << 8 | 0x80 << 16);
    ck_assert_uint_eq(gfx_tib_write(1, 16, a_only, 0x7f000000, out), 1);  /* A8: alpha into R8 */
    ck_assert_uint_eq(out[0], 0x7f);
    /* sRGB: the word holds encoded values: 188 decodes to 0.5029, 0.5 encodes to 188 */
    gfx_tib_unpack(1, 188, 1, c);
    ck_assert_float_eq_tol(c[0], 0.5029f, 1e-4f);
    const float half[4] = { 0.5f, 0.5f, 0.5f, 0.5f };
    ck_assert_uint_eq(gfx_tib_pack(1, half, 1), 188u | 188u << 8 | 188u << 16 | 128u << 24);
    /* R5G6B5A0 dithered clear: R 1.0 = 31 << 5 (5.5), G 0.5 = 0.5 * 63 * 16 = 504 (6.4) from bit 10,
     * B 0; alpha has no integer bits and reads 1; written as RGB565: G 31.5 -> 32 */
    ck_assert_int_eq(gfx_tib_unpack(5, 992 | 504u << 10, 0, c), 0);
    ck_assert_float_eq(c[0], 1.0f);
    ck_assert_float_eq(c[1], 0.5f);
    ck_assert_float_eq(c[2], 0.0f);
    ck_assert_float_eq(c[3], 1.0f);
    ck_assert_uint_eq(gfx_tib_write(5, 21, rgba, 992 | 504u << 10, out), 2);
    ck_assert_uint_eq(out[0] | out[1] << 8, 31 | 32 << 5);
    /* R10G10B10A2: 1023, 0, 511 (bits 20-29), alpha 2 of 3 (bits 30-31) */
    gfx_tib_unpack(2, 1023 | 511u << 20 | 2u << 30, 0, c);
    ck_assert_float_eq(c[2], 511.0f / 1023);
    ck_assert_float_eq(c[3], 2.0f / 3);
    ck_assert_int_eq(gfx_tib_unpack(7, 0, 0, c), -1);
    ck_assert_int_eq(gfx_tib_unpack(0, 0, 0, c), -1);
    ck_assert_uint_eq(gfx_tib_write(1, 5, rgba, 0, out), 0);                 /* RAW64: not a word */
    ck_assert_uint_eq(gfx_tib_write(9, 19, rgba, 0, out), 0);
    /* every (internal, writeback) pair of panfrost's blendable table: packing a colour into the
     * word and writing it back gives the memory format's own pack; unpacking the word gives the
     * colour at the target's precision */
    static const struct { unsigned internal, wb, srgb; gfx_format f; } pairs[] = {
        { 1, 19, 0, GFX_FMT_RGBA8_UNORM }, { 1, 19, 1, GFX_FMT_RGBA8_SRGB }, { 1, 18, 0, GFX_FMT_RGB8_UNORM },
        { 1, 17, 0, GFX_FMT_RG8_UNORM },   { 1, 16, 0, GFX_FMT_R8_UNORM },   { 5, 21, 0, GFX_FMT_RGB565_UNORM },
        { 4, 20, 0, GFX_FMT_RGBA4_UNORM }, { 6, 28, 0, GFX_FMT_RGB5A1_UNORM }, { 2, 24, 0, GFX_FMT_RGB10A2_UNORM },
    };
    for (unsigned p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        const gfx_format_info *fi = gfx_format_get(pairs[p].f);
        for (unsigned n = 0; n < 20000; n++) {
            gfx_color col;
            for (unsigned k = 0; k < 4; k++)
                col.f[k] = (float)(rnd() % 1200) / 1000.0f - 0.1f;
            uint32_t w = gfx_tib_pack(pairs[p].internal, col.f, (int)pairs[p].srgb);
            uint8_t got[4] = { 0 }, want[4] = { 0 };
            unsigned nb = gfx_tib_write(pairs[p].internal, pairs[p].wb, rgba, w, got);
            fi->pack(&col, want);
            EXPECT(nb == fi->bpp && !memcmp(got, want, nb), "%s: word %#x writes %02x%02x%02x%02x, pack %02x%02x%02x%02x",
                   fi->name, w, got[3], got[2], got[1], got[0], want[3], want[2], want[1], want[0]);
            float back[4];
            gfx_tib_unpack(pairs[p].internal, w, (int)pairs[p].srgb, back);
            gfx_format_quantize(fi, &col);
            for (unsigned k = 0; k < fi->ncomp; k++)
                EXPECT(back[k] == col.f[k], "%s channel %u: word %#x unpacks to %g, format %g", fi->name, k, w, back[k],
                       col.f[k]);
        }
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gfx_pixel");
    TCase *t = tcase_create("formats");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, test_unorm_bytes);
    tcase_add_test(t, test_float_bytes);
    tcase_add_test(t, test_integer_bytes);
    tcase_add_test(t, test_roundtrip_all);
    tcase_add_test(t, test_unpack_values);
    tcase_add_test(t, test_half_against_compiler);
    tcase_add_test(t, test_swizzle);
    tcase_add_test(t, test_mali_codes);
    tcase_add_test(t, test_depth_stencil);
    tcase_add_test(t, test_tile_buffer_words);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
