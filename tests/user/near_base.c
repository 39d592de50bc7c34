/* Guest accesses off a base register that an earlier access of the same block checked: the
 * native back end leaves their own check out (native_emit.h, NCtx.near), so an access past the
 * end of the guest address space must still be a data abort at its own address, and a base
 * written in between (a move, a load into it, a writeback) must be checked again.  Each case
 * runs hot (compiled) on the last page below 1 TiB, where the second access of the pair lands
 * just past it, and with the base moved to an address no mapping can have. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

static volatile unsigned long faults, fault_addr;

static void handler(int sig, siginfo_t *si, void *ctx)
{
    ucontext_t *uc = ctx;
    (void)sig;
    fault_addr = (unsigned long)si->si_addr;
    faults++;
    uc->uc_mcontext.pc += 4; /* skip the access */
}

/* The second load 4 KiB past the first. */
static unsigned long far_load(unsigned long p, unsigned long q)
{
    unsigned long a = 0, b = 0;
    (void)q;
    __asm__ volatile("ldr %[a], [%[p]]\n\t"
                     "ldr %[b], [%[p], #4096]\n\t"
                     : [a] "+&r"(a), [b] "+&r"(b) : [p] "r"(p) : "memory");
    return a + b;
}

/* The same for stores. */
static unsigned long far_store(unsigned long p, unsigned long q)
{
    unsigned long v = 7;
    (void)q;
    __asm__ volatile("str %[v], [%[p], #8]\n\t"
                     "str %[v], [%[p], #4104]\n\t"
                     : : [p] "r"(p), [v] "r"(v) : "memory");
    return 0;
}

/* The base moved to q between the loads. */
static unsigned long moved(unsigned long p, unsigned long q)
{
    unsigned long a = 0, b = 0;
    __asm__ volatile("ldr %[a], [%[p]]\n\t"
                     "add %[a], %[a], #1\n\t"
                     "mov %[p], %[q]\n\t"
                     "ldr %[b], [%[p], #8]\n\t"
                     : [a] "+&r"(a), [b] "+&r"(b), [p] "+&r"(p) : [q] "r"(q) : "memory");
    return a + b;
}

/* The base loaded from memory (p[2] holds q) by a load off itself. */
static unsigned long loaded(unsigned long p, unsigned long q)
{
    unsigned long b = 0;
    (void)q;
    __asm__ volatile("ldr %[p], [%[p], #16]\n\t"
                     "ldr %[b], [%[p], #8]\n\t"
                     : [b] "+&r"(b), [p] "+&r"(p) : : "memory");
    return b;
}

/* Post- and pre-indexed writebacks: the new base is near too, its next access unchecked. */
static unsigned long post_index(unsigned long p, unsigned long q)
{
    unsigned long a = 0, b = 0;
    (void)q;
    __asm__ volatile("ldr %[a], [%[p]], #16\n\t"
                     "ldr %[b], [%[p], #4080]\n\t"
                     : [a] "+&r"(a), [b] "+&r"(b), [p] "+&r"(p) : : "memory");
    return a + b;
}

static unsigned long pre_index(unsigned long p, unsigned long q)
{
    unsigned long a = 0, b = 0;
    (void)q;
    __asm__ volatile("ldr %[a], [%[p], #8]!\n\t"
                     "ldr %[b], [%[p], #4088]\n\t"
                     : [a] "+&r"(a), [b] "+&r"(b), [p] "+&r"(p) : : "memory");
    return a + b;
}

/* A load pair into the base and another register, then an access off the base. */
static unsigned long pair_into_base(unsigned long p, unsigned long q)
{
    unsigned long a = 0, b = 0;
    (void)q;
    __asm__ volatile("ldp %[a], %[p], [%[p], #8]\n\t"
                     "ldr %[b], [%[p], #8]\n\t"
                     : [a] "+&r"(a), [b] "+&r"(b), [p] "+&r"(p) : : "memory");
    return a + b;
}

/* Two register-indexed loads off one base: the first one's completion bounds the base by its
 * index's range, which leaves the second one's check out; past the last page it must still be a
 * data abort at its own address. */
static unsigned long index_pair(unsigned long p, unsigned long q)
{
    unsigned long a = 0, b = 0;
    unsigned i = 8, j = 4096 + 8;
    (void)q;
    __asm__ volatile("ldr %[a], [%[p], %w[i], uxtw]\n\t"
                     "ldr %[b], [%[p], %w[j], uxtw]\n\t"
                     : [a] "+&r"(a), [b] "+&r"(b) : [p] "r"(p), [i] "r"(i), [j] "r"(j) : "memory");
    return a + b;
}

