/* Stage-1 MMU of the EL1&0 translation regime (4 KB granule), the soft TLB and the memory slow
 * paths of the full-system build (listed only there: mk/cpu.mk, CPU_SYSTEM_SRCS).
 *
 * Walk (Arm ARM D8, VMSAv8-64): TTBR0 for VA[55] = 0, TTBR1 for VA[55] = 1; the top byte is
 * ignored when TCR.TBI0/TBI1 say so; VA bits above 64-TxSZ must equal VA[55] (else a level-0
 * translation fault); TCR.EPDx disables a half.  Start level from TxSZ; table descriptors
 * (levels 0-2) carry APTable/UXNTable/PXNTable; blocks at levels 1 and 2; pages at level 3.
 * No hardware access-flag update: AF = 0 is an Access flag fault.  Fault priority: translation,
 * access flag, permission.  Permissions: AP[2:1] 00 EL1 RW, 01 EL1+EL0 RW, 10 EL1 RO, 11 EL1+EL0
 * RO; EL0-writable implies PXN; SCTLR.WXN makes writable XN.  FEAT_PAN: with PSTATE.PAN = 1,
 * EL1 data accesses (not fetches, not LDTR/STTR, not AT) to pages EL0 can read fault.  The
 * EL1 table never holds read/write tags of such pages while PAN = 1: fills leave them out, and
 * setting PAN drops those filled while it was 0 (sys_set_pan). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sys_cpu.h"
#include "sys_debug.h"
#include "sys_mem.h"
#include "sys_timing.h"
#include "tb.h"
#include "../../devices/bus.h"

#define PA_BITS 40
#define OA_MASK 0x0000FFFFFFFFF000ull

static inline bool sys_in_page_(uint64_t addr, unsigned size)
{
    return (addr & 0xfff) <= 0x1000 - size;
}

static uint64_t tcr_field(uint64_t tcr, unsigned shift, unsigned bits)
{
    return (tcr >> shift) & ((1ull << bits) - 1);
}

/* Invalidate the entries of table i (but global ones when keep_global) and unlist them. */
static void tlb_sweep(SysCPU *s, unsigned i, bool keep_global)
{
    SysTlbEntry *t = s->tlbs[i];
    uint32_t *live = s->tlb_live[i], *wpage = s->tlb_live_wpage[i], *pos = s->tlb_live_pos[i];
    if (!s->tlb_live_exact[i]) { /* scan, and rebuild the list from what stays */
        uint32_t n = 0;
        bool exact = true;
        for (uint32_t j = 0; j < SYS_TLB_SIZE; j++) {
            SysTlbEntry *e = &t[j];
            pos[j] = 0;
            if (keep_global && e->global && (e->tag_r != SYS_TLB_INVALID ||
                                             e->tag_w != SYS_TLB_INVALID || e->tag_x != SYS_TLB_INVALID)) {
                if (n < SYS_TLB_LIVE_MAX) {
                    wpage[n] = s->tlb_wpage[i][j];
                    live[n++] = j;
                    pos[j] = n;
                } else {
                    pos[j] = TLB_POS_UNLISTED;
                    exact = false;
                }
                continue;
            }
            e->tag_r = e->tag_w = e->tag_x = SYS_TLB_INVALID;
        }
        s->tlb_live_n[i] = n;
        s->tlb_live_exact[i] = exact;
        return;
    }
    uint32_t n = 0;
    for (uint32_t k = 0; k < s->tlb_live_n[i]; k++) {
        uint32_t j = live[k];
        SysTlbEntry *e = &t[j];
        if (keep_global && e->global) {
            wpage[n] = wpage[k];
            live[n++] = j;
            pos[j] = n;
            continue;
        }
        e->tag_r = e->tag_w = e->tag_x = SYS_TLB_INVALID;
        pos[j] = 0;
    }
    s->tlb_live_n[i] = n;
}

