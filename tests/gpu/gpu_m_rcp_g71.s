# tests/unit/test_gpu_math.c: 1/x on G71 (Mesa bi_lower_frcp_32: FRCP_APPROX + one Newton step through FMA_RSCALE); r0 = x, r1 = result (one instruction per clause).
clause_0: flow=nbtb
{
    *FREXPM.f32 r3, r0
    +NOP
}
clause_1: flow=nbtb
{
    *NOP
    +FRCP_APPROX.f32 r2, r0
}
clause_2: flow=nbtb
{
    *FREXPE.f32 r4, r0.neg
    +NOP
}
clause_3: flow=nbtb
{
    *FMA_RSCALE.f32.n r5, r3, r2.neg, #0x3f800000, #0x0
    +NOP
}
clause_4:
{
    *FMA_RSCALE.f32 r1, r5, r2, r2, r4
    +NOP
}
