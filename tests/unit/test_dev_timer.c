/* devices/gtimer: counter, CTL/CVAL/TVAL semantics, PPI output through the GIC (immediately and
 * at a future deadline via the host timer thread), WFI sleep/kick. */
#include <pthread.h>
#include "../devices/dev_check.h"
#include "../../devices/gtimer.h"
#include "../../devices/hosttimer.h"

typedef struct Env {
    Gic *gic;
    GTimer *t;
} Env;

static void kick_on_irq(void *o, unsigned cpu, bool irq, bool fiq)
{
    Env *e = o;
    if ((irq || fiq) && e->t)
        gtimer_kick(e->t, cpu);
}

static Env env;

static void setup(unsigned ncpu)
{
    env.t = NULL;
    env.gic = gic_new(ncpu, kick_on_irq, &env);
    gic_dist_write(env.gic, 0, 0x000, 1, 4);
    for (unsigned c = 0; c < ncpu; c++) {
        gic_dist_write(env.gic, c, 0x100, 0xFFFFFFFF, 4);
        gic_cpu_write(env.gic, c, 0x04, 0xF0, 4);
        gic_cpu_write(env.gic, c, 0x00, 1, 4);
    }
    env.t = gtimer_new(env.gic, ncpu);
}

static void teardown(void)
{
    gtimer_free(env.t);
    gic_free(env.gic);
}

static bool ppi_pending(unsigned cpu, unsigned ppi)
{
    return (gic_dist_read(env.gic, cpu, 0x200, 4) >> ppi) & 1;
}

START_TEST(counter_runs_at_frequency)
{
    setup(1);
    ck_assert_uint_eq(gtimer_freq(env.t), 100000000);
    uint64_t ha = ht_now_ns(), c0 = gtimer_count(env.t), hb = ht_now_ns();
    dev_sleep_ms(20);
    uint64_t hc = ht_now_ns(), c1 = gtimer_count(env.t), hd = ht_now_ns();
    /* 10 ns per tick, bracketed by host time on both sides */
    ck_assert(c1 - c0 + 1 >= (hc - hb) / 10);
    ck_assert(c1 - c0 <= (hd - ha) / 10 + 1);
    uint64_t v0 = gtimer_vcount(env.t, 0), p0 = gtimer_count(env.t);
    ck_assert(p0 - v0 < 100000); /* CNTVOFF 0 */
    gtimer_set_cntvoff(env.t, 0, 1000000);
    uint64_t v = gtimer_vcount(env.t, 0), p = gtimer_count(env.t);
    ck_assert(p - v >= 1000000 && p - v < 2000000);
    teardown();
}
END_TEST

START_TEST(ctl_cval_tval)
{
    setup(2);
    for (int w = GT_PHYS; w <= GT_VIRT; w++) {
        unsigned ppi = w == GT_PHYS ? GIC_PPI_PHYS_TIMER : GIC_PPI_VIRT_TIMER;
        ck_assert_uint_eq(gtimer_read_ctl(env.t, 1, w) & 3, 0);
        gtimer_write_cval(env.t, 1, w, 0); /* in the past */
        ck_assert_uint_eq(gtimer_read_ctl(env.t, 1, w), GT_CTL_ISTATUS);
        ck_assert(!ppi_pending(1, ppi)); /* not enabled */
        gtimer_write_ctl(env.t, 1, w, GT_CTL_ENABLE | GT_CTL_ISTATUS); /* ISTATUS is RO */
        ck_assert_uint_eq(gtimer_read_ctl(env.t, 1, w), GT_CTL_ENABLE | GT_CTL_ISTATUS);
        ck_assert(ppi_pending(1, ppi));
        ck_assert(!ppi_pending(0, ppi)); /* banked per CPU */
        ck_assert(gic_irq_line(env.gic, 1));
        gtimer_write_ctl(env.t, 1, w, GT_CTL_ENABLE | GT_CTL_IMASK);
        ck_assert(!ppi_pending(1, ppi));
        gtimer_write_ctl(env.t, 1, w, GT_CTL_ENABLE);
        ck_assert(ppi_pending(1, ppi));
        /* far future: condition false, output low */
        gtimer_write_cval(env.t, 1, w, ~0ull);
        ck_assert(!ppi_pending(1, ppi));
        ck_assert_uint_eq(gtimer_read_ctl(env.t, 1, w), GT_CTL_ENABLE);
        /* TVAL: signed 32-bit down-counter view of CVAL */
        gtimer_write_tval(env.t, 1, w, 50000000); /* 0.5 s */
        uint32_t tv = gtimer_read_tval(env.t, 1, w);
        ck_assert(tv <= 50000000 && tv > 40000000);
        gtimer_write_tval(env.t, 1, w, (uint32_t)-5); /* already expired */
        ck_assert(ppi_pending(1, ppi));
        ck_assert((int32_t)gtimer_read_tval(env.t, 1, w) < 0);
        uint64_t cval = gtimer_read_cval(env.t, 1, w);
        ck_assert(cval < gtimer_vcount(env.t, 1) + 10);
        gtimer_write_ctl(env.t, 1, w, 0);
        ck_assert(!ppi_pending(1, ppi));
    }
    /* bogus CPU / timer numbers are ignored */
    gtimer_write_ctl(env.t, 5, GT_VIRT, 1);
    gtimer_write_ctl(env.t, 0, 7, 1);
    ck_assert_uint_eq(gtimer_read_ctl(env.t, 9, GT_PHYS), 0);
    teardown();
}
END_TEST

START_TEST(deadline_fires_later)
{
    setup(1);
    gtimer_write_tval(env.t, 0, GT_VIRT, 500000); /* 5 ms */
    gtimer_write_ctl(env.t, 0, GT_VIRT, GT_CTL_ENABLE);
    ck_assert(!ppi_pending(0, GIC_PPI_VIRT_TIMER));
    uint64_t t0 = ht_now_ns();
    for (int i = 0; i < 200 && !ppi_pending(0, GIC_PPI_VIRT_TIMER); i++)
        dev_sleep_ms(1);
    ck_assert(ppi_pending(0, GIC_PPI_VIRT_TIMER));
    ck_assert(ht_now_ns() - t0 >= 4000000);
    /* the Linux handler: IAR, mask, EOI; line goes low */
    ck_assert_uint_eq(gic_cpu_read(env.gic, 0, 0x0C, 4), GIC_PPI_VIRT_TIMER);
    gtimer_write_ctl(env.t, 0, GT_VIRT, GT_CTL_ENABLE | GT_CTL_IMASK);
    gic_cpu_write(env.gic, 0, 0x10, GIC_PPI_VIRT_TIMER, 4);
    ck_assert(!gic_irq_line(env.gic, 0));
    /* re-programming before the deadline cancels it */
    gtimer_write_tval(env.t, 0, GT_VIRT, 300000);
    gtimer_write_ctl(env.t, 0, GT_VIRT, GT_CTL_ENABLE);
    gtimer_write_cval(env.t, 0, GT_VIRT, ~0ull >> 1);
    dev_sleep_ms(10);
    ck_assert(!ppi_pending(0, GIC_PPI_VIRT_TIMER));
    teardown();
}
END_TEST

START_TEST(wfi_woken_by_timer)
{
    setup(1);
    gtimer_wfi(env.t, 0, 1000000); /* clear any stale kick (returns after <= 1 ms) */
    gtimer_write_tval(env.t, 0, GT_VIRT, 1000000); /* 10 ms */
    gtimer_write_ctl(env.t, 0, GT_VIRT, GT_CTL_ENABLE);
    uint64_t t0 = ht_now_ns();
    gtimer_wfi(env.t, 0, 2000000000ull);
    uint64_t dt = ht_now_ns() - t0;
    ck_assert(gic_irq_line(env.gic, 0));
    ck_assert(dt >= 5000000 && dt < 1000000000ull);
    teardown();
}
END_TEST

static void *kicker(void *arg)
{
    (void)arg;
    dev_sleep_ms(20);
    gtimer_kick(env.t, 0);
    return NULL;
}

