# Vector loads and stores (64, 96 and 128 bits per lane, global and workgroup-local) for the
# back ends' differential test (tests/unit/test_gpu_jit.c): r0 = an address, r1 = its high word;
# loads land in their staging registers at the clause end, stores read theirs there.
clause_0: flow=nbtb sr=4 msg=load
{
    *NOP
    +LOAD.i128 t1, r0, r1, @r4
}
clause_16: flow=nbtb sr=8 msg=store
{
    *NOP
    +IADD.s32 r7, r2, #0x4
    *NOP
    +STORE.i64 r7, r1, @r8
}
clause_64: flow=nbtb sr=10 msg=load
{
    *NOP
    +LOAD.i96 t1, r3, r1, @r10
}
clause_80: flow=nbtb sr=4 msg=store
{
    *NOP
    +STORE.i128 r2, r1, @r4
}
clause_96: flow=nbtb sr=12 msg=store
{
    *NOP
    +STORE.i96.wls r5, #0x0, @r12
}
clause_128: flow=nbtb sr=14 msg=load
{
    *NOP
    +LOAD.i64.wls t1, r5, #0x0, @r14
}
clause_160: sr=16 msg=load
{
    *NOP
    +LOAD.i64 t1, r6, r1, @r16
}
