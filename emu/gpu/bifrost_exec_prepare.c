/* Bifrost executor: decoded instructions -> prepared instructions (bi_xinstr: semantic class,
 * modifiers as numbers), once per clause.  Semantics follow /work/shared/reference/bifrost-isa.md. */
#include "bifrost_exec_int.h"
#include "bifrost_gfx.h"
#include "bifrost_tex.h"

#include <string.h>

/* why a modifier value stays refused */
#define NO_SOURCE " (semantics not documented, not emitted by Mesa)"

/* Modifier values as the executor numbers them: a table maps a value name (BI_MV_*) to its
 * number + 1; 0: not a value the executor knows. */
#define V(mv, n) [BI_MV_##mv] = (n) + 1
static const uint8_t abs_tab[BI_NUM_MV] = { V(NONE, 0), V(ABS, 1) };
static const uint8_t neg_tab[BI_NUM_MV] = { V(NONE, 0), V(NEG, 1) };
static const uint8_t widen_tab[BI_NUM_MV] = { V(NONE, 0), V(H0, 1), V(H1, 2) };
static const uint8_t lane_tab[BI_NUM_MV] = { V(B0, 0), V(B1, 1), V(B2, 2), V(B3, 3), V(H0, 4), V(H1, 5) };
static const uint8_t round_tab[BI_NUM_MV] = { V(NONE, R_NONE), V(RTP, R_RTP), V(RTN, R_RTN), V(RTZ, R_RTZ),
                                              V(RTNA, R_RTNA), V(RTO, R_RTO) };
static const uint8_t clamp_tab[BI_NUM_MV] = { V(NONE, 0), V(CLAMP_0_INF, 1), V(CLAMP_M1_1, 2), V(CLAMP_0_1, 3) };
static const uint8_t cmp_tab[BI_NUM_MV] = { V(EQ, C_EQ), V(GT, C_GT), V(GE, C_GE), V(NE, C_NE), V(LT, C_LT),
                                            V(LE, C_LE), V(GTLT, C_GTLT), V(TOTAL, C_TOTAL) };
static const uint8_t rt_tab[BI_NUM_MV] = { V(I1, 0), V(F1, 1), V(M1, 2) };
static const uint8_t minmax_tab[BI_NUM_MV] = { V(NAN_SUPPRESS, 0), V(NAN_PROPAGATE, 1), V(C, 2), V(INVERSE_C, 3) };
static const uint8_t mux_tab[BI_NUM_MV] = { V(NEG, 0), V(INT_ZERO, 1), V(FP_ZERO, 2), V(BIT, 3) };
static const uint8_t seg_tab[BI_NUM_MV] = { V(NONE, SEG_NONE), V(WLS, SEG_WLS), V(STREAM, SEG_STREAM),
                                            V(UBO, SEG_UBO), V(TL, SEG_TL), V(POS, 5), V(VARY, 6) };
static const uint8_t dlane_tab[BI_NUM_MV] = { V(B0, 0), V(B1, 1), V(B2, 2), V(B3, 3), V(H0, 4), V(H1, 5),
                                              V(W0, DL_W0), V(D0, DL_D0) };
static const uint8_t extend_tab[BI_NUM_MV] = { V(NONE, 0), V(SEXT, 1), V(ZEXT, 2) };
static const uint8_t flog_tab[BI_NUM_MV] = { V(RED, LT_RED), V(BASE2, LT_BASE2), V(NATURAL, LT_NATURAL) };
static const uint8_t special_tab[BI_NUM_MV] = { V(NONE, 0), V(N, 1), V(LEFT, 2), V(SCALE16, 3) };
static const uint8_t atom_tab[BI_NUM_MV] = { V(AADD, A_ADD), V(ASMIN, A_SMIN), V(ASMAX, A_SMAX), V(AUMIN, A_UMIN),
                                             V(AUMAX, A_UMAX), V(AAND, A_AND), V(AOR, A_OR), V(AXOR, A_XOR) };
static const uint8_t atom_c1_tab[BI_NUM_MV] = { V(AINC, 0), V(ADEC, 1), V(AUMAX1, 2), V(ASMAX1, 3), V(AOR1, 4) };
static const uint8_t subgroup_tab[BI_NUM_MV] = { V(SUBGROUP2, 0), V(SUBGROUP4, 1), V(SUBGROUP8, 2), V(SUBGROUP16, 3) };
static const uint8_t inactive_tab[BI_NUM_MV] = {
    V(ZERO, 0), V(UMAX, 1), V(I1, 2), V(V2I1, 3), V(SMIN, 4), V(SMAX, 5), V(V2SMIN, 6), V(V2SMAX, 7),
    V(V4SMIN, 8), V(V4SMAX, 9), V(F1, 10), V(V2F1, 11), V(INFN, 12), V(INF, 13), V(V2INFN, 14), V(V2INF, 15),
};
static const uint8_t table_tab[BI_NUM_MV] = { V(ATTRIBUTE_1, 0), V(ATTRIBUTE_2, 1), V(NONE, 2), V(FLAT, 3) };
static const uint8_t lod_tab[BI_NUM_MV] = { V(COMPUTED_LOD, 0), V(ZERO_LOD, 1) };
static const uint8_t regfmt_tab[BI_NUM_MV] = { V(F16, 0), V(F32, 1), V(S32, 2), V(U32, 3), V(S16, 4), V(U16, 5),
                                               V(F64, 6), V(I64, 7), V(AUTO, 8) };
