/* Loads and stores: every addressing mode, writeback, sign extension, pairs,
 * literals, exclusives, ordered accesses, SIMD&FP registers, AdvSIMD structures,
 * precise faults and UNDEFINED encodings.
 *
 * Expected values were cross-checked against qemu-aarch64 -cpu cortex-a57
 * (the same instructions run on both with identical registers and memory). */
#include <pthread.h>
#include "cpu_harness.h"

#define RUN(c, code) harness_run((c), (code), sizeof(code) / sizeof((code)[0]))
#define D(off) (HARNESS_DATA + (uint64_t)(off))
#define UNMAPPED 0x7000000000ull /* inside the guest window, never mapped */

static uint8_t *dp(uint64_t off) { return g2h(HARNESS_DATA + off); }
static uint8_t pat(uint64_t i) { return (uint8_t)(i * 7 + 3); }

/* Fill the data area with pat() and return a fresh CPU. */
static CPUState *setup(void)
{
    CPUState *c = harness_cpu();
    for (uint64_t i = 0; i < HARNESS_DATA_SIZE; i++)
        dp(0)[i] = pat(i);
    for (int r = 0; r < 31; r++)
        c->x[r] = 0xdead000000000000ull | (uint64_t)r << 8;
    for (int r = 0; r < 32; r++)
        for (int j = 0; j < 16; j++)
            c->v[r].b[j] = (uint8_t)(0xa0 + r + j * 3);
    return c;
}

static uint64_t rd64(uint64_t off) { uint64_t v; memcpy(&v, dp(off), 8); return v; }
static uint32_t rd32(uint64_t off) { uint32_t v; memcpy(&v, dp(off), 4); return v; }
static uint16_t rd16(uint64_t off) { uint16_t v; memcpy(&v, dp(off), 2); return v; }
static void wr64(uint64_t off, uint64_t v) { memcpy(dp(off), &v, 8); }
static void wr32(uint64_t off, uint32_t v) { memcpy(dp(off), &v, 4); }

/* ---- general registers ----------------------------------------------------- */

START_TEST(gpr_unsigned_offset_and_sign_extension)
{
    CPUState *c = setup();
    wr64(0x100, 0x8877665544332211ull);
    wr32(0x108, 0x80000001u);
    dp(0x10c)[0] = 0x80;
    dp(0x10e)[0] = 0x01; dp(0x10f)[0] = 0x80;
    c->x[1] = D(0x100);
    const uint32_t code[] = { 
        0xf9400022u, /* ldr x2, [x1] */
        0xb9400823u, /* ldr w3, [x1, #8] */
        0x79401c24u, /* ldrh w4, [x1, #14] */
        0x39403025u, /* ldrb w5, [x1, #12] */
        0x39803026u, /* ldrsb x6, [x1, #12] */
        0x39c03027u, /* ldrsb w7, [x1, #12] */
        0x79801c28u, /* ldrsh x8, [x1, #14] */
        0x79c01c29u, /* ldrsh w9, [x1, #14] */
        0xb980082au, /* ldrsw x10, [x1, #8] */
        0xb980042bu, /* ldrsw x11, [x1, #4] */
        0xf97ffc2cu, /* ldr x12, [x1, #32760] */
        0xf940003fu, /* ldr xzr, [x1] */
        0xd4200000u, /* brk #0x0 */
     };
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->x[2], 0x8877665544332211ull);
    ck_assert_uint_eq(c->x[3], 0x80000001u);
    ck_assert_uint_eq(c->x[4], 0x8001);
    ck_assert_uint_eq(c->x[5], 0x80);
    ck_assert_uint_eq(c->x[6], 0xffffffffffffff80ull);
    ck_assert_uint_eq(c->x[7], 0xffffff80u);
    ck_assert_uint_eq(c->x[8], 0xffffffffffff8001ull);
    ck_assert_uint_eq(c->x[9], 0xffff8001u);
    ck_assert_uint_eq(c->x[10], 0xffffffff80000001ull);
    ck_assert_uint_eq(c->x[11], 0xffffffff88776655ull);
    ck_assert_uint_eq(c->x[12], rd64(0x100 + 32760));
    ck_assert_uint_eq(c->x[1], D(0x100));
}
END_TEST

START_TEST(gpr_stores_unsigned_offset)
{
    CPUState *c = setup();
    c->x[1] = D(0x200);
    c->x[2] = 0x1122334455667788ull;
    const uint32_t code[] = { 
        0xf9000022u, /* str x2, [x1] */
        0xb9000822u, /* str w2, [x1, #8] */
        0x79001c22u, /* strh w2, [x1, #14] */
        0x39003422u, /* strb w2, [x1, #13] */
        0xf900083fu, /* str xzr, [x1, #16] */
        0x3900303fu, /* strb wzr, [x1, #12] */
        0xd4200000u, /* brk #0x0 */
     };
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(rd64(0x200), 0x1122334455667788ull);
    ck_assert_uint_eq(rd32(0x208), 0x55667788u);
    ck_assert_uint_eq(dp(0x20c)[0], 0);
    ck_assert_uint_eq(dp(0x20d)[0], 0x88);
    ck_assert_uint_eq(rd16(0x20e), 0x7788);
    ck_assert_uint_eq(rd64(0x210), 0);
    ck_assert_uint_eq(dp(0x218)[0], pat(0x218));
}
END_TEST

START_TEST(gpr_unscaled_and_unprivileged)
{
    CPUState *c = setup();
    c->x[1] = D(0x300);
    c->x[9] = 0xcafef00d12345678ull;
    const uint32_t code[] = { 
        0xf85f9022u, /* ldur x2, [x1, #-7] */
        0xb84ff023u, /* ldur w3, [x1, #255] */
        0x78900024u, /* ldursh x4, [x1, #-256] */
        0xf8401825u, /* ldtr x5, [x1, #1] */
        0x38dff826u, /* ldtrsb w6, [x1, #-1] */
        0x78403827u, /* ldtrh w7, [x1, #3] */
        0xf81f7829u, /* sttr x9, [x1, #-9] */
        0x38064829u, /* sttrb w9, [x1, #100] */
        0xb81fd029u, /* stur w9, [x1, #-3] */
        0xd4200000u, /* brk #0x0 */
     };
    uint64_t exp2 = rd64(0x300 - 7), exp5 = rd64(0x301);
    uint32_t exp3 = rd32(0x300 + 255);
    int16_t exp4 = (int16_t)rd16(0x300 - 256);
    int8_t exp6 = (int8_t)pat(0x2ff);
    uint16_t exp7 = rd16(0x303);
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->x[2], exp2);
    ck_assert_uint_eq(c->x[3], exp3);
    ck_assert_uint_eq(c->x[4], (uint64_t)(int64_t)exp4);
    ck_assert_uint_eq(c->x[5], exp5);
    ck_assert_uint_eq(c->x[6], (uint32_t)(int32_t)exp6);
    ck_assert_uint_eq(c->x[7], exp7);
    ck_assert_uint_eq(rd64(0x300 - 9) & 0xffffffffffull, 0x0d12345678ull); /* then overwritten by stur */
    ck_assert_uint_eq(rd32(0x300 - 3), 0x12345678u);
    ck_assert_uint_eq(dp(0x300 + 100)[0], 0x78);
}
END_TEST

