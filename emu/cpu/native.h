/* Native x86-64 back end for translated blocks.
 *
 * The translator's ops are the intermediate form: an op's handler identifies the
 * operation, its fields the operands.  Each translator file describes its handlers
 * to the back end (native_bind: handler -> NativeDesc, in a function registered with
 * NATIVE_DESCRIBER); native_compile() turns a
 * TB's ops into host code, emitting x86-64 directly for the described operations and
 * a call of the portable handler for everything else, so every instruction the
 * portable back end runs also runs here, and the portable back end stays the
 * reference (--backend portable / MALIBU_BACKEND=portable).
 *
 * Host code conventions: rbx = CPUState; r12 = guest_base in user mode (unused when it is
 * 0: accesses then use the guest's registers as host addresses), CPUState.insn_count in
 * system mode (native.c insn_count_*).  Within a block guest registers may stay in host registers (the
 * register cache in native.c); they are written back before calls and block exits, and
 * a host fault on a guest access restores them from the signal context (NativeFaultSite),
 * so a fault finds the state of the instruction's start, as in the portable back end.
 *
 * Blocks are entered through native_run(); a direct branch jumps to the successor's
 * code once the dispatcher has chained it (native_chain), an indirect branch looks
 * the target up in the jump cache from host code. */
#ifndef MALIBU_NATIVE_H
#define MALIBU_NATIVE_H

#include "tb.h"

#if defined(__x86_64__) && !defined(MALIBU_NO_NATIVE)
#define MALIBU_HAVE_NATIVE 1
#else
#define MALIBU_HAVE_NATIVE 0
#endif

/* User mode with guest addresses as host addresses (guest_mem.c): generated code leaves the
 * window check out of an access whose address the known ranges of its registers bound to
 * [lowest, NATIVE_NEAR_SPACE + NATIVE_NEAR_GUARD - 4096) (native_emit.h, NeFacts), where every
 * host fault is a guest data abort: no guest page lies below NATIVE_NEAR_LOW, the window of
 * NATIVE_NEAR_SPACE bytes is followed by a guard of NATIVE_NEAR_GUARD, and lowest is 0, or
 * -2^46 (the host kernel's half, where a user access faults) once the runtime has seen that
 * nothing there is readable (native_near_kernel_half). */
#define NATIVE_NEAR_LOW 0x10000
#define NATIVE_NEAR_SPACE (1ull << 40)
#define NATIVE_NEAR_GUARD (1ull << 38)
void native_near_kernel_half(bool faults);

/* What an op does, for the emitters (native_ops.c).  Field meanings per kind are
 * given next to each translator's native_bind calls. */
typedef enum {
    NK_NONE,
    NK_MOVI, NK_MOV, NK_MOVK,
    NK_ADDSUB_IMM, NK_LOGIC_IMM, NK_ADDSUB_REG, NK_LOGIC_REG, NK_ADDSUB_EXT,
    NK_SHIFT_IMM, NK_SHIFT_REG, NK_EXTEND, NK_BFM, NK_BFI, NK_CSEL, NK_MADD,
    NK_EXTR, NK_REV, NK_CLZ, NK_CCMP, NK_RBIT,
    NK_LOAD, NK_STORE, NK_LOADP, NK_STOREP, NK_FLOAD, NK_FSTORE, NK_FLOADP, NK_FSTOREP,
    NK_GOTO, NK_BL, NK_BR, NK_BLR, NK_RET, NK_BCOND, NK_CB, NK_TB, NK_CMP_BRANCH,
    NK_MULL, NK_CPU_FIELD,
    /* native_int_extra.c and native_fp.c */
    NK_DIV, NK_ADC, NK_DP1, NK_FMOV_GEN, NK_FP_UN, NK_FP_BIN, NK_FCMP, NK_CVTF, NK_SHA512, NK_ATOMIC,
    NK_DC_ZVA, /* system mode (native_sys.c): DC ZVA of Xn, 64 bytes */
    NK_CONTEXT_SYNC, /* system mode (native_sys.c): ISB drops the guest call frames */
    /* AdvSIMD (native_simd*.c): op = NVEC_* / NPERM_* below */
    NK_VEC, NK_VEC_PERM,
    NK_COUNT
} NativeKind;

