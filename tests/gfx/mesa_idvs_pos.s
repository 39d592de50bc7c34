# tests/unit/test_bifrost_gfx.c: an IDVS position shader as Mesa 26.1 compiled it for a G52
# (piglit's glsl-es-1.00 sanity.shader_test, BIFROST_MESA_DEBUG=shaders), in this assembler's
# syntax: attribute 0 (vec4 f32), 1/w clamped to +-32768, x/y/z * 1/w * u[k].lo + u[k].hi, and
# the position stored through ST_CVT with the Snap 4 conversion at r58/r59.
clause_0: flow=nbtb sr=0 msg=attribute
{
    *NOP
    +LD_ATTR_IMM.f32.v4 t1, r61, r62, attribute_index:0, @r0
}
clause_1: flow=nbtb wait=0x1
{
    *NOP
    +FRCP.f32 t1, r3
    *NOP
    +FMAX.f32 r3, t1, #0xc7000000
}
clause_2: sr=0 msg=store
{
    *NOP
    +FMIN.f32 r3, r3, #0x47000000
    *FMA.f32 r0, r0, t1, #0.neg
    +NOP
    *FMA.f32 r1, r1, r3, #0.neg
    +NOP
    *FMA.f32 r2, r2, r3, #0.neg
    +NOP
    *FMA.f32 r0, r0, u0.lo, u0.hi
    +NOP
    *FMA.f32 r1, r1, u1.lo, u1.hi
    +NOP
    *FMA.f32 r2, r2, u2.lo, u2.hi
    +NOP
    *NOP
    +ST_CVT.v4 r58, r59, #0x0105e000, @r0
}
