/* Rasterization (emu/gpu/gfx_raster.c) against GL ES's rules and a slow reference: two
 * triangles sharing an edge, and fans, cover each sample exactly once; the top-left rule on
 * exact pixel centres; culling by winding; helper pixels of quads; Mali's 4x sample positions;
 * random triangles against per-sample edge tests in double (coverage, depth, perspective and
 * window-linear barycentrics), walked in 16x16 tiles; scissor, polygon offset and depth clamp;
 * lines and points; hostile coordinates.  GFX_BENCH=1 prints throughput instead. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gfx_raster.h"

/* ck_assert records a checkpoint (a write to Check's pipe) even when it passes; the loops over
 * every sample check with this, which costs nothing until it fails. */
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg(__VA_ARGS__);                                                             \
    } while (0)

#define FW 64
#define FH 48

/* What the walks produced, per pixel and sample. */
typedef struct {
    unsigned cov[FH][FW][GFX_MAX_SAMPLES];
    unsigned quads, helpers;
    float depth[FH][FW][GFX_MAX_SAMPLES];
    float depth_centre[FH][FW];
    float bary[FH][FW][3], bary_lin[FH][FW][3];
    float pc[FH][FW][2];
    bool front[FH][FW];
    uint8_t mask_of_quad[FH / 2][FW / 2];
} canvas;

static void on_quad(void *ctx, const struct gfx_quad *q)
{
    canvas *c = ctx;
    CHECK(q->x % 2 == 0 && q->y % 2 == 0, "quad at %d,%d not aligned", q->x, q->y);
    CHECK(q->x >= 0 && q->y >= 0 && q->x < FW && q->y < FH, "quad at %d,%d outside", q->x, q->y);
    CHECK(q->coverage != 0, "empty quad at %d,%d", q->x, q->y);
    c->quads++;
    c->mask_of_quad[q->y / 2][q->x / 2] = q->pixel_mask;
    for (unsigned p = 0; p < 4; p++) {
        int x = q->x + (p & 1), y = q->y + (p >> 1);
        unsigned bits = gfx_quad_pixel_coverage(q, p);
        CHECK(!!bits == !!(q->pixel_mask & (1u << p)), "quad %d,%d: pixel mask %x, coverage %llx",
              q->x, q->y, q->pixel_mask, (unsigned long long)q->coverage);
        if (!bits) {
            c->helpers++;
            continue;
        }
        for (unsigned s = 0; s < GFX_MAX_SAMPLES; s++) {
            if (bits & (1u << s)) {
                c->cov[y][x][s]++;
                c->depth[y][x][s] = q->depth[p][s];
            }
        }
        c->depth_centre[y][x] = q->depth_centre[p];
        memcpy(c->bary[y][x], q->bary[p], sizeof(q->bary[p]));
        memcpy(c->bary_lin[y][x], q->bary_lin[p], sizeof(q->bary_lin[p]));
        memcpy(c->pc[y][x], q->point_coord[p], sizeof(q->point_coord[p]));
        c->front[y][x] = q->front_facing;
    }
}

/* Walks a set-up primitive over the framebuffer one 16x16 tile at a time. */
static void walk_tiles(const struct gfx_raster_setup *s, canvas *c, struct gfx_raster_stats *stats)
{
    for (int ty = 0; ty < FH; ty += 16)
        for (int tx = 0; tx < FW; tx += 16)
            gfx_raster_walk(s, tx, ty, tx + 16, ty + 16, on_quad, c, stats);
}

static struct gfx_raster_state state(unsigned samples)
{
    return (struct gfx_raster_state){ .samples = samples, .front_ccw = true, .cull = GFX_CULL_NONE,
                                      .scissor_x0 = 0, .scissor_y0 = 0, .scissor_x1 = FW,
                                      .scissor_y1 = FH, .zmin = 0, .zmax = 1 };
}

static struct gfx_rvertex vtx(double x, double y, double z, double rw, unsigned k)
{
    struct gfx_rvertex v = { (float)x, (float)y, (float)z, (float)rw, { 0 }, { 0 } };
    v.persp[k % 3] = v.lin[k % 3] = 1;
    return v;
}

static bool tri(const struct gfx_raster_state *st, struct gfx_rvertex a, struct gfx_rvertex b,
                struct gfx_rvertex d, canvas *c, struct gfx_raster_stats *stats)
{
    struct gfx_rvertex v[3] = { a, b, d };
    struct gfx_raster_setup s;
    if (!gfx_raster_setup_triangle(st, v, &s, stats))
        return false;
    walk_tiles(&s, c, stats);
    return true;
}

static canvas *new_canvas(void)
{
    canvas *c = calloc(1, sizeof(*c));
    ck_assert_ptr_nonnull(c);
    return c;
}

/* ---- the slow reference: per-sample edge tests in double on the snapped vertices ---- */

static double snapd(double v)
{
    return nearbyint(v * 256) / 256;
}

/* The hardware's sample patterns as Mesa's pan_samples.c tables them (gl_SamplePosition):
 * rotated 4x grid in eighths, D3D 8x and 16x grids in sixteenths of a pixel from the centre */
static const int grid4[4][2] = { { -1, -3 }, { 3, -1 }, { -3, 1 }, { 1, 3 } };
static const int grid8[8][2] = { { 1, -3 }, { -1, 3 }, { 5, 1 }, { -3, -5 }, { -5, 5 }, { -7, -1 }, { 3, 7 }, { 7, -7 } };
static const int grid16[16][2] = { { 1, 1 }, { -1, -3 }, { -3, 2 }, { 4, -1 }, { -5, -2 }, { 2, 5 }, { 5, 3 }, { 3, -5 },
                                   { -2, 6 }, { 0, -7 }, { -4, -6 }, { -6, 4 }, { -8, 0 }, { 7, -4 }, { 6, 7 }, { -7, -8 } };

