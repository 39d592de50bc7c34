/* GPU part of the report: JSON (gpu.kernels, gpu.shader_jobs, gpu.totals), text summary and test
 * queries, all over a view of the registry (stats_gpu_prog.c). */
#include "stats.h"
#include "stats_gpu_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "compute.h"

typedef struct {
    uint64_t clauses, execs, lanes, warp_instrs, thread_instrs, diverged, partial, branch_execs;
    uint64_t cls[SC_N][2], data[SD_N][2];
    uint64_t size_dyn[9], size_static[9];
} gtotals;

static void add_totals(gtotals *T, const struct stats_gclause *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct stats_gclause *g = &c[i];
        T->clauses++;
        T->execs += g->execs;
        T->lanes += g->lanes;
        T->warp_instrs += g->info.instrs * g->execs;
        T->thread_instrs += g->info.instrs * g->lanes;
        T->diverged += g->diverged;
        T->partial += g->partial;
        if (g->info.has_branch)
            T->branch_execs += g->execs;
        for (unsigned k = 0; k < SC_N; k++) {
            T->cls[k][0] += g->info.cls[k] * g->execs;
            T->cls[k][1] += g->info.cls[k] * g->lanes;
        }
        for (unsigned k = 0; k < SD_N; k++) {
            T->data[k][0] += g->info.data[k] * g->execs;
            T->data[k][1] += g->info.data[k] * g->lanes;
        }
        unsigned s = g->info.tuples <= 8 ? g->info.tuples : 8;
        T->size_dyn[s] += g->execs;
        T->size_static[s]++;
    }
}

static void write_totals(FILE *f, const gtotals *T, const char *in)
{
    fprintf(f, "{\n%s  \"clauses\": %" PRIu64 ",\n%s  \"clause_executions\": %" PRIu64
               ",\n%s  \"thread_clause_executions\": %" PRIu64 ",\n%s  \"warp_instructions\": %" PRIu64
               ",\n%s  \"thread_instructions\": %" PRIu64 ",\n",
            in, T->clauses, in, T->execs, in, T->lanes, in, T->warp_instrs, in, T->thread_instrs);
    fprintf(f, "%s  \"instruction_mix\": {", in);
    for (unsigned k = 0; k < SC_N; k++)
        fprintf(f, "%s\n%s    \"%s\": {\"warp\": %" PRIu64 ", \"thread\": %" PRIu64 "}", k ? "," : "", in,
                sc_class_names[k], T->cls[k][0], T->cls[k][1]);
    fprintf(f, "\n%s  },\n%s  \"data\": {", in, in);
    for (unsigned k = 0; k < SD_N; k++)
        fprintf(f, "%s\n%s    \"%s\": {\"warp\": %" PRIu64 ", \"thread\": %" PRIu64 "}", k ? "," : "", in,
                sd_names[k], T->data[k][0], T->data[k][1]);
    fprintf(f, "\n%s  },\n%s  \"clause_sizes\": {", in, in);
    for (unsigned s = 1; s <= 8; s++)
        fprintf(f, "%s\"%u\": {\"executions\": %" PRIu64 ", \"clauses\": %" PRIu64 "}", s > 1 ? ", " : "", s,
                T->size_dyn[s], T->size_static[s]);
    fprintf(f, "},\n%s  \"divergence\": {\"branch_clause_executions\": %" PRIu64
               ", \"divergent_executions\": %" PRIu64 ", \"partial_warp_executions\": %" PRIu64 "}\n%s}",
            in, T->branch_execs, T->diverged, T->partial, in);
}

static const char *stage_name(unsigned stage)
{
    return stage < GPU_STAGES ? gpu_stage_names[stage] : "unknown";
}

/* the stage a kernel ran as: its first job's */
static unsigned kernel_stage(const sg_view *v, size_t id)
{
    size_t j = v->k[id].first_job;
    return j < v->njobs ? v->jobs[j].stage : GPU_STAGE_COMPUTE;
}

