# Atomic exchange test shader for tests/unit/test_bifrost_exec.c: every lane exchanges r4 with the
# word at u0 + r0 (global) and then with local memory word r0 (WLS).
clause_0: flow=nbtb sr=4 msg=atomic
{
    *IADDC.i32 t0, r0, u0.lo, #0
    +NOP
    *NOP
    +AXCHG.i32 t1, t0, u0.hi, @r4
}
clause_32: sr=5 msg=atomic
{
    *NOP
    +AXCHG.i32.wls t1, r0, #0x0, @r5
}
