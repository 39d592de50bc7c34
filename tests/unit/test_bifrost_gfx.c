/* The Bifrost executor's graphics messages (emu/gpu/bifrost_exec_gfx.c) on
 * the shaders of tests/gfx, against a fake front end (bifrost_gfx.h) that records what the executor decoded
 * and returns values the test knows.  Every test runs on v6 (4 lanes) and v7 (8 lanes) warps,
 * interpreted and compiled (--gpu-backend jit), and the two back ends must leave the same warp. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bifrost_exec.h"
#include "bifrost_gfx.h"
#include "bifrost_tex.h"
#include "shaders.inc"

static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* ---- memory: MEM_SIZE bytes at MEM_BASE ------------------------------------------------------ */

#define MEM_BASE 0x10000u
#define MEM_SIZE 0x10000u
static uint8_t mem[MEM_SIZE];

static int m_read(void *ctx, uint64_t addr, void *buf, unsigned size)
{
    (void)ctx;
    if (addr < MEM_BASE || size > MEM_SIZE || addr - MEM_BASE > MEM_SIZE - size)
        return -1;
    memcpy(buf, mem + (addr - MEM_BASE), size);
    return 0;
}

static int m_write(void *ctx, uint64_t addr, const void *buf, unsigned size)
{
    (void)ctx;
    if (addr < MEM_BASE || size > MEM_SIZE || addr - MEM_BASE > MEM_SIZE - size)
        return -1;
    memcpy(mem + (addr - MEM_BASE), buf, size);
    return 0;
}

/* compiled code's fast path to the memory (its inline loads and stores) */
static uint8_t *m_map(void *ctx, uint64_t addr, int write, uint64_t *lo, uint64_t *hi)
{
    (void)ctx;
    (void)write;
    if (addr < MEM_BASE || addr >= MEM_BASE + MEM_SIZE)
        return NULL;
    *lo = MEM_BASE;
    *hi = MEM_BASE + MEM_SIZE;
    return mem + (addr - MEM_BASE);
}

static void put32(uint64_t addr, uint32_t v) { memcpy(mem + (addr - MEM_BASE), &v, 4); }
static uint32_t get32(uint64_t addr) { uint32_t v; memcpy(&v, mem + (addr - MEM_BASE), 4); return v; }

/* ---- the fake front end: a log of calls ------------------------------------------------------- */

#define MAXCALLS 8
typedef struct {
    unsigned nvary, natest, nzs, nblend, ntile, ndiscard;
    struct { uint32_t lanes; bi_gfx_varying v; uint32_t src0[BI_MAX_LANES], index[BI_MAX_LANES]; int has_src0, has_index;
             uint32_t out[4][BI_MAX_LANES]; } vary[MAXCALLS];
    struct { uint32_t lanes, datum, coverage[BI_MAX_LANES], alpha[BI_MAX_LANES]; } atest;
    struct { uint32_t lanes, z[BI_MAX_LANES], s[BI_MAX_LANES], coverage[BI_MAX_LANES]; int wz, ws; } zs;
    struct { uint32_t lanes; unsigned rt; uint64_t desc; uint32_t colour[4][BI_MAX_LANES], coverage[BI_MAX_LANES]; } blend[MAXCALLS];
    struct { uint32_t lanes, conv, pixel[BI_MAX_LANES], coverage[BI_MAX_LANES], data[4][BI_MAX_LANES]; int store;
             unsigned ncomp; } tile[MAXCALLS];
    uint32_t discarded;
    int coords;             /* varyings return texture coordinates of a 2 x 2 texture's texels */
} fake_log;

static int f_varying(void *ctx, const bi_warp *w, uint32_t lanes, const bi_gfx_varying *v, const uint32_t *src0,
                     const uint32_t *index, uint32_t out[4][BI_MAX_LANES], char *why, unsigned whylen)
{
    fake_log *g = ctx;
    ck_assert_uint_lt(g->nvary, MAXCALLS);
    unsigned k = g->nvary++;
    g->vary[k].lanes = lanes;
    g->vary[k].v = *v;
    g->vary[k].has_src0 = src0 != NULL;
    g->vary[k].has_index = index != NULL;
    for (unsigned l = 0; l < w->lanes; l++) {
        g->vary[k].src0[l] = src0 ? src0[l] : 0;
        g->vary[k].index[l] = index ? index[l] : 0;
        for (unsigned c = 0; c < 4; c++)
            if ((lanes >> l) & 1)
                out[c][l] = g->vary[k].out[c][l] =
                    g->coords ? fb(((float)((l >> c) & 1) + 0.5f) / 2.0f)    /* texel (l & 1, l >> 1 & 1) */
                              : 0x10000u * (k + 1) + 0x100u * c + l;
    }
    return 0;
}

static int f_atest(void *ctx, const bi_warp *w, uint32_t lanes, const uint32_t *coverage, const uint32_t *alpha,
                   uint32_t datum, uint32_t *coverage_out, char *why, unsigned whylen)
{
    fake_log *g = ctx;
    g->natest++;
    g->atest.lanes = lanes;
    g->atest.datum = datum;
    for (unsigned l = 0; l < w->lanes; l++) {
        g->atest.coverage[l] = coverage[l];
        g->atest.alpha[l] = alpha[l];
        if ((lanes >> l) & 1)
            coverage_out[l] = (coverage[l] & 5) | 0x100;
    }
    return 0;
}

static int f_zs(void *ctx, const bi_warp *w, uint32_t lanes, const uint32_t *z, const uint32_t *s, int wz, int ws,
                const uint32_t *coverage, uint32_t *coverage_out, char *why, unsigned whylen)
{
    fake_log *g = ctx;
    g->nzs++;
    g->zs.lanes = lanes;
    g->zs.wz = wz;
    g->zs.ws = ws;
    for (unsigned l = 0; l < w->lanes; l++) {
        g->zs.z[l] = z[l];
        g->zs.s[l] = s[l];
        g->zs.coverage[l] = coverage[l];
        if ((lanes >> l) & 1)
            coverage_out[l] = coverage[l] ^ 2;
    }
    return 0;
}

/* mode "shader" (low bits 0): the shader's address is the descriptor's high word */
static int f_blend(void *ctx, const bi_warp *w, uint32_t lanes, unsigned rt, uint64_t desc,
                   const uint32_t colour[4][BI_MAX_LANES], const uint32_t *coverage, uint64_t *shader, char *why,
                   unsigned whylen)
{
    fake_log *g = ctx;
    ck_assert_uint_lt(g->nblend, MAXCALLS);
    unsigned k = g->nblend++;
    g->blend[k].lanes = lanes;
    g->blend[k].rt = rt;
    g->blend[k].desc = desc;
    for (unsigned l = 0; l < w->lanes; l++) {
        g->blend[k].coverage[l] = coverage[l];
        for (unsigned c = 0; c < 4; c++)
            g->blend[k].colour[c][l] = colour[c][l];
    }
    *shader = (desc & 3) == 0 ? desc >> 32 : 0;
    return 0;
}

static int f_tile(void *ctx, const bi_warp *w, uint32_t lanes, int store, const uint32_t *pixel, const uint32_t *coverage,
                  uint32_t conv, unsigned ncomp, uint32_t data[4][BI_MAX_LANES], char *why, unsigned whylen)
{
    fake_log *g = ctx;
    ck_assert_uint_lt(g->ntile, MAXCALLS);
    unsigned k = g->ntile++;
    g->tile[k].lanes = lanes;
    g->tile[k].store = store;
    g->tile[k].conv = conv;
    g->tile[k].ncomp = ncomp;
    for (unsigned l = 0; l < w->lanes; l++) {
        g->tile[k].pixel[l] = pixel[l];
        g->tile[k].coverage[l] = coverage[l];
        for (unsigned c = 0; c < 4; c++) {
            if (!store && ((lanes >> l) & 1))
                data[c][l] = 0x700u + 0x10u * c + l;
            g->tile[k].data[c][l] = data[c][l];
        }
    }
    return 0;
}

