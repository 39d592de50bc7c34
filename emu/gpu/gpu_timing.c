/* Record workgroups' memory accesses, replay them in a fixed order into the cache / DRAM models
 * (gpu_timing.h). */
#include "gpu_timing.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CORES 64
#define FP 256                /* core clocks in 1/256 cycles: latency / P keeps its fraction */
#define MSG_LINES 128         /* distinct lines coalesced at once (a message touching more is
                                 processed in several groups) */

struct gpu_timing {
    tm_config cfg;
    tm_hier *hier;            /* one L1 per core id, the shared L2, DRAM */
    pthread_mutex_t lock;
    /* the running job */
    uint64_t total, next;     /* workgroups; the first one not yet replayed */
    unsigned ncores, core_ids[MAX_CORES];
    gt_trace *pending;        /* [total]: records of ended workgroups not yet replayed */
    bool no_pending;          /* could not allocate pending: the job is not modelled */
    uint64_t clock[MAX_CORES], tuples[MAX_CORES];   /* per core index: memory time (FP), issue */
    uint64_t messages, requests;
    tm_totals start;
    bool warned;              /* this job: a truncated workgroup was reported */
};

void gt_trace_message(gt_trace *t, unsigned warp_id)
{
    gt_trace_access(t, warp_id, 0, false);
}

void gt_trace_access(gt_trace *t, uint64_t addr, unsigned size, bool write)
{
    if (t->n >= GT_MAX_ACCESSES) {
        t->truncated = true;
        return;
    }
    if (t->n == t->cap) {
        size_t ncap = t->cap ? 2 * t->cap : 256;
        gt_access *e = t->oom ? NULL : realloc(t->e, ncap * sizeof(*e));
        if (!e) {
            t->oom = true;
            return;
        }
        t->e = e;
        t->cap = ncap;
    }
    t->e[t->n++] = (gt_access){ .addr = addr, .size = size, .write = write };
}

void gt_trace_free(gt_trace *t)
{
    free(t->e);
    memset(t, 0, sizeof(*t));
}

gpu_timing *gpu_timing_new(const tm_config *cfg, char *err, unsigned errlen)
{
    gpu_timing *g = calloc(1, sizeof(*g));
    if (!g)
        return snprintf(err, errlen, "out of memory"), NULL;
    g->cfg = *cfg;
    const tm_cache_cfg *l1[MAX_CORES];
    for (unsigned i = 0; i < MAX_CORES; i++)
        l1[i] = &g->cfg.gpu_l1;
    g->hier = tm_hier_new(MAX_CORES, l1, &g->cfg.gpu_l2, g->cfg.gpu_l2_slices, &g->cfg.dram, g->cfg.gpu_mhz, err,
                          errlen);
    if (!g->hier) {
        free(g);
        return NULL;
    }
    pthread_mutex_init(&g->lock, NULL);
    return g;
}

static void drop_pending(gpu_timing *g)
{
    if (g->pending)
        for (uint64_t i = 0; i < g->total; i++)
            gt_trace_free(&g->pending[i]);
    free(g->pending);
    g->pending = NULL;
}

void gpu_timing_free(gpu_timing *g)
{
    if (!g)
        return;
    drop_pending(g);
    tm_hier_free(g->hier);
    pthread_mutex_destroy(&g->lock);
    free(g);
}

const tm_config *gpu_timing_config(const gpu_timing *g)
{
    return &g->cfg;
}

void gpu_timing_job_begin(gpu_timing *g, uint64_t total_wgs, unsigned ncores, const unsigned *core_ids)
{
    pthread_mutex_lock(&g->lock);
    drop_pending(g);
    g->total = total_wgs;
    g->next = 0;
    g->ncores = ncores ? (ncores > MAX_CORES ? MAX_CORES : ncores) : 1;
    for (unsigned i = 0; i < g->ncores; i++)
        g->core_ids[i] = ncores ? core_ids[i] % MAX_CORES : 0;
    g->pending = total_wgs ? calloc(total_wgs, sizeof(*g->pending)) : NULL;
    g->no_pending = total_wgs && !g->pending;
    memset(g->clock, 0, sizeof(g->clock));
    memset(g->tuples, 0, sizeof(g->tuples));
    g->messages = g->requests = 0;
    g->warned = false;
    tm_hier_reset_time(g->hier);
    tm_hier_totals(g->hier, &g->start);
    pthread_mutex_unlock(&g->lock);
}

