/* Bifrost executor: programs, whose clauses are decoded and prepared once, on first execution,
 * and shared by every warp (and host thread) that runs them. */
#include "bifrost_exec_jit.h"

#include <stdio.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Clause table: two levels indexed by offset / 16 (L1: 64 KiB of code per L2 page), entries
 * published with release stores so that warps on other host threads read them lock-free. */
#define PROG_L2_BITS 12
#define PROG_L1_SIZE 256         /* 16 MiB of code */

struct bi_program {
    const uint8_t *code;         /* NULL: fetched through bi_mem */
    size_t len;
    enum bi_arch arch;
    pthread_mutex_t lock;        /* decoding, table growth, re-validation */
    bi_xclause **l1[PROG_L1_SIZE];
    bi_xclause **old;            /* clauses replaced after a change of their bytes (freed last) */
    size_t nold, capold;
    unsigned nclauses;
    uint32_t ndecoded;           /* clauses decoded (bi_xclause.index; atomic) */
    bi_xclause **byindex;        /* [ndecoded] (under lock) */
    uint32_t capindex;
    uint64_t written;            /* registers the decoded clauses may write (atomic) */
    bx_jit_arena *jit;           /* compiled clauses (--gpu-backend jit) */
    bi_xclause *entry;           /* the clause at pc 0 once looked up (atomic; as a clause's next) */
    int jit_failed;              /* a clause failed to compile (logged once) */
    int backend, jit_isa;        /* bi_program_set_backend; -1: the process's choice */
};

static bi_xclause **prog_slot(bi_program *p, uint32_t pc, int create)
{
    uint32_t idx = pc / 16, hi = idx >> PROG_L2_BITS;
    if (hi >= PROG_L1_SIZE)
        return NULL;
    bi_xclause **l2 = __atomic_load_n(&p->l1[hi], __ATOMIC_ACQUIRE);
    if (!l2) {
        if (!create)
            return NULL;
        l2 = calloc((size_t)1 << PROG_L2_BITS, sizeof(*l2));      /* under p->lock */
        if (!l2)
            return NULL;
        __atomic_store_n(&p->l1[hi], l2, __ATOMIC_RELEASE);
    }
    return &l2[idx & ((1u << PROG_L2_BITS) - 1)];
}

static void prog_init(bi_program *p, enum bi_arch arch)
{
    p->arch = arch;
    p->backend = p->jit_isa = -1;
    pthread_mutex_init(&p->lock, NULL);
}

bi_program *bi_program_new(const uint8_t *code, size_t len, enum bi_arch arch)
{
    bi_program *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    prog_init(p, arch);
    p->code = code;
    p->len = len;
    return p;
}

void bi_program_set_backend(bi_program *p, int backend, int jit_isa)
{
    p->backend = backend;
    p->jit_isa = jit_isa;
}

bi_program *bi_program_new_fetch(enum bi_arch arch)
{
    bi_program *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    prog_init(p, arch);
    return p;
}

static void free_xclause(bi_xclause *x)
{
    if (x) {
        free(x->raw);
        free(x);
    }
}

