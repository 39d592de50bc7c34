/* A few lines of libc for test programs built with -nostdlib -mgeneral-regs-only: raw system
 * calls, output, no FP/SIMD instructions anywhere (so they run before those families land). */
#ifndef NOLIBC_H
#define NOLIBC_H

typedef unsigned long size_t;
typedef long ssize_t;
typedef unsigned long uint64_t;
typedef unsigned int uint32_t;
typedef int int32_t;
typedef unsigned char uint8_t;

#define SYS_openat 56
#define SYS_close 57
#define SYS_pipe2 59
#define SYS_read 63
#define SYS_write 64
#define SYS_exit 93
#define SYS_exit_group 94
#define SYS_futex 98
#define SYS_set_tid_address 96
#define SYS_nanosleep 101
#define SYS_setitimer 103
#define SYS_sched_yield 124
#define SYS_kill 129
#define SYS_tgkill 131
#define SYS_sigaltstack 132
#define SYS_rt_sigsuspend 133
#define SYS_rt_sigaction 134
#define SYS_rt_sigprocmask 135
#define SYS_rt_sigpending 136
#define SYS_rt_sigreturn 139
#define SYS_getpid 172
#define SYS_gettid 178
#define SYS_brk 214
#define SYS_munmap 215
#define SYS_mremap 216
#define SYS_clone 220
#define SYS_execve 221
#define SYS_mmap 222
#define SYS_mprotect 226
#define SYS_wait4 260

static inline long sc6(long n, long a, long b, long c, long d, long e, long f)
{
    register long x8 __asm__("x8") = n;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    register long x4 __asm__("x4") = e;
    register long x5 __asm__("x5") = f;
    __asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5) : "memory", "cc");
    return x0;
}
#define sc0(n) sc6(n, 0, 0, 0, 0, 0, 0)
#define sc1(n, a) sc6(n, (long)(a), 0, 0, 0, 0, 0)
#define sc2(n, a, b) sc6(n, (long)(a), (long)(b), 0, 0, 0, 0)
#define sc3(n, a, b, c) sc6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define sc4(n, a, b, c, d) sc6(n, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)
#define sc5(n, a, b, c, d, e) sc6(n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)

static inline size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

static inline void puts_(const char *s) { sc3(SYS_write, 1, s, strlen(s)); }

static inline void putnum(long v)
{
    char b[24];
    int i = 23;
    int neg = v < 0;
    unsigned long u = neg ? -(unsigned long)v : (unsigned long)v;
    b[i] = 0;
    do {
        b[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (neg)
        b[--i] = '-';
    puts_(b + i);
}

/* print "label value\n" */
static inline void say(const char *label, long v)
{
    puts_(label);
    puts_(" ");
    putnum(v);
    puts_("\n");
}

static inline void exit_(int code)
{
    sc1(SYS_exit_group, code);
    for (;;)
        ;
}

static inline void *memset(void *d, int c, size_t n)
{
    volatile char *p = d;
    for (size_t i = 0; i < n; i++)
        p[i] = (char)c;
    return d;
}

int main(int argc, char **argv);

/* Entry: sp points at argc. */
__asm__(".text\n.globl _start\n_start:\n mov x29, #0\n mov x30, #0\n ldr x0, [sp]\n add x1, sp, #8\n"
        " bl main\n mov x8, #94\n svc #0\n");

#endif
