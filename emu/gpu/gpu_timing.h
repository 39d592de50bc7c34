/* The GPU side of the timing plug-in (--timing, emu/timing/timing.h): workgroups record their
 * memory accesses while they run (any host thread), and the records are replayed into the cache
 * and DRAM models in a fixed order, so counts and modelled time never depend on the number of
 * host threads or on their timing.
 *
 * Recording: each memory message of a warp (one load / store / atomic / texture instruction for
 * all its active lanes) is a group of accesses; at replay a message's accesses are coalesced into
 * the distinct L1 lines they touch (one request per line).
 *
 * Order: workgroup i runs on modelled core core_ids[i % ncores] (the engine's assignment); the
 * workgroups are replayed in batches of ncores consecutive indices (one per core), the batch's
 * messages interleaved round-robin across cores, as soon as every workgroup of the batch ended.
 *
 * Overlap model (docs/timing.md): a core's memory time is the sum over its messages of the
 * message's latency (the slowest of its lines) divided by its memory parallelism P = min(L1
 * MSHRs, warps of the workgroup); its issue time is its warp-tuples / execution engines.  The job
 * takes its issue time (the device's existing model) plus the largest excess of a core's memory
 * time over its issue time. */
#ifndef MALIBU_GPU_TIMING_H
#define MALIBU_GPU_TIMING_H

#include <stdbool.h>
#include <stdint.h>

#include "../timing/timing.h"

/* One workgroup's record (per host thread, reused). */
typedef struct gt_access {
    uint64_t addr;
    uint32_t size;            /* bytes; 0: the start of a message (addr: warp id) */
    uint32_t write;
} gt_access;

typedef struct gt_trace {
    gt_access *e;
    size_t n, cap;
    uint64_t tuples;          /* warp-tuples the workgroup issued */
    unsigned warps;
    bool oom;                 /* host out of memory: the workgroup is not modelled */
    bool truncated;           /* more than GT_MAX_ACCESSES: the rest is not modelled */
} gt_trace;

/* Accesses recorded per workgroup at most (16 bytes each): a shader looping over memory (guest
 * input) must not exhaust host memory before the job times out. */
#define GT_MAX_ACCESSES (4u << 20)

void gt_trace_message(gt_trace *t, unsigned warp_id);
void gt_trace_access(gt_trace *t, uint64_t addr, unsigned size, bool write);
void gt_trace_free(gt_trace *t);

typedef struct gpu_timing gpu_timing;

gpu_timing *gpu_timing_new(const tm_config *cfg, char *err, unsigned errlen);
void gpu_timing_free(gpu_timing *g);
const tm_config *gpu_timing_config(const gpu_timing *g);

/* A job of total_wgs workgroups on cores core_ids[0..ncores) starts (one job at a time). */
void gpu_timing_job_begin(gpu_timing *g, uint64_t total_wgs, unsigned ncores, const unsigned *core_ids);
/* Workgroup idx ended: its record moves into g (t is left empty for the next workgroup); replays
 * every batch now complete.  Any thread. */
void gpu_timing_wg_done(gpu_timing *g, uint64_t idx, gt_trace *t);

typedef struct gpu_timing_job {
    tm_totals counts;                 /* what the job's accesses did */
    uint64_t messages, requests;      /* memory messages, line requests after coalescing */
    uint64_t issue_cycles, mem_cycles;/* the busiest core's (by memory time) */
    uint64_t stall_cycles;            /* added to the job's issue time */
} gpu_timing_job;

/* The job ended (engines: execution engines per core): replays what is left, returns the stall
 * cycles the job's modelled time grows by; *out (may be NULL) its counters. */
uint64_t gpu_timing_job_end(gpu_timing *g, unsigned engines, gpu_timing_job *out);

#endif