START_TEST(gpr_pre_post_index)
{
    CPUState *c = setup();
    c->x[1] = D(0x400);
    c->x[3] = D(0x400);
    c->x[5] = D(0x500);
    c->x[7] = D(0x500);
    c->x[REG_SP] = D(0x600);
    c->x[10] = 0x0102030405060708ull;
    const uint32_t code[] = { 
        0xf8410c22u, /* ldr x2, [x1, #16]! */
        0x78d00464u, /* ldrsh w4, [x3], #-256 */
        0xf81f8caau, /* str x10, [x5, #-8]! */
        0x380ff4eau, /* strb w10, [x7], #255 */
        0xf8408febu, /* ldr x11, [sp, #8]! */
        0xb81e87eau, /* str w10, [sp], #-24 */
        0xf840042cu, /* ldr x12, [x1], #0 */
        0xd4200000u, /* brk #0x0 */
     };
    uint64_t exp2 = rd64(0x410), exp11 = rd64(0x608);
    int16_t exp4 = (int16_t)rd16(0x400);
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->x[2], exp2);
    ck_assert_uint_eq(c->x[1], D(0x410));
    ck_assert_uint_eq(c->x[12], exp2);
    ck_assert_uint_eq(c->x[4], (uint32_t)(int32_t)exp4);
    ck_assert_uint_eq(c->x[3], D(0x400 - 256));
    ck_assert_uint_eq(rd64(0x4f8), 0x0102030405060708ull);
    ck_assert_uint_eq(c->x[5], D(0x4f8));
    ck_assert_uint_eq(dp(0x500)[0], 0x08);
    ck_assert_uint_eq(c->x[7], D(0x500 + 255));
    ck_assert_uint_eq(c->x[11], exp11);
    ck_assert_uint_eq(rd32(0x608), 0x05060708u);
    ck_assert_uint_eq(c->x[REG_SP], D(0x608 - 24));
}
END_TEST

/* CONSTRAINED UNPREDICTABLE Rt == Rn with writeback: as qemu-aarch64, a load
 * leaves the written-back address, a store stores the old base. */
START_TEST(gpr_writeback_rt_equals_rn)
{
    CPUState *c = setup();
    c->x[1] = D(0x100);
    c->x[2] = D(0x200);
    c->x[3] = D(0x300);
    c->x[4] = D(0x400);
    const uint32_t code[] = { 
        0xf8408c21u, /* ldr x1, [x1, #8]! */
        0xf8408442u, /* ldr x2, [x2], #8 */
        0xf8008c63u, /* str x3, [x3, #8]! */
        0xf8008484u, /* str x4, [x4], #8 */
        0xd4200000u, /* brk #0x0 */
     };
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->x[1], D(0x108));
    ck_assert_uint_eq(c->x[2], D(0x208));
    ck_assert_uint_eq(c->x[3], D(0x308));
    ck_assert_uint_eq(rd64(0x308), D(0x300));
    ck_assert_uint_eq(c->x[4], D(0x408));
    ck_assert_uint_eq(rd64(0x400), D(0x400));
}
END_TEST

START_TEST(gpr_register_offset)
{
    CPUState *c = setup();
    c->x[1] = D(0x800);
    c->x[3] = 5;                           /* lsl #3 -> +40 */
    c->x[5] = 0xffffffff;                  /* w5 = -1, sxtw #2 -> -4 */
    c->x[7] = 0xffffffff00000003ull;       /* uxtw -> +3 */
    c->x[9] = (uint64_t)-2;                /* sxtx #1 -> -4 */
    c->x[11] = 0x10;
    c->x[12] = 0x1122334455667788ull;
    c->x[13] = 0x80000000u;                /* w13 sxtw = -2^31: far away, unused */
    c->x[14] = 0xfffffff8u;                /* sxtw #3 -> -64 */
    const uint32_t code[] = { 
        0xf8637822u, /* ldr x2, [x1, x3, lsl #3] */
        0xb865d824u, /* ldr w4, [x1, w5, sxtw #2] */
        0x38674826u, /* ldrb w6, [x1, w7, uxtw] */
        0x78a9f828u, /* ldrsh x8, [x1, x9, sxtx #1] */
        0xb86b682au, /* ldr w10, [x1, x11] */
        0xf82ed82cu, /* str x12, [x1, w14, sxtw #3] */
        0x7823682cu, /* strh w12, [x1, x3] */
        0xb8a7582fu, /* ldrsw x15, [x1, w7, uxtw #2] */
        0xd4200000u, /* brk #0x0 */
     };
    uint64_t exp2 = rd64(0x800 + 40), exp10 = rd32(0x810), exp15 = (uint64_t)(int64_t)(int32_t)rd32(0x80c);
    uint32_t exp4 = rd32(0x800 - 4);
    int16_t exp8 = (int16_t)rd16(0x800 - 4);
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->x[2], exp2);
    ck_assert_uint_eq(c->x[4], exp4);
    ck_assert_uint_eq(c->x[6], pat(0x803));
    ck_assert_uint_eq(c->x[8], (uint64_t)(int64_t)exp8);
    ck_assert_uint_eq(c->x[10], exp10);
    ck_assert_uint_eq(rd64(0x800 - 64), 0x1122334455667788ull);
    ck_assert_uint_eq(rd16(0x805), 0x7788);
    ck_assert_uint_eq(c->x[15], exp15);
    ck_assert_uint_eq(c->x[1], D(0x800));
}
END_TEST

START_TEST(literal_loads)
{
    CPUState *c = setup();
    const uint32_t code[] = { 
        0x18000202u, /* ldr w2, 40 <.text+0x40> */
        0x58000203u, /* ldr x3, 44 <.text+0x44> */
        0x980001c4u, /* ldrsw x4, 40 <.text+0x40> */
        0x1c0001a0u, /* ldr s0, 40 <.text+0x40> */
        0x5c0001a1u, /* ldr d1, 44 <.text+0x44> */
        0x9c0000e2u, /* ldr q2, 30 <.text+0x30> */
        0xd8000140u, /* prfm pldl1keep, 40 <.text+0x40> */
        0x58000045u, /* ldr x5, 24 <.text+0x24> */
        0xd4200000u, /* brk #0x0 */
        0x00000000u, /* .word 0x00000000 */
        0x00000000u, /* .word 0x00000000 */
        0xd503201fu, /* nop */
        0x11111111u, /* .word 0x11111111 */
        0x22222222u, /* .word 0x22222222 */
        0x33333333u, /* .word 0x33333333 */
        0x44444444u, /* .word 0x44444444 */
        0x87654321u, /* .word 0x87654321 */
        0x9abcdef0u, /* .word 0x9abcdef0 */
        0x12345678u, /* .word 0x12345678 */
     };
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->pc, HARNESS_CODE + 8 * 4);
    ck_assert_uint_eq(c->x[2], 0x87654321u);
    ck_assert_uint_eq(c->x[3], 0x123456789abcdef0ull);
    ck_assert_uint_eq(c->x[4], 0xffffffff87654321ull);
    ck_assert_uint_eq(c->v[0].d[0], 0x87654321u);
    ck_assert_uint_eq(c->v[0].d[1], 0);
    ck_assert_uint_eq(c->v[1].d[0], 0x123456789abcdef0ull);
    ck_assert_uint_eq(c->v[1].d[1], 0);
    ck_assert_uint_eq(c->v[2].d[0], 0x2222222211111111ull);
    ck_assert_uint_eq(c->v[2].d[1], 0x4444444433333333ull);
}
END_TEST

START_TEST(prefetch_never_faults)
{
    CPUState *c = setup();
    c->x[1] = UNMAPPED;
    c->x[2] = 1ull << 50;
    const uint32_t code[] = { 
        0xf9800020u, /* prfm pldl1keep, [x1] */
        0xf987fc53u, /* prfm pstl2strm, [x2, #4088] */
        0xf89ff02cu, /* prfum plil3keep, [x1, #-1] */
        0xf8a26820u, /* prfm pldl1keep, [x1, x2] */
        0xf8a2d820u, /* prfm pldl1keep, [x1, w2, sxtw #3] */
        0xf980005fu, /* prfm #0x1f, [x2] */
        0xd4200000u, /* brk #0x0 */
     };
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->pc, HARNESS_CODE + 6 * 4);
}
END_TEST

