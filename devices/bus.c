/* Physical address map: RAM/ROM regions and MMIO regions (see bus.h). */
#include "bus.h"
#include "../emu/stats/stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define BUS_MAX_RAM 8
#define BUS_MAX_MMIO 64

typedef struct RamRegion {
    const char *name;
    uint64_t base, size;
    uint8_t *host;
    bool readonly;
} RamRegion;

typedef struct MmioRegion {
    uint64_t base, size;
    const MmioOps *ops;
    void *opaque;
} MmioRegion;

struct Bus {
    RamRegion ram[BUS_MAX_RAM];
    unsigned nram;
    MmioRegion mmio[BUS_MAX_MMIO];
    unsigned nmmio;
    bool frozen;
};

Bus *bus_new(void)
{
    return calloc(1, sizeof(Bus));
}

void bus_free(Bus *b)
{
    if (!b)
        return;
    for (unsigned i = 0; i < b->nram; i++)
        munmap(b->ram[i].host, b->ram[i].size);
    free(b);
}

/* True when [base, base+size) overlaps a region already in the map (or wraps). */
static bool overlaps(const Bus *b, uint64_t base, uint64_t size)
{
    if (size == 0 || base + size < base)
        return true;
    for (unsigned i = 0; i < b->nram; i++)
        if (base < b->ram[i].base + b->ram[i].size && b->ram[i].base < base + size)
            return true;
    for (unsigned i = 0; i < b->nmmio; i++)
        if (base < b->mmio[i].base + b->mmio[i].size && b->mmio[i].base < base + size)
            return true;
    return false;
}

uint8_t *bus_add_ram(Bus *b, const char *name, uint64_t base, uint64_t size, bool readonly)
{
    if (b->frozen || b->nram == BUS_MAX_RAM || ((base | size) & (BUS_PAGE_SIZE - 1)) ||
        overlaps(b, base, size))
        return NULL;
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    /* Transparent huge pages where the host offers them ("madvise" mode): one host page fault
     * per 2 MiB of guest RAM first touched instead of 512, and fewer host TLB misses on guest
     * accesses.  Advice only: a host without THP keeps 4 KiB pages. */
    madvise(p, size, MADV_HUGEPAGE);
    b->ram[b->nram++] = (RamRegion){ name, base, size, p, readonly };
    return p;
}

bool bus_add_mmio(Bus *b, uint64_t base, uint64_t size, const MmioOps *ops, void *opaque)
{
    if (b->frozen || b->nmmio == BUS_MAX_MMIO || overlaps(b, base, size))
        return false;
    b->mmio[b->nmmio++] = (MmioRegion){ base, size, ops, opaque };
    return true;
}

static int cmp_ram(const void *a, const void *b)
{
    const RamRegion *x = a, *y = b;
    return x->base < y->base ? -1 : x->base > y->base;
}

static int cmp_mmio(const void *a, const void *b)
{
    const MmioRegion *x = a, *y = b;
    return x->base < y->base ? -1 : x->base > y->base;
}

void bus_freeze(Bus *b)
{
    qsort(b->ram, b->nram, sizeof b->ram[0], cmp_ram);
    qsort(b->mmio, b->nmmio, sizeof b->mmio[0], cmp_mmio);
    for (unsigned i = 0; i < b->nmmio; i++)
        stats_bus_region(i, b->mmio[i].ops->name, b->mmio[i].base, b->mmio[i].size);
    b->frozen = true;
}

static const RamRegion *find_ram(const Bus *b, uint64_t pa)
{
    for (unsigned i = 0; i < b->nram; i++)
        if (pa - b->ram[i].base < b->ram[i].size)
            return &b->ram[i];
    return NULL;
}

static const MmioRegion *find_mmio(const Bus *b, uint64_t pa)
{
    unsigned lo = 0, hi = b->nmmio;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        const MmioRegion *r = &b->mmio[mid];
        if (pa < r->base)
            hi = mid;
        else if (pa - r->base >= r->size)
            lo = mid + 1;
        else
            return r;
    }
    return NULL;
}

uint8_t *bus_ram_ptr(Bus *b, uint64_t pa, bool write)
{
    const RamRegion *r = find_ram(b, pa);
    if (!r || (write && r->readonly))
        return NULL;
    return r->host + (pa - r->base);
}

static bool valid_size(unsigned size)
{
    return size == 1 || size == 2 || size == 4 || size == 8;
}

BusResult bus_read(Bus *b, uint64_t pa, unsigned size, uint64_t *value)
{
    *value = 0;
    if (!valid_size(size))
        return BUS_ERROR;
    const RamRegion *r = find_ram(b, pa);
    if (r) {
        if (pa - r->base + size > r->size)
            return BUS_ERROR;
        memcpy(value, r->host + (pa - r->base), size); /* little-endian host */
        return BUS_OK;
    }
    const MmioRegion *m = find_mmio(b, pa);
    if (!m || (pa & (size - 1)) || pa - m->base + size > m->size)
        return BUS_ERROR;
    stats_mmio((unsigned)(m - b->mmio), false);
    uint64_t v = m->ops->read ? m->ops->read(m->opaque, pa - m->base, size) : 0;
    *value = size == 8 ? v : v & ((1ull << (size * 8)) - 1);
    return BUS_OK;
}

BusResult bus_write(Bus *b, uint64_t pa, uint64_t value, unsigned size)
{
    if (!valid_size(size))
        return BUS_ERROR;
    if (size < 8)
        value &= (1ull << (size * 8)) - 1;
    const RamRegion *r = find_ram(b, pa);
    if (r) {
        if (r->readonly || pa - r->base + size > r->size)
            return BUS_ERROR;
        memcpy(r->host + (pa - r->base), &value, size);
        return BUS_OK;
    }
    const MmioRegion *m = find_mmio(b, pa);
    if (!m || (pa & (size - 1)) || pa - m->base + size > m->size)
        return BUS_ERROR;
    stats_mmio((unsigned)(m - b->mmio), true);
    if (m->ops->write)
        m->ops->write(m->opaque, pa - m->base, value, size);
    return BUS_OK;
}

static uint8_t *ram_range(Bus *b, uint64_t pa, size_t len, bool write, bool allow_rom)
{
    const RamRegion *r = find_ram(b, pa);
    if (!r || len > r->size - (pa - r->base) || (write && r->readonly && !allow_rom))
        return NULL;
    return r->host + (pa - r->base);
}

BusResult bus_dma_read(Bus *b, uint64_t pa, void *dst, size_t len)
{
    uint8_t *p = ram_range(b, pa, len, false, true);
    if (!p)
        return BUS_ERROR;
    memcpy(dst, p, len);
    return BUS_OK;
}

BusResult bus_dma_write(Bus *b, uint64_t pa, const void *src, size_t len)
{
    uint8_t *p = ram_range(b, pa, len, true, false);
    if (!p)
        return BUS_ERROR;
    memcpy(p, src, len);
    return BUS_OK;
}

BusResult bus_load(Bus *b, uint64_t pa, const void *src, size_t len)
{
    uint8_t *p = ram_range(b, pa, len, true, true);
    if (!p)
        return BUS_ERROR;
    memcpy(p, src, len);
    return BUS_OK;
}

bool bus_ram_region(Bus *b, unsigned n, uint64_t *base, uint64_t *size, bool *readonly)
{
    if (n >= b->nram)
        return false;
    *base = b->ram[n].base;
    *size = b->ram[n].size;
    *readonly = b->ram[n].readonly;
    return true;
}
