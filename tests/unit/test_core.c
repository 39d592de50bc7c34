/* Core engine: translation, block execution, exceptions, faults. */
#include "cpu_harness.h"

START_TEST(add_imm_then_brk)
{
    CPUState *c = harness_cpu();
    c->x[1] = 40;
    const uint32_t code[] = {
        0x91000820u, /* add x0, x1, #2 */
        0x11400421u, /* add w1, w1, #1, lsl #12 */
        0xd1000421u, /* sub x1, x1, #1 */
        0xd4200020u, /* brk #1 */
    };
    ck_assert_int_eq(harness_run(c, code, 4), EXC_BRK);
    ck_assert_uint_eq(c->x[0], 42);
    ck_assert_uint_eq(c->x[1], 40 + 4096 - 1);
    ck_assert_uint_eq(c->syndrome, 1);
    ck_assert_uint_eq(c->pc, HARNESS_CODE + 12);
}
END_TEST

START_TEST(undefined_instruction)
{
    CPUState *c = harness_cpu();
    const uint32_t code[] = { 0x91000820u, 0x00000000u /* udf #0 */ };
    ck_assert_int_eq(harness_run(c, code, 2), EXC_UDEF);
    ck_assert_uint_eq(c->pc, HARNESS_CODE + 4);
    ck_assert_uint_eq(c->syndrome, 0);
}
END_TEST

START_TEST(fetch_from_unmapped_page)
{
    CPUState *c = harness_cpu();
    c->pc = 0x7000000000ull;
    ck_assert_int_eq(cpu_exec(c), EXC_INSN_ABORT);
    ck_assert_uint_eq(c->fault_addr, 0x7000000000ull);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("core");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, add_imm_then_brk);
    tcase_add_test(tc, undefined_instruction);
    tcase_add_test(tc, fetch_from_unmapped_page);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
