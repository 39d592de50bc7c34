/* --display / --screenshot (see display.h). */
#include "display.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../devices/board_display.h"
#include "../../devices/lcdif.h" /* LCDIF_MAX_DIM */
#include "png_write.h"

#define MAX_PIXELS ((uint64_t)LCDIF_MAX_DIM * LCDIF_MAX_DIM)

static Board *exit_board;
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

bool display_screenshot(Board *b, const char *path, char *err, size_t errlen)
{
    uint32_t *pixels = malloc(MAX_PIXELS * 4);
    unsigned w, h;
    if (!pixels) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    bool ok = board_display_render(b, pixels, MAX_PIXELS, &w, &h);
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
    if (exit_board && !display_screenshot(exit_board, exit_screenshot, err, sizeof err))
        fprintf(stderr, "malibu: --screenshot %s\n", err);
}

bool display_start(Board *b, const BoardConfig *cfg, char *err, size_t errlen)
{
    if (!b->display)
        return true;
    if (cfg->screenshot) {
        exit_board = b;
        exit_screenshot = cfg->screenshot;
        atexit(screenshot_at_exit);
    }
    if (cfg->display && !strcmp(cfg->display, "sdl"))
        return display_sdl_start(b, cfg->screenshot, err, errlen);
    return true;
}
