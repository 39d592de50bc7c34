/* A small x86-64 encoder for the native back end: just the instruction forms the
 * emitters use, each written as a function named after its assembly.
 *
 * Operands: registers are X_RAX..X_R15; memory operands are [base + disp] or
 * [base + index + disp] (scale 1).  Widths: W64 selects the 64-bit form, W32 the
 * 32-bit one (which zero-extends into the full register, as A64 W writes do). */
#ifndef MALIBU_X64_ASM_H
#define MALIBU_X64_ASM_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum {
    X_RAX, X_RCX, X_RDX, X_RBX, X_RSP, X_RBP, X_RSI, X_RDI,
    X_R8, X_R9, X_R10, X_R11, X_R12, X_R13, X_R14, X_R15,
    X_NONE = -1,
};
enum { W32 = 0, W64 = 1 };

/* Condition codes (the low nibble of Jcc / SETcc / CMOVcc). */
enum {
    CC_O, CC_NO, CC_B, CC_AE, CC_E, CC_NE, CC_BE, CC_A,
    CC_S, CC_NS, CC_P, CC_NP, CC_L, CC_GE, CC_LE, CC_G,
    CC_ALWAYS = 16, CC_NEVER = 17,
};

/* ALU group numbers (the /digit of 0x81/0x83 and the opcode base of the reg forms). */
enum { ALU_ADD = 0, ALU_OR = 1, ALU_ADC = 2, ALU_SBB = 3, ALU_AND = 4, ALU_SUB = 5, ALU_XOR = 6, ALU_CMP = 7 };
/* Shift group numbers (/digit of 0xC1 / 0xD3). */
enum { SH_ROL = 0, SH_ROR = 1, SH_SHL = 4, SH_SHR = 5, SH_SAR = 7 };

typedef struct Asm {
    uint8_t *p, *end; /* end: X_ASM_SLACK bytes before the buffer's end (x_asm) */
    bool overflow; /* ran past end: the caller discards the code and retries after a flush */
} Asm;

/* Every byte, dword and qword is written as one 8-byte store at p, whose bytes after the value
 * are scratch that the next ones overwrite (so code is only ever written at the end of what is
 * already emitted, into free space).  The store's type is not a character type: the compiler
 * may then assume it leaves Asm.p and Asm.end alone and keep them in registers across an
 * instruction's bytes, where a char store (which may alias anything) made it reload p after
 * each byte (a chain through memory per byte: compiling was 8 % of clinfo's time). */
#define X_ASM_SLACK 8
typedef uint64_t x_u64_unaligned __attribute__((aligned(1)));

/* An assembler writing from p, with buffer end limit. */
static inline Asm x_asm(uint8_t *p, uint8_t *limit) { return (Asm){ p, limit - X_ASM_SLACK, false }; }

static inline void x_put(Asm *a, uint64_t v, unsigned bytes)
{
    if (a->p < a->end) {
        *(x_u64_unaligned *)a->p = v;
        a->p += bytes;
    } else {
        a->overflow = true;
    }
}
static inline void x_b(Asm *a, uint8_t v) { x_put(a, v, 1); }
/* Little-endian immediates. */
static inline void x_d32(Asm *a, uint32_t v) { x_put(a, v, 4); }
static inline void x_d64(Asm *a, uint64_t v) { x_put(a, v, 8); }
static inline bool fits_i32(int64_t v) { return v == (int32_t)v; }

static inline void x_rex(Asm *a, int w, int reg, int index, int base, bool force)
{
    uint8_t r = (uint8_t)(0x40 | (w << 3) | ((reg >> 3) & 1) << 2 | ((index >> 3) & 1) << 1 | ((base >> 3) & 1));
    if (r != 0x40 || force)
        x_b(a, r);
}

/* An index register scaled by 1 << s (s = 0..3) in the [base + index + disp] forms below. */
#define X_SCALED(r, s) ((r) | (int)(s) << 5)

/* ModRM (+SIB, disp) for reg field `reg` and memory [base + index + disp] (index X_NONE: none;
 * X_SCALED: index << s). */
static inline void x_modrm_mem(Asm *a, int reg, int base, int index, int32_t disp)
{
    int mod = disp == 0 && (base & 7) != 5 ? 0 : disp == (int8_t)disp ? 1 : 2;
    if (index == X_NONE && (base & 7) != 4) {
        x_b(a, (uint8_t)(mod << 6 | (reg & 7) << 3 | (base & 7)));
    } else {
        x_b(a, (uint8_t)(mod << 6 | (reg & 7) << 3 | 4));
        x_b(a, (uint8_t)(index == X_NONE ? 4 << 3 | (base & 7) : ((index >> 5) & 3) << 6 | (index & 7) << 3 | (base & 7)));
    }
    if (mod == 1)
        x_b(a, (uint8_t)disp);
    else if (mod == 2)
        x_d32(a, (uint32_t)disp);
}

