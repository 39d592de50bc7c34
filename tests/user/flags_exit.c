/* NZCV across a conditional branch's exit while timer signals arrive.  The native back end
 * keeps a compare's flags in host EFLAGS through the taken side's exit and stores them only
 * where the next block needs them: on the way to a block that reads them first, and whenever
 * it leaves for the run loop instead (a pending signal) before that block.  The loop's taken
 * side goes to a block whose first instruction reads Z (CSET), so a lost store counts an even
 * number as odd (the block leaves NE in CPUState: MRS NZCV reads them there); the other loop
 * goes to a block that compares first.  A SIGALRM every 100 us
 * makes the run loop take some of those exits. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static volatile unsigned long ticks;

static void on_alarm(int sig)
{
    (void)sig;
    ticks++;
}

/* i from 1 to n: the evens, counted by a CSET of the taken side's flags; at_taken runs first
 * in the taken side's block. */
#define EVENS_LOOP(at_taken)                                                                     \
    __asm__ volatile("cmp %[i], #1\n\t" /* NE going in */                                      \
                     "1:\n\t"                                                                    \
                     "add %[i], %[i], #1\n\t"                                                    \
                     "and %[t], %[i], #1\n\t"                                                    \
                     "cmp %[t], #0\n\t"                                                          \
                     "b.eq 2f\n\t"                                                               \
                     "cmp %[i], %[n]\n\t"                                                        \
                     "b.lo 1b\n\t"                                                               \
                     "b 3f\n\t"                                                                  \
                     "2:\n\t" at_taken "cset %[z], eq\n\t"                                       \
                     "add %[e], %[e], %[z]\n\t"                                                  \
                     "cmp %[i], %[n]\n\t"                                                        \
                     "mrs %[q], nzcv\n\t" /* NE into CPUState before the next taken side */     \
                     "b.lo 1b\n\t"                                                               \
                     "3:\n\t"                                                                    \
                     : [i] "+&r"(i), [e] "+&r"(evens), [t] "=&r"(t), [z] "=&r"(z), [q] "=&r"(q)  \
                     : [n] "r"(n)                                                                \
                     : "cc")

/* The taken side's block reads the flags first. */
static unsigned long evens_by_cset(unsigned long n)
{
    unsigned long i = 0, evens = 0, t, z, q;
    EVENS_LOOP("");
    return evens;
}

/* The taken side's block compares before it reads the flags. */
static unsigned long evens_by_compare(unsigned long n)
{
    unsigned long i = 0, evens = 0, t, z, q;
    EVENS_LOOP("cmp %[t], #0\n\t");
    return evens;
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = { .it_interval = { 0, 100 }, .it_value = { 0, 100 } };
    setitimer(ITIMER_REAL, &it, NULL);
    const unsigned long n = 4000000;
    int bad = 0;
    for (int round = 0; round < 4; round++) {
        unsigned long a = evens_by_cset(n), b = evens_by_compare(n);
        printf("round %d: evens by cset %lu, by compare %lu\n", round, a, b);
        bad |= a != n / 2 || b != n / 2;
    }
    struct itimerval off = { 0 };
    setitimer(ITIMER_REAL, &off, NULL);
    printf("%s\n", bad ? "FAIL" : "PASS");
    fprintf(stderr, "flags_exit: %lu timer signals\n", ticks);
    return bad;
}
