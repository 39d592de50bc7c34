/* Set-associative cache level: tags, replacement, write policy, MSHRs, 3C miss classification
 * (cache.h). */
#include "cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t tag;             /* line address (addr / line) */
    uint64_t stamp;           /* LRU: last use; FIFO: fill time (access counter) */
    bool valid, dirty;
} way;

/* Open-addressing set of line addresses (never shrinks): the lines seen so far, for cold misses. */
typedef struct {
    uint64_t *slot;           /* line + 1; 0 = empty */
    size_t cap, n;
} line_set;

/* Fully-associative LRU shadow of the same capacity (capacity misses): a hash from line to
 * node, nodes on a recency list. */
typedef struct fa_node {
    uint64_t line;
    struct fa_node *prev, *next, *hnext;
} fa_node;

typedef struct {
    fa_node *nodes, **bucket, *head, *tail, *free;
    size_t nbuckets, cap, used;
} fa_lru;

typedef struct {
    uint64_t line, ready;
} mshr;

struct tm_cache {
    tm_cache_cfg cfg;
    unsigned sets, set_shift, line_shift;
    way *ways;                /* sets x assoc */
    uint8_t *plru;            /* per set: assoc - 1 tree bits */
    uint64_t clock;           /* access counter: LRU / FIFO stamps */
    uint64_t rng;
    tm_victim_fn *victim_fn;  /* TM_RANDOM's installed source, or NULL: rng */
    void *victim_ctx;
    line_set seen;
    fa_lru fa;
    mshr *mshrs;
    unsigned last_mshr;       /* the slot of the latest fill (tm_cache_filled) */
    tm_cache_stats st;
};

static unsigned log2u(uint64_t v)
{
    unsigned n = 0;
    while (v > 1)
        v >>= 1, n++;
    return n;
}

static bool pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

int tm_cache_check(const tm_cache_cfg *cfg, const char *name, char *err, unsigned errlen)
{
    if (!pow2(cfg->line) || cfg->line < 4 || cfg->line > 4096)
        return snprintf(err, errlen, "%s.line %u: a power of two from 4 to 4096 bytes", name, cfg->line), -1;
    if (!cfg->assoc || cfg->assoc > 1024)
        return snprintf(err, errlen, "%s.assoc %u: 1 to 1024 ways", name, cfg->assoc), -1;
    if (!cfg->size || cfg->size > (1ull << 32) || cfg->size % ((uint64_t)cfg->line * cfg->assoc))
        return snprintf(err, errlen, "%s.size %llu: not a multiple of line x assoc (%u x %u) up to 4 GiB", name,
                        (unsigned long long)cfg->size, cfg->line, cfg->assoc), -1;
    uint64_t sets = cfg->size / cfg->line / cfg->assoc;
    if (!pow2(sets))
        return snprintf(err, errlen, "%s: %llu sets (size / line / assoc) is not a power of two", name,
                        (unsigned long long)sets), -1;
    if (cfg->policy == TM_PLRU && !pow2(cfg->assoc))
        return snprintf(err, errlen, "%s.policy plru needs a power-of-two assoc, not %u", name, cfg->assoc), -1;
    if (!cfg->mshrs || cfg->mshrs > 4096)
        return snprintf(err, errlen, "%s.mshrs %u: 1 to 4096", name, cfg->mshrs), -1;
    if (!pow2(cfg->banks) || cfg->banks > TM_MAX_BANKS)
        return snprintf(err, errlen, "%s.banks %u: a power of two up to %u", name, cfg->banks, TM_MAX_BANKS), -1;
    return 0;
}

static uint64_t hash64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

/* true if line was not in the set (and adds it) */
static bool seen_add(line_set *s, uint64_t line)
{
    if (2 * (s->n + 1) > s->cap) {
        size_t ncap = s->cap ? 2 * s->cap : 1024;
        uint64_t *n = calloc(ncap, sizeof(*n));
        if (!n)
            return false;     /* host out of memory: classify as not cold */
        for (size_t i = 0; i < s->cap; i++)
            if (s->slot[i])
                for (size_t j = hash64(s->slot[i] - 1) & (ncap - 1);; j = (j + 1) & (ncap - 1))
                    if (!n[j]) {
                        n[j] = s->slot[i];
                        break;
                    }
        free(s->slot);
        s->slot = n;
        s->cap = ncap;
    }
    for (size_t j = hash64(line) & (s->cap - 1);; j = (j + 1) & (s->cap - 1)) {
        if (s->slot[j] == line + 1)
            return false;
        if (!s->slot[j]) {
            s->slot[j] = line + 1;
            s->n++;
            return true;
        }
    }
}

