/* virtio-mmio transport (modern, Version 2) with split virtqueues (see virtio_mmio.h). */
#include "virtio_mmio.h"

#include <errno.h>
#include <libfdt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fdt_board.h"
#include "../emu/checkpoint/ckpt.h"

typedef struct Virtq {
    uint32_t num;
    bool ready;
    uint64_t desc_pa, avail_pa, used_pa;
    uint8_t *desc, *avail, *used; /* host pointers, valid while ready */
    uint16_t last_avail, used_idx;
    uint16_t signalled_used;
    bool signalled_valid;
    uint32_t gen; /* bumped when the queue is enabled/disabled/reset: a request popped from an
                   * older incarnation is not pushed into the new rings */
} Virtq;

struct VirtioMmio {
    Bus *bus;
    Gic *gic;
    unsigned intid;
    uint64_t base;
    const VirtioDevOps *ops;
    void *opaque;
    bool threaded;

    pthread_mutex_t lock;
    uint32_t status, isr;
    uint32_t dev_feat_sel, drv_feat_sel, queue_sel;
    uint64_t driver_features;
    uint32_t config_generation;
    bool broken;
    bool irq_level;
    Virtq vq[VIRTIO_MMIO_MAX_QUEUES];
    VirtqElem elem;

    /* worker */
    pthread_t thread;
    bool thread_started, quit, busy, stopping;
    unsigned paused;    /* virtio_mmio_pause depth: no request starts; kicks wait in kick_mask */
    unsigned kick_mask;
    pthread_cond_t kick_cond, idle_cond;

    void (*log_fn)(void *, const char *);
    void *log_opaque;
    void (*dma_fn)(void *, uint64_t, uint64_t);
    void *dma_opaque;
};

/* ---- helpers ------------------------------------------------------------------------------ */

static uint64_t all_features(const VirtioMmio *t)
{
    return t->ops->features | (1ull << VIRTIO_F_VERSION_1) | (1ull << VIRTIO_F_INDIRECT_DESC) |
           (1ull << VIRTIO_F_EVENT_IDX);
}

static bool has_feature(const VirtioMmio *t, unsigned bit)
{
    return (t->driver_features >> bit) & 1;
}

static void log_line(VirtioMmio *t, const char *fmt, ...)
{
    char msg[384], line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(line, sizeof line, "%s@%llx: %s", t->ops->name, (unsigned long long)t->base, msg);
    if (t->log_fn)
        t->log_fn(t->log_opaque, line);
    else
        fprintf(stderr, "malibu: %s\n", line);
}

static void update_irq(VirtioMmio *t)
{
    bool level = t->isr != 0;
    if (level != t->irq_level) {
        t->irq_level = level;
        if (t->gic)
            gic_set_spi(t->gic, t->intid, level);
    }
}

/* Lock held.  The device stops processing until reset. */
static void set_broken(VirtioMmio *t, int queue, const char *why)
{
    if (t->broken)
        return;
    t->broken = true;
    if (queue >= 0)
        log_line(t, "queue %d: %s; device needs reset", queue, why);
    else
        log_line(t, "%s; device needs reset", why);
    t->status |= VIRTIO_STATUS_NEEDS_RESET;
    if (t->status & VIRTIO_STATUS_DRIVER_OK) {
        t->isr |= VIRTIO_INT_CONFIG;
        update_irq(t);
    }
}

/* Host pointer for guest RAM [pa, pa+len) when it lies inside one (writable when write) RAM
 * region, else NULL.  len > 0. */
static uint8_t *ram_range(Bus *bus, uint64_t pa, uint64_t len, bool write)
{
    uint64_t base, size;
    bool ro;
    if (len == 0 || pa + len < pa)
        return NULL;
    for (unsigned n = 0; bus_ram_region(bus, n, &base, &size, &ro); n++) {
        if (pa >= base && pa - base < size && len <= size - (pa - base)) {
            if (ro && write)
                return NULL;
            return bus_ram_ptr(bus, pa, false);
        }
    }
    return NULL;
}

