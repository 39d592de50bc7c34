/* A draw's rasterizer state (gfx_draw_state.h).  Sources read for facts: Mesa's
 * pan_cmdstream.c (panfrost_prepare_fs_state, panfrost_create_rasterizer_state) and panvk's
 * renderer state, genxml v6.xml / v7.xml (Renderer State). */
#include "gfx_draw_state.h"

#include "mali_formats.h"

void gfx_draw_raster_state(const gfx_fb *fb, const gfx_draw *dr, unsigned samples, struct gfx_raster_state *st)
{
    *st = (struct gfx_raster_state){
        .samples = samples, .front_ccw = dr->front_ccw,
        .cull = (enum gfx_cull)((dr->cull_front ? GFX_CULL_FRONT : 0) | (dr->cull_back ? GFX_CULL_BACK : 0)),
        .scissor_x0 = dr->sx0, .scissor_y0 = dr->sy0, .scissor_x1 = dr->sx1 + 1, .scissor_y1 = dr->sy1 + 1,
        .zmin = 0, .zmax = 1,
        /* "point sprite coord origin max Y": t = 0 on the point's rows of largest y.  Panfrost
         * sets it for Gallium's LOWER_LEFT sprite origin, which st/mesa asks for when drawing
         * into a framebuffer object (rows bottom-up: GL's upper-left origin is at max y) */
        .point_origin_lower = dr->point_origin_max_y,
    };
    if (!dr->bias_front && !dr->bias_back)
        return;
    /* Polygon offset.  Panfrost writes GL's units x 2 in Depth Units (and panvk Vulkan's
     * constant factor x 2), so the hardware's unit is half of GL's minimum resolvable
     * difference r: 2^-17 for D16, 2^-25 for D24, and for D32 half of gfx_raster's float rule
     * 2^(e - 23).  panvk's depth clears rely on the same arithmetic: units = infinity, clamped
     * to the clear depth by the bias clamp. */
    st->offset_enable = true;
    st->offset_factor = dr->depth_factor;
    st->offset_units = dr->depth_units * 0.5f;
    st->offset_clamp = dr->depth_clamp;
    st->depth_float = fb->z_internal == MALI_Z_INTERNAL_FORMAT_D32;
    st->depth_r = fb->z_internal == MALI_Z_INTERNAL_FORMAT_D16 ? 0x1p-16f : 0x1p-24f;
}
