/* Primitive setup and the quad walker (see gfx_raster.h). */
#include "gfx_raster.h"

#include <math.h>
#include <string.h>

#define SUB (1 << GFX_SUBPIXEL_BITS)
/* Largest point size / line width accepted: keeps corners within 64-bit-safe coordinates. */
#define MAX_EXTENT 16384.0

/* Sample offsets from the pixel's centre in sixteenths of a pixel, by pattern (the hardware's
 * fixed patterns; Mesa's pan_samples.c lists them for gl_SamplePosition): rotated 4x grid,
 * D3D 8x grid, D3D 16x grid. */
static const int8_t pattern4[4][2] = { { -2, -6 }, { 6, -2 }, { -6, 2 }, { 2, 6 } };
static const int8_t pattern8[8][2] = { { 1, -3 }, { -1, 3 }, { 5, 1 }, { -3, -5 },
                                       { -5, 5 }, { -7, -1 }, { 3, 7 }, { 7, -7 } };
static const int8_t pattern16[16][2] = { { 1, 1 }, { -1, -3 }, { -3, 2 }, { 4, -1 }, { -5, -2 }, { 2, 5 },
                                         { 5, 3 }, { 3, -5 }, { -2, 6 }, { 0, -7 }, { -4, -6 }, { -6, 4 },
                                         { -8, 0 }, { 7, -4 }, { 6, 7 }, { -7, -8 } };

bool gfx_raster_samples_ok(unsigned samples)
{
    return samples == 1 || samples == 4 || samples == 8 || samples == 16;
}

void gfx_raster_sample_pos(unsigned samples, unsigned s, int *x, int *y)
{
    const int8_t(*pat)[2] = samples == 4 ? pattern4 : samples == 8 ? pattern8 : samples == 16 ? pattern16 : NULL;
    if (pat && s < samples) {
        *x = SUB / 2 + pat[s][0] * (SUB / 16);
        *y = SUB / 2 + pat[s][1] * (SUB / 16);
    } else {
        *x = SUB / 2;
        *y = SUB / 2;
    }
}

static bool coord_ok(double c, double limit)
{
    return isfinite(c) && fabs(c) <= limit;
}

static int64_t snap(double c)
{
    return (int64_t)llrint(c * SUB);
}

static int64_t floor_div_sub(int64_t v)
{
    return v >= 0 ? v / SUB : -((-v + SUB - 1) / SUB);
}

#define COUNT(stats, field)                                                                        \
    do {                                                                                           \
        if (stats)                                                                                 \
            (stats)->field++;                                                                      \
    } while (0)

/* Edges of the convex polygon (cx[i], cy[i]), made to have a positive area.  Returns false if
 * the area is zero.  Sets the bounding box, clipped to the scissor; false if that is empty. */
static bool build_edges(struct gfx_raster_setup *s, unsigned n, int64_t *cx, int64_t *cy)
{
    const struct gfx_raster_state *st = s->st;
    __int128 area = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned j = (i + 1) % n;
        area += (__int128)cx[i] * cy[j] - (__int128)cx[j] * cy[i];
    }
    if (area == 0)
        return false;
    bool reverse = area < 0;
    int64_t minx = cx[0], maxx = cx[0], miny = cy[0], maxy = cy[0];
    for (unsigned e = 0; e < n; e++) {
        unsigned i = reverse ? (n - e) % n : e;
        unsigned j = reverse ? (n - e - 1) % n : (e + 1) % n;
        int64_t dx = cx[j] - cx[i], dy = cy[j] - cy[i];
        s->edge_a[e] = -dy;
        s->edge_b[e] = dx;
        s->edge_c[e] = dy * cx[i] - dx * cy[i];
        s->edge_bias[e] = (dy < 0 || (dy == 0 && dx > 0)) ? 0 : -1;
        minx = cx[i] < minx ? cx[i] : minx;
        maxx = cx[i] > maxx ? cx[i] : maxx;
        miny = cy[i] < miny ? cy[i] : miny;
        maxy = cy[i] > maxy ? cy[i] : maxy;
    }
    s->nedges = n;
    /* pixels whose square [x, x + 1) meets [min, max]; samples lie strictly inside the square */
    int64_t x0 = floor_div_sub(minx), x1 = floor_div_sub(maxx) + 1;
    int64_t y0 = floor_div_sub(miny), y1 = floor_div_sub(maxy) + 1;
    x0 = x0 > st->scissor_x0 ? x0 : st->scissor_x0;
    y0 = y0 > st->scissor_y0 ? y0 : st->scissor_y0;
    x1 = x1 < st->scissor_x1 ? x1 : st->scissor_x1;
    y1 = y1 < st->scissor_y1 ? y1 : st->scissor_y1;
    if (x0 >= x1 || y0 >= y1)
        return false;
    s->bbox_x0 = (int)x0;
    s->bbox_y0 = (int)y0;
    s->bbox_x1 = (int)x1;
    s->bbox_y1 = (int)y1;
    return true;
}

