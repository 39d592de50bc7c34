/* A small x86-64 emitter for the GPU clause compiler (bifrost_exec_jit.c): the VEX-encoded AVX /
 * AVX2 / FMA instructions it uses on whole lane rows (ymm for 8 lanes, xmm for 4: VEX.L), the
 * few general-purpose instructions of its prologue, epilogue and calls, and forward jumps.
 * Memory operands are always [base + disp32].
 *
 * SSE mode (jx_emit.sse, 4-lane rows only): every vector helper emits the legacy-encoded SSE4.1 /
 * SSSE3 equivalent of its three-operand form instead (d = s1 op s2 becomes a copy of s1 into d
 * and op d, s2; xmm14 is the emitter's scratch register then).  An instruction with no such
 * form (FMA, AVX2's variable shifts, 256-bit rows, ...) sets jx_emit.bad: the caller must not use
 * the code, and the compiler leaves those units to the interpreter so that it never asks. */
#ifndef MALIBU_BIFROST_JIT_EMIT_H
#define MALIBU_BIFROST_JIT_EMIT_H

#include <stddef.h>
#include <stdint.h>

enum { RAX = 0, RCX = 1, RDX = 2, RBX = 3, RSP = 4, RBP = 5, RSI = 6, RDI = 7, R12 = 12, R13 = 13, R14 = 14, R15 = 15 };
enum { PP_NONE = 0, PP_66 = 1, PP_F3 = 2 };          /* VEX.pp: implied prefix */
enum { M_0F = 1, M_0F38 = 2, M_0F3A = 3 };           /* VEX.mmmmm: opcode map */

/* Memory operand "base" of a row of the code's constant pool (disp: the row's index), placed
 * after the code and reached RIP-relative (jx_pool_place). */
#define JX_POOL 16u
#define JX_MAX_FIX 64

typedef struct {
    uint8_t *buf;
    size_t len, cap;          /* len may pass cap: the code did not fit (checked once, at the end) */
    unsigned l;               /* VEX.L: 1 = 256-bit rows (8 lanes), 0 = 128-bit (4 lanes) */
    size_t fix_at[JX_MAX_FIX];        /* pool references: where their disp32 is, which row */
    uint32_t fix_row[JX_MAX_FIX];
    unsigned nfix;            /* may pass JX_MAX_FIX: too many (checked at the end) */
    unsigned sse;             /* 1: legacy SSE encodings (no VEX), xmm rows; l must be 0 */
    unsigned bad;             /* SSE mode: an instruction without an SSE form was asked for */
} jx_emit;

/* SSE mode's scratch register (the compiler leaves it free in that mode) */
#define JX_SCRATCH 14u

static inline void jx_b(jx_emit *e, uint8_t b)
{
    if (e->len < e->cap)
        e->buf[e->len] = b;
    e->len++;
}

static inline void jx_u32(jx_emit *e, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        jx_b(e, (uint8_t)(v >> (8 * i)));
}

static inline void jx_u64(jx_emit *e, uint64_t v)
{
    jx_u32(e, (uint32_t)v);
    jx_u32(e, (uint32_t)(v >> 32));
}

/* ModRM (with SIB and disp32, or RIP-relative to a pool row) of reg and rm = register or
 * [base + disp] */
static inline void jx_modrm(jx_emit *e, unsigned reg, int mem, unsigned rm, int32_t disp)
{
    if (mem && rm == JX_POOL) {
        jx_b(e, (uint8_t)((reg & 7) << 3 | 5));                        /* [rip + disp32] */
        if (e->nfix < JX_MAX_FIX) {
            e->fix_at[e->nfix] = e->len;
            e->fix_row[e->nfix] = (uint32_t)disp;
        }
        e->nfix++;
        jx_u32(e, 0);
    } else if (mem) {
        jx_b(e, (uint8_t)(0x80 | (reg & 7) << 3 | (rm & 7)));
        if ((rm & 7) == 4)
            jx_b(e, 0x24);                                           /* SIB: base only */
        jx_u32(e, (uint32_t)disp);
    } else {
        jx_b(e, (uint8_t)(0xc0 | (reg & 7) << 3 | (rm & 7)));
    }
}

