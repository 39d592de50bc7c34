/* devices/virtio_blk + devices/disk: request flows through a simulated driver (read, write,
 * flush, get_id, errors, multi-segment and indirect chains, inline and worker-thread modes),
 * copy-on-write semantics (the image file never changes), write-through persistence, read-only
 * disks, --share images, and random descriptor chains that must never crash the host. */
#include <sys/stat.h>
#include "vdrv.h"

static const uint64_t ALL = ~0ull;
#define IMG_SIZE (2u << 20)

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    ck_assert_uint_eq(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

static void check_pattern_file(const char *path)
{
    size_t n;
    uint8_t *b = slurp(path, &n);
    ck_assert_uint_eq(n, IMG_SIZE);
    for (size_t i = 0; i < n; i++)
        if (b[i] != vd_pattern(i))
            ck_abort_msg("image byte %zu changed", i);
    free(b);
}

static Disk *open_img(const char *path, DiskMode m)
{
    char err[256];
    Disk *d = disk_open(path, m, err, sizeof err);
    ck_assert_msg(d, "%s", err);
    return d;
}

/* _i: bit 0 threaded, bit 1 indirect descriptors */
START_TEST(read_write_flush_getid)
{
    bool threaded = _i & 1, ind = _i & 2;
    char *path = vd_tmpname("rw");
    vd_make_image(path, IMG_SIZE);
    VDrv d;
    vd_setup(&d, open_img(path, DISK_COW), threaded);
    vd_init(&d, ALL, 16);
    uint32_t used;
    /* read 8 sectors from sector 3 in 3 segments */
    memset(vd_host(&d, VD_DATA), 0, 8192);
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_IN, 3, VD_DATA, 4096, 3, ind, &used), VIRTIO_BLK_S_OK);
    ck_assert_uint_eq(used, 4097);
    for (unsigned i = 0; i < 4096; i++)
        ck_assert_uint_eq(vd_host(&d, VD_DATA)[i], vd_pattern(3 * 512 + i));
    /* write 2 sectors at 100, read them back */
    for (unsigned i = 0; i < 1024; i++)
        vd_host(&d, VD_DATA)[i] = (uint8_t)(0xa5 ^ i);
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_OUT, 100, VD_DATA, 1024, 2, ind, &used), VIRTIO_BLK_S_OK);
    ck_assert_uint_eq(used, 1);
    memset(vd_host(&d, VD_DATA + 0x10000), 0, 2048);
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_IN, 99, VD_DATA + 0x10000, 2048, 4, ind, NULL),
                     VIRTIO_BLK_S_OK);
    uint8_t *r = vd_host(&d, VD_DATA + 0x10000);
    for (unsigned i = 0; i < 512; i++)
        ck_assert_uint_eq(r[i], vd_pattern(99 * 512 + i));
    for (unsigned i = 0; i < 1024; i++)
        ck_assert_uint_eq(r[512 + i], (uint8_t)(0xa5 ^ i));
    for (unsigned i = 0; i < 512; i++)
        ck_assert_uint_eq(r[1536 + i], vd_pattern(102 * 512 + i));
    ck_assert_uint_eq(disk_cow_sectors(virtio_blk_disk(d.vb)), 2);
    /* flush, get_id */
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_FLUSH, 0, 0, 0, 0, ind, &used), VIRTIO_BLK_S_OK);
    memset(vd_host(&d, VD_DATA), 0xff, 64);
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_GET_ID, 0, VD_DATA, 20, 1, ind, &used), VIRTIO_BLK_S_OK);
    ck_assert_int_eq(memcmp(vd_host(&d, VD_DATA), "test-serial-01234567", 20), 0);
    ck_assert_uint_eq(vd_host(&d, VD_DATA)[20], 0xff);
    /* errors: past the end, partial sector, unknown type */
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_IN, IMG_SIZE / 512 - 1, VD_DATA, 1024, 1, ind, NULL),
                     VIRTIO_BLK_S_IOERR);
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_OUT, ~0ull / 256, VD_DATA, 512, 1, ind, NULL),
                     VIRTIO_BLK_S_IOERR);
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_IN, 0, VD_DATA, 100, 1, ind, NULL), VIRTIO_BLK_S_IOERR);
    ck_assert_int_eq(vd_blk(&d, 11 /* DISCARD */, 0, VD_DATA, 16, 1, ind, NULL), VIRTIO_BLK_S_UNSUPP);
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_IN, IMG_SIZE / 512 - 1, VD_DATA, 512, 1, ind, NULL),
                     VIRTIO_BLK_S_OK);
    ck_assert(!(vd_rd(&d, VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_NEEDS_RESET));
    /* many requests in a row wrap the rings several times */
    for (unsigned k = 0; k < 100; k++) {
        uint64_t sec = (k * 37) % (IMG_SIZE / 512 - 8);
        ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_IN, sec, VD_DATA, 4096, 1 + k % 5, ind, NULL),
                         VIRTIO_BLK_S_OK);
        if (sec > 102 || sec + 8 < 100)
            for (unsigned i = 0; i < 4096; i += 511)
                ck_assert_uint_eq(vd_host(&d, VD_DATA)[i], vd_pattern(sec * 512 + i));
    }
    vd_teardown(&d);
    check_pattern_file(path); /* COW: the image never changed */
    unlink(path);
    free(path);
}
END_TEST

