# tests/unit/test_bifrost_gfx.c: a fragment shader as Mesa 26.1 compiled it for a G52 (piglit's
# glsl-es-1.00 sanity.shader_test, two render targets), in this assembler's syntax: alpha from the
# high half of uniform word 5, ATEST, then BLEND of the f16 colour (r0-r1) to render target 0 and
# of the colour widened to f32 (r0-r3) to render target 1, each BLEND writing r48.
clause_0: flow=nbtb td=1 sr=60 msg=atest
{
    *NOP
    +F16_TO_F32 r52, u2.hi.h1
    *NOP
    +ATEST r60, r60, t1, @r60
}
clause_1: flow=nbtb td=1 sr=0 msg=blend
{
    *MOV.i32 r0, u2.lo
    +MOV.i32 r1, u2.hi
    *NOP
    +BLEND r48, r60, blend_desc0.lo, blend_desc0.hi, @r0
}
clause_2: td=1 sr=0 msg=blend
{
    *NOP
    +F16_TO_F32 r49, u2.lo
    *F16_TO_F32 r50, u2.lo.h1
    +F16_TO_F32 r51, u2.hi
    *MOV.i32 r0, r49
    +MOV.i32 r1, t0
    *MOV.i32 r2, r51
    +MOV.i32 r3, r52
    *NOP
    +BLEND r48, r60, blend_desc1.lo, blend_desc1.hi, @r0
}
