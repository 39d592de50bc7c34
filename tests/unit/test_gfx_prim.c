/* Primitive assembly (emu/gpu/gfx_prim.c): GL's vertex order, winding and provoking vertex for
 * every draw mode, index types, primitive restart and hostile index streams. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gfx_prim.h"

#define MAXP 64

typedef struct {
    struct gfx_prim p[MAXP];
    unsigned n;
    unsigned stop_after;        /* 0: never stop */
} collected;

static bool collect(void *ctx, const struct gfx_prim *p)
{
    collected *c = ctx;
    ck_assert_uint_lt(c->n, MAXP);
    c->p[c->n++] = *p;
    return !(c->stop_after && c->n == c->stop_after);
}

static long run(const struct gfx_prim_input *in, collected *c)
{
    memset(c, 0, sizeof(*c));
    return gfx_prim_assemble(in, collect, c);
}

/* Expected primitives as "v0 v1 v2/provoking#id" strings. */
static void expect(const collected *c, const char *const *want, unsigned n)
{
    ck_assert_uint_eq(c->n, n);
    for (unsigned i = 0; i < n; i++) {
        char got[64];
        const struct gfx_prim *p = &c->p[i];
        if (p->nverts == 3)
            snprintf(got, sizeof(got), "%u %u %u/%u#%u", p->v[0], p->v[1], p->v[2], p->provoking, p->id);
        else if (p->nverts == 2)
            snprintf(got, sizeof(got), "%u %u/%u#%u", p->v[0], p->v[1], p->provoking, p->id);
        else
            snprintf(got, sizeof(got), "%u/%u#%u", p->v[0], p->provoking, p->id);
        ck_assert_msg(!strcmp(got, want[i]), "primitive %u: got %s, want %s", i, got, want[i]);
    }
}

#define EXPECT(c, ...)                                                                             \
    do {                                                                                           \
        static const char *const w_[] = { __VA_ARGS__ };                                           \
        expect(c, w_, sizeof(w_) / sizeof(w_[0]));                                                 \
    } while (0)

static struct gfx_prim_input seq(enum gfx_draw_mode mode, uint32_t count, bool first)
{
    return (struct gfx_prim_input){ .mode = mode, .count = count, .first_provoking = first };
}

START_TEST(test_lists)
{
    collected c;
    struct gfx_prim_input in = seq(GFX_DRAW_POINTS, 3, false);
    in.base = 10;
    ck_assert_int_eq(run(&in, &c), 3);
    EXPECT(&c, "10/10#0", "11/11#1", "12/12#2");
    in = seq(GFX_DRAW_LINES, 5, false);     /* the odd vertex is dropped */
    ck_assert_int_eq(run(&in, &c), 2);
    EXPECT(&c, "0 1/1#0", "2 3/3#1");
    in.first_provoking = true;
    run(&in, &c);
    EXPECT(&c, "0 1/0#0", "2 3/2#1");
    in = seq(GFX_DRAW_TRIANGLES, 8, false);
    run(&in, &c);
    EXPECT(&c, "0 1 2/2#0", "3 4 5/5#1");
    in.first_provoking = true;
    run(&in, &c);
    EXPECT(&c, "0 1 2/0#0", "3 4 5/3#1");
}
END_TEST

START_TEST(test_strips_fans_loops)
{
    collected c;
    struct gfx_prim_input in = seq(GFX_DRAW_LINE_STRIP, 4, false);
    run(&in, &c);
    EXPECT(&c, "0 1/1#0", "1 2/2#1", "2 3/3#2");
    in = seq(GFX_DRAW_LINE_LOOP, 4, true);
    run(&in, &c);
    EXPECT(&c, "0 1/0#0", "1 2/1#1", "2 3/2#2", "3 0/3#3");
    in.first_provoking = false;
    in.count = 2;   /* GL: a loop of two vertices is two segments */
    run(&in, &c);
    EXPECT(&c, "0 1/1#0", "1 0/0#1");
    in.count = 1;
    ck_assert_int_eq(run(&in, &c), 0);
    /* strips: odd triangles swap their first two vertices (GL's order), provoking j or j+2 */
    in = seq(GFX_DRAW_TRIANGLE_STRIP, 5, false);
    run(&in, &c);
    EXPECT(&c, "0 1 2/2#0", "2 1 3/3#1", "2 3 4/4#2");
    in.first_provoking = true;
    run(&in, &c);
    EXPECT(&c, "0 1 2/0#0", "2 1 3/1#1", "2 3 4/2#2");
    /* fans: (0, j+1, j+2), provoking j+1 (first) or j+2 (last), not the hub */
    in = seq(GFX_DRAW_TRIANGLE_FAN, 5, true);
    run(&in, &c);
    EXPECT(&c, "0 1 2/1#0", "0 2 3/2#1", "0 3 4/3#2");
    in.first_provoking = false;
    run(&in, &c);
    EXPECT(&c, "0 1 2/2#0", "0 2 3/3#1", "0 3 4/4#2");
}
END_TEST

