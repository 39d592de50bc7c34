/* Shader-core engine (emu/gpu/compute.[ch]): COMPUTE job descriptors built in a simulated GPU
 * address space (flat accessor with unmapped pages), assembled shaders from tests/gpu/ (assembler sources):
 * vector add, a local-memory reduction with barriers, global atomics from many workgroups;
 * identical results with 1 and N host threads; faults end the job with the right status;
 * the shader cache sees rewritten code.  Set GPU_BENCH=1 for lane-instruction throughput. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bifrost_exec.h"
#include "compute.h"
#include "gpu_timing.h"
#include "shaders.inc"

/* ---- simulated GPU address space (gpu_flat_mem.h), with read and fetch counts ------------------ */
#include "gpu_flat_mem.h"

static unsigned reads, fetches;

/* --timing of the engines the tests make (NULL: off) */
static const tm_config *timing;
static gpu_compute *engine_new(unsigned threads)
{
    gpu_compute_params p = { .threads = threads, .timing = timing };
    char err[256];
    gpu_compute *e = gpu_compute_create(&p, err, sizeof err);
    ck_assert_msg(e != NULL, "%s", err);
    return e;
}

static uint32_t t_read(void *ctx, uint64_t va, void *buf, size_t len)
{
    __atomic_add_fetch(&reads, 1, __ATOMIC_RELAXED);
    return flat_read(ctx, va, buf, len);
}

static uint32_t t_fetch(void *ctx, uint64_t va, void *buf, size_t len)
{
    __atomic_add_fetch(&fetches, 1, __ATOMIC_RELAXED);
    return t_read(ctx, va, buf, len);
}

