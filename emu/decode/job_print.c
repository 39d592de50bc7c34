/* The job-chain printer of malibu-decode and of malibu's --gpu-trace jobs / GPU fault reports
 * (job_print.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job_print.h"
#include "../gpu/bifrost_decode.h"
#include "mali_formats.h"

typedef struct {
    FILE *f;
    unsigned arch;
    int problems;       /* descriptors missing, reserved bits set */
    const char *missing_why; /* "not in the dump", "not readable" */
} printer;

/* Unpacks and prints descriptor T, then names any reserved bits that are set. */
#define PRINT_DESC(T, bytes, ind, arch)                                                      \
    do {                                                                                     \
        struct mali_##T s_;                                                                  \
        uint32_t bits_;                                                                      \
        mali_##T##_unpack(bytes, &s_);                                                       \
        mali_##T##_print(pr->f, &s_, ind, arch);                                            \
        int w_ = mali_##T##_reserved(bytes, arch, &bits_);                                   \
        if (w_ >= 0) {                                                                       \
            fprintf(pr->f, "%*s!! reserved bits 0x%08x set in word %d\n", (int)(ind), "", bits_, w_); \
            pr->problems++;                                                                  \
        }                                                                                    \
    } while (0)

/* The same for a struct whose layout differs between v6 and v7 (unpack takes the arch). */
#define PRINT_DESC_ARCH(T, bytes, ind, arch)                                                 \
    do {                                                                                     \
        struct mali_##T s_;                                                                  \
        uint32_t bits_;                                                                      \
        mali_##T##_unpack(bytes, &s_, arch);                                                 \
        mali_##T##_print(pr->f, &s_, ind, arch);                                            \
        int w_ = mali_##T##_reserved(bytes, arch, &bits_);                                   \
        if (w_ >= 0) {                                                                       \
            fprintf(pr->f, "%*s!! reserved bits 0x%08x set in word %d\n", (int)(ind), "", bits_, w_); \
            pr->problems++;                                                                  \
        }                                                                                    \
    } while (0)

static void print_shader(FILE *f, const uint8_t *code, size_t len, unsigned arch, unsigned ind)
{
    char *text = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&text, &n);
    if (!m)
        return;
    int rc = bi_disasm_shader(m, code, len, arch >= 7 ? BI_ARCH_V7 : BI_ARCH_V6);
    fclose(m);
    for (char *line = text, *end; line && *line; line = end ? end + 1 : NULL) {
        end = strchr(line, '\n');
        fprintf(f, "%*s%.*s\n", (int)ind, "", end ? (int)(end - line) : (int)strlen(line), line);
    }
    if (rc)
        fprintf(f, "%*s(disassembly stopped at an undecodable clause)\n", (int)ind, "");
    free(text);
}

static void print_compute(printer *pr, const uint8_t *b, unsigned ind)
{
    struct mali_compute_payload p;
    unsigned local[3], groups[3];
    PRINT_DESC(compute_payload, b, ind, pr->arch);
    mali_compute_payload_unpack(b, &p);
    if (mali_invocation_decode(&p, local, groups))
        fprintf(pr->f, "%*s(invocation shifts out of range)\n", (int)ind, "");
    else
        fprintf(pr->f, "%*s(local size %u x %u x %u, workgroups %u x %u x %u)\n", (int)ind, "", local[0], local[1],
               local[2], groups[0], groups[1], groups[2]);
}

/* A graphics job's invocation: its sizes, and as Mesa packs draws, vertices x instances. */
static void print_invocation(printer *pr, const uint8_t *b, unsigned ind)
{
    struct mali_invocation p;
    unsigned local[3], groups[3];
    PRINT_DESC(invocation, b, ind, pr->arch);
    mali_invocation_unpack(b, &p);
    if (mali_invocation_decode_graphics(&p, local, groups))
        fprintf(pr->f, "%*s(invocation shifts out of range)\n", (int)ind, "");
    else
        fprintf(pr->f, "%*s(local size %u x %u x %u, workgroups %u x %u x %u: %u vertices x %u instances)\n", (int)ind,
                "", local[0], local[1], local[2], groups[0], groups[1], groups[2], groups[1], groups[2]);
}

