/* Integer data processing: translators and op handlers.
 *
 * Every handler is specialised at translate time on everything the encoding
 * fixes (operand size, flag setting, shift/extend type, condition code), so
 * the run-time work is just the arithmetic.  The generic bodies below are
 * always_inline functions called with constant arguments; the INST_* macros
 * stamp out one static handler per combination plus a lookup table. */
#include <string.h>
#include "translate.h"
#include "native.h"

#define AI static inline __attribute__((always_inline))

/* ---- shared arithmetic -------------------------------------------------- */

AI void set_nzcv(CPUState *c, unsigned n, unsigned z, unsigned cy, unsigned v)
{
    c->nf = (uint8_t)n;
    c->zf = (uint8_t)z;
    c->cf = (uint8_t)cy;
    c->vf = (uint8_t)v;
}

AI uint64_t addsub64(CPUState *c, uint64_t a, uint64_t b, int sub, int setf)
{
    uint64_t r;
    if (!sub) {
        r = a + b;
        if (setf)
            set_nzcv(c, r >> 63, r == 0, r < a, ((a ^ r) & (b ^ r)) >> 63);
    } else {
        r = a - b;
        if (setf)
            set_nzcv(c, r >> 63, r == 0, a >= b, ((a ^ b) & (a ^ r)) >> 63);
    }
    return r;
}

AI uint32_t addsub32(CPUState *c, uint32_t a, uint32_t b, int sub, int setf)
{
    uint32_t r;
    if (!sub) {
        r = a + b;
        if (setf)
            set_nzcv(c, r >> 31, r == 0, r < a, ((a ^ r) & (b ^ r)) >> 31);
    } else {
        r = a - b;
        if (setf)
            set_nzcv(c, r >> 31, r == 0, a >= b, ((a ^ b) & (a ^ r)) >> 31);
    }
    return r;
}

/* Add with carry in from C; b is already inverted for SBC. */
AI uint64_t adc64(CPUState *c, uint64_t a, uint64_t b, int setf)
{
    unsigned __int128 w = (unsigned __int128)a + b + c->cf;
    uint64_t r = (uint64_t)w;
    if (setf)
        set_nzcv(c, r >> 63, r == 0, (unsigned)(w >> 64), ((a ^ r) & (b ^ r)) >> 63);
    return r;
}

AI uint32_t adc32(CPUState *c, uint32_t a, uint32_t b, int setf)
{
    uint64_t w = (uint64_t)a + b + c->cf;
    uint32_t r = (uint32_t)w;
    if (setf)
        set_nzcv(c, r >> 31, r == 0, (unsigned)(w >> 32), ((a ^ r) & (b ^ r)) >> 31);
    return r;
}

/* Shift kinds: 0 LSL, 1 LSR, 2 ASR, 3 ROR (amount != 0), 4 none. */
AI uint64_t shift64(uint64_t v, int kind, unsigned amt)
{
    switch (kind) {
    case 0: return v << amt;
    case 1: return v >> amt;
    case 2: return (uint64_t)((int64_t)v >> amt);
    case 3: return (v >> amt) | (v << ((64 - amt) & 63));
    default: return v;
    }
}

AI uint32_t shift32(uint32_t v, int kind, unsigned amt)
{
    switch (kind) {
    case 0: return v << amt;
    case 1: return v >> amt;
    case 2: return (uint32_t)((int32_t)v >> amt);
    case 3: return (v >> amt) | (v << ((32 - amt) & 31));
    default: return v;
    }
}

/* Extend types UXTB UXTH UXTW UXTX SXTB SXTH SXTW SXTX. */
AI uint64_t extend64(uint64_t v, int opt)
{
    switch (opt) {
    case 0: return (uint8_t)v;
    case 1: return (uint16_t)v;
    case 2: return (uint32_t)v;
    case 4: return (uint64_t)(int64_t)(int8_t)v;
    case 5: return (uint64_t)(int64_t)(int16_t)v;
    case 6: return (uint64_t)(int64_t)(int32_t)v;
    default: return v;
    }
}

#define C15(M, a, b, d) M(a, b, d, 0) M(a, b, d, 1) M(a, b, d, 2) M(a, b, d, 3) M(a, b, d, 4) \
    M(a, b, d, 5) M(a, b, d, 6) M(a, b, d, 7) M(a, b, d, 8) M(a, b, d, 9) M(a, b, d, 10)       \
    M(a, b, d, 11) M(a, b, d, 12) M(a, b, d, 13) M(a, b, d, 14)
#define K5(M, a, b, d) M(a, b, d, 0) M(a, b, d, 1) M(a, b, d, 2) M(a, b, d, 3) M(a, b, d, 4)
#define K8(M, a, b, d) K5(M, a, b, d) M(a, b, d, 5) M(a, b, d, 6) M(a, b, d, 7)
/* X222(M, INNER): INNER over every (0/1, 0/1, 0/1) prefix. */
#define X222(M, IN) IN(M, 0, 0, 0) IN(M, 0, 0, 1) IN(M, 0, 1, 0) IN(M, 0, 1, 1) \
    IN(M, 1, 0, 0) IN(M, 1, 0, 1) IN(M, 1, 1, 0) IN(M, 1, 1, 1)

/* ---- constants and moves ------------------------------------------------- */

static Op *op_movi(CPUState *c, Op *o) { c->x[o->d] = o->imm; return op_next(c, o); }
static Op *op_mov64(CPUState *c, Op *o) { c->x[o->d] = c->x[o->n]; return op_next(c, o); }
static Op *op_mov32(CPUState *c, Op *o) { c->x[o->d] = (uint32_t)c->x[o->n]; return op_next(c, o); }

static void emit_movi(DisasCtx *s, int rd_slot, uint64_t v)
{
    Op *o = tr_emit(s, op_movi);
    o->d = (uint8_t)rd_slot;
    o->imm = v;
}

/* Constant folding: the op of the previous instruction when it set register
 * slot r (0..30) to a constant, so that ADRP+ADD and MOVZ+MOVK sequences
 * become one op.  NULL otherwise. */
static Op *prev_const(DisasCtx *s, int r)
{
    if (s->n_ops == 0 || r == 31)
        return NULL;
    Op *p = &s->ops[s->n_ops - 1];
    return p->fn == op_movi && p->pc == s->pc - 4 && p->d == r ? p : NULL;
}

static void emit_mov(DisasCtx *s, int sf, int d, int n)
{
    Op *o = tr_emit(s, sf ? op_mov64 : op_mov32);
    o->d = (uint8_t)d;
    o->n = (uint8_t)n;
}

bool trans_INT_ADR(DisasCtx *s, arg_INT_ADR *a)
{
    /* immhi is signed: scale by multiplying, a left shift of a negative value is undefined. */
    int64_t off = (int64_t)a->immhi * 4 + a->immlo;
    uint64_t v = a->op ? (s->pc & ~0xfffull) + ((uint64_t)off << 12) : s->pc + (uint64_t)off;
    emit_movi(s, xzr_dst(a->rd), v);
    return true;
}

/* ---- ADD/SUB (immediate) ------------------------------------------------- */

static Op *op_add64_imm(CPUState *c, Op *o) { c->x[o->d] = c->x[o->n] + o->imm; return op_next(c, o); }
static Op *op_add32_imm(CPUState *c, Op *o) { c->x[o->d] = (uint32_t)(c->x[o->n] + o->imm); return op_next(c, o); }
static Op *op_adds64_imm(CPUState *c, Op *o) { c->x[o->d] = addsub64(c, c->x[o->n], o->imm, 0, 1); return op_next(c, o); }
static Op *op_subs64_imm(CPUState *c, Op *o) { c->x[o->d] = addsub64(c, c->x[o->n], o->imm, 1, 1); return op_next(c, o); }
static Op *op_adds32_imm(CPUState *c, Op *o) { c->x[o->d] = addsub32(c, (uint32_t)c->x[o->n], (uint32_t)o->imm, 0, 1); return op_next(c, o); }
static Op *op_subs32_imm(CPUState *c, Op *o) { c->x[o->d] = addsub32(c, (uint32_t)c->x[o->n], (uint32_t)o->imm, 1, 1); return op_next(c, o); }

