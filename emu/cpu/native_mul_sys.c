/* Native back end: x86-64 code for the long multiplies (SMADDL/SMSUBL/UMADDL/UMSUBL,
 * SMULH/UMULH) and for system-register moves that are plain CPUState fields (TPIDR_EL0 and
 * the like; in system mode SP_EL0 and the EL0-table bracket around LDTR/STTR at EL1).  Same
 * rules as native_ops.c: exactly what the portable handler computes. */
#include "native_emit.h"

#if MALIBU_HAVE_NATIVE
#ifdef CONFIG_SYSTEM
#include "sys_cpu.h"
#endif

/* One-operand multiply of rax by r into rdx:rax (signed: imul, else mul). */
static void x_mul_wide(Asm *a, bool is_signed, int r)
{
    x_rex(a, W64, 0, 0, r, false);
    x_b(a, 0xF7);
    x_b(a, (uint8_t)((is_signed ? 0xE8 : 0xE0) | (r & 7)));
}

unsigned ne_emit_mull(NCtx *x, const Op *o, const NativeDesc *d)
{
    Asm *a = &x->a;
    bool is_signed = d->sext != 0;
    if (d->op == NMUL_HIGH) { /* SMULH / UMULH: high half of the 128-bit product */
        rc_read(x, X_RAX, o->n, W64);
        rc_read(x, X_RCX, o->m, W64);
        x_mul_wide(a, is_signed, X_RCX);
        rc_write(x, o->d, X_RDX);
        return 1;
    }
    /* 32 x 32 -> 64: the extended operands' 64-bit product is exact.  Each operand is extended
     * from its cache register as soon as it is there (the next one's load may evict it). */
    int r = rc_src(x, o->n, X_RAX);
    if (is_signed)
        x_movsx_rr(a, W64, X_RAX, r, 2);
    else
        x_mov_rr(a, W32, X_RAX, r);
    r = rc_src(x, o->m, X_RCX);
    if (is_signed)
        x_movsx_rr(a, W64, X_RCX, r, 2);
    else
        x_mov_rr(a, W32, X_RCX, r);
    x_imul_rr(a, W64, X_RAX, X_RCX);
    if (o->a == REG_ZR && d->op != NMUL_SUB) { /* SMULL / UMULL */
        rc_write(x, o->d, X_RAX);
    } else if (d->op == NMUL_SUB) {
        r = rc_src(x, o->a, X_RCX);
        if (r != X_RCX)
            x_mov_rr(a, W64, X_RCX, r);
        x_alu_rr(a, W64, ALU_SUB, X_RCX, X_RAX);
        rc_write(x, o->d, X_RCX);
    } else {
        x_alu_rr(a, W64, ALU_ADD, X_RAX, rc_src(x, o->a, X_RCX));
        rc_write(x, o->d, X_RAX);
    }
    return 1;
}

/* Offset in CPUState of the 64-bit field a NK_CPU_FIELD op moves. */
static int32_t field_offset(const Op *o, const NativeDesc *d)
{
    switch (d->sub) {
    case NCF_IMM: return (int32_t)o->imm; /* the handler's op carries the offset */
    case NCF_TPIDR_EL0: return CPU_OFF(tpidr_el0);
    case NCF_TPIDRRO_EL0: return CPU_OFF(tpidrro_el0);
    default: return -1;
    }
}

unsigned ne_emit_cpu_field(NCtx *x, const Op *o, const NativeDesc *d)
{
    Asm *a = &x->a;
#ifdef CONFIG_SYSTEM
    if (d->sub == NCF_SP_EL0) { /* banked copy while SPSel = 1, else the live SP */
        const int32_t sp_el0 = (int32_t)offsetof(SysCPU, sp_el0), spsel = (int32_t)offsetof(SysCPU, spsel);
        if (d->op == 0) { /* MRS */
            rc_read(x, X_RAX, REG_SP, W64);
            x_load(a, W64, X_RCX, HR_CPU, sp_el0);
            x_alu_mi(a, W32, ALU_CMP, HR_CPU, spsel, 0);
            x_cmov(a, W64, CC_NE, X_RAX, X_RCX);
            rc_write(x, o->d, X_RAX);
        } else { /* MSR: the value goes to one of the two, the other keeps its own */
            rc_read(x, X_RDX, o->n, W64);
            rc_read(x, X_RAX, REG_SP, W64);
            x_load(a, W64, X_RCX, HR_CPU, sp_el0);
            x_alu_mi(a, W32, ALU_CMP, HR_CPU, spsel, 0);
            x_cmov(a, W64, CC_NE, X_RCX, X_RDX);
            x_cmov(a, W64, CC_E, X_RAX, X_RDX);
            x_store(a, W64, HR_CPU, sp_el0, X_RCX);
            rc_write(x, REG_SP, X_RAX);
        }
        return 1;
    }
    if (d->sub == NCF_UNPRIV) { /* LDTR/STTR at EL1: the EL0 soft TLB from op 0 (begin) to op 1 */
        x_mov_imm(a, X_RAX, d->op == 0);
        x_stx(a, 0, X_RAX, HR_CPU, X_NONE, (int32_t)offsetof(SysCPU, unpriv));
        /* begin: sys_unpriv_begin; end: what sys_update_mode sets at EL1 (the block runs at
         * EL1 only, and nothing between the two ops changes the rest of the mode) */
        x_lea(a, W64, X_RAX, HR_CPU, X_NONE,
              (int32_t)(offsetof(SysCPU, tlbs) + (d->op == 0 ? 0 : sizeof(((SysCPU *)0)->tlbs[0]))));
        x_store(a, W64, HR_CPU, (int32_t)offsetof(SysCPU, tlb), X_RAX);
        return 1;
    }
#endif
    int32_t off = field_offset(o, d);
    if (off < 0 || (uint64_t)off + 8 > 0x7fffffff)
        return 0;
    if (d->op == 0) {
        x_load(a, W64, X_RAX, HR_CPU, off);
        rc_write(x, o->d, X_RAX);
    } else {
        rc_read(x, X_RAX, o->n, W64);
        x_store(a, W64, HR_CPU, off, X_RAX);
    }
    return 1;
}

#endif /* MALIBU_HAVE_NATIVE */