static const uint8_t vecsize_tab[BI_NUM_MV] = { V(NONE, 0), V(V2, 1), V(V3, 2), V(V4, 3) };
#undef V

/* Modifier mod of the instruction as the table numbers it; dflt when the op has no such modifier
 * or the table does not know the value. */
static int mval(const bi_instr *ins, int mod, const uint8_t *tab, int dflt)
{
    int mv = bi_mod_mv(ins, mod);
    return mv >= 0 && tab[mv] ? tab[mv] - 1 : dflt;
}

/* The name of the value of modifier mod (messages), or NULL. */
static const char *mname(const bi_instr *ins, int mod)
{
    int mv = bi_mod_mv(ins, mod);
    return mv >= 0 ? bi_mv_names[mv] : NULL;
}

/* Source-qualified modifiers of sources 0-3 */
static const int abs_mod[4] = { BI_MOD_ABS0, BI_MOD_ABS1, BI_MOD_ABS2, BI_MOD_ABS3 };
static const int neg_mod[4] = { BI_MOD_NEG0, BI_MOD_NEG1, BI_MOD_NEG2, BI_MOD_NEG3 };
static const int widen_mod[4] = { BI_MOD_WIDEN0, BI_MOD_WIDEN1, BI_MOD_WIDEN2, BI_MOD_WIDEN3 };
static const int lane_mod[4] = { BI_MOD_LANE0, BI_MOD_LANE1, BI_MOD_LANE2, BI_MOD_LANE3 };
static const int lanes_mod[4] = { BI_MOD_LANES0, BI_MOD_LANES1, BI_MOD_LANES2, BI_MOD_LANES3 };
static const int swz_mod[4] = { BI_MOD_SWZ0, BI_MOD_SWZ1, BI_MOD_SWZ2, BI_MOD_SWZ3 };
static const int swap_mod[4] = { BI_MOD_SWAP0, BI_MOD_SWAP1, BI_MOD_SWAP2, BI_MOD_SWAP3 };

static const char *const seg_names[] = { "none", "wls", "stream", "ubo", "tl", "pos", "vary" };

static const uint8_t vsample_tab[BI_NUM_MV] = { [BI_MV_CENTER] = 1 + BI_GFX_SAMPLE_CENTER,
    [BI_MV_CENTROID] = 1 + BI_GFX_SAMPLE_CENTROID, [BI_MV_SAMPLE] = 1 + BI_GFX_SAMPLE_SAMPLE,
    [BI_MV_EXPLICIT] = 1 + BI_GFX_SAMPLE_EXPLICIT, [BI_MV_NONE] = 1 + BI_GFX_SAMPLE_NONE };
static const uint8_t vupdate_tab[BI_NUM_MV] = { [BI_MV_STORE] = 1 + BI_GFX_UPDATE_STORE,
    [BI_MV_RETRIEVE] = 1 + BI_GFX_UPDATE_RETRIEVE, [BI_MV_CONDITIONAL] = 1 + BI_GFX_UPDATE_CONDITIONAL,
    [BI_MV_CLOBBER] = 1 + BI_GFX_UPDATE_CLOBBER };
static const uint8_t vspecial_tab[BI_NUM_MV] = { [BI_MV_POINT] = 1 + BI_GFX_SPECIAL_POINT,
    [BI_MV_FRAG_W] = 1 + BI_GFX_SPECIAL_FRAG_W, [BI_MV_FRAG_Z] = 1 + BI_GFX_SPECIAL_FRAG_Z };
static const uint8_t vfunc_tab[BI_NUM_MV] = { [BI_MV_NONE] = 1 + BI_GFX_FUNC_NONE, [BI_MV_AND] = 1 + BI_GFX_FUNC_AND,
    [BI_MV_OR] = 1 + BI_GFX_FUNC_OR };

