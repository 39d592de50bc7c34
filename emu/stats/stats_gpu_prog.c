/* The GPU job and program registry.  A program is identified by the code its jobs ran: the pc,
 * size and code hash (bytes) of every clause a job executed, over all host threads, plus the warp
 * width.  Jobs are keyed while they run by (program object, bi_mem epoch): the engine announces
 * each job (stats_gpu_job_begin) and its end (stats_gpu_job_end); a record first used in a job
 * adds its clause to the job's code (sg_job_claim).  At its end the job is identified: the program
 * with the same code, or a new one.  Two different shaders loaded at the same GPU address are
 * two programs; the same shader run twice (at any address) is one program with two jobs.
 * Records hold one job's counts; they are folded into the job's program when their thread moves
 * on (sg_fold), or added on the fly when a report is written (sg_view_build). */
#include "stats.h"
#include "stats_gpu_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint32_t pc, size;
    uint64_t code;
} sg_code;

typedef struct {
    sg_jobinfo info;                 /* info.kernel: registry program once identified, else -1 */
    uint64_t epoch;
    bool identified;
    unsigned lanes;
    sg_code *code;                   /* clauses run so far (until identified) */
    size_t ncode, capcode;
    struct stats_gclause *pend;      /* folded counts while not identified */
    size_t npend, cappend;
} sg_job;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static sg_job *jobs;
static size_t njobs, capjobs;
static sg_kernel *progs;
static size_t nprogs, capprogs;
static uint32_t *open_jobs;          /* jobs not identified yet */
static size_t nopen, capopen;

static bool grow_array(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t n = *cap ? 2 * *cap : 16;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q)
        return false;
    *p = q;
    *cap = n;
    return true;
}

/* lock held */
static uint32_t find_open(const void *prog, uint64_t epoch)
{
    for (size_t i = nopen; i-- > 0;) {
        const sg_job *j = &jobs[open_jobs[i]];
        if (j->info.prog == prog && j->epoch == epoch)
            return open_jobs[i];
    }
    return SG_NO_JOB;
}

static uint32_t new_job(const void *prog, uint64_t epoch)
{
    if (njobs >= SG_NO_JOB || !grow_array((void **)&jobs, &capjobs, njobs + 1, sizeof(*jobs)) ||
        !grow_array((void **)&open_jobs, &capopen, nopen + 1, sizeof(*open_jobs)))
        return SG_NO_JOB;
    sg_job *j = &jobs[njobs];
    memset(j, 0, sizeof(*j));
    j->info.prog = prog;
    j->info.kernel = -1;
    j->epoch = epoch;
    open_jobs[nopen++] = (uint32_t)njobs;
    return (uint32_t)njobs++;
}

/* Merge record s into list (by pc and code), adding an entry for a new clause. */
static bool merge_list(struct stats_gclause **list, size_t *n, size_t *cap, const struct stats_gclause *s)
{
    size_t i;
    for (i = 0; i < *n; i++)
        if ((*list)[i].pc == s->pc && (*list)[i].code == s->code)
            break;
    if (i == *n) {
        if (!grow_array((void **)list, cap, *n + 1, sizeof(**list)))
            return false;
        struct stats_gclause *d = &(*list)[(*n)++];
        *d = *s;
        d->x = d->prog = NULL;
        d->epoch = 0;
        d->job = SG_NO_JOB;
        d->execs = d->lanes = d->diverged = d->partial = 0;
        d->simple = 0;
        d->nedges = 0;
        memset(d->e, 0, sizeof(d->e));
    }
    sg_merge(&(*list)[i], s);
    return true;
}

static int cmp_code(const void *a, const void *b)
{
    const sg_code *x = a, *y = b;
    if (x->pc != y->pc)
        return x->pc < y->pc ? -1 : 1;
    return x->code < y->code ? -1 : x->code > y->code;
}

/* The identity of a job's code (sorts it): hash, bytes. */
static uint64_t code_identity(sg_code *c, size_t n, unsigned lanes, uint64_t *bytes)
{
    qsort(c, n, sizeof(*c), cmp_code);
    uint64_t h = sg_hash(SG_HASH_INIT, &lanes, sizeof(lanes));
    *bytes = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t v[2] = { (uint64_t)c[i].pc << 32 | c[i].size, c[i].code };
        h = sg_hash(h, v, sizeof(v));
        *bytes += c[i].size;
    }
    return h;
}

