/* Bifrost's fixed-function blender (emu/gpu/gfx_blend.c) against GL's blend formulas.
 *
 * The test carries its own model of how Mesa's panfrost turns a GL blend equation into the hardware
 * one (written from reading src/panfrost/lib/pan_blend.c: which equations are fixed function, and
 * the A / B / C operands with negate / invert it picks).  For every GL ES equation and every pair
 * of factors, for the RGB and the alpha groups, it builds the Blend descriptor that mapping gives,
 * runs gfx_blend on random colours and compares with GL's formula computed directly in double;
 * equations Mesa sends to blend shaders (MIN, MAX, SRC_ALPHA_SATURATE, factor pairs the hardware
 * cannot express) must be refused by the model, and are counted. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gfx_blend.h"

/* A check inside the long loops: Check's ck_assert* records every passing assertion with a
 * system call, which millions of them turn into seconds; this one costs nothing until it fails. */
#define EXPECT(cond, ...)                                                                          \
    do {                                                                                          \
        if (!(cond))                                                                              \
            ck_abort_msg(__VA_ARGS__);                                                            \
    } while (0)

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}
static float rndf(float lo, float hi) { return lo + (hi - lo) * (float)(rnd() & 0xffffff) / (float)0xffffff; }

/* ---- GL ------------------------------------------------------------------------------------------ */

enum { ADD, SUBTRACT, REVERSE_SUBTRACT, MIN, MAX, NFUNC };
enum { ZERO, ONE, SRC_COLOR, ONE_MINUS_SRC_COLOR, DST_COLOR, ONE_MINUS_DST_COLOR, SRC_ALPHA, ONE_MINUS_SRC_ALPHA,
       DST_ALPHA, ONE_MINUS_DST_ALPHA, CONSTANT_COLOR, ONE_MINUS_CONSTANT_COLOR, CONSTANT_ALPHA,
       ONE_MINUS_CONSTANT_ALPHA, SRC_ALPHA_SATURATE, NFACTOR };
static const char *const fnames[NFACTOR] = { "0", "1", "Sc", "1-Sc", "Dc", "1-Dc", "Sa", "1-Sa", "Da", "1-Da",
                                             "Kc", "1-Kc", "Ka", "1-Ka", "sat" };
static const char *const funcnames[NFUNC] = { "add", "sub", "revsub", "min", "max" };

/* GL ES 3.2 table 15.2: the factor for channel c (3 = alpha) */
static double gl_factor(int f, int c, const double s[4], const double d[4], const double k[4])
{
    switch (f) {
    case ZERO: return 0;
    case ONE: return 1;
    case SRC_COLOR: return s[c];
    case ONE_MINUS_SRC_COLOR: return 1 - s[c];
    case DST_COLOR: return d[c];
    case ONE_MINUS_DST_COLOR: return 1 - d[c];
    case SRC_ALPHA: return s[3];
    case ONE_MINUS_SRC_ALPHA: return 1 - s[3];
    case DST_ALPHA: return d[3];
    case ONE_MINUS_DST_ALPHA: return 1 - d[3];
    case CONSTANT_COLOR: return k[c];
    case ONE_MINUS_CONSTANT_COLOR: return 1 - k[c];
    case CONSTANT_ALPHA: return k[3];
    case ONE_MINUS_CONSTANT_ALPHA: return 1 - k[3];
    default: return c == 3 ? 1 : fmin(s[3], 1 - d[3]);
    }
}

static double gl_blend(int func, int sf, int df, int c, const double s[4], const double d[4], const double k[4])
{
    double a = s[c] * gl_factor(sf, c, s, d, k), b = d[c] * gl_factor(df, c, s, d, k), r;
    switch (func) {
    case ADD: r = a + b; break;
    case SUBTRACT: r = a - b; break;
    case REVERSE_SUBTRACT: r = b - a; break;
    case MIN: r = fmin(s[c], d[c]); break;
    default: r = fmax(s[c], d[c]); break;
    }
    return r < 0 ? 0 : r > 1 ? 1 : r;      /* unorm target: GL clamps the result */
}

/* ---- the model of Mesa's mapping (pan_blend.c) -------------------------------------------------- */

