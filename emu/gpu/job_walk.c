/* Mali job-chain walker (job_walk.h): descriptor layouts from the generated mali_formats.h. */
#include "job_walk.h"

#include <stdlib.h>
#include <string.h>

#include "mali_formats.h"

/* Bounds on what one job may make the walker read (descriptor tables are counted by the
 * renderer state; a corrupt count must not make a dump huge). */
#define MAX_TABLE 256u
#define MAX_SURFACES 64u
#define MAX_RTS 8u          /* blend descriptors after a fragment renderer state (Mesa: 8 RTs) */

typedef struct {
    const mali_walk *w;
    unsigned depth;
} walker;

static int get(walker *k, enum mali_desc_kind kind, uint64_t va, void *buf, size_t len, unsigned index)
{
    const mali_walk *w = k->w;
    if (va && !w->read(w->read_ctx, va, buf, len)) {
        w->visit(w->visit_ctx, kind, va, buf, len, index, k->depth);
        return 0;
    }
    if (w->missing)
        w->missing(w->visit_ctx, kind, va, len, index, k->depth);
    return -1;
}

/* Code up to the first all-zero 16-byte block (the end of a shader), page by page. */
static void walk_shader(walker *k, uint64_t va, unsigned index)
{
    uint8_t *buf = malloc(MALI_WALK_MAX_SHADER);
    size_t len = 0;
    int end = 0;
    static const uint8_t zero[16];
    while (buf && !end && len < MALI_WALK_MAX_SHADER) {
        size_t n = 4096 - ((va + len) & 4095);
        if (n > MALI_WALK_MAX_SHADER - len)
            n = MALI_WALK_MAX_SHADER - len;
        if (k->w->read(k->w->read_ctx, va + len, buf + len, n))
            break;
        for (size_t q = len & ~(size_t)15; q + 16 <= len + n && !end; q += 16)
            end = !memcmp(buf + q, zero, 16);
        len += n;
    }
    if (buf && len)
        k->w->visit(k->w->visit_ctx, MALI_DESC_SHADER, va, buf, len, index, k->depth);
    else if (k->w->missing)
        k->w->missing(k->w->visit_ctx, MALI_DESC_SHADER, va, 0, index, k->depth);
    free(buf);
}

static void walk_texture(walker *k, uint64_t table, unsigned i)
{
    uint8_t b[MALI_TEXTURE_LENGTH];
    struct mali_texture t;
    if (get(k, MALI_DESC_TEXTURE, table + (uint64_t)MALI_TEXTURE_LENGTH * i, b, sizeof b, i))
        return;
    mali_texture_unpack(b, &t);
    unsigned n = t.levels * t.array_size;
    k->depth++;
    for (unsigned s = 0; s < n && s < MAX_SURFACES; s++) {
        uint8_t sb[MALI_SURFACE_WITH_STRIDE_LENGTH];
        get(k, MALI_DESC_SURFACE, t.surfaces + (uint64_t)MALI_SURFACE_WITH_STRIDE_LENGTH * s, sb, sizeof sb, s);
    }
    k->depth--;
}

