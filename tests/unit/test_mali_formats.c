/* The generated Mali descriptor code (isa/mali/bifrost.fmt -> mali_formats.h, mali_formats_print.c):
 * descriptors written word by word from the reference layout unpack to the expected values and
 * pack back to the same bytes; random bytes survive unpack + pack except for exactly the reserved
 * bits; v7-only fields are reserved on v6; layouts that move between v6 and v7 follow the arch;
 * aggregates place their sections at Mesa's offsets; print names fields, enum values, pixel
 * formats and only the selected arm of a union. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "mali_formats.h"

static void put32(uint8_t *p, unsigned word, uint32_t v)
{
    for (unsigned k = 0; k < 4; k++)
        p[4 * word + k] = (uint8_t)(v >> (8 * k));
}

START_TEST(job_header_layout)
{
    uint8_t b[MALI_JOB_HEADER_LENGTH] = { 0 }, out[MALI_JOB_HEADER_LENGTH];
    put32(b, 0, 1);
    put32(b, 4, 1u | 4u << 1 | 1u << 8 | 7u << 16);     /* 64-bit, compute, barrier, index 7 */
    put32(b, 5, 3u | 5u << 16);
    put32(b, 6, 0x12345640u);
    put32(b, 7, 0x00000001u);
    struct mali_job_header h;
    mali_job_header_unpack(b, &h);
    ck_assert_uint_eq(h.exception_status, 1);
    ck_assert(h.is_64b);
    ck_assert_uint_eq(h.type, MALI_JOB_TYPE_COMPUTE);
    ck_assert(h.barrier);
    ck_assert_uint_eq(h.index, 7);
    ck_assert_uint_eq(h.dependency_1, 3);
    ck_assert_uint_eq(h.dependency_2, 5);
    ck_assert_uint_eq(h.next, 0x112345640ull);
    mali_job_header_pack(out, &h);
    ck_assert_mem_eq(out, b, sizeof b);
}
END_TEST

START_TEST(compute_descriptors_layout)
{
    uint8_t d[MALI_DRAW_LENGTH] = { 0 }, r[MALI_RENDERER_STATE_LENGTH] = { 0 }, u[8], out[MALI_DRAW_LENGTH];
    put32(d, 6, 0x1000);          /* uniform buffers (byte 24 of the DCD) */
    put32(d, 12, 0x2000);         /* push uniforms (48) */
    put32(d, 14, 0x3000);         /* renderer state (56) */
    put32(d, 15, 0x7f);
    put32(d, 28, 0x4000);         /* thread storage (112) */
    struct mali_draw dcd;
    mali_draw_unpack(d, &dcd);
    ck_assert_uint_eq(dcd.uniform_buffers, 0x1000);
    ck_assert_uint_eq(dcd.push_uniforms, 0x2000);
    ck_assert_uint_eq(dcd.state, 0x7f00003000ull);
    ck_assert_uint_eq(dcd.thread_storage, 0x4000);
    mali_draw_pack(out, &dcd);
    ck_assert_mem_eq(out, d, sizeof d);

    put32(r, 0, 0x8000);
    put32(r, 4, 2);               /* two UBOs */
    put32(r, 12, 0x7fc0u | 3u << 15);
    struct mali_renderer_state rs;
    mali_renderer_state_unpack(r, &rs);
    ck_assert_uint_eq(rs.shader, 0x8000);
    ck_assert_uint_eq(rs.uniform_buffer_count, 2);
    ck_assert_uint_eq(rs.uniform_count, 3);
    ck_assert_uint_eq(rs.preload, 0x7fc0u | 3u << 15);
    ck_assert(rs.preload_pc && rs.preload_global_invocation_z);

    /* UBO: entries - 1 in [11:0], VA >> 4 above */
    uint64_t ubo = (0xabcdef0ull >> 4) << 12 | 3;
    memcpy(u, &ubo, 8);
    struct mali_uniform_buffer ub;
    mali_uniform_buffer_unpack(u, &ub);
    ck_assert_uint_eq(ub.entries, 4);
    ck_assert_uint_eq(ub.pointer, 0xabcdef0ull);
    uint8_t u2[8];
    mali_uniform_buffer_pack(u2, &ub);
    ck_assert_mem_eq(u2, u, 8);
}
END_TEST

