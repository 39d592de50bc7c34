# Register-write timing test shader for tests/unit/test_bifrost_exec.c (see test_timing).
clause_0: flow=nbtb
{
    *NOP
    +IADD.s32 r0, r0, r1
    *MOV.i32 r4, r0
    +IADD.s32 r5, t1, r1
    *NOP
    +MOV.i32 r6, lane_id.lo
}
clause_48:
{
    *MOV.i32 r7, r0
    +NOP
}
