/* AArch64 CPU state shared by the translator, the op handlers and the runtimes. */
#ifndef MALIBU_CPU_H
#define MALIBU_CPU_H

#include <setjmp.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* Register file indices.  Encoding 31 means SP or XZR depending on the
 * instruction; the translator resolves it to one of these slots so that op
 * handlers never test for 31 at run time. */
enum {
    REG_SP = 31,   /* stack pointer */
    REG_ZR = 32,   /* reads as zero: nothing ever writes it */
    REG_SINK = 33, /* writes to XZR land here and are never read */
    NUM_XREGS = 34,
};

/* FPSR cumulative exception bits and QC. */
enum {
    FPSR_IOC = 1u << 0, FPSR_DZC = 1u << 1, FPSR_OFC = 1u << 2, FPSR_UFC = 1u << 3,
    FPSR_IXC = 1u << 4, FPSR_IDC = 1u << 7, FPSR_QC = 1u << 27,
};
/* FPCR control bits (Armv8.0; FZ16 is FEAT_FP16's, writable on the max core only). */
enum {
    FPCR_FZ16 = 1u << 19, FPCR_FZ = 1u << 24, FPCR_DN = 1u << 25, FPCR_AHP = 1u << 26,
    FPCR_RMODE_SHIFT = 22, FPCR_RMODE_MASK = 3u << 22,
    FPCR_WRITABLE = 0x07f79f00u, /* bits a v8.0 FPCR keeps (AHP DN FZ RMode Stride Len IDE..IOE) */
};

/* Why cpu_exec() returned to its caller. */
typedef enum {
    EXC_NONE = 0,
    EXC_SVC,         /* SVC #imm: syndrome = imm16, pc = next instruction */
    EXC_UDEF,        /* undefined instruction at pc; syndrome = insn */
    EXC_BRK,         /* BRK #imm at pc; syndrome = imm16 */
    EXC_HLT,         /* HLT #imm at pc; syndrome = imm16 */
    EXC_DATA_ABORT,  /* load/store fault: fault_addr, fault_write; pc = faulting insn */
    EXC_INSN_ABORT,  /* instruction fetch from an unmapped/non-exec page; pc = fault_addr */
    EXC_ALIGN,       /* alignment fault (exclusives, acquire/release, SP alignment) */
    EXC_INTERRUPT,   /* exit_request was raised (signal, timer, other thread) */
} CpuException;

typedef union VReg {
    uint8_t b[16];
    int8_t sb[16];
    uint16_t h[8];
    int16_t sh[8];
    uint32_t s[4];
    int32_t ss[4];
    uint64_t d[2];
    int64_t sd[2];
    unsigned __int128 q;
} __attribute__((aligned(16))) VReg;

typedef struct FPEnv {
    uint32_t fpcr;
    uint32_t fpsr; /* cumulative exception bits and QC */
} FPEnv;

struct Op;
struct TBCache;

typedef struct CPUState {
    uint64_t x[NUM_XREGS];
    uint64_t pc;
    /* NZCV, one byte each, every one 0 or 1. */
    uint8_t nf, zf, cf, vf;
    FPEnv fp;
    VReg v[32];

    uint64_t tpidr_el0, tpidrro_el0;

    /* Exclusive monitor: excl_size == 0 means open (no reservation). */
    uint64_t excl_addr;
    uint64_t excl_val[2];
    unsigned excl_size;

    /* Execution control. */
    volatile int exit_request;   /* set asynchronously to leave at the next block boundary */
    CpuException exception;
    uint32_t syndrome;
    uint64_t fault_addr;
    bool fault_write;
    struct Op *cur_op;           /* op that may fault (set by memory helpers) */
    sigjmp_buf jmp_env;          /* faults inside op handlers long-jump here */

    uint64_t insn_count;         /* guest instructions in completed blocks (approximate at faults) */
    uint64_t insn_limit;         /* no block is entered once insn_count reaches it (the quantum of
                                  * malibu --smp-mode rr); UINT64_MAX (cpu_init): no limit */

    uint8_t *guest_base;         /* user mode: host address of guest address 0 */
    uint64_t guest_end;          /* user mode, native code: GUEST_ADDR_SPACE (set at each entry),
                                  * the bound of every access's check, compared in memory so
                                  * that no host register holds it */
    struct TB *near_failed;      /* user mode, native code: the block whose entry check of its
                                  * loop-head value facts failed (native_drop_head_facts) */
    uint8_t loop_nzcv_stale;     /* native code: NZCV were left out of nf..vf by a loop's back edge
                                  * (ne_loop_stale_edge); the loop head's guest accesses recompute
                                  * them on a data abort or a soft-TLB miss (native_flags_again) */
    /* Native back end: the host stack pointer of generated code on entry (no guest call
     * frame pushed) and the lowest it may go (native.c, return prediction). */
    uintptr_t host_sp, host_sp_min;
    struct TBCache *tbc;
    void *env;                   /* the runtime that owns this CPU (user process / board) */
} CPUState;

