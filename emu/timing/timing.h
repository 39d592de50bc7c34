/* The timing plug-in (--timing): cache and DRAM models that turn a stream of memory accesses into
 * latencies and counters.  It knows nothing of the GPU or the CPU: each feeds a hierarchy
 * (tm_hier: private L1s, a shared sliced L2, DRAM) with addresses, an L1 index and a time.
 *   cache.[ch]    one set-associative level (replacement, write policy, MSHRs, 3C misses)
 *   dram.[ch]     banks and row buffers
 *   config.c      --timing KEY=VALUE / --timing-config FILE, presets (g71, g52)
 *   hier.c        the hierarchy: latency of an access, counters
 *   report.c      the counters as JSON (the --stats "timing" section) */
#ifndef MALIBU_TIMING_H
#define MALIBU_TIMING_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cache.h"
#include "dram.h"

typedef struct tm_config {
    char preset[16];
    bool gpu, cpu;                    /* which side is modelled (cpu: any cpu.* key was set) */
    tm_cache_cfg gpu_l1, gpu_l2;
    unsigned gpu_l2_slices;           /* L2 slices (line-interleaved), each gpu.l2.size / slices */
    unsigned gpu_mhz;                 /* core clock the latencies are counted in */
    bool gpu_mhz_set;                 /* gpu.mhz given or set by the board (else tm_config_print
                                         leaves it out: the clock of the GPU it is used with) */
    tm_cache_cfg cpu_l1d, cpu_l1i, cpu_l2;
    unsigned cpu_mhz;
    tm_dram_cfg dram;
} tm_config;

/* The defaults of a preset ("g71", "g52"; NULL or "" = g71); -1 for an unknown name. */
int tm_config_preset(tm_config *c, const char *name, char *err, unsigned errlen);
/* One key: "gpu.l1.size" = "16K" ...; -1 with a message for an unknown key or a bad value. */
int tm_config_set(tm_config *c, const char *key, const char *value, char *err, unsigned errlen);
/* "[preset=NAME][,KEY=VALUE...]" onto c (a preset first resets c to it). */
int tm_config_parse(tm_config *c, const char *spec, char *err, unsigned errlen);
/* A file of KEY = VALUE lines ('#' comments, blank lines); the message names the line. */
int tm_config_load(tm_config *c, const char *path, char *err, unsigned errlen);
/* Every enabled level's geometry and the DRAM; 0 or -1 with the reason. */
int tm_config_check(const tm_config *c, char *err, unsigned errlen);
/* The configuration as KEY = VALUE lines (a file tm_config_load reads back). */
void tm_config_print(FILE *f, const tm_config *c);

/* A hierarchy: nl1 private L1s (l1[i] their configurations), one L2 of `slices` slices, DRAM.
 * Latencies in cycles of a core_mhz clock. */
typedef struct tm_hier tm_hier;
tm_hier *tm_hier_new(unsigned nl1, const tm_cache_cfg *const *l1, const tm_cache_cfg *l2, unsigned slices,
                     const tm_dram_cfg *dram, unsigned core_mhz, char *err, unsigned errlen);
void tm_hier_free(tm_hier *h);

/* What one access cost and where it was served. */
enum tm_level { TM_L1 = 1, TM_L2 = 2, TM_DRAM = 3 };
typedef struct tm_access {
    uint64_t latency;                 /* cycles until the data is back (stores: until accepted) */
    enum tm_level level;
} tm_access;

/* Access addr through L1 number l1 at time now (cycles).  Stores are posted: they cost the L1's
 * latency; their traffic (write-through, write-backs, allocation fills) still reaches L2/DRAM. */
tm_access tm_hier_access(tm_hier *h, unsigned l1, uint64_t addr, bool write, uint64_t now);
/* A new job: outstanding fills forgotten (time starts at 0 again); counters kept. */
void tm_hier_reset_time(tm_hier *h);

unsigned tm_hier_l1_count(const tm_hier *h);
const tm_cache *tm_hier_l1(const tm_hier *h, unsigned i);
unsigned tm_hier_l2_slices(const tm_hier *h);
const tm_cache *tm_hier_l2(const tm_hier *h, unsigned slice);
const tm_dram *tm_hier_dram(const tm_hier *h);

/* Counters of every level as one JSON object (report.c); label names the model ("gpu", "cpu"). */
typedef struct tm_totals {
    tm_cache_stats l1, l2;            /* summed over L1s / slices */
    tm_dram_stats dram;
} tm_totals;
void tm_hier_totals(const tm_hier *h, tm_totals *t);
/* d = a - b (counters since a snapshot) */
void tm_totals_sub(tm_totals *d, const tm_totals *a, const tm_totals *b);
void tm_totals_add(tm_totals *a, const tm_totals *b);
void tm_totals_json(FILE *f, const tm_totals *t, unsigned l1_banks, unsigned l2_banks, unsigned dram_banks);

#endif
