# tests/unit/test_gpu_math.c: 1/sqrt(x) on G71 (Mesa bi_lower_frsq_32); r0 = x, r1 = result (one instruction per clause).
clause_0: flow=nbtb
{
    *FREXPM.f32.sqrt r3, r0
    +NOP
}
clause_1: flow=nbtb
{
    *NOP
    +FRSQ_APPROX.f32 r2, r0
}
clause_2: flow=nbtb
{
    *FREXPE.f32.sqrt r4, r0.neg
    +NOP
}
clause_3: flow=nbtb
{
    *FMA.f32 r6, r2, r2, #0x80000000
    +NOP
}
clause_4: flow=nbtb
{
    *FMA_RSCALE.f32.n r5, r3, r6.neg, #0x3f800000, #0xffffffff
    +NOP
}
clause_5:
{
    *FMA_RSCALE.f32.n r1, r5, r2, r2, r4
    +NOP
}
