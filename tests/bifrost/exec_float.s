# Float ALU test shader for tests/unit/test_bifrost_exec.c: inputs r0, r1, r2 (f32 bits) and
# r3 (two f16 halves) per lane, results in r10-r31 (checked against C with the host FPU).
clause_0: flow=nbtb
{
    *FADD.f32 r10, r0, r1
    +FADD.f32.rtp r11, r0, r1
    *FADD.f32.rtn r12, r0, r1
    +NOP
    *FMA.f32 r14, r0, r1, r2
    +NOP
    *FMA.f32.rtz r15, r0, r1.neg.abs, r2
    +FADD.f32.rtz r13, r0, r1
    *FADD.f32.clamp_0_1 r16, r0, r1
    +FMIN.f32 r17, r0, r1
    *NOP
    +FMAX.f32.nan_propagate r18, r0, r1
    *FMA.f32 t0, r0, r1, #0
    +FADD.f32 r19, t, r2
}
clause_80: flow=nbtb
{
    *FCMP.f32.lt r20, r0, r1
    +FCMP.f32.ne.m1 r21, r0, r1
    *CSEL.f32.gt r22, r0, r1, r0, r1
    +F32_TO_S32 r23, r0
    *NOP
    +F32_TO_U32.rtn r24, r0
    *FROUND.f32.rtna r25, r0
    +S32_TO_F32 r26, r1
    *FADD.f32 r27, r3.h0, r3.h1
    +U32_TO_F32.rtz r28, r1
    *FADD.f32.rtp r29, r0.abs, r1.neg
    +NOP
}
clause_160:
{
    *FROUND.f32 r30, r1
    +NOP
    *NOP
    +FADD.f32.rto r31, r0, r1
}
