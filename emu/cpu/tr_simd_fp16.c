/* AdvSIMD half-precision floating point (FEAT_FP16, --cpu max): vector and
 * "AdvSIMD scalar" forms of three same, two-register misc, across lanes,
 * pairwise, by element, fixed-point conversion and FMOV immediate.
 *
 * Laid out like tr_simd_fp.c: one handler per operation on 16-bit lanes, the
 * lane count (vector 4/8, scalar 1) in o->x, per-instruction constants
 * (rounding mode, fraction bits, element index) in o->imm.  Each handler reads
 * all sources before writing the destination and builds the whole 128-bit
 * result (64-bit vector and scalar results zero the rest).  The arithmetic is
 * fpu.h's f16_* (FPCR.FZ16 flushes, never FZ).  Every translator returns false
 * without FEAT_FP16, so these encodings stay UNDEFINED on the A57. */
#include "translate.h"
#include "fpu.h"

#define FP (&c->fp)
#define MASK16(cond) ((cond) ? (uint16_t)0xffff : (uint16_t)0)

/* ---- element-wise binary operations ---------------------------------------- */

#define B_fadd(a, b)    f16_add(a, b, FP)
#define B_fsub(a, b)    f16_sub(a, b, FP)
#define B_fmul(a, b)    f16_mul(a, b, FP)
#define B_fdiv(a, b)    f16_div(a, b, FP)
#define B_fmax(a, b)    f16_max(a, b, FP)
#define B_fmin(a, b)    f16_min(a, b, FP)
#define B_fmaxnm(a, b)  f16_maxnm(a, b, FP)
#define B_fminnm(a, b)  f16_minnm(a, b, FP)
#define B_fmulx(a, b)   f16_mulx(a, b, FP)
#define B_fabd(a, b)    f16_abd(a, b, FP)
#define B_frecps(a, b)  f16_recps(a, b, FP)
#define B_frsqrts(a, b) f16_rsqrts(a, b, FP)
#define B_fcmeq(a, b)   MASK16(f16_cmp_eq(a, b, FP))
#define B_fcmge(a, b)   MASK16(f16_cmp_ge(a, b, FP))
#define B_fcmgt(a, b)   MASK16(f16_cmp_gt(a, b, FP))
#define B_facge(a, b)   MASK16(f16_cmp_ge(f16_abs(a), f16_abs(b), FP))
#define B_facgt(a, b)   MASK16(f16_cmp_gt(f16_abs(a), f16_abs(b), FP))

#define GEN_BIN(NAME)                                                       \
    static Op *op_h##NAME(CPUState *c, Op *o)                               \
    {                                                                       \
        const VReg *vn = &c->v[o->n], *vm = &c->v[o->m];                    \
        VReg r = { 0 };                                                     \
        for (unsigned i = 0; i < o->x; i++)                                 \
            r.h[i] = B_##NAME(vn->h[i], vm->h[i]);                          \
        c->v[o->d] = r;                                                     \
        return op_next(c, o);                                               \
    }
GEN_BIN(fadd) GEN_BIN(fsub) GEN_BIN(fmul) GEN_BIN(fdiv)
GEN_BIN(fmax) GEN_BIN(fmin) GEN_BIN(fmaxnm) GEN_BIN(fminnm)
GEN_BIN(fmulx) GEN_BIN(fabd) GEN_BIN(frecps) GEN_BIN(frsqrts)
GEN_BIN(fcmeq) GEN_BIN(fcmge) GEN_BIN(fcmgt) GEN_BIN(facge) GEN_BIN(facgt)

/* FMLA / FMLS: fused, the Vd lanes are the addend; FMLS negates op1 first. */
#define T_fmla(d, a, b) f16_muladd(d, a, b, FP)
#define T_fmls(d, a, b) f16_muladd(d, f16_neg(a), b, FP)

#define GEN_TERN(NAME)                                                      \
    static Op *op_h##NAME(CPUState *c, Op *o)                               \
    {                                                                       \
        const VReg *vn = &c->v[o->n], *vm = &c->v[o->m], *vd = &c->v[o->d]; \
        VReg r = { 0 };                                                     \
        for (unsigned i = 0; i < o->x; i++)                                 \
            r.h[i] = T_##NAME(vd->h[i], vn->h[i], vm->h[i]);                \
        c->v[o->d] = r;                                                     \
        return op_next(c, o);                                               \
    }