/* Three-byte VEX instruction: reg field, vvvv (second source), rm = register or [base + disp]. */
static inline void jx_vex_w(jx_emit *e, unsigned w, unsigned pp, unsigned map, uint8_t op, unsigned reg,
                            unsigned vvvv, int mem, unsigned rm, int32_t disp)
{
    jx_b(e, 0xc4);
    jx_b(e, (uint8_t)((((reg >> 3) & 1) ^ 1) << 7 | 1 << 6 | (((rm >> 3) & 1) ^ 1) << 5 | map));
    jx_b(e, (uint8_t)(w << 7 | (~vvvv & 15) << 3 | e->l << 2 | pp));
    jx_b(e, op);
    jx_modrm(e, reg, mem, rm, disp);
}

/* Legacy-encoded SSE instruction: the prefix pp stands for, REX when an operand needs it, the
 * 0F [38 | 3A] opcode map, ModRM. */
static inline void jx_leg(jx_emit *e, unsigned pp, unsigned map, uint8_t op, unsigned reg, int mem, unsigned rm,
                          int32_t disp)
{
    static const uint8_t prefix[4] = { 0, 0x66, 0xf3, 0xf2 };
    if (pp)
        jx_b(e, prefix[pp & 3]);
    uint8_t rex = (uint8_t)(0x40 | ((reg >> 3) & 1) << 2 | (mem && rm == JX_POOL ? 0 : (rm >> 3) & 1));
    if (rex != 0x40)
        jx_b(e, rex);
    jx_b(e, 0x0f);
    if (map == M_0F38)
        jx_b(e, 0x38);
    else if (map == M_0F3A)
        jx_b(e, 0x3a);
    jx_b(e, op);
    jx_modrm(e, reg, mem, rm, disp);
}

/* The two-operand SSE form of the instructions jx_op / jx_opm take: commutative (integer ops,
 * whose operands may swap), binary, unary (d = op s2), or none. */
enum { JX_SSE_NONE, JX_SSE_COMM, JX_SSE_BIN, JX_SSE_UNARY };
static inline int jx_sse_form(unsigned map, uint8_t op)
{
    if (map == M_0F)
        switch (op) {
        case 0xfe: case 0xdb: case 0xeb: case 0xef: case 0x76: case 0x74: case 0xd4: return JX_SSE_COMM;
        case 0xfa: case 0xdf: case 0x66: case 0x64: case 0x62: case 0x6a: case 0x6c: case 0x58: case 0x59: case 0x5c:
        case 0x5e: case 0xc2:
            return JX_SSE_BIN;
        case 0x5b: case 0x5a: return JX_SSE_UNARY;
        default: return JX_SSE_NONE;
        }
    if (map == M_0F38)
        switch (op) {
        case 0x40: case 0x3d: case 0x39: return JX_SSE_COMM;
        case 0x00: return JX_SSE_BIN;
        case 0x25: return JX_SSE_UNARY;              /* pmovsxdq: the low two dwords */
        default: return JX_SSE_NONE;
        }
    return JX_SSE_NONE;
}

/* SSE: movdqa d, s */
static inline void jx_sse_copy(jx_emit *e, unsigned d, unsigned s)
{
    if (d != s)
        jx_leg(e, PP_66, M_0F, 0x6f, d, 0, s, 0);
}

/* SSE: d = s1 op s2 (s2: a register, or [base + disp] when mem), then the immediate imm (< 0:
 * none).  Legacy memory operands must be 16-byte aligned: only the constant rows (r14, the pool)
 * are read in place, other rows go through the scratch register. */
static inline void jx_sse_op(jx_emit *e, unsigned pp, unsigned map, uint8_t op, unsigned d, unsigned s1, int mem,
                             unsigned s2, int32_t disp, int imm)
{
    int form = jx_sse_form(map, op);
    if (form == JX_SSE_NONE || e->l) {
        e->bad = 1;
        return;
    }
    if (mem && s2 != R14 && s2 != JX_POOL) {
        jx_leg(e, PP_F3, M_0F, 0x6f, JX_SCRATCH, 1, s2, disp);          /* movdqu */
        mem = 0;
        s2 = JX_SCRATCH;
        disp = 0;
    }
    if (form != JX_SSE_UNARY && d != s1) {
        if (!mem && d == s2) {                  /* the copy of s1 would overwrite s2 */
            if (form == JX_SSE_COMM) {
                s2 = s1;
            } else {
                jx_sse_copy(e, JX_SCRATCH, s2);
                s2 = JX_SCRATCH;
                jx_sse_copy(e, d, s1);
            }
        } else {
            jx_sse_copy(e, d, s1);
        }
    }
    jx_leg(e, pp, map, op, d, mem, s2, disp);
    if (imm >= 0)
        jx_b(e, (uint8_t)imm);
}

