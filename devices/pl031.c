/* PL031 RTC (see pl031.h). */
#include "pl031.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include "hosttimer.h"

enum {
    RTC_DR = 0x00, RTC_MR = 0x04, RTC_LR = 0x08, RTC_CR = 0x0C, RTC_IMSC = 0x10, RTC_RIS = 0x14,
    RTC_MIS = 0x18, RTC_ICR = 0x1C, RTC_ID = 0xFE0,
};

struct Pl031 {
    pthread_mutex_t lock;
    Gic *gic;
    unsigned irq;
    HostTimer *alarm;
    int64_t offset; /* guest seconds - host seconds */
    uint64_t (*clock_ns)(void *opaque); /* pl031_set_clock: wall ns from the board (NULL: host) */
    void *clock_opaque;
    uint32_t mr, imsc, ris;
    bool irq_out;
};

static const uint8_t pl031_id[8] = { 0x31, 0x10, 0x14, 0x00, 0x0D, 0xF0, 0x05, 0xB1 };

static uint64_t host_realtime_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t realtime_ns_of(const Pl031 *r)
{
    return r->clock_ns ? r->clock_ns(r->clock_opaque) : host_realtime_ns();
}

static uint32_t counter(const Pl031 *r, uint64_t now_ns)
{
    return (uint32_t)((int64_t)(now_ns / 1000000000ull) + r->offset);
}

static void update_irq(Pl031 *r)
{
    bool level = (r->ris & r->imsc & 1) != 0;
    if (level != r->irq_out) {
        r->irq_out = level;
        if (r->gic)
            gic_set_spi(r->gic, r->irq, level);
    }
}

/* Arm the host timer for the second at which the counter reaches MR; lock held. */
static void arm_alarm(Pl031 *r)
{
    uint64_t now = realtime_ns_of(r);
    uint32_t secs = r->mr - counter(r, now); /* modulo 2^32, like the hardware counter */
    if (secs == 0) {
        ht_timer_del(r->alarm);
        return;
    }
    uint64_t delay = (uint64_t)secs * 1000000000ull - now % 1000000000ull;
    ht_timer_mod(r->alarm, ht_now_ns() + delay);
}

static void alarm_fired(void *opaque)
{
    Pl031 *r = opaque;
    pthread_mutex_lock(&r->lock);
    if (counter(r, realtime_ns_of(r)) == r->mr) {
        r->ris = 1;
        update_irq(r);
    } else {
        arm_alarm(r); /* early or re-programmed: wait for the right second */
    }
    pthread_mutex_unlock(&r->lock);
}

static void reset_locked(Pl031 *r)
{
    r->offset = 0;
    r->mr = r->imsc = r->ris = 0;
    ht_timer_del(r->alarm);
    update_irq(r);
}

Pl031 *pl031_new(Gic *gic, unsigned irq)
{
    Pl031 *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    pthread_mutex_init(&r->lock, NULL);
    r->gic = gic;
    r->irq = irq;
    r->alarm = ht_timer_new(alarm_fired, r);
    reset_locked(r);
    return r;
}

void pl031_set_clock(Pl031 *r, uint64_t (*now_ns)(void *opaque), void *opaque)
{
    pthread_mutex_lock(&r->lock);
    r->clock_ns = now_ns;
    r->clock_opaque = opaque;
    pthread_mutex_unlock(&r->lock);
}

void pl031_free(Pl031 *r)
{
    if (r) {
        ht_timer_free(r->alarm);
        pthread_mutex_destroy(&r->lock);
        free(r);
    }
}

void pl031_reset(Pl031 *r)
{
    pthread_mutex_lock(&r->lock);
    reset_locked(r);
    pthread_mutex_unlock(&r->lock);
}

