/* Instrumentation reports, GPU side (emu/stats/): decode-time counters of known clauses, clause
 * executions and instruction totals of a straight-line shader (instructions = clause instructions
 * x executions), a divergent if/else (exactly one divergent execution, per-edge thread counts),
 * totals identical for 1 and 4 engine threads, the JSON report, and the same report bytes for 1 and 2
 * engine threads.
 *
 * Shaders (tests/stats/ *.s, hand-counted below) run through a local copy of the executor's
 * minimum-PC loop that calls the stats hook itself, and also through bi_exec_shader /
 * gpu_compute_run, with the stats as the GPU's observer (gpu_observer.h).
 *
 *   test_stats_gpu --json FILE   writes a sample report (used by tests/stats/check_report.py)
 *   test_stats_gpu --bench       CPU time of engine jobs with the stats hook off and on */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bifrost_exec.h"
#include "compute.h"
#include "gpu_clause.h"
#include "gpu_observer.h"
#include "stats.h"
#include "stats_gpu.h"

#include "shaders.inc"     /* $(B)/tests/stats: bi_shader_stats_* */

/* ---- a local runner: the executor's minimum-PC loop, calling the stats hook ------------------ */

typedef struct {
    const uint8_t *code;
    size_t len;
    enum bi_arch arch;
    bi_xclause *x[64];       /* by pc / 16 */
} local_prog;

static bi_xclause *local_clause(local_prog *p, uint32_t pc)
{
    ck_assert_uint_lt(pc / 16, 64);
    if (!p->x[pc / 16]) {
        bi_clause c;
        char err[160];
        ck_assert_msg(!bi_decode_clause(p->code + pc, p->len - pc, pc, p->arch, &c, err, sizeof(err)), "%s", err);
        bi_xclause *x = calloc(1, sizeof(*x));
        ck_assert_ptr_nonnull(x);
        bi_fault f = { 0 };
        ck_assert_msg(!bi_prepare_clause(x, &c, &f), "%s", f.msg);
        p->x[pc / 16] = x;
    }
    return p->x[pc / 16];
}

static void local_free(local_prog *p)
{
    for (unsigned i = 0; i < 64; i++)
        free(p->x[i]);
}

static void local_run(local_prog *p, bi_warp *w)
{
    for (unsigned n = 0; n < 1000; n++) {
        uint32_t pc = UINT32_MAX, exec = 0;
        for (unsigned l = 0; l < w->lanes; l++)
            if (!w->done[l] && w->pc[l] < pc)
                pc = w->pc[l];
        if (pc == UINT32_MAX)
            return;
        for (unsigned l = 0; l < w->lanes; l++)
            if (!w->done[l] && w->pc[l] == pc)
                exec |= 1u << l;
        bi_xclause *x = local_clause(p, pc);
        ck_assert_int_eq(bi_exec_clause(w, x, exec, NULL), BI_EXEC_OK);
        stats_gpu_clause(w, (const bi_program *)p, x, exec);
    }
    ck_abort_msg("shader did not end");
}

static void setup(void)
{
    stats_enable(NULL);
    stats_gpu_reset();
}

/* ---- decode-time counters ------------------------------------------------------------------- */

static void decode(const uint8_t *code, size_t len, uint32_t pc, enum bi_arch arch, sc_clause_info *info)
{
    bi_clause c;
    char err[160];
    ck_assert_msg(!bi_decode_clause(code + pc, len - pc, pc, arch, &c, err, sizeof(err)), "%s", err);
    sc_analyze_clause(&c, info);
}

