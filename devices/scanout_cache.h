/* The last frame a display controller converted for the screen: its registers and the
 * framebuffer bytes it read, so that an unchanged frame is recognised by comparing bytes (cheap)
 * rather than converting pixels (not).  Used by hdlcd.c and lcdif.c for *_render_changed. */
#ifndef SCANOUT_CACHE_H
#define SCANOUT_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bus.h"

#define SCANOUT_CACHE_MAX_REGS 160
#define SCANOUT_CACHE_MAX_LINE (4096 * 4)

typedef struct ScanoutCache {
    uint8_t *raw;                              /* rows * line bytes of the last frame */
    size_t cap;
    uint32_t reg[SCANOUT_CACHE_MAX_REGS];      /* the registers the frame was converted with */
    bool valid;
} ScanoutCache;

/* Compare the controller's registers (nreg words, the picture-relevant view of them) and the
 * `rows` lines of `line` bytes at base + y * pitch with the cached frame, updating the cache.
 * Returns 0: unchanged; 1: changed (the caller converts, then scanout_cache_converted);
 * -1: no memory for the cache (the caller converts without it). */
int scanout_cache_update(ScanoutCache *c, Bus *bus, const uint32_t *reg, unsigned nreg, uint64_t base,
                         uint64_t pitch, size_t line, size_t rows);
/* The frame was converted (ok) or not: the next update compares against it, or converts anew. */
void scanout_cache_converted(ScanoutCache *c, const uint32_t *reg, unsigned nreg, bool ok);
void scanout_cache_invalidate(ScanoutCache *c);
void scanout_cache_free(ScanoutCache *c);

#endif
