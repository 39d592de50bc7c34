/* Bifrost warp executor: runs prepared clauses (bifrost_exec_prepare.c) for one warp, the common
 * ALU forms as loops over all lanes, everything else lane by lane (bifrost_exec_alu.c,
 * bifrost_exec_mem.c); warps scheduled by minimum PC. */
#include "bifrost_exec_jit.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bx_fault(bi_fault *f, enum bi_fault_kind kind, uint64_t addr, const char *fmt, ...)
{
    if (f) {
        va_list ap;
        f->kind = kind;
        f->addr = addr;
        va_start(ap, fmt);
        vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
        va_end(ap);
    }
    return BI_EXEC_FAULT;
}

/* One clause for a warp of n lanes (n constant in each caller below, so the lane loops unroll). */
LANE_LOOP int exec_clause_n(bi_warp *w, const bi_xclause *x, uint32_t exec, bi_fault *f, unsigned n)
{
    const bi_clause *c = &x->c;
    uint32_t t0[NL], t1[NL], fr[NL], ar[NL], lmask[NL];
    uint32_t scratch[8][NL];
    bx_cstate st;
    int rc;

    cstate_init(&st, c, n);
    for (unsigned l = 0; l < n; l++) {        /* loops, not initialisers: no memset calls */
        lmask[l] = (exec >> l) & 1 ? 0xffffffffu : 0;
        t0[l] = t1[l] = fr[l] = ar[l] = 0;
    }
    for (unsigned i = 0; i < c->ntuples; i++) {
        if ((rc = fma_unit(w, x, i, exec, &st, t0, t1, fr, scratch, f, n)))
            return rc;
        if ((rc = add_unit(w, x, i, exec, &st, fr, t0, t1, ar, scratch + 4, f, n)))
            return rc;
        if (i > 0)
            commit(w, &c->t[i - 1], lmask, t0, t1, n);
        for (unsigned l = 0; l < n; l++) {
            t0[l] = fr[l];
            t1[l] = ar[l];
        }
    }
    commit(w, &c->t[c->ntuples - 1], lmask, t0, t1, n);
    return clause_end(w, x, exec, &st, f, n);
}

/* An interpreted clause of bi_exec_program, out of line: its loop keeps a small frame for
 * compiled clauses' sake */
static __attribute__((noinline)) int interp_clause(bi_warp *w, const bi_xclause *x, uint32_t exec, bi_fault *f)
{
    return w->lanes == 8 ? exec_clause_n(w, x, exec, f, 8) : exec_clause_n(w, x, exec, f, 4);
}

int bi_exec_clause(bi_warp *w, const bi_xclause *x, uint32_t exec, bi_fault *f)
{
    exec &= (1u << w->lanes) - 1;
    if (x->jit)
        return bx_jit_exec(w, x, exec, f);
    return w->lanes == 8 ? exec_clause_n(w, x, exec, f, 8) : exec_clause_n(w, x, exec, f, 4);
}

void bi_warp_init(bi_warp *w, enum bi_arch arch)
{
    memset(w, 0, sizeof(*w));
    w->lanes = arch >= BI_ARCH_V7 ? 8 : 4;
}

void (*bi_exec_hook)(const bi_warp *w, const bi_program *p, const bi_xclause *x, uint32_t exec);
void (*bi_exec_hook_run)(const bi_program *p, uint64_t epoch, unsigned lanes, const bi_clause_count *r, unsigned n);

/* bi_exec_program for n lanes (a constant: the lane loops unroll) */
static inline __attribute__((always_inline)) int exec_program_n(bi_warp *w, bi_program *p, unsigned max_clauses,
                                                               bi_fault *f, unsigned n)
{
    bi_xclause **prev = &w->resume;     /* (kept in the warp: a warp resumed after a barrier or its
                                           turn finds its clause as the successor of its last) */
    for (unsigned k = 0; k < max_clauses; k++) {
        /* the lanes at the minimum PC of the lanes not done, in one pass */
        uint32_t pc = UINT32_MAX, exec = 0;
        for (unsigned l = 0; l < n; l++) {
            if (w->done[l])
                continue;
            uint32_t lpc = w->pc[l];
            if (lpc < pc) {
                pc = lpc;
                exec = 1u << l;
            } else if (lpc == pc) {
                exec |= 1u << l;
            }
        }
        if (pc == UINT32_MAX)
            return BI_EXEC_END;
        /* bx_program_next's first check inline: prev's cached successor, when it is the clause at
         * pc and, for fetched code (raw bytes kept), checked under the current epoch */
        bi_xclause *x = *prev ? __atomic_load_n(&(*prev)->next, __ATOMIC_ACQUIRE) : NULL;
        int rc;
        if (!(x && x->c.offset == pc &&
              (!x->raw || (w->mem && __atomic_load_n(&x->epoch, __ATOMIC_ACQUIRE) == w->mem->epoch))) &&
            (rc = bx_program_next(p, w->mem, *prev, pc, &x, f)))
            return rc;
        *prev = x;
        if (x->jit) {
            /* compiled clauses back to back, scheduled as here (the same clauses, masks and order) */
            rc = bx_jit_run(w, p, prev, exec, &k, max_clauses, f);
            if (rc)
                return rc;
            k--;                                   /* the loop's k++ */
            continue;
        }
        unsigned barriers = w->barriers;
        rc = interp_clause(w, x, exec, f);         /* interpreted (compiled ones went above) */
        if (rc)
            return rc;
        if (__builtin_expect(bi_exec_hook != NULL, 0))
            bi_exec_hook(w, p, x, exec);
        if (w->barriers != barriers)
            return BI_EXEC_BARRIER;
        if (w->blend_shader)
            return BI_EXEC_BLEND_CALL;
    }
    return bx_fault(f, BI_FAULT_CLAUSE_LIMIT, 0, "clause limit (%u) reached", max_clauses);
}

int bi_exec_program(bi_warp *w, bi_program *p, unsigned max_clauses, bi_fault *f)
{
    return w->lanes == 8 ? exec_program_n(w, p, max_clauses, f, 8) : exec_program_n(w, p, max_clauses, f, 4);
}

int bi_exec_shader(bi_warp *w, const uint8_t *code, size_t len, enum bi_arch arch,
                   unsigned max_clauses, bi_fault *f)
{
    bi_program *p = bi_program_new(code, len, arch);
    if (!p)
        return bx_fault(f, BI_FAULT_HOST, 0, "out of memory");
    int rc;
    unsigned left = max_clauses;
    w->resume = NULL;             /* (a clause of p only: p is freed below) */
    do {     /* a lone warp passes barriers */
        uint64_t before = w->clauses_run;
        rc = bi_exec_program(w, p, left, f);
        left -= (unsigned)(w->clauses_run - before);
    } while (rc == BI_EXEC_BARRIER && left);
    bi_program_free(p);
    w->resume = NULL;
    return rc == BI_EXEC_BARRIER ? bx_fault(f, BI_FAULT_CLAUSE_LIMIT, 0, "clause limit (%u) reached", max_clauses) : rc;
}
