/* --timing / --timing-config for the board: parses them into the timing plug-in's configuration
 * (emu/timing/timing.h) and hands it to the GPU engine (and, with cpu.* keys, the CPU). */
#ifndef MALIBU_BOARD_TIMING_H
#define MALIBU_BOARD_TIMING_H

#include <stddef.h>

#include "board.h"

/* 0 (also when neither option is given: timing stays off), or -1 with the reason in err (an
 * unknown key, a bad value, an impossible geometry, an unreadable file). */
int board_timing_setup(const BoardConfig *cfg, char *err, size_t errlen);

#endif
