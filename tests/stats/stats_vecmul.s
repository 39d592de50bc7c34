# tests/unit/test_stats_gpu.c: c[gid] = a[gid] * b[gid] (f32) -- tests/gpu/gpu_vecadd.s with an FMA
# for the FADD: the same code as vecadd except clause 80, so the two are different programs that
# share four of their five clauses (same pcs, same bytes).  Uniforms u0 = a, u1 = b, u2 = c;
# preload r60 = global id x.
clause_0: flow=nbtb
{
    *LSHIFT_OR.i32 r1, r60, #0, #0x2
    +NOP
}
clause_16: flow=nbtb sr=4 msg=load
{
    *IADDC.i32 t0, r1, u0.lo, #0
    +NOP
    *NOP
    +LOAD.i32 t1, t0, u0.hi, @r4
}
clause_48: flow=nbtb sr=5 msg=load
{
    *IADDC.i32 t0, r1, u1.lo, #0
    +NOP
    *NOP
    +LOAD.i32 t1, t0, u1.hi, @r5
}
clause_80: flow=nbtb
{
    *FMA.f32 r6, r4, r5, #0
    +NOP
}
clause_96: sr=6 msg=store
{
    *IADDC.i32 t0, r1, u2.lo, #0
    +NOP
    *NOP
    +STORE.i32 t0, u2.hi, @r6
}
