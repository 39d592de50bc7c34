/* Job manager (0x1000-0x1FFF): 3 job slots, each run by its own host thread (the slots are
 * independent on hardware too, so an MMU stall on one does not hold up the others).
 *
 * Slot model: writing JS_COMMAND_NEXT = START latches the _NEXT registers; when the slot has no
 * active chain and no unacknowledged FAILED interrupt, they move to the current set at once
 * (JS_COMMAND_NEXT then reads 0, JS_STATE bit n set, JS_STATUS = ACTIVE) and the slot thread
 * walks the chain.  On completion: JS_STATUS = DONE, JOB_IRQ_RAWSTAT bit n, and the next latched
 * chain starts.  On a fault or stop: JS_STATUS = exception code, JS_HEAD/JS_TAIL = the job that
 * failed or was stopped (the driver resumes soft-stopped chains from JS_TAIL), RAWSTAT bit 16+n,
 * and the latched chain waits until the driver clears that bit (or cancels it with NOP).
 *
 * Chain walk: the Next links are followed first (at most 65535 jobs, 64-byte aligned headers),
 * then jobs run one at a time: the first job in list order whose dependencies (job indices in
 * Dependency 1/2) have all completed, and, when its Barrier bit is set, every earlier job too.
 * A dependency on an index no job in the chain has counts as met (a chain resumed from JS_TAIL
 * no longer holds the jobs it depended on).  A chain whose remaining jobs can never run
 * (cyclic or self dependencies) ends with JOB_CONFIG_FAULT.  Each completed job gets its
 * header written back (Exception Status = 1 DONE, First Incomplete Task = 0, Fault Pointer = 0)
 * unless JS_CONFIG disables descriptor write-back; a failed job gets its exception code and the
 * faulting address.
 *
 * Job types: NULL; WRITE_VALUE (cycle counter, system timestamp, zero, imm8/16/32/64; the
 * timestamp is the chain's GPU time: clock.c mali_job_timestamp);
 * CACHE_FLUSH (no caches are modelled: bumps LATEST_FLUSH_ID); shader jobs (COMPUTE ..
 * INDEXED_VERTEX) go to the MaliComputeFn engine (mali.h) when it registered their type, and
 * otherwise end with DATA_INVALID_FAULT (0x58) (the board's engine runs every type but FUSED:
 * emu/gpu/job_type.c); type 0 / >10, 32-bit descriptors (Is 64b = 0), misaligned headers, over-long chains
 * and unknown WRITE_VALUE types end with JOB_CONFIG_FAULT (0x40). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mali_int.h"
#include "mali_formats.h"
#include "../../emu/stats/stats.h"
#include "../../emu/stats/timeline.h"

#define MAX_CHAIN_JOBS MALI_MAX_CHAIN_JOBS
#define EXC_ABANDON 0x10000u /* internal: reset/teardown while running, drop the chain */
#define EXC_PARK 0x10001u    /* internal: stopped for a checkpoint, the job runs again (ckpt.c) */
#define STOP_SOFT 1
#define STOP_HARD 2

static unsigned log_budget = 32; /* stderr messages about unsupported jobs (all devices) */

static void logf_limited(const char *fmt, unsigned slot, unsigned long long va, const char *what)
{
    if (__atomic_load_n(&log_budget, __ATOMIC_RELAXED) == 0)
        return;
    if (__atomic_sub_fetch(&log_budget, 1, __ATOMIC_RELAXED) == 0)
        fprintf(stderr, "mali: (further job messages suppressed)\n");
    fprintf(stderr, fmt, slot, va, what);
}

/* ---- slot state (m->lock held) ------------------------------------------------------------ */

static void slot_try_start(Mali *m, MaliSlot *s)
{
    if (s->active || s->next_command != JS_CMD_START || (m->job_irq_raw >> (16 + s->n) & 1))
        return;
    s->head = s->tail = s->next_head;
    s->affinity = s->next_affinity;
    s->config = s->next_config;
    s->xaffinity = s->next_xaffinity;
    s->flush_id = s->next_flush_id;
    s->anchor_ts = s->next_anchor_ts;
    s->next_command = JS_CMD_NOP;
    s->active = true;
    s->stop = 0;
    s->status = MALI_EXC_ACTIVE;
    if (m->icount)
        s->icount_start_ns = mali_board_ns(m); /* on the vCPU thread: a deterministic time */
    pthread_cond_broadcast(&m->cond);
}

void mali_job_reset_locked(Mali *m)
{
    m->job_irq_raw = 0;
    m->job_irq_mask = 0;
    for (unsigned i = 0; i < JS_NUM; i++) {
        MaliSlot *s = &m->slot[i];
        s->active = false;
        s->stop = 0; /* s->stalled: counted down by the threads still waiting */
        s->head = s->tail = s->affinity = 0;
        s->config = s->xaffinity = s->status = s->flush_id = 0;
        s->next_head = s->next_affinity = 0;
        s->next_config = s->next_xaffinity = s->next_command = s->next_flush_id = 0;
        s->next_anchor_ts = s->anchor_ts = s->model_end = 0;
        s->clock_seen = true;
        s->pub_pending = false; /* a finished chain not yet published is dropped with the rest */
    }
}

static uint32_t js_state(Mali *m)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < JS_NUM; i++) {
        if (m->slot[i].active)
            v |= 1u << i;
        if (m->slot[i].next_command == JS_CMD_START)
            v |= 1u << (16 + i);
    }
    return v;
}

