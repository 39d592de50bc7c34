/* The report's "timing" section (--timing, docs/timing.md): the cache and DRAM counters of every
 * GPU job the timing plug-in modelled (gpu_observe_timing), per job and summed per kernel
 * (the kernels of the "gpu" section), with the configuration (stats_timing_config). */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "compute.h"
#include "gpu_observer.h"
#include "gpu_timing.h"
#include "stats.h"
#include "stats_gpu_int.h"

typedef struct {
    int64_t job;                  /* registry index, -1 unknown */
    gpu_timing_job jt;
} tjob;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static tjob *jobs;
static size_t njobs, capjobs;
static tm_config cfg;
static bool have_cfg, cpu_on;
void (*stats_timing_cpu_totals)(tm_totals *t, uint64_t *cycles);

void stats_timing_cpu(bool on)
{
    cpu_on = on;
}

void stats_timing_config(const tm_config *c)
{
    pthread_mutex_lock(&lock);
    have_cfg = c != NULL;
    if (c)
        cfg = *c;
    pthread_mutex_unlock(&lock);
}

static void record(const void *prog, uint64_t epoch, const gpu_timing_job *jt)
{
    int64_t ji = sg_job_index(prog, epoch);
    pthread_mutex_lock(&lock);
    if (njobs == capjobs) {
        size_t n = capjobs ? 2 * capjobs : 64;
        tjob *p = realloc(jobs, n * sizeof(*p));
        if (!p) {
            pthread_mutex_unlock(&lock);
            return;
        }
        jobs = p;
        capjobs = n;
    }
    jobs[njobs++] = (tjob){ .job = ji, .jt = *jt };
    pthread_mutex_unlock(&lock);
}

static void enable(void)
{
    gpu_observe_timing(record);
}

/* the configuration as "key": "value" members (tm_config_print's lines) */
static void write_config(FILE *f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return;
    tm_config_print(m, &cfg);
    fclose(m);
    int first = 1;
    for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char *eq = strstr(l, " = ");
        if (!eq)
            continue;
        *eq = 0;
        fprintf(f, "%s\"%s\": \"%s\"", first ? "" : ", ", l, eq + 3);
        first = 0;
    }
    free(buf);
}

static void write_counts(FILE *f, const gpu_timing_job *t)
{
    double secs = (double)(t->issue_cycles + t->stall_cycles) / ((double)cfg.gpu_mhz * 1e6);
    fprintf(f, "\"messages\": %" PRIu64 ", \"requests\": %" PRIu64 ", \"issue_cycles\": %" PRIu64
               ", \"mem_cycles\": %" PRIu64 ", \"stall_cycles\": %" PRIu64 ", \"modelled_cycles\": %" PRIu64
               ", \"dram_gbytes_per_s\": %.3f, \"counts\": ",
            t->messages, t->requests, t->issue_cycles, t->mem_cycles, t->stall_cycles,
            t->issue_cycles + t->stall_cycles, secs > 0 ? (double)t->counts.dram.bytes / secs / 1e9 : 0.0);
    tm_totals_json(f, &t->counts, cfg.gpu_l1.banks, cfg.gpu_l2.banks * cfg.gpu_l2_slices,
                   cfg.dram.channels * cfg.dram.banks);
}

static void add_job(gpu_timing_job *a, const gpu_timing_job *b)
{
    tm_totals_add(&a->counts, &b->counts);
    a->messages += b->messages;
    a->requests += b->requests;
    a->issue_cycles += b->issue_cycles;
    a->mem_cycles += b->mem_cycles;
    a->stall_cycles += b->stall_cycles;
}

