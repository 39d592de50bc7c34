/* Render-target and depth/stencil pixel formats (see gfx_pixel.h for the sources and rules).
 * Roundings to integer and small-float encodings are done in integers; the few float operations
 * (unorm -> float division, the sRGB curves) assume the host's round-to-nearest mode, which the
 * executor restores after every op that changes it. */
#include "gfx_pixel.h"

#include <math.h>
#include <string.h>

static inline uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* ---- scalar conversions ------------------------------------------------------------------------ */

uint32_t gfx_float_to_unorm(float f, unsigned bits)
{
    uint32_t max = bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
    if (!(f > 0.0f))                /* negative, zero and NaN */
        return 0;
    if (f >= 1.0f)
        return max;
    double d = (double)f * max;     /* exact for bits <= 29: a 24-bit mantissa times max */
    uint32_t r = (uint32_t)d;
    double frac = d - r;            /* exact; ties go to the even neighbour, without branches */
    return r + ((uint32_t)(frac > 0.5) | ((uint32_t)(frac == 0.5) & r & 1));
}

float gfx_srgb_encode(float l)
{
    if (!(l > 0.0f))
        return 0.0f;
    if (l >= 1.0f)
        return 1.0f;
    if (l < 0.0031308f)
        return 12.92f * l;
    return (float)(1.055 * pow(l, 1.0 / 2.4) - 0.055);
}

float gfx_srgb_decode(float s)
{
    if (s <= 0.04045f)
        return s / 12.92f;
    return (float)pow((s + 0.055) / 1.055, 2.4);
}

/* |f| (its bits without the sign, finite) as a float with a 5-bit exponent (bias 15) and mbits
 * mantissa bits, rounded to nearest even; may return the infinity encoding 31 << mbits (or more
 * for huge values: the caller decides what overflow gives). */
static uint32_t small_float_round(uint32_t abits, unsigned mbits)
{
    int e = (int)(abits >> 23) - 127 + 15;
    uint32_t m = abits & 0x7fffff;
    if (e >= 31)
        return 31u << mbits;
    unsigned shift;
    uint32_t r;
    if (e <= 0) {                   /* subnormal: the implicit 1 joins the mantissa */
        if (abits == 0)
            return 0;
        shift = 23 - mbits + 1 - e;
        if (shift > 24)
            return 0;
        m |= 0x800000;
        r = m >> shift;
    } else {
        shift = 23 - mbits;
        r = (uint32_t)e << mbits | m >> shift;
    }
    uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (r & 1)))
        r++;                        /* a carry into the exponent is the right encoding */
    return r;
}

uint16_t gfx_float_to_half(float f)
{
    uint32_t u = fbits(f), sign = (u >> 16) & 0x8000, a = u & 0x7fffffff;
    if (a > 0x7f800000)             /* NaN: stays a (quiet) NaN with the top payload bits */
        return (uint16_t)(sign | 0x7e00 | ((a >> 13) & 0x3ff));
    if (a == 0x7f800000)
        return (uint16_t)(sign | 0x7c00);
    uint32_t r = small_float_round(a, 10);
    return (uint16_t)(sign | (r > 0x7c00 ? 0x7c00 : r));
}

float gfx_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 31, m = h & 0x3ff;
    if (e == 31)
        return bitsf(sign | 0x7f800000 | m << 13);
    if (e == 0) {                   /* subnormal or zero: m * 2^-24, exact in float */
        float v = (float)m * 0x1p-24f;
        return sign ? -v : v;
    }
    return bitsf(sign | (e + 127 - 15) << 23 | m << 13);
}

uint32_t gfx_float_to_ufloat(float f, unsigned mbits)
{
    uint32_t u = fbits(f), inf = 31u << mbits, maxf = inf - 1;
    if ((u & 0x7fffffff) > 0x7f800000)
        return inf | 1;             /* any NaN -> a positive NaN */
    if (u & 0x80000000)
        return 0;                   /* negative, -0 and -inf -> 0 */
    if (u == 0x7f800000)
        return inf;
    uint32_t r = small_float_round(u, mbits);
    return r >= inf ? maxf : r;     /* finite values never become infinity (GL ES 3.2, 2.3.4.3) */
}