START_TEST(texture_unit_layout)
{
    uint8_t t[MALI_TEXTURE_LENGTH] = { 0 }, out[MALI_TEXTURE_LENGTH];
    put32(t, 0, 2u | 2u << 4 | (187u << 12 | 0x688u) << 10);
    put32(t, 1, 15u | 7u << 16);
    put32(t, 2, 0x688u | 2u << 12 | 0u << 16);
    put32(t, 4, 0x5000);
    put32(t, 6, 0);
    put32(t, 7, 0);
    struct mali_texture td;
    mali_texture_unpack(t, &td);
    ck_assert_uint_eq(td.type, 2);
    ck_assert_uint_eq(td.dimension, MALI_TEXTURE_DIMENSION_2D);
    ck_assert_uint_eq(td.format >> 12 & 0xff, MALI_FORMAT_RGBA8_UNORM);
    ck_assert_uint_eq(td.width, 16);
    ck_assert_uint_eq(td.height, 8);
    ck_assert_uint_eq(td.texel_ordering, MALI_TEXTURE_LAYOUT_LINEAR);
    ck_assert_uint_eq(td.levels, 1);
    ck_assert_uint_eq(td.array_size, 1);
    ck_assert_uint_eq(td.surfaces, 0x5000);
    mali_texture_pack(out, &td);
    ck_assert_mem_eq(out, t, sizeof t);

    /* surface strides and the sampler's LOD bias are signed */
    uint8_t s[MALI_SURFACE_WITH_STRIDE_LENGTH] = { 0 }, sm[MALI_SAMPLER_LENGTH] = { 0 };
    put32(s, 2, (uint32_t)-64);
    struct mali_surface_with_stride sf;
    mali_surface_with_stride_unpack(s, &sf);
    ck_assert_int_eq(sf.row_stride, -64);
    put32(sm, 0, 1u | 9u << 16 | 8u << 12 | 11u << 8 | 3u << 27);
    put32(sm, 2, 0xfff0u);
    struct mali_sampler sp;
    mali_sampler_unpack(sm, &sp);
    ck_assert_int_eq(sp.lod_bias, -16);
    ck_assert_uint_eq(sp.wrap_mode_s, MALI_WRAP_MODE_CLAMP_TO_EDGE);
    ck_assert_uint_eq(sp.wrap_mode_t, MALI_WRAP_MODE_REPEAT);
    ck_assert_uint_eq(sp.wrap_mode_r, MALI_WRAP_MODE_CLAMP_TO_BORDER);
    ck_assert(sp.minify_nearest && sp.magnify_nearest);
    uint8_t sm2[MALI_SAMPLER_LENGTH];
    mali_sampler_pack(sm2, &sp);
    ck_assert_mem_eq(sm2, sm, sizeof sm);

    /* attribute buffer: 64-byte aligned pointer in [55:6] */
    uint8_t ab[MALI_ATTRIBUTE_BUFFER_LENGTH] = { 0 };
    uint64_t w = 0x00ffffffffffffc0ull | MALI_ATTRIBUTE_TYPE_3D_LINEAR;
    memcpy(ab, &w, 8);
    struct mali_attribute_buffer a;
    mali_attribute_buffer_unpack(ab, &a);
    ck_assert_uint_eq(a.type, MALI_ATTRIBUTE_TYPE_3D_LINEAR);
    ck_assert_uint_eq(a.pointer, 0x00ffffffffffffc0ull);
}
END_TEST

/* Random bytes: unpack + pack keeps every field bit and clears exactly the reserved ones (the
 * optional last argument: the arch of a struct whose layout differs between v6 and v7). */
