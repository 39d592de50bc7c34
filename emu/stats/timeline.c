/* --timeline: the event ring and the hooks that fill it (timeline.h); the JSON writer is
 * timeline_json.c. */
#include "timeline_int.h"

#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <time.h>

bool timeline_on;
tl_state tl;

static uint64_t host_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t tl_host_ns(void)
{
    return host_clock_ns() - tl.host_start;
}

uint64_t tl_guest_ns(void)
{
    return tl.guest_now ? tl.guest_now(tl.guest_opaque) : tl_host_ns();
}

static void write_atexit(void)
{
    if (timeline_on)
        timeline_write(NULL, stderr);
}

bool timeline_enable(const char *path, uint64_t limit)
{
    if (limit < TIMELINE_MIN_LIMIT || limit > TIMELINE_MAX_LIMIT) {
        fprintf(stderr, "timeline: limit %llu outside %d..%d\n", (unsigned long long)limit, TIMELINE_MIN_LIMIT,
                TIMELINE_MAX_LIMIT);
        return false;
    }
    /* calloc of a large ring maps zero pages: memory is used only as events fill it */
    tl_event *ring = calloc(limit, sizeof *ring);
    if (!ring) {
        fprintf(stderr, "timeline: cannot allocate %llu events\n", (unsigned long long)limit);
        return false;
    }
    static bool atexit_done;
    free(tl.ring);
    free(tl.names);
    free(tl.path);
    memset(&tl, 0, sizeof tl);
    pthread_mutex_init(&tl.lock, NULL);
    tl.ring = ring;
    tl.cap = limit;
    tl.path = path ? strdup(path) : NULL;
    tl.host_start = host_clock_ns();
    timeline_on = true;
    if (!atexit_done && path) {
        atexit_done = true;
        atexit(write_atexit);
    }
    return true;
}

void timeline_reset(void)
{
    timeline_on = false;
    free(tl.ring);
    free(tl.names);
    free(tl.path);
    memset(&tl, 0, sizeof tl);
}

void timeline_set_guest_clock(uint64_t (*now_ns)(void *opaque), void *opaque)
{
    tl.guest_opaque = opaque;
    tl.guest_now = now_ns;
}

void timeline_get_counts(timeline_counts *out)
{
    uint64_t n = __atomic_load_n(&tl.head, __ATOMIC_ACQUIRE);
    out->recorded = n;
    out->kept = n < tl.cap ? n : tl.cap;
    out->dropped = n - out->kept;
}

#define TL_BUSY (1ull << 63) /* in a slot's seq: a writer is filling it */

/* Take the next sequence number (one atomic add) and fill its slot of the ring; the sequence
 * number, stored last, marks the slot complete.  Writers meet in one slot only when one of
 * them stalls between its add and its fill while the others record a whole lap of the ring
 * (--timeline-limit events, many threads on few host CPUs): the slot is claimed from an older
 * event by a compare-and-swap (TL_BUSY while filling; the newer writer spins until the holder
 * is done), and a writer that finds a newer event there drops its own, which the ring no
 * longer holds anyway.  So the last lap holds each of its events whole; the file is written
 * after every writer stopped. */
void tl_record(const tl_event *e)
{
    uint64_t idx = __atomic_fetch_add(&tl.head, 1, __ATOMIC_RELAXED);
    tl_event *slot = &tl.ring[idx % tl.cap];
    uint64_t seq = idx + 1, cur = __atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE);
    for (unsigned spins = 0;; spins++) {
        if (cur & TL_BUSY) {
            if (spins > 64)
                sched_yield(); /* the holder may be descheduled */
            cur = __atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE);
            continue;
        }
        if (cur >= seq)
            return;
        if (__atomic_compare_exchange_n(&slot->seq, &cur, TL_BUSY | seq, true, __ATOMIC_ACQUIRE,
                                        __ATOMIC_ACQUIRE))
            break;
    }
    memcpy((char *)slot + sizeof slot->seq, (const char *)e + sizeof e->seq, sizeof *e - sizeof e->seq);
    __atomic_store_n(&slot->seq, seq, __ATOMIC_RELEASE);
}

