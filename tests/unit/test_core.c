/* Core engine: translation, block execution, exceptions, faults. */
#include "cpu_harness.h"
#include "native.h"

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

/* Blocks run from their ops until their compile_after-th run, then natively (native.h,
 * native_tier_up): a loop calling a function with a branch in it, whose blocks reach that
 * run at different times, so that compiled blocks exit to ones still run from their ops and
 * back.  Every setting computes the same registers and counts the same instructions. */
START_TEST(blocks_compiled_at_their_nth_run)
{
    static const uint32_t code[] = {
        0xd2800000u, /* mov x0, #0 */
        0xd28003c1u, /* mov x1, #30 */
        0xd2800002u, /* mov x2, #0 */
        0x94000005u, /* loop: bl f */
        0x8b030000u, /* add x0, x0, x3 */
        0xf1000421u, /* subs x1, x1, #1 */
        0x54ffffa1u, /* b.ne loop */
        0xd4200000u, /* brk #0 */
        0x91001443u, /* f: add x3, x2, #5 */
        0x91000442u, /* add x2, x2, #1 */
        0x36000042u, /* tbz w2, #0, even */
        0x91019063u, /* add x3, x3, #100 */
        0xd65f03c0u, /* even: ret */
    };
    uint64_t expect = 0;
    for (uint64_t k = 1; k <= 30; k++)
        expect += k - 1 + 5 + (k & 1 ? 100 : 0);
    static const unsigned after[] = { 1, 2, 3, 7, 1000000 };
    uint64_t insns = 0, compiled[5];
    for (unsigned i = 0; i < 5; i++) {
        native_set_compile_after(after[i]);
        CPUState *c = harness_cpu();
        uint64_t before = c->tbc->n_compiled;
        ck_assert_int_eq(harness_run(c, code, sizeof code / sizeof code[0]), EXC_BRK);
        ck_assert_uint_eq(c->x[0], expect);
        ck_assert_uint_eq(c->x[1], 0);
        ck_assert_uint_eq(c->x[2], 30);
        ck_assert_uint_eq(c->pc, HARNESS_CODE + 0x1c);
        if (i == 0)
            insns = c->insn_count;
        ck_assert_uint_eq(c->insn_count, insns);
        compiled[i] = c->tbc->n_compiled - before;
    }
    native_set_compile_after(1);
    if (native_backend() == BACKEND_NATIVE && MALIBU_HAVE_NATIVE) {
        ck_assert_uint_gt(compiled[0], 0);
        ck_assert_uint_gt(compiled[1], 0);           /* the loop's blocks run 30 times */
        ck_assert_uint_lt(compiled[3], compiled[0]); /* the start and the exit run once */
        ck_assert_uint_eq(compiled[4], 0);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("core");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, add_imm_then_brk);
    tcase_add_test(tc, undefined_instruction);
    tcase_add_test(tc, fetch_from_unmapped_page);
    tcase_add_test(tc, blocks_compiled_at_their_nth_run);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
