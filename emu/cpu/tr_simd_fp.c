/* AdvSIMD floating point (Armv8.0, single and double precision): vector and
 * "AdvSIMD scalar" forms of three-same, pairwise, two-register misc, across
 * lanes, by-element and fixed-point conversion instructions.
 *
 * Handlers are generated per operation and element size; the lane count
 * (vector 2/4, scalar 1) is a loop bound in o->x and per-instruction constants
 * (rounding mode, fraction bits, element index, half) are in o->imm.  Every
 * handler reads all sources before writing the destination register (which
 * may alias a source) and builds the whole 128-bit result, so 64-bit vector
 * and scalar results zero the rest of the register.  The arithmetic is
 * fpu.h's, lane by lane. */
#include <string.h>
#include "translate.h"
#include "fpu.h"

#define FP (&c->fp)
#define MASK(N, cond) ((cond) ? (uint##N##_t)-1 : (uint##N##_t)0)

/* ---- element-wise binary operations (three same, scalar three same) ------- */

#define E_fadd(N, a, b)    f##N##_add(a, b, FP)
#define E_fsub(N, a, b)    f##N##_sub(a, b, FP)
#define E_fmul(N, a, b)    f##N##_mul(a, b, FP)
#define E_fdiv(N, a, b)    f##N##_div(a, b, FP)
#define E_fmax(N, a, b)    f##N##_max(a, b, FP)
#define E_fmin(N, a, b)    f##N##_min(a, b, FP)
#define E_fmaxnm(N, a, b)  f##N##_maxnm(a, b, FP)
#define E_fminnm(N, a, b)  f##N##_minnm(a, b, FP)
#define E_fmulx(N, a, b)   f##N##_mulx(a, b, FP)
#define E_fabd(N, a, b)    f##N##_abd(a, b, FP)
#define E_frecps(N, a, b)  f##N##_recps(a, b, FP)
#define E_frsqrts(N, a, b) f##N##_rsqrts(a, b, FP)
#define E_fcmeq(N, a, b)   MASK(N, f##N##_cmp_eq(a, b, FP))
#define E_fcmge(N, a, b)   MASK(N, f##N##_cmp_ge(a, b, FP))
#define E_fcmgt(N, a, b)   MASK(N, f##N##_cmp_gt(a, b, FP))
#define E_facge(N, a, b)   MASK(N, f##N##_cmp_ge(f##N##_abs(a), f##N##_abs(b), FP))
#define E_facgt(N, a, b)   MASK(N, f##N##_cmp_gt(f##N##_abs(a), f##N##_abs(b), FP))

#define GEN_BIN_N(NAME, N, L)                                               \
    static Op *op_##NAME##_##N(CPUState *c, Op *o)                          \
    {                                                                       \
        const VReg *vn = &c->v[o->n], *vm = &c->v[o->m];                    \
        VReg r = { 0 };                                                     \
        for (unsigned i = 0; i < o->x; i++)                                 \
            r.L[i] = E_##NAME(N, vn->L[i], vm->L[i]);                       \
        c->v[o->d] = r;                                                     \
        return op_next(c, o);                                                       \
    }
#define GEN_BIN(NAME) GEN_BIN_N(NAME, 32, s) GEN_BIN_N(NAME, 64, d)

GEN_BIN(fadd) GEN_BIN(fsub) GEN_BIN(fmul) GEN_BIN(fdiv)
GEN_BIN(fmax) GEN_BIN(fmin) GEN_BIN(fmaxnm) GEN_BIN(fminnm)
GEN_BIN(fmulx) GEN_BIN(fabd) GEN_BIN(frecps) GEN_BIN(frsqrts)
GEN_BIN(fcmeq) GEN_BIN(fcmge) GEN_BIN(fcmgt) GEN_BIN(facge) GEN_BIN(facgt)

