/* Mali Bifrost GPU (job-manager generation: G71, G72, G52) as a board device, driven by the
 * unmodified Linux panfrost driver.  Files:
 *   regs.h          register offsets, bits, exception codes, descriptor constants
 *   models.c        GPU_ID and feature registers per model
 *   gpu_control.c   control block: IDs/features, GPU IRQ bits, resets, power domains, caches,
 *                   counters
 *   irq.c           the three interrupt lines (the only place that drives them)
 *   clock.c         host / board time, cycle counter, system timestamp
 *   mmu.c           8 address spaces, Mali-LPAE page-table walker, per-AS TLB, AS commands,
 *                   page faults (stall and retry after the driver's flush)
 *   job_manager.c   3 job slots (one host thread each), job-chain walker, NULL/WRITE_VALUE/
 *                   CACHE_FLUSH jobs, COMPUTE dispatch through MaliComputeFn
 *   mali.c          instantiation, MMIO dispatch, device-tree facts (devices/board_gpu.c writes
 *                   the node and gives the device its engine)
 *   ckpt.c          checkpoints: quiesce at job boundaries, save and load the whole device
 * Facts: /work/shared/reference/mali-bifrost-interface.md.  See devices/README.md. */
#ifndef MALIBU_MALI_H
#define MALIBU_MALI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../emu/checkpoint/ckpt.h"

#define MALI_MMIO_SIZE 0x10000ull

typedef struct MaliModel {
    const char *name;            /* "g71" */
    const char *compatible;      /* DT vendor string before "arm,mali-bifrost" (NULL: none) */
    uint32_t gpu_id;
    uint32_t l2_features, core_features, tiler_features, mem_features, mmu_features;
    uint32_t as_present, js_present, js_features[3];
    uint32_t thread_max_threads, thread_max_workgroup_size, thread_max_barrier_size;
    uint32_t thread_features, thread_tls_alloc;
    uint32_t texture_features[4];
    uint32_t coherency_features, afbc_features;
    uint64_t shader_present, tiler_present, l2_present, stack_present;
    uint32_t clock_hz;           /* DT fixed-clock rate; cycle counter frequency */
    unsigned exec_engines;       /* execution engines per shader core (one warp-tuple/cycle each) */
    unsigned max_cores;          /* the product line's largest configuration (MPn) */
} MaliModel;

/* "g71" (default), "g72", "g52"; NULL when unknown. */
const MaliModel *mali_model_find(const char *name);
/* --gpu's value "MODEL[,cores=N][,mhz=M]": *out = the named model with SHADER_PRESENT = the N
 * low bits (1..max_cores) and the clock M MHz (MALI_MHZ_MIN..MALI_MHZ_MAX); unset keys keep the
 * model's.  false with the reason in err. */
#define MALI_MHZ_MIN 100
#define MALI_MHZ_MAX 1500
bool mali_model_parse(const char *spec, MaliModel *out, char *err, size_t errlen);
extern const MaliModel mali_models[]; /* terminated by an entry with name == NULL */

typedef struct Mali Mali;

/* What the device needs from the board (devices/board_gpu.c gives the board's bus and GIC):
 * system memory by physical address for the GPU's DMA (page-table walks, job memory, counter
 * dumps), host pointers into RAM for atomics and the engine's fast path, and its interrupt
 * lines.  Copied by mali_new. */
typedef struct MaliHost {
    void *mem;      /* first argument of the three memory calls */
    bool (*dma_read)(void *mem, uint64_t pa, void *buf, size_t len);   /* false: bus error */
    bool (*dma_write)(void *mem, uint64_t pa, const void *buf, size_t len);
    uint8_t *(*ram_ptr)(void *mem, uint64_t pa, bool write);  /* RAM to its page end, or NULL */
    void *irq;      /* first argument of set_irq */
    void (*set_irq)(void *irq, unsigned line, bool level);    /* a line given to mali_new */
} MaliHost;

