/* Scalar floating point (FP_ family): translators and op handlers.
 *
 * Arithmetic goes through fpu.h (bit-exact Arm semantics and FPSR flags).
 * Handlers are specialised per precision (half precision, ftype 11, is FEAT_FP16:
 * the max core only) and per destination width for the
 * integer conversions; writing an S/D/H register zeroes the rest of the V
 * register.  Operands: d n m a = registers (V or X slots), x = packed extras
 * (rounding mode, fbits, condition), imm = FMOV immediate. */
#include "translate.h"
#include "fpu.h"
#include "native.h"

#define RS(r) (c->v[r].s[0])
#define RD(r) (c->v[r].d[0])
#define RH(r) (c->v[r].h[0])

static inline void wr_v64(CPUState *c, unsigned d, uint64_t v)
{
    c->v[d].d[0] = v;
    c->v[d].d[1] = 0;
}

/* ---- handlers ---------------------------------------------------------------- */

/* Two sources; the _h handlers (FEAT_FP16) use the generic soft path. */
#define FP_BIN(name, e16, e32, e64)                                            \
    static Op *op_##name##_h(CPUState *c, Op *o)                               \
    {                                                                          \
        uint16_t a = RH(o->n), b = RH(o->m);                                   \
        wr_v64(c, o->d, (uint16_t)(e16));                                      \
        return op_next(c, o);                                                  \
    }                                                                          \
    static Op *op_##name##_s(CPUState *c, Op *o)                               \
    {                                                                          \
        uint32_t a = RS(o->n), b = RS(o->m);                                   \
        wr_v64(c, o->d, (uint32_t)(e32));                                      \
        return op_next(c, o);                                                          \
    }                                                                          \
    static Op *op_##name##_d(CPUState *c, Op *o)                               \
    {                                                                          \
        uint64_t a = RD(o->n), b = RD(o->m);                                   \
        wr_v64(c, o->d, (e64));                                                \
        return op_next(c, o);                                                          \
    }

FP_BIN(fmul, f16_mul(a, b, &c->fp), f32_mul_inl(a, b, &c->fp), f64_mul_inl(a, b, &c->fp))
FP_BIN(fdiv, f16_div(a, b, &c->fp), f32_div_inl(a, b, &c->fp), f64_div_inl(a, b, &c->fp))
FP_BIN(fadd, f16_add(a, b, &c->fp), f32_add_inl(a, b, &c->fp), f64_add_inl(a, b, &c->fp))
FP_BIN(fsub, f16_sub(a, b, &c->fp), f32_sub_inl(a, b, &c->fp), f64_sub_inl(a, b, &c->fp))
FP_BIN(fmax, f16_max(a, b, &c->fp), f32_max(a, b, &c->fp), f64_max(a, b, &c->fp))
FP_BIN(fmin, f16_min(a, b, &c->fp), f32_min(a, b, &c->fp), f64_min(a, b, &c->fp))
FP_BIN(fmaxnm, f16_maxnm(a, b, &c->fp), f32_maxnm(a, b, &c->fp), f64_maxnm(a, b, &c->fp))
FP_BIN(fminnm, f16_minnm(a, b, &c->fp), f32_minnm(a, b, &c->fp), f64_minnm(a, b, &c->fp))
FP_BIN(fnmul, f16_neg(f16_mul(a, b, &c->fp)), f32_neg(f32_mul(a, b, &c->fp)), f64_neg(f64_mul(a, b, &c->fp)))

/* Tables of per-precision handlers are indexed [single, double, half] (tix()). */
static const OpFn dp2_fns[9][3] = {
    { op_fmul_s, op_fmul_d, op_fmul_h },       { op_fdiv_s, op_fdiv_d, op_fdiv_h },
    { op_fadd_s, op_fadd_d, op_fadd_h },       { op_fsub_s, op_fsub_d, op_fsub_h },
    { op_fmax_s, op_fmax_d, op_fmax_h },       { op_fmin_s, op_fmin_d, op_fmin_h },
    { op_fmaxnm_s, op_fmaxnm_d, op_fmaxnm_h }, { op_fminnm_s, op_fminnm_d, op_fminnm_h },
    { op_fnmul_s, op_fnmul_d, op_fnmul_h },
};

