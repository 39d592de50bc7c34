/* System instructions of the full-system build: MRS/MSR of every system register Linux 6.12
 * uses at EL1/EL0, MSR (immediate) to SPSel/DAIFSet/DAIFClr, SYS (DC/IC/AT/TLBI), ERET, HVC/SMC,
 * WFI/WFE/SEV/SEVL.  tb_translate() calls sys_translate_insn() before the shared decoder; it
 * returns false for everything else (which the user-level translators handle).
 *
 * Accessibility is decided at translate time from the EL (part of the TB flags).  What cannot
 * be accessed from the current EL, and unknown registers, are UNDEFINED (EC 0); the ID register
 * space (op0=3, op1=0, CRn=0) reads as zero where no register is defined.  Values: a plain
 * Armv8.0 Cortex-A57 r1p0 with its PMUv3 (sys_pmu.c), without EL2/EL3, SVE, ... (see README);
 * --cpu max adds FEAT_PAN (PSTATE.PAN, MSR PAN, SCTLR_EL1.SPAN, ID_AA64MMFR1_EL1.PAN = 1). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "translate.h"
#include "mem.h"
#include "native.h"
#include "sys_cpu.h"
#include "sys_chan.h"
#include "sys_pmu.h"
#include "../../devices/gic400.h"
#include "../../devices/gtimer.h"
#include "../stats/timeline.h"

#define SYSREG(op0, op1, crn, crm, op2) \
    (((op0) << 14) | ((op1) << 11) | ((crn) << 7) | ((crm) << 3) | (op2))

#define MIDR_VALUE 0x411FD070ull
#define CTR_VALUE 0x8444C004ull
#define DCZID_VALUE 4ull
#define ZVA_BYTES 64
#define CLIDR_VALUE 0x0A200023ull
#define FPSR_MASK_SYS 0xf800009fu

#define F(field) offsetof(SysCPU, field)

static uint64_t id_reg(unsigned crm, unsigned op2)
{
    switch (crm * 8 + op2) {
    case 4 * 8 + 0: /* ID_AA64PFR0: EL0/EL1 AArch64, FP, SIMD (+FP16 on max), CSV2, CSV3 */
        return 0x1100000000000011ull | cpu_id_aa64pfr0_fp();
    case 5 * 8 + 0: return 0x10305106ull;         /* ID_AA64DFR0: v8 debug, 6 BRPs, 4 WRPs, PMUv3 */
    case 6 * 8 + 0: return cpu_id_aa64isar0();    /* ID_AA64ISAR0 of --cpu (cpu.c) */
    case 7 * 8 + 0: return 0x0F000022ull;         /* ID_AA64MMFR0: 40-bit PA, 16-bit ASID, 4K only */
    case 7 * 8 + 1: return cpu_feat_pan() ? 1ull << 20 : 0; /* ID_AA64MMFR1: PAN (FEAT_PAN) */
    default: return 0;
    }
}

/* ---- generic register ops ----------------------------------------------------------------- */

static Op *op_rd_const(CPUState *c, Op *o) { c->x[o->d] = o->imm; return op_next(c, o); }
static Op *op_rd_field(CPUState *c, Op *o) { c->x[o->d] = *(uint64_t *)((char *)c + o->imm); return op_next(c, o); }
static Op *op_wr_field(CPUState *c, Op *o) { *(uint64_t *)((char *)c + o->imm) = c->x[o->n]; return op_next(c, o); }
static Op *op_wr_ignore(CPUState *c, Op *o) { (void)c; return op_next(c, o); }

/* Writes that change what translated code depends on (CPACR_EL1.FPEN): leave the block. */
static Op *op_wr_mode(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    *(uint64_t *)((char *)c + o->imm) = c->x[o->n];
    sys_update_mode(s);
    c->pc = o->pc + 4;
    return NULL;
}

/* Synchronous exception with a fixed syndrome (o->imm) at this instruction. */
static Op *op_sync_exc(CPUState *c, Op *o)
{
    sys_cpu(c)->pend_esr = (uint32_t)o->imm;
    c->pc = o->pc;
    c->exception = EXC_SYS_SYNC;
    return NULL;
}

/* Writes that change translation: flush the TLB and leave the block. */
static Op *op_wr_mmu(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    uint64_t *reg = (uint64_t *)((char *)c + o->imm);
    uint64_t old = *reg, val = c->x[o->n];
    *reg = val;
    s->n_mmu_writes++;
    /* Context switch: TTBR0, or TTBR1 with only its ASID field (TCR.A1) changed, keeps the
     * global kernel entries; anything else flushes the whole TLB. */
    if (o->imm == F(ttbr0) || (o->imm == F(ttbr1) && ((old ^ val) & 0x0000FFFFFFFFFFFFull) == 0))
        sys_tlb_flush_user(s);
    else
        sys_tlb_flush(s);
    sys_update_mode(s);
    c->pc = o->pc + 4;
    return NULL;
}

