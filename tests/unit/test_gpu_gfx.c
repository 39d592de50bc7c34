/* The graphics front ends on a simulated address space: FRAGMENT jobs whose frame has no draw
 * clear their render targets and depth buffer within the framebuffer's bounds, linear and
 * 16x16 U-interleaved (Mesa's pan_tiling.c layout), on v6 and v7; hostile descriptors fault. */
#include <check.h>
#include <stdio.h>

#include "compute.h"
#include "gpu_flat_mem.h"
#include "mali_formats.h"
#include "gfx_tiler.h"

static gpu_compute *eng;

static void setup(void)
{
    flat_reset();
    eng = gpu_compute_new(2);
    ck_assert_ptr_nonnull(eng);
}

static void teardown(void)
{
    gpu_compute_free(eng);
}

typedef struct {
    unsigned w, h, bound[4];
    unsigned block;                 /* raw writeback block-format number for the arch */
    uint64_t rt, zs;                /* surfaces (0: none) */
    uint32_t rt_stride, zs_stride;
    uint32_t clear;
    float zclear;
} frame;

/* A fragment job over tiles [0, (w-1)/16] x [0, (h-1)/16]; returns its VA */
static uint64_t fragment_job(const frame *fr, unsigned arch)
{
    uint64_t fbd = alloc(128 + 64 + 64, 64);
    struct mali_framebuffer_parameters p = {
        .width = fr->w, .height = fr->h, .bound_min_x = fr->bound[0], .bound_min_y = fr->bound[1],
        .bound_max_x = fr->bound[2], .bound_max_y = fr->bound[3], .sample_count = 1, .render_target_count = 1,
        .z_write_enable = fr->zs != 0, .has_zs_crc_extension = true, .z_clear = fr->zclear,
        .effective_tile_size = 256, .z_internal_format = MALI_Z_INTERNAL_FORMAT_D24,
    };
    mali_framebuffer_parameters_pack(host(fbd, 64), &p);
    struct mali_zs_crc_extension x = { .zs_write_format = MALI_ZS_FORMAT_D24S8, .zs_block_format = fr->block,
                                       .zs_writeback_base = fr->zs, .zs_writeback_row_stride = fr->zs_stride };
    mali_zs_crc_extension_pack(host(fbd + 128, 64), &x, arch);
    struct mali_render_target rt = {
        .internal_format = MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A8, .write_enable = true,
        .writeback_format = MALI_COLOR_FORMAT_R8G8B8A8, .writeback_block_format = fr->block,
        .swizzle = 0 | 1 << 3 | 2 << 6 | 3 << 9, .rgb_base = fr->rt, .rgb_row_stride = fr->rt_stride,
        .clear_color_0 = fr->clear,
    };
    mali_render_target_pack(host(fbd + 192, 64), &rt, arch);
    uint64_t job = alloc(64, 64);
    struct mali_job_header hd = { .is_64b = true, .type = MALI_JOB_TYPE_FRAGMENT, .index = 1 };
    mali_job_header_pack(host(job, 32), &hd);
    struct mali_fragment_job_payload pl = { .bound_max_x = (fr->w - 1) / 16, .bound_max_y = (fr->h - 1) / 16,
                                            .framebuffer = fbd | 1 | 2 };     /* multi-target, extension, 1 RT */
    mali_fragment_job_payload_pack(host(job + 32, 32), &pl);
    return job;
}

static uint32_t run(uint64_t job, unsigned arch, uint64_t *fva)
{
    gpu_compute_job j = { .job_va = job, .type = MALI_JOB_TYPE_FRAGMENT, .arch_major = arch, .core_mask = 0xf,
                          .mem = { .read = flat_read, .write = flat_write, .fetch = flat_read } };
    return gpu_compute_run(eng, &j, fva);
}

/* U-interleaved offset of pixel (x, y) in a surface of tile rows `row` bytes apart, bpp bytes */
static uint64_t u_offset(unsigned x, unsigned y, uint32_t row, unsigned bpp)
{
    unsigned i = 0;
    for (unsigned b = 0; b < 4; b++) {
        unsigned xb = x >> b & 1, yb = y >> b & 1;
        i |= (xb ^ yb) << (2 * b) | yb << (2 * b + 1);
    }
    return (uint64_t)(y / 16) * row + ((uint64_t)(x / 16) * 256 + i) * bpp;
}