/* FMLA / FMLS: fused, Vd lanes are the addend; FMLS negates op1 first. */
#define E_fmla(N, d, a, b) f##N##_muladd(d, a, b, FP)
#define E_fmls(N, d, a, b) f##N##_muladd(d, f##N##_neg(a), b, FP)

#define GEN_TERN_N(NAME, N, L)                                              \
    static Op *op_##NAME##_##N(CPUState *c, Op *o)                          \
    {                                                                       \
        const VReg *vn = &c->v[o->n], *vm = &c->v[o->m], *vd = &c->v[o->d]; \
        VReg r = { 0 };                                                     \
        for (unsigned i = 0; i < o->x; i++)                                 \
            r.L[i] = E_##NAME(N, vd->L[i], vn->L[i], vm->L[i]);             \
        c->v[o->d] = r;                                                     \
        return op_next(c, o);                                                       \
    }
GEN_TERN_N(fmla, 32, s) GEN_TERN_N(fmla, 64, d)
GEN_TERN_N(fmls, 32, s) GEN_TERN_N(fmls, 64, d)

/* ---- by element: the Vm element (index o->imm) is read once --------------- */

#define GEN_IDX_N(NAME, N, L)                                               \
    static Op *op_##NAME##_idx_##N(CPUState *c, Op *o)                      \
    {                                                                       \
        const VReg *vn = &c->v[o->n];                                       \
        const uint##N##_t b = c->v[o->m].L[o->imm];                         \
        VReg r = { 0 };                                                     \
        for (unsigned i = 0; i < o->x; i++)                                 \
            r.L[i] = E_##NAME(N, vn->L[i], b);                              \
        c->v[o->d] = r;                                                     \
        return op_next(c, o);                                                       \
    }
#define GEN_TIDX_N(NAME, N, L)                                              \
    static Op *op_##NAME##_idx_##N(CPUState *c, Op *o)                      \
    {                                                                       \
        const VReg *vn = &c->v[o->n], *vd = &c->v[o->d];                    \
        const uint##N##_t b = c->v[o->m].L[o->imm];                         \
        VReg r = { 0 };                                                     \
        for (unsigned i = 0; i < o->x; i++)                                 \
            r.L[i] = E_##NAME(N, vd->L[i], vn->L[i], b);                    \
        c->v[o->d] = r;                                                     \
        return op_next(c, o);                                                       \
    }
GEN_IDX_N(fmul, 32, s) GEN_IDX_N(fmul, 64, d)
GEN_IDX_N(fmulx, 32, s) GEN_IDX_N(fmulx, 64, d)
GEN_TIDX_N(fmla, 32, s) GEN_TIDX_N(fmla, 64, d)
GEN_TIDX_N(fmls, 32, s) GEN_TIDX_N(fmls, 64, d)

/* ---- pairwise: the concatenation Vm:Vn (o->imm lanes each), adjacent pairs.
 * Scalar pairwise uses Vn twice with 2 lanes each and one result lane. */

#define GEN_PAIR_N(NAME, N, L)                                              \
    static Op *op_##NAME##p_##N(CPUState *c, Op *o)                         \
    {                                                                       \
        uint##N##_t src[2 * 16 / (N / 8)];                                  \
        const unsigned per = (unsigned)o->imm;                              \
        memcpy(src, c->v[o->n].L, per * (N / 8));                           \
        memcpy(src + per, c->v[o->m].L, per * (N / 8));                     \
        VReg r = { 0 };                                                     \
        for (unsigned i = 0; i < o->x; i++)                                 \
            r.L[i] = E_##NAME(N, src[2 * i], src[2 * i + 1]);               \
        c->v[o->d] = r;                                                     \
        return op_next(c, o);                                                       \
    }
#define GEN_PAIR(NAME) GEN_PAIR_N(NAME, 32, s) GEN_PAIR_N(NAME, 64, d)
GEN_PAIR(fadd) GEN_PAIR(fmax) GEN_PAIR(fmin) GEN_PAIR(fmaxnm) GEN_PAIR(fminnm)

