/* build/malibu's options: the one table, its parser and its two printers (options.h). */
#include "options.h"
#include "run_image.h"
#include "smp.h"
#include "../../devices/board_gpu.h"
#include "../stats/timeline.h"
#include "../cpu/native.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define STR_(x) #x
#define STR(x) STR_(x)

typedef enum {
    OPT_FLAG,   /* no argument: bool = true */
    OPT_STRING, /* const char * = the argument */
    OPT_UINT,   /* unsigned in [min, max] */
    OPT_U64,    /* uint64_t in [min, max] */
    OPT_CHOICE, /* const char * = the matching one of choices */
    OPT_LIST,   /* unsigned |= 1 << i for each comma-separated choices[i] */
    OPT_CUSTOM, /* parse() */
} OptionKind;

typedef struct OptionDef OptionDef;
struct OptionDef {
    const char *name;       /* long name without "--"; NULL: short form only */
    char short_name;        /* -X (0: none) */
    const char *arg;        /* the argument's name; NULL for flags, choices and lists */
    const char *reader;     /* the part that consumes it */
    const char *help;
    const char *doc;        /* the page with the details, from the repository's top (NULL: none) */
    OptionKind kind;
    size_t offset;          /* into MalibuOptions */
    unsigned long long min, max;
    const char *const *choices;
    bool (*parse)(const OptionDef *d, const char *v, MalibuOptions *o, char *err, size_t errlen);
};

#define BOARD(f) offsetof(MalibuOptions, board.f)
#define SYS(f) offsetof(MalibuOptions, sys.f)
#define CHOICES(...) (const char *const[]){ __VA_ARGS__, NULL }

static bool parse_size(const OptionDef *d, const char *v, MalibuOptions *o, char *err, size_t errlen);
static bool parse_disk(const OptionDef *d, const char *v, MalibuOptions *o, char *err, size_t errlen);
static bool parse_gpu(const OptionDef *d, const char *v, MalibuOptions *o, char *err, size_t errlen);
static bool parse_gpu_time(const OptionDef *d, const char *v, MalibuOptions *o, char *err, size_t errlen);
static bool parse_range(const OptionDef *d, const char *v, MalibuOptions *o, char *err, size_t errlen);
static bool parse_clock(const OptionDef *d, const char *v, MalibuOptions *o, char *err, size_t errlen);

