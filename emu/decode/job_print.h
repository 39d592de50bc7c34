/* Mali job chains as text: every descriptor the job-chain walker (emu/gpu/job_walk.h) reaches,
 * with its fields named (generated from isa/mali/bifrost.fmt) and shaders disassembled.  Used by
 * build/malibu-decode on --gpu-dump files and by build/malibu live (--gpu-trace jobs, GPU fault
 * reports: emu/system/gpu_trace.c). */
#ifndef MALIBU_JOB_PRINT_H
#define MALIBU_JOB_PRINT_H

#include <stdint.h>
#include <stdio.h>
#include "../gpu/job_walk.h"

/* Prints the chain from head (at most max_jobs jobs) read through read/ctx; a descriptor read
 * cannot reach is printed as "<kind> <index> @ <va>: <missing_why>".  Returns the jobs printed;
 * *problems (if not NULL) = descriptors unreadable or with reserved bits set. */
unsigned mali_print_chain(FILE *f, unsigned arch, uint64_t head, unsigned max_jobs,
                          int (*read)(void *ctx, uint64_t va, void *buf, size_t len), void *ctx,
                          const char *missing_why, int *problems);
/* One descriptor, as the chain printer shows it (depth: indentation level). */
void mali_print_desc(FILE *f, unsigned arch, enum mali_desc_kind kind, uint64_t va, const uint8_t *bytes,
                     size_t len, unsigned index, unsigned depth);

#endif
