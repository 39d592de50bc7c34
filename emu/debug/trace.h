/* Instruction traces with Capstone, for malibu and malibu-user:
 *   --trace in_asm   each block disassembled when it is translated ("IN:" blocks)
 *   --trace exec     each block when it runs ("Trace:" lines; chaining is off meanwhile)
 *   --trace-range LO-HI   only blocks that overlap guest addresses [LO, HI]
 *   --trace-file FILE     the trace goes to FILE instead of stderr
 * and the disassembled instruction in --debug exc's exception lines (trace_disasm_enable). */
#ifndef MALIBU_TRACE_H
#define MALIBU_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { TRACE_IN_ASM = 1, TRACE_EXEC = 2 };

typedef struct TraceConfig {
    unsigned what;            /* TRACE_* */
    const char *file;         /* NULL: stderr */
    uint64_t lo, hi;          /* PC range (inclusive) */
} TraceConfig;

void trace_config_default(TraceConfig *t);
/* "in_asm,exec" -> t->what; "LO-HI" (C numbers) -> t->lo/hi.  false with a message in err. */
bool trace_parse_list(TraceConfig *t, const char *list, char *err, size_t errlen);
bool trace_parse_range(TraceConfig *t, const char *range, char *err, size_t errlen);
/* Open the output and install the CPU's hooks (cpu.h).  false with a message in err. */
bool trace_start(const TraceConfig *t, char *err, size_t errlen);
/* Install cpu_disasm (the exception logs' disassembly). */
bool trace_disasm_enable(void);
/* One A64 instruction as text ("mov x0, x1"); "(unknown)" when Capstone cannot decode it. */
void trace_disasm(uint32_t insn, uint64_t pc, char *buf, size_t n);

#endif