static void sample_xy(unsigned samples, int x, int y, unsigned s, double *sx, double *sy)
{
    double dx = 0, dy = 0;
    if (samples == 4)
        dx = grid4[s][0] / 8.0, dy = grid4[s][1] / 8.0;
    else if (samples == 8)
        dx = grid8[s][0] / 16.0, dy = grid8[s][1] / 16.0;
    else if (samples == 16)
        dx = grid16[s][0] / 16.0, dy = grid16[s][1] / 16.0;
    *sx = x + 0.5 + dx;
    *sy = y + 0.5 + dy;
}

/* Inside test of GL's tie-break written as a perturbation: a point on an edge is inside if the
 * point moved by (e, e^2), e -> 0+, is strictly inside (this is the top-left rule). */
static bool ref_inside(const double *vx, const double *vy, double px, double py)
{
    double area = (vx[1] - vx[0]) * (vy[2] - vy[0]) - (vx[2] - vx[0]) * (vy[1] - vy[0]);
    if (area == 0)
        return false;
    for (unsigned i = 0; i < 3; i++) {
        unsigned j = area > 0 ? (i + 1) % 3 : (i + 2) % 3;
        double ex = vx[j] - vx[i], ey = vy[j] - vy[i];
        double e = ex * (py - vy[i]) - ey * (px - vx[i]);
        if (e < 0)
            return false;
        if (e == 0 && !(-ey > 0 || (-ey == 0 && ex > 0)))
            return false;
    }
    return true;
}

/* Window-space barycentrics of (px, py) (double, snapped vertices). */
static void ref_bary(const double *vx, const double *vy, double px, double py, double l[3])
{
    double area = (vx[1] - vx[0]) * (vy[2] - vy[0]) - (vx[2] - vx[0]) * (vy[1] - vy[0]);
    for (unsigned k = 0; k < 3; k++) {
        unsigned i = (k + 1) % 3, j = (k + 2) % 3;
        l[k] = ((vx[j] - vx[i]) * (py - vy[i]) - (vy[j] - vy[i]) * (px - vx[i])) / area;
    }
}

#define NEAR(a, b, tol) CHECK(fabs((double)(a) - (double)(b)) <= (tol), "%s = %.9g, want %.9g (line %d)", #a, (double)(a), (double)(b), __LINE__)

static double rnd(double lo, double hi)
{
    return lo + (hi - lo) * (rand() / (double)RAND_MAX);
}

/* ---- tests ---- */

START_TEST(test_shared_edge_square)
{
    srand(1);
    for (unsigned samples = 1; samples <= 16; samples = samples == 1 ? 4 : samples * 2) {
        struct gfx_raster_state st = state(samples);
        for (unsigned it = 0; it < 200; it++) {
            double x0 = snapd(rnd(-3, 30)), y0 = snapd(rnd(-3, 20));
            double x1 = snapd(x0 + rnd(0.1, 30)), y1 = snapd(y0 + rnd(0.1, 25));
            if (it < 4) {   /* edges through pixel centres and on pixel corners */
                x0 = 2.5 + it, y0 = 1.5, x1 = 20.5, y1 = it & 1 ? 17 : 17.5;
            }
            canvas *c = new_canvas();
            /* split along one diagonal or the other, the second triangle wound the other way */
            if (it & 1) {
                tri(&st, vtx(x0, y0, 0, 1, 0), vtx(x1, y0, 0, 1, 1), vtx(x1, y1, 0, 1, 2), c, NULL);
                tri(&st, vtx(x0, y0, 0, 1, 0), vtx(x0, y1, 0, 1, 1), vtx(x1, y1, 0, 1, 2), c, NULL);
            } else {
                tri(&st, vtx(x0, y1, 0, 1, 0), vtx(x1, y0, 0, 1, 1), vtx(x0, y0, 0, 1, 2), c, NULL);
                tri(&st, vtx(x1, y0, 0, 1, 0), vtx(x0, y1, 0, 1, 1), vtx(x1, y1, 0, 1, 2), c, NULL);
            }
            for (int y = 0; y < FH; y++)
                for (int x = 0; x < FW; x++)
                    for (unsigned s = 0; s < samples; s++) {
                        double sx, sy;
                        sample_xy(samples, x, y, s, &sx, &sy);
                        /* top and left edges in, right and bottom out */
                        unsigned want = sx >= x0 && sx < x1 && sy >= y0 && sy < y1;
                        CHECK(c->cov[y][x][s] == want,
                                      "%ux: square (%g,%g)-(%g,%g), pixel %d,%d sample %u covered %u times",
                                      samples, x0, y0, x1, y1, x, y, s, c->cov[y][x][s]);
                    }
            free(c);
        }
    }
}
END_TEST

START_TEST(test_fan_covers_once)
{
    srand(2);
    for (unsigned samples = 1; samples <= 16; samples = samples == 1 ? 4 : samples * 2) {
        struct gfx_raster_state st = state(samples);
        for (unsigned it = 0; it < 60; it++) {
            double cx = snapd(rnd(20, 44)), cy = snapd(rnd(15, 33)), r = rnd(3, 14);
            if (it == 0)
                cx = 32.5, cy = 24.5;   /* the hub on a pixel centre */
            unsigned n = 3 + rand() % 14;
            double px[18], py[18], a0 = rnd(0, 6.3);
            for (unsigned i = 0; i <= n; i++) {
                px[i] = snapd(cx + r * cos(a0 + 6.283185307179586 * i / n));
                py[i] = snapd(cy + r * sin(a0 + 6.283185307179586 * i / n));
            }
            px[n] = px[0];
            py[n] = py[0];
            canvas *c = new_canvas();
            for (unsigned i = 0; i < n; i++)
                tri(&st, vtx(cx, cy, 0, 1, 0), vtx(px[i], py[i], 0, 1, 1), vtx(px[i + 1], py[i + 1], 0, 1, 2), c, NULL);
            for (int y = 0; y < FH; y++)
                for (int x = 0; x < FW; x++)
                    for (unsigned s = 0; s < samples; s++) {
                        double sx, sy;
                        sample_xy(samples, x, y, s, &sx, &sy);
                        unsigned want = 0;
                        for (unsigned i = 0; i < n; i++) {
                            double vx[3] = { cx, px[i], px[i + 1] }, vy[3] = { cy, py[i], py[i + 1] };
                            want += ref_inside(vx, vy, sx, sy);
                        }
                        CHECK(want <= 1, "fan %u: pixel %d,%d sample %u in %u triangles of the reference", it, x, y, s, want);
                        CHECK(c->cov[y][x][s] == want, "fan %u: pixel %d,%d sample %u: %u, want %u",
                                      it, x, y, s, c->cov[y][x][s], want);
                    }
            free(c);
        }
    }
}
END_TEST

