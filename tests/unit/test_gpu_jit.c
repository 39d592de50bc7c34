/* Differential test of the GPU back ends (--gpu-backend): the clause compiler
 * (emu/gpu/bifrost_exec_jit.c) against the interpreter, the reference.
 *
 *   clauses   every clause of the test shaders (tests/bifrost/ and tests/gpu/ .s files) and random
 *             variants of it (1-4 bits flipped; those that decode and prepare), each also in the
 *             other denormal mode (FTZ header field), v6 and v7 warps,
 *             random registers (integers, float specials: NaN, inf, denormals, -0; addresses into
 *             the test memory), random exec masks, with and without the bi_mem.map fast path: run once compiled and once interpreted from the
 *             same state; registers, PCs, statistics, memory, status and fault must be identical
 *   shaders   each test shader as a whole program (branches, divergence, reconvergence) with
 *             random registers under each back end, the same comparison
 *   sliced    the same in slices of 1-12 clauses (clause budgets cutting runs of compiled clauses),
 *             with clauses compiled and interpreted in one program
 *
 *   sse_fma   the SSE code's fused multiply-add sequence (bx_jc_fma_sse) alone against fmaf, on
 *             random operands and on sums that lie just off a binary32 tie (where rounding the
 *             binary64 sum first would be wrong)
 *
 * Each runs twice: with the AVX2 code and with the SSE code (bx_jit_set_isa).  SSE code exists for
 * 4-lane (v6) warps only, v7 clauses then get none; its instructions are checked to be
 * legacy-encoded (Capstone: no VEX mnemonics), so an AVX2 host runs it as an SSE-only host would.
 * The SSE part always runs: a host without SSE4.1 + SSSE3 (or not x86-64) fails the test, naming
 * them.  On a host without AVX2 + FMA the AVX2 part prints that only the SSE code ran.
 *
 * JIT_DIFF_ROUNDS=n multiplies the variants (default 1); JIT_DIFF_SEED picks the random seed;
 * JIT_TEST_HOST_ISA=sse or none makes the test see a host without AVX2 + FMA, or without
 * SSE4.1 + SSSE3 (to check its verdict there). */
#include <capstone/capstone.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bifrost_exec_jit_comp.h"
#include "bifrost/shaders.inc"
#include "gpu/shaders.inc"

#define S(n) { #n, n, sizeof(n) }
static const struct { const char *name; const uint8_t *code; size_t len; } shaders[] = {
    S(bi_shader_exec_atomic), S(bi_shader_exec_barrier_stop), S(bi_shader_exec_f16_clock), S(bi_shader_exec_branch), S(bi_shader_exec_branch2), S(bi_shader_exec_clper),
    S(bi_shader_exec_clper_acc), S(bi_shader_exec_clper_v6), S(bi_shader_exec_cube), S(bi_shader_exec_fcmp_total), S(bi_shader_exec_float),
    S(bi_shader_exec_int), S(bi_shader_exec_lanes), S(bi_shader_exec_mem), S(bi_shader_exec_mem_vec), S(bi_shader_exec_misc),
    S(bi_shader_exec_seg), S(bi_shader_exec_slots), S(bi_shader_exec_timing), S(bi_shader_exec_vec), S(bi_shader_exec_vec2),
    S(bi_shader_exec_wg), S(bi_shader_exec_wls_order), S(bi_shader_formats), S(bi_shader_gpu_atomic),
    S(bi_shader_gpu_atomic64), S(bi_shader_gpu_exit), S(bi_shader_gpu_fma_loop), S(bi_shader_gpu_img_buf), S(bi_shader_gpu_img_load), S(bi_shader_gpu_img_store_f32),
    S(bi_shader_gpu_img_store_u32), S(bi_shader_gpu_m_exp2_g71), S(bi_shader_gpu_m_exp2_v7),
    S(bi_shader_gpu_m_log2_g71), S(bi_shader_gpu_m_log2_v7), S(bi_shader_gpu_m_rcp_g71),
    S(bi_shader_gpu_m_rcp_v7), S(bi_shader_gpu_m_rsq_g71), S(bi_shader_gpu_m_rsq_v7), S(bi_shader_gpu_m_sin),
    S(bi_shader_gpu_mesa_sgemm), S(bi_shader_gpu_misc), S(bi_shader_gpu_reduce), S(bi_shader_gpu_spin),
    S(bi_shader_gpu_stage), S(bi_shader_gpu_tex), S(bi_shader_gpu_tex_fetch), S(bi_shader_gpu_texs),
    S(bi_shader_gpu_vecadd), S(bi_shader_gpu_jit_conv), S(bi_shader_gpu_jit_narrow), S(bi_shader_gpu_jit_atomic),
    S(bi_shader_gpu_jit_partial),
};
#define NSHADERS (sizeof(shaders) / sizeof(shaders[0]))

/* ---- test memory: MEM_SIZE bytes at MEM_BASE; anything else faults ------------------------- */

