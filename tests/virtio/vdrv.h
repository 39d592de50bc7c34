/* A simulated virtio-mmio driver for the unit tests: a bus with 4 MiB of RAM at 0x80000000, a
 * GIC, one virtio-blk device at 0x1C130000 (SPI 42), rings and buffers written into guest RAM
 * the way Linux's virtio_ring does. */
#ifndef MALIBU_TESTS_VDRV_H
#define MALIBU_TESTS_VDRV_H

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../devices/bus.h"
#include "../../devices/disk.h"
#include "../../devices/gic400.h"
#include "../../devices/virtio_blk.h"
#include "../../devices/virtio_mmio.h"

#define VD_RAM 0x80000000ull
#define VD_RAM_SIZE (4ull << 20)
#define VD_MMIO 0x1C130000ull
#define VD_INTID (32 + 42)
#define VD_DESC (VD_RAM + 0x0000)
#define VD_AVAIL (VD_RAM + 0x1000)
#define VD_USED (VD_RAM + 0x2000)
#define VD_HDR (VD_RAM + 0x3000)   /* request headers / status bytes */
#define VD_IND (VD_RAM + 0x8000)   /* indirect tables */
#define VD_DATA (VD_RAM + 0x10000) /* data buffers */

#define FEAT(b) (1ull << (b))

typedef struct VDrv {
    Bus *bus;
    Gic *gic;
    VirtioBlk *vb;
    VirtioMmio *t;
    uint8_t *ram;
    unsigned num;
    uint16_t avail_idx, last_used;
    uint16_t next_desc;
    char log[1024];
    unsigned nlog;
} VDrv;

static inline uint8_t *vd_host(VDrv *d, uint64_t pa) { return d->ram + (pa - VD_RAM); }

static inline uint32_t vd_rd(VDrv *d, uint64_t off)
{
    uint64_t v;
    ck_assert_int_eq(bus_read(d->bus, VD_MMIO + off, 4, &v), BUS_OK);
    return (uint32_t)v;
}

static inline void vd_wr(VDrv *d, uint64_t off, uint32_t v)
{
    ck_assert_int_eq(bus_write(d->bus, VD_MMIO + off, v, 4), BUS_OK);
}

static void vd_log(void *opaque, const char *line)
{
    VDrv *d = opaque;
    snprintf(d->log, sizeof d->log, "%s", line);
    d->nlog++;
}

/* Make a disk image file of size bytes filled with a pattern (byte i = (i * 7 + i / 512) & 0xff). */
static inline void vd_make_image(const char *path, uint64_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ck_assert_int_ge(fd, 0);
    uint8_t buf[4096];
    for (uint64_t off = 0; off < size; off += sizeof buf) {
        for (unsigned i = 0; i < sizeof buf; i++) {
            uint64_t b = off + i;
            buf[i] = (uint8_t)(b * 7 + b / 512);
        }
        size_t n = size - off < sizeof buf ? (size_t)(size - off) : sizeof buf;
        ck_assert_int_eq(write(fd, buf, n), (ssize_t)n);
    }
    close(fd);
}

static inline uint8_t vd_pattern(uint64_t b) { return (uint8_t)(b * 7 + b / 512); }

static inline char *vd_tmpname(const char *tag)
{
    const char *dir = getenv("TMPDIR");
    char *p = malloc(512);
    snprintf(p, 512, "%s/malibu-vtest-%s-%d-XXXXXX", dir && *dir ? dir : "/tmp", tag, (int)getpid());
    int fd = mkstemp(p);
    ck_assert_int_ge(fd, 0);
    close(fd);
    return p;
}

