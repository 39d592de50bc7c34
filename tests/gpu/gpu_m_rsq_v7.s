# tests/unit/test_gpu_math.c: 1/sqrt(x) on G72 / v7 (FRSQ.f32); r0 = x, r1 = result (one instruction per clause).
clause_0:
{
    *NOP
    +FRSQ.f32 r1, r0
}
