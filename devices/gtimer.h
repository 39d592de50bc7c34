/* Arm generic timer, device side: the system counter (host CLOCK_MONOTONIC scaled to
 * GTIMER_FREQ_HZ) and, per CPU, the EL1 physical and virtual timers whose outputs drive GIC PPIs
 * 30 (CNTP, non-secure physical) and 27 (CNTV).  The CPU's system-register code calls these
 * functions for the CNT* registers; everything here is thread-safe.
 *
 * CPU-side mapping (EL1 entry, no EL2/EL3, so CNTVOFF is 0 unless gtimer_set_cntvoff is used):
 *   CNTFRQ_EL0            reset value gtimer_freq(t) (RO to the guest is fine: no EL3)
 *   CNTPCT_EL0            gtimer_count(t)
 *   CNTVCT_EL0            gtimer_count(t) - CNTVOFF  (= gtimer_vcount(t, cpu))
 *   CNTP_CTL/CVAL/TVAL    gtimer_{read,write}_{ctl,cval,tval}(t, cpu, GT_PHYS, ...)
 *   CNTV_CTL/CVAL/TVAL    same with GT_VIRT
 *   CNTKCTL_EL1           plain CPU register (EL0 access control); the event stream it can
 *                         enable is a CPU matter (WFE may simply time out).
 * ISTATUS (CTL bit 2) is computed on read; writes to it are ignored.  The output (ENABLE &&
 * ISTATUS && !IMASK) is a level on the PPI, updated on every register write and, for future
 * deadlines, by the host timer service at the deadline.
 *
 * WFI: the vCPU thread calls gtimer_wfi(t, cpu) which sleeps until gtimer_kick(t, cpu) is called
 * (from any thread) or max_ns elapse.  The CPU's GIC output callback must call gtimer_kick when
 * the CPU's IRQ/FIQ line rises, and anything that needs the vCPU's attention (PSCI CPU_ON,
 * system off, stop request) kicks it too.  A kick that arrives while the CPU is not sleeping is
 * remembered, so the next gtimer_wfi returns at once (WFI may complete early architecturally);
 * timer deadlines need no special handling because they raise the PPI, and through the GIC the
 * IRQ line.  The caller re-checks its interrupt state after gtimer_wfi returns. */
#ifndef MALIBU_DEVICES_GTIMER_H
#define MALIBU_DEVICES_GTIMER_H

#include <stdbool.h>
#include <stdint.h>
#include "gic400.h"
#include "../emu/checkpoint/ckpt.h"

#define GTIMER_FREQ_HZ 100000000ull /* 100 MHz, 10 ns per tick */

enum { GT_PHYS = 0, GT_VIRT = 1 };
enum { GT_CTL_ENABLE = 1u << 0, GT_CTL_IMASK = 1u << 1, GT_CTL_ISTATUS = 1u << 2 };

typedef struct GTimer GTimer;

GTimer *gtimer_new(Gic *gic, unsigned ncpu);
void gtimer_free(GTimer *t);
void gtimer_reset_cpu(GTimer *t, unsigned cpu); /* CTL = 0 (timers off), CVAL unchanged */

uint64_t gtimer_freq(GTimer *t);
uint64_t gtimer_count(GTimer *t); /* CNTPCT */
uint64_t gtimer_now_ns(GTimer *t); /* guest time in ns since the timer was created */
uint64_t gtimer_vcount(GTimer *t, unsigned cpu); /* CNTVCT */
void gtimer_set_cntvoff(GTimer *t, unsigned cpu, uint64_t off);

uint32_t gtimer_read_ctl(GTimer *t, unsigned cpu, int which);
void gtimer_write_ctl(GTimer *t, unsigned cpu, int which, uint64_t val);
uint64_t gtimer_read_cval(GTimer *t, unsigned cpu, int which);
void gtimer_write_cval(GTimer *t, unsigned cpu, int which, uint64_t val);
uint32_t gtimer_read_tval(GTimer *t, unsigned cpu, int which);  /* (CVAL - count) low 32 bits */
void gtimer_write_tval(GTimer *t, unsigned cpu, int which, uint64_t val); /* CVAL = count + sext(val[31:0]) */

/* Device-wait clock model.  An emulated device (the GPU) is far slower in host time than the
 * hardware it models, and guest drivers time their jobs out (panfrost: 500 ms).  With the model
 * on, while the device holds the clock (gtimer_hold(t, +1) .. (t, -1) around work it is doing)
 * and every CPU sleeps in gtimer_wfi, guest time stands still except for what the device reports
 * with gtimer_advance (its modelled time for the work done); the host time spent so is skipped.
 * Guest time stays monotonic and timers fire when advanced time reaches them.  A device must not
 * hold the clock while it waits for the CPU (e.g. on an MMU fault), or time would stop. */
void gtimer_set_device_clock(GTimer *t, bool on);
/* The lead limit: while a device holds the clock, guest time never runs more than this ahead of
 * the device's modelled time, counted from the instant it began holding.  A vCPU that stays busy
 * (a background process, a spinning thread) would otherwise let guest time run at host pace
 * through a device job that takes seconds of host time, and the driver would time the job out
 * (panfrost: 500 ms).  Once the running clock reaches the limit it stands, moving only by
 * gtimer_advance, until the holds end.  100 ms: below any driver timeout, far above the CPU work
 * the guest overlaps with one device job on real hardware. */
