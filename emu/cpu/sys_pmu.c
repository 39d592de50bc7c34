/* PMUv3 of a vCPU (sys_pmu.h). */
#include "sys_pmu.h"

#include <string.h>
#include "translate.h"
#include "sys_cpu.h"
#include "../../devices/gic400.h"

#define SYSREG(op0, op1, crn, crm, op2) \
    (((op0) << 14) | ((op1) << 11) | ((crn) << 7) | ((crm) << 3) | (op2))

enum { PMCR_E = 1, PMCR_P = 2, PMCR_C = 4, PMCR_D = 8, PMCR_X = 16, PMCR_DP = 32, PMCR_LC = 64 };
#define PMCR_WRITABLE (PMCR_E | PMCR_D | PMCR_X | PMCR_DP | PMCR_LC)
#define PMCR_ID 0x41010000u  /* IMP Arm, IDCODE 1 (Cortex-A57); N added on read */
enum { FILT_P = 1u << 31, FILT_U = 1u << 30 };
#define EVTYPER_MASK 0xFC0003FFu /* P U NSK NSU NSH M, evtCount[9:0] */
#define CCFILTR_MASK 0xFC000000u
enum { EV_SW_INCR = 0x00, EV_INST_RETIRED = 0x08, EV_CPU_CYCLES = 0x11 };
#define PMCEID0_VALUE ((1u << EV_SW_INCR) | (1u << EV_INST_RETIRED) | (1u << EV_CPU_CYCLES))
#define COUNTERS_MASK (((1u << SYS_PMU_N) - 1) | (1u << SYS_PMU_CYCLE))
enum { UEN_EN = 1, UEN_SW = 2, UEN_CR = 4, UEN_ER = 8 };

/* Register ids (Op.x): PMEVCNTRn / PMEVTYPERn are R_EVCNTR0 + n / R_EVTYPER0 + n. */
enum {
    R_PMCR, R_CNTENSET, R_CNTENCLR, R_OVSCLR, R_SWINC, R_SELR, R_CEID0, R_CEID1, R_CCNTR,
    R_XEVTYPER, R_XEVCNTR, R_USERENR, R_INTENSET, R_INTENCLR, R_OVSSET, R_CCFILTR,
    R_EVCNTR0 = 32, R_EVTYPER0 = 64,
};

/* Instructions retired at el up to insn count now. */
static uint64_t el_events(const SysCPU *s, unsigned el, uint64_t now)
{
    const SysPmu *p = &s->pmu;
    return p->el_insns[el] + (s->el == el ? now - p->mark : 0);
}

static uint32_t filter_of(const SysPmu *p, unsigned i)
{
    return i == SYS_PMU_CYCLE ? p->ccfiltr : p->evtyper[i];
}

/* Counter i's event count (in its own units) at now, whether or not it counts. */
static uint64_t events(const SysCPU *s, unsigned i, uint64_t now)
{
    uint32_t f = filter_of(&s->pmu, i);
    uint64_t e = (f & FILT_P ? 0 : el_events(s, 1, now)) + (f & FILT_U ? 0 : el_events(s, 0, now));
    if (i == SYS_PMU_CYCLE && (s->pmu.pmcr & PMCR_D))
        e >>= 6;
    return e;
}

static bool counts_insns(const SysPmu *p, unsigned i)
{
    if (!(p->pmcr & PMCR_E) || !(p->cnten & (1u << i)))
        return false;
    if (i == SYS_PMU_CYCLE)
        return true;
    unsigned ev = p->evtyper[i] & 0x3ff;
    return ev == EV_INST_RETIRED || ev == EV_CPU_CYCLES;
}

static void update_irq(SysCPU *s)
{
    SysPmu *p = &s->pmu;
    bool level = (p->pmcr & PMCR_E) && (p->ovs & p->inten);
    if (level != p->irq) {
        p->irq = level;
        gic_set_ppi(s->mach->gic, s->index, GIC_PPI_PMU, level);
    }
}

/* Add delta to counter i's stored value, setting its overflow flag on a wrap. */
static void add(SysPmu *p, unsigned i, uint64_t delta)
{
    uint64_t v = p->val[i];
    bool wide = i == SYS_PMU_CYCLE;
    bool lc64 = wide && (p->pmcr & PMCR_LC);
    if (lc64 ? v + delta < v : delta > 0xFFFFFFFFull - (uint32_t)v)
        p->ovs |= 1u << i;
    v += delta;
    p->val[i] = wide ? v : (uint32_t)v;
}

/* Fold what each counter counted up to now into its value (and its overflow flag). */
static void fold(SysCPU *s, uint64_t now)
{
    SysPmu *p = &s->pmu;
    for (unsigned i = 0; i < 32; i++) {
        if (!(COUNTERS_MASK & (1u << i)))
            continue;
        if (counts_insns(p, i))
            add(p, i, events(s, i, now) - p->snap[i]);
        p->snap[i] = events(s, i, now);
    }
}

