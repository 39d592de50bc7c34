/* Bifrost texture and image messages: descriptor parsing, texel formats, nearest and linear
 * sampling and typed stores.  Layouts (Mesa's genxml v6/v7, bifrost.h, read for facts):
 *   Texture (32 B): w0 type[3:0] dimension[5:4] normalize[9] pixel format[31:10]; w1 width-1,
 *     height-1 (16 bits each); w2 swizzle[11:0] texel ordering[15:12] levels-1[20:16] minimum
 *     level[28:24]; w4-5 surfaces; w6 array size-1; w7 depth-1.
 *   Surface with stride (16 B): pointer, row stride, surface stride.
 *   Sampler (32 B): w0 wrap R[11:8] T[15:12] S[19:16], clamp integer coordinates[24], normalized
 *     coordinates[25], clamp integer array indices[26], minify nearest[27], magnify nearest[28];
 *     w4-7 border colour.
 *   Attribute (8 B): buffer index[8:0], offset enable[9], pixel format[31:10], offset (w1).
 *   Attribute buffer (16 B): type[5:0] pointer[55:6] (64-byte aligned), stride, size; a 3D buffer
 *     is followed by a continuation record: dimensions-1 (16 bits each), row stride, slice stride.
 *   Pixel format (22 bits): format[19:12], sRGB[20]; v6: swizzle[11:0] (3 bits per channel:
 *     R G B A 0 1); v7: RGB component order[7:0]. */
#include "bifrost_tex.h"
#include "bifrost_exec.h"
#include "gfx_layout.h"
#include "gfx_pixel.h"
#include "mali_formats.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_UNORM, K_SNORM, K_UINT, K_SINT, K_FLOAT };
enum { CH_ZERO = 4, CH_ONE = 5 };
enum { OP_GRDESC_DER = 4, OP_GRDESC = 5, OP_FETCH = 6, OP_TEX = 7 };
enum { LOD_GRDESC = 3, LOD_EXPLICIT = 4, LOD_BIAS = 5, LOD_ZERO = 6, LOD_COMPUTE = 7 };
enum { WRAP_NONE = 0 /* ours: indices kept (a seamless cube footprint resolves them across faces) */,
       WRAP_REPEAT = 8, WRAP_EDGE = 9, WRAP_BORDER = 11, WRAP_MIRROR = 12 };
enum { MIPMAP_TRILINEAR = 3 };

/* Sub-texel precision of linear filtering: the fraction between two texels is quantised to
 * 2^-SUBTEXEL_BITS (round to nearest) before it weights them.  Arm publishes no figure for
 * Bifrost; 8 bits is what D3D10+ requires at least and what Mesa's panvk reports to Vulkan
 * applications as subTexelPrecisionBits on Bifrost and Valhall (a driver's promise about the
 * hardware, a lower bound).  The one place the choice lives. */
enum { SUBTEXEL_BITS = 8 };

typedef struct {
    unsigned ncomp, bits, kind;     /* channels in memory order, bits per channel (the widest) */
    uint8_t cbits[4];               /* each channel's width, from the texel's least significant bit */
    unsigned bpp;                   /* bytes per texel */
    uint8_t map[4];                 /* result channel c <- memory channel map[c] or CH_ZERO/ONE */
    uint8_t srgb;                   /* 8-bit unorm with the sRGB bit: R, G, B decoded to linear */
    gfx_unpack_fn unpack;           /* packed formats read through gfx_pixel (all 4 channels) */
    gfx_pack_fn pack;               /* and written through it (ST_CVT) */
} pixfmt;

static int tfail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen)
        vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return rc;
}

static inline float f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t u32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* The range map gave last, per host thread, for reads [0] and writes [1]: kept while the
 * memory's map_gen and epoch say its ranges stay valid (texels and descriptors of one message's
 * lanes are mostly on one page: one map call instead of one per lane and texel). */
static __thread struct {
    const bi_mem *m;
    uint64_t gen, epoch, lo, hi;
    uint8_t *host;                          /* host address of guest address lo */
} last_map[2];

/* Host bytes of [va, va + n) from bi_mem.map (write: 0 read, 1 write) when one mapped range
 * holds them, else NULL: the caller then goes through read / write, which report any fault as
 * before (a mapped access is one the callbacks would have done without a fault). */
static inline uint8_t *mapped(const bi_mem *m, uint64_t va, unsigned n, int write)
{
    if (!m->map)
        return NULL;
    uint64_t gen = m->map_gen ? __atomic_load_n(m->map_gen, __ATOMIC_ACQUIRE) : 0;
    typeof(last_map[0]) *c = &last_map[write];
    if (m->map_gen && c->m == m && c->gen == gen && c->epoch == m->epoch && va >= c->lo && va <= c->hi &&
        c->hi - va >= n)
        return c->host + (va - c->lo);
    uint64_t lo = 1, hi = 0;
    uint8_t *h = m->map(m->ctx, va, write, &lo, &hi);
    if (!h || va < lo || va > hi || hi - va < n)
        return NULL;
    if (m->map_gen) {
        c->m = m;
        c->gen = gen;
        c->epoch = m->epoch;
        c->lo = lo;
        c->hi = hi;
        c->host = h - (va - lo);
    }
    return h;
}

/* m->read through the mapping when there is one: one map look-up, no copy through the callbacks */
static inline int mem_read(const bi_mem *m, uint64_t va, void *buf, unsigned n)
{
    const uint8_t *h = mapped(m, va, n, 0);
    if (h) {
        memcpy(buf, h, n);
        return 0;
    }
    return m->read(m->ctx, va, buf, n);
}

/* A descriptor's bytes to compare with a memo: in guest memory when mapped, else read into buf;
 * NULL: a fault (reported by m->read).  A memo miss copies them to buf first (decoded once). */
static inline const uint8_t *desc_bytes(const bi_mem *m, uint64_t va, uint8_t *buf, unsigned n)
{
    const uint8_t *h = mapped(m, va, n, 0);
    if (h)
        return h;
    return m->read(m->ctx, va, buf, n) ? NULL : buf;
}

/* Mali format numbers of the uncompressed colour formats handled: n channels of b bits. */
static int format_info(unsigned f, pixfmt *p)
{
    static const struct { uint8_t id, n, bits, kind; } t[] = {
        { 163, 1, 8, K_UNORM }, { 171, 2, 8, K_UNORM }, { 187, 4, 8, K_UNORM },
        { 164, 1, 16, K_UNORM }, { 172, 2, 16, K_UNORM }, { 188, 4, 16, K_UNORM },
        { 99, 1, 8, K_SNORM }, { 107, 2, 8, K_SNORM }, { 123, 4, 8, K_SNORM },
        { 100, 1, 16, K_SNORM }, { 108, 2, 16, K_SNORM }, { 124, 4, 16, K_SNORM },
        { 131, 1, 8, K_UINT }, { 139, 2, 8, K_UINT }, { 155, 4, 8, K_UINT },
        { 132, 1, 16, K_UINT }, { 140, 2, 16, K_UINT }, { 156, 4, 16, K_UINT },
        { 133, 1, 32, K_UINT }, { 141, 2, 32, K_UINT }, { 157, 4, 32, K_UINT },
        { 195, 1, 8, K_SINT }, { 203, 2, 8, K_SINT }, { 219, 4, 8, K_SINT },
        { 196, 1, 16, K_SINT }, { 204, 2, 16, K_SINT }, { 220, 4, 16, K_SINT },
        { 197, 1, 32, K_SINT }, { 205, 2, 32, K_SINT }, { 221, 4, 32, K_SINT },
        { 199, 1, 16, K_FLOAT }, { 207, 2, 16, K_FLOAT }, { 223, 4, 16, K_FLOAT },
        { 167, 1, 32, K_FLOAT }, { 175, 2, 32, K_FLOAT }, { 191, 4, 32, K_FLOAT },
        /* v7's depth formats (Mesa's pan_format.c: Z16_UNORM textures; v6 uses R16_UNORM) */
        { 75, 1, 16, K_UNORM },
        /* three channels: vertex attributes (LD_ATTR) */
        { 179, 3, 8, K_UNORM }, { 180, 3, 16, K_UNORM }, { 115, 3, 8, K_SNORM }, { 116, 3, 16, K_SNORM },
        { 147, 3, 8, K_UINT }, { 148, 3, 16, K_UINT }, { 149, 3, 32, K_UINT },
        { 211, 3, 8, K_SINT }, { 212, 3, 16, K_SINT }, { 213, 3, 32, K_SINT },
        { 215, 3, 16, K_FLOAT }, { 183, 3, 32, K_FLOAT },
        /* Snap 4: RGBA32F that IDVS position shaders store (the tiler snaps; assumption: the
         * store itself keeps the values) */
        { 94, 4, 32, K_FLOAT },
        /* Constant: a varying no later stage reads (Mesa gives unused vertex outputs this
         * format): stores to it write nothing, loads read zero */
        { 95, 0, 32, K_FLOAT },
    };
    *p = (pixfmt){ .ncomp = 0 };
    for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++)
        if (t[i].id == f) {
            p->ncomp = t[i].n;
            p->bits = t[i].bits;
            p->kind = t[i].kind;
            for (unsigned c = 0; c < 4; c++)
                p->cbits[c] = c < t[i].n ? t[i].bits : 0;
            p->bpp = t[i].n * t[i].bits / 8;
            return 0;
        }
    if (f == 67) {      /* RGB10_A2 UNORM: 10, 10, 10, 2 bits in one word (Mesa's R10G10B10A2_UNORM) */
        *p = (pixfmt){ .ncomp = 4, .bits = 10, .kind = K_UNORM, .cbits = { 10, 10, 10, 2 }, .bpp = 4 };
        return 0;
    }
    if (f == MALI_FORMAT_Z24X8_UNORM) {   /* depth textures Z24S8 / Z24X8: unorm24 depth, 8 bits unread */
        *p = (pixfmt){ .ncomp = 1, .bits = 24, .kind = K_UNORM, .cbits = { 24 }, .bpp = 4 };
        return 0;
    }
    /* the packed colour formats (RGB565, RGB5A1, RGBA4, RGB10A2UI, R11G11B10F, ...) through
     * gfx_pixel's unpack: GL's conversions, every channel (missing ones 0, 0, 0, 1) */
    const gfx_format_info *gi = gfx_format_get(gfx_format_from_mali(f, 0));
    if (gi) {
        static const uint8_t kinds[] = { [GFX_KIND_UNORM] = K_UNORM, [GFX_KIND_FLOAT] = K_FLOAT,
                                         [GFX_KIND_UINT] = K_UINT, [GFX_KIND_SINT] = K_SINT };
        *p = (pixfmt){ .ncomp = 4, .bits = 32, .kind = kinds[gi->kind], .bpp = gi->bpp, .unpack = gi->unpack,
                       .pack = gi->pack };
        for (unsigned c = 0; c < 4; c++)
            p->cbits[c] = gi->bits[c];
        return 0;
    }
    return -1;
}

