/* Tile write-back: the colours of one 16x16 tile of a render target to memory, packed in the
 * target's format at the addresses of its layout, in as few writes as the layout allows (a whole
 * U-interleaved tile is one contiguous write; a linear tile one write per row).
 * Render targets as panfrost sets them (pan_desc.c): a blendable target packs its tile colours
 * in the write-back format after the RT swizzle (gfx_pixel); a RAW target (internal format RAW8 ..
 * RAW128, Writeback Format RAWn) copies the raw bytes its tile holds (what BLEND's conversion or
 * the clear words put there). */
#ifndef MALIBU_GFX_WRITEBACK_H
#define MALIBU_GFX_WRITEBACK_H

#include <stddef.h>
#include <stdint.h>

#include "gfx_layout.h"
#include "gfx_pixel.h"

/* Writes n bytes at GPU address va; nonzero on a fault (write-back stops and returns it). */
typedef int (*gfx_write_fn)(void *ctx, uint64_t va, const void *src, size_t n);

enum { GFX_RAW_PIXEL_MAX = 16 };        /* bytes per pixel a raw tile holds */

typedef struct {
    gfx_surface surf;
    const gfx_format_info *fi;          /* blendable target; NULL: raw */
    uint32_t swizzle;                   /* RT Swizzle (blendable) */
    uint32_t raw_bytes;                 /* raw target: bytes per pixel written (1 .. 16) */
} gfx_rt_writeback;

/* Bytes per pixel of a RAW Writeback Format (Color Format RAW8 .. RAW128, codes 0-7), 0 for
 * other codes (the wider RAW formats are for multisampled tiles, which panfrost does not write). */
unsigned gfx_raw_writeback_bytes(unsigned color_format);

/* Writes the pixels (x, y) with x0 <= x < x0 + w, y0 <= y < y0 + h of the tile that holds (x0, y0)
 * (the rectangle must stay inside that 16x16 tile), sample `sample`.  Colours come from
 * tile[(y & 15) * 16 + (x & 15)] (blendable) or raw + ((y & 15) * 16 + (x & 15)) * 16 (raw).
 * Returns 0, the write callback's error, or -1 for a rectangle outside its tile. */
int gfx_writeback_tile(const gfx_rt_writeback *rt, const gfx_color *tile, const uint8_t *raw, uint32_t x0,
                       uint32_t y0, uint32_t w, uint32_t h, uint32_t sample, gfx_write_fn write, void *ctx);

#endif