static Op *op_rd_nzcv(CPUState *c, Op *o) { c->x[o->d] = cpu_get_nzcv(c); return op_next(c, o); }
static Op *op_wr_nzcv(CPUState *c, Op *o) { cpu_set_nzcv(c, (uint32_t)c->x[o->n]); return op_next(c, o); }
static Op *op_rd_fpcr(CPUState *c, Op *o) { c->x[o->d] = c->fp.fpcr; return op_next(c, o); }
static Op *op_wr_fpcr(CPUState *c, Op *o) { c->fp.fpcr = (uint32_t)c->x[o->n] & cpu_fpcr_writable(); return op_next(c, o); }
static Op *op_rd_fpsr(CPUState *c, Op *o) { c->x[o->d] = c->fp.fpsr; return op_next(c, o); }
static Op *op_wr_fpsr(CPUState *c, Op *o) { c->fp.fpsr = (uint32_t)c->x[o->n] & FPSR_MASK_SYS; return op_next(c, o); }
static Op *op_rd_tpidr0(CPUState *c, Op *o) { c->x[o->d] = c->tpidr_el0; return op_next(c, o); }
static Op *op_wr_tpidr0(CPUState *c, Op *o) { c->tpidr_el0 = c->x[o->n]; return op_next(c, o); }
static Op *op_rd_tpidrro(CPUState *c, Op *o) { c->x[o->d] = c->tpidrro_el0; return op_next(c, o); }
static Op *op_wr_tpidrro(CPUState *c, Op *o) { c->tpidrro_el0 = c->x[o->n]; return op_next(c, o); }

/* After unmasking: leave at the next block boundary if an interrupt is now deliverable. */
static void check_unmask(SysCPU *s)
{
    Gic *g = s->mach->gic;
    if ((!(s->daif & PSTATE_I) && gic_irq_line(g, s->index)) ||
        (!(s->daif & PSTATE_F) && gic_fiq_line(g, s->index)))
        s->cpu.exit_request = 1;
}

static Op *op_rd_daif(CPUState *c, Op *o) { c->x[o->d] = sys_cpu(c)->daif; return op_next(c, o); }
static Op *op_wr_daif(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    s->daif = (uint32_t)c->x[o->n] & 0x3c0;
    check_unmask(s);
    return op_next(c, o);
}
static Op *op_daifset(CPUState *c, Op *o) { sys_cpu(c)->daif |= (uint32_t)o->imm; return op_next(c, o); }
static Op *op_daifclr(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    s->daif &= ~(uint32_t)o->imm;
    check_unmask(s);
    return op_next(c, o);
}

static void set_spsel(SysCPU *s, unsigned v)
{
    if (v == s->spsel)
        return;
    sys_sp_save(s);
    s->spsel = v;
    sys_sp_load(s);
}
static Op *op_rd_spsel(CPUState *c, Op *o) { c->x[o->d] = sys_cpu(c)->spsel; return op_next(c, o); }
static Op *op_wr_spsel(CPUState *c, Op *o) { set_spsel(sys_cpu(c), c->x[o->n] & 1); return op_next(c, o); }
static Op *op_spsel_imm(CPUState *c, Op *o) { set_spsel(sys_cpu(c), o->imm & 1); return op_next(c, o); }

/* PSTATE.PAN (FEAT_PAN): MSR PAN, #imm and the PAN register (bit 22). */
static Op *op_pan_imm(CPUState *c, Op *o) { sys_set_pan(sys_cpu(c), o->imm & 1); return op_next(c, o); }
static Op *op_rd_pan(CPUState *c, Op *o) { c->x[o->d] = sys_cpu(c)->pan ? PSTATE_PAN : 0; return op_next(c, o); }
static Op *op_wr_pan(CPUState *c, Op *o)
{
    sys_set_pan(sys_cpu(c), (c->x[o->n] & PSTATE_PAN) != 0);
    return op_next(c, o);
}

/* LDTR/STTR at EL1: their accesses use the EL0 table and permissions (sys_unpriv_begin) until
 * the end op; a fault on the way ends it too (exception entry: sys_update_mode). */
static Op *op_unpriv_begin(CPUState *c, Op *o) { sys_unpriv_begin(sys_cpu(c)); return op_next(c, o); }
static Op *op_unpriv_end(CPUState *c, Op *o) { sys_update_mode(sys_cpu(c)); return op_next(c, o); }