/* Gallium's view of a factor: a base and an "inverted" (one minus) flag, ZERO being inverted ONE. */
enum { B_ONE, B_SRC_COLOR, B_DST_COLOR, B_SRC_ALPHA, B_DST_ALPHA, B_CONST_COLOR, B_CONST_ALPHA, B_SAT };
static void split(int f, int *base, int *inv)
{
    static const int8_t b[NFACTOR] = { B_ONE, B_ONE, B_SRC_COLOR, B_SRC_COLOR, B_DST_COLOR, B_DST_COLOR,
                                       B_SRC_ALPHA, B_SRC_ALPHA, B_DST_ALPHA, B_DST_ALPHA, B_CONST_COLOR,
                                       B_CONST_COLOR, B_CONST_ALPHA, B_CONST_ALPHA, B_SAT };
    static const int8_t i[NFACTOR] = { 1, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0 };
    *base = b[f];
    *inv = i[f];
}

static int is_2srcdest(int func, int sf, int df, int alpha)
{
    return func == ADD && (sf == DST_COLOR || (sf == DST_ALPHA && alpha)) &&
           (df == SRC_COLOR || (df == SRC_ALPHA && alpha));
}

/* can this group run in fixed function (Bifrost: the 2 * src * dest form is available) */
static int mesa_fixed(int func, int sf, int df, int alpha)
{
    if (is_2srcdest(func, sf, df, alpha))
        return 1;
    if (func != ADD && func != SUBTRACT && func != REVERSE_SUBTRACT)
        return 0;
    int sb, si, db, di;
    split(sf, &sb, &si);
    split(df, &db, &di);
    if (sb == B_SAT || db == B_SAT)
        return 0;
    return sb == db || sb == B_ONE || db == B_ONE;
}

static int c_operand(int base)
{
    switch (base) {
    case B_ONE: return GFX_BLEND_C_ZERO;         /* inverted once more by the caller */
    case B_SRC_ALPHA: return GFX_BLEND_C_SRC_ALPHA;
    case B_DST_ALPHA: return GFX_BLEND_C_DEST_ALPHA;
    case B_SRC_COLOR: return GFX_BLEND_C_SRC;
    case B_DST_COLOR: return GFX_BLEND_C_DEST;
    default: return GFX_BLEND_C_CONSTANT;
    }
}

static gfx_blend_function mesa_function(int func, int sf, int df, int alpha)
{
    gfx_blend_function f = { 0 };
    int sb, si, db, di;
    split(sf, &sb, &si);
    split(df, &db, &di);
    int s_inv = si ^ (sb == B_ONE), d_inv = di ^ (db == B_ONE);
    if (sf == ZERO) {
        f.a = GFX_BLEND_A_ZERO, f.b = GFX_BLEND_B_DEST, f.negate_b = func == SUBTRACT;
        f.invert_c = (uint8_t)d_inv, f.c = (uint8_t)c_operand(db);
    } else if (sf == ONE) {
        f.a = GFX_BLEND_A_SRC, f.b = GFX_BLEND_B_DEST;
        f.negate_b = func == SUBTRACT, f.negate_a = func == REVERSE_SUBTRACT;
        f.invert_c = (uint8_t)d_inv, f.c = (uint8_t)c_operand(db);
    } else if (df == ZERO) {
        f.a = GFX_BLEND_A_ZERO, f.b = GFX_BLEND_B_SRC, f.negate_b = func == REVERSE_SUBTRACT;
        f.invert_c = (uint8_t)s_inv, f.c = (uint8_t)c_operand(sb);
    } else if (df == ONE) {
        f.a = GFX_BLEND_A_DEST, f.b = GFX_BLEND_B_SRC;
        f.negate_a = func == SUBTRACT, f.negate_b = func == REVERSE_SUBTRACT;
        f.invert_c = (uint8_t)s_inv, f.c = (uint8_t)c_operand(sb);
    } else if (sf == df) {
        f.a = GFX_BLEND_A_ZERO, f.invert_c = (uint8_t)s_inv, f.c = (uint8_t)c_operand(sb);
        f.b = func == ADD ? GFX_BLEND_B_SRC_PLUS_DEST : GFX_BLEND_B_SRC_MINUS_DEST;
        f.negate_b = func == REVERSE_SUBTRACT;
    } else if (is_2srcdest(func, sf, df, alpha)) {
        f.a = GFX_BLEND_A_ZERO, f.b = GFX_BLEND_B_DEST, f.c = GFX_BLEND_C_SRC_X_2;
    } else {                                    /* same base, one of them inverted */
        f.a = GFX_BLEND_A_DEST, f.invert_c = (uint8_t)s_inv, f.c = (uint8_t)c_operand(sb);
        f.b = func == ADD ? GFX_BLEND_B_SRC_MINUS_DEST : GFX_BLEND_B_SRC_PLUS_DEST;
        f.negate_b = func == REVERSE_SUBTRACT, f.negate_a = func == SUBTRACT;
    }
    return f;
}

/* A Blend descriptor as panfrost fills it for fixed-function blending of an RGBA8 target. */
static void descriptor(uint32_t d[4], const gfx_blend_equation *eq, uint16_t constant, unsigned mode)
{
    d[0] = 1u << 9 | (uint32_t)constant << 16;          /* enable, constant */
    d[1] = gfx_blend_equation_pack(eq);
    d[2] = mode | (4 - 1) << 3;                          /* mode, num_comps - 1 */
    d[3] = 237u << 12 | 1u << 24;                        /* RGBA8 TB memory format, F32 registers */
}

/* Runs every (func, src factor, dst factor) of one group, the other group fixed to a replace. */
static void sweep(int alpha_group, unsigned *fixed, unsigned *shader)
{
    for (int func = 0; func < NFUNC; func++)
        for (int sf = 0; sf < NFACTOR; sf++)
            for (int df = 0; df < NFACTOR; df++) {
                if (!mesa_fixed(func, sf, df, alpha_group)) {
                    /* what Mesa sends to a blend shader */
                    int sb, si, db, di;
                    split(sf, &sb, &si);
                    split(df, &db, &di);
                    ck_assert(func == MIN || func == MAX || sb == B_SAT || db == B_SAT ||
                              (sb != db && sb != B_ONE && db != B_ONE));
                    (*shader)++;
                    continue;
                }
                (*fixed)++;
                gfx_blend_equation eq = { .color_mask = 0xf };
                gfx_blend_function replace = mesa_function(ADD, ONE, ZERO, !alpha_group);
                if (alpha_group)
                    eq.alpha = mesa_function(func, sf, df, 1), eq.rgb = replace;
                else
                    eq.rgb = mesa_function(func, sf, df, 0), eq.alpha = replace;
                for (unsigned n = 0; n < 64; n++) {
                    uint16_t field = (uint16_t)((rnd() & 255) << 8);
                    uint32_t desc[4];
                    descriptor(desc, &eq, field, GFX_BLEND_MODE_FIXED);
                    gfx_blend_state st;
                    ck_assert_int_eq(gfx_blend_state_init(&st, desc, 8, 1), 0);
                    double kk = (field >> 8) / 255.0, k[4] = { kk, kk, kk, kk }, s[4], d[4];
                    float src[4], dst[4];
                    for (unsigned c = 0; c < 4; c++) {
                        src[c] = rndf(-0.25f, 1.25f);                   /* clamped by GL and by gfx_blend */
                        dst[c] = (float)(rnd() & 255) / 255.0f;         /* tile values of an RGBA8 target */
                        s[c] = src[c] < 0 ? 0 : src[c] > 1 ? 1 : src[c];
                        d[c] = dst[c];
                    }
                    gfx_blend_apply(&st, src, dst);
                    for (unsigned c = 0; c < 4; c++) {
                        int grp = (c == 3) == alpha_group;
                        double want = grp ? gl_blend(func, sf, df, c, s, d, k) : s[c];
                        EXPECT(fabs(dst[c] - want) <= 2e-6,
                                      "%s %s(%s, %s) channel %u: src %g dst %g k %g -> %.9g, GL %.9g",
                                      alpha_group ? "alpha" : "rgb", funcnames[func], fnames[sf], fnames[df], c,
                                      s[c], d[c], kk, dst[c], want);
                    }
                }
            }
}

