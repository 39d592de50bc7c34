/* Bifrost shader-core engine: COMPUTE job descriptors -> workgroups on a pool of host threads.
 * See compute.h.  Descriptor facts: /work/shared/reference/mali-bifrost-interface.md §6.2-6.5. */
#include "compute.h"
#include "job_gate.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bifrost_exec.h"
#include "gpu_timing.h"
#include "job_walk.h"
#include "mali_formats.h"
#include "workgroup.h"

/* exception codes (enum mali_exc, isa/mali/bifrost.fmt) */
#define EXC_DONE MALI_EXC_DONE
#define EXC_JOB_CONFIG_FAULT MALI_EXC_JOB_CONFIG_FAULT
#define EXC_INSTR_INVALID_PC MALI_EXC_INSTR_INVALID_PC
#define EXC_INSTR_INVALID_ENC MALI_EXC_INSTR_INVALID_ENC
#define EXC_DATA_INVALID_FAULT MALI_EXC_DATA_INVALID_FAULT

/* Local (WLS) and thread-local (TLS) storage live in host memory private to the workgroup; the
 * shader sees them at these addresses (above any 48-bit GPU VA, so they never alias memory). */
#define WLS_WINDOW 0xFFFF000000000000ull
#define TLS_WINDOW 0xFFFF100000000000ull
#define MAX_WLS (1u << 20)
#define MAX_TLS_TOTAL (64u << 20)
#define MAX_WG_THREADS 1024u          /* THREAD_MAX_WORKGROUP_SIZE of the models is <= 384 */
#define CACHE_SIZE 32
#ifndef STOP_POLL_CLAUSES
#define STOP_POLL_CLAUSES 65536u      /* the fuzz build (tests/fuzz) polls more often */
#endif
#define PROGRESS_BATCH_TUPLES 65536u /* ~10 us of a modelled GPU: fine enough for guest timers */

static unsigned default_threads;
static tm_config timing_cfg;            /* --timing: engines created afterwards model caches */
static bool timing_on;

void (*gpu_compute_stats_hook)(const void *prog, uint64_t epoch, uint64_t shader_va, unsigned as, unsigned type);
void (*gpu_compute_stats_end_hook)(const void *prog, uint64_t epoch, uint32_t status);
void (*gpu_compute_timing_hook)(const void *prog, uint64_t epoch, const gpu_timing_job *jt);
void gpu_compute_set_default_threads(unsigned n) { default_threads = n; }
unsigned gpu_compute_default_threads(void) { return default_threads; }

void gpu_compute_set_timing(const tm_config *cfg)
{
    timing_on = cfg != NULL;
    if (cfg)
        timing_cfg = *cfg;
}

int gpu_compute_set_backend(const char *name, char *err, size_t errlen)
{
    if (!strcmp(name, "interp"))
        return bi_set_backend(BI_BACKEND_INTERP);
    const char *isa = !strcmp(name, "jit-avx2") ? "avx2" : !strcmp(name, "jit-sse") ? "sse" : NULL;
    if (strcmp(name, "jit") && !isa) {
        snprintf(err, errlen, "--gpu-backend: jit, jit-avx2, jit-sse or interp");
        return -1;
    }
    if (bi_set_backend(BI_BACKEND_JIT)) {
        snprintf(err, errlen, "--gpu-backend %s: needs an x86-64 host with AVX2 and FMA, or SSE4.1 and SSSE3 (use interp)",
                 name);
        return -1;
    }
    if (isa && bi_set_jit_isa(isa)) {
        snprintf(err, errlen, "--gpu-backend %s: the host lacks %s (use jit)", name,
                 !strcmp(isa, "avx2") ? "AVX2 and FMA" : "SSE4.1 and SSSE3");
        return -1;
    }
    return 0;
}

/* ---- parsed job ------------------------------------------------------------------------------ */

typedef struct {
    unsigned local[3], groups[3];
    uint64_t shader_va;
    uint32_t preload;
    uint32_t *uniforms;       /* push uniforms (32-bit words) */
    unsigned nuniforms;
    unsigned nubos;
    uint64_t *ubo_addr;
    uint32_t *ubo_size;
    uint32_t wls_size;        /* bytes per workgroup (0: none) */
    uint32_t tls_stride;      /* bytes per thread (0: none) */
    uint64_t textures, samplers, attributes, attr_bufs;   /* DCD descriptor tables (images) */
} job_desc;

