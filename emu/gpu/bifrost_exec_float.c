/* Bifrost executor: float helpers (IEEE binary32 / binary16, rounding modes, denormals, NaN
 * propagation, conversions, the table-based transcendental helpers).  Semantics follow
 * /work/shared/reference/bifrost-isa.md; "assumption" marks points it leaves open. */
#include "bifrost_exec_int.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

uint32_t bi_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    if (e == 0x1f)
        return sign | 0x7f800000 | (m << 13);
    if (e == 0) {
        if (!m)
            return sign;
        e = 127 - 15 + 1;
        while (!(m & 0x400)) {
            m <<= 1;
            e--;
        }
        return sign | (e << 23) | ((m & 0x3ff) << 13);
    }
    return sign | ((e + 127 - 15) << 23) | (m << 13);
}

uint32_t bx_fsrc(const bi_xinstr *x, unsigned s, uint32_t v, const fctx *fc)
{
    if (x->widen[s] == 1)
        v = bi_f16_to_f32((uint16_t)v);
    else if (x->widen[s] == 2)
        v = bi_f16_to_f32((uint16_t)(v >> 16));
    if (x->abs[s])
        v &= 0x7fffffff;
    if (x->neg[s])
        v ^= 0x80000000;
    if (fc->ftz && is_denorm(v))
        v &= 0x80000000;
    return v;
}

/* NaN results (assumption): the first NaN operand, quieted; otherwise the default NaN 0x7fc00000. */
int bx_fe_mode(int round)
{
    switch (round) {
    case R_RTP: return FE_UPWARD;
    case R_RTN: return FE_DOWNWARD;
    case R_RTZ: case R_RTO: return FE_TOWARDZERO;
    default: return FE_TONEAREST;
    }
}

/* a*b + c (fused) or a + b, rounded per `round`. */
uint32_t bx_farith(int fma, uint32_t a, uint32_t b, uint32_t c, int round)
{
    volatile float fa = f32(a), fb = f32(b), fc = f32(c), r;
    if (round != R_NONE)
        fesetround(bx_fe_mode(round));
    if (round == R_RTO)
        feclearexcept(FE_INEXACT);
    r = fma ? fmaf(fa, fb, fc) : fa + fb;
    uint32_t u = u32(r);
    if (round == R_RTO && fetestexcept(FE_INEXACT) && !is_nan(u) && (u & 0x7fffffff) != 0x7f800000)
        u |= 1;
    if (round != R_NONE)
        fesetround(FE_TONEAREST);
    return u;
}

/* minimum/maximum with -0 < +0; sem per the FMIN/FMAX `sem` modifier (assumption for c/inverse_c:
 * C's a < b ? a : b and its mirror). */
uint32_t bx_fminmax(uint32_t a, uint32_t b, int is_max, int sem)
{
    int na = is_nan(a), nb = is_nan(b);
    if (na || nb) {
        switch (sem) {
        case 0: /* nan_suppress */
            if (na && nb)
                return a | 0x00400000;
            return na ? b : a;
        case 1: /* nan_propagate */
            return (na ? a : b) | 0x00400000;
        case 2: return b;  /* c: comparison false -> second operand */
        default: return a;
        }
    }
    float fa = f32(a), fb = f32(b);
    int a_less = fa < fb || (fa == fb && (a & 0x80000000) && !(b & 0x80000000));
    int pick_a = is_max ? !a_less : a_less;
    if (fa == fb && a == b)
        pick_a = 1;
    return pick_a ? a : b;
}

uint32_t bx_f2i(uint32_t a, int rnd, int is_signed)
{
    if (is_nan(a))
        return 0;
    double d = f32(a);
    switch (rnd) {
    case R_RTP: d = ceil(d); break;
    case R_RTN: d = floor(d); break;
    case R_RTNA: d = round(d); break;
    case R_NONE: case R_RTZ: default: d = trunc(d); break;     /* conversions to int default to RTZ */
    }
    if (is_signed) {
        if (d >= 2147483647.0)
            return 0x7fffffff;
        if (d <= -2147483648.0)
            return 0x80000000;
        return (uint32_t)(int32_t)d;
    }
    if (d <= 0)
        return 0;
    if (d >= 4294967295.0)
        return 0xffffffff;
    return (uint32_t)d;
}

uint32_t bx_i2f(uint32_t a, int round, int is_signed)
{
    volatile double d = is_signed ? (double)(int32_t)a : (double)a;   /* exact */
    volatile float r;
    if (round == R_RTNA) {
        /* ties away from zero: round the magnitude with RTZ, then fix up */
        fesetround(FE_TOWARDZERO);
        r = (float)d;
        fesetround(FE_TONEAREST);
        double rem = fabs(d) - fabs((double)r);
        float next = nextafterf(r, d < 0 ? -INFINITY : INFINITY);
        if (rem * 2 >= fabs((double)next) - fabs((double)r) && rem != 0)
            r = next;
        return u32(r);
    }
    if (round != R_NONE)
        fesetround(bx_fe_mode(round));
    r = (float)d;
    if (round != R_NONE)
        fesetround(FE_TONEAREST);
    return u32(r);
}

