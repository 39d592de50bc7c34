/* Checkpoints of the I/O devices (docs/checkpoint.md "The I/O devices"): each device saved in a
 * non-trivial state and loaded into a fresh one behaves the same (registers read back, the
 * interrupt line re-driven on a fresh GIC, pending work continues: the bytes in a UART's FIFO,
 * a virtio-blk request the driver had notified, input events waiting for a buffer), disks come
 * back with their overlay, and what must not load is refused with a message naming it (a field
 * out of range, another base image, another --share tree). */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "vdrv.h"
#include "../devices/dev_check.h"
#include "../../emu/checkpoint/ckpt.h"
#include "../../devices/board.h"
#include "../../devices/board_ckpt.h"
#include "../../devices/board_display.h"
#include "../../devices/hdlcd.h"
#include "../../devices/lcdif.h"
#include "../../devices/pl011.h"
#include "../../devices/pl031.h"
#include "../../devices/virtio_input.h"

static char ck_path[256], ck_path2[256];

/* The files go to /dev/shm when there is one: the writer syncs each file before renaming it, and
 * hostile_fields_never_crash writes a thousand (41 s of fsync on a disk, none in memory). */
static void paths(void)
{
    const char *dir = getenv("TMPDIR");
    if (access("/dev/shm", W_OK) == 0)
        dir = "/dev/shm";
    snprintf(ck_path, sizeof ck_path, "%s/malibu-ckio-%d.ck", dir && *dir ? dir : "/tmp", (int)getpid());
    snprintf(ck_path2, sizeof ck_path2, "%s/malibu-ckio-%d-patched.ck", dir && *dir ? dir : "/tmp", (int)getpid());
}

static void unpaths(void)
{
    unlink(ck_path);
    unlink(ck_path2);
}

static CkptWriter *wopen(void)
{
    char err[256];
    CkptWriter *w = ckpt_writer_open(ck_path, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    return w;
}

static void wclose(CkptWriter *w)
{
    char err[256];
    ck_assert_msg(ckpt_writer_close(w, err, sizeof err), "%s", err);
}

static CkptReader *ropen(const char *p)
{
    char err[256];
    CkptReader *r = ckpt_reader_open(p, err, sizeof err);
    ck_assert_msg(r != NULL, "%s", err);
    return r;
}

/* The load failed with a message containing each of want (NULL-terminated). */
static void assert_refused(CkptReader *r, bool loaded, const char *const *want)
{
    ck_assert_msg(!loaded, "a damaged checkpoint loaded");
    const char *e = ckpt_error(r);
    ck_assert_ptr_nonnull(e);
    for (; *want; want++)
        ck_assert_msg(strstr(e, *want) != NULL, "'%s' not in the message: %s", *want, e);
}

typedef struct Sec {
    const char *name;
    uint32_t inst, version;
} Sec;

/* Copy the sections secs of ck_path into ck_path2, with integer element idx of field in section
 * (sec, inst) replaced by value: a file with one damaged field and nothing else wrong. */
static void patch(const Sec *secs, unsigned n, const char *sec, uint32_t inst, const char *field, size_t idx,
                  uint64_t value)
{
    char err[256];
    CkptReader *r = ropen(ck_path);
    CkptWriter *w = ckpt_writer_open(ck_path2, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    bool patched = false;
    for (unsigned i = 0; i < n; i++) {
        CkptSection *s = ckpt_section(r, secs[i].name, secs[i].inst, secs[i].version);
        ck_assert_msg(s != NULL, "%s", ckpt_error(r));
        ckpt_begin(w, secs[i].name, secs[i].inst, ckpt_section_version(s));
        CkptFieldView f;
        while (ckpt_next_field(s, &f)) {
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)f.name_len, f.name);
            if (!f.is_int) {
                ckpt_bytes(w, name, f.data, f.len);
                continue;
            }
            size_t cnt = f.len / 8;
            uint64_t *v = calloc(cnt + 1, 8);
            memcpy(v, f.data, f.len); /* little-endian host */
            if (!strcmp(secs[i].name, sec) && secs[i].inst == inst && !strcmp(name, field)) {
                ck_assert_uint_lt(idx, cnt);
                v[idx] = value;
                patched = true;
            }
            ckpt_u64s(w, name, v, cnt);
            free(v);
        }
        ckpt_end(w);
    }
    ck_assert_msg(patched, "no field %s in section %s %u", field, sec, inst);
    ck_assert_msg(ckpt_writer_close(w, err, sizeof err), "%s", err);
    ckpt_reader_close(r);
}

/* GIC with SPIs enabled and routed to CPU 0, so pending state is visible. */
static Gic *spi_gic(void)
{
    Gic *g = gic_new(1, NULL, NULL);
    gic_dist_write(g, 0, 0x000, 1, 4);
    for (unsigned i = 1; i < 8; i++)
        gic_dist_write(g, 0, 0x100 + 4 * i, 0xFFFFFFFF, 4);
    for (unsigned i = 32; i < 256; i += 4)
        gic_dist_write(g, 0, 0x800 + i, 0x01010101, 4);
    return g;
}

static bool spi_pending(Gic *g, unsigned intid)
{
    return (gic_dist_read(g, 0, 0x200 + 4 * (intid / 32), 4) >> (intid % 32)) & 1;
}

/* ---- PL011 ---------------------------------------------------------------------------------- */

enum { U_DR = 0x000, U_RSR = 0x004, U_FR = 0x018, U_IBRD = 0x024, U_LCR_H = 0x02C, U_CR = 0x030,
       U_IFLS = 0x034, U_IMSC = 0x038, U_RIS = 0x03C, U_MIS = 0x040 };
#define UART_IRQ 115

static uint32_t urd(Pl011 *u, unsigned off) { return (uint32_t)pl011_ops.read(u, off, 4); }
static void uwr(Pl011 *u, unsigned off, uint32_t v) { pl011_ops.write(u, off, v, 4); }

START_TEST(uart_fifo_and_irq_round_trip)
{
    Gic *g = spi_gic();
    Pl011 *u = pl011_new(g, UART_IRQ, NULL, NULL);
    uwr(u, U_IBRD, 13);
    uwr(u, U_LCR_H, 0x70); /* 8 bits, FIFO on */
    uwr(u, U_IFLS, 0x10); /* RX at 1/2 */
    uwr(u, U_IMSC, 1u << 4); /* RX only: the timeout is not enabled */
    pl011_receive(u, (const uint8_t *)"hello world", 11); /* > 8: RX interrupt */
    (void)urd(u, U_DR); /* 'h' taken: head != 0, the ring wraps in the copy */
    uwr(u, U_DR, 'x'); /* TX latched */
    ck_assert(spi_pending(g, UART_IRQ));
    CkptWriter *w = wopen();
    pl011_ckpt_save(u, w);
    wclose(w);

    Gic *g2 = spi_gic();
    Pl011 *u2 = pl011_new(g2, UART_IRQ, NULL, NULL);
    ck_assert(!spi_pending(g2, UART_IRQ));
    CkptReader *r = ropen(ck_path);
    ck_assert_msg(pl011_ckpt_load(u2, r), "%s", ckpt_error(r));
    ck_assert_msg(ckpt_finish(r), "%s", ckpt_error(r));
    ckpt_reader_close(r);
    ck_assert_msg(spi_pending(g2, UART_IRQ), "the loaded UART's interrupt is not on the new GIC");
    static const unsigned regs[] = { U_FR, U_IBRD, U_LCR_H, U_CR, U_IFLS, U_IMSC, U_RIS, U_MIS, U_RSR };
    for (unsigned i = 0; i < sizeof regs / sizeof regs[0]; i++)
        ck_assert_uint_eq(urd(u2, regs[i]), urd(u, regs[i]));
    for (const char *p = "ello world"; *p; p++) {
        ck_assert_uint_eq(urd(u2, U_DR), (uint8_t)*p);
        ck_assert_uint_eq(urd(u, U_DR), (uint8_t)*p);
    }
    ck_assert(urd(u2, U_FR) & (1u << 4)); /* RXFE */
    ck_assert(!spi_pending(g2, UART_IRQ)); /* drained: RX drops, TX is not enabled */

    /* damaged fields, each refused naming the field */
    static const Sec secs[] = { { "pl011", 0, PL011_CKPT_VERSION } };
    static const struct { const char *field; size_t idx; uint64_t v; const char *want; } bad[] = {
        { "count", 0, 17, "'count'" }, { "head", 0, 16, "'head'" }, { "cr", 0, 0x10000, "'cr'" },
        { "fifo", 3, 0x1000, "'fifo'" }, { "count", 0, 1u << 20, "'count'" },
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        patch(secs, 1, "pl011", 0, bad[i].field, bad[i].idx, bad[i].v);
        Pl011 *u3 = pl011_new(NULL, 0, NULL, NULL);
        r = ropen(ck_path2);
        assert_refused(r, pl011_ckpt_load(u3, r), (const char *const[]){ "pl011", bad[i].want, NULL });
        ckpt_reader_close(r);
        pl011_free(u3);
    }
    pl011_free(u);
    pl011_free(u2);
    gic_free(g);
    gic_free(g2);
}
END_TEST

