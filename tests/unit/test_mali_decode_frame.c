/* The job-chain printer (emu/decode/job_print.c over emu/gpu/job_walk.c) on a whole GLES frame
 * packed with the generated pack functions, as Mesa lays it out: an IDVS job (primitive, primitive
 * size, tiler context and heap, vertex draw with position and varying shaders, fragment draw with
 * its blend descriptors and a blend shader, viewport, varyings and their buffers) and a fragment
 * job (framebuffer parameters, ZS/CRC extension, render targets, a pre-frame shader's draw, the
 * tiler context), on v6 and v7.  Then hostile frames: pointer loops, huge counts and garbage end
 * without a hang or a crash. */
#include <check.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../emu/decode/job_print.h"
#include "mali_formats.h"

#define BASE 0x100000ull
#define SIZE 0x10000u

typedef struct {
    uint8_t mem[SIZE];
    uint64_t top;
} gpu_mem;

static int mem_read(void *ctx, uint64_t va, void *buf, size_t len)
{
    gpu_mem *m = ctx;
    if (va < BASE || va - BASE > SIZE || len > SIZE - (va - BASE))
        return -1;
    memcpy(buf, m->mem + (va - BASE), len);
    return 0;
}

static uint64_t alloc(gpu_mem *m, uint64_t size, uint64_t align)
{
    uint64_t va = (BASE + m->top + align - 1) & ~(align - 1);
    m->top = va + size - BASE;
    ck_assert_uint_le(m->top, SIZE);
    return va;
}

static uint8_t *at(gpu_mem *m, uint64_t va) { return m->mem + (va - BASE); }

/* A shader: one 16-byte nonzero block, then the zero block that ends it. */
static uint64_t shader(gpu_mem *m)
{
    uint64_t va = alloc(m, 64, 128);
    memset(at(m, va), 0x5a, 16);
    return va;
}

typedef struct {
    uint64_t idvs, fragment, blend_shader;
} frame;

static uint64_t tiler_context(gpu_mem *m)
{
    uint64_t heap = alloc(m, MALI_TILER_HEAP_LENGTH, 64), ctx = alloc(m, MALI_TILER_CONTEXT_LENGTH, 64);
    mali_tiler_heap_pack(at(m, heap), &(struct mali_tiler_heap){ .size = 0x8000000, .base = 0x40000000,
                                                                  .bottom = 0x40000000, .top = 0x48000000 });
    mali_tiler_context_pack(at(m, ctx), &(struct mali_tiler_context){ .polygon_list = 0x40000000,
                                                                       .hierarchy_mask = 0x28, .fb_width = 800,
                                                                       .fb_height = 600, .heap = heap });
    return ctx;
}

/* A fragment renderer state with one blend descriptor per render target (Mesa's aggregate):
 * RT 0 fixed-function alpha blending, RT 1 a blend shader. */
