/* AdvSIMD integer arithmetic, part 2: two-register miscellaneous, across
 * lanes, shift by immediate and scalar pairwise (vector and scalar forms).
 * See tr_simd_arith.c and the handler templates in simd_util.h. */
#include "translate.h"
#include <string.h>
#include "native.h"
#include "simd_util.h"

typedef const OpFn Tab[4][3];

#define UW(x) ((__typeof__(e))(x))
/* Lane i ^ K of Vn (element reversal inside containers). */
#define REVX(K) (((const __typeof__(a) *)vn)[i ^ (K)])

/* ---- Two-register miscellaneous ---------------------------------------------- */
DEF_E(t_rev64_0_0, u, 8, 0, REVX(7)) DEF_E(t_rev64_0_1, u, 8, 1, REVX(7))
DEF_E(t_rev64_1_0, u, 16, 0, REVX(3)) DEF_E(t_rev64_1_1, u, 16, 1, REVX(3))
DEF_E(t_rev64_2_0, u, 32, 0, REVX(1)) DEF_E(t_rev64_2_1, u, 32, 1, REVX(1))
DEF_E(t_rev32_0_0, u, 8, 0, REVX(3)) DEF_E(t_rev32_0_1, u, 8, 1, REVX(3))
DEF_E(t_rev32_1_0, u, 16, 0, REVX(1)) DEF_E(t_rev32_1_1, u, 16, 1, REVX(1))
DEF_E(t_rev16_0_0, u, 8, 0, REVX(1)) DEF_E(t_rev16_0_1, u, 8, 1, REVX(1))
static Tab t_rev64 = { { t_rev64_0_0, t_rev64_0_1, 0 }, { t_rev64_1_0, t_rev64_1_1, 0 },
                       { t_rev64_2_0, t_rev64_2_1, 0 }, { 0, 0, 0 } };
static Tab t_rev32 = { { t_rev32_0_0, t_rev32_0_1, 0 }, { t_rev32_1_0, t_rev32_1_1, 0 } };
static Tab t_rev16 = { { t_rev16_0_0, t_rev16_0_1, 0 } };

/* Pairwise long add (and accumulate): wide lane i = Vn[2i] + Vn[2i+1] (+ Vd[i]). */
#define DEF_PL(NAME, S, N, N2, MODE, ACC)                                               \
    static Op *NAME(CPUState *c, Op *o)                                                 \
    {                                                                                   \
        const VReg *vn = &c->v[o->n], *vd = &c->v[o->d];                                \
        VReg r;                                                                         \
        if ((MODE) != 1)                                                                \
            r.q = 0;                                                                    \
        for (int i = 0; i < NLANES(MODE, N2 / 8); i++) {                                \
            TY(u, N2) s = (TY(u, N2))((TY(S, N2))vn->FL(S, N)[2 * i] +                  \
                                      (TY(S, N2))vn->FL(S, N)[2 * i + 1]);              \
            r.FL(u, N2)[i] = (TY(u, N2))((ACC) ? vd->FL(u, N2)[i] + s : s);             \
        }                                                                               \
        c->v[o->d] = r;                                                                 \
        return op_next(c, o);                                                                   \
    }
