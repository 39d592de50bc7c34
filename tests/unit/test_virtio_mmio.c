/* devices/virtio_mmio: register behaviour, feature handshake, reset, queue checks, interrupts
 * (GIC SPI, ISR/ACK, VIRTQ_AVAIL_F_NO_INTERRUPT, EVENT_IDX), needs-reset on malformed rings. */
#include "vdrv.h"

static void dev_sleep_us(unsigned us)
{
    struct timespec ts = { 0, (long)us * 1000L };
    nanosleep(&ts, NULL);
}

static const uint64_t ALL = ~0ull;

static Disk *small_disk(char **path)
{
    *path = vd_tmpname("mmio");
    vd_make_image(*path, 1 << 20);
    char err[256];
    Disk *d = disk_open(*path, DISK_COW, err, sizeof err);
    ck_assert_msg(d, "%s", err);
    return d;
}

static bool gic_pending(VDrv *d)
{
    return (gic_dist_read(d->gic, 0, 0x200 + 4 * (VD_INTID / 32), 4) >> (VD_INTID % 32)) & 1;
}

START_TEST(identity_registers)
{
    char *path;
    VDrv d;
    vd_setup(&d, small_disk(&path), _i);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_MAGIC), 0x74726976);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_VERSION), 2);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_DEVICE_ID), 2);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_VENDOR_ID), VIRTIO_MMIO_VENDOR);
    vd_wr(&d, VIRTIO_MMIO_DEVICE_FEATURES_SEL, 0);
    uint32_t lo = vd_rd(&d, VIRTIO_MMIO_DEVICE_FEATURES);
    vd_wr(&d, VIRTIO_MMIO_DEVICE_FEATURES_SEL, 1);
    uint32_t hi = vd_rd(&d, VIRTIO_MMIO_DEVICE_FEATURES);
    vd_wr(&d, VIRTIO_MMIO_DEVICE_FEATURES_SEL, 2);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_DEVICE_FEATURES), 0);
    ck_assert_uint_eq(hi & 1, 1); /* VERSION_1 */
    ck_assert(lo & (1u << VIRTIO_F_INDIRECT_DESC));
    ck_assert(lo & (1u << VIRTIO_F_EVENT_IDX));
    ck_assert(lo & (1u << VIRTIO_BLK_F_FLUSH));
    ck_assert(lo & (1u << VIRTIO_BLK_F_SEG_MAX));
    ck_assert(lo & (1u << VIRTIO_BLK_F_BLK_SIZE));
    ck_assert(!(lo & (1u << VIRTIO_BLK_F_RO))); /* COW disks are writable */
    vd_wr(&d, VIRTIO_MMIO_QUEUE_SEL, 0);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_QUEUE_NUM_MAX), VIRTQ_MAX_SIZE);
    vd_wr(&d, VIRTIO_MMIO_QUEUE_SEL, 1); /* one queue only */
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_QUEUE_NUM_MAX), 0);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_QUEUE_READY), 0);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_CONFIG_GENERATION), 0);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_SHM_LEN_LOW), 0xffffffffu);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_STATUS), 0);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_INTERRUPT_STATUS), 0);
    ck_assert_uint_eq(vd_rd(&d, 0x0e0), 0); /* reserved */
    /* config: capacity (1 MiB = 2048 sectors) through every access size */
    uint64_t v;
    ck_assert_int_eq(bus_read(d.bus, VD_MMIO + 0x100, 8, &v), BUS_OK);
    ck_assert_uint_eq(v, 2048);
    ck_assert_int_eq(bus_read(d.bus, VD_MMIO + 0x100, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 2048);
    ck_assert_int_eq(bus_read(d.bus, VD_MMIO + 0x101, 1, &v), BUS_OK);
    ck_assert_uint_eq(v, 8);
    ck_assert_int_eq(bus_read(d.bus, VD_MMIO + 0x100, 2, &v), BUS_OK);
    ck_assert_uint_eq(v, 2048);
    ck_assert_int_eq(bus_read(d.bus, VD_MMIO + 0x10c, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, VIRTIO_BLK_SEG_MAX);
    ck_assert_int_eq(bus_read(d.bus, VD_MMIO + 0x108, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, VIRTIO_BLK_SIZE_MAX);
    ck_assert_int_eq(bus_read(d.bus, VD_MMIO + 0x114, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 512);
    ck_assert_int_eq(bus_read(d.bus, VD_MMIO + 0x120, 8, &v), BUS_OK); /* past config: 0 */
    ck_assert_uint_eq(v, 0);
    /* registers are 32-bit only */
    ck_assert_int_eq(bus_read(d.bus, VD_MMIO + VIRTIO_MMIO_MAGIC, 2, &v), BUS_OK);
    ck_assert_uint_eq(v, 0);
    ck_assert_int_eq(bus_write(d.bus, VD_MMIO + VIRTIO_MMIO_STATUS, 1, 1), BUS_OK);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_STATUS), 0);
    vd_teardown(&d);
    unlink(path);
    free(path);
}
END_TEST

START_TEST(feature_handshake)
{
    char *path;
    VDrv d;
    vd_setup(&d, small_disk(&path), false);
    /* legacy driver (no VERSION_1): FEATURES_OK does not stick, and the refusal is logged */
    uint32_t st = vd_init(&d, ALL & ~FEAT(VIRTIO_F_VERSION_1), 8);
    ck_assert(!(st & VIRTIO_STATUS_FEATURES_OK));
    ck_assert_uint_ge(d.nlog, 1);
    ck_assert_ptr_nonnull(strstr(d.log, "VERSION_1"));
    /* a feature that was not offered */
    vd_wr(&d, VIRTIO_MMIO_STATUS, 0);
    vd_wr(&d, VIRTIO_MMIO_STATUS, 3);
    vd_wr(&d, VIRTIO_MMIO_DRIVER_FEATURES_SEL, 1);
    vd_wr(&d, VIRTIO_MMIO_DRIVER_FEATURES, 1 | 0x80);
    vd_wr(&d, VIRTIO_MMIO_STATUS, 3 | VIRTIO_STATUS_FEATURES_OK);
    ck_assert(!(vd_rd(&d, VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_FEATURES_OK));
    /* good set */
    st = vd_init(&d, ALL, 8);
    ck_assert(st & VIRTIO_STATUS_FEATURES_OK);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_STATUS), st | VIRTIO_STATUS_DRIVER_OK);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_QUEUE_READY), 1);
    /* queue registers are frozen while the queue is ready */
    vd_wr(&d, VIRTIO_MMIO_QUEUE_NUM, 4);
    vd_wr(&d, VIRTIO_MMIO_QUEUE_DESC_LOW, 0x1234);
    uint32_t len;
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_IN, 0, VD_DATA, 512, 1, false, &len), VIRTIO_BLK_S_OK);
    /* reset clears everything */
    vd_wr(&d, VIRTIO_MMIO_STATUS, 0);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_STATUS), 0);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_QUEUE_READY), 0);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_INTERRUPT_STATUS), 0);
    ck_assert(!virtio_mmio_irq_level(d.t));
    ck_assert(!gic_pending(&d));
    vd_teardown(&d);
    unlink(path);
    free(path);
}
END_TEST

