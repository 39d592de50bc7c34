/* Internal to the Bifrost executor (emu/gpu/bifrost_exec*.c, workgroup.c): how prepared
 * instructions encode their modifiers (their semantic classes, enum bi_sem, are generated from
 * isa/bifrost/exec.isa), and the helpers the executor's files share.
 *
 *   bifrost_exec_prepare.c   decoded instruction -> bi_xinstr (semantic class, modifiers), once
 *   bifrost_exec_float.c     float helpers: rounding, denormals, NaNs, conversions, table ops
 *   bifrost_exec_alu.c       one ALU / branch instruction for one lane (scalar and vector)
 *   bifrost_exec_mem.c       memory and message instructions (loads, stores, atomics, texture)
 *   bifrost_exec_gfx.c       graphics messages through the front end's bi_gfx_if (bifrost_gfx.h)
 *   bifrost_exec.c           the clause loop: a clause over a warp's lanes, warp scheduling
 *   bifrost_exec_program.c   the program cache: clauses decoded and prepared once
 *   workgroup.c              compute workgroups: warps, preloads, barriers */
#ifndef MALIBU_BIFROST_EXEC_INT_H
#define MALIBU_BIFROST_EXEC_INT_H

#include <string.h>

#include "bifrost_exec.h"

enum { FM_PLAIN, FM_SQRT, FM_LOG };              /* FREXPE/FREXPM modes */
enum { LT_RED, LT_BASE2, LT_NATURAL };          /* FLOG_TABLE modes */
/* atomic operations (bi_xinstr.atom_opc) */
enum { A_NONE, A_ADD, A_SMIN, A_SMAX, A_UMIN, A_UMAX, A_AND, A_OR, A_XOR };
enum { R_NONE, R_RTP, R_RTN, R_RTZ, R_RTNA, R_RTO };
enum { C_EQ, C_GT, C_GE, C_NE, C_LT, C_LE, C_GTLT, C_TOTAL };
enum { L_AND, L_OR, L_XOR };
enum { SEG_NONE, SEG_WLS, SEG_STREAM, SEG_UBO, SEG_TL };
enum { DL_W0 = 6, DL_D0 = 7 };

/* Lane-loop kinds (bi_xclause.fast_fma / fast_add): common ALU forms the clause loop runs over all
 * lanes at once; K_GENERIC goes through bx_exec_op lane by lane. */
enum { K_GENERIC, K_NOP, K_MOV, K_IADD, K_ISUB, K_IADDC, K_IMUL, K_LSHIFT, K_RSHIFT, K_ICMP, K_CSEL,
       K_FADD, K_FMA, K_FCMP, K_ZEXT16, K_MUX, K_MKVEC };

/* Branch target meaning "the thread ends". */
#define PC_EXIT 0xffffffffu

/* Pending staging-register writes of a LOAD (committed at the end of the clause). */
typedef struct {
    unsigned n;
    uint32_t val[BI_MAX_LANES][4];
} staging;

typedef struct {
    int ftz;
} fctx;

