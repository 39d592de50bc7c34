/* devices/fdt (tree contents parsed back with libfdt, hooks) and devices/board (image placement,
 * boot stub in ROM, DTB in RAM, --dtb, argument parsing, MMIO map). */
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../devices/dev_check.h"
#include "../../devices/board.h"
#include "../../devices/board_display.h"
#include "../../devices/lcdif.h"
#include "../../emu/system/options.h"

static uint8_t buf[FDT_BOARD_MAX_SIZE];

static FdtBoard sample(unsigned ncpu)
{
    FdtBoard b = { 0 };
    b.ncpu = ncpu;
    b.nbanks = 2;
    b.bank_base[0] = 0x80000000;
    b.bank_size[0] = 0x80000000;
    b.bank_base[1] = 0x880000000ull;
    b.bank_size[1] = 0x40000000;
    b.gicd_base = 0x2C010000;
    b.gicc_base = 0x2C02F000;
    b.has_uart = true;
    b.uart_base = 0x7FF80000;
    b.uart_intid = 115;
    b.has_rtc = true;
    b.rtc_base = 0x1C170000;
    b.rtc_intid = 100;
    b.bootargs = "console=ttyAMA0";
    b.initrd_start = 0x84000000;
    b.initrd_end = 0x84123456;
    return b;
}

static int node(const void *fdt, const char *path)
{
    int n = fdt_path_offset(fdt, path);
    ck_assert_msg(n >= 0, "no node %s", path);
    return n;
}

static const char *str(const void *fdt, int n, const char *prop)
{
    const char *s = fdt_getprop(fdt, n, prop, NULL);
    ck_assert_msg(s != NULL, "no property %s", prop);
    return s;
}

static uint32_t cell(const void *fdt, int n, const char *prop, int i)
{
    int len;
    const fdt32_t *p = fdt_getprop(fdt, n, prop, &len);
    ck_assert_msg(p && len >= 4 * (i + 1), "property %s too short", prop);
    return fdt32_to_cpu(p[i]);
}

static uint64_t cell64(const void *fdt, int n, const char *prop, int i)
{
    return ((uint64_t)cell(fdt, n, prop, 2 * i) << 32) | cell(fdt, n, prop, 2 * i + 1);
}

