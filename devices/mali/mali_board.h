/* Board glue for the Mali GPU (kept apart from mali.h so that board.h need not include it). */
#ifndef MALIBU_MALI_BOARD_H
#define MALIBU_MALI_BOARD_H

#include <stdbool.h>
#include <stddef.h>

struct Board;
struct Mali;

/* Instantiate the GPU model named (g71, g72, g52; NULL = g71) at BOARD_GPU_BASE with the
 * BOARD_GPU_INTID_* interrupts: maps the MMIO window, registers the DT hook, timestamps from
 * the generic timer (CNTPCT).  "none": no GPU, *out = NULL.  false + err on failure. */
bool mali_board_attach(struct Board *b, const char *model, struct Mali **out, char *err,
                       size_t errlen);
/* Names accepted by --gpu, for messages. */
#define MALI_BOARD_MODELS "g71|g72|g52|none"
bool mali_board_model_ok(const char *model);

#endif