uint32_t mali_job_read_reg(Mali *m, uint32_t off)
{
    switch (off) {
    case JOB_IRQ_RAWSTAT: return m->job_irq_raw;
    case JOB_IRQ_MASK: return m->job_irq_mask;
    case JOB_IRQ_STATUS: return m->job_irq_raw & m->job_irq_mask;
    case JOB_IRQ_JS_STATE: return js_state(m);
    default: break;
    }
    if (off < JS_BASE || off >= JS_BASE + JS_NUM * JS_STRIDE)
        return 0;
    MaliSlot *s = &m->slot[(off - JS_BASE) / JS_STRIDE];
    switch ((off - JS_BASE) % JS_STRIDE) {
    case JS_HEAD_LO: return (uint32_t)s->head;
    case JS_HEAD_HI: return (uint32_t)(s->head >> 32);
    case JS_TAIL_LO: return (uint32_t)s->tail;
    case JS_TAIL_HI: return (uint32_t)(s->tail >> 32);
    case JS_AFFINITY_LO: return (uint32_t)s->affinity;
    case JS_AFFINITY_HI: return (uint32_t)(s->affinity >> 32);
    case JS_CONFIG: return s->config;
    case JS_XAFFINITY: return s->xaffinity;
    case JS_STATUS: return s->status;
    case JS_HEAD_NEXT_LO: return (uint32_t)s->next_head;
    case JS_HEAD_NEXT_HI: return (uint32_t)(s->next_head >> 32);
    case JS_AFFINITY_NEXT_LO: return (uint32_t)s->next_affinity;
    case JS_AFFINITY_NEXT_HI: return (uint32_t)(s->next_affinity >> 32);
    case JS_CONFIG_NEXT: return s->next_config;
    case JS_XAFFINITY_NEXT: return s->next_xaffinity;
    case JS_COMMAND_NEXT: return s->next_command;
    case JS_FLUSH_ID_NEXT: return s->next_flush_id;
    default: return 0;
    }
}

static void slot_command(Mali *m, MaliSlot *s, uint32_t cmd)
{
    if (!s->active)
        return;
    bool flag = (s->config & JS_CONFIG_JOB_CHAIN_FLAG) != 0;
    int stop = 0;
    switch (cmd) {
    case JS_CMD_SOFT_STOP: stop = STOP_SOFT; break;
    case JS_CMD_HARD_STOP: stop = STOP_HARD; break;
    case JS_CMD_SOFT_STOP_0: stop = flag ? 0 : STOP_SOFT; break;
    case JS_CMD_HARD_STOP_0: stop = flag ? 0 : STOP_HARD; break;
    case JS_CMD_SOFT_STOP_1: stop = flag ? STOP_SOFT : 0; break;
    case JS_CMD_HARD_STOP_1: stop = flag ? STOP_HARD : 0; break;
    default: break;
    }
    if (stop > s->stop) {
        s->stop = stop;
        pthread_cond_broadcast(&m->cond);
    }
}

static void set_lo(uint64_t *r, uint32_t v) { *r = (*r & ~0xFFFFFFFFull) | v; }
static void set_hi(uint64_t *r, uint32_t v) { *r = (*r & 0xFFFFFFFFull) | (uint64_t)v << 32; }

void mali_job_write_reg(Mali *m, uint32_t off, uint32_t v)
{
    switch (off) {
    case JOB_IRQ_CLEAR:
        m->job_irq_raw &= ~v;
        for (unsigned i = 0; i < JS_NUM; i++)
            slot_try_start(m, &m->slot[i]);
        mali_update_irqs(m);
        return;
    case JOB_IRQ_MASK:
        m->job_irq_mask = v & 0x00070007u;
        mali_update_irqs(m);
        return;
    default: break;
    }
    if (off < JS_BASE || off >= JS_BASE + JS_NUM * JS_STRIDE)
        return;
    MaliSlot *s = &m->slot[(off - JS_BASE) / JS_STRIDE];
    switch ((off - JS_BASE) % JS_STRIDE) {
    case JS_COMMAND: slot_command(m, s, v); break;
    case JS_HEAD_NEXT_LO: set_lo(&s->next_head, v); break;
    case JS_HEAD_NEXT_HI: set_hi(&s->next_head, v); break;
    case JS_AFFINITY_NEXT_LO: set_lo(&s->next_affinity, v); break;
    case JS_AFFINITY_NEXT_HI: set_hi(&s->next_affinity, v); break;
    case JS_CONFIG_NEXT: s->next_config = v; break;
    case JS_XAFFINITY_NEXT: s->next_xaffinity = v; break;
    case JS_COMMAND_NEXT:
        s->next_command = v == JS_CMD_START ? JS_CMD_START : JS_CMD_NOP;
        /* the CPU's time since the previous chain counts only if it looked at the GPU's clock
         * meanwhile (clock.c mali_job_timestamp_locked) */
        if (v == JS_CMD_START) {
            s->next_anchor_ts = s->clock_seen ? mali_system_counter(m) : 0;
            s->clock_seen = false;
        }
        slot_try_start(m, s);
        break;
    case JS_FLUSH_ID_NEXT: s->next_flush_id = v; break;
    default: break;
    }
}

/* ---- GPU memory through the job's address space ------------------------------------------- */

static bool stop_pending(MaliJobCtx *c, bool soft_too)
{
    Mali *m = c->m;
    return m->quit || m->reset_gen != c->reset_gen || c->s->stop == STOP_HARD ||
           (soft_too && c->s->stop == STOP_SOFT) || c->s->park_abort;
}

static uint32_t stop_code(MaliJobCtx *c)
{
    if (c->m->quit || c->m->reset_gen != c->reset_gen)
        return EXC_ABANDON;
    if (c->s->stop)
        return c->s->stop == STOP_HARD ? MALI_EXC_TERMINATED : MALI_EXC_STOPPED;
    return c->s->park_abort ? EXC_PARK : MALI_EXC_STOPPED;
}

static void set_fault(MaliJobCtx *c, uint64_t va)
{
    __atomic_store_n(&c->fault_va, va, __ATOMIC_RELAXED);
}