START_TEST(tree_contents)
{
    FdtBoard b = sample(4);
    int size = fdt_board_build(&b, buf, sizeof buf);
    ck_assert_int_gt(size, 0);
    ck_assert_int_eq(fdt_check_header(buf), 0);
    ck_assert_int_eq((int)fdt_totalsize(buf), size);
    ck_assert_uint_eq(cell(buf, 0, "#address-cells", 0), 2);
    ck_assert_uint_eq(cell(buf, 0, "#size-cells", 0), 2);
    ck_assert_uint_eq(cell(buf, 0, "interrupt-parent", 0), FDT_PHANDLE_GIC);

    int mem = node(buf, "/memory@80000000");
    ck_assert_str_eq(str(buf, mem, "device_type"), "memory");
    ck_assert_uint_eq(cell64(buf, mem, "reg", 0), 0x80000000);
    ck_assert_uint_eq(cell64(buf, mem, "reg", 1), 0x80000000);
    ck_assert_uint_eq(cell64(buf, mem, "reg", 2), 0x880000000ull);
    ck_assert_uint_eq(cell64(buf, mem, "reg", 3), 0x40000000);

    /* Juno-like clusters: CPUs 0-1 are MPIDR 0x0, 0x1; CPUs 2-3 are 0x100, 0x101 */
    static const uint32_t mpidr[4] = { 0x0, 0x1, 0x100, 0x101 };
    for (int i = 0; i < 4; i++) {
        char path[32];
        snprintf(path, sizeof path, "/cpus/cpu@%x", mpidr[i]);
        int c = node(buf, path);
        ck_assert_str_eq(str(buf, c, "compatible"), "arm,cortex-a57");
        ck_assert_str_eq(str(buf, c, "enable-method"), "psci");
        ck_assert_str_eq(str(buf, c, "device_type"), "cpu");
        ck_assert_uint_eq(cell(buf, c, "reg", 0), mpidr[i]);
    }
    ck_assert_int_lt(fdt_path_offset(buf, "/cpus/cpu@2"), 0);
    ck_assert_int_lt(fdt_path_offset(buf, "/cpus/cpu@102"), 0);
    /* cpu-map: cluster0 = CPUs 0-1, cluster1 = CPUs 2-3, each core pointing at its cpu node */
    static const char *const cores[4] = { "/cpus/cpu-map/cluster0/core0", "/cpus/cpu-map/cluster0/core1",
                                          "/cpus/cpu-map/cluster1/core0", "/cpus/cpu-map/cluster1/core1" };
    for (int i = 0; i < 4; i++) {
        char path[32];
        snprintf(path, sizeof path, "/cpus/cpu@%x", mpidr[i]);
        ck_assert_uint_eq(cell(buf, node(buf, cores[i]), "cpu", 0), fdt_get_phandle(buf, node(buf, path)));
    }
    ck_assert_int_lt(fdt_path_offset(buf, "/cpus/cpu-map/cluster1/core2"), 0);
    ck_assert_uint_eq(cell(buf, node(buf, "/cpus"), "#address-cells", 0), 1);

    int psci = node(buf, "/psci");
    ck_assert_int_eq(fdt_node_check_compatible(buf, psci, "arm,psci-1.0"), 0);
    ck_assert_int_eq(fdt_node_check_compatible(buf, psci, "arm,psci-0.2"), 0);
    ck_assert_str_eq(str(buf, psci, "method"), "hvc");

    int timer = node(buf, "/timer");
    ck_assert_str_eq(str(buf, timer, "compatible"), "arm,armv8-timer");
    static const uint32_t ppis[4] = { 13, 14, 11, 10 };
    for (int i = 0; i < 4; i++) {
        ck_assert_uint_eq(cell(buf, timer, "interrupts", 3 * i), 1); /* PPI */
        ck_assert_uint_eq(cell(buf, timer, "interrupts", 3 * i + 1), ppis[i]);
        ck_assert_uint_eq(cell(buf, timer, "interrupts", 3 * i + 2), 0xF08); /* 4 CPUs, level-low */
    }

    int gic = fdt_node_offset_by_phandle(buf, FDT_PHANDLE_GIC);
    ck_assert_int_eq(gic, node(buf, "/interrupt-controller@2c010000"));
    ck_assert_int_eq(fdt_node_check_compatible(buf, gic, "arm,gic-400"), 0);
    ck_assert_ptr_nonnull(fdt_getprop(buf, gic, "interrupt-controller", NULL));
    ck_assert_uint_eq(cell(buf, gic, "#interrupt-cells", 0), 3);
    ck_assert_uint_eq(cell64(buf, gic, "reg", 0), 0x2C010000);
    ck_assert_uint_eq(cell64(buf, gic, "reg", 1), 0x1000);
    ck_assert_uint_eq(cell64(buf, gic, "reg", 2), 0x2C02F000);
    ck_assert_uint_eq(cell64(buf, gic, "reg", 3), 0x2000);

    int uart = node(buf, "/serial@7ff80000");
    ck_assert_int_eq(fdt_node_check_compatible(buf, uart, "arm,pl011"), 0);
    ck_assert_int_eq(fdt_node_check_compatible(buf, uart, "arm,primecell"), 0);
    ck_assert_uint_eq(cell64(buf, uart, "reg", 0), 0x7FF80000);
    ck_assert_uint_eq(cell(buf, uart, "interrupts", 0), 0);
    ck_assert_uint_eq(cell(buf, uart, "interrupts", 1), 83);
    ck_assert_uint_eq(cell(buf, uart, "interrupts", 2), 4);
    ck_assert_int_eq(fdt_stringlist_search(buf, uart, "clock-names", "uartclk"), 0);
    ck_assert_int_eq(fdt_stringlist_search(buf, uart, "clock-names", "apb_pclk"), 1);
    int uclk = fdt_node_offset_by_phandle(buf, cell(buf, uart, "clocks", 0));
    int pclk = fdt_node_offset_by_phandle(buf, cell(buf, uart, "clocks", 1));
    ck_assert_str_eq(str(buf, uclk, "compatible"), "fixed-clock");
    ck_assert_uint_eq(cell(buf, uclk, "clock-frequency", 0), 7372800);
    ck_assert_uint_eq(cell(buf, uclk, "#clock-cells", 0), 0);
    ck_assert_str_eq(str(buf, pclk, "compatible"), "fixed-clock");

    int rtc = node(buf, "/rtc@1c170000");
    ck_assert_int_eq(fdt_node_check_compatible(buf, rtc, "arm,pl031"), 0);
    ck_assert_int_eq(fdt_node_check_compatible(buf, rtc, "arm,primecell"), 0);
    ck_assert_uint_eq(cell(buf, rtc, "interrupts", 1), 68);
    ck_assert_str_eq(str(buf, rtc, "clock-names"), "apb_pclk");

    int chosen = node(buf, "/chosen");
    ck_assert_str_eq(str(buf, chosen, "bootargs"), "console=ttyAMA0");
    ck_assert_str_eq(str(buf, chosen, "stdout-path"), "serial0:115200n8");
    ck_assert_uint_eq(cell64(buf, chosen, "linux,initrd-start", 0), 0x84000000);
    ck_assert_uint_eq(cell64(buf, chosen, "linux,initrd-end", 0), 0x84123456);
    const char *alias = fdt_get_alias(buf, "serial0");
    ck_assert_ptr_nonnull(alias);
    ck_assert_int_eq(fdt_path_offset(buf, alias), uart);
}
END_TEST