/* SSE: d = s1 compared with s2 by a VEX predicate (pp: PP_NONE cmpps, PP_66 cmppd).  Legacy
 * predicates are 0-7 only: the ordered quiet ones take their signalling twin (the same result;
 * only the unused invalid flag differs), greater (or equal) the swapped less (or equal);
 * not-equal-ordered has none (the compiler makes it from not-equal and unordered). */
static inline void jx_sse_cmp(jx_emit *e, unsigned pp, unsigned d, unsigned s1, unsigned s2, uint8_t pred)
{
    switch (pred) {
    case 0x00: case 0x03: case 0x04: jx_sse_op(e, pp, M_0F, 0xc2, d, s1, 0, s2, 0, pred); break;
    case 0x11: case 0x12: jx_sse_op(e, pp, M_0F, 0xc2, d, s1, 0, s2, 0, pred & 3); break;
    case 0x1e: jx_sse_op(e, pp, M_0F, 0xc2, d, s2, 0, s1, 0, 1); break;        /* s2 < s1 */
    case 0x1d: jx_sse_op(e, pp, M_0F, 0xc2, d, s2, 0, s1, 0, 2); break;        /* s2 <= s1 */
    default: e->bad = 1; break;
    }
}

/* SSE: pshufd d, s, imm (dwords of s picked by imm's 2-bit fields) */
static inline void jx_sse_pshufd(jx_emit *e, unsigned d, unsigned s, uint8_t imm)
{
    jx_leg(e, PP_66, M_0F, 0x70, d, 0, s, 0);
    jx_b(e, imm);
}

/* SSE: d = s shifted by imm (opcode op of group digit: 0x72 /6 pslld, /2 psrld, /4 psrad; 0x73
 * /6 psllq) */
static inline void jx_sse_shift(jx_emit *e, uint8_t op, unsigned digit, unsigned d, unsigned s, uint8_t imm)
{
    if (e->l) {
        e->bad = 1;
        return;
    }
    jx_sse_copy(e, d, s);
    jx_leg(e, PP_66, M_0F, op, digit, 0, d, 0);
    jx_b(e, imm);
}

/* the W0 form, which almost every instruction here uses */
static inline void jx_vex(jx_emit *e, unsigned pp, unsigned map, uint8_t op, unsigned reg, unsigned vvvv, int mem,
                          unsigned rm, int32_t disp)
{
    jx_vex_w(e, 0, pp, map, op, reg, vvvv, mem, rm, disp);
}

/* register copy: vmovdqa d, s */
static inline void jx_movr(jx_emit *e, unsigned d, unsigned s)
{
    if (e->sse)
        jx_sse_copy(e, d, s);
    else
        jx_vex(e, PP_66, M_0F, 0x6f, d, 0, 0, s, 0);
}

/* row loads / stores: vmovdqu */
static inline void jx_load(jx_emit *e, unsigned y, unsigned base, int32_t disp)
{
    if (e->sse)
        jx_leg(e, PP_F3, M_0F, 0x6f, y, 1, base, disp);
    else
        jx_vex(e, PP_F3, M_0F, 0x6f, y, 0, 1, base, disp);
}
static inline void jx_store(jx_emit *e, unsigned y, unsigned base, int32_t disp)
{
    if (e->sse)
        jx_leg(e, PP_F3, M_0F, 0x7f, y, 1, base, disp);
    else
        jx_vex(e, PP_F3, M_0F, 0x7f, y, 0, 1, base, disp);
}

/* d = s1 op s2 (registers) and d = s1 op [base + disp] */
static inline void jx_op(jx_emit *e, unsigned pp, unsigned map, uint8_t op, unsigned d, unsigned s1, unsigned s2)
{
    if (e->sse)
        jx_sse_op(e, pp, map, op, d, s1, 0, s2, 0, -1);
    else
        jx_vex(e, pp, map, op, d, s1, 0, s2, 0);
}
static inline void jx_opm(jx_emit *e, unsigned pp, unsigned map, uint8_t op, unsigned d, unsigned s1, unsigned base,
                          int32_t disp)
{
    if (e->sse)
        jx_sse_op(e, pp, map, op, d, s1, 1, base, disp, -1);
    else
        jx_vex(e, pp, map, op, d, s1, 1, base, disp);
}