uint32_t bx_fround(uint32_t a, int round)
{
    if (is_nan(a))
        return a | 0x00400000;
    float f = f32(a), r;
    switch (round) {
    case R_RTP: r = ceilf(f); break;
    case R_RTN: r = floorf(f); break;
    case R_RTZ: r = truncf(f); break;
    case R_RTNA: r = roundf(f); break;
    default: r = nearbyintf(f); break;
    }
    return u32(r);
}

/* ---- 16-bit float and vector helpers ---------------------------------------------------------- */

/* binary32 -> binary16 with a rounding mode (R_NONE = to nearest even). */
uint16_t bx_f32_to_f16(uint32_t x, int round)
{
    uint32_t sign = (x >> 16) & 0x8000, exp = (x >> 23) & 0xff, man = x & 0x7fffff;
    if (exp == 0xff)
        return (uint16_t)(sign | 0x7c00 | (man ? 0x200 | (man >> 13) : 0));
    int e = (int)exp - 127 + 15;
    uint32_t m = exp ? man | 0x800000 : man;
    if (!exp)
        e = 1 - 127 + 15;
    unsigned shift = 13;
    if (e < 1) {
        shift += (unsigned)(1 - e);
        e = 1;
    }
    uint32_t q, rem, half;
    if (shift > 31) {
        q = 0;
        rem = m;
        half = 0x80000000u;   /* m < half: below half an ulp */
        if (!m)
            rem = 0;
    } else {
        q = m >> shift;
        rem = m & ((1u << shift) - 1);
        half = 1u << (shift - 1);
    }
    int inc;
    switch (round) {
    case R_RTZ: inc = 0; break;
    case R_RTP: inc = !sign && rem; break;
    case R_RTN: inc = sign && rem; break;
    case R_RTNA: inc = rem >= half && rem; break;
    default: inc = rem > half || (rem == half && (q & 1)); break;
    }
    q += (uint32_t)inc;
    uint32_t r = ((uint32_t)(e - 1) << 10) + q;     /* q includes the hidden bit for normals */
    if (r >= 0x7c00) {
        int to_inf = round == R_NONE || round == R_RTNA || (round == R_RTP && !sign) || (round == R_RTN && sign);
        r = to_inf ? 0x7c00 : 0x7bff;
    }
    return (uint16_t)(sign | r);
}

uint16_t bi_f32_to_f16(uint32_t x, int round)
{
    return bx_f32_to_f16(x, round);
}

/* Round-to-odd narrowing double -> float (exact when later rounded to 16 bits). */
uint32_t bx_ro_f32(double d)
{
    volatile double v = d;
    volatile float f;
    fesetround(FE_TOWARDZERO);
    feclearexcept(FE_INEXACT);
    f = (float)v;
    uint32_t u = u32(f);
    if (fetestexcept(FE_INEXACT) && (u & 0x7fffffff) < 0x7f800000)
        u |= 1;
    fesetround(FE_TONEAREST);
    return u;
}

uint32_t bx_fsrc16(const bi_xinstr *x, unsigned s, uint32_t h, const fctx *fc)
{
    if (x->abs[s])
        h &= 0x7fff;
    if (x->neg[s])
        h ^= 0x8000;
    if (fc->ftz && (h & 0x7c00) == 0)
        h &= 0x8000;
    return h;
}

uint32_t bx_fout16(uint32_t r, const bi_xinstr *x, const uint32_t *in, unsigned n, const fctx *fc)
{
    if (is_nan16(r)) {
        r = 0x7e00;
        for (unsigned i = 0; i < n; i++)
            if (is_nan16(in[i])) {
                r = in[i] | 0x200;
                break;
            }
        return r;   /* assumption: clamps send NaN to +0 like the f32 path */
    }
    if (fc->ftz && (r & 0x7c00) == 0)
        r &= 0x8000;
    if (x->clamp) {
        float f = f32(bi_f16_to_f32((uint16_t)r)), lo = x->clamp == 2 ? -1.0f : 0.0f;
        if (f < lo)
            r = bx_f32_to_f16(u32(lo), R_NONE);
        else if (x->clamp != 1 && f > 1.0f)
            r = 0x3c00;
    }
    return r;
}

