/* Arm HDLCD display controller (as on Juno): a "dumb RGB streamer" that reads a framebuffer from
 * memory line by line and sends it to the output at the programmed timings.
 *
 * Registers (offsets as in Arm's HDLCD TRM and Linux's hdlcd_regs.h; 32-bit accesses only):
 *   0x000 VERSION (0x1CDC0000 | major << 8 | minor, read-only)
 *   0x010 INT_RAWSTAT, 0x014 INT_CLEAR (write 1s), 0x018 INT_MASK, 0x01C INT_STATUS (raw & mask)
 *   0x100 FB_BASE, 0x104 FB_LINE_LENGTH (bytes), 0x108 FB_LINE_COUNT (lines - 1), 0x10C FB_LINE_PITCH
 *   0x110 BUS_OPTIONS, 0x200..0x21C V/H SYNC, BACK_PORCH, DATA, FRONT_PORCH (each value - 1)
 *   0x220 POLARITIES, 0x230 COMMAND (bit 0: enable), 0x240 PIXEL_FORMAT (bits 4:3 bytes per
 *   pixel - 1, bit 31 big-endian), 0x244..0x24C RED/GREEN/BLUE_SELECT (bits 23:16 default value,
 *   11:8 component size in bits, 4:0 lowest bit).
 * Interrupts: bit 0 DMA_END (frame read), 1 BUS_ERROR, 2 VSYNC, 3 UNDERRUN; one level line.
 *
 * Timing: while enabled, a host timer ends a frame at the refresh rate the timings and the pixel
 * clock give (clock / (htotal * vtotal)), setting VSYNC and DMA_END.  A framebuffer that is not
 * wholly inside guest RAM (or absurd sizes) sets BUS_ERROR and UNDERRUN instead, logs once, and
 * the screen shows the default colours, as a controller whose DMA fails would.
 *
 * Scanout: hdlcd_render() converts the current frame to host XRGB8888 (what a monitor would show)
 * for the display front end; hdlcd_generation() changes whenever a register changes.
 * Thread-safe: MMIO, the timer and render may run on different threads. */
#ifndef MALIBU_DEVICES_HDLCD_H
#define MALIBU_DEVICES_HDLCD_H

#include <stdbool.h>
#include <stdint.h>

#include "bus.h"
#include "gic400.h"

#define HDLCD_SIZE 0x1000ull
#define HDLCD_VERSION_VALUE 0x1CDC0000u /* product 0x1CDC, r0p0 */
#define HDLCD_MAX_DIM 4096

enum {
    HDLCD_REG_VERSION = 0x000, HDLCD_REG_INT_RAWSTAT = 0x010, HDLCD_REG_INT_CLEAR = 0x014,
    HDLCD_REG_INT_MASK = 0x018, HDLCD_REG_INT_STATUS = 0x01C, HDLCD_REG_FB_BASE = 0x100,
    HDLCD_REG_FB_LINE_LENGTH = 0x104, HDLCD_REG_FB_LINE_COUNT = 0x108,
    HDLCD_REG_FB_LINE_PITCH = 0x10C, HDLCD_REG_BUS_OPTIONS = 0x110, HDLCD_REG_V_SYNC = 0x200,
    HDLCD_REG_V_BACK_PORCH = 0x204, HDLCD_REG_V_DATA = 0x208, HDLCD_REG_V_FRONT_PORCH = 0x20C,
    HDLCD_REG_H_SYNC = 0x210, HDLCD_REG_H_BACK_PORCH = 0x214, HDLCD_REG_H_DATA = 0x218,
    HDLCD_REG_H_FRONT_PORCH = 0x21C, HDLCD_REG_POLARITIES = 0x220, HDLCD_REG_COMMAND = 0x230,
    HDLCD_REG_PIXEL_FORMAT = 0x240, HDLCD_REG_RED_SELECT = 0x244, HDLCD_REG_GREEN_SELECT = 0x248,
    HDLCD_REG_BLUE_SELECT = 0x24C,
};
enum { HDLCD_INT_DMA_END = 1, HDLCD_INT_BUS_ERROR = 2, HDLCD_INT_VSYNC = 4, HDLCD_INT_UNDERRUN = 8 };

typedef struct Hdlcd Hdlcd;

/* bus: where the framebuffer is read from; gic + intid: the interrupt line; pixel_clock_hz: the
 * rate of the fixed pixel clock the board gives it. */
Hdlcd *hdlcd_new(Bus *bus, Gic *gic, unsigned intid, uint64_t pixel_clock_hz);
void hdlcd_free(Hdlcd *d);
void hdlcd_reset(Hdlcd *d);

extern const MmioOps hdlcd_ops; /* opaque = Hdlcd *, HDLCD_SIZE bytes */

/* Changes whenever a register write changes the picture (mode, format, base, enable). */
uint64_t hdlcd_generation(Hdlcd *d);
/* Frames ended so far (vsyncs). */
uint64_t hdlcd_frames(Hdlcd *d);
/* Refresh rate in mHz from the programmed timings and clock (0 when disabled). */
uint32_t hdlcd_refresh_mhz(Hdlcd *d);

/* Render the visible frame into pixels (XRGB8888, stride width * 4, at most max_pixels) and set
 * *width, *height.  Returns false (nothing written) when the controller is disabled. */
bool hdlcd_render(Hdlcd *d, uint32_t *pixels, uint64_t max_pixels, unsigned *width, unsigned *height);
/* The same for one periodic viewer (the window): 0 when neither the registers nor the bytes the
 * controller reads changed since its last call (pixels untouched), 1 when rendered, -1 when the
 * controller is off.  Keeps a copy of the framebuffer bytes for the comparison. */
int hdlcd_render_changed(Hdlcd *d, uint32_t *pixels, uint64_t max_pixels, unsigned *width,
                         unsigned *height);

/* Checkpoint section "hdlcd": the registers (each checked against what a guest write leaves) and
 * the frame count.  Load restarts the frame timer (from the load: frames are host-timed) and
 * re-drives the interrupt line; the screen shows the same frame, read from the restored RAM. */
#define HDLCD_CKPT_VERSION 1
typedef struct CkptWriter CkptWriter;
typedef struct CkptReader CkptReader;
void hdlcd_ckpt_save(Hdlcd *d, CkptWriter *w);
bool hdlcd_ckpt_load(Hdlcd *d, CkptReader *r);

/* The frame-end step the timer runs (also for tests): DMA check, VSYNC/DMA_END or BUS_ERROR/UNDERRUN. */
void hdlcd_end_frame(Hdlcd *d);

#endif
