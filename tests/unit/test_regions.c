/* Block formation (translate.c, native.c): loops inside one block, blocks that continue
 * through B.
 *
 * - a counted loop whose block branches to its own start: result and exact insn_count (the back
 *   edge adds the block's instructions each time round, as re-entering the block did);
 * - nested loops, the outer one closing through a B the block continues through;
 * - a loop whose body uses more guest registers than the register cache holds (the back edge
 *   writes back and reloads what the canonical loop-head state lacks), also one that shifts its
 *   state through the registers as SHA-256's rounds do (the back edge moves registers);
 * - a loop that rewrites an instruction of its own body each time round: the new instruction
 *   runs on the next iteration (the back edge leaves on exit_request, as the block boundary did);
 * - the same through a B: the store before the B makes the block leave at the B, so the
 *   instruction after it is fetched anew;
 * - a B into the block's own page continues the block; its instruction count covers both parts;
 * - a block goes on after a conditional branch: the compare's flags, stored only on the taken
 *   side (the next instruction sets all four again), are right where that side leaves.
 * The system-mode cases (an interrupt during a tight loop, the quantum) are in test_sysemu.c. */
#include "cpu_harness.h"
#include "native.h"

#define ADD_X0_X0(i) (0x91000000u | ((uint32_t)(i) & 0xfff) << 10) /* add x0, x0, #i */

/* Load code into a writable and executable code page (for code that rewrites itself), run it
 * until it stops with something other than an exit request. */
static CpuException run_rwx(CPUState *c, const uint32_t *code, size_t n)
{
    ck_assert_int_eq(guest_protect(HARNESS_CODE, 0x10000, GP_READ | GP_WRITE), 0);
    memcpy(g2h(HARNESS_CODE), code, n * 4);
    ck_assert_int_eq(guest_protect(HARNESS_CODE, 0x10000, GP_READ | GP_WRITE | GP_EXEC), 0);
    tbc_flush(c->tbc);
    c->exit_request = 0;
    c->pc = HARNESS_CODE;
    CpuException e;
    while ((e = cpu_exec(c)) == EXC_INTERRUPT)
        ;
    return e;
}

START_TEST(counted_loop)
{
    CPUState *c = harness_cpu();
    const uint32_t code[] = {
        0xd2800000u, /* mov x0, #0 */
        0xd2807d01u, /* mov x1, #1000 */
        0x91000c00u, /* 1: add x0, x0, #3 */
        0xf1000421u, /* subs x1, x1, #1 */
        0x54ffffc1u, /* b.ne 1b */
        BRK0,
    };
    ck_assert_int_eq(harness_run(c, code, 6), EXC_BRK);
    ck_assert_uint_eq(c->x[0], 3000);
    ck_assert_uint_eq(c->x[1], 0);
    ck_assert_uint_eq(c->pc, HARNESS_CODE + 20);
    /* the first block runs the first iteration (5 insns) and leaves by its b.ne; the loop
     * block goes on after its b.ne (add, subs, b.ne, brk): 3 insns a time round for the
     * other 999, the BRK once */
    ck_assert_uint_eq(c->insn_count, 5 + 999 * 3 + 1);
    TB *loop = tb_lookup(c->tbc, HARNESS_CODE + 8);
    ck_assert_ptr_nonnull(loop);
    if (native_backend() == BACKEND_NATIVE) { /* the portable one stops at conditional branches */
        ck_assert_uint_eq(loop->n_insns, 4);
        ck_assert_ptr_null(tb_lookup(c->tbc, HARNESS_CODE + 20)); /* no block of its own */
    } else {
        ck_assert_uint_eq(loop->n_insns, 3);
    }
}
END_TEST

