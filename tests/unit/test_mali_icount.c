/* devices/mali under --clock icount (mali.h mali_set_icount): a chain the host has finished stays
 * invisible (JS_STATUS active, no job IRQ) until the vCPU loop publishes it at its guest time =
 * start + modelled duration; mali_icount_next reports a running chain's lower bound, then the
 * publication time; WRITE_VALUE timestamps and cycle counts follow the modelled schedule, not the
 * board clock read from the GPU's thread; a reset drops an unpublished end. */
#include "mali_harness.h"

#define J(n) (H_VA_BASE + 0x1000 + 0x40 * (n))
#define D(n) (H_VA_BASE + 0x8000 + 8 * (n))

static uint64_t guest_ns; /* the fake board clock (the vCPU loop's icount) */
static int gate;          /* atomic: the engine may finish */

static uint64_t now_ns(void *o) { (void)o; return __atomic_load_n(&guest_ns, __ATOMIC_SEQ_CST); }
static uint64_t counter(void *o) { (void)o; return now_ns(NULL) / 10; } /* 100 MHz */

/* 3007 warp-tuples: 501 ns on G71 MP4 (4 cores x 3 engines x 500 MHz) */
static uint32_t engine(void *opaque, const MaliComputeJob *job)
{
    (void)opaque;
    mali_job_progress(job->ctx, 1000);
    while (!__atomic_load_n(&gate, __ATOMIC_SEQ_CST))
        dev_sleep_ms(1);
    mali_job_progress(job->ctx, 2007);
    return MALI_EXC_DONE;
}

static int wait_kind(int kind, uint64_t *ns)
{
    int k = MALI_ICOUNT_NONE;
    for (int i = 0; i < 5000 && (k = mali_icount_next(h.m, ns)) != kind; i++)
        dev_sleep_ms(1);
    return k;
}

START_TEST(chain_end_published_at_its_guest_time)
{
    h_setup();
    h_driver_init();
    h_map_arena(1);
    h_as_enable(1);
    MaliClockModel cm = { .now_ns = now_ns };
    mali_set_clock_model(h.m, &cm);
    mali_set_timestamp(h.m, counter, NULL, 100000000);
    mali_set_compute_engine(h.m, engine, NULL);
    mali_set_icount(h.m, true);
    guest_ns = 0;
    wr(GPU_COMMAND, GPU_CMD_CYCLE_COUNT_START); /* cycle counter base: guest 0 */
    for (int i = 0; i < 3; i++)
        h_wr64(h_va2pa(D(i)), 0);
    h_write_value(J(0), 1, 0, 0, J(1), D(0), WRITE_VALUE_SYSTEM_TIMESTAMP, 0);
    h_job_header(J(1), JOB_TYPE_COMPUTE, 2, 1, 0, true, J(2));
    h_write_value(J(2), 3, 2, 0, J(3), D(1), WRITE_VALUE_SYSTEM_TIMESTAMP, 0);
    h_write_value(J(3), 4, 3, 0, 0, D(2), WRITE_VALUE_CYCLE_COUNTER, 0);
    uint64_t ns;
    ck_assert_int_eq(mali_icount_next(h.m, &ns), MALI_ICOUNT_NONE);
    guest_ns = 10000;
    h_submit(1, J(0), 1, true); /* starts at guest 10000 */
    /* running: it ends no earlier than its start + the work modelled so far */
    ck_assert_int_eq(wait_kind(MALI_ICOUNT_BOUND, &ns), MALI_ICOUNT_BOUND);
    ck_assert(ns >= 10000 && ns <= 10501);
    for (int i = 0; i < 5000 && ns != 10000 + 166; i++) { /* 1000 tuples: 166.7 ns */
        dev_sleep_ms(1);
        mali_icount_next(h.m, &ns);
    }
    ck_assert_uint_eq(ns, 10166);
    __atomic_store_n(&gate, 1, __ATOMIC_SEQ_CST);
    /* finished on the host: publication at 10000 + 501, nothing visible before */
    ck_assert_int_eq(wait_kind(MALI_ICOUNT_PUBLISH, &ns), MALI_ICOUNT_PUBLISH);
    ck_assert_uint_eq(ns, 10501);
    dev_sleep_ms(20);
    ck_assert_uint_eq(rd(JOB_IRQ_RAWSTAT), 0);
    ck_assert_uint_eq(rd(JSR(1, JS_STATUS)), MALI_EXC_ACTIVE);
    guest_ns = 10500;
    mali_icount_publish(h.m, guest_ns);
    ck_assert_uint_eq(rd(JOB_IRQ_RAWSTAT), 0);
    guest_ns = 10501;
    mali_icount_publish(h.m, guest_ns);
    ck_assert_uint_eq(rd(JOB_IRQ_RAWSTAT), 0x2);
    ck_assert_uint_eq(rd(JSR(1, JS_STATUS)), MALI_EXC_DONE);
    ck_assert_int_eq(mali_icount_next(h.m, &ns), MALI_ICOUNT_NONE);
    wr(JOB_IRQ_CLEAR, ~0u);
    /* the schedule, not the clock at the GPU thread's instant: start 1000 ticks, + 501 ns
     * (unclamped, though the counter read 1000 ticks while the job ran); cycles at 500 MHz
     * from guest 0 to 10501 ns */
    ck_assert_uint_eq(h_rd64(h_va2pa(D(0))), 1000);
    ck_assert_uint_eq(h_rd64(h_va2pa(D(1))), 1050);
    ck_assert_uint_eq(h_rd64(h_va2pa(D(2))), 5250);
    /* a reset drops a finished, unpublished chain: no IRQ, nothing pending */
    guest_ns = 20000;
    h_submit(1, J(0), 1, true);
    ck_assert_int_eq(wait_kind(MALI_ICOUNT_PUBLISH, &ns), MALI_ICOUNT_PUBLISH);
    ck_assert_uint_eq(ns, 20501);
    mali_reset(h.m);
    ck_assert_int_eq(mali_icount_next(h.m, &ns), MALI_ICOUNT_NONE);
    mali_icount_publish(h.m, 1u << 30);
    ck_assert_uint_eq(rd(JOB_IRQ_RAWSTAT), 0);
    mali_set_compute_engine(h.m, NULL, NULL);
    mali_set_clock_model(h.m, NULL);
    h_teardown();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mali_icount");
    TCase *tc = tcase_create("icount");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, chain_end_published_at_its_guest_time);
    suite_add_tcase(s, tc);
    return dev_run_suite(s);
}
