/* Arm floating-point arithmetic on raw bit patterns, written from the Armv8.0
 * pseudocode (FPUnpack, FPRound, FPProcessNaNs, FPAdd, FPMulAdd, FPToFixed...).
 *
 * Every operation is a generic routine over a format (E exponent bits, F
 * fraction bits) inlined into the f32_/f64_ entry points.  An unpacked finite
 * non-zero value is sig * 2^(exp - 63) with bit 63 of sig set, i.e. a mantissa
 * in [1, 2) times 2^exp.  FPRound (round_pack) receives such a value with any
 * bits below bit 0 folded ("jammed") into bit 0; every caller keeps at least
 * 8 bits below the rounding position, so that folding cannot change a result.
 *
 * Fast path: add/sub/mul/div/sqrt/fma use the host FPU (whose MXCSR is left at
 * its default: round to nearest even, no flush, exceptions masked) when that
 * gives provably the same bits and flags: FPCR.RMode is RN, the inputs are
 * normal or zero, the result is finite and above the minimum normal magnitude
 * (so no overflow, underflow or flush can have happened; an RN result equal to
 * the minimum normal may come from a tiny exact value) and FPSR.IXC is already
 * set (so inexactness needs no detection). */
/* The fast paths rely on each host operation being rounded on its own. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif
#include <math.h>
#include <string.h>
#include "fpu.h"

#define AI static inline __attribute__((always_inline))
typedef unsigned __int128 u128;

enum { FPT_ZERO, FPT_NUM, FPT_INF, FPT_QNAN, FPT_SNAN };

typedef struct {
    int type, sign, exp;
    uint64_t sig;
} FPUnp;

/* ---- format helpers ---------------------------------------------------------- */

AI int fmt_bias(int E) { return (1 << (E - 1)) - 1; }
AI uint64_t fmt_fracmask(int F) { return (1ull << F) - 1; }
AI uint64_t fmt_sbit(int E, int F, int sign) { return (uint64_t)sign << (E + F); }
AI uint64_t fp_zero(int E, int F, int sign) { return fmt_sbit(E, F, sign); }
AI uint64_t fp_inf(int E, int F, int sign)
{
    return fmt_sbit(E, F, sign) | ((uint64_t)((1 << E) - 1) << F);
}
AI uint64_t fp_maxnormal(int E, int F, int sign)
{
    return fmt_sbit(E, F, sign) | ((uint64_t)((1 << E) - 2) << F) | fmt_fracmask(F);
}
AI uint64_t fp_defaultnan(int E, int F) { return fp_inf(E, F, 0) | (1ull << (F - 1)); }
/* 2^k * (1 + frac_top/2) for small constants: FPTwo, FPOnePointFive. */
AI uint64_t fp_two(int E, int F, int sign) { return fmt_sbit(E, F, sign) | ((uint64_t)(fmt_bias(E) + 1) << F); }
AI uint64_t fp_onepointfive(int E, int F, int sign)
{
    return fmt_sbit(E, F, sign) | ((uint64_t)fmt_bias(E) << F) | (1ull << (F - 1));
}

/* Flush-to-zero of arithmetic: FPCR.FZ16 for half precision, FPCR.FZ otherwise.
 * Precision conversions (FPUnpackCV/FPRoundCV) never flush half precision. */
AI bool fz_on(int E, const FPEnv *e) { return (e->fpcr & (E == 5 ? FPCR_FZ16 : FPCR_FZ)) != 0; }
AI bool fz_cv(int E, const FPEnv *e) { return E != 5 && fz_on(E, e); }

AI int clz128(u128 v)
{
    uint64_t hi = (uint64_t)(v >> 64);
    return hi ? __builtin_clzll(hi) : 64 + __builtin_clzll((uint64_t)v);
}

/* FPUnpack: fz flushes denormal inputs to zero (IDC, except for half precision:
 * an FZ16 flush is silent); ahp treats the maximum exponent as an ordinary
 * number (alternative half precision). */
AI FPUnp unpack(int E, int F, uint64_t x, bool fz, bool ahp, FPEnv *e)
{
    FPUnp u;
    int ex = (int)((x >> F) & ((1u << E) - 1));
    uint64_t fr = x & fmt_fracmask(F);
    u.sign = (int)((x >> (E + F)) & 1);
    if (ex == 0) {
        if (fr == 0 || fz) {
            if (fr && E != 5)
                e->fpsr |= FPSR_IDC;
            u.type = FPT_ZERO;
            u.exp = 0;
            u.sig = 0;
            return u;
        }
        int lz = __builtin_clzll(fr);
        u.type = FPT_NUM;
        u.sig = fr << lz;
        u.exp = 63 - lz + 1 - fmt_bias(E) - F;
    } else if (ex == (1 << E) - 1 && !ahp) {
        u.type = fr == 0 ? FPT_INF : ((fr >> (F - 1)) & 1) ? FPT_QNAN : FPT_SNAN;
        u.exp = 1 << 20; /* compares above every finite value */
        u.sig = 1ull << 63;
    } else {
        u.type = FPT_NUM;
        u.sig = ((1ull << F) | fr) << (63 - F);
        u.exp = ex - fmt_bias(E);
    }
    return u;
}

/* Split sig (value sig * 2^-s) into integer part m, remainder rem and the
 * remainder's half point; shifts past 64 keep only a sticky remainder. */
AI void split(uint64_t sig, int s, uint64_t *m, uint64_t *rem, uint64_t *half)
{
    if (s <= 0) {
        *m = sig;
        *rem = 0;
        *half = 1;
    } else if (s < 64) {
        *m = sig >> s;
        *rem = sig & ((1ull << s) - 1);
        *half = 1ull << (s - 1);
    } else {
        *m = 0;
        *rem = s == 64 ? sig : (sig != 0);
        *half = 1ull << 63;
    }
}

/* Whether rounding the magnitude m + rem/(2*half) up is required (sign-magnitude form
 * of the pseudocode's RoundDown + round_up on the signed value). */
AI bool round_up_mag(FPRounding r, int sign, uint64_t m, uint64_t rem, uint64_t half)
{
    switch (r) {
    case FPR_TIEEVEN: return rem > half || (rem == half && (m & 1));
    case FPR_POSINF: return rem && !sign;
    case FPR_NEGINF: return rem && sign;
    case FPR_TIEAWAY: return rem >= half;
    default: return false;
    }
}

