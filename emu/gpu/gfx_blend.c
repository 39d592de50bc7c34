/* Bifrost's fixed-function blender (see gfx_blend.h for the hardware equation and its sources). */
#include "gfx_blend.h"

#include <stddef.h>

static gfx_blend_function function_unpack(uint32_t v)
{
    return (gfx_blend_function){ .a = v & 3, .negate_a = v >> 3 & 1, .b = v >> 4 & 3, .negate_b = v >> 7 & 1,
                                 .c = v >> 8 & 7, .invert_c = v >> 11 & 1 };
}

static uint32_t function_pack(const gfx_blend_function *f)
{
    return (uint32_t)(f->a & 3) | (uint32_t)(f->negate_a & 1) << 3 | (uint32_t)(f->b & 3) << 4 |
           (uint32_t)(f->negate_b & 1) << 7 | (uint32_t)(f->c & 7) << 8 | (uint32_t)(f->invert_c & 1) << 11;
}

void gfx_blend_equation_unpack(uint32_t w, gfx_blend_equation *eq)
{
    eq->rgb = function_unpack(w & 0xfff);
    eq->alpha = function_unpack(w >> 12 & 0xfff);
    eq->color_mask = w >> 28 & 0xf;
}

uint32_t gfx_blend_equation_pack(const gfx_blend_equation *eq)
{
    return function_pack(&eq->rgb) | function_pack(&eq->alpha) << 12 | (uint32_t)(eq->color_mask & 0xf) << 28;
}

float gfx_blend_constant_value(uint16_t field, unsigned bits)
{
    if (bits == 0 || bits > 16)
        return 0.0f;
    return (float)(field >> (16 - bits)) / (float)((1u << bits) - 1);
}

/* Reserved encodings (A = 0, C = 0) read as zero: guest descriptors may hold them, they must not
 * take the host anywhere undefined (gfx_blend_state_init reports them). */
static inline float eval(const gfx_blend_function *f, float s, float d, float sa, float da, float k)
{
    float a, b, c;
    switch (f->a) {
    case GFX_BLEND_A_SRC: a = s; break;
    case GFX_BLEND_A_DEST: a = d; break;
    default: a = 0.0f; break;
    }
    switch (f->b) {
    case GFX_BLEND_B_SRC_MINUS_DEST: b = s - d; break;
    case GFX_BLEND_B_SRC_PLUS_DEST: b = s + d; break;
    case GFX_BLEND_B_SRC: b = s; break;
    default: b = d; break;
    }
    switch (f->c) {
    case GFX_BLEND_C_SRC: c = s; break;
    case GFX_BLEND_C_DEST: c = d; break;
    case GFX_BLEND_C_SRC_X_2: c = 2.0f * s; break;
    case GFX_BLEND_C_SRC_ALPHA: c = sa; break;
    case GFX_BLEND_C_DEST_ALPHA: c = da; break;
    case GFX_BLEND_C_CONSTANT: c = k; break;
    default: c = 0.0f; break;
    }
    if (f->negate_a)
        a = -a;
    if (f->negate_b)
        b = -b;
    if (f->invert_c)
        c = 1.0f - c;
    return a + b * c;
}

float gfx_blend_function_eval(const gfx_blend_function *f, float s, float d, float sa, float da, float k)
{
    return eval(f, s, d, sa, da, k);
}

static inline float clamp01(float v)
{
    return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;     /* NaN -> 0 */
}

static void blend_off(const gfx_blend_state *st, const float src[4], float dst[4])
{
    (void)st, (void)src, (void)dst;
}

static void blend_opaque(const gfx_blend_state *st, const float src[4], float dst[4])
{
    for (unsigned c = 0; c < 4; c++)
        dst[c] = st->clamp ? clamp01(src[c]) : src[c];
    if (st->alpha_to_one)
        dst[3] = 1.0f;
}