START_TEST(test_every_gl_equation)
{
    unsigned fixed_rgb = 0, shader_rgb = 0, fixed_a = 0, shader_a = 0;
    sweep(0, &fixed_rgb, &shader_rgb);
    sweep(1, &fixed_a, &shader_a);
    printf("gfx_blend: RGB %u equations fixed function, %u blend shader; alpha %u / %u\n", fixed_rgb, shader_rgb,
           fixed_a, shader_a);
    /* By hand from Mesa's rules: of the 14 factors other than SRC_ALPHA_SATURATE (7 bases, each
     * plain and "one minus"), a pair is fixed function when the bases match (7 * 4 = 28) or one
     * side is ZERO / ONE (2 * 12 twice = 48): 76 pairs for each of ADD, SUBTRACT, REVERSE_SUBTRACT,
     * plus ADD(DST_COLOR, SRC_COLOR) as 2 * src * dest: 229.  Alpha adds the DST_ALPHA / SRC_ALPHA
     * forms of that: (Da, Sa), (Da, Sc), (Dc, Sa): 232.  The rest, MIN and MAX included, are shaders. */
    ck_assert_uint_eq(fixed_rgb, 229);
    ck_assert_uint_eq(fixed_a, 232);
    ck_assert_uint_eq(fixed_rgb + shader_rgb, NFUNC * NFACTOR * NFACTOR);
    ck_assert_uint_eq(fixed_a + shader_a, NFUNC * NFACTOR * NFACTOR);
}
END_TEST

START_TEST(test_equation_word)
{
    /* panfrost's "replace" (blending off): A = SRC, B = SRC, C = ZERO for both, mask RGBA:
     * function 2 | 2 << 4 | 1 << 8 = 0x122, word 0x122 | 0x122 << 12 | 0xf << 28 */
    gfx_blend_equation eq = { .rgb = { .a = 2, .b = 2, .c = 1 }, .alpha = { .a = 2, .b = 2, .c = 1 }, .color_mask = 15 };
    ck_assert_uint_eq(gfx_blend_equation_pack(&eq), 0xf0122122u);
    /* negate A bit 3, negate B bit 7, invert C bit 11 */
    gfx_blend_equation e2;
    gfx_blend_equation_unpack(0x50000888u | 0x3u | 0x3u << 12, &e2);
    ck_assert(e2.rgb.negate_a && e2.rgb.negate_b && e2.rgb.invert_c && e2.rgb.a == 3);
    ck_assert(!e2.alpha.negate_a && !e2.alpha.negate_b && !e2.alpha.invert_c && e2.alpha.a == 3);
    ck_assert_uint_eq(e2.color_mask, 5);
    for (unsigned n = 0; n < 10000; n++) {
        uint32_t w = rnd() << 16 ^ rnd();
        w &= 0xf0000000u | 0xfbb | 0xfbb << 12;     /* bits 2 and 6 of each function are unused */
        gfx_blend_equation_unpack(w, &e2);
        ck_assert_uint_eq(gfx_blend_equation_pack(&e2), w);
    }
}
END_TEST

START_TEST(test_constant)
{
    /* pan_pack_blend_constant: unorm of the channel size in the top bits of 16 */
    ck_assert_float_eq(gfx_blend_constant_value(0x8000, 8), 128.0f / 255);
    ck_assert_float_eq(gfx_blend_constant_value(0xff00, 8), 1.0f);
    ck_assert_float_eq(gfx_blend_constant_value(0xffc0, 10), 1.0f);
    ck_assert_float_eq(gfx_blend_constant_value(511u << 6, 10), 511.0f / 1023);
    ck_assert_float_eq(gfx_blend_constant_value(7u << 12, 4), 7.0f / 15);
    ck_assert_float_eq(gfx_blend_constant_value(0x1234, 0), 0.0f);
}
END_TEST