/* FPRound: value = sig * 2^(exp - 63), sig bit 63 set. */
AI uint64_t round_pack(int E, int F, bool fz, bool ahp, int sign, int exp, uint64_t sig, FPRounding r,
                       FPEnv *e)
{
    const int minexp = 1 - fmt_bias(E);
    const uint64_t sbit = fmt_sbit(E, F, sign);
    if (fz && exp < minexp) {
        e->fpsr |= FPSR_UFC;
        return sbit;
    }
    int biased = exp - minexp + 1;
    int s = 63 - F;
    if (biased <= 0) {
        s += 1 - biased;
        biased = 0;
    }
    uint64_t m, rem, half;
    split(sig, s, &m, &rem, &half);
    if (biased == 0 && rem)
        e->fpsr |= FPSR_UFC;
    bool ovf_inf;
    switch (r) {
    case FPR_TIEEVEN: case FPR_TIEAWAY: ovf_inf = true; break;
    case FPR_POSINF: ovf_inf = !sign; break;
    case FPR_NEGINF: ovf_inf = sign; break;
    default: ovf_inf = false; break;
    }
    if (round_up_mag(r, sign, m, rem, half)) {
        m++;
        if (m == 1ull << F)
            biased = 1;
        if (m == 1ull << (F + 1)) {
            biased++;
            m >>= 1;
        }
    }
    if (rem && r == FPR_ODD)
        m |= 1;
    if (!ahp) {
        if (biased >= (1 << E) - 1) {
            e->fpsr |= FPSR_OFC | FPSR_IXC;
            return ovf_inf ? fp_inf(E, F, sign) : fp_maxnormal(E, F, sign);
        }
    } else if (biased >= (1 << E)) {
        e->fpsr |= FPSR_IOC;
        return sbit | ((1ull << (E + F)) - 1);
    }
    if (rem)
        e->fpsr |= FPSR_IXC;
    return sbit | ((uint64_t)biased << F) | (m & fmt_fracmask(F));
}

/* Round a 128-bit magnitude v (value v * 2^(scale)) that is non-zero. */
AI uint64_t round_pack128(int E, int F, bool fz, int sign, int scale, u128 v, FPRounding r, FPEnv *e)
{
    int lz = clz128(v);
    v <<= lz;
    uint64_t sig = (uint64_t)(v >> 64) | ((uint64_t)v != 0);
    return round_pack(E, F, fz, false, sign, scale + 127 - lz, sig, r, e);
}

/* ---- NaNs ------------------------------------------------------------------------ */

AI uint64_t process_nan(int E, int F, int type, uint64_t x, FPEnv *e)
{
    if (type == FPT_SNAN) {
        x |= 1ull << (F - 1);
        e->fpsr |= FPSR_IOC;
    }
    if (e->fpcr & FPCR_DN)
        x = fp_defaultnan(E, F);
    return x;
}

AI uint64_t process_nans(int E, int F, const FPUnp *a, const FPUnp *b, uint64_t x, uint64_t y, FPEnv *e)
{
    if (a->type == FPT_SNAN)
        return process_nan(E, F, a->type, x, e);
    if (b->type == FPT_SNAN)
        return process_nan(E, F, b->type, y, e);
    if (a->type == FPT_QNAN)
        return process_nan(E, F, a->type, x, e);
    return process_nan(E, F, b->type, y, e);
}

AI uint64_t process_nans3(int E, int F, const FPUnp *a, const FPUnp *b, const FPUnp *c, uint64_t x,
                          uint64_t y, uint64_t z, FPEnv *e)
{
    if (a->type == FPT_SNAN)
        return process_nan(E, F, a->type, x, e);
    if (b->type == FPT_SNAN)
        return process_nan(E, F, b->type, y, e);
    if (c->type == FPT_SNAN)
        return process_nan(E, F, c->type, z, e);
    if (a->type == FPT_QNAN)
        return process_nan(E, F, a->type, x, e);
    if (b->type == FPT_QNAN)
        return process_nan(E, F, b->type, y, e);
    return process_nan(E, F, c->type, z, e);
}

#define ISNAN(u) ((u).type >= FPT_QNAN)

AI uint64_t invalid(int E, int F, FPEnv *e)
{
    e->fpsr |= FPSR_IOC;
    return fp_defaultnan(E, F);
}

AI uint64_t exact_zero(int E, int F, FPRounding r) { return fp_zero(E, F, r == FPR_NEGINF); }

/* ---- arithmetic cores on finite non-zero operands ----------------------------------- */

AI uint64_t add_core(int E, int F, bool fz, FPUnp a, FPUnp b, FPRounding r, FPEnv *e)
{
    if (a.exp < b.exp || (a.exp == b.exp && a.sig < b.sig)) {
        FPUnp t = a;
        a = b;
        b = t;
    }
    u128 A = (u128)a.sig << 63, B = (u128)b.sig << 63;
    int d = a.exp - b.exp;
    if (d >= 127)
        B = 1;
    else if (d > 0)
        B = (B >> d) | ((B & (((u128)1 << d) - 1)) != 0);
    u128 S = a.sign == b.sign ? A + B : A - B;
    if (S == 0)
        return exact_zero(E, F, r);
    return round_pack128(E, F, fz, a.sign, a.exp - 126, S, r, e);
}

AI uint64_t mul_core(int E, int F, bool fz, FPUnp a, FPUnp b, FPRounding r, FPEnv *e)
{
    u128 P = (u128)a.sig * b.sig;
    return round_pack128(E, F, fz, a.sign ^ b.sign, a.exp + b.exp - 126, P, r, e);
}

AI uint64_t div_core(int E, int F, bool fz, FPUnp a, FPUnp b, FPRounding r, FPEnv *e)
{
    u128 N = (u128)a.sig << 64;
    u128 q = N / b.sig;
    bool sticky = N - q * b.sig != 0;
    q |= sticky;
    return round_pack128(E, F, fz, a.sign ^ b.sign, a.exp - b.exp - 64, q, r, e);
}

