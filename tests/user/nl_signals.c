/* Signals without libc: handlers with and without SA_RESTORER, SIGALRM from setitimer
 * interrupting a blocking read (EINTR without SA_RESTART, restarted with it), rt_sigsuspend,
 * masks and pending, a fault in a handler-protected page fixed up by mprotect in the handler,
 * and a nested signal frame.  Needs: int branch mem sys. */
#include "nolibc.h"

#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGALRM 14
#define SA_SIGINFO 4
#define SA_RESTORER 0x04000000
#define SA_RESTART 0x10000000
#define SA_NODEFER 0x40000000
#define EINTR 4

struct ksigaction { void *handler; unsigned long flags; void *restorer; unsigned long mask; };
struct itimerval { long isec, iusec, vsec, vusec; };

extern void restorer(void);
__asm__(".text\n.globl restorer\n.type restorer, %function\nrestorer:\n mov x8, #139\n svc #0\n");

static volatile int alarms, usr1, usr2_depth, usr2_max, segvs;
static int pipefd[2];
static char *page;

static void on_alarm(int sig)
{
    (void)sig;
    alarms++;
    sc3(SYS_write, pipefd[1], "x", 1);
}

static void on_usr1(int sig) { (void)sig; usr1++; }

static void on_usr2(int sig)
{
    usr2_depth++;
    if (usr2_depth > usr2_max)
        usr2_max = usr2_depth;
    if (usr2_depth < 3)
        sc2(SYS_kill, sc0(SYS_getpid), sig); /* SA_NODEFER: nests */
    usr2_depth--;
}

static void on_segv(int sig, void *info, void *uc)
{
    (void)sig; (void)uc;
    long addr = *(long *)((char *)info + 16);
    if (addr == (long)page + 8) {
        segvs++;
        sc3(SYS_mprotect, page, 4096, 3);
    } else {
        exit_(90);
    }
}

static long act(int sig, void *h, unsigned long flags, unsigned long mask)
{
    struct ksigaction a = { h, flags | (flags & SA_RESTORER ? 0 : 0), (flags & SA_RESTORER) ? (void *)restorer : 0, mask };
    return sc4(SYS_rt_sigaction, sig, &a, 0, 8);
}

static void arm_alarm(long usec)
{
    struct itimerval it = { 0, 0, 0, usec };
    sc3(SYS_setitimer, 0, &it, 0);
}

int main(int argc, char **argv)
{
    (void)argc; (void)argv;
    char c;
    sc2(SYS_pipe2, pipefd, 0);

    act(SIGALRM, on_alarm, SA_RESTORER, 0);
    arm_alarm(100000);
    long r = sc3(SYS_read, pipefd[0], &c, 1);
    say("read without SA_RESTART", r == -EINTR ? -EINTR : r);
    sc3(SYS_read, pipefd[0], &c, 1); /* drain the handler's byte */

    act(SIGALRM, on_alarm, SA_RESTART, 0); /* no restorer: the runtime's trampoline */
    arm_alarm(100000);
    r = sc3(SYS_read, pipefd[0], &c, 1);
    say("read with SA_RESTART", r);
    say("alarms", alarms);

    /* mask, pending, unblock */
    act(SIGUSR1, on_usr1, SA_RESTORER, 0);
    unsigned long set = 1ul << (SIGUSR1 - 1), old = 0, pend = 0;
    sc4(SYS_rt_sigprocmask, 0 /* SIG_BLOCK */, &set, &old, 8);
    sc2(SYS_kill, sc0(SYS_getpid), SIGUSR1);
    sc2(SYS_rt_sigpending, &pend, 8);
    say("usr1 while blocked", usr1);
    say("pending has usr1", (pend & set) != 0);
    sc4(SYS_rt_sigprocmask, 1 /* SIG_UNBLOCK */, &set, 0, 8);
    say("usr1 after unblock", usr1);

    /* rt_sigsuspend waits for SIGALRM with everything else blocked */
    unsigned long all = ~0ul, none_but_alarm = ~(1ul << (SIGALRM - 1));
    sc4(SYS_rt_sigprocmask, 2 /* SIG_SETMASK */, &all, &old, 8);
    arm_alarm(50000);
    r = sc2(SYS_rt_sigsuspend, &none_but_alarm, 8);
    say("sigsuspend", r);
    unsigned long now = 0;
    sc4(SYS_rt_sigprocmask, 2, 0, &now, 8);
    /* signals 63 and 64 left out: qemu-aarch64 cannot block them (Linux can) */
    unsigned long low62 = (1ul << 62) - 1;
    say("mask restored", (now & low62) == (all & low62 & ~((1ul << 8) | (1ul << 18))));
    sc4(SYS_rt_sigprocmask, 2, &old, 0, 8);
    sc3(SYS_read, pipefd[0], &c, 1);

    /* nested frames */
    act(SIGUSR2, on_usr2, SA_RESTORER | SA_NODEFER, 0);
    sc2(SYS_kill, sc0(SYS_getpid), SIGUSR2);
    say("usr2 nesting", usr2_max);

    /* fault, fixed by the handler, instruction retried */
    page = (char *)sc6(SYS_mmap, 0, 4096, 1 /* PROT_READ */, 0x22, -1, 0);
    act(SIGSEGV, (void *)on_segv, SA_RESTORER | SA_SIGINFO, 0);
    *(volatile long *)(page + 8) = 42;
    say("segv handled", segvs);
    say("value", *(volatile long *)(page + 8));
    return 0;
}
