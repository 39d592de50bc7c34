/* Per-pixel cost of the graphics pixel back end (emu/gpu/gfx_blend, gfx_pixel, gfx_layout): a
 * 256x256 U-interleaved render target, each pixel blended with SRC_ALPHA / ONE_MINUS_SRC_ALPHA
 * (panfrost's fixed-function equation for it) against its tile value, quantized to the format
 * (what the tile buffer holds), then packed to memory at its tiled address; per format, the best
 * of REPS passes in thread CPU time.  Prints ns per pixel and a checksum (so the work is not optimised away).
 * usage: gfx_pixel_bench [REPS] (default 20) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gfx_blend.h"
#include "gfx_layout.h"
#include "gfx_pixel.h"

enum { W = 256, H = 256 };

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);   /* CPU time: a loaded host does not count */
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 20;
    /* RGB: A = DEST, B = SRC - DEST, C = SRC ALPHA; alpha likewise: dest + (src - dest) * src alpha */
    gfx_blend_equation eq = { .rgb = { .a = GFX_BLEND_A_DEST, .b = GFX_BLEND_B_SRC_MINUS_DEST, .c = GFX_BLEND_C_SRC_ALPHA },
                              .alpha = { .a = GFX_BLEND_A_DEST, .b = GFX_BLEND_B_SRC_MINUS_DEST, .c = GFX_BLEND_C_SRC_ALPHA },
                              .color_mask = 0xf };
    const uint32_t desc[4] = { 1u << 9, gfx_blend_equation_pack(&eq), GFX_BLEND_MODE_FIXED | 3u << 3, 237u << 12 };
    static const gfx_format fmts[] = { GFX_FMT_RGBA8_UNORM, GFX_FMT_RGBA8_SRGB, GFX_FMT_RGB565_UNORM,
                                       GFX_FMT_RGB10A2_UNORM, GFX_FMT_RGBA16_FLOAT, GFX_FMT_RGBA32_FLOAT };
    static gfx_color tile[W * H];
    static float src[W * H][4];
    uint8_t *mem = malloc((size_t)W * H * 16);
    if (!mem)
        return 1;
    for (unsigned i = 0; i < W * H; i++)
        for (unsigned c = 0; c < 4; c++)
            src[i][c] = (float)((i * 7 + c * 13) % 256) / 255.0f;
    printf("%-10s %10s %10s\n", "format", "ns/pixel", "checksum");
    for (unsigned f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
        const gfx_format_info *fi = gfx_format_get(fmts[f]);
        gfx_blend_state st;
        gfx_blend_state_init(&st, desc, 8, fi->kind == GFX_KIND_UNORM);
        gfx_surface s = { .row_stride = gfx_tiled_row_stride(W, fi->bpp), .bpp = fi->bpp, .tiled = 1 };
        double best = 1e30;
        uint32_t sum = 0;
        for (int r = 0; r < reps; r++) {
            for (unsigned i = 0; i < W * H; i++)
                for (unsigned c = 0; c < 4; c++)
                    tile[i].f[c] = 0.5f;
            double t0 = now();
            for (uint32_t y = 0; y < H; y++)
                for (uint32_t x = 0; x < W; x++) {
                    gfx_color *t = &tile[y * W + x];
                    gfx_blend_apply(&st, src[y * W + x], t->f);
                    gfx_format_quantize(fi, t);
                    fi->pack(t, mem + gfx_surface_offset(&s, x, y, 0));
                }
            double dt = now() - t0;
            best = dt < best ? dt : best;
        }
        for (unsigned i = 0; i < W * H * fi->bpp; i++)
            sum = sum * 31 + mem[i];
        printf("%-10s %10.2f %10x\n", fi->name, best * 1e9 / (W * H), sum);
    }
    free(mem);
    return 0;
}