START_TEST(queue_checks)
{
    char *path;
    VDrv d;
    vd_setup(&d, small_disk(&path), false);
    unsigned before = d.nlog;
    vd_init(&d, ALL, 6); /* not a power of two */
    ck_assert(vd_rd(&d, VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_NEEDS_RESET);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_QUEUE_READY), 0);
    ck_assert_uint_eq(d.nlog, before + 1);
    ck_assert_ptr_nonnull(strstr(d.log, "power of two"));
    ck_assert_ptr_nonnull(strstr(d.log, "needs reset"));
    vd_init(&d, ALL, 512); /* above QueueNumMax */
    ck_assert(vd_rd(&d, VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_NEEDS_RESET);
    /* rings outside RAM */
    vd_init(&d, ALL, 8);
    ck_assert(!(vd_rd(&d, VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_NEEDS_RESET));
    vd_wr(&d, VIRTIO_MMIO_STATUS, 0);
    vd_wr(&d, VIRTIO_MMIO_STATUS, 0xb);
    vd_wr(&d, VIRTIO_MMIO_QUEUE_SEL, 0);
    vd_wr(&d, VIRTIO_MMIO_QUEUE_NUM, 256);
    vd_wr(&d, VIRTIO_MMIO_QUEUE_DESC_LOW, (uint32_t)(VD_RAM + VD_RAM_SIZE - 16 * 128));
    vd_wr(&d, VIRTIO_MMIO_QUEUE_DRIVER_LOW, (uint32_t)VD_AVAIL);
    vd_wr(&d, VIRTIO_MMIO_QUEUE_DEVICE_LOW, (uint32_t)VD_USED);
    vd_wr(&d, VIRTIO_MMIO_QUEUE_READY, 1);
    ck_assert(vd_rd(&d, VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_NEEDS_RESET);
    ck_assert_ptr_nonnull(strstr(d.log, "outside guest RAM"));
    /* misaligned used ring */
    vd_wr(&d, VIRTIO_MMIO_STATUS, 0);
    vd_wr(&d, VIRTIO_MMIO_STATUS, 0xb);
    vd_wr(&d, VIRTIO_MMIO_QUEUE_NUM, 8);
    vd_wr(&d, VIRTIO_MMIO_QUEUE_DESC_LOW, (uint32_t)VD_DESC);
    vd_wr(&d, VIRTIO_MMIO_QUEUE_DRIVER_LOW, (uint32_t)VD_AVAIL);
    vd_wr(&d, VIRTIO_MMIO_QUEUE_DEVICE_LOW, (uint32_t)VD_USED + 2);
    vd_wr(&d, VIRTIO_MMIO_QUEUE_READY, 1);
    ck_assert(vd_rd(&d, VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_NEEDS_RESET);
    ck_assert_ptr_nonnull(strstr(d.log, "misaligned"));
    /* after a reset the device works again */
    vd_init(&d, ALL, 8);
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_IN, 1, VD_DATA, 512, 1, false, NULL), VIRTIO_BLK_S_OK);
    vd_teardown(&d);
    unlink(path);
    free(path);
}
END_TEST

START_TEST(interrupts)
{
    char *path;
    VDrv d;
    vd_setup(&d, small_disk(&path), _i);
    vd_init(&d, ALL & ~FEAT(VIRTIO_F_EVENT_IDX), 16);
    ck_assert(!virtio_mmio_irq_level(d.t));
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_IN, 0, VD_DATA, 512, 1, false, NULL), VIRTIO_BLK_S_OK);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_INTERRUPT_STATUS), VIRTIO_INT_VRING);
    ck_assert(virtio_mmio_irq_level(d.t));
    ck_assert(gic_pending(&d));
    vd_wr(&d, VIRTIO_MMIO_INTERRUPT_ACK, VIRTIO_INT_VRING);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_INTERRUPT_STATUS), 0);
    ck_assert(!virtio_mmio_irq_level(d.t));
    ck_assert(!gic_pending(&d));
    /* VIRTQ_AVAIL_F_NO_INTERRUPT suppresses it */
    uint16_t fl = VIRTQ_AVAIL_F_NO_INTERRUPT;
    memcpy(vd_host(&d, VD_AVAIL), &fl, 2);
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_IN, 0, VD_DATA, 512, 1, false, NULL), VIRTIO_BLK_S_OK);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_INTERRUPT_STATUS), 0);
    fl = 0;
    memcpy(vd_host(&d, VD_AVAIL), &fl, 2);

    /* EVENT_IDX: interrupt only when used_event is crossed; the device publishes avail_event */
    vd_init(&d, ALL, 16);
    uint16_t ev = 2; /* used_event: interrupt when used idx goes from 2 to 3 */
    memcpy(vd_host(&d, VD_AVAIL + 4 + 2 * 16), &ev, 2);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_IN, 0, VD_DATA, 512, 1, false, NULL), VIRTIO_BLK_S_OK);
        uint32_t isr = vd_rd(&d, VIRTIO_MMIO_INTERRUPT_STATUS);
        /* the first completion always signals (nothing signalled yet), then only 2 -> 3 */
        ck_assert_msg(isr == ((i == 0 || i == 2) ? 1u : 0u), "completion %d isr %u", i, isr);
        vd_wr(&d, VIRTIO_MMIO_INTERRUPT_ACK, isr);
        uint16_t avail_event;
        memcpy(&avail_event, vd_host(&d, VD_USED + 4 + 8 * 16), 2);
        ck_assert_uint_eq(avail_event, i + 1);
    }
    vd_teardown(&d);
    unlink(path);
    free(path);
}
END_TEST

