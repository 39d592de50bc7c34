/* The tile buffer of one 16x16 tile: colour per render target in its internal format's bits, depth
 * (float) and stencil per sample; made from the framebuffer's clear values, written back to the
 * render targets and the depth/stencil surfaces at the tile's end (gfx_fb.h describes them). */
#ifndef MALIBU_GPU_GFX_TILE_H
#define MALIBU_GPU_GFX_TILE_H

#include <stdbool.h>

#include "gfx_fb.h"

#define GFX_TILE_PIXELS (GFX_TILE * GFX_TILE)

typedef struct gfx_tile {
    unsigned x0, y0;                  /* the tile's first pixel */
    unsigned samples;
    /* sample s of pixel (x, y) of the tile: index (y * 16 + x) * samples + s */
    uint32_t (*color[GFX_MAX_RTS])[4];
    float *z;
    uint8_t *s;
    size_t cap;                       /* samples allocated per plane */
} gfx_tile;

/* Storage for fb's tiles (reused tile after tile); -1 when the host is out of memory. */
int gfx_tile_reserve(gfx_tile *t, const gfx_fb *fb);
void gfx_tile_free(gfx_tile *t);
/* Start tile (tx, ty): every sample cleared to the framebuffer's clear values. */
void gfx_tile_clear(gfx_tile *t, const gfx_fb *fb, unsigned tx, unsigned ty);
/* Write the tile's pixels inside the framebuffer's bounds back to memory: each render target
 * with write enabled, depth and stencil when their writes are enabled.  0 or an exception code
 * (*fva at fault; err says why). */
uint32_t gfx_tile_write_back(const gfx_tile *t, const gfx_fb *fb, const gpu_mem_if *m, uint64_t *fva, char *err,
                             size_t errlen);
/* The internal formats the blender works on (R8G8B8A8 .. R5G5B5A1: one fixed-point word a
 * pixel, gfx_pixel.h gfx_tib_*); the others (RAW8 .. RAW128) hold the shader's converted bits. */
static inline bool gfx_internal_blendable(unsigned f)
{
    return f >= 1 && f <= 6;
}
/* Bytes per pixel of a writeback colour format (enum mali_color_format), 0 if unsupported. */
unsigned gfx_color_format_bytes(unsigned writeback_format);

#endif