#define ROUND_TRIP(t, T, arch, ...)                                                            \
    do {                                                                                     \
        uint8_t x[MALI_##T##_LENGTH], y[MALI_##T##_LENGTH], z[MALI_##T##_LENGTH];            \
        struct mali_##t s;                                                                   \
        for (unsigned i = 0; i < sizeof x; i++)                                              \
            x[i] = (uint8_t)rand();                                                          \
        mali_##t##_unpack(x, &s, ##__VA_ARGS__);                                             \
        mali_##t##_pack(y, &s, ##__VA_ARGS__);                                               \
        uint32_t bits;                                                                       \
        ck_assert_int_eq(mali_##t##_reserved(y, arch, &bits), -1);                           \
        for (unsigned i = 0; i < sizeof x; i++)                                              \
            z[i] = x[i] ^ y[i];                                                              \
        mali_##t##_unpack(z, &s, ##__VA_ARGS__);                                             \
        mali_##t##_pack(y, &s, ##__VA_ARGS__);                                               \
        for (unsigned i = 0; i < sizeof y; i++)                                              \
            ck_assert_msg(y[i] == 0, #T ": a field bit was lost in byte %u", i);             \
    } while (0)

START_TEST(random_round_trips)
{
    srand(1);
    for (unsigned n = 0; n < 200; n++) {
        ROUND_TRIP(job_header, JOB_HEADER, 6);
        ROUND_TRIP(write_value_job, WRITE_VALUE_JOB, 6);
        ROUND_TRIP(cache_flush_job, CACHE_FLUSH_JOB, 6);
        ROUND_TRIP(compute_payload, COMPUTE_PAYLOAD, 6);
        ROUND_TRIP(draw, DRAW, 6);
        ROUND_TRIP(uniform_buffer, UNIFORM_BUFFER, 6);
        ROUND_TRIP(local_storage, LOCAL_STORAGE, 6);
        ROUND_TRIP(texture, TEXTURE, 6);
        ROUND_TRIP(surface_with_stride, SURFACE_WITH_STRIDE, 6);
        ROUND_TRIP(sampler, SAMPLER, 6);
        ROUND_TRIP(attribute, ATTRIBUTE, 6);
        ROUND_TRIP(attribute_buffer, ATTRIBUTE_BUFFER, 6);
        ROUND_TRIP(attribute_buffer_continuation_3d, ATTRIBUTE_BUFFER_CONTINUATION_3D, 6);
        ROUND_TRIP(attribute_buffer_continuation_npot, ATTRIBUTE_BUFFER_CONTINUATION_NPOT, 6);
        ROUND_TRIP(fragment_job_payload, FRAGMENT_JOB_PAYLOAD, 6);
        ROUND_TRIP(primitive, PRIMITIVE, 6);
        ROUND_TRIP(renderer_state, RENDERER_STATE, 7);
        ROUND_TRIP(invocation, INVOCATION, 6);
        ROUND_TRIP(primitive_size, PRIMITIVE_SIZE, 6);
        ROUND_TRIP(tiler_pointer, TILER_POINTER, 6);
        ROUND_TRIP(framebuffer_pointer, FRAMEBUFFER_POINTER, 6);
        ROUND_TRIP(framebuffer_parameters, FRAMEBUFFER_PARAMETERS, 6);
        ROUND_TRIP(tiler_context, TILER_CONTEXT, 6);
        ROUND_TRIP(tiler_heap, TILER_HEAP, 6);
        ROUND_TRIP(viewport, VIEWPORT, 6);
        ROUND_TRIP(blend, BLEND, 6);
        ROUND_TRIP(zs_crc_extension, ZS_CRC_EXTENSION, 6, 6);
        ROUND_TRIP(zs_crc_extension, ZS_CRC_EXTENSION, 7, 7);
        ROUND_TRIP(render_target, RENDER_TARGET, 6, 6);
        ROUND_TRIP(render_target, RENDER_TARGET, 7, 7);
    }
}
END_TEST

/* Render target word 1 as Mesa's genxml lays it out: the block format is [11:10] on v6 (after
 * the endianness at [9:8]) and [11:8] on v7, with other values. */
START_TEST(graphics_layouts_per_arch)
{
    uint8_t rt[MALI_RENDER_TARGET_LENGTH] = { 0 }, out[MALI_RENDER_TARGET_LENGTH];
    put32(rt, 0, 1u << 26 | (256u >> 4) << 4);          /* r8g8b8a8 in the tile buffer at 256 */
    put32(rt, 1, 1u | 19u << 3 | 2u << 8 | 0x688u << 16); /* write, r8g8b8a8, block bits [9:8] = 2 */
    put32(rt, 8, 0x100000);
    put32(rt, 10, 1024);
    put32(rt, 12, 0xff00ff00u);
    struct mali_render_target r;
    mali_render_target_unpack(rt, &r, 7);
    ck_assert_uint_eq(r.internal_format, MALI_COLOR_BUFFER_INTERNAL_FORMAT_R8G8B8A8);
    ck_assert_uint_eq(r.internal_buffer_offset, 256);
    ck_assert(r.write_enable);
    ck_assert_uint_eq(r.writeback_format, MALI_COLOR_FORMAT_R8G8B8A8);
    ck_assert_uint_eq(r.writeback_block_format, MALI_BLOCK_FORMAT_V7_LINEAR);
    ck_assert_uint_eq(r.swizzle, 0x688);
    ck_assert_uint_eq(r.rgb_base, 0x100000);
    ck_assert_uint_eq(r.rgb_row_stride, 1024);
    ck_assert_uint_eq(r.clear_color_0, 0xff00ff00u);
    mali_render_target_pack(out, &r, 7);
    ck_assert_mem_eq(out, rt, sizeof rt);
    mali_render_target_unpack(rt, &r, 6);                /* the same bits on v6: big-endian 4B, tiled */
    ck_assert_uint_eq(r.writeback_endianness, MALI_RT_ENDIANNESS_BIG_ENDIAN_4B);
    ck_assert_uint_eq(r.writeback_block_format, MALI_BLOCK_FORMAT_TILED_U_INTERLEAVED);
    r.writeback_endianness = 0;
    r.writeback_block_format = MALI_BLOCK_FORMAT_LINEAR;
    mali_render_target_pack(out, &r, 6);
    ck_assert_uint_eq(mali_w32(out, 1), 1u | 19u << 3 | 2u << 10 | 0x688u << 16);

    /* ZS/CRC extension: MSAA moves from [7:6] (v6) to [9:8] (v7); the CRC render target is v7's */
    uint8_t zs[MALI_ZS_CRC_EXTENSION_LENGTH] = { 0 };
    put32(zs, 3, MALI_ZS_FORMAT_D24S8 | 1u << 4 | 1u << 8 | 3u << 11);
    struct mali_zs_crc_extension z;
    mali_zs_crc_extension_unpack(zs, &z, 7);
    ck_assert_uint_eq(z.zs_write_format, MALI_ZS_FORMAT_D24S8);
    ck_assert_uint_eq(z.zs_block_format, MALI_BLOCK_FORMAT_V7_TILED_U_INTERLEAVED);
    ck_assert_uint_eq(z.zs_msaa, MALI_MSAA_AVERAGE);
    ck_assert_uint_eq(z.crc_render_target, 3);
    uint32_t bits;
    ck_assert_int_eq(mali_zs_crc_extension_reserved(zs, 7, &bits), -1);
    ck_assert_int_eq(mali_zs_crc_extension_reserved(zs, 6, &bits), 3);
    ck_assert_uint_eq(bits, 3u << 11);
    mali_zs_crc_extension_unpack(zs, &z, 6);
    ck_assert_uint_eq(z.zs_block_format, MALI_BLOCK_FORMAT_TILED_LINEAR);
    ck_assert_uint_eq(z.zs_msaa, MALI_MSAA_SINGLE);
    ck_assert(z.zs_big_endian);                          /* v6 reads bit 8 so */
    ck_assert_uint_eq(z.crc_render_target, 0);
}
END_TEST

START_TEST(framebuffer_layout)
{
    uint8_t fb[MALI_FRAMEBUFFER_PARAMETERS_LENGTH] = { 0 }, out[MALI_FRAMEBUFFER_PARAMETERS_LENGTH];
    put32(fb, 0, MALI_PRE_POST_FRAME_SHADER_MODE_ALWAYS | MALI_PRE_POST_FRAME_SHADER_MODE_INTERSECT << 6);
    put32(fb, 6, 0x7000);                                /* frame shader DCDs */
    put32(fb, 8, 799u | 599u << 16);                     /* 800 x 600 */
    put32(fb, 10, 799u | 599u << 16);
    put32(fb, 11, 2u | 4u << 9 | 1u << 19 | (1024u >> 10) << 24);  /* 4 samples, 16x16, 2 RTs */
    put32(fb, 12, 1u << 16 | 1u << 18 | 1u << 21);       /* D24, Z write, ZS/CRC extension */
    put32(fb, 13, 0x3f800000u);                          /* Z clear 1.0 */
    put32(fb, 14, 0x9000);
    struct mali_framebuffer_parameters p;
    mali_framebuffer_parameters_unpack(fb, &p);
    ck_assert_uint_eq(p.pre_frame_0, MALI_PRE_POST_FRAME_SHADER_MODE_ALWAYS);
    ck_assert_uint_eq(p.post_frame, MALI_PRE_POST_FRAME_SHADER_MODE_INTERSECT);
    ck_assert_uint_eq(p.frame_shader_dcds, 0x7000);
    ck_assert_uint_eq(p.width, 800);
    ck_assert_uint_eq(p.height, 600);
    ck_assert_uint_eq(p.bound_max_y, 599);
    ck_assert_uint_eq(p.sample_count, 4);
    ck_assert_uint_eq(p.effective_tile_size, 16);
    ck_assert_uint_eq(p.render_target_count, 2);
    ck_assert_uint_eq(p.color_buffer_allocation, 1024);
    ck_assert_uint_eq(p.z_internal_format, MALI_Z_INTERNAL_FORMAT_D24);
    ck_assert(p.z_write_enable && p.has_zs_crc_extension && !p.s_write_enable);
    ck_assert(p.z_clear == 1.0f);
    ck_assert_uint_eq(p.tiler, 0x9000);
    mali_framebuffer_parameters_pack(out, &p);
    ck_assert_mem_eq(out, fb, sizeof fb);

    /* the fragment job's tagged pointer: MFBD, ZS/CRC extension, 3 render targets */
    uint8_t ptr[8] = { 0 };
    put32(ptr, 0, 0x12340000u | 1u | 2u | 2u << 2);
    struct mali_framebuffer_pointer fp;
    mali_framebuffer_pointer_unpack(ptr, &fp);
    ck_assert(fp.type && fp.zs_crc_extension_present);
    ck_assert_uint_eq(fp.render_target_count, 3);
    ck_assert_uint_eq(fp.pointer, 0x12340000u);

    /* sections of the jobs at genxml's offsets */
    ck_assert_uint_eq(MALI_FRAMEBUFFER_LENGTH, 128);
    ck_assert_uint_eq(MALI_FRAGMENT_JOB_SECTION_PAYLOAD_OFFSET, 32);
    ck_assert_uint_eq(MALI_TILER_JOB_SECTION_PRIMITIVE_SIZE_OFFSET, 64);
    ck_assert_uint_eq(MALI_TILER_JOB_SECTION_TILER_OFFSET, 72);
    ck_assert_uint_eq(MALI_TILER_JOB_SECTION_DRAW_OFFSET, 128);
    ck_assert_uint_eq(MALI_INDEXED_VERTEX_JOB_SECTION_FRAGMENT_DRAW_OFFSET, 128);
    ck_assert_uint_eq(MALI_INDEXED_VERTEX_JOB_SECTION_VERTEX_DRAW_OFFSET, 256);
    ck_assert_uint_eq(MALI_INDEXED_VERTEX_JOB_LENGTH, 384);
    ck_assert_uint_eq(MALI_TILER_CONTEXT_LENGTH, 192);
}
END_TEST

/* Blend: the equation's operands, and the internal word's arms (blend shader or fixed function). */
START_TEST(blend_layout)
{
    uint8_t b[MALI_BLEND_LENGTH] = { 0 }, out[MALI_BLEND_LENGTH];
    /* src * src_alpha + dest * (1 - src_alpha): A = zero... as Mesa writes a classic alpha blend */
    put32(b, 0, 1u << 9 | 0x3c00u << 16);
    put32(b, 1, 3u | 2u << 4 | 5u << 8 | 1u << 11 | 0xfu << 28);
    put32(b, 2, MALI_BLEND_MODE_FIXED_FUNCTION | 3u << 3 | 1u << 16);
    put32(b, 3, 187u << 12 | 0x688u | 1u << 24);
    struct mali_blend bl;
    mali_blend_unpack(b, &bl);
    ck_assert(bl.enable);
    ck_assert_uint_eq(bl.blend_constant, 0x3c00);
    ck_assert_uint_eq(bl.equation_rgb_a, MALI_BLEND_OPERAND_A_DEST);
    ck_assert_uint_eq(bl.equation_rgb_b, MALI_BLEND_OPERAND_B_SRC);
    ck_assert_uint_eq(bl.equation_rgb_c, MALI_BLEND_OPERAND_C_SRC_ALPHA);
    ck_assert(bl.equation_rgb_invert_c);
    ck_assert_uint_eq(bl.equation_color_mask, 0xf);
    ck_assert_uint_eq(bl.internal_mode, MALI_BLEND_MODE_FIXED_FUNCTION);
    ck_assert_uint_eq(bl.internal_fixed_function_num_comps, 4);
    ck_assert_uint_eq(bl.internal_fixed_function_rt, 1);
    ck_assert_uint_eq(bl.internal_fixed_function_conversion_memory_format >> 12, MALI_FORMAT_RGBA8_UNORM);
    ck_assert_uint_eq(bl.internal_fixed_function_conversion_register_format, MALI_REGISTER_FILE_FORMAT_F32);
    mali_blend_pack(out, &bl);
    ck_assert_mem_eq(out, b, sizeof b);

    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    mali_blend_print(f, &bl, 0, 6);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "internal_fixed_function_num_comps = 4\n"));
    ck_assert_ptr_null(strstr(text, "internal_shader_pc"));
    free(text);

    /* a blend shader: only its PC and return value are set, and only they print */
    struct mali_blend sh = { .internal_mode = MALI_BLEND_MODE_SHADER, .internal_shader_pc = 0x8a40,
                             .internal_shader_return_value = 0x1238 };
    mali_blend_pack(out, &sh);
    ck_assert_uint_eq(mali_w32(out, 2), 0x1238u);
    ck_assert_uint_eq(mali_w32(out, 3), 0x8a40u);
    f = open_memstream(&text, &n);
    mali_blend_print(f, &sh, 0, 7);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "internal_shader_pc = 0x8a40\n"));
    ck_assert_ptr_null(strstr(text, "internal_fixed_function"));
    free(text);
}
END_TEST