bool trans_INT_ADDSUB_imm(DisasCtx *s, arg_INT_ADDSUB_imm *a)
{
    uint64_t imm = (uint64_t)a->imm12 << (a->sh ? 12 : 0);
    Op *o;
    if (!a->s) {
        if (a->op)
            imm = -imm;
        if (imm == 0 && (a->rd == 31 || a->rn == 31)) {
            emit_mov(s, a->sf, xsp(a->rd), xsp(a->rn)); /* MOV to/from SP */
            return true;
        }
        Op *p = a->rd == a->rn ? prev_const(s, a->rn) : NULL;
        if (p) { /* ADRP Xd; ADD Xd, Xd, #lo12 */
            p->imm += imm;
            if (!a->sf)
                p->imm = (uint32_t)p->imm;
            return true;
        }
        o = tr_emit(s, a->sf ? op_add64_imm : op_add32_imm);
        o->d = xsp(a->rd);
    } else {
        static const OpFn fns[2][2] = { { op_adds32_imm, op_subs32_imm }, { op_adds64_imm, op_subs64_imm } };
        o = tr_emit(s, fns[a->sf][a->op]);
        o->d = xzr_dst(a->rd);
    }
    o->n = xsp(a->rn);
    o->imm = imm;
    return true;
}

/* ---- logical (immediate) ------------------------------------------------- */

/* DecodeBitMasks(N, imms, immr, immediate=TRUE); false for reserved encodings. */
static bool decode_bitmask(int n, int imms, int immr, int sf, uint64_t *out)
{
    unsigned v = ((unsigned)n << 6) | (~(unsigned)imms & 0x3f);
    if (v == 0)
        return false;
    int len = 31 - __builtin_clz(v);
    if (len < 1)
        return false;
    unsigned esize = 1u << len, levels = esize - 1;
    unsigned S = (unsigned)imms & levels, R = (unsigned)immr & levels;
    if (S == levels)
        return false;
    uint64_t emask = esize == 64 ? ~0ull : (1ull << esize) - 1;
    uint64_t welem = (1ull << (S + 1)) - 1; /* S + 1 <= 63 */
    if (R)
        welem = ((welem >> R) | (welem << (esize - R))) & emask;
    uint64_t m = welem;
    for (unsigned e = esize; e < 64; e *= 2)
        m |= m << e;
    if (!sf && n)
        return false;
    *out = sf ? m : (uint32_t)m;
    return true;
}

static Op *op_andi(CPUState *c, Op *o) { c->x[o->d] = c->x[o->n] & o->imm; return op_next(c, o); }
static Op *op_orri(CPUState *c, Op *o) { c->x[o->d] = c->x[o->n] | o->imm; return op_next(c, o); }
static Op *op_eori(CPUState *c, Op *o) { c->x[o->d] = c->x[o->n] ^ o->imm; return op_next(c, o); }
static Op *op_orri32(CPUState *c, Op *o) { c->x[o->d] = (uint32_t)(c->x[o->n] | o->imm); return op_next(c, o); }
static Op *op_eori32(CPUState *c, Op *o) { c->x[o->d] = (uint32_t)(c->x[o->n] ^ o->imm); return op_next(c, o); }
static Op *op_andsi64(CPUState *c, Op *o)
{
    uint64_t r = c->x[o->n] & o->imm;
    set_nzcv(c, r >> 63, r == 0, 0, 0);
    c->x[o->d] = r;
    return op_next(c, o);
}
static Op *op_andsi32(CPUState *c, Op *o)
{
    uint32_t r = (uint32_t)c->x[o->n] & (uint32_t)o->imm;
    set_nzcv(c, r >> 31, r == 0, 0, 0);
    c->x[o->d] = r;
    return op_next(c, o);
}

bool trans_INT_LOGIC_imm(DisasCtx *s, arg_INT_LOGIC_imm *a)
{
    uint64_t imm;
    if (!decode_bitmask(a->n, a->imms, a->immr, a->sf, &imm))
        return false;
    if (a->opc == 1 && a->rn == 31) { /* MOV (bitmask immediate) */
        emit_movi(s, xsp(a->rd), imm);
        return true;
    }
    static const OpFn fns[2][4] = { { op_andi, op_orri32, op_eori32, op_andsi32 },
                                    { op_andi, op_orri, op_eori, op_andsi64 } };
    Op *o = tr_emit(s, fns[a->sf][a->opc]);
    o->d = a->opc == 3 ? xzr_dst(a->rd) : xsp(a->rd);
    o->n = xzr_src(a->rn);
    o->imm = imm;
    return true;
}

/* ---- move wide ----------------------------------------------------------- */

static Op *op_movk64(CPUState *c, Op *o) { c->x[o->d] = (c->x[o->d] & ~(0xffffull << o->x)) | o->imm; return op_next(c, o); }
static Op *op_movk32(CPUState *c, Op *o) { c->x[o->d] = (uint32_t)((c->x[o->d] & ~(0xffffull << o->x)) | o->imm); return op_next(c, o); }

bool trans_INT_MOVW(DisasCtx *s, arg_INT_MOVW *a)
{
    if (a->opc == 1 || (!a->sf && a->hw >= 2))
        return false;
    unsigned sh = (unsigned)a->hw * 16;
    uint64_t v = (uint64_t)a->imm16 << sh;
    if (a->opc == 3) {
        if (a->rd == 31)
            return true; /* MOVK XZR: no effect */
        Op *p = prev_const(s, a->rd);
        if (p) { /* MOVZ/MOVN/MOVK chain building a constant */
            p->imm = (p->imm & ~(0xffffull << sh)) | v;
            if (!a->sf)
                p->imm = (uint32_t)p->imm;
            return true;
        }
        Op *o = tr_emit(s, a->sf ? op_movk64 : op_movk32);
        o->d = (uint8_t)a->rd;
        o->x = sh;
        o->imm = v;
        return true;
    }
    if (a->opc == 0)
        v = ~v;
    if (!a->sf)
        v = (uint32_t)v;
    emit_movi(s, xzr_dst(a->rd), v);
    return true;
}

/* ---- bitfield and extract ------------------------------------------------ */

/* UBFM/SBFM as ((src << p0) >> p1) << p2 with logical / arithmetic right shift;
 * x = p0 | p1 << 8 | p2 << 16. */
