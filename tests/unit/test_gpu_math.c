/* Transcendental helper ops (FRCP/FRSQ, FRCP_APPROX/FRSQ_APPROX, FREXPE/FREXPM modes, FMA_RSCALE,
 * FEXP, FEXP_TABLE, FLOGD, FADD_LSCALE, FLOG_TABLE, FSIN/FCOS_TABLE) checked through the
 * instruction sequences Mesa emits for 1/x, 1/sqrt(x), exp2 and log2 (tests/gpu/gpu_m_*.s):
 * results against libm in ULPs, within OpenCL's bounds (divide 2.5, rsqrt 2, exp2 3, log2 3 ulp;
 * the sequences here stay within 1-2), and the special values. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bifrost_exec.h"
#include "shaders.inc"

static float fv(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t fu(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static uint32_t rng = 12345;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* Run a sequence shader for up to 8 inputs; out[i] = r1 of lane i.  p: a program made once
 * (the sweeps run one thousands of times); NULL: bi_exec_shader makes one from code. */
static void run_on(bi_program *p, const uint8_t *code, size_t len, enum bi_arch arch, const float *in,
                   float *out, unsigned n)
{
    bi_warp w;
    bi_fault f = { 0 };
    bi_warp_init(&w, arch);
    for (unsigned l = 0; l < w.lanes; l++)
        w.reg[0][l] = l < n ? fu(in[l]) : 0;
    int rc = p ? bi_exec_program(&w, p, 100, &f) : bi_exec_shader(&w, code, len, arch, 100, &f);
    ck_assert_msg(rc == BI_EXEC_END, "%s", f.msg);
    for (unsigned l = 0; l < n && l < w.lanes; l++)
        out[l] = fv(w.reg[1][l]);
}

static void run(const uint8_t *code, size_t len, enum bi_arch arch, const float *in, float *out, unsigned n)
{
    run_on(NULL, code, len, arch, in, out, n);
}

static float run1(const uint8_t *code, size_t len, enum bi_arch arch, float x)
{
    float r;
    run(code, len, arch, &x, &r, 1);
    return r;
}

/* error of got in units of the last place of the exact value ref */
static double ulps(float got, double ref)
{
    if (isnan(ref))
        return isnan(got) ? 0 : 1e9;
    if (isinf(ref) || isinf(got))
        return (double)got == ref ? 0 : 1e9;
    double a = fabs(ref);
    int e;
    frexp(a, &e);                       /* a in [2^(e-1), 2^e) */
    double ulp = ldexp(1.0, (e - 1) - 23 < -149 ? -149 : (e - 1) - 23);
    if (a >= 0x1.fffffep127)
        ulp = ldexp(1.0, 104);
    return fabs((double)got - ref) / ulp;
}

typedef double (*ref_fn)(double);
static double ref_rcp(double x) { return 1.0 / x; }
static double ref_rsq(double x) { return 1.0 / sqrt(x); }
static double ref_exp2(double x) { return exp2(x); }
static double ref_log2(double x) { return log2(x); }

/* max ulp error over random inputs drawn by gen() */
static double sweep(const uint8_t *code, size_t len, enum bi_arch arch, ref_fn ref, float (*gen)(void), unsigned count,
                    float *worst)
{
    double max = 0;
    bi_program *p = bi_program_new(code, len, arch);
    ck_assert_ptr_nonnull(p);
    for (unsigned k = 0; k < count; k += 8) {
        float in[8], out[8];
        for (unsigned i = 0; i < 8; i++)
            in[i] = gen();
        run_on(p, code, len, arch, in, out, 8);
        unsigned lanes = arch == BI_ARCH_V7 ? 8 : 4;
        for (unsigned i = 0; i < lanes; i++) {
            double r = ref((double)in[i]);
            if (fabs(r) >= 0x1.ffffffp127)
                r = r > 0 ? INFINITY : -INFINITY;
            double u = ulps(out[i], r);
            if (u > max) {
                max = u;
                *worst = in[i];
            }
        }
    }
    bi_program_free(p);
    return max;
}

static float gen_any(void)
{
    /* any finite non-zero float, both signs, denormals included */
    uint32_t u;
    do
        u = rnd();
    while ((u & 0x7f800000) == 0x7f800000 || !(u & 0x7fffffff));
    return fv(u);
}
static float gen_pos(void) { return fabsf(gen_any()); }
static float gen_exp(void) { return (float)((double)rnd() / 4294967296.0 * 280.0 - 150.0); }
/* the 8:24 fixed-point input of FEXP covers (-128, 128): below, results (subnormal) flush to 0,
 * which OpenCL allows for float (denormals optional) */
