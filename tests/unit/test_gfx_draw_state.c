/* A draw's rasterizer state (emu/gpu/gfx_draw_state.c) as gfx_raster then uses it: polygon
 * offset in the depth format's resolution, its clamp and per-facing enables, and the
 * gl_PointCoord origin the Renderer State names.  Expected values worked out by hand from GL ES
 * 3.2 (13.7.2, 14.4) and panfrost's encoding (pan_cmdstream.c: Depth Units = GL units x 2). */
#include <check.h>
#include <math.h>
#include <string.h>

#include "gfx_draw_state.h"
#include "mali_formats.h"

static gfx_fb fb;
static gfx_draw dr;

static void reset(unsigned z_internal)
{
    memset(&fb, 0, sizeof fb);
    memset(&dr, 0, sizeof dr);
    fb.z_internal = z_internal;
    dr.front_ccw = true;
    dr.sx1 = dr.sy1 = 1023;
}

/* depth at pixel (8, 8) of a flat triangle at z, counter-clockwise on the screen (rows going
 * down: front) or not */
static float depth_at(float z, bool ccw)
{
    struct gfx_raster_state st;
    gfx_draw_raster_state(&fb, &dr, 1, &st);
    struct gfx_rvertex v[3] = {
        { .x = 0, .y = 0, .z = z, .rw = 1, .persp = { 1, 0, 0 }, .lin = { 1, 0, 0 } },
        { .x = 0, .y = 32, .z = z, .rw = 1, .persp = { 0, 1, 0 }, .lin = { 0, 1, 0 } },
        { .x = 32, .y = 0, .z = z, .rw = 1, .persp = { 0, 0, 1 }, .lin = { 0, 0, 1 } },
    };
    if (!ccw) {                                 /* as given, counter-clockwise: swap two */
        struct gfx_rvertex t = v[1];
        v[1] = v[2];
        v[2] = t;
    }
    struct gfx_raster_setup s;
    ck_assert(gfx_raster_setup_triangle(&st, v, &s, NULL));
    if (st.offset_enable && !gfx_draw_offset_applies(&dr, s.front_facing)) {
        st.offset_enable = false;               /* as gfx_shade does for the other facing */
        ck_assert(gfx_raster_setup_triangle(&st, v, &s, NULL));
    }
    float persp[3], lin[3], d, rw;
    gfx_raster_interp_at(&s, 8.5, 8.5, persp, lin, &d, &rw);
    return d;
}

START_TEST(test_polygon_offset)
{
    /* glPolygonOffset(0, 1) on D24: one unit is 2^-24 (Depth Units holds 2) */
    reset(MALI_Z_INTERNAL_FORMAT_D24);
    ck_assert(depth_at(0.5f, true) == 0.5f);            /* no bias enabled: no offset */
    dr.bias_front = dr.bias_back = true;
    dr.depth_units = 2.0f;
    ck_assert_float_eq(depth_at(0.5f, true), 0.5f + 0x1p-24f);
    dr.depth_units = -8.0f;                              /* units -4 */
    ck_assert_float_eq(depth_at(0.5f, true), 0.5f - 0x1p-22f);
    /* D16: 2^-16 a unit */
    reset(MALI_Z_INTERNAL_FORMAT_D16);
    dr.bias_front = dr.bias_back = true;
    dr.depth_units = 2.0f;
    ck_assert_float_eq(depth_at(0.5f, true), 0.5f + 0x1p-16f);
    /* D32 (float): 2^(e - 23) of the largest |z|, z = 0.5 = 2^-1: 2^-24 a unit */
    reset(MALI_Z_INTERNAL_FORMAT_D32);
    dr.bias_front = dr.bias_back = true;
    dr.depth_units = 2.0f;
    ck_assert_float_eq(depth_at(0.5f, true), 0.5f + 0x1p-24f);
    /* EXT_polygon_offset_clamp: units 1000 on D24 (6.0e-5) clamped to 1e-5, and -1e-5 */
    reset(MALI_Z_INTERNAL_FORMAT_D24);
    dr.bias_front = dr.bias_back = true;
    dr.depth_units = 2000.0f;
    dr.depth_clamp = 1e-5f;
    ck_assert_float_eq_tol(depth_at(0.25f, true), 0.25f + 1e-5f, 3e-8f);
    dr.depth_units = -2000.0f;
    dr.depth_clamp = -1e-5f;
    ck_assert_float_eq_tol(depth_at(0.25f, true), 0.25f - 1e-5f, 3e-8f);
    /* the bias of one facing only (Renderer State: front / back facing depth bias) */
    reset(MALI_Z_INTERNAL_FORMAT_D24);
    dr.bias_front = true;
    dr.depth_units = 64.0f;
    ck_assert_float_eq(depth_at(0.5f, true), 0.5f + 0x1p-19f);
    ck_assert(depth_at(0.5f, false) == 0.5f);
}
END_TEST

static float coord_t[16][16];
static void point_quad(void *ctx, const struct gfx_quad *q)
{
    (void)ctx;
    for (unsigned p = 0; p < 4; p++)
        if (q->pixel_mask >> p & 1)
            coord_t[q->y + (p >> 1)][q->x + (p & 1)] = q->point_coord[p][1];
}

/* gl_PointCoord t of a 16-pixel point covering pixels 0..15: rows from the top (y = 0) */
static void point_t(bool max_y)
{
    reset(MALI_Z_INTERNAL_FORMAT_D24);
    dr.point_origin_max_y = max_y;
    struct gfx_raster_state st;
    gfx_draw_raster_state(&fb, &dr, 1, &st);
    struct gfx_rvertex v = { .x = 8, .y = 8, .z = 0.5f, .rw = 1, .persp = { 1, 0, 0 }, .lin = { 1, 0, 0 } };
    struct gfx_raster_setup s;
    ck_assert(gfx_raster_setup_point(&st, &v, 16.0f, &s, NULL));
    memset(coord_t, 0xff, sizeof coord_t);
    gfx_raster_walk(&s, 0, 0, 16, 16, point_quad, NULL, NULL);
}

START_TEST(test_point_origin)
{
    /* origin at max y (what panfrost sets when st/mesa draws into an FBO, GL's lower-left row 0
     * being memory row 0): t = 1 - 1/32 on row 0, 1/32 on row 15 (glsl-fs-pointcoord's green
     * corner at GL (0, 0)) */
    point_t(true);
    ck_assert_float_eq(coord_t[0][0], 1.0f - 1.0f / 32);
    ck_assert_float_eq(coord_t[15][3], 1.0f / 32);
    /* origin at min y: the other way round */
    point_t(false);
    ck_assert_float_eq(coord_t[0][5], 1.0f / 32);
    ck_assert_float_eq(coord_t[15][0], 1.0f - 1.0f / 32);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gfx_draw_state");
    TCase *t = tcase_create("state");
    tcase_add_test(t, test_polygon_offset);
    tcase_add_test(t, test_point_origin);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