START_TEST(optional_parts)
{
    FdtBoard b = sample(1);
    b.has_rtc = false;
    b.bootargs = NULL;
    b.initrd_start = b.initrd_end = 0;
    b.nbanks = 1;
    ck_assert_int_gt(fdt_board_build(&b, buf, sizeof buf), 0);
    ck_assert_int_lt(fdt_path_offset(buf, "/rtc@1c170000"), 0);
    int chosen = node(buf, "/chosen");
    ck_assert_ptr_null(fdt_getprop(buf, chosen, "bootargs", NULL));
    ck_assert_ptr_null(fdt_getprop(buf, chosen, "linux,initrd-start", NULL));
    int len;
    fdt_getprop(buf, node(buf, "/memory@80000000"), "reg", &len);
    ck_assert_int_eq(len, 16);
    ck_assert_uint_eq(cell(buf, node(buf, "/timer"), "interrupts", 2), 0x108);
    /* bad descriptions and a too-small buffer fail cleanly */
    b.ncpu = 0;
    ck_assert_int_lt(fdt_board_build(&b, buf, sizeof buf), 0);
    b.ncpu = 1;
    ck_assert_int_lt(fdt_board_build(&b, buf, 256), 0);
}
END_TEST

static int gpu_hook(void *fdt, void *opaque)
{
    int *called = opaque;
    (*called)++;
    int n = fdt_add_subnode(fdt, 0, "gpu@2d000000");
    if (n < 0)
        return n;
    int r = fdt_setprop_string(fdt, n, "compatible", "arm,mali-bifrost");
    if (r == 0)
        r = fdt_board_setprop_reg(fdt, n, 0x2D000000, 0x10000);
    if (r == 0)
        r = fdt_board_setprop_spis(fdt, n, (const unsigned[]){ 65, 66, 64 }, 3);
    if (r == 0)
        r = fdt_setprop_u32(fdt, n, "clocks", FDT_PHANDLE_APB_PCLK);
    return r;
}

static int failing_hook(void *fdt, void *opaque)
{
    (void)fdt;
    (void)opaque;
    return -FDT_ERR_BADVALUE;
}

START_TEST(hooks)
{
    FdtBoard b = sample(2);
    int called = 0;
    b.hooks[0] = gpu_hook;
    b.hook_opaque[0] = &called;
    b.nhooks = 1;
    ck_assert_int_gt(fdt_board_build(&b, buf, sizeof buf), 0);
    ck_assert_int_eq(called, 1);
    int gpu = node(buf, "/gpu@2d000000");
    ck_assert_uint_eq(cell(buf, gpu, "interrupts", 1), 33);
    ck_assert_uint_eq(cell(buf, gpu, "interrupts", 4), 34);
    ck_assert_uint_eq(cell(buf, gpu, "interrupts", 7), 32);
    ck_assert_uint_eq(cell64(buf, gpu, "reg", 0), 0x2D000000);
    b.hooks[1] = failing_hook;
    b.nhooks = 2;
    ck_assert_int_eq(fdt_board_build(&b, buf, sizeof buf), -FDT_ERR_BADVALUE);
}
END_TEST

