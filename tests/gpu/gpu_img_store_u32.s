# tests/unit/test_gpu_image.c: image store (write_image*) as Mesa emits it: DTSEL_IMM.attribute_1
# + LEA_ATTR_TEX.u32 (texel gid.x, gid.y, z = u3.lo; attribute u3.hi) -> address + conversion in
# r4-r6, then ST_CVT.v4 of in[gid.y * u2.lo + gid.x] (16 bytes at u0).
clause_0: flow=nbtb sr=4 msg=attribute
{
    *NOP
    +MKVEC.v2i16 t1, r60, r61
    *DTSEL_IMM.attribute_1 t0, t1
    +LEA_ATTR_TEX.u32 t1, t, u3.lo, u3.hi, @r4
}
clause_1: flow=nbtb sr=0 msg=load
{
    *IMUL.i32 t0, r61, u2.lo
    +IADD.s32 t1, t, r60
    *LSHIFT_OR.i32 t0, t1, #0, #0x4
    +NOP
    *IADDC.i32 t0, t0, u0.lo, #0
    +LOAD.i128 t1, t, u0.hi, @r0
}
clause_2: sr=0 msg=store
{
    *NOP
    +ST_CVT.v4 r4, r5, r6, @r0
}