typedef struct shader_entry {
    uint64_t va;
    unsigned as, arch;
    bi_program *p;
    int in_use, stale;
    uint64_t last_use;
} shader_entry;

struct worker;

typedef struct run {
    gpu_compute *e;
    const gpu_compute_job *job;
    job_desc d;
    bi_program *prog;
    uint64_t epoch;
    unsigned ncores, core_ids[64];
    uint64_t total_wgs;
    uint64_t next_wg;                     /* atomic */
    int abort;                            /* atomic: stop picking workgroups */
    pthread_mutex_t lock;                 /* the fields below */
    uint64_t fault_wg;                    /* lowest faulting workgroup */
    uint32_t status;
    uint64_t fault_va;
    unsigned active;                      /* threads still working on this run */
    pthread_cond_t done;
    gpu_compute_stats st;
} run;

/* per host thread: cached host pages of global memory (map fast path), indexed by a hash of the
 * page number: buffers allocated a power-of-two size apart (vecadd's a, b and c) would otherwise
 * share slots and evict each other on every access */
#define WTLB_BITS 8
#define WTLB_SIZE (1u << WTLB_BITS)
#define WTLB_SLOT(vp) ((unsigned)(((vp) * 0x9e3779b97f4a7c15ull) >> (64 - WTLB_BITS)))
typedef struct {
    uint64_t vpage, gen;
    uint8_t *host;            /* the page's first byte; NULL: empty */
    unsigned perm;            /* 1 read, 2 write */
} wtlb_entry;

typedef struct worker {
    wtlb_entry tlb[WTLB_SIZE];
    gpu_compute *e;
    pthread_t thread;
    run *r;                               /* current run */
    const gpu_mem_if *jm;                 /* its job's memory (&r->job->mem, one load nearer) */
    const uint64_t *gen_word;             /* jm->generation_word, NULL: call jm->generation */
    bi_mem mem;
    uint8_t *wls;
    size_t wls_cap;
    uint8_t *tls;
    size_t tls_cap, tls_size;
    uint32_t wls_size;
    bi_wg_warps warps;                    /* reused from one workgroup to the next */
    uint32_t fault;                       /* memory fault of the current workgroup */
    uint64_t fault_va;
    uint64_t since_poll;
    uint64_t tuples_unreported;        /* warp-tuples not yet passed to mem.progress */
    gpu_compute_stats st;
    gt_trace trace;                       /* --timing: the current workgroup's accesses */
    uint32_t core_id;                     /* the current workgroup's core */
} worker;

struct gpu_compute {
    unsigned nthreads;
    worker *w;                            /* nthreads - 1 pool threads + one per caller */
    pthread_mutex_t lock;
    pthread_cond_t work;                  /* pool: a run was posted / quit */
    run *cur;                             /* the run pool threads join */
    uint64_t cur_gen;
    int quit;
    job_gate gate;                        /* one job at a time on the pool, by priority */
    worker caller;                        /* the submitting thread's worker state */
    shader_entry cache[CACHE_SIZE];
    uint64_t use_clock, epoch;
    gpu_compute_stats st;
    gpu_timing *timing;                   /* --timing, else NULL */
    gpu_timing_job last_timing;           /* the last job's (gpu_compute_last_timing) */
};

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
    uint64_t va = w->r->d.shader_va + off;
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

/* ---- descriptors ------------------------------------------------------------------------------ */

static void desc_free(job_desc *d)
{
    free(d->uniforms);
    free(d->ubo_addr);
    free(d->ubo_size);
    memset(d, 0, sizeof(*d));
}

