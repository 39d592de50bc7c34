/* Bifrost (Mali v6/v7) clause decoder: raw quadwords -> decoded clause, decoded once and
 * executed many times.  Encoding tables are generated from isa/bifrost/ops.isa and clause.isa (bifrost_isa.h). */
#ifndef MALIBU_BIFROST_DECODE_H
#define MALIBU_BIFROST_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bifrost_isa.h"

enum bi_arch { BI_ARCH_V6 = 6, BI_ARCH_V7 = 7 };

/* Where an FMA/ADD source comes from, resolved from its 3-bit selector and the tuple's
 * register block / FAU index. */
enum bi_src_kind {
    BI_SRC_NONE = 0,
    BI_SRC_REG,         /* index = register number (read at the start of the tuple) */
    BI_SRC_ZERO,        /* FMA selector 3: constant 0 */
    BI_SRC_T,           /* ADD selector 3: FMA result of this tuple */
    BI_SRC_T0,          /* FMA result of the previous tuple */
    BI_SRC_T1,          /* ADD result of the previous tuple */
    BI_SRC_UNIFORM,     /* index = uniform pair (fau_idx & 0x7f); hi selects the word */
    BI_SRC_CONST,       /* index = clause constant; value = tuple fau_value (hi: upper word) */
    BI_SRC_SPECIAL,     /* index = fau_idx (< 0x20): lane_id, warp_id, ... */
    BI_SRC_BAD,         /* selector not usable here (e.g. port not enabled) */
};

typedef struct {
    uint8_t kind;
    uint8_t hi;         /* FAU sources: upper 32 bits */
    uint16_t index;
} bi_src;

typedef struct {
    uint16_t op;                    /* enum bi_op; BI_OP_INVALID if the bits match nothing */
    uint16_t variant;               /* index into bi_variants_fma/add */
    uint32_t bits;                  /* raw 23-bit (FMA) / 20-bit (ADD) field */
    uint8_t sel[BI_MAX_SRCS];       /* raw selectors */
    bi_src src[BI_MAX_SRCS];
    uint8_t mod[BI_MAX_MODS];       /* value index per bi_ops[op].mods[i] */
    uint16_t imm[BI_MAX_IMMS];
} bi_instr;

/* A register write of a tuple's result. mask: 1 = low half, 2 = high half, 3 = whole. */
typedef struct {
    uint8_t reg, mask, from_add;
} bi_write;

typedef struct {
    uint64_t regs;                  /* raw 35-bit register block */
    bi_instr fma, add;
    uint8_t fau_idx;
    uint8_t fau_const;              /* fau_idx names a clause constant: fau_value/fau_mod valid */
    uint8_t fau_mod;                /* BI_CONSTMOD_* of that constant */
    uint64_t fau_value;             /* constant incl. the fau_idx low nibble (before PC modification) */
    uint8_t port[3];                /* register numbers of ports 0..2 */
    uint8_t port_read[3];           /* port enabled for reading */
    uint8_t mode;                   /* 5-bit register block mode */
    uint8_t nwrites;
    bi_write writes[2];             /* writes of THIS tuple's results, committed after it runs
                                       (the last tuple's: at the end of the clause) */
} bi_tuple;

typedef struct {
    uint32_t offset;                /* byte offset of the clause in the shader */
    uint32_t size;                  /* bytes (16 x quadwords) */
    uint64_t header;
    uint32_t hdr[BI_NUM_HEADER_FIELDS];   /* header fields, in bi_header_fields order */
    unsigned ntuples;
    bi_tuple t[8];
    unsigned nconsts;
    uint64_t consts[8];             /* 64-bit constants (low 4 bits zero; supplied by fau_idx) */
    uint8_t constmod[8];
} bi_clause;

/* Header field indices (bi_header_fields order) */
enum {
    BI_H_RESERVED0, BI_H_FTZ, BI_H_SUPPRESS_INF, BI_H_SUPPRESS_NAN, BI_H_FEXC, BI_H_FLOW,
    BI_H_RESERVED1, BI_H_TD, BI_H_PREFETCH, BI_H_OSRB, BI_H_SR, BI_H_WAIT, BI_H_SLOT, BI_H_MSG,
    BI_H_NEXT_MSG,
};

/* Decode one clause at code[0..] (len bytes available). Returns 0 and fills *c, or -1 with a
 * message in err (if non-NULL). Unknown FMA/ADD encodings decode as BI_OP_INVALID (not an error). */
int bi_decode_clause(const uint8_t *code, size_t len, uint32_t offset, enum bi_arch arch,
                     bi_clause *c, char *err, size_t errlen);

/* Decode one FMA (is_add = false) or ADD instruction field; returns false if invalid. */
bool bi_decode_instr(uint32_t bits, bool is_add, enum bi_arch arch, bi_instr *out);

/* Value of modifier mod (BI_MOD_*) of the instruction, as a value name number (BI_MV_*), or -1 if
 * its op has no such modifier: the executor's way to read modifiers (no name compares). */
static inline int bi_mod_mv(const bi_instr *ins, int mod)
{
    int slot = bi_op_mod_slot[ins->op][mod];
    return slot < 0 ? -1 : bi_ops[ins->op].mods[slot].mv[ins->mod[slot]];
}

/* Value index of modifier `name` of the instruction's op, or -1 if the op has no such modifier. */
int bi_mod_value(const bi_instr *ins, const char *name);
const char *bi_mod_value_name(const bi_instr *ins, const char *name);

/* Disassembly (bifrost_disasm.c). */
void bi_disasm_clause(FILE *fp, const bi_clause *c);
void bi_disasm_instr(FILE *fp, const bi_clause *c, unsigned tuple, bool is_add);
/* Disassemble a whole shader (raw clauses, stops at an all-zero quadword). Returns 0 on success.
 * verbose: also print each clause's quadwords, tuple fields and constants as # comments. */
int bi_disasm_shader(FILE *fp, const uint8_t *code, size_t len, enum bi_arch arch);
int bi_disasm_shader_verbose(FILE *fp, const uint8_t *code, size_t len, enum bi_arch arch, bool verbose);

#endif