/* Generic "op reg, [mem]" with up to two opcode bytes (op2 < 0: one byte). */
static inline void x_op_mem(Asm *a, int w, int op1, int op2, int reg, int base, int index, int32_t disp, bool byte_reg)
{
    x_rex(a, w, reg, index == X_NONE ? 0 : index, base, byte_reg && reg >= 4);
    x_b(a, (uint8_t)op1);
    if (op2 >= 0)
        x_b(a, (uint8_t)op2);
    x_modrm_mem(a, reg, base, index, disp);
}

/* lea dst, [base + index << scale + disp] (w: 64 or 32-bit result; index not rsp; scale 0..3). */
static inline void x_lea_sib_w(Asm *a, int w, int dst, int base, int index, unsigned scale, int32_t disp)
{
    int mod = disp == 0 && (base & 7) != 5 ? 0 : disp == (int8_t)disp ? 1 : 2;
    x_rex(a, w, dst, index, base, false);
    x_b(a, 0x8D);
    x_b(a, (uint8_t)(mod << 6 | (dst & 7) << 3 | 4));
    x_b(a, (uint8_t)(scale << 6 | (index & 7) << 3 | (base & 7)));
    if (mod == 1)
        x_b(a, (uint8_t)disp);
    else if (mod == 2)
        x_d32(a, (uint32_t)disp);
}
static inline void x_lea_sib(Asm *a, int dst, int base, int index, unsigned scale, int32_t disp) { x_lea_sib_w(a, W64, dst, base, index, scale, disp); }

/* Generic "op reg, rm" register form. */
static inline void x_op_rr(Asm *a, int w, int op1, int op2, int reg, int rm)
{
    x_rex(a, w, reg, 0, rm, false);
    x_b(a, (uint8_t)op1);
    if (op2 >= 0)
        x_b(a, (uint8_t)op2);
    x_b(a, (uint8_t)(0xC0 | (reg & 7) << 3 | (rm & 7)));
}

/* ---- moves ---- */
static inline void x_load(Asm *a, int w, int r, int base, int32_t d) { x_op_mem(a, w, 0x8B, -1, r, base, X_NONE, d, false); }
static inline void x_store(Asm *a, int w, int base, int32_t d, int r) { x_op_mem(a, w, 0x89, -1, r, base, X_NONE, d, false); }
static inline void x_mov_rr(Asm *a, int w, int dst, int src) { x_op_rr(a, w, 0x8B, -1, dst, src); }

/* Guest memory at [base + index]: sized loads with zero/sign extension, sized stores. */
static inline void x_ldx(Asm *a, int size, bool sext, int sext64, int r, int base, int index, int32_t disp)
{
    switch (size) {
    case 0: x_op_mem(a, sext ? sext64 : 0, 0x0F, sext ? 0xBE : 0xB6, r, base, index, disp, false); break;
    case 1: x_op_mem(a, sext ? sext64 : 0, 0x0F, sext ? 0xBF : 0xB7, r, base, index, disp, false); break;
    case 2:
        if (sext && sext64)
            x_op_mem(a, W64, 0x63, -1, r, base, index, disp, false);
        else
            x_op_mem(a, W32, 0x8B, -1, r, base, index, disp, false);
        break;
    default: x_op_mem(a, W64, 0x8B, -1, r, base, index, disp, false); break;
    }
}
static inline void x_stx(Asm *a, int size, int r, int base, int index, int32_t disp)
{
    switch (size) {
    case 0: x_op_mem(a, 0, 0x88, -1, r, base, index, disp, true); break;
    case 1: x_b(a, 0x66); x_op_mem(a, 0, 0x89, -1, r, base, index, disp, false); break;
    case 2: x_op_mem(a, W32, 0x89, -1, r, base, index, disp, false); break;
    default: x_op_mem(a, W64, 0x89, -1, r, base, index, disp, false); break;
    }
}

