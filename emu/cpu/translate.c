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

TB *tb_translate(CPUState *c, uint64_t pc)
{
    static __thread Op scratch[TB_MAX_OPS];
    DisasCtx s = { .cpu = c, .pc = pc, .ops = scratch };
    unsigned n_insns = 0;

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
        n_insns++;
#ifdef CONFIG_SYSTEM
        if (sys_translate_insn(&s, insn))
            ; /* system instruction (sys_translate.c) */
        else
#endif
        if (!a64_decode(&s, insn))
            tr_undef(&s);
        s.pc += 4;
#ifdef CONFIG_SYSTEM
        if (!s.end_block && (sys_cpu(c)->tb_flags & SYS_TBF_STEP))
            tr_goto(&s, s.pc); /* single step: one instruction per block */
#endif
        if (!s.end_block && (n_insns >= TB_MAX_INSNS || (s.pc & 0xfff) == 0))
            tr_goto(&s, s.pc);
    }

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
#if MALIBU_HAVE_NATIVE
    if (c->tbc->nbuf && !native_compile(c, tb)) {
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
