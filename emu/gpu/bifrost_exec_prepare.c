/* Bifrost executor: decoded instructions -> prepared instructions (bi_xinstr: semantic class,
 * modifiers as numbers), once per clause.  Semantics follow /work/shared/reference/bifrost-isa.md. */
#include "bifrost_exec_int.h"
#include "bifrost_tex.h"

#include <stdlib.h>
#include <string.h>

static const struct { const char *name; uint8_t sem; } sem_names[] = {
    { "NOP", S_NOP }, { "MOV.i32", S_MOV },
    { "IADD.s32", S_IADD }, { "IADD.u32", S_IADD }, { "ISUB.s32", S_ISUB }, { "ISUB.u32", S_ISUB },
    { "IADDC.i32", S_IADDC }, { "ISUBB.i32", S_ISUBB }, { "IMUL.i32", S_IMUL },
    { "LSHIFT_AND.i32", S_LSHIFT }, { "LSHIFT_OR.i32", S_LSHIFT }, { "LSHIFT_XOR.i32", S_LSHIFT },
    { "RSHIFT_AND.i32", S_RSHIFT }, { "RSHIFT_OR.i32", S_RSHIFT }, { "RSHIFT_XOR.i32", S_RSHIFT },
    { "ARSHIFT.i32", S_ARSHIFT },
    { "CSEL.i32", S_CSEL_I }, { "CSEL.s32", S_CSEL_S }, { "CSEL.u32", S_CSEL_U }, { "CSEL.f32", S_CSEL_F },
    { "MUX.i32", S_MUX }, { "ICMP.i32", S_ICMP_I }, { "ICMP.s32", S_ICMP_S }, { "ICMP.u32", S_ICMP_U },
    { "FCMP.f32", S_FCMP }, { "FADD.f32", S_FADD }, { "FMA.f32", S_FMA },
    { "FMIN.f32", S_FMIN }, { "FMAX.f32", S_FMAX },
    { "F32_TO_S32", S_F2S }, { "F32_TO_U32", S_F2U }, { "S32_TO_F32", S_S2F }, { "U32_TO_F32", S_U2F },
    { "U16_TO_U32", S_ZEXT16 }, { "S16_TO_S32", S_SEXT16 }, { "U8_TO_U32", S_ZEXT8 }, { "S8_TO_S32", S_SEXT8 },
    { "MKVEC.v2i16", S_MKVEC }, { "CLZ.u32", S_CLZ }, { "POPCOUNT.i32", S_POPCOUNT },
    { "BITREV.i32", S_BITREV }, { "FROUND.f32", S_FROUND },
    { "BRANCHZ.i32", S_BRANCHZ32 }, { "BRANCHZ.i16", S_BRANCHZ16 }, { "JUMP", S_JUMP },
    { "LOAD.i8", S_LOAD }, { "LOAD.i16", S_LOAD }, { "LOAD.i24", S_LOAD }, { "LOAD.i32", S_LOAD },
    { "LOAD.i48", S_LOAD }, { "LOAD.i64", S_LOAD }, { "LOAD.i96", S_LOAD }, { "LOAD.i128", S_LOAD },
    { "STORE.i8", S_STORE }, { "STORE.i16", S_STORE }, { "STORE.i24", S_STORE }, { "STORE.i32", S_STORE },
    { "STORE.i48", S_STORE }, { "STORE.i64", S_STORE }, { "STORE.i96", S_STORE }, { "STORE.i128", S_STORE },
    { "BARRIER", S_BARRIER }, { "SEG_ADD", S_SEG_ADD_LO },
    { "AXCHG.i32", S_AXCHG }, { "AXCHG.i64", S_AXCHG },
    { "IADD.v2s16", S_VADD }, { "IADD.v2u16", S_VADD }, { "IADD.v4s8", S_VADD }, { "IADD.v4u8", S_VADD },
    { "ISUB.v2s16", S_VSUB }, { "ISUB.v2u16", S_VSUB }, { "ISUB.v4s8", S_VSUB }, { "ISUB.v4u8", S_VSUB },
    { "FADD.v2f16", S_VFADD }, { "FMA.v2f16", S_VFMA }, { "FMIN.v2f16", S_VFMIN }, { "FMAX.v2f16", S_VFMAX },
    { "FCMP.v2f16", S_VFCMP }, { "V2F32_TO_V2F16", S_V2F32_TO_V2F16 }, { "F16_TO_F32", S_F16_TO_F32 },
    { "MKVEC.v4i8", S_MKVEC4 }, { "SWZ.v2i16", S_SWZ }, { "MUX.v2i16", S_VMUX },
    { "CSEL.v2i16", S_VCSEL_I }, { "CSEL.v2s16", S_VCSEL_S }, { "CSEL.v2u16", S_VCSEL_U }, { "CSEL.v2f16", S_VCSEL_F },
    { "ICMP.v2i16", S_VICMP_I }, { "ICMP.v2s16", S_VICMP_S }, { "ICMP.v2u16", S_VICMP_U },
    { "ICMP.v4i8", S_VICMP_I }, { "ICMP.v4s8", S_VICMP_S }, { "ICMP.v4u8", S_VICMP_U }, { "MUX.v4i8", S_VMUX },
    { "LSHIFT_AND.v2i16", S_VLSHIFT }, { "LSHIFT_OR.v2i16", S_VLSHIFT }, { "LSHIFT_XOR.v2i16", S_VLSHIFT },
    { "LSHIFT_AND.v4i8", S_VLSHIFT }, { "LSHIFT_OR.v4i8", S_VLSHIFT }, { "LSHIFT_XOR.v4i8", S_VLSHIFT },
    { "RSHIFT_AND.v2i16", S_VRSHIFT }, { "RSHIFT_OR.v2i16", S_VRSHIFT }, { "RSHIFT_XOR.v2i16", S_VRSHIFT },
    { "RSHIFT_AND.v4i8", S_VRSHIFT }, { "RSHIFT_OR.v4i8", S_VRSHIFT }, { "RSHIFT_XOR.v4i8", S_VRSHIFT },
    { "ARSHIFT.v2i16", S_VARSHIFT }, { "ARSHIFT.v4i8", S_VARSHIFT },
    { "IMUL.v2i16", S_VIMUL }, { "IMUL.v4i8", S_VIMUL },
    { "V2S16_TO_V2F16", S_VI2F16 }, { "V2U16_TO_V2F16", S_VI2F16 },
    { "V2F16_TO_V2S16", S_VF16_2I }, { "V2F16_TO_V2U16", S_VF16_2I },
    { "V2S8_TO_V2S16", S_V8TO16 }, { "V2U8_TO_V2U16", S_V8TO16 },
    { "S16_TO_F32", S_I2F_NARROW }, { "U16_TO_F32", S_I2F_NARROW }, { "S8_TO_F32", S_I2F_NARROW },
    { "U8_TO_F32", S_I2F_NARROW }, { "IABS.s32", S_IABS }, { "HADD.s32", S_HADD }, { "HADD.u32", S_HADD },
    { "LDEXP.f32", S_LDEXP },
    { "CLZ.v2u16", S_VCLZ }, { "CLZ.v4u8", S_VCLZ }, { "FROUND.v2f16", S_VFROUND },
    { "IABS.v2s16", S_VIABS }, { "IABS.v4s8", S_VIABS }, { "HADD.v2s16", S_VHADD }, { "HADD.v2u16", S_VHADD },
    { "HADD.v4s8", S_VHADD }, { "HADD.v4u8", S_VHADD }, { "SWZ.v4i8", S_SWZ },
    { "V2S8_TO_V2F16", S_V8TO16F }, { "V2U8_TO_V2F16", S_V8TO16F },
    { "BRANCHZ.f16", S_BRANCHZ }, { "BRANCHZ.f32", S_BRANCHZ }, { "BRANCHZ.s16", S_BRANCHZ },
    { "BRANCHZ.s32", S_BRANCHZ }, { "BRANCHZ.u16", S_BRANCHZ }, { "BRANCHZ.u32", S_BRANCHZ },
    { "BRANCH.f16", S_BRANCH }, { "BRANCH.f32", S_BRANCH }, { "BRANCH.i16", S_BRANCH }, { "BRANCH.i32", S_BRANCH },
    { "BRANCH.s16", S_BRANCH }, { "BRANCH.s32", S_BRANCH }, { "BRANCH.u16", S_BRANCH }, { "BRANCH.u32", S_BRANCH },
    { "QUIET.f32", S_QUIET }, { "F16_TO_S32", S_F16_2I }, { "F16_TO_U32", S_F16_2I },
    { "LOGB.f32", S_LOGB }, { "ILOGB.f32", S_ILOGB }, { "FREXPE.f32", S_FREXPE }, { "FREXPM.f32", S_FREXPM },
    { "ATOM_C.i32", S_ATOM_C }, { "ATOM_C_RETURN.i32", S_ATOM_C }, { "ATOM_C1.i32", S_ATOM_C },
    { "ATOM_C1_RETURN.i32", S_ATOM_C }, { "ATOM_CX", S_ATOM_CX }, { "ATOM_POST.i32", S_ATOM_POST },
    { "ATOM_C.i64", S_ATOM_C }, { "ATOM_C_RETURN.i64", S_ATOM_C }, { "ATOM_C1.i64", S_ATOM_C },
    { "ATOM_C1_RETURN.i64", S_ATOM_C },
    { "ACMPXCHG.i32", S_ACMPXCHG }, { "ACMPXCHG.i64", S_ACMPXCHG },
    { "FRCP.f32", S_FRCP }, { "FRSQ.f32", S_FRSQ },
    { "FRCP_APPROX.f32", S_FRCP_APPROX }, { "FRSQ_APPROX.f32", S_FRSQ_APPROX }, { "FMA_RSCALE.f32", S_FMA_RSCALE },
    { "FEXP.f32", S_FEXP }, { "FEXP_TABLE.u4", S_FEXP_TABLE }, { "FLOGD.f32", S_FLOGD },
    { "FLOG_TABLE.f32", S_FLOG_TABLE }, { "FADD_LSCALE.f32", S_FADD_LSCALE },
    { "FSIN_TABLE.u6", S_FSIN_TABLE }, { "FCOS_TABLE.u6", S_FCOS_TABLE },
    { "CLPER.i32", S_CLPER }, { "CLPER_OLD.i32", S_CLPER },
    { "TEXC", S_TEXC }, { "TEXS_2D.f32", S_TEXS }, { "TEXS_2D.f16", S_TEXS }, { "LEA_ATTR_TEX", S_LEA_TEX },
    { "ST_CVT", S_ST_CVT }, { "DTSEL_IMM", S_MOV },      /* DTSEL_IMM: passes src0, tags the tuple's message */
};

