/* The last converted frame of a display controller (scanout_cache.h). */
#include "scanout_cache.h"

#include <stdlib.h>
#include <string.h>

int scanout_cache_update(ScanoutCache *c, Bus *bus, const uint32_t *reg, unsigned nreg, uint64_t base,
                         uint64_t pitch, size_t line, size_t rows)
{
    size_t len = line * rows;
    if (nreg > SCANOUT_CACHE_MAX_REGS || line > SCANOUT_CACHE_MAX_LINE) {
        c->valid = false;
        return -1;
    }
    if (len > c->cap) {
        free(c->raw);
        c->raw = malloc(len);
        c->cap = c->raw ? len : 0;
        c->valid = false;
        if (!c->raw)
            return -1;
    }
    bool same = c->valid && !memcmp(reg, c->reg, nreg * sizeof *reg);
    static _Thread_local uint8_t buf[SCANOUT_CACHE_MAX_LINE];
    for (size_t y = 0; line && y < rows; y++) {
        if (bus_dma_read(bus, base + y * pitch, buf, line) != BUS_OK)
            break; /* the caller checked the buffer lies in RAM */
        if (same && !memcmp(buf, c->raw + y * line, line))
            continue;
        same = false;
        memcpy(c->raw + y * line, buf, line);
    }
    return same ? 0 : 1;
}

void scanout_cache_converted(ScanoutCache *c, const uint32_t *reg, unsigned nreg, bool ok)
{
    memcpy(c->reg, reg, nreg * sizeof *reg);
    c->valid = ok;
}

void scanout_cache_invalidate(ScanoutCache *c)
{
    c->valid = false;
}

void scanout_cache_free(ScanoutCache *c)
{
    free(c->raw);
    c->raw = NULL;
    c->cap = 0;
    c->valid = false;
}
