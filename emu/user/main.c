/* malibu-user: run a Linux AArch64 program on this host, like qemu-aarch64. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "user.h"
#include "tb.h"
#include "native.h"
#include "../debug/trace.h"

#define DEFAULT_SYSROOT "/usr/aarch64-linux-gnu"

extern char **environ;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: malibu-user [options] PROGRAM [ARGS...]\n"
            "Run a Linux AArch64 program (static or dynamically linked ELF, or #! script).\n"
            "\n"
            "  -L, --sysroot DIR   look up the ELF interpreter and absolute paths opened for reading\n"
            "                      under DIR first (default: $MALIBU_SYSROOT, else " DEFAULT_SYSROOT "\n"
            "                      when it exists; an empty DIR disables it)\n"
            "  -0, --argv0 NAME    argv[0] for the program (default: PROGRAM)\n"
            "  -E VAR=VALUE        set a variable in the program's environment\n"
            "  -U VAR              remove a variable from the program's environment\n"
            "  -s, --strace        log every system call on stderr\n"
            "  -B, --backend NAME  CPU translator back end: native (x86-64 code, the default on\n"
            "                      x86-64 hosts) or portable (the reference op interpreter);\n"
            "                      also MALIBU_BACKEND=NAME\n"
            "  --compile-after N   native back end: run each block from its ops (the portable\n"
            "                      back end's handlers) until its Nth run, and compile it then\n"
            "                      (default 8; 1: compile every block when translated); also\n"
            "                      MALIBU_COMPILE_AFTER=N\n"
            "  --cpu MODEL         emulated core: max (the default: Armv8.0 + the Armv8.1/8.2\n"
            "                      features of docs/cpu.md: LSE, RDM, DotProd, SHA512, SHA3,\n"
            "                      FP16) or a57 (Armv8.0 Cortex-A57); decoding, ID registers, AT_HWCAP\n"
            "  --huge-pages on|off anonymous private mappings of 2 MiB or more (not MAP_STACK) on\n"
            "                      host transparent huge pages, as guest RAM in system mode: fewer\n"
            "                      host TLB misses on large working sets (default on; needs THP in\n"
            "                      \"madvise\" or \"always\" mode on the host)\n"
            "  --guest-base zero|window\n"
            "                      zero (the default): guest address A at host address A when the\n"
            "                      host has the guest's 1 TiB free (not under ASan), so generated\n"
            "                      code uses the guest's registers as addresses; window: always at\n"
            "                      a host-chosen base (the fallback of zero)\n"
            "  -d, --debug LIST    comma-separated: exc (log guest faults/exceptions), sig (log signal\n"
            "                      delivery), stats (translation statistics at exit)\n"
            "  --trace LIST        Capstone trace, comma-separated: in_asm (each block disassembled\n"
            "                      when translated), exec (each block as it runs)\n"
            "  --trace-range LO-HI only blocks overlapping guest addresses LO..HI\n"
            "  --trace-file FILE   write the trace to FILE (default stderr)\n"
            "  -h, --help          this help\n");
}

static bool debug_stats;
static CPUState *the_cpu;

static void print_stats(void)
{
    if (debug_stats && the_cpu)
        fprintf(stderr, "malibu-user: %llu guest instructions, %llu blocks translated (%llu compiled), %llu flushes\n",
                (unsigned long long)the_cpu->insn_count, (unsigned long long)the_cpu->tbc->n_translated,
                (unsigned long long)the_cpu->tbc->n_compiled,
                (unsigned long long)the_cpu->tbc->n_flushes);
}

/* An option with two words (--huge-pages on|off, --guest-base zero|window): *second is whether
 * val is the second; false, after the usage line, when it is neither. */
static bool two_words(const char *opt, const char *val, const char *first, const char *second, bool *is_second)
{
    if (strcmp(val, first) && strcmp(val, second)) {
        fprintf(stderr, "malibu-user: %s %s|%s\n", opt, first, second);
        return false;
    }
    *is_second = !strcmp(val, second);
    return true;
}

