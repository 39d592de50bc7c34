/* devices/lcdif: the register traffic of Linux's mxsfb driver (SET/CLR/TOG aliases, the
 * SFTRST/CLKGATE reset handshake, DOTCLK stop), scanout of the formats it programs, the
 * frame-done interrupt through the GIC and its pacing from VDCTRL1/2 and the pixel clock, the
 * NEXT_BUF -> CUR_BUF flip at frame end, and hostile programming. */
#include <stdlib.h>
#include <string.h>
#include "../devices/dev_check.h"
#include "../../devices/gic400.h"
#include "../../devices/lcdif.h"

#define RAM_BASE 0x80000000ull
#define RAM_SIZE (16ull << 20)
#define INTID 118
/* A 1 Hz pixel clock: frames end once a second (the slowest the timer goes), so the timer never
 * ends one while a test looks between its own lcdif_end_frame calls. */
#define SLOW_CLOCK 1

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

static uint32_t rd(Lcdif *d, unsigned off) { return (uint32_t)lcdif_ops.read(d, off, 4); }
static void wr(Lcdif *d, unsigned off, uint32_t v) { lcdif_ops.write(d, off, v, 4); }

/* mxsfb_reset_block: clear SFTRST (poll), clear CLKGATE, SFTRST again, CLKGATE (poll). */
static void reset_block(Lcdif *d)
{
    wr(d, LCDIF_REG_CTRL + LCDIF_CLR, LCDIF_CTRL_SFTRST);
    ck_assert(!(rd(d, LCDIF_REG_CTRL) & LCDIF_CTRL_SFTRST));
    wr(d, LCDIF_REG_CTRL + LCDIF_CLR, LCDIF_CTRL_CLKGATE);
    wr(d, LCDIF_REG_CTRL + LCDIF_CLR, LCDIF_CTRL_SFTRST);
    wr(d, LCDIF_REG_CTRL + LCDIF_CLR, LCDIF_CTRL_CLKGATE);
    ck_assert(!(rd(d, LCDIF_REG_CTRL) & (LCDIF_CTRL_SFTRST | LCDIF_CTRL_CLKGATE)));
    wr(d, LCDIF_REG_CTRL1 + LCDIF_SET, LCDIF_CTRL1_FIFO_CLEAR);
    wr(d, LCDIF_REG_CTRL1 + LCDIF_CLR, LCDIF_CTRL1_FIFO_CLEAR);
}

/* What mxsfb's atomic_enable writes for a w x h mode (htotal x vtotal) in format word/packing,
 * then RUN: set_formats, set_mode, the buffers, enable_controller. */
static void enable(Lcdif *d, unsigned w, unsigned h, unsigned htotal, unsigned vtotal,
                   unsigned word, unsigned packing, uint32_t buf)
{
    reset_block(d);
    uint32_t c1 = rd(d, LCDIF_REG_CTRL1) & (LCDIF_CTRL1_CUR_FRAME_DONE_IRQ_EN | LCDIF_CTRL1_CUR_FRAME_DONE_IRQ);
    wr(d, LCDIF_REG_CTRL1, c1 | packing << LCDIF_CTRL1_PACKING_SHIFT);
    wr(d, LCDIF_REG_CTRL, LCDIF_CTRL_BYPASS_COUNT | LCDIF_CTRL_MASTER | word << 8 | 3u << 10);
    wr(d, LCDIF_REG_TRANSFER_COUNT, h << 16 | w);
    wr(d, LCDIF_REG_VDCTRL0, 1u << 28 | LCDIF_VDCTRL0_VSYNC_PERIOD_UNIT | 1u << 20 | 1u << 24 | 2);
    wr(d, LCDIF_REG_VDCTRL1, vtotal);
    wr(d, LCDIF_REG_VDCTRL2, 4u << 18 | htotal);
    wr(d, LCDIF_REG_VDCTRL3, 2u << 16 | 2);
    wr(d, LCDIF_REG_VDCTRL4, w);
    wr(d, LCDIF_REG_CUR_BUF, buf);
    wr(d, LCDIF_REG_NEXT_BUF, buf);
    wr(d, LCDIF_REG_CTRL2, (rd(d, LCDIF_REG_CTRL2) & ~(7u << 21)) | 4u << 21);
    wr(d, LCDIF_REG_CTRL + LCDIF_SET, LCDIF_CTRL_DOTCLK_MODE);
    wr(d, LCDIF_REG_VDCTRL4, rd(d, LCDIF_REG_VDCTRL4) | LCDIF_VDCTRL4_SYNC_SIGNALS_ON);
    wr(d, LCDIF_REG_CTRL1, rd(d, LCDIF_REG_CTRL1) | LCDIF_CTRL1_RECOVER_ON_UNDERFLOW);
    wr(d, LCDIF_REG_CTRL + LCDIF_SET, LCDIF_CTRL_RUN);
}