/* ---- PL031 ---------------------------------------------------------------------------------- */

enum { R_DR = 0x00, R_MR = 0x04, R_LR = 0x08, R_IMSC = 0x10, R_RIS = 0x14, R_MIS = 0x18 };
#define RTC_IRQ 100
static uint64_t fake_ns;
static uint64_t fake_clock(void *o) { (void)o; return fake_ns; }
static uint32_t rrd(Pl031 *r, unsigned off) { return (uint32_t)pl031_ops.read(r, off, 4); }
static void rwr(Pl031 *r, unsigned off, uint32_t v) { pl031_ops.write(r, off, v, 4); }

START_TEST(rtc_goes_on_from_the_saved_value)
{
    /* a guest clock (icount): the alarm fires, the counter and the interrupt are saved */
    Gic *g = spi_gic();
    Pl031 *rtc = pl031_new(g, RTC_IRQ);
    pl031_set_clock(rtc, fake_clock, NULL);
    fake_ns = 5000ull * 1000000000ull + 999999000ull;
    rwr(rtc, R_LR, 1000); /* offset -4000 */
    rwr(rtc, R_IMSC, 1);
    rwr(rtc, R_MR, 1001); /* one guest microsecond away */
    fake_ns += 1000;
    for (int i = 0; i < 500 && !rrd(rtc, R_RIS); i++)
        dev_sleep_ms(2);
    ck_assert_uint_eq(rrd(rtc, R_RIS), 1);
    ck_assert(spi_pending(g, RTC_IRQ));
    ck_assert_uint_eq(rrd(rtc, R_DR), 1001);
    CkptWriter *w = wopen();
    pl031_ckpt_save(rtc, w);
    wclose(w);

    /* icount on both sides: the same guest time gives the same counter */
    Gic *g2 = spi_gic();
    Pl031 *r2 = pl031_new(g2, RTC_IRQ);
    pl031_set_clock(r2, fake_clock, NULL);
    CkptReader *r = ropen(ck_path);
    ck_assert_msg(pl031_ckpt_load(r2, r), "%s", ckpt_error(r));
    ckpt_reader_close(r);
    ck_assert_uint_eq(rrd(r2, R_DR), 1001);
    ck_assert_uint_eq(rrd(r2, R_MR), 1001);
    ck_assert_uint_eq(rrd(r2, R_MIS), 1);
    ck_assert_msg(spi_pending(g2, RTC_IRQ), "the loaded RTC's interrupt is not on the new GIC");
    fake_ns += 7ull * 1000000000ull; /* guest time goes on from there */
    ck_assert_uint_eq(rrd(r2, R_DR), 1008);

    /* host time on load: the counter reads the saved value now, then follows the host */
    Pl031 *r3 = pl031_new(NULL, 0);
    r = ropen(ck_path);
    ck_assert_msg(pl031_ckpt_load(r3, r), "%s", ckpt_error(r));
    ckpt_reader_close(r);
    uint32_t v = rrd(r3, R_DR);
    ck_assert_msg(v == 1001 || v == 1002, "host-clock RTC reads %u after loading 1001", v);

    static const Sec secs[] = { { "pl031", 0, PL031_CKPT_VERSION } };
    patch(secs, 1, "pl031", 0, "imsc", 0, 2);
    Pl031 *r4 = pl031_new(NULL, 0);
    r = ropen(ck_path2);
    assert_refused(r, pl031_ckpt_load(r4, r), (const char *const[]){ "pl031", "'imsc'", NULL });
    ckpt_reader_close(r);
    pl031_free(rtc);
    pl031_free(r2);
    pl031_free(r3);
    pl031_free(r4);
    gic_free(g);
    gic_free(g2);
}
END_TEST

/* ---- virtio-blk and the disk overlay ------------------------------------------------------ */

/* Publish a request chain (header at hdr_pa, data, status) at head without waiting. */
static void blk_publish(VDrv *d, uint16_t head, uint64_t hdr_pa, uint32_t type, uint64_t sector, uint64_t data_pa,
                        uint32_t len)
{
    uint8_t hdr[16] = { 0 };
    memcpy(hdr, &type, 4);
    memcpy(hdr + 8, &sector, 8);
    memcpy(vd_host(d, hdr_pa), hdr, 16);
    *vd_host(d, hdr_pa + 16) = 0xee;
    uint8_t *t = vd_host(d, VD_DESC);
    uint16_t dflag = type == VIRTIO_BLK_T_IN ? VIRTQ_DESC_F_WRITE : 0;
    vd_set_desc(t, head, hdr_pa, 16, VIRTQ_DESC_F_NEXT, (uint16_t)(head + 1));
    vd_set_desc(t, head + 1, data_pa, len, dflag | VIRTQ_DESC_F_NEXT, (uint16_t)(head + 2));
    vd_set_desc(t, head + 2, hdr_pa + 16, 1, VIRTQ_DESC_F_WRITE, 0);
    uint8_t *av = vd_host(d, VD_AVAIL);
    memcpy(av + 4 + 2 * (d->avail_idx % d->num), &head, 2);
    d->avail_idx++;
    __atomic_store_n((uint16_t *)(void *)(av + 2), d->avail_idx, __ATOMIC_RELEASE);
}

static Disk *cow_disk(const char *img)
{
    char err[256];
    Disk *disk = disk_open(img, DISK_COW, err, sizeof err);
    ck_assert_msg(disk != NULL, "%s", err);
    return disk;
}

static void wait_used(VDrv *d, uint16_t want)
{
    for (int i = 0; i < 5000 && vd_used_idx(d) != want; i++)
        dev_sleep_ms(1);
    ck_assert_uint_eq(vd_used_idx(d), want);
}

/* A queue mid-stream: request A done (its data in the overlay), request B notified while the
 * device was paused (the save sees it pending).  The loaded device, on a copy of the RAM, runs B
 * when resumed, and ends with the same guest RAM and disk contents as the original. */
