# tests/unit/test_gpu_math.c: exp2(x) on G72 / v7 (Mesa bi_fexp_32: 8:24 fixed point, FEXP); r0 = x, r1 = result (one instruction per clause).
clause_00: flow=nbtb
{
    *MOV.i32 r9, #0x3f800000
    +NOP
}
clause_0: flow=nbtb
{
    *FMA_RSCALE.f32 r2, r0, r9, #0x80000000, #0x18
    +NOP
}
clause_1: flow=nbtb
{
    *NOP
    +F32_TO_S32 r3, r2
}
clause_2:
{
    *NOP
    +FEXP.f32 r1, r3, r2
}
