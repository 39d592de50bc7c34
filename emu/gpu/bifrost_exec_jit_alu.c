/* The clause compiler's ALU units (bifrost_exec_jit_comp.h): the interpreter's lane-loop kinds as
 * AVX2 / FMA (or SSE4.1) code over lane rows, float units with the interpreter's denormal rules, and the
 * choice between compiled code and a call of the interpreter's code for each unit. */
#include "bifrost_exec_jit_comp.h"

/* y = (y & ~abs) ^ neg, as the interpreter's fast float sources */
static void fsrc_mods(jx_emit *e, const bi_xinstr *xi, unsigned k, unsigned y)
{
    if (xi->abs[k])
        jx_opm(e, JX_VPAND, y, y, R14, KROW(KR_ABS));
    if (xi->neg[k])
        jx_opm(e, JX_VPXOR, y, y, R14, KROW(KR_SIGN));
}

/* FTZ header mode (bx_fsrc's and fout's flush): a denormal in y becomes a zero of its sign
 * (y &= ~((exponent == 0) & 0x7fffffff); zeros are unchanged).  Uses ymm5 and ymm6. */
static void flush_denormals(jx_emit *e, unsigned y)
{
    jx_op(e, JX_VPXOR, 6, 6, 6);
    jx_opm(e, JX_VPAND, 5, y, R14, KROW(KR_EXP));
    jx_op(e, JX_VPCMPEQD, 5, 5, 6);
    jx_opm(e, JX_VPAND, 5, 5, R14, KROW(KR_ABS));
    jx_op(e, JX_VPANDN, y, 5, y);
}

/* ymm4 = all ones in lanes where the integer comparison of ymm0, ymm1 holds (cmp_lanes) */
static void int_cmp(jx_emit *e, const bi_xinstr *xi)
{
    int invert = 0;
    if (xi->sem == BI_SEM_ICMP_I || xi->sem == BI_SEM_CSEL_I) {
        jx_op(e, JX_VPCMPEQD, 4, 0, 1);
        invert = xi->cmp != C_EQ;
    } else {
        if (xi->sem != BI_SEM_ICMP_S && xi->sem != BI_SEM_CSEL_S) {   /* unsigned: bias to signed */
            jx_opm(e, JX_VPXOR, 0, 0, R14, KROW(KR_SIGN));
            jx_opm(e, JX_VPXOR, 1, 1, R14, KROW(KR_SIGN));
        }
        switch (xi->cmp) {
        case C_GT: jx_op(e, JX_VPCMPGTD, 4, 0, 1); break;
        case C_GE: jx_op(e, JX_VPCMPGTD, 4, 1, 0); invert = 1; break;
        case C_LT: jx_op(e, JX_VPCMPGTD, 4, 1, 0); break;
        default: jx_op(e, JX_VPCMPGTD, 4, 0, 1); invert = 1; break;
        }
    }
    if (invert)
        jx_opm(e, JX_VPXOR, 4, 4, R14, KROW(KR_ONES));
}

static const uint8_t fcmp_pred[] = {
    [C_EQ] = 0x00, [C_GT] = 0x1e, [C_GE] = 0x1d, [C_NE] = 0x04, [C_LT] = 0x11, [C_LE] = 0x12, [C_GTLT] = 0x0c,
};


/* Instructions with no lane-loop kind that are compiled all the same (bx_exec_op's cases):
 * ARSHIFT.i32, U8_TO_U32 / ZEXT of a byte or half, S32_TO_F32 and U32_TO_F32 at round to nearest
 * (exact integer -> float conversions, no output modifiers in bx_exec_op). */
enum { PK_ARSHIFT = 100, PK_ZEXT8, PK_S2F, PK_U2F, PK_SWZ8, PK_VICMP8, PK_FREXPE, PK_FREXPM, PK_FRCP, PK_RSCALE, PK_F2S, PK_F2U,
       PK_FRSQ };