/* Three sources: d = FPMulAdd(a', n', m) with the negations of each form. */
#define FP_MA(name, na, nn)                                                                 \
    static Op *op_##name##_h(CPUState *c, Op *o)                                            \
    {                                                                                       \
        uint16_t a = RH(o->a), n = RH(o->n), m = RH(o->m);                                  \
        if (na)                                                                             \
            a = f16_neg(a);                                                                 \
        if (nn)                                                                             \
            n = f16_neg(n);                                                                 \
        wr_v64(c, o->d, f16_muladd(a, n, m, &c->fp));                                       \
        return op_next(c, o);                                                               \
    }                                                                                       \
    static Op *op_##name##_s(CPUState *c, Op *o)                                            \
    {                                                                                       \
        uint32_t a = RS(o->a), n = RS(o->n), m = RS(o->m);                                  \
        if (na)                                                                             \
            a = f32_neg(a);                                                                 \
        if (nn)                                                                             \
            n = f32_neg(n);                                                                 \
        wr_v64(c, o->d, f32_muladd_inl(a, n, m, &c->fp));                                       \
        return op_next(c, o);                                                                       \
    }                                                                                       \
    static Op *op_##name##_d(CPUState *c, Op *o)                                            \
    {                                                                                       \
        uint64_t a = RD(o->a), n = RD(o->n), m = RD(o->m);                                  \
        if (na)                                                                             \
            a = f64_neg(a);                                                                 \
        if (nn)                                                                             \
            n = f64_neg(n);                                                                 \
        wr_v64(c, o->d, f64_muladd_inl(a, n, m, &c->fp));                                       \
        return op_next(c, o);                                                                       \
    }

FP_MA(fmadd, 0, 0)
FP_MA(fmsub, 0, 1)
FP_MA(fnmadd, 1, 1)
FP_MA(fnmsub, 1, 0)

static const OpFn dp3_fns[4][3] = {
    { op_fmadd_s, op_fmadd_d, op_fmadd_h }, { op_fmsub_s, op_fmsub_d, op_fmsub_h },
    { op_fnmadd_s, op_fnmadd_d, op_fnmadd_h }, { op_fnmsub_s, op_fnmsub_d, op_fnmsub_h },
};

/* One source. */
#define FP_UN(name, e16, e32, e64)                                             \
    static Op *op_##name##_h(CPUState *c, Op *o)                               \
    {                                                                          \
        uint16_t a = RH(o->n);                                                 \
        wr_v64(c, o->d, (uint16_t)(e16));                                      \
        return op_next(c, o);                                                  \
    }                                                                          \
    static Op *op_##name##_s(CPUState *c, Op *o)                               \
    {                                                                          \
        uint32_t a = RS(o->n);                                                 \
        wr_v64(c, o->d, (uint32_t)(e32));                                      \
        return op_next(c, o);                                                          \
    }                                                                          \
    static Op *op_##name##_d(CPUState *c, Op *o)                               \
    {                                                                          \
        uint64_t a = RD(o->n);                                                 \
        wr_v64(c, o->d, (e64));                                                \
        return op_next(c, o);                                                          \
    }

FP_UN(fmov, a, a, a)
FP_UN(fabs, f16_abs(a), f32_abs(a), f64_abs(a))
FP_UN(fneg, f16_neg(a), f32_neg(a), f64_neg(a))
FP_UN(fsqrt, f16_sqrt(a, &c->fp), f32_sqrt_inl(a, &c->fp), f64_sqrt_inl(a, &c->fp))
/* FRINTN/P/M/Z/A: x = rounding mode.  FRINTX/I: FPCR mode, x = exact. */
FP_UN(frint, f16_round_int(a, (FPRounding)o->x, false, &c->fp),
      f32_round_int(a, (FPRounding)o->x, false, &c->fp), f64_round_int(a, (FPRounding)o->x, false, &c->fp))
FP_UN(frintdyn, f16_round_int(a, fp_rmode(&c->fp), o->x, &c->fp),
      f32_round_int(a, fp_rmode(&c->fp), o->x, &c->fp), f64_round_int(a, fp_rmode(&c->fp), o->x, &c->fp))

