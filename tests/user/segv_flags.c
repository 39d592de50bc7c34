/* NZCV in the signal context of a data abort: the flags a compare set just before a faulting
 * load, even where the native back end leaves their stores out because a later compare
 * overwrites them (the abort path recomputes them), also after a write to x0 following a
 * compare with an immediate.  Faults inside the guest address space
 * (a host fault) and outside it (the window check), in a loop so the code runs native. */
#include <signal.h>
#include <sys/mman.h>
#include <stdio.h>
#include <ucontext.h>

static volatile unsigned long seen, faults;

static void handler(int sig, siginfo_t *si, void *ctx)
{
    ucontext_t *uc = ctx;
    (void)sig; (void)si;
    seen = uc->uc_mcontext.pstate >> 28 & 15;
    uc->uc_mcontext.pc += 4; /* skip the load */
    faults++;
}

/* cmp a, b; a pure op; the faulting load; a compare that overwrites the flags. */
static unsigned long cmp_load(unsigned long a, unsigned long b, unsigned long p)
{
    unsigned long v = 0, t;
    __asm__ volatile("cmp %[a], %[b]\n\t"
                     "add %[t], %[a], #1\n\t"
                     "ldr %[v], [%[p]]\n\t"
                     "cmp %[b], %[a]\n\t"
                     : [v] "+&r"(v), [t] "=&r"(t) : [a] "r"(a), [b] "r"(b), [p] "r"(p) : "cc", "memory");
    return v + t;
}

/* adds into a fresh register, then the faulting store, then tst. */
static unsigned long adds_store(unsigned long a, unsigned long b, unsigned long p)
{
    unsigned long s;
    __asm__ volatile("adds %w[s], %w[a], %w[b]\n\t"
                     "str %[a], [%[p], #8]\n\t"
                     "tst %[b], #1\n\t"
                     : [s] "=&r"(s) : [a] "r"(a), [b] "r"(b), [p] "r"(p) : "cc", "memory");
    return s;
}

/* Fused compare-and-branch setters (tr_int.c's cmp + b.cond) whose branch leaves the block on
 * a side exit, the faulting load after it: the abort path recomputes NZCV with a flags-only
 * copy (native_ops.c fl_copy), also from the result where the setter overwrote its source. */
static unsigned long fused(unsigned long a, unsigned long b, unsigned long p)
{
    unsigned long v = 0, c = a, w = a;
    __asm__ volatile("cmp %[a], %[b]\n\t"          /* SUBS reg, 64-bit */
                     "b.vs 1f\n\t"
                     "ldr %[v], [%[p]]\n\t"
                     "cmp %[b], %[a]\n\t"
                     "1:\n\t"
                     "subs %w[c], %w[c], #1\n\t"    /* SUBS imm 32-bit, Wd == Wn */
                     "b.eq 2f\n\t"
                     "ldr %[v], [%[p], #8]\n\t"
                     "cmp %[b], %[a]\n\t"
                     "2:\n\t"
                     "adds %[w], %[w], #3\n\t"      /* ADDS imm 64-bit, Xd == Xn */
                     "b.vs 3f\n\t"
                     "ldr %[v], [%[p], #16]\n\t"
                     "cmp %[b], %[a]\n\t"
                     "3:\n\t"
                     "tst %w[a], %w[b]\n\t"         /* ANDS reg 32-bit */
                     "b.vs 4f\n\t"
                     "ldr %[v], [%[p], #24]\n\t"
                     "cmp %[b], %[a]\n\t"
                     "4:\n\t"
                     : [v] "+&r"(v), [c] "+&r"(c), [w] "+&r"(w) : [a] "r"(a), [b] "r"(b), [p] "r"(p)
                     : "cc", "memory");
    return v + c + w;
}