#define JX_VPADDD PP_66, M_0F, 0xfe
#define JX_VPSUBD PP_66, M_0F, 0xfa
#define JX_VPMULLD PP_66, M_0F38, 0x40
#define JX_VPAND PP_66, M_0F, 0xdb
#define JX_VPANDN PP_66, M_0F, 0xdf            /* d = ~s1 & s2 */
#define JX_VPOR PP_66, M_0F, 0xeb
#define JX_VPXOR PP_66, M_0F, 0xef
#define JX_VPCMPEQD PP_66, M_0F, 0x76
#define JX_VPCMPGTD PP_66, M_0F, 0x66          /* signed s1 > s2 */
#define JX_VPSLLVD PP_66, M_0F38, 0x47
#define JX_VPSRLVD PP_66, M_0F38, 0x45
#define JX_VPSRAVD PP_66, M_0F38, 0x46
#define JX_VPUNPCKLDQ PP_66, M_0F, 0x62      /* interleave the low / high dwords of each 128-bit half */
#define JX_VPUNPCKHDQ PP_66, M_0F, 0x6a
#define JX_VPSHUFB PP_66, M_0F38, 0x00        /* d = bytes of s1 picked by s2 (within 128-bit halves) */
#define JX_VPCMPEQB PP_66, M_0F, 0x74
#define JX_VPCMPGTB PP_66, M_0F, 0x64          /* signed bytes s1 > s2 */
#define JX_VCVTDQ2PS PP_NONE, M_0F, 0x5b       /* d = (float)s2 (s1: 0), the MXCSR rounding */
#define JX_VADDPS PP_NONE, M_0F, 0x58
#define JX_VMULPS PP_NONE, M_0F, 0x59
#define JX_VFMADD231PS PP_66, M_0F38, 0xb8     /* d = s1 * s2 + d, one rounding */

/* the same instruction at an explicit width (l: 1 = 256-bit, 0 = 128-bit), whatever the rows' */
#define JX_AT_WIDTH(e, width, stmt) do { unsigned l_ = (e)->l; (e)->l = (width); stmt; (e)->l = l_; } while (0)

#define JX_VCVTPS2PD PP_NONE, M_0F, 0x5a       /* 256-bit: ymm d = (double)xmm s2 */
#define JX_VCVTPD2PS PP_66, M_0F, 0x5a         /* 256-bit: xmm d = (float)ymm s2 (MXCSR rounding) */
#define JX_VCVTTPS2DQ PP_F3, M_0F, 0x5b        /* d = (int32_t)s2 truncated; 0x80000000 if out of range */
#define JX_VADDPD PP_66, M_0F, 0x58
#define JX_VMULPD PP_66, M_0F, 0x59
#define JX_VSUBPD PP_66, M_0F, 0x5c
#define JX_VDIVPD PP_66, M_0F, 0x5e
#define JX_VSQRTPD PP_66, M_0F, 0x51            /* d = sqrt(s2) (s1: 0) */
#define JX_VSUBPS PP_NONE, M_0F, 0x5c
#define JX_VPADDQ PP_66, M_0F, 0xd4
#define JX_VPMAXSD PP_66, M_0F38, 0x3d
#define JX_VPMINSD PP_66, M_0F38, 0x39
#define JX_VPMOVSXDQ PP_66, M_0F38, 0x25       /* 256-bit: ymm d = sign-extended dwords of xmm s2 */
#define JX_VPUNPCKLQDQ PP_66, M_0F, 0x6c       /* d = low qword of s1, low qword of s2 */

/* vcmppd d, s1, s2, predicate */
static inline void jx_cmppd(jx_emit *e, unsigned d, unsigned s1, unsigned s2, uint8_t pred)
{
    if (e->sse) {
        jx_sse_cmp(e, PP_66, d, s1, s2, pred);
        return;
    }
    jx_vex(e, PP_66, M_0F, 0xc2, d, s1, 0, s2, 0);
    jx_b(e, pred);
}

/* a shift by an immediate (66 0F op /digit ib: the 0x72 dword and 0x73 qword groups): d = s
 * shifted by imm */
static inline void jx_shift_by_imm(jx_emit *e, uint8_t op, unsigned digit, unsigned d, unsigned s, uint8_t imm)
{
    if (e->sse) {
        jx_sse_shift(e, op, digit, d, s, imm);
        return;
    }
    jx_vex(e, PP_66, M_0F, op, digit, d, 0, s, 0);
    jx_b(e, imm);
}

/* vpsllq d, s, imm */
static inline void jx_shlq_imm(jx_emit *e, unsigned d, unsigned s, uint8_t imm) { jx_shift_by_imm(e, 0x73, 6, d, s, imm); }

