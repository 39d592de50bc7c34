/* Internal interface of the native back end: the compile context shared by the block
 * compiler (native.c) and the per-operation emitters (native_ops.c). */
#ifndef MALIBU_NATIVE_EMIT_H
#define MALIBU_NATIVE_EMIT_H

#include <stddef.h>
#include "native.h"
#include "x64_asm.h"

#define NE_MAX_GOTOS 24
#define NE_MAX_FIXUPS 1024
#define NE_MAX_HEADS 5 /* the block's start and translate.c's TB_MAX_HEADS labels */
#define NE_CACHE_REGS NATIVE_CACHE_REGS

/* The dirty cached registers at a point of a block, which an out-of-line path from there
 * writes back (ne_dirty_capture, ne_dirty_store). */
/* Known ranges of guest register values (native_near.c), user mode with guest addresses as
 * host addresses.  Slot r in near: its value lies in [lo[r], NATIVE_NEAR_SPACE + hi[r]); in narrow:
 * it is below 2^bits[r].  Established by completed accesses, the entry checks of a looping block
 * and the ops native_near.c knows; any other write of the register forgets it (the rc_* writes,
 * calls of C code). */
typedef struct NeFacts {
    uint64_t near, narrow;
    int64_t lo[32], hi[32];
    uint8_t bits[32];
} NeFacts;

typedef struct NeDirty { uint8_t n, hreg[NE_CACHE_REGS], slot[NE_CACHE_REGS]; } NeDirty;

/* Host registers with a fixed role in generated code: r12 is the guest window's base in user
 * mode; in system mode it holds CPUState.insn_count while generated code runs (loaded on entry,
 * stored at the exit and around every call out; native.c's insn_count_* helpers). */
enum { HR_CPU = X_RBX, HR_GUEST_BASE = X_R12, HR_INSN_COUNT = X_R12 };

