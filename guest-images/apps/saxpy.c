/* saxpy: y[i] = alpha * x[i] + y[i].
 *
 *   saxpy [-d DEVICE] [N]          (default N = 65536)
 *
 * OpenCL C compiles with FP_CONTRACT ON, so the device may fuse alpha*x+y into one fma (one
 * rounding) or not (two roundings): each result must equal bit-exactly one of the two CPU
 * references.
 */
#include "common.h"
#include <stdlib.h>
#include <string.h>

static const char *src =
    "__kernel void saxpy(float alpha, __global const float *x, __global float *y, uint n)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < n)\n"
    "        y[i] = alpha * x[i] + y[i];\n"
    "}\n";

static int run(app_t *a)
{
    cl_uint n = (cl_uint)app_arg(a, 0, 1u << 16);
    size_t bytes = (size_t)n * sizeof(float);
    float alpha = 1.7320508f;
    float *x = malloc(bytes), *y = malloc(bytes), *got = malloc(bytes);
    float *fused = malloc(bytes), *unfused = malloc(bytes);
    app_rng r;
    app_rng_seed(&r, 2);
    for (cl_uint i = 0; i < n; i++) {
        x[i] = app_rand_float(&r, -100.0f, 100.0f);
        y[i] = app_rand_float(&r, -100.0f, 100.0f);
        fused[i] = app_fma_ref(alpha, x[i], y[i]);
        unfused[i] = app_muladd_ref(alpha, x[i], y[i]);
    }
    cl_program p = app_build(a, src, NULL);
    cl_kernel k = app_kernel(a, p, "saxpy");
    cl_mem bx = app_buffer(a, CL_MEM_READ_ONLY, bytes, x);
    cl_mem by = app_buffer(a, CL_MEM_READ_WRITE, bytes, y);
    int rc = 1;
    if (!k || !bx || !by)
        goto out;
    size_t wg = app_wg(a, k, 64), global = app_round_up(n, wg);
    if (app_args(a, k, sizeof alpha, &alpha, sizeof bx, &bx, sizeof by, &by, sizeof n, &n,
                 (size_t)0) ||
        app_run(a, k, 1, &global, &wg, NULL) || app_read(a, by, bytes, got))
        goto out;
    app_log(a, "n=%u alpha=%.9g work-group %zu", n, alpha, wg);
    rc = app_check_f32_either(a, "y", got, fused, unfused, n) != 0;
out:
    free(x), free(y), free(got), free(fused), free(unfused);
    return rc;
}

int main(int argc, char **argv)
{
    return app_main(argc, argv, "saxpy", "[N]", run);
}