#define GTIMER_DEVICE_LEAD_NS 100000000ull

void gtimer_hold(GTimer *t, int delta);
void gtimer_advance(GTimer *t, uint64_t ns);
/* The same, but only while frozen: true if applied (a device waits and retries while a CPU is
 * briefly awake, so a large advance reported at once is not lost). */
bool gtimer_advance_frozen(GTimer *t, uint64_t ns);
/* With the model on: guest time becomes at least ns (a device's modelled schedule got ahead of
 * it because advances came while a CPU was awake, and the device is about to show that schedule
 * to the guest).  Returns guest ns after it. */
uint64_t gtimer_reach(GTimer *t, uint64_t ns);
typedef struct GTimerClockStats {
    bool model;              /* gtimer_set_device_clock(t, true) */
    uint64_t freezes;        /* times guest time was frozen */
    uint64_t lead_limits;    /* times a busy vCPU's clock stopped at the device's lead limit */
    uint64_t frozen_host_ns; /* host ns skipped so */
    uint64_t advanced_ns;    /* guest ns the device advanced while frozen */
    bool icount;             /* --clock icount */
    uint64_t icount_warps;   /* idle jumps to the next deadline */
    uint64_t icount_warped_ns; /* guest ns so skipped */
} GTimerClockStats;
void gtimer_clock_stats(GTimer *t, GTimerClockStats *st);

/* Sleep the vCPU until kicked or max_ns (0 = no limit) elapse. */
void gtimer_wfi(GTimer *t, unsigned cpu, uint64_t max_ns);
void gtimer_kick(GTimer *t, unsigned cpu);
/* One host thread sleeping for the CPUs in mask (--smp-mode rr: every vCPU idle): returns when
 * one of them is kicked (the kicked ones, their kicks consumed) or after max_ns (0: no limit).
 * Kicks that came while nobody slept are remembered here too, so this may return at once. */
uint32_t gtimer_wfi_any(GTimer *t, uint32_t mask, uint64_t max_ns);
/* A CPU powered off (PSCI CPU_OFF, secondaries before CPU_ON) counts as idle for the device-wait
 * clock model.  Every CPU is online after gtimer_new. */
void gtimer_set_cpu_online(GTimer *t, unsigned cpu, bool on);

/* --clock icount: guest time is a pure function of the instructions the vCPUs retired and of
 * the deadlines the vCPU loop jumped to while every vCPU was idle, never of host time (the
 * analogue of QEMU's -icount shift=N,sleep=off):
 *     guest ns = warped ns + (insns() << shift)
 * insns() (the vCPU loop's count of instructions retired, in its deterministic round-robin
 * order) is called from any thread.  Host timers are no longer armed: the vCPU loop (emu/system/
 * smp.c) ends each turn at the next deadline (gtimer_icount_insns_until(gtimer_icount_next_ns))
 * and calls gtimer_icount_update there, so a timer's PPI rises after the same instruction in
 * every run.  The device-wait model is off (gtimer_hold/advance do nothing, gtimer_reach returns
 * the time): devices publish their results at guest deadlines instead (the GPU: devices/mali/job_manager.c
 * mali_icount_*).  Set
 * once, before the vCPUs start. */
typedef uint64_t (*GTimerInsnFn)(void *opaque);
void gtimer_set_icount(GTimer *t, unsigned shift, GTimerInsnFn insns, void *opaque);
/* Called (under the timer lock: no gtimer call back) with a timer's guest deadline whenever a
 * register write or update leaves it armed: a vCPU that arms a timer during its turn ends the
 * turn by then, so the timer fires on time (not up to a quantum late), at a point as
 * reproducible as the write. */
void gtimer_set_icount_deadline_hook(GTimer *t, void (*fn)(void *opaque, uint64_t ns), void *opaque);
bool gtimer_icount(GTimer *t);
uint64_t gtimer_icount_shift(GTimer *t);
/* The earliest guest ns at which an enabled, unmasked timer fires; UINT64_MAX if none. */
uint64_t gtimer_icount_next_ns(GTimer *t);
/* Recompute every timer's output at the current guest time (PPIs of the timers now due). */
void gtimer_icount_update(GTimer *t);
/* Every vCPU idle: guest time jumps to ns if that is later (timers then due fire); returns the
 * guest ns after it. */
uint64_t gtimer_icount_warp(GTimer *t, uint64_t ns);
/* Instructions to retire before guest time reaches ns (rounded up; 0 if it has). */
uint64_t gtimer_icount_insns_until(GTimer *t, uint64_t ns);

/* Checkpoint (docs/checkpoint.md): section "gtimer", every CPU's timers (CTL, CVAL, CNTVOFF) and
 * guest time.  A loaded timer goes on from the saved guest time whatever this run's clock (host
 * or --clock icount: the instructions the loop counts from the load on are added to it), re-arms
 * the timers and drives their PPIs.  With --clock icount, load after the loop's count was set
 * (smp_set_icount). */
#define GTIMER_CKPT_VERSION 1
void gtimer_ckpt_save(GTimer *t, CkptWriter *w);
bool gtimer_ckpt_load(GTimer *t, CkptReader *r);

#endif
