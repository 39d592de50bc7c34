/* Armv8.1 RDM (FEAT_RDM): SQRDMLAH / SQRDMLSH, vector, scalar and by element, 16- and 32-bit
 * elements.  Decoded only when --cpu has RDM (cpu.h).
 *
 * Per element (Arm ARM): accum = (Vd << esize) +/- 2 * Vn * Vm + (1 << (esize - 1)); the result
 * is accum >> esize saturated to esize bits, and saturation sets FPSR.QC.  The sum is formed
 * in 128 bits, so nothing is lost before the saturation.  The 64-bit vector and the scalar
 * forms clear the rest of Vd.  All sources are read before Vd is written, so Vd may alias Vn
 * or Vm.
 *
 * Op operands: d n m = Vd Vn Vm; x = element of Vm (by element), or ELEM_LANEWISE (each lane
 * takes the same lane of Vm). */
#include "translate.h"
#include "simd_util.h"

#define V(r) (c->v[(r)])
#define ELEM_LANEWISE 0xffu

static inline int64_t rdm_elem(int64_t d, int64_t n, int64_t m, int bits, bool sub, bool *qc)
{
    __int128 prod = (__int128)2 * n * m;
    __int128 acc = (__int128)d * ((__int128)1 << bits) + (sub ? -prod : prod) + ((__int128)1 << (bits - 1));
    __int128 r = acc >> bits; /* arithmetic shift (gcc), i.e. floor */
    __int128 max = ((__int128)1 << (bits - 1)) - 1, min = -max - 1;
    if (r > max) {
        *qc = true;
        return (int64_t)max;
    }
    if (r < min) {
        *qc = true;
        return (int64_t)min;
    }
    return (int64_t)r;
}

/* NAME: handler; EF: element field (sh / ss); BITS; N: lanes computed; SUB: SQRDMLSH. */
#define RDM_FN(NAME, EF, BITS, N, SUB)                                                         \
    static Op *NAME(CPUState *c, Op *o)                                                        \
    {                                                                                          \
        const VReg *vn = &V(o->n), *vm = &V(o->m), *vd = &V(o->d);                             \
        bool qc = false;                                                                       \
        VReg r = { .q = 0 };                                                                   \
        for (int i = 0; i < (N); i++) {                                                        \
            int64_t e = vm->EF[o->x == ELEM_LANEWISE ? (unsigned)i : o->x];                    \
            r.EF[i] = rdm_elem(vd->EF[i], vn->EF[i], e, BITS, SUB, &qc);                       \
        }                                                                                      \
        V(o->d) = r;                                                                           \
        if (unlikely(qc))                                                                      \
            c->fp.fpsr |= FPSR_QC;                                                             \
        return op_next(c, o);                                                                  \
    }
/* [sub][size - 1]: scalar (one lane), 64-bit vector, 128-bit vector. */
#define RDM_SIZES(PRE, SUB)                                                                    \
    RDM_FN(op_##PRE##_h1, sh, 16, 1, SUB)                                                      \
    RDM_FN(op_##PRE##_s1, ss, 32, 1, SUB)                                                      \
    RDM_FN(op_##PRE##_h4, sh, 16, 4, SUB)                                                      \
    RDM_FN(op_##PRE##_s2, ss, 32, 2, SUB)                                                      \
    RDM_FN(op_##PRE##_h8, sh, 16, 8, SUB)                                                      \
    RDM_FN(op_##PRE##_s4, ss, 32, 4, SUB)
RDM_SIZES(sqrdmlah, false)
RDM_SIZES(sqrdmlsh, true)

/* [s][size - 1][0 scalar, 1 64-bit, 2 128-bit] */
static const OpFn rdm_fns[2][2][3] = {
    { { op_sqrdmlah_h1, op_sqrdmlah_h4, op_sqrdmlah_h8 }, { op_sqrdmlah_s1, op_sqrdmlah_s2, op_sqrdmlah_s4 } },
    { { op_sqrdmlsh_h1, op_sqrdmlsh_h4, op_sqrdmlsh_h8 }, { op_sqrdmlsh_s1, op_sqrdmlsh_s2, op_sqrdmlsh_s4 } },
};

static bool emit_rdm(DisasCtx *s, int sub, int size, int form, int rd, int rn, int rm, unsigned x)
{
    if (!cpu_feat_rdm() || (size != 1 && size != 2))
        return false;
    Op *o = tr_emit(s, rdm_fns[sub][size - 1][form]);
    o->d = (uint8_t)rd;
    o->n = (uint8_t)rn;
    o->m = (uint8_t)rm;
    o->x = x;
    return true;
}

/* By element: size 1 (H) index H:L:M, Vm = Rm (V0-V15); size 2 (S) index H:L, Vm = M:Rm. */
static unsigned rdm_index(int size, int h, int l, int m) { return size == 1 ? (unsigned)(h << 2 | l << 1 | m) : (unsigned)(h << 1 | l); }
static int rdm_vm(int size, int m, int rm) { return size == 1 ? rm : (m << 4 | rm); }

bool trans_SIMDP_RDM_vec(DisasCtx *s, arg_SIMDP_RDM_vec *a)
{
    return emit_rdm(s, a->s, a->size, 1 + a->q, a->rd, a->rn, a->rm, ELEM_LANEWISE);
}

bool trans_SIMDP_RDM_scalar(DisasCtx *s, arg_SIMDP_RDM_scalar *a)
{
    return emit_rdm(s, a->s, a->size, 0, a->rd, a->rn, a->rm, ELEM_LANEWISE);
}

bool trans_SIMDP_RDM_elem(DisasCtx *s, arg_SIMDP_RDM_elem *a)
{
    return emit_rdm(s, a->s, a->size, 1 + a->q, a->rd, a->rn, rdm_vm(a->size, a->m, a->rm),
                    rdm_index(a->size, a->h, a->l, a->m));
}

bool trans_SIMDP_RDM_selem(DisasCtx *s, arg_SIMDP_RDM_selem *a)
{
    return emit_rdm(s, a->s, a->size, 0, a->rd, a->rn, rdm_vm(a->size, a->m, a->rm),
                    rdm_index(a->size, a->h, a->l, a->m));
}
