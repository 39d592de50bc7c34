/* Breakpoint and watchpoint lists of the debugger (sys_debug.h). */
#include "sys_debug.h"

bool sys_debug_bp_at(const SysDebug *d, uint64_t pc)
{
    for (unsigned i = 0; i < d->n_bp; i++)
        if (d->bp[i] == pc)
            return true;
    return false;
}

bool sys_debug_bp_insert(SysDebug *d, uint64_t pc)
{
    if (sys_debug_bp_at(d, pc))
        return true; /* gdb may insert a software and a hardware one at the same pc */
    if (d->n_bp >= SYS_DEBUG_MAX_BP)
        return false;
    d->bp[d->n_bp++] = pc;
    d->bp_gen++;
    return true;
}

bool sys_debug_bp_remove(SysDebug *d, uint64_t pc)
{
    for (unsigned i = 0; i < d->n_bp; i++)
        if (d->bp[i] == pc) {
            d->bp[i] = d->bp[--d->n_bp];
            d->bp_gen++;
            return true;
        }
    return false;
}

bool sys_debug_wp_insert(SysDebug *d, uint64_t addr, uint64_t len, unsigned kind)
{
    if (d->n_wp >= SYS_DEBUG_MAX_WP || len == 0 || len > 4096 || addr + len < addr ||
        kind < SYS_WATCH_READ || kind > SYS_WATCH_ACCESS)
        return false;
    d->wp[d->n_wp].addr = addr;
    d->wp[d->n_wp].len = len;
    d->wp[d->n_wp].kind = kind;
    d->n_wp++;
    d->wp_gen++;
    return true;
}

bool sys_debug_wp_remove(SysDebug *d, uint64_t addr, uint64_t len, unsigned kind)
{
    for (unsigned i = 0; i < d->n_wp; i++)
        if (d->wp[i].addr == addr && d->wp[i].len == len && d->wp[i].kind == kind) {
            d->wp[i] = d->wp[--d->n_wp];
            d->wp_gen++;
            return true;
        }
    return false;
}

unsigned sys_debug_watch_hit(const SysDebug *d, uint64_t addr, unsigned size, bool write)
{
    unsigned want = write ? SYS_WATCH_WRITE : SYS_WATCH_READ;
    for (unsigned i = 0; i < d->n_wp; i++)
        if ((d->wp[i].kind & want) && addr < d->wp[i].addr + d->wp[i].len &&
            d->wp[i].addr < addr + size)
            return d->wp[i].kind;
    return 0;
}

bool sys_debug_watch_page(const SysDebug *d, uint64_t va, bool write)
{
    uint64_t page = va & ~0xfffull;
    unsigned want = write ? SYS_WATCH_WRITE : SYS_WATCH_READ;
    for (unsigned i = 0; i < d->n_wp; i++) {
        uint64_t first = d->wp[i].addr & ~0xfffull, last = (d->wp[i].addr + d->wp[i].len - 1) & ~0xfffull;
        if ((d->wp[i].kind & want) && page >= first && page <= last)
            return true;
    }
    return false;
}