/* Attribute (or varying) i and its buffer (and a 3D buffer's continuation record). */
static void walk_attribute(walker *k, uint64_t attrs, uint64_t bufs, unsigned i, int varying)
{
    uint8_t a[MALI_ATTRIBUTE_LENGTH], b[MALI_ATTRIBUTE_BUFFER_LENGTH];
    struct mali_attribute at;
    struct mali_attribute_buffer ab;
    if (get(k, varying ? MALI_DESC_VARYING : MALI_DESC_ATTRIBUTE, attrs + (uint64_t)MALI_ATTRIBUTE_LENGTH * i, a,
            sizeof a, i))
        return;
    mali_attribute_unpack(a, &at);
    uint64_t va = bufs + (uint64_t)MALI_ATTRIBUTE_BUFFER_LENGTH * at.buffer_index;
    k->depth++;
    if (bufs && !get(k, varying ? MALI_DESC_VARYING_BUFFER : MALI_DESC_ATTRIBUTE_BUFFER, va, b, sizeof b,
                     at.buffer_index)) {
        mali_attribute_buffer_unpack(b, &ab);
        if (ab.type == MALI_ATTRIBUTE_TYPE_3D_LINEAR)
            get(k, MALI_DESC_ATTRIBUTE_BUFFER_3D, va + MALI_ATTRIBUTE_BUFFER_LENGTH, b, sizeof b, at.buffer_index);
        else if (ab.type == MALI_ATTRIBUTE_TYPE_1D_NPOT_DIVISOR ||
                 ab.type == MALI_ATTRIBUTE_TYPE_1D_NPOT_DIVISOR_WRITE_REDUCTION)
            get(k, MALI_DESC_ATTRIBUTE_BUFFER_NPOT, va + MALI_ATTRIBUTE_BUFFER_LENGTH, b, sizeof b, at.buffer_index);
    }
    k->depth--;
}

/* Whether blend descriptor i > 0 after a fragment renderer state is one Mesa wrote for render
 * target i (it writes max(colour buffers, 1) of them and nothing says how many): a fixed-function
 * or opaque one naming RT i, a blend shader, or a disabled one (mode off, nothing else set). */
static int looks_like_blend(const uint8_t *b, unsigned i)
{
    struct mali_blend bl;
    uint32_t bits;
    mali_blend_unpack(b, &bl);
    if (mali_blend_reserved(b, 7, &bits) >= 0)
        return 0;
    switch (bl.internal_mode) {
    case MALI_BLEND_MODE_SHADER: return bl.internal_shader_pc != 0;
    case MALI_BLEND_MODE_OFF: return !bl.enable && !mali_w32(b, 1) && !mali_w32(b, 3);
    default: return bl.internal_fixed_function_rt == i;
    }
}

/* The blend descriptors after a fragment renderer state (at most MAX_RTS; blend_count of them
 * when the caller knows it, else while they look like Mesa's) and the blend shaders they name. */
static void walk_blends(walker *k, uint64_t rsd, uint64_t shader, unsigned blend_count)
{
    unsigned n = blend_count ? blend_count : MAX_RTS;
    for (unsigned i = 0; i < n && i < MAX_RTS; i++) {
        uint8_t b[MALI_BLEND_LENGTH];
        uint64_t va = rsd + MALI_RENDERER_STATE_LENGTH + (uint64_t)MALI_BLEND_LENGTH * i;
        if (!blend_count && i > 0 && (k->w->read(k->w->read_ctx, va, b, sizeof b) || !looks_like_blend(b, i)))
            break;
        if (get(k, MALI_DESC_BLEND, va, b, sizeof b, i))
            break;
        struct mali_blend bl;
        mali_blend_unpack(b, &bl);
        if (bl.internal_mode == MALI_BLEND_MODE_SHADER && bl.internal_shader_pc) {
            /* the PC holds the low 32 bits; a blend shader shares the fragment shader's 4 GiB */
            k->depth++;
            walk_shader(k, (shader & ~0xffffffffull) | bl.internal_shader_pc, MALI_SHADER_BLEND);
            k->depth--;
        }
    }
}

/* The draw descriptor at va (kind: which draw it is) and everything it points to; a fragment
 * draw's renderer state is followed by blend descriptors (blend_count, 0 when not known). */
