/* Stats registry, system counters, sections, the JSON report and text summary (see stats.h,
 * SCHEMA.md).  Knows no CPU or GPU type: the sections write those parts. */
#include "stats.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

bool stats_on;
__thread stats_thread *stats_tls;

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static stats_thread *threads;      /* every registered block (never freed before exit) */
static unsigned nthreads;
static char *json_path;

typedef struct {
    const char *name;
    uint64_t base, size;
} region;
static region regions[STATS_MMIO_MAX];

#define MAX_SECTIONS 8
static const stats_section *sections[MAX_SECTIONS];    /* in name order */
static unsigned nsections;

static stats_clock_info clock_info;
static bool have_clock;

static char exit_reason[32] = "exit";
static bool run_complete = true;

#define MAX_CONFIG 16
static struct { char *key, *value; } config[MAX_CONFIG];
static unsigned nconfig;

stats_thread *stats_thread_register(void)
{
    stats_thread *t = calloc(1, sizeof(*t));
    if (!t) {
        static stats_thread overflow;   /* out of memory: counts land in a shared sink */
        return &overflow;
    }
    pthread_mutex_lock(&reg_lock);
    t->next = threads;
    threads = t;
    nthreads++;
    pthread_mutex_unlock(&reg_lock);
    stats_tls = t;
    return t;
}

static void stats_atexit(void)
{
    stats_write(stderr);
}

void stats_enable(const char *path)
{
    static bool registered;
    if (path && !registered) {          /* report + summary at exit, however the machine stops */
        atexit(stats_atexit);
        registered = true;
    }
    free(json_path);
    json_path = path ? strdup(path) : NULL;
    stats_on = true;
    for (unsigned i = 0; i < nsections; i++)
        if (sections[i]->enable)
            sections[i]->enable();
}

void stats_register_section(const stats_section *s)
{
    if (nsections == MAX_SECTIONS)
        return;
    unsigned i = nsections++;
    for (; i > 0 && strcmp(sections[i - 1]->name, s->name) > 0; i--)
        sections[i] = sections[i - 1];
    sections[i] = s;
}

const char *stats_path(void) { return json_path; }

void stats_bus_region(unsigned idx, const char *name, uint64_t base, uint64_t size)
{
    if (idx < STATS_MMIO_MAX)
        regions[idx] = (region){ name, base, size };
}

const char *stats_bus_region_get(unsigned idx, uint64_t *base, uint64_t *size)
{
    *base = idx < STATS_MMIO_MAX ? regions[idx].base : 0;
    *size = idx < STATS_MMIO_MAX ? regions[idx].size : 0;
    return idx < STATS_MMIO_MAX ? regions[idx].name : NULL;
}

void stats_mali_reg(uint32_t off, bool write)
{
    if (!stats_on)
        return;
    stats_thread *t = stats_self();
    unsigned block = off < 0x1000 ? 0 : off < 0x2000 ? 1 : 2;
    t->c[(write ? ST_MALI_WR_GPU : ST_MALI_RD_GPU) + block]++;
    if (off / 4 >= STATS_MALI_REGS)
        return;
    if (!t->mali_reg && !(t->mali_reg = calloc(STATS_MALI_REGS * 2, sizeof(uint32_t))))
        return;
    t->mali_reg[off / 4 * 2 + write]++;
}

/* ---- GPU pages: per-thread sets of page blocks ----------------------------------------------- */

/* A block: 512 pages (2 MiB of VA) of one address space and access type.  key = as << 60 |
 * access << 56 | VA >> 21, plus 1 (0 = empty). */
#define PAGE_BLOCK_SHIFT 21
typedef struct stats_page_block {
    uint64_t key;
    uint64_t bits[1u << (PAGE_BLOCK_SHIFT - 12 - 6)];
} stats_page_block;

static size_t hash64(uint64_t v)
{
    v ^= v >> 31;
    v *= 0x9e3779b97f4a7c15ull;
    return (size_t)(v ^ (v >> 29));
}

