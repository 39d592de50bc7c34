# Warp-slot test kernel for tests/unit/test_bifrost_exec.c (1-D, u0 = output address): out[gid] =
# r1 as the warp found it (zero: registers start cleared), then r1 = gid + 1, left behind for
# the next warp that takes the same slot.
clause_0: flow=nbtb sr=1 msg=store
{
    *LSHIFT_OR.i32 t0, r60, #0, #0x2
    +NOP
    *NOP
    +IADD.s32 t1, t0, u0.lo
    *NOP
    +STORE.i32 t1, u0.hi, @r1
}
clause_48:
{
    *IADDC.i32 r1, r60, #0x1, #0
    +NOP
}