float gfx_ufloat_to_float(uint32_t v, unsigned mbits)
{
    uint32_t e = v >> mbits & 31, m = v & ((1u << mbits) - 1);
    if (e == 31)
        return bitsf(0x7f800000 | (m ? 0x400000 : 0));
    if (e == 0)
        return (float)m * ldexpf(1.0f, -14 - (int)mbits);
    return bitsf((e + 127 - 15) << 23 | m << (23 - mbits));
}

static inline uint32_t clamp_u(uint32_t v, unsigned bits)
{
    uint32_t max = bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
    return v > max ? max : v;
}

static inline int32_t clamp_s(int32_t v, unsigned bits)
{
    if (bits >= 32)
        return v;
    int32_t max = (1 << (bits - 1)) - 1, min = -max - 1;
    return v > max ? max : v < min ? min : v;
}

static inline float unorm_to_float(uint32_t v, unsigned bits)
{
    return (float)v / (float)((1u << bits) - 1);
}

static inline void put16(uint8_t *d, uint32_t v) { d[0] = (uint8_t)v; d[1] = (uint8_t)(v >> 8); }
static inline uint32_t get16(const uint8_t *s) { return s[0] | (uint32_t)s[1] << 8; }
static inline void put32(uint8_t *d, uint32_t v) { memcpy(d, &v, 4); }      /* hosts are little-endian */
static inline uint32_t get32(const uint8_t *s) { uint32_t v; memcpy(&v, s, 4); return v; }

static inline void defaults(gfx_color *c, unsigned n, uint32_t one)
{
    for (unsigned i = n; i < 4; i++)
        c->u[i] = i == 3 ? one : 0;
}

#define FONE 0x3f800000u

/* ---- unorm8 family ----------------------------------------------------------------------------- */

/* sRGB through tables made once from GL's formulas: decode[v] = gfx_srgb_decode(v / 255), and
 * enc_min[v] = the smallest float whose encoded, rounded value is v (found by bisection on the
 * float bits; the formula is monotonic), so a pack is a search of 8 steps instead of a pow(). */
static float srgb_decode8[256];
static uint32_t srgb_enc_min[256];

static uint32_t srgb8_formula(float l) { return gfx_float_to_unorm(gfx_srgb_encode(l), 8); }

__attribute__((constructor)) static void srgb_tables(void)
{
    for (unsigned v = 0; v < 256; v++) {
        srgb_decode8[v] = gfx_srgb_decode((float)v / 255.0f);
        uint32_t lo = 0, hi = 0x3f800000;           /* +0 .. 1.0, as ordered float bits */
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (srgb8_formula(bitsf(mid)) >= v)
                hi = mid;
            else
                lo = mid + 1;
        }
        srgb_enc_min[v] = lo;
    }
}

uint32_t gfx_srgb_float_to_unorm8(float l)
{
    if (!(l > 0.0f))
        return 0;
    if (l >= 1.0f)
        return 255;
    uint32_t u = fbits(l), v = 0;
    for (uint32_t step = 128; step; step >>= 1)     /* largest v with enc_min[v] <= u */
        if (srgb_enc_min[v + step] <= u)          /* v + step <= 255: the steps add up to 255 */
            v += step;
    return v;
}

static inline uint8_t u8c(const gfx_color *c, unsigned i, int srgb)
{
    return (uint8_t)(srgb && i < 3 ? gfx_srgb_float_to_unorm8(c->f[i]) : gfx_float_to_unorm(c->f[i], 8));
}

static inline float u8f(uint8_t v, unsigned i, int srgb)
{
    return srgb && i < 3 ? srgb_decode8[v] : unorm_to_float(v, 8);
}

/* n channels, memory order ord[] (colour channel of each byte), sRGB or not */
#define UNORM8(NAME, N, SRGB, O0, O1, O2, O3)                                                     \
    static void pack_##NAME(const gfx_color *c, uint8_t *d)                                       \
    {                                                                                             \
        static const uint8_t ord[4] = { O0, O1, O2, O3 };                                         \
        for (unsigned k = 0; k < N; k++)                                                          \
            d[k] = u8c(c, ord[k], SRGB);                                                          \
    }                                                                                             \
    static void unpack_##NAME(const uint8_t *s, gfx_color *c)                                     \
    {                                                                                             \
        static const uint8_t ord[4] = { O0, O1, O2, O3 };                                         \
        for (unsigned k = 0; k < N; k++)                                                          \
            c->f[ord[k]] = u8f(s[k], ord[k], SRGB);                                               \
        defaults(c, N, FONE);                                                                     \
    }

