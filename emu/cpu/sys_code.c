/* Physical pages holding translated code (system mode).  A machine-wide byte per page marks
 * pages blocks were translated from, so that stores to them leave the TLB fast path; per CPU,
 * an index of the blocks translated from each page lets a store into a code page drop just
 * that page's blocks (the kernel recycles pages that held user code all the time) instead of
 * every translation.
 *
 * Why per page is enough: a block never crosses a page (translation ends blocks at page ends),
 * and unguarded direct chaining stays within a block's page, so the only jumps into a page's
 * blocks come from blocks of the same page (dropped together), through the jump cache and the
 * hash, or through the guard of a native cross-page chain (native.c), all of which stop
 * finding a dropped block (its pc becomes an impossible address). */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "sys_cpu.h"
#include "tb.h"

#define DEAD_PC (~0ull) /* misaligned: no lookup matches it */

/* code_map values: a page on code_list holds code (CODE) or held some since the last full flush
 * (LISTED), so pages rewritten again and again (JIT output) are listed once. */
enum { NOT_CODE = 0, CODE = 1, LISTED = 2 };

/* With several CPUs, posts to a CPU's inval_* / remote_code_all fields take the machine's
 * xcpu_lock (another CPU may be posting to it). */
static void xlock(SysMachine *m)
{
    if (m->ncpu > 1)
        pthread_mutex_lock(&m->xcpu_lock);
}

static void xunlock(SysMachine *m)
{
    if (m->ncpu > 1)
        pthread_mutex_unlock(&m->xcpu_lock);
}

bool sys_is_code_page(SysCPU *s, uint64_t pa)
{
    return pa < SYS_CODE_MAP_PA_LIMIT && s->mach->code_map[pa >> 12] == CODE;
}

/* Drop the write tags into page pg of the slots at positions lo..hi-1 of t's live list i. */
static void drop_listed_in(SysCPU *t, unsigned i, uint32_t lo, uint32_t hi, uint32_t pg)
{
    for (uint32_t k = lo; k < hi; k++)
        if (t->tlb_live_wpage[i][k] == pg) /* where write tags for pg were filled */
            t->tlbs[i][t->tlb_live[i][k]].tag_w = SYS_TLB_INVALID;
}

/* Drop t's write tags into physical page pg: through the page hints in the order of t's live
 * lists (listed true: t is this thread's CPU, whose lists are exact) or of every slot. */
static void drop_write_tags(SysCPU *t, uint64_t pg, bool listed)
{
    for (unsigned i = 0; i < 2; i++) {
        if (listed && t->tlb_live_exact[i]) {
            const uint32_t *wpage = t->tlb_live_wpage[i], n = t->tlb_live_n[i];
            uint32_t k = 0;
#ifdef __SSE2__
            const __m128i want = _mm_set1_epi32((int)(uint32_t)pg);
            for (; k + 8 <= n; k += 8) { /* eight hints per two compares */
                __m128i a = _mm_loadu_si128((const __m128i *)(wpage + k));
                __m128i b = _mm_loadu_si128((const __m128i *)(wpage + k + 4));
                __m128i eq = _mm_or_si128(_mm_cmpeq_epi32(a, want), _mm_cmpeq_epi32(b, want));
                if (_mm_movemask_epi8(eq))
                    drop_listed_in(t, i, k, k + 8, (uint32_t)pg);
            }
#endif
            drop_listed_in(t, i, k, n, (uint32_t)pg);
            continue;
        }
        for (uint32_t j = 0; j < SYS_TLB_SIZE; j++)
            if (t->tlb_wpage[i][j] == (uint32_t)pg)
                t->tlbs[i][j].tag_w = SYS_TLB_INVALID;
    }
}

/* The same for another CPU t, which fills and sweeps meanwhile: through its lists when no
 * sweep ran during the visit (its fills after our mark see the mark: recheck_code_page).
 * false: a list was incomplete or rewritten; scan. */
