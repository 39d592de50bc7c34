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
 * JIT_DIFF_ROUNDS=n multiplies the variants (default 1); JIT_DIFF_SEED picks the random seed. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bifrost_exec_jit.h"
#include "bifrost/shaders.inc"
#include "gpu/shaders.inc"

#define S(n) { #n, n, sizeof(n) }
static const struct { const char *name; const uint8_t *code; size_t len; } shaders[] = {
    S(bi_shader_exec_atomic), S(bi_shader_exec_barrier_stop), S(bi_shader_exec_f16_clock), S(bi_shader_exec_branch), S(bi_shader_exec_branch2), S(bi_shader_exec_clper),
    S(bi_shader_exec_clper_acc), S(bi_shader_exec_clper_v6), S(bi_shader_exec_fcmp_total), S(bi_shader_exec_float),
    S(bi_shader_exec_int), S(bi_shader_exec_lanes), S(bi_shader_exec_mem), S(bi_shader_exec_mem_vec), S(bi_shader_exec_misc),
    S(bi_shader_exec_seg), S(bi_shader_exec_slots), S(bi_shader_exec_timing), S(bi_shader_exec_vec), S(bi_shader_exec_vec2),
    S(bi_shader_exec_wg), S(bi_shader_exec_wls_order), S(bi_shader_formats), S(bi_shader_gpu_atomic),
    S(bi_shader_gpu_atomic64), S(bi_shader_gpu_exit), S(bi_shader_gpu_fma_loop), S(bi_shader_gpu_img_buf), S(bi_shader_gpu_img_store_f32),
    S(bi_shader_gpu_img_store_u32), S(bi_shader_gpu_m_exp2_g71), S(bi_shader_gpu_m_exp2_v7),
    S(bi_shader_gpu_m_log2_g71), S(bi_shader_gpu_m_log2_v7), S(bi_shader_gpu_m_rcp_g71),
    S(bi_shader_gpu_m_rcp_v7), S(bi_shader_gpu_m_rsq_g71), S(bi_shader_gpu_m_rsq_v7), S(bi_shader_gpu_m_sin),
    S(bi_shader_gpu_mesa_sgemm), S(bi_shader_gpu_misc), S(bi_shader_gpu_reduce), S(bi_shader_gpu_spin),
    S(bi_shader_gpu_stage), S(bi_shader_gpu_tex), S(bi_shader_gpu_tex_fetch), S(bi_shader_gpu_texs),
    S(bi_shader_gpu_vecadd), S(bi_shader_gpu_jit_conv), S(bi_shader_gpu_jit_narrow), S(bi_shader_gpu_jit_atomic),
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
    ck_assert_msg(!bx_jit_compile(arena, &xj, arch >= BI_ARCH_V7 ? 8 : 4, why, sizeof(why)), "%s: %s", name, why);
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
    if (!bx_jit_host_ok())
        return;                /* nothing to compare with on this host */
    seed();
    static const enum bi_arch arches[2] = { BI_ARCH_V6, BI_ARCH_V7 };
    for (unsigned a = 0; a < 2; a++) {
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
    printf("jit diff: %u clause runs compared (%u faults), %u compiled units\n", compared, faults_seen,
           compiled_units);
    ck_assert_uint_gt(compared, 5000);
    ck_assert_uint_gt(compiled_units, 5000);
}
END_TEST

/* ---- whole shaders under each back end ------------------------------------------------------ */

/* the observer's view (bi_exec_hook, as --stats sees clauses): the sum of a hash of every clause
 * run, its mask and the warp's PCs after it (a sum: batches count each clause's runs, not their
 * order) */
static uint64_t seen_hash, seen_clauses, batched;
static void see(const bi_warp *w, const bi_xclause *x, uint32_t exec, const uint32_t *next, uint64_t times)
{
    uint64_t h = x->c.offset ^ (uint64_t)exec << 32;
    for (unsigned l = 0; l < w->lanes; l++) {
        int mine = next && (exec >> l) & 1;    /* a batch: the lanes of exec went on to *next */
        h = (h ^ (mine ? *next : w->pc[l]) ^ (uint64_t)(mine ? 0 : w->done[l]) << 40) * 0x100000001b3ull;
    }
    seen_hash += (h ^ h >> 29) * times;
    seen_clauses += times;
}
static void see_clause(const bi_warp *w, const bi_program *p, const bi_xclause *x, uint32_t exec)
{
    (void)p;
    see(w, x, exec, NULL, 1);
}
static void see_counts(const bi_warp *w, const bi_program *p, const bi_clause_count *r, unsigned n, uint32_t exec)
{
    (void)p;
    for (unsigned k = 0; k < n; k++) {
        uint32_t fall = r[k].x->c.offset + r[k].x->c.size;
        ck_assert(r[k].fall + r[k].taken > 0);
        ck_assert(r[k].first == (r[k].fall && r[k].first == fall ? fall : r[k].taken_pc));
        see(w, r[k].x, exec, &fall, r[k].fall);
        see(w, r[k].x, exec, &r[k].taken_pc, r[k].taken);
        batched += r[k].fall + r[k].taken;
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
    if (!bx_jit_host_ok())
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
    printf("jit diff: %u whole-shader runs compared, %llu clauses counted by compiled code\n", runs,
           (unsigned long long)batched);
    ck_assert_uint_gt(batched, 0);
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
    if (!bx_jit_host_ok())
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
    printf("jit diff: %u sliced mixed-back-end shader runs compared\n", runs);
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

static Suite *suite(void)
{
    Suite *s = suite_create("gpu_jit");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_backend_switch);
    tcase_add_test(tc, test_clauses);
    tcase_add_test(tc, test_shaders);
    tcase_add_test(tc, test_sliced);
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
