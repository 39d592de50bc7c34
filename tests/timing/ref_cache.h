/* Reference set-associative cache for the timing tests: deliberately plain, slow and different
 * from emu/timing/cache.c (each set is a recency- or arrival-ordered list; tree PLRU keeps one
 * array of bits per tree level; 3C classification by linear search), so the two can check each
 * other on random streams.  RANDOM has no generator here: the reference asks the source it is
 * given for each victim of a full set, and the test gives the model a copy of the same source
 * (tm_cache_set_victim_source), so the two must agree on when a choice is made and what it
 * does.  The model's own generator is checked by its properties instead (test_timing.c). */
#ifndef MALIBU_TESTS_REF_CACHE_H
#define MALIBU_TESTS_REF_CACHE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { REF_LRU, REF_PLRU, REF_FIFO, REF_RANDOM };

typedef struct {
    unsigned sets, assoc, line, policy;
    bool write_back, write_allocate;
    unsigned (*pick)(void *ctx, unsigned assoc);   /* RANDOM: a way below assoc */
    void *pick_ctx;
    /* per set: order[0..n) line numbers (LRU: most recent first; FIFO: newest first); for PLRU
     * and RANDOM, slot[] is the way array (slot i = way i) */
    uint64_t *lines;          /* sets x assoc */
    bool *valid, *dirty;
    uint8_t *tree;            /* PLRU: sets x assoc bits, level-major inside a set */
    uint64_t *seen;
    size_t nseen, cap_seen;
    uint64_t *fa;             /* fully associative LRU list, most recent first */
    size_t nfa;
    uint64_t hits, misses, cold, capacity, conflict, writebacks;
} ref_cache;

static inline void ref_init(ref_cache *r, uint64_t size, unsigned line, unsigned assoc, unsigned policy,
                            unsigned (*pick)(void *ctx, unsigned assoc), void *pick_ctx, bool wb, bool wa)
{
    memset(r, 0, sizeof(*r));
    r->line = line;
    r->assoc = assoc;
    r->sets = (unsigned)(size / line / assoc);
    r->policy = policy;
    r->write_back = wb;
    r->write_allocate = wa;
    r->pick = pick;
    r->pick_ctx = pick_ctx;
    size_t n = (size_t)r->sets * assoc;
    r->lines = calloc(n, sizeof(uint64_t));
    r->valid = calloc(n, sizeof(bool));
    r->dirty = calloc(n, sizeof(bool));
    r->tree = calloc(n, 1);
    r->cap_seen = 1 << 16;
    r->seen = malloc(r->cap_seen * sizeof(uint64_t));
    r->fa = calloc(n, sizeof(uint64_t));
}

static inline void ref_free(ref_cache *r)
{
    free(r->lines), free(r->valid), free(r->dirty), free(r->tree), free(r->seen), free(r->fa);
}

/* move slot i of a set to the front of its order (LRU / FIFO lists) */
static inline void ref_to_front(uint64_t *l, bool *v, bool *d, unsigned i)
{
    uint64_t x = l[i];
    bool vx = v[i], dx = d[i];
    for (unsigned k = i; k > 0; k--)
        l[k] = l[k - 1], v[k] = v[k - 1], d[k] = d[k - 1];
    l[0] = x, v[0] = vx, d[0] = dx;
}

/* PLRU tree of one set: level L has 2^L nodes; node j of level L covers ways
 * [j * assoc / 2^L, (j + 1) * assoc / 2^L); its bit = 1 means "evict from the right half". */
static inline uint8_t *ref_node(ref_cache *r, unsigned set, unsigned level, unsigned j)
{
    return &r->tree[(size_t)set * r->assoc + (1u << level) - 1 + j];
}

static inline void ref_plru_use(ref_cache *r, unsigned set, unsigned way)
{
    unsigned levels = 0;
    while ((1u << levels) < r->assoc)
        levels++;
    for (unsigned L = 0; L < levels; L++) {
        unsigned span = r->assoc >> L, j = way / span;
        bool in_right = (way % span) >= span / 2;
        *ref_node(r, set, L, j) = in_right ? 0 : 1;   /* point away from the used way */
    }
}

static inline unsigned ref_plru_victim(ref_cache *r, unsigned set)
{
    unsigned lo = 0, span = r->assoc, L = 0, j = 0;
    while (span > 1) {
        bool right = *ref_node(r, set, L, j);
        span /= 2;
        if (right)
            lo += span;
        j = 2 * j + right;
        L++;
    }
    return lo;
}

/* returns true on a hit; *wb set when a dirty line was evicted */
static inline bool ref_access(ref_cache *r, uint64_t addr, bool write, bool *wb)
{
    uint64_t ln = addr / r->line;
    unsigned set = (unsigned)(ln % r->sets);
    uint64_t *l = &r->lines[(size_t)set * r->assoc];
    bool *v = &r->valid[(size_t)set * r->assoc], *d = &r->dirty[(size_t)set * r->assoc];
    *wb = false;

    bool cold = true;
    for (size_t i = 0; i < r->nseen; i++)
        if (r->seen[i] == ln)
            cold = false;
    if (cold) {
        if (r->nseen == r->cap_seen)
            r->seen = realloc(r->seen, (r->cap_seen *= 2) * sizeof(uint64_t));
        r->seen[r->nseen++] = ln;
    }
    size_t total = (size_t)r->sets * r->assoc, pos = total;
    for (size_t i = 0; i < r->nfa; i++)
        if (r->fa[i] == ln)
            pos = i;
    bool fa_hit = pos < total;
    if (!fa_hit)
        pos = r->nfa < total ? r->nfa++ : total - 1;
    for (size_t k = pos; k > 0; k--)
        r->fa[k] = r->fa[k - 1];
    r->fa[0] = ln;

    for (unsigned i = 0; i < r->assoc; i++)
        if (v[i] && l[i] == ln) {
            r->hits++;
            if (write && r->write_back)
                d[i] = true;
            if (r->policy == REF_LRU)
                ref_to_front(l, v, d, i);
            else if (r->policy == REF_PLRU)
                ref_plru_use(r, set, i);
            return true;
        }
    r->misses++;
    if (cold)
        r->cold++;
    else if (!fa_hit)
        r->capacity++;
    else
        r->conflict++;
    if (write && !r->write_allocate)
        return false;
    unsigned way = r->assoc;
    if (r->policy == REF_LRU || r->policy == REF_FIFO) {
        /* lists are kept front-packed: invalid slots at the back; the victim is the last slot */
        way = r->assoc - 1;
    } else {
        for (unsigned i = 0; i < r->assoc && way == r->assoc; i++)
            if (!v[i])
                way = i;
        if (way == r->assoc) {
            if (r->policy == REF_PLRU) {
                way = ref_plru_victim(r, set);
            } else {
                way = r->pick(r->pick_ctx, r->assoc) % r->assoc;
            }
        }
    }
    if (v[way] && d[way]) {
        *wb = true;
        r->writebacks++;
    }
    l[way] = ln, v[way] = true, d[way] = write && r->write_back;
    if (r->policy == REF_LRU || r->policy == REF_FIFO)
        ref_to_front(l, v, d, way);
    else if (r->policy == REF_PLRU)
        ref_plru_use(r, set, way);
    return false;
}

#endif
