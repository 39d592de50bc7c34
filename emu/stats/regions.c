/* Names and regions of the guest's work (stats_regions.h): regions of interest (nested),
 * stats reset / dump marks, annotations, and the kernel launches the guest announced, matched to
 * the GPU compute jobs they become.  A region holds the registry jobs that began between its
 * begin and its end (jobs are numbered in the order they begin), and the guest instructions all
 * vCPUs ran meanwhile.  The report's "roi" section (SCHEMA.md) is written from here.
 *
 * Matching launches to jobs (docs/guest-channel.md): the guest announces a launch before it
 * enqueues it; the driver submits the job later, from another thread.  When a compute job
 * begins, it takes the oldest pending launch whose geometry its grid covers; jobs no launch
 * fits (the driver's own copies and fills) stay unnamed. */
#include "stats_regions.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stats.h"
#include "stats_gpu_int.h"

typedef struct {
    const char *name;           /* region name / dump tag / annotation text */
    int64_t parent;             /* regions: enclosing region, -1 none */
    unsigned depth;
    bool closed;
    stats_mark at[2];           /* begin (reset for dumps), end */
    uint64_t host_ns[2];
    size_t jobs[2];             /* registry jobs begun before begin / before end */
} roi_span;

typedef struct {
    const char *name;
    uint32_t name_idx;          /* in names[] */
    unsigned dims, queue;
    uint64_t global[3], local[3];
    enum { L_PENDING, L_MATCHED, L_CANCELLED, L_UNMATCHED } state;
    int64_t job;
} roi_launch;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static roi_span regions[STATS_ROI_MAX_REGIONS], dumps[STATS_ROI_MAX_REGIONS], notes[STATS_ROI_MAX_REGIONS];
static size_t nregions, ndumps, nnotes;
static int64_t open_stack[STATS_ROI_MAX_DEPTH];
static unsigned depth;
static roi_span reset_mark;     /* at[0] / jobs[0] / host_ns[0]: the last stats reset */
static roi_launch *launches;
static size_t nlaunches, caplaunches;
static size_t pending[STATS_ROI_PENDING];
static size_t npending;
static uint64_t n_cancelled, n_unmatched, n_full;
static const char *names[STATS_ROI_MAX_NAMES];
static size_t nnames;
static uint64_t calls_by_op[256], errors, errors_by_code[4]; /* EFAULT, ENAMETOOLONG, EINVAL, ENOSPC / other */
static struct timespec t0;

void (*stats_roi_event_hook)(const stats_roi_event *e);

__attribute__((constructor)) static void start_clock(void)
{
    clock_gettime(CLOCK_MONOTONIC, &t0);
}

static uint64_t host_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)(t.tv_sec - t0.tv_sec) * 1000000000ull + (uint64_t)t.tv_nsec - (uint64_t)t0.tv_nsec;
}

/* lock held: the index in names[] of the one copy of s kept for the report (-1: the table is
 * full) */
static int64_t intern(const char *s)
{
    for (size_t i = 0; i < nnames; i++)
        if (!strcmp(names[i], s))
            return (int64_t)i;
    if (nnames == STATS_ROI_MAX_NAMES)
        return -1;
    char *c = strdup(s);
    if (!c)
        return -1;
    names[nnames] = c;
    return (int64_t)nnames++;
}

/* lock held: every event passes here (the timeline's feed, stats_roi_event_hook) */
static void region_event(enum stats_roi_kind kind, int64_t id, const char *text, const stats_mark *m, uint64_t t,
                         int64_t job)
{
    if (!stats_roi_event_hook)
        return;
    stats_roi_event e = { .kind = kind, .id = id, .text = text, .cpu = m ? m->cpu : 0, .insns = m ? m->insns : 0,
                          .guest_ns = m ? m->guest_ns : 0, .host_ns = t, .job = job };
    stats_roi_event_hook(&e);
}

static roi_span *new_span(roi_span *tab, size_t *n, const char *text, const stats_mark *m, uint64_t t)
{
    if (*n == STATS_ROI_MAX_REGIONS)
        return NULL;
    int64_t ni = intern(text);
    if (ni < 0)
        return NULL;
    const char *s = names[ni];
    roi_span *r = &tab[(*n)++];
    memset(r, 0, sizeof(*r));
    r->name = s;
    r->parent = -1;
    r->at[0] = r->at[1] = *m;
    r->host_ns[0] = r->host_ns[1] = t;
    r->jobs[0] = r->jobs[1] = sg_job_count();
    return r;
}