START_TEST(test_quads_polygon)
{
    collected c;
    struct gfx_prim_input in = seq(GFX_DRAW_QUADS, 9, false);
    run(&in, &c);
    EXPECT(&c, "0 1 2/3#0", "0 2 3/3#0", "4 5 6/7#1", "4 6 7/7#1");
    in.first_provoking = true;
    run(&in, &c);
    EXPECT(&c, "0 1 2/0#0", "0 2 3/0#0", "4 5 6/4#1", "4 6 7/4#1");
    /* quad strip: quad i is (2i, 2i+1, 2i+3, 2i+2) around its boundary */
    in = seq(GFX_DRAW_QUAD_STRIP, 7, false);
    run(&in, &c);
    EXPECT(&c, "0 1 3/3#0", "0 3 2/3#0", "2 3 5/5#1", "2 5 4/5#1");
    in.first_provoking = true;
    run(&in, &c);
    EXPECT(&c, "0 1 3/0#0", "0 3 2/0#0", "2 3 5/2#1", "2 5 4/2#1");
    in = seq(GFX_DRAW_POLYGON, 5, false);   /* the first vertex provokes either way */
    run(&in, &c);
    EXPECT(&c, "0 1 2/0#0", "0 2 3/0#0", "0 3 4/0#0");
}
END_TEST

/* Winding: vertices of a zigzag strip, a fan and quads laid out so that every GL primitive is
 * counter-clockwise; each emitted triangle must have a positive signed area. */