static uint64_t fragment_rsd(gpu_mem *m, frame *fr, unsigned rts)
{
    uint64_t rsd = alloc(m, MALI_RENDERER_STATE_LENGTH + MALI_BLEND_LENGTH * 4, 64), fs = shader(m);
    mali_renderer_state_pack(at(m, rsd), &(struct mali_renderer_state){
        .shader = fs, .varying_count = 1, .depth_source = MALI_DEPTH_SOURCE_FIXED_FUNCTION,
        .pixel_kill_operation = MALI_PIXEL_KILL_WEAK_EARLY, .sample_mask = 0xffff,
        .depth_function = MALI_FUNC_LEQUAL, .depth_write_mask = true, .stencil_enable = true,
        .stencil_front_compare_function = MALI_FUNC_ALWAYS, .stencil_front_depth_pass = MALI_STENCIL_OP_REPLACE,
        .stencil_front_reference_value = 0x42, .stencil_back_compare_function = MALI_FUNC_ALWAYS,
        .preload_fragment_fragment_position = true, .uniform_count = 0 });
    struct mali_blend b0 = { .enable = true, .equation_rgb_a = MALI_BLEND_OPERAND_A_DEST,
                             .equation_rgb_b = MALI_BLEND_OPERAND_B_SRC_MINUS_DEST,
                             .equation_rgb_c = MALI_BLEND_OPERAND_C_SRC_ALPHA, .equation_alpha_a = MALI_BLEND_OPERAND_A_SRC,
                             .equation_alpha_b = MALI_BLEND_OPERAND_B_SRC, .equation_alpha_c = MALI_BLEND_OPERAND_C_ZERO,
                             .equation_color_mask = 0xf, .internal_mode = MALI_BLEND_MODE_FIXED_FUNCTION,
                             .internal_fixed_function_num_comps = 4, .internal_fixed_function_rt = 0,
                             .internal_fixed_function_conversion_memory_format = 187u << 12 | 0x688u,
                             .internal_fixed_function_conversion_register_format = MALI_REGISTER_FILE_FORMAT_F16 };
    mali_blend_pack(at(m, rsd + MALI_RENDERER_STATE_LENGTH), &b0);
    if (rts > 1)
        mali_blend_pack(at(m, rsd + MALI_RENDERER_STATE_LENGTH + MALI_BLEND_LENGTH),
                        &(struct mali_blend){ .enable = true, .internal_mode = MALI_BLEND_MODE_SHADER,
                                              .internal_shader_pc = (uint32_t)fr->blend_shader,
                                              .equation_color_mask = 0xf });
    /* what follows the last one is not a blend descriptor (garbage the walker must not take) */
    memset(at(m, rsd + MALI_RENDERER_STATE_LENGTH + MALI_BLEND_LENGTH * rts), 0xa5, MALI_BLEND_LENGTH);
    return rsd;
}

