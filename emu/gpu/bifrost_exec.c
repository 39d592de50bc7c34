/* Bifrost warp executor (ALU subset).  Semantics follow /work/shared/reference/bifrost-isa.md;
 * points the reference leaves open are marked "assumption" and listed in README.md. */
#include "bifrost_exec.h"
#include "bifrost_tex.h"

#include <fenv.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum {
    S_NONE, S_NOP, S_MOV, S_IADD, S_ISUB, S_IADDC, S_ISUBB, S_IMUL, S_LSHIFT, S_RSHIFT, S_ARSHIFT,
    S_CSEL_I, S_CSEL_S, S_CSEL_U, S_CSEL_F, S_MUX, S_ICMP_I, S_ICMP_S, S_ICMP_U, S_FCMP,
    S_FADD, S_FMA, S_FMIN, S_FMAX, S_F2S, S_F2U, S_S2F, S_U2F, S_ZEXT16, S_SEXT16, S_ZEXT8,
    S_SEXT8, S_MKVEC, S_CLZ, S_POPCOUNT, S_BITREV, S_FROUND, S_BRANCHZ32, S_BRANCHZ16, S_JUMP,
    S_LOAD, S_STORE, S_AXCHG, S_ATOM_CX, S_ACMPXCHG, S_SEG_ADD_LO, S_SEG_ADD_HI, S_BARRIER,
    S_VADD, S_VSUB, S_VFADD, S_VFMA, S_VFMIN, S_VFMAX, S_VFCMP, S_V2F32_TO_V2F16, S_F16_TO_F32,
    S_MKVEC4, S_SWZ, S_VMUX, S_VCSEL_I, S_VCSEL_S, S_VCSEL_U, S_VCSEL_F, S_VICMP_I, S_VICMP_S, S_VICMP_U,
    S_VLSHIFT, S_VRSHIFT, S_VARSHIFT, S_VIMUL, S_VI2F16, S_VF16_2I, S_V8TO16,
    S_VCLZ, S_VFROUND, S_VIABS, S_VHADD, S_V8TO16F,
    S_I2F_NARROW, S_IABS, S_HADD, S_LDEXP, S_BRANCHZ, S_BRANCH, S_QUIET, S_F16_2I, S_LOGB, S_ILOGB,
    S_FREXPE, S_FREXPM, S_ATOM_C, S_ATOM_POST, S_FRCP, S_FRSQ,
    S_FRCP_APPROX, S_FRSQ_APPROX, S_FMA_RSCALE, S_FEXP, S_FEXP_TABLE, S_FLOGD, S_FLOG_TABLE, S_FADD_LSCALE,
    S_FSIN_TABLE, S_FCOS_TABLE, S_CLPER,
    S_TEXC, S_TEXS, S_LEA_TEX, S_ST_CVT,         /* texture / image messages (bifrost_tex.c) */
};
enum { FM_PLAIN, FM_SQRT, FM_LOG };              /* FREXPE/FREXPM modes */
enum { LT_RED, LT_BASE2, LT_NATURAL };          /* FLOG_TABLE modes */
/* atomic operations (bi_xinstr.atom_opc) */
enum { A_NONE, A_ADD, A_SMIN, A_SMAX, A_UMIN, A_UMAX, A_AND, A_OR, A_XOR };
static uint32_t atom_op32(unsigned opc, uint32_t a, uint32_t b);
enum { R_NONE, R_RTP, R_RTN, R_RTZ, R_RTNA, R_RTO };
enum { C_EQ, C_GT, C_GE, C_NE, C_LT, C_LE, C_GTLT, C_TOTAL };
enum { L_AND, L_OR, L_XOR };

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
enum { SEG_NONE, SEG_WLS, SEG_STREAM, SEG_UBO, SEG_TL };
enum { DL_W0 = 6, DL_D0 = 7 };

static int fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return rc;
}

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

static int prepare_instr(bi_xinstr *x, const bi_instr *ins, char *err, size_t errlen)
{
    const struct bi_op_desc *op = &bi_ops[ins->op];
    memset(x, 0, sizeof(*x));
    if (ins->op == BI_OP_INVALID)
        return fail(err, errlen, BI_EXEC_ERROR, "invalid instruction encoding %#x", ins->bits);
    for (unsigned i = 0; i < sizeof(sem_names) / sizeof(sem_names[0]); i++)
        if (!strcmp(op->name, sem_names[i].name))
            x->sem = sem_names[i].sem;
    if (!x->sem) {
        const char *why = NULL;
        for (unsigned i = 0; i < sizeof(unimpl_why) / sizeof(unimpl_why[0]); i++)
            if (!strcmp(op->name, unimpl_why[i].name))
                why = unimpl_why[i].why;
        return fail(err, errlen, BI_EXEC_UNIMPLEMENTED, "%c%s not implemented%s%s%s",
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
            return fail(err, errlen, BI_EXEC_UNIMPLEMENTED, "%s.sqrt.log not implemented" NO_SOURCE, op->name);
    }
    if (x->sem == S_FLOG_TABLE) {
        x->fmode = (uint8_t)lookup(bi_mod_value_name(ins, "mode"), (const char *const[]){ "red", "base2", "natural", NULL }, 0);
        x->widen[0] = (uint8_t)lookup(bi_mod_value_name(ins, "widen0"), widen_names, 0);
    }
    if (x->sem == S_FMA_RSCALE) {
        x->fmode = (uint8_t)lookup(bi_mod_value_name(ins, "special"), (const char *const[]){ "none", "n", "left", "scale16", NULL }, 0);
        if (x->fmode > 1)
            return fail(err, errlen, BI_EXEC_UNIMPLEMENTED, "FMA_RSCALE.%s not implemented" NO_SOURCE, bi_mod_value_name(ins, "special"));
    }
    if (x->sem == S_FEXP_TABLE && bi_mod_value_name(ins, "adj") && strcmp(bi_mod_value_name(ins, "adj"), "none"))
        return fail(err, errlen, BI_EXEC_UNIMPLEMENTED, "FEXP_TABLE.%s not implemented" NO_SOURCE, bi_mod_value_name(ins, "adj"));
    if (x->sem == S_VIMUL && x->vw == 8) {
        const char *r1 = bi_mod_value_name(ins, "replicate1");
        if (r1 && strlen(r1) == 5)
            for (unsigned j = 0; j < 4; j++)
                x->vsel[1][j] = (uint8_t)(r1[1 + j] - '0');
    }
    if (x->sem == S_HADD)
        x->round = bi_mod_value_name(ins, "round") && !strcmp(bi_mod_value_name(ins, "round"), "rtp") ? R_RTP : R_RTN;
    if (x->sem == S_LDEXP && bi_mod_value_name(ins, "round") && !strncmp(bi_mod_value_name(ins, "round"), "inf", 3))
        return fail(err, errlen, BI_EXEC_UNIMPLEMENTED, "LDEXP.%s not implemented" NO_SOURCE, bi_mod_value_name(ins, "round"));
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
            return fail(err, errlen, BI_EXEC_UNIMPLEMENTED, "%s.%s not implemented", op->name, seg_names[x->seg]);
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
                return fail(err, errlen, BI_EXEC_ERROR, "%s: reserved atom_opc", op->name);
            o = c1_op[c];
            x->atom_one = c == 1 ? 2 : 1;       /* implied operand: 1 (2: -1) */
        }
        if (o <= 0)     /* incl. the .i64 forms' aaddu / aadds: semantics not documented */
            return fail(err, errlen, BI_EXEC_UNIMPLEMENTED, "%s.%s not implemented", op->name, v ? v : "?");
        x->atom_opc = (uint8_t)o;
        x->atom_ret = strstr(op->name, "_RETURN") != NULL;
        x->size = strstr(op->name, ".i64") ? 8 : 4;
    }
    if (x->sem == S_ACMPXCHG)
        x->size = strstr(op->name, ".i64") ? 8 : 4;
    if ((x->sem == S_SEG_ADD_LO || x->sem == S_SEG_ADD_HI) && x->seg != SEG_WLS && x->seg != SEG_TL)
        return fail(err, errlen, BI_EXEC_ERROR, "SEG_ADD: reserved segment");
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
                return fail(err, errlen, BI_EXEC_UNIMPLEMENTED, "CLPER.%s not implemented" NO_SOURCE, lop);
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
            return fail(err, errlen, BI_EXEC_UNIMPLEMENTED, "LEA_ATTR_TEX.%s not implemented", v ? v : "auto");
        x->regfmt = rf_value[r];
    }
    if (x->sem == S_ST_CVT)
        x->size = (uint8_t)(1 + lookup(bi_mod_value_name(ins, "vecsize"),
                                       (const char *const[]){ "none", "v2", "v3", "v4", NULL }, 0));
    if ((x->sem == S_FCMP || x->sem == S_VFCMP) && x->cmp == C_TOTAL)
        return fail(err, errlen, BI_EXEC_UNIMPLEMENTED, "FCMP.total not implemented" NO_SOURCE);
    if (x->sem == S_CLZ && x->mask)
        return fail(err, errlen, BI_EXEC_UNIMPLEMENTED, "CLZ.mask not implemented" NO_SOURCE);
    if ((x->sem == S_FADD || x->sem == S_FROUND) && x->round == R_RTNA && x->sem != S_FROUND)
        return fail(err, errlen, BI_EXEC_UNIMPLEMENTED, "rtna rounding on %s", op->name);
    return BI_EXEC_OK;
}

static inline uint32_t sext28(uint32_t v) { return (uint32_t)((int32_t)(v << 4) >> 4); }
static uint8_t fast_kind(const bi_xinstr *x);

int bi_prepare_clause(bi_xclause *x, const bi_clause *c, char *err, size_t errlen)
{
    memset(x, 0, sizeof(*x));
    x->c = *c;
    for (unsigned i = 0; i < c->ntuples; i++) {
        int rc = prepare_instr(&x->fma[i], &c->t[i].fma, err, errlen);
        if (rc)
            return rc;
        rc = prepare_instr(&x->add[i], &c->t[i].add, err, errlen);
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
                return fail(err, errlen, BI_EXEC_UNIMPLEMENTED,
                            "clause %#x: LEA_ATTR_TEX without DTSEL_IMM.attribute_1 (secondary attribute table) not implemented",
                            c->offset);
        } else if (x->fma[i].table && x->add[i].sem != S_NOP) {
            return fail(err, errlen, BI_EXEC_UNIMPLEMENTED, "clause %#x: DTSEL_IMM with +%s not implemented", c->offset,
                        bi_ops[c->t[i].add.op].name);
        }
        if ((x->add[i].sem == S_ATOM_CX) != (x->fma[i].sem == S_ATOM_C))
            return fail(err, errlen, BI_EXEC_ERROR, "clause %#x: ATOM_C without ATOM_CX (or the reverse)", c->offset);
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

/* ---- float helpers -------------------------------------------------------------------------- */

static inline float f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t u32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline int is_nan(uint32_t u) { return (u & 0x7fffffff) > 0x7f800000; }
static inline int is_denorm(uint32_t u) { return (u & 0x7f800000) == 0 && (u & 0x7fffff); }

uint32_t bi_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    if (e == 0x1f)
        return sign | 0x7f800000 | (m << 13);
    if (e == 0) {
        if (!m)
            return sign;
        e = 127 - 15 + 1;
        while (!(m & 0x400)) {
            m <<= 1;
            e--;
        }
        return sign | (e << 23) | ((m & 0x3ff) << 13);
    }
    return sign | ((e + 127 - 15) << 23) | (m << 13);
}

typedef struct {
    int ftz;
} fctx;

static uint32_t fsrc(const bi_xinstr *x, unsigned s, uint32_t v, const fctx *fc)
{
    if (x->widen[s] == 1)
        v = bi_f16_to_f32((uint16_t)v);
    else if (x->widen[s] == 2)
        v = bi_f16_to_f32((uint16_t)(v >> 16));
    if (x->abs[s])
        v &= 0x7fffffff;
    if (x->neg[s])
        v ^= 0x80000000;
    if (fc->ftz && is_denorm(v))
        v &= 0x80000000;
    return v;
}

/* NaN results (assumption): the first NaN operand, quieted; otherwise the default NaN 0x7fc00000. */
static uint32_t nan_result(uint32_t r, const uint32_t *in, unsigned n)
{
    if (!is_nan(r))
        return r;
    for (unsigned i = 0; i < n; i++)
        if (is_nan(in[i]))
            return in[i] | 0x00400000;
    return 0x7fc00000;
}

static int fe_mode(int round)
{
    switch (round) {
    case R_RTP: return FE_UPWARD;
    case R_RTN: return FE_DOWNWARD;
    case R_RTZ: case R_RTO: return FE_TOWARDZERO;
    default: return FE_TONEAREST;
    }
}

