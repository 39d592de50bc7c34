/* Compute workgroups on the Bifrost executor (workgroup.h): warps, preloads, the round-robin
 * scheduler with barriers. */
#include "workgroup.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bifrost_exec_int.h"

typedef uint32_t v4u __attribute__((vector_size(16)));

static inline void put4(uint32_t *dst, v4u v) { memcpy(dst, &v, sizeof(v)); }
static inline v4u splat(uint32_t v) { return (v4u){ v, v, v, v }; }

/* The preloads of lane l, from scalars */
static inline void preload(bi_warp *w, unsigned l, uint32_t x, uint32_t y, uint32_t z, const uint32_t wg_id[3],
                           uint32_t gx, uint32_t gy, uint32_t gz)
{
    w->reg[55][l] = (x & 0xffff) | y << 16;
    w->reg[56][l] = z & 0xffff;
    w->reg[57][l] = wg_id[0];
    w->reg[58][l] = wg_id[1];
    w->reg[59][l] = wg_id[2];
    w->reg[60][l] = gx;
    w->reg[61][l] = gy;
    w->reg[62][l] = gz;
}

void bi_compute_preload(bi_warp *w, unsigned lane, const uint32_t local_id[3], const uint32_t wg_id[3],
                        const uint32_t global_id[3])
{
    preload(w, lane, local_id[0], local_id[1], local_id[2], wg_id, global_id[0], global_id[1], global_id[2]);
}

int bi_wg_warps_reserve(bi_wg_warps *ws, unsigned n)
{
    if (n <= ws->cap)
        return 0;
    bi_wg_warps_free(ws);            /* (dirty = 0: the new warps are zeroed) */
    ws->warps = calloc(n, sizeof(*ws->warps));
    ws->state = calloc(n, sizeof(*ws->state));
    ws->slot = calloc(n, sizeof(*ws->slot));
    ws->free = calloc(n, sizeof(*ws->free));
    ws->cap = ws->warps && ws->state && ws->slot && ws->free ? n : 0;
    return ws->cap ? 0 : -1;
}

void bi_wg_warps_free(bi_wg_warps *ws)
{
    free(ws->warps);
    free(ws->state);
    free(ws->slot);
    free(ws->free);
    memset(ws, 0, sizeof(*ws));
}

enum { NOT_STARTED, RUNNING, AT_BARRIER, DONE };

/* Registers the set-up writes: the compute preloads r55-r62 */
#define PRELOAD_ROWS (0xffull << 55)

/* bi_warp_init for a warp of ws: the same zeroes, but of the registers only the rows a workgroup
 * before may have written (a 2 KiB memset per warp was most of a small workgroup's set-up).  The
 * other fields are set one by one: a memset of their odd sizes is a slow rep stos.  Rows outside
 * `rows` are zero already, so the rows from its lowest to its highest are cleared in one run of
 * stores (no loop over the mask's bits). */
/* rows from the lowest to the highest of `rows` zeroed, of each only the warp's lanes (nothing
 * writes a 4-lane warp's lanes 4-7) */
static inline void clear_rows(bi_warp *w, unsigned lanes, uint64_t rows)
{
    if (!rows)
        return;
    unsigned lo = (unsigned)__builtin_ctzll(rows), hi = 63u - (unsigned)__builtin_clzll(rows);
    if (lanes == 8)
        memset(w->reg[lo], 0, (hi - lo + 1) * sizeof(w->reg[0]));
    else
        for (unsigned r = lo; r <= hi; r++)
            memset(w->reg[r], 0, 4 * sizeof(uint32_t));
}

_Static_assert(offsetof(bi_warp, in_blend) + sizeof(uint64_t) > sizeof(bi_warp) &&   /* in_blend last */
               offsetof(bi_warp, pc) == offsetof(bi_warp, reg) + sizeof(((bi_warp *)0)->reg) &&
               offsetof(bi_warp, resume) + sizeof(void *) == offsetof(bi_warp, reg) &&
               offsetof(bi_warp, reg) == 96,
               "warp_reset sets the fields around reg by name: add new ones there");
static void warp_reset(bi_warp *w, unsigned lanes, uint64_t rows, const bi_mem *mem, uint64_t tls_base,
                       uint64_t tls_stride)
{
    w->lanes = lanes;
    w->mem = mem;
    for (unsigned l = 0; l < BI_MAX_LANES; l++, tls_base += tls_stride)
        w->tls_base[l] = l < lanes ? tls_base : 0;
    w->barriers = 0;
    w->resume = NULL;
    clear_rows(w, lanes, rows & ((1ull << 55) - 1));        /* (r55-r62 are out of a whole warp's rows: */
    clear_rows(w, lanes, rows & ~((1ull << 55) - 1));       /*  no run of stores through them) */
    memset(w->pc, 0, sizeof(w->pc));
    memset(w->done, 0, sizeof(w->done));
    w->warp_id = w->core_id = 0;
    w->uniforms = NULL;
    w->nuniforms = 0;
    w->clauses_run = w->lanes_run = w->lane_instrs = w->tuples_run = 0;
    w->gfx_ctx = NULL;
    w->gfx_fau = NULL;
    w->blend_shader = 0;
    w->helper = 0;
    w->blend_rt = w->blend_lanes = w->blend_end = w->in_blend = 0;
}