void sys_tr_unpriv(DisasCtx *d, bool begin)
{
    if (sys_cpu(d->cpu)->el == 1)
        tr_emit(d, begin ? op_unpriv_begin : op_unpriv_end);
}

/* SP_EL0 at EL1: the banked copy while SPSel = 1, else the live SP. */
static Op *op_rd_sp_el0(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    c->x[o->d] = s->spsel ? s->sp_el0 : c->x[REG_SP];
    return op_next(c, o);
}
static Op *op_wr_sp_el0(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    if (s->spsel)
        s->sp_el0 = c->x[o->n];
    else
        c->x[REG_SP] = c->x[o->n];
    return op_next(c, o);
}

static Op *op_rd_isr(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    uint64_t v = 0;
    if (gic_irq_line(s->mach->gic, s->index))
        v |= 0x80;
    if (gic_fiq_line(s->mach->gic, s->index))
        v |= 0x40;
    c->x[o->d] = v;
    return op_next(c, o);
}

static Op *op_rd_ccsidr(CPUState *c, Op *o)
{
    static const uint64_t v[4] = { 0x701FE00A, 0x201FE012, 0x70FFE07A, 0 }; /* L1D, L1I, L2 */
    uint64_t sel = sys_cpu(c)->csselr & 0xf;
    c->x[o->d] = sel < 3 ? v[sel] : 0;
    return op_next(c, o);
}

static Op *op_wr_oslar(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    s->oslsr = (s->oslsr & ~2ull) | ((c->x[o->n] & 1) << 1);
    return op_next(c, o);
}
static Op *op_rd_oslsr(CPUState *c, Op *o) { c->x[o->d] = sys_cpu(c)->oslsr | 8; return op_next(c, o); }

/* Generic timer: o->x = GT_PHYS / GT_VIRT. */
static Op *op_rd_cntpct(CPUState *c, Op *o) { c->x[o->d] = gtimer_count(sys_cpu(c)->mach->gtimer); return op_next(c, o); }
static Op *op_rd_cntvct(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    c->x[o->d] = gtimer_vcount(s->mach->gtimer, s->index);
    return op_next(c, o);
}
static Op *op_rd_cntfrq(CPUState *c, Op *o) { c->x[o->d] = gtimer_freq(sys_cpu(c)->mach->gtimer); return op_next(c, o); }
static Op *op_rd_cnt_ctl(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    c->x[o->d] = gtimer_read_ctl(s->mach->gtimer, s->index, (int)o->x);
    return op_next(c, o);
}
static Op *op_wr_cnt_ctl(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    gtimer_write_ctl(s->mach->gtimer, s->index, (int)o->x, c->x[o->n]);
    return op_next(c, o);
}
static Op *op_rd_cnt_cval(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    c->x[o->d] = gtimer_read_cval(s->mach->gtimer, s->index, (int)o->x);
    return op_next(c, o);
}
static Op *op_wr_cnt_cval(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    gtimer_write_cval(s->mach->gtimer, s->index, (int)o->x, c->x[o->n]);
    return op_next(c, o);
}
static Op *op_rd_cnt_tval(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    c->x[o->d] = gtimer_read_tval(s->mach->gtimer, s->index, (int)o->x);
    return op_next(c, o);
}
static Op *op_wr_cnt_tval(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    gtimer_write_tval(s->mach->gtimer, s->index, (int)o->x, c->x[o->n]);
    return op_next(c, o);
}

/* ---- MRS / MSR ------------------------------------------------------------------------------ */

typedef struct RegAccess {
    OpFn rd, wr;
    uint64_t imm;      /* constant value or field offset */
    uint32_t x;
    bool end_block;    /* the write ends the block */
    bool end_block_rd; /* the read ends the block too (PMU: counts exact to the instruction) */
} RegAccess;

#define RW_FIELD(f) (ra->rd = op_rd_field, ra->wr = op_wr_field, ra->imm = F(f), true)
#define RO_CONST(v) (ra->rd = op_rd_const, ra->wr = NULL, ra->imm = (v), true)

