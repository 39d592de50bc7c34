/* Signals: raise, blocked/pending, SIGSEGV and SIGILL recovered with siglongjmp, itimer, sigaltstack. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

static volatile sig_atomic_t usr1, alarms, on_alt;
static sigjmp_buf jb;
static volatile uintptr_t fault_off;
static volatile int fault_sig, fault_code;
static char *page;
static char altstack[65536];

static void h_usr1(int s) { usr1 += s; }
static void h_alrm(int s) { (void)s; alarms++; }
static void h_fault(int s, siginfo_t *si, void *uc)
{
    char local;
    on_alt = (&local >= altstack && &local < altstack + sizeof altstack);
    fault_sig = s;
    fault_code = si->si_code;
    fault_off = (uintptr_t)si->si_addr - (uintptr_t)page;
    (void)uc;
    siglongjmp(jb, 1);
}
static void h_ill(int s, siginfo_t *si, void *ucv)
{
    ucontext_t *uc = ucv;
    fault_sig = s;
    fault_code = si->si_code;
    fault_off = (uintptr_t)si->si_addr == uc->uc_mcontext.pc;
    uc->uc_mcontext.pc += 4;           /* skip the UDF */
    uc->uc_mcontext.regs[0] = 1234;    /* and change x0 */
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = h_usr1;
    sigaction(SIGUSR1, &sa, NULL);
    for (int i = 0; i < 5; i++) raise(SIGUSR1);
    printf("usr1 %d\n", (int)usr1);

    sigset_t set, old, pend;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    sigprocmask(SIG_BLOCK, &set, &old);
    raise(SIGUSR1);
    sigpending(&pend);
    printf("pending %d usr1 %d\n", sigismember(&pend, SIGUSR1), (int)usr1);
    sigprocmask(SIG_SETMASK, &old, NULL);
    printf("after unblock usr1 %d\n", (int)usr1);

    stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0 };
    sigaltstack(&ss, NULL);
    page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    sa.sa_handler = NULL;
    sa.sa_sigaction = h_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigaction(SIGSEGV, &sa, NULL);
    for (int i = 0; i < 3; i++) {
        if (sigsetjmp(jb, 1) == 0) {
            page[100 + i * 1000] = 1;
            printf("no fault?\n");
        } else {
            printf("segv sig %d code %d off %lu altstack %d\n", fault_sig, fault_code, (unsigned long)fault_off, (int)on_alt);
        }
    }
    munmap(page, 4096);
    if (sigsetjmp(jb, 1) == 0) {
        (void)*(volatile char *)(page + 8);
        printf("no fault?\n");
    } else {
        printf("unmapped sig %d code %d off %lu\n", fault_sig, fault_code, (unsigned long)fault_off);
    }

    sa.sa_sigaction = h_ill;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGILL, &sa, NULL);
    register uint64_t x0 asm("x0") = 7;
    asm volatile(".inst 0x00000000" : "+r"(x0));
    /* si_code not printed: Linux sends ILL_ILLOPC for UDF, qemu-aarch64 7.2 sends ILL_ILLOPN */
    printf("sigill sig %d addr==pc %d x0 %llu\n", fault_sig, (int)fault_off, (unsigned long long)x0);

    sa.sa_handler = h_alrm;
    sa.sa_flags = 0;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
    setitimer(ITIMER_REAL, &it, NULL);
    volatile uint64_t spin = 0;
    while (alarms < 5) spin++;
    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_REAL, &off, NULL);
    printf("alarms %d\n", alarms >= 5);
    return 0;
}
