/* --timeline: the Chrome trace-event JSON file (the "JSON object format": traceEvents plus
 * otherData), from the events the ring kept and the spans still open when it is written.
 *
 * Every event is written twice, once per clock, as two processes: pid 1 "guest time" (the
 * board's clock, devices/gtimer.c, which --gpu-time model advances by the GPU's modelled time
 * while the vCPUs wait for it) and pid 2 "host time".  Two processes and not one clock plus the
 * other in args: Perfetto and chrome://tracing lay tracks out by ts only, and the two clocks
 * disagree by orders of magnitude (a GPU job takes ~100-1000x longer in host time), so each view
 * needs its own ts.  A GPU job's place on the modelled GPU schedule (the time its WRITE_VALUE
 * timestamps report, devices/mali/clock.c) is in its args: that schedule leaves out the CPU's
 * time between chains, so on the guest clock's axis its jobs would start before the CPU
 * submitted them. */
#include "timeline_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "compute.h"
#include "stats.h"

/* track ids (tid) of each process */
#define TID_SLOT 1            /* + job slot */
#define TID_IRQ 10
#define TID_CPU 100           /* + vCPU */
#define TID_REGION 200        /* + vCPU */

enum { PID_GUEST = 1, PID_HOST = 2 };

static void ts(FILE *f, const char *key, uint64_t ns)
{
    fprintf(f, ",\"%s\":%" PRIu64 ".%03" PRIu64, key, ns / 1000, ns % 1000);
}

static const char *ec_name(unsigned vec, unsigned ec)
{
    switch (vec) {
    case 0x80: return "exception (IRQ)";
    case 0x100: return "exception (FIQ)";
    case 0x180: return "exception (SError)";
    }
    switch (ec) {
    case 0x15: return "exception (SVC)";
    case 0x20: case 0x21: return "exception (instruction abort)";
    case 0x24: case 0x25: return "exception (data abort)";
    case 0x00: return "exception (undefined)";
    case 0x07: return "exception (FP access)";
    case 0x18: return "exception (system register)";
    case 0x3c: return "exception (BRK)";
    default: return "exception (synchronous)";
    }
}

static const char *cpu_state_name(const tl_event *e)
{
    switch (e->state) {
    case TL_CPU_RUNNING: return "running";
    case TL_CPU_IDLE: return "idle (WFI)";
    case TL_CPU_OFF: return "off";
    default: return ec_name(e->u.exc.vec, e->u.exc.ec);
    }
}

static const char *stage_name(unsigned stage)
{
    return stage < GPU_STAGES ? gpu_stage_names[stage] : "unknown";
}

static const char *irq_names[3] = { "JOB interrupt", "MMU interrupt", "GPU interrupt" };

/* an event in one clock's view */
typedef struct {
    const tl_event *e;
    uint64_t ts, dur;
    bool open;                /* a span still open when the file was written */
} view_ev;

static int cmp_view(const void *a, const void *b)
{
    const view_ev *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    if (x->dur != y->dur)              /* the enclosing span first */
        return x->dur > y->dur ? -1 : 1;
    return x->e->seq < y->e->seq ? -1 : x->e->seq > y->e->seq;
}