/* The graphics messages' modifiers (bifrost_gfx.h: what the front end gets) and DISCARD's */
static int prepare_gfx(bi_xinstr *x, const bi_instr *ins, bi_fault *f)
{
    const struct bi_op_desc *op = &bi_ops[ins->op];
    const struct bi_op_exec *ox = &bi_op_exec[ins->op];
    static const uint8_t rf_value[] = { BI_RF_F16, BI_RF_F32, BI_RF_I32, BI_RF_U32, BI_RF_I16, BI_RF_U16 };
    int r = mval(ins, BI_MOD_REGISTER_FORMAT, regfmt_tab, 8);
    switch (x->sem) {
    case BI_SEM_LD_VAR: {
        x->size = (uint8_t)(1 + mval(ins, BI_MOD_VECSIZE, vecsize_tab, 0));
        int special = bi_mod_mv(ins, BI_MOD_VARYING_NAME) >= 0, flat = bi_mod_mv(ins, BI_MOD_FUNCTION) >= 0;
        x->vkind = special ? BI_GFX_VARY_SPECIAL : flat ? BI_GFX_VARY_FLAT : BI_GFX_VARY_SMOOTH;
        x->vsample = (uint8_t)mval(ins, BI_MOD_SAMPLE, vsample_tab, flat ? BI_GFX_SAMPLE_NONE : BI_GFX_SAMPLE_CENTER);
        x->vupdate = (uint8_t)mval(ins, BI_MOD_UPDATE, vupdate_tab, BI_GFX_UPDATE_STORE);
        x->vspecial = (uint8_t)mval(ins, BI_MOD_VARYING_NAME, vspecial_tab, 0);
        int fn = mval(ins, BI_MOD_FUNCTION, vfunc_tab, flat ? -1 : BI_GFX_FUNC_NONE);
        if (fn < 0)
            return bx_fault(f, BI_FAULT_INVALID, 0, "%s: reserved function", op->name);
        x->vfunc = (uint8_t)fn;
        if (r > 5 && r != 8)
            return bx_fault(f, BI_FAULT_INVALID, 0, "%s: reserved register format", op->name);
        x->regfmt = r == 8 ? BI_RF_AUTO : rf_value[r];
        x->attr_imm = op->nimms > 0;                /* LD_VAR_IMM, LD_VAR_FLAT_IMM: the index */
        x->attr_index = x->attr_imm ? (uint8_t)ins->imm[0] : 0;
        return BI_EXEC_OK;
    }
    case BI_SEM_LD_ATTR:
        x->size = (uint8_t)(1 + mval(ins, BI_MOD_VECSIZE, vecsize_tab, 0));
        if (r == 6 || r == 7)
            return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "%s.%s not implemented" NO_SOURCE, op->name,
                            mname(ins, BI_MOD_REGISTER_FORMAT));
        x->regfmt = r == 8 ? BI_RF_AUTO : rf_value[r];
        x->attr_imm = op->nimms > 0;
        x->attr_index = x->attr_imm ? (uint8_t)ins->imm[0] : 0;
        return BI_EXEC_OK;
    case BI_SEM_VAR_TEX: {
        int f16 = ox->tkind == 'f' && ox->tbits == 16;
        x->vkind = BI_GFX_VARY_SMOOTH;
        x->vsample = (uint8_t)mval(ins, BI_MOD_SAMPLE, vsample_tab, BI_GFX_SAMPLE_CENTER);
        x->vupdate = (uint8_t)mval(ins, BI_MOD_UPDATE, vupdate_tab, BI_GFX_UPDATE_STORE);
        x->var_skip = bi_mod_mv(ins, BI_MOD_SKIP) == BI_MV_SKIP;
        x->attr_imm = 1;
        x->attr_index = (uint8_t)ins->imm[0];
        x->size = f16 ? 2 : 4;                      /* staging registers written */
        x->regfmt = f16 ? BI_RF_F16 : BI_RF_F32;
        /* the texture part: TEXS_2D's, texture and sampler = the op's texture index */
        x->texdesc = bi_tex_texs_desc(ins->imm[1], ins->imm[1], f16, bi_mod_mv(ins, BI_MOD_LOD_MODE) == BI_MV_ZERO_LOD);
        return BI_EXEC_OK;
    }
    case BI_SEM_ZS_EMIT:
        x->zs_z = bi_mod_mv(ins, BI_MOD_Z) == BI_MV_Z;
        x->zs_s = bi_mod_mv(ins, BI_MOD_STENCIL) == BI_MV_STENCIL;
        return BI_EXEC_OK;
    case BI_SEM_LD_TILE:
    case BI_SEM_ST_TILE:
        x->size = (uint8_t)(1 + mval(ins, BI_MOD_VECSIZE, vecsize_tab, 0));
        return BI_EXEC_OK;
    default:            /* ATEST (widen1: the alpha half), BLEND, DISCARD (cmp, widen0/1) */
        return BI_EXEC_OK;
    }
}