START_TEST(cow_semantics)
{
    char *path = vd_tmpname("cow");
    vd_make_image(path, IMG_SIZE);
    struct stat st0;
    ck_assert_int_eq(stat(path, &st0), 0);
    Disk *dk = open_img(path, DISK_COW);
    ck_assert_uint_eq(disk_size(dk), IMG_SIZE);
    /* unaligned writes: head/middle/tail of sectors, overlapping, then read across */
    uint8_t buf[5000], rd[8192];
    memset(buf, 0x11, sizeof buf);
    ck_assert_int_eq(disk_pwrite(dk, 1000, buf, 3000), 0);
    memset(buf, 0x22, sizeof buf);
    ck_assert_int_eq(disk_pwrite(dk, 1500, buf, 10), 0);
    ck_assert_int_eq(disk_pwrite(dk, 7000, buf, 5000), 0);
    ck_assert_int_eq(disk_pread(dk, 0, rd, sizeof rd), 0);
    for (unsigned i = 0; i < sizeof rd; i++) {
        uint8_t want = vd_pattern(i);
        if (i >= 1000 && i < 4000)
            want = 0x11;
        if ((i >= 1500 && i < 1510) || i >= 7000)
            want = 0x22;
        ck_assert_msg(rd[i] == want, "byte %u: %#x want %#x", i, rd[i], want);
    }
    /* sectors 1..7 (1000..4000) and 13..23 (7000..12000) */
    ck_assert_uint_eq(disk_cow_sectors(dk), 7 + 11);
    /* vectored I/O */
    struct iovec v[3] = { { rd, 100 }, { rd + 1000, 924 }, { rd + 3000, 1024 } };
    ck_assert_int_eq(disk_preadv(dk, 512, v, 3), 0);
    ck_assert_uint_eq(rd[0], vd_pattern(512));
    ck_assert_uint_eq(rd[1000 + 488], 0x11); /* byte 512 + 100 + 488 = 1100 */
    ck_assert_int_eq(disk_pwrite(dk, IMG_SIZE - 10, buf, 20), -EINVAL);
    ck_assert_int_eq(disk_flush(dk), 0);
    disk_close(dk);
    check_pattern_file(path);
    struct stat st1;
    ck_assert_int_eq(stat(path, &st1), 0);
    ck_assert_int_eq(st1.st_mtime, st0.st_mtime);
    /* a fresh COW open sees the original again */
    dk = open_img(path, DISK_COW);
    ck_assert_int_eq(disk_pread(dk, 1000, rd, 10), 0);
    ck_assert_uint_eq(rd[0], vd_pattern(1000));
    disk_close(dk);
    /* the image may even be read-only on the host */
    ck_assert_int_eq(chmod(path, 0444), 0);
    dk = open_img(path, DISK_COW);
    ck_assert_int_eq(disk_pwrite(dk, 0, buf, 512), 0);
    disk_close(dk);
    check_pattern_file(path);
    unlink(path);
    free(path);
}
END_TEST

