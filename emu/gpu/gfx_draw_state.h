/* A draw's rasterizer state: what the fragment DCD and its Renderer State (gfx_draw, read by
 * gfx_fragment.c) ask of gfx_raster, per tile and primitive: facing and culling, the scissor,
 * the gl_PointCoord origin and polygon offset. */
#ifndef MALIBU_GPU_GFX_DRAW_STATE_H
#define MALIBU_GPU_GFX_DRAW_STATE_H

#include "gfx_frag_int.h"
#include "gfx_raster.h"

/* The state for draw dr of a framebuffer fb with `samples` samples a pixel.  Polygon offset is
 * enabled when either facing has it; gfx_draw_offset_applies says whether a triangle's does. */
void gfx_draw_raster_state(const gfx_fb *fb, const gfx_draw *dr, unsigned samples, struct gfx_raster_state *st);

static inline bool gfx_draw_offset_applies(const gfx_draw *dr, bool front_facing)
{
    return front_facing ? dr->bias_front : dr->bias_back;
}

#endif
