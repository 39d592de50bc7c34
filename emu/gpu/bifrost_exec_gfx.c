/* Bifrost executor: the graphics shader messages (LD_VAR*, LD_ATTR*, VAR_TEX, ATEST, ZS_EMIT, BLEND,
 * LD_TILE / ST_TILE), one call per warp at the clause end, DISCARD, and the blend-shader call.
 * The fixed-function work is the front end's (bifrost_gfx.h); this file decodes operands and
 * registers, fetches vertex attributes, and keeps helper lanes' effects out. */
#include "bifrost_exec_int.h"
#include "bifrost_gfx.h"
#include "bifrost_tex.h"
#include "mali_formats.h"

#include <string.h>

#define NL BI_MAX_LANES

static int gfx_fail(bi_fault *f, const bi_clause *c, int rc, const char *why)
{
    return bx_fault(f, rc == BI_EXEC_UNIMPLEMENTED ? BI_FAULT_UNIMPLEMENTED : BI_FAULT_MEMORY, 0, "clause %#x: %s",
                    c->offset, why);
}

static int no_callback(bi_fault *f, const bi_clause *c, const char *op)
{
    return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "clause %#x: %s without a graphics front end", c->offset, op);
}

/* ---- vertex attributes ------------------------------------------------------------------------ */

/* A "padded" 8-bit field (genxml): (2 * odd + 1) << shift, shift in [4:0], odd in [7:5]; never 0
 * (64 bits: a guest's shift of 31 does not wrap) */
static uint64_t padded(uint32_t v)
{
    return (2ull * ((v >> 5) & 7) + 1ull) << (v & 31);
}

/* The element of attribute buffer type `type` that lane's linear vertex index selects
 * (panfrost's instancing: linear = vertex + instance * instance size; per-instance buffers
 * divide it by instance size * divisor).  bw: the buffer record's words, cont: the next record's
 * (NPOT divisors).  -1: a type LD_ATTR does not read. */
static int64_t attr_element(unsigned type, const uint32_t bw[4], const uint32_t cw[4], uint64_t linear)
{
    unsigned r = (bw[1] >> 24) & 31;               /* Divisor R: POT shift, NPOT shift */
    switch (type) {
    case MALI_ATTRIBUTE_TYPE_1D:
        return (int64_t)linear;
    case MALI_ATTRIBUTE_TYPE_1D_POT_DIVISOR:
        return (int64_t)(linear >> r);
    case MALI_ATTRIBUTE_TYPE_1D_MODULUS: {
        uint64_t d = padded(bw[1] >> 24);
        return (int64_t)(linear % d);
    }
    case MALI_ATTRIBUTE_TYPE_1D_NPOT_DIVISOR: {
        /* multiply by the magic numerator (its top bit implied) and shift; the E flag: the
         * round-down form, which adds one to the dividend first */
        uint64_t num = cw[1] | 0x80000000u, e = (bw[1] >> 29) & 1;
        unsigned __int128 p = (unsigned __int128)(linear + e) * num;
        return (int64_t)(uint64_t)(p >> (32 + r));
    }
    default:
        return -1;
    }
}

/* The register format LD_ATTR.auto loads a pixel format as: 32-bit unsigned / signed integers for
 * integer formats, binary32 for the others (format numbers: genxml's Format enum) */
static unsigned auto_regfmt(uint32_t pf)
{
    unsigned f = (pf >> 12) & 0xff;
    if ((f >= 131 && f <= 157) || f == 71 || f == 72)
        return BI_RF_U32;
    if ((f >= 195 && f <= 221 && f != 199 && f != 207 && f != 215 && f != 223) || f == 73 || f == 74)
        return BI_RF_I32;
    return BI_RF_F32;
}

/* LD_ATTR / LD_ATTR_IMM for one lane: the attribute's element for (vertex, instance), loaded and
 * converted to ncomp registers (LD_CVT's conversion). */
