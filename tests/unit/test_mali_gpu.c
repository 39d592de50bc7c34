/* devices/mali: GPU control block: identification per model, panfrost's probe / reset /
 * power-up / suspend sequences as register traffic, IRQ lines through the GIC, caches, cycle
 * counter and timestamp, perf-counter dump, DT node, hostile register traffic. */
#include <libfdt.h>

#include "mali_harness.h"
#include "../../devices/board_gpu.h"
#include "../../devices/board.h"
#include "../../emu/system/options.h"
#include "../../devices/gtimer.h"
#include "../../devices/board_timing.h"
#include "../../emu/timing/timing.h"

START_TEST(ids_per_model)
{
    static const struct { const char *name; uint32_t id, l2, shader, threads; } want[] = {
        { "g71", 0x60000010, 0x07120206, 0xF, 384 },
        { "g72", 0x62210030, 0x07120206, 0x7, 384 },
        { "g52", 0x72120000, 0x07110206, 0x3, 768 },
    };
    for (unsigned i = 0; i < 3; i++) {
        h_setup_model(want[i].name);
        ck_assert_uint_eq(rd(GPU_ID), want[i].id);
        ck_assert_uint_eq(rd(GPU_L2_FEATURES), want[i].l2);
        ck_assert_uint_eq(rd(GPU_SHADER_PRESENT_LO), want[i].shader);
        ck_assert_uint_eq(rd(GPU_SHADER_PRESENT_HI), 0);
        ck_assert_uint_eq(rd(GPU_THREAD_MAX_THREADS), want[i].threads);
        /* Arm's driver reports 384-item work-groups on G71 and G52 alike (models.c) */
        ck_assert_uint_eq(rd(GPU_THREAD_MAX_WORKGROUP_SIZE), 384);
        ck_assert_uint_eq(rd(GPU_THREAD_MAX_BARRIER_SIZE), 384);
        ck_assert_uint_eq(rd(GPU_CORE_FEATURES), 0);
        ck_assert_uint_eq(rd(GPU_TILER_FEATURES), 0x809);
        ck_assert_uint_eq(rd(GPU_MEM_FEATURES), 1);
        ck_assert_uint_eq(rd(GPU_MMU_FEATURES), 0x2830);
        ck_assert_uint_eq(rd(GPU_AS_PRESENT), 0xFF);
        ck_assert_uint_eq(rd(GPU_JS_PRESENT), 0x7);
        ck_assert_uint_eq(rd(GPU_JS_FEATURES(0)), 0x20E);
        ck_assert_uint_eq(rd(GPU_JS_FEATURES(3)), 0);
        ck_assert_uint_eq(rd(GPU_TILER_PRESENT_LO), 1);
        ck_assert_uint_eq(rd(GPU_L2_PRESENT_LO), 1);
        ck_assert_uint_eq(rd(GPU_STACK_PRESENT_LO), 0);
        ck_assert_uint_eq(rd(GPU_COHERENCY_FEATURES), 1);
        ck_assert_uint_ne(rd(GPU_AFBC_FEATURES), 0);
        ck_assert_uint_eq(rd(GPU_THREAD_TLS_ALLOC), 0);
        /* kernel model lookup: (id >> 16) & 0xF00F must be one of its table entries */
        uint32_t k = (rd(GPU_ID) >> 16) & 0xF00F;
        ck_assert(k == 0x6000 || k == 0x6001 || k == 0x7002);
        h_teardown();
    }
    ck_assert_ptr_null(mali_model_find("g31"));
    ck_assert_ptr_null(mali_model_find(NULL));
}
END_TEST