static int64_t find_kernel(const sg_kernel *k, size_t n, uint64_t hash, unsigned lanes)
{
    for (size_t i = 0; i < n; i++)
        if (k[i].hash == hash && k[i].lanes_per_warp == lanes)
            return (int64_t)i;
    return -1;
}

/* lock held: give job ji its program (or none if it ran no clause) and close it. */
static void identify(uint32_t ji)
{
    sg_job *j = &jobs[ji];
    for (size_t i = 0; i < nopen; i++)
        if (open_jobs[i] == ji) {
            open_jobs[i] = open_jobs[--nopen];
            break;
        }
    j->identified = true;
    if (j->ncode) {
        uint64_t bytes;
        uint64_t h = code_identity(j->code, j->ncode, j->lanes, &bytes);
        int64_t k = find_kernel(progs, nprogs, h, j->lanes);
        if (k < 0 && grow_array((void **)&progs, &capprogs, nprogs + 1, sizeof(*progs))) {
            k = (int64_t)nprogs++;
            progs[k] = (sg_kernel){ .hash = h, .bytes = bytes, .nclauses_code = (unsigned)j->ncode,
                                    .lanes_per_warp = j->lanes, .first_job = ji };
        }
        if (k >= 0) {
            sg_kernel *K = &progs[k];
            K->njobs++;
            for (size_t i = 0; i < j->npend; i++)
                merge_list(&K->c, &K->n, &K->cap, &j->pend[i]);
        }
        j->info.kernel = k;
    }
    free(j->code);
    free(j->pend);
    j->code = NULL;
    j->pend = NULL;
    j->ncode = j->capcode = j->npend = j->cappend = 0;
}

void stats_gpu_job_begin(const void *prog, uint64_t epoch, uint64_t shader_va, unsigned as, unsigned type,
                         const char *name)
{
    pthread_mutex_lock(&lock);
    uint32_t ji = find_open(prog, epoch);
    if (ji != SG_NO_JOB && jobs[ji].info.announced)
        identify(ji);                    /* the runner did not report that job's end */
    if (ji == SG_NO_JOB || jobs[ji].identified)
        ji = new_job(prog, epoch);
    if (ji != SG_NO_JOB) {
        sg_jobinfo *in = &jobs[ji].info;
        in->announced = true;
        in->shader_va = shader_va;
        in->as = as;
        in->type = type;
        in->name = name ? strdup(name) : NULL;
    }
    pthread_mutex_unlock(&lock);
}

void stats_gpu_job_stage(const void *prog, uint64_t epoch, unsigned stage)
{
    pthread_mutex_lock(&lock);
    uint32_t ji = find_open(prog, epoch);
    if (ji != SG_NO_JOB)
        jobs[ji].info.stage = stage;
    pthread_mutex_unlock(&lock);
}

int64_t sg_job_index(const void *prog, uint64_t epoch)
{
    int64_t r = -1;
    pthread_mutex_lock(&lock);
    for (size_t i = njobs; i-- > 0;)
        if (jobs[i].info.prog == prog && jobs[i].epoch == epoch) {
            r = (int64_t)i;
            break;
        }
    pthread_mutex_unlock(&lock);
    return r;
}

void stats_gpu_job_end(const void *prog, uint64_t epoch, uint32_t status)
{
    pthread_mutex_lock(&lock);
    uint32_t ji = find_open(prog, epoch);
    if (ji != SG_NO_JOB) {
        jobs[ji].info.ended = true;
        jobs[ji].info.status = status;
        identify(ji);
    }
    pthread_mutex_unlock(&lock);
}