/* Fill *f (if any): kind, address, printf-style message; returns BI_EXEC_FAULT. */
int bx_fault(bi_fault *f, enum bi_fault_kind kind, uint64_t addr, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- float helpers (bifrost_exec_float.c; the small ones inline: the lane loops use them) ---- */

static inline float f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t u32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline int is_nan(uint32_t u) { return (u & 0x7fffffff) > 0x7f800000; }
static inline int is_denorm(uint32_t u) { return (u & 0x7f800000) == 0 && (u & 0x7fffff); }
static inline int is_nan16(uint32_t h) { return (h & 0x7fff) > 0x7c00; }

/* NaN results (assumption): the first NaN operand, quieted; otherwise the default NaN 0x7fc00000. */
static inline uint32_t nan_result(uint32_t r, const uint32_t *in, unsigned n)
{
    if (!is_nan(r))
        return r;
    for (unsigned i = 0; i < n; i++)
        if (is_nan(in[i]))
            return in[i] | 0x00400000;
    return 0x7fc00000;
}

/* Output clamps (assumption: NaN clamps to +0; -0 is kept). */
static inline uint32_t fclamp(uint32_t u, int clamp)
{
    if (!clamp)
        return u;
    if (is_nan(u))
        return 0;
    float f = f32(u);
    float lo = clamp == 2 ? -1.0f : 0.0f;
    if (f < lo)
        return u32(lo);
    if (clamp != 1 && f > 1.0f)
        return u32(1.0f);
    return u;
}

static inline uint32_t fout(uint32_t r, const bi_xinstr *x, const uint32_t *in, unsigned n, const fctx *fc)
{
    r = nan_result(r, in, n);
    if (fc->ftz && is_denorm(r))
        r &= 0x80000000;
    return fclamp(r, x->clamp);
}

static inline int fcmp(uint32_t a, uint32_t b, int cmp)
{
    float fa = f32(a), fb = f32(b);
    switch (cmp) {
    case C_EQ: return fa == fb;
    case C_GT: return fa > fb;
    case C_GE: return fa >= fb;
    case C_NE: return !(fa == fb);          /* unordered: true */
    case C_LT: return fa < fb;
    case C_LE: return fa <= fb;
    case C_GTLT: return fa < fb || fa > fb;
    default: return 0;
    }
}

static inline uint32_t bool_result(int b, int rt)
{
    if (!b)
        return 0;
    return rt == 0 ? 1 : rt == 1 ? 0x3f800000 : 0xffffffff;
}

uint32_t bx_fsrc(const bi_xinstr *x, unsigned s, uint32_t v, const fctx *fc);
int bx_fe_mode(int round);
uint32_t bx_farith(int fma, uint32_t a, uint32_t b, uint32_t c, int round);
uint32_t bx_fminmax(uint32_t a, uint32_t b, int is_max, int sem);
uint32_t bx_f2i(uint32_t a, int rnd, int is_signed);
uint32_t bx_i2f(uint32_t a, int round, int is_signed);
uint32_t bx_fround(uint32_t a, int round);
uint16_t bx_f32_to_f16(uint32_t x, int round);
uint32_t bx_ro_f32(double d);
uint32_t bx_fsrc16(const bi_xinstr *x, unsigned s, uint32_t h, const fctx *fc);
uint32_t bx_fout16(uint32_t r, const bi_xinstr *x, const uint32_t *in, unsigned n, const fctx *fc);
uint32_t bx_frcp(uint32_t a);
uint32_t bx_frsq(uint32_t a);
uint16_t bx_frcp16(uint16_t a);   /* FRCP.f16 / FRSQ.f16: correctly rounded (assumption) */
uint16_t bx_frsq16(uint16_t a);
uint32_t bx_frexp_mode(uint32_t v, int mode, int *e);
uint32_t bx_table_op(const bi_xinstr *x, uint32_t v);
uint32_t bx_fma_rscale(uint32_t a, uint32_t b, uint32_t c, int32_t d, int round, int special);

/* ---- atomics ---------------------------------------------------------------------------------- */

/* Atomic operation op(a, b) on 32-bit (atom_op32) and 64-bit (atom_op64)
 * values; U/S: the unsigned and signed type. */
#define ATOM_OP(NAME, U, S)                                                    \
    static inline U NAME(unsigned opc, U a, U b)                                      \
    {                                                                          \
        switch (opc) {                                                         \
        case A_ADD: return a + b;                                              \
        case A_SMIN: return (S)a < (S)b ? a : b;                               \
        case A_SMAX: return (S)a > (S)b ? a : b;                               \
        case A_UMIN: return a < b ? a : b;                                     \
        case A_UMAX: return a > b ? a : b;                                     \
        case A_AND: return a & b;                                              \
        case A_OR: return a | b;                                               \
        case A_XOR: return a ^ b;                                              \
        default: return b;                                                     \
        }                                                                      \
    }
ATOM_OP(atom_op32, uint32_t, int32_t)
ATOM_OP(atom_op64, uint64_t, int64_t)
#undef ATOM_OP

/* identity of a size-byte atomic operation (b such that op(a, b) = a): the RETURN forms' second
 * staging value */
static inline uint64_t atom_identity(unsigned opc, unsigned size)
{
    uint64_t ones = size == 8 ? ~0ull : 0xffffffffu, smin = size == 8 ? 1ull << 63 : 0x80000000u;
    switch (opc) {
    case A_SMIN: return ones >> 1;
    case A_SMAX: return smin;
    case A_UMIN: case A_AND: return ones;
    default: return 0;
    }
}

/* lanes set in an exec mask of up to 8 lanes (no libgcc call) */
static inline unsigned bx_popcount8(uint32_t m)
{
    m = m - ((m >> 1) & 0x55);
    m = (m & 0x33) + ((m >> 2) & 0x33);
    return (m + (m >> 4)) & 0x0f;
}

/* ---- one instruction for one lane ------------------------------------------------------------- */

/* ALU / branch instruction (bifrost_exec_alu.c): s[] = raw source values; returns the result, sets
 * *branch = 1 and *target when a branch is taken. */
uint32_t bx_exec_op(const bi_xinstr *x, const uint32_t *s, const fctx *fc, int *branch, uint32_t *target);
/* Memory / message instruction (bifrost_exec_mem.c) of lane `lane`: loads and atomics leave their
 * staging-register results in stg, other results in *res. */
int bx_exec_mem(bi_warp *w, const bi_xinstr *x, const bi_clause *c, unsigned lane, const uint32_t *s,
                uint64_t atom_addr, staging *stg, uint32_t *res, bi_fault *f);

/* Graphics messages (bifrost_exec_gfx.c): message x of clause xc for the lanes in exec, once per
 * warp (src[k][l]: source k of lane l); staging results in stg. */
/* TEXC / TEXS for the lanes in exec, with their quads' derivatives (bifrost_exec_mem.c) */
int bx_exec_tex(bi_warp *w, const bi_xinstr *x, const bi_clause *c, uint32_t exec, const uint32_t (*src)[BI_MAX_LANES],
                unsigned n, staging *stg, bi_fault *f);
int bx_exec_gfx(bi_warp *w, const bi_xclause *xc, const bi_xinstr *x, uint32_t exec, const uint32_t (*src)[BI_MAX_LANES],
                staging *stg, bi_fault *f);
/* DISCARD.f32 over the lanes in exec (s[k]: source k's lane row): lanes it hits become helpers */
void bx_discard(bi_warp *w, const bi_xinstr *x, uint32_t exec, const uint32_t *const *s, const fctx *fc);

/* The observer's per-clause call (gpu_observer.h; NULL: none), made by bi_exec_program. */
extern void (*bi_exec_hook)(const bi_warp *w, const bi_program *p, const bi_xclause *x, uint32_t exec);
/* ... and its counts call for clauses compiled code counted (NULL: none; bi_exec_hook then sees
 * each).  Compiled code counts for it only if it was set when the code was compiled: set both
 * before any program is compiled. */
extern void (*bi_exec_hook_run)(const bi_program *p, uint64_t epoch, unsigned lanes, const bi_clause_count *r,
                                unsigned n);

/* ---- the program cache (bifrost_exec_program.c) ------------------------------------------------ */

/* The prepared clause at pc of p (decoded on first use; fetched programs read their code through
 * m), or an error ("bad clause address" for a pc outside the program). */
int bx_program_clause(bi_program *p, const bi_mem *m, uint32_t pc, bi_xclause **out, bi_fault *f);
/* bx_program_clause for the clause at pc run after prev (NULL: none): prev's cached successor when
 * it is that clause and still valid (same epoch), else the look-up, remembered in prev. */
int bx_program_next(bi_program *p, const bi_mem *m, bi_xclause *prev, uint32_t pc, bi_xclause **out, bi_fault *f);
/* Registers (bit r: rN) that some clause of p decoded so far may write: its tuples' writes and its
 * staging registers.  A warp that ran only clauses of p has zero in every other register it had
 * zero in before (workgroup.c reuses warps by clearing just these). */
uint64_t bx_program_written(const bi_program *p);
/* How many clauses p decoded so far (bi_xclause.index runs below it), and the one of index (NULL:
 * none; replaced clauses stay until p is freed). */
uint32_t bx_program_decoded(const bi_program *p);
const bi_xclause *bx_program_by_index(bi_program *p, uint32_t index);

#endif