static bool drop_listed_write_tags(SysCPU *t, uint64_t pg)
{
    uint32_t seq = __atomic_load_n(&t->tlb_sweep_seq, __ATOMIC_ACQUIRE);
    if (seq & 1)
        return false;
    for (unsigned i = 0; i < 2; i++) {
        if (!__atomic_load_n(&t->tlb_live_exact[i], __ATOMIC_RELAXED))
            return false;
        uint32_t n = __atomic_load_n(&t->tlb_live_n[i], __ATOMIC_ACQUIRE);
        for (uint32_t k = 0; k < n && k < SYS_TLB_LIVE_MAX; k++) {
            uint32_t j = t->tlb_live[i][k] & (SYS_TLB_SIZE - 1);
            if (t->tlb_wpage[i][j] == (uint32_t)pg)
                t->tlbs[i][j].tag_w = SYS_TLB_INVALID;
        }
    }
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return __atomic_load_n(&t->tlb_sweep_seq, __ATOMIC_RELAXED) == seq;
}

void sys_mark_code(SysCPU *s, uint64_t pa)
{
    SysMachine *m = s->mach;
    uint64_t pg = pa >> 12;
    if (pa >= SYS_CODE_MAP_PA_LIMIT || m->code_map[pg] == CODE)
        return;
    xlock(m); /* several CPUs may mark pages at once: code_list */
    if (m->code_map[pg] == CODE) {
        xunlock(m);
        return;
    }
    bool listed = m->code_map[pg] == LISTED;
    m->code_map[pg] = CODE;
    __atomic_thread_fence(__ATOMIC_SEQ_CST); /* mark before scanning: see mmu.c recheck_code_page */
    if (listed)
        goto protect;
    if (m->code_n == m->code_cap) {
        m->code_cap = m->code_cap ? m->code_cap * 2 : 1024;
        m->code_list = realloc(m->code_list, m->code_cap * sizeof *m->code_list);
        if (!m->code_list)
            abort();
    }
    m->code_list[m->code_n++] = pg;
protect:
    /* No TLB entry of any CPU may keep a writable fast path to this page. */
    for (unsigned k = 0; k < (m->ncpu ? m->ncpu : 1); k++) {
        SysCPU *t = m->ncpu ? m->cpus[k] : s;
        if (!t)
            continue;
        if (t == s || !drop_listed_write_tags(t, pg))
            drop_write_tags(t, pg, t == s);
    }
    xunlock(m);
}

/* ---- blocks by physical page: open addressing on the page number --------------------------- */

static SysCodePage *page_slot(SysCPU *s, uint64_t pg, bool insert)
{
    SysCodeIndex *x = &s->code_idx;
    if (x->gen != s->cpu.tbc->n_flushes) { /* the cache was flushed: every list is stale */
        if (x->n)
            memset(x->slot, 0, x->cap * sizeof *x->slot);
        x->n = 0;
        x->gen = s->cpu.tbc->n_flushes;
    }
    if (insert && 2 * (x->n + 1) > x->cap) {
        size_t ncap = x->cap ? 2 * x->cap : 1024;
        SysCodePage *ns = calloc(ncap, sizeof *ns), *old = x->slot;
        if (!ns)
            abort();
        for (size_t i = 0; i < x->cap; i++)
            if (old[i].key) {
                size_t j = (size_t)(old[i].key * 0x9E3779B97F4A7C15ull >> 20) & (ncap - 1);
                while (ns[j].key)
                    j = (j + 1) & (ncap - 1);
                ns[j] = old[i];
            }
        free(old);
        x->slot = ns;
        x->cap = ncap;
    }
    if (!x->cap)
        return NULL;
    uint64_t key = pg + 1; /* 0 = empty slot */
    size_t j = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & (x->cap - 1);
    while (x->slot[j].key && x->slot[j].key != key)
        j = (j + 1) & (x->cap - 1);
    if (!x->slot[j].key) {
        if (!insert)
            return NULL;
        x->slot[j].key = key;
        x->n++;
    }
    return &x->slot[j];
}

