/* Test harness for the Mali device unit tests (tests/unit/test_mali_*.c): a bus with RAM, a
 * GIC set up the way Linux does, the GPU, a page-table builder in guest RAM and the register
 * sequences panfrost uses. */
#ifndef MALIBU_TESTS_MALI_HARNESS_H
#define MALIBU_TESTS_MALI_HARNESS_H

#include <check.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../devices/dev_check.h"
#include "../../devices/board_gpu.h"
#include "../../devices/mali/mali_int.h"

#define H_RAM_BASE 0x80000000ull
#define H_RAM_SIZE (32ull << 20)
#define H_INTID_GPU 64
#define H_INTID_JOB 65
#define H_INTID_MMU 66

/* PTE flags as panfrost maps BOs: leaf, AttrIndx 0, RW, outer shareable */
#define H_PTE_RW (PTE_TYPE_LEAF | PTE_READ | PTE_WRITE | (2ull << 8))
#define H_PTE_RO (PTE_TYPE_LEAF | PTE_READ | (2ull << 8))
#define H_PTE_NOEXEC (PTE_XN)

typedef struct H {
    Bus *bus;
    Gic *gic;
    Mali *m;
    BoardGpu *engine;   /* h_attach_engine: the engine behind m */
    uint8_t *ram;
    uint64_t next_page; /* page-table / data page allocator (PA) */
    uint64_t root[AS_NUM];
} H;

static H h;

static void h_gic_out(void *o, unsigned cpu, bool irq, bool fiq) { (void)o; (void)cpu; (void)irq; (void)fiq; }

static inline uint32_t rd(uint32_t off) { return (uint32_t)mali_mmio_read(h.m, off, 4); }
static inline void wr(uint32_t off, uint32_t v) { mali_mmio_write(h.m, off, v, 4); }

static inline void h_setup_model(const char *model)
{
    memset(&h, 0, sizeof h);
    h.bus = bus_new();
    ck_assert_ptr_nonnull(h.bus);
    h.ram = bus_add_ram(h.bus, "ram", H_RAM_BASE, H_RAM_SIZE, false);
    ck_assert_ptr_nonnull(h.ram);
    h.gic = gic_new(1, h_gic_out, NULL);
    ck_assert_ptr_nonnull(h.gic);
    /* Linux-like GIC: distributor + CPU interface on, GPU SPIs enabled, priority 0xA0 */
    gic_dist_write(h.gic, 0, 0x000, 1, 4);
    gic_dist_write(h.gic, 0, 0x100 + 4 * (H_INTID_GPU / 32), 7u << (H_INTID_GPU % 32), 4);
    gic_dist_write(h.gic, 0, 0x400 + H_INTID_GPU, 0xA0A0A0A0, 4);
    gic_dist_write(h.gic, 0, 0x800 + H_INTID_GPU, 0x01010101, 4);
    gic_cpu_write(h.gic, 0, 0x04, 0xF0, 4);
    gic_cpu_write(h.gic, 0, 0x00, 1, 4);
    h.m = board_gpu_new_mali(h.bus, h.gic, mali_model_find(model), H_INTID_JOB, H_INTID_MMU, H_INTID_GPU);
    ck_assert_ptr_nonnull(h.m);
    bus_add_mmio(h.bus, 0x2D000000, MALI_MMIO_SIZE, &board_gpu_mmio_ops, h.m);
    bus_freeze(h.bus);
    h.next_page = H_RAM_BASE + (16ull << 20); /* upper half: page tables and data */
}

static inline void h_setup(void) { h_setup_model("g71"); }

/* The shader-core engine behind h.m, as the board makes it (p NULL: the defaults). */
static inline void h_attach_engine_with(const BoardGpuParams *p)
{
    BoardGpuParams d;
    char err[256];
    board_gpu_params_default(&d);
    h.engine = board_gpu_engine_new(h.m, p ? p : &d, err, sizeof err);
    ck_assert_msg(h.engine != NULL, "%s", err);
}
static inline void h_attach_engine(void) { h_attach_engine_with(NULL); }