START_TEST(test_top_left_on_pixel_centres)
{
    struct gfx_raster_state st = state(1);
    canvas *c = new_canvas();
    /* upper-left half of a 4x4 block whose edges run through pixel centres */
    tri(&st, vtx(0.5, 0.5, 0, 1, 0), vtx(4.5, 0.5, 0, 1, 1), vtx(0.5, 4.5, 0, 1, 2), c, NULL);
    unsigned n = 0;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            /* the top (y = 0.5) and left (x = 0.5) edges are in, the hypotenuse out */
            unsigned want = x + y <= 3;
            CHECK(c->cov[y][x][0] == want, "pixel %d,%d: %u", x, y, c->cov[y][x][0]);
            n += want;
        }
    ck_assert_uint_eq(n, 10);
    /* the lower-right half: right and bottom edges out, the hypotenuse (now a top-left edge) in */
    memset(c, 0, sizeof(*c));
    tri(&st, vtx(4.5, 0.5, 0, 1, 0), vtx(4.5, 4.5, 0, 1, 1), vtx(0.5, 4.5, 0, 1, 2), c, NULL);
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++)
            CHECK(c->cov[y][x][0] == (unsigned)(x + y >= 4 && x <= 3 && y <= 3), "pixel %d,%d", x, y);
    /* a sliver whose only centre lies on its bottom edge covers nothing */
    memset(c, 0, sizeof(*c));
    tri(&st, vtx(0, 2.25, 0, 1, 0), vtx(8, 2.25, 0, 1, 1), vtx(4, 2.5, 0, 1, 2), c, NULL);
    ck_assert_uint_eq(c->quads, 0);
    free(c);
}
END_TEST

START_TEST(test_culling_by_winding)
{
    struct gfx_raster_state st = state(1);
    struct gfx_raster_stats stats = { 0 };
    /* (0,0), (0,10), (10,0) with rows going down, as the framebuffer has them: counter-clockwise
     * on the screen, the winding Front Face CCW names (its signed area in these coordinates is
     * negative) */
    struct gfx_rvertex a = vtx(0, 0, 0, 1, 0), b = vtx(0, 10, 0, 1, 1), d = vtx(10, 0, 0, 1, 2);
    canvas *c = new_canvas();
    ck_assert(tri(&st, a, b, d, c, &stats));
    ck_assert(c->front[2][2]);
    memset(c, 0, sizeof(*c));
    ck_assert(tri(&st, a, d, b, c, &stats));       /* clockwise: back */
    ck_assert(!c->front[2][2] && c->cov[2][2][0] == 1);
    st.cull = GFX_CULL_BACK;
    ck_assert(tri(&st, a, b, d, c, &stats));
    ck_assert(!tri(&st, a, d, b, c, &stats));
    st.cull = GFX_CULL_FRONT;
    ck_assert(!tri(&st, a, b, d, c, &stats));
    ck_assert(tri(&st, a, d, b, c, &stats));
    st.front_ccw = false;                           /* now clockwise is front */
    ck_assert(tri(&st, a, b, d, c, &stats));
    ck_assert(!tri(&st, a, d, b, c, &stats));
    st.cull = GFX_CULL_BOTH;
    ck_assert(!tri(&st, a, b, d, c, &stats));
    ck_assert(!tri(&st, a, d, b, c, &stats));
    ck_assert_uint_eq(stats.prims, 10);
    ck_assert_uint_eq(stats.culled_face, 5);
    /* zero area */
    st.cull = GFX_CULL_NONE;
    ck_assert(!tri(&st, a, b, vtx(0, 20, 0, 1, 2), c, &stats));
    ck_assert_uint_eq(stats.culled_empty, 1);
    free(c);
}
END_TEST

START_TEST(test_quad_helpers)
{
    struct gfx_raster_state st = state(1);
    struct gfx_raster_stats stats = { 0 };
    canvas *c = new_canvas();
    /* around the centre of pixel (3, 5) only: the quad at (2, 4), pixel 3 covered */
    tri(&st, vtx(3.3, 5.3, 0, 1, 0), vtx(3.8, 5.4, 0, 1, 1), vtx(3.4, 5.8, 0, 1, 2), c, &stats);
    ck_assert_uint_eq(c->quads, 1);
    ck_assert_uint_eq(c->mask_of_quad[2][1], 0x8);
    ck_assert_uint_eq(c->helpers, 3);
    ck_assert(stats.quads == 1 && stats.pixels == 1 && stats.helpers == 3);
    /* a triangle covering one pixel of each of two quads: two quads, 6 helpers */
    memset(c, 0, sizeof(*c));
    tri(&st, vtx(0.8, 1.2, 0, 1, 0), vtx(3.2, 1.2, 0, 1, 1), vtx(2, 1.9, 0, 1, 2), c, NULL);
    ck_assert_uint_eq(c->quads, 2);
    ck_assert_uint_eq(c->mask_of_quad[0][0], 0x8);
    ck_assert_uint_eq(c->mask_of_quad[0][1], 0x4);
    ck_assert_uint_eq(c->helpers, 6);
    free(c);
}
END_TEST

