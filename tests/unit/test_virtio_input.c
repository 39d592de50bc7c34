/* devices/virtio_input: the config space as Linux's virtio_input probe reads it (name, IDs,
 * event bitmaps, axis ranges), events from the host delivered into the driver's buffers in order
 * (held while it has none, dropped past the pending limit), the status queue, and a hostile
 * event buffer (too small: device needs reset, no host crash). */
#include <check.h>
#include <string.h>

#include "../../devices/bus.h"
#include "../../devices/virtio_input.h"
#include "../../devices/virtio_mmio.h"

#define RAM 0x80000000ull
#define MMIO 0x1C130000ull
#define DESC (RAM + 0x0000)
#define AVAIL (RAM + 0x1000)
#define USED (RAM + 0x2000)
#define BUFS (RAM + 0x4000)
#define NUM 8

static Bus *bus;
static uint8_t *ram;
static VirtioInput *in;
static VirtioMmio *t;
static uint16_t avail_idx;

static uint32_t rd(uint64_t off) { return (uint32_t)virtio_mmio_ops.read(t, off, 4); }
static void wr(uint64_t off, uint32_t v) { virtio_mmio_ops.write(t, off, v, 4); }
static uint8_t *host(uint64_t pa) { return ram + (pa - RAM); }

static void make(VirtioInputKind kind)
{
    bus = bus_new();
    ram = bus_add_ram(bus, "ram", RAM, 1 << 20, false);
    in = virtio_input_new(bus, NULL, 74, MMIO, kind, false); /* inline: deterministic */
    ck_assert_ptr_nonnull(in);
    t = virtio_input_transport(in);
    bus_freeze(bus);
    avail_idx = 0;
}

static void destroy(void)
{
    virtio_input_free(in);
    bus_free(bus);
}

