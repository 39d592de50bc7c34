/* virtio-input device (virtio 1.2 §5.8, device ID 18) over the virtio-mmio transport: a keyboard
 * or an absolute pointer ("tablet") whose events come from the host (the SDL window of
 * build/malibu --display sdl).  Linux's virtio_input driver makes them evdev devices; the
 * console's keyboard handler takes the keyboard's keys.
 *
 * Config space: select/subsel written by the driver pick what the union shows (name, serial,
 * device IDs, property bits, event-type bitmaps, axis ranges), size says how many bytes are
 * valid.  Queue 0 (eventq): the driver posts 8-byte buffers, the device fills one per event
 * (le16 type, le16 code, le32 value) when the host sends one.  Queue 1 (statusq): LED and other
 * events from the driver, consumed and ignored.  Events sent while the driver has no buffer
 * wait in a bounded queue (VIRTIO_INPUT_PENDING; more are dropped, as a full device would). */
#ifndef MALIBU_DEVICES_VIRTIO_INPUT_H
#define MALIBU_DEVICES_VIRTIO_INPUT_H

#include <stdint.h>

#include "virtio_mmio.h"

#define VIRTIO_ID_INPUT 18
#define VIRTIO_INPUT_PENDING 1024
#define VIRTIO_INPUT_ABS_MAX 32767 /* tablet axes: 0..32767 */

/* Linux input event types and codes used here (input-event-codes.h values). */
enum { EV_SYN = 0, EV_KEY = 1, EV_REL = 2, EV_ABS = 3, EV_REP = 0x14 };
enum { SYN_REPORT = 0, ABS_X = 0, ABS_Y = 1, REL_WHEEL = 8 };
enum { BTN_LEFT = 0x110, BTN_RIGHT = 0x111, BTN_MIDDLE = 0x112 };

typedef enum { VIRTIO_INPUT_KEYBOARD, VIRTIO_INPUT_TABLET } VirtioInputKind;
typedef struct VirtioInput VirtioInput;

VirtioInput *virtio_input_new(Bus *bus, Gic *gic, unsigned intid, uint64_t base,
                              VirtioInputKind kind, bool threaded);
void virtio_input_free(VirtioInput *in);
VirtioMmio *virtio_input_transport(VirtioInput *in);

/* Queue one event for the guest (any host thread); a group ends with EV_SYN/SYN_REPORT. */
void virtio_input_send(VirtioInput *in, uint16_t type, uint16_t code, int32_t value);
/* Checkpoints: the transport (section "virtio-mmio", instance = slot, device paused as for
 * virtio-blk) and section "virtio-input" (same instance): the kind, the config selector and the
 * events waiting for a buffer.  Load leaves the device paused (virtio_mmio_resume). */
#define VIRTIO_INPUT_CKPT_VERSION 1
void virtio_input_ckpt_save(VirtioInput *in, CkptWriter *w, uint32_t slot);
bool virtio_input_ckpt_load(VirtioInput *in, CkptReader *r, uint32_t slot);

/* Events dropped because the guest did not take them. */
uint64_t virtio_input_dropped(VirtioInput *in);

#endif