UNORM8(rgba8, 4, 0, 0, 1, 2, 3)
UNORM8(rgba8_srgb, 4, 1, 0, 1, 2, 3)
UNORM8(bgra8, 4, 0, 2, 1, 0, 3)
UNORM8(bgra8_srgb, 4, 1, 2, 1, 0, 3)
UNORM8(rgb8, 3, 0, 0, 1, 2, 3)
UNORM8(rg8, 2, 0, 0, 1, 2, 3)
UNORM8(r8, 1, 0, 0, 1, 2, 3)

/* ---- packed unorm: channel widths from the least significant bit ---------------------------- */

#define PACKED(NAME, BYTES, N, B0, B1, B2, B3)                                                     \
    static void pack_##NAME(const gfx_color *c, uint8_t *d)                                       \
    {                                                                                             \
        static const uint8_t w[4] = { B0, B1, B2, B3 };                                           \
        uint32_t v = 0;                                                                           \
        for (unsigned k = 0, sh = 0; k < N; sh += w[k], k++)                                      \
            v |= gfx_float_to_unorm(c->f[k], w[k]) << sh;                                         \
        if (BYTES == 2)                                                                           \
            put16(d, v);                                                                          \
        else                                                                                      \
            put32(d, v);                                                                          \
    }                                                                                             \
    static void unpack_##NAME(const uint8_t *s, gfx_color *c)                                     \
    {                                                                                             \
        static const uint8_t w[4] = { B0, B1, B2, B3 };                                           \
        uint32_t v = BYTES == 2 ? get16(s) : get32(s);                                            \
        for (unsigned k = 0, sh = 0; k < N; sh += w[k], k++)                                      \
            c->f[k] = unorm_to_float(v >> sh & ((1u << w[k]) - 1), w[k]);                         \
        defaults(c, N, FONE);                                                                     \
    }

PACKED(rgb565, 2, 3, 5, 6, 5, 0)
PACKED(rgba4, 2, 4, 4, 4, 4, 4)
PACKED(rgb5a1, 2, 4, 5, 5, 5, 1)
PACKED(rgb10a2, 4, 4, 10, 10, 10, 2)

static void pack_rgb10a2ui(const gfx_color *c, uint8_t *d)
{
    put32(d, clamp_u(c->u[0], 10) | clamp_u(c->u[1], 10) << 10 | clamp_u(c->u[2], 10) << 20 |
             clamp_u(c->u[3], 2) << 30);
}

static void unpack_rgb10a2ui(const uint8_t *s, gfx_color *c)
{
    uint32_t v = get32(s);
    c->u[0] = v & 1023;
    c->u[1] = v >> 10 & 1023;
    c->u[2] = v >> 20 & 1023;
    c->u[3] = v >> 30;
}

static void pack_r11g11b10f(const gfx_color *c, uint8_t *d)
{
    put32(d, gfx_float_to_ufloat(c->f[0], 6) | gfx_float_to_ufloat(c->f[1], 6) << 11 |
             gfx_float_to_ufloat(c->f[2], 5) << 22);
}

static void unpack_r11g11b10f(const uint8_t *s, gfx_color *c)
{
    uint32_t v = get32(s);
    c->f[0] = gfx_ufloat_to_float(v & 0x7ff, 6);
    c->f[1] = gfx_ufloat_to_float(v >> 11 & 0x7ff, 6);
    c->f[2] = gfx_ufloat_to_float(v >> 22, 5);
    c->u[3] = FONE;
}

/* ---- float and integer channels ---------------------------------------------------------------- */

#define F16(NAME, N)                                                                              \
    static void pack_##NAME(const gfx_color *c, uint8_t *d)                                       \
    {                                                                                             \
        for (unsigned k = 0; k < N; k++)                                                          \
            put16(d + 2 * k, gfx_float_to_half(c->f[k]));                                         \
    }                                                                                             \
    static void unpack_##NAME(const uint8_t *s, gfx_color *c)                                     \
    {                                                                                             \
        for (unsigned k = 0; k < N; k++)                                                          \
            c->f[k] = gfx_half_to_float((uint16_t)get16(s + 2 * k));                              \
        defaults(c, N, FONE);                                                                     \
    }

