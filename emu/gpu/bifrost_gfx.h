/* Bifrost executor <-> graphics front end: the fixed-function interface the executor calls for the
 * graphics shader messages (LD_VAR*, VAR_TEX's varying, ATEST, ZS_EMIT, BLEND, LD_TILE / ST_TILE,
 * DISCARD), and the registers the front end preloads.  The executor decodes each message's
 * modifiers and registers; the front end interpolates, tests, blends and owns the tile buffer.
 *
 * Reached through bi_mem.gfx (one table per engine, const); each warp carries the front end's
 * per-warp state in bi_warp.gfx_ctx, so host threads running different warps never share one.
 *
 * Calls are per warp, not per lane: one call per message per clause, with `lanes` the mask of
 * the lanes the message runs for (bit l = lane l) and rows indexed by lane (row[l], only lanes in
 * the mask meaningful).  Whole-warp calls keep the indirect-call cost per message, not per lane,
 * and let the front end see whole quads for centroid and derivative work (the front end puts a
 * 2x2 quad in lanes 4q..4q+3, x in lane bit 0 and y in bit 1: Mesa's derivatives read the
 * neighbours with CLPER lane ^ 1 / ^ 2).  Outputs: out rows are written for the lanes in the mask only; the executor commits them
 * to the staging registers at the clause end, as for loads.
 *
 * Helper lanes.  bi_warp.helper (set by the front end when it starts the warp) marks lanes that
 * run only so that their quad's derivatives exist; DISCARD adds lanes to it.  The executor
 * leaves helper lanes out of the mask of every call with an effect outside the warp (ATEST,
 * ZS_EMIT, BLEND, ST_TILE, and global stores and atomics), and keeps them in the calls that only
 * return values (varyings, LD_TILE), so derivatives of those values stay defined.
 *
 * Every callback returns 0, BI_EXEC_ERROR (a memory fault: the message in why) or
 * BI_EXEC_UNIMPLEMENTED (a form the front end does not support: why says which); the executor
 * turns the last two into a bi_fault (BI_FAULT_MEMORY / BI_FAULT_UNIMPLEMENTED) naming the clause.
 * A NULL callback faults the message as unimplemented. */
#ifndef MALIBU_BIFROST_GFX_H
#define MALIBU_BIFROST_GFX_H

#include <stdint.h>

#include "bifrost_exec.h"

/* ---- preloaded registers (Mesa: pan_make_preload, bifrost_compile.c's bi_preload users) ------
 * The front end writes them into bi_warp.reg before the warp's first clause (v6 and v7 alike). */
enum {
    /* vertex shaders (VERTEX job and both IDVS shaders) */
    BI_GFX_VS_POS_LO = 58,       /* IDVS position shader: this vertex's position slot address, */
    BI_GFX_VS_POS_HI = 59,       /*   the ST_CVT address of gl_Position (and point size after it) */
    BI_GFX_VS_VERTEX_ID = 61,    /* the vertex's index relative to the draw's vertex offset
                                    (Mesa: gl_VertexID = load_raw_vertex_id_pan (r61) +
                                    load_raw_vertex_offset_pan, a sysval); LD_ATTR / LEA_ATTR
                                    index buffers with it */
    BI_GFX_VS_INSTANCE_ID = 62,  /* the instance (both IDVS shaders and VERTEX jobs alike) */
    /* fragment shaders */
    BI_GFX_FS_PRIMITIVE_ID = 57,
    BI_GFX_FS_PRIMITIVE_FLAGS = 58,  /* bit 0: back facing (0: front facing) */
    BI_GFX_FS_POSITION = 59,     /* pixel x | y << 16, 16 bits each (frag coord = that + 0.5) */
    BI_GFX_FS_COVERAGE = 60,     /* the fragment's coverage mask (bit s: sample s), always loaded;
                                    ATEST / ZS_EMIT / BLEND take it as a source and return it */
    BI_GFX_FS_SAMPLE = 61,       /* [15:0] rasterizer coverage (gl_SampleMaskIn), [23:16] sample id */
    /* blend shaders: colour in r0-r3 (second dual-source colour r4-r7), coverage in r60 */
    BI_GFX_BLEND_LINK = 48,      /* return address: set by the executor at the call (below) */
};

