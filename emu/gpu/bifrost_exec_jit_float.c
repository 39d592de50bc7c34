/* The clause compiler's float helpers of Mesa's division, reciprocal and conversion sequences
 * (bifrost_exec_jit_comp.h), bit-exact with bx_exec_op's cases: FREXPE, FREXPM, FRCP_APPROX,
 * FMA_RSCALE (in double precision, as bx_fma_rscale computes it) and F32_TO_S32 / F32_TO_U32;
 * and FMA for SSE code, which has no fused multiply-add.  SSE code (4 lanes) runs the binary64
 * sequences as two pairs of lanes; it has FRSQ_APPROX's (fused in binary64) left to the interpreter.
 * Each takes its float sources in ymm0-3 with their modifiers and FTZ flush applied, leaves its
 * result in the register it returns, and marks in ymm7 the lanes whose input is a denormal it
 * does not handle (then the interpreter's code redoes the unit); NaN results are redone by the
 * caller's NaN check.  Registers: ymm0-7 and ymm12-15 (ymm8-11 hold cached results; FRCP and
 * FMA_RSCALE clobber the cached register rows and commit mask in ymm12-15: bx_jc_clobber_high). */
#include "bifrost_exec_jit_comp.h"

#define W1(stmt) JX_AT_WIDTH(e, 1, stmt)       /* 256-bit whatever the warp (double precision) */
#define W0(stmt) JX_AT_WIDTH(e, 0, stmt)       /* 128-bit: four lanes */

/* ymm6 = lanes of ymm0 whose exponent field is 0, ymm1 = those whose exponent is all ones,
 * ymm7 = denormals (exponent 0, not a zero) when den; uses ymm4 (exponent field), ymm5 */
static void classify(jx_emit *e, int den)
{
    jx_shift_imm(e, 0, 4, 0, 23);
    jx_opm(e, JX_VPAND, 4, 4, R14, KROW(KR_FF));
    jx_op(e, JX_VPXOR, 5, 5, 5);
    jx_op(e, JX_VPCMPEQD, 6, 4, 5);
    jx_opm(e, JX_VPCMPEQD, 1, 4, R14, KROW(KR_FF));
    if (den) {
        jx_opm(e, JX_VPAND, 5, 0, R14, KROW(KR_ABS));
        jx_op(e, JX_VPXOR, 7, 7, 7);
        jx_op(e, JX_VPCMPEQD, 5, 5, 7);                /* zeros */
        jx_op(e, JX_VPANDN, 7, 5, 6);                  /* exponent 0, not a zero */
    }
}

/* FREXPE in mode (bx_frexp_mode): the exponent of frexp (0 for zeros, infinities and NaNs); .sqrt
 * halves it, rounding odd ones up (m / 2 in [0.25, 0.5)); .log lowers it by one where the
 * mantissa is below 0.75 (its top fraction bit clear: m * 2 in [1, 1.5)); negated by neg0 */
unsigned bx_jc_frexpe(jcomp *jc, const bi_xinstr *xi, int den)
{
    jx_emit *e = &jc->e;
    classify(e, den);
    jx_op(e, JX_VPOR, 6, 6, 1);                        /* no exponent */
    jx_opm(e, JX_VPSUBD, 4, 4, R14, KROW(KR_126));
    if (xi->fmode == FM_SQRT) {
        jx_opm(e, JX_VPAND, 2, 4, R14, KROW(KR_ONE));
        jx_op(e, JX_VPADDD, 4, 4, 2);
        jx_sra_imm(e, 4, 4, 1);
    } else if (xi->fmode == FM_LOG) {
        jx_opm(e, JX_VPANDN, 2, 0, R14, KROW(KR_MANT_TOP));
        jx_shift_imm(e, 0, 2, 2, 22);
        jx_op(e, JX_VPSUBD, 4, 4, 2);
    }
    jx_op(e, JX_VPANDN, 4, 6, 4);
    if (xi->neg[0]) {
        jx_op(e, JX_VPXOR, 5, 5, 5);
        jx_op(e, JX_VPSUBD, 4, 5, 4);
    }
    return 4;
}

