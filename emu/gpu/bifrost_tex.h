/* Bifrost texture and image messages (TEXC, TEXS_2D, LEA_ATTR*, LD_CVT, ST_CVT): descriptor reads
 * through the warp's bi_mem, texel format conversion, nearest and linear sampling, typed image stores. */
#ifndef MALIBU_BIFROST_TEX_H
#define MALIBU_BIFROST_TEX_H

#include <stddef.h>
#include <stdint.h>

struct bi_mem;

/* Register file formats (Mali "Register File Format"), also the TEXC result formats we map. */
enum { BI_RF_F16 = 0, BI_RF_F32 = 1, BI_RF_I32 = 2, BI_RF_U32 = 3, BI_RF_I16 = 4, BI_RF_U16 = 5,
       BI_RF_AUTO = 7 /* LEA_ATTR*.auto: the format the pixel format implies (resolved in the descriptor) */ };

/* TEXC (desc = the 32-bit texture operation descriptor) for one lane: x, y = src0/src1, the
 * staging registers the descriptor asks for in sr[0..nsr), results (4 registers, 2 for 16-bit
 * formats) in out[].  *nout = registers written.  TEXS_2D uses the same path with a descriptor
 * built from its modifiers (bi_tex_texs_desc).  Returns 0, BI_EXEC_ERROR (memory fault: the
 * bi_mem callbacks recorded it) or BI_EXEC_UNIMPLEMENTED (message in err). */
int bi_tex_texc(const struct bi_mem *m, uint32_t desc, uint32_t x, uint32_t y, const uint32_t *sr, unsigned nsr,
                uint32_t out[4], unsigned *nout, char *err, size_t errlen);
/* Derivatives of a lookup's coordinates (src0, src1, the Z staging register) along window x
 * and y, for the level of detail of TEXC / TEXS with a computed LOD (fragment quads). */
typedef struct {
    float dx[3], dy[3];
} bi_tex_grad;
/* bi_tex_texc with the lane's derivatives (NULL: none, a computed LOD magnifies). */
int bi_tex_texc_grad(const struct bi_mem *m, uint32_t desc, uint32_t x, uint32_t y, const uint32_t *sr, unsigned nsr,
                     const bi_tex_grad *grad, uint32_t out[4], unsigned *nout, char *err, size_t errlen);
/* Whether a TEXC descriptor computes its LOD from derivatives (the caller then passes them). */
int bi_tex_needs_grad(uint32_t desc);
/* Coarse derivatives of a 2x2 quad from its four lanes' coordinates (z may be NULL; cube: src0
 * carries the face over s, derivatives of s taken without it). */
void bi_tex_quad_grad(int cube, const uint32_t x[4], const uint32_t y[4], const uint32_t *z, bi_tex_grad *g);
/* The 8.8 fixed-point level of detail before bias and clamps, as the unit computes it (tests). */
int bi_tex_lod_from_grad(unsigned width, unsigned height, unsigned depth, unsigned dim, int normalized,
                         const bi_tex_grad *g);
/* Staging registers a TEXC descriptor reads (before it writes its results), or -1 if refused. */
int bi_tex_staging_count(uint32_t desc);
/* A dual-texture TEXC descriptor (Mesa's bi_opt_fuse_dual_texture: two TEXS_2D at the same
 * coordinates fused, bits 3:2 = 1 with bit 11 clear): 1 and the two single TEXC descriptors its
 * halves stand for (2D, texture and sampler indices 0-3, result format and mask; the LOD mode is
 * the shader stage's: computed in fragment shaders, zero elsewhere), *reg2 the register the
 * second one's results go to (the first's go to the staging registers); 0 if desc is not dual. */
int bi_tex_dual_split(uint32_t desc, int fragment, uint32_t *d1, uint32_t *d2, unsigned *reg2);
/* The TEXC descriptor equivalent to TEXS_2D.f32/.f16 with these immediates. */
uint32_t bi_tex_texs_desc(unsigned tex_index, unsigned sampler_index, int f16, int zero_lod);

/* LEA_ATTR_TEX / LEA_ATTR[_IMM] through the primary attribute table: attribute `index`, for an
 * image (LEA_ATTR_TEX) texel s0 = x | y << 16, s1 = z, else (LEA_ATTR, 1D buffers) element s0
 * -> out[0..1] = address, out[2] = conversion descriptor (memory pixel format | register format
 * regfmt << 24, BI_RF_AUTO resolved) for LD_CVT / ST_CVT. */
int bi_tex_lea_attr(const struct bi_mem *m, unsigned index, int image, uint32_t s0, uint32_t s1, unsigned regfmt,
                    uint32_t out[3], char *err, size_t errlen);
/* LD_CVT: load the texel at addr and convert `ncomp` channels per the conversion descriptor. */
int bi_tex_ld_cvt(const struct bi_mem *m, uint64_t addr, uint32_t conv, uint32_t *data, unsigned ncomp,
                  char *err, size_t errlen);
/* ST_CVT: convert `ncomp` staging registers per the conversion descriptor and store at addr. */
int bi_tex_st_cvt(const struct bi_mem *m, uint64_t addr, uint32_t conv, const uint32_t *data, unsigned ncomp,
                  char *err, size_t errlen);

/* Texel format helpers (exported for tests): float -> normalized integer as OpenCL specifies
 * (convert_<type>_sat_rte(f * max)), bits = 8 or 16. */
uint32_t bi_tex_float_to_unorm(float f, unsigned bits);
int32_t bi_tex_float_to_snorm(float f, unsigned bits);

#endif
