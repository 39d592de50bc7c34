/* The CPU side of the timing plug-in (--timing with cpu.* keys, docs/timing.md): while a
 * hierarchy is set, every data access to RAM and every executed block's instruction lines go
 * through its caches (vCPU n: L1D = L1 2n, L1I = L1 2n + 1, a shared L2, DRAM).  The cost: the
 * soft TLB keeps no read / write tags (each data access takes the slow path) and blocks do not
 * chain (each returns to the dispatcher, which feeds its lines).  Guest time is unchanged (the
 * vCPUs run at host speed); the counts go to the --stats timing section. */
#ifndef MALIBU_SYS_TIMING_H
#define MALIBU_SYS_TIMING_H

#include <stdbool.h>
#include <stdint.h>

#include "../timing/timing.h"

struct SysCPU;
struct TB;

/* NULL: off (the default).  Set before the vCPUs run; the hierarchy must have 2 x vCPUs L1s. */
void sys_timing_set(tm_hier *h);
extern tm_hier *sys_timing_hier;

void sys_timing_data(struct SysCPU *s, uint64_t pa, unsigned size, bool write);
void sys_timing_fetch(struct SysCPU *s, const struct TB *tb);
/* Counters of the hierarchy (locked against the vCPUs) and the cycles the accesses took. */
void sys_timing_totals(tm_totals *t, uint64_t *cycles);

#endif
