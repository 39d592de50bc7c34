/* Native back end: AdvSIMD copies and permutes as host code (NK_VEC_PERM): DUP (general,
 * element, scalar), INS (general, element), UMOV/SMOV, ZIP/UZP/TRN, EXT and TBL/TBX (pshufb,
 * SSSE3: checked at start-up, else the portable handler).  Element moves between V registers
 * and general registers are plain loads and stores of the element in CPUState; the general
 * register side goes through the register cache. */
#include "native_simd.h"

#if MALIBU_HAVE_NATIVE

/* xmm0 <- its low element (size) replicated over all 128 bits. */
static void broadcast_low(NCtx *x, int size)
{
    Asm *a = &x->a;
    switch (size) {
    case 0:
        x_p66(a, P_PUNPCKLBW, 0, 0); /* the byte now fills a halfword */
        __attribute__((fallthrough));
    case 1:
        x_pshuf(a, SSE_F2, 0, 0, 0x00);
        x_p66(a, P_PUNPCKLQDQ, 0, 0);
        break;
    case 2:
        x_pshuf(a, SSE_66, 0, 0, 0x00);
        break;
    default:
        x_p66(a, P_PUNPCKLQDQ, 0, 0);
        break;
    }
}

/* Offset in CPUState of element idx (of 1 << size bytes) of V register r. */
static int32_t eoff(unsigned r, int size, unsigned idx) { return voff(r) + (int32_t)(idx << size); }

/* TBL/TBX: xmm0 <- the bytes of the nt table registers Vn.. selected by the index bytes of
 * Vm (0 for indexes past the table); TBX keeps Vd's byte there instead. */
static void emit_tbl(NCtx *x, const Op *o, unsigned nt, bool tbx)
{
    Asm *a = &x->a;
    vload(x, 3, o->m);                 /* indexes */
    vconst(x, 4, 0x7070707070707070ull);
    x_p66(a, P_PXOR, 0, 0);
    for (unsigned k = 0; k < nt; k++) {
        /* index - 16k, +0x70 saturating: 0x70..0x7F for this register's bytes, else >= 0x80,
         * which pshufb turns into 0 */
        x_movdqa_xx(a, 1, 3);
        if (k) {
            vconst(x, 2, vrep(16 * k, 0));
            x_p66(a, P_PSUBB, 1, 2);
        }
        x_p66(a, 0xDC, 1, 4);          /* paddusb */
        vload(x, 2, (o->n + k) & 31);
        x_p38(a, P38_PSHUFB, 2, 1);
        x_p66(a, P_POR, 0, 2);
    }
    if (tbx) { /* Vd's byte where index >= 16 * nt: max(index, 16nt) == index */
        vconst(x, 2, vrep(16 * nt, 0));
        x_p66(a, P_PMAXUB, 2, 3);
        x_p66(a, P_PCMPEQB, 2, 3);
        vload(x, 1, o->d);
        x_p66(a, P_PAND, 1, 2);
        x_p66(a, P_POR, 0, 1);
    }
}

/* ZIP/UZP/TRN of xmm0 = Vn, xmm1 = Vm into xmm0 (q: 128-bit forms). */
static void emit_permute(NCtx *x, int op, int size, bool q)
{
    Asm *a = &x->a;
    static const uint8_t unpack_lo[4] = { P_PUNPCKLBW, P_PUNPCKLWD, P_PUNPCKLDQ, P_PUNPCKLQDQ };
    static const uint8_t unpack_hi[4] = { P_PUNPCKHBW, P_PUNPCKHWD, P_PUNPCKHDQ, P_PUNPCKHQDQ };
    int bits = 8 << size;
    switch (op) {
    case NPERM_ZIP1:
        x_p66(a, unpack_lo[size], 0, 1);
        break;
    case NPERM_ZIP2:
        if (q) {
            x_p66(a, unpack_hi[size], 0, 1);
        } else { /* the upper halves of the low 64 bits, interleaved */
            x_p66(a, unpack_lo[size], 0, 1);
            x_pshift_i(a, 0x73, 3, 0, 8); /* psrldq 8 */
        }
        break;
    case NPERM_TRN1: /* even elements of n, m's even elements moved up one */
    case NPERM_TRN2: /* odd elements of m, n's odd elements moved down one */
        if (size == 3) {
            x_p66(a, op == NPERM_TRN1 ? P_PUNPCKLQDQ : P_PUNPCKHQDQ, 0, 1);
            break;
        }
        if (op == NPERM_TRN1) {
            x_pshift_i(a, 0x71 + size, 6, 1, (uint8_t)bits);   /* m << bits (in pairs) */
            x_pshift_i(a, 0x71 + size, 6, 0, (uint8_t)bits);   /* n: the low element only */
            x_pshift_i(a, 0x71 + size, 2, 0, (uint8_t)bits);
        } else {
            x_pshift_i(a, 0x71 + size, 2, 0, (uint8_t)bits);   /* n >> bits */
            x_pshift_i(a, 0x71 + size, 2, 1, (uint8_t)bits);   /* m: the high element only */
            x_pshift_i(a, 0x71 + size, 6, 1, (uint8_t)bits);
        }
        x_p66(a, P_POR, 0, 1);
        break;
    default: /* UZP1 / UZP2: evens / odds of n:m (64-bit forms: of n.lo:m.lo) */
        if (!q) {
            x_p66(a, P_PUNPCKLQDQ, 0, 1);
            x_movdqa_xx(a, 1, 0);
        }
        if (size == 3) {
            x_p66(a, op == NPERM_UZP1 ? P_PUNPCKLQDQ : P_PUNPCKHQDQ, 0, 1);
        } else if (size == 2) {
            x_sse_rr(a, SSE_NP, 0, MAP_0F, 0xC6, 0, 1); /* shufps */
            x_b(a, op == NPERM_UZP1 ? 0x88 : 0xDD);
        } else { /* sign-extend the wanted half of each pair, pack with signed saturation */
            int grp = 0x71 + size, pack = size ? 0x6B : 0x63;
            if (op == NPERM_UZP1) {
                x_pshift_i(a, grp, 6, 0, (uint8_t)bits);
                x_pshift_i(a, grp, 6, 1, (uint8_t)bits);
            }
            x_pshift_i(a, grp, 4, 0, (uint8_t)bits);
            x_pshift_i(a, grp, 4, 1, (uint8_t)bits);
            x_p66(a, pack, 0, 1);
        }
        break;
    }
}