static Op *op_ubfm64(CPUState *c, Op *o)
{
    uint64_t v = c->x[o->n] << (o->x & 63);
    c->x[o->d] = (v >> ((o->x >> 8) & 63)) << (o->x >> 16);
    return op_next(c, o);
}
static Op *op_sbfm64(CPUState *c, Op *o)
{
    uint64_t v = c->x[o->n] << (o->x & 63);
    c->x[o->d] = (uint64_t)((int64_t)v >> ((o->x >> 8) & 63)) << (o->x >> 16);
    return op_next(c, o);
}
static Op *op_ubfm32(CPUState *c, Op *o)
{
    uint32_t v = (uint32_t)c->x[o->n] << (o->x & 31);
    c->x[o->d] = (uint32_t)((v >> ((o->x >> 8) & 31)) << (o->x >> 16));
    return op_next(c, o);
}
static Op *op_sbfm32(CPUState *c, Op *o)
{
    uint32_t v = (uint32_t)c->x[o->n] << (o->x & 31);
    c->x[o->d] = (uint32_t)((uint32_t)((int32_t)v >> ((o->x >> 8) & 31)) << (o->x >> 16));
    return op_next(c, o);
}
/* Common aliases. */
static Op *op_lsl64i(CPUState *c, Op *o) { c->x[o->d] = c->x[o->n] << o->x; return op_next(c, o); }
static Op *op_lsr64i(CPUState *c, Op *o) { c->x[o->d] = c->x[o->n] >> o->x; return op_next(c, o); }
static Op *op_asr64i(CPUState *c, Op *o) { c->x[o->d] = (uint64_t)((int64_t)c->x[o->n] >> o->x); return op_next(c, o); }
static Op *op_lsl32i(CPUState *c, Op *o) { c->x[o->d] = (uint32_t)((uint32_t)c->x[o->n] << o->x); return op_next(c, o); }
static Op *op_lsr32i(CPUState *c, Op *o) { c->x[o->d] = (uint32_t)c->x[o->n] >> o->x; return op_next(c, o); }
static Op *op_asr32i(CPUState *c, Op *o) { c->x[o->d] = (uint32_t)((int32_t)(uint32_t)c->x[o->n] >> o->x); return op_next(c, o); }
static Op *op_sxtb64(CPUState *c, Op *o) { c->x[o->d] = (uint64_t)(int64_t)(int8_t)c->x[o->n]; return op_next(c, o); }
static Op *op_sxth64(CPUState *c, Op *o) { c->x[o->d] = (uint64_t)(int64_t)(int16_t)c->x[o->n]; return op_next(c, o); }
static Op *op_sxtw64(CPUState *c, Op *o) { c->x[o->d] = (uint64_t)(int64_t)(int32_t)c->x[o->n]; return op_next(c, o); }
static Op *op_sxtb32(CPUState *c, Op *o) { c->x[o->d] = (uint32_t)(int32_t)(int8_t)c->x[o->n]; return op_next(c, o); }
static Op *op_sxth32(CPUState *c, Op *o) { c->x[o->d] = (uint32_t)(int32_t)(int16_t)c->x[o->n]; return op_next(c, o); }
static Op *op_uxtb(CPUState *c, Op *o) { c->x[o->d] = (uint8_t)c->x[o->n]; return op_next(c, o); }
static Op *op_uxth(CPUState *c, Op *o) { c->x[o->d] = (uint16_t)c->x[o->n]; return op_next(c, o); }

/* BFM: Rd = (Rd & ~imm) | (ROR(Rn, x) & imm). */
static Op *op_bfm64(CPUState *c, Op *o)
{
    uint64_t v = shift64(c->x[o->n], 3, o->x);
    c->x[o->d] = (c->x[o->d] & ~o->imm) | (v & o->imm);
    return op_next(c, o);
}
static Op *op_bfm32(CPUState *c, Op *o)
{
    uint32_t v = shift32((uint32_t)c->x[o->n], 3, o->x);
    c->x[o->d] = (uint32_t)((c->x[o->d] & ~o->imm) | (v & o->imm));
    return op_next(c, o);
}

bool trans_INT_BFM(DisasCtx *s, arg_INT_BFM *a)
{
    if (a->opc == 3 || a->n != a->sf)
        return false;
    unsigned bits = a->sf ? 64 : 32;
    unsigned R = (unsigned)a->immr, S = (unsigned)a->imms;
    if (R >= bits || S >= bits)
        return false;
    int d = xzr_dst(a->rd), n = xzr_src(a->rn);
    if (a->opc == 1) { /* BFM */
        if (a->rd == 31)
            return true; /* result discarded */
        unsigned width = S >= R ? S - R + 1 : S + 1;
        uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
        if (S < R)
            mask <<= bits - R;
        Op *o = tr_emit(s, a->sf ? op_bfm64 : op_bfm32);
        o->d = (uint8_t)d;
        o->n = (uint8_t)n;
        o->x = R;
        o->imm = mask;
        return true;
    }
    bool sgn = a->opc == 0;
    OpFn fn = NULL;
    unsigned amt = 0;
    /* Aliases with a dedicated handler. */
    if (S == bits - 1) { /* LSR / ASR #R */
        fn = sgn ? (a->sf ? op_asr64i : op_asr32i) : (a->sf ? op_lsr64i : op_lsr32i);
        amt = R;
    } else if (!sgn && S + 1 == R) { /* LSL #(bits - R) */
        fn = a->sf ? op_lsl64i : op_lsl32i;
        amt = bits - R;
    } else if (R == 0 && (S == 7 || S == 15 || (S == 31 && a->sf))) {
        if (sgn)
            fn = S == 7 ? (a->sf ? op_sxtb64 : op_sxtb32) : S == 15 ? (a->sf ? op_sxth64 : op_sxth32) : op_sxtw64;
        else
            fn = S == 7 ? op_uxtb : S == 15 ? op_uxth : op_mov32;
    }
    Op *o;
    if (fn) {
        o = tr_emit(s, fn);
        o->x = amt;
    } else {
        unsigned p0 = bits - 1 - S, p1, p2;
        if (S >= R) {
            p1 = bits - 1 - S + R;
            p2 = 0;
        } else {
            p1 = bits - 1 - S;
            p2 = bits - R;
        }
        o = tr_emit(s, sgn ? (a->sf ? op_sbfm64 : op_sbfm32) : (a->sf ? op_ubfm64 : op_ubfm32));
        o->x = p0 | p1 << 8 | p2 << 16;
    }
    o->d = (uint8_t)d;
    o->n = (uint8_t)n;
    return true;
}

static Op *op_extr64(CPUState *c, Op *o)
{
    c->x[o->d] = (c->x[o->m] >> o->x) | (c->x[o->n] << (64 - o->x));
    return op_next(c, o);
}
static Op *op_extr32(CPUState *c, Op *o)
{
    c->x[o->d] = (uint32_t)(((uint32_t)c->x[o->m] >> o->x) | ((uint32_t)c->x[o->n] << (32 - o->x)));
    return op_next(c, o);
}

bool trans_INT_EXTR(DisasCtx *s, arg_INT_EXTR *a)
{
    if (a->op21 || a->o0 || a->n != a->sf || (!a->sf && a->imms >= 32))
        return false;
    if (a->imms == 0) {
        emit_mov(s, a->sf, xzr_dst(a->rd), xzr_src(a->rm));
        return true;
    }
    Op *o = tr_emit(s, a->sf ? op_extr64 : op_extr32);
    o->d = xzr_dst(a->rd);
    o->n = xzr_src(a->rn);
    o->m = xzr_src(a->rm);
    o->x = (uint32_t)a->imms;
    return true;
}

/* ---- logical (shifted register) ------------------------------------------ */

AI uint64_t logic_op(CPUState *c, int opc, uint64_t a, uint64_t b, int sf)
{
    uint64_t r;
    switch (opc) {
    case 1: r = a | b; break;
    case 2: r = a ^ b; break;
    default: r = a & b; break;
    }
    if (opc == 3)
        set_nzcv(c, (unsigned)(r >> (sf ? 63 : 31)) & 1, r == 0, 0, 0);
    return r;
}

#define LR_DEF(sf, opc, inv, k)                                                              \
    static Op *op_lr_##sf##opc##inv##k(CPUState *c, Op *o)                                   \
    {                                                                                        \
        uint64_t b, a;                                                                       \
        if (sf) {                                                                            \
            b = shift64(c->x[o->m], k, o->x);                                                \
            if (inv) b = ~b;                                                                 \
            a = c->x[o->n];                                                                  \
        } else {                                                                             \
            uint32_t b32 = shift32((uint32_t)c->x[o->m], k, o->x);                           \
            if (inv) b32 = ~b32;                                                             \
            b = b32;                                                                         \
            a = (uint32_t)c->x[o->n];                                                        \
        }                                                                                    \
        c->x[o->d] = logic_op(c, opc, a, b, sf);                                             \
        return op_next(c, o);                                                                        \
    }