static uint8_t pseudo_kind(const bi_xinstr *xi)
{
    int plain = !xi->widen[0] && !xi->widen[1] && !xi->widen[2];      /* no f16 sources */
    switch (xi->sem) {
    case BI_SEM_SWZ: return xi->vw == 8 ? PK_SWZ8 : K_GENERIC;
    case BI_SEM_VICMP_I: case BI_SEM_VICMP_S: case BI_SEM_VICMP_U:
        return xi->vw == 8 && (xi->sem == BI_SEM_VICMP_I || xi->cmp <= C_LE) ? PK_VICMP8 : K_GENERIC;
    case BI_SEM_FREXPE: return plain && xi->fmode <= FM_LOG ? PK_FREXPE : K_GENERIC;
    case BI_SEM_FREXPM: return plain && xi->fmode <= FM_LOG ? PK_FREXPM : K_GENERIC;
    case BI_SEM_FRCP_APPROX: return plain && !xi->clamp ? PK_FRCP : K_GENERIC;
    case BI_SEM_FRSQ_APPROX: return plain && !xi->clamp ? PK_FRSQ : K_GENERIC;
    case BI_SEM_FMA_RSCALE: return plain && !xi->clamp && xi->round == R_NONE && xi->fmode <= 1 ? PK_RSCALE : K_GENERIC;
    case BI_SEM_F2S: case BI_SEM_F2U:
        if (!plain || (xi->round != R_NONE && xi->round != R_RTZ))
            return K_GENERIC;
        return xi->sem == BI_SEM_F2S ? PK_F2S : PK_F2U;
    case BI_SEM_ARSHIFT: return PK_ARSHIFT;
    case BI_SEM_ZEXT8: return PK_ZEXT8;
    case BI_SEM_S2F: return xi->round == R_NONE ? PK_S2F : K_GENERIC;
    case BI_SEM_U2F: return xi->round == R_NONE ? PK_U2F : K_GENERIC;
    default: return K_GENERIC;
    }
}

/* the shift that brings lane_sel's byte (0-3) or half (0x10 | 0-1) to bit 0; 0xff: none */
static uint8_t lane_shift(uint8_t lane)
{
    if (lane == 0xff)
        return 0;
    return (uint8_t)(lane & 0x10 ? 16 * (lane & 1) : 8 * (lane & 3));
}

/* Whether unit (i, add) of kind k has compiled code (else it calls the interpreter); sse: for SSE
 * code, which has no fused multiply-add in binary64 (FRSQ's check; its binary32 FMA:
 * bx_jc_fma_sse) and no per-lane shift (ARSHIFT, LSHIFT and RSHIFT by a register: compile_unit). */
static int compilable(const bi_xclause *x, unsigned i, int add, uint8_t k, int sse)
{
    const bi_xinstr *xi = add ? &x->add[i] : &x->fma[i];
    if (k == K_GENERIC)
        return 0;
    if (sse && k == PK_FRSQ)
        return 0;
    if (add && (is_mem(xi) || xi->sem == BI_SEM_CLPER || xi->sem == BI_SEM_BARRIER))
        return 0;
    if (k == K_FADD || k == K_FMA || k == K_FCMP) {
        if (k != K_FCMP && xi->clamp)
            return 0;
        if (k == K_FCMP && xi->cmp > C_GTLT)
            return 0;
    }
    return 1;
}

