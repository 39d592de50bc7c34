/* The executor's clause loop as pieces shared by the interpreter (bifrost_exec.c) and the clause
 * compiler's run-time calls (bifrost_exec_jit_rt.c): sources as lane rows, the common ALU forms
 * over all lanes, one unit (FMA or ADD) of one tuple, register commits and the clause's end
 * (message, staging registers, next PCs, statistics).  Both back ends run these same functions
 * for whatever the compiler does not turn into host code, so they cannot disagree there. */
#ifndef MALIBU_BIFROST_EXEC_LANES_H
#define MALIBU_BIFROST_EXEC_LANES_H

#include "bifrost_exec_int.h"

#include <math.h>

static inline int is_mem(const bi_xinstr *x)
{
    return (x->sem >= BI_SEM_LOAD && x->sem <= BI_SEM_BARRIER) || x->sem >= BI_SEM_TEXC;  /* BI_SEM_LOAD .. BI_SEM_BARRIER, BI_SEM_TEXC .. */
}

static inline uint32_t read_src(const bi_warp *w, const bi_xclause *x, unsigned ti, const bi_src *s, unsigned lane,
                         uint32_t t, uint32_t t0, uint32_t t1)
{
    switch (s->kind) {
    case BI_SRC_REG: return w->reg[s->index][lane];
    case BI_SRC_T: return t;
    case BI_SRC_T0: return t0;
    case BI_SRC_T1: return t1;
    case BI_SRC_UNIFORM: {
        unsigned word = 2u * s->index + s->hi;
        return word < w->nuniforms ? w->uniforms[word] : 0;
    }
    case BI_SRC_CONST: return s->hi ? x->fau_hi[ti] : x->fau_lo[ti];
    case BI_SRC_SPECIAL:
        if (s->hi && s->index < 4)
            return 0;
        switch (s->index) {
        case 0: return 0;
        case 1: return lane;
        case 2: return w->warp_id;
        case 3: return w->core_id;
        default:        /* graphics: ATEST datum, blend descriptors... (bifrost_gfx.h) */
            return w->gfx_fau && s->index < 32 ? (uint32_t)(w->gfx_fau[s->index] >> (s->hi ? 32 : 0)) : 0;
        }
    default: return 0;
    }
}

/* ---- clause execution: one instruction at a time over all lanes ------------------------------ */

#define NL BI_MAX_LANES
static const uint32_t zero_lanes[NL];
static const uint32_t lane_ids[NL] = { 0, 1, 2, 3, 4, 5, 6, 7 };

/* A source as a row of NL lane values: a register row, a temporary (t = this tuple's FMA result
 * for the ADD unit, zeros for the FMA unit), or a lane-independent value spread over scratch. */
#define LANE_LOOP static inline __attribute__((always_inline))
LANE_LOOP const uint32_t *src_lanes(const bi_warp *w, const bi_xclause *x, unsigned ti, const bi_src *s,
                                    const uint32_t *t, const uint32_t *t0, const uint32_t *t1, uint32_t *scratch,
                                    unsigned n)
{
    switch (s->kind) {
    case BI_SRC_REG: return w->reg[s->index];
    case BI_SRC_T: return t;
    case BI_SRC_T0: return t0;
    case BI_SRC_T1: return t1;
    case BI_SRC_SPECIAL:
        if (!s->hi && s->index == 1)
            return lane_ids;
        break;
    case BI_SRC_UNIFORM: case BI_SRC_CONST: break;
    default: return zero_lanes;
    }
    uint32_t v = read_src(w, x, ti, s, 0, 0, 0, 0);
    for (unsigned l = 0; l < n; l++)
        scratch[l] = v;
    return scratch;
}

/* Integer comparison of lane rows for ICMP / CSEL: 1 where true.  ICMP.i32 / CSEL.i32 compare for
 * (in)equality; the signed and unsigned forms order as bx_exec_op does (gt, ge, lt, else le). */
