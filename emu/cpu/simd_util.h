/* AdvSIMD lane helpers: saturation, Arm-semantics shifts, bit counting,
 * polynomial multiply, integer reciprocal estimates.  All are small inline
 * functions of one lane; `bits` is the element size and is a compile-time
 * constant at every call site, so the branches on it fold away.
 *
 * Lane values are passed widened to 64 bits: signed lanes sign-extended
 * (int64_t), unsigned lanes zero-extended (uint64_t); results are returned
 * widened the same way and truncated by the caller.  Saturating helpers set
 * *qc to 1 when they saturate (the caller ORs FPSR_QC in once per op). */
#ifndef MALIBU_SIMD_UTIL_H
#define MALIBU_SIMD_UTIL_H

#include <stdbool.h>
#include <stdint.h>

static inline int64_t simd_smax(int bits) { return (int64_t)(~0ull >> (65 - bits)); }
static inline int64_t simd_smin(int bits) { return -simd_smax(bits) - 1; }
static inline uint64_t simd_umax(int bits) { return ~0ull >> (64 - bits); }

/* Saturate an exact value to the signed / unsigned range of `bits` bits. */
static inline int64_t simd_sat_s(__int128 v, int bits, unsigned *qc)
{
    if (v > simd_smax(bits)) { *qc = 1; return simd_smax(bits); }
    if (v < simd_smin(bits)) { *qc = 1; return simd_smin(bits); }
    return (int64_t)v;
}
static inline uint64_t simd_sat_u(__int128 v, int bits, unsigned *qc)
{
    if (v < 0) { *qc = 1; return 0; }
    if (v > (__int128)simd_umax(bits)) { *qc = 1; return simd_umax(bits); }
    return (uint64_t)v;
}

/* Saturating add/subtract of two lanes of the same type (type-generic). */
#define SIMD_SMAXT(T) ((T)(~0ull >> (65 - 8 * sizeof(T))))
#define SIMD_SMINT(T) ((T)(-SIMD_SMAXT(T) - 1))
#define SIMD_QADD_S(a, b, qc) ({ __typeof__(a) r_; if (__builtin_add_overflow((a), (b), &r_)) { *(qc) = 1; r_ = (b) < 0 ? SIMD_SMINT(__typeof__(a)) : SIMD_SMAXT(__typeof__(a)); } r_; })
#define SIMD_QSUB_S(a, b, qc) ({ __typeof__(a) r_; if (__builtin_sub_overflow((a), (b), &r_)) { *(qc) = 1; r_ = (b) > 0 ? SIMD_SMINT(__typeof__(a)) : SIMD_SMAXT(__typeof__(a)); } r_; })
#define SIMD_QADD_U(a, b, qc) ({ __typeof__(a) r_; if (__builtin_add_overflow((a), (b), &r_)) { *(qc) = 1; r_ = (__typeof__(a))~(__typeof__(a))0; } r_; })
#define SIMD_QSUB_U(a, b, qc) ({ __typeof__(a) r_; if (__builtin_sub_overflow((a), (b), &r_)) { *(qc) = 1; r_ = 0; } r_; })

/* Right shift by sh in 1..bits without undefined behaviour at sh == 64. */
static inline uint64_t simd_shr_u(uint64_t a, int sh) { return (a >> (sh - 1)) >> 1; }
static inline int64_t simd_shr_s(int64_t a, int sh) { return (a >> (sh - 1)) >> 1; }
/* Rounding right shift by sh in 1..64 (adds 1 << (sh - 1) first, exactly). */
static inline uint64_t simd_rshr_u(uint64_t a, int sh) { uint64_t t = a >> (sh - 1); return (t >> 1) + (t & 1); }
static inline int64_t simd_rshr_s(int64_t a, int sh) { int64_t t = a >> (sh - 1); return (t >> 1) + (t & 1); }

/* USHL/URSHL, SSHL/SRSHL: shift by a signed count (negative = right). */
static inline uint64_t simd_shl_u(uint64_t a, int sh, int bits, bool round)
{
    if (sh >= 0)
        return sh >= bits ? 0 : a << sh;
    int r = -sh;
    if (round)
        return r > bits ? 0 : simd_rshr_u(a, r);
    return r >= bits ? 0 : a >> r;
}
static inline int64_t simd_shl_s(int64_t a, int sh, int bits, bool round)
{
    if (sh >= 0)
        return sh >= bits ? 0 : (int64_t)((uint64_t)a << sh);
    int r = -sh;
    if (round)
        return r > bits ? 0 : simd_rshr_s(a, r);
    return a >> (r >= bits ? bits - 1 : r);
}

