/* devices/hdlcd: registers as Linux's hdlcd driver programs them, scanout of the pixel formats
 * it sets (and others a SELECT register can describe), frame-end interrupts through the GIC,
 * the vsync pacing from the timings and pixel clock, and hostile programming (framebuffer
 * outside RAM, absurd sizes, random accesses). */
#include <stdlib.h>
#include <string.h>
#include "../devices/dev_check.h"
#include "../../devices/gic400.h"
#include "../../devices/hdlcd.h"

#define RAM_BASE 0x80000000ull
#define RAM_SIZE (16ull << 20)
#define INTID 117

static Bus *bus;
static uint8_t *ram;
static Gic *gic;

static void setup(void)
{
    bus = bus_new();
    ram = bus_add_ram(bus, "ram", RAM_BASE, RAM_SIZE, false);
    bus_freeze(bus);
    gic = gic_new(1, NULL, NULL);
    gic_dist_write(gic, 0, 0x000, 1, 4);
    for (unsigned i = 1; i < 8; i++)
        gic_dist_write(gic, 0, 0x100 + 4 * i, 0xFFFFFFFF, 4);
    for (unsigned i = 32; i < 256; i += 4)
        gic_dist_write(gic, 0, 0x800 + i, 0x01010101, 4);
}

static void teardown(void)
{
    gic_free(gic);
    bus_free(bus);
}

static bool pending(void)
{
    return (gic_dist_read(gic, 0, 0x200 + 4 * (INTID / 32), 4) >> (INTID % 32)) & 1;
}

static uint32_t rd(Hdlcd *d, unsigned off) { return (uint32_t)hdlcd_ops.read(d, off, 4); }
static void wr(Hdlcd *d, unsigned off, uint32_t v) { hdlcd_ops.write(d, off, v, 4); }

/* A w x h mode (small porches) scanning fb at RAM_BASE + off, bytes per pixel bpp, pitch. */
static void mode(Hdlcd *d, unsigned w, unsigned h, uint64_t fb, unsigned bpp, unsigned pitch)
{
    wr(d, HDLCD_REG_FB_BASE, (uint32_t)fb);
    wr(d, HDLCD_REG_FB_LINE_LENGTH, w * bpp);
    wr(d, HDLCD_REG_FB_LINE_PITCH, pitch);
    wr(d, HDLCD_REG_FB_LINE_COUNT, h - 1);
    wr(d, HDLCD_REG_V_DATA, h - 1);
    wr(d, HDLCD_REG_H_DATA, w - 1);
    wr(d, HDLCD_REG_V_SYNC, 0);
    wr(d, HDLCD_REG_V_BACK_PORCH, 0);
    wr(d, HDLCD_REG_V_FRONT_PORCH, 0);
    wr(d, HDLCD_REG_H_SYNC, 0);
    wr(d, HDLCD_REG_H_BACK_PORCH, 0);
    wr(d, HDLCD_REG_H_FRONT_PORCH, 0);
    wr(d, HDLCD_REG_PIXEL_FORMAT, (bpp - 1) << 3);
}

START_TEST(hdlcd_registers)
{
    Hdlcd *d = hdlcd_new(bus, gic, INTID, 65000000);
    ck_assert_uint_eq(rd(d, HDLCD_REG_VERSION), HDLCD_VERSION_VALUE);
    wr(d, HDLCD_REG_VERSION, 0); /* read-only */
    ck_assert_uint_eq(rd(d, HDLCD_REG_VERSION) & 0xFFFF0000u, 0x1CDC0000u);
    ck_assert_uint_eq(rd(d, HDLCD_REG_COMMAND), 0);
    /* what hdlcd_irq_preinstall does, then the mask bits it uses */
    wr(d, HDLCD_REG_INT_MASK, 0);
    wr(d, HDLCD_REG_INT_CLEAR, ~0u);
    ck_assert_uint_eq(rd(d, HDLCD_REG_INT_RAWSTAT), 0);
    wr(d, HDLCD_REG_INT_MASK, 0xFFFFFFFF);
    ck_assert_uint_eq(rd(d, HDLCD_REG_INT_MASK), 0xF);
    wr(d, HDLCD_REG_H_DATA, 0xFFFFFFFF);
    ck_assert_uint_eq(rd(d, HDLCD_REG_H_DATA), 0xFFF);
    /* a register write that changes the picture changes the generation; the mask does not */
    uint64_t g = hdlcd_generation(d);
    wr(d, HDLCD_REG_INT_MASK, 4);
    ck_assert_uint_eq(hdlcd_generation(d), g);
    wr(d, HDLCD_REG_FB_BASE, 0x1000);
    ck_assert_uint_ne(hdlcd_generation(d), g);
    ck_assert_uint_eq(hdlcd_ops.read(d, HDLCD_REG_FB_BASE, 2), 0); /* 32-bit only */
    hdlcd_reset(d);
    ck_assert_uint_eq(rd(d, HDLCD_REG_FB_BASE), 0);
    ck_assert_uint_eq(rd(d, HDLCD_REG_INT_MASK), 0);
    hdlcd_free(d);
}
END_TEST