LANE_LOOP void cmp_lanes(const bi_xinstr *x, const uint32_t *a, const uint32_t *b, uint32_t *t, unsigned n)
{
    unsigned l;
    if (x->sem == BI_SEM_ICMP_I || x->sem == BI_SEM_CSEL_I) {
        uint32_t eq = x->cmp == C_EQ;
        for (l = 0; l < n; l++)
            t[l] = (a[l] == b[l]) == eq;
    } else if (x->sem == BI_SEM_ICMP_S || x->sem == BI_SEM_CSEL_S) {
        switch (x->cmp) {
        case C_GT: for (l = 0; l < n; l++) t[l] = (int32_t)a[l] > (int32_t)b[l]; break;
        case C_GE: for (l = 0; l < n; l++) t[l] = (int32_t)a[l] >= (int32_t)b[l]; break;
        case C_LT: for (l = 0; l < n; l++) t[l] = (int32_t)a[l] < (int32_t)b[l]; break;
        default: for (l = 0; l < n; l++) t[l] = (int32_t)a[l] <= (int32_t)b[l]; break;
        }
    } else {
        switch (x->cmp) {
        case C_GT: for (l = 0; l < n; l++) t[l] = a[l] > b[l]; break;
        case C_GE: for (l = 0; l < n; l++) t[l] = a[l] >= b[l]; break;
        case C_LT: for (l = 0; l < n; l++) t[l] = a[l] < b[l]; break;
        default: for (l = 0; l < n; l++) t[l] = a[l] <= b[l]; break;
        }
    }
}

/* Run a fast kind over all lanes; returns 0 when the instruction needs the generic path. */
LANE_LOOP int exec_fast(uint8_t kind, const bi_xinstr *x, const uint32_t *const *s, uint32_t *r, const fctx *fc,
                        unsigned n)
{
    const uint32_t *a = s[0], *b = s[1], *c = s[2];
    uint32_t t[NL];
    unsigned l;
    switch (kind) {
    case K_NOP: for (l = 0; l < n; l++) r[l] = 0; return 1;
    case K_MOV: for (l = 0; l < n; l++) r[l] = a[l]; return 1;
    case K_IADD: for (l = 0; l < n; l++) r[l] = a[l] + b[l]; return 1;
    case K_ISUB: for (l = 0; l < n; l++) r[l] = a[l] - b[l]; return 1;
    case K_IADDC: for (l = 0; l < n; l++) r[l] = a[l] + b[l] + c[l]; return 1;
    case K_IMUL: for (l = 0; l < n; l++) r[l] = a[l] * b[l]; return 1;
    case K_LSHIFT: case K_RSHIFT: {
        uint32_t inv1 = x->not1 ? ~0u : 0, invr = x->not_result ? ~0u : 0;
        for (l = 0; l < n; l++)
            t[l] = kind == K_LSHIFT ? a[l] << (c[l] & 31) : a[l] >> (c[l] & 31);
        switch (x->logic) {
        case L_AND: for (l = 0; l < n; l++) r[l] = (t[l] & (b[l] ^ inv1)) ^ invr; break;
        case L_OR: for (l = 0; l < n; l++) r[l] = (t[l] | (b[l] ^ inv1)) ^ invr; break;
        default: for (l = 0; l < n; l++) r[l] = (t[l] ^ (b[l] ^ inv1)) ^ invr; break;
        }
        return 1;
    }
    case K_ICMP: {
        uint32_t one = x->result_type == 0 ? 1 : 0xffffffffu;
        cmp_lanes(x, a, b, t, n);
        for (l = 0; l < n; l++)
            r[l] = t[l] ? one : 0;
        return 1;
    }
    case K_CSEL:
        cmp_lanes(x, a, b, t, n);
        for (l = 0; l < n; l++)
            r[l] = t[l] ? c[l] : s[3][l];
        return 1;
    case K_FADD: case K_FMA: case K_FCMP: {
        if (fc->ftz)
            return 0;
        /* fsrc's abs / neg as masks */
        uint32_t am[3], nm[3];
        for (unsigned k = 0; k < 3; k++) {
            am[k] = x->abs[k] ? 0x7fffffffu : 0xffffffffu;
            nm[k] = x->neg[k] ? 0x80000000u : 0;
        }
        if (kind == K_FCMP) {
            for (l = 0; l < n; l++)
                r[l] = bool_result(fcmp((a[l] & am[0]) ^ nm[0], (b[l] & am[1]) ^ nm[1], x->cmp), x->result_type);
            return 1;
        }
        for (l = 0; l < n; l++) {
            uint32_t in[3] = { (a[l] & am[0]) ^ nm[0], (b[l] & am[1]) ^ nm[1], kind == K_FMA ? (c[l] & am[2]) ^ nm[2] : 0 };
            float v = kind == K_FMA ? fmaf(f32(in[0]), f32(in[1]), f32(in[2])) : f32(in[0]) + f32(in[1]);
            uint32_t u = u32(v);
            if (__builtin_expect(is_nan(u), 0))
                u = nan_result(u, in, kind == K_FMA ? 3 : 2);
            r[l] = x->clamp ? fclamp(u, x->clamp) : u;
        }
        return 1;
    }
    case K_MUX:
        switch (x->mux) {
        case 0: for (l = 0; l < n; l++) r[l] = (c[l] & 0x80000000) ? a[l] : b[l]; break;
        case 1: for (l = 0; l < n; l++) r[l] = c[l] == 0 ? a[l] : b[l]; break;
        case 2: for (l = 0; l < n; l++) r[l] = (c[l] & 0x7fffffff) == 0 ? a[l] : b[l]; break;
        default: for (l = 0; l < n; l++) r[l] = (a[l] & c[l]) | (b[l] & ~c[l]); break;
        }
        return 1;
    case K_MKVEC: {
        unsigned sl = x->lane[0] == 0xff ? 0 : 16 * (x->lane[0] & 1), sh = x->lane[1] == 0xff ? 0 : 16 * (x->lane[1] & 1);
        for (l = 0; l < n; l++)
            r[l] = ((a[l] >> sl) & 0xffff) | ((b[l] >> sh) & 0xffff) << 16;
        return 1;
    }
    case K_ZEXT16: {
        unsigned sh = x->lane[0] == 0xff ? 0 : 16 * (x->lane[0] & 1);
        for (l = 0; l < n; l++)
            r[l] = (a[l] >> sh) & 0xffff;
        return 1;
    }
    default: return 0;
    }
}