/* Length of the well-formed UTF-8 sequence at s (at most `room` bytes), 0 if there is none. */
static size_t utf8_len(const unsigned char *s, size_t room)
{
    size_t n = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (n == 0 || n > room || (n == 2 && s[0] < 0xc2) || (n == 4 && s[0] > 0xf4))
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((n == 3 && s[0] == 0xe0 && s[1] < 0xa0) || (n == 3 && s[0] == 0xed && s[1] >= 0xa0) ||
        (n == 4 && s[0] == 0xf0 && s[1] < 0x90) || (n == 4 && s[0] == 0xf4 && s[1] >= 0x90))
        return 0;   /* overlong, surrogate, beyond U+10FFFF */
    return n;
}

/* Text from the guest, for the JSON file: at most TIMELINE_TEXT - 1 bytes, cut between
 * characters, each byte that is not part of well-formed UTF-8 replaced by '?'. */
static void copy_text(char dst[TIMELINE_TEXT], const char *src)
{
    const unsigned char *s = (const unsigned char *)src;
    size_t len = strnlen(src, TIMELINE_TEXT + 3), o = 0;   /* + a character the limit cuts */
    for (size_t i = 0; i < len;) {
        size_t n = utf8_len(s + i, len - i);
        if (o + (n ? n : 1) > TIMELINE_TEXT - 1)
            break;
        if (n == 0) {
            dst[o++] = '?';
            i++;
        } else {
            memcpy(dst + o, s + i, n);
            o += n;
            i += n;
        }
    }
    dst[o] = 0;
}

/* ---- vCPUs ------------------------------------------------------------------------------------- */

/* End the vCPU's current span now and start one in state st (cause: vec, ec for exceptions). */
static void cpu_switch(unsigned cpu, unsigned st, unsigned vec, unsigned ec)
{
    tl_cpu *c = &tl.cpu[cpu];
    uint64_t h = tl_host_ns(), g = tl_guest_ns();
    if (c->started) {
        tl_event e = { .kind = TL_EV_CPU, .track = (uint8_t)cpu, .state = c->state, .host_ns = c->host0,
                       .host_dur = h - c->host0, .guest_ns = c->guest0,
                       .guest_dur = g > c->guest0 ? g - c->guest0 : 0 };
        e.u.exc.vec = c->vec;
        e.u.exc.ec = c->ec;
        tl_record(&e);
    }
    c->started = true;
    c->state = (uint8_t)st;
    c->vec = (uint16_t)vec;
    c->ec = (uint8_t)ec;
    c->host0 = h;
    c->guest0 = g;
}

void timeline_cpu_exception(unsigned cpu, unsigned vec, unsigned ec)
{
    if (cpu >= TIMELINE_MAX_CPUS)
        return;
    if (tl.cpu[cpu].depth++ == 0)
        cpu_switch(cpu, TL_CPU_EXCEPTION, vec, ec);
}

void timeline_cpu_eret(unsigned cpu)
{
    if (cpu >= TIMELINE_MAX_CPUS)
        return;
    tl_cpu *c = &tl.cpu[cpu];
    if (c->depth == 0) /* a return without an entry we saw (a new task's first ERET) */
        return;
    if (--c->depth == 0)
        cpu_switch(cpu, TL_CPU_RUNNING, 0, 0);
}

/* A sleep in WFI is the guest's idle loop: whatever exceptions were open belong to tasks the
 * guest switched away from (an interrupt that ended in the scheduler, a syscall that blocked),
 * and their ERETs come when those tasks resume.  So the nesting starts again from zero: the vCPU
 * wakes up running, and an ERET with nothing open is ignored. */
void timeline_cpu_idle(unsigned cpu, bool idle)
{
    if (cpu >= TIMELINE_MAX_CPUS)
        return;
    tl.cpu[cpu].depth = 0;
    cpu_switch(cpu, idle ? TL_CPU_IDLE : TL_CPU_RUNNING, 0, 0);
}

