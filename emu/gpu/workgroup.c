/* Compute workgroups on the Bifrost executor (workgroup.h): warps, preloads, the round-robin
 * scheduler with barriers. */
#include "workgroup.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bifrost_exec_int.h"

/* The preloads of lane l, from scalars (init_warps keeps the local id in registers: an array on
 * the stack, written as words and read as a pair, stalled every lane on a failed store forwarding) */
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
    ws->cap = ws->warps && ws->state ? n : 0;
    return ws->cap ? 0 : -1;
}

void bi_wg_warps_free(bi_wg_warps *ws)
{
    free(ws->warps);
    free(ws->state);
    memset(ws, 0, sizeof(*ws));
}

enum { RUNNING, AT_BARRIER, DONE };

/* Registers the set-up writes: the compute preloads r55-r62 */
#define PRELOAD_ROWS (0xffull << 55)

/* bi_warp_init for a warp of ws: the same zeroes, but of the registers only the rows a workgroup
 * before may have written (a 2 KiB memset per warp was most of a small workgroup's set-up).  The
 * fields after the registers are zeroed one by one: a memset of their odd size is a slow rep stos. */
_Static_assert(offsetof(bi_warp, tuples_run) + sizeof(uint64_t) == sizeof(bi_warp) &&
               offsetof(bi_warp, pc) == offsetof(bi_warp, reg) + sizeof(((bi_warp *)0)->reg),
               "warp_reset zeroes the fields after reg by name: add new ones there");
static void warp_reset(bi_warp *w, unsigned lanes, uint64_t rows)
{
    memset(w, 0, offsetof(bi_warp, reg));
    for (; rows; rows &= rows - 1)
        memset(w->reg[__builtin_ctzll(rows)], 0, sizeof(w->reg[0]));
    memset(w->pc, 0, sizeof(w->pc));
    memset(w->done, 0, sizeof(w->done));
    w->warp_id = w->core_id = 0;
    w->uniforms = NULL;
    w->nuniforms = 0;
    w->clauses_run = w->lanes_run = w->lane_instrs = w->tuples_run = 0;
    w->lanes = lanes;
}

/* Warps of the workgroup, their lanes preloaded; threads beyond the workgroup's are done. */
static void init_warps(const bi_workgroup *wg, enum bi_arch arch, bi_wg_warps *ws, unsigned nwarps,
                       unsigned nthreads)
{
    unsigned lanes = arch >= BI_ARCH_V7 ? 8 : 4;
    uint32_t x = 0, y = 0, z = 0;         /* thread t's local id, counted up (no divisions) */
    uint32_t base[3];                     /* global id of local id 0 */
    for (unsigned i = 0; i < 3; i++)
        base[i] = wg->wg_id[i] * wg->local_size[i];
    for (unsigned k = nwarps; k < ws->dirty_warps; k++)     /* fewer warps than last time */
        warp_reset(&ws->warps[k], lanes, ws->dirty);
    for (unsigned k = 0; k < nwarps; k++) {
        bi_warp *w = &ws->warps[k];
        warp_reset(w, lanes, k < ws->dirty_warps ? ws->dirty : 0);
        w->mem = wg->mem;
        w->uniforms = wg->uniforms;
        w->nuniforms = wg->nuniforms;
        w->warp_id = k;
        w->core_id = wg->core_id;
        ws->state[k] = RUNNING;
        for (unsigned l = 0; l < lanes; l++) {
            unsigned t = k * lanes + l;
            if (t >= nthreads) {
                w->done[l] = 1;
                continue;
            }
            /* r55-r62 are preloaded whatever the shader's preload bits say: a register the
             * descriptor does not name is undefined on entry, and compilers write such registers
             * before reading them, so a superset is safe */
            preload(w, l, x, y, z, wg->wg_id, base[0] + x, base[1] + y, base[2] + z);
            w->tls_base[l] = wg->tls_base + (uint64_t)t * wg->tls_stride;
            if (++x == wg->local_size[0]) {
                x = 0;
                if (++y == wg->local_size[1]) {
                    y = 0;
                    z++;
                }
            }
        }
    }
    ws->dirty = 0;
    ws->dirty_warps = 0;
}

/* Round-robin turns until every warp is done, the budget runs out, a warp faults or the runner
 * asks to stop. */
static int schedule(const bi_workgroup *wg, bi_program *p, bi_wg_warps *ws, unsigned nwarps, bi_fault *f)
{
    int rc = BI_EXEC_END;
    unsigned budget = wg->max_clauses;
    for (;;) {
        unsigned running = 0, waiting = 0;
        for (unsigned k = 0; k < nwarps && rc == BI_EXEC_END; k++) {
            if (ws->state[k] != RUNNING)
                continue;
            bi_warp *w = &ws->warps[k];
            unsigned turn = wg->turn_clauses ? wg->turn_clauses : UINT_MAX;
            bool by_budget = wg->max_clauses && budget <= turn;
            if (by_budget)
                turn = budget;
            uint64_t clauses = w->clauses_run, tuples = w->tuples_run;
            int r = bi_exec_program(w, p, turn, f);
            clauses = w->clauses_run - clauses;
            if (wg->max_clauses)
                budget -= (unsigned)clauses;
            if (r == BI_EXEC_BARRIER)
                ws->state[k] = AT_BARRIER;
            else if (r == BI_EXEC_END)
                ws->state[k] = DONE;
            else if (!(f && f->kind == BI_FAULT_CLAUSE_LIMIT && !by_budget))
                rc = r;             /* (a warp at the end of its turn runs on next round) */
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
    init_warps(wg, arch, ws, nwarps, nthreads);
    bi_fault local;
    int rc = schedule(wg, p, ws, nwarps, f ? f : &local);     /* (it reads the kind of every fault) */
    ws->dirty = bx_program_written(p) | PRELOAD_ROWS;       /* every clause the warps ran, decoded */
    ws->dirty_warps = nwarps;
    if (stats) {
        stats->warps = nwarps;
        for (unsigned k = 0; k < nwarps; k++) {
            stats->clauses += ws->warps[k].clauses_run;
            stats->lane_clauses += ws->warps[k].lanes_run;
            stats->lane_instrs += ws->warps[k].lane_instrs;
            stats->barriers += ws->warps[k].barriers;
        }
    }
    bi_wg_warps_free(&own);
    return rc;
}