/* a*b + c (fused) or a + b, rounded per `round`. */
static uint32_t farith(int fma, uint32_t a, uint32_t b, uint32_t c, int round)
{
    volatile float fa = f32(a), fb = f32(b), fc = f32(c), r;
    if (round != R_NONE)
        fesetround(fe_mode(round));
    if (round == R_RTO)
        feclearexcept(FE_INEXACT);
    r = fma ? fmaf(fa, fb, fc) : fa + fb;
    uint32_t u = u32(r);
    if (round == R_RTO && fetestexcept(FE_INEXACT) && !is_nan(u) && (u & 0x7fffffff) != 0x7f800000)
        u |= 1;
    if (round != R_NONE)
        fesetround(FE_TONEAREST);
    return u;
}

/* Output clamps (assumption: NaN clamps to +0; -0 is kept). */
static uint32_t fclamp(uint32_t u, int clamp)
{
    if (!clamp)
        return u;
    if (is_nan(u))
        return 0;
    float f = f32(u);
    float lo = clamp == 2 ? -1.0f : 0.0f;
    if (f < lo)
        return u32(lo);
    if (clamp != 1 && f > 1.0f)
        return u32(1.0f);
    return u;
}

static uint32_t fout(uint32_t r, const bi_xinstr *x, const uint32_t *in, unsigned n, const fctx *fc)
{
    r = nan_result(r, in, n);
    if (fc->ftz && is_denorm(r))
        r &= 0x80000000;
    return fclamp(r, x->clamp);
}

static int fcmp(uint32_t a, uint32_t b, int cmp)
{
    float fa = f32(a), fb = f32(b);
    switch (cmp) {
    case C_EQ: return fa == fb;
    case C_GT: return fa > fb;
    case C_GE: return fa >= fb;
    case C_NE: return !(fa == fb);          /* unordered: true */
    case C_LT: return fa < fb;
    case C_LE: return fa <= fb;
    case C_GTLT: return fa < fb || fa > fb;
    default: return 0;
    }
}

static uint32_t bool_result(int b, int rt)
{
    if (!b)
        return 0;
    return rt == 0 ? 1 : rt == 1 ? 0x3f800000 : 0xffffffff;
}

/* minimum/maximum with -0 < +0; sem per the FMIN/FMAX `sem` modifier (assumption for c/inverse_c:
 * C's a < b ? a : b and its mirror). */
static uint32_t fminmax(uint32_t a, uint32_t b, int is_max, int sem)
{
    int na = is_nan(a), nb = is_nan(b);
    if (na || nb) {
        switch (sem) {
        case 0: /* nan_suppress */
            if (na && nb)
                return a | 0x00400000;
            return na ? b : a;
        case 1: /* nan_propagate */
            return (na ? a : b) | 0x00400000;
        case 2: return b;  /* c: comparison false -> second operand */
        default: return a;
        }
    }
    float fa = f32(a), fb = f32(b);
    int a_less = fa < fb || (fa == fb && (a & 0x80000000) && !(b & 0x80000000));
    int pick_a = is_max ? !a_less : a_less;
    if (fa == fb && a == b)
        pick_a = 1;
    return pick_a ? a : b;
}

static uint32_t f2i(uint32_t a, int rnd, int is_signed)
{
    if (is_nan(a))
        return 0;
    double d = f32(a);
    switch (rnd) {
    case R_RTP: d = ceil(d); break;
    case R_RTN: d = floor(d); break;
    case R_RTNA: d = round(d); break;
    case R_NONE: case R_RTZ: default: d = trunc(d); break;     /* conversions to int default to RTZ */
    }
    if (is_signed) {
        if (d >= 2147483647.0)
            return 0x7fffffff;
        if (d <= -2147483648.0)
            return 0x80000000;
        return (uint32_t)(int32_t)d;
    }
    if (d <= 0)
        return 0;
    if (d >= 4294967295.0)
        return 0xffffffff;
    return (uint32_t)d;
}

static uint32_t i2f(uint32_t a, int round, int is_signed)
{
    volatile double d = is_signed ? (double)(int32_t)a : (double)a;   /* exact */
    volatile float r;
    if (round == R_RTNA) {
        /* ties away from zero: round the magnitude with RTZ, then fix up */
        fesetround(FE_TOWARDZERO);
        r = (float)d;
        fesetround(FE_TONEAREST);
        double rem = fabs(d) - fabs((double)r);
        float next = nextafterf(r, d < 0 ? -INFINITY : INFINITY);
        if (rem * 2 >= fabs((double)next) - fabs((double)r) && rem != 0)
            r = next;
        return u32(r);
    }
    if (round != R_NONE)
        fesetround(fe_mode(round));
    r = (float)d;
    if (round != R_NONE)
        fesetround(FE_TONEAREST);
    return u32(r);
}

static uint32_t fround(uint32_t a, int round)
{
    if (is_nan(a))
        return a | 0x00400000;
    float f = f32(a), r;
    switch (round) {
    case R_RTP: r = ceilf(f); break;
    case R_RTN: r = floorf(f); break;
    case R_RTZ: r = truncf(f); break;
    case R_RTNA: r = roundf(f); break;
    default: r = nearbyintf(f); break;
    }
    return u32(r);
}

static inline uint32_t lane_sel(uint32_t v, uint8_t lane, int sext)
{
    if (lane == 0xff)
        return v;
    if (lane & 0x10) {
        uint32_t h = (v >> (16 * (lane & 1))) & 0xffff;
        return sext ? (uint32_t)(int32_t)(int16_t)h : h;
    }
    uint32_t b = (v >> (8 * lane)) & 0xff;
    return sext ? (uint32_t)(int32_t)(int8_t)b : b;
}

static uint32_t bitrev(uint32_t v)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        if (v & (1u << i))
            r |= 1u << (31 - i);
    return r;
}

/* ---- 16-bit float and vector helpers ---------------------------------------------------------- */

static int is_nan16(uint32_t h) { return (h & 0x7fff) > 0x7c00; }

/* binary32 -> binary16 with a rounding mode (R_NONE = to nearest even). */
static uint16_t f32_to_f16(uint32_t x, int round)
{
    uint32_t sign = (x >> 16) & 0x8000, exp = (x >> 23) & 0xff, man = x & 0x7fffff;
    if (exp == 0xff)
        return (uint16_t)(sign | 0x7c00 | (man ? 0x200 | (man >> 13) : 0));
    int e = (int)exp - 127 + 15;
    uint32_t m = exp ? man | 0x800000 : man;
    if (!exp)
        e = 1 - 127 + 15;
    unsigned shift = 13;
    if (e < 1) {
        shift += (unsigned)(1 - e);
        e = 1;
    }
    uint32_t q, rem, half;
    if (shift > 31) {
        q = 0;
        rem = m;
        half = 0x80000000u;   /* m < half: below half an ulp */
        if (!m)
            rem = 0;
    } else {
        q = m >> shift;
        rem = m & ((1u << shift) - 1);
        half = 1u << (shift - 1);
    }
    int inc;
    switch (round) {
    case R_RTZ: inc = 0; break;
    case R_RTP: inc = !sign && rem; break;
    case R_RTN: inc = sign && rem; break;
    case R_RTNA: inc = rem >= half && rem; break;
    default: inc = rem > half || (rem == half && (q & 1)); break;
    }
    q += (uint32_t)inc;
    uint32_t r = ((uint32_t)(e - 1) << 10) + q;     /* q includes the hidden bit for normals */
    if (r >= 0x7c00) {
        int to_inf = round == R_NONE || round == R_RTNA || (round == R_RTP && !sign) || (round == R_RTN && sign);
        r = to_inf ? 0x7c00 : 0x7bff;
    }
    return (uint16_t)(sign | r);
}

uint16_t bi_f32_to_f16(uint32_t x, int round)
{
    return f32_to_f16(x, round);
}

/* Round-to-odd narrowing double -> float (exact when later rounded to 16 bits). */
static uint32_t ro_f32(double d)
{
    volatile double v = d;
    volatile float f;
    fesetround(FE_TOWARDZERO);
    feclearexcept(FE_INEXACT);
    f = (float)v;
    uint32_t u = u32(f);
    if (fetestexcept(FE_INEXACT) && (u & 0x7fffffff) < 0x7f800000)
        u |= 1;
    fesetround(FE_TONEAREST);
    return u;
}

static uint32_t h16(uint32_t v, unsigned idx) { return (v >> (16 * (idx & 1))) & 0xffff; }

/* the 16-bit lane j of source value v after the source's lane selection */
static uint32_t vsel16(const bi_xinstr *x, unsigned s, uint32_t v, unsigned j, int sext)
{
    uint8_t sel = x->vsel[s][j];
    if (sel & 0x10) {
        uint32_t b = (v >> (8 * (sel & 3))) & 0xff;
        return (sext ? (uint32_t)(int32_t)(int8_t)b : b) & 0xffff;
    }
    return h16(v, sel);
}

static uint32_t vsel8(const bi_xinstr *x, unsigned s, uint32_t v, unsigned j)
{
    return (v >> (8 * (x->vsel[s][j] & 3))) & 0xff;
}

static uint32_t fsrc16(const bi_xinstr *x, unsigned s, uint32_t h, const fctx *fc)
{
    if (x->abs[s])
        h &= 0x7fff;
    if (x->neg[s])
        h ^= 0x8000;
    if (fc->ftz && (h & 0x7c00) == 0)
        h &= 0x8000;
    return h;
}

static uint32_t fout16(uint32_t r, const bi_xinstr *x, const uint32_t *in, unsigned n, const fctx *fc)
{
    if (is_nan16(r)) {
        r = 0x7e00;
        for (unsigned i = 0; i < n; i++)
            if (is_nan16(in[i])) {
                r = in[i] | 0x200;
                break;
            }
        return r;   /* assumption: clamps send NaN to +0 like the f32 path */
    }
    if (fc->ftz && (r & 0x7c00) == 0)
        r &= 0x8000;
    if (x->clamp) {
        float f = f32(bi_f16_to_f32((uint16_t)r)), lo = x->clamp == 2 ? -1.0f : 0.0f;
        if (f < lo)
            r = f32_to_f16(u32(lo), R_NONE);
        else if (x->clamp != 1 && f > 1.0f)
            r = 0x3c00;
    }
    return r;
}

