/* Board assembly: devices, memory, images, DTB (see board.h). */
#include "board.h"
#include "exitdev.h"
#include "board_gpu.h"
#include "board_display.h"
#include "hdlcd.h"
#include "board_timing.h"
#include "mali/mali.h"
#include "../emu/gpu/compute.h"
#include "../emu/stats/stats.h"
#include "../emu/stats/timeline.h"
#include "../emu/stats/timeline_regions.h"

#include <errno.h>
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MB (1ull << 20)
#define ALIGN_UP(x, a) (((x) + (a) - 1) & ~((uint64_t)(a) - 1))

void board_config_default(BoardConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->ram_size = BOARD_DEFAULT_RAM;
    cfg->ncpu = 1;
    cfg->console_in = STDIN_FILENO;
    cfg->console_out = STDOUT_FILENO;
}

uint64_t board_parse_size(const char *s)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || v == 0)
        return 0;
    unsigned shift;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': case '\0': shift = 20; if (*end) end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    case 't': case 'T': shift = 40; end++; break;
    default: return 0;
    }
    if (*end == 'i' || *end == 'B')
        end++;
    if (*end == 'B')
        end++;
    if (*end || v > (~0ull >> shift))
        return 0;
    return (uint64_t)v << shift;
}

/* Default action of the exit device: the guest's output is already on the host (the console
 * writes each byte at once); restore the terminal and exit with the guest's status. */
static void exit_now(void *opaque, int status)
{
    (void)opaque;
    fflush(stdout);
    fflush(stderr);
    console_restore_terminal();
    exit(status);
}

void board_set_exit_handler(Board *b, void (*fn)(void *opaque, int status), void *opaque)
{
    exitdev_set_fn(b->exitdev, fn ? fn : exit_now, opaque);
}

static void gic_output(void *opaque, unsigned cpu, bool irq, bool fiq)
{
    Board *b = opaque;
    if ((irq || fiq) && b->gtimer)
        gtimer_kick(b->gtimer, cpu);
    if (b->notify)
        b->notify(b->notify_opaque, cpu, irq, fiq);
}

/* --timeline's guest clock */
static uint64_t guest_now_ns(void *gtimer)
{
    return gtimer_now_ns(gtimer);
}

static uint64_t icount_wall_ns(void *gtimer)
{
    return BOARD_ICOUNT_EPOCH_S * 1000000000ull + gtimer_now_ns(gtimer);
}