/* subs Xd, Xd, #imm (not fused) before the faulting load: NZCV from the result. */
static unsigned long subs_self(unsigned long a, unsigned long p)
{
    unsigned long v = 0, c = a;
    __asm__ volatile("subs %[c], %[c], #0x7ff\n\t"
                     "ldr %[v], [%[p]]\n\t"
                     "cmn %[c], #1\n\t"
                     : [v] "+&r"(v), [c] "+&r"(c) : [p] "r"(p) : "cc", "memory");
    return v + c;
}

static unsigned long nz[8], nfault;
static void list_handler(int sig, siginfo_t *si, void *ctx)
{
    ucontext_t *uc = ctx;
    (void)sig; (void)si;
    nz[nfault++ & 7] = uc->uc_mcontext.pstate >> 28 & 15;
    uc->uc_mcontext.pc += 4; /* skip the load */
}

/* cmp with an immediate, x0 written, the faulting load: the immediate form's unused register
 * slot m (0) is not x0, so the abort path may still recompute the flags from the compare. */
static unsigned long cmpi_x0_load(unsigned long a, unsigned long p)
{
    register unsigned long x0 __asm__("x0");
    unsigned long v = 0;
    __asm__ volatile("cmp %[a], #7\n\t"
                     "mov %[x0], #3\n\t"
                     "ldr %[v], [%[p]]\n\t"
                     "cmp %[p], %[a]\n\t"
                     : [v] "+&r"(v), [x0] "=&r"(x0) : [a] "r"(a), [p] "r"(p) : "cc", "memory");
    return v + x0;
}

/* A loop whose block branches to its own start, so that the native back end leaves the
 * counter compare's NZCV out of CPUState when it goes round (ne_loop_stale_edge): a load before
 * the counter's increment (p[i]) and one after it (q[i]; the abort path recomputes NZCV from the
 * counter less the increment), each faulting in the last round when p or q ends 24 or 32 bytes
 * before an inaccessible page, or both in every round at a bad address, where the loop's block
 * is entered each time by a CBZ's side exit with the flags of an unrelated compare (Z C). */
static unsigned long loop_loads(unsigned long a, unsigned long p, unsigned long q)
{
    unsigned long v = 0, i, z = 0;
    __asm__ volatile("mov %[i], #0\n\t"
                     "cmp %[a], %[a]\n\t"
                     "cbz %[z], 1f\n\t"
                     "nop\n\t"
                     "1:\n\t"
                     "ldr %[v], [%[p], %[i], lsl #3]\n\t"
                     "add %[i], %[i], #1\n\t"
                     "ldr %[v], [%[q], %[i], lsl #3]\n\t"
                     "cmp %[i], #4\n\t"
                     "b.ne 1b\n\t"
                     : [v] "+&r"(v), [i] "=&r"(i) : [a] "r"(a), [z] "r"(z), [p] "r"(p), [q] "r"(q)
                     : "cc", "memory");
    return v + i;
}

/* The same loop with its head inside a block (an op_loop_head label: the block starts at the
 * function, a compare's flags (Z C) before the loop), so the label's own back edge leaves NZCV
 * out: a fault in the first round must see Z C from CPUState (also right after a loop that
 * went round without storing NZCV), in a later round the counter compare's NZCV, recomputed
 * (from the counter less the increment after the ADD). */
static unsigned long inner_loop_loads(unsigned long a, unsigned long p, unsigned long q)
{
    unsigned long v = 0, i;
    __asm__ volatile("mov %[i], #0\n\t"
                     "cmp %[a], %[a]\n\t"
                     "1:\n\t"
                     "ldr %[v], [%[p], %[i], lsl #3]\n\t"
                     "add %[i], %[i], #1\n\t"
                     "ldr %[v], [%[q], %[i], lsl #3]\n\t"
                     "cmp %[i], #4\n\t"
                     "b.ne 1b\n\t"
                     "add %[v], %[v], %[i]\n\t"
                     : [v] "+&r"(v), [i] "=&r"(i) : [a] "r"(a), [p] "r"(p), [q] "r"(q)
                     : "cc", "memory");
    return v + i;
}

/* Each case: a round of the loop with good addresses, which leaves loop_nzcv_stale set on its
 * way out (the next call's way in must clear it), then one with p, q; the faults' NZCV. */
