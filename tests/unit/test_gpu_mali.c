/* The shader-core engine behind the Mali device: compute jobs submitted through the job-slot
 * registers the way panfrost does, descriptors and buffers in GPU memory behind the GPU MMU
 * (tests/mali/mali_harness.h page tables), results and the job header checked; an unmapped
 * output page stalls the job on an MMU fault, and the driver's "unhandled fault" path (AS
 * disabled) ends it with the translation-fault status.  GPU_BENCH=1: throughput through the MMU. */
#include <stdlib.h>

#include "mali_harness.h"

#include "../../devices/board_gpu.h"
#include "../../emu/gpu/compute.h"
#include "shaders.inc"

#define JOB (H_VA_BASE + 0x1000)
#define RSD (H_VA_BASE + 0x1100)
#define LSD (H_VA_BASE + 0x1140)
#define PUSH (H_VA_BASE + 0x1200)
#define CODE (H_VA_BASE + 0x4000)
#define BUF_A (H_VA_BASE + 0x10000)
#define BUF_B (H_VA_BASE + 0x50000)
#define BUF_C (H_VA_BASE + 0x90000)

static uint32_t wait_slot(unsigned js)
{
    uint32_t raw = h_wait(JOB_IRQ_RAWSTAT, 0x10001u << js) & (0x10001u << js);
    wr(JOB_IRQ_CLEAR, raw);
    return raw;
}

static unsigned log2ceil(unsigned v)
{
    unsigned n = 0;
    while ((1u << n) < v)
        n++;
    return n;
}

/* 1-D compute job: groups x local threads, push uniforms u0..u2 = a, b, c */
static void build_job(unsigned local, unsigned groups, uint64_t c)
{
    uint64_t pa = h_va2pa(JOB);
    memset(h_host(pa), 0, 192);
    h_job_header(JOB, JOB_TYPE_COMPUTE, 1, 0, 0, true, 0);
    unsigned lb = log2ceil(local);
    h_wr32(pa + 32, (local - 1) | (groups - 1) << lb);
    h_wr32(pa + 36, lb | lb << 5 | lb << 10 | (lb + log2ceil(groups)) << 16 | (lb + log2ceil(groups)) << 22 |
                    lb << 28);
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
    h_wr64(h_va2pa(PUSH) + 16, c);
    memcpy(h_host(h_va2pa(CODE)), bi_shader_gpu_vecadd, sizeof(bi_shader_gpu_vecadd));
}

static void fill(unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        float a = (float)i * 1.5f, b = 0.25f - (float)i;
        memcpy(h_host(h_va2pa(BUF_A) + 4 * i), &a, 4);
        memcpy(h_host(h_va2pa(BUF_B) + 4 * i), &b, 4);
        h_wr32(h_va2pa(BUF_C) + 4 * i, 0xdeadbeef);
    }
}

static void check(unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        float want = (float)i * 1.5f + (0.25f - (float)i), got;
        memcpy(&got, h_host(h_va2pa(BUF_C) + 4 * i), 4);
        ck_assert_msg(got == want, "c[%u] = %a, want %a", i, got, want);
    }
}

static void vecadd_on(const char *model)
{
    h_setup_model(model);
    h_driver_init();
    h_attach_engine();
    h_map_arena(0);
    h_as_enable(0);
    const unsigned n = 4096;
    fill(n);
    build_job(16, n / 16, BUF_C);
    h_submit(0, JOB, 0, false);
    ck_assert_uint_eq(wait_slot(0), 0x1);
    ck_assert_uint_eq(rd(JSR(0, JS_STATUS)), MALI_EXC_DONE);
    ck_assert_uint_eq(h_job_status(JOB), MALI_EXC_DONE);
    check(n);
    h_teardown();
}

START_TEST(vecadd_g71) { vecadd_on("g71"); }
END_TEST
START_TEST(vecadd_g52) { vecadd_on("g52"); }
END_TEST

START_TEST(fault_unmapped_output)
{
    h_setup_model("g72");
    h_driver_init();
    h_attach_engine();
    h_map_arena(1);
    h_as_enable(1);
    const unsigned n = 256;
    fill(n);
    build_job(16, n / 16, 0x30000000);       /* c: not mapped */
    h_submit(1, JOB, 1, false);
    ck_assert(h_wait_stalled(1));
    ck_assert_uint_eq(rd(ASR(1, AS_FAULTSTATUS)) & 0xf8, 0xc0);
    ck_assert_uint_eq(rd(ASR(1, AS_FAULTSTATUS)) >> 8 & 3, MALI_ACCESS_WRITE);
    ck_assert_uint_eq(rd(ASR(1, AS_FAULTADDRESS_LO)) & ~0xfffu, 0x30000000);
    /* growable-heap path: map the page and flush, the job goes on */
    uint64_t pa = h_alloc_page();
    for (unsigned p = 0; p < 1; p++)
        h_map(1, 0x30000000 + 4096ull * p, pa, H_PTE_RW);
    wr(MMU_IRQ_CLEAR, 1u << 1);
    h_flush_range(1, 0x30000000, 4096);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    ck_assert_uint_eq(h_job_status(JOB), MALI_EXC_DONE);
    for (unsigned i = 0; i < n; i++) {
        float want = (float)i * 1.5f + (0.25f - (float)i), got;
        memcpy(&got, h_host(pa + 4 * i), 4);
        ck_assert(got == want);
    }
    /* unhandled fault: the driver disables the AS, the job ends with the fault status */
    build_job(16, n / 16, 0x31000000);
    h_submit(1, JOB, 1, false);
    ck_assert(h_wait_stalled(1));
    wr(MMU_IRQ_CLEAR, 0x10001u << 1);
    h_as_disable(1);
    ck_assert_uint_eq(wait_slot(1), 0x20000);
    ck_assert_uint_eq(rd(JSR(1, JS_STATUS)) & 0xf8, 0xc0);
    h_teardown();
}
END_TEST

/* a shader that never ends: a hard stop from the driver (its job timeout) ends the job */
START_TEST(hard_stop_endless_shader)
{
    h_setup_model("g52");
    h_driver_init();
    h_attach_engine();
    h_map_arena(0);
    h_as_enable(0);
    build_job(8, 4, BUF_C);
    memcpy(h_host(h_va2pa(CODE)), bi_shader_gpu_spin, sizeof(bi_shader_gpu_spin));
    h_submit(0, JOB, 0, false);
    dev_sleep_ms(50);
    ck_assert_uint_eq(rd(JOB_IRQ_RAWSTAT) & 0x10001, 0);     /* still running */
    wr(JSR(0, JS_COMMAND), JS_CMD_HARD_STOP);
    ck_assert_uint_eq(wait_slot(0), 0x10000);
    ck_assert_uint_eq(rd(JSR(0, JS_STATUS)), MALI_EXC_TERMINATED);
    /* the GPU goes on: the vector add runs */
    fill(64);
    build_job(16, 4, BUF_C);
    h_submit(0, JOB, 0, false);
    ck_assert_uint_eq(wait_slot(0), 0x1);
    check(64);
    h_teardown();
}
END_TEST

START_TEST(bench_through_mmu)
{
    if (!getenv("GPU_BENCH"))
        return;
    h_setup_model("g52");
    h_driver_init();
    h_attach_engine();
    h_map_arena(0);
    h_as_enable(0);
    const unsigned n = 65536;
    fill(n);
    build_job(64, n / 64, BUF_C);
    gpu_compute_stats s0, s1;
    gpu_compute_get_stats(board_gpu_compute(h.engine), &s0);
    struct timespec c0, c1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    uint64_t t0 = h_now_ms();
    for (int k = 0; k < 10; k++) {
        h_submit(0, JOB, 0, false);
        ck_assert_uint_eq(wait_slot(0), 0x1);
    }
    uint64_t t1 = h_now_ms();
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    double cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9;
    gpu_compute_get_stats(board_gpu_compute(h.engine), &s1);
    check(n);
    double li = (double)(s1.lane_instrs - s0.lane_instrs);
    printf("gpu bench (vecadd through the GPU MMU, %u host threads): %.0f lane-instructions in %llu ms = %.1f M/s"
           " (%.3f s CPU: %.1f M per CPU-second)\n", gpu_compute_threads(board_gpu_compute(h.engine)), li,
           (unsigned long long)(t1 - t0), li / (double)(t1 - t0 + !(t1 - t0)) / 1e3, cpu, li / cpu / 1e6);
    h_teardown();
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("gpu_mali");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, vecadd_g71);
    tcase_add_test(tc, vecadd_g52);
    tcase_add_test(tc, fault_unmapped_output);
    tcase_add_test(tc, hard_stop_endless_shader);
    tcase_add_test(tc, bench_through_mmu);
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