/* Describe register key as seen from EL el.  False: UNDEFINED. */
static bool sysreg(SysCPU *s, unsigned key, unsigned el, RegAccess *ra)
{
    memset(ra, 0, sizeof *ra);
    unsigned op0 = key >> 14, op1 = (key >> 11) & 7, crn = (key >> 7) & 15, crm = (key >> 3) & 15,
             op2 = key & 7;
    /* Registers EL0 may access. */
    switch (key) {
    case SYSREG(3, 3, 4, 2, 0): ra->rd = op_rd_nzcv; ra->wr = op_wr_nzcv; return true;
    case SYSREG(3, 3, 4, 4, 0): ra->rd = op_rd_fpcr; ra->wr = op_wr_fpcr; return true;
    case SYSREG(3, 3, 4, 4, 1): ra->rd = op_rd_fpsr; ra->wr = op_wr_fpsr; return true;
    case SYSREG(3, 3, 13, 0, 2): ra->rd = op_rd_tpidr0; ra->wr = op_wr_tpidr0; return true;
    case SYSREG(3, 3, 13, 0, 3): ra->rd = op_rd_tpidrro; ra->wr = el ? op_wr_tpidrro : NULL; return true;
    case SYSREG(3, 3, 0, 0, 1): return RO_CONST(CTR_VALUE);
    case SYSREG(3, 3, 0, 0, 7):
        return RO_CONST(DCZID_VALUE | ((el == 0 && !(s->sctlr & SCTLR_DZE)) ? 0x10 : 0));
    case SYSREG(3, 3, 14, 0, 0): ra->rd = op_rd_cntfrq; return true;
    case SYSREG(3, 3, 14, 0, 1): ra->rd = op_rd_cntpct; return true;
    case SYSREG(3, 3, 14, 0, 2): ra->rd = op_rd_cntvct; return true;
    }
    if (sys_pmu_sysreg(key, el, &ra->rd, &ra->wr, &ra->x)) {
        ra->imm = el;
        ra->end_block = ra->end_block_rd = true;
        return true;
    }
    if (el == 0)
        return false;
    if (op0 == 3 && op1 == 0 && crn == 0) {
        switch (crm * 8 + op2) {
        case 0: return RO_CONST(MIDR_VALUE);
        case 5: return RO_CONST(0x80000000ull | s->mpidr);
        case 6: return RO_CONST(0);
        default: return RO_CONST(id_reg(crm, op2));
        }
    }
    switch (key) {
    case SYSREG(3, 0, 1, 0, 0): /* SCTLR_EL1 */
    case SYSREG(3, 0, 2, 0, 0): /* TTBR0_EL1 */
    case SYSREG(3, 0, 2, 0, 1): /* TTBR1_EL1 */
    case SYSREG(3, 0, 2, 0, 2): /* TCR_EL1 */
        ra->rd = op_rd_field;
        ra->wr = op_wr_mmu;
        ra->end_block = true;
        ra->imm = key == SYSREG(3, 0, 1, 0, 0) ? F(sctlr) : key == SYSREG(3, 0, 2, 0, 0) ? F(ttbr0)
                : key == SYSREG(3, 0, 2, 0, 1) ? F(ttbr1) : F(tcr);
        return true;
    case SYSREG(3, 0, 1, 0, 1): return RW_FIELD(actlr);
    case SYSREG(3, 0, 1, 0, 2): /* CPACR_EL1 */
        ra->rd = op_rd_field;
        ra->wr = op_wr_mode;
        ra->imm = F(cpacr);
        ra->end_block = true;
        return true;
    case SYSREG(3, 0, 4, 0, 0): return RW_FIELD(spsr);
    case SYSREG(3, 0, 4, 0, 1): return RW_FIELD(elr);
    case SYSREG(3, 0, 4, 1, 0): ra->rd = op_rd_sp_el0; ra->wr = op_wr_sp_el0; return true;
    case SYSREG(3, 0, 4, 2, 0): ra->rd = op_rd_spsel; ra->wr = op_wr_spsel; return true;
    case SYSREG(3, 0, 4, 2, 3): /* PAN */
        if (!cpu_feat_pan())
            return false;
        ra->rd = op_rd_pan;
        ra->wr = op_wr_pan;
        return true;
    case SYSREG(3, 0, 4, 2, 2): return RO_CONST((uint64_t)el << 2); /* CurrentEL */
    case SYSREG(3, 3, 4, 2, 1): ra->rd = op_rd_daif; ra->wr = op_wr_daif; return true;
    case SYSREG(3, 0, 5, 1, 0): return RW_FIELD(afsr0);
    case SYSREG(3, 0, 5, 1, 1): return RW_FIELD(afsr1);
    case SYSREG(3, 0, 5, 2, 0): return RW_FIELD(esr);
    case SYSREG(3, 0, 6, 0, 0): return RW_FIELD(far);
    case SYSREG(3, 0, 7, 4, 0): return RW_FIELD(par);
    case SYSREG(3, 0, 10, 2, 0): return RW_FIELD(mair);
    case SYSREG(3, 0, 10, 3, 0): return RW_FIELD(amair);
    case SYSREG(3, 0, 12, 0, 0): return RW_FIELD(vbar);
    case SYSREG(3, 0, 12, 1, 0): ra->rd = op_rd_isr; return true;
    case SYSREG(3, 0, 13, 0, 1): return RW_FIELD(contextidr);
    case SYSREG(3, 0, 13, 0, 4): return RW_FIELD(tpidr_el1);
    case SYSREG(3, 0, 14, 1, 0): return RW_FIELD(cntkctl);
    case SYSREG(3, 2, 0, 0, 0): return RW_FIELD(csselr);
    case SYSREG(3, 1, 0, 0, 0): ra->rd = op_rd_ccsidr; return true;
    case SYSREG(3, 1, 0, 0, 1): return RO_CONST(CLIDR_VALUE);
    case SYSREG(3, 1, 0, 0, 7): return RO_CONST(0); /* AIDR_EL1 */
    case SYSREG(3, 3, 14, 2, 0): ra->rd = op_rd_cnt_tval; ra->wr = op_wr_cnt_tval; ra->x = GT_PHYS; return true;
    case SYSREG(3, 3, 14, 2, 1): ra->rd = op_rd_cnt_ctl; ra->wr = op_wr_cnt_ctl; ra->x = GT_PHYS; return true;
    case SYSREG(3, 3, 14, 2, 2): ra->rd = op_rd_cnt_cval; ra->wr = op_wr_cnt_cval; ra->x = GT_PHYS; return true;
    case SYSREG(3, 3, 14, 3, 0): ra->rd = op_rd_cnt_tval; ra->wr = op_wr_cnt_tval; ra->x = GT_VIRT; return true;
    case SYSREG(3, 3, 14, 3, 1): ra->rd = op_rd_cnt_ctl; ra->wr = op_wr_cnt_ctl; ra->x = GT_VIRT; return true;
    case SYSREG(3, 3, 14, 3, 2): ra->rd = op_rd_cnt_cval; ra->wr = op_wr_cnt_cval; ra->x = GT_VIRT; return true;
    /* debug */
    case SYSREG(2, 0, 0, 2, 2): return RW_FIELD(mdscr);
    case SYSREG(2, 0, 0, 2, 0): return RW_FIELD(mdccint);
    case SYSREG(2, 0, 1, 3, 4): return RW_FIELD(osdlr);
    case SYSREG(2, 0, 1, 0, 4): ra->wr = op_wr_oslar; return true;  /* OSLAR_EL1, WO */
    case SYSREG(2, 0, 1, 1, 4): ra->rd = op_rd_oslsr; return true;  /* OSLSR_EL1, RO */
    }
    if (op0 == 2 && (op1 == 0 || op1 == 3)) {
        /* Other debug registers (DBGBVR/BCR/WVR/WCRn_EL1, MDRAR, DBGPRCR, CLAIM, ...): RAZ/WI. */
        ra->rd = op_rd_const;
        ra->wr = op_wr_ignore;
        ra->imm = 0;
        return true;
    }
    return false;
}