static inline uint16_t ld16(const uint8_t *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

static inline uint16_t ld16_acquire(const uint8_t *p)
{
    return __atomic_load_n((const uint16_t *)(const void *)p, __ATOMIC_ACQUIRE);
}

static inline void st16_release(uint8_t *p, uint16_t v)
{
    __atomic_store_n((uint16_t *)(void *)p, v, __ATOMIC_RELEASE);
}

/* ---- virtqueue -------------------------------------------------------------------------- */

static void queue_reset(Virtq *q)
{
    uint32_t gen = q->gen + 1;
    memset(q, 0, sizeof *q);
    q->num = VIRTQ_MAX_SIZE;
    q->gen = gen;
}

/* Check and map the rings of q: false with the reason in why (nothing mapped). */
static bool map_rings(VirtioMmio *t, Virtq *q, char *why, size_t whylen)
{
    uint32_t n = q->num;
    if (n == 0 || n > VIRTQ_MAX_SIZE || (n & (n - 1))) {
        snprintf(why, whylen, "QueueNum %u is not a power of two in 1..%u", n, VIRTQ_MAX_SIZE);
        return false;
    }
    if ((q->desc_pa & 15) || (q->avail_pa & 1) || (q->used_pa & 3)) {
        snprintf(why, whylen, "misaligned ring (desc %#llx, driver %#llx, device %#llx)",
                 (unsigned long long)q->desc_pa, (unsigned long long)q->avail_pa,
                 (unsigned long long)q->used_pa);
        return false;
    }
    q->desc = ram_range(t->bus, q->desc_pa, 16ull * n, false);
    q->avail = ram_range(t->bus, q->avail_pa, 6 + 2ull * n, false);
    q->used = ram_range(t->bus, q->used_pa, 6 + 8ull * n, true);
    if (!q->desc || !q->avail || !q->used) {
        snprintf(why, whylen, "ring outside guest RAM (desc %#llx, driver %#llx, device %#llx, size %u)",
                 (unsigned long long)q->desc_pa, (unsigned long long)q->avail_pa,
                 (unsigned long long)q->used_pa, n);
        q->desc = q->avail = q->used = NULL;
        return false;
    }
    return true;
}

/* QueueReady = 1: check and map the rings.  Lock held. */
static void queue_enable(VirtioMmio *t, unsigned qi)
{
    Virtq *q = &t->vq[qi];
    char why[160];
    if (!map_rings(t, q, why, sizeof why)) {
        set_broken(t, (int)qi, why);
        return;
    }
    q->ready = true;
    q->gen++;
    q->last_avail = q->used_idx = 0; /* rings start at index 0 (the driver zeroes them) */
    q->signalled_valid = false;
}

/* Pop the next chain into e.  1: got one, 0: queue empty, -1: malformed (device broken).
 * Lock held. */
static int vq_pop(VirtioMmio *t, unsigned qi, VirtqElem *e)
{
    Virtq *q = &t->vq[qi];
    char why[200];
    uint16_t avail_idx = ld16_acquire(q->avail + 2);
    if (avail_idx == q->last_avail)
        return 0;
    if ((uint16_t)(avail_idx - q->last_avail) > q->num) {
        snprintf(why, sizeof why, "available index %u is %u entries past the last one seen (%u) in a queue of %u",
                 avail_idx, (uint16_t)(avail_idx - q->last_avail), q->last_avail, q->num);
        goto bad;
    }
    uint16_t head = ld16(q->avail + 4 + 2 * (q->last_avail % q->num));
    q->last_avail++;
    if (head >= q->num) {
        snprintf(why, sizeof why, "head descriptor index %u out of range (queue size %u)", head, q->num);
        goto bad;
    }
    e->head = head;
    e->nout = e->nin = 0;
    e->out_bytes = e->in_bytes = 0;

    const uint8_t *table = q->desc;
    uint32_t tsize = q->num, idx = head, count = 0;
    bool indirect = false;
    for (;;) {
        VirtqDesc d;
        memcpy(&d, table + 16ull * idx, 16);
        if (++count > tsize) {
            snprintf(why, sizeof why, "descriptor chain from %u loops or is longer than its table (%u)",
                     head, tsize);
            goto bad;
        }
        if (d.flags & VIRTQ_DESC_F_INDIRECT) {
            if (indirect) {
                snprintf(why, sizeof why, "indirect descriptor inside an indirect table (chain %u)", head);
                goto bad;
            }
            if (!has_feature(t, VIRTIO_F_INDIRECT_DESC)) {
                snprintf(why, sizeof why, "indirect descriptor %u without VIRTIO_F_INDIRECT_DESC", idx);
                goto bad;
            }
            if (d.flags & VIRTQ_DESC_F_NEXT) {
                snprintf(why, sizeof why, "descriptor %u has both INDIRECT and NEXT", idx);
                goto bad;
            }
            if (d.len == 0 || (d.len & 15) || d.len / 16 > VIRTQ_MAX_SIZE) {
                snprintf(why, sizeof why, "indirect table of %u bytes (descriptor %u): not a multiple of 16 in 16..%u",
                         d.len, idx, 16 * VIRTQ_MAX_SIZE);
                goto bad;
            }
            table = ram_range(t->bus, d.addr, d.len, false);
            if (!table) {
                snprintf(why, sizeof why, "indirect table [%#llx, +%#x) outside guest RAM",
                         (unsigned long long)d.addr, d.len);
                goto bad;
            }
            tsize = d.len / 16;
            idx = 0;
            count = 0;
            indirect = true;
            continue;
        }
        bool w = d.flags & VIRTQ_DESC_F_WRITE;
        if (!w && e->nin) {
            snprintf(why, sizeof why, "device-readable descriptor %u after a device-writable one (chain %u)",
                     idx, head);
            goto bad;
        }
        if (d.len) {
            unsigned k = e->nout + e->nin;
            if (k == VIRTQ_MAX_SIZE) {
                snprintf(why, sizeof why, "chain %u has more than %u buffers", head, VIRTQ_MAX_SIZE);
                goto bad;
            }
            uint8_t *host = ram_range(t->bus, d.addr, d.len, w);
            if (!host) {
                snprintf(why, sizeof why, "buffer [%#llx, +%#x) of descriptor %u outside guest RAM",
                         (unsigned long long)d.addr, d.len, idx);
                goto bad;
            }
            if (e->out_bytes + e->in_bytes + d.len > VIRTQ_MAX_BYTES) {
                snprintf(why, sizeof why, "chain %u is larger than %u bytes", head, VIRTQ_MAX_BYTES);
                goto bad;
            }
            e->iov[k].iov_base = host;
            e->iov[k].iov_len = d.len;
            e->pa[k] = d.addr;
            if (w) {
                e->nin++;
                e->in_bytes += d.len;
            } else {
                e->nout++;
                e->out_bytes += d.len;
            }
        }
        if (!(d.flags & VIRTQ_DESC_F_NEXT))
            return 1;
        if (d.next >= tsize) {
            snprintf(why, sizeof why, "descriptor %u: next index %u out of range (table size %u)",
                     idx, d.next, tsize);
            goto bad;
        }
        idx = d.next;
    }
bad:
    set_broken(t, (int)qi, why);
    return -1;
}

/* vring_need_event (virtio spec 2.7.10). */
static bool need_event(uint16_t event, uint16_t new_idx, uint16_t old)
{
    return (uint16_t)(new_idx - event - 1) < (uint16_t)(new_idx - old);
}

/* Put a used element and interrupt the driver if it wants.  Lock held. */
static void vq_push(VirtioMmio *t, unsigned qi, uint16_t head, uint32_t len)
{
    Virtq *q = &t->vq[qi];
    uint8_t *u = q->used + 4 + 8 * (q->used_idx % q->num);
    uint32_t id = head;
    memcpy(u, &id, 4);
    memcpy(u + 4, &len, 4);
    q->used_idx++;
    st16_release(q->used + 2, q->used_idx);
    __atomic_thread_fence(__ATOMIC_SEQ_CST); /* used idx visible before we read the driver's flags */
    bool notify;
    if (has_feature(t, VIRTIO_F_EVENT_IDX)) {
        uint16_t ev = ld16(q->avail + 4 + 2 * q->num);
        uint16_t old = q->signalled_used;
        bool valid = q->signalled_valid;
        q->signalled_used = q->used_idx;
        q->signalled_valid = true;
        notify = !valid || need_event(ev, q->used_idx, old);
    } else {
        notify = !(ld16(q->avail) & VIRTQ_AVAIL_F_NO_INTERRUPT);
    }
    if (notify) {
        t->isr |= VIRTIO_INT_VRING;
        update_irq(t);
    }
}

static bool can_run(const VirtioMmio *t, unsigned qi)
{
    return !t->broken && !t->stopping && !t->paused && (t->status & VIRTIO_STATUS_DRIVER_OK) &&
           !(t->status & VIRTIO_STATUS_FAILED) && t->vq[qi].ready;
}

/* Process everything available on queue qi.  Lock held (dropped around requests when
 * threaded). */
static void vq_run(VirtioMmio *t, unsigned qi)
{
    Virtq *q = &t->vq[qi];
    while (can_run(t, qi)) {
        int r = vq_pop(t, qi, &t->elem);
        if (r < 0)
            return;
        if (r == 0) {
            if (!has_feature(t, VIRTIO_F_EVENT_IDX))
                return;
            /* Ask for a notification at the next buffer, then look again (no lost kick). */
            uint16_t ev = q->last_avail;
            memcpy(q->used + 4 + 8 * q->num, &ev, 2);
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
            if (ld16_acquire(q->avail + 2) == q->last_avail)
                return;
            continue;
        }
        VirtqElem *e = &t->elem;
        uint32_t gen = q->gen;
        char err[256] = "";
        uint64_t feat = t->driver_features;
        int64_t n;
        if (t->threaded) {
            t->busy = true;
            pthread_mutex_unlock(&t->lock);
            n = t->ops->handle(t->opaque, qi, e, feat, err, sizeof err);
            pthread_mutex_lock(&t->lock);
            t->busy = false;
            pthread_cond_broadcast(&t->idle_cond);
        } else {
            n = t->ops->handle(t->opaque, qi, e, feat, err, sizeof err);
        }
        if (n == VIRTIO_HANDLE_LATER) {
            if (q->ready && q->gen == gen)
                q->last_avail--; /* not consumed: the device fills it when it has data */
            return;
        }
        if (n < 0) {
            set_broken(t, (int)qi, err[0] ? err : "request rejected");
            return;
        }
        if (t->dma_fn && n > 0)
            for (unsigned i = e->nout; i < e->nout + e->nin; i++)
                t->dma_fn(t->dma_opaque, e->pa[i], e->iov[i].iov_len);
        if (!q->ready || q->gen != gen) /* the queue went away meanwhile */
            return;
        vq_push(t, qi, e->head, n > UINT32_MAX ? UINT32_MAX : (uint32_t)n);
    }
    if (t->paused)
        t->kick_mask |= 1u << qi; /* the rest of the queue waits for virtio_mmio_resume */
}

static void kick(VirtioMmio *t, unsigned mask)
{
    if (t->paused) {
        t->kick_mask |= mask;
        return;
    }
    if (t->threaded) {
        t->kick_mask |= mask;
        pthread_cond_signal(&t->kick_cond);
        return;
    }
    for (unsigned qi = 0; qi < t->ops->nqueues; qi++)
        if (mask & (1u << qi))
            vq_run(t, qi);
}

static void *worker(void *arg)
{
    VirtioMmio *t = arg;
    pthread_mutex_lock(&t->lock);
    while (!t->quit) {
        if (!t->kick_mask || t->stopping || t->paused) {
            pthread_cond_wait(&t->kick_cond, &t->lock);
            continue;
        }
        unsigned mask = t->kick_mask;
        t->kick_mask = 0;
        for (unsigned qi = 0; qi < t->ops->nqueues; qi++)
            if (mask & (1u << qi))
                vq_run(t, qi);
        pthread_cond_broadcast(&t->idle_cond);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

/* ---- device reset ------------------------------------------------------------------------- */

static void reset_locked(VirtioMmio *t)
{
    if (t->threaded) {
        t->stopping = true;
        while (t->busy)
            pthread_cond_wait(&t->idle_cond, &t->lock);
        t->stopping = false;
        t->kick_mask = 0;
    }
    t->status = 0;
    t->isr = 0;
    t->dev_feat_sel = t->drv_feat_sel = t->queue_sel = 0;
    t->driver_features = 0;
    t->broken = false;
    for (unsigned i = 0; i < VIRTIO_MMIO_MAX_QUEUES; i++)
        queue_reset(&t->vq[i]);
    update_irq(t);
    if (t->ops->reset)
        t->ops->reset(t->opaque);
}

void virtio_mmio_kick_queue(VirtioMmio *t, unsigned qi)
{
    pthread_mutex_lock(&t->lock);
    if (qi < t->ops->nqueues)
        kick(t, 1u << qi);
    pthread_mutex_unlock(&t->lock);
}

void virtio_mmio_reset(VirtioMmio *t)
{
    pthread_mutex_lock(&t->lock);
    reset_locked(t);
    pthread_mutex_unlock(&t->lock);
}

/* ---- registers ------------------------------------------------------------------------------ */

static uint64_t config_access(VirtioMmio *t, uint64_t off, unsigned size, const uint64_t *wval)
{
    off -= VIRTIO_MMIO_CONFIG;
    if ((size != 1 && size != 2 && size != 4 && size != 8) || off >= t->ops->config_len ||
        size > t->ops->config_len - off)
        return 0;
    uint64_t v = 0;
    if (wval) {
        if (t->ops->config_write)
            t->ops->config_write(t->opaque, (unsigned)off, wval, size);
        return 0;
    }
    t->ops->config_read(t->opaque, (unsigned)off, &v, size);
    return v;
}

static uint64_t mmio_read(void *opaque, uint64_t off, unsigned size)
{
    VirtioMmio *t = opaque;
    uint64_t v = 0;
    pthread_mutex_lock(&t->lock);
    if (off >= VIRTIO_MMIO_CONFIG) {
        v = config_access(t, off, size, NULL);
        goto out;
    }
    if (size != 4)
        goto out;
    Virtq *q = t->queue_sel < t->ops->nqueues ? &t->vq[t->queue_sel] : NULL;
    switch (off) {
    case VIRTIO_MMIO_MAGIC: v = VIRTIO_MMIO_MAGIC_VALUE; break;
    case VIRTIO_MMIO_VERSION: v = 2; break;
    case VIRTIO_MMIO_DEVICE_ID: v = t->ops->device_id; break;
    case VIRTIO_MMIO_VENDOR_ID: v = VIRTIO_MMIO_VENDOR; break;
    case VIRTIO_MMIO_DEVICE_FEATURES:
        v = t->dev_feat_sel < 2 ? (uint32_t)(all_features(t) >> (32 * t->dev_feat_sel)) : 0;
        break;
    case VIRTIO_MMIO_QUEUE_NUM_MAX: v = q ? VIRTQ_MAX_SIZE : 0; break;
    case VIRTIO_MMIO_QUEUE_READY: v = q && q->ready; break;
    case VIRTIO_MMIO_INTERRUPT_STATUS: v = t->isr; break;
    case VIRTIO_MMIO_STATUS: v = t->status; break;
    case VIRTIO_MMIO_SHM_LEN_LOW: case VIRTIO_MMIO_SHM_LEN_HIGH:
        v = 0xffffffffu; /* no shared memory regions: length -1 */
        break;
    case VIRTIO_MMIO_CONFIG_GENERATION: v = t->config_generation; break;
    default: break; /* write-only and reserved registers read as zero */
    }
out:
    pthread_mutex_unlock(&t->lock);
    return v;
}

static void set_addr(uint64_t *a, bool high, uint32_t v)
{
    *a = high ? ((*a & 0xffffffffull) | ((uint64_t)v << 32)) : ((*a & ~0xffffffffull) | v);
}

static void write_status(VirtioMmio *t, uint32_t v)
{
    if (v == 0) {
        reset_locked(t);
        return;
    }
    uint32_t old = t->status;
    v &= 0xff;
    if ((v & VIRTIO_STATUS_FEATURES_OK) && !(old & VIRTIO_STATUS_FEATURES_OK)) {
        uint64_t bad = t->driver_features & ~all_features(t);
        if (bad || !has_feature(t, VIRTIO_F_VERSION_1)) {
            log_line(t, "driver features %#llx refused (%s)", (unsigned long long)t->driver_features,
                     bad ? "not offered" : "legacy drivers are not supported: no VERSION_1");
            v &= ~(uint32_t)VIRTIO_STATUS_FEATURES_OK;
        }
    }
    t->status = v | (old & VIRTIO_STATUS_NEEDS_RESET);
    if ((v & VIRTIO_STATUS_DRIVER_OK) && !(old & VIRTIO_STATUS_DRIVER_OK))
        kick(t, (1u << t->ops->nqueues) - 1); /* buffers made available before DRIVER_OK */
}

static void mmio_write(void *opaque, uint64_t off, uint64_t value, unsigned size)
{
    VirtioMmio *t = opaque;
    pthread_mutex_lock(&t->lock);
    if (off >= VIRTIO_MMIO_CONFIG) {
        config_access(t, off, size, &value);
        goto out;
    }
    if (size != 4)
        goto out;
    uint32_t v = (uint32_t)value;
    Virtq *q = t->queue_sel < t->ops->nqueues ? &t->vq[t->queue_sel] : NULL;
    bool q_writable = q && !q->ready; /* ring setup is frozen while the queue is live */
    switch (off) {
    case VIRTIO_MMIO_DEVICE_FEATURES_SEL: t->dev_feat_sel = v; break;
    case VIRTIO_MMIO_DRIVER_FEATURES:
        if (t->drv_feat_sel < 2 && !(t->status & VIRTIO_STATUS_FEATURES_OK)) {
            unsigned sh = 32 * t->drv_feat_sel;
            t->driver_features = (t->driver_features & ~(0xffffffffull << sh)) | ((uint64_t)v << sh);
        }
        break;
    case VIRTIO_MMIO_DRIVER_FEATURES_SEL: t->drv_feat_sel = v; break;
    case VIRTIO_MMIO_QUEUE_SEL: t->queue_sel = v; break;
    case VIRTIO_MMIO_QUEUE_NUM:
        if (q_writable)
            q->num = v;
        break;
    case VIRTIO_MMIO_QUEUE_READY:
        if (!q)
            break;
        if (v & 1) {
            if (!q->ready)
                queue_enable(t, t->queue_sel);
        } else if (q->ready) {
            q->ready = false;
            q->gen++;
        }
        break;
    case VIRTIO_MMIO_QUEUE_NOTIFY:
        if ((v & 0xffff) < t->ops->nqueues)
            kick(t, 1u << (v & 0xffff));
        break;
    case VIRTIO_MMIO_INTERRUPT_ACK:
        t->isr &= ~v;
        update_irq(t);
        break;
    case VIRTIO_MMIO_STATUS: write_status(t, v); break;
    case VIRTIO_MMIO_QUEUE_DESC_LOW: case VIRTIO_MMIO_QUEUE_DESC_HIGH:
        if (q_writable)
            set_addr(&q->desc_pa, off == VIRTIO_MMIO_QUEUE_DESC_HIGH, v);
        break;
    case VIRTIO_MMIO_QUEUE_DRIVER_LOW: case VIRTIO_MMIO_QUEUE_DRIVER_HIGH:
        if (q_writable)
            set_addr(&q->avail_pa, off == VIRTIO_MMIO_QUEUE_DRIVER_HIGH, v);
        break;
    case VIRTIO_MMIO_QUEUE_DEVICE_LOW: case VIRTIO_MMIO_QUEUE_DEVICE_HIGH:
        if (q_writable)
            set_addr(&q->used_pa, off == VIRTIO_MMIO_QUEUE_DEVICE_HIGH, v);
        break;
    default: break; /* read-only and reserved registers: writes ignored */
    }
out:
    pthread_mutex_unlock(&t->lock);
}

const MmioOps virtio_mmio_ops = { "virtio-mmio", mmio_read, mmio_write };

/* ---- life cycle --------------------------------------------------------------------------- */

VirtioMmio *virtio_mmio_new(Bus *bus, Gic *gic, unsigned intid, uint64_t base,
                            const VirtioDevOps *ops, void *opaque, bool threaded)
{
    if (!ops || !ops->handle || !ops->config_read || ops->nqueues == 0 ||
        ops->nqueues > VIRTIO_MMIO_MAX_QUEUES || ops->config_len > 0xf00 || (gic && intid < 32))
        return NULL;
    VirtioMmio *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->bus = bus;
    t->gic = gic;
    t->intid = intid;
    t->base = base;
    t->ops = ops;
    t->opaque = opaque;
    t->threaded = threaded;
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->kick_cond, NULL);
    pthread_cond_init(&t->idle_cond, NULL);
    for (unsigned i = 0; i < VIRTIO_MMIO_MAX_QUEUES; i++)
        queue_reset(&t->vq[i]);
    if (threaded) {
        if (pthread_create(&t->thread, NULL, worker, t) != 0) {
            free(t);
            return NULL;
        }
        t->thread_started = true;
    }
    return t;
}

void virtio_mmio_free(VirtioMmio *t)
{
    if (!t)
        return;
    if (t->thread_started) {
        pthread_mutex_lock(&t->lock);
        t->quit = true;
        pthread_cond_signal(&t->kick_cond);
        pthread_mutex_unlock(&t->lock);
        pthread_join(t->thread, NULL);
    }
    pthread_cond_destroy(&t->kick_cond);
    pthread_cond_destroy(&t->idle_cond);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

void virtio_mmio_set_log(VirtioMmio *t, void (*fn)(void *, const char *), void *opaque)
{
    pthread_mutex_lock(&t->lock);
    t->log_fn = fn;
    t->log_opaque = opaque;
    pthread_mutex_unlock(&t->lock);
}

void virtio_mmio_set_dma_notify(VirtioMmio *t, void (*fn)(void *, uint64_t, uint64_t), void *opaque)
{
    pthread_mutex_lock(&t->lock);
    t->dma_fn = fn;
    t->dma_opaque = opaque;
    pthread_mutex_unlock(&t->lock);
}

uint32_t virtio_mmio_get_status(VirtioMmio *t)
{
    pthread_mutex_lock(&t->lock);
    uint32_t s = t->status;
    pthread_mutex_unlock(&t->lock);
    return s;
}

bool virtio_mmio_irq_level(VirtioMmio *t)
{
    pthread_mutex_lock(&t->lock);
    bool l = t->irq_level;
    pthread_mutex_unlock(&t->lock);
    return l;
}

uint64_t virtio_mmio_base(const VirtioMmio *t) { return t->base; }
unsigned virtio_mmio_intid(const VirtioMmio *t) { return t->intid; }

bool virtio_mmio_wait_idle(VirtioMmio *t, unsigned timeout_ms)
{
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += timeout_ms / 1000;
    dl.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (dl.tv_nsec >= 1000000000L) {
        dl.tv_sec++;
        dl.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&t->lock);
    bool ok = true;
    while (t->threaded && (t->busy || t->kick_mask)) {
        if (pthread_cond_timedwait(&t->idle_cond, &t->lock, &dl) == ETIMEDOUT) {
            ok = !(t->busy || t->kick_mask);
            break;
        }
    }
    pthread_mutex_unlock(&t->lock);
    return ok;
}

/* ---- checkpoint ------------------------------------------------------------------------------ */

void virtio_mmio_pause(VirtioMmio *t)
{
    pthread_mutex_lock(&t->lock);
    t->paused++;
    while (t->busy) /* the request in flight completes (pushed to the used ring) */
        pthread_cond_wait(&t->idle_cond, &t->lock);
    pthread_mutex_unlock(&t->lock);
}

void virtio_mmio_resume(VirtioMmio *t)
{
    pthread_mutex_lock(&t->lock);
    if (t->paused && --t->paused) {
        pthread_mutex_unlock(&t->lock);
        return;
    }
    unsigned mask = t->kick_mask;
    if (mask) {
        if (t->threaded) {
            pthread_cond_signal(&t->kick_cond);
        } else {
            t->kick_mask = 0;
            kick(t, mask);
        }
    }
    pthread_mutex_unlock(&t->lock);
}

/* The transport's saved state, staged outside the lock's critical section on load so that it can
 * be checked in full before the live device changes.  One table names every field for both
 * directions. */
#define QN VIRTIO_MMIO_MAX_QUEUES
typedef struct VirtioMmioSaved {
    uint32_t device_id, dev_feat_sel, drv_feat_sel, queue_sel, config_generation, pending_kicks;
    uint8_t status, isr;
    bool broken;
    uint64_t driver_features;
    uint32_t queue_num[QN];
    bool queue_ready[QN], signalled_valid[QN];
    uint64_t queue_desc[QN], queue_driver[QN], queue_device[QN];
    uint16_t last_avail[QN], used_idx[QN], signalled_used[QN];
} VirtioMmioSaved;

static const CkptField saved_fields[] = {
    CKPT_FIELD(VirtioMmioSaved, device_id, CKPT_T_U32),
    CKPT_FIELD(VirtioMmioSaved, status, CKPT_T_U8),
    CKPT_FIELD(VirtioMmioSaved, isr, CKPT_T_U8),
    CKPT_FIELD(VirtioMmioSaved, dev_feat_sel, CKPT_T_U32),
    CKPT_FIELD(VirtioMmioSaved, drv_feat_sel, CKPT_T_U32),
    CKPT_FIELD(VirtioMmioSaved, queue_sel, CKPT_T_U32),
    CKPT_FIELD(VirtioMmioSaved, driver_features, CKPT_T_U64),
    CKPT_FIELD(VirtioMmioSaved, config_generation, CKPT_T_U32),
    CKPT_FIELD(VirtioMmioSaved, broken, CKPT_T_BOOL),
    CKPT_FIELD(VirtioMmioSaved, pending_kicks, CKPT_T_U32),
    CKPT_FIELD(VirtioMmioSaved, queue_num, CKPT_T_U32),
    CKPT_FIELD(VirtioMmioSaved, queue_ready, CKPT_T_BOOL),
    CKPT_FIELD(VirtioMmioSaved, queue_desc, CKPT_T_U64),
    CKPT_FIELD(VirtioMmioSaved, queue_driver, CKPT_T_U64),
    CKPT_FIELD(VirtioMmioSaved, queue_device, CKPT_T_U64),
    CKPT_FIELD(VirtioMmioSaved, last_avail, CKPT_T_U16),
    CKPT_FIELD(VirtioMmioSaved, used_idx, CKPT_T_U16),
    CKPT_FIELD(VirtioMmioSaved, signalled_used, CKPT_T_U16),
    CKPT_FIELD(VirtioMmioSaved, signalled_valid, CKPT_T_BOOL),
    CKPT_FIELDS_END
};

void virtio_mmio_ckpt_save(VirtioMmio *t, CkptWriter *w, uint32_t instance)
{
    VirtioMmioSaved v = { 0 };
    pthread_mutex_lock(&t->lock);
    v.device_id = t->ops->device_id;
    v.status = (uint8_t)t->status;
    v.isr = (uint8_t)t->isr;
    v.dev_feat_sel = t->dev_feat_sel;
    v.drv_feat_sel = t->drv_feat_sel;
    v.queue_sel = t->queue_sel;
    v.driver_features = t->driver_features;
    v.config_generation = t->config_generation;
    v.broken = t->broken;
    v.pending_kicks = t->kick_mask;
    for (unsigned i = 0; i < QN; i++) {
        const Virtq *q = &t->vq[i];
        v.queue_num[i] = q->num;
        v.queue_ready[i] = q->ready;
        v.queue_desc[i] = q->desc_pa;
        v.queue_driver[i] = q->avail_pa;
        v.queue_device[i] = q->used_pa;
        v.last_avail[i] = q->last_avail;
        v.used_idx[i] = q->used_idx;
        v.signalled_used[i] = q->signalled_used;
        v.signalled_valid[i] = q->signalled_valid;
    }
    pthread_mutex_unlock(&t->lock);
    ckpt_begin(w, "virtio-mmio", instance, VIRTIO_MMIO_CKPT_VERSION);
    ckpt_fields(w, saved_fields, &v);
    ckpt_end(w);
}

/* The staged state's checks beyond each field's type range; false (recorded) naming the field. */
static bool saved_state_valid(VirtioMmio *t, CkptSection *s, const VirtioMmioSaved *v)
{
    if (v->device_id != t->ops->device_id)
        return ckpt_fail(s, "field 'device_id' is %u, this board has %s (device %u) in that slot",
                         v->device_id, t->ops->name, t->ops->device_id);
    if (v->isr & ~(VIRTIO_INT_VRING | VIRTIO_INT_CONFIG))
        return ckpt_fail(s, "field 'isr' is %#x, at most %#x", v->isr, VIRTIO_INT_VRING | VIRTIO_INT_CONFIG);
    if (v->pending_kicks >> t->ops->nqueues)
        return ckpt_fail(s, "field 'pending_kicks' is %#x, %s has %u queues", v->pending_kicks,
                         t->ops->name, t->ops->nqueues);
    if (v->broken != !!(v->status & VIRTIO_STATUS_NEEDS_RESET))
        return ckpt_fail(s, "field 'broken' is %d but status %#x %s DEVICE_NEEDS_RESET", v->broken,
                         v->status, v->broken ? "lacks" : "has");
    if ((v->status & VIRTIO_STATUS_FEATURES_OK) &&
        ((v->driver_features & ~all_features(t)) || !((v->driver_features >> VIRTIO_F_VERSION_1) & 1)))
        return ckpt_fail(s, "field 'driver_features' is %#llx, not accepted by %s (offered %#llx)",
                         (unsigned long long)v->driver_features, t->ops->name,
                         (unsigned long long)all_features(t));
    return true;
}

bool virtio_mmio_ckpt_load(VirtioMmio *t, CkptReader *r, uint32_t instance)
{
    CkptSection *s = ckpt_section(r, "virtio-mmio", instance, VIRTIO_MMIO_CKPT_VERSION);
    if (!s)
        return false;
    VirtioMmioSaved v;
    if (!ckpt_load_fields(s, saved_fields, &v) || !saved_state_valid(t, s, &v))
        return false;
    Virtq q[QN];
    for (unsigned i = 0; i < QN; i++) {
        char why[160];
        memset(&q[i], 0, sizeof q[i]);
        q[i].num = v.queue_num[i];
        q[i].ready = v.queue_ready[i];
        q[i].desc_pa = v.queue_desc[i];
        q[i].avail_pa = v.queue_driver[i];
        q[i].used_pa = v.queue_device[i];
        q[i].last_avail = v.last_avail[i];
        q[i].used_idx = v.used_idx[i];
        q[i].signalled_used = v.signalled_used[i];
        q[i].signalled_valid = v.signalled_valid[i];
        if (q[i].ready && i >= t->ops->nqueues)
            return ckpt_fail(s, "field 'queue_ready': queue %u is ready, %s has %u queues", i,
                             t->ops->name, t->ops->nqueues);
        if (q[i].ready && !map_rings(t, &q[i], why, sizeof why))
            return ckpt_fail(s, "queue %u: %s", i, why);
    }
    pthread_mutex_lock(&t->lock);
    if (!t->paused)
        t->paused = 1; /* requests wait for virtio_mmio_resume (the rest of the board loaded) */
    while (t->busy)
        pthread_cond_wait(&t->idle_cond, &t->lock);
    t->status = v.status;
    t->isr = v.isr;
    t->dev_feat_sel = v.dev_feat_sel;
    t->drv_feat_sel = v.drv_feat_sel;
    t->queue_sel = v.queue_sel;
    t->driver_features = v.driver_features;
    t->config_generation = v.config_generation;
    t->broken = v.broken;
    t->kick_mask = v.pending_kicks;
    for (unsigned i = 0; i < QN; i++) {
        q[i].gen = t->vq[i].gen + 1; /* a request of the old incarnation is not pushed */
        t->vq[i] = q[i];
    }
    t->irq_level = !(t->isr != 0); /* re-drive the line whatever the GIC holds */
    update_irq(t);
    pthread_mutex_unlock(&t->lock);
    return true;
}
#undef QN

/* ---- device tree ---------------------------------------------------------------------------- */

int virtio_mmio_fdt_add(void *fdt, VirtioMmio *t)
{
    char name[48];
    snprintf(name, sizeof name, "virtio@%llx", (unsigned long long)t->base);
    int n = fdt_add_subnode(fdt, 0, name);
    if (n < 0)
        return n;
    int r = fdt_setprop_string(fdt, n, "compatible", "virtio,mmio");
    if (r == 0)
        r = fdt_board_setprop_reg(fdt, n, t->base, VIRTIO_MMIO_DT_SIZE);
    if (r == 0)
        r = fdt_board_setprop_spis(fdt, n, &t->intid, 1);
    if (r == 0)
        r = fdt_setprop(fdt, n, "dma-coherent", NULL, 0);
    return r;
}

int virtio_mmio_fdt_add_all(void *fdt, VirtioMmio *const *devs, unsigned n)
{
    for (unsigned i = n; i-- > 0;) {
        int r = virtio_mmio_fdt_add(fdt, devs[i]);
        if (r < 0)
            return r;
    }
    return 0;
}