typedef struct NativeDesc {
    uint8_t kind;  /* NativeKind */
    uint8_t sf;    /* 64-bit operation */
    uint8_t op;    /* operation within the kind */
    uint8_t setf;  /* sets NZCV */
    uint8_t sub;   /* shift / extend kind, addressing mode */
    uint8_t cond;  /* condition code */
    uint8_t size;  /* log2 access size */
    uint8_t sext;  /* loads: 0 zero-extend, 1 sign-extend to 64, 2 sign-extend to 32 */
} NativeDesc;

/* Addressing modes of NK_LOAD / NK_STORE (same order as tr_mem.c). */
enum { NAM_OFF, NAM_PRE, NAM_POST, NAM_UXTW, NAM_SXTW, NAM_XREG };

/* NK_MULL (native_mul_sys.c): op = one of these, sext = signed; d = a +/- n * m (32 x 32 ->
 * 64) or the high half of n * m (64 x 64 -> 128). */
enum { NMUL_ADD, NMUL_SUB, NMUL_HIGH };
/* NK_CPU_FIELD: op 0 reads the field into d (MRS), 1 writes n into it (MSR); sub says which
 * 64-bit field: at CPUState + imm, TPIDR_EL0, TPIDRRO_EL0, SP_EL0 (system mode, by SPSel). */
enum { NCF_IMM, NCF_TPIDR_EL0, NCF_TPIDRRO_EL0, NCF_SP_EL0, NCF_UNPRIV };
/* NK_DIV (native_int_extra.c): UDIV/SDIV, sext = signed.  NK_ADC: ADC/ADCS/SBC/SBCS, op =
 * subtract (Rm inverted), setf.  NK_DP1: op = one of these. */
enum { NDP1_REV16, NDP1_REV32, NDP1_CLS };
/* native_fp.c.  NK_FMOV_GEN: op = one of these (X/W <- V or V <- X/W; D1 = the upper half).
 * NK_FP_UN: size 2 (S) / 3 (D); op: FMOV, FABS, FNEG register, FMOV immediate (imm).
 * NK_FP_BIN: size; op = the scalar SSE opcode (0x58 add, 0x59 mul, 0x5C sub, 0x5E div).
 * NK_FCMP: size; sub = compare with +0.0.  NK_CVTF: SCVTF/UCVTF from X/W (sf), size =
 * destination, sext = signed.  NK_SHA512 (native_sha512.c): op 0 SHA512H, 1 SHA512H2,
 * 2 SHA512SU1, 3 SHA512SU0.  NK_ATOMIC (native_atomic.c, user mode): op = one of these,
 * size = log2 access size; operands as tr_atomic.c's. */
enum { NAT_ADD, NAT_CLR, NAT_EOR, NAT_SET, NAT_SWP, NAT_CAS };
enum { NFM_XD, NFM_DX, NFM_WS, NFM_SW, NFM_XD1, NFM_D1X, NFM_WH, NFM_HW };
enum { NFU_MOV, NFU_ABS, NFU_NEG, NFU_IMM };

/* NK_VEC (native_simd.c): element-wise AdvSIMD on V registers d, n, m.  size = log2 element
 * bytes (narrowing ops: of the narrow result), sub = 0 a 64-bit result (bits 127:64 zeroed;
 * also the scalar D forms), 1 a 128-bit one; imm = shift amount, or the MOVI pattern. */
enum {
    NVEC_AND, NVEC_BIC, NVEC_ORR, NVEC_ORN, NVEC_EOR, NVEC_ADD, NVEC_SUB,
    NVEC_CMEQ, NVEC_CMHI, NVEC_CMHS, NVEC_CMGT, NVEC_CMGE, NVEC_CMTST,
    NVEC_UMAX, NVEC_UMIN, NVEC_SMAX, NVEC_SMIN,
    NVEC_NOT, NVEC_NEG, NVEC_CMEQ0, NVEC_CMGT0, NVEC_CMGE0, NVEC_CMLE0, NVEC_CMLT0,
    NVEC_SHL, NVEC_USHR, NVEC_SSHR, NVEC_USRA, NVEC_SSRA, NVEC_SRI, NVEC_SLI,
    NVEC_REV16, NVEC_REV32, NVEC_REV64,
    NVEC_ADDP, NVEC_UMAXP, NVEC_UMINP, NVEC_ADDP_D,
    NVEC_SHRN, NVEC_SHRN2,
    NVEC_MOVI, NVEC_ORRI, NVEC_ANDI,
    NVEC_BSL, NVEC_BIT, NVEC_BIF,
};
/* NK_VEC_PERM (native_simd_perm.c): copies and permutes.  size = log2 element bytes, sub = Q,
 * x = element index (INS: destination), a = INS (element)'s source index, sext = SMOV. */
enum {
    NPERM_DUP_GEN, NPERM_DUP_ELEM, NPERM_DUP_SCALAR, NPERM_INS_GEN, NPERM_INS_ELEM, NPERM_UMOV,
    NPERM_ZIP1, NPERM_ZIP2, NPERM_UZP1, NPERM_UZP2, NPERM_TRN1, NPERM_TRN2,
    NPERM_EXT, NPERM_TBL, NPERM_TBX,
};

typedef enum { BACKEND_PORTABLE, BACKEND_NATIVE } Backend;

/* Back end for blocks translated from now on (default native where available, else
 * portable; MALIBU_BACKEND=portable|native in the environment overrides the default). */
Backend native_backend(void);
/* Compile a block at its runs-th run (1, the library's default: when translated; see
 * native_tier_up).  The programs' default is native_compile_after_default(): the environment's
 * MALIBU_COMPILE_AFTER when it is a number in 1..NATIVE_COMPILE_AFTER_MAX, else
 * NATIVE_COMPILE_AFTER, the run count that measured fastest (docs/cpu.md). */
#define NATIVE_COMPILE_AFTER 8
#define NATIVE_COMPILE_AFTER_MAX 1000000
void native_set_compile_after(unsigned runs);
unsigned native_compile_after_default(void);
/* s as a run count (decimal, 1..NATIVE_COMPILE_AFTER_MAX) into *runs; false if it is not one. */
bool native_parse_compile_after(const char *s, unsigned *runs);
void native_set_backend(Backend b);
/* Blocks compiled from now on check CPUState.insn_limit on entry (off by default: the check
 * costs a compare per block and only a quantum scheduler needs it). */
void native_set_insn_limit_check(bool on);
/* Blocks compiled from now on add their instructions to CPUState.insn_count (default on).
 * User mode turns it off unless its statistics print the count: nothing else reads it
 * there.  (The insn_limit check keeps it on: it reads the count.) */
void native_set_insn_count(bool on);

#if MALIBU_HAVE_NATIVE
void native_bind(OpFn fn, NativeDesc d);

/* Each translator file describes its handlers in one function of its own (native_bind calls)
 * and registers it with NATIVE_DESCRIBER(fn), which runs at program start; the back end calls
 * every registered function once, before it compiles its first block, and so names no
 * translator.  (The objects are linked directly, not from an archive, so every translator's
 * registration is linked in.) */
typedef void (*NativeDescriber)(void);
void native_add_describer(NativeDescriber describe);
#define NATIVE_DESCRIBER(describe)                                                          \
    __attribute__((constructor)) static void describe##_register(void)                     \
    {                                                                                       \
        native_add_describer(describe);                                                     \
    }

/* Code buffer of a translation cache (allocated with it, emptied by tbc_flush). */
struct NativeBuf;
struct NativeBuf *native_buf_new(size_t code_bytes);
void native_buf_free(struct NativeBuf *b);
void native_buf_flush(struct NativeBuf *b);

/* Compile tb (ops already in place) into tb->native; false when the buffer is full. */
bool native_compile(CPUState *c, TB *tb);
/* A block runs from its ops (the portable back end's handlers), through the dispatcher, until
 * its native_compile_after-th run, and is compiled then: most blocks of a boot or of a
 * program's start run a few times in all, and compiling one costs as much as running it
 * natively a thousand times.  native_tier_up counts a run of tb (not compiled yet) and
 * compiles it at that run; false when the code buffer is full (the caller flushes the caches
 * and looks the block up again). */
extern unsigned native_compile_after;
bool native_tier_up(CPUState *c, TB *tb);
/* User mode: compile tb again without loop-head value facts (an entry check of them failed;
 * CPUState.near_failed).  Its old code may still be reached by chained jumps: its checks fail
 * again and leave, and this does nothing. */
void native_drop_head_facts(CPUState *c, TB *tb);
/* A conditional branch's test op with host code, which may keep the register cache past its
 * taken side's exit (translate.c then goes on after the branch). */
bool native_is_cond_branch(OpFn fn);
/* Run from tb; returns the rel32 field of an unchained direct jump taken to leave
 * (to be patched once its target exists), or NULL. */
uint8_t *native_run(CPUState *c, TB *tb);
/* Point an exit field returned by native_run at tb's code. */
void native_chain(uint8_t *field, TB *tb);

/* User mode: a guest access in generated code that may fault (SIGSEGV/SIGBUS on the host
 * instruction at rip).  Guest registers cached in host registers at that point are listed
 * (host register number, guest slot): the fault handler stores them into CPUState, then
 * raises the data abort for op. */
#ifdef CONFIG_SYSTEM
#define NATIVE_CACHE_REGS 10 /* rsi too: the soft-TLB probe leaves the addend in rcx */
#else
#define NATIVE_CACHE_REGS 13 /* r13 (the guest window's end is compared in memory), rdx, rcx, and
                              * r12 when guest_base is 0 (no base to hold) */
#endif
typedef struct NativeFaultSite {
    uintptr_t rip;
    const Op *op;
    const Op *flags_op; /* non-NULL: run it (it recomputes NZCV, left stale) before the abort
                         * (native_flags_again: bit 0 set, only if CPUState.loop_nzcv_stale) */
    uint8_t n;
    uint8_t hreg[NATIVE_CACHE_REGS], slot[NATIVE_CACHE_REGS];
} NativeFaultSite;
const NativeFaultSite *native_fault_site(TBCache *t, uintptr_t rip);
/* A data abort's NZCV: run a fault site's flags_op (NULL: none), which recomputes NZCV. */
void native_flags_again(CPUState *c, const Op *flags_op);
#endif

/* Run one block with whichever back end translated it.  *chain carries the unchained exit
 * of the previous native block between calls (start it zeroed), so the dispatcher chains
 * that exit to this block unless the caches were flushed in between. */
typedef struct TbChain {
    uint8_t *field;
    uint64_t gen; /* tbc->n_flushes when field was returned */
} TbChain;

static inline void tb_run(CPUState *c, TB *tb, TbChain *chain)
{
#if MALIBU_HAVE_NATIVE
    if (tb->native) {
        if (chain->field && chain->gen == c->tbc->n_flushes)
            native_chain(chain->field, tb);
        chain->field = native_run(c, tb);
        chain->gen = c->tbc->n_flushes;
        return;
    }
#endif
    chain->field = NULL; /* the last native exit went to this block, not to the next one */
    c->insn_count += tb->n_insns;
    Op *op = tb->ops;
    do
        op = op->fn(c, op);
    while (op);
}

#endif
