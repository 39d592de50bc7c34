# tests/unit/test_gpu_math.c: sin(x) (Mesa bi_lower_fsincos_32: FSIN/FCOS_TABLE + Taylor); r0 = x, r1 = result (one instruction per clause).
clause_0: flow=nbtb
{
    *FMA.f32 r2, r0, #0x3f22f98d, #0x49400000
    +NOP
}
clause_1: flow=nbtb
{
    *FADD.f32 r3, r2, #0xc9400000
    +NOP
}
clause_2: flow=nbtb
{
    *FMA.f32 r4, r3, #0xbfc90fd0, r0
    +NOP
}
clause_3: flow=nbtb
{
    *NOP
    +FSIN_TABLE.u6 r5, r2
}
clause_4: flow=nbtb
{
    *NOP
    +FCOS_TABLE.u6 r6, r2
}
clause_5: flow=nbtb
{
    *FMA_RSCALE.f32 r7, r4, r4, #0x80000000, #0xffffffff
    +NOP
}
clause_6: flow=nbtb
{
    *FMA.f32 r8, r7, r5.neg, #0x80000000
    +NOP
}
clause_7: flow=nbtb
{
    *FMA.f32.clamp_m1_1 r9, r4, r6, r8
    +NOP
}
clause_8:
{
    *FADD.f32 r1, r9, r5
    +NOP
}
