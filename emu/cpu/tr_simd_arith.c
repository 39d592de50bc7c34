/* AdvSIMD integer arithmetic, vector and scalar: three same, three different,
 * two-register miscellaneous, shift by immediate, across lanes, scalar pairwise.
 * Handlers come from the templates in simd_util.h, one per element size and
 * shape (64-bit vector / 128-bit vector / scalar); the translators only pick
 * a handler from a table.  Encodings that belong to the floating-point groups
 * (or are unallocated) make the translator return false. */
#include "translate.h"
#include "native.h"
#include "simd_util.h"

typedef const OpFn Tab[4][3];

/* Unsigned wide type of the destination lane (long ops) for modular arithmetic. */
#define UW(x) ((__typeof__(e))(x))
#define ABD(a, b) ((a) > (b) ? (uint64_t)(a) - (uint64_t)(b) : (uint64_t)(b) - (uint64_t)(a))
#define RSHR(a, sh) ((((a) >> ((sh) - 1)) >> 1) + (((a) >> ((sh) - 1)) & 1))
#define SHR(a, sh) (((a) >> ((sh) - 1)) >> 1)

/* ---- Three same ------------------------------------------------------------- */
GEN_EV(t_shadd, s, SIMD_HADD(a, b))
GEN_EV(t_uhadd, u, SIMD_HADD(a, b))
GEN_EV(t_srhadd, s, SIMD_RHADD(a, b))
GEN_EV(t_urhadd, u, SIMD_RHADD(a, b))
GEN_EV(t_shsub, s, SIMD_HSUB(a, b))
GEN_EV(t_uhsub, u, SIMD_HSUB(a, b))
/* Saturating add/sub: lanes below 64 bits clamp an exact wider result
 * (branch-free, vectorisable); 64-bit lanes use overflow builtins. */
#define CLAMP(t, lo, hi) ({ __typeof__(t) t_ = (t), c_ = t_ > (hi) ? (hi) : t_ < (lo) ? (lo) : t_; \
                            qc |= c_ != t_; c_; })
#define CLAMP_S(t) ((__typeof__(a))CLAMP(t, simd_smin(bits), simd_smax(bits)))
#define CLAMP_U(t) ((__typeof__(a))CLAMP(t, 0, (int64_t)simd_umax(bits)))
GEN_E(t_sqadd, s, bits < 32 ? CLAMP_S((int)a + (int)b) : bits < 64 ? CLAMP_S((int64_t)a + (int64_t)b) : SIMD_QADD_S(a, b, &qc))
GEN_E(t_uqadd, u, bits < 32 ? CLAMP_U((int)a + (int)b) : bits < 64 ? CLAMP_U((int64_t)a + (int64_t)b) : SIMD_QADD_U(a, b, &qc))
GEN_E(t_sqsub, s, bits < 32 ? CLAMP_S((int)a - (int)b) : bits < 64 ? CLAMP_S((int64_t)a - (int64_t)b) : SIMD_QSUB_S(a, b, &qc))
GEN_E(t_uqsub, u, bits < 32 ? CLAMP_U((int)a - (int)b) : bits < 64 ? CLAMP_U((int64_t)a - (int64_t)b) : SIMD_QSUB_U(a, b, &qc))
GEN_E(t_cmgt, s, a > b ? -1 : 0)
GEN_E(t_cmhi, u, a > b ? -1 : 0)
GEN_E(t_cmge, s, a >= b ? -1 : 0)
GEN_E(t_cmhs, u, a >= b ? -1 : 0)
GEN_E(t_cmeq, u, a == b ? -1 : 0)
GEN_E(t_cmtst, u, (a & b) ? -1 : 0)
GEN_E(t_sshl, s, simd_shl_s(a, (int8_t)b, bits, false))
GEN_E(t_ushl, u, simd_shl_u(a, (int8_t)b, bits, false))
GEN_E(t_srshl, s, simd_shl_s(a, (int8_t)b, bits, true))
GEN_E(t_urshl, u, simd_shl_u(a, (int8_t)b, bits, true))
GEN_E(t_sqshl, s, simd_qshl_s(a, (int8_t)b, bits, false, &qc))
GEN_E(t_uqshl, u, simd_qshl_u(a, (int8_t)b, bits, false, &qc))
GEN_E(t_sqrshl, s, simd_qshl_s(a, (int8_t)b, bits, true, &qc))
GEN_E(t_uqrshl, u, simd_qshl_u(a, (int8_t)b, bits, true, &qc))
GEN_EV(t_smax, s, a > b ? a : b)
GEN_EV(t_umax, u, a > b ? a : b)
GEN_EV(t_smin, s, a < b ? a : b)
GEN_EV(t_umin, u, a < b ? a : b)
GEN_EV(t_sabd, s, ABD(a, b))
GEN_EV(t_uabd, u, ABD(a, b))
GEN_EV(t_saba, s, (uint64_t)e + ABD(a, b))
GEN_EV(t_uaba, u, (uint64_t)e + ABD(a, b))
GEN_E(t_add, u, a + b)
GEN_E(t_sub, u, a - b)
GEN_EV(t_mla, u, e + 1u * a * b)
GEN_EV(t_mls, u, e - 1u * a * b)
GEN_EV(t_mul, u, 1u * a * b)
GEN_EV(t_pmul, u, simd_pmul8((uint8_t)a, (uint8_t)b))
GEN_E(t_sqdmulh, s, simd_sqdmulh(a, b, bits, false, &qc))
GEN_E(t_sqrdmulh, s, simd_sqdmulh(a, b, bits, true, &qc))

