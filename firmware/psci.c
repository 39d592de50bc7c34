/* PSCI 1.0 firmware calls (see psci.h). */
#include "psci.h"

#include <pthread.h>
#include <stdlib.h>

struct Psci {
    pthread_mutex_t lock;
    unsigned ncpu;
    int state[PSCI_MAX_CPUS]; /* PSCI_AFF_ON / PSCI_AFF_OFF */
    struct { bool pending; uint64_t entry, context; } start[PSCI_MAX_CPUS];
    bool shutdown;
    pthread_cond_t cond;
};

Psci *psci_new(unsigned ncpu)
{
    if (ncpu == 0 || ncpu > PSCI_MAX_CPUS)
        return NULL;
    Psci *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->cond, NULL);
    p->ncpu = ncpu;
    psci_reset(p);
    return p;
}

void psci_free(Psci *p)
{
    if (p) {
        pthread_cond_destroy(&p->cond);
        pthread_mutex_destroy(&p->lock);
        free(p);
    }
}

void psci_reset(Psci *p)
{
    pthread_mutex_lock(&p->lock);
    for (unsigned i = 0; i < PSCI_MAX_CPUS; i++) {
        p->state[i] = i == 0 ? PSCI_AFF_ON : PSCI_AFF_OFF;
        p->start[i].pending = false;
    }
    p->shutdown = false;
    pthread_mutex_unlock(&p->lock);
}

bool psci_wait_start(Psci *p, unsigned cpu, uint64_t *entry, uint64_t *context)
{
    if (cpu >= p->ncpu)
        return false;
    pthread_mutex_lock(&p->lock);
    while (!p->start[cpu].pending && !p->shutdown)
        pthread_cond_wait(&p->cond, &p->lock);
    bool ok = !p->shutdown;
    if (ok) {
        *entry = p->start[cpu].entry;
        *context = p->start[cpu].context;
        p->start[cpu].pending = false;
    }
    pthread_mutex_unlock(&p->lock);
    return ok;
}

void psci_shutdown(Psci *p)
{
    pthread_mutex_lock(&p->lock);
    p->shutdown = true;
    pthread_cond_broadcast(&p->cond);
    pthread_mutex_unlock(&p->lock);
}

int psci_cpu_state(Psci *p, unsigned cpu)
{
    if (cpu >= p->ncpu)
        return PSCI_AFF_OFF;
    pthread_mutex_lock(&p->lock);
    int s = p->state[cpu];
    pthread_mutex_unlock(&p->lock);
    return s;
}

/* Juno-like: two cores in cluster 0, the rest in cluster 1. */
#define CLUSTER0_CPUS 2

uint64_t psci_cpu_mpidr(unsigned cpu)
{
    return cpu < CLUSTER0_CPUS ? cpu : (1u << 8) | (cpu - CLUSTER0_CPUS);
}

int psci_mpidr_cpu(uint64_t mpidr, unsigned ncpu)
{
    mpidr &= 0xFF00FFFFFFull; /* Aff3..Aff0; drop bit 31 (RES1), U, MT */
    for (unsigned i = 0; i < ncpu && i < PSCI_MAX_CPUS; i++)
        if (psci_cpu_mpidr(i) == mpidr)
            return (int)i;
    return -1;
}

static int mpidr_to_cpu(const Psci *p, uint64_t mpidr)
{
    return psci_mpidr_cpu(mpidr, p->ncpu);
}

static bool implemented(uint32_t fn)
{
    switch (fn) {
    case PSCI_VERSION: case PSCI_CPU_SUSPEND: case PSCI_CPU_SUSPEND_64: case PSCI_CPU_OFF: case PSCI_CPU_ON_32: case PSCI_CPU_ON_64:
    case PSCI_AFFINITY_INFO_32: case PSCI_AFFINITY_INFO_64: case PSCI_MIGRATE_INFO_TYPE:
    case PSCI_SYSTEM_OFF: case PSCI_SYSTEM_RESET: case PSCI_FEATURES:
        return true;
    default:
        return false;
    }
}

static int64_t cpu_on(Psci *p, uint64_t mpidr, uint64_t entry, uint64_t context, PsciAction *act)
{
    int target = mpidr_to_cpu(p, mpidr);
    if (target < 0)
        return PSCI_RET_INVALID_PARAMS;
    if (entry & 3)
        return PSCI_RET_INVALID_ADDRESS;
    pthread_mutex_lock(&p->lock);
    int64_t ret = PSCI_RET_SUCCESS;
    if (p->state[target] == PSCI_AFF_ON) {
        ret = PSCI_RET_ALREADY_ON;
    } else {
        p->state[target] = PSCI_AFF_ON;
        p->start[target].pending = true;
        p->start[target].entry = entry;
        p->start[target].context = context;
        pthread_cond_broadcast(&p->cond);
        *act = (PsciAction){ PSCI_ACT_CPU_ON, (unsigned)target, entry, context };
    }
    pthread_mutex_unlock(&p->lock);
    return ret;
}

