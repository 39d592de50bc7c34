/* vecadd: c[i] = a[i] + b[i], checked bit-exactly against the CPU (IEEE single-precision
 * addition is correctly rounded on every OpenCL device).
 *
 *   vecadd [-d DEVICE] [N] [DEVICE_SUBSTRING]          (default N = 65536)
 *
 * The second positional argument is the old way to pick a device (same as -d SUBSTRING).
 */
#include "common.h"
#include <stdlib.h>
#include <string.h>

static const char *src =
    "__kernel void vecadd(__global const float *a, __global const float *b,\n"
    "                     __global float *c, uint n)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < n)\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n";

static int run(app_t *a)
{
    cl_uint n = (cl_uint)app_arg(a, 0, 1u << 16);
    size_t bytes = (size_t)n * sizeof(float);
    float *x = malloc(bytes), *y = malloc(bytes), *z = malloc(bytes), *want = malloc(bytes);
    app_rng r;
    app_rng_seed(&r, 1);
    for (cl_uint i = 0; i < n; i++) {
        x[i] = app_rand_float(&r, -1000.0f, 1000.0f);
        y[i] = app_rand_float(&r, -1.0f, 1.0f);
        want[i] = x[i] + y[i];
    }
    cl_program p = app_build(a, src, NULL);
    cl_kernel k = app_kernel(a, p, "vecadd");
    cl_mem bx = app_buffer(a, CL_MEM_READ_ONLY, bytes, x);
    cl_mem by = app_buffer(a, CL_MEM_READ_ONLY, bytes, y);
    cl_mem bz = app_buffer(a, CL_MEM_WRITE_ONLY, bytes, NULL);
    int rc = 1;
    if (!k || !bx || !by || !bz)
        goto out;
    size_t wg = app_wg(a, k, 64), global = app_round_up(n, wg);
    if (app_args(a, k, sizeof bx, &bx, sizeof by, &by, sizeof bz, &bz, sizeof n, &n, (size_t)0) ||
        app_run(a, k, 1, &global, &wg, NULL))
        goto out;
    memset(z, 0, bytes);
    if (app_read(a, bz, bytes, z))
        goto out;
    app_log(a, "n=%u work-group %zu", n, wg);
    rc = app_check_f32(a, "c", z, want, n) != 0;
out:
    free(x), free(y), free(z), free(want);
    return rc;
}

int main(int argc, char **argv)
{
    /* vecadd N SUBSTRING -> vecadd -d SUBSTRING N */
    char *args[64];
    int n = 0, npos = 0;
    const char *dev = NULL;
    for (int i = 0; i < argc && n < 60; i++) {
        int positional = i > 0 && argv[i][0] != '-' && strcmp(argv[i - 1], "-d") &&
                         strcmp(argv[i - 1], "-o");
        if (positional && ++npos == 2)
            dev = argv[i];
        else
            args[n++] = argv[i];
    }
    if (dev) {
        args[n++] = "-d";
        args[n++] = (char *)dev;
    }
    args[n] = NULL;
    return app_main(n, args, "vecadd", "[N] [DEVICE_SUBSTRING]", run);
}
