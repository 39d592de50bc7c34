/* scan: exclusive prefix sum of N uints, work-efficient (Blelloch up-sweep / down-sweep) in
 * local memory.  Each work-group scans a block of 2*WG elements and writes the block's total;
 * the totals are scanned the same way (recursively) and added back to every block.
 *
 *   scan [-d DEVICE] [N] [WG]          (default N = 65536, WG = 128 or the device maximum)
 *
 * Integer arithmetic: compared bit-exactly with a sequential CPU scan.
 *
 * Note: the down-sweep reads tmp[bi] before tmp[ai].  Mesa 25.0.7's Bifrost pre-RA scheduler
 * (bi_pressure_schedule.c) only orders a store after the most recent earlier load, so with
 * tmp[ai] read first it moves that load below the store to tmp[ai] and every sum comes out 0, on
 * hardware as on malibu (fixed in later Mesa by chaining loads); this order is immune.
 */
#include "common.h"
#include <stdlib.h>

static const char *src =
    "__kernel void scan_block(__global uint *data, __global uint *sums, uint n,\n"
    "                         __local uint *tmp)\n"
    "{\n"
    "    uint lid = get_local_id(0), wg = get_local_size(0), m = 2 * wg;\n"
    "    uint base = get_group_id(0) * m;\n"
    "    tmp[lid] = base + lid < n ? data[base + lid] : 0;\n"
    "    tmp[lid + wg] = base + lid + wg < n ? data[base + lid + wg] : 0;\n"
    "    uint off = 1;\n"
    "    for (uint d = wg; d > 0; d >>= 1) {          /* up-sweep: partial sums in place */\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        if (lid < d) {\n"
    "            uint ai = off * (2 * lid + 1) - 1, bi = off * (2 * lid + 2) - 1;\n"
    "            tmp[bi] += tmp[ai];\n"
    "        }\n"
    "        off <<= 1;\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (lid == 0) {\n"
    "        sums[get_group_id(0)] = tmp[m - 1];\n"
    "        tmp[m - 1] = 0;\n"
    "    }\n"
    "    for (uint d = 1; d < m; d <<= 1) {           /* down-sweep */\n"
    "        off >>= 1;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        if (lid < d) {\n"
    "            uint ai = off * (2 * lid + 1) - 1, bi = off * (2 * lid + 2) - 1;\n"
    "            uint b = tmp[bi];                /* bi first: see the note above */\n"
    "            uint a = tmp[ai];\n"
    "            tmp[ai] = b;\n"
    "            tmp[bi] = a + b;\n"
    "        }\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (base + lid < n)\n"
    "        data[base + lid] = tmp[lid];\n"
    "    if (base + lid + wg < n)\n"
    "        data[base + lid + wg] = tmp[lid + wg];\n"
    "}\n"
    "\n"
    "__kernel void add_offsets(__global uint *data, __global const uint *sums, uint n)\n"
    "{\n"
    "    uint lid = get_local_id(0), wg = get_local_size(0);\n"
    "    uint base = get_group_id(0) * 2 * wg;\n"
    "    uint s = sums[get_group_id(0)];\n"
    "    if (base + lid < n)\n"
    "        data[base + lid] += s;\n"
    "    if (base + lid + wg < n)\n"
    "        data[base + lid + wg] += s;\n"
    "}\n";

static cl_kernel kscan, kadd;
static size_t wg;

/* exclusive scan of buf[0..n) in place */
static int scan(app_t *a, cl_mem buf, cl_uint n, int level)
{
    cl_uint blocks = (cl_uint)((n + 2 * wg - 1) / (2 * wg));
    size_t global = blocks * wg;
    cl_mem sums = app_buffer(a, CL_MEM_READ_WRITE, sizeof(cl_uint) * blocks, NULL);
    if (!sums)
        return 1;
    if (app_args(a, kscan, sizeof buf, &buf, sizeof sums, &sums, sizeof n, &n,
                 2 * wg * sizeof(cl_uint), NULL, (size_t)0) ||
        app_run(a, kscan, 1, &global, &wg, NULL))
        return 1;
    if (blocks == 1)
        return 0;
    if (scan(a, sums, blocks, level + 1))
        return 1;
    if (app_args(a, kadd, sizeof buf, &buf, sizeof sums, &sums, sizeof n, &n, (size_t)0) ||
        app_run(a, kadd, 1, &global, &wg, NULL))
        return 1;
    return 0;
}

static int run(app_t *a)
{
    cl_uint n = (cl_uint)app_arg(a, 0, 1u << 16);
    if (n == 0)
        return 1;
    cl_uint *x = malloc(sizeof(cl_uint) * n), *want = malloc(sizeof(cl_uint) * n);
    cl_uint *got = malloc(sizeof(cl_uint) * n);
    app_rng r;
    app_rng_seed(&r, 6);
    cl_uint acc = 0;
    for (cl_uint i = 0; i < n; i++) {
        x[i] = app_rand_below(&r, 1000);
        want[i] = acc;
        acc += x[i];
    }
    int rc = 1;
    cl_program p = app_build(a, src, NULL);
    kscan = app_kernel(a, p, "scan_block");
    kadd = app_kernel(a, p, "add_offsets");
    cl_mem buf = app_buffer(a, CL_MEM_READ_WRITE, sizeof(cl_uint) * n, x);
    if (!kscan || !kadd || !buf)
        goto out;
    wg = app_wg(a, kscan, app_arg(a, 1, 128));
    wg = app_wg(a, kadd, wg);
    if (scan(a, buf, n, 0) || app_read(a, buf, sizeof(cl_uint) * n, got))
        goto out;
    app_log(a, "n=%u work-group %zu (blocks of %zu), total %u", n, wg, 2 * wg, acc);
    rc = app_check_u32(a, "scan", got, want, n) != 0;
out:
    free(x), free(want), free(got);
    return rc;
}

int main(int argc, char **argv)
{
    return app_main(argc, argv, "scan", "[N] [WG]", run);
}
