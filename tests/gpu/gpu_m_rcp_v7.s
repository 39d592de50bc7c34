# tests/unit/test_gpu_math.c: 1/x on G72 / v7 (FRCP.f32); r0 = x, r1 = result (one instruction per clause).
clause_0:
{
    *NOP
    +FRCP.f32 r1, r0
}
