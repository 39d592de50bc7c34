/* Framebuffer descriptors (gfx_fb.h).  Layout (Mesa's pan_emit_fbd, genxml v6/v7): the
 * Framebuffer Parameters and their padding (128 bytes), then the ZS/CRC extension when the
 * pointer's tag says so (64 bytes), then the render targets (64 bytes each); the tag holds the
 * render-target count and the extension bit in the pointer's low 6 bits. */
#include "gfx_fb.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gfx_raster.h"
#include "mali_formats.h"

#define FB_PARAMS_SIZE 128u
#define FB_EXT_SIZE 64u
#define FB_RT_SIZE 64u

static unsigned block(unsigned arch, unsigned b)
{
    if (arch >= 7)
        return b == MALI_BLOCK_FORMAT_V7_LINEAR ? GFX_BLOCK_LINEAR
               : b == MALI_BLOCK_FORMAT_V7_TILED_U_INTERLEAVED ? GFX_BLOCK_U_INTERLEAVED
               : b == MALI_BLOCK_FORMAT_V7_NO_WRITE ? GFX_BLOCK_NO_WRITE : GFX_BLOCK_UNSUPPORTED;
    return b == MALI_BLOCK_FORMAT_LINEAR ? GFX_BLOCK_LINEAR
           : b == MALI_BLOCK_FORMAT_TILED_U_INTERLEAVED ? GFX_BLOCK_U_INTERLEAVED : GFX_BLOCK_UNSUPPORTED;
}

static uint32_t fail(uint64_t *fva, uint64_t va, uint32_t code, char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    *fva = va;
    return code;
}

