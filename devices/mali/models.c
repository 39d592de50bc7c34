/* GPU_ID and feature registers per model (reference §5).  G72 and G52 values are those real
 * chips report (panfrost dmesg); G71 (no public dump) follows G72 with G71's product id.
 * Deliberate choices: AFBC_FEATURES reads 1 (non-zero keeps Mesa off AFBC, which the emulator
 * does not decode), TEXTURE_FEATURES0 = 0 (no compressed texture formats), COHERENCY_FEATURES =
 * ACE-Lite (avoids the G71 JM_CONFIG coherency quirk write), THREAD_TLS_ALLOC = 0 (Mesa falls
 * back to THREAD_MAX_THREADS, as on real G71-era parts).  exec_engines (not a register) sets
 * the modelled issue rate of the guest clock's device-wait model (mali_job_progress). */
#include <string.h>

#include "mali.h"

#define COMMON_BIFROST                                                                          \
    .core_features = 0, .mem_features = 0x1, .mmu_features = 0x2830 /* VA 48, PA 40 */,        \
    .as_present = 0xFF, .js_present = 0x7, .js_features = { 0x20E, 0x1FE, 0x07E },             \
    .thread_tls_alloc = 0, .texture_features = { 0, 0, 0, 0 }, .coherency_features = 0x1,      \
    .afbc_features = 0x1, .tiler_present = 0x1, .l2_present = 0x1, .stack_present = 0,         \
    .clock_hz = 500000000

const MaliModel mali_models[] = {
    {
        .name = "g71", .compatible = NULL, .gpu_id = 0x60000010 /* r0p1 */,
        .l2_features = 0x07120206, .tiler_features = 0x809,
        .thread_max_threads = 384, .thread_max_workgroup_size = 384,
        .thread_max_barrier_size = 384, .thread_features = 0x6000 /* 384 x 64 registers */,
        .shader_present = 0xF /* MP4 */, .exec_engines = 3, COMMON_BIFROST,
    },
    {
        .name = "g72", .compatible = NULL, .gpu_id = 0x62210030 /* r0p3 */,
        .l2_features = 0x07120206, .tiler_features = 0x809,
        .thread_max_threads = 384, .thread_max_workgroup_size = 384,
        .thread_max_barrier_size = 384, .thread_features = 0x6000,
        .shader_present = 0x7 /* MP3 */, .exec_engines = 3, COMMON_BIFROST,
    },
    {
        .name = "g52", .compatible = NULL, .gpu_id = 0x72120000 /* r0p0 */,
        .l2_features = 0x07110206, .tiler_features = 0x809,
        /* 768 threads per core, but work-groups of at most 384: Arm's own driver on a G52 MC2
         * (GPU_ID 0x72120000) reports max work-group size 384 and work-item sizes 384x384x384
         * (clinfo in ARM-software/ComputeLibrary issue 999); panfrost derives its kernels'
         * CL_KERNEL_WORK_GROUP_SIZE from THREAD_MAX_WORKGROUP_SIZE (pan_compute_max_thread_count) */
        .thread_max_threads = 768, .thread_max_workgroup_size = 384,
        .thread_max_barrier_size = 384, .thread_features = 0x6000 /* 768 x 32 registers */,
        .shader_present = 0x3 /* MP2 */, .exec_engines = 2 /* built with 2 or 3 */, COMMON_BIFROST,
    },
    { .name = NULL },
};

const MaliModel *mali_model_find(const char *name)
{
    for (const MaliModel *m = mali_models; name && m->name; m++)
        if (!strcmp(m->name, name))
            return m;
    return NULL;
}