static void loop_cases(const char *name, unsigned long (*loop)(unsigned long, unsigned long, unsigned long),
                       const unsigned long pq[][2], unsigned n, unsigned long ok)
{
    for (unsigned k = 0; k < n; k++) {
        unsigned long r = 0;
        for (int i = 0; i < 300; i++) {
            nfault = 0;
            for (int j = 0; j < 8; j++)
                nz[j] = 99;
            r = loop(5, ok, ok);
            r += loop(3, pq[k][0], pq[k][1]);
        }
        printf("%s %u: (%lx) %lu faults, nzcv", name, k, r, nfault);
        for (unsigned j = 0; j < nfault && j < 8; j++)
            printf(" %lx", nz[j]);
        printf("\n");
    }
}

int main(void)
{
    static const unsigned long vals[][2] = {
        { 5, 5 }, { 3, 9 }, { 9, 3 }, { 0x8000000000000000ul, 1 }, { 1, 0x8000000000000000ul },
        { 0x7fffffff, 1 }, { 0xffffffff, 1 }, { 0, 0xffffffffffffffff },
    };
    static const unsigned long addrs[] = { 8, 0xfff0000000000000ul };
    struct sigaction sa = { .sa_sigaction = handler, .sa_flags = SA_SIGINFO };
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    for (unsigned k = 0; k < sizeof addrs / sizeof addrs[0]; k++)
        for (unsigned i = 0; i < sizeof vals / sizeof vals[0]; i++) {
            unsigned long r1 = 0, r2 = 0, r3 = 0, s1 = 0, s2 = 0, s3 = 0;
            for (int n = 0; n < 300; n++) { /* hot: compiled natively */
                r1 = cmp_load(vals[i][0], vals[i][1], addrs[k]);
                s1 = seen;
                r2 = adds_store(vals[i][0], vals[i][1], addrs[k]);
                s2 = seen;
                r3 = cmpi_x0_load(vals[i][0], addrs[k]);
                s3 = seen;
            }
            printf("addr %lx a %lx b %lx: cmp nzcv %lx (%lx), adds nzcv %lx (%lx), cmp #7 nzcv %lx (%lx)\n",
                   addrs[k], vals[i][0], vals[i][1], s1, r1, s2, r2, s3, r3);
        }
    struct sigaction la = { .sa_sigaction = list_handler, .sa_flags = SA_SIGINFO };
    sigaction(SIGSEGV, &la, NULL);
    sigaction(SIGBUS, &la, NULL);
    for (unsigned k = 0; k < sizeof addrs / sizeof addrs[0]; k++)
        for (unsigned i = 0; i < sizeof vals / sizeof vals[0]; i++) {
            unsigned long r = 0, s = 0;
            for (int n = 0; n < 300; n++) {
                nfault = 0;
                for (int j = 0; j < 8; j++)
                    nz[j] = 99;
                r = fused(vals[i][0], vals[i][1], addrs[k]);
                s = subs_self(vals[i][0], addrs[k]);
            }
            printf("fused addr %lx a %lx b %lx: (%lx %lx) %lu faults, nzcv", addrs[k], vals[i][0],
                   vals[i][1], r, s, nfault);
            for (unsigned j = 0; j < nfault && j < 8; j++)
                printf(" %lx", nz[j]);
            printf("\n");
        }
    char *pages = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED || mprotect(pages + 4096, 4096, PROT_NONE))
        return 1;
    const unsigned long ok = (unsigned long)pages, end = (unsigned long)pages + 4096;
    const unsigned long pq[][2] = { { 8, 8 }, { 0xfff0000000000000ul, 0xfff0000000000000ul },
                                    { end - 24, ok }, { ok, end - 32 } };
    loop_cases("loop", loop_loads, pq, sizeof pq / sizeof pq[0], ok);
    loop_cases("inner loop", inner_loop_loads, pq, sizeof pq / sizeof pq[0], ok);
    printf("faults %lu\n", faults);
    return 0;
}
