/* The assembled board driven through the bus the way Linux 6.12 drives it (irq-gic, arch timer,
 * amba-pl011, rtc-pl031, PSCI), two CPUs, no CPU emulation: a scripted guest.  Plus random
 * hostile accesses over the whole device map. */
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include "../devices/dev_check.h"
#include "../../devices/board.h"

typedef struct Cpus {
    bool irq_[BOARD_MAX_CPUS];
    unsigned notifications_;
} Cpus;

/* What a CPU's notify callback does: record the level (atomically; the CPU thread reads it). */
static void notify(void *o, unsigned cpu, bool irq, bool fiq)
{
    Cpus *c = o;
    __atomic_store_n(&c->irq_[cpu], irq, __ATOMIC_SEQ_CST);
    (void)fiq;
    __atomic_add_fetch(&c->notifications_, 1, __ATOMIC_SEQ_CST);
}
#define IRQ(cpu) __atomic_load_n(&cpus.irq_[cpu], __ATOMIC_SEQ_CST)

static Board *b;
static Cpus cpus;
static int out_pipe[2];

static uint32_t r32(uint64_t pa)
{
    uint64_t v;
    ck_assert_int_eq(bus_read(b->bus, pa, 4, &v), BUS_OK);
    return (uint32_t)v;
}

static void w32(uint64_t pa, uint32_t v)
{
    ck_assert_int_eq(bus_write(b->bus, pa, v, 4), BUS_OK);
}

static void w16(uint64_t pa, uint16_t v)
{
    ck_assert_int_eq(bus_write(b->bus, pa, v, 2), BUS_OK);
}

static uint16_t r16(uint64_t pa)
{
    uint64_t v;
    ck_assert_int_eq(bus_read(b->bus, pa, 2, &v), BUS_OK);
    return (uint16_t)v;
}

#define GICD(off) (BOARD_GICD_BASE + (off))
#define GICC(off) (BOARD_GICC_BASE + (off))
#define UART(off) (BOARD_UART_BASE + (off))
#define RTC(off) (BOARD_RTC_BASE + (off))

static void make_board(void)
{
    BoardConfig cfg;
    board_config_default(&cfg);
    cfg.console_in = -1;
    cfg.ncpu = 2;
    cfg.ram_size = 64ull << 20;
    ck_assert_int_eq(pipe(out_pipe), 0);
    cfg.console_out = out_pipe[1];
    char err[256];
    b = board_new(&cfg, err, sizeof err);
    ck_assert_msg(b != NULL, "%s", err);
    memset(&cpus, 0, sizeof cpus);
    board_set_irq_notify(b, notify, &cpus);
    ck_assert_msg(board_realize(b, err, sizeof err), "%s", err);
}

static void free_board(void)
{
    board_free(b);
    close(out_pipe[0]);
    close(out_pipe[1]);
}

/* irq-gic.c: gic_dist_init + gic_cpu_init on each CPU */
static void linux_gic_init(void)
{
    w32(GICD(0x000), 0);
    uint32_t typer = r32(GICD(0x004));
    unsigned nirq = ((typer & 0x1F) + 1) * 32;
    ck_assert_uint_eq(nirq, 256);
    gic_set_current_cpu(0);
    uint32_t mask = r32(GICD(0x800));
    mask |= mask >> 16;
    mask |= mask >> 8;
    ck_assert_uint_eq(mask & 0xFF, 1);
    uint32_t m4 = (mask & 0xFF) * 0x01010101u;
    for (unsigned i = 32; i < nirq; i += 4)
        w32(GICD(0x800 + i), m4);
    for (unsigned i = 32; i < nirq; i += 16)
        w32(GICD(0xC00 + i / 4), 0);
    for (unsigned i = 32; i < nirq; i += 4)
        w32(GICD(0x400 + i), 0xA0A0A0A0);
    for (unsigned i = 32; i < nirq; i += 32) {
        w32(GICD(0x380 + i / 8), 0xFFFFFFFF);
        w32(GICD(0x180 + i / 8), 0xFFFFFFFF);
    }
    w32(GICD(0x000), 1);
    for (unsigned cpu = 0; cpu < 2; cpu++) {
        gic_set_current_cpu(cpu);
        uint32_t me = r32(GICD(0x800)) & 0xFF;
        ck_assert_uint_eq(me, 1u << cpu);
        w32(GICD(0x380), 0xFFFFFFFF);
        w32(GICD(0x180), 0xFFFF0000);
        w32(GICD(0x100), 0x0000FFFF);
        for (unsigned i = 0; i < 32; i += 4)
            w32(GICD(0x400 + i), 0xA0A0A0A0);
        w32(GICC(0x004), 0xF0);
        ck_assert_uint_eq(r32(GICC(0x0FC)) & 0xff0fff, 0x02043B);
        for (unsigned i = 0; i < 4; i++)
            w32(GICC(0x0D0 + 4 * i), 0);
        uint32_t bypass = r32(GICC(0x000)) & 0x1E0;
        w32(GICC(0x000), bypass | 1);
    }
    gic_set_current_cpu(0);
}

