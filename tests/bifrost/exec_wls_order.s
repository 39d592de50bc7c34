# Workgroup-local store then load of the same address, in the clause layout Mesa 25.0.7 emits for
# the down-sweep of guest-images/apps/scan.c (`t = tmp[ai]; tmp[ai] = tmp[bi]; tmp[bi] += t;`),
# whose pre-RA pressure scheduler moved the load of tmp[ai] below the store to tmp[ai].  For
# tests/unit/test_bifrost_exec.c: r0 = lane, r8 = off, u0.lo = tmp (WLS offset);
# ai = off * (2 * lane + 1) - 1, bi = off * (2 * lane + 2) - 1.  In program order the load of
# tmp[ai] returns the value just stored, so tmp[ai] = old tmp[bi] and tmp[bi] = 2 * old tmp[bi].
clause_0: flow=nbtb sr=12 wait=0x1 msg=load next_msg=store
{
    *LSHIFT_OR.i32 r10, r0, #0, #0x1
    +IADD.s32 t1, t, #0x2
    *IMUL.i32 t0, r8, t1
    +NOP
    *LSHIFT_OR.i32 t0, t0, #0, #0x2
    +IADD.s32 t1, t, #0xfffffffc
    *NOP
    +IADD.s32 r11, u0.lo, t1
    *NOP
    +LOAD.i32.wls t1, t1, #0x0, @r12
}
clause_80: flow=nbtb sr=12 wait=0x1 msg=store next_msg=load
{
    *NOP
    +IADD.s32 t1, r10, #0x1
    *IMUL.i32 t0, r8, t1
    +NOP
    *LSHIFT_OR.i32 t0, t0, #0, #0x2
    +IADD.s32 t1, t, #0xfffffffc
    *NOP
    +IADD.s32 r10, u0.lo, t1
    *NOP
    +STORE.i32.wls t1, #0x0, @r12
}
clause_144: flow=nbtb osrb=1 sr=10 wait=0x1 msg=load next_msg=load
{
    *NOP
    +LOAD.i32.wls t1, r10, #0x0, @r10
}
clause_176: flow=nbtb sr=12 wait=0x1 msg=load next_msg=store
{
    *NOP
    +LOAD.i32.wls t1, r11, #0x0, @r12
}
clause_208: sr=10 msg=store
{
    *NOP
    +IADD.s32 r10, r12, r10
    *NOP
    +STORE.i32.wls r11, #0x0, @r10
}
