/* Arm floating-point arithmetic, bit-exact with the Armv8.0 pseudocode
 * (FPAdd, FPMulAdd, FPRound, FPProcessNaNs, FPToFixed, ...): FPCR rounding
 * mode, FZ, FZ16 (half-precision arithmetic), DN and AHP honoured; NaN propagation and FPSR cumulative
 * exception bits exactly as the architecture specifies.  Values are passed as
 * raw bit patterns (f16 = uint16_t, f32 = uint32_t, f64 = uint64_t).
 * Scalar FP and AdvSIMD translators both use these, lane by lane.
 *
 * Implementation (softfloat.c): a generic soft path written from the Arm ARM
 * pseudocode, plus host-FPU fast paths used only where they provably give the
 * same bits and FPSR flags (FPCR.RMode = RN, normal/zero inputs, a result that
 * cannot have under/overflowed, FPSR.IXC already set, ...).  The fast paths
 * assume the host floating-point environment stays at its default (round to
 * nearest even, no flush-to-zero/denormals-are-zero, exceptions masked):
 * nothing in the emulator may change it. */
#ifndef MALIBU_FPU_H
#define MALIBU_FPU_H

#include <stdbool.h>
#include <stdint.h>
#include "cpu.h"

/* Rounding modes, numbered as FPCR.RMode for the first four. */
typedef enum {
    FPR_TIEEVEN = 0, FPR_POSINF = 1, FPR_NEGINF = 2, FPR_ZERO = 3,
    FPR_TIEAWAY = 4, FPR_ODD = 5,
} FPRounding;

static inline FPRounding fp_rmode(const FPEnv *e)
{
    return (FPRounding)((e->fpcr >> FPCR_RMODE_SHIFT) & 3);
}

#define FPU_BINOPS(T, N)                                              \
    T f##N##_add(T a, T b, FPEnv *e);                                 \
    T f##N##_sub(T a, T b, FPEnv *e);                                 \
    T f##N##_mul(T a, T b, FPEnv *e);                                 \
    T f##N##_mulx(T a, T b, FPEnv *e);   /* FMULX: 0*inf = +-2.0 */   \
    T f##N##_div(T a, T b, FPEnv *e);                                 \
    T f##N##_max(T a, T b, FPEnv *e);                                 \
    T f##N##_min(T a, T b, FPEnv *e);                                 \
    T f##N##_maxnm(T a, T b, FPEnv *e);                               \
    T f##N##_minnm(T a, T b, FPEnv *e);                               \
    T f##N##_abd(T a, T b, FPEnv *e);    /* FABD: |a - b| */          \
    T f##N##_recps(T a, T b, FPEnv *e);  /* FRECPS: 2 - a*b fused */  \
    T f##N##_rsqrts(T a, T b, FPEnv *e); /* FRSQRTS: (3 - a*b)/2 */   \
    /* FPMulAdd(addend, op1, op2): addend + op1*op2, one rounding. */ \
    T f##N##_muladd(T addend, T op1, T op2, FPEnv *e);                \
    T f##N##_sqrt(T a, FPEnv *e);                                     \
    T f##N##_recpe(T a, FPEnv *e);                                    \
    T f##N##_rsqrte(T a, FPEnv *e);                                   \
    T f##N##_recpx(T a, FPEnv *e);                                    \
    /* FRINT*: round to integral in the given mode; exact => IXC if changed. */ \
    T f##N##_round_int(T a, FPRounding r, bool exact, FPEnv *e);      \
    /* FCMP/FCMPE: returns NZCV in bits 31:28; signal_nans => any NaN raises IOC. */ \
    uint32_t f##N##_compare(T a, T b, bool signal_nans, FPEnv *e);    \
    /* AdvSIMD compares (FCMEQ/FCMGE/FCMGT): true/false, IOC as FPCompareEQ/GE/GT. */ \
    bool f##N##_cmp_eq(T a, T b, FPEnv *e);                           \
    bool f##N##_cmp_ge(T a, T b, FPEnv *e);                           \
    bool f##N##_cmp_gt(T a, T b, FPEnv *e);                           \
    /* FPToFixed: to a signed/unsigned integer of `ibits` (32 or 64) with fbits   \
     * fraction bits, saturating (IOC on overflow or NaN).  Result is the        \
     * integer's bit pattern, zero-extended to 64 bits. */                       \
    uint64_t f##N##_to_fixed(T a, int fbits, bool is_unsigned, int ibits, FPRounding r, FPEnv *e); \
    /* FixedToFP: a signed/unsigned 64-bit value with fbits fraction bits. */     \
    T fixed_to_f##N(uint64_t v, int fbits, bool is_unsigned, FPRounding r, FPEnv *e);

