/* build/malibu's checkpoints (docs/checkpoint.md): --checkpoint-save, --checkpoint-load, the
 * guest's `malibu checkpoint` (guest channel CHAN_CHECKPOINT) and the save on a stop signal.
 *
 * A save happens with every vCPU stopped at a block boundary: the guest's request sets m->stop
 * with CHECKPOINT_STOP_STATUS, the one loop that runs the vCPUs (one vCPU, or --smp-mode rr)
 * returns, the file is written (the "machine" section here, the board's sections, one "cpu"
 * section per vCPU) and the loop goes on where it stopped (smp_resume), the caches of both the
 * saving and a resumed run dropped alike.  A load fills the board main built with the same
 * options, then the same loop goes on from the loaded state. */
#ifndef MALIBU_SYSTEM_CHECKPOINT_H
#define MALIBU_SYSTEM_CHECKPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sys_cpu.h"

struct Board;
struct SystemOptions;

#define CHECKPOINT_MACHINE_VERSION 1
/* m->stop_status while a guest-requested save stops the loop (not an exit status: above 255) */
#define CHECKPOINT_STOP_STATUS 0x10000

/* After smp_init (and smp_set_icount), before the vCPUs run: install the guest channel's
 * checkpoint operations.  run_cmd: --run's command, handed to a resumed guest (NULL: none). */
void checkpoint_setup(struct Board *b, SysMachine *m, const struct SystemOptions *o, const char *run_cmd);
/* --checkpoint-load: fill the board and the vCPUs from the file (after board_realize).  false
 * with a message naming the problem in err. */
bool checkpoint_load(char *err, size_t errlen);
bool checkpoint_loaded(void);
/* Run the machine (from reset, or from the loaded state) until it stops for good, saving at each
 * guest request; returns the exit status. */
int checkpoint_run(uint64_t reset_pc);
/* A stop signal ended the run: save (with --checkpoint-save), before the GPU is stopped. */
void checkpoint_save_on_signal(int sig);

#endif
