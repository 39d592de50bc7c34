/* Blocking host system calls that cannot miss a guest signal.
 *
 * A signal that arrives after the runtime last looked for pending signals but before the host
 * kernel starts to wait would otherwise only be delivered when the wait ends (maybe never).
 * user_safe_syscall() tests the thread's "signal pending" flag immediately before the SYSCALL
 * instruction; the host signal handler, seeing the interrupted pc between that test and the
 * SYSCALL, moves it to a path that returns -EINTR (signal_fixup_pc()).  After the SYSCALL starts,
 * the host kernel itself returns -EINTR because our handlers are installed without SA_RESTART. */
#include <stdint.h>
#include "user.h"

#if defined(__x86_64__)
/* long malibu_safe_syscall(volatile int *pending, long nr, long a1, long a2, long a3, long a4,
 *                          long a5, long a6): raw result (-errno on failure). */
__asm__(".text\n"
        ".globl malibu_safe_syscall\n"
        ".type malibu_safe_syscall, @function\n"
        "malibu_safe_syscall:\n"
        "    push %rbx\n"
        "    mov %rdi, %rbx\n"          /* pending flag */
        "    mov %rsi, %rax\n"          /* number */
        "    mov %rdx, %rdi\n"          /* a1 */
        "    mov %rcx, %rsi\n"          /* a2 */
        "    mov %r8, %rdx\n"           /* a3 */
        "    mov %r9, %r10\n"           /* a4 */
        "    mov 16(%rsp), %r8\n"       /* a5 */
        "    mov 24(%rsp), %r9\n"       /* a6 */
        ".globl malibu_safe_syscall_start\n"
        "malibu_safe_syscall_start:\n"
        "    cmpl $0, (%rbx)\n"
        "    jne malibu_safe_syscall_eintr\n"
        "    syscall\n"
        ".globl malibu_safe_syscall_end\n"
        "malibu_safe_syscall_end:\n"
        "    pop %rbx\n"
        "    ret\n"
        ".globl malibu_safe_syscall_eintr\n"
        "malibu_safe_syscall_eintr:\n"
        "    mov $-4, %rax\n"           /* -EINTR */
        "    pop %rbx\n"
        "    ret\n"
        ".size malibu_safe_syscall, . - malibu_safe_syscall\n");

long malibu_safe_syscall(volatile int *pending, long nr, long a1, long a2, long a3, long a4, long a5, long a6);
extern const char malibu_safe_syscall_start[], malibu_safe_syscall_end[], malibu_safe_syscall_eintr[];

long user_safe_syscall(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
    return malibu_safe_syscall(signal_pending_flag(), nr, a1, a2, a3, a4, a5, a6);
}

uintptr_t safe_syscall_fixup(uintptr_t pc)
{
    if (pc >= (uintptr_t)malibu_safe_syscall_start && pc < (uintptr_t)malibu_safe_syscall_end)
        return (uintptr_t)malibu_safe_syscall_eintr;
    return pc;
}
#else
#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>
/* Other hosts: plain system calls (a signal racing with the start of a wait is delivered late). */
long user_safe_syscall(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
    if (*signal_pending_flag())
        return -EINTR;
    long r = syscall(nr, a1, a2, a3, a4, a5, a6);
    return r == -1 ? -errno : r;
}

uintptr_t safe_syscall_fixup(uintptr_t pc)
{
    return pc;
}
#endif