START_TEST(needs_reset_on_bad_chain)
{
    char *path;
    VDrv d;
    vd_setup(&d, small_disk(&path), _i);
    vd_init(&d, ALL, 8);
    /* a loop: 0 -> 1 -> 0 */
    vd_set_desc(vd_host(&d, VD_DESC), 0, VD_HDR, 16, VIRTQ_DESC_F_NEXT, 1);
    vd_set_desc(vd_host(&d, VD_DESC), 1, VD_DATA, 512, VIRTQ_DESC_F_NEXT, 0);
    unsigned before = d.nlog;
    ck_assert(!vd_kick_wait(&d, 0, NULL));
    ck_assert(vd_rd(&d, VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_NEEDS_RESET);
    ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_INTERRUPT_STATUS), VIRTIO_INT_CONFIG);
    ck_assert(gic_pending(&d));
    ck_assert_uint_eq(d.nlog, before + 1);
    ck_assert_ptr_nonnull(strstr(d.log, "loops"));
    ck_assert_ptr_nonnull(strstr(d.log, "virtio-blk@1c130000: queue 0:"));
    /* the device stays quiet until reset */
    ck_assert(!vd_kick_wait(&d, 0, NULL));
    ck_assert_uint_eq(d.nlog, before + 1);
    /* Status writes keep the bit */
    vd_wr(&d, VIRTIO_MMIO_STATUS, 0xf);
    ck_assert(vd_rd(&d, VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_NEEDS_RESET);
    vd_init(&d, ALL, 8);
    ck_assert(!(vd_rd(&d, VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_NEEDS_RESET));
    ck_assert(!gic_pending(&d));
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_IN, 0, VD_DATA, 512, 1, false, NULL), VIRTIO_BLK_S_OK);
    vd_teardown(&d);
    unlink(path);
    free(path);
}
END_TEST

