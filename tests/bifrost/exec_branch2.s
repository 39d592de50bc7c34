# Two-operand and typed-zero branches for tests/unit/test_bifrost_exec.c: r5 = 1 if
# (int)r0 < (int)r1, else 2; r6 = 3 if the f32 in r2 is <= 0, else 4.
clause_0: flow=nbtb
{
    *NOP
    +BRANCH.s32.lt r0, r1, pc+80
}
clause_32: flow=nbtb
{
    *NOP
    +MOV.i32 r5, #0x2
    *NOP
    +JUMP pc+80
}
clause_80: flow=nbtb
{
    *NOP
    +MOV.i32 r5, #0x1
}
clause_112: flow=nbtb
{
    *NOP
    +BRANCHZ.f32.le r2, pc+80
}
clause_144: flow=nbtb
{
    *NOP
    +MOV.i32 r6, #0x4
    *NOP
    +JUMP pc+80
}
clause_192: flow=nbtb
{
    *NOP
    +MOV.i32 r6, #0x3
}
clause_224:
{
    *NOP
    +NOP
}