#define LR_ENT(sf, opc, inv, k) [sf][opc][inv][k] = op_lr_##sf##opc##inv##k,
#define LR_OPC(M, sf, opc) K5(M, sf, opc, 0) K5(M, sf, opc, 1)
#define LR_ALL(M) LR_OPC(M, 0, 0) LR_OPC(M, 0, 1) LR_OPC(M, 0, 2) LR_OPC(M, 0, 3) \
    LR_OPC(M, 1, 0) LR_OPC(M, 1, 1) LR_OPC(M, 1, 2) LR_OPC(M, 1, 3)
LR_ALL(LR_DEF)
static const OpFn lr_tab[2][4][2][5] = { LR_ALL(LR_ENT) };

bool trans_INT_LOGIC_reg(DisasCtx *s, arg_INT_LOGIC_reg *a)
{
    if (!a->sf && a->imm6 >= 32)
        return false;
    int k = a->imm6 ? a->shift : 4;
    if (a->opc == 1 && !a->n && k == 4 && a->rn == 31) { /* MOV (register) */
        emit_mov(s, a->sf, xzr_dst(a->rd), xzr_src(a->rm));
        return true;
    }
    Op *o = tr_emit(s, lr_tab[a->sf][a->opc][a->n][k]);
    o->d = xzr_dst(a->rd);
    o->n = xzr_src(a->rn);
    o->m = xzr_src(a->rm);
    o->x = (uint32_t)a->imm6;
    return true;
}

/* ---- add/sub (shifted register, extended register), ADC/SBC -------------- */

#define AS_DEF(sf, sub, S, k)                                                                \
    static Op *op_as_##sf##sub##S##k(CPUState *c, Op *o)                                     \
    {                                                                                        \
        if (sf)                                                                              \
            c->x[o->d] = addsub64(c, c->x[o->n], shift64(c->x[o->m], k, o->x), sub, S);      \
        else                                                                                 \
            c->x[o->d] = addsub32(c, (uint32_t)c->x[o->n],                                   \
                                  shift32((uint32_t)c->x[o->m], k, o->x), sub, S);           \
        return op_next(c, o);                                                                        \
    }
#define AS_ENT(sf, sub, S, k) [sf][sub][S][k] = op_as_##sf##sub##S##k,
X222(AS_DEF, K5)
static const OpFn as_tab[2][2][2][5] = { X222(AS_ENT, K5) };

bool trans_INT_ADDSUB_shift(DisasCtx *s, arg_INT_ADDSUB_shift *a)
{
    if (a->shift == 3 || (!a->sf && a->imm6 >= 32))
        return false;
    int k = a->imm6 ? a->shift : 4;
    Op *o = tr_emit(s, as_tab[a->sf][a->op][a->s][k]);
    o->d = xzr_dst(a->rd);
    o->n = xzr_src(a->rn);
    o->m = xzr_src(a->rm);
    o->x = (uint32_t)a->imm6;
    return true;
}

#define AX_DEF(sf, sub, S, opt)                                                              \
    static Op *op_ax_##sf##sub##S##opt(CPUState *c, Op *o)                                   \
    {                                                                                        \
        uint64_t b = extend64(c->x[o->m], opt) << o->x;                                      \
        if (sf)                                                                              \
            c->x[o->d] = addsub64(c, c->x[o->n], b, sub, S);                                 \
        else                                                                                 \
            c->x[o->d] = addsub32(c, (uint32_t)c->x[o->n], (uint32_t)b, sub, S);             \
        return op_next(c, o);                                                                        \
    }
#define AX_ENT(sf, sub, S, opt) [sf][sub][S][opt] = op_ax_##sf##sub##S##opt,
X222(AX_DEF, K8)
static const OpFn ax_tab[2][2][2][8] = { X222(AX_ENT, K8) };

bool trans_INT_ADDSUB_ext(DisasCtx *s, arg_INT_ADDSUB_ext *a)
{
    if (a->opt || a->imm3 > 4)
        return false;
    int opt = a->option;
    if (!a->sf && (opt & 3) >= 2)
        opt = 3; /* 32-bit: UXTW/UXTX/SXTW/SXTX are all plain W registers */
    if ((opt & 3) == 3)
        opt = 3;
    Op *o = tr_emit(s, ax_tab[a->sf][a->op][a->s][opt]);
    o->d = a->s ? xzr_dst(a->rd) : xsp(a->rd);
    o->n = xsp(a->rn);
    o->m = xzr_src(a->rm);
    o->x = (uint32_t)a->imm3;
    return true;
}

#define ADC_DEF(sf, sub, S, unused)                                                          \
    static Op *op_adc_##sf##sub##S(CPUState *c, Op *o)                                       \
    {                                                                                        \
        if (sf)                                                                              \
            c->x[o->d] = adc64(c, c->x[o->n], sub ? ~c->x[o->m] : c->x[o->m], S);            \
        else                                                                                 \
            c->x[o->d] = adc32(c, (uint32_t)c->x[o->n],                                      \
                               sub ? ~(uint32_t)c->x[o->m] : (uint32_t)c->x[o->m], S);       \
        return op_next(c, o);                                                                        \
    }
#define ADC_ENT(sf, sub, S, unused) [sf][sub][S] = op_adc_##sf##sub##S,
#define ONE(M, a, b, d) M(a, b, d, 0)
X222(ADC_DEF, ONE)
static const OpFn adc_tab[2][2][2] = { X222(ADC_ENT, ONE) };

bool trans_INT_ADC(DisasCtx *s, arg_INT_ADC *a)
{
    Op *o = tr_emit(s, adc_tab[a->sf][a->op][a->s]);
    o->d = xzr_dst(a->rd);
    o->n = xzr_src(a->rn);
    o->m = xzr_src(a->rm);
    return true;
}

/* ---- conditional compare and select -------------------------------------- */

/* x = NZCV to set when the condition fails (bits 31:28). */
#define CC_DEF(sf, sub, im, cond)                                                            \
    static Op *op_cc_##sf##sub##im##_##cond(CPUState *c, Op *o)                              \
    {                                                                                        \
        if (cpu_cond_holds(c, cond)) {                                                       \
            uint64_t b = im ? o->imm : c->x[o->m];                                           \
            if (sf)                                                                          \
                addsub64(c, c->x[o->n], b, sub, 1);                                          \
            else                                                                             \
                addsub32(c, (uint32_t)c->x[o->n], (uint32_t)b, sub, 1);                      \
        } else {                                                                             \
            cpu_set_nzcv(c, o->x);                                                           \
        }                                                                                    \
        return op_next(c, o);                                                                        \
    }
#define CC_ENT(sf, sub, im, cond) [sf][sub][im][cond] = op_cc_##sf##sub##im##_##cond,
X222(CC_DEF, C15)
static const OpFn cc_tab[2][2][2][15] = { X222(CC_ENT, C15) };

static bool do_ccmp(DisasCtx *s, int sf, int op, int im, int cond, int rn, int rm_imm, int nzcv)
{
    Op *o = tr_emit(s, cc_tab[sf][op][im][cond == 15 ? 14 : cond]);
    o->n = xzr_src(rn);
    if (im)
        o->imm = (uint64_t)rm_imm;
    else
        o->m = xzr_src(rm_imm);
    o->x = (uint32_t)nzcv << 28;
    return true;
}

bool trans_INT_CCMP_reg(DisasCtx *s, arg_INT_CCMP_reg *a)
{
    if (a->o2 || a->o3)
        return false;
    return do_ccmp(s, a->sf, a->op, 0, a->cond, a->rn, a->rm, a->nzcv);
}

bool trans_INT_CCMP_imm(DisasCtx *s, arg_INT_CCMP_imm *a)
{
    if (a->o2 || a->o3)
        return false;
    return do_ccmp(s, a->sf, a->op, 1, a->cond, a->rn, a->imm5, a->nzcv);
}

