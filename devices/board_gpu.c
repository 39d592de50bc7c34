/* The board's GPU (board_gpu.h): the Mali device, the shader-core engine it runs jobs on, the
 * board clock, the device-tree node. */
#include "board_gpu.h"

#include <errno.h>
#include <fcntl.h>
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "board.h"
#include "bus.h"
#include "gic400.h"
#include "gtimer.h"
#include "mali/mali.h"
#include "../emu/gpu/compute.h"
#include "../emu/gpu/gpu_observer.h"
#include "../emu/gpu/job_dump.h"
#include "../emu/gpu/job_type.h"
#include "../emu/stats/timeline.h"
#include "../emu/stats/timeline_gpu.h"
#include "../emu/timing/timing.h"
#include "board_timing.h"

/* ---- engine ---------------------------------------------------------------------------------- */

struct BoardGpu {
    BoardGpuParams p;
    tm_config timing;         /* p.timing points here */
    struct Mali *mali;
    gpu_compute *engine;
    unsigned dump_n;          /* chains dumped so far (atomic) */
};

/* p.dump_dir: when a job chain starts, the descriptors reachable from its head go to
 * DIR/chain-<n>.dump and its shaders to DIR/shader-<VA>.bin (job_dump.h; build/malibu-decode
 * prints the dumps, malibu-disasm the shaders).  n is the first number no file in DIR has yet,
 * so GPUs dumping into one directory (several in one process, or runs one after another) never
 * overwrite each other's chains.  Memory is read through mali_gpu_map only, so dumping never
 * raises a GPU fault the jobs themselves would not. */
static void dump_chain(BoardGpu *g, MaliJobCtx *ctx, uint64_t head, unsigned as, unsigned arch_major)
{
    char path[512];
    for (;;) {
        unsigned n = __atomic_fetch_add(&g->dump_n, 1, __ATOMIC_RELAXED);
        snprintf(path, sizeof(path), "%s/chain-%u.dump", g->p.dump_dir, n);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);   /* claims the name */
        if (fd >= 0) {
            close(fd);
            break;
        }
        if (errno != EEXIST) {
            fprintf(stderr, "gpu: cannot write %s: %s\n", path, strerror(errno));
            return;
        }
    }
    if (mali_dump_write(path, g->p.dump_dir, arch_major, as, head, mali_gpu_peek, ctx))
        fprintf(stderr, "gpu: cannot write %s\n", path);
}

static void observe_chain(void *opaque, MaliJobCtx *ctx, uint64_t head, unsigned as, unsigned arch_major)
{
    BoardGpu *g = opaque;
    if (g->p.dump_dir)
        dump_chain(g, ctx, head, as, arch_major);
    if (g->p.tap_chain)
        g->p.tap_chain(g->p.tap_opaque, ctx, head, as, arch_major);
}

static uint32_t run_job(void *opaque, const MaliComputeJob *mj)
{
    BoardGpu *g = opaque;
    gpu_compute *e = g->engine;
    gpu_compute_job j = {
        .job_va = mj->job_va, .type = mj->type, .as = mj->as, .arch_major = mj->arch_major,
        .core_mask = mj->shader_present, .clock_cycles = mj->cycles, .clock_ts = mj->timestamp,
        .gpu_hz = mj->gpu_hz, .ts_hz = mj->timestamp_hz, .clock_running = mj->clock_running,
        .priority = mj->priority, .engines = mj->exec_engines,
        /* the device implements the engine's memory interface itself */
        .mem = { .ctx = mj->ctx, .read = mali_gpu_read, .write = mali_gpu_write, .fetch = mali_gpu_fetch,
                 .atomic = mali_gpu_atomic, .should_stop = mali_job_should_stop, .map = mali_gpu_map,
                 .generation = mali_gpu_generation, .generation_word = mali_gpu_generation_word(mj->ctx),
                 .progress = mali_job_progress,
                 .stall = mali_job_stall },
    };
    if (timeline_on)
        timeline_gpu_invocation(mali_gpu_peek, mj->ctx, mj->job_va, mj->type);
    uint64_t fva = 0;
    gpu_compute_stats s0, s1;
    struct timespec t0, t1;
    if (g->p.log_jobs) {
        gpu_compute_get_stats(e, &s0);
        clock_gettime(CLOCK_MONOTONIC, &t0);
    }
    uint32_t st = gpu_compute_run(e, &j, &fva);
    if (g->p.log_jobs) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        gpu_compute_get_stats(e, &s1);
        double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-6;
        fprintf(stderr, "gpu: job 0x%llx as%u: status 0x%x, %llu workgroups, %llu lane-instructions, %.3f ms"
                " (%.1f M lane-instr/s), modelled %.3f ms, engine CPU %.3f ms\n", (unsigned long long)mj->job_va,
                mj->as, st, (unsigned long long)(s1.workgroups - s0.workgroups),
                (unsigned long long)(s1.lane_instrs - s0.lane_instrs), ms,
                (double)(s1.lane_instrs - s0.lane_instrs) / (ms > 0 ? ms : 1) / 1e3,
                (double)mali_job_model_ns(mj->ctx) / 1e6, (double)(s1.cpu_ns - s0.cpu_ns) / 1e6);
    }
    if (st != 1)
        mali_job_set_fault_address(mj->ctx, fva ? fva : mj->job_va);
    return st;
}

