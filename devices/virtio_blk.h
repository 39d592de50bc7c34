/* virtio-blk (device ID 2) over virtio-mmio, backed by a Disk (disk.h).
 *
 * Requests: VIRTIO_BLK_T_IN (read), OUT (write), FLUSH, GET_ID (the serial, 20 bytes); other
 * types complete with VIRTIO_BLK_S_UNSUPP.  A read/write whose data is not a multiple of 512
 * bytes or goes past the capacity, a write to a read-only disk and a host I/O error complete with
 * VIRTIO_BLK_S_IOERR.  A chain without a 16-byte device-readable header or a device-writable
 * status byte is malformed: the transport marks the device "needs reset".
 * Feature bits offered: SIZE_MAX (1 MiB per buffer), SEG_MAX (254), BLK_SIZE (512), FLUSH, RO
 * (read-only disks), plus the transport's VERSION_1, INDIRECT_DESC, EVENT_IDX.  One request
 * queue of 256 entries.  Requests run on the transport's worker thread (threaded) or inline in
 * the QueueNotify write (see virtio_mmio.h). */
#ifndef MALIBU_DEVICES_VIRTIO_BLK_H
#define MALIBU_DEVICES_VIRTIO_BLK_H

#include "disk.h"
#include "virtio_mmio.h"

#define VIRTIO_ID_BLOCK 2

enum { VIRTIO_BLK_T_IN = 0, VIRTIO_BLK_T_OUT = 1, VIRTIO_BLK_T_FLUSH = 4, VIRTIO_BLK_T_GET_ID = 8 };
enum { VIRTIO_BLK_S_OK = 0, VIRTIO_BLK_S_IOERR = 1, VIRTIO_BLK_S_UNSUPP = 2 };
enum {
    VIRTIO_BLK_F_SIZE_MAX = 1, VIRTIO_BLK_F_SEG_MAX = 2, VIRTIO_BLK_F_RO = 5,
    VIRTIO_BLK_F_BLK_SIZE = 6, VIRTIO_BLK_F_FLUSH = 9,
};
#define VIRTIO_BLK_SIZE_MAX (1u << 20)
#define VIRTIO_BLK_SEG_MAX (VIRTQ_MAX_SIZE - 2)
#define VIRTIO_BLK_ID_BYTES 20

typedef struct VirtioBlk VirtioBlk;

/* Takes ownership of disk (closed by virtio_blk_free).  serial: GET_ID string (NULL: the disk
 * file's base name), truncated to 20 bytes.  The caller maps virtio_blk_transport() on the bus. */
VirtioBlk *virtio_blk_new(Bus *bus, Gic *gic, unsigned intid, uint64_t base, Disk *disk,
                          const char *serial, bool threaded);
void virtio_blk_free(VirtioBlk *vb);
VirtioMmio *virtio_blk_transport(VirtioBlk *vb);

/* Checkpoints: the transport (section "virtio-mmio") and the disk (section "disk"), both under
 * instance = the slot, saved with the device paused (the request in flight completes first: see
 * virtio_mmio_pause).  Load leaves the device paused: virtio_mmio_resume(virtio_blk_transport())
 * once the board is loaded. */
void virtio_blk_ckpt_save(VirtioBlk *vb, CkptWriter *w, uint32_t slot);
bool virtio_blk_ckpt_load(VirtioBlk *vb, CkptReader *r, uint32_t slot);
Disk *virtio_blk_disk(VirtioBlk *vb);

#endif