static bool as_enabled(const MaliAs *a)
{
    unsigned cfg = a->cur_transcfg & AS_TRANSCFG_ADRMODE_MASK;
    unsigned mode = a->cur_transtab & AS_TRANSTAB_ADRMODE_MASK;
    return cfg == AS_TRANSTAB_ADRMODE_IDENTITY ||
           (cfg == 0 && (mode == AS_TRANSTAB_ADRMODE_TABLE || mode == AS_TRANSTAB_ADRMODE_IDENTITY));
}

static void report_fault(Mali *m, unsigned asn, uint32_t code, unsigned access, uint64_t va,
                         bool bus)
{
    if (asn >= AS_NUM || !(m->model->as_present >> asn & 1))
        return;
    uint32_t bit = bus ? 1u << (16 + asn) : 1u << asn;
    if (!(m->mmu_irq_raw & (0x10001u << asn))) { /* keep the first unacknowledged fault */
        m->as[asn].faultstatus = (code & 0xFF) | (access & 3) << 8;
        m->as[asn].faultaddress = va;
    }
    m->mmu_irq_raw |= bit;
    mali_update_irqs(m);
}

/* ---- board clock model (mali.h MaliClockModel, gtimer.h) ------------------------------------ */

/* A job's engine threads start or stop waiting for the CPU: the board clock must not stand still
 * while the GPU waits for the CPU.  m->lock held. */
static void stall_begin(MaliJobCtx *c)
{
    if (c->m->quiesce) /* mali_ckpt_quiesce waits for this slot: it stops the job */
        pthread_cond_broadcast(&c->m->cond);
    if (c->holding && c->stalls++ == 0 && c->m->clock.hold)
        c->m->clock.hold(c->m->clock.opaque, -1);
}

static void stall_end(MaliJobCtx *c)
{
    if (c->holding && --c->stalls == 0 && c->m->clock.hold)
        c->m->clock.hold(c->m->clock.opaque, +1);
}

static void hold_clock(MaliJobCtx *c, bool on)
{
    Mali *m = c->m;
    pthread_mutex_lock(&m->lock);
    if (on != c->holding && m->clock.hold && c->stalls == 0)
        m->clock.hold(m->clock.opaque, on ? +1 : -1);
    c->holding = on;
    pthread_mutex_unlock(&m->lock);
}

void mali_job_progress(void *ctx, uint64_t warp_tuples)
{
    MaliJobCtx *c = ctx;
    Mali *m = c->m;
    if (!c->issue_hz)
        return;
    uint64_t after = __atomic_add_fetch(&c->tuples, warp_tuples, __ATOMIC_RELAXED);
    uint64_t before = after - warp_tuples;
    /* difference of cumulative times: batches from several threads sum exactly */
    uint64_t ns = (uint64_t)((unsigned __int128)after * 1000000000u / c->issue_hz -
                             (unsigned __int128)before * 1000000000u / c->issue_hz);
    if (!ns)
        return;
    __atomic_add_fetch(&c->chain_ns, ns, __ATOMIC_RELAXED);
    if (m->clock.advance)
        m->clock.advance(m->clock.opaque, ns);
}

void mali_job_stall(void *ctx, uint64_t gpu_cycles)
{
    MaliJobCtx *c = ctx;
    Mali *m = c->m;
    if (!c->issue_hz || !m->model->clock_hz)
        return;
    uint64_t ns = (uint64_t)((unsigned __int128)gpu_cycles * 1000000000u / m->model->clock_hz);
    if (!ns)
        return;
    __atomic_add_fetch(&c->stall_ns, ns, __ATOMIC_RELAXED);
    __atomic_add_fetch(&c->chain_ns, ns, __ATOMIC_RELAXED);
    /* One large advance at the job's end: if a CPU is awake right now (a timer tick), wait for it
     * to sleep again (up to ~100 ms of host time) rather than lose the stall time. */
    for (unsigned i = 0; m->clock.advance_frozen && i < 1000; i++) {
        if (m->clock.advance_frozen(m->clock.opaque, ns))
            return;
        if (mali_job_should_stop(c))
            break;
        nanosleep(&(struct timespec){ .tv_nsec = 100000 }, NULL);
    }
    if (m->clock.advance)
        m->clock.advance(m->clock.opaque, ns);
}

uint64_t mali_job_model_ns(void *ctx)
{
    MaliJobCtx *c = ctx;
    if (!c->issue_hz)
        return 0;
    uint64_t t = __atomic_load_n(&c->tuples, __ATOMIC_RELAXED);
    return (uint64_t)((unsigned __int128)t * 1000000000u / c->issue_hz) + __atomic_load_n(&c->stall_ns, __ATOMIC_RELAXED);
}