static const OptionDef table[] = {
    { "kernel", 0, "FILE", "devices/board.c", "the arm64 Linux Image (required unless --image or --dump-dtb)",
      NULL, OPT_STRING, BOARD(kernel), 0, 0, NULL, NULL },
    { "initrd", 0, "FILE", "devices/board.c", "initramfs / initrd", NULL, OPT_STRING, BOARD(initrd), 0, 0, NULL, NULL },
    { "append", 0, "CMDLINE", "devices/board.c",
      "kernel command line (default \"" MALIBU_DEFAULT_APPEND "\"); with --image or --run it is added to "
      "the image's line", NULL, OPT_STRING, BOARD(append), 0, 0, NULL, NULL },
    { NULL, 'm', "SIZE", "devices/board.c",
      "RAM size: 512M, 2G, a plain number is MiB (default 1G; 16M to 66G, a multiple of 4K); above 2G "
      "the rest goes to a second bank", NULL, OPT_CUSTOM, 0, 0, 0, NULL, parse_size },
    { "smp", 0, "N", "devices/board.c",
      "vCPUs, 1.." STR(BOARD_MAX_CPUS) " (default 1; MPIDRs in Juno's clusters)", "docs/devices.md#smp-several-vcpus",
      OPT_UINT, BOARD(ncpu), 1, BOARD_MAX_CPUS, NULL, NULL },
    { "smp-mode", 0, NULL, "emu/system/smp.c",
      "with --smp 2 or more: one host thread per vCPU (threads, the default) or all vCPUs on one host "
      "thread, round-robin with a fixed quantum (rr: a reproducible interleaving, for debugging)",
      NULL, OPT_CHOICE, SYS(smp_mode), 0, 0, CHOICES("threads", "rr"), NULL },
    { "smp-quantum", 0, "N", "emu/system/smp.c",
      "with --smp-mode rr: guest instructions per turn, " STR(MALIBU_SMP_QUANTUM_MIN) ".."
      STR(MALIBU_SMP_QUANTUM_MAX) " (default " STR(SMP_DEFAULT_QUANTUM) ")", NULL,
      OPT_U64, SYS(smp_quantum), MALIBU_SMP_QUANTUM_MIN, MALIBU_SMP_QUANTUM_MAX, NULL, NULL },
    { "dtb", 0, "FILE", "devices/board.c", "boot with this DTB instead of the generated one (/chosen updated)",
      NULL, OPT_STRING, BOARD(dtb), 0, 0, NULL, NULL },
    { "dump-dtb", 0, "FILE", "devices/board.c", "write the generated DTB to FILE and exit",
      NULL, OPT_STRING, BOARD(dump_dtb), 0, 0, NULL, NULL },
    { "disk", 0, "FILE[,cow|ro|write-through]", "devices/virtio_board.c",
      "virtio-blk disk (vda, vdb, ... in order; repeatable). cow (default): FILE is opened read-only, "
      "guest writes go to a temporary overlay dropped at exit; ro: a read-only disk; write-through: "
      "guest writes modify FILE (flush = fdatasync)", "devices/README.md#disks-virtio-blk",
      OPT_CUSTOM, 0, 0, 0, NULL, parse_disk },
    { "share", 0, "DIR[,ro]", "devices/virtio_board.c",
      "ext4 copy of host directory DIR as the next disk (copy-on-write or read-only; made with "
      "mke2fs -d at start, deleted at exit); the guest images mount it on /mnt/host",
      NULL, OPT_CUSTOM, 0, 0, 0, NULL, parse_disk },
    { "image", 0, "DIR", "emu/system/run_image.c",
      "boot DIR/Image, DIR/initrd.img and DIR/rootfs.ext4 (copy-on-write, vda); make image builds "
      "guest-images/out", "docs/guest-images.md#running-the-guest-image", OPT_STRING, BOARD(image), 0, 0, NULL, NULL },
    { "run", 0, "CMD", "emu/system/run_image.c",
      "run shell command CMD in the guest and exit with its status (kernel parameter malibu.run64; "
      "without it: an interactive shell)", "docs/guest-images.md#running-the-guest-image",
      OPT_STRING, BOARD(run), 0, 0, NULL, NULL },
    { "gpu", 0, "MODEL[,cores=N][,mhz=M]", "devices/board_gpu.c", "Mali GPU: " BOARD_GPU_MODELS " (default g71); "
      "cores: shader cores (SHADER_PRESENT; g71/g72 1-32, g52 1-4), mhz: its clock",
      NULL, OPT_CUSTOM, 0, 0, 0, NULL, parse_gpu },
    { "gpu-threads", 0, "N", "devices/board_gpu.c",
      "host threads running the GPU's shader cores, 1..256 (default: host CPUs)",
      NULL, OPT_UINT, BOARD(gpu_threads), 1, 256, NULL, NULL },
    { "gpu-backend", 0, NULL, "devices/board_gpu.c",
      "shader-core back end: jit compiles clauses to host code, AVX2 or else SSE4.1 (the default on "
      "x86-64 hosts with either); jit-avx2 and jit-sse choose that code (jit-sse: 4-lane warps, so "
      "v6 GPUs only); interp interprets clauses "
      "(the reference; the default elsewhere); also MALIBU_GPU_BACKEND. Results, faults and --stats "
      "counts are the same with either", "docs/gpu.md#clause-compiler---gpu-backend-jit",
      OPT_CHOICE, BOARD(gpu_backend), 0, 0, CHOICES("jit", "jit-avx2", "jit-sse", "interp"), NULL },
    { "gpu-time", 0, NULL, "devices/gtimer.c",
      "guest time while the CPU idles waiting on the GPU: model (default) advances it by the GPU's "
      "modelled time for the work, so jobs take guest time like on hardware; host lets it run with "
      "the host clock", "docs/gpu.md#guest-clock-and-gpu-jobs---gpu-time-modelhost",
      OPT_CUSTOM, 0, 0, 0, CHOICES("model", "host"), parse_gpu_time },
    { "clock", 0, NULL, "devices/gtimer.c",
      "guest time: host (default) follows the host clock while a vCPU runs; icount counts "
      "instructions retired (--icount-shift) and jumps to the next timer or GPU deadline when every "
      "vCPU idles, so every guest-visible time is the same in every run (needs --smp 1 or --smp-mode rr)",
      "docs/gpu.md#deterministic-guest-time---clock-icount", OPT_CUSTOM, 0, 0, 0, CHOICES("host", "icount"),
      parse_clock },
    { "icount-shift", 0, "N", "devices/gtimer.c",
      "with --clock icount: each guest instruction takes 2^N ns, 0..10 (default 0: 1 ns)",
      "docs/gpu.md#deterministic-guest-time---clock-icount", OPT_UINT, BOARD(icount_shift), 0, 10, NULL, NULL },
    { "timing", 0, "[preset=NAME][,KEY=VALUE...]", "devices/board_timing.c",
      "model the GPU's caches and DRAM (and with cpu.* keys the CPU's): their latency joins the "
      "modelled GPU time the guest sees; presets g71, g52; off by default", "docs/timing.md",
      OPT_STRING, BOARD(timing), 0, 0, NULL, NULL },
    { "timing-config", 0, "FILE", "devices/board_timing.c",
      "the same keys as KEY = VALUE lines, read before --timing's (implies --timing)", "docs/timing.md",
      OPT_STRING, BOARD(timing_config), 0, 0, NULL, NULL },
    { "stats", 0, "FILE.json", "emu/stats/stats.c",
      "instrumentation report written at exit (build/malibu-report renders it) and a summary on stderr",
      "docs/reports.md", OPT_STRING, BOARD(stats), 0, 0, NULL, NULL },
    { "timeline", 0, "FILE.json", "emu/stats/timeline.c",
      "timeline written at exit in the Chrome trace-event format (Perfetto, chrome://tracing; "
      "malibu-report --timeline draws it): GPU jobs per job slot named by kernel, vCPUs running / in "
      "exceptions / idle, GPU interrupts, regions; in guest and in host time",
      "docs/reports.md#timeline", OPT_STRING, BOARD(timeline), 0, 0, NULL, NULL },
    { "timeline-limit", 0, "N", "emu/stats/timeline.c",
      "with --timeline: events kept, the newest (" STR(TIMELINE_MIN_LIMIT) ".." STR(TIMELINE_MAX_LIMIT)
      ", default " STR(TIMELINE_DEFAULT_LIMIT) "); the file and stderr say how many were dropped",
      "docs/reports.md#timeline", OPT_U64, BOARD(timeline_limit), TIMELINE_MIN_LIMIT, TIMELINE_MAX_LIMIT, NULL, NULL },
    { "display", 0, NULL, "emu/system/display.c",
      "the screen (Juno's HDLCD, Linux's console on tty1) in an SDL2 window: default sdl when "
      "$DISPLAY or $WAYLAND_DISPLAY works, else none (no display controller)", "docs/display.md",
      OPT_CHOICE, BOARD(display), 0, 0, CHOICES("sdl", "none"), NULL },
    { "screenshot", 0, "FILE.png", "emu/system/display.c",
      "write the screen to FILE.png at exit (also with --display none); Ctrl+Alt+S in the window "
      "writes it at once", "docs/display.md", OPT_STRING, BOARD(screenshot), 0, 0, NULL, NULL },
    { "display-controller", 0, NULL, "devices/board_display.c",
      "with a display: lcdif (default) adds an i.MX eLCDIF and its DPI panel, which Linux's mxsfb "
      "drives as a KMS device and takes over from the HDLCD's boot framebuffer; hdlcd: the HDLCD's "
      "framebuffer alone", "docs/display.md",
      OPT_CHOICE, BOARD(display_controller), 0, 0, CHOICES("lcdif", "hdlcd"), NULL },
    { "debug", 'd', NULL, "emu/system/main.c",
      "exc: log every exception taken (synchronous ones with the instruction, disassembled); sysreg: "
      "unknown system registers and instructions; stats: instruction and TLB counts at exit, one "
      "line per vCPU; gpu: one line per GPU job (also MALIBU_GPU_LOG=1)",
      NULL, OPT_LIST, SYS(debug), 0, 0, CHOICES("exc", "sysreg", "stats", "gpu"), NULL },
    { "gpu-dump", 0, "DIR", "devices/board_gpu.c",
      "write each GPU job chain's descriptors and shaders to DIR (also MALIBU_GPU_DUMP=DIR); "
      "build/malibu-decode DIR prints them", "docs/gpu.md#job-chain-walker-gpu-dumps-and-malibu-decode",
      OPT_STRING, SYS(gpu_dump), 0, 0, NULL, NULL },
    { "on-reset", 0, NULL, "emu/system/main.c",
      "what a PSCI SYSTEM_RESET does: exit with status 82 (default) or reboot the board; with "
      "--smp 2 or more, reboot needs --smp-mode rr", NULL,
      OPT_CHOICE, SYS(on_reset), 0, 0, CHOICES("exit", "reboot"), NULL },
    { "backend", 0, NULL, "emu/cpu/native.c",
      "CPU translator back end: native (the default on x86-64) or portable (the reference op "
      "interpreter); also MALIBU_BACKEND", "docs/cpu.md#back-ends",
      OPT_CHOICE, SYS(backend), 0, 0, CHOICES("native", "portable"), NULL },
    { "compile-after", 0, "N", "emu/cpu/native.c",
      "native back end: run each block from its ops (the portable back end's handlers) until its "
      "Nth run, and compile it then (default 8; 1: compile every block when translated); also "
      "MALIBU_COMPILE_AFTER", "docs/cpu.md#tiers-compile-after",
      OPT_UINT, SYS(compile_after), 1, NATIVE_COMPILE_AFTER_MAX, NULL, NULL },
    { "cpu", 0, NULL, "emu/cpu/cpu.c",
      "emulated core: max (the default: Armv8.0 plus the Armv8.1/8.2 features of docs/cpu.md: LSE, RDM, PAN, DotProd, SHA512, SHA3, FP16) or a57 (Armv8.0 "
      "Cortex-A57); what decodes and what the ID registers advertise", "docs/cpu.md#cores---cpu",
      OPT_CHOICE, SYS(cpu), 0, 0, CHOICES("a57", "max"), NULL },
    { "gdb", 0, "[HOST:]PORT", "emu/system/gdb_board.c",
      "GDB remote protocol stub (HOST default 127.0.0.1; PORT 0 picks a free port, printed on stderr)",
      "docs/debugging.md", OPT_STRING, SYS(gdb), 0, 0, NULL, NULL },
    { "gdb-wait", 0, NULL, "emu/system/gdb_board.c",
      "with --gdb: halt before the first instruction until gdb continues", NULL,
      OPT_FLAG, SYS(gdb_wait), 0, 0, NULL, NULL },
    { "gpu-trace", 0, NULL, "emu/system/gpu_trace.c",
      "every GPU job chain decoded on stderr as it starts, shaders disassembled (a chain that faults "
      "always gets a decoded report)", "docs/debugging.md#gpu-fault-reports-and---gpu-trace-jobs",
      OPT_LIST, SYS(gpu_trace), 0, 0, CHOICES("jobs"), NULL },
    { "trace", 0, NULL, "emu/debug/trace.c",
      "Capstone trace: each block disassembled when translated (in_asm), each block as it runs (exec)",
      "docs/debugging.md#instruction-traces", OPT_LIST, SYS(trace), 0, 0, CHOICES("in_asm", "exec"), NULL },
    { "trace-range", 0, "LO-HI", "emu/debug/trace.c",
      "with --trace: only blocks overlapping guest addresses LO..HI (C numbers)", NULL,
      OPT_CUSTOM, 0, 0, 0, NULL, parse_range },
    { "trace-file", 0, "FILE", "emu/debug/trace.c", "with --trace: write the trace to FILE (default stderr)",
      NULL, OPT_STRING, SYS(trace_file), 0, 0, NULL, NULL },
    { "checkpoint-save", 0, "FILE", "emu/system/checkpoint.c",
      "save the whole board to FILE when the guest asks (`malibu checkpoint`) or on SIGINT/SIGTERM/SIGHUP "
      "(then exit); with --smp 2 or more needs --smp-mode rr", "docs/checkpoint.md",
      OPT_STRING, SYS(ckpt_save), 0, 0, NULL, NULL },
    { "checkpoint-load", 0, "FILE", "emu/system/checkpoint.c",
      "resume the board saved in FILE (give the options it was saved with; --timing, --stats, --run "
      "and the host-side ones may change)", "docs/checkpoint.md#what-may-change-on-load",
      OPT_STRING, SYS(ckpt_load), 0, 0, NULL, NULL },
    { "checkpoint-exit", 0, NULL, "emu/system/checkpoint.c",
      "with --checkpoint-save: exit (status 0) after a save the guest asked for, instead of going on",
      "docs/checkpoint.md", OPT_FLAG, SYS(ckpt_exit), 0, 0, NULL, NULL },
    { "help", 'h', NULL, "emu/system/options.c", "print this text and exit", NULL,
      OPT_FLAG, SYS(help), 0, 0, NULL, NULL },
    { "help-markdown", 0, NULL, "emu/system/options.c",
      "print the option list of docs/devices.md (a Markdown table) and exit", NULL,
      OPT_FLAG, SYS(help_markdown), 0, 0, NULL, NULL },
    { "help-man", 0, NULL, "emu/system/options_doc.c",
      "print the OPTIONS section of the manual page malibu(1) (roff) and exit", "docs/build.md#installing",
      OPT_FLAG, SYS(help_man), 0, 0, NULL, NULL },
    { "help-completion", 0, NULL, "emu/system/options_doc.c",
      "print the option table for the bash completion (shell code) and exit", "docs/build.md#installing",
      OPT_FLAG, SYS(help_completion), 0, 0, NULL, NULL },
    { "version", 'V', NULL, "emu/system/version.c",
      "print the version, the git commit it was built from and the features and back ends it has, and exit",
      "docs/build.md#installing", OPT_FLAG, SYS(version), 0, 0, NULL, NULL },
};
#define NOPTS (sizeof table / sizeof table[0])
_Static_assert(PSCI_RESET_EXIT_STATUS == 82, "--on-reset's help text says 82");

