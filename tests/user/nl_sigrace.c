/* A signal racing with the start of a blocking syscall: one-shot timers of a few microseconds,
 * each followed at once by a read that only the signal handler can satisfy.  A runtime that
 * checks for signals and then enters the host read() without protection hangs here sooner or
 * later.  Needs: int branch mem sys. */
#include "nolibc.h"

#define SIGALRM 14
#define SA_RESTART 0x10000000
#define SA_RESTORER 0x04000000

struct ksigaction { void *handler; unsigned long flags; void *restorer; unsigned long mask; };
struct itimerval { long isec, iusec, vsec, vusec; };

extern void restorer2(void);
__asm__(".text\n.globl restorer2\n.type restorer2, %function\nrestorer2:\n mov x8, #139\n svc #0\n");

static int pfd[2];
static volatile int fired;

static void on_alarm(int sig)
{
    (void)sig;
    fired++;
    sc3(SYS_write, pfd[1], "x", 1);
}

int main(int argc, char **argv)
{
    (void)argc; (void)argv;
    sc2(SYS_pipe2, pfd, 0);
    struct ksigaction a = { (void *)on_alarm, SA_RESTART | SA_RESTORER, (void *)restorer2, 0 };
    sc4(SYS_rt_sigaction, SIGALRM, &a, 0, 8);
    int n = 3000;
    for (int i = 0; i < n; i++) {
        struct itimerval it = { 0, 0, 0, 1 + (i % 50) };
        sc3(SYS_setitimer, 0, &it, 0);
        char c;
        long r = sc3(SYS_read, pfd[0], &c, 1);
        if (r != 1) {
            say("read failed", r);
            return 1;
        }
    }
    say("iterations", n);
    say("signals", fired);
    return 0;
}