typedef struct NCtx {
    Asm a;
    struct NativeBuf *buf;
    CPUState *c;
    TB *tb;
    unsigned i;                 /* index of the op being compiled */
    struct {
        uint8_t *exit_field;    /* jne taken when exit_request is set */
        uint8_t *chain_field;   /* the jmp that chaining patches */
        uint8_t *flags_field;   /* non-NULL: NZCV pending in EFLAGS, stored before this jmp;
                                 * chain_field's jmp after it is for a target that does not need
                                 * them, once jrcxz_field points there (goto_tail_flags) */
        uint8_t *jrcxz_field;
        uint64_t target;
        bool chainable;
    } gotos[NE_MAX_GOTOS];
    unsigned n_gotos;
    struct {                    /* BL/BLR: return points (ne_call_*) */
        uint8_t *field;         /* rel32 of the jmp the host `ret` lands on */
        uint64_t ret;           /* guest return address */
    } rets[NE_MAX_GOTOS];
    unsigned n_rets;
    uint8_t *exit0[NE_MAX_FIXUPS];      /* jumps to "leave, c->pc already set" */
    unsigned n_exit0;
    struct {                    /* user mode: guest accesses (ne_guest_access) */
        uint8_t *field;         /* jae taken for an address outside the guest window */
        unsigned op;
        bool write;
        const Op *flags_op;     /* flags_op at the access */
        NeDirty dirty;
    } gsite[NE_MAX_FIXUPS / 2];
    unsigned n_gsite;
    struct {                    /* system mode: soft-TLB misses call the portable handler */
        uint8_t *field;         /* the jne taken on a miss */
        uint8_t *resume;        /* where the op's code ends */
        unsigned op;            /* index of the op in the block */
        const Op *flags_op;     /* flags_op at the access: run before the handler */
        NeDirty dirty;
        unsigned n_ops;         /* ops from op on whose handlers it runs, in turn */
        uint8_t n_reload, reload_hreg[16], reload_slot[16]; /* reloaded after the calls */
    } slow[NE_MAX_FIXUPS / 4];
    unsigned n_slow;
    bool failed;                /* fixup tables full: give up on this block */
    /* Guest registers cached in host registers within the block (native.c, rc_*). */
    struct { int8_t slot; bool dirty; uint32_t used; } rc[NE_CACHE_REGS];
    int8_t rc_of[NUM_XREGS];    /* slot -> rc index, -1 when not cached */
    uint32_t rc_clock;
    bool rc_frozen;             /* inside code with two paths: no new cache entries */
    uint32_t rc_never;          /* host registers that hold no cache entry in this block (r12 when
                                 * it is the guest window's base) */
    uint32_t rc_busy;           /* host registers (bit per X_*) the op being compiled uses as
                                 * scratch: no cache entry there (rc_scratch) */
    /* User mode with guest addresses as host addresses: what is known of the guest registers'
     * values (native_near.c), so that accesses they address need no window check. */
    NeFacts facts;
    bool facts_on;              /* the facts apply: user mode with guest addresses as host addresses */
    /* x86 EFLAGS still hold the guest flags an op just computed (kind live_fl, FL_*) when the
     * op about to be compiled has index live_next: it may test them directly. */
    int live_fl;
    unsigned live_next;
    /* >= 0: that op's NZCV (kind FL_*) is still only in EFLAGS, to be stored on the side exit
     * of the conditional branch that follows (flags_die_after_side_exit); -1: none. */
    int pending_fl;
    unsigned pending_need;      /* with pending_fl: the flags (NF_*) the code after the branch
                                 * reads from CPUState, stored there after the branch */
    /* Non-NULL while the flags in CPUState are stale because the last setter's stores were
     * left out (store_flags): a copy of that setter (ne_op_copy), which a data abort at a guest
     * access (user mode) or a soft-TLB miss's call of the portable handler (system mode) runs
     * first to put NZCV right. */
    const Op *flags_op;
    /* Loop heads (native.c): a direct branch back to the block's own start, or to an
     * op_loop_head label the block has passed (translate.c), continues there with the cache in
     * that head's canonical state slot[] (guest slot per cache register, -1 none; dirty[]: left
     * dirty, so that going round stores nothing), instead of leaving the block and reloading
     * every register.  seen[] is the cache at the head's first back edge in a compile, the
     * next compile's canonical state.  The block's start is head[0] when the block loops. */
    struct NeLoopHead {
        uint64_t pc;
        unsigned insns_before;  /* the block's instructions before it, for the count */
        uint8_t *label;         /* NULL until compiled: branches to it leave the block */
        int8_t slot[NE_CACHE_REGS], seen[NE_CACHE_REGS];
        bool dirty[NE_CACHE_REGS], seen_dirty[NE_CACHE_REGS];
        bool seen_set;
        uint8_t *exit[NE_MAX_GOTOS * 2]; /* leave with c->pc = pc, in the canonical state */
        unsigned n_exit;
        unsigned first_op;      /* the head's first op: 0 for the block's start, else after the label */
        /* Op index of the fused compare-and-branch back edge to this head that goes
         * round without storing NZCV (ne_loop_stale_edge; -1: none), and the copy of it
         * (ne_op_copy, run as op_flags_again) that the head's fault sites carry, tagged (bit 0),
         * and that the back edges' exit runs.  An ADD Xn, Xn, #adj of the compare's register at
         * op stale_adj_op: the accesses after it carry stale_adj_copy (Xn - adj) instead. */
        int stale_edge;
        unsigned stale_adj_op;
        int32_t stale_adj;
        const Op *stale_copy, *stale_adj_copy;
        /* A second such back edge (stale_edge2, -1: none; neither with an ADD adjustment) and
         * its copy (NULL: none).  stale_op: what the head's fault sites and the back edges' exit
         * run, stale_copy, or with two edges the op that runs the copy of the edge that came
         * round (CPUState.loop_nzcv_stale 1 or 2: op_flags_select). */
        int stale_edge2;
        const Op *stale_copy2, *stale_op;
        /* The facts assumed at the head (native_near.c): every way in (the block's entry, by
         * its entry checks; the code above; each back edge) must bring them.  bad_*: slots whose
         * facts some way in did not bring in this compile; widened: times each was widened. */
        NeFacts facts, edge;    /* edge: the hull of what the ways in brought, bad slots */
        bool facts_set;
        uint64_t bad_near, bad_narrow;
        uint8_t widened[32];
    } head[NE_MAX_HEADS];
    bool near_heads;            /* loop heads assume facts (else none: the code an entry check's
                                 * failure runs) */
    NeFacts entry;              /* a block without loops: the facts its entry checks establish */
    uint8_t *entry_fail[64];    /* the entry checks' failure jumps (ne_near_entry_checks) */
    unsigned n_entry_fail;
    unsigned n_heads;
    bool stale_taken;           /* the back edge being compiled is its head's stale_edge */
    struct {                    /* branches the block continues through (op_goto_through) */
        uint8_t *field;         /* jne taken when exit_request is set */
        unsigned op;
        NeDirty dirty;
    } through[16];
    unsigned n_through;
    struct {                    /* conditional side exits, compiled out of line (ne_side_exit) */
        uint8_t *field;         /* the jcc taken to leave */
        int flags_kind;         /* >= 0: NZCV of that kind (FL_*) still only in EFLAGS */
        unsigned uncount;       /* the block's instructions after the branch */
        uint64_t target;
        NeDirty dirty;
    } side[NE_MAX_GOTOS];
    unsigned n_side;
} NCtx;

