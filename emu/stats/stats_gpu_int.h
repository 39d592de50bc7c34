/* Internal to emu/stats/stats_gpu*.c: clause records, the job and program registry, report views.
 *
 *   stats_gpu.c        the executor hook: per host thread, one record per prepared clause, counting
 *                      what the current job ran of it (no locks on the hot path)
 *   stats_gpu_prog.c   the registry: jobs, programs identified by the code their jobs ran, folding
 *                      of finished jobs' records into their program; views for the report
 *   stats_gpu_json.c   JSON, text summary and test queries over a view */
#ifndef MALIBU_STATS_GPU_INT_H
#define MALIBU_STATS_GPU_INT_H

#include "stats_gpu.h"

#define SG_EDGES 6
#define SG_EXIT STATS_GPU_EXIT
#define SG_OTHER STATS_GPU_OTHER
#define SG_NO_JOB UINT32_MAX

typedef struct {
    uint32_t to;
    uint64_t threads, warps;
} sg_edge;

/* What one host thread counted of one prepared clause during one job (stats_gpu.c); the registry
 * keeps the same record, merged over threads and jobs, for each clause of a program (there x,
 * prog, epoch and job are unused). */
struct stats_gclause {
    const void *x, *prog;
    uint64_t epoch;           /* bi_mem epoch of the job (0: a runner without bi_mem) */
    uint32_t job;             /* registry index of that job */
    uint32_t pc, size;
    uint64_t header;
    uint64_t code;            /* hash of the clause's bytes (sg_clause_code) */
    unsigned lanes_per_warp;
    sc_clause_info info;
    uint64_t execs, lanes, diverged, partial;
    /* Clauses without a control-flow instruction (or that end the lanes) always go to `next`:
     * their single edge is made from execs / lanes when records are merged (sg_merge). */
    uint8_t simple;
    uint32_t next;
    unsigned nedges;
    sg_edge e[SG_EDGES];
};

/* 64-bit FNV-1a, continued from h (start: SG_HASH_INIT). */
#define SG_HASH_INIT 0xcbf29ce484222325ull
uint64_t sg_hash(uint64_t h, const void *data, size_t len);
/* Hash of a prepared clause's code: its bytes when the executor kept them (programs fetched
 * from GPU memory), else its decoded fields (header, tuples, constants). */
uint64_t sg_clause_code(const bi_xclause *x);
/* Add s's counts and edges to d (same program and pc; d keeps its edges explicitly: simple = 0). */
void sg_merge(struct stats_gclause *d, const struct stats_gclause *s);
/* One host thread's clause records (stats_gpu.c): a hash table by prepared clause, with a
 * direct-mapped cache in front; blocks stay alive until exit. */
typedef struct sg_thread {
    struct stats_gclause **gc;
    size_t ngc, capgc;
    struct stats_gclause *gcache[256];
    struct sg_thread *next;
} sg_thread;
/* Every thread's block. */
sg_thread *sg_threads(void);
/* Start observing the engine and the executor (gpu_observer.h). */
void sg_observe(void);

/* ---- registry (stats_gpu_prog.c; each call takes the registry lock) ------------------------- */

/* The job that (prog, epoch) is running -- the one a runner announced with stats_gpu_job_begin,
 * else a new unannounced one -- after adding the clause (pc, size, code) to the code it ran. */
uint32_t sg_job_claim(const void *prog, uint64_t epoch, uint32_t pc, uint32_t size, uint64_t code, unsigned lanes);
/* Add a record's counts to its job and its job's program, then zero them (the record's owner
 * thread, when the record is about to count for another job). */
void sg_fold(struct stats_gclause *g);
/* Registry index of the job (prog, epoch) (the report's shader_jobs order), -1 if unknown. */
int64_t sg_job_index(const void *prog, uint64_t epoch);
/* Forget every job and program. */
void sg_registry_reset(void);
/* Jobs registered so far (the next job's index). */
size_t sg_job_count(void);

/* ---- views: the registry plus every thread's records not yet folded --------------------------- */

typedef struct {
    uint64_t hash;                /* program identity: its clauses' pcs, sizes and code hashes */
    uint64_t bytes;               /* code bytes of those clauses */
    unsigned nclauses_code;
    unsigned lanes_per_warp;
    size_t first_job;
    uint64_t njobs;
    struct stats_gclause *c;      /* merged per clause, sorted by pc */
    size_t n, cap;
} sg_kernel;

typedef struct {
    const void *prog;
    uint64_t shader_va;
    unsigned as, type;
    unsigned stage;               /* enum gpu_stage (stats_gpu_job_stage; 0: compute) */
    bool announced;               /* stats_gpu_job_begin: shader_va, as, type, name known */
    bool ended;                   /* stats_gpu_job_end: status known */
    uint32_t status;
    const char *name;             /* runner's name or NULL */
    int64_t kernel;               /* view kernel, -1: ran no clause */
    uint64_t execs, lanes, warp_instrs, thread_instrs;
    /* what its clauses ran, by class and data kind [warp, thread], and their divergence (the
     * report's regions sum these over their jobs) */
    uint64_t cls[SC_N][2], data[SD_N][2];
    uint64_t diverged, partial, branch_execs;
} sg_jobinfo;

typedef struct {
    sg_kernel *k;
    size_t nk;
    sg_jobinfo *jobs;
    size_t njobs;
} sg_view;

/* Build a view over the threads' records (call when no GPU work runs for exact counts). */
void sg_view_build(sg_view *v, sg_thread *threads);
void sg_view_free(sg_view *v);
/* The "gpu" section's shader-core part of the report (stats_gpu_json.c): JSON members
 * "kernels", "shader_jobs", "totals", and summary lines. */
void sg_write_json(FILE *f, const char *indent);
void sg_summary(FILE *f);
/* The totals of view jobs first..end-1 (a region of the report, regions.c): a JSON object. */
void sg_write_job_range(FILE *f, const char *indent, const sg_view *v, size_t first, size_t end);
/* --timing's counters of registry jobs first..end-1 as a JSON object (stats_timing.c); whether
 * the timing section is present. */
bool stats_timing_on(void);
void stats_timing_write_range(FILE *f, const char *indent, int64_t first, int64_t end);
/* Index of the view kernel whose first job ran prog (tests), -1 if none. */
int64_t sg_view_kernel_of(const sg_view *v, const void *prog);

#endif
