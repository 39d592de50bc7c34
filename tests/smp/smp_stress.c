/* Guest-side SMP stress test (run by tests/smp/smp_test.sh under build/malibu --smp N): threads
 * hammer shared memory the ways kernels and pthread programs do, and every result is checked:
 *
 *   llsc      T threads add 1 to one counter N times each with an LDXR/STXR loop: total T*N
 *             (a lost update means a store-exclusive succeeded after another CPU's store)
 *   lse       same with Armv8.1 atomics: each thread does N LDADDAL and N CASAL-loop increments of
 *             one counter: total 2*T*N (each must be one indivisible host atomic)
 *   mutex     same with a pthread mutex around a plain load + store
 *   msgpass   producer writes a payload then stores the sequence number with STLR; consumers
 *             read it with LDAR and must see the whole payload (release/acquire ordering)
 *   sb        store buffering with DMB ISH between the store and the load: r0 = r1 = 0 is
 *             forbidden (a missing store->load fence on the host shows up here)
 *   speed     W independent CPU-bound workers: prints the wall time for 1 and for W workers
 *
 * Usage: smp_stress [THREADS [ITERATIONS]]   (default: the online CPUs, 200000)
 *        smp_stress speed [WORKERS [ITERATIONS]]   (default: the online CPUs, 500000000)
 * Last line: "smp_stress: PASS" (exit 0) or "smp_stress: FAIL" (exit 1). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 16

static unsigned nthreads;
static unsigned long iters;
static pthread_barrier_t start_line;

static void llsc_inc(uint64_t *p)
{
    uint64_t v;
    uint32_t fail;
    __asm__ volatile("1: ldxr %0, [%2]\n"
                     "   add %0, %0, #1\n"
                     "   stxr %w1, %0, [%2]\n"
                     "   cbnz %w1, 1b\n"
                     : "=&r"(v), "=&r"(fail)
                     : "r"(p)
                     : "memory");
}

/* ---- llsc ---- */
static uint64_t llsc_counter __attribute__((aligned(64)));

static void *llsc_worker(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&start_line);
    for (unsigned long i = 0; i < iters; i++)
        llsc_inc(&llsc_counter);
    return NULL;
}

/* ---- lse ---- */
static uint64_t lse_counter __attribute__((aligned(64)));

static void lse_ldadd(uint64_t *p)
{
    uint64_t one = 1, old;
    __asm__ volatile(".arch_extension lse\n"
                     "ldaddal %1, %0, [%2]\n"
                     : "=&r"(old)
                     : "r"(one), "r"(p)
                     : "memory");
}

static void lse_cas_inc(uint64_t *p)
{
    uint64_t seen = __atomic_load_n(p, __ATOMIC_RELAXED), cmp;
    do {
        cmp = seen;
        __asm__ volatile(".arch_extension lse\n"
                         "casal %0, %2, [%1]\n"
                         : "+r"(seen)
                         : "r"(p), "r"(cmp + 1)
                         : "memory");
    } while (seen != cmp);
}

static void *lse_worker(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&start_line);
    for (unsigned long i = 0; i < iters; i++) {
        lse_ldadd(&lse_counter);
        lse_cas_inc(&lse_counter);
    }
    return NULL;
}

/* ---- mutex ---- */
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static volatile uint64_t mutex_counter;

static void *mutex_worker(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&start_line);
    for (unsigned long i = 0; i < iters / 4; i++) {
        pthread_mutex_lock(&mutex);
        mutex_counter = mutex_counter + 1;
        pthread_mutex_unlock(&mutex);
    }
    return NULL;
}

/* ---- msgpass: one producer, the other threads consume ---- */
#define PAYLOAD 8
static struct {
    uint64_t data[PAYLOAD];
    uint64_t seq __attribute__((aligned(64)));
    uint64_t acks __attribute__((aligned(64)));
} box;
static uint64_t mp_errors;

static void *mp_producer(void *arg)
{
    unsigned consumers = (unsigned)(uintptr_t)arg;
    pthread_barrier_wait(&start_line);
    unsigned long rounds = iters / 20;
    for (uint64_t s = 1; s <= rounds; s++) {
        /* wait until every consumer acknowledged the previous message */
        while (__atomic_load_n(&box.acks, __ATOMIC_ACQUIRE) != (s - 1) * consumers)
            ;
        for (unsigned i = 0; i < PAYLOAD; i++)
            box.data[i] = s * 1000 + i;   /* plain stores */
        __atomic_store_n(&box.seq, s, __ATOMIC_RELEASE); /* STLR */
    }
    return NULL;
}

static void *mp_consumer(void *arg)
{
    (void)arg;
    pthread_barrier_wait(&start_line);
    unsigned long rounds = iters / 20;
    for (uint64_t s = 1; s <= rounds; s++) {
        while (__atomic_load_n(&box.seq, __ATOMIC_ACQUIRE) != s) /* LDAR */
            ;
        for (unsigned i = 0; i < PAYLOAD; i++)
            if (box.data[i] != s * 1000 + i)
                __atomic_add_fetch(&mp_errors, 1, __ATOMIC_RELAXED);
        llsc_inc(&box.acks);
    }
    return NULL;
}

