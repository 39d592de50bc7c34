/* --timing / --timing-config: keys, values, presets (timing.h).  Sources and assumptions of the
 * preset values: docs/timing.md. */
#include "timing.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const tm_cache_cfg cache_default = {
    .line = 64, .assoc = 4, .policy = TM_LRU, .write_back = true, .write_allocate = true, .mshrs = 8, .banks = 1,
};

int tm_config_preset(tm_config *c, const char *name, char *err, unsigned errlen)
{
    if (!name || !*name)
        name = "g71";
    bool g71 = !strcmp(name, "g71"), g52 = !strcmp(name, "g52");
    if (!g71 && !g52)
        return snprintf(err, errlen, "--timing: unknown preset '%s' (g71, g52)", name), -1;
    memset(c, 0, sizeof(*c));
    snprintf(c->preset, sizeof(c->preset), "%s", name);
    c->gpu = true;
    /* per-core load/store cache: write-through, no write-allocate (GPU L1 style) */
    c->gpu_l1 = cache_default;
    c->gpu_l1.size = 16 << 10;
    c->gpu_l1.write_back = false;
    c->gpu_l1.write_allocate = false;
    c->gpu_l1.mshrs = 16;
    c->gpu_l1.banks = 4;
    c->gpu_l1.latency = 4;
    /* the shared L2: one logical cache in slices */
    c->gpu_l2 = cache_default;
    c->gpu_l2.size = g71 ? 256 << 10 : 128 << 10;
    c->gpu_l2.assoc = 16;
    c->gpu_l2.mshrs = 32;
    c->gpu_l2.banks = 4;
    c->gpu_l2.latency = 20;
    c->gpu_l2_slices = g71 ? 2 : 1;
    c->gpu_mhz = 500;
    /* CPU (used only with cpu.* keys): a Cortex-A53-like 32 KiB L1s, 512 KiB L2 */
    c->cpu_l1d = cache_default;
    c->cpu_l1d.size = 32 << 10;
    c->cpu_l1d.latency = 3;
    c->cpu_l1i = c->cpu_l1d;
    c->cpu_l1i.assoc = 2;
    c->cpu_l1i.latency = 1;
    c->cpu_l2 = cache_default;
    c->cpu_l2.size = 512 << 10;
    c->cpu_l2.assoc = 16;
    c->cpu_l2.latency = 12;
    c->cpu_mhz = 1000;
    /* LPDDR4-3200-like: 1600 MHz command clock, 2 channels x 8 banks, 2 KiB rows */
    c->dram = (tm_dram_cfg){ .channels = 2, .banks = 8, .row = 2048, .burst = 64, .map = TM_MAP_ROW_BANK_CH_COL,
                             .tCL = 28, .tRCD = 29, .tRP = 29, .tRAS = 68, .tBURST = 8, .overhead = 80,
                             .mhz = 1600 };
    return 0;
}

/* "16K", "2M", "64": bytes */
static int parse_u64(const char *v, uint64_t *out, bool suffix)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)*v))
        return -1;
    unsigned long long n = strtoull(v, &end, 0);
    if (errno)
        return -1;
    unsigned shift = 0;
    if (suffix && (*end == 'K' || *end == 'k'))
        shift = 10, end++;
    else if (suffix && (*end == 'M' || *end == 'm'))
        shift = 20, end++;
    else if (suffix && (*end == 'G' || *end == 'g'))
        shift = 30, end++;
    if (*end || n > (~0ull >> shift))
        return -1;
    *out = (uint64_t)n << shift;
    return 0;
}

static int parse_uint(const char *v, unsigned *out, bool suffix)
{
    uint64_t n;
    if (parse_u64(v, &n, suffix) || n > 0xffffffffu)
        return -1;
    *out = (unsigned)n;
    return 0;
}