static void write_json(FILE *f, const char *in, const stats_totals *T)
{
    (void)T;
    pthread_mutex_lock(&lock);
    fprintf(f, "\"config\": {");
    write_config(f);
    fprintf(f, "},\n%s\"jobs\": [", in);
    sg_view v;
    sg_view_build(&v, sg_threads());
    gpu_timing_job total = { 0 }, *per_kernel = calloc(v.nk ? v.nk : 1, sizeof(*per_kernel));
    uint64_t *kjobs = calloc(v.nk ? v.nk : 1, sizeof(*kjobs));
    for (size_t i = 0; i < njobs; i++) {
        int64_t k = jobs[i].job >= 0 && (size_t)jobs[i].job < v.njobs ? v.jobs[jobs[i].job].kernel : -1;
        fprintf(f, "%s\n%s  {\"job\": %" PRId64 ", \"kernel\": %" PRId64 ", ", i ? "," : "", in, jobs[i].job, k);
        write_counts(f, &jobs[i].jt);
        fputc('}', f);
        add_job(&total, &jobs[i].jt);
        if (k >= 0 && (size_t)k < v.nk && per_kernel) {
            add_job(&per_kernel[k], &jobs[i].jt);
            kjobs[k]++;
        }
    }
    fprintf(f, "%s%s],\n%s\"kernels\": [", njobs ? "\n" : "", njobs ? in : "", in);
    int first = 1;
    for (size_t k = 0; per_kernel && kjobs && k < v.nk; k++) {
        if (!kjobs[k])
            continue;
        fprintf(f, "%s\n%s  {\"kernel\": %zu, \"jobs\": %" PRIu64 ", ", first ? "" : ",", in, k, kjobs[k]);
        write_counts(f, &per_kernel[k]);
        fputc('}', f);
        first = 0;
    }
    fprintf(f, "%s%s],\n%s\"totals\": {\"jobs\": %zu, ", first ? "" : "\n", first ? "" : in, in, njobs);
    write_counts(f, &total);
    fputc('}', f);
    if (cpu_on && stats_timing_cpu_totals) {
        tm_totals ct;
        uint64_t cyc;
        stats_timing_cpu_totals(&ct, &cyc);
        fprintf(f, ",\n%s\"cpu\": {\"access_cycles\": %" PRIu64 ", \"counts\": ", in, cyc);
        tm_totals_json(f, &ct, cfg.cpu_l1d.banks, cfg.cpu_l2.banks, cfg.dram.channels * cfg.dram.banks);
        fputc('}', f);
    }
    free(per_kernel);
    free(kjobs);
    sg_view_free(&v);
    pthread_mutex_unlock(&lock);
}

static double pct(uint64_t a, uint64_t b)
{
    return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void summary(FILE *f, const stats_totals *T)
{
    (void)T;
    pthread_mutex_lock(&lock);
    if (have_cfg) {
        gpu_timing_job t = { 0 };
        for (size_t i = 0; i < njobs; i++)
            add_job(&t, &jobs[i].jt);
        const tm_totals *c = &t.counts;
        fprintf(f, "  timing (%s): %zu jobs, L1 %.1f%% hits of %" PRIu64 ", L2 %.1f%% hits of %" PRIu64
                   ", DRAM %" PRIu64 " reads %" PRIu64 " writes (%.1f%% row hits), stall %" PRIu64 " cycles\n",
                cfg.preset, njobs, pct(c->l1.hits, c->l1.accesses), c->l1.accesses, pct(c->l2.hits, c->l2.accesses),
                c->l2.accesses, c->dram.reads, c->dram.writes, pct(c->dram.row_hits, c->dram.reads + c->dram.writes),
                t.stall_cycles);
    }
    pthread_mutex_unlock(&lock);
}

bool stats_timing_on(void)
{
    pthread_mutex_lock(&lock);
    bool on = have_cfg;
    pthread_mutex_unlock(&lock);
    return on;
}

void stats_timing_write_range(FILE *f, const char *in, int64_t first, int64_t end)
{
    (void)in;
    pthread_mutex_lock(&lock);
    gpu_timing_job t = { 0 };
    size_t n = 0;
    for (size_t i = 0; i < njobs; i++)
        if (jobs[i].job >= first && jobs[i].job < end) {
            add_job(&t, &jobs[i].jt);
            n++;
        }
    fprintf(f, "{\"jobs\": %zu, ", n);
    write_counts(f, &t);
    fputc('}', f);
    pthread_mutex_unlock(&lock);
}

static bool present(void)
{
    pthread_mutex_lock(&lock);
    bool on = have_cfg;
    pthread_mutex_unlock(&lock);
    return on;
}

static const stats_section timing_section = { .name = "timing", .enable = enable, .write_json = write_json,
                                              .summary = summary, .present = present };

__attribute__((constructor)) static void register_timing_section(void)
{
    stats_register_section(&timing_section);
}