START_TEST(nested_loops_through_b)
{
    CPUState *c = harness_cpu();
    const uint32_t code[] = {
        0xd2800000u, /* mov x0, #0 */
        0xd2800642u, /* mov x2, #50 */
        0xd2800501u, /* outer: mov x1, #40 */
        0x8b020000u, /* inner: add x0, x0, x2 */
        0xf1000421u, /* subs x1, x1, #1 */
        0x54ffffc1u, /* b.ne inner */
        0x14000002u, /* b 1f */
        BRK0 | 1u << 5, /* brk #1: never reached */
        0xf1000442u, /* 1: subs x2, x2, #1 */
        0x54ffff21u, /* b.ne outer */
        BRK0,
    };
    ck_assert_int_eq(harness_run(c, code, 11), EXC_BRK);
    ck_assert_uint_eq(c->syndrome, 0);
    ck_assert_uint_eq(c->x[0], 40 * (50 * 51 / 2));
    ck_assert_uint_eq(c->x[1], 0);
    ck_assert_uint_eq(c->x[2], 0);
    /* The inner loop's block goes on after its b.ne, through the B, to the outer b.ne and
     * the BRK: add, subs, b.ne, b, subs, b.ne, brk; the code after the inner b.ne and the
     * outer tail have no blocks of their own. */
    TB *inner = tb_lookup(c->tbc, HARNESS_CODE + 12);
    ck_assert_ptr_nonnull(inner);
    ck_assert_uint_eq(inner->n_insns, (native_backend() == BACKEND_NATIVE ? 7 : 3));
    if (native_backend() == BACKEND_NATIVE)
        ck_assert_ptr_null(tb_lookup(c->tbc, HARNESS_CODE + 24));
    ck_assert_ptr_null(tb_lookup(c->tbc, HARNESS_CODE + 32));
    /* 6 (first block) + 49 * 3 (inner loop blocks, first iteration in the block before)
     * + 50 * 39 * 3 (inner loop) + 50 * 3 (tail) + 49 * 4 (outer head to b.ne inner) + 1 */
    ck_assert_uint_eq(c->insn_count, 6 + 50 * 39 * 3 + 50 * 3 + 49 * 4 + 1);
}
END_TEST

START_TEST(loop_evicts_registers)
{
    CPUState *c = harness_cpu();
    /* x2..x15 each += its own number each time round, x1 counts: 15 guest registers in a
     * cache of 9 */
    uint32_t code[32];
    unsigned n = 0;
    code[n++] = 0xd2800c81u; /* mov x1, #100 */
    unsigned loop = n;
    for (unsigned r = 2; r <= 15; r++)
        code[n++] = 0x91000000u | r << 10 | r << 5 | r; /* add xr, xr, #r */
    code[n++] = 0xf1000421u; /* subs x1, x1, #1 */
    code[n] = 0x54000001u | ((uint32_t)(loop - n) & 0x7ffff) << 5; /* b.ne loop */
    n++;
    code[n++] = BRK0;
    for (unsigned r = 2; r <= 15; r++)
        c->x[r] = r * 1000;
    ck_assert_int_eq(harness_run(c, code, n), EXC_BRK);
    for (unsigned r = 2; r <= 15; r++)
        ck_assert_msg(c->x[r] == r * 1000 + 100 * r, "x%u = %llu, want %u", r, (unsigned long long)c->x[r],
                      r * 1000 + 100 * r);
    ck_assert_uint_eq(c->x[1], 0);
    ck_assert_uint_eq(c->insn_count, (n - 1) + 99 * (n - 2) + 1);
}
END_TEST

/* A64 encodings for loop_rotates_registers */
#define ADD_X(d, n, m) (0x8b000000u | (uint32_t)(m) << 16 | (uint32_t)(n) << 5 | (uint32_t)(d))
#define EOR_X(d, n, m) (0xca000000u | (uint32_t)(m) << 16 | (uint32_t)(n) << 5 | (uint32_t)(d))
#define MOV_X(d, m) (0xaa0003e0u | (uint32_t)(m) << 16 | (uint32_t)(d))
#define LDR_X(t, n) (0xf9400000u | (uint32_t)(n) << 5 | (uint32_t)(t))