/* op: 0 CSEL, 1 CSINC, 2 CSINV, 3 CSNEG. */
#define CS_DEF(sf, op, unused, cond)                                                         \
    static Op *op_cs_##sf##op##_##cond(CPUState *c, Op *o)                                   \
    {                                                                                        \
        uint64_t r;                                                                          \
        if (cpu_cond_holds(c, cond)) {                                                       \
            r = c->x[o->n];                                                                  \
        } else {                                                                             \
            r = c->x[o->m];                                                                  \
            if (op == 1) r = r + 1;                                                          \
            else if (op == 2) r = ~r;                                                        \
            else if (op == 3) r = -r;                                                        \
        }                                                                                    \
        c->x[o->d] = sf ? r : (uint32_t)r;                                                   \
        return op_next(c, o);                                                                        \
    }
#define CS_ENT(sf, op, unused, cond) [sf][op][cond] = op_cs_##sf##op##_##cond,
#define CS_ALL(M) C15(M, 0, 0, 0) C15(M, 0, 1, 0) C15(M, 0, 2, 0) C15(M, 0, 3, 0) \
    C15(M, 1, 0, 0) C15(M, 1, 1, 0) C15(M, 1, 2, 0) C15(M, 1, 3, 0)
CS_ALL(CS_DEF)
static const OpFn cs_tab[2][4][15] = { CS_ALL(CS_ENT) };

bool trans_INT_CSEL(DisasCtx *s, arg_INT_CSEL *a)
{
    if (a->s || (a->op2 & 2))
        return false;
    int cond = a->cond == 15 ? 14 : a->cond;
    Op *o = tr_emit(s, cs_tab[a->sf][a->op * 2 + a->op2][cond]);
    o->d = xzr_dst(a->rd);
    o->n = xzr_src(a->rn);
    o->m = xzr_src(a->rm);
    return true;
}

/* ---- data processing (1 source) ------------------------------------------ */

static inline uint64_t rbit64(uint64_t v)
{
    v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
    v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
    v = ((v >> 4) & 0x0f0f0f0f0f0f0f0full) | ((v & 0x0f0f0f0f0f0f0f0full) << 4);
    return __builtin_bswap64(v);
}

static Op *op_rbit64(CPUState *c, Op *o) { c->x[o->d] = rbit64(c->x[o->n]); return op_next(c, o); }
static Op *op_rbit32(CPUState *c, Op *o) { c->x[o->d] = rbit64(c->x[o->n]) >> 32; return op_next(c, o); }
static Op *op_rev16_64(CPUState *c, Op *o)
{
    uint64_t v = c->x[o->n];
    c->x[o->d] = ((v >> 8) & 0x00ff00ff00ff00ffull) | ((v & 0x00ff00ff00ff00ffull) << 8);
    return op_next(c, o);
}
static Op *op_rev16_32(CPUState *c, Op *o)
{
    uint32_t v = (uint32_t)c->x[o->n];
    c->x[o->d] = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
    return op_next(c, o);
}
static Op *op_rev32_64(CPUState *c, Op *o)
{
    uint64_t v = __builtin_bswap64(c->x[o->n]);
    c->x[o->d] = (v >> 32) | (v << 32);
    return op_next(c, o);
}
static Op *op_rev64(CPUState *c, Op *o) { c->x[o->d] = __builtin_bswap64(c->x[o->n]); return op_next(c, o); }
static Op *op_rev32(CPUState *c, Op *o) { c->x[o->d] = __builtin_bswap32((uint32_t)c->x[o->n]); return op_next(c, o); }
static Op *op_clz64(CPUState *c, Op *o)
{
    uint64_t v = c->x[o->n];
    c->x[o->d] = v ? (uint64_t)__builtin_clzll(v) : 64;
    return op_next(c, o);
}
static Op *op_clz32(CPUState *c, Op *o)
{
    uint32_t v = (uint32_t)c->x[o->n];
    c->x[o->d] = v ? (uint64_t)__builtin_clz(v) : 32;
    return op_next(c, o);
}
static Op *op_cls64(CPUState *c, Op *o)
{
    uint64_t v = c->x[o->n];
    v ^= (uint64_t)((int64_t)v >> 63);
    c->x[o->d] = (v ? (uint64_t)__builtin_clzll(v) : 64) - 1;
    return op_next(c, o);
}
static Op *op_cls32(CPUState *c, Op *o)
{
    uint32_t v = (uint32_t)c->x[o->n];
    v ^= (uint32_t)((int32_t)v >> 31);
    c->x[o->d] = (v ? (uint64_t)__builtin_clz(v) : 32) - 1;
    return op_next(c, o);
}

bool trans_INT_DP1(DisasCtx *s, arg_INT_DP1 *a)
{
    static const OpFn fns[2][6] = {
        { op_rbit32, op_rev16_32, op_rev32, NULL, op_clz32, op_cls32 },
        { op_rbit64, op_rev16_64, op_rev32_64, op_rev64, op_clz64, op_cls64 },
    };
    if (a->s || a->opcode2 || a->opcode >= 6 || !fns[a->sf][a->opcode])
        return false;
    Op *o = tr_emit(s, fns[a->sf][a->opcode]);
    o->d = xzr_dst(a->rd);
    o->n = xzr_src(a->rn);
    return true;
}

/* ---- data processing (2 source) ------------------------------------------ */

static Op *op_udiv64(CPUState *c, Op *o)
{
    uint64_t n = c->x[o->n], m = c->x[o->m];
    c->x[o->d] = m ? n / m : 0;
    return op_next(c, o);
}
static Op *op_udiv32(CPUState *c, Op *o)
{
    uint32_t n = (uint32_t)c->x[o->n], m = (uint32_t)c->x[o->m];
    c->x[o->d] = m ? n / m : 0;
    return op_next(c, o);
}
static Op *op_sdiv64(CPUState *c, Op *o)
{
    int64_t n = (int64_t)c->x[o->n], m = (int64_t)c->x[o->m];
    uint64_t r;
    if (unlikely(m == 0))
        r = 0;
    else if (unlikely(m == -1))
        r = -(uint64_t)n;
    else
        r = (uint64_t)(n / m);
    c->x[o->d] = r;
    return op_next(c, o);
}
static Op *op_sdiv32(CPUState *c, Op *o)
{
    int32_t n = (int32_t)c->x[o->n], m = (int32_t)c->x[o->m];
    uint32_t r;
    if (unlikely(m == 0))
        r = 0;
    else if (unlikely(m == -1))
        r = -(uint32_t)n;
    else
        r = (uint32_t)(n / m);
    c->x[o->d] = r;
    return op_next(c, o);
}
static Op *op_lslv64(CPUState *c, Op *o) { c->x[o->d] = c->x[o->n] << (c->x[o->m] & 63); return op_next(c, o); }
static Op *op_lsrv64(CPUState *c, Op *o) { c->x[o->d] = c->x[o->n] >> (c->x[o->m] & 63); return op_next(c, o); }
static Op *op_asrv64(CPUState *c, Op *o) { c->x[o->d] = (uint64_t)((int64_t)c->x[o->n] >> (c->x[o->m] & 63)); return op_next(c, o); }
static Op *op_rorv64(CPUState *c, Op *o)
{
    unsigned s = c->x[o->m] & 63;
    uint64_t v = c->x[o->n];
    c->x[o->d] = (v >> s) | (v << ((64 - s) & 63));
    return op_next(c, o);
}
static Op *op_lslv32(CPUState *c, Op *o) { c->x[o->d] = (uint32_t)((uint32_t)c->x[o->n] << (c->x[o->m] & 31)); return op_next(c, o); }
static Op *op_lsrv32(CPUState *c, Op *o) { c->x[o->d] = (uint32_t)c->x[o->n] >> (c->x[o->m] & 31); return op_next(c, o); }
static Op *op_asrv32(CPUState *c, Op *o) { c->x[o->d] = (uint32_t)((int32_t)(uint32_t)c->x[o->n] >> (c->x[o->m] & 31)); return op_next(c, o); }
static Op *op_rorv32(CPUState *c, Op *o)
{
    unsigned s = c->x[o->m] & 31;
    uint32_t v = (uint32_t)c->x[o->n];
    c->x[o->d] = (uint32_t)((v >> s) | (v << ((32 - s) & 31)));
    return op_next(c, o);
}

