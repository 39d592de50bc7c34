/* --timing / --timing-config (board_timing.h). */
#include "board_timing.h"
#include "../emu/gpu/compute.h"
#include "../emu/stats/stats.h"
#include "../emu/timing/timing.h"

#include <stdio.h>
#include <string.h>

int board_timing_setup(const BoardConfig *cfg, char *err, size_t errlen)
{
    static tm_config tc;
    if (!cfg->timing && !cfg->timing_config) {
        gpu_compute_set_timing(NULL);
        stats_timing_config(NULL);
        return 0;
    }
    memset(&tc, 0, sizeof(tc));
    if (cfg->timing_config && tm_config_load(&tc, cfg->timing_config, err, (unsigned)errlen))
        return -1;
    if (cfg->timing && *cfg->timing && tm_config_parse(&tc, cfg->timing, err, (unsigned)errlen))
        return -1;
    if (!cfg->timing_config && cfg->timing && !*cfg->timing && tm_config_parse(&tc, "", err, (unsigned)errlen))
        return -1;
    gpu_compute_set_timing(&tc);
    stats_timing_config(&tc);
    char v[64];
    snprintf(v, sizeof(v), "%s%s", tc.preset, cfg->timing_config || (cfg->timing && *cfg->timing) ? " (+keys)" : "");
    stats_set_config("timing", v);
    return 0;
}
