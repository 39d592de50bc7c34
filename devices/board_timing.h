/* --timing / --timing-config for the board: parses them into the timing plug-in's configuration
 * (emu/timing/timing.h) for the GPU engine (board_gpu.c) and, with cpu.* keys, the CPU. */
#ifndef MALIBU_BOARD_TIMING_H
#define MALIBU_BOARD_TIMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "board.h"

/* 0 (also when neither option is given: timing stays off), or -1 with the reason in err (an
 * unknown key, a bad value, an impossible geometry, an unreadable file). */
int board_timing_setup(const BoardConfig *cfg, char *err, size_t errlen);
/* The GPU's part: *tc = the configuration the options give; 1, 0 when timing is off, -1 with
 * the reason in err.  The board's GPU (board_gpu.c) keeps its own copy. */
struct tm_config;
int board_timing_gpu(const BoardConfig *cfg, struct tm_config *tc, char *err, size_t errlen);
/* `--timing help`: every key with the value it has for cfg's GPU (the g71 preset, the GPU's
 * clock), as KEY = VALUE lines (--timing-config's format); tools read the key list from it. */
bool board_timing_is_help(const BoardConfig *cfg);
void board_timing_help(const BoardConfig *cfg, FILE *f);

#endif
