/* Exception generation, system registers, hints and barriers (EL0 view).
 *
 * What is accessible, and the values read, follow Linux user space on a
 * Cortex-A57 as qemu-aarch64 -cpu cortex-a57 presents it: the ID registers
 * that Linux emulates for EL0, the EL0 timer/cache-type registers, NZCV, FPCR,
 * FPSR, TPIDR_EL0/TPIDRRO_EL0 and DC ZVA.  Everything else UNDEFs. */
#include <string.h>
#include <time.h>
#include "translate.h"
#include "mem.h"
#include "native.h"

#define CNTFRQ_HZ 62500000ull               /* as qemu-user reports */
#define CTR_EL0_VALUE 0x8444c004ull
#define DCZID_EL0_VALUE 4ull                /* DC ZVA zeroes 4 << 4 = 64 bytes */
#define ZVA_BYTES 64
#define MIDR_VALUE 0x411fd070ull            /* Cortex-A57 r1p0 */
#define MPIDR_VALUE 0x80000000ull
#define FPSR_MASK 0xf800009fu               /* NZCV (AArch32), QC, IDC, IXC..IOC */

/* ---- exception generation ------------------------------------------------ */

static Op *op_svc(CPUState *c, Op *o)
{
    c->pc = o->pc + 4;
    c->exception = EXC_SVC;
    c->syndrome = (uint32_t)o->imm;
    return NULL;
}

bool trans_SYS_SVC(DisasCtx *s, arg_SYS_SVC *a)
{
    Op *o = tr_emit(s, op_svc);
    o->imm = (uint64_t)a->imm16;
    s->end_block = true;
    return true;
}

bool trans_SYS_BRK(DisasCtx *s, arg_SYS_BRK *a)
{
    tr_raise(s, EXC_BRK, (uint32_t)a->imm16);
    return true;
}

bool trans_SYS_HLT(DisasCtx *s, arg_SYS_HLT *a)
{
    tr_raise(s, EXC_HLT, (uint32_t)a->imm16);
    return true;
}

/* ---- hints and barriers --------------------------------------------------- */

bool trans_SYS_HINT(DisasCtx *s, arg_SYS_HINT *a)
{
    /* NOP, YIELD, WFE, WFI, SEV, SEVL and every other hint number (BTI, PAC
     * hints, ESB, ...) execute as NOP at EL0 on this CPU: no op at all. */
    (void)s;
    (void)a;
    return true;
}

static Op *op_clrex(CPUState *c, Op *o) { c->excl_size = 0; return op_next(c, o); }
static Op *op_dmb_full(CPUState *c, Op *o) { __atomic_thread_fence(__ATOMIC_SEQ_CST); return op_next(c, o); }
#ifdef CONFIG_SYSTEM
/* ISB: the block ends after it, so that later code is fetched anew; native code also drops
 * the guest call frames here (NK_CONTEXT_SYNC, native_sys.c).  Run from the ops, a block has
 * no frames under it: the dispatcher runs it. */
static Op *op_isb(CPUState *c, Op *o) { return op_next(c, o); }
#endif
#if !defined(__x86_64__) && !defined(__i386__)
static Op *op_dmb_ld(CPUState *c, Op *o) { __atomic_thread_fence(__ATOMIC_ACQUIRE); return op_next(c, o); }
static Op *op_dmb_st(CPUState *c, Op *o) { __atomic_thread_fence(__ATOMIC_RELEASE); return op_next(c, o); }
#endif

bool trans_SYS_BARRIER(DisasCtx *s, arg_SYS_BARRIER *a)
{
    switch (a->op2) {
    case 2: /* CLREX */
        tr_emit(s, op_clrex);
        return true;
    case 4: /* DSB */
    case 5: /* DMB */
        switch (a->crm & 3) {
        case 1: /* LD: loads before loads/stores */
#if !defined(__x86_64__) && !defined(__i386__)
            tr_emit(s, op_dmb_ld);
#endif
            break;
        case 2: /* ST: stores before stores */
#if !defined(__x86_64__) && !defined(__i386__)
            tr_emit(s, op_dmb_st);
#endif
            break;
        default: /* full barrier (the host is TSO at most: only store->load needs a fence) */
            tr_emit(s, op_dmb_full);
            break;
        }
        return true;
    case 6: /* ISB: end the block so later code is fetched anew */
#ifdef CONFIG_SYSTEM
        tr_emit(s, op_isb);
#endif
        tr_goto(s, s->pc + 4);
        return true;
    default:
        return false;
    }
}

