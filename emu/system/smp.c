/* vCPU scheduling of build/malibu (see smp.h). */
#include "smp.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "native.h"
#include "../../devices/board.h"
#include "../../devices/mali/mali.h"
#include "../stats/timeline.h"

static SysMachine *mach;
static struct Board *board;
static SmpMode smp_mode;
static uint64_t rr_quantum;
/* --clock icount (smp_set_icount): the round-robin loop's count of instructions retired */
static bool icount_on;
static uint64_t icount_done;      /* atomic: instructions of the finished turns */
static SysCPU *icount_cur;        /* atomic: the vCPU in its turn (NULL between turns) */
static uint64_t icount_cur_start; /* its insn_count when the turn began */

const char *smp_mode_name(SmpMode mode)
{
    return mode == SMP_MODE_RR ? "rr" : "threads";
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static bool wants_to_wake(SysCPU *s)
{
    return gic_irq_line(board->gic, s->index) || gic_fiq_line(board->gic, s->index);
}

static void kick_cpu(SysCPU *s)
{
    s->cpu.exit_request = 1;
    gtimer_kick(board->gtimer, s->index);
}

void smp_init(SysMachine *m, struct Board *b, SmpMode mode, uint64_t quantum)
{
    mach = m;
    board = b;
    smp_mode = mode;
    rr_quantum = quantum ? quantum : SMP_DEFAULT_QUANTUM;
    pthread_mutex_init(&m->xcpu_lock, NULL);
    m->kick = kick_cpu;
    for (unsigned i = 0; i < m->ncpu; i++) {
        SysCPU *s = m->cpus[i];
        s->mpidr = psci_cpu_mpidr(i);
        s->powered_off = i != 0;
        if (i != 0)
            gtimer_set_cpu_online(b->gtimer, i, false);
    }
}

void smp_kick_all(void)
{
    for (unsigned i = 0; i < mach->ncpu; i++)
        kick_cpu(mach->cpus[i]);
    psci_shutdown(board->psci); /* threads waiting for a CPU_ON */
}

/* Reset a vCPU to the PSCI CPU_ON entry state (EL1h, MMU off, DAIF masked, X0 = context). */
static void start_cpu(SysCPU *s, uint64_t entry, uint64_t context)
{
    sys_cpu_reset(s, entry);
    s->cpu.x[0] = context;
    gtimer_reset_cpu(board->gtimer, s->index);
    gtimer_set_cpu_online(board->gtimer, s->index, true);
    s->powered_off = false;
}

void smp_cpu_on(unsigned cpu, uint64_t entry, uint64_t context)
{
    if (cpu >= mach->ncpu)
        return;
    if (smp_mode == SMP_MODE_RR)
        start_cpu(mach->cpus[cpu], entry, context); /* it is not running: we are */
    else
        kick_cpu(mach->cpus[cpu]); /* its thread takes psci's start mailbox */
}

void smp_cpu_off(SysCPU *s)
{
    if (__builtin_expect(timeline_on, 0))
        timeline_cpu_off(s->index);
    s->powered_off = true;
    gtimer_set_cpu_online(board->gtimer, s->index, false);
}

/* ---- --clock icount ------------------------------------------------------------------------ */

/* Instructions retired, in the loop's order: the finished turns plus the running vCPU's part of
 * its turn (its insn_count counts whole blocks at their entry: the same in every run). */
static uint64_t icount_insns(void *opaque)
{
    (void)opaque;
    SysCPU *s = __atomic_load_n(&icount_cur, __ATOMIC_ACQUIRE);
    uint64_t done = __atomic_load_n(&icount_done, __ATOMIC_ACQUIRE);
    return done + (s ? __atomic_load_n(&s->cpu.insn_count, __ATOMIC_RELAXED) - icount_cur_start : 0);
}

/* A timer armed (a CVAL/TVAL/CTL write) during a turn: end the turn by its deadline.  Only
 * from the vCPU in its turn (timer updates between turns come from the loop itself). */
static void icount_timer_armed(void *opaque, uint64_t ns)
{
    (void)opaque;
    SysCPU *s = __atomic_load_n(&icount_cur, __ATOMIC_ACQUIRE);
    if (!s)
        return;
    uint64_t n = gtimer_icount_insns_until(board->gtimer, ns);
    if (s->cpu.insn_count + n < s->cpu.insn_limit)
        s->cpu.insn_limit = s->cpu.insn_count + n;
}

void smp_set_icount(unsigned shift)
{
    icount_on = true;
    gtimer_set_icount(board->gtimer, shift, icount_insns, NULL); /* the board wired the rest */
    gtimer_set_icount_deadline_hook(board->gtimer, icount_timer_armed, NULL);
}

/* Host ns the loop waits at most for a GPU chain before looking again (stop requests). */
#define ICOUNT_GPU_WAIT_NS 2000000u

/* At a deterministic point of the loop (a turn's start, or every vCPU idle): fire the timers
 * and publish the GPU chains that are due, and return the next deadline before `horizon`
 * (guest ns; horizon itself if none is earlier; UINT64_MAX: none at all).  A running GPU chain
 * that may end before it (its work modelled so far ends earlier) is waited for on the host,
 * until it finished (its end then is a deadline) or its modelled time passed the horizon: so
 * neither the turn's length nor the guest time of any event depends on the host's speed. */
static uint64_t icount_next_deadline(uint64_t horizon)
{
    Mali *gpu = board->gpu;
    for (;;) {
        if (mach->stop)
            return horizon;
        uint64_t now = gtimer_now_ns(board->gtimer);
        gtimer_icount_update(board->gtimer);
        uint64_t next = gtimer_icount_next_ns(board->gtimer), gns = UINT64_MAX;
        if (horizon < next)
            next = horizon;
        int k = gpu ? mali_icount_next(gpu, &gns) : MALI_ICOUNT_NONE;
        if (k == MALI_ICOUNT_PUBLISH && gns <= now) {
            mali_icount_publish(gpu, now);
            continue;
        }
        if (k == MALI_ICOUNT_BOUND && gns < next) {
            mali_icount_wait(gpu, ICOUNT_GPU_WAIT_NS);
            continue;
        }
        if (k == MALI_ICOUNT_PUBLISH && gns < next)
            next = gns;
        return next;
    }
}

/* Guest instructions of the next turn: the quantum, cut at the next deadline. */
static uint64_t icount_turn_budget(void)
{
    uint64_t now = gtimer_now_ns(board->gtimer);
    uint64_t span = rr_quantum << gtimer_icount_shift(board->gtimer);
    uint64_t next = icount_next_deadline(now + span < now ? UINT64_MAX : now + span);
    uint64_t n = gtimer_icount_insns_until(board->gtimer, next);
    return n == 0 ? 1 : n < rr_quantum ? n : rr_quantum;
}

static void icount_turn_begin(SysCPU *s)
{
    icount_cur_start = s->cpu.insn_count;
    __atomic_store_n(&icount_cur, s, __ATOMIC_RELEASE);
}

static void icount_turn_end(SysCPU *s)
{
    __atomic_store_n(&icount_done, icount_done + (s->cpu.insn_count - icount_cur_start), __ATOMIC_RELEASE);
    __atomic_store_n(&icount_cur, NULL, __ATOMIC_RELEASE);
}

/* Every vCPU idle: fire what is due; if that wakes nobody, jump guest time to the next deadline,
 * or, with none (no timer armed, the GPU idle), wait on the host for an outside event (console
 * input, a stop request).  False: sleep on the host as without icount (WFE, nothing armed). */
static bool icount_idle(uint32_t online, bool waiting_event)
{
    uint64_t next = icount_next_deadline(UINT64_MAX);
    for (unsigned i = 0; i < mach->ncpu; i++)
        if ((online >> i & 1) && wants_to_wake(mach->cpus[i]))
            return true;
    if (next != UINT64_MAX) {
        gtimer_icount_warp(board->gtimer, next);
        return true;
    }
    if (!waiting_event)
        gtimer_wfi_any(board->gtimer, online, 0);
    return !waiting_event;
}

/* ---- rr: every vCPU on this thread ---------------------------------------------------------- */

/* The round-robin loop's place in its round, kept across a stop (a checkpoint) so that a resumed
 * loop goes on exactly where it was: the vCPU at pos is next, its turn begun (turn_open: it goes on
 * to its insn_limit as it was) or not; what the round saw so far. */
static SmpRrPlace rr;

static int run_rr(void)
{
    uint64_t idle_since[SYS_MAX_CPUS];
    for (unsigned i = 0; i < mach->ncpu; i++)
        idle_since[i] = now_ns();
    for (;;) {
        if (rr.pos == 0 && !rr.turn_open) {
            rr.progress = rr.waiting_event = false;
            rr.sleepers = 0;
        }
        for (; rr.pos < mach->ncpu; rr.pos++) {
            unsigned i = rr.pos;
            SysCPU *s = mach->cpus[i];
            if (mach->stop)
                return mach->stop_status;
            if (s->powered_off) {
                s->wfi_halted = false;
                continue;
            }
            bool cont = rr.turn_open;
            rr.turn_open = false;
            if (s->wfi_halted && !cont) {
                if (!wants_to_wake(s)) {
                    rr.sleepers |= 1u << i;
                    continue;
                }
                s->wfi_halted = false;
                s->idle_ns += now_ns() - idle_since[i];
                if (__builtin_expect(timeline_on, 0))
                    timeline_cpu_idle(i, false);
            }
            gic_set_current_cpu(i);
            if (icount_on) {
                if (!cont)
                    s->cpu.insn_limit = s->cpu.insn_count + icount_turn_budget();
                icount_turn_begin(s);
            } else if (!cont) {
                s->cpu.insn_limit = s->cpu.insn_count + rr_quantum;
            }
            SysRunResult r = sys_cpu_exec(s);
            if (icount_on)
                icount_turn_end(s);
            switch (r) {
            case SYS_RUN_STOP:
                rr.turn_open = true; /* a resumed loop finishes this turn first */
                return mach->stop_status;
            case SYS_RUN_QUANTUM:
            case SYS_RUN_OFF:
                rr.progress = true;
                break;
            case SYS_RUN_WFI:
                s->wfi_halted = true;
                idle_since[i] = now_ns();
                if (__builtin_expect(timeline_on, 0))
                    timeline_cpu_idle(i, true);
                s->n_wfi++;
                rr.sleepers |= 1u << i;
                break;
            case SYS_RUN_WFE:
                rr.waiting_event = true; /* others may run and release what it waits for */
                rr.sleepers |= 1u << i;
                s->n_wfi++;
                break;
            }
        }
        rr.pos = 0;
        if (!rr.progress && rr.sleepers) {
            /* Nobody can run: sleep until an interrupt, an SEV or a CPU_ON kicks one of them
             * (WFE also times out, as its event may come from a store we do not watch). */
            uint32_t online = 0; /* offline CPUs already count as idle for the clock model */
            for (unsigned i = 0; i < mach->ncpu; i++)
                if (!mach->cpus[i]->powered_off)
                    online |= 1u << i;
            if (!online) /* every CPU off: only a stop request (Ctrl-A x, signal) can end this */
                online = (1u << mach->ncpu) - 1;
            if (icount_on && icount_idle(online, rr.waiting_event))
                continue;
            gtimer_wfi_any(board->gtimer, online, rr.waiting_event ? 100000 : 0);
        }
    }
}

/* ---- threads: one host thread per vCPU ------------------------------------------------------- */

typedef struct { SysCPU *s; uint64_t reset_pc; int status; } VcpuThread;

static void *vcpu_thread(void *arg)
{
    VcpuThread *v = arg;
    SysCPU *s = v->s;
    gic_set_current_cpu(s->index);
    bool boot_cpu = s->index == 0;
    for (;;) {
        uint64_t entry, context;
        if (boot_cpu) {
            sys_cpu_reset(s, v->reset_pc);
            boot_cpu = false;
        } else if (mach->stop || !psci_wait_start(board->psci, s->index, &entry, &context)) {
            break;
        } else {
            start_cpu(s, entry, context);
        }
        v->status = sys_cpu_run(s);
        if (mach->stop)
            break;
    }
    return NULL;
}

static int run_threads(uint64_t reset_pc)
{
    VcpuThread v[SYS_MAX_CPUS];
    pthread_t tid[SYS_MAX_CPUS];
    for (unsigned i = 1; i < mach->ncpu; i++) {
        v[i] = (VcpuThread){ mach->cpus[i], reset_pc, 0 };
        if (pthread_create(&tid[i], NULL, vcpu_thread, &v[i])) {
            fprintf(stderr, "malibu: cannot start the thread of vCPU %u\n", i);
            exit(1);
        }
    }
    v[0] = (VcpuThread){ mach->cpus[0], reset_pc, 0 };
    vcpu_thread(&v[0]); /* returns when the machine stops */
    smp_kick_all();
    for (unsigned i = 1; i < mach->ncpu; i++)
        pthread_join(tid[i], NULL);
    return mach->stop_status;
}

/* The loop that runs the machine: the single vCPU's own (host clock), else the round-robin one
 * (threads mode with several vCPUs is run_threads). */
static bool uses_rr(void)
{
    return mach->ncpu > 1 ? smp_mode == SMP_MODE_RR : icount_on;
}

int smp_run(uint64_t reset_pc)
{
    if (mach->ncpu > 1 && !uses_rr())
        return run_threads(reset_pc);
    sys_cpu_reset(mach->cpus[0], reset_pc);
    rr = (SmpRrPlace){ 0 };
    return smp_resume();
}

int smp_resume(void)
{
    if (!uses_rr()) {
        gic_set_current_cpu(0);
        return sys_cpu_run(mach->cpus[0]);
    }
    native_set_insn_limit_check(true);
    return run_rr();
}

bool smp_can_stop_all(void)
{
    return mach->ncpu == 1 || uses_rr();
}

void smp_rr_place(SmpRrPlace *p)
{
    *p = uses_rr() ? rr : (SmpRrPlace){ 0 };
}

void smp_set_rr_place(const SmpRrPlace *p)
{
    rr = *p;
    if (!uses_rr()) {
        rr = (SmpRrPlace){ 0 };
        mach->cpus[0]->cpu.insn_limit = UINT64_MAX; /* the single loop has no turns */
    }
}

unsigned smp_stopped_with(unsigned self)
{
    if (!mach || mach->ncpu <= 1)
        return 0;
    if (smp_mode == SMP_MODE_RR)
        return mach->ncpu - 1;
    unsigned n = 0;
    for (unsigned i = 0; i < mach->ncpu; i++)
        n += i != self && __atomic_load_n(&mach->cpus[i]->powered_off, __ATOMIC_ACQUIRE);
    return n;
}
