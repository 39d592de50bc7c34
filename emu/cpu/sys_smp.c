/* What one vCPU does to the others (see sys_cpu.h, SMP): TLB invalidations of the broadcast
 * (...IS) forms, posted under the machine's xcpu_lock and applied by each target at its next
 * block boundary.  Code-page invalidation posts go through the same lock (sys_code.c). */
#include "sys_cpu.h"

void sys_tlbi_broadcast(SysCPU *s, bool all, uint64_t va)
{
    SysMachine *m = s->mach;
    if (m->ncpu < 2)
        return;
    pthread_mutex_lock(&m->xcpu_lock);
    for (unsigned i = 0; i < m->ncpu; i++) {
        SysCPU *t = m->cpus[i];
        if (!t || t == s)
            continue;
        if (all || t->n_remote_tlbi == SYS_MAX_REMOTE_TLBI)
            t->remote_tlb_all = true;
        else
            t->remote_tlbi_va[t->n_remote_tlbi++] = va;
        t->cpu.exit_request = 1;
    }
    pthread_mutex_unlock(&m->xcpu_lock);
}

void sys_apply_remote(SysCPU *s)
{
    SysMachine *m = s->mach;
    if (m->ncpu < 2)
        return;
    pthread_mutex_lock(&m->xcpu_lock);
    if (s->remote_tlb_all) {
        sys_tlb_flush(s);
        s->n_remote_tlbi_applied++;
    } else {
        for (unsigned i = 0; i < s->n_remote_tlbi; i++)
            sys_tlb_flush_va(s, s->remote_tlbi_va[i]);
        s->n_remote_tlbi_applied += s->n_remote_tlbi;
    }
    s->remote_tlb_all = false;
    s->n_remote_tlbi = 0;
    pthread_mutex_unlock(&m->xcpu_lock);
}