START_TEST(hdlcd_scanout_formats)
{
    Hdlcd *d = hdlcd_new(bus, gic, INTID, 65000000);
    uint32_t out[8 * 4];
    unsigned w, h;
    ck_assert(!hdlcd_render(d, out, 32, &w, &h)); /* disabled */
    /* XRGB8888, as the driver sets it for DRM_FORMAT_XRGB8888: 4 x 2 pixels, pitch 32 bytes */
    uint32_t *fb = (uint32_t *)ram;
    for (unsigned i = 0; i < 16; i++)
        fb[i] = 0xFF000000u | i * 0x010203u;
    mode(d, 4, 2, RAM_BASE, 4, 32);
    wr(d, HDLCD_REG_RED_SELECT, 8 << 8 | 16);
    wr(d, HDLCD_REG_GREEN_SELECT, 8 << 8 | 8);
    wr(d, HDLCD_REG_BLUE_SELECT, 8 << 8 | 0);
    wr(d, HDLCD_REG_COMMAND, 1);
    ck_assert(hdlcd_render(d, out, 32, &w, &h));
    ck_assert_uint_eq(w, 4);
    ck_assert_uint_eq(h, 2);
    for (unsigned x = 0; x < 4; x++) {
        ck_assert_uint_eq(out[x], x * 0x010203u);
        ck_assert_uint_eq(out[4 + x], (8 + x) * 0x010203u); /* second line at the pitch */
    }
    /* ABGR8888 (red in the low byte) */
    wr(d, HDLCD_REG_RED_SELECT, 8 << 8 | 0);
    wr(d, HDLCD_REG_BLUE_SELECT, 8 << 8 | 16);
    fb[0] = 0x00112233;
    ck_assert(hdlcd_render(d, out, 32, &w, &h));
    ck_assert_uint_eq(out[0], 0x332211);
    /* RGB565, 2 bytes per pixel: white, pure red, pure blue; 5/6 bits expand to 8 */
    uint16_t *fb16 = (uint16_t *)(ram + 0x1000);
    fb16[0] = 0xFFFF;
    fb16[1] = 0xF800;
    fb16[2] = 0x001F;
    fb16[3] = 0x0841; /* r=1 g=2 b=1 */
    mode(d, 4, 1, RAM_BASE + 0x1000, 2, 8);
    wr(d, HDLCD_REG_RED_SELECT, 5 << 8 | 11);
    wr(d, HDLCD_REG_GREEN_SELECT, 6 << 8 | 5);
    wr(d, HDLCD_REG_BLUE_SELECT, 5 << 8 | 0);
    ck_assert(hdlcd_render(d, out, 32, &w, &h));
    ck_assert_uint_eq(out[0], 0xFFFFFF);
    ck_assert_uint_eq(out[1], 0xFF0000);
    ck_assert_uint_eq(out[2], 0x0000FF);
    ck_assert_uint_eq(out[3], 0x080808);
    /* big-endian pixels */
    wr(d, HDLCD_REG_PIXEL_FORMAT, 1u << 31 | 1 << 3);
    fb16[0] = 0x00F8; /* bytes F8 00 read big-endian: 0xF800 */
    ck_assert(hdlcd_render(d, out, 32, &w, &h));
    ck_assert_uint_eq(out[0], 0xFF0000);
    /* a component of size 0 gives its default value; pixels past the line and lines past the
     * framebuffer show the defaults too */
    mode(d, 4, 3, RAM_BASE, 4, 16);
    wr(d, HDLCD_REG_FB_LINE_LENGTH, 8);  /* 2 pixels per line */
    wr(d, HDLCD_REG_FB_LINE_COUNT, 1);   /* 2 lines */
    wr(d, HDLCD_REG_RED_SELECT, 0x40 << 16);
    wr(d, HDLCD_REG_GREEN_SELECT, 0x50 << 16 | 8 << 8 | 8);
    wr(d, HDLCD_REG_BLUE_SELECT, 0x60 << 16 | 8 << 8 | 0);
    fb[0] = 0x00AABBCC;
    ck_assert(hdlcd_render(d, out, 32, &w, &h));
    ck_assert_uint_eq(out[0], 0x40BBCC);
    ck_assert_uint_eq(out[2], 0x405060);
    ck_assert_uint_eq(out[8], 0x405060);
    ck_assert(!hdlcd_render(d, out, 11, &w, &h)); /* frame larger than the caller's buffer */
    hdlcd_free(d);
}
END_TEST