/* Loops whose block starts at the loop head, so that the head assumes its base registers near
 * the window and the block checks them on entry (native_near.c).
 * inv_loop(p, n, use, 0, 0, 0): the sum of p[1] over n rounds where use is set; the access is
 * skipped when use is 0, so a bad p must not fault then (the entry check fails, the block is
 * compiled again without the assumption).
 * derived(base, idx, off, n, 0, 0, 0): the sum of n loads of the byte at base + idx (UXTW) + off (SXTW):
 * the address may lie below 0 (the host kernel's half for generated code) or past 1 TiB. */
unsigned long inv_loop(unsigned long p, unsigned long n, unsigned long use, unsigned long s, unsigned long i,
                       unsigned long t);
unsigned long derived(unsigned long base, unsigned long idx, unsigned long off, unsigned long n, unsigned long u,
                      unsigned long v, unsigned long s);
__asm__(".text\n"
        ".globl inv_loop\n"
        "inv_loop:\n"
        "    cbz x2, 2f\n"
        "    ldr x5, [x0, #8]\n"
        "    add x3, x3, x5\n"
        "2:  add x4, x4, #1\n"
        "    cmp x4, x1\n"
        "    b.ne inv_loop\n"
        "    mov x0, x3\n"
        "    ret\n"
        ".globl derived\n"
        "derived:\n"
        "    add x4, x0, w1, uxtw\n"
        "    ldrb w5, [x4, w2, sxtw]\n"
        "    add x6, x6, x5\n"
        "    subs x3, x3, #1\n"
        "    b.ne derived\n"
        "    mov x0, x6\n"
        "    ret\n");

/* A block without a loop checks the registers it first uses as a base on entry (native_near.c):
 * maybe_load(p, use) is p[1] when use is set, else 0, so a bad p must not fault when use is 0.
 * narrow_index(base, pv, n): n rounds of the bytes at base + *pv (a 32-bit value, SXTW), at
 * base + (*pv & 0xff) (UXTW) and of *pv zero- and sign-extended by ADDs: the 32-bit load's value
 * is below 2^32, not 2^31, so the SXTW forms must extend it, while the masked one may index as
 * it stands. */
unsigned long maybe_load(unsigned long p, unsigned long use);
unsigned long narrow_index(unsigned long base, unsigned long pv, unsigned long n);
__asm__(".text\n"
        ".globl maybe_load\n"
        "maybe_load:\n"
        "    mov x5, #0\n"
        "    cbz x1, 1f\n"
        "    ldr x5, [x0, #8]\n"
        "1:  mov x0, x5\n"
        "    ret\n"
        ".globl narrow_index\n"
        "narrow_index:\n"
        "    mov x7, #0\n"
        "1:  ldr w3, [x1]\n"
        "    ldrb w4, [x0, w3, sxtw]\n"
        "    and w5, w3, #0xff\n"
        "    ldrb w5, [x0, w5, uxtw]\n"
        "    add x6, x0, w3, uxtw\n"
        "    sub x6, x6, x0\n"
        "    add x8, x0, w3, sxtw\n"
        "    sub x8, x8, x0\n"
        "    add x7, x7, x4\n"
        "    add x7, x7, x5\n"
        "    add x7, x7, x6\n"
        "    eor x7, x7, x8\n"
        "    subs x2, x2, #1\n"
        "    b.ne 1b\n"
        "    mov x0, x7\n"
        "    ret\n");

static unsigned char low_bytes[4096]; /* in the binary's data: a low address */

static void entry_checks(unsigned long good, unsigned long bad)
{
    unsigned long r = 0;
    faults = 0;
    for (int k = 0; k < 50; k++)
        r += maybe_load(good, 1);
    printf("maybe_load good %#lx faults %lu\n", r, faults);
    r = maybe_load(bad, 0);
    printf("maybe_load bad unused %#lx faults %lu\n", r, faults);
    fault_addr = 0;
    r = maybe_load(bad, 1);
    printf("maybe_load bad used %#lx faults %lu at %#lx\n", r, faults, fault_addr);
    faults = 0, r = 0;
    for (int k = 0; k < 50; k++)
        r += maybe_load(good, 1) + maybe_load(bad, 0) + maybe_load(bad, 1);
    printf("maybe_load both %#lx faults %lu at %#lx\n", r, faults, fault_addr);

    static const unsigned vals[] = { 0, 5, 0xfffffffb, 0x80000000u + 7, 0x7fffffff };
    unsigned char *mid = low_bytes + sizeof low_bytes / 2;
    for (unsigned k = 0; k < sizeof vals / sizeof vals[0]; k++) {
        unsigned v = vals[k];
        faults = 0, fault_addr = 0, r = 0;
        for (int j = 0; j < 30; j++)
            r += narrow_index((unsigned long)mid, (unsigned long)&v, 3);
        printf("narrow_index %#x: %#lx faults %lu at %#lx\n", v, r, faults, fault_addr & 0x00fffffffffffffful);
    }
}