static inline void x_mov_imm(Asm *a, int r, uint64_t v)
{
    if (v <= 0xffffffffu) {            /* mov r32, imm32 zero-extends */
        x_rex(a, 0, 0, 0, r, false);
        x_b(a, (uint8_t)(0xB8 + (r & 7)));
        x_d32(a, (uint32_t)v);
    } else if (fits_i32((int64_t)v)) { /* mov r64, simm32 */
        x_rex(a, 1, 0, 0, r, false);
        x_b(a, 0xC7);
        x_b(a, (uint8_t)(0xC0 | (r & 7)));
        x_d32(a, (uint32_t)v);
    } else {
        x_rex(a, 1, 0, 0, r, false);
        x_b(a, (uint8_t)(0xB8 + (r & 7)));
        x_d64(a, v);
    }
}
/* mov qword [base + d], simm32 */
static inline void x_store_imm32(Asm *a, int w, int base, int32_t d, int32_t v)
{
    x_op_mem(a, w, 0xC7, -1, 0, base, X_NONE, d, false);
    x_d32(a, (uint32_t)v);
}
static inline void x_store_imm16(Asm *a, int base, int32_t d, uint16_t v)
{
    x_b(a, 0x66);
    x_op_mem(a, 0, 0xC7, -1, 0, base, X_NONE, d, false);
    x_b(a, (uint8_t)v);
    x_b(a, (uint8_t)(v >> 8));
}
static inline void x_store_imm8(Asm *a, int base, int32_t d, uint8_t v)
{
    x_op_mem(a, 0, 0xC6, -1, 0, base, X_NONE, d, false);
    x_b(a, v);
}
static inline void x_load_byte(Asm *a, int r, int base, int32_t d) { x_op_mem(a, 0, 0x0F, 0xB6, r, base, X_NONE, d, false); }

/* movzx / movsx register forms: from 8 (from_size 0) or 16 (1) bits, movsxd (2). */
static inline void x_movzx_rr(Asm *a, int dst, int src, int from_size)
{
    x_rex(a, 0, dst, 0, src, src >= 4);
    x_b(a, 0x0F);
    x_b(a, from_size ? 0xB7 : 0xB6);
    x_b(a, (uint8_t)(0xC0 | (dst & 7) << 3 | (src & 7)));
}
static inline void x_movsx_rr(Asm *a, int w, int dst, int src, int from_size)
{
    if (from_size == 2) {
        x_op_rr(a, W64, 0x63, -1, dst, src);
        return;
    }
    x_rex(a, w, dst, 0, src, src >= 4);
    x_b(a, 0x0F);
    x_b(a, from_size ? 0xBF : 0xBE);
    x_b(a, (uint8_t)(0xC0 | (dst & 7) << 3 | (src & 7)));
}

/* ---- arithmetic ---- */
static inline void x_alu_rr(Asm *a, int w, int op, int dst, int src) { x_op_rr(a, w, op * 8 + 3, -1, dst, src); }
static inline void x_alu_rm(Asm *a, int w, int op, int dst, int base, int32_t d) { x_op_mem(a, w, op * 8 + 3, -1, dst, base, X_NONE, d, false); }
static inline void x_alu_ri(Asm *a, int w, int op, int r, int32_t imm)
{
    x_rex(a, w, 0, 0, r, false);
    if (imm == (int8_t)imm) {
        x_b(a, 0x83);
        x_b(a, (uint8_t)(0xC0 | op << 3 | (r & 7)));
        x_b(a, (uint8_t)imm);
    } else {
        x_b(a, 0x81);
        x_b(a, (uint8_t)(0xC0 | op << 3 | (r & 7)));
        x_d32(a, (uint32_t)imm);
    }
}
/* op [base + d], imm (memory destination; used for counters and flag tests). */
static inline void x_alu_mi(Asm *a, int w, int op, int base, int32_t d, int32_t imm)
{
    if (imm == (int8_t)imm) {
        x_op_mem(a, w, 0x83, -1, op, base, X_NONE, d, false);
        x_b(a, (uint8_t)imm);
    } else {
        x_op_mem(a, w, 0x81, -1, op, base, X_NONE, d, false);
        x_d32(a, (uint32_t)imm);
    }
}
/* cmp byte [base + d], imm8 */
static inline void x_cmp_m8i(Asm *a, int base, int32_t d, uint8_t imm)
{
    x_op_mem(a, 0, 0x80, -1, ALU_CMP, base, X_NONE, d, false);
    x_b(a, imm);
}
static inline void x_cmp_r8m(Asm *a, int r, int base, int32_t d) { x_op_mem(a, 0, 0x3A, -1, r, base, X_NONE, d, true); }
static inline void x_xor_r8m(Asm *a, int r, int base, int32_t d) { x_op_mem(a, 0, 0x32, -1, r, base, X_NONE, d, true); }
static inline void x_or_r8m(Asm *a, int r, int base, int32_t d) { x_op_mem(a, 0, 0x0A, -1, r, base, X_NONE, d, true); }
static inline void x_test_rr(Asm *a, int w, int r1, int r2) { x_op_rr(a, w, 0x85, -1, r2, r1); }
/* test r, imm32 (sign-extended to 64 bits for W64) */
static inline void x_test_ri(Asm *a, int w, int r, int32_t imm)
{
    x_rex(a, w, 0, 0, r, false);
    x_b(a, 0xF7);
    x_b(a, (uint8_t)(0xC0 | (r & 7)));
    x_d32(a, (uint32_t)imm);
}
static inline void x_shift_ri(Asm *a, int w, int op, int r, uint8_t amt)
{
    if (amt == 0)
        return;
    x_rex(a, w, 0, 0, r, false);
    x_b(a, 0xC1);
    x_b(a, (uint8_t)(0xC0 | op << 3 | (r & 7)));
    x_b(a, amt);
}
static inline void x_shift_rcl(Asm *a, int w, int op, int r)
{
    x_rex(a, w, 0, 0, r, false);
    x_b(a, 0xD3);
    x_b(a, (uint8_t)(0xC0 | op << 3 | (r & 7)));
}
static inline void x_not(Asm *a, int w, int r) { x_rex(a, w, 0, 0, r, false); x_b(a, 0xF7); x_b(a, (uint8_t)(0xD0 | (r & 7))); }
static inline void x_neg(Asm *a, int w, int r) { x_rex(a, w, 0, 0, r, false); x_b(a, 0xF7); x_b(a, (uint8_t)(0xD8 | (r & 7))); }
static inline void x_imul_rr(Asm *a, int w, int dst, int src) { x_op_rr(a, w, 0x0F, 0xAF, dst, src); }
/* shrd rm, reg, imm: rm = rm >> imm | reg << (width - imm) */
static inline void x_shrd_ri(Asm *a, int w, int rm, int reg, uint8_t imm) { x_op_rr(a, w, 0x0F, 0xAC, reg, rm); x_b(a, imm); }
/* VEX-encoded register forms (BMI1/BMI2; the caller checks the host has them): three-byte VEX
 * prefix with opcode map mm (2: 0F38, 3: 0F3A), implied prefix pp (0 none, 3 F2), second
 * source vvvv (0 when unused), then opcode and ModRM. */