/* Decodes a 22-bit pixel format (arch 6: swizzle, 7: component order). */
static int pixel_format(unsigned arch, uint32_t pf, pixfmt *p, char *err, size_t errlen)
{
    unsigned f = (pf >> 12) & 0xff;
    if (format_info(f, p))
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "texture/image format %u (pixel format %#x) not implemented", f, pf);
    if (pf & (1u << 21))
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "big-endian pixel format %#x not implemented", pf);
    if (pf & (1u << 20)) {      /* sRGB: the 8-bit unorm colour formats (GL's sRGB textures) */
        if (p->kind != K_UNORM || p->bits != 8 || p->unpack)
            return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "sRGB pixel format %#x not implemented", pf);
        p->srgb = 1;
    }
    if (arch <= 6) {
        for (unsigned c = 0; c < 4; c++) {
            unsigned s = (pf >> (3 * c)) & 7;
            if (s > CH_ONE)
                return tfail(err, errlen, BI_EXEC_ERROR, "reserved swizzle in pixel format %#x", pf);
            p->map[c] = (uint8_t)s;
        }
    } else {
        static const struct { uint8_t order, map[4]; } o[] = {
            { 0, { 0, 1, 2, 3 } }, { 4, { 2, 1, 0, 3 } }, { 16, { 0, 1, 2, CH_ONE } }, { 20, { 2, 1, 0, CH_ONE } },
            /* luminance / intensity views of one-channel formats (pan_format.c: L16F is R16F
             * RRR1, I16F R16F RRRR), and the constant orders */
            { 226, { 0, 0, 0, 0 } }, { 227, { 0, 0, 0, CH_ONE } },
            { 230, { CH_ZERO, CH_ZERO, CH_ZERO, CH_ONE } }, { 231, { CH_ZERO, CH_ZERO, CH_ZERO, CH_ZERO } },
        };
        unsigned order = pf & 0xfff, i;
        for (i = 0; i < sizeof(o) / sizeof(o[0]) && o[i].order != order; i++)
            ;
        if (i == sizeof(o) / sizeof(o[0]))
            return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "RGB component order %u not implemented", order);
        memcpy(p->map, o[i].map, 4);
    }
    /* channels the format lacks read as 0 (1 for alpha) */
    for (unsigned c = 0; c < 4; c++)
        if (p->map[c] < 4 && p->map[c] >= p->ncomp)
            p->map[c] = p->map[c] == 3 ? CH_ONE : CH_ZERO;
    return 0;
}

/* The keys of a per-host-thread memo of decoded values (formats, descriptors, conversions):
 * MEMO_N entries, each up to MEMO_KEY bytes and a tag (the GPU's architecture, or 0); the entry
 * hit last is tried first (the lanes of a message mostly share one), new ones replace the oldest.
 * The values are the caller's array, indexed alike.  Only values that decode are added. */
#define MEMO_N 4
#define MEMO_KEY 32                   /* the largest key: a texture or sampler descriptor */
typedef struct {
    uint8_t key[MEMO_N][MEMO_KEY];
    uint32_t tag[MEMO_N];
    uint8_t valid[MEMO_N];
    unsigned next, last;
} memo;

static inline int memo_hit(const memo *mm, unsigned k, const void *key, size_t n, uint32_t tag)
{
    return mm->valid[k] && mm->tag[k] == tag && !memcmp(mm->key[k], key, n);
}

/* the entry of (key, tag), or -1 */
static inline int memo_find(memo *mm, const void *key, size_t n, uint32_t tag)
{
    if (memo_hit(mm, mm->last, key, n, tag))
        return (int)mm->last;
    for (unsigned k = 0; k < MEMO_N; k++)
        if (memo_hit(mm, k, key, n, tag))
            return (int)(mm->last = k);
    return -1;
}

/* a new entry for (key, tag), the oldest's: the caller sets its value */
static inline unsigned memo_add(memo *mm, const void *key, size_t n, uint32_t tag)
{
    unsigned k = mm->next++ % MEMO_N;
    memcpy(mm->key[k], key, n);
    mm->tag[k] = tag;
    mm->valid[k] = 1;
    return mm->last = k;
}

/* pixel_format of the formats decoded lately on this host thread: LEA_ATTR* resolves its
 * attribute's format for every lane */
static __thread memo pf_keys;
static __thread pixfmt pf_memo[MEMO_N];

static int pixel_format_memo(unsigned arch, uint32_t pf, pixfmt *p, char *err, size_t errlen)
{
    int k = memo_find(&pf_keys, &pf, sizeof pf, arch);
    if (k < 0) {
        int rc = pixel_format(arch, pf, p, err, errlen);
        if (rc)
            return rc;
        k = (int)memo_add(&pf_keys, &pf, sizeof pf, arch);
        pf_memo[k] = *p;
    }
    *p = pf_memo[k];
    return 0;
}

static uint32_t half_to_float_bits(uint16_t h) { return bi_f16_to_f32(h); }

/* One texel's memory channels -> 4 values (float bits for float kinds, else 32-bit integers). */
/* Bits [off, off + n) of a little-endian texel (n <= 32). */
static uint32_t texel_bits(const uint8_t *b, unsigned off, unsigned n)
{
    uint64_t w = 0;
    for (unsigned k = 0; k < 5 && off / 8 + k < 16; k++)
        w |= (uint64_t)b[off / 8 + k] << (8 * k);
    w >>= off % 8;
    return (uint32_t)(n == 32 ? w : w & ((1ull << n) - 1));
}

static void set_texel_bits(uint8_t *b, unsigned off, unsigned n, uint32_t v)
{
    for (unsigned i = 0; i < n; i++, off++)
        b[off / 8] = (uint8_t)((b[off / 8] & ~(1u << off % 8)) | ((v >> i) & 1u) << off % 8);
}

/* 8-bit UNORM channels as float bits: decode_texel's formula for every byte, made once */
static uint32_t unorm8_bits[256];

__attribute__((constructor)) static void unorm8_init(void)
{
    for (unsigned i = 0; i < 256; i++)
        unorm8_bits[i] = u32((float)((double)i / 255u));
}

/* sRGB 8-bit values as linear float bits (GL ES 3.2 eq. 8.17), made once */
static uint32_t srgb8_bits[256];

__attribute__((constructor)) static void srgb8_init(void)
{
    for (unsigned i = 0; i < 256; i++)
        srgb8_bits[i] = u32(gfx_srgb_decode((float)((double)i / 255u)));
}

static inline void decode_texel(const pixfmt *p, const uint8_t *b, uint32_t v[4])
{
    if (p->unpack) {
        gfx_color c;
        p->unpack(b, &c);
        memcpy(v, c.u, 16);
        return;
    }
    if (p->kind == K_UNORM && p->bits == 8) {
        for (unsigned c = 0; c < p->ncomp; c++)   /* sRGB: colour channels, alpha (the 4th) linear */
            v[c] = p->srgb && c < 3 ? srgb8_bits[b[c]] : unorm8_bits[b[c]];
        return;
    }
    if (p->bits == 32) {        /* 32-bit integer / float channels are their bits (little-endian host) */
        memcpy(v, b, 4 * p->ncomp);
        return;
    }
    for (unsigned c = 0, off = 0; c < p->ncomp; off += p->cbits[c], c++) {
        unsigned w = p->cbits[c];
        /* whole-byte channels straight from their bytes, others bit by bit */
        uint32_t raw = w == 8    ? b[off / 8]
                       : w == 16 ? (uint32_t)b[off / 8] | (uint32_t)b[off / 8 + 1] << 8
                       : w == 32 ? (uint32_t)b[off / 8] | (uint32_t)b[off / 8 + 1] << 8 |
                                       (uint32_t)b[off / 8 + 2] << 16 | (uint32_t)b[off / 8 + 3] << 24
                                 : texel_bits(b, off, w);
        uint32_t max = w == 32 ? 0xffffffffu : (1u << w) - 1;
        int32_t s = w == 32 ? (int32_t)raw : (int32_t)(raw << (32 - w)) >> (32 - w);
        switch (p->kind) {
        case K_UNORM: v[c] = u32((float)((double)raw / max)); break;
        case K_SNORM: {
            double q = (double)s / (double)(max >> 1);
            v[c] = u32((float)(q < -1.0 ? -1.0 : q));
            break;
        }
        case K_UINT: v[c] = raw; break;
        case K_SINT: v[c] = (uint32_t)s; break;
        default: v[c] = w == 16 ? half_to_float_bits((uint16_t)raw) : raw; break;
        }
    }
}