START_TEST(reset_and_power_sequences)
{
    h_setup();
    /* probe: soft reset completes at once */
    h_driver_init();
    ck_assert_uint_eq(rd(GPU_SHADER_PWRTRANS_LO), 0);
    ck_assert_uint_eq(rd(GPU_IRQ_MASK), 0x00030081);
    /* POWER_CHANGED_* are raw bits only (masked) */
    ck_assert(rd(GPU_IRQ_RAWSTAT) & (GPU_IRQ_POWER_CHANGED_ALL | GPU_IRQ_POWER_CHANGED_SINGLE));
    ck_assert_uint_eq(rd(GPU_IRQ_STATUS), 0);
    ck_assert(!h_line(H_INTID_GPU));
    /* TILER_CONFIG reads back */
    wr(GPU_TILER_CONFIG, 1);
    ck_assert_uint_eq(rd(GPU_TILER_CONFIG), 1);
    /* runtime suspend: masks off, power off with PWRTRANS polled */
    wr(JOB_IRQ_MASK, 0);
    wr(MMU_IRQ_MASK, 0);
    wr(GPU_IRQ_MASK, 0);
    wr(GPU_SHADER_PWROFF_LO, rd(GPU_SHADER_PRESENT_LO));
    ck_assert_uint_eq(rd(GPU_SHADER_PWRTRANS_LO), 0);
    ck_assert_uint_eq(rd(GPU_SHADER_READY_LO), 0);
    wr(GPU_TILER_PWROFF_LO, rd(GPU_TILER_PRESENT_LO));
    ck_assert_uint_eq(rd(GPU_TILER_PWRTRANS_LO), 0);
    wr(GPU_L2_PWROFF_LO, rd(GPU_L2_PRESENT_LO));
    ck_assert_uint_eq(rd(GPU_L2_PWRTRANS_LO), 0);
    ck_assert_uint_eq(rd(GPU_L2_READY_LO), 0);
    /* resume = soft reset + power on again (the state a reset leaves) */
    wr(JOB_IRQ_MASK, 0x70007);
    wr(MMU_IRQ_MASK, 0xFF);
    wr(ASR(1, AS_TRANSTAB_LO), 0x1234F003);
    h_driver_init();
    ck_assert_uint_eq(rd(ASR(1, AS_TRANSTAB_LO)), 0);
    ck_assert_uint_eq(rd(ASR(1, AS_TRANSCFG_LO)), 0); /* legacy mode */
    /* PWRON of cores that do not exist is ignored */
    wr(GPU_SHADER_PWRON_LO, 0xFFFFFFFF);
    ck_assert_uint_eq(rd(GPU_SHADER_READY_LO), rd(GPU_SHADER_PRESENT_LO));
    /* hard reset also completes */
    wr(GPU_IRQ_CLEAR, GPU_IRQ_ALL);
    wr(GPU_COMMAND, GPU_CMD_HARD_RESET);
    ck_assert(rd(GPU_IRQ_RAWSTAT) & GPU_IRQ_RESET_COMPLETED);
    ck_assert_uint_eq(rd(GPU_SHADER_READY_LO), 0);
    ck_assert_uint_eq(rd(JOB_IRQ_MASK), 0);
    h_teardown();
}
END_TEST

START_TEST(caches_and_gpu_irq_line)
{
    h_setup();
    h_driver_init();
    uint32_t flush = rd(GPU_LATEST_FLUSH_ID);
    ck_assert(!h_line(H_INTID_GPU));
    ck_assert(!gic_irq_line(h.gic, 0));
    wr(GPU_COMMAND, GPU_CMD_CLEAN_INV_CACHES);
    ck_assert(rd(GPU_IRQ_RAWSTAT) & GPU_IRQ_CLEAN_CACHES_COMPLETED);
    ck_assert_uint_eq(rd(GPU_IRQ_STATUS), GPU_IRQ_CLEAN_CACHES_COMPLETED);
    ck_assert(h_line(H_INTID_GPU));
    ck_assert(gic_irq_line(h.gic, 0));
    ck_assert(!h_line(H_INTID_JOB) && !h_line(H_INTID_MMU));
    ck_assert_uint_gt(rd(GPU_LATEST_FLUSH_ID), flush);
    /* the handler: STATUS -> CLEAR -> line drops */
    wr(GPU_IRQ_CLEAR, rd(GPU_IRQ_STATUS));
    ck_assert(!h_line(H_INTID_GPU));
    /* masking keeps the raw bit but drops the line */
    wr(GPU_COMMAND, GPU_CMD_CLEAN_CACHES);
    ck_assert(h_line(H_INTID_GPU));
    wr(GPU_IRQ_MASK, 0);
    ck_assert(!h_line(H_INTID_GPU));
    ck_assert(rd(GPU_IRQ_RAWSTAT) & GPU_IRQ_CLEAN_CACHES_COMPLETED);
    ck_assert_uint_eq(rd(GPU_IRQ_STATUS), 0);
    ck_assert_uint_eq(rd(GPU_FAULT_STATUS), 0);
    ck_assert_uint_eq(rd(GPU_STATUS), 0);
    h_teardown();
}
END_TEST

