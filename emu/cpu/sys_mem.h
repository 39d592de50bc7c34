/* Guest memory access from op handlers, full-system build (included by mem.h when
 * CONFIG_SYSTEM is defined; same interface as the user-mode window).
 *
 * Fast path: the current regime's soft-TLB entry for the page (sys_cpu.h); an access that hits
 * and stays inside the page is a host load/store at va + addend.  Everything else (miss, MMIO,
 * page-crossing, code pages for stores, permission faults) goes to the slow paths in mmu.c, which
 * record the op (for the fault's pc) only when they need to raise. */
#ifndef MALIBU_SYS_MEM_H
#define MALIBU_SYS_MEM_H

#include <string.h>
#include "tb.h"
#include "sys_cpu.h"

static inline SysTlbEntry *sys_tlb_entry(CPUState *c, uint64_t addr)
{
    return &sys_cpu(c)->tlb[(addr >> 12) & (SYS_TLB_SIZE - 1)];
}

static inline bool sys_in_page(uint64_t addr, unsigned size)
{
    return (addr & 0xfff) <= 0x1000 - size;
}

/* Host pointer for size bytes at addr (one page; faults raise). */
static inline uint8_t *mem_host(CPUState *c, Op *o, uint64_t addr, unsigned size, bool write)
{
    SysTlbEntry *e = sys_tlb_entry(c, addr);
    uint64_t tag = write ? e->tag_w : e->tag_r;
    if (likely(tag == (addr & SYS_PAGE_MASK) && sys_in_page(addr, size)))
        return (uint8_t *)(uintptr_t)(addr + e->addend);
    return sys_host_slow(c, o, addr, size, write, false);
}

#define MEM_ACCESSORS(bits)                                                                 \
    static inline uint##bits##_t mem_ld##bits(CPUState *c, Op *o, uint64_t addr)            \
    {                                                                                       \
        SysTlbEntry *e = sys_tlb_entry(c, addr);                                            \
        if (likely(e->tag_r == (addr & SYS_PAGE_MASK) && sys_in_page(addr, bits / 8))) {    \
            uint##bits##_t v;                                                               \
            memcpy(&v, (void *)(uintptr_t)(addr + e->addend), sizeof v);                    \
            return v;                                                                       \
        }                                                                                   \
        return (uint##bits##_t)sys_ld_slow(c, o, addr, bits / 8);                           \
    }                                                                                       \
    static inline void mem_st##bits(CPUState *c, Op *o, uint64_t addr, uint##bits##_t v)    \
    {                                                                                       \
        SysTlbEntry *e = sys_tlb_entry(c, addr);                                            \
        if (likely(e->tag_w == (addr & SYS_PAGE_MASK) && sys_in_page(addr, bits / 8))) {    \
            memcpy((void *)(uintptr_t)(addr + e->addend), &v, sizeof v);                    \
            return;                                                                         \
        }                                                                                   \
        sys_st_slow(c, o, addr, bits / 8, v);                                               \
    }
MEM_ACCESSORS(8)
MEM_ACCESSORS(16)
MEM_ACCESSORS(32)
MEM_ACCESSORS(64)
#undef MEM_ACCESSORS

/* 128-bit access (Q registers), little-endian: two 64-bit halves off the fast path; a store
 * probes both halves for write permission before writing either. */
static inline void mem_ld128(CPUState *c, Op *o, uint64_t addr, VReg *out)
{
    SysTlbEntry *e = sys_tlb_entry(c, addr);
    if (likely(e->tag_r == (addr & SYS_PAGE_MASK) && sys_in_page(addr, 16))) {
        memcpy(out, (void *)(uintptr_t)(addr + e->addend), 16);
        return;
    }
    uint64_t lo = sys_ld_slow(c, o, addr, 8);
    uint64_t hi = sys_ld_slow(c, o, addr + 8, 8);
    out->d[0] = lo;
    out->d[1] = hi;
}
static inline void mem_st128(CPUState *c, Op *o, uint64_t addr, const VReg *in)
{
    SysTlbEntry *e = sys_tlb_entry(c, addr);
    if (likely(e->tag_w == (addr & SYS_PAGE_MASK) && sys_in_page(addr, 16))) {
        memcpy((void *)(uintptr_t)(addr + e->addend), in, 16);
        return;
    }
    uint64_t lo = in->d[0], hi = in->d[1];
    sys_probe_write(c, o, addr + 15); /* fault on the second page before writing the first */
    sys_st_slow(c, o, addr, 8, lo);
    sys_st_slow(c, o, addr + 8, 8, hi);
}

/* Atomic access for exclusives and ordered accesses: naturally aligned, RAM (an MMIO load goes
 * through a bounce buffer: LDAR from device memory, as the Cortex-A57 erratum 832075
 * workaround does). */
static inline void *mem_host_aligned(CPUState *c, Op *o, uint64_t addr, unsigned size, bool write)
{
    if (unlikely(addr & (size - 1)))
        cpu_raise(c, o, EXC_ALIGN, addr, write);
    SysTlbEntry *e = sys_tlb_entry(c, addr);
    uint64_t tag = write ? e->tag_w : e->tag_r;
    if (likely(tag == (addr & SYS_PAGE_MASK)))
        return (void *)(uintptr_t)(addr + e->addend);
    return sys_host_slow(c, o, addr, size, write, true);
}

#endif
