/* Generic timer: system counter from host time, per-CPU EL1 physical/virtual timers driving GIC
 * PPIs, the WFI sleep/kick helper, and the device-wait clock model (see gtimer.h).
 *
 * Guest time (ns since start) is host time minus the host time skipped while every CPU waited on
 * a busy device, or while a busy device's lead limit held it; during such a wait it is frozen and
 * moves only by gtimer_advance.  Readers (the vCPU's CNTVCT reads) take no lock: a sequence
 * counter guards the clock state. */
#include "gtimer.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include "hosttimer.h"

typedef struct Timer {
    uint32_t ctl; /* ENABLE, IMASK */
    uint64_t cval;
    bool out;
    HostTimer *ht;
    struct GTimer *owner;
    unsigned cpu;
    int which;
} Timer;

typedef struct CpuTimers {
    Timer t[2];
    uint64_t cntvoff;
    bool kicked;
    pthread_mutex_t wlock; /* own lock: kicks come from the GIC callback under the GIC lock */
    pthread_cond_t wake;
} CpuTimers;

struct GTimer {
    pthread_mutex_t lock;
    Gic *gic;
    unsigned ncpu;
    uint64_t start_ns;
    CpuTimers cpu[GIC_MAX_CPUS];
    /* clock state: written under lock inside a seq bump, read lock-free */
    unsigned seq;        /* odd while being written */
    bool frozen;         /* every CPU waits on a busy device: time moves by gtimer_advance */
    uint64_t frozen_ns;  /* guest ns while frozen */
    int64_t skipped_ns;  /* host ns - start - guest ns while running (negative: guest ahead) */
    /* device-wait model (under lock) */
    bool model;          /* gtimer_set_device_clock(t, true) */
    unsigned holds;      /* gtimer_hold balance */
    unsigned idle_cpus;  /* CPUs inside gtimer_wfi / gtimer_wfi_any */
    unsigned offline_cpus; /* CPUs powered off (gtimer_set_cpu_online): idle for the model */
    /* lead limit (gtimer.h GTIMER_DEVICE_LEAD_NS): while held, guest time <= hold_base_ns +
     * hold_advanced_ns + lead; capped once a running clock reached it, until the holds end */
    uint64_t hold_base_ns, hold_advanced_ns;
    bool capped;
    HostTimer *cap_ht;   /* fires when the running clock reaches the limit */
    bool online[GIC_MAX_CPUS];
    /* gtimer_wfi_any: one thread sleeping for several CPUs (own lock, never nested) */
    pthread_mutex_t any_lock;
    pthread_cond_t any_wake;
    uint32_t any_kicked;
    uint64_t n_frozen, n_capped, frozen_host_ns, advanced_ns, froze_at; /* statistics */
    /* --clock icount (gtimer.h): guest ns = warp_ns + (insns() << icount_shift) */
    bool icount;
    unsigned icount_shift;
    GTimerInsnFn icount_insns;
    void *icount_opaque;
    uint64_t warp_ns;    /* atomic: idle time skipped to deadlines */
    uint64_t warps, warped_ns; /* statistics */
    void (*deadline_fn)(void *opaque, uint64_t ns); /* gtimer_set_icount_deadline_hook */
    void *deadline_opaque;
};

static const unsigned timer_ppi[2] = { GIC_PPI_PHYS_TIMER, GIC_PPI_VIRT_TIMER };

static uint64_t ns_to_ticks(uint64_t ns)
{
    return (uint64_t)((unsigned __int128)ns * GTIMER_FREQ_HZ / 1000000000u);
}

/* icount: instructions retired and the idle warps, nothing from the host. */
static uint64_t icount_ns(GTimer *t)
{
    return __atomic_load_n(&t->warp_ns, __ATOMIC_RELAXED) +
           (t->icount_insns(t->icount_opaque) << t->icount_shift);
}