/* ---- across lanes (4S only): Reduce() splits in halves recursively -------- */

#define GEN_ACROSS(NAME)                                                    \
    static Op *op_##NAME##v(CPUState *c, Op *o)                             \
    {                                                                       \
        const VReg *vn = &c->v[o->n];                                       \
        uint32_t lo = E_##NAME(32, vn->s[0], vn->s[1]);                     \
        uint32_t hi = E_##NAME(32, vn->s[2], vn->s[3]);                     \
        VReg r = { 0 };                                                     \
        r.s[0] = E_##NAME(32, lo, hi);                                      \
        c->v[o->d] = r;                                                     \
        return op_next(c, o);                                                       \
    }
GEN_ACROSS(fmax) GEN_ACROSS(fmin) GEN_ACROSS(fmaxnm) GEN_ACROSS(fminnm)

/* ---- element-wise unary operations (two-register misc, fixed point) ------- */
/* o->imm: FRINT* rounding mode; FCVT* (fbits | rmode << 8); xCVTF fbits. */

#define ZERO_OF(N) ((uint##N##_t)0)
#define E_fabs(N, a)    f##N##_abs(a)
#define E_fneg(N, a)    f##N##_neg(a)
#define E_fsqrt(N, a)   f##N##_sqrt(a, FP)
#define E_frecpe(N, a)  f##N##_recpe(a, FP)
#define E_frsqrte(N, a) f##N##_rsqrte(a, FP)
#define E_frecpx(N, a)  f##N##_recpx(a, FP)
#define E_frint(N, a)   f##N##_round_int(a, (FPRounding)o->imm, false, FP)
#define E_frintx(N, a)  f##N##_round_int(a, fp_rmode(FP), true, FP)
#define E_frinti(N, a)  f##N##_round_int(a, fp_rmode(FP), false, FP)
#define E_fcmgt0(N, a)  MASK(N, f##N##_cmp_gt(a, ZERO_OF(N), FP))
#define E_fcmge0(N, a)  MASK(N, f##N##_cmp_ge(a, ZERO_OF(N), FP))
#define E_fcmeq0(N, a)  MASK(N, f##N##_cmp_eq(a, ZERO_OF(N), FP))
#define E_fcmle0(N, a)  MASK(N, f##N##_cmp_ge(ZERO_OF(N), a, FP))
#define E_fcmlt0(N, a)  MASK(N, f##N##_cmp_gt(ZERO_OF(N), a, FP))
#define E_fcvts(N, a)                                                        \
    (uint##N##_t)f##N##_to_fixed(a, (int)(o->imm & 0xff), false, N,         \
                                 (FPRounding)(o->imm >> 8), FP)
#define E_fcvtu(N, a)                                                        \
    (uint##N##_t)f##N##_to_fixed(a, (int)(o->imm & 0xff), true, N,          \
                                 (FPRounding)(o->imm >> 8), FP)
#define E_scvtf(N, a)                                                        \
    fixed_to_f##N((uint64_t)(int64_t)(int##N##_t)(a), (int)o->imm, false, fp_rmode(FP), FP)
#define E_ucvtf(N, a)                                                        \
    fixed_to_f##N((uint64_t)(a), (int)o->imm, true, fp_rmode(FP), FP)

#define GEN_UN_N(NAME, N, L)                                                \
    static Op *op_##NAME##_##N(CPUState *c, Op *o)                          \
    {                                                                       \
        const VReg *vn = &c->v[o->n];                                       \
        VReg r = { 0 };                                                     \
        for (unsigned i = 0; i < o->x; i++)                                 \
            r.L[i] = E_##NAME(N, vn->L[i]);                                 \
        c->v[o->d] = r;                                                     \
        return op_next(c, o);                                                       \
    }