static uint32_t t_atomic(void *ctx, uint64_t va, unsigned size, uint64_t (*op)(uint64_t, void *), void *arg,
                         uint64_t *old)
{
    uint8_t *h = host(va, size);
    if (!h)
        return FAULT_CODE;
    if (size == 4) {
        uint32_t *p = (uint32_t *)h, o = __atomic_load_n(p, __ATOMIC_SEQ_CST), n;
        do
            n = (uint32_t)op(o, arg);
        while (!__atomic_compare_exchange_n(p, &o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
        *old = o;
    } else {
        uint64_t *p = (uint64_t *)h, o = __atomic_load_n(p, __ATOMIC_SEQ_CST), n;
        do
            n = op(o, arg);
        while (!__atomic_compare_exchange_n(p, &o, n, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
        *old = o;
    }
    return 0;
}

/* map fast path over the flat space (used when use_map is set) */
static int use_map;
static uint64_t map_gen = 1;
static void *t_map(void *ctx, uint64_t va, unsigned access, uint64_t *gen)
{
    *gen = __atomic_load_n(&map_gen, __ATOMIC_ACQUIRE);
    return host(va, 1);
}
static uint64_t t_gen(void *ctx) { return __atomic_load_n(&map_gen, __ATOMIC_ACQUIRE); }

static void setup(void)
{
    flat_reset();
    reads = fetches = 0;
}
static uint32_t r32(uint64_t va) { uint32_t v; memcpy(&v, vmem + (va - VA_BASE), 4); return v; }
static uint64_t r64(uint64_t va) { uint64_t v; memcpy(&v, vmem + (va - VA_BASE), 8); return v; }

static unsigned log2ceil(unsigned v)
{
    unsigned n = 0;
    while ((1u << n) < v)
        n++;
    return n;
}

/* A compute job as Mesa lays it out (reference §6.2-6.5).  Returns the job VA. */
typedef struct {
    unsigned local[3], groups[3];
    uint64_t shader_va;
    const uint64_t *push;      /* 64-bit FAU slots */
    unsigned npush;
    unsigned wls_bytes, tls_bytes;
    uint64_t ubo_va;           /* one UBO (0: none) */
    unsigned ubo_bytes;
} job_spec;

static uint64_t make_job(const job_spec *s)
{
    uint64_t job = alloc(192, 64), rsd = alloc(64, 64), ls = alloc(32, 64);
    uint64_t push = s->npush ? alloc(8u * s->npush, 16) : 0;
    memset(host(job, 192), 0, 192);
    w32(job + 16, 1u | (4u << 1) | (1u << 8) | (1u << 16));    /* 64-bit, COMPUTE, barrier, index 1 */
    /* invocation */
    unsigned vals[6] = { s->local[0], s->local[1], s->local[2], s->groups[0], s->groups[1], s->groups[2] };
    uint32_t inv = 0, shifts[6];
    unsigned bit = 0;
    for (unsigned i = 0; i < 6; i++) {
        shifts[i] = bit;
        inv |= (vals[i] - 1) << bit;
        bit += log2ceil(vals[i]);
    }
    ck_assert_uint_le(bit, 32);
    w32(job + 32, inv);
    w32(job + 36, shifts[1] | shifts[2] << 5 | shifts[3] << 10 | shifts[4] << 16 | shifts[5] << 22 |
                  (shifts[3] << 28));
    w32(job + 40, 0);
    w32(job + 64, 3);                 /* four components, 64-bit */
    w64(job + 112, push);
    w64(job + 120, rsd);
    w64(job + 176, ls);
    for (unsigned i = 0; i < s->npush; i++)
        w64(push + 8 * i, s->push[i]);
    memset(host(rsd, 64), 0, 64);
    w64(rsd, s->shader_va);
    if (s->ubo_va) {
        uint64_t tab = alloc(8, 16);
        w64(tab, ((uint64_t)(s->ubo_bytes / 16 - 1) & 0xfff) | (s->ubo_va >> 4) << 12);
        w64(job + 88, tab);
        w32(rsd + 16, 1);     /* UBO count */
    }
    w32(rsd + 48, 0x7fc0u | (s->npush << 15));   /* compute preloads, uniform count */
    memset(host(ls, 32), 0, 32);
    if (s->tls_bytes) {
        unsigned n = log2ceil((s->tls_bytes + 15) / 16);
        w32(ls, n);
        w64(ls + 8, alloc(16u << n, 16));
    }
    if (s->wls_bytes) {
        unsigned per = 128;
        while (per < s->wls_bytes)
            per *= 2;
        unsigned inst = log2ceil(s->groups[0]) + log2ceil(s->groups[1]) + log2ceil(s->groups[2]);
        w32(ls + 4, inst | (log2ceil(per) + 1) << 8);
        w64(ls + 16, alloc(per, 4096));
    } else {
        w32(ls + 4, 31);
    }
    return job;
}

static uint64_t load_shader(const uint8_t *code, size_t len)
{
    uint64_t va = alloc((len + 128 + 4095) & ~(size_t)4095, 4096);   /* + zero padding, as Mesa does; own page */
    memcpy(host(va, len), code, len);
    return va;
}

/* Work reported through mem.progress (warp-tuples), summed over the engine's threads. */
static uint64_t progress_sum;
/* unmap_at_progress: the first progress report unmaps that page and bumps the map generation, as
 * an AS update of the driver would while the job runs */
static uint64_t unmap_at_progress;
static void t_progress(void *ctx, uint64_t n)
{
    (void)ctx;
    __atomic_add_fetch(&progress_sum, n, __ATOMIC_RELAXED);
    if (unmap_at_progress) {
        mapped[(unmap_at_progress - VA_BASE) / 4096] = 0;
        __atomic_add_fetch(&map_gen, 1, __ATOMIC_RELEASE);
        unmap_at_progress = 0;
    }
}

/* Memory stall cycles reported through mem.stall (--timing). */
static uint64_t stall_sum;
static void t_stall(void *ctx, uint64_t n) { (void)ctx; stall_sum += n; }

static uint32_t run_job(gpu_compute *e, uint64_t job, unsigned arch, uint64_t *fva)
{
    gpu_compute_job j = { .job_va = job, .type = 4, .as = 0, .arch_major = arch, .core_mask = 0xf, .engines = 3,
                          .mem = { .ctx = NULL, .read = t_read, .write = flat_write, .fetch = t_fetch,
                                   .atomic = t_atomic, .map = use_map ? t_map : NULL,
                                   .generation = use_map ? t_gen : NULL, .progress = t_progress,
                                   .generation_word = use_map == 2 ? &map_gen : NULL,
                                   .stall = t_stall } };
    uint64_t f = 0;
    uint32_t st = gpu_compute_run(e, &j, &f);
    if (fva)
        *fva = f;
    return st;
}

static unsigned pool_threads(void)
{
    return 4;      /* more threads than the test machine's cores is fine (and worth testing) */
}

/* ---- vector add ------------------------------------------------------------------------------ */

static float fval(unsigned i) { return (float)i * 0.37f - 100.0f + 1.0f / (float)(i + 1); }

static void check_vecadd(unsigned arch, unsigned threads)
{
    setup();
    gpu_compute *e = engine_new(threads);
    ck_assert_ptr_nonnull(e);
    const unsigned n = 4096;
    uint64_t a = alloc(4 * n, 64), b = alloc(4 * n, 64), c = alloc(4 * n, 64);
    for (unsigned i = 0; i < n; i++) {
        float x = fval(i), y = fval(n - i);
        memcpy(host(a + 4 * i, 4), &x, 4);
        memcpy(host(b + 4 * i, 4), &y, 4);
    }
    uint64_t push[3] = { a, b, c };
    job_spec s = { .local = { 16, 2, 1 }, .groups = { n / 32, 1, 1 },
                   .shader_va = load_shader(bi_shader_gpu_vecadd, sizeof(bi_shader_gpu_vecadd)), .push = push, .npush = 3 };
    /* 2-D local size: global id x = wg * 16 + lid.x covers 0..n/2-1 twice over y; use x only */
    s.local[1] = 1;
    s.groups[0] = n / 16;
    uint64_t job = make_job(&s);
    progress_sum = 0;
    ck_assert_uint_eq(run_job(e, job, arch, NULL), 1);
    /* gpu_vecadd.s: clauses of 1, 2, 2, 1 and 2 tuples, run once by every warp */
    ck_assert_uint_eq(progress_sum, (uint64_t)n / (arch == 7 ? 8 : 4) * 8);
    for (unsigned i = 0; i < n; i++) {
        float want = fval(i) + fval(n - i), got;
        memcpy(&got, host(c + 4 * i, 4), 4);
        ck_assert_msg(got == want, "c[%u] = %a, want %a", i, got, want);
    }
    gpu_compute_stats st;
    gpu_compute_get_stats(e, &st);
    ck_assert_uint_eq(st.workgroups, n / 16);
    ck_assert_uint_eq(st.lane_clauses, 5ull * n);
    gpu_compute_free(e);
}

START_TEST(test_vecadd_v6_1) { check_vecadd(6, 1); }
END_TEST
START_TEST(test_vecadd_v7_n) { check_vecadd(7, pool_threads()); }
END_TEST

/* ---- reduction through local memory and barriers -------------------------------------------- */

static void run_reduce(unsigned arch, unsigned threads, uint32_t *out_copy, unsigned groups)
{
    setup();
    gpu_compute *e = engine_new(threads);
    uint64_t in = alloc(4 * 16 * groups, 64), out = alloc(4 * groups, 64);
    for (unsigned i = 0; i < 16 * groups; i++)
        w32(in + 4 * i, i * 2654435761u);
    uint64_t push[2] = { in, out };
    job_spec s = { .local = { 16, 1, 1 }, .groups = { groups, 1, 1 },
                   .shader_va = load_shader(bi_shader_gpu_reduce, sizeof(bi_shader_gpu_reduce)), .push = push,
                   .npush = 2, .wls_bytes = 64 };
    uint64_t job = make_job(&s);
    ck_assert_uint_eq(run_job(e, job, arch, NULL), 1);
    for (unsigned g = 0; g < groups; g++) {
        uint32_t want = 0;
        for (unsigned i = 0; i < 16; i++)
            want += (16 * g + i) * 2654435761u;
        ck_assert_msg(r32(out + 4 * g) == want, "group %u: %#x, want %#x", g, r32(out + 4 * g), want);
        out_copy[g] = r32(out + 4 * g);
    }
    gpu_compute_stats st;
    gpu_compute_get_stats(e, &st);
    ck_assert_uint_eq(st.barriers, (uint64_t)groups * 9 * (16 / (arch == 7 ? 8 : 4)));
    gpu_compute_free(e);
}

static void check_reduce(unsigned arch)
{
    uint32_t r1[100], rn[100];
    run_reduce(arch, 1, r1, 100);
    run_reduce(arch, pool_threads(), rn, 100);
    ck_assert(!memcmp(r1, rn, sizeof(r1)));
}

START_TEST(test_reduce_v6) { check_reduce(6); }
END_TEST
START_TEST(test_reduce_v7) { check_reduce(7); }
END_TEST

/* ---- compiler-written code: Mesa's sgemm_naive (gpu_mesa_sgemm.s) ---------------------------- */

/* C = A * B for M x K times K x N with 8 x 8 work-groups (M, N multiples of 8); inputs are
 * multiples of 1/4 in [-2, 2], so every product and partial sum is exact.  Returns the seconds
 * the job took; *cpu (if not NULL): the process CPU seconds. */
static double run_mesa_sgemm(gpu_compute *e, unsigned arch, unsigned m, unsigned n, unsigned k, double *cpu)
{
    setup();
    uint64_t a = alloc(4u * m * k, 64), b = alloc(4u * k * n, 64), c = alloc(4u * m * n, 64);
    uint32_t seed = 12345;
    for (unsigned i = 0; i < m * k + k * n; i++) {
        seed = seed * 1103515245u + 12345u;
        float v = (float)((int)((seed >> 16) % 17) - 8) * 0.25f;
        memcpy(host(i < m * k ? a + 4 * i : b + 4 * (i - m * k), 4), &v, 4);
    }
    uint64_t push[5] = { a, b, c, m | (uint64_t)n << 32, k };
    job_spec s = { .local = { 8, 8, 1 }, .groups = { n / 8, m / 8, 1 },
                   .shader_va = load_shader(bi_shader_gpu_mesa_sgemm, sizeof(bi_shader_gpu_mesa_sgemm)),
                   .push = push, .npush = 5 };
    uint64_t job = make_job(&s);
    struct timespec t0, t1, c0, c1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    ck_assert_uint_eq(run_job(e, job, arch, NULL), 1);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (cpu)
        *cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9;
    for (unsigned i = 0; i < m; i++)
        for (unsigned j = 0; j < n; j++) {
            float want = 0, got, x, y;
            for (unsigned q = 0; q < k; q++) {
                memcpy(&x, host(a + 4 * (i * k + q), 4), 4);
                memcpy(&y, host(b + 4 * (q * n + j), 4), 4);
                want += x * y;
            }
            memcpy(&got, host(c + 4 * (i * n + j), 4), 4);
            ck_assert_msg(got == want, "C[%u][%u] = %a, want %a", i, j, got, want);
        }
    return (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
}

/* tests/gpu/gpu_fma_loop.s, n work-items in groups of 64, iters loop iterations: every result is
 * the host's fmaf chain; returns the CPU seconds of the job */
static double run_fma_loop(gpu_compute *e, unsigned arch, unsigned n, unsigned iters)
{
    setup();
    uint64_t out = alloc(4u * n, 64);
    float x0 = 0.5f, y0 = -0.5f, x = x0, y = y0;
    uint32_t xb, yb;
    memcpy(&xb, &x0, 4);
    memcpy(&yb, &y0, 4);
    for (unsigned i = 0; i < iters; i++)
        for (int k = 0; k < 4; k++) {
            x = fmaf(y, x, y);
            y = fmaf(x, y, x);
        }
    uint64_t push[4] = { out, iters, xb, yb };
    job_spec s = { .local = { 64, 1, 1 }, .groups = { n / 64, 1, 1 },
                   .shader_va = load_shader(bi_shader_gpu_fma_loop, sizeof(bi_shader_gpu_fma_loop)), .push = push,
                   .npush = 4 };
    uint64_t job = make_job(&s);
    struct timespec c0, c1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    ck_assert_uint_eq(run_job(e, job, arch, NULL), 1);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    for (unsigned i = 0; i < n; i++) {
        float got;
        memcpy(&got, host(out + 4 * i, 4), 4);
        ck_assert_msg(!memcmp(&got, &x, 4), "item %u: %a, want %a", i, got, x);
    }
    return (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9;
}

START_TEST(test_fma_loop)
{
    for (unsigned arch = 6; arch <= 7; arch++) {
        gpu_compute *e = engine_new(pool_threads());
        run_fma_loop(e, arch, 256, 7);
        gpu_compute_free(e);
    }
}
END_TEST

static void check_mesa_sgemm(unsigned arch, unsigned threads)
{
    gpu_compute *e = engine_new(threads);
    ck_assert_ptr_nonnull(e);
    run_mesa_sgemm(e, arch, 24, 16, 19, NULL);
    gpu_compute_stats st;
    gpu_compute_get_stats(e, &st);
    ck_assert_uint_eq(st.workgroups, 6);
    gpu_compute_free(e);
}

START_TEST(test_mesa_sgemm_v6) { check_mesa_sgemm(6, 1); }
END_TEST
START_TEST(test_mesa_sgemm_v7) { check_mesa_sgemm(7, pool_threads()); }
END_TEST

static void check_misc(unsigned arch, unsigned threads);

/* ---- global atomics from many workgroups --------------------------------------------------- */

static void check_atomics(unsigned arch, unsigned threads)
{
    setup();
    gpu_compute *e = engine_new(threads);
    const unsigned groups = 256, local = 16, n = groups * local;
    uint64_t counter = alloc(4, 64), out = alloc(4 * n, 64), sum = alloc(4, 64), max = alloc(4, 64);
    w32(counter, 0);
    w32(sum, 5);
    w32(max, 0);
    uint64_t push[4] = { counter, out, sum, max };
    job_spec s = { .local = { local, 1, 1 }, .groups = { groups, 1, 1 },
                   .shader_va = load_shader(bi_shader_gpu_atomic, sizeof(bi_shader_gpu_atomic)), .push = push,
                   .npush = 4 };
    ck_assert_uint_eq(run_job(e, make_job(&s), arch, NULL), 1);
    ck_assert_uint_eq(r32(counter), n);
    ck_assert_uint_eq(r32(sum), 5 + n * (n - 1) / 2);
    ck_assert_uint_eq(r32(max), n - 1);
    /* every thread got a distinct slot: out is a permutation of the global ids */
    uint8_t *seen = calloc(n, 1);
    for (unsigned i = 0; i < n; i++) {
        uint32_t g = r32(out + 4 * i);
        ck_assert_uint_lt(g, n);
        ck_assert(!seen[g]);
        seen[g] = 1;
    }
    free(seen);
    gpu_compute_free(e);
}

START_TEST(test_atomics_1) { check_atomics(6, 1); check_atomics(7, 1); }
END_TEST
START_TEST(test_atomics_n) { check_atomics(6, pool_threads()); check_atomics(7, pool_threads()); }
END_TEST
/* through the map fast path: host atomics on the cached host pages (use_map 2: the engine loads
 * the generation word instead of calling generation) */
START_TEST(test_atomics_map)
{
    for (use_map = 1; use_map <= 2; use_map++) {
        check_atomics(6, pool_threads());
        check_atomics(7, 1);
        check_misc(7, pool_threads());
        check_vecadd(6, pool_threads());
    }
    use_map = 0;
}
END_TEST

/* A page the job's atomics use is unmapped while it runs (the generation changes): the page
 * cache drops the host pointer, and the next atomic on it faults there, with the generation
 * called or loaded as a word (use_map 1, 2).  One host thread: the first progress report comes
 * after ~65536 warp-tuples, long before the job's end. */
START_TEST(test_map_generation)
{
    for (use_map = 1; use_map <= 2; use_map++) {
        setup();
        gpu_compute *e = engine_new(1);
        const unsigned groups = 8192, n = groups * 16;
        uint64_t counter = alloc(4, 4096), out = alloc(4 * n, 4096), sum = alloc(4, 4096), max = alloc(4, 4096);
        uint64_t push[4] = { counter, out, sum, max };
        job_spec s = { .local = { 16, 1, 1 }, .groups = { groups, 1, 1 },
                       .shader_va = load_shader(bi_shader_gpu_atomic, sizeof(bi_shader_gpu_atomic)), .push = push,
                       .npush = 4 };
        uint64_t job = make_job(&s), fva = 0;
        progress_sum = 0;
        unmap_at_progress = counter;
        ck_assert_uint_eq(run_job(e, job, 6, &fva), FAULT_CODE);
        ck_assert_uint_eq(unmap_at_progress, 0);             /* unmapped mid-job */
        ck_assert_uint_eq(fva, counter);
        ck_assert_uint_gt(r32(counter), 0);                   /* atomics ran there before */
        ck_assert_uint_lt(r32(counter), n);
        gpu_compute_free(e);
    }
    use_map = 0;
}
END_TEST

/* ---- 64-bit global atomics from many workgroups (tests/gpu/gpu_atomic64.s) -------------------- */

/* Runs the shader on `threads` host threads and returns the five 64-bit words it updates. */
static void run_atomics64(unsigned arch, unsigned threads, uint64_t res[5])
{
    setup();
    gpu_compute *e = engine_new(threads);
    const unsigned groups = 256, local = 16;
    static const uint64_t init[5] = { 0x0123456789abcdefull, 0x00000000fffffff0ull, 0x8000000000000000ull,
                                      ~0ull, 0x5555aaaa5555aaaaull };
    uint64_t push[5];
    for (unsigned i = 0; i < 5; i++) {
        push[i] = alloc(8, 64);
        w64(push[i], init[i]);
    }
    job_spec s = { .local = { local, 1, 1 }, .groups = { groups, 1, 1 },
                   .shader_va = load_shader(bi_shader_gpu_atomic64, sizeof(bi_shader_gpu_atomic64)), .push = push,
                   .npush = 5 };
    ck_assert_uint_eq(run_job(e, make_job(&s), arch, NULL), 1);
    for (unsigned i = 0; i < 5; i++)
        res[i] = r64(push[i]);
    gpu_compute_free(e);
}

static void check_atomics64(unsigned arch)
{
    const unsigned n = 256 * 16;
    /* the reference: the same operations in C, in any order (each is commutative) */
    uint64_t want[5] = { 0x0123456789abcdefull, 0x00000000fffffff0ull, 0x8000000000000000ull, ~0ull,
                         0x5555aaaa5555aaaaull };
    for (uint64_t g = 0; g < n; g++) {
        want[0] += g << 32 | 0xffffff00u;
        want[1] += 1;
        int64_t m = (int64_t)((uint64_t)(uint32_t)((uint32_t)g - 2048) << 32 | g);
        if (m > (int64_t)want[2])
            want[2] = (uint64_t)m;
        uint64_t u = g << 32 | (uint32_t)~g;
        if (u < want[3])
            want[3] = u;
        want[4] ^= g << 40 | g;
    }
    uint64_t one[5], two[5];
    run_atomics64(arch, 1, one);
    run_atomics64(arch, 2, two);
    for (unsigned i = 0; i < 5; i++) {
        ck_assert_msg(one[i] == want[i], "arch %u word %u, 1 thread: %#llx, want %#llx", arch, i,
                      (unsigned long long)one[i], (unsigned long long)want[i]);
        ck_assert_msg(two[i] == one[i], "arch %u word %u: 2 threads %#llx, 1 thread %#llx", arch, i,
                      (unsigned long long)two[i], (unsigned long long)one[i]);
    }
}

START_TEST(test_atomics64)
{
    check_atomics64(6);
    check_atomics64(7);
    use_map = 1;                 /* host atomics on the cached host pages */
    check_atomics64(7);
    use_map = 0;
}
END_TEST

/* ---- TLS, local-memory atomics, UBO loads ---------------------------------------------------- */

static void check_misc(unsigned arch, unsigned threads)
{
    setup();
    gpu_compute *e = engine_new(threads);
    const unsigned groups = 32, n = 16 * groups;
    uint64_t A = alloc(4 * n, 64), B = alloc(4 * n, 64), C = alloc(4 * n, 64), ubo = alloc(64, 16);
    for (unsigned i = 0; i < 16; i++)
        w32(ubo + 4 * i, 0x1000 + i * 7);
    uint64_t push[3] = { A, B, C };
    job_spec s = { .local = { 4, 4, 1 }, .groups = { groups, 1, 1 },
                   .shader_va = load_shader(bi_shader_gpu_misc, sizeof(bi_shader_gpu_misc)), .push = push, .npush = 3,
                   .wls_bytes = 4, .tls_bytes = 16, .ubo_va = ubo, .ubo_bytes = 64 };
    /* 4x4 local size: r55 = x | y << 16 -> the shader's lid*4 is (x + 65536 y) * 4: use 16x1 */
    s.local[0] = 16;
    s.local[1] = 1;
    ck_assert_uint_eq(run_job(e, make_job(&s), arch, NULL), 1);
    for (unsigned g = 0; g < n; g++) {
        ck_assert_uint_eq(r32(A + 4 * g), g);
        ck_assert_uint_eq(r32(B + 4 * g), 16);
        ck_assert_uint_eq(r32(C + 4 * g), 0x1000 + (g % 16) * 7);
    }
    gpu_compute_free(e);
}

START_TEST(test_misc_v6) { check_misc(6, 1); check_misc(6, pool_threads()); }
END_TEST
START_TEST(test_misc_v7) { check_misc(7, 1); check_misc(7, pool_threads()); }
END_TEST

/* ---- a branch to address zero ends the thread ----------------------------------------------- */

START_TEST(test_branch_exit)
{
    for (unsigned arch = 6; arch <= 7; arch++) {
        setup();
        gpu_compute *e = engine_new(2);
        const unsigned n = 64;
        uint64_t out = alloc(4 * n, 64);
        for (unsigned i = 0; i < n; i++)
            w32(out + 4 * i, 0xdeadbeef);
        uint64_t push[1] = { out };
        job_spec s = { .local = { 16, 1, 1 }, .groups = { n / 16, 1, 1 },
                       .shader_va = load_shader(bi_shader_gpu_exit, sizeof(bi_shader_gpu_exit)), .push = push,
                       .npush = 1 };
        ck_assert_uint_eq(run_job(e, make_job(&s), arch, NULL), 1);
        for (unsigned i = 0; i < n; i++)
            ck_assert_uint_eq(r32(out + 4 * i), i & 1 ? 0xdeadbeef : i);
        gpu_compute_free(e);
    }
}
END_TEST

/* ---- a message reads its staging registers at the end of its clause ------------------------ */

START_TEST(test_staging_at_clause_end)
{
    for (unsigned arch = 6; arch <= 7; arch++) {
        setup();
        gpu_compute *e = engine_new(1);
        const unsigned n = 32;
        uint64_t out = alloc(4 * n, 64);
        uint64_t push[1] = { out };
        job_spec s = { .local = { 16, 1, 1 }, .groups = { n / 16, 1, 1 },
                       .shader_va = load_shader(bi_shader_gpu_stage, sizeof(bi_shader_gpu_stage)), .push = push,
                       .npush = 1 };
        ck_assert_uint_eq(run_job(e, make_job(&s), arch, NULL), 1);
        for (unsigned i = 0; i < n; i++)
            ck_assert_uint_eq(r32(out + 4 * i), i + 100);
        gpu_compute_free(e);
    }
}
END_TEST

/* ---- faults -------------------------------------------------------------------------------- */

START_TEST(test_faults)
{
    setup();
    gpu_compute *e = engine_new(pool_threads());
    const unsigned n = 256;
    uint64_t a = alloc(4 * n, 4096), b = alloc(4 * n, 4096), c = alloc(8192, 4096);
    uint64_t push[3] = { a, b, c };
    job_spec s = { .local = { 16, 1, 1 }, .groups = { n / 16, 1, 1 },
                   .shader_va = load_shader(bi_shader_gpu_vecadd, sizeof(bi_shader_gpu_vecadd)), .push = push,
                   .npush = 3 };
    uint64_t job = make_job(&s);
    uint64_t fva;
    /* the output page is unmapped: the first store faults */
    mapped[(c - VA_BASE) / 4096] = 0;
    ck_assert_uint_eq(run_job(e, job, 6, &fva), FAULT_CODE);
    ck_assert_uint_eq(fva & ~0xfffull, c);
    mapped[(c - VA_BASE) / 4096] = 1;
    ck_assert_uint_eq(run_job(e, job, 6, &fva), 1);
    /* second half of b unmapped (n/2 floats = 512 bytes in... use a page boundary): b's page */
    mapped[(b - VA_BASE) / 4096] = 0;
    ck_assert_uint_eq(run_job(e, job, 7, &fva), FAULT_CODE);
    ck_assert_uint_eq(fva, b);      /* workgroup 0, lane 0 faults first: lowest workgroup wins */
    mapped[(b - VA_BASE) / 4096] = 1;
    /* shader code unmapped: instruction fetch fault */
    mapped[(s.shader_va - VA_BASE) / 4096] = 0;
    ck_assert_uint_eq(run_job(e, job, 7, &fva), FAULT_CODE);
    ck_assert_uint_eq(fva, s.shader_va);
    mapped[(s.shader_va - VA_BASE) / 4096] = 1;
    /* descriptor unmapped: the push-uniform read faults */
    uint64_t push_va, bad = c + 4096 + 8;
    memcpy(&push_va, host(job + 112, 8), 8);
    memcpy(host(bad, 24), host(push_va, 24), 24);
    w64(job + 112, bad);
    ck_assert_uint_eq(run_job(e, job, 7, &fva), 1);
    mapped[(bad - VA_BASE) / 4096] = 0;
    ck_assert_uint_eq(run_job(e, job, 7, &fva), FAULT_CODE);
    ck_assert_uint_eq(fva, bad);
    mapped[(bad - VA_BASE) / 4096] = 1;
    w64(job + 112, push_va);
    /* the job descriptor itself unmapped */
    mapped[(job - VA_BASE) / 4096] = 0;
    ck_assert_uint_eq(run_job(e, job, 7, &fva), FAULT_CODE);
    ck_assert_uint_eq(fva, job + 32);
    mapped[(job - VA_BASE) / 4096] = 1;
    /* garbage code: invalid encoding; misaligned shader: invalid PC */
    uint8_t save[16];
    memcpy(save, host(s.shader_va, 16), 16);
    memset(host(s.shader_va, 16), 0xff, 16);
    ck_assert_uint_eq(run_job(e, job, 7, &fva), 0x51);
    memcpy(host(s.shader_va, 16), save, 16);
    uint64_t rsd;
    memcpy(&rsd, host(job + 120, 8), 8);
    w64(rsd, s.shader_va + 4);
    ck_assert_uint_eq(run_job(e, job, 7, &fva), 0x50);
    w64(rsd, s.shader_va);
    ck_assert_uint_eq(run_job(e, job, 7, &fva), 1);
    gpu_compute_free(e);
}
END_TEST

/* ---- stop requests: honoured after each warp's clause budget, not after a round of warps ---- */

static unsigned stop_polls;
static bool t_stop_always(void *ctx) { (void)ctx; stop_polls++; return true; }

START_TEST(test_stop_many_warps)
{
    /* 1024 threads (256 warps on v6) spinning forever: before the fix every warp ran its full
     * budget before the first poll (256 x 65536 clauses, ~seconds); now the job stops after the
     * first warp's budget (seen as slow inputs of tests/fuzz/fuzz_compute.c). */
    setup();
    gpu_compute *e = engine_new(1);
    job_spec s = { .local = { 1024, 1, 1 }, .groups = { 1, 1, 1 },
                   .shader_va = load_shader(bi_shader_gpu_spin, sizeof(bi_shader_gpu_spin)) };
    uint64_t job = make_job(&s), fva = 1;
    gpu_compute_job j = { .job_va = job, .type = 4, .arch_major = 6, .core_mask = 1,
                          .mem = { .read = t_read, .write = flat_write, .fetch = t_fetch, .atomic = t_atomic,
                                   .should_stop = t_stop_always } };
    stop_polls = 0;
    ck_assert_uint_eq(gpu_compute_run(e, &j, &fva), 0x03);     /* STOPPED */
    ck_assert_uint_eq(fva, 0);
    ck_assert_uint_eq(stop_polls, 1);
    gpu_compute_stats st;
    gpu_compute_get_stats(e, &st);
    ck_assert_uint_le(st.clauses, 2 * 65536);
    gpu_compute_free(e);
}
END_TEST

/* ---- shader cache: reused while the code is unchanged, re-decoded when it changes --------- */

START_TEST(test_shader_cache)
{
    setup();
    gpu_compute *e = engine_new(2);
    const unsigned n = 64;
    uint64_t a = alloc(4 * n, 64), b = alloc(4 * n, 64), c = alloc(4 * n, 64);
    for (unsigned i = 0; i < n; i++) {
        float x = (float)i, y = 1000.0f;
        memcpy(host(a + 4 * i, 4), &x, 4);
        memcpy(host(b + 4 * i, 4), &y, 4);
    }
    uint64_t push[3] = { a, b, c };
    job_spec s = { .local = { 16, 1, 1 }, .groups = { n / 16, 1, 1 },
                   .shader_va = load_shader(bi_shader_gpu_vecadd, sizeof(bi_shader_gpu_vecadd)), .push = push,
                   .npush = 3 };
    uint64_t job = make_job(&s);
    for (int k = 0; k < 3; k++)
        ck_assert_uint_eq(run_job(e, job, 7, NULL), 1);
    gpu_compute_stats st;
    gpu_compute_get_stats(e, &st);
    ck_assert_uint_eq(st.programs_decoded, 1);
    ck_assert_uint_eq(st.programs_reused, 2);
    float got;
    memcpy(&got, host(c + 4 * 5, 4), 4);
    ck_assert(got == 1005.0f);
    /* rewrite the code in place (FADD -> the same clause computing FADD(r4, -r5)): found changed */
    bi_clause cl;
    size_t off = 0;
    while (1) {
        ck_assert_int_eq(bi_decode_clause(host(s.shader_va + off, 16), sizeof(bi_shader_gpu_vecadd) - off, (uint32_t)off,
                                          BI_ARCH_V7, &cl, NULL, 0), 0);
        if (!strcmp(bi_ops[cl.t[0].add.op].name, "FADD.f32"))
            break;
        off += cl.size;
    }
    /* swap the shader for the reduction's bytes and back: run with different code at the VA */
    uint8_t *code = host(s.shader_va, sizeof(bi_shader_gpu_vecadd));
    uint8_t saved[sizeof(bi_shader_gpu_vecadd)];
    memcpy(saved, code, sizeof(saved));
    memset(code + off, 0xff, 16);               /* that clause is now invalid */
    ck_assert_uint_eq(run_job(e, job, 7, NULL), 0x51);
    memcpy(code, saved, sizeof(saved));
    ck_assert_uint_eq(run_job(e, job, 7, NULL), 1);
    gpu_compute_invalidate(e, -1);
    ck_assert_uint_eq(run_job(e, job, 7, NULL), 1);
    gpu_compute_get_stats(e, &st);
    ck_assert_uint_eq(st.programs_decoded, 2);
    gpu_compute_free(e);
}
END_TEST

/* ---- throughput (GPU_BENCH=1): lane-instructions per second, interp vs jit, 1 vs 2 host threads - */

START_TEST(test_bench)
{
    if (!getenv("GPU_BENCH"))
        return;
    enum bi_backend before = bi_get_backend();
    /* GPU_BENCH_ONLY=interp|jit: one back end; GPU_BENCH_SGEMM=M,N,K: the sgemm's size (for perf) */
    const char *only = getenv("GPU_BENCH_ONLY");
    unsigned sm = 64, sn = 64, sk = 64;
    if (getenv("GPU_BENCH_SGEMM"))
        sscanf(getenv("GPU_BENCH_SGEMM"), "%u,%u,%u", &sm, &sn, &sk);
    for (unsigned run = 0; run < 4; run++) {      /* interp, jit (where the host runs it); 1, 2 threads */
        unsigned threads = 1 + run % 2;
        const char *be = run < 2 ? "interp" : "jit";
        if (only && strcmp(only, be))
            continue;
        if (bi_set_backend(run < 2 ? BI_BACKEND_INTERP : BI_BACKEND_JIT))
            break;
        uint32_t out[2048];
        struct timespec t0, t1, c0, c1;
        setup();
        clock_gettime(CLOCK_MONOTONIC, &t0);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
        gpu_compute *e = engine_new(threads);
        const unsigned groups = 2048;
        uint64_t in = alloc(4 * 16 * groups, 64), o = alloc(4 * groups, 64);
        uint64_t push[2] = { in, o };
        job_spec s = { .local = { 16, 1, 1 }, .groups = { groups, 1, 1 },
                       .shader_va = load_shader(bi_shader_gpu_reduce, sizeof(bi_shader_gpu_reduce)), .push = push,
                       .npush = 2, .wls_bytes = 64 };
        uint64_t job = make_job(&s);
        for (int k = 0; k < 10; k++)
            ck_assert_uint_eq(run_job(e, job, 7, NULL), 1);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
        gpu_compute_stats st;
        gpu_compute_get_stats(e, &st);
        double sec = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
        double cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) * 1e-9;
        printf("gpu bench: %s: %u thread(s): %llu lane-instructions (%llu lane-clauses) in %.3f s = %.1f M lane-instr/s"
               " (%.3f s CPU: %.1f M lane-instr per CPU-second)\n",
               be, threads, (unsigned long long)st.lane_instrs, (unsigned long long)st.lane_clauses, sec,
               (double)st.lane_instrs / sec / 1e6, cpu, (double)st.lane_instrs / cpu / 1e6);
        (void)out;
        gpu_compute_free(e);
        e = engine_new(threads);
        use_map = 1;             /* global memory through the map fast path, as on the device */
        double cpu2, sec2 = run_mesa_sgemm(e, 6, sm, sn, sk, &cpu2);
        use_map = 0;
        gpu_compute_get_stats(e, &st);
        printf("gpu bench: %s: %u thread(s): Mesa sgemm_naive %ux%ux%u (v6): %llu lane-instructions in %.3f s ="
               " %.1f M lane-instr/s (%.3f s CPU: %.1f M lane-instr per CPU-second)\n", be, threads, sm, sn, sk,
               (unsigned long long)st.lane_instrs, sec2, (double)st.lane_instrs / sec2 / 1e6, cpu2,
               (double)st.lane_instrs / cpu2 / 1e6);
        gpu_compute_free(e);
        for (unsigned arch = 6; arch <= 7; arch++) {     /* clpeak-like FMA chains */
            e = engine_new(threads);
            double cpu3 = run_fma_loop(e, arch, 4096, 256);
            gpu_compute_get_stats(e, &st);
            printf("gpu bench: %s: %u thread(s): FMA loop (v%u): %llu lane-instructions, %.3f s CPU: %.1f M lane-instr"
                   " per CPU-second\n", be, threads, arch, (unsigned long long)st.lane_instrs, cpu3,
                   (double)st.lane_instrs / cpu3 / 1e6);
            gpu_compute_free(e);
        }
    }
    bi_set_backend(before);
}
END_TEST

/* ---- --timing: the same counts and time for any number of host threads ---------------------- */

typedef struct {
    gpu_timing_job jt;
    uint64_t stall;
} timing_result;

static timing_result timed_vecadd(unsigned arch, unsigned threads, enum bi_backend be)
{
    tm_config cfg = { 0 };
    char err[256];
    ck_assert_msg(tm_config_parse(&cfg, "preset=g71,gpu.l1.size=1K,gpu.l1.assoc=2", err, sizeof(err)) == 0, "%s", err);
    timing = &cfg;
    enum bi_backend before = bi_get_backend();
    bi_set_backend(be);
    stall_sum = 0;
    check_vecadd(arch, threads);        /* results still right with every access recorded */
    timing_result r = { .stall = stall_sum };
    bi_set_backend(before);
    timing = NULL;
    return r;
}

START_TEST(test_timing_threads)
{
    for (unsigned arch = 6; arch <= 7; arch++) {
        gpu_timing_job ref = { 0 };
        uint64_t ref_stall = 0;
        for (unsigned threads = 1; threads <= 4; threads *= 2)
            for (unsigned be = BI_BACKEND_INTERP; be <= BI_BACKEND_JIT; be++) {
                tm_config cfg = { 0 };
                char err[256];
                ck_assert(tm_config_parse(&cfg, "preset=g71,gpu.l1.size=1K,gpu.l1.assoc=2", err, sizeof(err)) == 0);
                timing = &cfg;
                enum bi_backend before = bi_get_backend();
                if (bi_set_backend((enum bi_backend)be) && be == BI_BACKEND_JIT) {
                    printf("timing threads: the host lacks SSE4.1 + SSSE3: the jit not compared\n");
                    continue;                   /* a host without the clause compiler */
                }
                setup();
                gpu_compute *e = engine_new(threads);
                const unsigned n = 4096;
                uint64_t a = alloc(4 * n, 64), b = alloc(4 * n, 64), c = alloc(4 * n, 64);
                uint64_t push[3] = { a, b, c };
                job_spec s = { .local = { 16, 1, 1 }, .groups = { n / 16, 1, 1 },
                               .shader_va = load_shader(bi_shader_gpu_vecadd, sizeof(bi_shader_gpu_vecadd)),
                               .push = push, .npush = 3 };
                stall_sum = 0;
                ck_assert_uint_eq(run_job(e, make_job(&s), arch, NULL), 1);
                gpu_timing_job jt;
                ck_assert(gpu_compute_last_timing(e, &jt));
                gpu_compute_free(e);
                bi_set_backend(before);
                timing = NULL;
                /* three 32-bit messages per warp (a, b loads, c store), each within one 64-byte line */
                uint64_t warps = n / (arch == 7 ? 8 : 4);
                ck_assert_uint_eq(jt.messages, 3 * warps);
                ck_assert_uint_eq(jt.requests, 3 * warps);
                ck_assert_uint_eq(jt.counts.l1.accesses, 3 * warps);
                ck_assert_uint_eq(jt.counts.l1.hits + jt.counts.l1.misses, jt.counts.l1.accesses);
                /* every line of the three arrays misses L2 once (the store allocates in L2) */
                ck_assert_uint_eq(jt.counts.l2.misses, 3 * n * 4 / 64);
                ck_assert_uint_eq(jt.counts.dram.reads, jt.counts.l2.misses);
                ck_assert_uint_eq(stall_sum, jt.stall_cycles);
                ck_assert_uint_gt(jt.stall_cycles, 0);
                if (threads == 1 && be == BI_BACKEND_INTERP) {
                    ref = jt;
                    ref_stall = stall_sum;
                } else {
                    ck_assert_msg(!memcmp(&jt, &ref, sizeof(jt)), "arch %u, %u threads, backend %u: counts differ",
                                  arch, threads, be);
                    ck_assert_uint_eq(stall_sum, ref_stall);
                }
            }
    }
    /* the engine's results with timing on: unchanged */
    timed_vecadd(6, pool_threads(), BI_BACKEND_JIT);
    timed_vecadd(7, 1, BI_BACKEND_INTERP);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("gpu_compute");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_vecadd_v6_1);
    tcase_add_test(tc, test_vecadd_v7_n);
    tcase_add_test(tc, test_reduce_v6);
    tcase_add_test(tc, test_reduce_v7);
    tcase_add_test(tc, test_mesa_sgemm_v6);
    tcase_add_test(tc, test_mesa_sgemm_v7);
    tcase_add_test(tc, test_fma_loop);
    tcase_add_test(tc, test_atomics_1);
    tcase_add_test(tc, test_atomics_n);
    tcase_add_test(tc, test_atomics_map);
    tcase_add_test(tc, test_map_generation);
    tcase_add_test(tc, test_atomics64);
    tcase_add_test(tc, test_misc_v6);
    tcase_add_test(tc, test_misc_v7);
    tcase_add_test(tc, test_branch_exit);
    tcase_add_test(tc, test_staging_at_clause_end);
    tcase_add_test(tc, test_faults);
    tcase_add_test(tc, test_stop_many_warps);
    tcase_add_test(tc, test_shader_cache);
    tcase_add_test(tc, test_timing_threads);
    tcase_add_test(tc, test_bench);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
