/* The native back end's AdvSIMD emitters (native_simd.c, native_simd_perm.c) against the
 * portable handlers, encoding group by encoding group: every combination of the size, Q, U
 * and opcode bits of each group the emitters take (every element size of what they emit),
 * on register files from st_init (random, small values for table indexes, extreme values),
 * with Vd distinct from and equal to Vn.  Each encoding runs once on each back end; the V and
 * X registers, FPSR and the exception must be the same.  Each group must also have compiled
 * some of its encodings to host code (a NK_VEC / NK_VEC_PERM description), so the comparison
 * is of the emitters and not of the fallback.  The same sweep runs (on one state) with the
 * host's SSSE3 and SSE4.x hidden (native_host_limit_extensions), where the emitters that need them
 * step aside. */
#include "simd_case.h"
#include "native_simd.h"

struct Group {
    const char *name;
    uint32_t base, vary; /* base: Rd = 1, Rn = 3, Rm = 2 where the group has them */
};

static const struct Group groups[] = {
    { "three same", 0x0e220461u, 0x60c0f800u },
    { "scalar three same", 0x5e220461u, 0x20c0f800u },
    { "two-register misc", 0x0e200861u, 0x60c1f000u },
    { "scalar two-register misc", 0x5e200861u, 0x20c1f000u },
    { "scalar pairwise", 0x5e300861u, 0x20c1f000u },
    { "shift right (SSHR USHR)", 0x0f000461u, 0x607f0000u },
    { "shift right accumulate (SSRA USRA)", 0x0f001461u, 0x607f0000u },
    { "shift right insert (SRI)", 0x0f004461u, 0x607f0000u },
    { "shift left (SHL SLI)", 0x0f005461u, 0x607f0000u },
    { "shift right narrow (SHRN)", 0x0f008461u, 0x607f0000u },
    { "modified immediate (MOVI ORR BIC)", 0x0f000401u, 0x6005f220u },
    { "permute (ZIP UZP TRN)", 0x0e020861u, 0x40c07000u },
    { "EXT", 0x2e020061u, 0x40007800u },
    { "TBL TBX (tables v30 v31 v0 v1)", 0x0e0203c1u, 0x40007000u },
    { "copy (DUP INS UMOV SMOV)", 0x0e000461u, 0x601f7800u },
};

static const struct { unsigned seed, flags; } states[] = { { 1, 0 }, { 2, ST_SMALL }, { 3, ST_EXTREME } };

typedef struct {
    CpuException e;
    uint64_t v[32][2], x[31];
    uint32_t fpsr;
    bool native; /* the instruction's op has an AdvSIMD description */
} Outcome;

/* A block is compiled to host code when its translation cache has a code buffer, made when
 * the cache is created on the native back end: the harness's cache (made so) for the native
 * runs, one of our own made on the portable back end for the others; cpu_off gives the
 * harness's CPU its own back. */
static TBCache *portable_tbc, *native_tbc;

static CPUState *cpu_on(Backend be, unsigned seed, unsigned flags, uint32_t v[32][4], uint64_t x[31])
{
    native_set_backend(BACKEND_NATIVE); /* before the harness makes its cache */
    CPUState *c = st_cpu(seed, flags, v, x);
    if (!portable_tbc) {
        native_tbc = c->tbc;
        native_set_backend(BACKEND_PORTABLE);
        portable_tbc = tbc_new(16 << 20);
        native_set_backend(BACKEND_NATIVE);
        ck_assert_ptr_nonnull(portable_tbc);
        ck_assert_ptr_null(portable_tbc->nbuf);
        ck_assert_ptr_nonnull(native_tbc->nbuf);
    }
    c->tbc = be == BACKEND_PORTABLE ? portable_tbc : native_tbc;
    return c;
}

static void cpu_off(CPUState *c) { c->tbc = native_tbc; }

static Outcome run_on(Backend be, uint32_t insn, unsigned seed, unsigned flags)
{
    uint32_t v[32][4];
    uint64_t x[31];
    CPUState *c = cpu_on(be, seed, flags, v, x);
    const uint32_t code[] = { insn, BRK0 };
    Outcome r = { .e = harness_run(c, code, 2) };
    for (int i = 0; i < 32; i++) {
        r.v[i][0] = c->v[i].d[0];
        r.v[i][1] = c->v[i].d[1];
    }
    memcpy(r.x, c->x, sizeof r.x);
    r.fpsr = c->fp.fpsr;
    TB *tb = tb_lookup(c->tbc, HARNESS_CODE);
    if (be == BACKEND_NATIVE && tb && tb->n_ops) {
        const NativeDesc *d = native_desc(tb->ops[0].fn);
        r.native = d && (d->kind == NK_VEC || d->kind == NK_VEC_PERM);
    }
    cpu_off(c);
    return r;
}

