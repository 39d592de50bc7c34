/* devices/gtimer --clock icount: guest time = warped ns + instructions << shift, never host time;
 * timers fire only when the vCPU loop updates them (no host timer), at deadlines it learns from
 * gtimer_icount_next_ns; idle warps jump to a deadline; the device-wait model is inert. */
#include "../devices/dev_check.h"
#include "../../devices/gtimer.h"

static Gic *gic;
static GTimer *t;
static uint64_t insns; /* the fake vCPU loop's count of instructions retired */

static uint64_t read_insns(void *o)
{
    (void)o;
    return insns;
}

static void setup(unsigned ncpu, unsigned shift)
{
    gic = gic_new(ncpu, NULL, NULL);
    gic_dist_write(gic, 0, 0x000, 1, 4);
    for (unsigned c = 0; c < ncpu; c++) {
        gic_dist_write(gic, c, 0x100, 0xFFFFFFFF, 4);
        gic_cpu_write(gic, c, 0x04, 0xF0, 4);
        gic_cpu_write(gic, c, 0x00, 1, 4);
    }
    t = gtimer_new(gic, ncpu);
    insns = 0;
    gtimer_set_icount(t, shift, read_insns, NULL);
}

static void teardown(void)
{
    gtimer_free(t);
    gic_free(gic);
}

static bool ppi_pending(unsigned cpu, unsigned ppi)
{
    return (gic_dist_read(gic, cpu, 0x200, 4) >> ppi) & 1;
}

START_TEST(time_is_instructions_not_host_time)
{
    setup(1, 0);
    ck_assert(gtimer_icount(t));
    ck_assert_uint_eq(gtimer_now_ns(t), 0);
    dev_sleep_ms(20); /* host time passes, guest time does not */
    ck_assert_uint_eq(gtimer_now_ns(t), 0);
    ck_assert_uint_eq(gtimer_count(t), 0);
    insns = 123456789;
    ck_assert_uint_eq(gtimer_now_ns(t), 123456789);
    ck_assert_uint_eq(gtimer_count(t), 12345678); /* 100 MHz: 10 ns per tick */
    gtimer_set_cntvoff(t, 0, 1000);
    ck_assert_uint_eq(gtimer_vcount(t, 0), 12345678 - 1000);
    teardown();
    setup(1, 3); /* 8 ns per instruction */
    insns = 1000;
    ck_assert_uint_eq(gtimer_now_ns(t), 8000);
    ck_assert_uint_eq(gtimer_count(t), 800);
    teardown();
}
END_TEST

START_TEST(timer_fires_at_update_only)
{
    setup(2, 0);
    gtimer_write_cval(t, 1, GT_PHYS, 100); /* 1000 ns */
    gtimer_write_ctl(t, 1, GT_PHYS, GT_CTL_ENABLE);
    ck_assert_uint_eq(gtimer_icount_next_ns(t), 1000);
    ck_assert_uint_eq(gtimer_icount_insns_until(t, 1000), 1000);
    insns = 999;
    ck_assert_uint_eq(gtimer_icount_insns_until(t, 1000), 1);
    gtimer_icount_update(t);
    ck_assert(!ppi_pending(1, GIC_PPI_PHYS_TIMER));
    insns = 1000; /* due, but nothing fires between two points of the vCPU loop */
    dev_sleep_ms(20);
    ck_assert(!ppi_pending(1, GIC_PPI_PHYS_TIMER));
    ck_assert(gtimer_read_ctl(t, 1, GT_PHYS) & GT_CTL_ISTATUS); /* a read sees the condition */
    gtimer_icount_update(t);
    ck_assert(ppi_pending(1, GIC_PPI_PHYS_TIMER));
    ck_assert(!ppi_pending(0, GIC_PPI_PHYS_TIMER));
    ck_assert_uint_eq(gtimer_icount_next_ns(t), UINT64_MAX); /* fired: no longer armed */
    /* the earliest of several, the virtual one through CNTVOFF; masked ones do not count */
    gtimer_write_ctl(t, 1, GT_PHYS, 0);
    gtimer_set_cntvoff(t, 0, 50);
    gtimer_write_cval(t, 0, GT_VIRT, 200); /* physical 250: 2500 ns */
    gtimer_write_ctl(t, 0, GT_VIRT, GT_CTL_ENABLE);
    gtimer_write_cval(t, 1, GT_VIRT, 300);
    gtimer_write_ctl(t, 1, GT_VIRT, GT_CTL_ENABLE);
    gtimer_write_cval(t, 0, GT_PHYS, 110);
    gtimer_write_ctl(t, 0, GT_PHYS, GT_CTL_ENABLE | GT_CTL_IMASK);
    ck_assert_uint_eq(gtimer_icount_next_ns(t), 2500);
    /* shift 2: 4 ns per instruction, rounded up to reach the deadline */
    teardown();
    setup(1, 2);
    insns = 10; /* 40 ns */
    ck_assert_uint_eq(gtimer_icount_insns_until(t, 50), 3);
    ck_assert_uint_eq(gtimer_icount_insns_until(t, 48), 2);
    ck_assert_uint_eq(gtimer_icount_insns_until(t, 40), 0);
    teardown();
}
END_TEST