uint32_t sg_job_claim(const void *prog, uint64_t epoch, uint32_t pc, uint32_t size, uint64_t code, unsigned lanes)
{
    pthread_mutex_lock(&lock);
    uint32_t ji = find_open(prog, epoch);
    if (ji == SG_NO_JOB)
        ji = new_job(prog, epoch);       /* a runner that does not announce jobs */
    if (ji != SG_NO_JOB) {
        sg_job *j = &jobs[ji];
        j->lanes = lanes;
        size_t i;
        for (i = 0; i < j->ncode; i++)
            if (j->code[i].pc == pc && j->code[i].code == code)
                break;
        if (i == j->ncode && grow_array((void **)&j->code, &j->capcode, j->ncode + 1, sizeof(*j->code)))
            j->code[j->ncode++] = (sg_code){ pc, size, code };
    }
    pthread_mutex_unlock(&lock);
    return ji;
}

static void add_job_totals(sg_jobinfo *in, const struct stats_gclause *g)
{
    in->execs += g->execs;
    in->lanes += g->lanes;
    in->warp_instrs += (uint64_t)g->info.instrs * g->execs;
    in->thread_instrs += (uint64_t)g->info.instrs * g->lanes;
    for (unsigned k = 0; k < SC_N; k++) {
        in->cls[k][0] += (uint64_t)g->info.cls[k] * g->execs;
        in->cls[k][1] += (uint64_t)g->info.cls[k] * g->lanes;
    }
    for (unsigned k = 0; k < SD_N; k++) {
        in->data[k][0] += (uint64_t)g->info.data[k] * g->execs;
        in->data[k][1] += (uint64_t)g->info.data[k] * g->lanes;
    }
    in->diverged += g->diverged;
    in->partial += g->partial;
    if (g->info.has_branch)
        in->branch_execs += g->execs;
}

size_t sg_job_count(void)
{
    pthread_mutex_lock(&lock);
    size_t n = njobs;
    pthread_mutex_unlock(&lock);
    return n;
}

void sg_fold(struct stats_gclause *g)
{
    if (g->job == SG_NO_JOB || !g->execs)
        return;
    pthread_mutex_lock(&lock);
    if (g->job < njobs) {
        sg_job *j = &jobs[g->job];
        add_job_totals(&j->info, g);
        if (!j->identified)
            merge_list(&j->pend, &j->npend, &j->cappend, g);
        else if (j->info.kernel >= 0) {
            sg_kernel *K = &progs[j->info.kernel];
            merge_list(&K->c, &K->n, &K->cap, g);
        }
    }
    pthread_mutex_unlock(&lock);
    g->execs = g->lanes = g->diverged = g->partial = 0;
    g->nedges = 0;
    memset(g->e, 0, sizeof(g->e));
}

void sg_registry_reset(void)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < njobs; i++) {
        free(jobs[i].code);
        free(jobs[i].pend);
        free((char *)jobs[i].info.name);
    }
    for (size_t i = 0; i < nprogs; i++)
        free(progs[i].c);
    free(jobs);
    free(progs);
    free(open_jobs);
    jobs = NULL;
    progs = NULL;
    open_jobs = NULL;
    njobs = capjobs = nprogs = capprogs = nopen = capopen = 0;
    pthread_mutex_unlock(&lock);
}

/* ---- views ------------------------------------------------------------------------------------ */

static int cmp_clause(const void *a, const void *b)
{
    const struct stats_gclause *x = a, *y = b;
    if (x->pc != y->pc)
        return x->pc < y->pc ? -1 : 1;
    return x->code < y->code ? -1 : x->code > y->code;
}

static int cmp_edge(const void *a, const void *b)
{
    const sg_edge *x = a, *y = b;
    return x->to < y->to ? -1 : x->to > y->to;
}

static int cmp_first_job(const void *a, const void *b)
{
    const sg_kernel *x = a, *y = b;
    return x->first_job < y->first_job ? -1 : x->first_job > y->first_job;
}

static bool copy_kernel(sg_kernel *d, const sg_kernel *s)
{
    *d = *s;
    d->c = NULL;
    d->cap = d->n;
    if (s->n) {
        d->c = malloc(s->n * sizeof(*d->c));
        if (!d->c) {
            d->n = d->cap = 0;
            return false;
        }
        memcpy(d->c, s->c, s->n * sizeof(*d->c));
    }
    return true;
}

