# Assembler/disassembler round-trip source: every clause size (1..8 tuples, so every quadword
# format), embedded constants, constant quadwords, PC-relative branch offsets, uniforms, special
# FAU values, half-register writes, register ports 0-2, message instructions with staging.
# Written in canonical disassembler form: `make bifrost-test` checks disasm(asm(this)) == this.

# 1 tuple, no constants (format 0 with the clause-end bit)
clause_0: flow=nbtb
{
    *NOP
    +IADD.s32 r1, r2, r3
}
# 1 tuple + 2 constants (one constant quadword)
clause_16: flow=nbtb
{
    *FADD.f32 t0, r0, #0x3f800000
    +FADD.f32 r4, t, #0x40000000
}
# 2 tuples
clause_48: flow=nbtb
{
    *FMA.f32 t0, r1, r2, r3
    +NOP
    *NOP
    +FADD.f32 r5, t0, u3.lo
}
# 3 tuples, embedded constant 0
clause_80: flow=nbtb
{
    *IADDC.i32 t0, r10, #0x12345678, #0
    +NOP
    *LSHIFT_OR.i32 r11, t0, #0, #0x10
    +IADD.s32 t1, t0, r12
    *CSEL.f32.gt t0, r14, r15, t0, t1
    +ICMP.s32.gt r16, r17, lane_id.lo
}
# 4 tuples with three different constants
clause_144: flow=nbtb
{
    *MOV.i32 t0, #0x1
    +NOP
    *MOV.i32 t0, #0x2
    +IADD.s32 r20, t, t0
    *MOV.i32 t0, #0x3
    +IADD.s32 r21, t, t1
    *NOP
    +NOP
}
# 5 tuples
clause_208: flow=nbtb
{
    *FMA.f32 t0, r0, r1, #0
    +FADD.f32 t1, t, r2
    *FMA.f32 t0, t1, u0.hi, #0
    +NOP
    *FMA.f32 t0, t0, #0xbf800000, #0.neg
    +NOP
    *FADD.f32.clamp_0_1 r3.h0, t0, r4.abs.neg
    +NOP
    *NOP
    +IADD.s32 r5, t1, warp_id.lo
}
# 6 tuples
clause_272: flow=nbtb
{
    *NOP
    +MOV.i32 r30, r31
    *NOP
    +MOV.i32 r32, r33
    *NOP
    +MOV.i32 r34, r35
    *NOP
    +MOV.i32 r36, r37
    *NOP
    +MOV.i32 r38, r39
    *NOP
    +MOV.i32 r40, #0x2a
}
# 7 tuples
clause_352: flow=nbtb
{
    *MOV.i32 r1, r60
    +NOP
    *MOV.i32 r2, r61
    +NOP
    *MOV.i32 r3, r62
    +NOP
    *MOV.i32 r4, r57
    +NOP
    *MOV.i32 r5, r58
    +NOP
    *MOV.i32 r6, r59
    +NOP
    *NOP
    +MOV.i32 r7, core_id.lo
}
# 8 tuples: last tuple writes one register; FMA and ADD writes in one register block
clause_432: flow=nbtb
{
    *IADDC.i32 r8, r1, r2, #0
    +IADD.s32 r9, r3, r1
    *IADDC.i32 r10, r5, r6, #0
    +IADD.s32 r11, r6, r5
    *LSHIFT_AND.i32 t0, r1, #0, #0xff
    +NOP
    *RSHIFT_OR.i32 r12, t0, #0, #0x4
    +NOP
    *NOP
    +NOP
    *NOP
    +NOP
    *NOP
    +NOP
    *ARSHIFT.i32 r13, r9, #0, #0x1f
    +NOP
}
# a load: message type and staging register from the instruction
clause_544: flow=nbtb sr=8 msg=load
{
    *NOP
    +LOAD.i32 t1, u1.lo, u1.hi, @r8
}
# a store
clause_560: flow=nbtb sr=9 msg=store
{
    *NOP
    +STORE.i32 r2, r3, @r9
}
# PC-relative branch (offset in the upper word of a constant)
clause_576: flow=nbtb_uncond
{
    *NOP
    +BRANCHZ.i16.eq r0.h0, pc-576
}
clause_608: flow=nbtb_uncond
{
    *NOP
    +JUMP pc+32
}
# barrier, then the final clause
clause_640: flow=nbtb wait=0x80 slot=7 msg=barrier
{
    *NOP
    +BARRIER
}
clause_656:
{
    *NOP
    +NOP
}
