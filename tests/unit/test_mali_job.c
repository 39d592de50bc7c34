/* devices/mali: job manager: WRITE_VALUE chains with dependencies (in and out of list order,
 * barriers), every WRITE_VALUE type, NULL and CACHE_FLUSH jobs, header write-back, MMU faults
 * (growable-heap retry, unhandled fault, bus fault), malformed chains, compute dispatch through
 * the engine interface, soft/hard stop, the _NEXT latch and FAILED hold, resets mid-job,
 * independent slots, and a driver-like submit/IRQ loop. */
#include "mali_harness.h"

#define J(n) (H_VA_BASE + 0x1000 + 0x40 * (n)) /* job headers */
#define D(n) (H_VA_BASE + 0x8000 + 8 * (n))    /* data words */

static void setup_as(unsigned as)
{
    h_setup();
    h_driver_init();
    h_map_arena(as);
    h_as_enable(as);
}

/* The driver's job IRQ thread for one slot: returns RAWSTAT bits of the slot, clears them. */
static uint32_t wait_slot(unsigned js)
{
    uint32_t raw = h_wait(JOB_IRQ_RAWSTAT, 0x10001u << js) & (0x10001u << js);
    wr(JOB_IRQ_CLEAR, raw);
    return raw;
}

START_TEST(write_value_chain_with_deps)
{
    setup_as(0);
    h_write_value(J(0), 1, 0, 0, J(1), D(0), WRITE_VALUE_IMM32, 0xCAFEF00D);
    h_write_value(J(1), 2, 1, 0, J(2), D(1), WRITE_VALUE_IMM64, 0x1122334455667788ull);
    h_write_value(J(2), 3, 1, 2, 0, D(2), WRITE_VALUE_IMM8, 0x1FF);
    h_wr64(h_va2pa(D(2)), 0xFFFFFFFFFFFFFF00ull);
    ck_assert(!h_line(H_INTID_JOB));
    h_submit(1, J(0), 0, false);
    ck_assert_uint_eq(rd(JSR(1, JS_COMMAND_NEXT)), 0); /* picked up at once */
    ck_assert_uint_eq(h_wait(JOB_IRQ_RAWSTAT, 0x20002), 0x2);
    ck_assert(h_line(H_INTID_JOB));
    ck_assert_uint_eq(rd(JOB_IRQ_STATUS), 0x2);
    ck_assert_uint_eq(h_rd32(h_va2pa(D(0))), 0xCAFEF00D);
    ck_assert_uint_eq(h_rd64(h_va2pa(D(1))), 0x1122334455667788ull);
    ck_assert_uint_eq(h_rd64(h_va2pa(D(2))), 0xFFFFFFFFFFFFFFFFull); /* one byte written */
    for (int i = 0; i < 3; i++) {
        ck_assert_uint_eq(h_job_status(J(i)), MALI_EXC_DONE);
        ck_assert_uint_eq(h_rd32(h_va2pa(J(i)) + 4), 0);
        ck_assert_uint_eq(h_rd64(h_va2pa(J(i)) + 8), 0);
    }
    ck_assert_uint_eq(rd(JSR(1, JS_STATUS)), MALI_EXC_DONE);
    wr(JOB_IRQ_CLEAR, 0x2);
    ck_assert_uint_eq(rd(JOB_IRQ_JS_STATE), 0);
    ck_assert(!h_line(H_INTID_JOB));
    /* DISABLE_DESCRIPTOR_WR_BK: no header write-back */
    h_write_value(J(3), 1, 0, 0, 0, D(3), WRITE_VALUE_IMM16, 0xBEEF);
    wr(JSR(2, JS_HEAD_NEXT_LO), (uint32_t)J(3));
    wr(JSR(2, JS_HEAD_NEXT_HI), 0);
    wr(JSR(2, JS_CONFIG_NEXT), JS_CONFIG_DISABLE_DESCRIPTOR_WR_BK);
    wr(JSR(2, JS_COMMAND_NEXT), JS_CMD_START);
    ck_assert_uint_eq(wait_slot(2), 0x4);
    ck_assert_uint_eq(h_rd32(h_va2pa(D(3))), 0xBEEF);
    ck_assert_uint_eq(h_job_status(J(3)), 0);
    h_teardown();
}
END_TEST

START_TEST(dependency_order)
{
    setup_as(0);
    /* list order A, B, C; A depends on B (later in the list): B, then A, then C */
    h_write_value(J(0), 1, 2, 0, J(1), D(0), WRITE_VALUE_IMM32, 0xAAAA);
    h_write_value(J(1), 2, 0, 0, J(2), D(0), WRITE_VALUE_IMM32, 0xBBBB);
    h_write_value(J(2), 3, 0, 0, J(3), D(1), WRITE_VALUE_IMM32, 0xCCCC);
    /* D (barrier) runs after everything before it; E depends on an index not in the chain */
    h_write_value(J(3), 4, 0, 0, J(4), D(1), WRITE_VALUE_IMM32, 0xDDDD);
    h_wr32(h_va2pa(J(3)) + 16, h_rd32(h_va2pa(J(3)) + 16) | 1u << 8);
    h_write_value(J(4), 5, 99, 0, 0, D(2), WRITE_VALUE_IMM32, 0xEEEE);
    h_submit(0, J(0), 0, false);
    ck_assert_uint_eq(wait_slot(0), 0x1);
    ck_assert_uint_eq(h_rd32(h_va2pa(D(0))), 0xAAAA);
    ck_assert_uint_eq(h_rd32(h_va2pa(D(1))), 0xDDDD);
    ck_assert_uint_eq(h_rd32(h_va2pa(D(2))), 0xEEEE);
    /* cyclic dependencies: JOB_CONFIG_FAULT at the first job that cannot run */
    h_write_value(J(0), 1, 2, 0, J(1), D(3), WRITE_VALUE_IMM32, 1);
    h_write_value(J(1), 2, 1, 0, 0, D(3), WRITE_VALUE_IMM32, 2);
    h_submit(0, J(0), 0, true);
    ck_assert_uint_eq(wait_slot(0), 0x10000);
    ck_assert_uint_eq(rd(JSR(0, JS_STATUS)), MALI_EXC_JOB_CONFIG_FAULT);
    ck_assert_uint_eq(rd(JSR(0, JS_TAIL_LO)), (uint32_t)J(0));
    ck_assert_uint_eq(h_rd32(h_va2pa(D(3))), 0);
    h_teardown();
}
END_TEST

