# tests/unit/test_bifrost_gfx.c: vertex attribute fetch as Mesa's bi_emit_load_attr emits it
# (vertex id r61, instance id r62): attribute 0 (vec4 f32), 1 (vec3 f32), the attribute r40 (.auto,
# integer), attribute 3 (vec4 f32); then vertex outputs: LEA_ATTR_IMM of varying 0 + ST_CVT.v4
# of r0-r3, and as Mesa 26 stores varyings (typeless), LEA_ATTR_IMM.u32 of varying 1 + ST_CVT.v3
# of r4-r6.
clause_0: flow=nbtb sr=0 msg=attribute
{
    *NOP
    +LD_ATTR_IMM.f32.v4 t1, r61, r62, attribute_index:0, @r0
}
clause_1: flow=nbtb sr=4 msg=attribute
{
    *NOP
    +LD_ATTR_IMM.f32.v3 t1, r61, r62, attribute_index:1, @r4
}
clause_2: flow=nbtb sr=8 msg=attribute
{
    *NOP
    +LD_ATTR.auto t1, r61, r62, r40, @r8
}
clause_3: flow=nbtb sr=12 msg=attribute
{
    *NOP
    +LD_ATTR_IMM.f32.v4 t1, r61, r62, attribute_index:3, @r12
}
clause_4: flow=nbtb sr=16 msg=attribute
{
    *NOP
    +LEA_ATTR_IMM.f32 t1, r61, r62, attribute_index:0, @r16
}
clause_5: flow=nbtb sr=0 msg=store
{
    *NOP
    +ST_CVT.v4 r16, r17, r18, @r0
}
clause_6: flow=nbtb sr=16 msg=attribute
{
    *NOP
    +LEA_ATTR_IMM.u32 t1, r61, r62, attribute_index:1, @r16
}
clause_7: sr=4 msg=store
{
    *NOP
    +ST_CVT.v3 r16, r17, r18, @r4
}
