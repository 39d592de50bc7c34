/* The generated Mali descriptor code (isa/mali/bifrost.fmt -> mali_formats.h, mali_formats_print.c):
 * descriptors written word by word from the reference layout unpack to the expected values and
 * pack back to the same bytes; random bytes survive unpack + pack except for exactly the reserved
 * bits; v7-only fields are reserved on v6; print names fields, enum values and pixel formats. */
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

/* Random bytes: unpack + pack keeps every field bit and clears exactly the reserved ones. */
#define ROUND_TRIP(t, T, arch)                                                                  \
    do {                                                                                     \
        uint8_t x[MALI_##T##_LENGTH], y[MALI_##T##_LENGTH], z[MALI_##T##_LENGTH];            \
        struct mali_##t s;                                                                   \
        for (unsigned i = 0; i < sizeof x; i++)                                              \
            x[i] = (uint8_t)rand();                                                          \
        mali_##t##_unpack(x, &s);                                                            \
        mali_##t##_pack(y, &s);                                                              \
        uint32_t bits;                                                                       \
        ck_assert_int_eq(mali_##t##_reserved(y, arch, &bits), -1);                           \
        for (unsigned i = 0; i < sizeof x; i++)                                              \
            z[i] = x[i] ^ y[i];                                                              \
        mali_##t##_unpack(z, &s);                                                            \
        mali_##t##_pack(y, &s);                                                              \
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
        ROUND_TRIP(fragment_job, FRAGMENT_JOB, 6);
        ROUND_TRIP(primitive, PRIMITIVE, 6);
        ROUND_TRIP(renderer_state, RENDERER_STATE, 7);
    }
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
    ck_assert_ptr_null(mali_exc_name(0x59));
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
    ck_assert_ptr_nonnull(strstr(s, "  format = 0x0bf688 (rgba32f, swizzle 0x688)\n"));
    ck_assert_ptr_nonnull(strstr(s, "  texel_ordering = unknown (5)\n"));
    ck_assert_ptr_nonnull(strstr(s, "  surfaces = 0xabc0\n"));
    ck_assert_ptr_nonnull(strstr(s, "  sample_corner_position = false\n"));
    free(s);
    s = print_texture(&t, 7);
    ck_assert_ptr_nonnull(strstr(s, "(rgba32f, component order 0x688)"));
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
