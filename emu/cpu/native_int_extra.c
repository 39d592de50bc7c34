/* Native back end: x86-64 code for the integer operations beyond native_ops.c's: UDIV/SDIV
 * (NK_DIV), ADC/ADCS/SBC/SBCS and so NGC/NGCS (NK_ADC), REV16, REV32 of an X register and
 * CLS (NK_DP1).  Same rules as native_ops.c: exactly what the portable handler computes. */
#include "native_emit.h"

#if MALIBU_HAVE_NATIVE

/* F7 /digit r: div (6) and idiv (7) of rdx:rax by r. */
static void x_div(Asm *a, int w, bool is_signed, int r)
{
    x_rex(a, w, 0, 0, r, false);
    x_b(a, 0xF7);
    x_b(a, (uint8_t)((is_signed ? 0xF8 : 0xF0) | (r & 7)));
}

/* Arm division never traps: x / 0 = 0 and INT_MIN / -1 = INT_MIN (the negation's wrap), so
 * both are branched around the host divide, which would raise #DE. */
static unsigned emit_div(NCtx *x, const Op *o, const NativeDesc *d)
{
    Asm *a = &x->a;
    int w = d->sf ? W64 : W32;
    rc_read(x, X_RAX, o->n, w); /* operands first: no cache changes inside the paths */
    rc_read(x, X_RCX, o->m, w);
    x_test_rr(a, w, X_RCX, X_RCX);
    uint8_t *zero = x_jcc(a, CC_E);
    uint8_t *minus1 = NULL;
    if (d->sext) {
        x_alu_ri(a, w, ALU_CMP, X_RCX, -1);
        minus1 = x_jcc(a, CC_E);
        if (w == W64)
            x_b(a, 0x48);
        x_b(a, 0x99); /* cqo / cdq */
    } else {
        x_alu_rr(a, W32, ALU_XOR, X_RDX, X_RDX);
    }
    x_div(a, w, d->sext != 0, X_RCX);
    uint8_t *done = x_jmp(a), *done2 = NULL;
    if (minus1) {
        x_patch(minus1, a->p);
        x_neg(a, w, X_RAX);
        done2 = x_jmp(a);
    }
    x_patch(zero, a->p);
    x_alu_rr(a, W32, ALU_XOR, X_RAX, X_RAX);
    x_patch(done, a->p);
    if (done2)
        x_patch(done2, a->p);
    rc_write(x, o->d, X_RAX); /* W32 forms wrote eax: zero-extended */
    return 1;
}

/* Rn + Rm + C (ADC) or Rn + ~Rm + C = Rn - Rm - !C (SBC, x86 sbb with CF = !C). */
static unsigned emit_adc(NCtx *x, const Op *o, const NativeDesc *d)
{
    Asm *a = &x->a;
    int w = d->sf ? W64 : W32;
    int live = ne_adc_live_carry(x);
    rc_read_flags_kept(x, X_RAX, o->n, w); /* movs: EFLAGS stay */
    rc_read_flags_kept(x, X_RCX, o->m, w);
    if (live == FL_LOGIC) {                  /* C = 0: adc adds 0, sbb subtracts 1 */
        x_b(a, d->op ? 0xf9 : 0xf8);          /* stc / clc */
    } else if (live >= 0) {
        /* x86 CF is C after an add, NOT C after a sub; adc wants C, sbb NOT C */
        if ((live == FL_SUB) != (d->op != 0))
            x_b(a, 0xf5); /* cmc */
    } else {
        x_load_byte(a, X_RDX, HR_CPU, CPU_OFF(cf));
        if (d->op)
            x_alu_ri(a, W32, ALU_CMP, X_RDX, 1);  /* CF = (C == 0) */
        else
            x_alu_ri(a, W32, ALU_ADD, X_RDX, -1); /* CF = (C != 0) */
    }
    x_alu_rr(a, w, d->op ? ALU_SBB : ALU_ADC, X_RAX, X_RCX);
    rc_write(x, o->d, X_RAX); /* a mov: EFLAGS stay the adc's */
    if (d->setf)
        ne_store_flags(x, d->op ? FL_SUB : FL_ADD);
    return 1;
}

static unsigned emit_dp1(NCtx *x, const Op *o, const NativeDesc *d)
{
    Asm *a = &x->a;
    int w = d->sf ? W64 : W32;
    rc_read(x, X_RAX, o->n, w);
    switch (d->op) {
    case NDP1_REV16:
        if (w == W32) { /* bytes 3210 -> 0123 -> 2301 */
            x_bswap(a, W32, X_RAX);
            x_shift_ri(a, W32, SH_ROR, X_RAX, 16);
        } else {
            x_mov_imm(a, X_RDX, 0x00ff00ff00ff00ffull);
            x_mov_rr(a, W64, X_RCX, X_RAX);
            x_shift_ri(a, W64, SH_SHR, X_RCX, 8);
            x_alu_rr(a, W64, ALU_AND, X_RCX, X_RDX);
            x_alu_rr(a, W64, ALU_AND, X_RAX, X_RDX);
            x_shift_ri(a, W64, SH_SHL, X_RAX, 8);
            x_alu_rr(a, W64, ALU_OR, X_RAX, X_RCX);
        }
        break;
    case NDP1_REV32: /* each word byte-reversed: reverse all, then swap the words */
        x_bswap(a, W64, X_RAX);
        x_shift_ri(a, W64, SH_ROR, X_RAX, 32);
        break;
    case NDP1_CLS: /* clz(v ^ (v >> sign)) - 1 = (width - 2) - bsr, width - 1 for zero */
        x_mov_rr(a, W64, X_RCX, X_RAX);
        x_shift_ri(a, w, SH_SAR, X_RCX, w == W64 ? 63 : 31);
        x_alu_rr(a, w, ALU_XOR, X_RAX, X_RCX);
        x_mov_imm(a, X_RCX, ~0ull);
        x_bsr(a, w, X_RAX, X_RAX);
        x_cmov(a, W64, CC_E, X_RAX, X_RCX); /* zero source: bsr = -1 */
        x_neg(a, W64, X_RAX);
        x_alu_ri(a, W64, ALU_ADD, X_RAX, w == W64 ? 62 : 30);
        break;
    default:
        return 0;
    }
    rc_write(x, o->d, X_RAX);
    return 1;
}

unsigned ne_emit_int_extra(NCtx *x, const Op *o, const NativeDesc *d)
{
    switch (d->kind) {
    case NK_DIV: return emit_div(x, o, d);
    case NK_ADC: return emit_adc(x, o, d);
    case NK_DP1: return emit_dp1(x, o, d);
    default: return 0;
    }
}

#endif /* MALIBU_HAVE_NATIVE */
