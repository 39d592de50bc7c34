/* math_builtins: single-precision OpenCL math built-ins over N inputs each, checked against
 * double-precision CPU references within the OpenCL spec's ULP bounds (full profile; the
 * embedded-profile bounds on embedded devices), and bit-exactly for the correctly rounded or
 * exact ones (fma, fabs, floor, fmin, fmax, copysign, x*y, x+y).
 *
 *   math_builtins [-d DEVICE] [N]          (default N = 16384)
 *
 * Inputs: p = 2^u, u uniform in [-10, 10] (positive, wide range), a uniform in [-20, 20],
 * b uniform in [-4, 4]; ranges keep every result finite and normal (no denormals: devices may
 * flush them).  Compiled without -cl-fast-relaxed-math or -cl-mad-enable.
 */
#include "common.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { F_SQRT, F_RSQRT, F_DIV, F_EXP, F_EXP2, F_LOG, F_LOG2, F_SIN, F_COS, F_TAN, F_POW,
       F_ATAN2, F_HYPOT, F_CBRT, F_TANH, F_FMA, F_FABS, F_FLOOR, F_FMIN, F_FMAX, F_COPYSIGN,
       F_MUL, F_ADD, NF };

static const struct { const char *name, *expr; int ulp; /* -1: exact */ } fns[NF] = {
    [F_SQRT] = { "sqrt", "sqrt(p)", APP_ULP_SQRT },
    [F_RSQRT] = { "rsqrt", "rsqrt(p)", APP_ULP_RSQRT },
    [F_DIV] = { "divide", "a / p", APP_ULP_DIV },
    [F_EXP] = { "exp", "exp(a)", APP_ULP_EXP },
    [F_EXP2] = { "exp2", "exp2(a)", APP_ULP_EXP },
    [F_LOG] = { "log", "log(p)", APP_ULP_LOG },
    [F_LOG2] = { "log2", "log2(p)", APP_ULP_LOG },
    [F_SIN] = { "sin", "sin(a * 5.0f)", APP_ULP_SIN },
    [F_COS] = { "cos", "cos(a * 5.0f)", APP_ULP_COS },
    [F_TAN] = { "tan", "tan(a)", APP_ULP_TAN },
    [F_POW] = { "pow", "pow(p, b)", APP_ULP_POW },
    [F_ATAN2] = { "atan2", "atan2(a, b)", APP_ULP_ATAN2 },
    [F_HYPOT] = { "hypot", "hypot(a, b)", APP_ULP_HYPOT },
    [F_CBRT] = { "cbrt", "cbrt(a)", APP_ULP_CBRT },
    [F_TANH] = { "tanh", "tanh(b)", APP_ULP_TANH },
    [F_FMA] = { "fma", "fma(a, b, p)", -1 },
    [F_FABS] = { "fabs", "fabs(a)", -1 },
    [F_FLOOR] = { "floor", "floor(a)", -1 },
    [F_FMIN] = { "fmin", "fmin(a, b)", -1 },
    [F_FMAX] = { "fmax", "fmax(a, b)", -1 },
    [F_COPYSIGN] = { "copysign", "copysign(p, a)", -1 },
    [F_MUL] = { "mul", "a * b", -1 },
    [F_ADD] = { "add", "a + p", -1 },
};

static double ref(int f, float pf, float af, float bf)
{
    double p = pf, a = af, b = bf;
    switch (f) {
    case F_SQRT: return sqrt(p);
    case F_RSQRT: return 1.0 / sqrt(p);
    case F_DIV: return a / p;
    case F_EXP: return exp(a);
    case F_EXP2: return exp2(a);
    case F_LOG: return log(p);
    case F_LOG2: return log2(p);
    case F_SIN: return sin((double)(af * 5.0f)); /* the argument is rounded to float first */
    case F_COS: return cos((double)(af * 5.0f));
    case F_TAN: return tan(a);
    case F_POW: return pow(p, b);
    case F_ATAN2: return atan2(a, b);
    case F_HYPOT: return hypot(a, b);
    case F_CBRT: return cbrt(a);
    case F_TANH: return tanh(b);
    case F_FMA: return fmaf(af, bf, pf);
    case F_FABS: return fabsf(af);
    case F_FLOOR: return floorf(af);
    case F_FMIN: return fminf(af, bf);
    case F_FMAX: return fmaxf(af, bf);
    case F_COPYSIGN: return copysignf(pf, af);
    case F_MUL: { volatile float m = af * bf; return m; }
    case F_ADD: { volatile float s = af + pf; return s; }
    }
    return NAN;
}

