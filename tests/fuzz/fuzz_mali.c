/* libFuzzer harness: the Mali device's GPU MMU page-table walk (devices/mali/mmu.c) and job-chain
 * walker (job_manager.c), with the shader-core engine attached (COMPUTE jobs read descriptors and
 * shaders through the MMU), driven through the register interface the way panfrost does.
 *
 * Input: byte 0 flags, bytes 1-8 the chain head (GPU VA), then the contents of guest RAM from
 * RAM_BASE (zero beyond the input): page tables (root at RAM_BASE), job chain, descriptors,
 * shaders.  The harness plays the driver: an MMU fault gets panfrost's unhandled-fault answer
 * (the AS is disabled, the job then fails), a chain still running after STOP_MS gets a hard
 * stop, and one that has not ended HANG_MS after that is a hang (abort: libFuzzer reports it). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../devices/board_gpu.h"
#include "../../devices/mali/mali_int.h"
#include "compute.h"

#define RAM_BASE 0x80000000ull
#define RAM_SIZE (1ull << 20)
#define MMIO_BASE 0x2D000000ull
#define STOP_MS 50
#define HANG_MS 5000

enum {
    F_G52 = 1,          /* G52 (v7), else G71 (v6) */
    F_IDENTITY = 2,     /* AS in identity mode (VA = PA), else page tables at RAM_BASE */
    F_CHAIN = 4,        /* JS_CONFIG job chain flag */
    F_NO_WRITEBACK = 8, /* JS_CONFIG: no descriptor write-back */
    F_SLOT2 = 16,       /* job slot 2 (compute), else 1 */
};

static void gic_out(void *o, unsigned cpu, bool irq, bool fiq) { (void)o; (void)cpu; (void)irq; (void)fiq; }

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static Mali *m;
static uint32_t rd(uint32_t off) { return (uint32_t)mali_mmio_read(m, off, 4); }
static void wr(uint32_t off, uint32_t v) { mali_mmio_write(m, off, v, 4); }
#define ASR(n, r) (AS_BASE + (n) * AS_STRIDE + (r))
#define JSR(n, r) (JS_BASE + (n) * JS_STRIDE + (r))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 9)
        return 0;
    unsigned flags = data[0], js = flags & F_SLOT2 ? 2 : 1;
    uint64_t head;
    memcpy(&head, data + 1, 8);
    Bus *bus = bus_new();
    uint8_t *ram = bus ? bus_add_ram(bus, "ram", RAM_BASE, RAM_SIZE, false) : NULL;
    Gic *gic = gic_new(1, gic_out, NULL);
    if (!ram || !gic)
        abort();
    size_t n = size - 9 < RAM_SIZE ? size - 9 : RAM_SIZE;
    memcpy(ram, data + 9, n);
    m = board_gpu_new_mali(bus, gic, mali_model_find(flags & F_G52 ? "g52" : "g71"), 65, 66, 64);
    if (!m)
        abort();
    BoardGpuParams gp;
    board_gpu_params_default(&gp);
    gp.threads = 1;                             /* the engine's pool: the slot thread only */
    char err[200];
    BoardGpu *engine = board_gpu_engine_new(m, &gp, err, sizeof err);
    if (!engine)
        abort();
    bus_add_mmio(bus, MMIO_BASE, MALI_MMIO_SIZE, &board_gpu_mmio_ops, m);
    bus_freeze(bus);

    /* panfrost: power on, IRQs, AS 0 (mmu enable), submit */
    wr(GPU_L2_PWRON_LO, rd(GPU_L2_PRESENT_LO));
    wr(GPU_SHADER_PWRON_LO, rd(GPU_SHADER_PRESENT_LO));
    wr(GPU_TILER_PWRON_LO, rd(GPU_TILER_PRESENT_LO));
    wr(MMU_IRQ_CLEAR, ~0u);
    wr(MMU_IRQ_MASK, ~0u);
    wr(JOB_IRQ_CLEAR, ~0u);
    wr(JOB_IRQ_MASK, ~0u);
    uint64_t t = flags & F_IDENTITY ? AS_TRANSTAB_ADRMODE_IDENTITY : RAM_BASE | 4 | AS_TRANSTAB_ADRMODE_TABLE;
    wr(ASR(0, AS_TRANSTAB_LO), (uint32_t)t);
    wr(ASR(0, AS_TRANSTAB_HI), (uint32_t)(t >> 32));
    wr(ASR(0, AS_MEMATTR_LO), 0x00888D88);
    wr(ASR(0, AS_COMMAND), AS_CMD_UPDATE);
    wr(JSR(js, JS_HEAD_NEXT_LO), (uint32_t)head);
    wr(JSR(js, JS_HEAD_NEXT_HI), (uint32_t)(head >> 32));
    wr(JSR(js, JS_AFFINITY_NEXT_LO), rd(GPU_SHADER_PRESENT_LO));
    wr(JSR(js, JS_CONFIG_NEXT), 0u | 8u << 16 | 3u << 8 | 3u << 12 | 1u << 14 |
                                    (flags & F_CHAIN ? JS_CONFIG_JOB_CHAIN_FLAG : 0) |
                                    (flags & F_NO_WRITEBACK ? JS_CONFIG_DISABLE_DESCRIPTOR_WR_BK : 0));
    wr(JSR(js, JS_COMMAND_NEXT), JS_CMD_START);

    uint64_t start = now_ms();
    int stopped = 0;
    for (;;) {
        uint32_t jraw = rd(JOB_IRQ_RAWSTAT), mraw = rd(MMU_IRQ_RAWSTAT);
        if (jraw & (0x10001u << js))
            break;
        if (mraw) {        /* panfrost's unhandled page fault: disable the AS, ack */
            wr(ASR(0, AS_TRANSTAB_LO), 0);
            wr(ASR(0, AS_TRANSTAB_HI), 0);
            wr(ASR(0, AS_COMMAND), AS_CMD_UPDATE);
            wr(MMU_IRQ_CLEAR, mraw);
        }
        uint64_t el = now_ms() - start;
        if (!stopped && el > STOP_MS) {
            wr(JSR(js, JS_COMMAND), JS_CMD_HARD_STOP);
            stopped = 1;
        }
        if (el > STOP_MS + HANG_MS) {
            fprintf(stderr, "fuzz_mali: job slot %u did not end %d ms after a hard stop\n", js, HANG_MS);
            abort();
        }
        struct timespec ts = { 0, 20000 };
        nanosleep(&ts, NULL);
    }
    if (getenv("FUZZ_VERBOSE"))
        printf("JS_STATUS %#x JS_HEAD %#llx RAWSTAT %#x after %llu ms\n", rd(JSR(js, JS_STATUS)),
               (unsigned long long)(rd(JSR(js, JS_HEAD_LO)) | (uint64_t)rd(JSR(js, JS_HEAD_HI)) << 32),
               rd(JOB_IRQ_RAWSTAT), (unsigned long long)(now_ms() - start));
    mali_free(m);
    board_gpu_engine_free(engine);
    gic_free(gic);
    bus_free(bus);
    m = NULL;
    return 0;
}
