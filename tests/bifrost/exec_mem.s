# Memory test shader for tests/unit/test_bifrost_exec.c: r0 = 4 * lane; uniforms u0 = input
# buffer address, u1 = output buffer address; out[lane] = 2 * in[lane], then byte/half loads
# with extension, a 64-bit store and a workgroup-local (WLS) store/load round trip.
clause_0: flow=nbtb sr=4 msg=load
{
    *IADDC.i32 t0, r0, u0.lo, #0
    +NOP
    *NOP
    +LOAD.i32 t1, t0, u0.hi, @r4
}
clause_32: flow=nbtb
{
    *NOP
    +IADD.s32 r5, r4, r4
}
clause_48: flow=nbtb sr=5 msg=store
{
    *IADDC.i32 t0, r0, u1.lo, #0
    +NOP
    *NOP
    +STORE.i32 t0, u1.hi, @r5
}
clause_80: flow=nbtb sr=6 msg=load
{
    *IADDC.i32 t0, r0, u0.lo, #0
    +NOP
    *NOP
    +LOAD.i8.w0.sext t1, t0, u0.hi, @r6
}
clause_112: flow=nbtb sr=7 msg=load
{
    *IADDC.i32 t0, r0, u0.lo, #0
    +NOP
    *NOP
    +LOAD.i16.h1 t1, t0, u0.hi, @r7
}
clause_144: flow=nbtb sr=8 msg=load
{
    *IADDC.i32 t0, r0, u0.lo, #0
    +NOP
    *NOP
    +LOAD.i64 t1, t0, u0.hi, @r8
}
clause_176: flow=nbtb sr=5 msg=store
{
    *NOP
    +STORE.i32.wls r0, #0x0, @r5
}
clause_208: sr=10 msg=load
{
    *NOP
    +LOAD.i32.wls t1, r0, #0x0, @r10
}