/* Each malformed chain gets its own clear message and the needs-reset state. */
START_TEST(malformed_kinds)
{
    static const struct {
        const char *want;
    } cases[] = {
        { "head descriptor index" }, { "out of range" }, { "outside guest RAM" },
        { "device-readable descriptor" }, { "both INDIRECT and NEXT" }, { "inside an indirect" },
        { "indirect table of" }, { "without a 16-byte" }, { "without a device-writable" },
        { "larger than" }, { "entries past" }, { "without VIRTIO_F_INDIRECT_DESC" },
    };
    char *path;
    VDrv d;
    vd_setup(&d, small_disk(&path), _i);
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        vd_init(&d, c == 11 ? ALL & ~FEAT(VIRTIO_F_INDIRECT_DESC) : ALL, 8);
        uint8_t *t = vd_host(&d, VD_DESC), *it = vd_host(&d, VD_IND);
        uint16_t head = 0;
        vd_set_desc(t, 0, VD_HDR, 16, VIRTQ_DESC_F_NEXT, 1);
        vd_set_desc(t, 1, VD_HDR + 0x100, 1, VIRTQ_DESC_F_WRITE, 0);
        switch (c) {
        case 0: head = 9; break;
        case 1: vd_set_desc(t, 0, VD_HDR, 16, VIRTQ_DESC_F_NEXT, 8); break;
        case 2: vd_set_desc(t, 0, VD_RAM + VD_RAM_SIZE - 8, 16, VIRTQ_DESC_F_NEXT, 1); break;
        case 3:
            vd_set_desc(t, 1, VD_HDR + 0x100, 1, VIRTQ_DESC_F_WRITE | VIRTQ_DESC_F_NEXT, 2);
            vd_set_desc(t, 2, VD_DATA, 512, 0, 0);
            break;
        case 4: vd_set_desc(t, 0, VD_IND, 32, VIRTQ_DESC_F_INDIRECT | VIRTQ_DESC_F_NEXT, 1); break;
        case 5:
            vd_set_desc(t, 0, VD_IND, 32, VIRTQ_DESC_F_INDIRECT, 0);
            vd_set_desc(it, 0, VD_IND, 32, VIRTQ_DESC_F_INDIRECT, 0);
            break;
        case 6: vd_set_desc(t, 0, VD_IND, 24, VIRTQ_DESC_F_INDIRECT, 0); break;
        case 7: vd_set_desc(t, 0, VD_HDR, 8, VIRTQ_DESC_F_NEXT, 1); break;
        case 8: vd_set_desc(t, 1, VD_HDR + 0x100, 1, 0, 0); break;
        case 9:
            vd_set_desc(t, 0, VD_RAM, 0x300000, VIRTQ_DESC_F_NEXT, 1);
            for (unsigned k = 1; k < 7; k++)
                vd_set_desc(t, k, VD_RAM, 0x300000, VIRTQ_DESC_F_NEXT, (uint16_t)(k + 1));
            /* 7 * 3 MiB < 256 MiB: use an indirect table of 256 entries instead */
            vd_set_desc(t, 0, VD_IND, 16 * 256, VIRTQ_DESC_F_INDIRECT, 0);
            for (unsigned k = 0; k < 256; k++)
                vd_set_desc(it, k, VD_RAM, 0x300000, VIRTQ_DESC_F_NEXT, (uint16_t)(k + 1));
            break;
        case 10: break;
        case 11: vd_set_desc(t, 0, VD_IND, 32, VIRTQ_DESC_F_INDIRECT, 0); break;
        }
        if (c == 10) { /* avail idx jumps by more than the queue size */
            uint16_t idx = 100;
            memcpy(vd_host(&d, VD_AVAIL + 2), &idx, 2);
            vd_wr(&d, VIRTIO_MMIO_QUEUE_NOTIFY, 0);
            virtio_mmio_wait_idle(d.t, 5000);
        } else {
            ck_assert(!vd_kick_wait(&d, head, NULL));
        }
        ck_assert_msg(vd_rd(&d, VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_NEEDS_RESET, "case %u", c);
        ck_assert_msg(strstr(d.log, cases[c].want), "case %u: got '%s'", c, d.log);
    }
    vd_teardown(&d);
    unlink(path);
    free(path);
}
END_TEST