/* --debug sysreg: an UNDEF for a system register or instruction malibu lacks, logged when it
 * runs (a block may be translated past a branch that skips it: the kernel probes features
 * that way), then taken as the UNDEF exception. */
static Op *op_undef_sysreg(CPUState *c, Op *o)
{
    uint32_t insn = (uint32_t)o->imm;
    if (insn & (1u << 20)) { /* MRS / MSR */
        unsigned key = (insn >> 5) & 0xffff;
        fprintf(stderr, "malibu: %s of unknown/inaccessible sysreg S%u_%u_C%u_C%u_%u at EL%u pc=%llx\n",
                (insn >> 21) & 1 ? "MRS" : "MSR", key >> 14, (key >> 11) & 7, (key >> 7) & 15, (key >> 3) & 15,
                key & 7, sys_cpu(c)->el, (unsigned long long)o->pc);
    } else {
        fprintf(stderr, "malibu: unknown SYS #%u, C%u, C%u, #%u at pc=%llx\n", (insn >> 16) & 7, (insn >> 12) & 15,
                (insn >> 8) & 15, (insn >> 5) & 7, (unsigned long long)o->pc);
    }
    return op_raise(c, o);
}

static bool tr_undef_sysreg(DisasCtx *d, SysCPU *s)
{
    if (!(s->mach->debug & SYS_DEBUG_SYSREG))
        return tr_undef(d);
    tr_raise(d, EXC_UDEF, d->insn);
    d->ops[d->n_ops - 1].fn = op_undef_sysreg;
    return true;
}

