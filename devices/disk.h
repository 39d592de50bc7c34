/* Disk backends for virtio-blk: a host file seen as a byte array of disk_size() bytes.
 *
 * Modes (the image file is never modified unless DISK_WRITE_THROUGH is asked for):
 *   DISK_COW            default.  The image is opened O_RDONLY; guest writes go to a sparse
 *                       overlay file created in $TMPDIR (default /tmp) and unlinked at once (so it
 *                       disappears with the process, whatever way it ends), at the same offsets
 *                       as in the image, with one bit per 512-byte sector saying "this sector is in
 *                       the overlay".  Reads merge the two.  Flush is a no-op (nothing survives).
 *   DISK_READ_ONLY      O_RDONLY; writes fail with -EROFS (virtio-blk offers VIRTIO_BLK_F_RO).
 *   DISK_WRITE_THROUGH  O_RDWR; a write is one pwritev() of the whole request, flush is
 *                       fdatasync().  Killing the emulator (SIGINT/SIGTERM/SIGKILL/crash) loses
 *                       nothing the guest had flushed; the host kernel keeps the rest.
 *
 * Locking: flock(LOCK_SH) in COW/read-only mode, LOCK_EX in write-through mode (non-blocking:
 * disk_open fails), so an image is never written through while another malibu uses it; any
 * number of COW users may share one image.
 * Sizes: the device size is the file size rounded down to 512 bytes (a block device's size).
 * All functions are thread-safe (an internal lock serialises the COW overlay bookkeeping);
 * they return 0 or a negative errno. */
#ifndef MALIBU_DEVICES_DISK_H
#define MALIBU_DEVICES_DISK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#define DISK_SECTOR 512u

typedef enum { DISK_COW = 0, DISK_READ_ONLY = 1, DISK_WRITE_THROUGH = 2 } DiskMode;

typedef struct Disk Disk;

/* NULL with a message in err on failure. */
Disk *disk_open(const char *path, DiskMode mode, char *err, size_t errlen);
void disk_close(Disk *d);

uint64_t disk_size(const Disk *d);   /* bytes, multiple of DISK_SECTOR */
DiskMode disk_mode(const Disk *d);
bool disk_read_only(const Disk *d);  /* writes refused (DISK_READ_ONLY) */
const char *disk_path(const Disk *d);

/* Byte-granular I/O at offset off (off + total length must be <= disk_size). */
int disk_preadv(Disk *d, uint64_t off, const struct iovec *iov, unsigned iovcnt);
int disk_pwritev(Disk *d, uint64_t off, const struct iovec *iov, unsigned iovcnt);
int disk_pread(Disk *d, uint64_t off, void *buf, size_t len);
int disk_pwrite(Disk *d, uint64_t off, const void *buf, size_t len);
int disk_flush(Disk *d);

/* Sectors currently held in the COW overlay (0 in the other modes): for tests and statistics. */
uint64_t disk_cow_sectors(const Disk *d);

/* Checkpoints (docs/checkpoint.md), section "disk" (instance: the slot).  What is saved: the
 * mode, the size and an identity of the base image (CRC-32 of samples, see image_crc; for a
 * --share, the directory tree's fingerprint and the image's layout), and in COW mode the overlay:
 * its sectors in runs of at most 1 MiB, zlib-compressed.  Load refuses another mode, size or
 * identity (naming the disk), then replaces this disk's overlay with the saved one.  A
 * write-through disk cannot be saved (disk_ckpt_savable says why); a read-only one is identity
 * only.  The caller keeps the disk idle (no request in flight) while it saves or loads. */
#define DISK_CKPT_VERSION 1
typedef struct CkptWriter CkptWriter;
typedef struct CkptReader CkptReader;
bool disk_ckpt_savable(const Disk *d, char *err, size_t errlen);
void disk_ckpt_save(Disk *d, CkptWriter *w, uint32_t instance);
bool disk_ckpt_load(Disk *d, CkptReader *r, uint32_t instance);

/* --share support: a disk holding an ext4 copy of host directory dir, made at launch with
 * `mke2fs -t ext4 -d dir` in a temporary file that is unlinked as soon as it is open (nothing is
 * left behind at exit, even after a crash).  The same tree gives the same image (UUID and hash
 * seed derived from the tree, a fixed file system time), which a checkpoint's identity of the
 * share relies on.  Size: the directory's contents plus 25% + 32 MiB (sparse).  mode is DISK_COW (guest writes are kept in memory/temp, discarded) or
 * DISK_READ_ONLY.  NULL with a message in err. */
Disk *disk_open_dir(const char *dir, DiskMode mode, char *err, size_t errlen);

#endif
