/* Mali device: instantiation, MMIO dispatch, device-tree node, board glue. */
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../board.h"
#include "mali_board.h"
#include "mali_int.h"
#include "../../emu/gpu/compute.h"
#include "../../emu/stats/stats.h"

Mali *mali_new(Bus *bus, Gic *gic, const MaliModel *model, unsigned intid_job,
               unsigned intid_mmu, unsigned intid_gpu)
{
    if (!model)
        model = &mali_models[0];
    Mali *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->model = model;
    m->bus = bus;
    m->gic = gic;
    m->intid_job = intid_job;
    m->intid_mmu = intid_mmu;
    m->intid_gpu = intid_gpu;
    pthread_mutex_init(&m->lock, NULL);
    pthread_cond_init(&m->cond, NULL);
    mali_gpu_reset_locked(m);
    mali_job_reset_locked(m);
    mali_mmu_reset_locked(m);
    if (!mali_jm_start(m)) {
        mali_free(m);
        return NULL;
    }
    return m;
}

void mali_free(Mali *m)
{
    if (!m)
        return;
    mali_jm_stop(m);
    pthread_cond_destroy(&m->cond);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

void mali_set_timestamp(Mali *m, MaliTimestampFn fn, void *opaque)
{
    pthread_mutex_lock(&m->lock);
    m->ts_fn = fn;
    m->ts_opaque = opaque;
    pthread_mutex_unlock(&m->lock);
}

void mali_set_clock_model(Mali *m, const MaliClockModel *cm)
{
    pthread_mutex_lock(&m->lock);
    m->clock = cm ? *cm : (MaliClockModel){ 0 };
    pthread_mutex_unlock(&m->lock);
}

void mali_set_compute_engine(Mali *m, MaliComputeFn fn, void *opaque)
{
    pthread_mutex_lock(&m->lock);
    m->compute_fn = fn;
    m->compute_opaque = opaque;
    pthread_mutex_unlock(&m->lock);
}

const MaliModel *mali_model(Mali *m)
{
    return m->model;
}

void mali_reset(Mali *m)
{
    pthread_mutex_lock(&m->lock);
    m->reset_gen++;
    mali_gpu_reset_locked(m);
    mali_job_reset_locked(m);
    mali_mmu_reset_locked(m);
    m->latest_flush = 0;
    mali_update_irqs(m);
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
}

static uint32_t read32(Mali *m, uint32_t off)
{
    stats_mali_reg(off, false);
    if (off < 0x1000)
        return mali_gpu_read_reg(m, off);
    if (off < 0x2000)
        return mali_job_read_reg(m, off);
    if (off < 0x3000)
        return mali_mmu_read_reg(m, off);
    return 0;
}

static void write32(Mali *m, uint32_t off, uint32_t v)
{
    stats_mali_reg(off, true);
    if (off < 0x1000)
        mali_gpu_write_reg(m, off, v);
    else if (off < 0x2000)
        mali_job_write_reg(m, off, v);
    else if (off < 0x3000)
        mali_mmu_write_reg(m, off, v);
}

/* 32-bit registers.  8-byte accesses are two registers (LO then HI); 1/2-byte reads return
 * part of the register, 1/2-byte writes are ignored. */
static uint64_t mali_mmio_read(void *opaque, uint64_t offset, unsigned size)
{
    Mali *m = opaque;
    if (offset >= MALI_MMIO_SIZE)
        return 0;
    uint32_t off = (uint32_t)offset;
    pthread_mutex_lock(&m->lock);
    uint64_t v;
    if (size == 8)
        v = read32(m, off) | (uint64_t)read32(m, off + 4) << 32;
    else
        v = read32(m, off & ~3u) >> (8 * (off & 3));
    pthread_mutex_unlock(&m->lock);
    if (size < 4)
        v &= (1ull << (8 * size)) - 1;
    return v;
}

static void mali_mmio_write(void *opaque, uint64_t offset, uint64_t value, unsigned size)
{
    Mali *m = opaque;
    if (offset >= MALI_MMIO_SIZE || size < 4 || (offset & 3))
        return;
    uint32_t off = (uint32_t)offset;
    pthread_mutex_lock(&m->lock);
    write32(m, off, (uint32_t)value);
    if (size == 8)
        write32(m, off + 4, (uint32_t)(value >> 32));
    pthread_mutex_unlock(&m->lock);
}

const MmioOps mali_mmio_ops = { .name = "mali", .read = mali_mmio_read, .write = mali_mmio_write };

/* ---- device tree ------------------------------------------------------------------------- */

#define TRY(x)          \
    do {                \
        int r_ = (x);   \
        if (r_ < 0)     \
            return r_;  \
    } while (0)

int mali_fdt_hook(void *fdt, void *opaque)
{
    const MaliFdtInfo *info = opaque;
    const MaliModel *md = info->mali->model;
    uint32_t ph;
    TRY(fdt_find_max_phandle(fdt, &ph));
    ph = ph + 1 < FDT_PHANDLE_FIRST_FREE ? FDT_PHANDLE_FIRST_FREE : ph + 1;

    int clk = fdt_add_subnode(fdt, 0, "gpu-clk");
    TRY(clk);
    /* libfdt inserts each new property first: set them last to first */
    TRY(fdt_setprop_u32(fdt, clk, "phandle", ph));
    TRY(fdt_setprop_string(fdt, clk, "clock-output-names", "gpu_clk"));
    TRY(fdt_setprop_u32(fdt, clk, "clock-frequency", md->clock_hz));
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
    snprintf(name, sizeof name, "gpu@%llx", (unsigned long long)info->base);
    int n = fdt_add_subnode(fdt, 0, name);
    TRY(n);
    char compat[96];
    size_t clen = 0;
    if (md->compatible) {
        clen = strlen(md->compatible) + 1;
        memcpy(compat, md->compatible, clen);
    }
    memcpy(compat + clen, "arm,mali-bifrost", sizeof "arm,mali-bifrost");
    clen += sizeof "arm,mali-bifrost";
    unsigned irqs[3] = { info->intid_job, info->intid_mmu, info->intid_gpu };
    TRY(fdt_setprop(fdt, n, "dma-coherent", NULL, 0));
    TRY(fdt_setprop_u32(fdt, n, "mali-supply", vdd_ph));
    TRY(fdt_setprop_u32(fdt, n, "clocks", ph));
    TRY(fdt_setprop(fdt, n, "interrupt-names", "job\0mmu\0gpu", sizeof "job\0mmu\0gpu"));
    TRY(fdt_board_setprop_spis(fdt, n, irqs, 3));
    TRY(fdt_board_setprop_reg(fdt, n, info->base, MALI_MMIO_SIZE));
    TRY(fdt_setprop(fdt, n, "compatible", compat, (int)clen));
    return 0;
}

/* ---- board glue -------------------------------------------------------------------------- */

bool mali_board_model_ok(const char *model)
{
    return !model || !strcmp(model, "none") || mali_model_find(model);
}

static uint64_t board_timestamp(void *opaque)
{
    return gtimer_count(opaque);
}

static uint64_t board_now_ns(void *opaque) { return gtimer_now_ns(opaque); }
static void board_hold(void *opaque, int delta) { gtimer_hold(opaque, delta); }
static void board_advance(void *opaque, uint64_t ns) { gtimer_advance(opaque, ns); }

bool mali_board_attach(Board *b, const char *model, Mali **out, char *err, size_t errlen)
{
    *out = NULL;
    if (model && !strcmp(model, "none"))
        return true;
    const MaliModel *md = mali_model_find(model ? model : "g71");
    if (!md) {
        snprintf(err, errlen, "--gpu: unknown GPU '%s' (%s)", model, MALI_BOARD_MODELS);
        return false;
    }
    Mali *m = mali_new(b->bus, b->gic, md, BOARD_GPU_INTID_JOB, BOARD_GPU_INTID_MMU,
                       BOARD_GPU_INTID_GPU);
    if (!m) {
        snprintf(err, errlen, "GPU: out of memory");
        return false;
    }
    if (b->gtimer) {
        mali_set_timestamp(m, board_timestamp, b->gtimer);
        MaliClockModel cm = { board_now_ns, board_hold, board_advance, b->gtimer };
        mali_set_clock_model(m, &cm);
    }
    gpu_compute_attach_mali(m); /* shader cores: emu/gpu/compute.h */
    MaliFdtInfo *info = &m->fdt_info;
    info->mali = m;
    info->base = BOARD_GPU_BASE;
    info->intid_job = BOARD_GPU_INTID_JOB;
    info->intid_mmu = BOARD_GPU_INTID_MMU;
    info->intid_gpu = BOARD_GPU_INTID_GPU;
    if (!board_add_mmio(b, BOARD_GPU_BASE, MALI_MMIO_SIZE, &mali_mmio_ops, m) ||
        !board_add_fdt_hook(b, mali_fdt_hook, info)) {
        snprintf(err, errlen, "GPU: cannot map it at 0x%llx", (unsigned long long)BOARD_GPU_BASE);
        mali_free(m);
        return false;
    }
    *out = m;
    return true;
}
