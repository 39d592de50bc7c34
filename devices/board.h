/* The board: memory map, device instantiation, kernel/initrd/DTB loading and the glue between
 * devices and the CPUs.  This is what `build/malibu` (the system emulator's main) drives:
 *
 *     BoardConfig cfg; board_config_default(&cfg);
 *     ... fill cfg (build/malibu: emu/system/options.c parses the command line into it) ...
 *     Board *b = board_new(&cfg, err, sizeof err);
 *     ... board_add_mmio / board_add_fdt_hook for extra devices (GPU) ...
 *     board_set_irq_notify(b, cpu_irq_changed, cpus);   // CPU side: flag + exit_request
 *     if (!board_realize(b, err, sizeof err)) ...        // loads images, builds DTB, freezes bus
 *     if (cfg.dump_dtb) exit(0);                         // DTB written, nothing to run
 *     start vCPU 0 at b->reset_pc (EL1h, MMU off, DAIF masked, CNTFRQ_EL0 = gtimer_freq())
 *
 * Memory map (Juno addresses where Juno has the device; see devices/README.md):
 *   0x0000_0000  64 KB   boot ROM (boot stub, firmware/boot_stub.S)
 *   0x1C0F_0000   4 KB   malibu exit device (exitdev.h: guest writes its exit status)
 *   0x1C13_0000   4 KB   virtio-mmio slots 0..7 (every 4 KB; --disk/--share)  SPI 42-49 (INTID 74-81)
 *   0x1C17_0000   4 KB   PL031 RTC                     SPI 68  (INTID 100)
 *   0x2C01_0000   4 KB   GIC-400 distributor
 *   0x2C02_F000   8 KB   GIC-400 CPU interface
 *   0x2D00_0000  64 KB   Mali Bifrost GPU (--gpu)      SPI 32-34 (INTID 64-66)
 *   0x7FF4_0000   8 KB   i.MX eLCDIF (with the HDLCD, --display-controller lcdif)  SPI 86 (INTID 118)
 *   0x7FF6_0000   4 KB   HDLCD (--display sdl, --screenshot)  SPI 85 (INTID 117)
 *   0x7FF8_0000   4 KB   PL011 UART0 (console)         SPI 83  (INTID 115)
 *   0x8000_0000  <=2 GB  DRAM bank 0
 *   0x8_8000_0000        DRAM bank 1 (RAM beyond 2 GB) */
#ifndef MALIBU_DEVICES_BOARD_H
#define MALIBU_DEVICES_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bus.h"
#include "console.h"
#include "fdt_board.h"
#include "gic400.h"
#include "gtimer.h"
#include "pl011.h"
#include "pl031.h"
#include "virtio_board.h"
#include "mali/mali.h"
#include "../firmware/boot.h"
#include "../firmware/psci.h"

#define BOARD_ROM_BASE 0x00000000ull
#define BOARD_ROM_SIZE 0x10000ull
#define BOARD_EXIT_BASE 0x1C0F0000ull
#define BOARD_RTC_BASE 0x1C170000ull
#define BOARD_RTC_INTID (32 + 68)
#define BOARD_GICD_BASE 0x2C010000ull
#define BOARD_GICC_BASE 0x2C02F000ull
#define BOARD_GPU_BASE 0x2D000000ull
#define BOARD_GPU_INTID_GPU (32 + 32)
#define BOARD_GPU_INTID_JOB (32 + 33)
#define BOARD_GPU_INTID_MMU (32 + 34)
#define BOARD_UART_BASE 0x7FF80000ull
#define BOARD_UART_INTID (32 + 83)
#define BOARD_RAM_BASE 0x80000000ull
#define BOARD_RAM_BANK0_MAX 0x80000000ull /* 2 GB */
#define BOARD_RAM2_BASE 0x880000000ull
#define BOARD_MAX_CPUS 8
#define BOARD_DEFAULT_RAM (1ull << 30)
#define BOARD_RAM_MIN (16ull << 20)
#define BOARD_RAM_MAX (BOARD_RAM_BANK0_MAX + (64ull << 30)) /* 66G: bank 1 holds up to 64G */

struct tm_hier;
struct tm_totals;

/* The CPU's side of the timing plug-in (--timing with cpu.* keys), given by the program that has
 * a CPU (build/malibu: emu/cpu/sys_timing.c); without it cpu.* keys are refused. */
typedef struct BoardCpuTimingFeed {
    void (*set)(struct tm_hier *h);                               /* the hierarchy the vCPUs use */
    void (*totals)(struct tm_totals *t, uint64_t *cycles);       /* its counters, for --stats */
} BoardCpuTimingFeed;

