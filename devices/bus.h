/* Physical address map of the board: RAM/ROM regions backed by host memory and MMIO regions
 * handled by device callbacks.
 *
 * Life cycle: bus_new(), then bus_add_ram()/bus_add_mmio() while the board is built, then
 * bus_freeze().  After bus_freeze() the map never changes, so every lookup below is lock-free and
 * may be called from any host thread (vCPU threads, GPU job thread, timer thread).  Each device
 * protects its own state: MMIO callbacks can run concurrently on several threads.
 *
 * Errors: an access that hits no region ("unassigned"), crosses a region's end, is not naturally
 * aligned inside an MMIO region, has a size other than 1/2/4/8, or writes ROM returns
 * BUS_ERROR.  The CPU reports it as a synchronous External abort (data abort, DFSC 0b010000,
 * EA=1; instruction abort IFSC 0b010000 for fetches).  Linux treats that as a fatal fault for the
 * access (oops in the kernel, SIGBUS in a process), which is what real Juno hardware gives via the
 * interconnect's DECERR.  Reserved offsets *inside* a device region are the device's business
 * (GIC/PL011/PL031: read as zero, writes ignored), as the Arm TRMs specify. */
#ifndef MALIBU_DEVICES_BUS_H
#define MALIBU_DEVICES_BUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BUS_PAGE_BITS 12
#define BUS_PAGE_SIZE (1ull << BUS_PAGE_BITS)

typedef enum { BUS_OK = 0, BUS_ERROR = 1 } BusResult;

/* MMIO callbacks: offset is relative to the region base, size is 1, 2, 4 or 8 and the access is
 * naturally aligned (the bus checks).  read returns the value zero-extended to 64 bits. */
typedef uint64_t (*MmioRead)(void *opaque, uint64_t offset, unsigned size);
typedef void (*MmioWrite)(void *opaque, uint64_t offset, uint64_t value, unsigned size);

typedef struct MmioOps {
    const char *name;
    MmioRead read;
    MmioWrite write;
} MmioOps;

typedef struct Bus Bus;

Bus *bus_new(void);
void bus_free(Bus *b);

/* Host memory for [base, base+size) (page aligned), allocated zeroed (lazily backed by the host
 * kernel).  readonly regions (boot ROM) are filled with bus_ram_host() before the guest runs and
 * refuse guest writes.  Returns the host pointer, or NULL on overlap/allocation failure. */
uint8_t *bus_add_ram(Bus *b, const char *name, uint64_t base, uint64_t size, bool readonly);
/* Returns false when the range overlaps an existing region. */
bool bus_add_mmio(Bus *b, uint64_t base, uint64_t size, const MmioOps *ops, void *opaque);
/* Sort the map and make it immutable (required before any access from the guest). */
void bus_freeze(Bus *b);

/* ---- soft-TLB fast path ------------------------------------------------------------------ */
/* Host pointer for the byte at physical address pa when it lies in RAM (or ROM when !write),
 * else NULL (MMIO, unassigned, or a write to ROM).  The pointer is valid for the rest of the
 * page containing pa: a TLB fill stores host_page = ptr - (pa & (BUS_PAGE_SIZE-1)). */
uint8_t *bus_ram_ptr(Bus *b, uint64_t pa, bool write);

/* ---- slow path (MMIO, or RAM from devices / unaligned helpers) ------------------------------ */
BusResult bus_read(Bus *b, uint64_t pa, unsigned size, uint64_t *value);
BusResult bus_write(Bus *b, uint64_t pa, uint64_t value, unsigned size);

/* Bulk RAM copies for DMA and image loading: fail (BUS_ERROR) unless the whole range is inside
 * one RAM region (ROM allowed for reads and for bus_load). */
BusResult bus_dma_read(Bus *b, uint64_t pa, void *dst, size_t len);
BusResult bus_dma_write(Bus *b, uint64_t pa, const void *src, size_t len);
/* Like bus_dma_write but may also fill ROM (firmware loading before the guest starts). */
BusResult bus_load(Bus *b, uint64_t pa, const void *src, size_t len);

/* RAM region n (in address order) for iteration; false past the last one. */
bool bus_ram_region(Bus *b, unsigned n, uint64_t *base, uint64_t *size, bool *readonly);

#endif
