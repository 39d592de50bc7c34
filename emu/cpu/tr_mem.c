/* A64 loads and stores of general and SIMD&FP registers: single registers in
 * every addressing mode, pairs, literals, exclusives and load-acquire /
 * store-release.  (AdvSIMD structure loads/stores are in tr_simd_ldst.c.)
 *
 * Handlers are specialised at translate time by access kind (size, sign
 * extension, destination width, register file) and addressing mode.  Every
 * handler does all its loads before it writes any guest register, so a fault
 * (which long-jumps out of the mem.h helper) leaves the guest state as it was
 * before the instruction.
 *
 * Op operands: d = Rt slot, a = Rt2 slot (pairs), n = Rn slot (31 = SP),
 * m = Rm slot / Rs status slot, imm = offset (or absolute address for
 * literals), x = shift amount for register offsets.
 *
 * CONSTRAINED UNPREDICTABLE cases are resolved as qemu-aarch64 does: a load
 * with writeback and Rt == Rn leaves the written-back address in Rn; a store
 * with writeback and Rt == Rn stores the old value of Rn; LDP with Rt == Rt2
 * leaves the first value for general registers and the second value for
 * SIMD&FP registers; LDXP with Rt == Rt2 leaves the second value.
 *
 * Exclusive monitor (c->excl_*): LDXR/LDXP record address, size and the value
 * read; STXR/STXP store with a host compare-and-exchange against that value, so
 * an intervening store by another guest thread makes them fail (a store of the
 * same value does not: the ABA case the architecture also tolerates for the
 * global monitor).  Runtimes clear the monitor (excl_size = 0) wherever Arm
 * clears the local monitor: exception entry and return (syscalls, signal
 * delivery, interrupts).
 *
 * One deliberate difference from qemu-aarch64: a misaligned STXR/STXP raises
 * EXC_ALIGN even when the monitor does not match (Arm ARM
 * ExclusiveMonitorsPass checks alignment first; qemu just fails it).
 * LDTR/STTR use the normal accessors: exact at EL0; at EL1 the full-system build
 * brackets them with ops that switch to the EL0 soft TLB and permissions
 * (sys_tr_unpriv: PAN does not apply to them). */
#include "translate.h"
#include "native.h"
#include "mem.h"

/* ---- single register, all addressing modes ---------------------------------- */

enum { AM_OFF, AM_PRE, AM_POST, AM_UXTW, AM_SXTW, AM_XREG, AM_COUNT };

/* The immediate-offset handlers of one access kind: offset, pre-index and
 * post-index (writeback).  BODY uses the address `a`. */
#define GEN_IMM_MODES(K, BODY)                                                                  \
    static Op *op_##K##_off(CPUState *c, Op *o)                                                 \
    {                                                                                           \
        uint64_t a = c->x[o->n] + o->imm;                                                       \
        BODY;                                                                                   \
        return op_next(c, o);                                                                   \
    }                                                                                           \
    static Op *op_##K##_pre(CPUState *c, Op *o)                                                 \
    {                                                                                           \
        uint64_t a = c->x[o->n] + o->imm;                                                       \
        BODY;                                                                                   \
        c->x[o->n] = a;                                                                         \
        return op_next(c, o);                                                                   \
    }                                                                                           \
    static Op *op_##K##_post(CPUState *c, Op *o)                                                \
    {                                                                                           \
        uint64_t a = c->x[o->n];                                                                \
        BODY;                                                                                   \
        c->x[o->n] = a + o->imm;                                                                \
        return op_next(c, o);                                                                   \
    }

/* Generate the six addressing-mode handlers for one access kind.  BODY uses the
 * address `a`. */
