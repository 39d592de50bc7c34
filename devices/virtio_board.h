/* virtio-blk disks on the board: --disk FILE[,MODE] and --share DIR[,ro] (devices/README.md).
 *
 * Slots: virtio-mmio device n at BOARD_VIRTIO_BASE + n * 0x1000 (DT reg size 0x200), SPI
 * BOARD_VIRTIO_SPI0 + n (INTID 74 + n), n < BOARD_VIRTIO_SLOTS.  The --disk images take the
 * first slots in command-line order (vda, vdb, ...), --share directories the ones after. */
#ifndef MALIBU_DEVICES_VIRTIO_BOARD_H
#define MALIBU_DEVICES_VIRTIO_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "disk.h"

#define BOARD_VIRTIO_BASE 0x1C130000ull
#define BOARD_VIRTIO_STRIDE 0x1000ull
#define BOARD_VIRTIO_SLOTS 8
#define BOARD_VIRTIO_SPI0 42 /* INTID 74 */

typedef struct BoardDisk {
    const char *arg;  /* the option's argument (not copied): the path is its first path_len bytes */
    size_t path_len;  /* image file, or directory for --share */
    DiskMode mode;
    bool share;     /* --share: ext4 made from the directory at start-up */
} BoardDisk;

/* Parse "FILE[,cow|,ro|,write-through]" (--disk) or "DIR[,cow|,ro]" (--share) into
 * disks[*n]; 0 or -1 with a message in err. */
int virtio_board_parse(BoardDisk *disks, unsigned *n, const char *arg, bool share, char *err,
                       size_t errlen);

struct Board;
/* Open the disks of b->cfg, map the devices, register the DT hook (called by board_new). */
bool virtio_board_attach(struct Board *b, char *err, size_t errlen);
void virtio_board_free(struct Board *b);
void virtio_board_reset(struct Board *b);
/* fn(opaque, pa, len) after a disk read wrote guest RAM (see virtio_mmio_set_dma_notify): for a
 * CPU that caches translations of RAM pages.  Call after board_new. */
void virtio_board_set_dma_notify(struct Board *b, void (*fn)(void *, uint64_t, uint64_t),
                                 void *opaque);

/* Checkpoints of the disks (virtio_blk_ckpt_save: transport and disk under instance = slot).
 * savable: false with the reason when a disk cannot be checkpointed (write-through: see
 * disk_ckpt_savable); a save goes on regardless (the load refuses it), so a front end asks first.
 * load leaves the devices paused; resume them once the board is loaded. */
struct CkptWriter;
struct CkptReader;
bool virtio_board_ckpt_savable(struct Board *b, char *err, size_t errlen);
void virtio_board_ckpt_save(struct Board *b, struct CkptWriter *w);
bool virtio_board_ckpt_load(struct Board *b, struct CkptReader *r);
void virtio_board_ckpt_resume(struct Board *b);

/* The board's I/O block of a checkpoint (board_io_ckpt.c, called by board_ckpt.c): the UART,
 * the RTC, the disks, then the display and its input devices.  load resumes the virtio devices
 * at its end (the RAM and the GIC are loaded before it): the requests the guest had notified
 * run then. */
void board_io_ckpt_save(struct Board *b, struct CkptWriter *w);
bool board_io_ckpt_load(struct Board *b, struct CkptReader *r);

#endif
