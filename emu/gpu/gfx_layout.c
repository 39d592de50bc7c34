/* Surface addressing (see gfx_layout.h): the span of a rectangle, for bounds checks. */
#include "gfx_layout.h"

void gfx_surface_span(const gfx_surface *s, uint32_t x, uint32_t y, uint32_t w, uint32_t h, uint32_t samples,
                      int64_t *lo, int64_t *hi)
{
    /* offsets are affine in x, y and the sample (in tile coordinates when tiled): the extremes are at
     * the corners */
    uint32_t xs[2] = { x, x + w - 1 }, ys[2] = { y, y + h - 1 }, ss[2] = { 0, samples ? samples - 1 : 0 };
    int64_t mn = INT64_MAX, mx = INT64_MIN;
    for (unsigned i = 0; i < 8; i++) {
        uint32_t px = xs[i & 1], py = ys[i >> 1 & 1], k = ss[i >> 2];
        int64_t o = s->tiled ? gfx_surface_offset(s, px & ~(uint32_t)(GFX_TILE - 1), py & ~(uint32_t)(GFX_TILE - 1), k)
                             : gfx_surface_offset(s, px, py, k);
        mn = o < mn ? o : mn;
        mx = o > mx ? o : mx;
    }
    *lo = mn;
    *hi = mx + (int64_t)s->bpp * (s->tiled ? GFX_TILE * GFX_TILE : 1);
}