static void edge_name(char *buf, size_t len, uint32_t to)
{
    if (to == SG_EXIT)
        snprintf(buf, len, "exit");
    else if (to == SG_OTHER)
        snprintf(buf, len, "other");
    else
        snprintf(buf, len, "%u", to);
}

/* Graphviz CFG of a kernel: one node per clause (pc, tuples, executions), edges labelled with
 * thread counts (and warps); clauses where warps diverged are drawn red. */
static void write_dot(FILE *f, const sg_kernel *K, const char *name)
{
    fprintf(f, "digraph \"%s\" {\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n"
               "  edge [fontname=\"sans-serif\", fontsize=9];\n", name);
    for (size_t i = 0; i < K->n; i++) {
        const struct stats_gclause *g = &K->c[i];
        fprintf(f, "  c%u [label=\"clause %u\\n%u tuples, %u instrs\\n%" PRIu64 " execs, %" PRIu64 " threads",
                g->pc, g->pc, g->info.tuples, g->info.instrs, g->execs, g->lanes);
        if (g->diverged)
            fprintf(f, "\\ndiverged %" PRIu64 "/%" PRIu64 "\", color=red, fontcolor=red];\n", g->diverged, g->execs);
        else
            fprintf(f, "\"];\n");
    }
    int has_exit = 0, has_other = 0;
    for (size_t i = 0; i < K->n; i++) {
        const struct stats_gclause *g = &K->c[i];
        for (unsigned j = 0; j < g->nedges; j++) {
            char to[32];
            edge_name(to, sizeof(to), g->e[j].to);
            has_exit |= g->e[j].to == SG_EXIT;
            has_other |= g->e[j].to == SG_OTHER;
            fprintf(f, "  c%u -> %s%s [label=\"%" PRIu64 " thr / %" PRIu64 " warps\"%s];\n", g->pc,
                    g->e[j].to >= SG_OTHER ? "" : "c", to, g->e[j].threads, g->e[j].warps,
                    g->diverged && g->nedges > 1 ? ", color=red" : "");
        }
    }
    if (has_exit)
        fprintf(f, "  exit [shape=oval];\n");
    if (has_other)
        fprintf(f, "  other [shape=oval, label=\"other targets\"];\n");
    fprintf(f, "}\n");
}

/* The kernel's name: the runner's, else shader@VA/asN of its first job, else programN. */
static void kernel_name(char *buf, size_t len, const sg_view *v, size_t id)
{
    const sg_kernel *K = &v->k[id];
    const sg_jobinfo *j = K->first_job < v->njobs ? &v->jobs[K->first_job] : NULL;
    if (j && j->name)
        snprintf(buf, len, "%s", j->name);
    else if (j && j->announced)
        snprintf(buf, len, "shader@0x%" PRIx64 "/as%u", j->shader_va, j->as);
    else
        snprintf(buf, len, "program%zu", id);
}