static int kind_is_float(unsigned k) { return k == K_UNORM || k == K_SNORM || k == K_FLOAT; }

/* ---- texture descriptor ----------------------------------------------------------------------- */

typedef struct {
    unsigned dim, width, height, depth, layers, levels, ordering;
    unsigned samples;           /* per texel: a multisampled texture has a surface per sample */
    uint8_t swz[4];
    uint8_t chan[4];            /* result channel c <- memory channel chan[c] or CH_ZERO / CH_ONE:
                                   the format's channel order, then the texture swizzle */
    pixfmt fmt;
    uint64_t surfaces;
} texdesc;

/* Descriptors decoded lately on this host thread, by their bytes: a texel still reads its
 * descriptors from memory every time (a changed one is decoded again), only the unpacking and
 * checks of the same bytes are saved. */
_Static_assert(MALI_TEXTURE_LENGTH <= MEMO_KEY && MALI_SAMPLER_LENGTH <= MEMO_KEY &&
               MALI_SURFACE_WITH_STRIDE_LENGTH <= MEMO_KEY, "descriptors are memo keys");
static __thread memo tex_keys, smp_keys, surf_keys;
static __thread texdesc tex_memo[MEMO_N];
static __thread struct mali_sampler smp_memo[MEMO_N];
static __thread struct mali_surface_with_stride surf_memo[MEMO_N];

static int decode_texture(const bi_mem *m, unsigned index, const uint8_t *d, texdesc *t, char *err, size_t errlen);

/* *t: the decoded descriptor, in the memo (valid until the next read_texture on this thread) */
static int read_texture(const bi_mem *m, unsigned index, const texdesc **t, char *err, size_t errlen)
{
    uint8_t buf[MALI_TEXTURE_LENGTH];
    if (!m->textures)
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "texture %u: the job has no texture table", index);
    uint64_t va = m->textures + (uint64_t)MALI_TEXTURE_LENGTH * index;
    const uint8_t *d = desc_bytes(m, va, buf, sizeof buf);
    if (!d)
        return tfail(err, errlen, BI_EXEC_ERROR, "texture descriptor fault at %#llx", (unsigned long long)va);
    int k = memo_find(&tex_keys, d, sizeof buf, m->arch_major);
    if (k >= 0) {
        *t = &tex_memo[k];
        return 0;
    }
    texdesc nt;
    if (d != buf)
        d = memcpy(buf, d, sizeof buf);
    int rc = decode_texture(m, index, d, &nt, err, errlen);
    if (!rc) {
        k = (int)memo_add(&tex_keys, d, sizeof buf, m->arch_major);
        tex_memo[k] = nt;
        *t = &tex_memo[k];
    }
    return rc;
}

static int decode_texture(const bi_mem *m, unsigned index, const uint8_t *d, texdesc *t, char *err, size_t errlen)
{
    struct mali_texture td;
    mali_texture_unpack(d, &td);
    if (td.type != 2)
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "texture %u: descriptor type %u is not a texture", index, td.type);
    t->dim = td.dimension;
    t->width = td.width;
    t->height = td.height;
    t->ordering = td.texel_ordering;
    t->levels = td.levels;
    t->surfaces = td.surfaces;
    t->layers = td.array_size;
    t->depth = td.depth;
    if (td.sample_corner_position || td.normalize_coordinates)
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "texture corner sampling / descriptor-normalized coordinates not implemented");
    if (td.minimum_level)
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "texture minimum level %u not implemented", td.minimum_level);
    if (t->ordering != MALI_TEXTURE_LAYOUT_LINEAR && t->ordering != MALI_TEXTURE_LAYOUT_TILED)
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "texel ordering %u not implemented (linear and U-interleaved only)", t->ordering);
    t->samples = 1u << td.sample_count_log2;
    if (t->samples > 16)
        return tfail(err, errlen, BI_EXEC_ERROR, "texture %u: %u samples", index, t->samples);
    for (unsigned c = 0; c < 4; c++) {
        t->swz[c] = (uint8_t)((td.swizzle >> (3 * c)) & 7);
        if (t->swz[c] > CH_ONE)
            return tfail(err, errlen, BI_EXEC_ERROR, "texture %u: reserved swizzle %#x", index, td.swizzle);
    }
    int rc = pixel_format(m->arch_major, td.format, &t->fmt, err, errlen);
    for (unsigned c = 0; c < 4; c++)
        t->chan[c] = t->swz[c] < 4 ? t->fmt.map[t->swz[c]] : t->swz[c];
    return rc;
}

/* Reads the texel (x, y, z) of (layer, level), already in range, into v[4] (memory channels).
 * The surfaces as panfrost writes them (pan_texture.c, pan_emit_iview_texture_payload), level 0 the
 * view's base, a cube's face f of cube c being layer 6c + f: v7 one Surface With Stride per level
 * inside one per layer (faces are layers); v6 per level inside one per cube, the six faces inside
 * each level.  A multisampled texture has a surface per sample: on v7 the samples of a layer
 * outside its levels, on v6 inside each level (there are no multisampled cubes). */
static int fetch_texel(const bi_mem *m, const texdesc *t, unsigned x, unsigned y, unsigned z, unsigned layer,
                       unsigned level, unsigned sample, uint32_t v[4], char *err, size_t errlen)
{
    uint8_t sbuf[MALI_SURFACE_WITH_STRIDE_LENGTH], b[16];
    uint64_t idx = t->dim == MALI_TEXTURE_DIMENSION_CUBE && m->arch_major <= 6
                   ? ((uint64_t)(layer / 6) * t->levels + level) * 6 + layer % 6
                   : m->arch_major <= 6 ? ((uint64_t)layer * t->levels + level) * t->samples + sample
                                        : ((uint64_t)layer * t->samples + sample) * t->levels + level;
    uint64_t sva = t->surfaces + (uint64_t)MALI_SURFACE_WITH_STRIDE_LENGTH * idx;
    const uint8_t *s = desc_bytes(m, sva, sbuf, sizeof sbuf);
    if (!s)
        return tfail(err, errlen, BI_EXEC_ERROR, "surface descriptor fault at %#llx", (unsigned long long)sva);
    int k = memo_find(&surf_keys, s, sizeof sbuf, 0);
    if (k < 0) {
        if (s != sbuf)
            s = memcpy(sbuf, s, sizeof sbuf);
        k = (int)memo_add(&surf_keys, s, sizeof sbuf, 0);
        mali_surface_with_stride_unpack(s, &surf_memo[k]);
    }
    const struct mali_surface_with_stride *sd = &surf_memo[k];
    /* the surface stride steps through 3D slices (a "sample" plane of gfx_layout); U-interleaved
     * surfaces have their row stride per row of 16x16 tiles */
    const gfx_surface gs = { .base = sd->pointer, .row_stride = sd->row_stride, .sample_stride = sd->surface_stride,
                             .bpp = t->fmt.bpp, .tiled = t->ordering == MALI_TEXTURE_LAYOUT_TILED };
    unsigned bpp = t->fmt.bpp;
    uint64_t a = sd->pointer + (uint64_t)gfx_surface_offset(&gs, x, y, z);
    const uint8_t *h = mapped(m, a, bpp, 0);
    if (h && t->fmt.bits % 8) {      /* texel_bits may read past the texel: from a copy */
        memcpy(b, h, bpp);
        h = b;
    } else if (!h) {
        if (m->read(m->ctx, a, b, bpp))
            return tfail(err, errlen, BI_EXEC_ERROR, "texel fault at %#llx", (unsigned long long)a);
        h = b;
    }
    decode_texel(&t->fmt, h, v);
    return 0;
}

/* ---- coordinates ------------------------------------------------------------------------------ */

/* Nearest texel index along one axis for coordinate u (texels), or -1 when a border texel. */
static long wrap(long i, unsigned n, unsigned mode)
{
    if (i >= 0 && i < (long)n)      /* inside: every mode keeps it (no divisions) */
        return i;
    switch (mode) {
    case WRAP_REPEAT: {     /* i mod n in [0, n): one division */
        long r = i % (long)n;
        return r < 0 ? r + (long)n : r;
    }
    case WRAP_MIRROR: {
        long p = i % (2 * (long)n);
        p = p < 0 ? p + 2 * (long)n : p;
        return p < (long)n ? p : 2 * (long)n - 1 - p;
    }
    case WRAP_BORDER: return i < 0 || i >= (long)n ? -1 : i;
    case WRAP_NONE: return i;
    default: return i < 0 ? 0 : i >= (long)n ? (long)n - 1 : i;
    }
}

/* float coordinate -> integer texel (floor), exact in double for |s| < 2^31 */
static long texel_of(uint32_t sbits, unsigned n, int normalized)
{
    double u = f32(sbits);
    if (normalized)
        u *= n;
    if (u != u)
        return 0;       /* assumption: NaN coordinates select texel 0 */
    if (u < -2147483648.0)
        u = -2147483648.0;
    if (u > 2147483647.0)
        u = 2147483647.0;
    long l = (long)u;               /* floor without the library call: exact in this range */
    return l - (l > u);
}