static int prepare_instr(bi_xinstr *x, const bi_instr *ins, bi_fault *f)
{
    const struct bi_op_desc *op = &bi_ops[ins->op];
    const struct bi_op_exec *ox = &bi_op_exec[ins->op];
    memset(x, 0, sizeof(*x));
    if (ins->op == BI_OP_INVALID)
        return bx_fault(f, BI_FAULT_INVALID, 0, "invalid instruction encoding %#x", ins->bits);
    x->sem = ox->sem;
    if (!x->sem)
        return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "%c%s not implemented%s%s%s", op->unit == BI_UNIT_ADD ? '+' : '*',
                        op->name, ox->why ? " (" : "", ox->why ? ox->why : "", ox->why ? ")" : "");
    x->nsrcs = op->nsrcs;
    for (unsigned s = 0; s < 4; s++) {
        x->abs[s] = (uint8_t)mval(ins, abs_mod[s], abs_tab, 0);
        x->neg[s] = (uint8_t)mval(ins, neg_mod[s], neg_tab, 0);
        x->widen[s] = (uint8_t)mval(ins, widen_mod[s], widen_tab, 0);
        int l = bi_mod_mv(ins, lane_mod[s]);
        if (l < 0)
            l = bi_mod_mv(ins, lanes_mod[s]);
        if (l < 0 && s == 1 && x->sem == BI_SEM_IMUL)
            l = bi_mod_mv(ins, BI_MOD_WIDEN1);
        int li = l >= 0 && lane_tab[l] ? lane_tab[l] - 1 : -1;
        x->lane[s] = li < 0 ? 0xff : li >= 4 ? (uint8_t)(0x10 | (li - 4)) : (uint8_t)li;   /* 0x10|h: half */
    }
    x->round = (uint8_t)mval(ins, BI_MOD_ROUND, round_tab, 0);
    x->clamp = (uint8_t)mval(ins, BI_MOD_CLAMP, clamp_tab, 0);
    x->cmp = (uint8_t)mval(ins, BI_MOD_CMPF, cmp_tab, 0);
    x->result_type = (uint8_t)mval(ins, BI_MOD_RESULT_TYPE, rt_tab, 0);
    x->sat = bi_mod_mv(ins, BI_MOD_SATURATE) == BI_MV_SAT;
    x->not1 = bi_mod_mv(ins, BI_MOD_NOT1) == BI_MV_NOT;
    x->not_result = bi_mod_mv(ins, BI_MOD_NOT_RESULT) == BI_MV_NOT;
    x->minmax = (uint8_t)mval(ins, BI_MOD_SEM, minmax_tab, 0);
    x->mux = (uint8_t)mval(ins, BI_MOD_MUX, mux_tab, 1);
    int s32 = ox->tkind == 's' && ox->tbits == 32 && ox->tlanes == 1;      /* .s32 */
    int vsigned = ox->tkind == 's' && ox->tlanes > 1;                      /* .v2s16, .v4s8 */
    x->sext = s32;
    if (x->sem == BI_SEM_IMUL)
        x->sext = bi_mod_mv(ins, BI_MOD_EXTEND) == BI_MV_SEXT;
    x->logic = ox->logic == BI_LOGIC_AND ? L_AND : ox->logic == BI_LOGIC_OR ? L_OR : L_XOR;
    x->mask = bi_mod_mv(ins, BI_MOD_MASK) == BI_MV_MASK;
    /* vector lanes and per-source lane selection (lanesN / swzN / swapN: hXY, bXY, bWXYZ) */
    x->vw = ox->tlanes == 4 ? 8 : 16;
    for (unsigned k = 0; k < 4; k++) {
        for (unsigned j = 0; j < 4; j++)
            x->vsel[k][j] = (uint8_t)j;
        int v = bi_mod_mv(ins, lanes_mod[k]);
        if (v < 0)
            v = bi_mod_mv(ins, swz_mod[k]);
        if (v < 0)
            v = bi_mod_mv(ins, swap_mod[k]);
        if (v < 0 || !bi_mv_lanes[v].kind || bi_mv_lanes[v].n < 2)
            continue;
        const struct bi_mv_lanes *sel = &bi_mv_lanes[v];
        for (unsigned j = 0; j < sel->n && j < 4; j++)
            x->vsel[k][j] = (uint8_t)(sel->d[j] | (sel->kind == 'b' && x->vw == 16 ? 0x10 : 0));
    }
    if (x->sem == BI_SEM_VADD || x->sem == BI_SEM_VSUB || x->sem == BI_SEM_VCSEL_S || x->sem == BI_SEM_VICMP_S)
        x->sext = vsigned;
    if (x->sem == BI_SEM_VI2F16 || x->sem == BI_SEM_VF16_2I || x->sem == BI_SEM_V8TO16 || x->sem == BI_SEM_I2F_NARROW)
        x->sext = ox->conv_signed;
    if (x->sem == BI_SEM_HADD)
        x->sext = s32;
    if (x->sem == BI_SEM_VHADD || x->sem == BI_SEM_VIABS)
        x->sext = vsigned;
    if (x->sem == BI_SEM_V8TO16F || x->sem == BI_SEM_F16_2I)
        x->sext = ox->conv_signed;
    if (x->sem == BI_SEM_FREXPE || x->sem == BI_SEM_FREXPM) {
        int sq = bi_mod_mv(ins, BI_MOD_SQRT) == BI_MV_SQRT, lg = bi_mod_mv(ins, BI_MOD_LOG) == BI_MV_LOG;
        x->fmode = sq ? FM_SQRT : lg ? FM_LOG : FM_PLAIN;
        if (sq && lg)
            return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "%s.sqrt.log not implemented" NO_SOURCE, op->name);
    }
    if (x->sem == BI_SEM_FLOG_TABLE) {
        x->fmode = (uint8_t)mval(ins, BI_MOD_MODE, flog_tab, 0);
        x->widen[0] = (uint8_t)mval(ins, BI_MOD_WIDEN0, widen_tab, 0);
    }
    if (x->sem == BI_SEM_FMA_RSCALE) {
        x->fmode = (uint8_t)mval(ins, BI_MOD_SPECIAL, special_tab, 0);
        if (x->fmode > 1)
            return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "FMA_RSCALE.%s not implemented" NO_SOURCE,
                            mname(ins, BI_MOD_SPECIAL));
    }
    if (x->sem == BI_SEM_FEXP_TABLE && bi_mod_mv(ins, BI_MOD_ADJ) >= 0 && bi_mod_mv(ins, BI_MOD_ADJ) != BI_MV_NONE)
        return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "FEXP_TABLE.%s not implemented" NO_SOURCE, mname(ins, BI_MOD_ADJ));
    if (x->sem == BI_SEM_VIMUL && x->vw == 8) {
        int r1 = bi_mod_mv(ins, BI_MOD_REPLICATE1);
        if (r1 >= 0 && bi_mv_lanes[r1].n == 4)
            for (unsigned j = 0; j < 4; j++)
                x->vsel[1][j] = bi_mv_lanes[r1].d[j];
    }
    if (x->sem == BI_SEM_HADD)
        x->round = bi_mod_mv(ins, BI_MOD_ROUND) == BI_MV_RTP ? R_RTP : R_RTN;
    if (x->sem == BI_SEM_LDEXP && (bi_mod_mv(ins, BI_MOD_ROUND) == BI_MV_INF || bi_mod_mv(ins, BI_MOD_ROUND) == BI_MV_INF0))
        return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "LDEXP.%s not implemented" NO_SOURCE, mname(ins, BI_MOD_ROUND));
    if (x->sem == BI_SEM_SEG_ADD_LO && op->unit == BI_UNIT_ADD)
        x->sem = BI_SEM_SEG_ADD_HI;
    x->seg = (uint8_t)mval(ins, BI_MOD_SEG, seg_tab, 0);
    x->dlane = (uint8_t)mval(ins, BI_MOD_LANE_DEST, dlane_tab, DL_W0);
    x->ext = (uint8_t)mval(ins, BI_MOD_EXTEND, extend_tab, 0);
    x->preserve_null = bi_mod_mv(ins, BI_MOD_PRESERVE_NULL) == BI_MV_PRESERVE_NULL;
    if (x->sem == BI_SEM_BRANCHZ || x->sem == BI_SEM_BRANCH) {
        x->ext = ox->tkind == 'i' ? 0 : ox->tkind == 's' ? 1 : ox->tkind == 'u' ? 2 : 3;
        x->size = ox->tbits;
    }
    if (x->sem == BI_SEM_LOAD || x->sem == BI_SEM_STORE || x->sem == BI_SEM_AXCHG) {
        x->size = (uint8_t)(ox->tbits / 8);
        if (x->seg == SEG_STREAM || x->seg > SEG_TL)
            return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "%s.%s not implemented", op->name, seg_names[x->seg]);
    }
    if (x->sem == BI_SEM_ATOM_C || x->sem == BI_SEM_ATOM_POST) {
        int o = mval(ins, BI_MOD_ATOM_OPC, atom_tab, 0);
        x->atom_one = 0;
        if (o <= 0 && (ox->flags & BI_SEMF_ONE)) {
            static const uint8_t c1_op[] = { A_ADD, A_ADD, A_UMAX, A_SMAX, A_OR };
            int c = mval(ins, BI_MOD_ATOM_OPC, atom_c1_tab, -1);
            if (c < 0)
                return bx_fault(f, BI_FAULT_INVALID, 0, "%s: reserved atom_opc", op->name);
            o = c1_op[c];
            x->atom_one = c == 1 ? 2 : 1;       /* implied operand: 1 (2: -1) */
        }
        if (o <= 0) {   /* incl. the .i64 forms' aaddu / aadds: semantics not documented */
            const char *v = mname(ins, BI_MOD_ATOM_OPC);
            return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "%s.%s not implemented", op->name, v ? v : "?");
        }
        x->atom_opc = (uint8_t)o;
        x->atom_ret = (ox->flags & BI_SEMF_RETURN) != 0;
        x->size = ox->tbits == 64 ? 8 : 4;
    }
    if (x->sem == BI_SEM_ACMPXCHG)
        x->size = ox->tbits == 64 ? 8 : 4;
    if ((x->sem == BI_SEM_SEG_ADD_LO || x->sem == BI_SEM_SEG_ADD_HI) && x->seg != SEG_WLS && x->seg != SEG_TL)
        return bx_fault(f, BI_FAULT_INVALID, 0, "SEG_ADD: reserved segment");
    if (x->sem == BI_SEM_CLPER) {
        /* CLPER: src0 of the lane src1 names (xor: this lane ^ src1) in this lane's group of
         * `subgroup` lanes, or the inactive_result constant when that lane is not running this
         * clause.  CLPER_OLD (G71/G72/G31, quirk BIFROST_LIMITED_CLPER) has none of these
         * modifiers: groups of 4, zero. */
        static const uint32_t ir_value[] = { 0, 0xffffffff, 1, 0x00010001, 0x80000000, 0x7fffffff, 0x80008000,
                                             0x7fff7fff, 0x80808080, 0x7f7f7f7f, 0x3f800000, 0x3c003c00,
                                             0xff800000, 0x7f800000, 0xfc00fc00, 0x7c007c00 };
        int lop = bi_mod_mv(ins, BI_MOD_LANE_OP);
        if (lop >= 0 && lop != BI_MV_NONE && lop != BI_MV_XOR)
            return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "CLPER.%s not implemented" NO_SOURCE, bi_mv_names[lop]);
        x->clper_xor = lop == BI_MV_XOR;
        x->clper_group = (uint8_t)(2u << mval(ins, BI_MOD_SUBGROUP, subgroup_tab, 1));
        x->clper_inactive = ir_value[mval(ins, BI_MOD_INACTIVE_RESULT, inactive_tab, 0)];
    }
    if (x->sem == BI_SEM_DTSEL) {
        /* the descriptor table of the same tuple's LEA_ATTR_TEX (Mesa: attribute_1 = the primary
         * attribute table, where panfrost puts images; LEA_ATTR_TEX alone uses the secondary) */
        x->table = (uint8_t)(1 + mval(ins, BI_MOD_TABLE, table_tab, 2));
    }
    if (x->sem == BI_SEM_TEXS && !strncmp(op->name, "TEXS_CUBE", 9)) {
        /* TEXS_CUBE (sampler, texture immediates; a computed LOD): TEXC's descriptor with the
         * cube dimension (0), which bx_exec_tex knows by */
        uint32_t d = bi_tex_texs_desc(ins->imm[1], ins->imm[0], ox->tkind == 'f' && ox->tbits == 16, 0);
        x->texdesc = d & ~(3u << 18);
    } else if (x->sem == BI_SEM_TEXS) {
        int zero = mval(ins, BI_MOD_LOD_MODE, lod_tab, 1);
        x->texdesc = bi_tex_texs_desc(ins->imm[0], ins->imm[1], ox->tkind == 'f' && ox->tbits == 16, zero);
    }
    if (x->sem == BI_SEM_LEA_TEX || x->sem == BI_SEM_LEA_ATTR || x->sem == BI_SEM_LD_ATTR_TEX) {
        /* .auto (Mesa 26: texel buffers, image loads) takes the register format the image's pixel
         * format implies; bifrost_tex.c resolves it when it reads the attribute */
        static const uint8_t rf_value[] = { BI_RF_F16, BI_RF_F32, BI_RF_I32, BI_RF_U32, BI_RF_I16, BI_RF_U16 };
        int r = mval(ins, BI_MOD_REGISTER_FORMAT, regfmt_tab, 8);
        if (r == 6 || r == 7)
            return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "%s.%s not implemented", op->name,
                            mname(ins, BI_MOD_REGISTER_FORMAT));
        x->regfmt = r == 8 ? BI_RF_AUTO : rf_value[r];
        /* LEA_ATTR_IMM: the attribute index is an immediate (else src2 holds it) */
        x->attr_imm = op->nimms > 0;
        x->attr_index = x->attr_imm ? (uint8_t)ins->imm[0] : 0;
        /* LD_ATTR_TEX (Mesa's image loads on Bifrost): the registers it loads */
        x->size = (uint8_t)(1 + mval(ins, BI_MOD_VECSIZE, vecsize_tab, 0));
    }
    if ((x->sem == BI_SEM_FRCP16 || x->sem == BI_SEM_FRSQ16) && bi_mod_mv(ins, BI_MOD_DIVZERO) == BI_MV_DIVZERO)
        return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "%s.divzero not implemented" NO_SOURCE, op->name);
    if (x->sem == BI_SEM_LD_GCLK) {
        int src = bi_mod_mv(ins, BI_MOD_SOURCE);
        if (src != BI_MV_CYCLE_COUNTER && src != BI_MV_SYSTEM_TIMESTAMP)
            return bx_fault(f, BI_FAULT_INVALID, 0, "LD_GCLK: reserved source");
        x->clock_cycles = src == BI_MV_CYCLE_COUNTER;
    }
    if (x->sem == BI_SEM_CUBEFACE1) {
        /* ISA.xml: bit 9 negates all three sources or none (ops.isa's modifiers for this op
         * overlap src2 and are not read) */
        for (unsigned k = 0; k < 4; k++)
            x->neg[k] = k < 3 && (ins->bits >> 9 & 1);
        x->abs[0] = x->abs[1] = x->abs[2] = 0;
    }
    if (x->sem == BI_SEM_ST_CVT || x->sem == BI_SEM_LD_CVT)
        x->size = (uint8_t)(1 + mval(ins, BI_MOD_VECSIZE, vecsize_tab, 0));
    if (x->sem >= BI_SEM_LD_VAR || x->sem == BI_SEM_DISCARD)
        return prepare_gfx(x, ins, f);
    if ((x->sem == BI_SEM_FCMP || x->sem == BI_SEM_VFCMP) && x->cmp == C_TOTAL)
        return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "FCMP.total not implemented" NO_SOURCE);
    if (x->sem == BI_SEM_CLZ && x->mask)
        return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "CLZ.mask not implemented" NO_SOURCE);
    if ((x->sem == BI_SEM_FADD || x->sem == BI_SEM_FROUND) && x->round == R_RTNA && x->sem != BI_SEM_FROUND)
        return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "rtna rounding on %s", op->name);
    return BI_EXEC_OK;
}