/* FRCP.f32 / FRSQ.f32 (G72 and v7 use them directly for 1/x and 1/sqrt(x)): Arm documents no
 * bit-exact table, so (assumption) they return the correctly rounded (round to nearest even)
 * result, which is within the OpenCL bounds (2.5 ulp rcp/divide, 2 ulp rsqrt).  Special values
 * as IEEE: rcp(+-0) = +-inf, rcp(+-inf) = +-0, rsqrt(+0) = +inf, rsqrt(-0) = -inf,
 * rsqrt(x < 0) = NaN, rsqrt(+inf) = +0; NaN inputs are returned quiet. */
uint32_t bx_frcp(uint32_t a)
{
    if (is_nan(a))
        return a | 0x00400000;
    volatile double d = 1.0 / (double)f32(a);       /* exact enough: one rounding to float below */
    volatile float r = (float)d;
    return u32(r);
}

uint32_t bx_frsq(uint32_t a)
{
    if (is_nan(a))
        return a | 0x00400000;
    float f = f32(a);
    if (f == 0.0f)
        return (a & 0x80000000) | 0x7f800000;
    if (f < 0.0f)
        return 0x7fc00000;
    /* 1/sqrt(f) in double is within ~2^-52 relative of the exact value, so the float nearest to it
     * is the correctly rounded result or a neighbour; decide with the exact sign of m*m*f - 1 at
     * the midpoints m on either side (m*m is exact in double, fma rounds once: the sign is exact) */
    volatile float r = (float)(1.0 / sqrt((double)f));
    float lo = nextafterf(r, 0.0f), hi = nextafterf(r, INFINITY);
    double mlo = ((double)r + lo) / 2, mhi = ((double)r + hi) / 2;
    if (fma(mlo * mlo, (double)f, -1.0) > 0)
        return u32(lo);                       /* 1/sqrt(f) < mlo */
    if (fma(mhi * mhi, (double)f, -1.0) < 0)
        return u32(hi);
    return u32(r);
}

/* FRCP.f16 / FRSQ.f16 (Mesa 26's half-precision 1/x, 1/sqrt(x), division and sqrt): the same
 * assumption, correctly rounded to half.  The exact value is computed in double and rounded
 * once to half: a half's reciprocal or reciprocal square root is never within double's error of
 * a half-way point between halves (those would need m * x = 1 or m * m * x = 1 with a 12-bit m),
 * so the single rounding is the correct one.  Specials as for f32; NaN inputs returned quiet. */
#ifdef __FLT16_MAX__
typedef _Float16 half_t;
#else
typedef __fp16 half_t;   /* clang < 15 on x86 (Debian 12's): no _Float16, same single rounding */
#endif
static uint16_t half_of(double d) { half_t h = (half_t)d; uint16_t u; memcpy(&u, &h, 2); return u; }
/* Decoded by hand: exact, and needs no half-to-float helper that clang 14's runtime lacks.
 * Callers have returned NaN inputs already. */
static double half_value(uint16_t u)
{
    int e = (u >> 10) & 0x1f, m = u & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return u & 0x8000 ? -v : v;
}

uint16_t bx_frcp16(uint16_t a)
{
    if ((a & 0x7c00) == 0x7c00 && (a & 0x3ff))
        return a | 0x0200;
    volatile double d = 1.0 / half_value(a);
    return half_of(d);
}

uint16_t bx_frsq16(uint16_t a)
{
    if ((a & 0x7c00) == 0x7c00 && (a & 0x3ff))
        return a | 0x0200;
    if ((a & 0x7fff) == 0)
        return (uint16_t)((a & 0x8000) | 0x7c00);
    if (a & 0x8000)
        return 0x7e00;
    volatile double d = 1.0 / sqrt(half_value(a));
    return half_of(d);
}

/* Mantissa/exponent split (x not NaN): FM_PLAIN m in [0.5, 1), x = m 2^e (C frexp); FM_SQRT
 * m in [0.25, 1), x = m 4^e; FM_LOG m in [0.75, 1.5), x = m 2^e.  Sign kept.  0 and inf: C frexp
 * (m = x, e = 0), except FM_LOG gives m = +-0 for inf (assumption: keeps Mesa's G71 log2 finite). */
uint32_t bx_frexp_mode(uint32_t v, int mode, int *e)
{
    float m = frexpf(f32(v), e);
    if ((v & 0x7fffffff) == 0x7f800000 || (v & 0x7fffffff) == 0) {
        *e = 0;
        return mode == FM_LOG ? v & 0x80000000 : v;
    }
    if (mode == FM_SQRT) {
        if (*e & 1) {
            m = m / 2;           /* exact */
            *e += 1;
        }
        *e /= 2;
    } else if (mode == FM_LOG && fabsf(m) < 0.75f) {
        m = m * 2;
        *e -= 1;
    }
    return u32(m);
}

