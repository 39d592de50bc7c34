/* --timeline FILE.json: what the machine did over time, in the Chrome trace-event format that
 * Perfetto's UI and chrome://tracing open (docs/reports.md "Timeline").
 *
 * Recorded, each as one span or instant:
 *   GPU jobs        per job slot, one span per job descriptor the job manager ran, named by its
 *                   kernel (timeline_job_name), with type, chain, workgroups and status
 *   vCPU states     per vCPU, spans of running / exception (from an exception's entry to the
 *                   ERET that leaves the outermost one; a sleep in WFI closes them all) / idle
 *                   (asleep in WFI) / off (PSCI CPU_OFF until CPU_ON)
 *   GPU interrupts  instants when the JOB, MMU or GPU line rises
 *   regions         per vCPU, nested spans timeline_region_begin .. _end, and annotations
 *
 * Each event carries two times: host time (CLOCK_MONOTONIC since timeline_enable) and guest
 * time (the board's clock, devices/gtimer.c); GPU jobs also carry their place on the modelled GPU
 * schedule (devices/mali/clock.c).  The file shows every event twice, once per clock, as two
 * processes.
 *
 * Events go into one ring of --timeline-limit entries (a slot claimed with one atomic add, no
 * lock), so the file keeps the newest events and says how many older ones were dropped.  Spans
 * are recorded when they end (complete "X" events): a dropped event never leaves a begin without
 * its end.  Everything is off (one predictable branch on `timeline_on`) unless timeline_enable
 * was called. */
#ifndef MALIBU_TIMELINE_H
#define MALIBU_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TIMELINE_DEFAULT_LIMIT 1000000   /* events kept (--timeline-limit) */
#define TIMELINE_MIN_LIMIT 16
#define TIMELINE_MAX_LIMIT 100000000
#define TIMELINE_MAX_CPUS 64
#define TIMELINE_SLOTS 3                  /* Mali job slots */
#define TIMELINE_TEXT 64                  /* region names and annotations keep this many bytes - 1 */

extern bool timeline_on;

/* Start recording: the file is written at exit (atexit) or by timeline_write.  limit: events
 * kept (TIMELINE_MIN_LIMIT..TIMELINE_MAX_LIMIT).  Returns false (and says why on stderr) if the
 * ring cannot be allocated. */
bool timeline_enable(const char *path, uint64_t limit);
/* The guest's clock in ns (devices/gtimer.c gtimer_now_ns); without one guest time is host time. */
void timeline_set_guest_clock(uint64_t (*now_ns)(void *opaque), void *opaque);
/* Write the file now (path NULL: the enabled one); later events still record.  Prints one line
 * on `note` (may be NULL): events written and dropped.  Returns 0, or -1 if it cannot be written. */
int timeline_write(const char *path, FILE *note);

/* ---- vCPU hooks (emu/cpu: on the host thread running the vCPU) --------------------------------- */
enum timeline_cpu_state { TL_CPU_RUNNING, TL_CPU_EXCEPTION, TL_CPU_IDLE, TL_CPU_OFF, TL_CPU_STATES };
/* The vCPU starts running (reset, PSCI CPU_ON) / is powered off (PSCI CPU_OFF); its lane begins
 * at its first call of any of these hooks. */
void timeline_cpu_start(unsigned cpu);
void timeline_cpu_off(unsigned cpu);
/* An exception taken to EL1 (vec: 0 sync, 0x80 IRQ, 0x100 FIQ, 0x180 SError; ec: ESR class). */
void timeline_cpu_exception(unsigned cpu, unsigned vec, unsigned ec);
void timeline_cpu_eret(unsigned cpu);
/* The vCPU went to sleep in WFI (idle = true) or woke up. */
void timeline_cpu_idle(unsigned cpu, bool idle);

/* ---- GPU hooks (devices/mali, devices/board_gpu.c) ----------------------------------------------- */
/* What the engine learns of the job the calling (job slot) thread runs, between
 * timeline_gpu_job_begin and _end: shader (first program of the job; a FRAGMENT job runs one per
 * draw) and workgroups. */
void timeline_gpu_job_shader(uint64_t shader_va, unsigned as, unsigned stage);
void timeline_gpu_job_groups(const unsigned local[3], const unsigned groups[3]);
/* A job descriptor starts / ended on job slot `slot` of chain `head`.  model_ns: the modelled
 * GPU schedule's time (ns of the board clock) at its start / end. */
void timeline_gpu_job_begin(unsigned slot, uint64_t model_ns);
void timeline_gpu_job_end(unsigned slot, unsigned as, uint64_t head, uint64_t job_va, unsigned type,
                          uint32_t status, uint64_t model_ns);
/* An interrupt line of the GPU rose (line: 0 JOB, 1 MMU, 2 GPU; raw: its RAWSTAT). */
void timeline_gpu_irq(unsigned line, uint32_t raw);

/* ---- regions, annotations and kernel names (the guest channel, issue 36 items 1-3) ------------- */
/* A region named `name` begins on vCPU `cpu`; regions nest.  Returns 0, or -1 if the name is
 * NULL or the nesting is deeper than TIMELINE_REGION_DEPTH (the begin is not recorded). */
#define TIMELINE_REGION_DEPTH 32
int timeline_region_begin(unsigned cpu, const char *name);
/* The innermost open region of vCPU `cpu` ends: one span.  -1 if none is open. */
int timeline_region_end(unsigned cpu);
/* An instant on vCPU `cpu`'s region track. */
void timeline_annotate(unsigned cpu, const char *text);
/* Jobs that run the shader at shader_va in address space `as` from now on are named `name`
 * (the kernel's real name), until another name is given for the same shader; called on the job
 * slot thread while a job of that shader starts (the --stats observer naming it from the guest's
 * announced launch, stats_gpu.c), it names that job too. */
void timeline_job_named(unsigned as, uint64_t shader_va, const char *name);

/* ---- reading back (the writer, tests) ------------------------------------------------------------ */
typedef struct timeline_counts {
    uint64_t recorded;     /* events recorded since timeline_enable */
    uint64_t kept;         /* in the ring now */
    uint64_t dropped;      /* overwritten (recorded - kept) */
} timeline_counts;
void timeline_get_counts(timeline_counts *out);
/* The name a GPU job gets in the timeline: the latest name timeline_job_named gave its shader
 * before the job began (order: when it began, in the order of those calls and job begins), else
 * shader@0xVA/asN as the --stats report names kernels, else its job type.  The one place a job's
 * name is chosen. */
void timeline_job_name(char *buf, size_t len, uint64_t order, unsigned as, uint64_t shader_va, unsigned type);
/* Stop recording and free everything (tests). */
void timeline_reset(void);

#endif
