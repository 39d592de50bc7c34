/* A vCPU in a checkpoint (docs/checkpoint.md): section "cpu", instance = the vCPU's index.
 *
 * Saved: every architectural register the CPU keeps (X0-X30, SP and its banks, PC, NZCV, EL,
 * SPSel, DAIF, V0-V31, FPCR, FPSR, the EL1 and EL0 system registers, the exclusive monitor), the
 * WFE event register, the PMU (version 2: registers, counter values, the per-EL instruction counts), the power and wait state (powered off, PSCI CPU_SUSPEND wait, halted in
 * WFI by the round-robin loop), and the instruction count with the end of the current turn
 * (--clock icount counts guest time in instructions).  Not saved: the soft TLBs and translated
 * blocks (rebuilt: sys_cpu_ckpt_drop_caches), statistics, debugger state. */
#ifndef MALIBU_SYS_CKPT_H
#define MALIBU_SYS_CKPT_H

#include <stdbool.h>
#include "sys_cpu.h"
#include "../checkpoint/ckpt.h"

#define SYS_CPU_CKPT_VERSION 3 /* 2: the PMU (pmu.* fields); 3: PSTATE.PAN */

void sys_cpu_ckpt_save(SysCPU *s, CkptWriter *w);
/* Into a vCPU of this machine (s->index, s->mpidr set): every value checked, the derived state
 * (TLB regime, translation flags) recomputed and the caches dropped. */
bool sys_cpu_ckpt_load(SysCPU *s, CkptReader *r);
/* Drop the soft TLBs and the translated blocks: a loaded vCPU, and the saving run right after its
 * save, go on from the same (empty) caches. */
void sys_cpu_ckpt_drop_caches(SysCPU *s);

#endif