START_TEST(test_decode_counts)
{
    sc_clause_info i;
    /* clause 0: *IMUL r1, r0, r0 +IADD r2, r0, #5 | *MOV r3, r0 +NOP | *NOP +FADD r4, r0, t1 */
    decode(bi_shader_stats_straight, sizeof(bi_shader_stats_straight), 0, BI_ARCH_V7, &i);
    ck_assert_uint_eq(i.tuples, 3);
    ck_assert_uint_eq(i.constants, 1);
    ck_assert_uint_eq(i.instrs, 4);
    ck_assert_uint_eq(i.cls[SC_FMA_ARITH], 2);       /* IMUL, MOV */
    ck_assert_uint_eq(i.cls[SC_ADD_ARITH], 2);       /* IADD, FADD */
    ck_assert_uint_eq(i.cls[SC_NOP_FMA], 1);
    ck_assert_uint_eq(i.cls[SC_NOP_ADD], 1);
    ck_assert_uint_eq(i.cls[SC_CONTROL], 0);
    ck_assert_uint_eq(i.data[SD_SRC_REG], 5);        /* r0 x2, r0, r0, r0 */
    ck_assert_uint_eq(i.data[SD_TEMP], 1);           /* t1 */
    ck_assert_uint_eq(i.data[SD_FAU_CONST], 1);      /* #0x5 */
    ck_assert_uint_eq(i.data[SD_FAU_UNIFORM], 0);
    ck_assert_uint_eq(i.data[SD_REG_READ], 3);       /* one port (r0) per tuple */
    ck_assert_uint_eq(i.data[SD_REG_WRITE], 4);      /* r1 r2 | r3 | r4 */
    ck_assert_uint_eq(i.data[SD_CONSTANTS], 1);
    ck_assert(!i.end && !i.has_branch);
    /* clause 48: *NOP +IADD r5, r1, r2 (end) */
    decode(bi_shader_stats_straight, sizeof(bi_shader_stats_straight), 48, BI_ARCH_V7, &i);
    ck_assert_uint_eq(i.tuples, 1);
    ck_assert_uint_eq(i.instrs, 1);
    ck_assert_uint_eq(i.cls[SC_ADD_ARITH], 1);
    ck_assert_uint_eq(i.cls[SC_NOP_FMA], 1);
    ck_assert_uint_eq(i.data[SD_REG_READ], 2);
    ck_assert_uint_eq(i.data[SD_REG_WRITE], 1);
    ck_assert_uint_eq(i.constants, 0);
    ck_assert(i.end);
    /* branch shader, clause 0: *NOP +BRANCHZ r0, pc+80 (constant) */
    decode(bi_shader_stats_branch, sizeof(bi_shader_stats_branch), 0, BI_ARCH_V6, &i);
    ck_assert_uint_eq(i.cls[SC_CONTROL], 1);
    ck_assert(i.has_branch);
    ck_assert_uint_eq(i.instrs, 1);
}
END_TEST

START_TEST(test_decode_memory)
{
    /* tests/gpu/gpu_reduce.s: LOAD.i32 (global), STORE.i32.wls, BARRIER, LOAD.i32.wls */
    sc_clause_info i;
    decode(bi_shader_gpu_reduce, sizeof(bi_shader_gpu_reduce), 0, BI_ARCH_V7, &i);
    ck_assert_uint_eq(i.cls[SC_LOAD_GLOBAL], 1);
    ck_assert_uint_eq(i.data[SD_GLOBAL_BYTES], 4);
    ck_assert_uint_eq(i.data[SD_STAGING_WRITE], 1);
    ck_assert_uint_eq(i.data[SD_FAU_UNIFORM], 2);       /* u0.lo, u0.hi */
    uint32_t pc = 0;
    /* walk to the next clauses by their sizes */
    bi_clause c;
    char err[160];
    ck_assert(!bi_decode_clause(bi_shader_gpu_reduce, sizeof(bi_shader_gpu_reduce), 0, BI_ARCH_V7, &c, err, sizeof(err)));
    pc = c.size;
    decode(bi_shader_gpu_reduce, sizeof(bi_shader_gpu_reduce), pc, BI_ARCH_V7, &i);
    ck_assert_uint_eq(i.cls[SC_STORE_LOCAL], 1);
    ck_assert_uint_eq(i.data[SD_LOCAL_BYTES], 4);
    ck_assert_uint_eq(i.data[SD_STAGING_READ], 1);
    ck_assert(!bi_decode_clause(bi_shader_gpu_reduce + pc, sizeof(bi_shader_gpu_reduce) - pc, pc, BI_ARCH_V7, &c, err,
                                sizeof(err)));
    pc += c.size;
    decode(bi_shader_gpu_reduce, sizeof(bi_shader_gpu_reduce), pc, BI_ARCH_V7, &i);
    ck_assert_uint_eq(i.cls[SC_BARRIER], 1);
}
END_TEST

/* ---- straight line: instructions = clause instructions x executions -------------------------- */