/* The fragment job payload, then its framebuffer pointer's tags. */
static void print_fragment_payload(printer *pr, const uint8_t *b, unsigned ind)
{
    struct mali_fragment_job_payload p;
    struct mali_framebuffer_pointer fp;
    uint8_t w[MALI_FRAMEBUFFER_POINTER_LENGTH];
    PRINT_DESC(fragment_job_payload, b, ind, pr->arch);
    mali_fragment_job_payload_unpack(b, &p);
    mali_put_words(w, (uint32_t[]){ (uint32_t)p.framebuffer, (uint32_t)(p.framebuffer >> 32) }, 2);
    mali_framebuffer_pointer_unpack(w, &fp);
    fprintf(pr->f, "%*s(framebuffer 0x%" PRIx64 ": %s, %s, %u render target%s; tiles %u..%u x %u..%u)\n", (int)ind, "",
            (uint64_t)fp.pointer, fp.type ? "multi-target" : "single-target",
            fp.zs_crc_extension_present ? "ZS/CRC extension" : "no ZS/CRC extension", fp.render_target_count,
            fp.render_target_count == 1 ? "" : "s", p.bound_min_x, p.bound_max_x, p.bound_min_y, p.bound_max_y);
}

static const char *shader_name(unsigned index)
{
    return index == MALI_SHADER_SECONDARY ? "varying shader" : index == MALI_SHADER_BLEND ? "blend shader" : "shader";
}

static void visit(void *ctx, enum mali_desc_kind kind, uint64_t va, const uint8_t *b, size_t len, unsigned index,
                  unsigned depth)
{
    printer *pr = ctx;
    FILE *f = pr->f;
    unsigned ind = 2 * depth, in = ind + 2, arch = pr->arch;
    if (kind == MALI_DESC_JOB_HEADER)
        fprintf(f, "\n");
    fprintf(f, "%*s%s", (int)ind, "", kind == MALI_DESC_SHADER ? shader_name(index) : mali_desc_name(kind));
    if (kind == MALI_DESC_JOB_HEADER || kind == MALI_DESC_UNIFORM_BUFFER || kind == MALI_DESC_TEXTURE ||
        kind == MALI_DESC_SURFACE || kind == MALI_DESC_SAMPLER || kind == MALI_DESC_ATTRIBUTE ||
        kind == MALI_DESC_ATTRIBUTE_BUFFER || kind == MALI_DESC_ATTRIBUTE_BUFFER_3D ||
        kind == MALI_DESC_ATTRIBUTE_BUFFER_NPOT || kind == MALI_DESC_BLEND ||
        kind == MALI_DESC_VARYING || kind == MALI_DESC_VARYING_BUFFER || kind == MALI_DESC_RENDER_TARGET)
        fprintf(f, " %u", index);
    if (kind == MALI_DESC_FRAME_SHADER_DRAW)
        fprintf(f, " (%s)", index == 2 ? "post-frame" : index ? "pre-frame 1" : "pre-frame 0");
    fprintf(f, " @ 0x%" PRIx64 " (%zu bytes):\n", va, len);
    switch (kind) {
    case MALI_DESC_JOB_HEADER: PRINT_DESC(job_header, b, in, arch); break;
    case MALI_DESC_WRITE_VALUE: PRINT_DESC(write_value_job, b, in, arch); break;
    case MALI_DESC_CACHE_FLUSH: PRINT_DESC(cache_flush_job, b, in, arch); break;
    case MALI_DESC_COMPUTE_PAYLOAD: print_compute(pr, b, in); break;
    case MALI_DESC_DRAW:
    case MALI_DESC_VERTEX_DRAW:
    case MALI_DESC_FRAGMENT_DRAW:
    case MALI_DESC_FRAME_SHADER_DRAW: PRINT_DESC(draw, b, in, arch); break;
    case MALI_DESC_RENDERER_STATE: PRINT_DESC(renderer_state, b, in, arch); break;
    case MALI_DESC_SHADER: print_shader(f, b, len, arch, in); break;
    case MALI_DESC_UNIFORM_BUFFER: PRINT_DESC(uniform_buffer, b, in, arch); break;
    case MALI_DESC_LOCAL_STORAGE: PRINT_DESC(local_storage, b, in, arch); break;
    case MALI_DESC_TEXTURE: PRINT_DESC(texture, b, in, arch); break;
    case MALI_DESC_SURFACE: PRINT_DESC(surface_with_stride, b, in, arch); break;
    case MALI_DESC_SAMPLER: PRINT_DESC(sampler, b, in, arch); break;
    case MALI_DESC_ATTRIBUTE:
    case MALI_DESC_VARYING: PRINT_DESC(attribute, b, in, arch); break;
    case MALI_DESC_ATTRIBUTE_BUFFER:
    case MALI_DESC_VARYING_BUFFER: PRINT_DESC(attribute_buffer, b, in, arch); break;
    case MALI_DESC_ATTRIBUTE_BUFFER_3D: PRINT_DESC(attribute_buffer_continuation_3d, b, in, arch); break;
    case MALI_DESC_ATTRIBUTE_BUFFER_NPOT: PRINT_DESC(attribute_buffer_continuation_npot, b, in, arch); break;
    case MALI_DESC_FRAGMENT_JOB: print_fragment_payload(pr, b, in); break;
    case MALI_DESC_PRIMITIVE: PRINT_DESC(primitive, b, in, arch); break;
    case MALI_DESC_INVOCATION: print_invocation(pr, b, in); break;
    case MALI_DESC_PRIMITIVE_SIZE: PRINT_DESC(primitive_size, b, in, arch); break;
    case MALI_DESC_TILER_POINTER: PRINT_DESC(tiler_pointer, b, in, arch); break;
    case MALI_DESC_TILER_CONTEXT: PRINT_DESC(tiler_context, b, in, arch); break;
    case MALI_DESC_TILER_HEAP: PRINT_DESC(tiler_heap, b, in, arch); break;
    case MALI_DESC_VIEWPORT: PRINT_DESC(viewport, b, in, arch); break;
    case MALI_DESC_BLEND: PRINT_DESC(blend, b, in, arch); break;
    case MALI_DESC_FRAMEBUFFER: PRINT_DESC(framebuffer_parameters, b, in, arch); break;
    case MALI_DESC_ZS_CRC_EXTENSION: PRINT_DESC_ARCH(zs_crc_extension, b, in, arch); break;
    case MALI_DESC_RENDER_TARGET: PRINT_DESC_ARCH(render_target, b, in, arch); break;
    case MALI_DESC_SAMPLE_LOCATIONS:    /* (x, y) offsets in 1/256 pixel from the centre, stored + 128 */
        for (size_t i = 0; i + 4 <= len; i += 4) {
            if (i % 32 == 0)
                fprintf(f, "%*s", (int)in, "");
            fprintf(f, "(%d, %d)%s", (int)(b[i] | b[i + 1] << 8) - 128, (int)(b[i + 2] | b[i + 3] << 8) - 128,
                    i % 32 == 28 || i + 8 > len ? "\n" : " ");
        }
        break;
    case MALI_DESC_INDICES:             /* the first 64 */
        for (size_t i = 0, n = 0; index && i + index <= len && n < 64; i += index, n++) {
            uint32_t v = index == 1 ? b[i] : index == 2 ? (uint32_t)(b[i] | b[i + 1] << 8) : mali_w32(b + i, 0);
            if (n % 16 == 0)
                fprintf(f, "%*s%zu:", (int)in, "", n);
            fprintf(f, " %" PRIu32 "%s", v, n % 16 == 15 || i + index >= len || n == 63 ? "\n" : "");
        }
        if (index && len / index > 64)
            fprintf(f, "%*s(%zu more)\n", (int)in, "", len / index - 64);
        break;
    case MALI_DESC_KIND_COUNT: break;
    case MALI_DESC_PUSH_UNIFORMS:
        for (size_t i = 0; i + 4 <= len; i += 4) {      /* 32-bit words, four a line */
            if (i % 16 == 0)
                fprintf(f, "%*sword %zu:", (int)in, "", i / 4);
            fprintf(f, " 0x%08" PRIx32 "%s", mali_w32(b, (unsigned)(i / 4)), i % 16 == 12 || i + 4 == len ? "\n" : "");
        }
        break;
    }
}