static uint64_t ts_value(void *o) { (void)o; return 0x0123456789ABCDEFull; }
static uint64_t ts_value2(void *o) { (void)o; return 0x0123456789ABCDF0ull; }
static uint64_t fake_counter(void *o) { return *(uint64_t *)o; }

static uint64_t read_timestamp(void)               /* panfrost's read: HI, LO, HI until stable */
{
    uint32_t hi, lo;
    do {
        hi = rd(GPU_TIMESTAMP_HI);
        lo = rd(GPU_TIMESTAMP_LO);
    } while (hi != rd(GPU_TIMESTAMP_HI));
    return (uint64_t)hi << 32 | lo;
}

START_TEST(write_value_types)
{
    setup_as(0);
    mali_set_timestamp(h.m, ts_value, NULL, 0);
    wr(GPU_COMMAND, GPU_CMD_CYCLE_COUNT_START);
    for (int i = 0; i < 8; i++)
        h_wr64(h_va2pa(D(i)), 0x5555555555555555ull);
    h_write_value(J(0), 1, 0, 0, J(1), D(0), WRITE_VALUE_CYCLE_COUNTER, 0);
    h_write_value(J(1), 2, 0, 0, J(2), D(1), WRITE_VALUE_SYSTEM_TIMESTAMP, 0);
    h_write_value(J(2), 3, 0, 0, J(3), D(2), WRITE_VALUE_ZERO, 0x77);
    h_write_value(J(3), 4, 0, 0, J(4), D(3), WRITE_VALUE_IMM8, 0xA1A2A3A4A5A6A7A8ull);
    h_write_value(J(4), 5, 0, 0, J(5), D(4), WRITE_VALUE_IMM16, 0xA1A2A3A4A5A6A7A8ull);
    h_write_value(J(5), 6, 0, 0, J(6), D(5), WRITE_VALUE_IMM32, 0xA1A2A3A4A5A6A7A8ull);
    h_write_value(J(6), 7, 0, 0, 0, D(6), WRITE_VALUE_IMM64, 0xA1A2A3A4A5A6A7A8ull);
    h_submit(1, J(0), 0, false);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    uint64_t cyc = h_rd64(h_va2pa(D(0)));
    ck_assert(cyc != 0x5555555555555555ull && cyc < (1ull << 40));
    ck_assert_uint_eq(h_rd64(h_va2pa(D(1))), 0x0123456789ABCDEFull);
    ck_assert_uint_eq(h_rd64(h_va2pa(D(2))), 0);
    ck_assert_uint_eq(h_rd64(h_va2pa(D(3))), 0x55555555555555A8ull);
    ck_assert_uint_eq(h_rd64(h_va2pa(D(4))), 0x555555555555A7A8ull);
    ck_assert_uint_eq(h_rd64(h_va2pa(D(5))), 0x55555555A5A6A7A8ull);
    ck_assert_uint_eq(h_rd64(h_va2pa(D(6))), 0xA1A2A3A4A5A6A7A8ull);
    /* cycle counting off: both counters are written as they stood when it stopped */
    wr(GPU_COMMAND, GPU_CMD_CYCLE_COUNT_STOP);
    uint64_t held = rd(GPU_CYCLE_COUNT_LO) | (uint64_t)rd(GPU_CYCLE_COUNT_HI) << 32;
    ck_assert_uint_ge(held, cyc);
    mali_set_timestamp(h.m, ts_value2, NULL, 0);
    h_write_value(J(0), 1, 0, 0, J(1), D(0), WRITE_VALUE_CYCLE_COUNTER, 0);
    h_write_value(J(1), 2, 0, 0, 0, D(1), WRITE_VALUE_SYSTEM_TIMESTAMP, 0);
    h_submit(1, J(0), 0, false);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    ck_assert_uint_eq(h_rd64(h_va2pa(D(0))), held);
    ck_assert_uint_eq(h_rd64(h_va2pa(D(1))), 0x0123456789ABCDEFull);
    /* and live again once the driver starts it (JD_REQ_CYCLE_COUNT); the CPU has read the clock
     * (rusticl's SUBMIT), so the chain starts at its submission (chain_gpu_time) */
    wr(GPU_COMMAND, GPU_CMD_CYCLE_COUNT_START);
    ck_assert_uint_eq(read_timestamp(), 0x0123456789ABCDF0ull);
    h_submit(1, J(0), 0, false);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    ck_assert_uint_eq(h_rd64(h_va2pa(D(1))), 0x0123456789ABCDF0ull);
    /* unknown types: JOB_CONFIG_FAULT, header gets the code */
    static const unsigned bad[] = { 0, 8, 0xFFFFFFFF };
    for (int i = 0; i < 3; i++) {
        h_write_value(J(7), 1, 0, 0, 0, D(7), bad[i], 1);
        h_submit(1, J(7), 0, i & 1);
        ck_assert_uint_eq(wait_slot(1), 0x20000);
        ck_assert_uint_eq(rd(JSR(1, JS_STATUS)), MALI_EXC_JOB_CONFIG_FAULT);
        ck_assert_uint_eq(h_job_status(J(7)), MALI_EXC_JOB_CONFIG_FAULT);
        ck_assert_uint_eq(h_rd64(h_va2pa(D(7))), 0x5555555555555555ull);
    }
    h_teardown();
}
END_TEST

START_TEST(null_and_cache_flush_jobs)
{
    setup_as(0);
    uint32_t flush = rd(GPU_LATEST_FLUSH_ID);
    h_job_header(J(0), JOB_TYPE_NULL, 1, 0, 0, false, J(1));
    h_job_header(J(1), JOB_TYPE_CACHE_FLUSH, 2, 1, 0, false, J(2));
    h_wr64(h_va2pa(J(1)) + 32, 0x0000000300030003ull);
    h_write_value(J(2), 3, 2, 0, 0, D(0), WRITE_VALUE_IMM32, 42);
    h_submit(1, J(0), 0, false);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    ck_assert_uint_eq(h_job_status(J(0)), MALI_EXC_DONE);
    ck_assert_uint_eq(h_job_status(J(1)), MALI_EXC_DONE);
    ck_assert_uint_eq(h_rd32(h_va2pa(D(0))), 42);
    ck_assert_uint_gt(rd(GPU_LATEST_FLUSH_ID), flush);
    h_teardown();
}
END_TEST

