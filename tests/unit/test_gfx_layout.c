/* Surface addressing (emu/gpu/gfx_layout.h): the U-interleaved index inside a 16x16 tile against the
 * bit pattern Mesa's pan_tiling.c documents (bit 7 .. 0: y3, x3^y3, y2, x2^y2, y1, x1^y1, y0, x0^y0),
 * built here bit by bit; addresses of known pixels worked out by hand; and, for 1 to 16 bytes per
 * pixel, every pixel of tiled and linear surfaces with samples landing on its own aligned slot
 * inside the surface panfrost allocates (pan_layout.c). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gfx_layout.h"

/* A check inside the long loops: Check's ck_assert* records every passing assertion with a
 * system call, which millions of them turn into seconds; this one costs nothing until it fails. */
#define EXPECT(cond, ...)                                                                          \
    do {                                                                                          \
        if (!(cond))                                                                              \
            ck_abort_msg(__VA_ARGS__);                                                            \
    } while (0)

/* the documented pattern, one bit at a time */
static uint32_t ref_index(uint32_t x, uint32_t y)
{
    uint32_t i = 0;
    for (unsigned b = 0; b < 4; b++) {
        uint32_t xb = x >> b & 1, yb = y >> b & 1;
        i |= (xb ^ yb) << (2 * b);
        i |= yb << (2 * b + 1);
    }
    return i;
}

START_TEST(test_tile_index)
{
    uint8_t seen[256] = { 0 };
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++) {
            uint32_t i = gfx_uinterleave_index(x, y);
            EXPECT(i == ref_index(x, y), "(%u, %u): %u, pattern %u", x, y, i, ref_index(x, y));
            ck_assert_uint_lt(i, 256);
            ck_assert_uint_eq(seen[i], 0);
            seen[i] = 1;
            /* only the low 4 bits of each coordinate matter */
            ck_assert_uint_eq(gfx_uinterleave_index(x + 16 * 5, y + 16 * 3), i);
        }
    /* by hand: (1,0) = x0^y0 = 1; (0,1) = y0 | x0^y0 = 3; (1,1) = y0 = 2; (2,0) = bit 2 = 4;
     * (15,15) = y bits only = 0xaa; (15,0) = 0x55; (0,15) = 0xff; (5,10) = 0b11011101 */
    ck_assert_uint_eq(gfx_uinterleave_index(1, 0), 1);
    ck_assert_uint_eq(gfx_uinterleave_index(0, 1), 3);
    ck_assert_uint_eq(gfx_uinterleave_index(1, 1), 2);
    ck_assert_uint_eq(gfx_uinterleave_index(2, 0), 4);
    ck_assert_uint_eq(gfx_uinterleave_index(15, 15), 0xaa);
    ck_assert_uint_eq(gfx_uinterleave_index(15, 0), 0x55);
    ck_assert_uint_eq(gfx_uinterleave_index(0, 15), 0xff);
    ck_assert_uint_eq(gfx_uinterleave_index(5, 10), 0xdd);
}
END_TEST

START_TEST(test_known_addresses)
{
    /* linear, 256-byte rows, 4 bytes per pixel: (3, 2) at 2 * 256 + 3 * 4 */
    gfx_surface lin = { .base = 0x1000, .row_stride = 256, .bpp = 4 };
    ck_assert_int_eq(gfx_surface_offset(&lin, 3, 2, 0), 524);
    /* tiled, 40 pixels wide (3 tiles), 4 bytes: a row of tiles is 48 * 16 * 4 = 3072 bytes;
     * (17, 18) is in tile (1, 1) at index (1, 2) = x0^y0 | (x1^y1) << 2 | y1 << 3 = 13: 3072 + 1024 + 52 */
    ck_assert_int_eq(gfx_tiled_row_stride(40, 4), 3072);
    gfx_surface t = { .row_stride = 3072, .bpp = 4, .tiled = 1 };
    ck_assert_int_eq(gfx_surface_offset(&t, 17, 18, 0), 4148);
    /* 16 bytes per pixel, (31, 0): tile 1, index 0x55: 4096 + 85 * 16 */
    gfx_surface t16 = { .row_stride = gfx_tiled_row_stride(32, 16), .bpp = 16, .tiled = 1 };
    ck_assert_int_eq(gfx_surface_offset(&t16, 31, 0, 0), 4096 + 85 * 16);
    /* sample 3 of a layered 4x target is a whole surface further */
    t.sample_stride = 3072 * 2;
    ck_assert_int_eq(gfx_surface_offset(&t, 17, 18, 3), 4148 + 3 * 6144);
}
END_TEST

