/* GPU_ID and feature registers per model (reference §5).  G72 and G52 values are those real
 * chips report (panfrost dmesg); G71 (no public dump) follows G72 with G71's product id.
 * Deliberate choices: AFBC_FEATURES reads 1 (non-zero keeps Mesa off AFBC, which the emulator
 * does not decode), TEXTURE_FEATURES0 = 0 (no compressed texture formats), COHERENCY_FEATURES =
 * ACE-Lite (avoids the G71 JM_CONFIG coherency quirk write), THREAD_TLS_ALLOC = 0 (Mesa falls
 * back to THREAD_MAX_THREADS, as on real G71-era parts).  exec_engines (not a register) sets
 * the modelled issue rate of the guest clock's device-wait model (mali_job_progress).
 * max_cores: the product line's sizes, from public descriptions of it: Mali-G71 "1-32 shader
 * cores" (notebookinfo.de's ARM Mali-G71 MP8 page; Arm's own launch blog calls it scalable to 32
 * cores), Mali-G72 32 cores like G71 (Arm's G72 launch coverage), Mali-G52 "up to 4 shader cores"
 * at up to 850 MHz (soclabs.org/technology/mali-g52; RK3566's G52 is 1-core-2EE, its DT commit).
 * MALI_MHZ_MIN..MAX brackets the clocks shipped parts run at (Kirin 960's G71 up to 1037 MHz). */
#include <stdio.h>
#include <stdlib.h>
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
        .shader_present = 0xF /* MP4 */, .exec_engines = 3, .max_cores = 32, COMMON_BIFROST,
    },
    {
        .name = "g72", .compatible = NULL, .gpu_id = 0x62210030 /* r0p3 */,
        .l2_features = 0x07120206, .tiler_features = 0x809,
        .thread_max_threads = 384, .thread_max_workgroup_size = 384,
        .thread_max_barrier_size = 384, .thread_features = 0x6000,
        .shader_present = 0x7 /* MP3 */, .exec_engines = 3, .max_cores = 32, COMMON_BIFROST,
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
        .shader_present = 0x3 /* MP2 */, .exec_engines = 2 /* built with 2 or 3 */, .max_cores = 4, COMMON_BIFROST,
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

/* "12" -> 12 within lo..hi; false for anything else */
static bool parse_bounded(const char *v, size_t len, unsigned lo, unsigned hi, unsigned *out)
{
    char buf[16];
    if (!len || len >= sizeof buf)
        return false;
    memcpy(buf, v, len);
    buf[len] = 0;
    char *end;
    unsigned long n = buf[0] >= '0' && buf[0] <= '9' ? strtoul(buf, &end, 10) : 0;
    if (buf[0] < '0' || buf[0] > '9' || *end || n < lo || n > hi)
        return false;
    *out = (unsigned)n;
    return true;
}

bool mali_model_parse(const char *spec, MaliModel *out, char *err, size_t errlen)
{
    const char *s = spec ? spec : "g71";
    size_t nlen = strcspn(s, ",");
    const MaliModel *base = NULL;
    for (const MaliModel *m = mali_models; m->name; m++)
        if (strlen(m->name) == nlen && !strncmp(m->name, s, nlen))
            base = m;
    if (!base)
        return snprintf(err, errlen, "unknown GPU '%.*s' (g71, g72, g52)", (int)nlen, s), false;
    *out = *base;
    bool have_cores = false, have_mhz = false;
    for (const char *p = s + nlen; *p == ',';) {
        p++;
        size_t len = strcspn(p, ","), klen = strcspn(p, "=");
        const char *val = p + klen + 1;
        size_t vlen = klen < len ? len - klen - 1 : 0;
        unsigned n;
        if (klen == 5 && !strncmp(p, "cores", 5) && klen < len) {
            if (have_cores)
                return snprintf(err, errlen, "%s: cores given twice", s), false;
            if (!parse_bounded(val, vlen, 1, base->max_cores, &n))
                return snprintf(err, errlen, "%s: cores=%.*s: the %s comes with 1 to %u shader cores (MP1..MP%u)",
                                s, (int)vlen, val, base->name, base->max_cores, base->max_cores), false;
            out->shader_present = n >= 64 ? ~0ull : (1ull << n) - 1;
            have_cores = true;
        } else if (klen == 3 && !strncmp(p, "mhz", 3) && klen < len) {
            if (have_mhz)
                return snprintf(err, errlen, "%s: mhz given twice", s), false;
            if (!parse_bounded(val, vlen, MALI_MHZ_MIN, MALI_MHZ_MAX, &n))
                return snprintf(err, errlen, "%s: mhz=%.*s: the GPU clock is %u to %u MHz", s, (int)vlen, val,
                                MALI_MHZ_MIN, MALI_MHZ_MAX), false;
            out->clock_hz = n * 1000000u;
            have_mhz = true;
        } else {
            return snprintf(err, errlen, "%s: unknown key '%.*s' (cores=N, mhz=M)", s, (int)(klen < len ? klen : len),
                            p), false;
        }
        p += len;
    }
    return true;
}