static bool sys_mrs_msr(DisasCtx *d, uint32_t insn, SysCPU *s)
{
    bool read = (insn >> 21) & 1;
    unsigned key = (insn >> 5) & 0xffff; /* op0[1]=1: o0:op1:CRn:CRm:op2 with op0 = 2 + o0 */
    unsigned rt = insn & 31;
    RegAccess ra;
    if (!sysreg(s, key, s->el, &ra) || (read ? !ra.rd : !ra.wr))
        return tr_undef_sysreg(d, s);
    Op *o = tr_emit(d, read ? ra.rd : ra.wr);
    o->imm = ra.imm;
    o->x = ra.x;
    if (read)
        o->d = xzr_dst((int)rt);
    else
        o->n = xzr_src((int)rt);
    if (read ? ra.end_block_rd : ra.end_block)
        d->end_block = true;
    return true;
}

/* ---- SYS: cache maintenance, AT, TLBI ------------------------------------------------------ */

static Op *op_dc_zva(CPUState *c, Op *o)
{
    uint64_t addr = c->x[o->n] & ~(uint64_t)(ZVA_BYTES - 1);
    memset(mem_host(c, o, addr, ZVA_BYTES, true), 0, ZVA_BYTES);
    return op_next(c, o);
}

/* IC IVAU: the page may hold code written by a device (DMA does not go through the store slow
 * path that catches CPU writes to code pages). */
static Op *op_ic_ivau(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    MmuResult r;
    if (mmu_translate(s, c->x[o->n], s->el, MMU_READ, &r))
        sys_code_modified(s, r.pa);
    return op_next(c, o);
}

static Op *op_ic_iallu(CPUState *c, Op *o)
{
    sys_code_modified_all(sys_cpu(c));
    return op_next(c, o);
}

/* x = 1: the Inner Shareable (broadcast) form: the other CPUs invalidate too. */
static Op *op_tlbi(CPUState *c, Op *o)
{
    sys_cpu(c)->n_tlbi++;
    sys_tlb_flush(sys_cpu(c));
    if (o->x)
        sys_tlbi_broadcast(sys_cpu(c), true, 0);
    return op_next(c, o);
}

/* TLBI VAE1/VALE1/VAAE1/VAALE1(IS): Xt[43:0] = VA[55:12] (ASID in [63:48] ignored: the TLB
 * is not ASID-tagged and is flushed on TTBR writes). */
static Op *op_tlbi_va(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    uint64_t v = c->x[o->n];
    uint64_t va = (v & 0xFFFFFFFFFFFull) << 12;
    if (va & (1ull << 55))
        va |= 0xFF00000000000000ull;
    s->n_tlbi++;
    sys_tlb_flush_va(s, va);
    if (o->x)
        sys_tlbi_broadcast(s, false, va);
    return op_next(c, o);
}

static Op *op_at(CPUState *c, Op *o)
{
    sys_at(sys_cpu(c), c->x[o->n], (unsigned)(o->x >> 1), o->x & 1);
    return op_next(c, o);
}

static bool sys_sys(DisasCtx *d, uint32_t insn, SysCPU *s)
{
    bool l = (insn >> 21) & 1;
    unsigned op1 = (insn >> 16) & 7, crn = (insn >> 12) & 15, crm = (insn >> 8) & 15,
             op2 = (insn >> 5) & 7, rt = insn & 31;
    if (l)
        return tr_undef(d); /* SYSL: nothing allocated */
    unsigned key = SYSREG(1, op1, crn, crm, op2);
    switch (key) {
    case SYSREG(1, 3, 7, 4, 1): { /* DC ZVA */
        if (s->el == 0 && !(s->sctlr & SCTLR_DZE))
            return tr_undef(d);
        Op *o = tr_emit(d, op_dc_zva);
        o->n = xzr_src((int)rt);
        return true;
    }
    case SYSREG(1, 3, 7, 5, 1): { /* IC IVAU */
        if (s->el == 0 && !(s->sctlr & SCTLR_UCI))
            return tr_undef(d);
        Op *o = tr_emit(d, op_ic_ivau);
        o->n = xzr_src((int)rt);
        return true;
    }
    case SYSREG(1, 3, 7, 10, 1): /* DC CVAC */
    case SYSREG(1, 3, 7, 11, 1): /* DC CVAU */
    case SYSREG(1, 3, 7, 14, 1): /* DC CIVAC */
        /* Code writes are caught by the store slow path; the host is coherent. */
        if (s->el == 0 && !(s->sctlr & SCTLR_UCI))
            return tr_undef(d);
        return true;
    }
    if (s->el == 0)
        return tr_undef(d);
    if (op1 == 0 && crn == 7) {
        switch (crm * 8 + op2) {
        case 1 * 8 + 0: /* IC IALLUIS */
        case 5 * 8 + 0: /* IC IALLU */
            tr_emit(d, op_ic_iallu);
            return true;
        case 6 * 8 + 1: /* DC IVAC */
        case 6 * 8 + 2: /* DC ISW */
        case 10 * 8 + 2: /* DC CSW */
        case 14 * 8 + 2: /* DC CISW */
            return true;
        case 8 * 8 + 0: case 8 * 8 + 1: case 8 * 8 + 2: case 8 * 8 + 3: { /* AT S1E1R/W, S1E0R/W */
            Op *o = tr_emit(d, op_at);
            o->n = xzr_src((int)rt);
            o->x = ((op2 & 2) ? 0u : 2u) | (op2 & 1); /* el << 1 | write */
            return true;
        }
        }
    }
    if (op1 == 0 && crn == 8 && (crm == 3 || crm == 7)) {
        switch (op2) {
        case 0: case 2: /* VMALLE1, ASIDE1 */
            tr_emit(d, op_tlbi)->x = crm == 3;
            return true;
        case 1: case 3: case 5: case 7: { /* VAE1, VAAE1, VALE1, VAALE1 */
            Op *o = tr_emit(d, op_tlbi_va);
            o->n = xzr_src((int)rt);
            o->x = crm == 3;
            return true;
        }
        }
    }
    return tr_undef_sysreg(d, s);
}

