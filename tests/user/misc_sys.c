/* Assorted system calls: eventfd, epoll, ppoll, timerfd, waitid, sigtimedwait, SCM_RIGHTS over a
 * socketpair, mremap, sbrk, prlimit, uname, statfs, getdents via scandir, /proc/self/maps. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHECK(x) do { if (!(x)) { printf("FAIL line %d: %s (errno %d)\n", __LINE__, #x, errno); return 1; } } while (0)

int main(void)
{
    int efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    CHECK(efd >= 0);
    int ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event ev = { .events = EPOLLIN, .data.u64 = 0x1122334455667788ull };
    CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev) == 0);
    struct epoll_event out[4];
    CHECK(epoll_wait(ep, out, 4, 0) == 0);
    uint64_t one = 3;
    CHECK(write(efd, &one, 8) == 8);
    CHECK(epoll_wait(ep, out, 4, 100) == 1);
    printf("epoll data %llx events %x\n", (unsigned long long)out[0].data.u64, out[0].events);
    uint64_t v;
    CHECK(read(efd, &v, 8) == 8);
    printf("eventfd %llu again %d\n", (unsigned long long)v, (int)read(efd, &v, 8));

    struct pollfd pf = { .fd = efd, .events = POLLIN };
    struct timespec ts = { 0, 20000000 };
    printf("ppoll timeout %d\n", ppoll(&pf, 1, &ts, NULL));

    int tfd = timerfd_create(CLOCK_MONOTONIC, 0);
    struct itimerspec its = { .it_value = { 0, 10000000 } };
    CHECK(timerfd_settime(tfd, 0, &its, NULL) == 0);
    CHECK(read(tfd, &v, 8) == 8);
    printf("timerfd expirations %llu\n", (unsigned long long)v);

    pid_t pid = fork();
    if (pid == 0)
        _exit(17);
    siginfo_t si;
    memset(&si, 0, sizeof si);
    CHECK(waitid(P_PID, pid, &si, WEXITED) == 0);
    printf("waitid code %d status %d pid ok %d\n", si.si_code, si.si_status, si.si_pid == pid);

    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR2);
    sigprocmask(SIG_BLOCK, &s, NULL);
    kill(getpid(), SIGUSR2);
    memset(&si, 0, sizeof si);
    printf("sigtimedwait %d code-user %d\n", sigtimedwait(&s, &si, &ts), si.si_code == SI_USER);
    printf("sigtimedwait again %d %d\n", sigtimedwait(&s, &si, &ts), errno == EAGAIN);

    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    int pfd[2];
    CHECK(pipe(pfd) == 0);
    char cbuf[CMSG_SPACE(sizeof(int))];
    struct iovec iov = { "fd!", 3 };
    struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf };
    struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
    cm->cmsg_level = SOL_SOCKET;
    cm->cmsg_type = SCM_RIGHTS;
    cm->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(cm), &pfd[1], sizeof(int));
    CHECK(sendmsg(sv[0], &mh, 0) == 3);
    char rb[8] = { 0 };
    char rc[CMSG_SPACE(sizeof(int))];
    struct iovec riov = { rb, sizeof rb };
    struct msghdr rm = { .msg_iov = &riov, .msg_iovlen = 1, .msg_control = rc, .msg_controllen = sizeof rc };
    CHECK(recvmsg(sv[1], &rm, 0) == 3);
    int got;
    memcpy(&got, CMSG_DATA(CMSG_FIRSTHDR(&rm)), sizeof got);
    CHECK(write(got, "via passed fd", 13) == 13);
    char pb[32] = { 0 };
    CHECK(read(pfd[0], pb, sizeof pb) == 13);
    printf("scm_rights: %s / %s\n", rb, pb);

    char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    strcpy(m + 4096, "kept");
    char *m2 = mremap(m, 8192, 1 << 20, MREMAP_MAYMOVE);
    CHECK(m2 != MAP_FAILED);
    m2[(1 << 20) - 1] = 1;
    printf("mremap kept: %s\n", m2 + 4096);
    CHECK(munmap(m2, 1 << 20) == 0);
    char *b0 = sbrk(0);
    CHECK(sbrk(100000) == b0);
    memset(b0, 1, 100000);
    CHECK(sbrk(-50000) != (void *)-1);
    printf("sbrk moved %ld\n", (long)((char *)sbrk(0) - b0));

    struct rlimit rl;
    CHECK(prlimit(0, RLIMIT_NOFILE, NULL, &rl) == 0);
    printf("nofile positive %d\n", rl.rlim_cur > 0);
    struct utsname u;
    uname(&u);
    printf("machine %s\n", u.machine);
    struct statfs sf;
    CHECK(statfs(".", &sf) == 0);
    printf("statfs bsize positive %d\n", sf.f_bsize > 0);

    FILE *f = fopen("/proc/self/maps", "r");
    CHECK(f);
    char line[512];
    int stack = 0, libc = 0;
    while (fgets(line, sizeof line, f)) {
        stack |= strstr(line, "[stack]") != NULL;
        libc |= strstr(line, "/libc.so.6\n") != NULL;
    }
    fclose(f);
    printf("maps has stack %d libc %d\n", stack, libc);
    pthread_attr_t a;
    void *sa;
    size_t ssz;
    CHECK(pthread_getattr_np(pthread_self(), &a) == 0);
    CHECK(pthread_attr_getstack(&a, &sa, &ssz) == 0);
    printf("main stack contains locals %d\n", (char *)&a >= (char *)sa && (char *)&a < (char *)sa + ssz);
    return 0;
}