/* native_near.c: the value facts of user mode (NeFacts; only where NCtx.facts_on).
 * ne_near_covered: may access o (addressing mode) go without its window check?  ne_near_access: o completed (a mapped page):
 * its base's range, its loads' widths; call after the writeback.  ne_near_pre / ne_near_after_op:
 * an op's source facts before it is compiled, its destination's after. */
typedef struct NeNearPre {
    bool near_n, narrow_n, narrow_m;
    int64_t lo_n, hi_n;
    uint8_t bits_n, bits_m;
} NeNearPre;
void ne_near_reset(NeFacts *f);
static inline void ne_near_forget(NCtx *x, unsigned slot)
{
    if (slot <= REG_SP) {
        x->facts.near &= ~(1ull << slot);
        x->facts.narrow &= ~(1ull << slot);
    }
}
/* Is op kind k a guest access (integer or FP/SIMD load or store, single or pair)? */
static inline bool ne_is_mem_kind(int k)
{
    return k == NK_LOAD || k == NK_STORE || k == NK_LOADP || k == NK_STOREP || k == NK_FLOAD || k == NK_FSTORE ||
           k == NK_FLOADP || k == NK_FSTOREP;
}
/* Does op o's host code leave EFLAGS as they were (a move: mov r, imm; mov r, r), so that a
 * compare's flags stay live past it for the op after (flags_needed, the compile loop)? */
bool ne_keeps_eflags(const Op *o, const NativeDesc *d);
bool ne_near_covered(const NCtx *x, const Op *o, int mode);
/* Is extension opt of register r (extend_to's: 0-2 zero from 8, 16, 32 bits, 4-6 sign from them,
 * 3 and 7 none) the value r holds, as r is known narrow enough? */
bool ne_near_extend_is_value(const NCtx *x, unsigned r, int opt);
void ne_near_access(NCtx *x, const Op *o, const NativeDesc *d, int mode, bool base_written);
NeNearPre ne_near_pre(const NCtx *x, const Op *o);
void ne_near_after_op(NCtx *x, const Op *o, const NativeDesc *d, const NeNearPre *pre);
/* Loop heads: the head's facts at its label; a way in (back edge, the code above) checked
 * against them; the block entry's checks of head[0]'s facts (each failure a jump to patch). */