START_TEST(wfi_kick_and_timeout)
{
    setup(1);
    gtimer_kick(env.t, 0); /* remembered: next WFI returns at once */
    uint64_t t0 = ht_now_ns();
    gtimer_wfi(env.t, 0, 0);
    ck_assert(ht_now_ns() - t0 < 100000000);
    t0 = ht_now_ns();
    gtimer_wfi(env.t, 0, 20000000); /* times out after 20 ms */
    uint64_t dt = ht_now_ns() - t0;
    ck_assert(dt >= 15000000 && dt < 1000000000ull);
    pthread_t th;
    pthread_create(&th, NULL, kicker, NULL);
    t0 = ht_now_ns();
    gtimer_wfi(env.t, 0, 0); /* no limit: woken by the other thread */
    ck_assert(ht_now_ns() - t0 >= 10000000);
    pthread_join(th, NULL);
    gtimer_kick(env.t, 9); /* ignored */
    gtimer_wfi(env.t, 9, 0);
    teardown();
}
END_TEST

/* ---- device-wait clock model ---------------------------------------------------------------- */

static bool wait_freezes(uint64_t n)
{
    for (int i = 0; i < 2000; i++) {
        GTimerClockStats st;
        gtimer_clock_stats(env.t, &st);
        if (st.freezes >= n)
            return true;
        dev_sleep_ms(1);
    }
    return false;
}

typedef struct DeviceRun {
    bool froze, still_while_frozen, no_irq_before, irq_early;
    uint64_t c0, c_adv;
} DeviceRun;

/* The GPU's part: hold the clock while the CPU sleeps, check guest time stands, advance it past
 * a timer deadline (which must wake the CPU), release. */
static void *device_thread(void *arg)
{
    DeviceRun *d = arg;
    gtimer_hold(env.t, +1);
    d->froze = wait_freezes(1);
    d->c0 = gtimer_count(env.t);
    dev_sleep_ms(20);
    d->still_while_frozen = gtimer_count(env.t) == d->c0;
    gtimer_write_cval(env.t, 0, GT_VIRT, d->c0 + 50000); /* 0.5 ms of guest time ahead */
    gtimer_write_ctl(env.t, 0, GT_VIRT, GT_CTL_ENABLE);
    dev_sleep_ms(20); /* 20 ms of host time: must not fire */
    d->no_irq_before = !ppi_pending(0, GIC_PPI_VIRT_TIMER);
    gtimer_advance(env.t, 400000);
    d->c_adv = gtimer_count(env.t);
    d->irq_early = ppi_pending(0, GIC_PPI_VIRT_TIMER);
    gtimer_advance(env.t, 200000); /* now 0.6 ms on: the timer fires and kicks the CPU */
    dev_sleep_ms(10);
    gtimer_hold(env.t, -1);
    return NULL;
}

START_TEST(device_wait_freezes_guest_time)
{
    setup(1);
    gtimer_set_device_clock(env.t, true);
    gtimer_wfi(env.t, 0, 1000000); /* clear any stale kick */
    DeviceRun d = { 0 };
    pthread_t th;
    pthread_create(&th, NULL, device_thread, &d);
    gtimer_wfi(env.t, 0, 0); /* the CPU idles: woken only by the advanced timer */
    uint64_t c_wake = gtimer_count(env.t);
    pthread_join(th, NULL);
    ck_assert(d.froze);
    ck_assert(d.still_while_frozen);
    ck_assert(d.no_irq_before);
    ck_assert_uint_eq(d.c_adv, d.c0 + 40000); /* 400 us at 100 MHz, exactly */
    ck_assert(!d.irq_early);
    ck_assert(gic_irq_line(env.gic, 0));
    ck_assert(c_wake >= d.c0 + 60000);
    ck_assert(c_wake < d.c0 + 60000 + 100000000); /* ran on from there, not from host time */
    GTimerClockStats st;
    gtimer_clock_stats(env.t, &st);
    ck_assert(st.model);
    ck_assert_uint_eq(st.freezes, 1);
    ck_assert_uint_eq(st.advanced_ns, 600000);
    ck_assert(st.frozen_host_ns >= 40000000);
    /* running again: guest time follows the host clock */
    uint64_t a = gtimer_count(env.t);
    dev_sleep_ms(10);
    ck_assert(gtimer_count(env.t) - a >= 900000);
    teardown();
}
END_TEST