START_TEST(test_msaa_sample_coverage)
{
    int sx, sy;
    static const int want[4][2] = { { 96, 32 }, { 224, 96 }, { 32, 160 }, { 160, 224 } };
    for (unsigned s = 0; s < 4; s++) {
        gfx_raster_sample_pos(4, s, &sx, &sy);
        ck_assert(sx == want[s][0] && sy == want[s][1]);
    }
    gfx_raster_sample_pos(1, 0, &sx, &sy);
    ck_assert(sx == 128 && sy == 128);
    /* 8x and 16x: every sample where the table puts it, in 1/256 pixel, and no two alike */
    for (unsigned n = 8; n <= 16; n *= 2) {
        unsigned seen[16][16] = { { 0 } };
        for (unsigned s = 0; s < n; s++) {
            double wx, wy;
            sample_xy(n, 0, 0, s, &wx, &wy);
            gfx_raster_sample_pos(n, s, &sx, &sy);
            ck_assert_msg(sx == (int)(wx * 256) && sy == (int)(wy * 256), "%ux sample %u at %d,%d, want %g,%g", n, s,
                          sx, sy, wx * 256, wy * 256);
            ck_assert_uint_eq(seen[sx / 16][sy / 16]++, 0);
        }
    }
    ck_assert(gfx_raster_samples_ok(8) && gfx_raster_samples_ok(16) && !gfx_raster_samples_ok(2));
    struct gfx_raster_state st = state(4);
    canvas *c = new_canvas();
    /* the rectangle [0.5, 8) x [0.5, 8): pixel (0, 0) keeps the samples with x, y >= 0.5 */
    tri(&st, vtx(0.5, 0.5, 0, 1, 0), vtx(8, 0.5, 0, 1, 1), vtx(8, 8, 0, 1, 2), c, NULL);
    tri(&st, vtx(0.5, 0.5, 0, 1, 0), vtx(8, 8, 0, 1, 1), vtx(0.5, 8, 0, 1, 2), c, NULL);
    unsigned bits = 0;
    for (unsigned s = 0; s < 4; s++)
        bits |= c->cov[0][0][s] << s;
    ck_assert_uint_eq(bits, 0x8);
    bits = 0;
    for (unsigned s = 0; s < 4; s++)
        bits |= c->cov[0][3][s] << s;
    ck_assert_uint_eq(bits, 0xc);       /* y >= 0.5: samples 2 and 3 */
    bits = 0;
    for (unsigned s = 0; s < 4; s++)
        bits |= c->cov[3][0][s] << s;
    ck_assert_uint_eq(bits, 0xa);       /* x >= 0.5: samples 1 and 3 */
    for (unsigned s = 0; s < 4; s++)
        ck_assert_uint_eq(c->cov[4][4][s], 1);
    free(c);
}
END_TEST

/* Random triangles (some off screen, some with perspective) against the reference. */
START_TEST(test_random_against_reference)
{
    srand(3);
    unsigned covered = 0;
    canvas *c = new_canvas();
    for (unsigned it = 0; it < 3000; it++) {
        static const unsigned counts[4] = { 1, 4, 8, 16 };
        unsigned samples = counts[it & 3];
        struct gfx_raster_state st = state(samples);
        if (it % 5 == 0) {
            st.scissor_x0 = rand() % 20, st.scissor_y0 = rand() % 20;
            st.scissor_x1 = st.scissor_x0 + rand() % 40, st.scissor_y1 = st.scissor_y0 + rand() % 30;
        }
        double vx[3], vy[3], vz[3], vrw[3];
        double scale = it % 3 == 0 ? 6 : 40;
        double ox = rnd(-10, FW + 10), oy = rnd(-10, FH + 10);
        struct gfx_rvertex v[3];
        for (unsigned k = 0; k < 3; k++) {
            vx[k] = snapd(ox + rnd(-scale, scale));
            vy[k] = snapd(oy + rnd(-scale, scale));
            if (it % 7 == 0)
                vx[k] = floor(vx[k]) + 0.5;     /* vertices on pixel centres */
            vz[k] = rnd(0, 1);
            vrw[k] = rnd(0.05, 3);
            v[k] = vtx(vx[k], vy[k], vz[k], vrw[k], k);
        }
        memset(c, 0, sizeof(*c));
        struct gfx_raster_setup s;
        if (gfx_raster_setup_triangle(&st, v, &s, NULL))
            walk_tiles(&s, c, NULL);
        for (int y = 0; y < FH; y++)
            for (int x = 0; x < FW; x++) {
                bool in_scissor = x >= st.scissor_x0 && x < st.scissor_x1 && y >= st.scissor_y0 && y < st.scissor_y1;
                bool any = false;
                for (unsigned sm = 0; sm < samples; sm++) {
                    double sx, sy;
                    sample_xy(samples, x, y, sm, &sx, &sy);
                    unsigned want = in_scissor && ref_inside(vx, vy, sx, sy);
                    CHECK(c->cov[y][x][sm] == want, "triangle %u (%ux): pixel %d,%d sample %u: %u, want %u",
                                  it, samples, x, y, sm, c->cov[y][x][sm], want);
                    if (want) {
                        double l[3];
                        ref_bary(vx, vy, sx, sy, l);
                        NEAR(c->depth[y][x][sm], l[0] * vz[0] + l[1] * vz[1] + l[2] * vz[2], 2e-6);
                    }
                    any |= want;
                }
                if (!any)
                    continue;
                covered++;
                double l[3], rw = 0;
                ref_bary(vx, vy, x + 0.5, y + 0.5, l);
                for (unsigned k = 0; k < 3; k++)
                    rw += l[k] * vrw[k];
                /* (extrapolated at a 4x pixel's uncovered centre, then clamped) */
                NEAR(c->depth_centre[y][x], fmin(1, fmax(0, l[0] * vz[0] + l[1] * vz[1] + l[2] * vz[2])), 2e-6);
                for (unsigned k = 0; k < 3; k++) {
                    NEAR(c->bary_lin[y][x][k], l[k], 1e-5 * (1 + fabs(l[k])));
                    /* a centre outside the triangle (4x) may lie beyond its horizon, where
                     * perspective weights have no meaning; rw > 0.05 holds inside */
                    if (rw > 0.05)
                        NEAR(c->bary[y][x][k], l[k] * vrw[k] / rw, 1e-5 * (1 + fabs(l[k]) * vrw[k] / rw));
                }
            }
    }
    free(c);
    ck_assert_uint_gt(covered, 100000);
}
END_TEST