/* ymm5 = ymm0's frexp mantissa in mode (bx_frexp_mode) for finite non-zero lanes, with its sign:
 * [0.5, 1); .sqrt halves it where the exponent (ymm4, from classify) is odd, [0.25, 1); .log
 * doubles it below 0.75 (top fraction bit clear), [0.75, 1.5).  Uses ymm2. */
static void mantissa(jx_emit *e, int mode)
{
    jx_opm(e, JX_VPAND, 5, 0, R14, KROW(KR_MANT_SIGN));
    jx_opm(e, JX_VPOR, 5, 5, R14, KROW(KR_HALF_EXP));
    if (mode == FM_SQRT) {                             /* 2^-1 -> 2^-2 */
        jx_opm(e, JX_VPAND, 2, 4, R14, KROW(KR_ONE));
        jx_shift_imm(e, 1, 2, 2, 23);
        jx_op(e, JX_VPSUBD, 5, 5, 2);
    } else if (mode == FM_LOG) {                       /* 2^-1 -> 2^0 */
        jx_opm(e, JX_VPANDN, 2, 0, R14, KROW(KR_MANT_TOP));
        jx_shift_imm(e, 1, 2, 2, 1);
        jx_op(e, JX_VPADDD, 5, 5, 2);
    }
}

/* FREXPM in mode: frexp's mantissa in [0.5, 1) with the sign (.sqrt: halved where the exponent is
 * odd, [0.25, 1); .log: doubled below 0.75, [0.75, 1.5)); zeros, infinities and NaNs as they are,
 * but .log makes infinities a signed zero (a NaN result goes to the interpreter, which quiets it) */
unsigned bx_jc_frexpm(jcomp *jc, const bi_xinstr *xi, int den)
{
    jx_emit *e = &jc->e;
    classify(e, den);
    jx_op(e, JX_VPOR, 6, 6, 1);
    mantissa(e, xi->fmode);
    if (xi->fmode == FM_LOG) {
        jx_opm(e, JX_VPAND, 3, 0, R14, KROW(KR_ABS));
        jx_opm(e, JX_VPCMPEQD, 3, 3, R14, KROW(KR_EXP));    /* infinities */
        jx_opm(e, JX_VPAND, 2, 0, R14, KROW(KR_SIGN));
        jx_blendv(e, 1, 0, 0, 2, 3);                   /* (ymm0 is not read again) */
    }
    jx_blendv(e, 1, 4, 5, 0, 6);                       /* special ? a : mantissa */
    return 4;
}

/* xmm `out` (four lanes) = (float)(1.0 / (double)xmm `in` ), in double precision (to_f32) */
static void rcp_half(jx_emit *e, unsigned out, unsigned in)
{
    W1(jx_op(e, JX_VCVTPS2PD, 12, 0, in));
    W1(jx_load(e, 13, R14, KROW(KR_D_ONE)));
    W1(jx_op(e, JX_VDIVPD, 12, 13, 12));
    W1(jx_op(e, JX_VCVTPD2PS, out, 0, 12));
}

/* FRCP_APPROX: 1 / FREXPM(a) rounded once from binary64; +-0 -> +-inf, +-inf -> +-0, NaN kept
 * (the interpreter quiets it) */