START_TEST(test_straight)
{
    setup();
    local_prog p = { bi_shader_stats_straight, sizeof(bi_shader_stats_straight), BI_ARCH_V7, { 0 } };
    for (unsigned k = 0; k < 3; k++) {            /* three full warps of 8 lanes */
        bi_warp w;
        bi_warp_init(&w, BI_ARCH_V7);
        for (unsigned l = 0; l < 8; l++)
            w.reg[0][l] = l + k;
        local_run(&p, &w);
        ck_assert_uint_eq(w.reg[5][3], (3 + k) * (3 + k) + (3 + k) + 5);
    }
    bi_warp w;                                    /* a warp tail: 2 live lanes of 4 */
    bi_warp_init(&w, BI_ARCH_V6);
    w.done[2] = w.done[3] = 1;
    local_run(&p, &w);

    stats_gpu_clause_totals c;
    ck_assert_int_eq(stats_gpu_get_clause(&p, 0, &c), 0);
    ck_assert_uint_eq(c.execs, 4);
    ck_assert_uint_eq(c.lanes, 3 * 8 + 2);
    ck_assert_uint_eq(c.diverged, 0);
    ck_assert_uint_eq(c.partial, 0);              /* done lanes are not inactive ones */
    ck_assert_uint_eq(c.nedges, 1);
    ck_assert_uint_eq(c.edge_to[0], 48);
    ck_assert_uint_eq(c.edge_threads[0], 26);
    ck_assert_uint_eq(c.edge_warps[0], 4);
    ck_assert_int_eq(stats_gpu_get_clause(&p, 48, &c), 0);
    ck_assert_uint_eq(c.execs, 4);
    ck_assert_uint_eq(c.edge_to[0], STATS_GPU_EXIT);
    ck_assert_uint_eq(c.edge_threads[0], 26);

    stats_gpu_totals t;
    stats_gpu_get_totals(&t);
    ck_assert_uint_eq(t.kernels, 1);
    ck_assert_uint_eq(t.clauses, 2);
    ck_assert_uint_eq(t.execs, 8);                        /* 2 clauses x 4 warps */
    ck_assert_uint_eq(t.warp_instrs, (4 + 1) * 4);        /* (4 + 1) instructions x 4 executions */
    ck_assert_uint_eq(t.thread_instrs, (4 + 1) * 26);
    ck_assert_uint_eq(t.cls[SC_NOP_FMA], 2 * 26);
    ck_assert_uint_eq(t.cls[SC_NOP_ADD], 1 * 26);
    ck_assert_uint_eq(t.data[SD_REG_WRITE], 5 * 26);
    local_free(&p);
}
END_TEST

/* The same through the executor's own loop (bi_exec_shader) when it has the hook. */
START_TEST(test_straight_executor)
{
    setup();
    for (unsigned k = 0; k < 3; k++) {
        bi_warp w;
        bi_warp_init(&w, BI_ARCH_V7);
        ck_assert_int_eq(bi_exec_shader(&w, bi_shader_stats_straight, sizeof(bi_shader_stats_straight), BI_ARCH_V7,
                                        100, NULL), BI_EXEC_END);
    }
    stats_gpu_totals t;
    stats_gpu_get_totals(&t);
    ck_assert_uint_eq(t.execs, 2 * 3);
    ck_assert_uint_eq(t.warp_instrs, 5 * 3);
    ck_assert_uint_eq(t.thread_instrs, 5 * 3 * 8);
}
END_TEST

/* ---- divergence ------------------------------------------------------------------------------ */

static void run_branch(local_prog *p, const uint32_t r0[4])
{
    bi_warp w;
    bi_warp_init(&w, BI_ARCH_V6);
    for (unsigned l = 0; l < 4; l++)
        w.reg[0][l] = r0[l];
    local_run(p, &w);
    for (unsigned l = 0; l < 4; l++)
        ck_assert_uint_eq(w.reg[3][l], (r0[l] ? 20 : 10) + 7);
}

static unsigned edge(const stats_gpu_clause_totals *c, uint32_t to)
{
    for (unsigned e = 0; e < c->nedges; e++)
        if (c->edge_to[e] == to)
            return (unsigned)c->edge_threads[e];
    return 0;
}

