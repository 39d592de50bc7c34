/* Render-target and depth/stencil pixel formats: pack (tile-buffer colour -> memory bytes) and
 * unpack (memory bytes -> colour) for every colour format a GLES 3.x render target can have on
 * panfrost, and the depth/stencil layouts panfrost writes, with GL's conversion rules.
 *
 * Where the formats come from (Mesa's genxml v6/v7.xml, pan_format.c, pan_desc.c, read for facts):
 * - "blendable" unorm formats have a Color Buffer Internal Format (R8G8B8A8, R10G10B10A2,
 *   R4G4B4A4, R5G6B5A0, R5G5B5A1) and a Writeback Format (Color Format R8, R8G8, R8G8B8,
 *   R8G8B8A8, R4G4B4A4, R5G6B5, R10G10B10A2, R5G5B5A1), the RT's swizzle and sRGB bit;
 * - every other format (float, integer, R11G11B10F, RGB10A2UI) is RAW in the tile buffer: the
 *   blend unit converts the shader's registers to the memory format named by the blend
 *   descriptor's Internal Conversion (a Mali "Format"), and write-back copies the bytes;
 * - depth/stencil: ZS Format D16, D24X8, D24S8, D32 and S Format S8 / X24S8.
 *
 * A colour is a gfx_color: floats for unorm / sRGB / float formats, int32 or uint32 for integer
 * formats (GL's register types).  Conversions (GL ES 3.2, 2.3.4 and 2.3.5): float -> unorm clamps to
 * [0, 1] (NaN -> 0) and rounds to nearest (ties to even); sRGB formats encode R, G, B with GL's
 * formula before that, alpha stays linear; float16 rounds to nearest even, overflows to infinity,
 * keeps NaN; the 11- and 10-bit unsigned floats round to nearest, take negative values and -inf to
 * 0, finite values above their largest to the largest, NaN to NaN; integer targets saturate (the
 * Bifrost conversion hardware clamps, as GL asks).  Dithering is not modelled (round to nearest).
 *
 * Hot path: look the format up once (gfx_format_get) and call its pack / unpack pointers per pixel;
 * no allocation, no branch on the format per pixel. */
#ifndef MALIBU_GFX_PIXEL_H
#define MALIBU_GFX_PIXEL_H

#include <stdint.h>

typedef union {
    float f[4];
    uint32_t u[4];
    int32_t i[4];
} gfx_color;

/* Memory formats of colour render targets (R first in memory unless the name says otherwise). */
typedef enum {
    GFX_FMT_NONE = 0,
    GFX_FMT_RGBA8_UNORM, GFX_FMT_RGBA8_SRGB, GFX_FMT_BGRA8_UNORM, GFX_FMT_BGRA8_SRGB,
    GFX_FMT_RGB8_UNORM, GFX_FMT_RG8_UNORM, GFX_FMT_R8_UNORM,
    GFX_FMT_RGB565_UNORM, GFX_FMT_RGBA4_UNORM, GFX_FMT_RGB5A1_UNORM, GFX_FMT_RGB10A2_UNORM,
    GFX_FMT_RGB10A2_UINT, GFX_FMT_R11G11B10_FLOAT,
    GFX_FMT_R16_FLOAT, GFX_FMT_RG16_FLOAT, GFX_FMT_RGBA16_FLOAT,
    GFX_FMT_R32_FLOAT, GFX_FMT_RG32_FLOAT, GFX_FMT_RGBA32_FLOAT,
    GFX_FMT_R8_UINT, GFX_FMT_RG8_UINT, GFX_FMT_RGBA8_UINT,
    GFX_FMT_R8_SINT, GFX_FMT_RG8_SINT, GFX_FMT_RGBA8_SINT,
    GFX_FMT_R16_UINT, GFX_FMT_RG16_UINT, GFX_FMT_RGBA16_UINT,
    GFX_FMT_R16_SINT, GFX_FMT_RG16_SINT, GFX_FMT_RGBA16_SINT,
    GFX_FMT_R32_UINT, GFX_FMT_RG32_UINT, GFX_FMT_RGBA32_UINT,
    GFX_FMT_R32_SINT, GFX_FMT_RG32_SINT, GFX_FMT_RGBA32_SINT,
    GFX_FMT_COUNT
} gfx_format;

typedef enum { GFX_KIND_UNORM, GFX_KIND_FLOAT, GFX_KIND_UINT, GFX_KIND_SINT } gfx_kind;

typedef void (*gfx_pack_fn)(const gfx_color *c, uint8_t *dst);
typedef void (*gfx_unpack_fn)(const uint8_t *src, gfx_color *c);

typedef struct {
    const char *name;
    gfx_pack_fn pack;
    gfx_unpack_fn unpack;
    uint8_t bpp;            /* bytes per pixel in memory */
    uint8_t ncomp;          /* channels stored; the others unpack as 0, 0, 0, 1 */
    uint8_t kind;           /* gfx_kind */
    uint8_t srgb;
    uint8_t bits[4];        /* bits per channel R, G, B, A */
} gfx_format_info;

/* The format's description (GFX_FMT_NONE and out-of-range values: NULL). */
const gfx_format_info *gfx_format_get(gfx_format f);

/* The value the tile buffer keeps for colour c: what the memory format can hold, as it unpacks
 * (blending reads the destination at the render target's precision). */
static inline void gfx_format_quantize(const gfx_format_info *fi, gfx_color *c)
{
    uint8_t b[16];
    fi->pack(c, b);
    fi->unpack(b, c);
}