/* vperm2i128 ymm d, ymm s1, ymm s2, imm (0x20: both low halves, 0x31: both high halves) */
static inline void jx_perm2(jx_emit *e, unsigned d, unsigned s1, unsigned s2, uint8_t imm)
{
    if (e->sse) {
        e->bad = 1;                  /* no SSE form */
        return;
    }
    JX_AT_WIDTH(e, 1, jx_vex(e, PP_66, M_0F3A, 0x46, d, s1, 0, s2, 0));
    jx_b(e, imm);
}

/* vextracti128 xmm d, ymm s, 1 and vinserti128 ymm d, ymm s1, xmm s2, 1 (256-bit) */
static inline void jx_extract_hi(jx_emit *e, unsigned d, unsigned s)
{
    if (e->sse) {
        e->bad = 1;                  /* no SSE form */
        return;
    }
    JX_AT_WIDTH(e, 1, jx_vex(e, PP_66, M_0F3A, 0x39, s, 0, 0, d, 0));
    jx_b(e, 1);
}
static inline void jx_insert_hi(jx_emit *e, unsigned d, unsigned s1, unsigned s2)
{
    if (e->sse) {
        e->bad = 1;                  /* no SSE form */
        return;
    }
    JX_AT_WIDTH(e, 1, jx_vex(e, PP_66, M_0F3A, 0x38, d, s1, 0, s2, 0));
    jx_b(e, 1);
}

/* vpslld / vpsrld d, s, imm */
static inline void jx_shift_imm(jx_emit *e, int left, unsigned d, unsigned s, uint8_t imm)
{
    jx_shift_by_imm(e, 0x72, left ? 6 : 2, d, s, imm);
}

/* vfmadd231pd / vfnmadd231pd d, s1, s2 (256-bit, VEX.W1): d = +-(s1 * s2) + d, one rounding */
static inline void jx_fma231pd(jx_emit *e, int negate, unsigned d, unsigned s1, unsigned s2)
{
    if (e->sse) {
        e->bad = 1;                  /* no SSE form */
        return;
    }
    JX_AT_WIDTH(e, 1, jx_vex_w(e, 1, PP_66, M_0F38, negate ? 0xbc : 0xb8, d, s1, 0, s2, 0));
}

/* vpsrad d, s, imm */
static inline void jx_sra_imm(jx_emit *e, unsigned d, unsigned s, uint8_t imm) { jx_shift_by_imm(e, 0x72, 4, d, s, imm); }

/* vcmpps d, s1, s2, predicate (SSE: jx_sse_cmp) */
static inline void jx_cmpps(jx_emit *e, unsigned d, unsigned s1, unsigned s2, uint8_t pred)
{
    if (e->sse) {
        jx_sse_cmp(e, PP_NONE, d, s1, s2, pred);
        return;
    }
    jx_vex(e, PP_NONE, M_0F, 0xc2, d, s1, 0, s2, 0);
    jx_b(e, pred);
}

/* d = mask ? s2 : s1, per byte (vpblendvb) or per 32-bit lane by its sign bit (vblendvps).
 * SSE: the byte form as d = s1 ^ ((s1 ^ s2) & mask), which needs every byte of the mask all ones
 * or all zeros, as the compiler's masks are (comparisons, commit masks), and no fixed xmm0; the
 * sign-bit form has none (the caller widens the sign first). */
static inline void jx_blendv(jx_emit *e, int bytes, unsigned d, unsigned s1, unsigned s2, unsigned mask)
{
    if (e->sse) {
        if (!bytes || e->l) {
            e->bad = 1;
            return;
        }
        jx_sse_copy(e, JX_SCRATCH, s2);
        jx_leg(e, PP_66, M_0F, 0xef, JX_SCRATCH, 0, s1, 0);         /* pxor */
        jx_leg(e, PP_66, M_0F, 0xdb, JX_SCRATCH, 0, mask, 0);       /* pand */
        jx_sse_copy(e, d, s1);
        jx_leg(e, PP_66, M_0F, 0xef, d, 0, JX_SCRATCH, 0);
        return;
    }
    jx_vex(e, PP_66, M_0F3A, bytes ? 0x4c : 0x4a, d, s1, 0, s2, 0);
    jx_b(e, (uint8_t)(mask << 4));
}