START_TEST(reserved_bits_per_arch)
{
    uint8_t r[MALI_RENDERER_STATE_LENGTH] = { 0 };
    uint32_t bits = 0;
    ck_assert_int_eq(mali_renderer_state_reserved(r, 6, &bits), -1);
    put32(r, 4, 2u << 12);                     /* 32 registers per thread: a v7 field */
    ck_assert_int_eq(mali_renderer_state_reserved(r, 7, &bits), -1);
    ck_assert_int_eq(mali_renderer_state_reserved(r, 6, &bits), 4);
    ck_assert_uint_eq(bits, 2u << 12);
    uint8_t t[MALI_TEXTURE_LENGTH] = { 0 };
    put32(t, 0, 1u << 6);                      /* between dimension and corner position */
    ck_assert_int_eq(mali_texture_reserved(t, 7, &bits), 0);
    ck_assert_uint_eq(bits, 1u << 6);
}
END_TEST

/* The codes the driver and Mesa's decoder know (reference §2.5), against the generated enum. */
START_TEST(exception_codes)
{
    ck_assert_uint_eq(MALI_EXC_OK, 0x00);
    ck_assert_uint_eq(MALI_EXC_DONE, 0x01);
    ck_assert_uint_eq(MALI_EXC_STOPPED, 0x03);
    ck_assert_uint_eq(MALI_EXC_TERMINATED, 0x04);
    ck_assert_uint_eq(MALI_EXC_JOB_CONFIG_FAULT, 0x40);
    ck_assert_uint_eq(MALI_EXC_INSTR_INVALID_PC, 0x50);
    ck_assert_uint_eq(MALI_EXC_INSTR_INVALID_ENC, 0x51);
    ck_assert_uint_eq(MALI_EXC_DATA_INVALID_FAULT, 0x58);
    ck_assert_uint_eq(MALI_EXC_TRANSLATION_FAULT_LEVEL_0, 0xc0);
    ck_assert_uint_eq(MALI_EXC_PERMISSION_FAULT_LEVEL_0, 0xc8);
    ck_assert_uint_eq(MALI_EXC_TRANSTAB_BUS_FAULT_LEVEL_0, 0xd0);
    ck_assert_uint_eq(MALI_EXC_ADDRESS_SIZE_FAULT_OUT_LEVEL_0, 0xe4);
    ck_assert_str_eq(mali_exc_name(0x58), "data_invalid_fault");
    ck_assert_uint_eq(MALI_EXC_OOM, 0x60);          /* the tiler heap is full */
    ck_assert_str_eq(mali_exc_name(0x60), "oom");
    ck_assert_ptr_null(mali_exc_name(0x5a));
}
END_TEST

