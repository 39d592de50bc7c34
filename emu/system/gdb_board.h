/* The board's side of the GDB stub (--gdb): the vCPUs as GDB threads (registers, memory through
 * their translation, parking), the translator's break/watchpoints (emu/cpu/sys_debug.h), and
 * the monitor commands (tlb, translate, xp, gpu).
 *
 * SMP: every vCPU in cpus[0..ncpu) is a GDB thread and must reach its loop top (sys_cpu_exec
 * calls the debug hook there) for the machine to count as stopped, except those that cannot
 * (smp_stopped_with: powered-off ones in threads mode, the others in rr mode), which count as
 * parked.  Breakpoint and watchpoint changes are applied by each vCPU on its own thread
 * (sys_exec.c). */
#ifndef MALIBU_GDB_BOARD_H
#define MALIBU_GDB_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include "sys_cpu.h"

struct Board;

/* Start the server on spec ("[HOST:]PORT"); with wait the vCPUs halt before their first
 * instruction until gdb lets them run.  quit(status) ends the machine (gdb's kill). */
bool gdb_board_start(const char *spec, bool wait, struct Board *board, SysMachine *m, SysCPU **cpus,
                     unsigned ncpu, void (*quit)(int status), char *err, size_t errlen);
/* The machine ends: gdb sees the exit status. */
void gdb_board_exited(int status);
/* The machine is stopping (SysMachine.stop set): parked vCPUs leave the debugger's hold. */
void gdb_board_wake(void);

#endif
