/* System-level (EL0/EL1) CPU state for the full-system build (-DCONFIG_SYSTEM).
 *
 * SysCPU embeds the shared CPUState as its first member, so op handlers that get a CPUState *
 * reach the system state with a cast (sys_cpu(c)).  The user-mode build never sees this file.
 *
 * PSTATE: NZCV stay in CPUState (nf zf cf vf); EL, SPSel and DAIF live here.  c->x[REG_SP] is
 * always the *current* stack pointer; the other bank (SP_EL0 while SPSel=1 at EL1, SP_EL1 while
 * running on SP_EL0) lives in sp_el0 / sp_el1.
 *
 * Soft TLB: one direct-mapped table per translation regime "mmu index" (0 = EL0, 1 = EL1).
 * An entry maps one 4 KB virtual page: tag_r / tag_w / tag_x hold the page's VA when that
 * access is allowed (and RAM-backed), else SYS_TLB_INVALID; host = va + addend.  MMIO pages
 * are never entered (every MMIO access walks), nor are write tags of pages holding translated
 * code (so stores to them take the slow path, which invalidates the translations).
 *
 * SMP: the state is per SysCPU (registers, TLBs, TB cache, index); one SysMachine is shared and
 * lists the CPUs (cpus/ncpu).  What one CPU does to another's state is posted to it and applied
 * at its next block boundary (dispatch sees exit_request): TLBI ...IS (remote TLB invalidation),
 * stores into code pages (the other CPUs drop that page's blocks), full code flushes.  SEV sets
 * every CPU's event register.  The runtime (emu/system/smp.c) decides which host thread runs
 * which vCPU; sys_cpu_exec returns to it at quantum ends, WFI/WFE and CPU_OFF.  Exclusives use
 * host compare-and-swap, so another CPU's store breaks a reservation as the value check sees it. */
#ifndef MALIBU_SYS_CPU_H
#define MALIBU_SYS_CPU_H

#ifndef CONFIG_SYSTEM
#error "sys_cpu.h is part of the full-system build only (-DCONFIG_SYSTEM, mk/cpu.mk)"
#endif

#include <pthread.h>
#include "cpu.h"
#include "sys_pmu.h"

/* 65536 pages (256 MB of VA) per regime: clinfo's LLVM and Mesa libraries no longer conflict-miss
 * (docs/cpu.md); flushes visit only the filled slots (tlb_live). */
#define SYS_TLB_BITS 16
#define SYS_TLB_SIZE (1u << SYS_TLB_BITS)
#define SYS_TLB_INVALID (~0ull)
#define SYS_PAGE_MASK (~0xfffull)

/* One cache line each (SysCPU is allocated 64-aligned): a probe reads a tag and the addend, which
 * must not sit in two lines. */
typedef struct SysTlbEntry {
    _Alignas(64) uint64_t tag_r;
    uint64_t tag_w, tag_x;
    uintptr_t addend; /* host address = guest VA + addend */
    uint64_t pa;      /* physical page address */
    uint64_t vblock;  /* VA of the block mapping this page came from (SYS_TLB_INVALID: a page) */
    uint64_t vbmask;  /* ~(block size - 1) */
    uint64_t global;  /* 1: global (nG = 0) upper-half (TTBR1) mapping, kept across ASID changes */
} SysTlbEntry;

/* CpuException values private to the system build (cpu_exec never sees them). */
#define EXC_SYS_HVC ((CpuException)0x100)  /* HVC #0 at EL1: pc = next insn */
#define EXC_SYS_SMC ((CpuException)0x101)  /* SMC #0 at EL1: pc = next insn */
#define EXC_SYS_WFI ((CpuException)0x102)  /* pc = next insn */
#define EXC_SYS_WFE ((CpuException)0x103)  /* pc = next insn */
#define EXC_SYS_SYNC ((CpuException)0x104) /* synchronous exception, ESR in sys->pend_esr, pc = insn */
#define EXC_SYS_BKPT ((CpuException)0x105)  /* debugger breakpoint at pc (sys_debug.h) */
#define EXC_SYS_WATCH ((CpuException)0x106) /* debugger watchpoint: insn at pc, fault_addr/_write */

