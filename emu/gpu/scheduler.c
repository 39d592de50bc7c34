/* The workgroup scheduler (engine_int.h): a run's workgroups are taken in index order by the
 * submitting thread and the engine's pool of host threads, each running whole workgroups on the
 * Bifrost executor (workgroup.h).  Results never depend on the number of threads: workgroups
 * share only global memory (host atomics), the core id is the workgroup's linear index modulo
 * the job's cores, a faulting run reports its lowest faulting workgroup, and --timing replays
 * the recorded accesses in workgroup order (gpu_timing.h). */
#include "engine_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef STOP_POLL_CLAUSES
#define STOP_POLL_CLAUSES 65536u      /* the fuzz build (tests/fuzz) polls more often */
#endif
#define PROGRESS_BATCH_TUPLES 65536u /* ~10 us of a modelled GPU: fine enough for guest timers */

static int worker_prepare(worker *w, run *r)
{
    const job_desc *d = &r->d;
    unsigned lanes = r->job->arch_major >= 7 ? 8 : 4;
    unsigned threads = d->local[0] * d->local[1] * d->local[2];
    unsigned nwarps = (threads + lanes - 1) / lanes;
    w->r = r;
    w->tuples_unreported = 0;
    engine_mem_bind(w, r, r->e && r->e->timing);
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
        .vertex = d->vertex,
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
        uint32_t st = w->since_poll >= STOP_POLL_CLAUSES / 16 && stop_requested(w) ? 0x03
                      : r->item ? r->item(w, idx) : run_workgroup(w, idx);
        if (r->item && r->e && r->e->timing)      /* the item's recorded accesses, replayed in order */
            gpu_timing_wg_done(r->e->timing, idx, &w->trace);
        if (r->item)
            report_progress(w, false);
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


void scheduler_start(gpu_compute *e)
{
    pthread_cond_init(&e->work, NULL);
    job_gate_init(&e->gate);
    e->caller.e = e;
    for (unsigned i = 0; i + 1 < e->nthreads; i++) {
        e->w[i].e = e;
        e->w[i].slot = i;
        if (pthread_create(&e->w[i].thread, NULL, pool_thread, &e->w[i])) {
            e->nthreads = i + 1;
            break;
        }
    }
    e->caller.slot = e->nthreads - 1;
}

static void worker_free(worker *w)
{
    bi_wg_warps_free(&w->warps);
    gt_trace_free(&w->trace);
    free(w->wls);
    free(w->tls);
}

void scheduler_stop(gpu_compute *e)
{
    pthread_mutex_lock(&e->lock);
    e->quit = 1;
    pthread_cond_broadcast(&e->work);
    pthread_mutex_unlock(&e->lock);
    for (unsigned i = 0; i + 1 < e->nthreads; i++) {
        pthread_join(e->w[i].thread, NULL);
        worker_free(&e->w[i]);
    }
    worker_free(&e->caller);
    pthread_cond_destroy(&e->work);
    job_gate_destroy(&e->gate);
}

uint32_t scheduler_run(gpu_compute *e, run *r)
{
    const gpu_compute_job *job = r->job;
    r->e = e;
    r->status = 0;
    r->fault_wg = UINT64_MAX;
    if (!r->item)
        r->total_wgs = (uint64_t)r->d.groups[0] * r->d.groups[1] * r->d.groups[2];
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->done, NULL);

    job_gate_enter(&e->gate, job->priority);
    pthread_mutex_lock(&e->lock);
    int cached = 0;
    if (!r->item)
        r->prog = program_cache_get(&e->cache, r->d.shader_va, job->as, job->arch_major >= 7 ? 7 : 6, &cached);
    r->epoch = ++e->epoch;
    e->st.jobs++;
    if (e->hooks.job_grid && r->prog && !r->item)
        e->hooks.job_grid(r->d.local, r->d.groups);
    if (e->hooks.job_begin && r->prog && !r->item)
        e->hooks.job_begin(r->prog, r->epoch, r->d.shader_va, job->as, job->type, r->d.stage);
    if (r->item && r->announce)
        r->announce(r, true);
    if ((r->prog || r->item) && e->timing)
        gpu_timing_job_begin(e->timing, r->total_wgs, r->ncores, r->core_ids);
    if (r->prog || r->item) {
        r->active = 1;                     /* the caller */
        e->cur = r;
        e->cur_gen++;
        pthread_cond_broadcast(&e->work);
    }
    pthread_mutex_unlock(&e->lock);
    if (!r->prog && !r->item) {
        job_gate_leave(&e->gate);
        pthread_cond_destroy(&r->done);
        pthread_mutex_destroy(&r->lock);
        return EXC_DATA_INVALID_FAULT;
    }
    work(&e->caller, r);
    pthread_mutex_lock(&e->lock);
    e->cur = NULL;                        /* late pool threads no longer join */
    pthread_mutex_unlock(&e->lock);
    pthread_mutex_lock(&r->lock);
    while (r->active)
        pthread_cond_wait(&r->done, &r->lock);
    pthread_mutex_unlock(&r->lock);
    if (e->timing) {          /* the memory stall time joins the issue time the device modelled */
        gpu_timing_job jt;
        uint64_t stall = gpu_timing_job_end(e->timing, job->engines, &jt);
        if (stall && job->mem.stall)
            job->mem.stall(job->mem.ctx, stall);
        pthread_mutex_lock(&e->lock);
        e->last_timing = jt;
        pthread_mutex_unlock(&e->lock);
        if (e->hooks.timing && r->prog)    /* (item runs: the program the caller charges it to) */
            e->hooks.timing(r->prog, r->epoch, &jt);
    }
    pthread_mutex_lock(&e->lock);
    if (e->hooks.job_end && !r->item)
        e->hooks.job_end(r->prog, r->epoch, r->status ? r->status : EXC_DONE);
    if (r->item && r->announce)
        r->announce(r, false);
    if (!r->item)
        program_cache_put(&e->cache, r->prog, cached);
    add_stats(&e->st, &r->st);
    pthread_mutex_unlock(&e->lock);
    job_gate_leave(&e->gate);

    pthread_cond_destroy(&r->done);
    pthread_mutex_destroy(&r->lock);
    return 0;
}
