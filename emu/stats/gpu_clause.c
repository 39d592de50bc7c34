/* Decode-time counters of a Bifrost clause (see gpu_clause.h). */
#include "gpu_clause.h"

#include <stdlib.h>
#include <string.h>

const char *const sc_class_names[SC_N] = {
    "fma_arith", "add_arith", "convert", "control", "load_global", "store_global", "load_local",
    "store_local", "load_uniform", "load_stack", "store_stack", "atomic", "barrier", "texture",
    "varying", "other_message", "nop_fma", "nop_add", "invalid",
};

const char *const sd_names[SD_N] = {
    "reg_read", "reg_write", "staging_read", "staging_write", "temp", "src_reg", "fau_uniform",
    "fau_const", "fau_special", "zero", "constants", "global_bytes", "local_bytes", "uniform_bytes",
    "stack_bytes",
};

/* Message types (bi_msg_names order). */
enum { MSG_NONE, MSG_VARYING, MSG_ATTRIBUTE, MSG_TEX, MSG_VAR_TEX, MSG_LOAD, MSG_STORE, MSG_ATOMIC,
       MSG_BARRIER };

static int prefix(const char *name, const char *p)
{
    return !strncmp(name, p, strlen(p));
}

/* Bytes per lane of a memory op from its ".iN" suffix (LOAD.i32 -> 4), else 4. */
static unsigned op_bytes(const char *name)
{
    const char *d = strstr(name, ".i");
    if (d) {
        unsigned bits = (unsigned)strtoul(d + 2, NULL, 10);
        if (bits >= 8)
            return bits / 8;
    }
    return 4;
}

/* 0 global, 1 local, 2 uniform, 3 stack */
static int segment(const bi_instr *ins)
{
    const char *seg = bi_mod_value_name(ins, "seg");
    if (!seg)
        return 0;
    if (!strcmp(seg, "wls"))
        return 1;
    if (!strcmp(seg, "ubo"))
        return 2;
    if (!strcmp(seg, "tl"))
        return 3;
    return 0;
}

enum sc_class sc_classify(const bi_instr *ins, int is_add)
{
    if (ins->op == BI_OP_INVALID || ins->op >= BI_NUM_OPS)
        return SC_INVALID;
    if (ins->op == BI_OP_FMA_NOP)
        return SC_NOP_FMA;
    if (ins->op == BI_OP_ADD_NOP)
        return SC_NOP_ADD;
    const struct bi_op_desc *d = &bi_ops[ins->op];
    const char *n = d->name;
    if (prefix(n, "ATOM_") || prefix(n, "AXCHG") || prefix(n, "ACMPXCHG") || prefix(n, "ACMPSTORE"))
        return SC_ATOMIC;
    switch (d->msg) {
    case MSG_LOAD: {
        static const enum sc_class c[4] = { SC_LOAD_GLOBAL, SC_LOAD_LOCAL, SC_LOAD_UNIFORM, SC_LOAD_STACK };
        return c[segment(ins)];
    }
    case MSG_STORE: {
        static const enum sc_class c[4] = { SC_STORE_GLOBAL, SC_STORE_LOCAL, SC_STORE_GLOBAL, SC_STORE_STACK };
        return c[segment(ins)];
    }
    case MSG_ATOMIC: return SC_ATOMIC;
    case MSG_BARRIER: return SC_BARRIER;
    case MSG_TEX: case MSG_VAR_TEX: return SC_TEXTURE;
    case MSG_VARYING: case MSG_ATTRIBUTE: return SC_VARYING;
    case MSG_NONE: break;
    default: return SC_OTHER_MSG;
    }
    if (prefix(n, "BRANCH") || prefix(n, "JUMP") || prefix(n, "DISCARD") || prefix(n, "KABOOM"))
        return SC_CONTROL;
    if (strstr(n, "_TO_"))
        return SC_CONVERT;
    return is_add ? SC_ADD_ARITH : SC_FMA_ARITH;
}

static unsigned staging_regs(const bi_instr *ins)
{
    const struct bi_op_desc *d = &bi_ops[ins->op];
    if (d->staging_count > 0)
        return (unsigned)d->staging_count;
    return d->staging_dir ? 1 : 0;   /* sr_count / format: at least one register */
}

static void count_srcs(const bi_instr *ins, sc_clause_info *o)
{
    const struct bi_op_desc *d = &bi_ops[ins->op];
    for (unsigned k = 0; k < d->nsrcs && k < BI_MAX_SRCS; k++) {
        switch (ins->src[k].kind) {
        case BI_SRC_REG: o->data[SD_SRC_REG]++; break;
        case BI_SRC_T: case BI_SRC_T0: case BI_SRC_T1: o->data[SD_TEMP]++; break;
        case BI_SRC_UNIFORM: o->data[SD_FAU_UNIFORM]++; break;
        case BI_SRC_CONST: o->data[SD_FAU_CONST]++; break;
        case BI_SRC_SPECIAL: o->data[SD_FAU_SPECIAL]++; break;
        case BI_SRC_ZERO: o->data[SD_ZERO]++; break;
        default: break;
        }
    }
}

static void count_instr(const bi_instr *ins, int is_add, sc_clause_info *o)
{
    enum sc_class k = sc_classify(ins, is_add);
    o->cls[k]++;
    if (k == SC_NOP_FMA || k == SC_NOP_ADD || k == SC_INVALID)
        return;
    o->instrs++;
    if (k == SC_CONTROL)
        o->has_branch = 1;
    count_srcs(ins, o);
    const struct bi_op_desc *d = &bi_ops[ins->op];
    unsigned sr = staging_regs(ins);
    if (d->staging_dir & BI_STAGING_R)
        o->data[SD_STAGING_READ] += sr;
    if (d->staging_dir & BI_STAGING_W)
        o->data[SD_STAGING_WRITE] += sr;
    unsigned bytes = op_bytes(d->name);
    switch (k) {
    case SC_LOAD_GLOBAL: case SC_STORE_GLOBAL: o->data[SD_GLOBAL_BYTES] += bytes; break;
    case SC_LOAD_LOCAL: case SC_STORE_LOCAL: o->data[SD_LOCAL_BYTES] += bytes; break;
    case SC_LOAD_UNIFORM: o->data[SD_UNIFORM_BYTES] += bytes; break;
    case SC_LOAD_STACK: case SC_STORE_STACK: o->data[SD_STACK_BYTES] += bytes; break;
    case SC_ATOMIC:
        /* the FMA half of a split atomic (ATOM_C) carries no memory access of its own */
        if (d->msg == MSG_ATOMIC)
            o->data[segment(ins) == 1 ? SD_LOCAL_BYTES : SD_GLOBAL_BYTES] += bytes;
        break;
    default: break;
    }
}

void sc_analyze_clause(const bi_clause *c, sc_clause_info *o)
{
    memset(o, 0, sizeof(*o));
    o->tuples = (uint8_t)c->ntuples;
    o->constants = (uint8_t)c->nconsts;
    o->data[SD_CONSTANTS] = (uint16_t)c->nconsts;
    o->end = c->hdr[BI_H_FLOW] == 0;
    for (unsigned i = 0; i < c->ntuples && i < 8; i++) {
        const bi_tuple *t = &c->t[i];
        for (unsigned p = 0; p < 3; p++)
            o->data[SD_REG_READ] += t->port_read[p] != 0;
        o->data[SD_REG_WRITE] += t->nwrites;
        count_instr(&t->fma, 0, o);
        count_instr(&t->add, 1, o);
    }
}