AI uint64_t sqrt_core(int E, int F, bool fz, FPUnp a, FPRounding r, FPEnv *e)
{
    /* q = floor(sqrt(X)) for X in [2^126, 2^128): a host estimate (only used as
     * a starting point), one integer Newton step, then exact correction. */
    u128 X = (u128)a.sig << ((a.exp & 1) ? 64 : 63);
    int re = a.exp >> 1;
    double est = sqrt((double)X);
    uint64_t q = est >= 18446744073709551615.0 ? ~0ull : (uint64_t)est;
    if (q < (1ull << 63))
        q = 1ull << 63;
    u128 r1 = ((u128)q + X / q) >> 1;
    q = r1 >> 64 ? ~0ull : (uint64_t)r1;
    while ((u128)q * q > X)
        q--;
    while (q != ~0ull && (u128)(q + 1) * (q + 1) <= X)
        q++;
    uint64_t sig = q | ((u128)q * q != X);
    return round_pack(E, F, fz, false, 0, re, sig, r, e);
}

/* addend + x*y (finite; x, y non-zero; addend may be zero), one rounding, then
 * the exponent scaled by 2^adj (FRSQRTS halves). */
AI uint64_t muladd_core(int E, int F, bool fz, FPUnp c, FPUnp x, FPUnp y, int adj, FPRounding r, FPEnv *e)
{
    u128 P = ((u128)x.sig * y.sig) >> 1; /* exact: at least 22 low zero bits */
    int pe = x.exp + y.exp, ps = x.sign ^ y.sign;
    if (c.type == FPT_ZERO)
        return round_pack128(E, F, fz, ps, pe - 125 + adj, P, r, e);
    u128 C = (u128)c.sig << 62;
    int d = pe - c.exp, scale;
    u128 big, small;
    int bsign, ssign;
    if (d >= 0) {
        big = P, bsign = ps, small = C, ssign = c.sign, scale = pe;
    } else {
        big = C, bsign = c.sign, small = P, ssign = ps, scale = c.exp;
        d = -d;
    }
    if (d >= 127)
        small = 1;
    else if (d > 0)
        small = (small >> d) | ((small & (((u128)1 << d) - 1)) != 0);
    u128 S;
    int sign;
    if (bsign == ssign) {
        S = big + small;
        sign = bsign;
    } else if (big >= small) {
        S = big - small;
        sign = bsign;
    } else {
        S = small - big;
        sign = ssign;
    }
    if (S == 0)
        return exact_zero(E, F, r);
    return round_pack128(E, F, fz, sign, scale - 125 + adj, S, r, e);
}

/* ---- generic operations --------------------------------------------------------------- */

#define UNPACK2(x, y)                                   \
    bool fz = fz_on(E, e);                              \
    FPUnp a = unpack(E, F, x, fz, false, e);            \
    FPUnp b = unpack(E, F, y, fz, false, e);            \
    if (ISNAN(a) || ISNAN(b))                           \
        return process_nans(E, F, &a, &b, x, y, e);

AI uint64_t g_add(int E, int F, uint64_t x, uint64_t y, bool sub, FPEnv *e)
{
    UNPACK2(x, y)
    b.sign ^= sub;
    FPRounding r = fp_rmode(e);
    if (a.type == FPT_INF && b.type == FPT_INF && a.sign != b.sign)
        return invalid(E, F, e);
    if (a.type == FPT_INF)
        return fp_inf(E, F, a.sign);
    if (b.type == FPT_INF)
        return fp_inf(E, F, b.sign);
    if (a.type == FPT_ZERO && b.type == FPT_ZERO)
        return a.sign == b.sign ? fp_zero(E, F, a.sign) : exact_zero(E, F, r);
    if (a.type == FPT_ZERO)
        return round_pack(E, F, fz, false, b.sign, b.exp, b.sig, r, e);
    if (b.type == FPT_ZERO)
        return round_pack(E, F, fz, false, a.sign, a.exp, a.sig, r, e);
    return add_core(E, F, fz, a, b, r, e);
}

AI uint64_t g_mul(int E, int F, uint64_t x, uint64_t y, bool mulx, FPEnv *e)
{
    UNPACK2(x, y)
    int s = a.sign ^ b.sign;
    if ((a.type == FPT_INF && b.type == FPT_ZERO) || (a.type == FPT_ZERO && b.type == FPT_INF))
        return mulx ? fp_two(E, F, s) : invalid(E, F, e);
    if (a.type == FPT_INF || b.type == FPT_INF)
        return fp_inf(E, F, s);
    if (a.type == FPT_ZERO || b.type == FPT_ZERO)
        return fp_zero(E, F, s);
    return mul_core(E, F, fz, a, b, fp_rmode(e), e);
}

AI uint64_t g_div(int E, int F, uint64_t x, uint64_t y, FPEnv *e)
{
    UNPACK2(x, y)
    int s = a.sign ^ b.sign;
    if ((a.type == FPT_INF && b.type == FPT_INF) || (a.type == FPT_ZERO && b.type == FPT_ZERO))
        return invalid(E, F, e);
    if (a.type == FPT_INF || b.type == FPT_ZERO) {
        if (a.type != FPT_INF)
            e->fpsr |= FPSR_DZC;
        return fp_inf(E, F, s);
    }
    if (a.type == FPT_ZERO || b.type == FPT_INF)
        return fp_zero(E, F, s);
    return div_core(E, F, fz, a, b, fp_rmode(e), e);
}

AI uint64_t g_sqrt(int E, int F, uint64_t x, FPEnv *e)
{
    bool fz = fz_on(E, e);
    FPUnp a = unpack(E, F, x, fz, false, e);
    if (ISNAN(a))
        return process_nan(E, F, a.type, x, e);
    if (a.type == FPT_ZERO)
        return fp_zero(E, F, a.sign);
    if (a.type == FPT_INF && !a.sign)
        return fp_inf(E, F, 0);
    if (a.sign)
        return invalid(E, F, e);
    return sqrt_core(E, F, fz, a, fp_rmode(e), e);
}

/* FPMulAdd(addend, op1, op2); FPRecipStepFused / FPRSqrtStepFused via kind. */
enum { MA_FMA, MA_RECPS, MA_RSQRTS };