void ne_near_at_label(NCtx *x, const struct NeLoopHead *h);
void ne_near_way_in(NCtx *x, struct NeLoopHead *h);
unsigned ne_near_entry_checks(NCtx *x, const NeFacts *f, uint64_t from_cache, uint8_t **fail, unsigned max);
/* A block without loops: the facts its entry checks establish (NCtx.entry). */
void ne_near_entry_init(NCtx *x, const TB *tb);
bool ne_near_heads_update(NCtx *x);
void ne_near_heads_init(NCtx *x, const TB *tb, bool loops);

#define CPU_OFF(field) ((int32_t)offsetof(CPUState, field))
static inline int32_t xoff(unsigned slot) { return CPU_OFF(x) + 8 * (int32_t)slot; }
static inline int32_t voff(unsigned reg) { return CPU_OFF(v) + 16 * (int32_t)reg; }

/* Register cache.  Guest registers read or written by native ops stay in host registers
 * until a point that needs CPUState current: rc_spill() stores the dirty ones (before a
 * guest memory access, so a fault sees the instruction's starting state, and before
 * leaving the block), rc_drop() also forgets them (before calling C code, which may read
 * or write any register and clobbers the caller-saved ones). */
void rc_reset(NCtx *x);
/* The op about to be compiled uses the host registers in mask (1 << X_RCX, 1 << X_RDX) as
 * scratch: the cache entries there are written back and dropped, and none is made there until
 * the next op.  User mode caches guest registers in rcx and rdx too; ne_emit_op calls this. */
void rc_scratch(NCtx *x, uint32_t mask);
void rc_spill(NCtx *x);
/* d <- the dirty cached registers now; their stores, emitted where the assembler is. */
void ne_dirty_capture(const NCtx *x, NeDirty *d);
void ne_dirty_store(NCtx *x, const NeDirty *d);
void rc_drop(NCtx *x);
/* host <- guest slot (W32: zero-extended low half), through the cache. */
void rc_read(NCtx *x, int host, unsigned slot, int w);
/* rc_read for an op that tests EFLAGS after its operand loads: XZR as mov r32, 0, which
 * leaves them alone (rc_read's xor does not). */
static inline void rc_read_flags_kept(NCtx *x, int host, unsigned slot, int w)
{
    if (slot == REG_ZR)
        x_mov_imm(&x->a, host, 0);
    else
        rc_read(x, host, slot, w);
}
/* guest slot <- host (a full 64-bit value; W32 results are already zero-extended). */
void rc_write(NCtx *x, unsigned slot, int host);
/* Direct operands: the host register holding slot's full value (loaded into the cache,
 * or into scratch for XZR and inside two-path code), and the cache register that will hold
 * slot's new value (marked dirty; the caller writes it next). */
int rc_src(NCtx *x, unsigned slot, int scratch);
int rc_dst(NCtx *x, unsigned slot);
/* User mode, a load's destination: the cache register for slot, without loading it and
 * left clean (so a fault before the load writes nothing back); the load writes it, then
 * rc_set_dirty(slot).  Not in two-path code. */
int rc_claim(NCtx *x, unsigned slot);
void rc_set_dirty(NCtx *x, unsigned slot);
/* guest slot <- host, in CPUState (the cached copy, if any, is dropped). */
void rc_write_mem(NCtx *x, unsigned slot, int host);

/* Leave to the dispatcher when x86 condition cc holds (c->pc must already be set). */
void ne_exit0_if(NCtx *x, int cc);
/* End a path with a direct jump to guest address target (chained when allowed). */
void ne_goto(NCtx *x, uint64_t target);
/* The same for a side exit of a block that goes on after it: uncount = the block's
 * instructions after the branch, taken back out of insn_count (counted at the block's entry). */
void ne_goto_side(NCtx *x, uint64_t target, unsigned uncount);
/* A conditional side exit, taken when x86 condition cc holds: its code (the NZCV of
 * flags_kind when >= 0, still in EFLAGS; the dirty registers; the goto) goes after the block,
 * so that the path which stays in the block runs straight on.  False, nothing emitted, for a
 * branch back to a loop head the block has compiled: the caller emits that one in line. */