void timeline_cpu_start(unsigned cpu)
{
    timeline_cpu_idle(cpu, false);
}

void timeline_cpu_off(unsigned cpu)
{
    if (cpu >= TIMELINE_MAX_CPUS)
        return;
    tl.cpu[cpu].depth = 0;
    cpu_switch(cpu, TL_CPU_OFF, 0, 0);
}

/* ---- GPU --------------------------------------------------------------------------------------- */

/* The job the calling job-slot thread runs (between timeline_gpu_job_begin and _end). */
static __thread tl_job cur_job;

void timeline_gpu_job_begin(unsigned slot, uint64_t model_ns)
{
    memset(&cur_job, 0, sizeof cur_job);
    cur_job.active = true;
    cur_job.slot = slot;
    cur_job.host0 = tl_host_ns();
    cur_job.guest0 = tl_guest_ns();
    cur_job.model0 = model_ns;
    cur_job.order = __atomic_add_fetch(&tl.order, 1, __ATOMIC_RELAXED);
}

void timeline_gpu_job_shader(uint64_t shader_va, unsigned as, unsigned stage)
{
    if (!cur_job.active || cur_job.has_shader)
        return;
    cur_job.has_shader = true;
    cur_job.shader_va = shader_va;
    cur_job.as = as;
    cur_job.stage = stage;
}

void timeline_gpu_job_groups(const unsigned local[3], const unsigned groups[3])
{
    if (!cur_job.active)
        return;
    cur_job.has_groups = true;
    memcpy(cur_job.local, local, sizeof cur_job.local);
    memcpy(cur_job.groups, groups, sizeof cur_job.groups);
}

void timeline_gpu_job_end(unsigned slot, unsigned as, uint64_t head, uint64_t job_va, unsigned type,
                          uint32_t status, uint64_t model_ns)
{
    if (!cur_job.active || cur_job.slot != slot)
        timeline_gpu_job_begin(slot, model_ns);
    uint64_t h = tl_host_ns(), g = tl_guest_ns();
    tl_event e = { .kind = TL_EV_JOB, .track = (uint8_t)(slot < TIMELINE_SLOTS ? slot : TIMELINE_SLOTS - 1),
                   .host_ns = cur_job.host0, .host_dur = h - cur_job.host0, .guest_ns = cur_job.guest0,
                   .guest_dur = g > cur_job.guest0 ? g - cur_job.guest0 : 0 };
    tl_job_ev *j = &e.u.job;
    j->model_ns = cur_job.model0;
    j->model_dur = model_ns > cur_job.model0 ? model_ns - cur_job.model0 : 0;
    j->head = head;
    j->job_va = job_va;
    j->type = (uint8_t)type;
    j->as = (uint8_t)as;
    j->status = status;
    j->order = cur_job.order;
    if (cur_job.has_shader) {
        j->has_shader = true;
        j->shader_va = cur_job.shader_va;
        j->as = (uint8_t)cur_job.as;
        j->stage = (uint8_t)cur_job.stage;
    }
    if (cur_job.has_groups) {
        j->has_groups = true;
        memcpy(j->local, cur_job.local, sizeof j->local);
        memcpy(j->groups, cur_job.groups, sizeof j->groups);
    }
    cur_job.active = false;
    tl_record(&e);
}

void timeline_gpu_irq(unsigned line, uint32_t raw)
{
    tl_event e = { .kind = TL_EV_IRQ, .track = (uint8_t)(line < 3 ? line : 2), .host_ns = tl_host_ns(),
                   .guest_ns = tl_guest_ns() };
    e.u.irq.raw = raw;
    tl_record(&e);
}

/* ---- regions, annotations, kernel names -------------------------------------------------------- */