/* Special FAU values (the tuple's fau_idx < 0x20, 64-bit each) a graphics shader reads: the
 * front end fills bi_warp.gfx_fau[index] (NULL: all zero). */
enum {
    BI_GFX_FAU_FB_SIZE = 4,      /* framebuffer size */
    BI_GFX_FAU_ATEST = 5,        /* ATEST datum (its low word: the source ATEST takes) */
    BI_GFX_FAU_SAMPLE_POS = 6,   /* sample-position array address */
    BI_GFX_FAU_BLEND0 = 8,       /* blend descriptors of render targets 0-7: 8..15 */
    BI_GFX_FAU_COUNT = 32,
};

/* Varying fetch (LD_VAR, LD_VAR_IMM, LD_VAR_FLAT, LD_VAR_FLAT_IMM, LD_VAR_SPECIAL; VAR_TEX's
 * coordinate), its qualifiers decoded. */
enum bi_gfx_vkind { BI_GFX_VARY_SMOOTH, BI_GFX_VARY_FLAT, BI_GFX_VARY_SPECIAL };
enum bi_gfx_sample { BI_GFX_SAMPLE_CENTER, BI_GFX_SAMPLE_CENTROID, BI_GFX_SAMPLE_SAMPLE,
                     BI_GFX_SAMPLE_EXPLICIT, BI_GFX_SAMPLE_NONE };
enum bi_gfx_update { BI_GFX_UPDATE_STORE, BI_GFX_UPDATE_RETRIEVE, BI_GFX_UPDATE_CONDITIONAL,
                     BI_GFX_UPDATE_CLOBBER };
enum bi_gfx_special { BI_GFX_SPECIAL_POINT, BI_GFX_SPECIAL_FRAG_W, BI_GFX_SPECIAL_FRAG_Z };
enum bi_gfx_function { BI_GFX_FUNC_NONE, BI_GFX_FUNC_AND, BI_GFX_FUNC_OR };   /* LD_VAR_FLAT */

typedef struct bi_gfx_varying {
    uint8_t kind;                /* enum bi_gfx_vkind */
    uint8_t sample;              /* enum bi_gfx_sample (flat: NONE) */
    uint8_t update;              /* enum bi_gfx_update (flat: STORE) */
    uint8_t special;             /* SPECIAL: enum bi_gfx_special */
    uint8_t function;            /* FLAT: enum bi_gfx_function */
    uint8_t regfmt;              /* BI_RF_F32, BI_RF_F16 (two values per register), BI_RF_U32,
                                    BI_RF_I32, or BI_RF_AUTO (the varying's own format) */
    uint8_t ncomp;               /* components, 1-4 (f16: packed two per register) */
    uint8_t imm;                 /* the index is the immediate `index` (else the row `index`) */
    uint32_t index;              /* _IMM forms: the varying index */
} bi_gfx_varying;

/* Attribute fetch (LD_ATTR*): the executor resolves it itself through the DCD's attribute and
 * attribute-buffer tables (bi_mem.attributes / attr_bufs, as LEA_ATTR), no callback: element
 * linear >> r (POT divisor), linear % divisor (modulus), linear * magic >> (32 + r) (NPOT, with
 * its continuation record) or linear (1D), where linear = vertex id + instance id *
 * bi_mem.attr_instance_size, converted as LD_CVT converts. */