static int cache_key(tm_cache_cfg *cc, const char *k, const char *v, const char *full, char *err, unsigned errlen)
{
    int bad = 0;
    if (!strcmp(k, "size"))
        bad = parse_u64(v, &cc->size, true);
    else if (!strcmp(k, "line"))
        bad = parse_uint(v, &cc->line, true);
    else if (!strcmp(k, "assoc"))
        bad = parse_uint(v, &cc->assoc, false);
    else if (!strcmp(k, "mshrs"))
        bad = parse_uint(v, &cc->mshrs, false);
    else if (!strcmp(k, "banks"))
        bad = parse_uint(v, &cc->banks, false);
    else if (!strcmp(k, "latency"))
        bad = parse_uint(v, &cc->latency, false);
    else if (!strcmp(k, "seed"))
        bad = parse_u64(v, &cc->seed, false);
    else if (!strcmp(k, "policy")) {
        if (!strcmp(v, "lru")) cc->policy = TM_LRU;
        else if (!strcmp(v, "plru")) cc->policy = TM_PLRU;
        else if (!strcmp(v, "fifo")) cc->policy = TM_FIFO;
        else if (!strcmp(v, "random")) cc->policy = TM_RANDOM;
        else return snprintf(err, errlen, "--timing %s=%s: lru, plru, fifo or random", full, v), -1;
    } else if (!strcmp(k, "write")) {
        if (!strcmp(v, "back")) cc->write_back = true;
        else if (!strcmp(v, "through")) cc->write_back = false;
        else return snprintf(err, errlen, "--timing %s=%s: back or through", full, v), -1;
    } else if (!strcmp(k, "allocate")) {
        if (!strcmp(v, "write")) cc->write_allocate = true;
        else if (!strcmp(v, "read")) cc->write_allocate = false;
        else return snprintf(err, errlen, "--timing %s=%s: write (write-allocate) or read (read-allocate only)",
                             full, v), -1;
    } else
        return snprintf(err, errlen, "--timing: unknown key '%s'", full), -1;
    if (bad)
        return snprintf(err, errlen, "--timing %s=%s: not a number%s", full, v,
                        !strcmp(k, "size") || !strcmp(k, "line") ? " (K/M suffixes allowed)" : ""), -1;
    return 0;
}

static int dram_key(tm_dram_cfg *d, const char *k, const char *v, const char *full, char *err, unsigned errlen)
{
    static const struct { const char *name; size_t off; bool suffix; } keys[] = {
        { "channels", offsetof(tm_dram_cfg, channels), false }, { "banks", offsetof(tm_dram_cfg, banks), false },
        { "row", offsetof(tm_dram_cfg, row), true },           { "burst", offsetof(tm_dram_cfg, burst), true },
        { "tCL", offsetof(tm_dram_cfg, tCL), false },          { "tRCD", offsetof(tm_dram_cfg, tRCD), false },
        { "tRP", offsetof(tm_dram_cfg, tRP), false },
        { "tBURST", offsetof(tm_dram_cfg, tBURST), false },    { "overhead", offsetof(tm_dram_cfg, overhead), false },
        { "mhz", offsetof(tm_dram_cfg, mhz), false },
    };
    if (!strcmp(k, "tRAS"))   /* dram.h: requests carry no time, so no activate-to-precharge window */
        return snprintf(err, errlen, "--timing %s: not modelled (the DRAM model is latency-only: no "
                        "activate-to-precharge window to enforce); remove the key", full), -1;
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        if (!strcmp(k, keys[i].name)) {
            if (parse_uint(v, (unsigned *)((char *)d + keys[i].off), keys[i].suffix))
                return snprintf(err, errlen, "--timing %s=%s: not a number", full, v), -1;
            return 0;
        }
    if (!strcmp(k, "page")) {
        if (!strcmp(v, "open")) d->closed_page = false;
        else if (!strcmp(v, "closed")) d->closed_page = true;
        else return snprintf(err, errlen, "--timing %s=%s: open or closed", full, v), -1;
        return 0;
    }
    if (!strcmp(k, "map")) {
        if (!strcmp(v, "row-bank-ch-col")) d->map = TM_MAP_ROW_BANK_CH_COL;
        else if (!strcmp(v, "row-col-bank-ch")) d->map = TM_MAP_ROW_COL_BANK_CH;
        else return snprintf(err, errlen, "--timing %s=%s: row-bank-ch-col or row-col-bank-ch", full, v), -1;
        return 0;
    }
    return snprintf(err, errlen, "--timing: unknown key '%s'", full), -1;
}

