/* Stop signals on a waiting thread (see stop_signal.h). */
#include "stop_signal.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static bool (*stop_fn)(int sig);
static unsigned grace;
static sigset_t stop_set;
static int received;

const char *stop_signal_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "signal";
}

int stop_signal_received(void) { return __atomic_load_n(&received, __ATOMIC_ACQUIRE); }

_Noreturn void stop_signal_die(int sig)
{
    sigset_t one;
    signal(sig, SIG_DFL);
    sigemptyset(&one);
    sigaddset(&one, sig);
    pthread_sigmask(SIG_UNBLOCK, &one, NULL);
    raise(sig);                   /* to this thread, where it is now unblocked: default action */
    _exit(128 + sig);
}

static void *waiter(void *arg)
{
    (void)arg;
    int sig;
    if (sigwait(&stop_set, &sig))
        return NULL;
    __atomic_store_n(&received, sig, __ATOMIC_RELEASE);
    if (!stop_fn(sig))
        stop_signal_die(sig);
    struct timespec t = { .tv_sec = grace };
    int again;
    do
        again = sigtimedwait(&stop_set, NULL, &t);
    while (again < 0 && errno == EINTR);
    if (again > 0) {
        fprintf(stderr, "malibu: %s again: exiting at once\n", stop_signal_name(again));
        stop_signal_die(again);
    }
    fprintf(stderr, "malibu: not stopped %u s after %s: exiting at once\n", grace, stop_signal_name(sig));
    stop_signal_die(sig);
}

bool stop_signal_start(bool (*stop)(int sig), unsigned grace_s)
{
    sigset_t old;
    stop_fn = stop;
    grace = grace_s;
    sigemptyset(&stop_set);
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    for (unsigned i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
        struct sigaction sa;
        if (sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
            continue;             /* ignored by whoever started malibu (nohup, a background job) */
        sigaddset(&stop_set, sigs[i]);
    }
    if (pthread_sigmask(SIG_BLOCK, &stop_set, &old))
        return false;
    pthread_t t;
    if (pthread_create(&t, NULL, waiter, NULL)) {
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        return false;
    }
    pthread_detach(t);
    return true;
}
