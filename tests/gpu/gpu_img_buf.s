# tests/unit/test_gpu_image.c: a texel-buffer copy as Mesa 26 emits it for image1d_buffer reads
# and writes: DTSEL_IMM.attribute_1 + LEA_ATTR_IMM.auto (element gid.x of attribute 0) ->
# address + conversion in r4-r6, LD_CVT.v4 into r0-r3; DTSEL_IMM.attribute_1 + LEA_ATTR.auto
# (element gid.x of the attribute u0.lo, through r7) -> r4-r6, ST_CVT.v4 of r0-r3.
clause_0: flow=nbtb sr=4 msg=attribute
{
    *DTSEL_IMM.attribute_1 t0, r60
    +LEA_ATTR_IMM.auto t1, t, zero.lo, attribute_index:0, @r4
}
clause_1: flow=nbtb sr=0 wait=0x1 msg=load
{
    *MOV.i32 r7, u0.lo
    +LD_CVT.v4 t1, r4, r5, r6, @r0
}
clause_2: flow=nbtb sr=4 wait=0x1 msg=attribute
{
    *DTSEL_IMM.attribute_1 t0, r60
    +LEA_ATTR.auto t1, t, zero.lo, r7, @r4
}
clause_3: sr=0 wait=0x1 msg=store
{
    *NOP
    +ST_CVT.v4 r4, r5, r6, @r0
}