Board *board_new(const BoardConfig *cfg, char *err, size_t errlen)
{
    if (cfg->ncpu < 1 || cfg->ncpu > BOARD_MAX_CPUS || cfg->ram_size < BOARD_RAM_MIN ||
        (cfg->ram_size & (BUS_PAGE_SIZE - 1)) || cfg->ram_size > BOARD_RAM_MAX) {
        snprintf(err, errlen, "bad board configuration (CPUs 1..%d, RAM 16M..66G)", BOARD_MAX_CPUS);
        return NULL;
    }
    Board *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->cfg = *cfg;
    b->ncpu = cfg->ncpu;
    b->bus = bus_new();
    b->gic = gic_new(b->ncpu, gic_output, b);
    b->gtimer = gtimer_new(b->gic, b->ncpu);
    if (b->gtimer)
        gtimer_set_device_clock(b->gtimer, !cfg->gpu_time_host);
    b->psci = psci_new(b->ncpu);
    b->console = console_new(cfg->console_in, cfg->console_out);
    b->uart = pl011_new(b->gic, BOARD_UART_INTID, console_putc, b->console);
    b->rtc = pl031_new(b->gic, BOARD_RTC_INTID);
    if (b->rtc && b->gtimer && cfg->clock_icount)
        pl031_set_clock(b->rtc, icount_wall_ns, b->gtimer);
    b->exitdev = exitdev_new(BOARD_EXIT_BASE, exit_now, NULL);
    if (!b->bus || !b->gic || !b->gtimer || !b->psci || !b->console || !b->uart || !b->rtc ||
        !b->exitdev) {
        snprintf(err, errlen, "out of memory");
        board_free(b);
        return NULL;
    }

    uint64_t bank0 = cfg->ram_size < BOARD_RAM_BANK0_MAX ? cfg->ram_size : BOARD_RAM_BANK0_MAX;
    bool ok = bus_add_ram(b->bus, "rom", BOARD_ROM_BASE, BOARD_ROM_SIZE, true) &&
              bus_add_ram(b->bus, "ram0", BOARD_RAM_BASE, bank0, false) &&
              (cfg->ram_size == bank0 ||
               bus_add_ram(b->bus, "ram1", BOARD_RAM2_BASE, cfg->ram_size - bank0, false)) &&
              bus_add_mmio(b->bus, BOARD_GICD_BASE, 0x1000, &gic_dist_ops, b->gic) &&
              bus_add_mmio(b->bus, BOARD_GICC_BASE, 0x2000, &gic_cpu_ops, b->gic) &&
              bus_add_mmio(b->bus, BOARD_UART_BASE, 0x1000, &pl011_ops, b->uart) &&
              bus_add_mmio(b->bus, BOARD_RTC_BASE, 0x1000, &pl031_ops, b->rtc) &&
              bus_add_mmio(b->bus, BOARD_EXIT_BASE, EXITDEV_SIZE, &exitdev_ops, b->exitdev) &&
              board_add_fdt_hook(b, exitdev_fdt_hook, b->exitdev);
    if (!ok) {
        snprintf(err, errlen, "cannot allocate guest RAM (%llu MiB)",
                 (unsigned long long)(cfg->ram_size >> 20));
        board_free(b);
        return NULL;
    }
    if (cfg->stats && !stats_on) {
        char v[16];
        stats_enable(cfg->stats);
        stats_set_config("gpu", cfg->gpu ? cfg->gpu : "g71");
        MaliModel sm;
        if (board_gpu_model(cfg->gpu, &sm)) { /* the size a sweep varies, whether given or not */
            snprintf(v, sizeof v, "%d", __builtin_popcountll(sm.shader_present));
            stats_set_config("gpu_cores", v);
            snprintf(v, sizeof v, "%u", sm.clock_hz / 1000000u);
            stats_set_config("gpu_mhz", v);
        }
        snprintf(v, sizeof v, "%u", cfg->gpu_threads);
        stats_set_config("gpu_threads", cfg->gpu_threads ? v : "host CPUs");
    }
    if (cfg->timeline && !timeline_on) {
        if (!timeline_enable(cfg->timeline, cfg->timeline_limit ? cfg->timeline_limit : TIMELINE_DEFAULT_LIMIT)) {
            snprintf(err, errlen, "--timeline %s: cannot record", cfg->timeline);
            board_free(b);
            return NULL;
        }
        timeline_set_guest_clock(guest_now_ns, b->gtimer);
        timeline_follow_regions();
    }
    if (board_timing_setup(cfg, err, errlen)) {
        board_free(b);
        return NULL;
    }
    const char *gpu_backend = cfg->gpu_backend ? cfg->gpu_backend : getenv("MALIBU_GPU_BACKEND");
    if (gpu_backend && *gpu_backend && gpu_compute_backend_check(gpu_backend, err, errlen)) {
        board_free(b);
        return NULL;
    }
    /* The SSE code is 4-lane (bx_jit_compile): a v7 GPU's 8-lane warps would all be interpreted,
     * which is not what the user asked for. */
    MaliModel gmodel;
    const MaliModel *gm = board_gpu_model(cfg->gpu, &gmodel); /* NULL: --gpu none */
    if (gpu_backend && gm && !strcmp(gpu_backend, "jit-sse") && (gm->gpu_id >> 28) >= 7) {
        snprintf(err, errlen, "--gpu-backend jit-sse: the SSE code runs 4-lane warps only, and the %s (v7) has "
                 "8-lane warps; use jit or jit-avx2 (AVX2 code), or interp", gm->name);
        board_free(b);
        return NULL;
    }
    if (!board_gpu_attach(b, cfg->gpu, &b->gpu, err, errlen)) {
        board_free(b);
        return NULL;
    }
    if (!virtio_board_attach(b, err, errlen)) {
        board_free(b);
        return NULL;
    }
    if ((cfg->display && !strcmp(cfg->display, "sdl")) || cfg->screenshot) {
        if (!board_display_attach(b, err, errlen)) {
            board_free(b);
            return NULL;
        }
    }

    FdtBoard *f = &b->fdt;
    f->ncpu = b->ncpu;
    f->guest_channel = cfg->guest_channel;
    f->nbanks = cfg->ram_size == bank0 ? 1 : 2;
    f->bank_base[0] = BOARD_RAM_BASE;
    f->bank_size[0] = bank0;
    f->bank_base[1] = BOARD_RAM2_BASE;
    f->bank_size[1] = cfg->ram_size - bank0;
    f->gicd_base = BOARD_GICD_BASE;
    f->gicc_base = BOARD_GICC_BASE;
    f->has_uart = true;
    f->uart_base = BOARD_UART_BASE;
    f->uart_intid = BOARD_UART_INTID;
    f->has_rtc = true;
    f->rtc_base = BOARD_RTC_BASE;
    f->rtc_intid = BOARD_RTC_INTID;
    f->bootargs = cfg->append;
    return b;
}