void bx_jc_compile_unit(jcomp *jc, unsigned i, int add)
{
    jx_emit *e = &jc->e;
    const bi_xclause *x = jc->x;
    const bi_xinstr *xi = add ? &x->add[i] : &x->fma[i];
    uint8_t k = add ? x->fast_add[i] : x->fast_fma[i];
    if (k == K_GENERIC)
        k = pseudo_kind(xi);
    unsigned iu = i << 1 | (unsigned)add;
    if (add && ((xi->sem >= BI_SEM_LOAD && xi->sem <= BI_SEM_ACMPXCHG) || xi->sem >= BI_SEM_TEXC) && bx_jc_compile_msg(jc, i))
        return;
    if ((xi->sem == BI_SEM_BRANCHZ16 || xi->sem == BI_SEM_BRANCHZ32 || xi->sem == BI_SEM_JUMP) &&
        bx_jc_compile_branch(jc, i, add))
        return;
    if (!add && xi->sem == BI_SEM_ATOM_C && bx_jc_src_row(jc, i, 0, 0).base && bx_jc_src_row(jc, i, 0, 1).base) {
        /* fma_unit's ATOM_C: each lane's 64-bit atomic address (source 0 | source 1 << 32) for the
         * clause's ATOM_CX; a zero result */
        bx_jc_load_src(jc, 0, i, 0, 0, bx_jc_src_row(jc, i, 0, 0));
        bx_jc_load_src(jc, 1, i, 0, 1, bx_jc_src_row(jc, i, 0, 1));
        jx_op(e, JX_VPUNPCKLDQ, 4, 0, 1);              /* lanes 0-1 (| 4-5) */
        jx_op(e, JX_VPUNPCKHDQ, 5, 0, 1);              /* lanes 2-3 (| 6-7) */
        if (e->l) {
            jx_perm2(e, 6, 4, 5, 0x20);
            jx_perm2(e, 7, 4, 5, 0x31);
            jx_store(e, 6, R12, F_ST(atom_addr));
            jx_store(e, 7, R12, F_ST(atom_addr) + 32);
        } else {
            jx_store(e, 4, R12, F_ST(atom_addr));
            jx_store(e, 5, R12, F_ST(atom_addr) + 16);
        }
        jc->zero_res[i + 1][0] = 1;
        jc->clean_res[i + 1][0] = 1;
        return;
    }
    if ((xi->sem == BI_SEM_SEG_ADD_LO || xi->sem == BI_SEM_SEG_ADD_HI) && xi->seg != SEG_TL &&
        bx_jc_src_row(jc, i, add, 0).base) {
        /* bx_exec_mem's SEG_ADD: half of wls_base + source 0 (a null offset kept null); the
         * interpreter's code without memory (a fault) or with a message hook (it calls it) */
        jx_gp_mi(e, 1, 0x81, 7, RBX, (int32_t)offsetof(bi_warp, mem), 0);
        size_t slow1 = jx_jcc_fwd(e, CC_Z);
        jx_gp_mi(e, 0, 0x81, 7, R12, (int32_t)offsetof(bx_jit_frame, msg_hook), 0);
        size_t slow2 = jx_jcc_fwd(e, CC_NZ);
        bx_jc_load_src(jc, 0, i, add, 0, bx_jc_src_row(jc, i, add, 0));
        jx_broadcast_m(e, 4, R12, (int32_t)offsetof(bx_jit_frame, wls_base));
        jx_op(e, JX_VPADDD, 4, 0, 4);                  /* the low word */
        if (xi->sem == BI_SEM_SEG_ADD_HI) {
            jx_opm(e, JX_VPXOR, 5, 0, R14, KROW(KR_SIGN));
            jx_opm(e, JX_VPXOR, 6, 4, R14, KROW(KR_SIGN));
            jx_op(e, JX_VPCMPGTD, 5, 5, 6);            /* carry: low < offset, unsigned */
            jx_broadcast_m(e, 4, R12, (int32_t)offsetof(bx_jit_frame, wls_base) + 4);
            jx_op(e, JX_VPSUBD, 4, 4, 5);
        }
        if (xi->preserve_null) {
            jx_op(e, JX_VPXOR, 5, 5, 5);
            jx_op(e, JX_VPCMPEQD, 5, 0, 5);
            jx_op(e, JX_VPANDN, 4, 5, 4);
        }
        jx_store(e, 4, R12, F_RES(i + 1, add));
        size_t done = jx_jmp_fwd(e);
        jx_patch(e, slow1);
        jx_patch(e, slow2);
        bx_jc_call_unit(jc, iu);
        bx_jc_reload_cached(jc);
        jx_patch(e, done);
        jc->held[CACHE_REG(i, add) - 8] = 0;
        return;
    }
    if (add && xi->sem == BI_SEM_BARRIER) {
        /* add_unit's BARRIER: a zero result and the warp's count; the interpreter's code when the
         * memory wants to see every message (it calls bi_mem.message for it) */
        jx_gp_mi(e, 0, 0x81, 7, R12, (int32_t)offsetof(bx_jit_frame, msg_hook), 0);
        size_t slow = jx_jcc_fwd(e, CC_NZ);
        jx_op(e, JX_VPXOR, 0, 0, 0);
        jx_store(e, 0, R12, F_RES(i + 1, 1));
        jx_gp_mi(e, 0, 0x81, 0, RBX, (int32_t)offsetof(bi_warp, barriers), 1);
        size_t done = jx_jmp_fwd(e);
        jx_patch(e, slow);
        bx_jc_call_unit(jc, iu);
        bx_jc_reload_cached(jc);
        jx_patch(e, done);
        unsigned cr = CACHE_REG(i, 1);
        jc->held[cr - 8] = 0;
        jc->clean_res[i + 1][1] = 1;
        return;
    }
    if (!compilable(x, i, add, k, e->sse)) {
        bx_jc_call_unit(jc, iu);
        memset(jc->held, 0, sizeof(jc->held));
        return;
    }
    unsigned nbc = jc->nbc;
    row s[4];
    for (unsigned q = 0; q < 4; q++) {
        s[q] = bx_jc_src_row(jc, i, add, q);
        if (!s[q].base) {
            jc->nbc = nbc;
            bx_jc_call_unit(jc, iu);
            memset(jc->held, 0, sizeof(jc->held));
            return;
        }
    }
    /* sources in ymm0-3 as the kind needs them */
    unsigned need = 0;
    switch (k) {
    case K_NOP: break;
    case K_MOV: case K_ZEXT16: case PK_ZEXT8: case PK_S2F: case PK_U2F: need = 1; break;
    case PK_FREXPE: case PK_FREXPM: case PK_FRCP: case PK_FRSQ: case PK_F2S: case PK_F2U: need = 1; break;
    case PK_ARSHIFT: need = 3; break;
    case PK_SWZ8: need = 1; break;
    case PK_VICMP8: need = 2; break;
    case PK_RSCALE: need = 4; break;
    case K_IADD: case K_ISUB: case K_IMUL: case K_ICMP: case K_FADD: case K_FCMP: case K_MKVEC: need = 2; break;
    case K_IADDC: case K_LSHIFT: case K_RSHIFT: case K_FMA: case K_MUX: need = 3; break;
    case K_CSEL: need = 4; break;
    default: break;
    }
    /* a shift by a constant: by an immediate (the amount's row is not needed) */
    int imm_shift = (k == K_LSHIFT || k == K_RSHIFT) && (s[2].base == JX_POOL || (s[2].base == R12 && s[2].disp == F_ZERO));
    uint8_t shift = imm_shift && s[2].base == JX_POOL ? (uint8_t)(jc->pool[s[2].disp] & 31) : 0;
    /* SSE: ARSHIFT by a constant (Mesa's sign masks: >> 31) by an immediate too */
    int imm_sra = e->sse && k == PK_ARSHIFT && (s[2].base == JX_POOL || (s[2].base == R12 && s[2].disp == F_ZERO));
    uint8_t sra = imm_sra && s[2].base == JX_POOL ?
        (uint8_t)((jc->pool[s[2].disp] >> lane_shift(xi->lane[2] == 0xff ? 0 : xi->lane[2])) & 31) : 0;
    if (e->sse && (((k == K_LSHIFT || k == K_RSHIFT) && !imm_shift) || (k == PK_ARSHIFT && !imm_sra))) {
        /* no vpsllvd / vpsrlvd / vpsravd */
        jc->nbc = nbc;
        bx_jc_call_unit(jc, iu);
        memset(jc->held, 0, sizeof(jc->held));
        return;
    }
    for (unsigned q = 0; q < need; q++)
        if (!((imm_shift || imm_sra) && q == 2))
            bx_jc_load_src(jc, q, i, add, q, s[q]);
    unsigned r = 0;              /* register holding the result */
    int nan_check = 0, ftz = x->c.hdr[BI_H_FTZ] != 0, den_check = 0;
    if (k >= PK_FREXPE) {        /* float sources as bx_fsrc makes them (FREXPE: its sign is moot) */
        for (unsigned q = 0; q < (k == PK_RSCALE ? 3u : 1u); q++) {
            if (k != PK_FREXPE)
                fsrc_mods(e, xi, q, q);
            if (ftz && !bx_jc_src_clean(jc, i, add, q))
                flush_denormals(e, q);
        }
    }
    switch (k) {
    case K_NOP:                  /* nothing to do: readers take the zero row */
        jc->zero_res[i + 1][add] = 1;
        jc->clean_res[i + 1][add] = 1;
        return;
    case K_MOV: break;
    case K_IADD: jx_op(e, JX_VPADDD, 0, 0, 1); break;
    case K_ISUB: jx_op(e, JX_VPSUBD, 0, 0, 1); break;
    case K_IMUL: jx_op(e, JX_VPMULLD, 0, 0, 1); break;
    case K_IADDC: jx_op(e, JX_VPADDD, 0, 0, 1); jx_op(e, JX_VPADDD, 0, 0, 2); break;
    case K_LSHIFT: case K_RSHIFT:
        if (imm_shift) {
            if (shift)
                jx_shift_imm(e, k == K_LSHIFT, 0, 0, shift);
        } else {
            jx_opm(e, JX_VPAND, 2, 2, R14, KROW(KR_31));
            if (k == K_LSHIFT)
                jx_op(e, JX_VPSLLVD, 0, 0, 2);
            else
                jx_op(e, JX_VPSRLVD, 0, 0, 2);
        }
        if (xi->not1)
            jx_opm(e, JX_VPXOR, 1, 1, R14, KROW(KR_ONES));
        switch (xi->logic) {
        case L_AND: jx_op(e, JX_VPAND, 0, 0, 1); break;
        case L_OR: jx_op(e, JX_VPOR, 0, 0, 1); break;
        default: jx_op(e, JX_VPXOR, 0, 0, 1); break;
        }
        if (xi->not_result)
            jx_opm(e, JX_VPXOR, 0, 0, R14, KROW(KR_ONES));
        break;
    case K_ICMP:
        int_cmp(e, xi);
        r = 4;
        if (xi->result_type == 0)
            jx_opm(e, JX_VPAND, 4, 4, R14, KROW(KR_ONE));
        break;
    case K_CSEL:
        int_cmp(e, xi);
        jx_blendv(e, 1, 0, 3, 2, 4);            /* mask ? c : d */
        break;
    case K_FADD: case K_FMA:
        for (unsigned q = 0; q < need; q++) {
            fsrc_mods(e, xi, q, q);
            if (ftz && !bx_jc_src_clean(jc, i, add, q))
                flush_denormals(e, q);
        }
        jc->clean_res[i + 1][add] = (uint8_t)ftz;   /* flushed here or by the interpreter's fout */
        if (k == K_FADD) {
            jx_op(e, JX_VADDPS, 0, 0, 1);
        } else if (e->sse) {
            r = bx_jc_fma_sse(jc);
            bx_jc_clobber_high(jc);
        } else {
            jx_op(e, JX_VFMADD231PS, 2, 0, 1);
            r = 2;
        }
        if (ftz)
            flush_denormals(e, r);
        nan_check = 1;
        break;
    case K_FCMP:
        for (unsigned q = 0; q < 2; q++) {
            fsrc_mods(e, xi, q, q);
            if (ftz && !bx_jc_src_clean(jc, i, add, q))
                flush_denormals(e, q);
        }
        if (e->sse && xi->cmp == C_GTLT) {               /* no ordered not-equal: not-equal, not unordered */
            jx_cmpps(e, 2, 0, 1, 0x03);
            jx_cmpps(e, 0, 0, 1, 0x04);
            jx_op(e, JX_VPANDN, 0, 2, 0);
        } else {
            jx_cmpps(e, 0, 0, 1, fcmp_pred[xi->cmp]);
        }
        if (xi->result_type == 0)
            jx_opm(e, JX_VPAND, 0, 0, R14, KROW(KR_ONE));
        else if (xi->result_type == 1)
            jx_opm(e, JX_VPAND, 0, 0, R14, KROW(KR_FONE));
        break;
    case K_MUX:
        switch (xi->mux) {
        case 0:                                          /* sign of c ? a : b */
            if (e->sse) {                                /* the sign made a lane mask */
                jx_sra_imm(e, 2, 2, 31);
                jx_blendv(e, 1, 0, 1, 0, 2);
            } else {
                jx_blendv(e, 0, 0, 1, 0, 2);
            }
            break;
        case 1: case 2:
            if (xi->mux == 2)
                jx_opm(e, JX_VPAND, 2, 2, R14, KROW(KR_ABS));
            jx_op(e, JX_VPXOR, 5, 5, 5);
            jx_op(e, JX_VPCMPEQD, 4, 2, 5);
            jx_blendv(e, 1, 0, 1, 0, 4);                 /* c == 0 ? a : b */
            break;
        default:
            jx_op(e, JX_VPAND, 0, 0, 2);                 /* (a & c) | (b & ~c) */
            jx_op(e, JX_VPANDN, 1, 2, 1);
            jx_op(e, JX_VPOR, 0, 0, 1);
            break;
        }
        break;
    case K_MKVEC: {
        unsigned sl = xi->lane[0] == 0xff ? 0 : 16 * (xi->lane[0] & 1), sh = xi->lane[1] == 0xff ? 0 : 16 * (xi->lane[1] & 1);
        if (sl)
            jx_shift_imm(e, 0, 0, 0, (uint8_t)sl);
        jx_opm(e, JX_VPAND, 0, 0, R14, KROW(KR_FFFF));
        if (sh)
            jx_shift_imm(e, 0, 1, 1, (uint8_t)sh);
        jx_shift_imm(e, 1, 1, 1, 16);
        jx_op(e, JX_VPOR, 0, 0, 1);
        break;
    }
    case K_ZEXT16: {
        unsigned sh = xi->lane[0] == 0xff ? 0 : 16 * (xi->lane[0] & 1);
        if (sh)
            jx_shift_imm(e, 0, 0, 0, (uint8_t)sh);
        jx_opm(e, JX_VPAND, 0, 0, R14, KROW(KR_FFFF));
        break;
    }
    case PK_ARSHIFT: {           /* (int32_t)a >> (lane_sel(c, lane[2] or byte 0) & 31) */
        if (imm_sra) {
            if (sra)
                jx_sra_imm(e, 0, 0, sra);
            break;
        }
        uint8_t sh = lane_shift(xi->lane[2] == 0xff ? 0 : xi->lane[2]);
        if (sh)
            jx_shift_imm(e, 0, 2, 2, sh);
        jx_opm(e, JX_VPAND, 2, 2, R14, KROW(KR_31));
        jx_op(e, JX_VPSRAVD, 0, 0, 2);
        break;
    }
    case PK_ZEXT8: {             /* lane_sel(a, lane[0] or byte 0), zero-extended */
        uint8_t lane = xi->lane[0] == 0xff ? 0 : xi->lane[0], sh = lane_shift(lane);
        if (sh)
            jx_shift_imm(e, 0, 0, 0, sh);
        jx_opm(e, JX_VPAND, 0, 0, R14, KROW(lane & 0x10 ? KR_FFFF : KR_FF));
        break;
    }
    case PK_FREXPE: r = bx_jc_frexpe(jc, xi, !ftz); den_check = !ftz; break;
    case PK_FREXPM: r = bx_jc_frexpm(jc, xi, !ftz); den_check = !ftz; nan_check = 1; break;
    case PK_FRCP: r = bx_jc_frcp(jc, !ftz); den_check = !ftz; nan_check = 1; bx_jc_clobber_high(jc); break;
    case PK_FRSQ: r = bx_jc_frsq(jc, !ftz); den_check = !ftz; nan_check = 1; bx_jc_clobber_high(jc); break;
    case PK_RSCALE:
        r = bx_jc_rscale(jc, xi);
        bx_jc_clobber_high(jc);
        if (ftz)
            flush_denormals(e, r);
        jc->clean_res[i + 1][add] = (uint8_t)ftz;
        nan_check = 1;
        break;
    case PK_F2S: case PK_F2U: r = bx_jc_f2i(jc, k == PK_F2S); break;
    case PK_SWZ8: {              /* byte j of each lane = byte vsel[0][j] of a */
        uint32_t sel = 0;
        for (unsigned j = 0; j < 4; j++)
            sel |= (uint32_t)(xi->vsel[0][j] & 3) << (8 * j);
        int k = bx_jc_pool(jc, sel);
        if (k < 0) {
            bx_jc_call_unit(jc, iu);
            memset(jc->held, 0, sizeof(jc->held));
            return;
        }
        jx_load(e, 1, JX_POOL, k);
        jx_opm(e, JX_VPADDD, 1, 1, R14, KROW(KR_BYTE_BASE));   /* + 4 x the lane within its 16 bytes */
        jx_op(e, JX_VPSHUFB, 0, 0, 1);
        break;
    }
    case PK_VICMP8: {            /* per byte: t ? (result_type 0 ? 1 : 0xff) : 0 */
        int kb = bx_jc_pool(jc, 0x80808080u), k1 = bx_jc_pool(jc, 0x01010101u);
        if (kb < 0 || k1 < 0) {
            bx_jc_call_unit(jc, iu);
            memset(jc->held, 0, sizeof(jc->held));
            return;
        }
        int invert = 0;
        if (xi->sem == BI_SEM_VICMP_I) {
            jx_op(e, JX_VPCMPEQB, 4, 0, 1);
            invert = xi->cmp != C_EQ;
        } else {
            if (xi->sem == BI_SEM_VICMP_U) {              /* unsigned: bias to signed */
                jx_opm(e, JX_VPXOR, 0, 0, JX_POOL, kb);
                jx_opm(e, JX_VPXOR, 1, 1, JX_POOL, kb);
            }
            switch (xi->cmp) {
            case C_GT: jx_op(e, JX_VPCMPGTB, 4, 0, 1); break;
            case C_GE: jx_op(e, JX_VPCMPGTB, 4, 1, 0); invert = 1; break;
            case C_LT: jx_op(e, JX_VPCMPGTB, 4, 1, 0); break;
            default: jx_op(e, JX_VPCMPGTB, 4, 0, 1); invert = 1; break;
            }
        }
        if (invert)
            jx_opm(e, JX_VPXOR, 4, 4, R14, KROW(KR_ONES));
        if (xi->result_type == 0)
            jx_opm(e, JX_VPAND, 4, 4, JX_POOL, k1);
        r = 4;
        break;
    }
    case PK_S2F:
        jx_op(e, JX_VCVTDQ2PS, 0, 0, 0);
        jc->clean_res[i + 1][add] = 1;
        break;
    case PK_U2F:                 /* (a >> 16) * 65536 + (a & 0xffff): both exact, one rounding */
        jx_shift_imm(e, 0, 1, 0, 16);
        jx_opm(e, JX_VPAND, 0, 0, R14, KROW(KR_FFFF));
        jx_op(e, JX_VCVTDQ2PS, 1, 0, 1);
        jx_op(e, JX_VCVTDQ2PS, 0, 0, 0);
        jx_load(e, 2, R14, KROW(KR_2P16));
        if (e->sse) {            /* the product is exact (a 16-bit integer times 2^16): one rounding */
            jx_op(e, JX_VMULPS, 1, 1, 2);
            jx_op(e, JX_VADDPS, 0, 0, 1);
        } else {
            jx_op(e, JX_VFMADD231PS, 0, 1, 2);
        }
        jc->clean_res[i + 1][add] = 1;
        break;
    default: break;
    }
    if (!jc->res_dead[i + 1][add])
        jx_store(e, r, R12, F_RES(i + 1, add));
    unsigned cr = CACHE_REG(i, add);
    jx_movr(e, cr, r);
    jc->held[cr - 8] = 1 + ((i + 1) << 1 | (unsigned)add);
    if (den_check) {           /* a denormal input outside FTZ: the interpreter's code (frexpf) */
        jx_ptest(e, 7, 7);
        size_t skip = jx_jcc_fwd(e, CC_Z);
        bx_jc_call_unit(jc, iu);
        bx_jc_reload_cached(jc);
        jx_patch(e, skip);
    }
    if (nan_check) {           /* a NaN in any lane: the interpreter's NaN rules redo the unit */
        jx_cmpps(e, 5, r, r, 3);                     /* unordered */
        jx_ptest(e, 5, 5);
        size_t skip = jx_jcc_fwd(e, CC_Z);
        bx_jc_call_unit(jc, iu);
        bx_jc_reload_cached(jc);
        jx_patch(e, skip);
    }
}