static double area(const double (*pos)[2], const struct gfx_prim *p)
{
    const double *a = pos[p->v[0]], *b = pos[p->v[1]], *c = pos[p->v[2]];
    return (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
}

START_TEST(test_winding)
{
    /* strip zigzag: v_i = (i / 2, i & 1); (v0, v1, v2) = (0,0), (0,1), (1,0) is clockwise, so
     * every triangle must be */
    double strip[12][2];
    for (unsigned i = 0; i < 12; i++) {
        strip[i][0] = i / 2;
        strip[i][1] = i & 1;
    }
    collected c;
    struct gfx_prim_input in = seq(GFX_DRAW_TRIANGLE_STRIP, 12, false);
    run(&in, &c);
    ck_assert_uint_eq(c.n, 10);
    for (unsigned i = 0; i < c.n; i++)
        ck_assert_msg(area((const double (*)[2])strip, &c.p[i]) < 0, "strip triangle %u flips", i);
    double fan[8][2] = { { 0, 0 } };
    for (unsigned i = 1; i < 8; i++) {
        fan[i][0] = cos(0.8 * (i - 1));
        fan[i][1] = sin(0.8 * (i - 1));
    }
    in = seq(GFX_DRAW_TRIANGLE_FAN, 8, false);
    run(&in, &c);
    ck_assert_uint_eq(c.n, 6);
    for (unsigned i = 0; i < c.n; i++)
        ck_assert_msg(area((const double (*)[2])fan, &c.p[i]) > 0, "fan triangle %u flips", i);
    /* quad strip along x: pairs (x, 0), (x, 1); GL's quad (0, 1, 3, 2) is then clockwise */
    double qs[8][2];
    for (unsigned i = 0; i < 8; i++) {
        qs[i][0] = i / 2;
        qs[i][1] = i & 1;
    }
    in = seq(GFX_DRAW_QUAD_STRIP, 8, false);
    run(&in, &c);
    ck_assert_uint_eq(c.n, 6);
    for (unsigned i = 0; i < c.n; i++)
        ck_assert_msg(area((const double (*)[2])qs, &c.p[i]) < 0, "quad-strip triangle %u flips", i);
}
END_TEST

START_TEST(test_index_types_and_restart)
{
    collected c;
    static const uint8_t u8[] = { 5, 6, 7, 0xff, 8, 9, 10, 11 };
    struct gfx_prim_input in = { .mode = GFX_DRAW_TRIANGLE_STRIP, .index_type = GFX_INDEX_U8,
                                 .indices = u8, .index_bytes = sizeof(u8), .count = 8, .base = 100,
                                 .restart = GFX_RESTART_IMPLICIT };
    run(&in, &c);
    /* the strip restarts: 8 9 10 11 is a new strip whose first triangle is even again */
    EXPECT(&c, "105 106 107/107#0", "108 109 110/110#1", "110 109 111/111#2");
    in.restart = GFX_RESTART_NONE;  /* 0xff is then an ordinary index: 255 + 100 */
    run(&in, &c);
    ck_assert_uint_eq(c.n, 6);
    ck_assert_uint_eq(c.p[1].v[2], 355);
    static const uint16_t u16[] = { 1, 2, 0xffff, 3, 4, 5, 7, 0xffff, 0xffff, 9 };
    in = (struct gfx_prim_input){ .mode = GFX_DRAW_LINE_LOOP, .index_type = GFX_INDEX_U16,
                                  .indices = u16, .index_bytes = sizeof(u16), .count = 10,
                                  .restart = GFX_RESTART_IMPLICIT };
    run(&in, &c);
    /* each run closes on its own; runs of one vertex draw nothing */
    EXPECT(&c, "1 2/2#0", "2 1/1#1", "3 4/4#2", "4 5/5#3", "5 7/7#4", "7 3/3#5");
    static const uint32_t u32[] = { 0, 1, 2, 77, 3, 4, 5, 6, 0xffffffffu };
    in = (struct gfx_prim_input){ .mode = GFX_DRAW_TRIANGLES, .index_type = GFX_INDEX_U32,
                                  .indices = u32, .index_bytes = sizeof(u32), .count = 9,
                                  .restart = GFX_RESTART_EXPLICIT, .restart_index = 77 };
    run(&in, &c);
    /* a restart drops the incomplete triangle; ids keep counting across restarts */
    EXPECT(&c, "0 1 2/2#0", "3 4 5/5#1");
    ck_assert_int_eq(run(&in, &c), 2);
    in.restart = GFX_RESTART_IMPLICIT;
    run(&in, &c);
    EXPECT(&c, "0 1 2/2#0", "77 3 4/4#1");
    /* polygons: one per run */
    static const uint16_t poly[] = { 0, 1, 2, 3, 0xffff, 4, 5, 6 };
    in = (struct gfx_prim_input){ .mode = GFX_DRAW_POLYGON, .index_type = GFX_INDEX_U16, .indices = poly,
                                  .index_bytes = sizeof(poly), .count = 8, .restart = GFX_RESTART_IMPLICIT };
    run(&in, &c);
    EXPECT(&c, "0 1 2/0#0", "0 2 3/0#0", "4 5 6/4#1");
}
END_TEST

START_TEST(test_hostile_input)
{
    collected c;
    static const uint16_t idx[4] = { 0, 1, 2, 3 };
    struct gfx_prim_input in = { .mode = GFX_DRAW_TRIANGLES, .index_type = GFX_INDEX_U16, .indices = idx,
                                 .index_bytes = sizeof(idx), .count = 5 };
    ck_assert_int_eq(run(&in, &c), -1);     /* 5 indices in an 8-byte buffer */
    ck_assert_uint_eq(c.n, 0);
    in.count = 0xffffffffu;
    ck_assert_int_eq(run(&in, &c), -1);
    in.count = 4;
    in.index_type = 7;
    ck_assert_int_eq(run(&in, &c), -1);
    in.index_type = GFX_INDEX_U16;
    in.mode = 3;    /* not a draw mode */
    ck_assert_int_eq(run(&in, &c), -1);
    in.mode = GFX_DRAW_NONE;
    ck_assert_int_eq(run(&in, &c), -1);
    /* indices wrap modulo 2^32 with the base */
    in = seq(GFX_DRAW_POINTS, 2, false);
    in.base = -1;
    run(&in, &c);
    EXPECT(&c, "4294967295/4294967295#0", "0/0#1");
    /* the callback stops the assembly */
    in = seq(GFX_DRAW_TRIANGLES, 30, false);
    memset(&c, 0, sizeof(c));
    c.stop_after = 3;
    ck_assert_int_eq(gfx_prim_assemble(&in, collect, &c), 3);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gfx_prim");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_lists);
    tcase_add_test(tc, test_strips_fans_loops);
    tcase_add_test(tc, test_quads_polygon);
    tcase_add_test(tc, test_winding);
    tcase_add_test(tc, test_index_types_and_restart);
    tcase_add_test(tc, test_hostile_input);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
