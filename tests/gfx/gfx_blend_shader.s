# tests/unit/test_bifrost_gfx.c: a blend shader as Mesa builds one: colour in r0-r3, coverage in
# r60; r0 += 1.0, r15 = 5 (registers the fragment shader gets back), BLEND through a constant
# fixed-function descriptor, JUMP r48 (the return).
clause_0: flow=nbtb
{
    *FADD.f32 r0, r0, #0x3f800000
    +NOP
    *NOP
    +IADD.s32 r15, r16, #0x5
}
clause_1: flow=nbtb sr=0 msg=blend
{
    *NOP
    +BLEND t1, r60, #0x12345672, #0x9abcdef0, @r0
}
clause_2: flow=nbtb
{
    *NOP
    +JUMP r48
}