int64_t stats_roi_begin(const char *name, const stats_mark *m)
{
    uint64_t t = host_ns();
    pthread_mutex_lock(&lock);
    int64_t id = STATS_ROI_ENOSPC;
    roi_span *r = depth < STATS_ROI_MAX_DEPTH ? new_span(regions, &nregions, name, m, t) : NULL;
    if (r) {
        id = (int64_t)(r - regions);
        r->parent = depth ? open_stack[depth - 1] : -1;
        r->depth = depth;
        open_stack[depth++] = id;
        region_event(ROI_EV_BEGIN, id, r->name, m, t, (int64_t)r->jobs[0]);
    }
    pthread_mutex_unlock(&lock);
    return id;
}

int64_t stats_roi_end(const stats_mark *m)
{
    uint64_t t = host_ns();
    pthread_mutex_lock(&lock);
    int64_t id = STATS_ROI_EINVAL;      /* no open region */
    if (depth) {
        id = open_stack[--depth];
        roi_span *r = &regions[id];
        r->closed = true;
        r->at[1] = *m;
        r->host_ns[1] = t;
        r->jobs[1] = sg_job_count();
        region_event(ROI_EV_END, id, r->name, m, t, (int64_t)r->jobs[1]);
    }
    pthread_mutex_unlock(&lock);
    return id;
}

int64_t stats_roi_reset(const stats_mark *m)
{
    uint64_t t = host_ns();
    pthread_mutex_lock(&lock);
    reset_mark.at[0] = *m;
    reset_mark.host_ns[0] = t;
    reset_mark.jobs[0] = sg_job_count();
    reset_mark.closed = true;           /* a reset happened (else dumps cover from the start) */
    region_event(ROI_EV_RESET, 0, NULL, m, t, (int64_t)reset_mark.jobs[0]);
    pthread_mutex_unlock(&lock);
    return 0;
}

int64_t stats_roi_dump(const char *tag, const stats_mark *m)
{
    uint64_t t = host_ns();
    pthread_mutex_lock(&lock);
    int64_t id = STATS_ROI_ENOSPC;
    roi_span *d = new_span(dumps, &ndumps, tag, m, t);
    if (d) {
        id = (int64_t)(d - dumps);
        d->closed = true;
        if (reset_mark.closed) {
            d->at[0] = reset_mark.at[0];
            d->host_ns[0] = reset_mark.host_ns[0];
            d->jobs[0] = reset_mark.jobs[0];
        } else {
            memset(&d->at[0], 0, sizeof(d->at[0]));
            d->host_ns[0] = 0;
            d->jobs[0] = 0;
        }
        region_event(ROI_EV_DUMP, id, d->name, m, t, (int64_t)d->jobs[1]);
    }
    pthread_mutex_unlock(&lock);
    return id;
}

int64_t stats_roi_annotate(const char *text, const stats_mark *m)
{
    uint64_t t = host_ns();
    pthread_mutex_lock(&lock);
    int64_t id = STATS_ROI_ENOSPC;
    roi_span *a = new_span(notes, &nnotes, text, m, t);
    if (a) {
        id = (int64_t)(a - notes);
        a->closed = true;
        region_event(ROI_EV_ANNOTATE, id, a->name, m, t, (int64_t)a->jobs[0]);
    }
    pthread_mutex_unlock(&lock);
    return id;
}

