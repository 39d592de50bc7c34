/* Armv8.1 LSE atomics (FEAT_LSE): CAS, CASP, SWP and the LD<op> read-modify-write family
 * (ADD, CLR, EOR, SET, SMAX, SMIN, UMAX, UMIN; the ST<op> aliases are Rt = XZR), every size
 * and every acquire/release form.  Decoded only when --cpu has LSE (cpu.h).
 *
 * Each one is a single host atomic on the guest's memory, so concurrent guest threads (user
 * mode threads, --smp-mode threads) see it as one indivisible access: __atomic builtins where
 * the host has the operation, a compare-and-exchange loop for the min/max forms, a 128-bit
 * compare-and-exchange for CASP X.  The address must be naturally aligned (EXC_ALIGN otherwise:
 * no FEAT_LSE2); the page must be writable RAM (mem_host_aligned with write set, so a read-only
 * page faults even when a CAS compares false, as the Arm ARM permits; MMIO is a bus error).
 * All forms use sequentially consistent host atomics: at least as strong as the guest's
 * acquire / release / relaxed ordering.  The native back end emits LDADD, LDCLR, LDEOR, LDSET,
 * SWP and CAS in user mode as the matching host locked instructions (native_atomic.c).
 *
 * The exclusive monitor compares values (tr_mem.c), so an atomic that changes a reserved
 * location makes another CPU's STXR fail exactly as a plain store does.
 *
 * Op operands: n = Rn (SP for 31), m = Rs source slot, d = Rt destination slot (LD<op>, SWP) or
 * Rt source slot (CAS), a = Rs destination slot (CAS: the old value goes to Rs);
 * CASP: x = Rs+1 source | Rs+1 destination << 8 | Rt+1 source << 16. */
#include "translate.h"
#include "mem.h"
#include "native.h"

#define ORD __ATOMIC_SEQ_CST

/* ---- LD<op> and SWP ------------------------------------------------------------------------ */

/* Operations the host has as one fetch-and-op builtin. */
#define FETCH_ADD(p, v) __atomic_fetch_add(p, v, ORD)
#define FETCH_CLR(p, v) __atomic_fetch_and(p, (__typeof__(v))~(v), ORD)
#define FETCH_EOR(p, v) __atomic_fetch_xor(p, v, ORD)
#define FETCH_SET(p, v) __atomic_fetch_or(p, v, ORD)
#define FETCH_SWP(p, v) __atomic_exchange_n(p, v, ORD)

#define GEN_FETCH(NAME, T, FETCH)                                                                  \
    static Op *op_##NAME(CPUState *c, Op *o)                                                       \
    {                                                                                              \
        T *p = mem_host_aligned(c, o, c->x[o->n], sizeof(T), true);                                \
        T v = (T)c->x[o->m];                                                                       \
        c->x[o->d] = FETCH(p, v);                                                                  \
        return op_next(c, o);                                                                      \
    }

/* Min / max: compare-and-exchange loop; KEEP(old, v) says the memory value stays. */
#define GEN_MINMAX(NAME, T, S, KEEP)                                                               \
    static Op *op_##NAME(CPUState *c, Op *o)                                                       \
    {                                                                                              \
        T *p = mem_host_aligned(c, o, c->x[o->n], sizeof(T), true);                                \
        T v = (T)c->x[o->m];                                                                       \
        T old = __atomic_load_n(p, __ATOMIC_RELAXED);                                              \
        T nv;                                                                                      \
        do {                                                                                       \
            nv = KEEP((S)old, (S)v) ? old : v;                                                     \
        } while (!__atomic_compare_exchange_n(p, &old, nv, true, ORD, __ATOMIC_RELAXED));          \
        c->x[o->d] = old;                                                                          \
        return op_next(c, o);                                                                      \
    }
#define KEEP_MAX(old, v) ((old) >= (v))
#define KEEP_MIN(old, v) ((old) <= (v))