static uint64_t pl031_read(void *opaque, uint64_t off, unsigned size)
{
    Pl031 *r = opaque;
    uint32_t v = 0;
    if (size > 4)
        return 0;
    pthread_mutex_lock(&r->lock);
    switch (off) {
    case RTC_DR: v = counter(r, realtime_ns_of(r)); break;
    case RTC_MR: v = r->mr; break;
    case RTC_LR: v = counter(r, realtime_ns_of(r)); break;
    case RTC_CR: v = 1; break; /* always started */
    case RTC_IMSC: v = r->imsc; break;
    case RTC_RIS: v = r->ris; break;
    case RTC_MIS: v = r->ris & r->imsc; break;
    default:
        if (off >= RTC_ID && off < 0x1000 && !(off & 3))
            v = pl031_id[(off - RTC_ID) / 4];
        break;
    }
    pthread_mutex_unlock(&r->lock);
    return v;
}

static void pl031_write(void *opaque, uint64_t off, uint64_t val, unsigned size)
{
    Pl031 *r = opaque;
    uint32_t v = (uint32_t)val;
    if (size > 4)
        return;
    pthread_mutex_lock(&r->lock);
    switch (off) {
    case RTC_MR: r->mr = v; arm_alarm(r); break;
    case RTC_LR:
        r->offset = (int64_t)v - (int64_t)(realtime_ns_of(r) / 1000000000ull);
        arm_alarm(r);
        break;
    case RTC_IMSC: r->imsc = v & 1; break;
    case RTC_ICR: r->ris &= ~v & 1; break;
    default: break; /* DR, CR (start is permanent), RIS, MIS: read-only */
    }
    update_irq(r);
    pthread_mutex_unlock(&r->lock);
}

const MmioOps pl031_ops = { "pl031", pl031_read, pl031_write };

/* ---- checkpoint ---------------------------------------------------------------------------- */

void pl031_ckpt_save(Pl031 *r, CkptWriter *w)
{
    pthread_mutex_lock(&r->lock);
    uint64_t now = realtime_ns_of(r);
    ckpt_begin(w, "pl031", 0, PL031_CKPT_VERSION);
    ckpt_u64(w, "counter", counter(r, now));
    ckpt_u64(w, "offset", (uint64_t)r->offset);
    ckpt_u64(w, "icount", r->clock_ns != NULL);
    ckpt_u64(w, "mr", r->mr);
    ckpt_u64(w, "imsc", r->imsc);
    ckpt_u64(w, "ris", r->ris);
    ckpt_end(w);
    pthread_mutex_unlock(&r->lock);
}

bool pl031_ckpt_load(Pl031 *r, CkptReader *rd)
{
    CkptSection *s = ckpt_section(rd, "pl031", 0, PL031_CKPT_VERSION);
    uint64_t offset = 0;
    uint32_t cnt = 0, mr = 0, imsc = 0, ris = 0;
    bool icount = false;
    if (!s)
        return false;
    ckpt_get_u32(s, "counter", &cnt, UINT32_MAX);
    ckpt_get_u64(s, "offset", &offset, UINT64_MAX);
    ckpt_get_bool(s, "icount", &icount);
    ckpt_get_u32(s, "mr", &mr, UINT32_MAX);
    ckpt_get_u32(s, "imsc", &imsc, 1);
    ckpt_get_u32(s, "ris", &ris, 1);
    if (!ckpt_ok(rd))
        return false;
    pthread_mutex_lock(&r->lock);
    if (icount && r->clock_ns) {
        r->offset = (int64_t)offset; /* the guest clock is restored: same counter, same phase */
    } else {
        uint64_t now_s = realtime_ns_of(r) / 1000000000ull;
        r->offset = (int64_t)cnt - (int64_t)now_s; /* the counter reads the saved value now */
    }
    r->mr = mr;
    r->imsc = imsc;
    r->ris = ris;
    arm_alarm(r);
    r->irq_out = !(r->ris & r->imsc & 1); /* re-drive the line whatever the GIC holds */
    update_irq(r);
    pthread_mutex_unlock(&r->lock);
    return true;
}
