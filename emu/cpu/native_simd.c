/* Native back end: element-wise AdvSIMD integer operations as host SSE code (NK_VEC): the
 * bitwise ops (also BSL/BIT/BIF), ADD/SUB, the compares (also against zero), unsigned/signed
 * max/min, NOT/NEG, shifts by immediate (with accumulate and insert), REV16/32/64, the pairwise
 * ADDP/UMAXP/UMINP that glibc's string functions reduce with, SHRN/XTN, and MOVI/ORR/BIC
 * (immediate).
 *
 * Sources are loaded from CPUState into xmm0.., the result stored back; 64-bit forms compute
 * on the whole register and zero bits 127:64 before the store.  Each form is what its
 * portable handler computes; forms that need more than SSE2 check the host first
 * (native_host_extensions) and otherwise return 0, so the portable handler runs. */
#include "native_simd.h"
#include <cpuid.h>

#if MALIBU_HAVE_NATIVE

static unsigned host_limit = ~0u;

unsigned native_host_extensions(void)
{
    static int have = -1;
    if (have < 0) {
        unsigned eax, ebx, ecx, edx;
        __builtin_cpu_init();
        have = (__builtin_cpu_supports("ssse3") ? HOST_SSSE3 : 0) |
               (__builtin_cpu_supports("sse4.1") ? HOST_SSE41 : 0) |
               (__builtin_cpu_supports("sse4.2") ? HOST_SSE42 : 0);
        if (__get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx))
            have |= (ecx & 1 ? HOST_LAHF : 0) | (ecx & (1u << 5) ? HOST_LZCNT : 0);
        if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
            have |= (ebx & (1u << 3) ? HOST_BMI1 : 0) | (ebx & (1u << 8) ? HOST_BMI2 : 0);
    }
    return (unsigned)have & host_limit;
}

void native_host_limit_extensions(unsigned mask) { host_limit = mask; }


/* ---- per element size instruction choice (false: no host form) ------------------------ */

static const uint8_t op_add[4] = { P_PADDB, P_PADDW, P_PADDD, P_PADDQ };
static const uint8_t op_sub[4] = { P_PSUBB, P_PSUBW, P_PSUBD, P_PSUBQ };

static bool pcmpeq(NCtx *x, int size, int dst, int src)
{
    static const uint8_t op[3] = { P_PCMPEQB, P_PCMPEQW, P_PCMPEQD };
    if (size < 3) {
        x_p66(&x->a, op[size], dst, src);
        return true;
    }
    if (!native_host_has(HOST_SSE41))
        return false;
    x_p38(&x->a, P38_PCMPEQQ, dst, src);
    return true;
}
static bool can_pcmpeq(int size) { return size < 3 || native_host_has(HOST_SSE41); }

/* signed dst > src */
static void pcmpgt(NCtx *x, int size, int dst, int src)
{
    static const uint8_t op[3] = { P_PCMPGTB, P_PCMPGTW, P_PCMPGTD };
    if (size < 3)
        x_p66(&x->a, op[size], dst, src);
    else
        x_p38(&x->a, P38_PCMPGTQ, dst, src);
}
static bool can_pcmpgt(int size) { return size < 3 || native_host_has(HOST_SSE42); }

/* Max / min: [unsigned max, unsigned min, signed max, signed min][size]; map 0 = 66 0F,
 * 0x38 = 66 0F 38 (SSE4.1). */
static const struct { uint8_t map, op; } minmax[4][3] = {
    { { 0, 0xDE }, { 0x38, 0x3E }, { 0x38, 0x3F } },
    { { 0, 0xDA }, { 0x38, 0x3A }, { 0x38, 0x3B } },
    { { 0x38, 0x3C }, { 0, 0xEE }, { 0x38, 0x3D } },
    { { 0x38, 0x38 }, { 0, 0xEA }, { 0x38, 0x39 } },
};
static bool can_minmax(int which, int size)
{
    return size < 3 && (minmax[which][size].map == 0 || native_host_has(HOST_SSE41));
}
static void pminmax(NCtx *x, int which, int size, int dst, int src)
{
    if (minmax[which][size].map)
        x_p38(&x->a, minmax[which][size].op, dst, src);
    else
        x_p66(&x->a, minmax[which][size].op, dst, src);
}