/* Commit a tuple's register writes for the lanes whose lmask word is all ones. */
LANE_LOOP void commit(bi_warp *w, const bi_tuple *t, const uint32_t *lmask, const uint32_t *fres,
                      const uint32_t *ares, unsigned n)
{
    for (unsigned k = 0; k < t->nwrites; k++) {
        const bi_write *wr = &t->writes[k];
        uint32_t m = wr->mask == 3 ? 0xffffffff : wr->mask == 1 ? 0xffff : 0xffff0000;  /* inferred */
        const uint32_t *res = wr->from_add ? ares : fres;
        uint32_t *reg = w->reg[wr->reg];
        for (unsigned l = 0; l < n; l++) {
            uint32_t keep = m & lmask[l];
            reg[l] = (reg[l] & ~keep) | (res[l] & keep);
        }
    }
}


/* What a clause's units leave for its end: branches, the deferred message and its operands,
 * staging-register results of loads. */
typedef struct {
    int branch[NL];
    uint32_t target[NL];
    uint64_t atom_addr[NL];
    fctx fc;
    staging stg;
    /* The clause's message (LOAD/STORE/atomics, ADD unit, one per clause) takes its address
     * operands when its tuple runs but reads and writes its staging registers at the end of the
     * clause, after every register write of the clause: Mesa writes a store's data register in
     * the same clause, a tuple before the STORE. */
    const bi_xinstr *msg;
    uint32_t msg_src[4][NL];             /* rows: source k of lane l */
    uint64_t msg_atom[NL];
} bx_cstate;

LANE_LOOP void cstate_init(bx_cstate *st, const bi_clause *c, unsigned n)
{
    st->fc.ftz = c->hdr[BI_H_FTZ] != 0;
    st->stg.n = 0;
    st->msg = NULL;
    for (unsigned l = 0; l < n; l++) {        /* loops, not initialisers: no memset calls */
        st->branch[l] = 0;
        st->target[l] = 0;
        st->atom_addr[l] = 0;
    }
}

/* The FMA unit of tuple i: fr = its result (t0, t1: the previous tuple's results). */
LANE_LOOP int fma_unit(bi_warp *w, const bi_xclause *x, unsigned i, uint32_t exec, bx_cstate *st,
                       const uint32_t *t0, const uint32_t *t1, uint32_t *fr, uint32_t scratch[][NL], bi_fault *f,
                       unsigned n)
{
    const bi_clause *c = &x->c;
    const bi_tuple *t = &c->t[i];
    const bi_xinstr *xf = &x->fma[i];
    const uint32_t *s[4] = { zero_lanes, zero_lanes, zero_lanes, zero_lanes };
    int rc;
    for (unsigned k = 0; k < xf->nsrcs; k++)
        s[k] = src_lanes(w, x, i, &t->fma.src[k], zero_lanes, t0, t1, scratch[k], n);
    if (exec_fast(x->fast_fma[i], xf, s, fr, &st->fc, n))
        return BI_EXEC_OK;
    for (unsigned l = 0; l < n; l++) {
        if (!(exec & (1u << l)))
            continue;
        uint32_t sv[4] = { s[0][l], s[1][l], s[2][l], s[3][l] };
        if (xf->sem == BI_SEM_ATOM_C) {
            st->atom_addr[l] = sv[0] | (uint64_t)sv[1] << 32;
            fr[l] = 0;
        } else if (is_mem(xf)) {
            if (w->mem && w->mem->message && l == (unsigned)__builtin_ctz(exec))
                w->mem->message(w->mem->ctx, w);
            if ((rc = bx_exec_mem(w, xf, c, l, sv, 0, &st->stg, &fr[l], f)))
                return rc;
        } else {
            fr[l] = bx_exec_op(xf, sv, &st->fc, &st->branch[l], &st->target[l]);
        }
    }
    return BI_EXEC_OK;
}