static uint64_t fake_ts(void *o) { return *(uint64_t *)o; }

/* panfrost's timestamp read: HI, LO, HI again until HI is stable */
static uint64_t read_timestamp(void)
{
    uint32_t hi, lo;
    do {
        hi = rd(GPU_TIMESTAMP_HI);
        lo = rd(GPU_TIMESTAMP_LO);
    } while (hi != rd(GPU_TIMESTAMP_HI));
    return (uint64_t)hi << 32 | lo;
}

START_TEST(cycle_counter_and_timestamp)
{
    h_setup();
    h_driver_init();
    ck_assert_uint_eq(rd(GPU_CYCLE_COUNT_LO), 0);
    wr(GPU_COMMAND, GPU_CMD_CYCLE_COUNT_START);
    dev_sleep_ms(2);
    uint32_t hi, lo;
    do { /* the driver's hi/lo/hi loop */
        hi = rd(GPU_CYCLE_COUNT_HI);
        lo = rd(GPU_CYCLE_COUNT_LO);
    } while (hi != rd(GPU_CYCLE_COUNT_HI));
    uint64_t c1 = (uint64_t)hi << 32 | lo;
    ck_assert_uint_gt(c1, 500000); /* >= 1 ms at 500 MHz */
    wr(GPU_COMMAND, GPU_CMD_CYCLE_COUNT_STOP);
    uint64_t c2 = rd(GPU_CYCLE_COUNT_LO) | (uint64_t)rd(GPU_CYCLE_COUNT_HI) << 32;
    dev_sleep_ms(2);
    ck_assert_uint_eq(rd(GPU_CYCLE_COUNT_LO) | (uint64_t)rd(GPU_CYCLE_COUNT_HI) << 32, c2);
    h_teardown();
}
END_TEST

/* GPU_TIMESTAMP is the system counter, propagated only while cycle counting is on (panfrost 1.3+
 * brackets its SYSTEM_TIMESTAMP query with CYCLE_COUNT_START/STOP). */
START_TEST(timestamp_follows_cycle_counting)
{
    h_setup();
    h_driver_init();
    uint64_t t = 0x1FFFFFFF0ull;
    mali_set_timestamp(h.m, fake_ts, &t, 100000000);
    ck_assert_uint_eq(read_timestamp(), 0); /* off since reset: nothing propagated yet */
    wr(GPU_COMMAND, GPU_CMD_CYCLE_COUNT_START);
    ck_assert_uint_eq(read_timestamp(), 0x1FFFFFFF0ull);
    ck_assert_uint_eq(rd(GPU_TIMESTAMP_HI), 1); /* both halves of the one counter */
    ck_assert_uint_eq(rd(GPU_TIMESTAMP_LO), 0xFFFFFFF0u);
    t = 0x200000010ull; /* the counter moves across a 32-bit carry */
    ck_assert_uint_eq(read_timestamp(), 0x200000010ull);
    wr(GPU_COMMAND, GPU_CMD_CYCLE_COUNT_START); /* a second START changes nothing */
    ck_assert_uint_eq(read_timestamp(), 0x200000010ull);
    wr(GPU_COMMAND, GPU_CMD_CYCLE_COUNT_STOP);
    t = 0x300000000ull;
    ck_assert_uint_eq(read_timestamp(), 0x200000010ull); /* held where it stopped */
    wr(GPU_COMMAND, GPU_CMD_CYCLE_COUNT_STOP);
    ck_assert_uint_eq(read_timestamp(), 0x200000010ull);
    wr(GPU_COMMAND, GPU_CMD_CYCLE_COUNT_START);
    ck_assert_uint_eq(read_timestamp(), 0x300000000ull); /* the system counter, not a count of
                                                            the time it ran */
    /* a soft reset stops cycle counting: the driver must start it again */
    wr(GPU_COMMAND, GPU_CMD_SOFT_RESET);
    t = 0x400000000ull;
    ck_assert_uint_eq(read_timestamp(), 0);
    ck_assert_uint_eq(rd(GPU_CYCLE_COUNT_LO) | (uint64_t)rd(GPU_CYCLE_COUNT_HI) << 32, 0);
    wr(GPU_COMMAND, GPU_CMD_CYCLE_COUNT_START);
    ck_assert_uint_eq(read_timestamp(), 0x400000000ull);
    /* the job-side view is the same */
    ck_assert_uint_eq(mali_gpu_timestamp(h.m), 0x400000000ull);
    wr(GPU_COMMAND, GPU_CMD_CYCLE_COUNT_STOP);
    t = 0x500000000ull;
    ck_assert_uint_eq(mali_gpu_timestamp(h.m), 0x400000000ull);
    h_teardown();
}
END_TEST

