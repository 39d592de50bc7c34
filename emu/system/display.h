/* build/malibu's screen: --display sdl|none and --screenshot FILE.png, the front end of the
 * board's display controller (devices/board_display.h).
 *
 *   display_choose(&cfg) before board_new: --display not given -> sdl when $DISPLAY or
 *   $WAYLAND_DISPLAY is set and SDL's video subsystem starts, else none (one log line).
 *   display_start(board, &cfg) after board_realize: the SDL window (display_sdl.c) and the
 *   screenshot written at exit.
 * The board gives the frames of whichever controller scans out (board_display_render:
 * XRGB8888 + size); this side shows them.  docs/display.md has the data flow. */
#ifndef MALIBU_SYSTEM_DISPLAY_H
#define MALIBU_SYSTEM_DISPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "../../devices/board.h"

void display_choose(BoardConfig *cfg);
bool display_start(Board *b, const BoardConfig *cfg, char *err, size_t errlen);

/* Write the current screen to path (PNG); false + err when the controller is off. */
bool display_screenshot(Board *b, const char *path, char *err, size_t errlen);

/* display_sdl.c: whether a window can be opened here; open it (its own thread). */
bool display_sdl_available(void);
bool display_sdl_start(Board *b, const char *screenshot, char *err, size_t errlen);

#endif
