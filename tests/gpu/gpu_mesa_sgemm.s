# Mesa 25.0.7 (rusticl + panfrost, Mali-G71) output for the sgemm_naive kernel of
# guest-images/apps/sgemm_naive.c (C = A * B, one work-item per element, row = global id 1,
# col = global id 0), disassembled by malibu-disasm.  FAU uniforms: u0 = A, u1 = B, u2 = C
# (64-bit addresses), u3 = M | N << 32, u4.lo = K.  Used by tests/unit/test_gpu_compute.c (result
# and GPU_BENCH throughput on compiler-written code).
clause_0: flow=nbtb_uncond
{
    *NOP
    +ICMP.u32.m1.gt r0, u3.lo, r61
    *NOP
    +ICMP.u32.m1.gt t1, u3.hi, r60
    *CSEL.i32.eq t0, t1, #0, #0, r0
    +BRANCHZ.i16.eq t.h0, zero.lo
}
clause_48: flow=nbtb_uncond prefetch=1
{
    *NOP
    +MOV.i32 r0, zero.lo
    *NOP
    +MOV.i32 r1, zero.lo
}
clause_80: flow=nbtb_uncond prefetch=1 wait=0x1 next_msg=load
{
    *NOP
    +ICMP.u32.m1.ge t1, r0, u4.lo
    *NOP
    +BRANCHZ.i16.eq t1.h0, pc:clause_160
}
clause_128: flow=nbtb
{
    *NOP
    +JUMP pc:clause_400
}
clause_160: flow=nbtb prefetch=1 sr=2 wait=0x1 msg=load next_msg=load
{
    *IMUL.i32 t0, r61, u4.lo
    +IADD.s32 r2, t, r0
    *LSHIFT_OR.i32 r3, t1, #0, #0x2
    +NOP
    *RSHIFT_OR.i32 r2, r2, #0, #0x1e
    +NOP
    *NOP
    +IADD.s32 r3, u0.lo, r3
    *NOP
    +IADD.s32 r2, u0.hi, r2
    *NOP
    +ICMP.u32.gt t1, u0.lo, r3
    *NOP
    +IADD.s32 t1, t1, r2
    *NOP
    +LOAD.i32 t1, r3, t1, @r2
}
clause_256: flow=nbtb prefetch=1 sr=3 wait=0x1 msg=load
{
    *IMUL.i32 t0, r0, u3.hi
    +IADD.s32 r3, t, r60
    *LSHIFT_OR.i32 r4, t1, #0, #0x2
    +NOP
    *RSHIFT_OR.i32 r3, r3, #0, #0x1e
    +NOP
    *NOP
    +IADD.s32 r4, u1.lo, r4
    *NOP
    +IADD.s32 r3, u1.hi, r3
    *NOP
    +ICMP.u32.gt t1, u1.lo, r4
    *NOP
    +IADD.s32 t1, t1, r3
    *NOP
    +LOAD.i32 t1, r4, t1, @r3
}
clause_352: flow=nbtb_uncond
{
    *NOP
    +IADD.s32 r0, r0, #0x1
    *FMA.f32 r1, r2, r3, r1
    +JUMP pc:clause_80
}
clause_400: flow=nbtb prefetch=1 wait=0x1 next_msg=store
{
    *IMUL.i32 t0, r61, u3.hi
    +NOP
    *NOP
    +IADD.s32 r0, t0, r60
}
clause_432: sr=1 msg=store
{
    *LSHIFT_OR.i32 r2, r0, #0, #0x2
    +NOP
    *RSHIFT_OR.i32 r0, r0, #0, #0x1e
    +NOP
    *NOP
    +IADD.s32 r2, u2.lo, r2
    *NOP
    +IADD.s32 r0, u2.hi, r0
    *NOP
    +ICMP.u32.gt t1, u2.lo, r2
    *NOP
    +IADD.s32 t1, t1, r0
    *NOP
    +STORE.i32 r2, t1, @r1
    *NOP
    +JUMP zero.lo
}