/* Bitwise ops on 64-bit lanes: table [op][q], op = U:size. */
DEF_E(t_and_0, u, 64, 0, a & b) DEF_E(t_and_1, u, 64, 1, a & b)
DEF_E(t_bic_0, u, 64, 0, a & ~b) DEF_E(t_bic_1, u, 64, 1, a & ~b)
DEF_E(t_orr_0, u, 64, 0, a | b) DEF_E(t_orr_1, u, 64, 1, a | b)
DEF_E(t_orn_0, u, 64, 0, a | ~b) DEF_E(t_orn_1, u, 64, 1, a | ~b)
DEF_E(t_eor_0, u, 64, 0, a ^ b) DEF_E(t_eor_1, u, 64, 1, a ^ b)
DEF_E(t_bsl_0, u, 64, 0, (e & a) | (~e & b)) DEF_E(t_bsl_1, u, 64, 1, (e & a) | (~e & b))
DEF_E(t_bit_0, u, 64, 0, (e & ~b) | (a & b)) DEF_E(t_bit_1, u, 64, 1, (e & ~b) | (a & b))
DEF_E(t_bif_0, u, 64, 0, (e & b) | (a & ~b)) DEF_E(t_bif_1, u, 64, 1, (e & b) | (a & ~b))
static const OpFn t_logic[8][2] = {
    { t_and_0, t_and_1 }, { t_bic_0, t_bic_1 }, { t_orr_0, t_orr_1 }, { t_orn_0, t_orn_1 },
    { t_eor_0, t_eor_1 }, { t_bsl_0, t_bsl_1 }, { t_bit_0, t_bit_1 }, { t_bif_0, t_bif_1 },
};