static int run(app_t *a)
{
    cl_uint n = (cl_uint)app_arg(a, 0, 16384);
    if (n == 0)
        return 1;
    /* kernel source: one output row per function */
    char *src = malloc(8192);
    int len = sprintf(src, "__kernel void math_builtins(__global const float *P,\n"
                           "    __global const float *A, __global const float *B,\n"
                           "    __global float *out, uint n)\n"
                           "{\n"
                           "    uint i = get_global_id(0);\n"
                           "    if (i >= n)\n"
                           "        return;\n"
                           "    float p = P[i], a = A[i], b = B[i];\n");
    for (int f = 0; f < NF; f++)
        len += sprintf(src + len, "    out[%d * n + i] = %s;\n", f, fns[f].expr);
    sprintf(src + len, "}\n");

    float *P = malloc(sizeof(float) * n), *A = malloc(sizeof(float) * n);
    float *B = malloc(sizeof(float) * n), *got = malloc(sizeof(float) * n * NF);
    double *want = malloc(sizeof(double) * n);
    float *wantf = malloc(sizeof(float) * n);
    app_rng r;
    app_rng_seed(&r, 12);
    for (cl_uint i = 0; i < n; i++) {
        P[i] = exp2f(app_rand_float(&r, -10.0f, 10.0f));
        A[i] = app_rand_float(&r, -20.0f, 20.0f);
        B[i] = app_rand_float(&r, -4.0f, 4.0f);
    }
    A[0] = 0.0f, B[0] = 1.0f;         /* a few exact cases */
    if (n > 1)
        A[1] = -0.0f, B[1] = -2.5f, P[1] = 1.0f;
    if (n > 2)
        A[2] = 3.5f, B[2] = 3.5f, P[2] = 4.0f;
    int rc = 1;
    cl_kernel k = app_kernel(a, app_build(a, src, NULL), "math_builtins");
    cl_mem bp = app_buffer(a, CL_MEM_READ_ONLY, sizeof(float) * n, P);
    cl_mem ba = app_buffer(a, CL_MEM_READ_ONLY, sizeof(float) * n, A);
    cl_mem bb = app_buffer(a, CL_MEM_READ_ONLY, sizeof(float) * n, B);
    cl_mem bo = app_buffer(a, CL_MEM_WRITE_ONLY, sizeof(float) * n * NF, NULL);
    if (!k || !bp || !ba || !bb || !bo)
        goto out;
    size_t wg = app_wg(a, k, 64), global = app_round_up(n, wg);
    if (app_args(a, k, sizeof bp, &bp, sizeof ba, &ba, sizeof bb, &bb, sizeof bo, &bo, sizeof n,
                 &n, (size_t)0) ||
        app_run(a, k, 1, &global, &wg, NULL) || app_read(a, bo, sizeof(float) * n * NF, got))
        goto out;
    app_log(a, "n=%u inputs x %d functions, work-group %zu", n, NF, wg);
    rc = 0;
    for (int f = 0; f < NF; f++) {
        for (cl_uint i = 0; i < n; i++) {
            want[i] = ref(f, P[i], A[i], B[i]);
            wantf[i] = (float)want[i];
        }
        if (fns[f].ulp < 0)
            rc |= app_check_f32(a, fns[f].name, got + (size_t)f * n, wantf, n) != 0;
        else
            rc |= app_check_f32_ulp(a, fns[f].name, got + (size_t)f * n, want, n,
                                    app_ulp_bound(a, (enum app_ulp_fn)fns[f].ulp)) != 0;
    }
out:
    free(src), free(P), free(A), free(B), free(got), free(want), free(wantf);
    return rc;
}

int main(int argc, char **argv)
{
    return app_main(argc, argv, "math_builtins", "[N]", run);
}
