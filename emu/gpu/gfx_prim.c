/* Primitive assembly (see gfx_prim.h).  The stream is cut into runs at restart indices; each run
 * is assembled on its own with a few vertices of history, so memory does not grow with the draw. */
#include "gfx_prim.h"

#include <string.h>

unsigned gfx_prim_mode_verts(enum gfx_draw_mode mode)
{
    switch (mode) {
    case GFX_DRAW_POINTS:
        return 1;
    case GFX_DRAW_LINES:
    case GFX_DRAW_LINE_STRIP:
    case GFX_DRAW_LINE_LOOP:
        return 2;
    case GFX_DRAW_TRIANGLES:
    case GFX_DRAW_TRIANGLE_STRIP:
    case GFX_DRAW_TRIANGLE_FAN:
    case GFX_DRAW_POLYGON:
    case GFX_DRAW_QUADS:
    case GFX_DRAW_QUAD_STRIP:
        return 3;
    default:
        return 0;
    }
}

/* Assembly state of one draw. */
typedef struct {
    const struct gfx_prim_input *in;
    gfx_prim_fn fn;
    void *ctx;
    long emitted;
    uint32_t id;            /* next GL primitive id */
    bool stopped;
    /* the current run */
    uint64_t k;             /* vertices seen in the run */
    uint32_t first;         /* the run's first vertex */
    uint32_t hist[3];       /* hist[0] = previous vertex, hist[1] the one before, ... */
    bool polygon_open;      /* a polygon run emitted a triangle under the current id */
} assembler;

static void emit(assembler *a, unsigned n, uint32_t v0, uint32_t v1, uint32_t v2,
                 uint32_t provoking, uint32_t id)
{
    if (a->stopped)
        return;
    struct gfx_prim p = { .v = { v0, v1, v2 }, .provoking = provoking, .id = id, .nverts = (uint8_t)n };
    if (n < 3)
        p.v[2] = 0;
    if (n < 2)
        p.v[1] = 0;
    a->emitted++;
    if (!a->fn(a->ctx, &p))
        a->stopped = true;
}

static void end_run(assembler *a)
{
    const bool first = a->in->first_provoking;
    if (a->in->mode == GFX_DRAW_LINE_LOOP && a->k >= 2) {
        uint32_t last = a->hist[0];
        emit(a, 2, last, a->first, 0, first ? last : a->first, a->id++);
    }
    if (a->polygon_open)
        a->id++;
    a->polygon_open = false;
    a->k = 0;
}

static void add_vertex(assembler *a, uint32_t v)
{
    const bool first = a->in->first_provoking;
    const uint64_t k = a->k;
    const uint32_t p1 = a->hist[0], p2 = a->hist[1], p3 = a->hist[2];
    if (k == 0)
        a->first = v;
    switch (a->in->mode) {
    case GFX_DRAW_POINTS:
        emit(a, 1, v, 0, 0, v, a->id++);
        break;
    case GFX_DRAW_LINES:
        if (k & 1)
            emit(a, 2, p1, v, 0, first ? p1 : v, a->id++);
        break;
    case GFX_DRAW_LINE_STRIP:
    case GFX_DRAW_LINE_LOOP:
        if (k >= 1)
            emit(a, 2, p1, v, 0, first ? p1 : v, a->id++);
        break;
    case GFX_DRAW_TRIANGLES:
        if (k % 3 == 2)
            emit(a, 3, p2, p1, v, first ? p2 : v, a->id++);
        break;
    case GFX_DRAW_TRIANGLE_STRIP:
        /* GL: triangle j is (j, j+1, j+2) when j is even, (j+1, j, j+2) when odd */
        if (k >= 2) {
            if ((k - 2) & 1)
                emit(a, 3, p1, p2, v, first ? p2 : v, a->id++);
            else
                emit(a, 3, p2, p1, v, first ? p2 : v, a->id++);
        }
        break;
    case GFX_DRAW_TRIANGLE_FAN:
        /* GL: triangle j is (0, j+1, j+2); provoking j+1 (first) or j+2 (last) */
        if (k >= 2)
            emit(a, 3, a->first, p1, v, first ? p1 : v, a->id++);
        break;
    case GFX_DRAW_POLYGON:
        /* one GL primitive per run, fanned from its first vertex, which provokes either way */
        if (k >= 2) {
            emit(a, 3, a->first, p1, v, a->first, a->id);
            a->polygon_open = true;
        }
        break;
    case GFX_DRAW_QUADS:
        /* quad (q0, q1, q2, q3) -> (q0, q1, q2), (q0, q2, q3); provoking q0 or q3 */
        if (k % 4 == 3) {
            uint32_t prov = first ? p3 : v;
            emit(a, 3, p3, p2, p1, prov, a->id);
            emit(a, 3, p3, p1, v, prov, a->id);
            a->id++;
        }
        break;
    case GFX_DRAW_QUAD_STRIP:
        /* quad i is (2i, 2i+1, 2i+3, 2i+2) around its boundary; provoking 2i or 2i+3 */
        if (k >= 3 && (k & 1)) {
            uint32_t prov = first ? p3 : v;
            emit(a, 3, p3, p2, v, prov, a->id);
            emit(a, 3, p3, v, p1, prov, a->id);
            a->id++;
        }
        break;
    default:
        break;
    }
    a->hist[2] = p2;
    a->hist[1] = p1;
    a->hist[0] = v;
    a->k = k + 1;
}

static uint32_t read_index(const uint8_t *p, unsigned size)
{
    switch (size) {
    case 1:
        return p[0];
    case 2:
        return (uint32_t)p[0] | (uint32_t)p[1] << 8;
    default:
        return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
}

long gfx_prim_assemble(const struct gfx_prim_input *in, gfx_prim_fn fn, void *ctx)
{
    if (!gfx_prim_mode_verts(in->mode))
        return -1;
    unsigned size;
    switch (in->index_type) {
    case GFX_INDEX_NONE: size = 0; break;
    case GFX_INDEX_U8: size = 1; break;
    case GFX_INDEX_U16: size = 2; break;
    case GFX_INDEX_U32: size = 4; break;
    default: return -1;
    }
    if (size && (!in->indices || (uint64_t)in->count * size > in->index_bytes))
        return -1;

    bool restart = size && in->restart != GFX_RESTART_NONE;
    uint32_t restart_index = in->restart == GFX_RESTART_IMPLICIT
                                 ? (size == 4 ? 0xffffffffu : (1u << (8 * size)) - 1)
                                 : in->restart_index;
    assembler a;
    memset(&a, 0, sizeof(a));
    a.in = in;
    a.fn = fn;
    a.ctx = ctx;
    const uint8_t *idx = in->indices;
    for (uint32_t i = 0; i < in->count && !a.stopped; i++) {
        uint32_t raw = size ? read_index(idx + (size_t)i * size, size) : i;
        if (restart && raw == restart_index) {
            end_run(&a);
            continue;
        }
        add_vertex(&a, raw + (uint32_t)in->base);
    }
    end_run(&a);
    return a.emitted;
}