static void walk_draw(walker *k, enum mali_desc_kind kind, uint64_t va, unsigned index, int fragment,
                      unsigned blend_count)
{
    uint8_t b[MALI_DRAW_LENGTH], r[MALI_RENDERER_STATE_LENGTH];
    struct mali_draw d;
    struct mali_renderer_state rs;
    if (get(k, kind, va, b, sizeof b, index))
        return;
    mali_draw_unpack(b, &d);
    k->depth++;
    int have_rs = !get(k, MALI_DESC_RENDERER_STATE, d.state, r, sizeof r, 0);
    if (have_rs) {
        mali_renderer_state_unpack(r, &rs);
        k->depth++;
        walk_shader(k, rs.shader, MALI_SHADER_MAIN);
        /* an IDVS position shader's varying shader; on a fragment shader word 15 is message preloads */
        if (!fragment && rs.secondary_shader)
            walk_shader(k, rs.secondary_shader, MALI_SHADER_SECONDARY);
        k->depth--;
        if (fragment)
            walk_blends(k, d.state, rs.shader, blend_count);
        for (unsigned i = 0; i < rs.uniform_buffer_count; i++) {
            uint8_t u[MALI_UNIFORM_BUFFER_LENGTH];
            get(k, MALI_DESC_UNIFORM_BUFFER, d.uniform_buffers + (uint64_t)MALI_UNIFORM_BUFFER_LENGTH * i, u, sizeof u, i);
        }
        if (rs.uniform_count) {
            uint8_t p[8 * 127];
            get(k, MALI_DESC_PUSH_UNIFORMS, d.push_uniforms, p, 8u * rs.uniform_count, 0);
        }
    }
    if (d.thread_storage) {
        uint8_t ls[MALI_LOCAL_STORAGE_LENGTH];
        get(k, MALI_DESC_LOCAL_STORAGE, d.thread_storage, ls, sizeof ls, 0);
    }
    if (d.viewport) {
        uint8_t vp[MALI_VIEWPORT_LENGTH];
        get(k, MALI_DESC_VIEWPORT, d.viewport, vp, sizeof vp, 0);
    }
    if (have_rs) {
        for (unsigned i = 0; i < rs.texture_count && i < MAX_TABLE && d.textures; i++)
            walk_texture(k, d.textures, i);
        for (unsigned i = 0; i < rs.sampler_count && i < MAX_TABLE && d.samplers; i++) {
            uint8_t s[MALI_SAMPLER_LENGTH];
            get(k, MALI_DESC_SAMPLER, d.samplers + (uint64_t)MALI_SAMPLER_LENGTH * i, s, sizeof s, i);
        }
        for (unsigned i = 0; i < rs.attribute_count && i < MAX_TABLE && d.attributes; i++)
            walk_attribute(k, d.attributes, d.attribute_buffers, i, 0);
        for (unsigned i = 0; i < rs.varying_count && i < MAX_TABLE && d.varyings; i++)
            walk_attribute(k, d.varyings, d.varying_buffers, i, 1);
    }
    k->depth--;
}

static void walk_tiler_context(walker *k, uint64_t va)
{
    uint8_t b[MALI_TILER_CONTEXT_LENGTH];
    struct mali_tiler_context t;
    if (get(k, MALI_DESC_TILER_CONTEXT, va, b, sizeof b, 0))
        return;
    mali_tiler_context_unpack(b, &t);
    if (t.heap) {
        uint8_t h[MALI_TILER_HEAP_LENGTH];
        k->depth++;
        get(k, MALI_DESC_TILER_HEAP, t.heap, h, sizeof h, 0);
        k->depth--;
    }
}

/* The index buffer of a primitive record (indexed draws), up to MALI_WALK_MAX_INDEX_BYTES. */
static void walk_indices(walker *k, const uint8_t *prim)
{
    struct mali_primitive p;
    mali_primitive_unpack(prim, &p);
    static const unsigned size[4] = { 0, 1, 2, 4 };
    unsigned per = size[p.index_type & 3];
    if (p.index_type > MALI_INDEX_TYPE_UINT32 || !per || !p.indices)
        return;
    uint64_t bytes = (uint64_t)p.index_count * per;
    if (bytes > MALI_WALK_MAX_INDEX_BYTES)
        bytes = MALI_WALK_MAX_INDEX_BYTES;
    uint8_t *buf = malloc(bytes);
    if (!buf)
        return;
    k->depth++;
    get(k, MALI_DESC_INDICES, p.indices, buf, bytes, per);
    k->depth--;
    free(buf);
}