START_TEST(test_mask_modes)
{
    /* SRC_ALPHA, ONE_MINUS_SRC_ALPHA over an RGBA8 target with only G and A written */
    gfx_blend_equation eq = { .rgb = mesa_function(ADD, SRC_ALPHA, ONE_MINUS_SRC_ALPHA, 0),
                              .alpha = mesa_function(ADD, SRC_ALPHA, ONE_MINUS_SRC_ALPHA, 1), .color_mask = 0xa };
    uint32_t d[4];
    descriptor(d, &eq, 0, GFX_BLEND_MODE_FIXED);
    gfx_blend_state st;
    ck_assert_int_eq(gfx_blend_state_init(&st, d, 8, 1), 0);
    float src[4] = { 1.0f, 1.0f, 1.0f, 0.25f }, dst[4] = { 0.5f, 0.5f, 0.5f, 1.0f };
    gfx_blend_apply(&st, src, dst);
    ck_assert_float_eq(dst[0], 0.5f);
    ck_assert_float_eq_tol(dst[1], 0.625f, 1e-6f);
    ck_assert_float_eq(dst[2], 0.5f);
    ck_assert_float_eq_tol(dst[3], 0.8125f, 1e-6f);      /* 0.25 * 0.25 + 1 * 0.75 */
    /* the alpha shortcuts give what the equation gives (Mesa sets them only then) */
    d[2] |= 1u << 5 | 1u << 6;
    eq.color_mask = 0xf;
    d[1] = gfx_blend_equation_pack(&eq);
    ck_assert_int_eq(gfx_blend_state_init(&st, d, 8, 1), 0);
    for (unsigned n = 0; n < 1000; n++) {
        float s[4] = { rndf(0, 1), rndf(0, 1), rndf(0, 1), (float)(rnd() % 3) / 2 }, t[4], u[4];
        for (unsigned c = 0; c < 4; c++)
            t[c] = u[c] = rndf(0, 1);
        gfx_blend_apply(&st, s, t);
        gfx_blend_state plain = st;
        plain.alpha_zero_nop = plain.alpha_one_store = 0;
        gfx_blend_apply(&plain, s, u);
        for (unsigned c = 0; c < 4; c++)
            ck_assert_float_eq_tol(t[c], u[c], 1e-6f);
    }
    /* opaque: the (clamped) source, mask not consulted; alpha to one */
    descriptor(d, &eq, 0, GFX_BLEND_MODE_OPAQUE);
    d[0] |= 1u << 8;
    ck_assert_int_eq(gfx_blend_state_init(&st, d, 8, 1), 0);
    float o[4] = { 0, 0, 0, 0 }, so[4] = { 0.25f, 2.0f, -1.0f, 0.5f };
    gfx_blend_apply(&st, so, o);
    ck_assert_float_eq(o[0], 0.25f);
    ck_assert_float_eq(o[1], 1.0f);
    ck_assert_float_eq(o[2], 0.0f);
    ck_assert_float_eq(o[3], 1.0f);
    /* off, by mode or by the enable bit: nothing written */
    descriptor(d, &eq, 0, GFX_BLEND_MODE_OFF);
    ck_assert_int_eq(gfx_blend_state_init(&st, d, 8, 1), 0);
    gfx_blend_apply(&st, so, o);
    ck_assert_float_eq(o[1], 1.0f);
    descriptor(d, &eq, 0, GFX_BLEND_MODE_FIXED);
    d[0] &= ~(1u << 9);
    ck_assert_int_eq(gfx_blend_state_init(&st, d, 8, 1), 0);
    gfx_blend_apply(&st, so, o);
    ck_assert_float_eq(o[0], 0.25f);
    /* a blend shader is the caller's */
    descriptor(d, &eq, 0, GFX_BLEND_MODE_SHADER);
    ck_assert_int_eq(gfx_blend_state_init(&st, d, 8, 1), -1);
    ck_assert_ptr_null(st.fn);
    /* reserved operand encodings are reported and read as zero */
    gfx_blend_equation bad = eq;
    bad.rgb.a = 0;
    bad.rgb.c = 0;
    descriptor(d, &bad, 0, GFX_BLEND_MODE_FIXED);
    ck_assert_int_eq(gfx_blend_state_init(&st, d, 8, 1), -2);
    float z[4] = { 0.5f, 0.5f, 0.5f, 0.5f };
    gfx_blend_apply(&st, so, z);
    ck_assert_float_eq(z[0], 0.0f);
    ck_assert_uint_eq(st.rt, 0);
    ck_assert_uint_eq(st.conversion >> 12 & 0xff, 237);
}
END_TEST

/* Descriptors are guest memory: any 4 words must decode to a known mode or a refusal, and a
 * fixed-function or opaque blend into a unorm target must give values in [0, 1], NaN sources
 * included. */