static inline void x_vex_rr(Asm *a, int w, int mm, int pp, int vvvv, uint8_t op, int reg, int rm)
{
    x_b(a, 0xC4);
    x_b(a, (uint8_t)((!(reg & 8)) << 7 | 1 << 6 | (!(rm & 8)) << 5 | mm));
    x_b(a, (uint8_t)(w << 7 | (~vvvv & 15) << 3 | pp));
    x_b(a, op);
    x_b(a, (uint8_t)(0xC0 | (reg & 7) << 3 | (rm & 7)));
}
/* BMI2 rorx dst, src, imm: a rotate into another register, flags untouched. */
static inline void x_rorx(Asm *a, int w, int dst, int src, uint8_t imm) { x_vex_rr(a, w, 3, 3, 0, 0xF0, dst, src); x_b(a, imm); }
/* BMI1 andn dst, inv, src: dst = ~inv & src, flags as AND's (SF ZF; CF OF cleared). */
static inline void x_andn(Asm *a, int w, int dst, int inv, int src) { x_vex_rr(a, w, 2, 0, inv, 0xF2, dst, src); }
static inline void x_bswap(Asm *a, int w, int r) { x_rex(a, w, 0, 0, r, false); x_b(a, 0x0F); x_b(a, (uint8_t)(0xC8 + (r & 7))); }
static inline void x_bsr(Asm *a, int w, int dst, int src) { x_op_rr(a, w, 0x0F, 0xBD, dst, src); }
static inline void x_bsf(Asm *a, int w, int dst, int src) { x_op_rr(a, w, 0x0F, 0xBC, dst, src); }
/* LZCNT, TZCNT (F3 before any REX): the operand width for a zero source, where BSR/BSF leave
 * the destination undefined */
static inline void x_lzcnt(Asm *a, int w, int dst, int src) { x_b(a, 0xF3); x_op_rr(a, w, 0x0F, 0xBD, dst, src); }
static inline void x_tzcnt(Asm *a, int w, int dst, int src) { x_b(a, 0xF3); x_op_rr(a, w, 0x0F, 0xBC, dst, src); }
static inline void x_lea(Asm *a, int w, int dst, int base, int index, int32_t d) { x_op_mem(a, w, 0x8D, -1, dst, base, index, d, false); }
static inline void x_cmov(Asm *a, int w, int cc, int dst, int src) { x_op_rr(a, w, 0x0F, 0x40 + cc, dst, src); }
static inline void x_setcc_m(Asm *a, int cc, int base, int32_t d) { x_op_mem(a, 0, 0x0F, 0x90 + cc, 0, base, X_NONE, d, false); }