#define GEN_MODES(K, BODY)                                                                      \
    GEN_IMM_MODES(K, BODY)                                                                      \
    static Op *op_##K##_uxtw(CPUState *c, Op *o)                                                \
    {                                                                                           \
        uint64_t a = c->x[o->n] + ((uint64_t)(uint32_t)c->x[o->m] << o->x);                     \
        BODY;                                                                                   \
        return op_next(c, o);                                                                   \
    }                                                                                           \
    static Op *op_##K##_sxtw(CPUState *c, Op *o)                                                \
    {                                                                                           \
        uint64_t a = c->x[o->n] + ((uint64_t)(int64_t)(int32_t)c->x[o->m] << o->x);             \
        BODY;                                                                                   \
        return op_next(c, o);                                                                   \
    }                                                                                           \
    static Op *op_##K##_xreg(CPUState *c, Op *o)                                                \
    {                                                                                           \
        uint64_t a = c->x[o->n] + (c->x[o->m] << o->x);                                         \
        BODY;                                                                                   \
        return op_next(c, o);                                                                   \
    }                                                                                           \
    static const OpFn K##_fns[AM_COUNT] = { op_##K##_off,  op_##K##_pre,  op_##K##_post,        \
                                            op_##K##_uxtw, op_##K##_sxtw, op_##K##_xreg };

/* General registers: loads (zero-extending, sign-extending to 64 or to 32 bits). */
GEN_MODES(ldb, uint64_t v = mem_ld8(c, o, a); c->x[o->d] = v)
GEN_MODES(ldh, uint64_t v = mem_ld16(c, o, a); c->x[o->d] = v)
GEN_MODES(ldw, uint64_t v = mem_ld32(c, o, a); c->x[o->d] = v)
GEN_MODES(ldx, uint64_t v = mem_ld64(c, o, a); c->x[o->d] = v)
GEN_MODES(ldsbx, uint64_t v = (uint64_t)(int64_t)(int8_t)mem_ld8(c, o, a); c->x[o->d] = v)
GEN_MODES(ldsbw, uint64_t v = (uint32_t)(int32_t)(int8_t)mem_ld8(c, o, a); c->x[o->d] = v)
GEN_MODES(ldshx, uint64_t v = (uint64_t)(int64_t)(int16_t)mem_ld16(c, o, a); c->x[o->d] = v)
GEN_MODES(ldshw, uint64_t v = (uint32_t)(int32_t)(int16_t)mem_ld16(c, o, a); c->x[o->d] = v)
GEN_MODES(ldswx, uint64_t v = (uint64_t)(int64_t)(int32_t)mem_ld32(c, o, a); c->x[o->d] = v)
/* General registers: stores. */
GEN_MODES(stb, mem_st8(c, o, a, (uint8_t)c->x[o->d]))
GEN_MODES(sth, mem_st16(c, o, a, (uint16_t)c->x[o->d]))
GEN_MODES(stw, mem_st32(c, o, a, (uint32_t)c->x[o->d]))
GEN_MODES(stx, mem_st64(c, o, a, c->x[o->d]))
/* SIMD&FP registers: a B/H/S/D load zeroes the rest of the V register. */
GEN_MODES(fldb, VReg t = { 0 }; t.b[0] = mem_ld8(c, o, a); c->v[o->d] = t)
GEN_MODES(fldh, VReg t = { 0 }; t.h[0] = mem_ld16(c, o, a); c->v[o->d] = t)
GEN_MODES(flds, VReg t = { 0 }; t.s[0] = mem_ld32(c, o, a); c->v[o->d] = t)
GEN_MODES(fldd, VReg t = { 0 }; t.d[0] = mem_ld64(c, o, a); c->v[o->d] = t)
GEN_MODES(fldq, VReg t; mem_ld128(c, o, a, &t); c->v[o->d] = t)
GEN_MODES(fstb, mem_st8(c, o, a, c->v[o->d].b[0]))
GEN_MODES(fsth, mem_st16(c, o, a, c->v[o->d].h[0]))
GEN_MODES(fsts, mem_st32(c, o, a, c->v[o->d].s[0]))
GEN_MODES(fstd, mem_st64(c, o, a, c->v[o->d].d[0]))
GEN_MODES(fstq, mem_st128(c, o, a, &c->v[o->d]))

/* The access selected by V:size:opc of the load/store register encodings. */
typedef struct {
    const OpFn *fns; /* NULL: unallocated */
    unsigned scale;  /* log2 of the access size */
    bool load;
    bool prfm;       /* PRFM: a hint, no access at all */
} LdstKind;

