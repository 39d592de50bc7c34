/* Mali device: instantiation, MMIO dispatch, what the device tree says about it. */
#include <stdlib.h>

#include "mali_int.h"
#include "../../emu/stats/stats.h"

Mali *mali_new(const MaliHost *host, const MaliModel *model, unsigned intid_job, unsigned intid_mmu,
               unsigned intid_gpu)
{
    if (!model)
        model = &mali_models[0];
    Mali *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->model = model;
    m->host = *host;
    m->intid_job = intid_job;
    m->intid_mmu = intid_mmu;
    m->intid_gpu = intid_gpu;
    m->ts_freq = 1000000000u;
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

void mali_set_timestamp(Mali *m, MaliTimestampFn fn, void *opaque, uint64_t freq_hz)
{
    pthread_mutex_lock(&m->lock);
    m->ts_fn = fn;
    m->ts_opaque = opaque;
    m->ts_freq = fn && freq_hz ? freq_hz : 1000000000u;
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
    mali_set_job_engine(m, fn, MALI_COMPUTE_JOB_TYPES, opaque);
}

void mali_set_job_engine(Mali *m, MaliComputeFn fn, uint32_t types, void *opaque)
{
    pthread_mutex_lock(&m->lock);
    m->compute_fn = fn;
    m->compute_opaque = opaque;
    m->compute_types = types;
    pthread_mutex_unlock(&m->lock);
}

void mali_set_chain_observer(Mali *m, MaliChainFn fn, void *opaque)
{
    pthread_mutex_lock(&m->lock);
    m->chain_fn = fn;
    m->chain_opaque = opaque;
    pthread_mutex_unlock(&m->lock);
}

void mali_set_fault_observer(Mali *m, MaliFaultFn fn, void *opaque)
{
    pthread_mutex_lock(&m->lock);
    m->fault_fn = fn;
    m->fault_opaque = opaque;
    pthread_mutex_unlock(&m->lock);
}

const MaliModel *mali_model(Mali *m)
{
    return m->model;
}

void mali_reset_blocks_locked(Mali *m)
{
    m->reset_gen++;
    mali_gpu_reset_locked(m);
    mali_job_reset_locked(m);
    mali_mmu_reset_locked(m);
}

void mali_reset(Mali *m)
{
    pthread_mutex_lock(&m->lock);
    mali_reset_blocks_locked(m);
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

uint64_t mali_mmio_read(Mali *m, uint64_t offset, unsigned size)
{
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

void mali_mmio_write(Mali *m, uint64_t offset, uint64_t value, unsigned size)
{
    if (offset >= MALI_MMIO_SIZE || size < 4 || (offset & 3))
        return;
    uint32_t off = (uint32_t)offset;
    pthread_mutex_lock(&m->lock);
    write32(m, off, (uint32_t)value);
    if (size == 8)
        write32(m, off + 4, (uint32_t)(value >> 32));
    pthread_mutex_unlock(&m->lock);
}


/* ---- device tree ------------------------------------------------------------------------- */

void mali_dt_info(const Mali *m, MaliDtInfo *dt)
{
    *dt = (MaliDtInfo){ .interrupt_names = { "job", "mmu", "gpu" }, .reg_size = MALI_MMIO_SIZE,
                        .clock_hz = m->model->clock_hz };
    if (m->model->compatible)
        dt->compatible[dt->ncompatible++] = m->model->compatible;
    dt->compatible[dt->ncompatible++] = "arm,mali-bifrost";
}
