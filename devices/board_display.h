/* The board's display: Juno's HDLCD (hdlcd.h) at 0x7FF6_0000 (SPI 85) with a fixed pixel clock,
 * programmed at power-on the way boot firmware leaves it (1024x768 at 60 Hz, XRGB8888, scanning
 * out a framebuffer reserved at the top of DRAM bank 0, below the DTB) and handed to Linux as a
 * "simple-framebuffer" (/framebuffer@...), which the built-in simplefb driver and fbcon
 * draw on.  A virtio-input keyboard and tablet come with it.  Instantiated only with a display (--display sdl or --screenshot): without one the
 * board and its DTB are unchanged.  Why simplefb and not the hdlcd DRM driver: docs/display.md. */
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

/* Map the HDLCD and register its DT hook; the framebuffer is b->fb_pa (set here).  Also the
 * screen's keyboard and tablet (virtio_input.h) in the two virtio-mmio slots after the disks. */
bool board_display_attach(struct Board *b, char *err, size_t errlen);
void board_display_free(struct Board *b);
void board_display_reset(struct Board *b); /* the input devices (the HDLCD: firmware_init) */
/* Power-on state: the firmware's mode and a black framebuffer (also after a reset). */
void board_display_firmware_init(struct Board *b);

#endif
