/* devices/virtio_board: --disk/--share parsing, slots on the assembled board (addresses, SPIs,
 * DT node order = vda, vdb, ...), a request through the board's bus, board reset, DMA notify. */
#include <libfdt.h>
#include <sys/stat.h>
#include "vdrv.h"
#include "../../devices/board.h"
#include "../../emu/system/options.h"

static char *make_img(const char *tag, uint64_t size)
{
    char *p = vd_tmpname(tag);
    vd_make_image(p, size);
    return p;
}

static const char *dpath(const BoardDisk *d)
{
    static char buf[256];
    snprintf(buf, sizeof buf, "%.*s", (int)d->path_len, d->arg);
    return buf;
}

START_TEST(parse_options)
{
    BoardConfig cfg;
    char err[256];
    char *argv[] = { "malibu", "--dump-dtb", "/tmp/x.dtb", "--disk", "a.img", "--share", "/tmp",
                     "--disk", "b.img,ro", "--disk", "c,d.img,write-through", "--disk", "e.img,cow",
                     "--share", "/var,ro", NULL };
    board_config_default(&cfg);
    ck_assert_int_eq(options_parse_board(15, argv, &cfg, err, sizeof err), 0);
    ck_assert_uint_eq(cfg.ndisks, 6);
    ck_assert_str_eq(dpath(&cfg.disks[0]), "a.img");
    ck_assert_int_eq(cfg.disks[0].mode, DISK_COW);
    ck_assert(!cfg.disks[0].share);
    ck_assert_str_eq(dpath(&cfg.disks[1]), "/tmp");
    ck_assert(cfg.disks[1].share);
    ck_assert_int_eq(cfg.disks[2].mode, DISK_READ_ONLY);
    ck_assert_str_eq(dpath(&cfg.disks[3]), "c,d.img"); /* commas before a known mode stay */
    ck_assert_int_eq(cfg.disks[3].mode, DISK_WRITE_THROUGH);
    ck_assert_int_eq(cfg.disks[4].mode, DISK_COW);
    ck_assert_int_eq(cfg.disks[5].mode, DISK_READ_ONLY);
    ck_assert(cfg.disks[5].share);

    static const char *bad[][2] = {
        { "--disk", "x.img,rw" }, { "--disk", ",ro" }, { "--share", "/tmp,write-through" },
        { "--disk", "" },
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *a[] = { "malibu", "--dump-dtb", "x", (char *)bad[i][0], (char *)bad[i][1], NULL };
        board_config_default(&cfg);
        ck_assert_int_eq(options_parse_board(5, a, &cfg, err, sizeof err), -1);
        ck_assert_msg(strstr(err, bad[i][0]), "%s", err);
    }
    char *many[3 + 2 * 9];
    many[0] = "malibu";
    many[1] = "--dump-dtb";
    many[2] = "x";
    for (int i = 0; i < 9; i++) {
        many[3 + 2 * i] = "--disk";
        many[4 + 2 * i] = "d.img";
    }
    board_config_default(&cfg);
    ck_assert_int_eq(options_parse_board(21, many, &cfg, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "at most 8"));
}
END_TEST

static uint64_t dma_pa, dma_len;
static unsigned dma_calls;
static void dma_cb(void *opaque, uint64_t pa, uint64_t len)
{
    (void)opaque;
    dma_pa = pa;
    dma_len = len;
    dma_calls++;
}