void board_gpu_params_default(BoardGpuParams *p)
{
    memset(p, 0, sizeof(*p));
    const char *l = getenv("MALIBU_GPU_LOG");
    if (l && *l && strcmp(l, "0"))
        p->log_jobs = true;
    if (!p->dump_dir)
        p->dump_dir = getenv("MALIBU_GPU_DUMP");
    p->hooks = gpu_observer_hooks();
}

BoardGpu *board_gpu_engine_new(struct Mali *m, const BoardGpuParams *p, char *err, size_t errlen)
{
    BoardGpu *g = calloc(1, sizeof(*g));
    if (!g)
        return snprintf(err, errlen, "GPU: out of memory"), NULL;
    g->p = *p;
    if (p->timing) {
        g->timing = *p->timing;
        g->p.timing = &g->timing;
    }
    gpu_compute_params ep = { .threads = p->threads, .timing = g->p.timing, .backend = p->backend,
                              .hooks = timeline_on ? timeline_gpu_hooks(p->hooks) : p->hooks };
    char why[200];
    g->engine = gpu_compute_create(&ep, why, sizeof(why));
    if (!g->engine) {
        snprintf(err, errlen, "%s", why);
        free(g);
        return NULL;
    }
    g->mali = m;
    if (m) {
        mali_set_job_engine(m, run_job, gpu_job_type_mask(), g);
        if (g->p.dump_dir || g->p.tap_chain)
            mali_set_chain_observer(m, observe_chain, g);
        if (g->p.tap_fault)
            mali_set_fault_observer(m, g->p.tap_fault, g->p.tap_opaque);
    }
    return g;
}

void board_gpu_engine_free(BoardGpu *g)
{
    if (!g)
        return;
    gpu_compute_free(g->engine);
    free(g);
}

gpu_compute *board_gpu_compute(const BoardGpu *g) { return g ? g->engine : NULL; }

/* ---- device tree ----------------------------------------------------------------------------- */

#define TRY(x)          \
    do {                \
        int r_ = (x);   \
        if (r_ < 0)     \
            return r_;  \
    } while (0)

