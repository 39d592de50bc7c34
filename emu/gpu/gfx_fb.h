/* A framebuffer descriptor as the fragment front end uses it: the FRAGMENT job's tagged
 * framebuffer pointer followed to its Framebuffer Parameters, ZS/CRC extension and render targets
 * (isa/mali/bifrost.fmt), checked once per job and turned into host values. */
#ifndef MALIBU_GPU_GFX_FB_H
#define MALIBU_GPU_GFX_FB_H

#include <stdbool.h>
#include <stdint.h>

#include "compute.h"
#include "gfx_layout.h"                /* GFX_TILE: the tile edge (the fragment job's bound unit) */

#define GFX_MAX_RTS 8

/* Surface layouts, the same on v6 and v7 (the descriptors' block-format numbers differ) */
enum gfx_block { GFX_BLOCK_NO_WRITE, GFX_BLOCK_LINEAR, GFX_BLOCK_U_INTERLEAVED, GFX_BLOCK_UNSUPPORTED };

typedef struct gfx_rt {
    bool write;                       /* written back at the end of each tile */
    unsigned internal_format;         /* enum mali_color_buffer_internal_format */
    unsigned internal_offset;         /* its place in the tile buffer (bytes; informational) */
    unsigned writeback_format;        /* enum mali_color_format */
    unsigned block_format;            /* enum gfx_block */
    unsigned msaa;                    /* enum mali_msaa */
    bool srgb, dither;
    uint8_t swizzle[4];               /* memory channel i = internal channel swizzle[i] (0-3 RGBA,
                                         4 = 0, 5 = 1) */
    uint64_t base;
    uint32_t row_stride, surface_stride;
    uint32_t clear[4];                /* the clear value, in the internal format's bits */
} gfx_rt;

typedef struct gfx_fb {
    uint64_t va;                      /* Framebuffer Parameters */
    unsigned width, height;           /* pixels */
    unsigned bound[4];                /* pixel bounds: min x, min y, max x, max y (inclusive) */
    unsigned samples, sample_pattern;
    unsigned tie_break;
    unsigned nrts;
    gfx_rt rt[GFX_MAX_RTS];
    /* depth / stencil */
    float z_clear;
    uint8_t s_clear;
    unsigned z_internal;              /* enum mali_z_internal_format */
    bool z_write, s_write, z_preload, s_preload;
    bool has_ext;                     /* ZS/CRC extension present */
    unsigned zs_format, zs_block, zs_msaa; /* enum mali_zs_format / gfx_block / mali_msaa */
    uint64_t zs_base;
    uint32_t zs_row_stride, zs_surface_stride;
    unsigned s_format, s_block, s_msaa;
    uint64_t s_base;
    uint32_t s_row_stride, s_surface_stride;
    /* frame shaders: pre-frame 0 / 1 and post-frame modes, their three DCDs */
    unsigned pre_frame[2], post_frame;
    uint64_t frame_dcds;
    uint64_t sample_locations;
    uint64_t tiler;                   /* the Tiler Context the tiler jobs filled */
} gfx_fb;

/* Read and check the framebuffer the tagged pointer fbp names.  Returns 0 or an exception code
 * (*fva = the address at fault); err says why in one line. */
uint32_t gfx_fb_parse(const gpu_mem_if *m, uint64_t fbp, unsigned arch_major, gfx_fb *fb, uint64_t *fva,
                      char *err, size_t errlen);

#endif