/* SCTLR_EL1 bits used. */
#define SCTLR_M (1ull << 0)
#define SCTLR_A (1ull << 1)
#define SCTLR_SA (1ull << 3)
#define SCTLR_SA0 (1ull << 4)
#define SCTLR_UMA (1ull << 9)
#define SCTLR_DZE (1ull << 14)
#define SCTLR_UCT (1ull << 15)
#define SCTLR_WXN (1ull << 19)
#define SCTLR_SPAN (1ull << 23) /* 0: exceptions to EL1 set PSTATE.PAN (FEAT_PAN) */
#define SCTLR_UCI (1ull << 26)
#define SCTLR_RESET 0x00C50838ull

#define SYS_TBF_FPTRAP 8u /* FP/SIMD instructions trap (CPACR_EL1.FPEN) at this EL */
#define SYS_TBF_STEP 16u  /* debugger single step: one-instruction blocks */

#define PSTATE_PAN (1ull << 22) /* SPSR / PAN register position */
#define PSTATE_I 0x80u
#define PSTATE_F 0x40u

struct Board;
struct SysMachine;

struct TB;
typedef struct SysCodePage {
    uint64_t key;     /* physical page number + 1; 0: empty */
    struct TB *tbs;   /* blocks translated from it (TB.page_next) */
} SysCodePage;
typedef struct SysCodeIndex {
    SysCodePage *slot;
    size_t cap, n;
    uint64_t gen;     /* TBCache.n_flushes the lists belong to */
} SysCodeIndex;

