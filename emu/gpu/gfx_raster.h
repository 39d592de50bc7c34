/* Triangle, line and point setup and rasterization by GL ES 3.2's rules, for the fragment
 * front end: host-side, no Mali descriptor knowledge.
 *
 * Coordinates are window coordinates in pixels, x to the right and y down the rows of the
 * framebuffer (row 0 first in memory); pixel (x, y) has its centre at (x + 0.5, y + 0.5).
 * Vertex positions are snapped to 1/256 pixel (GFX_SUBPIXEL_BITS) and the edge functions are
 * exact 64-bit integers, so two triangles sharing an edge cover each sample exactly once.
 * Fill rule: a sample on an edge belongs to the triangle if the edge is a top edge (horizontal,
 * with the triangle below it, larger y) or a left edge (the triangle to its right).
 *
 * A primitive is set up once (gfx_raster_setup_*: culling, bounding box, depth plane), then
 * walked for any window of the framebuffer (a 16x16 tile) by gfx_raster_walk, which hands the
 * covered 2x2 quads to a callback.  Each vertex carries the weights of the draw's ORIGINAL
 * vertices (gfx_clip makes them), so the barycentrics a quad reports are those of the original
 * primitive, from which the caller interpolates varyings. */
#ifndef MALIBU_GFX_RASTER_H
#define MALIBU_GFX_RASTER_H

#include <stdbool.h>
#include <stdint.h>

#define GFX_SUBPIXEL_BITS 8
#define GFX_MAX_SAMPLES 16
/* Window coordinates the rasterizer accepts (|x|, |y| <= this, in pixels): gfx_clip clips to
 * it (a guard band), and the 64-bit edge functions cannot overflow inside it. */
#define GFX_GUARD_BAND 32768.0

/* A vertex ready for setup: window position, depth and 1/w_clip (rw > 0), and its weights of
 * the original primitive's vertices: persp[] in clip space (for perspective-correct varyings),
 * lin[] in window space (for noperspective ones).  An unclipped vertex i has persp = lin = e_i. */
struct gfx_rvertex {
    float x, y, z, rw;
    float persp[3];
    float lin[3];
};

enum gfx_cull { GFX_CULL_NONE, GFX_CULL_FRONT, GFX_CULL_BACK, GFX_CULL_BOTH };

struct gfx_raster_state {
    unsigned samples;           /* 1, 4, 8 or 16 (gfx_raster_sample_pos's patterns) */
    /* facing: GL's signed area a = sum(x_i * y_i+1 - x_i+1 * y_i) / 2 of the window coordinates
     * as given; a > 0 is counter-clockwise */
    bool front_ccw;             /* front faces are the counter-clockwise ones */
    enum gfx_cull cull;
    int scissor_x0, scissor_y0, scissor_x1, scissor_y1;     /* pixels [x0, x1) x [y0, y1) */
    /* depth: clamped to [zmin, zmax] after interpolation and offset (the depth range with
     * depth clamp on, [0, 1] otherwise) */
    float zmin, zmax;
    /* polygon offset (triangles only): factor * max(|dz/dx|, |dz/dy|) + units * r, where r is
     * depth_r for a fixed-point depth buffer, or 2^(e - 23) with e the exponent of the
     * triangle's largest |z| for a float one (depth_float). clamp != 0 limits the offset's
     * magnitude (EXT_polygon_offset_clamp). */
    bool offset_enable, depth_float;
    float offset_factor, offset_units, offset_clamp, depth_r;
    bool point_origin_lower;    /* gl_PointCoord t = 0 at the point's bottom (larger y) */
    bool sample_bary;           /* also compute barycentrics at each sample */
};

/* A 2x2 quad of pixels: pixel p = dy * 2 + dx covers (x + dx, y + dy).  Coverage bit
 * p * GFX_MAX_SAMPLES + s is set if sample s of pixel p is covered (s = 0 when single-sampled;
 * gfx_quad_pixel_coverage gives a pixel's bits);
 * a pixel with no bit set is a helper pixel (runs for derivatives, writes nothing).  Values of
 * helper pixels are computed too (extrapolated on the primitive's plane).  Entries a quad does
 * not use (samples beyond the count, per-sample weights without sample_bary, point_coord
 * of triangles and lines) are zero. */
struct gfx_quad {
    int x, y;
    uint64_t coverage;
    uint8_t pixel_mask;         /* bit p: pixel p has any sample covered */
    bool front_facing;
    float depth[4][GFX_MAX_SAMPLES];    /* window depth at each sample (at the centre if 1x) */
    float depth_centre[4];              /* at the pixel centre (gl_FragCoord.z) */
    float rw[4];                        /* 1/w_clip at the pixel centre (gl_FragCoord.w) */
    float bary[4][3];                   /* perspective-correct weights of the original vertices */
    float bary_lin[4][3];               /* noperspective (window-linear) weights */
    float sample_bary[4][GFX_MAX_SAMPLES][3];       /* with sample_bary: perspective, per sample */
    float sample_bary_lin[4][GFX_MAX_SAMPLES][3];
    float point_coord[4][2];            /* points: gl_PointCoord at the pixel centre */
};

