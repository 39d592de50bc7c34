/* SSE2..SSE4.1 instruction forms for the native back end's AdvSIMD emitters
 * (native_simd*.c), in the style of x64_asm.h: one function per assembly form.
 *
 * Operands are XMM register numbers 0..15 and general registers X_*; memory operands
 * are [base + disp].  An instruction is: mandatory prefix (0x66 / 0xF2 / 0xF3 or none),
 * REX when needed, 0F, the map byte (38 / 3A) if any, opcode, ModRM. */
#ifndef MALIBU_X64_SSE_H
#define MALIBU_X64_SSE_H

#include "x64_asm.h"

enum { SSE_NP = 0, SSE_66 = 0x66, SSE_F2 = 0xF2, SSE_F3 = 0xF3 };
enum { MAP_0F = 0, MAP_0F38 = 0x38, MAP_0F3A = 0x3A };

static inline void x_sse_head(Asm *a, int pfx, int w, int reg, int base, int map, int op)
{
    if (pfx)
        x_b(a, (uint8_t)pfx);
    x_rex(a, w, reg, 0, base, false);
    x_b(a, 0x0F);
    if (map)
        x_b(a, (uint8_t)map);
    x_b(a, (uint8_t)op);
}
/* op xmm/gpr reg, xmm/gpr rm (register form) */
static inline void x_sse_rr(Asm *a, int pfx, int w, int map, int op, int reg, int rm)
{
    x_sse_head(a, pfx, w, reg, rm, map, op);
    x_b(a, (uint8_t)(0xC0 | (reg & 7) << 3 | (rm & 7)));
}
/* op reg, [base + disp] */
static inline void x_sse_rm(Asm *a, int pfx, int map, int op, int reg, int base, int32_t disp)
{
    if (pfx)
        x_b(a, (uint8_t)pfx);
    x_rex(a, 0, reg, 0, base, false);
    x_b(a, 0x0F);
    if (map)
        x_b(a, (uint8_t)map);
    x_b(a, (uint8_t)op);
    x_modrm_mem(a, reg, base, X_NONE, disp);
}

/* 66 0F op: packed integer xmm, xmm (paddb FC, pcmpeqb 74, pand DB, punpcklbw 60 ...) */
static inline void x_p66(Asm *a, int op, int dst, int src) { x_sse_rr(a, SSE_66, 0, MAP_0F, op, dst, src); }
/* 66 0F 38 op (SSSE3 / SSE4.1: pshufb 00, pcmpeqq 29, pminub ... ) */
static inline void x_p38(Asm *a, int op, int dst, int src) { x_sse_rr(a, SSE_66, 0, MAP_0F38, op, dst, src); }

enum {
    P_PUNPCKLBW = 0x60, P_PUNPCKLWD = 0x61, P_PUNPCKLDQ = 0x62, P_PCMPGTB = 0x64,
    P_PCMPGTW = 0x65, P_PCMPGTD = 0x66, P_PUNPCKHBW = 0x68, P_PUNPCKHWD = 0x69,
    P_PUNPCKHDQ = 0x6A, P_PUNPCKLQDQ = 0x6C, P_PUNPCKHQDQ = 0x6D, P_PCMPEQB = 0x74,
    P_PCMPEQW = 0x75, P_PCMPEQD = 0x76, P_PADDQ = 0xD4, P_PMINUB = 0xDA, P_PAND = 0xDB,
    P_PMAXUB = 0xDE, P_PANDN = 0xDF, P_POR = 0xEB, P_PXOR = 0xEF, P_PSUBB = 0xF8,
    P_PSUBW = 0xF9, P_PSUBD = 0xFA, P_PSUBQ = 0xFB, P_PADDB = 0xFC, P_PADDW = 0xFD,
    P_PADDD = 0xFE, P_PACKUSWB = 0x67,
};
enum { P38_PSHUFB = 0x00, P38_PCMPEQQ = 0x29, P38_PCMPGTQ = 0x37 };

/* Shift by immediate: group 71 (words) 72 (dwords) 73 (qwords); /2 right logical, /4 right
 * arithmetic, /6 left; 73 /3 psrldq, /7 pslldq (bytes). */
static inline void x_pshift_i(Asm *a, int grp, int digit, int xmm, uint8_t imm)
{
    x_sse_rr(a, SSE_66, 0, MAP_0F, grp, digit, xmm);
    x_b(a, imm);
}
/* pshufd (66) / pshuflw (F2) / pshufhw (F3) dst, src, imm */
static inline void x_pshuf(Asm *a, int pfx, int dst, int src, uint8_t imm)
{
    x_sse_rr(a, pfx, 0, MAP_0F, 0x70, dst, src);
    x_b(a, imm);
}
/* palignr dst, src, imm (SSSE3): (dst:src) >> 8 * imm */
static inline void x_palignr(Asm *a, int dst, int src, uint8_t imm)
{
    x_sse_rr(a, SSE_66, 0, MAP_0F3A, 0x0F, dst, src);
    x_b(a, imm);
}
/* movq xmm, xmm: the low 64 bits, upper half zeroed */
static inline void x_movq_xx(Asm *a, int dst, int src) { x_sse_rr(a, SSE_F3, 0, MAP_0F, 0x7E, dst, src); }
static inline void x_movdqa_xx(Asm *a, int dst, int src) { x_sse_rr(a, SSE_66, 0, MAP_0F, 0x6F, dst, src); }
/* movd/movq xmm, gpr (zero-extends into the xmm) and gpr, xmm */
static inline void x_movq_xr(Asm *a, int w, int xmm, int r) { x_sse_rr(a, SSE_66, w, MAP_0F, 0x6E, xmm, r); }
static inline void x_movq_rx(Asm *a, int w, int r, int xmm) { x_sse_rr(a, SSE_66, w, MAP_0F, 0x7E, xmm, r); }
/* pextr{b,w,d,q} gpr, xmm, imm (SSE4.1); pinsr{b,d,q} xmm, gpr, imm (SSE4.1); pinsrw (SSE2) */
static inline void x_pextr(Asm *a, int size, int r, int xmm, uint8_t imm)
{
    static const uint8_t op[4] = { 0x14, 0x15, 0x16, 0x16 };
    x_sse_rr(a, SSE_66, size == 3, MAP_0F3A, op[size], xmm, r);
    x_b(a, imm);
}
static inline void x_pinsr(Asm *a, int size, int xmm, int r, uint8_t imm)
{
    if (size == 1)
        x_sse_rr(a, SSE_66, 0, MAP_0F, 0xC4, xmm, r);
    else
        x_sse_rr(a, SSE_66, size == 3, MAP_0F3A, size == 0 ? 0x20 : 0x22, xmm, r);
    x_b(a, imm);
}
/* Loads and stores of a whole V register at [base + disp] */
static inline void x_movdqu_load(Asm *a, int xmm, int base, int32_t d) { x_sse_rm(a, SSE_F3, MAP_0F, 0x6F, xmm, base, d); }
static inline void x_movdqu_store(Asm *a, int base, int32_t d, int xmm) { x_sse_rm(a, SSE_F3, MAP_0F, 0x7F, xmm, base, d); }
/* movq xmm, [base + d]: 64 bits, upper half zeroed */
static inline void x_movq_load(Asm *a, int xmm, int base, int32_t d) { x_sse_rm(a, SSE_F3, MAP_0F, 0x7E, xmm, base, d); }

#endif