void board_free(Board *b)
{
    if (!b)
        return;
    virtio_board_free(b); /* first: its worker threads use the bus and the GIC */
    mali_free(b->gpu); /* first: its job threads use the bus and the GIC */
    board_gpu_engine_free(b->gpu_engine); /* after the device that runs jobs on it */
    free(b->gpu_model);                   /* after the device that reads it */
    board_display_free(b); /* the display's virtio-input workers use the bus */
    pl031_free(b->rtc);
    exitdev_free(b->exitdev);
    pl011_free(b->uart);
    gtimer_free(b->gtimer);
    gic_free(b->gic);
    psci_free(b->psci);
    bus_free(b->bus);
    console_free(b->console); /* kept if its reader thread runs */
    free(b->dtb);
    free(b->kernel_data);
    free(b->initrd_data);
    free(b);
}

bool board_add_mmio(Board *b, uint64_t base, uint64_t size, const MmioOps *ops, void *opaque)
{
    return bus_add_mmio(b->bus, base, size, ops, opaque);
}

bool board_add_fdt_hook(Board *b, FdtHook hook, void *opaque)
{
    if (b->fdt.nhooks == FDT_BOARD_MAX_HOOKS)
        return false;
    b->fdt.hooks[b->fdt.nhooks] = hook;
    b->fdt.hook_opaque[b->fdt.nhooks++] = opaque;
    return true;
}

void board_set_irq_notify(Board *b, BoardIrqNotify fn, void *opaque)
{
    b->notify_opaque = opaque;
    b->notify = fn;
}

static uint8_t *read_file(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 20, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        uint8_t *nb = realloc(buf, cap *= 2);
        if (!nb)
            free(buf);
        buf = nb;
    }
    bool bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        snprintf(err, errlen, "%s: read error", path);
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

static bool write_file(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        if (f)
            fclose(f);
        return false;
    }
    return true;
}

/* Place the kernel at RAM base + text_offset, the initrd after it (2 MB aligned), the DTB in the
 * last 2 MB of bank 0. */
static bool place_images(Board *b, char *err, size_t errlen)
{
    uint64_t bank0_end = BOARD_RAM_BASE + b->fdt.bank_size[0];
    b->dtb_pa = bank0_end - 2 * MB;
    uint64_t free_start = BOARD_RAM_BASE;
    if (b->kernel_data) {
        BootImage img;
        if (!boot_parse_image(b->kernel_data, b->kernel_len, &img, err, errlen))
            return false;
        b->kernel_entry = BOARD_RAM_BASE + img.text_offset;
        free_start = ALIGN_UP(b->kernel_entry + img.image_size, 2 * MB);
    }
    b->initrd_start = b->initrd_end = 0;
    if (b->initrd_data) {
        b->initrd_start = free_start;
        b->initrd_end = free_start + b->initrd_len;
        free_start = ALIGN_UP(b->initrd_end, 2 * MB);
    }
    if (free_start > (b->display ? b->fb_pa : b->dtb_pa)) {
        snprintf(err, errlen, "kernel and initrd do not fit in %llu MiB of RAM",
                 (unsigned long long)(b->cfg.ram_size >> 20));
        return false;
    }
    return true;
}