void options_default(MalibuOptions *o)
{
    memset(o, 0, sizeof *o);
    board_config_default(&o->board);
}

/* "--name" or "-X" as the user typed it, for messages. */
static const char *spelled(const OptionDef *d, char *buf, size_t n)
{
    if (d->name)
        snprintf(buf, n, "--%s", d->name);
    else
        snprintf(buf, n, "-%c", d->short_name);
    return buf;
}

/* The argument as help shows it: its name, or the choices joined by | (choice) or , (list). */
static const char *arg_text(const OptionDef *d, char *buf, size_t n)
{
    if (d->arg || !d->choices) {
        snprintf(buf, n, "%s", d->arg ? d->arg : "");
        return buf;
    }
    size_t len = 0;
    buf[0] = 0;
    for (unsigned i = 0; d->choices[i]; i++)
        len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s", i ? (d->kind == OPT_LIST ? "," : "|") : "",
                                d->choices[i]);
    return buf;
}

static bool bad_value(const OptionDef *d, const char *v, char *err, size_t errlen)
{
    char name[32], arg[96];
    const char *what = arg_text(d, arg, sizeof arg);
    if (d->kind == OPT_UINT || d->kind == OPT_U64)
        snprintf(err, errlen, "%s: expected %llu..%llu, got %s", spelled(d, name, sizeof name), d->min, d->max, v);
    else if (d->kind == OPT_LIST)
        snprintf(err, errlen, "%s: expected one or more of %s, got '%s'", spelled(d, name, sizeof name), what, v);
    else
        snprintf(err, errlen, "%s: expected %s, got '%s'", spelled(d, name, sizeof name), what, v);
    return false;
}

