/* sgemm_naive: C = A * B (row-major, M x K times K x N), one work-item per element of C reading
 * A and B straight from global memory.
 *
 *   sgemm_naive [-d DEVICE] [N | M N K]          (default 128 x 128 x 128)
 *
 * Inputs are multiples of 1/4 in [-2, 2]: every product and partial sum is exactly
 * representable (K < 2^18), so the result is independent of summation order and of fma
 * contraction and is compared bit-exactly.
 */
#include "common.h"
#include <stdlib.h>
#include <string.h>

static const char *src =
    "__kernel void sgemm_naive(__global const float *A, __global const float *B,\n"
    "                          __global float *C, uint M, uint N, uint K)\n"
    "{\n"
    "    uint col = get_global_id(0), row = get_global_id(1);\n"
    "    if (row >= M || col >= N)\n"
    "        return;\n"
    "    float acc = 0.0f;\n"
    "    for (uint k = 0; k < K; k++)\n"
    "        acc += A[row * K + k] * B[k * N + col];\n"
    "    C[row * N + col] = acc;\n"
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
    app_rng_seed(&r, 3);
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
    cl_program p = app_build(a, src, NULL);
    cl_kernel k = app_kernel(a, p, "sgemm_naive");
    cl_mem bA = app_buffer(a, CL_MEM_READ_ONLY, sizeof(float) * M * K, A);
    cl_mem bB = app_buffer(a, CL_MEM_READ_ONLY, sizeof(float) * K * N, B);
    cl_mem bC = app_buffer(a, CL_MEM_WRITE_ONLY, sizeof(float) * M * N, NULL);
    int rc = 1;
    if (!k || !bA || !bB || !bC)
        goto out;
    size_t wg = app_wg(a, k, 64), local[2], global[2];
    local[0] = wg >= 8 ? 8 : wg;
    local[1] = wg / local[0];
    global[0] = app_round_up(N, local[0]);
    global[1] = app_round_up(M, local[1]);
    if (app_args(a, k, sizeof bA, &bA, sizeof bB, &bB, sizeof bC, &bC, sizeof M, &M, sizeof N, &N,
                 sizeof K, &K, (size_t)0) ||
        app_run(a, k, 2, global, local, NULL) ||
        app_read(a, bC, sizeof(float) * M * N, C))
        goto out;
    app_log(a, "M=%u N=%u K=%u work-group %zux%zu", M, N, K, local[0], local[1]);
    rc = app_check_f32(a, "C", C, want, (size_t)M * N) != 0;
out:
    free(A), free(B), free(C), free(want);
    return rc;
}

int main(int argc, char **argv)
{
    return app_main(argc, argv, "sgemm_naive", "[N | M N K]", run);
}