static inline void h_teardown(void)
{
    mali_free(h.m);
    board_gpu_engine_free(h.engine);   /* after the device whose jobs run on it */
    gic_free(h.gic);
    bus_free(h.bus);
    memset(&h, 0, sizeof h);
}

/* GIC pending state of an INTID (what the CPU would be interrupted by) */
static inline bool h_line(unsigned intid)
{
    return gic_dist_read(h.gic, 0, 0x200 + 4 * (intid / 32), 4) >> (intid % 32) & 1;
}

static inline uint8_t *h_host(uint64_t pa)
{
    ck_assert(pa >= H_RAM_BASE && pa < H_RAM_BASE + H_RAM_SIZE);
    return h.ram + (pa - H_RAM_BASE);
}

static inline uint64_t h_alloc_page(void)
{
    uint64_t pa = h.next_page;
    h.next_page += 4096;
    ck_assert(h.next_page <= H_RAM_BASE + H_RAM_SIZE);
    memset(h_host(pa), 0, 4096);
    return pa;
}

static inline uint64_t h_rd64(uint64_t pa) { uint64_t v; memcpy(&v, h_host(pa), 8); return v; }
static inline void h_wr64(uint64_t pa, uint64_t v) { memcpy(h_host(pa), &v, 8); }
static inline uint32_t h_rd32(uint64_t pa) { uint32_t v; memcpy(&v, h_host(pa), 4); return v; }
static inline void h_wr32(uint64_t pa, uint32_t v) { memcpy(h_host(pa), &v, 4); }

/* Map va -> pa in AS n's tables (creating them) with a leaf at level 3 (4 KiB) or 2 (2 MiB). */
static inline uint64_t *h_pte_slot(unsigned as, uint64_t va, unsigned leaf_level)
{
    if (!h.root[as])
        h.root[as] = h_alloc_page();
    uint64_t table = h.root[as];
    for (unsigned level = 0; level < leaf_level; level++) {
        uint64_t e = table + ((va >> (39 - 9 * level)) & 511) * 8;
        uint64_t pte = h_rd64(e);
        if ((pte & 3) != 3) {
            pte = h_alloc_page() | 3;
            h_wr64(e, pte);
        }
        table = pte & PTE_ADDR_MASK;
    }
    return (uint64_t *)h_host(table + ((va >> (39 - 9 * leaf_level)) & 511) * 8);
}

static inline void h_map(unsigned as, uint64_t va, uint64_t pa, uint64_t flags)
{
    uint64_t *slot = h_pte_slot(as, va, 3);
    *slot = (pa & PTE_ADDR_MASK) | flags;
}

static inline void h_map_block(unsigned as, uint64_t va, uint64_t pa, uint64_t flags)
{
    uint64_t *slot = h_pte_slot(as, va, 2);
    *slot = (pa & PTE_ADDR_MASK & ~0x1FFFFFull) | flags;
}

static inline void h_unmap(unsigned as, uint64_t va) { *h_pte_slot(as, va, 3) = 0; }

#define ASR(n, r) (AS_BASE + (n) * AS_STRIDE + (r))
#define JSR(n, r) (JS_BASE + (n) * JS_STRIDE + (r))

/* panfrost_mmu_enable: lock everything, FLUSH_MEM, TRANSTAB/MEMATTR, UPDATE */
static inline void h_as_enable(unsigned as)
{
    if (!h.root[as])
        h.root[as] = h_alloc_page();
    wr(ASR(as, AS_LOCKADDR_LO), 63 - 1);
    wr(ASR(as, AS_LOCKADDR_HI), 0);
    wr(ASR(as, AS_COMMAND), AS_CMD_LOCK);
    ck_assert_uint_eq(rd(ASR(as, AS_STATUS)), 0);
    wr(ASR(as, AS_COMMAND), AS_CMD_FLUSH_MEM);
    uint64_t t = h.root[as] | 4 | AS_TRANSTAB_ADRMODE_TABLE;
    wr(ASR(as, AS_TRANSTAB_LO), (uint32_t)t);
    wr(ASR(as, AS_TRANSTAB_HI), (uint32_t)(t >> 32));
    wr(ASR(as, AS_MEMATTR_LO), 0x00888D88);
    wr(ASR(as, AS_MEMATTR_HI), 0);
    wr(ASR(as, AS_COMMAND), AS_CMD_UPDATE);
}

