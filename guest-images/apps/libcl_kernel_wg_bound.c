/* An OpenCL layer (the ICD loader's layer API: OPENCL_LAYERS=/usr/local/lib/libcl_kernel_wg_bound.so)
 * that applies the OpenCL bound on CL_KERNEL_WORK_GROUP_SIZE which Mesa's rusticl on panfrost
 * misses: a kernel's maximum work-group size may not exceed what the device can launch,
 * CL_DEVICE_MAX_WORK_GROUP_SIZE and, for the one-dimensional launches programs build from it,
 * CL_DEVICE_MAX_WORK_ITEM_SIZES[0].  rusticl reports a kernel's size as panfrost computes it from
 * the GPU's thread limits (pan_compute_max_thread_count: 384 on G71 and G52), while panfrost caps
 * the device at 256 (max_block_size, max_threads_per_block), so clEnqueueNDRangeKernel refuses the
 * kernel's own size with CL_INVALID_WORK_ITEM_SIZE (hashcat stops there: tests/mali/hashcat_test.sh,
 * docs/testing.md).  Every value this layer lowers is logged once to stderr, so a Mesa that fixes the
 * bound shows up as a run without that line. */
#include <stdio.h>

#include "cl_layer_common.h"


/* the device a kernel query without one means: its program's only device */
static cl_device_id kernel_device(cl_kernel kernel)
{
    cl_program program;
    cl_device_id device;
    if (target->clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof program, &program, NULL) ||
        target->clGetProgramInfo(program, CL_PROGRAM_DEVICES, sizeof device, &device, NULL))
        return NULL;
    return device;
}

static cl_int CL_API_CALL bounded_work_group_info(cl_kernel kernel, cl_device_id device,
                                                  cl_kernel_work_group_info name, size_t size,
                                                  void *value, size_t *size_ret)
{
    cl_int err = target->clGetKernelWorkGroupInfo(kernel, device, name, size, value, size_ret);
    if (err != CL_SUCCESS || name != CL_KERNEL_WORK_GROUP_SIZE || !value || size < sizeof(size_t))
        return err;
    cl_device_id dev = device ? device : kernel_device(kernel);
    size_t group_max, items[3];
    if (!dev ||
        target->clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof group_max, &group_max, NULL) ||
        target->clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL))
        return err;
    size_t bound = group_max < items[0] ? group_max : items[0];
    size_t *reported = value;
    if (*reported > bound) {
        static size_t logged;
        if (logged != *reported) {
            char kname[128] = "?";
            target->clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof kname, kname, NULL);
            kname[sizeof kname - 1] = 0;
            fprintf(stderr, "cl_kernel_wg_bound: kernel %s: CL_KERNEL_WORK_GROUP_SIZE %zu above the "
                    "device's %zu, reporting %zu\n", kname, *reported, bound, bound);
            logged = *reported;
        }
        *reported = bound;
    }
    return err;
}

/* the entries this layer intercepts (cl_layer_common.h's clInitLayer) */
static void layer_install(struct _cl_icd_dispatch *d)
{
    d->clGetKernelWorkGroupInfo = bounded_work_group_info;
}
