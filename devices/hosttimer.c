/* Host timer service (see hosttimer.h): a list of armed timers scanned by one thread that sleeps
 * on a condition variable until the earliest deadline.  Boards have a handful of timers, so a
 * linear scan is simpler than a heap and fast enough. */
#include "hosttimer.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

struct HostTimer {
    HostTimerCb cb;
    void *opaque;
    uint64_t deadline; /* HT_NEVER when disarmed */
    HostTimer *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond;
static pthread_cond_t idle_cond = PTHREAD_COND_INITIALIZER;
static HostTimer *timers;
static HostTimer *running; /* timer whose callback is executing */
static bool started;

uint64_t ht_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *service(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    for (;;) {
        uint64_t now = ht_now_ns(), next = HT_NEVER;
        HostTimer *due = NULL;
        for (HostTimer *t = timers; t; t = t->next) {
            if (t->deadline <= now) {
                due = t;
                break;
            }
            if (t->deadline < next)
                next = t->deadline;
        }
        if (due) {
            due->deadline = HT_NEVER;
            running = due;
            pthread_mutex_unlock(&lock);
            due->cb(due->opaque);
            pthread_mutex_lock(&lock);
            running = NULL;
            pthread_cond_broadcast(&idle_cond);
            continue;
        }
        if (next == HT_NEVER) {
            pthread_cond_wait(&cond, &lock);
        } else {
            struct timespec ts = { (time_t)(next / 1000000000ull), (long)(next % 1000000000ull) };
            pthread_cond_timedwait(&cond, &lock, &ts);
        }
    }
    return NULL;
}

static void start_locked(void)
{
    if (started)
        return;
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&cond, &ca);
    pthread_condattr_destroy(&ca);
    pthread_t th;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&th, &a, service, NULL) != 0)
        abort();
    pthread_attr_destroy(&a);
    started = true;
}

HostTimer *ht_timer_new(HostTimerCb cb, void *opaque)
{
    HostTimer *t = calloc(1, sizeof *t);
    if (!t)
        abort();
    t->cb = cb;
    t->opaque = opaque;
    t->deadline = HT_NEVER;
    pthread_mutex_lock(&lock);
    start_locked();
    t->next = timers;
    timers = t;
    pthread_mutex_unlock(&lock);
    return t;
}

void ht_timer_mod(HostTimer *t, uint64_t deadline_ns)
{
    pthread_mutex_lock(&lock);
    bool earlier = deadline_ns < t->deadline;
    t->deadline = deadline_ns;
    if (earlier)
        pthread_cond_signal(&cond);
    pthread_mutex_unlock(&lock);
}

void ht_timer_del(HostTimer *t)
{
    ht_timer_mod(t, HT_NEVER);
}

void ht_timer_free(HostTimer *t)
{
    if (!t)
        return;
    pthread_mutex_lock(&lock);
    for (HostTimer **p = &timers; *p; p = &(*p)->next)
        if (*p == t) {
            *p = t->next;
            break;
        }
    while (running == t)
        pthread_cond_wait(&idle_cond, &lock);
    pthread_mutex_unlock(&lock);
    free(t);
}
