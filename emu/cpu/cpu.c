/* CPU reset state and the execution loop. */
#include <string.h>
#include "tb.h"
#include "native.h"

void (*cpu_trace_translated)(CPUState *c, const struct TB *tb);
void (*cpu_trace_exec)(CPUState *c, const struct TB *tb);
bool (*cpu_disasm)(uint32_t insn, uint64_t pc, char *buf, size_t n);

void cpu_init(CPUState *c)
{
    memset(c, 0, sizeof *c);
    c->insn_limit = UINT64_MAX;
}

_Noreturn void cpu_raise(CPUState *c, Op *op, CpuException exc, uint64_t fault_addr, bool write)
{
    c->pc = op ? op->pc : c->pc;
    c->exception = exc;
    c->fault_addr = fault_addr;
    c->fault_write = write;
    siglongjmp(c->jmp_env, 1);
}

/* The dispatch loop; returns when an exception or exit request ends execution. */
static __attribute__((noinline)) CpuException exec_loop(CPUState *c)
{
    TbChain chain = { 0 };
    for (;;) {
        if (unlikely(c->exit_request)) {
            c->exit_request = 0;
            if (c->tbc->flush_pending)
                tbc_flush(c->tbc);
            c->exception = EXC_INTERRUPT;
            return EXC_INTERRUPT;
        }
        TB *tb = tb_lookup(c->tbc, c->pc);
        if (!tb)
            tb = tb_translate(c, c->pc);
        if (unlikely(cpu_trace_exec)) {
            cpu_trace_exec(c, tb);
            c->exit_request = 1; /* no chaining: the next block comes back here */
        }
        tb_run(c, tb, &chain);
        if (c->exception != EXC_NONE)
            return c->exception;
    }
}

CpuException cpu_exec(CPUState *c)
{
    c->exception = EXC_NONE;
    if (sigsetjmp(c->jmp_env, 0)) {
        c->cur_op = NULL;
        return c->exception;
    }
    CpuException e = exec_loop(c);
    c->cur_op = NULL;
    return e;
}
