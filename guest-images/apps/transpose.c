/* transpose: out (N x M) = transpose of in (M x N, row-major), through TILE x (TILE+1) tiles in
 * local memory (coalesced reads and writes; the +1 column avoids bank conflicts).  Any sizes.
 *
 *   transpose [-d DEVICE] [M [N]]          (default 256 x 128)
 *
 * TILE is 16, or smaller when the device or kernel allows fewer than TILE*TILE work-items.
 * Pure data movement: compared bit-exactly.
 */
#include "common.h"
#include <stdio.h>
#include <stdlib.h>

static const char *src =
    "__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))\n"
    "void transpose(__global const float *in, __global float *out, uint M, uint N)\n"
    "{\n"
    "    __local float tile[TILE][TILE + 1];\n"
    "    uint tx = get_local_id(0), ty = get_local_id(1);\n"
    "    uint bx = get_group_id(0) * TILE, by = get_group_id(1) * TILE;\n"
    "    uint x = bx + tx, y = by + ty;           /* in: row y, column x */\n"
    "    if (y < M && x < N)\n"
    "        tile[ty][tx] = in[y * N + x];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    x = by + tx;                             /* out: row bx + ty, column by + tx */\n"
    "    y = bx + ty;\n"
    "    if (y < N && x < M)\n"
    "        out[y * M + x] = tile[tx][ty];\n"
    "}\n";

static int run(app_t *a)
{
    cl_uint M = (cl_uint)app_arg(a, 0, 256), N = (cl_uint)app_arg(a, 1, M == 256 ? 128 : M);
    if (!M || !N)
        return 1;
    size_t ne = (size_t)M * N;
    float *in = malloc(ne * sizeof(float)), *out = malloc(ne * sizeof(float));
    float *want = malloc(ne * sizeof(float));
    app_rng r;
    app_rng_seed(&r, 10);
    for (size_t i = 0; i < ne; i++)
        in[i] = app_rand_float(&r, -1e6f, 1e6f);
    for (cl_uint y = 0; y < M; y++)
        for (cl_uint x = 0; x < N; x++)
            want[(size_t)x * M + y] = in[(size_t)y * N + x];
    int rc = 1;
    cl_kernel k = NULL;
    size_t tile = app_dev_wg(a, 256) >= 256 ? 16 : app_dev_wg(a, 256) >= 64 ? 8 : 4;
    for (; tile >= 2; tile /= 2) {
        char opts[32];
        snprintf(opts, sizeof opts, "-DTILE=%zu", tile);
        k = app_kernel(a, app_build(a, src, opts), "transpose");
        if (!k)
            goto out;
        if (app_wg(a, k, tile * tile) == tile * tile)
            break;
    }
    if (tile < 2)
        goto out;
    cl_mem bi = app_buffer(a, CL_MEM_READ_ONLY, ne * sizeof(float), in);
    cl_mem bo = app_buffer(a, CL_MEM_WRITE_ONLY, ne * sizeof(float), NULL);
    if (!bi || !bo)
        goto out;
    size_t local[2] = { tile, tile };
    size_t global[2] = { app_round_up(N, tile), app_round_up(M, tile) };
    if (app_args(a, k, sizeof bi, &bi, sizeof bo, &bo, sizeof M, &M, sizeof N, &N, (size_t)0) ||
        app_run(a, k, 2, global, local, NULL) || app_read(a, bo, ne * sizeof(float), out))
        goto out;
    app_log(a, "%ux%u -> %ux%u, tile %zux%zu", M, N, N, M, tile, tile);
    rc = app_check_f32(a, "out", out, want, ne) != 0;
out:
    free(in), free(out), free(want);
    return rc;
}

int main(int argc, char **argv)
{
    return app_main(argc, argv, "transpose", "[M [N]]", run);
}