static bool vertex_ok(const struct gfx_rvertex *v, double limit)
{
    return coord_ok(v->x, limit) && coord_ok(v->y, limit) && isfinite(v->z) && isfinite(v->rw) &&
           v->rw > 0;
}

static void copy_vertex(struct gfx_raster_setup *s, unsigned k, const struct gfx_rvertex *v)
{
    s->z[k] = v->z;
    s->rw[k] = v->rw;
    memcpy(s->persp[k], v->persp, sizeof(v->persp));
    memcpy(s->lin[k], v->lin, sizeof(v->lin));
}

static void init_setup(struct gfx_raster_setup *s, const struct gfx_raster_state *st,
                       enum gfx_prim_kind kind)
{
    memset(s, 0, sizeof(*s));
    s->st = st;
    s->kind = kind;
    s->front_facing = true;
}

bool gfx_raster_setup_triangle(const struct gfx_raster_state *st, const struct gfx_rvertex v[3],
                               struct gfx_raster_setup *s, struct gfx_raster_stats *stats)
{
    init_setup(s, st, GFX_PRIM_TRIANGLE);
    COUNT(stats, prims);
    for (unsigned k = 0; k < 3; k++) {
        if (!vertex_ok(&v[k], GFX_GUARD_BAND)) {
            COUNT(stats, culled_empty);
            return false;
        }
    }
    int64_t cx[3], cy[3];
    for (unsigned k = 0; k < 3; k++) {
        cx[k] = snap(v[k].x);
        cy[k] = snap(v[k].y);
    }
    int64_t area2 = (cx[1] - cx[0]) * (cy[2] - cy[0]) - (cx[2] - cx[0]) * (cy[1] - cy[0]);
    if (area2 == 0) {
        COUNT(stats, culled_empty);
        return false;
    }
    bool ccw = area2 > 0;
    /* Front Face CCW counts the winding as seen on the framebuffer, rows going down: a positive
     * area in these coordinates is clockwise there (kmscube and glmark2 show their back faces
     * otherwise; Mesa flips the bit with the viewport's y for window-system framebuffers). */
    s->front_facing = ccw != st->front_ccw;
    if (st->cull == GFX_CULL_BOTH || (st->cull == GFX_CULL_FRONT && s->front_facing) ||
        (st->cull == GFX_CULL_BACK && !s->front_facing)) {
        COUNT(stats, culled_face);
        return false;
    }
    /* clockwise triangles are set up as (v0, v2, v1) so that the interior is E > 0 */
    unsigned order[3] = { 0, ccw ? 1u : 2u, ccw ? 2u : 1u };
    int64_t ox[3], oy[3];
    for (unsigned k = 0; k < 3; k++) {
        ox[k] = cx[order[k]];
        oy[k] = cy[order[k]];
        copy_vertex(s, k, &v[order[k]]);
    }
    if (!build_edges(s, 3, ox, oy)) {
        COUNT(stats, culled_empty);
        return false;
    }
    double area = 0;
    for (unsigned k = 0; k < 3; k++) {
        const struct gfx_rvertex *vi = &v[order[(k + 1) % 3]], *vj = &v[order[(k + 2) % 3]];
        s->px[k] = vi->x;
        s->py[k] = vi->y;
        s->pa[k] = -((double)vj->y - vi->y);
        s->pb[k] = (double)vj->x - vi->x;
        if (k == 0)
            area = s->pb[0] * ((double)v[order[0]].y - vi->y) + s->pa[0] * ((double)v[order[0]].x - vi->x);
    }
    if (!(area > 0)) {
        /* snapping made the triangle positive where it is not, or less than a rounding error:
         * interpolate on the snapped vertices */
        for (unsigned k = 0; k < 3; k++) {
            s->px[k] = ox[(k + 1) % 3] / (double)SUB;
            s->py[k] = oy[(k + 1) % 3] / (double)SUB;
            s->pa[k] = -(double)(oy[(k + 2) % 3] - oy[(k + 1) % 3]) / SUB;
            s->pb[k] = (double)(ox[(k + 2) % 3] - ox[(k + 1) % 3]) / SUB;
        }
        area = (double)(ccw ? area2 : -area2) / ((double)SUB * SUB);
    }
    for (unsigned k = 0; k < 3; k++) {
        s->pa[k] /= area;
        s->pb[k] /= area;
    }
    if (st->offset_enable) {
        double dzdx = 0, dzdy = 0;
        for (unsigned k = 0; k < 3; k++) {
            dzdx += s->z[k] * s->pa[k];
            dzdy += s->z[k] * s->pb[k];
        }
        double m = fmax(fabs(dzdx), fabs(dzdy));
        double r = st->depth_r;
        if (st->depth_float) {
            float zmax = fmaxf(fabsf(s->z[0]), fmaxf(fabsf(s->z[1]), fabsf(s->z[2])));
            int e;
            frexpf(zmax, &e);   /* zmax = f * 2^e, f in [0.5, 1): exponent e - 1 */
            r = zmax > 0 ? ldexp(1.0, e - 1 - 23) : ldexp(1.0, -126 - 23);
        }
        double off = st->offset_factor * m + st->offset_units * r;
        if (st->offset_clamp > 0)
            off = fmin(off, st->offset_clamp);
        else if (st->offset_clamp < 0)
            off = fmax(off, st->offset_clamp);
        s->z_offset = off;
    }
    return true;
}

