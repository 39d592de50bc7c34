/* Bifrost clause executions: per host thread, a hash table with one record per prepared clause
 * (keyed by the executor's bi_xclause) holding what the current job ran of it: executions, active
 * lanes, divergence and CFG edges, with the clause's decode-time counters (gpu_clause.c).  As the
 * GPU's observer (emu/gpu/gpu_observer.h) the executor calls stats_gpu_clause() after every
 * clause a warp runs; nothing on that path locks or uses atomics.  A record first used in a job registers its
 * clause with the job (stats_gpu_prog.c: a program is identified by the code its jobs ran); when
 * the thread later runs the same prepared clause in another job, the record's counts are folded
 * into the program of the job that made them. */
#include "stats.h"
#include "stats_gpu_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_observer.h"
#include "stats_regions.h"
#include "timeline.h"

/* the grid of the job the engine is about to announce on this thread (engine_job_grid) */
static __thread bool grid_set;
static __thread unsigned grid_local[3], grid_groups[3];

static void engine_job_grid(const unsigned local[3], const unsigned groups[3])
{
    memcpy(grid_local, local, sizeof(grid_local));
    memcpy(grid_groups, groups, sizeof(grid_groups));
    grid_set = true;
}

/* A compute job takes its name from the guest's announced launch it matches (regions.c). */
static void engine_job_begin(const void *prog, uint64_t epoch, uint64_t shader_va, unsigned as, unsigned type,
                             unsigned stage)
{
    const char *name = NULL;
    int64_t launch = -1;
    if (grid_set && stage == GPU_STAGE_COMPUTE)
        launch = stats_launch_match(grid_local, grid_groups, &name);
    grid_set = false;
    stats_gpu_job_begin(prog, epoch, shader_va, as, type, name);
    stats_gpu_job_stage(prog, epoch, stage);
    if (launch >= 0)
        stats_launch_bind(launch, sg_job_index(prog, epoch));
    if (name && timeline_on)
        timeline_job_named(as, shader_va, name);
}

void sg_observe(void)
{
    static const gpu_observer obs = { .clause = stats_gpu_clause, .counts = stats_gpu_counts, .job_begin = engine_job_begin,
                                      .job_grid = engine_job_grid,
                                      .job_end = stats_gpu_job_end, .gfx_draw = stats_gfx_draw,
                                      .gfx_frame = stats_gfx_frame };
    gpu_observe(&obs);
}