static const OpFn dp1_fns[4][3] = {
    { op_fmov_s, op_fmov_d, op_fmov_h }, { op_fabs_s, op_fabs_d, op_fabs_h },
    { op_fneg_s, op_fneg_d, op_fneg_h }, { op_fsqrt_s, op_fsqrt_d, op_fsqrt_h },
};

/* FCVT between precisions. */
static Op *op_fcvt_sd(CPUState *c, Op *o) { wr_v64(c, o->d, f32_to_f64(RS(o->n), &c->fp)); return op_next(c, o); }
static Op *op_fcvt_sh(CPUState *c, Op *o) { wr_v64(c, o->d, f32_to_f16(RS(o->n), fp_rmode(&c->fp), &c->fp)); return op_next(c, o); }
static Op *op_fcvt_ds(CPUState *c, Op *o) { wr_v64(c, o->d, f64_to_f32(RD(o->n), fp_rmode(&c->fp), &c->fp)); return op_next(c, o); }
static Op *op_fcvt_dh(CPUState *c, Op *o) { wr_v64(c, o->d, f64_to_f16(RD(o->n), fp_rmode(&c->fp), &c->fp)); return op_next(c, o); }
static Op *op_fcvt_hs(CPUState *c, Op *o) { wr_v64(c, o->d, f16_to_f32(RH(o->n), &c->fp)); return op_next(c, o); }
static Op *op_fcvt_hd(CPUState *c, Op *o) { wr_v64(c, o->d, f16_to_f64(RH(o->n), &c->fp)); return op_next(c, o); }

/* Compares: x = signal_nans. */
static Op *op_fcmp_s(CPUState *c, Op *o) { cpu_set_nzcv(c, f32_compare(RS(o->n), RS(o->m), o->x, &c->fp)); return op_next(c, o); }
static Op *op_fcmp_d(CPUState *c, Op *o) { cpu_set_nzcv(c, f64_compare(RD(o->n), RD(o->m), o->x, &c->fp)); return op_next(c, o); }
static Op *op_fcmpz_s(CPUState *c, Op *o) { cpu_set_nzcv(c, f32_compare(RS(o->n), 0, o->x, &c->fp)); return op_next(c, o); }
static Op *op_fcmpz_d(CPUState *c, Op *o) { cpu_set_nzcv(c, f64_compare(RD(o->n), 0, o->x, &c->fp)); return op_next(c, o); }
static Op *op_fcmp_h(CPUState *c, Op *o) { cpu_set_nzcv(c, f16_compare(RH(o->n), RH(o->m), o->x, &c->fp)); return op_next(c, o); }
static Op *op_fcmpz_h(CPUState *c, Op *o) { cpu_set_nzcv(c, f16_compare(RH(o->n), 0, o->x, &c->fp)); return op_next(c, o); }

/* FCCMP/FCCMPE: x = cond | nzcv << 4 | signal << 8. */
static Op *op_fccmp_s(CPUState *c, Op *o)
{
    if (cpu_cond_holds(c, o->x & 15))
        cpu_set_nzcv(c, f32_compare(RS(o->n), RS(o->m), (o->x >> 8) & 1, &c->fp));
    else
        cpu_set_nzcv(c, ((o->x >> 4) & 15) << 28);
    return op_next(c, o);
}
static Op *op_fccmp_d(CPUState *c, Op *o)
{
    if (cpu_cond_holds(c, o->x & 15))
        cpu_set_nzcv(c, f64_compare(RD(o->n), RD(o->m), (o->x >> 8) & 1, &c->fp));
    else
        cpu_set_nzcv(c, ((o->x >> 4) & 15) << 28);
    return op_next(c, o);
}

static Op *op_fccmp_h(CPUState *c, Op *o)
{
    if (cpu_cond_holds(c, o->x & 15))
        cpu_set_nzcv(c, f16_compare(RH(o->n), RH(o->m), (o->x >> 8) & 1, &c->fp));
    else
        cpu_set_nzcv(c, ((o->x >> 4) & 15) << 28);
    return op_next(c, o);
}