/* ---- SYS: cache maintenance ---------------------------------------------- */

static Op *op_dc_zva(CPUState *c, Op *o)
{
    uint64_t addr = c->x[o->n] & ~(uint64_t)(ZVA_BYTES - 1);
    memset(mem_host(c, o, addr, ZVA_BYTES, true), 0, ZVA_BYTES);
    return op_next(c, o);
}

bool trans_SYS_SYS(DisasCtx *s, arg_SYS_SYS *a)
{
    if (a->op1 != 3 || a->crn != 7)
        return false;
    if (a->op2 != 1)
        return false;
    switch (a->crm) {
    case 4: { /* DC ZVA */
        Op *o = tr_emit(s, op_dc_zva);
        o->n = xzr_src(a->rt);
        return true;
    }
    case 5:  /* IC IVAU */
    case 10: /* DC CVAC */
    case 11: /* DC CVAU */
    case 14: /* DC CIVAC */
        /* Translations are invalidated by write protection, and the host
         * caches are coherent: nothing to do (qemu does not fault either). */
        return true;
    default: /* DC CVAP (v8.2) and the EL1 operations */
        return false;
    }
}

/* ---- MRS / MSR ------------------------------------------------------------ */

static Op *op_mrs_const(CPUState *c, Op *o) { c->x[o->d] = o->imm; return op_next(c, o); }
static Op *op_mrs_nzcv(CPUState *c, Op *o) { c->x[o->d] = cpu_get_nzcv(c); return op_next(c, o); }
static Op *op_msr_nzcv(CPUState *c, Op *o) { cpu_set_nzcv(c, (uint32_t)c->x[o->n]); return op_next(c, o); }
static Op *op_mrs_fpcr(CPUState *c, Op *o) { c->x[o->d] = c->fp.fpcr; return op_next(c, o); }
static Op *op_msr_fpcr(CPUState *c, Op *o) { c->fp.fpcr = (uint32_t)c->x[o->n] & cpu_fpcr_writable(); return op_next(c, o); }
static Op *op_mrs_fpsr(CPUState *c, Op *o) { c->x[o->d] = c->fp.fpsr; return op_next(c, o); }
static Op *op_msr_fpsr(CPUState *c, Op *o) { c->fp.fpsr = (uint32_t)c->x[o->n] & FPSR_MASK; return op_next(c, o); }
static Op *op_mrs_tpidr(CPUState *c, Op *o) { c->x[o->d] = c->tpidr_el0; return op_next(c, o); }
static Op *op_msr_tpidr(CPUState *c, Op *o) { c->tpidr_el0 = c->x[o->n]; return op_next(c, o); }
static Op *op_mrs_tpidrro(CPUState *c, Op *o) { c->x[o->d] = c->tpidrro_el0; return op_next(c, o); }

static Op *op_mrs_cntvct(CPUState *c, Op *o)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    c->x[o->d] = ns / (1000000000ull / CNTFRQ_HZ); /* 16 ns per tick */
    return op_next(c, o);
}

#define SYSREG(op0, op1, crn, crm, op2) (((op0) << 14) | ((op1) << 11) | ((crn) << 7) | ((crm) << 3) | (op2))

/* ID register values Linux exposes to EL0 (op0=3, op1=0, CRn=0, CRm=4..7). */
static uint64_t id_reg_value(int crm, int op2)
{
    if (op2 != 0)
        return 0;
    switch (crm) {
    case 4: return 0x11 | cpu_id_aa64pfr0_fp(); /* ID_AA64PFR0_EL1: EL0/EL1 AArch64, FP, AdvSIMD */
    case 5: return 0x6;         /* ID_AA64DFR0_EL1 */
    case 6: return cpu_id_aa64isar0(); /* ID_AA64ISAR0_EL1 (cpu.c) */
    case 7: return 0xff000000;  /* ID_AA64MMFR0_EL1 */
    default: return 0;
    }
}

