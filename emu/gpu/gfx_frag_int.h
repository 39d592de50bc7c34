/* Shared by the fragment front end's files: a FRAGMENT job being run (gfx_frame), each draw of
 * its polygon list with the state its fragment DCD gives (gfx_draw), and the per-tile work.
 *
 *   gfx_fragment.c   the job: framebuffer, polygon list, draws' state, tiles on the pool
 *   gfx_shade.c      one tile: rasterize the binned primitives, early/late depth-stencil,
 *                    fragment-shader warps and their messages (bifrost_gfx.h), blending */
#ifndef MALIBU_GPU_GFX_FRAG_INT_H
#define MALIBU_GPU_GFX_FRAG_INT_H

#include "engine_int.h"
#include "gfx_blend.h"
#include "gfx_fb.h"
#include "gfx_polylist.h"
#include "gfx_stats.h"
#include "gfx_tile.h"

typedef struct gfx_stencil {
    uint8_t ref, mask, write_mask;
    uint8_t func, fail, zfail, zpass;        /* enum mali_func / mali_stencil_op */
} gfx_stencil;

typedef struct gfx_draw {
    gfx_pl_draw pl;                          /* the polygon list's record */
    gfx_pl_prim *prims;
    gfx_pl_bin *bins;
    uint32_t *entries;
    /* the fragment DCD (job + 128) and its renderer state */
    job_desc d;                              /* shader, uniforms, UBOs, textures, varyings */
    bi_program *prog;                        /* NULL: no fragment shader (depth / stencil only) */
    int cached;
    uint64_t position;                       /* vertex slots' positions */
    bool front_ccw, cull_front, cull_back;
    unsigned flat_vertex;                    /* lines: the provoking vertex (DCD flat shading vertex) */
    int sx0, sy0, sx1, sy1;                  /* scissor, pixels, inclusive */
    float zmin, zmax;
    /* renderer state */
    unsigned depth_func;                     /* enum mali_func */
    bool depth_write, stencil_enable, depth_from_shader, stencil_from_shader;
    bool early_kill, early_update;           /* pixel kill / ZS update before the shader */
    bool near_discard, far_discard;          /* fixed-function depth outside [zmin, zmax] */
    bool alpha_to_coverage;
    bool per_sample;                         /* evaluate per sample: one invocation per covered sample */
    uint16_t sample_mask;
    float depth_units, depth_factor, depth_clamp;   /* polygon offset */
    bool bias_front, bias_back;
    gfx_stencil stencil[2];                  /* front, back */
    bool point_origin_max_y;
    uint64_t blend_va;                       /* Blend descriptors (16 bytes each) after the RSD */
    uint64_t blend_desc[GFX_MAX_RTS];        /* their Internal Blend words (the BLEND FAU values) */
    gfx_blend_state blend[GFX_MAX_RTS];      /* the blender each descriptor sets up */
    bool blend_shader[GFX_MAX_RTS];          /* its mode is SHADER */
    uint64_t fau[32];                        /* the special FAU values its warps read */
    uint16_t msg[2];                         /* v7 message preloads (0: none) */
} gfx_draw;

typedef struct gfx_frame {
    gpu_compute *e;
    const gpu_compute_job *job;
    gfx_fb fb;
    unsigned lanes;                          /* 4 (v6) or 8 (v7) */
    unsigned tiles_x, tx0, ty0;              /* the job's tile bounds */
    gfx_draw *draws;
    unsigned ndraws;
    /* frame shaders: pre-frame 0, pre-frame 1, post-frame (mode NEVER: none) */
    gfx_draw frame[3];
    unsigned frame_mode[3];
    double frame_plane[3][6];               /* x0, y0, then d(b1)/dx, d(b1)/dy, d(b2)/dx, d(b2)/dy */
    gfx_tile *tiles;                         /* one per worker slot */
    /* blend shaders the frame's draws called (program cache references, under err_lock); the
     * first nblend_known were found before shading (draw order), and --stats announces them */
    struct { uint64_t va; bi_program *prog; int cached; } blend_progs[32];
    unsigned nblend_progs, nblend_known;
    gfx_shade_counts *counts;                /* one per worker slot (gfx_stats.h) */
    char err[160];                           /* the first failing tile's reason */
    uint64_t err_tile;
    pthread_mutex_t err_lock;
} gfx_frame;

/* gfx_fragment.c: the program of the blend shader at va (NULL: out of memory or too many). */
bi_program *gfx_blend_program(gfx_frame *f, uint64_t va);
/* gfx_fragment.c: the blend shaders the draws' blend descriptors name, in draw order, before any
 * tile is shaded (so the report's programs come in the same order for any number of threads). */
void gfx_blend_programs_find(gfx_frame *f);

/* gfx_shade.c: tile idx of the frame run r (r->item_ctx) on worker w: 0 or an exception code. */
uint32_t gfx_shade_tile(struct worker *w, uint64_t idx);

#endif
