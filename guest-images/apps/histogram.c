/* histogram: 256-bin histogram of N bytes, twice: with global atomics only (atomic_inc on the
 * bins in global memory) and with a per-work-group histogram in local memory (local atomic_inc,
 * then one global atomic_add per bin and work-group).
 *
 *   histogram [-d DEVICE] [N]          (default N = 262144)
 *
 * Skewed input (a few hot bins, so atomics collide).  Counts are compared exactly.
 */
#include "common.h"
#include <stdlib.h>
#include <string.h>

#define ITEMS 16 /* bytes per work-item */

static const char *src =
    "#define ITEMS 16\n"
    "__kernel void hist_global(__global const uchar *data, uint n, __global uint *bins)\n"
    "{\n"
    "    uint stride = get_global_size(0);\n"
    "    for (uint i = get_global_id(0); i < n; i += stride)\n"
    "        atomic_inc(&bins[data[i]]);\n"
    "}\n"
    "\n"
    "__kernel void hist_local(__global const uchar *data, uint n, __global uint *bins,\n"
    "                         __local uint *lbins)\n"
    "{\n"
    "    uint lid = get_local_id(0), wg = get_local_size(0);\n"
    "    for (uint b = lid; b < 256; b += wg)\n"
    "        lbins[b] = 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    uint stride = get_global_size(0);\n"
    "    for (uint i = get_global_id(0); i < n; i += stride)\n"
    "        atomic_inc(&lbins[data[i]]);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint b = lid; b < 256; b += wg)\n"
    "        if (lbins[b])\n"
    "            atomic_add(&bins[b], lbins[b]);\n"
    "}\n";

static int run(app_t *a)
{
    cl_uint n = (cl_uint)app_arg(a, 0, 1u << 18);
    cl_uchar *data = malloc(n ? n : 1);
    cl_uint want[256] = { 0 }, got[256], zero[256] = { 0 };
    app_rng r;
    app_rng_seed(&r, 8);
    for (cl_uint i = 0; i < n; i++) {
        uint32_t v = app_rand_u32(&r);
        /* 1/4 of the values in 4 hot bins, the rest triangular over 0..255 */
        data[i] = (v & 3) == 0 ? (cl_uchar)(7 + 64 * ((v >> 2) & 3))
                               : (cl_uchar)((((v >> 8) & 255) + ((v >> 16) & 255)) / 2);
        want[data[i]]++;
    }
    int rc = 1;
    cl_program p = app_build(a, src, NULL);
    cl_kernel kg = app_kernel(a, p, "hist_global"), kl = app_kernel(a, p, "hist_local");
    cl_mem bd = app_buffer(a, CL_MEM_READ_ONLY, n, data);
    cl_mem bb = app_buffer(a, CL_MEM_READ_WRITE, sizeof got, zero);
    if (!kg || !kl || !bd || !bb)
        goto out;
    size_t wg = app_wg(a, kg, 64);
    size_t global = app_round_up((n + ITEMS - 1) / ITEMS, wg);
    if (app_args(a, kg, sizeof bd, &bd, sizeof n, &n, sizeof bb, &bb, (size_t)0) ||
        app_run(a, kg, 1, &global, &wg, NULL) || app_read(a, bb, sizeof got, got))
        goto out;
    app_log(a, "n=%u, %zu work-items of %zu (global atomics)", n, global, wg);
    rc = app_check_u32(a, "global_atomics", got, want, 256) != 0;

    size_t wgl = app_wg(a, kl, 128);
    size_t globall = app_round_up((n + ITEMS - 1) / ITEMS, wgl);
    if (app_write(a, bb, sizeof zero, zero) ||
        app_args(a, kl, sizeof bd, &bd, sizeof n, &n, sizeof bb, &bb, 256 * sizeof(cl_uint), NULL,
                 (size_t)0) ||
        app_run(a, kl, 1, &globall, &wgl, NULL) || app_read(a, bb, sizeof got, got)) {
        rc = 1;
        goto out;
    }
    app_log(a, "n=%u, %zu work-items of %zu (local atomics)", n, globall, wgl);
    rc |= app_check_u32(a, "local_atomics", got, want, 256) != 0;
out:
    free(data);
    return rc;
}

int main(int argc, char **argv)
{
    return app_main(argc, argv, "histogram", "[N]", run);
}