START_TEST(write_through_persists)
{
    char *path = vd_tmpname("wt");
    vd_make_image(path, IMG_SIZE);
    VDrv d;
    vd_setup(&d, open_img(path, DISK_WRITE_THROUGH), _i);
    vd_init(&d, ALL, 8);
    for (unsigned i = 0; i < 1536; i++)
        vd_host(&d, VD_DATA)[i] = (uint8_t)(i * 13);
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_OUT, 10, VD_DATA, 1536, 3, false, NULL), VIRTIO_BLK_S_OK);
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_FLUSH, 0, 0, 0, 0, false, NULL), VIRTIO_BLK_S_OK);
    /* visible in the file before the device is closed */
    size_t n;
    uint8_t *b = slurp(path, &n);
    for (unsigned i = 0; i < n; i++) {
        uint8_t want = i >= 5120 && i < 5120 + 1536 ? (uint8_t)((i - 5120) * 13) : vd_pattern(i);
        if (b[i] != want)
            ck_abort_msg("file byte %u: %#x want %#x", i, b[i], want);
    }
    free(b);
    vd_teardown(&d);
    Disk *dk = open_img(path, DISK_READ_ONLY);
    uint8_t rd[16];
    ck_assert_int_eq(disk_pread(dk, 5120, rd, 16), 0);
    ck_assert_uint_eq(rd[1], 13);
    disk_close(dk);
    unlink(path);
    free(path);
}
END_TEST