/* gpu@<base> node + its fixed clock and supply, from what the device says about itself */
static int gpu_fdt_hook(void *fdt, void *opaque)
{
    Mali *m = opaque;
    MaliDtInfo dt;
    mali_dt_info(m, &dt);
    uint32_t ph;
    TRY(fdt_find_max_phandle(fdt, &ph));
    ph = ph + 1 < FDT_PHANDLE_FIRST_FREE ? FDT_PHANDLE_FIRST_FREE : ph + 1;

    int clk = fdt_add_subnode(fdt, 0, "gpu-clk");
    TRY(clk);
    /* libfdt inserts each new property first: set them last to first */
    TRY(fdt_setprop_u32(fdt, clk, "phandle", ph));
    TRY(fdt_setprop_string(fdt, clk, "clock-output-names", "gpu_clk"));
    TRY(fdt_setprop_u32(fdt, clk, "clock-frequency", dt.clock_hz));
    TRY(fdt_setprop_u32(fdt, clk, "#clock-cells", 0));
    TRY(fdt_setprop_string(fdt, clk, "compatible", "fixed-clock"));

    /* The GPU's supply: without one the OPP core logs an error at probe (real boards have it). */
    uint32_t vdd_ph = ph + 1;
    int vdd = fdt_add_subnode(fdt, 0, "gpu-vdd");
    TRY(vdd);
    TRY(fdt_setprop_u32(fdt, vdd, "phandle", vdd_ph));
    TRY(fdt_setprop(fdt, vdd, "regulator-always-on", NULL, 0));
    TRY(fdt_setprop_u32(fdt, vdd, "regulator-max-microvolt", 800000));
    TRY(fdt_setprop_u32(fdt, vdd, "regulator-min-microvolt", 800000));
    TRY(fdt_setprop_string(fdt, vdd, "regulator-name", "vdd_gpu"));
    TRY(fdt_setprop_string(fdt, vdd, "compatible", "regulator-fixed"));

    char name[32];
    snprintf(name, sizeof name, "gpu@%llx", (unsigned long long)BOARD_GPU_BASE);
    int n = fdt_add_subnode(fdt, 0, name);
    TRY(n);
    char compat[96], irq_names[32];
    size_t clen = 0, nlen = 0;
    for (unsigned i = 0; i < dt.ncompatible; i++) {
        size_t l = strlen(dt.compatible[i]) + 1;
        if (clen + l > sizeof compat)
            return -FDT_ERR_NOSPACE;
        memcpy(compat + clen, dt.compatible[i], l);
        clen += l;
    }
    for (unsigned i = 0; i < 3; i++) {
        size_t l = strlen(dt.interrupt_names[i]) + 1;
        if (nlen + l > sizeof irq_names)
            return -FDT_ERR_NOSPACE;
        memcpy(irq_names + nlen, dt.interrupt_names[i], l);
        nlen += l;
    }
    /* the BOARD_GPU_INTID_* lines in the device's interrupt order (mali_new: job, mmu, gpu) */
    unsigned irqs[3] = { BOARD_GPU_INTID_JOB, BOARD_GPU_INTID_MMU, BOARD_GPU_INTID_GPU };
    TRY(fdt_setprop(fdt, n, "dma-coherent", NULL, 0));
    TRY(fdt_setprop_u32(fdt, n, "mali-supply", vdd_ph));
    TRY(fdt_setprop_u32(fdt, n, "clocks", ph));
    TRY(fdt_setprop(fdt, n, "interrupt-names", irq_names, (int)nlen));
    TRY(fdt_board_setprop_spis(fdt, n, irqs, 3));
    TRY(fdt_board_setprop_reg(fdt, n, BOARD_GPU_BASE, dt.reg_size));
    TRY(fdt_setprop(fdt, n, "compatible", compat, (int)clen));
    return 0;
}

/* ---- the device on the board's bus and GIC ------------------------------------------------------ */

static bool host_dma_read(void *bus, uint64_t pa, void *buf, size_t len) { return bus_dma_read(bus, pa, buf, len) == BUS_OK; }
static bool host_dma_write(void *bus, uint64_t pa, const void *buf, size_t len)
{
    return bus_dma_write(bus, pa, buf, len) == BUS_OK;
}
static uint8_t *host_ram_ptr(void *bus, uint64_t pa, bool write) { return bus_ram_ptr(bus, pa, write); }
static void host_set_irq(void *gic, unsigned intid, bool level) { gic_set_spi(gic, intid, level); }

Mali *board_gpu_new_mali(Bus *bus, Gic *gic, const MaliModel *model, unsigned intid_job, unsigned intid_mmu,
                         unsigned intid_gpu)
{
    MaliHost host = { .mem = bus, .dma_read = host_dma_read, .dma_write = host_dma_write, .ram_ptr = host_ram_ptr,
                      .irq = gic, .set_irq = host_set_irq };
    return mali_new(&host, model, intid_job, intid_mmu, intid_gpu);
}

static uint64_t mmio_read(void *m, uint64_t offset, unsigned size) { return mali_mmio_read(m, offset, size); }
static void mmio_write(void *m, uint64_t offset, uint64_t value, unsigned size) { mali_mmio_write(m, offset, value, size); }
const MmioOps board_gpu_mmio_ops = { .name = "mali", .read = mmio_read, .write = mmio_write };

/* ---- board ----------------------------------------------------------------------------------- */