/* CRC32 (poly 0x04C11DB7) and CRC32C (0x1EDC6F41), bit-reflected, slicing by 8. */
static uint32_t crc_tab[2][8][256];

static void crc_init(void)
{
    static bool done;
    if (done)
        return;
    static const uint32_t poly[2] = { 0xEDB88320u, 0x82F63B78u };
    for (int p = 0; p < 2; p++) {
        for (unsigned i = 0; i < 256; i++) {
            uint32_t r = i;
            for (int k = 0; k < 8; k++)
                r = (r >> 1) ^ ((r & 1) ? poly[p] : 0);
            crc_tab[p][0][i] = r;
        }
        for (unsigned i = 0; i < 256; i++)
            for (int t = 1; t < 8; t++)
                crc_tab[p][t][i] = (crc_tab[p][t - 1][i] >> 8) ^ crc_tab[p][0][crc_tab[p][t - 1][i] & 0xff];
    }
    done = true;
}

AI uint32_t crc_update(int p, uint32_t acc, uint64_t v, int bytes)
{
    const uint32_t (*t)[256] = crc_tab[p];
    switch (bytes) {
    case 1:
        return (acc >> 8) ^ t[0][(acc ^ v) & 0xff];
    case 2:
        acc ^= (uint32_t)(v & 0xffff);
        return (acc >> 16) ^ t[1][acc & 0xff] ^ t[0][(acc >> 8) & 0xff];
    case 4:
        acc ^= (uint32_t)v;
        return t[3][acc & 0xff] ^ t[2][(acc >> 8) & 0xff] ^ t[1][(acc >> 16) & 0xff] ^ t[0][acc >> 24];
    default: {
        uint32_t lo = acc ^ (uint32_t)v, hi = (uint32_t)(v >> 32);
        return t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^
               t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^ t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
    }
    }
}

#define CRC_DEF(name, p, bytes)                                                              \
    static Op *op_##name(CPUState *c, Op *o)                                                 \
    {                                                                                        \
        c->x[o->d] = crc_update(p, (uint32_t)c->x[o->n], c->x[o->m], bytes);                 \
        return op_next(c, o);                                                                        \
    }
CRC_DEF(crc32b, 0, 1)
CRC_DEF(crc32h, 0, 2)
CRC_DEF(crc32w, 0, 4)
CRC_DEF(crc32x, 0, 8)
CRC_DEF(crc32cb, 1, 1)
CRC_DEF(crc32ch, 1, 2)
CRC_DEF(crc32cw, 1, 4)
CRC_DEF(crc32cx, 1, 8)

bool trans_INT_DP2(DisasCtx *s, arg_INT_DP2 *a)
{
    OpFn fn = NULL;
    int sf = a->sf;
    if (a->s)
        return false;
    switch (a->opcode) {
    case 2: fn = sf ? op_udiv64 : op_udiv32; break;
    case 3: fn = sf ? op_sdiv64 : op_sdiv32; break;
    case 8: fn = sf ? op_lslv64 : op_lslv32; break;
    case 9: fn = sf ? op_lsrv64 : op_lsrv32; break;
    case 10: fn = sf ? op_asrv64 : op_asrv32; break;
    case 11: fn = sf ? op_rorv64 : op_rorv32; break;
    case 16 ... 23: {
        static const OpFn crc[8] = { op_crc32b, op_crc32h, op_crc32w, op_crc32x,
                                     op_crc32cb, op_crc32ch, op_crc32cw, op_crc32cx };
        if (sf != ((a->opcode & 3) == 3))
            return false;
        crc_init();
        fn = crc[a->opcode & 7];
        break;
    }
    default:
        return false;
    }
    Op *o = tr_emit(s, fn);
    o->d = xzr_dst(a->rd);
    o->n = xzr_src(a->rn);
    o->m = xzr_src(a->rm);
    return true;
}

/* ---- data processing (3 source) ------------------------------------------ */

static Op *op_madd64(CPUState *c, Op *o) { c->x[o->d] = c->x[o->a] + c->x[o->n] * c->x[o->m]; return op_next(c, o); }
static Op *op_msub64(CPUState *c, Op *o) { c->x[o->d] = c->x[o->a] - c->x[o->n] * c->x[o->m]; return op_next(c, o); }
static Op *op_mul64(CPUState *c, Op *o) { c->x[o->d] = c->x[o->n] * c->x[o->m]; return op_next(c, o); }
static Op *op_madd32(CPUState *c, Op *o) { c->x[o->d] = (uint32_t)(c->x[o->a] + c->x[o->n] * c->x[o->m]); return op_next(c, o); }
static Op *op_msub32(CPUState *c, Op *o) { c->x[o->d] = (uint32_t)(c->x[o->a] - c->x[o->n] * c->x[o->m]); return op_next(c, o); }
static Op *op_mul32(CPUState *c, Op *o) { c->x[o->d] = (uint32_t)(c->x[o->n] * c->x[o->m]); return op_next(c, o); }
static Op *op_smaddl(CPUState *c, Op *o)
{
    c->x[o->d] = c->x[o->a] + (uint64_t)((int64_t)(int32_t)c->x[o->n] * (int32_t)c->x[o->m]);
    return op_next(c, o);
}
static Op *op_smsubl(CPUState *c, Op *o)
{
    c->x[o->d] = c->x[o->a] - (uint64_t)((int64_t)(int32_t)c->x[o->n] * (int32_t)c->x[o->m]);
    return op_next(c, o);
}
static Op *op_umaddl(CPUState *c, Op *o)
{
    c->x[o->d] = c->x[o->a] + (uint64_t)(uint32_t)c->x[o->n] * (uint32_t)c->x[o->m];
    return op_next(c, o);
}
static Op *op_umsubl(CPUState *c, Op *o)
{
    c->x[o->d] = c->x[o->a] - (uint64_t)(uint32_t)c->x[o->n] * (uint32_t)c->x[o->m];
    return op_next(c, o);
}
static Op *op_smulh(CPUState *c, Op *o)
{
    __int128 p = (__int128)(int64_t)c->x[o->n] * (int64_t)c->x[o->m];
    c->x[o->d] = (uint64_t)(p >> 64);
    return op_next(c, o);
}
static Op *op_umulh(CPUState *c, Op *o)
{
    unsigned __int128 p = (unsigned __int128)c->x[o->n] * c->x[o->m];
    c->x[o->d] = (uint64_t)(p >> 64);
    return op_next(c, o);
}

bool trans_INT_DP3(DisasCtx *s, arg_INT_DP3 *a)
{
    OpFn fn;
    if (a->op54)
        return false;
    if (!a->sf && a->op31)
        return false;
    switch (a->op31 * 2 + a->o0) {
    case 0:
        fn = a->ra == 31 ? (a->sf ? op_mul64 : op_mul32) : (a->sf ? op_madd64 : op_madd32);
        break;
    case 1: fn = a->sf ? op_msub64 : op_msub32; break;
    case 2: fn = op_smaddl; break;
    case 3: fn = op_smsubl; break;
    case 4: fn = op_smulh; break;
    case 10: fn = op_umaddl; break;
    case 11: fn = op_umsubl; break;
    case 12: fn = op_umulh; break;
    default: return false;
    }
    Op *o = tr_emit(s, fn);
    o->d = xzr_dst(a->rd);
    o->n = xzr_src(a->rn);
    o->m = xzr_src(a->rm);
    o->a = xzr_src(a->ra);
    return true;
}

/* ---- compare + B.cond fusion ----------------------------------------------
 * A B.cond right after SUBS/CMP, ADDS/CMN (immediate) or ANDS/TST (immediate or
 * unshifted register) in the same block: the compare op is replaced by one that also
 * branches, and the B.cond needs no op of its own (block layout: compare,
 * goto taken, goto fall-through).  Called by the B.cond translator. */

