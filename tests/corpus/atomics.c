/* C11 atomics, single-threaded and with pthreads (deterministic results). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

static atomic_long counter;
static atomic_int flag;
static _Atomic uint64_t wide;
static _Atomic uint8_t small;
static _Atomic uint16_t mid;
static _Atomic __int128 *dummy;
static long plain[4];

static void *worker(void *arg)
{
    long id = (long)arg;
    for (int i = 0; i < 20000; i++) {
        atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
        atomic_fetch_add(&wide, (uint64_t)id << 32 | 1);
        uint8_t o = atomic_load(&small);
        while (!atomic_compare_exchange_weak(&small, &o, (uint8_t)(o + 1)))
            ;
        atomic_fetch_xor(&mid, (uint16_t)(1u << (id * 4)));
        plain[id]++;
    }
    atomic_store_explicit(&flag, 1, memory_order_release);
    return NULL;
}

int main(void)
{
    atomic_int x = 5;
    int e = 5;
    printf("cas %d ", atomic_compare_exchange_strong(&x, &e, 9));
    e = 5;
    printf("%d %d %d\n", atomic_compare_exchange_strong(&x, &e, 1), e, atomic_load(&x));
    printf("xchg %d fetch_or %d fetch_and %d fetch_sub %d now %d\n", atomic_exchange(&x, 100),
           atomic_fetch_or(&x, 3), atomic_fetch_and(&x, 0x31), atomic_fetch_sub(&x, 7), atomic_load(&x));
    atomic_flag f = ATOMIC_FLAG_INIT;
    printf("flag %d %d\n", atomic_flag_test_and_set(&f), atomic_flag_test_and_set(&f));
    atomic_thread_fence(memory_order_seq_cst);
    (void)dummy;

    pthread_t t[4];
    for (long i = 0; i < 4; i++) pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    printf("threads counter %ld wide %016llx small %u mid %04x plain %ld %ld %ld %ld flag %d\n",
           atomic_load(&counter), (unsigned long long)atomic_load(&wide), atomic_load(&small),
           atomic_load(&mid), plain[0], plain[1], plain[2], plain[3], atomic_load(&flag));
    return 0;
}
