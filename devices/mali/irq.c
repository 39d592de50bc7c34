/* The GPU's three interrupt lines (job, mmu, gpu): each is RAWSTAT & MASK of its block; the only
 * place that drives them.  Every block calls mali_update_irqs after changing its RAWSTAT or MASK. */
#include "mali_int.h"
#include "../../emu/stats/stats.h"
#include "../../emu/stats/timeline.h"

void mali_update_irqs(Mali *m)
{
    bool job = (m->job_irq_raw & m->job_irq_mask) != 0;
    bool mmu = (m->mmu_irq_raw & m->mmu_irq_mask) != 0;
    bool gpu = (m->gpu_irq_raw & m->gpu_irq_mask) != 0;
    if (job != m->line_job) {
        if (job)
            STATS_COUNT(ST_MALI_IRQ_JOB);
        if (job && __builtin_expect(timeline_on, 0))
            timeline_gpu_irq(0, m->job_irq_raw);
        m->host.set_irq(m->host.irq, m->intid_job, m->line_job = job);
    }
    if (mmu != m->line_mmu) {
        if (mmu)
            STATS_COUNT(ST_MALI_IRQ_MMU);
        if (mmu && __builtin_expect(timeline_on, 0))
            timeline_gpu_irq(1, m->mmu_irq_raw);
        m->host.set_irq(m->host.irq, m->intid_mmu, m->line_mmu = mmu);
    }
    if (gpu != m->line_gpu) {
        if (gpu)
            STATS_COUNT(ST_MALI_IRQ_GPU);
        if (gpu && __builtin_expect(timeline_on, 0))
            timeline_gpu_irq(2, m->gpu_irq_raw);
        m->host.set_irq(m->host.irq, m->intid_gpu, m->line_gpu = gpu);
    }
}

/* After a checkpoint load: the lines as the loaded RAWSTAT & MASK say, each driven once whatever
 * the interrupt controller holds (not counted: the saved run counted them when they rose). */
void mali_redrive_irqs(Mali *m)
{
    m->line_job = (m->job_irq_raw & m->job_irq_mask) != 0;
    m->line_mmu = (m->mmu_irq_raw & m->mmu_irq_mask) != 0;
    m->line_gpu = (m->gpu_irq_raw & m->gpu_irq_mask) != 0;
    m->host.set_irq(m->host.irq, m->intid_job, m->line_job);
    m->host.set_irq(m->host.irq, m->intid_mmu, m->line_mmu);
    m->host.set_irq(m->host.irq, m->intid_gpu, m->line_gpu);
}
