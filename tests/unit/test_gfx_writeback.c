/* Tile write-back (emu/gpu/gfx_writeback.c): every pixel of whole and partial tiles, linear and
 * U-interleaved, blendable formats with the RT swizzle and raw targets, lands in memory as the
 * format's pack of its (swizzled) colour at gfx_layout's address, nothing else is written, whole
 * tiled tiles take one write and linear ones one per row, and a write fault stops write-back. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "gfx_writeback.h"

#define EXPECT(cond, ...)                                                                          \
    do {                                                                                          \
        if (!(cond))                                                                              \
            ck_abort_msg(__VA_ARGS__);                                                            \
    } while (0)

enum { BASE = 0x40000, SIZE = 1 << 16 };
static uint8_t mem[SIZE];
static unsigned writes;
static uint64_t fault_va;

static int flat_write(void *ctx, uint64_t va, const void *src, size_t n)
{
    (void)ctx;
    writes++;
    if (fault_va && va <= fault_va && fault_va < va + n)
        return 7;
    EXPECT(va >= BASE && va + n <= BASE + SIZE, "write outside the surface: %#llx + %zu", (unsigned long long)va, n);
    memcpy(mem + (va - BASE), src, n);
    return 0;
}

static uint64_t rng = 0x853c49e6748fea9bull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* writes the rectangle and checks every byte of the surface */
static void check(gfx_format f, uint32_t raw_bytes, int tiled, uint32_t swizzle, uint32_t x0, uint32_t y0, uint32_t w,
                  uint32_t h, uint32_t sample)
{
    const gfx_format_info *fi = f ? gfx_format_get(f) : NULL;
    uint32_t bpp = fi ? fi->bpp : raw_bytes;
    gfx_rt_writeback rt = { .fi = fi, .swizzle = swizzle, .raw_bytes = raw_bytes,
                            .surf = { .base = BASE, .bpp = bpp, .tiled = (uint32_t)tiled } };
    rt.surf.row_stride = tiled ? gfx_tiled_row_stride(48, bpp) : 48 * bpp + 64;
    rt.surf.sample_stride = rt.surf.row_stride * (tiled ? 2 : 32);
    gfx_color tile[256];
    uint8_t raw[256 * GFX_RAW_PIXEL_MAX];
    for (unsigned i = 0; i < 256; i++)
        for (unsigned c = 0; c < 4; c++) {
            if (fi && fi->kind == GFX_KIND_FLOAT)
                tile[i].f[c] = (float)(rnd() % 2000) / 64.0f - 10.0f;
            else if (fi && fi->kind == GFX_KIND_UNORM)
                tile[i].f[c] = (float)(rnd() % 1000) / 999.0f;
            else
                tile[i].u[c] = rnd();
        }
    for (unsigned i = 0; i < sizeof raw; i++)
        raw[i] = (uint8_t)rnd();
    memset(mem, 0xcd, sizeof mem);
    writes = 0;
    ck_assert_int_eq(gfx_writeback_tile(&rt, tile, raw, x0, y0, w, h, sample, flat_write, NULL), 0);
    static uint8_t want[SIZE];
    memset(want, 0xcd, sizeof want);
    for (uint32_t y = y0; y < y0 + h; y++)
        for (uint32_t x = x0; x < x0 + w; x++) {
            unsigned i = (y & 15) * 16 + (x & 15);
            uint8_t *p = want + gfx_surface_offset(&rt.surf, x, y, sample);
            if (fi) {
                gfx_color c;
                gfx_swizzle_for_write(swizzle, &tile[i], &c, 0x3f800000u);
                fi->pack(&c, p);
            } else {
                memcpy(p, raw + i * GFX_RAW_PIXEL_MAX, raw_bytes);
            }
        }
    for (unsigned i = 0; i < SIZE; i++)
        EXPECT(mem[i] == want[i], "%s tiled %d (%u, %u) %ux%u sample %u: byte %u is %#x, want %#x",
               fi ? fi->name : "raw", tiled, x0, y0, w, h, sample, i, mem[i], want[i]);
    if (tiled && w == 16 && h == 16)
        ck_assert_uint_eq(writes, 1);
    if (!tiled)
        ck_assert_uint_eq(writes, h);
}

