/* Instrumentation reports (`--stats FILE.json`): a registry of counters kept per host thread, so
 * hot paths never take a lock or use an atomic.  Each host thread that counts something gets a
 * stats_thread block on first use (one locked insertion into the registry); blocks stay alive
 * until exit and are totalled when the report is written (stats_write), after the machine has
 * stopped.  Everything is off (one predictable branch on the global `stats_on`) unless
 * stats_enable() was called.  Output schema: emu/stats/SCHEMA.md ("malibu-stats/2").
 *
 *   stats.c            registry, system counters, sections, the JSON document, text summary
 *   stats_cpu.c        the "cpu" section: CPUs, bus MMIO
 *   stats_gpu.c        the "gpu" section: Mali device counters, and Bifrost clause executions (an
 *                      observer of the engine and executor: emu/gpu/gpu_observer.h), divergence,
 *                      CFG edges
 *   stats_gpu_prog.c   GPU jobs and programs (identified by the code their jobs ran)
 *   stats_gpu_json.c   the GPU part of the report
 *   gpu_clause.c       decode-time counters of one clause (a function over bifrost_decode's output)
 *
 * This core knows no CPU or GPU type: sections register with it (stats_register_section) and
 * write their own objects of the report from the core's totals and their own records. */
#ifndef MALIBU_STATS_H
#define MALIBU_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define STATS_SCHEMA "malibu-stats/2"
#define STATS_JOB_LIST_MAX 10000   /* gpu.shader_jobs entries written (the rest are counted) */
#define STATS_MMIO_MAX 64          /* bus MMIO regions (BUS_MAX_MMIO) */
#define STATS_MALI_REGS (0x3000 / 4)

/* Plain counters (index into stats_thread.c). */
enum stats_counter {
    ST_MALI_RD_GPU, ST_MALI_RD_JOB, ST_MALI_RD_MMU,        /* register reads per block */
    ST_MALI_WR_GPU, ST_MALI_WR_JOB, ST_MALI_WR_MMU,        /* register writes per block */
    ST_MALI_IRQ_GPU, ST_MALI_IRQ_JOB, ST_MALI_IRQ_MMU,     /* interrupt lines asserted (low -> high) */
    ST_MALI_JOB_TYPE0,                                     /* jobs run, by descriptor type 0..15 */
    ST_MALI_JOB_FAILED = ST_MALI_JOB_TYPE0 + 16,           /* jobs that ended with a fault */
    ST_MALI_TRANSLATE,                                     /* GPU MMU translations requested */
    ST_N
};

typedef struct stats_thread {
    uint64_t c[ST_N];
    uint64_t mmio[STATS_MMIO_MAX][2];   /* [region][0 read, 1 write] */
    uint32_t *mali_reg;                 /* NULL or [STATS_MALI_REGS][2] register accesses */
    /* distinct GPU pages touched: an open-addressing set of 2 MiB blocks of one address space and
     * access type, each with a bit per 4 KiB page (stats_page_block), so that a page translated
     * again costs a probe of a few cache-resident blocks and a bit test */
    struct stats_page_block *blocks;
    size_t nblocks, capblocks;
    struct stats_thread *next;
} stats_thread;

extern bool stats_on;
extern __thread stats_thread *stats_tls;
stats_thread *stats_thread_register(void);

static inline stats_thread *stats_self(void)
{
    stats_thread *t = stats_tls;
    return __builtin_expect(t != NULL, 1) ? t : stats_thread_register();
}

#define STATS_COUNT(id)                                  \
    do {                                                 \
        if (__builtin_expect(stats_on, 0))               \
            stats_self()->c[(id)]++;                     \
    } while (0)

/* Turn counting on; the report goes to json_path (NULL: only the text summary).  Enables every
 * registered section (the GPU section starts observing the executor).  Call before any guest
 * code runs. */
void stats_enable(const char *json_path);
const char *stats_path(void);

/* System hooks (each a no-op unless stats_on). */
void stats_bus_region(unsigned idx, const char *name, uint64_t base, uint64_t size);   /* bus_freeze */
static inline void stats_mmio(unsigned region, bool write)
{
    if (__builtin_expect(stats_on, 0) && region < STATS_MMIO_MAX)
        stats_self()->mmio[region][write]++;
}
void stats_mali_reg(uint32_t off, bool write);            /* a 32-bit Mali register access */
void stats_gpu_page(unsigned as, uint64_t va, unsigned access);   /* a GPU MMU translation */