/* Correctly rounded binary64 -> binary32 of a value known to ~2^-52 relative (table ops). */
static uint32_t to_f32(double d)
{
    volatile float r = (float)d;
    return u32(r);
}

/* Table-based helpers.  Arm publishes no bit-exact tables, so (assumption) each returns the
 * correctly rounded value of the function the compiler's sequences expect of it (more precise
 * than a hardware table, never less):
 *   FRCP_APPROX(x)  1 / FREXPM(x)                 FRSQ_APPROX(x)  1 / sqrt(FREXPM.sqrt(x))
 *   FLOGD(x)        log2(m) / (m - 1), m = FREXPM.log(x) (1/ln 2 at m = 1)
 *   FLOG_TABLE      .red: r = 1 / FREXPM.log(x); .base2: -log2(r); .natural: -ln(r)
 * Special values: x = +-0 -> +-inf (rcp, rsq of +0), +inf for FLOGD, -inf for .base2/.natural,
 * 1 for .red; +-inf -> +-0 (rcp, rsq), +inf (FLOGD, .base2/.natural), 1 (.red); x < 0 -> NaN
 * (rsq, FLOGD, .red/.base2/.natural); NaN -> quiet NaN. */
uint32_t bx_table_op(const bi_xinstr *x, uint32_t v)
{
    if (is_nan(v))
        return v | 0x00400000;
    uint32_t mag = v & 0x7fffffff, sign = v & 0x80000000;
    int e;
    switch (x->sem) {
    case BI_SEM_FRCP_APPROX:
        if (mag == 0)
            return sign | 0x7f800000;
        if (mag == 0x7f800000)
            return sign;
        return to_f32(1.0 / (double)f32(bx_frexp_mode(v, FM_PLAIN, &e)));
    case BI_SEM_FRSQ_APPROX:
        if (mag == 0)
            return sign | 0x7f800000;
        if (sign)
            return 0x7fc00000;
        if (mag == 0x7f800000)
            return 0;
        return bx_frsq(bx_frexp_mode(v, FM_SQRT, &e));
    case BI_SEM_FLOGD: {
        if (mag == 0 || v == 0x7f800000)
            return 0x7f800000;
        if (sign)
            return 0x7fc00000;
        double m = f32(bx_frexp_mode(v, FM_LOG, &e));
        return to_f32(m == 1.0 ? 1.0 / M_LN2 : log2(m) / (m - 1.0));
    }
    default: {      /* FLOG_TABLE */
        if (sign && mag)
            return 0x7fc00000;
        if (mag == 0 || mag == 0x7f800000)
            return x->fmode == LT_RED ? 0x3f800000 : mag ? 0x7f800000 : 0xff800000;
        uint32_t r = to_f32(1.0 / (double)f32(bx_frexp_mode(v, FM_LOG, &e)));
        if (x->fmode == LT_RED)
            return r;
        double l = log((double)f32(r));
        return to_f32(x->fmode == LT_BASE2 ? -l / M_LN2 : -l);
    }
    }
}

/* FMA_RSCALE: (a * b + c) * 2^d with one rounding (round-to-odd in binary64, then the target
 * rounding: exact for binary32 results, subnormal ones included).  special .n (assumption, as
 * Mesa's reciprocal / rsqrt lowerings need): a product 0 x inf counts as 0. */
uint32_t bx_fma_rscale(uint32_t a, uint32_t b, uint32_t c, int32_t d, int round, int special)
{
    uint32_t in[3] = { a, b, c };
    if (special == 1 && (((a & 0x7fffffff) == 0 && (b & 0x7fffffff) == 0x7f800000) ||
                         ((b & 0x7fffffff) == 0 && (a & 0x7fffffff) == 0x7f800000)) && !is_nan(c)) {
        a = 0;
        b = 0;
    }
    /* a*b is exact in binary64 and the sum's rounding error is exact too (TwoSum, round to
     * nearest): round to odd from those, without switching the host rounding mode (slow) */
    double p = (double)f32(a) * f32(b), pc = f32(c), od = p + pc, bb = od - p;
    double e = (p - (od - bb)) + (pc - bb);
    if (isnan(od))
        return nan_result(0x7fc00000, in, 3);
    if (e != 0 && isfinite(od)) {
        uint64_t bits;
        memcpy(&bits, &od, 8);
        if ((od > 0) != (e > 0))
            bits--;                          /* truncate: one step toward zero */
        bits |= 1;
        memcpy(&od, &bits, 8);
    }
    d = d > 600 ? 600 : d < -600 ? -600 : d;
    volatile double sc = ldexp(od, d);        /* exact: the binary64 range is not left */
    volatile float r;
    if (round != R_NONE)
        fesetround(bx_fe_mode(round));
    r = (float)sc;
    if (round != R_NONE)
        fesetround(FE_TONEAREST);
    return u32(r);
}
