/* Arm GIC-400 (GICv2) distributor + CPU interfaces, modelled without the Security Extensions
 * (the view Linux gets when it boots at non-secure EL1 with no EL3): interrupts are group 0 by
 * default and signalled as IRQ (as FIQ only when GICC_CTLR.FIQEn=1); group 1 exists through
 * GICD_IGROUPR and GICC_CTLR.EnableGrp1/AckCtl.  EOImode 0 and 1 (GICC_DIR) are both supported.
 * 256 interrupt IDs (ITLinesNumber 7), up to GIC_MAX_CPUS CPU interfaces, 32 priority levels
 * (priority bits [7:3], as GIC-400).
 *
 * Register windows: distributor 4 KB (gic_dist_ops), CPU interface 8 KB (gic_cpu_ops, GICC_DIR
 * at 0x1000).  Banked registers (SGI/PPI state, the whole CPU interface) depend on which CPU makes
 * the access; the bus does not carry that, so each vCPU thread calls gic_set_current_cpu(n) once
 * (a thread-local; a runtime that runs several vCPUs on one thread calls it when it switches).
 * Threads that never set it (tests, device threads) access as CPU 0.
 *
 * Outputs: one IRQ and one FIQ line per CPU, reported through GicOutputFn whenever a line
 * changes level.  The callback runs with the GIC lock held, from whichever thread changed the GIC
 * state (a vCPU, the timer service, a device thread): it must only record the level and kick the
 * CPU (set a flag + exit_request, wake a WFI sleeper) and must not call back into the GIC.
 * gic_irq_line()/gic_fiq_line() return the current levels lock-free at any time. */
#ifndef MALIBU_DEVICES_GIC400_H
#define MALIBU_DEVICES_GIC400_H

#include <stdbool.h>
#include <stdint.h>
#include "bus.h"
#include "../emu/checkpoint/ckpt.h"

#define GIC_MAX_CPUS 8
#define GIC_NUM_IRQS 256 /* IDs 0..255: SGI 0-15, PPI 16-31, SPI 32-255 */
#define GIC_SPURIOUS 1023

/* INTIDs of the private peripheral interrupts used on this board. */
#define GIC_PPI_PMU 23 /* PMUv3 overflow (emu/cpu/sys_pmu.c) */
#define GIC_PPI_MAINT 25
#define GIC_PPI_HYP_TIMER 26
#define GIC_PPI_VIRT_TIMER 27
#define GIC_PPI_SEC_PHYS_TIMER 29
#define GIC_PPI_PHYS_TIMER 30

typedef struct Gic Gic;
typedef void (*GicOutputFn)(void *opaque, unsigned cpu, bool irq, bool fiq);

Gic *gic_new(unsigned ncpu, GicOutputFn out, void *opaque);
void gic_free(Gic *g);
void gic_reset(Gic *g);

extern const MmioOps gic_dist_ops; /* opaque = Gic *, 0x1000 bytes */
extern const MmioOps gic_cpu_ops;  /* opaque = Gic *, 0x2000 bytes */

/* Which CPU interface the calling thread's accesses use (thread-local; default 0). */
void gic_set_current_cpu(unsigned cpu);
unsigned gic_current_cpu(void);

/* Drive an interrupt input.  SPIs: irq 32..255, cpu ignored.  PPIs: irq 16..31 on CPU cpu.
 * level-sensitive interrupts follow the level; edge-triggered ones latch pending on 0->1.
 * Out-of-range numbers are ignored. */
void gic_set_irq(Gic *g, unsigned irq, unsigned cpu, bool level);
static inline void gic_set_spi(Gic *g, unsigned spi_intid, bool level)
{
    gic_set_irq(g, spi_intid, 0, level);
}
static inline void gic_set_ppi(Gic *g, unsigned cpu, unsigned ppi_intid, bool level)
{
    gic_set_irq(g, ppi_intid, cpu, level);
}

bool gic_irq_line(Gic *g, unsigned cpu);
bool gic_fiq_line(Gic *g, unsigned cpu);

/* Direct register access as a given CPU (tests, debugging): offsets within the windows. */
uint32_t gic_dist_read(Gic *g, unsigned cpu, uint64_t off, unsigned size);
void gic_dist_write(Gic *g, unsigned cpu, uint64_t off, uint32_t val, unsigned size);
uint32_t gic_cpu_read(Gic *g, unsigned cpu, uint64_t off, unsigned size);
void gic_cpu_write(Gic *g, unsigned cpu, uint64_t off, uint32_t val, unsigned size);

/* Checkpoint (docs/checkpoint.md): section "gic", the distributor, every interrupt's state, the
 * CPU interfaces.  Loading into a GIC of the same CPU count re-drives the output lines. */
#define GIC_CKPT_VERSION 1
void gic_ckpt_save(Gic *g, CkptWriter *w);
bool gic_ckpt_load(Gic *g, CkptReader *r);

#endif
