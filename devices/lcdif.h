/* NXP i.MX eLCDIF, the V4 block of i.MX28 ("fsl,imx28-lcdif"), in DOTCLK (DPI) mode, as Linux's
 * mxsfb DRM driver programs it: a DMA engine that reads a framebuffer at CUR_BUF and a timing
 * generator that sends it to a parallel RGB panel.
 *
 * Registers (i.MX28 reference manual, offsets as in Linux's mxsfb_regs.h; 32-bit accesses).  Those
 * marked SCT also answer at +4 (SET: OR in the written 1s), +8 (CLR) and +0xC (TOG: XOR):
 *   0x000 CTRL (SCT): 31 SFTRST, 30 CLKGATE, 19 BYPASS_COUNT, 17 DOTCLK_MODE, 11:10 LCD_DATABUS_WIDTH,
 *         9:8 WORD_LENGTH (0: 16, 1: 8, 2: 18, 3: 24 bits), 5 MASTER, 3 DATA_FORMAT_16_BIT, 0 RUN
 *   0x010 CTRL1 (SCT): 25 BM_ERROR_IRQ, 24 RECOVER_ON_UNDERFLOW, 21 FIFO_CLEAR, 19:16
 *         BYTE_PACKING_FORMAT, 15..12 the enables of 11 OVERFLOW, 10 UNDERFLOW, 9 CUR_FRAME_DONE,
 *         8 VSYNC_EDGE _IRQ, 26 BM_ERROR_IRQ_EN
 *   0x020 CTRL2 (SCT), 0x030 TRANSFER_COUNT (31:16 lines, 15:0 pixels a line), 0x040 CUR_BUF,
 *   0x050 NEXT_BUF, 0x060 TIMING, 0x070 VDCTRL0 (SCT; 21 VSYNC_PERIOD_UNIT: VDCTRL1 in lines),
 *   0x080 VDCTRL1 (frame length), 0x090 VDCTRL2 (17:0 line length in pixel clocks), 0x0A0 VDCTRL3,
 *   0x0B0 VDCTRL4 (18 SYNC_SIGNALS_ON), 0x190 BM_ERROR_STAT, 0x1B0 STAT, 0x1C0 VERSION.
 *
 * Reset handshake: SFTRST set -> every register to its reset value and CLKGATE set; the driver
 * clears SFTRST and CLKGATE and polls them clear.  While SFTRST or CLKGATE is set nothing runs.
 * Clearing DOTCLK_MODE stops a running controller (RUN reads 0: the driver polls it).
 *
 * Timing: while RUN, a host timer ends a frame every VDCTRL2 * VDCTRL1 pixel clocks (the fixed
 * pixel clock the board gives): CUR_FRAME_DONE_IRQ is set and NEXT_BUF becomes CUR_BUF (the
 * page flip).  A frame whose buffer is not wholly inside guest RAM raises BM_ERROR_IRQ and
 * UNDERFLOW_IRQ (the AXI read fails, the FIFO runs dry), logs one line per programming, and the
 * panel shows black.
 *
 * Scanout: lcdif_render() converts CUR_BUF's frame (TRANSFER_COUNT pixels, no line padding) to
 * XRGB8888: 24-bit words unpacked (BYTE_PACKING 0x7, XRGB8888) or packed (0xF, RGB888), 16-bit
 * (RGB565, or XRGB1555 with DATA_FORMAT_16_BIT), 18-bit unpacked (RGB666 in the low 18 bits).
 * Thread-safe: MMIO, the timer and render may run on different threads. */
#ifndef MALIBU_DEVICES_LCDIF_H
#define MALIBU_DEVICES_LCDIF_H

#include <stdbool.h>
#include <stdint.h>

#include "bus.h"
#include "gic400.h"

#define LCDIF_SIZE 0x2000ull
#define LCDIF_MAX_DIM 4096 /* scanout larger than this is refused (underflow), as the window's buffer */
#define LCDIF_VERSION_VALUE 0x04000000u /* MAJOR 4 */

