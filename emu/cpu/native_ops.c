/* Native back end: x86-64 code for the operations the translators describe
 * (integer data processing, loads and stores, branches).  Each emitter produces
 * exactly what the portable handler computes; where an operand does not fit the
 * x86 form it returns 0 and the portable handler is called instead. */
#include "native_simd.h"

#if MALIBU_HAVE_NATIVE

static inline void ldr(NCtx *x, int host, unsigned slot, int w) { rc_read(x, host, slot, w); }
static inline void str(NCtx *x, unsigned slot, int host) { rc_write(x, slot, host); }

/* Host register for the result in slot d (rdx for XZR), holding rn's value (low half,
 * zero-extended, for W32).  *keep, a source the caller still needs, moves to rax (rcx when
 * rn is rax, an XZR source) when it is the destination's register.  rewritten: the caller then writes rd with a W-wide x86
 * operation, which zero-extends by itself, so a W32 copy of a register onto itself is
 * left out. */
static void alu_imm(NCtx *x, int w, int op, int reg, uint64_t imm);

static int def_copy_w(NCtx *x, unsigned d, int rn, int w, int *keep, bool rewritten)
{
    int rd = d == REG_SINK ? X_RDX : rc_dst(x, d);
    if (keep && *keep == rd && rd != rn) {
        int t = rn == X_RAX ? X_RCX : X_RAX;
        x_mov_rr(&x->a, W64, t, rd);
        *keep = t;
    }
    if (rd != rn || (w == W32 && !rewritten))
        x_mov_rr(&x->a, w, rd, rn);
    return rd;
}

static int def_copy(NCtx *x, unsigned d, int rn, int w, int *keep)
{
    return def_copy_w(x, d, rn, w, keep, true);
}

/* Flags of rn - imm (CMP) or rn & imm (TST, and_op) without a result register. */
static void compare_imm(NCtx *x, int w, bool and_op, int rn, uint64_t imm)
{
    if (!and_op) {
        alu_imm(x, w, ALU_CMP, rn, imm);
    } else if (!w || fits_i32((int64_t)imm)) {
        x_test_ri(&x->a, w, rn, (int32_t)(uint32_t)imm);
    } else {
        x_mov_imm(&x->a, X_RCX, imm);
        x_test_rr(&x->a, w, rn, X_RCX);
    }
}

/* A modifiable copy of second operand r in rax, or rcx when rax holds the first (rn: XZR). */
static int to_tmp(NCtx *x, int r, int rn)
{
    int t = rn == X_RAX ? X_RCX : X_RAX;
    if (r != t)
        x_mov_rr(&x->a, W64, t, r);
    return t;
}

/* dst <- src extended as opt says (UXTB UXTH UXTW UXTX SXTB SXTH SXTW SXTX): one instruction,
 * none for UXTX/SXTX in place. */
static void extend_to(NCtx *x, int dst, int src, int opt)
{
    switch (opt) {
    case 0: x_movzx_rr(&x->a, dst, src, 0); break;
    case 1: x_movzx_rr(&x->a, dst, src, 1); break;
    case 2: x_mov_rr(&x->a, W32, dst, src); break;
    case 4: x_movsx_rr(&x->a, W64, dst, src, 0); break;
    case 5: x_movsx_rr(&x->a, W64, dst, src, 1); break;
    case 6: x_movsx_rr(&x->a, W64, dst, src, 2); break;
    default:
        if (dst != src)
            x_mov_rr(&x->a, W64, dst, src);
        break;
    }
}

/* Host register for a result in slot d: its cache register, rdx for XZR. */
static int dst_reg(NCtx *x, unsigned d)
{
    return d == REG_SINK ? X_RDX : rc_dst(x, d);
}

static int direct_cc(unsigned cond, int fl);

static bool host_sahf(void) { return native_host_has(HOST_LAHF); }

/* Does op d (at o) write all of NZCV without reading them, and without leaving the block or
 * touching guest memory first? */
static bool writes_all_flags(const NativeDesc *d)
{
    switch (d->kind) {
    case NK_ADDSUB_IMM: case NK_ADDSUB_REG: case NK_ADDSUB_EXT: return d->setf;
    case NK_LOGIC_IMM: case NK_LOGIC_REG: return d->op == 3; /* ANDS, TST */
    case NK_CMP_BRANCH: return true;
    default: return false;
    }
}

/* Emitters that test EFLAGS straight after the setter (live_cc) for these operands. */
static bool csel_may_use_live(const Op *o, const NativeDesc *d)
{
    return d->op != 3; /* CSNEG's neg writes EFLAGS; XZR operands are movs (rc_read_flags_kept) */
}

static bool ccmp_may_use_live(const Op *o, const NativeDesc *d)
{
    return o->n != REG_ZR && (d->size || o->m != REG_ZR);
}

/* Which of NZCV (bytes nf zf cf vf: bits 1 2 4 8) A64 condition cond reads. */
enum { NF_N = 1, NF_Z = 2, NF_C = 4, NF_V = 8, NF_ALL = 15 };
static unsigned cond_flags(unsigned cond)
{
    static const uint8_t f[8] = { NF_Z, NF_C, NF_N, NF_V, NF_C | NF_Z, NF_N | NF_V, NF_N | NF_V | NF_Z, 0 };
    return f[(cond >> 1) & 7];
}

/* Data processing that neither reads nor writes NZCV, cannot fault or leave, and writes o->d
 * only (the portable handler, when the emitter declines, too). */
static bool pure_op(const NativeDesc *d)
{
    switch (d->kind) {
    case NK_MOVI: case NK_MOV: case NK_MOVK: case NK_SHIFT_IMM: case NK_SHIFT_REG:
    case NK_EXTEND: case NK_BFM: case NK_BFI: case NK_MADD: case NK_EXTR: case NK_REV:
    case NK_CLZ: case NK_RBIT: case NK_MULL: case NK_DIV: case NK_DP1:
        return true;
    case NK_ADDSUB_IMM: case NK_ADDSUB_REG: case NK_ADDSUB_EXT: return !d->setf;
    case NK_LOGIC_IMM: case NK_LOGIC_REG: return d->op != 3;
    default: return false;
    }
}

/* An integer load or store emit_mem compiles natively (no portable handler call). */
static bool native_int_access(const Op *o, const NativeDesc *d)
{
    if (d->kind != NK_LOAD && d->kind != NK_STORE && d->kind != NK_LOADP && d->kind != NK_STOREP)
        return false;
    return !((d->sub == NAM_OFF || d->sub == NAM_PRE || d->sub == NAM_POST) && !fits_i32((int64_t)o->imm));
}

static bool branch_gotos_follow(const TB *tb, unsigned j)
{
    const Op *o = &tb->ops[j];
    return j + 2 < tb->n_ops && o[1].fn == op_goto_tb && (o[2].fn == op_goto_tb || o[2].fn == op_goto_next);
}

/* Can a data abort (user mode) or a soft-TLB miss's handler call (system mode) recompute the
 * NZCV of setter s by running its handler again later, as long as no register it reads or
 * writes changes in between? (Not when it overwrites a source.) */
static bool setter_repeatable(const Op *s, const NativeDesc *sd)
{
    if (sd->kind == NK_CMP_BRANCH) { /* fused kinds (tr_int.c): op 0 SUBS imm, 1 SUBS reg,
                                       * 2 ANDS imm, 3 ADDS imm, 4 ANDS reg (unshifted) */
        int op = sd->op >> 1;
        bool reg = op == 1 || op == 4;
        if (s->d == REG_SINK || (s->d != s->n && (!reg || s->d != s->m)))
            return true;
        return s->d == s->n && (op == 0 || op == 3); /* the source from the result (fl_copy) */
    }
    if (sd->kind == NK_ADDSUB_IMM && sd->setf && s->d == s->n)
        return true; /* SUBS/ADDS Xd, Xd, #imm: the source is the result -/+ imm (fl_copy) */
    if (sd->kind == NK_ADDSUB_REG && sd->setf && s->d == s->n && s->d != s->m && !s->x)
        return true; /* SUBS/ADDS Xd, Xd, Xm: the source is the result -/+ Xm (fl_copy) */
    bool reg = sd->kind == NK_ADDSUB_REG || sd->kind == NK_ADDSUB_EXT || sd->kind == NK_LOGIC_REG;
    if (sd->kind != NK_ADDSUB_IMM && sd->kind != NK_LOGIC_IMM && !reg)
        return false;
    return s->d == REG_SINK || (s->d != s->n && (!reg || s->d != s->m));
}

/* The abort path's NZCV of a setter its own handler cannot recompute: a fused compare-and-
 * branch (its handler branches) or a SUBS/ADDS (immediate, unshifted register) that overwrote
 * its source.  x: FLA_*
 * operation, FLA_SF, FLA_REG (operand b is Xm, else imm), FLA_INV (operand a is Xd +/- b,
 * the source recovered from the result, else Xn), FLA_ADJ (operand a is Xn less the signed
 * 24-bit x >> 8: Xn was since incremented by it, ne_loop_stale_edge).  Writes NZCV only. */
enum { FLA_SUB, FLA_ADD, FLA_AND, FLA_SF = 4, FLA_REG = 8, FLA_INV = 16, FLA_ADJ = 32 };
static Op *op_flags_again(CPUState *c, Op *o)
{
    unsigned f = o->x, op = f & 3;
    uint64_t b = (f & FLA_REG) ? c->x[o->m] : o->imm;
    uint64_t a = !(f & FLA_INV) ? c->x[o->n] : op == FLA_SUB ? c->x[o->d] + b : c->x[o->d] - b;
    if (f & FLA_ADJ)
        a -= (uint64_t)(int64_t)((int32_t)f >> 8);
    unsigned sh = (f & FLA_SF) ? 63 : 31;
    uint64_t m = (f & FLA_SF) ? ~0ull : 0xffffffffull;
    a &= m, b &= m;
    uint64_t r = (op == FLA_SUB ? a - b : op == FLA_ADD ? a + b : a & b) & m;
    c->nf = (uint8_t)(r >> sh & 1);
    c->zf = r == 0;
    if (op == FLA_AND) {
        c->cf = c->vf = 0;
    } else if (op == FLA_SUB) {
        c->cf = a >= b;
        c->vf = (uint8_t)(((a ^ b) & (a ^ r)) >> sh & 1);
    } else {
        c->cf = r < a;
        c->vf = (uint8_t)(((a ^ r) & (b ^ r)) >> sh & 1);
    }
    return o + 1;
}