static int ld_attr_lane(const bi_mem *m, unsigned index, uint32_t vertex, uint32_t instance, unsigned regfmt,
                        unsigned ncomp, uint32_t out[4], char *why, unsigned whylen)
{
    uint8_t a[MALI_ATTRIBUTE_LENGTH], b[2 * MALI_ATTRIBUTE_BUFFER_LENGTH];
    struct mali_attribute at;
    uint64_t va = m->attributes + (uint64_t)MALI_ATTRIBUTE_LENGTH * index;
    if (m->read(m->ctx, va, a, sizeof a)) {
        snprintf(why, whylen, "attribute descriptor fault at %#llx", (unsigned long long)va);
        return BI_EXEC_ERROR;
    }
    mali_attribute_unpack(a, &at);
    uint64_t bva = m->attr_bufs + (uint64_t)MALI_ATTRIBUTE_BUFFER_LENGTH * at.buffer_index;
    if (m->read(m->ctx, bva, b, MALI_ATTRIBUTE_BUFFER_LENGTH)) {
        snprintf(why, whylen, "attribute buffer descriptor fault at %#llx", (unsigned long long)bva);
        return BI_EXEC_ERROR;
    }
    uint32_t bw[4], cw[4] = { 0 };
    memcpy(bw, b, 16);
    struct mali_attribute_buffer ab;
    mali_attribute_buffer_unpack(b, &ab);
    if (ab.type == MALI_ATTRIBUTE_TYPE_1D_NPOT_DIVISOR) {
        if (m->read(m->ctx, bva + 16, b + 16, 16)) {
            snprintf(why, whylen, "attribute buffer continuation fault at %#llx", (unsigned long long)(bva + 16));
            return BI_EXEC_ERROR;
        }
        memcpy(cw, b + 16, 16);
    }
    uint64_t linear = (uint64_t)vertex + (uint64_t)instance * (m->attr_instance_size ? m->attr_instance_size : 1);
    int64_t el = attr_element(ab.type, bw, cw, linear);
    /* Offset Start (the draw's first vertex, or min index + base vertex) is added to the element
     * after the instancing arithmetic, not to the linear index a modulus or divisor reads (the
     * per-vertex modulus then gives vertex + Offset Start); panfrost subtracts stride x Offset
     * Start from per-instance attributes' Offset to cancel it there (panfrost_emit_vertex_data) */
    if (el >= 0)
        el += m->attr_offset_start;
    if (el < 0) {
        snprintf(why, whylen, "LD_ATTR from attribute buffer %u of type %u not implemented", at.buffer_index, ab.type);
        return BI_EXEC_UNIMPLEMENTED;
    }
    uint64_t addr = ab.pointer + (at.offset_enable ? (uint64_t)(int64_t)(int32_t)at.offset : 0) + (uint64_t)el * ab.stride;
    if (regfmt == BI_RF_AUTO)
        regfmt = auto_regfmt(at.format);
    return bi_tex_ld_cvt(m, addr, at.format | (uint32_t)(regfmt & 7) << 24, out, ncomp, why, whylen);
}

/* ---- the messages ------------------------------------------------------------------------------ */

/* The tuple (its index) whose ADD instruction is the clause's message x */
static unsigned msg_tuple(const bi_xclause *xc, const bi_xinstr *x)
{
    unsigned i = (unsigned)(x - xc->add);
    return i < xc->c.ntuples ? i : xc->c.ntuples - 1;
}

/* The 64-bit value of a lane-uniform message source pair (FAU / constant): the first active lane's */
static uint64_t uniform_pair(const uint32_t (*src)[NL], unsigned k, uint32_t exec)
{
    unsigned l = exec ? (unsigned)__builtin_ctz(exec) : 0;
    return src[k][l] | (uint64_t)src[k + 1][l] << 32;
}