/* vblendvpd d, s1, s2, mask: each 64-bit lane from s2 where mask's bit 63 is set */
static inline void jx_blendvpd(jx_emit *e, unsigned d, unsigned s1, unsigned s2, unsigned mask)
{
    if (e->sse) {
        e->bad = 1;                  /* no SSE form */
        return;
    }
    jx_vex(e, PP_66, M_0F3A, 0x4b, d, s1, 0, s2, 0);
    jx_b(e, (uint8_t)(mask << 4));
}

/* vptest a, b: ZF = (a & b) == 0 */
static inline void jx_ptest(jx_emit *e, unsigned a, unsigned b)
{
    if (e->sse)
        jx_leg(e, PP_66, M_0F38, 0x17, a, 0, b, 0);
    else
        jx_vex(e, PP_66, M_0F38, 0x17, a, 0, 0, b, 0);
}

/* (SSE code has no upper halves to clear, and no VEX) */
static inline void jx_vzeroupper(jx_emit *e)
{
    if (!e->sse) {
        jx_b(e, 0xc5);
        jx_b(e, 0xf8);
        jx_b(e, 0x77);
    }
}

/* The constant pool after the code: 32-byte aligned rows of 8 copies of each value, and every
 * reference's displacement (no immediate follows a pool operand). */
static inline void jx_pool_place(jx_emit *e, const uint32_t *values, unsigned n)
{
    while (e->len % 32)
        jx_b(e, 0xcc);
    size_t start = e->len;
    for (unsigned k = 0; k < n; k++)
        for (unsigned l = 0; l < 8; l++)
            jx_u32(e, values[k]);
    for (unsigned f = 0; f < e->nfix && f < JX_MAX_FIX; f++) {
        uint32_t rel = (uint32_t)(start + 32 * e->fix_row[f] - (e->fix_at[f] + 4));
        if (e->fix_at[f] + 4 <= e->cap)
            for (int b = 0; b < 4; b++)
                e->buf[e->fix_at[f] + b] = (uint8_t)(rel >> (8 * b));
    }
}

/* ---- general-purpose instructions ---------------------------------------------------------- */

static inline void jx_push(jx_emit *e, unsigned r)
{
    if (r >= 8)
        jx_b(e, 0x41);
    jx_b(e, (uint8_t)(0x50 | (r & 7)));
}

static inline void jx_pop(jx_emit *e, unsigned r)
{
    if (r >= 8)
        jx_b(e, 0x41);
    jx_b(e, (uint8_t)(0x58 | (r & 7)));
}

/* mov d, s (64-bit registers) */
static inline void jx_mov(jx_emit *e, unsigned d, unsigned s)
{
    jx_b(e, (uint8_t)(0x48 | ((s >> 3) & 1) << 2 | ((d >> 3) & 1)));
    jx_b(e, 0x89);
    jx_b(e, (uint8_t)(0xc0 | (s & 7) << 3 | (d & 7)));
}

/* mov r, imm64 */
static inline void jx_mov_imm64(jx_emit *e, unsigned r, uint64_t v)
{
    jx_b(e, (uint8_t)(0x48 | ((r >> 3) & 1)));
    jx_b(e, (uint8_t)(0xb8 | (r & 7)));
    jx_u64(e, v);
}

/* mov ecx, imm32 */
static inline void jx_mov_ecx(jx_emit *e, uint32_t v) { jx_b(e, 0xb9); jx_u32(e, v); }

/* sub / add rsp, imm8 */
static inline void jx_rsp_adjust(jx_emit *e, int sub, uint8_t n) { jx_b(e, 0x48); jx_b(e, 0x83); jx_b(e, sub ? 0xec : 0xc4); jx_b(e, n); }

/* lea rax, [r13 + disp32]; mov [r12 + disp32], rax */
static inline void jx_lea_rax_r13(jx_emit *e, int32_t disp) { jx_b(e, 0x49); jx_b(e, 0x8d); jx_b(e, 0x85); jx_u32(e, (uint32_t)disp); }
static inline void jx_store_rax_r12(jx_emit *e, int32_t disp)
{
    jx_b(e, 0x49);
    jx_b(e, 0x89);
    jx_b(e, 0x84);
    jx_b(e, 0x24);
    jx_u32(e, (uint32_t)disp);
}

static inline void jx_call_rax(jx_emit *e) { jx_b(e, 0xff); jx_b(e, 0xd0); }
static inline void jx_test_eax(jx_emit *e) { jx_b(e, 0x85); jx_b(e, 0xc0); }
static inline void jx_xor_eax(jx_emit *e) { jx_b(e, 0x31); jx_b(e, 0xc0); }
static inline void jx_ret(jx_emit *e) { jx_b(e, 0xc3); }