static void loops(unsigned long good, unsigned long bad)
{
    unsigned long r = 0;
    faults = 0;
    for (int k = 0; k < 50; k++)
        r += inv_loop(good, 10, 1, 0, 0, 0);
    printf("inv_loop good %#lx faults %lu\n", r, faults);
    r = inv_loop(bad, 10, 0, 0, 0, 0);
    printf("inv_loop bad unused %#lx faults %lu\n", r, faults);
    fault_addr = 0;
    r = inv_loop(bad, 10, 1, 0, 0, 0);
    printf("inv_loop bad used %#lx faults %lu at %#lx\n", r, faults, fault_addr);
    faults = 0, r = 0;
    for (int k = 0; k < 50; k++)
        r += inv_loop(good, 10, 1, 0, 0, 0) + inv_loop(bad, 3, 0, 0, 0, 0);
    printf("inv_loop both %#lx faults %lu\n", r, faults);

    for (unsigned i = 0; i < sizeof low_bytes; i++)
        low_bytes[i] = (unsigned char)(i * 7);
    unsigned long lb = (unsigned long)low_bytes;
    static const long offs[] = { 5, -5, 100, -(1l << 31), 0x7fffffff };
    static const unsigned long idxs[] = { 0, 3, 0xffffffff };
    for (unsigned a = 0; a < sizeof idxs / sizeof idxs[0]; a++)
        for (unsigned b = 0; b < sizeof offs / sizeof offs[0]; b++) {
            unsigned long idx = idxs[a];
            long off = offs[b];
            faults = 0, fault_addr = 0, r = 0;
            for (int k = 0; k < 30; k++)
                r += derived(lb + 64, idx, (unsigned long)off, 4, 0, 0, 0);
            /* the tag byte as Linux reports it (cleared) */
            printf("derived idx %#lx off %ld: %#lx faults %lu at %#lx\n", idx, off, r, faults,
                   fault_addr & 0x00fffffffffffffful);
        }
}

static void run(const char *name, unsigned long (*f)(unsigned long, unsigned long), unsigned long good,
                unsigned long last, unsigned long bad)
{
    unsigned long r = 0;
    unsigned long n_last = 0, a_last = 0, n_bad = 0, a_bad = 0;
    for (int i = 0; i < 200; i++) { /* hot: compiled natively */
        faults = 0;
        r += f(good, bad);
        unsigned long base = faults;
        fault_addr = 0;
        r += f(last, bad);
        n_last += faults - base, a_last = fault_addr;
        base = faults;
        fault_addr = 0;
        r += f(bad, bad);
        n_bad += faults - base, a_bad = fault_addr;
    }
    printf("%-14s faults on the last page %lu at %#lx, off the bad base %lu at %#lx (%#lx)\n", name, n_last,
           a_last, n_bad, a_bad, r);
}

int main(void)
{
    const unsigned long top = 1ul << 40, page = 4096;
    const unsigned long bad = 3ul << 41; /* outside any guest mapping */
    unsigned long *last = mmap((void *)(top - page), page, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    unsigned long *good = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (last == MAP_FAILED || good == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    for (unsigned i = 0; i < page / 8; i++)
        last[i] = i, good[i] = 3 * i, good[i + page / 8] = 5 * i;
    last[2] = good[2] = bad;
    good[page / 8 + 2] = bad;
    struct sigaction sa = { .sa_sigaction = handler, .sa_flags = SA_SIGINFO };
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    unsigned long g = (unsigned long)good, l = (unsigned long)last;
    run("far load", far_load, g, l, bad);
    run("far store", far_store, g, l, bad);
    run("moved", moved, g, l, bad);
    run("loaded", loaded, g, l, bad);
    run("post-index", post_index, g, l, bad);
    run("pre-index", pre_index, g, l, bad);
    run("index pair", index_pair, g, l, bad);
    last[2] = good[2] = bad;
    run("pair into base", pair_into_base, g, l, bad);
    printf("last page %lx %lx\n", last[1], last[2]);
    loops(g, bad);
    entry_checks(g, bad);
    return 0;
}
