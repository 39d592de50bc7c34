/* AdvSIMD copy (DUP/INS/SMOV/UMOV, scalar DUP), modified immediate
 * (MOVI/MVNI/ORR/BIC/FMOV), permute (ZIP/UZP/TRN), EXT and TBL/TBX.
 *
 * Every handler is specialised at translate time by element size (and Q where
 * it changes the shape); element indexes, masks and immediates are
 * precomputed into the op.  A 64-bit (Q=0) vector result clears bits 127:64,
 * a scalar result clears everything above the element. */
#include <string.h>
#include "translate.h"

#define V(r) (c->v[(r)])

/* imm5 of the copy group: element size = lowest set bit (0..3), 4 if reserved. */
static inline int copy_size(int imm5)
{
    return (imm5 & 0xf) ? __builtin_ctz((unsigned)imm5) : 4;
}

/* ---- DUP (element): Vd.T = Vn.Ts[x]; imm = all-ones if Q else 0 ---------- */
static Op *op_dup_elem_b(CPUState *c, Op *o)
{
    uint64_t r = V(o->n).b[o->x] * 0x0101010101010101ull;
    V(o->d).d[0] = r;
    V(o->d).d[1] = r & o->imm;
    return op_next(c, o);
}
static Op *op_dup_elem_h(CPUState *c, Op *o)
{
    uint64_t r = V(o->n).h[o->x] * 0x0001000100010001ull;
    V(o->d).d[0] = r;
    V(o->d).d[1] = r & o->imm;
    return op_next(c, o);
}
static Op *op_dup_elem_s(CPUState *c, Op *o)
{
    uint64_t r = V(o->n).s[o->x] * 0x0000000100000001ull;
    V(o->d).d[0] = r;
    V(o->d).d[1] = r & o->imm;
    return op_next(c, o);
}
static Op *op_dup_elem_d(CPUState *c, Op *o)
{
    uint64_t r = V(o->n).d[o->x];
    V(o->d).d[0] = r;
    V(o->d).d[1] = r;
    return op_next(c, o);
}

bool trans_SIMDP_DUP_elem(DisasCtx *s, arg_SIMDP_DUP_elem *a)
{
    static const OpFn fns[4] = { op_dup_elem_b, op_dup_elem_h, op_dup_elem_s, op_dup_elem_d };
    int size = copy_size(a->imm5);
    if (size > 3 || (size == 3 && !a->q))
        return false;
    Op *o = tr_emit(s, fns[size]);
    o->d = a->rd;
    o->n = a->rn;
    o->x = a->imm5 >> (size + 1);
    o->imm = a->q ? ~0ull : 0;
    return true;
}

/* ---- DUP (general): Vd.T = Xn ------------------------------------------- */
static Op *op_dup_gen_b(CPUState *c, Op *o)
{
    uint64_t r = (uint8_t)c->x[o->n] * 0x0101010101010101ull;
    V(o->d).d[0] = r;
    V(o->d).d[1] = r & o->imm;
    return op_next(c, o);
}
static Op *op_dup_gen_h(CPUState *c, Op *o)
{
    uint64_t r = (uint16_t)c->x[o->n] * 0x0001000100010001ull;
    V(o->d).d[0] = r;
    V(o->d).d[1] = r & o->imm;
    return op_next(c, o);
}
static Op *op_dup_gen_s(CPUState *c, Op *o)
{
    uint64_t r = (uint32_t)c->x[o->n] * 0x0000000100000001ull;
    V(o->d).d[0] = r;
    V(o->d).d[1] = r & o->imm;
    return op_next(c, o);
}
static Op *op_dup_gen_d(CPUState *c, Op *o)
{
    uint64_t r = c->x[o->n];
    V(o->d).d[0] = r;
    V(o->d).d[1] = r;
    return op_next(c, o);
}