/* ---- pairs --------------------------------------------------------------------- */

START_TEST(gpr_pairs)
{
    CPUState *c = setup();
    wr64(0x100, 0x8000000180000002ull);
    c->x[1] = D(0x100);
    c->x[4] = D(0x208);
    c->x[8] = D(0x100);
    c->x[9] = 0xaaaaaaaabbbbbbbbull;
    c->x[10] = 0xccccccccddddddddull;
    c->x[11] = D(0x400);
    c->x[14] = D(0x500);
    c->x[REG_SP] = D(0x700);
    const uint32_t code[] = { 
        0xa9410c22u, /* ldp x2, x3, [x1, #16] */
        0x29ff1885u, /* ldp w5, w6, [x4, #-8]! */
        0x68c1350cu, /* ldpsw x12, x13, [x8], #8 */
        0xa9bf2969u, /* stp x9, x10, [x11, #-16]! */
        0x28a029c9u, /* stp w9, w10, [x14], #-256 */
        0xa870402fu, /* ldnp x15, x16, [x1, #-256] */
        0x281fa42au, /* stnp w10, w9, [x1, #252] */
        0xa9be7fe9u, /* stp x9, xzr, [sp, #-32]! */
        0x29404831u, /* ldp w17, w18, [x1] */
        0xd4200000u, /* brk #0x0 */
     };
    uint64_t e2 = rd64(0x110), e3 = rd64(0x118), e15 = rd64(0), e16 = rd64(8);
    uint32_t e5 = rd32(0x200), e6 = rd32(0x204);
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->x[2], e2);
    ck_assert_uint_eq(c->x[3], e3);
    ck_assert_uint_eq(c->x[5], e5);
    ck_assert_uint_eq(c->x[6], e6);
    ck_assert_uint_eq(c->x[4], D(0x200));
    ck_assert_uint_eq(c->x[12], 0xffffffff80000002ull);
    ck_assert_uint_eq(c->x[13], 0xffffffff80000001ull);
    ck_assert_uint_eq(c->x[8], D(0x108));
    ck_assert_uint_eq(rd64(0x3f0), 0xaaaaaaaabbbbbbbbull);
    ck_assert_uint_eq(rd64(0x3f8), 0xccccccccddddddddull);
    ck_assert_uint_eq(c->x[11], D(0x3f0));
    ck_assert_uint_eq(rd32(0x500), 0xbbbbbbbbu);
    ck_assert_uint_eq(rd32(0x504), 0xddddddddu);
    ck_assert_uint_eq(c->x[14], D(0x500 - 256));
    ck_assert_uint_eq(c->x[15], e15);
    ck_assert_uint_eq(c->x[16], e16);
    ck_assert_uint_eq(rd32(0x100 + 252), 0xddddddddu);
    ck_assert_uint_eq(rd32(0x100 + 256), 0xbbbbbbbbu);
    ck_assert_uint_eq(rd64(0x6e0), 0xaaaaaaaabbbbbbbbull);
    ck_assert_uint_eq(rd64(0x6e8), 0);
    ck_assert_uint_eq(c->x[REG_SP], D(0x6e0));
    ck_assert_uint_eq(c->x[17], 0x80000002u);
    ck_assert_uint_eq(c->x[18], 0x80000001u);
}
END_TEST

/* Rt == Rt2 and Rt == Rn with writeback, as qemu-aarch64. */
START_TEST(pair_constrained_unpredictable)
{
    CPUState *c = setup();
    c->x[0] = D(0x100);
    c->x[1] = D(0x200);
    c->x[2] = D(0x300);
    c->x[3] = D(0x400);
    const uint32_t code[] = { 
        0xa8c11000u, /* ldp x0, x4, [x0], #16 */
        0xa9401425u, /* ldp x5, x5, [x1] */
        0xa9c10846u, /* ldp x6, x2, [x2, #16]! */
        0x6d401c67u, /* ldp d7, d7, [x3] */
        0xd4200000u, /* brk #0x0 */
     }; /* ldp x5, x5, [x1]; ldp d7, d7, [x3] */
    uint64_t e4 = rd64(0x108), e5 = rd64(0x200), e6 = rd64(0x310), e7 = rd64(0x408);
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->x[0], D(0x110));
    ck_assert_uint_eq(c->x[4], e4);
    ck_assert_uint_eq(c->x[5], e5);
    ck_assert_uint_eq(c->x[6], e6);
    ck_assert_uint_eq(c->x[2], D(0x310));
    ck_assert_uint_eq(c->v[7].d[0], e7);
    ck_assert_uint_eq(c->v[7].d[1], 0);
}
END_TEST

/* ---- SIMD&FP registers ------------------------------------------------------------ */

START_TEST(fp_scalar_loads_zero_upper)
{
    CPUState *c = setup();
    c->x[1] = D(0x100);
    c->x[2] = 3;
    c->x[3] = D(0x200);
    const uint32_t code[] = { 
        0x3d400420u, /* ldr b0, [x1, #1] */
        0x7d400421u, /* ldr h1, [x1, #2] */
        0xbd400422u, /* ldr s2, [x1, #4] */
        0xfd400423u, /* ldr d3, [x1, #8] */
        0x3dc00424u, /* ldr q4, [x1, #16] */
        0x3cdfd025u, /* ldur q5, [x1, #-3] */
        0x3ce27826u, /* ldr q6, [x1, x2, lsl #4] */
        0xfc5f8c67u, /* ldr d7, [x3, #-8]! */
        0x7c402468u, /* ldr h8, [x3], #2 */
        0xbc625829u, /* ldr s9, [x1, w2, uxtw #2] */
        0xd4200000u, /* brk #0x0 */
     };
    VReg e4, e5, e6;
    memcpy(&e4, dp(0x110), 16);
    memcpy(&e5, dp(0x100 - 3), 16);
    memcpy(&e6, dp(0x130), 16);
    uint64_t e7 = rd64(0x1f8);
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->v[0].d[0], pat(0x101));
    ck_assert_uint_eq(c->v[0].d[1], 0);
    ck_assert_uint_eq(c->v[1].d[0], rd16(0x102));
    ck_assert_uint_eq(c->v[1].d[1], 0);
    ck_assert_uint_eq(c->v[2].d[0], rd32(0x104));
    ck_assert_uint_eq(c->v[2].d[1], 0);
    ck_assert_uint_eq(c->v[3].d[0], rd64(0x108));
    ck_assert_uint_eq(c->v[3].d[1], 0);
    ck_assert(memcmp(&c->v[4], &e4, 16) == 0);
    ck_assert(memcmp(&c->v[5], &e5, 16) == 0);
    ck_assert(memcmp(&c->v[6], &e6, 16) == 0);
    ck_assert_uint_eq(c->v[7].d[0], e7);
    ck_assert_uint_eq(c->v[7].d[1], 0);
    ck_assert_uint_eq(c->v[8].d[0], rd16(0x1f8));
    ck_assert_uint_eq(c->x[3], D(0x1fa));
    ck_assert_uint_eq(c->v[9].d[0], rd32(0x10c));
    ck_assert_uint_eq(c->v[9].d[1], 0);
}
END_TEST