/* FCSEL: x = cond. */
static Op *op_fcsel_s(CPUState *c, Op *o)
{
    wr_v64(c, o->d, cpu_cond_holds(c, o->x) ? RS(o->n) : RS(o->m));
    return op_next(c, o);
}
static Op *op_fcsel_d(CPUState *c, Op *o)
{
    wr_v64(c, o->d, cpu_cond_holds(c, o->x) ? RD(o->n) : RD(o->m));
    return op_next(c, o);
}

static Op *op_fcsel_h(CPUState *c, Op *o)
{
    wr_v64(c, o->d, cpu_cond_holds(c, o->x) ? RH(o->n) : RH(o->m));
    return op_next(c, o);
}

/* FMOV (immediate): imm = the expanded value. */
static Op *op_fmov_imm(CPUState *c, Op *o) { wr_v64(c, o->d, o->imm); return op_next(c, o); }

/* FMOV between general and FP registers. */
static Op *op_fmov_ws(CPUState *c, Op *o) { c->x[o->d] = RS(o->n); return op_next(c, o); }
static Op *op_fmov_sw(CPUState *c, Op *o) { wr_v64(c, o->d, (uint32_t)c->x[o->n]); return op_next(c, o); }
static Op *op_fmov_xd(CPUState *c, Op *o) { c->x[o->d] = RD(o->n); return op_next(c, o); }
static Op *op_fmov_dx(CPUState *c, Op *o) { wr_v64(c, o->d, c->x[o->n]); return op_next(c, o); }
static Op *op_fmov_wh(CPUState *c, Op *o) { c->x[o->d] = RH(o->n); return op_next(c, o); }
static Op *op_fmov_hw(CPUState *c, Op *o) { wr_v64(c, o->d, (uint16_t)c->x[o->n]); return op_next(c, o); }
static Op *op_fmov_xd1(CPUState *c, Op *o) { c->x[o->d] = c->v[o->n].d[1]; return op_next(c, o); }
static Op *op_fmov_d1x(CPUState *c, Op *o) { c->v[o->d].d[1] = c->x[o->n]; return op_next(c, o); }

/* FP -> integer / fixed point: x = rounding | unsigned << 3 | fbits << 8. */
#define CVT_X(o) ((int)((o)->x >> 8)), (((o)->x >> 3) & 1)
static Op *op_cvt_ws(CPUState *c, Op *o)
{
    c->x[o->d] = f32_to_fixed(RS(o->n), CVT_X(o), 32, (FPRounding)(o->x & 7), &c->fp);
    return op_next(c, o);
}
static Op *op_cvt_xs(CPUState *c, Op *o)
{
    c->x[o->d] = f32_to_fixed(RS(o->n), CVT_X(o), 64, (FPRounding)(o->x & 7), &c->fp);
    return op_next(c, o);
}
static Op *op_cvt_wd(CPUState *c, Op *o)
{
    c->x[o->d] = f64_to_fixed(RD(o->n), CVT_X(o), 32, (FPRounding)(o->x & 7), &c->fp);
    return op_next(c, o);
}
static Op *op_cvt_xd(CPUState *c, Op *o)
{
    c->x[o->d] = f64_to_fixed(RD(o->n), CVT_X(o), 64, (FPRounding)(o->x & 7), &c->fp);
    return op_next(c, o);
}

static Op *op_cvt_wh(CPUState *c, Op *o)
{
    c->x[o->d] = f16_to_fixed(RH(o->n), CVT_X(o), 32, (FPRounding)(o->x & 7), &c->fp);
    return op_next(c, o);
}
static Op *op_cvt_xh(CPUState *c, Op *o)
{
    c->x[o->d] = f16_to_fixed(RH(o->n), CVT_X(o), 64, (FPRounding)(o->x & 7), &c->fp);
    return op_next(c, o);
}

