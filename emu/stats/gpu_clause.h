/* Decode-time counters of one Bifrost clause: a pure function over bifrost_decode's output
 * (bi_clause), so it needs nothing from the executor.  Counts are per execution of the clause by
 * one warp; the report multiplies them by executions (warp level) or by active lanes (thread
 * level). */
#ifndef MALIBU_STATS_GPU_CLAUSE_H
#define MALIBU_STATS_GPU_CLAUSE_H

#include <stdint.h>

#include "bifrost_decode.h"

/* Instruction classes (one per FMA/ADD slot). */
enum sc_class {
    SC_FMA_ARITH,       /* FMA-unit ALU op (incl. moves, compares, transcendental helpers) */
    SC_ADD_ARITH,       /* ADD-unit ALU op */
    SC_CONVERT,         /* *_TO_* conversions (either unit) */
    SC_CONTROL,         /* BRANCH*, JUMP*, DISCARD, KABOOM */
    SC_LOAD_GLOBAL,     /* LOAD seg none/stream */
    SC_STORE_GLOBAL,
    SC_LOAD_LOCAL,      /* LOAD seg wls (workgroup-local storage) */
    SC_STORE_LOCAL,
    SC_LOAD_UNIFORM,    /* LOAD seg ubo */
    SC_LOAD_STACK,      /* LOAD seg tl (thread-local storage / stack) */
    SC_STORE_STACK,
    SC_ATOMIC,          /* AXCHG, ACMPXCHG, ACMPSTORE, ATOM_* */
    SC_BARRIER,
    SC_TEXTURE,         /* texture and var_tex messages */
    SC_VARYING,         /* varying and attribute messages */
    SC_OTHER_MSG,       /* blend, tile, z/stencil, atest, job messages */
    SC_NOP_FMA,         /* empty FMA slot */
    SC_NOP_ADD,         /* empty ADD slot */
    SC_INVALID,         /* undecodable encoding */
    SC_N
};
extern const char *const sc_class_names[SC_N];

/* Data accesses of one clause execution (one warp, per lane). */
enum sc_data {
    SD_REG_READ,        /* register-file port reads (ports 0-2 enabled for reading) */
    SD_REG_WRITE,       /* register writes of tuple results */
    SD_STAGING_READ,    /* staging registers read by messages (store data, atomics) */
    SD_STAGING_WRITE,   /* staging registers written by messages (load results) */
    SD_TEMP,            /* source operands from T / T0 / T1 passthroughs (no register access) */
    SD_SRC_REG,         /* source operands read from a register port */
    SD_FAU_UNIFORM,     /* source operands reading a uniform (FAU) */
    SD_FAU_CONST,       /* source operands reading an embedded constant */
    SD_FAU_SPECIAL,     /* source operands reading a special FAU value (lane id, ...) */
    SD_ZERO,            /* FMA #0 operands */
    SD_CONSTANTS,       /* 64-bit constants embedded in the clause */
    SD_GLOBAL_BYTES,    /* bytes per lane loaded/stored from global memory (atomics: operand size) */
    SD_LOCAL_BYTES,     /* ... workgroup-local memory */
    SD_UNIFORM_BYTES,   /* ... uniform buffers */
    SD_STACK_BYTES,     /* ... thread-local storage */
    SD_N
};
extern const char *const sd_names[SD_N];

typedef struct sc_clause_info {
    uint8_t tuples;
    uint8_t constants;
    uint8_t has_branch;     /* a control-flow instruction */
    uint8_t end;            /* flow = 0: lanes finish after it */
    uint16_t cls[SC_N];
    uint16_t data[SD_N];
    uint16_t instrs;        /* non-empty, valid slots */
} sc_clause_info;

/* Fill *out from a decoded clause. */
void sc_analyze_clause(const bi_clause *c, sc_clause_info *out);
/* Class of one decoded instruction (is_add: ADD unit). */
enum sc_class sc_classify(const bi_instr *ins, int is_add);

#endif
