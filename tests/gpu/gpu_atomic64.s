# tests/unit/test_gpu_compute.c: 64-bit global atomics (ATOM_C.i64 / ATOM_C1_RETURN.i64 + ATOM_CX,
# staging as Mesa fills it: the operand in two registers, four staging registers in RETURN form)
# from many workgroups.  Per thread (gid = r60):
#   u0 += gid << 32 | 0xffffff00           (aadd: carries from the low into the high word)
#   u1 += 1                                (ainc, RETURN form whose result is not used)
#   u2 = smax(u2, (gid - 2048) << 32 | gid)
#   u3 = umin(u3, gid << 32 | ~gid)
#   u4 ^= gid << 40 | gid                  (gid << 8 in the high word)
clause_0: flow=nbtb
{
    *MOV.i32 r4, #0xffffff00
    +NOP
    *NOP
    +MOV.i32 r5, r60
    *NOP
    +ISUB.s32 r7, r60, #0x800
    *MOV.i32 r6, r60
    +NOP
}
clause_1: flow=nbtb
{
    *NOP
    +ISUB.s32 r8, #0xffffffff, r60
    *MOV.i32 r9, r60
    +NOP
    *LSHIFT_OR.i32 r11, r60, #0, #0x8
    +NOP
    *NOP
    +MOV.i32 r10, r60
}
clause_sum: flow=nbtb sr=4 msg=atomic
{
    *ATOM_C.i64.aadd u0.lo, u0.hi, r4
    +ATOM_CX t1, r4, u0.lo, u0.hi, @r4
}
clause_count: flow=nbtb sr=12 msg=atomic
{
    *ATOM_C1_RETURN.i64.ainc u1.lo, u1.hi
    +ATOM_CX t1, r12, u1.lo, u1.hi, @r12
}
clause_max: flow=nbtb sr=6 msg=atomic
{
    *ATOM_C.i64.asmax u2.lo, u2.hi, r6
    +ATOM_CX t1, r6, u2.lo, u2.hi, @r6
}
clause_min: flow=nbtb sr=8 msg=atomic
{
    *ATOM_C.i64.aumin u3.lo, u3.hi, r8
    +ATOM_CX t1, r8, u3.lo, u3.hi, @r8
}
clause_xor: sr=10 msg=atomic
{
    *ATOM_C.i64.axor u4.lo, u4.hi, r10
    +ATOM_CX t1, r10, u4.lo, u4.hi, @r10
}
