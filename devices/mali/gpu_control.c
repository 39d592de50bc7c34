/* GPU control block (0x0000-0x0FFF): IDs and features, GPU IRQs, soft/hard reset, power
 * domains, cache maintenance, cycle counter / timestamp, performance-counter sampling.
 * Every command completes at once: RESET_COMPLETED / CLEAN_CACHES_COMPLETED /
 * PRFCNT_SAMPLE_COMPLETED are raw-status bits set before the write returns, READY follows
 * PWRON/PWROFF immediately and PWRTRANS always reads 0.  CYCLE_COUNT_START/STOP gate both the
 * cycle counter and the timestamp (clock.c). */
#include <string.h>

#include "mali_int.h"

/* Control-block state after a reset (the job and MMU blocks are reset by the caller). */
void mali_gpu_reset_locked(Mali *m)
{
    m->gpu_irq_raw = 0;
    m->gpu_irq_mask = 0;
    m->gpu_fault_status = 0;
    m->gpu_fault_address = 0;
    memset(m->pwr_ready, 0, sizeof m->pwr_ready);
    m->prfcnt_base = 0;
    m->prfcnt_config = 0;
    memset(m->prfcnt_en, 0, sizeof m->prfcnt_en);
    memset(m->pwr_override, 0, sizeof m->pwr_override);
    m->coherency_enable = 0;
    m->jm_config = m->shader_config = m->tiler_config = m->l2_mmu_config = 0;
    m->cycle_running = false;
    m->cycle_base = 0;
    m->ts_stopped = 0;
}

static void do_reset(Mali *m)
{
    mali_reset_blocks_locked(m);
    m->gpu_irq_raw |= GPU_IRQ_RESET_COMPLETED;
    pthread_cond_broadcast(&m->cond);
}

/* PRFCNT_SAMPLE: the dump (L2 slices + core id range + 2 blocks of 64 counters) goes to
 * PRFCNT_BASE in the AS of PRFCNT_CONFIG[7:4].  Counters are not modelled: zeros, except the
 * job-manager block's enable-mask word (slot 2, kbase convention). */
static void prfcnt_sample(Mali *m)
{
    if ((m->prfcnt_config & 0xF) == 0)
        return;
    unsigned as = (m->prfcnt_config >> 4) & 0xF;
    unsigned l2 = ((m->model->mem_features >> 8) & 0xF) + 1;
    unsigned cores = 64 - (unsigned)__builtin_clzll(m->model->shader_present | 1);
    size_t len = (size_t)(l2 + cores + 2) * 64 * 4;
    uint8_t page[4096];
    for (size_t off = 0; off < len && as < AS_NUM;) {
        uint64_t va = m->prfcnt_base + off;
        size_t chunk = 4096 - (va & 4095);
        if (chunk > len - off)
            chunk = len - off;
        memset(page, 0, chunk);
        if (off == 0 && chunk >= 12)
            memcpy(page + 8, &m->prfcnt_en[0], 4);
        uint64_t pa;
        bool busf;
        if (mali_as_translate(m, as, va, MALI_ACCESS_WRITE, &pa, &busf) != 0 ||
            !m->host.dma_write(m->host.mem, pa, page, chunk)) {
            /* report as a GPU fault, as the hardware's perf-counter unit would */
            m->gpu_fault_status = MALI_EXC_JOB_WRITE_FAULT;
            m->gpu_fault_address = va;
            m->gpu_irq_raw |= (m->gpu_irq_raw & GPU_IRQ_FAULT) ? GPU_IRQ_MULTIPLE_FAULT : 0;
            m->gpu_irq_raw |= GPU_IRQ_FAULT;
            break;
        }
        off += chunk;
    }
}

static void gpu_command(Mali *m, uint32_t cmd)
{
    switch (cmd) {
    case GPU_CMD_SOFT_RESET:
    case GPU_CMD_HARD_RESET:
        do_reset(m);
        break;
    case GPU_CMD_PRFCNT_CLEAR:
        break;
    case GPU_CMD_PRFCNT_SAMPLE:
        prfcnt_sample(m);
        m->gpu_irq_raw |= GPU_IRQ_PRFCNT_SAMPLE_COMPLETED;
        break;
    case GPU_CMD_CYCLE_COUNT_START:
        if (!m->cycle_running) {
            m->cycle_start_ns = mali_board_ns(m);
            m->cycle_running = true;
        }
        break;
    case GPU_CMD_CYCLE_COUNT_STOP:
        if (m->cycle_running) {
            m->cycle_base = mali_cycle_count_locked(m);
            m->ts_stopped = mali_system_counter(m);
            m->cycle_running = false;
        }
        break;
    case GPU_CMD_CLEAN_CACHES:
    case GPU_CMD_CLEAN_INV_CACHES:
        m->latest_flush++;
        m->gpu_irq_raw |= GPU_IRQ_CLEAN_CACHES_COMPLETED;
        break;
    default:
        break;
    }
}

