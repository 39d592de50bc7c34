# 8- and 16-bit loads (every lane_dest and extension) and stores, global and workgroup-local, for
# tests/unit/test_gpu_jit.c (compiled inline by the clause compiler); addresses from random
# registers masked into the test memory (global) or as they are (workgroup-local: some fault).
clause_0: flow=nbtb sr=4 msg=load
{
    *LSHIFT_AND.i32 t0, r1, #0x7ff, #0x0
    +NOP
    *NOP
    +IADD.s32 t1, t0, u0.lo
    *NOP
    +LOAD.i8.b1 t1, t1, u0.hi, @r4
}
clause_1: flow=nbtb sr=5 msg=load
{
    *LSHIFT_AND.i32 t0, r2, #0x7ff, #0x0
    +NOP
    *NOP
    +IADD.s32 t1, t0, u0.lo
    *NOP
    +LOAD.i8.b3 t1, t1, u0.hi, @r5
}
clause_2: flow=nbtb sr=6 msg=load
{
    *LSHIFT_AND.i32 t0, r3, #0x7ff, #0x0
    +NOP
    *NOP
    +IADD.s32 t1, t0, u0.lo
    *NOP
    +LOAD.i16.h0 t1, t1, u0.hi, @r6
}
clause_3: flow=nbtb sr=7 msg=load
{
    *LSHIFT_AND.i32 t0, r0, #0x7ff, #0x0
    +NOP
    *NOP
    +IADD.s32 t1, t0, u0.lo
    *NOP
    +LOAD.i8.d0.sext t1, t1, u0.hi, @r7
}
clause_4: flow=nbtb sr=10 msg=load
{
    *LSHIFT_AND.i32 t0, r1, #0x7ff, #0x0
    +NOP
    *NOP
    +IADD.s32 t1, t0, u0.lo
    *NOP
    +LOAD.i16.w0.zext t1, t1, u0.hi, @r10
}
clause_5: flow=nbtb sr=11 msg=load
{
    *LSHIFT_AND.i32 t0, r2, #0x7ff, #0x0
    +NOP
    *NOP
    +IADD.s32 t1, t0, u0.lo
    *NOP
    +LOAD.i8.w0.zext t1, t1, u0.hi, @r11
}
clause_6: flow=nbtb sr=12 msg=load
{
    *LSHIFT_AND.i32 t0, r3, #0x7ff, #0x0
    +NOP
    *NOP
    +IADD.s32 t1, t0, u0.lo
    *NOP
    +LOAD.i16.d0.zext t1, t1, u0.hi, @r12
}
clause_7: flow=nbtb sr=14 msg=load
{
    *LSHIFT_AND.i32 t0, r0, #0x7ff, #0x0
    +NOP
    *NOP
    +IADD.s32 t1, t0, u0.lo
    *NOP
    +LOAD.i8.h1.sext t1, t1, u0.hi, @r14
}
clause_8: flow=nbtb sr=4 msg=store
{
    *LSHIFT_AND.i32 t0, r1, #0x7ff, #0x0
    +NOP
    *NOP
    +IADD.s32 t1, t0, u1.lo
    *NOP
    +STORE.i8 t1, u1.hi, @r4
}
clause_9: flow=nbtb sr=5 msg=store
{
    *LSHIFT_AND.i32 t0, r2, #0x7ff, #0x0
    +NOP
    *NOP
    +IADD.s32 t1, t0, u1.lo
    *NOP
    +STORE.i16 t1, u1.hi, @r5
}
clause_10: flow=nbtb sr=6 msg=store
{
    *LSHIFT_AND.i32 t0, r3, #0x7ff, #0x0
    +NOP
    *NOP
    +IADD.s32 t1, t0, u1.lo
    *NOP
    +STORE.i8 t1, u1.hi, @r6
}
clause_11: flow=nbtb sr=5 msg=store
{
    *NOP
    +STORE.i8.wls r2, #0x0, @r5
}
clause_12: flow=nbtb sr=9 msg=load
{
    *NOP
    +LOAD.i16.w0.wls.sext t1, r2, #0x0, @r9
}
clause_13: sr=8 msg=load
{
    *NOP
    +LOAD.i8.b2.wls t1, r3, #0x1, @r8
}
