# tests/unit/test_gpu_compute.c: slot = atomic_add(counter, 1) (ATOM_C_RETURN + ATOM_POST);
# out[slot] = gid; atomic_add(sum, gid); atomic_umax(max, gid) (ATOM_C without return).
# Uniforms: u0 = counter address, u1 = out, u2 = sum, u3 = max; preload r60 = global id x.
clause_0: flow=nbtb
{
    *MOV.i32 r4, #0x1
    +NOP
    *NOP
    +MOV.i32 r7, r60
}
clause_16: flow=nbtb sr=4 msg=atomic
{
    *ATOM_C_RETURN.i32.aadd u0.lo, u0.hi, r4
    +ATOM_CX t1, r4, u0.lo, u0.hi, @r4
}
clause_32: flow=nbtb
{
    *ATOM_POST.i32.aadd r6, r4, r5
    +NOP
}
clause_48: flow=nbtb
{
    *LSHIFT_OR.i32 r1, r6, #0, #0x2
    +NOP
}
clause_64: flow=nbtb sr=7 msg=store
{
    *IADDC.i32 t0, r1, u1.lo, #0
    +NOP
    *NOP
    +STORE.i32 t0, u1.hi, @r7
}
clause_96: flow=nbtb sr=7 msg=atomic
{
    *ATOM_C.i32.aadd u2.lo, u2.hi, r7
    +ATOM_CX t1, r7, u2.lo, u2.hi, @r7
}
clause_112: sr=7 msg=atomic
{
    *ATOM_C.i32.aumax u3.lo, u3.hi, r7
    +ATOM_CX t1, r7, u3.lo, u3.hi, @r7
}