/* Integer / fixed point -> FP (FPCR rounding): x = fbits. */
#define CVTF(name, SRC, UNS, DST)                                                           \
    static Op *op_##name(CPUState *c, Op *o)                                                \
    {                                                                                       \
        uint64_t v = SRC;                                                                   \
        wr_v64(c, o->d, (uint##DST##_t)fixed_to_f##DST(v, (int)o->x, UNS, fp_rmode(&c->fp), &c->fp));      \
        return op_next(c, o);                                                                       \
    }
CVTF(scvtf_sw, (uint64_t)(int64_t)(int32_t)c->x[o->n], false, 32)
CVTF(scvtf_dw, (uint64_t)(int64_t)(int32_t)c->x[o->n], false, 64)
CVTF(scvtf_sx, c->x[o->n], false, 32)
CVTF(scvtf_dx, c->x[o->n], false, 64)
CVTF(ucvtf_sw, (uint32_t)c->x[o->n], true, 32)
CVTF(ucvtf_dw, (uint32_t)c->x[o->n], true, 64)
CVTF(ucvtf_sx, c->x[o->n], true, 32)
CVTF(ucvtf_dx, c->x[o->n], true, 64)
CVTF(scvtf_hw, (uint64_t)(int64_t)(int32_t)c->x[o->n], false, 16)
CVTF(scvtf_hx, c->x[o->n], false, 16)
CVTF(ucvtf_hw, (uint32_t)c->x[o->n], true, 16)
CVTF(ucvtf_hx, c->x[o->n], true, 16)

/* [unsigned][sf][tix] */
static const OpFn cvtf_fns[2][2][3] = {
    { { op_scvtf_sw, op_scvtf_dw, op_scvtf_hw }, { op_scvtf_sx, op_scvtf_dx, op_scvtf_hx } },
    { { op_ucvtf_sw, op_ucvtf_dw, op_ucvtf_hw }, { op_ucvtf_sx, op_ucvtf_dx, op_ucvtf_hx } },
};
/* [sf][tix] */
static const OpFn cvt_fns[2][3] = { { op_cvt_ws, op_cvt_wd, op_cvt_wh }, { op_cvt_xs, op_cvt_xd, op_cvt_xh } };

/* ---- translators --------------------------------------------------------------- */

/* The table index of an ftype: 00 single 0, 01 double 1, 11 half 2 (FEAT_FP16,
 * the max core only: UNDEFINED on the A57); -1 when unallocated. */
static inline int tix(int type)
{
    return type == 0 || type == 1 ? type : type == 3 && cpu_feat_fp16() ? 2 : -1;
}

static void emit_fp(DisasCtx *s, OpFn fn, int d, int n, int m, int a, uint32_t x)
{
    Op *o = tr_emit(s, fn);
    o->d = (uint8_t)d;
    o->n = (uint8_t)n;
    o->m = (uint8_t)m;
    o->a = (uint8_t)a;
    o->x = x;
}

bool trans_FP_DP2(DisasCtx *s, arg_FP_DP2 *a)
{
    int t = tix(a->type);
    if (t < 0 || a->opcode > 8)
        return false;
    emit_fp(s, dp2_fns[a->opcode][t], a->rd, a->rn, a->rm, 0, 0);
    return true;
}

bool trans_FP_DP3(DisasCtx *s, arg_FP_DP3 *a)
{
    int t = tix(a->type);
    if (t < 0)
        return false;
    emit_fp(s, dp3_fns[a->o1 * 2 + a->o0][t], a->rd, a->rn, a->rm, a->ra, 0);
    return true;
}

bool trans_FP_DP1(DisasCtx *s, arg_FP_DP1 *a)
{
    int op = a->opcode;
    if (op >= 4 && op <= 7) { /* FCVT: type = source, opc = destination */
        static const OpFn cvt[4][4] = {
            [0] = { [1] = op_fcvt_sd, [3] = op_fcvt_sh },
            [1] = { [0] = op_fcvt_ds, [3] = op_fcvt_dh },
            [3] = { [0] = op_fcvt_hs, [1] = op_fcvt_hd },
        };
        OpFn fn = cvt[a->type][op & 3];
        if (!fn)
            return false;
        emit_fp(s, fn, a->rd, a->rn, 0, 0, 0);
        return true;
    }
    int t = tix(a->type);
    if (t < 0)
        return false;
    if (op < 4) {
        emit_fp(s, dp1_fns[op][t], a->rd, a->rn, 0, 0, 0);
        return true;
    }
    if (op >= 8 && op <= 15) { /* FRINT*: opcode<2:0> = rmode */
        static const OpFn fixed[3] = { op_frint_s, op_frint_d, op_frint_h };
        static const OpFn dyn[3] = { op_frintdyn_s, op_frintdyn_d, op_frintdyn_h };
        static const int8_t mode[8] = { FPR_TIEEVEN, FPR_POSINF, FPR_NEGINF, FPR_ZERO, FPR_TIEAWAY, -1, -1, -1 };
        int r = op & 7;
        if (r == 5)
            return false;
        if (r >= 6)
            emit_fp(s, dyn[t], a->rd, a->rn, 0, 0, r == 6); /* FRINTX exact, FRINTI not */
        else
            emit_fp(s, fixed[t], a->rd, a->rn, 0, 0, (uint32_t)mode[r]);
        return true;
    }
    return false;
}

bool trans_FP_CMP(DisasCtx *s, arg_FP_CMP *a)
{
    int t = tix(a->type);
    if (t < 0 || a->op != 0 || (a->opc2 & 7) != 0)
        return false;
    static const OpFn reg[3] = { op_fcmp_s, op_fcmp_d, op_fcmp_h }, zero[3] = { op_fcmpz_s, op_fcmpz_d, op_fcmpz_h };
    bool z = (a->opc2 >> 3) & 1, signal = (a->opc2 >> 4) & 1;
    emit_fp(s, z ? zero[t] : reg[t], 0, a->rn, z ? 0 : a->rm, 0, signal);
    return true;
}

bool trans_FP_CCMP(DisasCtx *s, arg_FP_CCMP *a)
{
    int t = tix(a->type);
    if (t < 0)
        return false;
    static const OpFn fns[3] = { op_fccmp_s, op_fccmp_d, op_fccmp_h };
    emit_fp(s, fns[t], 0, a->rn, a->rm, 0,
            (uint32_t)a->cond | ((uint32_t)a->nzcv << 4) | ((uint32_t)a->op << 8));
    return true;
}

bool trans_FP_CSEL(DisasCtx *s, arg_FP_CSEL *a)
{
    int t = tix(a->type);
    if (t < 0)
        return false;
    static const OpFn fns[3] = { op_fcsel_s, op_fcsel_d, op_fcsel_h };
    emit_fp(s, fns[t], a->rd, a->rn, a->rm, 0, (uint32_t)a->cond);
    return true;
}

/* VFPExpandImm */
static uint64_t vfp_expand_imm(int imm8, int E, int F)
{
    uint64_t sign = (imm8 >> 7) & 1, b6 = (imm8 >> 6) & 1;
    uint64_t exp = ((b6 ^ 1) << (E - 1)) | ((b6 ? (1ull << (E - 3)) - 1 : 0) << 2) | ((imm8 >> 4) & 3);
    uint64_t frac = (uint64_t)(imm8 & 15) << (F - 4);
    return (sign << (E + F)) | (exp << F) | frac;
}

bool trans_FP_IMM(DisasCtx *s, arg_FP_IMM *a)
{
    int t = tix(a->type);
    if (t < 0 || a->imm5 != 0)
        return false;
    static const int8_t ef[3][2] = { { 8, 23 }, { 11, 52 }, { 5, 10 } };
    Op *o = tr_emit(s, op_fmov_imm);
    o->d = (uint8_t)a->rd;
    o->imm = vfp_expand_imm(a->imm8, ef[t][0], ef[t][1]);
    return true;
}

bool trans_FP_FIXED(DisasCtx *s, arg_FP_FIXED *a)
{
    int t = tix(a->type);
    if (t < 0 || (!a->sf && a->scale < 32))
        return false;
    uint32_t fbits = 64 - (uint32_t)a->scale;
    switch (a->rmode << 3 | a->opcode) {
    case 2: case 3: /* SCVTF, UCVTF */
        emit_fp(s, cvtf_fns[a->opcode & 1][a->sf][t], a->rd, xzr_src(a->rn), 0, 0, fbits);
        return true;
    case 0x18: case 0x19: /* FCVTZS, FCVTZU */
        emit_fp(s, cvt_fns[a->sf][t], xzr_dst(a->rd), a->rn, 0, 0,
                FPR_ZERO | ((uint32_t)(a->opcode & 1) << 3) | (fbits << 8));
        return true;
    }
    return false;
}

bool trans_FP_INT(DisasCtx *s, arg_FP_INT *a)
{
    int op = a->opcode;
    if (op >= 6) { /* FMOV general <-> FP */
        bool to_fp = op & 1;
        OpFn fn;
        if (!a->sf && a->type == 0 && a->rmode == 0)
            fn = to_fp ? op_fmov_sw : op_fmov_ws;
        else if (a->sf && a->type == 1 && a->rmode == 0)
            fn = to_fp ? op_fmov_dx : op_fmov_xd;
        else if (a->sf && a->type == 2 && a->rmode == 1)
            fn = to_fp ? op_fmov_d1x : op_fmov_xd1;
        else if (a->type == 3 && a->rmode == 0 && cpu_feat_fp16()) /* Hd <-> Wn/Xn */
            fn = to_fp ? op_fmov_hw : op_fmov_wh;
        else
            return false;
        if (to_fp)
            emit_fp(s, fn, a->rd, xzr_src(a->rn), 0, 0, 0);
        else
            emit_fp(s, fn, xzr_dst(a->rd), a->rn, 0, 0, 0);
        return true;
    }
    int t = tix(a->type);
    if (t < 0)
        return false;
    if (op >= 2 && a->rmode != 0)
        return false;
    if (op == 2 || op == 3) { /* SCVTF, UCVTF */
        emit_fp(s, cvtf_fns[op & 1][a->sf][t], a->rd, xzr_src(a->rn), 0, 0, 0);
        return true;
    }
    /* FCVT{N,P,M,Z}{S,U} (rmode selects), FCVTA{S,U} */
    static const uint8_t rm[4] = { FPR_TIEEVEN, FPR_POSINF, FPR_NEGINF, FPR_ZERO };
    uint32_t r = op >= 4 ? FPR_TIEAWAY : rm[a->rmode];
    emit_fp(s, cvt_fns[a->sf][t], xzr_dst(a->rd), a->rn, 0, 0, r | ((uint32_t)(op & 1) << 3));
    return true;
}

/* ---- description for the native back end (native.h, native_fp.c) ------------------------- */
#if MALIBU_HAVE_NATIVE
#define ND(...) ((NativeDesc){ __VA_ARGS__ })
static void describe_fp_handlers(void)
{
    static const struct { OpFn fn; uint8_t op; } fmov_gen[] = {
        { op_fmov_xd, NFM_XD }, { op_fmov_dx, NFM_DX }, { op_fmov_ws, NFM_WS }, { op_fmov_sw, NFM_SW },
        { op_fmov_xd1, NFM_XD1 }, { op_fmov_d1x, NFM_D1X }, { op_fmov_wh, NFM_WH }, { op_fmov_hw, NFM_HW },
    };
    for (unsigned i = 0; i < sizeof fmov_gen / sizeof fmov_gen[0]; i++)
        native_bind(fmov_gen[i].fn, ND(.kind = NK_FMOV_GEN, .op = fmov_gen[i].op));
    native_bind(op_fmov_imm, ND(.kind = NK_FP_UN, .op = NFU_IMM));
    static const uint8_t sse_op[4] = { 0x59, 0x5E, 0x58, 0x5C }; /* dp2_fns: mul div add sub */
    for (int t = 0; t < 2; t++) { /* [single, double] */
        uint8_t size = (uint8_t)(2 + t);
        for (int op = 0; op < 3; op++) /* dp1_fns: FMOV FABS FNEG */
            native_bind(dp1_fns[op][t], ND(.kind = NK_FP_UN, .op = (uint8_t)op, .size = size));
        for (int op = 0; op < 4; op++)
            native_bind(dp2_fns[op][t], ND(.kind = NK_FP_BIN, .op = sse_op[op], .size = size));
        native_bind(t ? op_fcmp_d : op_fcmp_s, ND(.kind = NK_FCMP, .size = size));
        native_bind(t ? op_fcmpz_d : op_fcmpz_s, ND(.kind = NK_FCMP, .size = size, .sub = 1));
        for (int uns = 0; uns < 2; uns++)
            for (int sf = 0; sf < 2; sf++)
                native_bind(cvtf_fns[uns][sf][t],
                            ND(.kind = NK_CVTF, .sf = (uint8_t)sf, .sext = (uint8_t)!uns, .size = size));
    }
}
NATIVE_DESCRIBER(describe_fp_handlers)
#endif