#define GEN_UN(NAME) GEN_UN_N(NAME, 32, s) GEN_UN_N(NAME, 64, d)
GEN_UN(fabs) GEN_UN(fneg) GEN_UN(fsqrt) GEN_UN(frecpe) GEN_UN(frsqrte) GEN_UN(frecpx)
GEN_UN(frint) GEN_UN(frintx) GEN_UN(frinti)
GEN_UN(fcmgt0) GEN_UN(fcmge0) GEN_UN(fcmeq0) GEN_UN(fcmle0) GEN_UN(fcmlt0)
GEN_UN(fcvts) GEN_UN(fcvtu) GEN_UN(scvtf) GEN_UN(ucvtf)

/* ---- precision conversions ------------------------------------------------ */
/* FCVTN/FCVTN2/FCVTXN(2): o->x narrow lanes from Vn, written to half o->imm of
 * Vd (half 0 zeroes the upper half, half 1 keeps the lower). */

static Op *op_fcvtn_32(CPUState *c, Op *o) /* S -> H */
{
    const VReg *vn = &c->v[o->n];
    VReg r = { 0 };
    if (o->imm)
        r.d[0] = c->v[o->d].d[0];
    for (unsigned i = 0; i < 4; i++)
        r.h[4 * o->imm + i] = f32_to_f16(vn->s[i], fp_rmode(FP), FP);
    c->v[o->d] = r;
    return op_next(c, o);
}

static Op *op_fcvtn_64(CPUState *c, Op *o) /* D -> S */
{
    const VReg *vn = &c->v[o->n];
    VReg r = { 0 };
    if (o->imm)
        r.d[0] = c->v[o->d].d[0];
    for (unsigned i = 0; i < 2; i++)
        r.s[2 * o->imm + i] = f64_to_f32(vn->d[i], fp_rmode(FP), FP);
    c->v[o->d] = r;
    return op_next(c, o);
}

static Op *op_fcvtxn(CPUState *c, Op *o) /* D -> S, round to odd; o->x = 1 (scalar) or 2 */
{
    const VReg *vn = &c->v[o->n];
    VReg r = { 0 };
    if (o->imm)
        r.d[0] = c->v[o->d].d[0];
    for (unsigned i = 0; i < o->x; i++)
        r.s[2 * o->imm + i] = f64_to_f32(vn->d[i], FPR_ODD, FP);
    c->v[o->d] = r;
    return op_next(c, o);
}

/* FCVTL/FCVTL2: widen the o->imm half of Vn. */
static Op *op_fcvtl_16(CPUState *c, Op *o) /* H -> S */
{
    const VReg *vn = &c->v[o->n];
    VReg r;
    for (unsigned i = 0; i < 4; i++)
        r.s[i] = f16_to_f32(vn->h[4 * o->imm + i], FP);
    c->v[o->d] = r;
    return op_next(c, o);
}

static Op *op_fcvtl_32(CPUState *c, Op *o) /* S -> D */
{
    const VReg *vn = &c->v[o->n];
    VReg r;
    for (unsigned i = 0; i < 2; i++)
        r.d[i] = f32_to_f64(vn->s[2 * o->imm + i], FP);
    c->v[o->d] = r;
    return op_next(c, o);
}

/* ---- translators ---------------------------------------------------------- */

typedef struct { OpFn f32, f64; } FnPair;
#define FNS(name) { op_##name##_32, op_##name##_64 }

static Op *emit(DisasCtx *s, const FnPair *f, int sz, int rd, int rn, int rm, unsigned lanes)
{
    Op *o = tr_emit(s, sz ? f->f64 : f->f32);
    o->d = (uint8_t)rd;
    o->n = (uint8_t)rn;
    o->m = (uint8_t)rm;
    o->x = lanes;
    return o;
}

/* Lanes of a vector operation: Q and element size. */
static unsigned vlanes(int q, int sz) { return (q ? 16u : 8u) >> (2 + sz); }

