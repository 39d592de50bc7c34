/* Firmware-less PSCI 1.0 (Arm DEN 0022) for the board: the CPU calls psci_call() when the guest
 * executes HVC #0 at EL1 (the DT says method = "hvc"; there is no EL2, so the CPU treats it as a
 * firmware call instead of an UNDEFINED instruction), writes the returned value to X0, leaves
 * X1-X3 unchanged and continues at the next instruction -- unless the returned action says
 * otherwise:
 *
 *   PSCI_ACT_NONE          nothing else to do
 *   PSCI_ACT_CPU_ON        reset vCPU act.cpu and start it: EL1h, MMU off (SCTLR_EL1 reset value),
 *                          DAIF masked, X0 = act.context, other GPRs 0, PC = act.entry; then kick
 *                          it (gtimer_kick).  The caller continues (X0 = 0).
 *   PSCI_ACT_CPU_OFF       the calling vCPU stops: it must not execute further until a later
 *                          CPU_ON for it (the call does not return to the guest).
 *   PSCI_ACT_CPU_SUSPEND   the caller waits as for WFI, then continues with X0 = SUCCESS: every
 *                          power state, standby or power-down, is entered as standby (PSCI lets
 *                          an implementation enter a shallower state than asked; the caller's
 *                          state is kept, so a power-down request returns as from standby).
 *   PSCI_ACT_SYSTEM_OFF    stop all vCPUs, exit the emulator with status 0.
 *   PSCI_ACT_SYSTEM_RESET  reset the board (or exit with status PSCI_RESET_EXIT_STATUS when
 *                          reset is not implemented).
 *
 * SMCCC conventions: 32-bit function IDs (0x84xxxxxx) use only the low 32 bits of the arguments;
 * results are sign-extended to 64 bits (so NOT_SUPPORTED is all ones in X0, which is what Linux
 * compares against).  Unknown function IDs (including SMCCC_VERSION, SMCCC_ARCH_FEATURES,
 * SYSTEM_SUSPEND) return NOT_SUPPORTED (-1).  CPU_SUSPEND takes the original power_state format
 * (StateID [15:0], StateType [16], PowerLevel [25:24]); other bits set: INVALID_PARAMETERS.  HVC with a non-zero immediate, or from
 * EL0, is UNDEFINED and must not reach psci_call.
 *
 * CPU power state is tracked here (CPU 0 is ON at reset, the others OFF).  CPU numbers are
 * indices 0..ncpu-1; their MPIDR affinities follow Juno's clusters (psci_cpu_mpidr): CPUs 0-1
 * are cluster 0 (Aff1 = 0, Juno's two big cores), CPUs 2-7 cluster 1 (Aff1 = 1, Aff0 = 0..5;
 * Juno has four LITTLE cores, --smp 7/8 extend the cluster).  Bit 31 of a guest-supplied MPIDR
 * is ignored. */
#ifndef MALIBU_FIRMWARE_PSCI_H
#define MALIBU_FIRMWARE_PSCI_H

#include <stdbool.h>
#include <stdint.h>
#include "../emu/checkpoint/ckpt.h"

#define PSCI_MAX_CPUS 8
#define PSCI_RESET_EXIT_STATUS 0x52 /* suggested exit status for SYSTEM_RESET without reset */

enum {
    PSCI_VERSION = 0x84000000, PSCI_CPU_SUSPEND = 0x84000001, PSCI_CPU_OFF = 0x84000002,
    PSCI_CPU_ON_32 = 0x84000003, PSCI_AFFINITY_INFO_32 = 0x84000004,
    PSCI_MIGRATE_INFO_TYPE = 0x84000006, PSCI_SYSTEM_OFF = 0x84000008,
    PSCI_SYSTEM_RESET = 0x84000009, PSCI_FEATURES = 0x8400000A,
    PSCI_CPU_SUSPEND_64 = 0xC4000001, PSCI_CPU_ON_64 = 0xC4000003, PSCI_AFFINITY_INFO_64 = 0xC4000004,
};

enum {
    PSCI_RET_SUCCESS = 0, PSCI_RET_NOT_SUPPORTED = -1, PSCI_RET_INVALID_PARAMS = -2,
    PSCI_RET_DENIED = -3, PSCI_RET_ALREADY_ON = -4, PSCI_RET_ON_PENDING = -5,
    PSCI_RET_INTERNAL_FAILURE = -6, PSCI_RET_NOT_PRESENT = -7, PSCI_RET_DISABLED = -8,
    PSCI_RET_INVALID_ADDRESS = -9,
};

enum { PSCI_AFF_ON = 0, PSCI_AFF_OFF = 1, PSCI_AFF_ON_PENDING = 2 };

typedef enum {
    PSCI_ACT_NONE, PSCI_ACT_CPU_ON, PSCI_ACT_CPU_OFF, PSCI_ACT_SYSTEM_OFF, PSCI_ACT_SYSTEM_RESET,
    PSCI_ACT_CPU_SUSPEND,
} PsciActionKind;

typedef struct PsciAction {
    PsciActionKind kind;
    unsigned cpu;     /* CPU_ON: target; CPU_OFF: the caller */
    uint64_t entry;   /* CPU_ON: physical entry address */
    uint64_t context; /* CPU_ON: X0 for the target */
} PsciAction;

typedef struct Psci Psci;

/* MPIDR_EL1 affinity bits (Aff1.Aff0) of CPU cpu on this board, and the inverse (-1: none). */
uint64_t psci_cpu_mpidr(unsigned cpu);
int psci_mpidr_cpu(uint64_t mpidr, unsigned ncpu);

Psci *psci_new(unsigned ncpu);
void psci_free(Psci *p);
void psci_reset(Psci *p); /* CPU 0 on, others off */

/* Handle the call made by vCPU cpu with function ID x0 and arguments x1..x3.  Returns the value
 * for X0 and fills *act.  Thread-safe (several vCPUs may call at once). */
uint64_t psci_call(Psci *p, unsigned cpu, uint64_t x0, uint64_t x1, uint64_t x2, uint64_t x3,
                   PsciAction *act);

int psci_cpu_state(Psci *p, unsigned cpu); /* PSCI_AFF_ON / _OFF */

/* Start mailbox for vCPU threads: every successful CPU_ON also posts (entry, context) for the
 * target.  A secondary's thread (and any CPU after CPU_OFF) blocks in psci_wait_start until its
 * CPU_ON arrives; returns false once psci_shutdown was called (SYSTEM_OFF, emulator exit).
 *     while (psci_wait_start(psci, n, &entry, &ctx)) { reset vCPU; PC = entry; X0 = ctx;
 *                                                     run until PSCI_ACT_CPU_OFF or stop; } */
bool psci_wait_start(Psci *p, unsigned cpu, uint64_t *entry, uint64_t *context);
void psci_shutdown(Psci *p);

/* Checkpoint (docs/checkpoint.md): section "psci", each CPU's power state.  The start mailbox is
 * not saved: a checkpoint is taken and resumed by the round-robin loop (or one vCPU), which
 * starts a CPU at its CPU_ON directly, never through psci_wait_start. */
#define PSCI_CKPT_VERSION 1
void psci_ckpt_save(Psci *p, CkptWriter *w);
bool psci_ckpt_load(Psci *p, CkptReader *r);

#endif
