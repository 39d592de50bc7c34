# tests/unit/test_gpu_compute.c: workgroup sum of 16 u32 (local size 16) through local memory
# and barriers: local[lid] = in[gid]; then for s = 1, 2, 4, 8: v = local[lid] + local[(lid + s) % 16],
# barrier, local[lid] = v, barrier (every element ends as the total); out[wg] = v.
# Uniforms: u0 = in, u1 = out; preloads r55 = local id, r57 = workgroup id x, r60 = global id x.
clause_0: flow=nbtb sr=4 msg=load
{
    *LSHIFT_OR.i32 r2, r55, #0, #0x2
    +NOP
    *LSHIFT_OR.i32 t0, r60, #0, #0x2
    +NOP
    *IADDC.i32 t0, t0, u0.lo, #0
    +NOP
    *NOP
    +LOAD.i32 t1, t0, u0.hi, @r4
}
clause_a: flow=nbtb sr=4 msg=store
{
    *NOP
    +STORE.i32.wls r2, #0x0, @r4
}
clause_b: flow=nbtb msg=barrier
{
    *NOP
    +BARRIER
}
clause_l1: flow=nbtb sr=4 msg=load
{
    *NOP
    +LOAD.i32.wls t1, r2, #0x0, @r4
}
clause_m1: flow=nbtb sr=5 msg=load
{
    *IADDC.i32 t0, r55, #0x1, #0
    +NOP
    *LSHIFT_AND.i32 t0, t0, #0x3c, #0x2
    +NOP
    *NOP
    +LOAD.i32.wls t1, t0, #0x0, @r5
}
clause_s1: flow=nbtb
{
    *NOP
    +IADD.s32 r6, r4, r5
}
clause_b1: flow=nbtb msg=barrier
{
    *NOP
    +BARRIER
}
clause_w1: flow=nbtb sr=6 msg=store
{
    *NOP
    +STORE.i32.wls r2, #0x0, @r6
}
clause_c1: flow=nbtb msg=barrier
{
    *NOP
    +BARRIER
}
clause_l2: flow=nbtb sr=4 msg=load
{
    *NOP
    +LOAD.i32.wls t1, r2, #0x0, @r4
}
clause_m2: flow=nbtb sr=5 msg=load
{
    *IADDC.i32 t0, r55, #0x2, #0
    +NOP
    *LSHIFT_AND.i32 t0, t0, #0x3c, #0x2
    +NOP
    *NOP
    +LOAD.i32.wls t1, t0, #0x0, @r5
}
clause_s2: flow=nbtb
{
    *NOP
    +IADD.s32 r6, r4, r5
}
clause_b2: flow=nbtb msg=barrier
{
    *NOP
    +BARRIER
}
clause_w2: flow=nbtb sr=6 msg=store
{
    *NOP
    +STORE.i32.wls r2, #0x0, @r6
}
clause_c2: flow=nbtb msg=barrier
{
    *NOP
    +BARRIER
}
clause_l4: flow=nbtb sr=4 msg=load
{
    *NOP
    +LOAD.i32.wls t1, r2, #0x0, @r4
}
clause_m4: flow=nbtb sr=5 msg=load
{
    *IADDC.i32 t0, r55, #0x4, #0
    +NOP
    *LSHIFT_AND.i32 t0, t0, #0x3c, #0x2
    +NOP
    *NOP
    +LOAD.i32.wls t1, t0, #0x0, @r5
}
clause_s4: flow=nbtb
{
    *NOP
    +IADD.s32 r6, r4, r5
}
clause_b4: flow=nbtb msg=barrier
{
    *NOP
    +BARRIER
}
clause_w4: flow=nbtb sr=6 msg=store
{
    *NOP
    +STORE.i32.wls r2, #0x0, @r6
}
clause_c4: flow=nbtb msg=barrier
{
    *NOP
    +BARRIER
}
clause_l8: flow=nbtb sr=4 msg=load
{
    *NOP
    +LOAD.i32.wls t1, r2, #0x0, @r4
}
clause_m8: flow=nbtb sr=5 msg=load
{
    *IADDC.i32 t0, r55, #0x8, #0
    +NOP
    *LSHIFT_AND.i32 t0, t0, #0x3c, #0x2
    +NOP
    *NOP
    +LOAD.i32.wls t1, t0, #0x0, @r5
}
clause_s8: flow=nbtb
{
    *NOP
    +IADD.s32 r6, r4, r5
}
clause_b8: flow=nbtb msg=barrier
{
    *NOP
    +BARRIER
}
clause_w8: flow=nbtb sr=6 msg=store
{
    *NOP
    +STORE.i32.wls r2, #0x0, @r6
}
clause_c8: flow=nbtb msg=barrier
{
    *NOP
    +BARRIER
}
clause_end: sr=6 msg=store
{
    *LSHIFT_OR.i32 t0, r57, #0, #0x2
    +NOP
    *NOP
    +IADD.s32 t1, t0, u1.lo
    *NOP
    +STORE.i32 t1, u1.hi, @r6
}