/* Why some decoded instructions stay unimplemented: their exact results are not established by any
 * source read (ISA.xml names only, no Mesa use, or undocumented hardware tables). */
static const struct { const char *name, *why; } unimpl_why[] = {
    { "ATOM_POST.i64", "how the FMA unit reads and writes 64-bit register pairs is not documented" },
    { "ATOM_PRE.i64", "semantics not documented and not emitted by Mesa" },
    { "ACMPSTORE.i32", "not emitted by Mesa; semantics not established" },
    { "ACMPSTORE.i64", "not emitted by Mesa; semantics not established" },
    { "FRCP.f16", "hardware table precision undocumented; rusticl 25.0 exposes no cl_khr_fp16 on panfrost" },
    { "FRSQ.f16", "hardware table precision undocumented; rusticl 25.0 exposes no cl_khr_fp16 on panfrost" },
    { "WMASK", "the lane test and the fill immediate are not documented" },
};

/* why a modifier value stays refused */
#define NO_SOURCE " (semantics not documented, not emitted by Mesa)"

static const char *const seg_names[] = { "none", "wls", "stream", "ubo", "tl", "pos", "vary", NULL };
static const char *const dlane_names[] = { "b0", "b1", "b2", "b3", "h0", "h1", "w0", "d0", NULL };