START_TEST(lcdif_registers_and_reset)
{
    Lcdif *d = lcdif_new(bus, gic, INTID, SLOW_CLOCK);
    /* reset values: the block in reset, clock gated */
    ck_assert_uint_eq(rd(d, LCDIF_REG_CTRL), LCDIF_CTRL_SFTRST | LCDIF_CTRL_CLKGATE);
    ck_assert_uint_eq(rd(d, LCDIF_REG_CTRL1), 0xFu << 16);
    ck_assert_uint_eq(rd(d, LCDIF_REG_TRANSFER_COUNT), 1u << 16);
    ck_assert_uint_eq(rd(d, LCDIF_REG_VERSION), LCDIF_VERSION_VALUE);
    ck_assert(rd(d, LCDIF_REG_STAT) >> 31); /* PRESENT */
    reset_block(d);
    ck_assert_uint_eq(rd(d, LCDIF_REG_CTRL), 0);
    /* the aliases of an SCT register: set, clear, toggle; reads of the aliases give the value */
    wr(d, LCDIF_REG_CTRL2, 0x00F000F0);
    wr(d, LCDIF_REG_CTRL2 + LCDIF_SET, 0x0000000F);
    ck_assert_uint_eq(rd(d, LCDIF_REG_CTRL2), 0x00F000FF);
    wr(d, LCDIF_REG_CTRL2 + LCDIF_CLR, 0x00F00000);
    ck_assert_uint_eq(rd(d, LCDIF_REG_CTRL2), 0x000000FF);
    wr(d, LCDIF_REG_CTRL2 + LCDIF_TOG, 0x0000FF0F);
    ck_assert_uint_eq(rd(d, LCDIF_REG_CTRL2), 0x0000FFF0);
    ck_assert_uint_eq(rd(d, LCDIF_REG_CTRL2 + LCDIF_TOG), 0x0000FFF0);
    wr(d, LCDIF_REG_VDCTRL0 + LCDIF_SET, 1u << 28);
    ck_assert_uint_eq(rd(d, LCDIF_REG_VDCTRL0), 1u << 28);
    /* a register without aliases ignores writes to +4/+8/+C */
    wr(d, LCDIF_REG_VDCTRL1, 806);
    wr(d, LCDIF_REG_VDCTRL1 + LCDIF_SET, 0xFFFF0000);
    wr(d, LCDIF_REG_VDCTRL1 + LCDIF_CLR, 0xFFFFFFFF);
    ck_assert_uint_eq(rd(d, LCDIF_REG_VDCTRL1), 806);
    ck_assert_uint_eq(lcdif_ops.read(d, LCDIF_REG_VDCTRL1, 2), 0); /* 32-bit only */
    /* SFTRST set: every register back to its reset value, CLKGATE with it */
    wr(d, LCDIF_REG_CUR_BUF, 0x81000000);
    wr(d, LCDIF_REG_CTRL + LCDIF_SET, LCDIF_CTRL_SFTRST);
    ck_assert_uint_eq(rd(d, LCDIF_REG_CTRL), LCDIF_CTRL_SFTRST | LCDIF_CTRL_CLKGATE);
    ck_assert_uint_eq(rd(d, LCDIF_REG_CUR_BUF), 0);
    ck_assert_uint_eq(rd(d, LCDIF_REG_VDCTRL1), 0);
    ck_assert_uint_eq(rd(d, LCDIF_REG_CTRL2), 0);
    /* the driver's programming runs; clearing DOTCLK_MODE stops it (RUN polled clear) */
    enable(d, 16, 8, 40, 20, 3, 0x7, (uint32_t)RAM_BASE);
    ck_assert(lcdif_running(d));
    wr(d, LCDIF_REG_CTRL + LCDIF_CLR, LCDIF_CTRL_DOTCLK_MODE);
    ck_assert(!(rd(d, LCDIF_REG_CTRL) & LCDIF_CTRL_RUN));
    ck_assert(!lcdif_running(d));
    lcdif_free(d);
}
END_TEST

