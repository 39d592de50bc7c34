# clpeak's single-precision compute kernel in miniature (tests/unit/test_gpu_compute.c: result
# check and GPU_BENCH throughput): x = u2.lo, y = u3.lo (floats); u1.lo times a
# clause of 8 dependent FMA.f32 (x = y x + y, y = x y + x, ... through the T0 passthrough and the
# registers written two tuples earlier; denormals flushed, as Mesa 26 marks OpenCL float clauses);
# then x is stored at u0 + 4 * global id x.
clause_0: flow=nbtb_uncond
{
    *NOP
    +MOV.i32 r0, zero.lo
    *NOP
    +MOV.i32 r1, u2.lo
    *NOP
    +MOV.i32 r2, u3.lo
}
loop: ftz=always flow=nbtb_uncond
{
    *FMA.f32 r1, r2, r1, r2
    +IADD.s32 r0, r0, #0x1
    *FMA.f32 r2, t0, r2, t0
    +NOP
    *FMA.f32 r1, t0, r1, t0
    +NOP
    *FMA.f32 r2, t0, r2, t0
    +NOP
    *FMA.f32 r1, t0, r1, t0
    +NOP
    *FMA.f32 r2, t0, r2, t0
    +NOP
    *FMA.f32 r1, t0, r1, t0
    +ICMP.u32.m1.ge t1, r0, u1.lo
    *FMA.f32 r2, t0, r2, t0
    +BRANCHZ.i16.eq t1.h0, pc:loop
}
clause_store: sr=1 msg=store
{
    *LSHIFT_OR.i32 r3, r60, #0, #0x2
    +NOP
    *RSHIFT_OR.i32 r4, r60, #0, #0x1e
    +NOP
    *NOP
    +IADD.s32 r3, u0.lo, r3
    *NOP
    +IADD.s32 r4, u0.hi, r4
    *NOP
    +ICMP.u32.gt t1, u0.lo, r3
    *NOP
    +IADD.s32 t1, t1, r4
    *NOP
    +STORE.i32 r3, t1, @r1
    *NOP
    +JUMP zero.lo
}
