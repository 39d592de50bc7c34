/* The "malibu exit" device (devices/exitdev.c) and the --image / --run options
 * (devices/board.c), without booting anything.  Built and run by `make run-unit-test`
 * (tests/run/run.mk; also under ASan/UBSan). */
#include <check.h>
#include <libfdt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "exitdev.h"

static int calls, last_status;

static void record(void *opaque, int status)
{
    ck_assert_ptr_eq(opaque, &calls);
    calls++;
    last_status = status;
}

START_TEST(exit_register)
{
    ExitDev *d = exitdev_new(BOARD_EXIT_BASE, record, &calls);
    ck_assert_ptr_nonnull(d);
    calls = 0;
    exitdev_ops.write(d, 0, 7, 4);
    ck_assert_int_eq(calls, 1);
    ck_assert_int_eq(last_status, 7);
    exitdev_ops.write(d, 0, 0, 4);
    ck_assert_int_eq(last_status, 0);
    exitdev_ops.write(d, 0, 300, 4); /* never wraps to 0 = success */
    ck_assert_int_eq(last_status, 255);
    exitdev_ops.write(d, 0, 0xFFFFFFFF00000005ull, 4); /* 32-bit register */
    ck_assert_int_eq(last_status, 5);
    ck_assert_int_eq(calls, 4);
    /* other offsets and sizes: ignored; reads: zero */
    exitdev_ops.write(d, 4, 1, 4);
    exitdev_ops.write(d, 0, 1, 1);
    exitdev_ops.write(d, 0, 1, 2);
    exitdev_ops.write(d, 0, 1, 8);
    exitdev_ops.write(d, 0xFFC, 1, 4);
    ck_assert_int_eq(calls, 4);
    ck_assert_uint_eq(exitdev_ops.read(d, 0, 4), 0);
    ck_assert_uint_eq(exitdev_ops.read(d, 0x10, 8), 0);
    exitdev_free(d);
}
END_TEST

START_TEST(exit_on_board)
{
    BoardConfig cfg;
    board_config_default(&cfg);
    cfg.console_in = -1;
    cfg.ram_size = 64ull << 20;
    cfg.gpu = "none";
    char err[256];
    Board *b = board_new(&cfg, err, sizeof err);
    ck_assert_msg(b != NULL, "%s", err);
    board_set_exit_handler(b, record, &calls);
    ck_assert_msg(board_realize(b, err, sizeof err), "%s", err);
    calls = 0;
    ck_assert_int_eq(bus_write(b->bus, BOARD_EXIT_BASE, 42, 4), BUS_OK);
    ck_assert_int_eq(calls, 1);
    ck_assert_int_eq(last_status, 42);
    uint64_t v = 1;
    ck_assert_int_eq(bus_read(b->bus, BOARD_EXIT_BASE + 8, 4, &v), BUS_OK);
    ck_assert_uint_eq(v, 0);
    ck_assert_int_eq(bus_read(b->bus, BOARD_EXIT_BASE + EXITDEV_SIZE, 4, &v), BUS_ERROR);
    /* DT node the guest init looks for: /exit@1c0f0000, compatible "malibu,exit", reg */
    int n = fdt_path_offset(b->dtb, "/exit@1c0f0000");
    ck_assert_int_ge(n, 0);
    ck_assert(fdt_node_check_compatible(b->dtb, n, "malibu,exit") == 0);
    int len;
    const fdt64_t *reg = fdt_getprop(b->dtb, n, "reg", &len);
    ck_assert_int_eq(len, 16);
    ck_assert_uint_eq(fdt64_to_cpu(reg[0]), BOARD_EXIT_BASE);
    ck_assert_uint_eq(fdt64_to_cpu(reg[1]), EXITDEV_SIZE);
    board_free(b);
}
END_TEST

static char dir[64];

/* DIR/rootfs.ext4: `size` bytes whose ext4 superblock (magic 0xEF53, 1 KiB blocks) claims
 * `blocks` blocks; magic 0 makes it something else. */
static void write_rootfs(unsigned size, unsigned blocks, unsigned magic)
{
    char p[128];
    static uint8_t img[16384];
    memset(img, 0, sizeof img);
    ck_assert_uint_le(size, sizeof img);
    img[1024 + 4] = (uint8_t)blocks;
    img[1024 + 5] = (uint8_t)(blocks >> 8);
    img[1024 + 0x38] = (uint8_t)magic;
    img[1024 + 0x39] = (uint8_t)(magic >> 8);
    snprintf(p, sizeof p, "%s/rootfs.ext4", dir);
    FILE *f = fopen(p, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(img, 1, size, f), size);
    fclose(f);
}

