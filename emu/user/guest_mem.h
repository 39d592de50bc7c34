/* User-mode guest address space: a reserved host window with per-page guest
 * protection flags, code-page write protection for translated code, and the
 * SIGSEGV handler that turns host faults into guest data aborts. */
#ifndef MALIBU_GUEST_MEM_H
#define MALIBU_GUEST_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cpu.h"
#include "mem.h"

#define GPAGE_SIZE 4096ull
#define GPAGE_MASK (~(GPAGE_SIZE - 1))
#define GUEST_HUGE_PAGE (2ull << 20) /* the host's transparent huge page (x86-64 PMD) */

enum {
    GP_READ = 1, GP_WRITE = 2, GP_EXEC = 4, /* same values as PROT_* */
    GP_VALID = 8,                          /* mapped */
    GP_CODE = 16,                          /* translated code: host copy write-protected */
};

/* Host address of guest address 0: NULL when the window is the host's own addresses (see
 * guest_mem_init); host pointers are computed in integers, as NULL + a is not C. */
extern uint8_t *guest_base;

/* Reserve the window and install the fault handler; once per process.  zero_base: put guest
 * address a at host address a when the host has [64 KiB, GUEST_ADDR_SPACE + guard) free (not
 * under ASan, whose shadow lies there), so that generated code addresses guest memory with the
 * guest's own registers; else, or when false, the window goes where the host puts it. */
int guest_mem_init(bool zero_base);
/* Host pointer for a guest address (no checks). */
static inline void *g2h(uint64_t a) { return (void *)((uintptr_t)guest_base + a); }
static inline bool guest_addr_ok(uint64_t a, uint64_t len)
{
    return a < GUEST_ADDR_SPACE && len <= GUEST_ADDR_SPACE - a;
}

/* The lowest guest address a mapping may start at (Linux's usual vm.mmap_min_addr): below it,
 * mapping fails with EPERM. */
#define GUEST_MAP_MIN 0x10000ull

/* Map [addr, addr+len) as fresh zeroed anonymous memory with prot (GP_READ..GP_EXEC). */
int guest_map_anon(uint64_t addr, uint64_t len, unsigned prot);
/* Advise the host to back [addr, addr+len) with transparent huge pages (huge) or not; the range
 * keeps its contents.  Returns 0 or -errno (EINVAL also where the host has no THP). */
int guest_advise_huge(uint64_t addr, uint64_t len, bool huge);
/* Change protection of mapped pages. */
int guest_protect(uint64_t addr, uint64_t len, unsigned prot);
/* Unmap (back to reserved, inaccessible). */
int guest_unmap(uint64_t addr, uint64_t len);
/* Page flags of the page holding addr (0 when unmapped). */
unsigned guest_page_flags(uint64_t addr);
/* True when every page of [addr, addr+len) is mapped with all of prot. */
bool guest_access_ok(uint64_t addr, uint64_t len, unsigned prot);
/* Call cb for every run of mapped pages with the same flags, in address order. */
void guest_mem_walk(void (*cb)(uint64_t start, uint64_t end, unsigned flags, void *arg), void *arg);
/* Find a free, page-aligned range of len bytes at or above hint (0 on failure). */
uint64_t guest_find_free(uint64_t hint, uint64_t len);

/* Map a host file (fd >= 0) or shared anonymous memory (fd < 0) at [addr, addr+len) with guest
 * prot; host_flags is MAP_SHARED or MAP_PRIVATE.  Returns 0 or -errno. */
int guest_map_fd(uint64_t addr, uint64_t len, unsigned prot, int host_flags, int fd, uint64_t off);
/* Record [addr, addr+len) as mapped with prot after the caller placed host memory there itself
 * (mremap); sets the host protection to match. */
void guest_set_mapped(uint64_t addr, uint64_t len, unsigned prot);
/* Make translated-code pages in the range host-writable again (before the host writes guest
 * memory, e.g. read() into a buffer); flags the translations stale.  True if any was code. */
bool guest_uncode(uint64_t addr, uint64_t len);
/* True when any page of the range holds translated code. */
bool guest_range_has_code(uint64_t addr, uint64_t len);

/* Host signal (SIGSEGV, or SIGBUS for a file mapping beyond its end) behind the last hardware
 * data abort on this thread, 0 for none; reading clears it. */
int guest_mem_take_fault_signal(void);

/* The CPU running guest code on this host thread (for the fault handler). */
void guest_mem_set_current_cpu(CPUState *c);
/* All CPUs of the process (threads): code-page writes flag every one's translations stale. */
void guest_mem_register_cpu(CPUState *c);
void guest_mem_unregister_cpu(CPUState *c);

#endif
