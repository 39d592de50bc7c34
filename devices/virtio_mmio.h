/* virtio-mmio transport, virtio 1.x only ("modern", register layout Version 2), split
 * virtqueues with indirect descriptors and optional VIRTIO_F_EVENT_IDX.  A device model
 * (virtio_blk.c) supplies a VirtioDevOps; the transport owns the registers, the feature
 * handshake, the rings, the interrupt and the worker thread.
 *
 * Register window: VIRTIO_MMIO_WINDOW bytes at base (DT reg size 0x200, as the FVP's virtio
 * block device); registers are 32-bit (other sizes read 0 / are ignored), device config space at
 * 0x100 takes 8/16/32/64-bit accesses.  Interrupt: one level-sensitive GIC SPI, high while
 * InterruptStatus != 0 (bit 0 used buffer, bit 1 configuration change).
 *
 * Rings are checked when QueueReady is set (size a power of two <= VIRTQ_MAX_SIZE, alignment,
 * every ring inside one guest RAM region); descriptor chains when they are popped.  A malformed
 * chain (loop or longer than the queue, index out of range, buffer outside guest RAM, device-
 * readable after device-writable, nested indirect / indirect with NEXT / indirect without the
 * feature, indirect table of a bad size, more than VIRTQ_MAX_BYTES) or an impossible avail index
 * puts the device in the "broken" state: one error line on the log (default stderr,
 * "malibu: virtio-blk@1c130000: queue 0: ...; device needs reset"), Status gets
 * DEVICE_NEEDS_RESET (0x40), InterruptStatus bit 1 (config change) is raised, and no queue is
 * processed until the driver resets the device (Status = 0).  Nothing a guest writes makes the
 * host access memory outside guest RAM.
 *
 * Threads: MMIO callbacks run on vCPU threads under the device lock.  threaded = true: requests
 * run on one worker thread per device (QueueNotify only wakes it, so the vCPU never waits for the
 * host disk); the lock is dropped while a request's I/O runs, and a reset (Status = 0) waits for
 * the request in flight.  threaded = false: requests run inline in the QueueNotify write, under
 * the lock (deterministic; the unit tests use both). */
#ifndef MALIBU_DEVICES_VIRTIO_MMIO_H
#define MALIBU_DEVICES_VIRTIO_MMIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "bus.h"
#include "gic400.h"

#define VIRTIO_MMIO_WINDOW 0x1000  /* bus region per device (DT says 0x200) */
#define VIRTIO_MMIO_DT_SIZE 0x200
#define VIRTIO_MMIO_MAX_QUEUES 4
#define VIRTQ_MAX_SIZE 256         /* QueueNumMax; also the longest chain */
#define VIRTQ_MAX_BYTES (256u << 20)
#define VIRTIO_MMIO_VENDOR 0x4d4c4255u /* "UBLM" little-endian: "MLBU" */

/* Registers (virtio 1.2 §4.2.2). */
enum {
    VIRTIO_MMIO_MAGIC = 0x000, VIRTIO_MMIO_VERSION = 0x004, VIRTIO_MMIO_DEVICE_ID = 0x008,
    VIRTIO_MMIO_VENDOR_ID = 0x00c, VIRTIO_MMIO_DEVICE_FEATURES = 0x010,
    VIRTIO_MMIO_DEVICE_FEATURES_SEL = 0x014, VIRTIO_MMIO_DRIVER_FEATURES = 0x020,
    VIRTIO_MMIO_DRIVER_FEATURES_SEL = 0x024, VIRTIO_MMIO_QUEUE_SEL = 0x030,
    VIRTIO_MMIO_QUEUE_NUM_MAX = 0x034, VIRTIO_MMIO_QUEUE_NUM = 0x038,
    VIRTIO_MMIO_QUEUE_READY = 0x044, VIRTIO_MMIO_QUEUE_NOTIFY = 0x050,
    VIRTIO_MMIO_INTERRUPT_STATUS = 0x060, VIRTIO_MMIO_INTERRUPT_ACK = 0x064,
    VIRTIO_MMIO_STATUS = 0x070, VIRTIO_MMIO_QUEUE_DESC_LOW = 0x080,
    VIRTIO_MMIO_QUEUE_DESC_HIGH = 0x084, VIRTIO_MMIO_QUEUE_DRIVER_LOW = 0x090,
    VIRTIO_MMIO_QUEUE_DRIVER_HIGH = 0x094, VIRTIO_MMIO_QUEUE_DEVICE_LOW = 0x0a0,
    VIRTIO_MMIO_QUEUE_DEVICE_HIGH = 0x0a4, VIRTIO_MMIO_SHM_SEL = 0x0ac,
    VIRTIO_MMIO_SHM_LEN_LOW = 0x0b0, VIRTIO_MMIO_SHM_LEN_HIGH = 0x0b4,
    VIRTIO_MMIO_SHM_BASE_LOW = 0x0b8, VIRTIO_MMIO_SHM_BASE_HIGH = 0x0bc,
    VIRTIO_MMIO_CONFIG_GENERATION = 0x0fc, VIRTIO_MMIO_CONFIG = 0x100,
};
#define VIRTIO_MMIO_MAGIC_VALUE 0x74726976u /* "virt" */