/* On the board the GPU's timestamp is the CPU's system counter: a CPU read of CNTPCT, a GPU
 * read, another CPU read are ordered, at the same frequency (CNTFRQ). */
START_TEST(board_timestamp_is_system_counter)
{
    BoardConfig cfg;
    char err[256];
    board_config_default(&cfg);
    cfg.console_in = -1;
    cfg.ram_size = 64ull << 20;
    Board *b = board_new(&cfg, err, sizeof err);
    ck_assert_msg(b != NULL, "%s", err);
    ck_assert_msg(board_realize(b, err, sizeof err), "%s", err);
    ck_assert_uint_eq(gtimer_freq(b->gtimer), GTIMER_FREQ_HZ);
    uint64_t lo, hi;
    ck_assert_int_eq(bus_write(b->bus, BOARD_GPU_BASE + GPU_COMMAND, GPU_CMD_CYCLE_COUNT_START, 4),
                     BUS_OK);
    for (int i = 0; i < 3; i++) {
        uint64_t cpu0 = gtimer_count(b->gtimer);
        ck_assert_int_eq(bus_read(b->bus, BOARD_GPU_BASE + GPU_TIMESTAMP_HI, 4, &hi), BUS_OK);
        ck_assert_int_eq(bus_read(b->bus, BOARD_GPU_BASE + GPU_TIMESTAMP_LO, 4, &lo), BUS_OK);
        uint64_t gpu = hi << 32 | lo;
        uint64_t cpu1 = gtimer_count(b->gtimer);
        ck_assert_uint_le(cpu0, gpu);
        ck_assert_uint_le(gpu, cpu1);
        dev_sleep_ms(1);
    }
    /* 2 ms of host time: ~200000 ticks of the 100 MHz counter on both sides */
    uint64_t c0 = gtimer_count(b->gtimer), g0 = mali_gpu_timestamp(b->gpu);
    dev_sleep_ms(2);
    uint64_t g1 = mali_gpu_timestamp(b->gpu), c1 = gtimer_count(b->gtimer);
    ck_assert_uint_ge(g1 - g0, 150000);
    ck_assert_uint_le(g1 - g0, c1 - c0);
    board_free(b);
}
END_TEST

