/* The engine's shader cache (program_cache.h). */
#include "program_cache.h"

#include <string.h>

bi_program *program_cache_get(program_cache *pc, uint64_t va, unsigned as, unsigned arch, int *cached)
{
    program_entry *victim = NULL;
    for (unsigned i = 0; i < PROGRAM_CACHE_SIZE; i++) {
        program_entry *c = &pc->e[i];
        if (c->p && !c->stale && c->va == va && c->as == as && c->arch == arch) {
            if (c->in_use)
                break;               /* another job is running it: use a private copy */
            c->in_use = 1;
            c->last_use = ++pc->use_clock;
            *cached = 1;
            pc->reused++;
            return c->p;
        }
        if (!c->in_use && (!victim || !c->p || (victim->p && c->last_use < victim->last_use)))
            victim = c;
    }
    bi_program *p = bi_program_new_fetch(arch == 7 ? BI_ARCH_V7 : BI_ARCH_V6);
    pc->decoded++;
    *cached = 0;
    if (p)
        bi_program_set_backend(p, pc->backend, pc->jit_isa);
    if (!p || !victim)
        return p;
    if (victim->p)
        bi_program_free(victim->p);
    *victim = (program_entry){ .va = va, .as = as, .arch = arch, .p = p, .in_use = 1, .last_use = ++pc->use_clock };
    *cached = 1;
    return p;
}

void program_cache_put(program_cache *pc, bi_program *p, int cached)
{
    if (!cached) {
        bi_program_free(p);
        return;
    }
    for (unsigned i = 0; i < PROGRAM_CACHE_SIZE; i++) {
        program_entry *c = &pc->e[i];
        if (c->p == p) {
            c->in_use = 0;
            if (c->stale) {
                bi_program_free(c->p);
                memset(c, 0, sizeof(*c));
            }
            return;
        }
    }
}

void program_cache_invalidate(program_cache *pc, int as)
{
    for (unsigned i = 0; i < PROGRAM_CACHE_SIZE; i++) {
        program_entry *c = &pc->e[i];
        if (!c->p || (as >= 0 && c->as != (unsigned)as))
            continue;
        if (c->in_use) {
            c->stale = 1;
        } else {
            bi_program_free(c->p);
            memset(c, 0, sizeof(*c));
        }
    }
}

void program_cache_free(program_cache *pc)
{
    for (unsigned i = 0; i < PROGRAM_CACHE_SIZE; i++)
        bi_program_free(pc->e[i].p);
    memset(pc, 0, sizeof(*pc));
}