static bool make_dtb(Board *b, char *err, size_t errlen)
{
    free(b->dtb);
    b->dtb = calloc(1, FDT_BOARD_MAX_SIZE);
    if (!b->dtb)
        return false;
    b->fdt.initrd_start = b->initrd_start;
    b->fdt.initrd_end = b->initrd_end;
    int r;
    if (b->cfg.dtb) {
        size_t len;
        uint8_t *user = read_file(b->cfg.dtb, &len, err, errlen);
        if (!user)
            return false;
        r = fdt_check_header(user);
        if (r == 0 && (len < fdt_totalsize(user) || fdt_totalsize(user) > FDT_BOARD_MAX_SIZE - 4096))
            r = -FDT_ERR_TRUNCATED;
        if (r == 0)
            r = fdt_open_into(user, b->dtb, FDT_BOARD_MAX_SIZE);
        free(user);
        if (r == 0)
            r = fdt_board_set_chosen(b->dtb, b->cfg.append, b->initrd_start, b->initrd_end, b->cfg.guest_channel);
        if (r == 0)
            r = fdt_pack(b->dtb);
        if (r == 0)
            r = (int)fdt_totalsize(b->dtb);
    } else {
        r = fdt_board_build(&b->fdt, b->dtb, FDT_BOARD_MAX_SIZE);
    }
    if (r < 0) {
        snprintf(err, errlen, "device tree: %s", fdt_strerror(r));
        return false;
    }
    b->dtb_size = (uint64_t)r;
    return true;
}

/* What boot firmware leaves behind on the console UART (as on Juno): enabled, 115200 8N1 with
 * FIFOs (7.3728 MHz / (16 * 115200) = 4.0).  Linux's console=ttyAMA0 without options reads the
 * speed back from IBRD/FBRD when UARTEN is set. */
static void firmware_uart_init(Board *b)
{
    pl011_ops.write(b->uart, 0x24, 4, 4);     /* IBRD */
    pl011_ops.write(b->uart, 0x28, 0, 4);     /* FBRD */
    pl011_ops.write(b->uart, 0x2C, 0x70, 4);  /* LCR_H: 8 bits, FIFO enabled */
    pl011_ops.write(b->uart, 0x30, 0x301, 4); /* CR: UARTEN, TXE, RXE */
}

/* Copy kernel, initrd, DTB and boot stub into guest memory; set up the UART like firmware. */
static void load_images(Board *b)
{
    firmware_uart_init(b);
    if (b->display)
        board_display_firmware_init(b);
    if (b->kernel_data)
        bus_load(b->bus, b->kernel_entry, b->kernel_data, b->kernel_len);
    if (b->initrd_data)
        bus_load(b->bus, b->initrd_start, b->initrd_data, b->initrd_len);
    bus_load(b->bus, b->dtb_pa, b->dtb, b->dtb_size);
    uint32_t stub[BOOT_STUB_WORDS];
    boot_stub_build(stub, b->dtb_pa, b->kernel_entry);
    bus_load(b->bus, BOARD_ROM_BASE, stub, sizeof stub);
    b->reset_pc = BOARD_ROM_BASE;
}

/* Refuse what would not boot: a file that is not an arm64 Image, a truncated initrd. */
static bool check_images(Board *b, char *err, size_t errlen)
{
    char msg[256];
    BootImage img;
    if (b->kernel_data && !boot_parse_image(b->kernel_data, b->kernel_len, &img, msg, sizeof msg)) {
        snprintf(err, errlen, "--kernel %s: %s", b->cfg.kernel, msg);
        return false;
    }
    if (b->initrd_data && !boot_check_initrd(b->initrd_data, b->initrd_len, msg, sizeof msg)) {
        snprintf(err, errlen, "--initrd %s: %s", b->cfg.initrd, msg);
        return false;
    }
    return true;
}

bool board_realize(Board *b, char *err, size_t errlen)
{
    if (b->cfg.kernel && !(b->kernel_data = read_file(b->cfg.kernel, &b->kernel_len, err, errlen)))
        return false;
    if (b->cfg.initrd && !(b->initrd_data = read_file(b->cfg.initrd, &b->initrd_len, err, errlen)))
        return false;
    if (!check_images(b, err, errlen))
        return false;
    if (!place_images(b, err, errlen) || !make_dtb(b, err, errlen))
        return false;
    if (b->cfg.dump_dtb)
        return write_file(b->cfg.dump_dtb, b->dtb, b->dtb_size, err, errlen);
    bus_freeze(b->bus);
    load_images(b);
    console_start(b->console, pl011_receive_cb, b->uart);
    return true;
}

void board_reset(Board *b)
{
    gic_reset(b->gic);
    for (unsigned i = 0; i < b->ncpu; i++)
        gtimer_reset_cpu(b->gtimer, i);
    psci_reset(b->psci);
    pl011_reset(b->uart);
    pl031_reset(b->rtc);
    virtio_board_reset(b);
    board_display_reset(b);
    if (b->gpu)
        mali_reset(b->gpu);
    load_images(b);
}