const MaliModel *board_gpu_model(const char *model, MaliModel *out)
{
    char why[160];
    if (model && !strcmp(model, "none"))
        return NULL;
    return mali_model_parse(model, out, why, sizeof why) ? out : NULL;
}

bool board_gpu_model_check(const char *model, char *err, size_t errlen)
{
    MaliModel md;
    return !model || !strcmp(model, "none") || mali_model_parse(model, &md, err, errlen);
}

static uint64_t board_timestamp(void *opaque)
{
    return gtimer_count(opaque);
}

static uint64_t board_now_ns(void *opaque) { return gtimer_now_ns(opaque); }
static void board_hold(void *opaque, int delta) { gtimer_hold(opaque, delta); }
static void board_advance(void *opaque, uint64_t ns) { gtimer_advance(opaque, ns); }
static bool board_advance_frozen(void *opaque, uint64_t ns) { return gtimer_advance_frozen(opaque, ns); }
static uint64_t board_reach(void *opaque, uint64_t ns) { return gtimer_reach(opaque, ns); }

void board_gpu_quiesce(Board *b)
{
    char what[512];
    if (!b->gpu)
        return;
    mali_ckpt_quiesce(b->gpu);
    if (mali_ckpt_describe(b->gpu, what, sizeof what))
        fprintf(stderr, "malibu: checkpoint: GPU work in flight: %s\n", what);
}

void board_gpu_resume(Board *b)
{
    if (b->gpu)
        mali_ckpt_resume(b->gpu);
}

bool board_gpu_attach(Board *b, const char *model, Mali **out, char *err, size_t errlen)
{
    *out = NULL;
    if (model && !strcmp(model, "none"))
        return true;
    char why[160];
    MaliModel *md = malloc(sizeof(*md)); /* the device keeps a pointer: the board owns it (gpu_model) */
    if (!md)
        return snprintf(err, errlen, "GPU: out of memory"), false;
    if (!mali_model_parse(model, md, why, sizeof why)) {
        snprintf(err, errlen, "--gpu %s", why);
        free(md);
        return false;
    }
    Mali *m = board_gpu_new_mali(b->bus, b->gic, md, BOARD_GPU_INTID_JOB, BOARD_GPU_INTID_MMU,
                                 BOARD_GPU_INTID_GPU);
    if (!m) {
        snprintf(err, errlen, "GPU: out of memory");
        free(md);
        return false;
    }
    b->gpu_model = md;
    if (b->gtimer) {
        mali_set_timestamp(m, board_timestamp, b->gtimer, gtimer_freq(b->gtimer));
        MaliClockModel cm = { board_now_ns, board_hold, board_advance, board_advance_frozen, b->gtimer, board_reach };
        mali_set_clock_model(m, &cm);
        if (b->cfg.clock_icount)
            mali_set_icount(m, true); /* chain ends published at guest deadlines (mali.h) */
    }
    BoardGpuParams gp;
    board_gpu_params_default(&gp);
    gp.threads = b->cfg.gpu_threads;
    gp.log_jobs |= b->cfg.gpu_log;
    if (b->cfg.gpu_dump)
        gp.dump_dir = b->cfg.gpu_dump;
    gp.tap_chain = b->cfg.gpu_tap_chain;
    gp.tap_fault = b->cfg.gpu_tap_fault;
    gp.tap_opaque = b->cfg.gpu_tap_opaque;
    gp.backend = b->cfg.gpu_backend ? b->cfg.gpu_backend : getenv("MALIBU_GPU_BACKEND");
    tm_config tc;
    int timing = board_timing_gpu(&b->cfg, &tc, err, errlen);
    if (timing < 0 || !(b->gpu_engine = board_gpu_engine_new(m, timing ? (gp.timing = &tc, &gp) : &gp, err, errlen))) {
        mali_free(m);
        return false;
    }
    MaliDtInfo dt;
    mali_dt_info(m, &dt);
    if (!board_add_mmio(b, BOARD_GPU_BASE, dt.reg_size, &board_gpu_mmio_ops, m) ||
        !board_add_fdt_hook(b, gpu_fdt_hook, m)) {
        snprintf(err, errlen, "GPU: cannot map it at 0x%llx", (unsigned long long)BOARD_GPU_BASE);
        mali_free(m);
        board_gpu_engine_free(b->gpu_engine);
        b->gpu_engine = NULL;
        return false;
    }
    *out = m;
    return true;
}