/* Interrupt lines: the numbers set_irq gets for the job, mmu and gpu interrupts (level-high;
 * on the board, GIC SPI INTIDs).
 * timestamp: source of GPU_TIMESTAMP / WRITE_VALUE system timestamps (the CPU's CNTPCT, so the
 * values compare with the CPU's), ticking at freq_hz; NULL = host monotonic clock in ns.  The GPU
 * sees it only while cycle counting is on (mali_gpu_timestamp).  The WRITE_VALUE system
 * timestamps of a chain are the time the chain started on the modelled GPU plus the chain's
 * modelled GPU time so far (mali_job_progress); the CPU's time between chains counts only if it
 * read GPU_TIMESTAMP meanwhile; never later than the counter itself (clock.c). */
typedef uint64_t (*MaliTimestampFn)(void *opaque);
Mali *mali_new(const MaliHost *host, const MaliModel *model, unsigned intid_job, unsigned intid_mmu,
               unsigned intid_gpu);
void mali_set_timestamp(Mali *m, MaliTimestampFn fn, void *opaque, uint64_t freq_hz);
/* Board clock hooks (all optional; copied).  now_ns: board time in ns, the cycle counter's base
 * (default: host monotonic time).  hold(+1/-1): the GPU is executing shader work that the CPU
 * may be waiting for; released while a job waits for the CPU (MMU fault, locked region).
 * advance(ns): modelled GPU time for work done (mali_job_progress).  See gtimer.h. */
typedef struct MaliClockModel {
    uint64_t (*now_ns)(void *opaque);
    void (*hold)(void *opaque, int delta);
    void (*advance)(void *opaque, uint64_t ns);
    /* optional: advance only if the guest clock is frozen right now; false: not applied */
    bool (*advance_frozen)(void *opaque, uint64_t ns);
    void *opaque;
    /* optional: board time becomes at least ns (the timestamp counter with it), before the GPU
     * shows the guest a modelled time that is ahead of it; returns board time after it */
    uint64_t (*reach)(void *opaque, uint64_t ns);
} MaliClockModel;
void mali_set_clock_model(Mali *m, const MaliClockModel *cm);
/* --clock icount (devices/gtimer.h): the GPU's work still runs on host threads at host speed,
 * but what the guest sees of a chain's end (JS_STATUS, JS_HEAD/TAIL, the job IRQ, the next
 * latched chain starting) is published only when guest time (clock.now_ns) reaches the
 * chain's start + its modelled duration, by the vCPU loop calling mali_icount_publish at
 * deadlines it learns from mali_icount_next.  So the end appears after the same guest
 * instruction in every run; a vCPU that gets there before the host finished the chain waits
 * for it (mali_icount_wait).  Set before the first job. */
void mali_set_icount(Mali *m, bool on);
enum {
    MALI_ICOUNT_NONE,    /* no chain running or waiting to be published */
    MALI_ICOUNT_PUBLISH, /* *ns: a finished chain's publication time */
    MALI_ICOUNT_BOUND,   /* *ns: a running chain ends no earlier than this */
    MALI_ICOUNT_STALLED, /* a running chain waits for the CPU (MMU fault): no bound */
};
/* The earliest event: a publication or a running chain's lower bound (PUBLISH before BOUND at
 * the same ns); STALLED only when no slot gives a time. */
int mali_icount_next(Mali *m, uint64_t *ns);
/* Publish every finished chain whose time is <= now_ns (guest ns). */
void mali_icount_publish(Mali *m, uint64_t now_ns);
/* Wait on the host (at most max_host_ns) for a running chain to finish or progress. */
void mali_icount_wait(Mali *m, uint64_t max_host_ns);
void mali_free(Mali *m);

