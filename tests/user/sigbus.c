/* SIGBUS (BUS_ADRERR) for a file mapping touched past the end of the file. */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
static sigjmp_buf jb;
static void h(int sig, siginfo_t *si, void *uc) { (void)uc; printf("sig %d code %d\n", sig, si->si_code); siglongjmp(jb, 1); }
int main(void)
{
    char name[] = "/tmp/sigbusXXXXXX";
    int fd = mkstemp(name);
    write(fd, "abc", 3);
    char *p = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, fd, 0);
    unlink(name);
    struct sigaction sa = { .sa_sigaction = h, .sa_flags = SA_SIGINFO };
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGSEGV, &sa, NULL);
    printf("first page %c\n", p[1]);
    if (!sigsetjmp(jb, 1))
        printf("second page %d\n", p[4096]);
    return 0;
}
