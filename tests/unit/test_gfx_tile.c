/* Tile write-back of multisampled tiles (gfx_tile.h): a render target's MSAA mode decides what
 * reaches memory, as panfrost sets it (mali_sampling_mode): Layered writes sample s at
 * s * surface stride, Average writes the mean of the samples (the resolve), Single sample 0;
 * depth follows its own mode.  Every sample of the tile holds a different value, so a plane
 * holding the wrong sample, or a wrong mean, shows. */
#include <check.h>
#include <string.h>

#include "gfx_tile.h"
#include "mali_formats.h"

#define MEM_BASE 0x100000ull
#define MEM_SIZE (1u << 20)
static uint8_t mem[MEM_SIZE];

static uint32_t mread(void *ctx, uint64_t va, void *buf, size_t len)
{
    (void)ctx;
    if (va < MEM_BASE || va - MEM_BASE + len > MEM_SIZE)
        return MALI_EXC_DATA_INVALID_FAULT;
    memcpy(buf, mem + (va - MEM_BASE), len);
    return 0;
}

static uint32_t mwrite(void *ctx, uint64_t va, const void *buf, size_t len)
{
    (void)ctx;
    if (va < MEM_BASE || va - MEM_BASE + len > MEM_SIZE)
        return MALI_EXC_DATA_INVALID_FAULT;
    memcpy(mem + (va - MEM_BASE), buf, len);
    return 0;
}

static const gpu_mem_if mif = { .read = mread, .write = mwrite, .fetch = mread };

/* A 16x16 framebuffer, one linear RGBA8 target (16 * 4 bytes a row, planes 4 KiB apart) and a
 * linear D32 depth buffer after it */
static void make_fb(gfx_fb *fb, unsigned samples, unsigned msaa, unsigned zs_msaa)
{
    memset(fb, 0, sizeof(*fb));
    fb->width = fb->height = 16;
    fb->bound[2] = fb->bound[3] = 15;
    fb->samples = samples;
    fb->nrts = 1;
    gfx_rt *rt = &fb->rt[0];
    rt->write = true;
    rt->internal_format = MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A8;
    rt->writeback_format = MALI_COLOR_FORMAT_R8G8B8A8;
    rt->block_format = GFX_BLOCK_LINEAR;
    rt->msaa = msaa;
    for (unsigned c = 0; c < 4; c++)
        rt->swizzle[c] = (uint8_t)c;
    rt->base = MEM_BASE;
    rt->row_stride = 64;
    rt->surface_stride = 4096;
    fb->has_ext = true;
    fb->z_write = true;
    fb->zs_format = MALI_ZS_FORMAT_D32;
    fb->zs_block = GFX_BLOCK_LINEAR;
    fb->zs_msaa = zs_msaa;
    fb->zs_base = MEM_BASE + 0x40000;
    fb->zs_row_stride = 64;
    fb->zs_surface_stride = 4096;
}

/* Sample s of pixel i: red 16 s + 1, green i, blue 255 - 8 s, alpha 255 (the tile buffer's
 * R8G8B8A8 word: red in the low byte, gfx_pixel.h); depth s / 16 + i / 4096 */
static void fill(gfx_tile *t, const gfx_fb *fb)
{
    ck_assert_int_eq(gfx_tile_reserve(t, fb), 0);
    gfx_tile_clear(t, fb, 0, 0);
    for (unsigned i = 0; i < GFX_TILE_PIXELS; i++)
        for (unsigned s = 0; s < fb->samples; s++) {
            unsigned k = i * fb->samples + s;
            t->color[0][k][0] = (16 * s + 1) | (i & 255) << 8 | (255 - 8 * s) << 16 | 255u << 24;
            t->z[k] = (float)s / 16 + (float)i / 4096;
        }
}

static uint32_t px(unsigned plane, unsigned i)
{
    uint32_t v;
    memcpy(&v, mem + plane * 4096 + i * 4, 4);
    return v;
}

static float zpx(unsigned plane, unsigned i)
{
    float v;
    memcpy(&v, mem + 0x40000 + plane * 4096 + i * 4, 4);
    return v;
}

START_TEST(test_layered)
{
    static const unsigned counts[3] = { 4, 8, 16 };
    unsigned n = counts[_i];
    gfx_fb fb;
    gfx_tile t = { 0 };
    make_fb(&fb, n, MALI_MSAA_LAYERED, MALI_MSAA_LAYERED);
    memset(mem, 0xee, sizeof(mem));
    fill(&t, &fb);
    uint64_t fva = 0;
    char err[120];
    ck_assert_uint_eq(gfx_tile_write_back(&t, &fb, &mif, &fva, err, sizeof(err)), 0);
    for (unsigned s = 0; s < n; s++)
        for (unsigned i = 0; i < GFX_TILE_PIXELS; i++) {
            ck_assert_msg(px(s, i) == t.color[0][i * n + s][0], "%ux plane %u pixel %u: %#x", n, s, i, px(s, i));
            ck_assert_msg(zpx(s, i) == t.z[i * n + s], "%ux depth plane %u pixel %u: %g", n, s, i, zpx(s, i));
        }
    ck_assert_uint_eq(px(n, 0), 0xeeeeeeeeu);            /* nothing past the last plane */
    gfx_tile_free(&t);
}
END_TEST

START_TEST(test_average)
{
    static const unsigned counts[3] = { 4, 8, 16 };
    unsigned n = counts[_i];
    gfx_fb fb;
    gfx_tile t = { 0 };
    make_fb(&fb, n, MALI_MSAA_AVERAGE, MALI_MSAA_SINGLE);
    memset(mem, 0xee, sizeof(mem));
    fill(&t, &fb);
    uint64_t fva = 0;
    char err[120];
    ck_assert_uint_eq(gfx_tile_write_back(&t, &fb, &mif, &fva, err, sizeof(err)), 0);
    /* the mean of 16 s + 1 over s < n is 8 (n - 1) + 1, of 255 - 8 s is 255 - 4 (n - 1) */
    for (unsigned i = 0; i < GFX_TILE_PIXELS; i++) {
        uint32_t want = (8 * (n - 1) + 1) | (i & 255) << 8 | (255 - 4 * (n - 1)) << 16 | 255u << 24;
        ck_assert_msg(px(0, i) == want, "%ux pixel %u: %#x, want %#x", n, i, px(0, i), want);
        ck_assert_msg(zpx(0, i) == t.z[i * n], "%ux depth pixel %u: %g", n, i, zpx(0, i));
    }
    ck_assert_uint_eq(px(1, 0), 0xeeeeeeeeu);            /* one plane only */
    ck_assert_uint_eq(*(uint32_t *)(mem + 0x40000 + 4096), 0xeeeeeeeeu);
    gfx_tile_free(&t);
}
END_TEST

START_TEST(test_unknown_mode_faults)
{
    gfx_fb fb;
    gfx_tile t = { 0 };
    make_fb(&fb, 4, MALI_MSAA_MULTIPLE, MALI_MSAA_LAYERED);
    fill(&t, &fb);
    uint64_t fva = 0;
    char err[120] = "";
    ck_assert_uint_eq(gfx_tile_write_back(&t, &fb, &mif, &fva, err, sizeof(err)), MALI_EXC_DATA_INVALID_FAULT);
    ck_assert_ptr_nonnull(strstr(err, "MSAA mode"));
    gfx_tile_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gfx_tile");
    TCase *tc = tcase_create("core");
    tcase_add_loop_test(tc, test_layered, 0, 3);
    tcase_add_loop_test(tc, test_average, 0, 3);
    tcase_add_test(tc, test_unknown_mode_faults);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