START_TEST(loop_rotates_registers)
{
    CPUState *c = harness_cpu();
    /* A round like SHA-256's: a new value from a load and several state registers, then the
     * state x2..x13 shifts by one register (x13 = x12 ... x3 = x2, x2 = new); x1 counts, x14
     * and x15 are temporaries, x16 the data address: 16 guest registers in a cache of 9 or 10,
     * so the cache at the back edge holds registers in other host registers than at the loop
     * head (loop_reconcile's moves and cycles, loads and stores). */
    enum { ROUNDS = 300 };
    uint32_t code[40];
    unsigned n = 0;
    code[n++] = 0xd2802581u; /* mov x1, #300 */
    unsigned loop = n;
    code[n++] = LDR_X(14, 16);
    code[n++] = ADD_X(14, 14, 2);
    code[n++] = ADD_X(14, 14, 9);
    code[n++] = EOR_X(15, 5, 11);
    code[n++] = ADD_X(15, 15, 1);
    code[n++] = ADD_X(14, 14, 15);
    code[n++] = ADD_X(14, 14, 7);
    for (unsigned r = 13; r >= 3; r--)
        code[n++] = MOV_X(r, r - 1);
    code[n++] = MOV_X(2, 14);
    code[n++] = 0xf1000421u; /* subs x1, x1, #1 */
    code[n] = 0x54000001u | ((uint32_t)(loop - n) & 0x7ffff) << 5; /* b.ne loop */
    n++;
    code[n++] = BRK0;
    ck_assert_uint_le(n, sizeof code / sizeof code[0]);
    const uint64_t data = 0x0123456789abcdefull;
    memcpy(g2h(HARNESS_DATA), &data, 8);
    uint64_t s[16];
    for (unsigned r = 0; r < 16; r++)
        s[r] = c->x[r] = 0x1000ull * r + r * r * 0x9e3779b97f4a7c15ull;
    c->x[16] = HARNESS_DATA;
    ck_assert_int_eq(harness_run(c, code, n), EXC_BRK);
    for (uint64_t k = ROUNDS; k > 0; k--) { /* the same in C */
        uint64_t u = (s[5] ^ s[11]) + k;
        uint64_t t = data + s[2] + s[9] + u + s[7];
        for (unsigned r = 13; r >= 3; r--)
            s[r] = s[r - 1];
        s[2] = s[14] = t;
        s[15] = u;
    }
    for (unsigned r = 2; r <= 15; r++)
        ck_assert_msg(c->x[r] == s[r], "x%u = %#llx, want %#llx", r, (unsigned long long)c->x[r],
                      (unsigned long long)s[r]);
    ck_assert_uint_eq(c->x[1], 0);
    ck_assert_uint_eq(c->x[16], HARNESS_DATA);
    ck_assert_uint_eq(c->insn_count, (n - 1) + (ROUNDS - 1) * (n - 2) + 1);
}
END_TEST

START_TEST(loop_rewrites_its_body)
{
    CPUState *c = harness_cpu();
    /* Each time round, `patch` runs, then is rewritten to add x0, x0, #x1 (before x1 counts
     * down): the next iteration must run the new instruction. */
    const uint32_t code[] = {
        0xd2800000u, /* mov x0, #0 */
        0xd2800141u, /* mov x1, #10 */
        0x18000103u, /* ldr w3, base (+32) */
        0x10000024u, /* adr x4, patch (+4) */
        0x91000400u, /* patch: add x0, x0, #1 */
        0x2a012865u, /* orr w5, w3, w1, lsl #10 */
        0xb9000085u, /* str w5, [x4] */
        0xf1000421u, /* subs x1, x1, #1 */
        0x54ffff81u, /* b.ne patch */
        BRK0,
        0x91000000u, /* base: add x0, x0, #0 */
    };
    ck_assert_int_eq(run_rwx(c, code, 11), EXC_BRK);
    ck_assert_uint_eq(c->x[0], 1 + (10 + 9 + 8 + 7 + 6 + 5 + 4 + 3 + 2));
}
END_TEST

START_TEST(rewrite_behind_a_b)
{
    CPUState *c = harness_cpu();
    /* The instruction after the B is rewritten before the B each time round: the block, which
     * continues through the B, must leave there and fetch it anew (running the old one once
     * would add 100 and miss 10). */
    const uint32_t code[] = {
        0xd2800000u, /* mov x0, #0 */
        0xd2800141u, /* mov x1, #10 */
        0x18000143u, /* ldr w3, base (+40) */
        0x100000a4u, /* adr x4, patch (+20) */
        0x2a012865u, /* loop: orr w5, w3, w1, lsl #10 */
        0xb9000085u, /* str w5, [x4] */
        0x14000002u, /* b patch */
        BRK0 | 1u << 5, /* brk #1: never reached */
        0x91019000u, /* patch: add x0, x0, #100 (rewritten before it first runs) */
        0xf1000421u, /* subs x1, x1, #1 */
        0x54ffff41u, /* b.ne loop */
        BRK0,
        0x91000000u, /* base: add x0, x0, #0 */
    };
    CpuException e = run_rwx(c, code, 13);
    ck_assert_msg(e == EXC_BRK, "exception %d at pc %#llx x0 %llu", e, (unsigned long long)c->pc, (unsigned long long)c->x[0]);
    ck_assert_uint_eq(c->syndrome, 0);
    ck_assert_uint_eq(c->x[0], 10 + 9 + 8 + 7 + 6 + 5 + 4 + 3 + 2 + 1);
}
END_TEST

