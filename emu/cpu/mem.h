/* Guest memory access from op handlers.
 *
 * User mode: the guest address space is a reserved host window of
 * GUEST_ADDR_SPACE bytes at c->guest_base (followed by an inaccessible guard
 * region).  Addresses outside the window fault in software; unmapped or
 * protected pages inside it fault in hardware, and the runtime's SIGSEGV
 * handler turns that into cpu_raise(..., EXC_DATA_ABORT) for c->cur_op.
 * Every access helper records the op first so a fault knows its instruction. */
#ifndef MALIBU_MEM_H
#define MALIBU_MEM_H

#include <string.h>
#include "tb.h"

#ifdef CONFIG_SYSTEM
#include "sys_mem.h" /* full-system build: soft TLB instead of the user-mode window */
#else

#define GUEST_ADDR_BITS 40
#define GUEST_ADDR_SPACE (1ull << GUEST_ADDR_BITS)

static inline uint8_t *mem_host(CPUState *c, Op *o, uint64_t addr, unsigned size, bool write)
{
    c->cur_op = o;
    if (unlikely((addr >> GUEST_ADDR_BITS) != 0))
        cpu_raise(c, o, EXC_DATA_ABORT, addr, write);
    (void)size; /* the guard region after the window catches accesses straddling its end */
    return (uint8_t *)((uintptr_t)c->guest_base + addr); /* guest_base may be NULL: guest_mem.h */
}

#define MEM_ACCESSORS(bits)                                                             \
    static inline uint##bits##_t mem_ld##bits(CPUState *c, Op *o, uint64_t addr)        \
    {                                                                                   \
        uint##bits##_t v;                                                               \
        memcpy(&v, mem_host(c, o, addr, bits / 8, false), sizeof v);                    \
        return v;                                                                       \
    }                                                                                   \
    static inline void mem_st##bits(CPUState *c, Op *o, uint64_t addr, uint##bits##_t v) \
    {                                                                                   \
        memcpy(mem_host(c, o, addr, bits / 8, true), &v, sizeof v);                     \
    }
MEM_ACCESSORS(8)
MEM_ACCESSORS(16)
MEM_ACCESSORS(32)
MEM_ACCESSORS(64)
#undef MEM_ACCESSORS

/* 128-bit access (Q registers), little-endian. */
static inline void mem_ld128(CPUState *c, Op *o, uint64_t addr, VReg *out)
{
    memcpy(out, mem_host(c, o, addr, 16, false), 16);
}
static inline void mem_st128(CPUState *c, Op *o, uint64_t addr, const VReg *in)
{
    memcpy(mem_host(c, o, addr, 16, true), in, 16);
}

/* Atomic access for exclusives and ordered accesses: naturally aligned, so the
 * host performs them as single-copy atomic accesses. */
static inline void *mem_host_aligned(CPUState *c, Op *o, uint64_t addr, unsigned size, bool write)
{
    if (unlikely(addr & (size - 1)))
        cpu_raise(c, o, EXC_ALIGN, addr, write);
    return mem_host(c, o, addr, size, write);
}

#endif /* !CONFIG_SYSTEM */

#endif