static inline uint32_t cpu_get_nzcv(const CPUState *c)
{
    return ((uint32_t)c->nf << 31) | ((uint32_t)c->zf << 30) | ((uint32_t)c->cf << 29) |
           ((uint32_t)c->vf << 28);
}

static inline void cpu_set_nzcv(CPUState *c, uint32_t v)
{
    c->nf = (v >> 31) & 1;
    c->zf = (v >> 30) & 1;
    c->cf = (v >> 29) & 1;
    c->vf = (v >> 28) & 1;
}

/* Evaluate an A64 condition code (0..15) against the flags. */
static inline bool cpu_cond_holds(const CPUState *c, unsigned cond)
{
    bool r;
    switch (cond >> 1) {
    case 0: r = c->zf; break;                              /* EQ/NE */
    case 1: r = c->cf; break;                              /* CS/CC */
    case 2: r = c->nf; break;                              /* MI/PL */
    case 3: r = c->vf; break;                              /* VS/VC */
    case 4: r = c->cf && !c->zf; break;                    /* HI/LS */
    case 5: r = c->nf == c->vf; break;                     /* GE/LT */
    case 6: r = c->nf == c->vf && !c->zf; break;           /* GT/LE */
    default: return true;                                  /* AL/NV */
    }
    return (cond & 1) ? !r : r;
}

/* Tracing hooks, NULL when off (set by emu/debug/trace.c for --trace / --debug exc):
 * cpu_trace_translated after a block is translated; cpu_trace_exec before a block runs (the
 * dispatchers then stop chaining, so every block passes by); cpu_disasm for exception logs. */
struct TB;
extern void (*cpu_trace_translated)(CPUState *c, const struct TB *tb);
extern void (*cpu_trace_exec)(CPUState *c, const struct TB *tb);
extern bool (*cpu_disasm)(uint32_t insn, uint64_t pc, char *buf, size_t n);

/* The emulated core (--cpu a57|max, one per process / board): which Armv8.1+ instructions
 * decode and what the ID registers and HWCAPs advertise.  a57: Armv8.0 Cortex-A57 (AES, SHA1,
 * SHA2, CRC32); max (the default): adds FEAT_LSE atomics, FEAT_RDM, FEAT_DotProd, FEAT_SHA512,
 * FEAT_SHA3 and (system mode) FEAT_PAN. */
typedef enum { CPU_MODEL_A57, CPU_MODEL_MAX } CpuModel;
extern CpuModel cpu_model;
static inline bool cpu_feat_lse(void) { return cpu_model >= CPU_MODEL_MAX; }
static inline bool cpu_feat_rdm(void) { return cpu_model >= CPU_MODEL_MAX; }
static inline bool cpu_feat_dotprod(void) { return cpu_model >= CPU_MODEL_MAX; }
static inline bool cpu_feat_sha512(void) { return cpu_model >= CPU_MODEL_MAX; }
static inline bool cpu_feat_sha3(void) { return cpu_model >= CPU_MODEL_MAX; }
static inline bool cpu_feat_pan(void) { return cpu_model >= CPU_MODEL_MAX; } /* FEAT_PAN (system mode) */
/* FEAT_FP16: half-precision arithmetic in scalar FP and AdvSIMD, FPCR.FZ16. */
static inline bool cpu_feat_fp16(void) { return cpu_model >= CPU_MODEL_MAX; }
/* The FPCR bits an MSR keeps: the trap enables (bits 15, 12:8) are RAZ/WI on a
 * non-trapping core; FZ16 exists with FEAT_FP16. */
static inline uint32_t cpu_fpcr_writable(void)
{
    return ((uint32_t)FPCR_WRITABLE & ~0x9f00u) | (cpu_feat_fp16() ? (uint32_t)FPCR_FZ16 : 0u);
}
/* Sets cpu_model from "a57" / "max"; false for any other name. */
bool cpu_model_set(const char *name);
/* ID_AA64ISAR0_EL1 of the model (DP, SHA3, RDM, Atomic, AES, SHA1, SHA2, CRC32 fields). */
uint64_t cpu_id_aa64isar0(void);
/* The FP and AdvSIMD fields of ID_AA64PFR0_EL1 (bits 23:16): 0 on the A57, 1 (FEAT_FP16) on max. */
uint64_t cpu_id_aa64pfr0_fp(void);

void cpu_init(CPUState *c);
/* Run translated code until an exception or exit request; returns c->exception. */
CpuException cpu_exec(CPUState *c);
/* Leave the current op with an exception (long-jumps out of the handler). */
_Noreturn void cpu_raise(CPUState *c, struct Op *op, CpuException exc, uint64_t fault_addr, bool write);

#endif
