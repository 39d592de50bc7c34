/* Bare-metal smoke test for build/malibu: prints on the PL011 with the MMU off, then with an
 * identity-mapped MMU on (TTBR0, 1 GB blocks), takes an SVC and an undefined-instruction
 * exception through VBAR_EL1, and powers off with PSCI SYSTEM_OFF (HVC #0). */
    .text
    .globl _start
_start:
    /* arm64 Image header (Documentation/arch/arm64/booting.rst): malibu boots only Images */
    b       entry                     /* code0 */
    .word   0                         /* code1 */
    .quad   0x80000                   /* text_offset: linked at RAM base + 0x80000 */
    .quad   image_end - _start        /* image_size */
    .quad   0x2                       /* flags: little-endian, 4K pages */
    .quad   0, 0, 0                   /* res2-res4 */
    .ascii  "ARM\x64"                 /* magic */
    .word   0                         /* res5 */
entry:
    adr     x0, stack_top
    mov     sp, x0
    ldr     x20, =0x7ff80000          /* PL011 data register */
    adr     x0, msg1
    bl      puts
    /* vectors */
    adr     x0, vectors
    msr     vbar_el1, x0
    /* page tables: L1 table at tt (1 GB blocks: 0-2G device, 2G-3G normal) */
    adr     x1, tt
    ldr     x2, =0x00000000000000401   /* block, AttrIndx 0 (device), AF */
    str     x2, [x1]
    ldr     x2, =0x00000000040000401   /* block at 1G (UART), device */
    str     x2, [x1, #8]
    ldr     x2, =0x0000000080000705    /* block at 2G, AttrIndx 1 (normal), AF, inner shareable */
    str     x2, [x1, #16]
    msr     ttbr0_el1, x1
    ldr     x2, =0xff00               /* MAIR: attr0 device nGnRnE, attr1 normal WB */
    msr     mair_el1, x2
    ldr     x2, =0x80803519           /* TCR: T0SZ=25 (39-bit, start L1), 4K, IRGN/ORGN WB, ISH, EPD1 */
    msr     tcr_el1, x2
    isb
    mrs     x2, sctlr_el1
    orr     x2, x2, #1
    msr     sctlr_el1, x2
    isb
    adr     x0, msg2
    bl      puts
    svc     #0x42
    adr     x0, msg4
    bl      puts
    .word   0x00000000                /* UDF: undefined */
    adr     x0, msg5
    bl      puts
    mrs     x0, currentel
    add     x0, x0, #'0'
    strb    w0, [x20]
    mov     x0, #'\n'
    strb    w0, [x20]
    ldr     x0, =0x84000008           /* PSCI SYSTEM_OFF */
    hvc     #0
1:  b       1b

puts:
    ldrb    w1, [x0], #1
    cbz     w1, 2f
    strb    w1, [x20]
    b       puts
2:  ret

sync_handler:
    mrs     x9, esr_el1
    lsr     x9, x9, #26
    cmp     x9, #0x15
    b.ne    3f
    stp     x29, x30, [sp, #-16]!
    adr     x0, msg3
    bl      puts
    ldp     x29, x30, [sp], #16
    eret
3:  cmp     x9, #0
    b.ne    4f
    mrs     x9, elr_el1
    add     x9, x9, #4
    msr     elr_el1, x9
    eret
4:  b       4b

    .balign 2048
vectors:
    .rept 4                            /* current EL with SP0 */
    b       .
    .balign 128
    .endr
    b       sync_handler               /* current EL with SPx: sync */
    .balign 128
    .rept 11
    b       .
    .balign 128
    .endr

msg1: .asciz "hello: mmu off\n"
msg2: .asciz "hello: mmu on\n"
msg3: .asciz "hello: svc\n"
msg4: .asciz "hello: after svc\n"
msg5: .asciz "hello: after undef, EL"
    .balign 4096
tt: .space 4096
    .space 1024
stack_top:
    .ltorg
    .balign 8
image_end:
