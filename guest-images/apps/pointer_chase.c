/* pointer_chase: the microbenchmark that recovers cache sizes, line size and associativity on
 * real GPUs: one work-item follows a chain of indices laid out with a fixed stride through an
 * array, so every load depends on the previous one and the time per load is the latency of the
 * level the array fits in.  For each array size it runs the chain for STEPS and 2 x STEPS loads
 * (the median of REPS runs each) and prints the difference per load, which cancels the launch
 * overhead and the cold start:
 *
 *   pointer_chase [-d DEVICE] [STRIDE STEPS REPS SIZE...]  (sizes in bytes, k/M suffixes;
 *                                              default 64 100000 3 4K 16K 64K 256K 1M)
 *   pointer_chase: chase size=B stride=S ns_per_load=T
 *
 * Checked: the index the chain ends at, against the CPU.  Under malibu with --timing the knees
 * of ns_per_load sit at the configured cache sizes (tests/timing/chase_test.py). */
#include "common.h"
#include <stdlib.h>
#include <string.h>

static const char *src =
    "__kernel void chase(__global const uint *next, uint steps, __global uint *out)\n"
    "{\n"
    "    uint p = 0;\n"
    "    for (uint i = 0; i < steps; i++)\n"
    "        p = next[p];\n"
    "    out[0] = p;\n"
    "}\n";

static int timer_index(app_t *a, const char *name)
{
    for (int i = 0; i < a->ntimers; i++)
        if (!strcmp(a->timers[i].name, name))
            return i;
    return -1;
}

/* the median time of reps runs of `steps` loads (robust against a run the guest's other work
 * slowed down or sped up); *end = where the chain ended */
static int median_ns(app_t *a, cl_kernel k, cl_mem next, cl_mem out, cl_uint steps, unsigned reps, cl_ulong *ns,
                     cl_uint *end)
{
    size_t one = 1;
    cl_ulong t[16];
    for (unsigned r = 0; r < reps; r++) {
        int ti = timer_index(a, "chase");
        cl_ulong before = ti >= 0 ? a->timers[ti].ns : 0;
        if (app_args(a, k, sizeof next, &next, sizeof steps, &steps, sizeof out, &out, (size_t)0) ||
            app_run(a, k, 1, &one, &one, "chase"))
            return 1;
        ti = timer_index(a, "chase");
        if (ti < 0)
            return 1;
        cl_ulong d = a->timers[ti].ns - before;
        if (a->verbose)
            app_log(a, "run %u: %u loads in %llu ns", r, steps, (unsigned long long)d);
        unsigned i = r;
        while (i > 0 && t[i - 1] > d)   /* insertion sort */
            t[i] = t[i - 1], i--;
        t[i] = d;
    }
    *ns = t[reps / 2];
    return app_read(a, out, sizeof *end, end);
}

static int run(app_t *a)
{
    cl_uint stride = (cl_uint)app_arg(a, 0, 64), steps = (cl_uint)app_arg(a, 1, 100000);
    unsigned reps = (unsigned)app_arg(a, 2, 3);
    static const char *const default_sizes[] = { "4K", "16K", "64K", "256K", "1M" };
    if (stride < 4 || stride % 4 || !steps || !reps || reps > 16) {
        app_log(a, "usage: STRIDE (multiple of 4) STEPS REPS (1..16) SIZE...");
        return 1;
    }
    cl_program p = app_build(a, src, NULL);
    cl_kernel k = app_kernel(a, p, "chase");
    cl_mem out = app_buffer(a, CL_MEM_WRITE_ONLY, sizeof(cl_uint), NULL);
    if (!k || !out)
        return 1;
    int bad = 0, nsizes = a->argc > 3 ? a->argc - 3 : 5;
    for (int i = 0; i < nsizes; i++) {
        size_t bytes = a->argc > 3 ? app_arg(a, i + 3, 0) : strtoul(default_sizes[i], NULL, 10) << (i < 4 ? 10 : 20);
        size_t n = bytes / stride, words = bytes / 4, s = stride / 4;
        if (n < 2) {
            app_log(a, "size %zu: fewer than two elements at stride %u", bytes, stride);
            return 1;
        }
        cl_uint *next = calloc(words, sizeof(cl_uint));
        for (size_t j = 0; j < n; j++)               /* element j -> element j + 1, wrapping */
            next[j * s] = (cl_uint)(((j + 1) % n) * s);
        cl_mem buf = app_buffer(a, CL_MEM_READ_ONLY, words * sizeof(cl_uint), next);
        free(next);
        if (!buf)
            return 1;
        cl_ulong t1, t2;
        cl_uint e1, e2;
        if (median_ns(a, k, buf, out, steps, reps, &t1, &e1) || median_ns(a, k, buf, out, 2 * steps, reps, &t2, &e2))
            return 1;
        cl_uint want1 = (cl_uint)((steps % n) * s), want2 = (cl_uint)(((2ull * steps) % n) * s);
        if (e1 != want1 || e2 != want2) {
            app_log(a, "size %zu: chain ended at %u / %u, want %u / %u", bytes, e1, e2, want1, want2);
            bad++;
        }
        double per = t2 > t1 ? (double)(t2 - t1) / steps : 0.0;
        app_log(a, "chase size=%zu stride=%u ns_per_load=%.3f", bytes, stride, per);
    }
    return bad != 0;
}

int main(int argc, char **argv)
{
    return app_main(argc, argv, "pointer_chase", "[STRIDE STEPS REPS SIZE...]", run);
}
