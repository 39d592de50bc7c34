/* Armv8.2 FEAT_SHA512 (SHA512H, SHA512H2, SHA512SU0, SHA512SU1) and FEAT_SHA3 (EOR3, RAX1, XAR,
 * BCAX), decoded only when --cpu has them (cpu.h).  Written from the Arm ARM pseudocode; the
 * SHA-512 steps are the Sigma/sigma functions and round halves of FIPS 180-4.
 *
 * Every handler reads all its sources before writing Vd, so Vd may alias any of them.
 * Op operands: d n m = Vd Vn Vm; a = Va (EOR3, BCAX); imm = rotation (XAR). */
#include "translate.h"
#include "native.h"

#define V(r) (c->v[(r)])

static inline uint64_t ror64(uint64_t x, unsigned r) { return r ? (x >> r) | (x << (64 - r)) : x; }

static inline uint64_t big_sigma0(uint64_t x) { return ror64(x, 28) ^ ror64(x, 34) ^ ror64(x, 39); }
static inline uint64_t big_sigma1(uint64_t x) { return ror64(x, 14) ^ ror64(x, 18) ^ ror64(x, 41); }
static inline uint64_t small_sigma0(uint64_t x) { return ror64(x, 1) ^ ror64(x, 8) ^ (x >> 7); }
static inline uint64_t small_sigma1(uint64_t x) { return ror64(x, 19) ^ ror64(x, 61) ^ (x >> 6); }

/* SHA512H Qd, Qn, Vm.2D: the Ch + Sigma1 half of two rounds. */
static Op *op_sha512h(CPUState *c, Op *o)
{
    VReg x = V(o->n), y = V(o->m), w = V(o->d), r;
    uint64_t hi = (y.d[1] & x.d[0]) ^ (~y.d[1] & x.d[1]);
    r.d[1] = hi + big_sigma1(y.d[1]) + w.d[1];
    uint64_t t = r.d[1] + y.d[0];
    uint64_t lo = (t & y.d[1]) ^ (~t & x.d[0]);
    r.d[0] = lo + big_sigma1(t) + w.d[0];
    V(o->d) = r;
    return op_next(c, o);
}

/* SHA512H2 Qd, Qn, Vm.2D: the Maj + Sigma0 half of two rounds. */
static Op *op_sha512h2(CPUState *c, Op *o)
{
    VReg x = V(o->n), y = V(o->m), w = V(o->d), r;
    uint64_t hi = (x.d[0] & y.d[1]) ^ (x.d[0] & y.d[0]) ^ (y.d[1] & y.d[0]);
    r.d[1] = hi + big_sigma0(y.d[0]) + w.d[1];
    uint64_t lo = (r.d[1] & y.d[0]) ^ (r.d[1] & y.d[1]) ^ (y.d[1] & y.d[0]);
    r.d[0] = lo + big_sigma0(r.d[1]) + w.d[0];
    V(o->d) = r;
    return op_next(c, o);
}

/* SHA512SU0 Vd.2D, Vn.2D: message schedule, sigma0 part. */
static Op *op_sha512su0(CPUState *c, Op *o)
{
    VReg x = V(o->n), w = V(o->d), r;
    r.d[0] = w.d[0] + small_sigma0(w.d[1]);
    r.d[1] = w.d[1] + small_sigma0(x.d[0]);
    V(o->d) = r;
    return op_next(c, o);
}

/* SHA512SU1 Vd.2D, Vn.2D, Vm.2D: message schedule, sigma1 part. */
static Op *op_sha512su1(CPUState *c, Op *o)
{
    VReg x = V(o->n), y = V(o->m), w = V(o->d), r;
    r.d[1] = w.d[1] + small_sigma1(x.d[1]) + y.d[1];
    r.d[0] = w.d[0] + small_sigma1(x.d[0]) + y.d[0];
    V(o->d) = r;
    return op_next(c, o);
}

/* RAX1 Vd.2D, Vn.2D, Vm.2D: Vn ^ ROL(Vm, 1) per lane. */
static Op *op_rax1(CPUState *c, Op *o)
{
    VReg n = V(o->n), m = V(o->m), r;
    for (int i = 0; i < 2; i++)
        r.d[i] = n.d[i] ^ ror64(m.d[i], 63);
    V(o->d) = r;
    return op_next(c, o);
}

/* XAR Vd.2D, Vn.2D, Vm.2D, #imm6: ROR(Vn ^ Vm, imm6) per lane. */
static Op *op_xar(CPUState *c, Op *o)
{
    VReg n = V(o->n), m = V(o->m), r;
    for (int i = 0; i < 2; i++)
        r.d[i] = ror64(n.d[i] ^ m.d[i], (unsigned)o->imm);
    V(o->d) = r;
    return op_next(c, o);
}

/* EOR3 Vd.16B, Vn, Vm, Va: Vn ^ Vm ^ Va.  BCAX: Vn ^ (Vm & ~Va). */
static Op *op_eor3(CPUState *c, Op *o)
{
    VReg r;
    r.q = V(o->n).q ^ V(o->m).q ^ V(o->a).q;
    V(o->d) = r;
    return op_next(c, o);
}
static Op *op_bcax(CPUState *c, Op *o)
{
    VReg r;
    r.q = V(o->n).q ^ (V(o->m).q & ~V(o->a).q);
    V(o->d) = r;
    return op_next(c, o);
}

static Op *emit3(DisasCtx *s, OpFn fn, int rd, int rn, int rm)
{
    Op *o = tr_emit(s, fn);
    o->d = (uint8_t)rd;
    o->n = (uint8_t)rn;
    o->m = (uint8_t)rm;
    return o;
}

bool trans_CRYPTO_SHA512_3(DisasCtx *s, arg_CRYPTO_SHA512_3 *a)
{
    static const OpFn fns[4] = { op_sha512h, op_sha512h2, op_sha512su1, op_rax1 };
    if (a->opc == 3 ? !cpu_feat_sha3() : !cpu_feat_sha512())
        return false;
    emit3(s, fns[a->opc], a->rd, a->rn, a->rm);
    return true;
}

bool trans_CRYPTO_SHA512SU0(DisasCtx *s, arg_CRYPTO_SHA512SU0 *a)
{
    if (!cpu_feat_sha512())
        return false;
    emit3(s, op_sha512su0, a->rd, a->rn, 0);
    return true;
}

bool trans_CRYPTO_EOR3_BCAX(DisasCtx *s, arg_CRYPTO_EOR3_BCAX *a)
{
    if (!cpu_feat_sha3())
        return false;
    Op *o = emit3(s, a->bcax ? op_bcax : op_eor3, a->rd, a->rn, a->rm);
    o->a = (uint8_t)a->ra;
    return true;
}

bool trans_CRYPTO_XAR(DisasCtx *s, arg_CRYPTO_XAR *a)
{
    if (!cpu_feat_sha3())
        return false;
    Op *o = emit3(s, op_xar, a->rd, a->rn, a->rm);
    o->imm = (uint64_t)a->imm6;
    return true;
}

/* ---- description for the native back end (native.h, native_sha512.c) --------------------- */
#if MALIBU_HAVE_NATIVE
static void describe_sha512_handlers(void)
{
    static const OpFn fns[4] = { op_sha512h, op_sha512h2, op_sha512su1, op_sha512su0 };
    for (int op = 0; op < 4; op++)
        native_bind(fns[op], (NativeDesc){ .kind = NK_SHA512, .op = (uint8_t)op });
}
NATIVE_DESCRIBER(describe_sha512_handlers)
#endif