#define F32(NAME, N)                                                                              \
    static void pack_##NAME(const gfx_color *c, uint8_t *d) { memcpy(d, c->u, 4 * N); }            \
    static void unpack_##NAME(const uint8_t *s, gfx_color *c)                                     \
    {                                                                                             \
        memcpy(c->u, s, 4 * N);                                                                   \
        defaults(c, N, FONE);                                                                     \
    }

/* integer channels of BITS bits, unsigned (U) or signed (S), saturated */
#define INT(NAME, N, BITS, SIGNED)                                                                \
    static void pack_##NAME(const gfx_color *c, uint8_t *d)                                       \
    {                                                                                             \
        for (unsigned k = 0; k < N; k++) {                                                        \
            uint32_t v = SIGNED ? (uint32_t)clamp_s(c->i[k], BITS) : clamp_u(c->u[k], BITS);       \
            if (BITS == 8)                                                                        \
                d[k] = (uint8_t)v;                                                                \
            else if (BITS == 16)                                                                  \
                put16(d + 2 * k, v);                                                              \
            else                                                                                  \
                put32(d + 4 * k, v);                                                              \
        }                                                                                         \
    }                                                                                             \
    static void unpack_##NAME(const uint8_t *s, gfx_color *c)                                     \
    {                                                                                             \
        for (unsigned k = 0; k < N; k++) {                                                        \
            if (BITS == 8)                                                                        \
                c->i[k] = SIGNED ? (int8_t)s[k] : (int32_t)s[k];                                  \
            else if (BITS == 16)                                                                  \
                c->i[k] = SIGNED ? (int16_t)get16(s + 2 * k) : (int32_t)get16(s + 2 * k);          \
            else                                                                                  \
                c->u[k] = get32(s + 4 * k);                                                       \
        }                                                                                         \
        defaults(c, N, 1);                                                                        \
    }

F16(r16f, 1) F16(rg16f, 2) F16(rgba16f, 4)
F32(r32f, 1) F32(rg32f, 2) F32(rgba32f, 4)
INT(r8ui, 1, 8, 0) INT(rg8ui, 2, 8, 0) INT(rgba8ui, 4, 8, 0)
INT(r8i, 1, 8, 1) INT(rg8i, 2, 8, 1) INT(rgba8i, 4, 8, 1)
INT(r16ui, 1, 16, 0) INT(rg16ui, 2, 16, 0) INT(rgba16ui, 4, 16, 0)
INT(r16i, 1, 16, 1) INT(rg16i, 2, 16, 1) INT(rgba16i, 4, 16, 1)
INT(r32ui, 1, 32, 0) INT(rg32ui, 2, 32, 0) INT(rgba32ui, 4, 32, 0)
INT(r32i, 1, 32, 1) INT(rg32i, 2, 32, 1) INT(rgba32i, 4, 32, 1)

/* ---- the table ---------------------------------------------------------------------------------- */