typedef struct SysCPU {
    CPUState cpu; /* must stay first */

    SysTlbEntry *tlb; /* tlbs[el]: the current regime's table */
    uint32_t tb_flags; /* state translated code depends on: EL | MMU-on << 2 | SYS_TBF_FPTRAP */
    /* Moves whenever a chained jump into another page may no longer reach the block
     * sys_tb_find would give: a soft-TLB flush (any kind: TLBI, translation-register writes,
     * another vCPU's TLBI) or blocks dropped.  The native guard of such a jump checks the
     * block only when this moved since its last check (native.c, emit_cross_page). */
    uint64_t chain_epoch;
    unsigned el;      /* 0 or 1 */
    unsigned spsel;   /* 0: SP_EL0, 1: SP_ELx */
    uint32_t daif;    /* PSTATE.DAIF in SPSR position (bits 9:6) */
    bool event;       /* WFE event register */
    bool pan;         /* PSTATE.PAN (FEAT_PAN, --cpu max): EL1 data accesses to EL0 data pages fault */
    /* The EL1 table got read/write tags of EL0-accessible pages while PAN was 0 (non-global /
     * global ones): setting PAN must drop them first (sys_set_pan). */
    bool pan_stale_ng, pan_stale_global;
    bool unpriv;      /* inside LDTR/STTR at EL1: tlb = tlbs[0], accesses checked as EL0's */

    uint64_t sp_el0, sp_el1; /* the banked (inactive) stack pointers */
    uint64_t sctlr, tcr, mair, amair, ttbr0, ttbr1, contextidr, vbar, cpacr;
    uint64_t esr, far, par, afsr0, afsr1, spsr, elr, tpidr_el1, cntkctl, csselr;
    uint64_t mdscr, osdlr, oslsr, mdccint, actlr;
    SysPmu pmu;       /* PMUv3 (sys_pmu.h) */

    /* last fault (set by the MMU before cpu_raise / returned to the exec loop) */
    uint32_t fault_fsc;
    bool fault_s1ptw;
    uint32_t pend_esr; /* EXC_SYS_SYNC */

    unsigned index;            /* CPU number (GIC CPU interface, timers); MPIDR from mpidr */
    uint64_t mpidr;            /* MPIDR_EL1 affinity fields (Aff1.Aff0; bit 31 added on read) */
    bool powered_off;          /* PSCI CPU_OFF taken: sys_cpu_exec returns SYS_RUN_OFF */
    bool fw_wait;              /* set by the firmware hook (PSCI CPU_SUSPEND): wait as for WFI */
    bool wfi_halted;           /* the round-robin loop (smp.c) holds it in WFI until an interrupt */
    /* Invalidation posted by other CPUs (under mach->xcpu_lock), applied at a block boundary. */
#define SYS_MAX_REMOTE_TLBI 16
    bool remote_tlb_all;
    unsigned n_remote_tlbi;
    uint64_t remote_tlbi_va[SYS_MAX_REMOTE_TLBI];
    bool remote_code_all;      /* another CPU cleared the code-page map: drop every block */
    /* TLBI ...IS completion: posts counted by the issuer, applied ones by this CPU; while
     * in_guest (its own thread runs guest code) an issuer waits until the count catches up. */
    uint64_t remote_tlbi_posted, remote_tlbi_done;
    volatile int in_guest;
    struct SysMachine *mach;   /* shared machine state (bus, GIC, code-page map) */
    uint8_t bounce[16];        /* MMIO reads through mem_host_aligned */
    /* Block mappings (VA base, mask) that TLB entries were filled from since the last full
     * flush: a TLBI by VA scans the TLB only when it hits one of them. */
#define SYS_TLB_BLOCK_REGIONS 32
    unsigned n_blk;
    bool blk_overflow;
    uint64_t blk_base[SYS_TLB_BLOCK_REGIONS], blk_mask[SYS_TLB_BLOCK_REGIONS];
    /* blocks by physical page (sys_code.c), and the pages stores hit since the last dispatch */
    SysCodeIndex code_idx;
#define SYS_MAX_INVAL_PAGES 64
    unsigned n_inval;
    bool inval_all;
    uint64_t inval_pages[SYS_MAX_INVAL_PAGES];
    uint64_t n_exc, n_irq, n_tlb_miss, n_tlb_flush, n_tlb_flush_va, n_tlbi, n_mmu_writes, n_dispatch, n_tb_miss, n_tlbi_scan;
    uint64_t n_tb_dropped;
    uint64_t n_exc_pan;                    /* exceptions whose entry set PSTATE.PAN (SPAN = 0) */
    uint64_t n_exc_ec[64], n_exc_vec[4];   /* exceptions by ESR EC (synchronous) and by vector */
    /* debugger (sys_debug.h): single step requested / one block run; generations seen; the
     * breakpoints this vCPU's translations were made with (64 = SYS_DEBUG_MAX_BP) */
    bool dbg_step, dbg_step_done;
    uint64_t dbg_bp_gen, dbg_wp_gen;
    uint64_t n_wfi, idle_ns;               /* WFI/WFE sleeps and host ns spent idle (smp.c) */
    uint64_t n_remote_tlbi_applied;        /* TLB invalidations posted by other CPUs */
    unsigned dbg_n_bp;
    uint64_t dbg_bp[64];

    /* The entries of each table that may hold a valid tag: every fill lists its slot once
     * (tlb_live_pos), so flushes, sys_set_pan, block-mapping TLBIs and sys_mark_code visit the
     * slots filled since the last flush instead of the whole table (which is large to keep
     * conflict misses down).  tlb_live_exact false (zeroed state, or more than
     * SYS_TLB_LIVE_MAX slots filled): the list is incomplete and they scan the table. */
#define SYS_TLB_LIVE_MAX (SYS_TLB_SIZE / 2)
    bool tlb_live_exact[2];
    uint32_t tlb_live_n[2];
    /* Odd while a sweep rewrites the lists: another CPU's sys_mark_code reads them only
     * between two sweeps (seqlock), else it scans the table. */
    uint32_t tlb_sweep_seq;
    uint32_t tlb_live[2][SYS_TLB_LIVE_MAX];
    /* tlb_wpage of the slot at each position of the live list, kept equal to it, so that
     * sys_mark_code on this CPU reads one dense array in order instead of a random slot per
     * listed entry. */
    uint32_t tlb_live_wpage[2][SYS_TLB_LIVE_MAX];
    /* Per slot: 0 not listed, else its position in tlb_live + 1 (TLB_POS_UNLISTED: listed while
     * the list was full, so the list is not exact). */
#define TLB_POS_UNLISTED UINT32_MAX
    uint32_t tlb_live_pos[2][SYS_TLB_SIZE];

    SysTlbEntry tlbs[2][SYS_TLB_SIZE];
    /* The physical page number each entry's write tag was filled for (a hint: an entry whose
     * write tag was dropped since may still be listed).  sys_mark_code reads it for another
     * CPU (through its live list) and when a list is not exact (every slot). */
    uint32_t tlb_wpage[2][SYS_TLB_SIZE];
} SysCPU;

static inline SysCPU *sys_cpu(CPUState *c) { return (SysCPU *)c; }