static uint32_t exec_vec(const bi_xinstr *x, const uint32_t *s, const fctx *fc)
{
    uint32_t r = 0;
    if (x->sem == S_MKVEC4) {
        for (unsigned j = 0; j < 4; j++)
            r |= ((s[j] >> (x->lane[j] == 0xff ? 0 : 8 * (x->lane[j] & 3))) & 0xff) << (8 * j);
        return r;
    }
    if (x->sem == S_V2F32_TO_V2F16) {
        for (unsigned j = 0; j < 2; j++) {
            uint32_t v = s[j];
            if (x->abs[j]) v &= 0x7fffffff;
            if (x->neg[j]) v ^= 0x80000000;
            uint32_t h = f32_to_f16(v, x->round);
            uint32_t in = f32_to_f16(v, R_RTZ);
            r |= fout16(h, x, &in, 1, fc) << (16 * j);
        }
        return r;
    }
    if (x->sem == S_F16_TO_F32) {
        uint32_t h = h16(s[0], x->lane[0] == 0xff ? 0 : x->lane[0] & 1);
        return bi_f16_to_f32((uint16_t)h);
    }
    if (x->sem == S_VLSHIFT || x->sem == S_VRSHIFT || x->sem == S_VARSHIFT || x->sem == S_VIMUL) {
        unsigned n = 32 / x->vw, wmask = (1u << x->vw) - 1;
        for (unsigned j = 0; j < n; j++) {
            uint32_t a, b, sh;
            if (x->vw == 8) {
                a = (s[0] >> (8 * j)) & 0xff;
                b = vsel8(x, 1, s[1], j);
                sh = vsel8(x, 2, s[2], j);
            } else {
                a = x->sem == S_VIMUL ? vsel16(x, 0, s[0], j, 0) : h16(s[0], j);
                b = vsel16(x, 1, s[1], j, 0);
                sh = (s[2] >> (8 * (x->vsel[2][j] & 3))) & 0xff;     /* lanes2: a byte per lane */
            }
            sh &= x->vw - 1;     /* assumption: amount modulo the lane width */
            uint32_t v;
            if (x->sem == S_VIMUL)
                v = a * b;
            else if (x->sem == S_VARSHIFT)
                v = (uint32_t)((x->vw == 8 ? (int32_t)(int8_t)a : (int32_t)(int16_t)a) >> sh);
            else {
                v = x->sem == S_VLSHIFT ? a << sh : a >> sh;
                uint32_t m = x->not1 ? ~b : b;
                v = x->logic == L_AND ? (v & m) : x->logic == L_OR ? (v | m) : (v ^ m);
                if (x->not_result)
                    v = ~v;
            }
            r |= (v & wmask) << (x->vw * j);
        }
        return r;
    }
    if (x->sem == S_VCLZ || x->sem == S_VIABS || x->sem == S_VHADD) {
        unsigned n = 32 / x->vw, bits = x->vw, wmask = (1u << bits) - 1;
        for (unsigned j = 0; j < n; j++) {
            uint32_t a = bits == 8 ? vsel8(x, 0, s[0], j) : vsel16(x, 0, s[0], j, 0);
            uint32_t b = bits == 8 ? vsel8(x, 1, s[1], j) : vsel16(x, 1, s[1], j, 0);
            int32_t sa = bits == 8 ? (int8_t)a : (int16_t)a, sb = bits == 8 ? (int8_t)b : (int16_t)b;
            uint32_t v;
            if (x->sem == S_VCLZ)
                v = a ? (uint32_t)__builtin_clz(a) - (32 - bits) : bits;
            else if (x->sem == S_VIABS)
                v = (uint32_t)(sa < 0 ? -sa : sa);
            else {
                int32_t t = x->sext ? sa + sb : (int32_t)(a + b);
                if (x->round == R_RTP)
                    t += 1;
                v = (uint32_t)(t >> 1);
            }
            r |= (v & wmask) << (bits * j);
        }
        return r;
    }
    if (x->sem == S_VFROUND) {
        for (unsigned j = 0; j < 2; j++) {
            uint32_t h = fsrc16(x, 0, vsel16(x, 0, s[0], j, 0), fc);
            uint32_t in = h, v;
            if (is_nan16(h))
                v = h | 0x200;
            else
                v = f32_to_f16(fround(bi_f16_to_f32((uint16_t)h), x->round), R_NONE);    /* exact */
            r |= fout16(v, x, &in, 1, fc) << (16 * j);
        }
        return r;
    }
    if (x->sem == S_V8TO16F) {
        for (unsigned j = 0; j < 2; j++) {
            uint32_t byte = (s[0] >> (8 * (x->vsel[0][j] & 3))) & 0xff;
            float f = x->sext ? (float)(int8_t)byte : (float)byte;
            r |= (uint32_t)f32_to_f16(u32(f), R_NONE) << (16 * j);
        }
        return r;
    }
    if (x->sem == S_VI2F16 || x->sem == S_VF16_2I || x->sem == S_V8TO16) {
        for (unsigned j = 0; j < 2; j++) {
            uint32_t v;
            if (x->sem == S_V8TO16) {
                uint32_t byte = (s[0] >> (8 * (x->vsel[0][j] & 3))) & 0xff;
                v = x->sext ? (uint32_t)(int32_t)(int8_t)byte : byte;
            } else if (x->sem == S_VI2F16) {
                uint32_t h = vsel16(x, 0, s[0], j, 0);
                float f = x->sext ? (float)(int16_t)h : (float)h;      /* exact in f32 */
                v = f32_to_f16(u32(f), x->round);
            } else {
                uint32_t f = bi_f16_to_f32((uint16_t)vsel16(x, 0, s[0], j, 0));
                int32_t t = (int32_t)f2i(f, x->round, 1);
                if (x->sext)
                    v = (uint32_t)(t > 32767 ? 32767 : t < -32768 ? -32768 : t);
                else
                    v = (uint32_t)(t > 65535 ? 65535 : t < 0 ? 0 : t);
            }
            r |= (v & 0xffff) << (16 * j);
        }
        return r;
    }
    if (x->vw == 8 && (x->sem == S_VICMP_I || x->sem == S_VICMP_S || x->sem == S_VICMP_U || x->sem == S_VMUX)) {
        for (unsigned j = 0; j < 4; j++) {
            uint32_t a = (s[0] >> (8 * j)) & 0xff, b = (s[1] >> (8 * j)) & 0xff, v;
            if (x->sem == S_VMUX) {
                uint32_t c = (s[2] >> (8 * j)) & 0xff;
                v = x->mux == 0 ? ((c & 0x80) ? b : a) : (c == 0 ? a : b);
            } else {
                int t;
                if (x->sem == S_VICMP_I)
                    t = (a == b) == (x->cmp == C_EQ);
                else {
                    int32_t ia = x->sem == S_VICMP_S ? (int8_t)a : (int32_t)a, ib = x->sem == S_VICMP_S ? (int8_t)b : (int32_t)b;
                    t = x->cmp == C_GT ? ia > ib : x->cmp == C_GE ? ia >= ib : x->cmp == C_LT ? ia < ib : ia <= ib;
                }
                v = !t ? 0 : x->result_type == 0 ? 1 : 0xff;
            }
            r |= (v & 0xff) << (8 * j);
        }
        return r;
    }
    if (x->vw == 8 && x->sem == S_SWZ) {
        for (unsigned j = 0; j < 4; j++)
            r |= vsel8(x, 0, s[0], j) << (8 * j);
        return r;
    }
    if (x->vw == 8) {
        for (unsigned j = 0; j < 4; j++) {
            uint32_t a = vsel8(x, 0, s[0], j), b = vsel8(x, 1, s[1], j);
            int32_t v;
            if (x->sext)
                v = x->sem == S_VADD ? (int8_t)a + (int8_t)b : (int8_t)a - (int8_t)b;
            else
                v = x->sem == S_VADD ? (int32_t)(a + b) : (int32_t)a - (int32_t)b;
            if (x->sat)
                v = x->sext ? (v > 127 ? 127 : v < -128 ? -128 : v) : (v > 255 ? 255 : v < 0 ? 0 : v);
            r |= ((uint32_t)v & 0xff) << (8 * j);
        }
        return r;
    }
    for (unsigned j = 0; j < 2; j++) {
        uint32_t a = vsel16(x, 0, s[0], j, x->sext), b = vsel16(x, 1, s[1], j, x->sext), v = 0;
        switch (x->sem) {
        case S_VADD: case S_VSUB: {
            int32_t t;
            if (x->sext)
                t = x->sem == S_VADD ? (int16_t)a + (int16_t)b : (int16_t)a - (int16_t)b;
            else
                t = x->sem == S_VADD ? (int32_t)(a + b) : (int32_t)a - (int32_t)b;
            if (x->sat)
                t = x->sext ? (t > 32767 ? 32767 : t < -32768 ? -32768 : t) : (t > 65535 ? 65535 : t < 0 ? 0 : t);
            v = (uint32_t)t & 0xffff;
            break;
        }
        case S_VFADD: case S_VFMA: {
            uint32_t in[3] = { fsrc16(x, 0, a, fc), fsrc16(x, 1, b, fc), 0 };
            double da = f32(bi_f16_to_f32((uint16_t)in[0])), db = f32(bi_f16_to_f32((uint16_t)in[1])), res;
            if (x->sem == S_VFMA) {
                in[2] = fsrc16(x, 2, vsel16(x, 2, s[2], j, 0), fc);
                double dc = f32(bi_f16_to_f32((uint16_t)in[2]));
                volatile double p = da, q = db, t = dc, o;
                fesetround(FE_TOWARDZERO);
                feclearexcept(FE_INEXACT);
                o = fma(p, q, t);
                int inexact = fetestexcept(FE_INEXACT) != 0;
                fesetround(FE_TONEAREST);
                uint64_t bits;
                double od = o;
                memcpy(&bits, &od, 8);
                if (inexact && (bits & 0x7fffffffffffffffull) < 0x7ff0000000000000ull)
                    bits |= 1;
                memcpy(&res, &bits, 8);
            } else {
                res = da + db;     /* exact in double */
            }
            v = fout16(f32_to_f16(ro_f32(res), x->round), x, in, x->sem == S_VFMA ? 3 : 2, fc);
            break;
        }
        case S_VFMIN: case S_VFMAX: {
            uint32_t fa = bi_f16_to_f32((uint16_t)fsrc16(x, 0, a, fc)), fb = bi_f16_to_f32((uint16_t)fsrc16(x, 1, b, fc));
            uint32_t m = fminmax(fa, fb, x->sem == S_VFMAX, x->minmax);
            v = is_nan(m) ? (((m >> 16) & 0x8000) | 0x7e00 | ((m >> 13) & 0x1ff)) : f32_to_f16(m, R_NONE);
            if (x->clamp)
                v = fout16(v, x, &v, 1, fc);
            break;
        }
        case S_VFCMP: case S_VCSEL_F: {
            uint32_t fa = bi_f16_to_f32((uint16_t)fsrc16(x, 0, a, fc)), fb = bi_f16_to_f32((uint16_t)fsrc16(x, 1, b, fc));
            int t = fcmp(fa, fb, x->cmp);
            if (x->sem == S_VCSEL_F)
                v = t ? vsel16(x, 2, s[2], j, 0) : vsel16(x, 3, s[3], j, 0);
            else
                v = !t ? 0 : x->result_type == 0 ? 1 : x->result_type == 1 ? 0x3c00 : 0xffff;
            break;
        }
        case S_VCSEL_I: case S_VCSEL_S: case S_VCSEL_U: case S_VICMP_I: case S_VICMP_S: case S_VICMP_U: {
            int t;
            if (x->sem == S_VCSEL_I || x->sem == S_VICMP_I)
                t = (a == b) == (x->cmp == C_EQ);
            else {
                int32_t ia = x->sext ? (int16_t)a : (int32_t)a, ib = x->sext ? (int16_t)b : (int32_t)b;
                t = x->cmp == C_GT ? ia > ib : x->cmp == C_GE ? ia >= ib : x->cmp == C_LT ? ia < ib : ia <= ib;
            }
            if (x->sem >= S_VICMP_I)
                v = !t ? 0 : x->result_type == 0 ? 1 : 0xffff;
            else
                v = t ? vsel16(x, 2, s[2], j, 0) : vsel16(x, 3, s[3], j, 0);
            break;
        }
        case S_SWZ: v = a; break;
        case S_VMUX: {
            uint32_t c = vsel16(x, 2, s[2], j, 0);
            switch (x->mux) {
            case 0: v = (c & 0x8000) ? b : a; break;
            case 1: v = c == 0 ? a : b; break;
            case 2: v = (c & 0x7fff) == 0 ? a : b; break;
            default: v = (b & c) | (a & ~c & 0xffff); break;
            }
            break;
        }
        }
        r |= (v & 0xffff) << (16 * j);
    }
    return r;
}

/* BRANCH / BRANCHZ operand: 16-bit types take the half named by widenN (default low), extended by
 * type; floats compare as f32 (f16 converted). Returns the comparison of a with b. */
static int branch_cmp(const bi_xinstr *x, uint32_t a, uint32_t b)
{
    uint32_t v[2] = { a, b };
    for (unsigned i = 0; i < 2; i++) {
        unsigned half = x->widen[i] == 2;
        if (x->size == 16) {
            uint32_t h = (v[i] >> (16 * half)) & 0xffff;
            v[i] = x->ext == 3 ? bi_f16_to_f32((uint16_t)h) : x->ext == 1 ? (uint32_t)(int32_t)(int16_t)h : h;
        } else if (x->ext == 3 && x->widen[i]) {
            v[i] = bi_f16_to_f32((uint16_t)(v[i] >> (16 * half)));
        }
    }
    if (x->ext == 3)
        return fcmp(v[0], v[1], x->cmp);
    if (x->ext == 1) {
        int32_t p = (int32_t)v[0], q = (int32_t)v[1];
        switch (x->cmp) {
        case C_GT: return p > q;
        case C_GE: return p >= q;
        case C_LT: return p < q;
        case C_LE: return p <= q;
        case C_NE: return p != q;
        default: return p == q;
        }
    }
    switch (x->cmp) {
    case C_GT: return v[0] > v[1];
    case C_GE: return v[0] >= v[1];
    case C_LT: return v[0] < v[1];
    case C_LE: return v[0] <= v[1];
    case C_NE: return v[0] != v[1];
    default: return v[0] == v[1];
    }
}

/* FRCP.f32 / FRSQ.f32 (G72 and v7 use them directly for 1/x and 1/sqrt(x)): Arm documents no
 * bit-exact table, so (assumption) they return the correctly rounded (round to nearest even)
 * result, which is within the OpenCL bounds (2.5 ulp rcp/divide, 2 ulp rsqrt).  Special values
 * as IEEE: rcp(+-0) = +-inf, rcp(+-inf) = +-0, rsqrt(+0) = +inf, rsqrt(-0) = -inf,
 * rsqrt(x < 0) = NaN, rsqrt(+inf) = +0; NaN inputs are returned quiet. */
static uint32_t frcp(uint32_t a)
{
    if (is_nan(a))
        return a | 0x00400000;
    volatile double d = 1.0 / (double)f32(a);       /* exact enough: one rounding to float below */
    volatile float r = (float)d;
    return u32(r);
}

static uint32_t frsq(uint32_t a)
{
    if (is_nan(a))
        return a | 0x00400000;
    float f = f32(a);
    if (f == 0.0f)
        return (a & 0x80000000) | 0x7f800000;
    if (f < 0.0f)
        return 0x7fc00000;
    /* 1/sqrt(f) in double is within ~2^-52 relative of the exact value, so the float nearest to it
     * is the correctly rounded result or a neighbour; decide with the exact sign of m*m*f - 1 at
     * the midpoints m on either side (m*m is exact in double, fma rounds once: the sign is exact) */
    volatile float r = (float)(1.0 / sqrt((double)f));
    float lo = nextafterf(r, 0.0f), hi = nextafterf(r, INFINITY);
    double mlo = ((double)r + lo) / 2, mhi = ((double)r + hi) / 2;
    if (fma(mlo * mlo, (double)f, -1.0) > 0)
        return u32(lo);                       /* 1/sqrt(f) < mlo */
    if (fma(mhi * mhi, (double)f, -1.0) < 0)
        return u32(hi);
    return u32(r);
}

