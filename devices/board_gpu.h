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

struct Board;
struct Mali;
struct MaliModel;

/* Instantiate the GPU model named (g71, g72, g52; NULL = g71) at BOARD_GPU_BASE with the
 * BOARD_GPU_INTID_* interrupts: maps the MMIO window, registers the DT hook, timestamps and clock
 * from the generic timer, attaches the engine.  "none": no GPU, *out = NULL.  false + err on
 * failure. */
bool board_gpu_attach(struct Board *b, const char *model, struct Mali **out, char *err, size_t errlen);
/* Names accepted by --gpu, for messages. */
#define BOARD_GPU_MODELS "g71|g72|g52|none"
bool board_gpu_model_ok(const char *model);

/* A Mali device on bus and gic (its DMA and interrupt lines; no engine, no MMIO mapping), and
 * its register window as an MMIO device (opaque = the Mali). */
struct Mali *board_gpu_new_mali(Bus *bus, Gic *gic, const struct MaliModel *model, unsigned intid_job,
                                unsigned intid_mmu, unsigned intid_gpu);
extern const MmioOps board_gpu_mmio_ops;

/* The shader-core engine of every board GPU: one per process, created on first use with
 * gpu_compute_default_threads() host threads (--gpu-threads). */
struct gpu_compute *board_gpu_engine(void);
/* Registers that engine as m's MaliComputeFn (board_gpu_attach does; tests call it for a Mali
 * device they made with mali_new). */
void board_gpu_attach_engine(struct Mali *m);
/* Debugging aids (before the first GPU is attached): log: one stderr line per job (status,
 * workgroups, lane-instructions, time); dump_dir: each job chain's descriptors and shaders written
 * there (emu/gpu/job_dump.h; build/malibu-decode prints them, malibu-disasm reads the shaders).
 * Also MALIBU_GPU_LOG=1, MALIBU_GPU_DUMP=DIR. */
void board_gpu_debug(bool log, const char *dump_dir);
/* More observers (before the first GPU is attached): chain is called when a chain starts (after
 * the --gpu-dump one), fault when a chain ends with a fault (mali.h); NULL: none.  build/malibu's
 * --gpu-trace and GPU fault reports (emu/system/gpu_trace.c). */
void board_gpu_observe(MaliChainFn chain, MaliFaultFn fault, void *opaque);

#endif
