/* PNG writer (see png_write.h): signature, IHDR, one IDAT, IEND. */
#include "png_write.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static void be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* length, type, data, CRC over type + data */
static bool chunk(FILE *f, const char *type, const uint8_t *data, uint32_t len)
{
    uint8_t hdr[8], crc[4];
    be32(hdr, len);
    memcpy(hdr + 4, type, 4);
    uLong c = crc32(0, hdr + 4, 4);
    if (len)
        c = crc32(c, data, len);
    be32(crc, (uint32_t)c);
    return fwrite(hdr, 1, 8, f) == 8 && (len == 0 || fwrite(data, 1, len, f) == len) &&
           fwrite(crc, 1, 4, f) == 4;
}

bool png_write_xrgb(const char *path, const uint32_t *pixels, unsigned width, unsigned height,
                    char *err, size_t errlen)
{
    if (width == 0 || height == 0 || width > 65536 || height > 65536) {
        snprintf(err, errlen, "%s: bad image size %ux%u", path, width, height);
        return false;
    }
    size_t row = 1 + (size_t)width * 3, raw_len = row * height;
    uint8_t *raw = malloc(raw_len);
    uLongf z_len = compressBound((uLong)raw_len);
    uint8_t *z = malloc(z_len);
    if (!raw || !z) {
        free(raw);
        free(z);
        snprintf(err, errlen, "%s: out of memory", path);
        return false;
    }
    for (unsigned y = 0; y < height; y++) {
        uint8_t *o = raw + y * row;
        *o++ = 0; /* filter: None */
        for (unsigned x = 0; x < width; x++) {
            uint32_t p = pixels[(size_t)y * width + x];
            *o++ = (uint8_t)(p >> 16);
            *o++ = (uint8_t)(p >> 8);
            *o++ = (uint8_t)p;
        }
    }
    int zr = compress2(z, &z_len, raw, (uLong)raw_len, 6);
    free(raw);
    if (zr != Z_OK || z_len > UINT32_MAX) {
        free(z);
        snprintf(err, errlen, "%s: zlib error %d", path, zr);
        return false;
    }
    uint8_t ihdr[13];
    be32(ihdr, width);
    be32(ihdr + 4, height);
    ihdr[8] = 8;  /* bit depth */
    ihdr[9] = 2;  /* colour type: RGB */
    ihdr[10] = 0; /* deflate */
    ihdr[11] = 0; /* adaptive filtering */
    ihdr[12] = 0; /* no interlace */
    static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(sig, 1, 8, f) == 8 && chunk(f, "IHDR", ihdr, 13) &&
              chunk(f, "IDAT", z, (uint32_t)z_len) && chunk(f, "IEND", NULL, 0);
    int saved = errno;
    if (f && fclose(f) != 0)
        ok = false;
    free(z);
    if (!ok)
        snprintf(err, errlen, "%s: %s", path, strerror(saved ? saved : EIO));
    return ok;
}