bool ne_side_exit(NCtx *x, int cc, int flags_kind, uint64_t target, unsigned uncount);
/* Jump to the dispatcher's lookup of c->pc (already stored) through the jump cache;
 * pc_in_rax: rax holds it too. */
void ne_goto_indirect(NCtx *x, bool pc_in_rax);
/* BL / BLR (x30 already written; BLR: the target stored in c->pc): a host call, so that the
 * guest's RET can be a host `ret` (predicted by the host's return stack), then the branch. */
void ne_call_goto(NCtx *x, uint64_t ret, uint64_t target);
void ne_call_indirect(NCtx *x, uint64_t ret);
/* RET to the address in rax (already stored in c->pc): a host `ret` when the newest host call
 * frame was pushed for that guest address, else the lookup stub. */
void ne_ret(NCtx *x);
/* Flags test: emits code and returns the x86 condition that holds when A64 cond holds. */
int ne_cond(NCtx *x, unsigned cond);
/* User mode: rax holds a guest address about to be accessed by the current op: check it
 * against the guest window (out-of-line data abort) and snapshot the dirty cached
 * registers for the fault handler; returns the site for ne_fault_point.  Between the two,
 * the register cache must not change. */
int ne_guest_access(NCtx *x, bool write);
/* The same without the check, for an access a few bytes past one that was checked (within
 * the guard region after the window, where the host faults as in an unmapped guest page). */
int ne_guest_access_unchecked(NCtx *x, bool write);
/* The next instruction emitted is a guest access of site (it may fault on the host). */
void ne_fault_point(NCtx *x, int site);
/* System mode: the jne at field (a TLB miss) calls the current op's portable handler and
 * resumes at the current position (the op's code must end here). */
void ne_slow_path(NCtx *x, uint8_t *field, uint8_t *resume);
/* The same without writing the register cache back first: ne_slow_site notes the dirty cached
 * registers at the jne at field (the slow path stores them before the call), ne_slow_resume
 * gives the resume point.  Between the two only the fast path's code: no new cache entries. */
int ne_slow_site(NCtx *x, uint8_t *field);
void ne_slow_resume(NCtx *x, int site, uint8_t *resume);
/* The slow path at site runs the handlers of n ops, from its own on (one access check for
 * them all): the first after the flags copy, each in turn. */
void ne_slow_ops(NCtx *x, int site, unsigned n);
/* The fast path of site writes guest register slot into cache register host (a load's
 * destination, a writeback): its slow path reloads host from CPUState, where the handler
 * wrote the value. */
void ne_slow_reload(NCtx *x, int site, int host, unsigned slot);
/* A copy of op i in the buffer's data, followed by a return op: calling its handler runs that
 * op alone.  NULL when out of data space. */
Op *ne_op_copy(NCtx *x, unsigned i);
/* User mode: does the B the block continues through at op i test exit_request?  Not when
 * every op before it only computes or loads (native_ops.c). */
bool ne_through_needed(const TB *tb, unsigned i);
/* The op index of a fused compare-and-branch whose taken side is a back edge to the
 * loop head at head_pc (its ops from op `from`) and whose NZCV that head can do without (every
 * op up to the next setter of all four computes or accesses memory, none changing the
 * compare's sources before an access, no other head in between), else -1.  Such a back edge
 * goes round without storing NZCV; the head's accesses recompute them on a data abort (user
 * mode) or before a soft-TLB miss's handler (system mode) when CPUState.loop_nzcv_stale says
 * so, and leaving at the back edge recomputes them first. */
int ne_loop_stale_edge(const TB *tb, unsigned from, uint64_t head_pc, unsigned *adj_op, int32_t *adj);
/* The same for the next such back edge after op `after` (a head's second: none needing an
 * adjustment), else -1. */
