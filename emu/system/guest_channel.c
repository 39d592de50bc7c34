/* The guest channel's operations (guest_channel.h, docs/guest-channel.md).  Every argument is
 * hostile: strings and arrays are read through the calling vCPU's MMU at its own EL (a page the
 * guest may not read there is an error, never a fault), strings have a length bound, storage is
 * bounded in emu/stats/regions.c.  An error returns a negative errno value in x0, is counted in
 * the report and logs one line, the first time only (a flood of bad calls costs no log). */
#include "guest_channel.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sys_cpu.h"
#include "sys_chan.h"
#include "../../devices/bus.h"
#include "../../devices/gtimer.h"
#include "../stats/stats_regions.h"

#define E_FAULT (-14)
#define E_TOOLONG (-36)
#define E_NOSYS (-38)

static struct SysMachine *mach;
static int logged;
static int64_t (*ckpt_request)(SysCPU *s);
static const char *(*ckpt_run_cmd)(void);

/* Copy len bytes at guest va into buf, as the vCPU at its EL may read them (a page whose access
 * flag Linux cleared to age it is read: a load would fault, Linux would set the flag and the load
 * would go on); with stop_nul,
 * stop after the first NUL.  Returns the bytes copied (including the NUL) or E_FAULT. */
static int64_t read_guest(SysCPU *s, uint64_t va, void *buf, size_t len, bool stop_nul)
{
    uint8_t *out = buf;
    size_t done = 0;
    while (done < len) {
        MmuResult r;
        if (!mmu_translate(s, va + done, s->el, MMU_READ | MMU_NO_AF, &r))
            return E_FAULT;
        uint8_t *p = bus_ram_ptr(s->mach->bus, r.pa & ~(uint64_t)0xfff, false);
        if (!p)
            return E_FAULT;                   /* MMIO or no RAM: never read through a device */
        size_t off = r.pa & 0xfff, n = 0x1000 - off;
        if (n > len - done)
            n = len - done;
        if (stop_nul) {
            uint8_t *z = memchr(p + off, 0, n);
            if (z) {
                memcpy(out + done, p + off, (size_t)(z - (p + off)) + 1);
                return (int64_t)(done + (size_t)(z - (p + off)) + 1);
            }
        }
        memcpy(out + done, p + off, n);
        done += n;
    }
    return (int64_t)done;
}

/* a NUL-terminated string of at most max bytes (with its NUL) */
static int64_t read_string(SysCPU *s, uint64_t va, char *buf, size_t max)
{
    int64_t n = read_guest(s, va, buf, max, true);
    if (n < 0)
        return n;
    if (buf[n - 1] != 0)
        return E_TOOLONG;
    return n;
}

/* Copy len bytes to guest va, as the vCPU at its EL may write them (a page Linux keeps clean, or
 * not yet faulted in, is an error: the caller touches its buffer first).  0 or E_FAULT. */
static int64_t write_guest(SysCPU *s, uint64_t va, const void *buf, size_t len)
{
    const uint8_t *in = buf;
    for (size_t done = 0; done < len;) {
        MmuResult r;
        if (!mmu_translate(s, va + done, s->el, MMU_WRITE, &r))
            return E_FAULT;
        uint8_t *p = bus_ram_ptr(s->mach->bus, r.pa & ~(uint64_t)0xfff, true);
        if (!p)
            return E_FAULT;
        size_t off = r.pa & 0xfff, n = 0x1000 - off;
        if (n > len - done)
            n = len - done;
        sys_code_modified(s, r.pa); /* blocks translated from that page (never, for a buffer) */
        memcpy(p + off, in + done, n);
        done += n;
    }
    return 0;
}

/* CHAN_CKPT_RUN: the resumed run's command into the guest's buffer (x0, x1 bytes). */
static int64_t ckpt_run(SysCPU *s, const uint64_t a[4])
{
    const char *cmd = ckpt_run_cmd ? ckpt_run_cmd() : NULL;
    if (!cmd)
        return ckpt_request ? 0 : E_NOSYS;
    size_t n = strlen(cmd) + 1;
    if (a[1] < n)
        return E_TOOLONG;
    int64_t r = write_guest(s, a[0], cmd, n);
    return r < 0 ? r : (int64_t)(n - 1);
}