START_TEST(malformed_chains)
{
    setup_as(0);
    struct { uint64_t head; unsigned type; bool is64; uint32_t status; } cases[] = {
        { J(0) + 8, JOB_TYPE_NULL, true, MALI_EXC_JOB_CONFIG_FAULT },   /* misaligned */
        { J(0), JOB_TYPE_NOT_STARTED, true, MALI_EXC_JOB_CONFIG_FAULT },
        { J(0), 0x7F, true, MALI_EXC_JOB_CONFIG_FAULT },
        { J(0), JOB_TYPE_NULL, false, MALI_EXC_JOB_CONFIG_FAULT },       /* 32-bit descriptors */
        { J(0), JOB_TYPE_FRAGMENT, true, MALI_EXC_DATA_INVALID_FAULT },  /* no graphics */
        { J(0), JOB_TYPE_TILER, true, MALI_EXC_DATA_INVALID_FAULT },
        { 0x10000, JOB_TYPE_NULL, true, 0 },                             /* unmapped head */
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        h_job_header(J(0), cases[i].type, 1, 0, 0, false, 0);
        if (!cases[i].is64)
            h_wr32(h_va2pa(J(0)) + 16, h_rd32(h_va2pa(J(0)) + 16) & ~1u);
        h_submit(1, cases[i].head, 0, false);
        if (!cases[i].status) { /* translation fault: stall, the driver gives up on the AS */
            ck_assert(h_wait_stalled(1));
            ck_assert(rd(MMU_IRQ_RAWSTAT) & 1);
            ck_assert_uint_eq(rd(ASR(0, AS_FAULTSTATUS)), MALI_EXC_TRANSLATION_FAULT(2) | MALI_ACCESS_READ << 8);
            wr(MMU_IRQ_CLEAR, 0x10001);
            h_as_disable(0);
            cases[i].status = MALI_EXC_TRANSLATION_FAULT(2);
        }
        ck_assert_uint_eq(wait_slot(1), 0x20000);
        ck_assert_msg(rd(JSR(1, JS_STATUS)) == cases[i].status, "case %u: status 0x%x", i,
                      rd(JSR(1, JS_STATUS)));
        ck_assert_uint_eq(rd(JSR(1, JS_HEAD_LO)), (uint32_t)cases[i].head);
        if (cases[i].head == J(0))
            ck_assert_uint_eq(h_job_status(J(0)), cases[i].status);
    }
    /* a chain whose Next points at itself: stops at the 65535-job limit */
    h_as_enable(0);
    h_job_header(J(0), JOB_TYPE_NULL, 1, 0, 0, false, J(0));
    uint64_t t0 = h_now_ms();
    h_submit(1, J(0), 0, false);
    ck_assert_uint_eq(wait_slot(1), 0x20000);
    ck_assert_uint_eq(rd(JSR(1, JS_STATUS)), MALI_EXC_JOB_CONFIG_FAULT);
    ck_assert_uint_lt(h_now_ms() - t0, 5000);
    h_teardown();
}
END_TEST

START_TEST(fault_retry_growable_heap)
{
    setup_as(3);
    uint64_t heap = 0x10000000, page = h_alloc_page();
    /* the job writes into a heap page that is not backed yet */
    h_write_value(J(0), 1, 0, 0, J(1), heap + 0x1238, WRITE_VALUE_IMM32, 0x600D);
    h_write_value(J(1), 2, 1, 0, 0, D(0), WRITE_VALUE_IMM32, 0x2);
    h_submit(1, J(0), 3, false);
    ck_assert(h_wait_stalled(1));
    ck_assert_uint_eq(rd(JOB_IRQ_JS_STATE), 0x2); /* still active */
    ck_assert_uint_eq(rd(JOB_IRQ_RAWSTAT), 0);
    /* panfrost_mmu_irq_handler_thread: read, clear, map 2 MiB-aligned, LOCK + FLUSH_PT */
    ck_assert_uint_eq(rd(MMU_IRQ_STATUS), 1u << 3);
    uint32_t fs = rd(ASR(3, AS_FAULTSTATUS));
    ck_assert_uint_eq(fs & 0xF8, 0xC0);
    ck_assert_uint_eq((fs >> 8) & 3, MALI_ACCESS_WRITE);
    uint64_t addr = rd(ASR(3, AS_FAULTADDRESS_LO)) | (uint64_t)rd(ASR(3, AS_FAULTADDRESS_HI)) << 32;
    ck_assert_uint_eq(addr, heap + 0x1238);
    wr(MMU_IRQ_CLEAR, 0x10001u << 3);
    h_map(3, heap + 0x1000, page, H_PTE_RW | H_PTE_NOEXEC);
    h_flush_range(3, heap, 2 << 20);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    ck_assert_uint_eq(h_rd32(page + 0x238), 0x600D);
    ck_assert_uint_eq(h_rd32(h_va2pa(D(0))), 2);
    ck_assert_uint_eq(rd(MMU_IRQ_RAWSTAT), 0);
    h_teardown();
}
END_TEST

