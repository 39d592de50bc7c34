/* Builds a TB: fetch, decode (generated decoder), translate, until a block end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "translate.h"
#include "env.h"
#include "native.h"
#ifdef CONFIG_SYSTEM
#include "sys_cpu.h"
#include "sys_debug.h"
#include "sys_timing.h"
#endif

TB *tbc_alloc(TBCache *t, unsigned n_ops);
void tbc_insert(TBCache *t, TB *tb);

void tr_goto(DisasCtx *s, uint64_t target)
{
    Op *o = tr_emit(s, op_goto_tb);
    o->imm = target;
    o->link = NULL;
    s->end_block = true;
}

void tr_raise(DisasCtx *s, CpuException exc, uint32_t syndrome)
{
    Op *o = tr_emit(s, op_raise);
    o->x = exc;
    o->imm = syndrome;
    s->end_block = true;
}

/* A block continues through an unconditional direct branch (B) when its target is in the
 * block's own page (system mode: the page is the unit of code invalidation, sys_code.c; user mode
 * drops every translation on any code write: any page, other_page) and not already in the block (the block's start
 * stays a branch: a loop, native.c; other addresses would be translated twice).  Not while the
 * debugger steps, nor when tracing or timing, which see a block as one range pc..end_pc. */
#define TB_MAX_THROUGH 8

/* May a block span a branch now? */
static bool blocks_may_span(const DisasCtx *s)
{
    if (cpu_trace_translated || cpu_trace_exec)
        return false;
#ifdef CONFIG_SYSTEM
    if ((sys_cpu(s->cpu)->tb_flags & SYS_TBF_STEP) || sys_timing_hier)
        return false;
#endif
    (void)s;
    return true;
}

/* Must a block at start stop before pc (a branch target or the next instruction)?  System mode:
 * when pc is in another page.  User mode: never (any code write drops every translation, and
 * each page an instruction is fetched from is marked as code), so hot loops that cross a page
 * boundary stay one block. */
static bool other_page(uint64_t start, uint64_t pc)
{
#ifdef CONFIG_SYSTEM
    return ((start ^ pc) >> 12) != 0;
#else
    (void)start, (void)pc;
    return false;
#endif
}

static bool follow_branch(DisasCtx *s, uint64_t start, uint64_t target, const uint64_t *seg, unsigned n_seg)
{
    if (n_seg >= TB_MAX_THROUGH || other_page(start, target) || (target & 3) || !blocks_may_span(s))
        return false;
    for (unsigned k = 0; k <= n_seg; k++) { /* segments [seg[2k], seg[2k+1]); the last one open */
        uint64_t lo = seg[2 * k], hi = k < n_seg ? seg[2 * k + 1] : s->pc + 4;
        if (target >= lo && target < hi)
            return false;
    }
    return true;
}

/* A conditional branch the block may go on after (native back end only: its emitters keep the
 * register cache past the taken side's exit): the instruction just translated ended in a test
 * op and the goto ops of its taken side and its fall-through. */
#define TB_MAX_SIDE 8
static bool continue_after_branch(const DisasCtx *s, unsigned n_side)
{
#if MALIBU_HAVE_NATIVE
    if (!s->cpu->tbc->nbuf || n_side >= TB_MAX_SIDE || s->n_ops < 3)
        return false;
    const Op *o = &s->ops[s->n_ops - 3];
    if (o[1].fn != op_goto_tb || o[2].fn != op_goto_tb || o[2].imm != s->pc + 4 || o[1].pc != s->pc)
        return false;
    return native_is_cond_branch(o->fn) && blocks_may_span(s);
#else
    (void)s, (void)n_side;
    return false;
#endif
}

/* Loop heads inside a block (native back end): a branch to an instruction the block has already
 * translated, other than its start (a loop of its own, native.c), jumps to an op_loop_head
 * label put before that instruction's ops instead of leaving the block, so that a loop with
 * two back edges (a search going left or right in a tree) stays in one block.  Only before an
 * instruction with ops of its own: not one folded into the op before (MOVK after MOVZ, ADD after
 * ADRP), nor a B.cond fused into its compare (its own ops are the gotos), nor a NOP. */
#define TB_MAX_HEADS 4

static void place_loop_heads(DisasCtx *s, uint64_t start, const uint64_t *insn_pc, const unsigned *insn_op,
                             unsigned n_insns)
{
#if MALIBU_HAVE_NATIVE
    if (!s->cpu->tbc->nbuf || !blocks_may_span(s))
        return;
    unsigned head[TB_MAX_HEADS], n = 0; /* instruction indexes, in block order */
    for (unsigned g = 0; g < s->n_ops && n < TB_MAX_HEADS; g++) {
        const Op *o = &s->ops[g];
        if (o->fn != op_goto_tb || o->imm == start)
            continue;
        unsigned k = 1;
        while (k < n_insns && insn_pc[k] != o->imm)
            k++;
        if (k == n_insns || insn_op[k] > g || insn_op[k] >= s->n_ops || s->ops[insn_op[k]].pc != o->imm ||
            s->ops[insn_op[k]].fn == op_goto_tb)
            continue; /* no op of its own (folded into the one before: tr_int.c's prev_const) */
        unsigned at = 0;
        while (at < n && head[at] < k)
            at++;
        if (at < n && head[at] == k)
            continue;
        memmove(&head[at + 1], &head[at], (n - at) * sizeof head[0]);
        head[at] = k;
        n++;
    }
    if (s->n_ops + n > TB_MAX_OPS)
        return;
    for (unsigned h = n; h-- > 0;) { /* from the last, so that the earlier indexes hold */
        unsigned j = insn_op[head[h]];
        memmove(&s->ops[j + 1], &s->ops[j], (s->n_ops - j) * sizeof(Op));
        s->ops[j] = (Op){ .fn = op_loop_head, .pc = insn_pc[head[h]], .imm = insn_pc[head[h]],
                          .d = REG_SINK, .n = REG_SINK, .m = REG_SINK, .a = REG_SINK, .x = head[h] };
        s->n_ops++;
    }
#else
    (void)s, (void)start, (void)insn_pc, (void)insn_op, (void)n_insns;
#endif
}