START_TEST(fp_scalar_stores_and_pairs)
{
    CPUState *c = setup();
    for (int r = 0; r < 8; r++)
        for (int j = 0; j < 16; j++)
            c->v[r].b[j] = (uint8_t)(r * 16 + j);
    c->x[1] = D(0x100);
    c->x[2] = D(0x300);
    c->x[3] = D(0x400);
    c->x[4] = 0x20;
    const uint32_t code[] = { 
        0x3d000021u, /* str b1, [x1] */
        0x7d000422u, /* str h2, [x1, #2] */
        0xbd000423u, /* str s3, [x1, #4] */
        0xfd000424u, /* str d4, [x1, #8] */
        0x3d800425u, /* str q5, [x1, #16] */
        0x3c821026u, /* stur q6, [x1, #33] */
        0x3ca46827u, /* str q7, [x1, x4] */
        0xadbf0440u, /* stp q0, q1, [x2, #-32]! */
        0x2d080c42u, /* stp s2, s3, [x2, #64] */
        0x6c881444u, /* stp d4, d5, [x2], #128 */
        0xad7e2c6au, /* ldp q10, q11, [x3, #-64] */
        0x2d40b46cu, /* ldp s12, s13, [x3, #4] */
        0x6cff3c6eu, /* ldp d14, d15, [x3], #-16 */
        0xac404430u, /* ldnp q16, q17, [x1] */
        0x6c3f1c26u, /* stnp d6, d7, [x1, #-16] */
        0xd4200000u, /* brk #0x0 */
     };
    memcpy(dp(0x3c0), "0123456789abcdefghijklmnopqrstuv", 32);
    VReg e12 = { 0 }, e13 = { 0 }, e14 = { 0 }, e15 = { 0 };
    memcpy(&e12, dp(0x404), 4);
    memcpy(&e13, dp(0x408), 4);
    memcpy(&e14, dp(0x400), 8);
    memcpy(&e15, dp(0x408), 8);
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(dp(0x100)[0], 0x10);
    ck_assert_uint_eq(rd16(0x102), 0x2120);
    ck_assert_uint_eq(rd32(0x104), 0x33323130u);
    ck_assert_uint_eq(rd64(0x108), 0x4746454443424140ull);
    ck_assert(memcmp(dp(0x110), &c->v[5], 16) == 0);
    ck_assert_uint_eq(dp(0x120)[0], 0x70); /* q7 at +0x20 overwrote stur q6's first byte */
    ck_assert_uint_eq(dp(0x12f)[0], 0x7f);
    ck_assert_uint_eq(dp(0x130)[0], 0x6f); /* last byte of stur q6 */
    ck_assert_uint_eq(dp(0x131)[0], pat(0x131));
    ck_assert(memcmp(dp(0x2f0), &c->v[1], 16) == 0);
    ck_assert_uint_eq(rd32(0x320), 0x23222120u);
    ck_assert_uint_eq(rd32(0x324), 0x33323130u);
    ck_assert_uint_eq(rd64(0x2e0), 0x4746454443424140ull);
    ck_assert_uint_eq(rd64(0x2e8), 0x5756555453525150ull);
    ck_assert_uint_eq(c->x[2], D(0x2e0 + 128));
    ck_assert(memcmp(&c->v[10], "0123456789abcdef", 16) == 0);
    ck_assert(memcmp(&c->v[11], "ghijklmnopqrstuv", 16) == 0);
    ck_assert(memcmp(&c->v[12], &e12, 16) == 0);
    ck_assert(memcmp(&c->v[13], &e13, 16) == 0);
    ck_assert(memcmp(&c->v[14], &e14, 16) == 0);
    ck_assert(memcmp(&c->v[15], &e15, 16) == 0);
    ck_assert_uint_eq(c->x[3], D(0x3f0));
    ck_assert(memcmp(&c->v[16], dp(0x100), 16) == 0);
    ck_assert(memcmp(&c->v[17], dp(0x110), 16) == 0);
    ck_assert_uint_eq(rd64(0xf0), 0x6766656463626160ull);
    ck_assert_uint_eq(rd64(0xf8), 0x7776757473727170ull);
}
END_TEST

/* ---- exclusives and ordered ------------------------------------------------------- */

START_TEST(exclusive_success_then_monitor_cleared)
{
    CPUState *c = setup();
    wr64(0x100, 0x1111222233334444ull);
    c->x[1] = D(0x100);
    c->x[4] = 0x5555666677778888ull;
    c->x[6] = 0x9999;
    const uint32_t code[] = { 
        0xc85f7c22u, /* ldxr x2, [x1] */
        0xc8037c24u, /* stxr w3, x4, [x1] */
        0xc8057c26u, /* stxr w5, x6, [x1] */
        0xd4200000u, /* brk #0x0 */
     };
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->x[2], 0x1111222233334444ull);
    ck_assert_uint_eq(c->x[3], 0);
    ck_assert_uint_eq(c->x[5], 1);
    ck_assert_uint_eq(rd64(0x100), 0x5555666677778888ull);
    ck_assert_uint_eq(c->excl_size, 0);
}
END_TEST

START_TEST(exclusive_failures)
{
    CPUState *c = setup();
    wr64(0x100, 42);
    wr64(0x108, 43);
    c->x[1] = D(0x100);
    c->x[7] = D(0x108);
    c->x[4] = 77;
    c->x[9] = 99;
    const uint32_t code[] = { 
        0xc85f7c22u, /* ldxr x2, [x1] */
        0xc8037ce4u, /* stxr w3, x4, [x7] */
        0xc85f7c22u, /* ldxr x2, [x1] */
        0xd5033f5fu, /* clrex */
        0xc8057c24u, /* stxr w5, x4, [x1] */
        0xc85f7c22u, /* ldxr x2, [x1] */
        0xf9000029u, /* str x9, [x1] */
        0xc8067c24u, /* stxr w6, x4, [x1] */
        0x885f7c22u, /* ldxr w2, [x1] */
        0xc8087c24u, /* stxr w8, x4, [x1] */
        0xc85ffc22u, /* ldaxr x2, [x1] */
        0xc80afc24u, /* stlxr w10, x4, [x1] */
        0xd4200000u, /* brk #0x0 */
     };
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->x[3], 1);  /* different address */
    ck_assert_uint_eq(c->x[5], 1);  /* CLREX */
    ck_assert_uint_eq(c->x[6], 1);  /* memory changed since LDXR */
    ck_assert_uint_eq(c->x[8], 1);  /* different size */
    ck_assert_uint_eq(c->x[10], 0); /* fresh pair succeeds */
    ck_assert_uint_eq(rd64(0x100), 77);
    ck_assert_uint_eq(rd64(0x108), 43);
}
END_TEST

START_TEST(exclusive_sizes_and_pairs)
{
    CPUState *c = setup();
    c->x[1] = D(0x100);
    c->x[2] = D(0x200);
    c->x[3] = D(0x300);
    c->x[4] = D(0x400);
    c->x[20] = 0xfedcba9876543210ull;
    c->x[21] = 0x0123456789abcdefull;
    wr64(0x300, 0x1111111122222222ull);
    wr64(0x400, 0xaaaaaaaaaaaaaaaaull);
    wr64(0x408, 0xbbbbbbbbbbbbbbbbull);
    const uint32_t code[] = { 
        0x085f7c25u, /* ldxrb w5, [x1] */
        0x08067c34u, /* stxrb w6, w20, [x1] */
        0x485ffc47u, /* ldaxrh w7, [x2] */
        0x4808fc54u, /* stlxrh w8, w20, [x2] */
        0x887f2869u, /* ldxp w9, w10, [x3] */
        0x882b5075u, /* stxp w11, w21, w20, [x3] */
        0xc87fb48cu, /* ldaxp x12, x13, [x4] */
        0xc82ed494u, /* stlxp w14, x20, x21, [x4] */
        0xc87f408fu, /* ldxp x15, x16, [x4] */
        0xc8315475u, /* stxp w17, x21, x21, [x3] */
        0xd4200000u, /* brk #0x0 */
     };
    uint8_t e5 = pat(0x100);
    uint16_t e7 = rd16(0x200);
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->x[5], e5);
    ck_assert_uint_eq(c->x[6], 0);
    ck_assert_uint_eq(dp(0x100)[0], 0x10);
    ck_assert_uint_eq(dp(0x101)[0], pat(0x101));
    ck_assert_uint_eq(c->x[7], e7);
    ck_assert_uint_eq(c->x[8], 0);
    ck_assert_uint_eq(rd16(0x200), 0x3210);
    ck_assert_uint_eq(c->x[9], 0x22222222u);
    ck_assert_uint_eq(c->x[10], 0x11111111u);
    ck_assert_uint_eq(c->x[11], 0);
    ck_assert_uint_eq(rd64(0x300), 0x7654321089abcdefull);
    ck_assert_uint_eq(c->x[12], 0xaaaaaaaaaaaaaaaaull);
    ck_assert_uint_eq(c->x[13], 0xbbbbbbbbbbbbbbbbull);
    ck_assert_uint_eq(c->x[14], 0);
    ck_assert_uint_eq(rd64(0x400), 0xfedcba9876543210ull);
    ck_assert_uint_eq(rd64(0x408), 0x0123456789abcdefull);
    ck_assert_uint_eq(c->x[15], 0xfedcba9876543210ull);
    ck_assert_uint_eq(c->x[16], 0x0123456789abcdefull);
    ck_assert_uint_eq(c->x[17], 1); /* monitor is on x4, not x3 */
    ck_assert_uint_eq(rd64(0x300), 0x7654321089abcdefull);
}
END_TEST

