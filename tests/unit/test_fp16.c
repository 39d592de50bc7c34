/* FEAT_FP16 instructions through the translator (--cpu max), for the forms the fp16 diff class
 * cannot check against qemu-aarch64 7.2: scalar FCVTZS/FCVTZU Hd, Hn, #fbits (qemu writes a 32-bit
 * result; the Arm ARM writes V[d, 16], so the rest of the register is zero). */
#include <check.h>
#include "cpu_harness.h"

#define RUN(c, code) harness_run((c), (code), sizeof(code) / sizeof((code)[0]))

static CPUState *setup(uint16_t h1)
{
    CPUState *c = harness_cpu();
    cpu_model = CPU_MODEL_MAX;
    c->v[0].d[0] = c->v[0].d[1] = ~0ull;
    c->v[1].d[0] = h1;
    return c;
}

START_TEST(scalar_fixed_point_h_is_16_bits)
{
    const uint32_t fcvtzs[] = { 0x5f1cfc20u /* fcvtzs h0, h1, #4 */, BRK0 };
    const uint32_t fcvtzu[] = { 0x7f1cfc20u /* fcvtzu h0, h1, #4 */, BRK0 };
    CPUState *c = setup(0xbe00); /* -1.5 * 2^4 = -24 */
    ck_assert_int_eq(RUN(c, fcvtzs), EXC_BRK);
    ck_assert_uint_eq(c->v[0].d[0], 0xffe8);
    ck_assert_uint_eq(c->v[0].d[1], 0);
    ck_assert_uint_eq(c->fp.fpsr, 0);
    c = setup(0xbe00); /* negative: 0, IOC */
    ck_assert_int_eq(RUN(c, fcvtzu), EXC_BRK);
    ck_assert_uint_eq(c->v[0].d[0], 0);
    ck_assert_uint_eq(c->fp.fpsr, FPSR_IOC);
    c = setup(0x7bff); /* 65504 * 16 saturates the 16-bit lane */
    ck_assert_int_eq(RUN(c, fcvtzs), EXC_BRK);
    ck_assert_uint_eq(c->v[0].d[0], 0x7fff);
    ck_assert_uint_eq(c->fp.fpsr, FPSR_IOC);
    c = setup(0x3e01); /* 1.50097656 * 16 = 24.015625: truncated, inexact */
    ck_assert_int_eq(RUN(c, fcvtzu), EXC_BRK);
    ck_assert_uint_eq(c->v[0].d[0], 24);
    ck_assert_uint_eq(c->v[0].d[1], 0);
    ck_assert_uint_eq(c->fp.fpsr, FPSR_IXC);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fp16");
    TCase *tc = tcase_create("fp16");
    tcase_add_test(tc, scalar_fixed_point_h_is_16_bits);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
