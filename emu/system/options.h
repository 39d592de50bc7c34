/* build/malibu's command line: one table (options.c) defines every option once, with its argument,
 * its help text and the part of the program that reads it.  `--help`, the option list of
 * docs/devices.md (`--help-markdown`, checked by `make options-doc-test`), malibu(1)'s OPTIONS
 * (`--help-man`) and the bash completion (`--help-completion`, options_doc.c) are printed from it.
 *
 * Parsing has no side effects: it fills a MalibuOptions (the board's BoardConfig and what the
 * system main consumes); main applies the system part and hands the board its configuration. */
#ifndef MALIBU_SYSTEM_OPTIONS_H
#define MALIBU_SYSTEM_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../devices/board.h"

#define MALIBU_DEFAULT_APPEND "console=ttyAMA0 earlycon=pl011,0x7ff80000 panic=-1"
#define MALIBU_SMP_QUANTUM_MIN 100
#define MALIBU_SMP_QUANTUM_MAX 100000000

/* --debug items, in the table's order */
enum { OPT_DEBUG_EXC = 1, OPT_DEBUG_SYSREG = 2, OPT_DEBUG_STATS = 4, OPT_DEBUG_GPU = 8 };
/* --trace items (the values of TraceConfig.what, emu/debug/trace.h) */
enum { OPT_TRACE_IN_ASM = 1, OPT_TRACE_EXEC = 2 };

/* What emu/system (main.c, smp.c, the GDB stub, the traces) reads. */
typedef struct SystemOptions {
    bool help, help_markdown;   /* --help, --help-markdown: print and exit */
    bool help_man, help_completion, version; /* --help-man, --help-completion, --version: the same */
    unsigned debug;             /* --debug: OPT_DEBUG_* */
    const char *gpu_dump;       /* --gpu-dump DIR */
    const char *backend;        /* --backend native|portable (NULL: MALIBU_BACKEND or native) */
    unsigned compile_after;     /* --compile-after N (0: MALIBU_COMPILE_AFTER or native.h's default) */
    const char *cpu;            /* --cpu a57|max (NULL: max) */
    const char *on_reset;       /* --on-reset exit|reboot (NULL: exit) */
    const char *smp_mode;       /* --smp-mode threads|rr (NULL: threads) */
    uint64_t smp_quantum;       /* --smp-quantum (0: not given, smp.c's default) */
    const char *gdb;            /* --gdb [HOST:]PORT */
    bool gdb_wait;              /* --gdb-wait */
    unsigned trace;             /* --trace: OPT_TRACE_* */
    bool trace_range_given;     /* --trace-range LO-HI */
    uint64_t trace_lo, trace_hi;
    const char *trace_file;     /* --trace-file FILE */
    unsigned gpu_trace;         /* --gpu-trace jobs: 1 */
    const char *ckpt_save;      /* --checkpoint-save FILE */
    const char *ckpt_load;      /* --checkpoint-load FILE */
    bool ckpt_exit;             /* --checkpoint-exit */
} SystemOptions;

typedef struct MalibuOptions {
    BoardConfig board;
    SystemOptions sys;
} MalibuOptions;

/* Defaults: board_config_default and an empty SystemOptions. */
void options_default(MalibuOptions *o);
/* Parse argv[1..argc-1] into o (which options_default set up), then check the options against
 * each other and apply --image / --run (run_image.h).  0 on success (also when --help or
 * --help-markdown was asked for: o->sys says so), -1 with a message naming the option and what
 * it accepts in err ("--smp: expected 1..8, got 9").  o's strings point into argv. */
int options_parse(int argc, char **argv, MalibuOptions *o, char *err, size_t errlen);
/* For callers that run only the board (device tests, devtool): options_parse, keeping the
 * board's part; 1 when --help was asked for. */
int options_parse_board(int argc, char **argv, BoardConfig *cfg, char *err, size_t errlen);

/* The usage text of --help, and the option list of docs/devices.md (a Markdown table). */
void options_print_usage(FILE *f);
void options_print_markdown(FILE *f);

/* Whether s asks only for a printout (--help, --version, ...): then nothing else is checked. */
bool options_print_only(const SystemOptions *s);

/* One option for the manual page and the shell completion (options_doc.c). */
typedef struct OptionInfo {
    const char *name;            /* without "--"; NULL: short form only */
    char short_name;             /* 0: none */
    const char *arg;             /* as --help shows it; NULL for a flag */
    const char *help, *doc;      /* doc: the page with the details (NULL: none) */
    const char *const *choices;  /* NULL-terminated, or NULL */
    bool list;                   /* choices joined by commas */
    enum { OPTION_VALUES_FREE, OPTION_VALUES_CHOICES, OPTION_VALUES_GPU, OPTION_VALUES_TIMING } values;
} OptionInfo;
bool options_info(unsigned i, OptionInfo *out);

/* The OPTIONS section of malibu(1), and the bash completion's table (shell code). */
void options_print_man(FILE *f);
void options_print_completion(FILE *f);

/* Walk the table (the unit test round-trips each option): name (without "--"), its short form
 * (0: none), its argument (NULL: a flag) and the part that reads it.  false past the end. */
bool options_entry(unsigned i, const char **name, char *short_name, const char **arg, const char **reader);

#endif
