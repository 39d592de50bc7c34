# tests/unit/test_gpu_image.c: TEXS_2D.f32 (texture 1, sampler 2, zero LOD) per thread, result to a buffer.
# x = gid.x * u1.lo + u1.hi, y = gid.y * u1.lo + u1.hi (floats); row length u2.hi;
# (r0, r1 = u3: unused by TEXS_2D, overwritten by its results);
# out[(gid.y * u2.hi + gid.x)] = r0..r3 (16 bytes) at u0.
clause_0: flow=nbtb
{
    *NOP
    +S32_TO_F32 t1, r60
    *FMA.f32 r2, t1, u1.lo, u1.hi
    +S32_TO_F32 t1, r61
    *FMA.f32 r3, t1, u1.lo, u1.hi
    +NOP
    *NOP
    +MOV.i32 r0, u3.lo
    *NOP
    +MOV.i32 r1, u3.hi
}
clause_1: flow=nbtb sr=0 msg=tex
{
    *NOP
    +TEXS_2D.f32 t1, r2, r3, texture_index:1, sampler_index:2, @r0
}
clause_2: flow=nbtb
{
    *IMUL.i32 t0, r61, u2.hi
    +IADD.s32 t1, t, r60
    *LSHIFT_OR.i32 r4, t1, #0, #0x4
    +NOP
}
clause_3: sr=0 msg=store
{
    *IADDC.i32 t0, r4, u0.lo, #0
    +NOP
    *NOP
    +STORE.i128 t0, u0.hi, @r0
}
