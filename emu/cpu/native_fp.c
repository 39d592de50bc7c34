/* Native back end: x86-64 code for scalar FP moves, compares, arithmetic and integer -> FP
 * conversions (S and D; half precision stays portable).  FP values stay in CPUState's V
 * registers; a write of an S/D register zeroes the rest of it, as the portable handlers do.
 *
 * Arithmetic, compares and conversions are exact only where the host's IEEE result is the
 * Arm result with no FPSR change; elsewhere the portable handler runs out of line
 * (ne_slow_path), with the same conditions as fpu.h's host fast paths:
 * - FADD/FSUB/FMUL/FDIV: FPCR.RMode = RN and FZ = 0 (so denormal inputs are plain IEEE
 *   operands), FPSR.IXC already set (an inexact result changes no flag), and a result that
 *   is finite, above the minimum normal magnitude (no underflow, however tininess is
 *   detected; an infinite or NaN input gives an infinite or NaN result, a zero or a tiny
 *   one) or, for FADD/FSUB, exactly zero (a zero sum of finite operands is exact);
 * - FCMP/FCMPE: ordered operands and FPCR.FZ = 0 (NaNs set IOC, FZ flushes and sets IDC);
 * - SCVTF/UCVTF: exact conversions (the value converts back to itself), so no rounding. */
#include "native_simd.h"

#if MALIBU_HAVE_NATIVE

#define FPCR_OFF CPU_OFF(fp.fpcr)
#define FPSR_OFF CPU_OFF(fp.fpsr)

/* prefix 0F op xmm, [rbx + disp] */
static void sse_m(Asm *a, uint8_t prefix, uint8_t op, int xmm, int32_t disp)
{
    x_b(a, prefix);
    x_op_mem(a, 0, 0x0F, op, xmm, HR_CPU, X_NONE, disp, false);
}

/* prefix 0F op reg, rm (register forms; w = REX.W for the general-register operand) */
static void sse_r(Asm *a, uint8_t prefix, int w, uint8_t op, int reg, int rm)
{
    x_b(a, prefix);
    x_op_rr(a, w, 0x0F, op, reg, rm);
}

/* test dword/byte [rbx + off], mask */
static void test_mem32(Asm *a, int32_t off, uint32_t mask)
{
    x_op_mem(a, 0, 0xF7, -1, 0, HR_CPU, X_NONE, off, false);
    x_d32(a, mask);
}

/* Room for this op's slow paths (each is a stub after the block). */
static bool slow_room(NCtx *x, unsigned n)
{
    return x->n_slow + n <= sizeof x->slow / sizeof x->slow[0];
}

static unsigned emit_fmov_gen(NCtx *x, const Op *o, const NativeDesc *d)
{
    Asm *a = &x->a;
    switch (d->op) {
    case NFM_XD:
    case NFM_WS:
    case NFM_XD1:
        x_load(a, d->op == NFM_WS ? W32 : W64, X_RAX, HR_CPU, voff(o->n) + (d->op == NFM_XD1 ? 8 : 0));
        rc_write(x, o->d, X_RAX);
        return 1;
    case NFM_WH:
        x_ldx(a, 1, false, 0, X_RAX, HR_CPU, X_NONE, voff(o->n));
        rc_write(x, o->d, X_RAX);
        return 1;
    case NFM_DX:
    case NFM_SW:
    case NFM_HW:
        rc_read(x, X_RAX, o->n, d->op == NFM_DX ? W64 : W32);
        if (d->op == NFM_HW)
            x_movzx_rr(a, X_RAX, X_RAX, 1);
        vstore_gpr64(x, o->d, X_RAX);
        return 1;
    case NFM_D1X: /* the upper half only; the lower stays */
        rc_read(x, X_RAX, o->n, W64);
        if (!vinsert_gpr(x, o->d, 3, 1, X_RAX))
            x_store(a, W64, HR_CPU, voff(o->d) + 8, X_RAX);
        return 1;
    default:
        return 0;
    }
}