START_TEST(lcdif_scanout_formats)
{
    Lcdif *d = lcdif_new(bus, gic, INTID, SLOW_CLOCK);
    uint32_t out[64];
    unsigned w, h;
    ck_assert(!lcdif_render(d, out, 64, &w, &h)); /* in reset */
    /* XRGB8888: 24-bit words, one pixel a word (packing 0x7): the X byte is ignored */
    uint32_t px[8] = { 0xFF102030, 0x00405060, 0xAA708090, 0x00A0B0C0, 0, 0xFFFFFF, 1, 2 };
    memcpy(ram, px, sizeof px);
    enable(d, 4, 2, 20, 10, 3, 0x7, (uint32_t)RAM_BASE);
    ck_assert(lcdif_render(d, out, 64, &w, &h));
    ck_assert_uint_eq(w, 4);
    ck_assert_uint_eq(h, 2);
    for (unsigned i = 0; i < 8; i++)
        ck_assert_uint_eq(out[i], px[i] & 0xFFFFFF);
    /* RGB565 (16-bit words, packing 0xF): components widened by repeating their top bits */
    uint16_t p16[4] = { 0xF800, 0x07E0, 0x001F, 0x8410 };
    memcpy(ram + 0x1000, p16, sizeof p16);
    enable(d, 2, 2, 20, 10, 0, 0xF, (uint32_t)RAM_BASE + 0x1000);
    ck_assert(lcdif_render(d, out, 64, &w, &h));
    ck_assert_uint_eq(out[0], 0xFF0000);
    ck_assert_uint_eq(out[1], 0x00FF00);
    ck_assert_uint_eq(out[2], 0x0000FF);
    ck_assert_uint_eq(out[3], 0x848284);
    /* XRGB1555 (DATA_FORMAT_16_BIT) */
    wr(d, LCDIF_REG_CTRL + LCDIF_SET, LCDIF_CTRL_DF16);
    ck_assert(lcdif_render(d, out, 64, &w, &h));
    ck_assert_uint_eq(out[0], 0xF70000 | 0x00 << 8 | 0); /* 0xF800: R = 11110, G = 00000 */
    ck_assert_uint_eq(out[2], 0x0000FF);
    /* packed RGB888 (24-bit words, packing 0xF): three bytes a pixel */
    uint8_t p24[6] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06 };
    memcpy(ram + 0x2000, p24, sizeof p24);
    enable(d, 2, 1, 20, 10, 3, 0xF, (uint32_t)RAM_BASE + 0x2000);
    ck_assert(lcdif_render(d, out, 64, &w, &h));
    ck_assert_uint_eq(out[0], 0x030201);
    ck_assert_uint_eq(out[1], 0x060504);
    ck_assert(!lcdif_render(d, out, 1, &w, &h)); /* larger than the caller's buffer */
    lcdif_free(d);
}
END_TEST