unsigned ne_emit_vec_perm(NCtx *x, const Op *o, const NativeDesc *d)
{
    Asm *a = &x->a;
    const int size = d->size;
    /* DUP's handlers serve both Q: imm (all ones for Q) masks the upper half */
    const bool q = d->op == NPERM_DUP_GEN || d->op == NPERM_DUP_ELEM ? o->imm != 0 : d->sub != 0;
    switch (d->op) {
    case NPERM_DUP_GEN: {
        int r = rc_src(x, o->n, X_RAX);
        x_movq_xr(a, size == 3 ? W64 : W32, 0, r);
        broadcast_low(x, size);
        vstore(x, o->d, 0, q);
        return 1;
    }
    case NPERM_DUP_ELEM:
        x_ldx(a, size, false, 0, X_RAX, HR_CPU, X_NONE, eoff(o->n, size, o->x));
        x_movq_xr(a, W64, 0, X_RAX);
        broadcast_low(x, size);
        vstore(x, o->d, 0, q);
        return 1;
    case NPERM_DUP_SCALAR: /* the element, the rest of Vd zeroed */
        x_ldx(a, size, false, 0, X_RAX, HR_CPU, X_NONE, eoff(o->n, size, o->x));
        vstore_gpr64(x, o->d, X_RAX);
        return 1;
    case NPERM_INS_GEN: {
        int r = rc_src(x, o->n, X_RAX);
        if (!vinsert_gpr(x, o->d, size, o->x, r))
            x_stx(a, size, r, HR_CPU, X_NONE, eoff(o->d, size, o->x));
        return 1;
    }
    case NPERM_INS_ELEM:
        x_ldx(a, size, false, 0, X_RAX, HR_CPU, X_NONE, eoff(o->n, size, o->a));
        if (!vinsert_gpr(x, o->d, size, o->x, X_RAX))
            x_stx(a, size, X_RAX, HR_CPU, X_NONE, eoff(o->d, size, o->x));
        return 1;
    case NPERM_UMOV: { /* sext: 0 zero-extend, 1 sign-extend to 64, 2 to 32 (then zero) */
        if (o->d == REG_SINK)
            return 1; /* only the register write: XZR */
        int rd = rc_dst(x, o->d);
        x_ldx(a, size, d->sext != 0, d->sext == 1, rd, HR_CPU, X_NONE, eoff(o->n, size, o->x));
        return 1;
    }
    case NPERM_EXT: { /* bytes x.. of Vm:Vn (64-bit form: of Vm.lo:Vn.lo) */
        unsigned k = o->x;
        vload(x, 0, o->n);
        vload(x, 1, o->m);
        if (!q) {
            x_p66(a, P_PUNPCKLQDQ, 0, 1);
            if (k)
                x_pshift_i(a, 0x73, 3, 0, (uint8_t)k);
        } else if (k) {
            x_pshift_i(a, 0x73, 3, 0, (uint8_t)k);        /* psrldq */
            x_pshift_i(a, 0x73, 7, 1, (uint8_t)(16 - k)); /* pslldq */
            x_p66(a, P_POR, 0, 1);
        }
        vstore(x, o->d, 0, q);
        return 1;
    }
    case NPERM_TBL:
    case NPERM_TBX:
        if (!native_host_has(HOST_SSSE3))
            return 0;
        emit_tbl(x, o, (unsigned)size, d->op == NPERM_TBX);
        vstore(x, o->d, 0, q);
        return 1;
    default: /* ZIP / UZP / TRN */
        vload(x, 0, o->n);
        vload(x, 1, o->m);
        emit_permute(x, d->op, size, q);
        vstore(x, o->d, 0, q);
        return 1;
    }
}

#endif /* MALIBU_HAVE_NATIVE */