static void build_frame(gpu_mem *m, frame *fr, unsigned arch)
{
    memset(m, 0, sizeof *m);
    fr->blend_shader = shader(m);
    uint64_t tiler = tiler_context(m);

    /* varyings: one vec4 in a buffer of 3 vertices */
    uint64_t vbuf = alloc(m, 64, 64), vdesc = alloc(m, MALI_ATTRIBUTE_LENGTH, 8);
    memcpy(at(m, vbuf), (uint16_t[]){ 2, 0, 1 }, 6);        /* also the index buffer */
    uint64_t vbufs = alloc(m, MALI_ATTRIBUTE_BUFFER_LENGTH, 32);
    mali_attribute_pack(at(m, vdesc), &(struct mali_attribute){ .buffer_index = 0, .offset_enable = true,
                                                                 .format = 223u << 12 | 0x688u });
    mali_attribute_buffer_pack(at(m, vbufs), &(struct mali_attribute_buffer){ .type = MALI_ATTRIBUTE_TYPE_1D,
                                                                               .pointer = vbuf, .stride = 8, .size = 24 });
    uint64_t vp = alloc(m, MALI_VIEWPORT_LENGTH, 32);
    mali_viewport_pack(at(m, vp), &(struct mali_viewport){ .minimum_x = 0, .minimum_y = 0, .maximum_x = 800,
                                                           .maximum_y = 600, .minimum_z = 0, .maximum_z = 1,
                                                           .scissor_maximum_x = 799, .scissor_maximum_y = 599 });
    /* an instanced attribute with divisor 3: an NPOT buffer and its continuation record */
    uint64_t adesc = alloc(m, MALI_ATTRIBUTE_LENGTH, 8), abufs = alloc(m, 2 * MALI_ATTRIBUTE_BUFFER_LENGTH, 32);
    mali_attribute_pack(at(m, adesc), &(struct mali_attribute){ .offset_enable = true, .format = 175u << 12 });
    mali_attribute_buffer_pack(at(m, abufs), &(struct mali_attribute_buffer){
        .type = MALI_ATTRIBUTE_TYPE_1D_NPOT_DIVISOR, .pointer = vbuf, .stride = 8, .size = 64 });
    mali_attribute_buffer_continuation_npot_pack(at(m, abufs + MALI_ATTRIBUTE_BUFFER_LENGTH),
        &(struct mali_attribute_buffer_continuation_npot){ .type = MALI_ATTRIBUTE_TYPE_CONTINUATION,
                                                           .divisor_numerator = 0xaaaaaaabu, .divisor = 3 });
    uint64_t pos = shader(m), var = shader(m);
    uint64_t vrsd = alloc(m, MALI_RENDERER_STATE_LENGTH, 64);
    mali_renderer_state_pack(at(m, vrsd), &(struct mali_renderer_state){
        .shader = pos, .attribute_count = 1, .varying_count = 1, .secondary_shader = var,
        .preload_vertex_vertex_id = true, .preload_vertex_instance_id = true,
        .shader_register_allocation = arch >= 7 ? MALI_REGISTER_ALLOCATION_32_PER_THREAD : 0 });
    uint64_t frsd = fragment_rsd(m, fr, 2);

    /* the IDVS job */
    fr->idvs = alloc(m, MALI_INDEXED_VERTEX_JOB_LENGTH, 64);
    uint8_t *j = at(m, fr->idvs);
    mali_job_header_pack(j, &(struct mali_job_header){ .is_64b = true, .type = MALI_JOB_TYPE_INDEXED_VERTEX,
                                                       .index = 1 });
    mali_invocation_pack(j + MALI_INDEXED_VERTEX_JOB_SECTION_INVOCATION_OFFSET,
                         &(struct mali_invocation){ .invocations = 2, .workgroups_z_shift = 2 });  /* 1 x 3 x 1 */
    mali_primitive_pack(j + MALI_INDEXED_VERTEX_JOB_SECTION_PRIMITIVE_OFFSET,
                        &(struct mali_primitive){ .draw_mode = MALI_DRAW_MODE_TRIANGLES,
                                                  .index_type = MALI_INDEX_TYPE_UINT16, .first_provoking_vertex = true,
                                                  .low_depth_cull = true, .high_depth_cull = true,
                                                  .secondary_shader = true, .index_count = 3, .indices = vbuf });
    mali_primitive_size_pack(j + MALI_INDEXED_VERTEX_JOB_SECTION_PRIMITIVE_SIZE_OFFSET,
                             &(struct mali_primitive_size){ .fixed_sized = 1.0f });
    mali_tiler_pointer_pack(j + MALI_INDEXED_VERTEX_JOB_SECTION_TILER_OFFSET, &(struct mali_tiler_pointer){ tiler });
    mali_draw_pack(j + MALI_INDEXED_VERTEX_JOB_SECTION_VERTEX_DRAW_OFFSET,
                   &(struct mali_draw){ .four_components_per_vertex = true, .draw_descriptor_is_64b = true,
                                        .state = vrsd, .varyings = vdesc, .varying_buffers = vbufs,
                                        .attributes = adesc, .attribute_buffers = abufs, .position = vbuf });
    mali_draw_pack(j + MALI_INDEXED_VERTEX_JOB_SECTION_FRAGMENT_DRAW_OFFSET,
                   &(struct mali_draw){ .four_components_per_vertex = true, .draw_descriptor_is_64b = true,
                                        .cull_back_face = true, .state = frsd, .varyings = vdesc,
                                        .varying_buffers = vbufs, .viewport = vp, .position = vbuf });

    /* the framebuffer: parameters, padding, ZS/CRC extension, two render targets */
    uint64_t fb = alloc(m, MALI_FRAMEBUFFER_LENGTH + MALI_ZS_CRC_EXTENSION_LENGTH + 2 * MALI_RENDER_TARGET_LENGTH, 64);
    uint64_t dcds = alloc(m, 3 * MALI_DRAW_LENGTH, 64), locations = alloc(m, 132, 64);
    for (unsigned i = 0; i < 66; i++)                    /* 33 centres, stored + 128; the first off */
        memcpy(at(m, locations + 2 * i), &(uint16_t){ i < 2 ? 128 + 64 : 128 }, 2);
    mali_framebuffer_parameters_pack(at(m, fb), &(struct mali_framebuffer_parameters){
        .pre_frame_0 = MALI_PRE_POST_FRAME_SHADER_MODE_ALWAYS, .frame_shader_dcds = dcds,
        .sample_locations = locations, .width = 800,
        .height = 600, .bound_max_x = 799, .bound_max_y = 599, .sample_count = 1, .effective_tile_size = 256,
        .render_target_count = 2, .color_buffer_allocation = 2048, .z_internal_format = MALI_Z_INTERNAL_FORMAT_D24,
        .z_write_enable = true, .s_write_enable = true, .has_zs_crc_extension = true, .z_clear = 1.0f,
        .tiler = tiler });
    mali_zs_crc_extension_pack(at(m, fb + MALI_FRAMEBUFFER_LENGTH), &(struct mali_zs_crc_extension){
        .zs_write_format = MALI_ZS_FORMAT_D24S8,
        .zs_block_format = arch >= 7 ? MALI_BLOCK_FORMAT_V7_TILED_U_INTERLEAVED : MALI_BLOCK_FORMAT_TILED_U_INTERLEAVED,
        .zs_writeback_base = 0x50000000, .zs_writeback_row_stride = 800 * 4 * 16 }, arch);
    for (unsigned i = 0; i < 2; i++)
        mali_render_target_pack(at(m, fb + MALI_FRAMEBUFFER_LENGTH + MALI_ZS_CRC_EXTENSION_LENGTH +
                                      MALI_RENDER_TARGET_LENGTH * i),
                                &(struct mali_render_target){
                                    .internal_buffer_offset = 1024 * i, .internal_format = MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A8,
                                    .write_enable = true, .writeback_format = MALI_COLOR_FORMAT_R8G8B8A8,
                                    .writeback_block_format = arch >= 7 ? MALI_BLOCK_FORMAT_V7_LINEAR : MALI_BLOCK_FORMAT_LINEAR,
                                    .swizzle = 0x688, .rgb_base = 0x60000000 + 0x200000ull * i,
                                    .rgb_row_stride = 3200, .clear_color_0 = 0xff336699u }, arch);
    /* the pre-frame shader (loads the previous contents) */
    uint64_t prsd = fragment_rsd(m, fr, 2);
    mali_draw_pack(at(m, dcds), &(struct mali_draw){ .four_components_per_vertex = true, .draw_descriptor_is_64b = true,
                                                     .state = prsd });

    fr->fragment = alloc(m, MALI_FRAGMENT_JOB_LENGTH, 64);
    j = at(m, fr->fragment);
    mali_job_header_pack(j, &(struct mali_job_header){ .is_64b = true, .type = MALI_JOB_TYPE_FRAGMENT, .index = 1 });
    mali_fragment_job_payload_pack(j + MALI_FRAGMENT_JOB_SECTION_PAYLOAD_OFFSET,
                                   &(struct mali_fragment_job_payload){ .bound_max_x = 49, .bound_max_y = 37,
                                                                        .framebuffer = fb | 1 | 2 | 1u << 2 });
}