/* After a change of what the counters count: start each one afresh at now. */
static void resnap(SysCPU *s, uint64_t now)
{
    for (unsigned i = 0; i < 32; i++)
        if (COUNTERS_MASK & (1u << i))
            s->pmu.snap[i] = events(s, i, now);
    update_irq(s);
}

void sys_pmu_reset(SysCPU *s)
{
    SysPmu *p = &s->pmu;
    bool irq = p->irq;
    memset(p, 0, sizeof *p);
    p->mark = s->cpu.insn_count;
    p->irq = irq;
    if (s->mach)
        update_irq(s);
}

void sys_pmu_poll(SysCPU *s)
{
    fold(s, s->cpu.insn_count);
    update_irq(s);
}

/* EL0 access allowed by PMUSERENR_EL0? */
static bool el0_allowed(const SysPmu *p, unsigned id, bool read)
{
    if (id == R_USERENR)
        return read;
    if (p->userenr & UEN_EN)
        return true;
    switch (id) {
    case R_SWINC: return (p->userenr & UEN_SW) != 0;
    case R_CCNTR: return read && (p->userenr & UEN_CR);
    case R_SELR: return (p->userenr & UEN_ER) != 0;
    case R_XEVCNTR: return read && (p->userenr & UEN_ER);
    default: return id >= R_EVCNTR0 && id < R_EVCNTR0 + SYS_PMU_N && read && (p->userenr & UEN_ER);
    }
}

static uint64_t pmu_read(SysCPU *s, unsigned id, uint64_t now)
{
    SysPmu *p = &s->pmu;
    fold(s, now);
    update_irq(s);
    if (id == R_XEVTYPER)
        id = p->selr == SYS_PMU_CYCLE ? R_CCFILTR : R_EVTYPER0 + p->selr;
    if (id == R_XEVCNTR)
        id = R_EVCNTR0 + p->selr;
    switch (id) {
    case R_PMCR: return PMCR_ID | (SYS_PMU_N << 11) | p->pmcr;
    case R_CNTENSET: case R_CNTENCLR: return p->cnten;
    case R_INTENSET: case R_INTENCLR: return p->inten;
    case R_OVSSET: case R_OVSCLR: return p->ovs;
    case R_SELR: return p->selr;
    case R_CEID0: return PMCEID0_VALUE;
    case R_CEID1: return 0;
    case R_CCNTR: return p->val[SYS_PMU_CYCLE];
    case R_USERENR: return p->userenr;
    case R_CCFILTR: return p->ccfiltr;
    case R_SWINC: return 0;
    }
    if (id >= R_EVCNTR0 && id < R_EVCNTR0 + SYS_PMU_N)
        return p->val[id - R_EVCNTR0];
    if (id >= R_EVTYPER0 && id < R_EVTYPER0 + SYS_PMU_N)
        return p->evtyper[id - R_EVTYPER0];
    return 0; /* PMSELR names no counter: RAZ */
}

static void pmu_write(SysCPU *s, unsigned id, uint64_t v, uint64_t now)
{
    SysPmu *p = &s->pmu;
    fold(s, now);
    if (id == R_XEVTYPER)
        id = p->selr == SYS_PMU_CYCLE ? R_CCFILTR : R_EVTYPER0 + p->selr;
    if (id == R_XEVCNTR)
        id = R_EVCNTR0 + p->selr;
    switch (id) {
    case R_PMCR:
        p->pmcr = (uint32_t)v & PMCR_WRITABLE;
        if (v & PMCR_P)
            for (unsigned i = 0; i < SYS_PMU_N; i++)
                p->val[i] = 0;
        if (v & PMCR_C)
            p->val[SYS_PMU_CYCLE] = 0;
        break;
    case R_CNTENSET: p->cnten |= (uint32_t)v & COUNTERS_MASK; break;
    case R_CNTENCLR: p->cnten &= ~((uint32_t)v & COUNTERS_MASK); break;
    case R_INTENSET: p->inten |= (uint32_t)v & COUNTERS_MASK; break;
    case R_INTENCLR: p->inten &= ~((uint32_t)v & COUNTERS_MASK); break;
    case R_OVSSET: p->ovs |= (uint32_t)v & COUNTERS_MASK; break;
    case R_OVSCLR: p->ovs &= ~((uint32_t)v & COUNTERS_MASK); break;
    case R_SELR: p->selr = (uint32_t)v & 0x1f; break;
    case R_USERENR: p->userenr = (uint32_t)v & 0xf; break;
    case R_CCFILTR: p->ccfiltr = (uint32_t)v & CCFILTR_MASK; break;
    case R_CCNTR: p->val[SYS_PMU_CYCLE] = v; break;
    case R_SWINC:
        for (unsigned i = 0; i < SYS_PMU_N; i++)
            if ((v & (1u << i)) && (p->pmcr & PMCR_E) && (p->cnten & (1u << i)) &&
                (p->evtyper[i] & 0x3ff) == EV_SW_INCR)
                add(p, i, 1);
        break;
    default:
        if (id >= R_EVCNTR0 && id < R_EVCNTR0 + SYS_PMU_N)
            p->val[id - R_EVCNTR0] = (uint32_t)v;
        else if (id >= R_EVTYPER0 && id < R_EVTYPER0 + SYS_PMU_N)
            p->evtyper[id - R_EVTYPER0] = (uint32_t)v & EVTYPER_MASK;
        break; /* else PMSELR names no counter: WI */
    }
    resnap(s, now);
}