struct bi_gfx_if {
    /* Varyings.  src0: the message's first source (sample mode EXPLICIT: the offset, 8:8 signed
     * fixed point x | y << 16; SAMPLE / CENTROID: r61 as Mesa passes it; else undefined), index:
     * the varying index row (unused when v->imm).  out[c][l]: register c of lane l. */
    int (*varying)(void *ctx, const bi_warp *w, uint32_t lanes, const bi_gfx_varying *v, const uint32_t *src0,
                   const uint32_t *index, uint32_t out[4][BI_MAX_LANES], char *why, unsigned whylen);
    /* ATEST: alpha test and alpha-to-coverage.  coverage: the source coverage rows, alpha: alpha
     * as binary32 (the executor widens an f16 half), datum: the ATEST datum FAU word.  The new
     * coverage goes to coverage_out (the staging register and the destination). */
    int (*atest)(void *ctx, const bi_warp *w, uint32_t lanes, const uint32_t *coverage, const uint32_t *alpha,
                 uint32_t datum, uint32_t *coverage_out, char *why, unsigned whylen);
    /* ZS_EMIT: shader depth (binary32 rows) and / or stencil (low 8 bits) for the lanes; write_z /
     * write_s: which of them the op carries.  The new coverage goes to coverage_out. */
    int (*zs_emit)(void *ctx, const bi_warp *w, uint32_t lanes, const uint32_t *z, const uint32_t *stencil,
                   int write_z, int write_s, const uint32_t *coverage, uint32_t *coverage_out, char *why,
                   unsigned whylen);
    /* BLEND: render target rt (0-7: from the blend-descriptor FAU slot the op reads; in a blend
     * shader, the target of the BLEND that called it), desc: the 64-bit blend descriptor (its
     * register format and mode are the front end's to decode), colour[c][l]: the staging registers
     * (4 read; f16 formats use the first 2), coverage: the coverage rows.  Fixed-function blend:
     * apply it, return 0 with *shader = 0.  A blend shader: return 0 with *shader = its GPU
     * address; the executor then stops the warp with BI_EXEC_BLEND_CALL (below) and blends
     * nothing itself. */
    int (*blend)(void *ctx, const bi_warp *w, uint32_t lanes, unsigned rt, uint64_t desc,
                 const uint32_t colour[4][BI_MAX_LANES], const uint32_t *coverage, uint64_t *shader, char *why,
                 unsigned whylen);
    /* LD_TILE (store = 0) / ST_TILE (1): pixel: the pixel-indices rows (Mesa's bifrost_pixel_indices:
     * sample, render target, and x / y or "current pixel"), coverage rows, conv: the internal
     * conversion descriptor word, ncomp 1-4 registers in data (read for ST_TILE, written for
     * LD_TILE). */
    int (*tile)(void *ctx, const bi_warp *w, uint32_t lanes, int store, const uint32_t *pixel,
                const uint32_t *coverage, uint32_t conv, unsigned ncomp, uint32_t data[4][BI_MAX_LANES],
                char *why, unsigned whylen);
    /* Optional (NULL: none): lanes a DISCARD turned into helper lanes (statistics; the executor
     * already suppresses their later effects). */
    void (*discard)(void *ctx, const bi_warp *w, uint32_t lanes);
};

/* Blend shaders.  A BLEND whose callback names a blend shader ends bi_exec_program with
 * BI_EXEC_BLEND_CALL: every lane that blended has its pc after the BLEND clause, and
 * bi_warp.blend_shader / blend_rt say what to run.  The front end gets the shader's bi_program
 * (its program cache, keyed by the address) and calls bi_gfx_run_blend, which saves the fragment
 * shader's lane state, puts the return address in r48 (BI_GFX_BLEND_LINK) of those lanes, runs
 * the blend shader from its first clause (its BLENDs reach the blend callback with rt = blend_rt)
 * until each lane JUMPs to r48 (the return: the lane leaves the blend shader) or ends, and
 * restores the fragment shader's state; bi_exec_program(w, fragment program) then continues. */
int bi_gfx_run_blend(bi_warp *w, bi_program *blend, const bi_mem *blend_mem, unsigned max_clauses, bi_fault *f);

/* v7 message preloads (RSD "Message Preload 1 / 2", 16 bits each: type, then the LD_VAR or
 * VAR_TEX fields of genxml's "LD_VAR Preload" / "VAR_TEX Preload"): the message run for the lanes
 * in `lanes` before the first clause, through the same callbacks, its results in r0-r3 (slot 0)
 * or r4-r7 (slot 1).  Call after writing the fragment preloads (LD_VAR takes r61).  Type 0:
 * nothing.  A preloaded LD_VAR interpolates at the sample (BI_GFX_SAMPLE_SAMPLE), update STORE. */
int bi_gfx_message_preload(bi_warp *w, uint32_t lanes, unsigned slot, uint32_t desc, bi_fault *f);

#endif
