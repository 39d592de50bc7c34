/* virtio-blk device model (see virtio_blk.h). */
#include "virtio_blk.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct VirtioBlk {
    VirtioMmio *t;
    Disk *disk;
    VirtioDevOps ops;
    char serial[VIRTIO_BLK_ID_BYTES];
    uint8_t config[0x24];
    struct iovec data[VIRTQ_MAX_SIZE];
    unsigned io_errors;
};

static void blk_config_read(void *opaque, unsigned off, void *buf, unsigned len)
{
    VirtioBlk *vb = opaque;
    memcpy(buf, vb->config + off, len);
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* Copy n bytes starting at byte skip of iov[0..cnt) into dst; false if there are fewer. */
static bool gather(const struct iovec *iov, unsigned cnt, size_t skip, void *dst, size_t n)
{
    uint8_t *d = dst;
    for (unsigned i = 0; i < cnt && n; i++) {
        size_t l = iov[i].iov_len;
        if (skip >= l) {
            skip -= l;
            continue;
        }
        size_t k = l - skip < n ? l - skip : n;
        memcpy(d, (uint8_t *)iov[i].iov_base + skip, k);
        d += k;
        n -= k;
        skip = 0;
    }
    return n == 0;
}

/* vb->data = the bytes [skip, skip + len) of iov[0..cnt); returns the count of entries. */
static unsigned slice(VirtioBlk *vb, const struct iovec *iov, unsigned cnt, size_t skip, size_t len)
{
    unsigned k = 0;
    for (unsigned i = 0; i < cnt && len; i++) {
        size_t l = iov[i].iov_len;
        if (skip >= l) {
            skip -= l;
            continue;
        }
        size_t n = l - skip < len ? l - skip : len;
        vb->data[k].iov_base = (uint8_t *)iov[i].iov_base + skip;
        vb->data[k++].iov_len = n;
        len -= n;
        skip = 0;
    }
    return k;
}

static void io_error(VirtioBlk *vb, const char *what, uint64_t sector, int r)
{
    if (vb->io_errors++ < 10)
        fprintf(stderr, "malibu: virtio-blk %s: %s error at sector %llu: %s\n", disk_path(vb->disk),
                what, (unsigned long long)sector, strerror(-r));
}

static int64_t blk_handle(void *opaque, unsigned queue, VirtqElem *e, uint64_t features, char *err,
                          size_t errlen)
{
    VirtioBlk *vb = opaque;
    (void)queue;
    (void)features;
    uint8_t hdr[16];
    if (!gather(e->iov, e->nout, 0, hdr, 16)) {
        snprintf(err, errlen, "request %u without a 16-byte device-readable header", e->head);
        return -1;
    }
    if (e->nin == 0) {
        snprintf(err, errlen, "request %u without a device-writable status byte", e->head);
        return -1;
    }
    uint32_t type;
    uint64_t sector;
    memcpy(&type, hdr, 4);
    memcpy(&sector, hdr + 8, 8);
    struct iovec *in = &e->iov[e->nout], *last = &in[e->nin - 1];
    uint8_t *status = (uint8_t *)last->iov_base + last->iov_len - 1;
    size_t in_data = (size_t)e->in_bytes - 1, out_data = (size_t)e->out_bytes - 16;
    uint64_t size = disk_size(vb->disk);
    uint8_t s = VIRTIO_BLK_S_OK;
    int r;

    switch (type) {
    case VIRTIO_BLK_T_IN:
    case VIRTIO_BLK_T_OUT: {
        bool wr = type == VIRTIO_BLK_T_OUT;
        size_t len = wr ? out_data : in_data;
        if ((len % DISK_SECTOR) || sector > size / DISK_SECTOR ||
            len > size - sector * DISK_SECTOR || (wr && disk_read_only(vb->disk))) {
            s = VIRTIO_BLK_S_IOERR;
            break;
        }
        unsigned k = wr ? slice(vb, e->iov, e->nout, 16, len) : slice(vb, in, e->nin, 0, len);
        r = wr ? disk_pwritev(vb->disk, sector * DISK_SECTOR, vb->data, k)
               : disk_preadv(vb->disk, sector * DISK_SECTOR, vb->data, k);
        if (r < 0) {
            io_error(vb, wr ? "write" : "read", sector, r);
            s = VIRTIO_BLK_S_IOERR;
        }
        break;
    }
    case VIRTIO_BLK_T_FLUSH:
        r = disk_flush(vb->disk);
        if (r < 0) {
            io_error(vb, "flush", 0, r);
            s = VIRTIO_BLK_S_IOERR;
        }
        break;
    case VIRTIO_BLK_T_GET_ID: {
        size_t n = in_data < VIRTIO_BLK_ID_BYTES ? in_data : VIRTIO_BLK_ID_BYTES;
        unsigned k = slice(vb, in, e->nin, 0, n);
        size_t done = 0;
        for (unsigned i = 0; i < k; i++) {
            memcpy(vb->data[i].iov_base, vb->serial + done, vb->data[i].iov_len);
            done += vb->data[i].iov_len;
        }
        break;
    }
    default:
        s = VIRTIO_BLK_S_UNSUPP;
        break;
    }
    *status = s;
    return (int64_t)e->in_bytes;
}

VirtioBlk *virtio_blk_new(Bus *bus, Gic *gic, unsigned intid, uint64_t base, Disk *disk,
                          const char *serial, bool threaded)
{
    VirtioBlk *vb = calloc(1, sizeof *vb);
    if (!vb)
        return NULL;
    vb->disk = disk;
    if (!serial) {
        serial = strrchr(disk_path(disk), '/');
        serial = serial ? serial + 1 : disk_path(disk);
    }
    memcpy(vb->serial, serial, strnlen(serial, sizeof vb->serial)); /* NUL-padded, 20 bytes max */
    put64(vb->config + 0x00, disk_size(disk) / DISK_SECTOR); /* capacity */
    put32(vb->config + 0x08, VIRTIO_BLK_SIZE_MAX);
    put32(vb->config + 0x0c, VIRTIO_BLK_SEG_MAX);
    put32(vb->config + 0x14, DISK_SECTOR); /* blk_size */
    vb->ops = (VirtioDevOps){
        .name = "virtio-blk",
        .device_id = VIRTIO_ID_BLOCK,
        .features = (1ull << VIRTIO_BLK_F_SIZE_MAX) | (1ull << VIRTIO_BLK_F_SEG_MAX) |
                    (1ull << VIRTIO_BLK_F_BLK_SIZE) | (1ull << VIRTIO_BLK_F_FLUSH) |
                    (disk_read_only(disk) ? 1ull << VIRTIO_BLK_F_RO : 0),
        .nqueues = 1,
        .config_len = sizeof vb->config,
        .config_read = blk_config_read,
        .handle = blk_handle,
    };
    vb->t = virtio_mmio_new(bus, gic, intid, base, &vb->ops, vb, threaded);
    if (!vb->t) {
        free(vb);
        return NULL;
    }
    return vb;
}

void virtio_blk_free(VirtioBlk *vb)
{
    if (!vb)
        return;
    virtio_mmio_free(vb->t);
    disk_close(vb->disk);
    free(vb);
}

VirtioMmio *virtio_blk_transport(VirtioBlk *vb) { return vb->t; }
Disk *virtio_blk_disk(VirtioBlk *vb) { return vb->disk; }

void virtio_blk_ckpt_save(VirtioBlk *vb, CkptWriter *w, uint32_t slot)
{
    virtio_mmio_pause(vb->t);
    virtio_mmio_ckpt_save(vb->t, w, slot);
    disk_ckpt_save(vb->disk, w, slot);
    virtio_mmio_resume(vb->t);
}

bool virtio_blk_ckpt_load(VirtioBlk *vb, CkptReader *r, uint32_t slot)
{
    /* the disk first: its identity is the likelier complaint, and the transport pauses the
     * device (nothing runs on the overlay while it is replaced) */
    virtio_mmio_pause(vb->t);
    bool ok = disk_ckpt_load(vb->disk, r, slot);
    return virtio_mmio_ckpt_load(vb->t, r, slot) && ok;
}