/* the block of key (+ 1 already added) in the set, added if absent; NULL when out of memory */
static stats_page_block *block_get(stats_page_block **tab, size_t *n, size_t *cap, uint64_t key)
{
    if (*cap) {
        for (size_t h = hash64(key) & (*cap - 1);; h = (h + 1) & (*cap - 1)) {
            if ((*tab)[h].key == key)
                return &(*tab)[h];
            if (!(*tab)[h].key)
                break;
        }
    }
    if ((*n + 1) * 2 > *cap) {
        size_t nc = *cap ? 2 * *cap : 16;
        stats_page_block *nt = calloc(nc, sizeof(*nt));
        if (!nt)
            return NULL;
        for (size_t i = 0; i < *cap; i++)
            if ((*tab)[i].key) {
                size_t h = hash64((*tab)[i].key) & (nc - 1);
                while (nt[h].key)
                    h = (h + 1) & (nc - 1);
                nt[h] = (*tab)[i];
            }
        free(*tab);
        *tab = nt;
        *cap = nc;
    }
    size_t h = hash64(key) & (*cap - 1);
    while ((*tab)[h].key)
        h = (h + 1) & (*cap - 1);
    (*tab)[h].key = key;
    (*n)++;
    return &(*tab)[h];
}

void stats_gpu_page(unsigned as, uint64_t va, unsigned access)
{
    if (!stats_on)
        return;
    stats_thread *t = stats_self();
    t->c[ST_MALI_TRANSLATE]++;
    uint64_t key = ((uint64_t)(as & 0xf) << 60 | (uint64_t)(access & 0xf) << 56 |
                    ((va >> PAGE_BLOCK_SHIFT) & ((1ull << 56) - 1))) + 1;
    stats_page_block *b = block_get(&t->blocks, &t->nblocks, &t->capblocks, key);
    if (b) {
        unsigned page = (unsigned)(va >> 12) & ((1u << (PAGE_BLOCK_SHIFT - 12)) - 1);
        b->bits[page / 64] |= 1ull << (page % 64);
    }
}

void stats_set_clock(const stats_clock_info *ci)
{
    pthread_mutex_lock(&reg_lock);
    clock_info = *ci;
    have_clock = true;
    pthread_mutex_unlock(&reg_lock);
}

void stats_set_exit(const char *reason, bool complete)
{
    snprintf(exit_reason, sizeof(exit_reason), "%s", reason ? reason : "exit");
    run_complete = complete;
}

void stats_set_config(const char *key, const char *value)
{
    for (unsigned i = 0; i < nconfig; i++)
        if (!strcmp(config[i].key, key)) {
            free(config[i].value);
            config[i].value = strdup(value);
            return;
        }
    if (nconfig < MAX_CONFIG) {
        config[nconfig].key = strdup(key);
        config[nconfig].value = strdup(value);
        nconfig++;
    }
}

/* ---- totals ---------------------------------------------------------------------------------- */

static unsigned block_pages(const stats_page_block *b)
{
    unsigned n = 0;
    for (unsigned i = 0; i < sizeof(b->bits) / sizeof(b->bits[0]); i++)
        n += (unsigned)__builtin_popcountll(b->bits[i]);
    return n;
}

static void gather(stats_totals *T)
{
    memset(T, 0, sizeof(*T));
    /* the threads' blocks merged: by access type (acc), and over all access types (any) */
    stats_page_block *any = NULL, *acc = NULL;
    size_t nany = 0, capany = 0, nacc = 0, capacc = 0;
    for (stats_thread *t = threads; t; t = t->next) {
        for (unsigned i = 0; i < ST_N; i++)
            T->c[i] += t->c[i];
        for (unsigned i = 0; i < STATS_MMIO_MAX; i++) {
            T->mmio[i][0] += t->mmio[i][0];
            T->mmio[i][1] += t->mmio[i][1];
        }
        if (t->mali_reg)
            for (unsigned i = 0; i < STATS_MALI_REGS; i++) {
                T->reg[i][0] += t->mali_reg[2 * i];
                T->reg[i][1] += t->mali_reg[2 * i + 1];
            }
        for (size_t i = 0; i < t->capblocks; i++) {
            const stats_page_block *b = &t->blocks[i];
            if (!b->key)
                continue;
            stats_page_block *x = block_get(&acc, &nacc, &capacc, b->key);
            stats_page_block *y = block_get(&any, &nany, &capany, ((b->key - 1) & ~(0xfull << 56)) + 1);
            for (unsigned w = 0; w < sizeof(b->bits) / sizeof(b->bits[0]); w++) {
                if (x)
                    x->bits[w] |= b->bits[w];
                if (y)
                    y->bits[w] |= b->bits[w];
            }
        }
    }
    for (size_t i = 0; i < capacc; i++)
        if (acc[i].key)
            T->pages_by_access[(acc[i].key - 1) >> 56 & 0xf] += block_pages(&acc[i]);
    for (size_t i = 0; i < capany; i++)
        if (any[i].key)
            T->pages += block_pages(&any[i]);
    free(any);
    free(acc);
}

void stats_get_totals(uint64_t c[ST_N], uint64_t mmio[STATS_MMIO_MAX][2], uint64_t *pages)
{
    stats_totals *T = malloc(sizeof(*T));
    if (!T)
        return;
    pthread_mutex_lock(&reg_lock);
    gather(T);
    pthread_mutex_unlock(&reg_lock);
    if (c)
        memcpy(c, T->c, sizeof(T->c));
    if (mmio)
        memcpy(mmio, T->mmio, sizeof(T->mmio));
    if (pages)
        *pages = T->pages;
    free(T);
}


void stats_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
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

void stats_write_json(FILE *f)
{
    stats_totals *T = malloc(sizeof(*T));
    if (!T)
        return;
    pthread_mutex_lock(&reg_lock);
    gather(T);
    unsigned nthr = nthreads;
    pthread_mutex_unlock(&reg_lock);

    char date[64];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
    fprintf(f, "{\n  \"schema\": \"%s\",\n  \"generator\": \"malibu\",\n  \"date\": \"%s\",\n"
               "  \"complete\": %s,\n  \"exit_reason\": ",
            STATS_SCHEMA, date, run_complete ? "true" : "false");
    stats_json_string(f, exit_reason);
    fprintf(f, ",\n  \"host_threads\": %u,\n  \"config\": {", nthr);
    for (unsigned i = 0; i < nconfig; i++) {
        fprintf(f, "%s", i ? ", " : "");
        stats_json_string(f, config[i].key);
        fprintf(f, ": ");
        stats_json_string(f, config[i].value);
    }
    fprintf(f, "}");
    for (unsigned i = 0; i < nsections; i++) {
        if (sections[i]->present && !sections[i]->present())
            continue;
        fprintf(f, ",\n  \"%s\": {\n    ", sections[i]->name);
        sections[i]->write_json(f, "    ", T);
        fprintf(f, "\n  }");
    }
    if (have_clock)
        fprintf(f, ",\n  \"clock\": {\"gpu_time\": \"%s\", \"freezes\": %" PRIu64 ", \"lead_limits\": %" PRIu64
                   ", \"host_ns_skipped\": %" PRIu64 ", \"gpu_ns_advanced\": %" PRIu64 "}",
                clock_info.model ? "model" : "host", clock_info.freezes, clock_info.lead_limits,
                clock_info.host_ns_skipped, clock_info.gpu_ns_advanced);
    fprintf(f, "\n}\n");
    free(T);
}

int stats_write(FILE *summary)
{
    int rc = 0;
    if (json_path) {
        FILE *f = fopen(json_path, "w");
        if (!f) {
            if (summary)
                fprintf(summary, "malibu: --stats: cannot write %s\n", json_path);
            rc = -1;
        } else {
            stats_write_json(f);
            if (fclose(f))
                rc = -1;
        }
    }
    if (summary) {
        stats_totals *T = malloc(sizeof(*T));
        if (!T)
            return rc;
        pthread_mutex_lock(&reg_lock);
        gather(T);
        pthread_mutex_unlock(&reg_lock);
        fprintf(summary, "malibu stats%s%s:\n", json_path ? " -> " : "", json_path ? json_path : "");
        for (unsigned i = 0; i < nsections; i++)
            sections[i]->summary(summary, T);
        if (have_clock && clock_info.freezes)
            fprintf(summary, "  clock: the CPU waited on the GPU %" PRIu64 " times: %.3f ms of host time were"
                             " %.3f ms of modelled GPU time for the guest\n", clock_info.freezes,
                    (double)clock_info.host_ns_skipped * 1e-6, (double)clock_info.gpu_ns_advanced * 1e-6);
        if (have_clock && clock_info.lead_limits)
            fprintf(summary, "  clock: a busy CPU's clock stopped %" PRIu64 " times at the GPU's lead limit"
                             " (the GPU's jobs took longer in host time than the guest may see)\n",
                    clock_info.lead_limits);
        if (!run_complete)
            fprintf(summary, "  incomplete: malibu was stopped (%s) before the guest finished\n", exit_reason);
        free(T);
    }
    return rc;
}
