/* A simulated GPU address space for engine tests: VA_BASE .. VA_BASE + VA_SIZE in 4 KiB pages,
 * each mapped or not (mapped[]), a bump allocator, word accessors, and the read/write calls of
 * gpu_mem_if over it (faults: FAULT_CODE).  Included once per test program. */
#ifndef MALIBU_TESTS_GPU_FLAT_MEM_H
#define MALIBU_TESTS_GPU_FLAT_MEM_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define VA_BASE 0x100000000ull
#define VA_SIZE (8u << 20)
#define NPAGES (VA_SIZE / 4096)
#define FAULT_CODE 0xC3u        /* TRANSLATION_FAULT level 3 */

static uint8_t *vmem;
static uint8_t mapped[NPAGES];
static uint64_t next_va;

/* Host address of [va, va + len) when every page of it is mapped, else NULL. */
static uint8_t *host(uint64_t va, size_t len)
{
    if (va < VA_BASE || va + len > VA_BASE + VA_SIZE || va + len < va)
        return NULL;
    for (uint64_t p = (va - VA_BASE) / 4096; p <= (va + len - 1 - VA_BASE) / 4096; p++)
        if (!mapped[p])
            return NULL;
    return vmem + (va - VA_BASE);
}

static uint32_t flat_read(void *ctx, uint64_t va, void *buf, size_t len)
{
    (void)ctx;
    uint8_t *h = host(va, len);
    if (!h)
        return FAULT_CODE;
    memcpy(buf, h, len);
    return 0;
}

static uint32_t flat_write(void *ctx, uint64_t va, const void *buf, size_t len)
{
    (void)ctx;
    uint8_t *h = host(va, len);
    if (!h)
        return FAULT_CODE;
    memcpy(h, buf, len);
    return 0;
}

/* Everything zero and mapped, the allocator at VA_BASE. */
static void flat_reset(void)
{
    if (!vmem)
        vmem = malloc(VA_SIZE);
    ck_assert_ptr_nonnull(vmem);
    memset(vmem, 0, VA_SIZE);
    memset(mapped, 1, sizeof(mapped));
    next_va = VA_BASE;
}

static uint64_t alloc(size_t len, size_t align)
{
    next_va = (next_va + align - 1) & ~(uint64_t)(align - 1);
    uint64_t va = next_va;
    next_va += len;
    ck_assert(next_va <= VA_BASE + VA_SIZE);
    return va;
}

static void w32(uint64_t va, uint32_t v) { memcpy(host(va, 4), &v, 4); }
static void w64(uint64_t va, uint64_t v) { memcpy(host(va, 8), &v, 8); }

#endif
