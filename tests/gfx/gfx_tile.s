# tests/unit/test_bifrost_gfx.c: LD_TILE.v4 (pixel indices r1, coverage r60, conversion
# descriptor constant) into r4-r7, then ST_TILE.v2 of r4-r5.
clause_0: flow=nbtb sr=4 msg=tile
{
    *NOP
    +LD_TILE.v4 t1, r1, r60, #0x030bb000, @r4
}
clause_1: sr=4 msg=tile
{
    *NOP
    +ST_TILE.v2 r1, r60, #0x030bb000, @r4
}
