/* Interpolation of one f32 varying component from a primitive's three vertices (the fragment
 * front end's LD_VAR, emu/gpu/gfx_shade.c). */
#ifndef GFX_INTERP_H
#define GFX_INTERP_H

#include <stdint.h>

/* bw: the pixel's or sample's barycentric weights (gfx_quad's bary / bary_lin); v0-v2: the
 * vertices' values as f32 bits.  Returns the interpolated value as f32 bits. */
uint32_t gfx_interp_f32(const float bw[3], uint32_t v0, uint32_t v1, uint32_t v2);

#endif
