/* Translated-block cache: an arena of TBs, a hash by guest pc, and a jump cache. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "tb.h"
#include "native.h"

TBCache *tbc_new(size_t arena_bytes)
{
    TBCache *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->arena = mmap(NULL, arena_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (t->arena == MAP_FAILED) {
        free(t);
        return NULL;
    }
    t->arena_size = arena_bytes;
    /* Huge pages where the host offers them, as for the code (native_buf_new): the blocks' ops
     * fill tens of MB, one host page fault per 2 MiB instead of per 4 KiB.  Advice only. */
    madvise(t->arena, arena_bytes, MADV_HUGEPAGE);
#if MALIBU_HAVE_NATIVE
    if (native_backend() == BACKEND_NATIVE) {
        t->nbuf = native_buf_new(arena_bytes);
        if (!t->nbuf) {
            munmap(t->arena, arena_bytes);
            free(t);
            return NULL;
        }
    }
#endif
    return t;
}

void tbc_free(TBCache *t)
{
    if (!t)
        return;
    munmap(t->arena, t->arena_size);
#if MALIBU_HAVE_NATIVE
    native_buf_free(t->nbuf);
#endif
    free(t);
}

/* Drop every block.  Chained links only ever point into the arena, so they
 * vanish with the blocks that hold them. */
void tbc_flush(TBCache *t)
{
    t->arena_used = 0;
    memset(t->hash, 0, sizeof t->hash);
    memset(t->jmp_cache, 0, sizeof t->jmp_cache);
    t->flush_pending = 0;
    t->n_flushes++;
#if MALIBU_HAVE_NATIVE
    if (t->nbuf)
        native_buf_flush(t->nbuf);
#endif
}

static inline unsigned tb_hash(uint64_t pc)
{
    return (unsigned)(((pc >> 2) * 0x9E3779B97F4A7C15ull) >> (64 - TB_HASH_BITS));
}

TB *tb_lookup(TBCache *t, uint64_t pc)
{
    for (TB *tb = t->hash[tb_hash(pc)]; tb; tb = tb->hash_next)
        if (tb->pc == pc)
            return tb;
    return NULL;
}

/* Reserve space for a TB of n_ops ops; NULL when the arena is full. */
TB *tbc_alloc(TBCache *t, unsigned n_ops)
{
    size_t need = (sizeof(TB) + n_ops * sizeof(Op) + 63) & ~(size_t)63;
    if (t->arena_used + need > t->arena_size)
        return NULL;
    TB *tb = (TB *)(t->arena + t->arena_used);
    t->arena_used += need;
    return tb;
}

void tbc_remove(TBCache *t, TB *tb)
{
    for (TB **p = &t->hash[tb_hash(tb->pc)]; *p; p = &(*p)->hash_next)
        if (*p == tb) {
            *p = tb->hash_next;
            return;
        }
}

void tbc_insert(TBCache *t, TB *tb)
{
    unsigned h = tb_hash(tb->pc);
    tb->hash_next = t->hash[h];
    t->hash[h] = tb;
    t->n_translated++;
}

Op *op_goto_tb(CPUState *c, Op *o)
{
    c->pc = o->imm;
    if (c->tbc->nbuf) {
        /* A block not compiled yet (native_tier_up): back to the dispatcher, which counts the
         * next one's run; a side exit uncounts the block's instructions after it (translate.c
         * puts their number in x, link being unused with the native back end). */
        c->insn_count -= o->x;
        return NULL;
    }
    if (unlikely(c->exit_request))
        return NULL;
    TB *next = o->link;
    if (unlikely(!next)) {
#ifdef CONFIG_SYSTEM
        /* System mode: look up by physical address; chain only within the page, whose
         * mapping is the one this block was entered with. */
        next = sys_tb_find(c, o->imm);
        if (!next)
            return NULL;
        if (((o->imm ^ o->pc) >> 12) == 0)
            o->link = next;
#else
        next = tb_lookup(c->tbc, o->imm);
        if (!next)
            return NULL; /* cpu_exec translates it; the next pass chains */
        o->link = next;
#endif
    }
    if (unlikely(c->insn_count >= c->insn_limit))
        return NULL; /* quantum used up: back to the run loop, pc = the target */
    c->insn_count += next->n_insns;
    return next->ops;
}

Op *op_goto_next(CPUState *c, Op *o)
{
    return op_next(c, o);
}

Op *op_loop_head(CPUState *c, Op *o)
{
    return op_next(c, o);
}

Op *op_goto_through(CPUState *c, Op *o)
{
    if (unlikely(c->exit_request)) {
        c->pc = o->imm;
        c->insn_count -= o->x;
        return NULL;
    }
    return op_next(c, o);
}

Op *op_goto_indirect(CPUState *c, Op *o)
{
    (void)o;
    return tb_continue_at(c);
}

Op *op_raise(CPUState *c, Op *o)
{
    c->pc = o->pc;
    c->exception = (CpuException)o->x;
    c->syndrome = (uint32_t)o->imm;
    if (o->x == EXC_INSN_ABORT)
        c->fault_addr = o->pc;
    return NULL;
}