static inline void h_as_disable(unsigned as)
{
    wr(ASR(as, AS_LOCKADDR_LO), 62);
    wr(ASR(as, AS_COMMAND), AS_CMD_LOCK);
    wr(ASR(as, AS_COMMAND), AS_CMD_FLUSH_MEM);
    wr(ASR(as, AS_TRANSTAB_LO), 0);
    wr(ASR(as, AS_TRANSTAB_HI), 0);
    wr(ASR(as, AS_MEMATTR_LO), 0);
    wr(ASR(as, AS_MEMATTR_HI), 0);
    wr(ASR(as, AS_COMMAND), AS_CMD_UPDATE);
}

/* panfrost's lock_region + FLUSH_PT for [va, va+size) */
static inline void h_flush_range(unsigned as, uint64_t va, uint64_t size)
{
    uint64_t end = va + size;
    unsigned width = 64 - (unsigned)__builtin_clzll(va ^ (end - 1));
    if (width < 15)
        width = 15;
    width -= 1;
    uint64_t region = (va & ~((1ull << width) - 1)) | width;
    wr(ASR(as, AS_LOCKADDR_LO), (uint32_t)region);
    wr(ASR(as, AS_LOCKADDR_HI), (uint32_t)(region >> 32));
    wr(ASR(as, AS_COMMAND), AS_CMD_LOCK);
    wr(ASR(as, AS_COMMAND), AS_CMD_FLUSH_PT);
}

/* panfrost's soft reset + power on + IRQ setup */
static inline void h_driver_init(void)
{
    wr(GPU_IRQ_MASK, 0);
    wr(GPU_IRQ_CLEAR, GPU_IRQ_RESET_COMPLETED);
    wr(GPU_COMMAND, GPU_CMD_SOFT_RESET);
    ck_assert(rd(GPU_IRQ_RAWSTAT) & GPU_IRQ_RESET_COMPLETED);
    wr(GPU_IRQ_CLEAR, GPU_IRQ_ALL);
    wr(GPU_IRQ_MASK, 0x00030081);
    wr(GPU_TILER_CONFIG, rd(GPU_TILER_CONFIG));
    wr(GPU_L2_PWRON_LO, rd(GPU_L2_PRESENT_LO));
    ck_assert_uint_eq(rd(GPU_L2_READY_LO), rd(GPU_L2_PRESENT_LO));
    wr(GPU_SHADER_PWRON_LO, rd(GPU_SHADER_PRESENT_LO));
    ck_assert_uint_eq(rd(GPU_SHADER_READY_LO), rd(GPU_SHADER_PRESENT_LO));
    wr(GPU_TILER_PWRON_LO, rd(GPU_TILER_PRESENT_LO));
    ck_assert_uint_eq(rd(GPU_TILER_READY_LO), rd(GPU_TILER_PRESENT_LO));
    wr(MMU_IRQ_CLEAR, ~0u);
    wr(MMU_IRQ_MASK, ~0u);
    wr(JOB_IRQ_CLEAR, 0x70007);
    wr(JOB_IRQ_MASK, 0x70007);
}

/* ---- job chains in GPU memory ------------------------------------------------------------- */
/* A data arena mapped at GPU VA H_VA_BASE (AS 0..n as the test wants), backed by RAM at
 * H_ARENA_PA: GPU VA H_VA_BASE + x <-> PA H_ARENA_PA + x. */