/* The ADD unit of tuple i: ar = its result (fr: this tuple's FMA result, the T source). */
LANE_LOOP int add_unit(bi_warp *w, const bi_xclause *x, unsigned i, uint32_t exec, bx_cstate *st,
                       const uint32_t *fr, const uint32_t *t0, const uint32_t *t1, uint32_t *ar,
                       uint32_t scratch[][NL], bi_fault *f, unsigned n)
{
    const bi_clause *c = &x->c;
    const bi_tuple *t = &c->t[i];
    const bi_xinstr *xa = &x->add[i];
    const uint32_t *s[4] = { zero_lanes, zero_lanes, zero_lanes, zero_lanes };
    int rc;
    for (unsigned k = 0; k < xa->nsrcs; k++)
        s[k] = src_lanes(w, x, i, &t->add.src[k], fr, t0, t1, scratch[k], n);
    if ((xa->sem >= BI_SEM_LOAD && xa->sem <= BI_SEM_ACMPXCHG) || xa->sem >= BI_SEM_TEXC) {   /* deferred to the clause end */
        st->msg = xa;
        for (unsigned l = 0; l < n; l++) {
            for (unsigned k = 0; k < 4; k++)
                st->msg_src[k][l] = s[k][l];
            st->msg_atom[l] = st->atom_addr[l];
        }
        for (unsigned l = 0; l < n; l++)
            ar[l] = 0;
    } else if (xa->sem == BI_SEM_DISCARD) {
        bx_discard(w, xa, exec, s, &st->fc);
        for (unsigned l = 0; l < n; l++)
            ar[l] = 0;
    } else if (xa->sem == BI_SEM_CLPER) {
        if (xa->clper_group > n)
            return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "clause %#x: CLPER.subgroup%u on a %u-lane warp",
                        c->offset, xa->clper_group, n);
        for (unsigned l = 0; l < n; l++) {
            unsigned g = xa->clper_group - 1u;   /* assumption: src1 taken modulo the group size */
            unsigned from = (l & ~g) | (((xa->clper_xor ? l : 0) ^ s[1][l]) & g);
            ar[l] = (exec >> from) & 1 ? s[0][from] : xa->clper_inactive;
        }
    } else if (!exec_fast(x->fast_add[i], xa, s, ar, &st->fc, n)) {
        for (unsigned l = 0; l < n; l++) {
            if (!(exec & (1u << l)))
                continue;
            uint32_t sv[4] = { s[0][l], s[1][l], s[2][l], s[3][l] };
            if (is_mem(xa)) {
                if (w->mem && w->mem->message && l == (unsigned)__builtin_ctz(exec))
                    w->mem->message(w->mem->ctx, w);
                if ((rc = bx_exec_mem(w, xa, c, l, sv, st->atom_addr[l], &st->stg, &ar[l], f)))
                    return rc;
            } else {
                ar[l] = bx_exec_op(xa, sv, &st->fc, &st->branch[l], &st->target[l]);
            }
        }
    }
    if (xa->sem == BI_SEM_BARRIER)
        w->barriers++;
    return BI_EXEC_OK;
}

/* The first part of a clause's end, after its last tuple's commit: the message and the
 * staging-register writes. */