#define MEM_BASE 0x10000u
#define MEM_SIZE 0x4000u
static uint8_t mem_init[MEM_SIZE], mem_a[MEM_SIZE], mem_b[MEM_SIZE];
static uint8_t *mem_cur;

static int m_read(void *ctx, uint64_t addr, void *buf, unsigned size)
{
    (void)ctx;
    if (addr < MEM_BASE || size > MEM_SIZE || addr - MEM_BASE > MEM_SIZE - size)    /* no wrap at 2^64 */
        return -1;
    memcpy(buf, mem_cur + (addr - MEM_BASE), size);
    return 0;
}

static int m_write(void *ctx, uint64_t addr, const void *buf, unsigned size)
{
    (void)ctx;
    if (addr < MEM_BASE || size > MEM_SIZE || addr - MEM_BASE > MEM_SIZE - size)    /* no wrap at 2^64 */
        return -1;
    memcpy(mem_cur + (addr - MEM_BASE), buf, size);
    return 0;
}

/* the compiled back end's fast path (set in every other run): the whole test memory, or 64-byte
 * "pages" of it, some of them not mapped (their accesses then take read / write), so that
 * 64- to 128-bit accesses straddle page ends and the end of the memory (a fault) */
static unsigned map_pages;
static uint8_t *m_map(void *ctx, uint64_t addr, int write, uint64_t *lo, uint64_t *hi)
{
    (void)ctx;
    (void)write;
    if (addr < MEM_BASE || addr >= MEM_BASE + MEM_SIZE)
        return NULL;
    if (!map_pages) {
        *lo = MEM_BASE;
        *hi = MEM_BASE + MEM_SIZE;
    } else {
        if ((addr >> 6) % 7 == 3)
            return NULL;
        *lo = addr & ~(uint64_t)63;
        *hi = *lo + 64;
    }
    return mem_cur + (addr - MEM_BASE);
}

static const uint64_t ubo_addr[1] = { MEM_BASE };
static const uint32_t ubo_size[1] = { 0x1000 };
static const uint32_t uniforms[16] = { MEM_BASE, 0, MEM_BASE + 0x100, 0, 64, 3, 0x3f800000, 0xbf800000,
                                       0x7fc00000, 0x00000001, 0x80000000, 0x7f800000, 16, 0xffff, 7, 0 };
static bi_mem mem = { .read = m_read, .write = m_write, .wls_base = MEM_BASE + 0x2000, .nubos = 1,
                            .ubo_addr = ubo_addr, .ubo_size = ubo_size, .arch_major = 7 };

/* ---- random state ------------------------------------------------------------------------------ */

static uint64_t rng;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static uint32_t rnd_value(void)
{
    static const uint32_t special[] = { 0, 0x80000000, 0x3f800000, 0xbfc00000, 0x7f800000, 0xff800000,
                                        0x7fc00001, 0xffc00000, 0x7f800001, 0x00000123, 0x807fffff, 0x7f7fffff,
                                        0x00800000, 0x4b000000, 0xffffffff, 0x7fffffff, 0x3effffff, 0x47800000 };
    switch (rnd() % 6) {
    case 0: return special[rnd() % (sizeof(special) / sizeof(special[0]))];
    case 1: return rnd() % 33;
    case 2: return MEM_BASE + 4 * (rnd() % (MEM_SIZE / 4));
    case 3: return 0;
    case 4: { float f = (float)((int)(rnd() % 2001) - 1000) / 8.0f; uint32_t u; memcpy(&u, &f, 4); return u; }
    default: return rnd() << 16 ^ rnd();
    }
}

/* bi_mem.message (set in a quarter of the runs, as the timing plug-in sets it): counted */
static unsigned messages;
static void m_message(void *ctx, const bi_warp *w)
{
    (void)ctx;
    (void)w;
    messages++;
}

/* bi_mem.map_gen (set in half the runs): bumped whenever the map's ranges change, so that the
 * compiled code's kept ranges are dropped then */
static uint64_t map_gen_word;

static void random_warp(bi_warp *w, enum bi_arch arch)
{
    void *old_map = (void *)mem.map;
    unsigned old_pages = map_pages;
    mem.map = rnd() % 2 ? m_map : NULL;
    mem.message = rnd() % 4 == 0 ? m_message : NULL;
    map_pages = rnd() % 2;
    if ((void *)mem.map != old_map || map_pages != old_pages)
        map_gen_word++;
    mem.map_gen = rnd() % 2 ? &map_gen_word : NULL;
    /* (single-threaded: memory from the WLS on, or all of it, may be called private) */
    mem.private_base = rnd() % 3 == 0 ? 0 : rnd() % 2 ? mem.wls_base : MEM_BASE;
    bi_warp_init(w, arch);
    w->mem = &mem;
    w->uniforms = uniforms;
    w->nuniforms = 16;
    w->warp_id = rnd() % 4;
    w->core_id = rnd() % 2;
    for (unsigned r = 0; r < 64; r++)
        for (unsigned l = 0; l < BI_MAX_LANES; l++)
            w->reg[r][l] = rnd_value();
    /* some register pairs hold consecutive words' addresses (a[get_global_id(0)]: the compiled
     * code's one-vector loads and stores), now and then near the end of the 32-bit range */
    for (unsigned r = 0; r + 1 < 64; r += 2)
        if (rnd() % 3 == 0) {
            uint32_t base = rnd() % 16 == 0 ? 0xffffffe0u + 4 * (rnd() % 8)       /* (an address, or an offset) */
                            : (rnd() % 2 ? MEM_BASE : 0) + 4 * (rnd() % (MEM_SIZE / 4));
            for (unsigned l = 0; l < BI_MAX_LANES; l++) {
                w->reg[r][l] = base + 4 * l;
                w->reg[r + 1][l] = 0;
            }
        }
    for (unsigned l = 0; l < BI_MAX_LANES; l++)
        w->tls_base[l] = MEM_BASE + 0x3000 + 0x80 * l;
}

