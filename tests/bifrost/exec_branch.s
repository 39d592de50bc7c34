# Control-flow test shader for tests/unit/test_bifrost_exec.c: if/else on r0 (divergent per
# lane), join, then a counting loop (r3 = 0..5).
clause_0: flow=nbtb
{
    *NOP
    +BRANCHZ.i32.eq r0, pc+80
}
clause_32: flow=nbtb
{
    *NOP
    +MOV.i32 r1, #0x14
    *NOP
    +JUMP pc+96
}
clause_80: flow=nbtb
{
    *NOP
    +MOV.i32 r1, #0xa
    *NOP
    +NOP
}
clause_128: flow=nbtb
{
    *MOV.i32 r2, #0x7
    +NOP
    *NOP
    +MOV.i32 r3, #0x0
}
clause_176: flow=nbtb
{
    *NOP
    +IADD.s32 r3, r3, #0x1
    *NOP
    +ISUB.s32 t1, t1, #0x5
    *NOP
    +BRANCHZ.i32.ne t1, pc+0
}
clause_240:
{
    *NOP
    +NOP
}