#define H_VA_BASE 0x02000000ull
#define H_ARENA_PA (H_RAM_BASE + 0x100000)
#define H_ARENA_SIZE (4ull << 20)

static inline void h_map_arena(unsigned as)
{
    for (uint64_t off = 0; off < H_ARENA_SIZE; off += 4096)
        h_map(as, H_VA_BASE + off, H_ARENA_PA + off, H_PTE_RW);
}

static inline uint64_t h_va2pa(uint64_t va) { return H_ARENA_PA + (va - H_VA_BASE); }

static inline void h_job_header(uint64_t va, unsigned type, unsigned index, unsigned dep1,
                                unsigned dep2, bool barrier, uint64_t next)
{
    uint64_t pa = h_va2pa(va);
    memset(h_host(pa), 0, 32);
    h_wr32(pa + 16, 1u | (type << 1) | (barrier ? 1u << 8 : 0) | (index << 16));
    h_wr32(pa + 20, dep1 | (dep2 << 16));
    h_wr64(pa + 24, next);
}

static inline void h_write_value(uint64_t va, unsigned index, unsigned dep1, unsigned dep2,
                                 uint64_t next, uint64_t target, unsigned type, uint64_t imm)
{
    h_job_header(va, JOB_TYPE_WRITE_VALUE, index, dep1, dep2, false, next);
    uint64_t pa = h_va2pa(va) + 32;
    memset(h_host(pa), 0, 24);
    h_wr64(pa, target);
    h_wr32(pa + 8, type);
    h_wr64(pa + 16, imm);
}

static inline uint32_t h_job_status(uint64_t va) { return h_rd32(h_va2pa(va)); }

/* panfrost_job_hw_submit */
static inline void h_submit_on(unsigned js, uint64_t head, unsigned as, bool chain_flag, uint32_t affinity)
{
    ck_assert_uint_eq(rd(JSR(js, JS_COMMAND_NEXT)), 0);
    wr(JSR(js, JS_HEAD_NEXT_LO), (uint32_t)head);
    wr(JSR(js, JS_HEAD_NEXT_HI), (uint32_t)(head >> 32));
    wr(JSR(js, JS_AFFINITY_NEXT_LO), affinity);
    wr(JSR(js, JS_AFFINITY_NEXT_HI), 0);
    uint32_t cfg = as | (8u << 16) | (3u << 8) | (3u << 12) | (1u << 14) |
                   (chain_flag ? JS_CONFIG_JOB_CHAIN_FLAG : 0);
    wr(JSR(js, JS_CONFIG_NEXT), cfg);
    wr(JSR(js, JS_FLUSH_ID_NEXT), rd(GPU_LATEST_FLUSH_ID));
    wr(JSR(js, JS_COMMAND_NEXT), JS_CMD_START);
}

static inline void h_submit(unsigned js, uint64_t head, unsigned as, bool chain_flag)
{
    h_submit_on(js, head, as, chain_flag, rd(GPU_SHADER_PRESENT_LO));
}

static inline uint64_t h_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Wait until (reg & mask) != 0 (5 s at most); returns the value. */
static inline uint32_t h_wait(uint32_t reg, uint32_t mask)
{
    uint64_t end = h_now_ms() + 5000;
    uint32_t v;
    while (!((v = rd(reg)) & mask) && h_now_ms() < end)
        dev_sleep_ms(1);
    return v;
}

/* Wait until the slot's active job is stalled on the MMU (test introspection). */
static inline bool h_wait_stalled(unsigned js)
{
    uint64_t end = h_now_ms() + 5000;
    for (;;) {
        pthread_mutex_lock(&h.m->lock);
        bool st = h.m->slot[js].stalled != 0;
        pthread_mutex_unlock(&h.m->lock);
        if (st)
            return true;
        if (h_now_ms() > end)
            return false;
        dev_sleep_ms(1);
    }
}

#endif