FPU_BINOPS(uint16_t, 16) /* FEAT_FP16 (the --cpu max core's half-precision instructions) */
FPU_BINOPS(uint32_t, 32)
FPU_BINOPS(uint64_t, 64)
#undef FPU_BINOPS

/* Precision conversions (FCVT, FCVTL/FCVTN, FCVTXN uses FPR_ODD). */
uint64_t f32_to_f64(uint32_t a, FPEnv *e);
uint32_t f64_to_f32(uint64_t a, FPRounding r, FPEnv *e);
uint32_t f16_to_f32(uint16_t a, FPEnv *e);            /* FPCR.AHP selects the half format */
uint64_t f16_to_f64(uint16_t a, FPEnv *e);
uint16_t f32_to_f16(uint32_t a, FPRounding r, FPEnv *e);
uint16_t f64_to_f16(uint64_t a, FPRounding r, FPEnv *e);

/* Raw-bit helpers that never touch FPSR. */
static inline uint16_t f16_neg(uint16_t a) { return a ^ 0x8000u; }
static inline uint16_t f16_abs(uint16_t a) { return a & 0x7fffu; }
static inline uint32_t f32_neg(uint32_t a) { return a ^ 0x80000000u; }
static inline uint64_t f64_neg(uint64_t a) { return a ^ 0x8000000000000000ull; }
static inline uint32_t f32_abs(uint32_t a) { return a & 0x7fffffffu; }
static inline uint64_t f64_abs(uint64_t a) { return a & 0x7fffffffffffffffull; }

/* ---- Host fast paths ------------------------------------------------------------
 * fpfast_fN_op(..., &r) computes r on the host FPU and returns true when r is
 * provably the Arm result with no FPSR change: FPCR.RMode = RN and FPSR.IXC
 * already set (fpfast_ok), inputs normal or zero, and a result above the
 * minimum normal magnitude and finite (an RN result equal to the minimum
 * normal may come from a tiny value; zero only where it is exact).  The
 * softfloat entry points use them first; fN_op_inl() lets a hot handler try
 * the fast path inline before calling the entry point.  (The result bits are
 * inspected, so a compiler cannot fuse a host multiply into a later add.) */
static inline float fpfast_as_f(uint32_t x) { float f; __builtin_memcpy(&f, &x, 4); return f; }
static inline double fpfast_as_d(uint64_t x) { double f; __builtin_memcpy(&f, &x, 8); return f; }
static inline uint32_t fpfast_bits_f(float f) { uint32_t x; __builtin_memcpy(&x, &f, 4); return x; }
static inline uint64_t fpfast_bits_d(double f) { uint64_t x; __builtin_memcpy(&x, &f, 8); return x; }
static inline bool fpfast_ok(const FPEnv *e) { return !(e->fpcr & FPCR_RMODE_MASK) && (e->fpsr & FPSR_IXC); }
/* normal: finite, neither zero nor denormal */
static inline bool fpfast_f32_normal(uint32_t x) { return ((x >> 23) & 0xff) - 1u < 0xfeu; }
static inline bool fpfast_f64_normal(uint64_t x) { return ((x >> 52) & 0x7ff) - 1u < 0x7feu; }
static inline bool fpfast_f32_zero(uint32_t x) { return (x << 1) == 0; }
static inline bool fpfast_f64_zero(uint64_t x) { return (x << 1) == 0; }
static inline bool fpfast_f32_nz(uint32_t x) { return fpfast_f32_normal(x) || fpfast_f32_zero(x); }
static inline bool fpfast_f64_nz(uint64_t x) { return fpfast_f64_normal(x) || fpfast_f64_zero(x); }
static inline bool fpfast_f32_res_ok(uint32_t x) { return (x & 0x7fffffffu) - 0x00800001u < 0x7f800000u - 0x00800001u; }
static inline bool fpfast_f64_res_ok(uint64_t x)
{
    return (x & 0x7fffffffffffffffull) - 0x0010000000000001ull < 0x7ff0000000000000ull - 0x0010000000000001ull;
}