static void make_image_dir(void)
{
    strcpy(dir, "/tmp/malibu-run-test-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    static const char *const names[] = { "Image", "initrd.img" };
    for (int i = 0; i < 2; i++) {
        char p[128];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        FILE *f = fopen(p, "w");
        ck_assert_ptr_nonnull(f);
        fputs("x", f);
        fclose(f);
    }
    write_rootfs(8192, 8, 0xEF53);
}

static void remove_image_dir(void)
{
    static const char *const names[] = { "Image", "initrd.img", "rootfs.ext4" };
    for (int i = 0; i < 3; i++) {
        char p[128];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

/* value of KEY= in a command line (up to the next space), malloc'ed */
static char *param(const char *cmdline, const char *key)
{
    const char *p = strstr(cmdline, key);
    ck_assert_msg(p != NULL, "no %s in '%s'", key, cmdline);
    p += strlen(key);
    size_t n = strcspn(p, " ");
    return strndup(p, n);
}

static char *unbase64(const char *s)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = calloc(1, strlen(s) + 1), *o = out;
    unsigned acc = 0, bits = 0;
    for (; *s && *s != '='; s++) {
        const char *c = strchr(tab, *s);
        ck_assert_ptr_nonnull(c);
        acc = acc << 6 | (unsigned)(c - tab);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            *o++ = (char)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    return out;
}

START_TEST(image_and_run)
{
    make_image_dir();
    const char *cmd = "printf '%s|\\n' \"a  b\" $HOME; echo \"q'uote\" \\\\ ; exit 3";
    char *argv[] = { "malibu", "--share", "/tmp", "--image", dir, "--run", (char *)cmd,
                     "--disk", "/dev/null,ro", NULL };
    BoardConfig cfg;
    board_config_default(&cfg);
    char err[256];
    ck_assert_msg(board_parse_args(9, argv, &cfg, err, sizeof err) == 0, "%s", err);
    char want[128];
    snprintf(want, sizeof want, "%s/Image", dir);
    ck_assert_str_eq(cfg.kernel, want);
    snprintf(want, sizeof want, "%s/initrd.img", dir);
    ck_assert_str_eq(cfg.initrd, want);
    /* root disk first (vda, copy-on-write), then --share and --disk in command-line order */
    ck_assert_uint_eq(cfg.ndisks, 3);
    snprintf(want, sizeof want, "%s/rootfs.ext4", dir);
    ck_assert_str_eq(cfg.disks[0].arg, want);
    ck_assert_uint_eq(cfg.disks[0].path_len, strlen(want));
    ck_assert_int_eq(cfg.disks[0].mode, DISK_COW);
    ck_assert(!cfg.disks[0].share);
    ck_assert(cfg.disks[1].share);
    ck_assert_int_eq(cfg.disks[2].mode, DISK_READ_ONLY);
    /* the command goes base64-encoded, with the quiet options */
    ck_assert_ptr_nonnull(strstr(cfg.append, "console=ttyAMA0 "));
    ck_assert_ptr_nonnull(strstr(cfg.append, " malibu.quiet "));
    char *b64 = param(cfg.append, "malibu.run64=");
    char *back = unbase64(b64);
    ck_assert_str_eq(back, cmd);
    free(b64);
    free(back);

    /* --append adds to --image's command line; --kernel wins over DIR/Image */
    char *argv2[] = { "malibu", "--image", dir, "--append", "malibu.keep", "--kernel", "/k", NULL };
    board_config_default(&cfg);
    ck_assert_msg(board_parse_args(7, argv2, &cfg, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(cfg.kernel, "/k");
    ck_assert_ptr_nonnull(strstr(cfg.append, "console=ttyAMA0"));
    ck_assert_ptr_nonnull(strstr(cfg.append, " malibu.keep"));
    ck_assert_ptr_null(strstr(cfg.append, "malibu.run64")); /* no --run: interactive shell */
    ck_assert_uint_eq(cfg.ndisks, 1);

    /* --run without --image keeps the user's --append */
    char *argv3[] = { "malibu", "--kernel", "/k", "--append", "console=ttyAMA0 x=1", "--run",
                      "true", NULL };
    board_config_default(&cfg);
    ck_assert_msg(board_parse_args(7, argv3, &cfg, err, sizeof err) == 0, "%s", err);
    ck_assert(!strncmp(cfg.append, "console=ttyAMA0 x=1 malibu.quiet", 32));
    b64 = param(cfg.append, "malibu.run64=");
    ck_assert_str_eq(b64, "dHJ1ZQ==");
    free(b64);

    /* errors: missing directory / file, command too long for the kernel's 2048 bytes */
    char *bad1[] = { "malibu", "--image", "/nonexistent-malibu-dir", NULL };
    board_config_default(&cfg);
    ck_assert_int_eq(board_parse_args(3, bad1, &cfg, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent-malibu-dir/Image"));
    char *longcmd = malloc(2000);
    memset(longcmd, 'x', 1999);
    longcmd[1999] = 0;
    char *bad2[] = { "malibu", "--image", dir, "--run", longcmd, NULL };
    board_config_default(&cfg);
    ck_assert_int_eq(board_parse_args(5, bad2, &cfg, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "too long"));
    free(longcmd);
    /* a root disk that is not ext4, or shorter than its superblock says, is refused */
    char *bad4[] = { "malibu", "--image", dir, NULL };
    write_rootfs(8192, 8, 0x1234);
    board_config_default(&cfg);
    ck_assert_int_eq(board_parse_args(3, bad4, &cfg, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "not an ext4 filesystem"));
    write_rootfs(8192, 9, 0xEF53);
    board_config_default(&cfg);
    ck_assert_int_eq(board_parse_args(3, bad4, &cfg, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "truncated"));
    write_rootfs(2000, 8, 0xEF53);
    board_config_default(&cfg);
    ck_assert_int_eq(board_parse_args(3, bad4, &cfg, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "not an ext4 filesystem"));
    snprintf(want, sizeof want, "%s/rootfs.ext4", dir);
    unlink(want);
    char *bad3[] = { "malibu", "--image", dir, NULL };
    board_config_default(&cfg);
    ck_assert_int_eq(board_parse_args(3, bad3, &cfg, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "rootfs.ext4"));
    remove_image_dir();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("run");
    TCase *tc = tcase_create("run");
    tcase_add_test(tc, exit_register);
    tcase_add_test(tc, exit_on_board);
    tcase_add_test(tc, image_and_run);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