void guest_channel_set_checkpoint(int64_t (*request)(SysCPU *s), const char *(*run_cmd)(void))
{
    ckpt_request = request;
    ckpt_run_cmd = run_cmd;
}

static stats_mark mark(SysCPU *s)
{
    stats_mark m = { .cpu = s->index };
    for (unsigned i = 0; i < mach->ncpu; i++)
        m.insns += __atomic_load_n(&mach->cpus[i]->cpu.insn_count, __ATOMIC_RELAXED);
    if (!mach->ncpu)
        m.insns = s->cpu.insn_count;
    m.guest_ns = mach->gtimer ? gtimer_now_ns(mach->gtimer) : 0;
    return m;
}

static int64_t kernel_name(SysCPU *s, const uint64_t a[4], const stats_mark *m)
{
    char name[CHAN_NAME_MAX];
    unsigned dims = (unsigned)(a[1] & 0xff);
    uint64_t queue = a[1] >> 8;
    if (dims < 1 || dims > 3 || queue > UINT32_MAX)
        return STATS_ROI_EINVAL;
    int64_t r = read_string(s, a[0], name, sizeof(name));
    if (r < 0)
        return r;
    uint64_t global[3] = { 0 }, local[3] = { 0 };
    if ((r = read_guest(s, a[2], global, dims * 8u, false)) < 0)
        return r;
    if (a[3] && (r = read_guest(s, a[3], local, dims * 8u, false)) < 0)
        return r;
    return stats_launch_announce(name, dims, global, local, (unsigned)queue, m);
}

static uint64_t channel(SysCPU *s, unsigned op, const uint64_t a[4])
{
    stats_mark m = mark(s);
    char text[CHAN_TEXT_MAX];
    int64_t r;
    stats_channel_call(op);
    switch (op) {
    case CHAN_PROBE:
        return CHAN_MAGIC;
    case CHAN_ROI_BEGIN:
        r = read_string(s, a[0], text, CHAN_NAME_MAX);
        if (r >= 0)
            r = stats_roi_begin(text, &m);
        break;
    case CHAN_ROI_END:
        r = stats_roi_end(&m);
        break;
    case CHAN_STATS_RESET:
        r = stats_roi_reset(&m);
        break;
    case CHAN_STATS_DUMP:
        r = read_string(s, a[0], text, CHAN_NAME_MAX);
        if (r >= 0)
            r = stats_roi_dump(text, &m);
        break;
    case CHAN_ANNOTATE:
        r = read_string(s, a[0], text, sizeof(text));
        if (r >= 0)
            r = stats_roi_annotate(text, &m);
        break;
    case CHAN_KERNEL_NAME:
        r = kernel_name(s, a, &m);
        break;
    case CHAN_KERNEL_CANCEL:
        r = stats_launch_cancel(a[0]);
        break;
    case CHAN_CHECKPOINT:
        r = ckpt_request ? ckpt_request(s) : E_NOSYS;
        break;
    case CHAN_CKPT_RUN:
        r = ckpt_run(s, a);
        break;
    default:
        r = E_NOSYS;
        break;
    }
    if (r < 0) {
        stats_channel_error(op, r);
        if (!__atomic_exchange_n(&logged, 1, __ATOMIC_RELAXED))
            fprintf(stderr, "malibu: guest channel: operation %u at pc 0x%" PRIx64 " (EL%u) failed with %" PRId64
                            " (x0 = 0x%" PRIx64 "); later errors are only counted (--stats: roi.channel)\n",
                    op, s->cpu.pc, s->el, r, a[0]);
    }
    return (uint64_t)r;
}

void guest_channel_install(struct SysMachine *m)
{
    mach = m;
    sys_chan_call = channel;
}
