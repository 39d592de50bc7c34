/* The "malibu exit" device (devices/exitdev.c), build/malibu's option table
 * (emu/system/options.c) and the --image / --run options (emu/system/run_image.c), without
 * booting anything.  Built and run by `make run-unit-test` (tests/run/run.mk; also under
 * ASan/UBSan). */
#include <check.h>
#include <libfdt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board.h"
#include "exitdev.h"
#include "options.h"

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

/* --timing's cpu.* keys reach the CPU through the feed its program gives the board
 * (BoardConfig.cpu_timing), and are refused without one. */
static int feed_sets;
static struct tm_hier *feed_hier;

static void fake_feed_set(struct tm_hier *h)
{
    feed_sets++;
    feed_hier = h;
}

static void fake_feed_totals(struct tm_totals *t, uint64_t *cycles)
{
    (void)t;
    *cycles = 0;
}

START_TEST(cpu_timing_feed)
{
    static const BoardCpuTimingFeed feed = { fake_feed_set, fake_feed_totals };
    BoardConfig cfg;
    board_config_default(&cfg);
    cfg.console_in = -1;
    cfg.ram_size = 64ull << 20;
    cfg.gpu = "none";
    cfg.ncpu = 2;
    cfg.timing = "cpu.l1d.size=16K";
    char err[256] = "";
    Board *b = board_new(&cfg, err, sizeof err);
    ck_assert_ptr_null(b);
    ck_assert_msg(strstr(err, "cpu.* keys") != NULL, "%s", err);
    ck_assert_int_eq(feed_sets, 0);
    cfg.cpu_timing = &feed;
    b = board_new(&cfg, err, sizeof err);
    ck_assert_msg(b != NULL, "%s", err);
    ck_assert_int_eq(feed_sets, 1);
    ck_assert_ptr_nonnull(feed_hier);
    board_free(b);
}
END_TEST

/* A board made by board_new in a test: 64 MiB, no console input, the GPU model named. */
static void small_board_config(BoardConfig *cfg, const char *gpu)
{
    board_config_default(cfg);
    cfg->console_in = -1;
    cfg->ram_size = 64ull << 20;
    cfg->gpu = gpu;
}

/* --timing keys the models would not honour are refused when the board is made: gpu.mhz other
 * than the GPU's clock (guest time counts in that one), dram.tRAS (no time in the DRAM model). */
START_TEST(timing_not_honoured_refused)
{
    static const struct { const char *gpu, *timing, *message; } cases[] = {
        { NULL, "gpu.mhz=800", "--timing gpu.mhz=800: the g71's clock, which guest time counts in, is 500 MHz" },
        { "g52", "preset=g52,gpu.mhz=250", "--timing gpu.mhz=250: the g52's clock" },
        { NULL, "dram.tRAS=68", "--timing dram.tRAS: not modelled" },
        { NULL, "gpu.mhz=500", NULL },
        { "none", "gpu.mhz=800", NULL }, /* no GPU: no guest time to disagree with */
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        BoardConfig cfg;
        small_board_config(&cfg, cases[i].gpu);
        cfg.timing = cases[i].timing;
        char err[256] = "";
        Board *b = board_new(&cfg, err, sizeof err);
        if (cases[i].message) {
            ck_assert_msg(b == NULL, "--timing %s accepted", cases[i].timing);
            ck_assert_msg(!strncmp(err, cases[i].message, strlen(cases[i].message)), "got \"%s\", want \"%s...\"", err,
                          cases[i].message);
        } else {
            ck_assert_msg(b != NULL, "--timing %s: %s", cases[i].timing, err);
            board_free(b);
        }
    }
}
END_TEST

/* --gpu-backend jit-sse on a v7 GPU would interpret every clause (the SSE code is 4-lane):
 * refused when the board is made, naming the option; accepted on the v6 models. */