/* Random memory contents, the same in both back ends' memories. */
static void random_memory(void)
{
    for (unsigned i = 0; i < MEM_SIZE; i += 4) {
        uint32_t v = rnd_value();
        memcpy(mem_init + i, &v, 4);
    }
    memcpy(mem_a, mem_init, MEM_SIZE);
    memcpy(mem_b, mem_init, MEM_SIZE);
}

/* ---- one clause, both back ends ---------------------------------------------------------------- */

static unsigned compared, compiled_units, faults_seen;

static void same_result(const char *what, int rc_a, int rc_b, const bi_fault *fa, const bi_fault *fb,
                        const bi_warp *wa, const bi_warp *wb)
{
    ck_assert_msg(rc_a == rc_b, "%s: status interp %d, jit %d", what, rc_a, rc_b);
    if (rc_a == BI_EXEC_FAULT) {
        faults_seen++;
        ck_assert_msg(fa->kind == fb->kind && fa->addr == fb->addr && !strcmp(fa->msg, fb->msg),
                      "%s: fault interp %d %#llx '%s', jit %d %#llx '%s'", what, fa->kind,
                      (unsigned long long)fa->addr, fa->msg, fb->kind, (unsigned long long)fb->addr, fb->msg);
    }
    for (unsigned r = 0; r < 64; r++)
        for (unsigned l = 0; l < wa->lanes; l++)
            ck_assert_msg(wa->reg[r][l] == wb->reg[r][l], "%s: r%u lane %u: interp %#x, jit %#x", what, r, l,
                          wa->reg[r][l], wb->reg[r][l]);
    ck_assert_msg(!memcmp(wa->pc, wb->pc, sizeof(wa->pc)) && !memcmp(wa->done, wb->done, sizeof(wa->done)),
                  "%s: next PCs differ", what);
    ck_assert_msg(wa->barriers == wb->barriers && wa->clauses_run == wb->clauses_run &&
                  wa->lanes_run == wb->lanes_run && wa->lane_instrs == wb->lane_instrs &&
                  wa->tuples_run == wb->tuples_run, "%s: statistics differ", what);
    ck_assert_msg(!memcmp(mem_a, mem_b, MEM_SIZE), "%s: memory differs", what);
    compared++;
}

/* The host's ISA as this test sees it: bx_jit_host_isa(), lowered by JIT_TEST_HOST_ISA. */
static enum bx_jit_isa host_isa(void)
{
    enum bx_jit_isa h = bx_jit_host_isa();
    const char *cap = getenv("JIT_TEST_HOST_ISA");
    if (cap && !strcmp(cap, "none"))
        h = BX_JIT_ISA_NONE;
    else if (cap && !strcmp(cap, "sse") && h > BX_JIT_ISA_SSE)
        h = BX_JIT_ISA_SSE;
    return h;
}

/* every host the jit supports runs the SSE code: without it there is nothing to test */
static void require_sse(const char *what)
{
    ck_assert_msg(host_isa() >= BX_JIT_ISA_SSE,
                  "%s: the host lacks SSE4.1 + SSSE3 (x86-64), which the GPU jit needs: nothing tested", what);
}

/* Selects the ISA of loop test iteration i (0: AVX2, 1: SSE).  0, having said so, for AVX2 on a
 * host without it (iteration 1 then tests the SSE code); a host without SSE fails. */
static int use_isa(int i, const char *what)
{
    if (i == 0 && host_isa() < BX_JIT_ISA_AVX2 && host_isa() >= BX_JIT_ISA_SSE) {
        printf("jit diff %s: the host lacks AVX2 + FMA: the SSE code only\n", what);
        return 0;
    }
    require_sse(what);
    ck_assert_int_eq(bx_jit_set_isa(i ? BX_JIT_ISA_SSE : BX_JIT_ISA_AVX2), 0);
    return 1;
}
static const char *isa_name(void) { return bx_jit_isa() == BX_JIT_ISA_SSE ? "sse" : "avx2"; }