START_TEST(linux_like_boot_sequence)
{
    make_board();
    /* the DTB the stub hands over is in RAM */
    ck_assert_uint_eq(r32(BOARD_ROM_BASE), 0xD5034FDF);
    linux_gic_init();

    /* arch timer on CPU 1: virtual timer, PPI 27 enabled, deadline 50 ms ahead */
    gic_set_current_cpu(1);
    w32(GICD(0x100), 1u << GIC_PPI_VIRT_TIMER);
    gtimer_write_cval(b->gtimer, 1, GT_VIRT, gtimer_vcount(b->gtimer, 1) + 5000000);
    gtimer_write_ctl(b->gtimer, 1, GT_VIRT, GT_CTL_ENABLE);
    ck_assert(!IRQ(1));
    /* "WFI": sleeps until the timer raises the PPI and the board kicks the CPU (the kick comes
     * just before the notify callback, so a real CPU re-checks its flag after waking) */
    for (int i = 0; i < 100 && !IRQ(1); i++)
        gtimer_wfi(b->gtimer, 1, 50000000);
    ck_assert(IRQ(1));
    ck_assert(gic_irq_line(b->gic, 1));
    ck_assert(!IRQ(0));
    uint32_t iar = r32(GICC(0x00C));
    ck_assert_uint_eq(iar, GIC_PPI_VIRT_TIMER);
    gtimer_write_ctl(b->gtimer, 1, GT_VIRT, GT_CTL_ENABLE | GT_CTL_IMASK);
    w32(GICC(0x010), iar);
    ck_assert(!IRQ(1));

    /* IPI from CPU 1 to CPU 0 (SGI 1, "reschedule") */
    w32(GICD(0xF00), (1u << 16) | 1);
    ck_assert(IRQ(0));
    gic_set_current_cpu(0);
    iar = r32(GICC(0x00C));
    ck_assert_uint_eq(iar, (1u << 10) | 1);
    w32(GICC(0x010), iar);
    ck_assert(!IRQ(0));

    /* firmware left the UART enabled at 115200 8N1 (7.3728 MHz clock) */
    ck_assert_uint_eq(r16(UART(0x030)) & 0x301, 0x301);
    ck_assert_uint_eq(r16(UART(0x024)), 4);
    ck_assert_uint_eq(r16(UART(0x02C)), 0x70);
    /* amba probe + pl011 console: IDs, 16-bit register accesses, TX, RX interrupt */
    uint32_t pid = 0, cid = 0;
    for (int i = 0; i < 4; i++) {
        pid |= (r32(UART(0xFE0 + 4 * i)) & 0xFF) << (8 * i);
        cid |= (r32(UART(0xFF0 + 4 * i)) & 0xFF) << (8 * i);
    }
    ck_assert_uint_eq(pid & 0x000FFFFF, 0x00041011);
    ck_assert_uint_eq(cid, 0xB105F00D);
    w16(UART(0x030), 0x0301); /* CR: UARTEN | TXE | RXE */
    w16(UART(0x02C), 0x70);   /* LCR_H: 8N1, FIFO */
    w16(UART(0x038), 0x50);   /* IMSC: RX, RT */
    w32(GICD(0x100 + 4 * (BOARD_UART_INTID / 32)), 1u << (BOARD_UART_INTID % 32));
    const char *msg = "[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x411fd070]\n";
    for (const char *p = msg; *p; p++) {
        while (r16(UART(0x018)) & 0x20)
            ;
        ck_assert_int_eq(bus_write(b->bus, UART(0x000), (uint8_t)*p, 1), BUS_OK);
    }
    char out[256];
    ssize_t n = read(out_pipe[0], out, sizeof out);
    ck_assert_int_eq(n, (ssize_t)strlen(msg));
    ck_assert_mem_eq(out, msg, (size_t)n);
    pl011_receive(b->uart, (const uint8_t *)"ls\r", 3);
    ck_assert(IRQ(0)); /* SPI 83 -> CPU 0 */
    iar = r32(GICC(0x00C));
    ck_assert_uint_eq(iar, BOARD_UART_INTID);
    ck_assert_uint_eq(r16(UART(0x040)), 0x40); /* MIS: RT */
    char got[4] = { 0 };
    for (int i = 0; !(r16(UART(0x018)) & 0x10); i++)
        got[i] = (char)r16(UART(0x000));
    ck_assert_str_eq(got, "ls\r");
    w32(GICC(0x010), iar);
    ck_assert(!IRQ(0));

    /* rtc-pl031 through the bus */
    ck_assert_uint_eq(r32(RTC(0xFE0)) | (r32(RTC(0xFE4)) << 8) | (r32(RTC(0xFE8)) << 16), 0x141031);
    ck_assert_uint_eq(r32(RTC(0x00C)) & 1, 1);
    w32(RTC(0x008), 1700000000);
    ck_assert(r32(RTC(0x000)) - 1700000000u <= 1);

    /* 16-bit access to the GIC is not architected: reads as zero, no crash */
    ck_assert_uint_eq(r16(GICD(0x004)), 0);
    w16(GICD(0x000), 0);
    ck_assert_uint_eq(r32(GICD(0x000)), 1);

    /* PSCI: bring CPU 1 up, power off */
    PsciAction act;
    ck_assert_uint_eq(psci_call(b->psci, 0, PSCI_CPU_ON_64, 1, BOARD_RAM_BASE + 0x1000, 0, &act), 0);
    ck_assert_int_eq(act.kind, PSCI_ACT_CPU_ON);
    ck_assert_uint_eq(psci_call(b->psci, 0, PSCI_SYSTEM_OFF, 0, 0, 0, &act), 0);
    ck_assert_int_eq(act.kind, PSCI_ACT_SYSTEM_OFF);
    ck_assert_uint_gt(__atomic_load_n(&cpus.notifications_, __ATOMIC_SEQ_CST), 0);
    free_board();
}
END_TEST

