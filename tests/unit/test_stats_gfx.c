/* Graphics counts for --stats: what a FRAGMENT job's warps and tiles count (emu/gpu/gfx_stats.c),
 * the sum over worker slots, and the report's graphics section (emu/stats/stats_gfx.c).  The
 * expected values are derived by hand from the quads and lanes each case builds. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx_frag_int.h"
#include "gfx_raster.h"
#include "gfx_stats.h"
#include "stats.h"
#include "stats_gpu.h"

static struct gfx_quad quad_at(int x, int y)
{
    struct gfx_quad q;
    memset(&q, 0, sizeof(q));
    q.x = x;
    q.y = y;
    return q;
}

/* A v7 warp of two quads in the tile at (16, 32): quad 0 at (16, 32) with its 4 lanes covered,
 * quad 1 at (18, 32) with lanes 4 and 5 covered (lane 5 by 4 samples); the early test kills
 * lane 1.  Then a second warp over quad 0 again: its pixels were shaded already. */
START_TEST(test_warp_counts)
{
    gfx_shade_counts s;
    memset(&s, 0, sizeof(s));
    struct gfx_quad q0 = quad_at(16, 32), q1 = quad_at(18, 32);
    const struct gfx_quad *qs[2] = { &q0, &q1 };
    uint16_t cov[8] = { 1, 0, 1, 1, 1, 0xf, 0, 0 };     /* after the early test: lane 1 none */
    gfx_stats_tile_begin(&s);
    gfx_stats_warp(&s, qs, 2, 16, 32, 0x3f, 0x3d, cov, true, false);
    ck_assert_uint_eq(s.c.killed_early, 1);
    ck_assert_uint_eq(s.c.quads, 2);
    ck_assert_uint_eq(s.c.fragments, 5);             /* lanes 0, 2, 3, 4, 5 */
    ck_assert_uint_eq(s.c.helpers, 3);               /* 8 lanes of 2 quads, 5 covered */
    ck_assert_uint_eq(s.c.samples, 8);               /* 1 + 1 + 1 + 1 + 4 */
    const struct gfx_quad *again[1] = { &q0 };
    uint16_t cov2[4] = { 1, 1, 0, 0 };
    gfx_stats_warp(&s, again, 1, 16, 32, 0x3, 0x3, cov2, true, false);
    ck_assert_uint_eq(s.c.fragments, 7);
    ck_assert_uint_eq(s.c.helpers, 5);
    /* a warp killed whole by the early test, and a frame shader's: neither is a draw's fragment */
    gfx_stats_warp(&s, again, 1, 16, 32, 0xf, 0, cov2, true, false);
    gfx_stats_warp(&s, again, 1, 16, 32, 0xf, 0xf, cov2, true, true);
    ck_assert_uint_eq(s.c.killed_early, 5);
    ck_assert_uint_eq(s.c.fragments, 7);
    ck_assert_uint_eq(s.c.frame_fragments, 4);
    ck_assert_uint_eq(gfx_stats_tile_end(&s), 3);    /* warps that ran a shader */
    ck_assert_uint_eq(s.c.pixels, 6);                /* (16..17, 32..33) + (18, 32) + (19, 32) */
    ck_assert_uint_eq(s.c.tiles, 1);
    /* the next tile starts with no pixel shaded */
    gfx_stats_tile_begin(&s);
    ck_assert_uint_eq(gfx_stats_tile_end(&s), 1);    /* none ran: still one for --timing's P */
    ck_assert_uint_eq(s.c.pixels, 6);
    ck_assert_uint_eq(s.c.tiles, 2);
}
END_TEST

/* The frame's counts are the slots' sums, whichever slot ran which tile. */
START_TEST(test_frame_sum)
{
    gfx_frame f;
    memset(&f, 0, sizeof(f));
    f.fb.width = 250;
    f.fb.height = 100;
    f.ndraws = 3;
    gfx_shade_counts slots[3];
    memset(slots, 0, sizeof(slots));
    f.counts = slots;
    for (unsigned i = 0; i < 3; i++) {
        slots[i].c.tiles = 10 + i;
        slots[i].c.fragments = 1000u * (i + 1);
        slots[i].c.pixels = 500u * (i + 1);
        slots[i].c.quads = 300u + i;
        slots[i].c.helpers = i;
    }
    gpu_gfx_frame_counts out;
    gfx_stats_frame_sum(&f, 3, &out);
    ck_assert_uint_eq(out.width, 250);
    ck_assert_uint_eq(out.height, 100);
    ck_assert_uint_eq(out.draws, 3);
    ck_assert_uint_eq(out.tiles, 33);
    ck_assert_uint_eq(out.fragments, 6000);
    ck_assert_uint_eq(out.pixels, 3000);
    ck_assert_uint_eq(out.quads, 903);
    ck_assert_uint_eq(out.helpers, 3);
}
END_TEST

/* The section: draws by job type, primitives summed, frames listed in order with their totals,
 * and JSON with overdraw = fragments / pixels. */
START_TEST(test_section)
{
    stats_gfx_reset();
    gpu_gfx_draw_counts d1 = { .prims_in = 2 }, d2 = { .prims_in = 5, .culled = 2, .clipped = 1, .dropped = 1 };
    stats_gfx_draw(10, &d1);
    stats_gfx_draw(7, &d2);
    gpu_gfx_frame_counts f1 = { .width = 250, .height = 250, .tiles = 256, .draws = 2, .fragments = 93750,
                                .pixels = 62500, .quads = 23750, .helpers = 1250, .samples = 93750 };
    gpu_gfx_frame_counts f2 = { .width = 64, .height = 32, .tiles = 8, .draws = 1, .fragments = 2048, .pixels = 2048 };
    stats_gfx_frame(&f1);
    stats_gfx_frame(&f2);
    stats_gfx_totals t;
    stats_gfx_get(&t);
    ck_assert_uint_eq(t.draws, 2);
    ck_assert_uint_eq(t.prims.prims_in, 7);
    ck_assert_uint_eq(t.prims.culled, 2);
    ck_assert_uint_eq(t.prims.clipped, 1);
    ck_assert_uint_eq(t.frames, 2);
    ck_assert_uint_eq(t.frame.fragments, 95798);
    ck_assert_uint_eq(t.frame.pixels, 64548);
    gpu_gfx_frame_counts g;
    ck_assert_int_eq(stats_gfx_get_frame(1, &g), 0);
    ck_assert_uint_eq(g.width, 64);
    ck_assert_int_eq(stats_gfx_get_frame(2, &g), -1);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    stats_write_json(f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "\"graphics\": {"));
    ck_assert_ptr_nonnull(strstr(buf, "\"draws\": {\"indexed_vertex\": 1, \"tiler\": 1}"));
    ck_assert_ptr_nonnull(strstr(buf, "\"in\": 7, \"culled\": 2, \"clipped\": 1, \"dropped\": 1"));
    ck_assert_ptr_nonnull(strstr(buf, "\"fragments\": 93750"));
    ck_assert_ptr_nonnull(strstr(buf, "\"overdraw\": 1.5000}"));
    free(buf);
    stats_gfx_reset();
    stats_gfx_get(&t);
    ck_assert_uint_eq(t.frames, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("stats_gfx");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_warp_counts);
    tcase_add_test(tc, test_frame_sum);
    tcase_add_test(tc, test_section);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