START_TEST(blk_queue_mid_stream)
{
    bool threaded = _i;
    char *img = vd_tmpname("ckimg");
    vd_make_image(img, 4 << 20);
    VDrv a, b;
    vd_setup(&a, cow_disk(img), threaded);
    vd_init(&a, FEAT(VIRTIO_F_VERSION_1) | FEAT(VIRTIO_F_EVENT_IDX), 16);
    for (unsigned i = 0; i < 8192; i++)
        *vd_host(&a, VD_DATA + i) = (uint8_t)(i * 13 + 1);
    ck_assert_int_eq(vd_blk(&a, VIRTIO_BLK_T_OUT, 100, VD_DATA, 4096, 2, false, NULL), VIRTIO_BLK_S_OK);
    uint16_t head = a.next_desc;
    virtio_mmio_pause(a.t);
    blk_publish(&a, head, VD_HDR + 0x200, VIRTIO_BLK_T_OUT, 3000, VD_DATA + 4096, 4096);
    vd_wr(&a, VIRTIO_MMIO_QUEUE_NOTIFY, 0);
    ck_assert_uint_eq(vd_used_idx(&a), 1); /* paused: B waits */
    ck_assert_uint_eq(disk_cow_sectors(virtio_blk_disk(a.vb)), 8);

    CkptWriter *w = wopen();
    virtio_blk_ckpt_save(a.vb, w, 0);
    wclose(w);
    ck_assert_uint_eq(vd_used_idx(&a), 1); /* still paused after the save */

    vd_setup(&b, cow_disk(img), threaded);
    memcpy(b.ram, a.ram, VD_RAM_SIZE); /* what the RAM section restores */
    CkptReader *r = ropen(ck_path);
    ck_assert_msg(virtio_blk_ckpt_load(b.vb, r, 0), "%s", ckpt_error(r));
    ck_assert_msg(ckpt_finish(r), "%s", ckpt_error(r));
    ckpt_reader_close(r);
    ck_assert_uint_eq(vd_rd(&b, VIRTIO_MMIO_STATUS), vd_rd(&a, VIRTIO_MMIO_STATUS));
    ck_assert_uint_eq(vd_rd(&b, VIRTIO_MMIO_QUEUE_READY), 1);
    ck_assert_uint_eq(vd_rd(&b, VIRTIO_MMIO_INTERRUPT_STATUS), vd_rd(&a, VIRTIO_MMIO_INTERRUPT_STATUS));
    ck_assert_int_eq(virtio_mmio_irq_level(b.t), virtio_mmio_irq_level(a.t));
    ck_assert_uint_eq(disk_cow_sectors(virtio_blk_disk(b.vb)), 8); /* A's sectors, not B's yet */
    ck_assert_uint_eq(vd_used_idx(&b), 1);

    virtio_mmio_resume(a.t);
    virtio_mmio_resume(b.t);
    wait_used(&a, 2);
    wait_used(&b, 2);
    virtio_mmio_wait_idle(a.t, 5000);
    virtio_mmio_wait_idle(b.t, 5000);
    ck_assert_uint_eq(*vd_host(&b, VD_HDR + 0x210), VIRTIO_BLK_S_OK);
    ck_assert_msg(!memcmp(a.ram, b.ram, VD_RAM_SIZE), "guest RAM differs after the pending request ran");
    ck_assert_uint_eq(disk_cow_sectors(virtio_blk_disk(b.vb)), 16);
    uint8_t x[4096], y[4096];
    for (uint64_t off = 0; off < (4u << 20); off += sizeof x) {
        ck_assert_int_eq(disk_pread(virtio_blk_disk(a.vb), off, x, sizeof x), 0);
        ck_assert_int_eq(disk_pread(virtio_blk_disk(b.vb), off, y, sizeof y), 0);
        ck_assert_msg(!memcmp(x, y, sizeof x), "disk contents differ at %llu", (unsigned long long)off);
    }
    /* the overlay read back through the device: A's data at sector 100 */
    memset(vd_host(&b, VD_DATA + 0x8000), 0, 4096);
    b.num = a.num; /* the driver's side goes on too */
    b.avail_idx = a.avail_idx;
    b.next_desc = (uint16_t)((head + 3) % a.num);
    b.last_used = 2;
    ck_assert_int_eq(vd_blk(&b, VIRTIO_BLK_T_IN, 100, VD_DATA + 0x8000, 4096, 1, false, NULL), VIRTIO_BLK_S_OK);
    ck_assert(!memcmp(vd_host(&b, VD_DATA + 0x8000), vd_host(&a, VD_DATA), 4096));

    /* damaged transport fields */
    static const Sec secs[] = { { "virtio-mmio", 0, VIRTIO_MMIO_CKPT_VERSION }, { "disk", 0, DISK_CKPT_VERSION } };
    static const struct { const char *field; size_t idx; uint64_t v; const char *want; } bad[] = {
        { "queue_num", 0, 12, "QueueNum 12" },          { "queue_desc", 0, 0x10, "outside guest RAM" },
        { "last_avail", 0, 70000, "'last_avail'" },      { "device_id", 0, 18, "'device_id'" },
        { "pending_kicks", 0, 2, "'pending_kicks'" },    { "broken", 0, 1, "'broken'" },
        { "driver_features", 0, 1ull << 40, "'driver_features'" }, { "overlay_at", 0, 1ull << 40, "'overlay_at'" },
        { "overlay_sectors", 0, 9, "'overlay_sectors'" },
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        patch(secs, 2, i < 7 ? "virtio-mmio" : "disk", 0, bad[i].field, bad[i].idx, bad[i].v);
        VDrv c;
        vd_setup(&c, cow_disk(img), false);
        r = ropen(ck_path2);
        ck_assert_msg(!virtio_blk_ckpt_load(c.vb, r, 0), "damaged field %s loaded", bad[i].field);
        assert_refused(r, false, (const char *const[]){ bad[i].want, NULL });
        ckpt_reader_close(r);
        virtio_mmio_resume(c.t);
        vd_teardown(&c);
    }
    vd_teardown(&a);
    vd_teardown(&b);
    unlink(img);
    free(img);
}
END_TEST

/* A save that races the worker thread: the driver notifies a large write and the save pauses the
 * device at once, so the request is in flight, done, or not started yet, depending on timing.
 * Whichever it was, the loaded device and the original end with the same RAM and disk: nothing
 * lost, nothing done twice. */