enum { K_ELEM = 1, K_PAIR, K_SCALAR_OK = 4 };
typedef struct { FnPair f; uint8_t kind; } SameOp;
#define IX(u, a, op) ((u) << 4 | (a) << 3 | (op))

static const SameOp same3[32] = {
    [IX(0, 0, 0)] = { FNS(fmaxnm), K_ELEM },
    [IX(0, 0, 1)] = { FNS(fmla), K_ELEM },
    [IX(0, 0, 2)] = { FNS(fadd), K_ELEM },
    [IX(0, 0, 3)] = { FNS(fmulx), K_ELEM | K_SCALAR_OK },
    [IX(0, 0, 4)] = { FNS(fcmeq), K_ELEM | K_SCALAR_OK },
    [IX(0, 0, 6)] = { FNS(fmax), K_ELEM },
    [IX(0, 0, 7)] = { FNS(frecps), K_ELEM | K_SCALAR_OK },
    [IX(0, 1, 0)] = { FNS(fminnm), K_ELEM },
    [IX(0, 1, 1)] = { FNS(fmls), K_ELEM },
    [IX(0, 1, 2)] = { FNS(fsub), K_ELEM },
    [IX(0, 1, 6)] = { FNS(fmin), K_ELEM },
    [IX(0, 1, 7)] = { FNS(frsqrts), K_ELEM | K_SCALAR_OK },
    [IX(1, 0, 0)] = { FNS(fmaxnmp), K_PAIR },
    [IX(1, 0, 2)] = { FNS(faddp), K_PAIR },
    [IX(1, 0, 3)] = { FNS(fmul), K_ELEM },
    [IX(1, 0, 4)] = { FNS(fcmge), K_ELEM | K_SCALAR_OK },
    [IX(1, 0, 5)] = { FNS(facge), K_ELEM | K_SCALAR_OK },
    [IX(1, 0, 6)] = { FNS(fmaxp), K_PAIR },
    [IX(1, 0, 7)] = { FNS(fdiv), K_ELEM },
    [IX(1, 1, 0)] = { FNS(fminnmp), K_PAIR },
    [IX(1, 1, 2)] = { FNS(fabd), K_ELEM | K_SCALAR_OK },
    [IX(1, 1, 4)] = { FNS(fcmgt), K_ELEM | K_SCALAR_OK },
    [IX(1, 1, 5)] = { FNS(facgt), K_ELEM | K_SCALAR_OK },
    [IX(1, 1, 6)] = { FNS(fminp), K_PAIR },
};

bool trans_SIMDF_3same(DisasCtx *s, arg_SIMDF_3same *a)
{
    const SameOp *e = &same3[IX(a->u, a->a, a->op)];
    if (!e->kind || (a->sz && !a->q))
        return false;
    unsigned lanes = vlanes(a->q, a->sz);
    Op *o = emit(s, &e->f, a->sz, a->rd, a->rn, a->rm, lanes);
    if (e->kind & K_PAIR)
        o->imm = lanes;
    return true;
}

bool trans_SIMDF_3same_s(DisasCtx *s, arg_SIMDF_3same_s *a)
{
    const SameOp *e = &same3[IX(a->u, a->a, a->op)];
    if (!(e->kind & K_SCALAR_OK))
        return false;
    emit(s, &e->f, a->sz, a->rd, a->rn, a->rm, 1);
    return true;
}

bool trans_SIMDF_pair_s(DisasCtx *s, arg_SIMDF_pair_s *a)
{
    /* op: 00 FMAXNMP/FMINNMP, 01 FADDP (a = 0), 11 FMAXP/FMINP. */
    static const FnPair fns[2][4] = {
        { FNS(fmaxnmp), FNS(faddp), { 0, 0 }, FNS(fmaxp) },
        { FNS(fminnmp), { 0, 0 }, { 0, 0 }, FNS(fminp) },
    };
    const FnPair *f = &fns[a->a][a->op];
    if (!f->f32)
        return false;
    Op *o = emit(s, f, a->sz, a->rd, a->rn, a->rn, 1);
    o->imm = 2;
    return true;
}