#define GEN_PL(NAME, S, ACC)                                                            \
    DEF_PL(NAME##_0_0, S, 8, 16, 0, ACC) DEF_PL(NAME##_0_1, S, 8, 16, 1, ACC)           \
    DEF_PL(NAME##_1_0, S, 16, 32, 0, ACC) DEF_PL(NAME##_1_1, S, 16, 32, 1, ACC)         \
    DEF_PL(NAME##_2_0, S, 32, 64, 0, ACC) DEF_PL(NAME##_2_1, S, 32, 64, 1, ACC)         \
    static Tab NAME = { { NAME##_0_0, NAME##_0_1, 0 }, { NAME##_1_0, NAME##_1_1, 0 },   \
                        { NAME##_2_0, NAME##_2_1, 0 }, { 0, 0, 0 } };
GEN_PL(t_saddlp, s, 0)
GEN_PL(t_uaddlp, u, 0)
GEN_PL(t_sadalp, s, 1)
GEN_PL(t_uadalp, u, 1)

GEN_E(t_suqadd, s, simd_sat_s((__int128)e + (__int128)((uint64_t)a & simd_umax(bits)), bits, &qc))
GEN_E(t_usqadd, u, simd_sat_u((__int128)e + simd_sext(a, bits), bits, &qc))
GEN_EV(t_cls, s, simd_cls(a, bits))
GEN_EV(t_clz, u, simd_clz(a, bits))
DEF_E(t_cnt_0, u, 8, 0, simd_cnt8(a)) DEF_E(t_cnt_1, u, 8, 1, simd_cnt8(a))
DEF_E(t_not_0, u, 64, 0, ~a) DEF_E(t_not_1, u, 64, 1, ~a)
DEF_E(t_rbit_0, u, 8, 0, simd_rbit8(a)) DEF_E(t_rbit_1, u, 8, 1, simd_rbit8(a))
static Tab t_cnt = { { t_cnt_0, t_cnt_1, 0 } };
static Tab t_not = { { t_not_0, t_not_1, 0 } };
static Tab t_rbit = { { t_rbit_0, t_rbit_1, 0 } };
GEN_E(t_sqabs, s, simd_sat_s(a < 0 ? -(__int128)a : (__int128)a, bits, &qc))
GEN_E(t_sqneg, s, simd_sat_s(-(__int128)a, bits, &qc))
GEN_E(t_cmgt0, s, a > 0 ? -1 : 0)
GEN_E(t_cmge0, s, a >= 0 ? -1 : 0)
GEN_E(t_cmeq0, s, a == 0 ? -1 : 0)
GEN_E(t_cmle0, s, a <= 0 ? -1 : 0)
GEN_E(t_cmlt0, s, a < 0 ? -1 : 0)
GEN_E(t_abs, s, a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a)
GEN_E(t_neg, u, 0 - a)
GEN_N(t_xtn, u, a)
GEN_N(t_sqxtn, s, simd_sat_s(a, bits, &qc))
GEN_N(t_uqxtn, u, simd_sat_u(a, bits, &qc))
GEN_N(t_sqxtun, s, simd_sat_u(a, bits, &qc))
GEN_L(t_shll, u, 0, UW(a) << bits)
DEF_E(t_urecpe_0, u, 32, 0, simd_urecpe(a)) DEF_E(t_urecpe_1, u, 32, 1, simd_urecpe(a))
DEF_E(t_ursqrte_0, u, 32, 0, simd_ursqrte(a)) DEF_E(t_ursqrte_1, u, 32, 1, simd_ursqrte(a))
static Tab t_urecpe = { { 0 }, { 0 }, { t_urecpe_0, t_urecpe_1, 0 } };
static Tab t_ursqrte = { { 0 }, { 0 }, { t_ursqrte_0, t_ursqrte_1, 0 } };

/* Element-wise misc ops: [u][opcode] -> table and the valid sizes (bit mask);
 * size 3 additionally needs Q = 1. */
typedef struct { Tab *t; uint8_t sizes; } MiscOp;
static const MiscOp misc_ops[2][32] = {
    { [0x00] = { &t_rev64, 7 }, [0x01] = { &t_rev16, 1 }, [0x03] = { &t_suqadd, 15 },
      [0x04] = { &t_cls, 7 }, [0x05] = { &t_cnt, 1 }, [0x07] = { &t_sqabs, 15 },
      [0x08] = { &t_cmgt0, 15 }, [0x09] = { &t_cmeq0, 15 }, [0x0a] = { &t_cmlt0, 15 },
      [0x0b] = { &t_abs, 15 }, [0x1c] = { &t_urecpe, 4 } },
    { [0x00] = { &t_rev32, 3 }, [0x03] = { &t_usqadd, 15 }, [0x04] = { &t_clz, 7 },
      [0x07] = { &t_sqneg, 15 }, [0x08] = { &t_cmge0, 15 }, [0x09] = { &t_cmle0, 15 },
      [0x0b] = { &t_neg, 15 }, [0x1c] = { &t_ursqrte, 4 } },
};

bool trans_SIMD_2misc(DisasCtx *s, arg_SIMD_2misc *a)
{
    int u = a->u, opc = a->opc, size = a->size, q = a->q;
    Tab *t = NULL;
    switch (opc) {
    case 0x02: t = u ? &t_uaddlp : &t_saddlp; break;
    case 0x06: t = u ? &t_uadalp : &t_sadalp; break;
    case 0x05:
        if (u) {
            if (size > 1)
                return false;
            simd_emit(s, (*(size ? &t_rbit : &t_not))[0][q], a->rd, a->rn, 0, 0);
            return true;
        }
        break;
    case 0x12: t = u ? &t_sqxtun : &t_xtn; break;
    case 0x13: if (!u) return false; t = &t_shll; break;
    case 0x14: t = u ? &t_uqxtn : &t_sqxtn; break;
    default: break;
    }
    if (t) { /* widening / narrowing: size 3 reserved */
        if (size == 3)
            return false;
        simd_emit(s, (*t)[size][q], a->rd, a->rn, 0, 0);
        return true;
    }
    const MiscOp *m = &misc_ops[u][opc];
    if (!m->t || !((m->sizes >> size) & 1) || (size == 3 && !q))
        return false;
    simd_emit(s, (*m->t)[size][q], a->rd, a->rn, 0, 0);
    return true;
}

bool trans_SIMD_s2misc(DisasCtx *s, arg_SIMD_s2misc *a)
{
    int u = a->u, opc = a->opc, size = a->size;
    Tab *t = NULL;
    switch (opc) {
    case 0x03: t = u ? &t_usqadd : &t_suqadd; break;
    case 0x07: t = u ? &t_sqneg : &t_sqabs; break;
    case 0x08: case 0x09: case 0x0a: case 0x0b:
        if (size != 3 || (u && opc == 0x0a))
            return false;
        t = misc_ops[u][opc].t;
        break;
    case 0x12: if (!u) return false; t = &t_sqxtun; break;
    case 0x14: t = u ? &t_uqxtn : &t_sqxtn; break;
    default: return false;
    }
    if ((opc == 0x12 || opc == 0x14) && size == 3)
        return false;
    simd_emit(s, (*t)[size][2], a->rd, a->rn, 0, 0);
    return true;
}

/* ---- Across lanes -------------------------------------------------------------- */
/* acc starts as lane 0 (widened to the result type R); EXPR folds in lane a. */
#define DEF_R(NAME, S, N, RN, MODE, EXPR)                                               \
    static Op *NAME(CPUState *c, Op *o)                                                 \
    {                                                                                   \
        const VReg *vn = &c->v[o->n];                                                   \
        VReg r = { .q = 0 };                                                            \
        TY(S, RN) acc = vn->FL(S, N)[0];                                                \
        for (int i = 1; i < NLANES(MODE, N / 8); i++) {                                 \
            TY(S, N) a = vn->FL(S, N)[i];                                               \
            acc = (TY(S, RN))(EXPR);                                                    \
        }                                                                               \
        r.FL(S, RN)[0] = acc;                                                           \
        c->v[o->d] = r;                                                                 \
        return op_next(c, o);                                                                   \
    }
DEF_R(t_addv_0_0, u, 8, 8, 0, acc + a) DEF_R(t_addv_0_1, u, 8, 8, 1, acc + a)
DEF_R(t_addv_1_0, u, 16, 16, 0, acc + a) DEF_R(t_addv_1_1, u, 16, 16, 1, acc + a)
DEF_R(t_addv_2_1, u, 32, 32, 1, acc + a)
DEF_R(t_smaxv_0_0, s, 8, 8, 0, a > acc ? a : acc) DEF_R(t_smaxv_0_1, s, 8, 8, 1, a > acc ? a : acc)
DEF_R(t_smaxv_1_0, s, 16, 16, 0, a > acc ? a : acc) DEF_R(t_smaxv_1_1, s, 16, 16, 1, a > acc ? a : acc)
DEF_R(t_smaxv_2_1, s, 32, 32, 1, a > acc ? a : acc)
DEF_R(t_umaxv_0_0, u, 8, 8, 0, a > acc ? a : acc) DEF_R(t_umaxv_0_1, u, 8, 8, 1, a > acc ? a : acc)
DEF_R(t_umaxv_1_0, u, 16, 16, 0, a > acc ? a : acc) DEF_R(t_umaxv_1_1, u, 16, 16, 1, a > acc ? a : acc)
DEF_R(t_umaxv_2_1, u, 32, 32, 1, a > acc ? a : acc)
DEF_R(t_sminv_0_0, s, 8, 8, 0, a < acc ? a : acc) DEF_R(t_sminv_0_1, s, 8, 8, 1, a < acc ? a : acc)
DEF_R(t_sminv_1_0, s, 16, 16, 0, a < acc ? a : acc) DEF_R(t_sminv_1_1, s, 16, 16, 1, a < acc ? a : acc)
DEF_R(t_sminv_2_1, s, 32, 32, 1, a < acc ? a : acc)
DEF_R(t_uminv_0_0, u, 8, 8, 0, a < acc ? a : acc) DEF_R(t_uminv_0_1, u, 8, 8, 1, a < acc ? a : acc)
DEF_R(t_uminv_1_0, u, 16, 16, 0, a < acc ? a : acc) DEF_R(t_uminv_1_1, u, 16, 16, 1, a < acc ? a : acc)
DEF_R(t_uminv_2_1, u, 32, 32, 1, a < acc ? a : acc)
DEF_R(t_saddlv_0_0, s, 8, 16, 0, acc + a) DEF_R(t_saddlv_0_1, s, 8, 16, 1, acc + a)
DEF_R(t_saddlv_1_0, s, 16, 32, 0, acc + a) DEF_R(t_saddlv_1_1, s, 16, 32, 1, acc + a)
DEF_R(t_saddlv_2_1, s, 32, 64, 1, acc + a)
DEF_R(t_uaddlv_0_0, u, 8, 16, 0, acc + a) DEF_R(t_uaddlv_0_1, u, 8, 16, 1, acc + a)
DEF_R(t_uaddlv_1_0, u, 16, 32, 0, acc + a) DEF_R(t_uaddlv_1_1, u, 16, 32, 1, acc + a)
DEF_R(t_uaddlv_2_1, u, 32, 64, 1, acc + a)
#define RTAB(NAME) \
    static Tab NAME = { { NAME##_0_0, NAME##_0_1, 0 }, { NAME##_1_0, NAME##_1_1, 0 }, { 0, NAME##_2_1, 0 } };
RTAB(t_addv) RTAB(t_smaxv) RTAB(t_umaxv) RTAB(t_sminv) RTAB(t_uminv) RTAB(t_saddlv) RTAB(t_uaddlv)

bool trans_SIMD_across(DisasCtx *s, arg_SIMD_across *a)
{
    Tab *t;
    switch (a->opc) {
    case 0x03: t = a->u ? &t_uaddlv : &t_saddlv; break;
    case 0x0a: t = a->u ? &t_umaxv : &t_smaxv; break;
    case 0x1a: t = a->u ? &t_uminv : &t_sminv; break;
    case 0x1b: if (a->u) return false; t = &t_addv; break;
    default: return false;
    }
    if (a->size == 3 || (a->size == 2 && !a->q))
        return false;
    simd_emit(s, (*t)[a->size][a->q], a->rd, a->rn, 0, 0);
    return true;
}

/* ---- Scalar pairwise: ADDP (D) ------------------------------------------------ */
static Op *t_addp_d(CPUState *c, Op *o)
{
    VReg r = { .d = { c->v[o->n].d[0] + c->v[o->n].d[1], 0 } };
    c->v[o->d] = r;
    return op_next(c, o);
}

bool trans_SIMD_spair(DisasCtx *s, arg_SIMD_spair *a)
{
    if (a->u || a->opc != 0x1b || a->size != 3)
        return false;
    simd_emit(s, t_addp_d, a->rd, a->rn, 0, 0);
    return true;
}

/* ---- Shift by immediate ----------------------------------------------------------- */
/* The plain shifts use GCC vector types so that each is a handful of host SIMD
 * instructions: the lane-type shifts avoid C's integer promotions.  For Q = 0
 * the upper half is computed and then zeroed; the scalar (D) form is the
 * 64-bit-vector handler of size 3. */
typedef uint8_t vu8 __attribute__((vector_size(16)));
typedef uint16_t vu16 __attribute__((vector_size(16)));
typedef uint32_t vu32 __attribute__((vector_size(16)));
typedef uint64_t vu64 __attribute__((vector_size(16)));
typedef int8_t vs8 __attribute__((vector_size(16)));
typedef int16_t vs16 __attribute__((vector_size(16)));
typedef int32_t vs32 __attribute__((vector_size(16)));
typedef int64_t vs64 __attribute__((vector_size(16)));
#define DEF_VS(NAME, VT, VUT, Q, EXPR)                                                  \
    static Op *NAME(CPUState *c, Op *o)                                                 \
    {                                                                                   \
        typedef VUT uvec __attribute__((unused)); /* unsigned twin: wrapping sums */  \
        VT a, e, r;                                                                     \
        const int sh = (int)o->imm;                                                     \
        memcpy(&a, &c->v[o->n], 16);                                                    \
        memcpy(&e, &c->v[o->d], 16);                                                    \
        (void)e; (void)sh;                                                              \
        r = (EXPR);                                                                     \
        VReg out;                                                                       \
        memcpy(&out, &r, 16);                                                           \
        if (!(Q))                                                                       \
            out.d[1] = 0;                                                               \
        c->v[o->d] = out;                                                               \
        return op_next(c, o);                                                                   \
    }
#define GEN_VS(NAME, S, EXPR)                                                           \
    DEF_VS(NAME##_0_0, v##S##8, vu8, 0, EXPR) DEF_VS(NAME##_0_1, v##S##8, vu8, 1, EXPR)         \
    DEF_VS(NAME##_1_0, v##S##16, vu16, 0, EXPR) DEF_VS(NAME##_1_1, v##S##16, vu16, 1, EXPR)     \
    DEF_VS(NAME##_2_0, v##S##32, vu32, 0, EXPR) DEF_VS(NAME##_2_1, v##S##32, vu32, 1, EXPR)     \
    DEF_VS(NAME##_3_0, v##S##64, vu64, 0, EXPR) DEF_VS(NAME##_3_1, v##S##64, vu64, 1, EXPR)     \
    static Tab NAME = { { NAME##_0_0, NAME##_0_1, NAME##_0_0 },                         \
                        { NAME##_1_0, NAME##_1_1, NAME##_1_0 },                         \
                        { NAME##_2_0, NAME##_2_1, NAME##_2_0 },                         \
                        { NAME##_3_0, NAME##_3_1, NAME##_3_0 } };
/* Vector right shift by 1..esize, rounding right shift, all-ones vector. */
#define VSHR(v, sh) (((v) >> ((sh) - 1)) >> 1)
#define VRSHR(v, sh) (VSHR(v, sh) + (((v) >> ((sh) - 1)) & 1))
#define VONES (~(__typeof__(a)){ 0 })
GEN_VS(t_sshr, s, VSHR(a, sh))
GEN_VS(t_ushr, u, VSHR(a, sh))
GEN_VS(t_ssra, s, (__typeof__(a))((uvec)e + (uvec)VSHR(a, sh)))
GEN_VS(t_usra, u, e + VSHR(a, sh))
GEN_VS(t_srshr, s, VRSHR(a, sh))
GEN_VS(t_urshr, u, VRSHR(a, sh))
GEN_VS(t_srsra, s, (__typeof__(a))((uvec)e + (uvec)VRSHR(a, sh)))
GEN_VS(t_ursra, u, e + VRSHR(a, sh))
GEN_VS(t_sri, u, (e & ~VSHR(VONES, sh)) | VSHR(a, sh))
GEN_VS(t_shl, u, a << sh)
GEN_VS(t_sli, u, (e & ~(VONES << sh)) | (a << sh))
GEN_E(t_sqshlu, s, simd_qshlu(a, sh, bits, &qc))
GEN_E(t_sqshli, s, simd_qshl_s(a, sh, bits, false, &qc))
GEN_E(t_uqshli, u, simd_qshl_u(a, sh, bits, false, &qc))
GEN_N(t_shrn, u, a >> sh)
GEN_N(t_rshrn, u, simd_rshr_u(a, sh))
GEN_N(t_sqshrn, s, simd_sat_s(a >> sh, bits, &qc))
GEN_N(t_uqshrn, u, simd_sat_u(a >> sh, bits, &qc))
GEN_N(t_sqrshrn, s, simd_sat_s(simd_rshr_s(a, sh), bits, &qc))
GEN_N(t_uqrshrn, u, simd_sat_u(simd_rshr_u(a, sh), bits, &qc))
GEN_N(t_sqshrun, s, simd_sat_u(a >> sh, bits, &qc))
GEN_N(t_sqrshrun, s, simd_sat_u(simd_rshr_s(a, sh), bits, &qc))
GEN_L(t_sshll, s, 0, UW(a) << sh)
GEN_L(t_ushll, u, 0, UW(a) << sh)

/* kind: 0 = right shift (same width), 1 = left shift, 2 = narrowing right, 3 = widening left */
typedef struct { Tab *t; uint8_t kind; } ShiftOp;
static const ShiftOp shift_ops[2][21] = {
    { [0x00] = { &t_sshr, 0 }, [0x02] = { &t_ssra, 0 }, [0x04] = { &t_srshr, 0 },
      [0x06] = { &t_srsra, 0 }, [0x0a] = { &t_shl, 1 }, [0x0e] = { &t_sqshli, 1 },
      [0x10] = { &t_shrn, 2 }, [0x11] = { &t_rshrn, 2 }, [0x12] = { &t_sqshrn, 2 },
      [0x13] = { &t_sqrshrn, 2 }, [0x14] = { &t_sshll, 3 } },
    { [0x00] = { &t_ushr, 0 }, [0x02] = { &t_usra, 0 }, [0x04] = { &t_urshr, 0 },
      [0x06] = { &t_ursra, 0 }, [0x08] = { &t_sri, 0 }, [0x0a] = { &t_sli, 1 },
      [0x0c] = { &t_sqshlu, 1 }, [0x0e] = { &t_uqshli, 1 }, [0x10] = { &t_sqshrun, 2 },
      [0x11] = { &t_sqrshrun, 2 }, [0x12] = { &t_uqshrn, 2 }, [0x13] = { &t_uqrshrn, 2 },
      [0x14] = { &t_ushll, 3 } },
};

static bool do_shift_imm(DisasCtx *s, int q, int u, int immh, int immb, int opc, int rd, int rn,
                         bool scalar)
{
    if (immh == 0 || opc > 0x14)
        return false; /* modified immediate; fixed-point conversions (FP) */
    const ShiftOp *op = &shift_ops[u][opc];
    if (!op->t)
        return false;
    int size = 31 - __builtin_clz((unsigned)immh);
    int esize = 8 << size, immhb = immh << 3 | immb;
    int sh = op->kind == 0 || op->kind == 2 ? 2 * esize - immhb : immhb - esize;
    if (op->kind >= 2) { /* narrowing / widening: no 64-bit source element size */
        if (size == 3)
            return false;
        if (scalar && (op->kind == 3 || (!u && (opc == 0x10 || opc == 0x11))))
            return false; /* SHRN, RSHRN, SSHLL/USHLL have no scalar form */
    } else if (scalar) {
        /* Only the saturating left shifts have B/H/S scalar forms. */
        if (size != 3 && opc != 0x0c && opc != 0x0e)
            return false;
    } else if (size == 3 && !q) {
        return false;
    }
    simd_emit(s, (*op->t)[size][scalar ? 2 : q], rd, rn, 0, (uint64_t)sh);
    return true;
}

bool trans_SIMD_shimm(DisasCtx *s, arg_SIMD_shimm *a)
{
    return do_shift_imm(s, a->q, a->u, a->immh, a->immb, a->opc, a->rd, a->rn, false);
}

bool trans_SIMD_sshimm(DisasCtx *s, arg_SIMD_sshimm *a)
{
    return do_shift_imm(s, 0, a->u, a->immh, a->immb, a->opc, a->rd, a->rn, true);
}

/* ---- description for the native back end (native.h, native_simd.c) ---------------------- */
#if MALIBU_HAVE_NATIVE
static void describe_simd_arith_misc(void)
{
    static const struct { Tab *t; uint8_t op; } e[] = {
        { &t_not, NVEC_NOT },     { &t_neg, NVEC_NEG },     { &t_cmeq0, NVEC_CMEQ0 }, { &t_cmgt0, NVEC_CMGT0 },
        { &t_cmge0, NVEC_CMGE0 }, { &t_cmle0, NVEC_CMLE0 }, { &t_cmlt0, NVEC_CMLT0 }, { &t_shl, NVEC_SHL },
        { &t_ushr, NVEC_USHR },   { &t_sshr, NVEC_SSHR },   { &t_usra, NVEC_USRA },   { &t_ssra, NVEC_SSRA },
        { &t_sri, NVEC_SRI },     { &t_sli, NVEC_SLI },     { &t_rev16, NVEC_REV16 }, { &t_rev32, NVEC_REV32 },
        { &t_rev64, NVEC_REV64 },
    };
    for (unsigned k = 0; k < sizeof e / sizeof e[0]; k++)
        simd_bind_tab(*e[k].t, e[k].op);
    /* narrowing: size = the narrow element; mode 1 writes the upper half (SHRN2, XTN2) */
    for (int size = 0; size < 3; size++)
        for (int mode = 0; mode < 2; mode++) {
            NativeDesc d = { .kind = NK_VEC, .op = mode ? NVEC_SHRN2 : NVEC_SHRN, .size = (uint8_t)size };
            native_bind(t_shrn[size][mode], d);
            native_bind(t_xtn[size][mode], d);
        }
    native_bind(t_addp_d, (NativeDesc){ .kind = NK_VEC, .op = NVEC_ADDP_D, .size = 3 });
}
NATIVE_DESCRIBER(describe_simd_arith_misc)
#endif
