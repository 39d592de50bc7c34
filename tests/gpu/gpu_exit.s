# tests/unit/test_gpu_compute.c: lanes with an odd local id branch to address zero (Mesa's branch to
# the end of the shader: the thread ends); the others store out[gid] = gid.  u0 = out.
clause_0: flow=nbtb
{
    *LSHIFT_AND.i32 r1, r55, #0x1, #0
    +NOP
}
clause_16: flow=nbtb_uncond
{
    *NOP
    +BRANCHZ.i16.ne r1.h0, zero.lo
}
clause_32: sr=60 msg=store
{
    *LSHIFT_OR.i32 t0, r60, #0, #0x2
    +NOP
    *NOP
    +IADD.s32 t1, t0, u0.lo
    *NOP
    +STORE.i32 t1, u0.hi, @r60
}
