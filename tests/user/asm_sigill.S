/* SIGILL handler without libc: rt_sigaction(SIGILL, SA_SIGINFO), UDF, the handler checks
 * x0 == SIGILL and si_code == ILL_ILLOPC (or ILL_ILLOPN, what qemu says), steps the saved pc over the UDF and returns through
 * the kernel-provided trampoline (no SA_RESTORER).  Exit status 0 on success. */
    .text
    .globl _start
_start:
    sub     sp, sp, #32
    adr     x0, handler
    str     x0, [sp]
    mov     x0, #4                  /* SA_SIGINFO */
    str     x0, [sp, #8]
    str     xzr, [sp, #16]
    str     xzr, [sp, #24]
    mov     x0, #4                  /* SIGILL */
    mov     x1, sp
    mov     x2, #0
    mov     x3, #8
    mov     x8, #134                /* rt_sigaction */
    svc     #0
    mov     x19, #0
    mov     x29, #0x123
    .inst   0x00000000              /* udf #0 */
    cmp     x29, #0x123            /* callee state preserved across the handler */
    b.ne    fail
    cmp     x19, #1
    b.ne    fail
    mov     x0, #1
    adr     x1, back
    mov     x2, #(backend - back)
    mov     x8, #64
    svc     #0
    mov     x0, #0
    mov     x8, #94
    svc     #0
fail:
    mov     x0, #1
    mov     x8, #94
    svc     #0

handler:                            /* x0 = signo, x1 = siginfo, x2 = ucontext */
    cmp     x0, #4
    b.ne    fail
    ldr     w3, [x1, #8]            /* si_code */
    cmp     w3, #1                  /* ILL_ILLOPC (Linux) */
    b.eq    1f
    cmp     w3, #2                  /* ILL_ILLOPN (qemu-aarch64 7.2 reports this) */
    b.ne    fail
1:
    ldr     x3, [x2, #440]          /* uc_mcontext.pc: 176 + 264 */
    add     x3, x3, #4
    str     x3, [x2, #440]
    mov     x4, #1
    str     x4, [x2, #(176 + 8 + 19 * 8)]   /* x19 = 1 in the saved context */
    mov     x9, x30
    mov     x0, #1
    adr     x1, msg
    mov     x2, #(msgend - msg)
    mov     x8, #64
    svc     #0
    mov     x30, x9
    ret

    .section .rodata
msg:    .ascii "in handler\n"
msgend:
back:   .ascii "back\n"
backend:
