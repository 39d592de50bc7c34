/* The clause compiler (GPU back end "jit"), internal to the executor:
 *
 *   bifrost_exec_jit.c      prepared clause -> x86-64 code over a warp's lane rows (AVX2 + FMA,
 *                           or SSE4.1 for 4-lane warps: bx_jit_isa):
 *                           the clause, its frame, messages, branches, commits; code arenas;
 *                           which back end runs (--gpu-backend)
 *   bifrost_exec_jit_alu.c  its ALU units (bifrost_exec_jit_comp.h: what the files share)
 *   bifrost_exec_jit_float.c  Mesa's division / conversion helpers (FMA_RSCALE, FRCP_APPROX, ...)
 *   bifrost_exec_jit_end.c  the clause's end in runs: message, next PC, statistics, chaining
 *   bifrost_exec_jit_rt.c   what compiled code runs in: its frame, bx_jit_run's scheduling, and
 *                           the calls it makes into the interpreter's own unit code
 *                           (bifrost_exec_lanes.h) for every instruction it does not compile,
 *                           and for the messages and clause ends it does not
 *   bifrost_jit_emit.h      the x86-64 emitter
 *
 * Compiled code keeps each tuple's results as lane rows in the frame and reads registers from
 * the warp (bi_warp.reg[r] is one row: 8 lanes = one ymm, 4 lanes = one xmm), so every
 * instruction it does not compile can run through the interpreter's code on the same rows. */
#ifndef MALIBU_BIFROST_EXEC_JIT_H
#define MALIBU_BIFROST_EXEC_JIT_H

#include "bifrost_exec_lanes.h"

#define BX_JIT_MAX_BC 16          /* lane-independent sources (uniforms, constants, specials) per clause */

/* A cached mapping of the message fast path: guest addresses [lo, lo + len) are host bytes from
 * host (len 0: empty). */
typedef struct bx_jit_tlb {
    uint64_t lo, len;
    uint8_t *host;
} bx_jit_tlb;

#define BX_JIT_TLB 8               /* slots per access kind; a clause's message uses slot offset / 16 % 8 */

/* --stats: compiled code's record of a clause's runs whose lanes went on together, to the clause
 * after it (fall) or to taken_pc (taken), each a word of three fields: runs << 45 | runs while
 * other live lanes waited << 24 | lanes, so that a run is one add (bx_jit_frame.inc, which
 * compiled code keeps in rbp).  No field can overflow: the records go to the observer (as
 * bi_clause_count) after at most BX_COUNT_LIMIT clause runs of the host thread.  Runs whose
 * lanes split between the two (bx_jit_run counts them: the code returns BX_JIT_END_C) go to
 * split, the same way with the lanes that fell through, and to split_taken_lanes.  Each host thread has one per clause index below BX_COUNT_MAX, zero until
 * used (a zero taken_pc is the target pc 0 all the same: taken counts only runs to it). */
#define BX_COUNT_RUNS 45
#define BX_COUNT_PARTIAL 24
#define BX_COUNT_MAX (1u << 20)
#define BX_COUNT_LIMIT (1u << 18)     /* < 2^19 runs, 2^21 partial runs, 2^24 / 8 lanes */
typedef struct bx_count {
    uint32_t taken_pc, split_taken_lanes;
    uint64_t fall, taken, split;
} bx_count;

/* The state of one compiled clause execution (on bx_jit_exec's stack), or of a run of chained
 * clauses (bx_jit_run: the host thread's frame, whose mapping slots and commit masks outlive the
 * run while still valid). */
