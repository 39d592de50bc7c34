/* AdvSIMD copy (DUP/INS/SMOV/UMOV, scalar DUP), modified immediate
 * (MOVI/MVNI/ORR/BIC/FMOV), permute (ZIP/UZP/TRN), EXT and TBL/TBX.
 *
 * Every handler is specialised at translate time by element size (and Q where
 * it changes the shape); element indexes, masks and immediates are
 * precomputed into the op.  A 64-bit (Q=0) vector result clears bits 127:64,
 * a scalar result clears everything above the element. */
#include <string.h>
#include "translate.h"
#include "native.h"

#define V(r) (c->v[(r)])

/* imm5 of the copy group: element size = lowest set bit (0..3), 4 if reserved. */
static inline int copy_size(int imm5)
{
    return (imm5 & 0xf) ? __builtin_ctz((unsigned)imm5) : 4;
}

/* The copy group's handler for imm5, with Vd, Vn and the element index of
 * imm5 set; NULL if fns has none for that element size (reserved encodings). */
static Op *emit_copy(DisasCtx *s, const OpFn fns[4], int imm5, uint8_t rd, uint8_t rn)
{
    int size = copy_size(imm5);
    if (size > 3 || !fns[size])
        return NULL;
    Op *o = tr_emit(s, fns[size]);
    o->d = rd;
    o->n = rn;
    o->x = (uint32_t)imm5 >> (size + 1);
    return o;
}

/* ---- DUP (element): Vd.T = Vn.Ts[x]; DUP (general): Vd.T = Xn --------------
 * SRC(F, T) reads the element (field F, type T); imm = all-ones if Q else 0
 * (masks the upper half). */
#define DUP_FN(NAME, R, HI_MASK)                                               \
    static Op *NAME(CPUState *c, Op *o)                                        \
    {                                                                          \
        uint64_t r = (R);                                                      \
        V(o->d).d[0] = r;                                                      \
        V(o->d).d[1] = r & (HI_MASK);                                          \
        return op_next(c, o);                                                  \
    }