START_TEST(fault_unhandled_and_bus)
{
    setup_as(2);
    h_write_value(J(0), 1, 0, 0, 0, 0x30000000, WRITE_VALUE_IMM64, 1);
    h_submit(0, J(0), 2, false);
    ck_assert(h_wait_stalled(0));
    wr(MMU_IRQ_MASK, 0);
    wr(MMU_IRQ_CLEAR, 0x10001u << 2);
    h_as_disable(2); /* "Unhandled Page fault": disable the AS to kill the job */
    wr(MMU_IRQ_MASK, ~(1u << 2 | 1u << 18));
    ck_assert_uint_eq(wait_slot(0), 0x10000);
    ck_assert_uint_eq(rd(JSR(0, JS_STATUS)), MALI_EXC_TRANSLATION_FAULT(2));
    /* the AS is gone: no header write-back possible */
    ck_assert_uint_eq(h_job_status(J(0)), 0);
    ck_assert(!h_line(H_INTID_MMU));
    /* the GPU recovers: re-enable (as panfrost_mmu_as_get does) and run a good job */
    wr(MMU_IRQ_CLEAR, 1u << 2);
    wr(MMU_IRQ_MASK, ~0u);
    h_as_enable(2);
    h_write_value(J(1), 1, 0, 0, 0, D(0), WRITE_VALUE_IMM32, 7);
    h_submit(0, J(1), 2, true);
    ck_assert_uint_eq(wait_slot(0), 0x1);
    ck_assert_uint_eq(h_rd32(h_va2pa(D(0))), 7);
    /* a page that maps outside RAM: bus fault, no stall */
    h_map(2, 0x04000000, 0x40000000, H_PTE_RW);
    h_write_value(J(2), 1, 0, 0, 0, 0x04000010, WRITE_VALUE_IMM32, 7);
    h_submit(0, J(2), 2, false);
    ck_assert_uint_eq(wait_slot(0), 0x10000);
    ck_assert_uint_eq(rd(JSR(0, JS_STATUS)), MALI_EXC_JOB_BUS_FAULT);
    /* a read-only target: permission fault, reported on the MMU and not retried */
    h_map(2, 0x04001000, h_alloc_page(), H_PTE_RO);
    h_write_value(J(3), 1, 0, 0, 0, 0x04001000, WRITE_VALUE_IMM32, 7);
    h_submit(0, J(3), 2, true);
    ck_assert_uint_eq(wait_slot(0), 0x10000);
    ck_assert_uint_eq(rd(JSR(0, JS_STATUS)), MALI_EXC_PERM_FAULT(3));
    ck_assert_uint_eq(rd(ASR(2, AS_FAULTSTATUS)), MALI_EXC_PERM_FAULT(3) | MALI_ACCESS_WRITE << 8);
    ck_assert_uint_eq(h_job_status(J(3)), MALI_EXC_PERM_FAULT(3));
    ck_assert_uint_eq(h_rd64(h_va2pa(J(3)) + 8), 0x04001000);
    ck_assert(h_line(H_INTID_MMU));
    /* a job on an AS that is not configured */
    wr(MMU_IRQ_CLEAR, ~0u);
    h_submit(0, J(1), 6, false);
    ck_assert_uint_eq(wait_slot(0), 0x10000);
    ck_assert_uint_eq(rd(JSR(0, JS_STATUS)), MALI_EXC_TRANSLATION_FAULT(0));
    h_teardown();
}
END_TEST

/* ---- compute dispatch ------------------------------------------------------------------- */

typedef struct Engine {
    unsigned calls;
    MaliComputeJob last;
    uint64_t target;
} Engine;

static uint64_t add5(uint64_t old, void *arg) { (void)arg; return old + 5; }

static uint32_t engine_fn(void *opaque, const MaliComputeJob *job)
{
    Engine *e = opaque;
    e->calls++;
    e->last = *job;
    uint8_t hdr[32];
    uint32_t r = mali_gpu_read(job->ctx, job->job_va, hdr, sizeof hdr);
    if (r)
        return r;
    uint32_t v = 0x5EED0000u | job->type;
    r = mali_gpu_write(job->ctx, e->target, &v, 4);
    if (r)
        return r;
    uint64_t old;
    r = mali_gpu_atomic(job->ctx, e->target + 8, 8, add5, NULL, &old);
    if (r)
        return r;
    if (mali_gpu_atomic(job->ctx, e->target + 2, 4, add5, NULL, &old) != 0x56)
        return MALI_EXC_UNKNOWN;
    return mali_job_should_stop(job->ctx) ? MALI_EXC_UNKNOWN : MALI_EXC_DONE;
}

START_TEST(compute_dispatch)
{
    setup_as(1);
    /* no engine: DATA_INVALID_FAULT */
    h_job_header(J(0), JOB_TYPE_COMPUTE, 1, 0, 0, true, 0);
    h_submit(1, J(0), 1, false);
    ck_assert_uint_eq(wait_slot(1), 0x20000);
    ck_assert_uint_eq(rd(JSR(1, JS_STATUS)), MALI_EXC_DATA_INVALID_FAULT);
    ck_assert_uint_eq(h_job_status(J(0)), MALI_EXC_DATA_INVALID_FAULT);
    /* an engine */
    Engine e = { .target = D(0) };
    mali_set_compute_engine(h.m, engine_fn, &e);
    h_wr64(h_va2pa(D(1)), 10);
    h_job_header(J(0), JOB_TYPE_COMPUTE, 1, 0, 0, true, 0);
    h_submit(1, J(0), 1, true);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    ck_assert_uint_eq(e.calls, 1);
    ck_assert_uint_eq(e.last.job_va, J(0));
    ck_assert_uint_eq(e.last.as, 1);
    ck_assert_uint_eq(e.last.slot, 1);
    ck_assert_uint_eq(e.last.arch_major, 6);
    ck_assert_uint_eq(e.last.type, JOB_TYPE_COMPUTE);
    ck_assert_uint_eq(e.last.shader_present, 0xF);
    ck_assert_uint_eq(h_rd32(h_va2pa(D(0))), 0x5EED0004);
    ck_assert_uint_eq(h_rd64(h_va2pa(D(1))), 15);
    ck_assert_uint_eq(h_job_status(J(0)), MALI_EXC_DONE);
    /* the engine's fault ends the job with that status and address */
    e.target = 0x50000000;
    h_submit(1, J(0), 1, false);
    ck_assert(h_wait_stalled(1));
    wr(MMU_IRQ_CLEAR, ~0u);
    h_as_disable(1);
    ck_assert_uint_eq(wait_slot(1), 0x20000);
    ck_assert_uint_eq(rd(JSR(1, JS_STATUS)), MALI_EXC_TRANSLATION_FAULT(1));
    /* with the AS alive, the header records the engine's fault status and address */
    h_as_enable(1);
    wr(MMU_IRQ_CLEAR, ~0u);
    e.target = H_VA_BASE + H_ARENA_SIZE - 2; /* write crosses into an unmapped page */
    h_map(1, H_VA_BASE + H_ARENA_SIZE, 0x40000000, H_PTE_RW); /* ... that is not RAM */
    h_submit(1, J(0), 1, false);
    ck_assert_uint_eq(wait_slot(1), 0x20000);
    ck_assert_uint_eq(rd(JSR(1, JS_STATUS)), MALI_EXC_JOB_BUS_FAULT);
    ck_assert_uint_eq(h_job_status(J(0)), MALI_EXC_JOB_BUS_FAULT);
    ck_assert_uint_eq(h_rd64(h_va2pa(J(0)) + 8), H_VA_BASE + H_ARENA_SIZE);
    mali_set_compute_engine(h.m, NULL, NULL);
    h_teardown();
}
END_TEST