/* Saturating shifts: UQSHL/UQRSHL, SQSHL/SQRSHL (register and immediate), SQSHLU. */
static inline uint64_t simd_qshl_u(uint64_t a, int sh, int bits, bool round, unsigned *qc)
{
    if (sh < 0)
        return simd_shl_u(a, sh, bits, round);
    if (a == 0)
        return 0;
    if (sh >= bits || ((a >> (bits - sh - 1)) >> 1) != 0) {
        *qc = 1;
        return simd_umax(bits);
    }
    return a << sh;
}
static inline int64_t simd_qshl_s(int64_t a, int sh, int bits, bool round, unsigned *qc)
{
    if (sh < 0)
        return simd_shl_s(a, sh, bits, round);
    if (a == 0)
        return 0;
    if (sh >= bits) {
        *qc = 1;
        return a < 0 ? simd_smin(bits) : simd_smax(bits);
    }
    int64_t t = a >> (bits - 1 - sh);
    if (t != 0 && t != -1) {
        *qc = 1;
        return a < 0 ? simd_smin(bits) : simd_smax(bits);
    }
    return (int64_t)((uint64_t)a << sh);
}
static inline uint64_t simd_qshlu(int64_t a, int sh, int bits, unsigned *qc)
{
    if (a < 0) {
        *qc = 1;
        return 0;
    }
    return simd_qshl_u((uint64_t)a, sh, bits, false, qc);
}

/* Sign-extend the low `bits` bits of v. */
static inline int64_t simd_sext(uint64_t v, int bits) { return (int64_t)(v << (64 - bits)) >> (64 - bits); }

/* SQDMULH / SQRDMULH: high half of 2*a*b (rounded), saturated. */
static inline int64_t simd_sqdmulh(int64_t a, int64_t b, int bits, bool round, unsigned *qc)
{
    __int128 p = (__int128)2 * a * b + (round ? (__int128)1 << (bits - 1) : 0);
    return simd_sat_s(p >> bits, bits, qc);
}

/* Halving add/subtract (exact, no overflow): floor((a +- b) / 2), rounding add. */
#define SIMD_HADD(a, b) (((a) >> 1) + ((b) >> 1) + ((a) & (b) & 1))
#define SIMD_RHADD(a, b) (((a) >> 1) + ((b) >> 1) + (((a) | (b)) & 1))
#define SIMD_HSUB(a, b) (((a) >> 1) - ((b) >> 1) - (~(a) & (b) & 1))

/* Leading zeros / leading sign bits / population count of a bits-wide lane. */
static inline unsigned simd_clz(uint64_t a, int bits)
{
    a &= simd_umax(bits);
    return a ? (unsigned)__builtin_clzll(a) - (64 - bits) : (unsigned)bits;
}
static inline unsigned simd_cls(int64_t a, int bits)
{
    return simd_clz((uint64_t)(a ^ (a >> 1)), bits) - 1;
}
static inline uint8_t simd_rbit8(uint8_t x)
{
    x = (uint8_t)(((x & 0xf0) >> 4) | ((x & 0x0f) << 4));
    x = (uint8_t)(((x & 0xcc) >> 2) | ((x & 0x33) << 2));
    return (uint8_t)(((x & 0xaa) >> 1) | ((x & 0x55) << 1));
}
static inline uint8_t simd_cnt8(uint8_t x)
{
    x = (uint8_t)(x - ((x >> 1) & 0x55));
    x = (uint8_t)((x & 0x33) + ((x >> 2) & 0x33));
    return (uint8_t)((x + (x >> 4)) & 0x0f);
}

/* Polynomial (carry-less) multiplication. */
static inline uint8_t simd_pmul8(uint8_t a, uint8_t b)
{
    uint8_t r = 0;
    for (int i = 0; i < 8; i++)
        r ^= (uint8_t)(((b >> i) & 1) ? a << i : 0);
    return r;
}
static inline uint16_t simd_pmull8(uint8_t a, uint8_t b)
{
    uint16_t r = 0;
    for (int i = 0; i < 8; i++)
        r ^= (uint16_t)(((b >> i) & 1) ? (uint16_t)a << i : 0);
    return r;
}
static inline unsigned __int128 simd_pmull64(uint64_t a, uint64_t b)
{
    unsigned __int128 r = 0;
    for (int i = 0; i < 64; i++)
        if ((b >> i) & 1)
            r ^= (unsigned __int128)a << i;
    return r;
}

