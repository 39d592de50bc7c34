/* Mali job-chain walker (job_walk.h): descriptor layouts from the generated mali_formats.h. */
#include "job_walk.h"

#include <stdlib.h>
#include <string.h>

#include "mali_formats.h"

/* Bounds on what one job may make the walker read (descriptor tables are counted by the
 * renderer state; a corrupt count must not make a dump huge). */
#define MAX_TABLE 256u
#define MAX_SURFACES 64u

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
static void walk_shader(walker *k, uint64_t va)
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
        k->w->visit(k->w->visit_ctx, MALI_DESC_SHADER, va, buf, len, 0, k->depth);
    else if (k->w->missing)
        k->w->missing(k->w->visit_ctx, MALI_DESC_SHADER, va, 0, 0, k->depth);
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

static void walk_attribute(walker *k, uint64_t attrs, uint64_t bufs, unsigned i)
{
    uint8_t a[MALI_ATTRIBUTE_LENGTH], b[MALI_ATTRIBUTE_BUFFER_LENGTH];
    struct mali_attribute at;
    struct mali_attribute_buffer ab;
    if (get(k, MALI_DESC_ATTRIBUTE, attrs + (uint64_t)MALI_ATTRIBUTE_LENGTH * i, a, sizeof a, i))
        return;
    mali_attribute_unpack(a, &at);
    uint64_t va = bufs + (uint64_t)MALI_ATTRIBUTE_BUFFER_LENGTH * at.buffer_index;
    k->depth++;
    if (bufs && !get(k, MALI_DESC_ATTRIBUTE_BUFFER, va, b, sizeof b, at.buffer_index)) {
        mali_attribute_buffer_unpack(b, &ab);
        if (ab.type == MALI_ATTRIBUTE_TYPE_3D_LINEAR)
            get(k, MALI_DESC_ATTRIBUTE_BUFFER_3D, va + MALI_ATTRIBUTE_BUFFER_LENGTH, b, sizeof b, at.buffer_index);
    }
    k->depth--;
}

/* The draw descriptor at va and everything it points to. */
static void walk_draw(walker *k, uint64_t va)
{
    uint8_t b[MALI_DRAW_LENGTH], r[MALI_RENDERER_STATE_LENGTH];
    struct mali_draw d;
    struct mali_renderer_state rs;
    if (get(k, MALI_DESC_DRAW, va, b, sizeof b, 0))
        return;
    mali_draw_unpack(b, &d);
    k->depth++;
    int have_rs = !get(k, MALI_DESC_RENDERER_STATE, d.state, r, sizeof r, 0);
    if (have_rs) {
        mali_renderer_state_unpack(r, &rs);
        k->depth++;
        walk_shader(k, rs.shader);
        k->depth--;
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
    if (have_rs) {
        for (unsigned i = 0; i < rs.texture_count && i < MAX_TABLE && d.textures; i++)
            walk_texture(k, d.textures, i);
        for (unsigned i = 0; i < rs.sampler_count && i < MAX_TABLE && d.samplers; i++) {
            uint8_t s[MALI_SAMPLER_LENGTH];
            get(k, MALI_DESC_SAMPLER, d.samplers + (uint64_t)MALI_SAMPLER_LENGTH * i, s, sizeof s, i);
        }
        for (unsigned i = 0; i < rs.attribute_count && i < MAX_TABLE && d.attributes; i++)
            walk_attribute(k, d.attributes, d.attribute_buffers, i);
    }
    k->depth--;
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
        walk_draw(k, va + MALI_JOB_HEADER_LENGTH + MALI_COMPUTE_PAYLOAD_LENGTH);
        break;
    case MALI_JOB_TYPE_TILER:
        get(k, MALI_DESC_PRIMITIVE, va + MALI_TILER_JOB_SECTION_PRIMITIVE_OFFSET, b, MALI_PRIMITIVE_LENGTH, 0);
        walk_draw(k, va + MALI_TILER_JOB_SECTION_DRAW_OFFSET);
        break;
    case MALI_JOB_TYPE_FRAGMENT:
        get(k, MALI_DESC_FRAGMENT_JOB, va + MALI_FRAGMENT_JOB_SECTION_PAYLOAD_OFFSET, b, MALI_FRAGMENT_JOB_PAYLOAD_LENGTH, 0);
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
        [MALI_DESC_FRAGMENT_JOB] = "fragment job",
        [MALI_DESC_PRIMITIVE] = "primitive",
    };
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "descriptor";
}