int tm_config_set(tm_config *c, const char *key, const char *value, char *err, unsigned errlen)
{
    static const char *const levels[] = { "gpu.l1.", "gpu.l2.", "cpu.l1d.", "cpu.l1i.", "cpu.l2." };
    tm_cache_cfg *cc[] = { &c->gpu_l1, &c->gpu_l2, &c->cpu_l1d, &c->cpu_l1i, &c->cpu_l2 };
    if (!strcmp(key, "preset"))
        return tm_config_preset(c, value, err, errlen);
    if (!strcmp(key, "gpu.l2.slices"))
        return parse_uint(value, &c->gpu_l2_slices, false)
                   ? snprintf(err, errlen, "--timing %s=%s: not a number", key, value), -1 : 0;
    if (!strcmp(key, "gpu.mhz") || !strcmp(key, "cpu.mhz")) {
        if (key[0] == 'c')
            c->cpu = true;
        else
            c->gpu_mhz_set = true;
        return parse_uint(value, key[0] == 'g' ? &c->gpu_mhz : &c->cpu_mhz, false)
                   ? snprintf(err, errlen, "--timing %s=%s: not a number", key, value), -1 : 0;
    }
    for (unsigned i = 0; i < 5; i++) {
        size_t n = strlen(levels[i]);
        if (!strncmp(key, levels[i], n)) {
            if (i >= 2)
                c->cpu = true;
            return cache_key(cc[i], key + n, value, key, err, errlen);
        }
    }
    if (!strncmp(key, "dram.", 5))
        return dram_key(&c->dram, key + 5, value, key, err, errlen);
    if (!strcmp(key, "cpu"))  {       /* cpu=on: the CPU model with the preset's values */
        if (strcmp(value, "on") && strcmp(value, "off"))
            return snprintf(err, errlen, "--timing cpu=%s: on or off", value), -1;
        c->cpu = !strcmp(value, "on");
        return 0;
    }
    return snprintf(err, errlen, "--timing: unknown key '%s'", key), -1;
}

int tm_config_parse(tm_config *c, const char *spec, char *err, unsigned errlen)
{
    char buf[1024];
    if (!c->preset[0] && tm_config_preset(c, NULL, err, errlen))
        return -1;
    if (strlen(spec) >= sizeof(buf))
        return snprintf(err, errlen, "--timing: option too long"), -1;
    strcpy(buf, spec);
    for (char *save = NULL, *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        if (!eq)
            return snprintf(err, errlen, "--timing: '%s' is not KEY=VALUE", item), -1;
        *eq = 0;
        if (tm_config_set(c, item, eq + 1, err, errlen))
            return -1;
    }
    return tm_config_check(c, err, errlen);
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

int tm_config_load(tm_config *c, const char *path, char *err, unsigned errlen)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return snprintf(err, errlen, "--timing-config %s: %s", path, strerror(errno)), -1;
    if (!c->preset[0] && tm_config_preset(c, NULL, err, errlen)) {
        fclose(f);
        return -1;
    }
    char line[512], msg[256];
    unsigned no = 0;
    int rc = 0;
    while (!rc && fgets(line, sizeof(line), f)) {
        no++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *l = trim(line), *eq = strchr(l, '=');
        if (!*l)
            continue;
        if (!eq) {
            snprintf(err, errlen, "--timing-config %s:%u: not KEY = VALUE", path, no);
            rc = -1;
        } else {
            *eq = 0;
            if ((rc = tm_config_set(c, trim(l), trim(eq + 1), msg, sizeof(msg))))
                snprintf(err, errlen, "%s:%u: %s", path, no, msg);
        }
    }
    fclose(f);
    return rc ? rc : tm_config_check(c, err, errlen);
}