static LdstKind ldst_kind(int v, int size, int opc)
{
    static const OpFn *const gpr[4][4] = {
        { stb_fns, ldb_fns, ldsbx_fns, ldsbw_fns },
        { sth_fns, ldh_fns, ldshx_fns, ldshw_fns },
        { stw_fns, ldw_fns, ldswx_fns, NULL },
        { stx_fns, ldx_fns, NULL /* PRFM */, NULL },
    };
    static const OpFn *const fp[4][4] = {
        { fstb_fns, fldb_fns, fstq_fns, fldq_fns },
        { fsth_fns, fldh_fns, NULL, NULL },
        { fsts_fns, flds_fns, NULL, NULL },
        { fstd_fns, fldd_fns, NULL, NULL },
    };
    LdstKind k = { 0 };
    if (v) {
        k.fns = fp[size][opc];
        k.scale = (opc & 2) ? 4 : (unsigned)size;
        k.load = opc & 1;
    } else {
        k.fns = gpr[size][opc];
        k.scale = (unsigned)size;
        k.load = opc != 0;
        k.prfm = size == 3 && opc == 2;
    }
    return k;
}

static uint8_t rt_slot(int v, bool load, int rt)
{
    return v ? (uint8_t)rt : load ? xzr_dst(rt) : xzr_src(rt);
}

static void emit_ldst(DisasCtx *s, const LdstKind *k, int mode, int v, int rt, int rn, uint64_t imm)
{
    Op *o = tr_emit(s, k->fns[mode]);
    o->d = rt_slot(v, k->load, rt);
    o->n = xsp(rn);
    o->imm = imm;
}

bool trans_MEM_LDST_uimm(DisasCtx *s, arg_MEM_LDST_uimm *a)
{
    LdstKind k = ldst_kind(a->v, a->size, a->opc);
    if (k.prfm)
        return true; /* PRFM: prefetch hint, never faults */
    if (!k.fns)
        return false;
    emit_ldst(s, &k, AM_OFF, a->v, a->rt, a->rn, (uint64_t)a->imm12 << k.scale);
    return true;
}

bool trans_MEM_LDST_imm9(DisasCtx *s, arg_MEM_LDST_imm9 *a)
{
    static const int modes[4] = { AM_OFF, AM_POST, AM_OFF /* unprivileged */, AM_PRE };
    LdstKind k = ldst_kind(a->v, a->size, a->opc);
    if (k.prfm)
        return a->idx == 0; /* PRFUM; other PRFM index forms are unallocated */
    if (!k.fns || (a->idx == 2 && a->v))
        return false;       /* no SIMD&FP unprivileged forms */
    /* LDTR/STTR at EL0 behave like LDUR/STUR; at EL1 (system mode) as EL0's accesses. */
#ifdef CONFIG_SYSTEM
    if (a->idx == 2)
        sys_tr_unpriv(s, true);
#endif
    emit_ldst(s, &k, modes[a->idx], a->v, a->rt, a->rn, (uint64_t)(int64_t)a->imm9);
#ifdef CONFIG_SYSTEM
    if (a->idx == 2)
        sys_tr_unpriv(s, false);
#endif
    return true;
}

bool trans_MEM_LDST_roff(DisasCtx *s, arg_MEM_LDST_roff *a)
{
    if (!(a->option & 2))
        return false; /* UXTB/UXTH/SXTB/SXTH: unallocated */
    LdstKind k = ldst_kind(a->v, a->size, a->opc);
    if (k.prfm)
        return true;
    if (!k.fns)
        return false;
    int mode = a->option == 2 ? AM_UXTW : a->option == 6 ? AM_SXTW : AM_XREG; /* LSL/UXTX, SXTX */
    Op *o = tr_emit(s, k.fns[mode]);
    o->d = rt_slot(a->v, k.load, a->rt);
    o->n = xsp(a->rn);
    o->m = xzr_src(a->rm);
    o->x = a->s ? k.scale : 0;
    return true;
}

/* ---- literal ------------------------------------------------------------------ */

