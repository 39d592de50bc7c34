/* Instrumentation reports, system side (emu/stats/ hooks in devices/bus.c and devices/mali/):
 * a WRITE_VALUE chain through a Mali job slot counts its jobs by type, the job IRQ asserted, the
 * register reads/writes per block and the distinct GPU pages the jobs touched; MMIO accesses
 * through the bus are counted per device. */
#include "mali_harness.h"

#include "../../emu/stats/stats.h"

#define J(n) (H_VA_BASE + 0x1000 + 0x40 * (n)) /* job headers: one page */
#define D(n) (H_VA_BASE + 0x8000 + 8 * (n))    /* data words: another page */

START_TEST(mali_counters)
{
    stats_enable(NULL);
    h_setup();
    h_driver_init();
    h_map_arena(0);
    h_as_enable(0);
    uint64_t c0[ST_N];
    stats_get_totals(c0, NULL, NULL);
    h_write_value(J(0), 1, 0, 0, J(1), D(0), WRITE_VALUE_IMM32, 0xCAFEF00D);
    h_write_value(J(1), 2, 1, 0, J(2), D(1), WRITE_VALUE_IMM64, 0x1122334455667788ull);
    h_write_value(J(2), 3, 1, 2, 0, D(2), WRITE_VALUE_IMM32, 7);
    h_submit(1, J(0), 0, false);                      /* register writes: HEAD, AFFINITY, CONFIG, COMMAND */
    ck_assert_uint_eq(h_wait(JOB_IRQ_RAWSTAT, 0x20002), 0x2);
    ck_assert_uint_eq(h_rd32(h_va2pa(D(2))), 7);
    wr(JOB_IRQ_CLEAR, 0x2);
    uint64_t v;
    ck_assert_int_eq(bus_read(h.bus, 0x2D000000, 4, &v), BUS_OK);   /* GPU_ID through the bus */

    uint64_t c[ST_N], mmio[STATS_MMIO_MAX][2], pages;
    stats_get_totals(c, mmio, &pages);
    ck_assert_uint_eq(c[ST_MALI_JOB_TYPE0 + 2], 3);                /* WRITE_VALUE */
    ck_assert_uint_eq(c[ST_MALI_JOB_FAILED], 0);
    ck_assert_uint_ge(c[ST_MALI_IRQ_JOB], 1);
    ck_assert_uint_eq(c[ST_MALI_IRQ_MMU], 0);
    ck_assert_uint_gt(c[ST_MALI_WR_JOB], c0[ST_MALI_WR_JOB] + 3);
    ck_assert_uint_gt(c[ST_MALI_RD_JOB], c0[ST_MALI_RD_JOB]);     /* h_wait polls RAWSTAT */
    ck_assert_uint_gt(c[ST_MALI_WR_MMU], 0);                       /* h_as_enable */
    ck_assert_uint_eq(pages, 2);                                   /* job page + data page */
    ck_assert_uint_gt(c[ST_MALI_RD_GPU], c0[ST_MALI_RD_GPU]);      /* the bus read (+ the driver's) */
    ck_assert_uint_eq(mmio[0][0], 1);                              /* the GPU is the only MMIO region */
    ck_assert_uint_eq(mmio[0][1], 0);                              /* harness writes bypass the bus */
    h_teardown();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("stats_mali");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, mali_counters);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
