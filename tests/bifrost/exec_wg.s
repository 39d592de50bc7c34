# Workgroup test kernel for tests/unit/test_bifrost_exec.c (1-D, 16 threads, u0 = output
# address): local[lid] = lid; barrier; out[gid] = local[(lid + 1) % 16].  Preloads: r55 = local
# id, r60 = global id.  Warps that run before the others are released only by the barrier.
clause_0: flow=nbtb sr=55 msg=store
{
    *LSHIFT_OR.i32 t0, r55, #0, #0x2
    +NOP
    *NOP
    +STORE.i32.wls t0, #0x0, @r55
}
clause_48: flow=nbtb msg=barrier
{
    *NOP
    +BARRIER
}
clause_64: flow=nbtb sr=1 msg=load
{
    *IADDC.i32 t0, r55, #0x1, #0
    +NOP
    *LSHIFT_AND.i32 t0, t0, #0x3c, #0x2
    +NOP
    *NOP
    +LOAD.i32.wls t1, t0, #0x0, @r1
}
clause_128: flow=nbtb sr=1 msg=store
{
    *LSHIFT_OR.i32 t0, r60, #0, #0x2
    +NOP
    *NOP
    +IADD.s32 t1, t0, u0.lo
    *NOP
    +STORE.i32 t1, u0.hi, @r1
}
clause_176:
{
    *NOP
    +NOP
}
