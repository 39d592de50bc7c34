# Branch taken by whole workgroups of 4 threads, alternately (tests/unit/test_stats_gpu.c, report
# determinism): r0 = global id x & 4; threads with r0 == 0 branch to `else`, the others run
# clause_48 and jump to the join.  Host threads running different workgroups first meet the
# clause's two edges in different orders.
mask: flow=nbtb
{
    *LSHIFT_AND.i32 r0, r60, #0x4, #0
    +NOP
}
branch: flow=nbtb
{
    *NOP
    +BRANCHZ.i32.eq r0, pc:else
}
then: flow=nbtb
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
    *NOP
    +IADD.s32 r3, r1, r60
}
