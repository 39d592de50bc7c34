# tests/unit/test_gpu_compute.c: a STORE's staging register written in the same clause (by the FMA
# of the STORE's own tuple, as Mesa schedules it): the message reads it at the end of the clause,
# so out[gid] = gid + 100.  u0 = out.
clause_0: sr=4 msg=store
{
    *NOP
    +MOV.i32 r5, u0.hi
    *LSHIFT_OR.i32 t0, r60, #0, #0x2
    +NOP
    *NOP
    +IADD.s32 t1, t0, u0.lo
    *IADDC.i32 r4, r60, #0x64, #0
    +STORE.i32 t1, r5, @r4
}
