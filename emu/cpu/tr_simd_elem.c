/* AdvSIMD vector and scalar "x indexed element", integer forms:
 * MUL, MLA, MLS, SMULL/UMULL/SMLAL/UMLAL/SMLSL/UMLSL (and 2),
 * SQDMULL/SQDMLAL/SQDMLSL (and 2, and scalar), SQDMULH/SQRDMULH (vector and scalar).
 *
 * Only 16- and 32-bit elements exist.  The element index is resolved at
 * translate time into o->x (element of Vm), the "2" half into o->imm (first
 * source element).  Handlers read the indexed element before writing Vd, so
 * Vd may alias Vn or Vm.  Saturation sets FPSR.QC. */
#include "translate.h"
#include "simd_util.h"

#define V(r) (c->v[(r)])

/* Index and Vm register from size:L:M:Rm:H (size 1 = H, size 2 = S); false if reserved. */
static bool elem_index(int size, int h, int l, int m, int rm, unsigned *idx, unsigned *reg)
{
    if (size == 1) {
        *idx = (unsigned)(h << 2 | l << 1 | m);
        *reg = (unsigned)rm;
        return true;
    }
    if (size == 2) {
        *idx = (unsigned)(h << 1 | l);
        *reg = (unsigned)(m << 4 | rm);
        return true;
    }
    return false;
}

/* ---- saturating helpers -------------------------------------------------- */
static inline int16_t sat_dmulh16(int16_t a, int16_t b, int32_t rnd, bool *qc)
{
    int32_t p = ((int32_t)a * b + rnd) >> 15;
    if (unlikely(p > INT16_MAX)) {
        *qc = true;
        return INT16_MAX;
    }
    return (int16_t)p;
}
static inline int32_t sat_dmulh32(int32_t a, int32_t b, int64_t rnd, bool *qc)
{
    int64_t p = ((int64_t)a * b + rnd) >> 31;
    if (unlikely(p > INT32_MAX)) {
        *qc = true;
        return INT32_MAX;
    }
    return (int32_t)p;
}
static inline int32_t sat_dmull16(int16_t a, int16_t b, bool *qc)
{
    if (unlikely(a == INT16_MIN && b == INT16_MIN)) {
        *qc = true;
        return INT32_MAX;
    }
    return 2 * (int32_t)a * b;
}
static inline int64_t sat_dmull32(int32_t a, int32_t b, bool *qc)
{
    if (unlikely(a == INT32_MIN && b == INT32_MIN)) {
        *qc = true;
        return INT64_MAX;
    }
    return 2 * (int64_t)a * b;
}
/* Saturating accumulate (the shared lane helpers, typed for the ACC slots below). */
static inline int32_t sat_add32(int32_t a, int32_t b, bool *qc) { return SIMD_QADD_S(a, b, qc); }
static inline int32_t sat_sub32(int32_t a, int32_t b, bool *qc) { return SIMD_QSUB_S(a, b, qc); }
static inline int64_t sat_add64(int64_t a, int64_t b, bool *qc) { return SIMD_QADD_S(a, b, qc); }
static inline int64_t sat_sub64(int64_t a, int64_t b, bool *qc) { return SIMD_QSUB_S(a, b, qc); }

/* ---- MUL / MLA / MLS (by element) ----------------------------------------
 * F/T: element field and unsigned type, W: wide unsigned type for the product,
 * ACC: how the product combines with the old Vd element. */
#define ACC_NONE(old, p) ((void)(old), (p))
#define ACC_ADD(old, p) ((old) + (p))
#define ACC_SUB(old, p) ((old) - (p))

#define SAME_FN(NAME, F, T, W, N, ACC)                                         \
    static Op *NAME(CPUState *c, Op *o)                                        \
    {                                                                          \
        W e = V(o->m).F[o->x];                                                 \
        const VReg *x = &V(o->n);                                              \
        VReg r = { .q = 0 };                                                   \
        for (int i = 0; i < (N); i++)                                          \
            r.F[i] = (T)ACC(V(o->d).F[i], x->F[i] * e);                        \
        V(o->d) = r;                                                           \
        return op_next(c, o);                                                  \
    }
