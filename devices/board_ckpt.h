/* The board's part of a checkpoint (emu/checkpoint/ckpt.h, docs/checkpoint.md): its identity
 * (what must match on load), its RAM (sparse, compressed) and every device it instantiated, in a
 * fixed order.  The vCPUs and the machine loop are the system main's (emu/system/checkpoint.c).
 *
 *   save:  board_ckpt_save(b, w)                   with every vCPU stopped and the GPU quiet
 *   load:  board_ckpt_check(b, r)  (identity)  then board_ckpt_load(b, r)  after board_realize */
#ifndef MALIBU_DEVICES_BOARD_CKPT_H
#define MALIBU_DEVICES_BOARD_CKPT_H

#include <stdbool.h>
#include "board.h"
#include "../emu/checkpoint/ckpt.h"

void board_ckpt_save(Board *b, CkptWriter *w);
/* The saved board's identity against this one's configuration: false (recorded in r) naming
 * the first difference that cannot change on load ("saved with --gpu g72, this board has g52"). */
bool board_ckpt_check(Board *b, CkptReader *r);
bool board_ckpt_load(Board *b, CkptReader *r);

#endif
