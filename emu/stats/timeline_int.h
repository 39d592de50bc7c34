/* Internal to emu/stats/timeline*.c: the event ring, per-vCPU state and the writer's view. */
#ifndef MALIBU_TIMELINE_INT_H
#define MALIBU_TIMELINE_INT_H

#include <pthread.h>

#include "timeline.h"

enum tl_kind { TL_EV_JOB = 1, TL_EV_CPU, TL_EV_IRQ, TL_EV_REGION, TL_EV_ANNOTATE };

typedef struct {
    uint64_t head, job_va, shader_va, order;
    uint64_t model_ns, model_dur;   /* on the modelled GPU schedule (devices/mali/clock.c) */
    uint32_t status;
    uint8_t type, as, stage;
    bool has_shader, has_groups;
    unsigned local[3], groups[3];
} tl_job_ev;

/* One event: a span (host_dur / guest_dur) or an instant (kind IRQ, ANNOTATE). */
typedef struct tl_event {
    uint64_t seq;             /* 1 + its index in recording order; 0: being written (first member) */
    uint64_t host_ns, host_dur, guest_ns, guest_dur;
    uint8_t kind, track, state;
    bool open;                /* written for a span still open at timeline_write */
    union {
        tl_job_ev job;
        struct { uint32_t raw; } irq;
        struct { uint16_t vec; uint8_t ec; } exc;    /* TL_EV_CPU in TL_CPU_EXCEPTION: its cause */
        char text[TIMELINE_TEXT];                     /* region name, annotation */
    } u;
} tl_event;

typedef struct {
    char name[TIMELINE_TEXT];
    uint64_t host0, guest0;
} tl_region;

/* A vCPU's current span and open regions: touched only by the thread running that vCPU. */
typedef struct {
    bool started;
    uint8_t state, ec;
    uint16_t vec;
    unsigned depth;           /* exceptions entered and not yet returned from */
    uint64_t host0, guest0;   /* when the current span began */
    unsigned nregions;
    tl_region regions[TIMELINE_REGION_DEPTH];
} tl_cpu;

/* The job a job-slot thread runs. */
typedef struct {
    bool active, has_shader, has_groups;
    unsigned slot, as, stage;
    uint64_t host0, guest0, model0, order, shader_va;
    unsigned local[3], groups[3];
} tl_job;

typedef struct {
    unsigned as;
    uint64_t shader_va, order;
    char name[TIMELINE_TEXT];
} tl_name;

typedef struct {
    tl_event *ring;
    uint64_t cap;
    uint64_t head;            /* events recorded (atomic) */
    uint64_t order;           /* job begins and kernel names, in order (atomic) */
    char *path;
    uint64_t host_start;
    uint64_t (*guest_now)(void *opaque);
    void *guest_opaque;
    tl_cpu cpu[TIMELINE_MAX_CPUS];
    pthread_mutex_t lock;     /* names */
    tl_name *names;
    size_t nnames, capnames;
} tl_state;

extern tl_state tl;

uint64_t tl_host_ns(void);
uint64_t tl_guest_ns(void);
void tl_record(const tl_event *e);
const char *tl_job_type_name(unsigned type);

#endif