int tm_config_check(const tm_config *c, char *err, unsigned errlen)
{
    if (tm_cache_check(&c->gpu_l1, "gpu.l1", err, errlen) || tm_cache_check(&c->gpu_l2, "gpu.l2", err, errlen) ||
        tm_dram_check(&c->dram, err, errlen))
        return -1;
    if (!c->gpu_l2_slices || c->gpu_l2_slices > 16 || (c->gpu_l2_slices & (c->gpu_l2_slices - 1)) ||
        tm_cache_check(&(tm_cache_cfg){ .size = c->gpu_l2.size / c->gpu_l2_slices, .line = c->gpu_l2.line,
                                        .assoc = c->gpu_l2.assoc, .policy = c->gpu_l2.policy, .mshrs = 1,
                                        .banks = 1 }, "gpu.l2 slice", err, errlen))
        return c->gpu_l2_slices && c->gpu_l2_slices <= 16 && !(c->gpu_l2_slices & (c->gpu_l2_slices - 1))
                   ? -1 : (snprintf(err, errlen, "gpu.l2.slices %u: a power of two up to 16", c->gpu_l2_slices), -1);
    if (c->gpu_l1.line > c->gpu_l2.line)
        return snprintf(err, errlen, "gpu.l1.line %u is longer than gpu.l2.line %u", c->gpu_l1.line, c->gpu_l2.line), -1;
    if (!c->gpu_mhz || c->gpu_mhz > 10000 || !c->cpu_mhz || c->cpu_mhz > 10000)
        return snprintf(err, errlen, "gpu.mhz / cpu.mhz: 1 to 10000"), -1;
    if (c->cpu && (tm_cache_check(&c->cpu_l1d, "cpu.l1d", err, errlen) ||
                   tm_cache_check(&c->cpu_l1i, "cpu.l1i", err, errlen) ||
                   tm_cache_check(&c->cpu_l2, "cpu.l2", err, errlen)))
        return -1;
    if (c->cpu && (c->cpu_l1d.line > c->cpu_l2.line || c->cpu_l1i.line > c->cpu_l2.line))
        return snprintf(err, errlen, "cpu.l1d.line / cpu.l1i.line longer than cpu.l2.line"), -1;
    return 0;
}

static void print_cache(FILE *f, const char *name, const tm_cache_cfg *c)
{
    static const char *const pol[] = { "lru", "plru", "fifo", "random" };
    fprintf(f, "%s.size = %llu\n%s.line = %u\n%s.assoc = %u\n%s.policy = %s\n%s.seed = %llu\n", name,
            (unsigned long long)c->size, name, c->line, name, c->assoc, name, pol[c->policy], name,
            (unsigned long long)c->seed);
    fprintf(f, "%s.write = %s\n%s.allocate = %s\n%s.mshrs = %u\n%s.banks = %u\n%s.latency = %u\n", name,
            c->write_back ? "back" : "through", name, c->write_allocate ? "write" : "read", name, c->mshrs, name,
            c->banks, name, c->latency);
}

void tm_config_print(FILE *f, const tm_config *c)
{
    const tm_dram_cfg *d = &c->dram;
    fprintf(f, "preset = %s\n", c->preset);
    print_cache(f, "gpu.l1", &c->gpu_l1);
    print_cache(f, "gpu.l2", &c->gpu_l2);
    fprintf(f, "gpu.l2.slices = %u\n", c->gpu_l2_slices);
    if (c->gpu_mhz_set)   /* else the GPU's clock, whatever it is where the file is read */
        fprintf(f, "gpu.mhz = %u\n", c->gpu_mhz);
    print_cache(f, "cpu.l1d", &c->cpu_l1d);
    print_cache(f, "cpu.l1i", &c->cpu_l1i);
    print_cache(f, "cpu.l2", &c->cpu_l2);
    fprintf(f, "cpu.mhz = %u\ncpu = %s\n", c->cpu_mhz, c->cpu ? "on" : "off");   /* after cpu.*: they set it */
    fprintf(f, "dram.channels = %u\ndram.banks = %u\ndram.row = %u\ndram.burst = %u\ndram.map = %s\n", d->channels,
            d->banks, d->row, d->burst, d->map == TM_MAP_ROW_BANK_CH_COL ? "row-bank-ch-col" : "row-col-bank-ch");
    fprintf(f, "dram.page = %s\ndram.tCL = %u\ndram.tRCD = %u\ndram.tRP = %u\ndram.tBURST = %u\n",
            d->closed_page ? "closed" : "open", d->tCL, d->tRCD, d->tRP, d->tBURST);
    fprintf(f, "dram.overhead = %u\ndram.mhz = %u\n", d->overhead, d->mhz);
}
