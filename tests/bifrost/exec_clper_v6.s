# CLPER_OLD on a 4-lane (v6) warp for tests/unit/test_bifrost_exec.c: r13 = r0 of lane r4 (0-3),
# all lanes; then only lanes with r3 != 0: r16 = the same, zero from an inactive lane.
clause_0: flow=nbtb
{
    *NOP
    +CLPER_OLD.i32 r13, r0, r4
    *NOP
    +BRANCHZ.i32.eq r3, pc+64
}
clause_48: flow=nbtb
{
    *NOP
    +CLPER_OLD.i32 r16, r0, r4
}
clause_64:
{
    *NOP
    +NOP
}
