/* The report's "gpu" section: the Mali device's counters (the core's totals: registers, IRQs,
 * jobs, MMU pages), then the shader cores' (stats_gpu_json.c), which it starts counting when
 * stats are enabled by observing the engine and the executor (stats_gpu.c). */
#include <inttypes.h>

#include "stats.h"
#include "stats_gpu_int.h"

static bool observing;

static void enable(void)
{
    sg_observe();
    observing = true;
}

static const char *const job_type_names[16] = {
    "not_started", "null", "write_value", "cache_flush", "compute", "vertex", "geometry", "tiler",
    "fused", "fragment", "indexed_vertex", "type11", "type12", "type13", "type14", "type15",
};

static void write_json(FILE *f, const char *in, const stats_totals *T)
{
    fprintf(f, "\"executor_hook\": %s,\n", observing ? "true" : "false");
    fprintf(f, "%s\"registers\": {\"reads\": {\"gpu\": %" PRIu64 ", \"job\": %" PRIu64 ", \"mmu\": %" PRIu64
               "}, \"writes\": {\"gpu\": %" PRIu64 ", \"job\": %" PRIu64 ", \"mmu\": %" PRIu64 "}, \"by_offset\": [",
            in, T->c[ST_MALI_RD_GPU], T->c[ST_MALI_RD_JOB], T->c[ST_MALI_RD_MMU], T->c[ST_MALI_WR_GPU],
            T->c[ST_MALI_WR_JOB], T->c[ST_MALI_WR_MMU]);
    int first = 1;
    for (unsigned i = 0; i < STATS_MALI_REGS; i++)
        if (T->reg[i][0] || T->reg[i][1]) {
            fprintf(f, "%s\n%s  {\"offset\": %u, \"reads\": %" PRIu64 ", \"writes\": %" PRIu64 "}", first ? "" : ",",
                    in, i * 4, T->reg[i][0], T->reg[i][1]);
            first = 0;
        }
    fprintf(f, "%s%s]},\n%s\"irqs\": {\"gpu\": %" PRIu64 ", \"job\": %" PRIu64 ", \"mmu\": %" PRIu64 "},\n",
            first ? "" : "\n", first ? "" : in, in, T->c[ST_MALI_IRQ_GPU], T->c[ST_MALI_IRQ_JOB], T->c[ST_MALI_IRQ_MMU]);
    fprintf(f, "%s\"jobs\": {", in);
    uint64_t jobs = 0;
    for (unsigned i = 0; i < 16; i++)
        if (T->c[ST_MALI_JOB_TYPE0 + i]) {
            fprintf(f, "\"%s\": %" PRIu64 ", ", job_type_names[i], T->c[ST_MALI_JOB_TYPE0 + i]);
            jobs += T->c[ST_MALI_JOB_TYPE0 + i];
        }
    fprintf(f, "\"total\": %" PRIu64 ", \"failed\": %" PRIu64 "},\n", jobs, T->c[ST_MALI_JOB_FAILED]);
    fprintf(f, "%s\"mmu\": {\"translations\": %" PRIu64 ", \"pages_touched\": %" PRIu64
               ", \"pages_by_access\": {\"read\": %" PRIu64 ", \"write\": %" PRIu64 ", \"execute\": %" PRIu64
               ", \"atomic\": %" PRIu64 "}},\n%s",
            in, T->c[ST_MALI_TRANSLATE], T->pages, T->pages_by_access[2], T->pages_by_access[3], T->pages_by_access[1],
            T->pages_by_access[0], in);
    sg_write_json(f, in);
}

static void summary(FILE *f, const stats_totals *T)
{
    uint64_t jobs = 0;
    for (unsigned i = 0; i < 16; i++)
        jobs += T->c[ST_MALI_JOB_TYPE0 + i];
    fprintf(f, "  gpu: %" PRIu64 " jobs (%" PRIu64 " failed), %" PRIu64 " register reads, %" PRIu64 " writes, %" PRIu64
               " IRQs, %" PRIu64 " pages touched\n",
            jobs, T->c[ST_MALI_JOB_FAILED], T->c[ST_MALI_RD_GPU] + T->c[ST_MALI_RD_JOB] + T->c[ST_MALI_RD_MMU],
            T->c[ST_MALI_WR_GPU] + T->c[ST_MALI_WR_JOB] + T->c[ST_MALI_WR_MMU],
            T->c[ST_MALI_IRQ_GPU] + T->c[ST_MALI_IRQ_JOB] + T->c[ST_MALI_IRQ_MMU], T->pages);
    sg_summary(f);
}

static const stats_section gpu_section = { .name = "gpu", .enable = enable, .write_json = write_json,
                                           .summary = summary };

__attribute__((constructor)) static void register_gpu_section(void)
{
    stats_register_section(&gpu_section);
}