int main(int argc, char **argv)
{
    const char *sysroot = getenv("MALIBU_SYSROOT");
    bool sysroot_given = sysroot != NULL;
    unsigned compile_after = native_compile_after_default();
    const char *argv0 = NULL;
    int i = 1;
    /* environment edits */
    size_t envn = 0;
    while (environ[envn])
        envn++;
    char **env = calloc(envn + argc + 1, sizeof *env);
    memcpy(env, environ, envn * sizeof *env);

    TraceConfig trace;
    trace_config_default(&trace);
    user_proc.huge_pages = true;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDVAL() do { if (!val) { fprintf(stderr, "malibu-user: %s needs an argument\n", a); return 2; } i++; } while (0)
        if (!strcmp(a, "-L") || !strcmp(a, "--sysroot")) {
            NEEDVAL();
            sysroot = val;
            sysroot_given = true;
        } else if (!strncmp(a, "--sysroot=", 10)) {
            sysroot = a + 10;
            sysroot_given = true;
        } else if (!strcmp(a, "-0") || !strcmp(a, "--argv0")) {
            NEEDVAL();
            argv0 = val;
        } else if (!strcmp(a, "-B") || !strcmp(a, "--backend")) {
            NEEDVAL();
            if (strcmp(val, "native") && strcmp(val, "portable")) {
                fprintf(stderr, "malibu-user: --backend native|portable\n");
                return 2;
            }
            native_set_backend(!strcmp(val, "native") ? BACKEND_NATIVE : BACKEND_PORTABLE);
        } else if (!strcmp(a, "--compile-after")) {
            NEEDVAL();
            if (!native_parse_compile_after(val, &compile_after)) {
                fprintf(stderr, "malibu-user: --compile-after 1..%u\n", NATIVE_COMPILE_AFTER_MAX);
                return 2;
            }
        } else if (!strcmp(a, "--cpu")) {
            NEEDVAL();
            if (!cpu_model_set(val)) {
                fprintf(stderr, "malibu-user: --cpu a57|max\n");
                return 2;
            }
        } else if (!strcmp(a, "--huge-pages")) {
            NEEDVAL();
            bool off;
            if (!two_words(a, val, "on", "off", &off))
                return 2;
            user_proc.huge_pages = !off;
        } else if (!strcmp(a, "--guest-base")) {
            NEEDVAL();
            if (!two_words(a, val, "zero", "window", &user_proc.window_base))
                return 2;
        } else if (!strcmp(a, "-s") || !strcmp(a, "--strace") || !strcmp(a, "-strace")) {
            user_proc.strace = true;
        } else if (!strcmp(a, "-d") || !strcmp(a, "--debug")) {
            NEEDVAL();
            if (strstr(val, "exc"))
                user_proc.debug_exc = true;
            if (strstr(val, "sig"))
                user_proc.debug_sig = true;
            if (strstr(val, "stats"))
                debug_stats = true;
            if (strstr(val, "strace"))
                user_proc.strace = true;
        } else if (!strcmp(a, "-E")) {
            NEEDVAL();
            const char *eq = strchr(val, '=');
            size_t kl = eq ? (size_t)(eq - val) : strlen(val);
            size_t k;
            for (k = 0; k < envn; k++)
                if (!strncmp(env[k], val, kl) && env[k][kl] == '=')
                    break;
            env[k] = (char *)val;
            if (k == envn)
                envn++;
        } else if (!strcmp(a, "-U")) {
            NEEDVAL();
            size_t kl = strlen(val);
            for (size_t k = 0; k < envn; k++)
                if (!strncmp(env[k], val, kl) && env[k][kl] == '=') {
                    memmove(&env[k], &env[k + 1], (envn - k) * sizeof *env);
                    envn--;
                    break;
                }
        } else if (!strcmp(a, "--trace") || !strcmp(a, "--trace-range")) {
            NEEDVAL();
            char err[256];
            if (!(!strcmp(a, "--trace") ? trace_parse_list(&trace, val, err, sizeof err)
                                        : trace_parse_range(&trace, val, err, sizeof err))) {
                fprintf(stderr, "malibu-user: %s\n", err);
                return 2;
            }
        } else if (!strcmp(a, "--trace-file")) {
            NEEDVAL();
            trace.file = val;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "malibu-user: unknown option %s\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (i >= argc) {
        usage(stderr);
        return 2;
    }
    char terr[256];
    if ((trace.file || trace.lo || trace.hi != UINT64_MAX) && !trace.what) {
        fprintf(stderr, "malibu-user: --trace-file / --trace-range need --trace in_asm,exec\n");
        return 2;
    }
    if (trace.what && !trace_start(&trace, terr, sizeof terr)) {
        fprintf(stderr, "malibu-user: %s\n", terr);
        return 2;
    }
    if (user_proc.debug_exc)
        trace_disasm_enable();
    struct stat st;
    if (!sysroot_given && stat(DEFAULT_SYSROOT, &st) == 0 && S_ISDIR(st.st_mode))
        sysroot = DEFAULT_SYSROOT;
    if (sysroot && !*sysroot)
        sysroot = NULL;
    /* Absolute, so that it survives the guest's chdir() (and reaches exec'd programs intact). */
    static char sysroot_abs[4096];
    if (sysroot && realpath(sysroot, sysroot_abs))
        sysroot = sysroot_abs;
    user_proc.sysroot = sysroot;
    ssize_t n = readlink("/proc/self/exe", user_proc.self_exe, sizeof user_proc.self_exe - 1);
    if (n <= 0)
        snprintf(user_proc.self_exe, sizeof user_proc.self_exe, "%s", argv[0]);
    else
        user_proc.self_exe[n] = 0;

    int r = guest_mem_init(!user_proc.window_base);
    if (r < 0) {
        fprintf(stderr, "malibu-user: cannot reserve the guest address space: %s\n", strerror(-r));
        return 127;
    }
    CPUState *c = user_new_cpu(true);
    if (!c) {
        fprintf(stderr, "malibu-user: cannot allocate the translation cache\n");
        return 127;
    }
    guest_mem_set_current_cpu(c);
    guest_mem_register_cpu(c);
    the_cpu = c;
    if (debug_stats)
        user_proc.exit_hook = print_stats;
    native_set_insn_count(debug_stats); /* nothing else reads the count in user mode */
    native_set_compile_after(compile_after);

    const char *prog = argv[i];
    char **gargv = &argv[i];
    int gargc = argc - i;
    if (argv0)
        gargv[0] = (char *)argv0;
    r = user_load_program(c, prog, gargc, gargv, env);
    if (r < 0)
        return r == -ENOENT ? 127 : 126;
    signal_init(c);

    user_cpu_loop(c);
}
