# tests/unit/test_bifrost_gfx.c: a fragment shader as Mesa 26.1 compiled it for a G72 (piglit's
# fragdepth_gles2, BIFROST_MESA_DEBUG=shaders), in this assembler's syntax: an f16 varying
# (LD_VAR_IMM, index 0), depth = uniform half 1 (word 4) == 1.0 ? the varying : 0.5, ATEST
# (alpha: word 5's high half), ZS_EMIT.z (stencil source zero), BLEND of the uniform colour.
clause_0: flow=nbtb td=1 sr=0 msg=varying
{
    *NOP
    +LD_VAR_IMM.store.f16.center t1, zero.hi, index:0, @r0
}
clause_1: flow=nbtb td=1 sr=60 wait=0x1 msg=atest
{
    *NOP
    +MOV.i32 t1, #0x3c00
    *F16_TO_F32 t0, r0
    +FCMP.v2f16.eq.m1 t1, u2.lo.h11, t1.h00
    *S16_TO_S32 t0, t1
    +MUX.i32 r0, #0x3f000000, t0, t
    *NOP
    +F16_TO_F32 t1, u2.hi.h1
    *NOP
    +ATEST r60, r60, t1, @r60
}
clause_2: flow=nbtb td=1 sr=60 msg=z_stencil
{
    *NOP
    +ZS_EMIT.z t1, r0, zero.hi, r60, @r60
}
clause_3: td=1 sr=0 msg=blend
{
    *MOV.i32 r0, u2.lo
    +MOV.i32 r1, u2.hi
    *NOP
    +BLEND r48, r60, blend_desc0.lo, blend_desc0.hi, @r0
}