/* vmovd xmm, eax (always VEX.128) and vpbroadcastd y, xmm / y, [base + disp] (SSE: movd, and
 * pshufd's dword 0 to every lane) */
static inline void jx_movd_from_eax(jx_emit *e, unsigned x)
{
    if (e->sse) {
        jx_leg(e, PP_66, M_0F, 0x6e, x, 0, RAX, 0);
        return;
    }
    unsigned l = e->l;
    e->l = 0;
    jx_vex(e, PP_66, M_0F, 0x6e, x, 0, 0, RAX, 0);
    e->l = l;
}
static inline void jx_broadcast(jx_emit *e, unsigned y, unsigned x)
{
    if (e->sse) {
        jx_leg(e, PP_66, M_0F, 0x70, y, 0, x, 0);
        jx_b(e, 0);
        return;
    }
    jx_vex(e, PP_66, M_0F38, 0x58, y, 0, 0, x, 0);
}
static inline void jx_broadcast_m(jx_emit *e, unsigned y, unsigned base, int32_t disp)
{
    if (e->sse) {
        jx_leg(e, PP_66, M_0F, 0x6e, y, 1, base, disp);
        jx_broadcast(e, y, y);
        return;
    }
    jx_vex(e, PP_66, M_0F38, 0x58, y, 0, 1, base, disp);
}

/* mov eax, imm32 */
static inline void jx_mov_eax(jx_emit *e, uint32_t v) { jx_b(e, 0xb8); jx_u32(e, v); }
/* cmp dword [rbx + disp], imm32 */
static inline void jx_cmp_rbx_imm(jx_emit *e, int32_t disp, uint32_t v) { jx_b(e, 0x81); jx_b(e, 0xbb); jx_u32(e, (uint32_t)disp); jx_u32(e, v); }
/* mov rax, [rbx + disp] */
static inline void jx_load_rax_rbx(jx_emit *e, int32_t disp) { jx_b(e, 0x48); jx_b(e, 0x8b); jx_b(e, 0x83); jx_u32(e, (uint32_t)disp); }
/* mov eax, [rax + disp] */
static inline void jx_load_eax_rax(jx_emit *e, int32_t disp) { jx_b(e, 0x8b); jx_b(e, 0x80); jx_u32(e, (uint32_t)disp); }

/* jmp rel32: forward (patched with jx_patch) or to a known position */
static inline size_t jx_jmp_fwd(jx_emit *e)
{
    jx_b(e, 0xe9);
    size_t at = e->len;
    jx_u32(e, 0);
    return at;
}
static inline void jx_jmp_to(jx_emit *e, size_t target)
{
    jx_b(e, 0xe9);
    jx_u32(e, (uint32_t)(target - (e->len + 4)));
}

enum { CC_B = 0x2, CC_AE = 0x3, CC_Z = 0x4, CC_NZ = 0x5, CC_BE = 0x6, CC_A = 0x7 };

/* jcc rel32 to a label placed later: returns where its displacement goes (jx_patch) */
static inline size_t jx_jcc_fwd(jx_emit *e, unsigned cc)
{
    jx_b(e, 0x0f);
    jx_b(e, (uint8_t)(0x80 | cc));
    size_t at = e->len;
    jx_u32(e, 0);
    return at;
}

/* the jump whose displacement is at `at` goes to the current position */
static inline void jx_patch(jx_emit *e, size_t at)
{
    uint32_t rel = (uint32_t)(e->len - (at + 4));
    if (at + 4 <= e->cap)
        for (int i = 0; i < 4; i++)
            e->buf[at + i] = (uint8_t)(rel >> (8 * i));
}

/* ---- general-purpose instructions with a ModRM operand: [base + disp32] or a register ------- */

/* REX (when needed) and opcode (op >= 0x100: 0x0f-prefixed two-byte opcode); w64: REX.W */
static inline void jx_gp_head(jx_emit *e, int w64, unsigned op, unsigned reg, unsigned rm)
{
    uint8_t rex = (uint8_t)(0x40 | (w64 ? 8 : 0) | ((reg >> 3) & 1) << 2 | ((rm >> 3) & 1));
    if (rex != 0x40)
        jx_b(e, rex);
    if (op >= 0x100)
        jx_b(e, 0x0f);
    jx_b(e, (uint8_t)op);
}

