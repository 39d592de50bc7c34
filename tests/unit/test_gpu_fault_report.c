/* GPU fault reports (emu/system/gpu_trace.c) on the Mali device through its harness: a provoked
 * MMU fault (a WRITE_VALUE job whose target is not mapped) and a job fault (an unknown job type)
 * each produce one decoded block on stderr: the chain, the fault, the page-table walk, the
 * descriptor word that points at the faulting page, and the failing job decoded. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "mali_harness.h"
#include "../../emu/system/gpu_trace.h"

#define J(n) (H_VA_BASE + 0x1000 + 0x40 * (n))
#define UNMAPPED 0x30000040ull /* no level-2 table entry covers it */

static uint32_t wait_slot(unsigned js)
{
    uint32_t raw = h_wait(JOB_IRQ_RAWSTAT, 0x10001u << js) & (0x10001u << js);
    wr(JOB_IRQ_CLEAR, raw);
    return raw;
}

/* stderr into a temporary file while fn runs; returns what was written (malloc'd) */
static int saved_fd = -1;
static FILE *capture;

static void capture_start(void)
{
    fflush(stderr);
    capture = tmpfile();
    ck_assert_ptr_nonnull(capture);
    saved_fd = dup(2);
    dup2(fileno(capture), 2);
}

static char *capture_end(void)
{
    fflush(stderr);
    dup2(saved_fd, 2);
    close(saved_fd);
    long n = ftell(capture);
    char *text = calloc(1, (size_t)n + 1);
    rewind(capture);
    ck_assert_uint_eq(fread(text, 1, (size_t)n, capture), (size_t)n);
    fclose(capture);
    fputs(text, stderr); /* keep it visible in the test log */
    return text;
}

static void expect(const char *text, const char *want)
{
    ck_assert_msg(strstr(text, want), "missing from the report: %s", want);
}

/* The engine with the fault report as its tap, as build/malibu's board gets it (gpu_trace_taps). */
static void attach_with_fault_report(void)
{
    BoardGpuParams p;
    board_gpu_params_default(&p);
    gpu_trace_taps(false, &p.tap_chain, &p.tap_fault);
    h_attach_engine_with(&p);
}

START_TEST(mmu_fault_report)
{
    h_setup();
    attach_with_fault_report(); /* installs the observers, as the board does */
    h_driver_init();
    h_map_arena(1);
    h_as_enable(1);
    h_write_value(J(0), 1, 0, 0, 0, UNMAPPED, WRITE_VALUE_IMM32, 0x1234);
    capture_start();
    h_submit(2, J(0), 1, false);
    ck_assert(h_wait_stalled(2)); /* the report comes before the MMU interrupt */
    char *text = capture_end();
    ck_assert(rd(MMU_IRQ_RAWSTAT) & 2);
    wr(MMU_IRQ_CLEAR, 0x20002);
    h_as_disable(1);
    ck_assert_uint_eq(wait_slot(2), 0x40000);
    expect(text, "gpu: GPU MMU fault: job slot 2, address space 1, chain from job 0x2001000, job 0x2001000\n");
    expect(text, "gpu:   translation_fault_level_2 (0xc2) on a write at GPU VA 0x30000040\n");
    expect(text, "gpu:   page-table walk of 0x30000040 in address space 1");
    expect(text, "gpu:     level 0: entry 0 at PA 0x");
    expect(text, "(table)\ngpu:     level 1: entry 0 at PA 0x");
    expect(text, "gpu:     level 2: entry 384 at PA 0x");
    expect(text, "= 0x0000000000000000 (invalid)\ngpu:     -> translation_fault_level_2 (0xc2)\n");
    expect(text, "gpu:   write value 0 @ 0x2001020, 64-bit word at byte 0 = 0x30000040 points into the faulting page");
    expect(text, "gpu:   the failing job, decoded:\n");
    expect(text, "gpu: job header 0 @ 0x2001000 (32 bytes):\n");
    expect(text, "gpu:     type = immediate_32\n");
    /* one block: exactly one report */
    ck_assert_ptr_null(strstr(strstr(text, "GPU MMU fault") + 1, "GPU MMU fault"));
    free(text);
    h_teardown();
}
END_TEST

START_TEST(job_fault_report)
{
    h_setup();
    attach_with_fault_report(); /* installs the observers, as the board does */
    h_driver_init();
    h_map_arena(0);
    h_as_enable(0);
    h_job_header(J(0), 0x7F & 0xF, 1, 0, 0, false, 0); /* type 15: not a job type */
    capture_start();
    h_submit(1, J(0), 0, false);
    ck_assert_uint_eq(wait_slot(1), 0x20000);
    char *text = capture_end();
    ck_assert_uint_eq(rd(JSR(1, JS_STATUS)), MALI_EXC_JOB_CONFIG_FAULT);
    expect(text, "gpu: GPU job fault: job slot 1, address space 0, chain from job 0x2001000, job 0x2001000\n");
    expect(text, "gpu:   the job ended with job_config_fault (0x40), fault address 0x2001000\n");
    expect(text, "gpu:     -> PA 0x");
    expect(text, "gpu:   the faulting address is byte 0 of job header 0 @ 0x2001000\n");
    expect(text, "gpu:   type = unknown (15)\n");
    ck_assert_ptr_null(strstr(text, "word at byte 8")); /* the written-back fault pointer is no lead */
    free(text);
    h_teardown();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gpu_fault_report");
    TCase *tc = tcase_create("report");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, mmu_fault_report);
    tcase_add_test(tc, job_fault_report);
    suite_add_tcase(s, tc);
    return dev_run_suite(s);
}
