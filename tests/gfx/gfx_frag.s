# tests/unit/test_bifrost_gfx.c: the fragment messages as Mesa's bi_emit_* use them: varyings
# (smooth vec4 f32 at the centre, flat u32, frag_z, an f16 vec3 at the centroid with its index in a
# register), DISCARD of lanes with r9 < r10, ATEST (alpha: the high half of r11), ZS_EMIT of depth
# r12 and stencil r13, and BLEND of r0-r3 through render target 0's descriptor.
clause_0: flow=nbtb sr=0 msg=varying
{
    *NOP
    +LD_VAR_IMM.f32.center.store.v4 t1, r61, index:2, @r0
}
clause_1: flow=nbtb sr=4 msg=varying
{
    *NOP
    +LD_VAR_FLAT_IMM.u32 t1, index:1, @r4
}
clause_2: flow=nbtb sr=5 msg=varying
{
    *NOP
    +LD_VAR_SPECIAL.frag_z.f32.clobber.center t1, r61, @r5
}
clause_3: flow=nbtb sr=6 msg=varying
{
    *NOP
    +LD_VAR.f16.centroid.conditional.v3 t1, r61, r8, @r6
}
clause_4: flow=nbtb
{
    *NOP
    +DISCARD.f32.lt r9, r10
}
clause_5: flow=nbtb sr=60 msg=atest
{
    *NOP
    +ATEST t1, r60, r11.h1, @r60
}
clause_6: flow=nbtb sr=60 msg=z_stencil
{
    *NOP
    +ZS_EMIT.z.stencil t1, r12, r13, r60, @r60
}
clause_7: sr=0 msg=blend
{
    *NOP
    +BLEND t1, r60, blend_desc0.lo, blend_desc0.hi, @r0
}