int ne_loop_stale_edge_after(const TB *tb, unsigned from, uint64_t head_pc, unsigned after);
/* An op that runs one of two flags copies (imm, link) by CPUState.loop_nzcv_stale (1, 2). */
const Op *ne_flags_select(NCtx *x, const Op *first, const Op *second);
/* The copy of op i that recomputes its NZCV (fl_copy), for stale_edge, with Xn less adj when
 * adj != 0 (for the accesses after the ADD at adj_op); NULL: no data space. */
const Op *ne_flags_copy(NCtx *x, unsigned i, int32_t adj);
/* Call a C function (arguments already in rdi, rsi, ...). */
void ne_call(NCtx *x, const void *fn);

/* native_ops.c: emit op i (and any ops it consumes); returns the number of ops
 * consumed, 0 when this op is left to the portable handler. */
unsigned ne_emit_op(NCtx *x, const Op *o, const NativeDesc *d);
const NativeDesc *native_desc(OpFn fn); /* NULL: no emitter for the handler */
/* native_mul_sys.c: NK_MULL and NK_CPU_FIELD. */
unsigned ne_emit_mull(NCtx *x, const Op *o, const NativeDesc *d);
unsigned ne_emit_cpu_field(NCtx *x, const Op *o, const NativeDesc *d);
/* native_int_extra.c: NK_DIV, NK_ADC, NK_DP1; native_fp.c: the NK_F* kinds and NK_CVTF. */
unsigned ne_emit_int_extra(NCtx *x, const Op *o, const NativeDesc *d);
unsigned ne_emit_fp(NCtx *x, const Op *o, const NativeDesc *d);
unsigned ne_emit_sha512(NCtx *x, const Op *o, const NativeDesc *d); /* native_sha512.c */
unsigned ne_emit_atomic(NCtx *x, const Op *o, const NativeDesc *d); /* native_atomic.c */
unsigned ne_emit_dc_zva(NCtx *x, const Op *o, const NativeDesc *d); /* native_sys.c */
unsigned ne_emit_context_sync(NCtx *x);                              /* native_sys.c */
#ifdef CONFIG_SYSTEM
/* System mode, native_ops.c: the soft-TLB fast path for `bytes` bytes at guest address rax
 * (clobbers rcx, rdx): on a hit (the entry's read or write tag equals the page of the access's
 * last byte, so page-crossing accesses miss) rsi = the entry's addend (the host address is
 * rsi + rax: one addressing mode, no add); the returned jne field is taken on a miss.  The
 * entry's write tag is set only for RAM pages without translated code. */
uint8_t *ne_tlb_probe(NCtx *x, bool write, unsigned bytes, int addend);
/* dst = the byte offset of guest address src's entry in a soft-TLB table (bits 12.. of the page
 * number, times the 64-byte entry); src is kept.  With BMI2 the copy and the shift are one
 * rorx: one instruction fewer on every probe. */
void ne_tlb_index(Asm *a, int dst, int src);
#endif
/* NZCV from the x86 flags of the operation just done (FL_*: what the operation was). */
enum { FL_ADD, FL_SUB, FL_LOGIC };
/* The ADC/SBC/ADCS/SBCS being compiled takes its carry from EFLAGS, left there by the op just
 * before: that op's FL_* kind, else -1 (from CPUState.cf). */
int ne_adc_live_carry(const NCtx *x);
void ne_store_flags(NCtx *x, int kind);
/* All four NZCV from the x86 flags of an operation of that kind, stored now. */
void ne_store_all_flags(NCtx *x, int kind);
/* Does tb's code, entered from its start, write all four NZCV before anything reads them,
 * leaves or touches guest memory (computing only in between, through its loop heads)? */
bool ne_flags_dead_at_entry(const TB *tb);
/* native_simd.c, native_simd_perm.c: NK_VEC and NK_VEC_PERM. */
unsigned ne_emit_vec(NCtx *x, const Op *o, const NativeDesc *d);
unsigned ne_emit_vec_perm(NCtx *x, const Op *o, const NativeDesc *d);

#endif
