/* The board's display: HDLCD + firmware framebuffer (see board_display.h). */
#include "board_display.h"
#include "board.h"
#include "hdlcd.h"
#include "lcdif.h"
#include "virtio_board.h"
#include "virtio_input.h"
#include "../emu/checkpoint/ckpt.h"

#include <libfdt.h>
#include <stdio.h>
#include <string.h>

#define TRY(x)          \
    do {                \
        int r_ = (x);   \
        if (r_ < 0)     \
            return r_;  \
    } while (0)

/* VESA 1024x768 at 60 Hz (65 MHz): front porch, sync, back porch. */
enum { H_FP = 24, H_SYNC = 136, H_BP = 160, V_FP = 3, V_SYNC = 6, V_BP = 29 };
#define STRIDE (BOARD_DISPLAY_WIDTH * 4)

static int reg_prop(void *fdt, int node, uint64_t base, uint64_t size)
{
    return fdt_board_setprop_reg(fdt, node, base, size);
}

/* A node's OF-graph port with one endpoint pointing at remote (its own phandle: self). */
static int graph_port(void *fdt, int node, uint32_t self, uint32_t remote)
{
    int port = fdt_add_subnode(fdt, node, "port");
    TRY(port);
    int ep = fdt_add_subnode(fdt, port, "endpoint");
    TRY(ep);
    TRY(fdt_setprop_u32(fdt, ep, "remote-endpoint", remote));
    return fdt_setprop_u32(fdt, ep, "phandle", self);
}

/* The eLCDIF (fsl,lcdif.yaml: reg, interrupts, clocks "pix") and its panel (panel-dpi with a
 * panel-timing: the mode the pixel clock gives 60 Hz with), joined by an OF graph, which is what
 * mxsfb's drm_of_find_panel_or_bridge follows. */
static int lcdif_fdt(void *fdt, uint32_t clk_ph, uint32_t ph)
{
    uint32_t lcdif_ep = ph, panel_ep = ph + 1;
    char name[48];
    int panel = fdt_add_subnode(fdt, 0, "panel");
    TRY(panel);
    TRY(graph_port(fdt, panel, panel_ep, lcdif_ep));
    int t = fdt_add_subnode(fdt, panel, "panel-timing");
    TRY(t);
    TRY(fdt_setprop_u32(fdt, t, "pixelclk-active", 0));
    TRY(fdt_setprop_u32(fdt, t, "de-active", 1));
    TRY(fdt_setprop_u32(fdt, t, "vsync-active", 0));
    TRY(fdt_setprop_u32(fdt, t, "hsync-active", 0));
    TRY(fdt_setprop_u32(fdt, t, "vsync-len", V_SYNC));
    TRY(fdt_setprop_u32(fdt, t, "vback-porch", V_BP));
    TRY(fdt_setprop_u32(fdt, t, "vfront-porch", V_FP));
    TRY(fdt_setprop_u32(fdt, t, "hsync-len", H_SYNC));
    TRY(fdt_setprop_u32(fdt, t, "hback-porch", H_BP));
    TRY(fdt_setprop_u32(fdt, t, "hfront-porch", H_FP));
    TRY(fdt_setprop_u32(fdt, t, "vactive", BOARD_DISPLAY_HEIGHT));
    TRY(fdt_setprop_u32(fdt, t, "hactive", BOARD_DISPLAY_WIDTH));
    TRY(fdt_setprop_u32(fdt, t, "clock-frequency", BOARD_DISPLAY_PIXEL_CLOCK));
    /* the bus format (RGB888_1X24) and 8 bits a component, which panel-simple asks for */
    TRY(fdt_setprop_string(fdt, panel, "data-mapping", "rgb24"));
    TRY(fdt_setprop_u32(fdt, panel, "height-mm", BOARD_PANEL_HEIGHT_MM));
    TRY(fdt_setprop_u32(fdt, panel, "width-mm", BOARD_PANEL_WIDTH_MM));
    TRY(fdt_setprop_string(fdt, panel, "compatible", "panel-dpi"));

    snprintf(name, sizeof name, "lcdif@%llx", (unsigned long long)BOARD_LCDIF_BASE);
    int n = fdt_add_subnode(fdt, 0, name);
    TRY(n);
    TRY(graph_port(fdt, n, lcdif_ep, panel_ep));
    TRY(fdt_setprop_string(fdt, n, "clock-names", "pix"));
    TRY(fdt_setprop_u32(fdt, n, "clocks", clk_ph));
    TRY(fdt_board_setprop_spis(fdt, n, (unsigned[]){ BOARD_LCDIF_INTID }, 1));
    TRY(reg_prop(fdt, n, BOARD_LCDIF_BASE, LCDIF_SIZE));
    return fdt_setprop_string(fdt, n, "compatible", "fsl,imx28-lcdif");
}