START_TEST(test_tiles_equal_one_walk)
{
    srand(4);
    struct gfx_raster_state st = state(4);
    for (unsigned it = 0; it < 200; it++) {
        struct gfx_rvertex v[3];
        for (unsigned k = 0; k < 3; k++)
            v[k] = vtx(rnd(-5, FW + 5), rnd(-5, FH + 5), rnd(0, 1), rnd(0.5, 2), k);
        struct gfx_raster_setup s;
        if (!gfx_raster_setup_triangle(&st, v, &s, NULL))
            continue;
        canvas *a = new_canvas(), *b = new_canvas();
        walk_tiles(&s, a, NULL);
        gfx_raster_walk(&s, 0, 0, FW, FH, on_quad, b, NULL);
        ck_assert(!memcmp(a, b, sizeof(*a)));
        free(a);
        free(b);
    }
}
END_TEST

START_TEST(test_polygon_offset_and_clamp)
{
    struct gfx_raster_state st = state(1);
    st.offset_enable = true;
    st.offset_factor = 2;
    st.offset_units = 3;
    st.depth_r = 1.0f / (1 << 24);
    canvas *c = new_canvas();
    /* z = 0.5 + 0.001 x + 0.0004 y: max slope 0.001 */
    tri(&st, vtx(0, 0, 0.5, 1, 0), vtx(40, 0, 0.54, 1, 1), vtx(0, 40, 0.516, 1, 2), c, NULL);
    double want = 0.5 + 0.001 * 10.5 + 0.0004 * 5.5 + 2 * 0.001 + 3.0 / (1 << 24);
    NEAR(c->depth_centre[5][10], want, 1e-6);
    /* a float depth buffer: r = 2^(e - 23) for the largest |z| in [2, 4): 2^-22 */
    st.depth_float = true;
    st.zmax = 8;
    st.offset_factor = 0;
    st.offset_units = 1000;
    memset(c, 0, sizeof(*c));
    tri(&st, vtx(0, 0, 2.5, 1, 0), vtx(40, 0, 2.5, 1, 1), vtx(0, 40, 3, 1, 2), c, NULL);
    NEAR(c->depth_centre[0][0] - (2.5 + 0.5 * 0.5 / 40), 1000.0 / (1 << 22), 1e-6);
    /* clamp to [zmin, zmax] after the offset */
    st = state(1);
    st.zmin = 0.25f;
    st.zmax = 0.75f;
    memset(c, 0, sizeof(*c));
    tri(&st, vtx(0, 0, 0, 1, 0), vtx(40, 0, 1, 1, 1), vtx(0, 40, 0, 1, 2), c, NULL);
    ck_assert(c->depth_centre[0][0] == 0.25f && c->depth_centre[0][38] == 0.75f);
    NEAR(c->depth_centre[0][20], 20.5 / 40, 1e-6);
    free(c);
}
END_TEST

START_TEST(test_lines)
{
    struct gfx_raster_state st = state(1);
    canvas *c = new_canvas();
    struct gfx_raster_setup s;
    /* a horizontal strip of three segments: row 3, pixels 1..8, each once */
    double xs[4] = { 1, 3.7, 6, 9 };
    for (unsigned i = 0; i < 3; i++) {
        struct gfx_rvertex v[2] = { vtx(xs[i], 3.5, 0.25, 1, 0), vtx(xs[i + 1], 3.5, 0.75, 1, 1) };
        ck_assert(gfx_raster_setup_line(&st, v, 1, &s, NULL));
        walk_tiles(&s, c, NULL);
    }
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 12; x++)
            CHECK(c->cov[y][x][0] == (unsigned)(y == 3 && x >= 1 && x <= 8), "pixel %d,%d", x, y);
    /* t and depth along the last segment: at x = 8.5, t = 2.5 / 3 */
    NEAR(c->bary[3][8][1], 2.5 / 3, 1e-6);
    NEAR(c->depth_centre[3][8], 0.25 + 0.5 * 2.5 / 3, 1e-6);
    /* x-major diagonal, width 1: exactly one pixel in each column whose centre is in [x0, x1) */
    memset(c, 0, sizeof(*c));
    struct gfx_rvertex d[2] = { vtx(0.3, 0.2, 0, 1, 0), vtx(15.7, 7.9, 0, 1, 1) };
    ck_assert(gfx_raster_setup_line(&st, d, 1, &s, NULL));
    walk_tiles(&s, c, NULL);
    for (int x = 0; x < 20; x++) {
        unsigned n = 0;
        for (int y = 0; y < FH; y++)
            n += c->cov[y][x][0];
        CHECK(n == (unsigned)(x <= 15), "column %d has %u pixels", x, n);
    }
    /* y-major, width 3: three pixels per row */
    memset(c, 0, sizeof(*c));
    struct gfx_rvertex e[2] = { vtx(20.5, 2, 0, 1, 0), vtx(22.5, 30, 0, 1, 1) };
    ck_assert(gfx_raster_setup_line(&st, e, 3, &s, NULL));
    walk_tiles(&s, c, NULL);
    for (int y = 0; y < 34; y++) {
        unsigned n = 0;
        for (int x = 0; x < FW; x++)
            n += c->cov[y][x][0];
        CHECK(n == (unsigned)(y >= 2 && y < 30 ? 3 : 0), "row %d has %u pixels", y, n);
    }
    /* perspective along a line: t' = t rw1 / ((1 - t) rw0 + t rw1) */
    memset(c, 0, sizeof(*c));
    struct gfx_rvertex p[2] = { vtx(0, 10.5, 0, 1, 0), vtx(32, 10.5, 0, 0.25, 1) };
    ck_assert(gfx_raster_setup_line(&st, p, 1, &s, NULL));
    walk_tiles(&s, c, NULL);
    double t = 16.5 / 32;
    NEAR(c->bary[10][16][1], t * 0.25 / ((1 - t) + t * 0.25), 1e-6);
    NEAR(c->bary_lin[10][16][1], t, 1e-6);
    /* zero length: nothing */
    struct gfx_rvertex z[2] = { vtx(5, 5, 0, 1, 0), vtx(5, 5, 0, 1, 1) };
    ck_assert(!gfx_raster_setup_line(&st, z, 1, &s, NULL));
    free(c);
}
END_TEST