static void f_discard(void *ctx, const bi_warp *w, uint32_t lanes)
{
    fake_log *g = ctx;
    g->ndiscard++;
    g->discarded |= lanes;
}

static const bi_gfx_if fake_if = { .varying = f_varying, .atest = f_atest, .zs_emit = f_zs, .blend = f_blend,
                                   .tile = f_tile, .discard = f_discard };

/* ---- running a shader ------------------------------------------------------------------------- */

static bi_mem gmem;
static uint64_t fau[BI_GFX_FAU_COUNT];

static void warp_setup(bi_warp *w, unsigned arch, fake_log *g)
{
    bi_warp_init(w, arch == 7 ? BI_ARCH_V7 : BI_ARCH_V6);
    memset(g, 0, sizeof(*g));
    gmem = (bi_mem){ .read = m_read, .write = m_write, .map = m_map, .arch_major = arch, .gfx = &fake_if };
    w->mem = &gmem;
    w->gfx_ctx = g;
    w->gfx_fau = fau;
}

static void set_backend(int jit)
{
    ck_assert_msg(bi_set_backend(jit ? BI_BACKEND_JIT : BI_BACKEND_INTERP) == 0,
                  "this host cannot run the jit back end (AVX2 + FMA or SSE4.1 needed)");
}

/* Runs p on w until it ends (rc_want: BI_EXEC_END) or stops with rc_want */
static void run_prog(bi_warp *w, bi_program *p, int rc_want)
{
    bi_fault f = { 0 };
    int rc = bi_exec_program(w, p, 100, &f);
    ck_assert_msg(rc == rc_want, "exec: %d (want %d) %s", rc, rc_want, f.msg);
}

static uint32_t all_lanes(unsigned arch) { return arch == 7 ? 0xffu : 0xfu; }

/* ---- fragment messages ------------------------------------------------------------------------ */

static void frag_inputs(bi_warp *w)
{
    for (unsigned l = 0; l < w->lanes; l++) {
        w->reg[61][l] = 0x10000u * l + 0x3;            /* sample id in [23:16], coverage below */
        w->reg[8][l] = 5 + l;                            /* the f16 varying's index */
        w->reg[9][l] = fb(l == 1 ? 0.0f : 2.0f);         /* DISCARD.lt r9, r10: lane 1 */
        w->reg[10][l] = fb(1.0f);
        w->reg[60][l] = 0xf;
        w->reg[11][l] = 0x38001234;                      /* high half: 0.5 in binary16 */
        w->reg[12][l] = fb(0.25f + (float)l);
        w->reg[13][l] = 0x40 + l;
    }
    w->helper = 1u << 3;                                 /* lane 3: for derivatives only */
    fau[BI_GFX_FAU_ATEST] = 0xabcd000000000077ull;
    fau[BI_GFX_FAU_BLEND0] = 0x0000000100000022ull;      /* fixed function (mode 2) */
}

static void check_frag(unsigned arch, int jit, bi_warp *w)
{
    fake_log g;
    warp_setup(w, arch, &g);
    frag_inputs(w);
    set_backend(jit);
    bi_program *p = bi_program_new(bi_shader_gfx_frag, sizeof(bi_shader_gfx_frag), w->lanes == 8 ? BI_ARCH_V7 : BI_ARCH_V6);
    run_prog(w, p, BI_EXEC_END);
    bi_program_free(p);
    uint32_t all = all_lanes(arch), effect = all & ~((1u << 1) | (1u << 3));

    ck_assert_uint_eq(g.nvary, 4);
    /* LD_VAR_IMM.f32.center.store.v4 index 2: every lane (helpers too), src0 = r61 */
    ck_assert_uint_eq(g.vary[0].lanes, all);
    ck_assert_uint_eq(g.vary[0].v.kind, BI_GFX_VARY_SMOOTH);
    ck_assert_uint_eq(g.vary[0].v.sample, BI_GFX_SAMPLE_CENTER);
    ck_assert_uint_eq(g.vary[0].v.update, BI_GFX_UPDATE_STORE);
    ck_assert_uint_eq(g.vary[0].v.regfmt, BI_RF_F32);
    ck_assert_uint_eq(g.vary[0].v.ncomp, 4);
    ck_assert(g.vary[0].v.imm && g.vary[0].v.index == 2 && g.vary[0].has_src0);
    /* LD_VAR_FLAT_IMM.u32 index 1 */
    ck_assert_uint_eq(g.vary[1].v.kind, BI_GFX_VARY_FLAT);
    ck_assert_uint_eq(g.vary[1].v.regfmt, BI_RF_U32);
    ck_assert_uint_eq(g.vary[1].v.function, BI_GFX_FUNC_NONE);
    ck_assert(g.vary[1].v.ncomp == 1 && g.vary[1].v.imm && g.vary[1].v.index == 1);
    /* LD_VAR_SPECIAL.frag_z */
    ck_assert_uint_eq(g.vary[2].v.kind, BI_GFX_VARY_SPECIAL);
    ck_assert_uint_eq(g.vary[2].v.special, BI_GFX_SPECIAL_FRAG_Z);
    ck_assert_uint_eq(g.vary[2].v.update, BI_GFX_UPDATE_CLOBBER);
    ck_assert_uint_eq(g.vary[2].v.ncomp, 1);
    /* LD_VAR.f16.centroid.conditional.v3, index in r8: two staging registers */
    ck_assert_uint_eq(g.vary[3].v.sample, BI_GFX_SAMPLE_CENTROID);
    ck_assert_uint_eq(g.vary[3].v.update, BI_GFX_UPDATE_CONDITIONAL);
    ck_assert_uint_eq(g.vary[3].v.regfmt, BI_RF_F16);
    ck_assert(g.vary[3].v.ncomp == 3 && !g.vary[3].v.imm && g.vary[3].has_index);
    for (unsigned l = 0; l < w->lanes; l++) {
        ck_assert_uint_eq(g.vary[0].src0[l], 0x10000u * l + 0x3);
        ck_assert_uint_eq(g.vary[3].index[l], 5 + l);
        ck_assert_uint_eq(w->reg[8][l], 5 + l);          /* beyond the f16 vec3's two registers */
        ck_assert_uint_eq(w->reg[6][l], g.vary[3].out[0][l]);
        ck_assert_uint_eq(w->reg[7][l], g.vary[3].out[1][l]);
        ck_assert_uint_eq(w->reg[4][l], g.vary[1].out[0][l]);
        ck_assert_uint_eq(w->reg[5][l], g.vary[2].out[0][l]);
    }
    /* DISCARD: lane 1 joins the helper lanes */
    ck_assert_uint_eq(g.ndiscard, 1);
    ck_assert_uint_eq(g.discarded, 1u << 1);
    ck_assert_uint_eq(w->helper, (1u << 1) | (1u << 3));
    /* ATEST: not the helper lanes; alpha widened from the high half; the datum FAU word */
    ck_assert_uint_eq(g.natest, 1);
    ck_assert_uint_eq(g.atest.lanes, effect);
    ck_assert_uint_eq(g.atest.datum, 0x77);
    /* ZS_EMIT: depth r12, stencil r13, the coverage ATEST returned */
    ck_assert_uint_eq(g.nzs, 1);
    ck_assert_uint_eq(g.zs.lanes, effect);
    ck_assert(g.zs.wz && g.zs.ws);
    /* BLEND: render target 0's descriptor, colour r0-r3 (the vec4 varying), final coverage */
    ck_assert_uint_eq(g.nblend, 1);
    ck_assert_uint_eq(g.blend[0].lanes, effect);
    ck_assert_uint_eq(g.blend[0].rt, 0);
    ck_assert_uint_eq(g.blend[0].desc, 0x0000000100000022ull);
    for (unsigned l = 0; l < w->lanes; l++) {
        int eff = (effect >> l) & 1;
        if (eff) {
            ck_assert_uint_eq(g.atest.alpha[l], fb(0.5f));
            ck_assert_uint_eq(g.atest.coverage[l], 0xf);
            ck_assert_uint_eq(g.zs.z[l], fb(0.25f + (float)l));
            ck_assert_uint_eq(g.zs.s[l], 0x40 + l);
            ck_assert_uint_eq(g.zs.coverage[l], 0x105);
            ck_assert_uint_eq(g.blend[0].coverage[l], 0x107);
        }
        ck_assert_uint_eq(w->reg[60][l], eff ? 0x107u : 0xfu);   /* helpers: coverage unchanged */
        for (unsigned c = 0; c < 4; c++) {
            ck_assert_uint_eq(w->reg[c][l], g.vary[0].out[c][l]);
            if (eff)
                ck_assert_uint_eq(g.blend[0].colour[c][l], g.vary[0].out[c][l]);
        }
    }
}

