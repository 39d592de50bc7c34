# Lanes with r0 != 0 loop five times (r3 = 1..5) while the lanes with r0 == 0 wait at the else
# clause, then both join: for tests/unit/test_gpu_jit.c, runs of compiled clauses while other
# live lanes wait (what --stats counts as partial runs: bi_clause_count.partial).
clause_0: flow=nbtb
{
    *NOP
    +BRANCHZ.i32.eq r0, pc+176
}
clause_32: flow=nbtb
{
    *NOP
    +MOV.i32 r3, #0x0
}
clause_64: flow=nbtb
{
    *NOP
    +IADD.s32 r3, r3, #0x1
    *NOP
    +ISUB.s32 t1, t1, #0x5
    *NOP
    +BRANCHZ.i32.ne t1, pc+0
}
clause_128: flow=nbtb
{
    *NOP
    +MOV.i32 r1, #0x14
    *NOP
    +JUMP pc+96
}
clause_176: flow=nbtb
{
    *NOP
    +MOV.i32 r1, #0xa
    *NOP
    +NOP
}
clause_224:
{
    *NOP
    +NOP
}
