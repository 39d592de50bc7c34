/* --display / --screenshot (see display.h). */
#include "display.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../devices/board_display.h"
#include "../../devices/hdlcd.h"
#include "png_write.h"

#define MAX_PIXELS ((uint64_t)HDLCD_MAX_DIM * HDLCD_MAX_DIM)

static struct Hdlcd *exit_display;
static const char *exit_screenshot;

void display_choose(BoardConfig *cfg)
{
    if (cfg->display || cfg->dump_dtb)
        return;
    const char *x = getenv("DISPLAY"), *wl = getenv("WAYLAND_DISPLAY");
    if ((x && *x) || (wl && *wl)) {
        if (display_sdl_available()) {
            cfg->display = "sdl";
            return;
        }
        fprintf(stderr, "malibu: no window: SDL cannot open the display, running with --display none\n");
    }
    cfg->display = "none";
}

bool display_screenshot(struct Hdlcd *d, const char *path, char *err, size_t errlen)
{
    uint32_t *pixels = malloc(MAX_PIXELS * 4);
    unsigned w, h;
    if (!pixels) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = hdlcd_render(d, pixels, MAX_PIXELS, &w, &h);
    if (!ok)
        snprintf(err, errlen, "%s: the display controller is off, no screenshot", path);
    else
        ok = png_write_xrgb(path, pixels, w, h, err, errlen);
    free(pixels);
    return ok;
}

static void screenshot_at_exit(void)
{
    char err[256];
    if (exit_display && !display_screenshot(exit_display, exit_screenshot, err, sizeof err))
        fprintf(stderr, "malibu: --screenshot %s\n", err);
}

bool display_start(Board *b, const BoardConfig *cfg, char *err, size_t errlen)
{
    if (!b->display)
        return true;
    if (cfg->screenshot) {
        exit_display = b->display;
        exit_screenshot = cfg->screenshot;
        atexit(screenshot_at_exit);
    }
    if (cfg->display && !strcmp(cfg->display, "sdl"))
        return display_sdl_start(b->display, b->keyboard, b->tablet, cfg->screenshot, err, errlen);
    return true;
}
