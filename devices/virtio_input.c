/* virtio-input device model (see virtio_input.h). */
#include "virtio_input.h"
#include "../emu/checkpoint/ckpt.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* config select values (virtio 1.2 §5.8.5) */
enum {
    CFG_UNSET = 0, CFG_ID_NAME = 1, CFG_ID_SERIAL = 2, CFG_ID_DEVIDS = 3, CFG_PROP_BITS = 0x10,
    CFG_EV_BITS = 0x11, CFG_ABS_INFO = 0x12,
};
enum { BUS_VIRTUAL = 6, INPUT_PROP_DIRECT = 1 };
enum { KEY_MAX_CODE = 0x2ff };

typedef struct InputEvent {
    uint16_t type, code;
    int32_t value;
} InputEvent;

struct VirtioInput {
    VirtioMmio *t;
    VirtioDevOps ops;
    VirtioInputKind kind;
    pthread_mutex_t lock;  /* the pending events and the config */
    uint8_t config[136];   /* select, subsel, size, reserved[5], union[128] */
    InputEvent pending[VIRTIO_INPUT_PENDING];
    unsigned head, count;
    uint64_t dropped;
};

static void set_bit(uint8_t *map, unsigned bit) { map[bit / 8] |= (uint8_t)(1u << (bit % 8)); }

/* Fill the union for the current select/subsel (lock held). */
static void select_config(VirtioInput *in)
{
    uint8_t sel = in->config[0], sub = in->config[1], *u = in->config + 8;
    unsigned size = 0;
    memset(u, 0, 128);
    bool kbd = in->kind == VIRTIO_INPUT_KEYBOARD;
    switch (sel) {
    case CFG_ID_NAME: {
        const char *name = kbd ? "malibu virtio keyboard" : "malibu virtio tablet";
        size = (unsigned)strlen(name);
        memcpy(u, name, size);
        break;
    }
    case CFG_ID_SERIAL:
        size = 5;
        memcpy(u, kbd ? "kbd-0" : "tab-0", 5);
        break;
    case CFG_ID_DEVIDS: {
        uint16_t ids[4] = { BUS_VIRTUAL, 0, kbd ? 1 : 2, 1 }; /* bus, vendor, product, version */
        memcpy(u, ids, 8);
        size = 8;
        break;
    }
    case CFG_PROP_BITS:
        if (sub == 0 && !kbd) {
            set_bit(u, INPUT_PROP_DIRECT);
            size = 1;
        }
        break;
    case CFG_EV_BITS:
        if (kbd && sub == EV_KEY) {
            for (unsigned k = 1; k < 256; k++) /* every key of a PC keyboard */
                set_bit(u, k);
            size = 32;
        } else if (kbd && sub == EV_REP) {
            size = 1; /* the driver's autorepeat (bitmap content unused) */
        } else if (!kbd && sub == EV_KEY) {
            set_bit(u, BTN_LEFT);
            set_bit(u, BTN_RIGHT);
            set_bit(u, BTN_MIDDLE);
            size = BTN_MIDDLE / 8 + 1;
        } else if (!kbd && sub == EV_ABS) {
            set_bit(u, ABS_X);
            set_bit(u, ABS_Y);
            size = 1;
        } else if (!kbd && sub == EV_REL) {
            set_bit(u, REL_WHEEL);
            size = 2;
        }
        break;
    case CFG_ABS_INFO:
        if (!kbd && (sub == ABS_X || sub == ABS_Y)) {
            uint32_t info[5] = { 0, VIRTIO_INPUT_ABS_MAX, 0, 0, 0 };
            memcpy(u, info, sizeof info);
            size = sizeof info;
        }
        break;
    default:
        break;
    }
    in->config[2] = (uint8_t)size;
}

static void input_config_read(void *opaque, unsigned off, void *buf, unsigned len)
{
    VirtioInput *in = opaque;
    pthread_mutex_lock(&in->lock);
    memcpy(buf, in->config + off, len);
    pthread_mutex_unlock(&in->lock);
}

static void input_config_write(void *opaque, unsigned off, const void *buf, unsigned len)
{
    VirtioInput *in = opaque;
    pthread_mutex_lock(&in->lock);
    /* only select and subsel are writable */
    for (unsigned i = 0; i < len; i++)
        if (off + i < 2)
            in->config[off + i] = ((const uint8_t *)buf)[i];
    select_config(in);
    pthread_mutex_unlock(&in->lock);
}

static int64_t input_handle(void *opaque, unsigned queue, VirtqElem *e, uint64_t features,
                            char *err, size_t errlen)
{
    VirtioInput *in = opaque;
    (void)features;
    if (queue == 1)
        return 0; /* statusq: LEDs etc., nothing to show them on */
    if (e->nout != 0 || e->in_bytes < 8) {
        snprintf(err, errlen, "event buffer %u: %llu device-writable bytes, an event needs 8",
                 e->head, (unsigned long long)e->in_bytes);
        return -1;
    }
    pthread_mutex_lock(&in->lock);
    if (in->count == 0) {
        pthread_mutex_unlock(&in->lock);
        return VIRTIO_HANDLE_LATER;
    }
    InputEvent ev = in->pending[in->head];
    in->head = (in->head + 1) % VIRTIO_INPUT_PENDING;
    in->count--;
    pthread_mutex_unlock(&in->lock);
    uint8_t bytes[8];
    memcpy(bytes, &ev.type, 2); /* little-endian host: the virtio layout as is */
    memcpy(bytes + 2, &ev.code, 2);
    memcpy(bytes + 4, &ev.value, 4);
    size_t done = 0;
    for (unsigned i = 0; i < e->nin && done < 8; i++) {
        size_t n = e->iov[i].iov_len < 8 - done ? e->iov[i].iov_len : 8 - done;
        memcpy(e->iov[i].iov_base, bytes + done, n);
        done += n;
    }
    return 8;
}