START_TEST(test_tiles)
{
    const uint32_t rgba = 0 | 1 << 3 | 2 << 6 | 3 << 9, bgra = 2 | 1 << 3 | 0 << 6 | 3 << 9;
    for (int tiled = 0; tiled < 2; tiled++) {
        check(GFX_FMT_RGBA8_UNORM, 0, tiled, bgra, 16, 16, 16, 16, 0);
        check(GFX_FMT_RGBA8_SRGB, 0, tiled, rgba, 32, 0, 16, 16, 1);
        check(GFX_FMT_RGB565_UNORM, 0, tiled, rgba, 16, 0, 16, 16, 0);
        check(GFX_FMT_RGB8_UNORM, 0, tiled, rgba, 0, 16, 16, 16, 0);
        check(GFX_FMT_RGBA16_FLOAT, 0, tiled, rgba, 0, 0, 16, 16, 0);
        check(GFX_FMT_NONE, 8, tiled, 0, 16, 16, 16, 16, 1);                 /* RAW64 */
        check(GFX_FMT_NONE, 16, tiled, 0, 32, 16, 16, 16, 0);                /* RAW128 */
        /* partial tiles: the edge of a 45x27 framebuffer, and a rectangle inside a tile */
        check(GFX_FMT_RGBA8_UNORM, 0, tiled, bgra, 32, 16, 13, 11, 0);
        check(GFX_FMT_R8_UNORM, 0, tiled, rgba, 21, 3, 7, 9, 1);
        check(GFX_FMT_NONE, 4, tiled, 0, 32, 0, 13, 16, 0);
    }
}
END_TEST

START_TEST(test_refusals_and_faults)
{
    const gfx_format_info *fi = gfx_format_get(GFX_FMT_RGBA8_UNORM);
    gfx_rt_writeback rt = { .fi = fi, .swizzle = 0 | 1 << 3 | 2 << 6 | 3 << 9,
                            .surf = { .base = BASE, .bpp = 4, .tiled = 1, .row_stride = gfx_tiled_row_stride(48, 4) } };
    gfx_color tile[256] = { 0 };
    ck_assert_int_eq(gfx_writeback_tile(&rt, tile, NULL, 8, 0, 9, 4, 0, flat_write, NULL), -1);   /* crosses a tile */
    ck_assert_int_eq(gfx_writeback_tile(&rt, tile, NULL, 0, 0, 0, 4, 0, flat_write, NULL), -1);
    rt.surf.bpp = 2;                                                                               /* bpp mismatch */
    ck_assert_int_eq(gfx_writeback_tile(&rt, tile, NULL, 0, 0, 16, 16, 0, flat_write, NULL), -1);
    rt.surf.bpp = 4;
    fault_va = BASE + 1024 + 100;           /* inside tile (16, 0), 1024 bytes on: the whole-tile write faults */
    ck_assert_int_eq(gfx_writeback_tile(&rt, tile, NULL, 16, 0, 16, 16, 0, flat_write, NULL), 7);
    writes = 0;
    rt.surf.tiled = 0;
    rt.surf.row_stride = 256;
    fault_va = BASE + 3 * 256 + 8;          /* row 3 of a linear tile: rows 0-2 written, then it stops */
    ck_assert_int_eq(gfx_writeback_tile(&rt, tile, NULL, 0, 0, 16, 16, 0, flat_write, NULL), 7);
    ck_assert_uint_eq(writes, 4);
    fault_va = 0;
    ck_assert_uint_eq(gfx_raw_writeback_bytes(5), 8);
    ck_assert_uint_eq(gfx_raw_writeback_bytes(7), 16);
    ck_assert_uint_eq(gfx_raw_writeback_bytes(2), 3);
    ck_assert_uint_eq(gfx_raw_writeback_bytes(19), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gfx_writeback");
    TCase *t = tcase_create("writeback");
    tcase_add_test(t, test_tiles);
    tcase_add_test(t, test_refusals_and_faults);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
