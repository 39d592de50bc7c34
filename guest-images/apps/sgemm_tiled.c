/* sgemm_tiled: C = A * B (row-major, M x K times K x N) with TILE x TILE work-groups that stage
 * tiles of A and B in local memory (barrier between loading and using a tile).  Any sizes: the
 * edge tiles are padded with zeros.
 *
 *   sgemm_tiled [-d DEVICE] [N | M N K]          (default 128 x 128 x 128)
 *
 * TILE is 16, or 8 (4, ...) when the device or kernel allows fewer than TILE*TILE work-items.
 * Inputs are multiples of 1/4 in [-2, 2]: every product and partial sum is exact, so the result
 * is compared bit-exactly.
 */
#include "common.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *src =
    "__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))\n"
    "void sgemm_tiled(__global const float *A, __global const float *B, __global float *C,\n"
    "                 uint M, uint N, uint K)\n"
    "{\n"
    "    __local float As[TILE][TILE], Bs[TILE][TILE];\n"
    "    uint tx = get_local_id(0), ty = get_local_id(1);\n"
    "    uint col = get_group_id(0) * TILE + tx, row = get_group_id(1) * TILE + ty;\n"
    "    float acc = 0.0f;\n"
    "    for (uint t = 0; t < K; t += TILE) {\n"
    "        As[ty][tx] = row < M && t + tx < K ? A[row * K + t + tx] : 0.0f;\n"
    "        Bs[ty][tx] = t + ty < K && col < N ? B[(t + ty) * N + col] : 0.0f;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (uint k = 0; k < TILE; k++)\n"
    "            acc += As[ty][k] * Bs[k][tx];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (row < M && col < N)\n"
    "        C[row * N + col] = acc;\n"
    "}\n";

static int run(app_t *a)
{
    cl_uint M = (cl_uint)app_arg(a, 0, 128), N = (cl_uint)app_arg(a, 1, M),
            K = (cl_uint)app_arg(a, 2, M);
    if (!M || !N || !K || K >= (1u << 18)) {
        app_log(a, "bad size %ux%ux%u (K < 262144)", M, N, K);
        return 1;
    }
    float *A = malloc(sizeof(float) * M * K), *B = malloc(sizeof(float) * K * N);
    float *C = malloc(sizeof(float) * M * N), *want = malloc(sizeof(float) * M * N);
    app_rng r;
    app_rng_seed(&r, 4);
    for (size_t i = 0; i < (size_t)M * K; i++)
        A[i] = app_rand_grid(&r, -2, 2, 2);
    for (size_t i = 0; i < (size_t)K * N; i++)
        B[i] = app_rand_grid(&r, -2, 2, 2);
    for (cl_uint i = 0; i < M; i++)
        for (cl_uint j = 0; j < N; j++) {
            float acc = 0;
            for (cl_uint k = 0; k < K; k++)
                acc += A[(size_t)i * K + k] * B[(size_t)k * N + j]; /* exact */
            want[(size_t)i * N + j] = acc;
        }
    int rc = 1;
    cl_kernel k = NULL;
    size_t tile = app_dev_wg(a, 256) >= 256 ? 16 : app_dev_wg(a, 256) >= 64 ? 8 : 4;
    for (; tile >= 2; tile /= 2) {
        char opts[32];
        snprintf(opts, sizeof opts, "-DTILE=%zu", tile);
        k = app_kernel(a, app_build(a, src, opts), "sgemm_tiled");
        if (!k)
            goto out;
        if (app_wg(a, k, tile * tile) == tile * tile)
            break;
        app_log(a, "kernel allows fewer than %zu work-items: smaller tile", tile * tile);
    }
    if (tile < 2)
        goto out;
    cl_mem bA = app_buffer(a, CL_MEM_READ_ONLY, sizeof(float) * M * K, A);
    cl_mem bB = app_buffer(a, CL_MEM_READ_ONLY, sizeof(float) * K * N, B);
    cl_mem bC = app_buffer(a, CL_MEM_WRITE_ONLY, sizeof(float) * M * N, NULL);
    if (!bA || !bB || !bC)
        goto out;
    size_t local[2] = { tile, tile };
    size_t global[2] = { app_round_up(N, tile), app_round_up(M, tile) };
    if (app_args(a, k, sizeof bA, &bA, sizeof bB, &bB, sizeof bC, &bC, sizeof M, &M, sizeof N, &N,
                 sizeof K, &K, (size_t)0) ||
        app_run(a, k, 2, global, local, NULL) ||
        app_read(a, bC, sizeof(float) * M * N, C))
        goto out;
    app_log(a, "M=%u N=%u K=%u tile %zux%zu", M, N, K, tile, tile);
    rc = app_check_f32(a, "C", C, want, (size_t)M * N) != 0;
out:
    free(A), free(B), free(C), free(want);
    return rc;
}

int main(int argc, char **argv)
{
    return app_main(argc, argv, "sgemm_tiled", "[N | M N K]", run);
}