static int lookup(const char *v, const char *const *names, int dflt)
{
    if (!v)
        return dflt;
    for (int i = 0; names[i]; i++)
        if (!strcmp(v, names[i]))
            return i;
    return dflt;
}

static const char *const round_names[] = { "none", "rtp", "rtn", "rtz", "rtna", "rto", NULL };
static const char *const clamp_names[] = { "none", "clamp_0_inf", "clamp_m1_1", "clamp_0_1", NULL };
static const char *const cmp_names[] = { "eq", "gt", "ge", "ne", "lt", "le", "gtlt", "total", NULL };
static const char *const rt_names[] = { "i1", "f1", "m1", NULL };
static const char *const lane_names[] = { "b0", "b1", "b2", "b3", "h0", "h1", NULL };
static const char *const widen_names[] = { "none", "h0", "h1", NULL };
static const char *const sem_mm_names[] = { "nan_suppress", "nan_propagate", "c", "inverse_c", NULL };
static const char *const mux_names[] = { "neg", "int_zero", "fp_zero", "bit", NULL };

static int prepare_instr(bi_xinstr *x, const bi_instr *ins, bi_fault *f)
{
    const struct bi_op_desc *op = &bi_ops[ins->op];
    memset(x, 0, sizeof(*x));
    if (ins->op == BI_OP_INVALID)
        return bx_fault(f, BI_FAULT_INVALID, 0, "invalid instruction encoding %#x", ins->bits);
    for (unsigned i = 0; i < sizeof(sem_names) / sizeof(sem_names[0]); i++)
        if (!strcmp(op->name, sem_names[i].name))
            x->sem = sem_names[i].sem;
    if (!x->sem) {
        const char *why = NULL;
        for (unsigned i = 0; i < sizeof(unimpl_why) / sizeof(unimpl_why[0]); i++)
            if (!strcmp(op->name, unimpl_why[i].name))
                why = unimpl_why[i].why;
        return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "%c%s not implemented%s%s%s",
                    op->unit == BI_UNIT_ADD ? '+' : '*', op->name, why ? " (" : "", why ? why : "", why ? ")" : "");
    }
    x->nsrcs = op->nsrcs;
    char name[16];
    for (unsigned s = 0; s < 4; s++) {
        snprintf(name, sizeof(name), "abs%u", s);
        x->abs[s] = lookup(bi_mod_value_name(ins, name), (const char *const[]){ "none", "abs", NULL }, 0);
        snprintf(name, sizeof(name), "neg%u", s);
        x->neg[s] = lookup(bi_mod_value_name(ins, name), (const char *const[]){ "none", "neg", NULL }, 0);
        snprintf(name, sizeof(name), "widen%u", s);
        x->widen[s] = (uint8_t)lookup(bi_mod_value_name(ins, name), widen_names, 0);
        snprintf(name, sizeof(name), "lane%u", s);
        const char *l = bi_mod_value_name(ins, name);
        if (!l) {
            snprintf(name, sizeof(name), "lanes%u", s);
            l = bi_mod_value_name(ins, name);
        }
        if (!l && s == 1 && x->sem == S_IMUL)
            l = bi_mod_value_name(ins, "widen1");
        int li = lookup(l, lane_names, -1);
        x->lane[s] = li < 0 ? 0xff : li >= 4 ? (uint8_t)(0x10 | (li - 4)) : (uint8_t)li;   /* 0x10|h: half */
    }
    x->round = (uint8_t)lookup(bi_mod_value_name(ins, "round"), round_names, 0);
    x->clamp = (uint8_t)lookup(bi_mod_value_name(ins, "clamp"), clamp_names, 0);
    x->cmp = (uint8_t)lookup(bi_mod_value_name(ins, "cmpf"), cmp_names, 0);
    x->result_type = (uint8_t)lookup(bi_mod_value_name(ins, "result_type"), rt_names, 0);
    x->sat = bi_mod_value_name(ins, "saturate") && !strcmp(bi_mod_value_name(ins, "saturate"), "sat");
    x->not1 = bi_mod_value_name(ins, "not1") && !strcmp(bi_mod_value_name(ins, "not1"), "not");
    x->not_result = bi_mod_value_name(ins, "not_result") && !strcmp(bi_mod_value_name(ins, "not_result"), "not");
    x->minmax = (uint8_t)lookup(bi_mod_value_name(ins, "sem"), sem_mm_names, 0);
    x->mux = (uint8_t)lookup(bi_mod_value_name(ins, "mux"), mux_names, 1);
    x->sext = strstr(op->name, ".s32") != NULL;
    if (x->sem == S_IMUL)
        x->sext = bi_mod_value_name(ins, "extend") && !strcmp(bi_mod_value_name(ins, "extend"), "sext");
    x->logic = strstr(op->name, "_AND") ? L_AND : strstr(op->name, "_OR") ? L_OR : L_XOR;
    x->mask = bi_mod_value_name(ins, "mask") && !strcmp(bi_mod_value_name(ins, "mask"), "mask");
    /* vector lanes and per-source lane selection (lanesN / swzN / swapN: hXY, bXY, bWXYZ) */
    x->vw = strstr(op->name, "v4") ? 8 : 16;
    for (unsigned k = 0; k < 4; k++) {
        for (unsigned j = 0; j < 4; j++)
            x->vsel[k][j] = (uint8_t)j;
        const char *v = NULL;
        static const char *const pfx[] = { "lanes%u", "swz%u", "swap%u" };
        for (unsigned q = 0; q < 3 && !v; q++) {
            snprintf(name, sizeof(name), pfx[q], k);
            v = bi_mod_value_name(ins, name);
        }
        if (!v || strlen(v) < 3 || (v[0] != 'h' && v[0] != 'b'))
            continue;
        unsigned n = (unsigned)strlen(v) - 1;
        for (unsigned j = 0; j < n && j < 4; j++)
            x->vsel[k][j] = (uint8_t)((v[1 + j] - '0') | (v[0] == 'b' && x->vw == 16 ? 0x10 : 0));
    }
    if (x->sem == S_VADD || x->sem == S_VSUB || x->sem == S_VCSEL_S || x->sem == S_VICMP_S)
        x->sext = strstr(op->name, ".v2s") || strstr(op->name, ".v4s");
    if (x->sem == S_VI2F16 || x->sem == S_VF16_2I || x->sem == S_V8TO16 || x->sem == S_I2F_NARROW)
        x->sext = op->name[0] == 'S' || !strncmp(op->name, "V2S", 3) || strstr(op->name, "_TO_V2S");
    if (x->sem == S_HADD)
        x->sext = strstr(op->name, ".s32") != NULL;
    if (x->sem == S_VHADD || x->sem == S_VIABS)
        x->sext = strstr(op->name, ".v2s") || strstr(op->name, ".v4s");
    if (x->sem == S_V8TO16F || x->sem == S_F16_2I)
        x->sext = !strncmp(op->name, "V2S8", 4) || !strncmp(op->name, "F16_TO_S", 8);
    if (x->sem == S_FREXPE || x->sem == S_FREXPM) {
        const char *sq = bi_mod_value_name(ins, "sqrt"), *lg = bi_mod_value_name(ins, "log");
        x->fmode = sq && !strcmp(sq, "sqrt") ? FM_SQRT : lg && !strcmp(lg, "log") ? FM_LOG : FM_PLAIN;
        if (sq && lg && !strcmp(sq, "sqrt") && !strcmp(lg, "log"))
            return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "%s.sqrt.log not implemented" NO_SOURCE, op->name);
    }
    if (x->sem == S_FLOG_TABLE) {
        x->fmode = (uint8_t)lookup(bi_mod_value_name(ins, "mode"), (const char *const[]){ "red", "base2", "natural", NULL }, 0);
        x->widen[0] = (uint8_t)lookup(bi_mod_value_name(ins, "widen0"), widen_names, 0);
    }
    if (x->sem == S_FMA_RSCALE) {
        x->fmode = (uint8_t)lookup(bi_mod_value_name(ins, "special"), (const char *const[]){ "none", "n", "left", "scale16", NULL }, 0);
        if (x->fmode > 1)
            return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "FMA_RSCALE.%s not implemented" NO_SOURCE, bi_mod_value_name(ins, "special"));
    }
    if (x->sem == S_FEXP_TABLE && bi_mod_value_name(ins, "adj") && strcmp(bi_mod_value_name(ins, "adj"), "none"))
        return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "FEXP_TABLE.%s not implemented" NO_SOURCE, bi_mod_value_name(ins, "adj"));
    if (x->sem == S_VIMUL && x->vw == 8) {
        const char *r1 = bi_mod_value_name(ins, "replicate1");
        if (r1 && strlen(r1) == 5)
            for (unsigned j = 0; j < 4; j++)
                x->vsel[1][j] = (uint8_t)(r1[1 + j] - '0');
    }
    if (x->sem == S_HADD)
        x->round = bi_mod_value_name(ins, "round") && !strcmp(bi_mod_value_name(ins, "round"), "rtp") ? R_RTP : R_RTN;
    if (x->sem == S_LDEXP && bi_mod_value_name(ins, "round") && !strncmp(bi_mod_value_name(ins, "round"), "inf", 3))
        return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "LDEXP.%s not implemented" NO_SOURCE, bi_mod_value_name(ins, "round"));
    if (!strcmp(op->name, "SEG_ADD"))
        x->sem = op->unit == BI_UNIT_FMA ? S_SEG_ADD_LO : S_SEG_ADD_HI;
    x->seg = (uint8_t)lookup(bi_mod_value_name(ins, "seg"), seg_names, 0);
    x->dlane = (uint8_t)lookup(bi_mod_value_name(ins, "lane_dest"), dlane_names, DL_W0);
    x->ext = (uint8_t)lookup(bi_mod_value_name(ins, "extend"), (const char *const[]){ "none", "sext", "zext", NULL }, 0);
    x->preserve_null = bi_mod_value_name(ins, "preserve_null") && !strcmp(bi_mod_value_name(ins, "preserve_null"), "preserve_null");
    if (x->sem == S_BRANCHZ || x->sem == S_BRANCH) {
        const char *t = strchr(op->name, '.') + 1;
        x->ext = t[0] == 'i' ? 0 : t[0] == 's' ? 1 : t[0] == 'u' ? 2 : 3;
        x->size = (uint8_t)atoi(t + 1);
    }
    if (x->sem == S_LOAD || x->sem == S_STORE || x->sem == S_AXCHG) {
        x->size = (uint8_t)(atoi(strchr(op->name, 'i') + 1) / 8);
        if (x->seg == SEG_STREAM || x->seg > SEG_TL)
            return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "%s.%s not implemented", op->name, seg_names[x->seg]);
    }
    if (x->sem == S_ATOM_C || x->sem == S_ATOM_POST) {
        static const char *const opc_names[] = { "-", "aadd", "asmin", "asmax", "aumin", "aumax", "aand", "aor",
                                                 "axor", NULL };
        static const char *const c1_names[] = { "ainc", "adec", "aumax1", "asmax1", "aor1", NULL };
        const char *v = bi_mod_value_name(ins, "atom_opc");
        int o = lookup(v, opc_names, 0);
        x->atom_one = 0;
        if (o <= 0 && strstr(op->name, "ATOM_C1")) {
            static const uint8_t c1_op[] = { A_ADD, A_ADD, A_UMAX, A_SMAX, A_OR };
            int c = lookup(v, c1_names, -1);
            if (c < 0)
                return bx_fault(f, BI_FAULT_INVALID, 0, "%s: reserved atom_opc", op->name);
            o = c1_op[c];
            x->atom_one = c == 1 ? 2 : 1;       /* implied operand: 1 (2: -1) */
        }
        if (o <= 0)     /* incl. the .i64 forms' aaddu / aadds: semantics not documented */
            return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "%s.%s not implemented", op->name, v ? v : "?");
        x->atom_opc = (uint8_t)o;
        x->atom_ret = strstr(op->name, "_RETURN") != NULL;
        x->size = strstr(op->name, ".i64") ? 8 : 4;
    }
    if (x->sem == S_ACMPXCHG)
        x->size = strstr(op->name, ".i64") ? 8 : 4;
    if ((x->sem == S_SEG_ADD_LO || x->sem == S_SEG_ADD_HI) && x->seg != SEG_WLS && x->seg != SEG_TL)
        return bx_fault(f, BI_FAULT_INVALID, 0, "SEG_ADD: reserved segment");
    if (x->sem == S_CLPER) {
        /* CLPER: src0 of the lane src1 names (xor: this lane ^ src1) in this lane's group of
         * `subgroup` lanes, or the inactive_result constant when that lane is not running this
         * clause.  CLPER_OLD (G71/G72/G31, quirk BIFROST_LIMITED_CLPER): groups of 4, zero. */
        static const char *const sg_names[] = { "subgroup2", "subgroup4", "subgroup8", "subgroup16", NULL };
        static const char *const ir_names[] = { "zero", "umax", "i1", "v2i1", "smin", "smax", "v2smin", "v2smax",
                                                "v4smin", "v4smax", "f1", "v2f1", "infn", "inf", "v2infn", "v2inf",
                                                NULL };
        static const uint32_t ir_value[] = { 0, 0xffffffff, 1, 0x00010001, 0x80000000, 0x7fffffff, 0x80008000,
                                             0x7fff7fff, 0x80808080, 0x7f7f7f7f, 0x3f800000, 0x3c003c00,
                                             0xff800000, 0x7f800000, 0xfc00fc00, 0x7c007c00 };
        x->clper_group = 4;
        x->clper_inactive = 0;
        x->clper_xor = 0;
        if (!strcmp(op->name, "CLPER.i32")) {
            const char *lop = bi_mod_value_name(ins, "lane_op");
            if (lop && strcmp(lop, "none") && strcmp(lop, "xor"))
                return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "CLPER.%s not implemented" NO_SOURCE, lop);
            x->clper_xor = lop && !strcmp(lop, "xor");
            int g = lookup(bi_mod_value_name(ins, "subgroup"), sg_names, 1);
            int r = lookup(bi_mod_value_name(ins, "inactive_result"), ir_names, 0);
            x->clper_group = (uint8_t)(2u << g);
            x->clper_inactive = ir_value[r];
        }
    }
    if (!strcmp(op->name, "DTSEL_IMM")) {
        /* the descriptor table of the same tuple's LEA_ATTR_TEX (Mesa: attribute_1 = the primary
         * attribute table, where panfrost puts images; LEA_ATTR_TEX alone uses the secondary) */
        x->table = (uint8_t)(1 + lookup(bi_mod_value_name(ins, "table"),
                                        (const char *const[]){ "attribute_1", "attribute_2", "none", "flat", NULL }, 2));
    }
    if (x->sem == S_TEXS) {
        int zero = lookup(bi_mod_value_name(ins, "lod_mode"), (const char *const[]){ "computed_lod", "zero_lod", NULL }, 1);
        x->texdesc = bi_tex_texs_desc(ins->imm[0], ins->imm[1], strstr(op->name, ".f16") != NULL, zero);
    }
    if (x->sem == S_LEA_TEX) {
        static const char *const rf_names[] = { "f16", "f32", "s32", "u32", "s16", "u16", "f64", "i64", "auto", NULL };
        static const uint8_t rf_value[] = { BI_RF_F16, BI_RF_F32, BI_RF_I32, BI_RF_U32, BI_RF_I16, BI_RF_U16 };
        const char *v = bi_mod_value_name(ins, "register_format");
        int r = lookup(v, rf_names, 8);
        if (r >= 6)
            return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "LEA_ATTR_TEX.%s not implemented", v ? v : "auto");
        x->regfmt = rf_value[r];
    }
    if (x->sem == S_ST_CVT)
        x->size = (uint8_t)(1 + lookup(bi_mod_value_name(ins, "vecsize"),
                                       (const char *const[]){ "none", "v2", "v3", "v4", NULL }, 0));
    if ((x->sem == S_FCMP || x->sem == S_VFCMP) && x->cmp == C_TOTAL)
        return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "FCMP.total not implemented" NO_SOURCE);
    if (x->sem == S_CLZ && x->mask)
        return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "CLZ.mask not implemented" NO_SOURCE);
    if ((x->sem == S_FADD || x->sem == S_FROUND) && x->round == R_RTNA && x->sem != S_FROUND)
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
            int ts = b->sem == S_JUMP ? 0 : b->sem == S_BRANCH ? 2 :
                     (b->sem == S_BRANCHZ || b->sem == S_BRANCHZ32 || b->sem == S_BRANCHZ16) ? 1 : -1;
            if (ts >= 0) {
                const bi_src *src = &c->t[i].add.src[ts];
                x->add[i].abs_target = !(src->kind == BI_SRC_CONST && c->t[i].fau_mod != BI_CONSTMOD_NONE);
            }
        }
        if (x->add[i].sem == S_LEA_TEX) {
            if (x->fma[i].table != 1)
                return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0,
                            "clause %#x: LEA_ATTR_TEX without DTSEL_IMM.attribute_1 (secondary attribute table) not implemented",
                            c->offset);
        } else if (x->fma[i].table && x->add[i].sem != S_NOP) {
            return bx_fault(f, BI_FAULT_UNIMPLEMENTED, 0, "clause %#x: DTSEL_IMM with +%s not implemented", c->offset,
                        bi_ops[c->t[i].add.op].name);
        }
        if ((x->add[i].sem == S_ATOM_CX) != (x->fma[i].sem == S_ATOM_C))
            return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: ATOM_C without ATOM_CX (or the reverse)", c->offset);
        if (x->add[i].sem == S_ATOM_CX) {
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
        x->ninstrs += (x->fma[i].sem != S_NOP) + (x->add[i].sem != S_NOP);
        x->fast_fma[i] = fast_kind(&x->fma[i]);
        x->fast_add[i] = fast_kind(&x->add[i]);
    }
    return BI_EXEC_OK;
}