/* FCMxx #0.0, FABS, FNEG (a = 1, opcodes 011xx). */
static const FnPair cmp0_ops[2][4] = {
    { FNS(fcmgt0), FNS(fcmeq0), FNS(fcmlt0), FNS(fabs) },
    { FNS(fcmge0), FNS(fcmle0), { 0, 0 }, FNS(fneg) },
};

bool trans_SIMDF_2misc_cmp0(DisasCtx *s, arg_SIMDF_2misc_cmp0 *a)
{
    const FnPair *f = &cmp0_ops[a->u][a->op];
    if (!f->f32 || (a->sz && !a->q))
        return false;
    emit(s, f, a->sz, a->rd, a->rn, 0, vlanes(a->q, a->sz));
    return true;
}

bool trans_SIMDF_2misc_cmp0_s(DisasCtx *s, arg_SIMDF_2misc_cmp0_s *a)
{
    if (a->op == 3) /* no scalar FABS/FNEG here */
        return false;
    const FnPair *f = &cmp0_ops[a->u][a->op];
    if (!f->f32)
        return false;
    emit(s, f, a->sz, a->rd, a->rn, 0, 1);
    return true;
}

/* FCVTN(2), FCVTL(2), FCVTXN(2): a = 0, opcodes 1011x. */
bool trans_SIMDF_2misc_cvt(DisasCtx *s, arg_SIMDF_2misc_cvt *a)
{
    OpFn fn;
    unsigned lanes = 0;
    if (!a->u)
        fn = a->op ? (a->sz ? op_fcvtl_32 : op_fcvtl_16) : (a->sz ? op_fcvtn_64 : op_fcvtn_32);
    else if (!a->op && a->sz) {
        fn = op_fcvtxn;
        lanes = 2;
    } else
        return false;
    Op *o = tr_emit(s, fn);
    o->d = (uint8_t)a->rd;
    o->n = (uint8_t)a->rn;
    o->x = lanes;
    o->imm = (uint64_t)a->q;
    return true;
}

bool trans_SIMDF_fcvtxn_s(DisasCtx *s, arg_SIMDF_fcvtxn_s *a)
{
    if (!a->sz)
        return false;
    Op *o = tr_emit(s, op_fcvtxn);
    o->d = (uint8_t)a->rd;
    o->n = (uint8_t)a->rn;
    o->x = 1;
    o->imm = 0;
    return true;
}

/* Opcodes 11xxx, indexed [u][a][op]. */
enum { M_NONE, M_RINT, M_RINTX, M_RINTI, M_CVTS, M_CVTU, M_SCVTF, M_UCVTF,
       M_RECPE, M_RSQRTE, M_RECPX, M_SQRT };
