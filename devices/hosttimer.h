/* Host timer service: one background thread that calls device callbacks at absolute host times
 * (CLOCK_MONOTONIC, nanoseconds).  Used by the generic timer (deadline -> PPI) and the PL031
 * alarm.  All functions are thread-safe.  Callbacks run on the service thread with no service
 * lock held; they may call ht_timer_mod/del.  A callback can run just after its timer was
 * re-armed or deleted, so it must re-check its condition under the device's own lock. */
#ifndef MALIBU_DEVICES_HOSTTIMER_H
#define MALIBU_DEVICES_HOSTTIMER_H

#include <stdint.h>

#define HT_NEVER UINT64_MAX

typedef struct HostTimer HostTimer;
typedef void (*HostTimerCb)(void *opaque);

uint64_t ht_now_ns(void); /* CLOCK_MONOTONIC in ns */

/* Timers are created on a process-wide service (started on first use). */
HostTimer *ht_timer_new(HostTimerCb cb, void *opaque);
/* Fire once at deadline_ns (ht_now_ns() time base); HT_NEVER disarms. */
void ht_timer_mod(HostTimer *t, uint64_t deadline_ns);
void ht_timer_del(HostTimer *t);  /* disarm */
void ht_timer_free(HostTimer *t); /* disarm and free; waits if its callback is running */

#endif
