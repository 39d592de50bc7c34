/* Threads without libc: clone(CLONE_VM|CLONE_THREAD|CLONE_SETTLS|CLONE_CHILD_CLEARTID|...),
 * each thread adds to a shared counter with exclusives and exits; the creator waits on the
 * CLEARTID futexes.  Needs: int branch mem (exclusives) sys. */
#include "nolibc.h"

#define CLONE_VM 0x100
#define CLONE_FS 0x200
#define CLONE_FILES 0x400
#define CLONE_SIGHAND 0x800
#define CLONE_THREAD 0x10000
#define CLONE_SYSVSEM 0x40000
#define CLONE_SETTLS 0x80000
#define CLONE_PARENT_SETTID 0x100000
#define CLONE_CHILD_CLEARTID 0x200000
#define NTHREADS 4
#define ITER 20000

static volatile int counter;
static volatile int tids[NTHREADS];
static volatile int ptids[NTHREADS];
static char stacks[NTHREADS][16384] __attribute__((aligned(16)));
static long tls_area[NTHREADS][4];

static void add(volatile int *p, int v)
{
    __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
}

/* Runs on the new thread's stack; never returns. */
__attribute__((used, noinline)) void thread_body(long idx)
{
    long tp;
    __asm__ volatile("mrs %0, tpidr_el0" : "=r"(tp));
    if (tp != (long)&tls_area[idx][0])
        add(&counter, 1000000);
    for (int i = 0; i < ITER; i++)
        add(&counter, 1);
    sc1(SYS_exit, 0);
}

static long spawn(long idx)
{
    long flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM |
                 CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID;
    char *sp = stacks[idx] + sizeof stacks[idx];
    register long x8 __asm__("x8") = SYS_clone;
    register long x0 __asm__("x0") = flags;
    register long x1 __asm__("x1") = (long)sp;
    register long x2 __asm__("x2") = (long)&ptids[idx];
    register long x3 __asm__("x3") = (long)&tls_area[idx][0];
    register long x4 __asm__("x4") = (long)&tids[idx];
    register long x5 __asm__("x5") = idx;
    /* In the child (x0 == 0) call thread_body(idx) on the new stack. */
    __asm__ volatile("svc #0\n"
                     "cbnz x0, 1f\n"
                     "mov x0, x5\n"
                     "bl thread_body\n"
                     "1:\n"
                     : "+r"(x0)
                     : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
                     : "memory", "cc", "x30");
    return x0;
}

int main(int argc, char **argv)
{
    (void)argc; (void)argv;
    for (int i = 0; i < NTHREADS; i++) {
        tids[i] = -1;
        long t = spawn(i);
        if (t <= 0) {
            say("clone failed", t);
            return 1;
        }
        if (ptids[i] != t)
            say("parent_tid mismatch", i);
    }
    for (int i = 0; i < NTHREADS; i++) {
        int v;
        while ((v = tids[i]) != 0)
            sc6(SYS_futex, (long)&tids[i], 0 /* FUTEX_WAIT */, v, 0, 0, 0);
    }
    say("counter", counter);
    say("expected", NTHREADS * ITER);
    return counter == NTHREADS * ITER ? 0 : 1;
}