unsigned bx_jc_frcp(jcomp *jc, int den)
{
    jx_emit *e = &jc->e;
    unsigned o = e->sse ? 12 : 14;                     /* (SSE: xmm14 is the emitter's scratch) */
    classify(e, den);
    mantissa(e, FM_PLAIN);
    if (e->sse) {                                      /* two binary64 pairs */
        for (unsigned h = 0; h < 2; h++) {
            if (h) {
                jx_sse_pshufd(e, 13, 5, 0xee);
                jx_op(e, JX_VCVTPS2PD, 13, 0, 13);
            } else {
                jx_op(e, JX_VCVTPS2PD, 13, 0, 5);
            }
            jx_load(e, 15, R14, KROW(KR_D_ONE));
            jx_op(e, JX_VDIVPD, 15, 15, 13);
            jx_op(e, JX_VCVTPD2PS, h ? 13 : 12, 0, 15);
        }
        jx_op(e, JX_VPUNPCKLQDQ, 12, 12, 13);
    } else {
        rcp_half(e, 14, 5);
        if (e->l) {
            jx_extract_hi(e, 13, 5);
            rcp_half(e, 15, 13);
            jx_insert_hi(e, 14, 14, 15);
        }
    }
    jx_opm(e, JX_VPAND, 2, 0, R14, KROW(KR_SIGN));
    jx_opm(e, JX_VPOR, 3, 2, R14, KROW(KR_EXP));       /* sign | inf */
    jx_blendv(e, 1, o, o, 3, 6);                       /* exponent 0 (zeros) */
    jx_opm(e, JX_VPAND, 3, 0, R14, KROW(KR_ABS));
    jx_opm(e, JX_VPCMPEQD, 3, 3, R14, KROW(KR_EXP));   /* infinities */
    jx_opm(e, JX_VPAND, 3, 3, R14, KROW(KR_ABS));
    jx_op(e, JX_VPANDN, 3, 3, 0);                      /* inf -> its sign, NaN -> itself */
    jx_blendv(e, 1, o, o, 3, 1);
    return o;
}

/* xmm `out` (four lanes) = 1 / sqrt(xmm `in`) correctly rounded (bx_frsq's way: the binary64
 * value rounded, then its neighbour lo / hi where the exact sign of 4 m^2 x - 4 at the midpoint
 * m to it says the value lies beyond; 4 m^2 is exact, the fused multiply-add rounds once and
 * keeps the sign).  Uses ymm2, ymm3, ymm12-15. */
static void rsq_half(jx_emit *e, unsigned out, unsigned in)
{
    W1(jx_op(e, JX_VCVTPS2PD, 12, 0, in));             /* x */
    W1(jx_op(e, JX_VSQRTPD, 13, 0, 12));
    W1(jx_load(e, 14, R14, KROW(KR_D_ONE)));
    W1(jx_op(e, JX_VDIVPD, 13, 14, 13));
    W1(jx_op(e, JX_VCVTPD2PS, out, 0, 13));            /* r */
    W0(jx_opm(e, JX_VPSUBD, 2, out, R14, KROW(KR_ONE)));   /* lo, hi: its neighbours */
    W0(jx_opm(e, JX_VPADDD, 3, out, R14, KROW(KR_ONE)));
    W1(jx_op(e, JX_VCVTPS2PD, 13, 0, out));
    W1(jx_op(e, JX_VCVTPS2PD, 14, 0, 2));
    W1(jx_op(e, JX_VCVTPS2PD, 15, 0, 3));
    W1(jx_op(e, JX_VADDPD, 2, 13, 14));                /* 2 m, m between r and lo */
    W1(jx_op(e, JX_VMULPD, 2, 2, 2));
    W1(jx_op(e, JX_VADDPD, 3, 13, 15));
    W1(jx_op(e, JX_VMULPD, 3, 3, 3));
    W1(jx_load(e, out, R14, KROW(KR_D_4)));
    jx_fma231pd(e, 1, out, 2, 12);                     /* 4 - 4 m^2 x < 0: the value is below m */
    W1(jx_blendvpd(e, 13, 13, 14, out));
    W1(jx_load(e, out, R14, KROW(KR_D_M4)));
    jx_fma231pd(e, 0, out, 3, 12);                     /* 4 m^2 x - 4 < 0: above m */
    W1(jx_blendvpd(e, 13, 13, 15, out));
    W1(jx_op(e, JX_VCVTPD2PS, out, 0, 13));            /* exact */
}

/* FRSQ_APPROX: 1 / sqrt(FREXPM.sqrt(a)) correctly rounded; +-0 -> +-inf, +inf -> +0; negative
 * inputs, -inf and NaNs give a NaN the caller's check sends to the interpreter */