/* Mantissa/exponent split (x not NaN): FM_PLAIN m in [0.5, 1), x = m 2^e (C frexp); FM_SQRT
 * m in [0.25, 1), x = m 4^e; FM_LOG m in [0.75, 1.5), x = m 2^e.  Sign kept.  0 and inf: C frexp
 * (m = x, e = 0), except FM_LOG gives m = +-0 for inf (assumption: keeps Mesa's G71 log2 finite). */
static uint32_t frexp_mode(uint32_t v, int mode, int *e)
{
    float m = frexpf(f32(v), e);
    if ((v & 0x7fffffff) == 0x7f800000 || (v & 0x7fffffff) == 0) {
        *e = 0;
        return mode == FM_LOG ? v & 0x80000000 : v;
    }
    if (mode == FM_SQRT) {
        if (*e & 1) {
            m = m / 2;           /* exact */
            *e += 1;
        }
        *e /= 2;
    } else if (mode == FM_LOG && fabsf(m) < 0.75f) {
        m = m * 2;
        *e -= 1;
    }
    return u32(m);
}

/* Correctly rounded binary64 -> binary32 of a value known to ~2^-52 relative (table ops). */
static uint32_t to_f32(double d)
{
    volatile float r = (float)d;
    return u32(r);
}

/* Table-based helpers.  Arm publishes no bit-exact tables, so (assumption) each returns the
 * correctly rounded value of the function the compiler's sequences expect of it (more precise
 * than a hardware table, never less):
 *   FRCP_APPROX(x)  1 / FREXPM(x)                 FRSQ_APPROX(x)  1 / sqrt(FREXPM.sqrt(x))
 *   FLOGD(x)        log2(m) / (m - 1), m = FREXPM.log(x) (1/ln 2 at m = 1)
 *   FLOG_TABLE      .red: r = 1 / FREXPM.log(x); .base2: -log2(r); .natural: -ln(r)
 * Special values: x = +-0 -> +-inf (rcp, rsq of +0), +inf for FLOGD, -inf for .base2/.natural,
 * 1 for .red; +-inf -> +-0 (rcp, rsq), +inf (FLOGD, .base2/.natural), 1 (.red); x < 0 -> NaN
 * (rsq, FLOGD, .red/.base2/.natural); NaN -> quiet NaN. */
static uint32_t table_op(const bi_xinstr *x, uint32_t v)
{
    if (is_nan(v))
        return v | 0x00400000;
    uint32_t mag = v & 0x7fffffff, sign = v & 0x80000000;
    int e;
    switch (x->sem) {
    case S_FRCP_APPROX:
        if (mag == 0)
            return sign | 0x7f800000;
        if (mag == 0x7f800000)
            return sign;
        return to_f32(1.0 / (double)f32(frexp_mode(v, FM_PLAIN, &e)));
    case S_FRSQ_APPROX:
        if (mag == 0)
            return sign | 0x7f800000;
        if (sign)
            return 0x7fc00000;
        if (mag == 0x7f800000)
            return 0;
        return frsq(frexp_mode(v, FM_SQRT, &e));
    case S_FLOGD: {
        if (mag == 0 || v == 0x7f800000)
            return 0x7f800000;
        if (sign)
            return 0x7fc00000;
        double m = f32(frexp_mode(v, FM_LOG, &e));
        return to_f32(m == 1.0 ? 1.0 / M_LN2 : log2(m) / (m - 1.0));
    }
    default: {      /* FLOG_TABLE */
        if (sign && mag)
            return 0x7fc00000;
        if (mag == 0 || mag == 0x7f800000)
            return x->fmode == LT_RED ? 0x3f800000 : mag ? 0x7f800000 : 0xff800000;
        uint32_t r = to_f32(1.0 / (double)f32(frexp_mode(v, FM_LOG, &e)));
        if (x->fmode == LT_RED)
            return r;
        double l = log((double)f32(r));
        return to_f32(x->fmode == LT_BASE2 ? -l / M_LN2 : -l);
    }
    }
}

/* FMA_RSCALE: (a * b + c) * 2^d with one rounding (round-to-odd in binary64, then the target
 * rounding: exact for binary32 results, subnormal ones included).  special .n (assumption, as
 * Mesa's reciprocal / rsqrt lowerings need): a product 0 x inf counts as 0. */
static uint32_t fma_rscale(uint32_t a, uint32_t b, uint32_t c, int32_t d, int round, int special)
{
    uint32_t in[3] = { a, b, c };
    if (special == 1 && (((a & 0x7fffffff) == 0 && (b & 0x7fffffff) == 0x7f800000) ||
                         ((b & 0x7fffffff) == 0 && (a & 0x7fffffff) == 0x7f800000)) && !is_nan(c)) {
        a = 0;
        b = 0;
    }
    /* a*b is exact in binary64 and the sum's rounding error is exact too (TwoSum, round to
     * nearest): round to odd from those, without switching the host rounding mode (slow) */
    double p = (double)f32(a) * f32(b), pc = f32(c), od = p + pc, bb = od - p;
    double e = (p - (od - bb)) + (pc - bb);
    if (isnan(od))
        return nan_result(0x7fc00000, in, 3);
    if (e != 0 && isfinite(od)) {
        uint64_t bits;
        memcpy(&bits, &od, 8);
        if ((od > 0) != (e > 0))
            bits--;                          /* truncate: one step toward zero */
        bits |= 1;
        memcpy(&od, &bits, 8);
    }
    d = d > 600 ? 600 : d < -600 ? -600 : d;
    volatile double sc = ldexp(od, d);        /* exact: the binary64 range is not left */
    volatile float r;
    if (round != R_NONE)
        fesetround(fe_mode(round));
    r = (float)sc;
    if (round != R_NONE)
        fesetround(FE_TONEAREST);
    return u32(r);
}

/* Branch targets: a PC-relative constant gives the target clause's offset; any other source
 * (register, the zero FAU slot, a plain constant) is an absolute address, and address 0 ends the
 * thread: Mesa encodes branches to the end of the shader as a jump to zero (assumption that
 * matches its output: such branches skip the last blocks of a kernel). */
#define PC_EXIT 0xffffffffu
static inline uint32_t branch_target(const bi_xinstr *x, uint32_t v)
{
    return x->abs_target && v == 0 ? PC_EXIT : v;
}

/* Execute one instruction for one lane. s[] = raw source values. Returns the 32-bit result;
 * *branch is set to 1 and *target to the byte offset when a branch is taken. */
static uint32_t exec_op(const bi_xinstr *x, const uint32_t *s, const fctx *fc, int *branch, uint32_t *target)
{
    uint32_t a = s[0], b = s[1], c = s[2];
    uint32_t f[4];
    if (x->sem >= S_VADD && x->sem < S_I2F_NARROW)
        return exec_vec(x, s, fc);
    switch (x->sem) {
    case S_NOP: return 0;
    case S_MOV: return a;
    case S_IADD: case S_ISUB: {
        b = lane_sel(b, x->lane[1], x->sext);
        int64_t r;
        if (x->sext)
            r = x->sem == S_IADD ? (int64_t)(int32_t)a + (int32_t)b : (int64_t)(int32_t)a - (int32_t)b;
        else
            r = x->sem == S_IADD ? (int64_t)a + b : (int64_t)a - b;
        if (x->sat) {
            if (x->sext)
                r = r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r;
            else
                r = r > UINT32_MAX ? UINT32_MAX : r < 0 ? 0 : r;
        }
        return (uint32_t)r;
    }
    case S_IADDC: return a + b + c;
    case S_ISUBB: return a - b - c;
    case S_IMUL: return a * lane_sel(b, x->lane[1], x->sext);
    case S_LSHIFT: case S_RSHIFT: {
        unsigned sh = lane_sel(c, x->lane[2] == 0xff ? 0 : x->lane[2], 0) & 31;   /* assumption: 5 bits */
        uint32_t v = x->sem == S_LSHIFT ? a << sh : a >> sh;
        uint32_t m = x->not1 ? ~b : b;
        uint32_t r = x->logic == L_AND ? (v & m) : x->logic == L_OR ? (v | m) : (v ^ m);
        return x->not_result ? ~r : r;
    }
    case S_ARSHIFT: {
        unsigned sh = lane_sel(c, x->lane[2] == 0xff ? 0 : x->lane[2], 0) & 31;
        return (uint32_t)((int32_t)a >> sh);
    }
    case S_CSEL_I: return ((a == b) == (x->cmp == C_EQ)) ? c : s[3];
    case S_CSEL_S: {
        int32_t sa = (int32_t)a, sb = (int32_t)b;
        int t = x->cmp == C_GT ? sa > sb : x->cmp == C_GE ? sa >= sb : x->cmp == C_LT ? sa < sb : sa <= sb;
        return t ? c : s[3];
    }
    case S_CSEL_U: {
        int t = x->cmp == C_GT ? a > b : x->cmp == C_GE ? a >= b : x->cmp == C_LT ? a < b : a <= b;
        return t ? c : s[3];
    }
    case S_CSEL_F: return fcmp(a, b, x->cmp) ? c : s[3];
    case S_MUX:
        switch (x->mux) {
        case 0: return (c & 0x80000000) ? b : a;              /* neg (assumption) */
        case 1: return c == 0 ? a : b;                        /* int_zero */
        case 2: return (c & 0x7fffffff) == 0 ? a : b;         /* fp_zero */
        default: return (b & c) | (a & ~c);                   /* bit (assumption) */
        }
    case S_ICMP_I: return bool_result((a == b) == (x->cmp == C_EQ), x->result_type == 0 ? 0 : 2);
    case S_ICMP_S: case S_ICMP_U: {
        int t;
        if (x->sem == S_ICMP_S) {
            int32_t sa = (int32_t)a, sb = (int32_t)b;
            t = x->cmp == C_GT ? sa > sb : x->cmp == C_GE ? sa >= sb : x->cmp == C_LT ? sa < sb : sa <= sb;
        } else {
            t = x->cmp == C_GT ? a > b : x->cmp == C_GE ? a >= b : x->cmp == C_LT ? a < b : a <= b;
        }
        return bool_result(t, x->result_type == 0 ? 0 : 2);
    }
    case S_FCMP:
        f[0] = fsrc(x, 0, a, fc);
        f[1] = fsrc(x, 1, b, fc);
        return bool_result(fcmp(f[0], f[1], x->cmp), x->result_type);
    case S_FADD:
        f[0] = fsrc(x, 0, a, fc);
        f[1] = fsrc(x, 1, b, fc);
        return fout(farith(0, f[0], f[1], 0, x->round), x, f, 2, fc);
    case S_FMA:
        f[0] = fsrc(x, 0, a, fc);
        f[1] = fsrc(x, 1, b, fc);
        f[2] = fsrc(x, 2, c, fc);
        return fout(farith(1, f[0], f[1], f[2], x->round), x, f, 3, fc);
    case S_FMIN: case S_FMAX:
        f[0] = fsrc(x, 0, a, fc);
        f[1] = fsrc(x, 1, b, fc);
        return fclamp(fminmax(f[0], f[1], x->sem == S_FMAX, x->minmax), x->clamp);
    case S_F2S: case S_F2U:
        f[0] = fsrc(x, 0, a, fc);
        return f2i(f[0], x->round, x->sem == S_F2S);
    case S_S2F: return i2f(a, x->round, 1);
    case S_U2F: return i2f(a, x->round, 0);
    case S_ZEXT16: return lane_sel(a, 0x10 | (x->lane[0] == 0xff ? 0 : (x->lane[0] & 1)), 0);
    case S_SEXT16: return lane_sel(a, 0x10 | (x->lane[0] == 0xff ? 0 : (x->lane[0] & 1)), 1);
    case S_ZEXT8: return lane_sel(a, x->lane[0] == 0xff ? 0 : x->lane[0], 0);
    case S_SEXT8: return lane_sel(a, x->lane[0] == 0xff ? 0 : x->lane[0], 1);
    case S_MKVEC: {
        uint32_t lo = lane_sel(a, 0x10 | (x->lane[0] == 0xff ? 0 : (x->lane[0] & 1)), 0);
        uint32_t hi = lane_sel(b, 0x10 | (x->lane[1] == 0xff ? 0 : (x->lane[1] & 1)), 0);
        return lo | hi << 16;
    }
    case S_I2F_NARROW: {
        uint32_t v = lane_sel(a, x->lane[0] == 0xff ? 0 : x->lane[0], x->sext);
        return u32(x->sext ? (float)(int32_t)v : (float)v);    /* exact */
    }
    case S_IABS: return (int32_t)a < 0 ? 0u - a : a;
    case S_HADD: {
        int64_t t = x->sext ? (int64_t)(int32_t)a + (int32_t)b : (int64_t)a + b;
        if (x->round == R_RTP)
            t += 1;
        return (uint32_t)(t >> 1);      /* arithmetic shift: floor */
    }
    case S_LDEXP: {
        f[0] = fsrc(x, 0, a, fc);
        if (is_nan(f[0]))
            return f[0] | 0x00400000;
        int32_t e = (int32_t)b;
        e = e > 400 ? 400 : e < -400 ? -400 : e;
        volatile double d = ldexp((double)f32(f[0]), e);     /* exact in double */
        volatile float r;
        if (x->round == R_RTNA)
            return fout(u32((float)d), x, f, 1, fc);          /* ties: unreachable for exact powers of 2 */
        if (x->round != R_NONE)
            fesetround(fe_mode(x->round));
        r = (float)d;
        if (x->round != R_NONE)
            fesetround(FE_TONEAREST);
        return fout(u32(r), x, f, 1, fc);
    }
    case S_BRANCHZ:
        if (branch_cmp(x, a, 0)) {
            *branch = 1;
            *target = branch_target(x, b);
        }
        return 0;
    case S_BRANCH:
        if (branch_cmp(x, a, b)) {
            *branch = 1;
            *target = branch_target(x, c);
        }
        return 0;
    case S_QUIET:
        return is_nan(a) ? a | 0x00400000 : a;
    case S_F16_2I: {
        uint32_t h = lane_sel(a, 0x10 | (x->lane[0] == 0xff ? 0 : (x->lane[0] & 1)), 0);
        return f2i(bi_f16_to_f32((uint16_t)h), x->round, x->sext);
    }
    case S_LOGB: case S_ILOGB: case S_FREXPM: {
        f[0] = fsrc(x, 0, a, fc);
        float v = f32(f[0]);
        if (x->sem == S_LOGB)
            return u32(logbf(v));                   /* assumption: C logb (0 -> -inf, inf -> inf) */
        if (x->sem == S_ILOGB)
            return (uint32_t)ilogbf(v);             /* assumption: C ilogb special values */
        int e = 0;
        return is_nan(f[0]) ? f[0] | 0x00400000 : frexp_mode(f[0], x->fmode, &e);
    }
    case S_FREXPE: {
        /* neg0 negates the exponent (the value's sign does not change it): Mesa's reciprocal
         * lowering scales by FREXPE(-x) */
        bi_xinstr y = *x;
        y.neg[0] = 0;
        f[0] = fsrc(&y, 0, a, fc);
        int e = 0;
        frexp_mode(f[0], x->fmode, &e);           /* assumption: 0 for 0/inf/NaN (C frexp) */
        return (uint32_t)(x->neg[0] ? -e : e);
    }
    case S_FRCP_APPROX: case S_FRSQ_APPROX: case S_FLOGD: case S_FLOG_TABLE: {
        f[0] = fsrc(x, 0, a, fc);
        return fout(table_op(x, f[0]), x, f, 1, fc);
    }
    case S_FADD_LSCALE: {
        f[0] = fsrc(x, 0, a, fc);
        f[1] = fsrc(x, 1, b, fc);
        int e = 0;
        uint32_t m = is_nan(f[1]) || (f[1] & 0x7fffffff) == 0x7f800000 ? f[1] : frexp_mode(f[1], FM_LOG, &e);
        return fout(farith(0, f[0], m, 0, x->round), x, f, 2, fc);
    }
    case S_FMA_RSCALE:
        f[0] = fsrc(x, 0, a, fc);
        f[1] = fsrc(x, 1, b, fc);
        f[2] = fsrc(x, 2, c, fc);
        return fout(fma_rscale(f[0], f[1], f[2], (int32_t)s[3], x->round, x->fmode), x, f, 3, fc);
    case S_FEXP: {
        /* 2^(a / 2^24), a = 8:24 fixed point; b = the float it came from (NaN and range) */
        if (is_nan(b))
            return b | 0x00400000;
        float fb = f32(b);
        if (fb >= 2147483648.0f)
            return 0x7f800000;
        if (fb <= -2147483648.0f)
            return 0;
        volatile float r = (float)exp2(ldexp((double)(int32_t)a, -24));
        return fout(u32(r), x, &b, 1, fc);
    }
    case S_FEXP_TABLE: {
        volatile float r = (float)exp2((double)(a & 15) / 16.0);     /* 2^(low 4 bits / 16) */
        return u32(r);
    }
    case S_FSIN_TABLE: case S_FCOS_TABLE: {
        double ang = (double)(a & 63) * M_PI / 32.0;                    /* low 6 bits x pi/32 */
        volatile float r = (float)(x->sem == S_FSIN_TABLE ? sin(ang) : cos(ang));
        return u32(r);
    }
    case S_ATOM_POST: return atom_op32(x->atom_opc, a, b);
    case S_FRCP: case S_FRSQ:
        f[0] = fsrc(x, 0, a, fc);
        return fout(x->sem == S_FRCP ? frcp(f[0]) : frsq(f[0]), x, f, 1, fc);
    case S_CLZ: return a ? (uint32_t)__builtin_clz(a) : 32;
    case S_POPCOUNT: return (uint32_t)__builtin_popcount(a);
    case S_BITREV: return bitrev(a);
    case S_FROUND:
        f[0] = fsrc(x, 0, a, fc);
        return fout(fround(f[0], x->round), x, f, 1, fc);
    case S_BRANCHZ32: case S_BRANCHZ16: {
        uint32_t v = x->sem == S_BRANCHZ16 ? lane_sel(a, 0x10 | (x->widen[0] == 2), 0) : a;
        if ((v == 0) == (x->cmp == C_EQ)) {
            *branch = 1;
            *target = branch_target(x, b);
        }
        return 0;
    }
    case S_JUMP:
        *branch = 1;
        *target = branch_target(x, a);
        return 0;
    }
    return 0;
}