bool gfx_raster_setup_line(const struct gfx_raster_state *st, const struct gfx_rvertex v[2],
                           float width, struct gfx_raster_setup *s, struct gfx_raster_stats *stats)
{
    init_setup(s, st, GFX_PRIM_LINE);
    COUNT(stats, prims);
    if (!vertex_ok(&v[0], GFX_GUARD_BAND) || !vertex_ok(&v[1], GFX_GUARD_BAND) ||
        !(width > 0) || width > MAX_EXTENT) {
        COUNT(stats, culled_empty);
        return false;
    }
    double ax = v[0].x, ay = v[0].y, bx = v[1].x, by = v[1].y;
    double dx = bx - ax, dy = by - ay, h = width / 2.0;
    double len2 = dx * dx + dy * dy;
    double ox, oy;
    if (st->samples > 1 && len2 > 0) {
        /* multisampled: the width x length rectangle centred on the segment (GL's multisample
         * line rule) */
        double inv = h / sqrt(len2);
        ox = -dy * inv;
        oy = dx * inv;
    } else {
        /* single-sampled: GL's wide-line parallelogram, shifted along the minor axis */
        bool xmajor = fabs(dx) >= fabs(dy);
        ox = xmajor ? 0 : h;
        oy = xmajor ? h : 0;
    }
    int64_t cx[4] = { snap(ax - ox), snap(bx - ox), snap(bx + ox), snap(ax + ox) };
    int64_t cy[4] = { snap(ay - oy), snap(by - oy), snap(by + oy), snap(ay + oy) };
    if (len2 == 0 || !build_edges(s, 4, cx, cy)) {
        COUNT(stats, culled_empty);
        return false;
    }
    copy_vertex(s, 0, &v[0]);
    copy_vertex(s, 1, &v[1]);
    s->line_ox = ax;
    s->line_oy = ay;
    s->line_dx = dx / len2;
    s->line_dy = dy / len2;
    return true;
}

bool gfx_raster_setup_point(const struct gfx_raster_state *st, const struct gfx_rvertex *v,
                            float size, struct gfx_raster_setup *s, struct gfx_raster_stats *stats)
{
    init_setup(s, st, GFX_PRIM_POINT);
    COUNT(stats, prims);
    if (!vertex_ok(v, GFX_GUARD_BAND) || !(size > 0) || size > MAX_EXTENT) {
        COUNT(stats, culled_empty);
        return false;
    }
    double h = size / 2.0;
    double x0 = v->x - h, y0 = v->y - h, x1 = v->x + h, y1 = v->y + h;
    int64_t cx[4] = { snap(x0), snap(x1), snap(x1), snap(x0) };
    int64_t cy[4] = { snap(y0), snap(y0), snap(y1), snap(y1) };
    if (!build_edges(s, 4, cx, cy)) {
        COUNT(stats, culled_empty);
        return false;
    }
    copy_vertex(s, 0, v);
    s->point_x0 = x0;
    s->point_y0 = y0;
    s->point_inv_size = 1.0 / size;
    return true;
}