/* CPU side (the "cpu" section, stats_cpu.c), filled by the machine's main before stats_write. */
typedef struct stats_cpu_info {
    unsigned index;
    uint64_t insns, exceptions, irqs, tbs_translated, tlb_misses;
    /* optional (NULL: not counted): synchronous exceptions by ESR_EL1.EC (64 entries), and
     * exceptions taken by vector (sync, IRQ, FIQ, SError) */
    const uint64_t *exc_by_ec, *exc_by_vector;
    /* optional (has_idle): WFI/WFE/PSCI CPU_SUSPEND sleeps and the host ns spent in them */
    bool has_idle;
    uint64_t idle_sleeps, idle_ns;
} stats_cpu_info;
void stats_set_cpu(const stats_cpu_info *ci);
/* The guest clock's device-wait model (devices/gtimer.h), for the report's `clock` object. */
typedef struct stats_clock_info {
    bool model; /* --gpu-time model */
    uint64_t freezes, lead_limits, host_ns_skipped, gpu_ns_advanced;
} stats_clock_info;
void stats_set_clock(const stats_clock_info *ci);
void stats_set_config(const char *key, const char *value);   /* free-form "config" entries */

/* How the run ended, for the report: `reason` ("exit" unless set) and whether it ran to its end
 * (false: stopped by a signal). */
void stats_set_exit(const char *reason, bool complete);

/* Total every thread's counters and write the JSON report (stats_path()) and the text summary
 * (to `summary`, may be NULL).  Returns 0, or -1 if the file could not be written. */
int stats_write(FILE *summary);
/* Write the JSON report to an open stream (tests). */
void stats_write_json(FILE *f);

/* s as a JSON string literal (quotes, backslashes, newlines and control characters escaped;
 * NULL as ""), for every section's writer. */
void stats_json_string(FILE *f, const char *s);
/* Totals over every thread (tests): plain counters, MMIO [region][read/write], distinct GPU pages. */
void stats_get_totals(uint64_t c[ST_N], uint64_t mmio[STATS_MMIO_MAX][2], uint64_t *pages);

/* ---- sections ---------------------------------------------------------------------------------- */

/* The core's counters totalled over every thread, as sections see them when they write. */
typedef struct stats_totals {
    uint64_t c[ST_N];
    uint64_t mmio[STATS_MMIO_MAX][2];          /* [region][read, write] */
    uint64_t reg[STATS_MALI_REGS][2];          /* Mali register [offset / 4][read, write] */
    uint64_t pages, pages_by_access[16];       /* distinct GPU pages: any access, by access type */
} stats_totals;
/* The name (NULL: none), base and size the bus gave MMIO region idx (stats_bus_region). */
const char *stats_bus_region_get(unsigned idx, uint64_t *base, uint64_t *size);

/* A part of the report with its own records: it registers once (at program start) and the core
 * calls it back.  Sections are written in name order, each as the report object `name`. */
typedef struct stats_section {
    const char *name;
    void (*enable)(void);                      /* optional: stats_enable was called */
    /* the members of its object (the core writes the braces; indent: the members' indent) */
    void (*write_json)(FILE *f, const char *indent, const stats_totals *T);
    void (*summary)(FILE *f, const stats_totals *T);   /* its lines of the text summary */
    bool (*present)(void);                     /* optional: false leaves the section out */
} stats_section;
void stats_register_section(const stats_section *s);

/* ---- timing (stats_timing.c) ----------------------------------------------------------------- */
/* The --timing configuration the report lists (NULL: timing off). */
struct tm_config;
void stats_timing_config(const struct tm_config *c);
/* The CPU side is modelled too (emu/cpu/sys_timing.h): the section gets a "cpu" member. */
void stats_timing_cpu(bool on);
/* Its counters: set by the system build (sys_timing_totals), NULL elsewhere. */
struct tm_totals;
extern void (*stats_timing_cpu_totals)(struct tm_totals *t, uint64_t *cycles);

/* ---- GPU (stats_gpu.c) ---------------------------------------------------------------------- */
/* A job starts running program object `prog` (warps see bi_mem epoch `epoch`; 0 for runners
 * without bi_mem) from shader_va in address space `as`; name: the program's name or NULL.  The
 * engine calls it before the job's first clause, and stats_gpu_job_end (status: the job's
 * exception code) after its last; the report then lists the job and the program it ran. */
void stats_gpu_job_begin(const void *prog, uint64_t epoch, uint64_t shader_va, unsigned as, unsigned job_type,
                         const char *name);
void stats_gpu_job_end(const void *prog, uint64_t epoch, uint32_t status);
/* The shader stage (emu/gpu/compute.h: enum gpu_stage) the job (prog, epoch) announced with
 * stats_gpu_job_begin runs; a kernel's stage is its first job's (the report's "stages"). */
void stats_gpu_job_stage(const void *prog, uint64_t epoch, unsigned stage);
/* Forget every GPU clause record (tests). */
void stats_gpu_reset(void);

#endif
