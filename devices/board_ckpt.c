/* The board's part of a checkpoint (board_ckpt.h): its identity, its RAM and its devices.
 *
 * RAM: section "ram", one instance per region of the bus (boot ROM, bank 0, bank 1), fields
 * "base" and "size", then for every chunk of RAM_CHUNK bytes that is not all zero a pair "at"
 * (offset in the region) and "zstd" (the chunk, compressed at level 1).  A booted guest's RAM is
 * mostly untouched, so a checkpoint is a fraction of -m (bench/checkpoint.sh measures it).
 * zstd rather than zlib: on the 550 MiB a booted guest had written after clinfo, level 1
 * compressed 3.3x faster than zlib's level 1 (2.0 against 6.6 s of CPU), decompressed 5x faster
 * and made a 6 % smaller file. */
#include "board_ckpt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <zstd.h>

#include "bus.h"
#include "gic400.h"
#include "gtimer.h"
#include "../firmware/psci.h"

#define BOARD_CKPT_VERSION 1
#define RAM_CKPT_VERSION 1
#define RAM_CHUNK (256u << 10)

static const char *gpu_name(const Board *b)
{
    return b->cfg.gpu ? b->cfg.gpu : "g71";
}

static const char *display_name(const Board *b)
{
    return b->lcdif ? "lcdif" : b->display ? "hdlcd" : "none";
}

/* What cannot change between save and load: the devices the guest has probed and the RAM it
 * has laid out.  (Disks are identified by their own sections, the clock by the timer's.) */
static void save_identity(Board *b, CkptWriter *w)
{
    ckpt_begin(w, "board", 0, BOARD_CKPT_VERSION);
    ckpt_str(w, "gpu", gpu_name(b));
    ckpt_u64(w, "ram_size", b->cfg.ram_size);
    ckpt_u64(w, "ncpu", b->ncpu);
    ckpt_str(w, "display", display_name(b));
    ckpt_u64(w, "disks", b->nvblk);
    ckpt_end(w);
}

static bool all_zero(const uint8_t *p, size_t n)
{
    const uint64_t *q = (const uint64_t *)p; /* RAM regions are page aligned */
    for (size_t i = 0; i < n / 8; i++)
        if (q[i])
            return false;
    return true;
}

static void save_ram(Board *b, CkptWriter *w)
{
    size_t cap = ZSTD_compressBound(RAM_CHUNK);
    uint8_t *z = malloc(cap);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    uint64_t base, size;
    bool ro;
    for (unsigned n = 0; bus_ram_region(b->bus, n, &base, &size, &ro); n++) {
        const uint8_t *host = bus_ram_ptr(b->bus, base, false);
        ckpt_begin(w, "ram", n, RAM_CKPT_VERSION);
        ckpt_u64(w, "base", base);
        ckpt_u64(w, "size", size);
        for (uint64_t at = 0; at < size && z && cc; at += RAM_CHUNK) {
            size_t len = size - at < RAM_CHUNK ? (size_t)(size - at) : RAM_CHUNK;
            if (all_zero(host + at, len))
                continue;
            size_t zl = ZSTD_compressCCtx(cc, z, cap, host + at, len, 1);
            if (ZSTD_isError(zl)) { /* cannot happen with ZSTD_compressBound's room: stored whole */
                ckpt_u64(w, "at", at);
                ckpt_bytes(w, "raw", host + at, len);
                continue;
            }
            ckpt_u64(w, "at", at);
            ckpt_bytes(w, "zstd", z, zl);
        }
        ckpt_end(w);
    }
    ZSTD_freeCCtx(cc);
    free(z);
}

void board_ckpt_save(Board *b, CkptWriter *w)
{
    save_identity(b, w);
    save_ram(b, w);

    /* ---- interrupt controller and timers ---- */
    gic_ckpt_save(b->gic, w);
    gtimer_ckpt_save(b->gtimer, w);
    psci_ckpt_save(b->psci, w);

    /* ---- console, RTC, virtio, display ---- */
    board_io_ckpt_save(b, w);

    /* ---- the GPU ---- */
    if (b->gpu)
        mali_ckpt_save(b->gpu, w); /* quiesced by the caller (board_gpu_quiesce) before the RAM */
}

bool board_ckpt_check(Board *b, CkptReader *r)
{
    CkptSection *s = ckpt_section(r, "board", 0, BOARD_CKPT_VERSION);
    char gpu[64], display[16];
    uint64_t ram, ncpu, disks;
    if (!ckpt_get_str(s, "gpu", gpu, sizeof gpu) || !ckpt_get_u64(s, "ram_size", &ram, UINT64_MAX) ||
        !ckpt_get_u64(s, "ncpu", &ncpu, BOARD_MAX_CPUS) || !ckpt_get_str(s, "display", display, sizeof display) ||
        !ckpt_get_u64(s, "disks", &disks, BOARD_VIRTIO_SLOTS))
        return false;
    if (strcmp(gpu, gpu_name(b)))
        return ckpt_reader_fail(r, "the checkpoint was saved with --gpu %s; this board has --gpu %s", gpu,
                                gpu_name(b));
    if (ram != b->cfg.ram_size)
        return ckpt_reader_fail(r, "the checkpoint was saved with -m %lluM; this board has -m %lluM",
                                (unsigned long long)(ram >> 20), (unsigned long long)(b->cfg.ram_size >> 20));
    if (ncpu != b->ncpu)
        return ckpt_reader_fail(r, "the checkpoint was saved with --smp %llu; this board has --smp %u",
                                (unsigned long long)ncpu, b->ncpu);
    if (strcmp(display, display_name(b)))
        return ckpt_reader_fail(r, "the checkpoint's display controller is %s; this board's is %s (give the "
                                "same --display and --display-controller as when it was saved)",
                                display, display_name(b));
    if (disks != b->nvblk)
        return ckpt_reader_fail(r, "the checkpoint has %llu disks; this board has %u (give the same --image, "
                                "--disk and --share options as when it was saved)",
                                (unsigned long long)disks, b->nvblk);
    return true;
}