#define GEN_SIZE(SFX, T, S)                                                                        \
    GEN_FETCH(ldadd##SFX, T, FETCH_ADD)                                                            \
    GEN_FETCH(ldclr##SFX, T, FETCH_CLR)                                                            \
    GEN_FETCH(ldeor##SFX, T, FETCH_EOR)                                                            \
    GEN_FETCH(ldset##SFX, T, FETCH_SET)                                                            \
    GEN_MINMAX(ldsmax##SFX, T, S, KEEP_MAX)                                                        \
    GEN_MINMAX(ldsmin##SFX, T, S, KEEP_MIN)                                                        \
    GEN_MINMAX(ldumax##SFX, T, T, KEEP_MAX)                                                        \
    GEN_MINMAX(ldumin##SFX, T, T, KEEP_MIN)                                                        \
    GEN_FETCH(swp##SFX, T, FETCH_SWP)

GEN_SIZE(b, uint8_t, int8_t)
GEN_SIZE(h, uint16_t, int16_t)
GEN_SIZE(w, uint32_t, int32_t)
GEN_SIZE(x, uint64_t, int64_t)

#define SIZE_FNS(op) { op##b, op##h, op##w, op##x }

bool trans_MEM_ATOMIC(DisasCtx *s, arg_MEM_ATOMIC *a)
{
    static const OpFn ldop[8][4] = {
        SIZE_FNS(op_ldadd),  SIZE_FNS(op_ldclr),  SIZE_FNS(op_ldeor),  SIZE_FNS(op_ldset),
        SIZE_FNS(op_ldsmax), SIZE_FNS(op_ldsmin), SIZE_FNS(op_ldumax), SIZE_FNS(op_ldumin),
    };
    static const OpFn swp[4] = SIZE_FNS(op_swp);
    if (!cpu_feat_lse())
        return false;
    OpFn fn;
    if (!a->o3)
        fn = ldop[a->opc][a->size];
    else if (a->opc == 0)
        fn = swp[a->size];
    else
        return false; /* LDAPR (v8.3 RCpc) and unallocated */
    Op *o = tr_emit(s, fn);
    o->n = xsp(a->rn);
    o->m = xzr_src(a->rs);
    o->d = xzr_dst(a->rt);
    return true;
}

/* ---- CAS ---------------------------------------------------------------------------------- */

/* Rs = old value (zero-extended); memory = Rt if old == Rs. */
#define GEN_CAS(NAME, T)                                                                           \
    static Op *op_##NAME(CPUState *c, Op *o)                                                       \
    {                                                                                              \
        T *p = mem_host_aligned(c, o, c->x[o->n], sizeof(T), true);                                \
        T old = (T)c->x[o->m];                                                                     \
        __atomic_compare_exchange_n(p, &old, (T)c->x[o->d], false, ORD, ORD);                      \
        c->x[o->a] = old;                                                                          \
        return op_next(c, o);                                                                      \
    }
GEN_CAS(casb, uint8_t)
GEN_CAS(cash, uint16_t)
GEN_CAS(casw, uint32_t)
GEN_CAS(casx, uint64_t)

bool trans_MEM_CAS(DisasCtx *s, arg_MEM_CAS *a)
{
    static const OpFn fns[4] = { op_casb, op_cash, op_casw, op_casx };
    if (!cpu_feat_lse())
        return false;
    Op *o = tr_emit(s, fns[a->size]);
    o->n = xsp(a->rn);
    o->m = xzr_src(a->rs);
    o->a = xzr_dst(a->rs);
    o->d = xzr_src(a->rt);
    return true;
}

/* ---- CASP --------------------------------------------------------------------------------- */

#define CASP_RS1_SRC(o) ((o)->x & 0xff)
#define CASP_RS1_DST(o) (((o)->x >> 8) & 0xff)
#define CASP_RT1_SRC(o) (((o)->x >> 16) & 0xff)

/* 32-bit pair: one doubleword, Rs / Rt at the lower address. */
static Op *op_caspw(CPUState *c, Op *o)
{
    uint64_t *p = mem_host_aligned(c, o, c->x[o->n], 8, true);
    uint64_t old = (uint32_t)c->x[o->m] | (c->x[CASP_RS1_SRC(o)] << 32);
    uint64_t nv = (uint32_t)c->x[o->d] | (c->x[CASP_RT1_SRC(o)] << 32);
    __atomic_compare_exchange_n(p, &old, nv, false, ORD, ORD);
    c->x[o->a] = (uint32_t)old;
    c->x[CASP_RS1_DST(o)] = old >> 32;
    return op_next(c, o);
}

/* 128-bit host compare-and-exchange returning the old value (a full barrier on x86-64). */
#if defined(__x86_64__)
__attribute__((target("cx16")))
#endif
static unsigned __int128 cas128_val(unsigned __int128 *p, unsigned __int128 expected, unsigned __int128 desired)
{
    return __sync_val_compare_and_swap(p, expected, desired);
}

/* 64-bit pair: one quadword, 16-byte aligned. */
static Op *op_caspx(CPUState *c, Op *o)
{
    unsigned __int128 *p = mem_host_aligned(c, o, c->x[o->n], 16, true);
    unsigned __int128 cmp = c->x[o->m] | ((unsigned __int128)c->x[CASP_RS1_SRC(o)] << 64);
    unsigned __int128 nv = c->x[o->d] | ((unsigned __int128)c->x[CASP_RT1_SRC(o)] << 64);
    unsigned __int128 old = cas128_val(p, cmp, nv);
    c->x[o->a] = (uint64_t)old;
    c->x[CASP_RS1_DST(o)] = (uint64_t)(old >> 64);
    return op_next(c, o);
}

bool trans_MEM_CASP(DisasCtx *s, arg_MEM_CASP *a)
{
    if (!cpu_feat_lse() || (a->rs & 1) || (a->rt & 1))
        return false; /* odd register pairs are UNDEFINED here (as qemu) */
    Op *o = tr_emit(s, a->sz ? op_caspx : op_caspw);
    o->n = xsp(a->rn);
    o->m = xzr_src(a->rs);
    o->a = xzr_dst(a->rs);
    o->d = xzr_src(a->rt);
    o->x = (uint32_t)xzr_src(a->rs + 1) | (uint32_t)xzr_dst(a->rs + 1) << 8 | (uint32_t)xzr_src(a->rt + 1) << 16;
    return true;
}

/* ---- description for the native back end (native.h, native_atomic.c) --------------------- */
#if MALIBU_HAVE_NATIVE
static void describe_atomic_handlers(void)
{
    static const OpFn fns[6][4] = {
        SIZE_FNS(op_ldadd), SIZE_FNS(op_ldclr), SIZE_FNS(op_ldeor), SIZE_FNS(op_ldset),
        SIZE_FNS(op_swp), { op_casb, op_cash, op_casw, op_casx },
    };
    for (int op = NAT_ADD; op <= NAT_CAS; op++)
        for (int size = 0; size < 4; size++)
            native_bind(fns[op][size], (NativeDesc){ .kind = NK_ATOMIC, .op = (uint8_t)op, .size = (uint8_t)size });
}
NATIVE_DESCRIBER(describe_atomic_handlers)
#endif