static char *temp_file(const void *data, size_t len)
{
    char *path = strdup("/tmp/malibu-dev-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
    close(fd);
    return path;
}

START_TEST(board_boot_layout)
{
    static uint8_t image[8192];
    memset(image, 0, sizeof image);
    image[0x10] = 0x00; image[0x12] = 0x40; /* image_size 0x400000 (4 MB) */
    image[0x18] = 0x2;                      /* 4K pages */
    memcpy(image + 0x38, "ARM\x64", 4);
    image[0x40] = 0xAB;
    /* an empty newc cpio archive: just its TRAILER!!! entry (the board checks the initrd) */
    static const char initrd[] = "070701" "00000000" "00000000" "00000000" "00000000" "00000001"
                                 "00000000" "00000000" "00000000" "00000000" "00000000" "00000000"
                                 "0000000B" "00000000" "TRAILER!!!";
    char *kpath = temp_file(image, sizeof image), *ipath = temp_file(initrd, sizeof initrd);
    char *argv[] = { "malibu", "--kernel", kpath, "--initrd", ipath, "--append",
                     "console=ttyAMA0", "-m", "256M", "--smp", "2", NULL };
    BoardConfig cfg;
    board_config_default(&cfg);
    char err[256];
    ck_assert_int_eq(options_parse_board(11, argv, &cfg, err, sizeof err), 0);
    cfg.console_in = -1;
    ck_assert_uint_eq(cfg.ram_size, 256ull << 20);
    ck_assert_uint_eq(cfg.ncpu, 2);
    Board *b = board_new(&cfg, err, sizeof err);
    ck_assert_msg(b != NULL, "%s", err);
    ck_assert_msg(board_realize(b, err, sizeof err), "%s", err);

    ck_assert_uint_eq(b->kernel_entry, BOARD_RAM_BASE);
    ck_assert_uint_eq(b->initrd_start, BOARD_RAM_BASE + 0x400000);
    ck_assert_uint_eq(b->initrd_end, b->initrd_start + sizeof initrd);
    ck_assert_uint_eq(b->dtb_pa, BOARD_RAM_BASE + (256ull << 20) - (2u << 20));
    ck_assert_uint_eq(b->reset_pc, BOARD_ROM_BASE);
    /* guest memory contents */
    uint64_t v;
    ck_assert_int_eq(bus_read(b->bus, b->kernel_entry + 0x40, 1, &v), BUS_OK);
    ck_assert_uint_eq(v, 0xAB);
    ck_assert_int_eq(bus_read(b->bus, b->initrd_start, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x37303730); /* "0707" */
    ck_assert_int_eq(bus_read(b->bus, BOARD_ROM_BASE, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0xD5034FDF);
    ck_assert_int_eq(bus_read(b->bus, BOARD_ROM_BASE + 0x20, 8, &v), BUS_OK);
    ck_assert_uint_eq(v, b->dtb_pa);
    ck_assert_int_eq(bus_read(b->bus, BOARD_ROM_BASE + 0x28, 8, &v), BUS_OK);
    ck_assert_uint_eq(v, b->kernel_entry);
    const void *dtb = bus_ram_ptr(b->bus, b->dtb_pa, false);
    ck_assert_int_eq(fdt_check_header(dtb), 0);
    int chosen = node(dtb, "/chosen");
    ck_assert_uint_eq(cell64(dtb, chosen, "linux,initrd-start", 0), b->initrd_start);
    ck_assert_uint_eq(cell64(dtb, chosen, "linux,initrd-end", 0), b->initrd_end);
    ck_assert_str_eq(str(dtb, chosen, "bootargs"), "console=ttyAMA0");
    node(dtb, "/cpus/cpu@1");
    ck_assert_uint_eq(cell64(dtb, node(dtb, "/memory@80000000"), "reg", 1), 256ull << 20);
    /* devices answer at their addresses; holes are bus errors */
    ck_assert_int_eq(bus_read(b->bus, BOARD_UART_BASE + 0xFE0, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x11);
    ck_assert_int_eq(bus_read(b->bus, BOARD_RTC_BASE + 0xFE0, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x31);
    ck_assert_int_eq(bus_read(b->bus, BOARD_GICD_BASE + 4, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, (1u << 5) | 7);
    ck_assert_int_eq(bus_read(b->bus, BOARD_GICC_BASE + 0xFC, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x0202143B);
    ck_assert_int_eq(bus_read(b->bus, BOARD_GPU_BASE, 4, &v), BUS_OK); /* Mali (default g71) */
    ck_assert_uint_eq(v >> 16, 0x6000);
    ck_assert_int_eq(bus_read(b->bus, 0x40000000, 4, &v), BUS_ERROR);
    ck_assert_int_eq(bus_write(b->bus, BOARD_ROM_BASE, 0, 4), BUS_ERROR);
    /* reset reloads the images */
    ck_assert_int_eq(bus_write(b->bus, b->kernel_entry + 0x40, 0, 1), BUS_OK);
    board_reset(b);
    ck_assert_int_eq(bus_read(b->bus, b->kernel_entry + 0x40, 1, &v), BUS_OK);
    ck_assert_uint_eq(v, 0xAB);
    board_free(b);

    /* a user DTB: /chosen updated, rest kept */
    FdtBoard fb = sample(1);
    fb.bootargs = "old";
    int size = fdt_board_build(&fb, buf, sizeof buf);
    char *dpath = temp_file(buf, (size_t)size);
    board_config_default(&cfg);
    cfg.console_in = -1;
    cfg.kernel = kpath;
    cfg.dtb = dpath;
    cfg.append = "new";
    b = board_new(&cfg, err, sizeof err);
    ck_assert_msg(b && board_realize(b, err, sizeof err), "%s", err);
    dtb = bus_ram_ptr(b->bus, b->dtb_pa, false);
    ck_assert_str_eq(str(dtb, node(dtb, "/chosen"), "bootargs"), "new");
    ck_assert_uint_eq(cell64(dtb, node(dtb, "/memory@80000000"), "reg", 3), 0x40000000);
    board_free(b);

    /* too little RAM for the initrd */
    static uint8_t big[12 << 20];
    char *bpath = temp_file(big, sizeof big);
    board_config_default(&cfg);
    cfg.console_in = -1;
    cfg.kernel = kpath;
    cfg.initrd = bpath;
    cfg.ram_size = 8ull << 20; /* below the minimum */
    ck_assert_ptr_null(board_new(&cfg, err, sizeof err));
    cfg.ram_size = 16ull << 20;
    b = board_new(&cfg, err, sizeof err);
    ck_assert_ptr_nonnull(b);
    ck_assert(!board_realize(b, err, sizeof err)); /* 4 MB kernel + 12 MB initrd + DTB */
    ck_assert_ptr_nonnull(strstr(err, "do not fit"));
    board_free(b);
    unlink(kpath); unlink(ipath); unlink(dpath); unlink(bpath);
    free(kpath); free(ipath); free(dpath); free(bpath);
}
END_TEST

/* A board with a display (--screenshot) and the given --display-controller (NULL: default). */
static Board *display_board(const char *kpath, const char *controller)
{
    BoardConfig cfg;
    char err[256];
    board_config_default(&cfg);
    cfg.console_in = -1;
    cfg.kernel = kpath;
    cfg.ram_size = 256ull << 20;
    cfg.gpu = "none";
    cfg.screenshot = "/nonexistent.png";
    cfg.display_controller = controller;
    Board *b = board_new(&cfg, err, sizeof err);
    ck_assert_msg(b && board_realize(b, err, sizeof err), "%s", err);
    return b;
}

/* The eLCDIF's nodes as mxsfb and panel-simple read them (fsl,lcdif.yaml, panel-dpi.yaml), the
 * graph linked both ways, and the screen that follows the controller that scans out. */
START_TEST(display_controllers)
{
    static uint8_t image[8192];
    memset(image, 0, sizeof image);
    image[0x12] = 0x40;
    image[0x18] = 0x2;
    memcpy(image + 0x38, "ARM\x64", 4);
    char *kpath = temp_file(image, sizeof image);
    Board *b = display_board(kpath, NULL);
    const void *dtb = bus_ram_ptr(b->bus, b->dtb_pa, false);
    int l = node(dtb, "/lcdif@7ff40000"), p = node(dtb, "/panel"), c = node(dtb, "/pxlclk");
    ck_assert_str_eq(str(dtb, l, "compatible"), "fsl,imx28-lcdif");
    ck_assert_uint_eq(cell64(dtb, l, "reg", 0), BOARD_LCDIF_BASE);
    ck_assert_uint_eq(cell64(dtb, l, "reg", 1), LCDIF_SIZE);
    ck_assert_uint_eq(cell(dtb, l, "interrupts", 0), 0); /* SPI */
    ck_assert_uint_eq(cell(dtb, l, "interrupts", 1), BOARD_LCDIF_INTID - 32);
    ck_assert_uint_eq(cell(dtb, l, "clocks", 0), cell(dtb, c, "phandle", 0));
    ck_assert_str_eq(str(dtb, l, "clock-names"), "pix");
    int le = node(dtb, "/lcdif@7ff40000/port/endpoint"), pe = node(dtb, "/panel/port/endpoint");
    ck_assert_uint_eq(cell(dtb, le, "remote-endpoint", 0), cell(dtb, pe, "phandle", 0));
    ck_assert_uint_eq(cell(dtb, pe, "remote-endpoint", 0), cell(dtb, le, "phandle", 0));
    ck_assert_str_eq(str(dtb, p, "compatible"), "panel-dpi");
    int t = node(dtb, "/panel/panel-timing");
    uint32_t clk = cell(dtb, t, "clock-frequency", 0);
    uint32_t ht = cell(dtb, t, "hactive", 0) + cell(dtb, t, "hfront-porch", 0) +
                  cell(dtb, t, "hsync-len", 0) + cell(dtb, t, "hback-porch", 0);
    uint32_t vt = cell(dtb, t, "vactive", 0) + cell(dtb, t, "vfront-porch", 0) +
                  cell(dtb, t, "vsync-len", 0) + cell(dtb, t, "vback-porch", 0);
    ck_assert_uint_eq(clk, cell(dtb, c, "clock-frequency", 0)); /* the fixed clock mxsfb gets */
    ck_assert_uint_eq(cell(dtb, t, "hactive", 0), BOARD_DISPLAY_WIDTH);
    ck_assert_uint_eq((uint64_t)clk * 1000 / ((uint64_t)ht * vt), 60003); /* mHz */
    ck_assert(cell(dtb, p, "width-mm", 0) > 0 && cell(dtb, p, "height-mm", 0) > 0);
    node(dtb, "/hdlcd@7ff60000"); /* the firmware's console stays beside it */

    /* the screen: the HDLCD's console until the eLCDIF runs, then its panel */
    static uint32_t px[1024 * 768];
    unsigned w, h;
    uint64_t v;
    ck_assert(board_display_render(b, px, 1024 * 768, &w, &h));
    ck_assert_uint_eq(w, 1024);
    ck_assert_int_eq(bus_write(b->bus, b->fb_pa, 0x123456, 4), BUS_OK);
    ck_assert(board_display_render(b, px, 1024 * 768, &w, &h));
    ck_assert_uint_eq(px[0], 0x123456);
    ck_assert_uint_eq(board_display_refresh_mhz(b), 60003);
    uint64_t lb = BOARD_LCDIF_BASE, buf = b->fb_pa - (1u << 20);
    ck_assert_int_eq(bus_write(b->bus, buf, 0xABCDEF, 4), BUS_OK);
    ck_assert_int_eq(bus_write(b->bus, lb + LCDIF_REG_CTRL + LCDIF_CLR, 0xC0000000u, 4), BUS_OK);
    ck_assert_int_eq(bus_write(b->bus, lb + LCDIF_REG_CTRL1, 7u << 16, 4), BUS_OK);
    ck_assert_int_eq(bus_write(b->bus, lb + LCDIF_REG_CTRL, 3u << 8 | LCDIF_CTRL_DOTCLK_MODE, 4), BUS_OK);
    ck_assert_int_eq(bus_write(b->bus, lb + LCDIF_REG_TRANSFER_COUNT, 16u << 16 | 32, 4), BUS_OK);
    ck_assert_int_eq(bus_write(b->bus, lb + LCDIF_REG_CUR_BUF, (uint32_t)buf, 4), BUS_OK);
    ck_assert_int_eq(bus_write(b->bus, lb + LCDIF_REG_NEXT_BUF, (uint32_t)buf, 4), BUS_OK); /* frames flip */
    ck_assert(board_display_render(b, px, 1024 * 768, &w, &h) && w == 1024); /* not running yet */
    ck_assert_int_eq(bus_write(b->bus, lb + LCDIF_REG_CTRL + LCDIF_SET, LCDIF_CTRL_RUN, 4), BUS_OK);
    ck_assert(board_display_render(b, px, 1024 * 768, &w, &h));
    ck_assert_uint_eq(w, 32);
    ck_assert_uint_eq(h, 16);
    ck_assert_uint_eq(px[0], 0xABCDEF);
    int r = board_display_render_changed(b, px, 1024 * 768, &w, &h);
    ck_assert_int_eq(r, 1);
    board_reset(b);
    board_display_firmware_init(b); /* what realize does after a reset: the firmware's console again */
    ck_assert(board_display_render(b, px, 1024 * 768, &w, &h));
    ck_assert_uint_eq(w, 1024);
    ck_assert_int_eq(board_display_render_changed(b, px, 1024 * 768, &w, &h), 1); /* new source */
    board_free(b);

    /* --display-controller hdlcd: no eLCDIF, no panel, nothing at its address */
    b = display_board(kpath, "hdlcd");
    dtb = bus_ram_ptr(b->bus, b->dtb_pa, false);
    ck_assert_int_lt(fdt_path_offset(dtb, "/lcdif@7ff40000"), 0);
    ck_assert_int_lt(fdt_path_offset(dtb, "/panel"), 0);
    node(dtb, "/hdlcd@7ff60000");
    ck_assert_int_eq(bus_read(b->bus, BOARD_LCDIF_BASE, 4, &v), BUS_ERROR);
    board_free(b);
    unlink(kpath);
    free(kpath);
}
END_TEST

START_TEST(args_and_sizes)
{
    ck_assert_uint_eq(board_parse_size("512"), 512ull << 20);
    ck_assert_uint_eq(board_parse_size("512M"), 512ull << 20);
    ck_assert_uint_eq(board_parse_size("2G"), 2ull << 30);
    ck_assert_uint_eq(board_parse_size("1GiB"), 1ull << 30);
    ck_assert_uint_eq(board_parse_size("65536k"), 64ull << 20);
    ck_assert_uint_eq(board_parse_size("0x100M"), 256ull << 20);
    ck_assert_uint_eq(board_parse_size("12Q"), 0);
    ck_assert_uint_eq(board_parse_size(""), 0);
    ck_assert_uint_eq(board_parse_size("99999999999999999999G"), 0);
    BoardConfig cfg;
    char err[256];
    char *bad1[] = { "malibu", "--kernel", NULL };
    board_config_default(&cfg);
    ck_assert_int_eq(options_parse_board(2, bad1, &cfg, err, sizeof err), -1);
    char *bad2[] = { "malibu", "--smp", "9", "--kernel", "k", NULL };
    ck_assert_int_eq(options_parse_board(5, bad2, &cfg, err, sizeof err), -1);
    char *bad3[] = { "malibu", "--initrd", "x", NULL };
    board_config_default(&cfg);
    ck_assert_int_eq(options_parse_board(3, bad3, &cfg, err, sizeof err), -1); /* no kernel */
    char *ok[] = { "malibu", "--dump-dtb", "/tmp/x.dtb", "-m", "3G", NULL };
    board_config_default(&cfg);
    ck_assert_int_eq(options_parse_board(5, ok, &cfg, err, sizeof err), 0);
    ck_assert_uint_eq(cfg.ram_size, 3ull << 30);
    ck_assert_str_eq(cfg.dump_dtb, "/tmp/x.dtb");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dev_fdt");
    TCase *tc = tcase_create("fdt");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, tree_contents);
    tcase_add_test(tc, optional_parts);
    tcase_add_test(tc, hooks);
    tcase_add_test(tc, board_boot_layout);
    tcase_add_test(tc, args_and_sizes);
    tcase_add_test(tc, display_controllers);
    suite_add_tcase(s, tc);
    return dev_run_suite(s);
}