/* Pending staging-register writes of a LOAD (committed at the end of the clause). */
typedef struct {
    unsigned n;
    uint32_t val[BI_MAX_LANES][4];
} staging;

/* Atomic operation op(a, b) on 32-bit (atom_op32) and 64-bit (atom_op64)
 * values; U/S: the unsigned and signed type. */
#define ATOM_OP(NAME, U, S)                                                    \
    static U NAME(unsigned opc, U a, U b)                                      \
    {                                                                          \
        switch (opc) {                                                         \
        case A_ADD: return a + b;                                              \
        case A_SMIN: return (S)a < (S)b ? a : b;                               \
        case A_SMAX: return (S)a > (S)b ? a : b;                               \
        case A_UMIN: return a < b ? a : b;                                     \
        case A_UMAX: return a > b ? a : b;                                     \
        case A_AND: return a & b;                                              \
        case A_OR: return a | b;                                               \
        case A_XOR: return a ^ b;                                              \
        default: return b;                                                     \
        }                                                                      \
    }
ATOM_OP(atom_op32, uint32_t, int32_t)
ATOM_OP(atom_op64, uint64_t, int64_t)
#undef ATOM_OP

/* identity of a size-byte atomic operation (b such that op(a, b) = a) */
static uint64_t atom_identity(unsigned opc, unsigned size)
{
    uint64_t ones = size == 8 ? ~0ull : 0xffffffffu, smin = size == 8 ? 1ull << 63 : 0x80000000u;
    switch (opc) {
    case A_SMIN: return ones >> 1;
    case A_SMAX: return smin;
    case A_UMIN: case A_AND: return ones;
    default: return 0;
    }
}

typedef struct {
    unsigned opc, size;       /* opc A_*: RMW; 0: exchange; 0xff: compare-exchange */
    uint64_t v, cmp;
} atom_arg;

static uint64_t atom_apply(uint64_t old, void *arg)
{
    const atom_arg *a = arg;
    if (a->opc == 0)
        return a->v;
    if (a->opc == 0xff)
        return old == a->cmp ? a->v : old;
    if (a->size == 8)
        return atom_op64(a->opc, old, a->v);
    return atom_op32(a->opc, (uint32_t)old, (uint32_t)a->v);
}

static int do_atomic(const bi_mem *m, uint64_t addr, atom_arg *a, uint64_t *old)
{
    if (m->atomic)
        return m->atomic(m->ctx, addr, a->size, atom_apply, a, old);
    uint8_t b[8] = { 0 };
    if (m->read(m->ctx, addr, b, a->size))
        return -1;
    uint64_t o = 0, n;
    for (unsigned i = 0; i < a->size; i++)
        o |= (uint64_t)b[i] << (8 * i);
    n = atom_apply(o, a);
    for (unsigned i = 0; i < a->size; i++)
        b[i] = (uint8_t)(n >> (8 * i));
    if (m->write(m->ctx, addr, b, a->size))
        return -1;
    *old = o;
    return 0;
}

/* Texture / image messages (bifrost_tex.c): like loads, they read their staging registers and
 * write their results at the end of the clause. */
static int exec_tex(bi_warp *w, const bi_xinstr *x, const bi_clause *c, unsigned lane, const uint32_t *s,
                    staging *stg, char *err, size_t errlen)
{
    const bi_mem *m = w->mem;
    unsigned sr = c->hdr[BI_H_SR], n = 0;
    uint32_t in[8] = { 0 }, out[4] = { 0 };
    int rc;
    char why[160] = "";
    switch (x->sem) {
    case S_TEXC:
    case S_TEXS: {
        uint32_t desc = x->sem == S_TEXS ? x->texdesc : s[2];
        int k = x->sem == S_TEXS ? 0 : bi_tex_staging_count(desc);
        if (k > 8 || sr + (k > 4 ? k : 4) > 64)
            return fail(err, errlen, BI_EXEC_ERROR, "clause %#x: staging registers out of range", c->offset);
        for (int i = 0; i < k; i++)
            in[i] = w->reg[sr + i][lane];
        rc = bi_tex_texc(m, desc, s[0], s[1], in, k < 0 ? 0 : (unsigned)k, out, &n, why, sizeof(why));
        break;
    }
    case S_LEA_TEX:
        if (sr + 3 > 64)
            return fail(err, errlen, BI_EXEC_ERROR, "clause %#x: staging registers out of range", c->offset);
        rc = bi_tex_lea_attr(m, s[2], s[0], s[1], x->regfmt, out, why, sizeof(why));
        n = 3;
        break;
    default:            /* S_ST_CVT */
        if (sr + x->size > 64)
            return fail(err, errlen, BI_EXEC_ERROR, "clause %#x: staging registers out of range", c->offset);
        for (unsigned i = 0; i < x->size; i++)
            in[i] = w->reg[sr + i][lane];
        rc = bi_tex_st_cvt(m, s[0] | (uint64_t)s[1] << 32, s[2], in, x->size, why, sizeof(why));
        break;
    }
    if (rc)
        return fail(err, errlen, rc, "clause %#x lane %u: %s", c->offset, lane, why);
    stg->n = n;
    for (unsigned i = 0; i < n; i++)
        stg->val[lane][i] = out[i];
    return BI_EXEC_OK;
}