unsigned bx_jc_frsq(jcomp *jc, int den)
{
    jx_emit *e = &jc->e;
    classify(e, den);
    mantissa(e, FM_SQRT);
    if (e->l) {
        jx_extract_hi(e, 4, 5);
        rsq_half(e, 5, 5);
        rsq_half(e, 4, 4);
        jx_insert_hi(e, 5, 5, 4);
    } else {
        rsq_half(e, 5, 5);
    }
    jx_opm(e, JX_VPAND, 2, 0, R14, KROW(KR_SIGN));
    jx_opm(e, JX_VPOR, 2, 2, R14, KROW(KR_EXP));       /* zeros: sign | inf */
    jx_blendv(e, 1, 5, 5, 2, 6);
    jx_opm(e, JX_VPOR, 3, 0, R14, KROW(KR_MANT_TOP));  /* exponent all ones: a NaN ... */
    jx_opm(e, JX_VPCMPEQD, 2, 0, R14, KROW(KR_EXP));
    jx_op(e, JX_VPANDN, 3, 2, 3);                      /* ... but +inf -> +0 */
    jx_blendv(e, 1, 5, 5, 3, 1);
    return 5;
}

/* SSE code (4 lanes: two binary64 pairs): xmm15 = p (xmm12) + c (xmm3) rounded to odd, with
 * its rounding error from TwoSum, so that a binary32 rounding of it is the exact sum's (53 >=
 * 2 x 24 + 2 bits); infinite sums as they are.  Uses xmm3, 6, 7, 12, 13. */
static void odd_sum_sse(jx_emit *e)
{
    jx_op(e, JX_VADDPD, 15, 12, 3);                    /* od = p + c */
    jx_op(e, JX_VSUBPD, 13, 15, 12);                   /* bb = od - p */
    jx_op(e, JX_VSUBPD, 6, 15, 13);
    jx_op(e, JX_VSUBPD, 6, 12, 6);
    jx_op(e, JX_VSUBPD, 7, 3, 13);
    jx_op(e, JX_VADDPD, 6, 6, 7);                      /* err = (p - (od - bb)) + (c - bb) */
    jx_opm(e, JX_VPAND, 12, 15, R14, KROW(KR_Q_ABS));
    jx_load(e, 13, R14, KROW(KR_Q_INF));
    jx_cmppd(e, 12, 12, 13, 0x11);                     /* od finite */
    jx_op(e, JX_VPXOR, 13, 13, 13);
    jx_cmppd(e, 3, 6, 13, 0x04);                       /* err != 0 */
    jx_op(e, JX_VPAND, 12, 12, 3);                     /* inexact: round to odd */
    jx_cmppd(e, 3, 15, 13, 0x1e);
    jx_cmppd(e, 7, 6, 13, 0x1e);
    jx_op(e, JX_VPXOR, 3, 3, 7);
    jx_op(e, JX_VPAND, 3, 3, 12);                      /* od rounded up: one step toward zero */
    jx_op(e, JX_VPADDQ, 15, 15, 3);
    jx_opm(e, JX_VPAND, 12, 12, R14, KROW(KR_Q_ONE));
    jx_op(e, JX_VPOR, 15, 15, 12);
}

/* SSE code: xmm12 = a (xmm0) * b (xmm1), exact, and xmm3 = c (xmm2), in binary64, for lanes
 * 2h, 2h + 1 */
static void product_sse(jx_emit *e, unsigned h)
{
    if (h) {                                           /* lanes 2-3 down to 0-1 */
        jx_sse_pshufd(e, 3, 0, 0xee);
        jx_op(e, JX_VCVTPS2PD, 12, 0, 3);
        jx_sse_pshufd(e, 3, 1, 0xee);
        jx_op(e, JX_VCVTPS2PD, 13, 0, 3);
        jx_sse_pshufd(e, 3, 2, 0xee);
        jx_op(e, JX_VCVTPS2PD, 3, 0, 3);
    } else {
        jx_op(e, JX_VCVTPS2PD, 12, 0, 0);
        jx_op(e, JX_VCVTPS2PD, 13, 0, 1);
        jx_op(e, JX_VCVTPS2PD, 3, 0, 2);
    }
    jx_op(e, JX_VMULPD, 12, 12, 13);
}

/* FMA_RSCALE at round to nearest: a * b + c exact in binary64 with its rounding error (TwoSum),
 * rounded to odd, scaled by 2^clamp(d, -600, 600) (exact) and rounded to binary32; special
 * (mode 1): 0 * inf with c not a NaN counts as 0 * 0 */
