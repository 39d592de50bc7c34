/* Translated blocks: a guest basic block decoded once into an array of ops.
 *
 * An op is a pre-decoded instruction: a handler plus its operands.  A handler
 * returns the next op to run; ops that end a block return the first op of the
 * successor block when it is already chained (direct branches) or found in the
 * jump cache (indirect branches), so control stays inside translated code, or
 * NULL to return to cpu_exec().  This is the portable back end: a native back
 * end replaces the op arrays with host code behind the same TB interface. */
#ifndef MALIBU_TB_H
#define MALIBU_TB_H

#include "cpu.h"

typedef struct Op Op;
typedef Op *(*OpFn)(CPUState *c, Op *o);

struct Op {
    OpFn fn;
    uint64_t pc;   /* guest address of the instruction this op belongs to */
    uint64_t imm;  /* immediate, offset, target address, ... */
    union {
        struct {
            uint8_t d, n, m, a; /* register operands (X slots 0..33 or V 0..31) */
            uint32_t x;         /* extra small operands, packed by the translator */
        };
        struct TB *link;        /* goto ops: cached successor block */
    };
};

typedef struct TB {
    uint64_t pc;          /* guest start address */
    uint64_t end_pc;      /* address after the last guest instruction */
    struct TB *hash_next;
    uint32_t n_insns;
    uint32_t n_ops;
    void *native;         /* host code (native back end), NULL when run from the ops */
    uint32_t runs;        /* native back end: runs from the ops so far (native_tier_up) */
    bool plain;           /* native back end: compiled without loop-head value facts, after an
                           * entry check of them failed (native_drop_head_facts) */
    bool nzcv_dead_in;    /* native back end: its code writes all of NZCV before anything reads
                           * or could see them (a failed entry check runs the block again
                           * first: dispatch.h): a chained jump in may leave them out of
                           * CPUState (native_chain) */
#ifdef CONFIG_SYSTEM
    uint64_t phys;        /* physical address of pc when translated */
    uint32_t flags;       /* CPU state the ops depend on (EL, MMU on) */
    struct TB *page_next; /* blocks of the same physical page (sys_code.c) */
#endif
    Op ops[];
} TB;

#define TB_HASH_BITS 16
#define JMP_CACHE_BITS 16

typedef struct TBCache {
    uint8_t *arena;       /* all TBs live here; a flush empties it */
    size_t arena_size, arena_used;
    TB *hash[1u << TB_HASH_BITS];
    TB *jmp_cache[1u << JMP_CACHE_BITS]; /* direct-mapped by pc, for indirect branches */
    volatile int flush_pending;          /* set when guest code was modified */
    struct NativeBuf *nbuf;              /* native back end's code for these TBs, or NULL */
    uint64_t n_translated, n_flushes;
    uint64_t n_compiled;                 /* blocks the native back end compiled */
} TBCache;

TBCache *tbc_new(size_t arena_bytes);
void tbc_free(TBCache *t);
void tbc_flush(TBCache *t);
TB *tb_lookup(TBCache *t, uint64_t pc);
/* Unlink tb from the hash (it stays in the arena until the next flush). */
void tbc_remove(TBCache *t, TB *tb);

/* Find the block for an indirect-branch target without translating; NULL if absent. */
static inline TB *tb_jmp_lookup(TBCache *t, uint64_t pc)
{
    TB *tb = t->jmp_cache[(pc >> 2) & ((1u << JMP_CACHE_BITS) - 1)];
    if (likely(tb && tb->pc == pc))
        return tb;
    tb = tb_lookup(t, pc);
    if (tb)
        t->jmp_cache[(pc >> 2) & ((1u << JMP_CACHE_BITS) - 1)] = tb;
    return tb;
}

/* Run the next op of the block as a tail call.  The compiler turns it into a
 * jump, so every handler has its own indirect branch for the predictor and the
 * dispatch loop is skipped; where it keeps the frame (sanitizer builds), stack
 * depth stays bounded by the block length because block-ending ops return to
 * the loop in cpu_exec().  A handler may also just return the next op. */
static inline Op *op_next(CPUState *c, Op *o)
{
    return o[1].fn(c, o + 1);
}

/* Translate the block at pc (translate.c). */
TB *tb_translate(CPUState *c, uint64_t pc);

/* Shared block-ending handlers (tb.c). */
Op *op_goto_tb(CPUState *c, Op *o);       /* imm = target; chains via o->link */
Op *op_goto_indirect(CPUState *c, Op *o); /* target already in c->pc */
Op *op_raise(CPUState *c, Op *o);         /* x = CpuException, imm = syndrome; pc = o->pc */
/* A branch the block continues through (translate.c), imm = target: leaves to the target when
 * exit_request is set, as the block boundary it replaces would, uncounting the x instructions
 * of the block after it (counted at the block's entry). */
Op *op_goto_through(CPUState *c, Op *o);
/* A conditional branch's fall-through when the block goes on after it (native back end
 * only): nothing to do.  Its x holds the block's instructions after the branch, for the
 * taken side's exit (the goto op before it has no room: its x shares storage with link). */
Op *op_goto_next(CPUState *c, Op *o);
/* A label before an instruction a later branch of the block goes back to (translate.c,
 * native back end only): nothing to do.  imm = its address, x = the block's instructions
 * before it. */
Op *op_loop_head(CPUState *c, Op *o);

#ifdef CONFIG_SYSTEM
TB *sys_tb_find(CPUState *c, uint64_t pc);
#endif

/* Continue at an indirect target (c->pc set): chain through the jump cache. */
static inline Op *tb_continue_at(CPUState *c)
{
    if (unlikely(c->exit_request))
        return 0;
    if (c->tbc->nbuf)
        return 0; /* as op_goto_tb */
#ifdef CONFIG_SYSTEM
    TB *tb = sys_tb_find(c, c->pc); /* sys_exec.c: checks physical address and flags */
#else
    TB *tb = tb_jmp_lookup(c->tbc, c->pc);
#endif
    if (!tb || unlikely(c->insn_count >= c->insn_limit))
        return 0;
    c->insn_count += tb->n_insns;
    return tb->ops;
}

#endif