static bool parse_size(const OptionDef *d, const char *v, MalibuOptions *o, char *err, size_t errlen)
{
    uint64_t size = board_parse_size(v);
    _Static_assert(BOARD_RAM_MIN == 16ull << 20 && BOARD_RAM_MAX == 66ull << 30, "-m's help text says 16M to 66G");
    if (size < BOARD_RAM_MIN || size > BOARD_RAM_MAX || (size & (BUS_PAGE_SIZE - 1))) {
        char name[32];
        snprintf(err, errlen, "%s: expected a size from 16M to 66G, a multiple of 4K (512M, 2G; a plain "
                 "number is MiB), got '%s'", spelled(d, name, sizeof name), v);
        return false;
    }
    o->board.ram_size = size;
    return true;
}

static bool parse_disk(const OptionDef *d, const char *v, MalibuOptions *o, char *err, size_t errlen)
{
    char msg[256];
    if (virtio_board_parse(o->board.disks, &o->board.ndisks, v, !strcmp(d->name, "share"), msg, sizeof msg) < 0) {
        snprintf(err, errlen, "--%s: %s", d->name, msg);
        return false;
    }
    return true;
}

static bool parse_gpu(const OptionDef *d, const char *v, MalibuOptions *o, char *err, size_t errlen)
{
    char why[160];
    if (!board_gpu_model_check(v, why, sizeof why)) {
        snprintf(err, errlen, "--%s: %s (expected %s[,cores=N][,mhz=M])", d->name, why, BOARD_GPU_MODELS);
        return false;
    }
    o->board.gpu = v;
    return true;
}

