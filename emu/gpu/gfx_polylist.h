/* malibu's polygon list: what the tiler jobs of a frame leave in the tiler heap for its fragment
 * job.  The hardware's format is GPU-private (software only sizes the heap and zeroes the tiler
 * context's State words), so this one is malibu's own: all records little-endian in the heap,
 * 8-byte aligned.
 *
 *   Tiler Context State words (context + 128): gfx_pl_state, zero until the first tiler job of
 *     the frame claims the heap from its Bottom.
 *   Per draw (IDVS or TILER job), appended at the heap's write pointer: a gfx_pl_draw, its
 *     primitives (gfx_pl_prim), one bin per 16x16 tile of its tile box (row by row: first entry,
 *     count) and the bins' entries (primitive numbers, in draw order).
 * The fragment job follows the list from the state's first draw, and for each tile reads every
 * draw whose box holds it, in order. */
#ifndef MALIBU_GPU_GFX_POLYLIST_H
#define MALIBU_GPU_GFX_POLYLIST_H

#include <stdint.h>

#define GFX_PL_STATE_OFFSET 128u          /* Tiler Context's State words */
#define GFX_PL_STATE_MAGIC 0x5453424du    /* "MBST" */
#define GFX_PL_DRAW_MAGIC 0x5244424du     /* "MBDR" */

typedef struct gfx_pl_state {
    uint32_t magic, ndraws;
    uint64_t write;                       /* next free heap byte */
    uint64_t first, last;                 /* draw records */
} gfx_pl_state;

/* primitive kinds */
enum { GFX_PL_TRIANGLES = 0, GFX_PL_LINES = 1, GFX_PL_POINTS = 2 };

typedef struct gfx_pl_draw {
    uint32_t magic, nprims;
    uint64_t next;                        /* the next draw, 0: last */
    uint64_t job;                         /* its job: the fragment DCD is job + 128 */
    uint16_t tx0, ty0, tx1, ty1;          /* tile box (inclusive); empty when tx0 > tx1 */
    uint32_t kind;                        /* GFX_PL_* */
    float line_width;                     /* lines: width; points: fixed size (0: per vertex) */
    uint64_t psize;                       /* points: the per-vertex fp16 size array (0: fixed) */
    uint64_t prims, bins, entries;        /* heap addresses of the arrays */
} gfx_pl_draw;

/* flags of a primitive */
#define GFX_PL_BACK 1u                    /* back-facing (triangles) */
#define GFX_PL_CLIP 2u                    /* crosses w = 0 or the depth range: clip before raster */

typedef struct gfx_pl_prim {
    uint32_t v[3];                        /* position / varying slots (vertex + instance * size) */
    uint32_t flags;                       /* GFX_PL_* */
    uint32_t provoking;                   /* index (0-2) of the provoking vertex in v */
    uint32_t id;                          /* gl_PrimitiveID */
} gfx_pl_prim;

typedef struct gfx_pl_bin {
    uint32_t first, count;
} gfx_pl_bin;

#endif