/* One message of a workgroup on core index ci: its accesses [*pos, end of message). */
static void replay_message(gpu_timing *g, unsigned ci, const gt_trace *t, size_t *pos)
{
    unsigned line = g->cfg.gpu_l1.line, core = g->core_ids[ci];
    uint64_t p = t->warps < g->cfg.gpu_l1.mshrs ? (t->warps ? t->warps : 1) : g->cfg.gpu_l1.mshrs;
    uint64_t lines[MSG_LINES], slowest = 0;
    uint8_t writes[MSG_LINES];
    unsigned n = 0;
    size_t i = *pos;
    if (i < t->n && t->e[i].size == 0)
        i++;                  /* the message's header */
    if (i < t->n && t->e[i].size)
        g->messages++;        /* (BARRIER, SEG_ADD: messages without accesses) */
    for (;; i++) {
        bool end = i >= t->n || t->e[i].size == 0;
        if (end || n + 2 > MSG_LINES) {       /* requests for the lines collected so far */
            uint64_t now = g->clock[ci] / FP;
            for (unsigned k = 0; k < n; k++) {
                tm_access a = tm_hier_access(g->hier, core, lines[k] * line, writes[k], now);
                if (a.latency > slowest)
                    slowest = a.latency;
            }
            g->requests += n;
            n = 0;
        }
        if (end)
            break;
        const gt_access *a = &t->e[i];
        for (uint64_t l = a->addr / line; l <= (a->addr + a->size - 1) / line; l++) {
            unsigned k = 0;
            while (k < n && !(lines[k] == l && writes[k] == a->write))
                k++;
            if (k == n) {
                lines[n] = l;
                writes[n++] = (uint8_t)a->write;
            }
        }
    }
    g->clock[ci] += slowest * FP / p;
    *pos = i;
}

/* Replay workgroups [first, first + count): round-robin over them, one message each. */
static void replay_batch(gpu_timing *g, uint64_t first, unsigned count)
{
    size_t pos[MAX_CORES] = { 0 };
    bool left = true;
    for (unsigned k = 0; k < count; k++)
        g->tuples[(first + k) % g->ncores] += g->pending[first + k].tuples;
    while (left) {
        left = false;
        for (unsigned k = 0; k < count; k++) {
            gt_trace *t = &g->pending[first + k];
            if (t->oom || pos[k] >= t->n)
                continue;
            replay_message(g, (unsigned)((first + k) % g->ncores), t, &pos[k]);
            left = true;
        }
    }
    for (unsigned k = 0; k < count; k++)
        gt_trace_free(&g->pending[first + k]);
}

/* Replay the complete batches from g->next on (all: also an incomplete last one). */
static void replay_ready(gpu_timing *g, bool all)
{
    while (g->next < g->total) {
        uint64_t count = g->total - g->next < g->ncores ? g->total - g->next : g->ncores;
        unsigned ended = 0;   /* ended workgroups have warps != 0 (gpu_timing_wg_done) */
        for (uint64_t k = 0; k < count; k++)
            ended += g->pending[g->next + k].warps != 0;
        if (ended < count && !all)
            return;
        replay_batch(g, g->next, (unsigned)count);
        g->next += count;
    }
}

void gpu_timing_wg_done(gpu_timing *g, uint64_t idx, gt_trace *t)
{
    pthread_mutex_lock(&g->lock);
    if (t->truncated && !g->warned) {
        fprintf(stderr, "gpu: --timing: workgroup %llu made more than %u memory accesses: the rest of it is not "
                        "modelled\n", (unsigned long long)idx, GT_MAX_ACCESSES);
        g->warned = true;
    }
    if (g->pending && idx < g->total) {
        g->pending[idx] = *t;
        if (!g->pending[idx].warps)
            g->pending[idx].warps = 1;        /* marks it ended */
        memset(t, 0, sizeof(*t));
        replay_ready(g, false);
    } else {
        t->n = 0;
    }
    t->tuples = 0;
    t->warps = 0;
    t->oom = false;
    t->truncated = false;
    pthread_mutex_unlock(&g->lock);
}

uint64_t gpu_timing_job_end(gpu_timing *g, unsigned engines, gpu_timing_job *out)
{
    pthread_mutex_lock(&g->lock);
    if (g->pending)
        replay_ready(g, true);
    uint64_t stall = 0, issue = 0, mem = 0;
    for (unsigned c = 0; c < g->ncores; c++) {
        uint64_t m = g->clock[c] / FP, i = g->tuples[c] / (engines ? engines : 1);
        if (m > mem)
            mem = m, issue = i;
        if (m > i && m - i > stall)
            stall = m - i;
    }
    if (out) {
        tm_totals now;
        tm_hier_totals(g->hier, &now);
        tm_totals_sub(&out->counts, &now, &g->start);
        out->messages = g->messages;
        out->requests = g->requests;
        out->issue_cycles = issue;
        out->mem_cycles = mem;
        out->stall_cycles = stall;
    }
    drop_pending(g);
    g->total = 0;
    pthread_mutex_unlock(&g->lock);
    return stall;
}
