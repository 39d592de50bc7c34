/* virtio-blk disks on the board (see virtio_board.h). */
#include "virtio_board.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "virtio_blk.h"
#include "../emu/checkpoint/ckpt.h"

int virtio_board_parse(BoardDisk *disks, unsigned *n, const char *arg, bool share, char *err,
                       size_t errlen)
{
    const char *opt = share ? "--share" : "--disk";
    if (*n >= BOARD_VIRTIO_SLOTS) {
        snprintf(err, errlen, "%s: at most %d disks", opt, BOARD_VIRTIO_SLOTS);
        return -1;
    }
    static const struct { const char *name; DiskMode mode; } modes[] = {
        { "cow", DISK_COW }, { "ro", DISK_READ_ONLY }, { "write-through", DISK_WRITE_THROUGH },
    };
    size_t len = strlen(arg);
    DiskMode mode = DISK_COW;
    const char *comma = strrchr(arg, ',');
    if (comma) {
        bool known = false;
        for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
            if (!strcmp(comma + 1, modes[i].name)) {
                mode = modes[i].mode;
                known = true;
            }
        if (!known || (share && mode == DISK_WRITE_THROUGH)) {
            snprintf(err, errlen, "%s %s: unknown mode '%s' (%s)", opt, arg, comma + 1,
                     share ? "cow or ro" : "cow, ro or write-through");
            return -1;
        }
        len = (size_t)(comma - arg);
    }
    if (len == 0) {
        snprintf(err, errlen, "%s: missing %s", opt, share ? "directory" : "file");
        return -1;
    }
    if (len >= PATH_MAX) {
        snprintf(err, errlen, "%s: path too long", opt);
        return -1;
    }
    disks[*n].arg = arg;
    disks[*n].path_len = len;
    disks[*n].mode = mode;
    disks[*n].share = share;
    (*n)++;
    return 0;
}

static int fdt_hook(void *fdt, void *opaque)
{
    Board *b = opaque;
    VirtioMmio *t[BOARD_VIRTIO_SLOTS];
    for (unsigned i = 0; i < b->nvblk; i++)
        t[i] = virtio_blk_transport(b->vblk[i]);
    return virtio_mmio_fdt_add_all(fdt, t, b->nvblk);
}

static bool attach_one(Board *b, const BoardDisk *bd, char *err, size_t errlen)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%.*s", (int)bd->path_len, bd->arg);
    Disk *d = bd->share ? disk_open_dir(path, bd->mode, err, errlen)
                        : disk_open(path, bd->mode, err, errlen);
    if (!d)
        return false;
    unsigned n = b->nvblk;
    uint64_t base = BOARD_VIRTIO_BASE + n * BOARD_VIRTIO_STRIDE;
    char serial[24];
    snprintf(serial, sizeof serial, "malibu-vd%c", 'a' + n);
    VirtioBlk *vb = virtio_blk_new(b->bus, b->gic, 32 + BOARD_VIRTIO_SPI0 + n, base, d,
                                   bd->share ? "malibu-share" : serial,
                                   !b->cfg.clock_icount); /* icount: requests complete inside the
                                                           * notify write, a deterministic point */
    if (!vb) {
        disk_close(d);
        snprintf(err, errlen, "%s: cannot create the virtio-blk device", path);
        return false;
    }
    b->vblk[b->nvblk++] = vb;
    if (!board_add_mmio(b, base, VIRTIO_MMIO_WINDOW, &virtio_mmio_ops, virtio_blk_transport(vb))) {
        snprintf(err, errlen, "virtio-mmio slot %u: address %#llx taken", n, (unsigned long long)base);
        return false;
    }
    return true;
}

bool virtio_board_attach(Board *b, char *err, size_t errlen)
{
    const BoardConfig *cfg = &b->cfg;
    for (int pass = 0; pass < 2; pass++) /* images first, then shared directories */
        for (unsigned i = 0; i < cfg->ndisks; i++)
            if (cfg->disks[i].share == (pass == 1) && !attach_one(b, &cfg->disks[i], err, errlen))
                return false;
    if (b->nvblk && !board_add_fdt_hook(b, fdt_hook, b)) {
        snprintf(err, errlen, "too many device-tree hooks");
        return false;
    }
    return true;
}

void virtio_board_free(Board *b)
{
    for (unsigned i = 0; i < b->nvblk; i++)
        virtio_blk_free(b->vblk[i]);
    b->nvblk = 0;
}

void virtio_board_reset(Board *b)
{
    for (unsigned i = 0; i < b->nvblk; i++)
        virtio_mmio_reset(virtio_blk_transport(b->vblk[i]));
}

void virtio_board_set_dma_notify(Board *b, void (*fn)(void *, uint64_t, uint64_t), void *opaque)
{
    for (unsigned i = 0; i < b->nvblk; i++)
        virtio_mmio_set_dma_notify(virtio_blk_transport(b->vblk[i]), fn, opaque);
}

bool virtio_board_ckpt_savable(Board *b, char *err, size_t errlen)
{
    for (unsigned i = 0; i < b->nvblk; i++)
        if (!disk_ckpt_savable(virtio_blk_disk(b->vblk[i]), err, errlen))
            return false;
    return true;
}

void virtio_board_ckpt_save(Board *b, CkptWriter *w)
{
    char why[512];
    if (!virtio_board_ckpt_savable(b, why, sizeof why))
        fprintf(stderr, "malibu: checkpoint: %s (the load will refuse this file)\n", why);
    for (unsigned i = 0; i < b->nvblk; i++)
        virtio_blk_ckpt_save(b->vblk[i], w, i);
}

bool virtio_board_ckpt_load(Board *b, CkptReader *r)
{
    for (unsigned i = 0; i < b->nvblk; i++)
        if (!virtio_blk_ckpt_load(b->vblk[i], r, i))
            return false;
    return true;
}

void virtio_board_ckpt_resume(Board *b)
{
    for (unsigned i = 0; i < b->nvblk; i++)
        virtio_mmio_resume(virtio_blk_transport(b->vblk[i]));
}