/* An engine that runs until stopped (a long kernel), from two threads at once. */
/* ---- board clock model: holds and modelled time ----------------------------------------- */

typedef struct ClockRec {
    int holds;               /* atomic */
    uint64_t advanced;       /* atomic */
    int hold_in_engine;
    uint64_t heap;
} ClockRec;

static void rec_hold(void *o, int d) { __atomic_add_fetch(&((ClockRec *)o)->holds, d, __ATOMIC_SEQ_CST); }
static void rec_advance(void *o, uint64_t ns) { __atomic_add_fetch(&((ClockRec *)o)->advanced, ns, __ATOMIC_SEQ_CST); }

static uint32_t clock_engine(void *opaque, const MaliComputeJob *job)
{
    ClockRec *r = opaque;
    r->hold_in_engine = __atomic_load_n(&r->holds, __ATOMIC_SEQ_CST);
    for (int i = 0; i < 3; i++)
        mali_job_progress(job->ctx, 1000);
    mali_job_progress(job->ctx, 7);
    uint32_t v = 1;
    return r->heap ? mali_gpu_write(job->ctx, r->heap, &v, 4) : MALI_EXC_DONE; /* may stall */
}

START_TEST(compute_clock_model)
{
    setup_as(1);
    ClockRec r = { 0 };
    MaliClockModel cm = { .hold = rec_hold, .advance = rec_advance, .opaque = &r };
    mali_set_clock_model(h.m, &cm);
    mali_set_compute_engine(h.m, clock_engine, &r);
    h_job_header(J(0), JOB_TYPE_COMPUTE, 1, 0, 0, true, 0);
    h_submit(1, J(0), 1, true);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    ck_assert_int_eq(r.hold_in_engine, 1);
    ck_assert_int_eq(r.holds, 0);
    /* G71 MP4: 4 cores x 3 engines x 500 MHz = 6e9 warp-tuples/s; 3007 tuples -> 501.17 ns */
    ck_assert_uint_eq(r.advanced, 501);
    /* JS_AFFINITY limits the cores, and so the modelled rate: 2 cores, 3e9/s -> 1002.3 ns */
    r.advanced = 0;
    h_submit_on(1, J(0), 1, true, 0x3);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    ck_assert_uint_eq(r.advanced, 1002);
    /* waiting for the CPU on a translation fault releases the hold until the driver maps */
    r.heap = 0x10000000;
    h_submit(1, J(0), 1, true);
    ck_assert(h_wait_stalled(1));
    ck_assert_int_eq(__atomic_load_n(&r.holds, __ATOMIC_SEQ_CST), 0);
    wr(MMU_IRQ_CLEAR, ~0u);
    h_map(1, r.heap, h_alloc_page(), H_PTE_RW | H_PTE_NOEXEC);
    h_flush_range(1, r.heap, 2 << 20);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    ck_assert_int_eq(r.hold_in_engine, 1);
    ck_assert_int_eq(r.holds, 0);
    mali_set_compute_engine(h.m, NULL, NULL);
    mali_set_clock_model(h.m, NULL);
    h_teardown();
}
END_TEST

typedef struct GateRec {
    uint64_t *counter;  /* the fake system counter */
    int open;           /* atomic: the engine may finish */
    uint64_t jump;      /* the counter after the job (the host's emulation time) */
} GateRec;

/* 3007 warp-tuples (501 ns on G71 MP4), after the test opens the gate; the system counter has
 * moved far meanwhile (an emulation much slower than the modelled GPU) */
static uint32_t gate_engine(void *opaque, const MaliComputeJob *job)
{
    GateRec *g = opaque;
    while (!__atomic_load_n(&g->open, __ATOMIC_SEQ_CST))
        dev_sleep_ms(1);
    if (g->jump)
        __atomic_store_n(g->counter, g->jump, __ATOMIC_SEQ_CST);
    for (int i = 0; i < 3; i++)
        mali_job_progress(job->ctx, 1000);
    mali_job_progress(job->ctx, 7);
    return MALI_EXC_DONE;
}

/* The WRITE_VALUE timestamps of a chain: when it starts on a GPU at the modelled speed (the
 * modelled end of the slot's previous chain, or the latest GPU_TIMESTAMP the CPU read before
 * submitting it; not the counter at submission, which is host-paced CPU time) plus the modelled
 * time of the compute jobs before them; never later than the system counter, which the board's
 * clock.reach moves up to the modelled time when it lags. */
static uint64_t reach_counter(void *o, uint64_t ns)
{
    uint64_t *ctr = o, ticks = (ns + 9) / 10;          /* 100 MHz */
    if (__atomic_load_n(ctr, __ATOMIC_SEQ_CST) < ticks)
        __atomic_store_n(ctr, ticks, __ATOMIC_SEQ_CST);
    return __atomic_load_n(ctr, __ATOMIC_SEQ_CST) * 10;
}