typedef struct bx_jit_frame {
    _Alignas(32) uint32_t res[9][2][NL];   /* [0]: zeros (T0/T1 of the first tuple); [i + 1]: tuple i's
                                              FMA / ADD results */
    uint32_t zero[NL];
    uint32_t keep[3][NL];                  /* commit masks of the active lanes: word, low half, high half */
    uint32_t bc[BX_JIT_MAX_BC][NL];        /* lane-independent sources, one row each */
    uint32_t scratch[8][NL];               /* the interpreter's source rows (units run through it) */
    uint32_t stg[4][NL];                   /* a compiled load's staging values, one row per register */
    uint32_t exec;
    uint32_t chain;                        /* 1: end clauses in code and chain them (bx_jit_run) */
    uint32_t first4;                       /* 4 x the first active lane */
    uint32_t nrun, budget;                 /* clauses begun in this call, and how many it may run */
    uint32_t wait_pc;                      /* lowest pc of live lanes outside exec (all ones: none):
                                              exec's lanes chain only to a lower pc */
    uint64_t active;                       /* active lanes */
    uint64_t done_bytes;                   /* bi_warp.done's bytes set for the active lanes */
    uint64_t wls_base;
    uint64_t private_base;                 /* bi_mem.private_base (0: none) */
    uint32_t map_ok;                       /* the warp's bi_mem has map: the message fast path */
    uint32_t msg_hook;                     /* ... and message (the timing plug-in sees every message) */
    const bi_xclause *last;                /* the clause begun last */
    bi_fault *f;
    bx_jit_tlb tlb[3][BX_JIT_TLB];         /* [0]: loads, [1]: stores, [2]: atomics */
    uint32_t observed;                     /* bi_exec_hook is set: code compiled without counting
                                              returns after every clause for it */
    uint32_t uncounted;                    /* BX_COUNT_*: what the code left bx_jit_run to count */
    uint64_t inc;                          /* what a run adds to a bx_count word: one run, the
                                              active lanes, and whether other live lanes wait */
    _Alignas(32) bx_cstate st;
    /* --stats: what code compiled with the observer's counts call (bi_exec_hook_run) counted,
     * for the thread's current program and job (bx_jit_run's): the record of each clause, at
     * its index (bx_count) */
    bx_count *count;
} bx_jit_frame;

/* fr->uncounted: the run of fr->last was not counted (a branch target its record does not hold,
 * or no record: an index past BX_COUNT_MAX) */
enum { BX_COUNT_NONE, BX_COUNT_RUN };

/* Compiled code's return values besides 0 (the clause's units done: the caller runs its end) and
 * the units' errors (negative): */
enum {
    BX_JIT_ENDED = 0x100,       /* fr->last ran to its end (message, pcs, statistics) */
    BX_JIT_END_C = 0x101,       /* fr->last's message ran, its pcs and statistics are the caller's
                                   (clause_next): lanes diverged or finished */
};

typedef int (*bx_jit_entry)(bi_warp *w, bx_jit_frame *fr, const bi_xclause *x);

/* A compiled clause: its entry point.  (The code itself zeroes the first tuple's T0/T1 and the
 * frame's branch state, makes the commit masks from fr->exec and fills the bc rows.) */
typedef struct bx_jit_code {
    bx_jit_entry entry;
    const void *body;                 /* where chained clauses jump (r13 = the clause) */
    bi_xclause *succ[2];              /* successors seen: [0] the next clause, [1] a branch target */
    uint32_t size;                    /* bytes of instructions from entry (its constant pool follows) */
    uint32_t counts;                  /* 1: the code counts its runs for the observer (bx_jit_frame.count) */
} bx_jit_code;

/* Executable memory of one program's compiled clauses (freed with the program). */
typedef struct bx_jit_arena bx_jit_arena;
void bx_jit_arena_free(bx_jit_arena *a);
/* Before p is freed: the calling thread's counts for it go to the observer (bi_exec_flush). */
void bx_jit_forget(const bi_program *p);

/* Compile x for warps of `lanes` lanes into *arena (created on first use): sets x->jit, or leaves
 * it NULL and returns -1 with the reason in why (the clause then runs interpreted).  SSE code
 * has no 8-lane form: those clauses get no code and 0 (said once per process on stderr). */