START_TEST(blk_save_races_the_worker)
{
    char *img = vd_tmpname("ckrace");
    vd_make_image(img, 8 << 20);
    unsigned seen[3] = { 0, 0, 0 }; /* used index 0, 1 at the save; 2 never */
    for (unsigned round = 0; round < 96; round++) {
        VDrv a, b;
        vd_setup(&a, cow_disk(img), true);
        vd_init(&a, FEAT(VIRTIO_F_VERSION_1) | FEAT(VIRTIO_F_EVENT_IDX), 16);
        for (unsigned i = 0; i < (1u << 20); i++)
            *vd_host(&a, VD_DATA + i) = (uint8_t)(i * 5 + round);
        blk_publish(&a, 0, VD_HDR + 0x200, VIRTIO_BLK_T_OUT, 2048 * (round % 4), VD_DATA, 1u << 20);
        vd_wr(&a, VIRTIO_MMIO_QUEUE_NOTIFY, 0);
        struct timespec ts = { 0, (long)(round * 20000) }; /* 0..1.9 ms: before, during, after */
        nanosleep(&ts, NULL);
        virtio_mmio_pause(a.t);
        uint16_t at_save = vd_used_idx(&a);
        ck_assert_uint_le(at_save, 1);
        seen[at_save]++;
        CkptWriter *w = wopen();
        virtio_blk_ckpt_save(a.vb, w, 0);
        wclose(w);
        vd_setup(&b, cow_disk(img), true);
        memcpy(b.ram, a.ram, VD_RAM_SIZE);
        CkptReader *r = ropen(ck_path);
        ck_assert_msg(virtio_blk_ckpt_load(b.vb, r, 0), "%s", ckpt_error(r));
        ckpt_reader_close(r);
        virtio_mmio_resume(a.t);
        virtio_mmio_resume(b.t);
        wait_used(&a, 1);
        wait_used(&b, 1);
        ck_assert(virtio_mmio_wait_idle(a.t, 5000) && virtio_mmio_wait_idle(b.t, 5000));
        ck_assert_msg(!memcmp(a.ram, b.ram, VD_RAM_SIZE), "round %u: RAM differs", round);
        ck_assert_uint_eq(disk_cow_sectors(virtio_blk_disk(a.vb)), 2048);
        ck_assert_uint_eq(disk_cow_sectors(virtio_blk_disk(b.vb)), 2048);
        static uint8_t x[1 << 20], y[1 << 20];
        ck_assert_int_eq(disk_pread(virtio_blk_disk(a.vb), (2048ull * (round % 4)) * 512, x, sizeof x), 0);
        ck_assert_int_eq(disk_pread(virtio_blk_disk(b.vb), (2048ull * (round % 4)) * 512, y, sizeof y), 0);
        ck_assert(!memcmp(x, y, sizeof x) && !memcmp(x, vd_host(&a, VD_DATA), sizeof x));
        vd_teardown(&a);
        vd_teardown(&b);
    }
    printf("blk_save_races_the_worker: at the save, %u rounds had the request pending, %u done\n", seen[0],
           seen[1]);
    unlink(img);
    free(img);
}
END_TEST

/* The base image is part of the checkpoint's identity: another content, size or mode is refused
 * naming the disk; a write-through disk cannot be checkpointed. */
START_TEST(disk_identity)
{
    char err[512];
    char *img = vd_tmpname("ckid");
    vd_make_image(img, 8 << 20);
    Disk *d = cow_disk(img);
    uint8_t buf[512];
    memset(buf, 0x5a, sizeof buf);
    ck_assert_int_eq(disk_pwrite(d, 7 << 20, buf, sizeof buf), 0);
    CkptWriter *w = wopen();
    disk_ckpt_save(d, w, 2);
    wclose(w);
    disk_close(d);

    d = cow_disk(img); /* same image: loads, the written sector comes back */
    CkptReader *r = ropen(ck_path);
    ck_assert_msg(disk_ckpt_load(d, r, 2), "%s", ckpt_error(r));
    ckpt_reader_close(r);
    uint8_t back[512];
    ck_assert_int_eq(disk_pread(d, 7 << 20, back, sizeof back), 0);
    ck_assert(!memcmp(back, buf, sizeof buf));
    ck_assert_uint_eq(disk_cow_sectors(d), 1);
    disk_close(d);

    d = disk_open(img, DISK_READ_ONLY, err, sizeof err); /* another mode */
    r = ropen(ck_path);
    assert_refused(r, disk_ckpt_load(d, r, 2), (const char *const[]){ "'disk' 2", img, "cow", NULL });
    ckpt_reader_close(r);
    disk_close(d);

    /* one byte of the image changed, in each sampled place: refused naming the disk */
    static const uint64_t where[] = { 1024, (8 << 20) - 1, 4 << 20 };
    for (unsigned i = 0; i < 3; i++) {
        int fd = open(img, O_RDWR);
        uint8_t c;
        ck_assert_int_eq(pread(fd, &c, 1, (off_t)where[i]), 1);
        c ^= 0xFF;
        ck_assert_int_eq(pwrite(fd, &c, 1, (off_t)where[i]), 1);
        d = cow_disk(img);
        r = ropen(ck_path);
        assert_refused(r, disk_ckpt_load(d, r, 2), (const char *const[]){ img, "not the image of the save", NULL });
        ckpt_reader_close(r);
        disk_close(d);
        c ^= 0xFF;
        ck_assert_int_eq(pwrite(fd, &c, 1, (off_t)where[i]), 1);
        close(fd);
    }
    ck_assert_int_eq(truncate(img, 9 << 20), 0); /* another size */
    d = cow_disk(img);
    r = ropen(ck_path);
    assert_refused(r, disk_ckpt_load(d, r, 2), (const char *const[]){ img, "bytes", NULL });
    ckpt_reader_close(r);
    disk_close(d);

    d = disk_open(img, DISK_WRITE_THROUGH, err, sizeof err);
    ck_assert_ptr_nonnull(d);
    ck_assert(!disk_ckpt_savable(d, err, sizeof err));
    ck_assert_msg(strstr(err, img) && strstr(err, "write-through"), "%s", err);
    disk_close(d);
    unlink(img);
    free(img);
}
END_TEST

/* --share: the same tree gives the same image (a checkpoint's overlay stays valid); a changed
 * file is refused naming the directory; a host read moving access times is not a change. */
START_TEST(share_identity)
{
    char dir[256], f1[300], err[512];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/malibu-ckshare-%d", tmp && *tmp ? tmp : "/tmp", (int)getpid());
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    snprintf(f1, sizeof f1, "%s/run.sh", dir);
    FILE *f = fopen(f1, "w");
    fputs("echo hello\n", f);
    fclose(f);
    Disk *d1 = disk_open_dir(dir, DISK_COW, err, sizeof err);
    ck_assert_msg(d1 != NULL, "%s", err);
    uint8_t sect[512];
    memset(sect, 0x33, sizeof sect);
    ck_assert_int_eq(disk_pwrite(d1, 20 << 20, sect, sizeof sect), 0);
    CkptWriter *w = wopen();
    disk_ckpt_save(d1, w, 1);
    wclose(w);

    struct timespec ts[2] = { { 1000000000, 0 }, { 0, UTIME_OMIT } }; /* atime only */
    ck_assert_int_eq(utimensat(AT_FDCWD, f1, ts, 0), 0);
    Disk *d2 = disk_open_dir(dir, DISK_COW, err, sizeof err);
    ck_assert_msg(d2 != NULL, "%s", err);
    ck_assert_uint_eq(disk_size(d1), disk_size(d2));
    CkptReader *r = ropen(ck_path);
    ck_assert_msg(disk_ckpt_load(d2, r, 1), "%s", ckpt_error(r));
    ckpt_reader_close(r);
    /* the same layout: every block but the inode bytes holding times is the same */
    static uint8_t x[1 << 16], y[1 << 16];
    unsigned differ = 0;
    for (uint64_t off = 0; off < disk_size(d1); off += sizeof x) {
        ck_assert_int_eq(disk_pread(d1, off, x, sizeof x), 0);
        ck_assert_int_eq(disk_pread(d2, off, y, sizeof y), 0);
        for (size_t i = 0; i < sizeof x; i++)
            differ += x[i] != y[i];
    }
    ck_assert_msg(differ < 16, "%u bytes differ between two images of one tree", differ);

    f = fopen(f1, "a");
    fputs("echo more\n", f);
    fclose(f);
    Disk *d3 = disk_open_dir(dir, DISK_COW, err, sizeof err);
    ck_assert_msg(d3 != NULL, "%s", err);
    r = ropen(ck_path);
    assert_refused(r, disk_ckpt_load(d3, r, 1), (const char *const[]){ "--share", dir, "differ", NULL });
    ckpt_reader_close(r);
    disk_close(d1);
    disk_close(d2);
    disk_close(d3);
    unlink(f1);
    rmdir(dir);
}
END_TEST

