/* Counters of a hierarchy summed per level, and as JSON (the --stats "timing" section). */
#include "timing.h"

#include <string.h>

static void cache_add(tm_cache_stats *a, const tm_cache_stats *b, int sign)
{
    uint64_t *x = (uint64_t *)a;
    const uint64_t *y = (const uint64_t *)b;
    for (size_t i = 0; i < sizeof(*a) / sizeof(uint64_t); i++)   /* all fields are uint64_t */
        x[i] += sign > 0 ? y[i] : -y[i];
}

static void dram_add(tm_dram_stats *a, const tm_dram_stats *b, int sign)
{
    uint64_t *x = (uint64_t *)a;
    const uint64_t *y = (const uint64_t *)b;
    for (size_t i = 0; i < sizeof(*a) / sizeof(uint64_t); i++)
        x[i] += sign > 0 ? y[i] : -y[i];
}

void tm_hier_totals(const tm_hier *h, tm_totals *t)
{
    memset(t, 0, sizeof(*t));
    for (unsigned i = 0; i < tm_hier_l1_count(h); i++)
        cache_add(&t->l1, tm_cache_get_stats(tm_hier_l1(h, i)), 1);
    for (unsigned i = 0; i < tm_hier_l2_slices(h); i++) {
        /* slice s's bank b is L2 bank s * banks + b */
        const tm_cache_stats *s = tm_cache_get_stats(tm_hier_l2(h, i));
        unsigned banks = tm_cache_get_cfg(tm_hier_l2(h, i))->banks;
        tm_cache_stats c = *s;
        memset(c.bank, 0, sizeof(c.bank));
        for (unsigned b = 0; b < banks && i * banks + b < TM_MAX_BANKS; b++)
            c.bank[i * banks + b] = s->bank[b];
        cache_add(&t->l2, &c, 1);
    }
    t->dram = *tm_dram_get_stats(tm_hier_dram(h));
}

void tm_totals_sub(tm_totals *d, const tm_totals *a, const tm_totals *b)
{
    *d = *a;
    cache_add(&d->l1, &b->l1, -1);
    cache_add(&d->l2, &b->l2, -1);
    dram_add(&d->dram, &b->dram, -1);
}

void tm_totals_add(tm_totals *a, const tm_totals *b)
{
    cache_add(&a->l1, &b->l1, 1);
    cache_add(&a->l2, &b->l2, 1);
    dram_add(&a->dram, &b->dram, 1);
}

static void array_json(FILE *f, const uint64_t *v, unsigned n)
{
    fputc('[', f);
    for (unsigned i = 0; i < n; i++)
        fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)v[i]);
    fputc(']', f);
}

static void cache_json(FILE *f, const char *name, const tm_cache_stats *s, unsigned banks)
{
    fprintf(f, "\"%s\": {\"accesses\": %llu, \"reads\": %llu, \"writes\": %llu, \"hits\": %llu, \"misses\": %llu, "
               "\"cold\": %llu, \"capacity\": %llu, \"conflict\": %llu, \"fills\": %llu, \"mshr_merges\": %llu, \"mshr_full\": %llu, "
               "\"writebacks\": %llu, \"write_throughs\": %llu, \"banks\": ",
            name, (unsigned long long)s->accesses, (unsigned long long)s->reads, (unsigned long long)s->writes,
            (unsigned long long)s->hits, (unsigned long long)s->misses, (unsigned long long)s->cold,
            (unsigned long long)s->capacity, (unsigned long long)s->conflict, (unsigned long long)s->fills, (unsigned long long)s->mshr_merges,
            (unsigned long long)s->mshr_full, (unsigned long long)s->writebacks,
            (unsigned long long)s->write_throughs);
    array_json(f, s->bank, banks > TM_MAX_BANKS ? TM_MAX_BANKS : banks);
    fputc('}', f);
}

void tm_totals_json(FILE *f, const tm_totals *t, unsigned l1_banks, unsigned l2_banks, unsigned dram_banks)
{
    const tm_dram_stats *d = &t->dram;
    fputc('{', f);
    cache_json(f, "l1", &t->l1, l1_banks);
    fputs(", ", f);
    cache_json(f, "l2", &t->l2, l2_banks);
    fprintf(f, ", \"dram\": {\"reads\": %llu, \"writes\": %llu, \"row_hits\": %llu, \"row_empty\": %llu, "
               "\"row_conflicts\": %llu, \"bytes\": %llu, \"busy_cycles\": %llu, \"banks\": ",
            (unsigned long long)d->reads, (unsigned long long)d->writes, (unsigned long long)d->row_hits,
            (unsigned long long)d->row_empty, (unsigned long long)d->row_conflicts, (unsigned long long)d->bytes,
            (unsigned long long)d->cycles);
    array_json(f, d->bank, dram_banks > TM_DRAM_MAX_BANKS ? TM_DRAM_MAX_BANKS : dram_banks);
    fputs("}}", f);
}