static void *hold_then_release(void *arg)
{
    uint64_t *ran = arg;
    gtimer_hold(env.t, +1);
    wait_freezes(1);
    gtimer_hold(env.t, -1); /* device done (or waiting for the CPU): time runs though the CPU sleeps */
    uint64_t a = gtimer_count(env.t);
    dev_sleep_ms(10);
    *ran = gtimer_count(env.t) - a;
    gtimer_advance(env.t, 1000000000ull); /* not frozen: ignored */
    gtimer_kick(env.t, 0);
    return NULL;
}

START_TEST(device_wait_release_and_host_mode)
{
    setup(1);
    gtimer_set_device_clock(env.t, true);
    gtimer_wfi(env.t, 0, 1000000);
    uint64_t ran = 0, h0 = ht_now_ns(), c0 = gtimer_count(env.t);
    pthread_t th;
    pthread_create(&th, NULL, hold_then_release, &ran);
    gtimer_wfi(env.t, 0, 0);
    pthread_join(th, NULL);
    ck_assert(ran >= 900000);
    GTimerClockStats st;
    gtimer_clock_stats(env.t, &st);
    ck_assert_uint_eq(st.freezes, 1);
    ck_assert_uint_eq(st.advanced_ns, 0);
    /* guest time never ahead of host time, never backwards */
    ck_assert(gtimer_count(env.t) - c0 <= (ht_now_ns() - h0) / 10 + 1);
    /* --gpu-time host: a held clock and a sleeping CPU do not freeze it */
    gtimer_set_device_clock(env.t, false);
    gtimer_hold(env.t, +1);
    uint64_t a = gtimer_count(env.t);
    gtimer_wfi(env.t, 0, 20000000);
    ck_assert(gtimer_count(env.t) - a >= 1500000);
    gtimer_hold(env.t, -1);
    gtimer_hold(env.t, -1); /* unbalanced release: harmless */
    gtimer_clock_stats(env.t, &st);
    ck_assert_uint_eq(st.freezes, 1);
    teardown();
}
END_TEST

/* gtimer_reach: a device's modelled time ahead of the running clock moves guest time up to it
 * (never back), timers due by then fire; with the model off (--gpu-time host) it does nothing. */
START_TEST(device_clock_reach)
{
    setup(1);
    gtimer_set_device_clock(env.t, true);
    uint64_t c0 = gtimer_count(env.t), target = gtimer_now_ns(env.t) + 1000000000ull;
    gtimer_write_cval(env.t, 0, GT_VIRT, c0 + 50000000); /* 0.5 s of guest time ahead */
    gtimer_write_ctl(env.t, 0, GT_VIRT, GT_CTL_ENABLE);
    ck_assert(!ppi_pending(0, GIC_PPI_VIRT_TIMER));
    ck_assert_uint_ge(gtimer_reach(env.t, target), target);
    ck_assert_uint_ge(gtimer_count(env.t), target / 10);
    ck_assert(ppi_pending(0, GIC_PPI_VIRT_TIMER));
    uint64_t c1 = gtimer_count(env.t);
    ck_assert_uint_ge(gtimer_reach(env.t, target / 2), target); /* never backwards */
    ck_assert_uint_ge(gtimer_count(env.t), c1);
    ck_assert_uint_lt(gtimer_count(env.t), c1 + 10000000);    /* and runs on from there */
    gtimer_set_device_clock(env.t, false);
    uint64_t now = gtimer_now_ns(env.t);
    ck_assert_uint_lt(gtimer_reach(env.t, now + 1000000000ull), now + 500000000ull);
    teardown();
}
END_TEST