TB *tb_translate(CPUState *c, uint64_t pc)
{
    static __thread Op scratch[TB_MAX_OPS];
    DisasCtx s = { .cpu = c, .pc = pc, .ops = scratch };
    unsigned n_insns = 0;
    uint64_t seg[2 * TB_MAX_THROUGH + 2] = { pc }; /* address ranges translated so far */
    unsigned n_seg = 0, through_op[TB_MAX_THROUGH], through_insns[TB_MAX_THROUGH];
    unsigned n_side = 0, side_op[TB_MAX_SIDE], side_insns[TB_MAX_SIDE];
    uint64_t insn_pc[TB_MAX_INSNS];  /* each instruction's address and first op, for loop heads */
    unsigned insn_op[TB_MAX_INSNS];

    while (!s.end_block) {
        uint32_t insn;
#ifdef CONFIG_SYSTEM
        /* Debugger breakpoint: stop before the instruction (the block ends just before it). */
        const struct SysDebug *dbg = sys_cpu(c)->mach->dbg;
        if (unlikely(dbg) && dbg->n_bp && sys_debug_bp_at(dbg, s.pc)) {
            if (n_insns == 0)
                tr_raise(&s, EXC_SYS_BKPT, 0);
            else
                tr_goto(&s, s.pc);
            break;
        }
#endif
        if (!env_fetch_insn(c, s.pc, &insn)) {
            if (n_insns == 0)
                tr_raise(&s, EXC_INSN_ABORT, 0);
            else
                tr_goto(&s, s.pc); /* fault when (if) execution gets there */
            break;
        }
        s.insn = insn;
        insn_pc[n_insns] = s.pc;
        insn_op[n_insns] = s.n_ops;
        n_insns++;
        unsigned first_op = s.n_ops;
#ifdef CONFIG_SYSTEM
        if (sys_translate_insn(&s, insn))
            ; /* system instruction (sys_translate.c) */
        else
#endif
        if (!a64_decode(&s, insn))
            tr_undef(&s);
        if ((insn & 0xfc000000u) == 0x14000000u && s.n_ops == first_op + 1 && s.ops[first_op].fn == op_goto_tb &&
            follow_branch(&s, pc, s.ops[first_op].imm, seg, n_seg)) {
            /* B: the block goes on at the target, behind the exit_request test of the branch */
            uint64_t target = s.ops[first_op].imm;
            s.ops[first_op].fn = op_goto_through;
            seg[2 * n_seg + 1] = s.pc + 4;
            seg[2 * n_seg + 2] = target;
            through_op[n_seg] = first_op;
            through_insns[n_seg++] = n_insns;
            s.end_block = false;
            s.pc = target;
            if (n_insns >= TB_MAX_INSNS || other_page(pc, s.pc))
                tr_goto(&s, s.pc);
            continue;
        }
        if (s.end_block && continue_after_branch(&s, n_side)) {
            /* B.cond, CBZ, TBZ...: the taken side leaves, the block goes on at the fall-through */
            s.ops[s.n_ops - 1].fn = op_goto_next;
            side_op[n_side] = s.n_ops - 1;
            side_insns[n_side++] = n_insns;
            s.end_block = false;
        }
        s.pc += 4;
#ifdef CONFIG_SYSTEM
        if (!s.end_block && (sys_cpu(c)->tb_flags & SYS_TBF_STEP))
            tr_goto(&s, s.pc); /* single step: one instruction per block */
#endif
        if (!s.end_block && (n_insns >= TB_MAX_INSNS || other_page(pc, s.pc)))
            tr_goto(&s, s.pc);
    }

    for (unsigned k = 0; k < n_seg; k++) /* instructions after the branch, for its exit */
        s.ops[through_op[k]].x = n_insns - through_insns[k];
    for (unsigned k = 0; k < n_side; k++) /* on the goto too, for its runs from the ops */
        s.ops[side_op[k]].x = s.ops[side_op[k] - 1].x = n_insns - side_insns[k];
    place_loop_heads(&s, pc, insn_pc, insn_op, n_insns);

    TB *tb = tbc_alloc(c->tbc, s.n_ops);
    if (!tb) {
        tbc_flush(c->tbc);
        tb = tbc_alloc(c->tbc, s.n_ops);
        if (!tb) {
            fprintf(stderr, "malibu: translation cache too small for one block\n");
            abort();
        }
    }
    tb->pc = pc;
    tb->end_pc = s.pc;
    tb->n_insns = n_insns;
    tb->n_ops = s.n_ops;
    memcpy(tb->ops, s.ops, s.n_ops * sizeof(Op));
    tb->native = NULL;
    tb->runs = 0;
    tb->plain = false;
#if MALIBU_HAVE_NATIVE
    if (c->tbc->nbuf && native_compile_after <= 1 && !native_compile(c, tb)) {
        /* Code buffer full: start over with empty caches. */
        static __thread int retrying;
        if (retrying) {
            fprintf(stderr, "malibu: native code buffer too small for one block\n");
            abort();
        }
        tbc_flush(c->tbc);
        retrying = 1;
        tb = tb_translate(c, pc);
        retrying = 0;
        return tb;
    }
#endif
    tbc_insert(c->tbc, tb);
    if (unlikely(cpu_trace_translated))
        cpu_trace_translated(c, tb);
    return tb;
}