START_TEST(read_only_disk)
{
    char *path = vd_tmpname("ro");
    vd_make_image(path, IMG_SIZE);
    VDrv d;
    vd_setup(&d, open_img(path, DISK_READ_ONLY), _i);
    vd_wr(&d, VIRTIO_MMIO_DEVICE_FEATURES_SEL, 0);
    ck_assert(vd_rd(&d, VIRTIO_MMIO_DEVICE_FEATURES) & (1u << VIRTIO_BLK_F_RO));
    vd_init(&d, ALL, 8);
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_OUT, 0, VD_DATA, 512, 1, false, NULL), VIRTIO_BLK_S_IOERR);
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_IN, 0, VD_DATA, 512, 1, false, NULL), VIRTIO_BLK_S_OK);
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_FLUSH, 0, 0, 0, 0, false, NULL), VIRTIO_BLK_S_OK);
    vd_teardown(&d);
    check_pattern_file(path);
    char err[256];
    ck_assert_ptr_null(disk_open("/nonexistent/disk.img", DISK_COW, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/disk.img"));
    unlink(path);
    free(path);
}
END_TEST

/* Random descriptor tables, avail rings and indirect tables: the device either completes
 * requests or goes to needs-reset; the host never crashes (run under ASan/UBSan too) and the
 * COW image is never modified. */
START_TEST(fuzz_chains)
{
    char *path = vd_tmpname("fuzz");
    vd_make_image(path, IMG_SIZE);
    VDrv d;
    vd_setup(&d, open_img(path, DISK_COW), _i);
    uint64_t s = 0x9e3779b97f4a7c15ull ^ (uint64_t)_i;
    unsigned resets = 0, completed = 0;
    for (int round = 0; round < 1500; round++) {
        bool valid = vd_rand(&s) & 1; /* well-formed chains with a few mutations */
        unsigned num = valid ? 4u << (vd_rand(&s) % 3) : 1u << (vd_rand(&s) % 5); /* 1..16 */
        uint64_t feat = ALL;
        if (vd_rand(&s) % 4 == 0)
            feat &= ~FEAT(VIRTIO_F_INDIRECT_DESC);
        if (vd_rand(&s) % 2)
            feat &= ~FEAT(VIRTIO_F_EVENT_IDX);
        vd_init(&d, feat, num);
        if (vd_rd(&d, VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_NEEDS_RESET)
            continue;
        /* valid-looking request headers at VD_HDR for the chains to point at */
        for (unsigned k = 0; k < 8; k++) {
            uint32_t type = (uint32_t)(vd_rand(&s) % 10);
            uint64_t sec = vd_rand(&s) % (IMG_SIZE / 512 + 4);
            memcpy(vd_host(&d, VD_HDR + 32 * k), &type, 4);
            memcpy(vd_host(&d, VD_HDR + 32 * k + 8), &sec, 8);
        }
        for (unsigned batch = 0; batch < 4; batch++) {
            uint8_t *tables[2] = { vd_host(&d, VD_DESC), vd_host(&d, VD_IND) };
            for (unsigned t = 0; t < 2; t++)
                for (unsigned k = 0; k < (t ? 64 : num); k++) {
                    uint64_t r = vd_rand(&s), addr;
                    switch (r % 8) {
                    case 0: addr = vd_rand(&s); break;                        /* anywhere */
                    case 1: addr = VD_RAM + VD_RAM_SIZE - (vd_rand(&s) % 64); /* straddles the end */
                        break;
                    case 2: addr = VD_IND + 16 * (vd_rand(&s) % 8); break;
                    case 3: case 4: addr = VD_HDR + 32 * (vd_rand(&s) % 8); break;
                    default: addr = VD_DATA + 512 * (vd_rand(&s) % 2048); break;
                    }
                    uint32_t len;
                    switch ((r >> 8) % 6) {
                    case 0: len = (uint32_t)vd_rand(&s); break;
                    case 1: len = 16; break;
                    case 2: len = 1; break;
                    case 3: len = 16 * (uint32_t)(vd_rand(&s) % 70); break;
                    default: len = 512 * (uint32_t)(vd_rand(&s) % 9); break;
                    }
                    uint16_t flags = (uint16_t)((r >> 16) & 7);
                    if ((r >> 20) % 4 == 0)
                        flags |= (uint16_t)(vd_rand(&s) & 0xfff8);
                    uint16_t next = (uint16_t)((r >> 24) % 4 == 0 ? vd_rand(&s) : (r >> 32) % (num + 2));
                    vd_set_desc(tables[t], k, addr, len, flags, next);
                }
            if (valid) { /* header -> data -> status triples, heads at 0, 3, 6, ... */
                for (unsigned k = 0; k + 2 < num; k += 3) {
                    uint32_t dl = 512 * (uint32_t)(vd_rand(&s) % 5);
                    uint16_t w = vd_rand(&s) % 4 ? VIRTQ_DESC_F_WRITE : 0;
                    vd_set_desc(tables[0], k, VD_HDR + 32 * (vd_rand(&s) % 8), 16, VIRTQ_DESC_F_NEXT,
                                (uint16_t)(k + 1));
                    vd_set_desc(tables[0], k + 1, VD_DATA + 4096 * (vd_rand(&s) % 512), dl,
                                w | VIRTQ_DESC_F_NEXT, (uint16_t)(k + 2));
                    vd_set_desc(tables[0], k + 2, VD_HDR + 0x300 + k, 1, VIRTQ_DESC_F_WRITE, 0);
                }
                for (unsigned m = (unsigned)(vd_rand(&s) % 3); m > 0; m--) { /* mutate a field */
                    uint8_t *p = tables[0] + 16 * (vd_rand(&s) % num) + vd_rand(&s) % 16;
                    *p = (uint8_t)vd_rand(&s);
                }
            }
            /* publish 1..num heads (sometimes garbage, sometimes a wild index) */
            uint8_t *av = vd_host(&d, VD_AVAIL);
            unsigned nh = 1 + (unsigned)(vd_rand(&s) % (valid ? num / 3 : num));
            for (unsigned h = 0; h < nh; h++) {
                uint16_t head = (uint16_t)(vd_rand(&s) % 16 == 0 ? vd_rand(&s)
                                           : valid ? 3 * h : vd_rand(&s) % num);
                memcpy(av + 4 + 2 * ((d.avail_idx + h) % num), &head, 2);
            }
            uint16_t flags = (uint16_t)(vd_rand(&s) % 3), ev = (uint16_t)vd_rand(&s);
            memcpy(av, &flags, 2);
            memcpy(av + 4 + 2 * num, &ev, 2);
            d.avail_idx = (uint16_t)(d.avail_idx + (vd_rand(&s) % 32 == 0 ? vd_rand(&s) : nh));
            __atomic_store_n((uint16_t *)(void *)(av + 2), d.avail_idx, __ATOMIC_RELEASE);
            vd_wr(&d, VIRTIO_MMIO_QUEUE_NOTIFY, (uint32_t)(vd_rand(&s) % 8 ? 0 : vd_rand(&s)));
            virtio_mmio_wait_idle(d.t, 5000);
            completed += (uint16_t)(vd_used_idx(&d) - d.last_used);
            d.last_used = vd_used_idx(&d);
            uint32_t isr = vd_rd(&d, VIRTIO_MMIO_INTERRUPT_STATUS);
            vd_wr(&d, VIRTIO_MMIO_INTERRUPT_ACK, isr);
            if (vd_rd(&d, VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_NEEDS_RESET) {
                ck_assert(isr & VIRTIO_INT_CONFIG);
                resets++;
                break;
            }
        }
    }
    /* both outcomes happened */
    ck_assert_uint_gt(resets, 100);
    ck_assert_uint_gt(completed, 100);
    /* and the device still works */
    vd_init(&d, ALL, 8);
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_IN, 0, VD_DATA, 512, 1, false, NULL), VIRTIO_BLK_S_OK);
    vd_teardown(&d);
    check_pattern_file(path);
    unlink(path);
    free(path);
}
END_TEST

START_TEST(image_locking)
{
    char *path = vd_tmpname("lock");
    vd_make_image(path, IMG_SIZE);
    char err[256];
    Disk *a = disk_open(path, DISK_COW, err, sizeof err);
    Disk *b = disk_open(path, DISK_READ_ONLY, err, sizeof err);
    ck_assert(a && b); /* readers share */
    ck_assert_ptr_null(disk_open(path, DISK_WRITE_THROUGH, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "in use"));
    disk_close(a);
    disk_close(b);
    Disk *w = disk_open(path, DISK_WRITE_THROUGH, err, sizeof err);
    ck_assert_msg(w, "%s", err);
    ck_assert_ptr_null(disk_open(path, DISK_COW, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "write-through"));
    disk_close(w);
    a = disk_open(path, DISK_COW, err, sizeof err);
    ck_assert_msg(a, "%s", err);
    disk_close(a);
    unlink(path);
    free(path);
}
END_TEST

static bool have_mke2fs(void)
{
    return access("/sbin/mke2fs", X_OK) == 0 || access("/usr/sbin/mke2fs", X_OK) == 0 ||
           system("command -v mke2fs >/dev/null 2>&1") == 0;
}

START_TEST(share_dir)
{
    ck_assert_msg(have_mke2fs(), "mke2fs not installed (e2fsprogs, tools/host-packages): --share cannot be tested");
    char dir[] = "/tmp/malibu-vshare-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char file[600];
    snprintf(file, sizeof file, "%s/hello.txt", dir);
    FILE *f = fopen(file, "w");
    fputs("hello from the host\n", f);
    fclose(f);
    char err[256];
    Disk *dk = disk_open_dir(dir, DISK_COW, err, sizeof err);
    ck_assert_msg(dk, "%s", err);
    ck_assert_uint_ge(disk_size(dk), 32u << 20);
    uint8_t sb[2];
    ck_assert_int_eq(disk_pread(dk, 1024 + 0x38, sb, 2), 0); /* ext2/3/4 superblock magic */
    ck_assert_uint_eq(sb[0] | sb[1] << 8, 0xEF53);
    /* the file's contents are somewhere in the image */
    uint64_t size = disk_size(dk);
    uint8_t *img = malloc(size);
    ck_assert_int_eq(disk_pread(dk, 0, img, size), 0);
    ck_assert_ptr_nonnull(memmem(img, size, "hello from the host\n", 20));
    free(img);
    ck_assert_int_eq(disk_pwrite(dk, 0, sb, 2), 0); /* COW: writable, thrown away */
    disk_close(dk);
    ck_assert_ptr_null(disk_open_dir(file, DISK_COW, err, sizeof err)); /* not a directory */
    unlink(file);
    rmdir(dir);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("virtio_blk");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, read_write_flush_getid, 0, 4);
    tcase_add_test(tc, cow_semantics);
    tcase_add_loop_test(tc, write_through_persists, 0, 2);
    tcase_add_loop_test(tc, read_only_disk, 0, 2);
    tcase_add_loop_test(tc, fuzz_chains, 0, 2);
    tcase_add_test(tc, share_dir);
    tcase_add_test(tc, image_locking);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return vd_run(suite());
}
