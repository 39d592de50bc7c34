/* kernel_chain: two long chains of dependent kernels queued at once, and a checkpoint of the
 * board taken while the GPU works through them (malibu --checkpoint-save; docs/checkpoint.md
 * "The GPU").
 *
 *   kernel_chain [-d DEVICE] [KERNELS [N [STEPS]]]      (default 8 kernels, N = 4096, 8192 steps)
 *
 * Kernel k advances each of N uints STEPS times through x = x * 1664525 + 1013904223 + k.  Two
 * in-order queues each run the KERNELS launches on their own buffer, all queued without waiting;
 * clFlush hands them to the driver (two independent streams: the GPU's job slot holds one job
 * running and the other stream's next one latched), and once the GPU has raised a few job
 * interrupts `malibu_checkpoint()` (malibu.h) saves the board with kernels done, running and
 * queued.  Then clFinish, and both buffers are checked exactly against the CPU.  Prints
 * "checkpoint R" (0: the saving run, 1: resumed from the file, -95: no --checkpoint-save;
 * elsewhere what the channel says) and the buffers' checksum.  The GPU's counts cover the chains
 * alone: stats-reset before the first launch, stats-dump "chain" after clFinish (the channel does
 * nothing off malibu). */
#include "common.h"
#include "malibu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *src =
    "__kernel void lcg_steps(__global uint *x, uint k, uint steps)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    uint v = x[i];\n"
    "    for (uint s = 0; s < steps; s++)\n"
    "        v = v * 1664525u + 1013904223u + k;\n"
    "    x[i] = v;\n"
    "}\n";

#define STREAMS 2    /* in-order queues, each its own chain of kernels on its own buffer */
#define AFTER_IRQS 4 /* job interrupts before the checkpoint: a few of the chains' jobs */

/* The guest kernel's count of the GPU's job interrupts (panfrost-job in /proc/interrupts, every
 * CPU's column), or -1 without one (another OpenCL device, another OS). */
static long job_irqs(void)
{
    FILE *f = fopen("/proc/interrupts", "r");
    char line[512];
    long total = -1;
    while (f && fgets(line, sizeof line, f)) {
        char *p = strchr(line, ':');
        if (!p || !strstr(line, "panfrost-job"))
            continue;
        total = 0;
        for (p++;;) {
            char *end;
            long v = strtol(p, &end, 10);
            if (end == p)
                break;
            total += v;
            p = end;
        }
        break;
    }
    if (f)
        fclose(f);
    return total;
}

static int run(app_t *a)
{
    cl_uint kernels = (cl_uint)app_arg(a, 0, 8), n = (cl_uint)app_arg(a, 1, 4096);
    cl_uint steps = (cl_uint)app_arg(a, 2, 8192);
    size_t bytes = (size_t)n * sizeof(cl_uint);
    cl_uint *x = malloc(bytes), *want = malloc(bytes), *init = malloc(bytes);
    app_rng r;
    app_rng_seed(&r, 7);
    for (cl_uint i = 0; i < n; i++)
        init[i] = want[i] = app_rand_u32(&r);
    /* kernel k is the affine map x -> mul * x + add (mod 2^32), composed step by step */
    for (cl_uint k = 0; k < kernels; k++) {
        uint32_t mul = 1, add = 0;
        for (cl_uint s = 0; s < steps; s++) {
            mul *= 1664525u;
            add = add * 1664525u + 1013904223u + k;
        }
        for (cl_uint i = 0; i < n; i++)
            want[i] = want[i] * mul + add;
    }
    cl_program p = app_build(a, src, NULL);
    cl_kernel kn = app_kernel(a, p, "lcg_steps");
    cl_int qerr = CL_SUCCESS;
    cl_command_queue q[STREAMS] = { a->queue };
    for (int s = 1; s < STREAMS; s++)
        q[s] = clCreateCommandQueueWithProperties(a->ctx, a->device, NULL, &qerr);
    cl_mem bx[STREAMS];
    for (int s = 0; s < STREAMS; s++)
        bx[s] = app_buffer(a, CL_MEM_READ_WRITE, bytes, init);
    int rc = 1;
    if (!kn || qerr != CL_SUCCESS || !bx[0] || !bx[STREAMS - 1]) {
        if (qerr != CL_SUCCESS)
            app_cl_fail(a, qerr, "clCreateCommandQueueWithProperties");
        goto out;
    }
    size_t wg = app_wg(a, kn, 64), global = app_round_up(n, wg);
    if (global != n) {
        app_log(a, "N must be a multiple of the work-group size %zu", wg);
        goto out;
    }
    long irq0 = job_irqs();
    malibu_stats_reset();
    for (cl_uint k = 0; k < kernels; k++)
        for (int s = 0; s < STREAMS; s++) {
            cl_int err = clSetKernelArg(kn, 0, sizeof bx[s], &bx[s]);
            err = err ? err : clSetKernelArg(kn, 1, sizeof k, &k);
            err = err ? err : clSetKernelArg(kn, 2, sizeof steps, &steps);
            err = err ? err : clEnqueueNDRangeKernel(q[s], kn, 1, NULL, &global, &wg, 0, NULL, NULL);
            if (err) {
                app_cl_fail(a, err, "launch");
                goto out;
            }
        }
    for (int s = 0; s < STREAMS; s++) {
        cl_int fe = clFlush(q[s]);
        if (fe != CL_SUCCESS) {
            app_cl_fail(a, fe, "clFlush");
            goto out;
        }
    }
    /* rusticl completes the flushed launches together: the GPU's interrupts tell when a few
     * have ended and the driver has the others (busy: a sleeping CPU wakes when the GPU rests) */
    for (long i = 0; irq0 >= 0 && i < 1000000 && job_irqs() < irq0 + AFTER_IRQS; i++)
        ;
    app_log(a, "checkpoint %ld", malibu_checkpoint());
    for (int s = 0; s < STREAMS; s++)
        if (clFinish(q[s]) != CL_SUCCESS)
            goto out;
    malibu_stats_dump("chain");
    uint32_t sum = 0;
    size_t wrong = 0;
    for (int s = 0; s < STREAMS; s++) {
        memset(x, 0, bytes);
        if (app_read(a, bx[s], bytes, x))
            goto out;
        for (cl_uint i = 0; i < n; i++)
            sum = sum * 31 + x[i];
        wrong += app_check_u32(a, s ? "x1" : "x0", x, want, n);
    }
    app_log(a, "%d queues x %u kernels x %u work-items x %u steps, sum 0x%08x", STREAMS, kernels, n, steps, sum);
    rc = wrong != 0;
out:
    for (int s = 1; s < STREAMS; s++)
        if (q[s])
            clReleaseCommandQueue(q[s]);
    free(x), free(want), free(init);
    return rc;
}

int main(int argc, char **argv)
{
    return app_main(argc, argv, "kernel_chain", "[KERNELS [N [STEPS]]]", run);
}