/* ---- virtio-input ---------------------------------------------------------------------------- */

#define IN_RAM 0x80000000ull
#define IN_MMIO 0x1C130000ull
typedef struct InBoard {
    Bus *bus;
    uint8_t *ram;
    VirtioInput *in;
    VirtioMmio *t;
} InBoard;

static void in_make(InBoard *b)
{
    b->bus = bus_new();
    b->ram = bus_add_ram(b->bus, "ram", IN_RAM, 1 << 20, false);
    b->in = virtio_input_new(b->bus, NULL, 74, IN_MMIO, VIRTIO_INPUT_TABLET, false);
    ck_assert_ptr_nonnull(b->in);
    b->t = virtio_input_transport(b->in);
    bus_freeze(b->bus);
}

static void in_wr(InBoard *b, uint64_t off, uint32_t v) { virtio_mmio_ops.write(b->t, off, v, 4); }

static void in_post(InBoard *b, uint16_t *avail, uint16_t head)
{
    memcpy(b->ram + 0x1000 + 4 + 2 * (*avail % 8), &head, 2);
    (*avail)++;
    memcpy(b->ram + 0x1000 + 2, avail, 2);
    in_wr(b, VIRTIO_MMIO_QUEUE_NOTIFY, 0);
}

START_TEST(input_events_wait_across_a_load)
{
    InBoard a, b;
    in_make(&a);
    in_wr(&a, VIRTIO_MMIO_STATUS, VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER);
    in_wr(&a, VIRTIO_MMIO_DRIVER_FEATURES_SEL, 1);
    in_wr(&a, VIRTIO_MMIO_DRIVER_FEATURES, 1);
    in_wr(&a, VIRTIO_MMIO_STATUS, VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER | VIRTIO_STATUS_FEATURES_OK);
    for (unsigned i = 0; i < 8; i++) {
        VirtqDesc d = { IN_RAM + 0x4000 + 16 * i, 8, VIRTQ_DESC_F_WRITE, 0 };
        memcpy(a.ram + 16 * i, &d, 16);
    }
    in_wr(&a, VIRTIO_MMIO_QUEUE_SEL, 0);
    in_wr(&a, VIRTIO_MMIO_QUEUE_NUM, 8);
    in_wr(&a, VIRTIO_MMIO_QUEUE_DESC_LOW, (uint32_t)IN_RAM);
    in_wr(&a, VIRTIO_MMIO_QUEUE_DRIVER_LOW, (uint32_t)IN_RAM + 0x1000);
    in_wr(&a, VIRTIO_MMIO_QUEUE_DEVICE_LOW, (uint32_t)IN_RAM + 0x2000);
    in_wr(&a, VIRTIO_MMIO_QUEUE_READY, 1);
    in_wr(&a, VIRTIO_MMIO_STATUS, VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER | VIRTIO_STATUS_FEATURES_OK |
                                  VIRTIO_STATUS_DRIVER_OK);
    uint16_t avail = 0;
    in_post(&a, &avail, 0);
    virtio_input_send(a.in, EV_ABS, ABS_X, 1234); /* into buffer 0 */
    virtio_input_send(a.in, EV_ABS, ABS_Y, 4321); /* wait: no buffer */
    virtio_input_send(a.in, EV_SYN, SYN_REPORT, 0);
    virtio_mmio_ops.write(a.t, VIRTIO_MMIO_CONFIG, 1, 1); /* select ID_NAME */
    CkptWriter *w = wopen();
    virtio_input_ckpt_save(a.in, w, 5);
    wclose(w);

    in_make(&b);
    memcpy(b.ram, a.ram, 1 << 20);
    CkptReader *r = ropen(ck_path);
    ck_assert_msg(virtio_input_ckpt_load(b.in, r, 5), "%s", ckpt_error(r));
    ck_assert_msg(ckpt_finish(r), "%s", ckpt_error(r));
    ckpt_reader_close(r);
    virtio_mmio_resume(b.t);
    ck_assert_uint_eq(virtio_mmio_ops.read(b.t, VIRTIO_MMIO_CONFIG + 2, 1), strlen("malibu virtio tablet"));
    uint16_t avail_b = avail;
    in_post(&a, &avail, 1);
    in_post(&a, &avail, 2);
    in_post(&b, &avail_b, 1);
    in_post(&b, &avail_b, 2);
    ck_assert_msg(!memcmp(a.ram, b.ram, 1 << 20), "the waiting events reached the buffers differently");
    int32_t v;
    memcpy(&v, b.ram + 0x4000 + 16 + 4, 4);
    ck_assert_int_eq(v, 4321);

    static const Sec secs[] = { { "virtio-mmio", 5, VIRTIO_MMIO_CKPT_VERSION },
                                { "virtio-input", 5, VIRTIO_INPUT_CKPT_VERSION } };
    patch(secs, 2, "virtio-input", 5, "kind", 0, VIRTIO_INPUT_KEYBOARD);
    InBoard c;
    in_make(&c);
    r = ropen(ck_path2);
    assert_refused(r, virtio_input_ckpt_load(c.in, r, 5), (const char *const[]){ "'kind'", "tablet", NULL });
    ckpt_reader_close(r);
    virtio_input_free(a.in);
    virtio_input_free(b.in);
    virtio_input_free(c.in);
    bus_free(a.bus);
    bus_free(b.bus);
    bus_free(c.bus);
}
END_TEST

/* ---- display controllers -------------------------------------------------------------------- */

#define FB_RAM 0x80000000ull
#define HDLCD_IRQ 117
#define LCDIF_IRQ 118

static Bus *fb_bus(uint8_t **ram)
{
    Bus *bus = bus_new();
    *ram = bus_add_ram(bus, "ram", FB_RAM, 4 << 20, false);
    bus_freeze(bus);
    for (unsigned i = 0; i < (4u << 20); i++)
        (*ram)[i] = (uint8_t)(i * 31 + (i >> 12));
    return bus;
}

static void hw(Hdlcd *d, uint64_t off, uint32_t v) { hdlcd_ops.write(d, off, v, 4); }