static Op *op_lit_w(CPUState *c, Op *o) { uint64_t v = mem_ld32(c, o, o->imm); c->x[o->d] = v; return op_next(c, o); }
static Op *op_lit_x(CPUState *c, Op *o) { uint64_t v = mem_ld64(c, o, o->imm); c->x[o->d] = v; return op_next(c, o); }
static Op *op_lit_sw(CPUState *c, Op *o)
{
    uint64_t v = (uint64_t)(int64_t)(int32_t)mem_ld32(c, o, o->imm);
    c->x[o->d] = v;
    return op_next(c, o);
}
static Op *op_lit_s(CPUState *c, Op *o)
{
    VReg t = { 0 };
    t.s[0] = mem_ld32(c, o, o->imm);
    c->v[o->d] = t;
    return op_next(c, o);
}
static Op *op_lit_d(CPUState *c, Op *o)
{
    VReg t = { 0 };
    t.d[0] = mem_ld64(c, o, o->imm);
    c->v[o->d] = t;
    return op_next(c, o);
}
static Op *op_lit_q(CPUState *c, Op *o)
{
    VReg t;
    mem_ld128(c, o, o->imm, &t);
    c->v[o->d] = t;
    return op_next(c, o);
}

bool trans_MEM_LDR_lit(DisasCtx *s, arg_MEM_LDR_lit *a)
{
    static const OpFn gpr[4] = { op_lit_w, op_lit_x, op_lit_sw, NULL };
    static const OpFn fp[4] = { op_lit_s, op_lit_d, op_lit_q, NULL };
    OpFn fn = a->v ? fp[a->opc] : gpr[a->opc];
    if (!fn)
        return !a->v; /* PRFM (literal) is a no-op; V=1 opc=11 is unallocated */
    Op *o = tr_emit(s, fn);
    o->d = a->v ? (uint8_t)a->rt : xzr_dst(a->rt);
    o->imm = s->pc + (uint64_t)((int64_t)a->imm19 * 4);
    return true;
}

/* ---- pairs ------------------------------------------------------------------- */

enum { PM_OFF, PM_PRE, PM_POST, PM_COUNT };

#define GEN_PAIR(K, BODY)                                                                       \
    GEN_IMM_MODES(K, BODY)                                                                      \
    static const OpFn K##_fns[PM_COUNT] = { op_##K##_off, op_##K##_pre, op_##K##_post };

/* Loads: both values into temporaries, then Rt2, then Rt (Rt wins when equal, as qemu). */
GEN_PAIR(ldpw, uint64_t v1 = mem_ld32(c, o, a); uint64_t v2 = mem_ld32(c, o, a + 4);
         c->x[o->a] = v2; c->x[o->d] = v1)
GEN_PAIR(ldpx, uint64_t v1 = mem_ld64(c, o, a); uint64_t v2 = mem_ld64(c, o, a + 8);
         c->x[o->a] = v2; c->x[o->d] = v1)
GEN_PAIR(ldpsw, uint64_t v1 = (uint64_t)(int64_t)(int32_t)mem_ld32(c, o, a);
         uint64_t v2 = (uint64_t)(int64_t)(int32_t)mem_ld32(c, o, a + 4);
         c->x[o->a] = v2; c->x[o->d] = v1)
GEN_PAIR(stpw, uint32_t v1 = (uint32_t)c->x[o->d]; uint32_t v2 = (uint32_t)c->x[o->a];
         mem_st32(c, o, a, v1); mem_st32(c, o, a + 4, v2))
GEN_PAIR(stpx, uint64_t v1 = c->x[o->d]; uint64_t v2 = c->x[o->a];
         mem_st64(c, o, a, v1); mem_st64(c, o, a + 8, v2))
/* SIMD&FP pairs: Rt then Rt2 (Rt2 wins when equal, as qemu). */
GEN_PAIR(fldps, VReg t1 = { 0 }; VReg t2 = { 0 }; t1.s[0] = mem_ld32(c, o, a);
         t2.s[0] = mem_ld32(c, o, a + 4); c->v[o->d] = t1; c->v[o->a] = t2)
GEN_PAIR(fldpd, VReg t1 = { 0 }; VReg t2 = { 0 }; t1.d[0] = mem_ld64(c, o, a);
         t2.d[0] = mem_ld64(c, o, a + 8); c->v[o->d] = t1; c->v[o->a] = t2)
GEN_PAIR(fldpq, VReg t1; VReg t2; mem_ld128(c, o, a, &t1); mem_ld128(c, o, a + 16, &t2);
         c->v[o->d] = t1; c->v[o->a] = t2)
