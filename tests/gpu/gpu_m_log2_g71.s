# tests/unit/test_gpu_math.c: log2(x) on G71 (Mesa bi_lower_flog2_32: FLOG_TABLE red/base2 + series); r0 = x, r1 = result (one instruction per clause).
clause_0: flow=nbtb
{
    *FREXPM.f32.log r2, r0
    +NOP
}
clause_1: flow=nbtb
{
    *FREXPE.f32.log r3, r0
    +NOP
}
clause_2: flow=nbtb
{
    *NOP
    +S32_TO_F32 r4, r3
}
clause_3: flow=nbtb
{
    *NOP
    +FLOG_TABLE.f32.red r5, r0
}
clause_4: flow=nbtb
{
    *NOP
    +FLOG_TABLE.f32.base2 r6, r0
}
clause_5: flow=nbtb
{
    *FADD.f32 r7, r4, r6
    +NOP
}
clause_6: flow=nbtb
{
    *FMA.f32 r8, r2, r5, #0xbf800000
    +NOP
}
clause_7: flow=nbtb
{
    *FMA.f32 r9, r8, #0xbf000000, #0x3f800000
    +NOP
}
clause_8: flow=nbtb
{
    *FMA.f32 r10, r8, r9, #0x80000000
    +NOP
}
clause_9: flow=nbtb
{
    *FMA.f32 r11, r10, #0x3fb8aa3b, #0x80000000
    +NOP
}
clause_10:
{
    *FADD.f32 r1, r7, r11
    +NOP
}
