/* Arm PrimeCell PL031 real-time clock: a seconds counter that follows host wall-clock time
 * (CLOCK_REALTIME) plus a guest-set offset (writes to RTCLR), the match/alarm interrupt on one GIC
 * SPI (level), and the PrimeCell IDs (PeriphID 0x00141031).  Thread-safe. */
#ifndef MALIBU_DEVICES_PL031_H
#define MALIBU_DEVICES_PL031_H

#include "bus.h"
#include "gic400.h"
#include "../emu/checkpoint/ckpt.h"

typedef struct Pl031 Pl031;

Pl031 *pl031_new(Gic *gic, unsigned irq);
void pl031_free(Pl031 *r);
void pl031_reset(Pl031 *r);
/* The wall clock comes from now_ns (ns since 1970) instead of CLOCK_REALTIME: --clock icount
 * gives it a fixed epoch + guest time.  The alarm still waits in host time (a guest that sets
 * one is not reproducible under icount). */
void pl031_set_clock(Pl031 *r, uint64_t (*now_ns)(void *opaque), void *opaque);

/* Checkpoint section "pl031": the counter's value at the save, the guest's offset, MR, IMSC, RIS
 * and whether the clock followed guest time (--clock icount).  On load the counter goes on from
 * the saved value: with icount on both sides the offset is kept as it was (the guest clock itself
 * is restored, so the counter matches to the nanosecond); otherwise the offset is set so that the
 * counter reads the saved value now (the seconds between the save and the load do not pass for
 * the guest).  The alarm is re-armed and the interrupt line re-driven. */
#define PL031_CKPT_VERSION 1
void pl031_ckpt_save(Pl031 *r, CkptWriter *w);
bool pl031_ckpt_load(Pl031 *r, CkptReader *rd);

extern const MmioOps pl031_ops; /* opaque = Pl031 *, 0x1000 bytes */

#endif