static bool parse_gpu_time(const OptionDef *d, const char *v, MalibuOptions *o, char *err, size_t errlen)
{
    if (strcmp(v, "model") && strcmp(v, "host"))
        return bad_value(d, v, err, errlen);
    o->board.gpu_time_host = !strcmp(v, "host");
    return true;
}

static bool parse_clock(const OptionDef *d, const char *v, MalibuOptions *o, char *err, size_t errlen)
{
    if (strcmp(v, "host") && strcmp(v, "icount"))
        return bad_value(d, v, err, errlen);
    o->board.clock_icount = !strcmp(v, "icount");
    return true;
}

static bool parse_range(const OptionDef *d, const char *v, MalibuOptions *o, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    uint64_t lo = strtoull(v, &end, 0), hi = 0;
    bool ok = end != v && *end == '-' && isdigit((unsigned char)*v);
    if (ok) {
        const char *h = end + 1;
        hi = strtoull(h, &end, 0);
        ok = isdigit((unsigned char)*h) && !*end && !errno && hi >= lo;
    }
    if (!ok) {
        snprintf(err, errlen, "--%s: expected LO-HI with LO <= HI (e.g. 0xffff800080000000-0xffff8000800fffff), "
                 "got '%s'", d->name, v);
        return false;
    }
    o->sys.trace_range_given = true;
    o->sys.trace_lo = lo;
    o->sys.trace_hi = hi;
    return true;
}