static int fa_init(fa_lru *f, size_t cap)
{
    f->cap = cap;
    f->nbuckets = 1;
    while (f->nbuckets < 2 * cap)
        f->nbuckets <<= 1;
    f->nodes = calloc(cap, sizeof(*f->nodes));
    f->bucket = calloc(f->nbuckets, sizeof(*f->bucket));
    return f->nodes && f->bucket ? 0 : -1;
}

static void fa_unlink(fa_lru *f, fa_node *n)
{
    if (n->prev) n->prev->next = n->next; else f->head = n->next;
    if (n->next) n->next->prev = n->prev; else f->tail = n->prev;
    n->prev = n->next = NULL;
}

static void fa_push_front(fa_lru *f, fa_node *n)
{
    n->next = f->head;
    n->prev = NULL;
    if (f->head) f->head->prev = n; else f->tail = n;
    f->head = n;
}

/* Access line in the shadow; true on a hit. */
static bool fa_access(fa_lru *f, uint64_t line)
{
    fa_node **b = &f->bucket[hash64(line) & (f->nbuckets - 1)];
    for (fa_node *n = *b; n; n = n->hnext)
        if (n->line == line) {
            fa_unlink(f, n);
            fa_push_front(f, n);
            return true;
        }
    fa_node *n;
    if (f->used < f->cap) {
        n = &f->nodes[f->used++];
    } else {                  /* evict the least recently used line */
        n = f->tail;
        fa_unlink(f, n);
        for (fa_node **p = &f->bucket[hash64(n->line) & (f->nbuckets - 1)]; *p; p = &(*p)->hnext)
            if (*p == n) {
                *p = n->hnext;
                break;
            }
    }
    n->line = line;
    n->hnext = *b;
    *b = n;
    fa_push_front(f, n);
    return false;
}

tm_cache *tm_cache_new(const tm_cache_cfg *cfg, char *err, unsigned errlen)
{
    if (tm_cache_check(cfg, "cache", err, errlen))
        return NULL;
    tm_cache *c = calloc(1, sizeof(*c));
    if (!c)
        return snprintf(err, errlen, "out of memory"), NULL;
    c->cfg = *cfg;
    c->sets = (unsigned)(cfg->size / cfg->line / cfg->assoc);
    c->line_shift = log2u(cfg->line);
    c->set_shift = log2u(c->sets);
    c->ways = calloc((size_t)c->sets * cfg->assoc, sizeof(*c->ways));
    c->plru = calloc((size_t)c->sets * cfg->assoc, 1);
    c->mshrs = calloc(cfg->mshrs, sizeof(*c->mshrs));
    c->rng = cfg->seed ? cfg->seed : 0x9e3779b97f4a7c15ull;
    if (!c->ways || !c->plru || !c->mshrs || fa_init(&c->fa, (size_t)c->sets * cfg->assoc)) {
        tm_cache_free(c);
        return snprintf(err, errlen, "out of memory"), NULL;
    }
    return c;
}

void tm_cache_free(tm_cache *c)
{
    if (!c)
        return;
    free(c->ways);
    free(c->plru);
    free(c->mshrs);
    free(c->seen.slot);
    free(c->fa.nodes);
    free(c->fa.bucket);
    free(c);
}

/* Tree pseudo-LRU: assoc - 1 bits, node i's children 2i+1, 2i+2; a bit points to the half to
 * evict next.  Touching a way points every node on its path away from it. */
static void plru_touch(uint8_t *bits, unsigned assoc, unsigned w)
{
    unsigned node = 0;
    for (unsigned half = assoc / 2; half; half /= 2) {
        unsigned right = (w & half) != 0;
        bits[node] = (uint8_t)!right;
        node = 2 * node + 1 + right;
    }
}

static unsigned plru_victim(const uint8_t *bits, unsigned assoc)
{
    unsigned node = 0, w = 0;
    for (unsigned half = assoc / 2; half; half /= 2) {
        unsigned right = bits[node];
        w |= right ? half : 0;
        node = 2 * node + 1 + right;
    }
    return w;
}

static unsigned victim(tm_cache *c, way *set, uint8_t *bits)
{
    unsigned a = c->cfg.assoc;
    for (unsigned i = 0; i < a; i++)
        if (!set[i].valid)
            return i;
    switch (c->cfg.policy) {
    case TM_PLRU:
        return plru_victim(bits, a);
    case TM_RANDOM:           /* the installed source, else xorshift64 */
        if (c->victim_fn)
            return c->victim_fn(c->victim_ctx, a) % a;
        c->rng ^= c->rng << 13;
        c->rng ^= c->rng >> 7;
        c->rng ^= c->rng << 17;
        return (unsigned)(c->rng % a);
    default: {                /* LRU and FIFO: the oldest stamp */
        unsigned v = 0;
        for (unsigned i = 1; i < a; i++)
            if (set[i].stamp < set[v].stamp)
                v = i;
        return v;
    }
    }
}