static void missing(void *ctx, enum mali_desc_kind kind, uint64_t va, size_t len, unsigned index, unsigned depth)
{
    printer *pr = ctx;
    fprintf(pr->f, "%*s%s %u @ 0x%" PRIx64 ": %s\n", (int)(2 * depth), "", mali_desc_name(kind), index, va,
            pr->missing_why);
    pr->problems++;
}


unsigned mali_print_chain(FILE *f, unsigned arch, uint64_t head, unsigned max_jobs,
                          int (*read)(void *ctx, uint64_t va, void *buf, size_t len), void *ctx,
                          const char *missing_why, int *problems)
{
    printer pr = { .f = f, .arch = arch, .missing_why = missing_why };
    mali_walk w = { .read = read, .read_ctx = ctx, .visit = visit, .missing = missing, .visit_ctx = &pr };
    unsigned jobs = mali_walk_chain(&w, head, max_jobs);
    if (problems)
        *problems = pr.problems;
    return jobs;
}

void mali_print_desc(FILE *f, unsigned arch, enum mali_desc_kind kind, uint64_t va, const uint8_t *bytes,
                     size_t len, unsigned index, unsigned depth)
{
    printer pr = { .f = f, .arch = arch };
    visit(&pr, kind, va, bytes, len, index, depth);
}