/* every pixel of a width x height surface with `samples` samples maps to a distinct, bpp-aligned
 * slot inside the allocation panfrost makes for it */
static void check_surface(uint32_t w, uint32_t h, uint32_t bpp, int tiled, uint32_t samples)
{
    gfx_surface s = { .bpp = bpp, .tiled = (uint32_t)tiled };
    uint32_t rows = tiled ? (h + 15) / 16 : h;
    s.row_stride = tiled ? gfx_tiled_row_stride(w, bpp) : (((int64_t)w * bpp + 63) & ~63ll);
    s.sample_stride = s.row_stride * rows;
    int64_t size = s.sample_stride * samples;
    uint8_t *used = calloc((size_t)(size / bpp), 1);
    ck_assert_ptr_nonnull(used);
    for (uint32_t k = 0; k < samples; k++)
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                int64_t o = gfx_surface_offset(&s, x, y, k);
                EXPECT(o >= 0 && o + bpp <= size, "(%u, %u, %u) bpp %u tiled %d at %lld of %lld", x, y, k, bpp,
                              tiled, (long long)o, (long long)size);
                EXPECT(o % bpp == 0, "(%u, %u, %u) bpp %u: offset %lld not aligned", x, y, k, bpp, (long long)o);
                EXPECT(!used[o / bpp], "(%u, %u, %u) bpp %u tiled %d: slot taken", x, y, k, bpp, tiled);
                used[o / bpp] = 1;
            }
    free(used);
    /* the span of the whole surface and of random rectangles holds every pixel they contain;
     * for linear surfaces it is exact */
    for (unsigned n = 0; n < 200; n++) {
        uint32_t rx = n ? (uint32_t)rand() % w : 0, ry = n ? (uint32_t)rand() % h : 0;
        uint32_t rw = n ? 1 + (uint32_t)rand() % (w - rx) : w, rh = n ? 1 + (uint32_t)rand() % (h - ry) : h;
        int64_t lo, hi, mn = INT64_MAX, mx = INT64_MIN;
        gfx_surface_span(&s, rx, ry, rw, rh, samples, &lo, &hi);
        for (uint32_t k = 0; k < samples; k++)
            for (uint32_t yy = ry; yy < ry + rh; yy++)
                for (uint32_t xx = rx; xx < rx + rw; xx++) {
                    int64_t o = gfx_surface_offset(&s, xx, yy, k);
                    mn = o < mn ? o : mn;
                    mx = o > mx ? o : mx;
                }
        ck_assert_int_ge(mn, lo);
        ck_assert_int_le(mx + bpp, hi);
        if (!tiled) {
            ck_assert_int_eq(mn, lo);
            ck_assert_int_eq(mx + bpp, hi);
        }
    }
}

START_TEST(test_every_pixel_placed)
{
    static const uint32_t bpps[] = { 1, 2, 4, 8, 16 };
    for (unsigned i = 0; i < 5; i++)
        for (int tiled = 0; tiled < 2; tiled++) {
            check_surface(48, 32, bpps[i], tiled, 1);
            check_surface(37, 21, bpps[i], tiled, 4);
        }
    /* a tile's 256 pixels fill its 256 * bpp bytes exactly: the tile is contiguous */
    gfx_surface s = { .row_stride = gfx_tiled_row_stride(16, 8), .bpp = 8, .tiled = 1 };
    int64_t lo = INT64_MAX, hi = -1;
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++) {
            int64_t o = gfx_surface_offset(&s, x, y, 0);
            lo = o < lo ? o : lo;
            hi = o > hi ? o : hi;
        }
    ck_assert_int_eq(lo, 0);
    ck_assert_int_eq(hi, 255 * 8);
    /* a negative row stride (a flipped linear surface): rows go down in memory */
    gfx_surface neg = { .base = 0x10000, .row_stride = -64, .bpp = 4 };
    int64_t a, b;
    gfx_surface_span(&neg, 2, 3, 4, 5, 1, &a, &b);
    ck_assert_int_eq(a, -7 * 64 + 8);               /* (2, 7) */
    ck_assert_int_eq(b, -3 * 64 + 5 * 4 + 4);       /* (5, 3) + 4 bytes */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gfx_layout");
    TCase *t = tcase_create("layout");
    tcase_add_test(t, test_tile_index);
    tcase_add_test(t, test_known_addresses);
    tcase_add_test(t, test_every_pixel_placed);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
