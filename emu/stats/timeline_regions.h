/* --timeline: regions, annotations and stats marks of the guest channel as timeline events
 * (timeline_regions.c).  Call once after timeline_enable. */
#ifndef MALIBU_TIMELINE_REGIONS_H
#define MALIBU_TIMELINE_REGIONS_H
void timeline_follow_regions(void);
#endif
