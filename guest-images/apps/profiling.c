/* profiling: OpenCL event profiling on a profiling queue.  One kernel (an integer LCG, ITERS steps
 * per work-item, checked exactly against the CPU) runs with N work-items and then with 4N; for
 * each run the event's times must be ordered, QUEUED <= SUBMIT <= START <= END (QUEUED and SUBMIT
 * are taken on the CPU, START and END on the device: the check needs both clocks to agree), and
 * the 4N run's END - START must be between 2.5x and 6x the N run's (same work per item; the
 * shorter of two runs of each).
 *
 *   profiling [-d DEVICE] [N] [ITERS]          (default N = 16384, ITERS = 4096)
 *
 * The device times include what the driver puts between the timestamps (rusticl on panfrost:
 * the kernel and its two timestamps are three job chains, submitted one after the other), so
 * the default work is large enough to dominate those gaps on an emulated CPU: on the emulated
 * Mali-G71 the N run is ~14 ms of modelled GPU time (~1.5 s of host time).
 *
 * A device without profiling queues (rusticl on panfrost before kernel driver 1.3:
 * CL_INVALID_QUEUE_PROPERTIES) is not an error of the device: the sample says so and exits with
 * status 77 (SKIP), so tests tell "unsupported" from "wrong".
 */
#include "common.h"
#include <stdlib.h>
#include <string.h>

static const char *src =
    "__kernel void lcg(__global uint *out, uint iters, uint n)\n"
    "{\n"
    "    uint i = (uint)get_global_id(0);\n"
    "    if (i >= n)\n"
    "        return;\n"
    "    uint x = i;\n"
    "    for (uint k = 0; k < iters; k++)\n"
    "        x = x * 1664525u + 1013904223u;\n"
    "    out[i] = x;\n"
    "}\n";

#define RATIO_MIN 2.5
#define RATIO_MAX 6.0

static const char *err_name(cl_int e)
{
    return e == CL_INVALID_QUEUE_PROPERTIES ? "CL_INVALID_QUEUE_PROPERTIES" : "error";
}

/* Why the device has no profiling queue, from the device's own answer. */
static int skip_reason(app_t *a)
{
    cl_command_queue_properties qp = 0;
    clGetDeviceInfo(a->device, CL_DEVICE_QUEUE_PROPERTIES, sizeof qp, &qp, NULL);
    cl_queue_properties props[] = { CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0 };
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueueWithProperties(a->ctx, a->device, props, &err);
    if (q) {
        clReleaseCommandQueue(q);
        if (getenv("MALIBU_CL_NOPROFILE"))
            app_log(a, "SKIP: profiling turned off (MALIBU_CL_NOPROFILE)");
        else
            app_log(a, "profiling queue created here but not by the common helper");
        return getenv("MALIBU_CL_NOPROFILE") ? APP_SKIP : 1;
    }
    app_log(a, "SKIP: the device offers no profiling queues (CL_DEVICE_QUEUE_PROPERTIES 0x%llx; "
            "clCreateCommandQueueWithProperties(CL_QUEUE_PROFILING_ENABLE): %d %s)",
            (unsigned long long)qp, err, err_name(err));
    return APP_SKIP;
}

typedef struct { cl_ulong queued, submit, start, end; } times_t;

static int launch(app_t *a, cl_kernel k, cl_mem out, cl_uint n, cl_uint iters, size_t wg,
                  times_t *t)
{
    size_t global = app_round_up(n, wg);
    if (app_args(a, k, sizeof out, &out, sizeof iters, &iters, sizeof n, &n, (size_t)0))
        return 1;
    cl_event ev = NULL;
    APP_CL(a, clEnqueueNDRangeKernel(a->queue, k, 1, NULL, &global, &wg, 0, NULL, &ev));
    cl_int err = clWaitForEvents(1, &ev);
    cl_int st = CL_SUCCESS;
    if (err == CL_SUCCESS)
        err = clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    if (err == CL_SUCCESS && st < 0)
        err = st;
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_QUEUED, sizeof t->queued, &t->queued, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_SUBMIT, sizeof t->submit, &t->submit, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t->start, &t->start, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t->end, &t->end, NULL);
    clReleaseEvent(ev);
    if (err != CL_SUCCESS)
        return app_cl_fail(a, err, "lcg (profiling info)");
    return 0;
}

