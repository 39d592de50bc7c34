/* PMUv3 (Armv8.0, as a Cortex-A57 has it) of one vCPU: SYS_PMU_N event counters and the cycle
 * counter, the registers Linux's arm_pmuv3 driver uses, the overflow interrupt on PPI 23 (GIC_PPI_PMU).
 *
 * Events: SW_INCR (0x00), INST_RETIRED (0x08), CPU_CYCLES (0x11); PMCEID0 lists exactly these.
 * A cycle is one instruction (the CPU has no cycle model of its own; --timing's CPU side feeds
 * cache lines, not cycles), so CPU_CYCLES and PMCCNTR count what INST_RETIRED counts, PMCCNTR
 * divided by 64 with PMCR.D.
 *
 * Counting is lazy: the CPU counts instructions per block (CPUState.insn_count, at block entry),
 * and the PMU keeps the instructions retired at EL0 and at EL1 (el_insns, folded at every EL
 * change).  A counter holds its value at its last change (val) and the filtered instruction count
 * then (snap); its current value is val + (filtered count now - snap) while it counts.  An access
 * to a PMU register ends its block, so the count it sees is exact to the instruction: every
 * instruction before the access, none after.  A block that faults midway counts whole.
 *
 * Overflow (a 32-bit event counter wrapping, PMCCNTR wrapping at bit 32 or, with PMCR.LC, 64) is
 * found at every PMU register access and every return to the run loop (exceptions, interrupts,
 * the timer tick), so the overflow interrupt comes at most one run-loop return late. */
#ifndef MALIBU_SYS_PMU_H
#define MALIBU_SYS_PMU_H

#include <stdbool.h>
#include <stdint.h>

#define SYS_PMU_N 6          /* event counters, as on a Cortex-A57 (PMCR_EL0.N) */
#define SYS_PMU_CYCLE 31     /* the cycle counter's index in the counter bit masks */

typedef struct SysPmu {
    uint32_t pmcr;           /* the writable bits: E, D, X, DP, LC */
    uint32_t cnten, inten, ovs; /* bit i: event counter i, bit 31: PMCCNTR */
    uint32_t selr, userenr, ccfiltr;
    uint32_t evtyper[SYS_PMU_N];
    uint64_t val[32];        /* counter values at their last change (0..N-1, 31) */
    uint64_t snap[32];       /* filtered event counts at that change */
    uint64_t el_insns[2];    /* instructions retired at EL0 / EL1 up to mark */
    uint64_t mark;           /* insn_count at the last EL change */
    bool irq;                /* the level driven on the PPI */
} SysPmu;

struct SysCPU;
/* Reset state (counters disabled, PMCR.E = 0); the instruction marks start at insn_count. */
void sys_pmu_reset(struct SysCPU *s);
/* Before the EL changes: the instructions since the last change were retired at the old EL. */
static inline void sys_pmu_el_change(SysPmu *p, unsigned old_el, uint64_t insn_count)
{
    p->el_insns[old_el & 1] += insn_count - p->mark;
    p->mark = insn_count;
}
/* Run-loop check for overflows (only while PMCR.E is set). */
void sys_pmu_poll(struct SysCPU *s);

/* MRS/MSR of a PMU register (key = op0:op1:CRn:CRm:op2 as sys_translate.c packs it) at EL el:
 * false when key is not a PMU register or is never accessible at el (UNDEFINED); else the
 * handlers (NULL: that direction is UNDEFINED) and the register id for Op.x.  Both handlers end
 * the block. */
struct CPUState;
struct Op;
typedef struct Op *(*SysPmuOpFn)(struct CPUState *c, struct Op *o);
bool sys_pmu_sysreg(unsigned key, unsigned el, SysPmuOpFn *rd, SysPmuOpFn *wr, uint32_t *x);

#endif
