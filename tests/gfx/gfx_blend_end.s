# tests/unit/test_bifrost_gfx.c: a fragment shader's last BLEND in an END clause (Mesa: its
# descriptor's return address is 0) calling a blend shader.
clause_0: sr=0 msg=blend
{
    *NOP
    +BLEND t1, r60, blend_desc0.lo, blend_desc0.hi, @r0
}
