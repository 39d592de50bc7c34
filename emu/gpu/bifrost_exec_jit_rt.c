/* What compiled clauses (bifrost_exec_jit.c) run in: the frame they read and write, and the
 * interpreter's own unit and clause-end code (bifrost_exec_lanes.h) for the rest. */
#include "bifrost_exec_jit.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

/* Whether the clause's message is a load or store that mem_n runs: 32 to 128 bits per lane (one
 * to four whole staging registers, all in range), global or workgroup-local.  The rest goes to
 * clause_end (narrow loads, which keep part of their register, and every fault of the staging
 * range). */
static inline int mem_fast_ok(const bi_warp *w, const bi_xclause *x, const bi_xinstr *msg)
{
    return msg && bx_jit_whole_ldst(x, msg) && w->mem && w->mem->map && !w->mem->message && !w->helper;
}

/* memcpy of 1-4 words, each size a constant (inline moves, no call) */
static inline void copy_words(void *d, const void *s, unsigned words)
{
    switch (words) {
    case 1: memcpy(d, s, 4); break;
    case 2: memcpy(d, s, 8); break;
    case 3: memcpy(d, s, 12); break;
    default: memcpy(d, s, 16); break;
    }
}

/* The clause's load or store (mem_fast_ok) through bi_mem.map: one map call per page (or
 * storage window) the lanes touch instead of a read / write call per lane, lanes in order as in
 * bx_exec_mem; a lane whose bytes are not all inside one mapped range takes bx_exec_mem's read /
 * write call and reports its fault the same way.  This is the fast path's one hook point: a
 * bi_mem without map (a memory observer that must see every access) never comes here. */
LANE_LOOP int mem_n(bi_warp *w, const bi_xclause *x, uint32_t exec, bx_cstate *st, bi_fault *f, unsigned n)
{
    const bi_mem *m = w->mem;
    const bi_xinstr *msg = st->msg;
    const bi_clause *c = &x->c;
    unsigned sr = c->hdr[BI_H_SR], size = msg->size, words = size / 4;
    int store = msg->sem == BI_SEM_STORE;
    uint8_t *host = NULL;
    uint64_t ref = 0, lo = 1, hi = 0;
    for (unsigned l = 0; l < n; l++) {
        if (!(exec & (1u << l)))
            continue;
        uint64_t addr = msg->seg == SEG_WLS ? m->wls_base + st->msg_src[0][l]
                                            : st->msg_src[0][l] | (uint64_t)st->msg_src[1][l] << 32;
        if (!(addr >= lo && hi >= size && addr <= hi - size)) {
            host = m->map(m->ctx, addr, store, &lo, &hi);
            ref = addr;
            if (!host)
                lo = 1, hi = 0;
        }
        uint32_t v[4];
        if (store)
            for (unsigned r = 0; r < words; r++)
                v[r] = w->reg[sr + r][l];          /* little-endian host: bx_exec_mem's bytes */
        if (host && addr >= lo && hi >= size && addr <= hi - size) {
            uint8_t *p = host + (addr - ref);
            if (store)
                copy_words(p, v, words);
            else
                copy_words(st->stg.val[l], p, words);
            continue;
        }
        if (store ? m->write(m->ctx, addr, v, size) : m->read(m->ctx, addr, st->stg.val[l], size))
            return bx_fault(f, BI_FAULT_MEMORY, addr, "clause %#x lane %u: %s fault at %#llx", c->offset, l,
                            store ? "store" : "load", (unsigned long long)addr);
    }
    st->stg.n = store ? 0 : words;
    st->msg = NULL;                 /* done: clause_end goes on with the staging writes */
    return BI_EXEC_OK;
}

/* the frame's fields for the lanes in exec (n lanes) */
LANE_LOOP void frame_exec(bx_jit_frame *fr, uint32_t exec, uint32_t wait_pc, unsigned n)
{
    for (unsigned l = 0; l < n; l++) {
        uint32_t on = (exec >> l) & 1 ? ~0u : 0;
        fr->keep[0][l] = on;
        fr->keep[1][l] = on & 0xffff;
        fr->keep[2][l] = on & 0xffff0000;
    }
    fr->exec = exec;
    fr->done_bytes = 0;
    for (unsigned l = 0; l < n; l++)
        fr->done_bytes |= (uint64_t)((exec >> l) & 1) << (8 * l);
    fr->first4 = exec ? 4u * (unsigned)__builtin_ctz(exec) : 0;
    fr->active = bx_popcount8(exec);
    fr->wait_pc = wait_pc;
}

