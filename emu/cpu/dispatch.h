/* The dispatch loop of both CPU builds, written once: user mode (cpu.c: cpu_exec) and the
 * system build (sys_exec.c: run_blocks) each instantiate it with their own block look-up and
 * block-boundary work.
 *
 * It is the CPU's hottest path outside translated code, so it is an always-inline template: each
 * caller passes static functions of its own file, which the compiler inlines at the only call
 * site, and the loop compiles as if written out in that file (no indirect call per block).
 * Callers run it inside their sigsetjmp frame: tb_run and find_block may cpu_raise. */
#ifndef MALIBU_DISPATCH_H
#define MALIBU_DISPATCH_H

#include "tb.h"
#include "native.h"

/* Runs blocks from c->pc until one raises an exception (returned), exit_request is seen (cleared,
 * at_exit_request(c) called, EXC_INTERRUPT returned) or before_block returns other than EXC_NONE
 * (that is returned).
 *   at_exit_request(c)   the work other threads or helpers left for a block boundary
 *   before_block(c)      EXC_NONE to run the next block; may set exit_request to run only one
 *   find_block(c)        the block at c->pc, translated if needed
 *   block_found(c, tb)   bookkeeping before it runs; may set exit_request (no chaining on) */
static inline __attribute__((always_inline)) CpuException
cpu_dispatch(CPUState *c, void (*at_exit_request)(CPUState *c), CpuException (*before_block)(CPUState *c),
             TB *(*find_block)(CPUState *c), void (*block_found)(CPUState *c, TB *tb))
{
    TbChain chain = { 0 };
    for (;;) {
        /* A block whose entry check failed (user mode, c->near_failed) runs first, compiled
         * again: it was entered by a chained jump that may have left NZCV to it
         * (TB.nzcv_dead_in), so no exit may see CPUState before it has run. */
        if (unlikely(c->exit_request) && likely(!c->near_failed)) {
            c->exit_request = 0;
            at_exit_request(c);
            return EXC_INTERRUPT;
        }
        CpuException stop = before_block(c);
        if (unlikely(stop != EXC_NONE))
            return stop;
        TB *tb = find_block(c);
#if MALIBU_HAVE_NATIVE
        if (unlikely(!tb->native) && c->tbc->nbuf && !native_tier_up(c, tb)) {
            tbc_flush(c->tbc); /* code buffer full */
            tb = find_block(c);
        }
#endif
        block_found(c, tb);
        if (unlikely(cpu_trace_exec)) {
            cpu_trace_exec(c, tb);
            c->exit_request = 1; /* no chaining: the next block comes back here */
        }
        tb_run(c, tb, &chain);
        if (c->exception != EXC_NONE)
            return c->exception;
    }
}

#endif
