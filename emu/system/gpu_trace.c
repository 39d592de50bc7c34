/* GPU fault reports and --gpu-trace jobs (gpu_trace.h).
 *
 * A fault report is one block on stderr, written at once: the chain (slot, address space, first
 * job), the running job, the MMU fault (when it happens, before the driver sees it) or the job's
 * exception (when the chain ends), the page-table walk of the faulting GPU VA, the descriptors of the failing job that hold or point into the
 * faulting page (word by word), then the failing job decoded with its shaders disassembled.
 * Memory is read through mali_gpu_map only: reporting never raises a GPU fault. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_trace.h"
#include "../../devices/board_gpu.h"
#include "../../devices/mali/mali.h"
#include "../../devices/mali/regs.h"
#include "../decode/job_print.h"
#include "mali_formats.h"

bool gpu_trace_parse(const char *list, bool *jobs, char *err, size_t errlen)
{
    if (!strcmp(list, "jobs")) {
        *jobs = true;
        return true;
    }
    snprintf(err, errlen, "unknown --gpu-trace item '%s' (jobs)", list);
    return false;
}

/* Write the memstream's text to stderr as one block, each line prefixed with "gpu: ". */
static void emit(char *text)
{
    size_t n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    char *out = malloc(strlen(text) + 5 * n + 8), *o = out;
    if (!out)
        return;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t l = end ? (size_t)(end - line) : strlen(line);
        if (!l) { /* the printer's blank lines between jobs */
            line += end ? 1 : 0;
            continue;
        }
        memcpy(o, "gpu: ", 5);
        memcpy(o + 5, line, l);
        o += 5 + l;
        *o++ = '\n';
        line += l + (end ? 1 : 0);
    }
    fflush(stdout);
    fwrite(out, 1, (size_t)(o - out), stderr);
    fflush(stderr);
    free(out);
}

static void trace_chain(void *opaque, MaliJobCtx *ctx, uint64_t head, unsigned as, unsigned arch_major)
{
    (void)opaque;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return;
    int problems = 0;
    fprintf(f, "== job chain from 0x%" PRIx64 ", address space %u, v%u descriptors\n", head, as, arch_major);
    unsigned jobs = mali_print_chain(f, arch_major, head, 64, mali_gpu_peek, ctx, "not readable", &problems);
    fprintf(f, "== %u job%s, %d problem%s\n", jobs, jobs == 1 ? "" : "s", problems, problems == 1 ? "" : "s");
    fclose(f);
    emit(text);
    free(text);
}

/* ---- fault report ---------------------------------------------------------------------------- */

typedef struct Finder {
    FILE *f;
    uint64_t fault;
    unsigned arch, hits;
} Finder;

/* A descriptor of the failing job that holds the faulting address, or a word of it that points
 * into the faulting page. */
static void find_visit(void *ctx, enum mali_desc_kind kind, uint64_t va, const uint8_t *b, size_t len,
                       unsigned index, unsigned depth)
{
    (void)depth;
    Finder *fd = ctx;
    if (fd->fault - va < len) {
        fprintf(fd->f, "  the faulting address is byte %" PRIu64 " of %s %u @ 0x%" PRIx64 "\n", fd->fault - va,
                mali_desc_name(kind), index, va);
        fd->hits++;
    }
    if (kind == MALI_DESC_SHADER || kind == MALI_DESC_PUSH_UNIFORMS)
        return; /* code and data, not pointers */
    for (size_t o = 0; o + 8 <= len; o += 8) {
        if (kind == MALI_DESC_JOB_HEADER && o == 8)
            continue; /* the fault pointer the GPU writes back */
        uint64_t p;
        memcpy(&p, b + o, 8);
        if (p && (p >> 12) == (fd->fault >> 12)) {
            fprintf(fd->f, "  %s %u @ 0x%" PRIx64 ", 64-bit word at byte %zu = 0x%" PRIx64
                    " points into the faulting page; the descriptor:\n", mali_desc_name(kind), index, va, o, p);
            mali_print_desc(fd->f, fd->arch, kind, va, b, len, index, 2);
            fd->hits++;
        }
    }
}