START_TEST(acquire_release)
{
    CPUState *c = setup();
    c->x[1] = D(0x100);
    c->x[2] = 0x8877665544332211ull;
    const uint32_t code[] = { 
        0xc89ffc22u, /* stlr x2, [x1] */
        0x089ffc22u, /* stlrb w2, [x1] */
        0xc8dffc23u, /* ldar x3, [x1] */
        0x08dffc24u, /* ldarb w4, [x1] */
        0x48dffc25u, /* ldarh w5, [x1] */
        0x88dffc26u, /* ldar w6, [x1] */
        0x91002027u, /* add x7, x1, #0x8 */
        0x489ffce2u, /* stlrh w2, [x7] */
        0x889ffce2u, /* stlr w2, [x7] */
        0xc8dffce8u, /* ldar x8, [x7] */
        0xd4200000u, /* brk #0x0 */
     };
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->x[3], 0x8877665544332211ull);
    ck_assert_uint_eq(c->x[4], 0x11);
    ck_assert_uint_eq(c->x[5], 0x2211);
    ck_assert_uint_eq(c->x[6], 0x44332211u);
    ck_assert_uint_eq(c->x[8], (rd64(0x108) & ~0xffffffffull) | 0x44332211u);
    ck_assert_uint_eq(rd32(0x108), 0x44332211u);
}
END_TEST

static void check_align(uint32_t insn, uint64_t addr_reg_val, uint64_t fault_addr)
{
    CPUState *c = setup();
    c->x[1] = addr_reg_val;
    CPUState before = *c;
    const uint32_t code[] = { 0xd503201fu /* nop */, insn, BRK0 };
    ck_assert_int_eq(RUN(c, code), EXC_ALIGN);
    ck_assert_uint_eq(c->pc, HARNESS_CODE + 4);
    ck_assert_uint_eq(c->fault_addr, fault_addr);
    ck_assert(memcmp(c->x, before.x, sizeof c->x) == 0);
    ck_assert(memcmp(c->v, before.v, sizeof c->v) == 0);
}

START_TEST(misaligned_exclusive_and_ordered)
{
    const uint32_t insns[] = { 
        0xc85f7c22u, /* ldxr x2, [x1] */
        0x885ffc22u, /* ldaxr w2, [x1] */
        0x485f7c22u, /* ldxrh w2, [x1] */
        0xc8dffc22u, /* ldar x2, [x1] */
        0x48dffc22u, /* ldarh w2, [x1] */
        0x889ffc22u, /* stlr w2, [x1] */
        0xc8037c22u, /* stxr w3, x2, [x1] */
        0x4803fc22u, /* stlxrh w3, w2, [x1] */
        0xc87f0c22u, /* ldxp x2, x3, [x1] */
        0x887f0c22u, /* ldxp w2, w3, [x1] */
        0xc8240c22u, /* stxp w4, x2, x3, [x1] */
     };
    /* every one of these is misaligned at +1; the 16-byte pairs also at +8 */
    for (unsigned i = 0; i < sizeof insns / sizeof insns[0]; i++)
        check_align(insns[i], D(0x101), D(0x101));
    check_align(insns[8], D(0x108), D(0x108));
    check_align(insns[10], D(0x108), D(0x108));
    check_align(insns[0], D(0x104), D(0x104));
    check_align(insns[9], D(0x104), D(0x104));
}
END_TEST

/* Two host threads, each running its own guest CPU, increment one counter with
 * LDXR/STXR retry loops: no increment may be lost. */
#define MT_ITERS 200000
static void *mt_thread(void *arg)
{
    CPUState *c = aligned_alloc(64, (sizeof *c + 63) & ~(size_t)63);
    cpu_init(c);
    c->tbc = tbc_new(4 << 20);
    c->guest_base = guest_base;
    guest_mem_set_current_cpu(c);
    c->x[1] = D(0x100);
    c->x[4] = MT_ITERS;
    c->pc = HARNESS_CODE;
    CpuException e;
    while ((e = cpu_exec(c)) == EXC_INTERRUPT)
        ;
    *(CpuException *)arg = e;
    tbc_free(c->tbc);
    free(c);
    return NULL;
}

START_TEST(exclusive_counter_two_threads)
{
    CPUState *c = setup();
    wr64(0x100, 0);
    c->x[1] = D(0x100);
    c->x[4] = 1;
    const uint32_t code[] = { 
        0xc85f7c22u, /* ldxr x2, [x1] */
        0x91000442u, /* add x2, x2, #0x1 */
        0xc8037c22u, /* stxr w3, x2, [x1] */
        0x35ffffa3u, /* cbnz w3, 0 <.text> */
        0xd1000484u, /* sub x4, x4, #0x1 */
        0xb5ffff64u, /* cbnz x4, 0 <.text> */
        0xd4200000u, /* brk #0x0 */
     };
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(rd64(0x100), 1);
    pthread_t t[2];
    CpuException e[2];
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, mt_thread, &e[i]), 0);
    for (int i = 0; i < 2; i++) {
        pthread_join(t[i], NULL);
        ck_assert_int_eq(e[i], EXC_BRK);
    }
    guest_mem_set_current_cpu(c);
    ck_assert_uint_eq(rd64(0x100), 1 + 2 * MT_ITERS);
}
END_TEST

/* ---- faults are precise -------------------------------------------------------- */

static CPUState *fault_case(const uint32_t *code, size_t n, uint64_t x1, CpuException exc, unsigned insn_idx)
{
    CPUState *c = setup();
    c->x[1] = x1;
    CPUState before = *c;
    ck_assert_int_eq(harness_run(c, code, n), exc);
    ck_assert_uint_eq(c->pc, HARNESS_CODE + 4 * insn_idx);
    ck_assert(memcmp(c->x, before.x, sizeof c->x) == 0);
    ck_assert(memcmp(c->v, before.v, sizeof c->v) == 0);
    return c;
}