#define SAME_FNS(F, T, W, N, SUF)                                              \
    SAME_FN(op_mul_##SUF, F, T, W, N, ACC_NONE)                                \
    SAME_FN(op_mla_##SUF, F, T, W, N, ACC_ADD)                                 \
    SAME_FN(op_mls_##SUF, F, T, W, N, ACC_SUB)

SAME_FNS(h, uint16_t, uint32_t, 4, h4)
SAME_FNS(h, uint16_t, uint32_t, 8, h8)
SAME_FNS(s, uint32_t, uint32_t, 2, s2)
SAME_FNS(s, uint32_t, uint32_t, 4, s4)
#undef SAME_FNS
#undef SAME_FN

/* [op][size-1][q] */
static const OpFn same_fns[3][2][2] = {
    { { op_mul_h4, op_mul_h8 }, { op_mul_s2, op_mul_s4 } },
    { { op_mla_h4, op_mla_h8 }, { op_mla_s2, op_mla_s4 } },
    { { op_mls_h4, op_mls_h8 }, { op_mls_s2, op_mls_s4 } },
};

static bool emit_elem(DisasCtx *s, OpFn fn, int size, int h, int l, int m, int rm, int rn, int rd,
                      uint64_t imm)
{
    unsigned idx, reg;
    if (!fn || !elem_index(size, h, l, m, rm, &idx, &reg))
        return false;
    Op *o = tr_emit(s, fn);
    o->d = (uint8_t)rd;
    o->n = (uint8_t)rn;
    o->m = (uint8_t)reg;
    o->x = idx;
    o->imm = imm;
    return true;
}

bool trans_SIMDP_MUL_elem(DisasCtx *s, arg_SIMDP_MUL_elem *a)
{
    if (a->size != 1 && a->size != 2)
        return false;
    return emit_elem(s, same_fns[0][a->size - 1][a->q], a->size, a->h, a->l, a->m, a->rm, a->rn,
                     a->rd, 0);
}

bool trans_SIMDP_MLA_elem(DisasCtx *s, arg_SIMDP_MLA_elem *a)
{
    if (a->size != 1 && a->size != 2)
        return false;
    return emit_elem(s, same_fns[1 + a->sub][a->size - 1][a->q], a->size, a->h, a->l, a->m, a->rm,
                     a->rn, a->rd, 0);
}

/* ---- SMULL/UMULL/SMLAL/UMLAL/SMLSL/UMLSL (by element), o->imm = first source element ----
 * SF: source field, ST: source (signed or unsigned) type, P: product type,
 * DF/DT: destination field and unsigned type, N: result elements. */
#define LONG_FN(NAME, SF, ST, P, DF, DT, N, ACC)                               \
    static Op *NAME(CPUState *c, Op *o)                                        \
    {                                                                          \
        P e = (ST)V(o->m).SF[o->x];                                            \
        const VReg *x = &V(o->n);                                              \
        unsigned p = (unsigned)o->imm;                                         \
        VReg r;                                                                \
        for (int i = 0; i < (N); i++)                                          \
            r.DF[i] = ACC(V(o->d).DF[i], (DT)((P)(ST)x->SF[p + i] * e));       \
        V(o->d) = r;                                                           \
        return op_next(c, o);                                                  \
    }
#define LONG_FNS(PRE, SF, ST, P, DF, DT, N, SUF)                               \
    LONG_FN(op_##PRE##mull_##SUF, SF, ST, P, DF, DT, N, ACC_NONE)              \
    LONG_FN(op_##PRE##mlal_##SUF, SF, ST, P, DF, DT, N, ACC_ADD)               \
    LONG_FN(op_##PRE##mlsl_##SUF, SF, ST, P, DF, DT, N, ACC_SUB)

LONG_FNS(s, h, int16_t, int32_t, s, uint32_t, 4, h)
LONG_FNS(s, s, int32_t, int64_t, d, uint64_t, 2, s)
LONG_FNS(u, h, uint16_t, uint32_t, s, uint32_t, 4, h)
LONG_FNS(u, s, uint32_t, uint64_t, d, uint64_t, 2, s)
#undef LONG_FNS
#undef LONG_FN

/* [u][acc][size-1]; acc: 0 = MLAL, 1 = MLSL, 2 = MULL */
static const OpFn long_fns[2][3][2] = {
    { { op_smlal_h, op_smlal_s }, { op_smlsl_h, op_smlsl_s }, { op_smull_h, op_smull_s } },
    { { op_umlal_h, op_umlal_s }, { op_umlsl_h, op_umlsl_s }, { op_umull_h, op_umull_s } },
};

bool trans_SIMDP_LONG_elem(DisasCtx *s, arg_SIMDP_LONG_elem *a)
{
    if ((a->size != 1 && a->size != 2) || a->acc == 3)
        return false;
    /* the "2" forms take the upper half of Vn: 4 halfwords or 2 words in */
    uint64_t first = a->q ? (a->size == 1 ? 4 : 2) : 0;
    return emit_elem(s, long_fns[a->u][a->acc][a->size - 1], a->size, a->h, a->l, a->m, a->rm,
                     a->rn, a->rd, first);
}

/* ---- SQDMULL / SQDMLAL / SQDMLSL (vector by element, o->imm = first source element) ----
 * EF/ET: source field and signed type, DF: destination field, N: result
 * elements, DMULL: the saturating doubling product, ACC: how it combines with
 * the old Vd element (sat_add/sat_sub, or sat_keep for the MULL forms). */
#define QC_SET(qc) do { if (unlikely(qc)) c->fp.fpsr |= FPSR_QC; } while (0)
#define sat_keep(old, p, qc) ((void)(old), (p))

#define SQDML_FN(NAME, EF, ET, DF, N, DMULL, ACC)                              \
    static Op *NAME(CPUState *c, Op *o)                                        \
    {                                                                          \
        ET e = V(o->m).EF[o->x];                                               \
        const VReg *x = &V(o->n);                                              \
        unsigned p = (unsigned)o->imm;                                         \
        bool qc = false;                                                       \
        VReg r;                                                                \
        for (int i = 0; i < (N); i++)                                          \
            r.DF[i] = ACC(V(o->d).DF[i], DMULL(x->EF[p + i], e, &qc), &qc);    \
        V(o->d) = r;                                                           \
        QC_SET(qc);                                                            \
        return op_next(c, o);                                                  \
    }

SQDML_FN(op_sqdmull_h, sh, int16_t, ss, 4, sat_dmull16, sat_keep)
SQDML_FN(op_sqdmlal_h, sh, int16_t, ss, 4, sat_dmull16, sat_add32)
SQDML_FN(op_sqdmlsl_h, sh, int16_t, ss, 4, sat_dmull16, sat_sub32)
SQDML_FN(op_sqdmull_s, ss, int32_t, sd, 2, sat_dmull32, sat_keep)
SQDML_FN(op_sqdmlal_s, ss, int32_t, sd, 2, sat_dmull32, sat_add64)
SQDML_FN(op_sqdmlsl_s, ss, int32_t, sd, 2, sat_dmull32, sat_sub64)
#undef SQDML_FN

/* [acc][size-1]; acc: 0 = MLAL, 1 = MLSL, 2 = MULL */
static const OpFn sqdml_fns[3][2] = {
    { op_sqdmlal_h, op_sqdmlal_s }, { op_sqdmlsl_h, op_sqdmlsl_s }, { op_sqdmull_h, op_sqdmull_s },
};

bool trans_SIMDP_SQDML_elem(DisasCtx *s, arg_SIMDP_SQDML_elem *a)
{
    if ((a->size != 1 && a->size != 2) || a->acc == 3)
        return false;
    uint64_t first = a->q ? (a->size == 1 ? 4 : 2) : 0;
    return emit_elem(s, sqdml_fns[a->acc][a->size - 1], a->size, a->h, a->l, a->m, a->rm, a->rn,
                     a->rd, first);
}

/* ---- scalar SQDMULL / SQDMLAL / SQDMLSL: Sd/Dd from Hn/Sn ------------------
 * RT/UT: signed and unsigned result type; the rest as SQDML_FN. */
#define SQDML_SCALAR_FN(NAME, EF, DF, RT, UT, DMULL, ACC)                      \
    static Op *NAME(CPUState *c, Op *o)                                        \
    {                                                                          \
        bool qc = false;                                                       \
        RT r = ACC(V(o->d).DF[0], DMULL(V(o->n).EF[0], V(o->m).EF[o->x], &qc), \
                   &qc);                                                       \
        V(o->d).d[0] = (UT)r;                                                  \
        V(o->d).d[1] = 0;                                                      \
        QC_SET(qc);                                                            \
        return op_next(c, o);                                                  \
    }

SQDML_SCALAR_FN(op_sqdmull_sh, sh, ss, int32_t, uint32_t, sat_dmull16, sat_keep)
SQDML_SCALAR_FN(op_sqdmlal_sh, sh, ss, int32_t, uint32_t, sat_dmull16, sat_add32)
SQDML_SCALAR_FN(op_sqdmlsl_sh, sh, ss, int32_t, uint32_t, sat_dmull16, sat_sub32)
SQDML_SCALAR_FN(op_sqdmull_ss, ss, sd, int64_t, uint64_t, sat_dmull32, sat_keep)
SQDML_SCALAR_FN(op_sqdmlal_ss, ss, sd, int64_t, uint64_t, sat_dmull32, sat_add64)
SQDML_SCALAR_FN(op_sqdmlsl_ss, ss, sd, int64_t, uint64_t, sat_dmull32, sat_sub64)
#undef SQDML_SCALAR_FN

static const OpFn sqdml_scalar_fns[3][2] = {
    { op_sqdmlal_sh, op_sqdmlal_ss }, { op_sqdmlsl_sh, op_sqdmlsl_ss }, { op_sqdmull_sh, op_sqdmull_ss },
};

bool trans_SIMDP_SQDML_selem(DisasCtx *s, arg_SIMDP_SQDML_selem *a)
{
    if ((a->size != 1 && a->size != 2) || a->acc == 3)
        return false;
    return emit_elem(s, sqdml_scalar_fns[a->acc][a->size - 1], a->size, a->h, a->l, a->m, a->rm,
                     a->rn, a->rd, 0);
}

/* ---- SQDMULH / SQRDMULH (vector and scalar); PRE sqd / sqrd, RND 0 / 1 ----------
 * One handler: EF/ET element field and signed type, RT/RND_SHIFT: type and
 * position of the rounding constant, SAT: the saturating doubling high half. */
#define DMULH_FN(NAME, EF, ET, RT, RND, RND_SHIFT, N, SAT)                     \
    static Op *NAME(CPUState *c, Op *o)                                        \
    {                                                                          \
        ET e = V(o->m).EF[o->x];                                               \
        const VReg *x = &V(o->n);                                              \
        RT rnd = (RT)(RND) << (RND_SHIFT);                                     \
        bool qc = false;                                                       \
        VReg r = { .q = 0 };                                                   \
        for (int i = 0; i < (N); i++)                                          \
            r.EF[i] = SAT(x->EF[i], e, rnd, &qc);                              \
        V(o->d) = r;                                                           \
        QC_SET(qc);                                                            \
        return op_next(c, o);                                                  \
    }
#define DMULH_FNS(PRE, RND, NH, NS, SUF)                                             \
    DMULH_FN(op_##PRE##mulh_h##SUF, sh, int16_t, int32_t, RND, 14, NH, sat_dmulh16)  \
    DMULH_FN(op_##PRE##mulh_s##SUF, ss, int32_t, int64_t, RND, 30, NS, sat_dmulh32)

DMULH_FNS(sqd, 0, 1, 1, 1) /* scalar: one element */
DMULH_FNS(sqd, 0, 4, 2, 2)
DMULH_FNS(sqd, 0, 8, 4, 4)
DMULH_FNS(sqrd, 1, 1, 1, 1)
DMULH_FNS(sqrd, 1, 4, 2, 2)
DMULH_FNS(sqrd, 1, 8, 4, 4)
#undef DMULH_FNS
#undef DMULH_FN

bool trans_SIMDP_SQDMULH_elem(DisasCtx *s, arg_SIMDP_SQDMULH_elem *a)
{
    /* [r][size-1][q] */
    static const OpFn fns[2][2][2] = {
        { { op_sqdmulh_h2, op_sqdmulh_h4 }, { op_sqdmulh_s2, op_sqdmulh_s4 } },
        { { op_sqrdmulh_h2, op_sqrdmulh_h4 }, { op_sqrdmulh_s2, op_sqrdmulh_s4 } },
    };
    if (a->size != 1 && a->size != 2)
        return false;
    return emit_elem(s, fns[a->r][a->size - 1][a->q], a->size, a->h, a->l, a->m, a->rm, a->rn,
                     a->rd, 0);
}

bool trans_SIMDP_SQDMULH_selem(DisasCtx *s, arg_SIMDP_SQDMULH_selem *a)
{
    static const OpFn fns[2][2] = { { op_sqdmulh_h1, op_sqdmulh_s1 }, { op_sqrdmulh_h1, op_sqrdmulh_s1 } };
    if (a->size != 1 && a->size != 2)
        return false;
    return emit_elem(s, fns[a->r][a->size - 1], a->size, a->h, a->l, a->m, a->rm, a->rn, a->rd, 0);
}
