/* The shader-core pool's gate (emu/gpu/job_gate.c): one job at a time; waiting jobs enter by
 * priority, highest first, then in arrival order. */
#include <check.h>
#include <pthread.h>
#include <unistd.h>

#include "job_gate.h"

typedef struct {
    job_gate *g;
    unsigned priority, id;
    unsigned *order, *n;
    pthread_mutex_t *lock;
} entrant;

static void *enter_and_record(void *arg)
{
    entrant *e = arg;
    job_gate_enter(e->g, e->priority);
    pthread_mutex_lock(e->lock);
    e->order[(*e->n)++] = e->id;
    pthread_mutex_unlock(e->lock);
    job_gate_leave(e->g);
    return NULL;
}

static void wait_for_waiters(job_gate *g, unsigned n)
{
    for (int i = 0; i < 5000 && job_gate_waiting(g) < n; i++)
        usleep(1000);
    ck_assert_uint_eq(job_gate_waiting(g), n);
}

/* While one job holds the pool, jobs arrive with priorities 2, 8, 2, 15, 8: they enter 15, 8
 * (first come), 8, 2, 2. */
START_TEST(test_priority_order)
{
    static const unsigned prio[5] = { 2, 8, 2, 15, 8 };
    job_gate g;
    job_gate_init(&g);
    unsigned order[5], n = 0;
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    entrant e[5];
    pthread_t t[5];
    job_gate_enter(&g, 0);
    for (unsigned i = 0; i < 5; i++) {
        e[i] = (entrant){ .g = &g, .priority = prio[i], .id = i, .order = order, .n = &n, .lock = &lock };
        ck_assert_int_eq(pthread_create(&t[i], NULL, enter_and_record, &e[i]), 0);
        wait_for_waiters(&g, i + 1);            /* arrival order = i */
    }
    job_gate_leave(&g);
    for (unsigned i = 0; i < 5; i++)
        pthread_join(t[i], NULL);
    static const unsigned want[5] = { 3, 1, 4, 0, 2 };
    ck_assert_uint_eq(n, 5);
    for (unsigned i = 0; i < 5; i++)
        ck_assert_msg(order[i] == want[i], "entry %u: job %u, want %u", i, order[i], want[i]);
    job_gate_destroy(&g);
}
END_TEST

/* An idle gate admits at once, whatever the priority; equal priorities keep arrival order. */
START_TEST(test_idle_and_fifo)
{
    job_gate g;
    job_gate_init(&g);
    job_gate_enter(&g, 3);
    ck_assert_uint_eq(job_gate_waiting(&g), 0);
    unsigned order[3], n = 0;
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    entrant e[3];
    pthread_t t[3];
    for (unsigned i = 0; i < 3; i++) {
        e[i] = (entrant){ .g = &g, .priority = 8, .id = i, .order = order, .n = &n, .lock = &lock };
        ck_assert_int_eq(pthread_create(&t[i], NULL, enter_and_record, &e[i]), 0);
        wait_for_waiters(&g, i + 1);
    }
    job_gate_leave(&g);
    for (unsigned i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    for (unsigned i = 0; i < 3; i++)
        ck_assert_uint_eq(order[i], i);
    job_gate_destroy(&g);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("job_gate");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_priority_order);
    tcase_add_test(tc, test_idle_and_fifo);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