int bx_jit_compile(bx_jit_arena **arena, bi_xclause *x, unsigned lanes, int isa, char *why, size_t whylen);

/* Run compiled clause x for the lanes in exec (bi_exec_clause's contract). */
int bx_jit_exec(bi_warp *w, const bi_xclause *x, uint32_t exec, bi_fault *f);

/* Run compiled clause *xp for the lanes in exec (those at the lowest pc of the lanes not done)
 * and the clauses bi_exec_program's minimum-PC scheduling picks after it while they are
 * compiled: what its loop would do for them, the observer (bi_exec_hook) called after each.
 * *count counts the clauses run, up to max; *xp is the last one run.  Returns an error,
 * BI_EXEC_BARRIER after a clause with a barrier, BI_EXEC_END when every lane finished before max
 * was reached, or BI_EXEC_OK when the caller's loop must go on (the next clause is interpreted,
 * or max was reached). */
int bx_jit_run(bi_warp *w, bi_program *p, bi_xclause **xp, uint32_t exec, unsigned *count, unsigned max,
               bi_fault *f);

/* The run-level rows and fields of a frame for the lanes in exec; chain: see bx_jit_frame. */
void bx_jit_frame_init(bx_jit_frame *fr, const bi_warp *w, uint32_t exec, bi_fault *f, int chain);

/* Called by compiled code: the clause's message and staging writes (clause_msg), and one lane of
 * a compiled load / store / atomic whose slot missed (arg = lane | slot << 8 | kind << 16, kind:
 * the tlb index). */
int bx_jit_msg(bi_warp *w, bx_jit_frame *fr, const bi_xclause *x);
int bx_jit_mem_lane(bi_warp *w, bx_jit_frame *fr, const bi_xclause *x, unsigned arg);

/* Whether msg is a global / WLS load or store of one to four whole staging registers, all in
 * range: what the mapped paths run (mem_n, and compiled inline) */
static inline int bx_jit_whole_ldst(const bi_xclause *x, const bi_xinstr *msg)
{
    return msg->size >= 4 && msg->size <= 16 && !(msg->size & 3) &&
           (msg->sem == BI_SEM_LOAD || msg->sem == BI_SEM_STORE) && (msg->seg == SEG_NONE || msg->seg == SEG_WLS) &&
           x->c.hdr[BI_H_SR] + msg->size / 4u <= 64;
}

/* The staging registers a 1- to 16-byte load or store uses (bx_exec_mem's count). */
static inline unsigned bx_jit_stg_regs(const bi_xinstr *msg)
{
    return msg->sem == BI_SEM_LOAD && msg->size < 4 && msg->dlane == DL_D0 ? 2u : (msg->size + 3u) / 4u;
}

/* Called by compiled code: unit iu (tuple << 1 | add) of x through the interpreter's code. */
int bx_jit_unit(bi_warp *w, bx_jit_frame *fr, const bi_xclause *x, unsigned iu);

/* The instruction set compiled code uses, chosen at run time: AVX2 + FMA where the host has them
 * (4- and 8-lane warps), else SSE4.1 + SSSE3 (4-lane warps; 8-lane warps run interpreted), else
 * none (the interpreter).  MALIBU_GPU_JIT_ISA=sse forces the SSE code on an AVX2 host. */
enum bx_jit_isa { BX_JIT_ISA_NONE, BX_JIT_ISA_SSE, BX_JIT_ISA_AVX2 };
enum bx_jit_isa bx_jit_isa(void);
/* The best the host has, whatever the environment says. */
enum bx_jit_isa bx_jit_host_isa(void);
/* Compile with isa from now on (tests); -1 when the host lacks it. */
int bx_jit_set_isa(enum bx_jit_isa isa);

/* Whether the host can run compiled clauses (x86-64 with AVX2 and FMA, or SSE4.1 and SSSE3). */
int bx_jit_host_ok(void);

#endif