typedef struct { uint8_t kind, rmode; bool vec, scalar; } MiscOp;
static const MiscOp misc[32] = {
    [IX(0, 0, 0)] = { M_RINT, FPR_TIEEVEN, true, false },  /* FRINTN */
    [IX(0, 0, 1)] = { M_RINT, FPR_NEGINF, true, false },   /* FRINTM */
    [IX(0, 0, 2)] = { M_CVTS, FPR_TIEEVEN, true, true },   /* FCVTNS */
    [IX(0, 0, 3)] = { M_CVTS, FPR_NEGINF, true, true },    /* FCVTMS */
    [IX(0, 0, 4)] = { M_CVTS, FPR_TIEAWAY, true, true },   /* FCVTAS */
    [IX(0, 0, 5)] = { M_SCVTF, 0, true, true },            /* SCVTF */
    [IX(0, 1, 0)] = { M_RINT, FPR_POSINF, true, false },   /* FRINTP */
    [IX(0, 1, 1)] = { M_RINT, FPR_ZERO, true, false },     /* FRINTZ */
    [IX(0, 1, 2)] = { M_CVTS, FPR_POSINF, true, true },    /* FCVTPS */
    [IX(0, 1, 3)] = { M_CVTS, FPR_ZERO, true, true },      /* FCVTZS */
    [IX(0, 1, 5)] = { M_RECPE, 0, true, true },            /* FRECPE */
    [IX(0, 1, 7)] = { M_RECPX, 0, false, true },           /* FRECPX */
    [IX(1, 0, 0)] = { M_RINT, FPR_TIEAWAY, true, false },  /* FRINTA */
    [IX(1, 0, 1)] = { M_RINTX, 0, true, false },           /* FRINTX */
    [IX(1, 0, 2)] = { M_CVTU, FPR_TIEEVEN, true, true },   /* FCVTNU */
    [IX(1, 0, 3)] = { M_CVTU, FPR_NEGINF, true, true },    /* FCVTMU */
    [IX(1, 0, 4)] = { M_CVTU, FPR_TIEAWAY, true, true },   /* FCVTAU */
    [IX(1, 0, 5)] = { M_UCVTF, 0, true, true },            /* UCVTF */
    [IX(1, 1, 1)] = { M_RINTI, 0, true, false },           /* FRINTI */
    [IX(1, 1, 2)] = { M_CVTU, FPR_POSINF, true, true },    /* FCVTPU */
    [IX(1, 1, 3)] = { M_CVTU, FPR_ZERO, true, true },      /* FCVTZU */
    [IX(1, 1, 5)] = { M_RSQRTE, 0, true, true },           /* FRSQRTE */
    [IX(1, 1, 7)] = { M_SQRT, 0, true, false },            /* FSQRT */
};

static const FnPair misc_fns[] = {
    [M_RINT] = FNS(frint), [M_RINTX] = FNS(frintx), [M_RINTI] = FNS(frinti),
    [M_CVTS] = FNS(fcvts), [M_CVTU] = FNS(fcvtu), [M_SCVTF] = FNS(scvtf),
    [M_UCVTF] = FNS(ucvtf), [M_RECPE] = FNS(frecpe), [M_RSQRTE] = FNS(frsqrte),
    [M_RECPX] = FNS(frecpx), [M_SQRT] = FNS(fsqrt),
};

static void emit_misc(DisasCtx *s, const MiscOp *m, int sz, int rd, int rn, unsigned lanes)
{
    Op *o = emit(s, &misc_fns[m->kind], sz, rd, rn, 0, lanes);
    if (m->kind == M_CVTS || m->kind == M_CVTU)
        o->imm = (uint64_t)m->rmode << 8; /* fbits 0 */
    else if (m->kind == M_RINT)
        o->imm = m->rmode;
}

bool trans_SIMDF_2misc(DisasCtx *s, arg_SIMDF_2misc *a)
{
    const MiscOp *m = &misc[IX(a->u, a->a, a->op)];
    if (!m->vec || (a->sz && !a->q))
        return false;
    emit_misc(s, m, a->sz, a->rd, a->rn, vlanes(a->q, a->sz));
    return true;
}

bool trans_SIMDF_2misc_s(DisasCtx *s, arg_SIMDF_2misc_s *a)
{
    const MiscOp *m = &misc[IX(a->u, a->a, a->op)];
    if (!m->scalar)
        return false;
    emit_misc(s, m, a->sz, a->rd, a->rn, 1);
    return true;
}

bool trans_SIMDF_across(DisasCtx *s, arg_SIMDF_across *a)
{
    OpFn fn;
    if (a->sz || !a->q)
        return false;
    if (a->op == 0)
        fn = a->a ? op_fminnmv : op_fmaxnmv;
    else if (a->op == 3)
        fn = a->a ? op_fminv : op_fmaxv;
    else
        return false;
    Op *o = tr_emit(s, fn);
    o->d = (uint8_t)a->rd;
    o->n = (uint8_t)a->rn;
    return true;
}