static int exec_mem(bi_warp *w, const bi_xinstr *x, const bi_clause *c, unsigned lane, const uint32_t *s,
                    uint64_t atom_addr, staging *stg, uint32_t *res, char *err, size_t errlen)
{
    const bi_mem *m = w->mem;
    unsigned sr = c->hdr[BI_H_SR];
    uint64_t addr = 0;
    uint8_t buf[16] = { 0 };

    *res = 0;
    if (x->sem == S_BARRIER)
        return BI_EXEC_OK;
    if (!m)
        return fail(err, errlen, BI_EXEC_ERROR, "clause %#x: memory instruction without memory", c->offset);
    if (x->sem >= S_TEXC)
        return exec_tex(w, x, c, lane, s, stg, err, errlen);
    if (x->sem == S_SEG_ADD_LO || x->sem == S_SEG_ADD_HI) {
        /* the address LOAD/STORE with this segment would use for offset s[0] */
        uint64_t a = (x->seg == SEG_TL ? w->tls_base[lane] : m->wls_base) + s[0];
        if (x->preserve_null && s[0] == 0)      /* assumption: a null offset stays null */
            a = 0;
        *res = x->sem == S_SEG_ADD_LO ? (uint32_t)a : (uint32_t)(a >> 32);
        return BI_EXEC_OK;
    }
    if (x->sem == S_ATOM_CX) {
        /* ATOM_C (FMA, address) + ATOM_CX (ADD, message).  RETURN forms write two staging
         * registers (assumption, the layout is undocumented): the memory value before this
         * thread's operation and the operation's identity, which ATOM_POST combines. */
        /* .i64 (staging as Mesa fills it: the 64-bit operand in the first two registers, four
         * staging registers in RETURN form): the same with 64-bit values, two registers each. */
        unsigned words = x->size / 4;
        if (sr + (x->atom_ret ? 2 : 1) * words > 64)
            return fail(err, errlen, BI_EXEC_ERROR, "clause %#x: staging registers out of range", c->offset);
        uint64_t arg = w->reg[sr][lane] | (words > 1 ? (uint64_t)w->reg[sr + 1][lane] << 32 : 0);
        if (x->atom_one)
            arg = x->atom_one == 2 ? ~0ull : 1;
        atom_arg a = { .opc = x->atom_opc, .size = x->size, .v = arg };
        uint64_t old = 0;
        if ((x->size == 8 && (atom_addr & 7)) || do_atomic(m, atom_addr, &a, &old))
            return fail(err, errlen, BI_EXEC_ERROR, "clause %#x lane %u: atomic fault at %#llx", c->offset, lane,
                        (unsigned long long)atom_addr);
        if (x->atom_ret) {
            uint64_t id = atom_identity(x->atom_opc, x->size);
            stg->n = 2 * words;
            stg->val[lane][0] = (uint32_t)old;
            stg->val[lane][words] = (uint32_t)id;
            if (words > 1) {
                stg->val[lane][1] = (uint32_t)(old >> 32);
                stg->val[lane][3] = (uint32_t)(id >> 32);
            }
        }
        return BI_EXEC_OK;
    }
    switch (x->seg) {
    case SEG_NONE: addr = s[0] | (uint64_t)s[1] << 32; break;
    case SEG_WLS: addr = m->wls_base + s[0]; break;
    case SEG_TL: addr = w->tls_base[lane] + s[0]; break;
    case SEG_UBO:
        if (s[1] >= m->nubos || (uint64_t)s[0] + x->size > m->ubo_size[s[1]])
            return fail(err, errlen, BI_EXEC_ERROR, "clause %#x lane %u: UBO %u offset %#x out of range",
                        c->offset, lane, s[1], s[0]);
        addr = m->ubo_addr[s[1]] + s[0];
        break;
    }
    unsigned nregs = (x->size + 3) / 4;
    if (x->sem == S_LOAD && x->size < 4 && x->dlane == DL_D0)
        nregs = 2;
    if (sr + nregs > 64)
        return fail(err, errlen, BI_EXEC_ERROR, "clause %#x: staging registers r%u+%u out of range", c->offset, sr, nregs);
    if (x->sem == S_AXCHG || x->sem == S_ACMPXCHG) {
        /* AXCHG: the staging registers go to memory, the old memory value comes back in them
         * (lanes run in order, so lanes of a warp exchanging one address chain).
         * ACMPXCHG (staging as Mesa fills it): new value in the first half, comparison value in
         * the second; memory takes the new value if it equals the comparison value; the old
         * value comes back in the first half, the second half is kept. */
        unsigned words = x->size / 4;
        if (sr + (x->sem == S_ACMPXCHG ? 2 * words : words) > 64)
            return fail(err, errlen, BI_EXEC_ERROR, "clause %#x: staging registers out of range", c->offset);
        atom_arg a = { .opc = x->sem == S_AXCHG ? 0 : 0xff, .size = x->size };
        a.v = w->reg[sr][lane] | (words > 1 ? (uint64_t)w->reg[sr + 1][lane] << 32 : 0);
        if (x->sem == S_ACMPXCHG)
            a.cmp = w->reg[sr + words][lane] | (words > 1 ? (uint64_t)w->reg[sr + words + 1][lane] << 32 : 0);
        uint64_t old = 0;
        if ((addr & (x->size - 1)) || do_atomic(m, addr, &a, &old))
            return fail(err, errlen, BI_EXEC_ERROR, "clause %#x lane %u: atomic fault at %#llx", c->offset, lane,
                        (unsigned long long)addr);
        stg->n = x->sem == S_ACMPXCHG ? 2 * words : words;
        stg->val[lane][0] = (uint32_t)old;
        if (words > 1)
            stg->val[lane][1] = (uint32_t)(old >> 32);
        for (unsigned r = words; r < stg->n; r++)
            stg->val[lane][r] = w->reg[sr + r][lane];
        return BI_EXEC_OK;
    }
    if (x->sem == S_STORE) {
        for (unsigned i = 0; i < x->size; i++)
            buf[i] = (uint8_t)(w->reg[sr + i / 4][lane] >> (8 * (i % 4)));
        if (m->write(m->ctx, addr, buf, x->size))
            return fail(err, errlen, BI_EXEC_ERROR, "clause %#x lane %u: store fault at %#llx", c->offset, lane,
                        (unsigned long long)addr);
        return BI_EXEC_OK;
    }
    if (m->read(m->ctx, addr, buf, x->size))
        return fail(err, errlen, BI_EXEC_ERROR, "clause %#x lane %u: load fault at %#llx", c->offset, lane,
                    (unsigned long long)addr);
    stg->n = nregs;
    if (x->size >= 4) {
        for (unsigned r = 0; r < nregs; r++) {
            uint32_t v = 0;
            for (unsigned b = 0; b < 4 && 4 * r + b < x->size; b++)
                v |= (uint32_t)buf[4 * r + b] << (8 * b);
            stg->val[lane][r] = v;
        }
        return BI_EXEC_OK;
    }
    /* narrow loads: extend, then place per lane_dest (byte/half keep the rest of the register) */
    uint64_t v = 0;
    for (unsigned b = 0; b < x->size; b++)
        v |= (uint64_t)buf[b] << (8 * b);
    unsigned bits = 8 * x->size;
    if (x->ext == 1 && (v >> (bits - 1)) & 1)
        v |= ~0ull << bits;
    uint32_t old = w->reg[sr][lane];
    if (x->dlane < 4)
        stg->val[lane][0] = (old & ~(0xffu << (8 * x->dlane))) | (uint32_t)(v & 0xff) << (8 * x->dlane);
    else if (x->dlane < 6)
        stg->val[lane][0] = (old & ~(0xffffu << (16 * (x->dlane - 4)))) | (uint32_t)(v & 0xffff) << (16 * (x->dlane - 4));
    else {
        stg->val[lane][0] = (uint32_t)v;
        stg->val[lane][1] = (uint32_t)(v >> 32);
    }
    return BI_EXEC_OK;
}

static inline int is_mem(const bi_xinstr *x)
{
    return (x->sem >= S_LOAD && x->sem <= S_BARRIER) || x->sem >= S_TEXC;  /* S_LOAD .. S_BARRIER, S_TEXC .. */
}

static uint32_t read_src(const bi_warp *w, const bi_xclause *x, unsigned ti, const bi_src *s, unsigned lane,
                         uint32_t t, uint32_t t0, uint32_t t1)
{
    switch (s->kind) {
    case BI_SRC_REG: return w->reg[s->index][lane];
    case BI_SRC_T: return t;
    case BI_SRC_T0: return t0;
    case BI_SRC_T1: return t1;
    case BI_SRC_UNIFORM: {
        unsigned word = 2u * s->index + s->hi;
        return word < w->nuniforms ? w->uniforms[word] : 0;
    }
    case BI_SRC_CONST: return s->hi ? x->fau_hi[ti] : x->fau_lo[ti];
    case BI_SRC_SPECIAL:
        if (s->hi)
            return 0;
        switch (s->index) {
        case 1: return lane;
        case 2: return w->warp_id;
        case 3: return w->core_id;
        default: return 0;
        }
    default: return 0;
    }
}

/* ---- clause execution: one instruction at a time over all lanes ------------------------------ */

#define NL BI_MAX_LANES
static const uint32_t zero_lanes[NL];
static const uint32_t lane_ids[NL] = { 0, 1, 2, 3, 4, 5, 6, 7 };

/* A source as a row of NL lane values: a register row, a temporary (t = this tuple's FMA result
 * for the ADD unit, zeros for the FMA unit), or a lane-independent value spread over scratch. */
#define LANE_LOOP static inline __attribute__((always_inline))
LANE_LOOP const uint32_t *src_lanes(const bi_warp *w, const bi_xclause *x, unsigned ti, const bi_src *s,
                                    const uint32_t *t, const uint32_t *t0, const uint32_t *t1, uint32_t *scratch,
                                    unsigned n)
{
    switch (s->kind) {
    case BI_SRC_REG: return w->reg[s->index];
    case BI_SRC_T: return t;
    case BI_SRC_T0: return t0;
    case BI_SRC_T1: return t1;
    case BI_SRC_SPECIAL:
        if (!s->hi && s->index == 1)
            return lane_ids;
        break;
    case BI_SRC_UNIFORM: case BI_SRC_CONST: break;
    default: return zero_lanes;
    }
    uint32_t v = read_src(w, x, ti, s, 0, 0, 0, 0);
    for (unsigned l = 0; l < n; l++)
        scratch[l] = v;
    return scratch;
}

/* Common ALU forms run as loops over all n lanes of the warp (lanes outside the exec mask compute values
 * that are never committed); everything else goes through exec_op lane by lane.  The kinds are
 * chosen once per clause (fast_kind) and give exactly exec_op's results. */
enum { K_GENERIC, K_NOP, K_MOV, K_IADD, K_ISUB, K_IADDC, K_IMUL, K_LSHIFT, K_RSHIFT, K_ICMP, K_CSEL,
       K_FADD, K_FMA, K_FCMP, K_ZEXT16, K_MUX, K_MKVEC };

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

/* Integer comparison of lane rows for ICMP / CSEL: 1 where true.  ICMP.i32 / CSEL.i32 compare for
 * (in)equality; the signed and unsigned forms order as exec_op does (gt, ge, lt, else le). */
LANE_LOOP void cmp_lanes(const bi_xinstr *x, const uint32_t *a, const uint32_t *b, uint32_t *t, unsigned n)
{
    unsigned l;
    if (x->sem == S_ICMP_I || x->sem == S_CSEL_I) {
        uint32_t eq = x->cmp == C_EQ;
        for (l = 0; l < n; l++)
            t[l] = (a[l] == b[l]) == eq;
    } else if (x->sem == S_ICMP_S || x->sem == S_CSEL_S) {
        switch (x->cmp) {
        case C_GT: for (l = 0; l < n; l++) t[l] = (int32_t)a[l] > (int32_t)b[l]; break;
        case C_GE: for (l = 0; l < n; l++) t[l] = (int32_t)a[l] >= (int32_t)b[l]; break;
        case C_LT: for (l = 0; l < n; l++) t[l] = (int32_t)a[l] < (int32_t)b[l]; break;
        default: for (l = 0; l < n; l++) t[l] = (int32_t)a[l] <= (int32_t)b[l]; break;
        }
    } else {
        switch (x->cmp) {
        case C_GT: for (l = 0; l < n; l++) t[l] = a[l] > b[l]; break;
        case C_GE: for (l = 0; l < n; l++) t[l] = a[l] >= b[l]; break;
        case C_LT: for (l = 0; l < n; l++) t[l] = a[l] < b[l]; break;
        default: for (l = 0; l < n; l++) t[l] = a[l] <= b[l]; break;
        }
    }
}