bool trans_SIMDP_DUP_gen(DisasCtx *s, arg_SIMDP_DUP_gen *a)
{
    static const OpFn fns[4] = { op_dup_gen_b, op_dup_gen_h, op_dup_gen_s, op_dup_gen_d };
    int size = copy_size(a->imm5);
    if (size > 3 || (size == 3 && !a->q))
        return false;
    Op *o = tr_emit(s, fns[size]);
    o->d = a->rd;
    o->n = xzr_src(a->rn);
    o->imm = a->q ? ~0ull : 0;
    return true;
}

/* ---- INS (general): Vd.Ts[x] = Xn (rest of Vd unchanged) ------------------ */
static Op *op_ins_gen_b(CPUState *c, Op *o) { V(o->d).b[o->x] = (uint8_t)c->x[o->n]; return op_next(c, o); }
static Op *op_ins_gen_h(CPUState *c, Op *o) { V(o->d).h[o->x] = (uint16_t)c->x[o->n]; return op_next(c, o); }
static Op *op_ins_gen_s(CPUState *c, Op *o) { V(o->d).s[o->x] = (uint32_t)c->x[o->n]; return op_next(c, o); }
static Op *op_ins_gen_d(CPUState *c, Op *o) { V(o->d).d[o->x] = c->x[o->n]; return op_next(c, o); }

bool trans_SIMDP_INS_gen(DisasCtx *s, arg_SIMDP_INS_gen *a)
{
    static const OpFn fns[4] = { op_ins_gen_b, op_ins_gen_h, op_ins_gen_s, op_ins_gen_d };
    int size = copy_size(a->imm5);
    if (size > 3)
        return false;
    Op *o = tr_emit(s, fns[size]);
    o->d = a->rd;
    o->n = xzr_src(a->rn);
    o->x = a->imm5 >> (size + 1);
    return true;
}

/* ---- INS (element): Vd.Ts[x] = Vn.Ts[imm] (o->x = dst index, o->a = src index) */
static Op *op_ins_elem_b(CPUState *c, Op *o) { V(o->d).b[o->x] = V(o->n).b[o->a]; return op_next(c, o); }
static Op *op_ins_elem_h(CPUState *c, Op *o) { V(o->d).h[o->x] = V(o->n).h[o->a]; return op_next(c, o); }
static Op *op_ins_elem_s(CPUState *c, Op *o) { V(o->d).s[o->x] = V(o->n).s[o->a]; return op_next(c, o); }
static Op *op_ins_elem_d(CPUState *c, Op *o) { V(o->d).d[o->x] = V(o->n).d[o->a]; return op_next(c, o); }

bool trans_SIMDP_INS_elem(DisasCtx *s, arg_SIMDP_INS_elem *a)
{
    static const OpFn fns[4] = { op_ins_elem_b, op_ins_elem_h, op_ins_elem_s, op_ins_elem_d };
    int size = copy_size(a->imm5);
    if (size > 3)
        return false;
    Op *o = tr_emit(s, fns[size]);
    o->d = a->rd;
    o->n = a->rn;
    o->x = a->imm5 >> (size + 1);
    o->a = (uint8_t)(a->imm4 >> size);
    return true;
}

/* ---- UMOV / SMOV: Xd = Vn.Ts[x], zero / sign extended ------------------- */
static Op *op_umov_b(CPUState *c, Op *o) { c->x[o->d] = V(o->n).b[o->x]; return op_next(c, o); }
static Op *op_umov_h(CPUState *c, Op *o) { c->x[o->d] = V(o->n).h[o->x]; return op_next(c, o); }
static Op *op_umov_s(CPUState *c, Op *o) { c->x[o->d] = V(o->n).s[o->x]; return op_next(c, o); }
static Op *op_umov_d(CPUState *c, Op *o) { c->x[o->d] = V(o->n).d[o->x]; return op_next(c, o); }
static Op *op_smov_b32(CPUState *c, Op *o) { c->x[o->d] = (uint32_t)(int32_t)V(o->n).sb[o->x]; return op_next(c, o); }
static Op *op_smov_h32(CPUState *c, Op *o) { c->x[o->d] = (uint32_t)(int32_t)V(o->n).sh[o->x]; return op_next(c, o); }
static Op *op_smov_b64(CPUState *c, Op *o) { c->x[o->d] = (uint64_t)(int64_t)V(o->n).sb[o->x]; return op_next(c, o); }
static Op *op_smov_h64(CPUState *c, Op *o) { c->x[o->d] = (uint64_t)(int64_t)V(o->n).sh[o->x]; return op_next(c, o); }
static Op *op_smov_s64(CPUState *c, Op *o) { c->x[o->d] = (uint64_t)(int64_t)V(o->n).ss[o->x]; return op_next(c, o); }