START_TEST(register_fuzz)
{
    char *path;
    VDrv d;
    vd_setup(&d, small_disk(&path), _i);
    uint64_t s = 0x1234567 + (uint64_t)_i;
    static const unsigned sizes[] = { 1, 2, 4, 8 };
    for (int i = 0; i < 20000; i++) {
        uint64_t off = vd_rand(&s) % 0x200;
        if (vd_rand(&s) & 1)
            off &= ~3ull;
        unsigned size = sizes[vd_rand(&s) % 4];
        off &= ~(uint64_t)(size - 1);
        uint64_t v = vd_rand(&s);
        if ((vd_rand(&s) & 7) == 0) /* addresses near our RAM more often */
            v = VD_RAM + (v % (VD_RAM_SIZE + 0x10000));
        if (vd_rand(&s) & 1)
            bus_write(d.bus, VD_MMIO + off, v, size);
        else {
            uint64_t x;
            bus_read(d.bus, VD_MMIO + off, size, &x);
        }
    }
    virtio_mmio_wait_idle(d.t, 5000);
    vd_init(&d, ALL, 8);
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_IN, 0, VD_DATA, 512, 1, false, NULL), VIRTIO_BLK_S_OK);
    vd_teardown(&d);
    unlink(path);
    free(path);
}
END_TEST

