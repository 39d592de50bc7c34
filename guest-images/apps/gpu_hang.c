/* gpu_hang: a kernel that never ends (one work-item spinning on a volatile global word), for
 * testing the driver's job timeout and GPU recovery (tests/mali/guest_test.sh).  Hardware and
 * the emulated Mali run it until panfrost's scheduler timeout stops the job and resets the GPU;
 * the program then prints how long clFinish took (guest clock) and exits 0.
 *
 *   gpu_hang            (RUSTICL_ENABLE=panfrost: the first GPU device)
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <time.h>

static const char *src =
    "__kernel void spin(__global volatile uint *p)\n"
    "{\n"
    "    while (p[0] == 0)\n"
    "        p[1]++;\n"
    "}\n";

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(void)
{
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
    if (!k || !b || clSetKernelArg(k, 0, sizeof b, &b) != CL_SUCCESS) {
        fprintf(stderr, "gpu_hang: kernel setup failed (%d)\n", e);
        return 1;
    }
    size_t one = 1;
    double t0 = now_ms();
    e = clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL);
    cl_int f = clFinish(q);
    printf("gpu_hang: enqueue %d, clFinish %d after %.0f ms\n", e, f, now_ms() - t0);
    return 0;
}