/* Status bits. */
enum {
    VIRTIO_STATUS_ACKNOWLEDGE = 1, VIRTIO_STATUS_DRIVER = 2, VIRTIO_STATUS_DRIVER_OK = 4,
    VIRTIO_STATUS_FEATURES_OK = 8, VIRTIO_STATUS_NEEDS_RESET = 0x40, VIRTIO_STATUS_FAILED = 0x80,
};
enum { VIRTIO_INT_VRING = 1, VIRTIO_INT_CONFIG = 2 };

/* Transport feature bits. */
#define VIRTIO_F_INDIRECT_DESC 28
#define VIRTIO_F_EVENT_IDX 29
#define VIRTIO_F_VERSION_1 32

/* Split ring layout. */
enum { VIRTQ_DESC_F_NEXT = 1, VIRTQ_DESC_F_WRITE = 2, VIRTQ_DESC_F_INDIRECT = 4 };
enum { VIRTQ_AVAIL_F_NO_INTERRUPT = 1, VIRTQ_USED_F_NO_NOTIFY = 1 };
typedef struct VirtqDesc {
    uint64_t addr;
    uint32_t len;
    uint16_t flags, next;
} VirtqDesc;

/* A popped descriptor chain: nout device-readable buffers, then nin device-writable ones, as
 * host pointers into guest RAM (checked) with their guest physical addresses.  Zero-length
 * descriptors are dropped. */
typedef struct VirtqElem {
    uint16_t head;
    unsigned nout, nin;
    uint64_t out_bytes, in_bytes;
    struct iovec iov[VIRTQ_MAX_SIZE];
    uint64_t pa[VIRTQ_MAX_SIZE];
} VirtqElem;

typedef struct VirtioMmio VirtioMmio;

typedef struct VirtioDevOps {
    const char *name;      /* "virtio-blk" (log lines) */
    uint32_t device_id;    /* 2 = block */
    uint64_t features;     /* device feature bits offered besides the transport's */
    unsigned nqueues;      /* <= VIRTIO_MMIO_MAX_QUEUES */
    unsigned config_len;   /* bytes of device config space (<= 0xf00) */
    /* Copy config bytes [off, off+len) into buf (the transport checks the range). */
    void (*config_read)(void *opaque, unsigned off, void *buf, unsigned len);
    /* Optional: config write (ignored when NULL). */
    void (*config_write)(void *opaque, unsigned off, const void *buf, unsigned len);
    /* Process one chain.  Returns the number of bytes written into the device-writable
     * buffers (the used length), or -1 for a request the device cannot accept at all (message
     * in err): the transport then marks the device broken (needs reset).  Runs on the worker
     * thread without the transport lock (threaded) or under it (inline); it must not call the
     * transport.  driver_features is the negotiated set. */
    int64_t (*handle)(void *opaque, unsigned queue, VirtqElem *e, uint64_t driver_features,
                      char *err, size_t errlen);
    /* (handle may also return VIRTIO_HANDLE_LATER: the device has nothing to put in this
     * buffer yet (an input device's event queue); the chain stays available and the queue is
     * looked at again at the next virtio_mmio_kick_queue or QueueNotify.) */
    /* Optional: called on device reset (Status = 0, board reset), with the lock held. */
    void (*reset)(void *opaque);
} VirtioDevOps;