/* Linear filtering along one axis (OpenCL "Addressing and filter modes"): u = s (x size when
 * normalized), i0 = floor(u - 0.5), a = frac(u - 0.5) quantised to SUBTEXEL_BITS; i0 + off and
 * i0 + 1 + off wrapped per mode into i[0..1] (-1: border), the weight of i[1] in *a. */
static void linear_axis(uint32_t sbits, unsigned n, int normalized, int off, unsigned mode, long i[2], double *a)
{
    double u = f32(sbits);
    if (normalized)
        u *= n;
    if (u != u)
        u = 0;          /* assumption: NaN coordinates sample at 0, like nearest's texel 0 */
    if (u < -2147483648.0)
        u = -2147483648.0;
    if (u > 2147483647.0)
        u = 2147483647.0;
    /* (u - 0.5) in fixed point with SUBTEXEL_BITS fraction bits, rounded to nearest: exact in
     * double (|u| < 2^31), floor without the library call as in texel_of */
    double q = (u - 0.5) * (1 << SUBTEXEL_BITS) + 0.5;
    int64_t fx = (int64_t)q;
    fx -= fx > q;
    long i0 = (long)(fx >> SUBTEXEL_BITS) + off;
    *a = (double)(fx & ((1 << SUBTEXEL_BITS) - 1)) / (1 << SUBTEXEL_BITS);
    i[0] = wrap(i0, n, mode);
    i[1] = wrap(i0 + 1, n, mode);
}

int bi_tex_staging_count(uint32_t desc)
{
    unsigned op = (desc >> 12) & 7, dim = (desc >> 18) & 3, lod = (desc >> 20) & 7;
    unsigned n = 0;
    if (op < OP_GRDESC_DER)
        return -1;
    if (op == OP_GRDESC_DER) {        /* derivatives: d/dx's z, d/dy's 1-3 (x and y are d/dx's) */
        n += (dim == 3) + (dim == 3 ? 3 : dim == 2 ? 2 : 1);
    } else {
        n += dim == 3;                                                /* Z coordinate */
    }
    if (op == OP_TEX || op == OP_FETCH) {  /* (GRDESC*: bits 15, 16 disable the LOD's bias, clamp) */
        n += op == OP_FETCH || lod == LOD_EXPLICIT || lod == LOD_BIAS;    /* LOD */
        n += op == OP_TEX && lod == LOD_GRDESC ? 2 : 0;                   /* gradient descriptor */
        n += (desc >> 16) & 1;                                            /* shadow reference */
        n += (desc >> 17) & 1;                                            /* array index */
        n += (desc >> 15) & 1;                                            /* offsets / sample */
    }
    if (!((desc >> 11) & 1)) {
        unsigned mode = desc & 3;
        n += mode == 2 || mode == 3;                                  /* sampler index */
        n += mode == 1 || mode == 3;                                  /* texture index */
    }
    return (int)n;
}

uint32_t bi_tex_texs_desc(unsigned tex_index, unsigned sampler_index, int f16, int zero_lod)
{
    return (sampler_index & 15) | (tex_index & 127) << 4 | 1u << 11 | (uint32_t)OP_TEX << 12 | 2u << 18 |
           (uint32_t)(zero_lod ? LOD_ZERO : LOD_COMPUTE) << 20 | (f16 ? 0u : 4u) << 24 | 0xfu << 28;
}

int bi_tex_dual_split(uint32_t desc, int fragment, uint32_t *d1, uint32_t *d2, unsigned *reg2)
{
    if ((desc >> 11) & 1 || ((desc >> 2) & 3) != 1)
        return 0;
    /* layout (Mesa's bifrost_dual_texture_operation): primary sampler [1:0], mode [3:2], primary
     * texture [5:4], secondary sampler [7:6] and texture [9:8], [11:10] zero, secondary register
     * [17:12], secondary format [20:18] and mask [24:21], primary format [27:25] and mask [31:28]
     * (formats: TEXC's result formats 0-7, F16 and F32 with their clamps) */
    unsigned lod = fragment ? LOD_COMPUTE : LOD_ZERO;
    uint32_t common = 1u << 11 | (uint32_t)OP_TEX << 12 | 2u << 18 | lod << 20;
    *d1 = common | (desc & 3) | ((desc >> 4) & 3) << 4 | ((desc >> 25) & 7) << 24 | (desc >> 28) << 28;
    *d2 = common | ((desc >> 6) & 3) | ((desc >> 8) & 3) << 4 | ((desc >> 18) & 7) << 24 | ((desc >> 21) & 15) << 28;
    *reg2 = (desc >> 12) & 63;
    return 1;
}

/* The border colour as a texel's memory channels (see the border case in bi_tex_texc) */
static void border_texel(const struct mali_sampler *sp, uint32_t v[4])
{
    v[0] = sp->border_color_r;
    v[1] = sp->border_color_g;
    v[2] = sp->border_color_b;
    v[3] = sp->border_color_a;
}

/* What one lookup samples: the texture's level and layer, the sampler, and the depth reference
 * of a shadow lookup (cmp != 0: each texel's first channel becomes func(texel, ref) before
 * filtering, as percentage-closer filtering does). */
typedef struct {
    const bi_mem *m;
    const texdesc *t;
    const struct mali_sampler *sp;
    unsigned dim, layer, level, sample;
    unsigned size[3];                   /* the level's size per axis */
    int cmp;
    float ref;
    int seamless;                       /* a cube face with seamless filtering: lk->layer is 6c + face */
} lookup;

/* Mali compare functions (genxml Func).  Panfrost programs the GL function with its operands
 * swapped (pan_cmdstream.c flips LESS / GREATER), so the texel is the left operand. */
static int compare(unsigned func, float texel, float ref)
{
    switch (func) {
    case MALI_FUNC_NEVER: return 0;
    case MALI_FUNC_LESS: return texel < ref;
    case MALI_FUNC_EQUAL: return texel == ref;
    case MALI_FUNC_LEQUAL: return texel <= ref;
    case MALI_FUNC_GREATER: return texel > ref;
    case MALI_FUNC_NOT_EQUAL: return texel != ref;
    case MALI_FUNC_GEQUAL: return texel >= ref;
    default: return 1;
    }
}

/* One texel of the lookup in `layer` (an index < 0: the border colour), shadow compare applied. */
static int layer_texel(const lookup *lk, unsigned layer, const long at[3], uint32_t v[4], char *err, size_t errlen)
{
    if (at[0] < 0 || at[1] < 0 || at[2] < 0) {
        border_texel(lk->sp, v);
    } else {
        int rc = fetch_texel(lk->m, lk->t, (unsigned)at[0], (unsigned)at[1], (unsigned)at[2], layer, lk->level, lk->sample, v,
                             err, errlen);
        if (rc)
            return rc;
    }
    if (lk->cmp)
        v[0] = compare(lk->sp->compare_function, f32(v[0]), lk->ref) ? 0x3f800000u : 0;
    return 0;
}

/* One texel of the lookup's layer. */
static int lookup_texel(const lookup *lk, const long at[3], uint32_t v[4], char *err, size_t errlen)
{
    return layer_texel(lk, lk->layer, at, v, err, errlen);
}

/* ---- seamless cube maps ----------------------------------------------------------------------- */

/* GL's cube faces (GL ES 3.2 table 8.19, faces +X -X +Y -Y +Z -Z): the direction (rx, ry, rz) of
 * the face coordinates sc, tc at major axis ma, and back.  Integers: a texel (i, j) of an n x n
 * face is its centre in half-texel units, ma = n, sc = 2i + 1 - n, tc = 2j + 1 - n. */
static void cube_dir(unsigned face, long ma, long sc, long tc, long d[3])
{
    switch (face) {
    case 0: d[0] = ma, d[1] = -tc, d[2] = -sc; break;
    case 1: d[0] = -ma, d[1] = -tc, d[2] = sc; break;
    case 2: d[0] = sc, d[1] = ma, d[2] = tc; break;
    case 3: d[0] = sc, d[1] = -ma, d[2] = -tc; break;
    case 4: d[0] = sc, d[1] = -tc, d[2] = ma; break;
    default: d[0] = -sc, d[1] = -tc, d[2] = -ma; break;
    }
}

/* The face whose major axis a direction has (unique: the caller's directions have no ties), and
 * its face coordinates. */
static unsigned cube_face_of(const long d[3], long *ma, long *sc, long *tc)
{
    long ax = labs(d[0]), ay = labs(d[1]), az = labs(d[2]);
    if (ax > ay && ax > az) {
        *ma = ax, *tc = -d[1], *sc = d[0] > 0 ? -d[2] : d[2];
        return d[0] > 0 ? 0 : 1;
    }
    if (ay > az) {
        *ma = ay, *sc = d[0], *tc = d[1] > 0 ? d[2] : -d[2];
        return d[1] > 0 ? 2 : 3;
    }
    *ma = az, *tc = -d[1], *sc = d[2] > 0 ? d[0] : -d[0];
    return d[2] > 0 ? 4 : 5;
}

/* The texel index along a face axis of the point at face coordinate sc / ma: floor(n (sc / ma +
 * 1) / 2), the last texel for sc = ma. */
static long cube_index(long sc, long ma, unsigned n)
{
    long i = (sc + ma) * (long)n / (2 * ma);
    return i < (long)n ? i : (long)n - 1;
}