static void write_kernel(FILE *f, const sg_view *v, size_t id, const char *in)
{
    const sg_kernel *K = &v->k[id];
    const sg_jobinfo *fj = K->first_job < v->njobs ? &v->jobs[K->first_job] : NULL;
    char name[160];
    kernel_name(name, sizeof(name), v, id);
    gtotals T = { 0 };
    add_totals(&T, K->c, K->n);
    fprintf(f, "%s\n%s  {\n%s    \"id\": %zu,\n%s    \"name\": ", id ? "," : "", in, in, id, in);
    stats_json_string(f, name);
    fprintf(f, ",\n%s    \"code_hash\": \"%016" PRIx64 "\",\n%s    \"code_bytes\": %" PRIu64
               ",\n%s    \"code_clauses\": %u",
            in, K->hash, in, K->bytes, in, K->nclauses_code);
    if (fj && fj->announced)
        fprintf(f, ",\n%s    \"shader_va\": %" PRIu64 ",\n%s    \"as\": %u,\n%s    \"job_type\": %u,\n%s    "
                   "\"stage\": \"%s\"", in, fj->shader_va, in, fj->as, in, fj->type, in, stage_name(fj->stage));
    else
        fprintf(f, ",\n%s    \"shader_va\": null,\n%s    \"as\": null,\n%s    \"job_type\": null", in, in, in);
    fprintf(f, ",\n%s    \"jobs\": %" PRIu64 ",\n%s    \"job_ids\": [", in, K->njobs, in);
    size_t listed = 0;
    for (size_t j = 0; j < v->njobs && j < STATS_JOB_LIST_MAX; j++)
        if (v->jobs[j].kernel == (int64_t)id)
            fprintf(f, "%s%zu", listed++ ? ", " : "", j);
    fprintf(f, "],\n%s    \"lanes_per_warp\": %u,\n%s    \"totals\": ", in, K->lanes_per_warp, in);
    char in2[64];
    snprintf(in2, sizeof(in2), "%s    ", in);
    write_totals(f, &T, in2);
    fprintf(f, ",\n%s    \"clauses\": [", in);
    for (size_t j = 0; j < K->n; j++) {
        const struct stats_gclause *g = &K->c[j];
        fprintf(f, "%s\n%s      {\"pc\": %u, \"size\": %u, \"header\": %" PRIu64 ", \"tuples\": %u, \"constants\": %u, "
                   "\"end\": %s, \"branch\": %s, \"instructions\": %u,\n%s       \"executions\": %" PRIu64
                   ", \"active_lanes\": %" PRIu64 ", \"divergent_executions\": %" PRIu64
                   ", \"partial_warp_executions\": %" PRIu64 ",\n%s       \"classes\": {",
                j ? "," : "", in, g->pc, g->size, g->header, g->info.tuples, g->info.constants,
                g->info.end ? "true" : "false", g->info.has_branch ? "true" : "false", g->info.instrs, in, g->execs,
                g->lanes, g->diverged, g->partial, in);
        int first = 1;
        for (unsigned c = 0; c < SC_N; c++)
            if (g->info.cls[c]) {
                fprintf(f, "%s\"%s\": %u", first ? "" : ", ", sc_class_names[c], g->info.cls[c]);
                first = 0;
            }
        fprintf(f, "},\n%s       \"data\": {", in);
        first = 1;
        for (unsigned c = 0; c < SD_N; c++)
            if (g->info.data[c]) {
                fprintf(f, "%s\"%s\": %u", first ? "" : ", ", sd_names[c], g->info.data[c]);
                first = 0;
            }
        fprintf(f, "},\n%s       \"edges\": [", in);
        for (unsigned e = 0; e < g->nedges; e++) {
            char to[32];
            edge_name(to, sizeof(to), g->e[e].to);
            fprintf(f, "%s{\"to\": ", e ? ", " : "");
            if (g->e[e].to >= SG_OTHER)
                fprintf(f, "\"%s\"", to);
            else
                fprintf(f, "%s", to);
            fprintf(f, ", \"threads\": %" PRIu64 ", \"warps\": %" PRIu64 "}", g->e[e].threads, g->e[e].warps);
        }
        fprintf(f, "]}");
    }
    fprintf(f, "\n%s    ],\n%s    \"cfg_dot\": ", in, in);
    char *dot = NULL;
    size_t dotlen = 0;
    FILE *df = open_memstream(&dot, &dotlen);
    if (df) {
        write_dot(df, K, name);
        fclose(df);
        stats_json_string(f, dot);
        free(dot);
    } else {
        fprintf(f, "null");
    }
    fprintf(f, "\n%s  }", in);
}

