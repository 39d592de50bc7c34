# More lane-wise integer/conversion ops for tests/unit/test_bifrost_exec.c: inputs r0, r1 (lanes),
# r2 (f32), r3 (small exponent); results in r10-r21.
clause_0:
{
    *LSHIFT_OR.v2i16 r10, r0, #0, r1
    +IABS.s32 r11, r0
    *ARSHIFT.v4i8 r12, r0, #0, r1
    +HADD.s32 r13, r0, r1
    *IMUL.v2i16 r14, r0, r1
    +S16_TO_F32 r15, r0.h1
    *RSHIFT_AND.v4i8 r16, r0, r1, r1
    +V2S16_TO_V2F16.rtz r17, r0
    *NOP
    +V2F16_TO_V2U16 r18, r1
    *NOP
    +LDEXP.f32 r19, r2, r3
    *NOP
    +ICMP.v4s8.gt r20, r0, r1
    *NOP
    +V2S8_TO_V2S16 r21, r0.b21
}