START_TEST(perfcnt_dump)
{
    h_setup();
    h_driver_init();
    h_map_arena(2);
    h_as_enable(2);
    uint64_t buf = H_VA_BASE + 0x10000;
    memset(h_host(h_va2pa(buf)), 0xAB, 8192);
    wr(GPU_IRQ_CLEAR, GPU_IRQ_PRFCNT_SAMPLE_COMPLETED | GPU_IRQ_CLEAN_CACHES_COMPLETED);
    wr(GPU_COMMAND, GPU_CMD_PRFCNT_CLEAR);
    wr(GPU_PRFCNT_JM_EN, ~0u);
    wr(GPU_PRFCNT_CONFIG, 1 | (2 << 4));
    wr(GPU_PRFCNT_BASE_LO, (uint32_t)buf);
    wr(GPU_PRFCNT_BASE_HI, 0);
    wr(GPU_COMMAND, GPU_CMD_PRFCNT_SAMPLE);
    ck_assert(rd(GPU_IRQ_RAWSTAT) & GPU_IRQ_PRFCNT_SAMPLE_COMPLETED);
    ck_assert(h_line(H_INTID_GPU));
    /* (1 L2 + 4 cores + 2) blocks x 64 counters x 4 bytes written, the rest untouched */
    size_t len = 7 * 256;
    ck_assert_uint_eq(h_rd32(h_va2pa(buf) + 8), ~0u);
    ck_assert_uint_eq(h_rd32(h_va2pa(buf) + 12), 0);
    ck_assert_uint_eq(h_rd32(h_va2pa(buf) + len - 4), 0);
    ck_assert_uint_eq(*h_host(h_va2pa(buf) + len), 0xAB);
    /* a dump to an unmapped address is a GPU fault, not a host problem */
    wr(GPU_IRQ_CLEAR, GPU_IRQ_ALL);
    wr(GPU_PRFCNT_BASE_LO, 0x1000);
    wr(GPU_COMMAND, GPU_CMD_PRFCNT_SAMPLE);
    ck_assert(rd(GPU_IRQ_RAWSTAT) & GPU_IRQ_FAULT);
    ck_assert_uint_eq(rd(GPU_FAULT_ADDRESS_LO), 0x1000);
    ck_assert_uint_ne(rd(GPU_FAULT_STATUS), 0);
    h_teardown();
}
END_TEST

