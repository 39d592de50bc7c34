/* Block formation (translate.c, native.c): loops inside one block, blocks that continue
 * through B.
 *
 * - a counted loop whose block branches to its own start: result and exact insn_count (the back
 *   edge adds the block's instructions each time round, as re-entering the block did);
 * - nested loops, the outer one closing through a B the block continues through; loops whose
 *   head is inside a block (op_loop_head labels) with exact counts, not before an instruction
 *   folded into the op before it;
 * - a loop whose body uses more guest registers than the register cache holds (the back edge
 *   writes back and reloads what the canonical loop-head state lacks), also one that shifts its
 *   state through the registers as SHA-256's rounds do (the back edge moves registers);
 * - a loop that rewrites an instruction of its own body each time round: the new instruction
 *   runs on the next iteration (the back edge leaves on exit_request, as the block boundary did);
 * - the same through a B: the store before the B makes the block leave at the B, so the
 *   instruction after it is fetched anew;
 * - a B into the block's own page continues the block; its instruction count covers both parts;
 * - a block goes on after a conditional branch: the compare's flags, stored only on the taken
 *   side (the next instruction sets all four again), are right where that side leaves;
 * - a loop whose back edge goes round without storing NZCV (user mode, ne_loop_stale_edge):
 *   leaving there on exit_request stores the compare's NZCV, and after the loop's last round
 *   a side exit has them;
 * - guest registers cached in rcx and rdx (user mode) survive every kind of op, compared with
 *   the portable back end.
 * The system-mode cases (an interrupt during a tight loop, the quantum) are in test_sysemu.c. */
#include <stdio.h>
#include "cpu_harness.h"
#include "native.h"
#include "native_simd.h"

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
    /* 5 insns to the first b.ne, 3 a time round for the other 999, the BRK once */
    ck_assert_uint_eq(c->insn_count, 5 + 999 * 3 + 1);
    if (native_backend() == BACKEND_NATIVE) {
        /* one block, going on after its b.ne (the portable back end stops at conditional
         * branches): the loop is a label inside it (op_loop_head), the b.ne its back edge */
        TB *all = tb_lookup(c->tbc, HARNESS_CODE);
        ck_assert_ptr_nonnull(all);
        ck_assert_uint_eq(all->n_insns, 6);
        ck_assert_ptr_null(tb_lookup(c->tbc, HARNESS_CODE + 8));
        ck_assert_ptr_null(tb_lookup(c->tbc, HARNESS_CODE + 20));
    } else { /* the first block leaves by its b.ne into the loop's */
        TB *loop = tb_lookup(c->tbc, HARNESS_CODE + 8);
        ck_assert_ptr_nonnull(loop);
        ck_assert_uint_eq(loop->n_insns, 3);
    }
}
END_TEST

