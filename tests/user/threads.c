/* pthreads: mutex/condvar, TLS, pthread_kill to one thread, pthread_cancel of a blocked thread
 * (guest signal 32), setuid() broadcast to all threads (guest signal 33), join results. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready, total;
static __thread int tls_value;
static volatile int usr1_in_thread;
static pthread_t usr1_target;

static void *adder(void *arg)
{
    tls_value = (int)(long)arg;
    for (int i = 0; i < 1000; i++) {
        pthread_mutex_lock(&mu);
        total += 1;
        pthread_mutex_unlock(&mu);
    }
    return (void *)(long)(tls_value * 10);
}

static void on_usr1(int sig)
{
    (void)sig;
    usr1_in_thread = pthread_equal(pthread_self(), usr1_target) ? 1 : 2;
}

static void *waiter(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&mu);
    ready = 1;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&mu);
    for (;;)
        pause(); /* cancellation point */
    return NULL;
}

int main(void)
{
    pthread_t t[4];
    for (long i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, adder, (void *)(i + 1));
    long sum = 0;
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(t[i], &r);
        sum += (long)r;
    }
    printf("total %d joined sum %ld main tls %d\n", total, sum, tls_value);

    signal(SIGUSR1, on_usr1);
    pthread_t w;
    pthread_create(&w, NULL, waiter, NULL);
    pthread_mutex_lock(&mu);
    while (!ready)
        pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
    usr1_target = w;
    pthread_kill(w, SIGUSR1);
    for (int i = 0; i < 1000 && !usr1_in_thread; i++)
        usleep(1000);
    printf("usr1 handled in target thread: %d\n", usr1_in_thread);

    printf("setuid %d\n", setuid(getuid())); /* signals every thread (SIGSETXID) */
    printf("cancel %d\n", pthread_cancel(w));
    void *r;
    pthread_join(w, &r);
    printf("canceled %d\n", r == PTHREAD_CANCELED);
    return 0;
}