AI uint64_t g_muladd(int E, int F, uint64_t z, uint64_t x, uint64_t y, FPEnv *e)
{
    bool fz = fz_on(E, e);
    FPUnp c = unpack(E, F, z, fz, false, e);
    FPUnp a = unpack(E, F, x, fz, false, e);
    FPUnp b = unpack(E, F, y, fz, false, e);
    bool inf1 = a.type == FPT_INF, inf2 = b.type == FPT_INF;
    bool zero1 = a.type == FPT_ZERO, zero2 = b.type == FPT_ZERO;
    if (ISNAN(c) || ISNAN(a) || ISNAN(b)) {
        uint64_t res = process_nans3(E, F, &c, &a, &b, z, x, y, e);
        if (c.type == FPT_QNAN && ((inf1 && zero2) || (zero1 && inf2)))
            res = invalid(E, F, e);
        return res;
    }
    FPRounding r = fp_rmode(e);
    int sp = a.sign ^ b.sign;
    bool infp = inf1 || inf2, zerop = zero1 || zero2;
    bool infa = c.type == FPT_INF, zeroa = c.type == FPT_ZERO;
    if ((inf1 && zero2) || (zero1 && inf2) || (infa && infp && c.sign != sp))
        return invalid(E, F, e);
    if ((infa && !c.sign) || (infp && !sp))
        return fp_inf(E, F, 0);
    if (infa || infp)
        return fp_inf(E, F, 1);
    if (zeroa && zerop)
        return c.sign == sp ? fp_zero(E, F, c.sign) : exact_zero(E, F, r);
    if (zerop)
        return round_pack(E, F, fz, false, c.sign, c.exp, c.sig, r, e);
    return muladd_core(E, F, fz, c, a, b, 0, r, e);
}

AI uint64_t g_step(int E, int F, uint64_t x, uint64_t y, bool rsqrt, FPEnv *e)
{
    x ^= fmt_sbit(E, F, 1); /* op1 = FPNeg(op1), before NaN processing */
    UNPACK2(x, y)
    if ((a.type == FPT_INF && b.type == FPT_ZERO) || (a.type == FPT_ZERO && b.type == FPT_INF))
        return rsqrt ? fp_onepointfive(E, F, 0) : fp_two(E, F, 0);
    if (a.type == FPT_INF || b.type == FPT_INF)
        return fp_inf(E, F, a.sign ^ b.sign);
    FPUnp c = { FPT_NUM, 0, 1, (rsqrt ? 3ull : 2ull) << 62 };
    FPRounding r = fp_rmode(e);
    if (a.type == FPT_ZERO || b.type == FPT_ZERO)
        return round_pack(E, F, fz, false, 0, rsqrt ? 0 : 1, rsqrt ? 3ull << 62 : 1ull << 63, r, e);
    return muladd_core(E, F, fz, c, a, b, rsqrt ? -1 : 0, r, e);
}

/* Signed comparison of two non-NaN values: -1, 0, 1. */
AI int cmp_val(const FPUnp *a, const FPUnp *b)
{
    if (a->type == FPT_ZERO && b->type == FPT_ZERO)
        return 0;
    if (a->type == FPT_ZERO)
        return b->sign ? 1 : -1;
    if (b->type == FPT_ZERO)
        return a->sign ? -1 : 1;
    if (a->sign != b->sign)
        return a->sign ? -1 : 1;
    int m = a->exp != b->exp ? (a->exp > b->exp ? 1 : -1) : a->sig != b->sig ? (a->sig > b->sig ? 1 : -1) : 0;
    return a->sign ? -m : m;
}

AI uint64_t g_minmax(int E, int F, uint64_t x, uint64_t y, bool is_max, FPEnv *e)
{
    UNPACK2(x, y)
    int c = cmp_val(&a, &b);
    bool pick_a = is_max ? c > 0 : c < 0;
    const FPUnp *p = pick_a ? &a : &b;
    if (p->type == FPT_INF)
        return fp_inf(E, F, p->sign);
    if (p->type == FPT_ZERO)
        return fp_zero(E, F, is_max ? (a.sign & b.sign) : (a.sign | b.sign));
    return round_pack(E, F, fz, false, p->sign, p->exp, p->sig, fp_rmode(e), e);
}

AI uint64_t g_minmaxnum(int E, int F, uint64_t x, uint64_t y, bool is_max, FPEnv *e)
{
    bool fz = fz_on(E, e);
    FPUnp a = unpack(E, F, x, fz, false, e);
    FPUnp b = unpack(E, F, y, fz, false, e);
    if (a.type == FPT_QNAN && b.type != FPT_QNAN)
        x = fp_inf(E, F, is_max);
    else if (a.type != FPT_QNAN && b.type == FPT_QNAN)
        y = fp_inf(E, F, is_max);
    return g_minmax(E, F, x, y, is_max, e);
}

AI uint32_t g_compare(int E, int F, uint64_t x, uint64_t y, bool signal, FPEnv *e)
{
    bool fz = fz_on(E, e);
    FPUnp a = unpack(E, F, x, fz, false, e);
    FPUnp b = unpack(E, F, y, fz, false, e);
    if (ISNAN(a) || ISNAN(b)) {
        if (a.type == FPT_SNAN || b.type == FPT_SNAN || signal)
            e->fpsr |= FPSR_IOC;
        return 0x3u << 28;
    }
    int c = cmp_val(&a, &b);
    return c == 0 ? 0x6u << 28 : c < 0 ? 0x8u << 28 : 0x2u << 28;
}

/* kind: 0 EQ, 1 GE, 2 GT */
AI bool g_cmp(int E, int F, uint64_t x, uint64_t y, int kind, FPEnv *e)
{
    bool fz = fz_on(E, e);
    FPUnp a = unpack(E, F, x, fz, false, e);
    FPUnp b = unpack(E, F, y, fz, false, e);
    if (ISNAN(a) || ISNAN(b)) {
        if (kind != 0 || a.type == FPT_SNAN || b.type == FPT_SNAN)
            e->fpsr |= FPSR_IOC;
        return false;
    }
    int c = cmp_val(&a, &b);
    return kind == 0 ? c == 0 : kind == 1 ? c >= 0 : c > 0;
}

/* ---- reciprocal estimates ----------------------------------------------------------- */