START_TEST(test_divergence)
{
    setup();
    local_prog p = { bi_shader_stats_branch, sizeof(bi_shader_stats_branch), BI_ARCH_V6, { 0 } };
    run_branch(&p, (const uint32_t[4]){ 0, 1, 0, 1 });      /* diverges: 2 lanes each way */
    run_branch(&p, (const uint32_t[4]){ 0, 0, 0, 0 });      /* uniform: all take the branch */
    stats_gpu_clause_totals c;
    ck_assert_int_eq(stats_gpu_get_clause(&p, 0, &c), 0);
    ck_assert_uint_eq(c.execs, 2);
    ck_assert_uint_eq(c.diverged, 1);
    ck_assert_uint_eq(c.partial, 0);
    ck_assert_uint_eq(c.nedges, 2);
    ck_assert_uint_eq(edge(&c, 32), 2);
    ck_assert_uint_eq(edge(&c, 80), 2 + 4);
    ck_assert_int_eq(stats_gpu_get_clause(&p, 32, &c), 0);   /* then-side: 2 lanes, once */
    ck_assert_uint_eq(c.execs, 1);
    ck_assert_uint_eq(c.lanes, 2);
    ck_assert_uint_eq(c.partial, 1);
    ck_assert_uint_eq(c.diverged, 0);
    ck_assert_uint_eq(edge(&c, 128), 2);
    ck_assert_int_eq(stats_gpu_get_clause(&p, 80, &c), 0);   /* else-side: 2 lanes, then 4 */
    ck_assert_uint_eq(c.execs, 2);
    ck_assert_uint_eq(c.lanes, 6);
    ck_assert_uint_eq(c.partial, 1);
    ck_assert_uint_eq(edge(&c, 128), 6);
    ck_assert_int_eq(stats_gpu_get_clause(&p, 128, &c), 0);  /* join: every lane, once per warp */
    ck_assert_uint_eq(c.execs, 2);
    ck_assert_uint_eq(c.lanes, 8);
    ck_assert_uint_eq(c.partial, 0);
    ck_assert_uint_eq(edge(&c, STATS_GPU_EXIT), 8);
    stats_gpu_totals t;
    stats_gpu_get_totals(&t);
    ck_assert_uint_eq(t.diverged, 1);
    ck_assert_uint_eq(t.partial, 2);
    ck_assert_uint_eq(t.execs, 2 + 1 + 2 + 2);
    local_free(&p);
}
END_TEST

/* ---- engine: totals identical for 1 and 4 host threads ----------------------------------------- */

#include "gpu_flat_mem.h"

