# tests/unit/test_gpu_math.c: log2(x) on G72 / v7 (Mesa bi_flog2_32: FREXPE.log, FADD_LSCALE, FLOGD); r0 = x, r1 = result (one instruction per clause).
clause_0: flow=nbtb
{
    *FREXPE.f32.log r2, r0
    +NOP
}
clause_1: flow=nbtb
{
    *NOP
    +S32_TO_F32 r3, r2
}
clause_2: flow=nbtb
{
    *FADD_LSCALE.f32 r4, #0xbf800000, r0
    +NOP
}
clause_3: flow=nbtb
{
    *NOP
    +FLOGD.f32 r5, r0
}
clause_4:
{
    *FMA.f32 r1, r5, r4, r3
    +NOP
}