/* The driver's handshake and queue 0 (eventq) with NUM descriptors of len bytes, none posted. */
static void start(uint32_t len)
{
    wr(VIRTIO_MMIO_STATUS, 0);
    wr(VIRTIO_MMIO_STATUS, VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER);
    wr(VIRTIO_MMIO_DRIVER_FEATURES_SEL, 1);
    wr(VIRTIO_MMIO_DRIVER_FEATURES, 1); /* VERSION_1 */
    wr(VIRTIO_MMIO_STATUS, VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER | VIRTIO_STATUS_FEATURES_OK);
    ck_assert(rd(VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_FEATURES_OK);
    for (unsigned i = 0; i < NUM; i++) {
        VirtqDesc d = { BUFS + 16 * i, len, VIRTQ_DESC_F_WRITE, 0 };
        memcpy(host(DESC) + 16 * i, &d, 16);
    }
    wr(VIRTIO_MMIO_QUEUE_SEL, 0);
    wr(VIRTIO_MMIO_QUEUE_NUM, NUM);
    wr(VIRTIO_MMIO_QUEUE_DESC_LOW, (uint32_t)DESC);
    wr(VIRTIO_MMIO_QUEUE_DRIVER_LOW, (uint32_t)AVAIL);
    wr(VIRTIO_MMIO_QUEUE_DEVICE_LOW, (uint32_t)USED);
    wr(VIRTIO_MMIO_QUEUE_READY, 1);
    wr(VIRTIO_MMIO_STATUS, rd(VIRTIO_MMIO_STATUS) | VIRTIO_STATUS_DRIVER_OK);
}

static void post(uint16_t head)
{
    memcpy(host(AVAIL) + 4 + 2 * (avail_idx % NUM), &head, 2);
    avail_idx++;
    memcpy(host(AVAIL) + 2, &avail_idx, 2);
    wr(VIRTIO_MMIO_QUEUE_NOTIFY, 0);
}

static uint16_t used_idx(void)
{
    uint16_t u;
    memcpy(&u, host(USED) + 2, 2);
    return u;
}

/* The event the device wrote into used element n. */
static void used_event(unsigned n, uint16_t *type, uint16_t *code, int32_t *value)
{
    uint32_t id, len;
    memcpy(&id, host(USED) + 4 + 8 * (n % NUM), 4);
    memcpy(&len, host(USED) + 8 + 8 * (n % NUM), 4);
    ck_assert_uint_eq(len, 8);
    const uint8_t *b = host(BUFS + 16 * id);
    memcpy(type, b, 2);
    memcpy(code, b + 2, 2);
    memcpy(value, b + 4, 4);
}

static unsigned cfg_select(uint8_t sel, uint8_t sub, uint8_t *u)
{
    virtio_mmio_ops.write(t, VIRTIO_MMIO_CONFIG, sel, 1);
    virtio_mmio_ops.write(t, VIRTIO_MMIO_CONFIG + 1, sub, 1);
    unsigned size = (unsigned)virtio_mmio_ops.read(t, VIRTIO_MMIO_CONFIG + 2, 1);
    for (unsigned i = 0; i < 128; i++)
        u[i] = (uint8_t)virtio_mmio_ops.read(t, VIRTIO_MMIO_CONFIG + 8 + i, 1);
    return size;
}

static bool bit(const uint8_t *u, unsigned b) { return (u[b / 8] >> (b % 8)) & 1; }

START_TEST(input_config)
{
    make(VIRTIO_INPUT_KEYBOARD);
    uint8_t u[128];
    ck_assert_uint_eq(rd(VIRTIO_MMIO_DEVICE_ID), VIRTIO_ID_INPUT);
    ck_assert_uint_eq(cfg_select(1, 0, u), strlen("malibu virtio keyboard"));
    ck_assert_mem_eq(u, "malibu virtio keyboard", strlen("malibu virtio keyboard"));
    ck_assert_uint_eq(cfg_select(0x11, EV_KEY, u), 32);
    ck_assert(bit(u, 30) && bit(u, 28) && !bit(u, 0)); /* KEY_A, KEY_ENTER */
    ck_assert_uint_gt(cfg_select(0x11, EV_REP, u), 0);
    ck_assert_uint_eq(cfg_select(0x11, EV_ABS, u), 0);
    ck_assert_uint_eq(cfg_select(0x12, ABS_X, u), 0);
    ck_assert_uint_eq(cfg_select(0x7f, 0, u), 0); /* unknown select: size 0 */
    destroy();
    make(VIRTIO_INPUT_TABLET);
    ck_assert_uint_eq(cfg_select(0x11, EV_ABS, u), 1);
    ck_assert(bit(u, ABS_X) && bit(u, ABS_Y));
    ck_assert_uint_gt(cfg_select(0x11, EV_KEY, u), 0);
    ck_assert(bit(u, BTN_LEFT) && bit(u, BTN_RIGHT) && !bit(u, 30));
    ck_assert_uint_eq(cfg_select(0x12, ABS_Y, u), 20);
    uint32_t info[5];
    memcpy(info, u, 20);
    ck_assert_uint_eq(info[0], 0);
    ck_assert_uint_eq(info[1], VIRTIO_INPUT_ABS_MAX);
    ck_assert_uint_eq(cfg_select(0x10, 0, u), 1);
    ck_assert(bit(u, 1)); /* INPUT_PROP_DIRECT */
    destroy();
}
END_TEST

START_TEST(input_events)
{
    make(VIRTIO_INPUT_KEYBOARD);
    start(8);
    /* events before any buffer wait; then fill the buffers in order */
    virtio_input_send(in, EV_KEY, 30, 1);
    virtio_input_send(in, EV_SYN, SYN_REPORT, 0);
    ck_assert_uint_eq(used_idx(), 0);
    post(0);
    post(1);
    post(2);
    ck_assert_uint_eq(used_idx(), 2);
    uint16_t type, code;
    int32_t value;
    used_event(0, &type, &code, &value);
    ck_assert_uint_eq(type, EV_KEY);
    ck_assert_uint_eq(code, 30);
    ck_assert_int_eq(value, 1);
    used_event(1, &type, &code, &value);
    ck_assert_uint_eq(type, EV_SYN);
    /* buffer 2 is waiting: the next event goes straight into it */
    virtio_input_send(in, EV_KEY, 30, 0);
    ck_assert_uint_eq(used_idx(), 3);
    used_event(2, &type, &code, &value);
    ck_assert_int_eq(value, 0);
    ck_assert(virtio_mmio_irq_level(t));
    /* no buffers: at most VIRTIO_INPUT_PENDING wait, the rest are dropped */
    for (unsigned i = 0; i < VIRTIO_INPUT_PENDING + 5; i++)
        virtio_input_send(in, EV_KEY, 31, 1);
    ck_assert_uint_eq(virtio_input_dropped(in), 5);
    /* a device reset forgets what was pending */
    start(8);
    avail_idx = 0;
    memset(host(USED), 0, 64);
    post(3);
    ck_assert_uint_eq(used_idx(), 0);
    destroy();
}
END_TEST

START_TEST(input_hostile)
{
    make(VIRTIO_INPUT_TABLET);
    start(4); /* buffers too small for an event */
    post(0);
    virtio_input_send(in, EV_ABS, ABS_X, 100);
    ck_assert(rd(VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_NEEDS_RESET);
    ck_assert_uint_eq(used_idx(), 0);
    /* random config accesses */
    for (unsigned i = 0; i < 4096; i++) {
        virtio_mmio_ops.write(t, VIRTIO_MMIO_CONFIG + (i * 7) % 140, i * 2654435761u, 1 << (i % 4));
        (void)virtio_mmio_ops.read(t, VIRTIO_MMIO_CONFIG + (i * 13) % 140, 1 << (i % 4));
    }
    /* after a reset the device works again */
    start(8);
    avail_idx = 0;
    memset(host(USED), 0, 64);
    post(1);
    virtio_input_send(in, EV_ABS, ABS_X, 100);
    ck_assert_uint_eq(used_idx(), 1);
    destroy();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("virtio_input");
    TCase *tc = tcase_create("input");
    tcase_add_test(tc, input_config);
    tcase_add_test(tc, input_events);
    tcase_add_test(tc, input_hostile);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