GEN_PAIR(fstps, mem_st32(c, o, a, c->v[o->d].s[0]); mem_st32(c, o, a + 4, c->v[o->a].s[0]))
GEN_PAIR(fstpd, mem_st64(c, o, a, c->v[o->d].d[0]); mem_st64(c, o, a + 8, c->v[o->a].d[0]))
GEN_PAIR(fstpq, mem_st128(c, o, a, &c->v[o->d]); mem_st128(c, o, a + 16, &c->v[o->a]))

bool tr_vec_whole_regs(DisasCtx *s, bool load, bool q, unsigned nregs, int rt, int rn, bool post)
{
    unsigned scale = q ? 4 : 3;
    Op *o;
    if (nregs == 1) {
        const OpFn *fns = load ? (q ? fldq_fns : fldd_fns) : (q ? fstq_fns : fstd_fns);
        o = tr_emit(s, fns[post ? AM_POST : AM_OFF]);
    } else if (nregs == 2) {
        const OpFn *fns = load ? (q ? fldpq_fns : fldpd_fns) : (q ? fstpq_fns : fstpd_fns);
        o = tr_emit(s, fns[post ? PM_POST : PM_OFF]);
        o->a = (uint8_t)((rt + 1) % 32);
    } else {
        return false;
    }
    o->d = (uint8_t)rt;
    o->n = xsp(rn);
    o->imm = post ? (uint64_t)nregs << scale : 0;
    return true;
}

bool trans_MEM_LDST_pair(DisasCtx *s, arg_MEM_LDST_pair *a)
{
    static const int modes[4] = { PM_OFF /* no-allocate */, PM_POST, PM_OFF, PM_PRE };
    const OpFn *fns;
    unsigned scale;
    if (a->opc == 3)
        return false;
    if (a->v) {
        static const OpFn *const ld[3] = { fldps_fns, fldpd_fns, fldpq_fns };
        static const OpFn *const st[3] = { fstps_fns, fstpd_fns, fstpq_fns };
        fns = a->l ? ld[a->opc] : st[a->opc];
        scale = 2 + (unsigned)a->opc;
    } else if (a->opc == 1) {
        if (!a->l || a->idx == 0)
            return false; /* no STPSW, no LDNPSW */
        fns = ldpsw_fns;
        scale = 2;
    } else {
        bool x = a->opc == 2;
        fns = a->l ? (x ? ldpx_fns : ldpw_fns) : (x ? stpx_fns : stpw_fns);
        scale = x ? 3 : 2;
    }
    Op *o = tr_emit(s, fns[modes[a->idx]]);
    o->d = rt_slot(a->v, a->l, a->rt);
    o->a = rt_slot(a->v, a->l, a->rt2);
    o->n = xsp(a->rn);
    o->imm = (uint64_t)((int64_t)a->imm7 * (1 << scale));
    return true;
}

/* ---- exclusives and ordered accesses ------------------------------------------ */

/* Guest Arm ordering on the host: ordered and exclusive accesses use sequentially
 * consistent host atomics (so STLR followed by LDAR stays ordered, as Arm's
 * RCsc acquire/release requires); plain exclusives are relaxed. */
#define ORD_PLAIN __ATOMIC_RELAXED
#define ORD_AR __ATOMIC_SEQ_CST

/* LDXR/LDAXR: aligned single-copy atomic load; records the monitor. */
#define GEN_LDX(K, T, N, ORD)                                                                   \
    static Op *op_##K(CPUState *c, Op *o)                                                       \
    {                                                                                           \
        uint64_t a = c->x[o->n];                                                                \
        T *p = mem_host_aligned(c, o, a, N, false);                                             \
        uint64_t v = __atomic_load_n(p, ORD);                                                   \
        c->excl_addr = a;                                                                       \
        c->excl_val[0] = v;                                                                     \
        c->excl_size = N;                                                                       \
        c->x[o->d] = v;                                                                         \
        return op_next(c, o);                                                                           \
    }

/* STXR/STLXR: stores Rt with a host compare-and-exchange against the value the
 * matching LDXR saw; Rs = 0 on success, 1 on failure; the monitor is cleared.
 * A misaligned address faults whatever the monitor state (Arm ARM
 * ExclusiveMonitorsPass); a failing monitor makes no access at all. */