#define DUP_FNS(PRE, SRC)                                                      \
    DUP_FN(PRE##_b, SRC(b, uint8_t) * 0x0101010101010101ull, o->imm)           \
    DUP_FN(PRE##_h, SRC(h, uint16_t) * 0x0001000100010001ull, o->imm)          \
    DUP_FN(PRE##_s, SRC(s, uint32_t) * 0x0000000100000001ull, o->imm)          \
    DUP_FN(PRE##_d, SRC(d, uint64_t), ~0ull) /* Q=1 only */
#define DUP_ELEM_SRC(F, T) V(o->n).F[o->x]
#define DUP_GEN_SRC(F, T) (T)c->x[o->n]

DUP_FNS(op_dup_elem, DUP_ELEM_SRC)
DUP_FNS(op_dup_gen, DUP_GEN_SRC)
#undef DUP_FNS
#undef DUP_FN
#undef DUP_ELEM_SRC
#undef DUP_GEN_SRC

/* 2D needs Q=1 */
bool trans_SIMDP_DUP_elem(DisasCtx *s, arg_SIMDP_DUP_elem *a)
{
    static const OpFn fns[2][4] = { { op_dup_elem_b, op_dup_elem_h, op_dup_elem_s, NULL },
                                    { op_dup_elem_b, op_dup_elem_h, op_dup_elem_s, op_dup_elem_d } };
    Op *o = emit_copy(s, fns[a->q], a->imm5, (uint8_t)a->rd, (uint8_t)a->rn);
    if (o)
        o->imm = a->q ? ~0ull : 0;
    return o != NULL;
}

bool trans_SIMDP_DUP_gen(DisasCtx *s, arg_SIMDP_DUP_gen *a)
{
    static const OpFn fns[2][4] = { { op_dup_gen_b, op_dup_gen_h, op_dup_gen_s, NULL },
                                    { op_dup_gen_b, op_dup_gen_h, op_dup_gen_s, op_dup_gen_d } };
    Op *o = emit_copy(s, fns[a->q], a->imm5, (uint8_t)a->rd, xzr_src(a->rn));
    if (o)
        o->imm = a->q ? ~0ull : 0;
    return o != NULL;
}

/* ---- INS (general): Vd.Ts[x] = Xn (rest of Vd unchanged) ------------------ */
static Op *op_ins_gen_b(CPUState *c, Op *o) { V(o->d).b[o->x] = (uint8_t)c->x[o->n]; return op_next(c, o); }
static Op *op_ins_gen_h(CPUState *c, Op *o) { V(o->d).h[o->x] = (uint16_t)c->x[o->n]; return op_next(c, o); }
static Op *op_ins_gen_s(CPUState *c, Op *o) { V(o->d).s[o->x] = (uint32_t)c->x[o->n]; return op_next(c, o); }
static Op *op_ins_gen_d(CPUState *c, Op *o) { V(o->d).d[o->x] = c->x[o->n]; return op_next(c, o); }

bool trans_SIMDP_INS_gen(DisasCtx *s, arg_SIMDP_INS_gen *a)
{
    static const OpFn fns[4] = { op_ins_gen_b, op_ins_gen_h, op_ins_gen_s, op_ins_gen_d };
    return emit_copy(s, fns, a->imm5, (uint8_t)a->rd, xzr_src(a->rn)) != NULL;
}

/* ---- INS (element): Vd.Ts[x] = Vn.Ts[imm] (o->x = dst index, o->a = src index) */
static Op *op_ins_elem_b(CPUState *c, Op *o) { V(o->d).b[o->x] = V(o->n).b[o->a]; return op_next(c, o); }
static Op *op_ins_elem_h(CPUState *c, Op *o) { V(o->d).h[o->x] = V(o->n).h[o->a]; return op_next(c, o); }
static Op *op_ins_elem_s(CPUState *c, Op *o) { V(o->d).s[o->x] = V(o->n).s[o->a]; return op_next(c, o); }
static Op *op_ins_elem_d(CPUState *c, Op *o) { V(o->d).d[o->x] = V(o->n).d[o->a]; return op_next(c, o); }

bool trans_SIMDP_INS_elem(DisasCtx *s, arg_SIMDP_INS_elem *a)
{
    static const OpFn fns[4] = { op_ins_elem_b, op_ins_elem_h, op_ins_elem_s, op_ins_elem_d };
    Op *o = emit_copy(s, fns, a->imm5, (uint8_t)a->rd, (uint8_t)a->rn);
    if (o)
        o->a = (uint8_t)(a->imm4 >> copy_size(a->imm5));
    return o != NULL;
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

/* [q][size]: W destinations take B/H/S, X destinations D */
bool trans_SIMDP_UMOV(DisasCtx *s, arg_SIMDP_UMOV *a)
{
    static const OpFn fns[2][4] = { { op_umov_b, op_umov_h, op_umov_s, NULL },
                                    { NULL, NULL, NULL, op_umov_d } };
    return emit_copy(s, fns[a->q], a->imm5, xzr_dst(a->rd), (uint8_t)a->rn) != NULL;
}

/* [q][size]: W destinations take B/H, X destinations B/H/S */
bool trans_SIMDP_SMOV(DisasCtx *s, arg_SIMDP_SMOV *a)
{
    static const OpFn fns[2][4] = { { op_smov_b32, op_smov_h32, NULL, NULL },
                                    { op_smov_b64, op_smov_h64, op_smov_s64, NULL } };
    return emit_copy(s, fns[a->q], a->imm5, xzr_dst(a->rd), (uint8_t)a->rn) != NULL;
}

/* ---- DUP (element, scalar) = MOV Bd/Hd/Sd/Dd, Vn.T[x] ----------------------- */
static Op *op_dups_b(CPUState *c, Op *o) { uint64_t r = V(o->n).b[o->x]; V(o->d).d[0] = r; V(o->d).d[1] = 0; return op_next(c, o); }
static Op *op_dups_h(CPUState *c, Op *o) { uint64_t r = V(o->n).h[o->x]; V(o->d).d[0] = r; V(o->d).d[1] = 0; return op_next(c, o); }
static Op *op_dups_s(CPUState *c, Op *o) { uint64_t r = V(o->n).s[o->x]; V(o->d).d[0] = r; V(o->d).d[1] = 0; return op_next(c, o); }
static Op *op_dups_d(CPUState *c, Op *o) { uint64_t r = V(o->n).d[o->x]; V(o->d).d[0] = r; V(o->d).d[1] = 0; return op_next(c, o); }

bool trans_SIMDP_DUP_scalar(DisasCtx *s, arg_SIMDP_DUP_scalar *a)
{
    static const OpFn fns[4] = { op_dups_b, op_dups_h, op_dups_s, op_dups_d };
    return emit_copy(s, fns, a->imm5, (uint8_t)a->rd, (uint8_t)a->rn) != NULL;
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
 * One handler per operation and arrangement; N = elements in the arrangement.
 * For i < half = N/2, element S of Vn goes to element DX of Vd and element S
 * of Vm to element DY (DX, DY, S are expressions in i and half). */
#define PERM_FN(OP, F, N, SUF, DX, DY, S)                                      \
    static Op *op_##OP##_##SUF(CPUState *c, Op *o)                             \
    {                                                                          \
        const VReg *x = &V(o->n), *y = &V(o->m);                               \
        const int half = (N) / 2;                                              \
        VReg r = { .q = 0 };                                                   \
        for (int i = 0; i < half; i++) {                                       \
            r.F[DX] = x->F[S];                                                 \
            r.F[DY] = y->F[S];                                                 \
        }                                                                      \
        V(o->d) = r;                                                           \
        return op_next(c, o);                                                  \
    }
#define PERM_FNS(F, N, SUF)                                                    \
    PERM_FN(zip1, F, N, SUF, 2 * i, 2 * i + 1, i)                              \
    PERM_FN(zip2, F, N, SUF, 2 * i, 2 * i + 1, half + i)                       \
    PERM_FN(uzp1, F, N, SUF, i, half + i, 2 * i)                               \
    PERM_FN(uzp2, F, N, SUF, i, half + i, 2 * i + 1)                           \
    PERM_FN(trn1, F, N, SUF, 2 * i, 2 * i + 1, 2 * i)                          \
    PERM_FN(trn2, F, N, SUF, 2 * i, 2 * i + 1, 2 * i + 1)

PERM_FNS(b, 8, b8)
PERM_FNS(b, 16, b16)
PERM_FNS(h, 4, h4)
PERM_FNS(h, 8, h8)
PERM_FNS(s, 2, s2)
PERM_FNS(s, 4, s4)
PERM_FNS(d, 2, d2)
#undef PERM_FNS
#undef PERM_FN

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

/* ---- description for the native back end (native.h, native_simd_perm.c) ----------------- */
#if MALIBU_HAVE_NATIVE
static void bind_perm(OpFn fn, uint8_t op, int size, int q, uint8_t sext)
{
    native_bind(fn, (NativeDesc){ .kind = NK_VEC_PERM, .op = op, .size = (uint8_t)size, .sub = (uint8_t)q,
                                  .sext = sext });
}

static void describe_simd_perm(void)
{
    static const OpFn dup_gen[4] = { op_dup_gen_b, op_dup_gen_h, op_dup_gen_s, op_dup_gen_d };
    static const OpFn dup_elem[4] = { op_dup_elem_b, op_dup_elem_h, op_dup_elem_s, op_dup_elem_d };
    static const OpFn dups[4] = { op_dups_b, op_dups_h, op_dups_s, op_dups_d };
    static const OpFn ins_gen[4] = { op_ins_gen_b, op_ins_gen_h, op_ins_gen_s, op_ins_gen_d };
    static const OpFn ins_elem[4] = { op_ins_elem_b, op_ins_elem_h, op_ins_elem_s, op_ins_elem_d };
    static const OpFn umov[4] = { op_umov_b, op_umov_h, op_umov_s, op_umov_d };
    for (int size = 0; size < 4; size++) {
        /* one DUP handler serves both Q: the op's imm masks the upper half; describe by it */
        bind_perm(ins_gen[size], NPERM_INS_GEN, size, 1, 0);
        bind_perm(ins_elem[size], NPERM_INS_ELEM, size, 1, 0);
        bind_perm(umov[size], NPERM_UMOV, size, 1, 0);
        bind_perm(dups[size], NPERM_DUP_SCALAR, size, 0, 0);
        bind_perm(dup_gen[size], NPERM_DUP_GEN, size, 1, 0);
        bind_perm(dup_elem[size], NPERM_DUP_ELEM, size, 1, 0);
    }
    bind_perm(op_smov_b32, NPERM_UMOV, 0, 1, 2);
    bind_perm(op_smov_h32, NPERM_UMOV, 1, 1, 2);
    bind_perm(op_smov_b64, NPERM_UMOV, 0, 1, 1);
    bind_perm(op_smov_h64, NPERM_UMOV, 1, 1, 1);
    bind_perm(op_smov_s64, NPERM_UMOV, 2, 1, 1);
    static const uint8_t perm_op[8] = { [1] = NPERM_UZP1, [2] = NPERM_TRN1, [3] = NPERM_ZIP1,
                                        [5] = NPERM_UZP2, [6] = NPERM_TRN2, [7] = NPERM_ZIP2 };
    for (int opc = 0; opc < 8; opc++)
        for (int size = 0; size < 4; size++)
            for (int q = 0; q < 2; q++)
                if (perm_fns[opc][size][q])
                    bind_perm(perm_fns[opc][size][q], perm_op[opc], size, q, 0);
    bind_perm(op_ext_d, NPERM_EXT, 0, 0, 0);
    bind_perm(op_ext_q, NPERM_EXT, 0, 1, 0);
    static const OpFn tbl[2][4][2] = {
        { { op_tbl1_d, op_tbl1_q }, { op_tbl2_d, op_tbl2_q }, { op_tbl3_d, op_tbl3_q }, { op_tbl4_d, op_tbl4_q } },
        { { op_tbx1_d, op_tbx1_q }, { op_tbx2_d, op_tbx2_q }, { op_tbx3_d, op_tbx3_q }, { op_tbx4_d, op_tbx4_q } },
    };
    for (int tbx = 0; tbx < 2; tbx++) /* size = number of table registers */
        for (int len = 0; len < 4; len++)
            for (int q = 0; q < 2; q++)
                bind_perm(tbl[tbx][len][q], tbx ? NPERM_TBX : NPERM_TBL, len + 1, q, 0);
    static const OpFn movi[3][2] = { { op_movi_d, op_movi_q }, { op_orri_d, op_orri_q }, { op_andi_d, op_andi_q } };
    static const uint8_t movi_op[3] = { NVEC_MOVI, NVEC_ORRI, NVEC_ANDI };
    for (int k = 0; k < 3; k++)
        for (int q = 0; q < 2; q++)
            native_bind(movi[k][q], (NativeDesc){ .kind = NK_VEC, .op = movi_op[k], .size = 3, .sub = (uint8_t)q });
}
NATIVE_DESCRIBER(describe_simd_perm)
#endif