/* Status = 0 while the worker thread is in the middle of requests: the reset waits for the one
 * in flight, and nothing touches the rings afterwards. */
START_TEST(reset_during_io)
{
    char *path = vd_tmpname("rst");
    vd_make_image(path, 8 << 20);
    char err[256];
    Disk *dk = disk_open(path, DISK_COW, err, sizeof err);
    ck_assert_msg(dk, "%s", err);
    VDrv d;
    vd_setup(&d, dk, true);
    for (int round = 0; round < 50; round++) {
        vd_init(&d, ~0ull, 16);
        uint8_t *t = vd_host(&d, VD_DESC), *av = vd_host(&d, VD_AVAIL);
        uint32_t type = VIRTIO_BLK_T_IN;
        memset(vd_host(&d, VD_HDR), 0, 16);
        memcpy(vd_host(&d, VD_HDR), &type, 4);
        for (unsigned k = 0; k < 5; k++) { /* 5 requests of 256 KiB */
            vd_set_desc(t, 3 * k, VD_HDR, 16, VIRTQ_DESC_F_NEXT, (uint16_t)(3 * k + 1));
            vd_set_desc(t, 3 * k + 1, VD_DATA + 0x40000 * k, 0x40000,
                        VIRTQ_DESC_F_WRITE | VIRTQ_DESC_F_NEXT, (uint16_t)(3 * k + 2));
            vd_set_desc(t, 3 * k + 2, VD_HDR + 0x100 + k, 1, VIRTQ_DESC_F_WRITE, 0);
            uint16_t head = (uint16_t)(3 * k);
            memcpy(av + 4 + 2 * k, &head, 2);
        }
        __atomic_store_n((uint16_t *)(void *)(av + 2), (uint16_t)5, __ATOMIC_RELEASE);
        vd_wr(&d, VIRTIO_MMIO_QUEUE_NOTIFY, 0);
        if (round & 1)
            dev_sleep_us((unsigned)(round * 20));
        vd_wr(&d, VIRTIO_MMIO_STATUS, 0);
        uint16_t used = vd_used_idx(&d);
        ck_assert_uint_le(used, 5);
        ck_assert_uint_eq(vd_rd(&d, VIRTIO_MMIO_STATUS), 0);
        dev_sleep_us(2000);
        ck_assert_uint_eq(vd_used_idx(&d), used); /* nothing after the reset */
    }
    vd_teardown(&d);
    unlink(path);
    free(path);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("virtio_mmio");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, identity_registers, 0, 2);
    tcase_add_test(tc, feature_handshake);
    tcase_add_test(tc, queue_checks);
    tcase_add_loop_test(tc, interrupts, 0, 2);
    tcase_add_loop_test(tc, needs_reset_on_bad_chain, 0, 2);
    tcase_add_loop_test(tc, malformed_kinds, 0, 2);
    tcase_add_loop_test(tc, register_fuzz, 0, 2);
    tcase_add_test(tc, reset_during_io);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return vd_run(suite());
}