START_TEST(hdlcd_scanout_and_irq_round_trip)
{
    uint8_t *ram;
    Bus *bus = fb_bus(&ram);
    Gic *g = spi_gic();
    Hdlcd *d = hdlcd_new(bus, g, HDLCD_IRQ, 65000000);
    hw(d, HDLCD_REG_FB_BASE, (uint32_t)FB_RAM);
    hw(d, HDLCD_REG_FB_LINE_LENGTH, 640 * 4);
    hw(d, HDLCD_REG_FB_LINE_PITCH, 640 * 4);
    hw(d, HDLCD_REG_FB_LINE_COUNT, 479);
    hw(d, HDLCD_REG_V_DATA, 479);
    hw(d, HDLCD_REG_H_DATA, 639);
    hw(d, HDLCD_REG_PIXEL_FORMAT, 3 << 3);
    hw(d, HDLCD_REG_RED_SELECT, 8 << 8 | 16);
    hw(d, HDLCD_REG_GREEN_SELECT, 8 << 8 | 8);
    hw(d, HDLCD_REG_BLUE_SELECT, 8 << 8);
    hw(d, HDLCD_REG_INT_MASK, HDLCD_INT_VSYNC);
    hw(d, HDLCD_REG_COMMAND, 1);
    hdlcd_end_frame(d);
    ck_assert(spi_pending(g, HDLCD_IRQ));
    CkptWriter *w = wopen();
    hdlcd_ckpt_save(d, w);
    wclose(w);

    Gic *g2 = spi_gic();
    Hdlcd *d2 = hdlcd_new(bus, g2, HDLCD_IRQ, 65000000);
    CkptReader *r = ropen(ck_path);
    ck_assert_msg(hdlcd_ckpt_load(d2, r), "%s", ckpt_error(r));
    ckpt_reader_close(r);
    ck_assert_msg(spi_pending(g2, HDLCD_IRQ), "the loaded HDLCD's interrupt is not on the new GIC");
    for (uint64_t off = 0; off < 0x250; off += 4)
        ck_assert_uint_eq(hdlcd_ops.read(d2, off, 4), hdlcd_ops.read(d, off, 4));
    ck_assert_uint_ge(hdlcd_frames(d2), 1);
    ck_assert_uint_eq(hdlcd_refresh_mhz(d2), hdlcd_refresh_mhz(d));
    static uint32_t p1[640 * 480], p2[640 * 480];
    unsigned w1, h1, w2, h2;
    ck_assert(hdlcd_render(d, p1, 640 * 480, &w1, &h1));
    ck_assert(hdlcd_render_changed(d2, p2, 640 * 480, &w2, &h2) == 1);
    ck_assert(w1 == w2 && h1 == h2 && !memcmp(p1, p2, sizeof p1));

    static const Sec secs[] = { { "hdlcd", 0, HDLCD_CKPT_VERSION } };
    patch(secs, 1, "hdlcd", 0, "reg", HDLCD_REG_PIXEL_FORMAT / 4, 0x7);
    Hdlcd *d3 = hdlcd_new(bus, NULL, 0, 65000000);
    r = ropen(ck_path2);
    assert_refused(r, hdlcd_ckpt_load(d3, r), (const char *const[]){ "hdlcd", "'reg'", "0x240", NULL });
    ckpt_reader_close(r);
    hdlcd_free(d);
    hdlcd_free(d2);
    hdlcd_free(d3);
    gic_free(g);
    gic_free(g2);
    bus_free(bus);
}
END_TEST

static void lw(Lcdif *d, uint64_t off, uint32_t v) { lcdif_ops.write(d, off, v, 4); }

START_TEST(lcdif_scanout_and_irq_round_trip)
{
    uint8_t *ram;
    Bus *bus = fb_bus(&ram);
    Gic *g = spi_gic();
    Lcdif *d = lcdif_new(bus, g, LCDIF_IRQ, 65000000);
    lw(d, LCDIF_REG_CTRL + LCDIF_CLR, LCDIF_CTRL_SFTRST | LCDIF_CTRL_CLKGATE);
    lw(d, LCDIF_REG_CTRL1, 0x7u << LCDIF_CTRL1_PACKING_SHIFT | LCDIF_CTRL1_CUR_FRAME_DONE_IRQ_EN);
    lw(d, LCDIF_REG_TRANSFER_COUNT, 480u << 16 | 640);
    lw(d, LCDIF_REG_CUR_BUF, (uint32_t)FB_RAM);
    lw(d, LCDIF_REG_NEXT_BUF, (uint32_t)FB_RAM + 0x1000);
    lw(d, LCDIF_REG_VDCTRL0, LCDIF_VDCTRL0_VSYNC_PERIOD_UNIT);
    lw(d, LCDIF_REG_VDCTRL1, 806);
    lw(d, LCDIF_REG_VDCTRL2, 1344);
    lw(d, LCDIF_REG_CTRL, LCDIF_CTRL_DOTCLK_MODE | 3u << LCDIF_CTRL_WORD_LENGTH_SHIFT | LCDIF_CTRL_MASTER |
                          LCDIF_CTRL_RUN);
    lcdif_end_frame(d); /* flips to NEXT_BUF, CUR_FRAME_DONE */
    ck_assert(spi_pending(g, LCDIF_IRQ));
    CkptWriter *w = wopen();
    lcdif_ckpt_save(d, w);
    wclose(w);

    Gic *g2 = spi_gic();
    Lcdif *d2 = lcdif_new(bus, g2, LCDIF_IRQ, 65000000);
    CkptReader *r = ropen(ck_path);
    ck_assert_msg(lcdif_ckpt_load(d2, r), "%s", ckpt_error(r));
    ckpt_reader_close(r);
    ck_assert_msg(spi_pending(g2, LCDIF_IRQ), "the loaded eLCDIF's interrupt is not on the new GIC");
    for (uint64_t off = 0; off < 0x200; off += 0x10)
        ck_assert_uint_eq(lcdif_ops.read(d2, off, 4), lcdif_ops.read(d, off, 4));
    ck_assert(lcdif_running(d2));
    ck_assert_uint_ge(lcdif_frames(d2), 1);
    static uint32_t p1[640 * 480], p2[640 * 480];
    unsigned w1, h1, w2, h2;
    ck_assert(lcdif_render(d, p1, 640 * 480, &w1, &h1));
    ck_assert(lcdif_render(d2, p2, 640 * 480, &w2, &h2));
    ck_assert(w1 == w2 && h1 == h2 && !memcmp(p1, p2, sizeof p1));

    static const Sec secs[] = { { "lcdif", 0, LCDIF_CKPT_VERSION } };
    patch(secs, 1, "lcdif", 0, "reg", 0, LCDIF_CTRL_RUN);
    Lcdif *d3 = lcdif_new(bus, NULL, 0, 65000000);
    r = ropen(ck_path2);
    assert_refused(r, lcdif_ckpt_load(d3, r), (const char *const[]){ "lcdif", "'reg'", "DOTCLK", NULL });
    ckpt_reader_close(r);
    patch(secs, 1, "lcdif", 0, "reg", LCDIF_REG_VERSION / 0x10, 0x05000000);
    r = ropen(ck_path2);
    assert_refused(r, lcdif_ckpt_load(d3, r), (const char *const[]){ "lcdif", "'reg'", "0x1c0", NULL });
    ckpt_reader_close(r);
    lcdif_free(d);
    lcdif_free(d2);
    lcdif_free(d3);
    gic_free(g);
    gic_free(g2);
    bus_free(bus);
}
END_TEST

/* ---- hostile values ---------------------------------------------------------------------- */

/* Every integer (the first 8 elements of each field) of the sections of ck_path set in turn to
 * values a damaged or forged file could hold; load (a fresh device each time, which then runs as
 * far as it can) must either succeed or fail with a message naming a section, never crash. */
static void hostile_values(const Sec *secs, unsigned n, bool (*load)(const char *path))
{
    static const uint64_t values[] = { 0, 1, 2, 0xFF, 0xFFFF, 0x10000, 0xFFFFFFFFu, 1ull << 32,
                                       1ull << 63, UINT64_MAX, 0x80000ff0ull };
    unsigned loads = 0, refused = 0;
    for (unsigned i = 0; i < n; i++) {
        char fields[64][64];
        size_t counts[64];
        unsigned nf = 0;
        CkptReader *r = ropen(ck_path);
        CkptSection *s = ckpt_section(r, secs[i].name, secs[i].inst, secs[i].version);
        ck_assert_ptr_nonnull(s);
        CkptFieldView f;
        while (ckpt_next_field(s, &f) && nf < 64)
            if (f.is_int) {
                snprintf(fields[nf], sizeof fields[nf], "%.*s", (int)f.name_len, f.name);
                counts[nf++] = f.len / 8;
            }
        ckpt_reader_close(r);
        for (unsigned k = 0; k < nf; k++)
            for (size_t e = 0; e < counts[k] && e < 8; e++)
                for (unsigned v = 0; v < sizeof values / sizeof values[0]; v++) {
                    patch(secs, n, secs[i].name, secs[i].inst, fields[k], e, values[v]);
                    loads++;
                    if (!load(ck_path2))
                        refused++;
                }
    }
    ck_assert_uint_gt(refused, 0);
    ck_assert_uint_lt(refused, loads); /* some values are legal: the loads went through */
}

/* A load that failed must say why, naming a section. */
static bool load_result(CkptReader *r, bool ok)
{
    if (!ok) {
        const char *e = ckpt_error(r);
        ck_assert_msg(e && strstr(e, "section '"), "refused without naming a section: %s", e ? e : "(none)");
    }
    ckpt_reader_close(r);
    return ok;
}

static bool load_pl011(const char *p)
{
    Gic *g = spi_gic();
    Pl011 *u = pl011_new(g, UART_IRQ, NULL, NULL);
    CkptReader *r = ropen(p);
    bool ok = load_result(r, pl011_ckpt_load(u, r));
    for (int i = 0; i < 20; i++) /* drain what loaded */
        (void)urd(u, U_DR);
    pl011_free(u);
    gic_free(g);
    return ok;
}

static bool load_pl031(const char *p)
{
    Pl031 *rtc = pl031_new(NULL, 0);
    CkptReader *r = ropen(p);
    bool ok = load_result(r, pl031_ckpt_load(rtc, r));
    (void)rrd(rtc, R_DR);
    pl031_free(rtc);
    return ok;
}

static void log_sink(void *opaque, const char *line)
{
    (void)opaque;
    (void)line; /* a hostile ring's "device needs reset": expected, hundreds of times */
}

static char *hostile_img;
static uint8_t *hostile_ram; /* the guest RAM of the save */

static bool load_blk(const char *p)
{
    VDrv c;
    vd_setup(&c, cow_disk(hostile_img), false);
    virtio_mmio_set_log(c.t, log_sink, NULL);
    memcpy(c.ram, hostile_ram, VD_RAM_SIZE);
    CkptReader *r = ropen(p);
    bool ok = load_result(r, virtio_blk_ckpt_load(c.vb, r, 0));
    virtio_mmio_resume(c.t); /* runs the pending queue on whatever loaded */
    vd_wr(&c, VIRTIO_MMIO_QUEUE_NOTIFY, 0);
    vd_teardown(&c);
    return ok;
}

static uint8_t *hostile_in_ram;

static bool load_input(const char *p)
{
    InBoard c;
    in_make(&c);
    virtio_mmio_set_log(c.t, log_sink, NULL);
    memcpy(c.ram, hostile_in_ram, 1 << 20);
    CkptReader *r = ropen(p);
    bool ok = load_result(r, virtio_input_ckpt_load(c.in, r, 5));
    virtio_mmio_resume(c.t);
    uint16_t avail = 1;
    in_post(&c, &avail, 1); /* a buffer for what waits */
    virtio_input_send(c.in, EV_KEY, 2, 1);
    (void)virtio_mmio_ops.read(c.t, VIRTIO_MMIO_CONFIG + 2, 1);
    virtio_input_free(c.in);
    bus_free(c.bus);
    return ok;
}

static bool load_hdlcd(const char *p)
{
    uint8_t *ram;
    Bus *bus = fb_bus(&ram);
    Hdlcd *d = hdlcd_new(bus, NULL, 0, 65000000);
    CkptReader *r = ropen(p);
    bool ok = load_result(r, hdlcd_ckpt_load(d, r));
    static uint32_t px[640 * 480];
    unsigned w, h;
    (void)hdlcd_render_changed(d, px, 640 * 480, &w, &h);
    hdlcd_free(d);
    bus_free(bus);
    return ok;
}

static bool load_lcdif(const char *p)
{
    uint8_t *ram;
    Bus *bus = fb_bus(&ram);
    Lcdif *d = lcdif_new(bus, NULL, 0, 65000000);
    CkptReader *r = ropen(p);
    bool ok = load_result(r, lcdif_ckpt_load(d, r));
    static uint32_t px[640 * 480];
    unsigned w, h;
    (void)lcdif_render_changed(d, px, 640 * 480, &w, &h);
    lcdif_free(d);
    bus_free(bus);
    return ok;
}

START_TEST(hostile_fields_never_crash)
{
    /* UART, RTC */
    Pl011 *u = pl011_new(NULL, 0, NULL, NULL);
    pl011_receive(u, (const uint8_t *)"abc", 3);
    CkptWriter *w = wopen();
    pl011_ckpt_save(u, w);
    wclose(w);
    pl011_free(u);
    hostile_values((const Sec[]){ { "pl011", 0, PL011_CKPT_VERSION } }, 1, load_pl011);
    Pl031 *rtc = pl031_new(NULL, 0);
    w = wopen();
    pl031_ckpt_save(rtc, w);
    wclose(w);
    pl031_free(rtc);
    hostile_values((const Sec[]){ { "pl031", 0, PL031_CKPT_VERSION } }, 1, load_pl031);

    /* virtio-blk with one request done and one pending, and its disk */
    hostile_img = vd_tmpname("ckhost");
    vd_make_image(hostile_img, 2 << 20);
    VDrv a;
    vd_setup(&a, cow_disk(hostile_img), false);
    vd_init(&a, FEAT(VIRTIO_F_VERSION_1) | FEAT(VIRTIO_F_EVENT_IDX) | FEAT(VIRTIO_F_INDIRECT_DESC), 8);
    ck_assert_int_eq(vd_blk(&a, VIRTIO_BLK_T_OUT, 10, VD_DATA, 1024, 1, false, NULL), VIRTIO_BLK_S_OK);
    virtio_mmio_pause(a.t);
    blk_publish(&a, a.next_desc, VD_HDR + 0x200, VIRTIO_BLK_T_IN, 2, VD_DATA + 4096, 512);
    vd_wr(&a, VIRTIO_MMIO_QUEUE_NOTIFY, 0);
    w = wopen();
    virtio_blk_ckpt_save(a.vb, w, 0);
    wclose(w);
    hostile_ram = malloc(VD_RAM_SIZE);
    memcpy(hostile_ram, a.ram, VD_RAM_SIZE);
    virtio_mmio_resume(a.t);
    vd_teardown(&a);
    hostile_values((const Sec[]){ { "virtio-mmio", 0, VIRTIO_MMIO_CKPT_VERSION }, { "disk", 0, DISK_CKPT_VERSION } },
                   2, load_blk);
    free(hostile_ram);
    unlink(hostile_img);
    free(hostile_img);

    /* a tablet with an event delivered and two waiting */
    InBoard ib;
    in_make(&ib);
    in_wr(&ib, VIRTIO_MMIO_STATUS, VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER);
    in_wr(&ib, VIRTIO_MMIO_DRIVER_FEATURES_SEL, 1);
    in_wr(&ib, VIRTIO_MMIO_DRIVER_FEATURES, 1);
    in_wr(&ib, VIRTIO_MMIO_STATUS, VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER | VIRTIO_STATUS_FEATURES_OK);
    for (unsigned i = 0; i < 8; i++) {
        VirtqDesc dsc = { IN_RAM + 0x4000 + 16 * i, 8, VIRTQ_DESC_F_WRITE, 0 };
        memcpy(ib.ram + 16 * i, &dsc, 16);
    }
    in_wr(&ib, VIRTIO_MMIO_QUEUE_NUM, 8);
    in_wr(&ib, VIRTIO_MMIO_QUEUE_DESC_LOW, (uint32_t)IN_RAM);
    in_wr(&ib, VIRTIO_MMIO_QUEUE_DRIVER_LOW, (uint32_t)IN_RAM + 0x1000);
    in_wr(&ib, VIRTIO_MMIO_QUEUE_DEVICE_LOW, (uint32_t)IN_RAM + 0x2000);
    in_wr(&ib, VIRTIO_MMIO_QUEUE_READY, 1);
    in_wr(&ib, VIRTIO_MMIO_STATUS, VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER | VIRTIO_STATUS_FEATURES_OK |
                                   VIRTIO_STATUS_DRIVER_OK);
    uint16_t av = 0;
    in_post(&ib, &av, 0);
    for (int i = 0; i < 3; i++)
        virtio_input_send(ib.in, EV_ABS, ABS_X, i);
    w = wopen();
    virtio_input_ckpt_save(ib.in, w, 5);
    wclose(w);
    hostile_in_ram = malloc(1 << 20);
    memcpy(hostile_in_ram, ib.ram, 1 << 20);
    virtio_input_free(ib.in);
    bus_free(ib.bus);
    hostile_values((const Sec[]){ { "virtio-mmio", 5, VIRTIO_MMIO_CKPT_VERSION },
                                  { "virtio-input", 5, VIRTIO_INPUT_CKPT_VERSION } }, 2, load_input);
    free(hostile_in_ram);

    /* display controllers, running */
    uint8_t *ram;
    Bus *bus = fb_bus(&ram);
    Hdlcd *d = hdlcd_new(bus, NULL, 0, 65000000);
    hw(d, HDLCD_REG_FB_BASE, (uint32_t)FB_RAM);
    hw(d, HDLCD_REG_FB_LINE_LENGTH, 64);
    hw(d, HDLCD_REG_FB_LINE_PITCH, 64);
    hw(d, HDLCD_REG_COMMAND, 1);
    w = wopen();
    hdlcd_ckpt_save(d, w);
    wclose(w);
    hdlcd_free(d);
    hostile_values((const Sec[]){ { "hdlcd", 0, HDLCD_CKPT_VERSION } }, 1, load_hdlcd);
    Lcdif *l = lcdif_new(bus, NULL, 0, 65000000);
    lw(l, LCDIF_REG_CTRL + LCDIF_CLR, LCDIF_CTRL_SFTRST | LCDIF_CTRL_CLKGATE);
    lw(l, LCDIF_REG_CTRL1, 0x7u << LCDIF_CTRL1_PACKING_SHIFT);
    lw(l, LCDIF_REG_TRANSFER_COUNT, 48u << 16 | 64);
    lw(l, LCDIF_REG_CUR_BUF, (uint32_t)FB_RAM);
    lw(l, LCDIF_REG_NEXT_BUF, (uint32_t)FB_RAM);
    lw(l, LCDIF_REG_CTRL, LCDIF_CTRL_DOTCLK_MODE | 3u << LCDIF_CTRL_WORD_LENGTH_SHIFT | LCDIF_CTRL_RUN);
    w = wopen();
    lcdif_ckpt_save(l, w);
    wclose(w);
    lcdif_free(l);
    hostile_values((const Sec[]){ { "lcdif", 0, LCDIF_CKPT_VERSION } }, 1, load_lcdif);
    bus_free(bus);
}
END_TEST