static unsigned emit_fp_un(NCtx *x, const Op *o, const NativeDesc *d)
{
    Asm *a = &x->a;
    if (d->op == NFU_IMM) {
        x_mov_imm(a, X_RAX, o->imm);
        vstore_gpr64(x, o->d, X_RAX);
        return 1;
    }
    bool dbl = d->size == 3;
    x_load(a, dbl ? W64 : W32, X_RAX, HR_CPU, voff(o->n));
    if (d->op == NFU_ABS) {
        if (dbl) {
            x_shift_ri(a, W64, SH_SHL, X_RAX, 1);
            x_shift_ri(a, W64, SH_SHR, X_RAX, 1);
        } else {
            x_alu_ri(a, W32, ALU_AND, X_RAX, 0x7fffffff);
        }
    } else if (d->op == NFU_NEG) {
        if (dbl) {
            x_mov_imm(a, X_RCX, 1ull << 63);
            x_alu_rr(a, W64, ALU_XOR, X_RAX, X_RCX);
        } else {
            x_alu_ri(a, W32, ALU_XOR, X_RAX, INT32_MIN);
        }
    }
    vstore_gpr64(x, o->d, X_RAX);
    return 1;
}

static unsigned emit_fp_bin(NCtx *x, const Op *o, const NativeDesc *d)
{
    Asm *a = &x->a;
    bool dbl = d->size == 3, sum = d->op == 0x58 || d->op == 0x5C;
    if (!slow_room(x, 2))
        return 0;
    /* FPCR.RMode = RN, FZ = 0 and FPSR.IXC set */
    x_load(a, W64, X_RAX, HR_CPU, FPCR_OFF); /* fpsr:fpcr */
    x_mov_imm(a, X_RCX, (uint64_t)FPSR_IXC << 32 | FPCR_RMODE_MASK | FPCR_FZ);
    x_alu_rr(a, W64, ALU_AND, X_RAX, X_RCX);
    x_mov_imm(a, X_RCX, (uint64_t)FPSR_IXC << 32);
    x_alu_rr(a, W64, ALU_CMP, X_RAX, X_RCX);
    uint8_t *env = x_jcc(a, CC_NE);
    if (dbl)
        x_movq_xm(a, 0, HR_CPU, X_NONE, voff(o->n));
    else
        x_movd_xm(a, 0, HR_CPU, X_NONE, voff(o->n));
    sse_m(a, dbl ? 0xF2 : 0xF3, d->op, 0, voff(o->m));
    sse_r(a, 0x66, dbl ? W64 : W32, 0x7E, 0, X_RAX); /* movq rax, xmm0 / movd eax, xmm0 */
    /* |r| << 1 (the sign shifted out): zero, or within (min normal, infinity) */
    int w = dbl ? W64 : W32;
    x_mov_rr(a, w, X_RCX, X_RAX);
    x_alu_rr(a, w, ALU_ADD, X_RCX, X_RCX);
    uint8_t *zero = sum ? x_jcc(a, CC_E) : NULL;
    if (dbl) {
        x_mov_imm(a, X_RDX, -(0x0010000000000001ull << 1));
        x_alu_rr(a, W64, ALU_ADD, X_RCX, X_RDX);
        x_mov_imm(a, X_RDX, (0x7ff0000000000000ull - 0x0010000000000001ull) << 1);
        x_alu_rr(a, W64, ALU_CMP, X_RCX, X_RDX);
    } else {
        x_alu_ri(a, W32, ALU_SUB, X_RCX, 0x00800001 << 1);
        x_alu_ri(a, W32, ALU_CMP, X_RCX, (int32_t)((0x7f800000u - 0x00800001u) << 1));
    }
    uint8_t *range = x_jcc(a, CC_AE);
    if (zero)
        x_patch(zero, a->p);
    x_movdqu_mx(a, HR_CPU, X_NONE, voff(o->d), 0); /* the rest of xmm0 is zero */
    ne_slow_path(x, env, a->p);
    ne_slow_path(x, range, a->p);
    return 1;
}

