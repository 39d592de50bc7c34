/* Signal delivery: SIGSEGV (map/access errors), SIGILL, SIGTRAP, SIGBUS-free user signals,
 * masks, SA_RESETHAND, sigaltstack, siglongjmp out of handlers. */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static sigjmp_buf jb;
static volatile int got_sig, got_code;
static void *volatile got_addr;

static void fault_handler(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    got_sig = sig;
    got_code = si->si_code;
    got_addr = si->si_addr;
    siglongjmp(jb, 1);
}

static volatile int usr_count;
static void usr_handler(int sig) { (void)sig; usr_count++; }

static int on_alt;
static char altstack[65536];
static void alt_handler(int sig)
{
    (void)sig;
    char x;
    on_alt = &x >= altstack && &x < altstack + sizeof altstack;
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fault_handler;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGILL, &sa, NULL);
    sigaction(SIGTRAP, &sa, NULL);

    if (!sigsetjmp(jb, 1))
        *(volatile int *)16 = 1;
    printf("segv: sig %d code %d (MAPERR) addr %p\n", got_sig, got_code, got_addr);

    char *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!sigsetjmp(jb, 1))
        p[100] = 1;
    printf("segv: sig %d code %d (ACCERR) addr ok %d\n", got_sig, got_code, got_addr == p + 100);

    got_sig = 0;
    if (!sigsetjmp(jb, 1))
        __asm__ volatile(".inst 0x00000000");
    printf("ill: sig %d\n", got_sig);

    got_sig = 0;
    if (!sigsetjmp(jb, 1))
        __asm__ volatile("brk #3");
    printf("trap: sig %d\n", got_sig);

    signal(SIGUSR1, usr_handler);
    raise(SIGUSR1);
    printf("usr1 count %d\n", usr_count);
    sigset_t s, old;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR1);
    sigprocmask(SIG_BLOCK, &s, &old);
    raise(SIGUSR1);
    sigset_t pend;
    sigpending(&pend);
    printf("blocked: count %d pending %d\n", usr_count, sigismember(&pend, SIGUSR1));
    sigprocmask(SIG_SETMASK, &old, NULL);
    printf("unblocked: count %d\n", usr_count);

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = usr_handler;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGUSR2, &sa, NULL);
    raise(SIGUSR2);
    struct sigaction cur;
    sigaction(SIGUSR2, NULL, &cur);
    printf("resethand: count %d now default %d\n", usr_count, cur.sa_handler == SIG_DFL);

    stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0 };
    sigaltstack(&ss, NULL);
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = alt_handler;
    sa.sa_flags = SA_ONSTACK;
    sigaction(SIGWINCH, &sa, NULL);
    raise(SIGWINCH);
    printf("on altstack: %d\n", on_alt);

    signal(SIGTERM, SIG_IGN);
    raise(SIGTERM);
    printf("ignored SIGTERM\n");
    fflush(stdout);
    signal(SIGTERM, SIG_DFL);
    raise(SIGTERM);
    printf("not reached\n");
    return 0;
}