static void check_clear(unsigned arch, bool tiled)
{
    frame fr = { .w = 40, .h = 20, .bound = { 3, 2, 37, 18 }, .clear = 0x11223344, .zclear = 0.5f };
    fr.block = tiled ? (arch >= 7 ? MALI_BLOCK_FORMAT_V7_TILED_U_INTERLEAVED : MALI_BLOCK_FORMAT_TILED_U_INTERLEAVED)
                     : (arch >= 7 ? MALI_BLOCK_FORMAT_V7_LINEAR : MALI_BLOCK_FORMAT_LINEAR);
    unsigned tw = 3, th = 2;                               /* tiles covering 40 x 20 */
    fr.rt_stride = tiled ? tw * 256 * 4 : 40 * 4;
    fr.zs_stride = tiled ? tw * 256 * 4 : 40 * 4;
    size_t bytes = tiled ? (size_t)tw * th * 256 * 4 : 40 * 20 * 4;
    fr.rt = alloc(bytes, 64);
    fr.zs = alloc(bytes, 64);
    memset(host(fr.rt, bytes), 0xee, bytes);
    memset(host(fr.zs, bytes), 0xee, bytes);
    uint64_t fva = 0;
    ck_assert_uint_eq(run(fragment_job(&fr, arch), arch, &fva), MALI_EXC_DONE);
    for (unsigned y = 0; y < 20; y++)
        for (unsigned x = 0; x < 40; x++) {
            uint64_t off = tiled ? u_offset(x, y, fr.rt_stride, 4) : (uint64_t)y * fr.rt_stride + x * 4;
            uint32_t c, z;
            memcpy(&c, host(fr.rt + off, 4), 4);
            memcpy(&z, host(fr.zs + off, 4), 4);
            bool in = x >= 3 && x <= 37 && y >= 2 && y <= 18;
            ck_assert_msg(c == (in ? 0x11223344u : 0xeeeeeeeeu), "colour (%u,%u) = %#x", x, y, c);
            ck_assert_msg(z == (in ? 0x00800000u : 0xeeeeeeeeu), "depth (%u,%u) = %#x", x, y, z);
        }
}

/* Instance Size as Mesa packs it (a padded count: panfrost_padded_vertex_count's values, 2^n and
 * 3, 5, 7 x 2^n) is the slot distance between instances the vertex and tiler front ends use;
 * a single instance has none. */
START_TEST(instance_size)
{
    static const unsigned sizes[] = { 1, 2, 4, 12, 20, 28, 64, 96, 160, 224, 1u << 12, 7u << 10 };
    for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        unsigned n = sizes[i], shift = (unsigned)__builtin_ctz(n), odd = n >> shift;
        uint8_t packed[MALI_DRAW_LENGTH];
        struct mali_draw d;
        memset(&d, 0, sizeof(d));
        d.instance_size = (odd / 2) << 5 | shift;
        mali_draw_pack(packed, &d);
        mali_draw_unpack(packed, &d);
        ck_assert_uint_eq(gfx_instance_size(&d, 2), n);
        ck_assert_uint_eq(gfx_instance_size(&d, 1), 1);
    }
}
END_TEST

START_TEST(clear_linear_v6) { check_clear(6, false); }
END_TEST
START_TEST(clear_linear_v7) { check_clear(7, false); }
END_TEST
START_TEST(clear_tiled_v6) { check_clear(6, true); }
END_TEST
START_TEST(clear_tiled_v7) { check_clear(7, true); }
END_TEST

/* A framebuffer pointer whose tag disagrees with its descriptor, a surface in unmapped memory, a
 * heap-less tiler state: faults, never a host crash */
START_TEST(hostile_frames)
{
    frame fr = { .w = 32, .h = 32, .bound = { 0, 0, 31, 31 }, .block = MALI_BLOCK_FORMAT_V7_LINEAR,
                 .rt_stride = 128 };
    fr.rt = alloc(32 * 128, 64);
    uint64_t job = fragment_job(&fr, 7), fva = 0;
    /* 3 render targets in the tag, 1 in the descriptor */
    uint64_t fbp;
    memcpy(&fbp, host(job + 40, 8), 8);
    w64(job + 40, fbp | 2 << 2);
    w32(fr.rt, 0x5a5a5a5a);                     /* (no write happens: the job faults first) */
    ck_assert_uint_eq(run(job, 7, &fva), MALI_EXC_JOB_CONFIG_FAULT);
    ck_assert_uint_eq(*(uint32_t *)host(fr.rt, 4), 0x5a5a5a5a);
    w64(job + 40, fbp);
    /* the render target's surface unmapped */
    mapped[(fr.rt - VA_BASE) / 4096] = 0;
    ck_assert_uint_eq(run(job, 7, &fva), FAULT_CODE);
    ck_assert_uint_eq(fva & ~4095ull, fr.rt & ~4095ull);
}
END_TEST

/* A polygon list the guest damaged (the heap is guest memory): a record without its magic, a
 * bin entry past the draw's primitives, a draw count beyond the list: faults, never a crash */