/* ---- checkpoints (ckpt.c; docs/checkpoint.md "The GPU") ----------------------------------------
 * quiesce: every job slot idle, at a job boundary of a chain in flight (its slot thread parked
 * until resume), or finished and not yet published (--clock icount); a job waiting for the CPU
 * (MMU fault, locked region) is stopped and runs again from its start after the save.  Call it
 * with the vCPUs stopped, before the board's RAM is saved; resume after the save.
 * save: sections "mali", "mali-js" 0..2, "mali-as" per AS_PRESENT (quiesces by itself if the
 * caller did not).  load: into a fresh device of the same model (a different model is refused,
 * naming both); IRQ lines re-driven; the device stays quiesced (chains in flight continue from
 * their saved job) until mali_ckpt_resume, called once the whole board is loaded. */
#define MALI_CKPT_VERSION 1
void mali_ckpt_quiesce(Mali *m);
void mali_ckpt_resume(Mali *m);
/* What a quiesced GPU holds, for the log ("slot 1: 12 of 40 jobs done"; "slot 0: ended, published
 * at 123 ns"; "slot 2: chain ended (status 0x1), its interrupt not yet handled"): the number of
 * job slots with work or an unhandled end, their description in buf. */
unsigned mali_ckpt_describe(Mali *m, char *buf, size_t len);
void mali_ckpt_save(Mali *m, CkptWriter *w);
bool mali_ckpt_load(Mali *m, CkptReader *r);

/* Power-on state (as after a hard reset, IRQ RAWSTAT clear); running jobs are abandoned. */
void mali_reset(Mali *m);
const MaliModel *mali_model(Mali *m);

/* Register window (MALI_MMIO_SIZE bytes): 32-bit registers; an 8-byte access is two registers (LO
 * then HI); 1/2-byte reads return part of a register, 1/2-byte writes are ignored. */
uint64_t mali_mmio_read(Mali *m, uint64_t offset, unsigned size);
void mali_mmio_write(Mali *m, uint64_t offset, uint64_t value, unsigned size);

/* What the GPU's device-tree node says about the device (the board writes the node): compatible
 * strings (most specific first), the names of mali_new's interrupts in its order (job, mmu, gpu),
 * the size of the register window, the fixed clock's rate. */
typedef struct MaliDtInfo {
    const char *compatible[2];
    unsigned ncompatible;
    const char *interrupt_names[3];
    uint64_t reg_size;
    uint32_t clock_hz;
} MaliDtInfo;
void mali_dt_info(const Mali *m, MaliDtInfo *dt);

/* ---- interface for the shader-core (compute) engine --------------------------------------------
 * The job manager hands the shader jobs whose types the engine registered (COMPUTE, VERTEX,
 * GEOMETRY today; TILER, FRAGMENT, ... once it has front ends for them) to the engine, on the
 * job slot's host thread.  The engine parses the descriptor at job->job_va
 * (header 32 bytes, invocation @32, parameters @40, draw/DCD @64; §6.2 of the reference) with
 * mali_gpu_read, runs the shaders, and returns the job's exception status:
 *   MALI_EXC_DONE (1) on success, or a fault code (regs.h MALI_EXC_*, e.g. 0x51 INSTR_INVALID_ENC,
 *   0x58 DATA_INVALID_FAULT), or exactly the value a failed mali_gpu_* call returned.
 * The job manager then writes the job header (status, fault pointer) and continues the chain.
 * Memory: all accesses go through the job's address space (GPU MMU, TLB, permission checks).
 * A translation fault stalls inside mali_gpu_* (FAULTSTATUS/FAULTADDRESS, MMU IRQ) until the
 * driver maps the page and flushes (growable heaps), then the access completes normally; if the
 * fault is not resolvable, or the slot is stopped meanwhile, the call returns the status the job
 * must end with.  The engine should poll mali_job_should_stop() between workgroups and then
 * return MALI_EXC_STOPPED: the job is not written back, JS_TAIL points at it and the driver
 * resumes the chain from it (the job runs again from its start); the job manager turns that
 * into TERMINATED for hard stops and drops the chain after a GPU reset.
 * All the calls below may be made from several engine threads at once (same ctx). */
typedef struct MaliJobCtx MaliJobCtx;