bool trans_SYS_MRS(DisasCtx *s, arg_SYS_MRS *a)
{
    unsigned op0 = 2 + (unsigned)a->o0;
    unsigned key = SYSREG(op0, (unsigned)a->op1, (unsigned)a->crn, (unsigned)a->crm, (unsigned)a->op2);
    OpFn fn = op_mrs_const;
    uint64_t val = 0;

    if (op0 == 3 && a->op1 == 0 && a->crn == 0 && a->crm >= 4 && a->crm <= 7) {
        val = id_reg_value(a->crm, a->op2);
    } else {
        switch (key) {
        case SYSREG(3, 0, 0, 0, 0): val = MIDR_VALUE; break;
        case SYSREG(3, 0, 0, 0, 5): val = MPIDR_VALUE; break;
        case SYSREG(3, 0, 0, 0, 6): val = 0; break;           /* REVIDR_EL1 */
        case SYSREG(3, 3, 0, 0, 1): val = CTR_EL0_VALUE; break;
        case SYSREG(3, 3, 0, 0, 7): val = DCZID_EL0_VALUE; break;
        case SYSREG(3, 3, 4, 2, 0): fn = op_mrs_nzcv; break;
        case SYSREG(3, 3, 4, 4, 0): fn = op_mrs_fpcr; break;
        case SYSREG(3, 3, 4, 4, 1): fn = op_mrs_fpsr; break;
        case SYSREG(3, 3, 9, 14, 0): val = 0; break;          /* PMUSERENR_EL0 */
        case SYSREG(3, 3, 13, 0, 2): fn = op_mrs_tpidr; break;
        case SYSREG(3, 3, 13, 0, 3): fn = op_mrs_tpidrro; break;
        case SYSREG(3, 3, 14, 0, 0): val = CNTFRQ_HZ; break;
        case SYSREG(3, 3, 14, 0, 2): fn = op_mrs_cntvct; break;
        case SYSREG(2, 3, 0, 1, 0): val = 0; break;           /* MDCCSR_EL0 */
        default: return false;
        }
    }
    Op *o = tr_emit(s, fn);
    o->d = xzr_dst(a->rt);
    o->imm = val;
    return true;
}

bool trans_SYS_MSR(DisasCtx *s, arg_SYS_MSR *a)
{
    unsigned op0 = 2 + (unsigned)a->o0;
    OpFn fn;
    switch (SYSREG(op0, (unsigned)a->op1, (unsigned)a->crn, (unsigned)a->crm, (unsigned)a->op2)) {
    case SYSREG(3, 3, 4, 2, 0): fn = op_msr_nzcv; break;
    case SYSREG(3, 3, 4, 4, 0): fn = op_msr_fpcr; break;
    case SYSREG(3, 3, 4, 4, 1): fn = op_msr_fpsr; break;
    case SYSREG(3, 3, 13, 0, 2): fn = op_msr_tpidr; break;
    default: return false; /* TPIDRRO_EL0 is read-only; the rest is privileged */
    }
    Op *o = tr_emit(s, fn);
    o->n = xzr_src(a->rt);
    return true;
}

/* ---- description for the native back end (native.h) ------------------------------------- */
#if MALIBU_HAVE_NATIVE
static void describe_sys_handlers(void)
{
    native_bind(op_mrs_tpidr, (NativeDesc){ .kind = NK_CPU_FIELD, .op = 0, .sub = NCF_TPIDR_EL0 });
    native_bind(op_msr_tpidr, (NativeDesc){ .kind = NK_CPU_FIELD, .op = 1, .sub = NCF_TPIDR_EL0 });
    native_bind(op_mrs_tpidrro, (NativeDesc){ .kind = NK_CPU_FIELD, .op = 0, .sub = NCF_TPIDRRO_EL0 });
#ifdef CONFIG_SYSTEM
    native_bind(op_isb, (NativeDesc){ .kind = NK_CONTEXT_SYNC });
#endif
}
NATIVE_DESCRIBER(describe_sys_handlers)
#endif