static const char *access_name(unsigned a)
{
    switch (a) {
    case MALI_ACCESS_READ: return "read";
    case MALI_ACCESS_WRITE: return "write";
    case MALI_ACCESS_EXECUTE: return "execute (shader fetch)";
    default: return "atomic";
    }
}

static void print_walk(FILE *f, MaliJobCtx *ctx, unsigned as, uint64_t va)
{
    MaliWalk w;
    mali_job_walk(ctx, va, &w);
    fprintf(f, "  page-table walk of 0x%" PRIx64 " in address space %u (TRANSTAB 0x%" PRIx64 "):\n", va, as, w.transtab);
    if (w.mode == AS_TRANSTAB_ADRMODE_IDENTITY)
        fprintf(f, "    identity mapping\n");
    else if (w.mode != AS_TRANSTAB_ADRMODE_TABLE)
        fprintf(f, "    address space not enabled (TRANSTAB mode %u)\n", w.mode);
    for (unsigned i = 0; i < w.n; i++) {
        uint64_t pte = w.step[i].pte, type = pte & PTE_TYPE_MASK;
        const char *what = (type == PTE_TYPE_TABLE && i < 3) ? "table" : type == PTE_TYPE_LEAF && i > 0
                                                                              ? (i == 3 ? "page" : "block")
                                                                              : "invalid";
        fprintf(f, "    level %u: entry %" PRIu64 " at PA 0x%" PRIx64 " = 0x%016" PRIx64 " (%s", i,
                (va >> (39 - 9 * i)) & 511, w.step[i].table, pte, what);
        if (type == PTE_TYPE_LEAF && i > 0)
            fprintf(f, ", %s%s%s", pte & PTE_READ ? "r" : "-", pte & PTE_WRITE ? "w" : "-",
                    (pte & PTE_XN) ? "-" : "x");
        fprintf(f, ")\n");
    }
    if (w.code)
        fprintf(f, "    -> %s (0x%02x)\n", mali_exc_name(w.code), w.code);
    else
        fprintf(f, "    -> PA 0x%" PRIx64 "\n", w.pa);
}

static void fault_report(void *opaque, MaliJobCtx *ctx, const MaliFaultInfo *fi)
{
    (void)opaque;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return;
    fprintf(f, "GPU %s fault: job slot %u, address space %u, chain from job 0x%" PRIx64 ", job 0x%" PRIx64 "\n",
            fi->mmu_fault ? "MMU" : "job", fi->slot, fi->as, fi->head, fi->job_va);
    uint64_t va = fi->fault_va;
    if (fi->mmu_fault) {
        fprintf(f, "  %s (0x%02x) on a %s at GPU VA 0x%" PRIx64 "\n", mali_exc_name(fi->mmu_code),
                fi->mmu_code, access_name(fi->mmu_access), fi->mmu_va);
        if ((fi->mmu_code & 0xF8) == 0xC0)
            fprintf(f, "  (reported before the driver sees it: a translation fault it may still resolve, "
                       "as for a growable heap)\n");
        va = fi->mmu_va;
    } else {
        fprintf(f, "  the job ended with %s (0x%02x), fault address 0x%" PRIx64 "\n", mali_exc_name(fi->status),
                fi->status, fi->fault_va);
    }
    print_walk(f, ctx, fi->as, va);
    Finder fd = { .f = f, .fault = va, .arch = fi->arch_major };
    mali_walk w = { .read = mali_gpu_peek, .read_ctx = ctx, .visit = find_visit, .visit_ctx = &fd };
    mali_walk_chain(&w, fi->job_va, 1);
    if (!fd.hits)
        fprintf(f, "  no descriptor of the job holds or points into that page: an address the shader computed\n");
    fprintf(f, "  the failing job, decoded:\n");
    mali_print_chain(f, fi->arch_major, fi->job_va, 1, mali_gpu_peek, ctx, "not readable", NULL);
    fclose(f);
    emit(text);
    free(text);
}

void gpu_trace_taps(bool jobs, MaliChainFn *chain, MaliFaultFn *fault)
{
    *chain = jobs ? trace_chain : NULL;
    *fault = fault_report;
}