static inline uint32_t sext28(uint32_t v) { return (uint32_t)((int32_t)(v << 4) >> 4); }
static uint8_t fast_kind(const bi_xinstr *x);

int bi_prepare_clause(bi_xclause *x, const bi_clause *c, bi_fault *f)
{
    memset(x, 0, sizeof(*x));
    x->c = *c;
    for (unsigned i = 0; i < c->ntuples; i++) {
        int rc = prepare_instr(&x->fma[i], &c->t[i].fma, f);
        if (rc)
            return rc;
        rc = prepare_instr(&x->add[i], &c->t[i].add, f);
        if (rc)
            return rc;
        {
            /* which source holds a branch target, and is it a PC-relative constant? */
            const bi_xinstr *b = &x->add[i];
            int ts = b->sem == BI_SEM_JUMP ? 0 : b->sem == BI_SEM_BRANCH ? 2 :
                     (b->sem == BI_SEM_BRANCHZ || b->sem == BI_SEM_BRANCHZ32 || b->sem == BI_SEM_BRANCHZ16) ? 1 : -1;
            if (ts >= 0) {
                const bi_src *src = &c->t[i].add.src[ts];
                x->add[i].abs_target = !(src->kind == BI_SRC_CONST && c->t[i].fau_mod != BI_CONSTMOD_NONE);
            }
        }
        if (x->add[i].sem == BI_SEM_LEA_ATTR) {
            /* DTSEL_IMM.attribute_1: the attribute table (compute images); else the varying
             * table (vertex shaders' outputs) */
            if (x->fma[i].table > 1)
                return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "clause %#x: +%s with DTSEL_IMM table %u not implemented",
                                c->offset, bi_ops[c->t[i].add.op].name, x->fma[i].table - 1u);
            x->add[i].table = x->fma[i].table;
        } else if (x->add[i].sem == BI_SEM_LD_ATTR_TEX) {
            /* LD_ATTR_TEX reads the primary attribute table, with or without DTSEL_IMM.attribute_1
             * (Mesa's bi_emit_image_load emits none; only LEA_ATTR_TEX defaults to the secondary) */
            if (x->fma[i].table > 1)
                return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "clause %#x: +%s with DTSEL_IMM table %u not implemented",
                                c->offset, bi_ops[c->t[i].add.op].name, x->fma[i].table - 1u);
        } else if (x->add[i].sem == BI_SEM_LEA_TEX) {
            if (x->fma[i].table != 1)
                return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0,
                            "clause %#x: +%s without DTSEL_IMM.attribute_1 (secondary attribute table) not implemented",
                            c->offset, bi_ops[c->t[i].add.op].name);
        } else if (x->fma[i].table && x->add[i].sem != BI_SEM_NOP) {
            return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "clause %#x: DTSEL_IMM with +%s not implemented", c->offset,
                        bi_ops[c->t[i].add.op].name);
        }
        if ((x->add[i].sem == BI_SEM_CUBEFACE2) != (x->fma[i].sem == BI_SEM_CUBEFACE1))
            return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: CUBEFACE1 without CUBEFACE2 (or the reverse)",
                            c->offset);
        if (x->add[i].sem == BI_SEM_CUBEFACE2) {
            /* +CUBEFACE2 names only the FMA's result (Mesa's bi_lower_cubeface), but the face needs
             * the vector: the ADD reads the FMA's three sources, which both units read at the
             * tuple's start (so this is the same values) */
            for (unsigned k = 0; k < 3; k++) {
                x->c.t[i].add.src[k] = c->t[i].fma.src[k];
                x->add[i].neg[k] = x->fma[i].neg[k];
            }
            x->add[i].nsrcs = 3;
        }
        if (x->add[i].sem == BI_SEM_BLEND) {
            /* BLEND's destination is its message's result (the return address a blend shader
             * finds in r48), delivered after the message has read its staging colour; the
             * tuple's write of the ADD value must not reach the registers first: Mesa's blend
             * shaders give BLEND a destination that is also its staging register (r0 =
             * BLEND ... @r0), which the earlier write zeroed */
            bi_tuple *bt = &x->c.t[i];
            unsigned k = 0;
            for (unsigned j = 0; j < bt->nwrites; j++)
                if (!bt->writes[j].from_add)
                    bt->writes[k++] = bt->writes[j];
            bt->nwrites = (uint8_t)k;
        }
        if ((x->add[i].sem == BI_SEM_ATOM_CX) != (x->fma[i].sem == BI_SEM_ATOM_C))
            return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: ATOM_C without ATOM_CX (or the reverse)", c->offset);
        if (x->add[i].sem == BI_SEM_ATOM_CX) {
            x->add[i].atom_opc = x->fma[i].atom_opc;
            x->add[i].atom_one = x->fma[i].atom_one;
            x->add[i].atom_ret = x->fma[i].atom_ret;
            x->add[i].size = x->fma[i].size;
        }
        const bi_tuple *t = &c->t[i];
        uint64_t v = t->fau_value;
        uint32_t lo = (uint32_t)v, hi = (uint32_t)(v >> 32);
        switch (t->fau_mod) {
        case BI_CONSTMOD_PC_HI: hi = c->offset + sext28(hi); break;
        case BI_CONSTMOD_PC_LO: {
            uint64_t r = (uint64_t)c->offset + (uint64_t)((int64_t)(v << 4) >> 4);
            lo = (uint32_t)r;
            hi = (uint32_t)(r >> 32);
            break;
        }
        case BI_CONSTMOD_PC_LO_HI: lo = c->offset + sext28(lo); hi = c->offset + sext28(hi); break;
        default: break;
        }
        x->fau_lo[i] = lo;
        x->fau_hi[i] = hi;
        x->ninstrs += (x->fma[i].sem != BI_SEM_NOP) + (x->add[i].sem != BI_SEM_NOP);
        x->fast_fma[i] = fast_kind(&x->fma[i]);
        x->fast_add[i] = fast_kind(&x->add[i]);
    }
    return BI_EXEC_OK;
}