static unsigned emit_fcmp(NCtx *x, const Op *o, const NativeDesc *d)
{
    Asm *a = &x->a;
    bool dbl = d->size == 3;
    if (!slow_room(x, 2))
        return 0;
    test_mem32(a, FPCR_OFF, FPCR_FZ);
    uint8_t *fz = x_jcc(a, CC_NE);
    if (dbl)
        x_movq_xm(a, 0, HR_CPU, X_NONE, voff(o->n));
    else
        x_movd_xm(a, 0, HR_CPU, X_NONE, voff(o->n));
    if (d->sub) { /* with +0.0 */
        sse_r(a, 0x66, W32, 0xEF, 1, 1); /* pxor xmm1, xmm1 */
        if (dbl)
            x_b(a, 0x66);
        x_op_rr(a, W32, 0x0F, 0x2E, 0, 1); /* ucomisd/ucomiss xmm0, xmm1 */
    } else if (dbl) {
        sse_m(a, 0x66, 0x2E, 0, voff(o->m));
    } else {
        x_op_mem(a, 0, 0x0F, 0x2E, 0, HR_CPU, X_NONE, voff(o->m), false);
    }
    uint8_t *unordered = x_jcc(a, CC_P);
    /* ordered: CF = less, ZF = equal, OF = 0; Arm N = less, Z = equal, C = !less, V = 0 */
    x_setcc_m(a, CC_B, HR_CPU, CPU_OFF(nf));
    x_setcc_m(a, CC_E, HR_CPU, CPU_OFF(zf));
    x_setcc_m(a, CC_AE, HR_CPU, CPU_OFF(cf));
    x_setcc_m(a, CC_O, HR_CPU, CPU_OFF(vf));
    ne_slow_path(x, fz, a->p);
    ne_slow_path(x, unordered, a->p);
    return 1;
}

static unsigned emit_cvtf(NCtx *x, const Op *o, const NativeDesc *d)
{
    Asm *a = &x->a;
    bool dbl = d->size == 3;
    if (o->x) /* fixed point: fbits */
        return 0;
    if (!slow_room(x, 2))
        return 0;
    rc_read(x, X_RAX, o->n, d->sf ? W64 : W32);
    if (!d->sf && d->sext)
        x_movsx_rr(a, W64, X_RAX, X_RAX, 2);
    /* every 32-bit integer is a double: no check; else convert back and compare */
    bool check = d->sf || !dbl;
    uint8_t *neg = NULL, *inexact = NULL;
    if (check)
        rc_spill(x); /* the slow path's handler reads Rn from CPUState */
    if (d->sf && !d->sext) { /* UCVTF from X: the signed conversion covers < 2^63 */
        x_test_rr(a, W64, X_RAX, X_RAX);
        neg = x_jcc(a, CC_S);
    }
    sse_r(a, 0x66, W32, 0xEF, 0, 0);                     /* pxor xmm0, xmm0 */
    sse_r(a, dbl ? 0xF2 : 0xF3, W64, 0x2A, 0, X_RAX);     /* cvtsi2sd/ss xmm0, rax */
    if (check) {
        sse_r(a, dbl ? 0xF2 : 0xF3, W64, 0x2C, X_RCX, 0); /* cvttsd2si/ss rcx, xmm0 */
        x_alu_rr(a, W64, ALU_CMP, X_RCX, X_RAX);
        inexact = x_jcc(a, CC_NE);
    }
    x_movdqu_mx(a, HR_CPU, X_NONE, voff(o->d), 0);
    if (neg)
        ne_slow_path(x, neg, a->p);
    if (inexact)
        ne_slow_path(x, inexact, a->p);
    return 1;
}

unsigned ne_emit_fp(NCtx *x, const Op *o, const NativeDesc *d)
{
    switch (d->kind) {
    case NK_FMOV_GEN: return emit_fmov_gen(x, o, d);
    case NK_FP_UN: return emit_fp_un(x, o, d);
    case NK_FP_BIN: return emit_fp_bin(x, o, d);
    case NK_FCMP: return emit_fcmp(x, o, d);
    case NK_CVTF: return emit_cvtf(x, o, d);
    default: return 0;
    }
}

#endif /* MALIBU_HAVE_NATIVE */
