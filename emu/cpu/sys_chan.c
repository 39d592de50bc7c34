/* The channel instruction (sys_chan.h): one op that hands x0..x3 to the machine's channel
 * function and writes its result to x0.  It is a decode case only, so code that never runs the
 * encoding pays nothing.  The op is not described to the native back end: it becomes a call of
 * this portable handler there too, with the guest registers written back before the call. */
#include "sys_chan.h"

#include "sys_cpu.h"
#include "translate.h"

SysChanFn sys_chan_call;

static Op *op_chan(CPUState *c, Op *o)
{
    uint64_t a[4] = { c->x[0], c->x[1], c->x[2], c->x[3] };
    c->pc = o->pc;                      /* for the channel's log line */
    c->x[0] = sys_chan_call(sys_cpu(c), (unsigned)o->imm, a);
    return op_next(c, o);
}

bool sys_chan_translate(DisasCtx *d, uint32_t insn)
{
    if ((insn & SYS_CHAN_MASK) != SYS_CHAN_BASE || !sys_chan_call)
        return false;
    Op *o = tr_emit(d, op_chan);
    o->imm = insn & ~SYS_CHAN_MASK;
    /* end the block: the channel reads the vCPU's instruction count, which counts whole blocks */
    tr_goto(d, d->pc + 4);
    return true;
}