START_TEST(test_points)
{
    struct gfx_raster_state st = state(1);
    canvas *c = new_canvas();
    struct gfx_raster_setup s;
    /* size 2 centred on a pixel centre: edges through centres, left and top ones in */
    struct gfx_rvertex v = vtx(2.5, 2.5, 0.5, 1, 0);
    ck_assert(gfx_raster_setup_point(&st, &v, 2, &s, NULL));
    walk_tiles(&s, c, NULL);
    for (int y = 0; y < 6; y++)
        for (int x = 0; x < 6; x++)
            CHECK(c->cov[y][x][0] == (unsigned)(x >= 1 && x <= 2 && y >= 1 && y <= 2), "pixel %d,%d", x, y);
    /* gl_PointCoord s = 1/2 + (x + 1/2 - x_point) / size: 0 on the left edge */
    NEAR(c->pc[1][1][0], 0, 1e-6);
    NEAR(c->pc[1][2][0], 0.5, 1e-6);
    NEAR(c->pc[2][1][1], 0.5, 1e-6);
    NEAR(c->depth_centre[2][2], 0.5, 0);
    /* size 4 around (10, 10): pixels 8..11, s and t = 1/8, 3/8, 5/8, 7/8 */
    struct gfx_rvertex big = vtx(10, 10, 0.5, 1, 0);
    ck_assert(gfx_raster_setup_point(&st, &big, 4, &s, NULL));
    memset(c, 0, sizeof(*c));
    walk_tiles(&s, c, NULL);
    NEAR(c->pc[8][9][0], 0.375, 1e-6);
    NEAR(c->pc[8][9][1], 0.125, 1e-6);
    NEAR(c->pc[11][10][1], 0.875, 1e-6);
    st.point_origin_lower = true;
    memset(c, 0, sizeof(*c));
    walk_tiles(&s, c, NULL);
    NEAR(c->pc[8][9][0], 0.375, 1e-6);
    NEAR(c->pc[8][9][1], 0.875, 1e-6);
    /* size 1 at a centre: one pixel, coordinate (0.5, 0.5); size 3 off-centre: 9 pixels */
    memset(c, 0, sizeof(*c));
    ck_assert(gfx_raster_setup_point(&st, &v, 1, &s, NULL));
    walk_tiles(&s, c, NULL);
    ck_assert_uint_eq(c->quads, 1);
    ck_assert(c->cov[2][2][0] == 1 && c->pc[2][2][0] == 0.5f && c->pc[2][2][1] == 0.5f);
    memset(c, 0, sizeof(*c));
    struct gfx_rvertex w = vtx(10.2, 7.7, 0, 1, 0);
    ck_assert(gfx_raster_setup_point(&st, &w, 3, &s, NULL));
    walk_tiles(&s, c, NULL);
    unsigned n = 0;
    for (int y = 0; y < FH; y++)
        for (int x = 0; x < FW; x++)
            n += c->cov[y][x][0];
    ck_assert_uint_eq(n, 9);
    ck_assert(c->cov[6][9][0] && c->cov[8][11][0]);
    /* 4x: a 1-pixel point at a pixel corner takes one sample from each of 4 pixels */
    st = state(4);
    memset(c, 0, sizeof(*c));
    struct gfx_rvertex corner = vtx(5, 5, 0, 1, 0);
    ck_assert(gfx_raster_setup_point(&st, &corner, 1, &s, NULL));
    walk_tiles(&s, c, NULL);
    /* samples within 0.5 of the corner: in pixel (4,4) those at x, y >= 0.5 (sample 3) ... */
    ck_assert(c->cov[4][4][3] && !c->cov[4][4][0] && !c->cov[4][4][1] && !c->cov[4][4][2]);
    ck_assert(c->cov[5][5][0] && !c->cov[5][5][3]);
    free(c);
}
END_TEST

START_TEST(test_hostile_coordinates)
{
    struct gfx_raster_state st = state(4);
    struct gfx_raster_stats stats = { 0 };
    struct gfx_raster_setup s;
    const float bad[] = { NAN, INFINITY, 1e9f, -4e4f };
    for (unsigned b = 0; b < 4; b++) {
        struct gfx_rvertex v[3] = { vtx(1, 1, 0, 1, 0), vtx(9, 1, 0, 1, 1), vtx(1, 9, 0, 1, 2) };
        v[1].x = bad[b];
        ck_assert(!gfx_raster_setup_triangle(&st, v, &s, &stats));
        ck_assert(!gfx_raster_setup_line(&st, v, 1, &s, &stats));
        ck_assert(!gfx_raster_setup_point(&st, &v[1], 4, &s, &stats));
        v[1].x = 9;
        v[2].rw = b < 2 ? bad[b] : -1;
        ck_assert(!gfx_raster_setup_triangle(&st, v, &s, &stats));
    }
    struct gfx_rvertex p = vtx(3, 3, 0, 1, 0);
    ck_assert(!gfx_raster_setup_point(&st, &p, NAN, &s, &stats));
    ck_assert(!gfx_raster_setup_point(&st, &p, 1e9f, &s, &stats));
    ck_assert(!gfx_raster_setup_point(&st, &p, -1, &s, &stats));
    ck_assert_uint_eq(stats.culled_empty, stats.prims);
    ck_assert_uint_eq(stats.prims, 19);
    /* a triangle as large as the guard band walks only its window */
    struct gfx_rvertex big[3] = { vtx(GFX_GUARD_BAND, GFX_GUARD_BAND, 0, 1, 0),
                                  vtx(GFX_GUARD_BAND, -GFX_GUARD_BAND, 0, 1, 1),
                                  vtx(-GFX_GUARD_BAND, GFX_GUARD_BAND, 0, 1, 2) };
    canvas *c = new_canvas();
    ck_assert(gfx_raster_setup_triangle(&st, big, &s, NULL));
    walk_tiles(&s, c, NULL);
    ck_assert_uint_eq(c->quads, FW * FH / 4);
    free(c);
}
END_TEST