/* Window weights of the set-up vertices at (px, py), in pixels. */
static void weights_at(const struct gfx_raster_setup *s, double px, double py, double l[3])
{
    switch (s->kind) {
    case GFX_PRIM_TRIANGLE:
        for (unsigned k = 0; k < 3; k++)
            l[k] = s->pa[k] * (px - s->px[k]) + s->pb[k] * (py - s->py[k]);
        break;
    case GFX_PRIM_LINE: {
        double t = (px - s->line_ox) * s->line_dx + (py - s->line_oy) * s->line_dy;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        l[0] = 1 - t;
        l[1] = t;
        l[2] = 0;
        break;
    }
    default:
        l[0] = 1;
        l[1] = 0;
        l[2] = 0;
        break;
    }
}

static float depth_of(const struct gfx_raster_setup *s, const double l[3])
{
    double z = l[0] * s->z[0] + l[1] * s->z[1] + l[2] * s->z[2] + s->z_offset;
    const struct gfx_raster_state *st = s->st;
    z = z < st->zmin ? st->zmin : z > st->zmax ? st->zmax : z;
    return (float)z;
}

/* Perspective-correct and window-linear weights of the original vertices from the set-up
 * vertices' window weights l; returns the interpolated 1/w. */
static double original_weights(const struct gfx_raster_setup *s, const double l[3], float persp[3],
                               float lin[3])
{
    double rw = l[0] * s->rw[0] + l[1] * s->rw[1] + l[2] * s->rw[2];
    double inv = rw > 0 ? 1.0 / rw : 0;
    double m[3];
    for (unsigned k = 0; k < 3; k++)
        m[k] = l[k] * s->rw[k] * inv;
    for (unsigned i = 0; i < 3; i++) {
        persp[i] = (float)(m[0] * s->persp[0][i] + m[1] * s->persp[1][i] + m[2] * s->persp[2][i]);
        lin[i] = (float)(l[0] * s->lin[0][i] + l[1] * s->lin[1][i] + l[2] * s->lin[2][i]);
    }
    return rw;
}

void gfx_raster_interp_at(const struct gfx_raster_setup *s, double x, double y, float persp[3], float lin[3],
                          float *z, float *rw)
{
    double l[3];
    weights_at(s, x, y, l);
    *z = depth_of(s, l);
    *rw = (float)original_weights(s, l, persp, lin);
}

bool gfx_raster_touches(const struct gfx_raster_setup *s, int x0, int y0, int x1, int y1)
{
    x0 = x0 > s->bbox_x0 ? x0 : s->bbox_x0;
    y0 = y0 > s->bbox_y0 ? y0 : s->bbox_y0;
    x1 = x1 < s->bbox_x1 ? x1 : s->bbox_x1;
    y1 = y1 < s->bbox_y1 ? y1 : s->bbox_y1;
    if (x0 >= x1 || y0 >= y1)
        return false;
    /* an edge function is affine: its largest value on the rectangle is at a corner */
    int64_t rx0 = (int64_t)x0 * SUB, ry0 = (int64_t)y0 * SUB;
    int64_t rx1 = (int64_t)x1 * SUB, ry1 = (int64_t)y1 * SUB;
    for (unsigned e = 0; e < s->nedges; e++) {
        int64_t x = s->edge_a[e] > 0 ? rx1 : rx0, y = s->edge_b[e] > 0 ? ry1 : ry0;
        if (s->edge_a[e] * x + s->edge_b[e] * y + s->edge_c[e] < 0)
            return false;
    }
    return true;
}

