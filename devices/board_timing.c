/* --timing / --timing-config (board_timing.h). */
#include "board_timing.h"
#include "../emu/stats/stats.h"
#include "../emu/timing/timing.h"
#include "../emu/cpu/sys_timing.h"

/* The system CPU's feed (emu/cpu/sys_timing.c) is in build/malibu, not in device tests that link
 * the board without a CPU: weak, NULL there (cpu.* keys then refused). */
#pragma weak sys_timing_set
#pragma weak sys_timing_totals

#include <stdio.h>
#include <string.h>

int board_timing_gpu(const BoardConfig *cfg, tm_config *tc, char *err, size_t errlen)
{
    if (!cfg->timing && !cfg->timing_config)
        return 0;
    memset(tc, 0, sizeof(*tc));
    if (cfg->timing_config && tm_config_load(tc, cfg->timing_config, err, (unsigned)errlen))
        return -1;
    if (cfg->timing && *cfg->timing && tm_config_parse(tc, cfg->timing, err, (unsigned)errlen))
        return -1;
    if (!cfg->timing_config && cfg->timing && !*cfg->timing && tm_config_parse(tc, "", err, (unsigned)errlen))
        return -1;
    return 1;
}

int board_timing_setup(const BoardConfig *cfg, char *err, size_t errlen)
{
    static tm_config tc;
    int on = board_timing_gpu(cfg, &tc, err, errlen);
    if (on <= 0) {
        stats_timing_config(NULL);
        return on;
    }
    stats_timing_config(&tc);
    static bool cpu_done;
    if (tc.cpu && !sys_timing_set)
        return snprintf(err, errlen, "--timing: cpu.* keys: this program has no system CPU"), -1;
    if (tc.cpu && !cpu_done) {   /* vCPU n: L1D 2n, L1I 2n + 1 */
        const tm_cache_cfg *l1[2 * 8];
        unsigned n = cfg->ncpu ? cfg->ncpu : 1;
        for (unsigned i = 0; i < n && i < 8; i++)
            l1[2 * i] = &tc.cpu_l1d, l1[2 * i + 1] = &tc.cpu_l1i;
        tm_hier *h = tm_hier_new(2 * (n < 8 ? n : 8), l1, &tc.cpu_l2, 1, &tc.dram, tc.cpu_mhz, err, (unsigned)errlen);
        if (!h)
            return -1;
        sys_timing_set(h);
        cpu_done = true;
        stats_timing_cpu_totals = sys_timing_totals;
        stats_timing_cpu(true);
    }
    char v[64];
    snprintf(v, sizeof(v), "%s%s", tc.preset, cfg->timing_config || (cfg->timing && *cfg->timing) ? " (+keys)" : "");
    stats_set_config("timing", v);
    return 0;
}
