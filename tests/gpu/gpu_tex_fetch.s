# tests/unit/test_gpu_image.c: one texture operation per thread, result to a buffer.
# x = gid.x, y = gid.y (integers: FETCH); TEXC descriptor u2.lo, row length u2.hi;
# staging registers r0 = u3.lo, r1 = u3.hi (the operation's extra operands: z, LOD, layer...);
# out[(gid.y * u2.hi + gid.x)] = r0..r3 (16 bytes) at u0.
clause_0: flow=nbtb
{
    *NOP
    +MOV.i32 r0, u3.lo
    *NOP
    +MOV.i32 r1, u3.hi
}
clause_1: flow=nbtb sr=0 msg=tex
{
    *NOP
    +TEXC t1, r60, r61, u2.lo, @r0
}
clause_2: flow=nbtb
{
    *IMUL.i32 t0, r61, u2.hi
    +IADD.s32 t1, t, r60
    *LSHIFT_OR.i32 r4, t1, #0, #0x4
    +NOP
}
clause_3: sr=0 msg=store
{
    *IADDC.i32 t0, r4, u0.lo, #0
    +NOP
    *NOP
    +STORE.i128 t0, u0.hi, @r0
}