/* Texel (i, j) just outside one edge of `face` (n x n): the texel of the adjacent face its centre
 * projects onto (GL ES 3.2 8.14.2.1, seamless cube map filtering), *face updated. */
static void cube_neighbour(unsigned *face, long *i, long *j, unsigned n)
{
    long d[3], ma, sc, tc;
    cube_dir(*face, (long)n, 2 * *i + 1 - (long)n, 2 * *j + 1 - (long)n, d);
    *face = cube_face_of(d, &ma, &sc, &tc);
    *i = cube_index(sc, ma, n);
    *j = cube_index(tc, ma, n);
}

/* The 2x2 texels of a bilinear footprint at c (float bits, 2D or a cube face) into tv[k], k = x
 * + 2 y (x, y: the first or second texel along s and t), their weights along s and t in la, with
 * the sampler's wrap modes, or for a seamless cube across the face edges: a texel past one edge
 * from the adjacent face, and one past a corner (no unique neighbour) the average of the three
 * others, the method GL recommends. */
static int quad_texels(lookup *lk, const uint32_t c[2], uint32_t offms, const unsigned wm[2], uint32_t tv[4][4],
                       double la[2], char *err, size_t errlen)
{
    long lx[2][2];
    int norm = lk->sp->normalized_coordinates;
    for (unsigned a = 0; a < 2; a++)
        linear_axis(c[a], lk->size[a], norm, lk->seamless ? 0 : (int8_t)(offms >> (8 * a)),
                    lk->seamless ? WRAP_NONE : wm[a], lx[a], &la[a]);
    int corner = -1;
    for (unsigned k = 0; k < 4; k++) {
        long at[3] = { lx[0][k & 1], lx[1][k >> 1], 0 };
        unsigned layer = lk->layer, n = lk->size[0];
        if (lk->seamless) {
            int outx = at[0] < 0 || at[0] >= (long)n, outy = at[1] < 0 || at[1] >= (long)n;
            if (outx && outy) {
                corner = (int)k;
                continue;
            }
            if (outx || outy) {
                unsigned face = layer % 6;
                cube_neighbour(&face, &at[0], &at[1], n);
                layer = layer - layer % 6 + face;
            }
        }
        int rc = layer_texel(lk, layer, at, tv[k], err, errlen);
        if (rc)
            return rc;
    }
    if (corner >= 0)
        for (unsigned ch = 0; ch < 4; ch++) {
            double sum = 0;
            for (unsigned k = 0; k < 4; k++)
                if ((int)k != corner)
                    sum += f32(tv[k][ch]);
            tv[corner][ch] = u32((float)(sum / 3));
        }
    return 0;
}

/* Linear filtering of a float / normalized texture: the 2^dim texels around the sample point
 * (lx: their indices per axis, -1 the border colour; la: the weight of the second), weighted by
 * the products of (1 - a) and a, summed in double in a fixed order and rounded once to float.
 * Texels of weight 0 are not read. */
static int filter_linear(const lookup *lk, long lx[3][2], const double la[3], uint32_t v[4], char *err, size_t errlen)
{
    double acc[4] = { 0, 0, 0, 0 };
    for (unsigned k = 0; k < 1u << lk->dim; k++) {
        double w = 1;
        long at[3] = { 0, 0, 0 };
        for (unsigned a = 0; a < lk->dim; a++) {
            unsigned hi = (k >> a) & 1;
            w *= hi ? la[a] : 1 - la[a];
            at[a] = lx[a][hi];
        }
        if (w == 0)
            continue;
        uint32_t tv[4] = { 0, 0, 0, 0 };
        int rc = lookup_texel(lk, at, tv, err, errlen);
        if (rc)
            return rc;
        for (unsigned c = 0; c < 4; c++)
            acc[c] += w * f32(tv[c]);
    }
    for (unsigned c = 0; c < 4; c++)
        v[c] = u32((float)acc[c]);
    return 0;
}

/* The sample of one level (nearest or linear) at coordinates c (float bits; offsets in offms). */
static int sample_level(lookup *lk, unsigned level, const uint32_t c[3], uint32_t offms, int linear, uint32_t v[4],
                        char *err, size_t errlen)
{
    const texdesc *t = lk->t;
    lk->level = level;
    lk->size[0] = t->width >> level ? t->width >> level : 1;
    lk->size[1] = lk->dim >= 2 && t->height >> level ? t->height >> level : 1;
    lk->size[2] = lk->dim == 3 && t->depth >> level ? t->depth >> level : 1;
    int norm = lk->sp->normalized_coordinates;
    unsigned wm[3] = { lk->sp->wrap_mode_s, lk->sp->wrap_mode_t, lk->sp->wrap_mode_r };
    long ix[3] = { 0, 0, 0 }, lx[3][2] = { { 0, 0 }, { 0, 0 }, { 0, 0 } };
    double la[3] = { 0, 0, 0 };
    for (unsigned a = 0; a < lk->dim; a++) {
        if (wm[a] != WRAP_REPEAT && wm[a] != WRAP_EDGE && wm[a] != WRAP_BORDER && wm[a] != WRAP_MIRROR)
            return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "sampler wrap mode %u not implemented", wm[a]);
        if (lk->seamless)
            wm[a] = WRAP_EDGE;      /* seamless cubes ignore the wrap modes: nearest clamps to the face */
    }
    if (linear && lk->seamless) {    /* the footprint crosses into the adjacent faces */
        uint32_t tv[4][4];
        int rc = quad_texels(lk, c, 0, wm, tv, la, err, errlen);
        if (rc)
            return rc;
        double acc[4] = { 0, 0, 0, 0 };
        for (unsigned k = 0; k < 4; k++) {       /* filter_linear's weights and order */
            double w = ((k & 1) ? la[0] : 1 - la[0]) * ((k >> 1) ? la[1] : 1 - la[1]);
            if (w == 0)
                continue;
            for (unsigned ch = 0; ch < 4; ch++)
                acc[ch] += w * f32(tv[k][ch]);
        }
        for (unsigned ch = 0; ch < 4; ch++)
            v[ch] = u32((float)acc[ch]);
        return 0;
    }
    for (unsigned a = 0; a < lk->dim; a++) {
        int off = (int8_t)(offms >> (8 * a));
        if (linear)
            linear_axis(c[a], lk->size[a], norm, off, wm[a], lx[a], &la[a]);
        else
            ix[a] = wrap(texel_of(c[a], lk->size[a], norm) + off, lk->size[a], wm[a]);
    }
    if (linear)
        return filter_linear(lk, lx, la, v, err, errlen);
    return lookup_texel(lk, ix, v, err, errlen);
}

/* Level of detail in 8.8 fixed point (the precision of TEXC's LOD registers and of the sampler's
 * clamps and bias): lambda_base = log2(rho), rho the larger of the lengths of the coordinate's
 * derivatives along x and along y, in texels of level 0 (GL ES 3.2 8.14.1, eq. 8.6), rounded to
 * the nearest 1/256.  No gradient or a zero one: far below any clamp (magnification). */
enum { LOD_FAR = -(64 << 8) };

static int lod_from_grad(const texdesc *t, unsigned dim, int norm, const bi_tex_grad *g)
{
    if (!g)
        return LOD_FAR;
    double size[3] = { t->width, t->height, t->depth }, sx = 0, sy = 0;
    for (unsigned a = 0; a < dim; a++) {
        double k = norm ? size[a] : 1;
        sx += (g->dx[a] * k) * (g->dx[a] * k);
        sy += (g->dy[a] * k) * (g->dy[a] * k);
    }
    double r2 = sx > sy ? sx : sy;
    if (!(r2 > 0))
        return LOD_FAR;                     /* also NaN */
    double l = 0.5 * log2(r2) * 256 + 0.5;
    if (l > 64 * 256)
        l = 64 * 256;
    if (l < LOD_FAR)
        l = LOD_FAR;
    return (int)floor(l);
}

int bi_tex_lod_from_grad(unsigned width, unsigned height, unsigned depth, unsigned dim, int normalized,
                         const bi_tex_grad *g)
{
    texdesc t = { .width = width, .height = height, .depth = depth };
    return lod_from_grad(&t, dim, normalized, g);
}

int bi_tex_needs_grad(uint32_t desc)
{
    unsigned op = (desc >> 12) & 7, lod = (desc >> 20) & 7;
    return op == OP_GRDESC || (op == OP_TEX && (lod == LOD_COMPUTE || lod == LOD_BIAS));
}

/* A cube lookup's src0 (Mesa's bi_emit_texc_cube_coord): the face index in bits 31:29 over the
 * face's s coordinate in [0, 1], whose bits 31:29 are 001 for every value from 2^-63 up (the
 * smaller ones read as 0). */
static uint32_t cube_s(uint32_t x)
{
    uint32_t s = x & 0x1fffffffu;
    return s ? s | 0x20000000u : 0;
}

/* Coarse derivatives of a 2x2 quad (lanes 0 1 / 2 3 of it, bifrost_gfx.h): the same for the
 * four lanes, differences along the quad's top row and left column. */
void bi_tex_quad_grad(int cube, const uint32_t x[4], const uint32_t y[4], const uint32_t *z, bi_tex_grad *g)
{
    float s[4];
    for (unsigned i = 0; i < 4; i++)
        s[i] = f32(cube ? cube_s(x[i]) : x[i]);
    g->dx[0] = s[1] - s[0];
    g->dy[0] = s[2] - s[0];
    g->dx[1] = f32(y[1]) - f32(y[0]);
    g->dy[1] = f32(y[2]) - f32(y[0]);
    g->dx[2] = z ? f32(z[1]) - f32(z[0]) : 0;
    g->dy[2] = z ? f32(z[2]) - f32(z[0]) : 0;
}

