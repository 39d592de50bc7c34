/* Clipping (see gfx_clip.h): Sutherland-Hodgman for triangles, parametric for lines, in double
 * precision on homogeneous window coordinates carried together with the original vertices'
 * weights. */
#include "gfx_clip.h"

#include <math.h>
#include <string.h>

#define NPLANES 7
#define GUARD (GFX_GUARD_BAND - 1)

#define COUNT(stats, field)                                                                        \
    do {                                                                                           \
        if (stats)                                                                                 \
            (stats)->field++;                                                                      \
    } while (0)

/* A vertex during clipping: homogeneous position and weights of the original vertices. */
typedef struct {
    double h[4];        /* X, Y, Z, W */
    double b[3];
} hvertex;

/* False for a vertex with a non-finite coordinate or rw = 0 or infinite (w infinite or 0: the
 * position is lost), which culls its primitive. */
static bool to_homogeneous(const struct gfx_clip_vertex *v, unsigned k, hvertex *out)
{
    if (!isfinite(v->rw) || v->rw == 0)
        return false;
    double w = 1.0 / (double)v->rw;
    out->h[0] = v->x * w;
    out->h[1] = v->y * w;
    out->h[2] = v->z * w;
    out->h[3] = w;
    memset(out->b, 0, sizeof(out->b));
    out->b[k] = 1;
    for (unsigned i = 0; i < 4; i++)
        if (!isfinite(out->h[i]))
            return false;
    return true;
}

/* Signed distance of a vertex to plane i (>= 0 inside); planes the params switch off give 0. */
static double plane_dist(const struct gfx_clip_params *p, unsigned i, const double h[4])
{
    switch (i) {
    case 0: return h[3] - GFX_CLIP_W_MIN;
    case 1: return p->depth_clip ? h[2] - p->zmin * h[3] : 0;
    case 2: return p->depth_clip ? p->zmax * h[3] - h[2] : 0;
    case 3: return h[0] + GUARD * h[3];
    case 4: return GUARD * h[3] - h[0];
    case 5: return h[1] + GUARD * h[3];
    default: return GUARD * h[3] - h[1];
    }
}

static unsigned outcode(const struct gfx_clip_params *p, const double h[4])
{
    unsigned c = 0;
    for (unsigned i = 0; i < NPLANES; i++)
        c |= (unsigned)(plane_dist(p, i, h) < 0) << i;
    return c;
}

/* The point where the edge from an inside vertex to an outside one crosses the plane; always
 * computed from the inside vertex, so an edge shared by two triangles clips to the same point. */
static hvertex cross(const hvertex *in, const hvertex *out, double din, double dout)
{
    double t = din / (din - dout);
    hvertex r;
    for (unsigned i = 0; i < 4; i++)
        r.h[i] = in->h[i] + t * (out->h[i] - in->h[i]);
    for (unsigned i = 0; i < 3; i++)
        r.b[i] = in->b[i] + t * (out->b[i] - in->b[i]);
    return r;
}

/* Window vertex of a clipped vertex; W0..2 are the original vertices' w. */
static void to_window(const hvertex *v, const double W[3], struct gfx_rvertex *out)
{
    double w = v->h[3];
    out->x = (float)(v->h[0] / w);
    out->y = (float)(v->h[1] / w);
    out->z = (float)(v->h[2] / w);
    out->rw = (float)(1.0 / w);
    for (unsigned i = 0; i < 3; i++) {
        out->persp[i] = (float)v->b[i];
        out->lin[i] = (float)(v->b[i] * W[i] / w);
    }
}

static void unclipped(const struct gfx_clip_vertex *v, unsigned k, struct gfx_rvertex *out)
{
    out->x = v->x;
    out->y = v->y;
    out->z = v->z;
    out->rw = v->rw;
    memset(out->persp, 0, sizeof(out->persp));
    memset(out->lin, 0, sizeof(out->lin));
    out->persp[k] = out->lin[k] = 1;
}