/* Sweeps inside seq odd / even (sys_code.c reads another CPU's lists between two). */
static void sweep_begin(SysCPU *s)
{
    __atomic_store_n(&s->tlb_sweep_seq, s->tlb_sweep_seq + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

static void sweep_end(SysCPU *s)
{
    __atomic_store_n(&s->tlb_sweep_seq, s->tlb_sweep_seq + 1, __ATOMIC_RELEASE);
}

void sys_tlb_flush(SysCPU *s)
{
    sweep_begin(s);
    tlb_sweep(s, 0, false);
    tlb_sweep(s, 1, false);
    sweep_end(s);
    s->n_blk = 0;
    s->blk_overflow = false;
    s->pan_stale_ng = s->pan_stale_global = false;
    s->n_tlb_flush++;
    s->chain_epoch++;
}

void sys_tlb_flush_user(SysCPU *s)
{
    sweep_begin(s);
    tlb_sweep(s, 0, false);
    tlb_sweep(s, 1, true);
    sweep_end(s);
    s->pan_stale_ng = false;
    s->n_tlb_flush++;
    s->chain_epoch++;
}

/* A fill of e (in the current table): list its slot for the sweeps. */
static void note_live(SysCPU *s, SysTlbEntry *e)
{
    unsigned i = s->tlb != s->tlbs[0];
    uint32_t j = (uint32_t)(e - s->tlb);
    if (s->tlb_live_pos[i][j])
        return;
    /* Slot before count, count before recheck_code_page's fence: another CPU's
     * sys_mark_code that does not see the count saw no mark yet, and the recheck sees it. */
    uint32_t n = s->tlb_live_n[i];
    if (n < SYS_TLB_LIVE_MAX) {
        s->tlb_live[i][n] = j;
        s->tlb_live_wpage[i][n] = s->tlb_wpage[i][j];
        s->tlb_live_pos[i][j] = n + 1;
        __atomic_store_n(&s->tlb_live_n[i], n + 1, __ATOMIC_RELEASE);
    } else {
        s->tlb_live_pos[i][j] = TLB_POS_UNLISTED;
        __atomic_store_n(&s->tlb_live_exact[i], false, __ATOMIC_RELAXED);
    }
}

/* Record where e's write tag points for sys_mark_code (before recheck_code_page's fence): in
 * the slot's hint and, when the slot is listed, at its position in the live list. */
static void note_write_tag(SysCPU *s, SysTlbEntry *e)
{
    if (e->tag_w == SYS_TLB_INVALID)
        return;
    unsigned which = s->tlb != s->tlbs[0];
    uint32_t j = (uint32_t)(e - s->tlb), pg = (uint32_t)(e->pa >> 12), p = s->tlb_live_pos[which][j];
    s->tlb_wpage[which][j] = pg;
    if (p && p != TLB_POS_UNLISTED)
        s->tlb_live_wpage[which][p - 1] = pg;
}

/* Another vCPU thread may have marked the page as code while this entry was filled: it marks,
 * then clears every TLB's write tags for the page (sys_mark_code); we fill, then look at the mark
 * again, so one of the two sees the other. */
static void recheck_code_page(SysCPU *s, SysTlbEntry *e)
{
    if (s->mach->ncpu < 2 || e->tag_w == SYS_TLB_INVALID)
        return;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (sys_is_code_page(s, e->pa))
        e->tag_w = SYS_TLB_INVALID;
}

static void set_vblock(SysCPU *s, SysTlbEntry *e, uint64_t va, uint64_t size)
{
    if (size > 0x1000) {
        e->vbmask = ~(size - 1) & 0x00FFFFFFFFFFFFFFull;
        e->vblock = va & e->vbmask;
        unsigned k;
        for (k = 0; k < s->n_blk; k++)
            if (s->blk_base[k] == e->vblock && s->blk_mask[k] == e->vbmask)
                break;
        if (k == s->n_blk) {
            if (s->n_blk < SYS_TLB_BLOCK_REGIONS) {
                s->blk_base[k] = e->vblock;
                s->blk_mask[k] = e->vbmask;
                s->n_blk++;
            } else {
                s->blk_overflow = true;
            }
        }
    } else {
        e->vblock = SYS_TLB_INVALID;
    }
}

static void inval_entry(SysTlbEntry *e)
{
    e->tag_r = e->tag_w = e->tag_x = SYS_TLB_INVALID;
}

/* Tags compare without the top byte (TBI: entries may hold tagged VAs). */
#define VA_CMP_MASK 0x00FFFFFFFFFFF000ull

void sys_tlb_flush_va(SysCPU *s, uint64_t va)
{
    va &= VA_CMP_MASK;
    unsigned idx = (va >> 12) & (SYS_TLB_SIZE - 1);
    for (unsigned i = 0; i < 2; i++) {
        SysTlbEntry *e = &s->tlbs[i][idx];
        if (((e->tag_r & VA_CMP_MASK) == va) || ((e->tag_w & VA_CMP_MASK) == va) ||
            ((e->tag_x & VA_CMP_MASK) == va))
            inval_entry(e);
    }
    bool hit = s->blk_overflow;
    for (unsigned k = 0; k < s->n_blk && !hit; k++)
        hit = (va & s->blk_mask[k]) == s->blk_base[k];
    if (hit) {
        /* Pages cached from a block mapping that covers va go too. */
        s->n_tlbi_scan++;
        for (unsigned i = 0; i < 2; i++)
            for (uint32_t k = 0, n = sys_tlb_live_count(s, i); k < n; k++) {
                SysTlbEntry *e = &s->tlbs[i][sys_tlb_live_slot(s, i, k)];
                if (e->vblock != SYS_TLB_INVALID && (va & e->vbmask) == e->vblock)
                    inval_entry(e);
            }
    }
    s->n_tlb_flush_va++;
    s->chain_epoch++;
}

void sys_update_mode(SysCPU *s)
{
    s->unpriv = false;
    s->tlb = s->tlbs[s->el ? 1 : 0];
    /* CPACR_EL1.FPEN: 0b11 no trap, 0b01 trap EL0 only, 0bx0 trap EL0 and EL1. */
    unsigned fpen = (s->cpacr >> 20) & 3;
    bool fp_trap = fpen == 3 ? false : fpen == 1 ? s->el == 0 : true;
    s->tb_flags = s->el | ((s->sctlr & SCTLR_M) ? 4u : 0u) | (fp_trap ? SYS_TBF_FPTRAP : 0u) |
                  (s->dbg_step ? SYS_TBF_STEP : 0u);
}

void sys_set_pan(SysCPU *s, bool pan)
{
    if (pan && !s->pan && (s->pan_stale_ng || s->pan_stale_global)) {
        bool all = s->pan_stale_global;
        for (uint32_t k = 0, n = sys_tlb_live_count(s, 1); k < n; k++) {
            SysTlbEntry *e = &s->tlbs[1][sys_tlb_live_slot(s, 1, k)];
            if (all || !e->global)
                e->tag_r = e->tag_w = SYS_TLB_INVALID;
        }
        s->pan_stale_ng = s->pan_stale_global = false;
    }
    s->pan = pan;
}

void sys_unpriv_begin(SysCPU *s)
{
    s->unpriv = true;
    s->tlb = s->tlbs[0];
}

/* The EL and PAN state an access of the current instruction is checked with. */
static unsigned access_el(const SysCPU *s)
{
    return s->unpriv ? 0 : s->el;
}

static unsigned pan_flag(const SysCPU *s)
{
    return access_el(s) == 1 && s->pan ? MMU_PAN : 0;
}

/* A fill of the EL1 table under PAN = 0 with an EL0 data page: remember for sys_set_pan. */
static void note_pan_fill(SysCPU *s, const SysTlbEntry *e, const MmuResult *r)
{
    if (access_el(s) == 1 && !s->pan && r->el0_data &&
        (e->tag_r != SYS_TLB_INVALID || e->tag_w != SYS_TLB_INVALID)) {
        if (e->global)
            s->pan_stale_global = true;
        else
            s->pan_stale_ng = true;
    }
}

static bool read_desc(SysCPU *s, uint64_t pa, uint64_t *desc)
{
    uint8_t *p = bus_ram_ptr(s->mach->bus, pa, false);
    if (!p)
        return false;
    memcpy(desc, p, 8);
    return true;
}

bool mmu_translate(SysCPU *s, uint64_t va, unsigned el, unsigned access, MmuResult *r)
{
    memset(r, 0, sizeof *r);
    if (!(s->sctlr & SCTLR_M)) {
        if (va >> PA_BITS) {
            r->fsc = 0x00; /* address size fault, level 0 */
            r->fsc |= 0x100; /* marker: fault (fsc 0 is a valid code) */
            return false;
        }
        r->pa = va;
        r->size = 0x1000;
        r->perm = MMU_READ | MMU_WRITE | MMU_EXEC;
        return true;
    }
    uint64_t tcr = s->tcr;
    bool hi = (va >> 55) & 1;
    unsigned tsz = (unsigned)tcr_field(tcr, hi ? 16 : 0, 6);
    bool tbi = tcr_field(tcr, hi ? 38 : 37, 1);
    bool epd = tcr_field(tcr, hi ? 23 : 7, 1);
    if (tsz < 16)
        tsz = 16;
    if (tsz > 39)
        tsz = 39;
    unsigned va_bits = 64 - tsz;
    /* Bits [top:va_bits] must all equal VA[55]. */
    unsigned top = tbi ? 55 : 63;
    uint64_t upper = va >> va_bits;
    uint64_t ones = (1ull << (top - va_bits + 1)) - 1;
    upper &= ones;
    if (epd || upper != (hi ? ones : 0)) {
        r->fsc = 0x04; /* translation fault, level 0 */
        return false;
    }
    uint64_t ttbr = hi ? s->ttbr1 : s->ttbr0;
    unsigned levels = (va_bits - 12 + 8) / 9;
    unsigned level = 4 - levels;
    uint64_t table = ttbr & 0x0000FFFFFFFFFFFEull & ~7ull;
    bool ap_table_noel0 = false, ap_table_ro = false, uxn_table = false, pxn_table = false;
    uint64_t desc;
    for (;;) {
        unsigned shift = 12 + 9 * (3 - level);
        unsigned idx_bits = level == 4 - levels ? va_bits - shift : 9;
        uint64_t idx = (va >> shift) & ((1ull << idx_bits) - 1);
        uint64_t dpa = table + idx * 8;
        if (!read_desc(s, dpa, &desc)) {
            r->fsc = 0x14 + level; /* synchronous external abort on table walk */
            r->s1ptw = true;
            return false;
        }
        if (!(desc & 1)) {
            r->fsc = 0x04 + level;
            return false;
        }
        if (level < 3 && (desc & 2)) {
            ap_table_noel0 |= (desc >> 61) & 1;
            ap_table_ro |= (desc >> 62) & 1;
            uxn_table |= (desc >> 60) & 1;
            pxn_table |= (desc >> 59) & 1;
            table = desc & OA_MASK;
            level++;
            continue;
        }
        if ((level == 3 && !(desc & 2)) || (level < 3 && (level == 0))) {
            r->fsc = 0x04 + level; /* reserved descriptor / level-0 block */
            return false;
        }
        uint64_t bsize = 1ull << shift;
        uint64_t oa = desc & OA_MASK & ~(bsize - 1);
        if (oa >> PA_BITS) {
            r->fsc = 0x00 + level; /* address size fault */
            r->fsc |= 0x100;
            return false;
        }
        r->pa = oa | (va & (bsize - 1));
        r->size = bsize;
        if (!(desc & (1u << 10)) && !(access & MMU_NO_AF)) {
            r->fsc = 0x08 + level; /* access flag fault */
            return false;
        }
        unsigned ap = (desc >> 6) & 3;
        if (ap_table_noel0)
            ap &= ~1u;
        if (ap_table_ro)
            ap |= 2u;
        bool pxn = ((desc >> 53) & 1) || pxn_table;
        bool uxn = ((desc >> 54) & 1) || uxn_table;
        unsigned perm;
        r->el0_data = ap & 1;
        if (el == 0) {
            perm = (ap & 1) ? MMU_READ : 0;
            if ((ap & 1) && !(ap & 2))
                perm |= MMU_WRITE;
            if (!uxn)
                perm |= MMU_EXEC;
        } else {
            perm = MMU_READ;
            if (!(ap & 2))
                perm |= MMU_WRITE;
            if (!pxn && ap != 1)
                perm |= MMU_EXEC;
            if ((access & MMU_PAN) && (ap & 1))
                perm &= ~(unsigned)(MMU_READ | MMU_WRITE);
        }
        if ((s->sctlr & SCTLR_WXN) && (perm & MMU_WRITE))
            perm &= ~MMU_EXEC;
        r->perm = perm;
        r->attr = (desc >> 2) & 7;
        r->sh = (desc >> 8) & 3;
        r->ng = (desc >> 11) & 1;
        access &= MMU_READ | MMU_WRITE | MMU_EXEC;
        if ((access & perm) != access) {
            r->fsc = 0x0C + level; /* permission fault */
            return false;
        }
        return true;
    }
}

/* ---- TLB fill and slow paths ------------------------------------------------------------- */

/* Translate for an access; raises the fault (data abort) on failure.  Returns the physical
 * address and, for RAM, the host pointer (NULL for MMIO). */
/* Debugger watchpoints: a watched page keeps no read / write tag, so its accesses come here. */
static void debug_untag(const SysDebug *d, SysTlbEntry *e, uint64_t va)
{
    if (sys_debug_watch_page(d, va, false))
        e->tag_r = SYS_TLB_INVALID;
    if (sys_debug_watch_page(d, va, true))
        e->tag_w = SYS_TLB_INVALID;
}

static inline void debug_watch(CPUState *c, Op *o, uint64_t addr, unsigned size, bool write)
{
    const SysDebug *d = sys_cpu(c)->mach->dbg;
    if (unlikely(d) && d->n_wp && sys_debug_watch_hit(d, addr, size, write))
        cpu_raise(c, o, EXC_SYS_WATCH, addr, write);
}

static uint64_t translate_or_raise(CPUState *c, Op *o, uint64_t addr, unsigned access,
                                   uint8_t **host)
{
    SysCPU *s = sys_cpu(c);
    MmuResult r;
    s->n_tlb_miss++;
    if (!mmu_translate(s, addr, access_el(s), access | pan_flag(s), &r)) {
        s->fault_fsc = r.fsc & 0x3f;
        s->fault_s1ptw = r.s1ptw;
        cpu_raise(c, o, EXC_DATA_ABORT, addr, access == MMU_WRITE);
    }
    uint64_t page = addr & SYS_PAGE_MASK;
    uint64_t pa_page = r.pa & SYS_PAGE_MASK;
    uint8_t *hr = bus_ram_ptr(s->mach->bus, pa_page, false);
    *host = hr ? hr + (r.pa & 0xfff) : NULL;
    if (hr) {
        uint8_t *hw = (r.perm & MMU_WRITE) ? bus_ram_ptr(s->mach->bus, pa_page, true) : NULL;
        if (access == MMU_WRITE) {
            sys_code_modified(s, r.pa);
            if (!hw) { /* ROM */
                s->fault_fsc = 0x10;
                s->fault_s1ptw = false;
                cpu_raise(c, o, EXC_DATA_ABORT, addr, true);
            }
        }
        SysTlbEntry *e = sys_tlb_entry(c, addr);
        e->tag_r = (r.perm & MMU_READ) ? page : SYS_TLB_INVALID;
        e->pa = pa_page;
        e->tag_w = (hw && !sys_is_code_page(s, r.pa)) ? page : SYS_TLB_INVALID;
        note_write_tag(s, e);
        note_live(s, e);
        e->tag_x = (r.perm & MMU_EXEC) ? page : SYS_TLB_INVALID;
        e->addend = (uintptr_t)hr - (uintptr_t)page;
        set_vblock(s, e, addr, r.size);
        e->global = !r.ng && ((addr >> 55) & 1) && (s->sctlr & SCTLR_M);
        note_pan_fill(s, e, &r);
        recheck_code_page(s, e);
        if (unlikely(s->mach->dbg))
            debug_untag(s->mach->dbg, e, addr);
        if (unlikely(sys_timing_hier))     /* every data access comes here to be modelled */
            e->tag_r = e->tag_w = SYS_TLB_INVALID;
    }
    return r.pa;
}

/* translate_or_raise for a part of an access the fast path did not take whole (a page-crossing
 * access, a run of accesses whose span crosses a page): the page's soft-TLB entry when its tag
 * for the access hits, as the fast path would use it, else the walk.  Without this every part
 * of a crossing access walked the page tables, byte by byte for loads and stores. */
static uint64_t translate_part(CPUState *c, Op *o, uint64_t addr, unsigned access, uint8_t **host)
{
    const SysTlbEntry *e = sys_tlb_entry(c, addr);
    if ((access == MMU_WRITE ? e->tag_w : e->tag_r) == (addr & SYS_PAGE_MASK)) {
        *host = (uint8_t *)(uintptr_t)(addr + e->addend);
        return e->pa | (addr & 0xfff);
    }
    return translate_or_raise(c, o, addr, access, host);
}

static _Noreturn void bus_error(CPUState *c, Op *o, uint64_t addr, bool write)
{
    SysCPU *s = sys_cpu(c);
    s->fault_fsc = 0x10; /* synchronous external abort */
    s->fault_s1ptw = false;
    cpu_raise(c, o, EXC_DATA_ABORT, addr, write);
}

uint64_t sys_ld_slow(CPUState *c, Op *o, uint64_t addr, unsigned size)
{
    debug_watch(c, o, addr, size, false);
    if (!sys_in_page_(addr, size)) {
        uint64_t v = 0;
        for (unsigned i = 0; i < size; i++)
            v |= sys_ld_slow(c, o, addr + i, 1) << (8 * i);
        return v;
    }
    uint8_t *h;
    uint64_t pa = translate_part(c, o, addr, MMU_READ, &h);
    if (h) {
        if (unlikely(sys_timing_hier))
            sys_timing_data(sys_cpu(c), pa, size, false);
        uint64_t v = 0;
        memcpy(&v, h, size);
        return v;
    }
    if (addr & (size - 1)) {
        SysCPU *s = sys_cpu(c);
        s->fault_fsc = 0x21; /* alignment fault: unaligned Device access */
        s->fault_s1ptw = false;
        cpu_raise(c, o, EXC_DATA_ABORT, addr, false);
    }
    uint64_t v;
    if (bus_read(sys_cpu(c)->mach->bus, pa, size, &v) != BUS_OK)
        bus_error(c, o, addr, false);
    return v;
}

void sys_probe_write(CPUState *c, Op *o, uint64_t addr)
{
    const SysTlbEntry *e = sys_tlb_entry(c, addr);
    if (e->tag_w == (addr & SYS_PAGE_MASK))
        return;
    SysCPU *s = sys_cpu(c);
    MmuResult r;
    if (!mmu_translate(s, addr, access_el(s), MMU_WRITE | pan_flag(s), &r)) {
        s->fault_fsc = r.fsc & 0x3f;
        s->fault_s1ptw = r.s1ptw;
        cpu_raise(c, o, EXC_DATA_ABORT, addr, true);
    }
}

void sys_st_slow(CPUState *c, Op *o, uint64_t addr, unsigned size, uint64_t val)
{
    debug_watch(c, o, addr, size, true);
    if (!sys_in_page_(addr, size)) {
        sys_probe_write(c, o, addr + size - 1);
        for (unsigned i = 0; i < size; i++)
            sys_st_slow(c, o, addr + i, 1, val >> (8 * i));
        return;
    }
    uint8_t *h;
    uint64_t pa = translate_part(c, o, addr, MMU_WRITE, &h);
    if (h) {
        if (unlikely(sys_timing_hier))
            sys_timing_data(sys_cpu(c), pa, size, true);
        memcpy(h, &val, size);
        return;
    }
    if (addr & (size - 1)) {
        SysCPU *s = sys_cpu(c);
        s->fault_fsc = 0x21;
        s->fault_s1ptw = false;
        cpu_raise(c, o, EXC_DATA_ABORT, addr, true);
    }
    if (bus_write(sys_cpu(c)->mach->bus, pa, val, size) != BUS_OK)
        bus_error(c, o, addr, true);
}

uint8_t *sys_host_slow(CPUState *c, Op *o, uint64_t addr, unsigned size, bool write,
                       bool aligned_atomic)
{
    SysCPU *s = sys_cpu(c);
    uint8_t *h;
    debug_watch(c, o, addr, size, write);
    if (!sys_in_page_(addr, size)) {
        /* Two pages: usable only when both are RAM and host-contiguous. */
        uint64_t second = (addr | 0xfff) + 1;
        uint8_t *h2;
        translate_part(c, o, second, write ? MMU_WRITE : MMU_READ, &h2);
        translate_part(c, o, addr, write ? MMU_WRITE : MMU_READ, &h);
        if (unlikely(sys_timing_hier) && h && h2)
            sys_timing_data(s, translate_or_raise(c, o, addr, write ? MMU_WRITE : MMU_READ, &h), size, write);
        if (h && h2 && h + (second - addr) == h2)
            return h;
        if (!write && size <= sizeof s->bounce && h && h2) {
            memcpy(s->bounce, h, second - addr);
            memcpy(s->bounce + (second - addr), h2, size - (second - addr));
            return s->bounce;
        }
        fprintf(stderr, "malibu: unsupported page-crossing %s of %u bytes at 0x%llx\n",
                write ? "store" : "load", size, (unsigned long long)addr);
        bus_error(c, o, addr, write);
    }
    uint64_t pa = translate_or_raise(c, o, addr, write ? MMU_WRITE : MMU_READ, &h);
    if (h) {
        if (unlikely(sys_timing_hier))
            sys_timing_data(s, pa, size, write);
        return h;
    }
    /* MMIO: loads of up to 8 bytes through the bounce buffer (LDAR on device memory). */
    if (!write && size <= 8 && !(addr & (size - 1))) {
        uint64_t v;
        if (bus_read(s->mach->bus, pa, size, &v) != BUS_OK)
            bus_error(c, o, addr, false);
        memcpy(s->bounce, &v, 8);
        return s->bounce;
    }
    (void)aligned_atomic;
    bus_error(c, o, addr, write);
}

bool sys_translate_exec(SysCPU *s, uint64_t pc, uint64_t *pa, uint8_t **host)
{
    SysTlbEntry *e = &s->tlb[(pc >> 12) & (SYS_TLB_SIZE - 1)];
    if (e->tag_x == (pc & SYS_PAGE_MASK)) {
        *pa = e->pa | (pc & 0xfff);
        *host = (uint8_t *)(uintptr_t)(pc + e->addend);
        return true;
    }
    MmuResult r;
    s->n_tlb_miss++;
    if (!mmu_translate(s, pc, s->el, MMU_EXEC | (s->el && s->pan ? MMU_PAN : 0), &r)) {
        s->fault_fsc = r.fsc & 0x3f;
        s->fault_s1ptw = r.s1ptw;
        return false;
    }
    uint64_t page = pc & SYS_PAGE_MASK, pa_page = r.pa & SYS_PAGE_MASK;
    uint8_t *hr = bus_ram_ptr(s->mach->bus, pa_page, false);
    if (!hr) {
        s->fault_fsc = 0x10; /* fetch from MMIO / unassigned: external abort */
        s->fault_s1ptw = false;
        return false;
    }
    uint8_t *hw = (r.perm & MMU_WRITE) ? bus_ram_ptr(s->mach->bus, pa_page, true) : NULL;
    e->tag_r = (r.perm & MMU_READ) ? page : SYS_TLB_INVALID;
    e->pa = pa_page;
    e->tag_w = (hw && !sys_is_code_page(s, r.pa)) ? page : SYS_TLB_INVALID;
    note_write_tag(s, e);
    note_live(s, e);
    e->tag_x = page;
    e->addend = (uintptr_t)hr - (uintptr_t)page;
    set_vblock(s, e, pc, r.size);
    e->global = !r.ng && ((pc >> 55) & 1) && (s->sctlr & SCTLR_M);
    note_pan_fill(s, e, &r);
    recheck_code_page(s, e);
    if (unlikely(s->mach->dbg))
        debug_untag(s->mach->dbg, e, pc);
    *pa = r.pa;
    *host = hr + (pc & 0xfff);
    return true;
}

void sys_at(SysCPU *s, uint64_t va, unsigned el, bool write)
{
    MmuResult r;
    if (mmu_translate(s, va, el, write ? MMU_WRITE : MMU_READ, &r)) {
        uint64_t attr = (s->sctlr & SCTLR_M) ? (s->mair >> (8 * r.attr)) & 0xff : 0;
        s->par = (attr << 56) | (r.pa & 0x000000FFFFFFF000ull) | ((uint64_t)r.sh << 7) | (1ull << 11);
    } else {
        s->par = 1 | ((uint64_t)(r.fsc & 0x3f) << 1) | ((uint64_t)r.s1ptw << 8) | (1ull << 11);
    }
}