static void write_event(FILE *f, int pid, const view_ev *v)
{
    const tl_event *e = v->e;
    char name[160];
    const char *ph = "X", *cat = "";
    unsigned tid = 0;
    switch (e->kind) {
    case TL_EV_JOB:
        timeline_job_name(name, sizeof name, e->u.job.order, e->u.job.as, e->u.job.has_shader ? e->u.job.shader_va : 0,
                          e->u.job.type);
        tid = TID_SLOT + e->track;
        cat = "gpu";
        break;
    case TL_EV_CPU:
        snprintf(name, sizeof name, "%s", cpu_state_name(e));
        tid = TID_CPU + e->track;
        cat = "cpu";
        break;
    case TL_EV_IRQ:
        snprintf(name, sizeof name, "%s", irq_names[e->track < 3 ? e->track : 2]);
        tid = TID_IRQ;
        ph = "i";
        cat = "irq";
        break;
    case TL_EV_REGION:
        snprintf(name, sizeof name, "%s", e->u.text);
        tid = TID_REGION + e->track;
        cat = "region";
        break;
    case TL_EV_ANNOTATE:
        snprintf(name, sizeof name, "%s", e->u.text);
        tid = TID_REGION + e->track;
        ph = "i";
        cat = "annotation";
        break;
    }
    fprintf(f, ",\n{\"ph\":\"%s\",\"pid\":%d,\"tid\":%u,\"cat\":\"%s\"", ph, pid, tid, cat);
    ts(f, "ts", v->ts);
    if (*ph == 'X')
        ts(f, "dur", v->dur);
    else
        fprintf(f, ",\"s\":\"t\"");
    fprintf(f, ",\"name\":");
    stats_json_string(f, name);
    fprintf(f, ",\"args\":{");
    if (e->kind == TL_EV_JOB) {
        const tl_job_ev *j = &e->u.job;
        fprintf(f, "\"type\":\"%s\",\"chain\":\"0x%" PRIx64 "\",\"job\":\"0x%" PRIx64 "\",\"as\":%u,\"status\":",
                tl_job_type_name(j->type), j->head, j->job_va, j->as);
        if (j->status == 1)
            fprintf(f, "\"DONE\"");
        else
            fprintf(f, "\"0x%02x\"", j->status);
        if (j->has_shader)
            fprintf(f, ",\"shader\":\"0x%" PRIx64 "\",\"stage\":\"%s\"", j->shader_va, stage_name(j->stage));
        if (j->has_groups)
            fprintf(f, ",\"workgroups\":[%u,%u,%u],\"local_size\":[%u,%u,%u]", j->groups[0], j->groups[1],
                    j->groups[2], j->local[0], j->local[1], j->local[2]);
        /* the modelled GPU schedule (what the guest's GPU timestamps say) and the other clock */
        fprintf(f, ",\"modelled_start_ns\":%" PRIu64 ",\"modelled_ns\":%" PRIu64 ",\"%s\":%" PRIu64, j->model_ns,
                j->model_dur, pid == PID_GUEST ? "host_ns" : "guest_ns", pid == PID_GUEST ? e->host_dur : e->guest_dur);
    } else if (e->kind == TL_EV_IRQ) {
        fprintf(f, "\"rawstat\":\"0x%08x\"", e->u.irq.raw);
    }
    if (v->open)
        fprintf(f, "%s\"open_at_exit\":true", e->kind == TL_EV_JOB || e->kind == TL_EV_IRQ ? "," : "");
    fprintf(f, "}}");
}

static void meta(FILE *f, int pid, int tid, const char *what, const char *key, const char *sval, int ival)
{
    fprintf(f, ",\n{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"args\":{\"%s\":", pid, tid, what, key);
    if (sval)
        stats_json_string(f, sval);
    else
        fprintf(f, "%d", ival);
    fprintf(f, "}}");
}

static void write_process(FILE *f, int pid, const tl_event *ev, size_t n, const bool *tracks_cpu,
                          const bool *tracks_region, view_ev *v)
{
    meta(f, pid, 0, "process_name", "name",
         pid == PID_GUEST ? "guest time (board clock)" : "host time", 0);
    meta(f, pid, 0, "process_sort_index", "sort_index", NULL, pid);
    char buf[64];
    for (unsigned s = 0; s < TIMELINE_SLOTS; s++) {
        snprintf(buf, sizeof buf, "GPU job slot %u", s);
        meta(f, pid, TID_SLOT + (int)s, "thread_name", "name", buf, 0);
        meta(f, pid, TID_SLOT + (int)s, "thread_sort_index", "sort_index", NULL, (int)s);
    }
    meta(f, pid, TID_IRQ, "thread_name", "name", "GPU interrupts", 0);
    meta(f, pid, TID_IRQ, "thread_sort_index", "sort_index", NULL, 5);
    for (unsigned c = 0; c < TIMELINE_MAX_CPUS; c++) {
        if (tracks_cpu[c]) {
            snprintf(buf, sizeof buf, "vCPU %u", c);
            meta(f, pid, TID_CPU + (int)c, "thread_name", "name", buf, 0);
            meta(f, pid, TID_CPU + (int)c, "thread_sort_index", "sort_index", NULL, 10 + 2 * (int)c);
        }
        if (tracks_region[c]) {
            snprintf(buf, sizeof buf, "vCPU %u regions", c);
            meta(f, pid, TID_REGION + (int)c, "thread_name", "name", buf, 0);
            meta(f, pid, TID_REGION + (int)c, "thread_sort_index", "sort_index", NULL, 11 + 2 * (int)c);
        }
    }
    for (size_t i = 0; i < n; i++) {
        v[i].e = &ev[i];
        v[i].ts = pid == PID_GUEST ? ev[i].guest_ns : ev[i].host_ns;
        v[i].dur = pid == PID_GUEST ? ev[i].guest_dur : ev[i].host_dur;
        v[i].open = ev[i].open;
    }
    qsort(v, n, sizeof *v, cmp_view);
    for (size_t i = 0; i < n; i++)
        write_event(f, pid, &v[i]);
}