/* Binning: a tile the primitive is said not to touch gets no quad, and thin diagonal
 * triangles are rejected from most tiles of their bounding box. */
START_TEST(test_touches_is_conservative)
{
    srand(6);
    canvas *c = new_canvas();
    unsigned in_bbox = 0, rejected = 0;
    for (unsigned it = 0; it < 2000; it++) {
        struct gfx_raster_state st = state(it & 1 ? 4 : 1);
        struct gfx_rvertex v[3];
        double x0 = rnd(-5, 20), y0 = rnd(-5, 10), x1 = rnd(44, 70), y1 = rnd(30, 55);
        v[0] = vtx(x0, y0, 0, 1, 0);
        v[1] = vtx(x1, y1, 0, 1, 1);
        v[2] = vtx(x1 + rnd(-3, 3), y1 + rnd(-3, 3), 0, 1, 2);
        if (it % 3 == 0)
            v[2] = vtx(rnd(-5, FW + 5), rnd(-5, FH + 5), 0, 1, 2);
        struct gfx_raster_setup s;
        if (!gfx_raster_setup_triangle(&st, v, &s, NULL))
            continue;
        for (int ty = 0; ty < FH; ty += 16)
            for (int tx = 0; tx < FW; tx += 16) {
                bool t = gfx_raster_touches(&s, tx, ty, tx + 16, ty + 16);
                c->quads = 0;
                gfx_raster_walk(&s, tx, ty, tx + 16, ty + 16, on_quad, c, NULL);
                CHECK(t || c->quads == 0, "triangle %u: tile %d,%d rejected but covered", it, tx, ty);
                bool overlap = tx < s.bbox_x1 && tx + 16 > s.bbox_x0 && ty < s.bbox_y1 && ty + 16 > s.bbox_y0;
                in_bbox += overlap;
                rejected += overlap && !t;
            }
    }
    free(c);
    /* measured: 9511 of 21989 tiles (43%) */
    ck_assert_uint_gt(rejected * 10, in_bbox * 4);
}
END_TEST

/* gfx_raster_interp_at gives what the quads report, at pixel centres and at samples. */
typedef struct {
    const struct gfx_raster_setup *s;
    unsigned checked;
} interp_check;

static void check_interp(void *ctx, const struct gfx_quad *q)
{
    interp_check *ic = ctx;
    for (unsigned p = 0; p < 4; p++) {
        float persp[3], lin[3], z, rw;
        gfx_raster_interp_at(ic->s, q->x + (p & 1) + 0.5, q->y + (p >> 1) + 0.5, persp, lin, &z, &rw);
        CHECK(z == q->depth_centre[p] && rw == q->rw[p], "quad %d,%d pixel %u: depth or 1/w differ", q->x, q->y, p);
        for (unsigned k = 0; k < 3; k++)
            CHECK(persp[k] == q->bary[p][k] && lin[k] == q->bary_lin[p][k], "quad %d,%d pixel %u: weights differ",
                  q->x, q->y, p);
        for (unsigned i = 0; i < 4; i++) {
            int sx, sy;
            gfx_raster_sample_pos(4, i, &sx, &sy);
            gfx_raster_interp_at(ic->s, q->x + (p & 1) + sx / 256.0, q->y + (p >> 1) + sy / 256.0, persp, lin, &z, &rw);
            CHECK(z == q->depth[p][i], "quad %d,%d pixel %u sample %u: depth differs", q->x, q->y, p, i);
            for (unsigned k = 0; k < 3; k++)
                CHECK(persp[k] == q->sample_bary[p][i][k] && lin[k] == q->sample_bary_lin[p][i][k],
                      "quad %d,%d pixel %u sample %u: weights differ", q->x, q->y, p, i);
        }
        ic->checked++;
    }
}

START_TEST(test_interp_at)
{
    srand(8);
    struct gfx_raster_state st = state(4);
    st.sample_bary = true;
    unsigned checked = 0;
    for (unsigned it = 0; it < 300; it++) {
        struct gfx_rvertex v[3];
        for (unsigned k = 0; k < 3; k++)
            v[k] = vtx(rnd(-5, FW + 5), rnd(-5, FH + 5), rnd(0, 1), rnd(0.2, 3), k);
        struct gfx_rvertex l[2] = { v[0], v[1] };
        struct gfx_raster_setup s;
        interp_check ic = { &s, 0 };
        if (gfx_raster_setup_triangle(&st, v, &s, NULL))
            gfx_raster_walk(&s, 0, 0, FW, FH, check_interp, &ic, NULL);
        if (gfx_raster_setup_line(&st, l, 2.5f, &s, NULL))
            gfx_raster_walk(&s, 0, 0, FW, FH, check_interp, &ic, NULL);
        checked += ic.checked;
    }
    ck_assert_uint_gt(checked, 100000);
}
END_TEST

/* 4x lines are width x length rectangles centred on the segment: every sample against the
 * rectangle's own inside test (distance along and across the segment), half-open by the
 * top-left rule only on its boundary, which random coordinates avoid. */