int bx_exec_gfx(bi_warp *w, const bi_xclause *xc, const bi_xinstr *x, uint32_t exec, const uint32_t (*src)[NL],
                staging *stg, bi_fault *f)
{
    const bi_clause *c = &xc->c;
    const bi_mem *m = w->mem;
    const bi_gfx_if *g = m->gfx;
    unsigned sr = c->hdr[BI_H_SR], n = 0, lanes = w->lanes;
    uint32_t effect = exec & ~w->helper;      /* lanes whose writes outside the warp count */
    uint32_t out[4][NL];
    char why[160];
    int rc = 0;
    why[0] = 0;
    /* untouched lanes (helpers of ATEST / ZS_EMIT) keep their staging registers */
    for (unsigned r = 0; r < 4; r++)
        for (unsigned l = 0; l < NL; l++)
            out[r][l] = sr + r < 64 && l < lanes ? w->reg[sr + r][l] : 0;
    switch (x->sem) {
    case BI_SEM_LD_VAR:
    case BI_SEM_VAR_TEX: {
        if (!g || !g->varying)
            return no_callback(f, c, "LD_VAR");
        bi_gfx_varying v = { .kind = x->vkind, .sample = x->vsample, .update = x->vupdate, .special = x->vspecial,
                             .function = x->vfunc, .regfmt = x->regfmt, .ncomp = x->size, .imm = x->attr_imm,
                             .index = x->attr_index };
        int flat = x->vkind == BI_GFX_VARY_FLAT;
        if (x->sem == BI_SEM_VAR_TEX) {                 /* the coordinate: a vec2 of binary32 */
            v.ncomp = 2;
            v.regfmt = BI_RF_F32;
        }
        n = x->regfmt == BI_RF_F16 && x->sem == BI_SEM_LD_VAR ? (v.ncomp + 1u) / 2 : v.ncomp;
        if (sr + (x->sem == BI_SEM_VAR_TEX ? x->size : n) > 64)
            return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: staging registers out of range", c->offset);
        /* sources: LD_VAR src0 (sample / offset), src1 (index); LD_VAR_FLAT its one source (index) */
        const uint32_t *s0 = flat ? NULL : src[0], *idx = flat ? src[0] : src[1];
        rc = g->varying(w->gfx_ctx, w, exec, &v, s0, idx, out, why, sizeof why);
        if (rc || x->sem == BI_SEM_LD_VAR)
            break;
        /* VAR_TEX: sample the texture at the coordinate (TEXS_2D's path) */
        uint32_t t[4][NL];
        for (unsigned l = 0; l < lanes; l++) {
            if (!((exec >> l) & 1))
                continue;
            uint32_t r[4] = { 0 };
            unsigned got = 0;
            bi_tex_grad g, *gp = NULL;      /* a computed LOD: the quad's derivatives */
            if (bi_tex_needs_grad(x->texdesc) && (l | 3u) < lanes) {
                bi_tex_quad_grad(0, &out[0][l & ~3u], &out[1][l & ~3u], NULL, &g);
                gp = &g;
            }
            rc = bi_tex_texc_grad(m, x->texdesc, out[0][l], out[1][l], NULL, 0, gp, r, &got, why, sizeof why);
            if (rc)
                break;
            for (unsigned k = 0; k < 4; k++)
                t[k][l] = r[k];
        }
        if (rc)
            break;
        memcpy(out, t, sizeof t);
        n = x->size;
        break;
    }
    case BI_SEM_LD_ATTR:
        if (sr + x->size > 64)
            return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: staging registers out of range", c->offset);
        /* sources: vertex id, instance id, then (LD_ATTR) the attribute index */
        for (unsigned l = 0; l < lanes && !rc; l++) {
            if (!((exec >> l) & 1))
                continue;
            uint32_t r[4] = { 0 };
            rc = ld_attr_lane(m, x->attr_imm ? x->attr_index : src[2][l], src[0][l], src[1][l], x->regfmt, x->size, r,
                              why, sizeof why);
            for (unsigned k = 0; k < x->size; k++)
                out[k][l] = r[k];
        }
        n = x->size;
        break;
    case BI_SEM_ATEST: {
        if (!g || !g->atest)
            return no_callback(f, c, "ATEST");
        if (sr >= 64)
            return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: staging registers out of range", c->offset);
        uint32_t alpha[NL];
        for (unsigned l = 0; l < NL; l++) {
            uint32_t a = src[1][l];
            alpha[l] = x->widen[1] ? bi_f16_to_f32((uint16_t)(a >> (16 * (x->widen[1] - 1)))) : a;
        }
        uint32_t datum = w->gfx_fau ? (uint32_t)w->gfx_fau[BI_GFX_FAU_ATEST] : 0;
        for (unsigned l = 0; l < NL; l++)
            out[0][l] = src[0][l];                  /* helper lanes: the coverage unchanged */
        if (effect)
            rc = g->atest(w->gfx_ctx, w, effect, src[0], alpha, datum, out[0], why, sizeof why);
        n = 1;
        break;
    }
    case BI_SEM_ZS_EMIT:
        if (!g || !g->zs_emit)
            return no_callback(f, c, "ZS_EMIT");
        if (sr >= 64)
            return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: staging registers out of range", c->offset);
        /* sources (Mesa's order): depth, stencil, coverage */
        for (unsigned l = 0; l < NL; l++)
            out[0][l] = src[2][l];
        if (effect)
            rc = g->zs_emit(w->gfx_ctx, w, effect, src[0], src[1], x->zs_z, x->zs_s, src[2], out[0], why, sizeof why);
        n = 1;
        break;
    case BI_SEM_BLEND: {
        if (!g || !g->blend)
            return no_callback(f, c, "BLEND");
        if (sr + 4 > 64)
            return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: staging registers out of range", c->offset);
        /* sources: coverage, the descriptor's low and high words (blend descriptor FAU slot
         * 8 + rt in a fragment shader; constants in a blend shader) */
        const bi_src *ds = &c->t[msg_tuple(xc, x)].add.src[1];
        unsigned rt = ds->kind == BI_SRC_SPECIAL && ds->index >= BI_GFX_FAU_BLEND0 && ds->index < BI_GFX_FAU_BLEND0 + 8
                          ? ds->index - BI_GFX_FAU_BLEND0
                          : w->blend_rt;
        uint64_t desc = uniform_pair(src, 1, exec), shader = 0;
        if (!effect)
            break;
        rc = g->blend(w->gfx_ctx, w, effect, rt, desc, (const uint32_t(*)[NL])out, src[0], &shader, why, sizeof why);
        if (!rc && shader) {
            if (w->in_blend)
                return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "clause %#x: a blend shader calling a blend shader",
                                c->offset);
            /* the call: bi_exec_program stops after this clause (BI_EXEC_BLEND_CALL); the lanes
             * end after the shader when the descriptor's return address (low word [31:3]) is 0 */
            w->blend_shader = shader;
            w->blend_rt = (uint8_t)rt;
            w->blend_lanes = (uint8_t)effect;
            w->blend_end = (uint32_t)desc & ~7u ? 0 : (uint8_t)effect;
        }
        break;
    }
    case BI_SEM_LD_TILE:
    case BI_SEM_ST_TILE: {
        int store = x->sem == BI_SEM_ST_TILE;
        if (!g || !g->tile)
            return no_callback(f, c, store ? "ST_TILE" : "LD_TILE");
        if (sr + x->size > 64)
            return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: staging registers out of range", c->offset);
        /* sources: pixel indices, coverage, the conversion descriptor (lane-uniform) */
        uint32_t conv = (uint32_t)uniform_pair(src, 2, exec);
        uint32_t mask = store ? effect : exec;
        if (mask)
            rc = g->tile(w->gfx_ctx, w, mask, store, src[0], src[1], conv, x->size, out, why, sizeof why);
        n = store ? 0 : x->size;
        break;
    }
    default:
        return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: not a graphics message", c->offset);
    }
    if (rc)
        return gfx_fail(f, c, rc, why[0] ? why : "graphics message failed");
    stg->n = n;
    for (unsigned r = 0; r < n; r++)
        for (unsigned l = 0; l < lanes; l++)
            stg->val[l][r] = out[r][l];
    return BI_EXEC_OK;
}

