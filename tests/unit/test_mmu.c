/* Stage-1 MMU of the full-system CPU (emu/cpu/mmu.c, -DCONFIG_SYSTEM): page-table walks with the
 * 4 KB granule and 48-bit VAs built in guest RAM, fault status codes and levels, permissions
 * (AP, UXN/PXN, implicit PXN of EL0-writable pages, WXN, APTable), TBI, EPD, TTBR0/TTBR1
 * selection, MMU off, AT -> PAR_EL1, and the soft TLB through the mem.h accessors. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "sys_cpu.h"
#include "mem.h"
#include "bus.h"

#define RAM 0x80000000ull
#define L0 0x10000ull
#define L1 0x11000ull
#define L2 0x12000ull
#define L3 0x13000ull
#define K0 0x20000ull
#define K1 0x21000ull

/* descriptor bits */
#define VALID 1ull
#define TABLE 3ull
#define PAGE 3ull
#define BLOCK 1ull
#define AF (1ull << 10)
#define AP_EL0 (1ull << 6)
#define AP_RO (1ull << 7)
#define PXN (1ull << 53)
#define UXN (1ull << 54)
#define ATTR(i) ((uint64_t)(i) << 2)

static SysMachine mach;
static SysCPU *s;
static uint8_t *ram;

static void put(uint64_t off, uint64_t v) { memcpy(ram + off, &v, 8); }

