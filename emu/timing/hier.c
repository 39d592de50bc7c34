/* The memory hierarchy of the timing plug-in: private L1s, a sliced shared L2, DRAM (timing.h). */
#include "timing.h"

#include <stdlib.h>
#include <string.h>

struct tm_hier {
    unsigned nl1, nslices;
    tm_cache **l1, **l2;
    tm_dram *dram;
    unsigned l2_line;
    unsigned core_mhz, dram_mhz;
};

tm_hier *tm_hier_new(unsigned nl1, const tm_cache_cfg *const *l1, const tm_cache_cfg *l2, unsigned slices,
                     const tm_dram_cfg *dram, unsigned core_mhz, char *err, unsigned errlen)
{
    tm_hier *h = calloc(1, sizeof(*h));
    if (!h || !nl1 || !slices || !core_mhz) {
        free(h);
        snprintf(err, errlen, h ? "timing: no L1, no L2 slice or no clock" : "out of memory");
        return NULL;
    }
    h->nl1 = nl1;
    h->nslices = slices;
    h->core_mhz = core_mhz;
    h->dram_mhz = dram->mhz;
    h->l2_line = l2->line;
    h->l1 = calloc(nl1, sizeof(*h->l1));
    h->l2 = calloc(slices, sizeof(*h->l2));
    if (!h->l1 || !h->l2) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    for (unsigned i = 0; i < nl1; i++)
        if (!(h->l1[i] = tm_cache_new(l1[i], err, errlen)))
            goto fail;
    tm_cache_cfg s = *l2;
    s.size /= slices;
    for (unsigned i = 0; i < slices; i++)
        if (!(h->l2[i] = tm_cache_new(&s, err, errlen)))
            goto fail;
    if (!(h->dram = tm_dram_new(dram, err, errlen)))
        goto fail;
    return h;
fail:
    tm_hier_free(h);
    return NULL;
}

void tm_hier_free(tm_hier *h)
{
    if (!h)
        return;
    for (unsigned i = 0; h->l1 && i < h->nl1; i++)
        tm_cache_free(h->l1[i]);
    for (unsigned i = 0; h->l2 && i < h->nslices; i++)
        tm_cache_free(h->l2[i]);
    free(h->l1);
    free(h->l2);
    tm_dram_free(h->dram);
    free(h);
}

/* DRAM cycles -> core cycles, rounded up */
static uint64_t dram_to_core(const tm_hier *h, uint64_t cycles)
{
    return (cycles * h->core_mhz + h->dram_mhz - 1) / h->dram_mhz;
}

/* L2 slices interleave lines: line n goes to slice n % slices, where it is line n / slices (so
 * each slice indexes its sets with all of its lines' bits). */
static tm_cache *slice_of(tm_hier *h, uint64_t addr, uint64_t *local)
{
    uint64_t line = addr / h->l2_line;
    *local = line / h->nslices * h->l2_line;
    return h->l2[line % h->nslices];
}

static tm_result slice_access(tm_hier *h, uint64_t addr, bool write, uint64_t now, tm_cache **c, uint64_t *local)
{
    unsigned slice = (unsigned)(addr / h->l2_line % h->nslices);
    *c = slice_of(h, addr, local);
    tm_result r = tm_cache_access(*c, *local, write, now);
    if (r.evict_dirty)
        r.victim = (r.victim / h->l2_line * h->nslices + slice) * h->l2_line;
    return r;
}

/* A write reaching DRAM (write-back of an L2 victim, or a write-through L2): traffic only. */
static void dram_write(tm_hier *h, uint64_t addr)
{
    tm_dram_access(h->dram, addr, h->l2_line, true);
}

/* A write passed below L1 (posted): L2 takes it, and what L2 then passes on. */
static void l2_write(tm_hier *h, uint64_t addr, uint64_t now)
{
    tm_cache *c;
    uint64_t local;
    tm_result r = slice_access(h, addr, true, now, &c, &local);
    if (r.evict_dirty)
        dram_write(h, r.victim);
    if (r.write_below)
        dram_write(h, addr);
    if (r.fill) {             /* write-allocate: the line is read first (not on the store's path) */
        uint64_t lat = dram_to_core(h, tm_dram_access(h->dram, addr, h->l2_line, false));
        tm_cache_filled(c, local, now + r.wait + tm_cache_get_cfg(c)->latency + lat);
    }
}

/* A line read from L2 (an L1 fill): cycles from now until it is back, and where it came from. */
static uint64_t l2_read(tm_hier *h, uint64_t addr, uint64_t now, enum tm_level *level)
{
    tm_cache *c;
    uint64_t local;
    tm_result r = slice_access(h, addr, false, now, &c, &local);
    uint64_t lat = tm_cache_get_cfg(c)->latency + r.wait;
    *level = TM_L2;
    if (r.evict_dirty)
        dram_write(h, r.victim);
    if (r.fill) {
        lat += dram_to_core(h, tm_dram_access(h->dram, addr, h->l2_line, false));
        *level = TM_DRAM;
        tm_cache_filled(c, local, now + lat);
    }
    return lat;
}

tm_access tm_hier_access(tm_hier *h, unsigned l1, uint64_t addr, bool write, uint64_t now)
{
    tm_cache *c = h->l1[l1 < h->nl1 ? l1 : 0];
    unsigned hit_lat = tm_cache_get_cfg(c)->latency;
    tm_result r = tm_cache_access(c, addr, write, now);
    tm_access a = { .latency = hit_lat + r.wait, .level = TM_L1 };
    if (r.evict_dirty)
        l2_write(h, r.victim, now);
    if (r.write_below)
        l2_write(h, addr, now);
    if (r.fill) {
        enum tm_level lv;
        uint64_t lat = hit_lat + r.wait + l2_read(h, addr, now + r.wait, &lv);
        tm_cache_filled(c, addr, now + lat);
        if (!write) {         /* a store's allocation fill is off its path */
            a.latency = lat;
            a.level = lv;
        }
    }
    if (write)
        a.latency = hit_lat;
    return a;
}

void tm_hier_reset_time(tm_hier *h)
{
    for (unsigned i = 0; i < h->nl1; i++)
        tm_cache_reset_time(h->l1[i]);
    for (unsigned i = 0; i < h->nslices; i++)
        tm_cache_reset_time(h->l2[i]);
}

unsigned tm_hier_l1_count(const tm_hier *h)
{
    return h->nl1;
}

const tm_cache *tm_hier_l1(const tm_hier *h, unsigned i)
{
    return h->l1[i];
}

unsigned tm_hier_l2_slices(const tm_hier *h)
{
    return h->nslices;
}

const tm_cache *tm_hier_l2(const tm_hier *h, unsigned slice)
{
    return h->l2[slice];
}

const tm_dram *tm_hier_dram(const tm_hier *h)
{
    return h->dram;
}
