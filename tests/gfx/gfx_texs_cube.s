# tests/unit/test_bifrost_gfx.c: TEXS_CUBE.f32 as Mesa's bi_emit_texs emits it for a simple cube
# lookup: s in r4, t in r5, CUBEFACE2's face word in r6 (face in bits 31:29), texture and sampler
# 1, into r0-r3.
clause_0: sr=0 msg=tex
{
    *NOP
    +TEXS_CUBE.f32 t1, r4, r5, r6, sampler_index:1, texture_index:1, @r0
}
