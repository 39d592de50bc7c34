/* The option table (options.c) as the OPTIONS section of malibu(1) and as the table of the bash
 * completion: both are generated from it at build time (mk/install.mk), so a new option has its
 * manual entry and its completion without anyone writing them; tests/install checks both. */
#include "options.h"
#include "../../devices/board_gpu.h"
#include "../timing/timing.h"

#include <string.h>

/* roff text: backslashes doubled, a line starting with . or ' kept as text */
static void roff_text(FILE *f, const char *s, bool minus)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", f);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-' && minus)
            fputs("\\-", f);
        else
            fputc(*s, f);
    }
}

void options_print_man(FILE *f)
{
    OptionInfo o;
    for (unsigned i = 0; options_info(i, &o); i++) {
        fputs(".TP\n", f);
        if (o.short_name)
            fprintf(f, "\\fB\\-%c\\fR%s", o.short_name, o.name ? ", " : "");
        if (o.name) {
            fputs("\\fB\\-\\-", f);
            roff_text(f, o.name, true);
            fputs("\\fR", f);
        }
        if (o.arg) {
            fputs(" \\fI", f);
            roff_text(f, o.arg, true);
            fputs("\\fR", f);
        }
        fputc('\n', f);
        roff_text(f, o.help, false);
        fputc('\n', f);
        if (o.doc) {
            fputs("(More: \\fI", f);
            roff_text(f, o.doc, false);
            fputs("\\fR in malibu's sources.)\n", f);
        }
    }
}

/* the values of --gpu: BOARD_GPU_MODELS, "g71|g72|g52|none" */
static void print_gpu_models(FILE *f)
{
    for (const char *p = BOARD_GPU_MODELS; *p; p++)
        fputc(*p == '|' ? ' ' : *p, f);
}

static void print_timing_keys(FILE *f)
{
    char key[64];
    for (unsigned i = 0; tm_config_key(i, key, sizeof key); i++)
        fprintf(f, "%s%s=", i ? " " : "", key);
}

/* What the option's argument is, for the completion: flag (none), file, dir, image (a directory
 * or an image name), words (one of), list (comma-separated), keys (KEY=VALUE,...), free. */
static const char *arg_kind(const OptionInfo *o)
{
    if (!o->arg)
        return "flag";
    if (o->values == OPTION_VALUES_TIMING)
        return "keys";
    if (o->values == OPTION_VALUES_GPU || o->values == OPTION_VALUES_CHOICES)
        return o->list ? "list" : "words";
    if (o->name && !strcmp(o->name, "image"))
        return "image";
    if (strstr(o->arg, "FILE"))
        return "file";
    if (strstr(o->arg, "DIR"))
        return "dir";
    return "free";
}

void options_print_completion(FILE *f)
{
    OptionInfo o;
    fputs("# malibu's options and their values: `malibu --help-completion`, from the option table of\n"
          "# emu/system/options.c\n_malibu_options='", f);
    for (unsigned i = 0; options_info(i, &o); i++) {
        if (o.short_name)
            fprintf(f, "%s-%c", i ? " " : "", o.short_name);
        if (o.name)
            fprintf(f, "%s--%s", i || o.short_name ? " " : "", o.name);
    }
    fputs("'\n# _malibu_option_arg OPTION: the kind of its argument, then the words it takes\n"
          "_malibu_option_arg() {\n    case $1 in\n", f);
    for (unsigned i = 0; options_info(i, &o); i++) {
        fputs("    ", f);
        if (o.short_name)
            fprintf(f, "-%c%s", o.short_name, o.name ? "|" : "");
        if (o.name)
            fprintf(f, "--%s", o.name);
        fprintf(f, ") echo '%s", arg_kind(&o));
        if (o.values == OPTION_VALUES_GPU) {
            fputc(' ', f);
            print_gpu_models(f);
        } else if (o.values == OPTION_VALUES_TIMING) {
            fputc(' ', f);
            print_timing_keys(f);
        } else if (o.values == OPTION_VALUES_CHOICES) {
            for (unsigned c = 0; o.choices[c]; c++)
                fprintf(f, " %s", o.choices[c]);
        }
        fputs("' ;;\n", f);
    }
    fputs("    *) echo unknown ;;\n    esac\n}\n", f);
}