/* DISCARD.f32: lanes whose comparison holds become helper lanes (no effect from here on) */
void bx_discard(bi_warp *w, const bi_xinstr *x, uint32_t exec, const uint32_t *const *s, const fctx *fc)
{
    uint32_t hit = 0;
    for (unsigned l = 0; l < w->lanes; l++) {
        if (!((exec >> l) & 1))
            continue;
        uint32_t a = bx_fsrc(x, 0, s[0][l], fc), b = bx_fsrc(x, 1, s[1][l], fc);
        if (fcmp(a, b, x->cmp))
            hit |= 1u << l;
    }
    hit &= ~w->helper;
    if (!hit)
        return;
    w->helper |= hit;
    const bi_gfx_if *g = w->mem ? w->mem->gfx : NULL;
    if (g && g->discard)
        g->discard(w->gfx_ctx, w, hit);
}

/* ---- blend shaders ---------------------------------------------------------------------------- */

int bi_gfx_run_blend(bi_warp *w, bi_program *blend, const bi_mem *blend_mem, unsigned max_clauses, bi_fault *f)
{
    /* the fragment shader's state, back after the call (the blend shader may use r0-r15 and
     * r48; the rest is saved too: the fragment shader sees its registers as it left them) */
    static __thread uint32_t saved[64][NL];
    uint32_t pc[NL];
    uint8_t done[NL];
    uint32_t lanes = w->blend_lanes;
    const bi_mem *mem = w->mem;
    bi_xclause *resume = w->resume;
    if (!lanes || !blend)
        return bx_fault(f, BI_FAULT_INVALID, 0, "bi_gfx_run_blend without a blend-shader call");
    memcpy(saved, w->reg, sizeof saved);
    memcpy(pc, w->pc, sizeof pc);
    memcpy(done, w->done, sizeof done);
    for (unsigned l = 0; l < NL; l++) {
        w->pc[l] = 0;
        w->done[l] = !((lanes >> l) & 1);
        w->reg[BI_GFX_BLEND_LINK][l] = 0;          /* JUMP r48 -> address 0: the lane leaves */
    }
    w->mem = blend_mem ? blend_mem : mem;
    w->resume = NULL;
    w->in_blend = 1;
    w->blend_shader = 0;
    int rc = bi_exec_program(w, blend, max_clauses, f);
    if (rc == BI_EXEC_BARRIER)
        rc = bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "BARRIER in a blend shader");
    memcpy(w->reg, saved, sizeof saved);
    memcpy(w->pc, pc, sizeof pc);
    memcpy(w->done, done, sizeof done);
    for (unsigned l = 0; l < NL; l++)
        if ((w->blend_end >> l) & 1)
            w->done[l] = 1;
    w->mem = mem;
    w->resume = resume;
    w->in_blend = 0;
    w->blend_shader = 0;
    w->blend_lanes = w->blend_end = 0;
    return rc == BI_EXEC_END ? BI_EXEC_OK : rc;
}

