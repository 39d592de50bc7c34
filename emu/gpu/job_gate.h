/* The gate in front of the shader-core pool: one job runs at a time, and jobs waiting for the
 * pool take it by priority (higher first: the job slot's JS_CONFIG thread priority, which
 * panfrost 1.5+ sets per job-manager context), then in the order they arrived.  Hardware lets
 * concurrent chains share the cores with the higher thread priority issued first; with one job
 * on the pool at a time, the nearest equivalent is that a waiting higher-priority job runs
 * before lower-priority ones (a running job is not preempted). */
#ifndef MALIBU_JOB_GATE_H
#define MALIBU_JOB_GATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct job_gate_waiter {
    unsigned priority;
    uint64_t ticket;
    struct job_gate_waiter *next;
} job_gate_waiter;

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    bool busy;
    uint64_t next_ticket;
    job_gate_waiter *waiting;   /* unordered: few job slots */
} job_gate;

void job_gate_init(job_gate *g);
void job_gate_destroy(job_gate *g);
/* Blocks until the pool is free and no waiting job goes before this one. */
void job_gate_enter(job_gate *g, unsigned priority);
void job_gate_leave(job_gate *g);
/* Jobs waiting now (for tests). */
unsigned job_gate_waiting(job_gate *g);

#endif
