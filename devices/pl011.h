/* Arm PrimeCell PL011 UART (r1p5 IDs, 16-byte FIFOs as Linux assumes for revision < 3), with the
 * registers Linux's amba-pl011 driver and earlycon use.  Transmit is instantaneous: each byte
 * written to DR goes to the tx callback (the host terminal), so TXFE=1 / TXFF=0 / BUSY=0 always,
 * and the modem inputs read as a connected terminal (CTS, DSR, DCD set; RI clear).  Any access
 * size up to 32 bits works (earlycon and the driver use 8/16-bit accesses).
 * Receive: another thread (the console reader) pushes bytes with pl011_receive.  Interrupts
 * (RX, RX timeout, TX, overrun) drive one GIC SPI, level-sensitive.  Thread-safe. */
#ifndef MALIBU_DEVICES_PL011_H
#define MALIBU_DEVICES_PL011_H

#include <stdint.h>
#include "bus.h"
#include "gic400.h"
#include "../emu/checkpoint/ckpt.h"

#define PL011_FIFO_DEPTH 16

typedef struct Pl011 Pl011;
typedef void (*Pl011TxFn)(void *opaque, uint8_t ch);

/* irq: GIC INTID (SPI) of the UART interrupt, gic may be NULL (no interrupt).  tx may be NULL
 * (output discarded). */
Pl011 *pl011_new(Gic *gic, unsigned irq, Pl011TxFn tx, void *tx_opaque);
void pl011_free(Pl011 *u);
void pl011_reset(Pl011 *u);

extern const MmioOps pl011_ops; /* opaque = Pl011 *, 0x1000 bytes */

/* Queue received bytes; returns how many fit in the RX FIFO (0 when full). */
int pl011_receive(Pl011 *u, const uint8_t *buf, int len);
/* int-returning wrapper with a void * for console_set_rx. */
int pl011_receive_cb(void *u, const uint8_t *buf, int len);

/* Checkpoint section "pl011": the registers, the RX FIFO (data + error bits) and the latched
 * interrupt bits.  Load checks every register against what a guest write could leave there,
 * then re-drives the interrupt line. */
#define PL011_CKPT_VERSION 1
void pl011_ckpt_save(Pl011 *u, CkptWriter *w);
bool pl011_ckpt_load(Pl011 *u, CkptReader *r);

#endif