START_TEST(flags_stored_on_the_side_exit)
{
    const uint32_t by_register[] = {
        0xd28000a0u, /* mov x0, #5 */
        0xeb02001fu, /* cmp x0, x2 */
        0x54000060u, /* b.eq 1f */
        0xab000001u, /* adds x1, x0, x0 */
        BRK0 | 1u << 5, /* brk #1 */
        BRK0,        /* 1: brk #0 */
    };
    const uint32_t fused[] = {
        0xaa0203e0u, /* mov x0, x2 */
        0xf100141fu, /* cmp x0, #5 (fused with the b.eq) */
        0x54000060u, /* b.eq 1f */
        0xab000001u, /* adds x1, x0, x0 */
        BRK0 | 1u << 5, /* brk #1 */
        BRK0,        /* 1: brk #0 */
    };
    const uint32_t *code[2] = { by_register, fused };
    for (int k = 0; k < 2; k++) {
        for (uint64_t x2 = 5; x2 <= 6; x2++) {
            CPUState *c = harness_cpu();
            c->x[2] = x2;
            c->x[1] = 77;
            cpu_set_nzcv(c, 0x90000000u); /* N and V: stale values show */
            ck_assert_int_eq(harness_run(c, code[k], 6), EXC_BRK);
            /* taken: cmp 5, 5 gives Z and C; not taken: adds 5 + 5 clears all four */
            ck_assert_uint_eq(c->syndrome, (x2 == 5 ? 0 : 1));
            ck_assert_uint_eq(cpu_get_nzcv(c), (x2 == 5 ? 0x60000000u : 0));
            ck_assert_uint_eq(c->x[1], (x2 == 5 ? 77 : k == 0 ? 10 : 2 * x2)); /* adds x1, x0, x0 */
            /* the block went on after the b.eq: one block up to the first BRK */
            TB *tb = tb_lookup(c->tbc, HARNESS_CODE);
            ck_assert_ptr_nonnull(tb);
            ck_assert_uint_eq(tb->n_insns, (native_backend() == BACKEND_NATIVE ? 5 : 3));
        }
    }
}
END_TEST

START_TEST(block_continues_through_b)
{
    CPUState *c = harness_cpu();
    /* A forward B, then a backward B to a part not yet in the block, then the block's end. */
    const uint32_t code[] = {
        0xd2800020u,    /* 0: mov x0, #1 */
        0x14000005u,    /* 4: b 18 */
        0x91001000u,    /* 8: add x0, x0, #4 */
        BRK0,           /* c */
        BRK0 | 1u << 5, /* 10: never reached */
        BRK0 | 1u << 5, /* 14 */
        0x91000800u,    /* 18: add x0, x0, #2 */
        0x17fffffbu,    /* 1c: b 8 */
    };
    ck_assert_int_eq(harness_run(c, code, 8), EXC_BRK);
    ck_assert_uint_eq(c->syndrome, 0);
    ck_assert_uint_eq(c->x[0], 1 + 2 + 4);
    ck_assert_uint_eq(c->pc, HARNESS_CODE + 12);
    TB *tb = tb_lookup(c->tbc, HARNESS_CODE);
    ck_assert_ptr_nonnull(tb);
    ck_assert_uint_eq(tb->n_insns, 6); /* mov, b, add, b, add, brk */
    ck_assert_uint_eq(c->insn_count, 6);
    ck_assert_uint_eq(c->tbc->n_translated, 1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("regions");
    TCase *tc = tcase_create("regions");
    tcase_add_test(tc, counted_loop);
    tcase_add_test(tc, nested_loops_through_b);
    tcase_add_test(tc, loop_evicts_registers);
    tcase_add_test(tc, loop_rotates_registers);
    tcase_add_test(tc, loop_rewrites_its_body);
    tcase_add_test(tc, rewrite_behind_a_b);
    tcase_add_test(tc, block_continues_through_b);
    tcase_add_test(tc, flags_stored_on_the_side_exit);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