#define GEN_STX(K, T, N, ORD)                                                                   \
    static Op *op_##K(CPUState *c, Op *o)                                                       \
    {                                                                                           \
        uint64_t a = c->x[o->n];                                                                \
        uint64_t status = 1;                                                                    \
        if (unlikely(a & (N - 1)))                                                              \
            cpu_raise(c, o, EXC_ALIGN, a, true);                                                \
        if (c->excl_size == N && c->excl_addr == a) {                                           \
            T *p = mem_host_aligned(c, o, a, N, true);                                          \
            T expected = (T)c->excl_val[0];                                                     \
            if (__atomic_compare_exchange_n(p, &expected, (T)c->x[o->d], false, ORD, ORD))      \
                status = 0;                                                                     \
        }                                                                                       \
        c->excl_size = 0;                                                                       \
        c->x[o->m] = status;                                                                    \
        return op_next(c, o);                                                                           \
    }

/* LDAR / STLR: aligned, single-copy atomic, ordered. */
#define GEN_LDAR(K, T, N)                                                                       \
    static Op *op_##K(CPUState *c, Op *o)                                                       \
    {                                                                                           \
        T *p = mem_host_aligned(c, o, c->x[o->n], N, false);                                    \
        uint64_t v = __atomic_load_n(p, ORD_AR);                                                \
        c->x[o->d] = v;                                                                         \
        return op_next(c, o);                                                                           \
    }                                                                                           \
    static Op *op_st##K(CPUState *c, Op *o)                                                     \
    {                                                                                           \
        T *p = mem_host_aligned(c, o, c->x[o->n], N, true);                                     \
        __atomic_store_n(p, (T)c->x[o->d], ORD_AR);                                             \
        return op_next(c, o);                                                                           \
    }

GEN_LDX(ldxrb, uint8_t, 1, ORD_PLAIN)
GEN_LDX(ldxrh, uint16_t, 2, ORD_PLAIN)
GEN_LDX(ldxrw, uint32_t, 4, ORD_PLAIN)
GEN_LDX(ldxrx, uint64_t, 8, ORD_PLAIN)
GEN_LDX(ldaxrb, uint8_t, 1, ORD_AR)
GEN_LDX(ldaxrh, uint16_t, 2, ORD_AR)
GEN_LDX(ldaxrw, uint32_t, 4, ORD_AR)
GEN_LDX(ldaxrx, uint64_t, 8, ORD_AR)
GEN_STX(stxrb, uint8_t, 1, ORD_PLAIN)
GEN_STX(stxrh, uint16_t, 2, ORD_PLAIN)
GEN_STX(stxrw, uint32_t, 4, ORD_PLAIN)
GEN_STX(stxrx, uint64_t, 8, ORD_PLAIN)
GEN_STX(stlxrb, uint8_t, 1, ORD_AR)
GEN_STX(stlxrh, uint16_t, 2, ORD_AR)
GEN_STX(stlxrw, uint32_t, 4, ORD_AR)
GEN_STX(stlxrx, uint64_t, 8, ORD_AR)
GEN_LDAR(larb, uint8_t, 1)
GEN_LDAR(larh, uint16_t, 2)
GEN_LDAR(larw, uint32_t, 4)
GEN_LDAR(larx, uint64_t, 8)

/* LDXP/LDAXP 32-bit: one single-copy atomic doubleword. */
#define GEN_LDXPW(K, ORD)                                                                       \
    static Op *op_##K(CPUState *c, Op *o)                                                       \
    {                                                                                           \
        uint64_t a = c->x[o->n];                                                                \
        uint64_t *p = mem_host_aligned(c, o, a, 8, false);                                      \
        uint64_t v = __atomic_load_n(p, ORD);                                                   \
        c->excl_addr = a;                                                                       \
        c->excl_val[0] = v;                                                                     \
        c->excl_size = 8;                                                                       \
        c->x[o->d] = (uint32_t)v;                                                               \
        c->x[o->a] = v >> 32;                                                                   \
        return op_next(c, o);                                                                           \
    }
