# Cross-lane permute test shader (v7) for tests/unit/test_bifrost_exec.c: r0 = value, r1 = lane
# 0-7, r2 = xor mask 0-3, r4 = lane 0-3, r5 = xor mask 0-1, r3 = lane active in the divergent part.
# All lanes: r10-r13.  Then only lanes with r3 != 0 run r14-r17 (the others keep r14-r17).
clause_0: flow=nbtb
{
    *NOP
    +CLPER.i32.subgroup8.zero r10, r0, r1
    *NOP
    +CLPER.i32.xor.subgroup4.umax r11, r0, r2
    *NOP
    +CLPER.i32.xor.subgroup2.f1 r12, r0, r5
    *NOP
    +CLPER_OLD.i32 r13, r0, r4
}
clause_48: flow=nbtb
{
    *NOP
    +BRANCHZ.i32.eq r3, pc+80
}
clause_80: flow=nbtb
{
    *NOP
    +CLPER.i32.subgroup8.smax r14, r0, r1
    *NOP
    +CLPER.i32.xor.subgroup4.v2inf r15, r0, r2
    *NOP
    +CLPER_OLD.i32 r16, r0, r4
    *NOP
    +CLPER.i32.subgroup4.infn r17, r0, r4
}
clause_128:
{
    *NOP
    +NOP
}