static float gen_exp_fx(void) { return (float)((double)rnd() / 4294967296.0 * 256.0 - 126.0); }
static float gen_exp_small(void) { return (float)((double)(int32_t)rnd() / 2147483648.0 * 2.0); }
static float gen_log_near1(void) { return 1.0f + (float)((double)(int32_t)rnd() / 2147483648.0 / 64.0); }

#define SH(name) bi_shader_##name, sizeof(bi_shader_##name)

START_TEST(test_rcp)
{
    float w = 0;
    double e71 = sweep(SH(gpu_m_rcp_g71), BI_ARCH_V6, ref_rcp, gen_any, 40000, &w);
    ck_assert_msg(e71 <= 1.0, "G71 rcp: %.3f ulp at %a", e71, w);
    double e7 = sweep(SH(gpu_m_rcp_v7), BI_ARCH_V7, ref_rcp, gen_any, 40000, &w);
    ck_assert_msg(e7 <= 0.5, "FRCP: %.3f ulp at %a", e7, w);
    printf("1/x: G71 sequence %.3f ulp, FRCP %.3f ulp (OpenCL divide: 2.5)\n", e71, e7);
    /* special values through both */
    const float sp[] = { 0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -2.0f, 0x1p-149f, 0x1p127f, 0x1.fffffep127f };
    for (unsigned i = 0; i < sizeof(sp) / sizeof(sp[0]); i++) {
        float want = 1.0f / sp[i];
        float a = run1(SH(gpu_m_rcp_g71), BI_ARCH_V6, sp[i]), b = run1(SH(gpu_m_rcp_v7), BI_ARCH_V7, sp[i]);
        ck_assert_msg((isnan(want) && isnan(a)) || fu(a) == fu(want), "G71 rcp(%a) = %a, want %a", sp[i], a, want);
        ck_assert_msg((isnan(want) && isnan(b)) || fu(b) == fu(want), "FRCP(%a) = %a, want %a", sp[i], b, want);
    }
}
END_TEST

START_TEST(test_rsq)
{
    float w = 0;
    double e71 = sweep(SH(gpu_m_rsq_g71), BI_ARCH_V6, ref_rsq, gen_pos, 40000, &w);
    ck_assert_msg(e71 <= 1.0, "G71 rsq: %.3f ulp at %a", e71, w);
    double e7 = sweep(SH(gpu_m_rsq_v7), BI_ARCH_V7, ref_rsq, gen_pos, 40000, &w);
    ck_assert_msg(e7 <= 0.5, "FRSQ: %.3f ulp at %a", e7, w);
    printf("1/sqrt(x): G71 sequence %.3f ulp, FRSQ %.3f ulp (OpenCL rsqrt: 2)\n", e71, e7);
    const float sp[] = { 0.0f, -0.0f, INFINITY, -1.0f, -INFINITY, NAN, 4.0f, 0x1p-149f, 0x1.fffffep127f };
    for (unsigned i = 0; i < sizeof(sp) / sizeof(sp[0]); i++) {
        float want = (float)(1.0 / sqrt((double)sp[i]));
        if (sp[i] == 0.0f)
            want = signbit(sp[i]) ? -INFINITY : INFINITY;
        float a = run1(SH(gpu_m_rsq_g71), BI_ARCH_V6, sp[i]), b = run1(SH(gpu_m_rsq_v7), BI_ARCH_V7, sp[i]);
        ck_assert_msg((isnan(want) && isnan(a)) || fu(a) == fu(want) || (sp[i] == -0.0f && isinf(a)),
                      "G71 rsq(%a) = %a, want %a", sp[i], a, want);
        ck_assert_msg((isnan(want) && isnan(b)) || fu(b) == fu(want), "FRSQ(%a) = %a, want %a", sp[i], b, want);
    }
}
END_TEST

