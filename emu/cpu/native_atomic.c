/* Native back end: LSE atomics (NK_ATOMIC): LDADD and SWP as lock xadd / xchg,
 * CAS as lock cmpxchg, LDCLR/LDEOR/LDSET as a lock cmpxchg loop, every size, on the guest's
 * memory at guest_base + address, as tr_atomic.c's handlers do with __atomic builtins (x86
 * locked instructions are full barriers: at least the guest's acquire / release ordering).
 * A misaligned address (no FEAT_LSE2) calls the portable handler, which raises the alignment
 * fault; a host fault on the access raises the data abort through the fault-site table, as
 * for plain stores (lock cmpxchg writes even when the compare fails, so a read-only page
 * faults as the handler's write probe does).  Results go to CPUState (rc_write_mem), so the
 * out-of-line handler call and the inline code leave the register cache alike.  System mode
 * (CONFIG_SYSTEM) does the same on the host address of the soft-TLB write probe (native_ops.c):
 * a write tag means RAM without translated code, as the portable handler's mem_host_aligned
 * requires; a miss calls the handler. */
#include "native_emit.h"

#if MALIBU_HAVE_NATIVE

/* [lock] op [base + index], reg for access size 2^size (byte forms are opcode - 1). */
static void locked(Asm *a, bool lock, int op1, int op2, unsigned size, int reg, int base, int index)
{
    if (lock)
        x_b(a, 0xF0);
    if (size == 1)
        x_b(a, 0x66);
    if (op2 >= 0)
        op2 -= size == 0;
    else
        op1 -= size == 0;
    x_op_mem(a, size == 3 ? W64 : W32, op1, op2, reg, base, index, 0, size == 0);
}

/* r zero-extended from 2^size bytes (a 64-bit result is left alone). */
static void zext(Asm *a, unsigned size, int r)
{
    if (size < 2)
        x_movzx_rr(a, r, r, (int)size);
    else if (size == 2)
        x_mov_rr(a, W32, r, r);
}

#ifdef CONFIG_SYSTEM
/* The guest address in rax; hb, hi <- the host address: rsi after the soft-TLB write probe,
 * whose miss calls the handler (*miss).  The probe clobbers rcx and rdx, so the operands are
 * read after it (rc_frozen: cached registers, or scratch loads from CPUState, current after
 * the caller's rc_spill). */
static int guest_operand(NCtx *x, uint8_t **miss, unsigned size, int *hb, int *hi)
{
    *miss = ne_tlb_probe(x, true, 1u << size, X_RSI); /* rsi: op_scratch keeps it free */
    x_alu_rr(&x->a, W64, ALU_ADD, X_RSI, X_RAX); /* CAS needs rax: one host address register */
    x->rc_frozen = true;
    *hb = X_RSI, *hi = X_NONE;
    return -1;
}
#define FAULT_POINT() ((void)0)
#else
/* The guest address in rax, checked against the guest window (a data abort out of line);
 * hb, hi <- guest_base + rax (rcx for the forms that need rax: the caller moves it). */
static int guest_operand(NCtx *x, uint8_t **miss, unsigned size, int *hb, int *hi)
{
    (void)size;
    *miss = NULL;
    *hb = HR_GUEST_BASE, *hi = X_RAX;
    if (!x->c->guest_base) /* guest address = host address (guest_mem_init) */
        *hb = X_RAX, *hi = X_NONE;
    return ne_guest_access(x, true);
}
#define FAULT_POINT() ne_fault_point(x, site)
#endif

/* The host address's register that is rax (the index, or with a zero base the base) moved to
 * rcx, for the forms that need rax (cmpxchg's compare value, the loop's old value). */
static void address_out_of_rax(Asm *a, int *hb, int *hi)
{
    int *r = *hi == X_RAX ? hi : *hb == X_RAX ? hb : NULL;
    if (r) {
        x_mov_rr(a, W64, X_RCX, X_RAX);
        *r = X_RCX;
    }
}

