/* reduce: sum of N floats by a tree reduction in local memory with barriers.  Each work-group
 * adds 2*WG inputs into one partial sum; the kernel is re-run on the partial sums until one
 * value is left.
 *
 *   reduce [-d DEVICE] [N] [WG]          (default N = 65536, WG = 128 or the device maximum)
 *
 * Inputs are integers in [-8, 8]: for N <= 2^21 every partial sum is exact, so the result is
 * compared bit-exactly whatever the summation order; beyond, within N * 2^-24 * sum|x|.
 */
#include "common.h"
#include <math.h>
#include <stdlib.h>

static const char *src =
    "__kernel void reduce(__global const float *in, __global float *out, uint n,\n"
    "                     __local float *tmp)\n"
    "{\n"
    "    uint lid = get_local_id(0), wg = get_local_size(0);\n"
    "    uint i = get_group_id(0) * wg * 2 + lid;\n"
    "    float s = i < n ? in[i] : 0.0f;\n"
    "    if (i + wg < n)\n"
    "        s += in[i + wg];\n"
    "    tmp[lid] = s;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint h = wg / 2; h > 0; h /= 2) {\n"
    "        if (lid < h)\n"
    "            tmp[lid] += tmp[lid + h];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (lid == 0)\n"
    "        out[get_group_id(0)] = tmp[0];\n"
    "}\n";

static int run(app_t *a)
{
    cl_uint n = (cl_uint)app_arg(a, 0, 1u << 16);
    if (n == 0)
        return 1;
    float *x = malloc(sizeof(float) * n);
    app_rng r;
    app_rng_seed(&r, 5);
    double ref = 0, mag = 0;
    for (cl_uint i = 0; i < n; i++) {
        x[i] = app_rand_grid(&r, -8, 8, 0);
        ref += x[i];
        mag += fabs(x[i]);
    }
    int rc = 1;
    cl_kernel k = app_kernel(a, app_build(a, src, NULL), "reduce");
    cl_mem buf[2];
    buf[0] = app_buffer(a, CL_MEM_READ_WRITE, sizeof(float) * n, x);
    buf[1] = app_buffer(a, CL_MEM_READ_WRITE, sizeof(float) * n, NULL);
    if (!k || !buf[0] || !buf[1])
        goto out;
    size_t wg = app_wg(a, k, app_arg(a, 1, 128));
    cl_uint len = n, passes = 0;
    int cur = 0;
    while (len > 1) {
        cl_uint groups = (cl_uint)((len + 2 * wg - 1) / (2 * wg));
        size_t global = groups * wg;
        if (app_args(a, k, sizeof(cl_mem), &buf[cur], sizeof(cl_mem), &buf[!cur], sizeof len,
                     &len, wg * sizeof(float), NULL, (size_t)0) ||
            app_run(a, k, 1, &global, &wg, NULL))
            goto out;
        cur = !cur;
        len = groups;
        passes++;
    }
    float got;
    if (app_read(a, buf[cur], sizeof got, &got))
        goto out;
    app_log(a, "n=%u work-group %zu passes %u: sum %.9g, expected %.17g", n, wg, passes, got, ref);
    if (n <= (1u << 21)) {
        float want = (float)ref; /* exact */
        rc = app_check_f32(a, "sum", &got, &want, 1) != 0;
    } else {
        double tol = n * 0x1p-24 * mag;
        app_output(a, "sum", "f32", &got, 4, 1, "approx");
        rc = !(fabs(got - ref) <= tol);
        if (rc)
            app_log(a, "sum off by %g > %g", fabs(got - ref), tol);
    }
out:
    free(x);
    return rc;
}

int main(int argc, char **argv)
{
    return app_main(argc, argv, "reduce", "[N] [WG]", run);
}