/* Board with the device on disk d (owned). */
static inline void vd_setup(VDrv *d, Disk *disk, bool threaded)
{
    memset(d, 0, sizeof *d);
    d->bus = bus_new();
    d->ram = bus_add_ram(d->bus, "ram", VD_RAM, VD_RAM_SIZE, false);
    ck_assert_ptr_nonnull(d->ram);
    d->gic = gic_new(1, NULL, NULL);
    ck_assert_ptr_nonnull(d->gic);
    d->vb = virtio_blk_new(d->bus, d->gic, VD_INTID, VD_MMIO, disk, "test-serial-0123456789", threaded);
    ck_assert_ptr_nonnull(d->vb);
    d->t = virtio_blk_transport(d->vb);
    virtio_mmio_set_log(d->t, vd_log, d);
    ck_assert(bus_add_mmio(d->bus, VD_MMIO, VIRTIO_MMIO_WINDOW, &virtio_mmio_ops, d->t));
    bus_freeze(d->bus);
}

static inline void vd_teardown(VDrv *d)
{
    virtio_blk_free(d->vb);
    gic_free(d->gic);
    bus_free(d->bus);
}

/* Linux's virtio_mmio probe + virtio_dev init sequence; features & wanted are accepted.
 * Returns the Status read back after FEATURES_OK. */
static inline uint32_t vd_init(VDrv *d, uint64_t wanted, unsigned num)
{
    vd_wr(d, VIRTIO_MMIO_STATUS, 0);
    vd_wr(d, VIRTIO_MMIO_STATUS, VIRTIO_STATUS_ACKNOWLEDGE);
    vd_wr(d, VIRTIO_MMIO_STATUS, VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER);
    vd_wr(d, VIRTIO_MMIO_DEVICE_FEATURES_SEL, 0);
    uint64_t f = vd_rd(d, VIRTIO_MMIO_DEVICE_FEATURES);
    vd_wr(d, VIRTIO_MMIO_DEVICE_FEATURES_SEL, 1);
    f |= (uint64_t)vd_rd(d, VIRTIO_MMIO_DEVICE_FEATURES) << 32;
    f &= wanted;
    vd_wr(d, VIRTIO_MMIO_DRIVER_FEATURES_SEL, 0);
    vd_wr(d, VIRTIO_MMIO_DRIVER_FEATURES, (uint32_t)f);
    vd_wr(d, VIRTIO_MMIO_DRIVER_FEATURES_SEL, 1);
    vd_wr(d, VIRTIO_MMIO_DRIVER_FEATURES, (uint32_t)(f >> 32));
    vd_wr(d, VIRTIO_MMIO_STATUS, VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER |
                                 VIRTIO_STATUS_FEATURES_OK);
    uint32_t st = vd_rd(d, VIRTIO_MMIO_STATUS);
    memset(vd_host(d, VD_DESC), 0, 0x3000);
    d->num = num;
    d->avail_idx = d->last_used = 0;
    d->next_desc = 0;
    vd_wr(d, VIRTIO_MMIO_QUEUE_SEL, 0);
    vd_wr(d, VIRTIO_MMIO_QUEUE_NUM, num);
    vd_wr(d, VIRTIO_MMIO_QUEUE_DESC_LOW, (uint32_t)VD_DESC);
    vd_wr(d, VIRTIO_MMIO_QUEUE_DESC_HIGH, (uint32_t)(VD_DESC >> 32));
    vd_wr(d, VIRTIO_MMIO_QUEUE_DRIVER_LOW, (uint32_t)VD_AVAIL);
    vd_wr(d, VIRTIO_MMIO_QUEUE_DRIVER_HIGH, 0);
    vd_wr(d, VIRTIO_MMIO_QUEUE_DEVICE_LOW, (uint32_t)VD_USED);
    vd_wr(d, VIRTIO_MMIO_QUEUE_DEVICE_HIGH, 0);
    vd_wr(d, VIRTIO_MMIO_QUEUE_READY, 1);
    vd_wr(d, VIRTIO_MMIO_STATUS, st | VIRTIO_STATUS_DRIVER_OK);
    return st;
}

static inline void vd_set_desc(uint8_t *table, unsigned i, uint64_t addr, uint32_t len,
                               uint16_t flags, uint16_t next)
{
    VirtqDesc x = { addr, len, flags, next };
    memcpy(table + 16 * i, &x, 16);
}