static char *print_chain(gpu_mem *m, unsigned arch, uint64_t head, unsigned max_jobs, unsigned *jobs, int *problems)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    ck_assert_ptr_nonnull(f);
    *jobs = mali_print_chain(f, arch, head, max_jobs, mem_read, m, "not readable", problems);
    fclose(f);
    return text;
}

/* Text has line (a whole line, leading spaces included) exactly n times. */
static unsigned count_lines(const char *text, const char *line)
{
    unsigned n = 0;
    size_t l = strlen(line);
    for (const char *p = text; (p = strstr(p, line)); p += l)
        if ((p == text || p[-1] == '\n') && (p[l] == '\n' || p[l] == '\0'))
            n++;
    return n;
}

static unsigned count_prefix(const char *text, const char *prefix)
{
    unsigned n = 0;
    size_t l = strlen(prefix);
    for (const char *p = text; (p = strstr(p, prefix)); p += l)
        if (p == text || p[-1] == '\n')
            n++;
    return n;
}

static gpu_mem mem;

static void check_idvs(unsigned arch)
{
    frame fr;
    unsigned jobs;
    int problems = -1;
    build_frame(&mem, &fr, arch);
    char *t = print_chain(&mem, arch, fr.idvs, 8, &jobs, &problems);
    ck_assert_uint_eq(jobs, 1);
    if (problems)
        fputs(t, stderr);                                /* what was missing or reserved */
    ck_assert_int_eq(problems, 0);
    ck_assert_uint_eq(count_lines(t, "  type = indexed_vertex"), 1);
    ck_assert_uint_eq(count_lines(t, "    (local size 1 x 1 x 1, workgroups 1 x 3 x 1: 3 vertices x 1 instances)"), 1);
    ck_assert_uint_eq(count_lines(t, "    draw_mode = triangles"), 1);
    ck_assert_uint_eq(count_lines(t, "    index_type = uint16"), 1);
    ck_assert_uint_eq(count_lines(t, "    index_count = 3"), 1);
    ck_assert_uint_eq(count_prefix(t, "    indices @ "), 1);
    ck_assert_uint_eq(count_lines(t, "      0: 2 0 1"), 1);
    ck_assert_uint_eq(count_lines(t, "    fixed_sized = 1 (0x3f800000)"), 1);
    ck_assert_uint_eq(count_prefix(t, "  tiler pointer @ "), 1);
    ck_assert_uint_eq(count_prefix(t, "    tiler context @ "), 1);
    ck_assert_uint_eq(count_lines(t, "      fb_width = 800"), 1);
    ck_assert_uint_eq(count_prefix(t, "      tiler heap @ "), 1);
    ck_assert_uint_eq(count_lines(t, "        size = 134217728"), 1);
    ck_assert_uint_eq(count_prefix(t, "  vertex draw @ "), 1);
    ck_assert_uint_eq(count_prefix(t, "  fragment draw @ "), 1);
    ck_assert_uint_eq(count_prefix(t, "      varying shader @ "), 1);
    ck_assert_uint_eq(count_lines(t, "      preload_vertex_vertex_id = true"), 1);
    /* the fragment renderer state and exactly its two blend descriptors, the second's shader */
    ck_assert_uint_eq(count_lines(t, "      depth_function = lequal"), 1);
    ck_assert_uint_eq(count_lines(t, "      stencil_front_depth_pass = replace"), 1);
    ck_assert_uint_eq(count_lines(t, "      stencil_front_reference_value = 66"), 1);
    ck_assert_uint_eq(count_prefix(t, "    blend 0 @ "), 1);
    ck_assert_uint_eq(count_prefix(t, "    blend 1 @ "), 1);
    ck_assert_uint_eq(count_prefix(t, "    blend 2 @ "), 0);
    ck_assert_uint_eq(count_lines(t, "      equation_rgb_c = src_alpha"), 1);
    ck_assert_uint_eq(count_lines(t, "      internal_fixed_function_conversion_register_format = f16"), 1);
    char line[96];
    snprintf(line, sizeof line, "      internal_shader_pc = 0x%" PRIx64, fr.blend_shader);
    ck_assert_uint_eq(count_lines(t, line), 1);
    snprintf(line, sizeof line, "      blend shader @ 0x%" PRIx64 " ", fr.blend_shader);
    ck_assert_uint_eq(count_prefix(t, line), 1);
    /* viewport and scissor; varyings of both draws with their buffers */
    ck_assert_uint_eq(count_prefix(t, "    viewport @ "), 1);
    ck_assert_uint_eq(count_lines(t, "      maximum_x = 800 (0x44480000)"), 1);
    ck_assert_uint_eq(count_lines(t, "      scissor_maximum_y = 599"), 1);
    ck_assert_uint_eq(count_prefix(t, "    varying 0 @ "), 2);
    ck_assert_uint_eq(count_prefix(t, "      varying buffer 0 @ "), 2);
    ck_assert_ptr_nonnull(strstr(t, arch >= 7 ? "\n      format = 0x0df688 (rgba16f, component order 0x688)\n"
                                              : "\n      format = 0x0df688 (rgba16f, swizzle 0x688 rgba)\n"));
    ck_assert_uint_eq(count_lines(t, "        stride = 8"), 3);
    ck_assert_uint_eq(count_prefix(t, "      attribute buffer NPOT continuation 0 @ "), 1);
    ck_assert_uint_eq(count_lines(t, "        divisor_numerator = 2863311531"), 1);
    /* v7's register allocation shows on v7 only */
    ck_assert_uint_eq(count_lines(t, "      shader_register_allocation = 32_per_thread"), arch >= 7);
    free(t);
}

