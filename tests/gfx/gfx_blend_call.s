# tests/unit/test_bifrost_gfx.c: a fragment shader whose BLEND (render target 1) may call a blend
# shader, then writes r20 = r21 + 7 (after the blend shader returns).
clause_0: flow=nbtb sr=0 msg=blend
{
    *NOP
    +BLEND t1, r60, blend_desc1.lo, blend_desc1.hi, @r0
}
clause_1:
{
    *NOP
    +IADD.s32 r20, r21, #0x7
}
