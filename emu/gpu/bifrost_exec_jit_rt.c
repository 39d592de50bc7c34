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
    cstate_init(&fr.st, &x->c, n);
    for (unsigned l = 0; l < NL; l++) {
        uint32_t on = (exec >> l) & 1 ? 0xffffffffu : 0;
        fr.res[0][0][l] = fr.res[0][1][l] = fr.zero[l] = 0;
        fr.keep[0][l] = on;
        fr.keep[1][l] = on & 0xffff;
        fr.keep[2][l] = on & 0xffff0000u;
    }
    for (unsigned k = 0; k < jc->nbc; k++) {
        const bi_tuple *t = &x->c.t[jc->bc[k].tuple];
        const bi_src *s = &(jc->bc[k].add ? &t->add : &t->fma)->src[jc->bc[k].src];
        for (unsigned l = 0; l < n; l++)
            fr.bc[k][l] = read_src(w, x, jc->bc[k].tuple, s, l, 0, 0, 0);
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
