# 16-bit / 8-bit vector test shader for tests/unit/test_bifrost_exec.c: r0, r1, r2 hold two
# f16 or i16 lanes (or four i8), r3/r4 f32; results in r10-r23.
clause_0: flow=nbtb
{
    *FADD.v2f16 r10, r0, r1
    +IADD.v2s16.sat r11, r0, r1
    *FADD.v2f16.rtz r12, r0.h10, r1
    +ISUB.v4u8.sat r13, r0, r1
    *V2F32_TO_V2F16 r14, r3, r4
    +NOP
    *MKVEC.v4i8 r16, r0, r1, r0.b2, r1
    +FMIN.v2f16 r15, r0, r1
    *CSEL.v2s16.gt r18, r0, r1, r0, r1
    +FCMP.v2f16.lt.m1 r17, r0, r1
    *NOP
    +F16_TO_F32 r19, r0.h1
    *FMA.v2f16 r21, r0, r1, r2
    +NOP
    *NOP
    +SWZ.v2i16 r20, r0.h10
}
clause_96:
{
    *NOP
    +IADD.v2u16 r22, r0, r1.h00
    *NOP
    +ICMP.v2u16.m1.ge r23, r0, r1
}