enum gfx_clip_result gfx_clip_triangle(const struct gfx_clip_params *p, const struct gfx_clip_vertex in[3],
                                       struct gfx_rvertex out[GFX_CLIP_MAX_VERTS], unsigned *n,
                                       struct gfx_clip_stats *stats)
{
    COUNT(stats, prims);
    *n = 0;
    hvertex buf[2][GFX_CLIP_MAX_VERTS];
    unsigned codes[3];
    for (unsigned k = 0; k < 3; k++) {
        if (!to_homogeneous(&in[k], k, &buf[0][k])) {
            COUNT(stats, culled);
            return GFX_CLIP_CULLED;
        }
        codes[k] = outcode(p, buf[0][k].h);
    }
    if (codes[0] & codes[1] & codes[2]) {
        COUNT(stats, culled);
        return GFX_CLIP_CULLED;
    }
    if (!(codes[0] | codes[1] | codes[2])) {
        for (unsigned k = 0; k < 3; k++)
            unclipped(&in[k], k, &out[k]);
        *n = 3;
        return GFX_CLIP_INSIDE;
    }
    unsigned any = codes[0] | codes[1] | codes[2], cnt = 3, cur = 0;
    for (unsigned pl = 0; pl < NPLANES && cnt >= 3; pl++) {
        if (!(any & (1u << pl)))
            continue;
        hvertex *src = buf[cur], *dst = buf[cur ^ 1];
        unsigned m = 0;
        for (unsigned i = 0; i < cnt; i++) {
            const hvertex *a = &src[i], *b = &src[(i + 1) % cnt];
            double da = plane_dist(p, pl, a->h), db = plane_dist(p, pl, b->h);
            if (da >= 0)
                dst[m++] = *a;
            if ((da >= 0) != (db >= 0))
                dst[m++] = da >= 0 ? cross(a, b, da, db) : cross(b, a, db, da);
        }
        cnt = m;
        cur ^= 1;
    }
    if (cnt < 3) {
        COUNT(stats, culled);
        return GFX_CLIP_CULLED;
    }
    double W[3] = { 1.0 / in[0].rw, 1.0 / in[1].rw, 1.0 / in[2].rw };
    for (unsigned i = 0; i < cnt; i++)
        to_window(&buf[cur][i], W, &out[i]);
    *n = cnt;
    COUNT(stats, clipped);
    return GFX_CLIP_CLIPPED;
}

enum gfx_clip_result gfx_clip_line(const struct gfx_clip_params *p, const struct gfx_clip_vertex in[2],
                                   struct gfx_rvertex out[2], struct gfx_clip_stats *stats)
{
    COUNT(stats, prims);
    hvertex v[2];
    if (!to_homogeneous(&in[0], 0, &v[0]) || !to_homogeneous(&in[1], 1, &v[1])) {
        COUNT(stats, culled);
        return GFX_CLIP_CULLED;
    }
    unsigned c0 = outcode(p, v[0].h), c1 = outcode(p, v[1].h);
    if (c0 & c1) {
        COUNT(stats, culled);
        return GFX_CLIP_CULLED;
    }
    if (!(c0 | c1)) {
        unclipped(&in[0], 0, &out[0]);
        unclipped(&in[1], 1, &out[1]);
        return GFX_CLIP_INSIDE;
    }
    double t0 = 0, t1 = 1;
    for (unsigned pl = 0; pl < NPLANES; pl++) {
        double d0 = plane_dist(p, pl, v[0].h), d1 = plane_dist(p, pl, v[1].h);
        if (d0 < 0 && d1 < 0) {
            COUNT(stats, culled);
            return GFX_CLIP_CULLED;
        }
        if (d0 < 0)
            t0 = fmax(t0, d0 / (d0 - d1));
        else if (d1 < 0)
            t1 = fmin(t1, d0 / (d0 - d1));
    }
    if (!(t0 < t1)) {
        COUNT(stats, culled);
        return GFX_CLIP_CULLED;
    }
    double W[3] = { v[0].h[3], v[1].h[3], 0 };
    double ts[2] = { t0, t1 };
    for (unsigned k = 0; k < 2; k++) {
        hvertex r;
        double t = ts[k];
        for (unsigned i = 0; i < 4; i++)
            r.h[i] = v[0].h[i] + t * (v[1].h[i] - v[0].h[i]);
        r.b[0] = 1 - t;
        r.b[1] = t;
        r.b[2] = 0;
        to_window(&r, W, &out[k]);
    }
    COUNT(stats, clipped);
    return GFX_CLIP_CLIPPED;
}

enum gfx_clip_result gfx_clip_point(const struct gfx_clip_params *p, const struct gfx_clip_vertex *in,
                                    struct gfx_rvertex *out, struct gfx_clip_stats *stats)
{
    COUNT(stats, prims);
    hvertex v;
    if (!to_homogeneous(in, 0, &v) || outcode(p, v.h) ||
        (p->point_box && !(in->x >= p->point_x0 && in->x <= p->point_x1 && in->y >= p->point_y0 &&
                           in->y <= p->point_y1))) {
        COUNT(stats, culled);
        return GFX_CLIP_CULLED;
    }
    unclipped(in, 0, out);
    return GFX_CLIP_INSIDE;
}

bool gfx_clip_bounds(const struct gfx_clip_params *p, const struct gfx_clip_vertex *in, unsigned nverts,
                     float box[4])
{
    struct gfx_rvertex out[GFX_CLIP_MAX_VERTS];
    unsigned n = nverts;
    enum gfx_clip_result r = nverts == 3   ? gfx_clip_triangle(p, in, out, &n, NULL)
                             : nverts == 2 ? gfx_clip_line(p, in, out, NULL)
                                           : gfx_clip_point(p, in, out, NULL);
    if (r == GFX_CLIP_CULLED || n == 0)
        return false;
    box[0] = box[2] = out[0].x;
    box[1] = box[3] = out[0].y;
    for (unsigned i = 1; i < n; i++) {
        box[0] = fminf(box[0], out[i].x);
        box[1] = fminf(box[1], out[i].y);
        box[2] = fmaxf(box[2], out[i].x);
        box[3] = fmaxf(box[3], out[i].y);
    }
    return true;
}
