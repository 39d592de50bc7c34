/* malibu.h: the guest side of malibu's guest-to-emulator channel (docs/guest-channel.md in the
 * malibu sources), header-only.  Mark regions of interest, reset / dump statistics, annotate,
 * name kernel launches -- from any process, at EL0, without a driver:
 *
 *     #include "malibu.h"
 *     malibu_roi_begin("timed loop");
 *     ...
 *     malibu_roi_end();
 *     malibu_annotate("iteration %d done", i);
 *
 * The channel is one reserved A64 instruction that malibu's translator turns into a call
 * (arguments x0..x3, result x0).  It is UNDEFINED on real CPUs, so the library first looks for
 * the device-tree property /chosen/malibu,channel that malibu's board sets; without it (real
 * hardware, another emulator, a non-Arm host) every function does nothing and returns
 * MALIBU_ENOCHANNEL.  Results: >= 0 success (an id), < 0 a negated errno value. */
#ifndef MALIBU_H
#define MALIBU_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MALIBU_CHANNEL_INSN 0x204D4C00u   /* | operation number */
#define MALIBU_CHANNEL_MAGIC 0x4D4C0001   /* what the probe returns: "ML", version 1 */
#define MALIBU_CHANNEL_DT "/proc/device-tree/chosen/malibu,channel"
#define MALIBU_ENOCHANNEL (-38)           /* -ENOSYS: no channel here */

enum {
    MALIBU_OP_PROBE = 0, MALIBU_OP_ROI_BEGIN = 1, MALIBU_OP_ROI_END = 2, MALIBU_OP_STATS_RESET = 3,
    MALIBU_OP_STATS_DUMP = 4, MALIBU_OP_ANNOTATE = 5, MALIBU_OP_KERNEL_NAME = 6, MALIBU_OP_KERNEL_CANCEL = 7,
    MALIBU_OP_CHECKPOINT = 8, MALIBU_OP_CHECKPOINT_COMMAND = 9
};

#if defined(__aarch64__)
/* The instruction itself: op must be a constant. */
#define MALIBU_CALL(op, a0, a1, a2, a3)                                                        \
    __extension__({                                                                            \
        register uint64_t x0_ __asm__("x0") = (uint64_t)(a0);                                  \
        register uint64_t x1_ __asm__("x1") = (uint64_t)(a1);                                  \
        register uint64_t x2_ __asm__("x2") = (uint64_t)(a2);                                  \
        register uint64_t x3_ __asm__("x3") = (uint64_t)(a3);                                  \
        __asm__ volatile(".inst %c4" : "+r"(x0_) : "r"(x1_), "r"(x2_), "r"(x3_),               \
                         "i"(MALIBU_CHANNEL_INSN | (op)) : "memory");                          \
        (long)x0_;                                                                             \
    })
#else
#define MALIBU_CALL(op, a0, a1, a2, a3) ((void)(a0), (void)(a1), (void)(a2), (void)(a3), (long)MALIBU_ENOCHANNEL)
#endif

/* 1 when the channel is here (the device-tree property names this encoding and the probe
 * answers), else 0.  Looked up once per program (per translation unit). */
static inline int malibu_available(void)
{
    static int state = -1;
    if (state >= 0)
        return state;
    state = 0;
#if defined(__aarch64__)
    FILE *f = fopen(MALIBU_CHANNEL_DT, "rb");
    unsigned char b[4];
    if (f) {
        if (fread(b, 1, 4, f) == 4 &&
            ((uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]) == MALIBU_CHANNEL_INSN)
            state = MALIBU_CALL(MALIBU_OP_PROBE, 0, 0, 0, 0) == MALIBU_CHANNEL_MAGIC;
        fclose(f);
    }
#endif
    return state;
}

#define MALIBU_IF_AVAILABLE(call) (malibu_available() ? (call) : (long)MALIBU_ENOCHANNEL)

static inline long malibu_roi_begin(const char *name)
{
    return MALIBU_IF_AVAILABLE(MALIBU_CALL(MALIBU_OP_ROI_BEGIN, name, 0, 0, 0));
}
static inline long malibu_roi_end(void)
{
    return MALIBU_IF_AVAILABLE(MALIBU_CALL(MALIBU_OP_ROI_END, 0, 0, 0, 0));
}
static inline long malibu_stats_reset(void)
{
    return MALIBU_IF_AVAILABLE(MALIBU_CALL(MALIBU_OP_STATS_RESET, 0, 0, 0, 0));
}
static inline long malibu_stats_dump(const char *tag)
{
    return MALIBU_IF_AVAILABLE(MALIBU_CALL(MALIBU_OP_STATS_DUMP, tag, 0, 0, 0));
}
__attribute__((format(printf, 1, 2))) static inline long malibu_annotate(const char *fmt, ...)
{
    if (!malibu_available())
        return MALIBU_ENOCHANNEL;
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return MALIBU_CALL(MALIBU_OP_ANNOTATE, text, 0, 0, 0);
}
/* A kernel launch about to be enqueued (before the enqueue call: the driver may submit the job
 * at once): dims 1..3, global[dims], local[dims] or NULL (the driver chooses), the program's
 * number for the queue.  Returns a ticket for malibu_kernel_cancel (the enqueue failed). */
static inline long malibu_kernel_name(const char *name, unsigned dims, const uint64_t *global, const uint64_t *local,
                                      unsigned queue)
{
    return MALIBU_IF_AVAILABLE(
        MALIBU_CALL(MALIBU_OP_KERNEL_NAME, name, (uint64_t)dims | (uint64_t)queue << 8, global, local));
}
static inline long malibu_kernel_cancel(long ticket)
{
    return MALIBU_IF_AVAILABLE(MALIBU_CALL(MALIBU_OP_KERNEL_CANCEL, ticket, 0, 0, 0));
}

/* Save the whole board (malibu --checkpoint-save FILE; docs/checkpoint.md): 0 in the run that
 * saved, 1 in a run resumed from the file (malibu --checkpoint-load FILE); -EOPNOTSUPP (-95)
 * without --checkpoint-save. */
static inline long malibu_checkpoint(void)
{
    return MALIBU_IF_AVAILABLE(MALIBU_CALL(MALIBU_OP_CHECKPOINT, 0, 0, 0, 0));
}
/* In a resumed run: the command given to the resuming malibu with --run, NUL-terminated in buf:
 * its length, 0 when there is none, -ENAMETOOLONG (-36) when it does not fit in size bytes. */
static inline long malibu_checkpoint_command(char *buf, size_t size)
{
    memset(buf, 0, size); /* the pages written and present: malibu copies into them directly */
    return MALIBU_IF_AVAILABLE(MALIBU_CALL(MALIBU_OP_CHECKPOINT_COMMAND, buf, size, 0, 0));
}

#endif