/* The events in the ring, oldest first, then the spans open now. */
static tl_event *collect(size_t *n_out)
{
    uint64_t head = __atomic_load_n(&tl.head, __ATOMIC_ACQUIRE);
    uint64_t first = head > tl.cap ? head - tl.cap : 0;
    size_t max = (size_t)(head - first) + TIMELINE_MAX_CPUS * (1 + TIMELINE_REGION_DEPTH);
    tl_event *ev = malloc(max * sizeof *ev);
    if (!ev)
        return NULL;
    size_t n = 0;
    for (uint64_t i = first; i < head; i++) {
        const tl_event *e = &tl.ring[i % tl.cap];
        if (__atomic_load_n(&e->seq, __ATOMIC_ACQUIRE) == i + 1)
            ev[n++] = *e;
    }
    uint64_t h = tl_host_ns(), g = tl_guest_ns();
    for (unsigned c = 0; c < TIMELINE_MAX_CPUS; c++) {
        const tl_cpu *cp = &tl.cpu[c];
        if (cp->started) {
            tl_event *e = &ev[n++];
            *e = (tl_event){ .seq = head + n, .kind = TL_EV_CPU, .track = (uint8_t)c, .host_ns = cp->host0,
                             .host_dur = h - cp->host0, .guest_ns = cp->guest0,
                             .guest_dur = g > cp->guest0 ? g - cp->guest0 : 0 };
            e->u.exc.vec = cp->vec;
            e->u.exc.ec = cp->ec;
            e->state = cp->state;
            e->open = true;
        }
        for (unsigned r = 0; r < cp->nregions; r++) {
            const tl_region *rg = &cp->regions[r];
            tl_event *e = &ev[n++];
            *e = (tl_event){ .seq = head + n, .kind = TL_EV_REGION, .track = (uint8_t)c, .host_ns = rg->host0,
                             .host_dur = h - rg->host0, .guest_ns = rg->guest0,
                             .guest_dur = g > rg->guest0 ? g - rg->guest0 : 0, .open = true };
            memcpy(e->u.text, rg->name, TIMELINE_TEXT);
        }
    }
    *n_out = n;
    return ev;
}

int timeline_write(const char *path, FILE *note)
{
    if (!path)
        path = tl.path;
    if (!path || !tl.ring)
        return -1;
    timeline_counts k;
    timeline_get_counts(&k);
    size_t n = 0;
    tl_event *ev = collect(&n);
    view_ev *v = ev ? malloc((n ? n : 1) * sizeof *v) : NULL;
    FILE *f = v ? fopen(path, "w") : NULL;
    if (!f) {
        fprintf(note ? note : stderr, "timeline: cannot write %s\n", path);
        free(ev);
        free(v);
        return -1;
    }
    bool tracks_cpu[TIMELINE_MAX_CPUS] = { false }, tracks_region[TIMELINE_MAX_CPUS] = { false };
    for (size_t i = 0; i < n; i++) {
        if (ev[i].kind == TL_EV_CPU)
            tracks_cpu[ev[i].track] = true;
        if (ev[i].kind == TL_EV_REGION || ev[i].kind == TL_EV_ANNOTATE)
            tracks_region[ev[i].track] = true;
    }
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"format\":\"malibu-timeline/1\",\"limit\":%" PRIu64
               ",\"recorded\":%" PRIu64 ",\"kept\":%" PRIu64 ",\"dropped\":%" PRIu64 ",\"policy\":\"newest kept\"},\n"
               "\"traceEvents\":[\n{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"process_labels\",\"args\":"
               "{\"labels\":\"malibu timeline: %" PRIu64 " events kept of %" PRIu64 ", %" PRIu64
               " older dropped (--timeline-limit %" PRIu64 ")\"}}",
            tl.cap, k.recorded, k.kept, k.dropped, k.kept, k.recorded, k.dropped, tl.cap);
    for (int pid = PID_GUEST; pid <= PID_HOST; pid++)
        write_process(f, pid, ev, n, tracks_cpu, tracks_region, v);
    fprintf(f, "\n]}\n");
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (note)
        fprintf(note, "timeline: %s: %" PRIu64 " events kept of %" PRIu64 " recorded, %" PRIu64
                      " dropped (--timeline-limit %" PRIu64 ")%s\n",
                path, k.kept, k.recorded, k.dropped, tl.cap, bad ? ": WRITE ERROR" : "");
    free(ev);
    free(v);
    return bad ? -1 : 0;
}
