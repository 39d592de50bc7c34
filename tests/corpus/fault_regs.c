/* Register state seen by a SIGSEGV handler: registers computed just before a faulting
 * load, store or load pair (values a translator may still hold in host registers) must be
 * in the signal context, the faulting instruction's effects must not be, and the pc must
 * be the faulting instruction's.  The handler skips the instruction and the run goes on. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

static volatile uint64_t seen[8];
static volatile uint64_t seen_pc_off;
static uint64_t probe_start;

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
    ucontext_t *uc = ctx;
    (void)sig;
    (void)si;
    for (int i = 0; i < 8; i++)
        seen[i] = uc->uc_mcontext.regs[i + 9];
    seen_pc_off = uc->uc_mcontext.pc - probe_start;
    uc->uc_mcontext.pc += 4; /* skip the faulting instruction */
}

/* Every probe's asm operands: it records label 1's address in probe_start and clobbers x9..x17. */
#define PROBE_OPERANDS                                                                        \
    : [start] "=m"(probe_start)                                                               \
    : [s] "r"(seed), [bad] "r"(bad)                                                           \
    : "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17", "memory"

/* x9..x16 are computed from `seed`, then the instruction at label 1 faults on `bad`. */
#define PROBE(NAME, FAULTING)                                                                 \
    static void NAME(uint64_t seed, void *bad)                                                \
    {                                                                                         \
        __asm__ volatile("adr x17, 1f\n\t"                                                    \
                         "str x17, %[start]\n\t"                                              \
                         "add x9, %[s], #1\n\t"                                               \
                         "eor x10, x9, %[s], lsl #7\n\t"                                      \
                         "sub x11, x10, x9\n\t"                                               \
                         "ror x12, x11, #13\n\t"                                              \
                         "add w13, w12, w10\n\t"                                              \
                         "mul x14, x12, x11\n\t"                                              \
                         "orr x15, x14, #0xff00\n\t"                                          \
                         "mov x16, x9\n\t"                                                    \
                         "1: " FAULTING "\n\t" PROBE_OPERANDS);                              \
    }

PROBE(probe_load, "ldr x16, [%[bad], #8]")
PROBE(probe_store, "str x15, [%[bad]]")
PROBE(probe_pair, "ldp x15, x16, [%[bad], #-16]!")

/* The start of the probes below: label 1 is the faulting instruction, x9..x14 = seed + 1..6. */
#define SEED_X9_X14                                                                           \
    "adr x17, 1f\n\t"                                                                        \
    "str x17, %[start]\n\t"                                                                  \
    "add x9, %[s], #1\n\t"                                                                   \
    "add x10, %[s], #2\n\t"                                                                  \
    "add x11, %[s], #3\n\t"                                                                  \
    "add x12, %[s], #4\n\t"                                                                  \
    "add x13, %[s], #5\n\t"                                                                  \
    "add x14, %[s], #6\n\t"

/* A probe whose x9..x14 are SEED_X9_X14's, then BODY (which ends in label 1). */
#define SEEDED_PROBE(NAME, BODY)                                                              \
    static void NAME(uint64_t seed, void *bad) { __asm__ volatile(SEED_X9_X14 BODY PROBE_OPERANDS); }

/* A load pair whose first half is readable and whose second faults: x15 and x16 must keep the
 * values computed just before (few registers live, so a translator still holds them). */
SEEDED_PROBE(probe_pair_split, "add x15, %[s], #7\n\t"
                               "eor x16, x15, %[s], lsl #9\n\t"
                               "1: ldp x15, x16, [%[bad], #-8]\n\t")
PROBE(probe_post, "ldr x9, [%[bad]], #32")

/* Loads off one base register one after the other, the third faulting: a translator may check
 * them once as a run.  The first two must have loaded (x15, x16), x9 keep its value, and the pc
 * be the third's. */
SEEDED_PROBE(probe_run_split, "ldr x15, [%[bad], #-16]\n\t"
                              "ldr x16, [%[bad], #-8]\n\t"
                              "1: ldr x9, [%[bad]]\n\t")

static void report(const char *what)
{
    printf("%s: pc+%llu", what, (unsigned long long)seen_pc_off);
    for (int i = 0; i < 8; i++)
        printf(" x%d=%016llx", i + 9, (unsigned long long)seen[i]);
    printf("\n");
    memset((void *)seen, 0, sizeof seen);
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    void *bad = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (bad == MAP_FAILED)
        return 1;
    char *two = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (two == MAP_FAILED || mprotect(two + 4096, 4096, PROT_NONE))
        return 1;
    memset(two, 0x5a, 4096);
    for (uint64_t seed = 1; seed < 4; seed++) {
        uint64_t s = seed * 0x9E3779B97F4A7C15ull;
        probe_load(s, bad);
        report("load");
        probe_store(s, bad);
        report("store");
        probe_pair(s, (char *)bad + 64);
        report("pair");
        probe_post(s, bad);
        report("post");
        probe_pair_split(s, two + 4096);
        report("pair split");
        probe_run_split(s, two + 4096);
        report("run split");
    }
    return 0;
}
