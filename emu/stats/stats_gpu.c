/* Bifrost clause executions: per host thread, a hash table of the prepared clauses it ran
 * (keyed by the executor's bi_xclause), with the clause's decode-time counters (gpu_clause.c),
 * executions, active lanes, divergence and CFG edges.  The executor calls stats_gpu_clause()
 * through its hook `bi_exec_hook` after every clause a warp runs; nothing here locks or uses
 * atomics on that path.  stats_write merges the tables (by program, pc, clause header). */
#include "stats.h"
#include "stats_gpu.h"
#include "gpu_clause.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define SG_EDGES 6
#define SG_EXIT STATS_GPU_EXIT
#define SG_OTHER STATS_GPU_OTHER

typedef struct {
    uint32_t to;
    uint64_t threads, warps;
} sg_edge;

struct stats_gclause {
    const void *x, *prog;
    uint32_t pc;
    uint64_t header;
    unsigned lanes_per_warp;
    sc_clause_info info;
    uint64_t execs, lanes, diverged, partial;
    /* Clauses without a control-flow instruction (or that end the lanes) always go to `next`:
     * their single edge is made from execs / lanes when the report is written. */
    uint8_t simple;
    uint32_t next;
    unsigned nedges;
    sg_edge e[SG_EDGES];
};

/* Weak: the executor defines it once the instrumentation patch is in (see SCHEMA.md). */
extern void (*bi_exec_hook)(const bi_warp *w, const bi_program *p, const bi_xclause *x, uint32_t exec)
    __attribute__((weak));
extern void (*gpu_compute_stats_hook)(const void *prog, uint64_t shader_va, unsigned as, unsigned type)
    __attribute__((weak));

bool stats_gpu_install(void)
{
    if (&gpu_compute_stats_hook)
        gpu_compute_stats_hook = stats_gpu_name_program;
    if (!&bi_exec_hook)
        return false;
    bi_exec_hook = stats_gpu_clause;
    return true;
}

static size_t hash_ptr(const void *p)
{
    uint64_t v = (uint64_t)(uintptr_t)p;
    v ^= v >> 29;
    v *= 0xbf58476d1ce4e5b9ull;
    return (size_t)(v ^ (v >> 32));
}

static struct stats_gclause *new_entry(const bi_warp *w, const bi_program *p, const bi_xclause *x)
{
    struct stats_gclause *g = calloc(1, sizeof(*g));
    if (!g)
        return NULL;
    g->x = x;
    g->prog = p;
    g->pc = x->c.offset;
    g->header = x->c.header;
    g->lanes_per_warp = w->lanes;
    sc_analyze_clause(&x->c, &g->info);
    g->simple = g->info.end || !g->info.has_branch;
    g->next = g->info.end ? SG_EXIT : x->c.offset + x->c.size;
    return g;
}

static int grow(stats_thread *t)
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

static struct stats_gclause *lookup(stats_thread *t, const bi_warp *w, const bi_program *p, const bi_xclause *x)
{
    if (__builtin_expect(t->capgc != 0, 1)) {
        size_t h = hash_ptr(x) & (t->capgc - 1);
        for (struct stats_gclause *g; (g = t->gc[h]); h = (h + 1) & (t->capgc - 1))
            if (g->x == x && g->prog == p && g->pc == x->c.offset && g->header == x->c.header)
                return g;
    }
    if ((t->ngc + 1) * 2 > t->capgc && grow(t))
        return NULL;
    struct stats_gclause *g = new_entry(w, p, x);
    if (!g)
        return NULL;
    size_t h = hash_ptr(x) & (t->capgc - 1);
    while (t->gc[h])
        h = (h + 1) & (t->capgc - 1);
    t->gc[h] = g;
    t->ngc++;
    return g;
}

static void add_edge(struct stats_gclause *g, uint32_t to, unsigned threads)
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
    g->e[i].warps++;
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
        add_edge(g, to[i], cnt[i]);
}

