/* Varying interpolation (emu/gpu/gfx_interp.c) on the weights the rasterizer (gfx_raster.c)
 * gives random perspective triangles' pixels: a value equal at the three vertices comes back
 * exactly (piglit's varying-struct tests need it; the plain weighted sum misses it by an ulp on
 * some pixels, which the test counts so that it cannot pass vacuously); other values stay within
 * rounding of the weighted sum in double; infinities and NaN pass through. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfx_interp.h"
#include "gfx_raster.h"

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg(__VA_ARGS__);                                                             \
    } while (0)

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bitsf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static double rnd(double lo, double hi) { return lo + (hi - lo) * (rand() / (double)RAND_MAX); }

typedef struct {
    float v[3];                 /* the vertices' values of the varying checked */
    bool constant;
    unsigned pixels, sum_misses;
} interp_check;

static void check_quad(void *ctx, const struct gfx_quad *q)
{
    interp_check *ic = ctx;
    for (unsigned p = 0; p < 4; p++) {
        if (!(q->pixel_mask >> p & 1))
            continue;
        const float *bw = q->bary[p];
        uint32_t r = gfx_interp_f32(bw, fbits(ic->v[0]), fbits(ic->v[1]), fbits(ic->v[2]));
        float plain = bw[0] * ic->v[0] + bw[1] * ic->v[1] + bw[2] * ic->v[2];
        ic->pixels++;
        if (ic->constant) {
            CHECK(r == fbits(ic->v[0]), "constant %a at weights %a %a %a: %a", (double)ic->v[0],
                  (double)bw[0], (double)bw[1], (double)bw[2], (double)bitsf(r));
            ic->sum_misses += fbits(plain) != r;
        } else {
            double ref = (double)bw[0] * ic->v[0] + (double)bw[1] * ic->v[1] + (double)bw[2] * ic->v[2];
            double big = fmax(fabs(ic->v[0]), fmax(fabs(ic->v[1]), fabs(ic->v[2])));
            /* the weights' sum misses 1 by a few float ulps: that much of v0, plus the rounding */
            CHECK(fabs(bitsf(r) - ref) <= big * 0x1p-21 + fabs(ref) * 0x1p-23,
                  "%a %a %a at weights %a %a %a: %a, weighted sum %a", (double)ic->v[0], (double)ic->v[1],
                  (double)ic->v[2], (double)bw[0], (double)bw[1], (double)bw[2], (double)bitsf(r), ref);
        }
    }
}

START_TEST(test_triangles)
{
    srand(34);
    struct gfx_raster_state st = { .samples = 1, .front_ccw = true, .cull = GFX_CULL_NONE, .scissor_x0 = 0,
                                   .scissor_y0 = 0, .scissor_x1 = 64, .scissor_y1 = 48, .zmin = 0, .zmax = 1 };
    interp_check c = { .constant = true }, n = { .constant = false };
    for (unsigned it = 0; it < 400; it++) {
        struct gfx_rvertex v[3];
        memset(v, 0, sizeof(v));
        for (unsigned k = 0; k < 3; k++) {
            v[k].x = (float)rnd(-5, 69);
            v[k].y = (float)rnd(-5, 53);
            v[k].z = (float)rnd(0, 1);
            v[k].rw = (float)rnd(0.2, 3);
            v[k].persp[k] = v[k].lin[k] = 1;
        }
        struct gfx_raster_setup s;
        if (!gfx_raster_setup_triangle(&st, v, &s, NULL))
            continue;
        float k = (float)rnd(-300, 300);                /* e.g. piglit's 137.035999074 + i */
        c.v[0] = c.v[1] = c.v[2] = k;
        gfx_raster_walk(&s, 0, 0, 64, 48, check_quad, &c, NULL);
        for (unsigned j = 0; j < 3; j++)
            n.v[j] = (float)rnd(-300, 300);
        gfx_raster_walk(&s, 0, 0, 64, 48, check_quad, &n, NULL);
    }
    /* measured: 131880 pixels each, the plain sum misses a constant on 29217 (22 %) */
    ck_assert_uint_gt(c.pixels, 100000);
    ck_assert_uint_gt(n.pixels, 100000);
    ck_assert_uint_gt(c.sum_misses, 10000);
}
END_TEST

START_TEST(test_specials)
{
    static const float bw[3] = { 0.25f, 0.5f, 0.25f };
    ck_assert_uint_eq(gfx_interp_f32(bw, fbits(INFINITY), fbits(INFINITY), fbits(INFINITY)), fbits(INFINITY));
    ck_assert_uint_eq(gfx_interp_f32(bw, fbits(-INFINITY), fbits(-INFINITY), fbits(-INFINITY)), fbits(-INFINITY));
    ck_assert(isnan(bitsf(gfx_interp_f32(bw, fbits(1), fbits(NAN), fbits(2)))));
    ck_assert(isnan(bitsf(gfx_interp_f32(bw, fbits(INFINITY), fbits(-INFINITY), fbits(2)))));
    /* a difference too large for float is still exact in double */
    ck_assert_float_eq(bitsf(gfx_interp_f32(bw, fbits(-3e38f), fbits(3e38f), fbits(-3e38f))), 0.0f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gfx_interp");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_triangles);
    tcase_add_test(tc, test_specials);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