static void write_job(FILE *f, const sg_view *v, size_t id, const char *in)
{
    const sg_jobinfo *j = &v->jobs[id];
    fprintf(f, "%s\n%s  {\"id\": %zu, \"kernel\": ", id ? "," : "", in, id);
    if (j->kernel >= 0)
        fprintf(f, "%" PRId64, j->kernel);
    else
        fprintf(f, "null");
    if (j->announced)
        fprintf(f, ", \"shader_va\": %" PRIu64 ", \"as\": %u, \"job_type\": %u, \"stage\": \"%s\"", j->shader_va, j->as,
                j->type, stage_name(j->stage));
    else
        fprintf(f, ", \"shader_va\": null, \"as\": null, \"job_type\": null");
    if (j->name) {
        fprintf(f, ", \"name\": ");
        stats_json_string(f, j->name);
    }
    if (j->ended)
        fprintf(f, ", \"status\": %u", j->status);
    else
        fprintf(f, ", \"status\": null");
    fprintf(f, ",\n%s   \"clause_executions\": %" PRIu64 ", \"thread_clause_executions\": %" PRIu64
               ", \"warp_instructions\": %" PRIu64 ", \"thread_instructions\": %" PRIu64 "}",
            in, j->execs, j->lanes, j->warp_instrs, j->thread_instrs);
}

void sg_write_json(FILE *f, const char *in)
{
    sg_view v;
    sg_view_build(&v, sg_threads());
    gtotals all = { 0 };
    fprintf(f, "\"kernels\": [");
    for (size_t i = 0; i < v.nk; i++) {
        add_totals(&all, v.k[i].c, v.k[i].n);
        write_kernel(f, &v, i, in);
    }
    fprintf(f, "%s],\n%s\"shader_jobs\": [", v.nk ? "\n" : "", in);
    size_t listed = v.njobs < STATS_JOB_LIST_MAX ? v.njobs : STATS_JOB_LIST_MAX;
    for (size_t i = 0; i < listed; i++)
        write_job(f, &v, i, in);
    fprintf(f, "%s],\n%s\"shader_jobs_omitted\": %zu,\n%s\"totals\": ", listed ? "\n" : "", in, v.njobs - listed, in);
    write_totals(f, &all, in);
    /* per shader stage: the kernels of each stage summed (stages no kernel ran: left out) */
    char in2[64];
    snprintf(in2, sizeof(in2), "%s  ", in);
    fprintf(f, ",\n%s\"stages\": {", in);
    int first = 1;
    for (unsigned st = 0; st < GPU_STAGES; st++) {
        gtotals S = { 0 };
        size_t nk = 0;
        for (size_t i = 0; i < v.nk; i++)
            if (kernel_stage(&v, i) == st) {
                add_totals(&S, v.k[i].c, v.k[i].n);
                nk++;
            }
        if (!nk)
            continue;
        fprintf(f, "%s\n%s  \"%s\": ", first ? "" : ",", in, gpu_stage_names[st]);
        write_totals(f, &S, in2);
        first = 0;
    }
    fprintf(f, "%s%s}", first ? "" : "\n", first ? "" : in);
    sg_view_free(&v);
}

