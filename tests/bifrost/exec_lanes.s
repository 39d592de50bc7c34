# Instructions the executor runs as lane loops (bifrost_exec.c exec_fast), with the modifiers those
# loops handle, for tests/unit/test_bifrost_exec.c: inputs r0, r1, r2 per lane (f32 bits or
# integers), results in r10-r21 (checked against C, on 4- and 8-lane warps, some lanes inactive).
clause_0: flow=nbtb
{
    *FMA.f32 r10, r0.abs, r1.neg, r2.neg.abs
    +NOP
    *NOP
    +FCMP.f32.lt.m1 r11, r0.neg, r1
    *FADD.f32.clamp_m1_1 r12, r0.abs, r1.neg
    +NOP
    *NOP
    +MUX.i32.neg r13, r0, r1, r2
    *FCMP.f32.ge r14, r0, r1.abs
    +NOP
    *NOP
    +MUX.i32.fp_zero r15, r0, r1, r2
    *LSHIFT_AND.i32.not r16, r0, r1.not, r2
    +NOP
    *NOP
    +MUX.i32.bit r17, r0, r1, r2
}
clause_96:
{
    *RSHIFT_XOR.i32 r18, r0, r1, r2
    +NOP
    *NOP
    +ICMP.s32.m1.ge r19, r0, r1
    *CSEL.u32.ge r20, r0, r1, r2, r1
    +NOP
    *MKVEC.v2i16 r21, r0.h1, r1.h1
    +NOP
}