/* Guest ns since start, from any thread without the lock. */
static uint64_t guest_ns(GTimer *t)
{
    if (t->icount)
        return icount_ns(t);
    for (;;) {
        unsigned s1 = __atomic_load_n(&t->seq, __ATOMIC_ACQUIRE);
        if (s1 & 1)
            continue;
        bool frozen = __atomic_load_n(&t->frozen, __ATOMIC_RELAXED);
        uint64_t v = frozen ? __atomic_load_n(&t->frozen_ns, __ATOMIC_RELAXED)
                            : ht_now_ns() - t->start_ns - (uint64_t)__atomic_load_n(&t->skipped_ns, __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (__atomic_load_n(&t->seq, __ATOMIC_RELAXED) == s1)
            return v;
    }
}

static uint64_t count_now(GTimer *t)
{
    return ns_to_ticks(guest_ns(t));
}

/* Offset subtracted from the physical count for this timer's view. */
static uint64_t view_offset(GTimer *t, unsigned cpu, int which)
{
    return which == GT_VIRT ? t->cpu[cpu].cntvoff : 0;
}

/* Host time (ns) at which view count reaches cval; HT_NEVER if beyond any sensible horizon or
 * while the clock is frozen (gtimer_advance re-checks the timers then).  Lock held. */
static uint64_t deadline_ns(GTimer *t, unsigned cpu, int which, uint64_t cval)
{
    uint64_t phys = cval + view_offset(t, cpu, which);
    if ((phys < cval && view_offset(t, cpu, which)) || t->frozen || t->icount)
        /* wrapped, frozen, or icount: the vCPU loop polls gtimer_icount_update instead */
        return HT_NEVER;
    __int128 ns = ((unsigned __int128)phys * 1000000000u + GTIMER_FREQ_HZ - 1) / GTIMER_FREQ_HZ;
    ns += (__int128)t->start_ns + t->skipped_ns;
    return ns >= (__int128)HT_NEVER ? HT_NEVER : ns < 0 ? 0 : (uint64_t)ns;
}

static uint64_t cval_guest_ns(GTimer *t, unsigned cpu, int which, uint64_t cval);

/* Recompute one timer's output and host deadline; lock held. */
static void update_timer(GTimer *t, unsigned cpu, int which)
{
    Timer *tm = &t->cpu[cpu].t[which];
    uint64_t now = count_now(t) - view_offset(t, cpu, which);
    bool istatus = now >= tm->cval;
    bool out = (tm->ctl & GT_CTL_ENABLE) && istatus && !(tm->ctl & GT_CTL_IMASK);
    if (out != tm->out) {
        tm->out = out;
        gic_set_ppi(t->gic, cpu, timer_ppi[which], out);
    }
    bool armed = (tm->ctl & GT_CTL_ENABLE) && !(tm->ctl & GT_CTL_IMASK) && !istatus;
    ht_timer_mod(tm->ht, armed ? deadline_ns(t, cpu, which, tm->cval) : HT_NEVER);
    if (armed && t->icount && t->deadline_fn)
        t->deadline_fn(t->deadline_opaque, cval_guest_ns(t, cpu, which, tm->cval));
}

static void update_all_timers(GTimer *t)
{
    for (unsigned c = 0; c < t->ncpu; c++)
        for (int w = 0; w < 2; w++)
            update_timer(t, c, w);
}

/* Clock state writes (lock held) go between these: readers retry across them. */
static void clock_write_begin(GTimer *t)
{
    __atomic_store_n(&t->seq, t->seq + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
}

static void clock_write_end(GTimer *t)
{
    __atomic_store_n(&t->seq, t->seq + 1, __ATOMIC_RELEASE);
}

/* Guest ns from the clock state; lock held (or inside a write). */
static uint64_t guest_ns_locked(GTimer *t, uint64_t host)
{
    if (t->icount)
        return icount_ns(t);
    return t->frozen ? t->frozen_ns : host - t->start_ns - (uint64_t)t->skipped_ns;
}

/* Arm the lead-limit timer for a running, held clock, else disarm it; lock held. */
static void arm_lead_limit(GTimer *t)
{
    uint64_t deadline = HT_NEVER;
    if (t->model && t->holds > 0 && !t->frozen) {
        __int128 d = (__int128)t->hold_base_ns + t->hold_advanced_ns + GTIMER_DEVICE_LEAD_NS +
                     t->start_ns + t->skipped_ns;
        deadline = d < 0 ? 0 : d >= (__int128)HT_NEVER ? HT_NEVER : (uint64_t)d;
    }
    ht_timer_mod(t->cap_ht, deadline);
}

/* Freeze or unfreeze guest time as the device-wait condition says; lock held. */
static void reevaluate_clock(GTimer *t)
{
    bool want = t->model && t->holds > 0 && (t->capped || t->idle_cpus + t->offline_cpus == t->ncpu);
    if (want == t->frozen) {
        arm_lead_limit(t);
        return;
    }
    clock_write_begin(t);
    uint64_t now = ht_now_ns(); /* after the bump: no reader returns a later running time */
    if (want) {
        __atomic_store_n(&t->frozen_ns, now - t->start_ns - (uint64_t)t->skipped_ns, __ATOMIC_RELAXED);
        t->n_frozen++;
        t->froze_at = now;
    } else {
        __atomic_store_n(&t->skipped_ns, (int64_t)(now - t->start_ns - t->frozen_ns), __ATOMIC_RELAXED);
        t->frozen_host_ns += now - t->froze_at;
    }
    __atomic_store_n(&t->frozen, want, __ATOMIC_RELAXED);
    clock_write_end(t);
    update_all_timers(t); /* frozen: no host deadlines; running: re-arm them */
    arm_lead_limit(t);
}

/* The running clock reached the lead limit of a held clock: stop it there until the device's
 * advances move it or its holds end. */
static void lead_limit_reached(void *opaque)
{
    GTimer *t = opaque;
    pthread_mutex_lock(&t->lock);
    if (t->model && t->holds > 0 && !t->frozen && !t->capped) {
        uint64_t limit = t->hold_base_ns + t->hold_advanced_ns + GTIMER_DEVICE_LEAD_NS;
        if (guest_ns_locked(t, ht_now_ns()) >= limit) {
            t->capped = true;
            t->n_capped++;
        }
    }
    reevaluate_clock(t);
    pthread_mutex_unlock(&t->lock);
}

void gtimer_set_device_clock(GTimer *t, bool on)
{
    pthread_mutex_lock(&t->lock);
    t->model = on && !t->icount; /* icount: devices report their time by deadlines instead */
    reevaluate_clock(t);
    pthread_mutex_unlock(&t->lock);
}

void gtimer_hold(GTimer *t, int delta)
{
    pthread_mutex_lock(&t->lock);
    unsigned before = t->holds;
    if (delta < 0 && t->holds < (unsigned)-delta)
        t->holds = 0; /* unbalanced release: never freeze on a stale hold */
    else
        t->holds += (unsigned)delta;
    if (before == 0 && t->holds > 0) { /* the device starts: its lead is counted from now */
        t->hold_base_ns = guest_ns_locked(t, ht_now_ns());
        t->hold_advanced_ns = 0;
    }
    if (t->holds == 0)
        t->capped = false;
    reevaluate_clock(t);
    pthread_mutex_unlock(&t->lock);
}

void gtimer_advance(GTimer *t, uint64_t ns)
{
    pthread_mutex_lock(&t->lock);
    if (t->holds > 0)
        t->hold_advanced_ns += ns; /* the lead limit moves with the device's modelled time */
    if (t->frozen && ns) {
        clock_write_begin(t);
        __atomic_store_n(&t->frozen_ns, t->frozen_ns + ns, __ATOMIC_RELAXED);
        clock_write_end(t);
        t->advanced_ns += ns;
        update_all_timers(t); /* a timer now due raises its PPI, which wakes the CPU */
    }
    arm_lead_limit(t);
    pthread_mutex_unlock(&t->lock);
}

bool gtimer_advance_frozen(GTimer *t, uint64_t ns)
{
    pthread_mutex_lock(&t->lock);
    bool frozen = t->frozen || !t->model;
    pthread_mutex_unlock(&t->lock);
    if (frozen)
        gtimer_advance(t, ns);
    return frozen;
}

uint64_t gtimer_reach(GTimer *t, uint64_t ns)
{
    pthread_mutex_lock(&t->lock);
    if (t->model && t->frozen && t->frozen_ns < ns) {
        clock_write_begin(t);
        __atomic_store_n(&t->frozen_ns, ns, __ATOMIC_RELAXED);
        clock_write_end(t);
        update_all_timers(t);
    } else if (t->model && !t->frozen) {
        /* running: skip less host time from this instant on (skipped_ns may go negative) */
        uint64_t host = ht_now_ns();
        if (host - t->start_ns - (uint64_t)t->skipped_ns < ns) {
            clock_write_begin(t);
            __atomic_store_n(&t->skipped_ns, (int64_t)(host - t->start_ns - ns), __ATOMIC_RELAXED);
            clock_write_end(t);
            update_all_timers(t);
            arm_lead_limit(t);
        }
    }
    uint64_t now = guest_ns(t);
    pthread_mutex_unlock(&t->lock);
    return now;
}

void gtimer_clock_stats(GTimer *t, GTimerClockStats *st)
{
    pthread_mutex_lock(&t->lock);
    st->model = t->model;
    st->freezes = t->n_frozen;
    st->lead_limits = t->n_capped;
    st->frozen_host_ns = t->frozen_host_ns + (t->frozen ? ht_now_ns() - t->froze_at : 0);
    st->advanced_ns = t->advanced_ns;
    st->icount = t->icount;
    st->icount_warps = t->warps;
    st->icount_warped_ns = t->warped_ns;
    pthread_mutex_unlock(&t->lock);
}

static void timer_fired(void *opaque)
{
    Timer *tm = opaque;
    pthread_mutex_lock(&tm->owner->lock);
    update_timer(tm->owner, tm->cpu, tm->which);
    pthread_mutex_unlock(&tm->owner->lock);
}

GTimer *gtimer_new(Gic *gic, unsigned ncpu)
{
    if (ncpu == 0 || ncpu > GIC_MAX_CPUS)
        return NULL;
    GTimer *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    pthread_mutex_init(&t->lock, NULL);
    t->gic = gic;
    t->ncpu = ncpu;
    t->start_ns = ht_now_ns();
    t->cap_ht = ht_timer_new(lead_limit_reached, t);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&t->any_lock, NULL);
    pthread_cond_init(&t->any_wake, &ca);
    for (unsigned c = 0; c < ncpu; c++) {
        t->online[c] = true;
        pthread_mutex_init(&t->cpu[c].wlock, NULL);
        pthread_cond_init(&t->cpu[c].wake, &ca);
        for (int w = 0; w < 2; w++) {
            Timer *tm = &t->cpu[c].t[w];
            tm->owner = t;
            tm->cpu = c;
            tm->which = w;
            tm->ht = ht_timer_new(timer_fired, tm);
        }
    }
    pthread_condattr_destroy(&ca);
    return t;
}

void gtimer_free(GTimer *t)
{
    if (!t)
        return;
    ht_timer_free(t->cap_ht);
    for (unsigned c = 0; c < t->ncpu; c++) {
        for (int w = 0; w < 2; w++)
            ht_timer_free(t->cpu[c].t[w].ht);
        pthread_cond_destroy(&t->cpu[c].wake);
        pthread_mutex_destroy(&t->cpu[c].wlock);
    }
    pthread_cond_destroy(&t->any_wake);
    pthread_mutex_destroy(&t->any_lock);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

static bool valid(GTimer *t, unsigned cpu, int which)
{
    return cpu < t->ncpu && (which == GT_PHYS || which == GT_VIRT);
}

void gtimer_reset_cpu(GTimer *t, unsigned cpu)
{
    if (cpu >= t->ncpu)
        return;
    pthread_mutex_lock(&t->lock);
    for (int w = 0; w < 2; w++) {
        t->cpu[cpu].t[w].ctl = 0;
        update_timer(t, cpu, w);
    }
    pthread_mutex_unlock(&t->lock);
}

uint64_t gtimer_freq(GTimer *t)
{
    (void)t;
    return GTIMER_FREQ_HZ;
}

uint64_t gtimer_now_ns(GTimer *t)
{
    return guest_ns(t);
}

uint64_t gtimer_count(GTimer *t)
{
    return count_now(t);
}

uint64_t gtimer_vcount(GTimer *t, unsigned cpu)
{
    return count_now(t) - (cpu < t->ncpu ? t->cpu[cpu].cntvoff : 0);
}

void gtimer_set_cntvoff(GTimer *t, unsigned cpu, uint64_t off)
{
    if (cpu >= t->ncpu)
        return;
    pthread_mutex_lock(&t->lock);
    t->cpu[cpu].cntvoff = off;
    update_timer(t, cpu, GT_VIRT);
    pthread_mutex_unlock(&t->lock);
}

uint32_t gtimer_read_ctl(GTimer *t, unsigned cpu, int which)
{
    if (!valid(t, cpu, which))
        return 0;
    pthread_mutex_lock(&t->lock);
    Timer *tm = &t->cpu[cpu].t[which];
    uint32_t v = tm->ctl;
    if (count_now(t) - view_offset(t, cpu, which) >= tm->cval)
        v |= GT_CTL_ISTATUS;
    pthread_mutex_unlock(&t->lock);
    return v;
}

void gtimer_write_ctl(GTimer *t, unsigned cpu, int which, uint64_t val)
{
    if (!valid(t, cpu, which))
        return;
    pthread_mutex_lock(&t->lock);
    t->cpu[cpu].t[which].ctl = (uint32_t)val & (GT_CTL_ENABLE | GT_CTL_IMASK);
    update_timer(t, cpu, which);
    pthread_mutex_unlock(&t->lock);
}

uint64_t gtimer_read_cval(GTimer *t, unsigned cpu, int which)
{
    if (!valid(t, cpu, which))
        return 0;
    pthread_mutex_lock(&t->lock);
    uint64_t v = t->cpu[cpu].t[which].cval;
    pthread_mutex_unlock(&t->lock);
    return v;
}

void gtimer_write_cval(GTimer *t, unsigned cpu, int which, uint64_t val)
{
    if (!valid(t, cpu, which))
        return;
    pthread_mutex_lock(&t->lock);
    t->cpu[cpu].t[which].cval = val;
    update_timer(t, cpu, which);
    pthread_mutex_unlock(&t->lock);
}

uint32_t gtimer_read_tval(GTimer *t, unsigned cpu, int which)
{
    if (!valid(t, cpu, which))
        return 0;
    pthread_mutex_lock(&t->lock);
    uint64_t now = count_now(t) - view_offset(t, cpu, which);
    uint32_t v = (uint32_t)(t->cpu[cpu].t[which].cval - now);
    pthread_mutex_unlock(&t->lock);
    return v;
}

void gtimer_write_tval(GTimer *t, unsigned cpu, int which, uint64_t val)
{
    if (!valid(t, cpu, which))
        return;
    pthread_mutex_lock(&t->lock);
    uint64_t now = count_now(t) - view_offset(t, cpu, which);
    t->cpu[cpu].t[which].cval = now + (uint64_t)(int64_t)(int32_t)(uint32_t)val;
    update_timer(t, cpu, which);
    pthread_mutex_unlock(&t->lock);
}

void gtimer_wfi(GTimer *t, unsigned cpu, uint64_t max_ns)
{
    if (cpu >= t->ncpu)
        return;
    CpuTimers *c = &t->cpu[cpu];
    pthread_mutex_lock(&t->lock); /* not nested in wlock: kicks come under t->lock */
    t->idle_cpus++;
    reevaluate_clock(t);
    pthread_mutex_unlock(&t->lock);
    pthread_mutex_lock(&c->wlock);
    if (!c->kicked) {
        if (max_ns) {
            uint64_t d = ht_now_ns() + max_ns;
            struct timespec ts = { (time_t)(d / 1000000000ull), (long)(d % 1000000000ull) };
            while (!c->kicked && pthread_cond_timedwait(&c->wake, &c->wlock, &ts) == 0)
                ;
        } else {
            while (!c->kicked)
                pthread_cond_wait(&c->wake, &c->wlock);
        }
    }
    c->kicked = false;
    pthread_mutex_unlock(&c->wlock);
    pthread_mutex_lock(&t->lock);
    t->idle_cpus--;
    reevaluate_clock(t);
    pthread_mutex_unlock(&t->lock);
}

void gtimer_kick(GTimer *t, unsigned cpu)
{
    if (cpu >= t->ncpu)
        return;
    CpuTimers *c = &t->cpu[cpu];
    pthread_mutex_lock(&c->wlock);
    c->kicked = true;
    pthread_cond_signal(&c->wake);
    pthread_mutex_unlock(&c->wlock);
    pthread_mutex_lock(&t->any_lock);
    t->any_kicked |= 1u << cpu;
    pthread_cond_signal(&t->any_wake);
    pthread_mutex_unlock(&t->any_lock);
}

uint32_t gtimer_wfi_any(GTimer *t, uint32_t mask, uint64_t max_ns)
{
    mask &= (1u << t->ncpu) - 1;
    unsigned n = (unsigned)__builtin_popcount(mask);
    pthread_mutex_lock(&t->lock);
    t->idle_cpus += n;
    reevaluate_clock(t);
    pthread_mutex_unlock(&t->lock);
    pthread_mutex_lock(&t->any_lock);
    if (!(t->any_kicked & mask)) {
        if (max_ns) {
            uint64_t d = ht_now_ns() + max_ns;
            struct timespec ts = { (time_t)(d / 1000000000ull), (long)(d % 1000000000ull) };
            while (!(t->any_kicked & mask) && pthread_cond_timedwait(&t->any_wake, &t->any_lock, &ts) == 0)
                ;
        } else {
            while (!(t->any_kicked & mask))
                pthread_cond_wait(&t->any_wake, &t->any_lock);
        }
    }
    uint32_t kicked = t->any_kicked & mask;
    t->any_kicked &= ~mask;
    pthread_mutex_unlock(&t->any_lock);
    pthread_mutex_lock(&t->lock);
    t->idle_cpus -= n;
    reevaluate_clock(t);
    pthread_mutex_unlock(&t->lock);
    return kicked;
}

void gtimer_set_cpu_online(GTimer *t, unsigned cpu, bool on)
{
    if (cpu >= t->ncpu)
        return;
    pthread_mutex_lock(&t->lock);
    if (t->online[cpu] != on) {
        t->online[cpu] = on;
        if (on)
            t->offline_cpus--;
        else
            t->offline_cpus++;
        reevaluate_clock(t);
    }
    pthread_mutex_unlock(&t->lock);
}

/* ---- --clock icount ------------------------------------------------------------------------ */

void gtimer_set_icount(GTimer *t, unsigned shift, GTimerInsnFn insns, void *opaque)
{
    pthread_mutex_lock(&t->lock);
    t->icount_shift = shift;
    t->icount_insns = insns;
    t->icount_opaque = opaque;
    t->warp_ns = t->warps = t->warped_ns = 0;
    t->model = false; /* nothing freezes, holds and advances do nothing, no lead limit */
    t->holds = 0;
    t->capped = false;
    clock_write_begin(t);
    __atomic_store_n(&t->icount, true, __ATOMIC_RELAXED);
    clock_write_end(t);
    update_all_timers(t); /* drops the host deadlines: from now on the vCPU loop polls */
    arm_lead_limit(t);
    pthread_mutex_unlock(&t->lock);
}

void gtimer_set_icount_deadline_hook(GTimer *t, void (*fn)(void *opaque, uint64_t ns), void *opaque)
{
    pthread_mutex_lock(&t->lock);
    t->deadline_fn = fn;
    t->deadline_opaque = opaque;
    pthread_mutex_unlock(&t->lock);
}

bool gtimer_icount(GTimer *t)
{
    return t->icount;
}

uint64_t gtimer_icount_shift(GTimer *t)
{
    return t->icount_shift;
}

/* Guest ns at which the view count of a timer reaches cval (UINT64_MAX past the horizon). */
static uint64_t cval_guest_ns(GTimer *t, unsigned cpu, int which, uint64_t cval)
{
    uint64_t off = view_offset(t, cpu, which), phys = cval + off;
    if (phys < cval && off)
        return UINT64_MAX;
    unsigned __int128 ns = ((unsigned __int128)phys * 1000000000u + GTIMER_FREQ_HZ - 1) / GTIMER_FREQ_HZ;
    return ns >= UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

uint64_t gtimer_icount_next_ns(GTimer *t)
{
    uint64_t next = UINT64_MAX;
    pthread_mutex_lock(&t->lock);
    uint64_t now = count_now(t);
    for (unsigned c = 0; c < t->ncpu; c++)
        for (int w = 0; w < 2; w++) {
            const Timer *tm = &t->cpu[c].t[w];
            bool armed = (tm->ctl & GT_CTL_ENABLE) && !(tm->ctl & GT_CTL_IMASK) &&
                         now - view_offset(t, c, w) < tm->cval;
            uint64_t ns = armed ? cval_guest_ns(t, c, w, tm->cval) : UINT64_MAX;
            if (ns < next)
                next = ns;
        }
    pthread_mutex_unlock(&t->lock);
    return next;
}

void gtimer_icount_update(GTimer *t)
{
    pthread_mutex_lock(&t->lock);
    update_all_timers(t);
    pthread_mutex_unlock(&t->lock);
}

uint64_t gtimer_icount_warp(GTimer *t, uint64_t ns)
{
    pthread_mutex_lock(&t->lock);
    uint64_t now = icount_ns(t);
    if (ns > now) {
        __atomic_store_n(&t->warp_ns, t->warp_ns + (ns - now), __ATOMIC_RELAXED);
        t->warps++;
        t->warped_ns += ns - now;
        update_all_timers(t); /* the timer due now raises its PPI */
        now = ns;
    }
    pthread_mutex_unlock(&t->lock);
    return now;
}

uint64_t gtimer_icount_insns_until(GTimer *t, uint64_t ns)
{
    uint64_t now = icount_ns(t);
    if (ns <= now)
        return 0;
    uint64_t d = ns - now, unit = 1ull << t->icount_shift;
    return d / unit + (d % unit != 0);
}

/* ---- checkpoint ---------------------------------------------------------------------------- */

void gtimer_ckpt_save(GTimer *t, CkptWriter *w)
{
    pthread_mutex_lock(&t->lock);
    uint64_t ctl[2 * GIC_MAX_CPUS], cval[2 * GIC_MAX_CPUS], voff[GIC_MAX_CPUS];
    for (unsigned c = 0; c < t->ncpu; c++) {
        for (int k = 0; k < 2; k++) {
            ctl[2 * c + k] = t->cpu[c].t[k].ctl;
            cval[2 * c + k] = t->cpu[c].t[k].cval;
        }
        voff[c] = t->cpu[c].cntvoff;
    }
    ckpt_begin(w, "gtimer", 0, GTIMER_CKPT_VERSION);
    ckpt_u64(w, "ncpu", t->ncpu);
    /* guest time itself: a loaded board goes on from here, whatever its clock (host or icount) */
    ckpt_u64(w, "guest_ns", guest_ns_locked(t, ht_now_ns()));
    ckpt_u64s(w, "ctl", ctl, 2 * t->ncpu);   /* [cpu][phys, virt] */
    ckpt_u64s(w, "cval", cval, 2 * t->ncpu);
    ckpt_u64s(w, "cntvoff", voff, t->ncpu);
    ckpt_end(w);
    pthread_mutex_unlock(&t->lock);
}

bool gtimer_ckpt_load(GTimer *t, CkptReader *r)
{
    CkptSection *s = ckpt_section(r, "gtimer", 0, GTIMER_CKPT_VERSION);
    if (!s)
        return false;
    uint64_t ncpu, ns, ctl[2 * GIC_MAX_CPUS], cval[2 * GIC_MAX_CPUS], voff[GIC_MAX_CPUS];
    ckpt_get_u64(s, "ncpu", &ncpu, GIC_MAX_CPUS);
    /* below 2^62 ns (146 years): the host-clock offsets below stay in range */
    ckpt_get_u64(s, "guest_ns", &ns, 1ull << 62);
    if (ckpt_ok(r) && ncpu != t->ncpu)
        return ckpt_fail(s, "field 'ncpu': saved with %u CPUs' timers, this board has %u", (unsigned)ncpu, t->ncpu);
    ckpt_get_u64s(s, "ctl", ctl, 2 * t->ncpu);
    ckpt_get_u64s(s, "cval", cval, 2 * t->ncpu);
    ckpt_get_u64s(s, "cntvoff", voff, t->ncpu);
    if (!ckpt_ok(r))
        return false;
    for (unsigned i = 0; i < 2 * t->ncpu; i++)
        if (ctl[i] & ~(uint64_t)(GT_CTL_ENABLE | GT_CTL_IMASK))
            return ckpt_fail(s, "field 'ctl': CPU %u's %s timer has 0x%llx (ENABLE and IMASK only)", i / 2,
                             i % 2 ? "virtual" : "physical", (unsigned long long)ctl[i]);
    pthread_mutex_lock(&t->lock);
    clock_write_begin(t);
    if (t->icount) {
        /* guest ns = warp_ns + insns << shift: the instructions the loop counts from here on */
        uint64_t insns_ns = t->icount_insns(t->icount_opaque) << t->icount_shift;
        __atomic_store_n(&t->warp_ns, ns > insns_ns ? ns - insns_ns : 0, __ATOMIC_RELAXED);
    } else {
        __atomic_store_n(&t->frozen, false, __ATOMIC_RELAXED);
        __atomic_store_n(&t->skipped_ns, (int64_t)(ht_now_ns() - t->start_ns - ns), __ATOMIC_RELAXED);
    }
    clock_write_end(t);
    for (unsigned c = 0; c < t->ncpu; c++) {
        t->cpu[c].cntvoff = voff[c];
        for (int k = 0; k < 2; k++) {
            Timer *tm = &t->cpu[c].t[k];
            tm->ctl = (uint32_t)ctl[2 * c + k];
            tm->cval = cval[2 * c + k];
            update_timer(t, c, k);
            gic_set_ppi(t->gic, c, timer_ppi[k], tm->out); /* the GIC's input as the timer says */
        }
    }
    arm_lead_limit(t);
    pthread_mutex_unlock(&t->lock);
    return true;
}
