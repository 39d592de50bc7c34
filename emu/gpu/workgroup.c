/* Compute workgroups on the Bifrost executor: threads packed into warps, compute preloads, warps
 * run round-robin until each ends or reaches a barrier. */
#include "bifrost_exec_int.h"

#include <stdlib.h>
#include <string.h>

void bi_compute_preload(bi_warp *w, unsigned lane, const uint32_t local_id[3], const uint32_t wg_id[3],
                        const uint32_t global_id[3])
{
    w->reg[55][lane] = (local_id[0] & 0xffff) | local_id[1] << 16;
    w->reg[56][lane] = local_id[2] & 0xffff;
    for (unsigned i = 0; i < 3; i++) {
        w->reg[57 + i][lane] = wg_id[i];
        w->reg[60 + i][lane] = global_id[i];
    }
}

int bi_run_workgroup(const bi_workgroup *wg, bi_program *p, bi_wg_stats *stats, bi_fault *f)
{
    unsigned lanes = bi_program_arch(p) >= BI_ARCH_V7 ? 8 : 4;
    unsigned nthreads = wg->local_size[0] * wg->local_size[1] * wg->local_size[2];
    unsigned nwarps = (nthreads + lanes - 1) / lanes;
    if (!nthreads)
        return BI_EXEC_END;
    bi_warp *warps = calloc(nwarps, sizeof(*warps));
    int *state = calloc(nwarps, sizeof(*state));      /* 0 running, 1 at barrier, 2 done */
    if (!warps || !state) {
        free(warps);
        free(state);
        return bx_fault(f, BI_FAULT_HOST, 0, "out of memory");
    }
    for (unsigned k = 0; k < nwarps; k++) {
        bi_warp *w = &warps[k];
        bi_warp_init(w, bi_program_arch(p));
        w->mem = wg->mem;
        w->uniforms = wg->uniforms;
        w->nuniforms = wg->nuniforms;
        w->warp_id = k;
        w->core_id = wg->core_id;
        for (unsigned l = 0; l < lanes; l++) {
            unsigned t = k * lanes + l;
            if (t >= nthreads) {
                w->done[l] = 1;
                continue;
            }
            uint32_t lid[3] = { t % wg->local_size[0], (t / wg->local_size[0]) % wg->local_size[1],
                                t / (wg->local_size[0] * wg->local_size[1]) };
            uint32_t gid[3];
            for (unsigned i = 0; i < 3; i++)
                gid[i] = wg->wg_id[i] * wg->local_size[i] + lid[i];
            bi_compute_preload(w, l, lid, wg->wg_id, gid);
            w->tls_base[l] = wg->tls_base + (uint64_t)t * wg->tls_stride;
        }
    }
    int rc = BI_EXEC_END;
    unsigned budget = wg->max_clauses;
    for (;;) {
        unsigned running = 0, waiting = 0;
        for (unsigned k = 0; k < nwarps && rc >= 0; k++) {
            if (state[k])
                continue;
            uint64_t before = warps[k].clauses_run;
            int r = bi_exec_program(&warps[k], p, budget, f);
            budget -= (unsigned)(warps[k].clauses_run - before);
            if (r == BI_EXEC_BARRIER)
                state[k] = 1;
            else if (r == BI_EXEC_END)
                state[k] = 2;
            else
                rc = r;
        }
        if (rc < 0)
            break;
        for (unsigned k = 0; k < nwarps; k++) {
            running += state[k] == 0;
            waiting += state[k] == 1;
        }
        if (!running && !waiting)
            break;
        if (!running)                 /* every live warp reached the barrier: release them */
            for (unsigned k = 0; k < nwarps; k++)
                if (state[k] == 1)
                    state[k] = 0;
        if (!budget) {
            rc = bx_fault(f, BI_FAULT_CLAUSE_LIMIT, 0, "clause limit (%u) reached", wg->max_clauses);
            break;
        }
    }
    if (stats) {
        memset(stats, 0, sizeof(*stats));
        stats->warps = nwarps;
        for (unsigned k = 0; k < nwarps; k++) {
            stats->clauses += warps[k].clauses_run;
            stats->lane_clauses += warps[k].lanes_run;
            stats->barriers += warps[k].barriers;
        }
    }
    free(warps);
    free(state);
    return rc;
}