GEN_TERN(fmla) GEN_TERN(fmls)

/* By element: the Vm element (index o->imm) is read once. */
#define GEN_IDX(NAME)                                                       \
    static Op *op_h##NAME##_idx(CPUState *c, Op *o)                         \
    {                                                                       \
        const VReg *vn = &c->v[o->n];                                       \
        const uint16_t b = c->v[o->m].h[o->imm];                            \
        VReg r = { 0 };                                                     \
        for (unsigned i = 0; i < o->x; i++)                                 \
            r.h[i] = B_##NAME(vn->h[i], b);                                 \
        c->v[o->d] = r;                                                     \
        return op_next(c, o);                                               \
    }
#define GEN_TIDX(NAME)                                                      \
    static Op *op_h##NAME##_idx(CPUState *c, Op *o)                         \
    {                                                                       \
        const VReg *vn = &c->v[o->n], *vd = &c->v[o->d];                    \
        const uint16_t b = c->v[o->m].h[o->imm];                            \
        VReg r = { 0 };                                                     \
        for (unsigned i = 0; i < o->x; i++)                                 \
            r.h[i] = T_##NAME(vd->h[i], vn->h[i], b);                       \
        c->v[o->d] = r;                                                     \
        return op_next(c, o);                                               \
    }
GEN_IDX(fmul) GEN_IDX(fmulx) GEN_TIDX(fmla) GEN_TIDX(fmls)

/* Pairwise: the concatenation Vm:Vn (o->x lanes each), adjacent pairs.  The
 * scalar forms use Vn alone: o->x = 1 result from Vn's two low lanes (Vm = Vn). */
#define GEN_PAIR(NAME)                                                      \
    static Op *op_h##NAME##p(CPUState *c, Op *o)                            \
    {                                                                       \
        uint16_t src[16];                                                   \
        const unsigned per = o->x == 1 ? 2 : o->x;                          \
        for (unsigned i = 0; i < per; i++) {                                \
            src[i] = c->v[o->n].h[i];                                       \
            src[per + i] = c->v[o->m].h[i];                                 \
        }                                                                   \
        VReg r = { 0 };                                                     \
        for (unsigned i = 0; i < o->x; i++)                                 \
            r.h[i] = B_##NAME(src[2 * i], src[2 * i + 1]);                  \
        c->v[o->d] = r;                                                     \
        return op_next(c, o);                                               \
    }
GEN_PAIR(fadd) GEN_PAIR(fmax) GEN_PAIR(fmin) GEN_PAIR(fmaxnm) GEN_PAIR(fminnm)

/* Across lanes (o->x = 4 or 8 lanes): Reduce() halves recursively, op(lower, upper). */
#define GEN_ACROSS(NAME)                                                    \
    static Op *op_h##NAME##v(CPUState *c, Op *o)                            \
    {                                                                       \
        uint16_t t[8];                                                      \
        for (unsigned i = 0; i < o->x; i++)                                 \
            t[i] = c->v[o->n].h[i];                                         \
        for (unsigned n = o->x; n > 1; n /= 2)                              \
            for (unsigned i = 0; i < n / 2; i++)                            \
                t[i] = B_##NAME(t[2 * i], t[2 * i + 1]);                    \
        VReg r = { 0 };                                                     \
        r.h[0] = t[0];                                                      \
        c->v[o->d] = r;                                                     \
        return op_next(c, o);                                               \
    }
GEN_ACROSS(fmax) GEN_ACROSS(fmin) GEN_ACROSS(fmaxnm) GEN_ACROSS(fminnm)

/* ---- element-wise unary operations ------------------------------------------- */
/* o->imm: FRINT* rounding mode; FCVT* fbits | rmode << 8; xCVTF fbits. */