/* the frame's fields that depend on the warp's memory and the caller */
static inline void frame_mem(bx_jit_frame *fr, const bi_warp *w, bi_fault *f, int chain)
{
    fr->chain = (uint32_t)chain;
    /* (message sees every message; helper lanes' stores and atomics go through clause_msg, which
     * leaves them out: bifrost_gfx.h) */
    fr->map_ok = w->mem && w->mem->map && !w->mem->message && !w->helper;
    fr->msg_hook = w->mem && w->mem->message;
    fr->wls_base = w->mem ? w->mem->wls_base : 0;
    fr->private_base = w->mem ? w->mem->private_base : 0;
    fr->f = f;
    fr->count = NULL;
    fr->observed = bi_exec_hook != NULL;
    fr->uncounted = BX_COUNT_NONE;
    fr->inc = 0;
}

void bx_jit_frame_init(bx_jit_frame *fr, const bi_warp *w, uint32_t exec, bi_fault *f, int chain)
{
    for (unsigned l = 0; l < NL; l++)
        fr->res[0][0][l] = fr->res[0][1][l] = fr->zero[l] = 0;
    frame_exec(fr, exec, UINT32_MAX, NL);
    frame_mem(fr, w, f, chain);
}

LANE_LOOP int msg_n(bi_warp *w, bx_jit_frame *fr, const bi_xclause *x, unsigned n)
{
    int rc;
    if (mem_fast_ok(w, x, fr->st.msg) && (rc = mem_n(w, x, fr->exec, &fr->st, fr->f, n)))
        return rc;
    return clause_msg(w, x, fr->exec, &fr->st, fr->f, n);
}

int bx_jit_msg(bi_warp *w, bx_jit_frame *fr, const bi_xclause *x)
{
    return w->lanes == 8 ? msg_n(w, fr, x, 8) : msg_n(w, fr, x, 4);
}

/* One lane of a compiled load / store (bx_jc_compile_mem) whose slot did not cover its bytes: the
 * slot refilled from map and the access done, or the access through read / write, which reports
 * a fault as mem_n does. */
/* lane l's staging values of a load from the bytes at p (bx_exec_mem's: whole registers, or an
 * 8 / 16-bit value extended and placed as lane_dest says) */
static void load_staging(bi_warp *w, bx_jit_frame *fr, const bi_xinstr *msg, unsigned sr, unsigned l, const uint8_t *p)
{
    if (msg->size >= 4) {
        for (unsigned r = 0; r < msg->size / 4u; r++)
            memcpy(&fr->stg[r][l], p + 4 * r, 4);
        return;
    }
    uint32_t v = msg->size == 1 ? p[0] : (uint32_t)p[0] | (uint32_t)p[1] << 8;
    unsigned bits = 8 * msg->size;
    if (msg->ext == 1 && (v >> (bits - 1)) & 1)
        v |= ~0u << bits;
    uint32_t old = w->reg[sr][l];
    if (msg->dlane < 4) {
        fr->stg[0][l] = (old & ~(0xffu << (8 * msg->dlane))) | (v & 0xff) << (8 * msg->dlane);
    } else if (msg->dlane < 6) {
        unsigned sh = 16 * (msg->dlane - 4u);
        fr->stg[0][l] = (old & ~(0xffffu << sh)) | (v & 0xffff) << sh;
    } else {
        fr->stg[0][l] = v;
        fr->stg[1][l] = msg->ext == 1 && (v >> 31) ? ~0u : 0;   /* DL_D0: the 64-bit extension */
    }
}

