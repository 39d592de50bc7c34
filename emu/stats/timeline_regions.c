/* --timeline follows the guest channel's regions and annotations (stats_regions.h): one hook on
 * the regions store, which sees every event in the order it was recorded.  The store keeps one
 * stack of regions for the whole machine (a program may move between vCPUs inside a region); the
 * timeline draws each region on the track of the vCPU that opened it, so its end goes there too. */
#include "timeline_regions.h"

#include <stdio.h>

#include "stats_regions.h"
#include "timeline.h"

static unsigned open_cpu[STATS_ROI_MAX_DEPTH];
static unsigned depth;                 /* under the store's lock, like the hook's calls */

static void follow(const stats_roi_event *e)
{
    char text[TIMELINE_TEXT];
    switch (e->kind) {
    case ROI_EV_BEGIN:
        if (depth < STATS_ROI_MAX_DEPTH)
            open_cpu[depth++] = e->cpu;
        timeline_region_begin(e->cpu, e->text ? e->text : "");
        break;
    case ROI_EV_END:
        if (depth)
            timeline_region_end(open_cpu[--depth]);
        break;
    case ROI_EV_ANNOTATE:
        timeline_annotate(e->cpu, e->text ? e->text : "");
        break;
    case ROI_EV_DUMP:
        snprintf(text, sizeof text, "stats dump %s", e->text ? e->text : "");
        timeline_annotate(e->cpu, text);
        break;
    case ROI_EV_RESET:
        timeline_annotate(e->cpu, "stats reset");
        break;
    default:                           /* launches and named jobs: timeline_job_named */
        break;
    }
}

void timeline_follow_regions(void)
{
    stats_roi_event_hook = follow;
}