LANE_LOOP int clause_msg(bi_warp *w, const bi_xclause *x, uint32_t exec, bx_cstate *st, bi_fault *f, unsigned n)
{
    const bi_clause *c = &x->c;
    const bi_xinstr *msg = st->msg;
    staging *stg = &st->stg;
    int rc;
    if (msg && msg->sem >= BI_SEM_LD_VAR && w->mem) {
        /* graphics messages: one call per warp (bifrost_exec_gfx.c) */
        if (w->mem->message)
            w->mem->message(w->mem->ctx, w);
        if ((rc = bx_exec_gfx(w, x, msg, exec, (const uint32_t(*)[NL])st->msg_src, stg, f)))
            return rc;
        msg = NULL;
    }
    /* helper lanes' stores and atomics have no effect (bifrost_gfx.h) */
    if (msg && w->helper && (msg->sem == BI_SEM_STORE || msg->sem == BI_SEM_ST_CVT || msg->sem == BI_SEM_ATOM_CX ||
                             msg->sem == BI_SEM_AXCHG || msg->sem == BI_SEM_ACMPXCHG))
        exec &= ~w->helper;
    if (msg && msg->size == 4 && (msg->sem == BI_SEM_LOAD || msg->sem == BI_SEM_STORE) &&
        (msg->seg == SEG_NONE || msg->seg == SEG_WLS) && w->mem) {
        /* 32-bit global / workgroup-local load or store: bx_exec_mem's work without its generality */
        const bi_mem *m = w->mem;
        unsigned sr = c->hdr[BI_H_SR];
        if (m->message)
            m->message(m->ctx, w);
        for (unsigned l = 0; l < n; l++) {
            if (!(exec & (1u << l)))
                continue;
            uint64_t addr = msg->seg == SEG_WLS ? m->wls_base + st->msg_src[0][l]
                                                : st->msg_src[0][l] | (uint64_t)st->msg_src[1][l] << 32;
            uint8_t b[4];
            if (msg->sem == BI_SEM_LOAD) {
                if (m->read(m->ctx, addr, b, 4))
                    return bx_fault(f, BI_FAULT_MEMORY, addr, "clause %#x lane %u: load fault at %#llx", c->offset, l,
                                (unsigned long long)addr);
                stg->val[l][0] = b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
            } else {
                uint32_t v = w->reg[sr][l];
                b[0] = (uint8_t)v, b[1] = (uint8_t)(v >> 8), b[2] = (uint8_t)(v >> 16), b[3] = (uint8_t)(v >> 24);
                if (m->write(m->ctx, addr, b, 4))
                    return bx_fault(f, BI_FAULT_MEMORY, addr, "clause %#x lane %u: store fault at %#llx", c->offset, l,
                                (unsigned long long)addr);
            }
        }
        stg->n = msg->sem == BI_SEM_LOAD;
    } else if (msg && (msg->sem == BI_SEM_TEXC || msg->sem == BI_SEM_TEXS)) {
        /* texture lookups see the warp: a computed LOD needs the quad (bifrost_exec_mem.c) */
        if (w->mem && w->mem->message)
            w->mem->message(w->mem->ctx, w);
        if ((rc = bx_exec_tex(w, msg, c, exec, (const uint32_t(*)[NL])st->msg_src, n, stg, f)))
            return rc;
    } else if (msg) {
        uint32_t dummy;
        if (w->mem && w->mem->message)
            w->mem->message(w->mem->ctx, w);
        for (unsigned l = 0; l < n; l++) {
            uint32_t sv[4] = { st->msg_src[0][l], st->msg_src[1][l], st->msg_src[2][l], st->msg_src[3][l] };
            if ((exec & (1u << l)) && (rc = bx_exec_mem(w, msg, c, l, sv, st->msg_atom[l], stg, &dummy, f)))
                return rc;
        }
    }
    for (unsigned r = 0; r < stg->n; r++)          /* staging writes of a load land at clause end */
        for (unsigned l = 0; l < n; l++)
            if (exec & (1u << l))
                w->reg[c->hdr[BI_H_SR] + r][l] = stg->val[l][r];
    return BI_EXEC_OK;
}

/* The rest of a clause's end: each lane's next PC, statistics. */
LANE_LOOP void clause_next(bi_warp *w, const bi_xclause *x, uint32_t exec, const bx_cstate *st, unsigned n)
{
    const bi_clause *c = &x->c;
    for (unsigned l = 0; l < n; l++) {
        if (!(exec & (1u << l)))
            continue;
        w->pc[l] = st->branch[l] ? st->target[l] : c->offset + c->size;
        if (c->hdr[BI_H_FLOW] == 0 || (st->branch[l] && st->target[l] == PC_EXIT))
            w->done[l] = 1;
    }
    unsigned active = bx_popcount8(exec);
    w->clauses_run++;
    w->tuples_run += c->ntuples;
    w->lanes_run += active;
    w->lane_instrs += (uint64_t)x->ninstrs * active;
}

/* The end of a clause, after its last tuple's commit: the message, staging-register writes, each
 * lane's next PC, statistics. */
LANE_LOOP int clause_end(bi_warp *w, const bi_xclause *x, uint32_t exec, bx_cstate *st, bi_fault *f, unsigned n)
{
    int rc = clause_msg(w, x, exec, st, f, n);
    if (rc)
        return rc;
    clause_next(w, x, exec, st, n);
    return BI_EXEC_OK;
}

#endif