int bx_jit_mem_lane(bi_warp *w, bx_jit_frame *fr, const bi_xclause *x, unsigned arg)
{
    const bi_mem *m = w->mem;
    const bi_xinstr *msg = fr->st.msg;
    unsigned l = arg & 0xff, slot = (arg >> 8) & (BX_JIT_TLB - 1), store = (arg >> 16) & 1;
    if ((arg >> 16) == 2) {
        /* a 32-bit atomic (ATOM_CX): the slot refilled when the address is aligned and mapped,
         * the lane done by the interpreter's code */
        uint64_t addr = fr->st.msg_atom[l], lo = 1, hi = 0;
        uint8_t *host = addr & 3 ? NULL : m->map(m->ctx, addr, 2, &lo, &hi);
        if (host && addr >= lo && hi > lo) {
            bx_jit_tlb *t = &fr->tlb[2][slot];
            t->lo = lo;
            t->len = hi - lo;
            t->host = host - (addr - lo);
        }
        staging stg;
        uint32_t sv[4] = { fr->st.msg_src[0][l], fr->st.msg_src[1][l], fr->st.msg_src[2][l], fr->st.msg_src[3][l] }, res;
        stg.n = 0;
        int rc = bx_exec_mem(w, msg, &x->c, l, sv, addr, &stg, &res, fr->f);
        if (!rc && stg.n)
            fr->stg[0][l] = stg.val[l][0];      /* the old value; the identity is the code's */
        return rc;
    }
    unsigned sr = x->c.hdr[BI_H_SR], size = msg->size, words = (size + 3) / 4;
    uint64_t addr = msg->seg == SEG_WLS ? m->wls_base + fr->st.msg_src[0][l]
                                        : fr->st.msg_src[0][l] | (uint64_t)fr->st.msg_src[1][l] << 32;
    uint32_t v[4];
    if (store)
        for (unsigned r = 0; r < words; r++)
            v[r] = w->reg[sr + r][l];
    uint64_t lo = 1, hi = 0;
    uint8_t *host = m->map(m->ctx, addr, (int)store, &lo, &hi);
    if (host && addr >= lo && hi > lo) {
        bx_jit_tlb *t = &fr->tlb[store][slot];
        t->lo = lo;
        t->len = hi - lo;
        t->host = host - (addr - lo);
    }
    if (host && addr >= lo && hi >= size && addr <= hi - size) {
        if (store)
            memcpy(host, v, size);              /* little-endian host: bx_exec_mem's bytes */
        else
            load_staging(w, fr, msg, sr, l, host);
        return BI_EXEC_OK;
    }
    uint8_t got[16];
    if (store ? m->write(m->ctx, addr, v, size) : m->read(m->ctx, addr, got, size))
        return bx_fault(fr->f, BI_FAULT_MEMORY, addr, "clause %#x lane %u: %s fault at %#llx", x->c.offset, l,
                        store ? "store" : "load", (unsigned long long)addr);
    if (!store)
        load_staging(w, fr, msg, sr, l, got);
    return BI_EXEC_OK;
}

LANE_LOOP int exec_n(bi_warp *w, const bi_xclause *x, uint32_t exec, bi_fault *f, unsigned n)
{
    const bx_jit_code *jc = x->jit;
    bx_jit_frame fr;
    bx_jit_frame_init(&fr, w, exec, f, 0);
    int rc = jc->entry(w, &fr, x);
    if (rc)
        return rc;
    const bi_xinstr *msg = fr.st.msg;
    if (mem_fast_ok(w, x, msg) && (rc = mem_n(w, x, exec, &fr.st, f, n)))
        return rc;
    return clause_end(w, x, exec, &fr.st, f, n);
}

int bx_jit_exec(bi_warp *w, const bi_xclause *x, uint32_t exec, bi_fault *f)
{
    return w->lanes == 8 ? exec_n(w, x, exec, f, 8) : exec_n(w, x, exec, f, 4);
}

/* bx_jit_run for n lanes: bi_exec_program's loop (minimum-PC scheduling: the lanes at the lowest
 * pc of the lanes not done run its clause) for as long as its clauses are compiled.  The compiled
 * code ends its clauses itself and jumps from one to the next while its lanes go on together to a
 * pc below every other live lane's and the next clause's code is known (bx_jit_code.succ, filled
 * here); it comes back here for everything else (divergence, lanes finishing, barriers, the
 * budget, the observer), and here the next lanes and clause are chosen as bi_exec_program does. */
/* the lowest pc of the live lanes outside exec (all ones: none), the pc exec's lanes may chain
 * below */
LANE_LOOP uint32_t wait_pc_of(const bi_warp *w, uint32_t live, uint32_t exec, unsigned n)
{
    uint32_t pc = UINT32_MAX;
    for (unsigned l = 0; l < n; l++)
        if ((live >> l) & 1 && !((exec >> l) & 1) && w->pc[l] < pc)
            pc = w->pc[l];
    return pc;
}

/* per host thread: bx_jit_run's frame, kept from one run to the next, and what its mapping slots
 * were filled under (bi_mem.map_gen) */
static __thread bx_jit_frame run_frame;
static __thread struct { const bi_mem *m; uint64_t epoch, gen; } run_key;
static __thread unsigned run_lanes;      /* 0: run_frame's constant rows not yet zeroed; else the
                                            lanes its commit masks were made for */

/* ---- --stats: the counts of compiled code (bx_jit_frame.count) -------------------------------- */

