/* The board's display: Juno's HDLCD (hdlcd.h) at 0x7FF6_0000 (SPI 85) with a fixed pixel clock,
 * programmed at power-on the way boot firmware leaves it (1024x768 at 60 Hz, XRGB8888, scanning
 * out a framebuffer reserved at the top of DRAM bank 0, below the DTB) and handed to Linux as a
 * "simple-framebuffer" (/framebuffer@...), which the built-in simplefb driver and fbcon
 * draw on.  With --display-controller lcdif (the default) an i.MX eLCDIF (lcdif.h) at 0x7FF4_0000
 * (SPI 86) with a "panel-dpi" panel (the same 1024x768 at 60 Hz) is added beside it: Linux's
 * mxsfb drives it as a KMS device and takes over from the simple-framebuffer.  The screen (the
 * window, --screenshot) shows the eLCDIF's panel once the eLCDIF has run since reset, before that
 * the HDLCD.  A virtio-input keyboard and tablet come with it.  Instantiated only with a display
 * (--display sdl or --screenshot): without one the board and its DTB are unchanged.  Why
 * simplefb and not the hdlcd DRM driver: docs/display.md. */
#ifndef MALIBU_BOARD_DISPLAY_H
#define MALIBU_BOARD_DISPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct Board;
struct Hdlcd;

#define BOARD_HDLCD_BASE 0x7FF60000ull
#define BOARD_HDLCD_INTID (32 + 85)
#define BOARD_DISPLAY_WIDTH 1024
#define BOARD_DISPLAY_HEIGHT 768
#define BOARD_DISPLAY_PIXEL_CLOCK 65000000u /* VESA 1024x768@60 */
#define BOARD_FB_SIZE (4ull << 20)          /* 1024 * 768 * 4 = 3 MiB, 2 MiB aligned */
#define BOARD_LCDIF_BASE 0x7FF40000ull
#define BOARD_LCDIF_INTID (32 + 86)
#define BOARD_PANEL_WIDTH_MM 310                /* a 15" 4:3 panel */
#define BOARD_PANEL_HEIGHT_MM 230

/* Map the HDLCD (and with lcdif the eLCDIF) and register the DT hook (their nodes, the panel's);
 * the framebuffer is b->fb_pa (set here).  Also the screen's keyboard and tablet
 * (virtio_input.h) in the two virtio-mmio slots after the disks. */
bool board_display_attach(struct Board *b, char *err, size_t errlen);
void board_display_free(struct Board *b);
void board_display_reset(struct Board *b); /* the input devices (the HDLCD: firmware_init) */
/* Power-on state: the firmware's mode and a black framebuffer, the eLCDIF in reset (also after
 * a reset). */
void board_display_firmware_init(struct Board *b);

/* The screen, from whichever controller scans out (see above): the frame as XRGB8888 (like
 * hdlcd_render / lcdif_render), the same for one periodic viewer (1 rendered, 0 unchanged since
 * its last call, -1 off), and the refresh rate in mHz (0 when off). */
bool board_display_render(struct Board *b, uint32_t *pixels, uint64_t max_pixels, unsigned *width,
                          unsigned *height);
int board_display_render_changed(struct Board *b, uint32_t *pixels, uint64_t max_pixels,
                                 unsigned *width, unsigned *height);
uint32_t board_display_refresh_mhz(struct Board *b);

/* Checkpoints: the HDLCD ("hdlcd"), the eLCDIF when there is one ("lcdif"), the keyboard and the
 * tablet (virtio_input_ckpt_*, instance = their slots), and which controller the screen showed.
 * load leaves the input devices paused: board_display_ckpt_resume once the board is loaded.
 * Without a display (no HDLCD) nothing is saved or loaded. */
struct CkptWriter;
struct CkptReader;
void board_display_ckpt_save(struct Board *b, struct CkptWriter *w);
bool board_display_ckpt_load(struct Board *b, struct CkptReader *r);
void board_display_ckpt_resume(struct Board *b);

#endif
