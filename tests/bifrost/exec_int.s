# Integer ALU test shader for tests/unit/test_bifrost_exec.c: inputs r0, r1 per lane,
# results in r10-r28 (checked against C).
clause_0: flow=nbtb
{
    *IADDC.i32 r10, r0, r1, #0
    +ISUB.s32 r11, r0, r1
    *IMUL.i32 r12, r0, r1
    +IADD.s32.sat r13, r0, r1
    *LSHIFT_OR.i32 r14, r0, #0, r1
    +IADD.u32.sat r15, r0, r1
    *RSHIFT_XOR.i32 r16, r0, r1, r1.b1
    +ICMP.s32.gt r17, r0, r1
    *ARSHIFT.i32 r18, r0, #0, r1.b2
    +ICMP.u32.m1.ge r19, r0, r1
    *CSEL.s32.gt r20, r0, r1, r0, r1
    +MUX.i32 r21, r0, r1, r1
    *CLZ.u32 r22, r0
    +IADD.s32 r23, r0, r1.h1
    *POPCOUNT.i32 r24, r1
    +NOP
}
clause_96:
{
    *BITREV.i32 r26, r0
    +ISUB.u32.sat r25, r0, r1
    *MKVEC.v2i16 r27, r0.h1, r1
    +IADD.u32 r28, r0, r1.b3
    *LSHIFT_AND.i32 t0, r0, #0, r1
    +NOP
    *NOP
    +ICMP.i32.ne r29.h0, t0, r0
}