void sys_code_add_tb(SysCPU *s, TB *tb)
{
    SysCodePage *p = page_slot(s, tb->phys >> 12, true);
    tb->page_next = p->tbs;
    p->tbs = tb;
}

static void drop_page(SysCPU *s, uint64_t pg)
{
    SysCodePage *p = page_slot(s, pg, false);
    if (!p)
        return;
    for (TB *tb = p->tbs; tb; tb = tb->page_next) {
        tbc_remove(s->cpu.tbc, tb);
        tb->pc = DEAD_PC;
        tb->phys = DEAD_PC;
        s->n_tb_dropped++;
    }
    s->chain_epoch++; /* the guards of chains into them look again (DEAD_PC) */
    p->tbs = NULL; /* the slot stays: the page will likely hold code again */
}

/* ---- invalidation ------------------------------------------------------------------------------ */

static void post_page(SysCPU *t, uint64_t pg)
{
    if (t->n_inval < SYS_MAX_INVAL_PAGES)
        t->inval_pages[t->n_inval++] = pg;
    else
        t->inval_all = true;
    t->cpu.tbc->flush_pending = 1;
    t->cpu.exit_request = 1;
}

void sys_flush_code(SysCPU *s)
{
    SysMachine *m = s->mach;
    xlock(m);
    for (size_t i = 0; i < m->code_n; i++)
        m->code_map[m->code_list[i]] = NOT_CODE;
    m->code_n = 0;
    s->n_inval = 0;
    s->inval_all = false;
    s->remote_code_all = false;
    /* The other CPUs' blocks lose their code-page marks too: they must go. */
    for (unsigned i = 0; i < m->ncpu; i++) {
        SysCPU *t = m->cpus[i];
        if (t && t != s) {
            t->remote_code_all = true;
            t->cpu.tbc->flush_pending = 1;
            t->cpu.exit_request = 1;
        }
    }
    xunlock(m);
    tbc_flush(s->cpu.tbc);
}

void sys_code_modified(SysCPU *s, uint64_t pa)
{
    if (!sys_is_code_page(s, pa))
        return;
    SysMachine *m = s->mach;
    xlock(m);
    m->code_map[pa >> 12] = LISTED;
    if (m->ncpu > 1) {
        for (unsigned i = 0; i < m->ncpu; i++)
            if (m->cpus[i])
                post_page(m->cpus[i], pa >> 12);
    } else {
        post_page(s, pa >> 12);
    }
    xunlock(m);
}

void sys_code_modified_all(SysCPU *s)
{
    if (s->mach->code_n) {
        xlock(s->mach);
        s->inval_all = true; /* sys_flush_code then tells the other CPUs */
        s->cpu.tbc->flush_pending = 1;
        s->cpu.exit_request = 1;
        xunlock(s->mach);
    }
}

void sys_code_apply(SysCPU *s)
{
    SysMachine *m = s->mach;
    uint64_t pages[SYS_MAX_INVAL_PAGES];
    xlock(m);
    bool all = s->inval_all, remote_all = s->remote_code_all;
    unsigned n = s->n_inval;
    memcpy(pages, s->inval_pages, n * sizeof *pages);
    s->n_inval = 0;
    s->remote_code_all = false;
    s->cpu.tbc->flush_pending = 0;
    xunlock(m);
    if (all) {
        sys_flush_code(s);
        return;
    }
    if (remote_all) {
        tbc_flush(s->cpu.tbc);
        return;
    }
    for (unsigned i = 0; i < n; i++)
        drop_page(s, pages[i]);
}

void sys_code_free(SysCPU *s)
{
    free(s->code_idx.slot);
    s->code_idx = (SysCodeIndex){ 0 };
}