uint64_t sg_hash(uint64_t h, const void *data, size_t len)
{
    const uint8_t *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

uint64_t sg_clause_code(const bi_xclause *x)
{
    const bi_clause *c = &x->c;
    if (x->raw)
        return sg_hash(SG_HASH_INIT, x->raw, c->size);
    /* a program made from a host buffer: the fields the clause's bytes encode */
    uint64_t h = sg_hash(SG_HASH_INIT, &c->header, sizeof(c->header));
    for (unsigned i = 0; i < c->ntuples && i < 8; i++) {
        const bi_tuple *t = &c->t[i];
        uint32_t v[3] = { t->fma.bits, t->add.bits, t->fau_idx };
        h = sg_hash(h, &t->regs, sizeof(t->regs));
        h = sg_hash(h, v, sizeof(v));
    }
    for (unsigned i = 0; i < c->nconsts && i < 8; i++)
        h = sg_hash(h, &c->consts[i], sizeof(c->consts[i]));
    return h;
}

static size_t hash_ptr(const void *p)
{
    uint64_t v = (uint64_t)(uintptr_t)p;
    v ^= v >> 29;
    v *= 0xbf58476d1ce4e5b9ull;
    return (size_t)(v ^ (v >> 32));
}

/* (Re)start record g for clause x of program p in the job of `epoch`. */
static void claim(struct stats_gclause *g, unsigned lanes, const bi_program *p, const bi_xclause *x, uint64_t epoch)
{
    memset(g, 0, sizeof(*g));
    g->x = x;
    g->prog = p;
    g->epoch = epoch;
    g->pc = x->c.offset;
    g->size = x->c.size;
    g->header = x->c.header;
    g->code = sg_clause_code(x);
    g->lanes_per_warp = lanes;
    sc_analyze_clause(&x->c, &g->info);
    g->simple = g->info.end || !g->info.has_branch;
    g->next = g->info.end ? SG_EXIT : x->c.offset + x->c.size;
    g->job = sg_job_claim(p, epoch, g->pc, g->size, g->code, g->lanes_per_warp);
}

static int grow(sg_thread *t)
{
    size_t cap = t->capgc ? 2 * t->capgc : 256;
    struct stats_gclause **n = calloc(cap, sizeof(*n));
    if (!n)
        return -1;
    for (size_t i = 0; i < t->capgc; i++) {
        struct stats_gclause *g = t->gc[i];
        if (!g)
            continue;
        size_t h = hash_ptr(g->x) & (cap - 1);
        while (n[h])
            h = (h + 1) & (cap - 1);
        n[h] = g;
    }
    free(t->gc);
    t->gc = n;
    t->capgc = cap;
    return 0;
}

/* The thread's record of x, made to count for (p, epoch): a record still holding another job's
 * counts (or a freed clause's whose address x now reuses) is folded first. */
static struct stats_gclause *lookup(sg_thread *t, unsigned lanes, const bi_program *p, const bi_xclause *x,
                                    uint64_t epoch)
{
    if (__builtin_expect(t->capgc != 0, 1)) {
        size_t h = hash_ptr(x) & (t->capgc - 1);
        for (struct stats_gclause *g; (g = t->gc[h]); h = (h + 1) & (t->capgc - 1))
            if (g->x == x) {
                if (g->prog != p || g->epoch != epoch || g->pc != x->c.offset || g->header != x->c.header) {
                    sg_fold(g);
                    claim(g, lanes, p, x, epoch);
                }
                return g;
            }
    }
    if ((t->ngc + 1) * 2 > t->capgc && grow(t))
        return NULL;
    struct stats_gclause *g = malloc(sizeof(*g));
    if (!g)
        return NULL;
    claim(g, lanes, p, x, epoch);
    size_t h = hash_ptr(x) & (t->capgc - 1);
    while (t->gc[h])
        h = (h + 1) & (t->capgc - 1);
    t->gc[h] = g;
    t->ngc++;
    return g;
}

static void add_edge(struct stats_gclause *g, uint32_t to, uint64_t threads, uint64_t warps)
{
    unsigned i;
    for (i = 0; i < g->nedges; i++)
        if (g->e[i].to == to)
            break;
    if (i == g->nedges) {
        if (g->nedges == SG_EDGES) {
            i = SG_EDGES - 1;
            g->e[i].to = SG_OTHER;
        } else {
            g->nedges++;
            g->e[i].to = to;
        }
    }
    g->e[i].threads += threads;
    g->e[i].warps += warps;
}

void sg_merge(struct stats_gclause *d, const struct stats_gclause *s)
{
    d->execs += s->execs;
    d->lanes += s->lanes;
    d->diverged += s->diverged;
    d->partial += s->partial;
    if (s->simple) {
        if (s->execs)
            add_edge(d, s->next, s->lanes, s->execs);
        return;
    }
    for (unsigned i = 0; i < s->nedges; i++)
        add_edge(d, s->e[i].to, s->e[i].threads, s->e[i].warps);
}

/* Lanes that went more than one way: group them by next clause (cold path). */
static __attribute__((noinline)) void diverged(struct stats_gclause *g, const bi_warp *w, uint32_t exec)
{
    uint32_t to[BI_MAX_LANES];
    uint8_t cnt[BI_MAX_LANES];
    unsigned nt = 0;
    g->diverged++;
    for (unsigned l = 0; l < w->lanes; l++) {
        if (!(exec >> l & 1))
            continue;
        uint32_t pc = w->done[l] ? SG_EXIT : w->pc[l];
        unsigned i = 0;
        while (i < nt && to[i] != pc)
            i++;
        if (i == nt) {
            to[nt] = pc;
            cnt[nt++] = 0;
        }
        cnt[i]++;
    }
    for (unsigned i = 0; i < nt; i++)
        add_edge(g, to[i], cnt[i], 1);
}

static __attribute__((noinline)) struct stats_gclause *miss(sg_thread *t, size_t slot, unsigned lanes,
                                                             const bi_program *p, const bi_xclause *x, uint64_t epoch)
{
    struct stats_gclause *g = lookup(t, lanes, p, x, epoch);
    if (g)
        t->gcache[slot] = g;
    return g;
}

static inline unsigned popcount8(uint32_t v)     /* no -mpopcnt: avoid the libgcc call */
{
    v = v - ((v >> 1) & 0x55u);
    v = (v & 0x33u) + ((v >> 2) & 0x33u);
    return (v + (v >> 4)) & 0x0fu;
}

/* Every host thread's block (never freed before exit) and this thread's: a TLS variable defined
 * here is reached with one %fs-relative load (local-exec). */
static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;
static sg_thread *threads;
static __thread sg_thread *self;

static __attribute__((noinline)) sg_thread *thread_register(void)
{
    stats_self();             /* the report's host_threads: threads that recorded anything */
    sg_thread *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    pthread_mutex_lock(&threads_lock);
    t->next = threads;
    threads = t;
    pthread_mutex_unlock(&threads_lock);
    return self = t;
}

/* the thread's record of clause x (NULL: out of memory) */
static inline struct stats_gclause *record(sg_thread *t, unsigned lanes, const bi_program *p, const bi_xclause *x,
                                           uint64_t epoch)
{
    size_t slot = ((uintptr_t)x >> 4 ^ (uintptr_t)x >> 12) & 255;
    struct stats_gclause *g = t->gcache[slot];
    if (__builtin_expect(!g || g->x != x || g->prog != p || g->epoch != epoch || g->pc != x->c.offset ||
                         g->header != x->c.header, 0))
        g = miss(t, slot, lanes, p, x, epoch);
    return g;
}

/* edge of a clause whose lanes all went on to pc `to`: `threads` lanes over `warps` runs */
static inline void edge(struct stats_gclause *g, uint32_t to, uint64_t threads, uint64_t warps)
{
    if (__builtin_expect(g->nedges && g->e[0].to == to, 1)) {   /* the usual way */
        g->e[0].threads += threads;
        g->e[0].warps += warps;
    } else {
        add_edge(g, to, threads, warps);
    }
}

void stats_gpu_counts(const bi_program *p, uint64_t epoch, unsigned lanes, const bi_clause_count *r, unsigned nr)
{
    sg_thread *t = self;
    if (__builtin_expect(!t, 0) && !(t = thread_register()))
        return;
    for (unsigned k = 0; k < nr; k++) {          /* what stats_gpu_clause would have counted */
        uint64_t fall = r[k].fall + r[k].split, taken = r[k].taken + r[k].split;   /* runs per edge */
        uint64_t execs = r[k].fall + r[k].taken + r[k].split;
        if (!execs)
            continue;
        struct stats_gclause *g = record(t, lanes, p, r[k].x, epoch);
        if (!g)
            return;
        g->execs += execs;
        g->lanes += r[k].fall_lanes + r[k].taken_lanes;
        g->partial += r[k].partial;
        if (g->simple)                             /* (lanes of a simple clause never split) */
            continue;
        g->diverged += r[k].split;
        if (fall)                                  /* (the view sorts edges by target) */
            edge(g, r[k].x->c.offset + r[k].x->c.size, r[k].fall_lanes, fall);
        if (taken)
            edge(g, r[k].taken_pc, r[k].taken_lanes, taken);
    }
}

void stats_gpu_clause(const bi_warp *w, const bi_program *p, const bi_xclause *x, uint32_t exec)
{
    sg_thread *t = self;
    if (__builtin_expect(!t, 0) && !(t = thread_register()))
        return;
    uint64_t epoch = w->mem ? w->mem->epoch : 0;
    struct stats_gclause *g = record(t, w->lanes, p, x, epoch);
    if (!g)
        return;
    exec &= 0xff;
    unsigned n = popcount8(exec);
    uint32_t partial = 0;
    for (uint32_t m = ((1u << w->lanes) - 1) & ~exec; m; m &= m - 1)   /* alive lanes waiting elsewhere */
        partial |= !w->done[__builtin_ctz(m)];
    g->execs++;
    g->lanes += n;
    g->partial += partial;
    if (g->simple)                             /* edge to g->next: made from execs / lanes */
        return;
    uint32_t m = exec;
    uint32_t first = w->pc[__builtin_ctz(m)];
    for (m &= m - 1; m; m &= m - 1)
        if (w->pc[__builtin_ctz(m)] != first) {
            diverged(g, w, exec);
            return;
        }
    edge(g, first, n, 1);
}

/* ---- the thread list, reset ------------------------------------------------------------------- */

sg_thread *sg_threads(void)
{
    pthread_mutex_lock(&threads_lock);
    sg_thread *t = threads;
    pthread_mutex_unlock(&threads_lock);
    return t;
}

void stats_gpu_reset(void)
{
    for (sg_thread *t = sg_threads(); t; t = t->next) {
        for (size_t i = 0; i < t->capgc; i++)
            free(t->gc[i]);
        free(t->gc);
        t->gc = NULL;
        t->ngc = t->capgc = 0;
        memset(t->gcache, 0, sizeof(t->gcache));
    }
    sg_registry_reset();
}