bool trans_SIMDP_UMOV(DisasCtx *s, arg_SIMDP_UMOV *a)
{
    static const OpFn fns[4] = { op_umov_b, op_umov_h, op_umov_s, op_umov_d };
    int size = copy_size(a->imm5);
    if (size > 3 || (a->q ? size != 3 : size == 3))
        return false;
    Op *o = tr_emit(s, fns[size]);
    o->d = xzr_dst(a->rd);
    o->n = a->rn;
    o->x = a->imm5 >> (size + 1);
    return true;
}

bool trans_SIMDP_SMOV(DisasCtx *s, arg_SIMDP_SMOV *a)
{
    static const OpFn fns32[2] = { op_smov_b32, op_smov_h32 };
    static const OpFn fns64[3] = { op_smov_b64, op_smov_h64, op_smov_s64 };
    int size = copy_size(a->imm5);
    if (size >= (a->q ? 3 : 2))
        return false;
    Op *o = tr_emit(s, a->q ? fns64[size] : fns32[size]);
    o->d = xzr_dst(a->rd);
    o->n = a->rn;
    o->x = a->imm5 >> (size + 1);
    return true;
}

/* ---- DUP (element, scalar) = MOV Bd/Hd/Sd/Dd, Vn.T[x] ----------------------- */
static Op *op_dups_b(CPUState *c, Op *o) { uint64_t r = V(o->n).b[o->x]; V(o->d).d[0] = r; V(o->d).d[1] = 0; return op_next(c, o); }
static Op *op_dups_h(CPUState *c, Op *o) { uint64_t r = V(o->n).h[o->x]; V(o->d).d[0] = r; V(o->d).d[1] = 0; return op_next(c, o); }
static Op *op_dups_s(CPUState *c, Op *o) { uint64_t r = V(o->n).s[o->x]; V(o->d).d[0] = r; V(o->d).d[1] = 0; return op_next(c, o); }
static Op *op_dups_d(CPUState *c, Op *o) { uint64_t r = V(o->n).d[o->x]; V(o->d).d[0] = r; V(o->d).d[1] = 0; return op_next(c, o); }

bool trans_SIMDP_DUP_scalar(DisasCtx *s, arg_SIMDP_DUP_scalar *a)
{
    static const OpFn fns[4] = { op_dups_b, op_dups_h, op_dups_s, op_dups_d };
    int size = copy_size(a->imm5);
    if (size > 3)
        return false;
    Op *o = tr_emit(s, fns[size]);
    o->d = a->rd;
    o->n = a->rn;
    o->x = a->imm5 >> (size + 1);
    return true;
}

/* ---- Modified immediate: imm = the 64-bit pattern (both halves equal) ----- */
static Op *op_movi_q(CPUState *c, Op *o) { V(o->d).d[0] = o->imm; V(o->d).d[1] = o->imm; return op_next(c, o); }
static Op *op_movi_d(CPUState *c, Op *o) { V(o->d).d[0] = o->imm; V(o->d).d[1] = 0; return op_next(c, o); }
static Op *op_orri_q(CPUState *c, Op *o) { V(o->d).d[0] |= o->imm; V(o->d).d[1] |= o->imm; return op_next(c, o); }
static Op *op_orri_d(CPUState *c, Op *o) { V(o->d).d[0] |= o->imm; V(o->d).d[1] = 0; return op_next(c, o); }
static Op *op_andi_q(CPUState *c, Op *o) { V(o->d).d[0] &= o->imm; V(o->d).d[1] &= o->imm; return op_next(c, o); }
static Op *op_andi_d(CPUState *c, Op *o) { V(o->d).d[0] &= o->imm; V(o->d).d[1] = 0; return op_next(c, o); }