static void input_reset(void *opaque)
{
    VirtioInput *in = opaque;
    pthread_mutex_lock(&in->lock);
    in->head = in->count = 0;
    memset(in->config, 0, sizeof in->config);
    pthread_mutex_unlock(&in->lock);
}

VirtioInput *virtio_input_new(Bus *bus, Gic *gic, unsigned intid, uint64_t base,
                              VirtioInputKind kind, bool threaded)
{
    VirtioInput *in = calloc(1, sizeof *in);
    if (!in)
        return NULL;
    pthread_mutex_init(&in->lock, NULL);
    in->kind = kind;
    in->ops = (VirtioDevOps){
        .name = kind == VIRTIO_INPUT_KEYBOARD ? "virtio-input keyboard" : "virtio-input tablet",
        .device_id = VIRTIO_ID_INPUT,
        .nqueues = 2,
        .config_len = sizeof in->config,
        .config_read = input_config_read,
        .config_write = input_config_write,
        .handle = input_handle,
        .reset = input_reset,
    };
    in->t = virtio_mmio_new(bus, gic, intid, base, &in->ops, in, threaded);
    if (!in->t) {
        pthread_mutex_destroy(&in->lock);
        free(in);
        return NULL;
    }
    return in;
}

void virtio_input_free(VirtioInput *in)
{
    if (!in)
        return;
    virtio_mmio_free(in->t);
    pthread_mutex_destroy(&in->lock);
    free(in);
}

VirtioMmio *virtio_input_transport(VirtioInput *in) { return in->t; }

void virtio_input_send(VirtioInput *in, uint16_t type, uint16_t code, int32_t value)
{
    pthread_mutex_lock(&in->lock);
    bool queued = in->count < VIRTIO_INPUT_PENDING;
    if (queued) {
        in->pending[(in->head + in->count) % VIRTIO_INPUT_PENDING] = (InputEvent){ type, code, value };
        in->count++;
    } else {
        in->dropped++;
    }
    pthread_mutex_unlock(&in->lock);
    if (queued)
        virtio_mmio_kick_queue(in->t, 0);
}

uint64_t virtio_input_dropped(VirtioInput *in)
{
    pthread_mutex_lock(&in->lock);
    uint64_t d = in->dropped;
    pthread_mutex_unlock(&in->lock);
    return d;
}

/* ---- checkpoint ---------------------------------------------------------------------------- */

void virtio_input_ckpt_save(VirtioInput *in, CkptWriter *w, uint32_t slot)
{
    virtio_mmio_pause(in->t);
    virtio_mmio_ckpt_save(in->t, w, slot);
    pthread_mutex_lock(&in->lock);
    uint8_t *ev = malloc((size_t)in->count * 8 + 1);
    for (unsigned i = 0; ev && i < in->count; i++) {
        const InputEvent *e = &in->pending[(in->head + i) % VIRTIO_INPUT_PENDING];
        memcpy(ev + 8 * i, &e->type, 2); /* the virtio event layout */
        memcpy(ev + 8 * i + 2, &e->code, 2);
        memcpy(ev + 8 * i + 4, &e->value, 4);
    }
    ckpt_begin(w, "virtio-input", slot, VIRTIO_INPUT_CKPT_VERSION);
    ckpt_u64(w, "kind", in->kind);
    ckpt_u64(w, "select", in->config[0]);
    ckpt_u64(w, "subsel", in->config[1]);
    ckpt_bytes(w, "events", ev, ev ? (size_t)in->count * 8 : 0);
    ckpt_end(w);
    free(ev);
    pthread_mutex_unlock(&in->lock);
    virtio_mmio_resume(in->t);
}

bool virtio_input_ckpt_load(VirtioInput *in, CkptReader *r, uint32_t slot)
{
    virtio_mmio_pause(in->t);
    if (!virtio_mmio_ckpt_load(in->t, r, slot))
        return false;
    CkptSection *s = ckpt_section(r, "virtio-input", slot, VIRTIO_INPUT_CKPT_VERSION);
    if (!s)
        return false;
    uint32_t kind = 0, sel = 0, sub = 0;
    size_t len = 0;
    ckpt_get_u32(s, "kind", &kind, VIRTIO_INPUT_TABLET);
    ckpt_get_u32(s, "select", &sel, 0xFF);
    ckpt_get_u32(s, "subsel", &sub, 0xFF);
    const uint8_t *ev = ckpt_get_blob(s, "events", &len, (size_t)VIRTIO_INPUT_PENDING * 8);
    if (!ckpt_ok(r))
        return false;
    if (kind != in->kind)
        return ckpt_fail(s, "field 'kind' is %u (%s), this slot has the %s", kind,
                         kind == VIRTIO_INPUT_KEYBOARD ? "keyboard" : "tablet",
                         in->kind == VIRTIO_INPUT_KEYBOARD ? "keyboard" : "tablet");
    if (len % 8)
        return ckpt_fail(s, "field 'events' is %zu bytes, not whole 8-byte events", len);
    pthread_mutex_lock(&in->lock);
    in->head = 0;
    in->count = (unsigned)(len / 8);
    for (unsigned i = 0; i < in->count; i++) {
        InputEvent *e = &in->pending[i];
        memcpy(&e->type, ev + 8 * i, 2);
        memcpy(&e->code, ev + 8 * i + 2, 2);
        memcpy(&e->value, ev + 8 * i + 4, 4);
    }
    in->config[0] = (uint8_t)sel;
    in->config[1] = (uint8_t)sub;
    select_config(in);
    pthread_mutex_unlock(&in->lock);
    return true;
}
