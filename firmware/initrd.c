/* Is an initrd complete?  What a boot loader can tell before the kernel finds out the hard way
 * (a truncated archive unpacks partly and the boot dies later at "no working init found"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "boot.h"

#define CPIO_HDR 110 /* newc: "070701" + 13 8-digit hex fields */

static int hexfield(const uint8_t *p, unsigned long *out)
{
    unsigned long v = 0;
    for (int i = 0; i < 8; i++) {
        int c = p[i], d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v << 4 | (unsigned)d;
    }
    *out = v;
    return 0;
}

/* Walk newc cpio headers from data; true when a TRAILER!!! entry is reached inside len. */
static bool cpio_complete(const uint8_t *data, size_t len, char *err, size_t errlen, const char *what)
{
    size_t off = 0;
    unsigned n = 0;
    while (off + CPIO_HDR <= len) {
        const uint8_t *h = data + off;
        unsigned long fsize, nsize;
        if ((memcmp(h, "070701", 6) && memcmp(h, "070702", 6)) || hexfield(h + 54, &fsize) ||
            hexfield(h + 94, &nsize) || nsize == 0) {
            snprintf(err, errlen, "%s: bad cpio header at offset %zu (entry %u)", what, off, n);
            return false;
        }
        size_t name_end = off + CPIO_HDR + nsize;
        if (name_end > len)
            break;
        if (nsize == 11 && !memcmp(h + CPIO_HDR, "TRAILER!!!", 11))
            return true;
        size_t data_off = (name_end + 3) & ~(size_t)3;
        if (fsize > len || data_off + fsize > len)
            break;
        off = (data_off + fsize + 3) & ~(size_t)3;
        n++;
    }
    snprintf(err, errlen, "%s: truncated: the cpio archive ends after %u entries without its "
             "TRAILER!!! (%zu bytes)", what, n, len);
    return false;
}

/* Inflate a gzip member completely (CRC and length checked by zlib) and check the cpio in it. */
static bool gzip_complete(const uint8_t *data, size_t len, char *err, size_t errlen)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
        snprintf(err, errlen, "initrd: zlib: cannot start inflating");
        return false;
    }
    size_t cap = 1 << 20, used = 0;
    uint8_t *out = malloc(cap);
    int r = Z_OK;
    z.next_in = (Bytef *)data;
    while (out && r == Z_OK) {
        size_t chunk = len - (size_t)((const uint8_t *)z.next_in - data);
        z.avail_in = chunk > (1u << 30) ? 1u << 30 : (uInt)chunk;
        if (used == cap) {
            uint8_t *nb = cap < ((size_t)1 << 32) ? realloc(out, cap * 2) : NULL;
            if (!nb) {
                free(out);
                out = NULL;
                break;
            }
            out = nb;
            cap *= 2;
        }
        z.next_out = out + used;
        z.avail_out = (uInt)(cap - used > (1u << 30) ? 1u << 30 : cap - used);
        size_t before = z.avail_out;
        r = inflate(&z, Z_NO_FLUSH);
        used += before - z.avail_out;
        if (r == Z_BUF_ERROR && z.avail_in == 0)
            break;              /* input exhausted before the end of the stream */
        if (r == Z_BUF_ERROR)
            r = Z_OK;           /* output full: grow and go on */
    }
    inflateEnd(&z);
    bool ok = false;
    if (!out)
        snprintf(err, errlen, "initrd: out of memory inflating it");
    else if (r != Z_STREAM_END)
        snprintf(err, errlen, "initrd: %s gzip stream (%s after %zu bytes of %zu)",
                 r == Z_BUF_ERROR || r == Z_OK ? "truncated" : "corrupt",
                 z.msg ? z.msg : "ends early", len - (size_t)z.avail_in, len);
    else if (used >= 6 && (!memcmp(out, "070701", 6) || !memcmp(out, "070702", 6)))
        ok = cpio_complete(out, used, err, errlen, "initrd (inside gzip)");
    else
        ok = true;              /* a compressed ramdisk image: the kernel decides */
    free(out);
    return ok;
}

bool boot_check_initrd(const uint8_t *data, size_t len, char *err, size_t errlen)
{
    static const uint8_t xz_magic[6] = { 0xFD, '7', 'z', 'X', 'Z', 0 };
    if (len == 0) {
        snprintf(err, errlen, "initrd: empty file");
        return false;
    }
    if (len >= 6 && (!memcmp(data, "070701", 6) || !memcmp(data, "070702", 6)))
        return cpio_complete(data, len, err, errlen, "initrd");
    if (len >= 2 && data[0] == 0x1f && data[1] == 0x8b)
        return gzip_complete(data, len, err, errlen);
    if (len >= 6 && !memcmp(data, xz_magic, 6)) {
        while (len > 12 && !memcmp(data + len - 4, "\0\0\0\0", 4))
            len -= 4;           /* stream padding */
        if (len < 12 + 12 || memcmp(data + len - 2, "YZ", 2)) {
            snprintf(err, errlen, "initrd: truncated xz stream (no stream footer at its end)");
            return false;
        }
    }
    return true;
}
