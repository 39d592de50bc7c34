/* Priority-ordered entry to the shader-core pool (job_gate.h). */
#include "job_gate.h"

void job_gate_init(job_gate *g)
{
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->changed, NULL);
    g->busy = false;
    g->next_ticket = 0;
    g->waiting = NULL;
}

void job_gate_destroy(job_gate *g)
{
    pthread_cond_destroy(&g->changed);
    pthread_mutex_destroy(&g->lock);
}

/* w goes first among the waiters: no other waits with a higher priority, or the same priority
 * and an earlier ticket */
static bool first(const job_gate *g, const job_gate_waiter *w)
{
    for (const job_gate_waiter *o = g->waiting; o; o = o->next)
        if (o != w && (o->priority > w->priority || (o->priority == w->priority && o->ticket < w->ticket)))
            return false;
    return true;
}

void job_gate_enter(job_gate *g, unsigned priority)
{
    pthread_mutex_lock(&g->lock);
    job_gate_waiter me = { .priority = priority, .ticket = g->next_ticket++, .next = g->waiting };
    g->waiting = &me;
    pthread_cond_broadcast(&g->changed);          /* job_gate_waiting() callers */
    while (g->busy || !first(g, &me))
        pthread_cond_wait(&g->changed, &g->lock);
    for (job_gate_waiter **p = &g->waiting; *p; p = &(*p)->next)
        if (*p == &me) {
            *p = me.next;
            break;
        }
    g->busy = true;
    pthread_mutex_unlock(&g->lock);
}

void job_gate_leave(job_gate *g)
{
    pthread_mutex_lock(&g->lock);
    g->busy = false;
    pthread_cond_broadcast(&g->changed);
    pthread_mutex_unlock(&g->lock);
}

unsigned job_gate_waiting(job_gate *g)
{
    pthread_mutex_lock(&g->lock);
    unsigned n = 0;
    for (const job_gate_waiter *o = g->waiting; o; o = o->next)
        n++;
    pthread_mutex_unlock(&g->lock);
    return n;
}