static inline uint64_t rep32(uint32_t v) { return v * 0x0000000100000001ull; }
static inline uint64_t rep16(uint16_t v) { return v * 0x0001000100010001ull; }

bool trans_SIMDP_MOVI(DisasCtx *s, arg_SIMDP_MOVI *a)
{
    uint32_t imm8 = (uint32_t)(a->abc << 5 | a->defgh);
    int cmode = a->cmode;
    uint64_t imm;
    enum { MOV, ORR, BIC } kind = MOV;
    bool invert = false;

    if (cmode < 8) {                          /* 32-bit shifted: MOVI/MVNI, ORR/BIC */
        imm = rep32(imm8 << (8 * (cmode >> 1)));
        if (cmode & 1)
            kind = a->op ? BIC : ORR;
        else
            invert = a->op;
    } else if (cmode < 12) {                  /* 16-bit shifted */
        imm = rep16((uint16_t)(imm8 << (8 * ((cmode >> 1) & 1))));
        if (cmode & 1)
            kind = a->op ? BIC : ORR;
        else
            invert = a->op;
    } else if (cmode < 14) {                  /* 32-bit shifting ones (MSL) */
        imm = rep32(cmode & 1 ? (imm8 << 16) | 0xffff : (imm8 << 8) | 0xff);
        invert = a->op;
    } else if (cmode == 14) {
        if (!a->op) {
            imm = imm8 * 0x0101010101010101ull;  /* 8-bit replicated */
        } else {                              /* 64-bit byte mask (MOVI Dd / Vd.2D) */
            imm = 0;
            for (int i = 0; i < 8; i++)
                if (imm8 & (1u << i))
                    imm |= 0xffull << (8 * i);
        }
    } else if (!a->op) {                      /* FMOV Vd.2S/4S, #imm (single) */
        uint32_t f = ((imm8 & 0x80) << 24) | ((imm8 & 0x40) ? 0x3e000000u : 0x40000000u) |
                     ((imm8 & 0x3f) << 19);
        imm = rep32(f);
    } else {                                  /* FMOV Vd.2D, #imm (double), Q=1 only */
        if (!a->q)
            return false;
        imm = ((uint64_t)(imm8 & 0x80) << 56) |
              ((imm8 & 0x40) ? 0x3fc0000000000000ull : 0x4000000000000000ull) |
              ((uint64_t)(imm8 & 0x3f) << 48);
    }
    if (invert)
        imm = ~imm;

    static const OpFn fns[3][2] = {
        { op_movi_d, op_movi_q }, { op_orri_d, op_orri_q }, { op_andi_d, op_andi_q },
    };
    Op *o = tr_emit(s, fns[kind][a->q]);
    o->d = a->rd;
    o->imm = kind == BIC ? ~imm : imm;
    return true;
}

/* ---- ZIP1/ZIP2/UZP1/UZP2/TRN1/TRN2 -----------------------------------------
 * One handler per operation and arrangement; N = elements in the arrangement. */