/* Render target "Swizzle" (3 bits per channel, genxml Component Swizzle: R G B A 0 1) applied on
 * the way to memory: memory channel i takes colour channel swz[i], or 0 / 1.  Panfrost programs
 * the inverse of the format's texturing swizzle (BGRA8 writes B, G, R, A).  A reserved selector
 * (6, 7) gives 0.  `one` is 1.0f's bits for float formats, 1 for integer ones. */
void gfx_swizzle_for_write(uint32_t swizzle12, const gfx_color *in, gfx_color *out, uint32_t one);

/* Colour formats by Mali descriptor codes.
 * gfx_format_from_writeback: a blendable render target's Writeback Format (Color Format) with its
 * sRGB bit, for the RGBA channel order (the RT swizzle does BGRA); NONE for RAW or unknown codes.
 * gfx_format_from_mali: a Mali pixel format's 8-bit "Format" code (bits 19:12 of the 22-bit pixel
 * format, as in a blend descriptor's Internal Conversion) and its sRGB bit; NONE if not a colour
 * render-target format. */
gfx_format gfx_format_from_writeback(unsigned color_format, unsigned srgb);
gfx_format gfx_format_from_mali(unsigned mali_format, unsigned srgb);

/* Tile-buffer words of the blendable render targets (Color Buffer Internal Format 1-6), as
 * panfrost packs its clear colours into them (pan_clear.c): one 32-bit word a pixel, R first from
 * bit 0, each channel fixed point with m integer and n fraction bits (R8G8B8A8 8.0 each;
 * R10G10B10A2 10.0 x3 + 2.0; R8G8B8A2 8.2 x3 + 2.0; R4G4B4A4 4.4 each; R5G6B5A0 5.5, 6.4, 5.5 and
 * alpha 0.2; R5G5B5A1 5.5 x3 + 1.1), worth field / ((2^m - 1) * 2^n); sRGB targets hold R, G, B
 * encoded.  The fraction bits carry dithered clears; colours the blender stores have them 0
 * (round to nearest on m bits: "round to FB precision", no dithering).
 * gfx_tib_unpack: the word's linear RGBA (alpha 1 without integer bits); -1 for another internal
 * format.  gfx_tib_pack: RGBA (clamped to [0, 1]) into a word.  gfx_tib_write: the word in a
 * Writeback Format (Color Format R8, R8G8, R8G8B8, R8G8B8A8, R4G4B4A4, R5G6B5, R10G10B10A2,
 * R5G5B5A1) after the RT swizzle (memory channel i takes internal channel swz[i]: 0-3 R G B A,
 * 4 zero, 5 one), each channel rounded to its integer bits and rescaled if the widths differ;
 * returns the bytes written, 0 for an unknown pair. */
int gfx_tib_unpack(unsigned internal_format, uint32_t word, int srgb, float rgba[4]);
uint32_t gfx_tib_pack(unsigned internal_format, const float rgba[4], int srgb);
unsigned gfx_tib_write(unsigned internal_format, unsigned writeback_format, const uint8_t swz[4], uint32_t word,
                       uint8_t *out);

/* GL's conversions, exposed for tests and other units. */
uint32_t gfx_float_to_unorm(float f, unsigned bits);
float gfx_srgb_encode(float linear);        /* GL ES 3.2's linear -> sRGB formula, result in [0, 1] */
float gfx_srgb_decode(float srgb);          /* GL ES 3.2's sRGB -> linear formula */
/* gfx_float_to_unorm(gfx_srgb_encode(l), 8), by a table search (what the sRGB formats use) */
uint32_t gfx_srgb_float_to_unorm8(float l);
uint16_t gfx_float_to_half(float f);
float gfx_half_to_float(uint16_t h);
/* Unsigned small floats: 5-bit exponent and `mbits` (6 or 5) mantissa bits. */
uint32_t gfx_float_to_ufloat(float f, unsigned mbits);
float gfx_ufloat_to_float(uint32_t v, unsigned mbits);

/* ---- depth / stencil ------------------------------------------------------------------------ */

/* Depth buffer layouts (ZS Format of the ZS/CRC extension) and the stencil ones (S Format). */
typedef enum {
    GFX_ZS_NONE = 0,
    GFX_ZS_D16,             /* 2 bytes, unorm16 */
    GFX_ZS_D24X8,           /* 4 bytes: unorm24 in bits 23:0, bits 31:24 left as they were */
    GFX_ZS_D24S8,           /* 4 bytes: unorm24 in bits 23:0, stencil in bits 31:24 */
    GFX_ZS_D32F,            /* 4 bytes, float32 */
    GFX_ZS_S8,              /* separate stencil: 1 byte */
    GFX_ZS_COUNT
} gfx_zs_format;

/* Bytes per pixel of a depth/stencil layout (0 for NONE or out of range). */
unsigned gfx_zs_bpp(gfx_zs_format f);
/* Depth value d (window-space, clamped to [0, 1] by the caller as GL does for fixed-point
 * buffers; the unorm formats clamp again, NaN -> 0) into the pixel at p, keeping other bits. */
void gfx_zs_pack_depth(gfx_zs_format f, float d, uint8_t *p);
float gfx_zs_unpack_depth(gfx_zs_format f, const uint8_t *p);
/* Stencil of D24S8 (bits 31:24) and S8 pixels. */
void gfx_zs_pack_stencil(gfx_zs_format f, uint8_t s, uint8_t *p);
uint8_t gfx_zs_unpack_stencil(gfx_zs_format f, const uint8_t *p);
/* ZS Format / S Format codes of genxml (v6 and v7 share them) -> layouts; NONE if not one that
 * panfrost writes here. */
gfx_zs_format gfx_zs_from_mali_zs(unsigned zs_format);
gfx_zs_format gfx_zs_from_mali_s(unsigned s_format);

#endif
