# tests/unit/test_bifrost_gfx.c: VAR_TEX.f32 as Mesa emits it for texture2D(s, v) with a varying
# coordinate: varying 2 sampled through texture / sampler 1 (zero LOD) into r0-r3.
clause_0: sr=0 msg=var_tex
{
    *NOP
    +VAR_TEX.f32.store.center t1, varying_index:2, texture_index:1, @r0
}