START_TEST(loop_head_folded_into_the_op_before)
{
    CPUState *c = harness_cpu();
    /* The loop's first instruction, the ADD, is folded into the MOVZ's op (one constant): it has
     * no op of its own to put a label before, so the back edge must not go to the SUBS (x0
     * would stay 2) but leave for a block of its own at the ADD. */
    const uint32_t code[] = {
        0xd2807d01u, /* mov x1, #1000 */
        0x52800020u, /* mov w0, #1 */
        0x11000400u, /* 1: add w0, w0, #1 */
        0xf1000421u, /* subs x1, x1, #1 */
        0x54ffffc1u, /* b.ne 1b */
        BRK0,
    };
    ck_assert_int_eq(harness_run(c, code, 6), EXC_BRK);
    ck_assert_uint_eq(c->x[0], 1001);
    ck_assert_uint_eq(c->x[1], 0);
    ck_assert_uint_eq(c->insn_count, 2 + 1000 * 3 + 1);
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
    if (native_backend() == BACKEND_NATIVE) {
        /* One block goes on after the inner b.ne, through the B, to the outer b.ne and the
         * BRK (mov, mov, mov, add, subs, b.ne, b, subs, b.ne, brk): both loops are labels
         * inside it, the b.ne's their back edges; no other block. */
        TB *all = tb_lookup(c->tbc, HARNESS_CODE);
        ck_assert_ptr_nonnull(all);
        ck_assert_uint_eq(all->n_insns, 10);
        ck_assert_ptr_null(tb_lookup(c->tbc, HARNESS_CODE + 8));
        ck_assert_ptr_null(tb_lookup(c->tbc, HARNESS_CODE + 12));
        ck_assert_ptr_null(tb_lookup(c->tbc, HARNESS_CODE + 24));
    } else {
        TB *inner = tb_lookup(c->tbc, HARNESS_CODE + 12);
        ck_assert_ptr_nonnull(inner);
        ck_assert_uint_eq(inner->n_insns, 3);
    }
    ck_assert_ptr_null(tb_lookup(c->tbc, HARNESS_CODE + 32));
    /* 6 (to the first inner b.ne) + 50 * 39 * 3 (inner loop) + 50 * 3 (tail) + 49 * 4 (outer
     * head to the first inner b.ne) + 1: the same count whichever blocks run it */
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
     * and x15 are temporaries, x16 the data address: 16 guest registers in a cache of 9 or 12,
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

/* Probes for cached_rcx_rdx_survive_ops: one instruction of each kind the native back end
 * emits (and the forms whose emitters use rcx or rdx as scratch: XZR operands, shifted and
 * inverted operands, register offsets, pairs, FP, divides, ...), or a branch skipping one add. */
static const struct { uint32_t insn[3]; unsigned n; const char *name; } scratch_probes[] = {
    { { 0x8b040c62u }, 1, "add x2, x3, x4, lsl #3" },
    { { 0x4b841462u }, 1, "sub w2, w3, w4, asr #5" },
    { { 0xcac41c62u }, 1, "eor x2, x3, x4, ror #7" },
    { { 0x8a240062u }, 1, "bic x2, x3, x4" },
    { { 0x0a641c62u }, 1, "bic w2, w3, w4, lsr #7" },
    { { 0xeae41c62u }, 1, "bics x2, x3, x4, ror #7" },
    { { 0x6a240043u }, 1, "bics w3, w2, w4" },
    { { 0x8a230043u }, 1, "bic x3, x2, x3" },
    { { 0x4ae47c62u }, 1, "eon w2, w3, w4, ror #31" },
    { { 0x13830c62u }, 1, "ror w2, w3, #3" },
    { { 0x93c2fc42u }, 1, "ror x2, x2, #63" },
    { { 0x2a240862u }, 1, "orn w2, w3, w4, lsl #2" },
    { { 0x8b030043u }, 1, "add x3, x2, x3" },
    { { 0xcac40c44u }, 1, "eor x4, x2, x4, ror #3" },
    { { 0xab040062u }, 1, "adds x2, x3, x4" },
    { { 0xf2781c62u }, 1, "ands x2, x3, #0xff00" },
    { { 0x72010462u }, 1, "ands w2, w3, #0x80000001" },
    { { 0x91048c62u }, 1, "add x2, x3, #0x123" },
    { { 0x71001c62u }, 1, "subs w2, w3, #0x7" },
    { { 0xb2507c62u }, 1, "orr x2, x3, #0xffff00000000ffff" },
    { { 0x93c33462u }, 1, "ror x2, x3, #13" },
    { { 0x93c41462u }, 1, "extr x2, x3, x4, #5" },
    { { 0x13842444u }, 1, "extr w4, w2, w4, #9" },
    { { 0x9a840062u }, 1, "csel x2, x3, x4, eq" },
    { { 0x9a848462u }, 1, "csinc x2, x3, x4, hi" },
    { { 0x5a84a062u }, 1, "csinv w2, w3, w4, ge" },
    { { 0xda84b462u }, 1, "csneg x2, x3, x4, lt" },
    { { 0xfa431044u }, 1, "ccmp x2, x3, #0x4, ne" },
    { { 0x3a45a842u }, 1, "ccmn w2, #0x5, #0x2, ge" },
    { { 0xfa47c841u }, 1, "ccmp x2, #0x7, #0x1, gt" },
    { { 0x9b041462u }, 1, "madd x2, x3, x4, x5" },
    { { 0x1b049462u }, 1, "msub w2, w3, w4, w5" },
    { { 0x9b047c62u }, 1, "mul x2, x3, x4" },
    { { 0x9ac42062u }, 1, "lsl x2, x3, x4" },
    { { 0x1ac42c62u }, 1, "ror w2, w3, w4" },
    { { 0xd349fc62u }, 1, "lsr x2, x3, #9" },
    { { 0x13037c62u }, 1, "asr w2, w3, #3" },
    { { 0xd3442c62u }, 1, "ubfx x2, x3, #4, #8" },
    { { 0x131d1062u }, 1, "sbfiz w2, w3, #3, #5" },
    { { 0xb37c1c62u }, 1, "bfi x2, x3, #4, #8" },
    { { 0x93407c62u }, 1, "sxtw x2, w3" },
    { { 0x53001c62u }, 1, "uxtb w2, w3" },
    { { 0xdac00c62u }, 1, "rev x2, x3" },
    { { 0x5ac00462u }, 1, "rev16 w2, w3" },
    { { 0xdac01062u }, 1, "clz x2, x3" },
    { { 0xdac00062u }, 1, "rbit x2, x3" },
    { { 0x5ac01062u }, 1, "clz w2, w3" },
    { { 0xdac00062u, 0xdac01042u }, 2, "rbit x2, x3; clz x2, x2" },
    { { 0x5ac00062u, 0x5ac01042u }, 2, "rbit w2, w3; clz w2, w2" },
    { { 0xdac0007fu, 0xdac013e2u }, 2, "rbit xzr, x3; clz x2, xzr" },
    { { 0xf2a24682u }, 1, "movk x2, #0x1234, lsl #16" },
    { { 0xaa0303e2u }, 1, "mov x2, x3" },
    { { 0xd28acf02u }, 1, "mov x2, #0x5678" },
    { { 0x92800022u }, 1, "mov x2, #0xfffffffffffffffe" },
    { { 0x9ac40862u }, 1, "udiv x2, x3, x4" },
    { { 0x1ac40c62u }, 1, "sdiv w2, w3, w4" },
    { { 0x9bc47c62u }, 1, "umulh x2, x3, x4" },
    { { 0x9b247c62u }, 1, "smull x2, w3, w4" },
    { { 0x9a040062u }, 1, "adc x2, x3, x4" },
    { { 0x7a040062u }, 1, "sbcs w2, w3, w4" },
    { { 0x8b24c862u }, 1, "add x2, x3, w4, sxtw #2" },
    { { 0xcb240062u }, 1, "sub x2, x3, w4, uxtb" },
    { { 0xf9400562u }, 1, "ldr x2, [x11, #8]" },
    { { 0xb86a7962u }, 1, "ldr w2, [x11, x10, lsl #2]" },
    { { 0xf86a5962u }, 1, "ldr x2, [x11, w10, uxtw #3]" },
    { { 0xb8aad962u }, 1, "ldrsw x2, [x11, w10, sxtw #2]" },
    { { 0x386a6962u }, 1, "ldrb w2, [x11, x10]" },
    { { 0xf8410d62u }, 1, "ldr x2, [x11, #16]!" },
    { { 0xf8408562u }, 1, "ldr x2, [x11], #8" },
    { { 0xf9000563u }, 1, "str x3, [x11, #8]" },
    { { 0x39000563u }, 1, "strb w3, [x11, #1]" },
    { { 0x782a7963u }, 1, "strh w3, [x11, x10, lsl #1]" },
    { { 0xb82a5963u }, 1, "str w3, [x11, w10, uxtw #2]" },
    { { 0xf81f8d63u }, 1, "str x3, [x11, #-8]!" },
    { { 0xa9011163u }, 1, "stp x3, x4, [x11, #16]" },
    { { 0x28811163u }, 1, "stp w3, w4, [x11], #8" },
    { { 0xa9410d62u }, 1, "ldp x2, x3, [x11, #16]" },
    { { 0x29401162u }, 1, "ldp w2, w4, [x11]" },
    { { 0xf9000d7fu }, 1, "str xzr, [x11, #24]" },
    { { 0xa9020d7fu }, 1, "stp xzr, x3, [x11, #32]" },
    { { 0xfd400560u }, 1, "ldr d0, [x11, #8]" },
    { { 0x3cea6961u }, 1, "ldr q1, [x11, x10]" },
    { { 0xfd001560u }, 1, "str d0, [x11, #40]" },
    { { 0x3d800d61u }, 1, "str q1, [x11, #48]" },
    { { 0x6d040560u }, 1, "stp d0, d1, [x11, #64]" },
    { { 0xad020560u }, 1, "stp q0, q1, [x11, #64]" },
    { { 0x2d400560u }, 1, "ldp s0, s1, [x11]" },
    { { 0x9e670060u }, 1, "fmov d0, x3" },
    { { 0x1e602800u }, 1, "fadd d0, d0, d0" },
    { { 0x9e660002u }, 1, "fmov x2, d0" },
    { { 0x9e620061u }, 1, "scvtf d1, x3" },
    { { 0x9e780022u }, 1, "fcvtzs x2, d1" },
    { { 0x1e612000u }, 1, "fcmp d0, d1" },
    { { 0xdac00862u }, 1, "rev32 x2, x3" },
    { { 0xdac01462u }, 1, "cls x2, x3" },
    { { 0x37180043u, 0x910190c6u }, 2, "tbnz w3, #3, +8" },
    { { 0xb6400043u, 0x910190c6u }, 2, "tbz x3, #40, +8" },
    { { 0xb4000042u, 0x910190c6u }, 2, "cbz x2, +8" },
    { { 0x35000043u, 0x910190c6u }, 2, "cbnz w3, +8" },
    { { 0x54000041u, 0x910190c6u }, 2, "b.ne +8" },
    { { 0xeb03005fu, 0x54000040u, 0x910190c6u }, 3, "cmp x2, x3; b.eq +8" },
    { { 0x7100145fu, 0x54000048u, 0x910190c6u }, 3, "cmp w2, #5; b.hi +8" },
    { { 0xf27c005fu, 0x54000041u, 0x910190c6u }, 3, "tst x2, #0x10; b.ne +8" },
    { { 0xf2481c5fu, 0x54000041u, 0x910190c6u }, 3, "tst x2, #0xff00000000000000; b.ne +8" },
    { { 0x14000002u, 0x910190c6u }, 2, "b +8" },
    /* data aborts: outside the guest window (the window check's stub), and inside it on an
     * unmapped page (the SIGSEGV handler, which copies the cached registers from the signal
     * context) */
    { { 0xf9400122u }, 1, "ldr x2, [x9] (outside the window)" },
    { { 0x91404162u, 0xf9400043u }, 2, "add x2, x11, #0x10, lsl #12; ldr x3, [x2] (unmapped)" },
    { { 0x91404162u, 0xf9000043u }, 2, "add x2, x11, #0x10, lsl #12; str x3, [x2] (unmapped)" },
};

START_TEST(cached_rcx_rdx_survive_ops)
{
    /* User mode caches guest registers in rdx and rcx too, which many emitters use as scratch
     * (op_scratch in native_ops.c says which ops may write them; their entries go first).  Each
     * program writes x2..x13 (12 registers: the whole cache, x12 and x13 land in rdx and rcx,
     * the entries filled last), sets the flags, maybe clears the live EFLAGS, then runs one probe
     * on x2..x11 only (no new cache entry), then BRK: every register, NZCV, V0/V1 and the data
     * must be what the portable back end computes. */
    if (native_backend() != BACKEND_NATIVE)
        return;
    native_set_backend(BACKEND_PORTABLE);
    TBCache *portable = tbc_new(4 << 20);
    native_set_backend(BACKEND_NATIVE);
    ck_assert_ptr_null(portable->nbuf);
    unsigned bad = 0;
    for (unsigned host = 0; host < 2; host++) /* the host's extensions (BMI, LAHF) hidden, then not */
    for (unsigned p = 0; p < sizeof scratch_probes / sizeof scratch_probes[0]; p++)
        for (unsigned live = 0; live < 2; live++) {
            native_host_limit_extensions(host ? ~0u : 0);
            uint32_t code[24];
            unsigned n = 0;
            for (unsigned r = 2; r <= 13; r++)
                code[n++] = 0x91000400u | r << 5 | r; /* add xr, xr, #1 */
            code[n++] = 0xeb030045u; /* subs x5, x2, x3 */
            if (!live)
                code[n++] = 0x91000ce7u; /* add x7, x7, #3 */
            for (unsigned k = 0; k < scratch_probes[p].n; k++)
                code[n++] = scratch_probes[p].insn[k];
            code[n++] = BRK0;
            uint64_t x[2][32];
            uint8_t fl[2][4], v[2][64], mem[2][256];
            CpuException e[2];
            uint64_t pc[2];
            for (int be = 0; be < 2; be++) { /* portable, then native */
                CPUState *c = harness_cpu();
                TBCache *own = c->tbc;
                if (!be)
                    c->tbc = portable; /* the back end is a translation cache's */
                for (unsigned r = 0; r < 31; r++)
                    c->x[r] = 0x9e3779b97f4a7c15ull * (r + 1) ^ (0x1234567ull << r);
                c->x[3] |= 8; /* tbnz taken, tbz #40 taken too when clear */
                c->x[10] = 3;                      /* an index: 4 after the add */
                c->x[11] = HARNESS_DATA + 0x7f;    /* a base: HARNESS_DATA + 0x80 */
                for (unsigned k = 0; k < 256; k++)
                    ((uint8_t *)g2h(HARNESS_DATA))[k] = (uint8_t)(k * 37 + 11);
                memset(c->v, 0x5a, sizeof c->v);
                e[be] = harness_run(c, code, n);
                pc[be] = c->pc;
                memcpy(x[be], c->x, sizeof x[be]);
                memcpy(fl[be], &c->nf, 4);
                memcpy(v[be], c->v, sizeof v[be]);
                memcpy(mem[be], g2h(HARNESS_DATA), sizeof mem[be]);
                c->tbc = own;
            }
            if ((e[0] != e[1] || pc[0] != pc[1]) && bad++ < 20)
                fprintf(stderr, "probe %s: exception %d at %#llx, want %d at %#llx\n", scratch_probes[p].name,
                        e[1], (unsigned long long)pc[1], e[0], (unsigned long long)pc[0]);
            for (unsigned r = 0; r < 32; r++)
                if (x[0][r] != x[1][r] && bad++ < 20)
                    fprintf(stderr, "probe %s (flags %s, host extensions %s): x%u = %#llx, want %#llx\n",
                        scratch_probes[p].name, live ? "live" : "stored", host ? "used" : "hidden", r,
                        (unsigned long long)x[1][r], (unsigned long long)x[0][r]);
            if ((memcmp(fl[0], fl[1], 4) || memcmp(v[0], v[1], sizeof v[0]) || memcmp(mem[0], mem[1], 256)) &&
                bad++ < 20)
                fprintf(stderr, "probe %s: NZCV, V0/V1 or memory differ\n", scratch_probes[p].name);
        }
    native_host_limit_extensions(~0u);
    tbc_free(portable);
    ck_assert_msg(bad == 0, "%u differences from the portable back end (above)", bad);
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

START_TEST(exit_request_at_a_stale_back_edge)
{
    CPUState *c = harness_cpu();
    /* The loop's block goes round without storing the compare's NZCV (user mode's native back
     * end: every op before the compare only computes or accesses memory).  The third round's
     * store rewrites the loop's first instruction, so its back edge leaves on exit_request:
     * leaving must put NZCV (cmp 2, 2: Z C) in CPUState, where the new instruction, CINC on EQ,
     * reads them when the block is entered again (the first block's exit stored Z = 0). */
    const uint32_t code[] = {
        0xd2800000u, /* mov x0, #0 */
        0xd28000a1u, /* mov x1, #5 */
        0x18000183u, /* ldr w3, newinsn (+48) */
        0x10000069u, /* adr x9, loop (+12) */
        0xd2a00404u, /* mov x4, #0x200000 (HARNESS_DATA) */
        0x9100208au, /* add x10, x4, #8 */
        0x91000400u, /* loop: add x0, x0, #1 (rewritten in the third round) */
        0xb9000083u, /* str w3, [x4]: the data area twice, then the loop's first instruction */
        0xaa0a03e4u, /* mov x4, x10 */
        0xaa0903eau, /* mov x10, x9 */
        0xd1000421u, /* sub x1, x1, #1 */
        0xf100083fu, /* cmp x1, #2 */
        0x54ffff42u, /* b.hs loop */
        BRK0,
        0x9a801400u, /* newinsn: cinc x0, x0, eq */
    };
    ck_assert_int_eq(HARNESS_DATA, 0x200000);
    ck_assert_int_eq(run_rwx(c, code, 15), EXC_BRK);
    ck_assert_uint_eq(c->x[1], 1);
    ck_assert_uint_eq(c->x[0], 3 + 1); /* three ADDs, then CINC with Z from cmp 2, 2 */
    ck_assert_uint_eq(cpu_get_nzcv(c), 0x80000000u); /* cmp 1, 2 */
}
END_TEST

START_TEST(flags_after_a_stale_loop)
{
    CPUState *c = harness_cpu();
    /* A loop whose back edge leaves NZCV out of CPUState; after its last round a CBZ's side
     * exit leads to code that reads the last compare's flags from CPUState. */
    const uint32_t code[] = {
        0xd2800000u, /* mov x0, #0 */
        0xd2800001u, /* mov x1, #0 */
        0xd2800007u, /* mov x7, #0 */
        0x91000c00u, /* loop: add x0, x0, #3 */
        0x91000421u, /* add x1, x1, #1 */
        0xf100283fu, /* cmp x1, #10 */
        0x54ffffa1u, /* b.ne loop */
        0xb4000047u, /* cbz x7, out */
        BRK0 | 1u << 5, /* brk #1 */
        0x9a9f17e5u, /* out: cset x5, eq */
        0x9a9f37e6u, /* cset x6, hs */
        BRK0,
    };
    cpu_set_nzcv(c, 0x90000000u);
    ck_assert_int_eq(harness_run(c, code, 12), EXC_BRK);
    ck_assert_uint_eq(c->syndrome, 0);
    ck_assert_uint_eq(c->x[0], 30);
    ck_assert_uint_eq(c->x[5], 1);
    ck_assert_uint_eq(c->x[6], 1);
    ck_assert_uint_eq(cpu_get_nzcv(c), 0x60000000u); /* cmp 10, 10: Z C */
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
    tcase_add_test(tc, loop_head_folded_into_the_op_before);
    tcase_add_test(tc, nested_loops_through_b);
    tcase_add_test(tc, loop_evicts_registers);
    tcase_add_test(tc, loop_rotates_registers);
    tcase_add_test(tc, cached_rcx_rdx_survive_ops);
    tcase_add_test(tc, loop_rewrites_its_body);
    tcase_add_test(tc, rewrite_behind_a_b);
    tcase_add_test(tc, block_continues_through_b);
    tcase_add_test(tc, flags_stored_on_the_side_exit);
    tcase_add_test(tc, exit_request_at_a_stale_back_edge);
    tcase_add_test(tc, flags_after_a_stale_loop);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
