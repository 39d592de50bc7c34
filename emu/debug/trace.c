/* Capstone instruction traces (trace.h).  The guest's bytes are read back through the runtime's
 * instruction fetch (env_fetch_insn: the user window or the soft TLB), right after translation
 * or just before the block runs, so they are the bytes the translator saw. */
#include <capstone/capstone.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace.h"
#include "cpu.h"
#include "env.h"
#include "tb.h"

static TraceConfig cfg;
static FILE *out;
static pthread_mutex_t cs_lock = PTHREAD_MUTEX_INITIALIZER; /* a capstone handle per process */
static csh cs;
static bool cs_ok;

void trace_config_default(TraceConfig *t)
{
    memset(t, 0, sizeof *t);
    t->hi = UINT64_MAX;
}

bool trace_parse_list(TraceConfig *t, const char *list, char *err, size_t errlen)
{
    char *copy = strdup(list), *save = NULL;
    bool ok = true;
    for (char *w = strtok_r(copy, ",", &save); w && ok; w = strtok_r(NULL, ",", &save)) {
        if (!strcmp(w, "in_asm"))
            t->what |= TRACE_IN_ASM;
        else if (!strcmp(w, "exec"))
            t->what |= TRACE_EXEC;
        else {
            snprintf(err, errlen, "unknown --trace item '%s' (in_asm, exec)", w);
            ok = false;
        }
    }
    free(copy);
    if (ok && !t->what) {
        snprintf(err, errlen, "--trace needs in_asm and/or exec");
        ok = false;
    }
    return ok;
}

bool trace_parse_range(TraceConfig *t, const char *range, char *err, size_t errlen)
{
    char *end;
    uint64_t lo = strtoull(range, &end, 0), hi;
    if (end == range || *end != '-')
        goto bad;
    const char *h = end + 1;
    hi = strtoull(h, &end, 0);
    if (end == h || *end || hi < lo)
        goto bad;
    t->lo = lo;
    t->hi = hi;
    return true;
bad:
    snprintf(err, errlen, "--trace-range %s: expected LO-HI (e.g. 0xffff800080000000-0xffff8000800fffff)", range);
    return false;
}

static bool cs_init(void)
{
    pthread_mutex_lock(&cs_lock);
    if (!cs_ok && cs_open(CS_ARCH_ARM64, CS_MODE_ARM, &cs) == CS_ERR_OK)
        cs_ok = true;
    pthread_mutex_unlock(&cs_lock);
    return cs_ok;
}

void trace_disasm(uint32_t insn, uint64_t pc, char *buf, size_t n)
{
    uint8_t bytes[4];
    memcpy(bytes, &insn, 4); /* little-endian host and guest */
    cs_insn *ci = NULL;
    pthread_mutex_lock(&cs_lock);
    size_t k = cs_ok ? cs_disasm(cs, bytes, 4, pc, 1, &ci) : 0;
    if (k)
        snprintf(buf, n, "%s%s%s", ci->mnemonic, ci->op_str[0] ? " " : "", ci->op_str);
    else
        snprintf(buf, n, "(unknown)");
    if (ci)
        cs_free(ci, k);
    pthread_mutex_unlock(&cs_lock);
}

static bool disasm_hook(uint32_t insn, uint64_t pc, char *buf, size_t n)
{
    trace_disasm(insn, pc, buf, n);
    return true;
}

bool trace_disasm_enable(void)
{
    if (!cs_init())
        return false;
    cpu_disasm = disasm_hook;
    return true;
}

static bool in_range(const TB *tb)
{
    return tb->pc <= cfg.hi && tb->end_pc > cfg.lo;
}

static void translated(CPUState *c, const TB *tb)
{
    if (!in_range(tb))
        return;
    char text[160];
    flockfile(out);
    fprintf(out, "IN: 0x%016" PRIx64 " (%u insns)\n", tb->pc, tb->n_insns);
    for (uint64_t pc = tb->pc; pc < tb->end_pc; pc += 4) {
        uint32_t insn;
        if (!env_fetch_insn(c, pc, &insn)) {
            fprintf(out, "  0x%016" PRIx64 ":  (not readable)\n", pc);
            break;
        }
        trace_disasm(insn, pc, text, sizeof text);
        fprintf(out, "  0x%016" PRIx64 ":  %08x  %s\n", pc, insn, text);
    }
    fputc('\n', out);
    fflush(out); /* a killed malibu keeps its trace */
    funlockfile(out);
}

static void exec(CPUState *c, const TB *tb)
{
    (void)c;
    if (in_range(tb)) {
        fprintf(out, "Trace: 0x%016" PRIx64 " (%u insns)\n", tb->pc, tb->n_insns);
        fflush(out);
    }
}

bool trace_start(const TraceConfig *t, char *err, size_t errlen)
{
    cfg = *t;
    out = stderr;
    if (t->file && !(out = fopen(t->file, "w"))) {
        snprintf(err, errlen, "--trace-file %s: cannot open for writing", t->file);
        out = stderr;
        return false;
    }
    if (!cs_init()) {
        snprintf(err, errlen, "--trace: Capstone has no AArch64 disassembler");
        return false;
    }
    if (t->what & TRACE_IN_ASM)
        cpu_trace_translated = translated;
    if (t->what & TRACE_EXEC)
        cpu_trace_exec = exec;
    return true;
}
