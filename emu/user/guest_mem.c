/* User-mode guest address space (see guest_mem.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include "native.h"
#include "guest_mem.h"
#include "env.h"
#include "tb.h"

#define GUARD_SIZE NATIVE_NEAR_GUARD
#define L2_BITS 14
#define L1_ENTRIES (GUEST_ADDR_SPACE / GPAGE_SIZE >> L2_BITS)

uint8_t *guest_base;
static uint8_t *page_flags_l1[L1_ENTRIES];
static __thread CPUState *current_cpu;

void guest_mem_set_current_cpu(CPUState *c) { current_cpu = c; }

/* Every CPU running guest code (threads): translated code is per CPU, so a write to a code page
 * must reach them all.  Slots are never freed while a thread may still look at them. */
#define MAX_CPUS 1024
static CPUState *volatile all_cpus[MAX_CPUS];

void guest_mem_register_cpu(CPUState *c)
{
    for (int i = 0; i < MAX_CPUS; i++)
        if (!all_cpus[i] && __sync_bool_compare_and_swap(&all_cpus[i], NULL, c))
            return;
}

void guest_mem_unregister_cpu(CPUState *c)
{
    for (int i = 0; i < MAX_CPUS; i++)
        if (all_cpus[i] == c)
            __sync_bool_compare_and_swap(&all_cpus[i], c, NULL);
}

/* Translations of some page went stale: every CPU drops its blocks at its next block boundary. */
static void code_changed(void)
{
    if (current_cpu) {
        current_cpu->tbc->flush_pending = 1;
        current_cpu->exit_request = 1;
    }
    for (int i = 0; i < MAX_CPUS; i++) {
        CPUState *c = all_cpus[i];
        if (c && c != current_cpu) {
            c->tbc->flush_pending = 1;
            c->exit_request = 1;
        }
    }
}

static uint8_t *flag_slot(uint64_t addr, bool create)
{
    uint64_t pn = addr / GPAGE_SIZE;
    uint8_t **l2 = &page_flags_l1[pn >> L2_BITS];
    if (!*l2) {
        if (!create)
            return NULL;
        *l2 = calloc(1u << L2_BITS, 1);
        if (!*l2) {
            fprintf(stderr, "malibu-user: out of memory for page flags\n");
            exit(127);
        }
    }
    return &(*l2)[pn & ((1u << L2_BITS) - 1)];
}

unsigned guest_page_flags(uint64_t addr)
{
    if (addr >= GUEST_ADDR_SPACE)
        return 0;
    uint8_t *f = flag_slot(addr, false);
    return f ? *f : 0;
}

bool guest_access_ok(uint64_t addr, uint64_t len, unsigned prot)
{
    if (len == 0)
        return true;
    if (!guest_addr_ok(addr, len))
        return false;
    for (uint64_t p = addr & GPAGE_MASK; p < addr + len; p += GPAGE_SIZE) {
        unsigned f = guest_page_flags(p);
        if (!(f & GP_VALID) || (f & prot) != prot)
            return false;
    }
    return true;
}

/* Host protection for a page: guest prot, minus write while it holds translated code. */
static int host_prot(unsigned f)
{
    int p = 0;
    if (!(f & GP_VALID))
        return PROT_NONE;
    if (f & (GP_READ | GP_EXEC))
        p |= PROT_READ;
    if ((f & GP_WRITE) && !(f & GP_CODE))
        p |= PROT_WRITE | PROT_READ;
    return p;
}

static void set_flags(uint64_t addr, uint64_t len, unsigned f)
{
    for (uint64_t p = addr; p < addr + len; p += GPAGE_SIZE)
        *flag_slot(p, true) = (uint8_t)f;
}

static int guest_mem_install_fault_handler(void);

/* The lowest host address a process may map on most hosts (vm.mmap_min_addr): with a zero base
 * the reservation starts there, as do guest mappings (GUEST_MAP_MIN). */
#define ZERO_BASE_LOW GUEST_MAP_MIN
_Static_assert(GUEST_MAP_MIN >= NATIVE_NEAR_LOW && GUEST_ADDR_SPACE == NATIVE_NEAR_SPACE,
               "the bounds unchecked accesses of generated code rely on (native.h)");

/* Does every user access to the host kernel's half of the address space fault?  Not where
 * something there is readable (the vsyscall page in its "emulate" mode), nor when the map cannot
 * be read. */
