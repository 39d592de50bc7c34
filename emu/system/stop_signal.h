/* SIGINT, SIGTERM and SIGHUP as requests to stop the machine in order, so that malibu can still
 * write its --stats report: a thread of its own waits for them (sigwait), so nothing runs in an
 * asynchronous signal handler. */
#ifndef MALIBU_STOP_SIGNAL_H
#define MALIBU_STOP_SIGNAL_H

#include <stdbool.h>

/* Block SIGINT, SIGTERM and SIGHUP in the calling thread -- before any other thread starts, so
 * that every thread inherits the mask -- and start the thread that waits for them.  The first
 * signal calls stop(sig) there: it asks the machine to stop and returns true, or returns false
 * when there is nothing to stop yet (malibu then dies of the signal at once).  A second signal,
 * or no exit within grace_s seconds of the first, ends malibu at once by the signal's default
 * action.  A signal ignored when malibu started (nohup, background jobs) stays ignored.  False
 * if the thread could not be started (the signals are then left as they were). */
bool stop_signal_start(bool (*stop)(int sig), unsigned grace_s);
/* The signal that asked the machine to stop, 0 if none. */
int stop_signal_received(void);
/* "SIGINT", "SIGTERM", "SIGHUP" (else "signal"). */
const char *stop_signal_name(int sig);
/* End malibu as killed by sig (the signal's default action), once the report is written. */
_Noreturn void stop_signal_die(int sig);

#endif
