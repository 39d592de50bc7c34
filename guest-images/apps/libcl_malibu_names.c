/* An OpenCL layer (the ICD loader's layer API: OPENCL_LAYERS=/usr/local/lib/libcl_malibu_names.so)
 * that names every enqueued kernel to malibu through the guest channel (malibu.h): the kernel's
 * function name, its global and local size and the queue, announced just before the launch is
 * enqueued (the driver may submit the job at once, from another thread) and withdrawn when the
 * enqueue fails.  malibu matches announced launches to the GPU jobs they become by their
 * geometry (docs/guest-channel.md), so unmodified programs report by kernel name.  Off malibu
 * (no channel) the layer passes everything through untouched. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cl_layer_common.h"

#include "malibu.h"


/* the queue's number: 1, 2, ... in the order the layer first sees them (0: more than 64) */
#define MAX_QUEUES 64
static cl_command_queue queues[MAX_QUEUES];

static unsigned queue_number(cl_command_queue q)
{
    for (unsigned i = 0; i < MAX_QUEUES; i++) {
        cl_command_queue cur = __atomic_load_n(&queues[i], __ATOMIC_ACQUIRE);
        if (cur == q)
            return i + 1;
        if (!cur) {
            cl_command_queue expected = NULL;
            if (__atomic_compare_exchange_n(&queues[i], &expected, q, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ||
                expected == q)
                return i + 1;
        }
    }
    return 0;
}

static cl_int CL_API_CALL named_ndrange(cl_command_queue queue, cl_kernel kernel, cl_uint dims, const size_t *offset,
                                        const size_t *global, const size_t *local, cl_uint nwait,
                                        const cl_event *wait, cl_event *event)
{
    long ticket = -1;
    if (dims >= 1 && dims <= 3 && global && malibu_available()) {
        char name[256] = "?";
        if (target->clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL) != CL_SUCCESS)
            strcpy(name, "?");
        name[sizeof name - 1] = 0;
        uint64_t g[3] = { 0 }, l[3] = { 0 };
        for (cl_uint i = 0; i < dims; i++) {
            g[i] = global[i];
            l[i] = local ? local[i] : 0;
        }
        ticket = malibu_kernel_name(name, dims, g, local ? l : NULL, queue_number(queue));
    }
    cl_int err = target->clEnqueueNDRangeKernel(queue, kernel, dims, offset, global, local, nwait, wait, event);
    if (err != CL_SUCCESS && ticket >= 0)
        malibu_kernel_cancel(ticket);
    return err;
}

static cl_int CL_API_CALL named_task(cl_command_queue queue, cl_kernel kernel, cl_uint nwait, const cl_event *wait,
                                     cl_event *event)
{
    const size_t one = 1;
    return named_ndrange(queue, kernel, 1, NULL, &one, &one, nwait, wait, event);
}

/* the entries this layer intercepts (cl_layer_common.h's clInitLayer) */
static void layer_install(struct _cl_icd_dispatch *d)
{
    d->clEnqueueNDRangeKernel = named_ndrange;
    d->clEnqueueTask = named_task;
}