#define E(F, NAME, BPP, N, KIND, SRGB, B0, B1, B2, B3) \
    [F] = { #NAME, pack_##NAME, unpack_##NAME, BPP, N, KIND, SRGB, { B0, B1, B2, B3 } }

static const gfx_format_info formats[GFX_FMT_COUNT] = {
    E(GFX_FMT_RGBA8_UNORM, rgba8, 4, 4, GFX_KIND_UNORM, 0, 8, 8, 8, 8),
    E(GFX_FMT_RGBA8_SRGB, rgba8_srgb, 4, 4, GFX_KIND_UNORM, 1, 8, 8, 8, 8),
    E(GFX_FMT_BGRA8_UNORM, bgra8, 4, 4, GFX_KIND_UNORM, 0, 8, 8, 8, 8),
    E(GFX_FMT_BGRA8_SRGB, bgra8_srgb, 4, 4, GFX_KIND_UNORM, 1, 8, 8, 8, 8),
    E(GFX_FMT_RGB8_UNORM, rgb8, 3, 3, GFX_KIND_UNORM, 0, 8, 8, 8, 0),
    E(GFX_FMT_RG8_UNORM, rg8, 2, 2, GFX_KIND_UNORM, 0, 8, 8, 0, 0),
    E(GFX_FMT_R8_UNORM, r8, 1, 1, GFX_KIND_UNORM, 0, 8, 0, 0, 0),
    E(GFX_FMT_RGB565_UNORM, rgb565, 2, 3, GFX_KIND_UNORM, 0, 5, 6, 5, 0),
    E(GFX_FMT_RGBA4_UNORM, rgba4, 2, 4, GFX_KIND_UNORM, 0, 4, 4, 4, 4),
    E(GFX_FMT_RGB5A1_UNORM, rgb5a1, 2, 4, GFX_KIND_UNORM, 0, 5, 5, 5, 1),
    E(GFX_FMT_RGB10A2_UNORM, rgb10a2, 4, 4, GFX_KIND_UNORM, 0, 10, 10, 10, 2),
    E(GFX_FMT_RGB10A2_UINT, rgb10a2ui, 4, 4, GFX_KIND_UINT, 0, 10, 10, 10, 2),
    E(GFX_FMT_R11G11B10_FLOAT, r11g11b10f, 4, 3, GFX_KIND_FLOAT, 0, 11, 11, 10, 0),
    E(GFX_FMT_R16_FLOAT, r16f, 2, 1, GFX_KIND_FLOAT, 0, 16, 0, 0, 0),
    E(GFX_FMT_RG16_FLOAT, rg16f, 4, 2, GFX_KIND_FLOAT, 0, 16, 16, 0, 0),
    E(GFX_FMT_RGBA16_FLOAT, rgba16f, 8, 4, GFX_KIND_FLOAT, 0, 16, 16, 16, 16),
    E(GFX_FMT_R32_FLOAT, r32f, 4, 1, GFX_KIND_FLOAT, 0, 32, 0, 0, 0),
    E(GFX_FMT_RG32_FLOAT, rg32f, 8, 2, GFX_KIND_FLOAT, 0, 32, 32, 0, 0),
    E(GFX_FMT_RGBA32_FLOAT, rgba32f, 16, 4, GFX_KIND_FLOAT, 0, 32, 32, 32, 32),
    E(GFX_FMT_R8_UINT, r8ui, 1, 1, GFX_KIND_UINT, 0, 8, 0, 0, 0),
    E(GFX_FMT_RG8_UINT, rg8ui, 2, 2, GFX_KIND_UINT, 0, 8, 8, 0, 0),
    E(GFX_FMT_RGBA8_UINT, rgba8ui, 4, 4, GFX_KIND_UINT, 0, 8, 8, 8, 8),
    E(GFX_FMT_R8_SINT, r8i, 1, 1, GFX_KIND_SINT, 0, 8, 0, 0, 0),
    E(GFX_FMT_RG8_SINT, rg8i, 2, 2, GFX_KIND_SINT, 0, 8, 8, 0, 0),
    E(GFX_FMT_RGBA8_SINT, rgba8i, 4, 4, GFX_KIND_SINT, 0, 8, 8, 8, 8),
    E(GFX_FMT_R16_UINT, r16ui, 2, 1, GFX_KIND_UINT, 0, 16, 0, 0, 0),
    E(GFX_FMT_RG16_UINT, rg16ui, 4, 2, GFX_KIND_UINT, 0, 16, 16, 0, 0),
    E(GFX_FMT_RGBA16_UINT, rgba16ui, 8, 4, GFX_KIND_UINT, 0, 16, 16, 16, 16),
    E(GFX_FMT_R16_SINT, r16i, 2, 1, GFX_KIND_SINT, 0, 16, 0, 0, 0),
    E(GFX_FMT_RG16_SINT, rg16i, 4, 2, GFX_KIND_SINT, 0, 16, 16, 0, 0),
    E(GFX_FMT_RGBA16_SINT, rgba16i, 8, 4, GFX_KIND_SINT, 0, 16, 16, 16, 16),
    E(GFX_FMT_R32_UINT, r32ui, 4, 1, GFX_KIND_UINT, 0, 32, 0, 0, 0),
    E(GFX_FMT_RG32_UINT, rg32ui, 8, 2, GFX_KIND_UINT, 0, 32, 32, 0, 0),
    E(GFX_FMT_RGBA32_UINT, rgba32ui, 16, 4, GFX_KIND_UINT, 0, 32, 32, 32, 32),
    E(GFX_FMT_R32_SINT, r32i, 4, 1, GFX_KIND_SINT, 0, 32, 0, 0, 0),
    E(GFX_FMT_RG32_SINT, rg32i, 8, 2, GFX_KIND_SINT, 0, 32, 32, 0, 0),
    E(GFX_FMT_RGBA32_SINT, rgba32i, 16, 4, GFX_KIND_SINT, 0, 32, 32, 32, 32),
};

const gfx_format_info *gfx_format_get(gfx_format f)
{
    if ((unsigned)f >= GFX_FMT_COUNT || !formats[f].pack)
        return NULL;
    return &formats[f];
}

void gfx_swizzle_for_write(uint32_t swz, const gfx_color *in, gfx_color *out, uint32_t one)
{
    gfx_color t;
    for (unsigned i = 0; i < 4; i++) {
        unsigned s = swz >> (3 * i) & 7;
        t.u[i] = s < 4 ? in->u[s] : s == 5 ? one : 0;
    }
    *out = t;
}

/* genxml Color Format (writeback) codes of the blendable formats */
gfx_format gfx_format_from_writeback(unsigned cf, unsigned srgb)
{
    switch (cf) {
    case 16: return srgb ? GFX_FMT_NONE : GFX_FMT_R8_UNORM;
    case 17: return srgb ? GFX_FMT_NONE : GFX_FMT_RG8_UNORM;
    case 18: return srgb ? GFX_FMT_NONE : GFX_FMT_RGB8_UNORM;
    case 19: return srgb ? GFX_FMT_RGBA8_SRGB : GFX_FMT_RGBA8_UNORM;
    case 20: return srgb ? GFX_FMT_NONE : GFX_FMT_RGBA4_UNORM;
    case 21: return srgb ? GFX_FMT_NONE : GFX_FMT_RGB565_UNORM;
    case 24: return srgb ? GFX_FMT_NONE : GFX_FMT_RGB10A2_UNORM;
    case 28: return srgb ? GFX_FMT_NONE : GFX_FMT_RGB5A1_UNORM;
    default: return GFX_FMT_NONE;
    }
}

/* genxml "Format" codes (identical on v6 and v7 for these): the memory formats, and the
 * tile-buffer ("TB", "AU"/"PU": dithered or not) formats panfrost names for blendable targets. */
gfx_format gfx_format_from_mali(unsigned mf, unsigned srgb)
{
    static const struct { uint8_t code, fmt; } t[] = {
        { 64, GFX_FMT_RGB565_UNORM }, { 65, GFX_FMT_RGB5A1_UNORM }, { 67, GFX_FMT_RGB10A2_UNORM },
        { 71, GFX_FMT_RGB10A2_UINT }, { 89, GFX_FMT_R11G11B10_FLOAT },
        { 131, GFX_FMT_R8_UINT }, { 139, GFX_FMT_RG8_UINT }, { 155, GFX_FMT_RGBA8_UINT },
        { 132, GFX_FMT_R16_UINT }, { 140, GFX_FMT_RG16_UINT }, { 156, GFX_FMT_RGBA16_UINT },
        { 133, GFX_FMT_R32_UINT }, { 141, GFX_FMT_RG32_UINT }, { 157, GFX_FMT_RGBA32_UINT },
        { 195, GFX_FMT_R8_SINT }, { 203, GFX_FMT_RG8_SINT }, { 219, GFX_FMT_RGBA8_SINT },
        { 196, GFX_FMT_R16_SINT }, { 204, GFX_FMT_RG16_SINT }, { 220, GFX_FMT_RGBA16_SINT },
        { 197, GFX_FMT_R32_SINT }, { 205, GFX_FMT_RG32_SINT }, { 221, GFX_FMT_RGBA32_SINT },
        { 163, GFX_FMT_R8_UNORM }, { 171, GFX_FMT_RG8_UNORM }, { 179, GFX_FMT_RGB8_UNORM },
        { 186, GFX_FMT_RGBA4_UNORM }, { 187, GFX_FMT_RGBA8_UNORM },
        { 199, GFX_FMT_R16_FLOAT }, { 207, GFX_FMT_RG16_FLOAT }, { 223, GFX_FMT_RGBA16_FLOAT },
        { 167, GFX_FMT_R32_FLOAT }, { 175, GFX_FMT_RG32_FLOAT }, { 191, GFX_FMT_RGBA32_FLOAT },
        { 224, GFX_FMT_RGB5A1_UNORM }, { 225, GFX_FMT_RGB5A1_UNORM },      /* RGB5 A1 AU / PU */
        { 226, GFX_FMT_RGB565_UNORM }, { 227, GFX_FMT_RGB565_UNORM },      /* R5G6B5 AU / PU */
        { 232, GFX_FMT_RGBA4_UNORM }, { 233, GFX_FMT_RGBA4_UNORM },        /* RGBA4 AU / PU */
        { 237, GFX_FMT_RGBA8_UNORM }, { 238, GFX_FMT_RGB10A2_UNORM },      /* RGBA8 / RGB10 A2 TB */
    };
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].code == mf) {
            if (!srgb)
                return (gfx_format)t[i].fmt;
            return t[i].fmt == GFX_FMT_RGBA8_UNORM ? GFX_FMT_RGBA8_SRGB : GFX_FMT_NONE;
        }
    return GFX_FMT_NONE;
}