#define U_fabs(a)    f16_abs(a)
#define U_fneg(a)    f16_neg(a)
#define U_fsqrt(a)   f16_sqrt(a, FP)
#define U_frecpe(a)  f16_recpe(a, FP)
#define U_frsqrte(a) f16_rsqrte(a, FP)
#define U_frecpx(a)  f16_recpx(a, FP)
#define U_frint(a)   f16_round_int(a, (FPRounding)o->imm, false, FP)
#define U_frintx(a)  f16_round_int(a, fp_rmode(FP), true, FP)
#define U_frinti(a)  f16_round_int(a, fp_rmode(FP), false, FP)
#define U_fcmgt0(a)  MASK16(f16_cmp_gt(a, 0, FP))
#define U_fcmge0(a)  MASK16(f16_cmp_ge(a, 0, FP))
#define U_fcmeq0(a)  MASK16(f16_cmp_eq(a, 0, FP))
#define U_fcmle0(a)  MASK16(f16_cmp_ge(0, a, FP))
#define U_fcmlt0(a)  MASK16(f16_cmp_gt(0, a, FP))
#define U_fcvts(a)   (uint16_t)f16_to_fixed(a, (int)(o->imm & 0xff), false, 16, (FPRounding)(o->imm >> 8), FP)
#define U_fcvtu(a)   (uint16_t)f16_to_fixed(a, (int)(o->imm & 0xff), true, 16, (FPRounding)(o->imm >> 8), FP)
#define U_scvtf(a)   fixed_to_f16((uint64_t)(int64_t)(int16_t)(a), (int)o->imm, false, fp_rmode(FP), FP)
#define U_ucvtf(a)   fixed_to_f16((uint64_t)(a), (int)o->imm, true, fp_rmode(FP), FP)

#define GEN_UN(NAME)                                                        \
    static Op *op_h##NAME(CPUState *c, Op *o)                               \
    {                                                                       \
        const VReg *vn = &c->v[o->n];                                       \
        VReg r = { 0 };                                                     \
        for (unsigned i = 0; i < o->x; i++)                                 \
            r.h[i] = U_##NAME(vn->h[i]);                                    \
        c->v[o->d] = r;                                                     \
        return op_next(c, o);                                               \
    }
GEN_UN(fabs) GEN_UN(fneg) GEN_UN(fsqrt) GEN_UN(frecpe) GEN_UN(frsqrte) GEN_UN(frecpx)
GEN_UN(frint) GEN_UN(frintx) GEN_UN(frinti)
GEN_UN(fcmgt0) GEN_UN(fcmge0) GEN_UN(fcmeq0) GEN_UN(fcmle0) GEN_UN(fcmlt0)
GEN_UN(fcvts) GEN_UN(fcvtu) GEN_UN(scvtf) GEN_UN(ucvtf)

/* FMOV (vector, immediate): imm = the 64-bit pattern, x = 2 for Q = 1. */
static Op *op_hfmov_imm(CPUState *c, Op *o)
{
    VReg r = { 0 };
    for (unsigned i = 0; i < o->x; i++)
        r.d[i] = o->imm;
    c->v[o->d] = r;
    return op_next(c, o);
}

/* ---- translators ------------------------------------------------------------ */

static Op *emit(DisasCtx *s, OpFn fn, int rd, int rn, int rm, unsigned lanes)
{
    Op *o = tr_emit(s, fn);
    o->d = (uint8_t)rd;
    o->n = (uint8_t)rn;
    o->m = (uint8_t)rm;
    o->x = lanes;
    return o;
}

#define IX(u, a, op) ((u) << 4 | (a) << 3 | (op))
enum { K_VEC = 1, K_SCALAR = 2, K_PAIR = 4 };
typedef struct { OpFn fn; uint8_t kind; } HOp;