/* SSE code: no instruction of x's code is VEX-encoded (Capstone names those v...) */
static unsigned sse_checked;
static void check_no_vex(const bi_xclause *x, const char *name)
{
    if (bx_jit_isa() != BX_JIT_ISA_SSE || !x->jit)
        return;
    const bx_jit_code *code = x->jit;
    csh cs;
    ck_assert_int_eq(cs_open(CS_ARCH_X86, CS_MODE_64, &cs), CS_ERR_OK);
    cs_insn *insn;
    size_t n = cs_disasm(cs, (const uint8_t *)code->entry, code->size, 0, 0, &insn);
    size_t bytes = 0;
    for (size_t k = 0; k < n; k++) {
        ck_assert_msg(insn[k].mnemonic[0] != 'v', "%s clause %#x: SSE code has %s %s at %#llx", name, x->c.offset,
                      insn[k].mnemonic, insn[k].op_str, (unsigned long long)insn[k].address);
        bytes += insn[k].size;
    }
    ck_assert_msg(bytes == code->size, "%s clause %#x: %zu of %u bytes disassemble", name, x->c.offset, bytes,
                  code->size);
    cs_free(insn, n);
    cs_close(&cs);
    sse_checked++;
}

static unsigned count_compiled(const bi_xclause *x)
{
    unsigned n = 0;
    for (unsigned i = 0; i < x->c.ntuples; i++)
        n += (x->fast_fma[i] != K_GENERIC) + (x->fast_add[i] != K_GENERIC);
    return n;
}

static void diff_clause(const uint8_t *bytes, size_t len, uint32_t off, enum bi_arch arch, bx_jit_arena **arena,
                        const char *name, int flip_ftz)
{
    bi_clause c;
    bi_xclause xj, xi;
    if (bi_decode_clause(bytes, len, off, arch, &c, NULL, 0))
        return;
    if (flip_ftz)                   /* the same clause in the other denormal mode */
        c.hdr[BI_H_FTZ] = !c.hdr[BI_H_FTZ];
    memset(&xj, 0, sizeof(xj));
    if (bi_prepare_clause(&xj, &c, NULL))
        return;
    char why[128];
    ck_assert_msg(!bx_jit_compile(arena, &xj, arch >= BI_ARCH_V7 ? 8 : 4, -1, why, sizeof(why)), "%s: %s", name, why);
    ck_assert(xj.jit != NULL);
    check_no_vex(&xj, name);
    compiled_units += count_compiled(&xj);
    xi = xj;
    xi.jit = NULL;
    for (int trial = 0; trial < 2; trial++) {
        bi_warp wa, wb;
        bi_fault fa, fb;
        random_warp(&wa, arch);
        for (unsigned l = 0; l < BI_MAX_LANES; l++)
            wa.pc[l] = off;
        wb = wa;
        uint32_t exec = trial ? rnd() : 0xff;
        random_memory();
        memset(&fa, 0, sizeof(fa));
        memset(&fb, 0, sizeof(fb));
        mem_cur = mem_a;
        int rc_a = bi_exec_clause(&wa, &xi, exec, &fa);
        mem_cur = mem_b;
        int rc_b = bi_exec_clause(&wb, &xj, exec, &fb);
        char what[160];
        snprintf(what, sizeof(what), "%s v%d clause %#x exec %#x", name, arch >= BI_ARCH_V7 ? 7 : 6, off, exec);
        same_result(what, rc_a, rc_b, &fa, &fb, &wa, &wb);
    }
}

static unsigned rounds(void)
{
    const char *r = getenv("JIT_DIFF_ROUNDS");
    return r && atoi(r) > 0 ? (unsigned)atoi(r) : 1;
}

static void seed(void)
{
    const char *s = getenv("JIT_DIFF_SEED");
    rng = s ? strtoull(s, NULL, 0) : 0x9e3779b97f4a7c15ull;
    if (!rng)
        rng = 1;
}

START_TEST(test_clauses)
{
    if (!use_isa(_i, "clauses"))
        return;
    seed();
    static const enum bi_arch arches[2] = { BI_ARCH_V6, BI_ARCH_V7 };
    for (unsigned a = 0; a < (bx_jit_isa() == BX_JIT_ISA_SSE ? 1u : 2u); a++) {   /* SSE: no v7 code */
        for (unsigned s = 0; s < NSHADERS; s++) {
            bx_jit_arena *arena = NULL;
            size_t off = 0;
            while (off + 16 <= shaders[s].len) {
                bi_clause c;
                if (bi_decode_clause(shaders[s].code + off, shaders[s].len - off, (uint32_t)off, arches[a], &c, NULL, 0))
                    break;
                diff_clause(shaders[s].code + off, c.size, (uint32_t)off, arches[a], &arena, shaders[s].name, 0);
                diff_clause(shaders[s].code + off, c.size, (uint32_t)off, arches[a], &arena, shaders[s].name, 1);
                uint8_t mut[512];
                for (unsigned v = 0; v < 24 * rounds(); v++) {
                    memcpy(mut, shaders[s].code + off, c.size);
                    unsigned flips = 1 + rnd() % 4;
                    for (unsigned k = 0; k < flips; k++) {
                        unsigned bit = rnd() % (c.size * 8);
                        mut[bit / 8] ^= (uint8_t)(1u << (bit % 8));
                    }
                    diff_clause(mut, c.size, (uint32_t)off, arches[a], &arena, shaders[s].name, v % 2);
                }
                off += c.size;
            }
            bx_jit_arena_free(arena);
        }
    }
    printf("jit diff (%s): %u clause runs compared (%u faults), %u compiled units, %u SSE codes without VEX\n",
           isa_name(), compared, faults_seen, compiled_units, sse_checked);
    ck_assert_uint_gt(compared, 5000);
    ck_assert_uint_gt(compiled_units, 5000);
}
END_TEST

