/* Tile write-back (see gfx_writeback.h). */
#include "gfx_writeback.h"

#include <string.h>

unsigned gfx_raw_writeback_bytes(unsigned cf)
{
    static const uint8_t bytes[8] = { 1, 2, 3, 4, 6, 8, 12, 16 };
    return cf < 8 ? bytes[cf] : 0;
}

/* the memory bytes of the pixel at tile index i */
static inline void pixel_bytes(const gfx_rt_writeback *rt, const gfx_color *tile, const uint8_t *raw, unsigned i,
                               uint8_t *out)
{
    if (rt->fi) {
        gfx_color c;
        gfx_swizzle_for_write(rt->swizzle, &tile[i], &c, 0x3f800000u);
        rt->fi->pack(&c, out);
    } else {
        memcpy(out, raw + (size_t)i * GFX_RAW_PIXEL_MAX, rt->raw_bytes);
    }
}

int gfx_writeback_tile(const gfx_rt_writeback *rt, const gfx_color *tile, const uint8_t *raw, uint32_t x0,
                       uint32_t y0, uint32_t w, uint32_t h, uint32_t sample, gfx_write_fn write, void *ctx)
{
    uint32_t bpp = rt->fi ? rt->fi->bpp : rt->raw_bytes;
    if (!w || !h || (x0 & 15) + w > GFX_TILE || (y0 & 15) + h > GFX_TILE || bpp != rt->surf.bpp || !bpp ||
        bpp > GFX_RAW_PIXEL_MAX)
        return -1;
    uint8_t buf[GFX_TILE * GFX_TILE * GFX_RAW_PIXEL_MAX];
    const gfx_surface *s = &rt->surf;
    if (s->tiled && w == GFX_TILE && h == GFX_TILE) {
        /* a whole tile: its 256 pixels are contiguous, in U-interleaved order */
        for (uint32_t y = 0; y < GFX_TILE; y++)
            for (uint32_t x = 0; x < GFX_TILE; x++)
                pixel_bytes(rt, tile, raw, y * GFX_TILE + x, buf + gfx_uinterleave_index(x, y) * bpp);
        return write(ctx, s->base + (uint64_t)gfx_surface_offset(s, x0, y0, sample), buf, (size_t)GFX_TILE * GFX_TILE * bpp);
    }
    for (uint32_t y = y0; y < y0 + h; y++) {
        if (s->tiled) {                 /* a partial tile (the framebuffer's edge): pixel by pixel */
            for (uint32_t x = x0; x < x0 + w; x++) {
                pixel_bytes(rt, tile, raw, (y & 15) * GFX_TILE + (x & 15), buf);
                int rc = write(ctx, s->base + (uint64_t)gfx_surface_offset(s, x, y, sample), buf, bpp);
                if (rc)
                    return rc;
            }
            continue;
        }
        for (uint32_t x = x0; x < x0 + w; x++)      /* linear: one write per row */
            pixel_bytes(rt, tile, raw, (y & 15) * GFX_TILE + (x & 15), buf + (x - x0) * bpp);
        int rc = write(ctx, s->base + (uint64_t)gfx_surface_offset(s, x0, y, sample), buf, (size_t)w * bpp);
        if (rc)
            return rc;
    }
    return 0;
}