#define PERM_FNS(F, N, SUF)                                                    \
    static Op *op_zip1_##SUF(CPUState *c, Op *o)                               \
    {                                                                          \
        const VReg *x = &V(o->n), *y = &V(o->m);                               \
        VReg r = { .q = 0 };                                                   \
        for (int i = 0; i < (N) / 2; i++) {                                    \
            r.F[2 * i] = x->F[i];                                              \
            r.F[2 * i + 1] = y->F[i];                                          \
        }                                                                      \
        V(o->d) = r;                                                           \
        return op_next(c, o);                                                          \
    }                                                                          \
    static Op *op_zip2_##SUF(CPUState *c, Op *o)                               \
    {                                                                          \
        const VReg *x = &V(o->n), *y = &V(o->m);                               \
        VReg r = { .q = 0 };                                                   \
        for (int i = 0; i < (N) / 2; i++) {                                    \
            r.F[2 * i] = x->F[(N) / 2 + i];                                    \
            r.F[2 * i + 1] = y->F[(N) / 2 + i];                                \
        }                                                                      \
        V(o->d) = r;                                                           \
        return op_next(c, o);                                                          \
    }                                                                          \
    static Op *op_uzp1_##SUF(CPUState *c, Op *o)                               \
    {                                                                          \
        const VReg *x = &V(o->n), *y = &V(o->m);                               \
        VReg r = { .q = 0 };                                                   \
        for (int i = 0; i < (N) / 2; i++) {                                    \
            r.F[i] = x->F[2 * i];                                              \
            r.F[(N) / 2 + i] = y->F[2 * i];                                    \
        }                                                                      \
        V(o->d) = r;                                                           \
        return op_next(c, o);                                                          \
    }                                                                          \
    static Op *op_uzp2_##SUF(CPUState *c, Op *o)                               \
    {                                                                          \
        const VReg *x = &V(o->n), *y = &V(o->m);                               \
        VReg r = { .q = 0 };                                                   \
        for (int i = 0; i < (N) / 2; i++) {                                    \
            r.F[i] = x->F[2 * i + 1];                                          \
            r.F[(N) / 2 + i] = y->F[2 * i + 1];                                \
        }                                                                      \
        V(o->d) = r;                                                           \
        return op_next(c, o);                                                          \
    }                                                                          \
    static Op *op_trn1_##SUF(CPUState *c, Op *o)                               \
    {                                                                          \
        const VReg *x = &V(o->n), *y = &V(o->m);                               \
        VReg r = { .q = 0 };                                                   \
        for (int i = 0; i < (N) / 2; i++) {                                    \
            r.F[2 * i] = x->F[2 * i];                                          \
            r.F[2 * i + 1] = y->F[2 * i];                                      \
        }                                                                      \
        V(o->d) = r;                                                           \
        return op_next(c, o);                                                          \
    }                                                                          \
    static Op *op_trn2_##SUF(CPUState *c, Op *o)                               \
    {                                                                          \
        const VReg *x = &V(o->n), *y = &V(o->m);                               \
        VReg r = { .q = 0 };                                                   \
        for (int i = 0; i < (N) / 2; i++) {                                    \
            r.F[2 * i] = x->F[2 * i + 1];                                      \
            r.F[2 * i + 1] = y->F[2 * i + 1];                                  \
        }                                                                      \
        V(o->d) = r;                                                           \
        return op_next(c, o);                                                          \
    }

PERM_FNS(b, 8, b8)
PERM_FNS(b, 16, b16)
PERM_FNS(h, 4, h4)
PERM_FNS(h, 8, h8)
PERM_FNS(s, 2, s2)
PERM_FNS(s, 4, s4)
PERM_FNS(d, 2, d2)
#undef PERM_FNS