/* The workgroup's warps live in slots of ws->warps, taken when a warp starts and given back when
 * it ends: warps that end within their first turn (no barrier, short shaders) reuse one slot,
 * whose registers stay in the host's L1 cache, instead of each warp touching its own 2 KiB. */
typedef struct {
    const bi_workgroup *wg;
    bi_program *p;
    bi_wg_warps *ws;
    unsigned lanes, nthreads;
    uint32_t base[3];                    /* global id of local id 0 */
    unsigned *free, nfree;               /* slots given back (most recent last: the warmest) */
    unsigned next_slot;                  /* slots taken so far from the storage */
    uint64_t old_dirty;                  /* rows the last workgroup may have left in its slots */
    unsigned old_dirty_warps;
    bi_wg_stats done;                    /* counters of the warps that ended */
} wg_run;

/* Warp k into a free slot: zeroed as bi_warp_init, its lanes preloaded; threads beyond the
 * workgroup's are done. */
static bi_warp *start_warp(wg_run *r, unsigned k)
{
    bi_wg_warps *ws = r->ws;
    const bi_workgroup *wg = r->wg;
    unsigned s;
    uint64_t rows;
    if (r->nfree) {
        s = r->free[--r->nfree];
        rows = bx_program_written(r->p) | PRELOAD_ROWS;       /* every row an earlier warp wrote */
    } else {
        s = r->next_slot++;
        rows = s < r->old_dirty_warps ? r->old_dirty : 0;
    }
    ws->slot[k] = s;
    bi_warp *w = &ws->warps[s];
    unsigned lanes = r->lanes, t = k * lanes;       /* the warp's first thread and its local id */
    uint32_t x = t % wg->local_size[0], y = t / wg->local_size[0] % wg->local_size[1],
             z = t / wg->local_size[0] / wg->local_size[1];
    int whole = !wg->vertex && t + lanes <= r->nthreads && x + lanes <= wg->local_size[0] && x + lanes <= 0x10000;
    /* (whole: every preload lane written) */
    warp_reset(w, lanes, whole ? rows & ~PRELOAD_ROWS : rows, wg->mem, wg->tls_base + (uint64_t)t * wg->tls_stride,
               wg->tls_stride);
    w->uniforms = wg->uniforms;
    w->nuniforms = wg->nuniforms;
    w->warp_id = k;
    w->core_id = wg->core_id;
    if (wg->vertex) {
        const bi_vertex_grid *v = wg->vertex;
        for (unsigned l = 0; l < lanes; l++, t++) {
            uint32_t vid = wg->wg_id[0] * wg->local_size[0] + t;
            if (t >= r->nthreads || vid >= v->count) {
                w->done[l] = 1;
                continue;
            }
            uint64_t pos = v->pos_base + 16 * (vid + (uint64_t)wg->wg_id[1] * v->instance_size);
            w->reg[58][l] = (uint32_t)pos;
            w->reg[59][l] = (uint32_t)(pos >> 32);
            w->reg[61][l] = vid;
            w->reg[62][l] = wg->wg_id[1];
        }
        return w;
    }
    if (whole) {
        /* every lane in one row of x: the preload rows as vectors, each stored whole (compiled
         * code loads a row as one vector, which waits out lane-sized stores still in flight) */
        for (unsigned h = 0; h < lanes; h += 4) {
            v4u lane = { h, h + 1, h + 2, h + 3 };
            put4(&w->reg[55][h], splat((x & 0xffff) | y << 16) + lane);     /* (x + lanes <= 0x10000) */
            put4(&w->reg[56][h], splat(z & 0xffff));
            put4(&w->reg[57][h], splat(wg->wg_id[0]));
            put4(&w->reg[58][h], splat(wg->wg_id[1]));
            put4(&w->reg[59][h], splat(wg->wg_id[2]));
            put4(&w->reg[60][h], splat(r->base[0] + x) + lane);
            put4(&w->reg[61][h], splat(r->base[1] + y));
            put4(&w->reg[62][h], splat(r->base[2] + z));
        }
        return w;
    }
    for (unsigned l = 0; l < lanes; l++, t++) {
        if (t >= r->nthreads) {
            w->done[l] = 1;
            continue;
        }
        /* r55-r62 are preloaded whatever the shader's preload bits say: a register the
         * descriptor does not name is undefined on entry, and compilers write such registers
         * before reading them, so a superset is safe */
        preload(w, l, x, y, z, wg->wg_id, r->base[0] + x, r->base[1] + y, r->base[2] + z);
        if (++x == wg->local_size[0]) {
            x = 0;
            if (++y == wg->local_size[1]) {
                y = 0;
                z++;
            }
        }
    }
    return w;
}

