/* Mali device internals shared by the devices/mali sources (not for other users: see mali.h). */
#ifndef MALIBU_MALI_INT_H
#define MALIBU_MALI_INT_H

#include <pthread.h>

#include "mali.h"
#include "regs.h"

#define MALI_TLB_SIZE 32 /* entries per address space, direct-mapped by VA page */

typedef struct MaliTlbEntry {
    uint64_t vpage;   /* VA >> 12, valid when perm & TLB_VALID */
    uint64_t ppage;   /* PA >> 12 */
    uint8_t perm;     /* TLB_* */
    uint8_t level;    /* level of the leaf descriptor (for permission fault codes) */
} MaliTlbEntry;
#define TLB_VALID 1u
#define TLB_R 2u
#define TLB_W 4u
#define TLB_X 8u

typedef struct MaliAs {
    /* registers as written */
    uint64_t transtab, memattr, lockaddr, transcfg;
    /* configuration latched by UPDATE */
    uint64_t cur_transtab, cur_memattr, cur_transcfg;
    uint32_t faultstatus;
    uint64_t faultaddress;
    bool locked;
    uint64_t lock_base, lock_size;
    uint64_t cmd_gen;   /* bumped by UPDATE / UNLOCK / FLUSH_PT / FLUSH_MEM: stalled jobs retry */
    uint64_t xlate_gen; /* bumped (atomically) by every AS command and reset: host pointers from
                           mali_gpu_map stay usable while it is unchanged */
    MaliTlbEntry tlb[MALI_TLB_SIZE];
    uint64_t tlb_hits, tlb_misses, walks;
} MaliAs;

typedef struct MaliSlot {
    Mali *m;
    unsigned n;
    pthread_t thread;
    bool thread_started;
    /* current (active) job chain */
    bool active;
    uint64_t head, tail, affinity;
    uint32_t config, xaffinity, status;
    uint32_t flush_id;
    int stop;           /* 0, JS_CMD_SOFT_STOP or JS_CMD_HARD_STOP requested for the active chain */
    unsigned stalled;   /* accesses waiting on an MMU fault / locked region (engine threads) */
    /* _NEXT registers */
    uint64_t next_head, next_affinity;
    uint32_t next_config, next_xaffinity, next_command, next_flush_id;
    /* modelled GPU schedule (system-counter ticks, clock.c mali_job_timestamp) */
    bool clock_seen;          /* the CPU read GPU_TIMESTAMP since the last JS_COMMAND_NEXT = START
                                 (or a reset) */
    uint64_t next_anchor_ts;  /* the counter at that START if clock_seen was set, else 0 */
    uint64_t anchor_ts;       /* ... for the active chain */
    uint64_t model_end;       /* when the slot's last chain ended at the modelled speed */
    /* --clock icount (job_manager.c mali_icount_*): the chain's end waits for its guest time */
    struct MaliJobCtx *run_ctx; /* the running chain's context (m->lock), NULL between chains */
    uint64_t icount_start_ns;   /* guest ns when the chain started (slot_try_start) */
    bool pub_pending;           /* the host finished the chain: published at pub_ns */
    uint64_t pub_ns, pub_tail, pub_model_end;
    uint32_t pub_status;
    /* chain walker (slot thread; read by checkpoints while the thread is parked) */
    struct MaliJobRec *jobs;
    size_t jobs_cap;
    uint16_t *idx_total, *idx_done; /* per job index: jobs in the chain / done */
    size_t njobs;               /* jobs[0..njobs): the chain's jobs, once walked */
    bool walked;                /* the Next links have been followed */
    uint64_t chain_head;        /* the chain's first job (JS_HEAD moves to the running job) */
    uint32_t walk_status;       /* a fault reading the links, reported after the jobs before it */
    uint64_t walk_va, walk_fault;
    /* checkpoints (ckpt.c, mali.h mali_ckpt_quiesce) */
    bool parked;                /* the thread waits at a job boundary while m->quiesce */
    bool park_abort;            /* quiesce: the running job waits for the (stopped) CPU: stop it
                                   now, it runs again from its start after the save */
    bool resume;                /* loaded: run_chain continues jobs[] instead of walking */
    bool resume_mmu_fault;
    uint64_t resume_chain_ns, resume_ts_base;
} MaliSlot;

/* One job of the chain being run (job_manager.c). */
typedef struct MaliJobRec {
    uint64_t va;
    uint16_t index, dep[2];
    uint8_t type;             /* JOB_TYPE_*, | 0x80 for a 32-bit descriptor */
    bool barrier, done;
} MaliJobRec;
#define MALI_MAX_CHAIN_JOBS 65535u

struct MaliJobCtx {
    Mali *m;
    MaliSlot *s;
    unsigned as;
    uint64_t reset_gen;
    uint64_t fault_va;  /* atomic: engines may access memory from several threads */
    bool mmu_fault;     /* the chain raised an MMU fault (reported to the fault observer; m->lock) */
    /* clock model (mali_job_progress): */
    uint64_t tuples;        /* atomic: warp-tuples reported so far */
    uint64_t issue_hz;      /* warp-tuples per second the job's cores issue (0: no model) */
    uint64_t stall_ns;      /* --timing: the job's memory stall time (mali_job_stall) */
    bool holding;           /* the job holds the board clock (m->lock) */
    unsigned stalls;        /* engine threads waiting for the CPU (m->lock) */
    /* GPU time of the chain (mali_job_timestamp): */
    uint64_t ts_base;       /* when the chain started at the modelled speed */
    uint64_t chain_ns;      /* atomic: modelled ns of the chain's jobs so far */
};