/* A copy of setter i for the abort paths (flags_op), NULL when out of data space. */
static const Op *fl_copy(NCtx *x)
{
    const Op *s = &x->tb->ops[x->i];
    Op *cp = ne_op_copy(x, x->i);
    const NativeDesc *sd = native_desc(s->fn);
    unsigned f;
    if (!cp)
        return NULL;
    if (sd->kind == NK_CMP_BRANCH) {
        static const uint8_t fop[5] = { FLA_SUB, FLA_SUB, FLA_AND, FLA_ADD, FLA_AND };
        int op = sd->op >> 1;
        f = fop[op] | ((sd->op & 1) ? 0 : FLA_SF) | (op == 1 || op == 4 ? FLA_REG : 0);
    } else if (sd->kind == NK_ADDSUB_IMM && s->d == s->n) {
        f = (sd->op ? FLA_SUB : FLA_ADD) | (sd->sf ? FLA_SF : 0);
    } else if (sd->kind == NK_ADDSUB_REG && s->d == s->n && s->d != s->m && !s->x) {
        f = (sd->op ? FLA_SUB : FLA_ADD) | (sd->sf ? FLA_SF : 0) | FLA_REG;
    } else {
        return cp;
    }
    if (s->d == s->n && s->d != REG_SINK)
        f |= FLA_INV;
    cp->fn = op_flags_again;
    cp->x = f;
    return cp;
}

const Op *ne_flags_copy(NCtx *x, unsigned i, int32_t adj)
{
    unsigned keep = x->i;
    x->i = i;
    Op *cp = (Op *)fl_copy(x);
    x->i = keep;
    if (cp && adj) /* ne_loop_stale_edge made sure it is an op_flags_again of an immediate form */
        cp->x |= FLA_ADJ | (uint32_t)adj << 8;
    return cp;
}

/* Does writing guest register r change what setter s reads or writes?  (Immediate forms leave
 * m at 0: not a register they read.) */
static bool writes_setter_reg(const Op *s, const NativeDesc *sd, unsigned r)
{
    bool reg = sd->kind == NK_ADDSUB_REG || sd->kind == NK_ADDSUB_EXT || sd->kind == NK_LOGIC_REG ||
               (sd->kind == NK_CMP_BRANCH && ((sd->op >> 1) == 1 || (sd->op >> 1) == 4));
    return r != REG_SINK && (r == s->d || r == s->n || (reg && r == s->m));
}

/* Are NZCV dead from op k on: overwritten by the ops from there (computing only, in between;
 * through_heads: a loop head's label goes straight on) before anything reads them, leaves or
 * touches guest memory? */
static bool flags_dead_from(const TB *tb, unsigned k, bool through_heads)
{
    for (; k < tb->n_ops; k++) {
        if (through_heads && tb->ops[k].fn == op_loop_head)
            continue;
        const NativeDesc *d = native_desc(tb->ops[k].fn);
        if (!d)
            return false;
        if (writes_all_flags(d))
            return true;
        if (!pure_op(d))
            return false;
    }
    return false;
}

static bool flags_dead_after(const TB *tb, unsigned j) { return flags_dead_from(tb, j + 1, false); }

bool ne_flags_dead_at_entry(const TB *tb) { return flags_dead_from(tb, 0, true); }

bool ne_keeps_eflags(const Op *o, const NativeDesc *d)
{
    return d->kind == NK_MOVI || (d->kind == NK_MOV && o->n != REG_ZR);
}

/* Which of the NZCV the op being compiled (kind FL_*) sets must be stored now.  Scanning the
 * ops after it up to one that overwrites all four: a flag is needed when an op reads it from
 * CPUState (a test straight from EFLAGS by the next op does not), and all four when the
 * block may leave or run a portable handler before.  A conditional branch right after that
 * is a side exit stores them on that exit only (*pending).  Guest accesses in between need
 * them too unless the setter can be run again by the abort or miss path (*defer). */
static unsigned flags_needed(NCtx *x, int kind, bool *pending, bool *defer)
{
    const TB *tb = x->tb;
    unsigned i = x->i, need = 0;
    const Op *s = &tb->ops[i];
    const NativeDesc *sd = native_desc(s->fn);
    *pending = *defer = false;
    if (!sd)
        return NF_ALL;
    /* EFLAGS hold all four for the next op (after a CCMP on both of its paths: sahf) */
    bool live = writes_all_flags(sd) || (sd->kind == NK_CCMP && host_sahf());
    bool repeatable = setter_repeatable(s, sd);
    unsigned j = sd->kind == NK_CMP_BRANCH ? i : i + 1; /* a fused branch reads them itself */
    unsigned live_at = j; /* the op that may test EFLAGS: the next, past moves (ne_keeps_eflags) */
    for (const NativeDesc *m; sd->kind != NK_CMP_BRANCH && live_at < tb->n_ops &&
                              (m = native_desc(tb->ops[live_at].fn)) && ne_keeps_eflags(&tb->ops[live_at], m);)
        live_at++;
    for (; j < tb->n_ops; j++) {
        const Op *o = &tb->ops[j];
        const NativeDesc *d = native_desc(o->fn);
        if (o->fn == op_loop_head) /* its back edges store all four: so must the way in */
            return flags_dead_after(tb, j) ? need : NF_ALL;
        if (!d)
            return NF_ALL;
        bool next = live && j == live_at;
        if (j != i && writes_all_flags(d)) /* its emitter stores them, or its handler */
            return need;
        if (pure_op(d)) {
            if (writes_setter_reg(s, sd, o->d))
                repeatable = false;
            continue;
        }
        switch (d->kind) {
        case NK_CSEL:
            if (!(next && csel_may_use_live(o, d) && d->cond < 14 && direct_cc(d->cond, kind) >= 0))
                need |= cond_flags(d->cond);
            if (writes_setter_reg(s, sd, o->d))
                repeatable = false;
            continue;
        case NK_ADC: /* reads C (from EFLAGS when next: ne_adc_live_carry); ADCS writes all four */
            if (!next)
                need |= NF_C;
            if (d->setf)
                return need;
            if (writes_setter_reg(s, sd, o->d))
                repeatable = false;
            continue;
        case NK_CCMP: /* reads cond, then writes all four */
            if (!(next && ccmp_may_use_live(o, d) && d->cond < 14 && direct_cc(d->cond, kind) >= 0))
                need |= cond_flags(d->cond);
            return need;
        case NK_BCOND:
        case NK_CMP_BRANCH: {
            if (!branch_gotos_follow(tb, j))
                return NF_ALL;
            bool lv = next && d->cond < 14 && direct_cc(d->cond, kind) >= 0;
            if (!lv || tb->ops[j + 2].fn != op_goto_next)
                return NF_ALL; /* the exit needs all four in CPUState */
            *pending = true;   /* stored on the side exit, from EFLAGS */
            j += 2;
            continue;
        }
        default:
            if (!native_int_access(o, d) || !repeatable)
                return NF_ALL;
            *defer = true;
            if (d->kind == NK_LOAD || d->kind == NK_LOADP)
                if (writes_setter_reg(s, sd, o->d) || (d->kind == NK_LOADP && writes_setter_reg(s, sd, o->a)))
                    repeatable = false;
            if ((d->sub == NAM_PRE || d->sub == NAM_POST) && writes_setter_reg(s, sd, o->n))
                repeatable = false;
            continue;
        }
    }
    return NF_ALL;
}

bool ne_through_needed(const TB *tb, unsigned i)
{
#ifdef CONFIG_SYSTEM
    (void)tb, (void)i;
    return true;
#else
    /* Code writes (the SIGSEGV handler of a store to a code page) and handlers set exit_request
     * synchronously; the block's entry and a loop's back edge tested it after the last such op
     * before this one unless an op in between stores, calls a handler or leaves. */
    for (unsigned j = 0; j < i; j++) {
        const Op *o = &tb->ops[j];
        const NativeDesc *d = native_desc(o->fn);
        if (o->fn == op_goto_through || o->fn == op_loop_head || (d && pure_op(d)))
            continue; /* a loop head's back edges test it before they jump */
        if (!d || (d->kind != NK_LOAD && d->kind != NK_LOADP) || !native_int_access(o, d))
            return true;
    }
    return false;
#endif
}

/* Can the abort path recompute the NZCV of fused compare s from Xn after op o (a pure op
 * writing Xn) by FLA_ADJ?  When o is ADD Xn, Xn, #k and s compares Xn with an immediate. */
static bool adjustable(const Op *s, const NativeDesc *sd, const Op *o, const NativeDesc *d, int32_t *adj)
{
    int op = sd->op >> 1;
    int64_t k = (int64_t)o->imm;
    if (s->d != REG_SINK || (op != 0 && op != 2 && op != 3) || d->kind != NK_ADDSUB_IMM || d->setf ||
        o->d != s->n || o->n != s->n || k < -(1 << 23) || k >= (1 << 23))
        return false;
    if (!d->sf && !(sd->op & 1)) /* a 32-bit add lost the high half a 64-bit compare reads */
        return false;
    *adj = (int32_t)k;
    return true;
}

/* The first fused compare from op start whose taken side is the head (its ops from op from),
 * the block going on after: ne_loop_stale_edge. */
static int stale_edge_from(const TB *tb, unsigned from, uint64_t head_pc, unsigned start, unsigned *adj_op,
                           int32_t *adj)
{
    *adj_op = ~0u;
    *adj = 0;
    unsigned e = start;
    while (e + 2 < tb->n_ops && !(tb->ops[e + 1].fn == op_goto_tb && tb->ops[e + 1].imm == head_pc &&
                                  tb->ops[e + 2].fn == op_goto_next))
        e++;
    if (e + 2 >= tb->n_ops)
        return -1;
    const Op *s = &tb->ops[e];
    const NativeDesc *sd = native_desc(s->fn);
    if (!sd || sd->kind != NK_CMP_BRANCH || !setter_repeatable(s, sd))
        return -1;
    /* the loop head up to the first op that writes all four (the compare itself at the latest) */
    bool clobbered = false; /* a source of the compare was written: no access after that */
    for (unsigned j = from; j < e; j++) {
        const Op *o = &tb->ops[j];
        if (o->fn == op_loop_head)
            return -1; /* its way in would reach this head's fault sites with another byte */
        if (o->fn == op_goto_through) {
            if (ne_through_needed(tb, j))
                return -1; /* its exit would need NZCV */
            continue;
        }
        const NativeDesc *d = native_desc(o->fn);
        if (!d)
            return -1;
        if (writes_all_flags(d))
            break;
        if (pure_op(d)) {
            if (writes_setter_reg(s, sd, o->d)) {
                if (!clobbered && *adj_op == ~0u && adjustable(s, sd, o, d, adj))
                    *adj_op = j; /* the accesses after it recompute from Xn - adj */
                else
                    clobbered = true;
            }
            continue;
        }
        if (!native_int_access(o, d) || clobbered)
            return -1;
        if (d->kind == NK_LOAD || d->kind == NK_LOADP)
            clobbered |= writes_setter_reg(s, sd, o->d) || (d->kind == NK_LOADP && writes_setter_reg(s, sd, o->a));
        if (d->sub == NAM_PRE || d->sub == NAM_POST)
            clobbered |= writes_setter_reg(s, sd, o->n);
    }
    return (int)e;
}

int ne_loop_stale_edge(const TB *tb, unsigned from, uint64_t head_pc, unsigned *adj_op, int32_t *adj)
{
    return stale_edge_from(tb, from, head_pc, from, adj_op, adj);
}

int ne_loop_stale_edge_after(const TB *tb, unsigned from, uint64_t head_pc, unsigned after)
{
    unsigned adj_op;
    int32_t adj;
    int e = stale_edge_from(tb, from, head_pc, after + 1, &adj_op, &adj);
    return e >= 0 && adj_op == ~0u ? e : -1;
}