/* Common ALU forms run as loops over all n lanes of the warp (lanes outside the exec mask compute values
 * that are never committed); everything else goes through bx_exec_op lane by lane.  The kinds are
 * chosen once per clause (fast_kind) and give exactly bx_exec_op's results. */
static uint8_t fast_kind(const bi_xinstr *x)
{
    int plain_f = !x->round;             /* binary32 sources (abs/neg allowed), round to nearest */
    for (unsigned k = 0; k < 3; k++)
        plain_f &= !x->widen[k];
    switch (x->sem) {
    case BI_SEM_NOP: return K_NOP;
    case BI_SEM_MOV: case BI_SEM_DTSEL: return K_MOV;
    case BI_SEM_IADD: return x->lane[1] == 0xff && !x->sat ? K_IADD : K_GENERIC;
    case BI_SEM_ISUB: return x->lane[1] == 0xff && !x->sat ? K_ISUB : K_GENERIC;
    case BI_SEM_IADDC: return K_IADDC;
    case BI_SEM_IMUL: return x->lane[1] == 0xff ? K_IMUL : K_GENERIC;
    case BI_SEM_LSHIFT: case BI_SEM_RSHIFT:
        if (x->lane[2] != 0xff && x->lane[2] != 0)
            return K_GENERIC;
        return x->sem == BI_SEM_LSHIFT ? K_LSHIFT : K_RSHIFT;
    case BI_SEM_ICMP_I: case BI_SEM_ICMP_S: case BI_SEM_ICMP_U: return K_ICMP;
    case BI_SEM_CSEL_I: case BI_SEM_CSEL_S: case BI_SEM_CSEL_U: return K_CSEL;
    case BI_SEM_FADD: return plain_f ? K_FADD : K_GENERIC;
    case BI_SEM_FMA: return plain_f ? K_FMA : K_GENERIC;
    case BI_SEM_FCMP: return plain_f ? K_FCMP : K_GENERIC;
    case BI_SEM_ZEXT16: return K_ZEXT16;
    case BI_SEM_MUX: return K_MUX;
    case BI_SEM_MKVEC: return K_MKVEC;
    default: return K_GENERIC;
    }
}