/* An access ends its block (the op is the block's last instruction): insn_count - 1 instructions
 * came before it.  Op.imm: the EL it was translated for. */
static Op *pmu_undef(CPUState *c, Op *o)
{
    sys_cpu(c)->pend_esr = 1u << 25; /* EC 0 (unknown), IL */
    c->pc = o->pc;
    c->exception = EXC_SYS_SYNC;
    return NULL;
}

static Op *op_pmu_rd(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    if (o->imm == 0 && !el0_allowed(&s->pmu, o->x, true))
        return pmu_undef(c, o);
    c->x[o->d] = pmu_read(s, o->x, c->insn_count - 1);
    c->pc = o->pc + 4;
    return NULL;
}

static Op *op_pmu_wr(CPUState *c, Op *o)
{
    SysCPU *s = sys_cpu(c);
    if (o->imm == 0 && !el0_allowed(&s->pmu, o->x, false))
        return pmu_undef(c, o);
    pmu_write(s, o->x, c->x[o->n], c->insn_count - 1);
    c->pc = o->pc + 4;
    return NULL;
}

bool sys_pmu_sysreg(unsigned key, unsigned el, SysPmuOpFn *rd, SysPmuOpFn *wr, uint32_t *x)
{
    static const struct { unsigned key; uint8_t id, ro, wo, el1; } regs[] = {
        { SYSREG(3, 3, 9, 12, 0), R_PMCR, 0, 0, 0 },
        { SYSREG(3, 3, 9, 12, 1), R_CNTENSET, 0, 0, 0 },
        { SYSREG(3, 3, 9, 12, 2), R_CNTENCLR, 0, 0, 0 },
        { SYSREG(3, 3, 9, 12, 3), R_OVSCLR, 0, 0, 0 },
        { SYSREG(3, 3, 9, 12, 4), R_SWINC, 0, 1, 0 },
        { SYSREG(3, 3, 9, 12, 5), R_SELR, 0, 0, 0 },
        { SYSREG(3, 3, 9, 12, 6), R_CEID0, 1, 0, 0 },
        { SYSREG(3, 3, 9, 12, 7), R_CEID1, 1, 0, 0 },
        { SYSREG(3, 3, 9, 13, 0), R_CCNTR, 0, 0, 0 },
        { SYSREG(3, 3, 9, 13, 1), R_XEVTYPER, 0, 0, 0 },
        { SYSREG(3, 3, 9, 13, 2), R_XEVCNTR, 0, 0, 0 },
        { SYSREG(3, 3, 9, 14, 0), R_USERENR, 0, 0, 0 },
        { SYSREG(3, 0, 9, 14, 1), R_INTENSET, 0, 0, 1 },
        { SYSREG(3, 0, 9, 14, 2), R_INTENCLR, 0, 0, 1 },
        { SYSREG(3, 3, 9, 14, 3), R_OVSSET, 0, 0, 0 },
        { SYSREG(3, 3, 14, 15, 7), R_CCFILTR, 0, 0, 0 },
    };
    unsigned id = 0;
    bool ro = false, wo = false, el1 = false, found = false;
    for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++)
        if (regs[i].key == key) {
            id = regs[i].id, ro = regs[i].ro, wo = regs[i].wo, el1 = regs[i].el1;
            found = true;
        }
    if (!found) {
        /* PMEVCNTRn_EL0: 3,3,14,8+n/8,n%8; PMEVTYPERn_EL0: 3,3,14,12+n/8,n%8 (n < 31) */
        unsigned op1 = (key >> 11) & 7, crn = (key >> 7) & 15, crm = (key >> 3) & 15, n = ((crm & 3) << 3) | (key & 7);
        if (key >> 14 != 3 || op1 != 3 || crn != 14 || crm < 8 || n >= SYS_PMU_N)
            return false; /* counters beyond PMCR.N: UNDEFINED */
        id = (crm < 12 ? R_EVCNTR0 : R_EVTYPER0) + n;
    }
    if (el1 && el == 0)
        return false;
    *rd = wo ? NULL : op_pmu_rd;
    *wr = ro || (id == R_USERENR && el == 0) ? NULL : op_pmu_wr;
    *x = id;
    return true;
}
