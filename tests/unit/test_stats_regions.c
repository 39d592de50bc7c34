/* The guest channel's records (emu/stats/regions.c): the rule that names a compute job by the
 * oldest pending announced launch whose geometry its grid covers, cancels, and the bounds a
 * hostile guest runs into.  Each test runs in its own process (Check's fork mode), so each
 * starts with empty tables. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats_regions.h"

static const stats_mark M = { .cpu = 0, .insns = 1, .guest_ns = 2 };

static int64_t announce(const char *name, uint64_t g0, uint64_t l0)
{
    uint64_t g[3] = { g0, 1, 1 }, l[3] = { l0, l0 ? 1 : 0, l0 ? 1 : 0 };
    return stats_launch_announce(name, 1, g, l, 1, &M);
}

static int64_t job(unsigned local, unsigned groups, const char **name)
{
    unsigned lo[3] = { local, 1, 1 }, gr[3] = { groups, 1, 1 };
    return stats_launch_match(lo, gr, name);
}

START_TEST(test_geometry)
{
    const char *n;
    int64_t a = announce("any_local", 1000, 0), b = announce("local_64", 4096, 64);
    ck_assert_int_ge(a, 0);
    ck_assert_int_ge(b, 0);
    ck_assert_int_eq(job(64, 63, &n), -1);          /* 63 x 64 < 4096: not local_64's grid */
    ck_assert_ptr_null(n);
    ck_assert_int_eq(job(128, 32, &n), -1);         /* 4096 threads, but local 128 != announced 64 */
    ck_assert_int_eq(job(8, 126, &n), -1);          /* ceil(1000 / 8) = 125, not 126 */
    ck_assert_int_eq(job(64, 64, &n), b);           /* local_64, although any_local is older */
    ck_assert_str_eq(n, "local_64");
    ck_assert_int_eq(job(48, 21, &n), a);           /* ceil(1000 / 48) = 21: the driver's local size */
    ck_assert_str_eq(n, "any_local");
    ck_assert_int_eq(job(48, 21, &n), -1);          /* each launch names one job */
}
END_TEST

START_TEST(test_oldest_first_and_cancel)
{
    const char *n;
    int64_t a = announce("first", 256, 64), b = announce("second", 256, 64), c = announce("third", 256, 64);
    ck_assert_int_eq(stats_launch_cancel((uint64_t)b), 0);
    ck_assert_int_eq(stats_launch_cancel((uint64_t)b), STATS_ROI_EINVAL);
    ck_assert_int_eq(stats_launch_cancel(12345), STATS_ROI_EINVAL);
    ck_assert_int_eq(job(64, 4, &n), a);
    ck_assert_int_eq(job(64, 4, &n), c);            /* the cancelled one is skipped */
    ck_assert_str_eq(n, "third");
    ck_assert_int_eq(stats_launch_cancel((uint64_t)a), STATS_ROI_EINVAL);   /* matched already */
}
END_TEST

START_TEST(test_pending_bound)
{
    const char *n;
    for (unsigned i = 0; i < STATS_ROI_PENDING + 1; i++)
        ck_assert_int_eq(announce("flood", 64, 64), (int64_t)i);
    /* the oldest was pushed out: the next job takes launch 1 */
    ck_assert_int_eq(job(64, 1, &n), 1);
}
END_TEST

START_TEST(test_bad_launches)
{
    uint64_t g[3] = { 64, 1, 1 }, z[3] = { 0, 0, 0 };
    ck_assert_int_eq(stats_launch_announce("k", 0, g, z, 1, &M), STATS_ROI_EINVAL);
    ck_assert_int_eq(stats_launch_announce("k", 4, g, z, 1, &M), STATS_ROI_EINVAL);
    ck_assert_int_eq(stats_launch_announce("k", 1, z, z, 1, &M), STATS_ROI_EINVAL);
}
END_TEST

START_TEST(test_nesting)
{
    ck_assert_int_eq(stats_roi_end(&M), STATS_ROI_EINVAL);
    for (int i = 0; i < STATS_ROI_MAX_DEPTH; i++)
        ck_assert_int_eq(stats_roi_begin("r", &M), i);
    ck_assert_int_eq(stats_roi_begin("r", &M), STATS_ROI_ENOSPC);
    for (int i = STATS_ROI_MAX_DEPTH; i-- > 0;)
        ck_assert_int_eq(stats_roi_end(&M), i);     /* innermost first */
    ck_assert_int_eq(stats_roi_end(&M), STATS_ROI_EINVAL);
}
END_TEST

START_TEST(test_table_bound)
{
    char text[32];
    for (int i = 0; i < STATS_ROI_MAX_REGIONS; i++) {
        snprintf(text, sizeof text, "note %d", i);
        ck_assert_int_eq(stats_roi_annotate(text, &M), i);
    }
    ck_assert_int_eq(stats_roi_annotate("one more", &M), STATS_ROI_ENOSPC);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("stats_regions");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_geometry);
    tcase_add_test(tc, test_oldest_first_and_cancel);
    tcase_add_test(tc, test_pending_bound);
    tcase_add_test(tc, test_bad_launches);
    tcase_add_test(tc, test_nesting);
    tcase_add_test(tc, test_table_bound);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