START_TEST(fault_unmapped_load_store)
{
    const uint32_t ld[] = { 
        0xf8408c22u, /* ldr x2, [x1, #8]! */
        0xd4200000u, /* brk #0x0 */
     };
    CPUState *c = fault_case(ld, 2, UNMAPPED, EXC_DATA_ABORT, 0);
    ck_assert_uint_eq(c->fault_addr, UNMAPPED + 8);
    ck_assert(!c->fault_write);

    const uint32_t st[] = { 
        0xf8008422u, /* str x2, [x1], #8 */
        0xd4200000u, /* brk #0x0 */
     };
    c = fault_case(st, 2, UNMAPPED, EXC_DATA_ABORT, 0);
    ck_assert_uint_eq(c->fault_addr, UNMAPPED);
    ck_assert(c->fault_write);

    /* beyond the guest address window: software check */
    c = fault_case(ld, 2, 1ull << 45, EXC_DATA_ABORT, 0);
    ck_assert_uint_eq(c->fault_addr, (1ull << 45) + 8);

    const uint32_t fp[] = { 
        0x3cc10c23u, /* ldr q3, [x1, #16]! */
        0xd4200000u, /* brk #0x0 */
     };
    c = fault_case(fp, 2, UNMAPPED, EXC_DATA_ABORT, 0);
    ck_assert_uint_eq(c->fault_addr, UNMAPPED + 16);
}
END_TEST

START_TEST(fault_second_half_of_pair)
{
    const uint32_t ldp[] = { 
        0xa8c10c22u, /* ldp x2, x3, [x1], #16 */
        0xd4200000u, /* brk #0x0 */
     };
    CPUState *c = fault_case(ldp, 2, D(HARNESS_DATA_SIZE - 8), EXC_DATA_ABORT, 0);
    ck_assert_uint_eq(c->fault_addr, D(HARNESS_DATA_SIZE));

    const uint32_t ldpq[] = { 
        0xadff8c22u, /* ldp q2, q3, [x1, #-16]! */
        0xd4200000u, /* brk #0x0 */
     };
    c = fault_case(ldpq, 2, D(HARNESS_DATA_SIZE), EXC_DATA_ABORT, 0);
    ck_assert_uint_eq(c->fault_addr, D(HARNESS_DATA_SIZE));

    const uint32_t ldxp[] = { 
        0xc87f0c22u, /* ldxp x2, x3, [x1] */
        0xd4200000u, /* brk #0x0 */
     };
    c = fault_case(ldxp, 2, UNMAPPED, EXC_DATA_ABORT, 0);
    ck_assert_uint_eq(c->fault_addr, UNMAPPED);
    ck_assert_uint_eq(c->excl_size, 0);
}
END_TEST

START_TEST(fault_after_earlier_instructions)
{
    const uint32_t code[] = { 
        0xd503201fu, /* nop */
        0xf9400422u, /* ldr x2, [x1, #8] */
        0xd4200000u, /* brk #0x0 */
     };
    CPUState *c = fault_case(code, 3, UNMAPPED, EXC_DATA_ABORT, 1);
    ck_assert_uint_eq(c->fault_addr, UNMAPPED + 8);

    /* earlier loads in the block keep their effect */
    c = setup();
    c->x[1] = UNMAPPED;
    c->x[5] = D(0x10);
    const uint32_t code2[] = { 
        0xf84084a4u, /* ldr x4, [x5], #8 */
        0xf9400022u, /* ldr x2, [x1] */
        0xd4200000u, /* brk #0x0 */
     };
    uint64_t e4 = rd64(0x10);
    ck_assert_int_eq(RUN(c, code2), EXC_DATA_ABORT);
    ck_assert_uint_eq(c->pc, HARNESS_CODE + 4);
    ck_assert_uint_eq(c->x[4], e4);
    ck_assert_uint_eq(c->x[5], D(0x18));
    ck_assert_uint_eq(c->x[2], 0xdead000000000200ull);
}
END_TEST

START_TEST(fault_structures)
{
    const uint32_t ld4[] = { 
        0x4cdf003eu, /* ld4 {v30.16b, v31.16b, v0.16b, v1.16b}, [x1], #64 */
        0xd4200000u, /* brk #0x0 */
     };
    CPUState *c = fault_case(ld4, 2, D(HARNESS_DATA_SIZE - 32), EXC_DATA_ABORT, 0);
    ck_assert_uint_eq(c->fault_addr, D(HARNESS_DATA_SIZE));

    const uint32_t ld1[] = { 
        0x4cc22c20u, /* ld1 {v0.2d-v3.2d}, [x1], x2 */
        0xd4200000u, /* brk #0x0 */
     };
    fault_case(ld1, 2, D(HARNESS_DATA_SIZE - 48), EXC_DATA_ABORT, 0);

    const uint32_t lane[] = { 
        0x0ddfb025u, /* ld3 {v5.s-v7.s}[1], [x1], #12 */
        0xd4200000u, /* brk #0x0 */
     };
    fault_case(lane, 2, UNMAPPED, EXC_DATA_ABORT, 0);

    const uint32_t repl[] = { 
        0x4d60e425u, /* ld4r {v5.8h-v8.8h}, [x1] */
        0xd4200000u, /* brk #0x0 */
     };
    fault_case(repl, 2, D(HARNESS_DATA_SIZE - 6), EXC_DATA_ABORT, 0);

    const uint32_t st[] = { 
        0x4c9f8825u, /* st2 {v5.4s, v6.4s}, [x1], #32 */
        0xd4200000u, /* brk #0x0 */
     };
    c = fault_case(st, 2, UNMAPPED, EXC_DATA_ABORT, 0);
    ck_assert(c->fault_write);
}
END_TEST

/* ---- AdvSIMD structures ---------------------------------------------------------------- */

/* Reference model: LDn multiple structures of nregs = selem registers from
 * memory at off, element size esz, rb bytes per register. */
static void ref_ldn(VReg *out, unsigned selem, unsigned esz, unsigned rb, uint64_t off)
{
    memset(out, 0, sizeof(VReg) * selem);
    for (unsigned e = 0; e < rb / esz; e++)
        for (unsigned s = 0; s < selem; s++)
            memcpy(&out[s].b[e * esz], dp(off + (e * selem + s) * esz), esz);
}

START_TEST(simd_ld1_multiple)
{
    CPUState *c = setup();
    c->x[1] = D(0x100);
    c->x[2] = D(0x200);
    c->x[3] = 40;
    c->x[4] = D(0x300);
    const uint32_t code[] = { 
        0x4cdf2020u, /* ld1 {v0.16b-v3.16b}, [x1], #64 */
        0x0cc3605du, /* ld1 {v29.8b-v31.8b}, [x2], x3 */
        0x4c40ac9fu, /* ld1 {v31.2d, v0.2d}, [x4] */
        0x0c407485u, /* ld1 {v5.4h}, [x4] */
        0xd4200000u, /* brk #0x0 */
     };
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    for (int r = 1; r < 4; r++)
        ck_assert(memcmp(&c->v[r], dp(0x100 + 16 * r), 16) == 0);
    ck_assert_uint_eq(c->x[1], D(0x140));
    ck_assert(memcmp(&c->v[29], dp(0x200), 8) == 0);
    ck_assert_uint_eq(c->v[29].d[1], 0);
    ck_assert(memcmp(&c->v[30], dp(0x208), 8) == 0);
    ck_assert_uint_eq(c->v[30].d[1], 0);
    ck_assert_uint_eq(c->x[2], D(0x200 + 40));
    ck_assert(memcmp(&c->v[31], dp(0x300), 16) == 0);
    ck_assert(memcmp(&c->v[0], dp(0x310), 16) == 0);
    ck_assert_uint_eq(c->x[4], D(0x300));
    ck_assert(memcmp(&c->v[5], dp(0x300), 8) == 0);
    ck_assert_uint_eq(c->v[5].d[1], 0);
}
END_TEST

