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
} BootImage;

/* Parse an arm64 Image header (booting.rst: magic "ARM\x64" at 0x38, text_offset at 0x08,
 * image_size at 0x10, flags at 0x18).  Rejects big-endian images and page sizes other than 4 KB.
 * Anything without the magic (a raw binary, a compressed vmlinuz, an ELF vmlinux, another file) is
 * refused, as are big-endian images and page sizes other than 4 KB.  Returns false with a message
 * in err. */
bool boot_parse_image(const uint8_t *img, size_t len, BootImage *out, char *err, size_t errlen);

/* Check that an initrd is complete where its format allows: a newc cpio archive must reach its
 * TRAILER!!! entry, a gzip stream must inflate to its end with a good CRC (and hold a complete
 * cpio), an xz stream must end in its footer.  Other formats (zstd, lz4, bzip2, a ramdisk image)
 * pass unchecked: the kernel decides.  Returns false with a message in err. */
bool boot_check_initrd(const uint8_t *data, size_t len, char *err, size_t errlen);

#endif