static uint32_t t_atomic(void *ctx, uint64_t va, unsigned size, uint64_t (*op)(uint64_t, void *), void *arg,
                         uint64_t *old)
{
    uint8_t *h = host(va, size);
    if (!h || size != 4)
        return FAULT_CODE;
    uint32_t *p = (uint32_t *)h, o = __atomic_load_n(p, __ATOMIC_SEQ_CST), n;
    do
        n = (uint32_t)op(o, arg);
    while (!__atomic_compare_exchange_n(p, &o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    *old = o;
    return 0;
}
static unsigned log2ceil(unsigned v)
{
    unsigned n = 0;
    while ((1u << n) < v)
        n++;
    return n;
}

/* A 1-D compute job (layout as in tests/unit/test_gpu_compute.c): local size x groups, the
 * shader, push uniforms, WLS bytes per workgroup. */
static uint64_t make_job(unsigned local, unsigned groups, uint64_t shader, const uint64_t *push, unsigned npush,
                         unsigned wls)
{
    uint64_t job = alloc(192, 64), rsd = alloc(64, 64), ls = alloc(32, 64), pu = alloc(8u * npush, 16);
    memset(host(job, 192), 0, 192);
    w32(job + 16, 1u | (4u << 1) | (1u << 8) | (1u << 16));
    unsigned vals[6] = { local, 1, 1, groups, 1, 1 }, bit = 0;
    uint32_t inv = 0, sh[6];
    for (unsigned i = 0; i < 6; i++) {
        sh[i] = bit;
        inv |= (vals[i] - 1) << bit;
        bit += log2ceil(vals[i]);
    }
    w32(job + 32, inv);
    w32(job + 36, sh[1] | sh[2] << 5 | sh[3] << 10 | sh[4] << 16 | sh[5] << 22 | (sh[3] << 28));
    w32(job + 64, 3);
    w64(job + 112, pu);
    w64(job + 120, rsd);
    w64(job + 176, ls);
    for (unsigned i = 0; i < npush; i++)
        w64(pu + 8 * i, push[i]);
    memset(host(rsd, 64), 0, 64);
    w64(rsd, shader);
    w32(rsd + 48, 0x7fc0u | (npush << 15));
    memset(host(ls, 32), 0, 32);
    if (wls) {
        unsigned per = 128;
        while (per < wls)
            per *= 2;
        w32(ls + 4, log2ceil(groups) | (log2ceil(per) + 1) << 8);
        w64(ls + 16, alloc(per, 4096));
    } else {
        w32(ls + 4, 31);
    }
    return job;
}

static void run_engine(unsigned threads, unsigned arch, stats_gpu_totals *t)
{
    setup();
    flat_reset();
    gpu_compute *e = gpu_compute_new(threads);
    ck_assert_ptr_nonnull(e);
    const unsigned groups = 64;
    uint64_t in = alloc(4 * 16 * groups, 64), out = alloc(4 * groups, 64);
    for (unsigned i = 0; i < 16 * groups; i++)
        w32(in + 4 * i, i);
    uint64_t shader = alloc(4096, 4096);
    memcpy(host(shader, sizeof(bi_shader_gpu_reduce)), bi_shader_gpu_reduce, sizeof(bi_shader_gpu_reduce));
    uint64_t push[2] = { in, out };
    uint64_t job = make_job(16, groups, shader, push, 2, 64);
    gpu_compute_job j = { .job_va = job, .type = 4, .as = 0, .arch_major = arch, .core_mask = 0xf,
                          .mem = { .read = flat_read, .write = flat_write, .fetch = flat_read, .atomic = t_atomic } };
    uint64_t fva;
    ck_assert_uint_eq(gpu_compute_run(e, &j, &fva), 1);
    uint32_t v;
    memcpy(&v, host(out + 4 * 5, 4), 4);
    ck_assert_uint_eq(v, 16 * 5 * 16 + 120);      /* sum of 80..95 */
    gpu_compute_free(e);
    stats_gpu_get_totals(t);
}

START_TEST(test_threads_invariant)
{
    for (unsigned arch = 6; arch <= 7; arch++) {
        stats_gpu_totals a, b;
        run_engine(1, arch, &a);
        run_engine(4, arch, &b);
        ck_assert_uint_gt(a.execs, 0);
        ck_assert_uint_eq(a.kernels, 1);
        ck_assert(!memcmp(&a, &b, sizeof(a)));
        ck_assert_uint_eq(a.lanes, a.execs * (arch == 7 ? 8 : 4));   /* 16 lanes per workgroup: full warps */
        ck_assert_uint_eq(a.cls[SC_BARRIER], 9ull * 16 * 64);        /* 9 BARRIERs per thread (gpu_reduce.s) */
    }
}
END_TEST

/* ---- the report does not depend on the number of host threads ----------------------------------- */

/* The JSON report after one job of tests/stats/stats_diverge.s (64 workgroups of 4, v6) on an
 * engine of `threads` host threads, without the lines that describe the run rather than the
 * guest (date, host_threads).  Caller frees. */
static char *diverge_report(unsigned threads)
{
    setup();
    flat_reset();
    gpu_compute *e = gpu_compute_new(threads);
    ck_assert_ptr_nonnull(e);
    const unsigned local = 4, groups = 64;
    uint64_t shader = alloc(4096, 4096);
    memcpy(host(shader, sizeof(bi_shader_stats_diverge)), bi_shader_stats_diverge, sizeof(bi_shader_stats_diverge));
    uint64_t job = make_job(local, groups, shader, NULL, 0, 0);
    gpu_compute_job j = { .job_va = job, .type = 4, .as = 0, .arch_major = 6, .core_mask = 0xf,
                          .mem = { .read = flat_read, .write = flat_write, .fetch = flat_read, .atomic = t_atomic } };
    uint64_t fva;
    ck_assert_uint_eq(gpu_compute_run(e, &j, &fva), 1);
    gpu_compute_free(e);
    char *buf = NULL, *out = NULL;
    size_t len = 0, olen = 0;
    FILE *f = open_memstream(&buf, &len), *o = open_memstream(&out, &olen);
    ck_assert(f && o);
    stats_write_json(f);
    fclose(f);
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
        if (!strstr(line, "\"date\": ") && !strstr(line, "\"host_threads\": "))
            fprintf(o, "%s\n", line);
    fclose(o);
    free(buf);
    return out;
}

START_TEST(test_json_threads)
{
    char *one = diverge_report(1);
    ck_assert_ptr_nonnull(strstr(one, "{\"to\": 64, \"threads\": 128, \"warps\": 32}, {\"to\": 112, \"threads\": 128, \"warps\": 32}"));
    for (int rep = 0; rep < 8; rep++) {          /* which host thread runs which workgroup first varies */
        char *two = diverge_report(2);
        ck_assert_str_eq(one, two);
        free(two);
    }
    free(one);
}
END_TEST

/* ---- programs are identified by their code, not by where they were loaded ----------------------- */


/* One job of tests/gpu/gpu_vecadd.s (mul: tests/stats/stats_vecmul.s) loaded at `shader`: 4
 * workgroups of 64; checks c = a + b (a * b). */
static void run_vec(gpu_compute *e, uint64_t shader, int mul, unsigned arch)
{
    const unsigned local = 64, groups = 4, n = local * groups;
    const uint8_t *code = mul ? bi_shader_stats_vecmul : bi_shader_gpu_vecadd;
    size_t len = mul ? sizeof(bi_shader_stats_vecmul) : sizeof(bi_shader_gpu_vecadd);
    memset(host(shader, 4096), 0, 4096);
    memcpy(host(shader, len), code, len);
    uint64_t a = alloc(4 * n, 64), b = alloc(4 * n, 64), c = alloc(4 * n, 64);
    for (unsigned i = 0; i < n; i++) {
        float x = (float)i + 1.0f, y = 0.5f * (float)i + 2.0f;
        memcpy(host(a + 4 * i, 4), &x, 4);
        memcpy(host(b + 4 * i, 4), &y, 4);
    }
    uint64_t push[3] = { a, b, c };
    uint64_t job = make_job(local, groups, shader, push, 3, 0);
    gpu_compute_job j = { .job_va = job, .type = 4, .as = 1, .arch_major = arch, .core_mask = 0xf,
                          .mem = { .read = flat_read, .write = flat_write, .fetch = flat_read, .atomic = t_atomic } };
    uint64_t fva;
    ck_assert_uint_eq(gpu_compute_run(e, &j, &fva), 1);
    for (unsigned i = 0; i < n; i++) {
        float x = (float)i + 1.0f, y = 0.5f * (float)i + 2.0f, r;
        memcpy(&r, host(c + 4 * i, 4), 4);
        ck_assert_float_eq(r, mul ? x * y : x + y);
    }
}

/* vecadd, then vecmul at the same shader VA (they share 4 of 5 clauses, byte for byte), vecadd
 * again at that VA, vecadd at another VA: two programs, vecadd with three jobs; each job's counts
 * go to the program it ran (keying programs by VA + address space, or by the engine's program
 * object, makes one program of the four jobs). */
START_TEST(test_program_identity)
{
    for (unsigned arch = 6; arch <= 7; arch++) {
        setup();
        flat_reset();
        gpu_compute *e = gpu_compute_new(2);
        ck_assert_ptr_nonnull(e);
        uint64_t shader = alloc(4096, 4096), other = alloc(4096, 4096);
        const uint64_t warps = 4 * 64 / (arch == 7 ? 8 : 4);
        run_vec(e, shader, 0, arch);
        stats_gpu_totals one;
        stats_gpu_get_totals(&one);
        ck_assert_uint_eq(one.kernels, 1);
        ck_assert_uint_eq(one.jobs, 1);
        ck_assert_uint_eq(one.execs, 5 * warps);            /* 5 clauses, straight line */
        run_vec(e, shader, 1, arch);
        run_vec(e, shader, 0, arch);
        run_vec(e, other, 0, arch);
        gpu_compute_free(e);

        stats_gpu_totals t;
        stats_gpu_get_totals(&t);
        ck_assert_uint_eq(t.jobs, 4);
        ck_assert_uint_eq(t.kernels, 2);
        ck_assert_int_eq(stats_gpu_job_kernel(0), 0);
        ck_assert_int_eq(stats_gpu_job_kernel(1), 1);
        ck_assert_int_eq(stats_gpu_job_kernel(2), 0);
        ck_assert_int_eq(stats_gpu_job_kernel(3), 0);
        ck_assert_int_eq(stats_gpu_job_kernel(4), -2);
        stats_gpu_kernel_info add, mul;
        ck_assert_int_eq(stats_gpu_get_kernel(0, &add), 0);
        ck_assert_int_eq(stats_gpu_get_kernel(1, &mul), 0);
        ck_assert_int_eq(stats_gpu_get_kernel(2, &mul), -1);
        ck_assert_int_eq(stats_gpu_get_kernel(1, &mul), 0);
        ck_assert_uint_eq(add.jobs, 3);
        ck_assert_uint_eq(mul.jobs, 1);
        ck_assert_uint_eq(add.shader_va, shader);            /* of the first job */
        ck_assert_uint_eq(mul.shader_va, shader);
        ck_assert_uint_ne(add.code_hash, mul.code_hash);
        ck_assert_uint_eq(add.code_bytes, sizeof(bi_shader_gpu_vecadd));
        ck_assert_uint_eq(mul.code_bytes, sizeof(bi_shader_stats_vecmul));
        ck_assert_uint_eq(add.clauses, 5);
        ck_assert_uint_eq(mul.clauses, 5);
        ck_assert_uint_eq(add.execs, 3 * one.execs);
        ck_assert_uint_eq(mul.execs, one.execs);
        ck_assert_uint_eq(add.thread_instrs, 3 * one.thread_instrs);
        ck_assert_uint_eq(mul.thread_instrs, one.thread_instrs);    /* FMA for FADD: as many instructions */
        ck_assert_uint_eq(t.execs, 4 * one.execs);
    }
}
END_TEST

/* ---- JSON report ------------------------------------------------------------------------------ */

static void sample_report(FILE *f)
{
    setup();
    stats_set_config("test", "test_stats_gpu");
    local_prog s = { bi_shader_stats_straight, sizeof(bi_shader_stats_straight), BI_ARCH_V7, { 0 } };
    local_prog b = { bi_shader_stats_branch, sizeof(bi_shader_stats_branch), BI_ARCH_V6, { 0 } };
    stats_gpu_job_begin(&s, 0, 0x10000, 1, 4, NULL);
    for (unsigned k = 0; k < 3; k++) {
        bi_warp w;
        bi_warp_init(&w, BI_ARCH_V7);
        local_run(&s, &w);
    }
    run_branch(&b, (const uint32_t[4]){ 0, 1, 0, 1 });
    run_branch(&b, (const uint32_t[4]){ 0, 0, 0, 0 });
    {                              /* vecadd, vecmul, vecadd at one shader VA: two kernels */
        flat_reset();
        gpu_compute *e = gpu_compute_new(2);
        ck_assert_ptr_nonnull(e);
        uint64_t shader = alloc(4096, 4096);
        run_vec(e, shader, 0, 7);
        run_vec(e, shader, 1, 7);
        run_vec(e, shader, 0, 7);
        gpu_compute_free(e);
    }
    static uint64_t ec[64], vec[4] = { 7, 3, 0, 0 };
    ec[0x15] = 5;       /* svc */
    ec[0x25] = 2;       /* data abort, same EL */
    stats_cpu_info ci = { .index = 0, .insns = 1000, .exceptions = 10, .irqs = 3, .exc_by_ec = ec, .exc_by_vector = vec };
    stats_set_cpu(&ci);
    stats_mmio(0, false);
    stats_mali_reg(0x1000, true);
    stats_gpu_page(1, 0x10000, 1);
    stats_gpu_page(1, 0x10000, 2);
    stats_gpu_page(1, 0x20000, 3);
    stats_write_json(f);
    local_free(&s);
    local_free(&b);
}

START_TEST(test_json)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    sample_report(f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "\"schema\": \"malibu-stats/2\""));
    ck_assert_ptr_nonnull(strstr(buf, "\"pages_touched\": 2"));
    ck_assert_ptr_nonnull(strstr(buf, "\"name\": \"shader@0x10000/as1\""));
    ck_assert_ptr_nonnull(strstr(buf, "digraph"));
    ck_assert_ptr_nonnull(strstr(buf, "\"exceptions_by_class\": {\"svc\": 5, \"dabort_same\": 2}"));
    free(buf);
}
END_TEST