/* A TEXC's texture and sampler indices: immediate (the descriptor's index, sampler = texture
 * unless named), or from the staging registers after position k, sampler first. */
static int indices(uint32_t desc, const uint32_t *sr, unsigned k, unsigned *tex, unsigned *smp, char *err,
                   size_t errlen)
{
    if ((desc >> 11) & 1)
        return 0;
    unsigned mode = desc & 3;
    if ((desc & 12) != 12)
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "dual texturing not implemented");
    *smp = mode == 2 || mode == 3 ? sr[k++] : *tex;
    if (mode == 1 || mode == 3)
        *tex = sr[k];
    return 0;
}

/* Sampler `index` of the job's table, unpacked once per thread and descriptor. */
static int read_sampler(const bi_mem *m, unsigned index, const struct mali_sampler **out, char *err, size_t errlen)
{
    uint8_t buf[MALI_SAMPLER_LENGTH];
    uint64_t va = m->samplers + (uint64_t)MALI_SAMPLER_LENGTH * index;
    if (!m->samplers)
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "sampler %u: the job has no sampler table", index);
    const uint8_t *d = desc_bytes(m, va, buf, sizeof buf);
    if (!d)
        return tfail(err, errlen, BI_EXEC_ERROR, "sampler descriptor fault at %#llx", (unsigned long long)va);
    int sk = memo_find(&smp_keys, d, sizeof buf, 0);
    if (sk < 0) {
        if (d != buf)
            d = memcpy(buf, d, sizeof buf);
        sk = (int)memo_add(&smp_keys, d, sizeof buf, 0);
        mali_sampler_unpack(d, &smp_memo[sk]);
    }
    const struct mali_sampler *sp = &smp_memo[sk];
    if (sp->type != 1)
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "sampler %u: descriptor type %u is not a sampler", index, sp->type);
    if (sp->mipmap_mode == 2)
        return tfail(err, errlen, BI_EXEC_ERROR, "sampler %u: reserved mipmap mode 2", index);
    *out = sp;
    return 0;
}

/* GRDESC_DER (explicit derivatives: d/dx in x, y and the first staging register's z, d/dy in
 * the next ones) and GRDESC (the quad's implicit ones): a gradient descriptor, two registers
 * that a later TEXC takes as its LOD.  What the hardware keeps beyond the level of detail is not
 * documented; what software reads of it is the first register's low half, the LOD in signed 8.8
 * (Mesa: an explicit LOD for textureGrad, textureQueryLod's values), with the sampler's bias and
 * clamp unless bits 15 / 16 disable them.  malibu writes that and zeros. */
static int gradient_desc(const bi_mem *m, uint32_t desc, uint32_t x, uint32_t y, const uint32_t *sr,
                         const bi_tex_grad *quad, uint32_t out[4], unsigned *nout, char *err, size_t errlen)
{
    unsigned op = (desc >> 12) & 7, dim = (desc >> 18) & 3, k = 0;
    unsigned tex = (desc >> 4) & 127, smp = desc & 15;
    if (dim == MALI_TEXTURE_DIMENSION_CUBE)
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "TEXC gradient descriptor of a cube not implemented");
    bi_tex_grad g = { { 0, 0, 0 }, { 0, 0, 0 } };
    if (op == OP_GRDESC_DER) {
        g.dx[0] = f32(x);
        g.dx[1] = dim >= 2 ? f32(y) : 0;
        if (dim == 3)
            g.dx[2] = f32(sr[k++]);
        for (unsigned a = 0; a < dim; a++)
            g.dy[a] = f32(sr[k++]);
    } else {
        k += dim == 3;                 /* the z coordinate: in the quad's derivatives */
        if (quad)
            g = *quad;
    }
    int rc = indices(desc, sr, k, &tex, &smp, err, errlen);
    if (rc)
        return rc;
    const texdesc *t;
    const struct mali_sampler *sp;
    rc = read_texture(m, tex, &t, err, errlen);
    if (!rc)
        rc = read_sampler(m, smp, &sp, err, errlen);
    if (rc)
        return rc;
    int l = lod_from_grad(t, dim, sp->normalized_coordinates, op == OP_GRDESC && !quad ? NULL : &g);
    if (!((desc >> 15) & 1))
        l += sp->lod_bias;
    if (!((desc >> 16) & 1)) {
        if (l > (int)sp->maximum_lod)
            l = (int)sp->maximum_lod;
        if (l < (int)sp->minimum_lod)
            l = (int)sp->minimum_lod;
    }
    out[0] = (uint16_t)(int16_t)l;
    out[1] = 0;
    *nout = (desc >> 29) & 1 ? 2 : 1;  /* the registers the write mask gives it (Mesa: 1 or all) */
    return 0;
}

int bi_tex_texc(const bi_mem *m, uint32_t desc, uint32_t x, uint32_t y, const uint32_t *sr, unsigned nsr,
                uint32_t out[4], unsigned *nout, char *err, size_t errlen)
{
    return bi_tex_texc_grad(m, desc, x, y, sr, nsr, NULL, out, nout, err, errlen);
}