typedef struct MaliComputeJob {
    uint64_t job_va;          /* GPU VA of the job header */
    unsigned type;            /* JOB_TYPE_*: one the engine registered (mali_set_job_engine) */
    unsigned as;              /* address space (JS_CONFIG[3:0]) */
    unsigned slot;            /* job slot 0..2 */
    unsigned arch_major;      /* 6 (G71/G72: v6 descriptors, 4-lane warps) or 7 (G52) */
    uint64_t shader_present;  /* core mask the job may use (JS_AFFINITY) */
    /* the shaders' clock (LD_GCLK): GPU_CYCLE_COUNT and GPU_TIMESTAMP when the job starts, their
     * rates in Hz, and whether they run (cycle counting on) */
    uint64_t cycles, timestamp, gpu_hz, timestamp_hz;
    bool clock_running;
    unsigned priority;        /* JS_CONFIG thread priority (bits 19:16; panfrost: 8, or per context) */
    unsigned exec_engines;    /* execution engines per shader core (the model's) */
    MaliJobCtx *ctx;          /* for the calls below, valid during the callback only */
} MaliComputeJob;

typedef uint32_t (*MaliComputeFn)(void *opaque, const MaliComputeJob *job);
/* Register (or with fn == NULL remove) the engine, for the shader job types it has a front end
 * for (types: bit t for job type t; the engine picks the front end by job->type).  Without one,
 * COMPUTE / VERTEX / GEOMETRY jobs end with MALI_EXC_DATA_INVALID_FAULT (0x58) and a log line on
 * stderr; graphics types (TILER, FUSED, FRAGMENT, INDEXED_VERTEX) not in types too. */
void mali_set_job_engine(Mali *m, MaliComputeFn fn, uint32_t types, void *opaque);
/* The same for the compute-shaped types only (MALI_COMPUTE_JOB_TYPES: COMPUTE, VERTEX, GEOMETRY). */
#define MALI_COMPUTE_JOB_TYPES (1u << 4 | 1u << 5 | 1u << 6)
void mali_set_compute_engine(Mali *m, MaliComputeFn fn, void *opaque);

/* Optional observer of job chains (the board's --gpu-dump): called on the job slot's thread when
 * a chain starts, before any of its jobs runs, with the chain's head, address space and the
 * job's ctx (for mali_gpu_map; valid during the call only). */
typedef void (*MaliChainFn)(void *opaque, MaliJobCtx *ctx, uint64_t head, unsigned as, unsigned arch_major);
void mali_set_chain_observer(Mali *m, MaliChainFn fn, void *opaque);

/* Optional observer of faults (the board's GPU fault report): called on the job slot's thread
 * (or an engine thread) for a chain's first MMU fault, before the MMU interrupt is raised (so the
 * tables and descriptors are still as the job saw them), and when a chain without an MMU fault
 * ends with a job fault (not a stop); ctx is valid for mali_gpu_map and mali_job_walk. */
typedef struct MaliFaultInfo {
    unsigned slot, as, arch_major;
    uint64_t head;            /* the chain's first job */
    uint64_t job_va;          /* the job running (JS_HEAD/TAIL) */
    uint32_t status;          /* the exception code (JS_STATUS, or the MMU's fault code) */
    uint64_t fault_va;        /* the faulting GPU VA */
    bool mmu_fault;           /* an MMU fault (AS_FAULTSTATUS), not a job fault: */
    uint32_t mmu_code;        /*   its exception code, */
    unsigned mmu_access;      /*   access type (MALI_ACCESS_*) */
    uint64_t mmu_va;          /*   and address (AS_FAULTADDRESS) */
} MaliFaultInfo;
typedef void (*MaliFaultFn)(void *opaque, MaliJobCtx *ctx, const MaliFaultInfo *f);
void mali_set_fault_observer(Mali *m, MaliFaultFn fn, void *opaque);

/* The job's address space walking va's page tables as the MMU does (no TLB, no fault raised):
 * each level's table address and entry, then the result (code 0 and pa, or the fault code). */