static __attribute__((noinline)) struct stats_gclause *miss(stats_thread *t, size_t slot, const bi_warp *w,
                                                             const bi_program *p, const bi_xclause *x)
{
    struct stats_gclause *g = lookup(t, w, p, x);
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

/* This file's own copy of the thread's block pointer: a TLS variable defined here is reached with
 * one %fs-relative load (local-exec), the registry's needs a GOT load first. */
static __thread stats_thread *self;

void stats_gpu_clause(const bi_warp *w, const bi_program *p, const bi_xclause *x, uint32_t exec)
{
    stats_thread *t = self;
    if (__builtin_expect(!t, 0))
        self = t = stats_self();
    size_t slot = ((uintptr_t)x >> 4 ^ (uintptr_t)x >> 12) & 255;
    struct stats_gclause *g = t->gcache[slot];
    if (__builtin_expect(!g || g->x != x || g->prog != p || g->pc != x->c.offset || g->header != x->c.header, 0))
        if (!(g = miss(t, slot, w, p, x)))
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
    if (__builtin_expect(g->nedges && g->e[0].to == first, 1)) {   /* the usual way */
        g->e[0].threads += n;
        g->e[0].warps++;
    } else {
        add_edge(g, first, n);
    }
}

/* ---- totals ---------------------------------------------------------------------------------- */

typedef struct {
    const void *prog;
    uint64_t shader_va;
    unsigned as, type;
    uint64_t jobs;
} prog_name;

static pthread_mutex_t name_lock = PTHREAD_MUTEX_INITIALIZER;
static prog_name *names;
static size_t nnames, capnames;

void stats_gpu_name_program(const void *prog, uint64_t shader_va, unsigned as, unsigned job_type)
{
    pthread_mutex_lock(&name_lock);
    size_t i;
    for (i = 0; i < nnames; i++)
        if (names[i].prog == prog)
            break;
    if (i == nnames) {
        if (nnames == capnames) {
            size_t cap = capnames ? 2 * capnames : 16;
            prog_name *n = realloc(names, cap * sizeof(*n));
            if (!n) {
                pthread_mutex_unlock(&name_lock);
                return;
            }
            names = n;
            capnames = cap;
        }
        nnames++;
        names[i].jobs = 0;
    }
    names[i] = (prog_name){ prog, shader_va, as, job_type, names[i].jobs + 1 };
    pthread_mutex_unlock(&name_lock);
}

static const prog_name *find_name(const void *prog)
{
    for (size_t i = 0; i < nnames; i++)
        if (names[i].prog == prog)
            return &names[i];
    return NULL;
}

typedef struct {
    const void *prog;
    struct stats_gclause *c;     /* merged clause records */
    size_t n, cap;
} kernel;

static int cmp_clause(const void *a, const void *b)
{
    const struct stats_gclause *x = a, *y = b;
    return x->pc < y->pc ? -1 : x->pc > y->pc ? 1 : x->header < y->header ? -1 : x->header > y->header;
}

static void merge_into(struct stats_gclause *d, const struct stats_gclause *s)
{
    d->execs += s->execs;
    d->lanes += s->lanes;
    d->diverged += s->diverged;
    d->partial += s->partial;
    for (unsigned i = 0; i < s->nedges; i++) {
        unsigned j;
        for (j = 0; j < d->nedges; j++)
            if (d->e[j].to == s->e[i].to)
                break;
        if (j == d->nedges) {
            if (d->nedges == SG_EDGES) {
                j = SG_EDGES - 1;
                d->e[j].to = SG_OTHER;
            } else {
                d->nedges++;
                d->e[j].to = s->e[i].to;
            }
        }
        d->e[j].threads += s->e[i].threads;
        d->e[j].warps += s->e[i].warps;
    }
}

/* Every thread's records merged by (program, pc, header), grouped into kernels by program. */
static kernel *collect(stats_thread *threads, size_t *nk)
{
    kernel *k = NULL;
    size_t n = 0, cap = 0;
    for (stats_thread *t = threads; t; t = t->next) {
        for (size_t i = 0; i < t->capgc; i++) {
            const struct stats_gclause *g = t->gc[i];
            if (!g || !g->execs)
                continue;
            size_t ki;
            for (ki = 0; ki < n; ki++)
                if (k[ki].prog == g->prog)
                    break;
            if (ki == n) {
                if (n == cap) {
                    cap = cap ? 2 * cap : 8;
                    kernel *nk2 = realloc(k, cap * sizeof(*k));
                    if (!nk2)
                        break;
                    k = nk2;
                }
                k[n++] = (kernel){ g->prog, NULL, 0, 0 };
            }
            kernel *K = &k[ki];
            size_t ci;
            for (ci = 0; ci < K->n; ci++)
                if (K->c[ci].pc == g->pc && K->c[ci].header == g->header)
                    break;
            if (ci == K->n) {
                if (K->n == K->cap) {
                    size_t c2 = K->cap ? 2 * K->cap : 16;
                    struct stats_gclause *nc = realloc(K->c, c2 * sizeof(*nc));
                    if (!nc)
                        continue;
                    K->c = nc;
                    K->cap = c2;
                }
                K->c[K->n] = *g;
                K->c[K->n].execs = K->c[K->n].lanes = K->c[K->n].diverged = K->c[K->n].partial = 0;
                K->c[K->n].nedges = 0;
                memset(K->c[K->n].e, 0, sizeof(K->c[K->n].e));
                K->n++;
            }
            struct stats_gclause tmp = *g;
            if (tmp.simple) {
                tmp.nedges = 1;
                tmp.e[0] = (sg_edge){ tmp.next, tmp.lanes, tmp.execs };
            }
            merge_into(&K->c[ci], &tmp);
        }
    }
    for (size_t i = 0; i < n; i++)
        qsort(k[i].c, k[i].n, sizeof(*k[i].c), cmp_clause);
    *nk = n;
    return k;
}

/* Totals of a set of clause records. */
typedef struct {
    uint64_t clauses, execs, lanes, warp_instrs, thread_instrs, diverged, partial, branch_execs;
    uint64_t cls[SC_N][2], data[SD_N][2];
    uint64_t size_dyn[9], size_static[9];
} gtotals;

static void add_totals(gtotals *T, const struct stats_gclause *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct stats_gclause *g = &c[i];
        T->clauses++;
        T->execs += g->execs;
        T->lanes += g->lanes;
        T->warp_instrs += g->info.instrs * g->execs;
        T->thread_instrs += g->info.instrs * g->lanes;
        T->diverged += g->diverged;
        T->partial += g->partial;
        if (g->info.has_branch)
            T->branch_execs += g->execs;
        for (unsigned k = 0; k < SC_N; k++) {
            T->cls[k][0] += g->info.cls[k] * g->execs;
            T->cls[k][1] += g->info.cls[k] * g->lanes;
        }
        for (unsigned k = 0; k < SD_N; k++) {
            T->data[k][0] += g->info.data[k] * g->execs;
            T->data[k][1] += g->info.data[k] * g->lanes;
        }
        unsigned s = g->info.tuples <= 8 ? g->info.tuples : 8;
        T->size_dyn[s] += g->execs;
        T->size_static[s]++;
    }
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if (*s == '\n')
            fputs("\\n", f);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static void write_totals(FILE *f, const gtotals *T, const char *in)
{
    fprintf(f, "{\n%s  \"clauses\": %" PRIu64 ",\n%s  \"clause_executions\": %" PRIu64
               ",\n%s  \"thread_clause_executions\": %" PRIu64 ",\n%s  \"warp_instructions\": %" PRIu64
               ",\n%s  \"thread_instructions\": %" PRIu64 ",\n",
            in, T->clauses, in, T->execs, in, T->lanes, in, T->warp_instrs, in, T->thread_instrs);
    fprintf(f, "%s  \"instruction_mix\": {", in);
    for (unsigned k = 0; k < SC_N; k++)
        fprintf(f, "%s\n%s    \"%s\": {\"warp\": %" PRIu64 ", \"thread\": %" PRIu64 "}", k ? "," : "", in,
                sc_class_names[k], T->cls[k][0], T->cls[k][1]);
    fprintf(f, "\n%s  },\n%s  \"data\": {", in, in);
    for (unsigned k = 0; k < SD_N; k++)
        fprintf(f, "%s\n%s    \"%s\": {\"warp\": %" PRIu64 ", \"thread\": %" PRIu64 "}", k ? "," : "", in,
                sd_names[k], T->data[k][0], T->data[k][1]);
    fprintf(f, "\n%s  },\n%s  \"clause_sizes\": {", in, in);
    for (unsigned s = 1; s <= 8; s++)
        fprintf(f, "%s\"%u\": {\"executions\": %" PRIu64 ", \"clauses\": %" PRIu64 "}", s > 1 ? ", " : "", s,
                T->size_dyn[s], T->size_static[s]);
    fprintf(f, "},\n%s  \"divergence\": {\"branch_clause_executions\": %" PRIu64
               ", \"divergent_executions\": %" PRIu64 ", \"partial_warp_executions\": %" PRIu64 "}\n%s}",
            in, T->branch_execs, T->diverged, T->partial, in);
}

static void edge_name(char *buf, size_t len, uint32_t to)
{
    if (to == SG_EXIT)
        snprintf(buf, len, "exit");
    else if (to == SG_OTHER)
        snprintf(buf, len, "other");
    else
        snprintf(buf, len, "%u", to);
}

/* Graphviz CFG of a kernel: one node per clause (pc, tuples, executions), edges labelled with
 * thread counts (and warps); clauses where warps diverged are drawn red. */
static void write_dot(FILE *f, const kernel *K, const char *name)
{
    fprintf(f, "digraph \"%s\" {\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n"
               "  edge [fontname=\"sans-serif\", fontsize=9];\n", name);
    for (size_t i = 0; i < K->n; i++) {
        const struct stats_gclause *g = &K->c[i];
        fprintf(f, "  c%u [label=\"clause %u\\n%u tuples, %u instrs\\n%" PRIu64 " execs, %" PRIu64 " threads",
                g->pc, g->pc, g->info.tuples, g->info.instrs, g->execs, g->lanes);
        if (g->diverged)
            fprintf(f, "\\ndiverged %" PRIu64 "/%" PRIu64 "\", color=red, fontcolor=red];\n", g->diverged, g->execs);
        else
            fprintf(f, "\"];\n");
    }
    int has_exit = 0, has_other = 0;
    for (size_t i = 0; i < K->n; i++) {
        const struct stats_gclause *g = &K->c[i];
        for (unsigned j = 0; j < g->nedges; j++) {
            char to[32];
            edge_name(to, sizeof(to), g->e[j].to);
            has_exit |= g->e[j].to == SG_EXIT;
            has_other |= g->e[j].to == SG_OTHER;
            fprintf(f, "  c%u -> %s%s [label=\"%" PRIu64 " thr / %" PRIu64 " warps\"%s];\n", g->pc,
                    g->e[j].to >= SG_OTHER ? "" : "c", to, g->e[j].threads, g->e[j].warps,
                    g->diverged && g->nedges > 1 ? ", color=red" : "");
        }
    }
    if (has_exit)
        fprintf(f, "  exit [shape=oval];\n");
    if (has_other)
        fprintf(f, "  other [shape=oval, label=\"other targets\"];\n");
    fprintf(f, "}\n");
}

static stats_thread *gpu_threads_list;

void stats_gpu_set_threads(stats_thread *list) { gpu_threads_list = list; }

void stats_gpu_write_json(FILE *f, const char *in)
{
    size_t nk = 0;
    kernel *k = collect(gpu_threads_list, &nk);
    gtotals all = { 0 };
    fprintf(f, "\"kernels\": [");
    pthread_mutex_lock(&name_lock);
    for (size_t i = 0; i < nk; i++) {
        const kernel *K = &k[i];
        const prog_name *pn = find_name(K->prog);
        char name[64];
        if (pn)
            snprintf(name, sizeof(name), "shader@0x%" PRIx64 "/as%u", pn->shader_va, pn->as);
        else
            snprintf(name, sizeof(name), "program%zu", i);
        gtotals T = { 0 };
        add_totals(&T, K->c, K->n);
        add_totals(&all, K->c, K->n);
        fprintf(f, "%s\n%s  {\n%s    \"id\": %zu,\n%s    \"name\": ", i ? "," : "", in, in, i, in);
        json_str(f, name);
        if (pn)
            fprintf(f, ",\n%s    \"shader_va\": %" PRIu64 ",\n%s    \"as\": %u,\n%s    \"job_type\": %u", in,
                    pn->shader_va, in, pn->as, in, pn->type);
        else
            fprintf(f, ",\n%s    \"shader_va\": null,\n%s    \"as\": null,\n%s    \"job_type\": null", in, in, in);
        fprintf(f, ",\n%s    \"jobs\": %" PRIu64 ",\n%s    \"lanes_per_warp\": %u,\n%s    \"totals\": ", in,
                pn ? pn->jobs : 0, in, K->n ? K->c[0].lanes_per_warp : 0, in);
        char in2[64];
        snprintf(in2, sizeof(in2), "%s    ", in);
        write_totals(f, &T, in2);
        fprintf(f, ",\n%s    \"clauses\": [", in);
        for (size_t j = 0; j < K->n; j++) {
            const struct stats_gclause *g = &K->c[j];
            fprintf(f, "%s\n%s      {\"pc\": %u, \"header\": %" PRIu64 ", \"tuples\": %u, \"constants\": %u, "
                       "\"end\": %s, \"branch\": %s, \"instructions\": %u,\n%s       \"executions\": %" PRIu64
                       ", \"active_lanes\": %" PRIu64 ", \"divergent_executions\": %" PRIu64
                       ", \"partial_warp_executions\": %" PRIu64 ",\n%s       \"classes\": {",
                    j ? "," : "", in, g->pc, g->header, g->info.tuples, g->info.constants, g->info.end ? "true" : "false",
                    g->info.has_branch ? "true" : "false", g->info.instrs, in, g->execs, g->lanes, g->diverged,
                    g->partial, in);
            int first = 1;
            for (unsigned c = 0; c < SC_N; c++)
                if (g->info.cls[c]) {
                    fprintf(f, "%s\"%s\": %u", first ? "" : ", ", sc_class_names[c], g->info.cls[c]);
                    first = 0;
                }
            fprintf(f, "},\n%s       \"data\": {", in);
            first = 1;
            for (unsigned c = 0; c < SD_N; c++)
                if (g->info.data[c]) {
                    fprintf(f, "%s\"%s\": %u", first ? "" : ", ", sd_names[c], g->info.data[c]);
                    first = 0;
                }
            fprintf(f, "},\n%s       \"edges\": [", in);
            for (unsigned e = 0; e < g->nedges; e++) {
                char to[32];
                edge_name(to, sizeof(to), g->e[e].to);
                fprintf(f, "%s{\"to\": ", e ? ", " : "");
                if (g->e[e].to >= SG_OTHER)
                    fprintf(f, "\"%s\"", to);
                else
                    fprintf(f, "%s", to);
                fprintf(f, ", \"threads\": %" PRIu64 ", \"warps\": %" PRIu64 "}", g->e[e].threads, g->e[e].warps);
            }
            fprintf(f, "]}");
        }
        fprintf(f, "\n%s    ],\n%s    \"cfg_dot\": ", in, in);
        char *dot = NULL;
        size_t dotlen = 0;
        FILE *df = open_memstream(&dot, &dotlen);
        if (df) {
            write_dot(df, K, name);
            fclose(df);
            json_str(f, dot);
            free(dot);
        } else {
            fprintf(f, "null");
        }
        fprintf(f, "\n%s  }", in);
    }
    pthread_mutex_unlock(&name_lock);
    fprintf(f, "%s],\n%s\"totals\": ", nk ? "\n" : "", in);
    write_totals(f, &all, in);
    for (size_t i = 0; i < nk; i++)
        free(k[i].c);
    free(k);
}

void stats_gpu_summary(FILE *f)
{
    size_t nk = 0;
    kernel *k = collect(gpu_threads_list, &nk);
    gtotals all = { 0 };
    for (size_t i = 0; i < nk; i++)
        add_totals(&all, k[i].c, k[i].n);
    if (nk) {
        fprintf(f, "  gpu: %zu kernel%s, %" PRIu64 " clauses, %" PRIu64 " clause executions (%" PRIu64
                   " thread), %" PRIu64 " warp instructions (%" PRIu64 " thread), %" PRIu64 " empty slots, %"
                   PRIu64 " divergent of %" PRIu64 " branch-clause executions\n",
                nk, nk == 1 ? "" : "s", all.clauses, all.execs, all.lanes, all.warp_instrs, all.thread_instrs,
                all.cls[SC_NOP_FMA][0] + all.cls[SC_NOP_ADD][0], all.diverged, all.branch_execs);
        fprintf(f, "  gpu mix (warp):");
        for (unsigned c = 0; c < SC_N; c++)
            if (all.cls[c][0])
                fprintf(f, " %s=%" PRIu64, sc_class_names[c], all.cls[c][0]);
        fprintf(f, "\n");
    }
    for (size_t i = 0; i < nk; i++)
        free(k[i].c);
    free(k);
}

void stats_gpu_reset(void)
{
    for (stats_thread *t = gpu_threads_list; t; t = t->next) {
        for (size_t i = 0; i < t->capgc; i++)
            free(t->gc[i]);
        free(t->gc);
        t->gc = NULL;
        t->ngc = t->capgc = 0;
        memset(t->gcache, 0, sizeof(t->gcache));
    }
    pthread_mutex_lock(&name_lock);
    nnames = 0;
    pthread_mutex_unlock(&name_lock);
}

/* ---- queries (tests) ------------------------------------------------------------------------- */

int stats_gpu_get_clause(const void *prog, uint32_t pc, stats_gpu_clause_totals *out)
{
    size_t nk = 0;
    kernel *k = collect(gpu_threads_list, &nk);
    int found = -1;
    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < nk; i++) {
        if (k[i].prog != prog)
            continue;
        for (size_t j = 0; j < k[i].n; j++) {
            const struct stats_gclause *g = &k[i].c[j];
            if (g->pc != pc)
                continue;
            out->execs = g->execs;
            out->lanes = g->lanes;
            out->diverged = g->diverged;
            out->partial = g->partial;
            out->info = g->info;
            out->nedges = g->nedges;
            for (unsigned e = 0; e < g->nedges; e++) {
                out->edge_to[e] = g->e[e].to;
                out->edge_threads[e] = g->e[e].threads;
                out->edge_warps[e] = g->e[e].warps;
            }
            found = 0;
        }
    }
    for (size_t i = 0; i < nk; i++)
        free(k[i].c);
    free(k);
    return found;
}

void stats_gpu_get_totals(stats_gpu_totals *out)
{
    size_t nk = 0;
    kernel *k = collect(gpu_threads_list, &nk);
    gtotals T = { 0 };
    for (size_t i = 0; i < nk; i++)
        add_totals(&T, k[i].c, k[i].n);
    out->kernels = nk;
    out->clauses = T.clauses;
    out->execs = T.execs;
    out->lanes = T.lanes;
    out->warp_instrs = T.warp_instrs;
    out->thread_instrs = T.thread_instrs;
    out->diverged = T.diverged;
    out->partial = T.partial;
    for (unsigned c = 0; c < SC_N; c++)
        out->cls[c] = T.cls[c][1];
    for (unsigned c = 0; c < SD_N; c++)
        out->data[c] = T.data[c][1];
    for (size_t i = 0; i < nk; i++)
        free(k[i].c);
    free(k);
}