static inline uint16_t vd_used_idx(VDrv *d)
{
    return __atomic_load_n((uint16_t *)(void *)vd_host(d, VD_USED + 2), __ATOMIC_ACQUIRE);
}

/* Publish head, notify, wait for the used ring to move (threaded devices: up to 5 s).
 * Returns true when a used element arrived; *len = its length. */
static inline bool vd_kick_wait(VDrv *d, uint16_t head, uint32_t *len)
{
    uint8_t *av = vd_host(d, VD_AVAIL);
    memcpy(av + 4 + 2 * (d->avail_idx % d->num), &head, 2);
    d->avail_idx++;
    __atomic_store_n((uint16_t *)(void *)(av + 2), d->avail_idx, __ATOMIC_RELEASE);
    vd_wr(d, VIRTIO_MMIO_QUEUE_NOTIFY, 0);
    for (int i = 0; i < 5000 && vd_used_idx(d) == d->last_used; i++) {
        if (virtio_mmio_get_status(d->t) & VIRTIO_STATUS_NEEDS_RESET)
            break;
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
    virtio_mmio_wait_idle(d->t, 5000);
    if (vd_used_idx(d) == d->last_used)
        return false;
    uint8_t *u = vd_host(d, VD_USED) + 4 + 8 * (d->last_used % d->num);
    uint32_t id, l;
    memcpy(&id, u, 4);
    memcpy(&l, u + 4, 4);
    ck_assert_uint_eq(id, head);
    if (len)
        *len = l;
    d->last_used++;
    return true;
}

/* One block request: header at VD_HDR, data buffer(s) at data_pa split into nseg pieces, status
 * byte at VD_HDR + 0x100.  Returns the status byte, or -1 when nothing completed. */
static inline int vd_blk(VDrv *d, uint32_t type, uint64_t sector, uint64_t data_pa, uint32_t len,
                         unsigned nseg, bool indirect, uint32_t *used_len)
{
    uint8_t hdr[16] = { 0 };
    memcpy(hdr, &type, 4);
    memcpy(hdr + 8, &sector, 8);
    memcpy(vd_host(d, VD_HDR), hdr, 16);
    *vd_host(d, VD_HDR + 0x100) = 0xee;
    uint8_t *table = indirect ? vd_host(d, VD_IND) : vd_host(d, VD_DESC);
    unsigned base = indirect ? 0 : d->next_desc, n = 0;
    uint16_t dflag = type == VIRTIO_BLK_T_IN || type == VIRTIO_BLK_T_GET_ID ? VIRTQ_DESC_F_WRITE : 0;
#define IDX(k) ((uint16_t)(indirect ? (k) : (base + (k)) % d->num))
    vd_set_desc(table, IDX(n), VD_HDR, 16, VIRTQ_DESC_F_NEXT, IDX(n + 1));
    n++;
    if (len) {
        if (nseg == 0)
            nseg = 1;
        uint32_t per = len / nseg, done = 0;
        for (unsigned s = 0; s < nseg; s++) {
            uint32_t l = s == nseg - 1 ? len - done : per;
            vd_set_desc(table, IDX(n), data_pa + done, l, dflag | VIRTQ_DESC_F_NEXT, IDX(n + 1));
            done += l;
            n++;
        }
    }
    vd_set_desc(table, IDX(n), VD_HDR + 0x100, 1, VIRTQ_DESC_F_WRITE, 0);
    n++;
    uint16_t head;
    if (indirect) {
        head = d->next_desc;
        vd_set_desc(vd_host(d, VD_DESC), head, VD_IND, 16 * n, VIRTQ_DESC_F_INDIRECT, 0);
        d->next_desc = (uint16_t)((d->next_desc + 1) % d->num);
    } else {
        head = (uint16_t)base;
        d->next_desc = (uint16_t)((base + n) % d->num);
    }
#undef IDX
    if (!vd_kick_wait(d, head, used_len))
        return -1;
    return *vd_host(d, VD_HDR + 0x100);
}

static inline uint64_t vd_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static inline int vd_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

#endif