static void setup(void)
{
    memset(&mach, 0, sizeof mach);
    mach.bus = bus_new();
    /* 256 MB: the pages soft_tlb_flush_every_fill fills (from 8 MB on) and the far pages of
     * code_mark_drops_every_mapping; touched pages only */
    ram = bus_add_ram(mach.bus, "ram", RAM, 256 << 20, false);
    ck_assert_ptr_nonnull(ram);
    bus_freeze(mach.bus);
    mach.code_map = mmap(NULL, SYS_CODE_MAP_PA_LIMIT >> 12, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    s = aligned_alloc(64, (sizeof(SysCPU) + 63) & ~(size_t)63);
    memset(s, 0, sizeof *s);
    cpu_init(&s->cpu);
    s->cpu.tbc = tbc_new(1 << 20);
    s->mach = &mach;
    sys_cpu_reset(s, RAM);

    /* TTBR0: L0[0] -> L1[0] -> L2[2] -> L3 (pages at 0x400000...), L2[3] = 2 MB block */
    put(L0, RAM + L1 + TABLE);
    put(L1, RAM + L2 + TABLE);
    put(L2 + 2 * 8, RAM + L3 + TABLE);
    put(L2 + 3 * 8, RAM + 0x200000 + BLOCK + AF + ATTR(1));
    put(L3 + 0 * 8, RAM + 0x100000 + PAGE + AF + AP_EL0 + ATTR(1));             /* EL0 RW */
    put(L3 + 1 * 8, RAM + 0x101000 + PAGE + AF + AP_EL0 + AP_RO + UXN);          /* RO, EL0 XN */
    put(L3 + 2 * 8, RAM + 0x102000 + PAGE + AP_EL0);                             /* AF = 0 */
    put(L3 + 4 * 8, RAM + 0x104000 + PAGE + AF);                                 /* EL1 only */
    put(L3 + 5 * 8, RAM + 0x105000 + PAGE + AF + PXN + AP_RO);                   /* EL1 RO, PXN */
    /* TTBR1: L0[0] -> L1[0] = 1 GB block at RAM */
    put(K0, RAM + K1 + TABLE);
    put(K1, RAM + BLOCK + AF);
    s->ttbr0 = RAM + L0;
    s->ttbr1 = RAM + K0;
    s->tcr = 16 | (16ull << 16) | (2ull << 30) | (1ull << 37); /* T0SZ=T1SZ=16, TG1=4K, TBI0 */
    s->mair = 0xff00;
    s->sctlr |= SCTLR_M;
    sys_update_mode(s);
}

static void teardown(void)
{
    tbc_free(s->cpu.tbc);
    sys_code_free(s);
    free(s);
    munmap(mach.code_map, SYS_CODE_MAP_PA_LIMIT >> 12);
    bus_free(mach.bus);
}

/* Translate; return the fault status code (0 = success) and the PA through *pa. */
static unsigned xlate(uint64_t va, unsigned el, unsigned access, uint64_t *pa)
{
    MmuResult r;
    if (!mmu_translate(s, va, el, access, &r))
        return r.fsc & 0x3f ? r.fsc & 0x3f : 0x40; /* 0x40: address size fault level 0 */
    if (pa)
        *pa = r.pa;
    return 0;
}

START_TEST(walk_pages_and_blocks)
{
    uint64_t pa;
    ck_assert_uint_eq(xlate(0x400123, 0, MMU_READ | MMU_WRITE, &pa), 0);
    ck_assert_uint_eq(pa, RAM + 0x100123);
    ck_assert_uint_eq(xlate(0x612345, 1, MMU_READ, &pa), 0); /* 2 MB block */
    ck_assert_uint_eq(pa, RAM + 0x212345);
    ck_assert_uint_eq(xlate(0xffff000000001234ull, 1, MMU_READ, &pa), 0); /* TTBR1, 1 GB block */
    ck_assert_uint_eq(pa, RAM + 0x1234);
    ck_assert_uint_eq(xlate(0x403000, 1, MMU_READ, NULL), 0x07);   /* invalid L3: level 3 */
    ck_assert_uint_eq(xlate(0x40000000, 1, MMU_READ, NULL), 0x05); /* invalid L1: level 1 */
    ck_assert_uint_eq(xlate(0x8000000000ull, 1, MMU_READ, NULL), 0x04); /* invalid L0 */
    ck_assert_uint_eq(xlate(0x402000, 1, MMU_READ, NULL), 0x0B);   /* access flag, level 3 */
    /* the guest channel's reads (MMU_NO_AF): AF = 0 is no fault, permissions still are */
    ck_assert_uint_eq(xlate(0x402010, 0, MMU_READ | MMU_NO_AF, &pa), 0);
    ck_assert_uint_eq(pa, RAM + 0x102010);
    ck_assert_uint_eq(xlate(0x404000, 0, MMU_READ | MMU_NO_AF, NULL), 0x0F); /* EL1 only: permission */
    ck_assert_uint_eq(xlate(0x0001000000000000ull, 0, MMU_READ, NULL), 0x04); /* not canonical */
}
END_TEST

START_TEST(permissions)
{
    /* EL0-writable page: EL1 may read/write but not execute (implicit PXN); EL0 may execute. */
    ck_assert_uint_eq(xlate(0x400000, 1, MMU_EXEC, NULL), 0x0F);
    ck_assert_uint_eq(xlate(0x400000, 0, MMU_EXEC, NULL), 0);
    /* read-only for both, UXN */
    ck_assert_uint_eq(xlate(0x401000, 0, MMU_READ, NULL), 0);
    ck_assert_uint_eq(xlate(0x401000, 0, MMU_WRITE, NULL), 0x0F);
    ck_assert_uint_eq(xlate(0x401000, 1, MMU_WRITE, NULL), 0x0F);
    ck_assert_uint_eq(xlate(0x401000, 0, MMU_EXEC, NULL), 0x0F);
    ck_assert_uint_eq(xlate(0x401000, 1, MMU_EXEC, NULL), 0);
    /* EL1-only page */
    ck_assert_uint_eq(xlate(0x404000, 0, MMU_READ, NULL), 0x0F);
    ck_assert_uint_eq(xlate(0x404000, 1, MMU_READ | MMU_WRITE | MMU_EXEC, NULL), 0);
    /* PXN */
    ck_assert_uint_eq(xlate(0x405000, 1, MMU_EXEC, NULL), 0x0F);
    ck_assert_uint_eq(xlate(0x405000, 1, MMU_READ, NULL), 0);
    /* WXN: writable -> not executable */
    s->sctlr |= SCTLR_WXN;
    ck_assert_uint_eq(xlate(0x404000, 1, MMU_EXEC, NULL), 0x0F);
    s->sctlr &= ~SCTLR_WXN;
    /* APTable[0] on the L2 table entry: no EL0 access below it */
    put(L2 + 2 * 8, RAM + L3 + TABLE + (1ull << 61));
    ck_assert_uint_eq(xlate(0x400000, 0, MMU_READ, NULL), 0x0F);
    ck_assert_uint_eq(xlate(0x400000, 1, MMU_WRITE, NULL), 0);
    /* APTable[1]: read-only below */
    put(L2 + 2 * 8, RAM + L3 + TABLE + (1ull << 62));
    ck_assert_uint_eq(xlate(0x400000, 1, MMU_WRITE, NULL), 0x0F);
}
END_TEST

START_TEST(tbi_epd_mmu_off)
{
    uint64_t pa;
    ck_assert_uint_eq(xlate(0x5a00000000400008ull, 0, MMU_READ, &pa), 0); /* TBI0 */
    ck_assert_uint_eq(pa, RAM + 0x100008);
    s->tcr &= ~(1ull << 37);
    ck_assert_uint_eq(xlate(0x5a00000000400008ull, 0, MMU_READ, NULL), 0x04);
    s->tcr |= 1ull << 23; /* EPD1 */
    ck_assert_uint_eq(xlate(0xffff000000001234ull, 1, MMU_READ, NULL), 0x04);
    s->sctlr &= ~SCTLR_M;
    ck_assert_uint_eq(xlate(0x1234, 1, MMU_READ | MMU_WRITE | MMU_EXEC, &pa), 0);
    ck_assert_uint_eq(pa, 0x1234);
    ck_assert_uint_eq(xlate(1ull << 40, 1, MMU_READ, NULL), 0x40); /* beyond PARange */
}
END_TEST

START_TEST(at_par)
{
    sys_at(s, 0x400abc, 0, false);
    ck_assert_uint_eq(s->par, (0xffull << 56) | (RAM + 0x100000) | (1ull << 11));
    sys_at(s, 0x401000, 0, true);
    ck_assert_uint_eq(s->par, 1 | (0x0Full << 1) | (1ull << 11));
    sys_at(s, 0x403000, 1, false);
    ck_assert_uint_eq(s->par, 1 | (0x07ull << 1) | (1ull << 11));
}
END_TEST

START_TEST(soft_tlb_accessors)
{
    /* Loads/stores through mem.h at EL1: fill, hit, page-crossing split, TLB flush. */
    CPUState *c = &s->cpu;
    Op op = { .pc = RAM };
    mem_st64(c, &op, 0x400ff8, 0x1122334455667788ull);
    ck_assert_uint_eq(mem_ld64(c, &op, 0x400ff8), 0x1122334455667788ull);
    ck_assert_uint_eq(mem_ld8(c, &op, 0x400ff8), 0x88);
    /* 0x400ffc..0x401003 crosses into the read-only page: loads split, values from both */
    memcpy(ram + 0x101000, "\xaa\xbb\xcc\xdd", 4);
    ck_assert_uint_eq(mem_ld64(c, &op, 0x400ffc), 0xddccbbaa11223344ull);
    /* the TLB entry follows a page-table change only after a flush (TLBI) */
    put(L3 + 0 * 8, RAM + 0x104000 + PAGE + AF + AP_EL0);
    ck_assert_uint_eq(mem_ld64(c, &op, 0x400ff8), 0x1122334455667788ull);
    sys_tlb_flush(s);
    ck_assert_uint_eq(mem_ld64(c, &op, 0x400ff8), 0);
    /* TLBI by VA drops that page only */
    put(L3 + 0 * 8, RAM + 0x100000 + PAGE + AF + AP_EL0);
    ck_assert_uint_eq(mem_ld8(c, &op, 0x401000), 0xaa);
    sys_tlb_flush_va(s, 0x400000);
    ck_assert_uint_eq(mem_ld64(c, &op, 0x400ff8), 0x1122334455667788ull);
    put(L3 + 1 * 8, 0); /* stale until invalidated */
    ck_assert_uint_eq(mem_ld8(c, &op, 0x401000), 0xaa);
    /* a page cached from a 2 MB block goes with a TLBI of any address in the block */
    ram[0x212000] = 0x5a;
    ram[0x412000] = 0x6b;
    ck_assert_uint_eq(mem_ld8(c, &op, 0x612000), 0x5a);
    put(L2 + 3 * 8, RAM + 0x400000 + BLOCK + AF + ATTR(1));
    ck_assert_uint_eq(mem_ld8(c, &op, 0x612000), 0x5a);
    sys_tlb_flush_va(s, 0x600000);
    ck_assert_uint_eq(mem_ld8(c, &op, 0x612000), 0x6b);
    /* address-space switch: global TTBR1 entries survive, TTBR0 ones go */
    ram[0x3000] = 0x11;
    ram[0x203000] = 0x22;
    ck_assert_uint_eq(mem_ld8(c, &op, 0xffff000000003000ull), 0x11);
    ck_assert_uint_eq(mem_ld8(c, &op, 0x612000), 0x6b);
    put(0x22000, RAM + 0x200000 + BLOCK + AF);                  /* kernel mapping moved... */
    put(K1, RAM + 0x22000 + TABLE);
    put(L2 + 3 * 8, RAM + 0x200000 + BLOCK + AF + ATTR(1));     /* ...and the user block */
    sys_tlb_flush_user(s);
    ck_assert_uint_eq(mem_ld8(c, &op, 0xffff000000003000ull), 0x11); /* still cached (global) */
    ck_assert_uint_eq(mem_ld8(c, &op, 0x612000), 0x5a);
    sys_tlb_flush(s);
    ck_assert_uint_eq(mem_ld8(c, &op, 0xffff000000003000ull), 0x22);
}
END_TEST

START_TEST(code_mark_drops_write_tags)
{
    /* A page reached through two VAs (0x400000 from EL1, and 0xffff000000100000 through the
     * kernel's block) with write tags in the EL1 table loses both when marked as code;
     * another page's write tag stays. */
    CPUState *c = &s->cpu;
    Op op = { .pc = RAM };
    mem_st8(c, &op, 0x400000, 1);
    mem_st8(c, &op, 0xffff000000100001ull, 2);
    mem_st8(c, &op, 0xffff000000104000ull, 3);
    SysTlbEntry *a = sys_tlb_entry(c, 0x400000), *b = sys_tlb_entry(c, 0xffff000000100000ull),
                *other = sys_tlb_entry(c, 0xffff000000104000ull);
    ck_assert_uint_eq(a->tag_w, 0x400000);
    ck_assert_uint_eq(b->tag_w, 0xffff000000100000ull);
    sys_mark_code(s, RAM + 0x100000);
    ck_assert_uint_eq(a->tag_w, SYS_TLB_INVALID);
    ck_assert_uint_eq(b->tag_w, SYS_TLB_INVALID);
    ck_assert_uint_eq(other->tag_w, 0xffff000000104000ull);
    ck_assert_uint_eq(a->tag_r, 0x400000); /* reads keep the fast path */
}
END_TEST

/* A code-page mark drops the write tags of every TLB entry that maps the page, and only
 * those: across both tables, refills, flushes, ASID changes and remaps (the cases a faster
 * way of finding the entries, such as a reverse map from page to slots, must keep right). */
START_TEST(code_mark_drops_every_mapping)
{
    CPUState *c = &s->cpu;
    Op op = { .pc = RAM };
    /* a page written through a second mapping in the other table: EL0's 0x400000 and EL1's
     * kernel alias of the same page both lose their write tags */
    s->el = 0;
    sys_update_mode(s);
    mem_st8(c, &op, 0x400010, 1);
    SysTlbEntry *u = sys_tlb_entry(c, 0x400000);
    s->el = 1;
    sys_update_mode(s);
    mem_st8(c, &op, 0xffff000000100020ull, 2);
    SysTlbEntry *k = sys_tlb_entry(c, 0xffff000000100000ull);
    ck_assert_uint_eq(u->tag_w, 0x400000);
    ck_assert_uint_eq(k->tag_w, 0xffff000000100000ull);
    sys_mark_code(s, RAM + 0x100000);
    ck_assert_uint_eq(u->tag_w, SYS_TLB_INVALID);
    ck_assert_uint_eq(k->tag_w, SYS_TLB_INVALID);
    /* the page written again (its blocks dropped) and refilled: a new mark drops it again */
    sys_code_modified(s, RAM + 0x100000);
    mem_st8(c, &op, 0xffff000000100020ull, 3);
    ck_assert_uint_eq(k->tag_w, 0xffff000000100000ull);
    sys_mark_code(s, RAM + 0x100000);
    ck_assert_uint_eq(k->tag_w, SYS_TLB_INVALID);

    /* a TLB flush, then the same slot (0x404) filled for another page: marking the old page
     * keeps it, marking the new one drops it */
    mem_st8(c, &op, 0xffff000000404000ull, 4);
    SysTlbEntry *e4 = sys_tlb_entry(c, 0x404000);
    ck_assert_uint_eq(e4->tag_w, 0xffff000000404000ull);
    sys_tlb_flush(s);
    mem_st8(c, &op, 0x404000, 5); /* EL1-only page at RAM + 0x104000 */
    ck_assert_uint_eq(e4->tag_w, 0x404000);
    sys_mark_code(s, RAM + 0x404000);
    ck_assert_uint_eq(e4->tag_w, 0x404000);
    sys_mark_code(s, RAM + 0x104000);
    ck_assert_uint_eq(e4->tag_w, SYS_TLB_INVALID);

    /* an ASID change (sys_tlb_flush_user) keeps the global kernel entry, and a mark still
     * finds its write tag; the user entry refilled after the switch is found too */
    mem_st8(c, &op, 0xffff000000107000ull, 6);
    SysTlbEntry *e7 = sys_tlb_entry(c, 0xffff000000107000ull);
    mem_st8(c, &op, 0x600000, 7); /* user 2 MB block: RAM + 0x200000 */
    SysTlbEntry *eu = sys_tlb_entry(c, 0x600000);
    sys_tlb_flush_user(s);
    ck_assert_uint_eq(e7->tag_w, 0xffff000000107000ull);
    ck_assert_uint_eq(eu->tag_w, SYS_TLB_INVALID);
    put(L2 + 3 * 8, RAM + 0x400000 + BLOCK + AF + ATTR(1)); /* the next process's mapping */
    mem_st8(c, &op, 0x600000, 8);
    ck_assert_uint_eq(eu->tag_w, 0x600000);
    sys_mark_code(s, RAM + 0x107000);
    ck_assert_uint_eq(e7->tag_w, SYS_TLB_INVALID);
    sys_mark_code(s, RAM + 0x200000); /* the old process's page: no longer this entry's */
    ck_assert_uint_eq(eu->tag_w, 0x600000);
    sys_mark_code(s, RAM + 0x400000);
    ck_assert_uint_eq(eu->tag_w, SYS_TLB_INVALID);

    /* a remap (page-table change, TLBI by VA, refill) at EL0: the entry follows its new page */
    s->el = 0;
    sys_update_mode(s);
    mem_st8(c, &op, 0x400000, 9); /* the code page RAM + 0x100000: written, so unmarked */
    ck_assert_uint_eq(u->tag_w, 0x400000);
    put(L3 + 0 * 8, RAM + 0x108000 + PAGE + AF + AP_EL0 + ATTR(1));
    sys_tlb_flush_va(s, 0x400000);
    mem_st8(c, &op, 0x400000, 10);
    ck_assert_uint_eq(u->tag_w, 0x400000);
    sys_mark_code(s, RAM + 0x100000);
    ck_assert_uint_eq(u->tag_w, 0x400000);
    sys_mark_code(s, RAM + 0x108000);
    ck_assert_uint_eq(u->tag_w, SYS_TLB_INVALID);
    s->el = 1;
    sys_update_mode(s);

    /* two written pages 16 MB into RAM and above: a mark drops only its own page's tags */
    uint64_t p0 = (RAM >> 12) + 0x1000, p1 = (RAM >> 12) + 0x2345;
    uint64_t v0 = 0xffff000000000000ull + ((p0 << 12) - RAM), v1 = 0xffff000000000000ull + ((p1 << 12) - RAM);
    mem_st8(c, &op, v0, 11);
    mem_st8(c, &op, v1, 12);
    SysTlbEntry *e0 = sys_tlb_entry(c, v0), *e1 = sys_tlb_entry(c, v1);
    ck_assert_ptr_ne(e0, e1);
    sys_mark_code(s, p1 << 12);
    ck_assert_uint_eq(e0->tag_w, v0);
    ck_assert_uint_eq(e1->tag_w, SYS_TLB_INVALID);
    sys_mark_code(s, p0 << 12);
    ck_assert_uint_eq(e0->tag_w, SYS_TLB_INVALID);
}
END_TEST

/* A mark finds write tags anywhere in the live list, whose hints it compares eight at a time:
 * 40 kernel pages written (slots listed in that order), then marks of the 14th and the 39th
 * (in the second half of a group of eight, and in the tail after the last full group) drop
 * those two entries' write tags and no other. */
START_TEST(code_mark_finds_slots_deep_in_the_live_list)
{
    CPUState *c = &s->cpu;
    Op op = { .pc = RAM };
    enum { N = 40 };
    SysTlbEntry *e[N];
    sys_tlb_flush(s);
    for (unsigned k = 0; k < N; k++) {
        uint64_t va = 0xffff000000000000ull + 0x800000 + k * 0x1000ull; /* RAM + 8 MB + k pages */
        mem_st8(c, &op, va + 0x10, (uint8_t)k);
        e[k] = sys_tlb_entry(c, va);
        ck_assert_uint_eq(e[k]->tag_w, va);
    }
    sys_mark_code(s, RAM + 0x800000 + 13 * 0x1000ull);
    sys_mark_code(s, RAM + 0x800000 + 38 * 0x1000ull);
    for (unsigned k = 0; k < N; k++) {
        uint64_t va = 0xffff000000000000ull + 0x800000 + k * 0x1000ull;
        ck_assert_uint_eq(e[k]->tag_w, k == 13 || k == 38 ? SYS_TLB_INVALID : va);
    }
}
END_TEST

/* Entries of table i with a valid tag; of those, *global the global ones. */
static unsigned count_valid(unsigned i, unsigned *global)
{
    unsigned n = 0, g = 0;
    for (unsigned j = 0; j < SYS_TLB_SIZE; j++) {
        const SysTlbEntry *e = &s->tlbs[i][j];
        if (e->tag_r != SYS_TLB_INVALID || e->tag_w != SYS_TLB_INVALID || e->tag_x != SYS_TLB_INVALID) {
            n++;
            g += e->global != 0;
        }
    }
    if (global)
        *global = g;
    return n;
}

/* Read one byte of npages kernel pages (global, 1 GB block; slots from 0x800 on, wrapping) and of the 512
 * pages of the user 2 MB block (not global; slots 0x600-0x7ff), at EL1. */
static void fill_pages(unsigned npages)
{
    CPUState *c = &s->cpu;
    Op op = { .pc = RAM };
    for (unsigned k = 0; k < npages; k++)
        mem_ld8(c, &op, 0xffff000000800000ull + 0x1000ull * k);
    for (unsigned k = 0; k < 512; k++)
        mem_ld8(c, &op, 0x600000 + 0x1000ull * k);
}

START_TEST(soft_tlb_flush_every_fill)
{
    /* The flushes visit the slots filled since the last flush (a list), or scan the table once
     * more were filled than the list holds: either way none stays valid, and an address-space
     * switch keeps exactly the global ones. */
    const unsigned counts[] = { 100, SYS_TLB_LIVE_MAX + 100, 100, SYS_TLB_LIVE_MAX - 600 };
    ck_assert_uint_le(0x800 + SYS_TLB_LIVE_MAX + 100, SYS_TLB_SIZE + 0x600); /* one page a slot */
    for (unsigned t = 0; t < 4; t++) {
        unsigned g;
        fill_pages(counts[t]);
        ck_assert_uint_eq(count_valid(1, &g), counts[t] + 512);
        ck_assert_uint_eq(g, counts[t]);
        sys_tlb_flush_user(s);
        ck_assert_uint_eq(count_valid(1, &g), counts[t]);
        ck_assert_uint_eq(g, counts[t]);
        fill_pages(counts[t]); /* the user pages again: listed after the kept global ones */
        ck_assert_uint_eq(count_valid(1, NULL), counts[t] + 512);
        if (t & 1)
            sys_tlb_flush_user(s);
        sys_tlb_flush(s);
        ck_assert_uint_eq(count_valid(0, NULL) + count_valid(1, NULL), 0);
    }
    /* a code mark after the list overflowed drops a write tag filled before the overflow */
    CPUState *c = &s->cpu;
    Op op = { .pc = RAM };
    mem_st8(c, &op, 0xffff000000100001ull, 2);
    fill_pages(SYS_TLB_LIVE_MAX + 100);
    sys_mark_code(s, RAM + 0x100000);
    ck_assert_uint_eq(sys_tlb_entry(c, 0xffff000000100000ull)->tag_w, SYS_TLB_INVALID);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("mmu");
    TCase *tc = tcase_create("mmu");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, walk_pages_and_blocks);
    tcase_add_test(tc, permissions);
    tcase_add_test(tc, tbi_epd_mmu_off);
    tcase_add_test(tc, at_par);
    tcase_add_test(tc, soft_tlb_accessors);
    tcase_add_test(tc, code_mark_drops_write_tags);
    tcase_add_test(tc, code_mark_drops_every_mapping);
    tcase_add_test(tc, code_mark_finds_slots_deep_in_the_live_list);
    tcase_add_test(tc, soft_tlb_flush_every_fill);
    suite_add_tcase(su, tc);
    SRunner *r = srunner_create(su);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
