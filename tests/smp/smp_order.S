/* Bare-metal SMP order test for build/malibu --smp 4 (tests/smp/order_test.sh): CPU 0 starts
 * CPUs 1-3 with PSCI CPU_ON (their MPIDRs 0x1, 0x100, 0x101: Juno's clusters), then every CPU
 * takes ITERS tickets from a shared counter with an LDXR/STXR loop and writes its number into
 * log[ticket].  When all are done CPU 0 prints the order in which CPUs took turns (one digit per
 * run of tickets of the same CPU), the ticket count, and an FNV-1a hash of the whole log, then
 * powers off.  Interrupts stay masked and nothing reads a clock, so in --smp-mode rr two runs
 * must print the same lines; a lost update shows as a wrong ticket count. */
    .equ    UART, 0x7ff80000
    .equ    ITERS, 20000
    .equ    NEXT, 0x80100000          /* ticket counter */
    .equ    DONE, 0x80100040          /* CPUs finished */
    .equ    LOG, 0x80200000           /* one byte per ticket */
    .text
    .globl _start
_start:
    b       entry                     /* arm64 Image header, as tests/boot/hello.S */
    .word   0
    .quad   0x80000
    .quad   image_end - _start
    .quad   0x2
    .quad   0, 0, 0
    .ascii  "ARM\x64"
    .word   0
entry:
    ldr     x1, =NEXT
    str     xzr, [x1]
    ldr     x1, =DONE
    str     xzr, [x1]
    mov     x19, #1                   /* start CPUs 1..3 */
    adr     x21, mpidrs
1:  ldr     x1, [x21, x19, lsl #3]
    adr     x2, secondary
    mov     x3, x19
    ldr     x0, =0xC4000003           /* PSCI CPU_ON (SMC64) */
    hvc     #0
    cbnz    x0, fail
    add     x19, x19, #1
    cmp     x19, #4
    b.ne    1b
    mov     x0, #0
    bl      work
    ldr     x1, =DONE                 /* wait for the others */
2:  ldr     x2, [x1]
    cmp     x2, #4
    b.ne    2b
    dmb     ish
    ldr     x20, =UART
    adr     x0, msg_order
    bl      puts
    ldr     x3, =LOG                  /* one digit per run */
    ldr     x4, =NEXT
    ldr     x4, [x4]                  /* tickets taken */
    mov     x5, #0
    mov     x6, #0xff                 /* previous CPU */
    ldr     x7, =0xcbf29ce484222325   /* FNV-1a */
    ldr     x8, =0x100000001b3
3:  cmp     x5, x4
    b.eq    4f
    ldrb    w9, [x3, x5]
    eor     x7, x7, x9
    mul     x7, x7, x8
    add     x5, x5, #1
    cmp     x9, x6
    b.eq    3b
    mov     x6, x9
    add     w9, w9, #'0'
    strb    w9, [x20]
    b       3b
4:  mov     w9, #'\n'
    strb    w9, [x20]
    adr     x0, msg_tickets
    bl      puts
    mov     x0, x4
    bl      puthex
    adr     x0, msg_hash
    bl      puts
    mov     x0, x7
    bl      puthex
    ldr     x0, =0x84000008           /* PSCI SYSTEM_OFF */
    hvc     #0
fail:
    ldr     x20, =UART
    adr     x0, msg_fail
    bl      puts
    ldr     x0, =0x84000008
    hvc     #0

secondary:                            /* x0 = context = CPU number */
    bl      work
5:  wfi
    b       5b

/* work(x0 = CPU number): ITERS tickets; then DONE += 1.  Uses x0-x6. */
work:
    ldr     x1, =NEXT
    ldr     x2, =LOG
    ldr     x3, =ITERS
6:  ldxr    x4, [x1]
    add     x5, x4, #1
    stxr    w6, x5, [x1]
    cbnz    w6, 6b
    strb    w0, [x2, x4]
    subs    x3, x3, #1
    b.ne    6b
    ldr     x1, =DONE
7:  ldxr    x4, [x1]
    add     x4, x4, #1
    stlxr   w6, x4, [x1]
    cbnz    w6, 7b
    ret

puts:
    ldrb    w1, [x0], #1
    cbz     w1, 8f
    strb    w1, [x20]
    b       puts
8:  ret

puthex:                               /* x0, 16 hex digits and a newline; uses x1-x3 */
    mov     x2, #60
9:  lsr     x1, x0, x2
    and     x1, x1, #15
    cmp     x1, #10
    add     x3, x1, #'0'
    add     x1, x1, #('a' - 10)
    csel    x1, x3, x1, lo
    strb    w1, [x20]
    subs    x2, x2, #4
    b.pl    9b
    mov     x1, #'\n'
    strb    w1, [x20]
    ret

    .align  3
mpidrs: .quad   0, 0x1, 0x100, 0x101
msg_order:   .asciz "order: "
msg_tickets: .asciz "tickets: "
msg_hash:    .asciz "hash: "
msg_fail:    .asciz "CPU_ON failed\n"
    .ltorg
    .align  12
image_end:
