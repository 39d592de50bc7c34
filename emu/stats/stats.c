/* Stats registry, system counters, JSON report and text summary (see stats.h, SCHEMA.md). */
#include "stats.h"
#include "stats_gpu.h"

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
static bool gpu_hooked;

typedef struct {
    const char *name;
    uint64_t base, size;
} region;
static region regions[STATS_MMIO_MAX];

#define MAX_CPUS 8
static stats_cpu_info cpus[MAX_CPUS];
static uint64_t cpu_ec[MAX_CPUS][64], cpu_vec[MAX_CPUS][4];
static bool cpu_has_ec[MAX_CPUS];
static unsigned ncpus;
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
    stats_gpu_set_threads(threads);
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
    gpu_hooked = stats_gpu_install();
}

const char *stats_path(void) { return json_path; }

void stats_bus_region(unsigned idx, const char *name, uint64_t base, uint64_t size)
{
    if (idx < STATS_MMIO_MAX)
        regions[idx] = (region){ name, base, size };
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

/* ---- GPU pages: per-thread open-addressing set ----------------------------------------------- */

static size_t hash64(uint64_t v)
{
    v ^= v >> 31;
    v *= 0x9e3779b97f4a7c15ull;
    return (size_t)(v ^ (v >> 29));
}

static bool set_insert(uint64_t **tab, size_t *n, size_t *cap, uint64_t key)
{
    key++;      /* 0 = empty */
    if ((*n + 1) * 2 > *cap) {
        size_t nc = *cap ? 2 * *cap : 1024;
        uint64_t *nt = calloc(nc, sizeof(*nt));
        if (!nt)
            return false;
        for (size_t i = 0; i < *cap; i++)
            if ((*tab)[i]) {
                size_t h = hash64((*tab)[i]) & (nc - 1);
                while (nt[h])
                    h = (h + 1) & (nc - 1);
                nt[h] = (*tab)[i];
            }
        free(*tab);
        *tab = nt;
        *cap = nc;
    }
    size_t h = hash64(key) & (*cap - 1);
    while ((*tab)[h]) {
        if ((*tab)[h] == key)
            return false;
        h = (h + 1) & (*cap - 1);
    }
    (*tab)[h] = key;
    (*n)++;
    return true;
}

void stats_gpu_page(unsigned as, uint64_t va, unsigned access)
{
    if (!stats_on)
        return;
    stats_thread *t = stats_self();
    t->c[ST_MALI_TRANSLATE]++;
    uint64_t key = (uint64_t)(as & 0xf) << 56 | (uint64_t)(access & 0xf) << 52 | ((va >> 12) & ((1ull << 52) - 1));
    set_insert(&t->pages, &t->npages, &t->cappages, key);
}

void stats_set_clock(const stats_clock_info *ci)
{
    pthread_mutex_lock(&reg_lock);
    clock_info = *ci;
    have_clock = true;
    pthread_mutex_unlock(&reg_lock);
}

void stats_set_cpu(const stats_cpu_info *ci)
{
    unsigned i;
    for (i = 0; i < ncpus; i++)
        if (cpus[i].index == ci->index)
            break;
    if (i == MAX_CPUS)
        return;
    if (i == ncpus)
        ncpus++;
    cpus[i] = *ci;
    cpu_has_ec[i] = ci->exc_by_ec && ci->exc_by_vector;
    if (cpu_has_ec[i]) {
        memcpy(cpu_ec[i], ci->exc_by_ec, sizeof(cpu_ec[i]));
        memcpy(cpu_vec[i], ci->exc_by_vector, sizeof(cpu_vec[i]));
    }
}

/* ESR_EL1.EC names (Arm ARM D17.2.37). */
static const char *ec_name(unsigned ec, char *buf, size_t len)
{
    static const char *const names[64] = {
        [0x00] = "unknown", [0x01] = "wfi_wfe", [0x07] = "fp_access", [0x0e] = "illegal_state",
        [0x15] = "svc", [0x16] = "hvc", [0x17] = "smc", [0x18] = "sysreg", [0x20] = "iabort_lower",
        [0x21] = "iabort_same", [0x22] = "pc_align", [0x24] = "dabort_lower", [0x25] = "dabort_same",
        [0x26] = "sp_align", [0x2c] = "fp_exception", [0x2f] = "serror", [0x30] = "breakpoint_lower",
        [0x31] = "breakpoint_same", [0x32] = "step_lower", [0x33] = "step_same", [0x34] = "watchpoint_lower",
        [0x35] = "watchpoint_same", [0x3c] = "brk",
    };
    if (names[ec & 63])
        return names[ec & 63];
    snprintf(buf, len, "ec_0x%02x", ec & 63);
    return buf;
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

typedef struct {
    uint64_t c[ST_N];
    uint64_t mmio[STATS_MMIO_MAX][2];
    uint64_t reg[STATS_MALI_REGS][2];
    uint64_t pages, pages_by_access[16];
} totals;

static void gather(totals *T)
{
    memset(T, 0, sizeof(*T));
    uint64_t *set = NULL, *set_acc = NULL;
    size_t n = 0, cap = 0, nacc = 0, capacc = 0;
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
        for (size_t i = 0; i < t->cappages; i++) {
            uint64_t k = t->pages[i];
            if (!k--)
                continue;
            if (set_insert(&set_acc, &nacc, &capacc, k))
                T->pages_by_access[k >> 52 & 0xf]++;
            set_insert(&set, &n, &cap, k & ~(0xfull << 52));
        }
    }
    T->pages = n;
    free(set);
    free(set_acc);
}

void stats_get_totals(uint64_t c[ST_N], uint64_t mmio[STATS_MMIO_MAX][2], uint64_t *pages)
{
    totals *T = malloc(sizeof(*T));
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

static const char *const job_type_names[16] = {
    "not_started", "null", "write_value", "cache_flush", "compute", "vertex", "geometry", "tiler",
    "fused", "fragment", "indexed_vertex", "type11", "type12", "type13", "type14", "type15",
};

static void jstr(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

void stats_write_json(FILE *f)
{
    totals *T = malloc(sizeof(*T));
    if (!T)
        return;
    pthread_mutex_lock(&reg_lock);
    gather(T);
    stats_gpu_set_threads(threads);
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
    jstr(f, exit_reason);
    fprintf(f, ",\n  \"host_threads\": %u,\n  \"config\": {", nthr);
    for (unsigned i = 0; i < nconfig; i++) {
        fprintf(f, "%s", i ? ", " : "");
        jstr(f, config[i].key);
        fprintf(f, ": ");
        jstr(f, config[i].value);
    }
    fprintf(f, "},\n  \"cpu\": {\n    \"cpus\": [");
    uint64_t insns = 0, exc = 0, irqs = 0;
    for (unsigned i = 0; i < ncpus; i++) {
        const stats_cpu_info *c = &cpus[i];
        insns += c->insns;
        exc += c->exceptions;
        irqs += c->irqs;
        fprintf(f, "%s\n      {\"index\": %u, \"instructions\": %" PRIu64 ", \"exceptions\": %" PRIu64
                   ", \"irqs\": %" PRIu64 ", \"blocks_translated\": %" PRIu64 ", \"tlb_misses\": %" PRIu64,
                i ? "," : "", c->index, c->insns, c->exceptions, c->irqs, c->tbs_translated, c->tlb_misses);
        if (cpu_has_ec[i]) {
            static const char *const vn[4] = { "sync", "irq", "fiq", "serror" };
            fprintf(f, ",\n       \"exceptions_by_vector\": {");
            for (unsigned v = 0; v < 4; v++)
                fprintf(f, "%s\"%s\": %" PRIu64, v ? ", " : "", vn[v], cpu_vec[i][v]);
            fprintf(f, "},\n       \"exceptions_by_class\": {");
            int first = 1;
            for (unsigned ec = 0; ec < 64; ec++)
                if (cpu_ec[i][ec]) {
                    char buf[16];
                    fprintf(f, "%s\"%s\": %" PRIu64, first ? "" : ", ", ec_name(ec, buf, sizeof(buf)), cpu_ec[i][ec]);
                    first = 0;
                }
            fprintf(f, "}");
        }
        fprintf(f, "}");
    }
    fprintf(f, "%s],\n    \"instructions\": %" PRIu64 ",\n    \"exceptions\": %" PRIu64 ",\n    \"irqs\": %" PRIu64
               ",\n    \"mmio\": [",
            ncpus ? "\n    " : "", insns, exc, irqs);
    int first = 1;
    for (unsigned i = 0; i < STATS_MMIO_MAX; i++) {
        if (!regions[i].name && !T->mmio[i][0] && !T->mmio[i][1])
            continue;
        fprintf(f, "%s\n      {\"device\": ", first ? "" : ",");
        jstr(f, regions[i].name ? regions[i].name : "?");
        fprintf(f, ", \"base\": %" PRIu64 ", \"size\": %" PRIu64 ", \"reads\": %" PRIu64 ", \"writes\": %" PRIu64 "}",
                regions[i].base, regions[i].size, T->mmio[i][0], T->mmio[i][1]);
        first = 0;
    }
    fprintf(f, "%s]\n  },\n  \"gpu\": {\n    \"executor_hook\": %s,\n", first ? "" : "\n    ",
            gpu_hooked ? "true" : "false");
    fprintf(f, "    \"registers\": {\"reads\": {\"gpu\": %" PRIu64 ", \"job\": %" PRIu64 ", \"mmu\": %" PRIu64
               "}, \"writes\": {\"gpu\": %" PRIu64 ", \"job\": %" PRIu64 ", \"mmu\": %" PRIu64 "}, \"by_offset\": [",
            T->c[ST_MALI_RD_GPU], T->c[ST_MALI_RD_JOB], T->c[ST_MALI_RD_MMU], T->c[ST_MALI_WR_GPU],
            T->c[ST_MALI_WR_JOB], T->c[ST_MALI_WR_MMU]);
    first = 1;
    for (unsigned i = 0; i < STATS_MALI_REGS; i++)
        if (T->reg[i][0] || T->reg[i][1]) {
            fprintf(f, "%s\n      {\"offset\": %u, \"reads\": %" PRIu64 ", \"writes\": %" PRIu64 "}", first ? "" : ",",
                    i * 4, T->reg[i][0], T->reg[i][1]);
            first = 0;
        }
    fprintf(f, "%s]},\n    \"irqs\": {\"gpu\": %" PRIu64 ", \"job\": %" PRIu64 ", \"mmu\": %" PRIu64 "},\n",
            first ? "" : "\n    ", T->c[ST_MALI_IRQ_GPU], T->c[ST_MALI_IRQ_JOB], T->c[ST_MALI_IRQ_MMU]);
    fprintf(f, "    \"jobs\": {");
    uint64_t jobs = 0;
    for (unsigned i = 0; i < 16; i++)
        if (T->c[ST_MALI_JOB_TYPE0 + i]) {
            fprintf(f, "\"%s\": %" PRIu64 ", ", job_type_names[i], T->c[ST_MALI_JOB_TYPE0 + i]);
            jobs += T->c[ST_MALI_JOB_TYPE0 + i];
        }
    fprintf(f, "\"total\": %" PRIu64 ", \"failed\": %" PRIu64 "},\n", jobs, T->c[ST_MALI_JOB_FAILED]);
    fprintf(f, "    \"mmu\": {\"translations\": %" PRIu64 ", \"pages_touched\": %" PRIu64
               ", \"pages_by_access\": {\"read\": %" PRIu64 ", \"write\": %" PRIu64 ", \"execute\": %" PRIu64
               ", \"atomic\": %" PRIu64 "}},\n    ",
            T->c[ST_MALI_TRANSLATE], T->pages, T->pages_by_access[2], T->pages_by_access[3], T->pages_by_access[1],
            T->pages_by_access[0]);
    stats_gpu_write_json(f, "    ");
    fprintf(f, "\n  }");
    if (have_clock)
        fprintf(f, ",\n  \"clock\": {\"gpu_time\": \"%s\", \"freezes\": %" PRIu64 ", \"host_ns_skipped\": %" PRIu64
                   ", \"gpu_ns_advanced\": %" PRIu64 "}",
                clock_info.model ? "model" : "host", clock_info.freezes, clock_info.host_ns_skipped,
                clock_info.gpu_ns_advanced);
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
        totals *T = malloc(sizeof(*T));
        if (!T)
            return rc;
        pthread_mutex_lock(&reg_lock);
        gather(T);
        stats_gpu_set_threads(threads);
        pthread_mutex_unlock(&reg_lock);
        uint64_t insns = 0, exc = 0, mmio = 0, jobs = 0;
        for (unsigned i = 0; i < ncpus; i++) {
            insns += cpus[i].insns;
            exc += cpus[i].exceptions;
        }
        for (unsigned i = 0; i < STATS_MMIO_MAX; i++)
            mmio += T->mmio[i][0] + T->mmio[i][1];
        for (unsigned i = 0; i < 16; i++)
            jobs += T->c[ST_MALI_JOB_TYPE0 + i];
        fprintf(summary, "malibu stats%s%s:\n  cpu: %" PRIu64 " instructions, %" PRIu64 " exceptions, %" PRIu64
                         " MMIO accesses\n  gpu: %" PRIu64 " jobs (%" PRIu64 " failed), %" PRIu64
                         " register reads, %" PRIu64 " writes, %" PRIu64 " IRQs, %" PRIu64 " pages touched\n",
                json_path ? " -> " : "", json_path ? json_path : "", insns, exc, mmio, jobs, T->c[ST_MALI_JOB_FAILED],
                T->c[ST_MALI_RD_GPU] + T->c[ST_MALI_RD_JOB] + T->c[ST_MALI_RD_MMU],
                T->c[ST_MALI_WR_GPU] + T->c[ST_MALI_WR_JOB] + T->c[ST_MALI_WR_MMU],
                T->c[ST_MALI_IRQ_GPU] + T->c[ST_MALI_IRQ_JOB] + T->c[ST_MALI_IRQ_MMU], T->pages);
        stats_gpu_summary(summary);
        if (have_clock && clock_info.freezes)
            fprintf(summary, "  clock: the CPU waited on the GPU %" PRIu64 " times: %.3f ms of host time were"
                             " %.3f ms of modelled GPU time for the guest\n", clock_info.freezes,
                    (double)clock_info.host_ns_skipped * 1e-6, (double)clock_info.gpu_ns_advanced * 1e-6);
        if (!run_complete)
            fprintf(summary, "  incomplete: malibu was stopped (%s) before the guest finished\n", exit_reason);
        if (!gpu_hooked)
            fprintf(summary, "  gpu: no per-clause counts (executor built without bi_exec_hook)\n");
        free(T);
    }
    return rc;
}