/* URECPE / URSQRTE on a 32-bit lane (Arm ARM UnsignedRecipEstimate / UnsignedRSqrtEstimate). */
static inline uint32_t simd_urecpe(uint32_t x)
{
    if (!(x >> 31))
        return 0xffffffffu;
    uint32_t a = (x >> 23) * 2 + 1;       /* 9-bit input 256..511, scaled */
    uint32_t b = (1u << 19) / a;
    uint32_t r = (b + 1) / 2;             /* 256..511 */
    return (r & 0x1ff) << 23;
}
static inline uint32_t simd_ursqrte(uint32_t x)
{
    if (!(x >> 30))
        return 0xffffffffu;
    uint64_t a = x >> 23;                 /* 128..511 */
    if (a < 256)
        a = a * 2 + 1;
    else
        a = ((a >> 1) << 1) * 2 + 2;
    uint64_t b = 512;
    while (a * (b + 1) * (b + 1) < (1ull << 28))
        b++;
    uint32_t r = (uint32_t)((b + 1) / 2);
    return (r & 0x1ff) << 23;
}

/* ---- Handler templates for the AdvSIMD integer translators (tr_simd_arith*.c) ----
 * Only available where translate.h was included first.
 *
 * Every handler is specialised at translate time by element size and by shape:
 * MODE 0 = 64-bit vector (upper half of Vd zeroed), 1 = 128-bit vector,
 * 2 = scalar (lane 0 only, rest of Vd zeroed).  Loops have constant trip
 * counts and compute into a local VReg, so the compiler vectorises the simple
 * ones.  Operands: o->d, o->n, o->m are V register numbers, o->imm a shift.
 * Lane type tokens: u8 u16 u32 u64 (unsigned) and s8 s16 s32 s64 (signed). */
#ifdef MALIBU_TRANSLATE_H
#define TY_u8 uint8_t
#define TY_u16 uint16_t
#define TY_u32 uint32_t
#define TY_u64 uint64_t
#define TY_s8 int8_t
#define TY_s16 int16_t
#define TY_s32 int32_t
#define TY_s64 int64_t
#define FL_u8 b
#define FL_u16 h
#define FL_u32 s
#define FL_u64 d
#define FL_s8 sb
#define FL_s16 sh
#define FL_s32 ss
#define FL_s64 sd
#define TY(S, N) TY_##S##N
#define FL(S, N) FL_##S##N

#define NLANES(MODE, BYTES) ((MODE) == 2 ? 1 : ((MODE) ? 16 : 8) / (BYTES))
#define SIMD_END(c, o, r, qc)          \
    do {                               \
        if (qc)                        \
            (c)->fp.fpsr |= FPSR_QC;   \
        (c)->v[(o)->d] = (r);          \
        return (o) + 1;                \
    } while (0)

/* Same-width element-wise op: lanes a (Vn), b (Vm), e (old Vd), shift sh = o->imm;
 * bits = element size.  EXPR gives the result lane. */
#define DEF_E(NAME, S, N, MODE, EXPR)                                                   \
    static Op *NAME(CPUState *c, Op *o)                                                 \
    {                                                                                   \
        const VReg *vn = &c->v[o->n], *vm = &c->v[o->m], *vd = &c->v[o->d];             \
        VReg r;                                                                         \
        unsigned qc = 0;                                                                \
        const int sh = (int)o->imm, bits = N;                                           \
        (void)sh; (void)bits; (void)vm; (void)vd; (void)vn;                             \
        if ((MODE) != 1)                                                                \
            r.q = 0;                                                                    \
        for (int i = 0; i < NLANES(MODE, N / 8); i++) {                                 \
            TY(S, N) a = vn->FL(S, N)[i], b = vm->FL(S, N)[i], e = vd->FL(S, N)[i];     \
            (void)a; (void)b; (void)e;                                                  \
            r.FL(S, N)[i] = (TY(S, N))(EXPR);                                           \
        }                                                                               \
        SIMD_END(c, o, r, qc);                                                          \
    }