/* Returns 0 or an exception code (*fva = address). */
static uint32_t parse_job(const gpu_compute_job *job, job_desc *d, uint64_t *fva)
{
    const gpu_mem_if *m = &job->mem;
    uint8_t jd[MALI_COMPUTE_PAYLOAD_LENGTH + MALI_DRAW_LENGTH], rsd[MALI_RENDERER_STATE_LENGTH];
    uint32_t code;
    memset(d, 0, sizeof(*d));
#define READ(va, buf, len)                                   \
    do {                                                     \
        if ((code = m->read(m->ctx, (va), (buf), (len)))) {  \
            *fva = (va);                                     \
            return code;                                     \
        }                                                    \
    } while (0)
    READ(job->job_va + MALI_JOB_HEADER_LENGTH, jd, sizeof(jd));
    struct mali_compute_payload pl;
    struct mali_draw dcd;
    struct mali_renderer_state rs;
    mali_compute_payload_unpack(jd, &pl);
    mali_draw_unpack(jd + MALI_COMPUTE_PAYLOAD_LENGTH, &dcd);
    if (mali_invocation_decode(&pl, d->local, d->groups)) {
        *fva = job->job_va;
        return EXC_JOB_CONFIG_FAULT;
    }
    uint64_t ubo_ptr = dcd.uniform_buffers, push_ptr = dcd.push_uniforms, rsd_ptr = dcd.state;
    uint64_t ls_ptr = dcd.thread_storage;
    d->textures = dcd.textures;
    d->samplers = dcd.samplers;
    d->attr_bufs = dcd.attribute_buffers;
    d->attributes = dcd.attributes;
    if (!rsd_ptr) {
        *fva = job->job_va;
        return EXC_JOB_CONFIG_FAULT;
    }
    READ(rsd_ptr, rsd, sizeof(rsd));
    mali_renderer_state_unpack(rsd, &rs);
    d->shader_va = rs.shader;
    d->preload = rs.preload;
    unsigned nuni = rs.uniform_count;            /* 64-bit FAU slots */
    d->nubos = rs.uniform_buffer_count;
    if (nuni) {
        d->uniforms = calloc(nuni, 8);
        if (!d->uniforms)
            return EXC_DATA_INVALID_FAULT;
        READ(push_ptr, d->uniforms, nuni * 8u);
        d->nuniforms = 2 * nuni;
    }
    if (d->nubos) {
        d->ubo_addr = calloc(d->nubos, sizeof(*d->ubo_addr));
        d->ubo_size = calloc(d->nubos, sizeof(*d->ubo_size));
        uint8_t *t = malloc(8u * d->nubos);
        if (!d->ubo_addr || !d->ubo_size || !t) {
            free(t);
            return EXC_DATA_INVALID_FAULT;
        }
        if ((code = m->read(m->ctx, ubo_ptr, t, 8u * d->nubos))) {
            free(t);
            *fva = ubo_ptr;
            return code;
        }
        for (unsigned i = 0; i < d->nubos; i++) {
            struct mali_uniform_buffer u;
            mali_uniform_buffer_unpack(t + MALI_UNIFORM_BUFFER_LENGTH * i, &u);
            d->ubo_size[i] = u.entries * 16;
            d->ubo_addr[i] = u.pointer;
        }
        free(t);
    }
    if (ls_ptr) {
        uint8_t ls[MALI_LOCAL_STORAGE_LENGTH];
        struct mali_local_storage lsd;
        READ(ls_ptr, ls, sizeof(ls));
        mali_local_storage_unpack(ls, &lsd);
        if (lsd.tls_base_pointer && lsd.tls_size < 24)
            d->tls_stride = 16u << lsd.tls_size;
        unsigned inst = lsd.wls_instances, scale = lsd.wls_size_scale;
        if (inst != 31 && scale)
            d->wls_size = scale - 1 >= 31 ? MAX_WLS + 1 : 1u << (scale - 1);
        if (d->wls_size > MAX_WLS) {
            *fva = ls_ptr;
            return EXC_JOB_CONFIG_FAULT;
        }
    }
#undef READ
    unsigned threads = d->local[0] * d->local[1] * d->local[2];
    if (threads > MAX_WG_THREADS || (uint64_t)threads * d->tls_stride > MAX_TLS_TOTAL) {
        *fva = job->job_va;
        return EXC_JOB_CONFIG_FAULT;
    }
    if (d->shader_va & 15) {
        *fva = d->shader_va;
        return EXC_INSTR_INVALID_PC;
    }
    return 0;
}

/* ---- shader cache ----------------------------------------------------------------------------- */