/* TILER and INDEXED_VERTEX jobs: invocation, primitive, primitive size, tiler context, draws. */
static void walk_tiler_job(walker *k, uint64_t va, int idvs)
{
    uint8_t b[MALI_PRIMITIVE_LENGTH];
    get(k, MALI_DESC_INVOCATION, va + MALI_TILER_JOB_SECTION_INVOCATION_OFFSET, b, MALI_INVOCATION_LENGTH, 0);
    if (!get(k, MALI_DESC_PRIMITIVE, va + MALI_TILER_JOB_SECTION_PRIMITIVE_OFFSET, b, MALI_PRIMITIVE_LENGTH, 0))
        walk_indices(k, b);
    get(k, MALI_DESC_PRIMITIVE_SIZE, va + MALI_TILER_JOB_SECTION_PRIMITIVE_SIZE_OFFSET, b, MALI_PRIMITIVE_SIZE_LENGTH, 0);
    if (!get(k, MALI_DESC_TILER_POINTER, va + MALI_TILER_JOB_SECTION_TILER_OFFSET, b, MALI_TILER_POINTER_LENGTH, 0)) {
        struct mali_tiler_pointer tp;
        mali_tiler_pointer_unpack(b, &tp);
        k->depth++;
        walk_tiler_context(k, tp.address);
        k->depth--;
    }
    if (idvs) {
        walk_draw(k, MALI_DESC_VERTEX_DRAW, va + MALI_INDEXED_VERTEX_JOB_SECTION_VERTEX_DRAW_OFFSET, 0, 0, 0);
        walk_draw(k, MALI_DESC_FRAGMENT_DRAW, va + MALI_INDEXED_VERTEX_JOB_SECTION_FRAGMENT_DRAW_OFFSET, 0, 1, 0);
    } else {
        walk_draw(k, MALI_DESC_DRAW, va + MALI_TILER_JOB_SECTION_DRAW_OFFSET, 0, 1, 0);
    }
}

/* FRAGMENT job: the framebuffer descriptor its tagged pointer names. */
static void walk_fragment_job(walker *k, uint64_t va)
{
    uint8_t b[MALI_FRAGMENT_JOB_PAYLOAD_LENGTH], fb[MALI_FRAMEBUFFER_PARAMETERS_LENGTH];
    struct mali_fragment_job_payload pl;
    struct mali_framebuffer_pointer ptr;
    struct mali_framebuffer_parameters p;
    if (get(k, MALI_DESC_FRAGMENT_JOB, va + MALI_FRAGMENT_JOB_SECTION_PAYLOAD_OFFSET, b, sizeof b, 0))
        return;
    mali_fragment_job_payload_unpack(b, &pl);
    uint8_t pw[MALI_FRAMEBUFFER_POINTER_LENGTH];
    mali_put_words(pw, (uint32_t[]){ (uint32_t)pl.framebuffer, (uint32_t)(pl.framebuffer >> 32) }, 2);
    mali_framebuffer_pointer_unpack(pw, &ptr);
    k->depth++;
    if (get(k, MALI_DESC_FRAMEBUFFER, ptr.pointer, fb, sizeof fb, 0)) {
        k->depth--;
        return;
    }
    mali_framebuffer_parameters_unpack(fb, &p);
    uint64_t next = ptr.pointer + MALI_FRAMEBUFFER_LENGTH;
    k->depth++;
    if (p.sample_locations) {
        uint8_t sl[MALI_WALK_SAMPLE_LOCATIONS_BYTES];
        get(k, MALI_DESC_SAMPLE_LOCATIONS, p.sample_locations, sl, sizeof sl, 0);
    }
    if (p.has_zs_crc_extension) {
        uint8_t zs[MALI_ZS_CRC_EXTENSION_LENGTH];
        get(k, MALI_DESC_ZS_CRC_EXTENSION, next, zs, sizeof zs, 0);
        next += MALI_ZS_CRC_EXTENSION_LENGTH;
    }
    for (unsigned i = 0; i < p.render_target_count; i++) {  /* at most 16: a 4-bit field */
        uint8_t rt[MALI_RENDER_TARGET_LENGTH];
        get(k, MALI_DESC_RENDER_TARGET, next + (uint64_t)MALI_RENDER_TARGET_LENGTH * i, rt, sizeof rt, i);
    }
    unsigned modes[3] = { p.pre_frame_0, p.pre_frame_1, p.post_frame };
    for (unsigned i = 0; i < 3 && p.frame_shader_dcds; i++)
        if (modes[i] != MALI_PRE_POST_FRAME_SHADER_MODE_NEVER)
            walk_draw(k, MALI_DESC_FRAME_SHADER_DRAW, p.frame_shader_dcds + (uint64_t)MALI_DRAW_LENGTH * i, i, 1,
                      p.render_target_count);
    if (p.tiler)
        walk_tiler_context(k, p.tiler);
    k->depth -= 2;
}