START_TEST(hdlcd_render_changed_only)
{
    Hdlcd *d = hdlcd_new(bus, gic, INTID, 65000000);
    uint32_t out[16 * 16];
    unsigned w, h;
    mode(d, 16, 16, RAM_BASE, 4, 64);
    wr(d, HDLCD_REG_RED_SELECT, 8 << 8 | 16);
    wr(d, HDLCD_REG_GREEN_SELECT, 8 << 8 | 8);
    wr(d, HDLCD_REG_BLUE_SELECT, 8 << 8 | 0);
    ck_assert_int_eq(hdlcd_render_changed(d, out, 256, &w, &h), -1); /* off */
    wr(d, HDLCD_REG_COMMAND, 1);
    ck_assert_int_eq(hdlcd_render_changed(d, out, 256, &w, &h), 1);
    ck_assert_int_eq(hdlcd_render_changed(d, out, 256, &w, &h), 0);
    ram[15 * 64 + 60] = 0x7F; /* last pixel of the last line */
    ck_assert_int_eq(hdlcd_render_changed(d, out, 256, &w, &h), 1);
    ck_assert_uint_eq(out[255], 0x7F);
    ck_assert_int_eq(hdlcd_render_changed(d, out, 256, &w, &h), 0);
    ram[16 * 64] = 0x7F; /* outside the frame: not a change */
    ck_assert_int_eq(hdlcd_render_changed(d, out, 256, &w, &h), 0);
    hdlcd_end_frame(d); /* interrupt bits (the vsync timer sets them any time): not a change */
    wr(d, HDLCD_REG_INT_MASK, HDLCD_INT_VSYNC);
    ck_assert_int_eq(hdlcd_render_changed(d, out, 256, &w, &h), 0);
    wr(d, HDLCD_REG_BLUE_SELECT, 0x10 << 16); /* a register: a change */
    ck_assert_int_eq(hdlcd_render_changed(d, out, 256, &w, &h), 1);
    ck_assert_uint_eq(out[255], 0x10);
    hdlcd_free(d);
}
END_TEST

START_TEST(hdlcd_interrupts)
{
    Hdlcd *d = hdlcd_new(bus, gic, INTID, 65000000);
    mode(d, 16, 16, RAM_BASE, 4, 64);
    hdlcd_end_frame(d); /* disabled: nothing happens */
    ck_assert_uint_eq(rd(d, HDLCD_REG_INT_RAWSTAT), 0);
    wr(d, HDLCD_REG_COMMAND, 1);
    hdlcd_end_frame(d);
    ck_assert_uint_eq(rd(d, HDLCD_REG_INT_RAWSTAT), HDLCD_INT_VSYNC | HDLCD_INT_DMA_END);
    ck_assert_uint_eq(rd(d, HDLCD_REG_INT_STATUS), 0);
    ck_assert(!pending());
    wr(d, HDLCD_REG_INT_MASK, HDLCD_INT_VSYNC); /* hdlcd_crtc_enable_vblank */
    ck_assert_uint_eq(rd(d, HDLCD_REG_INT_STATUS), HDLCD_INT_VSYNC);
    ck_assert(pending());
    wr(d, HDLCD_REG_INT_CLEAR, HDLCD_INT_VSYNC | HDLCD_INT_DMA_END); /* the handler's ack */
    ck_assert_uint_eq(rd(d, HDLCD_REG_INT_RAWSTAT), 0);
    ck_assert(!pending());
    hdlcd_free(d);
}
END_TEST

