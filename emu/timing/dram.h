/* DRAM of the timing plug-in: channels x banks, one row buffer per bank, open- or closed-page
 * policy, latencies from the usual timing parameters (in DRAM clock cycles):
 *   row hit       tCL + tBURST                     (open page, the row is open)
 *   row empty     tRCD + tCL + tBURST              (no open row; every access of closed page)
 *   row conflict  tRP + tRCD + tCL + tBURST        (open page, another row is open)
 * plus `overhead` cycles for every access (controller and interconnect).
 * A latency-only model: requests do not queue behind each other (no bank or bus contention)
 * and carry no time, so there is no activate-to-precharge window to enforce: tRAS is not a
 * --timing key (refused), and the field only keeps the preset's value (checked >= tRCD). */
#ifndef MALIBU_TIMING_DRAM_H
#define MALIBU_TIMING_DRAM_H

#include <stdbool.h>
#include <stdint.h>

/* address mapping, most significant field first (col = byte within the row) */
enum tm_dram_map { TM_MAP_ROW_BANK_CH_COL, TM_MAP_ROW_COL_BANK_CH };

typedef struct tm_dram_cfg {
    unsigned channels, banks;     /* per channel */
    unsigned row;                 /* row (page) size in bytes */
    unsigned burst;               /* bytes one access moves (bandwidth) */
    enum tm_dram_map map;
    bool closed_page;
    unsigned tCL, tRCD, tRP, tRAS, tBURST;
    unsigned overhead;            /* controller + interconnect, every access */
    unsigned mhz;                 /* DRAM command clock */
} tm_dram_cfg;

#define TM_DRAM_MAX_BANKS 256     /* channels x banks */

typedef struct tm_dram_stats {
    uint64_t reads, writes, row_hits, row_empty, row_conflicts, bytes, cycles;
    uint64_t bank[TM_DRAM_MAX_BANKS];
} tm_dram_stats;

typedef struct tm_dram tm_dram;

int tm_dram_check(const tm_dram_cfg *cfg, char *err, unsigned errlen);
tm_dram *tm_dram_new(const tm_dram_cfg *cfg, char *err, unsigned errlen);
void tm_dram_free(tm_dram *d);
/* One access of `bytes` (a cache line) at addr: its latency in DRAM cycles, the formulas above
 * plus tBURST for each further burst the line needs (bytes / burst). */
unsigned tm_dram_access(tm_dram *d, uint64_t addr, unsigned bytes, bool write);
/* Where addr lands (tests, reports). */
void tm_dram_locate(const tm_dram *d, uint64_t addr, unsigned *channel, unsigned *bank, uint64_t *row);
const tm_dram_stats *tm_dram_get_stats(const tm_dram *d);
const tm_dram_cfg *tm_dram_get_cfg(const tm_dram *d);
void tm_dram_clear_stats(tm_dram *d);

#endif