static int check_order(app_t *a, const char *what, const times_t *t)
{
    app_log(a, "%s: queued=%llu submit=%llu start=%llu end=%llu (submit-queued %lld ns, "
            "start-submit %lld ns, end-start %llu ns)", what, (unsigned long long)t->queued,
            (unsigned long long)t->submit, (unsigned long long)t->start,
            (unsigned long long)t->end, (long long)(t->submit - t->queued),
            (long long)(t->start - t->submit), (unsigned long long)(t->end - t->start));
    int bad = 0;
    if (!(t->queued <= t->submit)) {
        app_log(a, "%s: QUEUED > SUBMIT", what);
        bad = 1;
    }
    if (!(t->submit <= t->start)) {
        app_log(a, "%s: SUBMIT > START (device and host clocks disagree)", what);
        bad = 1;
    }
    if (!(t->start <= t->end)) {
        app_log(a, "%s: START > END", what);
        bad = 1;
    }
    if (t->end == t->start) {
        app_log(a, "%s: END == START (the device clock did not move)", what);
        bad = 1;
    }
    return bad;
}

static int run(app_t *a)
{
    if (!a->profiling)
        return skip_reason(a);
    cl_uint n = (cl_uint)app_arg(a, 0, 16384), iters = (cl_uint)app_arg(a, 1, 4096);
    cl_uint n4 = 4 * n;
    uint32_t *got = malloc((size_t)n4 * sizeof *got), *want = malloc((size_t)n4 * sizeof *want);
    for (cl_uint i = 0; i < n4; i++) {
        uint32_t x = i;
        for (cl_uint k = 0; k < iters; k++)
            x = x * 1664525u + 1013904223u;
        want[i] = x;
    }
    cl_program p = app_build(a, src, NULL);
    cl_kernel k = app_kernel(a, p, "lcg");
    cl_mem out = app_buffer(a, CL_MEM_WRITE_ONLY, (size_t)n4 * sizeof *got, NULL);
    int rc = 1;
    times_t warm, t1[2], t4[2];
    if (!k || !out)
        goto out;
    size_t wg = app_wg(a, k, 64);
    app_log(a, "n=%u and %u work-items, %u steps each, work-group %zu", n, n4, iters, wg);
    /* a first launch of the N kernel pays for compilation and first-use costs (on the emulated
     * CPU, several ms between the chains): it is checked, not compared; then each size twice,
     * the shorter time counts (the driver's submission gaps vary from run to run) */
    if (launch(a, k, out, n, iters, wg, &warm))
        goto out;
    int bad = check_order(a, "warm-up", &warm);
    for (int r = 0; r < 2; r++) {
        if (launch(a, k, out, n, iters, wg, &t1[r]) || launch(a, k, out, n4, iters, wg, &t4[r]))
            goto out;
        bad += check_order(a, "N", &t1[r]) + check_order(a, "4N", &t4[r]);
    }
    if (app_read(a, out, (size_t)n4 * sizeof *got, got))
        goto out;
    bad += app_check_u32(a, "out", got, want, n4) != 0;
    cl_ulong d1 = t1[0].end - t1[0].start, d4 = t4[0].end - t4[0].start;
    if (t1[1].end - t1[1].start < d1)
        d1 = t1[1].end - t1[1].start;
    if (t4[1].end - t4[1].start < d4)
        d4 = t4[1].end - t4[1].start;
    double ratio = d1 > 0 ? (double)d4 / (double)d1 : 0;
    app_log(a, "time N=%llu ns 4N=%llu ns ratio=%.2f (want %.1f..%.1f)", (unsigned long long)d1,
            (unsigned long long)d4, ratio, RATIO_MIN, RATIO_MAX);
    if (!(ratio >= RATIO_MIN && ratio <= RATIO_MAX)) {
        app_log(a, "4N / N time ratio %.2f outside %.1f..%.1f", ratio, RATIO_MIN, RATIO_MAX);
        bad++;
    }
    rc = bad != 0;
out:
    free(got), free(want);
    return rc;
}

int main(int argc, char **argv)
{
    return app_main(argc, argv, "profiling", "[N] [ITERS]", run);
}
