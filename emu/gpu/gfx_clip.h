/* Clipping of triangles, lines and points for the geometry front end, in homogeneous window
 * coordinates.  The position shader writes (xs, ys, zs, rw): window x, y and depth (viewport
 * already applied) and rw = 1/w_clip with w's sign (Mesa's nir_lower_viewport_transform).  The
 * homogeneous point (xs/rw, ys/rw, zs/rw, 1/rw) is an affine image of the clip-space position,
 * so clipping it against a plane equals clipping in clip space.
 *
 * Planes: w >= GFX_CLIP_W_MIN (the near plane in w, so that rw stays finite and positive),
 * zmin <= z <= zmax (the depth range; off with depth clamp, where the rasterizer clamps
 * instead), and the guard band |x|, |y| <= GFX_GUARD_BAND - 1 (not the viewport: the
 * rasterizer bounds primitives to the scissor; the guard band only keeps fixed point exact).
 * Output vertices carry the weights of the ORIGINAL vertices, so the caller interpolates
 * varyings from the original vertices. */
#ifndef MALIBU_GFX_CLIP_H
#define MALIBU_GFX_CLIP_H

#include <stdbool.h>
#include <stdint.h>

#include "gfx_raster.h"

#define GFX_CLIP_W_MIN (1.0 / (1 << 20))
/* 3 vertices + one per plane */
#define GFX_CLIP_MAX_VERTS 10

struct gfx_clip_vertex {
    float x, y, z, rw;
};

struct gfx_clip_params {
    bool depth_clip;            /* clip to zmin <= z <= zmax (false: depth clamp) */
    float zmin, zmax;           /* window depth range: min and max of the viewport's near, far */
    /* GL ES discards a point whose centre is outside the viewport (not only the clip volume's
     * w and z): with point_box, a point outside [x0, x1] x [y0, y1] is clipped */
    bool point_box;
    float point_x0, point_y0, point_x1, point_y1;
};

struct gfx_clip_stats {
    uint64_t prims;             /* primitives in */
    uint64_t clipped;           /* partly outside: new vertices made */
    uint64_t culled;            /* wholly outside, degenerate after clipping, or not finite */
};

enum gfx_clip_result { GFX_CLIP_CULLED, GFX_CLIP_INSIDE, GFX_CLIP_CLIPPED };

/* A triangle -> a convex polygon of *n vertices (3 if INSIDE) in the triangle's winding; the
 * caller fans it from out[0] into (out[0], out[k], out[k + 1]). */
enum gfx_clip_result gfx_clip_triangle(const struct gfx_clip_params *p, const struct gfx_clip_vertex in[3],
                                       struct gfx_rvertex out[GFX_CLIP_MAX_VERTS], unsigned *n,
                                       struct gfx_clip_stats *stats);
/* A line -> its visible part (weights of the 2 original vertices in persp[0..1], lin[0..1]). */
enum gfx_clip_result gfx_clip_line(const struct gfx_clip_params *p, const struct gfx_clip_vertex in[2],
                                   struct gfx_rvertex out[2], struct gfx_clip_stats *stats);
/* A point is kept whole or culled, by its centre. */
enum gfx_clip_result gfx_clip_point(const struct gfx_clip_params *p, const struct gfx_clip_vertex *in,
                                    struct gfx_rvertex *out, struct gfx_clip_stats *stats);

/* The window-space box [box[0], box[2]] x [box[1], box[3]] of what remains of a primitive of
 * nverts (1-3) vertices after clipping it with p (the tiler bins a primitive that crosses w = 0
 * by the part the rasterizer will draw, clipped alike); false when nothing remains. */
bool gfx_clip_bounds(const struct gfx_clip_params *p, const struct gfx_clip_vertex *in, unsigned nverts,
                     float box[4]);

#endif