unsigned bx_jc_rscale(jcomp *jc, const bi_xinstr *xi)
{
    jx_emit *e = &jc->e;
    if (xi->fmode == 1) {
        jx_op(e, JX_VPXOR, 5, 5, 5);
        jx_opm(e, JX_VPAND, 4, 0, R14, KROW(KR_ABS));
        jx_op(e, JX_VPCMPEQD, 6, 4, 5);                /* a zero */
        jx_opm(e, JX_VPCMPEQD, 4, 4, R14, KROW(KR_EXP)); /* a inf */
        jx_opm(e, JX_VPAND, 7, 1, R14, KROW(KR_ABS));
        jx_op(e, JX_VPCMPEQD, 5, 7, 5);                /* b zero */
        jx_opm(e, JX_VPCMPEQD, 7, 7, R14, KROW(KR_EXP)); /* b inf */
        jx_op(e, JX_VPAND, 6, 6, 7);
        jx_op(e, JX_VPAND, 4, 4, 5);
        jx_op(e, JX_VPOR, 4, 4, 6);
        jx_cmpps(e, 6, 2, 2, 3);                       /* c NaN */
        jx_op(e, JX_VPANDN, 4, 6, 4);
        jx_op(e, JX_VPANDN, 0, 4, 0);
        jx_op(e, JX_VPANDN, 1, 4, 1);
    }
    if (e->sse) {                /* two binary64 pairs, the clamped d kept in xmm5 meanwhile */
        jx_opm(e, JX_VPMAXSD, 5, 3, R14, KROW(KR_M600));
        jx_opm(e, JX_VPMINSD, 5, 5, R14, KROW(KR_600));
        for (unsigned h = 0; h < 2; h++) {
            product_sse(e, h);
            odd_sum_sse(e);
            if (h) {
                jx_sse_pshufd(e, 7, 5, 0xee);
                jx_op(e, JX_VPMOVSXDQ, 7, 0, 7);
            } else {
                jx_op(e, JX_VPMOVSXDQ, 7, 0, 5);
            }
            jx_opm(e, JX_VPADDQ, 7, 7, R14, KROW(KR_Q_1023));
            jx_shlq_imm(e, 7, 7, 52);                  /* 2^d */
            jx_op(e, JX_VMULPD, 15, 15, 7);            /* exact: stays in binary64's range */
            jx_op(e, JX_VCVTPD2PS, 4 + h, 0, 15);
        }
        jx_op(e, JX_VPUNPCKLQDQ, 4, 4, 5);
        return 4;
    }
    for (unsigned h = 0; h < (e->l ? 2u : 1u); h++) {
        if (h) {
            for (unsigned s = 0; s < 4; s++)
                jx_extract_hi(e, s, s);
        }
        W1(jx_op(e, JX_VCVTPS2PD, 12, 0, 0));
        W1(jx_op(e, JX_VCVTPS2PD, 13, 0, 1));
        W1(jx_op(e, JX_VMULPD, 12, 12, 13));            /* p = a * b, exact */
        W1(jx_op(e, JX_VCVTPS2PD, 13, 0, 2));           /* c */
        W1(jx_op(e, JX_VADDPD, 14, 12, 13));            /* od = p + c */
        W1(jx_op(e, JX_VSUBPD, 15, 14, 12));            /* bb = od - p */
        W1(jx_op(e, JX_VSUBPD, 6, 14, 15));
        W1(jx_op(e, JX_VSUBPD, 6, 12, 6));
        W1(jx_op(e, JX_VSUBPD, 7, 13, 15));
        W1(jx_op(e, JX_VADDPD, 6, 6, 7));               /* err = (p - (od - bb)) + (c - bb) */
        W1(jx_opm(e, JX_VPAND, 12, 14, R14, KROW(KR_Q_ABS)));
        W1(jx_load(e, 13, R14, KROW(KR_Q_INF)));
        W1(jx_cmppd(e, 12, 12, 13, 0x11));              /* od finite */
        W1(jx_op(e, JX_VPXOR, 13, 13, 13));
        W1(jx_cmppd(e, 15, 6, 13, 0x04));               /* err != 0 */
        W1(jx_op(e, JX_VPAND, 12, 12, 15));             /* inexact: round to odd */
        W1(jx_cmppd(e, 15, 14, 13, 0x1e));
        W1(jx_cmppd(e, 7, 6, 13, 0x1e));
        W1(jx_op(e, JX_VPXOR, 15, 15, 7));
        W1(jx_op(e, JX_VPAND, 15, 15, 12));             /* od rounded up: one step toward zero */
        W1(jx_op(e, JX_VPADDQ, 14, 14, 15));
        W1(jx_opm(e, JX_VPAND, 12, 12, R14, KROW(KR_Q_ONE)));
        W1(jx_op(e, JX_VPOR, 14, 14, 12));
        W0(jx_opm(e, JX_VPMAXSD, 7, 3, R14, KROW(KR_M600)));
        W0(jx_opm(e, JX_VPMINSD, 7, 7, R14, KROW(KR_600)));
        W1(jx_op(e, JX_VPMOVSXDQ, 7, 0, 7));
        W1(jx_opm(e, JX_VPADDQ, 7, 7, R14, KROW(KR_Q_1023)));
        W1(jx_shlq_imm(e, 7, 7, 52));                   /* 2^d */
        W1(jx_op(e, JX_VMULPD, 14, 14, 7));             /* exact: stays in binary64's range */
        W1(jx_op(e, JX_VCVTPD2PS, 4 + h, 0, 14));
    }
    if (e->l)
        jx_insert_hi(e, 4, 4, 5);
    return 4;
}

