/* Internal to the clause compiler (bifrost_exec_jit.c: the clause, its frame, messages, branches,
 * commits; bifrost_exec_jit_alu.c: ALU units): the compiler's state, where compiled code finds
 * its rows (registers through rbx = the warp, the frame through r12, constant rows through r14),
 * and the pieces the two files share. */
#ifndef MALIBU_BIFROST_EXEC_JIT_COMP_H
#define MALIBU_BIFROST_EXEC_JIT_COMP_H

#include <stddef.h>

#include "bifrost_exec_jit.h"
#include "bifrost_jit_emit.h"

/* Constant rows (bx_jit_krows, read through r14). */
enum { KR_ABS, KR_SIGN, KR_ONE, KR_FONE, KR_31, KR_FFFF, KR_ONES, KR_LANEBIT, KR_LANEID, KR_EXP, KR_FF, KR_2P16,
       KR_126, KR_600, KR_BYTE_BASE, KR_M600, KR_F2P31, KR_F2P32, KR_MANT_SIGN, KR_HALF_EXP, KR_MANT_TOP,
       /* rows of four 64-bit values (double-precision code) */
       KR_Q_ABS, KR_Q_INF, KR_Q_ONE, KR_Q_1023, KR_D_ONE, KR_D_4, KR_D_M4, KR_N };
extern const uint32_t bx_jit_krows[KR_N][NL];
#define KROW(k) ((int32_t)((k) * NL * 4))

/* displacements: warp register rows (from rbx), frame rows and fields (from r12) */
#define W_REG(r) ((int32_t)(offsetof(bi_warp, reg) + (size_t)(r) * NL * 4))
#define F_RES(i, u) ((int32_t)(offsetof(bx_jit_frame, res) + ((size_t)(i) * 2 + (u)) * NL * 4))
#define F_ZERO ((int32_t)offsetof(bx_jit_frame, zero))
#define F_KEEP(k) ((int32_t)(offsetof(bx_jit_frame, keep) + (size_t)(k) * NL * 4))
#define F_BC(k) ((int32_t)(offsetof(bx_jit_frame, bc) + (size_t)(k) * NL * 4))
#define F_EXEC ((int32_t)offsetof(bx_jit_frame, exec))
#define F_ST(field) ((int32_t)(offsetof(bx_jit_frame, st) + offsetof(bx_cstate, field)))

/* What a bc row holds: a constant known when compiling, a uniform word, or a special value. */
enum { BC_VALUE, BC_UNIFORM, BC_LANE_ID, BC_WARP_ID, BC_CORE_ID };

/* The compiler's state for one clause. */
typedef struct {
    jx_emit e;
    const bi_xclause *x;
    unsigned nbc;
    uint32_t pool[BX_JIT_MAX_BC];  /* constant rows (the code's pool, jx_pool_place) */
    unsigned npool;
    struct { uint8_t kind; uint32_t value; } bc[BX_JIT_MAX_BC];   /* value: BC_VALUE's, BC_UNIFORM's word */
    size_t exits[64];            /* jumps to the epilogue (a unit's call failed) */
    unsigned nexits;
    int full;                    /* too many exits or bc rows */
    /* FTZ clauses: values known to hold no denormal in the active lanes (results of flushed
     * FADD / FMA units, and registers whose last write in the clause was one), which need no
     * input flush */
    uint8_t clean_res[9][2];
    /* results of NOPs, never stored: compiled sources and commits read the zero row instead, and
     * the row is zeroed before each call of the interpreter's code that may read it */
    uint8_t zero_res[9][2];
    uint8_t clean_reg[64];
    /* ymm8-11 keep the last two tuples' compiled results (tuple i, unit u in ymm8 + 2 (i & 1) + u)
     * so that T / T0 / T1 sources skip the store-to-load round trip; held[k] = 1 + that result's
     * res index (i + 1) << 1 | u, 0: nothing valid */
    unsigned held[4];
    /* result rows (tuple + 1, unit) the code reads from the frame (a source not in its register,
     * a reload after a call, the interpreter's units): the first pass notes them, and the
     * second stores only those (res_dead: the others) */
    uint8_t res_read[9][2], res_dead[9][2];
    size_t head;                 /* where the code starts after its bx_jit_code (RIP-relative data) */
    int may_branch;              /* a unit of the clause may branch (bx_jc_may_branch) */
    int counting;                /* the end counts runs for the observer (bx_jit_frame.count) */
    int keep15;                  /* the commit mask (F_KEEP index) ymm15 holds, or -1 (calls and
                                    the double-precision helpers clobber it) */
    /* ymm12-14 keep the rows of the registers the clause committed last (written through to the
     * warp), so that register sources and the next commit to them skip the store-to-load round
     * trip; rheld[k] = 1 + the register, 0: nothing valid (calls and the double-precision
     * helpers clobber them) */
    uint8_t rheld[3];
    unsigned rnext;              /* the entry to replace next */
    unsigned nrheld;             /* entries in use: 3, or 2 for SSE code (xmm14: its scratch) */
} jcomp;

/* ymm15 and ymm12-14 no longer hold what the compiler knows of them (a call, or code that uses them) */
static inline void bx_jc_clobber_high(jcomp *jc)
{
    jc->keep15 = -1;
    jc->rheld[0] = jc->rheld[1] = jc->rheld[2] = 0;
}

/* the register caching warp register r's row (ymm12-14), or 0 */
static inline unsigned bx_jc_reg_cached(const jcomp *jc, unsigned r)
{
    for (unsigned k = 0; k < 3; k++)
        if (jc->rheld[k] == 1 + (r & 63))
            return 12 + k;
    return 0;
}

/* a lane row in memory: [base + disp] */
typedef struct { unsigned base; int32_t disp; } row;

/* the register caching result row (i + 1, u) of tuple i, unit u */
#define CACHE_REG(i, u) (8u + 2u * ((i) & 1) + (unsigned)(u))

/* the index of a constant row of value v in the code's pool, or -1 when the pool is full */
int bx_jc_pool(jcomp *jc, uint32_t v);
/* call fn(rbx = w, r12 = the frame, r13 = the clause, ecx = arg) from compiled code, eax tested:
 * the caller's jump on non-zero follows */
static inline void bx_jc_emit_call(jx_emit *e, const void *fn, uint32_t arg)
{
    jx_vzeroupper(e);
    jx_mov(e, RDI, RBX);
    jx_mov(e, RSI, R12);
    jx_mov(e, RDX, R13);
    jx_mov_ecx(e, arg);
    jx_mov_imm64(e, RAX, (uint64_t)(uintptr_t)fn);
    jx_call_rax(e);
    jx_test_eax(e);
}

/* Whether source k of unit (i, add) is known to hold no denormal in the active lanes. */
int bx_jc_src_clean(const jcomp *jc, unsigned i, int add, unsigned k);
/* Where source k of unit (i, add) is as a lane row, or base 0 when it needs a bc row but none is
 * left. */
row bx_jc_src_row(jcomp *jc, unsigned i, int add, unsigned k);
/* source q of unit (i, add) into ymm y: from its cached register, or loaded from its row */
void bx_jc_load_src(jcomp *jc, unsigned y, unsigned i, int add, unsigned q, row s);
/* after a call (which clobbers every vector register): the held rows again, from the frame */
void bx_jc_reload_cached(jcomp *jc);
/* the interpreter's code for unit iu; a failure (fault) leaves through the epilogue */
void bx_jc_call_unit(jcomp *jc, unsigned iu);
/* the ADD unit's message, and BRANCHZ.i16 / .i32 / JUMP: 0 when a source needs a bc row but none
 * is left (the unit is then left to the interpreter) */
int bx_jc_compile_msg(jcomp *jc, unsigned i);
int bx_jc_compile_branch(jcomp *jc, unsigned i, int add);
/* whether a unit of x may set the branch state (branches, whether compiled or interpreted) */
static inline int bx_jc_may_branch(const bi_xclause *x)
{
    for (unsigned i = 0; i < x->c.ntuples; i++)
        for (int add = 0; add < 2; add++) {
            uint8_t sem = add ? x->add[i].sem : x->fma[i].sem;
            if (sem == BI_SEM_BRANCHZ || sem == BI_SEM_BRANCH || sem == BI_SEM_BRANCHZ32 || sem == BI_SEM_BRANCHZ16 ||
                sem == BI_SEM_JUMP)
                return 1;
        }
    return 0;
}

/* the branch row zeroed (clause_next's input) for a clause that cannot branch, on its ways back to
 * C; every other clause zeroes it when it starts */
static inline void bx_jc_no_branch(jcomp *jc)
{
    if (!jc->may_branch) {
        jx_op(&jc->e, JX_VPXOR, 0, 0, 0);
        jx_store(&jc->e, 0, R12, F_ST(branch));
    }
}

/* the clause's end in chained runs (bifrost_exec_jit_end.c); epilogue: where the code returns */
void bx_jc_compile_end(jcomp *jc, size_t epilogue);
/* Mesa's division / conversion helpers (bifrost_exec_jit_float.c): sources in ymm0-3 with their
 * modifiers applied; the result's register is returned; ymm7 marks lanes the interpreter must
 * redo when den (denormal inputs outside FTZ) */
unsigned bx_jc_frexpe(jcomp *jc, const bi_xinstr *xi, int den);
unsigned bx_jc_frexpm(jcomp *jc, const bi_xinstr *xi, int den);
unsigned bx_jc_frcp(jcomp *jc, int den);
unsigned bx_jc_frsq(jcomp *jc, int den);
unsigned bx_jc_rscale(jcomp *jc, const bi_xinstr *xi);
unsigned bx_jc_f2i(jcomp *jc, int is_signed);
/* FMA of xmm0-2 for SSE code (no FMA instruction): the result's register */
unsigned bx_jc_fma_sse(jcomp *jc);
/* unit (i, add): compiled, or a call of the interpreter's code (bifrost_exec_jit_alu.c) */
void bx_jc_compile_unit(jcomp *jc, unsigned i, int add);

#endif
