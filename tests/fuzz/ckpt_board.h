/* The board of the checkpoint fuzz harness and of its seed (fuzz_ckpt.c, ckpt_seed.c): G52 with one
 * shader-core thread, 16 MiB of RAM, no disks, no display, console discarded. */
#ifndef MALIBU_TESTS_FUZZ_CKPT_BOARD_H
#define MALIBU_TESTS_FUZZ_CKPT_BOARD_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include "../../devices/board.h"

static inline Board *fuzz_ckpt_board(void)
{
    BoardConfig cfg;
    board_config_default(&cfg);
    cfg.console_in = -1;
    cfg.console_out = open("/dev/null", O_WRONLY | O_CLOEXEC);
    cfg.gpu = "g52";
    cfg.gpu_threads = 1;
    cfg.ram_size = 16ull << 20;
    char err[256];
    Board *b = board_new(&cfg, err, sizeof err);
    if (!b || !board_realize(b, err, sizeof err)) {
        fprintf(stderr, "checkpoint fuzz board: %s\n", err);
        abort();
    }
    return b;
}

#endif