START_TEST(simd_ldn_multiple)
{
    CPUState *c = setup();
    c->x[1] = D(0x100);
    c->x[2] = D(0x200);
    c->x[3] = D(0x300);
    c->x[4] = D(0x400);
    c->x[5] = (uint64_t)-100;
    const uint32_t code[] = { 
        0x4cdf8434u, /* ld2 {v20.8h, v21.8h}, [x1], #32 */
        0x0cc54842u, /* ld3 {v2.2s-v4.2s}, [x2], x5 */
        0x4c40007eu, /* ld4 {v30.16b, v31.16b, v0.16b, v1.16b}, [x3] */
        0x0cdf0485u, /* ld4 {v5.4h-v8.4h}, [x4], #32 */
        0x4c404c69u, /* ld3 {v9.2d-v11.2d}, [x3] */
        0x0c40806cu, /* ld2 {v12.8b, v13.8b}, [x3] */
        0xd4200000u, /* brk #0x0 */
     };
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    VReg e[4];
    ck_assert_uint_eq(c->x[1], D(0x120));
    ref_ldn(e, 2, 2, 16, 0x100);
    ck_assert(memcmp(&c->v[20], e, 2 * 16) == 0);
    ck_assert_uint_eq(c->v[21].h[7], rd16(0x100 + 30));
    ref_ldn(e, 3, 4, 8, 0x200);
    ck_assert(memcmp(&c->v[2], e, 3 * 16) == 0);
    ck_assert_uint_eq(c->x[2], D(0x200 - 100));
    ref_ldn(e, 4, 1, 16, 0x300);
    ck_assert(memcmp(&c->v[30], &e[0], 32) == 0);
    ck_assert(memcmp(&c->v[0], &e[2], 32) == 0);
    ck_assert_uint_eq(c->x[3], D(0x300));
    ref_ldn(e, 4, 2, 8, 0x400);
    ck_assert(memcmp(&c->v[5], e, 4 * 16) == 0);
    ck_assert_uint_eq(c->x[4], D(0x420));
    ref_ldn(e, 3, 8, 16, 0x300);
    ck_assert(memcmp(&c->v[9], e, 3 * 16) == 0);
    ref_ldn(e, 2, 1, 8, 0x300);
    ck_assert(memcmp(&c->v[12], e, 2 * 16) == 0);
    /* spot checks of the reference against hand-computed values */
    ck_assert_uint_eq(c->v[5].h[1], rd16(0x400 + 8));
    ck_assert_uint_eq(c->v[8].h[3], rd16(0x400 + 30));
    ck_assert_uint_eq(c->v[31].b[2], pat(0x300 + 9));
    ck_assert_uint_eq(c->v[10].d[1], rd64(0x300 + 32));
}
END_TEST

START_TEST(simd_stn_multiple)
{
    CPUState *c = setup();
    for (int r = 0; r < 32; r++)
        for (int j = 0; j < 16; j++)
            c->v[r].b[j] = (uint8_t)(r * 16 + j);
    c->x[1] = D(0x100);
    c->x[2] = D(0x200);
    c->x[3] = D(0x300);
    c->x[4] = D(0x400);
    c->x[5] = 8;
    const uint32_t code[] = { 
        0x4c9fa03fu, /* st1 {v31.16b, v0.16b}, [x1], #32 */
        0x4c858842u, /* st2 {v2.4s, v3.4s}, [x2], x5 */
        0x0c9f4064u, /* st3 {v4.8b-v6.8b}, [x3], #24 */
        0x4c000488u, /* st4 {v8.8h-v11.8h}, [x4] */
        0xd4200000u, /* brk #0x0 */
     };
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert(memcmp(dp(0x100), &c->v[31], 16) == 0);
    ck_assert(memcmp(dp(0x110), &c->v[0], 16) == 0);
    ck_assert_uint_eq(c->x[1], D(0x120));
    for (int e = 0; e < 4; e++) {
        ck_assert_uint_eq(rd32(0x200 + 8 * e), c->v[2].s[e]);
        ck_assert_uint_eq(rd32(0x204 + 8 * e), c->v[3].s[e]);
    }
    ck_assert_uint_eq(c->x[2], D(0x208));
    for (int e = 0; e < 8; e++)
        for (int s = 0; s < 3; s++)
            ck_assert_uint_eq(dp(0x300 + 3 * e + s)[0], (4 + s) * 16 + e);
    ck_assert_uint_eq(dp(0x300 + 24)[0], pat(0x318));
    ck_assert_uint_eq(c->x[3], D(0x318));
    for (int e = 0; e < 8; e++)
        for (int s = 0; s < 4; s++)
            ck_assert_uint_eq(rd16(0x400 + 8 * e + 2 * s), c->v[8 + s].h[e]);
    ck_assert_uint_eq(c->x[4], D(0x400));
}
END_TEST

START_TEST(simd_single_structure)
{
    CPUState *c = setup();
    VReg before[32];
    memcpy(before, c->v, sizeof before);
    c->x[1] = D(0x100);
    c->x[2] = D(0x200);
    c->x[3] = D(0x300);
    c->x[4] = D(0x400);
    c->x[5] = 3;
    const uint32_t code[] = { 
        0x4ddf1420u, /* ld1 {v0.b}[13], [x1], #1 */
        0x4de54821u, /* ld2 {v1.h, v2.h}[5], [x1], x5 */
        0x4ddfb043u, /* ld3 {v3.s-v5.s}[3], [x2], #12 */
        0x0d60a47eu, /* ld4 {v30.d, v31.d, v0.d, v1.d}[0], [x3] */
        0x4d9f808au, /* st1 {v10.s}[2], [x4], #4 */
        0x4dbf848bu, /* st2 {v11.d, v12.d}[1], [x4], #16 */
        0x4d20248du, /* st4 {v13.b-v16.b}[9], [x4] */
        0xd4200000u, /* brk #0x0 */
     };
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    /* lane loads leave the other lanes alone */
    VReg e = before[3];
    e.s[3] = rd32(0x200);
    ck_assert(memcmp(&c->v[3], &e, 16) == 0);
    e = before[5];
    e.s[3] = rd32(0x208);
    ck_assert(memcmp(&c->v[5], &e, 16) == 0);
    ck_assert_uint_eq(c->x[2], D(0x20c));
    e = before[2];
    e.h[5] = rd16(0x103);
    ck_assert(memcmp(&c->v[2], &e, 16) == 0);
    ck_assert_uint_eq(c->x[1], D(0x104));
    e = before[0];
    e.b[13] = pat(0x100);
    e.d[0] = rd64(0x310);
    ck_assert(memcmp(&c->v[0], &e, 16) == 0);
    e = before[1];
    e.h[5] = rd16(0x101);
    e.d[0] = rd64(0x318);
    ck_assert(memcmp(&c->v[1], &e, 16) == 0);
    ck_assert_uint_eq(c->v[30].d[0], rd64(0x300));
    ck_assert_uint_eq(c->v[30].d[1], before[30].d[1]);
    ck_assert_uint_eq(c->v[31].d[0], rd64(0x308));
    ck_assert_uint_eq(c->x[3], D(0x300));
    ck_assert_uint_eq(rd32(0x400), before[10].s[2]);
    ck_assert_uint_eq(rd64(0x404), before[11].d[1]);
    ck_assert_uint_eq(rd64(0x40c), before[12].d[1]);
    for (int s = 0; s < 4; s++)
        ck_assert_uint_eq(dp(0x414 + s)[0], before[13 + s].b[9]);
    ck_assert_uint_eq(dp(0x418)[0], pat(0x418));
    ck_assert_uint_eq(c->x[4], D(0x414));
}
END_TEST