/* ---- whole shaders under each back end ------------------------------------------------------ */

/* the observer's view (as --stats counts clauses): a sum over the runs of each clause of hashes of
 * its pc times the lanes that ran it, whether other live lanes waited, and per place its lanes
 * went to (PC_EXIT: they finished) the lanes and warps that went there, so that the two back
 * ends' counts differ wherever a report would */
static uint64_t seen_hash, seen_clauses, batched, split;
static uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t h = (a * 0x9e3779b97f4a7c15ull) ^ (b + 0x632be59bd9b4e019ull);
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ h >> 31;
}
static void see(uint32_t pc, uint64_t runs, uint64_t lanes, uint64_t partial)
{
    seen_hash += mix(pc, 1) * runs + mix(pc, 2) * lanes + mix(pc, 3) * partial;
    seen_clauses += runs;
}
static void see_edge(uint32_t pc, uint32_t to, uint64_t lanes, uint64_t warps)
{
    seen_hash += mix(mix(pc, to), 4) * lanes + mix(mix(pc, to), 5) * warps;
}
static void see_clause(const bi_warp *w, const bi_program *p, const bi_xclause *x, uint32_t exec)
{
    (void)p;
    uint32_t to[BI_MAX_LANES];
    unsigned cnt[BI_MAX_LANES], nt = 0, n = 0, partial = 0;
    for (unsigned l = 0; l < w->lanes; l++) {
        if (!((exec >> l) & 1)) {
            partial |= !w->done[l];
            continue;
        }
        n++;
        uint32_t t = w->done[l] ? PC_EXIT : w->pc[l];
        unsigned i = 0;
        while (i < nt && to[i] != t)
            i++;
        if (i == nt) {
            to[nt] = t;
            cnt[nt++] = 0;
        }
        cnt[i]++;
    }
    see(x->c.offset, 1, n, partial);
    for (unsigned i = 0; i < nt; i++)
        see_edge(x->c.offset, to[i], cnt[i], 1);
}
static void see_counts(const bi_program *p, uint64_t epoch, unsigned lanes, const bi_clause_count *r, unsigned n)
{
    (void)p;
    (void)epoch;
    (void)lanes;
    for (unsigned k = 0; k < n; k++) {
        const bi_clause *c = &r[k].x->c;
        uint32_t fall = c->offset + c->size;
        int ends = c->hdr[BI_H_FLOW] == 0;
        uint64_t runs = r[k].fall + r[k].taken + r[k].split;
        ck_assert(runs > 0);
        ck_assert(!r[k].split || !ends);
        see(c->offset, runs, r[k].fall_lanes + r[k].taken_lanes, r[k].partial);
        if (r[k].fall + r[k].split)
            see_edge(c->offset, ends ? PC_EXIT : fall, r[k].fall_lanes, r[k].fall + r[k].split);
        if (r[k].taken + r[k].split)
            see_edge(c->offset, ends ? PC_EXIT : r[k].taken_pc, r[k].taken_lanes, r[k].taken + r[k].split);
        split += r[k].split;
        batched += runs;
    }
}

static int run_shader(enum bi_backend b, unsigned s, enum bi_arch arch, bi_warp *w, bi_fault *f)
{
    ck_assert_int_eq(bi_set_backend(b), 0);
    memset(f, 0, sizeof(*f));
    return bi_exec_shader(w, shaders[s].code, shaders[s].len, arch, 4000, f);
}

