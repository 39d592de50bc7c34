# tests/unit/test_bifrost_gfx.c: a dual-texture TEXC as Mesa's bi_opt_fuse_dual_texture makes
# it (two TEXS_2D.f32 at the coordinates r4, r5 fused): texture / sampler 1 into the staging
# registers r0-r3, texture / sampler 0 into r8-r11 (the descriptor's secondary register), both
# f32 with a computed LOD (a fragment shader's).  Descriptor: primary sampler 1, dual mode,
# primary texture 1, secondary sampler and texture 0, secondary register 8, formats F32 (4),
# masks 0xf.  The next clause reads r8 and r11 back (into r20, r21), as Mesa's code does.
clause_0: flow=nbtb sr=0 msg=tex
{
    *NOP
    +TEXC t1, r4, r5, #0xf9f08015, @r0
}
clause_1: wait=0x1
{
    *MOV.i32 r20, r8
    +NOP
    *MOV.i32 r21, r11
    +NOP
}