START_TEST(test_exp2)
{
    float w = 0;
    double e7 = sweep(SH(gpu_m_exp2_v7), BI_ARCH_V7, ref_exp2, gen_exp_fx, 40000, &w);
    double e7s = sweep(SH(gpu_m_exp2_v7), BI_ARCH_V7, ref_exp2, gen_exp_small, 40000, &w);
    ck_assert_msg(e7 <= 3.0 && e7s <= 3.0, "v7 exp2: %.3f / %.3f ulp at %a", e7, e7s, w);
    double e71 = sweep(SH(gpu_m_exp2_g71), BI_ARCH_V6, ref_exp2, gen_exp, 40000, &w);
    double e71s = sweep(SH(gpu_m_exp2_g71), BI_ARCH_V6, ref_exp2, gen_exp_small, 40000, &w);
    ck_assert_msg(e71 <= 3.0 && e71s <= 3.0, "G71 exp2: %.3f / %.3f ulp at %a", e71, e71s, w);
    printf("exp2: v7 sequence %.3f ulp, G71 sequence %.3f ulp (OpenCL exp2: 3)\n", fmax(e7, e7s), fmax(e71, e71s));
    const float sp[] = { -INFINITY, INFINITY, NAN, 0.0f, 1.0f, 200.0f, -200.0f, 128.0f, -127.0f };
    for (unsigned i = 0; i < sizeof(sp) / sizeof(sp[0]); i++) {
        float want = exp2f(sp[i]);
        float a = run1(SH(gpu_m_exp2_v7), BI_ARCH_V7, sp[i]), b = run1(SH(gpu_m_exp2_g71), BI_ARCH_V6, sp[i]);
        ck_assert_msg((isnan(want) && isnan(a)) || fu(a) == fu(want), "v7 exp2(%a) = %a, want %a", sp[i], a, want);
        ck_assert_msg((isnan(want) && isnan(b)) || fu(b) == fu(want), "G71 exp2(%a) = %a, want %a", sp[i], b, want);
    }
}
END_TEST

START_TEST(test_log2)
{
    float w = 0;
    double e7 = sweep(SH(gpu_m_log2_v7), BI_ARCH_V7, ref_log2, gen_pos, 40000, &w);
    double e7n = sweep(SH(gpu_m_log2_v7), BI_ARCH_V7, ref_log2, gen_log_near1, 40000, &w);
    ck_assert_msg(e7 <= 3.0 && e7n <= 3.0, "v7 log2: %.3f / %.3f ulp at %a", e7, e7n, w);
    double e71 = sweep(SH(gpu_m_log2_g71), BI_ARCH_V6, ref_log2, gen_pos, 40000, &w);
    double e71n = sweep(SH(gpu_m_log2_g71), BI_ARCH_V6, ref_log2, gen_log_near1, 40000, &w);
    ck_assert_msg(e71 <= 3.0 && e71n <= 3.0, "G71 log2: %.3f / %.3f ulp at %a", e71, e71n, w);
    printf("log2: v7 sequence %.3f ulp, G71 sequence %.3f ulp (OpenCL log2: 3)\n", fmax(e7, e7n), fmax(e71, e71n));
    const float sp[] = { 0.0f, -0.0f, -1.0f, INFINITY, NAN, 1.0f, 2.0f, 0x1p-149f, 0.5f };
    for (unsigned i = 0; i < sizeof(sp) / sizeof(sp[0]); i++) {
        float want = log2f(sp[i]);
        float a = run1(SH(gpu_m_log2_v7), BI_ARCH_V7, sp[i]), b = run1(SH(gpu_m_log2_g71), BI_ARCH_V6, sp[i]);
        ck_assert_msg((isnan(want) && isnan(a)) || fu(a) == fu(want), "v7 log2(%a) = %a, want %a", sp[i], a, want);
        ck_assert_msg((isnan(want) && isnan(b)) || fu(b) == fu(want), "G71 log2(%a) = %a, want %a", sp[i], b, want);
    }
}
END_TEST

START_TEST(test_sin_tables)
{
    /* Mesa's sin lowering is a quadratic Taylor step from the pi/32 table: absolute error ~e^3/6
     * with |e| <= pi/64 (native_sin quality); the tables themselves are exact here */
    double max = 0;
    for (int k = -2000; k <= 2000; k++) {
        float x = (float)k * 0.00317f;
        double err = fabs((double)run1(SH(gpu_m_sin), BI_ARCH_V7, x) - sin((double)x));
        if (err > max)
            max = err;
    }
    printf("sin: Mesa's table + Taylor sequence, max abs error %.2e on [-6.3, 6.3]\n", max);
    ck_assert(max < 3e-5);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("gpu_math");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_rcp);
    tcase_add_test(tc, test_rsq);
    tcase_add_test(tc, test_exp2);
    tcase_add_test(tc, test_log2);
    tcase_add_test(tc, test_sin_tables);
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
