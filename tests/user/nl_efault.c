/* Hostile pointers: system calls given unmapped, kernel-half and read-only addresses must fail
 * with EFAULT (never crash the runner).  Needs: int branch mem sys. */
#include "nolibc.h"

#define BAD1 0x10ul                 /* unmapped low page */
#define BAD2 0xdeadbeef000ul        /* unmapped */
#define BAD3 0xffff800000000000ul   /* kernel half */
#define BAD4 0x00007ffffffff000ul   /* above a 40-bit window, below 47 bits */

static const char rodata[64] = "read-only";

static void t(const char *name, long r)
{
    puts_(name);
    puts_(" ");
    putnum(r);
    puts_("\n");
}

int main(int argc, char **argv)
{
    (void)argc; (void)argv;
    const unsigned long bad[] = { BAD1, BAD2, BAD3, BAD4 };
    int p[2];
    sc2(SYS_pipe2, p, 0);
    sc3(SYS_write, p[1], "abcdefgh", 8);
    for (int i = 0; i < 4; i++) {
        long b = (long)bad[i];
        puts_("-- bad pointer ");
        putnum(i);
        puts_("\n");
        t("write", sc3(SYS_write, 1, b, 10));
        t("read", sc3(SYS_read, p[0], b, 1));
        t("openat", sc4(SYS_openat, -100, b, 0, 0));
        t("fstat", sc2(80, 0, b));
        t("newfstatat", sc4(79, -100, b, b, 0));
        t("clock_gettime", sc2(113, 1, b));
        t("uname", sc1(160, b));
        t("getcwd", sc2(17, b, 100));
        t("pipe2", sc2(SYS_pipe2, b, 0));
        t("rt_sigaction", sc4(SYS_rt_sigaction, 10, b, 0, 8));
        t("rt_sigaction old", sc4(SYS_rt_sigaction, 10, 0, b, 8));
        t("rt_sigprocmask", sc4(SYS_rt_sigprocmask, 0, b, 0, 8));
        t("sigaltstack", sc2(SYS_sigaltstack, b, 0));
        long iov[2] = { b, 4 };
        t("writev bad base", sc3(66, 1, iov, 1));
        t("writev bad iov", sc3(66, 1, b, 1));
        t("getrandom", sc3(278, b, 16, 0));
        t("getdents64", sc3(61, p[0], b, 100));
        t("sysinfo", sc1(179, b));
        t("prlimit64", sc4(261, 0, 7, 0, b));
        t("sched_getaffinity", sc3(123, 0, 128, b));
        /* nanosleep left out: Linux says EFAULT, qemu-aarch64 7.2 EINVAL */
        long av[2] = { b, 0 };
        t("execve path", sc3(SYS_execve, b, 0, 0));
        t("execve argv", sc3(SYS_execve, "/proc/self/exe", av, 0));
        t("futex", sc6(SYS_futex, b, 0, 1, 0, 0, 0));
        t("mprotect unaligned", sc3(SYS_mprotect, b + 1, 4096, 3));
        t("munmap unaligned", sc2(SYS_munmap, b + 1, 4096));
    }
    t("read into rodata", sc3(SYS_read, p[0], rodata, 1));
    t("clock_gettime rodata", sc2(113, 1, rodata));
    t("write from rodata", sc3(SYS_write, 1, rodata, 9));
    puts_("\n");
    return 0;
}