static void walk_job(walker *k, uint64_t va, const struct mali_job_header *h)
{
    uint8_t b[MALI_FRAGMENT_JOB_PAYLOAD_LENGTH];
    k->depth = 1;
    switch (h->type) {
    case MALI_JOB_TYPE_WRITE_VALUE:
        get(k, MALI_DESC_WRITE_VALUE, va + MALI_JOB_HEADER_LENGTH, b, MALI_WRITE_VALUE_JOB_LENGTH, 0);
        break;
    case MALI_JOB_TYPE_CACHE_FLUSH:
        get(k, MALI_DESC_CACHE_FLUSH, va + MALI_JOB_HEADER_LENGTH, b, MALI_CACHE_FLUSH_JOB_LENGTH, 0);
        break;
    case MALI_JOB_TYPE_COMPUTE:
    case MALI_JOB_TYPE_VERTEX:
    case MALI_JOB_TYPE_GEOMETRY:
        get(k, MALI_DESC_COMPUTE_PAYLOAD, va + MALI_JOB_HEADER_LENGTH, b, MALI_COMPUTE_PAYLOAD_LENGTH, 0);
        walk_draw(k, MALI_DESC_DRAW, va + MALI_COMPUTE_JOB_SECTION_DRAW_OFFSET, 0, 0, 0);
        break;
    case MALI_JOB_TYPE_TILER:
        walk_tiler_job(k, va, 0);
        break;
    case MALI_JOB_TYPE_INDEXED_VERTEX:
        walk_tiler_job(k, va, 1);
        break;
    case MALI_JOB_TYPE_FRAGMENT:
        walk_fragment_job(k, va);
        break;
    default:
        break;
    }
}

unsigned mali_walk_chain(const mali_walk *w, uint64_t head, unsigned max_jobs)
{
    walker k = { .w = w };
    unsigned n = 0;
    for (uint64_t va = head; va && n < max_jobs; n++) {
        uint8_t b[MALI_JOB_HEADER_LENGTH];
        struct mali_job_header h;
        k.depth = 0;
        if (get(&k, MALI_DESC_JOB_HEADER, va, b, sizeof b, n))
            break;
        mali_job_header_unpack(b, &h);
        walk_job(&k, va, &h);
        va = h.next;
    }
    return n;
}