/* per host thread: the records (BX_COUNT_MAX of them, reserved once: pages nothing used cost
 * nothing; NULL: none), and the program (NULL: none since the last hand-over; else alive: records
 * go to the observer at the end of each job and before the program is freed), job (bi_mem
 * epoch) and warp size they count for, and the clause runs counted since their last hand-over
 * (at most BX_COUNT_LIMIT) */
static __thread struct {
    bi_program *p;
    uint64_t epoch;
    unsigned lanes;
    int failed;
    bx_count *rec;
    uint32_t runs;
} counts;

#define FIELD(w, shift, bits) ((w) >> (shift) & ((1ull << (bits)) - 1))

/* record k's runs to the observer (its words zeroed) */
static void count_hand_over(uint32_t k)
{
    bx_count *r = &counts.rec[k];
    const bi_xclause *x = r->fall || r->taken || r->split ? bx_program_by_index(counts.p, k) : NULL;
    if (x && bi_exec_hook_run) {
        bi_clause_count c = {
            .x = x, .taken_pc = r->taken_pc,
            .fall = r->fall >> BX_COUNT_RUNS, .taken = r->taken >> BX_COUNT_RUNS, .split = r->split >> BX_COUNT_RUNS,
            .fall_lanes = FIELD(r->fall, 0, BX_COUNT_PARTIAL) + FIELD(r->split, 0, BX_COUNT_PARTIAL),
            .taken_lanes = FIELD(r->taken, 0, BX_COUNT_PARTIAL) + r->split_taken_lanes,
            .partial = FIELD(r->fall, BX_COUNT_PARTIAL, BX_COUNT_RUNS - BX_COUNT_PARTIAL) +
                       FIELD(r->taken, BX_COUNT_PARTIAL, BX_COUNT_RUNS - BX_COUNT_PARTIAL) +
                       FIELD(r->split, BX_COUNT_PARTIAL, BX_COUNT_RUNS - BX_COUNT_PARTIAL),
        };
        bi_exec_hook_run(counts.p, counts.epoch, counts.lanes, &c, 1);
    }
    r->fall = r->taken = r->split = 0;
    r->split_taken_lanes = 0;
}

/* every record to the observer (counts.p set) */
static void count_hand_over_all(void)
{
    uint32_t n = counts.rec ? bx_program_decoded(counts.p) : 0;      /* indices the code may use */
    for (uint32_t k = 0; k < n && k < BX_COUNT_MAX; k++)
        if (counts.rec[k].fall || counts.rec[k].taken || counts.rec[k].split) {
            count_hand_over(k);
            counts.rec[k].taken_pc = 0;
        }
    counts.runs = 0;
}

void bi_exec_flush(void)
{
    if (!counts.p)
        return;
    count_hand_over_all();
    counts.p = NULL;
}

void bx_jit_forget(const bi_program *p)
{
    if (counts.p == p)
        bi_exec_flush();
}

