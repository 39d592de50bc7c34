# Straight-line shader for tests/unit/test_stats_gpu.c (hand-counted in the test):
#   clause 0: 3 tuples -- FMA: IMUL, MOV, NOP; ADD: IADD, NOP, FADD; 1 embedded constant
#   clause 48: 1 tuple  -- FMA: NOP; ADD: IADD (end)
clause_0: flow=nbtb
{
    *IMUL.i32 r1, r0, r0
    +IADD.s32 r2, r0, #0x5
    *MOV.i32 r3, r0
    +NOP
    *NOP
    +FADD.f32 r4, r0, t1
}
clause_48:
{
    *NOP
    +IADD.s32 r5, r1, r2
}