/* Both back ends on arch: the same checks, and the same warp at the end */
static void both_backends(void (*check)(unsigned, int, bi_warp *), unsigned arch)
{
    static bi_warp wi, wj;
    enum bi_backend before = bi_get_backend();
    check(arch, 0, &wi);
    check(arch, 1, &wj);
    bi_set_backend(before);
    ck_assert(!memcmp(wi.reg, wj.reg, sizeof(wi.reg)));
    ck_assert(!memcmp(wi.done, wj.done, sizeof(wi.done)));
    ck_assert_uint_eq(wi.helper, wj.helper);
    ck_assert_uint_eq(wi.lane_instrs, wj.lane_instrs);
}

START_TEST(frag_messages)
{
    both_backends(check_frag, 6);
    both_backends(check_frag, 7);
}
END_TEST

/* ---- helper lanes' stores ---------------------------------------------------------------------- */

static uint32_t preset_helper;  /* helper lanes when the warp starts (else only DISCARD makes them) */

static void check_helper_store(unsigned arch, int jit, bi_warp *w)
{
    fake_log g;
    uint32_t out = MEM_BASE + 0x100, uni[2] = { out, 0 };
    warp_setup(w, arch, &g);
    for (unsigned l = 0; l < 8; l++)
        put32(out + 4 * l, 0xdeadbeef);
    for (unsigned l = 0; l < w->lanes; l++) {
        w->reg[0][l] = 4 * l;
        w->reg[5][l] = 100 + l;
        w->reg[9][l] = fb(l == 0 ? 0.0f : 2.0f);        /* lane 0 discards */
        w->reg[10][l] = fb(1.0f);
    }
    w->helper = preset_helper;
    w->uniforms = uni;
    w->nuniforms = 2;
    set_backend(jit);
    bi_program *p = bi_program_new(bi_shader_gfx_helper_store, sizeof(bi_shader_gfx_helper_store),
                                   arch == 7 ? BI_ARCH_V7 : BI_ARCH_V6);
    run_prog(w, p, BI_EXEC_END);
    bi_program_free(p);
    for (unsigned l = 0; l < 8; l++)
        ck_assert_uint_eq(get32(out + 4 * l), l < w->lanes && l != 0 && !((preset_helper >> l) & 1) ? 100 + l : 0xdeadbeef);
}

START_TEST(helper_store)
{
    /* lane 2 a helper from the start (the warp runs interpreted), then none: compiled code runs
     * until the DISCARD */
    for (unsigned k = 0; k < 2; k++) {
        preset_helper = k ? 0 : 1u << 2;
        both_backends(check_helper_store, 6);
        both_backends(check_helper_store, 7);
    }
}
END_TEST

/* ---- blend shaders ----------------------------------------------------------------------------- */

static uint32_t ret_value;      /* the descriptor's return address: 0 ends the lanes */

static void check_blend_call(unsigned arch, int jit, bi_warp *w)
{
    fake_log g;
    warp_setup(w, arch, &g);
    for (unsigned l = 0; l < w->lanes; l++) {
        for (unsigned c = 0; c < 4; c++)
            w->reg[c][l] = fb((float)(10 * l + c));
        w->reg[60][l] = 0x1;
        w->reg[15][l] = 0x1500 + l;
        w->reg[21][l] = 0x2100 + l;
    }
    w->helper = 1u << 1;
    /* render target 1: mode "shader" (0), the return value, the shader's address */
    fau[BI_GFX_FAU_BLEND0 + 1] = (uint64_t)0x4000 << 32 | ret_value;
    set_backend(jit);
    enum bi_arch a = arch == 7 ? BI_ARCH_V7 : BI_ARCH_V6;
    bi_program *fs = bi_program_new(bi_shader_gfx_blend_call, sizeof(bi_shader_gfx_blend_call), a);
    bi_program *bs = bi_program_new(bi_shader_gfx_blend_shader, sizeof(bi_shader_gfx_blend_shader), a);
    uint32_t all = all_lanes(arch), effect = all & ~2u;

    run_prog(w, fs, BI_EXEC_BLEND_CALL);
    ck_assert_uint_eq(w->blend_shader, 0x4000);
    ck_assert_uint_eq(w->blend_rt, 1);
    ck_assert_uint_eq(w->blend_lanes, effect);
    ck_assert_uint_eq(g.nblend, 1);
    ck_assert_uint_eq(g.blend[0].rt, 1);
    bi_fault f = { 0 };
    int rc = bi_gfx_run_blend(w, bs, NULL, 100, &f);
    ck_assert_msg(rc == BI_EXEC_OK, "blend shader: %d %s", rc, f.msg);
    /* the blend shader's BLEND: the caller's render target, its constant descriptor, r0 + 1 */
    ck_assert_uint_eq(g.nblend, 2);
    ck_assert_uint_eq(g.blend[1].rt, 1);
    ck_assert_uint_eq(g.blend[1].lanes, effect);
    ck_assert_uint_eq(g.blend[1].desc, 0x9abcdef012345672ull);
    ck_assert_uint_eq(w->blend_shader, 0);
    run_prog(w, fs, BI_EXEC_END);
    for (unsigned l = 0; l < w->lanes; l++) {
        int eff = (effect >> l) & 1, cont = !eff || ret_value;
        if (eff) {
            ck_assert_uint_eq(g.blend[1].colour[0][l], fb((float)(10 * l) + 1.0f));
            ck_assert_uint_eq(g.blend[1].colour[1][l], fb((float)(10 * l + 1)));
        }
        /* the fragment shader's registers as it left them; it goes on after the BLEND unless
         * the return address is 0 (helper lanes called no blend shader) */
        ck_assert_uint_eq(w->reg[0][l], fb((float)(10 * l)));
        ck_assert_uint_eq(w->reg[15][l], 0x1500 + l);
        ck_assert_uint_eq(w->reg[20][l], cont ? 0x2107 + l : 0);
    }
    bi_program_free(fs);
    bi_program_free(bs);
}

START_TEST(blend_shader_call)
{
    ret_value = 0x1008;
    both_backends(check_blend_call, 6);
    both_backends(check_blend_call, 7);
    ret_value = 0;
    both_backends(check_blend_call, 6);
    both_backends(check_blend_call, 7);
}
END_TEST

/* The last two clauses of the blend shader Mesa 26.1 builds (G52) for GL's dual-source
 * (ZERO, SRC1_ALPHA) blend of an RGBA8 target: r1:r2 the tile's colour as f16 pairs (LD_TILE's),
 * r7 the second colour's alpha; r0:r1 = colour x alpha, then "r0 = BLEND ... @r0": BLEND's
 * destination is its own staging register, and the colour it sends must be the one computed */
