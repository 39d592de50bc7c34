/* Two GPUs in one process, each with its own engine and parameters (devices/board_gpu.h): a G71
 * whose --timing models a 1 KiB 2-way L1 on two host threads with the interpreter, and a G52
 * with a 16 KiB L1 on one, with the process's back end.
 * The same vecadd job runs on the G71, then the G52, then the G71 again; each must give the right
 * sums, its own model's warps (4 lanes on the G71, 8 on the G52: 3 memory messages per warp), its
 * own timing configuration, and the G71's second job the L1 counters of its first (the G52's
 * engine in between changes nothing of it). */
#include <stdlib.h>

#include "mali_harness.h"

#include "../../devices/board_gpu.h"
#include "../../emu/gpu/compute.h"
#include "../../emu/gpu/gpu_timing.h"
#include "shaders.inc"

#define JOB (H_VA_BASE + 0x1000)
#define RSD (H_VA_BASE + 0x1100)
#define LSD (H_VA_BASE + 0x1140)
#define PUSH (H_VA_BASE + 0x1200)
#define CODE (H_VA_BASE + 0x4000)
#define BUF_A (H_VA_BASE + 0x10000)
#define BUF_B (H_VA_BASE + 0x50000)
#define BUF_C (H_VA_BASE + 0x90000)
#define N 4096u
#define LOCAL 16u

typedef struct {
    const char *model, *timing, *backend;
    unsigned threads, lanes;
    tm_config cfg;
    H h;                      /* the harness state of this GPU (h while it runs) */
} gpu_case;

/* vecadd c = a + b over N floats: local 16 = 2^4 threads, N / 16 = 2^8 workgroups (as
 * test_gpu_mali's build_job) */
static void build_vecadd(void)
{
    uint64_t pa = h_va2pa(JOB);
    memset(h_host(pa), 0, 192);
    h_job_header(JOB, JOB_TYPE_COMPUTE, 1, 0, 0, true, 0);
    unsigned lb = 4, gb = 8;
    h_wr32(pa + 32, (LOCAL - 1) | (N / LOCAL - 1) << lb);
    h_wr32(pa + 36, lb | lb << 5 | lb << 10 | (lb + gb) << 16 | (lb + gb) << 22 | lb << 28);
    h_wr32(pa + 64, 3);
    h_wr64(pa + 112, PUSH);
    h_wr64(pa + 120, RSD);
    h_wr64(pa + 176, LSD);
    memset(h_host(h_va2pa(RSD)), 0, 64);
    h_wr64(h_va2pa(RSD), CODE);
    h_wr32(h_va2pa(RSD) + 48, 0x7fc0u | 3u << 15);
    memset(h_host(h_va2pa(LSD)), 0, 32);
    h_wr32(h_va2pa(LSD) + 4, 31);
    h_wr64(h_va2pa(PUSH), BUF_A);
    h_wr64(h_va2pa(PUSH) + 8, BUF_B);
    h_wr64(h_va2pa(PUSH) + 16, BUF_C);
    memcpy(h_host(h_va2pa(CODE)), bi_shader_gpu_vecadd, sizeof(bi_shader_gpu_vecadd));
    for (unsigned i = 0; i < N; i++) {
        float a = (float)i * 1.5f, b = 0.25f - (float)i;
        memcpy(h_host(h_va2pa(BUF_A) + 4 * i), &a, 4);
        memcpy(h_host(h_va2pa(BUF_B) + 4 * i), &b, 4);
        h_wr32(h_va2pa(BUF_C) + 4 * i, 0xdeadbeef);
    }
}

static void gpu_up(gpu_case *g)
{
    char err[256];
    ck_assert_msg(tm_config_parse(&g->cfg, g->timing, err, sizeof err) == 0, "%s", err);
    h_setup_model(g->model);
    h_driver_init();
    BoardGpuParams p;
    board_gpu_params_default(&p);
    p.threads = g->threads;
    p.timing = &g->cfg;
    p.backend = g->backend;
    h_attach_engine_with(&p);
    memset(&g->cfg, 0xa5, sizeof g->cfg);   /* the engine keeps its own copy */
    h_map_arena(0);
    h_as_enable(0);
    g->h = h;
}

/* vecadd on g's GPU: the sums, then the engine's timing record of the job */
static gpu_timing_job run_on(gpu_case *g)
{
    h = g->h;
    build_vecadd();
    h_submit(0, JOB, 0, false);
    uint32_t raw = h_wait(JOB_IRQ_RAWSTAT, 0x10001u) & 0x10001u;
    wr(JOB_IRQ_CLEAR, raw);
    ck_assert_uint_eq(raw, 0x1);
    ck_assert_uint_eq(h_job_status(JOB), MALI_EXC_DONE);
    for (unsigned i = 0; i < N; i++) {
        float want = (float)i * 1.5f + (0.25f - (float)i), got;
        memcpy(&got, h_host(h_va2pa(BUF_C) + 4 * i), 4);
        ck_assert_msg(got == want, "%s: c[%u] = %a, want %a", g->model, i, got, want);
    }
    gpu_compute *e = board_gpu_compute(h.engine);
    gpu_timing_job jt;
    ck_assert_msg(gpu_compute_last_timing(e, &jt), "%s: caches not modelled", g->model);
    ck_assert_uint_eq(gpu_compute_threads(e), g->threads);
    g->h = h;
    return jt;
}

START_TEST(two_gpus_own_engines)
{
    gpu_case g71 = { .model = "g71", .timing = "preset=g71,gpu.l1.size=1K,gpu.l1.assoc=2", .threads = 2, .lanes = 4,
                      .backend = "interp" };
    gpu_case g52 = { .model = "g52", .timing = "preset=g52,gpu.l1.size=16K", .threads = 1, .lanes = 8 };
    gpu_up(&g71);
    gpu_up(&g52);

    gpu_timing_job a1 = run_on(&g71);
    gpu_timing_job b = run_on(&g52);
    gpu_timing_job a2 = run_on(&g71);

    /* each GPU's warps: three 32-bit messages per warp (a, b loads, c store) */
    ck_assert_uint_eq(a1.messages, 3 * N / g71.lanes);
    ck_assert_uint_eq(b.messages, 3 * N / g52.lanes);
    /* each engine models its own caches */
    const tm_config *ca = gpu_compute_timing_config(board_gpu_compute(g71.h.engine));
    const tm_config *cb = gpu_compute_timing_config(board_gpu_compute(g52.h.engine));
    ck_assert_ptr_nonnull(ca);
    ck_assert_ptr_nonnull(cb);
    ck_assert_uint_eq(ca->gpu_l1.size, 1024);
    ck_assert_uint_eq(ca->gpu_l1.assoc, 2);
    ck_assert_uint_eq(cb->gpu_l1.size, 16384);
    ck_assert_str_eq(ca->preset, "g71");
    ck_assert_str_eq(cb->preset, "g52");
    /* and the G71's engine after the G52's job: the same job, the same L1 traffic (its L2 and
     * DRAM are warm now, so their times differ) */
    ck_assert_uint_eq(a2.messages, a1.messages);
    ck_assert_uint_eq(a2.requests, a1.requests);
    ck_assert_uint_eq(a2.counts.l1.accesses, a1.counts.l1.accesses);
    ck_assert_uint_eq(a2.counts.l1.misses, a1.counts.l1.misses);

    h = g52.h;
    h_teardown();
    h = g71.h;
    h_teardown();
}
END_TEST

/* One job of the given type at JOB on slot 0 of the current GPU: its JS_STATUS. */
static uint32_t run_type(unsigned type)
{
    build_vecadd();
    h_job_header(JOB, type, 1, 0, 0, true, 0);
    h_submit(0, JOB, 0, false);
    uint32_t raw = h_wait(JOB_IRQ_RAWSTAT, 0x10001u) & 0x10001u;
    wr(JOB_IRQ_CLEAR, raw);
    return rd(JSR(0, JS_STATUS));
}

/* The board's engine takes the job types it has front ends for (job_type.h: COMPUTE, VERTEX /
 * GEOMETRY of compute shape, and the graphics ones: test_gpu_gfx); the device ends the others
 * (FUSED) with DATA_INVALID_FAULT, as without an engine, and they never reach the engine (which
 * would answer JOB_CONFIG_FAULT). */
START_TEST(job_types_by_front_end)
{
    gpu_case g = { .model = "g52", .timing = "preset=g52", .threads = 1, .lanes = 8 };
    gpu_up(&g);
    h = g.h;
    ck_assert_uint_eq(run_type(JOB_TYPE_VERTEX), MALI_EXC_DONE);
    ck_assert_uint_eq(run_type(JOB_TYPE_GEOMETRY), MALI_EXC_DONE);
    ck_assert_msg(run_type(JOB_TYPE_FUSED) == MALI_EXC_DATA_INVALID_FAULT, "status 0x%x", rd(JSR(0, JS_STATUS)));
    ck_assert_uint_eq(run_type(JOB_TYPE_COMPUTE), MALI_EXC_DONE);
    h_teardown();
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("gpu_boards");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, two_gpus_own_engines);
    tcase_add_test(tc, job_types_by_front_end);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