/* LDXP/LDAXP 64-bit: each doubleword single-copy atomic, quadword aligned. */
#define GEN_LDXPX(K, ORD)                                                                       \
    static Op *op_##K(CPUState *c, Op *o)                                                       \
    {                                                                                           \
        uint64_t a = c->x[o->n];                                                                \
        uint64_t *p = mem_host_aligned(c, o, a, 16, false);                                     \
        uint64_t v1 = __atomic_load_n(p, ORD);                                                  \
        uint64_t v2 = __atomic_load_n(p + 1, ORD);                                              \
        c->excl_addr = a;                                                                       \
        c->excl_val[0] = v1;                                                                    \
        c->excl_val[1] = v2;                                                                    \
        c->excl_size = 16;                                                                      \
        c->x[o->d] = v1;                                                                        \
        c->x[o->a] = v2;                                                                        \
        return op_next(c, o);                                                                           \
    }
GEN_LDXPW(ldxpw, ORD_PLAIN)
GEN_LDXPW(ldaxpw, ORD_AR)
GEN_LDXPX(ldxpx, ORD_PLAIN)
GEN_LDXPX(ldaxpx, ORD_AR)

#define GEN_STXPW(K, ORD)                                                                       \
    static Op *op_##K(CPUState *c, Op *o)                                                       \
    {                                                                                           \
        uint64_t a = c->x[o->n];                                                                \
        uint64_t status = 1;                                                                    \
        if (unlikely(a & 7))                                                                    \
            cpu_raise(c, o, EXC_ALIGN, a, true);                                                \
        if (c->excl_size == 8 && c->excl_addr == a) {                                           \
            uint64_t *p = mem_host_aligned(c, o, a, 8, true);                                   \
            uint64_t expected = c->excl_val[0];                                                 \
            uint64_t v = (uint32_t)c->x[o->d] | (c->x[o->a] << 32);                             \
            if (__atomic_compare_exchange_n(p, &expected, v, false, ORD, ORD))                  \
                status = 0;                                                                     \
        }                                                                                       \
        c->excl_size = 0;                                                                       \
        c->x[o->m] = status;                                                                    \
        return op_next(c, o);                                                                           \
    }
GEN_STXPW(stxpw, ORD_PLAIN)
GEN_STXPW(stlxpw, ORD_AR)

/* 128-bit host compare-and-exchange (always a full barrier on x86-64). */
#if defined(__x86_64__)
__attribute__((target("cx16")))
#endif
static bool cas128(unsigned __int128 *p, unsigned __int128 expected, unsigned __int128 desired)
{
    return __sync_bool_compare_and_swap(p, expected, desired);
}

static Op *op_stxpx(CPUState *c, Op *o)
{
    uint64_t a = c->x[o->n];
    uint64_t status = 1;
    if (unlikely(a & 15))
        cpu_raise(c, o, EXC_ALIGN, a, true);
    if (c->excl_size == 16 && c->excl_addr == a) {
        unsigned __int128 *p = mem_host_aligned(c, o, a, 16, true);
        unsigned __int128 expected = c->excl_val[0] | ((unsigned __int128)c->excl_val[1] << 64);
        unsigned __int128 v = c->x[o->d] | ((unsigned __int128)c->x[o->a] << 64);
        if (cas128(p, expected, v))
            status = 0;
    }
    c->excl_size = 0;
    c->x[o->m] = status;
    return op_next(c, o);
}