/* ---- SSE moves for V registers ---- */
/* movq xmm, [base+index] (zeroes bits 64..127) / movd xmm, [..] / movdqu xmm, [..] */
static inline void x_movq_xm(Asm *a, int x, int base, int index, int32_t d) { x_b(a, 0xF3); x_op_mem(a, 0, 0x0F, 0x7E, x, base, index, d, false); }
static inline void x_movd_xm(Asm *a, int x, int base, int index, int32_t d) { x_b(a, 0x66); x_op_mem(a, 0, 0x0F, 0x6E, x, base, index, d, false); }
static inline void x_movdqu_xm(Asm *a, int x, int base, int index, int32_t d) { x_b(a, 0xF3); x_op_mem(a, 0, 0x0F, 0x6F, x, base, index, d, false); }
static inline void x_movdqu_mx(Asm *a, int base, int index, int32_t d, int x) { x_b(a, 0xF3); x_op_mem(a, 0, 0x0F, 0x7F, x, base, index, d, false); }

/* ---- control flow ---- */
/* Jumps return the address of their rel32 field for patching. */
static inline uint8_t *x_jcc(Asm *a, int cc)
{
    x_b(a, 0x0F);
    x_b(a, (uint8_t)(0x80 + cc));
    uint8_t *f = a->p;
    x_d32(a, 0);
    return f;
}
static inline uint8_t *x_jmp(Asm *a)
{
    x_b(a, 0xE9);
    uint8_t *f = a->p;
    x_d32(a, 0);
    return f;
}
static inline uint8_t *x_call(Asm *a)
{
    x_b(a, 0xE8);
    uint8_t *f = a->p;
    x_d32(a, 0);
    return f;
}
/* jrcxz rel8: EFLAGS left alone; returns the rel8 field (x_patch8). */
static inline uint8_t *x_jrcxz(Asm *a)
{
    x_b(a, 0xE3);
    uint8_t *f = a->p;
    x_b(a, 0);
    return f;
}
/* Point the rel8 field f at target; false when it is out of reach. */
static inline bool x_patch8(uint8_t *f, const uint8_t *target)
{
    ptrdiff_t rel = target - (f + 1);
    f[0] = (uint8_t)(int8_t)rel;
    return rel >= -128 && rel <= 127;
}
/* Point the rel32 field f at target. */
static inline void x_patch(uint8_t *f, const uint8_t *target)
{
    int32_t rel = (int32_t)(target - (f + 4));
    memcpy(f, &rel, 4);
}
static inline void x_call_r(Asm *a, int r) { x_rex(a, 0, 0, 0, r, false); x_b(a, 0xFF); x_b(a, (uint8_t)(0xD0 | (r & 7))); }
static inline void x_jmp_r(Asm *a, int r) { x_rex(a, 0, 0, 0, r, false); x_b(a, 0xFF); x_b(a, (uint8_t)(0xE0 | (r & 7))); }
static inline void x_jmp_m(Asm *a, int base, int32_t d) { x_op_mem(a, 0, 0xFF, -1, 4, base, X_NONE, d, false); }
static inline void x_push(Asm *a, int r) { x_rex(a, 0, 0, 0, r, false); x_b(a, (uint8_t)(0x50 + (r & 7))); }
static inline void x_pop(Asm *a, int r) { x_rex(a, 0, 0, 0, r, false); x_b(a, (uint8_t)(0x58 + (r & 7))); }
static inline void x_ret(Asm *a) { x_b(a, 0xC3); }
/* Byte registers without a REX prefix: X8_AL..X8_BL (0-3), X8_AH..X8_BH (4-7). */
enum { X8_AL = 0, X8_AH = 4 };
static inline void x_mov_r8i(Asm *a, int r8, uint8_t v) { x_b(a, (uint8_t)(0xB0 + r8)); x_b(a, v); }
static inline void x_add_al_i(Asm *a, uint8_t v) { x_b(a, 0x04); x_b(a, v); }
static inline void x_sahf(Asm *a) { x_b(a, 0x9E); } /* SF ZF AF PF CF <- AH */
static inline void x_lahf(Asm *a) { x_b(a, 0x9F); } /* AH <- SF ZF AF PF CF */
static inline void x_setcc_r8(Asm *a, int cc, int r8) { x_b(a, 0x0F); x_b(a, (uint8_t)(0x90 + cc)); x_b(a, (uint8_t)(0xC0 + r8)); }

#endif