/* The lead limit: a vCPU that never sleeps (a busy guest process) while the GPU holds the clock
 * for longer than GTIMER_DEVICE_LEAD_NS of host time: guest time runs at host pace up to the
 * limit, then stands and moves only by the device's advances; when the hold ends it runs again.
 * Without the limit a job that takes 1 s of host time is 1 s of guest time: the driver times it
 * out although its modelled time is small. */
START_TEST(device_lead_limit_stops_a_busy_cpu)
{
    setup(1);
    gtimer_set_device_clock(env.t, true);
    uint64_t g0 = gtimer_now_ns(env.t);
    gtimer_hold(env.t, +1); /* the CPU stays awake throughout */
    dev_sleep_ms((GTIMER_DEVICE_LEAD_NS / 1000000) + 100);
    uint64_t g1 = gtimer_now_ns(env.t);
    ck_assert_uint_ge(g1 - g0, GTIMER_DEVICE_LEAD_NS);          /* ran up to the limit */
    ck_assert_uint_lt(g1 - g0, GTIMER_DEVICE_LEAD_NS + 50000000); /* stopped there (timer latency) */
    dev_sleep_ms(30);
    ck_assert_uint_eq(gtimer_now_ns(env.t), g1);                /* stands */
    gtimer_advance(env.t, 2000000);                               /* the device's modelled 2 ms */
    ck_assert_uint_eq(gtimer_now_ns(env.t), g1 + 2000000);
    GTimerClockStats st;
    gtimer_clock_stats(env.t, &st);
    ck_assert_uint_eq(st.lead_limits, 1);
    ck_assert_uint_eq(st.freezes, 1);
    gtimer_hold(env.t, -1);                                       /* the job ends: time runs */
    uint64_t g2 = gtimer_now_ns(env.t);
    dev_sleep_ms(10);
    ck_assert_uint_ge(gtimer_now_ns(env.t) - g2, 9000000);
    /* a new hold counts its lead afresh */
    gtimer_hold(env.t, +1);
    uint64_t g3 = gtimer_now_ns(env.t);
    dev_sleep_ms(10);
    ck_assert_uint_ge(gtimer_now_ns(env.t) - g3, 9000000);
    gtimer_hold(env.t, -1);
    teardown();
}
END_TEST

START_TEST(hostile_values)
{
    setup(2);
    uint64_t s = 99;
    for (int i = 0; i < 20000; i++) {
        unsigned cpu = (unsigned)(dev_rand(&s) % 3);
        int w = (int)(dev_rand(&s) % 3);
        uint64_t v = dev_rand(&s);
        switch (dev_rand(&s) % 6) {
        case 0: gtimer_write_ctl(env.t, cpu, w, v); break;
        case 1: gtimer_write_cval(env.t, cpu, w, (dev_rand(&s) & 1) ? v : ~v >> (v & 63)); break;
        case 2: gtimer_write_tval(env.t, cpu, w, v); break;
        case 3: gtimer_set_cntvoff(env.t, cpu, (dev_rand(&s) & 1) ? v : v & 0xFFFF); break;
        case 4: (void)gtimer_read_tval(env.t, cpu, w); (void)gtimer_read_ctl(env.t, cpu, w); break;
        default: gtimer_reset_cpu(env.t, cpu); break;
        }
    }
    dev_sleep_ms(5); /* let any armed deadline fire */
    teardown();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dev_timer");
    TCase *tc = tcase_create("gtimer");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, counter_runs_at_frequency);
    tcase_add_test(tc, ctl_cval_tval);
    tcase_add_test(tc, deadline_fires_later);
    tcase_add_test(tc, wfi_woken_by_timer);
    tcase_add_test(tc, wfi_kick_and_timeout);
    tcase_add_test(tc, device_wait_freezes_guest_time);
    tcase_add_test(tc, device_wait_release_and_host_mode);
    tcase_add_test(tc, device_clock_reach);
    tcase_add_test(tc, device_lead_limit_stops_a_busy_cpu);
    tcase_add_test(tc, hostile_values);
    suite_add_tcase(s, tc);
    return dev_run_suite(s);
}