/* ---- sb: store buffering with full barriers, two threads ---- */
static volatile uint64_t sb_x __attribute__((aligned(64))), sb_y __attribute__((aligned(64)));
static volatile uint64_t sb_r[2];
static volatile uint64_t sb_round __attribute__((aligned(64)));
static uint64_t sb_done __attribute__((aligned(64)));
static uint64_t sb_forbidden;

static void *sb_worker(void *arg)
{
    unsigned me = (unsigned)(uintptr_t)arg;
    volatile uint64_t *mine = me ? &sb_y : &sb_x, *other = me ? &sb_x : &sb_y;
    pthread_barrier_wait(&start_line);
    unsigned long rounds = iters / 20;
    for (uint64_t r = 1; r <= rounds; r++) {
        while (sb_round != r) /* thread 0 opens each round */
            if (me == 0 && __atomic_load_n(&sb_done, __ATOMIC_ACQUIRE) == 2 * (r - 1)) {
                sb_x = sb_y = 0;
                __atomic_store_n(&sb_round, r, __ATOMIC_RELEASE);
            }
        *mine = 1;
        __asm__ volatile("dmb ish" ::: "memory");
        sb_r[me] = *other;
        __asm__ volatile("dmb ish" ::: "memory");
        if (me == 0) {
            llsc_inc(&sb_done);
            while (__atomic_load_n(&sb_done, __ATOMIC_ACQUIRE) != 2 * r)
                ;
            if (sb_r[0] == 0 && sb_r[1] == 0)
                sb_forbidden++;
        } else {
            llsc_inc(&sb_done);
        }
    }
    return NULL;
}

static void run(void *(*fn)(void *), unsigned n, void *(*first)(void *), void *first_arg)
{
    pthread_t t[MAX_THREADS];
    pthread_barrier_init(&start_line, NULL, n);
    for (unsigned i = 0; i < n; i++)
        pthread_create(&t[i], NULL, i == 0 && first ? first : fn,
                       i == 0 && first ? first_arg : (void *)(uintptr_t)i);
    for (unsigned i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start_line);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static volatile uint64_t sink[MAX_THREADS * 8];

static void *spin_worker(void *arg)
{
    unsigned me = (unsigned)(uintptr_t)arg;
    pthread_barrier_wait(&start_line);
    uint64_t x = me + 1;
    for (unsigned long i = 0; i < iters; i++)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    sink[me * 8] = x;
    return NULL;
}

static int speed(unsigned workers, unsigned long n)
{
    if (workers < 1 || workers > MAX_THREADS || n < 1) {
        fprintf(stderr, "smp_stress: speed: 1..%d workers, at least 1 iteration\n", MAX_THREADS);
        return 2;
    }
    iters = n;
    double t0 = now();
    run(spin_worker, 1, NULL, NULL);
    double one = now() - t0;
    t0 = now();
    run(spin_worker, workers, NULL, NULL);
    double many = now() - t0;
    printf("smp_stress: speed: 1 worker %.3f s, %u workers %.3f s, throughput x%.2f\n", one, workers,
           many, workers * one / many);
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (argc > 1 && !strcmp(argv[1], "speed"))
        return speed(argc > 2 ? (unsigned)atoi(argv[2]) : (unsigned)online,
                     argc > 3 ? strtoul(argv[3], NULL, 0) : 500000000);
    nthreads = argc > 1 ? (unsigned)atoi(argv[1]) : (unsigned)online;
    iters = argc > 2 ? strtoul(argv[2], NULL, 0) : 200000;
    if (nthreads < 2 || nthreads > MAX_THREADS || iters < 20) {
        fprintf(stderr, "smp_stress: 2..%d threads\n", MAX_THREADS);
        return 2;
    }
    int fail = 0;
    printf("smp_stress: %u threads, %lu iterations, %ld CPUs online\n", nthreads, iters, online);

    run(llsc_worker, nthreads, NULL, NULL);
    uint64_t want = (uint64_t)nthreads * iters;
    printf("smp_stress: llsc: counter %llu, expected %llu\n", (unsigned long long)llsc_counter,
           (unsigned long long)want);
    fail |= llsc_counter != want;

    run(lse_worker, nthreads, NULL, NULL);
    want = (uint64_t)nthreads * iters * 2;
    printf("smp_stress: lse: counter %llu, expected %llu\n", (unsigned long long)lse_counter,
           (unsigned long long)want);
    fail |= lse_counter != want;

    run(mutex_worker, nthreads, NULL, NULL);
    want = (uint64_t)nthreads * (iters / 4);
    printf("smp_stress: mutex: counter %llu, expected %llu\n", (unsigned long long)mutex_counter,
           (unsigned long long)want);
    fail |= mutex_counter != want;

    run(mp_consumer, nthreads, mp_producer, (void *)(uintptr_t)(nthreads - 1));
    printf("smp_stress: msgpass: %lu messages to %u consumers, %llu stale payload words\n",
           iters / 20, nthreads - 1, (unsigned long long)mp_errors);
    fail |= mp_errors != 0;

    run(sb_worker, 2, NULL, NULL);
    printf("smp_stress: sb: %lu rounds, %llu forbidden r0=r1=0 outcomes\n", iters / 20,
           (unsigned long long)sb_forbidden);
    fail |= sb_forbidden != 0;

    printf("smp_stress: %s\n", fail ? "FAIL" : "PASS");
    return fail;
}