START_TEST(board_slots)
{
    char *img1 = make_img("b1", 1 << 20), *img2 = make_img("b2", 3 << 20);
    char dir[] = "/tmp/malibu-vbshare-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    bool share = access("/sbin/mke2fs", X_OK) == 0 || access("/usr/sbin/mke2fs", X_OK) == 0;
    char a1[600], a2[600];
    snprintf(a1, sizeof a1, "%s", img1);
    snprintf(a2, sizeof a2, "%s,ro", img2);
    char *argv[] = { "malibu", "--share", dir, "--disk", a1, "--disk", a2, "-m", "64M",
                     "--dump-dtb", "x", NULL };
    BoardConfig cfg;
    char err[256];
    board_config_default(&cfg);
    int argc = share ? 11 : 9;
    char **av = share ? argv : argv + 2;
    if (!share)
        av[0] = "malibu";
    ck_assert_int_eq(options_parse_board(argc, av, &cfg, err, sizeof err), 0);
    cfg.dump_dtb = NULL; /* parsed only to satisfy "--kernel or --dump-dtb" */
    cfg.console_in = -1;
    cfg.gpu = "none";
    Board *b = board_new(&cfg, err, sizeof err);
    ck_assert_msg(b, "%s", err);
    ck_assert_uint_eq(b->nvblk, share ? 3 : 2);
    virtio_board_set_dma_notify(b, dma_cb, NULL);
    ck_assert_msg(board_realize(b, err, sizeof err), "%s", err);

    /* DT: virtio nodes in slot order, SPI 42 + n */
    unsigned seen = 0;
    int n;
    fdt_for_each_subnode(n, b->dtb, 0) {
        const char *name = fdt_get_name(b->dtb, n, NULL);
        if (strncmp(name, "virtio@", 7))
            continue;
        char want[32];
        snprintf(want, sizeof want, "virtio@%llx",
                 (unsigned long long)(BOARD_VIRTIO_BASE + seen * BOARD_VIRTIO_STRIDE));
        ck_assert_str_eq(name, want);
        int len;
        const fdt32_t *irq = fdt_getprop(b->dtb, n, "interrupts", &len);
        ck_assert_int_eq(len, 12);
        ck_assert_uint_eq(fdt32_to_cpu(irq[1]), BOARD_VIRTIO_SPI0 + seen);
        ck_assert_str_eq(fdt_getprop(b->dtb, n, "compatible", NULL), "virtio,mmio");
        ck_assert_ptr_nonnull(fdt_getprop(b->dtb, n, "dma-coherent", NULL));
        seen++;
    }
    ck_assert_uint_eq(seen, b->nvblk);

    /* slots: --disk images first (vda = img1, vdb = img2 read-only), then the share */
    uint64_t v;
    for (unsigned i = 0; i < b->nvblk; i++) {
        uint64_t base = BOARD_VIRTIO_BASE + i * BOARD_VIRTIO_STRIDE;
        ck_assert_int_eq(bus_read(b->bus, base, 4, &v), BUS_OK);
        ck_assert_uint_eq(v, VIRTIO_MMIO_MAGIC_VALUE);
        ck_assert_int_eq(bus_read(b->bus, base + 0x100, 8, &v), BUS_OK);
        if (i == 0)
            ck_assert_uint_eq(v, 2048);
        if (i == 1)
            ck_assert_uint_eq(v, 6144);
        if (i == 2)
            ck_assert_uint_ge(v, (32u << 20) / 512);
    }
    ck_assert_int_eq(bus_write(b->bus, BOARD_VIRTIO_BASE + 0x14, 0, 4), BUS_OK);
    ck_assert_int_eq(bus_read(b->bus, BOARD_VIRTIO_BASE + BOARD_VIRTIO_STRIDE + 0x10, 4, &v), BUS_OK);
    ck_assert(v & (1u << VIRTIO_BLK_F_RO));
    ck_assert_int_eq(bus_read(b->bus, BOARD_VIRTIO_BASE + 8 * BOARD_VIRTIO_STRIDE, 4, &v),
                     BUS_ERROR); /* no slot 8 */

    /* a request through the board (RAM at 0x80000000 = VD_RAM, slot 0 = VD_MMIO) */
    VDrv d;
    memset(&d, 0, sizeof d);
    d.bus = b->bus;
    d.gic = b->gic;
    d.ram = bus_ram_ptr(b->bus, VD_RAM, true);
    d.t = virtio_blk_transport(b->vblk[0]);
    vd_init(&d, ~0ull, 8);
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_GET_ID, 0, VD_DATA, 20, 1, false, NULL), VIRTIO_BLK_S_OK);
    ck_assert_str_eq((char *)vd_host(&d, VD_DATA), "malibu-vda");
    dma_calls = 0;
    ck_assert_int_eq(vd_blk(&d, VIRTIO_BLK_T_IN, 1, VD_DATA, 512, 1, false, NULL), VIRTIO_BLK_S_OK);
    ck_assert_uint_eq(vd_host(&d, VD_DATA)[0], vd_pattern(512));
    ck_assert_uint_ge(dma_calls, 1);
    ck_assert_uint_eq(dma_pa, VD_HDR + 0x100); /* the last buffer written: the status byte */
    ck_assert_uint_eq(dma_len, 1);
    ck_assert_uint_ne(virtio_mmio_get_status(d.t), 0);
    board_reset(b);
    ck_assert_uint_eq(virtio_mmio_get_status(d.t), 0);
    board_free(b);
    unlink(img1);
    unlink(img2);
    rmdir(dir);
    free(img1);
    free(img2);
}
END_TEST

START_TEST(missing_disk)
{
    BoardConfig cfg;
    char err[256];
    char *argv[] = { "malibu", "--dump-dtb", "x", "--disk", "/nonexistent/x.img", NULL };
    board_config_default(&cfg);
    ck_assert_int_eq(options_parse_board(5, argv, &cfg, err, sizeof err), 0);
    cfg.console_in = -1;
    cfg.gpu = "none";
    ck_assert_ptr_null(board_new(&cfg, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/x.img"));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("virtio_board");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, parse_options);
    tcase_add_test(tc, board_slots);
    tcase_add_test(tc, missing_disk);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return vd_run(suite());
}