void gfx_raster_walk(const struct gfx_raster_setup *s, int x0, int y0, int x1, int y1,
                     gfx_quad_fn fn, void *ctx, struct gfx_raster_stats *stats)
{
    const struct gfx_raster_state *st = s->st;
    int xlo = x0 > s->bbox_x0 ? x0 : s->bbox_x0, xhi = x1 < s->bbox_x1 ? x1 : s->bbox_x1;
    int ylo = y0 > s->bbox_y0 ? y0 : s->bbox_y0, yhi = y1 < s->bbox_y1 ? y1 : s->bbox_y1;
    if (xlo >= xhi || ylo >= yhi)
        return;
    const unsigned ns = gfx_raster_samples_ok(st->samples) ? st->samples : 1, ne = s->nedges;
    /* edge offsets of each pixel's samples from the quad's corner, with the fill-rule bias */
    int64_t off[4][4 * GFX_MAX_SAMPLES];
    int spx[GFX_MAX_SAMPLES], spy[GFX_MAX_SAMPLES];
    for (unsigned i = 0; i < ns; i++)
        gfx_raster_sample_pos(ns, i, &spx[i], &spy[i]);
    for (unsigned e = 0; e < ne; e++) {
        for (unsigned p = 0; p < 4; p++) {
            int64_t px = (int64_t)(p & 1) * SUB, py = (int64_t)(p >> 1) * SUB;
            for (unsigned i = 0; i < ns; i++)
                off[e][p * ns + i] = s->edge_a[e] * (px + spx[i]) + s->edge_b[e] * (py + spy[i]) +
                                     s->edge_bias[e];
        }
    }
    /* a quad is empty if some edge is negative at all of its samples */
    int64_t maxoff[4];
    for (unsigned e = 0; e < ne; e++) {
        maxoff[e] = off[e][0];
        for (unsigned i = 1; i < 4 * ns; i++)
            maxoff[e] = off[e][i] > maxoff[e] ? off[e][i] : maxoff[e];
    }
    const int qx0 = xlo & ~1, qy0 = ylo & ~1;
    int64_t row[4], stepx[4], stepy[4];
    for (unsigned e = 0; e < ne; e++) {
        row[e] = s->edge_a[e] * ((int64_t)qx0 * SUB) + s->edge_b[e] * ((int64_t)qy0 * SUB) + s->edge_c[e];
        stepx[e] = s->edge_a[e] * 2 * SUB;
        stepy[e] = s->edge_b[e] * 2 * SUB;
    }
    /* every quad of a walk writes the same fields: those it leaves (samples 1-3 at 1x, the
     * per-sample weights without sample_bary) stay zero */
    struct gfx_quad q;
    memset(&q, 0, sizeof(q));
    for (int qy = qy0; qy < yhi; qy += 2) {
        int64_t E[4];
        for (unsigned e = 0; e < ne; e++)
            E[e] = row[e];
        unsigned ymask = (qy >= ylo ? 0x3u : 0) | (qy + 1 < yhi ? 0xcu : 0);
        for (int qx = qx0; qx < xhi; qx += 2) {
            unsigned allowed = ymask & ((qx >= xlo ? 0x5u : 0) | (qx + 1 < xhi ? 0xau : 0));
            uint64_t cov = 0;
            for (unsigned e = 0; e < ne; e++)
                if (E[e] + maxoff[e] < 0)
                    allowed = 0;
            for (unsigned p = 0; p < 4 && allowed; p++) {
                if (!(allowed & (1u << p)))
                    continue;
                for (unsigned i = 0; i < ns; i++) {
                    unsigned idx = p * ns + i;
                    bool in = true;
                    for (unsigned e = 0; e < ne; e++)
                        in &= E[e] + off[e][idx] >= 0;
                    cov |= (uint64_t)in << (p * GFX_MAX_SAMPLES + i);
                }
            }
            if (cov) {
                q.x = qx;
                q.y = qy;
                q.coverage = cov;
                q.front_facing = s->front_facing;
                q.pixel_mask = 0;
                for (unsigned p = 0; p < 4; p++) {
                    if (gfx_quad_pixel_coverage(&q, p))
                        q.pixel_mask |= (uint8_t)(1u << p);
                    double cxp = qx + (p & 1) + 0.5, cyp = qy + (p >> 1) + 0.5;
                    double l[3];
                    weights_at(s, cxp, cyp, l);
                    q.depth_centre[p] = depth_of(s, l);
                    q.rw[p] = (float)original_weights(s, l, q.bary[p], q.bary_lin[p]);
                    if (s->kind == GFX_PRIM_POINT) {
                        double ps = (cxp - s->point_x0) * s->point_inv_size;
                        double pt = (cyp - s->point_y0) * s->point_inv_size;
                        q.point_coord[p][0] = (float)ps;
                        q.point_coord[p][1] = (float)(st->point_origin_lower ? 1 - pt : pt);
                    } else {
                        q.point_coord[p][0] = q.point_coord[p][1] = 0;
                    }
                    for (unsigned i = 0; i < ns; i++) {
                        double ls[3];
                        if (ns > 1) {
                            weights_at(s, qx + (p & 1) + spx[i] / (double)SUB,
                                       qy + (p >> 1) + spy[i] / (double)SUB, ls);
                        } else {
                            memcpy(ls, l, sizeof(ls));
                        }
                        q.depth[p][i] = depth_of(s, ls);
                        if (st->sample_bary)
                            original_weights(s, ls, q.sample_bary[p][i], q.sample_bary_lin[p][i]);
                    }
                }
                if (stats) {
                    stats->quads++;
                    stats->pixels += (unsigned)__builtin_popcount(q.pixel_mask);
                    stats->helpers += 4 - (unsigned)__builtin_popcount(q.pixel_mask);
                }
                fn(ctx, &q);
            }
            for (unsigned e = 0; e < ne; e++)
                E[e] += stepx[e];
        }
        for (unsigned e = 0; e < ne; e++)
            row[e] += stepy[e];
    }
}
