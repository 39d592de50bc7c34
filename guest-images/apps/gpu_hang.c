/* gpu_hang: a kernel that never ends (one work-item spinning on a volatile global word), for
 * testing the driver's job timeout and GPU recovery (tests/mali/guest_test.sh).  Hardware and
 * the emulated Mali run it until panfrost's scheduler timeout stops the job and resets the GPU;
 * the program then prints how long clFinish took (guest clock) and exits 0.
 *
 * With ITERATIONS the work-item stops after that many turns instead: a job that is long in the
 * emulator's host time but short in modelled GPU time (the guest clock's lead limit is tested
 * with it), checked by the count it leaves: PASS (exit 0) or FAIL (exit 1, e.g. when the driver
 * timed the job out).
 *
 *   gpu_hang [ITERATIONS]      (RUSTICL_ENABLE=panfrost: the first GPU device)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const char *src =
    "__kernel void spin(__global volatile uint *p, uint n)\n"
    "{\n"
    "    while (p[0] == 0 && (n == 0 || p[1] < n))\n"
    "        p[1]++;\n"
    "}\n";

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    char *end = NULL;
    unsigned long turns = argc > 1 ? strtoul(argv[1], &end, 0) : 0;
    if (argc > 2 || (argc > 1 && (*end || !turns || turns > 0xFFFFFFFFul))) {
        fprintf(stderr, "usage: gpu_hang [ITERATIONS (1..4294967295)]\n");
        return 2;
    }
    cl_uint n = (cl_uint)turns;
    cl_platform_id pl[8];
    cl_uint np = 0;
    cl_device_id dev = NULL;
    cl_int e;
    if (clGetPlatformIDs(8, pl, &np) != CL_SUCCESS)
        np = 0;
    for (cl_uint i = 0; i < np && !dev; i++)
        if (clGetDeviceIDs(pl[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
            dev = NULL;
    if (!dev) {
        fprintf(stderr, "gpu_hang: no GPU device\n");
        return 1;
    }
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    cl_command_queue q = ctx ? clCreateCommandQueueWithProperties(ctx, dev, NULL, &e) : NULL;
    cl_program p = q ? clCreateProgramWithSource(ctx, 1, &src, NULL, &e) : NULL;
    if (!p || clBuildProgram(p, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
        fprintf(stderr, "gpu_hang: setup or build failed (%d)\n", e);
        return 1;
    }
    cl_kernel k = clCreateKernel(p, "spin", &e);
    cl_uint zero[2] = { 0, 0 };
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, zero, &e);
    if (!k || !b || clSetKernelArg(k, 0, sizeof b, &b) != CL_SUCCESS ||
        clSetKernelArg(k, 1, sizeof n, &n) != CL_SUCCESS) {
        fprintf(stderr, "gpu_hang: kernel setup failed (%d)\n", e);
        return 1;
    }
    size_t one = 1;
    double t0 = now_ms();
    e = clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL);
    cl_int f = clFinish(q);
    printf("gpu_hang: enqueue %d, clFinish %d after %.0f ms\n", e, f, now_ms() - t0);
    if (!n)
        return 0;
    cl_uint got[2] = { 0, 0 };
    cl_int r = clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
    int ok = e == CL_SUCCESS && f == CL_SUCCESS && r == CL_SUCCESS && got[1] == n;
    printf("gpu_hang: %u of %u turns: %s\n", got[1], n, ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
