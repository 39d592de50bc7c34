/* What compiled clauses (bifrost_exec_jit.c) run in: the frame they read and write, and the
 * interpreter's own unit and clause-end code (bifrost_exec_lanes.h) for the rest. */
#include "bifrost_exec_jit.h"

/* The interpreter's unit, on the frame's rows: T0 / T1 = the previous tuple's results. */
LANE_LOOP int unit_n(bi_warp *w, bx_jit_frame *fr, const bi_xclause *x, unsigned iu, unsigned n)
{
    unsigned i = iu >> 1;
    if (iu & 1)
        return add_unit(w, x, i, fr->exec, &fr->st, fr->res[i + 1][0], fr->res[i][0], fr->res[i][1],
                        fr->res[i + 1][1], fr->scratch + 4, fr->f, n);
    return fma_unit(w, x, i, fr->exec, &fr->st, fr->res[i][0], fr->res[i][1], fr->res[i + 1][0], fr->scratch,
                    fr->f, n);
}

int bx_jit_unit(bi_warp *w, bx_jit_frame *fr, const bi_xclause *x, unsigned iu)
{
    return w->lanes == 8 ? unit_n(w, fr, x, iu, 8) : unit_n(w, fr, x, iu, 4);
}

LANE_LOOP int exec_n(bi_warp *w, const bi_xclause *x, uint32_t exec, bi_fault *f, unsigned n)
{
    const bx_jit_code *jc = x->jit;
    bx_jit_frame fr;
    fr.st.fc.ftz = x->c.hdr[BI_H_FTZ] != 0;     /* cstate_init's rows: zeroed by the code */
    fr.st.stg.n = 0;
    fr.st.msg = NULL;
    for (unsigned k = 0; k < jc->nbc; k++) {    /* read_src's values */
        uint32_t v = jc->bc[k].value;
        switch (jc->bc[k].kind) {
        case BC_UNIFORM: v = v < w->nuniforms ? w->uniforms[v] : 0; break;
        case BC_LANE_ID:
            for (unsigned l = 0; l < n; l++)
                fr.bc[k][l] = l;
            continue;
        case BC_WARP_ID: v = w->warp_id; break;
        case BC_CORE_ID: v = w->core_id; break;
        default: break;
        }
        for (unsigned l = 0; l < n; l++)
            fr.bc[k][l] = v;
    }
    fr.exec = exec;
    fr.f = f;
    int rc = jc->entry(w, &fr, x);
    if (rc)
        return rc;
    return clause_end(w, x, exec, &fr.st, f, n);
}

int bx_jit_exec(bi_warp *w, const bi_xclause *x, uint32_t exec, bi_fault *f)
{
    return w->lanes == 8 ? exec_n(w, x, exec, f, 8) : exec_n(w, x, exec, f, 4);
}