/* [opc][size][q]; opc 0 and 4 are unallocated, 2D with Q=0 is reserved */
#define PERM_ROW(OP) { { op_##OP##_b8, op_##OP##_b16 }, { op_##OP##_h4, op_##OP##_h8 }, \
                       { op_##OP##_s2, op_##OP##_s4 }, { NULL, op_##OP##_d2 } }
static const OpFn perm_fns[8][4][2] = {
    [1] = PERM_ROW(uzp1), [2] = PERM_ROW(trn1), [3] = PERM_ROW(zip1),
    [5] = PERM_ROW(uzp2), [6] = PERM_ROW(trn2), [7] = PERM_ROW(zip2),
};
#undef PERM_ROW

bool trans_SIMDP_PERM(DisasCtx *s, arg_SIMDP_PERM *a)
{
    OpFn fn = perm_fns[a->opc][a->size][a->q];
    if (!fn)
        return false;
    Op *o = tr_emit(s, fn);
    o->d = a->rd;
    o->n = a->rn;
    o->m = a->rm;
    return true;
}

/* ---- EXT: bytes imm4.. of Vm:Vn ----------------------------------------- */
static Op *op_ext_q(CPUState *c, Op *o)
{
    uint8_t t[32];
    memcpy(t, &V(o->n), 16);
    memcpy(t + 16, &V(o->m), 16);
    memcpy(&V(o->d), t + o->x, 16);
    return op_next(c, o);
}
static Op *op_ext_d(CPUState *c, Op *o)
{
    uint8_t t[16];
    memcpy(t, &V(o->n).d[0], 8);
    memcpy(t + 8, &V(o->m).d[0], 8);
    memcpy(&V(o->d).d[0], t + o->x, 8);
    V(o->d).d[1] = 0;
    return op_next(c, o);
}

bool trans_SIMDP_EXT(DisasCtx *s, arg_SIMDP_EXT *a)
{
    if (!a->q && (a->imm4 & 8))
        return false;
    Op *o = tr_emit(s, a->q ? op_ext_q : op_ext_d);
    o->d = a->rd;
    o->n = a->rn;
    o->m = a->rm;
    o->x = a->imm4;
    return true;
}

/* ---- TBL/TBX with NT table registers Vn..Vn+NT-1 (mod 32), NB index bytes ---- */
#define TBL_FNS(NT)                                                            \
    static Op *op_tbl##NT##_q(CPUState *c, Op *o) { return tbl_body(c, o, NT, 16, false); } \
    static Op *op_tbl##NT##_d(CPUState *c, Op *o) { return tbl_body(c, o, NT, 8, false); }  \
    static Op *op_tbx##NT##_q(CPUState *c, Op *o) { return tbl_body(c, o, NT, 16, true); }  \
    static Op *op_tbx##NT##_d(CPUState *c, Op *o) { return tbl_body(c, o, NT, 8, true); }

static inline __attribute__((always_inline)) Op *tbl_body(CPUState *c, Op *o, unsigned nt,
                                                          unsigned nb, bool tbx)
{
    uint8_t t[64];
    for (unsigned i = 0; i < nt; i++)
        memcpy(t + 16 * i, &V((o->n + i) & 31), 16);
    VReg idx = V(o->m), r;
    if (tbx)
        r = V(o->d);
    else
        r.q = 0;
    for (unsigned i = 0; i < nb; i++) {
        unsigned k = idx.b[i];
        if (k < 16 * nt)
            r.b[i] = t[k];
        else if (!tbx)
            r.b[i] = 0;
    }
    if (nb == 8)
        r.d[1] = 0;
    V(o->d) = r;
    return op_next(c, o);
}

TBL_FNS(1)
TBL_FNS(2)
TBL_FNS(3)
TBL_FNS(4)
#undef TBL_FNS

bool trans_SIMDP_TBL(DisasCtx *s, arg_SIMDP_TBL *a)
{
    /* [op][len][q] */
    static const OpFn fns[2][4][2] = {
        { { op_tbl1_d, op_tbl1_q }, { op_tbl2_d, op_tbl2_q }, { op_tbl3_d, op_tbl3_q }, { op_tbl4_d, op_tbl4_q } },
        { { op_tbx1_d, op_tbx1_q }, { op_tbx2_d, op_tbx2_q }, { op_tbx3_d, op_tbx3_q }, { op_tbx4_d, op_tbx4_q } },
    };
    Op *o = tr_emit(s, fns[a->op][a->len][a->q]);
    o->d = a->rd;
    o->n = a->rn;
    o->m = a->rm;
    return true;
}