static uint16_t rsqrt_table[512];

__attribute__((constructor)) static void rsqrt_table_init(void)
{
    for (int a0 = 128; a0 < 512; a0++) {
        int a = a0 < 256 ? a0 * 2 + 1 : ((a0 >> 1) << 1) * 2 + 2;
        int b = 512;
        while ((int64_t)a * (b + 1) * (b + 1) < (1 << 28))
            b++;
        rsqrt_table[a0] = (uint16_t)((b + 1) / 2);
    }
}

AI int recip_estimate(int a)
{
    a = a * 2 + 1;
    int b = (1 << 19) / a;
    return (b + 1) / 2;
}

AI uint64_t g_recpe(int E, int F, uint64_t x, FPEnv *e)
{
    bool fz = fz_on(E, e);
    FPUnp a = unpack(E, F, x, fz, false, e);
    const int bias = fmt_bias(E);
    if (ISNAN(a))
        return process_nan(E, F, a.type, x, e);
    if (a.type == FPT_INF)
        return fp_zero(E, F, a.sign);
    if (a.type == FPT_ZERO) {
        e->fpsr |= FPSR_DZC;
        return fp_inf(E, F, a.sign);
    }
    if (a.exp < -(bias + 1)) {
        bool ovf_inf;
        switch (fp_rmode(e)) {
        case FPR_TIEEVEN: ovf_inf = true; break;
        case FPR_POSINF: ovf_inf = !a.sign; break;
        case FPR_NEGINF: ovf_inf = a.sign; break;
        default: ovf_inf = false; break;
        }
        e->fpsr |= FPSR_OFC | FPSR_IXC;
        return ovf_inf ? fp_inf(E, F, a.sign) : fp_maxnormal(E, F, a.sign);
    }
    if (fz && a.exp >= bias - 1) {
        e->fpsr |= FPSR_UFC;
        return fp_zero(E, F, a.sign);
    }
    const uint64_t m52 = (1ull << 52) - 1;
    uint64_t fraction = (x & fmt_fracmask(F)) << (52 - F);
    int exp = (int)((x >> F) & ((1u << E) - 1));
    if (exp == 0) {
        if (!((fraction >> 51) & 1)) {
            exp = -1;
            fraction = (fraction << 2) & m52;
        } else {
            fraction = (fraction << 1) & m52;
        }
    }
    int scaled = 256 | (int)((fraction >> 44) & 0xff);
    int result_exp = 2 * bias - 1 - exp;
    int est = recip_estimate(scaled);
    fraction = (uint64_t)(est & 0xff) << 44;
    if (result_exp == 0) {
        fraction = (1ull << 51) | (fraction >> 1);
    } else if (result_exp == -1) {
        fraction = (1ull << 50) | (fraction >> 2);
        result_exp = 0;
    }
    return fmt_sbit(E, F, a.sign) | ((uint64_t)result_exp << F) | (fraction >> (52 - F));
}

AI uint64_t g_rsqrte(int E, int F, uint64_t x, FPEnv *e)
{
    bool fz = fz_on(E, e);
    FPUnp a = unpack(E, F, x, fz, false, e);
    if (ISNAN(a))
        return process_nan(E, F, a.type, x, e);
    if (a.type == FPT_ZERO) {
        e->fpsr |= FPSR_DZC;
        return fp_inf(E, F, a.sign);
    }
    if (a.sign)
        return invalid(E, F, e);
    if (a.type == FPT_INF)
        return fp_zero(E, F, 0);
    const uint64_t m52 = (1ull << 52) - 1;
    uint64_t fraction = (x & fmt_fracmask(F)) << (52 - F);
    int exp = (int)((x >> F) & ((1u << E) - 1));
    if (exp == 0) {
        while (!((fraction >> 51) & 1)) {
            fraction = (fraction << 1) & m52;
            exp--;
        }
        fraction = (fraction << 1) & m52;
    }
    int scaled = (exp & 1) == 0 ? 256 | (int)(fraction >> 44) : 128 | (int)(fraction >> 45);
    int result_exp = (3 * fmt_bias(E) - 1 - exp) / 2;
    int est = rsqrt_table[scaled];
    return ((uint64_t)result_exp << F) | ((uint64_t)(est & 0xff) << (F - 8));
}

AI uint64_t g_recpx(int E, int F, uint64_t x, FPEnv *e)
{
    FPUnp a = unpack(E, F, x, fz_on(E, e), false, e);
    if (ISNAN(a))
        return process_nan(E, F, a.type, x, e);
    uint64_t emask = (1u << E) - 1;
    uint64_t exp = (x >> F) & emask;
    uint64_t sbit = fmt_sbit(E, F, a.sign);
    return exp == 0 ? sbit | ((emask - 1) << F) : sbit | ((~exp & emask) << F);
}

/* ---- integer rounding and fixed point ------------------------------------------------- */

AI uint64_t g_round_int(int E, int F, uint64_t x, FPRounding r, bool exact, FPEnv *e)
{
    bool fz = fz_on(E, e);
    FPUnp a = unpack(E, F, x, fz, false, e);
    if (ISNAN(a))
        return process_nan(E, F, a.type, x, e);
    if (a.type == FPT_INF)
        return fp_inf(E, F, a.sign);
    if (a.type == FPT_ZERO)
        return fp_zero(E, F, a.sign);
    if (a.exp >= F)
        return x;
    uint64_t m, rem, half;
    split(a.sig, 63 - a.exp, &m, &rem, &half);
    m += round_up_mag(r, a.sign, m, rem, half);
    uint64_t res;
    if (m == 0) {
        res = fp_zero(E, F, a.sign);
    } else {
        int lz = __builtin_clzll(m);
        res = round_pack(E, F, fz, false, a.sign, 63 - lz, m << lz, FPR_ZERO, e);
    }
    if (rem && exact)
        e->fpsr |= FPSR_IXC;
    return res;
}