/* ---- the board's I/O block ------------------------------------------------------------------ */

static Board *io_board(const char *img, const char *dir)
{
    BoardConfig cfg;
    board_config_default(&cfg);
    cfg.console_in = -1;
    cfg.console_out = -1;
    cfg.gpu = "none";
    cfg.ram_size = 64ull << 20;
    cfg.screenshot = "unused.png"; /* the display: HDLCD, eLCDIF, keyboard, tablet */
    char err[256];
    unsigned n = 0;
    ck_assert_int_eq(virtio_board_parse(cfg.disks, &n, img, false, err, sizeof err), 0);
    ck_assert_int_eq(virtio_board_parse(cfg.disks, &n, dir, true, err, sizeof err), 0);
    cfg.ndisks = n;
    Board *b = board_new(&cfg, err, sizeof err);
    ck_assert_msg(b != NULL, "%s", err);
    ck_assert_msg(board_realize(b, err, sizeof err), "%s", err);
    return b;
}

/* Every I/O section of a board with a disk, a share and the display is claimed on load (slots
 * in the board's order), and another image under the same option is refused naming it. */
START_TEST(board_io_block)
{
    char dir[256], f1[300];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/malibu-ckboard-%d", tmp && *tmp ? tmp : "/tmp", (int)getpid());
    ck_assert_int_eq(mkdir(dir, 0755), 0);
    snprintf(f1, sizeof f1, "%s/a.txt", dir);
    FILE *f = fopen(f1, "w");
    fputs("a\n", f);
    fclose(f);
    char *img = vd_tmpname("ckboard");
    vd_make_image(img, 2 << 20);
    Board *b = io_board(img, dir);
    ck_assert_uint_eq(b->nvblk, 2);
    uint8_t sect[512];
    memset(sect, 0xA5, sizeof sect);
    ck_assert_int_eq(disk_pwrite(virtio_blk_disk(b->vblk[0]), 4096, sect, sizeof sect), 0);
    virtio_input_send(b->keyboard, EV_KEY, 30, 1);
    CkptWriter *w = wopen();
    board_ckpt_save(b, w);
    wclose(w);

    Board *c = io_board(img, dir);
    CkptReader *r = ropen(ck_path);
    ck_assert_msg(board_ckpt_load(c, r), "%s", ckpt_error(r));
    ck_assert_msg(ckpt_finish(r), "%s", ckpt_error(r));
    ckpt_reader_close(r);
    uint8_t back[512];
    ck_assert_int_eq(disk_pread(virtio_blk_disk(c->vblk[0]), 4096, back, sizeof back), 0);
    ck_assert(!memcmp(back, sect, sizeof sect));
    static uint32_t p1[1024 * 768], p2[1024 * 768];
    unsigned w1, h1, w2, h2;
    ck_assert(board_display_render(b, p1, 1024 * 768, &w1, &h1));
    ck_assert(board_display_render(c, p2, 1024 * 768, &w2, &h2));
    ck_assert(w1 == w2 && h1 == h2 && !memcmp(p1, p2, (size_t)w1 * h1 * 4));

    char *img2 = vd_tmpname("ckboard2"); /* same size, another content */
    vd_make_image(img2, 2 << 20);
    int fd = open(img2, O_RDWR);
    ck_assert_int_eq(pwrite(fd, "X", 1, 0), 1);
    close(fd);
    Board *d = io_board(img2, dir);
    r = ropen(ck_path);
    assert_refused(r, board_ckpt_load(d, r), (const char *const[]){ "'disk' 0", img2, NULL });
    ckpt_reader_close(r);
    board_free(b);
    board_free(c);
    board_free(d);
    unlink(img);
    unlink(img2);
    free(img);
    free(img2);
    unlink(f1);
    rmdir(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ckpt_io");
    TCase *tc = tcase_create("io");
    tcase_add_checked_fixture(tc, paths, unpaths);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, uart_fifo_and_irq_round_trip);
    tcase_add_test(tc, rtc_goes_on_from_the_saved_value);
    tcase_add_loop_test(tc, blk_queue_mid_stream, 0, 2);
    tcase_add_test(tc, blk_save_races_the_worker);
    tcase_add_test(tc, disk_identity);
    tcase_add_test(tc, share_identity);
    tcase_add_test(tc, input_events_wait_across_a_load);
    tcase_add_test(tc, hdlcd_scanout_and_irq_round_trip);
    tcase_add_test(tc, lcdif_scanout_and_irq_round_trip);
    tcase_add_test(tc, board_io_block);
    tcase_add_test(tc, hostile_fields_never_crash);
    suite_add_tcase(s, tc);
    return dev_run_suite(s);
}