/* The device at [base, base + VIRTIO_MMIO_WINDOW) raising SPI intid (a GIC INTID >= 32; gic may
 * be NULL in tests: see virtio_mmio_irq_level).  The caller maps it with
 * bus_add_mmio(bus, base, VIRTIO_MMIO_WINDOW, &virtio_mmio_ops, dev) (board_add_mmio). */
VirtioMmio *virtio_mmio_new(Bus *bus, Gic *gic, unsigned intid, uint64_t base,
                            const VirtioDevOps *ops, void *opaque, bool threaded);
/* Stops the worker thread; the device must no longer be reachable from the bus. */
void virtio_mmio_free(VirtioMmio *t);
extern const MmioOps virtio_mmio_ops; /* opaque = VirtioMmio * */

#define VIRTIO_HANDLE_LATER (-2)
/* The device has something for queue qi (data for buffers it left with VIRTIO_HANDLE_LATER):
 * process the queue as if the driver had notified it.  Any thread, not from handle. */
void virtio_mmio_kick_queue(VirtioMmio *t, unsigned qi);

/* Board reset: as if the driver had written Status = 0. */
void virtio_mmio_reset(VirtioMmio *t);

/* Adds "virtio@<base>" (compatible "virtio,mmio", reg, interrupts, dma-coherent) under the root.
 * libfdt inserts new nodes before the existing ones, and Linux numbers virtio devices (vda,
 * vdb, ...) in DT order: add the devices in reverse order (virtio_mmio_fdt_add_all does). */
int virtio_mmio_fdt_add(void *fdt, VirtioMmio *t);
int virtio_mmio_fdt_add_all(void *fdt, VirtioMmio *const *devs, unsigned n);

/* Error lines go to fn (default: stderr, "malibu: ..." + newline). */
void virtio_mmio_set_log(VirtioMmio *t, void (*fn)(void *opaque, const char *line), void *opaque);
/* Called after the device wrote guest RAM [pa, pa+len) for a request (not for the rings): lets a
 * CPU with translated-code caching drop translations of those pages.  fn may run on the worker
 * thread. */
void virtio_mmio_set_dma_notify(VirtioMmio *t, void (*fn)(void *opaque, uint64_t pa, uint64_t len),
                                void *opaque);

/* Checkpoints (docs/checkpoint.md).  pause: no request starts any more and the one in flight
 * completes (its used element pushed, its interrupt raised) before it returns; notifications
 * that arrive meanwhile wait.  resume: the waiting notifications run (pauses nest: the last
 * resume runs them).  A save pauses the device
 * for the time of its sections, so that no request is lost or done twice: what the guest made
 * available and the device had not taken stays in the guest's ring (RAM), and the queues that
 * had a notification waiting are saved ("pending_kicks") and run after the load.
 * Section "virtio-mmio" (instance: the slot): registers, negotiated features, each queue's size,
 * ring addresses and indices.  Load (on a device of the same kind, freshly reset, that the
 * caller paused) checks the rings as QueueReady would, re-drives the interrupt line, and leaves
 * the device paused: the caller resumes it once the whole board (RAM, GIC) is loaded. */
#define VIRTIO_MMIO_CKPT_VERSION 1
typedef struct CkptWriter CkptWriter;
typedef struct CkptReader CkptReader;
void virtio_mmio_pause(VirtioMmio *t);
void virtio_mmio_resume(VirtioMmio *t);
void virtio_mmio_ckpt_save(VirtioMmio *t, CkptWriter *w, uint32_t instance);
bool virtio_mmio_ckpt_load(VirtioMmio *t, CkptReader *r, uint32_t instance);

/* Introspection (tests). */
uint32_t virtio_mmio_get_status(VirtioMmio *t);
bool virtio_mmio_irq_level(VirtioMmio *t);
uint64_t virtio_mmio_base(const VirtioMmio *t);
unsigned virtio_mmio_intid(const VirtioMmio *t);
/* Waits until no request is in flight and no kick is pending (threaded mode); true if idle
 * within timeout_ms. */
bool virtio_mmio_wait_idle(VirtioMmio *t, unsigned timeout_ms);

#endif
