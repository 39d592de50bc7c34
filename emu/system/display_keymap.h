/* SDL scancodes (USB HID keyboard usages) to Linux input key codes, for the virtio-input keyboard
 * of --display sdl. */
#ifndef MALIBU_SYSTEM_DISPLAY_KEYMAP_H
#define MALIBU_SYSTEM_DISPLAY_KEYMAP_H

#include <stdint.h>

/* Linux KEY_* code of an SDL scancode, 0 for keys a PC keyboard does not have. */
uint16_t display_linux_key(int sdl_scancode);

#endif
