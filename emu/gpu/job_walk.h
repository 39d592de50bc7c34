/* Mali job-chain walker: follows a chain from a job header through every descriptor its jobs
 * reference (the layouts of isa/mali/bifrost.fmt), handing each one's bytes to a visitor.  The
 * GPU dump (--gpu-dump, devices/board_gpu.c) records what it visits; build/malibu-decode walks the
 * recorded memory again and prints it.  Reads never fault: a descriptor that cannot be read is
 * reported as missing and its references are not followed.  Guest memory is hostile: every
 * count the walker follows is bounded (jobs, table entries, render targets, blend descriptors,
 * shader bytes), and nothing it follows can lead back to a job, so a walk always ends.
 *
 * Graphics jobs: a TILER job's primitive (and index buffer), primitive size, tiler context (and
 * heap) and draw; an
 * INDEXED_VERTEX (IDVS) job's the same with its vertex and fragment draws; a draw's viewport,
 * varyings and their buffers, and after a fragment renderer state its blend descriptors (and
 * blend shaders); a FRAGMENT job's framebuffer: parameters, sample locations, ZS/CRC
 * extension, render targets, the pre/post-frame shaders' draws and the tiler context. */
#ifndef MALIBU_GPU_JOB_WALK_H
#define MALIBU_GPU_JOB_WALK_H

#include <stddef.h>
#include <stdint.h>

enum mali_desc_kind {
    MALI_DESC_JOB_HEADER,
    MALI_DESC_WRITE_VALUE,
    MALI_DESC_CACHE_FLUSH,
    MALI_DESC_COMPUTE_PAYLOAD,
    MALI_DESC_DRAW,
    MALI_DESC_RENDERER_STATE,
    MALI_DESC_SHADER,               /* code bytes: up to a zero 16-byte block, at most 64 KiB */
    MALI_DESC_UNIFORM_BUFFER,       /* index = UBO number */
    MALI_DESC_PUSH_UNIFORMS,        /* uniform_count 64-bit words */
    MALI_DESC_LOCAL_STORAGE,
    MALI_DESC_TEXTURE,              /* index = texture number */
    MALI_DESC_SURFACE,              /* index = surface number within its texture */
    MALI_DESC_SAMPLER,
    MALI_DESC_ATTRIBUTE,
    MALI_DESC_ATTRIBUTE_BUFFER,     /* index = buffer number */
    MALI_DESC_ATTRIBUTE_BUFFER_3D,  /* continuation record of a 3D attribute buffer */
    MALI_DESC_ATTRIBUTE_BUFFER_NPOT, /* continuation record of an NPOT-divisor attribute buffer */
    MALI_DESC_FRAGMENT_JOB,         /* the fragment job payload */
    MALI_DESC_PRIMITIVE,
    /* graphics (index: as noted) */
    MALI_DESC_INVOCATION,           /* vertex count x instances of a TILER / IDVS job */
    MALI_DESC_PRIMITIVE_SIZE,
    MALI_DESC_TILER_POINTER,        /* job + 72 of TILER / IDVS jobs: the tiler context's address */
    MALI_DESC_TILER_CONTEXT,
    MALI_DESC_TILER_HEAP,
    MALI_DESC_VERTEX_DRAW,          /* IDVS: the position / varying shaders' draw */
    MALI_DESC_FRAGMENT_DRAW,        /* IDVS: the fragment side's draw */
    MALI_DESC_FRAME_SHADER_DRAW,    /* index 0, 1: pre-frame shaders, 2: post-frame shader */
    MALI_DESC_VIEWPORT,
    MALI_DESC_BLEND,                /* index = render target */
    MALI_DESC_VARYING,              /* index = varying number */
    MALI_DESC_VARYING_BUFFER,       /* index = buffer number */
    MALI_DESC_FRAMEBUFFER,          /* framebuffer parameters (the fixed part's first 64 bytes) */
    MALI_DESC_ZS_CRC_EXTENSION,
    MALI_DESC_RENDER_TARGET,        /* index = render target */
    MALI_DESC_SAMPLE_LOCATIONS,     /* the framebuffer's 33 (x, y) pairs of 16-bit words */
    MALI_DESC_INDICES,              /* a draw's index buffer (index = bytes per index; at most
                                     * MALI_WALK_MAX_INDEX_BYTES) */
    MALI_DESC_KIND_COUNT
};
/* MALI_DESC_SHADER's index: 0 the renderer state's shader, 1 its secondary shader (IDVS varying
 * shader), 2 a blend shader. */
enum { MALI_SHADER_MAIN, MALI_SHADER_SECONDARY, MALI_SHADER_BLEND };

#define MALI_WALK_MAX_SHADER 65536u
#define MALI_WALK_MAX_INDEX_BYTES 65536u
#define MALI_WALK_SAMPLE_LOCATIONS_BYTES 132u

typedef struct mali_walk {
    /* 0 when [va, va + len) was read into buf, else nonzero (no fault is raised) */
    int (*read)(void *ctx, uint64_t va, void *buf, size_t len);
    void *read_ctx;
    /* each descriptor read, depth = nesting below its job (0: the job header) */
    void (*visit)(void *ctx, enum mali_desc_kind kind, uint64_t va, const uint8_t *bytes, size_t len,
                  unsigned index, unsigned depth);
    void (*missing)(void *ctx, enum mali_desc_kind kind, uint64_t va, size_t len, unsigned index,
                    unsigned depth);   /* optional */
    void *visit_ctx;
} mali_walk;

/* Walks the jobs linked from head (at most max_jobs of them); returns the number visited. */
unsigned mali_walk_chain(const mali_walk *w, uint64_t head, unsigned max_jobs);

/* Local size and workgroup counts of a compute payload (invocations packed from the bits its
 * shifts name, each field stored as value - 1).  0, or -1 when the shifts do not fit. */
struct mali_compute_payload;
int mali_invocation_decode(const struct mali_compute_payload *p, unsigned local[3], unsigned groups[3]);
/* The same for a graphics job's invocation (Mesa packs draws as local 1 x 1 x 1, workgroups
 * 1 x vertices x instances). */
struct mali_invocation;
int mali_invocation_decode_graphics(const struct mali_invocation *p, unsigned local[3], unsigned groups[3]);

/* Short name of a descriptor kind ("job header", "texture", ...). */
const char *mali_desc_name(enum mali_desc_kind kind);

#endif
