/* roi_kernels: regions and kernel names (malibu's guest channel, malibu.h), the shape the report
 * test checks (tests/stats/roi_test.sh): three named kernels launched 1, 2 and 5 times inside
 * two nested regions, and a fourth launched before and after them:
 *
 *   two decoy announcements: one never enqueued (a geometry no launch has), one cancelled (the
 *   geometry of roi_outside): neither may name a job
 *   roi_outside x1
 *   region "outer":   roi_once x1 (global 4096, local 64)
 *     region "inner": roi_twice x2 (global 2048, local 128), roi_five x5 (global 1000, local
 *                     chosen by the driver), an annotation per launch
 *   stats dump "after-outer"
 *   roi_outside x1
 *
 * Names reach malibu through the kernel-naming layer (OPENCL_LAYERS=.../libcl_malibu_names.so);
 * every kernel's result is checked on the CPU.  Off malibu the calls do nothing and it still
 * checks its results. */
#include "common.h"
#include "malibu.h"

#include <stdlib.h>

static const char *src =
    "__kernel void roi_outside(__global uint *x) { uint i = get_global_id(0); x[i] = x[i] * 3u + 1u; }\n"
    "__kernel void roi_once(__global uint *x) { uint i = get_global_id(0); x[i] = x[i] ^ (i << 3); }\n"
    "__kernel void roi_twice(__global uint *x) {\n"
    "    uint i = get_global_id(0), v = x[i];\n"
    "    for (uint k = 0; k < (i & 7u); k++) v = v * 5u + k;\n"   /* divergent loop */
    "    x[i] = v;\n"
    "}\n"
    "__kernel void roi_five(__global uint *x, uint n) { uint i = get_global_id(0); if (i < n) x[i] += i; }\n";

#define N 4096

static void cpu_outside(uint32_t *x, size_t n) { for (size_t i = 0; i < n; i++) x[i] = x[i] * 3u + 1u; }
static void cpu_once(uint32_t *x, size_t n) { for (size_t i = 0; i < n; i++) x[i] ^= (uint32_t)i << 3; }
static void cpu_twice(uint32_t *x, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t v = x[i];
        for (uint32_t k = 0; k < (i & 7u); k++)
            v = v * 5u + k;
        x[i] = v;
    }
}
static void cpu_five(uint32_t *x, size_t n) { for (size_t i = 0; i < n; i++) x[i] += (uint32_t)i; }

static int run(app_t *a)
{
    uint32_t *host = malloc(N * sizeof(*host)), *want = malloc(N * sizeof(*want));
    if (!host || !want) {
        free(host);
        free(want);
        return 1;
    }
    app_rng r;
    app_rng_seed(&r, 36);
    for (size_t i = 0; i < N; i++)
        host[i] = want[i] = app_rand_u32(&r);
    cl_program prog = app_build(a, src, NULL);
    cl_kernel k_out = prog ? app_kernel(a, prog, "roi_outside") : NULL, k_once = prog ? app_kernel(a, prog, "roi_once") : NULL,
              k_twice = prog ? app_kernel(a, prog, "roi_twice") : NULL, k_five = prog ? app_kernel(a, prog, "roi_five") : NULL;
    cl_mem buf = app_buffer(a, CL_MEM_READ_WRITE, N * sizeof(*host), host);
    cl_uint n5 = 1000;
    int fail = !k_out || !k_once || !k_twice || !k_five || !buf;
    fail = fail || app_args(a, k_out, sizeof(cl_mem), &buf, (size_t)0) || app_args(a, k_once, sizeof(cl_mem), &buf, (size_t)0) ||
           app_args(a, k_twice, sizeof(cl_mem), &buf, (size_t)0) ||
           app_args(a, k_five, sizeof(cl_mem), &buf, sizeof(n5), &n5, (size_t)0);
    const size_t g_out = N, l_out = 64, g_once = 4096, l_once = 64, g_twice = 2048, l_twice = 128, g_five = 1000;
    long chan = malibu_available();
    app_log(a, "malibu channel: %s", chan ? "yes" : "no (not running on malibu: regions and names do nothing)");

    const uint64_t decoy_g = 12345, decoy_cg = g_out, decoy_cl = l_out;
    malibu_kernel_name("decoy_never_enqueued", 1, &decoy_g, NULL, 9);
    long ticket = malibu_kernel_name("decoy_cancelled", 1, &decoy_cg, &decoy_cl, 9);
    if (chan && malibu_kernel_cancel(ticket) != 0)
        fail = 1;
    fail = fail || app_run(a, k_out, 1, &g_out, &l_out, NULL);
    cpu_outside(want, g_out);
    malibu_roi_begin("outer");
    fail = fail || app_run(a, k_once, 1, &g_once, &l_once, NULL);
    cpu_once(want, g_once);
    malibu_roi_begin("inner");
    for (int i = 0; i < 2 && !fail; i++) {
        malibu_annotate("roi_twice launch %d", i + 1);
        fail = app_run(a, k_twice, 1, &g_twice, &l_twice, NULL);
        cpu_twice(want, g_twice);
    }
    for (int i = 0; i < 5 && !fail; i++) {
        malibu_annotate("roi_five launch %d", i + 1);
        fail = app_run(a, k_five, 1, &g_five, NULL, NULL);
        cpu_five(want, g_five);
    }
    long inner = malibu_roi_end(), outer = malibu_roi_end();
    long dump = malibu_stats_dump("after-outer");
    fail = fail || app_run(a, k_out, 1, &g_out, &l_out, NULL);
    cpu_outside(want, g_out);
    if (chan)
        app_log(a, "regions closed: inner %ld, outer %ld; dump %ld", inner, outer, dump);
    if (chan && (inner != 1 || outer != 0 || dump < 0))
        fail = 1;
    fail = fail || app_read(a, buf, N * sizeof(*host), host);
    if (!fail && app_check_u32(a, "x", host, want, N))
        fail = 1;
    free(host);
    free(want);
    return fail;
}

int main(int argc, char **argv)
{
    return app_main(argc, argv, "roi_kernels", "", run);
}