START_TEST(chain_gpu_time)
{
    setup_as(1);
    uint64_t ctr = 1000;
    GateRec g = { .counter = &ctr, .jump = 200000 };
    mali_set_compute_engine(h.m, gate_engine, &g);
    mali_set_timestamp(h.m, fake_counter, &ctr, 100000000); /* 100 MHz: 10 ns per tick */
    wr(GPU_COMMAND, GPU_CMD_CYCLE_COUNT_START);
    for (int i = 0; i < 4; i++)
        h_wr64(h_va2pa(D(i)), 0);
    /* chain A: timestamp, compute, timestamp, compute, timestamp */
    h_write_value(J(0), 1, 0, 0, J(1), D(0), WRITE_VALUE_SYSTEM_TIMESTAMP, 0);
    h_job_header(J(1), JOB_TYPE_COMPUTE, 2, 1, 0, true, J(2));
    h_write_value(J(2), 3, 2, 0, J(3), D(1), WRITE_VALUE_SYSTEM_TIMESTAMP, 0);
    h_job_header(J(3), JOB_TYPE_COMPUTE, 4, 3, 0, true, J(4));
    h_write_value(J(4), 5, 4, 0, 0, D(2), WRITE_VALUE_SYSTEM_TIMESTAMP, 0);
    /* chain B: one timestamp, queued behind A in the _NEXT registers */
    h_write_value(J(6), 1, 0, 0, 0, D(3), WRITE_VALUE_SYSTEM_TIMESTAMP, 0);
    ck_assert_uint_eq(read_timestamp(), 1000);       /* the CPU sees 1000 */
    h_submit(1, J(0), 1, false);
    while (rd(JSR(1, JS_COMMAND_NEXT)) != 0)
        dev_sleep_ms(1);
    __atomic_store_n(&ctr, 1010, __ATOMIC_SEQ_CST);
    h_submit(1, J(6), 1, true);                      /* submitted at 1010, A still running */
    __atomic_store_n(&g.open, 1, __ATOMIC_SEQ_CST);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    while (rd(JOB_IRQ_JS_STATE) & 0x00020002u)
        dev_sleep_ms(1);
    wr(JOB_IRQ_CLEAR, ~0u);
    ck_assert_uint_eq(h_rd64(h_va2pa(D(0))), 1000);  /* A's start: the time the CPU saw */
    ck_assert_uint_eq(h_rd64(h_va2pa(D(1))), 1050);  /* + 501 ns of modelled work */
    ck_assert_uint_eq(h_rd64(h_va2pa(D(2))), 1100);  /* + 1002 ns */
    ck_assert_uint_eq(h_rd64(h_va2pa(D(3))), 1100);  /* B starts when A ends at that speed */
    /* submitted with the slot idle, much later, the CPU not having read the clock: B starts
     * where A ended (the CPU's time between them does not count) */
    g.jump = 0;
    __atomic_store_n(&ctr, 300000, __ATOMIC_SEQ_CST);
    h_submit(1, J(6), 1, false);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    ck_assert_uint_eq(h_rd64(h_va2pa(D(3))), 1100);
    /* ... and once the CPU has read GPU_TIMESTAMP, no earlier than what it saw */
    ck_assert_uint_eq(read_timestamp(), 300000);
    h_submit(1, J(6), 1, false);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    ck_assert_uint_eq(h_rd64(h_va2pa(D(3))), 300000);
    /* a counter that has not moved as far as the modelled work, no clock.reach: never past it */
    h_submit(1, J(0), 1, false);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    for (int i = 0; i < 3; i++)
        ck_assert_uint_eq(h_rd64(h_va2pa(D(i))), 300000);
    /* with clock.reach the board clock moves up to the modelled time: exact timestamps, and the
     * counter the CPU reads after the interrupt is not earlier than the last of them */
    MaliClockModel cm = { .reach = reach_counter, .opaque = &ctr };
    mali_set_clock_model(h.m, &cm);
    h_submit(1, J(0), 1, false);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    ck_assert_uint_eq(h_rd64(h_va2pa(D(0))), 300000);
    ck_assert_uint_eq(h_rd64(h_va2pa(D(1))), 300050);
    ck_assert_uint_eq(h_rd64(h_va2pa(D(2))), 300100);
    ck_assert_uint_eq(__atomic_load_n(&ctr, __ATOMIC_SEQ_CST), 300100);
    mali_set_clock_model(h.m, NULL);
    /* cycle counting off: the value it stopped at */
    wr(GPU_COMMAND, GPU_CMD_CYCLE_COUNT_STOP);
    __atomic_store_n(&ctr, 400000, __ATOMIC_SEQ_CST);
    h_submit(1, J(0), 1, false);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    for (int i = 0; i < 3; i++)
        ck_assert_uint_eq(h_rd64(h_va2pa(D(i))), 300100);
    mali_set_compute_engine(h.m, NULL, NULL);
    h_teardown();
}
END_TEST

static int spin_started;

static void *spin_thread(void *arg)
{
    MaliJobCtx *ctx = arg;
    uint32_t v = 0;
    while (!mali_job_should_stop(ctx))
        (void)mali_gpu_read(ctx, H_VA_BASE, &v, 4);
    return NULL;
}

static uint32_t spin_engine(void *opaque, const MaliComputeJob *job)
{
    (void)opaque;
    pthread_t t;
    pthread_create(&t, NULL, spin_thread, job->ctx);
    __atomic_store_n(&spin_started, 1, __ATOMIC_SEQ_CST);
    spin_thread(job->ctx);
    pthread_join(t, NULL);
    return MALI_EXC_STOPPED;
}

START_TEST(compute_stop)
{
    setup_as(0);
    mali_set_compute_engine(h.m, spin_engine, NULL);
    h_job_header(J(0), JOB_TYPE_NULL, 1, 0, 0, false, J(1));
    h_job_header(J(1), JOB_TYPE_COMPUTE, 2, 1, 0, true, 0);
    static const struct { uint32_t cmd, status; } stops[] = {
        { JS_CMD_SOFT_STOP, MALI_EXC_STOPPED }, { JS_CMD_HARD_STOP, MALI_EXC_TERMINATED },
    };
    for (unsigned i = 0; i < 2; i++) {
        __atomic_store_n(&spin_started, 0, __ATOMIC_SEQ_CST);
        h_submit(1, J(0), 0, false);
        while (!__atomic_load_n(&spin_started, __ATOMIC_SEQ_CST))
            dev_sleep_ms(1);
        dev_sleep_ms(5);
        ck_assert_uint_eq(rd(JOB_IRQ_JS_STATE), 0x2);
        wr(JSR(1, JS_COMMAND), stops[i].cmd);
        ck_assert_uint_eq(wait_slot(1), 0x20000);
        ck_assert_uint_eq(rd(JSR(1, JS_STATUS)), stops[i].status);
        ck_assert_uint_eq(rd(JSR(1, JS_TAIL_LO)), (uint32_t)J(1));
        ck_assert_uint_eq(h_job_status(J(1)), 0); /* not written back */
    }
    /* a reset while the engine runs: dropped silently, the device works afterwards */
    __atomic_store_n(&spin_started, 0, __ATOMIC_SEQ_CST);
    h_submit(1, J(0), 0, false);
    while (!__atomic_load_n(&spin_started, __ATOMIC_SEQ_CST))
        dev_sleep_ms(1);
    h_driver_init();
    dev_sleep_ms(10);
    ck_assert_uint_eq(rd(JOB_IRQ_RAWSTAT), 0);
    mali_set_compute_engine(h.m, NULL, NULL);
    h_as_enable(0);
    h_write_value(J(2), 1, 0, 0, 0, D(0), WRITE_VALUE_IMM32, 0x77);
    h_submit(1, J(2), 0, false);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    ck_assert_uint_eq(h_rd32(h_va2pa(D(0))), 0x77);
    h_teardown();
}
END_TEST