/* Three same FP16, [u][a][opcode<2:0>]: the single/double table's layout. */
static const HOp same3[32] = {
    [IX(0, 0, 0)] = { op_hfmaxnm, K_VEC },           [IX(0, 0, 1)] = { op_hfmla, K_VEC },
    [IX(0, 0, 2)] = { op_hfadd, K_VEC },             [IX(0, 0, 3)] = { op_hfmulx, K_VEC | K_SCALAR },
    [IX(0, 0, 4)] = { op_hfcmeq, K_VEC | K_SCALAR }, [IX(0, 0, 6)] = { op_hfmax, K_VEC },
    [IX(0, 0, 7)] = { op_hfrecps, K_VEC | K_SCALAR },
    [IX(0, 1, 0)] = { op_hfminnm, K_VEC },           [IX(0, 1, 1)] = { op_hfmls, K_VEC },
    [IX(0, 1, 2)] = { op_hfsub, K_VEC },             [IX(0, 1, 6)] = { op_hfmin, K_VEC },
    [IX(0, 1, 7)] = { op_hfrsqrts, K_VEC | K_SCALAR },
    [IX(1, 0, 0)] = { op_hfmaxnmp, K_PAIR },         [IX(1, 0, 2)] = { op_hfaddp, K_PAIR },
    [IX(1, 0, 3)] = { op_hfmul, K_VEC },             [IX(1, 0, 4)] = { op_hfcmge, K_VEC | K_SCALAR },
    [IX(1, 0, 5)] = { op_hfacge, K_VEC | K_SCALAR }, [IX(1, 0, 6)] = { op_hfmaxp, K_PAIR },
    [IX(1, 0, 7)] = { op_hfdiv, K_VEC },
    [IX(1, 1, 0)] = { op_hfminnmp, K_PAIR },         [IX(1, 1, 2)] = { op_hfabd, K_VEC | K_SCALAR },
    [IX(1, 1, 4)] = { op_hfcmgt, K_VEC | K_SCALAR }, [IX(1, 1, 5)] = { op_hfacgt, K_VEC | K_SCALAR },
    [IX(1, 1, 6)] = { op_hfminp, K_PAIR },
};

static unsigned hlanes(int q) { return q ? 8u : 4u; }

bool trans_SIMDF_h3same(DisasCtx *s, arg_SIMDF_h3same *a)
{
    const HOp *e = &same3[IX(a->u, a->a, a->op)];
    if (!cpu_feat_fp16() || !(e->kind & (K_VEC | K_PAIR)))
        return false;
    emit(s, e->fn, a->rd, a->rn, a->rm, hlanes(a->q));
    return true;
}

bool trans_SIMDF_h3same_s(DisasCtx *s, arg_SIMDF_h3same_s *a)
{
    const HOp *e = &same3[IX(a->u, a->a, a->op)];
    if (!cpu_feat_fp16() || !(e->kind & K_SCALAR))
        return false;
    emit(s, e->fn, a->rd, a->rn, a->rm, 1);
    return true;
}

