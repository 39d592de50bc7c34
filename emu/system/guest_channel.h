/* The guest-to-emulator channel of build/malibu (docs/guest-channel.md): the operations behind
 * the reserved instruction of emu/cpu/sys_chan.h. */
#ifndef MALIBU_GUEST_CHANNEL_H
#define MALIBU_GUEST_CHANNEL_H

#include <stdint.h>

/* operation numbers (the instruction's low 8 bits) */
enum {
    CHAN_PROBE = 0,        /* -> CHAN_MAGIC */
    CHAN_ROI_BEGIN = 1,    /* x0 name -> region id */
    CHAN_ROI_END = 2,      /* -> id of the region closed */
    CHAN_STATS_RESET = 3,
    CHAN_STATS_DUMP = 4,   /* x0 tag -> dump id */
    CHAN_ANNOTATE = 5,     /* x0 text -> annotation id */
    CHAN_KERNEL_NAME = 6,  /* x0 name, x1 dims | queue << 8, x2 -> u64 global[dims], x3 -> u64 local[dims] or 0 -> ticket */
    CHAN_KERNEL_CANCEL = 7, /* x0 ticket */
    CHAN_CHECKPOINT = 8,   /* save the board (--checkpoint-save) -> 0 in the saving run, 1 in a resumed one */
    CHAN_CKPT_RUN = 9      /* x0 buf, x1 size -> the resumed run's --run command copied to buf (with its
                            * NUL): its length, 0 if none */
};
#define CHAN_MAGIC 0x4D4C0001u     /* "ML", version 1 */
#define CHAN_NAME_MAX 256          /* names and tags, with their NUL */
#define CHAN_TEXT_MAX 1024         /* annotations */

struct SysMachine;
/* Install the channel for the machine's vCPUs (before guest code is translated). */
void guest_channel_install(struct SysMachine *m);
/* The checkpoint operations (emu/system/checkpoint.c): request(s) asks the machine to save at the
 * next block boundary and returns 0, or a negative errno value (no --checkpoint-save: -EOPNOTSUPP);
 * run_cmd() is the command of a resumed run's --run (NULL: none).  Without them both ops fail with
 * -ENOSYS. */
struct SysCPU;
void guest_channel_set_checkpoint(int64_t (*request)(struct SysCPU *s), const char *(*run_cmd)(void));

#endif