/* ---- stops, latch, resets ------------------------------------------------------------------ */

START_TEST(soft_and_hard_stop)
{
    setup_as(0);
    h_write_value(J(0), 1, 0, 0, J(1), D(0), WRITE_VALUE_IMM32, 1);
    h_write_value(J(1), 2, 1, 0, J(2), 0x20000000, WRITE_VALUE_IMM32, 2); /* stalls */
    h_write_value(J(2), 3, 2, 0, 0, D(2), WRITE_VALUE_IMM32, 3);
    h_submit(1, J(0), 0, true);
    ck_assert(h_wait_stalled(1));
    wr(JSR(1, JS_COMMAND), JS_CMD_SOFT_STOP_0); /* chain flag is 1: ignored */
    dev_sleep_ms(20);
    ck_assert_uint_eq(rd(JOB_IRQ_RAWSTAT), 0);
    wr(JSR(1, JS_COMMAND), JS_CMD_SOFT_STOP_1);
    ck_assert_uint_eq(wait_slot(1), 0x20000);
    ck_assert_uint_eq(rd(JSR(1, JS_STATUS)), MALI_EXC_STOPPED);
    ck_assert_uint_eq(rd(JSR(1, JS_TAIL_LO)), (uint32_t)J(1));
    ck_assert_uint_eq(rd(JOB_IRQ_JS_STATE), 0);
    ck_assert_uint_eq(h_job_status(J(0)), MALI_EXC_DONE);
    ck_assert_uint_eq(h_job_status(J(1)), 0); /* not written: resumable */
    /* the driver maps the page meanwhile and resumes from JS_TAIL */
    uint64_t page = h_alloc_page();
    wr(MMU_IRQ_CLEAR, ~0u);
    h_map(0, 0x20000000, page, H_PTE_RW);
    h_flush_range(0, 0x20000000, 4096);
    h_submit(1, J(1), 0, false);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    ck_assert_uint_eq(h_rd32(page), 2);
    ck_assert_uint_eq(h_rd32(h_va2pa(D(2))), 3);
    /* hard stop of a stalled job */
    h_write_value(J(3), 1, 0, 0, 0, 0x21000000, WRITE_VALUE_IMM32, 2);
    h_submit(1, J(3), 0, false);
    ck_assert(h_wait_stalled(1));
    wr(JSR(1, JS_COMMAND), JS_CMD_HARD_STOP_1); /* flag 0: ignored */
    wr(JSR(1, JS_COMMAND), JS_CMD_HARD_STOP_0);
    ck_assert_uint_eq(wait_slot(1), 0x20000);
    ck_assert_uint_eq(rd(JSR(1, JS_STATUS)), MALI_EXC_TERMINATED);
    /* stop commands on an idle slot do nothing */
    wr(JSR(1, JS_COMMAND), JS_CMD_HARD_STOP);
    wr(JSR(2, JS_COMMAND), JS_CMD_SOFT_STOP);
    dev_sleep_ms(5);
    ck_assert_uint_eq(rd(JOB_IRQ_RAWSTAT), 0);
    h_teardown();
}
END_TEST

START_TEST(next_latch_and_failed_hold)
{
    setup_as(0);
    /* A stalls; B is latched in _NEXT and starts when A completes */
    h_write_value(J(0), 1, 0, 0, 0, 0x20000000, WRITE_VALUE_IMM32, 0xA);
    h_write_value(J(1), 1, 0, 0, 0, D(1), WRITE_VALUE_IMM32, 0xB);
    h_submit(1, J(0), 0, false);
    ck_assert(h_wait_stalled(1));
    h_submit(1, J(1), 0, true);
    ck_assert_uint_eq(rd(JSR(1, JS_COMMAND_NEXT)), JS_CMD_START);
    ck_assert_uint_eq(rd(JOB_IRQ_JS_STATE), 0x20002);
    uint64_t page = h_alloc_page();
    wr(MMU_IRQ_CLEAR, ~0u);
    h_map(0, 0x20000000, page, H_PTE_RW);
    h_flush_range(0, 0x20000000, 4096);
    /* both finish (JS_STATE, read under the device lock, orders the memory reads after) */
    uint64_t end = h_now_ms() + 5000;
    while (rd(JOB_IRQ_JS_STATE) && h_now_ms() < end)
        dev_sleep_ms(1);
    ck_assert_uint_eq(rd(JOB_IRQ_JS_STATE), 0);
    ck_assert_uint_eq(wait_slot(1), 0x2); /* one DONE bit may stand for both */
    ck_assert_uint_eq(h_rd32(h_va2pa(D(1))), 0xB);
    ck_assert_uint_eq(h_rd32(page), 0xA);
    ck_assert_uint_eq(rd(JSR(1, JS_COMMAND_NEXT)), 0);
    /* A fails while B is latched: B waits for the FAILED bit; the driver cancels it (NOP) */
    h_write_value(J(0), 1, 0, 0, 0, D(0), 99, 0);
    h_write_value(J(1), 1, 0, 0, 0, D(2), WRITE_VALUE_IMM32, 0xC);
    h_submit(1, J(0), 0, false);
    h_submit(1, J(1), 0, true); /* may be latched before or after A fails */
    ck_assert_uint_eq(h_wait(JOB_IRQ_RAWSTAT, 0x20000) & 0x20000, 0x20000);
    dev_sleep_ms(20);
    ck_assert_uint_eq(rd(JSR(1, JS_COMMAND_NEXT)), JS_CMD_START);
    ck_assert_uint_eq(h_rd32(h_va2pa(D(2))), 0);
    wr(JSR(1, JS_COMMAND_NEXT), JS_CMD_NOP);
    wr(JOB_IRQ_CLEAR, 0x20000);
    ck_assert_uint_eq(rd(JOB_IRQ_JS_STATE), 0);
    dev_sleep_ms(20);
    ck_assert_uint_eq(h_rd32(h_va2pa(D(2))), 0);
    /* re-queued by the driver: runs */
    wr(JSR(1, JS_COMMAND_NEXT), JS_CMD_START);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    ck_assert_uint_eq(h_rd32(h_va2pa(D(2))), 0xC);
    h_teardown();
}
END_TEST