void sg_view_build(sg_view *v, sg_thread *threads)
{
    memset(v, 0, sizeof(*v));
    pthread_mutex_lock(&lock);
    v->jobs = njobs ? calloc(njobs, sizeof(*v->jobs)) : NULL;
    v->k = calloc(nprogs + nopen + 1, sizeof(*v->k));
    if ((njobs && !v->jobs) || !v->k) {
        pthread_mutex_unlock(&lock);
        sg_view_free(v);
        return;
    }
    v->njobs = njobs;
    for (size_t i = 0; i < njobs; i++)
        v->jobs[i] = jobs[i].info;
    for (size_t i = 0; i < nprogs; i++)
        copy_kernel(&v->k[v->nk++], &progs[i]);
    /* jobs still open: identified as they stand */
    for (size_t o = 0; o < nopen; o++) {
        sg_job *j = &jobs[open_jobs[o]];
        sg_jobinfo *in = &v->jobs[open_jobs[o]];
        if (!j->ncode)
            continue;
        sg_code *c = malloc(j->ncode * sizeof(*c));
        if (!c)
            continue;
        memcpy(c, j->code, j->ncode * sizeof(*c));
        uint64_t bytes;
        uint64_t h = code_identity(c, j->ncode, j->lanes, &bytes);
        free(c);
        int64_t k = find_kernel(v->k, v->nk, h, j->lanes);
        if (k < 0) {
            k = (int64_t)v->nk++;
            v->k[k] = (sg_kernel){ .hash = h, .bytes = bytes, .nclauses_code = (unsigned)j->ncode,
                                   .lanes_per_warp = j->lanes, .first_job = open_jobs[o] };
        }
        sg_kernel *K = &v->k[k];
        K->njobs++;
        in->kernel = k;
        for (size_t i = 0; i < j->npend; i++)
            merge_list(&K->c, &K->n, &K->cap, &j->pend[i]);
    }
    /* the records not folded yet */
    for (sg_thread *t = threads; t; t = t->next)
        for (size_t i = 0; i < t->capgc; i++) {
            const struct stats_gclause *g = t->gc[i];
            if (!g || !g->execs || g->job >= v->njobs || v->jobs[g->job].kernel < 0)
                continue;
            sg_kernel *K = &v->k[v->jobs[g->job].kernel];
            merge_list(&K->c, &K->n, &K->cap, g);
            add_job_totals(&v->jobs[g->job], g);
        }
    pthread_mutex_unlock(&lock);
    for (size_t i = 0; i < v->nk; i++) {
        if (v->k[i].n)
            qsort(v->k[i].c, v->k[i].n, sizeof(*v->k[i].c), cmp_clause);
        /* edges by target: records merge in host-thread order, which must not show */
        for (size_t j = 0; j < v->k[i].n; j++)
            qsort(v->k[i].c[j].e, v->k[i].c[j].nedges, sizeof(sg_edge), cmp_edge);
    }
    /* kernels in the order of their first jobs */
    int64_t *to = malloc((v->nk + 1) * sizeof(*to));
    if (!to)
        return;
    qsort(v->k, v->nk, sizeof(*v->k), cmp_first_job);
    for (size_t i = 0; i < v->nk; i++)
        to[i] = -1;
    for (size_t i = 0; i < v->nk; i++)
        if (v->k[i].first_job < v->njobs)
            to[v->jobs[v->k[i].first_job].kernel] = (int64_t)i;
    for (size_t i = 0; i < v->njobs; i++)
        if (v->jobs[i].kernel >= 0)
            v->jobs[i].kernel = to[v->jobs[i].kernel];
    free(to);
}

void sg_view_free(sg_view *v)
{
    for (size_t i = 0; i < v->nk; i++)
        free(v->k[i].c);
    free(v->k);
    free(v->jobs);
    memset(v, 0, sizeof(*v));
}

int64_t sg_view_kernel_of(const sg_view *v, const void *prog)
{
    for (size_t i = 0; i < v->njobs; i++)
        if (v->jobs[i].prog == prog && v->jobs[i].kernel >= 0)
            return v->jobs[i].kernel;
    return -1;
}
