/* emu/system/png_write: the file is read back chunk by chunk (lengths, CRCs, IHDR fields), the
 * IDAT stream inflated with zlib and every pixel compared; bad sizes and paths fail cleanly. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "../../emu/system/png_write.h"

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    uint8_t *buf = malloc(1 << 20);
    *len = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

START_TEST(png_round_trip)
{
    enum { W = 37, H = 11 };
    uint32_t px[W * H];
    for (unsigned i = 0; i < W * H; i++)
        px[i] = 0xAB000000u | (i * 2654435761u & 0xFFFFFF); /* the X byte must be ignored */
    char path[] = "/tmp/malibu-png-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char err[256];
    ck_assert_msg(png_write_xrgb(path, px, W, H, err, sizeof err), "%s", err);
    size_t len;
    uint8_t *f = slurp(path, &len);
    unlink(path);
    static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };
    ck_assert_mem_eq(f, sig, 8);
    size_t pos = 8;
    uint8_t *idat = NULL;
    size_t idat_len = 0;
    int chunks = 0;
    bool iend = false;
    while (pos + 12 <= len && !iend) {
        uint32_t n = be32(f + pos);
        ck_assert_uint_le(pos + 12 + n, len);
        const uint8_t *type = f + pos + 4, *data = f + pos + 8;
        ck_assert_uint_eq(be32(data + n), (uint32_t)crc32(0, type, 4 + n));
        if (!memcmp(type, "IHDR", 4)) {
            ck_assert_int_eq(chunks, 0);
            ck_assert_uint_eq(n, 13);
            ck_assert_uint_eq(be32(data), W);
            ck_assert_uint_eq(be32(data + 4), H);
            ck_assert_uint_eq(data[8], 8);
            ck_assert_uint_eq(data[9], 2);
            ck_assert_uint_eq(data[12], 0);
        } else if (!memcmp(type, "IDAT", 4)) {
            idat = realloc(idat, idat_len + n);
            memcpy(idat + idat_len, data, n);
            idat_len += n;
        } else {
            ck_assert_mem_eq(type, "IEND", 4);
            iend = true;
        }
        chunks++;
        pos += 12 + n;
    }
    ck_assert(iend);
    ck_assert_uint_eq(pos, len);
    uLongf raw_len = (1 + W * 3) * H;
    uint8_t *raw = malloc(raw_len);
    ck_assert_int_eq(uncompress(raw, &raw_len, idat, idat_len), Z_OK);
    ck_assert_uint_eq(raw_len, (1 + W * 3) * H);
    for (unsigned y = 0; y < H; y++) {
        const uint8_t *r = raw + y * (1 + W * 3);
        ck_assert_uint_eq(r[0], 0);
        for (unsigned x = 0; x < W; x++) {
            uint32_t p = px[y * W + x];
            ck_assert_uint_eq(r[1 + 3 * x], (p >> 16) & 0xFF);
            ck_assert_uint_eq(r[2 + 3 * x], (p >> 8) & 0xFF);
            ck_assert_uint_eq(r[3 + 3 * x], p & 0xFF);
        }
    }
    free(raw);
    free(idat);
    free(f);
}
END_TEST

START_TEST(png_errors)
{
    uint32_t px[4] = { 0 };
    char err[256];
    ck_assert(!png_write_xrgb("/tmp/x.png", px, 0, 1, err, sizeof err));
    ck_assert(!png_write_xrgb("/tmp/x.png", px, 1, 70000, err, sizeof err));
    ck_assert(!png_write_xrgb("/nonexistent-dir/x.png", px, 2, 2, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent-dir/x.png"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("png_write");
    TCase *tc = tcase_create("png");
    tcase_add_test(tc, png_round_trip);
    tcase_add_test(tc, png_errors);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