static uint64_t hooked_ns;
static void deadline_hook(void *o, uint64_t ns) { (void)o; hooked_ns = ns; }

START_TEST(arming_a_timer_reports_its_deadline)
{
    setup(1, 0);
    gtimer_set_icount_deadline_hook(t, deadline_hook, NULL);
    insns = 100;
    hooked_ns = 0;
    gtimer_write_tval(t, 0, GT_PHYS, 50); /* 500 ns from 100 */
    ck_assert_uint_eq(hooked_ns, 0);      /* not enabled yet */
    gtimer_write_ctl(t, 0, GT_PHYS, GT_CTL_ENABLE);
    ck_assert_uint_eq(hooked_ns, 600);
    hooked_ns = 0;
    gtimer_write_ctl(t, 0, GT_PHYS, GT_CTL_ENABLE | GT_CTL_IMASK); /* masked: not armed */
    ck_assert_uint_eq(hooked_ns, 0);
    teardown();
}
END_TEST

START_TEST(idle_warp_jumps_to_the_deadline)
{
    setup(1, 0);
    insns = 500;
    gtimer_write_tval(t, 0, GT_VIRT, 500000); /* 5 ms after 500 ns */
    gtimer_write_ctl(t, 0, GT_VIRT, GT_CTL_ENABLE);
    uint64_t next = gtimer_icount_next_ns(t);
    ck_assert_uint_eq(next, 5000500);
    ck_assert_uint_eq(gtimer_icount_warp(t, next), 5000500);
    ck_assert_uint_eq(gtimer_now_ns(t), 5000500);
    ck_assert(ppi_pending(0, GIC_PPI_VIRT_TIMER)); /* the warp fired it */
    ck_assert_uint_eq(gtimer_icount_warp(t, 1000), 5000500); /* never backwards */
    insns = 600; /* instructions add on top of the warp */
    ck_assert_uint_eq(gtimer_now_ns(t), 5000600);
    GTimerClockStats st;
    gtimer_clock_stats(t, &st);
    ck_assert(st.icount && !st.model);
    ck_assert_uint_eq(st.icount_warps, 1);
    ck_assert_uint_eq(st.icount_warped_ns, 5000000);
    teardown();
}
END_TEST

START_TEST(device_wait_model_is_inert)
{
    setup(1, 0);
    gtimer_set_device_clock(t, true); /* the board turns it on before icount: stays off */
    insns = 1000;
    gtimer_hold(t, +1);
    gtimer_advance(t, 7000000);
    ck_assert(gtimer_advance_frozen(t, 5000));
    ck_assert_uint_eq(gtimer_reach(t, 9000000), 1000);
    gtimer_hold(t, -1);
    ck_assert_uint_eq(gtimer_now_ns(t), 1000);
    GTimerClockStats st;
    gtimer_clock_stats(t, &st);
    ck_assert(!st.model);
    ck_assert_uint_eq(st.freezes, 0);
    ck_assert_uint_eq(st.advanced_ns, 0);
    teardown();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dev_timer_icount");
    TCase *tc = tcase_create("gtimer_icount");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, time_is_instructions_not_host_time);
    tcase_add_test(tc, timer_fires_at_update_only);
    tcase_add_test(tc, arming_a_timer_reports_its_deadline);
    tcase_add_test(tc, idle_warp_jumps_to_the_deadline);
    tcase_add_test(tc, device_wait_model_is_inert);
    suite_add_tcase(s, tc);
    return dev_run_suite(s);
}