START_TEST(test_shaders)
{
    if (!use_isa(_i, "shaders"))
        return;
    seed();
    enum bi_backend before = bi_get_backend();
    static const enum bi_arch arches[2] = { BI_ARCH_V6, BI_ARCH_V7 };
    unsigned runs = 0;
    for (unsigned a = 0; a < 2; a++)
        for (unsigned s = 0; s < NSHADERS; s++)
            for (unsigned trial = 0; trial < 4 * rounds(); trial++) {
                bi_warp wa, wb;
                bi_fault fa, fb;
                random_warp(&wa, arches[a]);
                wb = wa;
                random_memory();
                if (trial % 3 == 2) {
                    /* a run before, on the same memory: the compiled code's mapping slots are warm
                     * (in jobs, warps after the first find them so) */
                    bi_warp ww = wb;
                    mem_cur = mem_b;
                    run_shader(BI_BACKEND_JIT, s, arches[a], &ww, &fb);
                    memcpy(mem_b, mem_init, MEM_SIZE);
                }
                /* with the observer: each clause (every clause returns to C), or chained ones in batches */
                int observe = trial % 2;
                bi_exec_hook = observe ? see_clause : NULL;
                bi_exec_hook_run = observe && trial % 4 == 3 ? see_counts : NULL;
                seen_hash = seen_clauses = 0;
                messages = 0;
                mem_cur = mem_a;
                int rc_a = run_shader(BI_BACKEND_INTERP, s, arches[a], &wa, &fa);
                uint64_t hash_a = seen_hash, clauses_a = seen_clauses;
                unsigned messages_a = messages;
                seen_hash = seen_clauses = 0;
                messages = 0;
                mem_cur = mem_b;
                int rc_b = run_shader(BI_BACKEND_JIT, s, arches[a], &wb, &fb);
                bi_exec_hook = NULL;
                bi_exec_hook_run = NULL;
                char what[160];
                snprintf(what, sizeof(what), "shader %s v%d trial %u", shaders[s].name, arches[a] >= BI_ARCH_V7 ? 7 : 6,
                         trial);
                same_result(what, rc_a, rc_b, &fa, &fb, &wa, &wb);
                ck_assert_msg(messages_a == messages, "%s: %u messages seen under interp, %u under jit", what,
                              messages_a, messages);
                ck_assert_msg(clauses_a == seen_clauses && hash_a == seen_hash,
                              "%s: the observer saw %llu clauses (hash %#llx) under interp, %llu (%#llx) under jit",
                              what, (unsigned long long)clauses_a, (unsigned long long)hash_a,
                              (unsigned long long)seen_clauses, (unsigned long long)seen_hash);
                runs++;
            }
    bi_set_backend(before);
    printf("jit diff (%s): %u whole-shader runs compared, %llu clauses counted by compiled code (%llu divergent)\n",
           isa_name(), runs, (unsigned long long)batched, (unsigned long long)split);
    ck_assert_uint_gt(batched, 0);
    ck_assert_uint_gt(split, 0);
}
END_TEST

/* A shader run in slices of a few clauses each (bi_exec_program's budget cutting converged runs of
 * compiled clauses anywhere), the back end switched between slices in the mixed run so that its
 * program holds interpreted and compiled clauses side by side (runs of compiled clauses stop at
 * an interpreted one); the reference is the interpreter with the same slices. */
static int run_sliced(int mixed, unsigned s, enum bi_arch arch, bi_warp *w, bi_fault *f, const unsigned *slice,
                      unsigned nslices)
{
    ck_assert_int_eq(bi_set_backend(mixed ? BI_BACKEND_JIT : BI_BACKEND_INTERP), 0);
    bi_program *p = bi_program_new(shaders[s].code, shaders[s].len, arch);
    ck_assert_ptr_nonnull(p);
    int rc = BI_EXEC_OK;
    for (unsigned k = 0; k < nslices; k++) {
        memset(f, 0, sizeof(*f));
        rc = bi_exec_program(w, p, slice[k], f);
        if (rc == BI_EXEC_END || (rc == BI_EXEC_FAULT && f->kind != BI_FAULT_CLAUSE_LIMIT))
            break;
        if (mixed)
            ck_assert_int_eq(bi_set_backend(k % 2 ? BI_BACKEND_JIT : BI_BACKEND_INTERP), 0);
    }
    bi_program_free(p);
    return rc;
}

START_TEST(test_sliced)
{
    if (!use_isa(_i, "sliced"))
        return;
    seed();
    enum bi_backend before = bi_get_backend();
    static const enum bi_arch arches[2] = { BI_ARCH_V6, BI_ARCH_V7 };
    unsigned runs = 0;
    for (unsigned a = 0; a < 2; a++)
        for (unsigned s = 0; s < NSHADERS; s++)
            for (unsigned trial = 0; trial < 4 * rounds(); trial++) {
                unsigned slice[16];
                for (unsigned k = 0; k < 15; k++)
                    slice[k] = 1 + rnd() % 12;
                slice[15] = 4000;
                bi_warp wa, wb;
                bi_fault fa, fb;
                random_warp(&wa, arches[a]);
                wb = wa;
                random_memory();
                mem_cur = mem_a;
                int rc_a = run_sliced(0, s, arches[a], &wa, &fa, slice, 16);
                mem_cur = mem_b;
                int rc_b = run_sliced(1, s, arches[a], &wb, &fb, slice, 16);
                char what[160];
                snprintf(what, sizeof(what), "sliced shader %s v%d trial %u", shaders[s].name,
                         arches[a] >= BI_ARCH_V7 ? 7 : 6, trial);
                same_result(what, rc_a, rc_b, &fa, &fb, &wa, &wb);
                runs++;
            }
    bi_set_backend(before);
    printf("jit diff (%s): %u sliced mixed-back-end shader runs compared\n", isa_name(), runs);
}
END_TEST