int bi_tex_texc_grad(const bi_mem *m, uint32_t desc, uint32_t x, uint32_t y, const uint32_t *sr, unsigned nsr,
                     const bi_tex_grad *grad, uint32_t out[4], unsigned *nout, char *err, size_t errlen)
{
    unsigned op = (desc >> 12) & 7, dim = (desc >> 18) & 3, lod = (desc >> 20) & 7;
    unsigned rfmt = (desc >> 24) & 15, mask = desc >> 28;
    int shadow = (desc >> 16) & 1;
    int n = bi_tex_staging_count(desc);
    if (n < 0)
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "TEXC op %u not implemented", op);
    if ((unsigned)n > nsr)
        return tfail(err, errlen, BI_EXEC_ERROR, "TEXC descriptor %#x needs %d staging registers", desc, n);
    if (desc & (1u << 23))
        return tfail(err, errlen, BI_EXEC_ERROR, "TEXC descriptor %#x: reserved bit set", desc);
    if (op == OP_GRDESC_DER || op == OP_GRDESC)
        return gradient_desc(m, desc, x, y, sr, grad, out, nout, err, errlen);
    if (op == OP_TEX && (lod < LOD_GRDESC || lod == 2))
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "TEXC LOD mode %u not implemented", lod);
    /* fetch modes: 1 a texel, 4-7 a gather of component 0-3 (Mesa: BIFROST_TEXTURE_FETCH_*) */
    if (op == OP_FETCH && lod != 1 && lod < 4)
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "TEXC fetch mode %u not implemented", lod);
    int gather = op == OP_FETCH && lod >= 4;
    if (mask != 0xf)
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "TEXC write mask %#x not implemented", mask);
    if (rfmt != 0 && rfmt != 4 && rfmt != 14 && rfmt != 15)
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "TEXC result format %u not implemented (clamped / 16-bit integer)", rfmt);

    /* staging registers in Mesa's bifrost_tex_dreg order, only those the descriptor names */
    unsigned k = 0;
    uint32_t zc = 0, lodv = 0, layer = 0, offms = 0, ref = 0;
    unsigned tex = (desc >> 4) & 127, smp = desc & 15;
    if (dim == 3)
        zc = sr[k++];
    if (op == OP_FETCH || lod == LOD_EXPLICIT || lod == LOD_BIAS || lod == LOD_GRDESC)
        lodv = sr[k++];
    k += op == OP_TEX && lod == LOD_GRDESC;     /* the descriptor's second register */
    if (shadow)
        ref = sr[k++];
    if ((desc >> 17) & 1)
        layer = sr[k++];
    if ((desc >> 15) & 1)
        offms = sr[k++];
    int rc = indices(desc, sr, k, &tex, &smp, err, errlen);
    if (rc)
        return rc;
    const texdesc *t = NULL;
    rc = read_texture(m, tex, &t, err, errlen);
    if (rc)
        return rc;
    if (t->dim != dim)
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "TEXC dimension %u on a %uD texture", dim, t->dim);
    int want_float = rfmt == 0 || rfmt == 4;
    if (want_float != kind_is_float(t->fmt.kind))
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "TEXC result format %u from an %s texture not implemented", rfmt,
                     kind_is_float(t->fmt.kind) ? "float/normalized" : "integer");
    if (shadow && !want_float)
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "shadow comparison of an integer texture");
    if (layer >= t->layers)
        layer = t->layers - 1;     /* integer array indices clamp (Mesa sets the sampler bit) */
    uint32_t c[3] = { x, y, zc };
    if (dim == MALI_TEXTURE_DIMENSION_CUBE && op == OP_FETCH && !gather)
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "TEXC fetch from a cube texture not implemented");
    int cube = dim == MALI_TEXTURE_DIMENSION_CUBE;
    if (cube) {
        /* a face of a cube: a 2D lookup in layer 6 cube + face (faces +X -X +Y -Y +Z -Z, GL's
         * layer order); the shader selected the face and its (s, t) with CUBEFACE / CUBE_*SEL */
        unsigned face = x >> 29;
        if (face > 5)
            return tfail(err, errlen, BI_EXEC_ERROR, "TEXC cube face %u out of range", face);
        layer = layer * 6 + face;
        c[0] = cube_s(x);
        dim = 2;
    }

    static const struct mali_sampler no_sampler;
    /* the sample of a multisampled texture (offset / multisample index register's top byte);
     * assumption: an index past the last sample (undefined in GL) reads the last */
    unsigned sample = offms >> 24 < t->samples ? offms >> 24 : t->samples - 1;
    lookup lk = { .m = m, .t = t, .sp = &no_sampler, .dim = dim, .layer = layer, .sample = sample, .cmp = shadow };
    uint32_t v[4] = { 0, 0, 0, 0 };
    const struct mali_sampler *sp = &no_sampler;
    if (op == OP_TEX || gather) {
        if ((rc = read_sampler(m, smp, &sp, err, errlen)))
            return rc;
        lk.sp = sp;
        lk.seamless = cube && sp->seamless_cube_map;
        /* the shadow reference: GL clamps it to [0, 1] for fixed-point depth textures */
        lk.ref = f32(ref);
        if (t->fmt.kind == K_UNORM)
            lk.ref = lk.ref < 0 ? 0 : lk.ref > 1 ? 1 : lk.ref;
    }
    if (gather) {
        /* textureGather: the 2x2 texels bilinear filtering would weight (GL ES 3.2 8.14.2, the
         * sampler's wrap modes, seamless cubes across faces) in the level the LOD register
         * names (Mesa: 0, the base), each texel's component lod - 4 after the format's order and
         * the texture swizzle (shadow: the comparison's result).  Order in the registers: the
         * texels (i0, j0), (i1, j0), (i0, j1), (i1, j1); Mesa's NIR (lower_tg4_broadcom_swizzle)
         * turns it into GL's (i0, j1), (i1, j1), (i1, j0), (i0, j0). */
        unsigned level = (lodv & 0xffff) >> 8, comp = lod - 4;
        if (level >= t->levels)
            level = t->levels - 1;
        lk.level = level;
        lk.size[0] = t->width >> level ? t->width >> level : 1;
        lk.size[1] = dim >= 2 && t->height >> level ? t->height >> level : 1;
        if (dim != 2)
            return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "TEXC gather on a %uD texture not implemented", dim);
        unsigned wm[2] = { sp->wrap_mode_s, sp->wrap_mode_t };
        for (unsigned a = 0; a < 2; a++)
            if (wm[a] != WRAP_REPEAT && wm[a] != WRAP_EDGE && wm[a] != WRAP_BORDER && wm[a] != WRAP_MIRROR)
                return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "sampler wrap mode %u not implemented", wm[a]);
        uint32_t tv[4][4];
        double la[2];
        if ((rc = quad_texels(&lk, c, offms, wm, tv, la, err, errlen)))
            return rc;
        uint32_t one = want_float ? 0x3f800000u : 1u, r[4];
        unsigned ch = t->chan[comp];
        for (unsigned k = 0; k < 4; k++)
            r[k] = ch < 4 ? tv[k][ch] : ch == CH_ONE ? one : 0;
        if (rfmt == 0) {
            out[0] = bi_f32_to_f16(r[0], 0) | (uint32_t)bi_f32_to_f16(r[1], 0) << 16;
            out[1] = bi_f32_to_f16(r[2], 0) | (uint32_t)bi_f32_to_f16(r[3], 0) << 16;
            *nout = 2;
        } else {
            memcpy(out, r, sizeof r);
            *nout = 4;
        }
        return 0;
    }
    if (op == OP_TEX) {

        /* level of detail, 8.8 fixed point: computed from the quad (+ the shader's bias), explicit,
         * or zero; then the sampler's bias and its [minimum, maximum] clamp (GL ES 3.2 8.14.1) */
        int l;
        if (lod == LOD_ZERO)
            l = 0;
        else if (lod == LOD_EXPLICIT || lod == LOD_GRDESC)   /* (a gradient descriptor's LOD) */
            l = (int16_t)(lodv & 0xffff);
        else
            l = lod_from_grad(t, dim, sp->normalized_coordinates, grad) + (lod == LOD_BIAS ? (int16_t)(lodv & 0xffff) : 0);
        if (lod != LOD_ZERO)
            l += sp->lod_bias;
        if (l > (int)sp->maximum_lod)
            l = (int)sp->maximum_lod;
        if (l < (int)sp->minimum_lod)
            l = (int)sp->minimum_lod;
        /* magnification when lambda <= 0 (GL's c = 0); minification filters and mip levels else */
        int minify = l > 0;
        int linear = minify ? !sp->minify_nearest : !sp->magnify_nearest;
        if (linear && !want_float)
            return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED,
                         "linear filtering of an integer texture not implemented (undefined in GL and OpenCL)");
        unsigned q = t->levels - 1;         /* the last level, relative to the view's base */
        if (!minify || sp->mipmap_mode == MALI_MIPMAP_MODE_NONE || q == 0) {
            rc = sample_level(&lk, 0, c, offms, linear, v, err, errlen);
        } else if (sp->mipmap_mode == MALI_MIPMAP_MODE_NEAREST || !want_float) {
            /* (integer textures: levels are not blended, the nearest one is taken) */
            /* d = ceil(lambda + 1/2) - 1 for lambda > 1/2, else the base (GL eq. 8.10) */
            unsigned d = l <= 128 ? 0 : (unsigned)((l + 128 + 255) / 256 - 1);
            rc = sample_level(&lk, d > q ? q : d, c, offms, linear, v, err, errlen);
        } else {
            /* trilinear: levels floor(lambda) and the next, weighted by lambda's fraction (8 bits) */
            unsigned d = (unsigned)(l >> 8), frac = (unsigned)l & 255;
            if (d >= q)
                rc = sample_level(&lk, q, c, offms, linear, v, err, errlen);
            else if ((rc = sample_level(&lk, d, c, offms, linear, v, err, errlen)) == 0 && frac) {
                uint32_t v2[4];
                if ((rc = sample_level(&lk, d + 1, c, offms, linear, v2, err, errlen)) == 0)
                    for (unsigned ch = 0; ch < 4; ch++)
                        v[ch] = u32((float)(f32(v[ch]) * (1 - frac / 256.0) + f32(v2[ch]) * (frac / 256.0)));
            }
        }
    } else {
        /* fetch: integer texel coordinates of level (LOD register >> 8, Mesa's lod << 8);
         * assumption: out-of-range coordinates and levels clamp to the edge / last level */
        unsigned level = (lodv & 0xffff) >> 8;
        if (level >= t->levels)
            level = t->levels - 1;
        lk.level = level;
        unsigned sizes[3] = { t->width >> level ? t->width >> level : 1,
                              dim >= 2 && t->height >> level ? t->height >> level : 1,
                              dim == 3 && t->depth >> level ? t->depth >> level : 1 };
        long ix[3] = { 0, 0, 0 };
        for (unsigned a = 0; a < dim; a++)
            ix[a] = wrap((long)(int32_t)c[a] + (int8_t)(offms >> (8 * a)), sizes[a], WRAP_EDGE);
        lk.cmp = 0;
        rc = lookup_texel(&lk, ix, v, err, errlen);
    }
    if (rc)
        return rc;
    /* the result channels straight into out (built in a local array, the compiler copied it
     * with one 16-byte load of four 4-byte stores, which waits: no store forwarding) */
    uint32_t one = want_float ? 0x3f800000u : 1u;
#define RESULT(c) (t->chan[c] < 4 ? v[t->chan[c]] : t->chan[c] == CH_ONE ? one : 0)
    if (rfmt == 0) {
        out[0] = bi_f32_to_f16(RESULT(0), 0) | (uint32_t)bi_f32_to_f16(RESULT(1), 0) << 16;
        out[1] = bi_f32_to_f16(RESULT(2), 0) | (uint32_t)bi_f32_to_f16(RESULT(3), 0) << 16;
        *nout = 2;
    } else {
        out[0] = RESULT(0);
        out[1] = RESULT(1);
        out[2] = RESULT(2);
        out[3] = RESULT(3);
        *nout = 4;
    }
#undef RESULT
    return 0;
}

/* ---- image stores ----------------------------------------------------------------------------- */

