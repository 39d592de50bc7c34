/* The CPU's feed of the timing plug-in (sys_timing.h). */
#include "sys_timing.h"

#include <pthread.h>

#include "sys_cpu.h"
#include "tb.h"

tm_hier *sys_timing_hier;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;  /* vCPU threads share the L2 */
static uint64_t cycles;       /* sum of the accesses' latencies (every vCPU) */

void sys_timing_set(tm_hier *h)
{
    sys_timing_hier = h;
}

/* lines [pa, pa + size) through L1 l1 */
static void feed(unsigned l1, uint64_t pa, uint64_t size, bool write)
{
    unsigned line = tm_cache_get_cfg(tm_hier_l1(sys_timing_hier, l1))->line;
    pthread_mutex_lock(&lock);
    for (uint64_t a = pa & ~(uint64_t)(line - 1); a < pa + size; a += line)
        cycles += tm_hier_access(sys_timing_hier, l1, a, write, cycles).latency;
    pthread_mutex_unlock(&lock);
}

void sys_timing_data(SysCPU *s, uint64_t pa, unsigned size, bool write)
{
    unsigned l1 = 2 * s->index;
    if (l1 + 1 < tm_hier_l1_count(sys_timing_hier))
        feed(l1, pa, size ? size : 1, write);
}

void sys_timing_fetch(SysCPU *s, const TB *tb)
{
    unsigned l1 = 2 * s->index + 1;
    uint64_t len = tb->end_pc > tb->pc ? tb->end_pc - tb->pc : 4;
    if (l1 < tm_hier_l1_count(sys_timing_hier) && len <= 4096)
        feed(l1, tb->phys, len, false);
}

void sys_timing_totals(tm_totals *t, uint64_t *c)
{
    pthread_mutex_lock(&lock);
    tm_hier_totals(sys_timing_hier, t);
    *c = cycles;
    pthread_mutex_unlock(&lock);
}