static bool kernel_half_faults(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return false;
    char line[512];
    bool faults = true;
    while (fgets(line, sizeof line, f)) {
        unsigned long long lo;
        char perms[8];
        if (sscanf(line, "%llx-%*x %7s", &lo, perms) == 2 && lo >= (1ull << 63) && perms[0] == 'r')
            faults = false;
    }
    fclose(f);
    return faults;
}

int guest_mem_init(bool zero_base)
{
    if (zero_base) {
        void *want = (void *)(uintptr_t)ZERO_BASE_LOW;
        void *w = mmap(want, GUEST_ADDR_SPACE + GUARD_SIZE - ZERO_BASE_LOW, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
        if (w == want) {
            guest_base = NULL;
#if MALIBU_HAVE_NATIVE
            native_near_kernel_half(kernel_half_faults());
#endif
            return guest_mem_install_fault_handler();
        }
        if (w != MAP_FAILED) /* a kernel before 4.17 took the flag as a hint */
            munmap(w, GUEST_ADDR_SPACE + GUARD_SIZE - ZERO_BASE_LOW);
    }
    /* Aligned to a huge page, so that guest ranges aligned to 2 MiB are host huge-page ranges. */
    void *w = mmap(NULL, GUEST_ADDR_SPACE + GUARD_SIZE + GUEST_HUGE_PAGE, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (w == MAP_FAILED)
        return -errno;
    guest_base = (uint8_t *)(((uintptr_t)w + GUEST_HUGE_PAGE - 1) & ~(uintptr_t)(GUEST_HUGE_PAGE - 1));
    return guest_mem_install_fault_handler();
}

static bool range_ok(uint64_t addr, uint64_t len)
{
    return !(addr & ~GPAGE_MASK) && len && guest_addr_ok(addr, len);
}

/* Nothing is mapped below GUEST_MAP_MIN, in either window, even where the host would let a
 * privileged process map there (generated code relies on it: native.h NATIVE_NEAR_LOW). */
static int map_range_check(uint64_t addr, uint64_t len)
{
    return !range_ok(addr, len) ? -EINVAL : addr < GUEST_MAP_MIN ? -EPERM : 0;
}

int guest_map_anon(uint64_t addr, uint64_t len, unsigned prot)
{
    len = (len + GPAGE_SIZE - 1) & GPAGE_MASK;
    int bad = map_range_check(addr, len);
    if (bad)
        return bad;
    unsigned f = GP_VALID | (prot & (GP_READ | GP_WRITE | GP_EXEC));
    if (mmap(g2h(addr), len, host_prot(f), MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0) == MAP_FAILED)
        return -errno;
    set_flags(addr, len, f);
    return 0;
}

int guest_advise_huge(uint64_t addr, uint64_t len, bool huge)
{
    len = (len + GPAGE_SIZE - 1) & GPAGE_MASK;
    if (!range_ok(addr, len))
        return -EINVAL;
    return madvise(g2h(addr), len, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) ? -errno : 0;
}

int guest_map_fd(uint64_t addr, uint64_t len, unsigned prot, int host_flags, int fd, uint64_t off)
{
    len = (len + GPAGE_SIZE - 1) & GPAGE_MASK;
    int bad = map_range_check(addr, len);
    if (bad)
        return bad;
    unsigned f = GP_VALID | (prot & (GP_READ | GP_WRITE | GP_EXEC));
    int fl = (host_flags & (MAP_SHARED | MAP_PRIVATE)) | MAP_FIXED | (fd < 0 ? MAP_ANONYMOUS : 0);
    if (mmap(g2h(addr), len, host_prot(f), fl, fd, (off_t)off) == MAP_FAILED) {
        int e = errno;
        /* keep the window reserved */
        mmap(g2h(addr), len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
        set_flags(addr, len, 0);
        return -e;
    }
    set_flags(addr, len, f);
    return 0;
}

void guest_set_mapped(uint64_t addr, uint64_t len, unsigned prot)
{
    len = (len + GPAGE_SIZE - 1) & GPAGE_MASK;
    if (!range_ok(addr, len))
        return;
    unsigned f = GP_VALID | (prot & (GP_READ | GP_WRITE | GP_EXEC));
    set_flags(addr, len, f);
    mprotect(g2h(addr), len, host_prot(f));
}

bool guest_range_has_code(uint64_t addr, uint64_t len)
{
    if (!len || !guest_addr_ok(addr, len))
        return false;
    for (uint64_t p = addr & GPAGE_MASK; p < addr + len; p += GPAGE_SIZE) {
        uint8_t *slot = flag_slot(p, false);
        if (slot && (*slot & GP_CODE))
            return true;
    }
    return false;
}

bool guest_uncode(uint64_t addr, uint64_t len)
{
    bool any = false;
    if (!len || !guest_addr_ok(addr, len))
        return false;
    for (uint64_t p = addr & GPAGE_MASK; p < addr + len; p += GPAGE_SIZE) {
        uint8_t *slot = flag_slot(p, false);
        if (slot && (*slot & GP_CODE)) {
            *slot &= ~GP_CODE;
            mprotect(g2h(p), GPAGE_SIZE, host_prot(*slot));
            any = true;
        }
    }
    if (any)
        code_changed();
    return any;
}

/* Give page p the guest protection prot (keeping its code mark); its host protection. */
static int set_page_prot(uint64_t p, unsigned prot)
{
    uint8_t *slot = flag_slot(p, true);
    uint8_t old = __atomic_load_n(slot, __ATOMIC_SEQ_CST), f;
    do /* another thread may mark the page as code meanwhile (env_fetch_insn) */
        f = (uint8_t)((old & GP_CODE) | GP_VALID | (prot & (GP_READ | GP_WRITE | GP_EXEC)));
    while (!__atomic_compare_exchange_n(slot, &old, f, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    return host_prot(f);
}

/* Host protection hp for the pages [start, end), which set_page_prot gave it; 0 or -errno. */
static int protect_run(uint64_t start, uint64_t end, int hp)
{
    if (start == end)
        return 0;
    if (mprotect(g2h(start), end - start, hp) != 0)
        return -errno;
    for (uint64_t q = start; q < end; q += GPAGE_SIZE) { /* marked as code meanwhile: */
        int now = host_prot(__atomic_load_n(flag_slot(q, true), __ATOMIC_SEQ_CST));
        if (now != hp) /* keep its write protection */
            mprotect(g2h(q), GPAGE_SIZE, now);
    }
    return 0;
}

int guest_protect(uint64_t addr, uint64_t len, unsigned prot)
{
    len = (len + GPAGE_SIZE - 1) & GPAGE_MASK;
    if (!range_ok(addr, len))
        return -EINVAL;
    if (!guest_access_ok(addr, len, 0))
        return -ENOMEM;
    /* One host mprotect per run of pages that get the same host protection (translated pages
     * keep theirs without write), not one per page: a run of 16 pages cost 16 system calls. */
    uint64_t end = addr + len, run = addr;
    int run_prot = -1;
    for (uint64_t p = addr; p < end; p += GPAGE_SIZE) {
        int hp = set_page_prot(p, prot);
        if (hp == run_prot)
            continue;
        int e = protect_run(run, p, run_prot);
        if (e)
            return e;
        run = p;
        run_prot = hp;
    }
    return protect_run(run, end, run_prot);
}

int guest_unmap(uint64_t addr, uint64_t len)
{
    len = (len + GPAGE_SIZE - 1) & GPAGE_MASK;
    if (!range_ok(addr, len))
        return -EINVAL;
    if (mmap(g2h(addr), len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0) == MAP_FAILED)
        return -errno;
    for (uint64_t p = addr; p < addr + len; p += GPAGE_SIZE) {
        uint8_t *slot = flag_slot(p, false);
        if (slot) {
            if (*slot & GP_CODE)
                code_changed();
            *slot = 0;
        }
    }
    return 0;
}

void guest_mem_walk(void (*cb)(uint64_t start, uint64_t end, unsigned flags, void *arg), void *arg)
{
    uint64_t run_start = 0, run_end = 0;
    unsigned run_f = 0;
    for (uint64_t i = 0; i < L1_ENTRIES; i++) {
        const uint8_t *l2 = page_flags_l1[i];
        if (!l2)
            continue;
        for (unsigned j = 0; j < (1u << L2_BITS); j++) {
            unsigned f = l2[j] & (GP_VALID | GP_READ | GP_WRITE | GP_EXEC);
            if (!(f & GP_VALID))
                continue;
            uint64_t a = ((i << L2_BITS) + j) * GPAGE_SIZE;
            if (run_end == a && f == run_f) {
                run_end += GPAGE_SIZE;
                continue;
            }
            if (run_end)
                cb(run_start, run_end, run_f, arg);
            run_start = a;
            run_end = a + GPAGE_SIZE;
            run_f = f;
        }
    }
    if (run_end)
        cb(run_start, run_end, run_f, arg);
}

uint64_t guest_find_free(uint64_t hint, uint64_t len)
{
    len = (len + GPAGE_SIZE - 1) & GPAGE_MASK;
    uint64_t start = hint & GPAGE_MASK;
    if (start < 0x10000)
        start = 0x10000;
    while (guest_addr_ok(start, len)) {
        uint64_t p = start, end = start + len;
        while (p < end && !(guest_page_flags(p) & GP_VALID))
            p += GPAGE_SIZE;
        if (p >= end)
            return start;
        start = p + GPAGE_SIZE; /* skip past the mapped page */
    }
    return 0;
}

bool env_fetch_insn(CPUState *c, uint64_t pc, uint32_t *insn)
{
    if ((pc & 3) || pc >= GUEST_ADDR_SPACE)
        return false;
    uint8_t *slot = flag_slot(pc, false);
    if (!slot || !(*slot & GP_VALID) || !(*slot & GP_EXEC))
        return false;
    if (!(*slot & GP_CODE)) {
        uint8_t f = __atomic_or_fetch(slot, GP_CODE, __ATOMIC_SEQ_CST);
        if (f & GP_WRITE)
            mprotect(g2h(pc & GPAGE_MASK), GPAGE_SIZE, host_prot(f));
    }
    (void)c;
    memcpy(insn, g2h(pc), 4);
    return true;
}

static struct sigaction old_segv;

static __thread int last_fault_sig;

int guest_mem_take_fault_signal(void)
{
    int s = last_fault_sig;
    last_fault_sig = 0;
    return s;
}

static void segv_handler(int sig, siginfo_t *si, void *uc_)
{
    ucontext_t *uc = uc_;
    uintptr_t h = (uintptr_t)si->si_addr;
    bool in_window = h >= (uintptr_t)guest_base && h - (uintptr_t)guest_base < GUEST_ADDR_SPACE + GUARD_SIZE;
#if MALIBU_HAVE_NATIVE
    /* Generated code's unchecked accesses may land in the host kernel's half (native.h): a
     * guest data abort there too, at the same address. */
    in_window |= !guest_base && h >= (uintptr_t)-(1ull << 47) && current_cpu &&
                 native_fault_site(current_cpu->tbc, (uintptr_t)uc->uc_mcontext.gregs[REG_RIP]);
#endif
    if (in_window) {
        uint64_t ga = (uint64_t)(h - (uintptr_t)guest_base);
        bool write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
        uint8_t *slot = ga < GUEST_ADDR_SPACE ? flag_slot(ga, false) : NULL;
        if (write && slot && (*slot & GP_CODE) && (*slot & GP_WRITE)) {
            /* Guest wrote a page we translated: drop translations, let the write proceed. */
            *slot &= ~GP_CODE;
            mprotect(g2h(ga & GPAGE_MASK), GPAGE_SIZE, host_prot(*slot));
            code_changed();
            return;
        }
#if MALIBU_HAVE_NATIVE
        /* A guest access in native code: store the guest registers it kept in host registers. */
        const NativeFaultSite *fs =
            current_cpu ? native_fault_site(current_cpu->tbc, (uintptr_t)uc->uc_mcontext.gregs[REG_RIP]) : NULL;
        if (fs) {
            static const int greg[16] = { REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
                                          REG_R8,  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15 };
            for (unsigned k = 0; k < fs->n; k++)
                current_cpu->x[fs->slot[k]] = (uint64_t)uc->uc_mcontext.gregs[greg[fs->hreg[k] & 15]];
            native_flags_again(current_cpu, fs->flags_op); /* NZCV the block left stale */
            last_fault_sig = sig;
            cpu_raise(current_cpu, (Op *)fs->op, EXC_DATA_ABORT, ga, write);
        }
#endif
        if (current_cpu && current_cpu->cur_op) {
            last_fault_sig = sig;
            cpu_raise(current_cpu, current_cpu->cur_op, EXC_DATA_ABORT, ga, write);
        }
    }
    /* A genuine host crash: report it with the default action. */
    sigaction(SIGSEGV, &old_segv, NULL);
    (void)sig;
}

static int guest_mem_install_fault_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = segv_handler;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, &old_segv) != 0)
        return -errno;
    return sigaction(SIGBUS, &sa, NULL) != 0 ? -errno : 0;
}