START_TEST(test_msaa_lines)
{
    srand(9);
    struct gfx_raster_state st = state(4);
    canvas *c = new_canvas();
    unsigned covered = 0;
    for (unsigned it = 0; it < 300; it++) {
        double ax = rnd(0, FW), ay = rnd(0, FH), bx = rnd(0, FW), by = rnd(0, FH), w = rnd(0.5, 6);
        struct gfx_rvertex v[2] = { vtx(ax, ay, 0, 1, 0), vtx(bx, by, 0, 1, 1) };
        struct gfx_raster_setup s;
        memset(c, 0, sizeof(*c));
        if (!gfx_raster_setup_line(&st, v, (float)w, &s, NULL))
            continue;
        walk_tiles(&s, c, NULL);
        double dx = bx - ax, dy = by - ay, len = sqrt(dx * dx + dy * dy);
        for (int y = 0; y < FH; y++)
            for (int x = 0; x < FW; x++)
                for (unsigned sm = 0; sm < 4; sm++) {
                    double sx, sy;
                    sample_xy(4, x, y, sm, &sx, &sy);
                    double along = ((sx - ax) * dx + (sy - ay) * dy) / len;
                    double across = ((sx - ax) * -dy + (sy - ay) * dx) / len;
                    /* snapping moves the corners by up to 1/512 pixel: leave samples that close
                     * to the boundary out */
                    double margin = fmin(fmin(along, len - along), w / 2 - fabs(across));
                    if (fabs(margin) < 0.01)
                        continue;
                    CHECK(c->cov[y][x][sm] == (margin > 0), "line %u: pixel %d,%d sample %u: %u", it, x, y, sm,
                          c->cov[y][x][sm]);
                    covered += margin > 0;
                }
    }
    free(c);
    ck_assert_uint_gt(covered, 50000);
}
END_TEST

/* Entries a quad does not use are zero, not stack leftovers (results must not depend on them). */
static void check_unused_zero(void *ctx, const struct gfx_quad *q)
{
    unsigned *n = ctx;
    static const struct gfx_quad zero;
    for (unsigned p = 0; p < 4; p++) {
        for (unsigned i = 1; i < GFX_MAX_SAMPLES; i++)
            CHECK(q->depth[p][i] == 0, "quad %d,%d: depth of sample %u set at 1x", q->x, q->y, i);
        CHECK(!q->point_coord[p][0] && !q->point_coord[p][1], "quad %d,%d: point coordinate set", q->x, q->y);
    }
    CHECK(!memcmp(q->sample_bary, zero.sample_bary, sizeof(zero.sample_bary)) &&
          !memcmp(q->sample_bary_lin, zero.sample_bary_lin, sizeof(zero.sample_bary_lin)),
          "quad %d,%d: per-sample weights set without sample_bary", q->x, q->y);
    (*n)++;
}

START_TEST(test_unused_entries_zero)
{
    struct gfx_raster_state st = state(1);
    struct gfx_rvertex v[3] = { vtx(1, 1, 0.3, 1, 0), vtx(30, 4, 0.6, 2, 1), vtx(7, 25, 0.9, 0.5, 2) };
    struct gfx_raster_setup s;
    unsigned n = 0;
    ck_assert(gfx_raster_setup_triangle(&st, v, &s, NULL));
    gfx_raster_walk(&s, 0, 0, FW, FH, check_unused_zero, &n, NULL);
    ck_assert_uint_gt(n, 50);
}
END_TEST

/* ---- throughput (GFX_BENCH=1): triangles of a few sizes over a 512x512 target in 16x16 tiles,
 * per second of this process's CPU time (steady on a loaded host) ---- */

static void count_quad(void *ctx, const struct gfx_quad *q)
{
    uint64_t *n = ctx;
    n[0]++;
    n[1] += (unsigned)__builtin_popcount(q->pixel_mask);
}

static void bench(void)
{
    static const double sizes[] = { 4, 16, 64, 256 };
    for (unsigned samples = 1; samples <= 4; samples += 3) {
        for (unsigned si = 0; si < 4; si++) {
            struct gfx_raster_state st = state(samples);
            st.scissor_x1 = st.scissor_y1 = 512;
            srand(7);
            uint64_t n[2] = { 0, 0 };
            unsigned tris = (unsigned)(4e6 / (sizes[si] * sizes[si])) + 100;
            struct timespec t0, t1;
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
            for (unsigned it = 0; it < tris; it++) {
                double ox = rnd(0, 512 - sizes[si]), oy = rnd(0, 512 - sizes[si]);
                struct gfx_rvertex v[3];
                for (unsigned k = 0; k < 3; k++)
                    v[k] = vtx(ox + rnd(0, sizes[si]), oy + rnd(0, sizes[si]), rnd(0, 1), rnd(0.5, 2), k);
                struct gfx_raster_setup s;
                if (!gfx_raster_setup_triangle(&st, v, &s, NULL))
                    continue;
                for (int ty = s.bbox_y0 & ~15; ty < s.bbox_y1; ty += 16)
                    for (int tx = s.bbox_x0 & ~15; tx < s.bbox_x1; tx += 16)
                        gfx_raster_walk(&s, tx, ty, tx + 16, ty + 16, count_quad, n, NULL);
            }
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
            double sec = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
            printf("gfx_raster %ux, triangles in a %3.0f px box: %8.0f triangles/s, %6.1f M quads/s, %6.1f M pixels/s\n",
                   samples, sizes[si], tris / sec, n[0] / sec * 1e-6, n[1] / sec * 1e-6);
        }
    }
}

int main(void)
{
    if (getenv("GFX_BENCH")) {
        bench();
        return 0;
    }
    Suite *s = suite_create("gfx_raster");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_shared_edge_square);
    tcase_add_test(tc, test_fan_covers_once);
    tcase_add_test(tc, test_top_left_on_pixel_centres);
    tcase_add_test(tc, test_culling_by_winding);
    tcase_add_test(tc, test_quad_helpers);
    tcase_add_test(tc, test_msaa_sample_coverage);
    tcase_add_test(tc, test_random_against_reference);
    tcase_add_test(tc, test_tiles_equal_one_walk);
    tcase_add_test(tc, test_polygon_offset_and_clamp);
    tcase_add_test(tc, test_lines);
    tcase_add_test(tc, test_points);
    tcase_add_test(tc, test_hostile_coordinates);
    tcase_add_test(tc, test_touches_is_conservative);
    tcase_add_test(tc, test_interp_at);
    tcase_add_test(tc, test_msaa_lines);
    tcase_add_test(tc, test_unused_entries_zero);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