/* ---- tile-buffer words of the blendable internal formats ------------------------------------- */

/* integer and fraction bits of R, G, B, A per internal format code 1-6 */
static const uint8_t tib_bits[7][8] = {
    { 0 }, { 8, 0, 8, 0, 8, 0, 8, 0 }, { 10, 0, 10, 0, 10, 0, 2, 0 }, { 8, 2, 8, 2, 8, 2, 2, 0 },
    { 4, 4, 4, 4, 4, 4, 4, 4 }, { 5, 5, 6, 4, 5, 5, 0, 2 }, { 5, 5, 5, 5, 5, 5, 1, 1 },
};

int gfx_tib_unpack(unsigned internal, uint32_t word, int srgb, float rgba[4])
{
    if (internal < 1 || internal > 6)
        return -1;
    for (unsigned c = 0, sh = 0; c < 4; c++) {
        unsigned m = tib_bits[internal][2 * c], n = tib_bits[internal][2 * c + 1];
        uint32_t field = word >> sh & ((1u << (m + n)) - 1);
        sh += m + n;
        if (!m) {
            rgba[c] = 1.0f;
            continue;
        }
        float v = n ? (float)((double)field / ((double)((1u << m) - 1) * (double)(1u << n)))
                    : unorm_to_float(field, m);
        rgba[c] = srgb && c < 3 ? (m == 8 && !n ? srgb_decode8[field] : gfx_srgb_decode(v)) : v;
    }
    return 0;
}