/* e->lock held */
static bi_program *cache_get(gpu_compute *e, uint64_t va, unsigned as, unsigned arch, int *cached)
{
    shader_entry *victim = NULL;
    for (unsigned i = 0; i < CACHE_SIZE; i++) {
        shader_entry *c = &e->cache[i];
        if (c->p && !c->stale && c->va == va && c->as == as && c->arch == arch) {
            if (c->in_use)
                break;               /* another job is running it: use a private copy */
            c->in_use = 1;
            c->last_use = ++e->use_clock;
            *cached = 1;
            e->st.programs_reused++;
            return c->p;
        }
        if (!c->in_use && (!victim || !c->p || (victim->p && c->last_use < victim->last_use)))
            victim = c;
    }
    bi_program *p = bi_program_new_fetch(arch == 7 ? BI_ARCH_V7 : BI_ARCH_V6);
    e->st.programs_decoded++;
    *cached = 0;
    if (!p || !victim)
        return p;
    if (victim->p)
        bi_program_free(victim->p);
    *victim = (shader_entry){ .va = va, .as = as, .arch = arch, .p = p, .in_use = 1, .last_use = ++e->use_clock };
    *cached = 1;
    return p;
}

static void cache_put(gpu_compute *e, bi_program *p, int cached)
{
    if (!cached) {
        bi_program_free(p);
        return;
    }
    for (unsigned i = 0; i < CACHE_SIZE; i++) {
        shader_entry *c = &e->cache[i];
        if (c->p == p) {
            c->in_use = 0;
            if (c->stale) {
                bi_program_free(c->p);
                memset(c, 0, sizeof(*c));
            }
            return;
        }
    }
}

