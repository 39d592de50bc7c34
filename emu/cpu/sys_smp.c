/* What one vCPU does to the others (see sys_cpu.h, SMP): TLB invalidations of the broadcast
 * (...IS) forms, posted under the machine's xcpu_lock and applied by each target at its next
 * block boundary; the issuer waits for the targets that run at the same time on other host
 * threads, so that the invalidation is complete when its TLBI (and so its DSB) is.  Code-page
 * invalidation posts go through the same lock (sys_code.c). */
#include "sys_cpu.h"
#include <sched.h>

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
        t->remote_tlbi_posted++;
        t->cpu.exit_request = 1;
    }
    pthread_mutex_unlock(&m->xcpu_lock);
    for (unsigned i = 0; i < m->ncpu; i++) {
        SysCPU *t = m->cpus[i];
        if (!t || t == s)
            continue;
        for (;;) {
            pthread_mutex_lock(&m->xcpu_lock);
            bool done = !t->in_guest || t->remote_tlbi_done == t->remote_tlbi_posted;
            pthread_mutex_unlock(&m->xcpu_lock);
            if (done)
                break;
            sys_apply_remote(s); /* t may be waiting for us the same way */
            sched_yield();
        }
    }
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
    s->remote_tlbi_done = s->remote_tlbi_posted;
    pthread_mutex_unlock(&m->xcpu_lock);
}
