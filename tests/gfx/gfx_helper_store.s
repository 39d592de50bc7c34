# tests/unit/test_bifrost_gfx.c: lanes with r9 < r10 DISCARD, then every lane stores r5 to
# u0 + r0 (r0 = 4 * lane): helper and discarded lanes' stores have no effect.
clause_0: flow=nbtb
{
    *NOP
    +DISCARD.f32.lt r9, r10
}
clause_1: sr=5 msg=store
{
    *IADDC.i32 t0, r0, u0.lo, #0
    +NOP
    *NOP
    +STORE.i32 t0, u0.hi, @r5
}
