/* The Armv8.1 core (--cpu max): LSE atomics and RDM values, alignment, the a57 core's UNDEF, the
 * ID register, and an LDADD + CAS counter hammered from two host threads (exact total). */
#include <pthread.h>
#include "cpu_harness.h"

#define D(off) (HARNESS_DATA + (uint64_t)(off))
#define RUN(c, code) harness_run((c), (code), sizeof(code) / sizeof((code)[0]))

static uint64_t rd64(uint64_t off) { uint64_t v; memcpy(&v, g2h(D(off)), 8); return v; }
static void wr64(uint64_t off, uint64_t v) { memcpy(g2h(D(off)), &v, 8); }

static CPUState *setup_max(void)
{
    CPUState *c = harness_cpu();
    cpu_model = CPU_MODEL_MAX;
    c->x[1] = D(0x100);
    return c;
}

START_TEST(id_register_follows_cpu_model)
{
    const uint32_t code[] = { 0xd5380600u /* mrs x0, id_aa64isar0_el1 */, BRK0 };
    CPUState *c = harness_cpu();
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->x[0], 0x11120);
    c = setup_max();
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->x[0], 0x100110212120ull); /* DP = 1, SHA3 = 1, RDM = 1, Atomic = 2, SHA2 = 2 */
}
END_TEST

/* FEAT_FP16: ID_AA64PFR0_EL1 FP = AdvSIMD = 1, FPCR.FZ16 writable and FADD H decoded on max only. */
START_TEST(fp16_follows_cpu_model)
{
    const uint32_t code[] = { 0xd5380400u /* mrs x0, id_aa64pfr0_el1 */, 0xd51b4401u /* msr fpcr, x1 */,
                              0xd53b4402u /* mrs x2, fpcr */, 0x1ee22820u /* fadd h0, h1, h2 */, BRK0 };
    CPUState *c = harness_cpu();
    c->x[1] = 1u << 19;
    ck_assert_int_eq(RUN(c, code), EXC_UDEF);
    ck_assert_uint_eq(c->x[0], 0x11);
    ck_assert_uint_eq(c->x[2], 0);
    c = setup_max();
    c->x[1] = 1u << 19;
    c->v[1].h[0] = 0x3c00; /* 1.0 + 2.0 */
    c->v[2].h[0] = 0x4000;
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->x[0], 0x110011);
    ck_assert_uint_eq(c->x[2], 1u << 19);
    ck_assert_uint_eq(c->v[0].d[0], 0x4200);
}
END_TEST

START_TEST(min_max_signedness)
{
    const uint32_t code[] = { 0x38226023u /* ldumaxb w2, w3, [x1] */,
                              0x38224024u /* ldsmaxb w2, w4, [x1] */, BRK0 };
    CPUState *c = setup_max();
    wr64(0x100, 0x1122334455667780ull);
    c->x[2] = 0x7f;
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->x[3], 0x80); /* unsigned: 0x80 > 0x7f stays */
    ck_assert_uint_eq(c->x[4], 0x80); /* signed: -128 < 127, 0x7f stored */
    ck_assert_uint_eq(rd64(0x100), 0x112233445566777full);
}
END_TEST

START_TEST(add_clr_swp_and_st_alias)
{
    const uint32_t code[] = { 0xf8220023u /* ldadd x2, x3, [x1] */, 0xf824003fu /* stadd x4, [x1] */,
                              0x78221025u /* ldclrh w2, w5, [x1] */, 0xb8e28026u /* swpal w2, w6, [x1] */,
                              BRK0 };
    CPUState *c = setup_max();
    wr64(0x100, 0x00000000fffffff0ull);
    c->x[2] = 0x10;
    c->x[4] = 0x100000000ull;
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->x[3], 0xfffffff0ull);
    ck_assert_uint_eq(c->x[5], 0);              /* after ADD, STADD: 0x2_0000_0000 */
    ck_assert_uint_eq(c->x[6], 0);              /* CLR of 0x10 left the low word 0 */
    ck_assert_uint_eq(rd64(0x100), 0x200000010ull);
}
END_TEST

START_TEST(cas_and_casp)
{
    const uint32_t code[] = { 0xc8e5fc26u /* casal x5, x6, [x1] */, 0xc8e7fc28u /* casal x7, x8, [x1] */,
                              0x48287c2au /* casp x8, x9, x10, x11, [x1] */, BRK0 };
    CPUState *c = setup_max();
    wr64(0x100, 0xaaaa);
    wr64(0x108, 0xbbbb);
    c->x[5] = 0xaaaa; c->x[6] = 0xcccc; /* compares equal: stored */
    c->x[7] = 0xaaaa; c->x[8] = 0xdddd; /* compares unequal: x7 gets 0xcccc, nothing stored */
    c->x[9] = 0xbbbb; c->x[10] = 1; c->x[11] = 2;
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->x[5], 0xaaaa);
    ck_assert_uint_eq(c->x[7], 0xcccc);
    /* casp compared {x8 = 0xdddd, x9} with {0xcccc, 0xbbbb}: fails, loads the pair */
    ck_assert_uint_eq(c->x[8], 0xcccc);
    ck_assert_uint_eq(c->x[9], 0xbbbb);
    ck_assert_uint_eq(rd64(0x100), 0xcccc);
    ck_assert_uint_eq(rd64(0x108), 0xbbbb);
    c->x[10] = 1; c->x[11] = 2;
    const uint32_t again[] = { 0x48287c2au, BRK0 }; /* now x8:x9 match */
    ck_assert_int_eq(RUN(c, again), EXC_BRK);
    ck_assert_uint_eq(rd64(0x100), 1);
    ck_assert_uint_eq(rd64(0x108), 2);
}
END_TEST

