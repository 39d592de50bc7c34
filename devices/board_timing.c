/* --timing / --timing-config (board_timing.h). */
#include "board_timing.h"
#include "../emu/stats/stats.h"
#include "../emu/timing/timing.h"
#include "board_gpu.h"
#include "mali/mali.h"

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
    /* Guest time counts GPU cycles at the model's clock (devices/mali, --gpu MODEL,mhz=M): the
     * latencies follow it unless gpu.mhz is given, and another gpu.mhz would change only the
     * report, so it is refused. */
    MaliModel gmodel;
    const MaliModel *gm = board_gpu_model(cfg->gpu, &gmodel); /* NULL: --gpu none */
    if (gm && !tc->gpu_mhz_set)
        tc->gpu_mhz = gm->clock_hz / 1000000u;
    if (gm && (uint64_t)tc->gpu_mhz * 1000000u != gm->clock_hz)
        return snprintf(err, errlen, "--timing gpu.mhz=%u: the %s's clock, which guest time counts in, is %u MHz; "
                        "gpu.mhz must equal it", tc->gpu_mhz, gm->name, gm->clock_hz / 1000000u), -1;
    tc->gpu_mhz_set = true; /* the clock in use: reports print it */
    return 1;
}

bool board_timing_is_help(const BoardConfig *cfg) { return cfg->timing && !strcmp(cfg->timing, "help"); }

void board_timing_help(const BoardConfig *cfg, FILE *f)
{
    tm_config tc;
    char err[64];
    tm_config_preset(&tc, NULL, err, sizeof err);
    MaliModel gmodel;
    const MaliModel *gm = board_gpu_model(cfg->gpu, &gmodel);
    tc.gpu_mhz = gm ? gm->clock_hz / 1000000u : tc.gpu_mhz;
    tc.gpu_mhz_set = true;
    fprintf(f, "# malibu --timing keys (KEY=VALUE,...; or these lines in a --timing-config file), with the\n"
               "# values of the g71 preset; docs/timing.md explains them\n");
    tm_config_print(f, &tc);
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
    const BoardCpuTimingFeed *feed = cfg->cpu_timing; /* NULL in programs without a CPU */
    if (tc.cpu && !feed)
        return snprintf(err, errlen, "--timing: cpu.* keys: this program has no system CPU"), -1;
    if (tc.cpu && !cpu_done) {   /* vCPU n: L1D 2n, L1I 2n + 1 */
        const tm_cache_cfg *l1[2 * 8];
        unsigned n = cfg->ncpu ? cfg->ncpu : 1;
        for (unsigned i = 0; i < n && i < 8; i++)
            l1[2 * i] = &tc.cpu_l1d, l1[2 * i + 1] = &tc.cpu_l1i;
        tm_hier *h = tm_hier_new(2 * (n < 8 ? n : 8), l1, &tc.cpu_l2, 1, &tc.dram, tc.cpu_mhz, err, (unsigned)errlen);
        if (!h)
            return -1;
        feed->set(h);
        cpu_done = true;
        stats_timing_cpu_totals = feed->totals;
        stats_timing_cpu(true);
    }
    char v[64];
    snprintf(v, sizeof(v), "%s%s", tc.preset, cfg->timing_config || (cfg->timing && *cfg->timing) ? " (+keys)" : "");
    stats_set_config("timing", v);
    return 0;
}