uint32_t gfx_fb_parse(const gpu_mem_if *m, uint64_t fbp, unsigned arch_major, gfx_fb *fb, uint64_t *fva,
                      char *err, size_t errlen)
{
    uint8_t buf[FB_PARAMS_SIZE + FB_EXT_SIZE + GFX_MAX_RTS * FB_RT_SIZE];
    uint32_t code;
        memset(fb, 0, sizeof(*fb));
    fb->va = fbp & ~63ull;
    bool tag_ext = fbp >> 1 & 1;
    unsigned tag_rts = (unsigned)(fbp >> 2 & 15) + 1;
    if (!(fbp & 1))
        return fail(fva, fb->va, MALI_EXC_JOB_CONFIG_FAULT, err, errlen,
                    "framebuffer pointer %#llx: not a multi-target framebuffer", (unsigned long long)fbp);
    if (tag_rts > GFX_MAX_RTS)
        return fail(fva, fb->va, MALI_EXC_JOB_CONFIG_FAULT, err, errlen, "framebuffer: %u render targets", tag_rts);
    size_t len = FB_PARAMS_SIZE + (tag_ext ? FB_EXT_SIZE : 0) + tag_rts * FB_RT_SIZE;
    if ((code = m->read(m->ctx, fb->va, buf, len)))
        return fail(fva, fb->va, code, err, errlen, "framebuffer descriptor at %#llx unreadable",
                    (unsigned long long)fb->va);

    struct mali_framebuffer_parameters p;
    mali_framebuffer_parameters_unpack(buf, &p);
    fb->width = p.width;
    fb->height = p.height;
    fb->bound[0] = p.bound_min_x;
    fb->bound[1] = p.bound_min_y;
    fb->bound[2] = p.bound_max_x;
    fb->bound[3] = p.bound_max_y;
    fb->samples = p.sample_count;
    fb->sample_pattern = p.sample_pattern;
    fb->tie_break = p.tie_break_rule;
    fb->nrts = p.render_target_count;
    fb->s_clear = (uint8_t)p.s_clear;
    fb->s_write = p.s_write_enable;
    fb->s_preload = p.s_preload_enable;
    fb->z_internal = p.z_internal_format;
    fb->z_write = p.z_write_enable;
    fb->z_preload = p.z_preload_enable;
    fb->has_ext = p.has_zs_crc_extension;
    fb->z_clear = p.z_clear;
    fb->tiler = p.tiler;
    fb->pre_frame[0] = p.pre_frame_0;
    fb->pre_frame[1] = p.pre_frame_1;
    fb->post_frame = p.post_frame;
    fb->frame_dcds = p.frame_shader_dcds;
    fb->sample_locations = p.sample_locations;
    if (fb->nrts != tag_rts || fb->has_ext != tag_ext)
        return fail(fva, fb->va, MALI_EXC_JOB_CONFIG_FAULT, err, errlen,
                    "framebuffer: pointer tag (%u targets%s) disagrees with the descriptor (%u%s)", tag_rts,
                    tag_ext ? ", extension" : "", fb->nrts, fb->has_ext ? ", extension" : "");
    if (fb->width > 16384 || fb->height > 16384 || fb->bound[2] < fb->bound[0] || fb->bound[3] < fb->bound[1])
        return fail(fva, fb->va, MALI_EXC_JOB_CONFIG_FAULT, err, errlen, "framebuffer: %ux%u, bounds %u,%u-%u,%u",
                    fb->width, fb->height, fb->bound[0], fb->bound[1], fb->bound[2], fb->bound[3]);
    /* the pattern panfrost pairs with each count (pan_sample_pattern); the rasterizer knows
     * these four */
    static const unsigned pattern_of[17] = { [1] = MALI_SAMPLE_PATTERN_SINGLE_SAMPLED,
                                             [4] = MALI_SAMPLE_PATTERN_ROTATED_4X_GRID,
                                             [8] = MALI_SAMPLE_PATTERN_D3D_8X_GRID,
                                             [16] = MALI_SAMPLE_PATTERN_D3D_16X_GRID };
    if (!gfx_raster_samples_ok(fb->samples) || fb->samples > 16 || pattern_of[fb->samples] != fb->sample_pattern)
        return fail(fva, fb->va, MALI_EXC_DATA_INVALID_FAULT, err, errlen,
                    "framebuffer: %u samples per pixel with sample pattern %u not implemented", fb->samples,
                    fb->sample_pattern);

    const uint8_t *d = buf + FB_PARAMS_SIZE;
    if (fb->has_ext) {
        struct mali_zs_crc_extension x;
        mali_zs_crc_extension_unpack(d, &x, arch_major);
        fb->zs_format = x.zs_write_format;
        fb->zs_block = block(arch_major, x.zs_block_format);
        fb->zs_msaa = x.zs_msaa;
        fb->zs_base = x.zs_writeback_base;
        fb->zs_row_stride = x.zs_writeback_row_stride;
        fb->zs_surface_stride = x.zs_writeback_surface_stride;
        fb->s_format = x.s_write_format;
        fb->s_block = block(arch_major, x.s_block_format);
        fb->s_msaa = x.s_msaa;
        fb->s_base = x.s_writeback_base;
        fb->s_row_stride = x.s_writeback_row_stride;
        fb->s_surface_stride = x.s_writeback_surface_stride;
        d += FB_EXT_SIZE;
    }
    for (unsigned i = 0; i < fb->nrts; i++, d += FB_RT_SIZE) {
        struct mali_render_target r;
        gfx_rt *rt = &fb->rt[i];
        mali_render_target_unpack(d, &r, arch_major);
        rt->write = r.write_enable;
        rt->internal_format = r.internal_format;
        rt->internal_offset = r.internal_buffer_offset;
        rt->writeback_format = r.writeback_format;
        rt->block_format = block(arch_major, r.writeback_block_format);
        rt->msaa = r.writeback_msaa;
        rt->srgb = r.srgb;
        rt->dither = r.dithering_enable;
        for (unsigned c = 0; c < 4; c++)
            rt->swizzle[c] = (uint8_t)(r.swizzle >> (3 * c) & 7);
        rt->base = r.rgb_base;
        rt->row_stride = r.rgb_row_stride;
        rt->surface_stride = r.rgb_surface_stride;
        rt->clear[0] = r.clear_color_0;
        rt->clear[1] = r.clear_color_1;
        rt->clear[2] = r.clear_color_2;
        rt->clear[3] = r.clear_color_3;
        if (r.yuv_enable)
            return fail(fva, fb->va, MALI_EXC_DATA_INVALID_FAULT, err, errlen,
                        "render target %u: YUV not implemented", i);
    }
    return 0;
}
