# tests/unit/test_gpu_compute.c: thread-local storage, local-memory atomics and UBO loads (local
# size 16).  A[gid] = gid stored to TLS and loaded back; WLS word 0 += 1 by every thread
# (SEG_ADD + ATOM_C), barrier, B[gid] = WLS word 0 (= threads in the workgroup);
# C[gid] = UBO 0 word lid.  Uniforms: u0 = A, u1 = B, u2 = C.
clause_0: flow=nbtb
{
    *MOV.i32 r2, #0x8
    +NOP
    *MOV.i32 r7, #0x0
    +NOP
    *MOV.i32 r8, #0x1
    +NOP
    *LSHIFT_OR.i32 r1, r55, #0, #0x2
    +NOP
}
clause_1: flow=nbtb sr=60 msg=store
{
    *NOP
    +STORE.i32.tl r2, #0x0, @r60
}
clause_2: flow=nbtb sr=3 msg=load
{
    *NOP
    +LOAD.i32.tl t1, r2, #0x0, @r3
}
clause_3: flow=nbtb sr=3 msg=store
{
    *LSHIFT_OR.i32 t0, r60, #0, #0x2
    +NOP
    *NOP
    +IADD.s32 t1, t0, u0.lo
    *NOP
    +STORE.i32 t1, u0.hi, @r3
}
clause_4: flow=nbtb
{
    *SEG_ADD.wls r5, r7
    +NOP
    *NOP
    +SEG_ADD.wls r6, r7
}
clause_5: flow=nbtb sr=8 msg=atomic
{
    *ATOM_C.i32.aadd r5, r6, r8
    +ATOM_CX t1, r8, r5, r6, @r8
}
clause_6: flow=nbtb msg=barrier
{
    *NOP
    +BARRIER
}
clause_7: flow=nbtb sr=9 msg=load
{
    *NOP
    +LOAD.i32.wls t1, r7, #0x0, @r9
}
clause_8: flow=nbtb sr=9 msg=store
{
    *LSHIFT_OR.i32 t0, r60, #0, #0x2
    +NOP
    *NOP
    +IADD.s32 t1, t0, u1.lo
    *NOP
    +STORE.i32 t1, u1.hi, @r9
}
clause_9: flow=nbtb sr=10 msg=load
{
    *NOP
    +LOAD.i32.ubo t1, r1, r7, @r10
}
clause_10: sr=10 msg=store
{
    *LSHIFT_OR.i32 t0, r60, #0, #0x2
    +NOP
    *NOP
    +IADD.s32 t1, t0, u2.lo
    *NOP
    +STORE.i32 t1, u2.hi, @r10
}
