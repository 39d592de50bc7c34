# Miscellaneous lane-wise and float-inspection ops for tests/unit/test_bifrost_exec.c: r0, r1
# integer lanes, r2 two f16, r3 f32; results in r10-r22.
clause_0: flow=nbtb
{
    *CLZ.v4u8 r11, r0
    +SWZ.v4i8 r10, r0.b3210
    *NOP
    +IABS.v2s16 r12, r0
    *NOP
    +HADD.v2s16 r13, r0, r1
    *NOP
    +HADD.v4u8.rtp r14, r0, r1
    *NOP
    +FROUND.v2f16.rtn r15, r2
    *NOP
    +V2U8_TO_V2F16 r16, r0.b23
    *QUIET.f32 r18, r3
    +F16_TO_S32.rtn r17, r2.h1
    *FREXPM.f32 r22, r3
    +NOP
}
clause_96:
{
    *NOP
    +ILOGB.f32 r20, r3
    *NOP
    +FREXPE.f32 r21, r3
    *NOP
    +LOGB.f32 r19, r3
}