AI bool cond_of(unsigned n, unsigned z, unsigned cy, unsigned v, int cond)
{
    bool r;
    switch (cond >> 1) {
    case 0: r = z; break;
    case 1: r = cy; break;
    case 2: r = n; break;
    case 3: r = v; break;
    case 4: r = cy && !z; break;
    case 5: r = n == v; break;
    default: r = n == v && !z; break;
    }
    return (cond & 1) ? !r : r;
}

/* kind: 0/1 SUBS imm 64/32, 2/3 SUBS reg 64/32, 4/5 ANDS imm 64/32, 6/7 ADDS imm 64/32,
 * 8/9 ANDS reg 64/32 (registers unshifted). */
AI Op *fused_cmp_branch(CPUState *c, Op *o, int kind, int cond)
{
    int sf = !(kind & 1), op = kind >> 1; /* op: 0 SUBS, 1 SUBS reg, 2 ANDS, 3 ADDS, 4 ANDS reg */
    uint64_t a = c->x[o->n], b = (op == 1 || op == 4) ? c->x[o->m] : o->imm, r;
    unsigned n, z, cy, v;
    if (op == 2 || op == 4) {
        r = a & b;
        if (!sf)
            r = (uint32_t)r;
        n = (unsigned)(r >> (sf ? 63 : 31)) & 1, z = r == 0, cy = 0, v = 0;
    } else if (sf) {
        if (op == 3) {
            r = a + b;
            n = (unsigned)(r >> 63), z = r == 0, cy = r < a, v = (unsigned)(((a ^ r) & (b ^ r)) >> 63);
        } else {
            r = a - b;
            n = (unsigned)(r >> 63), z = r == 0, cy = a >= b, v = (unsigned)(((a ^ b) & (a ^ r)) >> 63);
        }
    } else {
        uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b, r32;
        if (op == 3) {
            r32 = a32 + b32;
            n = r32 >> 31, z = r32 == 0, cy = r32 < a32, v = ((a32 ^ r32) & (b32 ^ r32)) >> 31;
        } else {
            r32 = a32 - b32;
            n = r32 >> 31, z = r32 == 0, cy = a32 >= b32, v = ((a32 ^ b32) & (a32 ^ r32)) >> 31;
        }
        r = r32;
    }
    c->x[o->d] = r;
    set_nzcv(c, n, z, cy, v);
    Op *g = cond_of(n, z, cy, v, cond) ? o + 1 : o + 2;
    return g->fn(c, g); /* op_goto_tb, or op_goto_next where the block goes on */
}

#define FZ_DEF(kind, u1, u2, cond)                                                           \
    static Op *op_fz_##kind##_##cond(CPUState *c, Op *o) { return fused_cmp_branch(c, o, kind, cond); }
#define FZ_ENT(kind, u1, u2, cond) [kind][cond] = op_fz_##kind##_##cond,
#define C14(M, a, b, d) M(a, b, d, 0) M(a, b, d, 1) M(a, b, d, 2) M(a, b, d, 3) M(a, b, d, 4) \
    M(a, b, d, 5) M(a, b, d, 6) M(a, b, d, 7) M(a, b, d, 8) M(a, b, d, 9) M(a, b, d, 10)       \
    M(a, b, d, 11) M(a, b, d, 12) M(a, b, d, 13)
#define FZ_ALL(M) C14(M, 0, 0, 0) C14(M, 1, 0, 0) C14(M, 2, 0, 0) C14(M, 3, 0, 0) \
    C14(M, 4, 0, 0) C14(M, 5, 0, 0) C14(M, 6, 0, 0) C14(M, 7, 0, 0) C14(M, 8, 0, 0) C14(M, 9, 0, 0)
FZ_ALL(FZ_DEF)
static const OpFn fz_tab[10][14] = { FZ_ALL(FZ_ENT) };

bool tr_int_fuse_bcond(DisasCtx *s, int cond);
bool tr_int_fuse_bcond(DisasCtx *s, int cond)
{
    if (s->n_ops == 0 || cond >= 14)
        return false;
    Op *prev = &s->ops[s->n_ops - 1];
    if (prev->pc != s->pc - 4)
        return false;
    int kind;
    if (prev->fn == op_subs64_imm) kind = 0;
    else if (prev->fn == op_subs32_imm) kind = 1;
    else if (prev->fn == as_tab[1][1][1][4]) kind = 2;
    else if (prev->fn == as_tab[0][1][1][4]) kind = 3;
    else if (prev->fn == op_andsi64) kind = 4;
    else if (prev->fn == op_andsi32) kind = 5;
    else if (prev->fn == op_adds64_imm) kind = 6;
    else if (prev->fn == op_adds32_imm) kind = 7;
    else if (prev->fn == lr_tab[1][3][0][4]) kind = 8;
    else if (prev->fn == lr_tab[0][3][0][4]) kind = 9;
    else return false;
    prev->fn = fz_tab[kind][cond];
    return true;
}