/* reserved-memory (no-map: Linux must not use it as RAM, simplefb maps it write-combined), the
 * pixel clock, the HDLCD and the firmware framebuffer. */
static int display_fdt_hook(void *fdt, void *opaque)
{
    Board *b = opaque;
    char name[48];
    uint32_t ph;
    TRY(fdt_find_max_phandle(fdt, &ph));
    ph = ph + 1 < FDT_PHANDLE_FIRST_FREE ? FDT_PHANDLE_FIRST_FREE : ph + 1;

    int rm = fdt_add_subnode(fdt, 0, "reserved-memory");
    TRY(rm);
    /* libfdt inserts each new property first: set them last to first */
    TRY(fdt_setprop(fdt, rm, "ranges", NULL, 0));
    TRY(fdt_setprop_u32(fdt, rm, "#size-cells", 2));
    TRY(fdt_setprop_u32(fdt, rm, "#address-cells", 2));
    snprintf(name, sizeof name, "framebuffer@%llx", (unsigned long long)b->fb_pa);
    int fbm = fdt_add_subnode(fdt, rm, name);
    TRY(fbm);
    TRY(fdt_setprop(fdt, fbm, "no-map", NULL, 0));
    TRY(reg_prop(fdt, fbm, b->fb_pa, BOARD_FB_SIZE));

    int clk = fdt_add_subnode(fdt, 0, "pxlclk");
    TRY(clk);
    TRY(fdt_setprop_u32(fdt, clk, "phandle", ph));
    TRY(fdt_setprop_string(fdt, clk, "clock-output-names", "pxlclk"));
    TRY(fdt_setprop_u32(fdt, clk, "clock-frequency", BOARD_DISPLAY_PIXEL_CLOCK));
    TRY(fdt_setprop_u32(fdt, clk, "#clock-cells", 0));
    TRY(fdt_setprop_string(fdt, clk, "compatible", "fixed-clock"));

    snprintf(name, sizeof name, "hdlcd@%llx", (unsigned long long)BOARD_HDLCD_BASE);
    int n = fdt_add_subnode(fdt, 0, name);
    TRY(n);
    TRY(fdt_setprop_string(fdt, n, "clock-names", "pxlclk"));
    TRY(fdt_setprop_u32(fdt, n, "clocks", ph));
    TRY(fdt_board_setprop_spis(fdt, n, (unsigned[]){ BOARD_HDLCD_INTID }, 1));
    TRY(reg_prop(fdt, n, BOARD_HDLCD_BASE, HDLCD_SIZE));
    TRY(fdt_setprop_string(fdt, n, "compatible", "arm,hdlcd"));

    /* at the root: /chosen has no ranges, so a reg there would not translate */
    snprintf(name, sizeof name, "framebuffer@%llx", (unsigned long long)b->fb_pa);
    int fb = fdt_add_subnode(fdt, 0, name);
    TRY(fb);
    TRY(fdt_setprop_string(fdt, fb, "format", "x8r8g8b8"));
    TRY(fdt_setprop_u32(fdt, fb, "stride", STRIDE));
    TRY(fdt_setprop_u32(fdt, fb, "height", BOARD_DISPLAY_HEIGHT));
    TRY(fdt_setprop_u32(fdt, fb, "width", BOARD_DISPLAY_WIDTH));
    TRY(reg_prop(fdt, fb, b->fb_pa, (uint64_t)STRIDE * BOARD_DISPLAY_HEIGHT));
    TRY(fdt_setprop_string(fdt, fb, "compatible", "simple-framebuffer"));
    return b->lcdif ? lcdif_fdt(fdt, ph, ph + 1) : 0;
}

