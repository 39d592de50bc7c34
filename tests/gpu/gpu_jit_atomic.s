# 32-bit atomics (every operation, with and without RETURN, the +1 / -1 forms) on addresses
# masked into the test memory (some unaligned), for tests/unit/test_gpu_jit.c (compiled inline
# by the clause compiler)
clause_0: flow=nbtb
{
    *LSHIFT_AND.i32 t0, r1, #0x7fc, #0x0
    +NOP
    *NOP
    +IADD.s32 r20, t0, u0.lo
    *LSHIFT_AND.i32 t0, r2, #0x7ff, #0x0
    +NOP
    *NOP
    +IADD.s32 r21, t0, u0.lo
}
clause_1: flow=nbtb sr=7 msg=atomic
{
    *ATOM_C.i32.aadd r20, u0.hi, r7
    +ATOM_CX t1, r7, r20, u0.hi, @r7
}
clause_2: flow=nbtb sr=7 msg=atomic
{
    *ATOM_C.i32.asmin r20, u0.hi, r7
    +ATOM_CX t1, r7, r20, u0.hi, @r7
}
clause_3: flow=nbtb sr=7 msg=atomic
{
    *ATOM_C.i32.asmax r21, u0.hi, r7
    +ATOM_CX t1, r7, r21, u0.hi, @r7
}
clause_4: flow=nbtb sr=7 msg=atomic
{
    *ATOM_C.i32.aumin r20, u0.hi, r7
    +ATOM_CX t1, r7, r20, u0.hi, @r7
}
clause_5: flow=nbtb sr=7 msg=atomic
{
    *ATOM_C.i32.aumax r20, u0.hi, r7
    +ATOM_CX t1, r7, r20, u0.hi, @r7
}
clause_6: flow=nbtb sr=7 msg=atomic
{
    *ATOM_C.i32.aand r20, u0.hi, r7
    +ATOM_CX t1, r7, r20, u0.hi, @r7
}
clause_7: flow=nbtb sr=7 msg=atomic
{
    *ATOM_C.i32.aor r21, u0.hi, r7
    +ATOM_CX t1, r7, r21, u0.hi, @r7
}
clause_8: flow=nbtb sr=7 msg=atomic
{
    *ATOM_C.i32.axor r20, u0.hi, r7
    +ATOM_CX t1, r7, r20, u0.hi, @r7
}
clause_9: flow=nbtb sr=7 msg=atomic
{
    *ATOM_C_RETURN.i32.aadd r20, u0.hi, r7
    +ATOM_CX t1, r7, r20, u0.hi, @r7
}
clause_10: flow=nbtb sr=7 msg=atomic
{
    *ATOM_C_RETURN.i32.asmin r20, u0.hi, r7
    +ATOM_CX t1, r7, r20, u0.hi, @r7
}
clause_11: flow=nbtb sr=7 msg=atomic
{
    *ATOM_C_RETURN.i32.aumax r20, u0.hi, r7
    +ATOM_CX t1, r7, r20, u0.hi, @r7
}
clause_12: flow=nbtb sr=7 msg=atomic
{
    *ATOM_C_RETURN.i32.axor r21, u0.hi, r7
    +ATOM_CX t1, r7, r21, u0.hi, @r7
}
clause_13: flow=nbtb sr=7 msg=atomic
{
    *ATOM_C1.i32.ainc r20, u0.hi
    +ATOM_CX t1, r7, r20, u0.hi, @r7
}
clause_14: flow=nbtb sr=7 msg=atomic
{
    *ATOM_C1_RETURN.i32.adec r20, u0.hi
    +ATOM_CX t1, r7, r20, u0.hi, @r7
}
clause_15: flow=nbtb sr=7 msg=atomic
{
    *ATOM_C1_RETURN.i32.aumax1 r20, u0.hi
    +ATOM_CX t1, r7, r20, u0.hi, @r7
}
