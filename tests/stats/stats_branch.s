# Divergent if/else for tests/unit/test_stats_gpu.c: lanes with r0 == 0 branch to clause_80,
# the others run clause_32 and jump to the join (clause_128), which every lane runs.
clause_0: flow=nbtb
{
    *NOP
    +BRANCHZ.i32.eq r0, pc:else
}
clause_32: flow=nbtb
{
    *NOP
    +MOV.i32 r1, #0x14
    *NOP
    +JUMP pc:join
}
else: flow=nbtb
{
    *NOP
    +MOV.i32 r1, #0xa
    *NOP
    +NOP
}
join:
{
    *MOV.i32 r2, #0x7
    +NOP
    *NOP
    +IADD.s32 r3, r1, t0
}
