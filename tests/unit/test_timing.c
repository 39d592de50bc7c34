/* The timing plug-in's models (emu/timing/): the cache against the reference simulator of
 * tests/timing/ref_cache.h on random streams for every policy and write policy (RANDOM with one
 * sequence of victim choices given to both); the model's own RANDOM generator by its properties
 * (victims valid, hits never evict, uniform over the ways, seeded); DRAM latencies
 * against their formulas; the hierarchy's invariants; the pointer-chase method recovering size,
 * line and associativity from the model; the --timing configuration parser. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ref_cache.h"
#include "timing.h"

static char err[256];

static uint64_t xs(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A stream with locality: mostly a sliding window, sometimes far away. */
static uint64_t stream_addr(uint64_t *s, uint64_t span)
{
    static uint64_t base;
    uint64_t r = xs(s);
    if (r % 16 == 0)
        base = xs(s) % (span * 8);
    return (base + xs(s) % span) & ~3ull;
}

/* RANDOM's victim choices for the model and the reference alike: SplitMix64 scaled to the ways
 * by multiply-shift, another generator than the model's own xorshift64 and its modulo */
typedef struct {
    uint64_t state;
    unsigned draws;
} victim_seq;

static unsigned victim_next(void *ctx, unsigned assoc)
{
    victim_seq *v = ctx;
    uint64_t z = (v->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    v->draws++;
    return (unsigned)(((z >> 32) * assoc) >> 32);
}

static void compare(enum tm_policy pol, uint64_t size, unsigned line, unsigned assoc, bool wb, bool wa)
{
    tm_cache_cfg cfg = { .size = size, .line = line, .assoc = assoc, .policy = pol, .seed = 42, .write_back = wb,
                         .write_allocate = wa, .mshrs = 4, .banks = 4, .latency = 1 };
    tm_cache *c = tm_cache_new(&cfg, err, sizeof(err));
    ck_assert_msg(c, "%s", err);
    victim_seq vm = { .state = 42 + size + assoc }, vr = vm;
    tm_cache_set_victim_source(c, victim_next, &vm);
    ref_cache r;
    ref_init(&r, size, line, assoc, (unsigned)pol, victim_next, &vr, wb, wa);
    uint64_t s = 0x1234567 + size + line + assoc + pol;
    for (unsigned i = 0; i < 20000; i++) {
        uint64_t a = stream_addr(&s, size * 2);
        bool w = xs(&s) % 4 == 0, rwb;
        tm_result t = tm_cache_access(c, a, w, 0);
        bool rh = ref_access(&r, a, w, &rwb);
        ck_assert_msg(t.hit == rh, "policy %d size %llu assoc %u access %u at %#llx: model %s, reference %s", pol,
                      (unsigned long long)size, assoc, i, (unsigned long long)a, t.hit ? "hit" : "miss",
                      rh ? "hit" : "miss");
        ck_assert_int_eq(t.evict_dirty, rwb);
        ck_assert_msg(!t.hit || (!t.fill && !t.evict_dirty), "policy %d access %u: a hit filled or evicted", pol, i);
        ck_assert_uint_eq(vm.draws, vr.draws);      /* a choice made at the same accesses */
    }
    /* RANDOM with assoc > 1 made choices; the other policies none */
    if (pol == TM_RANDOM)
        ck_assert_uint_gt(vm.draws, 100);
    else
        ck_assert_uint_eq(vm.draws, 0);
    const tm_cache_stats *st = tm_cache_get_stats(c);
    ck_assert_uint_eq(st->hits, r.hits);
    ck_assert_uint_eq(st->misses, r.misses);
    ck_assert_uint_eq(st->cold, r.cold);
    ck_assert_uint_eq(st->capacity, r.capacity);
    ck_assert_uint_eq(st->conflict, r.conflict);
    ck_assert_uint_eq(st->writebacks, r.writebacks);
    ck_assert_uint_eq(st->hits + st->misses, st->accesses);
    ck_assert_uint_eq(st->cold + st->capacity + st->conflict, st->misses);
    uint64_t banks = 0;
    for (unsigned b = 0; b < 4; b++)
        banks += st->bank[b];
    ck_assert_uint_eq(banks, st->accesses);
    ck_assert_uint_gt(st->capacity, 0);
    ck_assert_uint_gt(st->hits, 0);
    tm_cache_free(c);
    ref_free(&r);
}

START_TEST(test_cache_vs_reference)
{
    static const struct { uint64_t size; unsigned line, assoc; } geo[] = {
        { 1024, 32, 1 }, { 2048, 64, 2 }, { 4096, 64, 4 }, { 8192, 128, 8 }, { 4096, 16, 16 }, { 1024, 64, 16 },
    };
    for (unsigned p = TM_LRU; p <= TM_RANDOM; p++)
        for (unsigned g = 0; g < sizeof(geo) / sizeof(geo[0]); g++)
            for (unsigned wp = 0; wp < 3; wp++)    /* wb+wa, wt+wa, wt+no-allocate */
                compare((enum tm_policy)p, geo[g].size, geo[g].line, geo[g].assoc, wp == 0, wp < 2);
}
END_TEST

/* The model's own RANDOM generator, checked by what it must do rather than by a copy of it.  A
 * write-back cache written on every access reports each victim's line (evict_dirty), so the test
 * follows every set: a victim is a line the set holds, none while the set has an empty way, a
 * hit never fills or evicts, and lines the test knows to be resident hit.  A new line takes its
 * victim's way, so "the slot of the victim" (slots numbered in fill order) is the way up to a
 * fixed relabelling: its distribution must be uniform (chi-square, 7 degrees of freedom), and so
 * must the pairs of consecutive victims of one set (63).  The bounds are the 0.1% points of
 * those distributions, 24.32 and 103.4; the model's figures (printed) are well inside them for
 * every seed tried.  The same seed gives the same choices, another seed others. */
enum { RV_SETS = 8, RV_WAYS = 8, RV_LINE = 64, RV_MISSES = 80000 };

typedef struct {
    uint64_t slot[RV_SETS][RV_WAYS];      /* line held by each slot; 0: empty (lines start at 1) */
    unsigned filled[RV_SETS], last[RV_SETS];
    uint64_t count[RV_WAYS], pairs[RV_WAYS][RV_WAYS];
    uint64_t victims[64];                  /* the first victims' lines: seed comparisons */
    unsigned nvictims;
} rv_follow;

static void random_victims(uint64_t seed, rv_follow *f, double *chi_ways, double *chi_pairs)
{
    tm_cache_cfg cfg = { .size = RV_SETS * RV_WAYS * RV_LINE, .line = RV_LINE, .assoc = RV_WAYS, .policy = TM_RANDOM,
                         .seed = seed, .write_back = true, .write_allocate = true, .mshrs = 4, .banks = 1,
                         .latency = 1 };
    tm_cache *c = tm_cache_new(&cfg, err, sizeof(err));
    ck_assert_msg(c, "%s", err);
    memset(f, 0, sizeof(*f));
    for (unsigned s = 0; s < RV_SETS; s++)
        f->last[s] = RV_WAYS;
    uint64_t next_line = 1, rs = 0x5eed ^ seed, misses = 0;
    while (misses < RV_MISSES) {
        uint64_t line;
        bool resident = false;
        if (xs(&rs) % 4 == 0) {           /* a line the set holds: must hit */
            unsigned s = (unsigned)(xs(&rs) % RV_SETS), k = (unsigned)(xs(&rs) % RV_WAYS);
            line = f->slot[s][k];
            resident = line != 0;
            if (!resident)
                continue;
        } else {
            line = next_line++;
        }
        unsigned s = (unsigned)(line % RV_SETS);
        tm_result t = tm_cache_access(c, line * RV_LINE, true, 0);
        if (resident) {
            ck_assert_msg(t.hit, "line %llu, held by set %u, missed", (unsigned long long)line, s);
            ck_assert_msg(!t.fill && !t.evict_dirty, "a hit on line %llu filled or evicted", (unsigned long long)line);
            continue;
        }
        ck_assert_msg(!t.hit, "line %llu, never accessed, hit", (unsigned long long)line);
        if (f->filled[s] < RV_WAYS) {
            ck_assert_msg(!t.evict_dirty, "set %u evicted with %u of %u ways empty", s, RV_WAYS - f->filled[s],
                          RV_WAYS);
            f->slot[s][f->filled[s]++] = line;
            continue;
        }
        ck_assert_msg(t.evict_dirty, "a miss in full set %u evicted nothing", s);
        unsigned k = 0;
        while (k < RV_WAYS && f->slot[s][k] * RV_LINE != t.victim)
            k++;
        ck_assert_msg(k < RV_WAYS, "victim %#llx is not a line of set %u", (unsigned long long)t.victim, s);
        f->slot[s][k] = line;
        f->count[k]++;
        if (f->last[s] < RV_WAYS)
            f->pairs[f->last[s]][k]++;
        f->last[s] = k;
        if (f->nvictims < 64)
            f->victims[f->nvictims++] = t.victim;
        misses++;
    }
    double e = (double)RV_MISSES / RV_WAYS, x = 0;
    uint64_t npairs = 0;
    for (unsigned k = 0; k < RV_WAYS; k++) {
        x += (f->count[k] - e) * (f->count[k] - e) / e;
        for (unsigned j = 0; j < RV_WAYS; j++)
            npairs += f->pairs[k][j];
    }
    *chi_ways = x;
    double ep = (double)npairs / (RV_WAYS * RV_WAYS);
    x = 0;
    for (unsigned k = 0; k < RV_WAYS; k++)
        for (unsigned j = 0; j < RV_WAYS; j++)
            x += (f->pairs[k][j] - ep) * (f->pairs[k][j] - ep) / ep;
    *chi_pairs = x;
    tm_cache_free(c);
}

START_TEST(test_random_generator)
{
    static rv_follow a, b;
    static const uint64_t seeds[] = { 0, 1, 42, 0xdeadbeef };
    for (unsigned i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
        double cw, cp;
        random_victims(seeds[i], &a, &cw, &cp);
        printf("timing: RANDOM seed %llu: %u victims over %u ways, chi-square %.2f (ways, bound 24.32), "
               "%.2f (consecutive pairs, bound 103.4)\n", (unsigned long long)seeds[i], RV_MISSES, RV_WAYS, cw, cp);
        ck_assert_msg(cw < 24.32, "seed %llu: victims not uniform over the ways: chi-square %.2f",
                      (unsigned long long)seeds[i], cw);
        ck_assert_msg(cp < 103.4, "seed %llu: consecutive victims not independent: chi-square %.2f",
                      (unsigned long long)seeds[i], cp);
    }
    double cw, cp;
    random_victims(42, &a, &cw, &cp);
    random_victims(42, &b, &cw, &cp);
    ck_assert_msg(!memcmp(a.victims, b.victims, sizeof(a.victims)), "seed 42 twice: other victims");
    random_victims(43, &b, &cw, &cp);
    ck_assert_msg(memcmp(a.victims, b.victims, sizeof(a.victims)), "seeds 42 and 43: the same victims");
}
END_TEST

static const tm_dram_cfg dram_cfg = { .channels = 2, .banks = 4, .row = 1024, .burst = 32, .map = TM_MAP_ROW_BANK_CH_COL,
                                      .tCL = 11, .tRCD = 13, .tRP = 17, .tRAS = 30, .tBURST = 4, .overhead = 5,
                                      .mhz = 800 };

START_TEST(test_dram_formulas)
{
    tm_dram *d = tm_dram_new(&dram_cfg, err, sizeof(err));
    ck_assert_msg(d, "%s", err);
    const tm_dram_cfg *c = &dram_cfg;
    /* row-bank-ch-col: row r of bank b on channel ch at ((r * banks + b) * channels + ch) * row */
    uint64_t row0 = 0, row1 = (uint64_t)c->banks * c->channels * c->row;
    ck_assert_uint_eq(tm_dram_access(d, row0, 32, false), c->overhead + c->tRCD + c->tCL + c->tBURST);  /* empty */
    ck_assert_uint_eq(tm_dram_access(d, row0 + 64, 32, false), c->overhead + c->tCL + c->tBURST);       /* hit */
    ck_assert_uint_eq(tm_dram_access(d, row1, 32, false),
                      c->overhead + c->tRP + c->tRCD + c->tCL + c->tBURST);                            /* conflict */
    ck_assert_uint_eq(tm_dram_access(d, row1 + 128, 64, true), c->overhead + c->tCL + 2 * c->tBURST);  /* 2 bursts */
    unsigned ch, bank;
    uint64_t row;
    tm_dram_locate(d, row1 + c->row, &ch, &bank, &row);      /* next row-sized block: the other channel */
    ck_assert_uint_eq(ch, 1);
    ck_assert_uint_eq(bank, 0);
    ck_assert_uint_eq(row, 1);
    const tm_dram_stats *s = tm_dram_get_stats(d);
    ck_assert_uint_eq(s->row_empty, 1);
    ck_assert_uint_eq(s->row_hits, 2);
    ck_assert_uint_eq(s->row_conflicts, 1);
    ck_assert_uint_eq(s->reads, 3);
    ck_assert_uint_eq(s->writes, 1);
    ck_assert_uint_eq(s->bytes, 5 * 32);
    ck_assert_uint_eq(s->bank[0], 4);
    tm_dram_free(d);

    tm_dram_cfg cp = dram_cfg;
    cp.closed_page = true;
    cp.map = TM_MAP_ROW_COL_BANK_CH;
    d = tm_dram_new(&cp, err, sizeof(err));
    for (int i = 0; i < 3; i++)
        ck_assert_uint_eq(tm_dram_access(d, 0, 32, false), c->overhead + c->tRCD + c->tCL + c->tBURST);
    tm_dram_locate(d, 32, &ch, &bank, &row);      /* consecutive bursts rotate over channels */
    ck_assert_uint_eq(ch, 1);
    tm_dram_locate(d, 64, &ch, &bank, &row);
    ck_assert_uint_eq(ch, 0);
    ck_assert_uint_eq(bank, 1);
    tm_dram_free(d);
}
END_TEST

static tm_hier *small_hier(uint64_t l1size, unsigned l1line, unsigned l1assoc, enum tm_policy pol, uint64_t l2size,
                           unsigned slices)
{
    static tm_cache_cfg l1, l2;
    l1 = (tm_cache_cfg){ .size = l1size, .line = l1line, .assoc = l1assoc, .policy = pol, .seed = 7, .mshrs = 4,
                         .banks = 2, .latency = 4 };
    l2 = (tm_cache_cfg){ .size = l2size, .line = 64, .assoc = 8, .policy = TM_LRU, .write_back = true,
                         .write_allocate = true, .mshrs = 8, .banks = 4, .latency = 20 };
    const tm_cache_cfg *l1s[2] = { &l1, &l1 };
    tm_hier *h = tm_hier_new(2, l1s, &l2, slices, &dram_cfg, 400, err, sizeof(err));
    ck_assert_msg(h, "%s", err);
    return h;
}

START_TEST(test_hier_invariants)
{
    tm_hier *h = small_hier(2048, 64, 4, TM_LRU, 16384, 2);
    uint64_t s = 99, now = 0;
    for (unsigned i = 0; i < 50000; i++) {
        tm_access a = tm_hier_access(h, i & 1, stream_addr(&s, 32768), xs(&s) % 3 == 0, now);
        now += a.latency;
    }
    tm_totals t;
    tm_hier_totals(h, &t);
    ck_assert_uint_eq(t.l1.hits + t.l1.misses, t.l1.accesses);
    ck_assert_uint_eq(t.l2.hits + t.l2.misses, t.l2.accesses);
    ck_assert_uint_eq(t.l1.cold + t.l1.capacity + t.l1.conflict, t.l1.misses);
    /* L1 (write-through, no allocate): its fills and every write reach L2 */
    ck_assert_uint_eq(t.l1.write_throughs, t.l1.writes);
    ck_assert_uint_eq(t.l2.accesses, t.l1.fills + t.l1.write_throughs);
    ck_assert_uint_gt(t.l2.writebacks, 0);
    /* L2 misses that allocate are DRAM reads; write-backs are DRAM writes */
    ck_assert_uint_eq(t.dram.reads, t.l2.misses);
    ck_assert_uint_eq(t.l2.fills, t.l2.misses);
    ck_assert_uint_eq(t.dram.writes, t.l2.writebacks);
    ck_assert_uint_eq(t.dram.row_hits + t.dram.row_empty + t.dram.row_conflicts, t.dram.reads + t.dram.writes);
    uint64_t banks = 0;
    for (unsigned b = 0; b < 8; b++)
        banks += t.l2.bank[b];
    ck_assert_uint_eq(banks, t.l2.accesses);
    tm_hier_free(h);
}
END_TEST

/* Pointer chase through an array of `bytes` with `stride`, the microbenchmark method: warm up one
 * pass, then the average latency per access over a few passes. */
static double chase(tm_hier *h, uint64_t bytes, unsigned stride, double *hit_rate)
{
    uint64_t n = bytes / stride, now = 0, total = 0, hits = 0;
    for (uint64_t i = 0; i < n; i++)
        tm_hier_access(h, 0, 0x100000 + i * stride, false, now);
    tm_totals before, after;
    tm_hier_totals(h, &before);
    for (unsigned pass = 0; pass < 4; pass++)
        for (uint64_t i = 0; i < n; i++) {
            tm_access a = tm_hier_access(h, 0, 0x100000 + i * stride, false, now);
            now += a.latency;
            total += a.latency;
            hits += a.level == TM_L1;
        }
    tm_hier_totals(h, &after);
    *hit_rate = (double)hits / (4.0 * n);
    return (double)total / (4.0 * n);
}

START_TEST(test_pointer_chase_recovers_geometry)
{
    static const struct { uint64_t size; unsigned line, assoc; enum tm_policy pol; } geo[] = {
        { 1024, 32, 2, TM_LRU }, { 2048, 64, 4, TM_LRU }, { 4096, 64, 8, TM_PLRU }, { 2048, 32, 4, TM_FIFO },
    };
    for (unsigned g = 0; g < sizeof(geo) / sizeof(geo[0]); g++) {
        unsigned line = geo[g].line;
        /* size: the largest array (in lines) that still hits every time */
        uint64_t knee = 0;
        double hr;
        for (uint64_t bytes = line; bytes <= 4 * geo[g].size; bytes += line) {
            tm_hier *h = small_hier(geo[g].size, line, geo[g].assoc, geo[g].pol, 65536, 1);
            chase(h, bytes, line, &hr);
            tm_hier_free(h);
            if (hr == 1.0)
                knee = bytes;
            else
                break;
        }
        ck_assert_msg(knee == geo[g].size, "geometry %u: knee at %llu bytes, cache %llu", g,
                      (unsigned long long)knee, (unsigned long long)geo[g].size);
        /* LRU: no hits at all from C (1 + 1/W) on (one more line per set than ways) */
        if (geo[g].pol == TM_LRU) {
            tm_hier *h = small_hier(geo[g].size, line, geo[g].assoc, geo[g].pol, 65536, 1);
            chase(h, geo[g].size + geo[g].size / geo[g].assoc, line, &hr);
            ck_assert(hr == 0.0);
            tm_hier_free(h);
            h = small_hier(geo[g].size, line, geo[g].assoc, geo[g].pol, 65536, 1);
            chase(h, geo[g].size + geo[g].size / geo[g].assoc - line, line, &hr);
            ck_assert(hr > 0.0);
            tm_hier_free(h);
        }
        /* line: an array twice the cache, strides below the line share lines (hit rate
         * 1 - stride / line), from the line size on every access misses */
        unsigned found = 0;
        for (unsigned stride = 4; stride <= 512; stride *= 2) {
            tm_hier *h = small_hier(geo[g].size, line, geo[g].assoc, geo[g].pol, 65536, 1);
            chase(h, 8 * geo[g].size, stride, &hr);
            tm_hier_free(h);
            if (hr == 0.0 && !found)
                found = stride;
        }
        ck_assert_uint_eq(found, line);
    }
}
END_TEST

/* The key list of the shell completion (tm_config_key) names only keys the parser knows: each one
 * with a value no key takes is refused for its value, never as an unknown key. */
START_TEST(test_config_keys)
{
    char key[64];
    unsigned n = 0;
    for (unsigned i = 0; tm_config_key(i, key, sizeof(key)); i++, n++) {
        tm_config c = { 0 };
        ck_assert_int_eq(tm_config_preset(&c, NULL, err, sizeof(err)), 0);
        ck_assert_int_eq(tm_config_set(&c, key, "?", err, sizeof(err)), -1);
        ck_assert_msg(!strstr(err, "unknown key"), "key %s: %s", key, err);
    }
    ck_assert_uint_eq(n, 5 + 5 * 10 + 10 + 2);
    /* and a key it does not know is refused as unknown */
    tm_config c = { 0 };
    ck_assert_int_eq(tm_config_set(&c, "gpu.l1.colour", "?", err, sizeof(err)), -1);
    ck_assert_ptr_nonnull(strstr(err, "unknown key"));
}
END_TEST

START_TEST(test_config)
{
    tm_config c = { 0 };
    ck_assert_int_eq(tm_config_parse(&c, "preset=g52,gpu.l1.size=8K,gpu.l1.assoc=2,gpu.l1.policy=random,"
                                         "gpu.l1.seed=5,dram.page=closed,dram.tCL=20,gpu.l2.size=1M",
                                     err, sizeof(err)), 0);
    ck_assert_str_eq(c.preset, "g52");
    ck_assert_uint_eq(c.gpu_l1.size, 8192);
    ck_assert_uint_eq(c.gpu_l1.assoc, 2);
    ck_assert_int_eq(c.gpu_l1.policy, TM_RANDOM);
    ck_assert_uint_eq(c.gpu_l2.size, 1 << 20);
    ck_assert(c.dram.closed_page);
    ck_assert(!c.cpu);
    ck_assert_int_eq(tm_config_parse(&c, "cpu.l1d.size=16K", err, sizeof(err)), 0);
    ck_assert(c.cpu);

    /* refused, with a message naming the problem */
    tm_config d = { 0 };
    ck_assert_int_eq(tm_config_parse(&d, "gpu.l1.sise=8K", err, sizeof(err)), -1);
    ck_assert_ptr_nonnull(strstr(err, "unknown key 'gpu.l1.sise'"));
    ck_assert_int_eq(tm_config_parse(&d, "gpu.l1.size=12K", err, sizeof(err)), -1);   /* 48 sets */
    ck_assert_ptr_nonnull(strstr(err, "power of two"));
    memset(&d, 0, sizeof(d));
    ck_assert_int_eq(tm_config_parse(&d, "gpu.l1.line=48", err, sizeof(err)), -1);
    memset(&d, 0, sizeof(d));
    ck_assert_int_eq(tm_config_parse(&d, "gpu.l1.policy=plru,gpu.l1.assoc=3,gpu.l1.size=12K", err, sizeof(err)), -1);
    memset(&d, 0, sizeof(d));
    ck_assert_int_eq(tm_config_parse(&d, "preset=g99", err, sizeof(err)), -1);
    memset(&d, 0, sizeof(d));
    ck_assert_int_eq(tm_config_parse(&d, "dram.tRAS=1", err, sizeof(err)), -1);
    memset(&d, 0, sizeof(d));
    ck_assert_int_eq(tm_config_parse(&d, "gpu.l1.size=lots", err, sizeof(err)), -1);
    memset(&d, 0, sizeof(d));
    ck_assert_int_eq(tm_config_parse(&d, "gpu.l1.line=128", err, sizeof(err)), -1);  /* longer than L2's */

    /* print -> load gives the same configuration */
    char path[] = "/tmp/test_timing_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "# a comment\n\n");
    tm_config_print(f, &c);
    fclose(f);
    tm_config e = { 0 };
    ck_assert_msg(tm_config_load(&e, path, err, sizeof(err)) == 0, "%s", err);
    ck_assert_mem_eq(&e, &c, sizeof(c));
    f = fopen(path, "w");
    fprintf(f, "gpu.l1.size = 8K\nnonsense\n");
    fclose(f);
    memset(&e, 0, sizeof(e));
    ck_assert_int_eq(tm_config_load(&e, path, err, sizeof(err)), -1);
    ck_assert_ptr_nonnull(strstr(err, ":2:"));
    unlink(path);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("timing");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_cache_vs_reference);
    tcase_add_test(tc, test_random_generator);
    tcase_add_test(tc, test_dram_formulas);
    tcase_add_test(tc, test_hier_invariants);
    tcase_add_test(tc, test_pointer_chase_recovers_geometry);
    tcase_add_test(tc, test_config);
    tcase_add_test(tc, test_config_keys);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
