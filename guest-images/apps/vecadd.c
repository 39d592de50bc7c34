/* vecadd: c[i] = a[i] + b[i] on an OpenCL device, checked against the CPU.
 *
 *   vecadd [N] [PLATFORM_SUBSTRING]
 *
 * Runs on every platform/device (or only platforms whose name contains the substring, e.g.
 * "rusticl"); prints one PASS/FAIL line per device and exits 0 only if at least one device ran
 * and all passed.  On the guest: RUSTICL_ENABLE=panfrost (GPU) or llvmpipe (CPU) selects the
 * rusticl drivers (the guest init sets panfrost,llvmpipe by default).
 */
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
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

#define CHECK(what, err)                                                         \
    do {                                                                         \
        if ((err) != CL_SUCCESS) {                                               \
            printf("vecadd: %s failed: error %d\n", (what), (int)(err));        \
            goto out;                                                            \
        }                                                                        \
    } while (0)

/* 0 = pass, 1 = fail */
static int run_device(cl_device_id dev, const float *a, const float *b, float *c, cl_uint n)
{
    cl_int err;
    int status = 1;
    cl_context ctx = NULL;
    cl_command_queue q = NULL;
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem ba = NULL, bb = NULL, bc = NULL;
    size_t bytes = (size_t)n * sizeof(float), global = n;

    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK("clCreateContext", err);
    q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    CHECK("clCreateCommandQueue", err);
    prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CHECK("clCreateProgramWithSource", err);
    err = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        char logbuf[4096] = "";
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof logbuf - 1, logbuf, NULL);
        printf("vecadd: build log:\n%s\n", logbuf);
    }
    CHECK("clBuildProgram", err);
    k = clCreateKernel(prog, "vecadd", &err);
    CHECK("clCreateKernel", err);
    ba = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, (void *)a, &err);
    CHECK("clCreateBuffer a", err);
    bb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, (void *)b, &err);
    CHECK("clCreateBuffer b", err);
    bc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
    CHECK("clCreateBuffer c", err);
    CHECK("clSetKernelArg 0", clSetKernelArg(k, 0, sizeof ba, &ba));
    CHECK("clSetKernelArg 1", clSetKernelArg(k, 1, sizeof bb, &bb));
    CHECK("clSetKernelArg 2", clSetKernelArg(k, 2, sizeof bc, &bc));
    CHECK("clSetKernelArg 3", clSetKernelArg(k, 3, sizeof n, &n));
    CHECK("clEnqueueNDRangeKernel",
          clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    memset(c, 0, bytes);
    CHECK("clEnqueueReadBuffer", clEnqueueReadBuffer(q, bc, CL_TRUE, 0, bytes, c, 0, NULL, NULL));

    cl_uint bad = 0;
    for (cl_uint i = 0; i < n; i++) {
        float want = a[i] + b[i]; /* exact in IEEE single precision, as on the device */
        if (c[i] != want) {
            if (bad < 5)
                printf("vecadd: c[%u] = %g, expected %g\n", i, c[i], want);
            bad++;
        }
    }
    if (bad)
        printf("vecadd: %u of %u results wrong\n", bad, n);
    status = bad != 0;
out:
    if (bc) clReleaseMemObject(bc);
    if (bb) clReleaseMemObject(bb);
    if (ba) clReleaseMemObject(ba);
    if (k) clReleaseKernel(k);
    if (prog) clReleaseProgram(prog);
    if (q) clReleaseCommandQueue(q);
    if (ctx) clReleaseContext(ctx);
    return status;
}

int main(int argc, char **argv)
{
    cl_uint n = argc > 1 ? (cl_uint)strtoul(argv[1], NULL, 0) : 1u << 16;
    const char *want = argc > 2 ? argv[2] : NULL;
    cl_platform_id plats[16];
    cl_uint nplat = 0, ran = 0, failed = 0;

    if (n == 0) {
        fprintf(stderr, "usage: vecadd [N] [PLATFORM_SUBSTRING]\n");
        return 2;
    }
    float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    if (!a || !b || !c)
        return 2;
    for (cl_uint i = 0; i < n; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = 1000.0f - (float)(i % 1024) * 0.25f;
    }
    cl_int err = clGetPlatformIDs(16, plats, &nplat);
    if (err != CL_SUCCESS || nplat == 0) {
        printf("vecadd: no OpenCL platform (error %d)\nFAIL\n", (int)err);
        return 1;
    }
    for (cl_uint p = 0; p < nplat && p < 16; p++) {
        char pname[256] = "";
        clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof pname - 1, pname, NULL);
        if (want && !strstr(pname, want))
            continue;
        cl_device_id devs[16];
        cl_uint ndev = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 16, devs, &ndev) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < ndev && d < 16; d++) {
            char dname[256] = "";
            clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof dname - 1, dname, NULL);
            int r = run_device(devs[d], a, b, c, n);
            printf("vecadd: %s / %s: n=%u %s\n", pname, dname, n, r ? "FAIL" : "PASS");
            ran++;
            failed += r != 0;
        }
    }
    if (ran == 0)
        printf("vecadd: no OpenCL device found\n");
    printf("%s\n", ran && !failed ? "PASS" : "FAIL");
    free(a);
    free(b);
    free(c);
    return ran && !failed ? 0 : 1;
}
