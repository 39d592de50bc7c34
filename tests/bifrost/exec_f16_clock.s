# FRCP.f16 / FRSQ.f16 (h0, h1, abs, neg) and LD_GCLK for tests/unit/test_bifrost_exec.c: two f16
# in r2; results in r10-r13; the cycle counter in r14-r15, the system timestamp in r16-r17.
clause_0: flow=nbtb
{
    *NOP
    +FRCP.f16 r10, r2
    *NOP
    +FRSQ.f16 r11, r2.h1
    *NOP
    +FRSQ.f16 r12, r2.neg.abs
    *NOP
    +FRCP.f16 r13, r2.neg.h1
}
clause_48: flow=nbtb sr=14 msg=attribute
{
    *NOP
    +LD_GCLK.u64.cycle_counter t1, @r14
}
clause_64: sr=16 wait=0x1 msg=attribute
{
    *NOP
    +LD_GCLK.u64.system_timestamp t1, @r16
}
