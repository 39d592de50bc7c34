/* "malibu exit" device: lets the guest end the emulator with an exit status.
 *
 * One 4 KB MMIO page (BOARD_EXIT_BASE, see board.h) with one 32-bit register at offset 0
 * (EXIT_STATUS).  A 32-bit write of v makes the emulator exit with status v (values above 255:
 * 255, so a status never wraps around to "success"), after everything the guest has already
 * written to the UART has reached the host (the console writes each byte at once, so there is
 * nothing buffered on the host side; the guest must drain its own tty first).  Reads return 0;
 * other offsets and access sizes read as zero and ignore writes.  DT node:
 *     exit@1c0f0000 { compatible = "malibu,exit"; reg = <0 0x1c0f0000 0 0x1000>; };
 * No Linux driver binds to it: the guest init writes the register through /dev/mem
 * (`busybox devmem 0x1c0f0000 32 STATUS`, allowed by CONFIG_IO_STRICT_DEVMEM because no driver
 * claims the region).  Thread-safe (the write only calls the exit function). */
#ifndef MALIBU_DEVICES_EXITDEV_H
#define MALIBU_DEVICES_EXITDEV_H

#include <stdint.h>

#include "bus.h"

#define EXITDEV_SIZE 0x1000ull
#define EXITDEV_REG_STATUS 0x0
#define EXITDEV_COMPATIBLE "malibu,exit"

typedef struct ExitDev ExitDev;
/* Called with the status (0..255) when the guest writes EXIT_STATUS; normally does not return. */
typedef void (*ExitDevFn)(void *opaque, int status);

ExitDev *exitdev_new(uint64_t base, ExitDevFn fn, void *opaque);
void exitdev_free(ExitDev *d);
void exitdev_set_fn(ExitDev *d, ExitDevFn fn, void *opaque);

extern const MmioOps exitdev_ops; /* opaque = ExitDev *, EXITDEV_SIZE bytes */

/* FdtHook (fdt_board.h), opaque = ExitDev *: adds the exit@BASE node. */
int exitdev_fdt_hook(void *fdt, void *opaque);

#endif