/* All 12 specialisations and a table NAME[size][mode]. */
#define GEN_E(NAME, S, EXPR)                                                            \
    DEF_E(NAME##_0_0, S, 8, 0, EXPR) DEF_E(NAME##_0_1, S, 8, 1, EXPR)                  \
    DEF_E(NAME##_0_2, S, 8, 2, EXPR) DEF_E(NAME##_1_0, S, 16, 0, EXPR)                 \
    DEF_E(NAME##_1_1, S, 16, 1, EXPR) DEF_E(NAME##_1_2, S, 16, 2, EXPR)                \
    DEF_E(NAME##_2_0, S, 32, 0, EXPR) DEF_E(NAME##_2_1, S, 32, 1, EXPR)                \
    DEF_E(NAME##_2_2, S, 32, 2, EXPR) DEF_E(NAME##_3_0, S, 64, 0, EXPR)                \
    DEF_E(NAME##_3_1, S, 64, 1, EXPR) DEF_E(NAME##_3_2, S, 64, 2, EXPR)                \
    static const OpFn NAME[4][3] = {                                                    \
        { NAME##_0_0, NAME##_0_1, NAME##_0_2 }, { NAME##_1_0, NAME##_1_1, NAME##_1_2 }, \
        { NAME##_2_0, NAME##_2_1, NAME##_2_2 }, { NAME##_3_0, NAME##_3_1, NAME##_3_2 }, \
    };

/* Vector-only variant (no scalar forms): table NAME[size][q]. */
#define GEN_EV(NAME, S, EXPR)                                                           \
    DEF_E(NAME##_0_0, S, 8, 0, EXPR) DEF_E(NAME##_0_1, S, 8, 1, EXPR)                  \
    DEF_E(NAME##_1_0, S, 16, 0, EXPR) DEF_E(NAME##_1_1, S, 16, 1, EXPR)                \
    DEF_E(NAME##_2_0, S, 32, 0, EXPR) DEF_E(NAME##_2_1, S, 32, 1, EXPR)                \
    DEF_E(NAME##_3_0, S, 64, 0, EXPR) DEF_E(NAME##_3_1, S, 64, 1, EXPR)                \
    static const OpFn NAME[4][3] = {                                                    \
        { NAME##_0_0, NAME##_0_1, 0 }, { NAME##_1_0, NAME##_1_1, 0 },                   \
        { NAME##_2_0, NAME##_2_1, 0 }, { NAME##_3_0, NAME##_3_1, 0 },                   \
    };

/* Widening op: narrow sources (element N bits, signedness S) from the lower
 * (MODE 0) or upper (MODE 1) half, or lane 0 (MODE 2, scalar); wide result.
 * a = Vn lane (wide Vn lane if WN), b = Vm lane, as TW (the signed or unsigned
 * wide type); e = old Vd wide lane (unsigned); bits = narrow element size. */
#define DEF_L(NAME, S, N, N2, WN, MODE, EXPR)                                           \
    static Op *NAME(CPUState *c, Op *o)                                                 \
    {                                                                                   \
        const VReg *vn = &c->v[o->n], *vm = &c->v[o->m], *vd = &c->v[o->d];             \
        VReg r;                                                                         \
        unsigned qc = 0;                                                                \
        const int sh = (int)o->imm, bits = N;                                           \
        const int nl = NLANES((MODE) == 2 ? 2 : 0, N / 8), off = (MODE) == 1 ? nl : 0;  \
        (void)sh; (void)bits; (void)vm; (void)vd;                                       \
        if ((MODE) == 2)                                                                \
            r.q = 0;                                                                    \
        for (int i = 0; i < nl; i++) {                                                  \
            TY(S, N2) a = (WN) ? vn->FL(S, N2)[i] : (TY(S, N2))vn->FL(S, N)[i + off];   \
            TY(S, N2) b = (TY(S, N2))vm->FL(S, N)[i + off];                             \
            TY(u, N2) e = vd->FL(u, N2)[i];                                             \
            (void)a; (void)b; (void)e;                                                  \
            r.FL(u, N2)[i] = (TY(u, N2))(EXPR);                                         \
        }                                                                               \
        SIMD_END(c, o, r, qc);                                                          \
    }

/* Table NAME[size][mode] for narrow sizes 8, 16, 32. */
#define GEN_L(NAME, S, WN, EXPR)                                                        \
    DEF_L(NAME##_0_0, S, 8, 16, WN, 0, EXPR) DEF_L(NAME##_0_1, S, 8, 16, WN, 1, EXPR)   \
    DEF_L(NAME##_0_2, S, 8, 16, WN, 2, EXPR) DEF_L(NAME##_1_0, S, 16, 32, WN, 0, EXPR)  \
    DEF_L(NAME##_1_1, S, 16, 32, WN, 1, EXPR) DEF_L(NAME##_1_2, S, 16, 32, WN, 2, EXPR) \
    DEF_L(NAME##_2_0, S, 32, 64, WN, 0, EXPR) DEF_L(NAME##_2_1, S, 32, 64, WN, 1, EXPR) \
    DEF_L(NAME##_2_2, S, 32, 64, WN, 2, EXPR)                                           \
    static const OpFn NAME[4][3] = {                                                    \
        { NAME##_0_0, NAME##_0_1, NAME##_0_2 }, { NAME##_1_0, NAME##_1_1, NAME##_1_2 }, \
        { NAME##_2_0, NAME##_2_1, NAME##_2_2 }, { 0, 0, 0 },                            \
    };

/* Narrowing op: wide source lanes a (Vn), b (Vm) of type TY(S, N2); narrow result
 * (unsigned N bits) into the lower half (MODE 0, upper zeroed), the upper half
 * (MODE 1, lower half of Vd kept) or lane 0 (MODE 2, scalar).  bits = narrow size. */
#define DEF_N(NAME, S, N, N2, MODE, EXPR)                                               \
    static Op *NAME(CPUState *c, Op *o)                                                 \
    {                                                                                   \
        const VReg *vn = &c->v[o->n], *vm = &c->v[o->m];                                \
        VReg r;                                                                         \
        unsigned qc = 0;                                                                \
        const int sh = (int)o->imm, bits = N;                                           \
        const int nl = NLANES((MODE) == 2 ? 2 : 0, N / 8), off = (MODE) == 1 ? 8 / (N / 8) : 0; \
        (void)sh; (void)bits; (void)vm;                                                 \
        if ((MODE) == 1)                                                                \
            r = c->v[o->d];                                                             \
        else                                                                            \
            r.q = 0;                                                                    \
        TY(u, N) t[8 / (N / 8)];                                                        \
        for (int i = 0; i < nl; i++) {                                                  \
            TY(S, N2) a = vn->FL(S, N2)[i], b = vm->FL(S, N2)[i];                       \
            (void)a; (void)b;                                                           \
            t[i] = (TY(u, N))(EXPR);                                                    \
        }                                                                               \
        for (int i = 0; i < nl; i++)                                                    \
            r.FL(u, N)[i + off] = t[i];                                                 \
        SIMD_END(c, o, r, qc);                                                          \
    }

#define GEN_N(NAME, S, EXPR)                                                            \
    DEF_N(NAME##_0_0, S, 8, 16, 0, EXPR) DEF_N(NAME##_0_1, S, 8, 16, 1, EXPR)           \
    DEF_N(NAME##_0_2, S, 8, 16, 2, EXPR) DEF_N(NAME##_1_0, S, 16, 32, 0, EXPR)          \
    DEF_N(NAME##_1_1, S, 16, 32, 1, EXPR) DEF_N(NAME##_1_2, S, 16, 32, 2, EXPR)         \
    DEF_N(NAME##_2_0, S, 32, 64, 0, EXPR) DEF_N(NAME##_2_1, S, 32, 64, 1, EXPR)         \
    DEF_N(NAME##_2_2, S, 32, 64, 2, EXPR)                                               \
    static const OpFn NAME[4][3] = {                                                    \
        { NAME##_0_0, NAME##_0_1, NAME##_0_2 }, { NAME##_1_0, NAME##_1_1, NAME##_1_2 }, \
        { NAME##_2_0, NAME##_2_1, NAME##_2_2 }, { 0, 0, 0 },                            \
    };

/* Emit an op with V register operands and an immediate. */
static inline Op *simd_emit(DisasCtx *s, OpFn fn, int rd, int rn, int rm, uint64_t imm)
{
    Op *o = tr_emit(s, fn);
    o->d = (uint8_t)rd;
    o->n = (uint8_t)rn;
    o->m = (uint8_t)rm;
    o->imm = imm;
    return o;
}

/* Native back end descriptions (native.h, NK_VEC): every handler of a [size][mode] table as
 * operation op; mode 2 (scalar) only where it is the D-register form of a 64-bit element. */
#if defined(MALIBU_NATIVE_H) && MALIBU_HAVE_NATIVE
static inline void simd_bind_tab(const OpFn t[4][3], uint8_t op)
{
    for (int size = 0; size < 4; size++)
        for (int mode = 0; mode < 3; mode++)
            if (t[size][mode] && (mode < 2 || size == 3))
                native_bind(t[size][mode], (NativeDesc){ .kind = NK_VEC, .op = op, .size = (uint8_t)size,
                                                         .sub = mode == 1 });
}
#endif

#endif /* MALIBU_TRANSLATE_H */

#endif