START_TEST(jit_sse_refused_on_v7)
{
    static const struct { const char *gpu; bool refused; } cases[] = {
        { "g52", true }, { "g71", false }, { "g72", false }, { "none", false },
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        BoardConfig cfg;
        small_board_config(&cfg, cases[i].gpu);
        cfg.gpu_backend = "jit-sse";
        char err[256] = "";
        Board *b = board_new(&cfg, err, sizeof err);
        if (cases[i].refused) {
            ck_assert_msg(b == NULL, "--gpu %s --gpu-backend jit-sse accepted", cases[i].gpu);
            ck_assert_msg(strstr(err, "--gpu-backend jit-sse") && strstr(err, "8-lane"), "got \"%s\"", err);
        } else if (b) {
            board_free(b);
        } else {   /* a host without SSE4.1 refuses jit-sse for that reason, never for the lanes */
            ck_assert_msg(!strstr(err, "8-lane"), "--gpu %s: %s", cases[i].gpu, err);
        }
    }
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
    ck_assert_msg(options_parse_board(9, argv, &cfg, err, sizeof err) == 0, "%s", err);
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
    ck_assert_msg(options_parse_board(7, argv2, &cfg, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(cfg.kernel, "/k");
    ck_assert_ptr_nonnull(strstr(cfg.append, "console=ttyAMA0"));
    ck_assert_ptr_nonnull(strstr(cfg.append, " malibu.keep"));
    ck_assert_ptr_null(strstr(cfg.append, "malibu.run64")); /* no --run: interactive shell */
    ck_assert_uint_eq(cfg.ndisks, 1);

    /* --run without --image keeps the user's --append */
    char *argv3[] = { "malibu", "--kernel", "/k", "--append", "console=ttyAMA0 x=1", "--run",
                      "true", NULL };
    board_config_default(&cfg);
    ck_assert_msg(options_parse_board(7, argv3, &cfg, err, sizeof err) == 0, "%s", err);
    ck_assert(!strncmp(cfg.append, "console=ttyAMA0 x=1 malibu.quiet", 32));
    b64 = param(cfg.append, "malibu.run64=");
    ck_assert_str_eq(b64, "dHJ1ZQ==");
    free(b64);

    /* errors: missing directory / file, command too long for the kernel's 2048 bytes */
    char *bad1[] = { "malibu", "--image", "/nonexistent-malibu-dir", NULL };
    board_config_default(&cfg);
    ck_assert_int_eq(options_parse_board(3, bad1, &cfg, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent-malibu-dir/Image"));
    char *longcmd = malloc(2000);
    memset(longcmd, 'x', 1999);
    longcmd[1999] = 0;
    char *bad2[] = { "malibu", "--image", dir, "--run", longcmd, NULL };
    board_config_default(&cfg);
    ck_assert_int_eq(options_parse_board(5, bad2, &cfg, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "too long"));
    free(longcmd);
    /* a root disk that is not ext4, or shorter than its superblock says, is refused */
    char *bad4[] = { "malibu", "--image", dir, NULL };
    write_rootfs(8192, 8, 0x1234);
    board_config_default(&cfg);
    ck_assert_int_eq(options_parse_board(3, bad4, &cfg, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "not an ext4 filesystem"));
    write_rootfs(8192, 9, 0xEF53);
    board_config_default(&cfg);
    ck_assert_int_eq(options_parse_board(3, bad4, &cfg, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "truncated"));
    write_rootfs(2000, 8, 0xEF53);
    board_config_default(&cfg);
    ck_assert_int_eq(options_parse_board(3, bad4, &cfg, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "not an ext4 filesystem"));
    snprintf(want, sizeof want, "%s/rootfs.ext4", dir);
    unlink(want);
    char *bad3[] = { "malibu", "--image", dir, NULL };
    board_config_default(&cfg);
    ck_assert_int_eq(options_parse_board(3, bad3, &cfg, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "rootfs.ext4"));
    remove_image_dir();
}
END_TEST

/* Each option of the table, given a good value (plus what it needs of the others), lands in
 * the field its reader takes it from.  An option the table has and this list lacks fails. */
typedef struct RoundTrip {
    const char *opt, *value;      /* value NULL: a flag */
    const char *extra[4];         /* other options it needs */
    bool (*landed)(const MalibuOptions *o);
} RoundTrip;

#define LANDED(id, expr) static bool landed_##id(const MalibuOptions *o) { return expr; }
LANDED(kernel, !strcmp(o->board.kernel, "/k2"))
LANDED(initrd, !strcmp(o->board.initrd, "/i"))
LANDED(append, !strcmp(o->board.append, "a=1 b"))
LANDED(mem, o->board.ram_size == 512ull << 20)
LANDED(smp, o->board.ncpu == 3)
LANDED(smp_mode, !strcmp(o->sys.smp_mode, "rr") && o->board.ncpu == 2)
LANDED(smp_quantum, o->sys.smp_quantum == 1234)
LANDED(dtb, !strcmp(o->board.dtb, "/d.dtb"))
LANDED(dump_dtb, !strcmp(o->board.dump_dtb, "/o.dtb"))
LANDED(disk, o->board.ndisks == 1 && o->board.disks[0].mode == DISK_WRITE_THROUGH && !o->board.disks[0].share)
LANDED(share, o->board.ndisks == 1 && o->board.disks[0].mode == DISK_READ_ONLY && o->board.disks[0].share)
LANDED(image, o->board.image && o->board.ndisks == 1 && strstr(o->board.disks[0].arg, "/rootfs.ext4") &&
               strstr(o->board.initrd, "/initrd.img"))
LANDED(run, !strcmp(o->board.run, "echo hi") && strstr(o->board.append, "malibu.run64=ZWNobyBoaQ=="))
LANDED(gpu, !strcmp(o->board.gpu, "g52"))
LANDED(gpu_threads, o->board.gpu_threads == 7)
LANDED(gpu_backend, !strcmp(o->board.gpu_backend, "interp"))
LANDED(gpu_time, o->board.gpu_time_host)
LANDED(clock, o->board.clock_icount)
LANDED(icount_shift, o->board.clock_icount && o->board.icount_shift == 3)
LANDED(timing, !strcmp(o->board.timing, "preset=g52"))
LANDED(timing_config, !strcmp(o->board.timing_config, "/t.cfg"))
LANDED(stats, !strcmp(o->board.stats, "/s.json"))
LANDED(timeline, !strcmp(o->board.timeline, "/t.json"))
LANDED(timeline_limit, o->board.timeline_limit == 5000)
LANDED(display, !strcmp(o->board.display, "none"))
LANDED(screenshot, !strcmp(o->board.screenshot, "/s.png"))
LANDED(display_controller, !strcmp(o->board.display_controller, "hdlcd"))
LANDED(debug, o->sys.debug == (OPT_DEBUG_EXC | OPT_DEBUG_GPU))
LANDED(gpu_dump, !strcmp(o->sys.gpu_dump, "/dump"))
LANDED(on_reset, !strcmp(o->sys.on_reset, "reboot"))
LANDED(backend, !strcmp(o->sys.backend, "portable"))
LANDED(compile_after, o->sys.compile_after == 3)
LANDED(cpu, !strcmp(o->sys.cpu, "a57"))
LANDED(gdb, !strcmp(o->sys.gdb, "127.0.0.1:0"))
LANDED(gdb_wait, o->sys.gdb_wait)
LANDED(gpu_trace, o->sys.gpu_trace == 1)
LANDED(trace, o->sys.trace == (OPT_TRACE_IN_ASM | OPT_TRACE_EXEC))
LANDED(trace_range, o->sys.trace_range_given && o->sys.trace_lo == 0x1000 && o->sys.trace_hi == 0x1fff)
LANDED(trace_file, !strcmp(o->sys.trace_file, "/tr.txt"))
LANDED(checkpoint_save, !strcmp(o->sys.ckpt_save, "/c.ckpt"))
LANDED(checkpoint_load, !strcmp(o->sys.ckpt_load, "/l.ckpt"))
LANDED(checkpoint_exit, o->sys.ckpt_exit && !strcmp(o->sys.ckpt_save, "/c.ckpt"))
LANDED(help, o->sys.help)
LANDED(help_markdown, o->sys.help_markdown)
LANDED(help_man, o->sys.help_man)
LANDED(help_completion, o->sys.help_completion)
LANDED(version, o->sys.version)

static const RoundTrip round_trips[] = {
    { "--kernel", "/k2", { NULL }, landed_kernel },
    { "--initrd", "/i", { NULL }, landed_initrd },
    { "--append", "a=1 b", { NULL }, landed_append },
    { "-m", "512M", { NULL }, landed_mem },
    { "--smp", "3", { NULL }, landed_smp },
    { "--smp-mode", "rr", { "--smp", "2" }, landed_smp_mode },
    { "--smp-quantum", "1234", { "--smp", "2", "--smp-mode", "rr" }, landed_smp_quantum },
    { "--dtb", "/d.dtb", { NULL }, landed_dtb },
    { "--dump-dtb", "/o.dtb", { NULL }, landed_dump_dtb },
    { "--disk", "/dev/null,write-through", { NULL }, landed_disk },
    { "--share", "/tmp,ro", { NULL }, landed_share },
    { "--image", NULL /* the test's image directory */, { NULL }, landed_image },
    { "--run", "echo hi", { NULL }, landed_run },
    { "--gpu", "g52", { NULL }, landed_gpu },
    { "--gpu-threads", "7", { NULL }, landed_gpu_threads },
    { "--gpu-backend", "interp", { NULL }, landed_gpu_backend },
    { "--gpu-time", "host", { NULL }, landed_gpu_time },
    { "--clock", "icount", { NULL }, landed_clock },
    { "--icount-shift", "3", { "--clock", "icount" }, landed_icount_shift },
    { "--timing", "preset=g52", { NULL }, landed_timing },
    { "--timing-config", "/t.cfg", { NULL }, landed_timing_config },
    { "--stats", "/s.json", { NULL }, landed_stats },
    { "--timeline", "/t.json", { NULL }, landed_timeline },
    { "--timeline-limit", "5000", { "--timeline", "/t.json" }, landed_timeline_limit },
    { "--display", "none", { NULL }, landed_display },
    { "--screenshot", "/s.png", { NULL }, landed_screenshot },
    { "--display-controller", "hdlcd", { NULL }, landed_display_controller },
    { "--debug", "exc,gpu", { NULL }, landed_debug },
    { "--gpu-dump", "/dump", { NULL }, landed_gpu_dump },
    { "--on-reset", "reboot", { NULL }, landed_on_reset },
    { "--backend", "portable", { NULL }, landed_backend },
    { "--compile-after", "3", { NULL }, landed_compile_after },
    { "--cpu", "a57", { NULL }, landed_cpu },
    { "--gdb", "127.0.0.1:0", { NULL }, landed_gdb },
    { "--gdb-wait", NULL, { "--gdb", "1234" }, landed_gdb_wait },
    { "--gpu-trace", "jobs", { NULL }, landed_gpu_trace },
    { "--trace", "in_asm,exec", { NULL }, landed_trace },
    { "--trace-range", "0x1000-0x1fff", { "--trace", "exec" }, landed_trace_range },
    { "--trace-file", "/tr.txt", { "--trace", "exec" }, landed_trace_file },
    { "--checkpoint-save", "/c.ckpt", { NULL }, landed_checkpoint_save },
    { "--checkpoint-load", "/l.ckpt", { NULL }, landed_checkpoint_load },
    { "--checkpoint-exit", NULL, { "--checkpoint-save", "/c.ckpt" }, landed_checkpoint_exit },
    { "--help", NULL, { NULL }, landed_help },
    { "--help-markdown", NULL, { NULL }, landed_help_markdown },
    { "--help-man", NULL, { NULL }, landed_help_man },
    { "--help-completion", NULL, { NULL }, landed_help_completion },
    { "--version", NULL, { NULL }, landed_version },
};
#define NRT (sizeof round_trips / sizeof round_trips[0])

static const RoundTrip *round_trip_of(const char *spelled)
{
    for (unsigned i = 0; i < NRT; i++)
        if (!strcmp(round_trips[i].opt, spelled))
            return &round_trips[i];
    return NULL;
}

/* "--name" or "-X" of table entry i */
static void spelling(unsigned i, char *buf, size_t n, const char **arg)
{
    const char *name, *reader;
    char short_name;
    ck_assert(options_entry(i, &name, &short_name, arg, &reader));
    ck_assert_ptr_nonnull(reader);
    if (name)
        snprintf(buf, n, "--%s", name);
    else
        snprintf(buf, n, "-%c", short_name);
}

/* parse "malibu --kernel /k" + rt's extras + the option (as "--opt value" or, with `joined`,
 * "--opt=value" / "-Xvalue") */
static int parse_with(const RoundTrip *rt, const char *value, bool joined, MalibuOptions *o, char *err,
                      size_t errlen)
{
    static char joint[256]; /* o points into it after the return */
    char *argv[16];
    int argc = 0;
    argv[argc++] = "malibu";
    argv[argc++] = "--kernel";
    argv[argc++] = "/k";
    for (unsigned i = 0; i < 4 && rt->extra[i]; i++)
        argv[argc++] = (char *)rt->extra[i];
    if (value && joined) {
        snprintf(joint, sizeof joint, "%s%s%s", rt->opt, rt->opt[1] == '-' ? "=" : "", value);
        argv[argc++] = joint;
    } else {
        argv[argc++] = (char *)rt->opt;
        if (value)
            argv[argc++] = (char *)value;
    }
    argv[argc] = NULL;
    options_default(o);
    o->board.console_in = -1;
    return options_parse(argc, argv, o, err, errlen);
}

START_TEST(options_round_trip)
{
    make_image_dir();
    unsigned n = 0;
    const char *arg;
    char name[64], err[512];
    for (unsigned i = 0; options_entry(i, &(const char *){ NULL }, &(char){ 0 }, &arg, &(const char *){ NULL }); i++) {
        spelling(i, name, sizeof name, &arg);
        const RoundTrip *rt = round_trip_of(name);
        ck_assert_msg(rt != NULL, "option %s of the table has no round trip in this test", name);
        const char *value = !strcmp(name, "--image") ? dir : rt->value;
        ck_assert_msg(!value == !arg, "%s: the table says argument '%s', the test gives '%s'", name,
                      arg ? arg : "(none)", value ? value : "(none)");
        for (int joined = 0; joined <= (value != NULL); joined++) {
            MalibuOptions o;
            ck_assert_msg(parse_with(rt, value, joined, &o, err, sizeof err) == 0, "%s %s: %s", name,
                          value ? value : "", err);
            ck_assert_msg(rt->landed(&o), "%s %s did not land where its reader looks", name, value ? value : "");
        }
        n++;
    }
    ck_assert_uint_eq(n, NRT); /* and no round trip for an option the table lacks */
    remove_image_dir();
}
END_TEST

/* A bad value stops the parse with a message that names the option and what it accepts. */
START_TEST(options_bad_values)
{
    static const struct { const char *opt, *value, *extra[4], *message; } bad[] = {
        { "--smp", "9", { NULL }, "--smp: expected 1..8, got 9" },
        { "--smp", "0", { NULL }, "--smp: expected 1..8, got 0" },
        { "--smp", "2x", { NULL }, "--smp: expected 1..8, got 2x" },
        { "-m", "3", { NULL }, "-m: expected a size from 16M to 66G" },
        { "-m", "67G", { NULL }, "-m: expected a size from 16M to 66G" },
        { "-m", "12Q", { NULL }, "-m: expected a size from 16M to 66G" },
        { "--smp-mode", "fast", { "--smp", "2" }, "--smp-mode: expected threads|rr, got 'fast'" },
        { "--smp-quantum", "99", { "--smp", "2", "--smp-mode", "rr" }, "--smp-quantum: expected 100..100000000, got 99" },
        { "--gpu", "g99", { NULL }, "--gpu: unknown GPU 'g99' (expected g71|g72|g52|none[,cores=N][,mhz=M])" },
        { "--gpu-threads", "257", { NULL }, "--gpu-threads: expected 1..256, got 257" },
        { "--timeline-limit", "15", { "--timeline", "/t.json" }, "--timeline-limit: expected 16..100000000, got 15" },
        { "--gpu-backend", "gpu", { NULL }, "--gpu-backend: expected jit|jit-avx2|jit-sse|interp, got 'gpu'" },
        { "--gpu-time", "wall", { NULL }, "--gpu-time: expected model|host, got 'wall'" },
        { "--clock", "wall", { NULL }, "--clock: expected host|icount, got 'wall'" },
        { "--icount-shift", "11", { "--clock", "icount" }, "--icount-shift: expected 0..10, got 11" },
        { "--display", "x11", { NULL }, "--display: expected sdl|none, got 'x11'" },
        { "--debug", "exc,foo", { NULL }, "--debug: expected one or more of exc,sysreg,stats,gpu, got 'exc,foo'" },
        { "--debug", "exc,", { NULL }, "--debug: expected one or more of" },
        { "--on-reset", "halt", { NULL }, "--on-reset: expected exit|reboot, got 'halt'" },
        { "--backend", "llvm", { NULL }, "--backend: expected native|portable, got 'llvm'" },
        { "--compile-after", "0", { NULL }, "--compile-after: expected 1..1000000, got 0" },
        { "--compile-after", "1000001", { NULL }, "--compile-after: expected 1..1000000, got 1000001" },
        { "--gpu-trace", "all", { NULL }, "--gpu-trace: expected one or more of jobs, got 'all'" },
        { "--trace", "out_asm", { NULL }, "--trace: expected one or more of in_asm,exec, got 'out_asm'" },
        { "--trace-range", "0x2000-0x1000", { "--trace", "exec" }, "--trace-range: expected LO-HI" },
        { "--disk", "x.img,rw", { NULL }, "--disk: " },
        { "--share", "/tmp,write-through", { NULL }, "--share: " },
        { "--help", "=x", { NULL }, "--help: takes no argument, got 'x'" },
        { "--no-such", NULL, { NULL }, "unknown option '--no-such'" },
        { "stray", NULL, { NULL }, "unexpected argument 'stray'" },
    };
    char err[512];
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        RoundTrip rt = { bad[i].opt, NULL, { bad[i].extra[0], bad[i].extra[1], bad[i].extra[2], bad[i].extra[3] }, NULL };
        MalibuOptions o;
        bool joined = bad[i].value && bad[i].value[0] == '=';
        err[0] = 0;
        ck_assert_int_eq(parse_with(&rt, joined ? bad[i].value + 1 : bad[i].value, joined, &o, err, sizeof err), -1);
        ck_assert_msg(!strncmp(err, bad[i].message, strlen(bad[i].message)), "%s %s: got \"%s\", want \"%s...\"",
                      bad[i].opt, bad[i].value ? bad[i].value : "", err, bad[i].message);
    }
    /* every option that takes an argument says which when it is missing */
    const char *arg;
    char name[64], want[160];
    for (unsigned i = 0; options_entry(i, &(const char *){ NULL }, &(char){ 0 }, &arg, &(const char *){ NULL }); i++) {
        spelling(i, name, sizeof name, &arg);
        if (!arg)
            continue;
        RoundTrip rt = { name, NULL, { NULL }, NULL };
        MalibuOptions o;
        ck_assert_int_eq(parse_with(&rt, NULL, false, &o, err, sizeof err), -1);
        snprintf(want, sizeof want, "%s: needs an argument (%s)", name, arg);
        ck_assert_str_eq(err, want);
    }
}
END_TEST

/* Options that would not be honoured, or need another one, are refused at start. */
START_TEST(options_refused_together)
{
    static const struct { const char *args[8], *message; } bad[] = {
        { { "--smp-mode", "rr" }, "--smp-mode: needs --smp 2 or more" },
        { { "--smp-mode", "threads", "--smp", "1" }, "--smp-mode: needs --smp 2 or more" },
        { { "--smp", "2", "--smp-quantum", "500" }, "--smp-quantum: needs --smp-mode rr" },
        { { "--smp", "2", "--smp-mode", "threads", "--smp-quantum", "500" }, "--smp-quantum: needs --smp-mode rr" },
        { { "--smp", "4", "--on-reset", "reboot" }, "--on-reset reboot: with --smp 2 or more needs --smp-mode rr" },
        { { "--smp", "4", "--smp-mode", "threads", "--on-reset", "reboot" }, "--on-reset reboot: with --smp 2" },
        { { "--gdb-wait" }, "--gdb-wait: needs --gdb" },
        { { "--timeline-limit", "100" }, "--timeline-limit: needs --timeline" },
        { { "--trace-file", "/x" }, "--trace-file: needs --trace" },
        { { "--trace-range", "1-2" }, "--trace-range: needs --trace" },
        { { "--clock", "icount", "--smp", "2" }, "--clock icount: with --smp 2 or more needs --smp-mode rr" },
        { { "--icount-shift", "2" }, "--icount-shift: needs --clock icount" },
    };
    char err[512];
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *argv[12] = { "malibu", "--kernel", "/k" };
        int argc = 3;
        for (unsigned j = 0; bad[i].args[j]; j++)
            argv[argc++] = (char *)bad[i].args[j];
        MalibuOptions o;
        options_default(&o);
        ck_assert_int_eq(options_parse(argc, argv, &o, err, sizeof err), -1);
        ck_assert_msg(!strncmp(err, bad[i].message, strlen(bad[i].message)), "case %u: got \"%s\", want \"%s...\"", i,
                      err, bad[i].message);
    }
    /* ... and accepted where they are honoured */
    static const char *const good[][8] = {
        { "--smp", "2", "--smp-mode", "rr", "--smp-quantum", "500", "--on-reset", "reboot" },
        { "--smp", "1", "--on-reset", "reboot" },
        { "--smp", "2", "--smp-mode", "threads" },
        { "--smp", "2", "--smp-mode", "rr", "--clock", "icount", "--icount-shift", "2" },
        { "--clock", "icount" },
    };
    for (unsigned i = 0; i < sizeof good / sizeof good[0]; i++) {
        char *argv[12] = { "malibu", "--kernel", "/k" };
        int argc = 3;
        for (unsigned j = 0; j < 8 && good[i][j]; j++)
            argv[argc++] = (char *)good[i][j];
        MalibuOptions o;
        options_default(&o);
        ck_assert_msg(options_parse(argc, argv, &o, err, sizeof err) == 0, "good case %u: %s", i, err);
    }
}
END_TEST

/* --help and --help-markdown print every option of the table, once each. */
/* --image NAME that is no directory: malibu-image's image NAME in $XDG_CACHE_HOME/malibu/images */
START_TEST(image_by_name)
{
    char cache[64] = "/tmp/malibu-xdg-test-XXXXXX", sub[128], link[160];
    ck_assert_ptr_nonnull(mkdtemp(cache));
    make_image_dir();
    snprintf(sub, sizeof sub, "%s/malibu", cache);
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    snprintf(sub, sizeof sub, "%s/malibu/images", cache);
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    snprintf(link, sizeof link, "%s/malibu/images/img-1", cache);
    ck_assert_int_eq(symlink(dir, link), 0);
    ck_assert_int_eq(setenv("XDG_CACHE_HOME", cache, 1), 0);
    char *argv[] = { "malibu", "--image", "img-1", NULL };
    BoardConfig cfg;
    board_config_default(&cfg);
    char err[512], want[192];
    ck_assert_msg(options_parse_board(3, argv, &cfg, err, sizeof err) == 0, "%s", err);
    snprintf(want, sizeof want, "%s/Image", link);
    ck_assert_str_eq(cfg.kernel, want);
    /* a name with no image: the message says how to build one */
    char *missing[] = { "malibu", "--image", "img-2", NULL };
    board_config_default(&cfg);
    ck_assert_int_eq(options_parse_board(3, missing, &cfg, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "img-2/Image") && strstr(err, "malibu-image build"), "%s", err);
    unsetenv("XDG_CACHE_HOME");
    unlink(link);
    rmdir(sub);
    snprintf(sub, sizeof sub, "%s/malibu", cache);
    rmdir(sub);
    rmdir(cache);
    remove_image_dir();
}
END_TEST

START_TEST(options_printed)
{
    char *usage = NULL, *md = NULL;
    size_t ulen, mlen;
    FILE *f = open_memstream(&usage, &ulen);
    options_print_usage(f);
    fclose(f);
    f = open_memstream(&md, &mlen);
    options_print_markdown(f);
    fclose(f);
    const char *arg;
    char name[64], cell[80];
    unsigned n = 0;
    for (unsigned i = 0; options_entry(i, &(const char *){ NULL }, &(char){ 0 }, &arg, &(const char *){ NULL }); i++) {
        spelling(i, name, sizeof name, &arg);
        char line[80];
        snprintf(line, sizeof line, " %s%s", name, arg ? " " : "\n");
        ck_assert_msg(strstr(usage, line) || strstr(usage, name), "--help lacks %s", name);
        snprintf(cell, sizeof cell, "| `%s", name);
        const char *at = strstr(md, cell);
        if (!at) { /* short and long: "-X, --name" */
            snprintf(cell, sizeof cell, ", %s", name);
            at = strstr(md, cell);
        }
        ck_assert_msg(at != NULL, "--help-markdown lacks %s", name);
        n++;
    }
    unsigned rows = 0;
    for (const char *p = md; (p = strstr(p, "\n| `")); p++)
        rows++;
    ck_assert_uint_eq(rows, n);
    free(usage);
    free(md);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("run");
    TCase *tc = tcase_create("run");
    tcase_add_test(tc, exit_register);
    tcase_add_test(tc, exit_on_board);
    tcase_add_test(tc, cpu_timing_feed);
    tcase_add_test(tc, timing_not_honoured_refused);
    tcase_add_test(tc, jit_sse_refused_on_v7);
    tcase_add_test(tc, image_and_run);
    tcase_add_test(tc, options_round_trip);
    tcase_add_test(tc, options_bad_values);
    tcase_add_test(tc, options_refused_together);
    tcase_add_test(tc, options_printed);
    tcase_add_test(tc, image_by_name);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