int bi_tex_lea_attr(const bi_mem *m, unsigned index, int image, uint32_t s0, uint32_t s1, unsigned regfmt,
                    uint32_t out[3], char *err, size_t errlen)
{
    uint8_t a[MALI_ATTRIBUTE_LENGTH], b[MALI_ATTRIBUTE_BUFFER_LENGTH];
    struct mali_attribute at;
    struct mali_attribute_buffer ab;
    /* a job without attribute tables has null pointers: the read below faults at the page of
     * address 0, as on hardware (Mesa 26.1 compute jobs reading a read-only image1d_buffer) */
    uint64_t va = m->attributes + (uint64_t)MALI_ATTRIBUTE_LENGTH * index;
    if (mem_read(m, va, a, sizeof a))
        return tfail(err, errlen, BI_EXEC_ERROR, "attribute descriptor fault at %#llx", (unsigned long long)va);
    mali_attribute_unpack(a, &at);
    unsigned buf = at.buffer_index;
    uint64_t bva = m->attr_bufs + (uint64_t)MALI_ATTRIBUTE_BUFFER_LENGTH * buf;
    if (mem_read(m, bva, b, sizeof b))
        return tfail(err, errlen, BI_EXEC_ERROR, "attribute buffer descriptor fault at %#llx", (unsigned long long)bva);
    mali_attribute_buffer_unpack(b, &ab);
    /* an image texel (LEA_ATTR_TEX: x | y << 16, z) or an element (LEA_ATTR: vertex index s0;
     * the instance index s1 only matters for the instanced buffer types, not handled) */
    uint64_t x = image ? s0 & 0xffff : s0, y = s0 >> 16, z = s1;
    /* Offset enable is Midgard's bit: Mesa leaves it clear on Bifrost varyings whose Offset it
     * sets (each vertex output at its place in the vertex's record), so element addresses take
     * the offset regardless; image attributes keep the bit's gating */
    uint64_t addr = ab.pointer + (at.offset_enable || !image ? at.offset : 0) + x * ab.stride;
    if (!image && ab.type != MALI_ATTRIBUTE_TYPE_1D) {
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "LEA_ATTR with attribute buffer type %u not implemented", ab.type);
    } else if (ab.type == MALI_ATTRIBUTE_TYPE_3D_LINEAR || ab.type == MALI_ATTRIBUTE_TYPE_3D_INTERLEAVED) {
        /* a continuation record with the row and slice strides (panfrost_emit_image_attribs: the
         * level's row stride, a row of 16x16 tiles when U-interleaved, and the layer stride) */
        struct mali_attribute_buffer_continuation_3d c3;
        if (mem_read(m, bva + MALI_ATTRIBUTE_BUFFER_LENGTH, b, sizeof b))
            return tfail(err, errlen, BI_EXEC_ERROR, "attribute buffer descriptor fault at %#llx",
                         (unsigned long long)(bva + MALI_ATTRIBUTE_BUFFER_LENGTH));
        mali_attribute_buffer_continuation_3d_unpack(b, &c3);
        if (c3.type != MALI_ATTRIBUTE_TYPE_CONTINUATION)
            return tfail(err, errlen, BI_EXEC_ERROR, "3D attribute buffer %u without a continuation record", buf);
        if (ab.type == MALI_ATTRIBUTE_TYPE_3D_INTERLEAVED) {
            /* the element stride is the bytes per texel; x, y inside the layer's tiles */
            gfx_surface sf = { .row_stride = c3.row_stride, .bpp = ab.stride, .tiled = 1 };
            addr += (uint64_t)gfx_surface_offset(&sf, (uint32_t)x, (uint32_t)y, 0) - x * ab.stride;
        } else {
            addr += y * c3.row_stride;
        }
        addr += z * c3.slice_stride;
    } else if (ab.type != MALI_ATTRIBUTE_TYPE_1D) {
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "image attribute buffer type %u not implemented", ab.type);
    }
    pixfmt p;
    int rc = pixel_format_memo(m->arch_major, at.format, &p, err, errlen);
    if (rc)
        return rc;
    if (regfmt == BI_RF_AUTO)       /* the 32-bit register format of the pixel format's kind */
        regfmt = kind_is_float(p.kind) ? BI_RF_F32 : p.kind == K_UINT ? BI_RF_U32 : BI_RF_I32;
    out[0] = (uint32_t)addr;
    out[1] = (uint32_t)(addr >> 32);
    out[2] = at.format | (regfmt & 7) << 24;
    return 0;
}

/* The register format of a conversion descriptor, checked against its pixel format: 32-bit
 * float registers for float / normalized formats, 32-bit integers of the same signedness for
 * integer formats (the conversions OpenCL images need). */
static int cvt_format_check(const bi_mem *m, uint32_t conv, const char *op, pixfmt *p, char *err, size_t errlen)
{
    unsigned rf = (conv >> 24) & 7;
    int rc = pixel_format(m->arch_major, conv & 0x3fffff, p, err, errlen);
    if (rc)
        return rc;
    if ((conv >> 22) & 1)
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "%s raw conversion not implemented", op);
    if ((conv >> 12 & 0xff) == 95)
        return 0;                                   /* Constant: nothing converted */
    int reg_float = rf == BI_RF_F32, reg_int = rf == BI_RF_U32 || rf == BI_RF_I32;
    if (!reg_float && !reg_int)
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "%s register format %u not implemented", op, rf);
    if (reg_float != kind_is_float(p->kind) || (reg_int && (rf == BI_RF_U32) != (p->kind == K_UINT)))
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "%s register format %u to format kind %u not implemented", op,
                     rf, p->kind);
    return 0;
}

/* Conversion descriptors checked lately on this host thread (only those that pass): lanes of a
 * message share one, so its check and pixel format decode once. */
static __thread memo cvt_keys;
static __thread pixfmt cvt_memo[MEMO_N];

static int cvt_format(const bi_mem *m, uint32_t conv, const char *op, const pixfmt **p, char *err, size_t errlen)
{
    int k = memo_find(&cvt_keys, &conv, sizeof conv, m->arch_major);
    if (k < 0) {
        pixfmt np;
        int rc = cvt_format_check(m, conv, op, &np, err, errlen);
        if (rc)
            return rc;
        k = (int)memo_add(&cvt_keys, &conv, sizeof conv, m->arch_major);
        cvt_memo[k] = np;
    }
    *p = &cvt_memo[k];
    return 0;
}

int bi_tex_ld_cvt(const bi_mem *m, uint64_t addr, uint32_t conv, uint32_t *data, unsigned ncomp, char *err,
                  size_t errlen)
{
    const pixfmt *p;
    int rc = cvt_format(m, conv, "LD_CVT", &p, err, errlen);
    if (rc)
        return rc;
    uint8_t b[16];
    if (mem_read(m, addr, b, p->bpp))
        return tfail(err, errlen, BI_EXEC_ERROR, "image load fault at %#llx", (unsigned long long)addr);
    uint32_t v[4] = { 0, 0, 0, 0 }, one = kind_is_float(p->kind) ? 0x3f800000u : 1;
    decode_texel(p, b, v);
    for (unsigned c = 0; c < ncomp && c < 4; c++)
        data[c] = p->map[c] < 4 ? v[p->map[c]] : p->map[c] == CH_ONE ? one : 0;
    return 0;
}

uint32_t bi_tex_float_to_unorm(float f, unsigned bits)
{
    float max = (float)((1u << bits) - 1);
    float v = f * max;                  /* one float rounding, as the OpenCL formula */
    if (!(v > 0.0f))
        return 0;                       /* also NaN */
    if (v >= max)
        return (uint32_t)max;
    return (uint32_t)nearbyintf(v);     /* default rounding mode: nearest even */
}

int32_t bi_tex_float_to_snorm(float f, unsigned bits)
{
    float max = (float)((1u << (bits - 1)) - 1);
    float v = f * max;
    if (v != v)
        return 0;
    if (v <= -max - 1.0f)
        return (int32_t)(-max - 1.0f);
    if (v >= max)
        return (int32_t)max;
    return (int32_t)nearbyintf(v);
}

int bi_tex_st_cvt(const bi_mem *m, uint64_t addr, uint32_t conv, const uint32_t *data, unsigned ncomp,
                  char *err, size_t errlen)
{
    const pixfmt *p;
    int rc = cvt_format(m, conv, "ST_CVT", &p, err, errlen);
    if (rc)
        return rc;
    if ((p->unpack && !p->pack) || p->srgb || p->bits == 24)
        return tfail(err, errlen, BI_EXEC_UNIMPLEMENTED, "ST_CVT to pixel format %#x not implemented", conv & 0x3fffff);
    /* memory channel i takes the register channel that reads it back (inverse of the map) */
    uint32_t mem[4] = { 0, 0, 0, 0 };
    for (unsigned c = 0; c < 4; c++)
        if (p->map[c] < p->ncomp)
            mem[p->map[c]] = c < ncomp ? data[c] : 0;
    uint8_t b[16] = { 0 };
    if (p->pack) {              /* packed formats (RGB10A2UI, RGB565, ...): gfx_pixel's GL conversions */
        gfx_color col;
        memcpy(col.u, mem, sizeof mem);
        p->pack(&col, b);
    }
    for (unsigned i = 0, off = 0; !p->pack && i < p->ncomp; off += p->cbits[i], i++) {
        uint32_t v = mem[i], q;
        unsigned w = p->cbits[i];
        switch (p->kind) {
        case K_UNORM: q = bi_tex_float_to_unorm(f32(v), w); break;
        case K_SNORM: q = (uint32_t)bi_tex_float_to_snorm(f32(v), w); break;
        case K_FLOAT: q = w == 16 ? bi_f32_to_f16(v, 0) : v; break;
        case K_UINT: {
            uint32_t max = w == 32 ? 0xffffffffu : (1u << w) - 1;   /* saturate */
            q = v > max ? max : v;
            break;
        }
        default: {
            int32_t s = (int32_t)v;
            if (w < 32) {
                int32_t hi = (int32_t)((1u << (w - 1)) - 1), lo = -hi - 1;
                s = s > hi ? hi : s < lo ? lo : s;
            }
            q = (uint32_t)s;
            break;
        }
        }
        if (w % 8 == 0)         /* whole bytes: little-endian, the bits set_texel_bits would set */
            for (unsigned k = 0; k < w / 8; k++)
                b[off / 8 + k] = (uint8_t)(q >> (8 * k));
        else
            set_texel_bits(b, off, w, q);
    }
    uint8_t *h = mapped(m, addr, p->bpp, 1);
    if (h) {
        memcpy(h, b, p->bpp);
        return 0;
    }
    if (m->write(m->ctx, addr, b, p->bpp))
        return tfail(err, errlen, BI_EXEC_ERROR, "image store fault at %#llx", (unsigned long long)addr);
    return 0;
}
