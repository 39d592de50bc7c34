/* The board's I/O devices in a checkpoint (virtio_board.h, docs/checkpoint.md "The I/O
 * devices"): one fixed order, the same for saving and loading. */
#include "board.h"
#include "board_display.h"
#include "virtio_board.h"
#include "../emu/checkpoint/ckpt.h"

void board_io_ckpt_save(Board *b, CkptWriter *w)
{
    pl011_ckpt_save(b->uart, w);
    pl031_ckpt_save(b->rtc, w);
    virtio_board_ckpt_save(b, w);
    board_display_ckpt_save(b, w);
}

bool board_io_ckpt_load(Board *b, CkptReader *r)
{
    if (!pl011_ckpt_load(b->uart, r) || !pl031_ckpt_load(b->rtc, r) || !virtio_board_ckpt_load(b, r) ||
        !board_display_ckpt_load(b, r))
        return false;
    virtio_board_ckpt_resume(b); /* requests the guest had notified run now (RAM, GIC loaded) */
    board_display_ckpt_resume(b);
    return true;
}
