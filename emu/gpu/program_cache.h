/* The engine's shader cache: decoded programs keyed by (shader VA, address space, arch).  A
 * cached program is reused by a later job only if every clause it decoded reads back
 * byte-identical through that job's address space at the job's start (bi_program_new_fetch's
 * epochs), so rewritten or remapped shader memory is always seen.  Not locked: its owner (the
 * engine) holds its own lock around every call. */
#ifndef MALIBU_GPU_PROGRAM_CACHE_H
#define MALIBU_GPU_PROGRAM_CACHE_H

#include <stdint.h>

#include "bifrost_exec.h"

#define PROGRAM_CACHE_SIZE 32

typedef struct program_entry {
    uint64_t va;
    unsigned as, arch;
    bi_program *p;
    int in_use, stale;
    uint64_t last_use;
} program_entry;

typedef struct program_cache {
    program_entry e[PROGRAM_CACHE_SIZE];
    uint64_t use_clock;
    uint64_t decoded, reused;             /* statistics */
    int backend, jit_isa;                 /* of the programs made (bi_program_set_backend) */
} program_cache;

/* The program at (va, as, arch 6 or 7) for one job, NULL if the host is out of memory.  *cached:
 * whether it is the cache's (else a private copy: another job runs the cached one). */
bi_program *program_cache_get(program_cache *c, uint64_t va, unsigned as, unsigned arch, int *cached);
/* The job is done with p (what program_cache_get returned, with its cached flag). */
void program_cache_put(program_cache *c, bi_program *p, int cached);
/* Drop the programs of address space as (< 0: all) at once (those in use when their job ends). */
void program_cache_invalidate(program_cache *c, int as);
void program_cache_free(program_cache *c);

#endif