START_TEST(lcdif_frame_done_and_flip)
{
    Lcdif *d = lcdif_new(bus, gic, INTID, SLOW_CLOCK);
    uint32_t out[16];
    unsigned w, h;
    memset(ram, 0x11, 64);
    memset(ram + 0x1000, 0x22, 64);
    /* mxsfb_irq_disable before the block is out of reset, then the mode */
    wr(d, LCDIF_REG_CTRL1 + LCDIF_CLR, LCDIF_CTRL1_CUR_FRAME_DONE_IRQ_EN);
    enable(d, 4, 2, 20, 10, 3, 0x7, (uint32_t)RAM_BASE);
    lcdif_end_frame(d);
    ck_assert(rd(d, LCDIF_REG_CTRL1) & LCDIF_CTRL1_CUR_FRAME_DONE_IRQ);
    ck_assert(!pending()); /* not enabled */
    /* mxsfb_crtc_enable_vblank: clear the status, set the enable */
    wr(d, LCDIF_REG_CTRL1 + LCDIF_CLR, LCDIF_CTRL1_CUR_FRAME_DONE_IRQ);
    wr(d, LCDIF_REG_CTRL1 + LCDIF_SET, LCDIF_CTRL1_CUR_FRAME_DONE_IRQ_EN);
    ck_assert(!pending());
    /* a page flip: the plane update writes NEXT_BUF; the screen changes at the frame end */
    wr(d, LCDIF_REG_NEXT_BUF, (uint32_t)RAM_BASE + 0x1000);
    ck_assert(lcdif_render(d, out, 16, &w, &h));
    ck_assert_uint_eq(out[0], 0x111111);
    ck_assert_uint_eq(rd(d, LCDIF_REG_CUR_BUF), (uint32_t)RAM_BASE);
    uint64_t g = lcdif_generation(d);
    lcdif_end_frame(d);
    ck_assert(pending());
    ck_assert_uint_eq(rd(d, LCDIF_REG_CUR_BUF), (uint32_t)RAM_BASE + 0x1000);
    ck_assert_uint_ne(lcdif_generation(d), g);
    ck_assert(lcdif_render(d, out, 16, &w, &h));
    ck_assert_uint_eq(out[0], 0x222222);
    /* the handler clears the status: the line drops */
    wr(d, LCDIF_REG_CTRL1 + LCDIF_CLR, LCDIF_CTRL1_CUR_FRAME_DONE_IRQ);
    ck_assert(!pending());
    ck_assert_uint_eq(rd(d, LCDIF_REG_CTRL1) & 0x0700, 0); /* no underflow, no bus error */
    /* stopped: no more frames */
    wr(d, LCDIF_REG_CTRL + LCDIF_CLR, LCDIF_CTRL_DOTCLK_MODE);
    uint64_t f = lcdif_frames(d);
    lcdif_end_frame(d);
    ck_assert_uint_eq(lcdif_frames(d), f);
    ck_assert(!pending());
    lcdif_free(d);
}
END_TEST

START_TEST(lcdif_render_changed_only)
{
    Lcdif *d = lcdif_new(bus, gic, INTID, SLOW_CLOCK);
    uint32_t out[64];
    unsigned w, h;
    ck_assert_int_eq(lcdif_render_changed(d, out, 64, &w, &h), -1); /* off */
    enable(d, 4, 4, 20, 10, 3, 0x7, (uint32_t)RAM_BASE);
    ck_assert_int_eq(lcdif_render_changed(d, out, 64, &w, &h), 1);
    ck_assert_int_eq(lcdif_render_changed(d, out, 64, &w, &h), 0);
    lcdif_end_frame(d); /* frame-done status changes, not the picture */
    wr(d, LCDIF_REG_CTRL1 + LCDIF_SET, LCDIF_CTRL1_CUR_FRAME_DONE_IRQ_EN);
    ck_assert_int_eq(lcdif_render_changed(d, out, 64, &w, &h), 0);
    ram[5] ^= 0xFF; /* a byte of the buffer */
    ck_assert_int_eq(lcdif_render_changed(d, out, 64, &w, &h), 1);
    ck_assert_int_eq(lcdif_render_changed(d, out, 64, &w, &h), 0);
    lcdif_free(d);
}
END_TEST