START_TEST(hdlcd_vsync_pacing)
{
    /* 100 x 100 total pixels at 1 MHz: 100 frames per second */
    Hdlcd *d = hdlcd_new(bus, gic, INTID, 1000000);
    mode(d, 97, 97, RAM_BASE, 4, 388);
    ck_assert_uint_eq(hdlcd_refresh_mhz(d), 0);
    wr(d, HDLCD_REG_COMMAND, 1);
    ck_assert_uint_eq(hdlcd_refresh_mhz(d), 100000);
    dev_sleep_ms(300);
    uint64_t f = hdlcd_frames(d);
    ck_assert_msg(f >= 15 && f <= 40, "%llu frames in 300 ms at 100 Hz", (unsigned long long)f);
    wr(d, HDLCD_REG_COMMAND, 0);
    f = hdlcd_frames(d);
    dev_sleep_ms(50);
    ck_assert_uint_eq(hdlcd_frames(d), f); /* stopped */
    hdlcd_free(d);
}
END_TEST

START_TEST(hdlcd_hostile)
{
    Hdlcd *d = hdlcd_new(bus, gic, INTID, 65000000);
    uint32_t *out = malloc(64 * 64 * 4);
    unsigned w, h;
    /* framebuffer partly past the end of RAM: bus error + underrun, default colour shown */
    mode(d, 64, 64, RAM_BASE + RAM_SIZE - 4096, 4, 256);
    wr(d, HDLCD_REG_RED_SELECT, 0xFF << 16 | 8 << 8 | 16);
    wr(d, HDLCD_REG_COMMAND, 1);
    memset(ram + RAM_SIZE - 4096, 0x55, 4096);
    hdlcd_end_frame(d);
    ck_assert_uint_eq(rd(d, HDLCD_REG_INT_RAWSTAT),
                      HDLCD_INT_VSYNC | HDLCD_INT_BUS_ERROR | HDLCD_INT_UNDERRUN);
    ck_assert(hdlcd_render(d, out, 64 * 64, &w, &h));
    for (unsigned i = 0; i < 64 * 64; i++)
        ck_assert_uint_eq(out[i], 0xFF0000);
    /* not RAM at all, a huge pitch that wraps 64 bits, the largest sizes */
    wr(d, HDLCD_REG_FB_BASE, 0x1000);
    hdlcd_end_frame(d);
    wr(d, HDLCD_REG_FB_BASE, (uint32_t)RAM_BASE);
    wr(d, HDLCD_REG_FB_LINE_PITCH, 0xFFFFFFFF);
    hdlcd_end_frame(d);
    ck_assert(rd(d, HDLCD_REG_INT_RAWSTAT) & HDLCD_INT_BUS_ERROR);
    ck_assert(hdlcd_render(d, out, 64 * 64, &w, &h));
    wr(d, HDLCD_REG_H_DATA, 0xFFF);
    wr(d, HDLCD_REG_V_DATA, 0xFFF);
    ck_assert(!hdlcd_render(d, out, 64 * 64, &w, &h));
    /* random accesses, then the device still works */
    dev_fuzz(&hdlcd_ops, d, HDLCD_SIZE, 20000, 7);
    hdlcd_end_frame(d);
    (void)hdlcd_render(d, out, 64 * 64, &w, &h);
    hdlcd_reset(d);
    mode(d, 8, 8, RAM_BASE, 4, 32);
    wr(d, HDLCD_REG_COMMAND, 1);
    ck_assert(hdlcd_render(d, out, 64 * 64, &w, &h));
    hdlcd_free(d);
    free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dev_hdlcd");
    TCase *tc = tcase_create("hdlcd");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, hdlcd_registers);
    tcase_add_test(tc, hdlcd_scanout_formats);
    tcase_add_test(tc, hdlcd_render_changed_only);
    tcase_add_test(tc, hdlcd_interrupts);
    tcase_add_test(tc, hdlcd_vsync_pacing);
    tcase_add_test(tc, hdlcd_hostile);
    suite_add_tcase(s, tc);
    return dev_run_suite(s);
}