static bool parse_number(const OptionDef *d, const char *v, unsigned long long *out, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (!isdigit((unsigned char)*v) || *end || errno || n < d->min || n > d->max)
        return bad_value(d, v, err, errlen);
    *out = n;
    return true;
}

static bool apply(const OptionDef *d, const char *v, MalibuOptions *o, char *err, size_t errlen)
{
    char *field = (char *)o + d->offset;
    unsigned long long n;
    switch (d->kind) {
    case OPT_FLAG:
        *(bool *)field = true;
        return true;
    case OPT_STRING:
        *(const char **)field = v;
        return true;
    case OPT_UINT:
        if (!parse_number(d, v, &n, err, errlen))
            return false;
        *(unsigned *)field = (unsigned)n;
        return true;
    case OPT_U64:
        if (!parse_number(d, v, &n, err, errlen))
            return false;
        *(uint64_t *)field = n;
        return true;
    case OPT_CHOICE:
        for (unsigned i = 0; d->choices[i]; i++)
            if (!strcmp(v, d->choices[i])) {
                *(const char **)field = d->choices[i];
                return true;
            }
        return bad_value(d, v, err, errlen);
    case OPT_LIST: {
        unsigned mask = 0;
        const char *p = v;
        for (;;) {
            size_t len = strcspn(p, ",");
            unsigned i = 0;
            while (d->choices[i] && (strlen(d->choices[i]) != len || strncmp(p, d->choices[i], len)))
                i++;
            if (!d->choices[i])
                return bad_value(d, v, err, errlen);
            mask |= 1u << i;
            if (!p[len])
                break;
            p += len + 1;
        }
        *(unsigned *)field |= mask;
        return true;
    }
    case OPT_CUSTOM:
        return d->parse(d, v, o, err, errlen);
    }
    return false;
}

static const OptionDef *find_long(const char *name, size_t len)
{
    for (unsigned i = 0; i < NOPTS; i++)
        if (table[i].name && strlen(table[i].name) == len && !strncmp(table[i].name, name, len))
            return &table[i];
    return NULL;
}

static const OptionDef *find_short(char c)
{
    for (unsigned i = 0; i < NOPTS; i++)
        if (table[i].short_name == c)
            return &table[i];
    return NULL;
}