/* The slots of table i that may hold a valid tag: for k below sys_tlb_live_count,
 * sys_tlb_live_slot(k) (the live list, or every slot when it is incomplete). */
static inline uint32_t sys_tlb_live_count(const SysCPU *s, unsigned i)
{
    return s->tlb_live_exact[i] ? s->tlb_live_n[i] : SYS_TLB_SIZE;
}
static inline uint32_t sys_tlb_live_slot(const SysCPU *s, unsigned i, uint32_t k)
{
    return s->tlb_live_exact[i] ? s->tlb_live[i][k] : k;
}

/* ---- machine-wide state shared by the CPUs ---------------------------------------------- */
struct Bus;
struct Gic;
struct GTimer;
struct SysDebug;

typedef struct SysMachine {
    struct Bus *bus;
    struct Gic *gic;
    struct GTimer *gtimer;
    uint8_t *code_map;      /* one byte per physical page below SYS_CODE_MAP_PA_LIMIT */
    uint64_t *code_list;    /* pages marked since the last flush (to clear them) */
    size_t code_n, code_cap;
    unsigned debug;         /* SYS_DEBUG_* */
    bool psci_smc;          /* firmware conduit: SMC #0 (else HVC #0); the other one UNDEFs */
    struct SysDebug *dbg;   /* debugger attached (--gdb), else NULL */
    volatile int stop;      /* set (then kick the CPUs) to make sys_cpu_run return stop_status */
    int stop_status;
    /* The CPUs, for broadcasts (TLBI IS, code invalidation, SEV); ncpu 0: only the caller. */
#define SYS_MAX_CPUS 8
    struct SysCPU *cpus[SYS_MAX_CPUS];
    unsigned ncpu;
    pthread_mutex_t xcpu_lock; /* posts to another CPU's remote_* / inval_* fields */
    void (*kick)(struct SysCPU *s); /* wake s from a WFI/WFE sleep (SEV); may be NULL */
} SysMachine;

#define SYS_CODE_MAP_PA_LIMIT (1ull << 40)
enum { SYS_DEBUG_EXC = 1, SYS_DEBUG_SYSREG = 2 };

/* ---- mmu.c ------------------------------------------------------------------------------ */
enum { MMU_READ = 1, MMU_WRITE = 2, MMU_EXEC = 4,
       MMU_PAN = 16, /* with el 1: PSTATE.PAN = 1, EL0-accessible pages allow no data access */
       MMU_NO_AF = 8 /* with an access: AF = 0 is no fault (the guest channel's reads: Linux clears
                        AF to age pages that stay mapped; the channel reads them without setting it) */ };

typedef struct MmuResult {
    uint64_t pa;      /* full physical address */
    unsigned perm;    /* MMU_READ|MMU_WRITE|MMU_EXEC allowed at the regime's EL */
    unsigned attr;    /* MAIR index (0 with the MMU off) */
    unsigned sh;
    uint64_t size;    /* size of the page or block mapping (4 KB with the MMU off) */
    bool ng;          /* not global (ASID-specific) */
    bool el0_data;    /* EL0 may read it (AP[1] = 1 after APTable): what PAN guards */
    unsigned fsc;     /* 0 ok, else fault status code */
    bool s1ptw;
} MmuResult;

/* Stage-1 translation of va for an access at EL el (no TLB).  Returns false with r->fsc set. */
bool mmu_translate(SysCPU *s, uint64_t va, unsigned el, unsigned access, MmuResult *r);
void sys_tlb_flush(SysCPU *s);
/* Address-space switch (TTBR0 / ASID change, same kernel tables): drop everything but global
 * TTBR1 entries. */
void sys_tlb_flush_user(SysCPU *s);
/* TLBI by VA (any ASID / last level): drop the entries that translate va's page. */
void sys_tlb_flush_va(SysCPU *s, uint64_t va);
/* Recompute tlb / tb_flags after an EL or SCTLR change (ends an LDTR/STTR's EL0 view). */
void sys_update_mode(SysCPU *s);
/* PSTATE.PAN := pan (callers check cpu_feat_pan). */
void sys_set_pan(SysCPU *s, bool pan);
/* LDTR/STTR at EL1: the accesses between begin and end are EL0's (tlbs[0], EL0 permissions). */
void sys_unpriv_begin(SysCPU *s);
/* Slow paths of mem.h (may cpu_raise).  size 1..8 */
uint64_t sys_ld_slow(CPUState *c, struct Op *o, uint64_t addr, unsigned size);
void sys_st_slow(CPUState *c, struct Op *o, uint64_t addr, unsigned size, uint64_t val);
/* Raise the fault a write to addr would take (nothing else). */
void sys_probe_write(CPUState *c, struct Op *o, uint64_t addr);
uint8_t *sys_host_slow(CPUState *c, struct Op *o, uint64_t addr, unsigned size, bool write,
                       bool aligned_atomic);