/* Translate one page of an access, stalling on translation faults and locked regions. */
static uint32_t translate_page(MaliJobCtx *c, uint64_t va, unsigned access, uint64_t *pa)
{
    Mali *m = c->m;
    MaliSlot *s = c->s;
    MaliAs *a = c->as < AS_NUM ? &m->as[c->as] : NULL;
    for (;;) {
        if (stop_pending(c, false))
            return stop_code(c);
        if (a && a->locked && va - a->lock_base < a->lock_size) {
            s->stalled++;
            stall_begin(c);
            while (a->locked && va - a->lock_base < a->lock_size && !stop_pending(c, true))
                pthread_cond_wait(&m->cond, &m->lock);
            stall_end(c);
            s->stalled--;
            if (stop_pending(c, true))
                return stop_code(c);
            continue;
        }
        bool bus;
        uint32_t code = mali_as_translate(m, c->as, va, access, pa, &bus);
        if (!code) {
            stats_gpu_page(c->as, va, access);
            return 0;
        }
        set_fault(c, va);
        uint64_t gen = a ? a->cmd_gen : 0;
        if (!c->mmu_fault) {
            /* the chain's first MMU fault: the observer reports it before the driver sees the
             * interrupt, while the job's tables and descriptors are as they were */
            c->mmu_fault = true;
            MaliFaultInfo fi = { .slot = s->n, .as = c->as, .arch_major = m->model->gpu_id >> 28,
                                 .head = s->head, .job_va = s->tail, .status = code, .fault_va = va,
                                 .mmu_fault = true, .mmu_code = code, .mmu_access = access, .mmu_va = va };
            MaliFaultFn fault_fn = m->fault_fn;
            void *fault_opaque = m->fault_opaque;
            if (fault_fn) {
                pthread_mutex_unlock(&m->lock);
                fault_fn(fault_opaque, c, &fi);
                pthread_mutex_lock(&m->lock);
            }
        }
        report_fault(m, c->as, code, access, va, bus);
        if (bus || (code & 0xF8) != 0xC0 || !a || !as_enabled(a))
            return code;
        /* translation fault: wait for the driver to map and flush (or give up on the AS) */
        s->stalled++;
        stall_begin(c);
        while (a->cmd_gen == gen && !stop_pending(c, true))
            pthread_cond_wait(&m->cond, &m->lock);
        stall_end(c);
        s->stalled--;
        if (stop_pending(c, true))
            return stop_code(c);
        if (!as_enabled(a))
            return code;
    }
}

static uint32_t gpu_access(MaliJobCtx *c, uint64_t va, void *buf, size_t len, unsigned access)
{
    Mali *m = c->m;
    uint8_t *p = buf;
    while (len) {
        size_t chunk = 4096 - (va & 4095);
        if (chunk > len)
            chunk = len;
        uint64_t pa;
        pthread_mutex_lock(&m->lock);
        uint32_t code = translate_page(c, va, access, &pa);
        pthread_mutex_unlock(&m->lock);
        if (code) {
            set_fault(c, va);
            return code;
        }
        bool ok = access == MALI_ACCESS_WRITE ? m->host.dma_write(m->host.mem, pa, p, chunk)
                                              : m->host.dma_read(m->host.mem, pa, p, chunk);
        if (!ok) {
            set_fault(c, va);
            return MALI_EXC_JOB_BUS_FAULT;
        }
        va += chunk;
        p += chunk;
        len -= chunk;
    }
    return 0;
}

uint32_t mali_gpu_read(void *ctx, uint64_t va, void *buf, size_t len)
{
    MaliJobCtx *c = ctx;
    return gpu_access(c, va, buf, len, MALI_ACCESS_READ);
}

uint32_t mali_gpu_write(void *ctx, uint64_t va, const void *buf, size_t len)
{
    MaliJobCtx *c = ctx;
    return gpu_access(c, va, (void *)buf, len, MALI_ACCESS_WRITE);
}

uint32_t mali_gpu_fetch(void *ctx, uint64_t va, void *buf, size_t len)
{
    MaliJobCtx *c = ctx;
    return gpu_access(c, va, buf, len, MALI_ACCESS_EXECUTE);
}

