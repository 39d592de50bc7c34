/* The tiler: a draw's primitives assembled, culled and binned into the frame's polygon list
 * (gfx_polylist.h) in the tiler heap.  Called for IDVS jobs after their vertex shading and for
 * TILER jobs (gfx_vertex.c). */
#ifndef MALIBU_GPU_GFX_TILER_H
#define MALIBU_GPU_GFX_TILER_H

#include <stddef.h>
#include <stdint.h>

#include "compute.h"
#include "mali_formats.h"

/* The vertex slots between one instance and the next: the draw's Instance Size, a padded count
 * (genxml: (2 * v[7:5] + 1) << v[4:0]; Mesa's padded vertex count), when it draws more than one
 * instance.  The vertex front end (positions, attributes) and the tiler must agree on it. */
static inline uint64_t gfx_instance_size(const struct mali_draw *d, unsigned instances)
{
    return instances > 1 ? mali_padded_decode(d->instance_size) : 1;
}

/* Bin the draw of the job whose first 256 bytes are jd (primitive +40, primitive size +64,
 * tiler pointer +72, fragment DCD +128): count vertices x instances, shaded.  0 or an exception
 * code (*fva at fault, err says why in one line).  *counts (if not NULL): what became of the
 * primitives, for the observer. */
uint32_t gfx_tiler_bin(const gpu_compute_job *job, const uint8_t *jd, unsigned count, unsigned instances,
                       uint64_t *fva, char *err, size_t errlen, gpu_gfx_draw_counts *counts);

#endif