uint32_t gfx_tib_pack(unsigned internal, const float rgba[4], int srgb)
{
    if (internal < 1 || internal > 6)
        return 0;
    uint32_t w = 0;
    for (unsigned c = 0, sh = 0; c < 4; c++) {
        unsigned m = tib_bits[internal][2 * c], n = tib_bits[internal][2 * c + 1];
        if (m) {
            uint32_t v = srgb && c < 3 ? (m == 8 ? gfx_srgb_float_to_unorm8(rgba[c])
                                                 : gfx_float_to_unorm(gfx_srgb_encode(rgba[c]), m))
                                       : gfx_float_to_unorm(rgba[c], m);
            w |= v << n << sh;
        }
        sh += m + n;
    }
    return w;
}

unsigned gfx_tib_write(unsigned internal, unsigned wb, const uint8_t swz[4], uint32_t word, uint8_t *out)
{
    static const struct { uint8_t code, n, bits[4]; } wbf[] = {
        { 16, 1, { 8 } }, { 17, 2, { 8, 8 } }, { 18, 3, { 8, 8, 8 } }, { 19, 4, { 8, 8, 8, 8 } },
        { 20, 4, { 4, 4, 4, 4 } }, { 21, 3, { 5, 6, 5 } }, { 24, 4, { 10, 10, 10, 2 } }, { 28, 4, { 5, 5, 5, 1 } },
    };
    unsigned f = 0;
    while (f < sizeof wbf / sizeof wbf[0] && wbf[f].code != wb)
        f++;
    if (internal < 1 || internal > 6 || f == sizeof wbf / sizeof wbf[0])
        return 0;
    /* the word's channels on their integer bits, rounded to nearest from the fraction bits */
    uint32_t val[4], width[4];
    for (unsigned c = 0, sh = 0; c < 4; c++) {
        unsigned m = tib_bits[internal][2 * c], n = tib_bits[internal][2 * c + 1];
        uint32_t field = word >> sh & ((1u << (m + n)) - 1), max = (1u << m) - 1;
        sh += m + n;
        uint32_t v = n ? (field + (1u << (n - 1))) >> n : field;
        val[c] = v > max ? max : v;
        width[c] = m;
    }
    uint64_t packed = 0;
    unsigned sh = 0;
    for (unsigned i = 0; i < wbf[f].n; i++) {
        unsigned b = wbf[f].bits[i], s = swz[i];
        uint32_t mmax = (1u << b) - 1, v;
        if (s < 4 && width[s]) {            /* rescale when the widths differ (exact when equal) */
            uint32_t imax = (1u << width[s]) - 1;
            v = width[s] == b ? val[s] : (uint32_t)(((uint64_t)val[s] * mmax * 2 + imax) / (2 * imax));
        } else {
            v = s == 5 || (s == 3 && !width[s]) ? mmax : 0;     /* one, or an alpha the format lacks */
        }
        packed |= (uint64_t)v << sh;
        sh += b;
    }
    unsigned bytes = (sh + 7) / 8;
    for (unsigned i = 0; i < bytes; i++)
        out[i] = (uint8_t)(packed >> (8 * i));
    return bytes;
}

