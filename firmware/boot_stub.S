/* Boot stub run by the primary CPU at reset (physical address BOARD_ROM_BASE, EL1, MMU off).
 * It enters the kernel per Documentation/arch/arm64/booting.rst: DAIF masked, x0 = DTB physical
 * address, x1 = x2 = x3 = 0, branch to the Image at its text_offset.
 *
 * This file documents the stub; the emulator emits the same 12 words from C (firmware/boot.c,
 * boot_stub_build, which patches the two literals).  tests/devices/devices.mk assembles this file
 * with aarch64-linux-gnu-as and checks the bytes are identical to boot_stub_build(0, 0). */
    .text
    .globl _start
_start:
    msr     daifset, #0xf       /* mask D, A, I, F (already so at reset; explicit) */
    ldr     x0, dtb_addr
    mov     x1, xzr
    mov     x2, xzr
    mov     x3, xzr
    ldr     x4, kernel_entry
    br      x4
    nop                         /* pad: the literals are 8-byte aligned */
dtb_addr:
    .quad   0                   /* patched: DTB physical address */
kernel_entry:
    .quad   0                   /* patched: Image load address (RAM base + text_offset) */
