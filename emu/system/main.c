/* build/malibu: the full-system emulator.  Boots an arm64 Linux Image on the board of devices/
 * (GIC-400, PL011, PL031, generic timer, PSCI over HVC #0) with --smp N EL1 vCPUs (smp.c runs them).
 *
 *   malibu --kernel Image [options]      (the options: options.c's table, malibu --help)
 *
 * Exit status: 0 after PSCI SYSTEM_OFF (poweroff) or Ctrl-A x; SYSTEM_RESET exits with status
 * 82 (PSCI_RESET_EXIT_STATUS) unless --on-reset reboot is given.  The default command line has
 * panic=-1, so a kernel panic resets immediately and malibu exits non-zero after the panic
 * message has been printed.  With --run, the guest reports the command's status through the exit
 * device; a power-off without that report exits with 125.  With --stats, SIGINT, SIGTERM and
 * SIGHUP stop the machine, the report is written (marked incomplete) and malibu dies of the
 * signal (emu/stats/SCHEMA.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <libfdt.h>
#include "sys_cpu.h"
#include "native.h"
#include "tb.h"
#include "../../devices/board.h"
#include "../../devices/board_gpu.h"
#include "../../devices/mali/mali.h"
#include "../gpu/compute.h"
#include "../stats/stats.h"
#include "../stats/timeline.h"
#include "stop_signal.h"
#include "gdb_board.h"
#include "../debug/trace.h"
#include "gpu_trace.h"
#include "smp.h"
#include "guest_channel.h"
#include "checkpoint.h"
#include "sys_chan.h"
#include "display.h"
#include "options.h"
#include "version.h"
#include "../cpu/sys_timing.h"
#include "../../devices/board_timing.h"

#define TB_ARENA (256u << 20)

static Board *board;
static SysMachine machine;
static SysCPU *cpus[BOARD_MAX_CPUS];
static bool reboot_on_reset;
/* --run given: the guest reports CMD's status through the exit device, so a plain power-off
 * means the command's status never arrived (an image whose init predates the device). */
static bool expect_exit_status;

static void irq_notify(void *opaque, unsigned cpu, bool irq, bool fiq)
{
    (void)opaque;
    if (cpu < BOARD_MAX_CPUS && cpus[cpu] && (irq || fiq))
        cpus[cpu]->cpu.exit_request = 1;
}

static SmpMode smp_mode = SMP_MODE_THREADS;
static uint64_t smp_quantum;

static void stop_machine(int status)
{
    machine.stop_status = status;
    machine.stop = 1;
    smp_kick_all();
    gdb_board_wake(); /* vCPUs parked by --gdb */
}

/* PSCI SYSTEM_RESET with --on-reset reboot: the board and every CPU as at power-on (CPU 0 at
 * the boot stub, the others off until their CPU_ON). */
static void reboot_machine(SysCPU *caller)
{
    board_reset(board);
    sys_flush_code(caller);
    for (unsigned i = 0; i < board->ncpu; i++)
        if (i != 0)
            smp_cpu_off(cpus[i]);
    sys_cpu_reset(cpus[0], board->reset_pc);
    if (board->ncpu > 1)
        gtimer_set_cpu_online(board->gtimer, 0, true);
    cpus[0]->powered_off = false;
}

static void firmware_call(SysCPU *s, bool smc)
{
    (void)smc;
    CPUState *c = &s->cpu;
    PsciAction act;
    c->x[0] = psci_call(board->psci, s->index, c->x[0], c->x[1], c->x[2], c->x[3], &act);
    switch (act.kind) {
    case PSCI_ACT_NONE:
        break;
    case PSCI_ACT_SYSTEM_OFF:
        if (expect_exit_status) {
            fflush(stdout);
            fprintf(stderr, "\nmalibu: the guest powered off without reporting the --run command's exit "
                            "status (rebuild the image: make image); exiting with 125\n");
            stop_machine(125);
        } else {
            stop_machine(0);
        }
        break;
    case PSCI_ACT_SYSTEM_RESET:
        if (reboot_on_reset) { /* options.c refused it with threaded vCPUs */
            reboot_machine(s);
        } else {
            fflush(stdout);
            fprintf(stderr, "\nmalibu: guest requested a reset (exit status %d)\n", PSCI_RESET_EXIT_STATUS);
            stop_machine(PSCI_RESET_EXIT_STATUS);
        }
        break;
    case PSCI_ACT_CPU_OFF:
        if (board->ncpu == 1)
            stop_machine(0); /* the only CPU going off stops the machine */
        else
            smp_cpu_off(s);
        break;
    case PSCI_ACT_CPU_ON:
        smp_cpu_on(act.cpu, act.entry, act.context);
        break;
    case PSCI_ACT_CPU_SUSPEND:
        s->fw_wait = true;
        break;
    }
}

/* --stats: CPU counters for the report (atexit, so it also runs when the guest exits through
 * the exit device; registered after stats_enable's writer, so it runs before it). */
static void stats_cpus(void)
{
    for (unsigned i = 0; i < BOARD_MAX_CPUS; i++)
        if (cpus[i]) {
            SysCPU *s = cpus[i];
            stats_cpu_info ci = { .index = i, .insns = s->cpu.insn_count, .exceptions = s->n_exc,
                                  .irqs = s->n_irq, .tbs_translated = s->cpu.tbc->n_translated,
                                  .tlb_misses = s->n_tlb_miss, .exc_by_ec = s->n_exc_ec,
                                  .exc_by_vector = s->n_exc_vec, .has_idle = true,
                                  .idle_sleeps = s->n_wfi, .idle_ns = s->idle_ns };
            stats_set_cpu(&ci);
        }
    GTimerClockStats cs;
    gtimer_clock_stats(board->gtimer, &cs);
    stats_clock_info ck = { .model = cs.model, .freezes = cs.freezes, .lead_limits = cs.lead_limits,
                            .host_ns_skipped = cs.frozen_host_ns, .gpu_ns_advanced = cs.advanced_ns };
    stats_set_clock(&ck);
}

/* --stats, --timeline, --checkpoint-save: SIGINT, SIGTERM and SIGHUP stop the machine (on the
 * signal thread, stop_signal.c); main then saves the checkpoint, writes the report, marked
 * incomplete, and dies of the signal. */
static int machine_running;

static bool stop_on_signal(int sig)
{
    if (!__atomic_load_n(&machine_running, __ATOMIC_ACQUIRE))
        return false;
    fprintf(stderr, "\nmalibu: %s: stopping to write %s (again: exit at once)\n", stop_signal_name(sig),
            stats_on && timeline_on ? "the --stats report and the --timeline" : stats_on ? "the --stats report"
            : timeline_on ? "the --timeline" : "the checkpoint");
    stop_machine(128 + sig);
    return true;
}

/* --stats: no GPU job may still be counting while the report is written: stop the job threads. */
static void stop_gpu_for_report(void)
{
    mali_free(board->gpu);
    board->gpu = NULL;
}

/* --stats: the guest's exit-device write (the board's default action, after stopping the GPU). */
static void exit_after_gpu(void *opaque, int status)
{
    (void)opaque;
    gdb_board_exited(status);
    fflush(stdout);
    fflush(stderr);
    console_restore_terminal();
    stop_gpu_for_report();
    exit(status);
}

/* --gdb without --stats: the guest's exit-device write ends gdb's session too. */
static void exit_after_gdb(void *opaque, int status)
{
    (void)opaque;
    gdb_board_exited(status);
    fflush(stdout);
    fflush(stderr);
    console_restore_terminal();
    exit(status);
}

/* --debug stats: one vCPU's counters (who: "" or "vCPU N: "). */
static void print_cpu_stats(const SysCPU *s, const char *who)
{
    fprintf(stderr, "malibu: %s%llu insns, %llu blocks translated (%llu compiled), %llu TB flushes, %llu exceptions, "
            "%llu IRQs, %llu TLB misses, %llu TLB flushes, %llu by VA (%llu TLBI, %llu SCTLR/TCR/TTBR writes), %llu dispatches, %llu lookup misses, %llu TLBI scans, "
            "%llu blocks dropped by code writes, %llu exceptions set PSTATE.PAN\n", who,
            (unsigned long long)s->cpu.insn_count, (unsigned long long)s->cpu.tbc->n_translated,
            (unsigned long long)s->cpu.tbc->n_compiled, (unsigned long long)s->cpu.tbc->n_flushes, (unsigned long long)s->n_exc,
            (unsigned long long)s->n_irq, (unsigned long long)s->n_tlb_miss,
            (unsigned long long)s->n_tlb_flush, (unsigned long long)s->n_tlb_flush_va,
            (unsigned long long)s->n_tlbi,
            (unsigned long long)s->n_mmu_writes, (unsigned long long)s->n_dispatch,
            (unsigned long long)s->n_tb_miss, (unsigned long long)s->n_tlbi_scan,
            (unsigned long long)s->n_tb_dropped, (unsigned long long)s->n_exc_pan);
}

/* --debug stats: counters at exit (atexit: also when the guest exits through the exit device),
 * one line per vCPU, named when there are several. */
static void print_stats(void)
{
    fflush(stdout);
    bool several = BOARD_MAX_CPUS > 1 && cpus[1];
    for (unsigned i = 0; i < BOARD_MAX_CPUS && cpus[i]; i++) {
        char who[24] = "";
        if (several)
            snprintf(who, sizeof who, "vCPU %u: ", i);
        print_cpu_stats(cpus[i], who);
    }
}

/* The parsed options' system part (options.h): the CPU's debug flags, the GPU's log, dump and
 * taps (into the board's configuration), the CPU back end, the traces.  false with a message in
 * err. */
static bool apply_system_options(const SystemOptions *o, BoardConfig *cfg, TraceConfig *trace, char *err, size_t errlen)
{
    machine.debug = (o->debug & OPT_DEBUG_EXC ? SYS_DEBUG_EXC : 0) | (o->debug & OPT_DEBUG_SYSREG ? SYS_DEBUG_SYSREG : 0);
    cfg->gpu_log = (o->debug & OPT_DEBUG_GPU) != 0;
    if (o->gpu_dump) {
        if (mkdir(o->gpu_dump, 0777) && errno != EEXIST)
            return snprintf(err, errlen, "--gpu-dump %s: %s", o->gpu_dump, strerror(errno)), false;
        cfg->gpu_dump = o->gpu_dump;
    }
    if (o->cpu)
        cpu_model_set(o->cpu);
    if (o->backend)
        native_set_backend(!strcmp(o->backend, "native") ? BACKEND_NATIVE : BACKEND_PORTABLE);
    native_set_compile_after(o->compile_after ? o->compile_after : native_compile_after_default());
    smp_mode = o->smp_mode && !strcmp(o->smp_mode, "rr") ? SMP_MODE_RR : SMP_MODE_THREADS;
    smp_quantum = o->smp_quantum;
    reboot_on_reset = o->on_reset && !strcmp(o->on_reset, "reboot");
    trace_config_default(trace);
    trace->what = (o->trace & OPT_TRACE_IN_ASM ? TRACE_IN_ASM : 0) | (o->trace & OPT_TRACE_EXEC ? TRACE_EXEC : 0);
    trace->file = o->trace_file;
    if (o->trace_range_given) {
        trace->lo = o->trace_lo;
        trace->hi = o->trace_hi;
    }
    if (trace->what && !trace_start(trace, err, errlen))
        return false;
    if ((o->debug & OPT_DEBUG_EXC) && !trace_disasm_enable())
        fprintf(stderr, "malibu: --debug exc: no Capstone AArch64 disassembler, instructions not shown\n");
    gpu_trace_taps(o->gpu_trace != 0, &cfg->gpu_tap_chain, &cfg->gpu_tap_fault);
    return true;
}

/* The CPU's timing feed for --timing's cpu.* keys (emu/cpu/sys_timing.c). */
static const BoardCpuTimingFeed cpu_timing_feed = { sys_timing_set, sys_timing_totals };

int main(int argc, char **argv)
{
    MalibuOptions opts;
    char err[512];
    options_default(&opts);
    if (options_parse(argc, argv, &opts, err, sizeof err) < 0) {
        fprintf(stderr, "malibu: %s\n", err);
        return 2;
    }
    if (options_print_only(&opts.sys)) {
        if (opts.sys.version)
            version_print(stdout);
        else if (opts.sys.help_man)
            options_print_man(stdout);
        else if (opts.sys.help_completion)
            options_print_completion(stdout);
        else if (opts.sys.help_markdown)
            options_print_markdown(stdout);
        else
            options_print_usage(stdout);
        return 0;
    }
    BoardConfig cfg = opts.board;
    if (board_timing_is_help(&cfg)) {
        board_timing_help(&cfg, stdout);
        return 0;
    }
    cfg.cpu_timing = &cpu_timing_feed;
    cfg.guest_channel = SYS_CHAN_BASE;   /* the device tree tells the guest how to call it */
    TraceConfig trace;
    if (!apply_system_options(&opts.sys, &cfg, &trace, err, sizeof err)) {
        fprintf(stderr, "malibu: %s\n", err);
        return 2;
    }
    const char *gdb_spec = opts.sys.gdb;
    expect_exit_status = cfg.run != NULL;
    if (!cfg.append)
        cfg.append = MALIBU_DEFAULT_APPEND;
    if ((cfg.stats || cfg.timeline || opts.sys.ckpt_save) && !stop_signal_start(stop_on_signal, 30))
        fprintf(stderr, "malibu: cannot watch for signals: SIGINT/SIGTERM/SIGHUP end malibu without the --stats "
                        "report or checkpoint\n");

    display_choose(&cfg);
    board = board_new(&cfg, err, sizeof err);
    if (!board) {
        fprintf(stderr, "malibu: %s\n", err);
        return 1;
    }
    machine.bus = board->bus;
    machine.gic = board->gic;
    machine.gtimer = board->gtimer;
    machine.code_map = mmap(NULL, SYS_CODE_MAP_PA_LIMIT >> 12, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (machine.code_map == MAP_FAILED) {
        perror("malibu: mmap");
        return 1;
    }

    for (unsigned i = 0; i < board->ncpu; i++) {
        SysCPU *s = aligned_alloc(64, (sizeof(SysCPU) + 63) & ~(size_t)63);
        if (!s)
            return 1;
        memset(s, 0, sizeof *s);
        cpu_init(&s->cpu);
        s->cpu.tbc = tbc_new(TB_ARENA);
        if (!s->cpu.tbc) {
            fprintf(stderr, "malibu: cannot allocate the translation cache\n");
            return 1;
        }
        s->cpu.env = s;
        s->index = i;
        s->mach = &machine;
        cpus[i] = s;
        machine.cpus[i] = s;
    }
    machine.ncpu = board->ncpu;
    smp_init(&machine, board, smp_mode, smp_quantum);
    if (cfg.clock_icount)
        smp_set_icount(cfg.icount_shift);
    board_set_irq_notify(board, irq_notify, NULL);
    sys_firmware_call = firmware_call;
    guest_channel_install(&machine);
    checkpoint_setup(board, &machine, &opts.sys, cfg.run);
    if (!board_realize(board, err, sizeof err)) {
        fprintf(stderr, "malibu: %s\n", err);
        return 1;
    }
    if (cfg.dump_dtb)
        return 0;
    if (opts.sys.ckpt_save && !virtio_board_ckpt_savable(board, err, sizeof err)) {
        fprintf(stderr, "malibu: --checkpoint-save: %s\n", err);
        return 2;
    }
    if (opts.sys.ckpt_load && !checkpoint_load(err, sizeof err)) {
        fprintf(stderr, "malibu: %s\n", err);
        return 1;
    }
    if (!display_start(board, &cfg, err, sizeof err)) {
        fprintf(stderr, "malibu: %s\n", err);
        return 1;
    }
    /* PSCI conduit from the DTB actually booted (a --dtb may say "smc"). */
    int psci = fdt_path_offset(board->dtb, "/psci");
    const char *method = psci >= 0 ? fdt_getprop(board->dtb, psci, "method", NULL) : NULL;
    machine.psci_smc = method && !strcmp(method, "smc");

    if (stats_on)
        atexit(stats_cpus);
    if (stats_on || timeline_on) /* --timeline too: no job may still run while the file is written */
        board_set_exit_handler(board, exit_after_gpu, NULL);
    if (opts.sys.debug & OPT_DEBUG_STATS)
        atexit(print_stats);
    if (gdb_spec) {
        if (!gdb_board_start(gdb_spec, opts.sys.gdb_wait, board, &machine, cpus, board->ncpu, stop_machine,
                             err, sizeof err)) {
            fprintf(stderr, "malibu: %s\n", err);
            return 2;
        }
        if (!stats_on && !timeline_on)
            board_set_exit_handler(board, exit_after_gdb, NULL);
    }
    if (board->ncpu > 1)
        stats_set_config("smp_mode", smp_mode_name(smp_mode));
    __atomic_store_n(&machine_running, 1, __ATOMIC_RELEASE);
    int status = checkpoint_run(board->reset_pc);
    if (gdb_spec)
        gdb_board_exited(status);
    fflush(stdout);
    console_restore_terminal();
    if (stop_signal_received())
        checkpoint_save_on_signal(stop_signal_received()); /* before the GPU stops for the report */
    if (stop_signal_received() && !stats_on && !timeline_on)
        stop_signal_die(stop_signal_received());
    if (stats_on || timeline_on) {
        stop_gpu_for_report();
        int sig = stop_signal_received();
        if (sig) {
            if (stats_on) {
                stats_set_exit(stop_signal_name(sig), false);
                stats_cpus();
                stats_write(stderr);
            }
            if (timeline_on)
                timeline_write(NULL, stderr);
            stop_signal_die(sig);
        }
    }
    return status;
}