void sg_summary(FILE *f)
{
    sg_view v;
    sg_view_build(&v, sg_threads());
    gtotals all = { 0 };
    for (size_t i = 0; i < v.nk; i++)
        add_totals(&all, v.k[i].c, v.k[i].n);
    if (v.nk) {
        fprintf(f, "  gpu: %zu kernel%s, %" PRIu64 " clauses, %" PRIu64 " clause executions (%" PRIu64
                   " thread), %" PRIu64 " warp instructions (%" PRIu64 " thread), %" PRIu64 " empty slots, %"
                   PRIu64 " divergent of %" PRIu64 " branch-clause executions\n",
                v.nk, v.nk == 1 ? "" : "s", all.clauses, all.execs, all.lanes, all.warp_instrs, all.thread_instrs,
                all.cls[SC_NOP_FMA][0] + all.cls[SC_NOP_ADD][0], all.diverged, all.branch_execs);
        fprintf(f, "  gpu mix (warp):");
        for (unsigned c = 0; c < SC_N; c++)
            if (all.cls[c][0])
                fprintf(f, " %s=%" PRIu64, sc_class_names[c], all.cls[c][0]);
        fprintf(f, "\n");
        for (unsigned st = 0; st < GPU_STAGES; st++) {
            gtotals S = { 0 };
            size_t nk = 0;
            for (size_t i = 0; i < v.nk; i++)
                if (kernel_stage(&v, i) == st) {
                    add_totals(&S, v.k[i].c, v.k[i].n);
                    nk++;
                }
            if (!nk)
                continue;
            fprintf(f, "  gpu stage %s: %zu kernel%s, %" PRIu64 " thread instructions; mix (thread):", gpu_stage_names[st], nk,
                    nk == 1 ? "" : "s", S.thread_instrs);
            for (unsigned c = 0; c < SC_N; c++)
                if (S.cls[c][1])
                    fprintf(f, " %s=%" PRIu64, sc_class_names[c], S.cls[c][1]);
            fprintf(f, "\n");
        }
    }
    for (size_t i = 0; i < v.nk && i < 16; i++) {
        char name[160];
        kernel_name(name, sizeof(name), &v, i);
        gtotals T = { 0 };
        add_totals(&T, v.k[i].c, v.k[i].n);
        fprintf(f, "  gpu kernel %zu: %s code %016" PRIx64 " (%u clauses, %" PRIu64 " bytes): %" PRIu64 " job%s, %"
                   PRIu64 " clause executions, %" PRIu64 " thread instructions\n",
                i, name, v.k[i].hash, v.k[i].nclauses_code, v.k[i].bytes, v.k[i].njobs, v.k[i].njobs == 1 ? "" : "s",
                T.execs, T.thread_instrs);
    }
    if (v.nk > 16)
        fprintf(f, "  gpu: %zu more kernels in the JSON report\n", v.nk - 16);
    sg_view_free(&v);
}

void sg_write_job_range(FILE *f, const char *in, const sg_view *v, size_t first, size_t end)
{
    sg_jobinfo T = { 0 };
    size_t n = 0;
    for (size_t i = first; i < end && i < v->njobs; i++, n++) {
        const sg_jobinfo *j = &v->jobs[i];
        T.execs += j->execs;
        T.lanes += j->lanes;
        T.warp_instrs += j->warp_instrs;
        T.thread_instrs += j->thread_instrs;
        for (unsigned k = 0; k < SC_N; k++) {
            T.cls[k][0] += j->cls[k][0];
            T.cls[k][1] += j->cls[k][1];
        }
        for (unsigned k = 0; k < SD_N; k++) {
            T.data[k][0] += j->data[k][0];
            T.data[k][1] += j->data[k][1];
        }
        T.diverged += j->diverged;
        T.partial += j->partial;
        T.branch_execs += j->branch_execs;
    }
    fprintf(f, "{\"jobs\": %zu, \"clause_executions\": %" PRIu64 ", \"thread_clause_executions\": %" PRIu64
               ", \"warp_instructions\": %" PRIu64 ", \"thread_instructions\": %" PRIu64 ",\n%s  \"instruction_mix\": {",
            n, T.execs, T.lanes, T.warp_instrs, T.thread_instrs, in);
    for (unsigned k = 0; k < SC_N; k++)
        fprintf(f, "%s\"%s\": {\"warp\": %" PRIu64 ", \"thread\": %" PRIu64 "}", k ? ", " : "", sc_class_names[k],
                T.cls[k][0], T.cls[k][1]);
    fprintf(f, "},\n%s  \"data\": {", in);
    for (unsigned k = 0; k < SD_N; k++)
        fprintf(f, "%s\"%s\": {\"warp\": %" PRIu64 ", \"thread\": %" PRIu64 "}", k ? ", " : "", sd_names[k],
                T.data[k][0], T.data[k][1]);
    fprintf(f, "},\n%s  \"divergence\": {\"branch_clause_executions\": %" PRIu64 ", \"divergent_executions\": %" PRIu64
               ", \"partial_warp_executions\": %" PRIu64 "}}",
            in, T.branch_execs, T.diverged, T.partial);
}

