/* GPU memory as a workgroup's shader sees it (engine_int.h): the executor's bi_mem calls for one
 * host thread.  Global memory goes through a per-thread page cache of host pages the device
 * maps (the soft TLB, valid while the device's generation word is unchanged), else through the
 * device's own read / write / atomic calls, which report faults; local (WLS) and thread-local
 * (TLS) storage are windows onto the workgroup's private host memory.  Under --timing every
 * access is also recorded for the cache model (gpu_timing.h) and none goes through mapped pages. */
#include "engine_int.h"

#include <string.h>

/* ---- memory callbacks (per worker) ----------------------------------------------------------- */

static int mem_fault(worker *w, uint32_t code, uint64_t va)
{
    if (!w->fault) {
        w->fault = code ? code : EXC_DATA_INVALID_FAULT;
        w->fault_va = va;
    }
    return -1;
}

/* host window for WLS/TLS addresses, NULL if addr is a GPU VA; faults outside the storage */
static uint8_t *window(worker *w, uint64_t addr, unsigned size, int *bad)
{
    *bad = 0;
    if (addr < WLS_WINDOW)
        return NULL;
    if (addr - WLS_WINDOW < (1ull << 40)) {
        uint64_t off = addr - WLS_WINDOW;
        if (off + size > w->wls_size) {
            *bad = 1;
            return NULL;
        }
        return w->wls + off;
    }
    if (addr - TLS_WINDOW < (1ull << 40)) {
        uint64_t off = addr - TLS_WINDOW;
        if (off + size > w->tls_size) {
            *bad = 1;
            return NULL;
        }
        return w->tls + off;
    }
    *bad = 1;
    return NULL;
}

/* fast's page-cache miss: the page from the map fast path (out of line: the callers' hit path
 * then needs no registers saved) */
static __attribute__((noinline)) uint8_t *fast_fill(worker *w, wtlb_entry *e, uint64_t va, unsigned access,
                                                    unsigned need)
{
    const gpu_mem_if *m = w->jm;
    uint64_t g, vp = va >> 12;
    uint8_t *h = m->map(m->ctx, va & ~4095ull, access, &g);
    if (!h)
        return NULL;
    if (!(e->host && e->vpage == vp && e->gen == g))
        e->perm = 0;
    e->vpage = vp;
    e->gen = g;
    e->host = h;
    e->perm |= need;
    return h + (va & 4095);
}

/* host address for a global access that stays within one page, from the worker's page cache or
 * the map fast path; NULL: use the slow path (which reports faults).  need: the permission bits
 * the access needs in the cache (1 read, 2 write, 3 atomic). */
static inline uint8_t *fast(worker *w, uint64_t va, unsigned size, unsigned access, unsigned need)
{
    const gpu_mem_if *m = w->jm;
    if (!m->map || (va & 4095) + size > 4096)
        return NULL;
    uint64_t gen = w->gen_word ? __atomic_load_n(w->gen_word, __ATOMIC_ACQUIRE) : m->generation(m->ctx);
    uint64_t vp = va >> 12;
    wtlb_entry *e = &w->tlb[WTLB_SLOT(vp)];
    if (__builtin_expect(e->host && e->vpage == vp && e->gen == gen && (e->perm & need) == need, 1))
        return e->host + (va & 4095);
    return fast_fill(w, e, va, access, need);
}

/* memcpy with the sizes of loads and stores as constants: inline moves, no library call (whose
 * byte copies a following load of the value would wait for) */
static inline void copy(void *d, const void *s, unsigned size)
{
    switch (size) {
    case 1: memcpy(d, s, 1); break;
    case 2: memcpy(d, s, 2); break;
    case 4: memcpy(d, s, 4); break;
    case 8: memcpy(d, s, 8); break;
    case 12: memcpy(d, s, 12); break;
    case 16: memcpy(d, s, 16); break;
    case 32: memcpy(d, s, 32); break;     /* texture and sampler descriptors */
    default: memcpy(d, s, size); break;
    }
}