START_TEST(hostile_polygon_list)
{
    frame fr = { .w = 32, .h = 32, .bound = { 0, 0, 31, 31 }, .block = MALI_BLOCK_FORMAT_V7_LINEAR,
                 .rt_stride = 128 };
    fr.rt = alloc(32 * 128, 64);
    uint64_t job = fragment_job(&fr, 7), fva = 0;
    uint64_t fbp;
    memcpy(&fbp, host(job + 40, 8), 8);
    uint64_t fbd = fbp & ~63ull;
    uint64_t tctx = alloc(192, 64), rec = alloc(256, 64);
    w64(fbd + 56, tctx);                          /* Framebuffer Parameters' Tiler (word 14) */
    /* state: magic, 1 draw, first = last = rec */
    w32(tctx + 128, 0x5453424d);
    w32(tctx + 132, 1);
    w64(tctx + 144, rec);
    w64(tctx + 152, rec);
    ck_assert_uint_eq(run(job, 7, &fva), MALI_EXC_DATA_INVALID_FAULT);   /* no record magic */
    /* a draw record (gfx_polylist.h): 1 primitive over tile 0,0, arrays after it */
    uint64_t prims = rec + 80, bins = rec + 112, entries = rec + 120;
    w32(rec, 0x5244424d);
    w32(rec + 4, 1);
    memcpy(host(rec + 24, 8), (uint16_t[4]){ 0, 0, 0, 0 }, 8);
    w64(rec + 48, prims);
    w64(rec + 56, bins);
    w64(rec + 64, entries);
    w32(bins, 0);
    w32(bins + 4, 1);
    w32(entries, 7);                               /* primitive 7 of 1 */
    ck_assert_uint_eq(run(job, 7, &fva), MALI_EXC_DATA_INVALID_FAULT);
    w32(tctx + 132, 1000000000);                   /* more draws than any list holds */
    ck_assert_uint_eq(run(job, 7, &fva), MALI_EXC_DATA_INVALID_FAULT);
}
END_TEST

/* The hardware's sample patterns (Mesa's pan_samples.c), sixteenths of a pixel from the centre */
static const int pat4[4][2] = { { -2, -6 }, { 6, -2 }, { -6, 2 }, { 2, 6 } };
static const int pat8[8][2] = { { 1, -3 }, { -1, 3 }, { 5, 1 }, { -3, -5 }, { -5, 5 }, { -7, -1 }, { 3, 7 }, { 7, -7 } };
static const int pat16[16][2] = { { 1, 1 }, { -1, -3 }, { -3, 2 }, { 4, -1 }, { -5, -2 }, { 2, 5 }, { 5, 3 }, { 3, -5 },
                                  { -2, 6 }, { 0, -7 }, { -4, -6 }, { -6, 4 }, { -8, 0 }, { 7, -4 }, { 6, 7 }, { -7, -8 } };

/* A multisampled frame end to end (v7): one depth-only triangle x + y < 15.7 (window
 * coordinates, depth 0.25) in a polygon list over a 16x16 frame of n samples whose D32 depth
 * buffer is Layered; every sample plane must hold 0.25 exactly where the sample's position
 * (the pattern panfrost selects for n) lies inside, the 1.0 clear elsewhere.  No sample sum
 * x + y lands on 15.7 after snapping, so the fill rule never decides. */