void gpu_compute_invalidate(gpu_compute *e, int as)
{
    pthread_mutex_lock(&e->lock);
    for (unsigned i = 0; i < CACHE_SIZE; i++) {
        shader_entry *c = &e->cache[i];
        if (!c->p || (as >= 0 && c->as != (unsigned)as))
            continue;
        if (c->in_use) {
            c->stale = 1;
        } else {
            bi_program_free(c->p);
            memset(c, 0, sizeof(*c));
        }
    }
    pthread_mutex_unlock(&e->lock);
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

/* ---- workgroups ------------------------------------------------------------------------------- */

static int worker_prepare(worker *w, run *r)
{
    const job_desc *d = &r->d;
    unsigned lanes = r->job->arch_major >= 7 ? 8 : 4;
    unsigned threads = d->local[0] * d->local[1] * d->local[2];
    unsigned nwarps = (threads + lanes - 1) / lanes;
    w->r = r;
    w->jm = &r->job->mem;
    w->gen_word = w->jm->generation_word;
    w->tuples_unreported = 0;
    w->mem = (bi_mem){ .ctx = w, .read = m_read, .write = m_write, .atomic = m_atomic, .fetch = m_fetch, .map = m_map,
                       .epoch = r->epoch, .wls_base = WLS_WINDOW, .private_base = WLS_WINDOW, .nubos = d->nubos, .ubo_addr = d->ubo_addr,
                       .ubo_size = d->ubo_size, .arch_major = r->job->arch_major, .textures = d->textures,
                       .samplers = d->samplers, .attributes = d->attributes, .attr_bufs = d->attr_bufs,
                       .clock_cycles = r->job->clock_cycles, .clock_ts = r->job->clock_ts, .gpu_hz = r->job->gpu_hz,
                       .ts_hz = r->job->ts_hz, .clock_running = r->job->clock_running,
                       .map_gen = w->gen_word };      /* map's pages stay valid while it is unchanged */
    if (r->e && r->e->timing) {   /* every access through the recording calls, none mapped */
        w->mem.read = t_read;
        w->mem.write = t_write;
        w->mem.atomic = t_atomic;
        w->mem.map = NULL;
        w->mem.message = t_message;
    }
    if (bi_wg_warps_reserve(&w->warps, nwarps))
        return -1;
    w->wls_size = d->wls_size;
    if (d->wls_size > w->wls_cap) {
        free(w->wls);
        w->wls = calloc(1, d->wls_size);
        w->wls_cap = w->wls ? d->wls_size : 0;
        if (!w->wls)
            return -1;
    }
    w->tls_size = (size_t)threads * d->tls_stride;
    if (w->tls_size > w->tls_cap) {
        free(w->tls);
        w->tls = calloc(1, w->tls_size);
        w->tls_cap = w->tls ? w->tls_size : 0;
        if (!w->tls)
            return -1;
    }
    memset(&w->st, 0, sizeof(w->st));
    memset(w->tlb, 0, sizeof(w->tlb));      /* another job: maybe another address space */
    w->since_poll = 0;
    return 0;
}

/* Pass the work done to the device's timing model, in batches (force: all of it). */
static void report_progress(worker *w, bool force)
{
    const gpu_mem_if *m = &w->r->job->mem;
    if (m->progress && w->tuples_unreported && (force || w->tuples_unreported >= PROGRESS_BATCH_TUPLES)) {
        m->progress(m->ctx, w->tuples_unreported);
        w->tuples_unreported = 0;
    }
}

static bool stop_requested(worker *w)
{
    const gpu_mem_if *m = &w->r->job->mem;
    report_progress(w, false);
    w->since_poll = 0;
    return m->should_stop && m->should_stop(m->ctx);
}

/* The job's exception code for a warp the executor stopped with a fault the memory callbacks did
 * not see (those keep the code the device gave them: mem_fault). */
static uint32_t fault_status(const bi_fault *f)
{
    switch (f->kind) {
    case BI_FAULT_BAD_PC:
        return EXC_INSTR_INVALID_PC;
    default:        /* unsupported / invalid instructions, UBO range, misaligned 64-bit atomics */
        return EXC_INSTR_INVALID_ENC;
    }
}

/* After each warp's turn: pass the work on to the device's timing model, and poll for a stop
 * (after each warp, not each round: a round of many looping warps would delay a stop by
 * warps x turn clauses). */
static bool turn_done(void *ctx, uint64_t clauses, uint64_t tuples, bool faulted)
{
    worker *w = ctx;
    w->since_poll += clauses;
    w->tuples_unreported += tuples;
    w->trace.tuples += tuples;
    return !faulted && w->since_poll >= STOP_POLL_CLAUSES && stop_requested(w);
}

/* 0, or an exception code */
static uint32_t run_workgroup(worker *w, uint64_t idx)
{
    run *r = w->r;
    const job_desc *d = &r->d;
    bi_workgroup wg = {
        .local_size = { d->local[0], d->local[1], d->local[2] },
        .wg_id = { (uint32_t)(idx % d->groups[0]), (uint32_t)(idx / d->groups[0] % d->groups[1]),
                   (uint32_t)(idx / d->groups[0] / d->groups[1]) },
        .uniforms = d->uniforms, .nuniforms = d->nuniforms, .mem = &w->mem,
        .tls_base = TLS_WINDOW, .tls_stride = d->tls_stride, .core_id = r->core_ids[idx % r->ncores],
        .turn_clauses = STOP_POLL_CLAUSES,      /* no budget: looping jobs end by a stop request */
        .turn_done = turn_done, .ctx = w,
    };
    bi_wg_stats st;
    bi_fault fault;

    w->fault = 0;
    w->core_id = wg.core_id;
    if (w->wls_size)
        memset(w->wls, 0, w->wls_size);    /* deterministic contents (hardware: undefined) */
    if (w->tls_size)
        memset(w->tls, 0, w->tls_size);
    int rc = bi_run_workgroup(&wg, r->prog, &w->warps, &st, &fault);
    uint32_t status = 0;
    if (rc == BI_EXEC_STOPPED) {
        status = 0x03;         /* STOPPED: the job manager reports what was asked for */
        w->fault_va = 0;
    } else if (rc != BI_EXEC_END && w->fault) {
        status = w->fault;
    } else if (rc != BI_EXEC_END) {
        status = fault_status(&fault);
        w->fault_va = d->shader_va;
        if (status == EXC_INSTR_INVALID_ENC && r->e)
            fprintf(stderr, "gpu: shader at 0x%llx: %s\n", (unsigned long long)d->shader_va, fault.msg);
    }
    w->st.clauses += st.clauses;
    w->st.lane_clauses += st.lane_clauses;
    w->st.lane_instrs += st.lane_instrs;
    w->st.barriers += st.barriers;
    w->st.warps += st.warps;
    w->st.workgroups++;
    if (r->e && r->e->timing) {
        w->trace.warps = st.warps;
        gpu_timing_wg_done(r->e->timing, idx, &w->trace);
    }
    report_progress(w, false);
    return status;
}

static void add_stats(gpu_compute_stats *a, const gpu_compute_stats *b)
{
    a->workgroups += b->workgroups;
    a->warps += b->warps;
    a->clauses += b->clauses;
    a->lane_clauses += b->lane_clauses;
    a->lane_instrs += b->lane_instrs;
    a->barriers += b->barriers;
    a->cpu_ns += b->cpu_ns;
}

static uint64_t thread_cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Run workgroups of r until none is left (or the run aborts). */
static void work(worker *w, run *r)
{
    uint64_t cpu0 = thread_cpu_ns();
    int ok = worker_prepare(w, r) == 0;
    while (ok && !__atomic_load_n(&r->abort, __ATOMIC_ACQUIRE)) {
        uint64_t idx = __atomic_fetch_add(&r->next_wg, 1, __ATOMIC_RELAXED);
        if (idx >= r->total_wgs)
            break;
        /* between workgroups: poll for a stop every few thousand clauses */
        uint32_t st = w->since_poll >= STOP_POLL_CLAUSES / 16 && stop_requested(w) ? 0x03 : run_workgroup(w, idx);
        if (st == 0x03)
            w->fault_va = 0;
        if (st) {
            pthread_mutex_lock(&r->lock);
            if (idx < r->fault_wg) {
                r->fault_wg = idx;
                r->status = st;
                r->fault_va = w->fault_va;
            }
            pthread_mutex_unlock(&r->lock);
            __atomic_store_n(&r->abort, 1, __ATOMIC_RELEASE);
        }
    }
    bi_exec_flush();          /* what compiled code counted for --stats, before the job's end */
    report_progress(w, true);
    w->st.cpu_ns = thread_cpu_ns() - cpu0;
    pthread_mutex_lock(&r->lock);
    if (!ok && !r->status) {
        r->status = EXC_DATA_INVALID_FAULT;     /* host out of memory */
        __atomic_store_n(&r->abort, 1, __ATOMIC_RELEASE);
    }
    add_stats(&r->st, &w->st);
    if (--r->active == 0)
        pthread_cond_broadcast(&r->done);
    pthread_mutex_unlock(&r->lock);
    w->r = NULL;
}

static void *pool_thread(void *arg)
{
    worker *w = arg;
    gpu_compute *e = w->e;
    uint64_t seen = 0;
    pthread_mutex_lock(&e->lock);
    for (;;) {
        while (!e->quit && (!e->cur || e->cur_gen == seen))
            pthread_cond_wait(&e->work, &e->lock);
        if (e->quit)
            break;
        seen = e->cur_gen;
        run *r = e->cur;
        pthread_mutex_lock(&r->lock);
        r->active++;
        pthread_mutex_unlock(&r->lock);
        pthread_mutex_unlock(&e->lock);
        work(w, r);
        pthread_mutex_lock(&e->lock);
    }
    pthread_mutex_unlock(&e->lock);
    return NULL;
}

/* ---- engine ----------------------------------------------------------------------------------- */

gpu_compute *gpu_compute_new(unsigned nthreads)
{
    if (!nthreads)
        nthreads = default_threads;
    if (!nthreads) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        nthreads = n > 0 ? (unsigned)n : 1;
    }
    if (nthreads > 256)
        nthreads = 256;
    gpu_compute *e = calloc(1, sizeof(*e));
    if (!e)
        return NULL;
    e->nthreads = nthreads;
    pthread_mutex_init(&e->lock, NULL);
    job_gate_init(&e->gate);
    pthread_cond_init(&e->work, NULL);
    e->caller.e = e;
    e->w = calloc(nthreads, sizeof(*e->w));
    char err[256];
    if (timing_on && !(e->timing = gpu_timing_new(&timing_cfg, err, sizeof(err))))
        fprintf(stderr, "gpu: --timing: %s: caches not modelled\n", err);
    if (!e->w) {
        gpu_timing_free(e->timing);
        free(e);
        return NULL;
    }
    for (unsigned i = 0; i + 1 < nthreads; i++) {
        e->w[i].e = e;
        if (pthread_create(&e->w[i].thread, NULL, pool_thread, &e->w[i])) {
            e->nthreads = i + 1;
            break;
        }
    }
    return e;
}

