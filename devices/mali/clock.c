/* GPU time: the host clock, the board's clock (guest time when the board gives one), the cycle
 * counter (GPU_CYCLE_COUNT, WRITE_VALUE cycle counter) and the system timestamp (GPU_TIMESTAMP,
 * WRITE_VALUE system timestamp).
 *
 * Both counters move only while cycle counting is on (GPU_COMMAND CYCLE_COUNT_START .. _STOP):
 * the hardware propagates the system timestamp into the GPU with the same enable as the cycle
 * counter, which is why panfrost (1.3+) starts cycle counting around its timestamp query and
 * around jobs submitted with JD_REQ_CYCLE_COUNT (Mesa's timestamp WRITE_VALUE jobs).  While it
 * is off, both read the value they had when it stopped (0 after a reset). */
#include <time.h>

#include "mali_int.h"

uint64_t mali_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Board time for the cycle counter (guest time when the board gives its clock). */
uint64_t mali_board_ns(Mali *m)
{
    return m->clock.now_ns ? m->clock.now_ns(m->clock.opaque) : mali_now_ns();
}

static uint64_t cycle_count_at(Mali *m, uint64_t board_ns)
{
    if (!m->cycle_running)
        return m->cycle_base;
    uint64_t ns = board_ns > m->cycle_start_ns ? board_ns - m->cycle_start_ns : 0;
    return m->cycle_base + (uint64_t)((unsigned __int128)ns * m->model->clock_hz / 1000000000u);
}

uint64_t mali_cycle_count_locked(Mali *m)
{
    return cycle_count_at(m, mali_board_ns(m));
}

/* The cycle counter as a job of chain c sees it.  With --clock icount (mali_set_icount) the
 * board's clock, read from the GPU's thread, is wherever the vCPU happens to be: the job sees
 * the counter at the chain's start + its modelled time so far instead, as reproducible as the
 * chain's publication time (job_manager.c). */
uint64_t mali_job_cycle_count_locked(MaliJobCtx *c)
{
    Mali *m = c->m;
    if (!m->icount)
        return mali_cycle_count_locked(m);
    return cycle_count_at(m, c->s->icount_start_ns + __atomic_load_n(&c->chain_ns, __ATOMIC_RELAXED));
}

uint64_t mali_job_cycle_count(MaliJobCtx *c)
{
    pthread_mutex_lock(&c->m->lock);
    uint64_t v = mali_job_cycle_count_locked(c);
    pthread_mutex_unlock(&c->m->lock);
    return v;
}

uint64_t mali_gpu_cycle_count(Mali *m)
{
    pthread_mutex_lock(&m->lock);
    uint64_t v = mali_cycle_count_locked(m);
    pthread_mutex_unlock(&m->lock);
    return v;
}

/* The board's system counter (the CPU's CNTPCT, ticking at CNTFRQ), or host ns without one. */
uint64_t mali_system_counter(Mali *m)
{
    return m->ts_fn ? m->ts_fn(m->ts_opaque) : mali_now_ns();
}

uint64_t mali_timestamp_locked(Mali *m)
{
    return m->cycle_running ? mali_system_counter(m) : m->ts_stopped;
}

/* A GPU_TIMESTAMP register read: the CPU has now seen the GPU's clock, so the next chain of
 * each slot starts no earlier than its submission (mali_job_timestamp_locked). */
uint64_t mali_timestamp_read_locked(Mali *m)
{
    for (unsigned i = 0; i < JS_NUM; i++)
        m->slot[i].clock_seen = true;
    return mali_timestamp_locked(m);
}

/* The timestamp a job of a chain writes: the time the chain starts on a GPU running at the
 * modelled speed, plus the modelled duration of the chain's work so far (compute jobs,
 * mali_job_progress, mali_job_stall).  The chain starts when the slot's previous chain ended at
 * that speed; or, if the CPU read GPU_TIMESTAMP after the slot's previous submission (or the
 * slot's last reset), at the system counter's value when the driver submitted it
 * (JS_COMMAND_NEXT = START), if that is later.
 *
 * Why not always at the submission: the counter then is guest time the emulated CPU spent
 * between chains at host speed.  rusticl's profiled kernel is three chains (timestamp, kernel,
 * timestamp), each submitted after the previous one's interrupt, so END - START would contain
 * two such gaps, different in every run and with host load (the pointer chase of
 * docs/timing.md read 2.8 to 9.0 ns per load for the same array).  A real GPU's gaps are a few
 * microseconds; here the model counts none of them unless the CPU looked at the GPU's clock in
 * between (rusticl reads it for SUBMIT before the first chain), so no chain starts before a time
 * the CPU saw before submitting it, and timestamps around GPU work differ by exactly its
 * modelled duration.
 *
 * Never later than the system counter (a CPU that sees the job done reads a later time): when
 * the modelled time is ahead of the counter (modelled time reported while a CPU was awake does
 * not move the board clock), the board clock is moved up to it (clock.reach); without that hook
 * the value is clamped to the counter.  Held like GPU_TIMESTAMP while cycle counting is off
 * (always: the value anyway, for the slot's schedule). */
uint64_t mali_job_timestamp_locked(MaliJobCtx *c, bool always)
{
    Mali *m = c->m;
    if (!m->cycle_running && !always)
        return m->ts_stopped;
    uint64_t ns = __atomic_load_n(&c->chain_ns, __ATOMIC_RELAXED);
    uint64_t t = c->ts_base + (uint64_t)((unsigned __int128)ns * m->ts_freq / 1000000000u);
    if (m->icount) /* never ahead of the chain's publication (its start + ns), read by no CPU before */
        return t;
    uint64_t now = mali_system_counter(m);
    if (t > now && m->clock.reach) {
        m->clock.reach(m->clock.opaque,
                       (uint64_t)(((unsigned __int128)t * 1000000000u + m->ts_freq - 1) / m->ts_freq));
        now = mali_system_counter(m);
    }
    return t < now ? t : now;
}

uint64_t mali_job_timestamp(MaliJobCtx *c)
{
    pthread_mutex_lock(&c->m->lock);
    uint64_t v = mali_job_timestamp_locked(c, false);
    pthread_mutex_unlock(&c->m->lock);
    return v;
}

uint64_t mali_gpu_timestamp(Mali *m)
{
    pthread_mutex_lock(&m->lock);
    uint64_t v = mali_timestamp_locked(m);
    pthread_mutex_unlock(&m->lock);
    return v;
}