static int64_t affinity_info(Psci *p, uint64_t mpidr, uint64_t level)
{
    if (level != 0)
        return PSCI_RET_INVALID_PARAMS;
    int target = mpidr_to_cpu(p, mpidr);
    if (target < 0)
        return PSCI_RET_INVALID_PARAMS;
    return psci_cpu_state(p, (unsigned)target);
}

uint64_t psci_call(Psci *p, unsigned cpu, uint64_t x0, uint64_t x1, uint64_t x2, uint64_t x3,
                   PsciAction *act)
{
    *act = (PsciAction){ PSCI_ACT_NONE, cpu, 0, 0 };
    int64_t ret = PSCI_RET_NOT_SUPPORTED;
    uint32_t fn = (uint32_t)x0;
    if ((x0 >> 32) == 0 && !(fn & 0x40000000u)) { /* SMC32 convention: 32-bit arguments */
        x1 = (uint32_t)x1;
        x2 = (uint32_t)x2;
        x3 = (uint32_t)x3;
    }
    if ((x0 >> 32) != 0)
        fn = 0; /* bits [63:32] of the function ID must be zero: unknown function */
    switch (fn) {
    case PSCI_VERSION:
        ret = 0x00010000; /* 1.0 */
        break;
    case PSCI_CPU_SUSPEND:
    case PSCI_CPU_SUSPEND_64:
        if (x1 & ~0x0301FFFFull) {
            ret = PSCI_RET_INVALID_PARAMS;
        } else {
            act->kind = PSCI_ACT_CPU_SUSPEND;
            ret = PSCI_RET_SUCCESS;
        }
        break;
    case PSCI_CPU_OFF:
        pthread_mutex_lock(&p->lock);
        if (cpu < p->ncpu)
            p->state[cpu] = PSCI_AFF_OFF;
        pthread_mutex_unlock(&p->lock);
        act->kind = PSCI_ACT_CPU_OFF;
        ret = PSCI_RET_SUCCESS; /* never seen by the guest */
        break;
    case PSCI_CPU_ON_32:
    case PSCI_CPU_ON_64:
        ret = cpu_on(p, x1, x2, x3, act);
        break;
    case PSCI_AFFINITY_INFO_32:
    case PSCI_AFFINITY_INFO_64:
        ret = affinity_info(p, x1, x2);
        break;
    case PSCI_MIGRATE_INFO_TYPE:
        ret = 2; /* no trusted OS: migration not required */
        break;
    case PSCI_SYSTEM_OFF:
        act->kind = PSCI_ACT_SYSTEM_OFF;
        ret = PSCI_RET_SUCCESS;
        break;
    case PSCI_SYSTEM_RESET:
        act->kind = PSCI_ACT_SYSTEM_RESET;
        ret = PSCI_RET_SUCCESS;
        break;
    case PSCI_FEATURES:
        ret = implemented((uint32_t)x1) && (x1 >> 32) == 0 ? PSCI_RET_SUCCESS
                                                            : PSCI_RET_NOT_SUPPORTED;
        break;
    default:
        break;
    }
    return (uint64_t)ret;
}

/* ---- checkpoint ---------------------------------------------------------------------------- */

void psci_ckpt_save(Psci *p, CkptWriter *w)
{
    uint64_t st[PSCI_MAX_CPUS];
    pthread_mutex_lock(&p->lock);
    for (unsigned i = 0; i < p->ncpu; i++)
        st[i] = (uint64_t)p->state[i];
    pthread_mutex_unlock(&p->lock);
    ckpt_begin(w, "psci", 0, PSCI_CKPT_VERSION);
    ckpt_u64s(w, "state", st, p->ncpu);
    ckpt_end(w);
}

bool psci_ckpt_load(Psci *p, CkptReader *r)
{
    CkptSection *s = ckpt_section(r, "psci", 0, PSCI_CKPT_VERSION);
    uint64_t st[PSCI_MAX_CPUS];
    if (!s || !ckpt_get_u64s(s, "state", st, p->ncpu))
        return false;
    for (unsigned i = 0; i < p->ncpu; i++)
        if (st[i] != PSCI_AFF_ON && st[i] != PSCI_AFF_OFF)
            return ckpt_fail(s, "field 'state': CPU %u is %llu (0 on, 1 off)", i, (unsigned long long)st[i]);
    pthread_mutex_lock(&p->lock);
    for (unsigned i = 0; i < p->ncpu; i++) {
        p->state[i] = (int)st[i];
        p->start[i].pending = false;
    }
    pthread_mutex_unlock(&p->lock);
    return true;
}