START_TEST(idvs_job_v6) { check_idvs(6); }
END_TEST
START_TEST(idvs_job_v7) { check_idvs(7); }
END_TEST

static void check_fragment(unsigned arch)
{
    frame fr;
    unsigned jobs;
    int problems = -1;
    build_frame(&mem, &fr, arch);
    char *t = print_chain(&mem, arch, fr.fragment, 8, &jobs, &problems);
    ck_assert_uint_eq(jobs, 1);
    if (problems)
        fputs(t, stderr);                                /* what was missing or reserved */
    ck_assert_int_eq(problems, 0);
    ck_assert_uint_eq(count_lines(t, "  type = fragment"), 1);
    ck_assert_ptr_nonnull(strstr(t, ": multi-target, ZS/CRC extension, 2 render targets; tiles 0..49 x 0..37)\n"));
    ck_assert_uint_eq(count_prefix(t, "    framebuffer @ "), 1);
    ck_assert_uint_eq(count_lines(t, "      width = 800"), 1);
    ck_assert_uint_eq(count_lines(t, "      effective_tile_size = 256"), 1);
    ck_assert_uint_eq(count_lines(t, "      render_target_count = 2"), 1);
    ck_assert_uint_eq(count_lines(t, "      pre_frame_0 = always"), 1);
    ck_assert_uint_eq(count_lines(t, "      z_clear = 1 (0x3f800000)"), 1);
    ck_assert_uint_eq(count_prefix(t, "      sample locations @ "), 1);
    ck_assert_uint_eq(count_lines(t, "        (64, 64) (0, 0) (0, 0) (0, 0) (0, 0) (0, 0) (0, 0) (0, 0)"), 1);
    ck_assert_uint_eq(count_lines(t, "        (0, 0)"), 1);       /* the 33rd */
    ck_assert_uint_eq(count_prefix(t, "      zs crc extension @ "), 1);
    ck_assert_uint_eq(count_lines(t, "        zs_write_format = d24s8"), 1);
    ck_assert_uint_eq(count_lines(t, "        zs_block_format = tiled_u_interleaved"), 1);
    ck_assert_uint_eq(count_lines(t, "        zs_big_endian = false"), arch < 7);
    ck_assert_uint_eq(count_prefix(t, "      render target 0 @ "), 1);
    ck_assert_uint_eq(count_prefix(t, "      render target 1 @ "), 1);
    ck_assert_uint_eq(count_prefix(t, "      render target 2 @ "), 0);
    ck_assert_uint_eq(count_lines(t, "        writeback_block_format = linear"), 2);
    ck_assert_uint_eq(count_lines(t, "        writeback_endianness = little_endian"), arch < 7 ? 2 : 0);
    ck_assert_uint_eq(count_lines(t, "        internal_buffer_offset = 1024"), 1);
    ck_assert_uint_eq(count_lines(t, "        rgb_base = 0x60200000"), 1);
    ck_assert_uint_eq(count_lines(t, "        clear_color_0 = 0xff336699"), 2);
    /* the pre-frame shader's draw, its renderer state and both blend descriptors (the
     * framebuffer says how many); the post-frame and second pre-frame slots are never run */
    ck_assert_uint_eq(count_prefix(t, "      frame shader draw (pre-frame 0) @ "), 1);
    ck_assert_uint_eq(count_prefix(t, "      frame shader draw (pre-frame 1) @ "), 0);
    ck_assert_uint_eq(count_prefix(t, "      frame shader draw (post-frame) @ "), 0);
    ck_assert_uint_eq(count_prefix(t, "        blend 1 @ "), 1);
    ck_assert_uint_eq(count_prefix(t, "      tiler context @ "), 1);
    ck_assert_uint_eq(count_prefix(t, "        tiler heap @ "), 1);
    free(t);
}