uint32_t mali_gpu_atomic(void *ctx, uint64_t va, unsigned size,
                         uint64_t (*op)(uint64_t old, void *arg), void *arg, uint64_t *old)
{
    MaliJobCtx *c = ctx;
    if ((size != 4 && size != 8) || (va & (size - 1))) {
        set_fault(c, va);
        return 0x56; /* INSTR_ALIGN_FAULT */
    }
    Mali *m = c->m;
    uint64_t pa;
    pthread_mutex_lock(&m->lock);
    uint32_t code = translate_page(c, va, MALI_ACCESS_ATOMIC, &pa);
    pthread_mutex_unlock(&m->lock);
    if (code) {
        set_fault(c, va);
        return code;
    }
    uint8_t *host = m->host.ram_ptr(m->host.mem, pa, true);
    if (!host) {
        set_fault(c, va);
        return MALI_EXC_JOB_BUS_FAULT;
    }
    if (size == 4) {
        uint32_t *p = (uint32_t *)host, o = __atomic_load_n(p, __ATOMIC_SEQ_CST), n;
        do
            n = (uint32_t)op(o, arg);
        while (!__atomic_compare_exchange_n(p, &o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
        *old = o;
    } else {
        uint64_t *p = (uint64_t *)host, o = __atomic_load_n(p, __ATOMIC_SEQ_CST), n;
        do
            n = op(o, arg);
        while (!__atomic_compare_exchange_n(p, &o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
        *old = o;
    }
    return 0;
}

bool mali_job_should_stop(void *ctx)
{
    MaliJobCtx *c = ctx;
    pthread_mutex_lock(&c->m->lock);
    bool r = stop_pending(c, true);
    pthread_mutex_unlock(&c->m->lock);
    return r;
}

int mali_gpu_peek(void *ctx, uint64_t va, void *buf, size_t len)
{
    for (size_t done = 0; done < len;) {
        uint64_t gen;
        const uint8_t *h = mali_gpu_map(ctx, va + done, MALI_ACCESS_READ, &gen);
        if (!h)
            return -1;
        size_t n = 4096 - ((va + done) & 4095);
        if (n > len - done)
            n = len - done;
        memcpy((uint8_t *)buf + done, h, n);
        done += n;
    }
    return 0;
}

uint64_t mali_gpu_generation(void *ctx)
{
    MaliJobCtx *c = ctx;
    if (c->as >= AS_NUM)
        return 0;
    return __atomic_load_n(&c->m->as[c->as].xlate_gen, __ATOMIC_ACQUIRE);
}

const uint64_t *mali_gpu_generation_word(void *ctx)
{
    static const uint64_t none;        /* no address space: generation 0 for ever */
    MaliJobCtx *c = ctx;
    return c->as < AS_NUM ? &c->m->as[c->as].xlate_gen : &none;
}

void *mali_gpu_map(void *ctx, uint64_t va, unsigned access, uint64_t *gen)
{
    MaliJobCtx *c = ctx;
    Mali *m = c->m;
    uint8_t *host = NULL;
    uint64_t pa;
    bool bus;
    pthread_mutex_lock(&m->lock);
    *gen = mali_gpu_generation(c);
    MaliAs *a = c->as < AS_NUM ? &m->as[c->as] : NULL;
    if (a && !stop_pending(c, false) && !(a->locked && va - a->lock_base < a->lock_size) &&
        mali_as_translate(m, c->as, va, access, &pa, &bus) == 0) {
        host = m->host.ram_ptr(m->host.mem, pa, access != MALI_ACCESS_READ);
        stats_gpu_page(c->as, va, access);
    }
    pthread_mutex_unlock(&m->lock);
    return host;
}

uint64_t mali_job_fault_address(MaliJobCtx *c)
{
    return __atomic_load_n(&c->fault_va, __ATOMIC_RELAXED);
}

void mali_job_set_fault_address(MaliJobCtx *c, uint64_t va)
{
    set_fault(c, va);
}

/* ---- jobs --------------------------------------------------------------------------------- */

static uint32_t job_write_value(MaliJobCtx *c, uint64_t va)
{
    uint8_t pl[MALI_WRITE_VALUE_JOB_LENGTH];
    struct mali_write_value_job wv;
    uint32_t code = mali_gpu_read(c, va + MALI_JOB_HEADER_LENGTH, pl, sizeof pl);
    if (code)
        return code;
    mali_write_value_job_unpack(pl, &wv);
    uint64_t addr = wv.address, imm = wv.immediate, v;
    unsigned len;
    switch (wv.type) {
    case MALI_WRITE_VALUE_TYPE_CYCLE_COUNTER: v = mali_job_cycle_count(c); len = 8; break;
    case MALI_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP: v = mali_job_timestamp(c); len = 8; break;
    case MALI_WRITE_VALUE_TYPE_ZERO: v = 0; len = 8; break;
    case MALI_WRITE_VALUE_TYPE_IMMEDIATE_8: v = imm; len = 1; break;
    case MALI_WRITE_VALUE_TYPE_IMMEDIATE_16: v = imm; len = 2; break;
    case MALI_WRITE_VALUE_TYPE_IMMEDIATE_32: v = imm; len = 4; break;
    case MALI_WRITE_VALUE_TYPE_IMMEDIATE_64: v = imm; len = 8; break;
    default: c->fault_va = va; return MALI_EXC_JOB_CONFIG_FAULT;
    }
    uint8_t out[8];
    memcpy(out, &v, 8); /* little-endian host */
    return mali_gpu_write(c, addr, out, len);
}

static uint32_t job_compute(MaliJobCtx *c, const MaliJobRec *j)
{
    Mali *m = c->m;
    pthread_mutex_lock(&m->lock);
    MaliComputeFn fn = m->compute_types >> j->type & 1 ? m->compute_fn : NULL;
    void *opaque = m->compute_opaque;
    pthread_mutex_unlock(&m->lock);
    if (!fn && j->type > JOB_TYPE_GEOMETRY) {
        logf_limited("mali: js%u: job at 0x%llx: %s job: no front end in the engine for it: "
                     "DATA_INVALID_FAULT\n", c->s->n, (unsigned long long)j->va,
                     mali_job_type_name(j->type) ? mali_job_type_name(j->type) : "unknown");
        c->fault_va = j->va;
        return MALI_EXC_DATA_INVALID_FAULT;
    }
    if (!fn) {
        logf_limited("mali: js%u: job at 0x%llx: %s job, no shader-core engine: "
                     "DATA_INVALID_FAULT\n", c->s->n, (unsigned long long)j->va,
                     j->type == JOB_TYPE_COMPUTE ? "compute" : "vertex/geometry");
        c->fault_va = j->va;
        return MALI_EXC_DATA_INVALID_FAULT;
    }
    MaliComputeJob job = {
        .job_va = j->va, .type = j->type, .as = c->as, .slot = c->s->n,
        .arch_major = m->model->gpu_id >> 28, .shader_present = m->model->shader_present,
        .ctx = c,
    };
    pthread_mutex_lock(&m->lock);
    if (c->s->affinity & m->model->shader_present)
        job.shader_present = c->s->affinity & m->model->shader_present;
    job.cycles = mali_job_cycle_count_locked(c);
    job.timestamp = mali_job_timestamp_locked(c, false);
    job.gpu_hz = m->model->clock_hz;
    job.timestamp_hz = m->ts_freq;
    job.clock_running = m->cycle_running;
    job.priority = (c->s->config >> 16) & 0xf;
    pthread_mutex_unlock(&m->lock);
    c->tuples = 0;
    c->stall_ns = 0;
    job.exec_engines = m->model->exec_engines;
    c->issue_hz = (uint64_t)__builtin_popcountll(job.shader_present) * m->model->exec_engines *
                  m->model->clock_hz;
    hold_clock(c, true);
    uint32_t st = fn(opaque, &job);
    hold_clock(c, false);
    if (st == MALI_EXC_OK)
        st = MALI_EXC_DONE;
    if (st == MALI_EXC_STOPPED || st == MALI_EXC_TERMINATED || st == EXC_PARK) {
        /* the engine gave up because of mali_job_should_stop(): report what was asked for
         * (hard stop: TERMINATED; reset: drop the chain; checkpoint: run it again) */
        pthread_mutex_lock(&m->lock);
        if (stop_pending(c, true))
            st = stop_code(c);
        pthread_mutex_unlock(&m->lock);
    }
    if (st != MALI_EXC_DONE && c->fault_va == 0)
        c->fault_va = j->va;
    return st;
}

static uint32_t exec_job(MaliJobCtx *c, const MaliJobRec *j, bool is64)
{
    c->fault_va = 0;
    if (!is64) {
        c->fault_va = j->va;
        return MALI_EXC_JOB_CONFIG_FAULT; /* 32-bit descriptors do not exist on Bifrost */
    }
    switch (j->type) {
    case JOB_TYPE_NULL:
        return MALI_EXC_DONE;
    case JOB_TYPE_WRITE_VALUE: {
        uint32_t code = job_write_value(c, j->va);
        return code ? code : MALI_EXC_DONE;
    }
    case JOB_TYPE_CACHE_FLUSH: {
        uint8_t pl[8];
        uint32_t code = mali_gpu_read(c, j->va + JOB_HEADER_SIZE, pl, sizeof pl);
        if (code)
            return code;
        pthread_mutex_lock(&c->m->lock);
        c->m->latest_flush++;
        pthread_mutex_unlock(&c->m->lock);
        return MALI_EXC_DONE;
    }
    case JOB_TYPE_COMPUTE:
    case JOB_TYPE_VERTEX:
    case JOB_TYPE_GEOMETRY:
    case JOB_TYPE_TILER:
    case JOB_TYPE_FUSED:
    case JOB_TYPE_FRAGMENT:
    case JOB_TYPE_INDEXED_VERTEX:
        return job_compute(c, j);      /* the engine's front end for the type, if it has one */
    default:
        c->fault_va = j->va;
        return MALI_EXC_JOB_CONFIG_FAULT;
    }
}

static bool deps_met(const MaliSlot *s, const MaliJobRec *j)
{
    for (unsigned d = 0; d < 2; d++) {
        uint16_t x = j->dep[d];
        if (x && s->idx_done[x] != s->idx_total[x])
            return false;
    }
    return true;
}

bool mali_slot_grow_jobs(MaliSlot *s, size_t n)
{
    if (n < s->jobs_cap)
        return true;
    size_t cap = s->jobs_cap ? s->jobs_cap * 2 : 64;
    while (cap <= n) /* a loaded chain comes whole, the walker one job at a time */
        cap *= 2;
    MaliJobRec *nj = realloc(s->jobs, cap * sizeof *nj);
    if (!nj)
        return false;
    s->jobs = nj;
    s->jobs_cap = cap;
    return true;
}

/* --timeline: where the chain is on the modelled GPU schedule (ns of the board's clock), without
 * mali_job_timestamp_locked's clamp to the counter. */
static uint64_t model_now_ns(const MaliJobCtx *c)
{
    uint64_t ns = __atomic_load_n(&c->chain_ns, __ATOMIC_RELAXED);
    return (uint64_t)((unsigned __int128)c->ts_base * 1000000000u / c->m->ts_freq) + ns;
}

static void chain_end(Mali *m, MaliSlot *s, uint32_t status, uint64_t tail, uint64_t model_end);

/* Checkpoints (ckpt.c): while m->quiesce, wait here, at a job boundary, with the chain's whole
 * state in the slot (jobs[], done flags) and in c, until mali_ckpt_resume.  m->lock held. */
static void park_point(Mali *m, MaliSlot *s, const MaliJobCtx *c)
{
    if (m->quiesce) {
        s->parked = true;
        pthread_cond_broadcast(&m->cond);
        while (m->quiesce && !m->quit && m->reset_gen == c->reset_gen)
            pthread_cond_wait(&m->cond, &m->lock);
        s->parked = false;
    }
    s->park_abort = false;
}

/* 1. follow the chain's Next links into s->jobs (s->walk_status: a fault reading them). */
static void walk_chain(MaliJobCtx *c, MaliSlot *s, uint64_t head)
{
    size_t n = 0;
    s->walk_status = 0;
    s->walk_va = s->walk_fault = 0;
    for (uint64_t va = head; va;) {
        uint8_t h[MALI_JOB_HEADER_LENGTH];
        struct mali_job_header jh;
        uint32_t code;
        if (n >= MAX_CHAIN_JOBS || (va & 63) || !mali_slot_grow_jobs(s, n))
            code = MALI_EXC_JOB_CONFIG_FAULT, c->fault_va = va;
        else
            code = mali_gpu_read(c, va, h, sizeof h);
        if (code) {
            s->walk_status = code;
            s->walk_va = va;
            s->walk_fault = c->fault_va;
            break;
        }
        mali_job_header_unpack(h, &jh);
        MaliJobRec *j = &s->jobs[n++];
        j->va = va;
        j->type = (uint8_t)jh.type;
        j->barrier = jh.barrier;
        j->index = (uint16_t)jh.index;
        j->dep[0] = (uint16_t)jh.dependency_1;
        j->dep[1] = (uint16_t)jh.dependency_2;
        j->done = false;
        if (!jh.is_64b)
            j->type |= 0x80; /* 32-bit descriptor marker */
        va = jh.next;
    }
    s->njobs = n;
}

/* Run the active chain of slot s (from its start, or where a checkpoint left it: s->resume).
 * Called and returns with m->lock held. */
static void run_chain(Mali *m, MaliSlot *s)
{
    MaliJobCtx c = { .m = m, .s = s, .as = s->config & JS_CONFIG_AS_MASK,
                     .reset_gen = m->reset_gen,
                     .ts_base = s->anchor_ts > s->model_end ? s->anchor_ts : s->model_end };
    bool resumed = s->resume;
    if (resumed) {
        c.ts_base = s->resume_ts_base;
        c.chain_ns = s->resume_chain_ns;
        c.mmu_fault = s->resume_mmu_fault;
        s->resume = false;
    } else {
        s->chain_head = s->head;
        s->walked = false;
        s->njobs = 0;
    }
    uint64_t head = s->chain_head;
    bool writeback = !(s->config & JS_CONFIG_DISABLE_DESCRIPTOR_WR_BK);
    MaliChainFn chain_fn = resumed ? NULL : m->chain_fn; /* observed when it started */
    void *chain_opaque = m->chain_opaque;
    s->run_ctx = &c;
    pthread_mutex_unlock(&m->lock);
    if (chain_fn)
        chain_fn(chain_opaque, &c, head, c.as, m->model->gpu_id >> 28);

    while (!s->walked) {
        walk_chain(&c, s, head);
        if (s->walk_status != EXC_PARK)
            break;
        /* the walk waited for the CPU when a checkpoint came: walk again after it */
        pthread_mutex_lock(&m->lock);
        park_point(m, s, &c);
        pthread_mutex_unlock(&m->lock);
    }
    s->walked = true;
    size_t n = s->njobs;
    for (size_t i = 0; i < n; i++) {
        s->idx_total[s->jobs[i].index]++;
        if (s->jobs[i].done)
            s->idx_done[s->jobs[i].index]++;
    }

    /* 2. run jobs in dependency order */
    uint32_t status = MALI_EXC_DONE;
    uint64_t tail = head;
    size_t first = 0;
    for (;;) {
        while (first < n && s->jobs[first].done)
            first++;
        if (first == n) {
            if (s->walk_status) {
                status = s->walk_status;
                tail = s->walk_va;
                if (s->walk_status != EXC_ABANDON && s->walk_status != MALI_EXC_STOPPED &&
                    s->walk_status != MALI_EXC_TERMINATED)
                    c.fault_va = s->walk_fault;
            } else if (n) {
                tail = s->jobs[n - 1].va;
            }
            break;
        }
        pthread_mutex_lock(&m->lock);
        park_point(m, s, &c);
        bool stopping = stop_pending(&c, true);
        uint32_t scode = stopping ? stop_code(&c) : 0;
        pthread_mutex_unlock(&m->lock);
        if (stopping) {
            status = scode;
            tail = s->jobs[first].va;
            break;
        }
        size_t pick = n;
        for (size_t i = first; i < n; i++) {
            MaliJobRec *j = &s->jobs[i];
            if (!j->done && deps_met(s, j) && (!j->barrier || i == first)) {
                pick = i;
                break;
            }
        }
        if (pick == n) { /* remaining jobs wait on each other */
            status = MALI_EXC_JOB_CONFIG_FAULT;
            tail = s->jobs[first].va;
            c.fault_va = tail;
            break;
        }
        MaliJobRec *j = &s->jobs[pick];
        pthread_mutex_lock(&m->lock);
        if (m->reset_gen == c.reset_gen)
            s->head = s->tail = j->va;
        pthread_mutex_unlock(&m->lock);
        MaliJobRec rec = *j;
        rec.type &= 0x7F;
        if (__builtin_expect(timeline_on, 0))
            timeline_gpu_job_begin(s->n, model_now_ns(&c));
        uint32_t code = exec_job(&c, &rec, !(j->type & 0x80));
        if (code == EXC_PARK)
            continue; /* stopped for a checkpoint: parks, then runs again from its start */
        if (__builtin_expect(timeline_on, 0))
            timeline_gpu_job_end(s->n, c.as, head, j->va, rec.type, code, model_now_ns(&c));
        if (rec.type < 16)
            STATS_COUNT(ST_MALI_JOB_TYPE0 + rec.type);
        if (code != MALI_EXC_DONE)
            STATS_COUNT(ST_MALI_JOB_FAILED);
        if (code == EXC_ABANDON || code == MALI_EXC_STOPPED || code == MALI_EXC_TERMINATED) {
            status = code;
            tail = j->va;
            break;
        }
        if (writeback) {
            uint32_t w[4] = { code, 0, 0, 0 };
            if (code != MALI_EXC_DONE) {
                w[2] = (uint32_t)c.fault_va;
                w[3] = (uint32_t)(c.fault_va >> 32);
            }
            uint64_t fva = c.fault_va;
            uint32_t wcode = mali_gpu_write(&c, j->va, w, sizeof w);
            if (wcode == EXC_PARK)
                continue; /* the header write waited for the CPU: the job runs again */
            if (code == MALI_EXC_DONE && wcode)
                code = wcode;
            else
                c.fault_va = fva;
        }
        if (code != MALI_EXC_DONE) {
            status = code;
            tail = j->va;
            break;
        }
        j->done = true;
        s->idx_done[j->index]++;
    }
    for (size_t i = 0; i < n; i++)
        s->idx_total[s->jobs[i].index] = s->idx_done[s->jobs[i].index] = 0;

    if (status != MALI_EXC_DONE && status != EXC_ABANDON && status != MALI_EXC_STOPPED &&
        status != MALI_EXC_TERMINATED) {
        /* a job fault without an MMU fault (those were reported when they happened) */
        pthread_mutex_lock(&m->lock);
        MaliFaultFn fault_fn = c.mmu_fault ? NULL : m->fault_fn;
        void *fault_opaque = m->fault_opaque;
        MaliFaultInfo fi = { .slot = s->n, .as = c.as, .arch_major = m->model->gpu_id >> 28, .head = head,
                             .job_va = tail, .status = status, .fault_va = c.fault_va };
        pthread_mutex_unlock(&m->lock);
        if (fault_fn)
            fault_fn(fault_opaque, &c, &fi);
    }

    pthread_mutex_lock(&m->lock);
    s->run_ctx = NULL;
    if (m->quiesce) /* mali_ckpt_quiesce waits for the slot: at rest once the chain has ended */
        pthread_cond_broadcast(&m->cond);
    if (status == EXC_ABANDON || m->reset_gen != c.reset_gen || m->quit)
        return; /* the slot was reset meanwhile: nothing to report */
    uint64_t model_end = mali_job_timestamp_locked(&c, true);
    if (m->icount) { /* the vCPU loop publishes it at its guest time (mali_icount_publish) */
        s->pub_pending = true;
        s->pub_ns = s->icount_start_ns + __atomic_load_n(&c.chain_ns, __ATOMIC_RELAXED);
        s->pub_status = status;
        s->pub_tail = tail;
        s->pub_model_end = model_end;
        pthread_cond_broadcast(&m->cond);
        return;
    }
    chain_end(m, s, status, tail, model_end);
}

/* What the guest sees of a chain's end; m->lock held. */
static void chain_end(Mali *m, MaliSlot *s, uint32_t status, uint64_t tail, uint64_t model_end)
{
    s->model_end = model_end;
    s->active = false;
    s->stop = 0;
    s->status = status;
    s->tail = tail;
    if (status == MALI_EXC_DONE) {
        m->job_irq_raw |= 1u << s->n;
        if (s->config & JS_CONFIG_END_FLUSH_CLEAN)
            m->latest_flush++;
    } else {
        s->head = tail;
        m->job_irq_raw |= 1u << (16 + s->n);
    }
    mali_update_irqs(m);
    slot_try_start(m, s);
}

static void *slot_thread(void *arg)
{
    MaliSlot *s = arg;
    Mali *m = s->m;
    pthread_mutex_lock(&m->lock);
    for (;;) {
        while (!m->quit && (!s->active || s->pub_pending || m->quiesce))
            pthread_cond_wait(&m->cond, &m->lock);
        if (m->quit)
            break;
        run_chain(m, s);
    }
    pthread_mutex_unlock(&m->lock);
    return NULL;
}

bool mali_jm_start(Mali *m)
{
    for (unsigned i = 0; i < JS_NUM; i++) {
        MaliSlot *s = &m->slot[i];
        s->m = m;
        s->n = i;
        s->idx_total = calloc(65536, sizeof *s->idx_total);
        s->idx_done = calloc(65536, sizeof *s->idx_done);
        if (!s->idx_total || !s->idx_done)
            return false;
    }
    for (unsigned i = 0; i < JS_NUM; i++) {
        if (pthread_create(&m->slot[i].thread, NULL, slot_thread, &m->slot[i]) != 0)
            return false;
        m->slot[i].thread_started = true;
    }
    return true;
}

/* ---- --clock icount (mali.h mali_set_icount) ----------------------------------------------- */

void mali_set_icount(Mali *m, bool on)
{
    pthread_mutex_lock(&m->lock);
    m->icount = on;
    pthread_mutex_unlock(&m->lock);
}

int mali_icount_next(Mali *m, uint64_t *ns)
{
    int kind = MALI_ICOUNT_NONE;
    uint64_t best = UINT64_MAX;
    pthread_mutex_lock(&m->lock);
    for (unsigned i = 0; i < JS_NUM; i++) {
        MaliSlot *s = &m->slot[i];
        uint64_t t;
        int k;
        if (s->pub_pending) {
            t = s->pub_ns;
            k = MALI_ICOUNT_PUBLISH;
        } else if (s->active && s->run_ctx && (s->stalled || s->run_ctx->stalls)) {
            /* waiting for the CPU to map a page: the CPU must run (the fault's IRQ came from
             * the GPU's thread, at a host-timed instant: not deterministic, docs/gpu.md) */
            if (kind == MALI_ICOUNT_NONE)
                kind = MALI_ICOUNT_STALLED;
            continue;
        } else if (s->active) {
            /* started, or about to be picked up by its thread: ends no earlier than its work
             * modelled so far */
            t = s->icount_start_ns + (s->run_ctx  ? __atomic_load_n(&s->run_ctx->chain_ns, __ATOMIC_RELAXED)
                                      : s->resume ? s->resume_chain_ns /* loaded, not yet running */
                                                  : 0);
            k = MALI_ICOUNT_BOUND;
        } else {
            continue;
        }
        if (kind == MALI_ICOUNT_NONE || kind == MALI_ICOUNT_STALLED || t < best ||
            (t == best && k == MALI_ICOUNT_PUBLISH)) {
            best = t;
            kind = k;
        }
    }
    pthread_mutex_unlock(&m->lock);
    *ns = best;
    return kind;
}

void mali_icount_publish(Mali *m, uint64_t now_ns)
{
    pthread_mutex_lock(&m->lock);
    for (unsigned i = 0; i < JS_NUM; i++) {
        MaliSlot *s = &m->slot[i];
        if (s->pub_pending && s->pub_ns <= now_ns) {
            s->pub_pending = false;
            chain_end(m, s, s->pub_status, s->pub_tail, s->pub_model_end);
            /* a latched chain starts when this one ended on the GPU, not when the vCPU loop
             * happened to look: the same in a run resumed from a checkpoint */
            if (s->active)
                s->icount_start_ns = s->pub_ns;
            pthread_cond_broadcast(&m->cond); /* the slot's thread: the next chain */
        }
    }
    pthread_mutex_unlock(&m->lock);
}

void mali_icount_wait(Mali *m, uint64_t max_host_ns)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts); /* m->cond uses the default clock */
    uint64_t d = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec + max_host_ns;
    ts.tv_sec = (time_t)(d / 1000000000ull);
    ts.tv_nsec = (long)(d % 1000000000ull);
    pthread_mutex_lock(&m->lock);
    pthread_cond_timedwait(&m->cond, &m->lock, &ts);
    pthread_mutex_unlock(&m->lock);
}

void mali_jm_stop(Mali *m)
{
    pthread_mutex_lock(&m->lock);
    m->quit = true;
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
    for (unsigned i = 0; i < JS_NUM; i++) {
        MaliSlot *s = &m->slot[i];
        if (s->thread_started)
            pthread_join(s->thread, NULL);
        s->thread_started = false;
        free(s->jobs);
        free(s->idx_total);
        free(s->idx_done);
        s->jobs = NULL;
        s->idx_total = s->idx_done = NULL;
    }
}