/* ---- exception return, firmware calls, WFI ------------------------------------------------- */

static Op *op_eret(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    uint64_t spsr = s->spsr;
    unsigned m = spsr & 0x1f;
    sys_pmu_el_change(&s->pmu, s->el, c->insn_count);
    sys_sp_save(s);
    if (m == 0x0) {          /* EL0t */
        s->el = 0;
        s->spsel = 0;
    } else if (m == 0x4 || m == 0x5) { /* EL1t / EL1h */
        s->el = 1;
        s->spsel = m & 1;
    } /* else: illegal return (EL2/EL3/AArch32): stay at EL1 (PSTATE.IL not modelled) */
    s->daif = (uint32_t)spsr & 0x3c0;
    if (cpu_feat_pan())
        sys_set_pan(s, (spsr & PSTATE_PAN) != 0);
    cpu_set_nzcv(c, (uint32_t)spsr);
    sys_sp_load(s);
    sys_update_mode(s);
    c->excl_size = 0;
    c->pc = s->elr;
    if (unlikely(timeline_on))
        timeline_cpu_eret(s->index);
    check_unmask(s);
    (void)o;
    return NULL;
}

static Op *op_sys_exit(CPUState *c, Op *o)
{
    c->pc = o->pc + 4;
    c->exception = (CpuException)o->x;
    return NULL;
}

static Op *op_sevl(CPUState *c, Op *o) { sys_cpu(c)->event = true; return op_next(c, o); }

/* SEV: every CPU's event register, and wake the ones sleeping in WFE. */
static Op *op_sev(CPUState *c, Op *o)
{
    SysMachine *m = sys_cpu(c)->mach;
    sys_cpu(c)->event = true;
    for (unsigned i = 0; i < m->ncpu; i++) {
        SysCPU *t = m->cpus[i];
        if (t && t != sys_cpu(c)) {
            __atomic_store_n(&t->event, true, __ATOMIC_RELEASE);
            if (m->kick)
                m->kick(t);
        }
    }
    return op_next(c, o);
}

static void emit_exit(DisasCtx *d, CpuException e)
{
    Op *o = tr_emit(d, op_sys_exit);
    o->x = (uint32_t)e;
    d->end_block = true;
}

/* FP/SIMD instruction classes: data processing (op0 = x111), loads/stores with V = 1, and
 * MRS/MSR of FPCR/FPSR. */
static bool is_fp_insn(uint32_t insn)
{
    if ((insn & 0x0E000000u) == 0x0E000000u)
        return true;
    if ((insn & 0x0A000000u) == 0x08000000u && (insn & 0x04000000u))
        return true;
    return (insn & 0xFFDFFFC0u) == 0xD51B4400u; /* MRS/MSR FPCR (op2 0) / FPSR (op2 1) */
}