bool trans_MEM_EXCL(DisasCtx *s, arg_MEM_EXCL *a)
{
    static const OpFn ldx[2][4] = { { op_ldxrb, op_ldxrh, op_ldxrw, op_ldxrx },
                                    { op_ldaxrb, op_ldaxrh, op_ldaxrw, op_ldaxrx } };
    static const OpFn stx[2][4] = { { op_stxrb, op_stxrh, op_stxrw, op_stxrx },
                                    { op_stlxrb, op_stlxrh, op_stlxrw, op_stlxrx } };
    static const OpFn ldar[4] = { op_larb, op_larh, op_larw, op_larx };
    static const OpFn stlr[4] = { op_stlarb, op_stlarh, op_stlarw, op_stlarx };
    OpFn fn;
    if (!a->o2 && !a->o1) {
        fn = a->l ? ldx[a->o0][a->size] : stx[a->o0][a->size];
    } else if (!a->o2) {
        if (a->size < 2)
            return false; /* CASP (v8.1) */
        bool x = a->size == 3;
        if (a->l)
            fn = a->o0 ? (x ? op_ldaxpx : op_ldaxpw) : (x ? op_ldxpx : op_ldxpw);
        else
            fn = x ? op_stxpx : a->o0 ? op_stlxpw : op_stxpw; /* cas128 is a full barrier */
    } else if (!a->o1 && a->o0) {
        fn = a->l ? ldar[a->size] : stlr[a->size];
    } else {
        return false; /* LDLAR/STLLR (v8.1 LOR), CAS (v8.1 LSE) */
    }
    Op *o = tr_emit(s, fn);
    o->n = xsp(a->rn);
    o->d = a->l ? xzr_dst(a->rt) : xzr_src(a->rt);
    o->a = a->l ? xzr_dst(a->rt2) : xzr_src(a->rt2);
    o->m = xzr_dst(a->rs);
    return true;
}

/* ---- description for the native back end (native.h) ------------------------------------- */
#if MALIBU_HAVE_NATIVE
static void describe_mem_handlers(void)
{
    /* size = log2 access bytes; sext: 1 to 64 bits, 2 to 32 bits; sub = addressing mode. */
    static const struct { const OpFn *fns; uint8_t kind, size, sext; } single[] = {
        { ldb_fns, NK_LOAD, 0, 0 },   { ldh_fns, NK_LOAD, 1, 0 },   { ldw_fns, NK_LOAD, 2, 0 },
        { ldx_fns, NK_LOAD, 3, 0 },   { ldsbx_fns, NK_LOAD, 0, 1 }, { ldsbw_fns, NK_LOAD, 0, 2 },
        { ldshx_fns, NK_LOAD, 1, 1 }, { ldshw_fns, NK_LOAD, 1, 2 }, { ldswx_fns, NK_LOAD, 2, 1 },
        { stb_fns, NK_STORE, 0, 0 },  { sth_fns, NK_STORE, 1, 0 },  { stw_fns, NK_STORE, 2, 0 },
        { stx_fns, NK_STORE, 3, 0 },  { flds_fns, NK_FLOAD, 2, 0 }, { fldd_fns, NK_FLOAD, 3, 0 },
        { fldq_fns, NK_FLOAD, 4, 0 }, { fsts_fns, NK_FSTORE, 2, 0 }, { fstd_fns, NK_FSTORE, 3, 0 },
        { fstq_fns, NK_FSTORE, 4, 0 },
    };
    for (unsigned k = 0; k < sizeof single / sizeof single[0]; k++)
        for (int mode = 0; mode < AM_COUNT; mode++)
            native_bind(single[k].fns[mode], (NativeDesc){ .kind = single[k].kind, .size = single[k].size,
                                                           .sext = single[k].sext, .sub = (uint8_t)mode });
    static const struct { const OpFn *fns; uint8_t kind, size, sext; } pair[] = {
        { ldpw_fns, NK_LOADP, 2, 0 }, { ldpx_fns, NK_LOADP, 3, 0 }, { ldpsw_fns, NK_LOADP, 2, 1 },
        { stpw_fns, NK_STOREP, 2, 0 }, { stpx_fns, NK_STOREP, 3, 0 },
        { fldps_fns, NK_FLOADP, 2, 0 }, { fldpd_fns, NK_FLOADP, 3, 0 }, { fldpq_fns, NK_FLOADP, 4, 0 },
        { fstps_fns, NK_FSTOREP, 2, 0 }, { fstpd_fns, NK_FSTOREP, 3, 0 }, { fstpq_fns, NK_FSTOREP, 4, 0 },
    };
    for (unsigned k = 0; k < sizeof pair / sizeof pair[0]; k++)
        for (int mode = 0; mode < PM_COUNT; mode++) /* PM_OFF/PRE/POST = NAM_OFF/PRE/POST */
            native_bind(pair[k].fns[mode], (NativeDesc){ .kind = pair[k].kind, .size = pair[k].size,
                                                         .sext = pair[k].sext, .sub = (uint8_t)mode });
}
NATIVE_DESCRIBER(describe_mem_handlers)
#endif