/* Common ALU forms run as loops over all n lanes of the warp (lanes outside the exec mask compute values
 * that are never committed); everything else goes through exec_op lane by lane.  The kinds are
 * chosen once per clause (fast_kind) and give exactly exec_op's results. */
static uint8_t fast_kind(const bi_xinstr *x)
{
    int plain_f = !x->round;             /* binary32 sources (abs/neg allowed), round to nearest */
    for (unsigned k = 0; k < 3; k++)
        plain_f &= !x->widen[k];
    switch (x->sem) {
    case S_NOP: return K_NOP;
    case S_MOV: return K_MOV;
    case S_IADD: return x->lane[1] == 0xff && !x->sat ? K_IADD : K_GENERIC;
    case S_ISUB: return x->lane[1] == 0xff && !x->sat ? K_ISUB : K_GENERIC;
    case S_IADDC: return K_IADDC;
    case S_IMUL: return x->lane[1] == 0xff ? K_IMUL : K_GENERIC;
    case S_LSHIFT: case S_RSHIFT:
        if (x->lane[2] != 0xff && x->lane[2] != 0)
            return K_GENERIC;
        return x->sem == S_LSHIFT ? K_LSHIFT : K_RSHIFT;
    case S_ICMP_I: case S_ICMP_S: case S_ICMP_U: return K_ICMP;
    case S_CSEL_I: case S_CSEL_S: case S_CSEL_U: return K_CSEL;
    case S_FADD: return plain_f ? K_FADD : K_GENERIC;
    case S_FMA: return plain_f ? K_FMA : K_GENERIC;
    case S_FCMP: return plain_f ? K_FCMP : K_GENERIC;
    case S_ZEXT16: return K_ZEXT16;
    case S_MUX: return K_MUX;
    case S_MKVEC: return K_MKVEC;
    default: return K_GENERIC;
    }
}