int64_t stats_launch_announce(const char *name, unsigned dims, const uint64_t global[3], const uint64_t local[3],
                              unsigned queue, const stats_mark *m)
{
    if (dims < 1 || dims > 3)
        return STATS_ROI_EINVAL;
    for (unsigned i = 0; i < dims; i++)
        if (!global[i])
            return STATS_ROI_EINVAL;
    uint64_t t = host_ns();
    pthread_mutex_lock(&lock);
    int64_t id = STATS_ROI_ENOSPC;
    int64_t ni = nlaunches < STATS_ROI_MAX_LAUNCHES ? intern(name) : -1;
    const char *s = ni >= 0 ? names[ni] : NULL;
    if (s && nlaunches == caplaunches) {
        size_t n = caplaunches ? 2 * caplaunches : 256;
        roi_launch *p = realloc(launches, n * sizeof(*p));
        if (p) {
            launches = p;
            caplaunches = n;
        }
    }
    if (s && nlaunches < caplaunches) {
        roi_launch *l = &launches[nlaunches];
        memset(l, 0, sizeof(*l));
        l->name = s;
        l->name_idx = (uint32_t)ni;
        l->dims = dims;
        l->queue = queue;
        l->job = -1;
        for (unsigned i = 0; i < 3; i++) {
            l->global[i] = i < dims ? global[i] : 1;
            l->local[i] = i < dims ? local[i] : (local[0] ? 1 : 0);
        }
        if (npending == STATS_ROI_PENDING) {    /* the oldest never became a job: give it up */
            launches[pending[0]].state = L_UNMATCHED;
            n_unmatched++;
            memmove(pending, pending + 1, --npending * sizeof(*pending));
        }
        pending[npending++] = nlaunches;
        id = (int64_t)nlaunches++;
        region_event(ROI_EV_LAUNCH, id, s, m, t, (int64_t)sg_job_count());
    } else {
        n_full++;
    }
    pthread_mutex_unlock(&lock);
    return id;
}

int64_t stats_launch_cancel(uint64_t ticket)
{
    pthread_mutex_lock(&lock);
    int64_t r = STATS_ROI_EINVAL;
    for (size_t i = 0; i < npending; i++)
        if (pending[i] == ticket) {
            launches[ticket].state = L_CANCELLED;
            n_cancelled++;
            memmove(pending + i, pending + i + 1, (npending - i - 1) * sizeof(*pending));
            npending--;
            r = 0;
            break;
        }
    pthread_mutex_unlock(&lock);
    return r;
}

static bool covers(const roi_launch *l, const unsigned local[3], const unsigned groups[3])
{
    for (unsigned i = 0; i < 3; i++) {
        if (!local[i] || (l->local[i] && l->local[i] != local[i]))
            return false;
        if (groups[i] != (l->global[i] + local[i] - 1) / local[i])
            return false;
    }
    return true;
}

int64_t stats_launch_match(const unsigned local[3], const unsigned groups[3], const char **name)
{
    *name = NULL;
    if (!__atomic_load_n(&npending, __ATOMIC_RELAXED))
        return -1;                      /* no launch announced: nothing to look at */
    pthread_mutex_lock(&lock);
    int64_t r = -1;
    for (size_t i = 0; i < npending; i++)
        if (covers(&launches[pending[i]], local, groups)) {
            r = (int64_t)pending[i];
            launches[r].state = L_MATCHED;
            *name = launches[r].name;
            memmove(pending + i, pending + i + 1, (npending - i - 1) * sizeof(*pending));
            npending--;
            break;
        }
    pthread_mutex_unlock(&lock);
    return r;
}

void stats_launch_bind(int64_t launch, int64_t job)
{
    pthread_mutex_lock(&lock);
    if (launch >= 0 && (size_t)launch < nlaunches) {
        launches[launch].job = job;
        region_event(ROI_EV_JOB_NAMED, launch, launches[launch].name, NULL, host_ns(), job);
    }
    pthread_mutex_unlock(&lock);
}

void stats_channel_call(unsigned op)
{
    pthread_mutex_lock(&lock);
    calls_by_op[op & 255]++;
    pthread_mutex_unlock(&lock);
}

void stats_channel_error(unsigned op, int64_t code)
{
    (void)op;
    pthread_mutex_lock(&lock);
    errors++;
    errors_by_code[code == -14 ? 0 : code == -36 ? 1 : code == STATS_ROI_EINVAL ? 2 : 3]++;
    pthread_mutex_unlock(&lock);
}

/* ---- the report's "roi" section ------------------------------------------------------------ */

static void write_mark(FILE *f, const stats_mark *m, uint64_t hns)
{
    fprintf(f, "{\"cpu\": %u, \"instructions\": %" PRIu64 ", \"guest_ns\": %" PRIu64 ", \"host_ns\": %" PRIu64 "}",
            m->cpu, m->insns, m->guest_ns, hns);
}