/* ---- overhead: engine jobs with the hook off / on (--bench) -------------------------------------- */

#include <time.h>

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* One job of `groups` workgroups of the reduction (local 16, WLS, 9 barriers) or the vector add
 * (local 64, global loads/stores) on a 1-thread engine; returns the CPU seconds. */
static double bench_job(gpu_compute *e, int vecadd, unsigned groups, unsigned arch)
{
    next_va = VA_BASE;
    uint64_t shader = alloc(4096, 4096);
    const uint8_t *code = vecadd ? bi_shader_gpu_vecadd : bi_shader_gpu_reduce;
    size_t len = vecadd ? sizeof(bi_shader_gpu_vecadd) : sizeof(bi_shader_gpu_reduce);
    memcpy(host(shader, len), code, len);
    unsigned local = vecadd ? 64 : 16, n = local * groups;
    uint64_t a = alloc(4 * n, 64), b = alloc(4 * n, 64), c = alloc(4 * n, 64);
    uint64_t push[3] = { a, vecadd ? b : a + 0, vecadd ? c : b };
    uint64_t job = make_job(local, groups, shader, push, vecadd ? 3 : 2, vecadd ? 0 : 64);
    gpu_compute_job j = { .job_va = job, .type = 4, .as = 0, .arch_major = arch, .core_mask = 0xf,
                          .mem = { .read = flat_read, .write = flat_write, .fetch = flat_read, .atomic = t_atomic } };
    uint64_t fva;
    double t0 = cpu_now();
    uint32_t st = gpu_compute_run(e, &j, &fva);
    double t = cpu_now() - t0;
    if (st != 1) {
        fprintf(stderr, "bench: job status %#x\n", st);
        exit(1);
    }
    return t;
}