static const uint8_t mesa_blend_src1_alpha[] = {
    0x2b, 0x00, 0x00, 0x70, 0x68, 0x18, 0xcb, 0x80, 0x03, 0x8c, 0x05, 0xc0, 0x08, 0x00, 0x40, 0x02,
    0x21, 0x00, 0x00, 0x20, 0x28, 0xc0, 0x27, 0xa0, 0x92, 0x65, 0x07, 0x00, 0x00, 0x10, 0x6c, 0x30,
    0x05, 0x49, 0x01, 0xc0, 0x7b, 0x18, 0xcb, 0x80, 0x83, 0xa5, 0x0a, 0xa8, 0x6e, 0xd9, 0x01, 0x38,
    0x72, 0x01, 0x00, 0x00, 0x00, 0x00, 0xed, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x4b, 0x00, 0x00, 0x00, 0x43, 0x18, 0xcb, 0x80, 0xd3, 0xf8, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static void check_blend_dest_staging(unsigned arch, int jit, bi_warp *w)
{
    fake_log g;
    warp_setup(w, arch, &g);
    for (unsigned l = 0; l < w->lanes; l++) {
        w->reg[0][l] = 0x3f800000;                  /* the fragment shader's first colour */
        w->reg[1][l] = 0x3400u << 16 | 0x3a00u;     /* R 0.75, G 0.25 */
        w->reg[2][l] = 0x3800u << 16 | 0x3400u;     /* B 0.25, A 0.5 */
        w->reg[7][l] = 0x3f000000;                  /* the second colour's alpha, 0.5f */
        w->reg[60][l] = 1;
    }
    set_backend(jit);
    bi_program *bs = bi_program_new(mesa_blend_src1_alpha, sizeof(mesa_blend_src1_alpha),
                                    arch == 7 ? BI_ARCH_V7 : BI_ARCH_V6);
    w->blend_lanes = (uint8_t)all_lanes(arch);      /* as a fragment shader's BLEND leaves it */
    w->blend_rt = 0;
    bi_fault f = { 0 };
    ck_assert_int_eq(bi_gfx_run_blend(w, bs, NULL, 100, &f), BI_EXEC_OK);
    ck_assert_uint_eq(g.nblend, 1);
    ck_assert_uint_eq(g.blend[0].desc, 0x000ed00000000019ull);
    for (unsigned l = 0; l < w->lanes; l++) {
        ck_assert_msg(g.blend[0].colour[0][l] == (0x3000u << 16 | 0x3600u), "RG %#x", g.blend[0].colour[0][l]);
        ck_assert_msg(g.blend[0].colour[1][l] == (0x3400u << 16 | 0x3000u), "BA %#x", g.blend[0].colour[1][l]);
    }
    bi_program_free(bs);
}

START_TEST(blend_dest_staging)
{
    both_backends(check_blend_dest_staging, 6);
    both_backends(check_blend_dest_staging, 7);
}
END_TEST

/* The BLEND of an END clause calls the blend shader after its lanes finished the fragment shader */
static void check_blend_end(unsigned arch, int jit, bi_warp *w)
{
    fake_log g;
    warp_setup(w, arch, &g);
    for (unsigned l = 0; l < w->lanes; l++)
        w->reg[0][l] = fb((float)l);
    fau[BI_GFX_FAU_BLEND0] = (uint64_t)0x8000 << 32;            /* mode shader, return address 0 */
    set_backend(jit);
    enum bi_arch a = arch == 7 ? BI_ARCH_V7 : BI_ARCH_V6;
    bi_program *fs = bi_program_new(bi_shader_gfx_blend_end, sizeof(bi_shader_gfx_blend_end), a);
    bi_program *bs = bi_program_new(bi_shader_gfx_blend_shader, sizeof(bi_shader_gfx_blend_shader), a);
    run_prog(w, fs, BI_EXEC_BLEND_CALL);
    ck_assert_uint_eq(w->blend_lanes, all_lanes(arch));
    bi_fault f = { 0 };
    ck_assert_int_eq(bi_gfx_run_blend(w, bs, NULL, 100, &f), BI_EXEC_OK);
    ck_assert_uint_eq(g.nblend, 2);
    for (unsigned l = 0; l < w->lanes; l++) {
        ck_assert_uint_eq(g.blend[1].colour[0][l], fb((float)l + 1.0f));
        ck_assert(w->done[l]);
    }
    run_prog(w, fs, BI_EXEC_END);
    ck_assert_uint_eq(g.nblend, 2);
    bi_program_free(fs);
    bi_program_free(bs);
}

START_TEST(blend_shader_end)
{
    both_backends(check_blend_end, 6);
    both_backends(check_blend_end, 7);
}
END_TEST

/* ---- tile buffer ------------------------------------------------------------------------------- */

static void check_tile(unsigned arch, int jit, bi_warp *w)
{
    fake_log g;
    warp_setup(w, arch, &g);
    for (unsigned l = 0; l < w->lanes; l++) {
        w->reg[1][l] = 0x00ff0000u | l;
        w->reg[60][l] = 0x3 + l;
    }
    w->helper = 1u << 2;
    set_backend(jit);
    bi_program *p = bi_program_new(bi_shader_gfx_tile, sizeof(bi_shader_gfx_tile), arch == 7 ? BI_ARCH_V7 : BI_ARCH_V6);
    run_prog(w, p, BI_EXEC_END);
    bi_program_free(p);
    uint32_t all = all_lanes(arch);
    ck_assert_uint_eq(g.ntile, 2);
    ck_assert(!g.tile[0].store && g.tile[0].ncomp == 4 && g.tile[0].lanes == all);
    ck_assert(g.tile[1].store && g.tile[1].ncomp == 2 && g.tile[1].lanes == (all & ~4u));
    for (unsigned k = 0; k < 2; k++) {
        ck_assert_uint_eq(g.tile[k].conv, 0x030bb000);
        for (unsigned l = 0; l < w->lanes; l++) {
            ck_assert_uint_eq(g.tile[k].pixel[l], 0x00ff0000u | l);
            ck_assert_uint_eq(g.tile[k].coverage[l], 0x3 + l);
        }
    }
    for (unsigned l = 0; l < w->lanes; l++)
        for (unsigned c = 0; c < 4; c++) {
            ck_assert_uint_eq(w->reg[4 + c][l], 0x700u + 0x10u * c + l);
            if (c < 2)
                ck_assert_uint_eq(g.tile[1].data[c][l], 0x700u + 0x10u * c + l);
        }
}

START_TEST(tile_messages)
{
    both_backends(check_tile, 6);
    both_backends(check_tile, 7);
}
END_TEST

/* ---- vertex attributes and outputs --------------------------------------------------------------- */

#define ATTRS (MEM_BASE + 0x0)
#define BUFS (MEM_BASE + 0x100)
#define VARYS (MEM_BASE + 0x200)
#define VBUFS (MEM_BASE + 0x300)
#define DATA (MEM_BASE + 0x1000)        /* buffer b's data at DATA + b * 0x2000 */
#define VDATA (MEM_BASE + 0xa000)
#define VDATA2 (MEM_BASE + 0xc000)
#define INSTANCE_SIZE 4
#define OFFSET_START 5         /* the draw's Offset Start: added to every element */
/* attribute buffer types (genxml's Attribute Type) */
enum { MALI_ATTR_1D = 1, MALI_ATTR_POT = 2, MALI_ATTR_MOD = 3, MALI_ATTR_NPOT = 4 };

/* 22-bit pixel format of Mali format f with the identity swizzle (v6) / RGBA order (v7) */
static uint32_t pformat(unsigned arch, unsigned f) { return f << 12 | (arch == 6 ? 0x688u : 0u); }

static void attribute(uint64_t at, unsigned i, unsigned buf, uint32_t pf)
{
    put32(at + 8 * i, buf | 1u << 9 | pf << 10);
    put32(at + 8 * i + 4, 0);
}

static void attr_buffer(uint64_t bt, unsigned b, unsigned type, uint64_t ptr, uint32_t w1_top, uint32_t stride)
{
    put32(bt + 16 * b, type | (uint32_t)ptr);
    put32(bt + 16 * b + 4, (uint32_t)(ptr >> 32) | w1_top << 24);
    put32(bt + 16 * b + 8, stride);
    put32(bt + 16 * b + 12, 0x2000);
}

/* element k, channel c of buffer b */
static float elem(unsigned b, unsigned k, unsigned c) { return (float)(b * 1000 + k * 4 + c); }

static int hostile_index;       /* LD_ATTR's index register out of the table */

static void check_vertex(unsigned arch, int jit, bi_warp *w)
{
    fake_log g;
    memset(mem, 0, sizeof(mem));
    warp_setup(w, arch, &g);
    gmem.attributes = ATTRS;
    gmem.attr_bufs = BUFS;
    gmem.varyings = VARYS;
    gmem.vary_bufs = VBUFS;
    gmem.attr_instance_size = INSTANCE_SIZE;
    gmem.attr_offset_start = OFFSET_START;
    attribute(ATTRS, 0, 0, pformat(arch, 191));          /* RGBA32F, 1D */
    attribute(ATTRS, 1, 1, pformat(arch, 183));          /* RGB32F, POT divisor 2 */
    attribute(ATTRS, 2, 2, pformat(arch, 133));          /* R32UI (.auto: u32), modulus 4 */
    attribute(ATTRS, 3, 4, pformat(arch, 191));          /* RGBA32F, NPOT divisor 12 (+ continuation) */
    for (unsigned b = 0; b < 5; b++)
        for (unsigned k = 0; k < 128; k++)
            for (unsigned c = 0; c < 4; c++) {
                uint64_t a = DATA + b * 0x2000u + k * (b == 1 ? 12u : b == 2 ? 4u : 16u) + 4 * c;
                if ((b == 1 && c == 3) || (b == 2 && c))
                    continue;
                put32(a, b == 2 ? 7000 + k : fb(elem(b, k, c)));
            }
    attr_buffer(BUFS, 0, MALI_ATTR_1D, DATA, 0, 16);
    attr_buffer(BUFS, 1, MALI_ATTR_POT, DATA + 0x2000, 1, 12);                      /* r = 1 */
    attr_buffer(BUFS, 2, MALI_ATTR_MOD, DATA + 0x4000, 2, 4);                       /* 4 = 1 << 2 */
    /* NPOT 12: shift 3, magic = ceil(2^35 / 12) - 1 with the round-down flag (2^35 % 12 <= 2^3) */
    uint64_t t = 1ull << 35, m = (t + 11) / 12;
    ck_assert_uint_le(t % 12, 8);
    attr_buffer(BUFS, 4, MALI_ATTR_NPOT, DATA + 0x8000, 3 | 1u << 5, 16);
    put32(BUFS + 16 * 5, 32);                           /* continuation: numerator, divisor */
    put32(BUFS + 16 * 5 + 4, (uint32_t)(m - 1) & 0x7fffffffu);
    put32(BUFS + 16 * 5 + 12, 3);
    /* the varying table: varying 0, RGBA32F, 1D, stride 16 */
    attribute(VARYS, 0, 0, pformat(arch, 191));
    attr_buffer(VBUFS, 0, MALI_ATTR_1D, VDATA, 0, 16);
    /* varying 1: RGB32UI, the bits of r4-r6 (Mesa 26 stores varyings as u32), at byte 8 of a
     * 20-byte record with Offset enable clear, as Mesa packs Bifrost varyings */
    attribute(VARYS, 1, 1, pformat(arch, 149));
    put32(VARYS + 8 * 1, 1 | pformat(arch, 149) << 10);
    put32(VARYS + 8 * 1 + 4, 8);
    attr_buffer(VBUFS, 1, MALI_ATTR_1D, VDATA2, 0, 20);
    for (unsigned l = 0; l < w->lanes; l++) {
        /* linear indices 12 l (odd lanes) and 12 l + 3: the NPOT divisor's exact multiples */
        w->reg[61][l] = l & 1 ? 0 : 3;                   /* vertex id */
        w->reg[62][l] = 3 * l;                           /* instance id */
        w->reg[40][l] = 2;
    }
    set_backend(jit);
    bi_program *p = bi_program_new(bi_shader_gfx_vertex, sizeof(bi_shader_gfx_vertex), arch == 7 ? BI_ARCH_V7 : BI_ARCH_V6);
    if (hostile_index) {
        /* a guest's attribute index far beyond the table: a memory fault, the lanes stay */
        for (unsigned l = 0; l < w->lanes; l++)
            w->reg[40][l] = 0x7fffffff;
        bi_fault f = { 0 };
        ck_assert_int_eq(bi_exec_program(w, p, 100, &f), BI_EXEC_FAULT);
        ck_assert_int_eq(f.kind, BI_FAULT_MEMORY);
        ck_assert_msg(strstr(f.msg, "attribute descriptor fault"), "%s", f.msg);
        bi_program_free(p);
        return;
    }
    run_prog(w, p, BI_EXEC_END);
    bi_program_free(p);
    for (unsigned l = 0; l < w->lanes; l++) {
        unsigned lin = (l & 1 ? 0 : 3) + INSTANCE_SIZE * 3 * l;
        for (unsigned c = 0; c < 4; c++) {
            ck_assert_msg(w->reg[c][l] == fb(elem(0, lin + OFFSET_START, c)), "1D lane %u c %u: %g", l, c,
                          bf(w->reg[c][l]));
            ck_assert_msg(w->reg[12 + c][l] == fb(elem(4, lin / 12 + OFFSET_START, c)), "NPOT lane %u c %u: %g", l, c,
                          bf(w->reg[12 + c][l]));
            /* the vertex output: varying 0's element lin */
            ck_assert_uint_eq(get32(VDATA + 16 * lin + 4 * c), fb(elem(0, lin + OFFSET_START, c)));
        }
        for (unsigned c = 0; c < 3; c++) {
            ck_assert_msg(w->reg[4 + c][l] == fb(elem(1, (lin >> 1) + OFFSET_START, c)), "POT lane %u c %u: %g", l, c,
                          bf(w->reg[4 + c][l]));
            ck_assert_uint_eq(get32(VDATA2 + 20 * lin + 8 + 4 * c), fb(elem(1, (lin >> 1) + OFFSET_START, c)));
        }
        ck_assert_uint_eq(w->reg[8][l], 7000 + lin % 4 + OFFSET_START);
    }
}

START_TEST(vertex_attributes)
{
    for (hostile_index = 0; hostile_index < 2; hostile_index++) {
        both_backends(check_vertex, 6);
        both_backends(check_vertex, 7);
    }
}
END_TEST

/* ---- shaders Mesa compiled ------------------------------------------------------------------------ */

/* The IDVS position shader of tests/gfx/mesa_idvs_pos.s (v7: its Snap 4 conversion word has v7's
 * component order) and mesa_idvs_pos_v6.s (v6's swizzle) */
static void check_mesa_pos(unsigned arch, int jit, bi_warp *w)
{
    fake_log g;
    static const float wv[4] = { 2.0f, 4.0f, 0.5f, 1.0f };  /* 1 / w exact */
    static const uint32_t uni[6] = { 0x3f000000, 0x3e800000, 0x40000000, 0xbf800000, 0x3f800000, 0x0 };
    memset(mem, 0, sizeof(mem));
    warp_setup(w, arch, &g);
    gmem.attributes = ATTRS;
    gmem.attr_bufs = BUFS;
    attribute(ATTRS, 0, 0, pformat(arch, 191));
    attr_buffer(BUFS, 0, MALI_ATTR_1D, DATA, 0, 16);
    for (unsigned k = 0; k < 8; k++) {
        float v[4] = { (float)k + 1.0f, 2.0f * (float)k, -(float)k, wv[k % 4] };
        for (unsigned c = 0; c < 4; c++)
            put32(DATA + 16 * k + 4 * c, fb(v[c]));
    }
    for (unsigned l = 0; l < w->lanes; l++) {
        uint64_t slot = VDATA + 16u * (7 - l);            /* position slots in another order */
        w->reg[58][l] = (uint32_t)slot;
        w->reg[59][l] = (uint32_t)(slot >> 32);
        w->reg[61][l] = l;
        w->reg[62][l] = 0;
    }
    w->uniforms = uni;
    w->nuniforms = 6;
    set_backend(jit);
    bi_program *p = arch == 7 ? bi_program_new(bi_shader_mesa_idvs_pos, sizeof(bi_shader_mesa_idvs_pos), BI_ARCH_V7)
                              : bi_program_new(bi_shader_mesa_idvs_pos_v6, sizeof(bi_shader_mesa_idvs_pos_v6), BI_ARCH_V6);
    run_prog(w, p, BI_EXEC_END);
    bi_program_free(p);
    for (unsigned l = 0; l < w->lanes; l++) {
        float rw = 1.0f / wv[l % 4], in[3] = { (float)l + 1.0f, 2.0f * (float)l, -(float)l };
        for (unsigned c = 0; c < 3; c++) {
            float want = fmaf(fmaf(in[c], rw, -0.0f), bf(uni[2 * c]), bf(uni[2 * c + 1]));
            ck_assert_msg(get32(VDATA + 16u * (7 - l) + 4 * c) == fb(want), "lane %u c %u: %g, want %g", l, c,
                          bf(get32(VDATA + 16u * (7 - l) + 4 * c)), want);
        }
        ck_assert_uint_eq(get32(VDATA + 16u * (7 - l) + 12), fb(rw));
    }
}

START_TEST(mesa_position_shader)
{
    both_backends(check_mesa_pos, 6);
    both_backends(check_mesa_pos, 7);
}
END_TEST

/* The fragment shader of tests/gfx/mesa_fs_mrt.s: ATEST, then two render targets */
static void check_mesa_mrt(unsigned arch, int jit, bi_warp *w)
{
    fake_log g;
    static const uint32_t uni[6] = { 0, 0, 0, 0, 0x38003400, 0x3c003a00 };   /* f16 0.25 0.5 0.75 1 */
    warp_setup(w, arch, &g);
    for (unsigned l = 0; l < w->lanes; l++)
        w->reg[60][l] = 1;
    w->uniforms = uni;
    w->nuniforms = 6;
    fau[BI_GFX_FAU_ATEST] = 0x55;
    fau[BI_GFX_FAU_BLEND0] = 0x1111111100000002ull;
    fau[BI_GFX_FAU_BLEND0 + 1] = 0x2222222200000002ull;
    set_backend(jit);
    bi_program *p = bi_program_new(bi_shader_mesa_fs_mrt, sizeof(bi_shader_mesa_fs_mrt), arch == 7 ? BI_ARCH_V7 : BI_ARCH_V6);
    run_prog(w, p, BI_EXEC_END);
    bi_program_free(p);
    uint32_t all = all_lanes(arch);
    ck_assert_uint_eq(g.natest, 1);
    ck_assert_uint_eq(g.atest.lanes, all);
    ck_assert_uint_eq(g.atest.datum, 0x55);
    ck_assert_uint_eq(g.nblend, 2);
    ck_assert(g.blend[0].rt == 0 && g.blend[0].desc == 0x1111111100000002ull && g.blend[0].lanes == all);
    ck_assert(g.blend[1].rt == 1 && g.blend[1].desc == 0x2222222200000002ull && g.blend[1].lanes == all);
    static const float rgba[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
    for (unsigned l = 0; l < w->lanes; l++) {
        ck_assert_uint_eq(g.atest.alpha[l], fb(1.0f));
        ck_assert_uint_eq(g.blend[0].coverage[l], 0x101);        /* what ATEST returned */
        ck_assert_uint_eq(g.blend[0].colour[0][l], 0x38003400);
        ck_assert_uint_eq(g.blend[0].colour[1][l], 0x3c003a00);
        for (unsigned c = 0; c < 4; c++)
            ck_assert_uint_eq(g.blend[1].colour[c][l], fb(rgba[c]));
    }
}

START_TEST(mesa_mrt_fragment_shader)
{
    both_backends(check_mesa_mrt, 6);
    both_backends(check_mesa_mrt, 7);
}
END_TEST

/* The fragment shader of tests/gfx/mesa_fs_fragdepth.s (a G72 binary): depth from an f16
 * varying or 0.5 as uniform word 4's high half is 1.0 or not */
static uint32_t depth_flag;

static void check_mesa_fragdepth(unsigned arch, int jit, bi_warp *w)
{
    fake_log g;
    uint32_t uni[6] = { 0, 0, 0, 0, depth_flag << 16 | 0x1234, 0x3c000000 };
    warp_setup(w, arch, &g);
    for (unsigned l = 0; l < w->lanes; l++)
        w->reg[60][l] = 1;
    w->uniforms = uni;
    w->nuniforms = 6;
    fau[BI_GFX_FAU_ATEST] = 0x66;
    fau[BI_GFX_FAU_BLEND0] = 0x0000000300000002ull;
    set_backend(jit);
    bi_program *p = bi_program_new(bi_shader_mesa_fs_fragdepth, sizeof(bi_shader_mesa_fs_fragdepth),
                                   arch == 7 ? BI_ARCH_V7 : BI_ARCH_V6);
    run_prog(w, p, BI_EXEC_END);
    bi_program_free(p);
    uint32_t all = all_lanes(arch);
    ck_assert_uint_eq(g.nvary, 1);
    ck_assert(g.vary[0].v.imm && g.vary[0].v.index == 0 && g.vary[0].v.ncomp == 1);
    ck_assert(g.vary[0].v.regfmt == BI_RF_F16 && g.vary[0].v.sample == BI_GFX_SAMPLE_CENTER &&
              g.vary[0].v.update == BI_GFX_UPDATE_STORE);
    ck_assert(g.natest == 1 && g.nzs == 1 && g.nblend == 1);
    ck_assert(g.zs.lanes == all && g.zs.wz && !g.zs.ws);
    for (unsigned l = 0; l < w->lanes; l++) {
        uint32_t vary = bi_f16_to_f32((uint16_t)g.vary[0].out[0][l]);
        ck_assert_uint_eq(g.atest.alpha[l], fb(1.0f));
        ck_assert_uint_eq(g.zs.z[l], depth_flag == 0x3c00 ? vary : fb(0.5f));
        ck_assert_uint_eq(g.zs.s[l], 0);
        ck_assert_uint_eq(g.zs.coverage[l], 0x101);
        ck_assert_uint_eq(g.blend[0].coverage[l], 0x103);
        ck_assert_uint_eq(g.blend[0].colour[0][l], uni[4]);
        ck_assert_uint_eq(g.blend[0].colour[1][l], uni[5]);
    }
}

START_TEST(mesa_fragdepth_shader)
{
    static const uint32_t flags[2] = { 0x3c00, 0x0000 };
    for (unsigned k = 0; k < 2; k++) {
        depth_flag = flags[k];
        both_backends(check_mesa_fragdepth, 6);
        both_backends(check_mesa_fragdepth, 7);
    }
}
END_TEST

/* ---- VAR_TEX ------------------------------------------------------------------------------------- */

/* texture and sampler 1: a 2 x 2 RGBA32F linear texture, nearest filtering; texel (x, y) channel c
 * = 10 x + 100 y + c */
static void var_tex_tables(unsigned arch)
{
    uint64_t tex = MEM_BASE + 0x400, smp = MEM_BASE + 0x480, surf = MEM_BASE + 0x500, data = MEM_BASE + 0x600;
    gmem.textures = tex;
    gmem.samplers = smp;
    put32(tex + 32, 2 | 2u << 4 | pformat(arch, 191) << 10);         /* texture 1: 2D */
    put32(tex + 32 + 4, 1 | 1u << 16);                               /* 2 x 2 */
    put32(tex + 32 + 8, (0 | 1 << 3 | 2 << 6 | 3 << 9) | 2u << 12);  /* RGBA, linear */
    put32(tex + 32 + 16, (uint32_t)surf);
    put32(tex + 32 + 20, 0);
    put32(surf, (uint32_t)data);
    put32(surf + 8, 32);                                             /* row stride */
    put32(smp + 32, 1 | 9u << 8 | 9u << 12 | 9u << 16 | 1u << 25 | 1u << 26 | 3u << 27);   /* edge, normalized, nearest */
    for (unsigned y = 0; y < 2; y++)
        for (unsigned x = 0; x < 2; x++)
            for (unsigned c = 0; c < 4; c++)
                put32(data + 32 * y + 16 * x + 4 * c, fb((float)(10 * x + 100 * y + c)));
}

static void check_var_tex(unsigned arch, int jit, bi_warp *w)
{
    fake_log g;
    memset(mem, 0, sizeof(mem));
    warp_setup(w, arch, &g);
    g.coords = 1;
    var_tex_tables(arch);
    set_backend(jit);
    bi_program *p = bi_program_new(bi_shader_gfx_var_tex, sizeof(bi_shader_gfx_var_tex), arch == 7 ? BI_ARCH_V7 : BI_ARCH_V6);
    run_prog(w, p, BI_EXEC_END);
    bi_program_free(p);
    ck_assert_uint_eq(g.nvary, 1);
    ck_assert(g.vary[0].v.index == 2 && g.vary[0].v.ncomp == 2 && g.vary[0].v.regfmt == BI_RF_F32);
    ck_assert_uint_eq(g.vary[0].v.sample, BI_GFX_SAMPLE_CENTER);
    for (unsigned l = 0; l < w->lanes; l++)
        for (unsigned c = 0; c < 4; c++)
            ck_assert_msg(w->reg[c][l] == fb((float)(10 * (l & 1) + 100 * ((l >> 1) & 1) + c)), "lane %u c %u: %g", l, c,
                          bf(w->reg[c][l]));
}

START_TEST(var_tex)
{
    both_backends(check_var_tex, 6);
    both_backends(check_var_tex, 7);
}
END_TEST

/* ---- TEXS_2D with a computed LOD: quads' derivatives ------------------------------------------- */

/* texture and sampler 1: a 16 x 16 RGBA32F texture of 4 levels, nearest filtering and nearest
 * mip selection; every texel of level l is (l, l, l, l) */
static void lod_tables(unsigned arch)
{
    uint64_t tex = MEM_BASE + 0x400, smp = MEM_BASE + 0x480, surf = MEM_BASE + 0x500, data = MEM_BASE + 0x1000;
    gmem.textures = tex;
    gmem.samplers = smp;
    put32(tex + 32, 2 | 2u << 4 | pformat(arch, 191) << 10);         /* texture 1: 2D */
    put32(tex + 32 + 4, 15 | 15u << 16);                             /* 16 x 16 */
    put32(tex + 32 + 8, (0 | 1 << 3 | 2 << 6 | 3 << 9) | 2u << 12 | 3u << 16);   /* linear, 4 levels */
    put32(tex + 32 + 16, (uint32_t)surf);
    for (unsigned l = 0, off = 0; l < 4; l++) {
        unsigned n = 16 >> l;
        put32(surf + 16 * l, (uint32_t)(data + off));
        put32(surf + 16 * l + 8, 16 * n);                            /* row stride */
        for (unsigned i = 0; i < n * n * 4; i++)
            put32(data + off + 4 * i, fb((float)l));
        off += 16 * n * n;
    }
    /* edge, normalized, minify and magnify nearest, mipmap nearest, maximum LOD 16 */
    put32(smp + 32, 1 | 9u << 8 | 9u << 12 | 9u << 16 | 1u << 25 | 1u << 26 | 3u << 27);
    put32(smp + 32 + 4, 16u << 8 << 16);
}

static void check_texs_lod(unsigned arch, int jit, bi_warp *w)
{
    fake_log g;
    memset(mem, 0, sizeof(mem));
    warp_setup(w, arch, &g);
    lod_tables(arch);
    /* quad q's lanes step 2^q texels along x and y: lambda q, level q (v7's second quad: 1) */
    for (unsigned l = 0; l < w->lanes; l++) {
        unsigned q = l / 4, step = 1u << (arch == 7 ? q : 2);
        w->reg[4][l] = fb((0.5f + (float)((l & 1) * step)) / 16);
        w->reg[5][l] = fb((0.5f + (float)(((l >> 1) & 1) * step)) / 16);
    }
    set_backend(jit);
    bi_program *p = bi_program_new(bi_shader_gfx_texs_lod, sizeof(bi_shader_gfx_texs_lod), arch == 7 ? BI_ARCH_V7 : BI_ARCH_V6);
    run_prog(w, p, BI_EXEC_END);
    bi_program_free(p);
    for (unsigned l = 0; l < w->lanes; l++) {
        unsigned level = arch == 7 ? l / 4 : 2;
        ck_assert_msg(w->reg[0][l] == fb((float)level), "arch %u lane %u: level %g, %u expected", arch, l,
                      bf(w->reg[0][l]), level);
    }
}

/* TEXS_CUBE on a 1x1 cube whose face f holds f: lane l looks at face l % 6 (the face word's bits
 * 31:29, s and t the face's centre); the executor packs the face over s as TEXC's cube source. */
static void check_texs_cube(unsigned arch, int jit, bi_warp *w)
{
    fake_log g;
    memset(mem, 0, sizeof(mem));
    warp_setup(w, arch, &g);
    uint64_t tex = MEM_BASE + 0x400, smp = MEM_BASE + 0x480, surf = MEM_BASE + 0x500, data = MEM_BASE + 0x1000;
    gmem.textures = tex;
    gmem.samplers = smp;
    put32(tex + 32, 2 | 0u << 4 | pformat(arch, 191) << 10);          /* texture 1: cube, 1 x 1, 1 level */
    put32(tex + 32 + 8, (0 | 1 << 3 | 2 << 6 | 3 << 9) | 2u << 12);
    put32(tex + 32 + 16, (uint32_t)surf);
    for (unsigned f = 0; f < 6; f++) {                                 /* one cube: surface f = face f */
        put32(surf + 16 * f, (uint32_t)(data + 16 * f));
        put32(surf + 16 * f + 8, 16);
        for (unsigned c = 0; c < 4; c++)
            put32(data + 16 * f + 4 * c, fb((float)(10 * f + c)));
    }
    put32(smp + 32, 1 | 9u << 8 | 9u << 12 | 9u << 16 | 1u << 25 | 1u << 26 | 3u << 27);
    put32(smp + 32 + 4, 16u << 8 << 16);
    for (unsigned l = 0; l < w->lanes; l++) {
        w->reg[4][l] = fb(0.5f);
        w->reg[5][l] = fb(0.5f);
        w->reg[6][l] = (l % 6) << 29;
    }
    set_backend(jit);
    bi_program *p = bi_program_new(bi_shader_gfx_texs_cube, sizeof(bi_shader_gfx_texs_cube), arch == 7 ? BI_ARCH_V7 : BI_ARCH_V6);
    run_prog(w, p, BI_EXEC_END);
    bi_program_free(p);
    for (unsigned l = 0; l < w->lanes; l++)
        for (unsigned c = 0; c < 4; c++)
            ck_assert_msg(w->reg[c][l] == fb((float)(10 * (l % 6) + c)), "arch %u lane %u channel %u: %g", arch, l, c,
                          bf(w->reg[c][l]));
}

/* A dual-texture TEXC (gfx_texc_dual.s): textures 0 and 1, 1 x 1 RGBA32F holding 100 t + c,
 * looked up at once; texture 1's texel lands in the staging registers r0-r3, texture 0's in
 * r8-r11 as the descriptor's secondary register says (the next clause reads them back), and r12
 * (past them) is left alone.  The
 * descriptor is built as Mesa's bi_fuse_dual builds it (glmark2's terrain runs one). */
static void check_texc_dual(unsigned arch, int jit, bi_warp *w)
{
    fake_log g;
    memset(mem, 0, sizeof(mem));
    warp_setup(w, arch, &g);
    uint64_t tex = MEM_BASE + 0x400, smp = MEM_BASE + 0x480, surf = MEM_BASE + 0x500, data = MEM_BASE + 0x1000;
    gmem.textures = tex;
    gmem.samplers = smp;
    for (unsigned t = 0; t < 2; t++) {
        put32(tex + 32 * t, 2 | 2u << 4 | pformat(arch, 191) << 10);       /* 2D, 1 x 1, 1 level */
        put32(tex + 32 * t + 8, (0 | 1 << 3 | 2 << 6 | 3 << 9) | 2u << 12);
        put32(tex + 32 * t + 16, (uint32_t)(surf + 16 * t));
        put32(surf + 16 * t, (uint32_t)(data + 16 * t));
        put32(surf + 16 * t + 8, 16);
        for (unsigned c = 0; c < 4; c++)
            put32(data + 16 * t + 4 * c, fb((float)(100 * t + c)));
        put32(smp + 32 * t, 1 | 9u << 8 | 9u << 12 | 9u << 16 | 1u << 25 | 1u << 26 | 3u << 27);
        put32(smp + 32 * t + 4, 16u << 8 << 16);
    }
    for (unsigned l = 0; l < w->lanes; l++) {
        w->reg[4][l] = fb(0.5f);
        w->reg[5][l] = fb(0.5f);
        w->reg[12][l] = 0x5eed;
    }
    set_backend(jit);
    bi_program *p = bi_program_new(bi_shader_gfx_texc_dual, sizeof(bi_shader_gfx_texc_dual), arch == 7 ? BI_ARCH_V7 : BI_ARCH_V6);
    run_prog(w, p, BI_EXEC_END);
    bi_program_free(p);
    for (unsigned l = 0; l < w->lanes; l++) {
        for (unsigned c = 0; c < 4; c++) {
            ck_assert_msg(w->reg[c][l] == fb((float)(100 + c)), "arch %u lane %u primary %u: %g", arch, l, c,
                          bf(w->reg[c][l]));
            ck_assert_msg(w->reg[8 + c][l] == fb((float)c), "arch %u lane %u secondary %u: %g", arch, l, c,
                          bf(w->reg[8 + c][l]));
        }
        ck_assert_uint_eq(w->reg[12][l], 0x5eed);
        ck_assert(w->reg[20][l] == fb(0.0f) && w->reg[21][l] == fb(3.0f));   /* read by the next clause */
    }
    /* Mesa's descriptor in glmark2's terrain: texture / sampler 2 and 0, f16 results, r9 */
    uint32_t d1, d2;
    unsigned r2;
    ck_assert(bi_tex_dual_split(0xf1e09026u, 1, &d1, &d2, &r2));
    ck_assert_uint_eq(d1, bi_tex_texs_desc(2, 2, 1, 0));
    ck_assert_uint_eq(d2, bi_tex_texs_desc(0, 0, 1, 0));
    ck_assert_uint_eq(r2, 9);
    ck_assert(bi_tex_dual_split(0xf1e09026u, 0, &d1, &d2, &r2) && d1 == bi_tex_texs_desc(2, 2, 1, 1));
    /* single-texture descriptors are not dual */
    ck_assert(!bi_tex_dual_split(bi_tex_texs_desc(2, 2, 1, 0), 1, &d1, &d2, &r2));
    ck_assert(!bi_tex_dual_split(0xf0186800u, 1, &d1, &d2, &r2));
}

START_TEST(texc_dual)
{
    both_backends(check_texc_dual, 6);
    both_backends(check_texc_dual, 7);
}
END_TEST

START_TEST(texs_cube)
{
    both_backends(check_texs_cube, 6);
    both_backends(check_texs_cube, 7);
}
END_TEST

START_TEST(texs_computed_lod)
{
    both_backends(check_texs_lod, 6);
    both_backends(check_texs_lod, 7);
}
END_TEST

/* ---- v7 message preloads ------------------------------------------------------------------------ */

START_TEST(message_preloads)
{
    bi_warp w;
    fake_log g;
    bi_fault f = { 0 };
    warp_setup(&w, 7, &g);
    for (unsigned l = 0; l < 8; l++) {
        w.reg[61][l] = 0x20000u * l;
        for (unsigned r = 0; r < 8; r++)
            w.reg[r][l] = 0xee00u + r;
    }
    /* slot 1: LD_VAR, varying 3, f32, 3 components -> r4-r6 */
    ck_assert_int_eq(bi_gfx_message_preload(&w, 0xff, 1, 1u | 3u << 4 | 0u << 9 | 2u << 11, &f), BI_EXEC_OK);
    ck_assert_uint_eq(g.nvary, 1);
    ck_assert(g.vary[0].v.kind == BI_GFX_VARY_SMOOTH && g.vary[0].v.imm && g.vary[0].v.index == 3);
    ck_assert(g.vary[0].v.ncomp == 3 && g.vary[0].v.regfmt == BI_RF_F32);
    ck_assert_uint_eq(g.vary[0].v.sample, BI_GFX_SAMPLE_SAMPLE);
    for (unsigned l = 0; l < 8; l++) {
        ck_assert_uint_eq(g.vary[0].src0[l], 0x20000u * l);
        for (unsigned r = 0; r < 3; r++)
            ck_assert_uint_eq(w.reg[4 + r][l], g.vary[0].out[r][l]);
        ck_assert_uint_eq(w.reg[7][l], 0xee07u);
        ck_assert_uint_eq(w.reg[0][l], 0xee00u);
    }
    /* slot 0: LD_VAR, varying 17, f16, 4 components -> r0-r1 */
    ck_assert_int_eq(bi_gfx_message_preload(&w, 0xff, 0, 1u | 17u << 4 | 1u << 9 | 3u << 11, &f), BI_EXEC_OK);
    ck_assert(g.vary[1].v.index == 17 && g.vary[1].v.ncomp == 4 && g.vary[1].v.regfmt == BI_RF_F16);
    for (unsigned l = 0; l < 8; l++) {
        ck_assert_uint_eq(w.reg[1][l], g.vary[1].out[1][l]);
        ck_assert_uint_eq(w.reg[2][l], 0xee02u);
    }
    /* VAR_TEX, varying 2, texture 1: the coordinate's varying (2 x f32), then the texture unit,
     * which faults here (no texture table) */
    int rc = bi_gfx_message_preload(&w, 0xff, 0, 2u | 2u << 4 | 1u << 7, &f);
    ck_assert_int_eq(rc, BI_EXEC_FAULT);
    ck_assert(g.vary[2].v.index == 2 && g.vary[2].v.ncomp == 2 && g.vary[2].v.regfmt == BI_RF_F32);
    ck_assert_msg(strstr(f.msg, "texture"), "%s", f.msg);
    /* a reserved type */
    ck_assert_int_eq(bi_gfx_message_preload(&w, 0xff, 0, 3, &f), BI_EXEC_FAULT);
    ck_assert_int_eq(f.kind, BI_FAULT_INVALID);
}
END_TEST

/* ---- without a front end: a typed fault ---------------------------------------------------------- */

START_TEST(no_front_end)
{
    bi_warp w;
    fake_log g;
    warp_setup(&w, 7, &g);
    gmem.gfx = NULL;
    bi_program *p = bi_program_new(bi_shader_gfx_frag, sizeof(bi_shader_gfx_frag), BI_ARCH_V7);
    bi_fault f = { 0 };
    ck_assert_int_eq(bi_exec_program(&w, p, 100, &f), BI_EXEC_FAULT);
    ck_assert_int_eq(f.kind, BI_FAULT_UNIMPLEMENTED);
    ck_assert_msg(strstr(f.msg, "LD_VAR without a graphics front end"), "%s", f.msg);
    bi_program_free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("bifrost_gfx");
    TCase *tc = tcase_create("messages");
    tcase_add_test(tc, frag_messages);
    tcase_add_test(tc, helper_store);
    tcase_add_test(tc, blend_shader_call);
    tcase_add_test(tc, blend_shader_end);
    tcase_add_test(tc, blend_dest_staging);
    tcase_add_test(tc, tile_messages);
    tcase_add_test(tc, vertex_attributes);
    tcase_add_test(tc, texs_cube);
    tcase_add_test(tc, mesa_position_shader);
    tcase_add_test(tc, mesa_mrt_fragment_shader);
    tcase_add_test(tc, mesa_fragdepth_shader);
    tcase_add_test(tc, var_tex);
    tcase_add_test(tc, texs_computed_lod);
    tcase_add_test(tc, texc_dual);
    tcase_add_test(tc, message_preloads);
    tcase_add_test(tc, no_front_end);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