START_TEST(simd_load_replicate)
{
    CPUState *c = setup();
    c->x[1] = D(0x100);
    c->x[2] = D(0x200);
    c->x[3] = D(0x300);
    c->x[4] = 0x1000;
    const uint32_t code[] = { 
        0x4ddfc034u, /* ld1r {v20.16b}, [x1], #1 */
        0x0d40c435u, /* ld1r {v21.4h}, [x1] */
        0x4dffc842u, /* ld2r {v2.4s, v3.4s}, [x2], #8 */
        0x0dc4ec7fu, /* ld3r {v31.1d, v0.1d, v1.1d}, [x3], x4 */
        0x0d60e044u, /* ld4r {v4.8b-v7.8b}, [x2] */
        0x4d40cc48u, /* ld1r {v8.2d}, [x2] */
        0xd4200000u, /* brk #0x0 */
     };
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    ck_assert_uint_eq(c->x[1], D(0x101));
    for (int j = 0; j < 16; j++)
        ck_assert_uint_eq(c->v[20].b[j], pat(0x100));
    for (int j = 0; j < 4; j++)
        ck_assert_uint_eq(c->v[21].h[j], rd16(0x101));
    ck_assert_uint_eq(c->v[21].d[1], 0);
    for (int j = 0; j < 4; j++) {
        ck_assert_uint_eq(c->v[2].s[j], rd32(0x200));
        ck_assert_uint_eq(c->v[3].s[j], rd32(0x204));
    }
    ck_assert_uint_eq(c->x[2], D(0x208));
    ck_assert_uint_eq(c->v[31].d[0], rd64(0x300));
    ck_assert_uint_eq(c->v[31].d[1], 0);
    ck_assert_uint_eq(c->v[0].d[0], rd64(0x308));
    ck_assert_uint_eq(c->v[0].d[1], 0);
    ck_assert_uint_eq(c->v[1].d[0], rd64(0x310));
    ck_assert_uint_eq(c->v[1].d[1], 0);
    ck_assert_uint_eq(c->x[3], D(0x1300));
    for (int s = 0; s < 4; s++) {
        for (int j = 0; j < 8; j++)
            ck_assert_uint_eq(c->v[4 + s].b[j], pat(0x208 + s));
        ck_assert_uint_eq(c->v[4 + s].d[1], 0);
    }
    ck_assert_uint_eq(c->v[8].d[0], rd64(0x208));
    ck_assert_uint_eq(c->v[8].d[1], rd64(0x208));
}
END_TEST

/* 16-bit replicate, 64- and 128-bit forms */
START_TEST(simd_ld1r_half)
{
    CPUState *c = setup();
    c->x[1] = D(0x102);
    const uint32_t code[] = { 
        0x0d40c421u, /* ld1r {v1.4h}, [x1] */
        0x4d40c422u, /* ld1r {v2.8h}, [x1] */
        0xd4200000u, /* brk #0x0 */
     };
    ck_assert_int_eq(RUN(c, code), EXC_BRK);
    for (int j = 0; j < 4; j++)
        ck_assert_uint_eq(c->v[1].h[j], rd16(0x102));
    ck_assert_uint_eq(c->v[1].d[1], 0);
    for (int j = 0; j < 8; j++)
        ck_assert_uint_eq(c->v[2].h[j], rd16(0x102));
}
END_TEST

/* ---- UNDEFINED encodings (as qemu-aarch64 -cpu cortex-a57) ---------------------------- */

START_TEST(undefined_encodings)
{
    static const uint32_t undef[] = {
        0x0c408c00u, /* ld2 {v0.1d, v1.1d}: reserved */
        0x0c417000u, /* ld1 multiple without post-index, Rm != 0 */
        0x0c401000u, /* multiple structures opcode 0001 */
        0x0c60b000u, /* multiple structures bit 21 set */
        0x8c407000u, /* bit 31 set */
        0x0d40d000u, /* ld1r with S = 1 */
        0x0d00c000u, /* st1r does not exist */
        0x0d404400u, /* ld1 lane .h with size<0> = 1 */
        0x0d408800u, /* ld1 lane .s with size<1> = 1 */
        0x0d409400u, /* ld1 lane .d with S = 1 */
        0x0d41a000u, /* single structure without post-index, Rm != 0 */
        0x68400441u, /* ldnp with opc = 01 (no LDNPSW) */
        0x69000441u, /* stpsw does not exist */
        0xe9400441u, /* ldp opc = 11 */
        0xec400441u, /* ldp simd opc = 11 */
        0xf8800420u, /* prfm post-index */
        0xf8800c20u, /* prfm pre-index */
        0xf8800820u, /* prfm unprivileged */
        0xf8a20820u, /* register offset with UXTB */
        0xf8622820u, /* register offset with UXTH */
        0xb9c00041u, /* ldrs(w) size 10 opc 11 */
        0xf9c00041u, /* size 11 opc 11 */
        0x3cc00820u, /* ldtr q: no SIMD unprivileged */
        0x7cc00801u, /* ldr h with opc<1> set */
        0x7dc00001u, /* ldr simd size 01 opc 11 */
        0xdc000020u, /* ldr literal simd opc 11 */
        0x087f0c02u, /* ldxp size 00 (CASP) */
        0x48207c02u, /* stxp size 01 (CASP) */
        0x08df7c03u, /* ldlarb (v8.1 LOR) */
        0x089f7c03u, /* stllrb */
        0xc8a07c02u, /* cas (v8.1 LSE) */
        0xb8e00c41u, /* atomic memory ops (v8.1 LSE) */
        0xb8a00401u, /* pac/ldraa-like slot */
    };
    for (unsigned i = 0; i < sizeof undef / sizeof undef[0]; i++) {
        CPUState *c = setup();
        c->x[0] = c->x[1] = c->x[2] = D(0x100);
        const uint32_t code[] = { undef[i], BRK0 };
        CpuException e = RUN(c, code);
        if (e != EXC_UDEF)
            ck_abort_msg("insn %08x: exception %d, want UDEF", undef[i], e);
        ck_assert_uint_eq(c->pc, HARNESS_CODE);
        ck_assert_uint_eq(c->syndrome, undef[i]);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mem");
    TCase *tc = tcase_create("mem");
    tcase_add_test(tc, gpr_unsigned_offset_and_sign_extension);
    tcase_add_test(tc, gpr_stores_unsigned_offset);
    tcase_add_test(tc, gpr_unscaled_and_unprivileged);
    tcase_add_test(tc, gpr_pre_post_index);
    tcase_add_test(tc, gpr_writeback_rt_equals_rn);
    tcase_add_test(tc, gpr_register_offset);
    tcase_add_test(tc, literal_loads);
    tcase_add_test(tc, prefetch_never_faults);
    tcase_add_test(tc, gpr_pairs);
    tcase_add_test(tc, pair_constrained_unpredictable);
    tcase_add_test(tc, fp_scalar_loads_zero_upper);
    tcase_add_test(tc, fp_scalar_stores_and_pairs);
    tcase_add_test(tc, exclusive_success_then_monitor_cleared);
    tcase_add_test(tc, exclusive_failures);
    tcase_add_test(tc, exclusive_sizes_and_pairs);
    tcase_add_test(tc, acquire_release);
    tcase_add_test(tc, misaligned_exclusive_and_ordered);
    tcase_add_test(tc, exclusive_counter_two_threads);
    tcase_add_test(tc, fault_unmapped_load_store);
    tcase_add_test(tc, fault_second_half_of_pair);
    tcase_add_test(tc, fault_after_earlier_instructions);
    tcase_add_test(tc, fault_structures);
    tcase_add_test(tc, simd_ld1_multiple);
    tcase_add_test(tc, simd_ldn_multiple);
    tcase_add_test(tc, simd_stn_multiple);
    tcase_add_test(tc, simd_single_structure);
    tcase_add_test(tc, simd_load_replicate);
    tcase_add_test(tc, simd_ld1r_half);
    tcase_add_test(tc, undefined_encodings);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