/* gfx_blend_route: what a BLEND message does with the descriptor it sends */
START_TEST(test_route)
{
    gfx_blend_state ff;
    /* a fixed-function descriptor (mode 2) whose equation writes R and A only */
    gfx_blend_equation eq = { .color_mask = 0x9 };
    const uint32_t d_ff[4] = { 1u << 9, gfx_blend_equation_pack(&eq), 2, 0 };
    ck_assert_int_ne(gfx_blend_state_init(&ff, d_ff, 8, 1), -1);   /* (-2: operands read as 0) */
    /* a target with a blend shader: panfrost leaves the memory descriptor's equation zero */
    gfx_blend_state sh;
    const uint32_t d_sh[4] = { 1u << 9, 0, 0x1008, 0x0a001280 };
    ck_assert_int_eq(gfx_blend_state_init(&sh, d_sh, 8, 1), -1);
    uint64_t call;
    unsigned mask;
    /* fixed function: the equation's mask */
    ck_assert_int_eq(gfx_blend_route(2, 0, 1, 0, 0x1a003100, &ff, &call, &mask), GFX_BLEND_STORE);
    ck_assert_uint_eq(mask, 0x9);
    /* OPAQUE stores every channel, even through a descriptor whose equation is zero: the blend
     * shader's own BLEND (Mesa's constant descriptor 0x19 / 0xed000) */
    ck_assert_int_eq(gfx_blend_route(0x000ed00000000019ull, 0, 1, 1, 0x1a003100, &sh, &call, &mask), GFX_BLEND_STORE);
    ck_assert_uint_eq(mask, 0xf);
    /* SHADER: the PC's low 32 bits with the fragment shader's high ones */
    ck_assert_int_eq(gfx_blend_route(0x0a00128000001008ull, 0, 1, 0, 0x1a003100, &sh, &call, &mask), GFX_BLEND_CALL);
    ck_assert_uint_eq(call, 0x0a001280ull);
    ck_assert_int_eq(gfx_blend_route(0x0a00128000001008ull, 0, 1, 0, 0x51a003100ull, &sh, &call, &mask), GFX_BLEND_CALL);
    ck_assert_uint_eq(call, 0x50a001280ull);
    ck_assert_int_eq(gfx_blend_route(0, 0, 1, 0, 0x1a003100, &sh, &call, &mask), GFX_BLEND_BAD);
    /* OFF, and a slot past the framebuffer's targets (ext_color_buffer_float-draw: a shader
     * writing two outputs, one target bound; the slot's descriptor reads as 0) */
    ck_assert_int_eq(gfx_blend_route(3, 0, 1, 0, 0x1a003100, &ff, &call, &mask), GFX_BLEND_DROP);
    ck_assert_int_eq(gfx_blend_route(0, 1, 1, 0, 0x1a003100, &ff, &call, &mask), GFX_BLEND_DROP);
    ck_assert_int_eq(gfx_blend_route(2, 1, 2, 0, 0x1a003100, &ff, &call, &mask), GFX_BLEND_STORE);
}
END_TEST

START_TEST(test_hostile_descriptors)
{
    unsigned modes[4] = { 0 };
    for (unsigned n = 0; n < 200000; n++) {
        uint32_t d[4];
        for (unsigned i = 0; i < 4; i++)
            d[i] = rnd() << 16 ^ rnd();
        gfx_blend_state st;
        int rc = gfx_blend_state_init(&st, d, 1 + rnd() % 16, 1);
        EXPECT(rc == 0 || rc == -1 || rc == -2, "descriptor %08x %08x %08x %08x: %d", d[0], d[1], d[2], d[3], rc);
        modes[st.mode & 3]++;
        if (rc == -1) {
            EXPECT(!st.fn, "shader mode with a function");
            continue;
        }
        float src[4], dst[4];
        for (unsigned c = 0; c < 4; c++) {
            src[c] = rnd() % 7 ? rndf(-4.0f, 4.0f) : NAN;
            dst[c] = rndf(0.0f, 1.0f);
        }
        gfx_blend_apply(&st, src, dst);
        for (unsigned c = 0; c < 4; c++)
            EXPECT(dst[c] >= 0.0f && dst[c] <= 1.0f, "descriptor %08x %08x %08x %08x: channel %u = %g", d[0], d[1],
                   d[2], d[3], c, dst[c]);
    }
    for (unsigned m = 0; m < 4; m++)
        ck_assert_uint_gt(modes[m], 1000);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gfx_blend");
    TCase *t = tcase_create("blend");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_every_gl_equation);
    tcase_add_test(t, test_equation_word);
    tcase_add_test(t, test_constant);
    tcase_add_test(t, test_mask_modes);
    tcase_add_test(t, test_hostile_descriptors);
    tcase_add_test(t, test_route);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