AI uint64_t g_to_fixed(int E, int F, uint64_t x, int fbits, bool uns, int ibits, FPRounding r, FPEnv *e)
{
    FPUnp a = unpack(E, F, x, fz_on(E, e), false, e);
    const uint64_t umax = ibits == 64 ? ~0ull : (1ull << ibits) - 1;
    const uint64_t smax = umax >> 1;
    if (ISNAN(a)) {
        e->fpsr |= FPSR_IOC;
        return 0;
    }
    if (a.type == FPT_ZERO)
        return 0;
    uint64_t m = 0, rem = 0, half = 1;
    bool ovf = a.type == FPT_INF || a.exp + fbits >= 64;
    if (!ovf) {
        split(a.sig, 63 - (a.exp + fbits), &m, &rem, &half);
        m += round_up_mag(r, a.sign, m, rem, half);
        if (uns)
            ovf = a.sign ? m != 0 : m > umax;
        else
            ovf = a.sign ? m > smax + 1 : m > smax;
    }
    if (ovf) {
        e->fpsr |= FPSR_IOC;
        if (uns)
            return a.sign ? 0 : umax;
        return a.sign ? (smax + 1) : smax;
    }
    if (rem)
        e->fpsr |= FPSR_IXC;
    return a.sign ? (0 - m) & umax : m;
}

AI uint64_t g_from_fixed(int E, int F, uint64_t v, int fbits, bool uns, FPRounding r, FPEnv *e)
{
    int sign = 0;
    if (!uns && (int64_t)v < 0) {
        sign = 1;
        v = 0 - v;
    }
    if (v == 0)
        return 0;
    int lz = __builtin_clzll(v);
    return round_pack(E, F, fz_on(E, e), false, sign, 63 - lz - fbits, v << lz, r, e);
}

/* ---- precision conversion ----------------------------------------------------------- */

AI uint64_t g_convert(int E1, int F1, int E2, int F2, uint64_t x, FPRounding r, FPEnv *e)
{
    bool ahp = (e->fpcr & FPCR_AHP) != 0;
    bool ahp_in = E1 == 5 && ahp, ahp_out = E2 == 5 && ahp;
    FPUnp a = unpack(E1, F1, x, fz_cv(E1, e), ahp_in, e);
    if (ISNAN(a)) {
        uint64_t res;
        if (ahp_out) {
            res = fp_zero(E2, F2, a.sign);
        } else if (e->fpcr & FPCR_DN) {
            res = fp_defaultnan(E2, F2);
        } else {
            uint64_t p = (x & ((1ull << (F1 - 1)) - 1)) << (51 - (F1 - 1));
            res = fp_defaultnan(E2, F2) | fmt_sbit(E2, F2, a.sign) | (p >> (51 - (F2 - 1)));
        }
        if (a.type == FPT_SNAN || ahp_out)
            e->fpsr |= FPSR_IOC;
        return res;
    }
    if (a.type == FPT_INF) {
        if (ahp_out) {
            e->fpsr |= FPSR_IOC;
            return fmt_sbit(E2, F2, a.sign) | ((1ull << (E2 + F2)) - 1);
        }
        return fp_inf(E2, F2, a.sign);
    }
    if (a.type == FPT_ZERO)
        return fp_zero(E2, F2, a.sign);
    return round_pack(E2, F2, fz_cv(E2, e), ahp_out, a.sign, a.exp, a.sig, r, e);
}

/* ---- host fast paths ---------------------------------------------------------------- */

/* The predicates and the add/sub/mul/div/muladd/sqrt fast paths live in fpu.h
 * (fpfast_*), shared with the inline variants there. */
AI bool fast_ok(const FPEnv *e) { return fpfast_ok(e); }
AI float as_f(uint32_t x) { return fpfast_as_f(x); }
AI double as_d(uint64_t x) { return fpfast_as_d(x); }
AI uint32_t bits_f(float f) { return fpfast_bits_f(f); }
AI uint64_t bits_d(double f) { return fpfast_bits_d(f); }
AI bool f32_isnormal(uint32_t x) { return fpfast_f32_normal(x); }
AI bool f64_isnormal(uint64_t x) { return fpfast_f64_normal(x); }
AI bool f32_res_ok(uint32_t x) { return fpfast_f32_res_ok(x); }
AI bool f64_iszero(uint64_t x) { return fpfast_f64_zero(x); }
AI bool f32_nz(uint32_t x) { return fpfast_f32_nz(x); }
AI bool f64_nz(uint64_t x) { return fpfast_f64_nz(x); }

/* Operands a host comparison handles exactly: not NaN, and not a denormal that FZ flushes. */
AI bool f32_cmp_ok(uint32_t x, const FPEnv *e)
{
    return (x & 0x7fffffffu) <= 0x7f800000u && (!(e->fpcr & FPCR_FZ) || f32_isnormal(x) || (x << 1) == 0 ||
                                                 (x & 0x7fffffffu) == 0x7f800000u);
}
AI bool f64_cmp_ok(uint64_t x, const FPEnv *e)
{
    return (x & 0x7fffffffffffffffull) <= 0x7ff0000000000000ull &&
           (!(e->fpcr & FPCR_FZ) || f64_isnormal(x) || (x << 1) == 0 ||
            (x & 0x7fffffffffffffffull) == 0x7ff0000000000000ull);
}

/* ---- public entry points ------------------------------------------------------------- */

