/* The tiler (emu/gpu/gfx_tiler.c through gfx_tiler_bin) on one IDVS draw built with the generated
 * pack functions in a flat address space: a triangle crossing w = 0 is binned by the box of its
 * visible part and one wholly behind the eye is culled (before, each took every tile of the
 * frame: glmark2's terrain ran the tiler out of entries). */
#include <check.h>
#include <math.h>
#include <string.h>

#include "compute.h"
#include "gfx_polylist.h"
#include "gfx_tiler.h"
#include "mali_formats.h"

enum { BASE = 0x100000, SIZE = 1 << 20 };
enum { JOB = BASE, CTX = BASE + 0x400, HEAP = BASE + 0x600, POS = BASE + 0x800, HEAP_MEM = BASE + 0x10000 };
enum { W = 1024, H = 768 };         /* 64 x 48 tiles */
static uint8_t mem[SIZE];

static uint32_t rd(void *ctx, uint64_t va, void *buf, size_t n)
{
    (void)ctx;
    if (va < BASE || va + n > BASE + SIZE)
        return MALI_EXC_TRANSLATION_FAULT_LEVEL_1;
    memcpy(buf, mem + (va - BASE), n);
    return 0;
}

static uint32_t wr(void *ctx, uint64_t va, const void *buf, size_t n)
{
    (void)ctx;
    if (va < BASE || va + n > BASE + SIZE)
        return MALI_EXC_TRANSLATION_FAULT_LEVEL_1;
    memcpy(mem + (va - BASE), buf, n);
    return 0;
}

static uint8_t *at(uint64_t va) { return mem + (va - BASE); }

/* What the position shader writes for clip-space (x, y, w) on a W x H viewport (Mesa's
 * nir_lower_viewport_transform: window x, y, depth, 1/w). */
static void position(unsigned slot, double x, double y, double w)
{
    float p[4] = { (float)(x / w * W / 2 + W / 2), (float)(-y / w * H / 2 + H / 2), 0.5f, (float)(1 / w) };
    memcpy(at(POS + 16 * slot), p, 16);
}

/* One triangle (slots 0-2) binned as a fresh frame's draw: its counts and its draw record. */
static gpu_gfx_draw_counts bin(gfx_pl_draw *d)
{
    uint8_t jd[256] = { 0 };
    mali_primitive_pack(jd + MALI_INDEXED_VERTEX_JOB_SECTION_PRIMITIVE_OFFSET,
                        &(struct mali_primitive){ .draw_mode = MALI_DRAW_MODE_TRIANGLES, .index_count = 3 });
    uint64_t ctx = CTX;
    memcpy(jd + MALI_INDEXED_VERTEX_JOB_SECTION_TILER_OFFSET, &ctx, 8);
    mali_draw_pack(jd + MALI_INDEXED_VERTEX_JOB_SECTION_FRAGMENT_DRAW_OFFSET, &(struct mali_draw){ .position = POS });
    memset(at(CTX), 0, MALI_TILER_CONTEXT_LENGTH);
    mali_tiler_context_pack(at(CTX), &(struct mali_tiler_context){ .fb_width = W, .fb_height = H, .heap = HEAP });
    mali_tiler_heap_pack(at(HEAP), &(struct mali_tiler_heap){ .bottom = HEAP_MEM, .top = BASE + SIZE });
    gpu_compute_job job = { .job_va = JOB, .arch_major = 7, .mem = { .read = rd, .write = wr } };
    gpu_gfx_draw_counts counts = { 0 };
    uint64_t fva = 0;
    char err[160] = "";
    uint32_t code = gfx_tiler_bin(&job, jd, 3, 1, &fva, err, sizeof err, &counts);
    ck_assert_msg(code == 0, "tiler: %#x %s", code, err);
    memcpy(d, at(HEAP_MEM), sizeof *d);
    ck_assert_uint_eq(d->magic, GFX_PL_DRAW_MAGIC);
    return counts;
}

START_TEST(test_crossing_w0)
{
    gfx_pl_draw d;
    /* in front near the top-left corner (window (25.6, 19.2) and (51.2, 19.2)), the third vertex
     * behind the eye up and to the left: the visible part runs off the frame's top-left corner,
     * within the first tiles */
    position(0, -0.95, 0.95, 1);
    position(1, -0.90, 0.95, 1);
    position(2, -5, 5, -1);
    gpu_gfx_draw_counts c = bin(&d);
    ck_assert(c.prims_in == 1 && c.culled == 0 && c.clipped == 1);
    ck_assert_uint_eq(d.nprims, 1);
    ck_assert_msg(d.tx0 == 0 && d.ty0 == 0 && d.tx1 <= 3 && d.ty1 <= 1, "tile box %u,%u .. %u,%u", d.tx0, d.ty0, d.tx1,
                  d.ty1);
    /* wholly behind the eye: culled, no tile */
    position(0, -0.5, 0.5, -1);
    position(1, 0.5, 0.5, -2);
    position(2, 0, -0.5, -1.5);
    c = bin(&d);
    ck_assert(c.prims_in == 1 && c.culled == 1 && c.clipped == 0);
    ck_assert(d.nprims == 0 && d.tx0 > d.tx1);
    /* crossing w = 0 with its visible part off the frame's left edge: culled */
    position(0, -3, 0, 1);
    position(1, -3, 0.5, 1);
    position(2, -3, 0, -1);
    c = bin(&d);
    ck_assert(c.prims_in == 1 && c.culled == 1);
    ck_assert_uint_eq(d.nprims, 0);
    /* in front of the eye: binned by its own box, as before */
    position(0, -1, -1, 1);
    position(1, 1, -1, 1);
    position(2, -1, 1, 1);
    c = bin(&d);
    ck_assert(c.prims_in == 1 && c.culled == 0 && c.clipped == 0 && d.nprims == 1);
    ck_assert(d.tx0 == 0 && d.ty0 == 0 && d.tx1 == W / 16 - 1 && d.ty1 == H / 16 - 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gfx_tiler");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_crossing_w0);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