/* Loads and stores of consecutive words (lane l at address + 4 l, all lanes active), and loads
 * of one word by every lane, which compiled code does as one vector access when the message's mapping slot, warm from a run
 * before, covers them all: shaders whose addresses come from r0 (exec_mem*) or the global id
 * (gpu_vecadd), near the test memory's ends and the map's 64-byte ranges too. */
START_TEST(test_rows)
{
    if (!use_isa(_i, "rows"))
        return;
    seed();
    enum bi_backend before = bi_get_backend();
    static const enum bi_arch arches[2] = { BI_ARCH_V6, BI_ARCH_V7 };
    static const char *names[] = { "bi_shader_exec_mem", "bi_shader_exec_mem_vec", "bi_shader_gpu_vecadd" };
    unsigned runs = 0;
    for (unsigned a = 0; a < 2; a++)
        for (unsigned s = 0; s < NSHADERS; s++)
            for (unsigned k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
                if (strcmp(shaders[s].name, names[k]))
                    continue;
                for (unsigned trial = 0; trial < 24 * rounds(); trial++) {
                    bi_warp wa, wb, warm;
                    bi_fault fa, fb;
                    random_warp(&wa, arches[a]);
                    mem.map = m_map;
                    mem.message = NULL;
                    mem.map_gen = &map_gen_word;
                    map_gen_word++;
                    uint32_t off = rnd() % 4 ? 4 * (rnd() % (MEM_SIZE / 4)) : MEM_SIZE - 4 * (rnd() % 12);
                    unsigned step = trial % 3 ? 1 : 0;       /* (0: every lane at one address) */
                    for (unsigned l = 0; l < BI_MAX_LANES; l++) {
                        wa.reg[0][l] = off + 4 * step * l;
                        wa.reg[60][l] = off / 4 + step * l;
                    }
                    wb = warm = wa;
                    random_memory();
                    mem_cur = mem_b;
                    run_shader(BI_BACKEND_JIT, s, arches[a], &warm, &fb);
                    memcpy(mem_b, mem_init, MEM_SIZE);
                    mem_cur = mem_a;
                    int rc_a = run_shader(BI_BACKEND_INTERP, s, arches[a], &wa, &fa);
                    mem_cur = mem_b;
                    int rc_b = run_shader(BI_BACKEND_JIT, s, arches[a], &wb, &fb);
                    char what[160];
                    snprintf(what, sizeof(what), "rows: shader %s v%d trial %u offset %#x", shaders[s].name,
                             arches[a] >= BI_ARCH_V7 ? 7 : 6, trial, off);
                    same_result(what, rc_a, rc_b, &fa, &fb, &wa, &wb);
                    runs++;
                }
            }
    bi_set_backend(before);
    ck_assert_uint_gt(runs, 0);
    printf("jit diff (%s): %u consecutive- or same-word shader runs compared\n", isa_name(), runs);
}
END_TEST

/* The back-end switch: jit is the default where the host can run it, and its programs compile. */
START_TEST(test_backend_switch)
{
    if (!bx_jit_host_ok()) {
        ck_assert_int_eq(bi_get_backend(), BI_BACKEND_INTERP);
        ck_assert_int_eq(bi_set_backend(BI_BACKEND_JIT), -1);
        return;
    }
    ck_assert_int_eq(bi_get_backend(), BI_BACKEND_JIT);
    ck_assert_int_eq(bi_set_backend(BI_BACKEND_INTERP), 0);
    ck_assert_int_eq(bi_get_backend(), BI_BACKEND_INTERP);
    ck_assert_int_eq(bi_set_backend(BI_BACKEND_JIT), 0);
    /* a clause prepared by the program cache carries code under jit, none under interp */
    for (int b = 0; b < 2; b++) {
        bi_set_backend(b ? BI_BACKEND_JIT : BI_BACKEND_INTERP);
        bi_program *p = bi_program_new(bi_shader_gpu_vecadd, sizeof(bi_shader_gpu_vecadd), BI_ARCH_V7);
        bi_xclause *x;
        ck_assert_int_eq(bx_program_clause(p, &mem, 0, &x, NULL), 0);
        ck_assert(b ? x->jit != NULL : x->jit == NULL);
        bi_program_free(p);
    }
}
END_TEST

/* bx_jc_fma_sse as a function: fn(a, b, c, out) on rows of 4 floats (rdi, rsi, rdx, rcx) */
typedef void (*fma_fn)(const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *out);

static void check_fma4(fma_fn fn, const uint32_t *a, const uint32_t *b, const uint32_t *c)
{
    uint32_t out[4];
    fn(a, b, c, out);
    for (unsigned l = 0; l < 4; l++) {
        float fa, fb, fc, fr;
        memcpy(&fa, &a[l], 4);
        memcpy(&fb, &b[l], 4);
        memcpy(&fc, &c[l], 4);
        fr = fmaf(fa, fb, fc);
        uint32_t want;
        memcpy(&want, &fr, 4);
        if (isnan(fr))          /* NaNs go to the interpreter: any NaN will do */
            ck_assert_msg((out[l] & 0x7fffffff) > 0x7f800000, "fma(%#x, %#x, %#x): %#x, not a NaN", a[l], b[l], c[l], out[l]);
        else
            ck_assert_msg(out[l] == want, "fma(%#x, %#x, %#x): %#x, fmaf %#x", a[l], b[l], c[l], out[l], want);
    }
}