START_TEST(reset_while_stalled_and_independent_slots)
{
    setup_as(0);
    h_write_value(J(0), 1, 0, 0, 0, 0x20000000, WRITE_VALUE_IMM32, 0xA);
    h_submit(1, J(0), 0, false);
    ck_assert(h_wait_stalled(1));
    /* slot 0 is not held up by slot 1's stall */
    h_write_value(J(1), 1, 0, 0, 0, D(0), WRITE_VALUE_IMM32, 0xF);
    h_submit(0, J(1), 0, false);
    ck_assert_uint_eq(wait_slot(0), 0x1);
    ck_assert_uint_eq(h_rd32(h_va2pa(D(0))), 0xF);
    /* panfrost_reset: mask, NOP + SOFT_STOP each slot, then soft reset */
    wr(JOB_IRQ_MASK, 0);
    for (unsigned js = 0; js < 3; js++) {
        wr(JSR(js, JS_COMMAND_NEXT), JS_CMD_NOP);
        wr(JSR(js, JS_COMMAND), JS_CMD_SOFT_STOP);
    }
    ck_assert_uint_eq(h_wait(JOB_IRQ_RAWSTAT, 0x20000), 0x20000);
    ck_assert_uint_eq(rd(JOB_IRQ_JS_STATE), 0);
    h_driver_init();
    ck_assert_uint_eq(rd(JOB_IRQ_RAWSTAT), 0);
    /* a reset while a job is stalled: the chain is dropped silently */
    h_map_arena(0);
    h_as_enable(0);
    h_submit(1, J(0), 0, false);
    ck_assert(h_wait_stalled(1));
    wr(GPU_COMMAND, GPU_CMD_SOFT_RESET);
    ck_assert_uint_eq(rd(JOB_IRQ_JS_STATE), 0);
    dev_sleep_ms(20);
    ck_assert_uint_eq(rd(JOB_IRQ_RAWSTAT), 0);
    ck_assert_uint_eq(rd(JSR(1, JS_STATUS)), 0);
    /* and everything works afterwards */
    h_driver_init();
    h_as_enable(0);
    h_write_value(J(2), 1, 0, 0, 0, D(3), WRITE_VALUE_IMM32, 0x99);
    h_submit(1, J(2), 0, false);
    ck_assert_uint_eq(wait_slot(1), 0x2);
    ck_assert_uint_eq(h_rd32(h_va2pa(D(3))), 0x99);
    h_teardown();
}
END_TEST

/* The driver's steady state: two slots, up to two chains in flight per slot, IRQ handler
 * reading RAWSTAT / clearing / checking JS_STATE.  Every chain must complete exactly once. */
START_TEST(driver_loop_stress)
{
    setup_as(0);
    enum { N = 400 };
    unsigned submitted[2] = { 0, 0 }, completed[2] = { 0, 0 };
    uint64_t end = h_now_ms() + 20000;
    while ((completed[0] < N || completed[1] < N) && h_now_ms() < end) {
        for (unsigned js = 0; js < 2; js++) {
            unsigned inflight = submitted[js] - completed[js];
            if (submitted[js] < N && inflight < 2 && rd(JSR(js, JS_COMMAND_NEXT)) == 0) {
                unsigned k = submitted[js]++;
                uint64_t jva = J((js * 2 + (k & 1)) * 2);
                h_write_value(jva, 1, 0, 0, 0, D(js), WRITE_VALUE_IMM32, k + 1);
                h_submit(js, jva, 0, k & 1);
            }
        }
        uint32_t raw = rd(JOB_IRQ_RAWSTAT);
        if (!raw)
            continue;
        ck_assert_uint_eq(raw & 0x30000, 0);
        wr(JOB_IRQ_CLEAR, raw);
        uint32_t state = rd(JOB_IRQ_JS_STATE);
        for (unsigned js = 0; js < 2; js++) {
            if (!(raw >> js & 1))
                continue;
            /* everything submitted that is neither active nor latched has completed */
            unsigned still = ((state >> js) & 1) + ((state >> (16 + js)) & 1);
            completed[js] = submitted[js] - still;
        }
    }
    ck_assert_uint_eq(completed[0], N);
    ck_assert_uint_eq(completed[1], N);
    ck_assert_uint_eq(h_rd32(h_va2pa(D(0))), N);
    ck_assert_uint_eq(h_rd32(h_va2pa(D(1))), N);
    h_teardown();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mali_job");
    TCase *tc = tcase_create("job");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, write_value_chain_with_deps);
    tcase_add_test(tc, compute_clock_model);
    tcase_add_test(tc, chain_gpu_time);
    tcase_add_test(tc, dependency_order);
    tcase_add_test(tc, write_value_types);
    tcase_add_test(tc, null_and_cache_flush_jobs);
    tcase_add_test(tc, malformed_chains);
    tcase_add_test(tc, fault_retry_growable_heap);
    tcase_add_test(tc, fault_unhandled_and_bus);
    tcase_add_test(tc, compute_dispatch);
    tcase_add_test(tc, compute_stop);
    tcase_add_test(tc, soft_and_hard_stop);
    tcase_add_test(tc, next_latch_and_failed_hold);
    tcase_add_test(tc, reset_while_stalled_and_independent_slots);
    tcase_add_test(tc, driver_loop_stress);
    suite_add_tcase(s, tc);
    return dev_run_suite(s);
}
