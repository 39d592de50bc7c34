/* Native back end: LSE atomics in user mode (NK_ATOMIC): LDADD and SWP as lock xadd / xchg,
 * CAS as lock cmpxchg, LDCLR/LDEOR/LDSET as a lock cmpxchg loop, every size, on the guest's
 * memory at guest_base + address, as tr_atomic.c's handlers do with __atomic builtins (x86
 * locked instructions are full barriers: at least the guest's acquire / release ordering).
 * A misaligned address (no FEAT_LSE2) calls the portable handler, which raises the alignment
 * fault; a host fault on the access raises the data abort through the fault-site table, as
 * for plain stores (lock cmpxchg writes even when the compare fails, so a read-only page
 * faults as the handler's write probe does).  Results go to CPUState (rc_write_mem), so the
 * out-of-line handler call and the inline code leave the register cache alike.  System mode
 * keeps the portable handlers (the soft-TLB write probe lives in native_ops.c). */
#include "native_emit.h"

#if MALIBU_HAVE_NATIVE

#ifndef CONFIG_SYSTEM
/* [lock] op [r12 + rcx/rax], reg for access size 2^size (byte forms are opcode - 1). */
static void locked(Asm *a, bool lock, int op1, int op2, unsigned size, int reg, int index)
{
    if (lock)
        x_b(a, 0xF0);
    if (size == 1)
        x_b(a, 0x66);
    if (op2 >= 0)
        op2 -= size == 0;
    else
        op1 -= size == 0;
    x_op_mem(a, size == 3 ? W64 : W32, op1, op2, reg, HR_GUEST_BASE, index, 0, size == 0);
}

/* r zero-extended from 2^size bytes (a 64-bit result is left alone). */
static void zext(Asm *a, unsigned size, int r)
{
    if (size < 2)
        x_movzx_rr(a, r, r, (int)size);
    else if (size == 2)
        x_mov_rr(a, W32, r, r);
}
#endif

unsigned ne_emit_atomic(NCtx *x, const Op *o, const NativeDesc *d)
{
#ifdef CONFIG_SYSTEM
    (void)x, (void)o, (void)d;
    return 0;
#else
    Asm *a = &x->a;
    unsigned size = d->size;
    bool loop = d->op == NAT_CLR || d->op == NAT_EOR || d->op == NAT_SET;
    if (x->n_slow >= sizeof x->slow / sizeof x->slow[0] || (loop && o->m == REG_ZR) ||
        (d->op == NAT_CAS && o->m == REG_ZR))
        return 0;
    /* Operands into the cache (or rdx for XZR) before the checks: no cache change after. */
    int rn = rc_src(x, o->n, X_RAX);
    if (rn != X_RAX)
        x_mov_rr(a, W64, X_RAX, rn);
    int src = d->op == NAT_CAS ? rc_src(x, o->d, X_RDX) : rc_src(x, o->m, X_RDX);
    int cmp = d->op == NAT_CAS ? rc_src(x, o->m, X_RCX) : -1;
    rc_spill(x); /* the misaligned path's handler reads CPUState */
    uint8_t *misaligned = NULL;
    if (size) {
        x_b(a, 0xA8); /* test al, size - 1 */
        x_b(a, (uint8_t)((1u << size) - 1));
        misaligned = x_jcc(a, CC_NE);
    }
    int site = ne_guest_access(x, true);
    switch (d->op) {
    case NAT_ADD:
    case NAT_SWP:
        if (src != X_RDX)
            x_mov_rr(a, W64, X_RDX, src);
        ne_fault_point(x, site);
        if (d->op == NAT_ADD)
            locked(a, true, 0x0F, 0xC1, size, X_RDX, X_RAX); /* lock xadd */
        else
            locked(a, false, 0x87, -1, size, X_RDX, X_RAX);  /* xchg (locked by itself) */
        zext(a, size, X_RDX);
        rc_write_mem(x, o->d, X_RDX);
        break;
    case NAT_CAS: /* rax = Rs (compare), rdx = Rt (new); old value -> Rs */
        x_mov_rr(a, W64, X_RCX, X_RAX);
        if (src != X_RDX)
            x_mov_rr(a, W64, X_RDX, src);
        x_mov_rr(a, W64, X_RAX, cmp);
        ne_fault_point(x, site);
        locked(a, true, 0x0F, 0xB1, size, X_RDX, X_RCX);
        zext(a, size, X_RAX);
        rc_write_mem(x, o->a, X_RAX);
        break;
    default: { /* LDCLR / LDEOR / LDSET: rax = old, rdx = new, until the exchange holds */
        x_mov_rr(a, W64, X_RCX, X_RAX);
        ne_fault_point(x, site);
        x_ldx(a, (int)size, false, 0, X_RAX, HR_GUEST_BASE, X_RCX, 0);
        uint8_t *again = a->p;
        x_mov_rr(a, W64, X_RDX, src);
        if (d->op == NAT_CLR) {
            x_not(a, W64, X_RDX);
            x_alu_rr(a, W64, ALU_AND, X_RDX, X_RAX);
        } else {
            x_alu_rr(a, W64, d->op == NAT_EOR ? ALU_XOR : ALU_OR, X_RDX, X_RAX);
        }
        ne_fault_point(x, site);
        locked(a, true, 0x0F, 0xB1, size, X_RDX, X_RCX);
        x_patch(x_jcc(a, CC_NE), again);
        zext(a, size, X_RAX); /* a failed byte/word exchange loads al/ax only */
        rc_write_mem(x, o->d, X_RAX);
        break;
    }
    }
    if (misaligned)
        ne_slow_path(x, misaligned, a->p);
    return 1;
#endif
}

#endif /* MALIBU_HAVE_NATIVE */