void bi_program_free(bi_program *p)
{
    if (!p)
        return;
    bx_jit_forget(p);
    for (unsigned i = 0; i < PROG_L1_SIZE; i++) {
        if (!p->l1[i])
            continue;
        for (unsigned j = 0; j < (1u << PROG_L2_BITS); j++)
            free_xclause(p->l1[i][j]);
        free(p->l1[i]);
    }
    for (size_t i = 0; i < p->nold; i++)
        free_xclause(p->old[i]);
    free(p->old);
    free(p->byindex);
    bx_jit_arena_free(p->jit);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

enum bi_arch bi_program_arch(const bi_program *p) { return p->arch; }

unsigned bi_program_clauses(bi_program *p)
{
    pthread_mutex_lock(&p->lock);
    unsigned n = p->nclauses;
    pthread_mutex_unlock(&p->lock);
    return n;
}

/* Read the bytes of the clause at pc for a fetched program: up to 512 bytes (the longest clause),
 * stopping at the first page end the fetch callback reports unless more are needed. */
static int fetch_code(const bi_mem *m, uint32_t pc, uint8_t *buf, size_t *len, int more)
{
    size_t have = *len, want = more ? 512 : (have ? have : 512);
    while (have < want) {
        unsigned got = m->fetch(m->ctx, pc + have, buf + have, (unsigned)(want - have));
        if (!got)
            return -1;
        have += got;
        if (!more)
            break;            /* first try: what the first page holds */
    }
    *len = have;
    return 0;
}

/* bi_decode_clause, its failure an invalid-encoding fault */
static int decode(const uint8_t *code, size_t len, uint32_t pc, enum bi_arch arch, bi_clause *c, bi_fault *f)
{
    char msg[sizeof(f->msg)];
    if (bi_decode_clause(code, len, pc, arch, c, msg, sizeof(msg)))
        return bx_fault(f, BI_FAULT_INVALID, pc, "%s", msg);
    return 0;
}

/* Registers clause c may write: its tuples' writes and the staging registers a message may write
 * at its end (at most 4: staging.val). */
static uint64_t clause_writes(const bi_clause *c)
{
    uint64_t m = 0;
    for (unsigned i = 0; i < c->ntuples; i++)
        for (unsigned k = 0; k < c->t[i].nwrites; k++)
            m |= 1ull << (c->t[i].writes[k].reg & 63);
    for (unsigned r = c->hdr[BI_H_SR]; r < c->hdr[BI_H_SR] + 4u && r < 64; r++)
        m |= 1ull << r;
    return m;
}

uint64_t bx_program_written(const bi_program *p) { return __atomic_load_n(&p->written, __ATOMIC_ACQUIRE); }

uint32_t bx_program_decoded(const bi_program *p) { return __atomic_load_n(&p->ndecoded, __ATOMIC_ACQUIRE); }

const bi_xclause *bx_program_by_index(bi_program *p, uint32_t index)
{
    pthread_mutex_lock(&p->lock);
    const bi_xclause *x = index < p->ndecoded ? p->byindex[index] : NULL;
    pthread_mutex_unlock(&p->lock);
    return x;
}

static int decode_new(bi_program *p, const bi_mem *m, uint32_t pc, bi_xclause **out, bi_fault *f)
{
    bi_clause c;
    uint8_t buf[512];
    size_t have = 0;
    const uint8_t *code;
    if (p->code) {
        if (pc >= p->len)
            return bx_fault(f, BI_FAULT_BAD_PC, pc, "bad clause address %#x", pc);
        code = p->code + pc;
        have = p->len - pc;
        if (decode(code, have, pc, p->arch, &c, f))
            return BI_EXEC_FAULT;
    } else {
        if (!m || !m->fetch)
            return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: no code", pc);
        if (fetch_code(m, pc, buf, &have, 0))
            return bx_fault(f, BI_FAULT_FETCH, pc, "instruction fetch fault at clause %#x", pc);
        code = buf;
        if (decode(code, have, pc, p->arch, &c, f)) {
            if (have >= 512)
                return BI_EXEC_FAULT;
            if (fetch_code(m, pc, buf, &have, 1))      /* the clause may continue on the next page */
                return bx_fault(f, BI_FAULT_FETCH, pc, "instruction fetch fault at clause %#x", pc);
            if (decode(code, have, pc, p->arch, &c, f))
                return BI_EXEC_FAULT;
        }
    }
    bi_xclause *x = calloc(1, sizeof(*x));
    if (!x)
        return bx_fault(f, BI_FAULT_HOST, 0, "out of memory");
    /* before any warp can run it (published below): a warp's registers stay within the mask */
    __atomic_fetch_or(&p->written, clause_writes(&c), __ATOMIC_RELEASE);
    int rc = bi_prepare_clause(x, &c, f);
    if (rc) {
        free(x);
        return rc;
    }
    if (!p->code) {
        x->raw = malloc(c.size);
        if (!x->raw) {
            free(x);
            return bx_fault(f, BI_FAULT_HOST, 0, "out of memory");
        }
        memcpy(x->raw, code, c.size);
        x->epoch = m->epoch;
    }
    if (p->ndecoded == p->capindex) {
        uint32_t cap = p->capindex ? 2 * p->capindex : 64;
        bi_xclause **n = realloc(p->byindex, cap * sizeof(*n));
        if (!n) {
            free(x->raw);
            free(x);
            return bx_fault(f, BI_FAULT_HOST, 0, "out of memory");
        }
        p->byindex = n;
        p->capindex = cap;
    }
    x->index = p->ndecoded;
    p->byindex[x->index] = x;
    __atomic_store_n(&p->ndecoded, x->index + 1, __ATOMIC_RELEASE);
    if ((p->backend >= 0 ? (enum bi_backend)p->backend : bi_get_backend()) == BI_BACKEND_JIT) {
        char why[128];
        if (bx_jit_compile(&p->jit, x, p->arch >= BI_ARCH_V7 ? 8 : 4, p->jit_isa, why, sizeof(why)) && !p->jit_failed) {
            p->jit_failed = 1;       /* the clause runs interpreted */
            fprintf(stderr, "gpu: jit: %s; interpreting the clauses that do not compile\n", why);
        }
    }
    *out = x;
    return BI_EXEC_OK;
}

/* The prepared clause at pc, decoding it (or checking its bytes again under a new epoch). */
static int get_clause(bi_program *p, const bi_mem *m, uint32_t pc, bi_xclause **out, bi_fault *f)
{
    bi_xclause **slot = prog_slot(p, pc, 0);
    bi_xclause *x = slot ? __atomic_load_n(slot, __ATOMIC_ACQUIRE) : NULL;
    if (x && (p->code || (m && __atomic_load_n(&x->epoch, __ATOMIC_ACQUIRE) == m->epoch))) {
        *out = x;
        return BI_EXEC_OK;
    }
    int rc = BI_EXEC_OK;
    pthread_mutex_lock(&p->lock);
    slot = prog_slot(p, pc, 1);
    if (!slot) {
        rc = bx_fault(f, BI_FAULT_BAD_PC, pc, "bad clause address %#x", pc);
        goto out;
    }
    x = *slot;
    if (x && !p->code && x->epoch != m->epoch) {
        /* a new job: the clause is used only if its bytes are unchanged */
        uint8_t buf[512];
        size_t have = 0, need = x->c.size;
        int same = m && m->fetch;
        while (same && have < need) {
            unsigned got = m->fetch(m->ctx, pc + have, buf + have, (unsigned)(need - have));
            if (!got) {
                rc = bx_fault(f, BI_FAULT_FETCH, pc, "instruction fetch fault at clause %#x", pc);
                goto out;
            }
            have += got;
        }
        if (same && !memcmp(buf, x->raw, need)) {
            __atomic_store_n(&x->epoch, m->epoch, __ATOMIC_RELEASE);
        } else {
            if (p->nold == p->capold) {
                size_t cap = p->capold ? 2 * p->capold : 16;
                bi_xclause **n = realloc(p->old, cap * sizeof(*n));
                if (!n) {
                    rc = bx_fault(f, BI_FAULT_HOST, 0, "out of memory");
                    goto out;
                }
                p->old = n;
                p->capold = cap;
            }
            p->old[p->nold++] = x;       /* other warps may still hold it */
            __atomic_store_n(slot, NULL, __ATOMIC_RELEASE);
            p->nclauses--;
            x = NULL;
        }
    }
    if (!x) {
        rc = decode_new(p, m, pc, &x, f);
        if (rc)
            goto out;
        __atomic_store_n(slot, x, __ATOMIC_RELEASE);
        p->nclauses++;
    }
    *out = x;
out:
    pthread_mutex_unlock(&p->lock);
    return rc;
}

int bx_program_clause(bi_program *p, const bi_mem *m, uint32_t pc, bi_xclause **out, bi_fault *f)
{
    if (pc % 16 || (p->code && pc >= p->len))
        return bx_fault(f, BI_FAULT_BAD_PC, pc, "bad clause address %#x", pc);
    return get_clause(p, m, pc, out, f);
}

int bx_program_next(bi_program *p, const bi_mem *m, bi_xclause *prev, uint32_t pc, bi_xclause **out, bi_fault *f)
{
    /* a successor is replaced only under a new epoch (get_clause), which the check sees; so is
     * the entry clause, where every warp starts */
    bi_xclause **hint = prev ? &prev->next : pc == 0 ? &p->entry : NULL;
    bi_xclause *s = hint ? __atomic_load_n(hint, __ATOMIC_ACQUIRE) : NULL;
    if (s && s->c.offset == pc && (p->code || (m && __atomic_load_n(&s->epoch, __ATOMIC_ACQUIRE) == m->epoch))) {
        *out = s;
        return BI_EXEC_OK;
    }
    int rc = bx_program_clause(p, m, pc, out, f);
    if (!rc && hint)
        __atomic_store_n(hint, *out, __ATOMIC_RELEASE);
    return rc;
}
