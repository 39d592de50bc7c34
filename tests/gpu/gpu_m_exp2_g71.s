# tests/unit/test_gpu_math.c: exp2(x) on G71 (Mesa bi_lower_fexp2_32: FEXP_TABLE + polynomial + FMA_RSCALE); r0 = x, r1 = result (one instruction per clause).
clause_0: flow=nbtb
{
    *FADD.f32.clamp_0_inf r2, r0, #0x49400000
    +NOP
}
clause_1: flow=nbtb
{
    *FADD.f32 r3, r2, #0xc9400000
    +NOP
}
clause_2: flow=nbtb
{
    *FADD.f32.clamp_m1_1 r4, r0, r3.neg
    +NOP
}
clause_3: flow=nbtb
{
    *NOP
    +FEXP_TABLE.u4 r5, r2
}
clause_4: flow=nbtb
{
    *NOP
    +ISUB.u32 r6, r2, #0x49400000
}
clause_5: flow=nbtb
{
    *ARSHIFT.i32 r7, r6, #0, #0x4
    +NOP
}
clause_6: flow=nbtb
{
    *FMA.f32 r8, r4, #0x3d635635, #0x3e75fffa
    +NOP
}
clause_7: flow=nbtb
{
    *FMA.f32 r9, r8, r4, #0x3f317218
    +NOP
}
clause_8: flow=nbtb
{
    *FMA.f32 r10, r4, r9, #0x80000000
    +NOP
}
clause_9: flow=nbtb
{
    *FMA_RSCALE.f32.clamp_0_inf r11, r10, r5, r5, r7
    +NOP
}
clause_10:
{
    *NOP
    +FMAX.f32.nan_propagate r1, r11, r0
}