/* ---- queries (tests) ------------------------------------------------------------------------- */

int stats_gpu_get_clause(const void *prog, uint32_t pc, stats_gpu_clause_totals *out)
{
    sg_view v;
    sg_view_build(&v, sg_threads());
    int found = -1;
    memset(out, 0, sizeof(*out));
    int64_t k = sg_view_kernel_of(&v, prog);
    for (size_t j = 0; k >= 0 && j < v.k[k].n; j++) {
        const struct stats_gclause *g = &v.k[k].c[j];
        if (g->pc != pc)
            continue;
        out->execs = g->execs;
        out->lanes = g->lanes;
        out->diverged = g->diverged;
        out->partial = g->partial;
        out->info = g->info;
        out->nedges = g->nedges;
        for (unsigned e = 0; e < g->nedges; e++) {
            out->edge_to[e] = g->e[e].to;
            out->edge_threads[e] = g->e[e].threads;
            out->edge_warps[e] = g->e[e].warps;
        }
        found = 0;
    }
    sg_view_free(&v);
    return found;
}

void stats_gpu_get_totals(stats_gpu_totals *out)
{
    sg_view v;
    sg_view_build(&v, sg_threads());
    gtotals T = { 0 };
    for (size_t i = 0; i < v.nk; i++)
        add_totals(&T, v.k[i].c, v.k[i].n);
    out->kernels = v.nk;
    out->jobs = v.njobs;
    out->clauses = T.clauses;
    out->execs = T.execs;
    out->lanes = T.lanes;
    out->warp_instrs = T.warp_instrs;
    out->thread_instrs = T.thread_instrs;
    out->diverged = T.diverged;
    out->partial = T.partial;
    for (unsigned c = 0; c < SC_N; c++)
        out->cls[c] = T.cls[c][1];
    for (unsigned c = 0; c < SD_N; c++)
        out->data[c] = T.data[c][1];
    sg_view_free(&v);
}

void stats_gpu_get_stage_totals(unsigned stage, stats_gpu_totals *out)
{
    sg_view v;
    sg_view_build(&v, sg_threads());
    gtotals T = { 0 };
    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < v.nk; i++)
        if (kernel_stage(&v, i) == stage) {
            add_totals(&T, v.k[i].c, v.k[i].n);
            out->kernels++;
        }
    out->clauses = T.clauses;
    out->execs = T.execs;
    out->lanes = T.lanes;
    out->warp_instrs = T.warp_instrs;
    out->thread_instrs = T.thread_instrs;
    out->diverged = T.diverged;
    out->partial = T.partial;
    for (unsigned c = 0; c < SC_N; c++)
        out->cls[c] = T.cls[c][1];
    for (unsigned c = 0; c < SD_N; c++)
        out->data[c] = T.data[c][1];
    sg_view_free(&v);
}

int stats_gpu_get_kernel(size_t id, stats_gpu_kernel_info *out)
{
    sg_view v;
    sg_view_build(&v, sg_threads());
    int rc = -1;
    memset(out, 0, sizeof(*out));
    if (id < v.nk) {
        const sg_kernel *K = &v.k[id];
        gtotals T = { 0 };
        add_totals(&T, K->c, K->n);
        out->code_hash = K->hash;
        out->code_bytes = K->bytes;
        out->jobs = K->njobs;
        out->clauses = T.clauses;
        out->execs = T.execs;
        out->thread_instrs = T.thread_instrs;
        const sg_jobinfo *fj = K->first_job < v.njobs ? &v.jobs[K->first_job] : NULL;
        out->shader_va = fj && fj->announced ? fj->shader_va : 0;
        rc = 0;
    }
    sg_view_free(&v);
    return rc;
}

int64_t stats_gpu_job_kernel(size_t job)
{
    sg_view v;
    sg_view_build(&v, sg_threads());
    int64_t k = job < v.njobs ? v.jobs[job].kernel : -2;
    sg_view_free(&v);
    return k;
}