static void add_warp_stats(bi_wg_stats *st, const bi_warp *w)
{
    st->clauses += w->clauses_run;
    st->lane_clauses += w->lanes_run;
    st->lane_instrs += w->lane_instrs;
    st->barriers += w->barriers;
}

/* Round-robin turns until every warp is done, the budget runs out, a warp faults or the runner
 * asks to stop. */
static int schedule(wg_run *r, unsigned nwarps, bi_fault *f)
{
    const bi_workgroup *wg = r->wg;
    bi_wg_warps *ws = r->ws;
    int rc = BI_EXEC_END;
    unsigned budget = wg->max_clauses;
    for (;;) {
        unsigned running = 0, waiting = 0;
        for (unsigned k = 0; k < nwarps && rc == BI_EXEC_END; k++) {
            bi_warp *w;
            if (ws->state[k] == NOT_STARTED)
                w = start_warp(r, k);
            else if (ws->state[k] == RUNNING)
                w = &ws->warps[ws->slot[k]];
            else
                continue;
            ws->state[k] = RUNNING;
            unsigned turn = wg->turn_clauses ? wg->turn_clauses : UINT_MAX;
            bool by_budget = wg->max_clauses && budget <= turn;
            if (by_budget)
                turn = budget;
            uint64_t clauses = w->clauses_run, tuples = w->tuples_run;
            int rr = bi_exec_program(w, r->p, turn, f);
            clauses = w->clauses_run - clauses;
            if (wg->max_clauses)
                budget -= (unsigned)clauses;
            if (rr == BI_EXEC_BARRIER) {
                ws->state[k] = AT_BARRIER;
            } else if (rr == BI_EXEC_END) {
                ws->state[k] = DONE;
                add_warp_stats(&r->done, w);
                r->free[r->nfree++] = ws->slot[k];          /* (each warp ends once) */
            } else if (!(f && f->kind == BI_FAULT_CLAUSE_LIMIT && !by_budget)) {
                rc = rr;            /* (a warp at the end of its turn runs on next round) */
            }
            if (wg->turn_done && wg->turn_done(wg->ctx, clauses, w->tuples_run - tuples, rc < 0) && rc >= 0)
                rc = BI_EXEC_STOPPED;
        }
        if (rc != BI_EXEC_END)
            return rc;
        for (unsigned k = 0; k < nwarps; k++) {
            running += ws->state[k] == RUNNING;
            waiting += ws->state[k] == AT_BARRIER;
        }
        if (!running && !waiting)
            return BI_EXEC_END;
        if (!running)                 /* every live warp reached the barrier: release them */
            for (unsigned k = 0; k < nwarps; k++)
                if (ws->state[k] == AT_BARRIER)
                    ws->state[k] = RUNNING;
        if (wg->max_clauses && !budget)
            return bx_fault(f, BI_FAULT_CLAUSE_LIMIT, 0, "clause limit (%u) reached", wg->max_clauses);
    }
}

int bi_run_workgroup(const bi_workgroup *wg, bi_program *p, bi_wg_warps *ws, bi_wg_stats *stats, bi_fault *f)
{
    enum bi_arch arch = bi_program_arch(p);
    unsigned lanes = arch >= BI_ARCH_V7 ? 8 : 4;
    unsigned nthreads = wg->local_size[0] * wg->local_size[1] * wg->local_size[2];
    unsigned nwarps = (nthreads + lanes - 1) / lanes;
    bi_wg_warps own = { 0 };
    if (stats)
        memset(stats, 0, sizeof(*stats));
    if (!nthreads)
        return BI_EXEC_END;
    if (!ws)
        ws = &own;
    if (bi_wg_warps_reserve(ws, nwarps)) {
        bi_wg_warps_free(&own);
        return bx_fault(f, BI_FAULT_HOST, 0, "out of memory");
    }
    wg_run r = { .wg = wg, .p = p, .ws = ws, .lanes = lanes, .nthreads = nthreads, .free = ws->free,
                 .old_dirty = ws->dirty, .old_dirty_warps = ws->dirty_warps };
    for (unsigned i = 0; i < 3; i++)
        r.base[i] = wg->wg_id[i] * wg->local_size[i];
    memset(ws->state, NOT_STARTED, nwarps);
    bi_fault local;
    int rc = schedule(&r, nwarps, f ? f : &local);     /* (it reads the kind of every fault) */
    /* the slots this workgroup took hold every clause their warps ran, decoded; slots it did
     * not reach keep the last workgroup's rows */
    ws->dirty = bx_program_written(p) | PRELOAD_ROWS | (r.next_slot < r.old_dirty_warps ? r.old_dirty : 0);
    ws->dirty_warps = r.next_slot > r.old_dirty_warps ? r.next_slot : r.old_dirty_warps;
    if (stats) {
        *stats = r.done;
        stats->warps = nwarps;
        for (unsigned k = 0; k < nwarps; k++)
            if (ws->state[k] == RUNNING || ws->state[k] == AT_BARRIER)
                add_warp_stats(stats, &ws->warps[ws->slot[k]]);
    }
    bi_wg_warps_free(&own);
    return rc;
}
