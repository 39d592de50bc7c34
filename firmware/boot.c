/* Boot stub emission and Image header parsing (see boot.h, boot_stub.S). */
#include "boot.h"

#include <stdio.h>
#include <string.h>

#define A64_LDR_LIT_X(rt, byte_off) (0x58000000u | ((uint32_t)((byte_off) / 4) << 5) | (rt))

void boot_stub_build(uint32_t out[BOOT_STUB_WORDS], uint64_t dtb_pa, uint64_t kernel_entry)
{
    out[0] = 0xD5034FDFu;             /* msr daifset, #0xf */
    out[1] = A64_LDR_LIT_X(0, 0x1C);  /* 0x04: ldr x0, [pc + 0x1c] -> 0x20 */
    out[2] = 0xAA1F03E1u;             /* mov x1, xzr */
    out[3] = 0xAA1F03E2u;             /* mov x2, xzr */
    out[4] = 0xAA1F03E3u;             /* mov x3, xzr */
    out[5] = A64_LDR_LIT_X(4, 0x14);  /* 0x14: ldr x4, [pc + 0x14] -> 0x28 */
    out[6] = 0xD61F0080u;             /* br x4 */
    out[7] = 0xD503201Fu;             /* nop */
    out[8] = (uint32_t)dtb_pa;
    out[9] = (uint32_t)(dtb_pa >> 32);
    out[10] = (uint32_t)kernel_entry;
    out[11] = (uint32_t)(kernel_entry >> 32);
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

bool boot_parse_image(const uint8_t *img, size_t len, BootImage *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (len == 0) {
        snprintf(err, errlen, "empty kernel image");
        return false;
    }
    if (len >= 2 && img[0] == 0x1f && img[1] == 0x8b) {
        snprintf(err, errlen, "gzip-compressed (a vmlinuz.gz?); malibu boots the uncompressed arm64 "
                 "Image: zcat it first");
        return false;
    }
    if (len >= 4 && !memcmp(img, "\177ELF", 4)) {
        snprintf(err, errlen, "an ELF file (vmlinux?), not an arm64 Image: use arch/arm64/boot/Image "
                 "or the distribution's vmlinuz");
        return false;
    }
    if (len < 64 || le64(img + 0x38) % (1ull << 32) != 0x644D5241u) {
        snprintf(err, errlen, "not an arm64 Linux Image (no \"ARM\\x64\" magic at offset 0x38%s)",
                 len < 64 ? "; shorter than the 64-byte header" : "");
        return false;
    }
    out->text_offset = le64(img + 0x08);
    out->image_size = le64(img + 0x10);
    uint64_t flags = le64(img + 0x18);
    if (out->image_size == 0) { /* kernels before 3.17 */
        out->text_offset = 0x80000;
        out->image_size = len;
        return true;
    }
    if (flags & 1) {
        snprintf(err, errlen, "big-endian kernel images are not supported");
        return false;
    }
    unsigned page = (flags >> 1) & 3;
    if (page != 0 && page != 1) {
        snprintf(err, errlen, "kernel built for %s pages; only 4 KB pages are supported",
                 page == 2 ? "16 KB" : "64 KB");
        return false;
    }
    if (out->text_offset >= (2u << 20) || (out->text_offset & 0xFFF)) {
        snprintf(err, errlen, "unexpected text_offset 0x%llx", (unsigned long long)out->text_offset);
        return false;
    }
    if (out->image_size < len)
        out->image_size = len;
    return true;
}