/* Shifts by immediate of elements of 2..8 bytes: group 71/72/73, /2 srl, /4 sra, /6 sll. */
enum { SH_L = 6, SH_RL = 2, SH_RA = 4 };
static void pshift(NCtx *x, int size, int kind, int xmm, unsigned sh)
{
    if (sh)
        x_pshift_i(&x->a, 0x70 + size, kind, xmm, (uint8_t)(sh > 255 ? 255 : sh));
}
/* xmm <<= sh (left) or >>= sh (logical right) per element, bytes included (a word shift and
 * a mask); sh may be the element size for right shifts (all zero). */
static void shift_any(NCtx *x, int size, bool left, int xmm, unsigned sh, int tmp)
{
    if (size > 0) {
        pshift(x, size, left ? SH_L : SH_RL, xmm, sh);
        return;
    }
    if (!sh)
        return;
    pshift(x, 1, left ? SH_L : SH_RL, xmm, sh);
    vconst(x, tmp, vrep(left ? 0xffu << sh : 0xffu >> sh, 0));
    x_p66(&x->a, P_PAND, xmm, tmp);
}
static uint64_t emask(int size) { return size == 3 ? ~0ull : (1ull << (8 << size)) - 1; }

/* ---- pairwise: evens and odds of the concatenation A:B ---------------------------------- */

/* xmm2 <- the even elements of xmm0:xmm1 (A's first), xmm3 <- the odd ones. */
static void deinterleave(NCtx *x, int size)
{
    Asm *a = &x->a;
    if (size <= 1) {
        /* sign-extended halves pack exactly with signed saturation (SSE2) */
        int bits = 8 << size, pack = size ? 0x6B : 0x63; /* packssdw / packsswb */
        x_movdqa_xx(a, 2, 0);
        x_movdqa_xx(a, 4, 1);
        pshift(x, size + 1, SH_L, 2, (unsigned)bits);
        pshift(x, size + 1, SH_RA, 2, (unsigned)bits);
        pshift(x, size + 1, SH_L, 4, (unsigned)bits);
        pshift(x, size + 1, SH_RA, 4, (unsigned)bits);
        x_p66(a, pack, 2, 4);
        x_movdqa_xx(a, 3, 0);
        x_movdqa_xx(a, 4, 1);
        pshift(x, size + 1, SH_RA, 3, (unsigned)bits);
        pshift(x, size + 1, SH_RA, 4, (unsigned)bits);
        x_p66(a, pack, 3, 4);
    } else if (size == 2) {
        x_movdqa_xx(a, 2, 0);
        x_sse_rr(a, SSE_NP, 0, MAP_0F, 0xC6, 2, 1); /* shufps */
        x_b(a, 0x88);
        x_movdqa_xx(a, 3, 0);
        x_sse_rr(a, SSE_NP, 0, MAP_0F, 0xC6, 3, 1);
        x_b(a, 0xDD);
    } else {
        x_movdqa_xx(a, 2, 0);
        x_p66(a, P_PUNPCKLQDQ, 2, 1);
        x_movdqa_xx(a, 3, 0);
        x_p66(a, P_PUNPCKHQDQ, 3, 1);
    }
}

/* Load the pairwise sources: xmm0:xmm1 = Vn:Vm (128-bit), or xmm0 = xmm1 = Vn.lo:Vm.lo. */
static void pair_sources(NCtx *x, const Op *o, bool q)
{
    vload(x, 0, o->n);
    vload(x, 1, o->m);
    if (!q) {
        x_p66(&x->a, P_PUNPCKLQDQ, 0, 1);
        x_movdqa_xx(&x->a, 1, 0);
    }
}