static uint64_t pwr_present(Mali *m, unsigned d)
{
    return d == 0 ? m->model->shader_present : d == 1 ? m->model->tiler_present
                                                       : m->model->l2_present;
}

uint32_t mali_gpu_read_reg(Mali *m, uint32_t off)
{
    const MaliModel *md = m->model;
    if (off >= GPU_PWR_READY && off < GPU_PWR_ACTIVE + 0x30) {
        unsigned group = (off - GPU_PWR_READY) / 0x40, d = ((off - GPU_PWR_READY) % 0x40) / 0x10;
        unsigned hi = (off & 4) != 0;
        if ((off & 0xF) >= 8 || d > 2)
            return 0;
        /* READY, PWRON(WO), PWROFF(WO), PWRTRANS (always 0), ACTIVE (= READY) */
        uint64_t v = (group == 0 || group == 4) ? m->pwr_ready[d] : 0;
        return (uint32_t)(hi ? v >> 32 : v);
    }
    if (off >= GPU_TEXTURE_FEATURES(0) && off <= GPU_TEXTURE_FEATURES(3))
        return md->texture_features[(off - GPU_TEXTURE_FEATURES(0)) / 4];
    if (off >= GPU_JS_FEATURES(0) && off < GPU_JS_FEATURES(16)) {
        unsigned n = (off - GPU_JS_FEATURES(0)) / 4;
        return n < 3 && (md->js_present >> n & 1) ? md->js_features[n] : 0;
    }
    switch (off) {
    case GPU_ID: return md->gpu_id;
    case GPU_L2_FEATURES: return md->l2_features;
    case GPU_CORE_FEATURES: return md->core_features;
    case GPU_TILER_FEATURES: return md->tiler_features;
    case GPU_MEM_FEATURES: return md->mem_features;
    case GPU_MMU_FEATURES: return md->mmu_features;
    case GPU_AS_PRESENT: return md->as_present;
    case GPU_JS_PRESENT: return md->js_present;
    case GPU_IRQ_RAWSTAT: return m->gpu_irq_raw;
    case GPU_IRQ_MASK: return m->gpu_irq_mask;
    case GPU_IRQ_STATUS: return m->gpu_irq_raw & m->gpu_irq_mask;
    case GPU_STATUS: return 0;
    case GPU_LATEST_FLUSH_ID: return m->latest_flush;
    case GPU_FAULT_STATUS: return m->gpu_fault_status;
    case GPU_FAULT_ADDRESS_LO: return (uint32_t)m->gpu_fault_address;
    case GPU_FAULT_ADDRESS_HI: return (uint32_t)(m->gpu_fault_address >> 32);
    case GPU_AFBC_FEATURES: return md->afbc_features;
    case GPU_PWR_OVERRIDE0: return m->pwr_override[0];
    case GPU_PWR_OVERRIDE1: return m->pwr_override[1];
    case GPU_PRFCNT_BASE_LO: return (uint32_t)m->prfcnt_base;
    case GPU_PRFCNT_BASE_HI: return (uint32_t)(m->prfcnt_base >> 32);
    case GPU_PRFCNT_CONFIG: return m->prfcnt_config;
    case GPU_PRFCNT_JM_EN: return m->prfcnt_en[0];
    case GPU_PRFCNT_SHADER_EN: return m->prfcnt_en[1];
    case GPU_PRFCNT_TILER_EN: return m->prfcnt_en[2];
    case GPU_PRFCNT_MMU_L2_EN: return m->prfcnt_en[3];
    case GPU_CYCLE_COUNT_LO: return (uint32_t)mali_cycle_count_locked(m);
    case GPU_CYCLE_COUNT_HI: return (uint32_t)(mali_cycle_count_locked(m) >> 32);
    case GPU_TIMESTAMP_LO: return (uint32_t)mali_timestamp_read_locked(m);
    case GPU_TIMESTAMP_HI: return (uint32_t)(mali_timestamp_read_locked(m) >> 32);
    case GPU_THREAD_MAX_THREADS: return md->thread_max_threads;
    case GPU_THREAD_MAX_WORKGROUP_SIZE: return md->thread_max_workgroup_size;
    case GPU_THREAD_MAX_BARRIER_SIZE: return md->thread_max_barrier_size;
    case GPU_THREAD_FEATURES: return md->thread_features;
    case GPU_SHADER_PRESENT_LO: return (uint32_t)md->shader_present;
    case GPU_SHADER_PRESENT_HI: return (uint32_t)(md->shader_present >> 32);
    case GPU_TILER_PRESENT_LO: return (uint32_t)md->tiler_present;
    case GPU_TILER_PRESENT_HI: return (uint32_t)(md->tiler_present >> 32);
    case GPU_L2_PRESENT_LO: return (uint32_t)md->l2_present;
    case GPU_L2_PRESENT_HI: return (uint32_t)(md->l2_present >> 32);
    case GPU_COHERENCY_FEATURES: return md->coherency_features;
    case GPU_COHERENCY_ENABLE: return m->coherency_enable;
    case GPU_THREAD_TLS_ALLOC: return md->thread_tls_alloc;
    case GPU_STACK_PRESENT_LO: return (uint32_t)md->stack_present;
    case GPU_STACK_PRESENT_HI: return (uint32_t)(md->stack_present >> 32);
    case GPU_JM_CONFIG: return m->jm_config;
    case GPU_SHADER_CONFIG: return m->shader_config;
    case GPU_TILER_CONFIG: return m->tiler_config;
    case GPU_L2_MMU_CONFIG: return m->l2_mmu_config;
    default: return 0; /* reserved / write-only: read as zero */
    }
}