/* Two-register misc FP16, [u][a][opcode]: x = FRINT rounding mode or FCVT* rmode. */
typedef struct { OpFn fn; uint8_t kind, rmode; } MiscOp;
#define MX(u, a, op) ((u) << 6 | (a) << 5 | (op))
static const MiscOp misc[128] = {
    [MX(0, 0, 0x18)] = { op_hfrint, K_VEC, FPR_TIEEVEN },           /* FRINTN */
    [MX(0, 0, 0x19)] = { op_hfrint, K_VEC, FPR_NEGINF },            /* FRINTM */
    [MX(0, 0, 0x1a)] = { op_hfcvts, K_VEC | K_SCALAR, FPR_TIEEVEN }, /* FCVTNS */
    [MX(0, 0, 0x1b)] = { op_hfcvts, K_VEC | K_SCALAR, FPR_NEGINF },  /* FCVTMS */
    [MX(0, 0, 0x1c)] = { op_hfcvts, K_VEC | K_SCALAR, FPR_TIEAWAY }, /* FCVTAS */
    [MX(0, 0, 0x1d)] = { op_hscvtf, K_VEC | K_SCALAR, 0 },           /* SCVTF */
    [MX(0, 1, 0x0c)] = { op_hfcmgt0, K_VEC | K_SCALAR, 0 },          /* FCMGT #0 */
    [MX(0, 1, 0x0d)] = { op_hfcmeq0, K_VEC | K_SCALAR, 0 },          /* FCMEQ #0 */
    [MX(0, 1, 0x0e)] = { op_hfcmlt0, K_VEC | K_SCALAR, 0 },          /* FCMLT #0 */
    [MX(0, 1, 0x0f)] = { op_hfabs, K_VEC, 0 },                       /* FABS */
    [MX(0, 1, 0x18)] = { op_hfrint, K_VEC, FPR_POSINF },            /* FRINTP */
    [MX(0, 1, 0x19)] = { op_hfrint, K_VEC, FPR_ZERO },              /* FRINTZ */
    [MX(0, 1, 0x1a)] = { op_hfcvts, K_VEC | K_SCALAR, FPR_POSINF },  /* FCVTPS */
    [MX(0, 1, 0x1b)] = { op_hfcvts, K_VEC | K_SCALAR, FPR_ZERO },    /* FCVTZS */
    [MX(0, 1, 0x1d)] = { op_hfrecpe, K_VEC | K_SCALAR, 0 },          /* FRECPE */
    [MX(0, 1, 0x1f)] = { op_hfrecpx, K_SCALAR, 0 },                  /* FRECPX */
    [MX(1, 0, 0x18)] = { op_hfrint, K_VEC, FPR_TIEAWAY },           /* FRINTA */
    [MX(1, 0, 0x19)] = { op_hfrintx, K_VEC, 0 },                    /* FRINTX */
    [MX(1, 0, 0x1a)] = { op_hfcvtu, K_VEC | K_SCALAR, FPR_TIEEVEN }, /* FCVTNU */
    [MX(1, 0, 0x1b)] = { op_hfcvtu, K_VEC | K_SCALAR, FPR_NEGINF },  /* FCVTMU */
    [MX(1, 0, 0x1c)] = { op_hfcvtu, K_VEC | K_SCALAR, FPR_TIEAWAY }, /* FCVTAU */
    [MX(1, 0, 0x1d)] = { op_hucvtf, K_VEC | K_SCALAR, 0 },           /* UCVTF */
    [MX(1, 1, 0x0c)] = { op_hfcmge0, K_VEC | K_SCALAR, 0 },          /* FCMGE #0 */
    [MX(1, 1, 0x0d)] = { op_hfcmle0, K_VEC | K_SCALAR, 0 },          /* FCMLE #0 */
    [MX(1, 1, 0x0f)] = { op_hfneg, K_VEC, 0 },                       /* FNEG */
    [MX(1, 1, 0x19)] = { op_hfrinti, K_VEC, 0 },                    /* FRINTI */
    [MX(1, 1, 0x1a)] = { op_hfcvtu, K_VEC | K_SCALAR, FPR_POSINF },  /* FCVTPU */
    [MX(1, 1, 0x1b)] = { op_hfcvtu, K_VEC | K_SCALAR, FPR_ZERO },    /* FCVTZU */
    [MX(1, 1, 0x1d)] = { op_hfrsqrte, K_VEC | K_SCALAR, 0 },         /* FRSQRTE */
    [MX(1, 1, 0x1f)] = { op_hfsqrt, K_VEC, 0 },                      /* FSQRT */
};

static bool do_misc(DisasCtx *s, int u, int a, int op, int rd, int rn, unsigned lanes, uint8_t need)
{
    const MiscOp *m = &misc[MX(u, a, op)];
    if (!cpu_feat_fp16() || !(m->kind & need))
        return false;
    Op *o = emit(s, m->fn, rd, rn, 0, lanes);
    if (m->fn == op_hfcvts || m->fn == op_hfcvtu)
        o->imm = (uint64_t)m->rmode << 8; /* fbits 0 */
    else if (m->fn == op_hfrint)
        o->imm = m->rmode;
    return true;
}

bool trans_SIMDF_h2misc(DisasCtx *s, arg_SIMDF_h2misc *a)
{
    return do_misc(s, a->u, a->a, a->op, a->rd, a->rn, hlanes(a->q), K_VEC);
}

bool trans_SIMDF_h2misc_s(DisasCtx *s, arg_SIMDF_h2misc_s *a)
{
    return do_misc(s, a->u, a->a, a->op, a->rd, a->rn, 1, K_SCALAR);
}

bool trans_SIMDF_hacross(DisasCtx *s, arg_SIMDF_hacross *a)
{
    OpFn fn;
    if (!cpu_feat_fp16())
        return false;
    if (a->op == 0x0c)
        fn = a->a ? op_hfminnmv : op_hfmaxnmv;
    else if (a->op == 0x0f)
        fn = a->a ? op_hfminv : op_hfmaxv;
    else
        return false;
    emit(s, fn, a->rd, a->rn, 0, hlanes(a->q));
    return true;
}