/* ---- narrowing: the low half of each element of xmm0 into its low 64 bits ---------------- */
static void narrow_low(NCtx *x, int size)
{
    Asm *a = &x->a;
    switch (size) { /* size of the narrow result */
    case 0:
        vconst(x, 1, 0x00ff00ff00ff00ffull);
        x_p66(a, P_PAND, 0, 1);
        x_p66(a, P_PACKUSWB, 0, 0);
        break;
    case 1:
        x_pshuf(a, SSE_F2, 0, 0, 0x08);
        x_pshuf(a, SSE_F3, 0, 0, 0x08);
        x_pshuf(a, SSE_66, 0, 0, 0x08);
        break;
    default:
        x_pshuf(a, SSE_66, 0, 0, 0x08);
        break;
    }
}

/* ---- the emitter ------------------------------------------------------------------------ */

static unsigned emit_imm_logic(NCtx *x, const Op *o, const NativeDesc *d)
{
    Asm *a = &x->a;
    bool q = d->sub == 1;
    if (d->op == NVEC_MOVI) {
        vconst(x, 0, o->imm);
        vstore(x, o->d, 0, q);
        return 1;
    }
    vload(x, 0, o->d);
    vconst(x, 1, o->imm);
    x_p66(a, d->op == NVEC_ORRI ? P_POR : P_PAND, 0, 1);
    vstore(x, o->d, 0, q);
    return 1;
}

