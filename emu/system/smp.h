/* The vCPUs of build/malibu and the host threads that run them (--smp N, --smp-mode).
 *
 *   threads  (default) one host thread per vCPU (secondaries wait in psci_wait_start for their CPU_ON);
 *            an idle vCPU sleeps in gtimer_wfi.
 *   rr       every vCPU on the calling thread, round-robin, each running `quantum` guest
 *            instructions (to the next block boundary) before the next one: the same guest
 *            input gives the same interleaving of the CPUs' instruction streams (interrupts
 *            still arrive at host-time-dependent points, unless --clock icount: smp_set_icount).
 *            When every vCPU is idle the thread sleeps in gtimer_wfi_any.
 *
 * With one vCPU both are the plain loop of sys_cpu_run (with --clock icount: the rr loop).  The CPU's PSCI actions (main.c's
 * firmware hook) call smp_cpu_on / smp_cpu_off, which act the way the mode needs. */
#ifndef MALIBU_SYSTEM_SMP_H
#define MALIBU_SYSTEM_SMP_H

#include <stdbool.h>
#include <stdint.h>
#include "sys_cpu.h"

struct Board;

typedef enum { SMP_MODE_RR, SMP_MODE_THREADS } SmpMode;

#define SMP_DEFAULT_QUANTUM 10000 /* guest instructions per turn in rr mode */

/* m->cpus[0..m->ncpu-1] are set up (reset state irrelevant); CPU 0 starts at reset_pc. */
void smp_init(SysMachine *m, struct Board *b, SmpMode mode, uint64_t quantum);
/* --clock icount (devices/gtimer.h): guest time counts the instructions the vCPUs retire,
 * 2^shift ns each, in the rr loop's order (one vCPU runs the rr loop too), and jumps to the next
 * deadline when every vCPU is idle; turns end at deadlines (timers, GPU chain ends), where the
 * loop fires them.  Needs --smp 1 or --smp-mode rr (threads would interleave host-timed).
 * After smp_init, before smp_run. */
void smp_set_icount(unsigned shift);
/* Run the machine until it stops; returns m->stop_status. */
int smp_run(uint64_t reset_pc);
/* Run it on from its current state (CPU 0 not reset; the round-robin loop where it stopped, see
 * SmpRrPlace): after a checkpoint's save, or its load.  Only where smp_can_stop_all(). */
int smp_resume(void);
/* One loop runs every vCPU (one vCPU, or the round-robin loop), so m->stop leaves them all at a
 * block boundary and smp_resume goes on (threads mode with several vCPUs: false). */
bool smp_can_stop_all(void);
/* Where the round-robin loop is in its round (a checkpoint saves it: the resumed loop runs the
 * same schedule as one never stopped). */
typedef struct SmpRrPlace {
    uint32_t pos;           /* the vCPU whose turn comes (or goes on) */
    bool turn_open;         /* its turn had begun: it runs on to its insn_limit */
    bool progress, waiting_event; /* the round so far: someone ran; someone waits in WFE */
    uint32_t sleepers;      /* vCPUs idle this round */
} SmpRrPlace;
void smp_rr_place(SmpRrPlace *p);
void smp_set_rr_place(const SmpRrPlace *p);

/* PSCI CPU_ON (psci.c already marked the target on) and CPU_OFF of the calling vCPU. */
void smp_cpu_on(unsigned cpu, uint64_t entry, uint64_t context);
void smp_cpu_off(SysCPU *s);
/* Wake every vCPU so that it sees m->stop. */
void smp_kick_all(void);

const char *smp_mode_name(SmpMode mode);

/* vCPUs other than `self` that cannot reach the debugger's hook on their own while `self` waits
 * in it: every other one in rr mode (this thread runs them all), the powered-off ones in threads
 * mode (their threads wait for a CPU_ON).  The GDB stub counts them as stopped. */
unsigned smp_stopped_with(unsigned self);

#endif