static void worker_free(worker *w)
{
    bi_wg_warps_free(&w->warps);
    gt_trace_free(&w->trace);
    free(w->wls);
    free(w->tls);
}

void gpu_compute_free(gpu_compute *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&e->lock);
    e->quit = 1;
    pthread_cond_broadcast(&e->work);
    pthread_mutex_unlock(&e->lock);
    for (unsigned i = 0; i + 1 < e->nthreads; i++) {
        pthread_join(e->w[i].thread, NULL);
        worker_free(&e->w[i]);
    }
    worker_free(&e->caller);
    for (unsigned i = 0; i < CACHE_SIZE; i++)
        bi_program_free(e->cache[i].p);
    free(e->w);
    gpu_timing_free(e->timing);
    pthread_cond_destroy(&e->work);
    job_gate_destroy(&e->gate);
    pthread_mutex_destroy(&e->lock);
    free(e);
}

unsigned gpu_compute_threads(const gpu_compute *e) { return e->nthreads; }

bool gpu_compute_last_timing(gpu_compute *e, gpu_timing_job *out)
{
    pthread_mutex_lock(&e->lock);
    *out = e->last_timing;
    pthread_mutex_unlock(&e->lock);
    return e->timing != NULL;
}

const tm_config *gpu_compute_timing_config(const gpu_compute *e)
{
    return e->timing ? gpu_timing_config(e->timing) : NULL;
}