/* virtio@... nodes of the keyboard and the tablet (in slot order) */
static int input_fdt_hook(void *fdt, void *opaque)
{
    Board *b = opaque;
    VirtioMmio *t[2] = { virtio_input_transport(b->keyboard), virtio_input_transport(b->tablet) };
    return virtio_mmio_fdt_add_all(fdt, t, 2);
}

static bool attach_input(Board *b, VirtioInput **out, VirtioInputKind kind, char *err, size_t errlen)
{
    unsigned slot = b->nvblk + (kind == VIRTIO_INPUT_TABLET);
    if (slot >= BOARD_VIRTIO_SLOTS) {
        snprintf(err, errlen, "the display's keyboard and tablet need 2 free virtio slots: at most %d disks",
                 BOARD_VIRTIO_SLOTS - 2);
        return false;
    }
    uint64_t base = BOARD_VIRTIO_BASE + slot * BOARD_VIRTIO_STRIDE;
    *out = virtio_input_new(b->bus, b->gic, 32 + BOARD_VIRTIO_SPI0 + slot, base, kind, !b->cfg.clock_icount);
    if (!*out || !board_add_mmio(b, base, VIRTIO_MMIO_WINDOW, &virtio_mmio_ops, virtio_input_transport(*out))) {
        snprintf(err, errlen, "cannot create the display's virtio-input devices");
        return false;
    }
    return true;
}

void board_display_free(Board *b)
{
    virtio_input_free(b->keyboard);
    virtio_input_free(b->tablet);
    hdlcd_free(b->display);
    lcdif_free(b->lcdif);
    b->keyboard = b->tablet = NULL;
    b->display = NULL;
    b->lcdif = NULL;
}

void board_display_reset(Board *b)
{
    if (b->keyboard)
        virtio_mmio_reset(virtio_input_transport(b->keyboard));
    if (b->tablet)
        virtio_mmio_reset(virtio_input_transport(b->tablet));
}

bool board_display_attach(Board *b, char *err, size_t errlen)
{
    uint64_t bank0 = b->cfg.ram_size < BOARD_RAM_BANK0_MAX ? b->cfg.ram_size : BOARD_RAM_BANK0_MAX;
    if (bank0 < 64ull << 20) {
        snprintf(err, errlen, "a display needs at least 64M of RAM (-m)");
        return false;
    }
    /* below the DTB's 2 MiB at the end of bank 0 */
    b->fb_pa = BOARD_RAM_BASE + bank0 - (2ull << 20) - BOARD_FB_SIZE;
    b->display = hdlcd_new(b->bus, b->gic, BOARD_HDLCD_INTID, BOARD_DISPLAY_PIXEL_CLOCK);
    if (!b->display || !board_add_mmio(b, BOARD_HDLCD_BASE, HDLCD_SIZE, &hdlcd_ops, b->display) ||
        !board_add_fdt_hook(b, display_fdt_hook, b)) {
        snprintf(err, errlen, "cannot create the display");
        return false;
    }
    if (!b->cfg.display_controller || !strcmp(b->cfg.display_controller, "lcdif")) {
        b->lcdif = lcdif_new(b->bus, b->gic, BOARD_LCDIF_INTID, BOARD_DISPLAY_PIXEL_CLOCK);
        if (!b->lcdif || !board_add_mmio(b, BOARD_LCDIF_BASE, LCDIF_SIZE, &lcdif_ops, b->lcdif)) {
            snprintf(err, errlen, "cannot create the eLCDIF");
            return false;
        }
    }
    return attach_input(b, &b->keyboard, VIRTIO_INPUT_KEYBOARD, err, errlen) &&
           attach_input(b, &b->tablet, VIRTIO_INPUT_TABLET, err, errlen) &&
           board_add_fdt_hook(b, input_fdt_hook, b);
}

static void w(Hdlcd *d, uint64_t off, uint32_t v)
{
    hdlcd_ops.write(d, off, v, 4);
}