static void blend_fixed(const gfx_blend_state *st, const float src[4], float dst[4])
{
    float s[4];
    for (unsigned c = 0; c < 4; c++)
        s[c] = st->clamp ? clamp01(src[c]) : src[c];
    if (st->alpha_to_one)
        s[3] = 1.0f;
    if (st->alpha_zero_nop && s[3] == 0.0f)
        return;
    unsigned mask = st->eq.color_mask;
    if (st->alpha_one_store && s[3] == 1.0f) {
        for (unsigned c = 0; c < 4; c++)
            if (mask >> c & 1)
                dst[c] = s[c];
        return;
    }
    float k = st->constant, sa = s[3], da = dst[3], r[4];
    for (unsigned c = 0; c < 3; c++)
        r[c] = eval(&st->eq.rgb, s[c], dst[c], sa, da, k);
    r[3] = eval(&st->eq.alpha, sa, da, sa, da, k);
    for (unsigned c = 0; c < 4; c++)
        if (mask >> c & 1)
            dst[c] = st->clamp ? clamp01(r[c]) : r[c];
}

static int reserved(const gfx_blend_function *f)
{
    return f->a == 0 || f->c == 0;
}

int gfx_blend_state_init(gfx_blend_state *st, const uint32_t d[4], unsigned const_bits, int unorm_target)
{
    *st = (gfx_blend_state){ 0 };
    gfx_blend_equation_unpack(d[1], &st->eq);
    st->load_dest = d[0] & 1;
    st->alpha_to_one = d[0] >> 8 & 1;
    st->clamp = unorm_target != 0;
    st->constant = gfx_blend_constant_value((uint16_t)(d[0] >> 16), const_bits);
    if (st->clamp)
        st->constant = clamp01(st->constant);
    st->mode = d[2] & 3;
    st->alpha_zero_nop = d[2] >> 5 & 1;
    st->alpha_one_store = d[2] >> 6 & 1;
    st->rt = d[2] >> 16 & 15;
    st->conversion = d[3];
    /* "Enable" (word 0 bit 9) off: panfrost pairs it with mode OFF; either stops the write */
    if (!(d[0] >> 9 & 1))
        st->mode = GFX_BLEND_MODE_OFF;
    switch (st->mode) {
    case GFX_BLEND_MODE_OFF: st->fn = blend_off; return 0;
    case GFX_BLEND_MODE_OPAQUE: st->fn = blend_opaque; return 0;
    case GFX_BLEND_MODE_FIXED:
        st->fn = blend_fixed;
        return reserved(&st->eq.rgb) || reserved(&st->eq.alpha) ? -2 : 0;
    default: st->fn = NULL; return -1;
    }
}

gfx_blend_action gfx_blend_route(uint64_t desc, unsigned rt, unsigned nrts, int in_shader, uint64_t fs_va,
                                 const gfx_blend_state *bs, uint64_t *call, unsigned *mask)
{
    *call = 0;
    *mask = 0;
    /* Mesa keeps a shader's outputs to unbound draw buffers (BLEND with blend descriptor 1 when
     * one target is bound) and emits blend descriptors for the bound targets only: the slot
     * names no descriptor, and the store is dropped (GL discards writes to absent buffers) */
    if (rt >= nrts && !in_shader)
        return GFX_BLEND_DROP;
    switch (desc & 3) {
    case GFX_BLEND_MODE_OFF:
        return GFX_BLEND_DROP;
    case GFX_BLEND_MODE_SHADER: {                   /* its PC: bits 63:36 */
        uint32_t pc = (uint32_t)(desc >> 32) & ~15u;
        if (!pc)
            return GFX_BLEND_BAD;
        *call = (fs_va & ~0xffffffffull) | pc;
        return GFX_BLEND_CALL;
    }
    case GFX_BLEND_MODE_OPAQUE:
        /* OPAQUE stores every channel: the colour mask is the equation's, which panfrost leaves
         * zero for a target with a blend shader (pan_cmdstream.c writes the equation only for
         * fixed function); the blend shader applies the mask itself and stores through an OPAQUE
         * descriptor of its own */
        *mask = 0xf;
        return GFX_BLEND_STORE;
    default:
        *mask = bs->eq.color_mask;
        return GFX_BLEND_STORE;
    }
}