/* By element, op = opcode<3:2>: U=0: 00 FMLA, 01 FMLS, 10 FMUL; U=1: 10 FMULX. */
static bool do_idx(DisasCtx *s, int q, int u, int sz, int l, int m, int rm, int op, int h,
                   int rn, int rd, bool scalar)
{
    static const FnPair fns[2][4] = {
        { { op_fmla_idx_32, op_fmla_idx_64 }, { op_fmls_idx_32, op_fmls_idx_64 },
          { op_fmul_idx_32, op_fmul_idx_64 }, { 0, 0 } },
        { { 0, 0 }, { 0, 0 }, { op_fmulx_idx_32, op_fmulx_idx_64 }, { 0, 0 } },
    };
    const FnPair *f = &fns[u][op];
    if (!f->f32)
        return false;
    unsigned index;
    if (sz) {
        if (l || (!scalar && !q))
            return false;
        index = (unsigned)h;
    } else
        index = (unsigned)(h << 1 | l);
    Op *o = emit(s, f, sz, rd, rn, m << 4 | rm, scalar ? 1 : vlanes(q, sz));
    o->imm = index;
    return true;
}

bool trans_SIMDF_idx(DisasCtx *s, arg_SIMDF_idx *a)
{
    return do_idx(s, a->q, a->u, a->sz, a->l, a->m, a->rm, a->op, a->h, a->rn, a->rd, false);
}

bool trans_SIMDF_idx_s(DisasCtx *s, arg_SIMDF_idx_s *a)
{
    return do_idx(s, 1, a->u, a->sz, a->l, a->m, a->rm, a->op, a->h, a->rn, a->rd, true);
}

/* Fixed-point conversions: immh 01xx single, 1xxx double (00xx: FP16 or
 * modified immediate, not Armv8.0 FP); fbits = 2 * esize - immh:immb. */
static bool do_fixed(DisasCtx *s, bool fcvtz, int q, int u, int immh, int immb, int rn, int rd,
                     bool scalar)
{
    int sz;
    if (immh & 8)
        sz = 1;
    else if (immh & 4)
        sz = 0;
    else
        return false;
    if (!scalar && sz && !q)
        return false;
    unsigned fbits = (unsigned)((64 << sz) - (immh << 3 | immb));
    static const FnPair fns[2][2] = {
        { FNS(scvtf), FNS(ucvtf) }, { FNS(fcvts), FNS(fcvtu) },
    };
    Op *o = emit(s, &fns[fcvtz][u], sz, rd, rn, 0, scalar ? 1 : vlanes(q, sz));
    o->imm = fcvtz ? (fbits | (unsigned)FPR_ZERO << 8) : fbits;
    return true;
}

bool trans_SIMDF_cvtf_fix(DisasCtx *s, arg_SIMDF_cvtf_fix *a)
{
    return do_fixed(s, false, a->q, a->u, a->immh, a->immb, a->rn, a->rd, false);
}

bool trans_SIMDF_fcvtz_fix(DisasCtx *s, arg_SIMDF_fcvtz_fix *a)
{
    return do_fixed(s, true, a->q, a->u, a->immh, a->immb, a->rn, a->rd, false);
}

bool trans_SIMDF_cvtf_fix_s(DisasCtx *s, arg_SIMDF_cvtf_fix_s *a)
{
    return do_fixed(s, false, 1, a->u, a->immh, a->immb, a->rn, a->rd, true);
}

bool trans_SIMDF_fcvtz_fix_s(DisasCtx *s, arg_SIMDF_fcvtz_fix_s *a)
{
    return do_fixed(s, true, 1, a->u, a->immh, a->immb, a->rn, a->rd, true);
}
