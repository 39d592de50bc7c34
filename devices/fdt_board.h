/* Device tree for the board, generated with libfdt from the devices actually instantiated
 * (see devices/README.md for the resulting tree; `--dump-dtb FILE` writes it, and
 * `dtc -I dtb -O dts FILE` shows it).
 *
 * Extending it (e.g. the GPU): register a hook with board_add_fdt_hook() (board.h) before
 * board_realize(); it is called with the finished standard tree (read-write libfdt tree with
 * free space) and adds its node under the root, e.g.
 *     int n = fdt_add_subnode(fdt, 0, "gpu@2d000000");
 *     fdt_setprop_string(fdt, n, "compatible", "arm,mali-bifrost");
 *     fdt_board_setprop_reg(fdt, n, 0x2d000000, 0x10000);
 *     fdt_board_setprop_spis(fdt, n, (unsigned[]){ 65, 66, 64 }, 3);  // INTIDs job, mmu, gpu
 *     fdt_setprop_u32(fdt, n, "clocks", FDT_PHANDLE_APB_PCLK);
 * The root node has #address-cells = #size-cells = 2 and interrupt-parent = the GIC. */
#ifndef MALIBU_DEVICES_FDT_BOARD_H
#define MALIBU_DEVICES_FDT_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FDT_BOARD_MAX_SIZE 0x10000 /* 64 KiB: room for the tree and hooks */
#define FDT_BOARD_MAX_BANKS 2
#define FDT_BOARD_MAX_HOOKS 8

/* phandles of the standard nodes; hooks allocate from FDT_PHANDLE_FIRST_FREE up. */
#define FDT_PHANDLE_GIC 1
#define FDT_PHANDLE_APB_PCLK 2 /* fixed 24 MHz APB clock */
#define FDT_PHANDLE_UARTCLK 3  /* fixed 7.3728 MHz UART reference clock (as Juno) */
#define FDT_PHANDLE_CPU0 8     /* CPU n: FDT_PHANDLE_CPU0 + n (with several CPUs: cpu-map) */
#define FDT_PHANDLE_FIRST_FREE 16

/* Return 0 or a negative libfdt error. */
typedef int (*FdtHook)(void *fdt, void *opaque);

typedef struct FdtBoard {
    unsigned ncpu;                   /* cpu@0..ncpu-1, MPIDR = index */
    unsigned nbanks;
    uint64_t bank_base[FDT_BOARD_MAX_BANKS], bank_size[FDT_BOARD_MAX_BANKS];
    uint64_t gicd_base, gicc_base;   /* GIC-400: 4 KB distributor, 8 KB CPU interface */
    bool has_uart;
    uint64_t uart_base;
    unsigned uart_intid;             /* GIC INTID (SPI number + 32) */
    bool has_rtc;
    uint64_t rtc_base;
    unsigned rtc_intid;
    const char *bootargs;            /* NULL: none */
    uint64_t initrd_start, initrd_end; /* equal: no initrd */
    uint32_t guest_channel;          /* /chosen/malibu,channel: the CPU's channel encoding (0: none) */
    FdtHook hooks[FDT_BOARD_MAX_HOOKS];
    void *hook_opaque[FDT_BOARD_MAX_HOOKS];
    unsigned nhooks;
} FdtBoard;

/* Build the tree into buf (size >= FDT_BOARD_MAX_SIZE recommended), packed.
 * Returns the DTB size in bytes, or a negative libfdt error code (fdt_strerror). */
int fdt_board_build(const FdtBoard *b, void *buf, size_t size);

/* Update /chosen (bootargs when non-NULL; initrd when start != end; malibu,channel when
 * guest_channel is not 0) in an existing tree opened read-write with free space (used with a
 * user-supplied --dtb). */
int fdt_board_set_chosen(void *fdt, const char *bootargs, uint64_t initrd_start,
                         uint64_t initrd_end, uint32_t guest_channel);

/* Helpers for hooks. */
int fdt_board_setprop_reg(void *fdt, int node, uint64_t base, uint64_t size);
/* interrupts = SPIs given as GIC INTIDs (>= 32), level-high. */
int fdt_board_setprop_spis(void *fdt, int node, const unsigned *intids, unsigned n);

#endif