static Op *op_flags_select(CPUState *c, Op *o)
{
    Op *copy = c->loop_nzcv_stale == 2 ? (Op *)o->link : (Op *)(uintptr_t)o->imm;
    copy->fn(c, copy);
    return o + 1;
}

const Op *ne_flags_select(NCtx *x, const Op *first, const Op *second)
{
    Op *sel = ne_op_copy(x, 0); /* two data slots: the selector and a return op */
    if (sel) {
        sel[0].fn = op_flags_select;
        sel[0].imm = (uint64_t)(uintptr_t)first;
        sel[0].link = (struct TB *)(uintptr_t)second;
    }
    return sel;
}

static void emit_flag_stores_of(NCtx *x, int kind, unsigned need)
{
    Asm *a = &x->a;
    if (need & NF_N)
        x_setcc_m(a, CC_S, HR_CPU, CPU_OFF(nf));
    if (need & NF_Z)
        x_setcc_m(a, CC_E, HR_CPU, CPU_OFF(zf));
    if (kind == FL_LOGIC) {
        if (need & (NF_C | NF_V))
            x_store_imm16(a, HR_CPU, CPU_OFF(cf), 0); /* C and V (adjacent bytes) */
        return;
    }
    if (need & NF_C)
        x_setcc_m(a, kind == FL_SUB ? CC_AE : CC_B, HR_CPU, CPU_OFF(cf));
    if (need & NF_V)
        x_setcc_m(a, CC_O, HR_CPU, CPU_OFF(vf));
}

static void emit_flag_stores(NCtx *x, int kind) { emit_flag_stores_of(x, kind, NF_ALL); }

/* NZCV from the x86 flags of the operation just done: only those read before all four are
 * written again (flags_needed). */
static void store_flags(NCtx *x, int kind)
{
    bool pending, defer;
    x->live_fl = kind; /* setcc and byte stores leave EFLAGS alone */
    x->live_next = x->i + 1;
    unsigned need = flags_needed(x, kind, &pending, &defer);
    x->flags_op = NULL;
    if (need != NF_ALL && defer && !(x->flags_op = fl_copy(x)))
        need = NF_ALL;
    x->pending_fl = pending ? kind : -1;
    x->pending_need = need;
    if (!pending) /* else cond_branch stores them: all four on the side exit, need after it */
        emit_flag_stores_of(x, kind, need);
}

void ne_store_flags(NCtx *x, int kind) { store_flags(x, kind); }
void ne_store_all_flags(NCtx *x, int kind) { emit_flag_stores(x, kind); }

/* reg <op>= imm, for a 64-bit immediate (via rcx when it does not sign-extend from 32). */
static void alu_imm(NCtx *x, int w, int op, int reg, uint64_t imm)
{
    if (!w || fits_i32((int64_t)imm)) {
        x_alu_ri(&x->a, w, op, reg, (int32_t)(uint32_t)imm);
    } else {
        x_mov_imm(&x->a, X_RCX, imm);
        x_alu_rr(&x->a, w, op, reg, X_RCX);
    }
}

static const int shift_op[4] = { SH_SHL, SH_SHR, SH_SAR, SH_ROR };

/* ---- conditional branches ------------------------------------------------------------------ */

/* ops o+1 (taken) and o+2 (not taken) are the two gotos; branch on x86 condition cc. */
static unsigned cond_branch(NCtx *x, const Op *o, int cc)
{
    if (cc == CC_ALWAYS) {
        ne_goto(x, o[1].imm);
        return 3;
    }
    if (o[2].fn == op_goto_next) { /* the block goes on: the taken side is a side exit */
        int kind = x->pending_fl; /* >= 0: EFLAGS still hold them (jcc and setcc leave them) */
        x->pending_fl = -1;
        if (!ne_side_exit(x, cc, kind, o[1].imm, o[2].x)) { /* a loop's back edge: in line */
            uint8_t *on = x_jcc(&x->a, cc ^ 1);
            const struct NeLoopHead *h = x->head;
            while (h < x->head + x->n_heads &&
                   !(h->pc == o[1].imm && h->stale_copy &&
                     (h->stale_edge == (int)x->i || (h->stale_copy2 && h->stale_edge2 == (int)x->i))))
                h++;
            if (h < x->head + x->n_heads && h->label) {
                /* a back edge ne_loop_stale_edge chose: NZCV left out, recomputable by its copy */
                x_store_imm8(&x->a, HR_CPU, CPU_OFF(loop_nzcv_stale), h->stale_edge == (int)x->i ? 1 : 2);
                x->stale_taken = true;
            } else if (kind >= 0) {
                emit_flag_stores(x, kind);
            }
            ne_goto_side(x, o[1].imm, o[2].x);
            x->stale_taken = false;
            x_patch(on, x->a.p);
        }
        if (kind >= 0) /* what the code after the branch reads (flags_needed) */
            emit_flag_stores_of(x, kind, x->pending_need);
        return 3;
    }
    /* each path writes back its own registers (ne_goto), so a loop's back edge keeps them */
    uint8_t *taken = x_jcc(&x->a, cc);
    ne_goto(x, o[2].imm);
    x_patch(taken, x->a.p);
    ne_goto(x, o[1].imm);
    return 3;
}

static bool gotos_follow(NCtx *x, const Op *o)
{
    return x->i + 2 < x->tb->n_ops && o[1].fn == op_goto_tb && (o[2].fn == op_goto_tb || o[2].fn == op_goto_next);
}

/* x86 condition after a SUB (is_sub) or ADD/AND for A64 cond; -1 if none maps. */
static int direct_cc(unsigned cond, int fl)
{
    static const int after_sub[14] = { CC_E, CC_NE, CC_AE, CC_B, CC_S, CC_NS, CC_O, CC_NO,
                                       CC_A, CC_BE, CC_GE, CC_L, CC_G, CC_LE };
    if (fl == FL_SUB)
        return after_sub[cond];
    if (cond == 2)
        return CC_B; /* CS: carry out (ADD) / C=0 (AND: CF=0) */
    if (cond == 3)
        return CC_AE;
    if (cond == 8 || cond == 9)
        return -1;   /* HI/LS need C && !Z */
    return after_sub[cond];
}

/* x86 condition for A64 cond straight from EFLAGS when the previous op left its flags there
 * (and nothing emitted since changed them), else -1: read the stored flags. */
static int live_cc(NCtx *x, unsigned cond)
{
    if (x->live_next != x->i || cond >= 14)
        return -1;
    return direct_cc(cond, x->live_fl);
}

/* A compare (CMP, TST: Rd = XZR; plain or fused with its branch) that can be done again in
 * EFLAGS for a later reader: its operands an unshifted register or an immediate. */
typedef struct { int w, fl, rn, rm; uint64_t imm; } Remat;

static bool remat_form(const Op *s, const NativeDesc *d, Remat *r)
{
    bool reg;
    if (s->d != REG_SINK)
        return false;
    r->w = d->sf ? W64 : W32;
    switch (d->kind) {
    case NK_ADDSUB_IMM: if (!d->setf || !d->op) return false; r->fl = FL_SUB, reg = false; break;
    case NK_ADDSUB_REG: if (!d->setf || !d->op || s->x) return false; r->fl = FL_SUB, reg = true; break;
    case NK_LOGIC_IMM: if (d->op != 3) return false; r->fl = FL_LOGIC, reg = false; break;
    case NK_LOGIC_REG: if (d->op != 3 || d->size || s->x) return false; r->fl = FL_LOGIC, reg = true; break;
    case NK_CMP_BRANCH: { /* tr_int.c: op 0 SUBS imm, 1 SUBS reg, 2 ANDS imm, 3 ADDS imm, 4 ANDS reg */
        int op = d->op >> 1;
        if (op == 3)
            return false;
        r->w = !(d->op & 1);
        r->fl = op <= 1 ? FL_SUB : FL_LOGIC;
        reg = op == 1 || op == 4;
        break;
    }
    default:
        return false;
    }
    r->rn = s->n;
    r->rm = reg ? s->m : -1;
    r->imm = s->imm;
    return !(r->fl == FL_LOGIC && !reg && r->w && !fits_i32((int64_t)r->imm)) && r->rn != REG_ZR &&
           r->rm != REG_ZR;
}

/* Can the reader being compiled get cond by doing the block's last flag setter again in EFLAGS
 * (flags_cc)?  When that setter is a compare of remat_form, the ops since only compute (no
 * access, handler, branch or label between) and write neither operand, and both operands are
 * in cache registers now.  Its emitter stored the flags the reader needs; testing those bytes
 * is a load waiting on that store, on the path to the reader's result (the carry of a csel in
 * the kernel's bignum loops), where the compare again is one register op. */
static bool remat_find(const NCtx *x, unsigned cond, Remat *r)
{
    if (cond >= 14)
        return false;
    const TB *tb = x->tb;
    unsigned j = x->i;
    while (j > 0) {
        const NativeDesc *d = native_desc(tb->ops[--j].fn);
        if (!d)
            return false;
        if (pure_op(d))
            continue;
        const Op *s = &tb->ops[j];
        if (!remat_form(s, d, r) || direct_cc(cond, r->fl) < 0)
            return false;
        for (unsigned k = j + 1; k < x->i; k++)
            if (writes_setter_reg(s, d, tb->ops[k].d))
                return false;
        return x->rc_of[r->rn] >= 0 && (r->rm < 0 || x->rc_of[r->rm] >= 0);
    }
    return false;
}

int ne_adc_live_carry(const NCtx *x)
{
    return x->live_next == x->i ? x->live_fl : -1;
}

/* live_cc, else the compare again in EFLAGS (remat_find), else -1: read the stored flags. */
static int flags_cc(NCtx *x, unsigned cond)
{
    int cc = live_cc(x, cond);
    Remat r;
    if (cc >= 0 || !remat_find(x, cond, &r))
        return cc;
    int rn = rc_src(x, (unsigned)r.rn, X_RAX); /* cached: no code */
    if (r.rm >= 0 && r.fl == FL_SUB)
        x_alu_rr(&x->a, r.w, ALU_CMP, rn, rc_src(x, (unsigned)r.rm, X_RCX));
    else if (r.rm >= 0)
        x_test_rr(&x->a, r.w, rn, rc_src(x, (unsigned)r.rm, X_RCX));
    else
        compare_imm(x, r.w, r.fl == FL_LOGIC, rn, r.imm);
    return direct_cc(cond, r.fl);
}

/* ---- loads and stores ---------------------------------------------------------------------- */

/* extend_to's extension of a UXTW or SXTW index. */
static int index_extension(int mode)
{
    return mode == NAM_UXTW ? 2 : 6;
}

/* Is the UXTW/SXTW index of access o its register's value as it stands (user mode: the
 * register is known narrow enough, native_near.c), so that it indexes unextended? */
static bool index_as_is(const NCtx *x, const Op *o, int mode)
{
    return (mode == NAM_UXTW || mode == NAM_SXTW) && ne_near_extend_is_value(x, o->m, index_extension(mode));
}

/* rax <- the access address of a load/store op (for post-index: the base). */
static bool mem_address(NCtx *x, const Op *o, int mode)
{
    Asm *a = &x->a;
    if ((mode == NAM_OFF || mode == NAM_PRE || mode == NAM_POST) && !fits_i32((int64_t)o->imm))
        return false;
    if (mode == NAM_OFF || mode == NAM_PRE) { /* one lea from the cached base */
        int rn = rc_src(x, o->n, X_RAX);
        if (o->imm)
            x_lea(a, W64, X_RAX, rn, X_NONE, (int32_t)o->imm);
        else if (rn != X_RAX)
            x_mov_rr(a, W64, X_RAX, rn);
        return true;
    }
    if ((mode == NAM_XREG || mode == NAM_UXTW || mode == NAM_SXTW) && o->x <= 3) {
        /* base + (extended) index << 0..3: one lea */
        int rn = rc_src(x, o->n, X_RCX); /* a base is never XZR: cached (or rcx when frozen) */
        int rm;
        if (mode == NAM_XREG || index_as_is(x, o, mode)) {
            rm = rc_src(x, o->m, X_RAX);
        } else { /* the extended index in rax: one extending move */
            extend_to(x, X_RAX, rc_src(x, o->m, X_RAX), index_extension(mode));
            rm = X_RAX;
        }
        x_lea_sib(a, X_RAX, rn, rm, (unsigned)o->x, 0);
        return true;
    }
    ldr(x, X_RAX, o->n, W64);
    switch (mode) {
    case NAM_OFF:
    case NAM_PRE:
        if (o->imm)
            x_alu_ri(a, W64, ALU_ADD, X_RAX, (int32_t)o->imm);
        break;
    case NAM_POST:
        break;
    case NAM_UXTW:
        ldr(x, X_RCX, o->m, W32);
        goto scaled;
    case NAM_SXTW:
        ldr(x, X_RCX, o->m, W64);
        extend_to(x, X_RCX, X_RCX, 6);
        goto scaled;
    default:
        ldr(x, X_RCX, o->m, W64);
    scaled:
        x_shift_ri(a, W64, SH_SHL, X_RCX, (uint8_t)o->x);
        x_alu_rr(a, W64, ALU_ADD, X_RAX, X_RCX);
        break;
    }
    return true;
}

#ifdef CONFIG_SYSTEM
#include "sys_cpu.h"
/* The access of op x->i is an LDTR/STTR's at EL1: an unprivileged begin op (sys_translate.c
 * sys_tr_unpriv) precedes it within the same guest instruction. */
static bool unpriv_access(const NCtx *x)
{
    const Op *ops = x->tb->ops;
    for (unsigned j = x->i; j-- > 0 && ops[j].pc == ops[x->i].pc;) {
        const NativeDesc *d = native_desc(ops[j].fn);
        if (d && d->kind == NK_CPU_FIELD && d->sub == NCF_UNPRIV)
            return d->op == 0;
    }
    return false;
}

void ne_tlb_index(Asm *a, int dst, int src)
{
    if (native_host_has(HOST_BMI2)) {
        x_rorx(a, W64, dst, src, 12 - 6); /* the bits rotated into the top fall outside the mask */
    } else {
        x_mov_rr(a, W64, dst, src);
        x_shift_ri(a, W64, SH_SHR, dst, 12 - 6);
    }
    x_alu_ri(a, W32, ALU_AND, dst, (int32_t)((SYS_TLB_SIZE - 1) << 6));
}

uint8_t *ne_tlb_probe(NCtx *x, bool write, unsigned bytes, int addend)
{
    Asm *a = &x->a;
    _Static_assert(sizeof(SysTlbEntry) == 64, "entry index scaling");
    /* The table SysCPU.tlb points to is known here, so the probe indexes it from HR_CPU:
     * tlbs[el] (blocks are compiled when translated, in the state they are for), tlbs[0]
     * between LDTR/STTR's begin and end ops (sys_unpriv_begin). */
    unsigned el = unpriv_access(x) || !sys_cpu(x->c)->el ? 0 : 1; /* as sys_update_mode */
    int32_t table = (int32_t)(offsetof(SysCPU, tlbs) + el * sizeof(((SysCPU *)0)->tlbs[0]));
    int32_t tag = table + (int32_t)(write ? offsetof(SysTlbEntry, tag_w) : offsetof(SysTlbEntry, tag_r));
    ne_tlb_index(a, X_RCX, X_RAX);
    x_lea(a, W64, X_RDX, X_RAX, X_NONE, (int32_t)bytes - 1);
    x_alu_ri(a, W64, ALU_AND, X_RDX, -4096);
    x_op_mem(a, W64, ALU_CMP * 8 + 3, -1, X_RDX, HR_CPU, X_RCX, tag, false); /* cmp rdx, tag */
    uint8_t *miss = x_jcc(a, CC_NE);
    x_op_mem(a, W64, 0x8B, -1, addend, HR_CPU, X_RCX, table + (int32_t)offsetof(SysTlbEntry, addend), false);
    return miss;
}
#endif

/* A register written by a load or a writeback.  System mode (the cache frozen, site the
 * access's miss path): a cached register takes the value and the miss path reloads it from
 * CPUState, where the handler wrote it; an uncached one goes to CPUState. */
static void mem_result(NCtx *x, int site, unsigned slot, int host)
{
    rc_write(x, slot, host);
#ifdef CONFIG_SYSTEM
    if (slot != REG_SINK && x->rc_of[slot] >= 0)
        ne_slow_reload(x, site, rc_claim(x, slot), slot);
#else
    (void)site;
#endif
}

/* Base register update of pre/post-indexed forms (rax = the access address). */
static void writeback(NCtx *x, int site, const Op *o, int mode)
{
    if (mode == NAM_PRE) {
        mem_result(x, site, o->n, X_RAX);
    } else if (mode == NAM_POST) {
        if (o->imm)
            x_alu_ri(&x->a, W64, ALU_ADD, X_RAX, (int32_t)o->imm);
        mem_result(x, site, o->n, X_RAX);
    }
}

/* xmm <- an S/D/Q value at host address base + index + disp, the rest of xmm zeroed. */
static void fp_load_xmm(NCtx *x, int size, int xmm, int base, int index, int32_t disp)
{
    if (size == 2)
        x_movd_xm(&x->a, xmm, base, index, disp);
    else if (size == 3)
        x_movq_xm(&x->a, xmm, base, index, disp);
    else
        x_movdqu_xm(&x->a, xmm, base, index, disp);
}

static uint32_t op_scratch(NCtx *x, const Op *o, const NativeDesc *d);

/* Registers and host address of one guest access (emit_mem, emit_access). */
typedef struct {
    int rt, rt2;        /* load destinations: cache registers, or rdx/rcx (mem_result) */
    int sd, sd2;        /* store data */
    int miss;           /* system mode: the miss path, which reloads cached destinations */
    int site;           /* user mode: the guest-access site its fault points name */
    int hb, hi;         /* host address: hb + hi + disp */
    int32_t disp;
} Access;

static bool is_write_kind(int kind)
{
    return kind == NK_STORE || kind == NK_STOREP || kind == NK_FSTORE || kind == NK_FSTOREP;
}

static bool is_fp_kind(int kind)
{
    return kind == NK_FLOAD || kind == NK_FSTORE || kind == NK_FLOADP || kind == NK_FSTOREP;
}

/* The access itself, once the address is checked. */
static void emit_access(NCtx *x, const Op *o, const NativeDesc *d, Access *r)
{
    Asm *a = &x->a;
    const int HB = r->hb, HI = r->hi;
    const int32_t D = r->disp, step = (int32_t)(1u << d->size);
#ifdef CONFIG_SYSTEM
#define FAULT_POINT() ((void)0)
#else
#define FAULT_POINT() ne_fault_point(x, r->site)
#endif
    switch (d->kind) {
    case NK_LOAD:
        FAULT_POINT();
        x_ldx(a, d->size, d->sext != 0, d->sext == 1, r->rt, HB, HI, D);
        if (r->rt == X_RDX)
            mem_result(x, r->miss, o->d, X_RDX);
        else
            rc_set_dirty(x, o->d);
        break;
    case NK_STORE:
        FAULT_POINT();
        x_stx(a, d->size, r->sd, HB, HI, D);
        break;
    case NK_LOADP: /* Rt2 then Rt: Rt wins when equal */
        if (r->rt == r->rt2) { /* system mode, not claimed: both through rdx */
            x_ldx(a, d->size, d->sext != 0, d->sext == 1, X_RDX, HB, HI, D + step);
            mem_result(x, r->miss, o->a, X_RDX);
            x_ldx(a, d->size, d->sext != 0, d->sext == 1, X_RDX, HB, HI, D);
            mem_result(x, r->miss, o->d, X_RDX);
            break;
        }
        FAULT_POINT();
        x_ldx(a, d->size, d->sext != 0, d->sext == 1, r->rt, HB, HI, D);
        FAULT_POINT();
        x_ldx(a, d->size, d->sext != 0, d->sext == 1, r->rt2, HB, HI, D + step);
        if (r->rt2 == X_RCX)
            mem_result(x, r->miss, o->a, X_RCX);
        else
            rc_set_dirty(x, o->a);
        if (r->rt == X_RDX)
            mem_result(x, r->miss, o->d, X_RDX);
        else
            rc_set_dirty(x, o->d);
        break;
    case NK_STOREP:
        FAULT_POINT();
        x_stx(a, d->size, r->sd, HB, HI, D);
#ifdef CONFIG_SYSTEM
        r->sd2 = rc_src(x, o->a, X_RDX); /* rdx is free again */
#endif
        FAULT_POINT();
        x_stx(a, d->size, r->sd2, HB, HI, D + step);
        break;
    case NK_FLOAD: /* B/H/S/D loads zero the rest of the V register */
        FAULT_POINT();
        fp_load_xmm(x, d->size, 0, HB, HI, D);
        x_movdqu_mx(a, HR_CPU, X_NONE, voff(o->d), 0);
        break;
    case NK_FLOADP: /* both into xmm0/xmm1 first (a fault leaves V unchanged); Rt2 wins */
        FAULT_POINT();
        fp_load_xmm(x, d->size, 0, HB, HI, D);
        FAULT_POINT();
        fp_load_xmm(x, d->size, 1, HB, HI, D + step);
        x_movdqu_mx(a, HR_CPU, X_NONE, voff(o->d), 0);
        x_movdqu_mx(a, HR_CPU, X_NONE, voff(o->a), 1);
        break;
    case NK_FSTOREP:
        if (d->size == 4) {
            x_movdqu_xm(a, 0, HR_CPU, X_NONE, voff(o->d));
            x_movdqu_xm(a, 1, HR_CPU, X_NONE, voff(o->a));
            FAULT_POINT();
            x_movdqu_mx(a, HB, HI, D, 0);
            FAULT_POINT();
            x_movdqu_mx(a, HB, HI, D + step, 1);
        } else {
            x_load(a, d->size == 3 ? W64 : W32, X_RDX, HR_CPU, voff(o->d));
            FAULT_POINT();
            x_stx(a, d->size, X_RDX, HB, HI, D);
            x_load(a, d->size == 3 ? W64 : W32, X_RDX, HR_CPU, voff(o->a));
            FAULT_POINT();
            x_stx(a, d->size, X_RDX, HB, HI, D + step);
        }
        break;
    case NK_FSTORE:
        if (d->size == 4) {
            x_movdqu_xm(a, 0, HR_CPU, X_NONE, voff(o->d));
            FAULT_POINT();
            x_movdqu_mx(a, HB, HI, D, 0);
        } else {
            x_load(a, d->size == 3 ? W64 : W32, X_RDX, HR_CPU, voff(o->d));
            FAULT_POINT();
            x_stx(a, d->size, X_RDX, HB, HI, D);
        }
        break;
    }
#undef FAULT_POINT
}

/* Does the access (an integer load) write register slot base? */
static bool writes_base(const Op *o, const NativeDesc *d, unsigned base)
{
    return (d->kind == NK_LOAD && o->d == base) || (d->kind == NK_LOADP && (o->d == base || o->a == base));
}

static unsigned access_bytes(const NativeDesc *d)
{
    bool pair = d->kind == NK_LOADP || d->kind == NK_STOREP || d->kind == NK_FLOADP || d->kind == NK_FSTOREP;
    return (pair ? 2u : 1u) << d->size;
}

#define RUN_MAX_OPS 8     /* system mode: the miss path's reloads, 2 per op */
#define RUN_MAX_SPAN 256  /* bytes one check covers for a run: within a page (system mode),
                           * within the guard region after the guest window (user mode) */

/* Accesses off one base register in the same direction, op after op, that one check can
 * cover (a stack frame's saves, a structure's fields, a table cleared): the soft-TLB probe of
 * the first over the whole span (system mode), the guest-window check of the first (user
 * mode).  Returns the number of ops from o's on (1: none follow), with *span (unless NULL)
 * the bytes from o's address to the end of the furthest.  o has the lowest offset; none of them but the last
 * writes the base; none is LDTR/STTR (their begin op sits between). */
static unsigned access_run(const NCtx *x, const Op *o, const NativeDesc *d, unsigned *span)
{
    unsigned bytes = access_bytes(d), n = 1;
    bool write = is_write_kind(d->kind);
    bool may_run = d->sub == NAM_OFF && !writes_base(o, d, o->n);
    for (; may_run && n < RUN_MAX_OPS && x->i + n < x->tb->n_ops; n++) {
        const Op *p = o + n;
        const NativeDesc *e = native_desc(p->fn);
        if (!e || !ne_is_mem_kind(e->kind) || e->sub != NAM_OFF || is_write_kind(e->kind) != write || p->n != o->n ||
            (int64_t)p->imm < (int64_t)o->imm || (is_fp_kind(e->kind) && e->size < 2))
            break;
        int64_t end = (int64_t)p->imm - (int64_t)o->imm + access_bytes(e);
        if (end > RUN_MAX_SPAN)
            break;
        if (end > bytes)
            bytes = (unsigned)end;
        may_run = !writes_base(p, e, o->n); /* the run ends with this op */
    }
    if (span)
        *span = bytes;
    return n;
}

#ifndef CONFIG_SYSTEM
/* User mode, guest address = host address (guest_mem_init, CPUState.guest_base NULL): the
 * access's own base (and index, scaled by 1-8) registers and offset as its host address, when they
 * are cache registers once the operands are in place (rcx and rdx hold none that the op uses as
 * scratch: op_scratch).  mem_address left the same address in rax for the window
 * check and the writeback; a load's address then no longer waits on that lea (a pointer
 * chase: and; ldrh [x10, x1, lsl #1] went from 7 to 5 host cycles in a microbenchmark of the
 * two forms).  Else rax: host address rax + rel, rel being the offset from the run's first op. */
static void zero_base_operands(NCtx *x, const Op *o, int mode, int32_t disp, int32_t rel, Access *r)
{
    if ((mode == NAM_UXTW || mode == NAM_SXTW) && r->hi == X_RAX) { /* own_address's index */
        r->hb = rc_src(x, o->n, X_RCX);
        r->hi = X_SCALED(X_RAX, o->x);
        r->disp = 0;
        return;
    }
    int b = x->rc_of[o->n];
    int i = mode == NAM_XREG && o->x <= 3 && o->m != REG_ZR ? x->rc_of[o->m] : -1;
    r->hb = X_RAX, r->hi = X_NONE, r->disp = rel;
    if (b < 0 || (mode == NAM_XREG && i < 0) || (mode != NAM_OFF && mode != NAM_PRE && mode != NAM_POST &&
                                                 mode != NAM_XREG))
        return;
    int hb = rc_src(x, o->n, X_RAX), hi = i >= 0 ? rc_src(x, o->m, X_RAX) : X_NONE;
    if (hb == X_RAX || hi == X_RAX) /* not cached (XZR, frozen): rax it is */
        return;
    r->hb = hb, r->hi = hi == X_NONE ? X_NONE : X_SCALED(hi, o->x);
    r->disp = mode == NAM_OFF || mode == NAM_PRE ? disp : 0;
}

/* User mode, guest address = host address: is access o (addressing mode: as formed) one that
 * zero_base_operands addresses by its own registers, those put in the cache?  Then an unchecked
 * one needs no address in rax. */
static bool own_address(NCtx *x, const Op *o, int mode, Access *r)
{
    bool ext = mode == NAM_UXTW || mode == NAM_SXTW;
    if (mode == NAM_OFF ? !fits_i32((int64_t)o->imm) : (mode != NAM_XREG && !ext) || o->x > 3 ||
                                                       (mode == NAM_XREG && o->m == REG_ZR))
        return false;
    rc_src(x, o->n, X_RAX);
    if (mode == NAM_XREG)
        rc_src(x, o->m, X_RAX);
    if (x->rc_of[o->n] < 0 || (mode == NAM_XREG && x->rc_of[o->m] < 0))
        return false;
    if (ext) { /* the extended index in rax */
        extend_to(x, X_RAX, rc_src(x, o->m, X_RAX), index_extension(mode));
        r->hi = X_RAX;
    }
    return true;
}

/* User mode: an access's store data and load destinations in r, before its check.  Store data
 * first, from the cache (rdx, rcx: XZR): the cache must not change between the check and the
 * access.  A load's destination straight into its cache register (not for writeback forms,
 * where Rt may be the base); a pair's Rt through rdx (a fault at the second access must leave
 * it as it was), Rt2 (the second load: a fault comes before it writes) into its cache
 * register. */
static void user_operands(NCtx *x, const Op *o, const NativeDesc *d, Access *r)
{
    bool direct = d->sub != NAM_PRE && d->sub != NAM_POST;
    r->sd = r->rt = X_RDX;
    r->sd2 = r->rt2 = X_RCX;
    if (d->kind == NK_STORE || d->kind == NK_STOREP)
        r->sd = rc_src(x, o->d, X_RDX);
    if (d->kind == NK_STOREP)
        r->sd2 = rc_src(x, o->a, X_RCX);
    if (d->kind == NK_LOAD && o->d != REG_SINK && direct)
        r->rt = rc_claim(x, o->d);
    if (d->kind == NK_LOADP && o->a != REG_SINK && o->d != o->a && direct)
        r->rt2 = rc_claim(x, o->a);
}
#endif


static unsigned emit_mem(NCtx *x, const Op *o, const NativeDesc *d)
{
    int mode = d->sub;
    bool write = is_write_kind(d->kind);
    if (is_fp_kind(d->kind) && d->size < 2)
        return 0; /* B/H forms stay portable */
    int amode = index_as_is(x, o, mode) ? NAM_XREG : mode; /* how the address is formed */
    Access r = { .rt = X_RDX, .rt2 = X_RDX, .sd = X_RDX, .sd2 = X_RDX, .miss = -1, .site = -1, .disp = 0,
                 .hi = X_NONE };
#ifdef CONFIG_SYSTEM
    bool rax_set = true;
#else
    bool zero_base = !x->c->guest_base;
    /* no check where the known ranges of its registers bound the address (native_near.c) */
    bool unchecked = ne_near_covered(x, o, mode);
    /* and then no address in rax when the access's own registers form it */
    bool rax_set = !(zero_base && unchecked && own_address(x, o, amode, &r));
#endif
    if (rax_set && !mem_address(x, o, amode))
        return 0;
#ifdef CONFIG_SYSTEM
    /* A load's destinations: straight into their cache registers, claimed before the probe's
     * branch (an eviction's store is on both paths); the miss path reloads them.  Not for
     * writeback forms (Rt may be the base) nor a pair into one register. */
    bool direct = mode != NAM_PRE && mode != NAM_POST;
    if (d->kind == NK_LOAD && o->d != REG_SINK && direct)
        r.rt = rc_claim(x, o->d);
    if (d->kind == NK_LOADP && o->d != REG_SINK && o->a != REG_SINK && o->d != o->a && direct) {
        r.rt = rc_claim(x, o->d);
        r.rt2 = rc_claim(x, o->a);
    }
    /* Store data into cache registers too (the cache freezes at the probe): a loop storing a
     * register it does not otherwise touch then has it cached from the head on, not loaded
     * into rdx on every round. */
    if ((d->kind == NK_STORE || d->kind == NK_STOREP) && o->d != REG_ZR)
        rc_src(x, o->d, X_RDX);
    if (d->kind == NK_STOREP && o->a != REG_ZR)
        rc_src(x, o->a, X_RDX);
    /* One probe for a run of accesses off this base (access_run); a miss runs each of its ops'
     * handlers in turn.  The miss path writes the dirty cached registers back for the handler
     * (ne_slow_site). */
    unsigned span, n_ops = access_run(x, o, d, &span);
    r.miss = ne_slow_site(x, ne_tlb_probe(x, write, span, X_RCX));
    ne_slow_ops(x, r.miss, n_ops);
    if (r.rt != X_RDX)
        ne_slow_reload(x, r.miss, r.rt, o->d);
    if (r.rt2 != X_RDX)
        ne_slow_reload(x, r.miss, r.rt2, o->a);
    x->rc_frozen = true; /* fast path only from here: no new cache entries */
    if (d->kind == NK_STORE || d->kind == NK_STOREP)
        r.sd = rc_src(x, o->d, X_RDX); /* store data: from the cache, else loaded into rdx */
    r.hb = X_RCX, r.hi = X_RAX; /* host address: the entry's addend + rax */
#else
    unsigned n_ops = access_run(x, o, d, NULL);
    user_operands(x, o, d, &r);
    r.site = unchecked ? ne_guest_access_unchecked(x, write) : ne_guest_access(x, write);
    if (zero_base)
        zero_base_operands(x, o, amode, (int32_t)o->imm, 0, &r);
    else
        r.hb = HR_GUEST_BASE, r.hi = X_RAX; /* host address: guest_base + rax */
#endif
    emit_access(x, o, d, &r);
    writeback(x, r.miss, o, mode);
#ifndef CONFIG_SYSTEM
    ne_near_access(x, o, d, mode, mode == NAM_PRE || mode == NAM_POST); /* it completed */
#endif
    /* the rest of the run: rax as checked or probed, each at its offset from o's.  System mode:
     * the same addend; their destinations through rdx, as the cache stays frozen until the
     * run's end.  User mode: at most RUN_MAX_SPAN past a checked address (in the guard region
     * at worst, a host fault like any other), each a fault site of its own with the registers
     * of its own point. */
    for (unsigned k = 1; k < n_ops; k++) {
        const Op *p = o + k;
        const NativeDesc *e = native_desc(p->fn);
        Access q = r;
        q.disp = (int32_t)(p->imm - o->imm);
#ifdef CONFIG_SYSTEM
        q.rt = q.rt2 = q.sd = q.sd2 = X_RDX;
        if (e->kind == NK_STORE || e->kind == NK_STOREP)
            q.sd = rc_src(x, p->d, X_RDX);
#else
        x->i++; /* the op being compiled: fault sites and the cache's next-use scans */
        rc_scratch(x, op_scratch(x, p, e));
        if (!rax_set && x->rc_of[o->n] < 0) { /* the base left the cache: rax = o's address */
            x_lea(&x->a, W64, X_RAX, rc_src(x, o->n, X_RAX), X_NONE, (int32_t)o->imm);
            rax_set = true;
        }
        user_operands(x, p, e, &q);
        q.site = ne_guest_access_unchecked(x, is_write_kind(e->kind));
        if (zero_base)
            zero_base_operands(x, p, NAM_OFF, (int32_t)p->imm, q.disp, &q);
#endif
        emit_access(x, p, e, &q);
#ifndef CONFIG_SYSTEM
        ne_near_access(x, p, e, NAM_OFF, false);
#endif
    }
#ifdef CONFIG_SYSTEM
    x->rc_frozen = false;
    ne_slow_resume(x, r.miss, x->a.p);
#endif
    return n_ops;
}

/* ---- integer data processing --------------------------------------------------------------- */

/* The compare of a fused compare-and-branch (kind as tr_int.c), leaving x86 flags set. */
static int cmp_branch_compare(NCtx *x, const Op *o, int kind)
{
    int w = !(kind & 1), op = kind >> 1; /* 0 SUBS imm, 1 SUBS reg, 2 ANDS imm, 3 ADDS imm, 4 ANDS reg */
    int alu = op <= 1 ? ALU_SUB : op == 3 ? ALU_ADD : ALU_AND;
    int rn = rc_src(x, o->n, X_RAX);
    if (o->d == REG_SINK && alu != ALU_ADD) { /* CMP / TST: flags only */
        if (op == 1)
            x_alu_rr(&x->a, w, ALU_CMP, rn, rc_src(x, o->m, X_RCX));
        else if (op == 4)
            x_test_rr(&x->a, w, rn, rc_src(x, o->m, X_RCX));
        else
            compare_imm(x, w, alu == ALU_AND, rn, o->imm);
    } else if (op == 1 || op == 4) {
        int rm = rc_src(x, o->m, X_RCX);
        int rd = def_copy(x, o->d, rn, w, &rm);
        x_alu_rr(&x->a, w, alu, rd, rm);
    } else {
        int rd = def_copy(x, o->d, rn, w, NULL);
        alu_imm(x, w, alu, rd, o->imm);
    }
    int fl = op <= 1 ? FL_SUB : op == 3 ? FL_ADD : FL_LOGIC;
    store_flags(x, fl);
    return fl;
}

static unsigned emit_op(NCtx *x, const Op *o, const NativeDesc *d);

/* CSEL's result computed in rax from cached operands: no XZR operand (an xor, into rdx/rcx)
 * and a condition whose test leaves rax alone (from EFLAGS, one flag byte, or always). */
static bool csel_in_rax(NCtx *x, const Op *o, const NativeDesc *d)
{
    int cc = csel_may_use_live(o, d) ? live_cc(x, d->cond) : -1;
    Remat r;
    if (cc < 0 && csel_may_use_live(o, d) && remat_find(x, d->cond, &r))
        cc = CC_ALWAYS; /* flags_cc will test EFLAGS */
    return o->n != REG_ZR && o->m != REG_ZR && (cc >= 0 || d->cond >= 14 || (d->cond >> 1) < 4);
}

/* NZCV f (N Z C V, bits 3..0) as the AH that sahf loads into SF ZF CF, in the sense of a
 * compare (sub: CF = NOT C) or of an add (CF = C); OF is set apart. */
static uint8_t sahf_ah(uint32_t f, bool sub)
{
    unsigned cf = sub ? !(f >> 1 & 1) : f >> 1 & 1;
    return (uint8_t)((f >> 3 & 1) << 7 | (f >> 2 & 1) << 6 | 2 | cf);
}

/* A CCMP whose condition is the stored C (CS/CC, its setter not just before): both outcomes
 * made and one picked by cmov, no branch, as such a carry is often data (bignum code's
 * `adds; adc; ccmp ..., cs` mispredicts half the time).  The compare's flags (lahf, seto) or
 * the failed condition's NZCV (rcx) go back into EFLAGS by an add (OF) and sahf. */
static bool ccmp_select(NCtx *x, const Op *o, const NativeDesc *d)
{
    Remat r;
    return d->op && (d->cond >> 1) == 1 && host_sahf() && ccmp_may_use_live(o, d) && live_cc(x, d->cond) < 0 &&
           !remat_find(x, d->cond, &r);
}

/* CSEL's result in res: f(rm) (CSINC +1, CSINV ~, CSNEG -), then rn where cond holds (cc, or
 * the stored flags' test when cc < 0); the caller writes it to Rd. */
static void csel_into(NCtx *x, const Op *o, const NativeDesc *d, int cc, int res, int rn, int rm)
{
    Asm *a = &x->a;
    int w = d->sf ? W64 : W32;
    if (res != rm)
        x_mov_rr(a, w, res, rm);
    if (d->op == 1)
        x_lea(a, w, res, res, X_NONE, 1);
    else if (d->op == 2)
        x_not(a, w, res);
    else if (d->op == 3)
        x_neg(a, w, res);
    if (cc < 0)
        cc = ne_cond(x, d->cond);
    if (cc == CC_ALWAYS)
        x_mov_rr(a, w, res, rn);
    else
        x_cmov(a, w, cc, res, rn);
}

/* Which of rcx and rdx (bits 1 << X_RCX, 1 << X_RDX) op o's emitter may write as scratch.
 * Both unless the emitter is known to leave them alone for these operands: only then may
 * the register cache (user mode) keep guest registers there across the op.  An emitter
 * changed to use rcx or rdx for more operands must say so here (tests/unit/test_regions.c,
 * `cached_rcx_rdx_survive_ops`, runs each kind with every cache register live). */
static uint32_t op_scratch(NCtx *x, const Op *o, const NativeDesc *d)
{
    const uint32_t RCX = 1u << X_RCX, RDX = 1u << X_RDX, BOTH = RCX | RDX;
    bool zr = o->n == REG_ZR || o->m == REG_ZR; /* an XZR source: zeroed scratch */
    bool sink = o->d == REG_SINK;                /* result to XZR: rdx (def_copy) */
    int mode = d->sub;
    switch (d->kind) {
    case NK_MOVI: case NK_MOV: case NK_REV: case NK_EXTEND: case NK_CONTEXT_SYNC:
    case NK_GOTO: case NK_BL: case NK_BR: case NK_BLR: case NK_RET: case NK_BCOND: case NK_CB:
        return 0;
    case NK_TB:
        return o->imm <= 0xffffffffu ? 0 : RCX;
    case NK_SHIFT_IMM: case NK_BFM:
        return sink ? RDX : 0;
    case NK_ADDSUB_IMM: case NK_LOGIC_IMM:
        return (sink ? RDX : 0) | (d->sf && !fits_i32((int64_t)o->imm) ? RCX : 0);
    case NK_ADDSUB_REG: case NK_LOGIC_REG: case NK_EXTR: case NK_ADDSUB_EXT:
        return zr ? BOTH : sink ? RDX : 0;
    case NK_CMP_BRANCH: /* the width is op's low bit (cmp_branch_compare), not sf */
        return zr ? BOTH : (sink ? RDX : 0) | (!(d->op & 1) && !fits_i32((int64_t)o->imm) ? RCX : 0);
    case NK_CSEL:
        return csel_in_rax(x, o, d) ? 0 : BOTH;
    case NK_CCMP:
        return o->n == REG_ZR || (!d->size && o->m == REG_ZR) ? BOTH : ccmp_select(x, o, d) ? RCX : 0;
    case NK_MADD:
        return zr || (d->op < 2 && o->a == REG_ZR) ? RCX : 0;
    case NK_SHIFT_REG:
        return RCX;
    case NK_LOAD: case NK_STORE: case NK_STOREP: case NK_FLOAD: case NK_FLOADP:
    case NK_FSTORE: case NK_FSTOREP: {
        uint32_t m = 0;
        if (mode != NAM_OFF && mode != NAM_PRE && mode != NAM_POST &&
            !((mode == NAM_XREG || mode == NAM_UXTW || mode == NAM_SXTW) && o->x <= 3 && o->m != REG_ZR))
            m |= RCX; /* an index shifted in rcx */
        if (d->kind == NK_LOAD && (sink || mode == NAM_PRE || mode == NAM_POST))
            m |= RDX;
        if (d->kind == NK_STORE && o->d == REG_ZR)
            m |= RDX;
        if (d->kind == NK_STOREP && (o->d == REG_ZR || o->a == REG_ZR))
            m |= BOTH;
        if ((d->kind == NK_FSTORE || d->kind == NK_FSTOREP) && d->size != 4)
            m |= BOTH;
        return m;
    }
    case NK_ATOMIC: /* system mode: the host address in rsi (native_atomic.c) */
#ifdef CONFIG_SYSTEM
        return BOTH | 1u << X_RSI;
#else
        return BOTH;
#endif
    default:
        return BOTH;
    }
}

unsigned ne_emit_op(NCtx *x, const Op *o, const NativeDesc *d)
{
    rc_scratch(x, op_scratch(x, o, d));
    unsigned used = emit_op(x, o, d);
    /* Left to the portable handler: one that may write NZCV leaves them current in CPUState
     * (flags_needed let only pure ops through while the setter's copy is pending). */
    if (!used && !pure_op(d))
        x->flags_op = NULL;
    return used;
}

static unsigned emit_op(NCtx *x, const Op *o, const NativeDesc *d)
{
    Asm *a = &x->a;
    int w = d->sf ? W64 : W32;
    switch (d->kind) {
    case NK_MOVI:
        if (o->d != REG_SINK)
            x_mov_imm(a, rc_dst(x, o->d), o->imm);
        return 1;
    case NK_MOV: {
        int rn = rc_src(x, o->n, X_RAX);
        if (o->d != REG_SINK)
            x_mov_rr(a, w, rc_dst(x, o->d), rn);
        return 1;
    }
    case NK_MOVK:
        ldr(x, X_RAX, o->d, W64);
        x_mov_imm(a, X_RCX, ~(0xffffull << o->x));
        x_alu_rr(a, W64, ALU_AND, X_RAX, X_RCX);
        alu_imm(x, W64, ALU_OR, X_RAX, o->imm);
        if (!d->sf)
            x_mov_rr(a, W32, X_RAX, X_RAX);
        str(x, o->d, X_RAX);
        return 1;
    case NK_ADDSUB_IMM: {
        if (o->d == REG_SINK && d->setf && d->op) { /* CMP */
            compare_imm(x, w, false, rc_src(x, o->n, X_RAX), o->imm);
            store_flags(x, FL_SUB);
            return 1;
        }
        int rn = rc_src(x, o->n, X_RAX);
        if (!d->setf && fits_i32((int64_t)o->imm)) {
            int rd = dst_reg(x, o->d);
            if (rd != rn) { /* one lea: rd = rn +/- imm (W32: the low half, zero-extended) */
                x_lea(a, w, rd, rn, X_NONE, d->op ? -(int32_t)o->imm : (int32_t)o->imm);
                return 1;
            }
        }
        int rd = def_copy(x, o->d, rn, w, NULL);
        alu_imm(x, w, d->op ? ALU_SUB : ALU_ADD, rd, o->imm);
        if (d->setf)
            store_flags(x, d->op ? FL_SUB : FL_ADD);
        return 1;
    }
    case NK_LOGIC_IMM: {
        static const int alu[4] = { ALU_AND, ALU_OR, ALU_XOR, ALU_AND };
        if (o->d == REG_SINK && d->op == 3) { /* TST */
            compare_imm(x, w, true, rc_src(x, o->n, X_RAX), o->imm);
            store_flags(x, FL_LOGIC);
            return 1;
        }
        int rd = def_copy(x, o->d, rc_src(x, o->n, X_RAX), w, NULL);
        alu_imm(x, w, alu[d->op], rd, o->imm);
        if (d->op == 3)
            store_flags(x, FL_LOGIC);
        return 1;
    }
    case NK_ADDSUB_REG: {
        int rn = rc_src(x, o->n, X_RAX), rm = rc_src(x, o->m, X_RCX);
        if (!d->setf && !d->op && (!o->x || (d->sub == 0 && o->x <= 3))) {
            int rd = dst_reg(x, o->d);
            if (rd != rn || o->x) { /* ADD, LSL #0-3: one lea rd = rn + (rm << x) */
                x_lea_sib_w(a, w, rd, rn, rm, (unsigned)o->x, 0);
                return 1;
            }
        }
        if (d->sub < 4 && o->x) {
            rm = to_tmp(x, rm, rn);
            x_shift_ri(a, w, shift_op[d->sub], rm, (uint8_t)o->x);
        }
        if (o->d == REG_SINK && d->setf && d->op) { /* CMP */
            x_alu_rr(a, w, ALU_CMP, rn, rm);
            store_flags(x, FL_SUB);
            return 1;
        }
        int rd = def_copy(x, o->d, rn, w, &rm);
        x_alu_rr(a, w, d->op ? ALU_SUB : ALU_ADD, rd, rm);
        if (d->setf)
            store_flags(x, d->op ? FL_SUB : FL_ADD);
        return 1;
    }
    case NK_LOGIC_REG: {
        static const int alu[4] = { ALU_AND, ALU_OR, ALU_XOR, ALU_AND };
        int rn = rc_src(x, o->n, X_RAX), rm = rc_src(x, o->m, X_RCX);
        bool andn = d->size && (d->op == 0 || d->op == 3) && o->d != REG_SINK && native_host_has(HOST_BMI1);
        if (d->sub == 3 && o->x && native_host_has(HOST_BMI2)) { /* ROR into the temporary */
            int t = rn == X_RAX ? X_RCX : X_RAX;
            x_rorx(a, w, t, rm, (uint8_t)o->x);
            rm = t;
        } else if (d->sub < 4 && o->x) {
            rm = to_tmp(x, rm, rn);
            x_shift_ri(a, w, shift_op[d->sub], rm, (uint8_t)o->x);
        }
        if (andn) { /* BIC BICS: rd = ~rm & rn in one */
            x_andn(a, w, dst_reg(x, o->d), rm, rn);
            if (d->op == 3)
                store_flags(x, FL_LOGIC);
            return 1;
        }
        if (d->size) { /* inverted operand: BIC ORN EON BICS */
            rm = to_tmp(x, rm, rn);
            x_not(a, w, rm);
        }
        if (o->d == REG_SINK && d->op == 3) { /* TST */
            x_test_rr(a, w, rn, rm);
            store_flags(x, FL_LOGIC);
            return 1;
        }
        int rd = def_copy(x, o->d, rn, w, &rm);
        x_alu_rr(a, w, alu[d->op], rd, rm);
        if (d->op == 3)
            store_flags(x, FL_LOGIC);
        return 1;
    }
    case NK_ADDSUB_EXT: { /* the extended, shifted Rm in rax (rcx if Rn were XZR) */
        int rn = rc_src(x, o->n, X_RAX);
        int t = rn == X_RAX ? X_RCX : X_RAX;
        bool lea = !d->setf && !d->op && o->x <= 3;
        int rm = rc_src(x, o->m, t);
        if (lea && ne_near_extend_is_value(x, o->m, d->sub))
            t = rm; /* Rm's value is its extension: unmoved */
        else
            extend_to(x, t, rm, d->sub);
        if (lea) { /* one lea rd = rn + (extended rm << x) */
            x_lea_sib_w(a, w, dst_reg(x, o->d), rn, t, (unsigned)o->x, 0);
            return 1;
        }
        x_shift_ri(a, W64, SH_SHL, t, (uint8_t)o->x);
        int rd = def_copy(x, o->d, rn, w, NULL);
        x_alu_rr(a, w, d->op ? ALU_SUB : ALU_ADD, rd, t);
        if (d->setf)
            store_flags(x, d->op ? FL_SUB : FL_ADD);
        return 1;
    }
    case NK_SHIFT_IMM: {
        int rd = def_copy_w(x, o->d, rc_src(x, o->n, X_RAX), w, NULL, (o->x & 0xff) != 0);
        x_shift_ri(a, w, shift_op[d->op], rd, (uint8_t)o->x);
        return 1;
    }
    case NK_SHIFT_REG:
        ldr(x, X_RAX, o->n, w);
        ldr(x, X_RCX, o->m, W32);
        x_shift_rcl(a, w, shift_op[d->op], X_RAX); /* count masked to 5/6 bits: as A64 */
        str(x, o->d, X_RAX);
        return 1;
    case NK_EXTEND: { /* size: source width; sext: 1 to 64, 2 to 32, 0 zero */
        if (o->d == REG_SINK)
            return 1;
        int rn = rc_src(x, o->n, X_RAX), rd = rc_dst(x, o->d);
        if (d->sext == 0)
            x_movzx_rr(a, rd, rn, d->size);
        else
            x_movsx_rr(a, d->sext == 1 ? W64 : W32, rd, rn, d->size);
        return 1;
    }
    case NK_BFM: { /* ((Rn << p0) >> p1) << p2, op: arithmetic right shift */
        unsigned p0 = o->x & 63, p1 = (o->x >> 8) & 63, p2 = (uint8_t)(o->x >> 16);
        unsigned bits = d->sf ? 64 : 32, k = bits - p1; /* the field's width */
        if (p1 >= p0 && (d->op ? p1 == p0 && (k == 8 || k == 16 || k == 32) : k <= 32) && k < bits) {
            /* UBFX/UBFIZ (field of at most 32 bits), SBFIZ/SXT of 8/16/32 bits: the field
             * by an extending move (or move, shift and a 32-bit and), then the shift left */
            if (o->d == REG_SINK)
                return 1;
            int rn = rc_src(x, o->n, X_RAX), rd = rc_dst(x, o->d);
            if (d->op) {
                x_movsx_rr(a, w, rd, rn, k == 8 ? 0 : k == 16 ? 1 : 2);
            } else if (p1 == p0 && (k == 8 || k == 16)) {
                x_movzx_rr(a, rd, rn, k == 16);
            } else {
                x_mov_rr(a, p1 - p0 + k <= 32 ? W32 : w, rd, rn);
                x_shift_ri(a, w, SH_SHR, rd, (uint8_t)(p1 - p0));
                if (k < 32)
                    x_alu_ri(a, W32, ALU_AND, rd, (int32_t)((1u << k) - 1));
                else if (p1 - p0 + k > 32)
                    x_mov_rr(a, W32, rd, rd);
            }
            x_shift_ri(a, w, SH_SHL, rd, (uint8_t)p2);
            return 1;
        }
        bool shifts = (o->x & 63) || ((o->x >> 8) & 63) || (uint8_t)(o->x >> 16);
        int rd = def_copy_w(x, o->d, rc_src(x, o->n, X_RAX), w, NULL, shifts);
        x_shift_ri(a, w, SH_SHL, rd, (uint8_t)(o->x & 63));
        x_shift_ri(a, w, d->op ? SH_SAR : SH_SHR, rd, (uint8_t)((o->x >> 8) & 63));
        x_shift_ri(a, w, SH_SHL, rd, (uint8_t)(o->x >> 16));
        return 1;
    }
    case NK_BFI: /* Rd = (Rd & ~mask) | (ROR(Rn, x) & mask) */
        ldr(x, X_RAX, o->n, w);
        x_shift_ri(a, w, SH_ROR, X_RAX, (uint8_t)o->x);
        ldr(x, X_RCX, o->d, w);
        x_mov_imm(a, X_RDX, o->imm);
        x_alu_rr(a, w, ALU_AND, X_RAX, X_RDX);
        x_not(a, w, X_RDX);
        x_alu_rr(a, w, ALU_AND, X_RCX, X_RDX);
        x_alu_rr(a, w, ALU_OR, X_RAX, X_RCX);
        str(x, o->d, X_RAX);
        return 1;
    case NK_CSEL: { /* op: 0 CSEL, 1 CSINC, 2 CSINV, 3 CSNEG */
        /* EFLAGS survive the operand loads (movs; XZR would be an xor), lea and not */
        bool in_rax = csel_in_rax(x, o, d); /* before flags_cc's compare: the same cache */
        int cc = csel_may_use_live(o, d) ? flags_cc(x, d->cond) : -1;
        if (in_rax) { /* operands in the cache, result through rax */
            int rn = rc_src(x, o->n, X_RDX), rm = rc_src(x, o->m, X_RCX);
            /* into Rd's cache register (not Rn's: the move of Rm would overwrite it) */
            int res = o->d != REG_SINK && o->d != o->n ? rc_claim(x, o->d) : X_RAX;
            csel_into(x, o, d, cc, res, rn, rm); /* ne_cond: flag bytes only, rax kept */
            if (res == X_RAX)
                str(x, o->d, X_RAX);
            else
                rc_set_dirty(x, o->d); /* made in its cache register */
            return 1;
        }
        rc_read_flags_kept(x, X_RDX, o->n, w);
        rc_read_flags_kept(x, X_RCX, o->m, w);
        csel_into(x, o, d, cc, X_RCX, X_RDX, X_RCX);
        str(x, o->d, X_RCX);
        return 1;
    }
    case NK_EXTR: { /* (Rm >> x) | (Rn << (width - x)), 0 < x < width */
        if (o->n == o->m) { /* ROR: a one-uop rotate (shrd is several on some hosts) */
            int rm = rc_src(x, o->m, X_RAX);
            if (native_host_has(HOST_BMI2)) {
                x_rorx(a, w, dst_reg(x, o->d), rm, (uint8_t)o->x);
                return 1;
            }
            int rd = def_copy(x, o->d, rm, w, NULL);
            x_shift_ri(a, w, SH_ROR, rd, (uint8_t)o->x);
            return 1;
        }
        int rn = rc_src(x, o->n, X_RCX);
        int rd = def_copy(x, o->d, rc_src(x, o->m, X_RAX), w, &rn);
        x_shrd_ri(a, w, rd, rn, (uint8_t)o->x);
        return 1;
    }
    case NK_REV: /* byte reverse of the whole register (REV / REV W) */
        ldr(x, X_RAX, o->n, w);
        x_bswap(a, w, X_RAX);
        str(x, o->d, X_RAX);
        return 1;
    case NK_CLZ: /* width - 1 - bsr, and width for zero (bsr leaves ZF set) */
        if (native_host_has(HOST_LZCNT)) {
            int rn = rc_src(x, o->n, X_RAX); /* before Rd's register is chosen */
            x_lzcnt(a, w, dst_reg(x, o->d), rn);
            return 1;
        }
        ldr(x, X_RAX, o->n, w);
        x_mov_imm(a, X_RCX, d->sf ? 127 : 63);
        x_bsr(a, w, X_RAX, X_RAX);
        x_cmov(a, w, CC_E, X_RAX, X_RCX);
        x_alu_ri(a, w, ALU_XOR, X_RAX, d->sf ? 63 : 31);
        str(x, o->d, X_RAX);
        return 1;
    case NK_RBIT: {
        const NativeDesc *nd = x->i + 1 < x->tb->n_ops ? native_desc(o[1].fn) : NULL;
        if (nd && nd->kind == NK_CLZ && nd->sf == d->sf && o[1].n == o->d && o[1].d == o->d &&
            o->d != REG_SINK) {
            /* RBIT + CLZ of the result into the same register: count trailing zeros (BSF
             * sets ZF for a zero source, whose count is the width) */
            if (native_host_has(HOST_BMI1)) {
                int rn = rc_src(x, o->n, X_RAX);
                x_tzcnt(a, w, dst_reg(x, o->d), rn);
                return 2;
            }
            ldr(x, X_RAX, o->n, w);
            x_mov_imm(a, X_RCX, d->sf ? 64 : 32);
            x_bsf(a, w, X_RAX, X_RAX);
            x_cmov(a, w, CC_E, X_RAX, X_RCX);
            str(x, o->d, X_RAX);
            return 2;
        }
        /* byte swap, then swap nibbles, bit pairs and bits within each byte */
        static const uint64_t mask[3] = { 0x0F0F0F0F0F0F0F0Full, 0x3333333333333333ull, 0x5555555555555555ull };
        ldr(x, X_RAX, o->n, w);
        x_bswap(a, w, X_RAX);
        for (int k = 0; k < 3; k++) {
            uint8_t sh = (uint8_t)(4 >> k);
            x_mov_imm(a, X_RDX, d->sf ? mask[k] : (uint32_t)mask[k]);
            x_mov_rr(a, w, X_RCX, X_RAX);
            x_shift_ri(a, w, SH_SHR, X_RCX, sh);
            x_alu_rr(a, w, ALU_AND, X_RCX, X_RDX);
            x_alu_rr(a, w, ALU_AND, X_RAX, X_RDX);
            x_shift_ri(a, w, SH_SHL, X_RAX, sh);
            x_alu_rr(a, w, ALU_OR, X_RAX, X_RCX);
        }
        str(x, o->d, X_RAX);
        return 1;
    }
    case NK_CCMP: { /* op: CCMP (sub) / CCMN; size: immediate form; x = NZCV << 28 if cond fails */
        if (ccmp_select(x, o, d)) {
            int rn = rc_src(x, o->n, X_RDX);
            if (d->size)
                x_alu_ri(a, w, ALU_CMP, rn, (int32_t)o->imm);
            else
                x_alu_rr(a, w, ALU_CMP, rn, rc_src(x, o->m, X_RCX));
            x_lahf(a);
            x_setcc_r8(a, CC_O, X8_AL);
            uint32_t f = o->x >> 28; /* N Z C V: ah for sahf, al OF */
            x_mov_imm(a, X_RCX, (uint32_t)sahf_ah(f, true) << 8 | (f & 1));
            x_cmov(a, W32, ne_cond(x, d->cond) ^ 1, X_RAX, X_RCX);
            x_add_al_i(a, 0x7f); /* OF = (al == 1) */
            x_sahf(a);
            store_flags(x, FL_SUB);
            return 1;
        }
        int cc = ccmp_may_use_live(o, d) ? flags_cc(x, d->cond) : -1;
        /* operands first (cached, or rdx/rcx for XZR): no cache changes inside the two paths */
        int rn = rc_src(x, o->n, X_RDX), rm = d->size ? -1 : rc_src(x, o->m, X_RCX);
        if (cc < 0)
            cc = ne_cond(x, d->cond);
        uint8_t *fail = cc == CC_ALWAYS ? NULL : x_jcc(a, cc ^ 1);
        if (!d->op) { /* CCMN: the sum in rax (ne_cond's use of it is over) */
            x_mov_rr(a, w, X_RAX, rn);
            rn = X_RAX;
        }
        if (d->size)
            x_alu_ri(a, w, d->op ? ALU_CMP : ALU_ADD, rn, (int32_t)o->imm);
        else
            x_alu_rr(a, w, d->op ? ALU_CMP : ALU_ADD, rn, rm);
        if (fail && host_sahf()) {
            /* the failed condition's NZCV as x86 flags (OF by an add, SF ZF CF by sahf), so
             * both paths leave EFLAGS as a compare would: a B.cond/CSEL next tests them
             * directly and the stores are those store_flags picks, after the join */
            uint8_t *done = x_jmp(a);
            x_patch(fail, a->p);
            uint32_t f = o->x >> 28; /* N Z C V */
            if (f & 1) {
                x_mov_r8i(a, X8_AL, 0x7f);
                x_add_al_i(a, 1); /* OF */
            } else {
                x_alu_rr(a, W32, ALU_XOR, X_RAX, X_RAX);
            }
            x_mov_r8i(a, X8_AH, sahf_ah(f, d->op)); /* SF ZF CF */
            x_sahf(a);
            x_patch(done, a->p);
            store_flags(x, d->op ? FL_SUB : FL_ADD);
            return 1;
        }
        store_flags(x, d->op ? FL_SUB : FL_ADD);
        if (fail) {
            uint8_t *done = x_jmp(a);
            x_patch(fail, a->p);
            uint32_t f = o->x >> 28; /* bytes nf zf cf vf */
            x_store_imm32(a, W32, HR_CPU, CPU_OFF(nf),
                          (int32_t)((f >> 3 & 1) | (f >> 2 & 1) << 8 | (f >> 1 & 1) << 16 | (f & 1) << 24));
            x_patch(done, a->p);
            x->live_next = ~0u; /* the failed-condition path set the flags without EFLAGS */
        }
        return 1;
    }
    case NK_MADD: /* op: 0 MADD, 1 MSUB, 2 MUL: Ra +- Rn * Rm in rax */
        ldr(x, X_RAX, o->n, w);
        x_imul_rr(a, w, X_RAX, rc_src(x, o->m, X_RCX));
        if (d->op < 2) {
            if (d->op)
                x_neg(a, w, X_RAX);
            x_alu_rr(a, w, ALU_ADD, X_RAX, rc_src(x, o->a, X_RCX));
        }
        str(x, o->d, X_RAX);
        return 1;

    case NK_LOAD:
    case NK_STORE:
    case NK_LOADP:
    case NK_STOREP:
    case NK_FLOAD:
    case NK_FSTORE:
    case NK_FLOADP:
    case NK_FSTOREP:
        return emit_mem(x, o, d);

    case NK_GOTO:
        ne_goto(x, o->imm);
        return 1;
    case NK_BL:
        x_mov_imm(a, X_RAX, o->pc + 4);
        str(x, 30, X_RAX);
        ne_call_goto(x, o->pc + 4, o->imm);
        return 1;
    case NK_BR:
    case NK_BLR:
    case NK_RET:
        ldr(x, X_RAX, o->n, W64);
        x_store(a, W64, HR_CPU, CPU_OFF(pc), X_RAX);
        if (d->kind == NK_RET) {
            ne_ret(x);
            return 1;
        }
        if (d->kind == NK_BLR) { /* target read first: BLR X30 */
            x_mov_imm(a, X_RAX, o->pc + 4);
            str(x, 30, X_RAX);
            ne_call_indirect(x, o->pc + 4);
            return 1;
        }
        ne_goto_indirect(x, true);
        return 1;
    case NK_BCOND: {
        if (!gotos_follow(x, o))
            return 0;
        int cc = flags_cc(x, d->cond);
        return cond_branch(x, o, cc >= 0 ? cc : ne_cond(x, d->cond));
    }
    case NK_CB: {
        if (!gotos_follow(x, o))
            return 0;
        int rn = rc_src(x, o->n, X_RAX);
        x_test_rr(a, w, rn, rn);
        return cond_branch(x, o, d->op ? CC_NE : CC_E);
    }
    case NK_TB: {
        if (!gotos_follow(x, o))
            return 0;
        int rn = rc_src(x, o->n, X_RAX);
        if (o->imm <= 0xffffffffu) { /* bits 0-31: a 32-bit test */
            x_test_ri(a, W32, rn, (int32_t)(uint32_t)o->imm);
        } else {
            x_mov_imm(a, X_RCX, o->imm);
            x_test_rr(a, W64, rn, X_RCX);
        }
        return cond_branch(x, o, d->op ? CC_NE : CC_E);
    }
    case NK_CMP_BRANCH: {
        if (!gotos_follow(x, o))
            return 0;
        int fl = cmp_branch_compare(x, o, d->op);
        int cc = direct_cc(d->cond, fl);
        if (cc < 0)
            cc = ne_cond(x, d->cond);
        return cond_branch(x, o, cc);
    }
    case NK_MULL:
        return ne_emit_mull(x, o, d);
    case NK_CPU_FIELD:
        return ne_emit_cpu_field(x, o, d);
    case NK_DIV:
    case NK_ADC:
    case NK_DP1:
        return ne_emit_int_extra(x, o, d);
    case NK_FMOV_GEN:
    case NK_FP_UN:
    case NK_FP_BIN:
    case NK_FCMP:
    case NK_CVTF:
        return ne_emit_fp(x, o, d);
    case NK_SHA512:
        return ne_emit_sha512(x, o, d);
    case NK_ATOMIC:
        return ne_emit_atomic(x, o, d);
    case NK_DC_ZVA:
        return ne_emit_dc_zva(x, o, d);
    case NK_CONTEXT_SYNC:
        return ne_emit_context_sync(x);
    case NK_VEC:
        return ne_emit_vec(x, o, d);
    case NK_VEC_PERM:
        return ne_emit_vec_perm(x, o, d);
    default:
        return 0;
    }
}

#endif /* MALIBU_HAVE_NATIVE */