void mali_gpu_write_reg(Mali *m, uint32_t off, uint32_t v)
{
    if (off >= GPU_PWR_PWRON && off < GPU_PWR_PWRTRANS) {
        bool on = off < GPU_PWR_PWROFF;
        unsigned d = ((off - GPU_PWR_PWRON) % 0x40) / 0x10;
        if ((off & 0xF) >= 8 || d > 2)
            return;
        uint64_t mask = (off & 4) ? (uint64_t)v << 32 : v;
        mask &= pwr_present(m, d);
        uint64_t before = m->pwr_ready[d];
        if (on)
            m->pwr_ready[d] |= mask;
        else
            m->pwr_ready[d] &= ~mask;
        if (mask)
            m->gpu_irq_raw |= GPU_IRQ_POWER_CHANGED_SINGLE | GPU_IRQ_POWER_CHANGED_ALL;
        (void)before;
        mali_update_irqs(m);
        return;
    }
    switch (off) {
    case GPU_IRQ_CLEAR:
        m->gpu_irq_raw &= ~v;
        break;
    case GPU_IRQ_MASK:
        m->gpu_irq_mask = v & GPU_IRQ_ALL;
        break;
    case GPU_COMMAND:
        gpu_command(m, v);
        break;
    case GPU_PWR_OVERRIDE0: m->pwr_override[0] = v; break;
    case GPU_PWR_OVERRIDE1: m->pwr_override[1] = v; break;
    case GPU_PRFCNT_BASE_LO: m->prfcnt_base = (m->prfcnt_base & ~0xFFFFFFFFull) | v; break;
    case GPU_PRFCNT_BASE_HI: m->prfcnt_base = (m->prfcnt_base & 0xFFFFFFFFull) | (uint64_t)v << 32; break;
    case GPU_PRFCNT_CONFIG: m->prfcnt_config = v & 0x3FF; break;
    case GPU_PRFCNT_JM_EN: m->prfcnt_en[0] = v; break;
    case GPU_PRFCNT_SHADER_EN: m->prfcnt_en[1] = v; break;
    case GPU_PRFCNT_TILER_EN: m->prfcnt_en[2] = v; break;
    case GPU_PRFCNT_MMU_L2_EN: m->prfcnt_en[3] = v; break;
    case GPU_COHERENCY_ENABLE: m->coherency_enable = v; break;
    case GPU_JM_CONFIG: m->jm_config = v; break;
    case GPU_SHADER_CONFIG: m->shader_config = v; break;
    case GPU_TILER_CONFIG: m->tiler_config = v; break;
    case GPU_L2_MMU_CONFIG: m->l2_mmu_config = v; break;
    default: break; /* read-only / reserved: ignored */
    }
    mali_update_irqs(m);
}