typedef struct BoardConfig {
    uint32_t guest_channel; /* the CPU's guest-channel encoding, for /chosen/malibu,channel (0: none) */
    const char *kernel;   /* --kernel: arm64 Image (or raw binary) */
    const char *initrd;   /* --initrd */
    const char *append;   /* --append: kernel command line */
    const char *dtb;      /* --dtb: use this DTB instead of the generated one (/chosen updated) */
    const char *dump_dtb; /* --dump-dtb: write the DTB here (board_realize), caller exits */
    uint64_t ram_size;    /* -m */
    unsigned ncpu;        /* --smp */
    int console_in;       /* UART input from this fd (default stdin; -1: none) */
    int console_out;      /* UART output to this fd (default stdout) */
    BoardDisk disks[BOARD_VIRTIO_SLOTS]; /* --disk, --share (virtio_board.h) */
    unsigned ndisks;
    const char *gpu;      /* --gpu: g71 (NULL = default), g72, g52, none (devices/mali/) */
    unsigned gpu_threads; /* --gpu-threads: host threads of the shader-core engine (0 = host CPUs) */
    const char *gpu_backend; /* --gpu-backend NAME (NULL: MALIBU_GPU_BACKEND, else the host's default) */
    bool gpu_log;         /* --debug gpu: one stderr line per GPU job (also MALIBU_GPU_LOG=1) */
    const char *gpu_dump; /* --gpu-dump DIR: every job chain's descriptors and shaders (also MALIBU_GPU_DUMP) */
    MaliChainFn gpu_tap_chain; /* --gpu-trace jobs: each chain as it starts (NULL: none) */
    MaliFaultFn gpu_tap_fault; /* GPU fault reports: each chain that ends in a fault (NULL: none) */
    void *gpu_tap_opaque;
    bool gpu_time_host;   /* --gpu-time host: guest time is host time even while the CPU waits
                             on the GPU (default: model, gtimer.h device-wait clock) */
    bool clock_icount;    /* --clock icount: guest time from instructions retired (gtimer.h) */
    unsigned icount_shift; /* --icount-shift N: 2^N guest ns per instruction */
    const char *stats;    /* --stats FILE.json: instrumentation report at exit (emu/stats/) */
    const char *timeline; /* --timeline FILE.json: trace-event timeline at exit (emu/stats/timeline.h) */
    uint64_t timeline_limit; /* --timeline-limit N: events kept (0: TIMELINE_DEFAULT_LIMIT) */
    const char *timing;   /* --timing [preset=NAME][,KEY=VALUE...] (board_timing.c; NULL: off) */
    const char *timing_config; /* --timing-config FILE: KEY = VALUE lines, before --timing's */
    const char *image;    /* --image DIR: DIR/Image, DIR/initrd.img, DIR/rootfs.ext4 (COW) as vda */
    const char *run;      /* --run CMD: malibu.run64=base64(CMD) on the command line (+ quiet) */
    const char *display;  /* --display sdl|none (NULL: not given; the front end picks one) */
    const char *screenshot; /* --screenshot FILE.png: the screen at exit (needs the display) */
    const char *display_controller; /* --display-controller hdlcd|lcdif (NULL: lcdif) */
    const BoardCpuTimingFeed *cpu_timing; /* NULL: no CPU to time */
} BoardConfig;

typedef void (*BoardIrqNotify)(void *opaque, unsigned cpu, bool irq, bool fiq);

typedef struct Board {
    BoardConfig cfg;
    unsigned ncpu;
    Bus *bus;
    Gic *gic;
    GTimer *gtimer;
    Psci *psci;
    Pl011 *uart;
    Pl031 *rtc;
    Console *console;
    struct VirtioBlk *vblk[BOARD_VIRTIO_SLOTS]; /* vda, vdb, ... */
    unsigned nvblk;
    struct Mali *gpu;       /* NULL with --gpu none */
    struct BoardGpu *gpu_engine; /* its shader-core engine and parameters (board_gpu.h) */
    struct MaliModel *gpu_model; /* its model with --gpu's cores / mhz (the device points to it) */
    struct ExitDev *exitdev; /* "malibu,exit" at BOARD_EXIT_BASE */
    struct Hdlcd *display;  /* HDLCD (board_display.h); NULL without a display */
    struct Lcdif *lcdif;    /* the eLCDIF and its DPI panel (board_display.h); NULL unless chosen */
    int screen_source;      /* board_display.c: the controller the screen showed last */
    uint64_t fb_pa;         /* its firmware framebuffer (reserved below the DTB) */
    struct VirtioInput *keyboard, *tablet; /* with the display: virtio-input, fed by its window */
    FdtBoard fdt;
    /* filled by board_realize */
    uint64_t reset_pc;      /* where CPU 0 starts: the boot stub */
    uint64_t kernel_entry;  /* Image load address */
    uint64_t dtb_pa, dtb_size;
    uint64_t initrd_start, initrd_end;
    uint8_t *dtb;           /* host copy of the DTB */
    /* private */
    uint8_t *kernel_data, *initrd_data;
    size_t kernel_len, initrd_len;
    BoardIrqNotify notify;
    void *notify_opaque;
} Board;

void board_config_default(BoardConfig *cfg);
/* --clock icount: the PL031's wall clock starts here (2026-01-01T00:00:00Z) and follows guest
 * time, so the guest's date is the same in every run. */
#define BOARD_ICOUNT_EPOCH_S 1767225600ull
/* "512M", "2G", "1048576K", plain number = MiB (like QEMU). 0 on error. */
uint64_t board_parse_size(const char *s);

Board *board_new(const BoardConfig *cfg, char *err, size_t errlen);
void board_free(Board *b);
bool board_add_mmio(Board *b, uint64_t base, uint64_t size, const MmioOps *ops, void *opaque);
bool board_add_fdt_hook(Board *b, FdtHook hook, void *opaque);
/* Called (with the GIC lock held: only record + kick) when a CPU's IRQ/FIQ line changes. The
 * board has already woken the CPU from gtimer_wfi. */
void board_set_irq_notify(Board *b, BoardIrqNotify fn, void *opaque);
bool board_realize(Board *b, char *err, size_t errlen);
/* What a guest write to the exit device does (default: flush stdout/stderr, restore the terminal,
 * exit(status)). */
void board_set_exit_handler(Board *b, void (*fn)(void *opaque, int status), void *opaque);
/* SYSTEM_RESET: reset devices, reload kernel/initrd/DTB/stub; the caller resets the CPUs. */
void board_reset(Board *b);

#endif
