/* Minimal static program: write(1, msg, len); exit_group(7).  Needs only ADR, MOVZ, SVC. */
    .text
    .globl _start
_start:
    mov     x0, #1
    adr     x1, msg
    mov     x2, #(msgend - msg)
    mov     x8, #64
    svc     #0
    mov     x0, #7
    mov     x8, #94
    svc     #0
    .section .rodata
msg:
    .ascii  "hello from asm\n"
msgend:
