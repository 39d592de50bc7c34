/* Kernel boot support: the arm64 Image header and the boot stub (see boot_stub.S). */
#ifndef MALIBU_FIRMWARE_BOOT_H
#define MALIBU_FIRMWARE_BOOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BOOT_STUB_WORDS 12 /* 0x30 bytes */

/* The stub's words (little-endian when stored), entering kernel_entry with x0 = dtb_pa. */
void boot_stub_build(uint32_t out[BOOT_STUB_WORDS], uint64_t dtb_pa, uint64_t kernel_entry);

typedef struct BootImage {
    uint64_t text_offset; /* load at a 2 MB aligned base + text_offset */
    uint64_t image_size;  /* bytes needed from the load address (>= file size) */
    bool has_header;      /* false: raw binary (e.g. kvm-unit-tests .flat), loaded at +0x80000 */
} BootImage;

/* Parse an arm64 Image header (booting.rst: magic "ARM\x64" at 0x38, text_offset at 0x08,
 * image_size at 0x10, flags at 0x18).  Rejects big-endian images and page sizes other than 4 KB.
 * A file without the magic is taken as a raw binary.  Returns false with a message in err. */
bool boot_parse_image(const uint8_t *img, size_t len, BootImage *out, char *err, size_t errlen);

#endif
