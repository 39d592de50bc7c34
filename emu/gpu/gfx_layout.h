/* Surface addressing shared by the texture unit and tile write-back: linear surfaces with a row
 * stride, and Mali's 16x16-pixel "U-interleaved" tiled layout (genxml "Block Format" Tiled
 * U-Interleaved, "Texture Layout" Tiled; Mesa's pan_tiling.c and pan_layout.c, read for facts).
 *
 * U-interleaved: the surface is a grid of 16x16-pixel tiles stored one after another along a row
 * of tiles; `row_stride` is the distance between rows of tiles (16 pixel rows: Mesa's
 * slice row_stride = bytes per pixel * aligned width * 16, aligned on v7). Inside a tile, pixel
 * (x, y) (low 4 bits each) is at index
 *     y3 (x3^y3) y2 (x2^y2) y1 (x1^y1) y0 (x0^y0)     (bit 7 .. bit 0)
 * times the bytes per pixel.
 * Multisampled targets and depth/stencil buffers as panfrost writes them (MSAA "Layered"): sample
 * s is a whole surface at s * surface_stride (Mesa passes the slice's surface stride only when the
 * view has more than one sample). */
#ifndef MALIBU_GFX_LAYOUT_H
#define MALIBU_GFX_LAYOUT_H

#include <stdint.h>

enum { GFX_TILE = 16 };

/* A surface as a descriptor gives it.  tiled: U-interleaved (else linear).  bpp: bytes per
 * pixel (1, 2, 3, 4, 6, 8, 12 or 16; tiled layouts use what the format has). */
typedef struct {
    uint64_t base;
    int64_t row_stride;         /* linear: bytes per pixel row; tiled: bytes per row of tiles */
    int64_t sample_stride;      /* bytes between the planes of samples (MSAA layered) */
    uint32_t bpp;
    uint32_t tiled;
} gfx_surface;

/* The low 4 bits of v moved to the even bit positions 0, 2, 4, 6. */
static inline uint32_t gfx_spread4(uint32_t v)
{
    v &= 15;
    v = (v | v << 2) & 0x33;
    return (v | v << 1) & 0x55;
}

/* Index of pixel (x & 15, y & 15) inside its 16x16 tile: the y bits doubled (odd and even
 * positions) xor the x bits spread (even positions). */
static inline uint32_t gfx_uinterleave_index(uint32_t x, uint32_t y)
{
    return gfx_spread4(x) ^ gfx_spread4(y) * 3;
}

/* Byte offset of pixel (x, y), sample s, from the surface's base. */
static inline int64_t gfx_surface_offset(const gfx_surface *s, uint32_t x, uint32_t y, uint32_t sample)
{
    int64_t off = (int64_t)sample * s->sample_stride;
    if (!s->tiled)
        return off + (int64_t)y * s->row_stride + (int64_t)x * s->bpp;
    return off + (int64_t)(y / GFX_TILE) * s->row_stride +
           ((int64_t)(x / GFX_TILE) * GFX_TILE * GFX_TILE + gfx_uinterleave_index(x, y)) * s->bpp;
}

/* Row stride (bytes) panfrost gives a U-interleaved surface `width` pixels wide with `bpp` bytes
 * per pixel on v6 (pan_layout.c: a row of 16x16 tiles, width aligned to 16; v7 aligns it further
 * to its own requirement, which only pads). */
static inline int64_t gfx_tiled_row_stride(uint32_t width, uint32_t bpp)
{
    return (int64_t)((width + GFX_TILE - 1) / GFX_TILE) * GFX_TILE * GFX_TILE * bpp;
}

/* The byte range [*lo, *hi) relative to the base that the pixels of the rectangle (x, y, w, h), w and
 * h > 0, with samples 0 .. samples-1 can touch: exact for linear surfaces, whole tiles for tiled
 * ones.  Checked once per tile by write-back, so a hostile descriptor's strides are seen before any
 * access (negative strides included). */
void gfx_surface_span(const gfx_surface *s, uint32_t x, uint32_t y, uint32_t w, uint32_t h, uint32_t samples,
                      int64_t *lo, int64_t *hi);

#endif