START_TEST(lcdif_pacing)
{
    /* 100 x 100 clocks a frame at 1 MHz: 100 frames per second */
    Lcdif *d = lcdif_new(bus, gic, INTID, 1000000);
    ck_assert_uint_eq(lcdif_refresh_mhz(d), 0);
    enable(d, 80, 80, 100, 100, 3, 0x7, (uint32_t)RAM_BASE);
    ck_assert_uint_eq(lcdif_refresh_mhz(d), 100000);
    uint64_t f0 = lcdif_frames(d);
    dev_sleep_ms(300);
    uint64_t f = lcdif_frames(d) - f0;
    ck_assert_msg(f >= 15 && f <= 40, "%llu frames in 300 ms at 100 Hz", (unsigned long long)f);
    /* 1024x768 at 60 Hz as the board's panel: 1344 x 806 at 65 MHz */
    lcdif_free(d);
    d = lcdif_new(bus, gic, INTID, 65000000);
    enable(d, 1024, 768, 1344, 806, 3, 0x7, (uint32_t)RAM_BASE);
    ck_assert_uint_eq(lcdif_refresh_mhz(d), 60003);
    wr(d, LCDIF_REG_CTRL + LCDIF_CLR, LCDIF_CTRL_DOTCLK_MODE);
    f = lcdif_frames(d);
    dev_sleep_ms(50);
    ck_assert_uint_eq(lcdif_frames(d), f); /* stopped */
    lcdif_free(d);
}
END_TEST

START_TEST(lcdif_hostile)
{
    Lcdif *d = lcdif_new(bus, gic, INTID, SLOW_CLOCK);
    uint32_t *out = malloc(64 * 64 * 4);
    unsigned w, h;
    /* a buffer partly past the end of RAM: bus error + underflow each frame, black shown */
    memset(ram + RAM_SIZE - 4096, 0x55, 4096);
    enable(d, 64, 64, 80, 80, 3, 0x7, (uint32_t)(RAM_BASE + RAM_SIZE - 4096));
    lcdif_end_frame(d);
    uint32_t c1 = rd(d, LCDIF_REG_CTRL1);
    ck_assert(c1 & LCDIF_CTRL1_CUR_FRAME_DONE_IRQ);
    ck_assert(c1 & LCDIF_CTRL1_BM_ERROR_IRQ);
    ck_assert(c1 & LCDIF_CTRL1_UNDERFLOW_IRQ);
    ck_assert_uint_eq(rd(d, LCDIF_REG_BM_ERROR_STAT), (uint32_t)(RAM_BASE + RAM_SIZE - 4096));
    ck_assert(lcdif_render(d, out, 64 * 64, &w, &h));
    for (unsigned i = 0; i < 64 * 64; i++)
        ck_assert_uint_eq(out[i], 0);
    ck_assert(!pending()); /* the driver enables none of these */
    wr(d, LCDIF_REG_CTRL1 + LCDIF_SET, LCDIF_CTRL1_BM_ERROR_IRQ_EN);
    ck_assert(pending());
    /* not RAM at all, the largest sizes, an unknown format */
    wr(d, LCDIF_REG_NEXT_BUF, 0x1000);
    lcdif_end_frame(d);
    wr(d, LCDIF_REG_TRANSFER_COUNT, 0xFFFFFFFF);
    lcdif_end_frame(d);
    ck_assert(!lcdif_render(d, out, 64 * 64, &w, &h));
    wr(d, LCDIF_REG_TRANSFER_COUNT, 8u << 16 | 8);
    wr(d, LCDIF_REG_CTRL1, 0x3u << 16);
    lcdif_end_frame(d);
    ck_assert(lcdif_render(d, out, 64 * 64, &w, &h)); /* black */
    /* random accesses, then the device still works */
    dev_fuzz(&lcdif_ops, d, LCDIF_SIZE, 20000, 7);
    lcdif_end_frame(d);
    (void)lcdif_render(d, out, 64 * 64, &w, &h);
    lcdif_reset(d);
    enable(d, 8, 8, 20, 10, 3, 0x7, (uint32_t)RAM_BASE);
    ck_assert(lcdif_render(d, out, 64 * 64, &w, &h));
    lcdif_free(d);
    free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dev_lcdif");
    TCase *tc = tcase_create("lcdif");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, lcdif_registers_and_reset);
    tcase_add_test(tc, lcdif_scanout_formats);
    tcase_add_test(tc, lcdif_frame_done_and_flip);
    tcase_add_test(tc, lcdif_render_changed_only);
    tcase_add_test(tc, lcdif_pacing);
    tcase_add_test(tc, lcdif_hostile);
    suite_add_tcase(s, tc);
    return dev_run_suite(s);
}