typedef struct MaliWalk {
    uint64_t transtab;        /* AS_TRANSTAB in use */
    unsigned mode;            /* AS_TRANSTAB_ADRMODE_* in use */
    unsigned n;               /* levels read */
    struct { uint64_t table, pte; } step[4];
    uint32_t code;            /* 0, or the MALI_EXC_* fault the MMU raises */
    uint64_t pa;
} MaliWalk;
void mali_job_walk(MaliJobCtx *ctx, uint64_t va, MaliWalk *w);

/* GPU-VA memory access for the running job: 0 on success, else the exception code the job must
 * end with (translation/permission/bus fault, or STOPPED/TERMINATED after a stop request).
 * mali_gpu_fetch checks execute permission (shader code), mali_gpu_read read permission. */
uint32_t mali_gpu_read(void *ctx, uint64_t va, void *buf, size_t len);
uint32_t mali_gpu_write(void *ctx, uint64_t va, const void *buf, size_t len);
uint32_t mali_gpu_fetch(void *ctx, uint64_t va, void *buf, size_t len);
/* Atomic read-modify-write of 4 or 8 bytes (access type ATOMIC: needs read+write permission). */
uint32_t mali_gpu_atomic(void *ctx, uint64_t va, unsigned size,
                         uint64_t (*op)(uint64_t old, void *arg), void *arg, uint64_t *old);
bool mali_job_should_stop(void *ctx);
/* Fast path for engines that cache translations: the host address of the guest-RAM byte at va
 * when the job's address space maps it right now for the access (MALI_ACCESS_READ / _WRITE /
 * _ATOMIC; valid to the end of its 4 KiB page), else NULL with no fault reported and no stall
 * (then use mali_gpu_read / _write / _atomic, which report faults).  *gen = the address space's
 * translation generation: a pointer may be reused while mali_gpu_generation() still returns the
 * value it came with (every AS command and reset changes it). */
void *mali_gpu_map(void *ctx, uint64_t va, unsigned access, uint64_t *gen);
uint64_t mali_gpu_generation(void *ctx);
/* The word mali_gpu_generation() reads (atomically, acquire), fixed for the job: an engine checking
 * it on every access loads it instead of calling. */
const uint64_t *mali_gpu_generation_word(void *ctx);
/* len bytes at va read through mali_gpu_map (no fault reported, no stall), for observers that
 * print or dump a job's descriptors: 0, or -1 when a page is not readable. */
int mali_gpu_peek(void *ctx, uint64_t va, void *buf, size_t len);
/* Work the engine has done for this job, as warp-tuple issues (any thread, in batches): the
 * device turns it into modelled GPU time, tuples / (cores x execution engines x clock), and
 * passes that to the board clock (MaliClockModel.advance). */
void mali_job_progress(void *ctx, uint64_t warp_tuples);
/* --timing: memory stall cycles (GPU clock) beyond the job's issue time, reported once at its
 * end; added to its modelled time like progress. */
void mali_job_stall(void *ctx, uint64_t gpu_cycles);
/* The modelled duration of the running job so far, in ns (its warp-tuples / issue rate, plus
 * the stall time). */
uint64_t mali_job_model_ns(void *ctx);
/* Fault address of the last failed mali_gpu_* call (written to the job header). */
uint64_t mali_job_fault_address(MaliJobCtx *ctx);
/* Set the fault address written to the job header when the engine's status is a fault (the
 * engine's own faults, or the fault it chose among several host threads'). */
void mali_job_set_fault_address(MaliJobCtx *ctx, uint64_t va);
/* GPU_CYCLE_COUNT and GPU_TIMESTAMP as a job sees them: both run only while cycle counting is on
 * (GPU_COMMAND CYCLE_COUNT_START .. _STOP) and otherwise hold the value they stopped at. */
uint64_t mali_gpu_cycle_count(Mali *m);
uint64_t mali_gpu_timestamp(Mali *m);

#endif
