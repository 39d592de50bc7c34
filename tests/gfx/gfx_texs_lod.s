# tests/unit/test_bifrost_gfx.c: TEXS_2D.f32 with a computed LOD (texture and sampler 1) at the
# coordinates in r4, r5, into r0-r3: the texture unit takes each quad's derivatives.
clause_0: sr=0 msg=tex
{
    *NOP
    +TEXS_2D.f32.computed_lod t1, r4, r5, texture_index:1, sampler_index:1, @r0
}