static int m_read(void *ctx, uint64_t addr, void *buf, unsigned size)
{
    worker *w = ctx;
    int bad;
    uint8_t *h = window(w, addr, size, &bad);
    if (h) {
        copy(buf, h, size);
        return 0;
    }
    if (bad)
        return mem_fault(w, EXC_DATA_INVALID_FAULT, addr);
    if ((h = fast(w, addr, size, GPU_ACCESS_READ, 1))) {
        copy(buf, h, size);
        return 0;
    }
    const gpu_mem_if *m = w->jm;
    uint32_t code = m->read(m->ctx, addr, buf, size);
    return code ? mem_fault(w, code, addr) : 0;
}

static int m_write(void *ctx, uint64_t addr, const void *buf, unsigned size)
{
    worker *w = ctx;
    int bad;
    uint8_t *h = window(w, addr, size, &bad);
    if (h) {
        copy(h, buf, size);
        return 0;
    }
    if (bad)
        return mem_fault(w, EXC_DATA_INVALID_FAULT, addr);
    if ((h = fast(w, addr, size, GPU_ACCESS_WRITE, 2))) {
        copy(h, buf, size);
        return 0;
    }
    const gpu_mem_if *m = w->jm;
    uint32_t code = m->write(m->ctx, addr, buf, size);
    return code ? mem_fault(w, code, addr) : 0;
}

/* bi_mem.map: the workgroup's storage window, or the global page from the page cache */
static uint8_t *m_map(void *ctx, uint64_t addr, int write, uint64_t *lo, uint64_t *hi)
{
    worker *w = ctx;
    if (addr >= WLS_WINDOW) {
        uint64_t base = addr - WLS_WINDOW < (1ull << 40) ? WLS_WINDOW : TLS_WINDOW;
        uint64_t size = base == WLS_WINDOW ? w->wls_size : w->tls_size;
        if (addr - base >= (1ull << 40) || addr - base >= size)
            return NULL;
        *lo = base;
        *hi = base + size;
        return (base == WLS_WINDOW ? w->wls : w->tls) + (addr - base);
    }
    uint8_t *h = write == 2 ? fast(w, addr, 1, GPU_ACCESS_ATOMIC, 3)
               : write     ? fast(w, addr, 1, GPU_ACCESS_WRITE, 2)
                           : fast(w, addr, 1, GPU_ACCESS_READ, 1);
    if (h) {
        *lo = addr & ~4095ull;
        *hi = *lo + 4096;
    }
    return h;
}