void board_display_firmware_init(Board *b)
{
    Hdlcd *d = b->display;
    static const uint8_t black[4096];
    for (uint64_t off = 0; off < BOARD_FB_SIZE; off += sizeof black)
        bus_load(b->bus, b->fb_pa + off, black, sizeof black);
    hdlcd_reset(d);
    if (b->lcdif)
        lcdif_reset(b->lcdif); /* in reset, clock gated: the firmware leaves it to Linux */
    w(d, HDLCD_REG_FB_BASE, (uint32_t)b->fb_pa);
    w(d, HDLCD_REG_FB_LINE_LENGTH, STRIDE);
    w(d, HDLCD_REG_FB_LINE_PITCH, STRIDE);
    w(d, HDLCD_REG_FB_LINE_COUNT, BOARD_DISPLAY_HEIGHT - 1);
    w(d, HDLCD_REG_BUS_OPTIONS, 0xF00 | 16);
    w(d, HDLCD_REG_V_DATA, BOARD_DISPLAY_HEIGHT - 1);
    w(d, HDLCD_REG_V_BACK_PORCH, V_BP - 1);
    w(d, HDLCD_REG_V_FRONT_PORCH, V_FP - 1);
    w(d, HDLCD_REG_V_SYNC, V_SYNC - 1);
    w(d, HDLCD_REG_H_DATA, BOARD_DISPLAY_WIDTH - 1);
    w(d, HDLCD_REG_H_BACK_PORCH, H_BP - 1);
    w(d, HDLCD_REG_H_FRONT_PORCH, H_FP - 1);
    w(d, HDLCD_REG_H_SYNC, H_SYNC - 1);
    w(d, HDLCD_REG_POLARITIES, 0xC); /* data enable, data; negative syncs (VESA DMT) */
    w(d, HDLCD_REG_PIXEL_FORMAT, 3 << 3); /* 4 bytes per pixel, little-endian */
    w(d, HDLCD_REG_RED_SELECT, 8 << 8 | 16);
    w(d, HDLCD_REG_GREEN_SELECT, 8 << 8 | 8);
    w(d, HDLCD_REG_BLUE_SELECT, 8 << 8 | 0);
    w(d, HDLCD_REG_COMMAND, 1);
}

/* The eLCDIF's panel is the screen once the eLCDIF has run since reset (mxsfb took over). */
static bool lcdif_shown(Board *b)
{
    return b->lcdif && (lcdif_running(b->lcdif) || lcdif_frames(b->lcdif) > 0);
}

bool board_display_render(Board *b, uint32_t *pixels, uint64_t max_pixels, unsigned *width,
                          unsigned *height)
{
    if (lcdif_shown(b))
        return lcdif_render(b->lcdif, pixels, max_pixels, width, height);
    return b->display && hdlcd_render(b->display, pixels, max_pixels, width, height);
}

int board_display_render_changed(Board *b, uint32_t *pixels, uint64_t max_pixels, unsigned *width,
                                 unsigned *height)
{
    int source = lcdif_shown(b) ? 2 : b->display ? 1 : 0;
    int r = source == 2 ? lcdif_render_changed(b->lcdif, pixels, max_pixels, width, height)
          : source == 1 ? hdlcd_render_changed(b->display, pixels, max_pixels, width, height) : -1;
    if (r == 0 && source != b->screen_source) /* unchanged for that controller, new to the screen */
        r = board_display_render(b, pixels, max_pixels, width, height) ? 1 : -1;
    b->screen_source = source;
    return r;
}

uint32_t board_display_refresh_mhz(Board *b)
{
    if (lcdif_shown(b))
        return lcdif_refresh_mhz(b->lcdif);
    return b->display ? hdlcd_refresh_mhz(b->display) : 0;
}

void board_display_ckpt_save(Board *b, CkptWriter *w)
{
    if (!b->display)
        return;
    hdlcd_ckpt_save(b->display, w);
    if (b->lcdif)
        lcdif_ckpt_save(b->lcdif, w);
    virtio_input_ckpt_save(b->keyboard, w, b->nvblk);
    virtio_input_ckpt_save(b->tablet, w, b->nvblk + 1);
}

bool board_display_ckpt_load(Board *b, CkptReader *r)
{
    if (!b->display)
        return true;
    return hdlcd_ckpt_load(b->display, r) && (!b->lcdif || lcdif_ckpt_load(b->lcdif, r)) &&
           virtio_input_ckpt_load(b->keyboard, r, b->nvblk) &&
           virtio_input_ckpt_load(b->tablet, r, b->nvblk + 1);
}

void board_display_ckpt_resume(Board *b)
{
    if (b->keyboard)
        virtio_mmio_resume(virtio_input_transport(b->keyboard));
    if (b->tablet)
        virtio_mmio_resume(virtio_input_transport(b->tablet));
}