/* a region or a dump: what ran between its marks */
static void write_span(FILE *f, const char *in, const sg_view *v, const roi_span *r, size_t id, bool region)
{
    fprintf(f, "%s\n%s  {\"id\": %zu, \"%s\": ", id ? "," : "", in, id, region ? "name" : "tag");
    stats_json_string(f, r->name);
    if (region) {
        fprintf(f, ", \"parent\": ");
        if (r->parent >= 0)
            fprintf(f, "%" PRId64, r->parent);
        else
            fprintf(f, "null");
        fprintf(f, ", \"depth\": %u, \"closed\": %s", r->depth, r->closed ? "true" : "false");
    }
    fprintf(f, ",\n%s   \"begin\": ", in);
    write_mark(f, &r->at[0], r->host_ns[0]);
    fprintf(f, ", \"end\": ");
    if (r->closed)
        write_mark(f, &r->at[1], r->host_ns[1]);
    else
        fprintf(f, "null");
    size_t end = r->closed ? r->jobs[1] : v->njobs;
    if (end > v->njobs)
        end = v->njobs;
    size_t first = r->jobs[0] < end ? r->jobs[0] : end;
    uint64_t insns = r->closed && r->at[1].insns >= r->at[0].insns ? r->at[1].insns - r->at[0].insns : 0;
    fprintf(f, ",\n%s   \"cpu_instructions\": %" PRIu64 ", \"first_job\": %zu, \"end_job\": %zu,\n%s   \"gpu\": ", in,
            insns, first, end, in);
    char in2[64];
    snprintf(in2, sizeof(in2), "%s   ", in);
    sg_write_job_range(f, in2, v, first, end);
    if (stats_timing_on()) {
        fprintf(f, ",\n%s   \"timing\": ", in);
        stats_timing_write_range(f, in2, (int64_t)first, (int64_t)end);
    }
    fprintf(f, "}");
}

static void write_launch(FILE *f, const char *in, const sg_view *v, const roi_launch *l, size_t id, bool *first)
{
    fprintf(f, "%s\n%s      {\"launch\": %zu, \"job\": ", *first ? "" : ",", in, id);
    *first = false;
    const sg_jobinfo *j = l->job >= 0 && (size_t)l->job < v->njobs ? &v->jobs[l->job] : NULL;
    if (j)
        fprintf(f, "%" PRId64 ", \"kernel\": %" PRId64, l->job, j->kernel);
    else
        fprintf(f, "null, \"kernel\": null");
    fprintf(f, ", \"queue\": %u, \"dims\": %u, \"global\": [%" PRIu64 ", %" PRIu64 ", %" PRIu64 "], \"local\": [%" PRIu64
               ", %" PRIu64 ", %" PRIu64 "],\n%s       \"clause_executions\": %" PRIu64 ", \"warp_instructions\": %" PRIu64
               ", \"thread_instructions\": %" PRIu64 "}",
            l->queue, l->dims, l->global[0], l->global[1], l->global[2], l->local[0], l->local[1], l->local[2], in,
            j ? j->execs : 0, j ? j->warp_instrs : 0, j ? j->thread_instrs : 0);
}

/* per kernel name: the launches announced with it that became jobs, summed, one row each (the
 * launches bucketed by name first: linear in launches and names) */
static void write_names(FILE *f, const char *in, const sg_view *v)
{
    fprintf(f, "\"kernel_names\": [");
    size_t *start = calloc(nnames + 1, sizeof(*start)), *order = calloc(nlaunches + 1, sizeof(*order));
    bool any = false;
    if (!start || !order)
        goto out;
    for (size_t i = 0; i < nlaunches; i++)
        start[launches[i].name_idx + 1]++;
    for (size_t n = 0; n < nnames; n++)
        start[n + 1] += start[n];
    for (size_t i = 0; i < nlaunches; i++)   /* stable: launch order within a name */
        order[start[launches[i].name_idx]++] = i;
    for (size_t n = nnames; n-- > 0;)                        /* back to each bucket's first slot */
        start[n + 1] = start[n];
    start[0] = 0;
    for (size_t n = 0; n < nnames; n++) {
        size_t b = start[n], e = start[n + 1];
        if (b == e)
            continue;
        uint64_t launched = 0, execs = 0, warp = 0, thread = 0;
        for (size_t k = b; k < e; k++) {
            const roi_launch *l = &launches[order[k]];
            if (l->job >= 0 && (size_t)l->job < v->njobs) {
                const sg_jobinfo *j = &v->jobs[l->job];
                launched++;
                execs += j->execs;
                warp += j->warp_instrs;
                thread += j->thread_instrs;
            }
        }
        fprintf(f, "%s\n%s  {\"name\": ", any ? "," : "", in);
        stats_json_string(f, names[n]);
        fprintf(f, ", \"announced\": %zu, \"launches\": %" PRIu64 ", \"clause_executions\": %" PRIu64
                   ", \"warp_instructions\": %" PRIu64 ", \"thread_instructions\": %" PRIu64 ",\n%s   \"rows\": [",
                e - b, launched, execs, warp, thread, in);
        bool first = true;
        for (size_t k = b; k < e; k++)
            if (launches[order[k]].job >= 0)
                write_launch(f, in, v, &launches[order[k]], order[k], &first);
        fprintf(f, "%s]}", first ? "" : "\n    ");
        any = true;
    }
out:
    free(start);
    free(order);
    fprintf(f, "%s],\n", any ? "\n  " : "");
}