START_TEST(fragment_job_v6) { check_fragment(6); }
END_TEST
START_TEST(fragment_job_v7) { check_fragment(7); }
END_TEST

/* Hostile chains: each ends, bounded, with the problems counted. */
START_TEST(hostile_frames)
{
    frame fr;
    unsigned jobs;
    int problems;
    build_frame(&mem, &fr, 7);
    /* a job that is its own next: max_jobs of it, then the walk stops */
    struct mali_job_header h;
    mali_job_header_unpack(at(&mem, fr.idvs), &h);
    h.next = fr.idvs;
    mali_job_header_pack(at(&mem, fr.idvs), &h);
    free(print_chain(&mem, 7, fr.idvs, 5, &jobs, &problems));
    ck_assert_uint_eq(jobs, 5);

    /* 16 render targets and a ZS extension beyond the end of memory, frame shader DCDs pointing
     * at the framebuffer itself, a tiler context whose heap is the job: all reported, no crash */
    uint8_t *pl = at(&mem, fr.fragment + MALI_FRAGMENT_JOB_SECTION_PAYLOAD_OFFSET);
    struct mali_fragment_job_payload p;
    mali_fragment_job_payload_unpack(pl, &p);
    uint64_t fb = p.framebuffer & ~63ull;
    struct mali_framebuffer_parameters fp;
    mali_framebuffer_parameters_unpack(at(&mem, fb), &fp);
    fp.render_target_count = 16;
    fp.pre_frame_1 = fp.post_frame = MALI_PRE_POST_FRAME_SHADER_MODE_ALWAYS;
    fp.frame_shader_dcds = fb;
    mali_framebuffer_parameters_pack(at(&mem, fb), &fp);
    p.framebuffer = (BASE + SIZE) | 3;                   /* parameters beyond memory: missing */
    mali_fragment_job_payload_pack(pl, &p);
    char *t = print_chain(&mem, 7, fr.fragment, 4, &jobs, &problems);
    ck_assert_uint_eq(jobs, 1);
    ck_assert_int_eq(problems, 1);
    ck_assert_ptr_nonnull(strstr(t, "\n    framebuffer 0 @ 0x110000: not readable\n"));
    free(t);
    p.framebuffer = fb | 3;
    mali_fragment_job_payload_pack(pl, &p);
    t = print_chain(&mem, 7, fr.fragment, 4, &jobs, &problems);
    ck_assert_uint_eq(count_prefix(t, "      render target 15 @ "), 1);
    ck_assert_int_gt(problems, 0);                       /* garbage read as draws and RTs */
    free(t);

    /* random memory as every job type, both arches: ends, never crashes */
    srand(7);
    for (unsigned round = 0; round < 100; round++) {
        for (unsigned i = 0; i < SIZE; i++)
            mem.mem[i] = (uint8_t)rand();
        static const unsigned types[] = { MALI_JOB_TYPE_INDEXED_VERTEX, MALI_JOB_TYPE_TILER, MALI_JOB_TYPE_FRAGMENT,
                                          MALI_JOB_TYPE_VERTEX, MALI_JOB_TYPE_COMPUTE };
        uint64_t job = BASE + 64 * (uint64_t)(rand() % (SIZE / 64 - 8));
        struct mali_job_header rh;
        mali_job_header_unpack(at(&mem, job), &rh);
        rh.type = types[round % 5];
        rh.next = round % 2 ? job : rh.next;
        mali_job_header_pack(at(&mem, job), &rh);
        /* point some of its pointers back into memory so the walk goes deep */
        for (unsigned w = 8; w < 96; w += 2)
            if (rand() % 2) {
                uint64_t va = BASE + 16 * (uint64_t)(rand() % (SIZE / 16));
                uint32_t lo = (uint32_t)va | (w == 10 ? 3u : 0u);
                memcpy(at(&mem, job) + 4 * w, &lo, 4);
                memset(at(&mem, job) + 4 * w + 4, 0, 4);
            }
        free(print_chain(&mem, 6 + round % 2, job, 3, &jobs, &problems));
        ck_assert_uint_le(jobs, 3);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("mali_decode_frame");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, idvs_job_v6);
    tcase_add_test(tc, idvs_job_v7);
    tcase_add_test(tc, fragment_job_v6);
    tcase_add_test(tc, fragment_job_v7);
    tcase_add_test(tc, hostile_frames);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