enum {
    LCDIF_REG_CTRL = 0x000, LCDIF_REG_CTRL1 = 0x010, LCDIF_REG_CTRL2 = 0x020,
    LCDIF_REG_TRANSFER_COUNT = 0x030, LCDIF_REG_CUR_BUF = 0x040, LCDIF_REG_NEXT_BUF = 0x050,
    LCDIF_REG_TIMING = 0x060, LCDIF_REG_VDCTRL0 = 0x070, LCDIF_REG_VDCTRL1 = 0x080,
    LCDIF_REG_VDCTRL2 = 0x090, LCDIF_REG_VDCTRL3 = 0x0A0, LCDIF_REG_VDCTRL4 = 0x0B0,
    LCDIF_REG_BM_ERROR_STAT = 0x190, LCDIF_REG_STAT = 0x1B0, LCDIF_REG_VERSION = 0x1C0,
    LCDIF_SET = 4, LCDIF_CLR = 8, LCDIF_TOG = 0xC,
};
enum {
    LCDIF_CTRL_SFTRST = 1u << 31, LCDIF_CTRL_CLKGATE = 1u << 30, LCDIF_CTRL_BYPASS_COUNT = 1u << 19,
    LCDIF_CTRL_DOTCLK_MODE = 1u << 17, LCDIF_CTRL_WORD_LENGTH_SHIFT = 8, LCDIF_CTRL_MASTER = 1u << 5,
    LCDIF_CTRL_DF16 = 1u << 3, LCDIF_CTRL_RUN = 1u << 0,
    LCDIF_CTRL1_BM_ERROR_IRQ_EN = 1u << 26, LCDIF_CTRL1_BM_ERROR_IRQ = 1u << 25,
    LCDIF_CTRL1_RECOVER_ON_UNDERFLOW = 1u << 24, LCDIF_CTRL1_FIFO_CLEAR = 1u << 21,
    LCDIF_CTRL1_PACKING_SHIFT = 16, LCDIF_CTRL1_CUR_FRAME_DONE_IRQ_EN = 1u << 13,
    LCDIF_CTRL1_UNDERFLOW_IRQ = 1u << 10, LCDIF_CTRL1_CUR_FRAME_DONE_IRQ = 1u << 9,
    LCDIF_VDCTRL0_VSYNC_PERIOD_UNIT = 1u << 21, LCDIF_VDCTRL4_SYNC_SIGNALS_ON = 1u << 18,
};

typedef struct Lcdif Lcdif;

/* bus: where the framebuffer is read from; gic + intid: the interrupt line; pixel_clock_hz: the
 * rate of the fixed pixel clock the board gives it. */
Lcdif *lcdif_new(Bus *bus, Gic *gic, unsigned intid, uint64_t pixel_clock_hz);
void lcdif_free(Lcdif *d);
void lcdif_reset(Lcdif *d);

extern const MmioOps lcdif_ops; /* opaque = Lcdif *, LCDIF_SIZE bytes */

/* Whether the controller scans out (RUN, out of reset, clock on). */
bool lcdif_running(Lcdif *d);
/* Changes whenever a register write changes the picture (mode, format, buffer, run). */
uint64_t lcdif_generation(Lcdif *d);
/* Frames ended since lcdif_new / lcdif_reset. */
uint64_t lcdif_frames(Lcdif *d);
/* Refresh rate in mHz from the programmed timings and clock (0 when not running). */
uint32_t lcdif_refresh_mhz(Lcdif *d);

/* Render the visible frame into pixels (XRGB8888, stride width * 4, at most max_pixels) and set
 * *width, *height.  Returns false (nothing written) when the controller is not running. */
bool lcdif_render(Lcdif *d, uint32_t *pixels, uint64_t max_pixels, unsigned *width, unsigned *height);
/* The same for one periodic viewer (the window): 0 when neither the registers nor the bytes the
 * controller reads changed since its last call (pixels untouched), 1 when rendered, -1 when the
 * controller is off. */
int lcdif_render_changed(Lcdif *d, uint32_t *pixels, uint64_t max_pixels, unsigned *width,
                         unsigned *height);

/* Checkpoint section "lcdif": the registers (checked: read-only ones at their values, RUN only
 * in DOTCLK mode) and the frame count (which also says the panel is the screen).  Load restarts
 * the frame timer (host-timed) and re-drives the interrupt line. */
#define LCDIF_CKPT_VERSION 1
typedef struct CkptWriter CkptWriter;
typedef struct CkptReader CkptReader;
void lcdif_ckpt_save(Lcdif *d, CkptWriter *w);
bool lcdif_ckpt_load(Lcdif *d, CkptReader *r);

/* The frame-end step the timer runs (also for tests): flip, CUR_FRAME_DONE or the DMA errors. */
void lcdif_end_frame(Lcdif *d);

#endif