START_TEST(msaa_depth_layered)
{
    static const unsigned counts[3] = { 4, 8, 16 }, patterns[3] = { MALI_SAMPLE_PATTERN_ROTATED_4X_GRID,
                                                                     MALI_SAMPLE_PATTERN_D3D_8X_GRID,
                                                                     MALI_SAMPLE_PATTERN_D3D_16X_GRID };
    unsigned n = counts[_i];
    const int(*pat)[2] = n == 4 ? pat4 : n == 8 ? pat8 : pat16;
    uint64_t zs = alloc(1024 * n, 64), pos = alloc(48, 64), rsd = alloc(MALI_RENDERER_STATE_LENGTH + 16, 64);
    uint64_t draw_job = alloc(128 + MALI_DRAW_LENGTH, 64), tctx = alloc(192, 64), rec = alloc(256, 64);
    memset(host(zs, 1024 * n), 0xee, 1024 * n);
    float p[12] = { 0, 0, 0.25f, 1, 15.7f, 0, 0.25f, 1, 0, 15.7f, 0.25f, 1 };
    memcpy(host(pos, sizeof(p)), p, sizeof(p));
    struct mali_renderer_state rs = { .depth_function = MALI_FUNC_ALWAYS, .depth_write_mask = true,
                                      .multisample_enable = true, .sample_mask = 0xffff };
    mali_renderer_state_pack(host(rsd, MALI_RENDERER_STATE_LENGTH), &rs);
    struct mali_draw dd = { .state = rsd, .position = pos };
    mali_draw_pack(host(draw_job + 128, MALI_DRAW_LENGTH), &dd);
    /* the polygon list (gfx_polylist.h): one draw, one triangle binned to tile 0,0 */
    w32(tctx + 128, 0x5453424d);
    w32(tctx + 132, 1);
    w64(tctx + 144, rec);
    w64(tctx + 152, rec);
    uint64_t prims = rec + 80, bins = rec + 112, entries = rec + 120;
    w32(rec, 0x5244424d);
    w32(rec + 4, 1);
    w64(rec + 16, draw_job);
    memcpy(host(rec + 24, 8), (uint16_t[4]){ 0, 0, 0, 0 }, 8);
    w64(rec + 48, prims);
    w64(rec + 56, bins);
    w64(rec + 64, entries);
    memcpy(host(prims, 24), (uint32_t[6]){ 0, 1, 2, 0, 0, 0 }, 24);
    w32(bins, 0);
    w32(bins + 4, 1);
    w32(entries, 0);
    /* the framebuffer: no colour write, Layered D32 depth planes 1024 bytes apart */
    uint64_t fbd = alloc(128 + 64 + 64, 64);
    struct mali_framebuffer_parameters fp = {
        .width = 16, .height = 16, .bound_max_x = 15, .bound_max_y = 15, .sample_count = n,
        .sample_pattern = patterns[_i], .render_target_count = 1, .z_write_enable = true,
        .has_zs_crc_extension = true, .z_clear = 1.0f, .effective_tile_size = 256,
        .z_internal_format = MALI_Z_INTERNAL_FORMAT_D32, .tiler = tctx,
    };
    mali_framebuffer_parameters_pack(host(fbd, 64), &fp);
    struct mali_zs_crc_extension x = { .zs_write_format = MALI_ZS_FORMAT_D32, .zs_block_format = MALI_BLOCK_FORMAT_V7_LINEAR,
                                       .zs_msaa = MALI_MSAA_LAYERED, .zs_writeback_base = zs,
                                       .zs_writeback_row_stride = 64, .zs_writeback_surface_stride = 1024 };
    mali_zs_crc_extension_pack(host(fbd + 128, 64), &x, 7);
    struct mali_render_target rt = { .internal_format = MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A8,
                                     .writeback_format = MALI_COLOR_FORMAT_R8G8B8A8,
                                     .writeback_block_format = MALI_BLOCK_FORMAT_V7_LINEAR,
                                     .writeback_msaa = MALI_MSAA_LAYERED, .swizzle = 0 | 1 << 3 | 2 << 6 | 3 << 9 };
    mali_render_target_pack(host(fbd + 192, 64), &rt, 7);
    uint64_t job = alloc(64, 64);
    struct mali_job_header hd = { .is_64b = true, .type = MALI_JOB_TYPE_FRAGMENT, .index = 1 };
    mali_job_header_pack(host(job, 32), &hd);
    struct mali_fragment_job_payload pl = { .framebuffer = fbd | 1 | 2 };
    mali_fragment_job_payload_pack(host(job + 32, 32), &pl);
    uint64_t fva = 0;
    ck_assert_uint_eq(run(job, 7, &fva), MALI_EXC_DONE);
    unsigned inside = 0;
    for (unsigned sm = 0; sm < n; sm++)
        for (unsigned y = 0; y < 16; y++)
            for (unsigned xx = 0; xx < 16; xx++) {
                double sx = xx + 0.5 + pat[sm][0] / 16.0, sy = y + 0.5 + pat[sm][1] / 16.0;
                bool in = sx + sy < 4019 / 256.0;          /* 15.7 snapped to 1/256 */
                float z;
                memcpy(&z, host(zs + sm * 1024 + y * 64 + xx * 4, 4), 4);
                ck_assert_msg(z == (in ? 0.25f : 1.0f), "%ux sample %u pixel %u,%u: depth %g", n, sm, xx, y, z);
                inside += in;
            }
    ck_assert_uint_gt(inside, 100 * n);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("gpu_gfx");
    TCase *t = tcase_create("fragment");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, instance_size);
    tcase_add_test(t, clear_linear_v6);
    tcase_add_test(t, clear_linear_v7);
    tcase_add_test(t, clear_tiled_v6);
    tcase_add_test(t, clear_tiled_v7);
    tcase_add_test(t, hostile_frames);
    tcase_add_test(t, hostile_polygon_list);
    tcase_add_loop_test(t, msaa_depth_layered, 0, 3);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
