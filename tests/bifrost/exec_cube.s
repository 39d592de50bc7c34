# Cube-map coordinate selection as Mesa's bi_emit_cube_coord emits it on Bifrost (*CUBEFACE1 and
# +CUBEFACE2 in one tuple, then CUBE_SSEL / CUBE_TSEL on the face) and the packing of the face over
# s (MUX.i32.bit with the 29-bit mask), for tests/unit/test_bifrost_exec.c: direction r0, r1, r2
# (x, y, z) per lane; results r10-r14.
clause_0: flow=nbtb
{
    *CUBEFACE1 t0, r0, r1, r2
    +CUBEFACE2 r11, t
    *LSHIFT_OR.i32 r10, t0, #0, #0x0
    +NOP
}
clause_48: flow=nbtb
{
    *NOP
    +CUBE_SSEL r12, r2, r0, r11
    *NOP
    +CUBE_TSEL r13, r1, r2, r11
}
clause_80:
{
    *NOP
    +MUX.i32.bit r14, r12, r11, #0x1fffffff
}
