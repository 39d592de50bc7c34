/* One set-associative cache level of the timing plug-in: tags only (no data), a replacement
 * policy, write-back or write-through, MSHR merging of outstanding fills, and counters with each
 * miss classified cold / capacity / conflict (the 3C model: cold = the line was never accessed
 * before; capacity = a fully-associative LRU cache of the same size would miss too; conflict =
 * the rest).  Knows nothing of who accesses it: callers pass line-aligned addresses and a time. */
#ifndef MALIBU_TIMING_CACHE_H
#define MALIBU_TIMING_CACHE_H

#include <stdbool.h>
#include <stdint.h>

enum tm_policy { TM_LRU, TM_PLRU, TM_FIFO, TM_RANDOM };

typedef struct tm_cache_cfg {
    uint64_t size;            /* bytes */
    unsigned line;            /* bytes, power of two */
    unsigned assoc;           /* ways; size / line / assoc sets (a power of two) */
    enum tm_policy policy;
    uint64_t seed;            /* TM_RANDOM's generator seed */
    bool write_back;          /* else write-through */
    bool write_allocate;      /* a write miss fills the line (else it goes below untouched) */
    unsigned mshrs;           /* outstanding fills; also the memory parallelism of a GPU core */
    unsigned banks;           /* line-interleaved banks (counted per access) */
    unsigned latency;         /* hit latency in core cycles */
} tm_cache_cfg;

#define TM_MAX_BANKS 64

typedef struct tm_cache_stats {
    uint64_t accesses, reads, writes, hits, misses;
    uint64_t cold, capacity, conflict;        /* misses by cause */
    uint64_t fills;         /* misses that read the line from below (allocating) */
    uint64_t mshr_merges;   /* hits on a line whose fill was still outstanding (cost: the wait) */
    uint64_t mshr_full;     /* misses that waited for a free MSHR */
    uint64_t writebacks;    /* dirty lines evicted (write-back) */
    uint64_t write_throughs;/* writes passed below (write-through, or write misses not allocated) */
    uint64_t bank[TM_MAX_BANKS];
} tm_cache_stats;

typedef struct tm_cache tm_cache;

/* NULL with a reason in err for an impossible geometry (see tm_cache_check). */
tm_cache *tm_cache_new(const tm_cache_cfg *cfg, char *err, unsigned errlen);
void tm_cache_free(tm_cache *c);
/* 0, or -1 with the reason in err (sizes, powers of two, policy constraints). */
int tm_cache_check(const tm_cache_cfg *cfg, const char *name, char *err, unsigned errlen);

/* What one access did, for the level below. */
typedef struct tm_result {
    bool hit;
    bool fill;               /* read the line from below (a miss that allocates) */
    bool write_below;        /* pass the write below (write-through / no-allocate miss) */
    bool evict_dirty;        /* write the victim back below */
    uint64_t victim;         /* its line address */
    uint64_t wait;           /* mshr merge: cycles until the outstanding fill arrives */
    bool mshr_wait;          /* the miss had to wait for a free MSHR (wait: how long) */
} tm_result;

/* Access the line holding addr at time now (core cycles; 0 if the caller has no clock).  On a
 * fill the caller reports when the line arrives with tm_cache_filled. */
tm_result tm_cache_access(tm_cache *c, uint64_t addr, bool write, uint64_t now);
void tm_cache_filled(tm_cache *c, uint64_t addr, uint64_t ready);
/* Drop outstanding fills (a new job starts at time 0). */
void tm_cache_reset_time(tm_cache *c);

/* TM_RANDOM's choice among the ways of a full set: the model's own generator (xorshift64 seeded
 * by cfg.seed) unless a source is installed here, which returns a way below assoc; a test
 * installs one to replay a known sequence of choices (tests/timing/ref_cache.h).  NULL restores
 * the model's generator. */
typedef unsigned tm_victim_fn(void *ctx, unsigned assoc);
void tm_cache_set_victim_source(tm_cache *c, tm_victim_fn *fn, void *ctx);

const tm_cache_stats *tm_cache_get_stats(const tm_cache *c);
const tm_cache_cfg *tm_cache_get_cfg(const tm_cache *c);
void tm_cache_clear_stats(tm_cache *c);

#endif
