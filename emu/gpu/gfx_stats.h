/* What a FRAGMENT job shaded, for the observer (gpu_observer.h: gfx_frame, and the per-program
 * job_begin / job_end of its draws): each worker slot counts the tiles it ran into its own
 * gfx_shade_counts, summed in slot order when the job ends, so the counts are the same for any
 * number of host threads. */
#ifndef MALIBU_GPU_GFX_STATS_H
#define MALIBU_GPU_GFX_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "compute.h"
#include "gfx_tile.h"

struct gfx_quad;
struct gfx_frame;
struct run;

typedef struct gfx_shade_counts {
    gpu_gfx_frame_counts c;
    uint64_t shaded[GFX_TILE_PIXELS / 64];   /* the current tile's pixels shaded so far */
    unsigned tile_warps;                     /* the current tile's warps that ran a shader */
} gfx_shade_counts;

/* A tile starts / ends on slot s (ends: its distinct shaded pixels join the count; returns the
 * warps that ran a shader in it, at least 1: --timing's memory parallelism of the tile). */
void gfx_stats_tile_begin(gfx_shade_counts *s);
unsigned gfx_stats_tile_end(gfx_shade_counts *s);
/* A warp of nq quads q[] (lane l: quad l / 4, pixel l % 4) of the tile at (x0, y0): `covered`
 * the lanes covering a sample before the early depth/stencil test, `live` after it (cov[l]: the
 * samples still covered), `shaded`: the fragment shader runs on it; `frame`: a frame shader's. */
void gfx_stats_warp(gfx_shade_counts *s, const struct gfx_quad *const *q, unsigned nq, unsigned x0, unsigned y0,
                    uint32_t covered, uint32_t live, const uint16_t *cov, bool shaded, bool frame);
/* run.announce of a FRAGMENT job's run: job_begin / job_end for each distinct program its frame
 * shaders and draws run (first use order), stage GPU_STAGE_FRAGMENT. */
void gfx_stats_announce(struct run *r, bool begin);
/* The first program the frame runs (frame shaders, then draws), NULL if none: the kernel the
 * report charges the job's --timing counters to. */
struct bi_program *gfx_stats_first_program(const struct gfx_frame *f);
/* After the job's tiles ran: the slots' counts summed into *out (draws and framebuffer size from f). */
void gfx_stats_frame_sum(const struct gfx_frame *f, unsigned nslots, gpu_gfx_frame_counts *out);

#endif