/* Run a fast kind over all lanes; returns 0 when the instruction needs the generic path. */
LANE_LOOP int exec_fast(uint8_t kind, const bi_xinstr *x, const uint32_t *const *s, uint32_t *r, const fctx *fc,
                        unsigned n)
{
    const uint32_t *a = s[0], *b = s[1], *c = s[2];
    uint32_t t[NL];
    unsigned l;
    switch (kind) {
    case K_NOP: for (l = 0; l < n; l++) r[l] = 0; return 1;
    case K_MOV: for (l = 0; l < n; l++) r[l] = a[l]; return 1;
    case K_IADD: for (l = 0; l < n; l++) r[l] = a[l] + b[l]; return 1;
    case K_ISUB: for (l = 0; l < n; l++) r[l] = a[l] - b[l]; return 1;
    case K_IADDC: for (l = 0; l < n; l++) r[l] = a[l] + b[l] + c[l]; return 1;
    case K_IMUL: for (l = 0; l < n; l++) r[l] = a[l] * b[l]; return 1;
    case K_LSHIFT: case K_RSHIFT: {
        uint32_t inv1 = x->not1 ? ~0u : 0, invr = x->not_result ? ~0u : 0;
        for (l = 0; l < n; l++)
            t[l] = kind == K_LSHIFT ? a[l] << (c[l] & 31) : a[l] >> (c[l] & 31);
        switch (x->logic) {
        case L_AND: for (l = 0; l < n; l++) r[l] = (t[l] & (b[l] ^ inv1)) ^ invr; break;
        case L_OR: for (l = 0; l < n; l++) r[l] = (t[l] | (b[l] ^ inv1)) ^ invr; break;
        default: for (l = 0; l < n; l++) r[l] = (t[l] ^ (b[l] ^ inv1)) ^ invr; break;
        }
        return 1;
    }
    case K_ICMP: {
        uint32_t one = x->result_type == 0 ? 1 : 0xffffffffu;
        cmp_lanes(x, a, b, t, n);
        for (l = 0; l < n; l++)
            r[l] = t[l] ? one : 0;
        return 1;
    }
    case K_CSEL:
        cmp_lanes(x, a, b, t, n);
        for (l = 0; l < n; l++)
            r[l] = t[l] ? c[l] : s[3][l];
        return 1;
    case K_FADD: case K_FMA: case K_FCMP: {
        if (fc->ftz)
            return 0;
        /* fsrc's abs / neg as masks */
        uint32_t am[3], nm[3];
        for (unsigned k = 0; k < 3; k++) {
            am[k] = x->abs[k] ? 0x7fffffffu : 0xffffffffu;
            nm[k] = x->neg[k] ? 0x80000000u : 0;
        }
        if (kind == K_FCMP) {
            for (l = 0; l < n; l++)
                r[l] = bool_result(fcmp((a[l] & am[0]) ^ nm[0], (b[l] & am[1]) ^ nm[1], x->cmp), x->result_type);
            return 1;
        }
        for (l = 0; l < n; l++) {
            uint32_t in[3] = { (a[l] & am[0]) ^ nm[0], (b[l] & am[1]) ^ nm[1], kind == K_FMA ? (c[l] & am[2]) ^ nm[2] : 0 };
            float v = kind == K_FMA ? fmaf(f32(in[0]), f32(in[1]), f32(in[2])) : f32(in[0]) + f32(in[1]);
            uint32_t u = u32(v);
            if (__builtin_expect(is_nan(u), 0))
                u = nan_result(u, in, kind == K_FMA ? 3 : 2);
            r[l] = x->clamp ? fclamp(u, x->clamp) : u;
        }
        return 1;
    }
    case K_MUX:
        switch (x->mux) {
        case 0: for (l = 0; l < n; l++) r[l] = (c[l] & 0x80000000) ? b[l] : a[l]; break;
        case 1: for (l = 0; l < n; l++) r[l] = c[l] == 0 ? a[l] : b[l]; break;
        case 2: for (l = 0; l < n; l++) r[l] = (c[l] & 0x7fffffff) == 0 ? a[l] : b[l]; break;
        default: for (l = 0; l < n; l++) r[l] = (b[l] & c[l]) | (a[l] & ~c[l]); break;
        }
        return 1;
    case K_MKVEC: {
        unsigned sl = x->lane[0] == 0xff ? 0 : 16 * (x->lane[0] & 1), sh = x->lane[1] == 0xff ? 0 : 16 * (x->lane[1] & 1);
        for (l = 0; l < n; l++)
            r[l] = ((a[l] >> sl) & 0xffff) | ((b[l] >> sh) & 0xffff) << 16;
        return 1;
    }
    case K_ZEXT16: {
        unsigned sh = x->lane[0] == 0xff ? 0 : 16 * (x->lane[0] & 1);
        for (l = 0; l < n; l++)
            r[l] = (a[l] >> sh) & 0xffff;
        return 1;
    }
    default: return 0;
    }
}

/* Commit a tuple's register writes for the lanes whose lmask word is all ones. */
LANE_LOOP void commit(bi_warp *w, const bi_tuple *t, const uint32_t *lmask, const uint32_t *fres,
                      const uint32_t *ares, unsigned n)
{
    for (unsigned k = 0; k < t->nwrites; k++) {
        const bi_write *wr = &t->writes[k];
        uint32_t m = wr->mask == 3 ? 0xffffffff : wr->mask == 1 ? 0xffff : 0xffff0000;  /* inferred */
        const uint32_t *res = wr->from_add ? ares : fres;
        uint32_t *reg = w->reg[wr->reg];
        for (unsigned l = 0; l < n; l++) {
            uint32_t keep = m & lmask[l];
            reg[l] = (reg[l] & ~keep) | (res[l] & keep);
        }
    }
}

/* One clause for a warp of n lanes (n constant in each caller below, so the lane loops unroll). */
LANE_LOOP int exec_clause_n(bi_warp *w, const bi_xclause *x, uint32_t exec, char *err, size_t errlen, unsigned n)
{
    const bi_clause *c = &x->c;
    uint32_t t0[NL], t1[NL], fr[NL], ar[NL], lmask[NL], target[NL];
    uint32_t scratch[8][NL];
    int branch[NL];
    uint64_t atom_addr[NL];
    fctx fc = { .ftz = c->hdr[BI_H_FTZ] != 0 };
    staging stg;
    int rc;
    /* The clause's message (LOAD/STORE/atomics, ADD unit, one per clause) takes its address
     * operands when its tuple runs but reads and writes its staging registers at the end of the
     * clause, after every register write of the clause: Mesa writes a store's data register in
     * the same clause, a tuple before the STORE. */
    const bi_xinstr *msg = NULL;
    uint32_t msg_src[NL][4];
    uint64_t msg_atom[NL];

    stg.n = 0;
    for (unsigned l = 0; l < n; l++) {        /* loops, not initialisers: no memset calls */
        lmask[l] = (exec >> l) & 1 ? 0xffffffffu : 0;
        t0[l] = t1[l] = fr[l] = ar[l] = target[l] = 0;
        branch[l] = 0;
        atom_addr[l] = 0;
    }
    for (unsigned i = 0; i < c->ntuples; i++) {
        const bi_tuple *t = &c->t[i];
        const bi_xinstr *xf = &x->fma[i], *xa = &x->add[i];
        const uint32_t *s[4] = { zero_lanes, zero_lanes, zero_lanes, zero_lanes };
        for (unsigned k = 0; k < xf->nsrcs; k++)
            s[k] = src_lanes(w, x, i, &t->fma.src[k], zero_lanes, t0, t1, scratch[k], n);
        if (!exec_fast(x->fast_fma[i], xf, s, fr, &fc, n)) {
            for (unsigned l = 0; l < n; l++) {
                if (!(exec & (1u << l)))
                    continue;
                uint32_t sv[4] = { s[0][l], s[1][l], s[2][l], s[3][l] };
                if (xf->sem == S_ATOM_C) {
                    atom_addr[l] = sv[0] | (uint64_t)sv[1] << 32;
                    fr[l] = 0;
                } else if (is_mem(xf)) {
                    if ((rc = exec_mem(w, xf, c, l, sv, 0, &stg, &fr[l], err, errlen)))
                        return rc;
                } else {
                    fr[l] = exec_op(xf, sv, &fc, &branch[l], &target[l]);
                }
            }
        }
        s[0] = s[1] = s[2] = s[3] = zero_lanes;
        for (unsigned k = 0; k < xa->nsrcs; k++)
            s[k] = src_lanes(w, x, i, &t->add.src[k], fr, t0, t1, scratch[4 + k], n);
        if ((xa->sem >= S_LOAD && xa->sem <= S_ACMPXCHG) || xa->sem >= S_TEXC) {   /* deferred to the clause end */
            msg = xa;
            for (unsigned l = 0; l < n; l++) {
                for (unsigned k = 0; k < 4; k++)
                    msg_src[l][k] = s[k][l];
                msg_atom[l] = atom_addr[l];
            }
            for (unsigned l = 0; l < n; l++)
                ar[l] = 0;
        } else if (xa->sem == S_CLPER) {
            if (xa->clper_group > n)
                return fail(err, errlen, BI_EXEC_UNIMPLEMENTED, "clause %#x: CLPER.subgroup%u on a %u-lane warp",
                            c->offset, xa->clper_group, n);
            for (unsigned l = 0; l < n; l++) {
                unsigned g = xa->clper_group - 1u;   /* assumption: src1 taken modulo the group size */
                unsigned from = (l & ~g) | (((xa->clper_xor ? l : 0) ^ s[1][l]) & g);
                ar[l] = (exec >> from) & 1 ? s[0][from] : xa->clper_inactive;
            }
        } else if (!exec_fast(x->fast_add[i], xa, s, ar, &fc, n)) {
            for (unsigned l = 0; l < n; l++) {
                if (!(exec & (1u << l)))
                    continue;
                uint32_t sv[4] = { s[0][l], s[1][l], s[2][l], s[3][l] };
                if (is_mem(xa)) {
                    if ((rc = exec_mem(w, xa, c, l, sv, atom_addr[l], &stg, &ar[l], err, errlen)))
                        return rc;
                } else {
                    ar[l] = exec_op(xa, sv, &fc, &branch[l], &target[l]);
                }
            }
        }
        if (xa->sem == S_BARRIER)
            w->barriers++;
        if (i > 0)
            commit(w, &c->t[i - 1], lmask, t0, t1, n);
        for (unsigned l = 0; l < n; l++) {
            t0[l] = fr[l];
            t1[l] = ar[l];
        }
    }
    commit(w, &c->t[c->ntuples - 1], lmask, t0, t1, n);
    if (msg && msg->size == 4 && (msg->sem == S_LOAD || msg->sem == S_STORE) &&
        (msg->seg == SEG_NONE || msg->seg == SEG_WLS) && w->mem) {
        /* 32-bit global / workgroup-local load or store: exec_mem's work without its generality */
        const bi_mem *m = w->mem;
        unsigned sr = c->hdr[BI_H_SR];
        for (unsigned l = 0; l < n; l++) {
            if (!(exec & (1u << l)))
                continue;
            uint64_t addr = msg->seg == SEG_WLS ? m->wls_base + msg_src[l][0]
                                                : msg_src[l][0] | (uint64_t)msg_src[l][1] << 32;
            uint8_t b[4];
            if (msg->sem == S_LOAD) {
                if (m->read(m->ctx, addr, b, 4))
                    return fail(err, errlen, BI_EXEC_ERROR, "clause %#x lane %u: load fault at %#llx", c->offset, l,
                                (unsigned long long)addr);
                stg.val[l][0] = b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
            } else {
                uint32_t v = w->reg[sr][l];
                b[0] = (uint8_t)v, b[1] = (uint8_t)(v >> 8), b[2] = (uint8_t)(v >> 16), b[3] = (uint8_t)(v >> 24);
                if (m->write(m->ctx, addr, b, 4))
                    return fail(err, errlen, BI_EXEC_ERROR, "clause %#x lane %u: store fault at %#llx", c->offset, l,
                                (unsigned long long)addr);
            }
        }
        stg.n = msg->sem == S_LOAD;
    } else if (msg) {
        uint32_t dummy;
        for (unsigned l = 0; l < n; l++)
            if ((exec & (1u << l)) && (rc = exec_mem(w, msg, c, l, msg_src[l], msg_atom[l], &stg, &dummy, err, errlen)))
                return rc;
    }
    for (unsigned r = 0; r < stg.n; r++)          /* staging writes of a load land at clause end */
        for (unsigned l = 0; l < n; l++)
            if (exec & (1u << l))
                w->reg[c->hdr[BI_H_SR] + r][l] = stg.val[l][r];
    for (unsigned l = 0; l < n; l++) {
        if (!(exec & (1u << l)))
            continue;
        w->pc[l] = branch[l] ? target[l] : c->offset + c->size;
        if (c->hdr[BI_H_FLOW] == 0 || (branch[l] && target[l] == PC_EXIT))
            w->done[l] = 1;
    }
    unsigned active = exec - ((exec >> 1) & 0x55);            /* popcount of 8 bits */
    active = (active & 0x33) + ((active >> 2) & 0x33);
    active = (active + (active >> 4)) & 0x0f;
    w->clauses_run++;
    w->tuples_run += c->ntuples;
    w->lanes_run += active;
    w->lane_instrs += (uint64_t)x->ninstrs * active;
    return BI_EXEC_OK;
}

int bi_exec_clause(bi_warp *w, const bi_xclause *x, uint32_t exec, char *err, size_t errlen)
{
    exec &= (1u << w->lanes) - 1;
    return w->lanes == 8 ? exec_clause_n(w, x, exec, err, errlen, 8) : exec_clause_n(w, x, exec, err, errlen, 4);
}

void bi_warp_init(bi_warp *w, enum bi_arch arch)
{
    memset(w, 0, sizeof(*w));
    w->lanes = arch >= BI_ARCH_V7 ? 8 : 4;
}

/* ---- programs: clauses decoded and prepared once, on first execution ---------------------------- */

/* Clause table: two levels indexed by offset / 16 (L1: 64 KiB of code per L2 page), entries
 * published with release stores so that warps on other host threads read them lock-free. */
#define PROG_L2_BITS 12
#define PROG_L1_SIZE 256         /* 16 MiB of code */

struct bi_program {
    const uint8_t *code;         /* NULL: fetched through bi_mem */
    size_t len;
    enum bi_arch arch;
    pthread_mutex_t lock;        /* decoding, table growth, re-validation */
    bi_xclause **l1[PROG_L1_SIZE];
    bi_xclause **old;            /* clauses replaced after a change of their bytes (freed last) */
    size_t nold, capold;
    unsigned nclauses;
};

