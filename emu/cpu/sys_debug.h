/* Debugger breakpoints, watchpoints and single step in the full-system CPU (the GDB stub's
 * view of the translator; emu/system/gdb_board.c drives it).
 *
 * Nothing is written into guest memory: the translator ends a block before an instruction
 * that has a breakpoint and raises EXC_SYS_BKPT there (translate.c); pages that hold a
 * watched address get no soft-TLB read/write tag, so their accesses take the slow path, which
 * raises EXC_SYS_WATCH before the access (mmu.c); a stepping vCPU runs one-instruction blocks
 * (SYS_TBF_STEP in tb_flags) one at a time (sys_exec.c).
 *
 * The lists are changed only while every vCPU is parked in the hook; each vCPU then flushes its
 * own translations / TLB when it sees a new generation (SMP: no cross-thread flush). */
#ifndef MALIBU_SYS_DEBUG_H
#define MALIBU_SYS_DEBUG_H

#include <stdbool.h>
#include <stdint.h>

#define SYS_DEBUG_MAX_BP 64 /* also SysCPU.dbg_bp */
#define SYS_DEBUG_MAX_WP 16

enum { SYS_WATCH_READ = 1, SYS_WATCH_WRITE = 2, SYS_WATCH_ACCESS = 3 };

/* Why a vCPU calls the hook. */
typedef enum {
    SYS_DBG_POLL,     /* loop top with halt requested */
    SYS_DBG_BKPT,     /* breakpoint at c->pc (not executed) */
    SYS_DBG_WATCH,    /* watched access by the insn at c->pc (not done): fault_addr, fault_write */
    SYS_DBG_STEPPED,  /* one instruction (or the exception it took) done */
} SysDebugEvent;

struct SysCPU;

typedef struct SysDebug {
    unsigned n_bp;
    uint64_t bp[SYS_DEBUG_MAX_BP];
    unsigned n_wp;
    struct { uint64_t addr, len; unsigned kind; } wp[SYS_DEBUG_MAX_WP];
    uint64_t bp_gen, wp_gen;   /* bumped on changes: vCPUs flush TBs / TLBs */
    volatile int halt;         /* a vCPU calls the hook at its next loop top */
    /* Called on the vCPU's thread; returns when the debugger lets it run again. */
    void (*hook)(struct SysCPU *s, SysDebugEvent ev, void *opaque);
    void *opaque;
} SysDebug;

bool sys_debug_bp_at(const SysDebug *d, uint64_t pc);
bool sys_debug_bp_insert(SysDebug *d, uint64_t pc);
bool sys_debug_bp_remove(SysDebug *d, uint64_t pc);
bool sys_debug_wp_insert(SysDebug *d, uint64_t addr, uint64_t len, unsigned kind);
bool sys_debug_wp_remove(SysDebug *d, uint64_t addr, uint64_t len, unsigned kind);
/* Kind (SYS_WATCH_*) of the watchpoint an access of size bytes at addr hits, or 0. */
unsigned sys_debug_watch_hit(const SysDebug *d, uint64_t addr, unsigned size, bool write);
/* Does the 4 KB page at va hold a watched byte for reads / writes? */
bool sys_debug_watch_page(const SysDebug *d, uint64_t va, bool write);

#endif