int timeline_region_begin(unsigned cpu, const char *name)
{
    if (!timeline_on || cpu >= TIMELINE_MAX_CPUS || !name)
        return -1;
    tl_cpu *c = &tl.cpu[cpu];
    if (c->nregions >= TIMELINE_REGION_DEPTH)
        return -1;
    tl_region *r = &c->regions[c->nregions++];
    copy_text(r->name, name);
    r->host0 = tl_host_ns();
    r->guest0 = tl_guest_ns();
    return 0;
}

int timeline_region_end(unsigned cpu)
{
    if (!timeline_on || cpu >= TIMELINE_MAX_CPUS || tl.cpu[cpu].nregions == 0)
        return -1;
    tl_cpu *c = &tl.cpu[cpu];
    tl_region *r = &c->regions[--c->nregions];
    uint64_t h = tl_host_ns(), g = tl_guest_ns();
    tl_event e = { .kind = TL_EV_REGION, .track = (uint8_t)cpu, .host_ns = r->host0, .host_dur = h - r->host0,
                   .guest_ns = r->guest0, .guest_dur = g > r->guest0 ? g - r->guest0 : 0 };
    memcpy(e.u.text, r->name, TIMELINE_TEXT);
    tl_record(&e);
    return 0;
}

void timeline_annotate(unsigned cpu, const char *text)
{
    if (!timeline_on || cpu >= TIMELINE_MAX_CPUS || !text)
        return;
    tl_event e = { .kind = TL_EV_ANNOTATE, .track = (uint8_t)cpu, .host_ns = tl_host_ns(), .guest_ns = tl_guest_ns() };
    copy_text(e.u.text, text);
    tl_record(&e);
}

void timeline_job_named(unsigned as, uint64_t shader_va, const char *name)
{
    if (!timeline_on || !name)
        return;
    pthread_mutex_lock(&tl.lock);
    if (tl.nnames == tl.capnames) {
        size_t cap = tl.capnames ? tl.capnames * 2 : 64;
        tl_name *n = realloc(tl.names, cap * sizeof *n);
        if (!n) {
            pthread_mutex_unlock(&tl.lock);
            return;
        }
        tl.names = n;
        tl.capnames = cap;
    }
    tl_name *n = &tl.names[tl.nnames++];
    n->as = as;
    n->shader_va = shader_va;
    n->order = __atomic_add_fetch(&tl.order, 1, __ATOMIC_RELAXED);
    /* named while the calling job-slot thread starts a job of this shader (the --stats observer
     * matching the job to the guest's announced launch): the name is this job's too */
    if (cur_job.active && cur_job.has_shader && cur_job.as == as && cur_job.shader_va == shader_va)
        n->order = cur_job.order - 1;
    copy_text(n->name, name);
    pthread_mutex_unlock(&tl.lock);
}

static const char *const job_type_names[16] = {
    [0] = "NOT_STARTED", [1] = "NULL", [2] = "WRITE_VALUE", [3] = "CACHE_FLUSH", [4] = "COMPUTE",
    [5] = "VERTEX", [6] = "GEOMETRY", [7] = "TILER", [8] = "FUSED", [9] = "FRAGMENT", [10] = "INDEXED_VERTEX",
};

const char *tl_job_type_name(unsigned type)
{
    return type < 16 && job_type_names[type] ? job_type_names[type] : "UNKNOWN";
}

void timeline_job_name(char *buf, size_t len, uint64_t order, unsigned as, uint64_t shader_va, unsigned type)
{
    const char *best = NULL;
    uint64_t best_order = 0;
    pthread_mutex_lock(&tl.lock);
    for (size_t i = 0; i < tl.nnames; i++) {
        const tl_name *n = &tl.names[i];
        if (n->as == as && n->shader_va == shader_va && n->order < order && n->order >= best_order) {
            best = n->name;
            best_order = n->order;
        }
    }
    if (best)
        snprintf(buf, len, "%s", best);
    else if (shader_va)
        snprintf(buf, len, "shader@0x%llx/as%u", (unsigned long long)shader_va, as);
    else
        snprintf(buf, len, "%s", tl_job_type_name(type));
    pthread_mutex_unlock(&tl.lock);
}