static char *print_texture(const struct mali_texture *t, unsigned arch)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    ck_assert_ptr_nonnull(f);
    mali_texture_print(f, t, 2, arch);
    fclose(f);
    return text;
}

START_TEST(print_names_fields)
{
    struct mali_texture t = { .type = 2, .dimension = MALI_TEXTURE_DIMENSION_3D, .width = 16, .height = 4,
                              .format = 191u << 12 | 0x688u, .texel_ordering = 5, .levels = 1, .array_size = 1,
                              .depth = 2, .surfaces = 0xabc0 };
    char *s = print_texture(&t, 6);
    ck_assert_ptr_nonnull(strstr(s, "\n  width = 16\n"));
    ck_assert_ptr_nonnull(strstr(s, "  dimension = 3d\n"));
    ck_assert_ptr_nonnull(strstr(s, "  format = 0x0bf688 (rgba32f, swizzle 0x688 rgba)\n"));
    ck_assert_ptr_nonnull(strstr(s, "  texel_ordering = unknown (5)\n"));
    ck_assert_ptr_nonnull(strstr(s, "  surfaces = 0xabc0\n"));
    ck_assert_ptr_nonnull(strstr(s, "  sample_corner_position = false\n"));
    free(s);
    s = print_texture(&t, 7);
    ck_assert_ptr_nonnull(strstr(s, "(rgba32f, component order 0x688)"));   /* not an order: hex only */
    free(s);
    t.format = 191u << 12 | MALI_RGB_COMPONENT_ORDER_RGB1;
    s = print_texture(&t, 7);
    ck_assert_ptr_nonnull(strstr(s, "(rgba32f, component order 0x010 rgb1)\n"));
    free(s);

    struct mali_renderer_state rs = { .shader = 0x4000, .shader_register_allocation = 2 };
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    mali_renderer_state_print(f, &rs, 0, 6);
    fclose(f);
    ck_assert_ptr_null(strstr(text, "shader_register_allocation"));
    ck_assert_ptr_null(strstr(text, "\npreload ="));          /* the raw word is not printed */
    free(text);
    f = open_memstream(&text, &n);
    mali_renderer_state_print(f, &rs, 0, 7);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "shader_register_allocation = 32_per_thread\n"));
    free(text);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("mali_formats");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, job_header_layout);
    tcase_add_test(tc, compute_descriptors_layout);
    tcase_add_test(tc, texture_unit_layout);
    tcase_add_test(tc, random_round_trips);
    tcase_add_test(tc, reserved_bits_per_arch);
    tcase_add_test(tc, print_names_fields);
    tcase_add_test(tc, graphics_layouts_per_arch);
    tcase_add_test(tc, framebuffer_layout);
    tcase_add_test(tc, blend_layout);
    tcase_add_test(tc, exception_codes);
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