unsigned ne_emit_atomic(NCtx *x, const Op *o, const NativeDesc *d)
{
    Asm *a = &x->a;
    unsigned size = d->size;
    bool loop = d->op == NAT_CLR || d->op == NAT_EOR || d->op == NAT_SET;
    if (x->n_slow + 2 > sizeof x->slow / sizeof x->slow[0] || (loop && o->m == REG_ZR) ||
        (d->op == NAT_CAS && o->m == REG_ZR))
        return 0;
    int rn = rc_src(x, o->n, X_RAX);
    if (rn != X_RAX)
        x_mov_rr(a, W64, X_RAX, rn);
#ifndef CONFIG_SYSTEM
    /* Operands into the cache (or scratch for XZR) before the checks: no cache change after. */
    int src = d->op == NAT_CAS ? rc_src(x, o->d, X_RDX) : rc_src(x, o->m, X_RDX);
    int cmp = d->op == NAT_CAS ? rc_src(x, o->m, X_RCX) : -1;
#endif
    rc_spill(x); /* the handler (misaligned, TLB miss) reads CPUState */
    uint8_t *misaligned = NULL, *miss;
    if (size) {
        x_b(a, 0xA8); /* test al, size - 1 */
        x_b(a, (uint8_t)((1u << size) - 1));
        misaligned = x_jcc(a, CC_NE);
    }
    int hb, hi;
    int site = guest_operand(x, &miss, size, &hb, &hi);
    (void)site;
#ifdef CONFIG_SYSTEM
    /* after the probe (it clobbers rcx, rdx); a loop's source must survive rdx's reuse */
    int src = d->op == NAT_CAS ? rc_src(x, o->d, X_RDX) : rc_src(x, o->m, loop ? X_RCX : X_RDX);
    int cmp = d->op == NAT_CAS ? rc_src(x, o->m, X_RCX) : -1;
#endif
    switch (d->op) {
    case NAT_ADD:
    case NAT_SWP:
        if (src != X_RDX)
            x_mov_rr(a, W64, X_RDX, src);
        FAULT_POINT();
        if (d->op == NAT_ADD)
            locked(a, true, 0x0F, 0xC1, size, X_RDX, hb, hi); /* lock xadd */
        else
            locked(a, false, 0x87, -1, size, X_RDX, hb, hi);  /* xchg (locked by itself) */
        zext(a, size, X_RDX);
        rc_write_mem(x, o->d, X_RDX);
        break;
    case NAT_CAS: /* rax = Rs (compare), rdx = Rt (new); old value -> Rs */
        address_out_of_rax(a, &hb, &hi);
        if (src != X_RDX)
            x_mov_rr(a, W64, X_RDX, src);
        x_mov_rr(a, W64, X_RAX, cmp);
        FAULT_POINT();
        locked(a, true, 0x0F, 0xB1, size, X_RDX, hb, hi);
        zext(a, size, X_RAX);
        rc_write_mem(x, o->a, X_RAX);
        break;
    default: { /* LDCLR / LDEOR / LDSET: rax = old, rdx = new, until the exchange holds */
        address_out_of_rax(a, &hb, &hi);
        FAULT_POINT();
        x_ldx(a, (int)size, false, 0, X_RAX, hb, hi, 0);
        uint8_t *again = a->p;
        x_mov_rr(a, W64, X_RDX, src);
        if (d->op == NAT_CLR) {
            x_not(a, W64, X_RDX);
            x_alu_rr(a, W64, ALU_AND, X_RDX, X_RAX);
        } else {
            x_alu_rr(a, W64, d->op == NAT_EOR ? ALU_XOR : ALU_OR, X_RDX, X_RAX);
        }
        FAULT_POINT();
        locked(a, true, 0x0F, 0xB1, size, X_RDX, hb, hi);
        x_patch(x_jcc(a, CC_NE), again);
        zext(a, size, X_RAX); /* a failed byte/word exchange loads al/ax only */
        rc_write_mem(x, o->d, X_RAX);
        break;
    }
    }
#undef FAULT_POINT
    x->rc_frozen = false;
    if (misaligned)
        ne_slow_path(x, misaligned, a->p);
    if (miss)
        ne_slow_path(x, miss, a->p);
    return 1;
}

#endif /* MALIBU_HAVE_NATIVE */
