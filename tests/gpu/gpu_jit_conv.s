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