static int m_atomic(void *ctx, uint64_t addr, unsigned size, uint64_t (*op)(uint64_t, void *), void *arg,
                    uint64_t *old)
{
    worker *w = ctx;
    int bad;
    uint8_t *h = window(w, addr, size, &bad);
    if (h) {     /* the workgroup's own storage: only this host thread touches it */
        if (size == 4) {
            uint32_t o, n;
            memcpy(&o, h, 4);
            n = (uint32_t)op(o, arg);
            memcpy(h, &n, 4);
            *old = o;
        } else {
            uint64_t o = 0, n;
            memcpy(&o, h, size);
            n = op(o, arg);
            memcpy(h, &n, size);
            *old = o;
        }
        return 0;
    }
    if (bad)
        return mem_fault(w, EXC_DATA_INVALID_FAULT, addr);
    if (!(addr & (size - 1)) && (h = fast(w, addr, size, GPU_ACCESS_ATOMIC, 3))) {
        if (size == 4) {        /* host atomics: atomic against every other host thread */
            uint32_t *p = (uint32_t *)(void *)h, o = __atomic_load_n(p, __ATOMIC_SEQ_CST), n;
            do
                n = (uint32_t)op(o, arg);
            while (!__atomic_compare_exchange_n(p, &o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
            *old = o;
        } else {
            uint64_t *p = (uint64_t *)(void *)h, o = __atomic_load_n(p, __ATOMIC_SEQ_CST), n;
            do
                n = op(o, arg);
            while (!__atomic_compare_exchange_n(p, &o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
            *old = o;
        }
        return 0;
    }
    const gpu_mem_if *m = w->jm;
    uint32_t code = m->atomic(m->ctx, addr, size, op, arg, old);
    return code ? mem_fault(w, code, addr) : 0;
}

static unsigned m_fetch(void *ctx, uint64_t off, void *buf, unsigned size)
{
    worker *w = ctx;
    const gpu_mem_if *m = &w->r->job->mem;
    uint64_t va = w->shader_base + off;
    unsigned n = 4096 - (unsigned)(va & 4095);
    if (n > size)
        n = size;
    uint32_t code = m->fetch(m->ctx, va, buf, n);
    if (code) {
        mem_fault(w, code, va);
        return 0;
    }
    return n;
}

/* ---- --timing: the same calls, recorded (gpu_timing.h) ---------------------------------------- */

/* WLS / TLS live in per-workgroup host memory: the model sees each core's at its own addresses */
static uint64_t timing_addr(const worker *w, uint64_t addr)
{
    return addr >= WLS_WINDOW ? addr + ((uint64_t)w->core_id << 32) : addr;
}

static int t_read(void *ctx, uint64_t addr, void *buf, unsigned size)
{
    worker *w = ctx;
    gt_trace_access(&w->trace, timing_addr(w, addr), size, false);
    return m_read(ctx, addr, buf, size);
}

static int t_write(void *ctx, uint64_t addr, const void *buf, unsigned size)
{
    worker *w = ctx;
    gt_trace_access(&w->trace, timing_addr(w, addr), size, true);
    return m_write(ctx, addr, buf, size);
}

static int t_atomic(void *ctx, uint64_t addr, unsigned size, uint64_t (*op)(uint64_t, void *), void *arg,
                    uint64_t *old)
{
    worker *w = ctx;
    gt_trace_access(&w->trace, timing_addr(w, addr), size, true);
    return m_atomic(ctx, addr, size, op, arg, old);
}

static void t_message(void *ctx, const bi_warp *warp)
{
    worker *w = ctx;
    gt_trace_message(&w->trace, warp->warp_id);
}

/* The job's memory for a front end's own accesses on a worker (gfx_tile.c's write-back): with
 * --timing each read / write is recorded into the worker's trace too */
static uint32_t j_read(void *ctx, uint64_t va, void *buf, size_t len)
{
    worker *w = ctx;
    gt_trace_access(&w->trace, va, (unsigned)len, false);
    return w->jm->read(w->jm->ctx, va, buf, len);
}

static uint32_t j_write(void *ctx, uint64_t va, const void *buf, size_t len)
{
    worker *w = ctx;
    gt_trace_access(&w->trace, va, (unsigned)len, true);
    return w->jm->write(w->jm->ctx, va, buf, len);
}

gpu_mem_if engine_mem_job_message(worker *w)
{
    if (w->mem.read != t_read)
        return *w->jm;
    gt_trace_message(&w->trace, 0);
    return (gpu_mem_if){ .ctx = w, .read = j_read, .write = j_write };
}

void engine_mem_bind(worker *w, const run *r, bool recording)
{
    const job_desc *d = &r->d;
    w->jm = &r->job->mem;
    w->gen_word = w->jm->generation_word;
    w->mem = (bi_mem){ .ctx = w, .read = m_read, .write = m_write, .atomic = m_atomic, .fetch = m_fetch, .map = m_map,
                       .epoch = r->epoch, .wls_base = WLS_WINDOW, .private_base = WLS_WINDOW, .nubos = d->nubos, .ubo_addr = d->ubo_addr,
                       .ubo_size = d->ubo_size, .arch_major = r->job->arch_major, .textures = d->textures,
                       .samplers = d->samplers, .attributes = d->attributes, .attr_bufs = d->attr_bufs,
                       .varyings = d->varyings, .vary_bufs = d->varying_bufs,
                       .attr_instance_size = d->instance_size > 1 ? d->instance_size : 0,
                       .clock_cycles = r->job->clock_cycles, .clock_ts = r->job->clock_ts, .gpu_hz = r->job->gpu_hz,
                       .ts_hz = r->job->ts_hz, .clock_running = r->job->clock_running,
                       .map_gen = w->gen_word };      /* map's pages stay valid while it is unchanged */
    if (recording) {   /* every access through the recording calls, none mapped */
        w->mem.read = t_read;
        w->mem.write = t_write;
        w->mem.atomic = t_atomic;
        w->mem.map = NULL;
        w->mem.message = t_message;
    }
    w->shader_base = d->shader_va;
    memset(w->tlb, 0, sizeof(w->tlb));      /* another job: maybe another address space */
}