START_TEST(test_sse_fma)
{
    require_sse("sse fma");
    static jcomp jc;
    uint8_t *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(mem, MAP_FAILED);
    jc.e = (jx_emit){ .buf = mem, .cap = 4096, .sse = 1 };
    jx_emit *e = &jc.e;
    jx_push(e, R14);
    jx_mov_imm64(e, R14, (uint64_t)(uintptr_t)bx_jit_krows);
    jx_load(e, 0, RDI, 0);
    jx_load(e, 1, RSI, 0);
    jx_load(e, 2, RDX, 0);
    ck_assert_uint_eq(bx_jc_fma_sse(&jc), 4);
    jx_store(e, 4, RCX, 0);
    jx_pop(e, R14);
    jx_ret(e);
    ck_assert(!e->bad && e->len < e->cap);
    fma_fn fn = (fma_fn)(void *)mem;
    seed();
    unsigned n = 0;
    /* 1 + 2^-12 squared is 1 + 2^-11 + 2^-24, a binary32 tie; + 2^-60 rounds it up, - 2^-60 down */
    static const uint32_t ties[][3] = { { 0x3f800800, 0x3f800800, 0x21800000 }, { 0x3f800800, 0x3f800800, 0xa1800000 },
                                        { 0xbf800800, 0x3f800800, 0x21800000 }, { 0x3f800800, 0xbf800800, 0xa1800000 } };
    uint32_t a[4], b[4], c[4];
    for (unsigned l = 0; l < 4; l++) {
        a[l] = ties[l][0];
        b[l] = ties[l][1];
        c[l] = ties[l][2];
    }
    check_fma4(fn, a, b, c);
    for (unsigned t = 0; t < 200000 * rounds(); t++, n += 4) {
        for (unsigned l = 0; l < 4; l++) {
            switch (t % 3) {
            case 0: a[l] = rnd_value(); b[l] = rnd_value(); c[l] = rnd_value(); break;
            case 1: a[l] = rnd(); b[l] = rnd(); c[l] = rnd(); break;
            default: {              /* a tie of a * b (12-bit mantissas) nudged by a far smaller c */
                uint32_t ea = 100 + rnd() % 60, eb = 100 + rnd() % 60;
                a[l] = (rnd() & 0x80000000u) | ea << 23 | (rnd() & 0xfff) << 11;
                b[l] = (rnd() & 0x80000000u) | eb << 23 | (rnd() & 0xfff) << 11;
                uint32_t ec = ea + eb - 127 - 30 - rnd() % 40;
                c[l] = (rnd() & 0x80000000u) | ec << 23 | (rnd() & 0x7fffff);
                break;
            }
            }
        }
        check_fma4(fn, a, b, c);
    }
    munmap(mem, 4096);
    printf("jit sse fma: %u lanes compared with fmaf\n", n);
}
END_TEST

/* The ISA choice: the best the host has by default; SSE code for v6 programs only, none for v7. */
START_TEST(test_isa_switch)
{
    enum bx_jit_isa host = bx_jit_host_isa();
    ck_assert_int_eq(bx_jit_set_isa(host), 0);
    if (host < BX_JIT_ISA_AVX2)
        ck_assert_int_eq(bx_jit_set_isa(BX_JIT_ISA_AVX2), -1);
    require_sse("isa switch");
    ck_assert_int_eq(bx_jit_set_isa(BX_JIT_ISA_SSE), 0);
    ck_assert_int_eq(bi_set_backend(BI_BACKEND_JIT), 0);
    for (int v7 = 0; v7 < 2; v7++) {
        bi_program *p = bi_program_new(bi_shader_gpu_vecadd, sizeof(bi_shader_gpu_vecadd), v7 ? BI_ARCH_V7 : BI_ARCH_V6);
        bi_xclause *x;
        ck_assert_int_eq(bx_program_clause(p, &mem, 0, &x, NULL), 0);
        ck_assert(v7 ? x->jit == NULL : x->jit != NULL);
        check_no_vex(x, "vecadd");
        bi_program_free(p);
    }
    ck_assert_int_eq(bx_jit_set_isa(host), 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("gpu_jit");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_backend_switch);
    tcase_add_test(tc, test_isa_switch);
    tcase_add_test(tc, test_sse_fma);
    tcase_add_loop_test(tc, test_clauses, 0, 2);       /* _i: 0 AVX2, 1 SSE */
    tcase_add_loop_test(tc, test_shaders, 0, 2);
    tcase_add_loop_test(tc, test_sliced, 0, 2);
    tcase_add_loop_test(tc, test_rows, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