/* Pairwise: the concatenation Vm:Vn reduced pairwise (a = even lane, b = odd lane). */
#define DEF_P(NAME, S, N, MODE, EXPR)                                                   \
    static Op *NAME(CPUState *c, Op *o)                                                 \
    {                                                                                   \
        const VReg *vn = &c->v[o->n], *vm = &c->v[o->m];                                \
        VReg r;                                                                         \
        const int h = NLANES(MODE, N / 8) / 2;                                          \
        if ((MODE) != 1)                                                                \
            r.q = 0;                                                                    \
        for (int i = 0; i < h; i++) {                                                   \
            TY(S, N) a = vn->FL(S, N)[2 * i], b = vn->FL(S, N)[2 * i + 1];              \
            r.FL(S, N)[i] = (TY(S, N))(EXPR);                                           \
        }                                                                               \
        for (int i = 0; i < h; i++) {                                                   \
            TY(S, N) a = vm->FL(S, N)[2 * i], b = vm->FL(S, N)[2 * i + 1];              \
            r.FL(S, N)[h + i] = (TY(S, N))(EXPR);                                       \
        }                                                                               \
        c->v[o->d] = r;                                                                 \
        return op_next(c, o);                                                                   \
    }
#define GEN_P(NAME, S, EXPR)                                                            \
    DEF_P(NAME##_0_0, S, 8, 0, EXPR) DEF_P(NAME##_0_1, S, 8, 1, EXPR)                  \
    DEF_P(NAME##_1_0, S, 16, 0, EXPR) DEF_P(NAME##_1_1, S, 16, 1, EXPR)                \
    DEF_P(NAME##_2_0, S, 32, 0, EXPR) DEF_P(NAME##_2_1, S, 32, 1, EXPR)                \
    DEF_P(NAME##_3_1, S, 64, 1, EXPR)                                                   \
    static const OpFn NAME[4][3] = {                                                    \
        { NAME##_0_0, NAME##_0_1, 0 }, { NAME##_1_0, NAME##_1_1, 0 },                   \
        { NAME##_2_0, NAME##_2_1, 0 }, { 0, NAME##_3_1, 0 },                            \
    };
GEN_P(t_addp, u, a + b)
GEN_P(t_smaxp, s, a > b ? a : b)
GEN_P(t_umaxp, u, a > b ? a : b)
GEN_P(t_sminp, s, a < b ? a : b)
GEN_P(t_uminp, u, a < b ? a : b)

/* [u][opcode] -> table; size rules in three_same_ok(). */
static Tab *const three_same_tab[2][24] = {
    { &t_shadd, &t_sqadd, &t_srhadd, 0, &t_shsub, &t_sqsub, &t_cmgt, &t_cmge,
      &t_sshl, &t_sqshl, &t_srshl, &t_sqrshl, &t_smax, &t_smin, &t_sabd, &t_saba,
      &t_add, &t_cmtst, &t_mla, &t_mul, &t_smaxp, &t_sminp, &t_sqdmulh, &t_addp },
    { &t_uhadd, &t_uqadd, &t_urhadd, 0, &t_uhsub, &t_uqsub, &t_cmhi, &t_cmhs,
      &t_ushl, &t_uqshl, &t_urshl, &t_uqrshl, &t_umax, &t_umin, &t_uabd, &t_uaba,
      &t_sub, &t_cmeq, &t_mls, &t_pmul, &t_umaxp, &t_uminp, &t_sqrdmulh, 0 },
};

static bool three_same_ok(int u, int opc, int size, int q, bool scalar)
{
    if (scalar) {
        switch (opc) {
        case 0x01: case 0x05: case 0x09: case 0x0b: return true;
        case 0x06: case 0x07: case 0x08: case 0x0a: case 0x10: case 0x11: return size == 3;
        case 0x16: return size == 1 || size == 2;
        default: return false;
        }
    }
    switch (opc) {
    case 0x00: case 0x02: case 0x04: case 0x0c: case 0x0d: case 0x0e: case 0x0f:
    case 0x12: case 0x14: case 0x15:
        return size != 3;
    case 0x13: return u ? size == 0 : size != 3;
    case 0x16: return size == 1 || size == 2;
    default: return size != 3 || q;
    }
}

static bool do_three_same(DisasCtx *s, int q, int u, int size, int opc, int rd, int rn, int rm, bool scalar)
{
    if (opc >= 0x18)
        return false; /* floating point */
    if (opc == 0x03) {
        if (scalar)
            return false;
        simd_emit(s, t_logic[u * 4 + size][q], rd, rn, rm, 0);
        return true;
    }
    Tab *t = three_same_tab[u][opc];
    if (!t || !three_same_ok(u, opc, size, q, scalar))
        return false;
    simd_emit(s, (*t)[size][scalar ? 2 : q], rd, rn, rm, 0);
    return true;
}

bool trans_SIMD_3same(DisasCtx *s, arg_SIMD_3same *a)
{
    return do_three_same(s, a->q, a->u, a->size, a->opc, a->rd, a->rn, a->rm, false);
}

bool trans_SIMD_s3same(DisasCtx *s, arg_SIMD_s3same *a)
{
    return do_three_same(s, 0, a->u, a->size, a->opc, a->rd, a->rn, a->rm, true);
}

/* ---- Three different ------------------------------------------------------------ */
GEN_L(t_saddl, s, 0, UW(a) + UW(b))
GEN_L(t_uaddl, u, 0, UW(a) + UW(b))
GEN_L(t_saddw, s, 1, UW(a) + UW(b))
GEN_L(t_uaddw, u, 1, UW(a) + UW(b))
GEN_L(t_ssubl, s, 0, UW(a) - UW(b))
GEN_L(t_usubl, u, 0, UW(a) - UW(b))
GEN_L(t_ssubw, s, 1, UW(a) - UW(b))
GEN_L(t_usubw, u, 1, UW(a) - UW(b))
GEN_L(t_sabal, s, 0, e + UW(ABD(a, b)))
GEN_L(t_uabal, u, 0, e + UW(ABD(a, b)))
GEN_L(t_sabdl, s, 0, ABD(a, b))
GEN_L(t_uabdl, u, 0, ABD(a, b))
GEN_L(t_smlal, s, 0, e + UW(a * b))
GEN_L(t_umlal, u, 0, e + UW(a * b))
GEN_L(t_smlsl, s, 0, e - UW(a * b))
GEN_L(t_umlsl, u, 0, e - UW(a * b))
GEN_L(t_smull, s, 0, a * b)
GEN_L(t_umull, u, 0, a * b)
GEN_L(t_sqdmlal, s, 0,
      simd_sat_s((__int128)simd_sext(e, 2 * bits) + simd_sat_s((__int128)2 * a * b, 2 * bits, &qc),
                 2 * bits, &qc))
GEN_L(t_sqdmlsl, s, 0,
      simd_sat_s((__int128)simd_sext(e, 2 * bits) - simd_sat_s((__int128)2 * a * b, 2 * bits, &qc),
                 2 * bits, &qc))
GEN_L(t_sqdmull, s, 0, simd_sat_s((__int128)2 * a * b, 2 * bits, &qc))
DEF_L(t_pmull8_0, u, 8, 16, 0, 0, simd_pmull8((uint8_t)a, (uint8_t)b))
DEF_L(t_pmull8_1, u, 8, 16, 0, 1, simd_pmull8((uint8_t)a, (uint8_t)b))

static Op *t_pmull64_0(CPUState *c, Op *o)
{
    c->v[o->d].q = simd_pmull64(c->v[o->n].d[0], c->v[o->m].d[0]);
    return op_next(c, o);
}
static Op *t_pmull64_1(CPUState *c, Op *o)
{
    c->v[o->d].q = simd_pmull64(c->v[o->n].d[1], c->v[o->m].d[1]);
    return op_next(c, o);
}

/* Narrowing high half: ADDHN RADDHN SUBHN RSUBHN. */
GEN_N(t_addhn, u, (__typeof__(a))(a + b) >> bits)
GEN_N(t_raddhn, u, (__typeof__(a))(a + b + (1ull << (bits - 1))) >> bits)
GEN_N(t_subhn, u, (__typeof__(a))(a - b) >> bits)
GEN_N(t_rsubhn, u, (__typeof__(a))(a - b + (1ull << (bits - 1))) >> bits)

static Tab *const three_diff_tab[2][15] = {
    { &t_saddl, &t_saddw, &t_ssubl, &t_ssubw, &t_addhn, &t_sabal, &t_subhn, &t_sabdl,
      &t_smlal, &t_sqdmlal, &t_smlsl, &t_sqdmlsl, &t_smull, &t_sqdmull, 0 },
    { &t_uaddl, &t_uaddw, &t_usubl, &t_usubw, &t_raddhn, &t_uabal, &t_rsubhn, &t_uabdl,
      &t_umlal, 0, &t_umlsl, 0, &t_umull, 0, 0 },
};

bool trans_SIMD_3diff(DisasCtx *s, arg_SIMD_3diff *a)
{
    if (a->opc == 0xe) { /* PMULL, PMULL2 */
        if (a->u || (a->size != 0 && a->size != 3))
            return false;
        OpFn fn = a->size ? (a->q ? t_pmull64_1 : t_pmull64_0) : (a->q ? t_pmull8_1 : t_pmull8_0);
        simd_emit(s, fn, a->rd, a->rn, a->rm, 0);
        return true;
    }
    if (a->opc == 0xf || a->size == 3)
        return false;
    Tab *t = three_diff_tab[a->u][a->opc];
    if (!t)
        return false;
    if ((a->opc == 0x9 || a->opc == 0xb || a->opc == 0xd) && a->size == 0)
        return false;
    simd_emit(s, (*t)[a->size][a->q], a->rd, a->rn, a->rm, 0);
    return true;
}

bool trans_SIMD_s3diff(DisasCtx *s, arg_SIMD_s3diff *a)
{
    Tab *t;
    switch (a->opc) {
    case 0x9: t = &t_sqdmlal; break;
    case 0xb: t = &t_sqdmlsl; break;
    case 0xd: t = &t_sqdmull; break;
    default: return false;
    }
    if (a->u || a->size == 0 || a->size == 3)
        return false;
    simd_emit(s, (*t)[a->size][2], a->rd, a->rn, a->rm, 0);
    return true;
}

/* ---- description for the native back end (native.h, native_simd.c) ---------------------- */
#if MALIBU_HAVE_NATIVE
static void describe_simd_arith(void)
{
    static const struct { Tab *t; uint8_t op; } e[] = {
        { &t_add, NVEC_ADD },   { &t_sub, NVEC_SUB },   { &t_cmeq, NVEC_CMEQ }, { &t_cmhi, NVEC_CMHI },
        { &t_cmhs, NVEC_CMHS }, { &t_cmgt, NVEC_CMGT }, { &t_cmge, NVEC_CMGE }, { &t_cmtst, NVEC_CMTST },
        { &t_umax, NVEC_UMAX }, { &t_umin, NVEC_UMIN }, { &t_smax, NVEC_SMAX }, { &t_smin, NVEC_SMIN },
        { &t_addp, NVEC_ADDP }, { &t_umaxp, NVEC_UMAXP }, { &t_uminp, NVEC_UMINP },
    };
    for (unsigned k = 0; k < sizeof e / sizeof e[0]; k++)
        simd_bind_tab(*e[k].t, e[k].op);
    static const uint8_t logic[8] = { NVEC_AND, NVEC_BIC, NVEC_ORR, NVEC_ORN, NVEC_EOR, NVEC_BSL, NVEC_BIT, NVEC_BIF };
    for (int op = 0; op < 8; op++)
        for (int q = 0; q < 2; q++)
            native_bind(t_logic[op][q], (NativeDesc){ .kind = NK_VEC, .op = logic[op], .size = 3, .sub = (uint8_t)q });
}
NATIVE_DESCRIBER(describe_simd_arith)
#endif
