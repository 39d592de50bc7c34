/* Interface between the generated decoder, the per-family translators and the TB builder. */
#ifndef MALIBU_TRANSLATE_H
#define MALIBU_TRANSLATE_H

#include "tb.h"
#include "a64_decode.h"

#define TB_MAX_INSNS 256
#define TB_MAX_OPS (TB_MAX_INSNS * 4 + 8)

struct DisasCtx {
    CPUState *cpu;
    uint64_t pc;       /* address of the instruction being translated */
    uint32_t insn;
    bool end_block;    /* set by translators of branches and other block-ending insns */
    unsigned n_ops;
    Op *ops;           /* TB_MAX_OPS scratch ops */
};

/* Append an op for the current instruction; operands start zeroed, pc is set. */
static inline Op *tr_emit(DisasCtx *s, OpFn fn)
{
    Op *o = &s->ops[s->n_ops++];
    *o = (Op){ .fn = fn, .pc = s->pc };
    return o;
}

/* Register operand slot for encoding r where 31 means XZR, as a source / as a destination. */
static inline uint8_t xzr_src(int r) { return r == 31 ? REG_ZR : (uint8_t)r; }
static inline uint8_t xzr_dst(int r) { return r == 31 ? REG_SINK : (uint8_t)r; }
/* Where 31 means SP the slot is the encoding itself (REG_SP == 31). */
static inline uint8_t xsp(int r) { return (uint8_t)r; }

/* End the block with a direct jump to target (chained). */
void tr_goto(DisasCtx *s, uint64_t target);
/* End the block raising exc at this instruction (pc = this insn) with the given syndrome. */
void tr_raise(DisasCtx *s, CpuException exc, uint32_t syndrome);
/* LD1/ST1 (multiple structures) of nregs (1 or 2) whole D (q = 0) or Q registers from Vrt on,
 * at Xrn, post-indexed by their size or not: the ops of LDR/STR or LDP/STP (tr_mem.c), which
 * access the same bytes (no alignment check is modelled for either) and which the native back
 * end compiles inline.  False for other forms. */
bool tr_vec_whole_regs(DisasCtx *s, bool load, bool q, unsigned nregs, int rt, int rn, bool post);
/* This instruction is UNDEFINED. */
static inline bool tr_undef(DisasCtx *s) { tr_raise(s, EXC_UDEF, s->insn); return true; }

#endif