#define FPFAST_OPS(N, T, HT, AS, BITS, SQRT, FMA)                                                  \
    static inline bool fpfast_f##N##_add(T a, T b, const FPEnv *e, T *r)                           \
    {                                                                                              \
        if (!(fpfast_ok(e) && fpfast_f##N##_nz(a) && fpfast_f##N##_nz(b)))                         \
            return false;                                                                          \
        *r = BITS(AS(a) + AS(b)); /* a tiny sum is exact: only its flush would differ */            \
        return fpfast_f##N##_res_ok(*r) || fpfast_f##N##_zero(*r);                                 \
    }                                                                                              \
    static inline bool fpfast_f##N##_sub(T a, T b, const FPEnv *e, T *r)                           \
    {                                                                                              \
        if (!(fpfast_ok(e) && fpfast_f##N##_nz(a) && fpfast_f##N##_nz(b)))                         \
            return false;                                                                          \
        *r = BITS(AS(a) - AS(b));                                                                  \
        return fpfast_f##N##_res_ok(*r) || fpfast_f##N##_zero(*r);                                 \
    }                                                                                              \
    static inline bool fpfast_f##N##_mul(T a, T b, const FPEnv *e, T *r)                           \
    {                                                                                              \
        if (!(fpfast_ok(e) && fpfast_f##N##_nz(a) && fpfast_f##N##_nz(b)))                         \
            return false;                                                                          \
        *r = BITS(AS(a) * AS(b));                                                                  \
        return fpfast_f##N##_res_ok(*r) ||                                                         \
               (fpfast_f##N##_zero(*r) && (fpfast_f##N##_zero(a) || fpfast_f##N##_zero(b)));       \
    }                                                                                              \
    static inline bool fpfast_f##N##_div(T a, T b, const FPEnv *e, T *r)                           \
    {                                                                                              \
        if (!(fpfast_ok(e) && fpfast_f##N##_nz(a) && fpfast_f##N##_normal(b)))                     \
            return false;                                                                          \
        *r = BITS(AS(a) / AS(b));                                                                  \
        return fpfast_f##N##_res_ok(*r) || fpfast_f##N##_zero(a);                                  \
    }                                                                                              \
    /* addend + a*b, fused */                                                                      \
    static inline bool fpfast_f##N##_muladd(T c, T a, T b, const FPEnv *e, T *r)                   \
    {                                                                                              \
        if (!(fpfast_ok(e) && fpfast_f##N##_nz(a) && fpfast_f##N##_nz(b) && fpfast_f##N##_nz(c)))  \
            return false;                                                                          \
        *r = BITS(FMA(AS(a), AS(b), AS(c)));                                                       \
        return fpfast_f##N##_res_ok(*r);                                                           \
    }                                                                                              \
    static inline bool fpfast_f##N##_sqrt(T a, const FPEnv *e, T *r)                               \
    {                                                                                              \
        if (!(fpfast_ok(e) && (fpfast_f##N##_zero(a) || (fpfast_f##N##_normal(a) && !(a >> (N - 1))))))  \
            return false;                                                                          \
        *r = BITS(SQRT(AS(a)));                                                                    \
        return true;                                                                               \
    }                                                                                              \
    static inline T f##N##_add_inl(T a, T b, FPEnv *e)                                             \
    {                                                                                              \
        T r;                                                                                       \
        return likely(fpfast_f##N##_add(a, b, e, &r)) ? r : f##N##_add(a, b, e);                   \
    }                                                                                              \
    static inline T f##N##_sub_inl(T a, T b, FPEnv *e)                                             \
    {                                                                                              \
        T r;                                                                                       \
        return likely(fpfast_f##N##_sub(a, b, e, &r)) ? r : f##N##_sub(a, b, e);                   \
    }                                                                                              \
    static inline T f##N##_mul_inl(T a, T b, FPEnv *e)                                             \
    {                                                                                              \
        T r;                                                                                       \
        return likely(fpfast_f##N##_mul(a, b, e, &r)) ? r : f##N##_mul(a, b, e);                   \
    }                                                                                              \
    static inline T f##N##_div_inl(T a, T b, FPEnv *e)                                             \
    {                                                                                              \
        T r;                                                                                       \
        return likely(fpfast_f##N##_div(a, b, e, &r)) ? r : f##N##_div(a, b, e);                   \
    }                                                                                              \
    static inline T f##N##_muladd_inl(T c, T a, T b, FPEnv *e)                                    \
    {                                                                                              \
        T r;                                                                                       \
        return likely(fpfast_f##N##_muladd(c, a, b, e, &r)) ? r : f##N##_muladd(c, a, b, e);       \
    }                                                                                              \
    static inline T f##N##_sqrt_inl(T a, FPEnv *e)                                                 \
    {                                                                                              \
        T r;                                                                                       \
        return likely(fpfast_f##N##_sqrt(a, e, &r)) ? r : f##N##_sqrt(a, e);                       \
    }

FPFAST_OPS(32, uint32_t, float, fpfast_as_f, fpfast_bits_f, __builtin_sqrtf, __builtin_fmaf)
FPFAST_OPS(64, uint64_t, double, fpfast_as_d, fpfast_bits_d, __builtin_sqrt, __builtin_fma)
#undef FPFAST_OPS

#endif