unsigned ne_emit_vec(NCtx *x, const Op *o, const NativeDesc *d)
{
    Asm *a = &x->a;
    const int size = d->size;
    const bool q = d->sub == 1;
    const unsigned sh = (unsigned)o->imm;
    const int bits = 8 << size;
    switch (d->op) {
    case NVEC_MOVI:
    case NVEC_ORRI:
    case NVEC_ANDI:
        return emit_imm_logic(x, o, d);

    /* three same: xmm0 = Vn, xmm1 = Vm, result in xmm0 */
    case NVEC_AND: case NVEC_ORR: case NVEC_EOR: case NVEC_ADD: case NVEC_SUB:
    case NVEC_BIC: case NVEC_ORN: case NVEC_CMTST: {
        if (d->op == NVEC_CMTST && !can_pcmpeq(size))
            return 0;
        vload(x, 0, o->n);
        vload(x, 1, o->m);
        switch (d->op) {
        case NVEC_AND: x_p66(a, P_PAND, 0, 1); break;
        case NVEC_ORR: x_p66(a, P_POR, 0, 1); break;
        case NVEC_EOR: x_p66(a, P_PXOR, 0, 1); break;
        case NVEC_ADD: x_p66(a, op_add[size], 0, 1); break;
        case NVEC_SUB: x_p66(a, op_sub[size], 0, 1); break;
        case NVEC_BIC: /* n & ~m: pandn computes ~dst & src */
            x_p66(a, P_PANDN, 1, 0);
            x_movdqa_xx(a, 0, 1);
            break;
        case NVEC_ORN:
            vones(x, 2);
            x_p66(a, P_PXOR, 1, 2);
            x_p66(a, P_POR, 0, 1);
            break;
        case NVEC_CMTST: /* (n & m) != 0 */
            x_p66(a, P_PAND, 0, 1);
            x_p66(a, P_PXOR, 1, 1);
            pcmpeq(x, size, 0, 1);
            vones(x, 2);
            x_p66(a, P_PXOR, 0, 2);
            break;
        }
        vstore(x, o->d, 0, q);
        return 1;
    }
    case NVEC_BSL: case NVEC_BIT: case NVEC_BIF: /* bitwise selects with the old Vd (e) */
        vload(x, 0, o->n);
        vload(x, 1, o->m);
        vload(x, 2, o->d);
        if (d->op == NVEC_BSL) {        /* ((n ^ m) & e) ^ m */
            x_p66(a, P_PXOR, 0, 1);
            x_p66(a, P_PAND, 0, 2);
            x_p66(a, P_PXOR, 0, 1);
        } else if (d->op == NVEC_BIT) { /* ((n ^ e) & m) ^ e */
            x_p66(a, P_PXOR, 0, 2);
            x_p66(a, P_PAND, 0, 1);
            x_p66(a, P_PXOR, 0, 2);
        } else {                        /* ((n ^ e) & ~m) ^ e */
            x_p66(a, P_PXOR, 0, 2);
            x_p66(a, P_PANDN, 1, 0);
            x_p66(a, P_PXOR, 1, 2);
            x_movdqa_xx(a, 0, 1);
        }
        vstore(x, o->d, 0, q);
        return 1;
    case NVEC_CMEQ:
        if (!can_pcmpeq(size))
            return 0;
        vload(x, 0, o->n);
        vload(x, 1, o->m);
        pcmpeq(x, size, 0, 1);
        vstore(x, o->d, 0, q);
        return 1;
    case NVEC_CMGT: case NVEC_CMGE: case NVEC_CMHI: case NVEC_CMHS: {
        if (!can_pcmpgt(size))
            return 0;
        bool is_unsigned = d->op == NVEC_CMHI || d->op == NVEC_CMHS;
        bool ge = d->op == NVEC_CMGE || d->op == NVEC_CMHS;
        vload(x, 0, o->n);
        vload(x, 1, o->m);
        if (is_unsigned) { /* unsigned order = signed order with the sign bits flipped */
            vconst(x, 2, vrep(1ull << (bits - 1), size));
            x_p66(a, P_PXOR, 0, 2);
            x_p66(a, P_PXOR, 1, 2);
        }
        if (ge) { /* n >= m = !(m > n) */
            pcmpgt(x, size, 1, 0);
            vones(x, 0);
            x_p66(a, P_PXOR, 0, 1);
        } else {
            pcmpgt(x, size, 0, 1);
        }
        vstore(x, o->d, 0, q);
        return 1;
    }
    case NVEC_UMAX: case NVEC_UMIN: case NVEC_SMAX: case NVEC_SMIN: {
        int which = d->op - NVEC_UMAX;
        if (!can_minmax(which, size))
            return 0;
        vload(x, 0, o->n);
        vload(x, 1, o->m);
        pminmax(x, which, size, 0, 1);
        vstore(x, o->d, 0, q);
        return 1;
    }

    /* two-register misc: xmm0 = Vn */
    case NVEC_NOT:
        vload(x, 0, o->n);
        vones(x, 1);
        x_p66(a, P_PXOR, 0, 1);
        vstore(x, o->d, 0, q);
        return 1;
    case NVEC_NEG:
        vload(x, 1, o->n);
        x_p66(a, P_PXOR, 0, 0);
        x_p66(a, op_sub[size], 0, 1);
        vstore(x, o->d, 0, q);
        return 1;
    case NVEC_CMEQ0:
        if (!can_pcmpeq(size))
            return 0;
        vload(x, 0, o->n);
        x_p66(a, P_PXOR, 1, 1);
        pcmpeq(x, size, 0, 1);
        vstore(x, o->d, 0, q);
        return 1;
    case NVEC_CMGT0: case NVEC_CMLE0: case NVEC_CMLT0: case NVEC_CMGE0: {
        if (!can_pcmpgt(size))
            return 0;
        bool lt = d->op == NVEC_CMLT0 || d->op == NVEC_CMGE0; /* else gt */
        bool invert = d->op == NVEC_CMLE0 || d->op == NVEC_CMGE0;
        vload(x, lt ? 1 : 0, o->n);
        x_p66(a, P_PXOR, lt ? 0 : 1, lt ? 0 : 1);
        pcmpgt(x, size, 0, 1); /* gt: n > 0; lt: 0 > n */
        if (invert) {
            vones(x, 1);
            x_p66(a, P_PXOR, 0, 1);
        }
        vstore(x, o->d, 0, q);
        return 1;
    }

    /* shifts by immediate: sh in 1..bits (right), 0..bits-1 (left) */
    case NVEC_SHL: case NVEC_USHR: case NVEC_USRA: case NVEC_SRI: case NVEC_SLI:
    case NVEC_SSHR: case NVEC_SSRA: {
        bool left = d->op == NVEC_SHL || d->op == NVEC_SLI;
        bool arith = d->op == NVEC_SSHR || d->op == NVEC_SSRA;
        if (arith && (size == 0 || size == 3))
            return 0; /* no psrab / psraq in SSE */
        vload(x, 0, o->n);
        if (arith)
            pshift(x, size, SH_RA, 0, sh);
        else
            shift_any(x, size, left, 0, sh, 2);
        if (d->op == NVEC_USRA || d->op == NVEC_SSRA) {
            vload(x, 1, o->d);
            x_p66(a, op_add[size], 0, 1);
        } else if (d->op == NVEC_SRI || d->op == NVEC_SLI) {
            /* keep the bits of Vd the shifted value does not cover */
            uint64_t m = emask(size);
            uint64_t cover = left ? (sh >= (unsigned)bits ? 0 : (m << sh) & m)
                                  : (sh >= (unsigned)bits ? 0 : m >> sh);
            vload(x, 1, o->d);
            vconst(x, 2, vrep(~cover & m, size));
            x_p66(a, P_PAND, 1, 2);
            x_p66(a, P_POR, 0, 1);
        }
        vstore(x, o->d, 0, q);
        return 1;
    }

    case NVEC_REV16: case NVEC_REV32: case NVEC_REV64: {
        /* size = element size; REVn reverses the elements within n-bit containers */
        vload(x, 0, o->n);
        if (size == 0) { /* bytes within halfwords first */
            x_movdqa_xx(a, 1, 0);
            pshift(x, 1, SH_L, 0, 8);
            pshift(x, 1, SH_RL, 1, 8);
            x_p66(a, P_POR, 0, 1);
        }
        int words = d->op == NVEC_REV16 ? 0 : d->op == NVEC_REV32 ? 1 : 2; /* log2 halfwords per container */
        if (size <= 1 && words == 1) {
            x_pshuf(a, SSE_F2, 0, 0, 0xB1);
            x_pshuf(a, SSE_F3, 0, 0, 0xB1);
        } else if (size <= 1 && words == 2) {
            x_pshuf(a, SSE_F2, 0, 0, 0x1B);
            x_pshuf(a, SSE_F3, 0, 0, 0x1B);
        } else if (size == 2) {
            x_pshuf(a, SSE_66, 0, 0, 0xB1);
        }
        vstore(x, o->d, 0, q);
        return 1;
    }

    case NVEC_ADDP: case NVEC_UMAXP: case NVEC_UMINP: {
        if (d->op != NVEC_ADDP && !can_minmax(d->op - NVEC_UMAXP, size))
            return 0;
        pair_sources(x, o, q);
        deinterleave(x, size);
        if (d->op == NVEC_ADDP)
            x_p66(a, op_add[size], 2, 3);
        else
            pminmax(x, d->op - NVEC_UMAXP, size, 2, 3);
        vstore(x, o->d, 2, q);
        return 1;
    }
    case NVEC_ADDP_D: /* scalar: Dd = Vn.d[0] + Vn.d[1] */
        vload(x, 0, o->n);
        x_pshuf(a, SSE_66, 1, 0, 0xEE);
        x_p66(a, P_PADDQ, 0, 1);
        vstore(x, o->d, 0, false);
        return 1;

    case NVEC_SHRN: case NVEC_SHRN2: /* size = narrow size; XTN is sh = 0 */
        vload(x, 0, o->n);
        pshift(x, size + 1, SH_RL, 0, sh);
        narrow_low(x, size);
        if (d->op == NVEC_SHRN2) { /* into the upper half, the lower half of Vd kept */
            vload(x, 1, o->d);
            x_p66(a, P_PUNPCKLQDQ, 1, 0);
            vstore(x, o->d, 1, true);
        } else {
            vstore(x, o->d, 0, false);
        }
        return 1;
    default:
        return 0;
    }
}

#endif /* MALIBU_HAVE_NATIVE */