/* ---- depth / stencil ------------------------------------------------------------------------------ */

unsigned gfx_zs_bpp(gfx_zs_format f)
{
    static const uint8_t bpp[GFX_ZS_COUNT] = { 0, 2, 4, 4, 4, 1 };
    return (unsigned)f < GFX_ZS_COUNT ? bpp[f] : 0;
}

void gfx_zs_pack_depth(gfx_zs_format f, float d, uint8_t *p)
{
    switch (f) {
    case GFX_ZS_D16:
        put16(p, gfx_float_to_unorm(d, 16));
        break;
    case GFX_ZS_D24X8:
    case GFX_ZS_D24S8:
        put32(p, (get32(p) & 0xff000000u) | gfx_float_to_unorm(d, 24));
        break;
    case GFX_ZS_D32F:
        memcpy(p, &d, 4);
        break;
    default:
        break;
    }
}

float gfx_zs_unpack_depth(gfx_zs_format f, const uint8_t *p)
{
    switch (f) {
    case GFX_ZS_D16: return unorm_to_float(get16(p), 16);
    case GFX_ZS_D24X8:
    case GFX_ZS_D24S8: return unorm_to_float(get32(p) & 0xffffff, 24);
    case GFX_ZS_D32F: { float d; memcpy(&d, p, 4); return d; }
    default: return 0.0f;
    }
}

void gfx_zs_pack_stencil(gfx_zs_format f, uint8_t s, uint8_t *p)
{
    if (f == GFX_ZS_D24S8)
        p[3] = s;
    else if (f == GFX_ZS_S8)
        p[0] = s;
}

uint8_t gfx_zs_unpack_stencil(gfx_zs_format f, const uint8_t *p)
{
    return f == GFX_ZS_D24S8 ? p[3] : f == GFX_ZS_S8 ? p[0] : 0;
}

gfx_zs_format gfx_zs_from_mali_zs(unsigned zs)
{
    switch (zs) {
    case 1: return GFX_ZS_D16;
    case 4: return GFX_ZS_D24X8;
    case 5: return GFX_ZS_D24S8;
    case 14: return GFX_ZS_D32F;
    default: return GFX_ZS_NONE;        /* D24, X8D24, S8D24, D32_X8X24, D32_S8X24: not written by panfrost's GLES paths here */
    }
}

gfx_zs_format gfx_zs_from_mali_s(unsigned s)
{
    switch (s) {
    case 1: return GFX_ZS_S8;
    case 4: return GFX_ZS_D24S8;        /* X24S8: stencil in the top byte of the D24S8 word */
    default: return GFX_ZS_NONE;
    }
}