/* Run every encoding of group i on both back ends, on the first n_states states (and with
 * Vn = Vd when alias); the count of runs compiled from an AdvSIMD description. */
static unsigned sweep_group(int i, unsigned n_states, bool alias_too)
{
    const struct Group *g = &groups[i];
    unsigned n = 1u << __builtin_popcount(g->vary), native = 0;
    for (unsigned k = 0; k < n; k++)
        for (int alias = 0; alias < 1 + alias_too; alias++) {
            uint32_t insn = sweep_encoding(g->base, g->vary, k);
            if (alias) /* Vn = Vd (and for the groups with Rm, Vm stays v2) */
                insn = (insn & ~0x3e0u) | (insn & 0x1fu) << 5;
            for (unsigned s = 0; s < n_states; s++) {
                Outcome p = run_on(BACKEND_PORTABLE, insn, states[s].seed, states[s].flags);
                Outcome q = run_on(BACKEND_NATIVE, insn, states[s].seed, states[s].flags);
                native += q.native;
                ck_assert_msg(p.e == q.e, "%s %08x: exception %d native, %d portable", g->name, insn, q.e, p.e);
                ck_assert_msg(p.fpsr == q.fpsr, "%s %08x: fpsr %08x native, %08x portable", g->name, insn,
                              q.fpsr, p.fpsr);
                for (int r = 0; r < 32; r++)
                    ck_assert_msg(p.v[r][0] == q.v[r][0] && p.v[r][1] == q.v[r][1],
                                  "%s %08x (state %u): v%d = %016llx:%016llx native, %016llx:%016llx portable",
                                  g->name, insn, s, r, (unsigned long long)q.v[r][1],
                                  (unsigned long long)q.v[r][0], (unsigned long long)p.v[r][1],
                                  (unsigned long long)p.v[r][0]);
                for (int r = 0; r < 31; r++)
                    ck_assert_msg(p.x[r] == q.x[r], "%s %08x (state %u): x%d = %016llx native, %016llx portable",
                                  g->name, insn, s, r, (unsigned long long)q.x[r], (unsigned long long)p.x[r]);
            }
        }
    return native;
}

START_TEST(native_matches_portable)
{
    native_host_limit_extensions(~0u);
    unsigned native = sweep_group(_i, sizeof states / sizeof states[0], true);
    ck_assert_msg(native > 0, "%s: no encoding compiled to host SIMD code", groups[_i].name);
}
END_TEST

START_TEST(native_matches_portable_sse2_host)
{
    native_host_limit_extensions(0);
    sweep_group(_i, 1, false);
    native_host_limit_extensions(~0u);
}
END_TEST

/* Within one block: general registers through the register cache into and out of V registers
 * (DUP, INS, UMOV) between integer ops that keep them in host registers. */
START_TEST(cache_and_vector_in_one_block)
{
    for (int be = 0; be < 2; be++) {
        uint32_t v[32][4];
        uint64_t x[31];
        CPUState *c = cpu_on(be ? BACKEND_NATIVE : BACKEND_PORTABLE, 7, 0, v, x);
        c->x[3] = 0x1122334455667788ull;
        const uint32_t code[] = {
            0x91000463u, /* add x3, x3, #1 */
            0x4e010c62u, /* dup v2.16b, w3 */
            0x4e1c1c62u, /* ins v2.s[3], w3 */
            0x0e0c3c44u, /* mov w4, v2.s[1] */
            0x8b030084u, /* add x4, x4, x3 */
            0x4e083c45u, /* mov x5, v2.d[0] */
            BRK0,
        };
        ck_assert_int_eq(harness_run(c, code, sizeof code / 4), EXC_BRK);
        ck_assert_uint_eq(c->x[3], 0x1122334455667789ull);
        ck_assert_uint_eq(c->x[4], 0x11223344def00112ull);
        ck_assert_uint_eq(c->x[5], 0x8989898989898989ull);
        ck_assert_uint_eq(c->v[2].d[1], 0x5566778989898989ull);
        cpu_off(c);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("simd_native");
    TCase *tc = tcase_create("simd_native");
    tcase_set_timeout(tc, 300);
    int n = (int)(sizeof groups / sizeof groups[0]);
    tcase_add_loop_test(tc, native_matches_portable, 0, n);
    tcase_add_loop_test(tc, native_matches_portable_sse2_host, 0, n);
    tcase_add_test(tc, cache_and_vector_in_one_block);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    tbc_free(portable_tbc);
    return failed ? 1 : 0;
}
