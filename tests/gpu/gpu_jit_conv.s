# Conversions and shifts the clause compiler compiles without a lane-loop kind (byte / half
# zero-extension, integer -> float at round to nearest, arithmetic shift with lane selects);
# tests/unit/test_gpu_jit.c runs it under both back ends from random registers.
clause_0: flow=nbtb
{
    *U8_TO_U32 r10, r0.b1
    +NOP
    *NOP
    +U8_TO_U32 r11, r1.b3
    *U8_TO_U32 r12, r2
    +NOP
    *NOP
    +U32_TO_F32 r13, r0
    *NOP
    +S32_TO_F32 r14, r1
    *ARSHIFT.i32 r16, r0, #0, r1
    +NOP
    *U8_TO_U32 t0, r3.b2
    +U32_TO_F32 r15, t
    *ARSHIFT.i32 r18, r2, #0, r3.b3
    +NOP
}
clause_1:
{
    *NOP
    +S32_TO_F32 r17, r3
    *NOP
    +U32_TO_F32 r19, r4
    *ARSHIFT.i32 r20, r4, #0, r5.b1
    +NOP
}
# Mesa's division / reciprocal / conversion helpers
clause_2:
{
    *FREXPE.f32 r21, r0.neg
    +NOP
    *FREXPM.f32 r23, r2
    +NOP
    *NOP
    +F32_TO_U32 r22, r1
    *NOP
    +F32_TO_S32 r24, r3
    *FMA_RSCALE.f32 r25, r0, r1, r2, #0x5
    +NOP
    *NOP
    +F32_TO_U32.rtz r26, r4
    *FMA_RSCALE.f32.n r27, r4, r5.neg, r6, #0xfffffd00
    +NOP
    *NOP
    +FRCP_APPROX.f32 r28, r5
}
clause_3:
{
    *FMA_RSCALE.f32 r29, r6.abs, r7, r1, #0x300
    +NOP
    *FREXPE.f32 r30, r6
    +NOP
    *NOP
    +FRCP_APPROX.f32 r31, r7.neg
}
# FMA_RSCALE's rounding to odd: a * a = 1 + 2^-11 + 2^-24, a binary32 midpoint, and c = +-2^-80
# decides the rounding (binary64 rounding alone would tie to even: down both times)
clause_4:
{
    *NOP
    +MOV.i32 r40, #0x3f800800
    *NOP
    +MOV.i32 r41, #0x17800000
    *NOP
    +MOV.i32 r42, #0x97800000
    *FMA_RSCALE.f32 r32, r40, r40, r41, #0x0
    +NOP
    *FMA_RSCALE.f32 r33, r40, r40, r42, #0x0
    +NOP
}
# byte vectors: swizzles and per-byte comparisons
clause_5:
{
    *NOP
    +SWZ.v4i8 r34, r0.b3210
    *NOP
    +SWZ.v4i8 r35, r1.b1032
    *NOP
    +ICMP.v4i8.m1.eq r36, r0, r1
    *NOP
    +ICMP.v4i8.i1.ne r37, r2, r2
    *NOP
    +ICMP.v4s8.gt r38, r0, r1
    *NOP
    +ICMP.v4u8.m1.ge r39, r2, r3
}
clause_6:
{
    *NOP
    +ICMP.v4s8.ge r41, r3, r0
    *NOP
    +ICMP.v4u8.gt r43, r1, r2
    *NOP
    +SWZ.v4i8 r44, r2.b0011
    *NOP
    +ICMP.v4i8.eq r45, r4, r4
}
# segment addresses (workgroup-local, null kept null) and ATOM_C's address pair
clause_7:
{
    *SEG_ADD.wls r46, r0
    +NOP
    *NOP
    +SEG_ADD.wls r47, r0
    *SEG_ADD.wls.preserve_null r48, r1
    +NOP
    *NOP
    +SEG_ADD.wls.preserve_null r49, r1
    *SEG_ADD.wls r50, r3
    +NOP
    *NOP
    +SEG_ADD.wls r51, r3
}
# FCMP.f32.gtlt (ordered not-equal, which the SSE code makes of two predicates), NaNs among the
# random registers
clause_gtlt: flow=nbtb
{
    *FCMP.f32.gtlt r30, r0, r1
    +NOP
    *FCMP.f32.gtlt.m1 r31, r2.abs, r3.neg
    +NOP
    *FCMP.f32.gtlt.f1 r32, r4, r4
    +NOP
}
# an END clause whose branch is taken: its lanes finish all the same (clause_next)
clause_8: flow=nbtb
{
    *NOP
    +JUMP pc:clause_9
}
clause_9:
{
    *NOP
    +JUMP pc:clause_8
}