bool sys_translate_insn(DisasCtx *d, uint32_t insn)
{
    SysCPU *s = sys_cpu(d->cpu);
    if (unlikely(s->tb_flags & SYS_TBF_FPTRAP) && is_fp_insn(insn)) {
        Op *o = tr_emit(d, op_sync_exc);
        o->imm = (0x07u << 26) | (1u << 25); /* FP/SIMD access trap (CPACR_EL1.FPEN) */
        d->end_block = true;
        return true;
    }
    if ((insn & 0xFFD00000u) == 0xD5100000u) /* MRS / MSR (register) */
        return sys_mrs_msr(d, insn, s);
    if ((insn & 0xFFD80000u) == 0xD5080000u) /* SYS / SYSL */
        return sys_sys(d, insn, s);
    if ((insn & 0xFFF8F01Fu) == 0xD500401Fu) { /* MSR (immediate) */
        unsigned op1 = (insn >> 16) & 7, op2 = (insn >> 5) & 7, crm = (insn >> 8) & 15;
        if (s->el == 0)
            return tr_undef(d);
        Op *o;
        if (op1 == 0 && op2 == 5) {
            o = tr_emit(d, op_spsel_imm);
        } else if (op1 == 0 && op2 == 4 && cpu_feat_pan()) {
            o = tr_emit(d, op_pan_imm);
        } else if (op1 == 3 && op2 == 6) {
            o = tr_emit(d, op_daifset);
            crm <<= 6;
        } else if (op1 == 3 && op2 == 7) {
            o = tr_emit(d, op_daifclr);
            crm <<= 6;
        } else {
            return tr_undef(d);
        }
        o->imm = crm;
        return true;
    }
    if (insn == 0xD69F03E0u) { /* ERET */
        if (s->el == 0)
            return tr_undef(d);
        tr_emit(d, op_eret);
        d->end_block = true;
        return true;
    }
    if ((insn & 0xFFE0001Cu) == 0xD4000000u && (insn & 3) >= 2) { /* HVC / SMC */
        bool smc = (insn & 3) == 3;
        if (s->el == 0 || ((insn >> 5) & 0xffff) != 0 || smc != s->mach->psci_smc)
            return tr_undef(d); /* no EL2/EL3: only the DT's PSCI conduit is a firmware call */
        emit_exit(d, (insn & 3) == 2 ? EXC_SYS_HVC : EXC_SYS_SMC);
        return true;
    }
    if ((insn & SYS_CHAN_MASK) == SYS_CHAN_BASE) /* the guest channel (sys_chan.h) */
        return sys_chan_translate(d, insn);
    switch (insn) {
    case 0xD503207Fu: emit_exit(d, EXC_SYS_WFI); return true; /* WFI */
    case 0xD503205Fu: emit_exit(d, EXC_SYS_WFE); return true; /* WFE */
    case 0xD503209Fu: /* SEV */
        tr_emit(d, op_sev);
        return true;
    case 0xD50320BFu: /* SEVL */
        tr_emit(d, op_sevl);
        return true;
    }
    return false;
}

/* ---- description for the native back end (native.h) ------------------------------------- */
#if MALIBU_HAVE_NATIVE
static void describe_sys_reg_handlers(void)
{
    native_bind(op_rd_field, (NativeDesc){ .kind = NK_CPU_FIELD, .op = 0, .sub = NCF_IMM });
    native_bind(op_wr_field, (NativeDesc){ .kind = NK_CPU_FIELD, .op = 1, .sub = NCF_IMM });
    native_bind(op_rd_tpidr0, (NativeDesc){ .kind = NK_CPU_FIELD, .op = 0, .sub = NCF_TPIDR_EL0 });
    native_bind(op_wr_tpidr0, (NativeDesc){ .kind = NK_CPU_FIELD, .op = 1, .sub = NCF_TPIDR_EL0 });
    native_bind(op_rd_tpidrro, (NativeDesc){ .kind = NK_CPU_FIELD, .op = 0, .sub = NCF_TPIDRRO_EL0 });
    native_bind(op_wr_tpidrro, (NativeDesc){ .kind = NK_CPU_FIELD, .op = 1, .sub = NCF_TPIDRRO_EL0 });
    native_bind(op_rd_sp_el0, (NativeDesc){ .kind = NK_CPU_FIELD, .op = 0, .sub = NCF_SP_EL0 });
    native_bind(op_wr_sp_el0, (NativeDesc){ .kind = NK_CPU_FIELD, .op = 1, .sub = NCF_SP_EL0 });
    native_bind(op_unpriv_begin, (NativeDesc){ .kind = NK_CPU_FIELD, .op = 0, .sub = NCF_UNPRIV });
    native_bind(op_unpriv_end, (NativeDesc){ .kind = NK_CPU_FIELD, .op = 1, .sub = NCF_UNPRIV });
    native_bind(op_dc_zva, (NativeDesc){ .kind = NK_DC_ZVA, .size = (uint8_t)__builtin_ctz(ZVA_BYTES) });
}
NATIVE_DESCRIBER(describe_sys_reg_handlers)
#endif