/* ---- description for the native back end (native.h) ------------------------------------- */
#if MALIBU_HAVE_NATIVE
#define ND(...) ((NativeDesc){ __VA_ARGS__ })
static void describe_int_handlers(void)
{
    native_bind(op_movi, ND(.kind = NK_MOVI));
    native_bind(op_mov64, ND(.kind = NK_MOV, .sf = 1));
    native_bind(op_mov32, ND(.kind = NK_MOV, .sf = 0));
    native_bind(op_movk64, ND(.kind = NK_MOVK, .sf = 1));
    native_bind(op_movk32, ND(.kind = NK_MOVK, .sf = 0));
    native_bind(op_add64_imm, ND(.kind = NK_ADDSUB_IMM, .sf = 1));
    native_bind(op_add32_imm, ND(.kind = NK_ADDSUB_IMM, .sf = 0));
    native_bind(op_adds64_imm, ND(.kind = NK_ADDSUB_IMM, .sf = 1, .setf = 1));
    native_bind(op_adds32_imm, ND(.kind = NK_ADDSUB_IMM, .sf = 0, .setf = 1));
    native_bind(op_subs64_imm, ND(.kind = NK_ADDSUB_IMM, .sf = 1, .op = 1, .setf = 1));
    native_bind(op_subs32_imm, ND(.kind = NK_ADDSUB_IMM, .sf = 0, .op = 1, .setf = 1));
    /* op: 0 AND, 1 ORR, 2 EOR, 3 ANDS; op_andi serves both widths (imm is already 32-bit). */
    native_bind(op_andi, ND(.kind = NK_LOGIC_IMM, .sf = 1, .op = 0));
    native_bind(op_orri, ND(.kind = NK_LOGIC_IMM, .sf = 1, .op = 1));
    native_bind(op_eori, ND(.kind = NK_LOGIC_IMM, .sf = 1, .op = 2));
    native_bind(op_orri32, ND(.kind = NK_LOGIC_IMM, .sf = 0, .op = 1));
    native_bind(op_eori32, ND(.kind = NK_LOGIC_IMM, .sf = 0, .op = 2));
    native_bind(op_andsi64, ND(.kind = NK_LOGIC_IMM, .sf = 1, .op = 3));
    native_bind(op_andsi32, ND(.kind = NK_LOGIC_IMM, .sf = 0, .op = 3));
    native_bind(op_ubfm64, ND(.kind = NK_BFM, .sf = 1));
    native_bind(op_ubfm32, ND(.kind = NK_BFM, .sf = 0));
    native_bind(op_sbfm64, ND(.kind = NK_BFM, .sf = 1, .op = 1));
    native_bind(op_sbfm32, ND(.kind = NK_BFM, .sf = 0, .op = 1));
    native_bind(op_bfm64, ND(.kind = NK_BFI, .sf = 1));
    native_bind(op_bfm32, ND(.kind = NK_BFI, .sf = 0));
    /* Shift by immediate, op: 0 LSL, 1 LSR, 2 ASR (amount in x). */
    native_bind(op_lsl64i, ND(.kind = NK_SHIFT_IMM, .sf = 1, .op = 0));
    native_bind(op_lsr64i, ND(.kind = NK_SHIFT_IMM, .sf = 1, .op = 1));
    native_bind(op_asr64i, ND(.kind = NK_SHIFT_IMM, .sf = 1, .op = 2));
    native_bind(op_lsl32i, ND(.kind = NK_SHIFT_IMM, .sf = 0, .op = 0));
    native_bind(op_lsr32i, ND(.kind = NK_SHIFT_IMM, .sf = 0, .op = 1));
    native_bind(op_asr32i, ND(.kind = NK_SHIFT_IMM, .sf = 0, .op = 2));
    /* Shift by register, op: 0 LSLV, 1 LSRV, 2 ASRV, 3 RORV. */
    native_bind(op_lslv64, ND(.kind = NK_SHIFT_REG, .sf = 1, .op = 0));
    native_bind(op_lsrv64, ND(.kind = NK_SHIFT_REG, .sf = 1, .op = 1));
    native_bind(op_asrv64, ND(.kind = NK_SHIFT_REG, .sf = 1, .op = 2));
    native_bind(op_rorv64, ND(.kind = NK_SHIFT_REG, .sf = 1, .op = 3));
    native_bind(op_lslv32, ND(.kind = NK_SHIFT_REG, .sf = 0, .op = 0));
    native_bind(op_lsrv32, ND(.kind = NK_SHIFT_REG, .sf = 0, .op = 1));
    native_bind(op_asrv32, ND(.kind = NK_SHIFT_REG, .sf = 0, .op = 2));
    native_bind(op_rorv32, ND(.kind = NK_SHIFT_REG, .sf = 0, .op = 3));
    /* Extensions: size = log2 source bytes, sext: 1 to 64 bits, 2 to 32 bits. */
    native_bind(op_sxtb64, ND(.kind = NK_EXTEND, .size = 0, .sext = 1));
    native_bind(op_sxth64, ND(.kind = NK_EXTEND, .size = 1, .sext = 1));
    native_bind(op_sxtw64, ND(.kind = NK_EXTEND, .size = 2, .sext = 1));
    native_bind(op_sxtb32, ND(.kind = NK_EXTEND, .size = 0, .sext = 2));
    native_bind(op_sxth32, ND(.kind = NK_EXTEND, .size = 1, .sext = 2));
    native_bind(op_uxtb, ND(.kind = NK_EXTEND, .size = 0));
    native_bind(op_uxth, ND(.kind = NK_EXTEND, .size = 1));
    native_bind(op_madd64, ND(.kind = NK_MADD, .sf = 1, .op = 0));
    native_bind(op_msub64, ND(.kind = NK_MADD, .sf = 1, .op = 1));
    native_bind(op_mul64, ND(.kind = NK_MADD, .sf = 1, .op = 2));
    native_bind(op_madd32, ND(.kind = NK_MADD, .sf = 0, .op = 0));
    native_bind(op_msub32, ND(.kind = NK_MADD, .sf = 0, .op = 1));
    native_bind(op_mul32, ND(.kind = NK_MADD, .sf = 0, .op = 2));
    native_bind(op_smaddl, ND(.kind = NK_MULL, .op = NMUL_ADD, .sext = 1));
    native_bind(op_smsubl, ND(.kind = NK_MULL, .op = NMUL_SUB, .sext = 1));
    native_bind(op_smulh, ND(.kind = NK_MULL, .op = NMUL_HIGH, .sext = 1));
    native_bind(op_umaddl, ND(.kind = NK_MULL, .op = NMUL_ADD));
    native_bind(op_umsubl, ND(.kind = NK_MULL, .op = NMUL_SUB));
    native_bind(op_umulh, ND(.kind = NK_MULL, .op = NMUL_HIGH));
    native_bind(op_extr64, ND(.kind = NK_EXTR, .sf = 1));
    native_bind(op_extr32, ND(.kind = NK_EXTR, .sf = 0));
    native_bind(op_rev64, ND(.kind = NK_REV, .sf = 1));
    native_bind(op_rev32, ND(.kind = NK_REV, .sf = 0));
    native_bind(op_clz64, ND(.kind = NK_CLZ, .sf = 1));
    native_bind(op_rbit64, ND(.kind = NK_RBIT, .sf = 1));
    native_bind(op_rbit32, ND(.kind = NK_RBIT, .sf = 0));
    native_bind(op_clz32, ND(.kind = NK_CLZ, .sf = 0));
    native_bind(op_udiv64, ND(.kind = NK_DIV, .sf = 1));
    native_bind(op_udiv32, ND(.kind = NK_DIV, .sf = 0));
    native_bind(op_sdiv64, ND(.kind = NK_DIV, .sf = 1, .sext = 1));
    native_bind(op_sdiv32, ND(.kind = NK_DIV, .sf = 0, .sext = 1));
    native_bind(op_rev16_64, ND(.kind = NK_DP1, .sf = 1, .op = NDP1_REV16));
    native_bind(op_rev16_32, ND(.kind = NK_DP1, .sf = 0, .op = NDP1_REV16));
    native_bind(op_rev32_64, ND(.kind = NK_DP1, .sf = 1, .op = NDP1_REV32));
    native_bind(op_cls64, ND(.kind = NK_DP1, .sf = 1, .op = NDP1_CLS));
    native_bind(op_cls32, ND(.kind = NK_DP1, .sf = 0, .op = NDP1_CLS));
    /* ADC family: op = subtract (SBC), setf = S */
    for (int sf = 0; sf < 2; sf++)
        for (int op = 0; op < 2; op++)
            for (int S = 0; S < 2; S++)
                native_bind(adc_tab[sf][op][S], ND(.kind = NK_ADC, .sf = sf, .op = op, .setf = S));
    for (int sf = 0; sf < 2; sf++) {
        /* CCMP/CCMN: op = subtract, size = immediate form. */
        for (int op = 0; op < 2; op++)
            for (int im = 0; im < 2; im++)
                for (int cond = 0; cond < 15; cond++)
                    native_bind(cc_tab[sf][op][im][cond],
                                ND(.kind = NK_CCMP, .sf = sf, .op = op, .size = im, .cond = cond));
        for (int op = 0; op < 2; op++)
            for (int s = 0; s < 2; s++) {
                for (int k = 0; k < 5; k++)
                    native_bind(as_tab[sf][op][s][k],
                                ND(.kind = NK_ADDSUB_REG, .sf = sf, .op = op, .setf = s, .sub = k));
                for (int opt = 0; opt < 8; opt++)
                    native_bind(ax_tab[sf][op][s][opt],
                                ND(.kind = NK_ADDSUB_EXT, .sf = sf, .op = op, .setf = s, .sub = opt));
            }
        /* LOGIC_REG: op = opc, size = operand inverted, sub = shift kind. */
        for (int opc = 0; opc < 4; opc++)
            for (int inv = 0; inv < 2; inv++)
                for (int k = 0; k < 5; k++)
                    native_bind(lr_tab[sf][opc][inv][k],
                                ND(.kind = NK_LOGIC_REG, .sf = sf, .op = opc, .size = inv, .sub = k));
        for (int op = 0; op < 4; op++)
            for (int cond = 0; cond < 15; cond++)
                native_bind(cs_tab[sf][op][cond], ND(.kind = NK_CSEL, .sf = sf, .op = op, .cond = cond));
    }
    for (int kind = 0; kind < 10; kind++)
        for (int cond = 0; cond < 14; cond++)
            native_bind(fz_tab[kind][cond], ND(.kind = NK_CMP_BRANCH, .op = kind, .cond = cond));
}
NATIVE_DESCRIBER(describe_int_handlers)
#endif