/* F32_TO_S32 / F32_TO_U32 truncating (bx_f2i): NaN -> 0, saturated */
unsigned bx_jc_f2i(jcomp *jc, int is_signed)
{
    jx_emit *e = &jc->e;
    if (is_signed) {
        jx_op(e, JX_VCVTTPS2DQ, 4, 0, 0);
        jx_cmpps(e, 5, 0, 0, 3);
        jx_op(e, JX_VPANDN, 4, 5, 4);                  /* NaN -> 0 */
        jx_load(e, 6, R14, KROW(KR_F2P31));
        jx_cmpps(e, 6, 0, 6, 0x1d);
        jx_op(e, JX_VPXOR, 4, 4, 6);                   /* >= 2^31: 0x80000000 -> 0x7fffffff */
        return 4;
    }
    jx_load(e, 6, R14, KROW(KR_F2P31));
    jx_cmpps(e, 5, 0, 6, 0x1d);                        /* >= 2^31 */
    jx_op(e, JX_VPAND, 6, 6, 5);
    jx_op(e, JX_VSUBPS, 6, 0, 6);                      /* exact */
    jx_op(e, JX_VCVTTPS2DQ, 4, 0, 6);
    jx_opm(e, JX_VPAND, 6, 5, R14, KROW(KR_SIGN));
    jx_op(e, JX_VPXOR, 4, 4, 6);
    jx_load(e, 6, R14, KROW(KR_F2P32));
    jx_cmpps(e, 6, 0, 6, 0x1d);
    jx_op(e, JX_VPOR, 4, 4, 6);                        /* >= 2^32: all ones */
    jx_op(e, JX_VPXOR, 5, 5, 5);
    jx_cmpps(e, 5, 0, 5, 0x1e);
    jx_op(e, JX_VPAND, 4, 4, 5);                       /* not > 0 (NaN too): 0 */
    return 4;
}

/* FMA for SSE code (4 lanes, no FMA instruction): a * b + c rounded once, as vfmadd231ps
 * rounds it: a * b exact in binary64, the sum rounded to odd (odd_sum_sse), then to binary32.
 * Sources in xmm0-2 with their modifiers and flush applied; the result in xmm4 (NaNs: the
 * caller's check).  Uses xmm3, 5-7, 12, 13, 15 (the caller clobbers the held rows of 12-15). */
unsigned bx_jc_fma_sse(jcomp *jc)
{
    jx_emit *e = &jc->e;
    for (unsigned h = 0; h < 2; h++) {
        product_sse(e, h);
        odd_sum_sse(e);
        jx_op(e, JX_VCVTPD2PS, 4 + h, 0, 15);          /* two lanes, the upper half zeroed */
    }
    jx_op(e, JX_VPUNPCKLQDQ, 4, 4, 5);
    return 4;
}
