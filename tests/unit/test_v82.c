/* The Armv8.2 instructions of --cpu max: SDOT/UDOT, SHA512H/H2/SU0/SU1, EOR3, BCAX, RAX1, XAR.
 * The SHA512 and dot-product values were recorded with qemu-aarch64 -cpu max (the differential
 * test's oracle for these classes); the SHA3 ones are the Arm ARM's one-line definitions.  Under
 * the a57 core every one of them is UNDEFINED. */
#include "cpu_harness.h"

#define RUN(c, code) harness_run((c), (code), sizeof(code) / sizeof((code)[0]))

static const VReg A = { .d = { 0x0123456789abcdefull, 0xfedcba9876543210ull } };
static const VReg B = { .d = { 0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull } };
static const VReg C = { .d = { 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull } };

/* Runs insn on V0 = A, V1 = B, V2 = C (and V3 = A again) under --cpu max; returns V0. */
static VReg run_max(uint32_t insn)
{
    const uint32_t code[] = { insn, BRK0 };
    CPUState *c = harness_cpu();
    cpu_model = CPU_MODEL_MAX;
    c->v[0] = A;
    c->v[1] = B;
    c->v[2] = C;
    c->v[3] = A;
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    return c->v[0];
}

static void check(uint32_t insn, uint64_t lo, uint64_t hi)
{
    VReg r = run_max(insn);
    ck_assert_msg(r.d[0] == lo && r.d[1] == hi, "insn %08x: %016llx %016llx, want %016llx %016llx", insn,
                  (unsigned long long)r.d[0], (unsigned long long)r.d[1], (unsigned long long)lo,
                  (unsigned long long)hi);
}

START_TEST(sha512_values)
{
    check(0xce628020u /* sha512h q0, q1, v2.2d */, 0x2203e83c3f48b86aull, 0x445c1c379ba7ff63ull);
    check(0xce628420u /* sha512h2 q0, q1, v2.2d */, 0x889fdcd937336a70ull, 0xde444754d57d804eull);
    check(0xcec08020u /* sha512su0 v0.2d, v1.2d */, 0x6f907deb1d5cb34dull, 0x3c97a3b1c81ed3efull);
    check(0xce628820u /* sha512su1 v0.2d, v1.2d, v2.2d */, 0x065852c1c7250b2aull, 0x31644dcd9b080cd9ull);
}
END_TEST

START_TEST(dotprod_values)
{
    /* by element: every lane takes bytes 12..15 of V2; the 64-bit form clears the upper half */
    check(0x4fa2e820u /* sdot v0.4s, v1.16b, v2.4b[3] */, 0x01233af489abc1bfull, 0xfedcda9076545eabull);
    check(0x2e829420u /* udot v0.2s, v1.8b, v2.8b */, 0x01246a4d89adefc9ull, 0);
}
END_TEST

START_TEST(sha3_values)
{
    check(0xce010c40u /* eor3 v0.16b, v2.16b, v1.16b, v3.16b */, A.d[0] ^ B.d[0] ^ C.d[0], A.d[1] ^ B.d[1] ^ C.d[1]);
    check(0xce210c40u /* bcax v0.16b, v2.16b, v1.16b, v3.16b */, C.d[0] ^ (B.d[0] & ~A.d[0]),
          C.d[1] ^ (B.d[1] & ~A.d[1]));
    check(0xce628c20u /* rax1 v0.2d, v1.2d, v2.2d */, B.d[0] ^ (C.d[0] << 1 | C.d[0] >> 63),
          B.d[1] ^ (C.d[1] << 1 | C.d[1] >> 63));
    /* xar #8 rotates right: the low byte of each lane's XOR moves to the top */
    check(0xce822020u /* xar v0.2d, v1.2d, v2.2d, #8 */, (B.d[0] ^ C.d[0]) >> 8 | (B.d[0] ^ C.d[0]) << 56,
          (B.d[1] ^ C.d[1]) >> 8 | (B.d[1] ^ C.d[1]) << 56);
}
END_TEST

START_TEST(a57_undefs_them)
{
    static const uint32_t insns[] = { 0xce628020u, 0xce628420u, 0xcec08020u, 0xce628820u, 0x4fa2e820u,
                                      0x2e829420u, 0xce010c40u, 0xce210c40u, 0xce628c20u, 0xce822020u };
    for (size_t i = 0; i < sizeof insns / sizeof insns[0]; i++) {
        const uint32_t code[] = { insns[i], BRK0 };
        CPUState *c = harness_cpu(); /* a57 */
        ck_assert_msg(RUN(c, code) == EXC_UDEF, "insn %08x decodes on a57", insns[i]);
        ck_assert_uint_eq(c->pc, HARNESS_CODE);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("v82");
    TCase *tc = tcase_create("dotprod_sha512_sha3");
    tcase_add_test(tc, sha512_values);
    tcase_add_test(tc, dotprod_values);
    tcase_add_test(tc, sha3_values);
    tcase_add_test(tc, a57_undefs_them);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