START_TEST(misaligned_unmapped_and_a57_undef)
{
    const uint32_t code[] = { 0xf8220023u /* ldadd x2, x3, [x1] */, BRK0 };
    CPUState *c = setup_max();
    wr64(0x100, 5);
    c->x[1] = D(0x104);
    ck_assert_int_eq(RUN(c, code), EXC_ALIGN);
    ck_assert_uint_eq(c->pc, HARNESS_CODE);
    c = setup_max();
    c->x[1] = 0x7000000000ull; /* inside the guest window, never mapped */
    c->x[3] = 0x33;
    ck_assert_int_eq(RUN(c, code), EXC_DATA_ABORT);
    ck_assert_uint_eq(c->pc, HARNESS_CODE);
    ck_assert_uint_eq(c->x[3], 0x33);
    c = harness_cpu(); /* a57 */
    c->x[1] = D(0x100);
    ck_assert_int_eq(RUN(c, code), EXC_UDEF);
    ck_assert_uint_eq(rd64(0x100), 5);
}
END_TEST

START_TEST(rdm_values_and_qc)
{
    const uint32_t code[] = { 0x6e428420u /* sqrdmlah v0.8h, v1.8h, v2.8h */,
                              0x7fa5f083u /* sqrdmlsh s3, s4, v5.s[1] */, BRK0 };
    CPUState *c = setup_max();
    memset(c->v, 0, sizeof c->v);
    c->fp.fpsr = 0;
    c->v[0].h[0] = 0x7fff; c->v[1].h[0] = 0x7fff; c->v[2].h[0] = 0x7fff; /* saturates: QC */
    c->v[0].h[1] = 0; c->v[1].h[1] = 0x4000; c->v[2].h[1] = 0x4000;      /* 2*2^28 >> 16 = 0x2000 */
    c->v[0].h[2] = 0x0100; c->v[1].h[2] = 0xc000; c->v[2].h[2] = 0x4000; /* 0x100 - 0x2000 */
    c->v[3].s[0] = 0x80000000u; c->v[3].d[1] = 7; c->v[4].s[0] = 0x40000000u; c->v[5].s[1] = 0x40000000u;
    /* s3: -2^31 - 2^29 saturates to INT32_MIN; the scalar form clears the rest of V3 */
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->v[0].h[0], 0x7fff);
    ck_assert_uint_eq(c->v[0].h[1], 0x2000);
    ck_assert_uint_eq(c->v[0].h[2], (uint16_t)(0x100 - 0x2000));
    ck_assert_uint_eq(c->v[3].s[0], 0x80000000u);
    ck_assert_uint_eq(c->v[3].d[1], 0);
    ck_assert_uint_eq(c->fp.fpsr & FPSR_QC, FPSR_QC);
}
END_TEST

/* Two host threads each run ITERS rounds of three LDADDAL and a CASAL increment loop on one counter. */
#define ITERS 1000000
static const uint32_t counter_code[] = {
    0xf8e70025u, /* 0: ldaddal x7, x5, [x1] */
    0xf8e70025u, /* ldaddal x7, x5, [x1] */
    0xf8e70025u, /* ldaddal x7, x5, [x1] */
    0xf9400025u, /* ldr x5, [x1] */
    0x910004a6u, /* 1: add x6, x5, #1 */
    0xaa0503e9u, /* mov x9, x5 */
    0xc8e5fc26u, /* casal x5, x6, [x1] */
    0xeb0900bfu, /* cmp x5, x9 */
    0x54ffff81u, /* b.ne 1b */
    0xd1000484u, /* sub x4, x4, #1 */
    0xb5fffec4u, /* cbnz x4, 0b */
    BRK0,
};

static void *counter_thread(void *arg)
{
    *(CpuException *)arg = harness_run_own_cpu((const uint64_t[8]){ [1] = D(0x100), [4] = ITERS, [7] = 1 });
    return NULL;
}

START_TEST(counter_two_threads)
{
    CPUState *c = setup_max();
    const uint32_t brk[] = { BRK0 };
    ck_assert_int_eq(RUN(c, brk), EXC_BRK);
    ck_assert_int_eq(guest_protect(HARNESS_CODE, 0x10000, GP_READ | GP_WRITE), 0);
    memcpy(g2h(HARNESS_CODE), counter_code, sizeof counter_code);
    ck_assert_int_eq(guest_protect(HARNESS_CODE, 0x10000, GP_READ | GP_EXEC), 0);
    wr64(0x100, 0);
    pthread_t t[2];
    CpuException e[2];
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, counter_thread, &e[i]), 0);
    for (int i = 0; i < 2; i++) {
        pthread_join(t[i], NULL);
        ck_assert_int_eq(e[i], EXC_BRK);
    }
    guest_mem_set_current_cpu(c);
    ck_assert_uint_eq(rd64(0x100), 2 * 4 * ITERS);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("atomic");
    TCase *tc = tcase_create("lse_rdm");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, id_register_follows_cpu_model);
    tcase_add_test(tc, fp16_follows_cpu_model);
    tcase_add_test(tc, min_max_signedness);
    tcase_add_test(tc, add_clr_swp_and_st_alias);
    tcase_add_test(tc, cas_and_casp);
    tcase_add_test(tc, misaligned_unmapped_and_a57_undef);
    tcase_add_test(tc, rdm_values_and_qc);
    tcase_add_test(tc, counter_two_threads);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