START_TEST(hostile_whole_map)
{
    make_board();
    uint64_t s = 0x5eed;
    static const uint64_t windows[][2] = {
        { BOARD_GICD_BASE, 0x1000 }, { BOARD_GICC_BASE, 0x2000 }, { BOARD_RTC_BASE, 0x1000 },
        { BOARD_ROM_BASE, 0x10000 }, { BOARD_RAM_BASE, 0x10000 }, { 0x40000000, 0x1000 },
        { BOARD_GPU_BASE, 0x1000 }, { BOARD_UART_BASE, 0x1000 },
    };
    for (int i = 0; i < 200000; i++) {
        unsigned w = (unsigned)(dev_rand(&s) % 8);
        uint64_t pa = windows[w][0] + dev_rand(&s) % (windows[w][1] + 16);
        unsigned size = 1u << (dev_rand(&s) % 5); /* 1..16 */
        uint64_t v = dev_rand(&s);
        gic_set_current_cpu((unsigned)(dev_rand(&s) % 3));
        if (dev_rand(&s) & 1)
            (void)bus_write(b->bus, pa, v, size);
        else
            (void)bus_read(b->bus, pa, size, &v);
    }
    gic_set_current_cpu(0);
    free_board();
}
END_TEST

/* Several host threads at once: two "vCPUs" taking timer interrupts and IPIs through the GIC,
 * a device thread toggling an SPI and feeding the UART.  Checks nothing is lost or deadlocks. */
static int stop_stress;
#define STOPPED() __atomic_load_n(&stop_stress, __ATOMIC_SEQ_CST)
static unsigned handled[2];

static void *vcpu(void *arg)
{
    unsigned cpu = (unsigned)(uintptr_t)arg;
    gic_set_current_cpu(cpu);
    w32(GICD(0x100), (1u << GIC_PPI_VIRT_TIMER) | 0xFFFF);
    while (!STOPPED()) {
        if (!gic_irq_line(b->gic, cpu)) {
            gtimer_write_tval(b->gtimer, cpu, GT_VIRT, 20000); /* 200 us */
            gtimer_write_ctl(b->gtimer, cpu, GT_VIRT, GT_CTL_ENABLE);
            gtimer_wfi(b->gtimer, cpu, 5000000);
            continue;
        }
        uint32_t iar = r32(GICC(0x00C));
        unsigned id = iar & 0x3FF;
        if (id == GIC_SPURIOUS)
            continue;
        if (id == GIC_PPI_VIRT_TIMER)
            gtimer_write_ctl(b->gtimer, cpu, GT_VIRT, GT_CTL_ENABLE | GT_CTL_IMASK);
        else if (id == BOARD_UART_INTID)
            while (!(r16(UART(0x018)) & 0x10))
                (void)r16(UART(0x000));
        w32(GICC(0x010), iar);
        handled[cpu]++;
        if ((handled[cpu] & 7) == 0)
            w32(GICD(0xF00), (1u << 24) | 2); /* IPI the other CPU */
    }
    return NULL;
}

START_TEST(threads_stress)
{
    make_board();
    linux_gic_init();
    w16(UART(0x02C), 0x70);
    w16(UART(0x038), 0x50);
    w32(GICD(0x100 + 4 * (BOARD_UART_INTID / 32)), 1u << (BOARD_UART_INTID % 32));
    stop_stress = 0;
    handled[0] = handled[1] = 0;
    pthread_t th[2];
    for (uintptr_t i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, vcpu, (void *)i);
    for (int i = 0; i < 300; i++) { /* device thread: ~0.3 s */
        pl011_receive(b->uart, (const uint8_t *)"x", 1);
        gic_set_spi(b->gic, 200, i & 1);
        dev_sleep_ms(1);
    }
    __atomic_store_n(&stop_stress, 1, __ATOMIC_SEQ_CST);
    for (int i = 0; i < 2; i++) {
        gtimer_kick(b->gtimer, (unsigned)i);
        pthread_join(th[i], NULL);
    }
    ck_assert_uint_gt(handled[0], 10);
    ck_assert_uint_gt(handled[1], 10);
    free_board();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dev_board");
    TCase *tc = tcase_create("board");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, linux_like_boot_sequence);
    tcase_add_test(tc, hostile_whole_map);
    tcase_add_test(tc, threads_stress);
    suite_add_tcase(s, tc);
    return dev_run_suite(s);
}