void gpu_compute_get_stats(gpu_compute *e, gpu_compute_stats *st)
{
    pthread_mutex_lock(&e->lock);
    *st = e->st;
    pthread_mutex_unlock(&e->lock);
}

uint32_t gpu_compute_run(gpu_compute *e, const gpu_compute_job *job, uint64_t *fault_va)
{
    run r;
    uint64_t fva = 0;
    memset(&r, 0, sizeof(r));
    *fault_va = 0;
    uint32_t code = parse_job(job, &r.d, &fva);
    if (code) {
        desc_free(&r.d);
        *fault_va = fva;
        return code;
    }
    r.e = e;
    r.job = job;
    r.status = 0;
    r.fault_wg = UINT64_MAX;
    r.total_wgs = (uint64_t)r.d.groups[0] * r.d.groups[1] * r.d.groups[2];
    for (unsigned i = 0; i < 64 && r.ncores < 64; i++)
        if (job->core_mask >> i & 1)
            r.core_ids[r.ncores++] = i;
    if (!r.ncores)
        r.core_ids[r.ncores++] = 0;
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.done, NULL);

    job_gate_enter(&e->gate, job->priority);
    pthread_mutex_lock(&e->lock);
    int cached;
    r.prog = cache_get(e, r.d.shader_va, job->as, job->arch_major >= 7 ? 7 : 6, &cached);
    r.epoch = ++e->epoch;
    e->st.jobs++;
    if (gpu_compute_stats_hook && r.prog)
        gpu_compute_stats_hook(r.prog, r.epoch, r.d.shader_va, job->as, job->type);
    if (r.prog && e->timing)
        gpu_timing_job_begin(e->timing, r.total_wgs, r.ncores, r.core_ids);
    if (r.prog) {
        r.active = 1;                      /* the caller */
        e->cur = &r;
        e->cur_gen++;
        pthread_cond_broadcast(&e->work);
    }
    pthread_mutex_unlock(&e->lock);
    if (!r.prog) {
        job_gate_leave(&e->gate);
        desc_free(&r.d);
        return EXC_DATA_INVALID_FAULT;
    }
    work(&e->caller, &r);
    pthread_mutex_lock(&e->lock);
    e->cur = NULL;                        /* late pool threads no longer join */
    pthread_mutex_unlock(&e->lock);
    pthread_mutex_lock(&r.lock);
    while (r.active)
        pthread_cond_wait(&r.done, &r.lock);
    pthread_mutex_unlock(&r.lock);
    if (e->timing) {          /* the memory stall time joins the issue time the device modelled */
        gpu_timing_job jt;
        uint64_t stall = gpu_timing_job_end(e->timing, job->engines, &jt);
        if (stall && job->mem.stall)
            job->mem.stall(job->mem.ctx, stall);
        pthread_mutex_lock(&e->lock);
        e->last_timing = jt;
        pthread_mutex_unlock(&e->lock);
        if (gpu_compute_timing_hook)
            gpu_compute_timing_hook(r.prog, r.epoch, &jt);
    }
    pthread_mutex_lock(&e->lock);
    if (gpu_compute_stats_end_hook)
        gpu_compute_stats_end_hook(r.prog, r.epoch, r.status ? r.status : EXC_DONE);
    cache_put(e, r.prog, cached);
    add_stats(&e->st, &r.st);
    pthread_mutex_unlock(&e->lock);
    job_gate_leave(&e->gate);

    pthread_cond_destroy(&r.done);
    pthread_mutex_destroy(&r.lock);
    desc_free(&r.d);
    if (r.status) {
        *fault_va = r.fault_va;
        return r.status;
    }
    return EXC_DONE;
}