static bool field_is(const CkptFieldView *f, const char *name)
{
    return f->name_len == strlen(name) && !memcmp(f->name, name, f->name_len);
}

/* One region's chunks ("at" then "zstd" or "raw", in increasing order) into host. */
static bool load_chunks(CkptSection *s, uint8_t *host, uint64_t size, ZSTD_DCtx *dc)
{
    CkptFieldView f;
    uint64_t at = UINT64_MAX, next = 0;
    while (ckpt_next_field(s, &f)) {
        if (field_is(&f, "at")) {
            if (!f.is_int || f.len != 8)
                return ckpt_fail(s, "field 'at' is not one integer");
            at = 0;
            for (unsigned i = 0; i < 8; i++)
                at |= (uint64_t)f.data[i] << (8 * i);
            if (at % RAM_CHUNK || at >= size || at < next)
                return ckpt_fail(s, "chunk offset 0x%llx is not a chunk of the region (or out of order)",
                                 (unsigned long long)at);
        } else if (field_is(&f, "zstd") || field_is(&f, "raw")) {
            if (at == UINT64_MAX || f.is_int)
                return ckpt_fail(s, "a RAM chunk without its offset");
            size_t want = size - at < RAM_CHUNK ? (size_t)(size - at) : RAM_CHUNK;
            size_t got = field_is(&f, "raw") ? (f.len == want ? (memcpy(host + at, f.data, want), want) : 0)
                                             : ZSTD_decompressDCtx(dc, host + at, want, f.data, f.len);
            if (ZSTD_isError(got) || got != want)
                return ckpt_fail(s, "the chunk at 0x%llx does not decompress to %zu bytes",
                                 (unsigned long long)at, want);
            next = at + RAM_CHUNK;
            at = UINT64_MAX;
        } else if (!field_is(&f, "base") && !field_is(&f, "size")) {
            return ckpt_fail(s, "unknown field '%.*s'", (int)f.name_len, f.name);
        }
    }
    return true;
}

static bool load_ram(Board *b, CkptReader *r)
{
    ZSTD_DCtx *dc = ZSTD_createDCtx();
    if (!dc)
        return ckpt_reader_fail(r, "out of memory");
    uint64_t base, size;
    bool ro, ok = true;
    for (unsigned n = 0; ok && bus_ram_region(b->bus, n, &base, &size, &ro); n++) {
        CkptSection *s = ckpt_section(r, "ram", n, RAM_CKPT_VERSION);
        uint64_t sbase, ssize;
        ok = ckpt_get_u64(s, "base", &sbase, UINT64_MAX) && ckpt_get_u64(s, "size", &ssize, UINT64_MAX);
        if (ok && (sbase != base || ssize != size))
            ok = ckpt_fail(s, "RAM region at 0x%llx size 0x%llx; this board's is at 0x%llx size 0x%llx",
                           (unsigned long long)sbase, (unsigned long long)ssize, (unsigned long long)base,
                           (unsigned long long)size);
        if (!ok)
            break;
        /* what board_realize loaded (kernel, DTB) goes: RAM becomes what was saved, zero elsewhere */
        uint8_t *host = bus_ram_ptr(b->bus, base, false);
        if (madvise(host, size, MADV_DONTNEED) != 0)
            memset(host, 0, size);
        ok = load_chunks(s, host, size, dc) && ckpt_ok(r);
    }
    ZSTD_freeDCtx(dc);
    return ok;
}

bool board_ckpt_load(Board *b, CkptReader *r)
{
    if (!board_ckpt_check(b, r) || !load_ram(b, r))
        return false;

    /* ---- interrupt controller and timers ---- */
    if (!gic_ckpt_load(b->gic, r) || !gtimer_ckpt_load(b->gtimer, r) || !psci_ckpt_load(b->psci, r))
        return false;

    /* ---- console, RTC, virtio, display ---- */
    if (!board_io_ckpt_load(b, r))
        return false;

    /* ---- the GPU ---- */
    if (b->gpu && !mali_ckpt_load(b->gpu, r))
        return false;
    /* RAM, GIC and timers are loaded by now: chains in flight may go on */
    if (b->gpu)
        mali_ckpt_resume(b->gpu);

    return ckpt_ok(r);
}