/* the records count for p's warps of n lanes in the job of epoch from now on */
static inline void count_for(bi_program *p, const bi_warp *w, unsigned n)
{
    uint64_t epoch = w->mem ? w->mem->epoch : 0;
    if (__builtin_expect(counts.p != p || counts.epoch != epoch || counts.lanes != n, 0)) {
        bi_exec_flush();
        counts.p = p;
        counts.epoch = epoch;
        counts.lanes = n;
        if (!counts.rec && !counts.failed) {
            void *m = mmap(NULL, BX_COUNT_MAX * sizeof(bx_count), PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            counts.failed = m == MAP_FAILED;
            counts.rec = counts.failed ? NULL : m;
        }
    }
}

/* what a run adds to a record word, for the frame's lanes */
static inline void count_inc(bx_jit_frame *fr, int partial)
{
    fr->inc = 1ull << BX_COUNT_RUNS | (uint64_t)partial << BX_COUNT_PARTIAL | fr->active;
}

/* x's record for runs to taken target `to` from now on: a record holding runs to another one
 * goes to the observer first */
static inline bx_count *count_record(uint32_t k, uint32_t to)
{
    bx_count *r = &counts.rec[k];
    if ((r->taken || r->split) && r->taken_pc != to)
        count_hand_over(k);                    /* a second branch target */
    r->taken_pc = to;
    return r;
}

/* the run of x the code left uncounted, its lanes having gone on to `to` (a branch target its
 * record does not hold).  -1: no record (an index past BX_COUNT_MAX), the caller hands the run
 * over by itself.  (bx_jit_run runs no code without counts.rec.) */
static int count_run(bx_jit_frame *fr, const bi_xclause *x, uint32_t to)
{
    uint32_t k = x->index;
    if (k >= BX_COUNT_MAX)
        return -1;
    count_record(k, to)->taken += fr->inc;
    return 0;
}

/* A run of branching clause x that the code left to C (BX_JIT_END_C: the lanes in exec did not
 * all go one way; clause_next has set their pcs): into x's record when they went on to the clause
 * after it and one branch target (all ones for lanes that finished, as the code counts them).
 * -1: they went elsewhere too (or no record), the caller hands the run over by itself. */
static int count_split(bx_jit_frame *fr, const bi_xclause *x, const bi_warp *w, uint32_t exec, unsigned n)
{
    uint32_t k = x->index;
    if (k >= BX_COUNT_MAX)
        return -1;
    uint32_t fall = x->c.offset + x->c.size, to = fall;
    unsigned fall_lanes = 0, taken_lanes = 0;
    int ends = x->c.hdr[BI_H_FLOW] == 0;          /* (the code counts an END clause's runs as fall) */
    for (unsigned l = 0; l < n; l++) {
        if (!((exec >> l) & 1))
            continue;
        if (w->done[l] && ends)
            return -1;
        uint32_t pc = w->done[l] ? UINT32_MAX : w->pc[l];   /* finished: the target all ones */
        if (pc == fall) {
            fall_lanes++;
        } else {
            if (taken_lanes && pc != to)
                return -1;
            to = pc;
            taken_lanes++;
        }
    }
    bx_count *r = taken_lanes ? count_record(k, to) : &counts.rec[k];
    if (!taken_lanes) {
        r->fall += fr->inc;
    } else if (!fall_lanes) {
        r->taken += fr->inc;
    } else {
        r->split += (fr->inc & ~((1ull << BX_COUNT_PARTIAL) - 1)) + fall_lanes;
        r->split_taken_lanes += taken_lanes;
    }
    return 0;
}

/* --stats: x's run for the observer, which sees every clause, where the code did not count it (rc:
 * the code's return value); out of bx_jit_run's loop, which calls it rarely */
static __attribute__((noinline)) void observe_run(bi_warp *w, bi_program *p, const bi_xclause *x, uint32_t exec,
                                                  bx_jit_frame *fr, int rc, unsigned n)
{
    if (!((const bx_jit_code *)x->jit)->counts ||
        (rc == BX_JIT_END_C ? count_split(fr, x, w, exec, n) : count_run(fr, x, w->pc[__builtin_ctz(exec)])))
        bi_exec_hook(w, p, x, exec);
}

LANE_LOOP int run_n(bi_warp *w, bi_program *p, bi_xclause **xp, uint32_t exec, unsigned *count, unsigned max,
                    bi_fault *f, unsigned n)
{
    bi_xclause *x = *xp;
    /* the thread's frame: its mapping slots stay filled while the memory says they are valid */
    bx_jit_frame *fr = &run_frame;
    const bi_mem *m = w->mem;
    uint64_t gen = m && m->map_gen ? __atomic_load_n(m->map_gen, __ATOMIC_ACQUIRE) : 0;
    if (!(m && m->map_gen && run_key.m == m && run_key.epoch == m->epoch && run_key.gen == gen)) {
        for (unsigned k = 0; k < BX_JIT_TLB; k++)
            fr->tlb[0][k].len = fr->tlb[1][k].len = fr->tlb[2][k].len = 0;
        run_key.m = m && m->map_gen ? m : NULL;
        run_key.epoch = m ? m->epoch : 0;
        run_key.gen = gen;
    }
    if (!run_lanes)
        for (unsigned l = 0; l < NL; l++)
            fr->res[0][0][l] = fr->res[0][1][l] = fr->zero[l] = 0;
    frame_mem(fr, w, f, 1);
    count_for(p, w, n);
    if (__builtin_expect(!counts.rec, 0))        /* compiled code may count (r15): never without records */
        return bx_fault(f, BI_FAULT_HOST, 0, "no host memory for the --stats clause records");
    fr->count = counts.rec;
    if (bi_exec_hook) {       /* --stats: no record's field may overflow: this call's runs are capped */
        if (counts.runs >= BX_COUNT_LIMIT)
            count_hand_over_all();
        if (max - *count > BX_COUNT_LIMIT - counts.runs)
            max = *count + (BX_COUNT_LIMIT - counts.runs);    /* (the caller calls again) */
    }
    uint32_t live = 0;
    for (unsigned l = 0; l < n; l++)
        live |= (uint32_t)!w->done[l] << l;
    uint32_t wait_pc = wait_pc_of(w, live, exec, n);
    if (run_lanes != n || fr->exec != exec) {     /* the commit masks of the last run are kept */
        frame_exec(fr, exec, wait_pc, n);
        run_lanes = n;
    } else {
        fr->wait_pc = wait_pc;
    }
    count_inc(fr, (live & ~exec) != 0);
    for (;;) {
        unsigned barriers = w->barriers;
        fr->nrun = 0;
        fr->budget = max - *count;
        int rc = ((const bx_jit_code *)x->jit)->entry(w, fr, x);
        *count += fr->nrun;
        counts.runs += fr->nrun;
        if (rc < 0) {
            /* the lanes stay at the faulting clause, as the interpreter leaves them (chained
             * clauses write their lanes' pc only where the run stops) */
            for (unsigned l = 0; l < n; l++)
                if ((exec >> l) & 1)
                    w->pc[l] = ((const bi_xclause *)fr->last)->c.offset;
            return rc;
        }
        x = (bi_xclause *)fr->last;
        *xp = x;
        if (rc == BX_JIT_END_C)
            clause_next(w, x, exec, &fr->st, n);
        if (__builtin_expect(bi_exec_hook != NULL, 0) &&
            (rc == BX_JIT_END_C || fr->uncounted || !((const bx_jit_code *)x->jit)->counts)) {
            observe_run(w, p, x, exec, fr, rc, n);       /* not counted by the code */
            fr->uncounted = BX_COUNT_NONE;
        }
        if (w->barriers != barriers)
            return BI_EXEC_BARRIER;
        if (w->blend_shader)
            return BI_EXEC_BLEND_CALL;
        if (w->helper)
            fr->map_ok = 0;                        /* a DISCARD made helper lanes (it ends a run
                                                      of chained clauses): no inline stores */
        if (*count >= max)
            return BI_EXEC_OK;
        /* the next lanes: those at the lowest pc of the lanes not done (bi_exec_program's rule) */
        uint32_t pc = UINT32_MAX, next_exec = 0;
        live = 0;
        for (unsigned l = 0; l < n; l++) {
            if (w->done[l])
                continue;
            live |= 1u << l;
            if (w->pc[l] < pc) {
                pc = w->pc[l];
                next_exec = 1u << l;
            } else if (w->pc[l] == pc) {
                next_exec |= 1u << l;
            }
        }
        if (!live)
            return BI_EXEC_END;                    /* every lane done (within max, as the caller's loop) */
        bi_xclause *next = __atomic_load_n(&x->next, __ATOMIC_ACQUIRE);
        if (!(next && next->c.offset == pc &&
              (!next->raw || (w->mem && __atomic_load_n(&next->epoch, __ATOMIC_ACQUIRE) == w->mem->epoch))) &&
            (rc = bx_program_next(p, w->mem, x, pc, &next, f)))
            return rc;
        if ((next_exec & exec) == exec) {
            /* x's lanes went on together to next: the code may chain to it next time.  (Stored
             * only when it changes: the header shares pages with compiled code, and a store there
             * costs what self-modifying code costs, a pipeline flush.) */
            bx_jit_code *code = (bx_jit_code *)x->jit;
            bi_xclause **succ = &code->succ[pc != x->c.offset + x->c.size];
            if (__atomic_load_n(succ, __ATOMIC_RELAXED) != next)
                __atomic_store_n(succ, next, __ATOMIC_RELEASE);
        }
        if (!next->jit)
            return BI_EXEC_OK;                     /* the caller finds it again through x->next */
        if (next_exec != exec) {
            exec = next_exec;
            frame_exec(fr, exec, wait_pc_of(w, live, exec, n), n);
        } else if (fr->wait_pc != UINT32_MAX) {
            /* same lanes: a lane outside them may have finished (wait_pc only ever rises) */
            fr->wait_pc = wait_pc_of(w, live, exec, n);
        }
        count_inc(fr, (live & ~exec) != 0);
        x = next;
    }
}

int bx_jit_run(bi_warp *w, bi_program *p, bi_xclause **xp, uint32_t exec, unsigned *count, unsigned max,
               bi_fault *f)
{
    return w->lanes == 8 ? run_n(w, p, xp, exec, count, max, f, 8) : run_n(w, p, xp, exec, count, max, f, 4);
}
