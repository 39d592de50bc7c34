/* Names and regions of the guest's work (emu/stats/regions.c): what the guest channel
 * (emu/system/guest_channel.c, docs/guest-channel.md) reports -- regions of interest, stats
 * reset / dump marks, annotations -- and the kernel launches the guest announced, which name the
 * GPU compute jobs they become.  Every event goes through one function of regions.c
 * (region_event), the single place a timeline can be fed from.
 *
 * Storage is bounded (a hostile guest cannot grow it without limit): calls past a bound return
 * STATS_ROI_ENOSPC and are counted. */
#ifndef MALIBU_STATS_REGIONS_H
#define MALIBU_STATS_REGIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* error codes, as the channel returns them to the guest (negated errno values) */
#define STATS_ROI_EINVAL (-22)
#define STATS_ROI_ENOSPC (-28)

#define STATS_ROI_MAX_DEPTH 64        /* nested open regions */
#define STATS_ROI_MAX_REGIONS 4096    /* regions, dumps and annotations each */
#define STATS_ROI_MAX_LAUNCHES 65536  /* announced kernel launches kept for the report */
#define STATS_ROI_PENDING 256         /* announced launches waiting for their GPU job */
#define STATS_ROI_MAX_NAMES 16384     /* distinct names and texts kept (all tables above) */

/* Where and when a call happened: the calling vCPU, the machine's guest instructions so far
 * (all vCPUs), guest time (ns since boot) and host time (ns since the first event). */
typedef struct stats_mark {
    unsigned cpu;
    uint64_t insns, guest_ns;
} stats_mark;

/* Each returns >= 0 (an id) or a negative error. */
int64_t stats_roi_begin(const char *name, const stats_mark *m);
int64_t stats_roi_end(const stats_mark *m);           /* the innermost open region */
int64_t stats_roi_reset(const stats_mark *m);         /* a dump covers from the last reset */
int64_t stats_roi_dump(const char *tag, const stats_mark *m);
int64_t stats_roi_annotate(const char *text, const stats_mark *m);
/* A kernel launch the guest is about to enqueue: its name, dimensions, global and local size
 * (local all 0: the driver chooses), and the guest's queue number.  Returns a ticket. */
int64_t stats_launch_announce(const char *name, unsigned dims, const uint64_t global[3], const uint64_t local[3],
                              unsigned queue, const stats_mark *m);
/* The enqueue failed: forget the pending launch (ticket from stats_launch_announce). */
int64_t stats_launch_cancel(uint64_t ticket);

/* GPU side (the stats observer, at a compute job's begin): the oldest pending launch whose
 * geometry the job's grid covers (each dimension: groups = ceil(global / local), and local as
 * announced when it was given), taken from the pending list.  Returns its index (for
 * stats_launch_bind) and its name, or -1 (the job stays unnamed). */
int64_t stats_launch_match(const unsigned local[3], const unsigned groups[3], const char **name);
/* The matched launch became registry job `job` (the report's gpu.shader_jobs index). */
void stats_launch_bind(int64_t launch, int64_t job);

/* Counting of the channel itself: a call, and a rejected one (error code). */
void stats_channel_call(unsigned op);
void stats_channel_error(unsigned op, int64_t code);

/* One event, as the timeline sees it (stats_regions_events). */
enum stats_roi_kind { ROI_EV_BEGIN, ROI_EV_END, ROI_EV_RESET, ROI_EV_DUMP, ROI_EV_ANNOTATE, ROI_EV_LAUNCH, ROI_EV_JOB_NAMED };
typedef struct stats_roi_event {
    enum stats_roi_kind kind;
    int64_t id;                 /* region / dump / annotation / launch index */
    const char *text;           /* name, tag, text (interned; NULL for END / RESET) */
    unsigned cpu;
    uint64_t insns, guest_ns, host_ns;
    int64_t job;                /* ROI_EV_JOB_NAMED: registry job; else jobs announced so far */
} stats_roi_event;
/* Called (under the store's lock) with every event as it is recorded; NULL: none. */
extern void (*stats_roi_event_hook)(const stats_roi_event *e);

#endif
