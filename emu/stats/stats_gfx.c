/* The report's "graphics" section: what the GPU's graphics front ends reported to the observer
 * (emu/gpu/gpu_observer.h): per draw the tiler binned, primitives in, culled, clipped; per
 * FRAGMENT job (a frame), tiles, quads, fragments, samples, helper lanes, pixels shaded and the
 * overdraw (fragments / pixels).  The counts arrive summed over the job's host threads. */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "stats_gpu.h"

#define FRAME_LIST_MAX 10000          /* frames listed (the rest are only in the totals) */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t ndraws_idvs, ndraws_tiler;
static gpu_gfx_draw_counts draws;
static gpu_gfx_frame_counts frames_total;
static gpu_gfx_frame_counts *frames;
static size_t nframes, capframes;

void stats_gfx_draw(unsigned type, const gpu_gfx_draw_counts *c)
{
    pthread_mutex_lock(&lock);
    if (type == 10)
        ndraws_idvs++;
    else
        ndraws_tiler++;
    draws.prims_in += c->prims_in;
    draws.culled += c->culled;
    draws.clipped += c->clipped;
    draws.dropped += c->dropped;
    pthread_mutex_unlock(&lock);
}

static void add_frame(gpu_gfx_frame_counts *a, const gpu_gfx_frame_counts *c)
{
    a->tiles += c->tiles;
    a->draws += c->draws;
    a->prims += c->prims;
    a->quads += c->quads;
    a->fragments += c->fragments;
    a->samples += c->samples;
    a->helpers += c->helpers;
    a->killed_early += c->killed_early;
    a->pixels += c->pixels;
    a->frame_fragments += c->frame_fragments;
}

void stats_gfx_frame(const gpu_gfx_frame_counts *c)
{
    pthread_mutex_lock(&lock);
    if (nframes < FRAME_LIST_MAX) {
        if (nframes == capframes) {
            size_t cap = capframes ? 2 * capframes : 64;
            gpu_gfx_frame_counts *n = realloc(frames, cap * sizeof(*n));
            if (n) {
                frames = n;
                capframes = cap;
            }
        }
        if (nframes < capframes)
            frames[nframes] = *c;
    }
    nframes++;
    add_frame(&frames_total, c);
    pthread_mutex_unlock(&lock);
}

void stats_gfx_get(stats_gfx_totals *out)
{
    pthread_mutex_lock(&lock);
    out->draws = ndraws_idvs + ndraws_tiler;
    out->prims = draws;
    out->frames = nframes;
    out->frame = frames_total;
    pthread_mutex_unlock(&lock);
}

int stats_gfx_get_frame(size_t i, gpu_gfx_frame_counts *out)
{
    int rc = -1;
    pthread_mutex_lock(&lock);
    if (i < nframes && i < capframes) {
        *out = frames[i];
        rc = 0;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

void stats_gfx_reset(void)
{
    pthread_mutex_lock(&lock);
    ndraws_idvs = ndraws_tiler = 0;
    memset(&draws, 0, sizeof(draws));
    memset(&frames_total, 0, sizeof(frames_total));
    free(frames);
    frames = NULL;
    nframes = capframes = 0;
    pthread_mutex_unlock(&lock);
}

/* fragments per pixel shaded, 0 when none */
static double overdraw(const gpu_gfx_frame_counts *c)
{
    return c->pixels ? (double)c->fragments / (double)c->pixels : 0;
}

static void write_frame(FILE *f, const gpu_gfx_frame_counts *c)
{
    fprintf(f, "{\"width\": %u, \"height\": %u, \"tiles\": %" PRIu64 ", \"draws\": %" PRIu64
               ", \"primitives_rasterized\": %" PRIu64 ", \"quads\": %" PRIu64 ", \"fragments\": %" PRIu64
               ", \"samples\": %" PRIu64 ", \"helper_lanes\": %" PRIu64 ", \"killed_early\": %" PRIu64
               ", \"pixels_shaded\": %" PRIu64 ", \"frame_shader_fragments\": %" PRIu64 ", \"overdraw\": %.4f}",
            c->width, c->height, c->tiles, c->draws, c->prims, c->quads, c->fragments, c->samples, c->helpers,
            c->killed_early, c->pixels, c->frame_fragments, overdraw(c));
}

static void write_json(FILE *f, const char *in, const stats_totals *T)
{
    (void)T;
    pthread_mutex_lock(&lock);
    fprintf(f, "\"draws\": {\"indexed_vertex\": %" PRIu64 ", \"tiler\": %" PRIu64 "},\n", ndraws_idvs, ndraws_tiler);
    fprintf(f, "%s\"primitives\": {\"in\": %" PRIu64 ", \"culled\": %" PRIu64 ", \"clipped\": %" PRIu64
               ", \"dropped\": %" PRIu64 "},\n",
            in, draws.prims_in, draws.culled, draws.clipped, draws.dropped);
    fprintf(f, "%s\"frames\": [", in);
    size_t listed = nframes < capframes ? nframes : capframes;
    for (size_t i = 0; i < listed; i++) {
        fprintf(f, "%s\n%s  ", i ? "," : "", in);
        write_frame(f, &frames[i]);
    }
    fprintf(f, "%s],\n%s\"frames_omitted\": %zu,\n%s\"frame_totals\": ", listed ? "\n" : "", in, nframes - listed, in);
    gpu_gfx_frame_counts t = frames_total;
    t.width = t.height = 0;
    write_frame(f, &t);
    fprintf(f, "\n");
    pthread_mutex_unlock(&lock);
}

static void summary(FILE *f, const stats_totals *T)
{
    (void)T;
    pthread_mutex_lock(&lock);
    if (!nframes && !ndraws_idvs && !ndraws_tiler) {           /* no graphics job ran */
        pthread_mutex_unlock(&lock);
        return;
    }
    const gpu_gfx_frame_counts *c = &frames_total;
    fprintf(f, "  graphics: %" PRIu64 " draws, primitives %" PRIu64 " in, %" PRIu64 " culled, %" PRIu64
               " clipped; %zu frames: %" PRIu64 " tiles, %" PRIu64 " quads, %" PRIu64 " fragments (%" PRIu64
               " samples), %" PRIu64 " helper lanes, %" PRIu64 " killed early, %" PRIu64
               " pixels shaded, overdraw %.2f\n",
            ndraws_idvs + ndraws_tiler, draws.prims_in, draws.culled, draws.clipped, nframes, c->tiles, c->quads,
            c->fragments, c->samples, c->helpers, c->killed_early, c->pixels, overdraw(c));
    for (size_t i = 0; i < nframes && i < capframes && i < 8; i++)
        fprintf(f, "  graphics frame %zu: %ux%u, %" PRIu64 " tiles, %" PRIu64 " draws, %" PRIu64 " fragments, %"
                   PRIu64 " pixels shaded, overdraw %.2f\n",
                i, frames[i].width, frames[i].height, frames[i].tiles, frames[i].draws, frames[i].fragments,
                frames[i].pixels, overdraw(&frames[i]));
    pthread_mutex_unlock(&lock);
}

static bool present(void)
{
    pthread_mutex_lock(&lock);
    bool any = nframes || ndraws_idvs || ndraws_tiler;
    pthread_mutex_unlock(&lock);
    return any;
}

static const stats_section gfx_section = { .name = "graphics", .write_json = write_json, .summary = summary,
                                           .present = present };

__attribute__((constructor)) static void register_gfx_section(void)
{
    stats_register_section(&gfx_section);
}