static void write_json(FILE *f, const char *in, const stats_totals *T)
{
    (void)T;
    sg_view v;
    sg_view_build(&v, sg_threads());
    pthread_mutex_lock(&lock);
    uint64_t calls = 0;
    for (unsigned i = 0; i < 256; i++)
        calls += calls_by_op[i];
    fprintf(f, "\"channel\": {\"calls\": %" PRIu64 ", \"errors\": %" PRIu64 ", \"errors_by_code\": {\"fault\": %" PRIu64
               ", \"too_long\": %" PRIu64 ", \"invalid\": %" PRIu64 ", \"no_space\": %" PRIu64 "}},\n",
            calls, errors, errors_by_code[0], errors_by_code[1], errors_by_code[2], errors_by_code[3]);
    uint64_t matched = 0;
    for (size_t i = 0; i < nlaunches; i++)
        matched += launches[i].state == L_MATCHED;
    fprintf(f, "%s\"launches\": {\"announced\": %zu, \"matched\": %" PRIu64 ", \"cancelled\": %" PRIu64
               ", \"unmatched\": %" PRIu64 ", \"pending\": %zu, \"refused\": %" PRIu64 "},\n%s",
            in, nlaunches, matched, n_cancelled, n_unmatched, npending, n_full, in);
    write_names(f, in, &v);
    fprintf(f, "%s\"regions\": [", in);
    for (size_t i = 0; i < nregions; i++)
        write_span(f, in, &v, &regions[i], i, true);
    fprintf(f, "%s],\n%s\"dumps\": [", nregions ? "\n  " : "", in);
    for (size_t i = 0; i < ndumps; i++)
        write_span(f, in, &v, &dumps[i], i, false);
    fprintf(f, "%s],\n%s\"annotations\": [", ndumps ? "\n  " : "", in);
    for (size_t i = 0; i < nnotes; i++) {
        fprintf(f, "%s\n%s  {\"id\": %zu, \"text\": ", i ? "," : "", in, i);
        stats_json_string(f, notes[i].name);
        fprintf(f, ", \"at\": ");
        write_mark(f, &notes[i].at[0], notes[i].host_ns[0]);
        fprintf(f, ", \"jobs_before\": %zu}", notes[i].jobs[0]);
    }
    fprintf(f, "%s]", nnotes ? "\n  " : "");
    pthread_mutex_unlock(&lock);
    sg_view_free(&v);
}

static void summary(FILE *f, const stats_totals *T)
{
    (void)T;
    pthread_mutex_lock(&lock);
    uint64_t matched = 0;
    for (size_t i = 0; i < nlaunches; i++)
        matched += launches[i].state == L_MATCHED;
    if (nregions || ndumps || nnotes || nlaunches || errors)
        fprintf(f, "  roi: %zu regions, %zu dumps, %zu annotations, %zu kernel launches announced (%" PRIu64
                   " named a job), %" PRIu64 " channel errors\n",
                nregions, ndumps, nnotes, nlaunches, matched, errors);
    pthread_mutex_unlock(&lock);
}

static const stats_section roi_section = { .name = "roi", .write_json = write_json, .summary = summary };

__attribute__((constructor)) static void register_roi_section(void)
{
    stats_register_section(&roi_section);
}
