/* Guest-side SMP atomics benchmark (bench/smp-atomics.sh): T threads update shared counters the
 * way compiled C code does, and the totals are checked.  Built with GCC's default outline atomics,
 * so each __atomic operation is a libgcc call that uses LSE (LDADDAL, CASAL) when AT_HWCAP has
 * HWCAP_ATOMICS and an LDAXR/STLXR loop otherwise: the same binary measures both cores.
 *
 *   add     T threads x N __atomic_fetch_add on one counter              total T*N
 *   cas     T threads x N compare-and-swap increments (a CAS retry loop)  total T*N
 *   mutex   T threads x N/64 pthread_mutex lock / increment / unlock       total T*(N/64)
 *           (contended: glibc's lock word plus futex waits in the kernel)
 *
 * Usage: atomic_bench [THREADS [ITERATIONS]]  (default 4, 200000).  Prints one line per phase
 * with the guest's wall time, and "atomic_bench: PASS" (exit 0) or "atomic_bench: FAIL". */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <time.h>

#define MAX_THREADS 16
#define HWCAP_ATOMICS_BIT (1ul << 8)

static unsigned nthreads;
static unsigned long iters;
static pthread_barrier_t start_line;
static uint64_t counter __attribute__((aligned(64)));
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *add_worker(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&start_line);
    for (unsigned long i = 0; i < iters; i++)
        __atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
    return NULL;
}

static void *cas_worker(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&start_line);
    for (unsigned long i = 0; i < iters; i++) {
        uint64_t v = __atomic_load_n(&counter, __ATOMIC_RELAXED);
        while (!__atomic_compare_exchange_n(&counter, &v, v + 1, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
            ;
    }
    return NULL;
}

static void *mutex_worker(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&start_line);
    for (unsigned long i = 0; i < iters / 64; i++) {
        pthread_mutex_lock(&lock);
        counter++;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int phase(const char *name, void *(*fn)(void *), uint64_t want)
{
    pthread_t t[MAX_THREADS];
    counter = 0;
    pthread_barrier_init(&start_line, NULL, nthreads + 1);
    for (unsigned i = 0; i < nthreads; i++)
        if (pthread_create(&t[i], NULL, fn, NULL)) {
            printf("atomic_bench: %s: pthread_create failed\n", name);
            return 1;
        }
    double t0 = now();
    pthread_barrier_wait(&start_line);
    for (unsigned i = 0; i < nthreads; i++)
        pthread_join(t[i], NULL);
    double dt = now() - t0;
    pthread_barrier_destroy(&start_line);
    int bad = counter != want;
    printf("atomic_bench: %-5s threads %u total %llu (want %llu) %.3f s%s\n", name, nthreads,
           (unsigned long long)counter, (unsigned long long)want, dt, bad ? " WRONG" : "");
    return bad;
}

int main(int argc, char **argv)
{
    nthreads = argc > 1 ? (unsigned)atoi(argv[1]) : 4;
    iters = argc > 2 ? strtoul(argv[2], NULL, 0) : 200000;
    if (nthreads < 1 || nthreads > MAX_THREADS) {
        fprintf(stderr, "atomic_bench: 1..%d threads\n", MAX_THREADS);
        return 2;
    }
    printf("atomic_bench: HWCAP_ATOMICS %d (outline atomics use %s)\n", !!(getauxval(AT_HWCAP) & HWCAP_ATOMICS_BIT),
           getauxval(AT_HWCAP) & HWCAP_ATOMICS_BIT ? "LSE" : "LDAXR/STLXR");
    int fail = 0;
    fail |= phase("add", add_worker, (uint64_t)nthreads * iters);
    fail |= phase("cas", cas_worker, (uint64_t)nthreads * iters);
    fail |= phase("mutex", mutex_worker, (uint64_t)nthreads * (iters / 64));
    printf("atomic_bench: %s\n", fail ? "FAIL" : "PASS");
    return fail;
}