bool trans_SIMDF_hpair_s(DisasCtx *s, arg_SIMDF_hpair_s *a)
{
    OpFn fn;
    if (!cpu_feat_fp16())
        return false;
    if (a->op == 0x0c)
        fn = a->a ? op_hfminnmp : op_hfmaxnmp;
    else if (a->op == 0x0d && !a->a)
        fn = op_hfaddp;
    else if (a->op == 0x0f)
        fn = a->a ? op_hfminp : op_hfmaxp;
    else
        return false;
    emit(s, fn, a->rd, a->rn, a->rn, 1);
    return true;
}

/* By element, opcode: U=0: 0001 FMLA, 0101 FMLS, 1001 FMUL; U=1: 1001 FMULX. */
static bool do_idx(DisasCtx *s, int u, int l, int m, int rm, int op, int h, int rn, int rd, unsigned lanes)
{
    OpFn fn;
    if (!cpu_feat_fp16())
        return false;
    if (op == 9)
        fn = u ? op_hfmulx_idx : op_hfmul_idx;
    else if (!u && op == 1)
        fn = op_hfmla_idx;
    else if (!u && op == 5)
        fn = op_hfmls_idx;
    else
        return false;
    Op *o = emit(s, fn, rd, rn, rm, lanes);
    o->imm = (unsigned)(h << 2 | l << 1 | m);
    return true;
}

bool trans_SIMDF_hidx(DisasCtx *s, arg_SIMDF_hidx *a)
{
    return do_idx(s, a->u, a->l, a->m, a->rm, a->op, a->h, a->rn, a->rd, hlanes(a->q));
}

bool trans_SIMDF_hidx_s(DisasCtx *s, arg_SIMDF_hidx_s *a)
{
    return do_idx(s, a->u, a->l, a->m, a->rm, a->op, a->h, a->rn, a->rd, 1);
}

/* Fixed point, immh = 001x: fbits = 32 - immh:immb. */
static bool do_fix(DisasCtx *s, int u, int immb, int op, int rn, int rd, unsigned lanes)
{
    if (!cpu_feat_fp16() || (op != 0x1c && op != 0x1f))
        return false;
    unsigned fbits = 32u - (unsigned)(16 | immb);
    bool fcvtz = op == 0x1f;
    OpFn fn = fcvtz ? (u ? op_hfcvtu : op_hfcvts) : (u ? op_hucvtf : op_hscvtf);
    Op *o = emit(s, fn, rd, rn, 0, lanes);
    o->imm = fcvtz ? (fbits | (unsigned)FPR_ZERO << 8) : fbits;
    return true;
}

bool trans_SIMDF_hfix(DisasCtx *s, arg_SIMDF_hfix *a)
{
    return do_fix(s, a->u, a->immb, a->op, a->rn, a->rd, hlanes(a->q));
}

bool trans_SIMDF_hfix_s(DisasCtx *s, arg_SIMDF_hfix_s *a)
{
    return do_fix(s, a->u, a->immb, a->op, a->rn, a->rd, 1);
}

bool trans_SIMDF_hfmov_imm(DisasCtx *s, arg_SIMDF_hfmov_imm *a)
{
    if (!cpu_feat_fp16())
        return false;
    /* VFPExpandImm for 16 bits: sign, NOT(b):b:b:cd exponent, efgh0000 fraction. */
    unsigned imm8 = (unsigned)(a->abc << 5 | a->defgh);
    unsigned b6 = (imm8 >> 6) & 1;
    uint16_t v = (uint16_t)(((imm8 >> 7) & 1) << 15 | (b6 ^ 1) << 14 | (b6 ? 3u : 0u) << 12 |
                            ((imm8 >> 4) & 3) << 10 | (imm8 & 15) << 6);
    Op *o = emit(s, op_hfmov_imm, a->rd, 0, 0, a->q ? 2 : 1);
    o->imm = v * 0x0001000100010001ull;
    return true;
}