static bi_xclause **prog_slot(bi_program *p, uint32_t pc, int create)
{
    uint32_t idx = pc / 16, hi = idx >> PROG_L2_BITS;
    if (hi >= PROG_L1_SIZE)
        return NULL;
    bi_xclause **l2 = __atomic_load_n(&p->l1[hi], __ATOMIC_ACQUIRE);
    if (!l2) {
        if (!create)
            return NULL;
        l2 = calloc((size_t)1 << PROG_L2_BITS, sizeof(*l2));      /* under p->lock */
        if (!l2)
            return NULL;
        __atomic_store_n(&p->l1[hi], l2, __ATOMIC_RELEASE);
    }
    return &l2[idx & ((1u << PROG_L2_BITS) - 1)];
}

static void prog_init(bi_program *p, enum bi_arch arch)
{
    p->arch = arch;
    pthread_mutex_init(&p->lock, NULL);
}

bi_program *bi_program_new(const uint8_t *code, size_t len, enum bi_arch arch)
{
    bi_program *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    prog_init(p, arch);
    p->code = code;
    p->len = len;
    return p;
}

bi_program *bi_program_new_fetch(enum bi_arch arch)
{
    bi_program *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    prog_init(p, arch);
    return p;
}

static void free_xclause(bi_xclause *x)
{
    if (x) {
        free(x->raw);
        free(x);
    }
}

void bi_program_free(bi_program *p)
{
    if (!p)
        return;
    for (unsigned i = 0; i < PROG_L1_SIZE; i++) {
        if (!p->l1[i])
            continue;
        for (unsigned j = 0; j < (1u << PROG_L2_BITS); j++)
            free_xclause(p->l1[i][j]);
        free(p->l1[i]);
    }
    for (size_t i = 0; i < p->nold; i++)
        free_xclause(p->old[i]);
    free(p->old);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

enum bi_arch bi_program_arch(const bi_program *p) { return p->arch; }

unsigned bi_program_clauses(bi_program *p)
{
    pthread_mutex_lock(&p->lock);
    unsigned n = p->nclauses;
    pthread_mutex_unlock(&p->lock);
    return n;
}

/* Read the bytes of the clause at pc for a fetched program: up to 512 bytes (the longest clause),
 * stopping at the first page end the fetch callback reports unless more are needed. */
static int fetch_code(const bi_mem *m, uint32_t pc, uint8_t *buf, size_t *len, int more)
{
    size_t have = *len, want = more ? 512 : (have ? have : 512);
    while (have < want) {
        unsigned got = m->fetch(m->ctx, pc + have, buf + have, (unsigned)(want - have));
        if (!got)
            return -1;
        have += got;
        if (!more)
            break;            /* first try: what the first page holds */
    }
    *len = have;
    return 0;
}

static int decode_new(bi_program *p, const bi_mem *m, uint32_t pc, bi_xclause **out, char *err, size_t errlen)
{
    bi_clause c;
    uint8_t buf[512];
    size_t have = 0;
    const uint8_t *code;
    if (p->code) {
        if (pc >= p->len)
            return fail(err, errlen, BI_EXEC_ERROR, "bad clause address %#x", pc);
        code = p->code + pc;
        have = p->len - pc;
        if (bi_decode_clause(code, have, pc, p->arch, &c, err, errlen))
            return BI_EXEC_ERROR;
    } else {
        if (!m || !m->fetch)
            return fail(err, errlen, BI_EXEC_ERROR, "clause %#x: no code", pc);
        if (fetch_code(m, pc, buf, &have, 0))
            return fail(err, errlen, BI_EXEC_ERROR, "instruction fetch fault at clause %#x", pc);
        code = buf;
        if (bi_decode_clause(code, have, pc, p->arch, &c, err, errlen)) {
            if (have >= 512)
                return BI_EXEC_ERROR;
            if (fetch_code(m, pc, buf, &have, 1))      /* the clause may continue on the next page */
                return fail(err, errlen, BI_EXEC_ERROR, "instruction fetch fault at clause %#x", pc);
            if (bi_decode_clause(code, have, pc, p->arch, &c, err, errlen))
                return BI_EXEC_ERROR;
        }
    }
    bi_xclause *x = calloc(1, sizeof(*x));
    if (!x)
        return fail(err, errlen, BI_EXEC_ERROR, "out of memory");
    int rc = bi_prepare_clause(x, &c, err, errlen);
    if (rc) {
        free(x);
        return rc;
    }
    if (!p->code) {
        x->raw = malloc(c.size);
        if (!x->raw) {
            free(x);
            return fail(err, errlen, BI_EXEC_ERROR, "out of memory");
        }
        memcpy(x->raw, code, c.size);
        x->epoch = m->epoch;
    }
    *out = x;
    return BI_EXEC_OK;
}

/* The prepared clause at pc, decoding it (or checking its bytes again under a new epoch). */
static int get_clause(bi_program *p, const bi_mem *m, uint32_t pc, bi_xclause **out, char *err, size_t errlen)
{
    bi_xclause **slot = prog_slot(p, pc, 0);
    bi_xclause *x = slot ? __atomic_load_n(slot, __ATOMIC_ACQUIRE) : NULL;
    if (x && (p->code || (m && __atomic_load_n(&x->epoch, __ATOMIC_ACQUIRE) == m->epoch))) {
        *out = x;
        return BI_EXEC_OK;
    }
    int rc = BI_EXEC_OK;
    pthread_mutex_lock(&p->lock);
    slot = prog_slot(p, pc, 1);
    if (!slot) {
        rc = fail(err, errlen, BI_EXEC_ERROR, "bad clause address %#x", pc);
        goto out;
    }
    x = *slot;
    if (x && !p->code && x->epoch != m->epoch) {
        /* a new job: the clause is used only if its bytes are unchanged */
        uint8_t buf[512];
        size_t have = 0, need = x->c.size;
        int same = m && m->fetch;
        while (same && have < need) {
            unsigned got = m->fetch(m->ctx, pc + have, buf + have, (unsigned)(need - have));
            if (!got) {
                rc = fail(err, errlen, BI_EXEC_ERROR, "instruction fetch fault at clause %#x", pc);
                goto out;
            }
            have += got;
        }
        if (same && !memcmp(buf, x->raw, need)) {
            __atomic_store_n(&x->epoch, m->epoch, __ATOMIC_RELEASE);
        } else {
            if (p->nold == p->capold) {
                size_t cap = p->capold ? 2 * p->capold : 16;
                bi_xclause **n = realloc(p->old, cap * sizeof(*n));
                if (!n) {
                    rc = fail(err, errlen, BI_EXEC_ERROR, "out of memory");
                    goto out;
                }
                p->old = n;
                p->capold = cap;
            }
            p->old[p->nold++] = x;       /* other warps may still hold it */
            __atomic_store_n(slot, NULL, __ATOMIC_RELEASE);
            p->nclauses--;
            x = NULL;
        }
    }
    if (!x) {
        rc = decode_new(p, m, pc, &x, err, errlen);
        if (rc)
            goto out;
        __atomic_store_n(slot, x, __ATOMIC_RELEASE);
        p->nclauses++;
    }
    *out = x;
out:
    pthread_mutex_unlock(&p->lock);
    return rc;
}

bi_exec_hook_fn bi_exec_hook;

int bi_exec_program(bi_warp *w, bi_program *p, unsigned max_clauses, char *err, size_t errlen)
{
    for (unsigned n = 0; n < max_clauses; n++) {
        uint32_t pc = UINT32_MAX, exec = 0;
        for (unsigned l = 0; l < w->lanes; l++)
            if (!w->done[l] && w->pc[l] < pc)
                pc = w->pc[l];
        if (pc == UINT32_MAX)
            return BI_EXEC_END;
        for (unsigned l = 0; l < w->lanes; l++)
            if (!w->done[l] && w->pc[l] == pc)
                exec |= 1u << l;
        if (pc % 16 || (p->code && pc >= p->len))
            return fail(err, errlen, BI_EXEC_ERROR, "bad clause address %#x", pc);
        bi_xclause *x;
        int rc = get_clause(p, w->mem, pc, &x, err, errlen);
        if (rc)
            return rc;
        unsigned barriers = w->barriers;
        rc = bi_exec_clause(w, x, exec, err, errlen);
        if (rc)
            return rc;
        if (__builtin_expect(bi_exec_hook != NULL, 0))
            bi_exec_hook(w, p, x, exec);
        if (w->barriers != barriers)
            return BI_EXEC_BARRIER;
    }
    return fail(err, errlen, BI_EXEC_ERROR, "clause limit (%u) reached", max_clauses);
}

int bi_exec_shader(bi_warp *w, const uint8_t *code, size_t len, enum bi_arch arch,
                   unsigned max_clauses, char *err, size_t errlen)
{
    bi_program *p = bi_program_new(code, len, arch);
    if (!p)
        return fail(err, errlen, BI_EXEC_ERROR, "out of memory");
    int rc;
    unsigned left = max_clauses;
    do {     /* a lone warp passes barriers */
        uint64_t before = w->clauses_run;
        rc = bi_exec_program(w, p, left, err, errlen);
        left -= (unsigned)(w->clauses_run - before);
    } while (rc == BI_EXEC_BARRIER && left);
    bi_program_free(p);
    return rc == BI_EXEC_BARRIER ? fail(err, errlen, BI_EXEC_ERROR, "clause limit (%u) reached", max_clauses) : rc;
}

/* ---- compute workgroups ------------------------------------------------------------------------ */

void bi_compute_preload(bi_warp *w, unsigned lane, const uint32_t local_id[3], const uint32_t wg_id[3],
                        const uint32_t global_id[3])
{
    w->reg[55][lane] = (local_id[0] & 0xffff) | local_id[1] << 16;
    w->reg[56][lane] = local_id[2] & 0xffff;
    for (unsigned i = 0; i < 3; i++) {
        w->reg[57 + i][lane] = wg_id[i];
        w->reg[60 + i][lane] = global_id[i];
    }
}

int bi_run_workgroup(const bi_workgroup *wg, bi_program *p, bi_wg_stats *stats, char *err, size_t errlen)
{
    unsigned lanes = p->arch >= BI_ARCH_V7 ? 8 : 4;
    unsigned nthreads = wg->local_size[0] * wg->local_size[1] * wg->local_size[2];
    unsigned nwarps = (nthreads + lanes - 1) / lanes;
    if (!nthreads)
        return BI_EXEC_END;
    bi_warp *warps = calloc(nwarps, sizeof(*warps));
    int *state = calloc(nwarps, sizeof(*state));      /* 0 running, 1 at barrier, 2 done */
    if (!warps || !state) {
        free(warps);
        free(state);
        return fail(err, errlen, BI_EXEC_ERROR, "out of memory");
    }
    for (unsigned k = 0; k < nwarps; k++) {
        bi_warp *w = &warps[k];
        bi_warp_init(w, p->arch);
        w->mem = wg->mem;
        w->uniforms = wg->uniforms;
        w->nuniforms = wg->nuniforms;
        w->warp_id = k;
        w->core_id = wg->core_id;
        for (unsigned l = 0; l < lanes; l++) {
            unsigned t = k * lanes + l;
            if (t >= nthreads) {
                w->done[l] = 1;
                continue;
            }
            uint32_t lid[3] = { t % wg->local_size[0], (t / wg->local_size[0]) % wg->local_size[1],
                                t / (wg->local_size[0] * wg->local_size[1]) };
            uint32_t gid[3];
            for (unsigned i = 0; i < 3; i++)
                gid[i] = wg->wg_id[i] * wg->local_size[i] + lid[i];
            bi_compute_preload(w, l, lid, wg->wg_id, gid);
            w->tls_base[l] = wg->tls_base + (uint64_t)t * wg->tls_stride;
        }
    }
    int rc = BI_EXEC_END;
    unsigned budget = wg->max_clauses;
    for (;;) {
        unsigned running = 0, waiting = 0;
        for (unsigned k = 0; k < nwarps && rc >= 0; k++) {
            if (state[k])
                continue;
            uint64_t before = warps[k].clauses_run;
            int r = bi_exec_program(&warps[k], p, budget, err, errlen);
            budget -= (unsigned)(warps[k].clauses_run - before);
            if (r == BI_EXEC_BARRIER)
                state[k] = 1;
            else if (r == BI_EXEC_END)
                state[k] = 2;
            else
                rc = r;
        }
        if (rc < 0)
            break;
        for (unsigned k = 0; k < nwarps; k++) {
            running += state[k] == 0;
            waiting += state[k] == 1;
        }
        if (!running && !waiting)
            break;
        if (!running)                 /* every live warp reached the barrier: release them */
            for (unsigned k = 0; k < nwarps; k++)
                if (state[k] == 1)
                    state[k] = 0;
        if (!budget) {
            rc = fail(err, errlen, BI_EXEC_ERROR, "clause limit (%u) reached", wg->max_clauses);
            break;
        }
    }
    if (stats) {
        memset(stats, 0, sizeof(*stats));
        stats->warps = nwarps;
        for (unsigned k = 0; k < nwarps; k++) {
            stats->clauses += warps[k].clauses_run;
            stats->lane_clauses += warps[k].lanes_run;
            stats->barriers += warps[k].barriers;
        }
    }
    free(warps);
    free(state);
    return rc;
}