/* What one option needs of the others: refused at start, not when the guest gets there. */
static bool check_together(const MalibuOptions *o, char *err, size_t errlen)
{
    const SystemOptions *s = &o->sys;
    bool rr = s->smp_mode && !strcmp(s->smp_mode, "rr");
    if (o->board.timeline_limit && !o->board.timeline)
        return snprintf(err, errlen, "--timeline-limit: needs --timeline FILE.json"), false;
    if (s->gdb_wait && !s->gdb)
        return snprintf(err, errlen, "--gdb-wait: needs --gdb [HOST:]PORT"), false;
    if ((s->trace_file || s->trace_range_given) && !s->trace)
        return snprintf(err, errlen, "--%s: needs --trace in_asm,exec", s->trace_file ? "trace-file" : "trace-range"),
               false;
    if (s->smp_mode && o->board.ncpu < 2)
        return snprintf(err, errlen, "--smp-mode: needs --smp 2 or more (one vCPU runs the same in either mode)"),
               false;
    if (o->board.clock_icount && o->board.ncpu > 1 && !rr)
        return snprintf(err, errlen, "--clock icount: with --smp 2 or more needs --smp-mode rr (vCPUs on their "
                        "own host threads retire instructions in a host-timed order)"), false;
    if (o->board.icount_shift && !o->board.clock_icount)
        return snprintf(err, errlen, "--icount-shift: needs --clock icount"), false;
    if (s->smp_quantum && !rr)
        return snprintf(err, errlen, "--smp-quantum: needs --smp-mode rr (in threads mode each vCPU runs on "
                        "its own host thread, without turns)"), false;
    if (s->on_reset && !strcmp(s->on_reset, "reboot") && o->board.ncpu > 1 && !rr)
        return snprintf(err, errlen, "--on-reset reboot: with --smp 2 or more needs --smp-mode rr (vCPUs on "
                        "their own host threads cannot be reset together)"), false;
    if ((s->ckpt_save || s->ckpt_load) && o->board.ncpu > 1 && !rr)
        return snprintf(err, errlen, "--checkpoint-%s: with --smp 2 or more needs --smp-mode rr (a checkpoint "
                        "stops every vCPU at a block boundary of one round-robin loop; vCPUs on their own host "
                        "threads cannot be stopped together)", s->ckpt_save ? "save" : "load"), false;
    if (s->ckpt_exit && !s->ckpt_save)
        return snprintf(err, errlen, "--checkpoint-exit: needs --checkpoint-save FILE"), false;
    if ((s->ckpt_save || s->ckpt_load) && s->gdb)
        return snprintf(err, errlen, "--checkpoint-%s: not with --gdb (the debugger's stops and breakpoints "
                        "are no part of a checkpoint)", s->ckpt_save ? "save" : "load"), false;
    return true;
}

int options_parse(int argc, char **argv, MalibuOptions *o, char *err, size_t errlen)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        const OptionDef *d = NULL;
        if (a[0] == '-' && a[1] == '-' && a[2]) {
            const char *eq = strchr(a + 2, '=');
            d = find_long(a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
            v = eq ? eq + 1 : NULL;
        } else if (a[0] == '-' && a[1] && a[1] != '-') {
            d = find_short(a[1]);
            v = a[2] ? a + 2 : NULL;
        } else {
            snprintf(err, errlen, "unexpected argument '%s' (options start with --; see --help)", a);
            return -1;
        }
        if (!d) {
            snprintf(err, errlen, "unknown option '%s' (see --help)", a);
            return -1;
        }
        char name[32], arg[96];
        bool takes = d->kind != OPT_FLAG;
        if (!takes && v) {
            snprintf(err, errlen, "%s: takes no argument, got '%s'", spelled(d, name, sizeof name), v);
            return -1;
        }
        if (takes && !v) {
            if (i + 1 >= argc) {
                snprintf(err, errlen, "%s: needs an argument (%s)", spelled(d, name, sizeof name),
                         arg_text(d, arg, sizeof arg));
                return -1;
            }
            v = argv[++i];
        }
        if (!apply(d, v, o, err, errlen))
            return -1;
    }
    if (options_print_only(&o->sys) || (o->board.timing && !strcmp(o->board.timing, "help")))
        return 0;   /* --timing help: main prints the keys */
    if (!check_together(o, err, errlen) || run_image_apply(&o->board, err, errlen) < 0)
        return -1;
    if (!o->board.kernel && !o->board.dump_dtb) {
        snprintf(err, errlen, "--kernel FILE or --image DIR is required (see --help)");
        return -1;
    }
    return 0;
}

int options_parse_board(int argc, char **argv, BoardConfig *cfg, char *err, size_t errlen)
{
    MalibuOptions o;
    options_default(&o);
    o.board = *cfg;
    int r = options_parse(argc, argv, &o, err, errlen);
    *cfg = o.board;
    return r < 0 ? -1 : options_print_only(&o.sys);
}

bool options_entry(unsigned i, const char **name, char *short_name, const char **arg, const char **reader)
{
    if (i >= NOPTS)
        return false;
    static char args[NOPTS][96];
    *name = table[i].name;
    *short_name = table[i].short_name;
    *arg = table[i].kind == OPT_FLAG ? NULL : arg_text(&table[i], args[i], sizeof args[i]);
    *reader = table[i].reader;
    return true;
}

