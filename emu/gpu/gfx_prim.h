/* Primitive assembly for graphics draws: turns a draw's mode, index stream, restart rule and
 * provoking-vertex convention into points, lines and triangles of vertex indices, in GL order.
 * Host-side and descriptor-free: the job front ends decode the Primitive descriptor and call it.
 * The enum values are Mali's (genxml "Draw Mode", "Index Type", "Primitive Restart"), so the
 * front end passes the descriptor's fields unchanged. */
#ifndef MALIBU_GFX_PRIM_H
#define MALIBU_GFX_PRIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum gfx_draw_mode {
    GFX_DRAW_NONE = 0,
    GFX_DRAW_POINTS = 1,
    GFX_DRAW_LINES = 2,
    GFX_DRAW_LINE_STRIP = 4,
    GFX_DRAW_LINE_LOOP = 6,
    GFX_DRAW_TRIANGLES = 8,
    GFX_DRAW_TRIANGLE_STRIP = 10,
    GFX_DRAW_TRIANGLE_FAN = 12,
    GFX_DRAW_POLYGON = 13,
    GFX_DRAW_QUADS = 14,
    GFX_DRAW_QUAD_STRIP = 15,
};

enum gfx_index_type {
    GFX_INDEX_NONE = 0,     /* sequential: base, base + 1, ... */
    GFX_INDEX_U8 = 1,
    GFX_INDEX_U16 = 2,
    GFX_INDEX_U32 = 3,
};

enum gfx_restart {
    GFX_RESTART_NONE = 0,
    GFX_RESTART_IMPLICIT = 2,   /* the all-ones index of the index type (GLES 3's fixed index) */
    GFX_RESTART_EXPLICIT = 3,   /* restart_index */
};

struct gfx_prim_input {
    enum gfx_draw_mode mode;
    enum gfx_index_type index_type;
    const void *indices;        /* little-endian, index_bytes long (unused for GFX_INDEX_NONE) */
    size_t index_bytes;
    uint32_t count;             /* vertices (or indices) in the draw */
    int32_t base;               /* added to each index (base vertex); the first vertex if not indexed */
    enum gfx_restart restart;
    uint32_t restart_index;
    bool first_provoking;       /* provoking vertex: first (GL's FIRST_VERTEX_CONVENTION) or last */
};

/* One primitive.  v[] holds nverts vertex indices (index + base, modulo 2^32) in the order that
 * gives the primitive its GL winding: odd strip triangles are swapped, quads and polygons are
 * split into triangles that keep the winding of the original.  provoking is the vertex index
 * whose flat varyings the primitive takes.  id counts GL primitives of the draw (gl_PrimitiveID:
 * both halves of a quad share one), and keeps counting across restarts. */
struct gfx_prim {
    uint32_t v[3];
    uint32_t provoking;
    uint32_t id;
    uint8_t nverts;             /* 1, 2 or 3 */
};

/* Called for each primitive in order; returning false stops the assembly. */
typedef bool (*gfx_prim_fn)(void *ctx, const struct gfx_prim *p);

/* Vertices per primitive of a mode (1, 2, 3), or 0 for a mode that is not one of the above. */
unsigned gfx_prim_mode_verts(enum gfx_draw_mode mode);

/* Emits the draw's primitives.  Returns the number emitted (>= 0), or -1 if the input is
 * invalid: an unknown mode or index type, or an index stream shorter than count indices (a
 * guest error: the caller faults the job). */
long gfx_prim_assemble(const struct gfx_prim_input *in, gfx_prim_fn fn, void *ctx);

#endif