struct Mali {
    const MaliModel *model;
    MaliHost host;
    unsigned intid_job, intid_mmu, intid_gpu;
    MaliTimestampFn ts_fn;
    void *ts_opaque;
    uint64_t ts_freq;           /* ticks per second of ts_fn (1e9 without one) */
    MaliClockModel clock;
    bool icount;                /* mali_set_icount: chains end at their modelled guest time */
    bool quiesce;               /* mali_ckpt_quiesce .. _resume: slot threads park between jobs */

    pthread_mutex_t lock;
    pthread_cond_t cond;   /* slot threads wait here; broadcast on any relevant change */
    bool quit;
    uint64_t reset_gen;    /* bumped by resets: running chains are abandoned */

    /* GPU control */
    uint32_t gpu_irq_raw, gpu_irq_mask;
    uint32_t gpu_fault_status;
    uint64_t gpu_fault_address;
    uint32_t latest_flush;
    uint64_t pwr_ready[3];      /* shader, tiler, l2 */
    uint64_t prfcnt_base;
    uint32_t prfcnt_config, prfcnt_en[4];
    uint32_t pwr_override[2];
    uint32_t coherency_enable, jm_config, shader_config, tiler_config, l2_mmu_config;
    bool cycle_running;
    uint64_t cycle_base;        /* count at cycle_start_ns (or frozen value when stopped) */
    uint64_t cycle_start_ns;
    uint64_t ts_stopped;        /* GPU_TIMESTAMP while cycle counting is off */

    /* job control */
    uint32_t job_irq_raw, job_irq_mask;
    MaliSlot slot[JS_NUM];

    /* MMU */
    uint32_t mmu_irq_raw, mmu_irq_mask;
    MaliAs as[AS_NUM];

    bool line_job, line_mmu, line_gpu;

    MaliComputeFn compute_fn;
    void *compute_opaque;
    uint32_t compute_types;   /* job types compute_fn runs: bit t for type t */
    MaliChainFn chain_fn;
    void *chain_opaque;
    MaliFaultFn fault_fn;
    void *fault_opaque;
};

/* all with m->lock held */
void mali_update_irqs(Mali *m);                 /* irq.c: the interrupt lines from RAWSTAT & MASK */
uint64_t mali_now_ns(void);                     /* clock.c: host monotonic time */
uint64_t mali_board_ns(Mali *m);                /* clock.c: board time (cycle counter base) */
void mali_reset_blocks_locked(Mali *m);         /* mali.c: every block to its reset state */
uint32_t mali_gpu_read_reg(Mali *m, uint32_t off);
void mali_gpu_write_reg(Mali *m, uint32_t off, uint32_t v);
uint32_t mali_mmu_read_reg(Mali *m, uint32_t off);
void mali_mmu_write_reg(Mali *m, uint32_t off, uint32_t v);
uint32_t mali_job_read_reg(Mali *m, uint32_t off);
void mali_job_write_reg(Mali *m, uint32_t off, uint32_t v);
void mali_mmu_reset_locked(Mali *m);
void mali_job_reset_locked(Mali *m);
void mali_gpu_reset_locked(Mali *m);
uint64_t mali_cycle_count_locked(Mali *m);
uint64_t mali_timestamp_locked(Mali *m);        /* clock.c: GPU_TIMESTAMP (frozen while stopped) */
uint64_t mali_job_cycle_count_locked(MaliJobCtx *c); /* the cycle counter a job sees (icount) */
uint64_t mali_job_cycle_count(MaliJobCtx *c);
uint64_t mali_timestamp_read_locked(Mali *m);   /* ... read by the CPU: sets slots' clock_seen */
uint64_t mali_system_counter(Mali *m);          /* clock.c: the board's counter, always running */
uint64_t mali_job_timestamp(MaliJobCtx *c);     /* clock.c: WRITE_VALUE system timestamp (locks) */
uint64_t mali_job_timestamp_locked(MaliJobCtx *c, bool always);

/* MMU translation (m->lock held): 0 and *pa, or an exception code; *bus_fault set for
 * faults reported as bus faults (MMU_IRQ bit 16+as); *level = level of the fault. */
uint32_t mali_as_translate(Mali *m, unsigned as, uint64_t va, unsigned access, uint64_t *pa,
                           bool *bus_fault);
void mali_tlb_flush(MaliAs *a, bool all);

/* irq.c: drive the three lines to RAWSTAT & MASK whatever they were (after a load; no counting) */
void mali_redrive_irqs(Mali *m);

/* job manager threads */
bool mali_slot_grow_jobs(MaliSlot *s, size_t n); /* room for jobs[0..n] */
bool mali_jm_start(Mali *m);
void mali_jm_stop(Mali *m);

#endif