bool options_print_only(const SystemOptions *s)
{
    return s->help || s->help_markdown || s->help_man || s->help_completion || s->version;
}

bool options_info(unsigned i, OptionInfo *out)
{
    if (i >= NOPTS)
        return false;
    const OptionDef *d = &table[i];
    static char args[NOPTS][96];
    *out = (OptionInfo){ .name = d->name, .short_name = d->short_name, .help = d->help, .doc = d->doc,
                         .arg = d->kind == OPT_FLAG ? NULL : arg_text(d, args[i], sizeof args[i]),
                         .choices = d->choices, .list = d->kind == OPT_LIST };
    if (d->parse == parse_gpu)
        out->values = OPTION_VALUES_GPU;
    else if (d->name && !strcmp(d->name, "timing"))
        out->values = OPTION_VALUES_TIMING;
    else if (d->choices)
        out->values = OPTION_VALUES_CHOICES;
    return true;
}

/* "--name ARG" (and "-X" when there is a short form) */
static void option_head(const OptionDef *d, char *buf, size_t n)
{
    char arg[96];
    arg_text(d, arg, sizeof arg);
    const char *sep = *arg ? " " : "";
    if (d->name && d->short_name)
        snprintf(buf, n, "-%c, --%s%s%s", d->short_name, d->name, sep, arg);
    else if (d->name)
        snprintf(buf, n, "--%s%s%s", d->name, sep, arg);
    else
        snprintf(buf, n, "-%c%s%s", d->short_name, sep, arg);
}

/* text wrapped to `width` columns, continuation lines indented by `indent`; `col` is where the
 * first line starts. */
static void print_wrapped(FILE *f, const char *text, unsigned col, unsigned indent, unsigned width)
{
    const char *p = text;
    bool first = true;
    while (*p) {
        size_t w = strcspn(p, " ");
        if (!first && col + 1 + w > width) {
            fprintf(f, "\n%*s", (int)indent, "");
            col = indent;
        } else if (!first) {
            fputc(' ', f);
            col++;
        }
        fwrite(p, 1, w, f);
        col += (unsigned)w;
        first = false;
        p += w;
        while (*p == ' ')
            p++;
    }
    fputc('\n', f);
}

void options_print_usage(FILE *f)
{
    fprintf(f, "usage: malibu --kernel Image [options]\n"
               "       malibu --image DIR [--run \"CMD\"] [options]\n"
               "options (in brackets: the part of malibu that reads each, and the page that tells more):\n");
    for (unsigned i = 0; i < NOPTS; i++) {
        const OptionDef *d = &table[i];
        char head[160], text[1024];
        option_head(d, head, sizeof head);
        snprintf(text, sizeof text, "%s [%s%s%s]", d->help, d->reader, d->doc ? "; " : "",
                 d->doc ? d->doc : "");
        int n = fprintf(f, "  %s", head);
        if (n > 20) {
            fprintf(f, "\n%*s", 20, "");
            n = 20;
        } else {
            fprintf(f, "%*s", 20 - n, "");
            n = 20;
        }
        print_wrapped(f, text, (unsigned)n, 20, 100);
    }
    fprintf(f, "Console: Ctrl-A x quits, Ctrl-A h for help.\n");
}

/* Markdown table cell text: | escaped. */
static void md_cell(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', f);
        fputc(*s, f);
    }
}

void options_print_markdown(FILE *f)
{
    fprintf(f, "| option | meaning | read by |\n|--------|---------|---------|\n");
    for (unsigned i = 0; i < NOPTS; i++) {
        const OptionDef *d = &table[i];
        char head[160];
        option_head(d, head, sizeof head);
        fputs("| `", f);
        md_cell(f, head);
        fputs("` | ", f);
        md_cell(f, d->help);
        if (d->doc) { /* a link from docs/devices.md: [page](path relative to docs/) */
            int len = (int)strcspn(d->doc, "#");
            bool in_docs = !strncmp(d->doc, "docs/", 5);
            fprintf(f, " ([%.*s](%s%s))", len - (in_docs ? 5 : 0), d->doc + (in_docs ? 5 : 0), in_docs ? "" : "../",
                    d->doc + (in_docs ? 5 : 0));
        }
        fprintf(f, " | `%s` |\n", d->reader);
    }
}