/* Instruction fetch translation: physical address of pc, or false with s->fault_fsc set. */
bool sys_translate_exec(SysCPU *s, uint64_t pc, uint64_t *pa, uint8_t **host);
/* AT S1E{0,1}{R,W}: fills PAR_EL1. */
void sys_at(SysCPU *s, uint64_t va, unsigned el, bool write);
/* ---- sys_code.c: physical pages holding translated code --------------------------------- */
/* Mark the physical page of pa as holding translated code (stores to it take the slow path). */
void sys_mark_code(SysCPU *s, uint64_t pa);
bool sys_is_code_page(SysCPU *s, uint64_t pa);
/* Record tb (phys set) under its physical page. */
void sys_code_add_tb(SysCPU *s, struct TB *tb);
/* Guest code at physical pa (all code) may change: a store is about to hit it, or a device
 * wrote it behind the CPU's back (IC IVAU / IC IALLU): drop the page's blocks (all blocks) at
 * the next block boundary (sets exit_request; the dispatcher calls sys_code_apply). */
void sys_code_modified(SysCPU *s, uint64_t pa);
void sys_code_modified_all(SysCPU *s);
void sys_code_apply(SysCPU *s);
/* Drop every translation (TB cache, code-page marks). */
void sys_flush_code(SysCPU *s);
void sys_code_free(SysCPU *s); /* the CPU's page index (before freeing the CPU) */

/* ---- sys_exec.c ------------------------------------------------------------------------- */
void sys_cpu_reset(SysCPU *s, uint64_t pc);
uint64_t sys_pstate(SysCPU *s);
/* Current SP into its bank / from its bank. */
void sys_sp_save(SysCPU *s);
void sys_sp_load(SysCPU *s);
struct TB *sys_tb_find(CPUState *c, uint64_t pc);
/* Run the vCPU until the machine stops; returns m->stop_status.  WFI/WFE sleep in gtimer_wfi
 * (one vCPU on its own host thread). */
int sys_cpu_run(SysCPU *s);
/* Why sys_cpu_exec returned. */
typedef enum {
    SYS_RUN_STOP,    /* the machine stops (m->stop) */
    SYS_RUN_QUANTUM, /* c->insn_count reached c->insn_limit */
    SYS_RUN_WFI,     /* WFI with no interrupt pending: sleep until one is (pc after the WFI) */
    SYS_RUN_WFE,     /* WFE with the event register clear: sleep a little or run others */
    SYS_RUN_OFF,     /* PSCI CPU_OFF (s->powered_off) */
} SysRunResult;
/* Run the vCPU until one of the above. */
SysRunResult sys_cpu_exec(SysCPU *s);
/* Post a TLB invalidation (va, or all when all) to every other CPU of the machine and wait until
 * each one that is running guest code on another thread has applied it (a CPU that sleeps, is
 * off or waits for its turn applies it before it runs guest code again). */
void sys_tlbi_broadcast(SysCPU *s, bool all, uint64_t va);
/* Apply what other CPUs posted to s (block boundary; also done by sys_cpu_exec). */
void sys_apply_remote(SysCPU *s);
/* HVC/SMC #0 at EL1 (firmware, e.g. PSCI): called with pc already at the next instruction. */
typedef void (*SysFirmwareFn)(SysCPU *s, bool smc);
extern SysFirmwareFn sys_firmware_call;

/* sys_translate.c: system instructions, tried before the shared decoder. */
struct DisasCtx;
bool sys_translate_insn(struct DisasCtx *s, uint32_t insn);
/* Around an LDTR/STTR's ops (tr_mem.c): at EL1, ops that make its accesses EL0's; nothing at
 * EL0, where they are plain accesses. */
void sys_tr_unpriv(struct DisasCtx *s, bool begin);

#endif
