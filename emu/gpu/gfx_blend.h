/* Bifrost's fixed-function blender as the hardware defines it (Mesa's genxml v6/v7.xml "Blend",
 * "Blend Equation", "Blend Function", "Internal Blend"; pan_blend.c and pan_cmdstream.c for how
 * panfrost fills them; read for facts):
 *
 *   per channel group (RGB with the RGB function, A with the alpha function):
 *     result = A' + B' * C'
 *     A' = (negate A ? -1 : 1) * { 0, src, dest }[A]
 *     B' = (negate B ? -1 : 1) * { src - dest, src + dest, src, dest }[B]
 *     C  = { 0, src, dest, 2 * src, src alpha, dest alpha, constant }[C]; C' = invert C ? 1 - C : C
 *
 * GL's factors map onto it (pan_blend.c): when one factor is 0 or 1, or both factors are the same
 * up to "one minus", or the 2 * src * dest case; MIN and MAX, SRC_ALPHA_SATURATE, dual-source
 * factors and blending of non-"blendable" (non-unorm) formats need a blend shader.  So the
 * fixed-function blender only sees unorm render targets, whose source, constant and result GL
 * clamps to [0, 1]; the caller stores the result at the target's precision (gfx_pixel).
 * The blend constant is one 16-bit unorm of the target's channel size in its top bits.
 * Descriptor modes: OFF (no colour write), OPAQUE (store the source: panfrost uses it only with all
 * four channels written), FIXED_FUNCTION (the equation, the colour write mask, and the "alpha zero
 * nop" / "alpha one store" shortcuts), SHADER (a blend shader: not here).
 * Logic ops are not fixed function on Bifrost (blend shaders).  sRGB targets blend in linear space:
 * the tile value given as dest is already decoded (gfx_pixel unpacks sRGB). */
#ifndef MALIBU_GFX_BLEND_H
#define MALIBU_GFX_BLEND_H

#include <stdint.h>

/* genxml enums "Blend Operand A/B/C" and "Blend Mode" */
enum { GFX_BLEND_A_ZERO = 1, GFX_BLEND_A_SRC = 2, GFX_BLEND_A_DEST = 3 };
enum { GFX_BLEND_B_SRC_MINUS_DEST = 0, GFX_BLEND_B_SRC_PLUS_DEST = 1, GFX_BLEND_B_SRC = 2, GFX_BLEND_B_DEST = 3 };
enum { GFX_BLEND_C_ZERO = 1, GFX_BLEND_C_SRC = 2, GFX_BLEND_C_DEST = 3, GFX_BLEND_C_SRC_X_2 = 4,
       GFX_BLEND_C_SRC_ALPHA = 5, GFX_BLEND_C_DEST_ALPHA = 6, GFX_BLEND_C_CONSTANT = 7 };
enum { GFX_BLEND_MODE_SHADER = 0, GFX_BLEND_MODE_OPAQUE = 1, GFX_BLEND_MODE_FIXED = 2, GFX_BLEND_MODE_OFF = 3 };

typedef struct {
    uint8_t a, b, c;
    uint8_t negate_a, negate_b, invert_c;
} gfx_blend_function;

/* The 32-bit Blend Equation word: RGB function [11:0], alpha function [23:12], colour mask [31:28];
 * a function: A [1:0], negate A [3], B [5:4], negate B [7], C [10:8], invert C [11]. */
typedef struct {
    gfx_blend_function rgb, alpha;
    uint8_t color_mask;         /* bit c: channel c written */
} gfx_blend_equation;

void gfx_blend_equation_unpack(uint32_t word, gfx_blend_equation *eq);
uint32_t gfx_blend_equation_pack(const gfx_blend_equation *eq);

typedef struct gfx_blend_state gfx_blend_state;
/* Blends src into the tile value dst (both RGBA floats, dst in place). */
typedef void (*gfx_blend_fn)(const gfx_blend_state *st, const float src[4], float dst[4]);

struct gfx_blend_state {
    gfx_blend_fn fn;            /* chosen once per descriptor: off, opaque, fixed function */
    gfx_blend_equation eq;
    float constant;
    uint8_t mode;               /* GFX_BLEND_MODE_* */
    uint8_t clamp;              /* unorm target: clamp source, constant and result to [0, 1] */
    uint8_t alpha_to_one;       /* Blend word 0 bit 8: source alpha replaced by 1 */
    uint8_t alpha_zero_nop;     /* internal blend: source alpha 0 leaves the pixel as it is */
    uint8_t alpha_one_store;    /* internal blend: source alpha 1 stores the source */
    uint8_t load_dest;          /* Blend word 0 bit 0: the equation reads the destination */
    uint8_t rt;                 /* internal blend's render target index (fixed function / opaque) */
    uint32_t conversion;        /* internal blend word 3: memory pixel format, raw, register format */
};

/* Decodes a 16-byte Blend descriptor (4 little-endian words) for a render target whose blend
 * constant has `const_bits` bits per channel (its channel size: 8 for RGBA8, 10 for RGB10A2, ...)
 * and which is unorm (`unorm_target`: clamping).  Returns 0; -1 if the mode is SHADER (the caller
 * runs the blend shader; st is filled but st->fn is NULL); -2 if a fixed-function equation uses a
 * reserved operand encoding (A or C = 0: read as zero, st is usable; the caller logs it). */
int gfx_blend_state_init(gfx_blend_state *st, const uint32_t desc[4], unsigned const_bits, int unorm_target);

/* The value of the 16-bit blend constant field for a target with `bits` bits per channel. */
float gfx_blend_constant_value(uint16_t field, unsigned bits);

/* One channel group's function applied to (s, d) with the source / dest alpha sa, da and the
 * constant k: A' + B' * C' (exposed for tests). */
float gfx_blend_function_eval(const gfx_blend_function *f, float s, float d, float sa, float da, float k);

/* What a BLEND message does, from the Internal Blend word desc the shader sends (its FAU
 * blend descriptor, or a blend shader's constant one) for render target slot rt of a framebuffer
 * with nrts targets. */
typedef enum {
    GFX_BLEND_DROP,             /* nothing stored: mode OFF, or a target the framebuffer lacks */
    GFX_BLEND_CALL,             /* run the blend shader at *call */
    GFX_BLEND_STORE,            /* opaque or fixed-function store through *mask's channels */
    GFX_BLEND_BAD,              /* a shader at PC 0: a fault */
} gfx_blend_action;

/* fs_va: the calling fragment shader's address (a blend shader's PC holds only the low 32 bits;
 * Mesa keeps both in one 4 GiB region); in_shader: the BLEND is a blend shader's own; bs: the
 * target's descriptor as gfx_blend_state_init read it (its equation's colour mask). */
gfx_blend_action gfx_blend_route(uint64_t desc, unsigned rt, unsigned nrts, int in_shader, uint64_t fs_va,
                                 const gfx_blend_state *bs, uint64_t *call, unsigned *mask);

static inline void gfx_blend_apply(const gfx_blend_state *st, const float src[4], float dst[4])
{
    st->fn(st, src, dst);
}

#endif