/* ---- v7 message preloads ------------------------------------------------------------------------ */

int bi_gfx_message_preload(bi_warp *w, uint32_t lanes, unsigned slot, uint32_t desc, bi_fault *f)
{
    static __thread bi_xclause xc;      /* a clause of one message, staging registers 4 * slot */
    unsigned type = desc & 15;
    if (!type)
        return BI_EXEC_OK;
    if (slot > 1 || type > 2)
        return bx_fault(f, BI_FAULT_INVALID, 0, "message preload %u: reserved type %u", slot, type);
    if (!w->mem)
        return bx_fault(f, BI_FAULT_MEMORY, 0, "message preload without memory");
    memset(&xc, 0, sizeof xc);
    xc.c.hdr[BI_H_SR] = 4 * slot;
    bi_xinstr *x = &xc.add[0];
    int f16 = ((desc >> 9) & 3) == 1;
    x->vkind = BI_GFX_VARY_SMOOTH;
    x->vupdate = BI_GFX_UPDATE_STORE;
    x->vfunc = BI_GFX_FUNC_NONE;
    x->attr_imm = 1;
    x->regfmt = f16 ? BI_RF_F16 : BI_RF_F32;
    if (type == 1) {
        /* LD_VAR_IMM; Mesa preloads only .center ones, which the preload interpolates at the
         * sample (bi_opt_message_preload: equivalent unless shading runs per sample) */
        x->sem = BI_SEM_LD_VAR;
        x->vsample = BI_GFX_SAMPLE_SAMPLE;
        x->attr_index = (uint8_t)((desc >> 4) & 31);
        x->size = (uint8_t)(((desc >> 11) & 3) + 1);
    } else {
        x->sem = BI_SEM_VAR_TEX;
        x->vsample = BI_GFX_SAMPLE_CENTER;
        x->attr_index = (uint8_t)((desc >> 4) & 7);
        x->var_skip = (desc >> 14) & 1;
        x->size = f16 ? 2 : 4;
        unsigned tex = (desc >> 7) & 3;
        x->texdesc = bi_tex_texs_desc(tex, tex, f16, (desc >> 15) & 1);
    }
    uint32_t src[4][NL] = { { 0 } };
    for (unsigned l = 0; l < NL; l++)
        src[0][l] = w->reg[BI_GFX_FS_SAMPLE][l];       /* as Mesa passes r61 to LD_VAR */
    staging stg;
    stg.n = 0;
    int rc = bx_exec_gfx(w, &xc, x, lanes, (const uint32_t(*)[NL])src, &stg, f);
    if (rc)
        return rc;
    for (unsigned r = 0; r < stg.n; r++)
        for (unsigned l = 0; l < w->lanes; l++)
            if ((lanes >> l) & 1)
                w->reg[4 * slot + r][l] = stg.val[l][r];
    return BI_EXEC_OK;
}