/* The samples of pixel p a quad covers, bit s for sample s */
static inline unsigned gfx_quad_pixel_coverage(const struct gfx_quad *q, unsigned p)
{
    return (unsigned)(q->coverage >> (p * GFX_MAX_SAMPLES)) & ((1u << GFX_MAX_SAMPLES) - 1);
}

typedef void (*gfx_quad_fn)(void *ctx, const struct gfx_quad *q);

enum gfx_prim_kind { GFX_PRIM_TRIANGLE, GFX_PRIM_LINE, GFX_PRIM_POINT };

/* A set-up primitive: up to 4 edges of a convex polygon in 1/256 pixel. */
struct gfx_raster_setup {
    const struct gfx_raster_state *st;
    enum gfx_prim_kind kind;
    bool front_facing;
    unsigned nedges;
    int64_t edge_a[4], edge_b[4], edge_c[4];    /* E(px, py) = a * px + b * py + c, px, py in 1/256 */
    int64_t edge_bias[4];                        /* 0 for top-left edges, -1 otherwise: covered if E + bias >= 0 */
    int bbox_x0, bbox_y0, bbox_x1, bbox_y1;      /* pixels [x0, x1) x [y0, y1), inside the scissor */
    /* interpolation: triangles' window barycentrics l_k = pa[k] (x - px[k]) + pb[k] (y - py[k])
     * come from the vertices as given (not snapped: snapping moves a clipped vertex far from the
     * screen by up to 1/512 pixel, which perspective turns into visible varying errors); lines
     * use t along the segment; points are constant */
    double pa[3], pb[3], px[3], py[3];
    double line_ox, line_oy, line_dx, line_dy;   /* t = ((p - o) . d), d = (b - a) / |b - a|^2 */
    double point_x0, point_y0, point_inv_size;
    float z[3], rw[3];
    float persp[3][3], lin[3][3];
    double z_offset;
};

struct gfx_raster_stats {
    uint64_t prims;             /* primitives set up */
    uint64_t culled_face;       /* triangles culled by facing */
    uint64_t culled_empty;      /* zero area, outside the scissor, or not finite */
    uint64_t quads;             /* quads handed to the callback */
    uint64_t pixels;            /* covered pixels */
    uint64_t helpers;           /* helper pixels in those quads */
};

/* Mali's sample positions for the pattern panfrost selects for each count (pan_sample_pattern:
 * 1 single-sampled, 4 rotated 4x grid, 8 D3D 8x grid, 16 D3D 16x grid; positions as Mesa's
 * pan_samples.c gives them), in 1/256 pixel from the pixel's top-left corner; the single-sampled
 * pattern's only sample is the centre.  A count or index outside those gives the centre. */
void gfx_raster_sample_pos(unsigned samples, unsigned s, int *x, int *y);
/* Whether the rasterizer has a pattern for `samples` per pixel */
bool gfx_raster_samples_ok(unsigned samples);

/* Set-up: false if the primitive covers nothing (culled: counted in stats, may be NULL). */
bool gfx_raster_setup_triangle(const struct gfx_raster_state *st, const struct gfx_rvertex v[3],
                               struct gfx_raster_setup *out, struct gfx_raster_stats *stats);
/* A line of the given width.  Single-sampled: GL's non-antialiased wide-line rule (the
 * parallelogram made by moving the segment width/2 either way along its minor axis), for width
 * 1 as well.  Multisampled: GL's multisample rule, the width x length rectangle centred on it. */
bool gfx_raster_setup_line(const struct gfx_raster_state *st, const struct gfx_rvertex v[2],
                           float width, struct gfx_raster_setup *out, struct gfx_raster_stats *stats);
/* A point: the size x size square centred on the vertex. */
bool gfx_raster_setup_point(const struct gfx_raster_state *st, const struct gfx_rvertex *v,
                            float size, struct gfx_raster_setup *out, struct gfx_raster_stats *stats);

/* Whether the primitive may cover a sample of pixels [x0, x1) x [y0, y1): false only if it
 * covers none (for binning: a thin diagonal triangle's bounding box spans many tiles it misses). */
bool gfx_raster_touches(const struct gfx_raster_setup *s, int x0, int y0, int x1, int y1);

/* Values of the primitive at any window position (pixels; x + 0.5 is a pixel's centre), for
 * centroid and explicit-offset interpolation: perspective-correct and window-linear weights of
 * the original vertices, depth (with offset, clamped) and 1/w, as a quad reports them. */
void gfx_raster_interp_at(const struct gfx_raster_setup *s, double x, double y, float persp[3], float lin[3],
                          float *z, float *rw);

/* Rasterizes the part of a set-up primitive inside pixels [x0, x1) x [y0, y1) (x0, y0 even),
 * quad by quad, rows top to bottom, left to right. */
void gfx_raster_walk(const struct gfx_raster_setup *s, int x0, int y0, int x1, int y1,
                     gfx_quad_fn fn, void *ctx, struct gfx_raster_stats *stats);

#endif