/* op reg, [base + disp32] (or op [base + disp32], reg: which is the opcode's) */
static inline void jx_gp_m(jx_emit *e, int w64, unsigned op, unsigned reg, unsigned base, int32_t disp)
{
    jx_gp_head(e, w64, op, reg, base);
    jx_b(e, (uint8_t)(0x80 | (reg & 7) << 3 | (base & 7)));
    if ((base & 7) == 4)
        jx_b(e, 0x24);
    jx_u32(e, (uint32_t)disp);
}

/* op reg, rm (registers) */
static inline void jx_gp_r(jx_emit *e, int w64, unsigned op, unsigned reg, unsigned rm)
{
    jx_gp_head(e, w64, op, reg, rm);
    jx_b(e, (uint8_t)(0xc0 | (reg & 7) << 3 | (rm & 7)));
}

/* op reg, [rip + disp32] to an absolute position `target` of the final code, when the code's
 * byte 0 lands at position `at` (RIP-relative: the code may sit anywhere) */
static inline void jx_gp_rip(jx_emit *e, int w64, unsigned op, unsigned reg, int64_t at, int64_t target)
{
    jx_gp_head(e, w64, op, reg, 0);
    jx_b(e, (uint8_t)(0x05 | (reg & 7) << 3));
    int64_t next = at + (int64_t)e->len + 4;
    jx_u32(e, (uint32_t)(int32_t)(target - next));
}

enum { GP_ADD_M = 0x01, GP_OR = 0x09, GP_AND_RM = 0x23, GP_SUB_RM = 0x2b, GP_CMP_RM = 0x3b, GP_ADD_RM = 0x03,
       GP_MOV_MR = 0x89, GP_MOV_RM = 0x8b, GP_LEA = 0x8d };

/* op [base + disp32], imm32 for the 0x81 group (digit: 0 add, 4 and, 5 sub, 7 cmp), mov (0xc7 /0)
 * and test (0xf7 /0) */
static inline void jx_gp_mi(jx_emit *e, int w64, unsigned op, unsigned digit, unsigned base, int32_t disp, uint32_t imm)
{
    jx_gp_m(e, w64, op, digit, base, disp);
    jx_u32(e, imm);
}

/* shl / shr r64, imm8 */
static inline void jx_shl64(jx_emit *e, unsigned r, uint8_t n) { jx_gp_r(e, 1, 0xc1, 4, r); jx_b(e, n); }

/* imul d, s, imm32 (64-bit) */
static inline void jx_imul_imm(jx_emit *e, unsigned d, unsigned s, uint32_t imm) { jx_gp_r(e, 1, 0x69, d, s); jx_u32(e, imm); }

/* cmp r32, imm32 */
static inline void jx_cmp_ri(jx_emit *e, unsigned r, uint32_t imm) { jx_gp_r(e, 0, 0x81, 7, r); jx_u32(e, imm); }

/* mov r32, imm32 */
static inline void jx_mov_ri(jx_emit *e, unsigned r, uint32_t imm)
{
    if (r >= 8)
        jx_b(e, 0x41);
    jx_b(e, (uint8_t)(0xb8 | (r & 7)));
    jx_u32(e, imm);
}

/* jmp qword [base + disp32] */
static inline void jx_jmp_m(jx_emit *e, unsigned base, int32_t disp) { jx_gp_m(e, 0, 0xff, 4, base, disp); }

/* jcc rel32 to a known position */
static inline void jx_jcc_to(jx_emit *e, unsigned cc, size_t target)
{
    jx_b(e, 0x0f);
    jx_b(e, (uint8_t)(0x80 | cc));
    jx_u32(e, (uint32_t)(target - (e->len + 4)));
}

/* vmovmskps r32, y (one bit per 32-bit lane) and vmovd xmm, r32 */
static inline void jx_movmsk(jx_emit *e, unsigned r, unsigned y)
{
    if (e->sse)
        jx_leg(e, PP_NONE, M_0F, 0x50, r, 0, y, 0);
    else
        jx_vex(e, PP_NONE, M_0F, 0x50, r, 0, 0, y, 0);
}
static inline void jx_movd_from(jx_emit *e, unsigned x, unsigned r)
{
    if (e->sse) {
        jx_leg(e, PP_66, M_0F, 0x6e, x, 0, r, 0);
        return;
    }
    unsigned l = e->l;
    e->l = 0;
    jx_vex(e, PP_66, M_0F, 0x6e, x, 0, 0, r, 0);
    e->l = l;
}

#endif