int mali_invocation_decode(const struct mali_compute_payload *p, unsigned local[3], unsigned groups[3])
{
    uint32_t inv = p->invocations;
    unsigned start[7] = { 0, p->size_y_shift, p->size_z_shift, p->workgroups_x_shift, p->workgroups_y_shift,
                          p->workgroups_z_shift, 32 };
    for (unsigned i = 0; i < 6; i++) {
        unsigned lo = start[i], hi = start[i + 1];
        if (hi < lo || hi > 32)
            return -1;
        /* a field starting at bit 32 is empty: value 0 (size 1) */
        uint32_t v = lo >= 32 ? 0 : hi - lo >= 32 ? inv : (inv >> lo) & ((1u << (hi - lo)) - 1);
        if (i < 3)
            local[i] = v + 1;
        else
            groups[i - 3] = v + 1;
    }
    return 0;
}

int mali_invocation_decode_graphics(const struct mali_invocation *p, unsigned local[3], unsigned groups[3])
{
    struct mali_compute_payload c = { .invocations = p->invocations, .size_y_shift = p->size_y_shift,
                                      .size_z_shift = p->size_z_shift, .workgroups_x_shift = p->workgroups_x_shift,
                                      .workgroups_y_shift = p->workgroups_y_shift,
                                      .workgroups_z_shift = p->workgroups_z_shift };
    return mali_invocation_decode(&c, local, groups);
}

const char *mali_desc_name(enum mali_desc_kind kind)
{
    static const char *const names[] = {
        [MALI_DESC_JOB_HEADER] = "job header",
        [MALI_DESC_WRITE_VALUE] = "write value",
        [MALI_DESC_CACHE_FLUSH] = "cache flush",
        [MALI_DESC_COMPUTE_PAYLOAD] = "compute payload",
        [MALI_DESC_DRAW] = "draw",
        [MALI_DESC_RENDERER_STATE] = "renderer state",
        [MALI_DESC_SHADER] = "shader",
        [MALI_DESC_UNIFORM_BUFFER] = "uniform buffer",
        [MALI_DESC_PUSH_UNIFORMS] = "push uniforms",
        [MALI_DESC_LOCAL_STORAGE] = "local storage",
        [MALI_DESC_TEXTURE] = "texture",
        [MALI_DESC_SURFACE] = "surface",
        [MALI_DESC_SAMPLER] = "sampler",
        [MALI_DESC_ATTRIBUTE] = "attribute",
        [MALI_DESC_ATTRIBUTE_BUFFER] = "attribute buffer",
        [MALI_DESC_ATTRIBUTE_BUFFER_3D] = "attribute buffer 3D continuation",
        [MALI_DESC_ATTRIBUTE_BUFFER_NPOT] = "attribute buffer NPOT continuation",
        [MALI_DESC_FRAGMENT_JOB] = "fragment job",
        [MALI_DESC_PRIMITIVE] = "primitive",
        [MALI_DESC_INVOCATION] = "invocation",
        [MALI_DESC_PRIMITIVE_SIZE] = "primitive size",
        [MALI_DESC_TILER_POINTER] = "tiler pointer",
        [MALI_DESC_TILER_CONTEXT] = "tiler context",
        [MALI_DESC_TILER_HEAP] = "tiler heap",
        [MALI_DESC_VERTEX_DRAW] = "vertex draw",
        [MALI_DESC_FRAGMENT_DRAW] = "fragment draw",
        [MALI_DESC_FRAME_SHADER_DRAW] = "frame shader draw",
        [MALI_DESC_VIEWPORT] = "viewport",
        [MALI_DESC_BLEND] = "blend",
        [MALI_DESC_VARYING] = "varying",
        [MALI_DESC_VARYING_BUFFER] = "varying buffer",
        [MALI_DESC_FRAMEBUFFER] = "framebuffer",
        [MALI_DESC_ZS_CRC_EXTENSION] = "zs crc extension",
        [MALI_DESC_RENDER_TARGET] = "render target",
        [MALI_DESC_SAMPLE_LOCATIONS] = "sample locations",
        [MALI_DESC_INDICES] = "indices",
    };
    _Static_assert(sizeof names / sizeof names[0] == MALI_DESC_KIND_COUNT, "a descriptor kind has no name");
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "descriptor";
}