/* MSHR holding line's outstanding fill at time now, or NULL */
static mshr *mshr_find(tm_cache *c, uint64_t line, uint64_t now)
{
    for (unsigned i = 0; i < c->cfg.mshrs; i++)
        if (c->mshrs[i].ready > now && c->mshrs[i].line == line)
            return &c->mshrs[i];
    return NULL;
}

tm_result tm_cache_access(tm_cache *c, uint64_t addr, bool write, uint64_t now)
{
    tm_result r = { 0 };
    uint64_t line = addr >> c->line_shift;
    unsigned s = (unsigned)(line & (c->sets - 1));
    way *set = &c->ways[(size_t)s * c->cfg.assoc];
    uint8_t *bits = &c->plru[(size_t)s * c->cfg.assoc];
    bool cold = seen_add(&c->seen, line);
    bool fa_hit = fa_access(&c->fa, line);

    c->clock++;
    c->st.accesses++;
    c->st.reads += !write;
    c->st.writes += write;
    c->st.bank[line & (c->cfg.banks - 1)]++;
    for (unsigned i = 0; i < c->cfg.assoc; i++) {
        if (!set[i].valid || set[i].tag != line)
            continue;
        r.hit = true;
        c->st.hits++;
        if (c->cfg.policy != TM_FIFO)
            set[i].stamp = c->clock;
        if (c->cfg.policy == TM_PLRU)
            plru_touch(bits, c->cfg.assoc, i);
        if (write && c->cfg.write_back)
            set[i].dirty = true;
        else if (write)
            r.write_below = true, c->st.write_throughs++;
        mshr *m = mshr_find(c, line, now);
        if (m) {
            c->st.mshr_merges++;
            r.wait = m->ready - now;
        }
        return r;
    }
    c->st.misses++;
    if (cold)
        c->st.cold++;
    else if (!fa_hit)
        c->st.capacity++;
    else
        c->st.conflict++;
    if (write && !c->cfg.write_allocate) {
        r.write_below = true;
        c->st.write_throughs++;
        return r;
    }
    unsigned v = victim(c, set, bits);
    if (set[v].valid && set[v].dirty) {
        r.evict_dirty = true;
        r.victim = set[v].tag << c->line_shift;
        c->st.writebacks++;
    }
    set[v] = (way){ .tag = line, .stamp = c->clock, .valid = true, .dirty = write && c->cfg.write_back };
    if (c->cfg.policy == TM_PLRU)
        plru_touch(bits, c->cfg.assoc, v);
    if (write && !c->cfg.write_back)
        r.write_below = true, c->st.write_throughs++;
    r.fill = true;
    c->st.fills++;
    /* a free MSHR, or wait for the first one to free up */
    unsigned best = 0;
    for (unsigned i = 0; i < c->cfg.mshrs; i++) {
        if (c->mshrs[i].ready <= now) {
            best = i;
            goto found;
        }
        if (c->mshrs[i].ready < c->mshrs[best].ready)
            best = i;
    }
    r.mshr_wait = true;
    r.wait = c->mshrs[best].ready - now;
    c->st.mshr_full++;
found:
    c->mshrs[best] = (mshr){ .line = line, .ready = now + r.wait };
    c->last_mshr = best;
    return r;
}

void tm_cache_filled(tm_cache *c, uint64_t addr, uint64_t ready)
{
    mshr *m = &c->mshrs[c->last_mshr];
    if (m->line == addr >> c->line_shift && ready > m->ready)
        m->ready = ready;
}

void tm_cache_reset_time(tm_cache *c)
{
    memset(c->mshrs, 0, c->cfg.mshrs * sizeof(*c->mshrs));
}

void tm_cache_set_victim_source(tm_cache *c, tm_victim_fn *fn, void *ctx)
{
    c->victim_fn = fn;
    c->victim_ctx = ctx;
}

const tm_cache_stats *tm_cache_get_stats(const tm_cache *c)
{
    return &c->st;
}

const tm_cache_cfg *tm_cache_get_cfg(const tm_cache *c)
{
    return &c->cfg;
}

void tm_cache_clear_stats(tm_cache *c)
{
    memset(&c->st, 0, sizeof(c->st));
}