#define DEFINE_OPS(N, T, E, F, HT, AS, BITS)                                                        \
    T f##N##_add(T a, T b, FPEnv *e)                                                                \
    {                                                                                               \
        T r;                                                                                        \
        return likely(fpfast_f##N##_add(a, b, e, &r)) ? r : (T)g_add(E, F, a, b, false, e);         \
    }                                                                                               \
    T f##N##_sub(T a, T b, FPEnv *e)                                                                \
    {                                                                                               \
        T r;                                                                                        \
        return likely(fpfast_f##N##_sub(a, b, e, &r)) ? r : (T)g_add(E, F, a, b, true, e);          \
    }                                                                                               \
    T f##N##_mul(T a, T b, FPEnv *e)                                                                \
    {                                                                                               \
        T r;                                                                                        \
        return likely(fpfast_f##N##_mul(a, b, e, &r)) ? r : (T)g_mul(E, F, a, b, false, e);         \
    }                                                                                               \
    T f##N##_mulx(T a, T b, FPEnv *e) { return (T)g_mul(E, F, a, b, true, e); }                     \
    T f##N##_div(T a, T b, FPEnv *e)                                                                \
    {                                                                                               \
        T r;                                                                                        \
        return likely(fpfast_f##N##_div(a, b, e, &r)) ? r : (T)g_div(E, F, a, b, e);                \
    }                                                                                               \
    /* min/max without NaNs: the chosen operand itself; equal zeros by sign. */                  \
    T f##N##_max(T a, T b, FPEnv *e)                                                                \
    {                                                                                               \
        if (likely(f##N##_cmp_ok(a, e) && f##N##_cmp_ok(b, e)))                                     \
            return AS(a) > AS(b) ? a : AS(a) < AS(b) ? b : (a & b);                                 \
        return (T)g_minmax(E, F, a, b, true, e);                                                    \
    }                                                                                               \
    T f##N##_min(T a, T b, FPEnv *e)                                                                \
    {                                                                                               \
        if (likely(f##N##_cmp_ok(a, e) && f##N##_cmp_ok(b, e)))                                     \
            return AS(a) < AS(b) ? a : AS(a) > AS(b) ? b : (a | b);                                 \
        return (T)g_minmax(E, F, a, b, false, e);                                                   \
    }                                                                                               \
    T f##N##_maxnm(T a, T b, FPEnv *e)                                                              \
    {                                                                                               \
        if (likely(f##N##_cmp_ok(a, e) && f##N##_cmp_ok(b, e)))                                     \
            return AS(a) > AS(b) ? a : AS(a) < AS(b) ? b : (a & b);                                 \
        return (T)g_minmaxnum(E, F, a, b, true, e);                                                 \
    }                                                                                               \
    T f##N##_minnm(T a, T b, FPEnv *e)                                                              \
    {                                                                                               \
        if (likely(f##N##_cmp_ok(a, e) && f##N##_cmp_ok(b, e)))                                     \
            return AS(a) < AS(b) ? a : AS(a) > AS(b) ? b : (a | b);                                 \
        return (T)g_minmaxnum(E, F, a, b, false, e);                                                \
    }                                                                                               \
    T f##N##_abd(T a, T b, FPEnv *e) { return f##N##_abs(f##N##_sub(a, b, e)); }                    \
    T f##N##_recps(T a, T b, FPEnv *e) { return (T)g_step(E, F, a, b, false, e); }                  \
    T f##N##_rsqrts(T a, T b, FPEnv *e) { return (T)g_step(E, F, a, b, true, e); }                  \
    T f##N##_muladd(T c, T a, T b, FPEnv *e)                                                        \
    {                                                                                               \
        T r;                                                                                        \
        return likely(fpfast_f##N##_muladd(c, a, b, e, &r)) ? r : (T)g_muladd(E, F, c, a, b, e);    \
    }                                                                                               \
    T f##N##_sqrt(T a, FPEnv *e)                                                                    \
    {                                                                                               \
        T r;                                                                                        \
        return likely(fpfast_f##N##_sqrt(a, e, &r)) ? r : (T)g_sqrt(E, F, a, e);                    \
    }                                                                                               \
    T f##N##_recpe(T a, FPEnv *e) { return (T)g_recpe(E, F, a, e); }                                \
    T f##N##_rsqrte(T a, FPEnv *e) { return (T)g_rsqrte(E, F, a, e); }                              \
    T f##N##_recpx(T a, FPEnv *e) { return (T)g_recpx(E, F, a, e); }                                \
    T f##N##_round_int(T a, FPRounding r, bool exact, FPEnv *e)                                     \
    {                                                                                               \
        return (T)g_round_int(E, F, a, r, exact, e);                                                \
    }                                                                                               \
    uint32_t f##N##_compare(T a, T b, bool signal_nans, FPEnv *e)                                   \
    {                                                                                               \
        if (likely(f##N##_cmp_ok(a, e) && f##N##_cmp_ok(b, e))) {                                   \
            HT##_t x = AS(a), y = AS(b);                                                            \
            return x == y ? 0x6u << 28 : x < y ? 0x8u << 28 : 0x2u << 28;                           \
        }                                                                                           \
        return g_compare(E, F, a, b, signal_nans, e);                                               \
    }                                                                                               \
    bool f##N##_cmp_eq(T a, T b, FPEnv *e)                                                          \
    {                                                                                               \
        if (likely(f##N##_cmp_ok(a, e) && f##N##_cmp_ok(b, e)))                                     \
            return AS(a) == AS(b);                                                                  \
        return g_cmp(E, F, a, b, 0, e);                                                             \
    }                                                                                               \
    bool f##N##_cmp_ge(T a, T b, FPEnv *e)                                                          \
    {                                                                                               \
        if (likely(f##N##_cmp_ok(a, e) && f##N##_cmp_ok(b, e)))                                     \
            return AS(a) >= AS(b);                                                                  \
        return g_cmp(E, F, a, b, 1, e);                                                             \
    }                                                                                               \
    bool f##N##_cmp_gt(T a, T b, FPEnv *e)                                                          \
    {                                                                                               \
        if (likely(f##N##_cmp_ok(a, e) && f##N##_cmp_ok(b, e)))                                     \
            return AS(a) > AS(b);                                                                   \
        return g_cmp(E, F, a, b, 2, e);                                                             \
    }                                                                                               \
    uint64_t f##N##_to_fixed(T a, int fbits, bool is_unsigned, int ibits, FPRounding r, FPEnv *e)   \
    {                                                                                               \
        /* FCVTZS without scaling: host truncation of an in-range normal or zero value. */         \
        if (r == FPR_ZERO && fbits == 0 && !is_unsigned && f##N##_nz(a)) {                          \
            HT##_t x = AS(a);                                                                       \
            HT##_t lim = ibits == 64 ? (HT##_t)9223372036854775808.0 : (HT##_t)2147483648.0;        \
            if (likely(x < lim && x > -lim)) {                                                      \
                int64_t i = (int64_t)x;                                                             \
                if ((HT##_t)i != x)                                                                 \
                    e->fpsr |= FPSR_IXC;                                                            \
                return ibits == 64 ? (uint64_t)i : (uint32_t)i;                                     \
            }                                                                                       \
        }                                                                                           \
        return g_to_fixed(E, F, a, fbits, is_unsigned, ibits, r, e);                                \
    }                                                                                               \
    T fixed_to_f##N(uint64_t v, int fbits, bool is_unsigned, FPRounding r, FPEnv *e)                \
    {                                                                                               \
        /* Integers of at most F+1 significant bits convert exactly in any mode. */                 \
        if (fbits == 0) {                                                                           \
            if (is_unsigned ? v <= (1ull << (F + 1)) : v + (1ull << (F + 1)) <= (2ull << (F + 1)))  \
                return BITS(is_unsigned ? (HT##_t)v : (HT##_t)(int64_t)v);                          \
        }                                                                                           \
        return (T)g_from_fixed(E, F, v, fbits, is_unsigned, r, e);                                  \
    }

typedef float f_t;
typedef double _t;
DEFINE_OPS(32, uint32_t, 8, 23, f, as_f, bits_f)
DEFINE_OPS(64, uint64_t, 11, 52, , as_d, bits_d)

uint64_t f32_to_f64(uint32_t a, FPEnv *e)
{
    if (likely(f32_nz(a))) /* exact */
        return bits_d((double)as_f(a));
    return g_convert(8, 23, 11, 52, a, FPR_TIEEVEN, e);
}
uint32_t f64_to_f32(uint64_t a, FPRounding r, FPEnv *e)
{
    if (likely(r == FPR_TIEEVEN && fast_ok(e) && f64_nz(a))) {
        uint32_t res = bits_f((float)as_d(a));
        if (likely(f32_res_ok(res) || f64_iszero(a)))
            return res;
    }
    return (uint32_t)g_convert(11, 52, 8, 23, a, r, e);
}
uint32_t f16_to_f32(uint16_t a, FPEnv *e) { return (uint32_t)g_convert(5, 10, 8, 23, a, FPR_TIEEVEN, e); }
uint64_t f16_to_f64(uint16_t a, FPEnv *e) { return g_convert(5, 10, 11, 52, a, FPR_TIEEVEN, e); }
uint16_t f32_to_f16(uint32_t a, FPRounding r, FPEnv *e) { return (uint16_t)g_convert(8, 23, 5, 10, a, r, e); }
uint16_t f64_to_f16(uint64_t a, FPRounding r, FPEnv *e) { return (uint16_t)g_convert(11, 52, 5, 10, a, r, e); }

/* Half precision (FEAT_FP16): the generic soft path only.  Every core computes
 * exactly and rounds once (muladd_core: an exact 128-bit sum of the exact
 * product), so FMA is fused; FZ16 governs flushing, AHP only the conversions. */
#define E16 5, 10
uint16_t f16_add(uint16_t a, uint16_t b, FPEnv *e) { return (uint16_t)g_add(E16, a, b, false, e); }
uint16_t f16_sub(uint16_t a, uint16_t b, FPEnv *e) { return (uint16_t)g_add(E16, a, b, true, e); }
uint16_t f16_mul(uint16_t a, uint16_t b, FPEnv *e) { return (uint16_t)g_mul(E16, a, b, false, e); }
uint16_t f16_mulx(uint16_t a, uint16_t b, FPEnv *e) { return (uint16_t)g_mul(E16, a, b, true, e); }
uint16_t f16_div(uint16_t a, uint16_t b, FPEnv *e) { return (uint16_t)g_div(E16, a, b, e); }
uint16_t f16_max(uint16_t a, uint16_t b, FPEnv *e) { return (uint16_t)g_minmax(E16, a, b, true, e); }
uint16_t f16_min(uint16_t a, uint16_t b, FPEnv *e) { return (uint16_t)g_minmax(E16, a, b, false, e); }
uint16_t f16_maxnm(uint16_t a, uint16_t b, FPEnv *e) { return (uint16_t)g_minmaxnum(E16, a, b, true, e); }
uint16_t f16_minnm(uint16_t a, uint16_t b, FPEnv *e) { return (uint16_t)g_minmaxnum(E16, a, b, false, e); }
uint16_t f16_abd(uint16_t a, uint16_t b, FPEnv *e) { return f16_abs(f16_sub(a, b, e)); }
uint16_t f16_recps(uint16_t a, uint16_t b, FPEnv *e) { return (uint16_t)g_step(E16, a, b, false, e); }
uint16_t f16_rsqrts(uint16_t a, uint16_t b, FPEnv *e) { return (uint16_t)g_step(E16, a, b, true, e); }
uint16_t f16_muladd(uint16_t c, uint16_t a, uint16_t b, FPEnv *e) { return (uint16_t)g_muladd(E16, c, a, b, e); }
uint16_t f16_sqrt(uint16_t a, FPEnv *e) { return (uint16_t)g_sqrt(E16, a, e); }
uint16_t f16_recpe(uint16_t a, FPEnv *e) { return (uint16_t)g_recpe(E16, a, e); }
uint16_t f16_rsqrte(uint16_t a, FPEnv *e) { return (uint16_t)g_rsqrte(E16, a, e); }
uint16_t f16_recpx(uint16_t a, FPEnv *e) { return (uint16_t)g_recpx(E16, a, e); }
uint16_t f16_round_int(uint16_t a, FPRounding r, bool exact, FPEnv *e)
{
    return (uint16_t)g_round_int(E16, a, r, exact, e);
}
uint32_t f16_compare(uint16_t a, uint16_t b, bool signal_nans, FPEnv *e)
{
    return g_compare(E16, a, b, signal_nans, e);
}
bool f16_cmp_eq(uint16_t a, uint16_t b, FPEnv *e) { return g_cmp(E16, a, b, 0, e); }
bool f16_cmp_ge(uint16_t a, uint16_t b, FPEnv *e) { return g_cmp(E16, a, b, 1, e); }
bool f16_cmp_gt(uint16_t a, uint16_t b, FPEnv *e) { return g_cmp(E16, a, b, 2, e); }
uint64_t f16_to_fixed(uint16_t a, int fbits, bool is_unsigned, int ibits, FPRounding r, FPEnv *e)
{
    return g_to_fixed(E16, a, fbits, is_unsigned, ibits, r, e);
}
uint16_t fixed_to_f16(uint64_t v, int fbits, bool is_unsigned, FPRounding r, FPEnv *e)
{
    return (uint16_t)g_from_fixed(E16, v, fbits, is_unsigned, r, e);
}
#undef E16
