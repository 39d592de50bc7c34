/* Arm PrimeCell PL031 real-time clock: a seconds counter that follows host wall-clock time
 * (CLOCK_REALTIME) plus a guest-set offset (writes to RTCLR), the match/alarm interrupt on one GIC
 * SPI (level), and the PrimeCell IDs (PeriphID 0x00141031).  Thread-safe. */
#ifndef MALIBU_DEVICES_PL031_H
#define MALIBU_DEVICES_PL031_H

#include "bus.h"
#include "gic400.h"

typedef struct Pl031 Pl031;

Pl031 *pl031_new(Gic *gic, unsigned irq);
void pl031_free(Pl031 *r);
void pl031_reset(Pl031 *r);

extern const MmioOps pl031_ops; /* opaque = Pl031 *, 0x1000 bytes */

#endif