START_TEST(test_bench)
{
    flat_reset();
    for (int vecadd = 0; vecadd <= 1; vecadd++) {
        /* one engine (program cache) per mode: compiled code counts for the observer only when
         * it was installed as the code was compiled (gpu_observer.h) */
        gpu_compute *e[2] = { gpu_compute_new(1), gpu_compute_new(1) };
        double best[2] = { 1e9, 1e9 };
        for (int rep = 0; rep < 9; rep++)
            for (int on = 0; on <= 1; on++) {
                if (on)
                    stats_enable(NULL);
                else
                    gpu_observe(NULL);
                double t = bench_job(e[on], vecadd, vecadd ? 1024 : 4096, 7);
                if (t < best[on])
                    best[on] = t;
            }
        stats_gpu_totals tot;
        stats_gpu_get_totals(&tot);
        printf("%-7s off %.4f s  on %.4f s  overhead %+.1f%%  (%llu clause executions per job counted x 9)\n",
               vecadd ? "vecadd" : "reduce", best[0], best[1], 100.0 * (best[1] - best[0]) / best[0],
               (unsigned long long)(tot.execs / 9));
        stats_gpu_reset();
        gpu_compute_free(e[0]);
        gpu_compute_free(e[1]);
    }
}
END_TEST

static const char *json_out;

START_TEST(test_write_json)
{
    FILE *f = fopen(json_out, "w");
    ck_assert_msg(f != NULL, "%s", json_out);
    sample_report(f);
    ck_assert_int_eq(fclose(f), 0);
}
END_TEST

int main(int argc, char **argv)
{
    Suite *s = suite_create("stats_gpu");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    if ((argc == 3 && !strcmp(argv[1], "--json")) || (argc == 2 && !strcmp(argv[1], "--bench"))) {
        json_out = argv[argc - 1];
        tcase_set_timeout(tc, 600);
        tcase_add_test(tc, argc == 2 ? test_bench : test_write_json);
        suite_add_tcase(s, tc);
        SRunner *sr = srunner_create(s);
        srunner_run_all(sr, CK_SILENT);
        int failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed ? 1 : 0;
    }
    tcase_add_test(tc, test_decode_counts);
    tcase_add_test(tc, test_decode_memory);
    tcase_add_test(tc, test_straight);
    tcase_add_test(tc, test_straight_executor);
    tcase_add_test(tc, test_divergence);
    tcase_add_test(tc, test_threads_invariant);
    tcase_add_test(tc, test_json_threads);
    tcase_add_test(tc, test_program_identity);
    tcase_add_test(tc, test_json);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
