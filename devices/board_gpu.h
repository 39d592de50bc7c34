/* The board's GPU: the Mali device (devices/mali/) with the shader-core engine (emu/gpu/compute.h)
 * behind it, its MMIO window, interrupts, clock and device-tree node.  The one place that knows
 * both the device and the engine: the device runs jobs through the MaliComputeFn given here, and
 * the engine reaches GPU memory through the device's own functions (mali_gpu_read, ...). */
#ifndef MALIBU_BOARD_GPU_H
#define MALIBU_BOARD_GPU_H

#include <stdbool.h>
#include <stddef.h>

#include <stdint.h>

#include "bus.h"
#include "gic400.h"
#include "mali/mali.h"
#include "../emu/gpu/compute.h"

struct Board;
struct Mali;
struct MaliModel;

/* Instantiate the GPU model named (g71, g72, g52; NULL = g71; with ,cores=N,mhz=M) at BOARD_GPU_BASE with the
 * BOARD_GPU_INTID_* interrupts: maps the MMIO window, registers the DT hook, timestamps and clock
 * from the generic timer, attaches an engine made with the board's --gpu-threads, --gpu-backend,
 * --timing (b->gpu_engine).  "none": no GPU, *out = NULL.  false + err on
 * failure. */
bool board_gpu_attach(struct Board *b, const char *model, struct Mali **out, char *err, size_t errlen);
/* Checkpoints (mali.h mali_ckpt_*): before a save, with every vCPU stopped and before the RAM is
 * saved, bring the GPU to rest (every job slot idle, between two jobs of its chain, or finished);
 * after the save, let it go on.  Loading resumes it by itself (board_ckpt_load).  No GPU: nothing. */
void board_gpu_quiesce(struct Board *b);
void board_gpu_resume(struct Board *b);
/* Names accepted by --gpu, for messages. */
#define BOARD_GPU_MODELS "g71|g72|g52|none"
/* --gpu's value: a model with optional ,cores=N,mhz=M (mali_model_parse) or "none"; false + err. */
bool board_gpu_model_check(const char *model, char *err, size_t errlen);
/* The model --gpu's value describes, in *out; NULL for "none" (or a value the check refuses). */
const struct MaliModel *board_gpu_model(const char *model, struct MaliModel *out);

/* A Mali device on bus and gic (its DMA and interrupt lines; no engine, no MMIO mapping), and
 * its register window as an MMIO device (opaque = the Mali). */
struct Mali *board_gpu_new_mali(Bus *bus, Gic *gic, const struct MaliModel *model, unsigned intid_job,
                                unsigned intid_mmu, unsigned intid_gpu);
extern const MmioOps board_gpu_mmio_ops;

/* A GPU's parameters (as QEMU's qdev properties): fixed when its engine is made, and owned by it
 * (a board's GPU: Board.gpu_engine). */
struct tm_config;
typedef struct BoardGpuParams {
    unsigned threads;                 /* --gpu-threads: engine host threads (0: host CPUs) */
    const char *backend;              /* --gpu-backend (NULL: the host's default) */
    const struct tm_config *timing;   /* --timing (copied; NULL: off) */
    gpu_compute_hooks hooks;          /* the --stats / --timing observer's job calls */
    bool log_jobs;                    /* one stderr line per job (status, workgroups, time) */
    const char *dump_dir;             /* each job chain's descriptors and shaders written there
                                         (emu/gpu/job_dump.h; malibu-decode, malibu-disasm) */
    MaliChainFn tap_chain;            /* called when a chain starts (after the dump); NULL: none */
    MaliFaultFn tap_fault;            /* when a chain ends with a fault (mali.h); NULL: none */
    void *tap_opaque;
} BoardGpuParams;

/* A Mali device's shader-core engine with its parameters (board_gpu_attach makes the board's). */
typedef struct BoardGpu BoardGpu;
/* The defaults: what MALIBU_GPU_LOG=1 / MALIBU_GPU_DUMP=DIR ask for, the installed observer's
 * hooks (gpu_observer.h), host threads, no timing, no taps.  board_gpu_attach adds the board's
 * BoardConfig (gpu_log, gpu_dump, gpu_tap_*) to them. */
void board_gpu_params_default(BoardGpuParams *p);
/* An engine made with p, registered as m's job engine (for every job type it has a front end
 * for) with p's observers; m may be NULL.  NULL with the reason in err. */
BoardGpu *board_gpu_engine_new(struct Mali *m, const BoardGpuParams *p, char *err, size_t errlen);
/* After the Mali device that runs jobs on it is freed. */
void board_gpu_engine_free(BoardGpu *g);
struct gpu_compute *board_gpu_compute(const BoardGpu *g);


#endif
