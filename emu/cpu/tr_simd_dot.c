/* Armv8.2 DotProd (FEAT_DotProd): SDOT / UDOT, vector and by element.  Decoded only when --cpu
 * has DotProd (cpu.h).
 *
 * Each 32-bit lane i of Vd gains the sum of the four products of bytes 4i..4i+3 of Vn and of
 * Vm (by element: the same four bytes, group `index` of Vm, for every lane), signed (SDOT) or
 * unsigned (UDOT); the sum wraps modulo 2^32.  The 64-bit form clears the upper half of Vd.
 * All sources are read before Vd is written, so Vd may alias Vn or Vm.
 *
 * Op operands: d n m = Vd Vn Vm; x = the 4-byte group of Vm (by element), or DOT_LANEWISE. */
#include "translate.h"

#define V(r) (c->v[(r)])
#define DOT_LANEWISE 0xffu

/* NAME: handler; EF: byte view (sb signed, b unsigned); N: 32-bit lanes computed. */
#define DOT_FN(NAME, EF, N)                                                                    \
    static Op *NAME(CPUState *c, Op *o)                                                        \
    {                                                                                          \
        const VReg *vn = &V(o->n), *vm = &V(o->m);                                             \
        VReg r = { .q = 0 };                                                                   \
        for (int i = 0; i < (N); i++) {                                                        \
            unsigned g = o->x == DOT_LANEWISE ? (unsigned)i : o->x;                            \
            uint32_t sum = V(o->d).s[i];                                                       \
            for (int j = 0; j < 4; j++)                                                        \
                sum += (uint32_t)((int32_t)vn->EF[4 * i + j] * (int32_t)vm->EF[4 * g + j]);    \
            r.s[i] = sum;                                                                      \
        }                                                                                      \
        V(o->d) = r;                                                                           \
        return op_next(c, o);                                                                  \
    }
DOT_FN(op_sdot2, sb, 2)
DOT_FN(op_sdot4, sb, 4)
DOT_FN(op_udot2, b, 2)
DOT_FN(op_udot4, b, 4)

/* [u][q] */
static const OpFn dot_fns[2][2] = { { op_sdot2, op_sdot4 }, { op_udot2, op_udot4 } };

static bool emit_dot(DisasCtx *s, int u, int q, int size, int rd, int rn, int rm, unsigned x)
{
    if (!cpu_feat_dotprod() || size != 2)
        return false;
    Op *o = tr_emit(s, dot_fns[u][q]);
    o->d = (uint8_t)rd;
    o->n = (uint8_t)rn;
    o->m = (uint8_t)rm;
    o->x = x;
    return true;
}

bool trans_SIMDP_DOT_vec(DisasCtx *s, arg_SIMDP_DOT_vec *a)
{
    return emit_dot(s, a->u, a->q, a->size, a->rd, a->rn, a->rm, DOT_LANEWISE);
}

/* By element: group index H:L, Vm = M:Rm (V0-V31). */
bool trans_SIMDP_DOT_elem(DisasCtx *s, arg_SIMDP_DOT_elem *a)
{
    return emit_dot(s, a->u, a->q, a->size, a->rd, a->rn, a->m << 4 | a->rm, (unsigned)(a->h << 1 | a->l));
}
