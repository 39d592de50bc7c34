/* bitonic_sort: ascending sort of N uint keys with a bitonic sorting network, one kernel launch
 * per (stage, pass): log2(N) * (log2(N) + 1) / 2 launches of N/2 work-items each
 * compare-exchanging one pair.  N that is not a power of two is padded with 0xffffffff.
 *
 *   bitonic_sort [-d DEVICE] [N]          (default N = 16384: 105 launches)
 *
 * Compared exactly with qsort on the CPU.
 */
#include "common.h"
#include <stdlib.h>
#include <string.h>

static const char *src =
    "__kernel void bitonic_step(__global uint *d, uint j, uint k)\n"
    "{\n"
    "    uint t = get_global_id(0);\n"
    "    uint i = (t / j) * 2 * j + t % j;   /* lower index of the pair (i, i + j) */\n"
    "    uint l = i + j;\n"
    "    uint a = d[i], b = d[l];\n"
    "    bool up = (i & k) == 0;\n"
    "    if (up ? a > b : a < b) {\n"
    "        d[i] = b;\n"
    "        d[l] = a;\n"
    "    }\n"
    "}\n";

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

static int run(app_t *a)
{
    cl_uint n = (cl_uint)app_arg(a, 0, 1u << 14), np = 2;
    if (n == 0 || n > (1u << 30))
        return 1;
    while (np < n)
        np *= 2;
    cl_uint *keys = malloc(sizeof(cl_uint) * np), *want = malloc(sizeof(cl_uint) * n);
    cl_uint *got = malloc(sizeof(cl_uint) * np);
    app_rng r;
    app_rng_seed(&r, 9);
    for (cl_uint i = 0; i < np; i++) {
        /* full-range keys with some duplicates */
        keys[i] = i >= n ? 0xffffffffu : (i % 7 == 0 ? app_rand_below(&r, 64) : app_rand_u32(&r));
        if (i < n)
            want[i] = keys[i];
    }
    qsort(want, n, sizeof *want, cmp_u32);
    int rc = 1;
    cl_kernel k = app_kernel(a, app_build(a, src, NULL), "bitonic_step");
    cl_mem bk = app_buffer(a, CL_MEM_READ_WRITE, sizeof(cl_uint) * np, keys);
    if (!k || !bk)
        goto out;
    size_t global = np / 2, wg = app_wg(a, k, 64);
    if (wg > global)
        wg = global;
    unsigned launches = 0;
    for (cl_uint kk = 2; kk <= np; kk *= 2)
        for (cl_uint j = kk / 2; j > 0; j /= 2) {
            if (app_args(a, k, sizeof bk, &bk, sizeof j, &j, sizeof kk, &kk, (size_t)0) ||
                app_run(a, k, 1, &global, &wg, NULL))
                goto out;
            launches++;
        }
    if (app_read(a, bk, sizeof(cl_uint) * np, got))
        goto out;
    app_log(a, "n=%u (padded to %u), %u launches of %zu work-items (work-group %zu)", n, np,
            launches, global, wg);
    rc = app_check_u32(a, "sorted", got, want, n) != 0;
out:
    free(keys), free(want), free(got);
    return rc;
}

int main(int argc, char **argv)
{
    return app_main(argc, argv, "bitonic_sort", "[N]", run);
}