/* The board instantiates the GPU for --gpu and describes it in the DT the way panfrost wants. */
START_TEST(board_and_device_tree)
{
    BoardConfig cfg;
    char err[256];
    char *argv[] = { "malibu", "--dump-dtb", "/dev/null", "--gpu", "g52", NULL };
    board_config_default(&cfg);
    ck_assert_int_eq(options_parse_board(5, argv, &cfg, err, sizeof err), 0);
    ck_assert_str_eq(cfg.gpu, "g52");
    char *bad[] = { "malibu", "--dump-dtb", "/dev/null", "--gpu", "g99", NULL };
    ck_assert_int_eq(options_parse_board(5, bad, &cfg, err, sizeof err), -1);
    board_config_default(&cfg);
    cfg.console_in = -1;
    cfg.ram_size = 64ull << 20;
    Board *b = board_new(&cfg, err, sizeof err);
    ck_assert_msg(b != NULL, "%s", err);
    ck_assert_ptr_nonnull(b->gpu);
    ck_assert_msg(board_realize(b, err, sizeof err), "%s", err);
    uint64_t v;
    ck_assert_int_eq(bus_read(b->bus, BOARD_GPU_BASE + GPU_ID, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x60000010); /* default g71 */
    const void *dtb = b->dtb;
    int n = fdt_path_offset(dtb, "/gpu@2d000000");
    ck_assert_int_ge(n, 0);
    ck_assert_int_eq(fdt_node_check_compatible(dtb, n, "arm,mali-bifrost"), 0);
    int len;
    const char *names = fdt_getprop(dtb, n, "interrupt-names", &len);
    ck_assert_int_eq(len, 12);
    ck_assert_int_eq(memcmp(names, "job\0mmu\0gpu", 12), 0);
    const fdt32_t *irq = fdt_getprop(dtb, n, "interrupts", &len);
    ck_assert_int_eq(len, 36);
    ck_assert_uint_eq(fdt32_to_cpu(irq[1]), 33);
    ck_assert_uint_eq(fdt32_to_cpu(irq[4]), 34);
    ck_assert_uint_eq(fdt32_to_cpu(irq[7]), 32);
    const fdt32_t *reg = fdt_getprop(dtb, n, "reg", &len);
    ck_assert_int_eq(len, 16);
    ck_assert_uint_eq(fdt32_to_cpu(reg[1]), 0x2d000000);
    ck_assert_uint_eq(fdt32_to_cpu(reg[3]), 0x10000);
    const fdt32_t *clk = fdt_getprop(dtb, n, "clocks", &len);
    ck_assert_int_eq(len, 4);
    int c = fdt_node_offset_by_phandle(dtb, fdt32_to_cpu(*clk));
    ck_assert_int_ge(c, 0);
    ck_assert_int_eq(fdt_node_check_compatible(dtb, c, "fixed-clock"), 0);
    ck_assert_ptr_nonnull(fdt_getprop(dtb, n, "dma-coherent", &len));
    /* GPU IRQ reaches the board's GIC as SPI 32 */
    ck_assert_int_eq(bus_write(b->bus, BOARD_GPU_BASE + GPU_IRQ_MASK, GPU_IRQ_ALL, 4), BUS_OK);
    ck_assert_int_eq(bus_write(b->bus, BOARD_GPU_BASE + GPU_COMMAND, GPU_CMD_CLEAN_CACHES, 4), BUS_OK);
    ck_assert(gic_dist_read(b->gic, 0, 0x200 + 4 * (BOARD_GPU_INTID_GPU / 32), 4) >>
              (BOARD_GPU_INTID_GPU % 32) & 1);
    board_reset(b);
    ck_assert_int_eq(bus_read(b->bus, BOARD_GPU_BASE + GPU_IRQ_RAWSTAT, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0);
    board_free(b);

    /* --gpu none: the window stays unassigned */
    board_config_default(&cfg);
    cfg.console_in = -1;
    cfg.ram_size = 64ull << 20;
    cfg.gpu = "none";
    b = board_new(&cfg, err, sizeof err);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_null(b->gpu);
    ck_assert_msg(board_realize(b, err, sizeof err), "%s", err);
    ck_assert_int_eq(bus_read(b->bus, BOARD_GPU_BASE, 4, &v), BUS_ERROR);
    ck_assert_int_lt(fdt_path_offset(b->dtb, "/gpu@2d000000"), 0);
    board_free(b);
}
END_TEST

/* --gpu MODEL,cores=N,mhz=M: the sizes the product lines come in, the clock within its range;
 * SHADER_PRESENT, the DT clock and the timing model's clock follow it. */
START_TEST(gpu_size_parameter)
{
    static const struct { const char *spec; uint64_t shader; uint32_t hz; } good[] = {
        { "g71", 0xF, 500000000 },
        { "g71,cores=8,mhz=850", 0xFF, 850000000 },
        { "g71,mhz=850,cores=8", 0xFF, 850000000 },
        { "g71,cores=32", 0xFFFFFFFF, 500000000 },
        { "g72,cores=1,mhz=100", 0x1, 100000000 },
        { "g52,cores=4,mhz=1500", 0xF, 1500000000 },
        { "g52,cores=1", 0x1, 500000000 },
    };
    char err[256];
    MaliModel m;
    for (unsigned i = 0; i < sizeof good / sizeof *good; i++) {
        ck_assert_msg(mali_model_parse(good[i].spec, &m, err, sizeof err), "%s: %s", good[i].spec, err);
        ck_assert_uint_eq(m.shader_present, good[i].shader);
        ck_assert_uint_eq(m.clock_hz, good[i].hz);
    }
    static const struct { const char *spec, *why; } bad[] = {
        { "g52,cores=5", "1 to 4 shader cores" }, { "g71,cores=33", "1 to 32" }, { "g71,cores=0", "1 to 32" },
        { "g71,cores=-1", "1 to 32" }, { "g71,cores=", "1 to 32" }, { "g71,cores=8x", "1 to 32" },
        { "g71,cores=4,cores=8", "given twice" }, { "g71,mhz=99", "100 to 1500 MHz" },
        { "g71,mhz=1501", "100 to 1500 MHz" }, { "g71,mhz=0x200", "100 to 1500 MHz" },
        { "g71,ghz=1", "unknown key 'ghz'" }, { "g71,", "unknown key ''" }, { "g71,cores", "unknown key 'cores'" },
        { "g31,cores=2", "unknown GPU 'g31'" }, { "g711", "unknown GPU 'g711'" },
    };
    for (unsigned i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = 0;
        ck_assert_msg(!mali_model_parse(bad[i].spec, &m, err, sizeof err), "%s accepted", bad[i].spec);
        ck_assert_msg(strstr(err, bad[i].why), "%s: '%s' lacks '%s'", bad[i].spec, err, bad[i].why);
    }
    /* the option refuses with the reason */
    BoardConfig cfg;
    char *argv[] = { "malibu", "--dump-dtb", "/dev/null", "--gpu", "g52,cores=8", NULL };
    board_config_default(&cfg);
    ck_assert_int_eq(options_parse_board(5, argv, &cfg, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "1 to 4 shader cores"), "%s", err);

    /* a board's G72 MP12 at 700 MHz: the register, the DT clock, the timing model's clock */
    board_config_default(&cfg);
    cfg.console_in = -1;
    cfg.ram_size = 64ull << 20;
    cfg.gpu = "g72,cores=12,mhz=700";
    Board *b = board_new(&cfg, err, sizeof err);
    ck_assert_msg(b != NULL, "%s", err);
    ck_assert_msg(board_realize(b, err, sizeof err), "%s", err);
    uint64_t v;
    ck_assert_int_eq(bus_read(b->bus, BOARD_GPU_BASE + GPU_SHADER_PRESENT_LO, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0xFFF);
    ck_assert_int_eq(bus_read(b->bus, BOARD_GPU_BASE + GPU_ID, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0x62210030);
    int n = fdt_path_offset(b->dtb, "/gpu@2d000000"), len;
    ck_assert_int_ge(n, 0);
    const fdt32_t *clk = fdt_getprop(b->dtb, n, "clocks", &len);
    int c = fdt_node_offset_by_phandle(b->dtb, fdt32_to_cpu(*clk));
    const fdt32_t *hz = fdt_getprop(b->dtb, c, "clock-frequency", &len);
    ck_assert_int_eq(len, 4);
    ck_assert_uint_eq(fdt32_to_cpu(*hz), 700000000);
    board_free(b);
    tm_config tc;
    cfg.timing = "";
    ck_assert_int_eq(board_timing_gpu(&cfg, &tc, err, sizeof err), 1);
    ck_assert_uint_eq(tc.gpu_mhz, 700);
    cfg.timing = "gpu.mhz=500";   /* latencies in another clock than guest time's: refused */
    ck_assert_int_eq(board_timing_gpu(&cfg, &tc, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "700 MHz"), "%s", err);
    cfg.timing = "gpu.mhz=700";
    ck_assert_int_eq(board_timing_gpu(&cfg, &tc, err, sizeof err), 1);
}
END_TEST

START_TEST(hostile_registers)
{
    h_setup();
    /* random traffic over the whole window (commands, slots, AS registers included) while
     * the job threads run whatever that starts; then a clean reset must still work */
    dev_fuzz(&board_gpu_mmio_ops, h.m, MALI_MMIO_SIZE, 200000, 0x3a11);
    uint64_t s = 77;
    for (unsigned i = 0; i < 20000; i++) { /* the interesting registers only */
        static const uint32_t regs[] = { GPU_COMMAND, JSR(0, JS_COMMAND_NEXT), JSR(1, JS_COMMAND),
                                         JSR(1, JS_HEAD_NEXT_LO), JSR(1, JS_CONFIG_NEXT),
                                         ASR(0, AS_COMMAND), ASR(0, AS_TRANSTAB_LO),
                                         ASR(0, AS_LOCKADDR_LO), JOB_IRQ_CLEAR, MMU_IRQ_CLEAR,
                                         GPU_PRFCNT_CONFIG, JSR(1, JS_COMMAND_NEXT) };
        wr(regs[dev_rand(&s) % 12], (uint32_t)dev_rand(&s));
    }
    h_driver_init();
    ck_assert_uint_eq(rd(JOB_IRQ_JS_STATE), 0);
    ck_assert_uint_eq(rd(GPU_ID), 0x60000010);
    h_teardown();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mali_gpu");
    TCase *tc = tcase_create("gpu");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, ids_per_model);
    tcase_add_test(tc, reset_and_power_sequences);
    tcase_add_test(tc, caches_and_gpu_irq_line);
    tcase_add_test(tc, cycle_counter_and_timestamp);
    tcase_add_test(tc, timestamp_follows_cycle_counting);
    tcase_add_test(tc, board_timestamp_is_system_counter);
    tcase_add_test(tc, perfcnt_dump);
    tcase_add_test(tc, board_and_device_tree);
    tcase_add_test(tc, gpu_size_parameter);
    tcase_add_test(tc, hostile_registers);
    suite_add_tcase(s, tc);
    return dev_run_suite(s);
}
