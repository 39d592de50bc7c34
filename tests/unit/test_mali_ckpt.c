/* devices/mali checkpoints (mali.h mali_ckpt_*, devices/mali/ckpt.c): a device quiesced with a
 * chain in flight (first compute job done, second not started), saved, loaded into a fresh
 * device with a copy of the RAM, ends its chain exactly as the saved device does when it goes
 * on (registers, IRQ lines, job headers, the engine's writes, the chain's GPU timestamp);
 * --clock icount's finished-but-unpublished end and its schedule survive a load; a job stalled
 * on an MMU fault is saved with the fault pending and runs again after the driver maps the
 * page; a different model and damaged fields are refused with a message naming them. */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "mali_harness.h"

#define J(n) (H_VA_BASE + 0x1000 + 0x40 * (n)) /* job headers */
#define D(n) (H_VA_BASE + 0x8000 + 8 * (n))    /* data words */
#define UNMAPPED (H_VA_BASE + H_ARENA_SIZE)    /* first page past the arena */

static int gate;            /* atomic: job 0 may finish */
static int entered;         /* atomic: job 0 has started */
static int fault_job = -1;  /* this job reads UNMAPPED first (a growable-heap fault) */
static uint64_t counter_v;  /* the fake system counter (atomic) */

static uint64_t counter(void *o) { (void)o; return __atomic_load_n(&counter_v, __ATOMIC_SEQ_CST); }

/* Compute job k: waits for the gate (k == 0), models 1000 * (k + 1) warp-tuples, writes
 * 0xC0DE0000 + k to D(k). */
static uint32_t engine(void *opaque, const MaliComputeJob *job)
{
    (void)opaque;
    unsigned k = (unsigned)((job->job_va - J(0)) / 0x40);
    if (k == 0)
        __atomic_store_n(&entered, 1, __ATOMIC_SEQ_CST);
    while (k == 0 && !__atomic_load_n(&gate, __ATOMIC_SEQ_CST))
        dev_sleep_ms(1);
    if ((int)k == fault_job) {
        uint64_t x;
        uint32_t st = mali_gpu_read(job->ctx, UNMAPPED, &x, 8);
        if (st)
            return st;
    }
    mali_job_progress(job->ctx, 1000ull * (k + 1));
    uint64_t v = 0xC0DE0000u + k;
    uint32_t st = mali_gpu_write(job->ctx, D(k), &v, 8);
    return st ? st : MALI_EXC_DONE;
}

/* A device on its own bus and GIC with the engine, the counter, cycle counting on. */
static H new_device(const char *model, bool icount, MaliClockModel *cm)
{
    h_setup_model(model);
    mali_set_compute_engine(h.m, engine, NULL);
    mali_set_timestamp(h.m, counter, NULL, 100000000);
    if (cm)
        mali_set_clock_model(h.m, cm);
    mali_set_icount(h.m, icount);
    return h;
}

/* Two compute jobs and a timestamp, on slot 1 in AS 1. */
static void build_chain(void)
{
    h_driver_init();
    h_map_arena(1);
    h_as_enable(1);
    wr(GPU_COMMAND, GPU_CMD_CYCLE_COUNT_START);
    for (int i = 0; i < 11; i++)
        h_wr64(h_va2pa(D(i)), 0);
    h_job_header(J(0), JOB_TYPE_COMPUTE, 1, 0, 0, false, J(1));
    h_job_header(J(1), JOB_TYPE_COMPUTE, 2, 1, 0, false, J(2));
    h_write_value(J(2), 3, 2, 0, 0, D(10), WRITE_VALUE_SYSTEM_TIMESTAMP, 0);
}

static void *quiesce_thread(void *m) { mali_ckpt_quiesce(m); return NULL; }

/* Quiesce h.m while job 0 runs: it finishes, and the slot parks before job 1. */
static void quiesce_after_job0(void)
{
    pthread_t t;
    for (int i = 0; i < 5000 && !__atomic_load_n(&entered, __ATOMIC_SEQ_CST); i++)
        dev_sleep_ms(1);
    ck_assert(entered);
    ck_assert_int_eq(pthread_create(&t, NULL, quiesce_thread, h.m), 0);
    for (int i = 0; i < 5000; i++) {
        pthread_mutex_lock(&h.m->lock);
        bool q = h.m->quiesce;
        pthread_mutex_unlock(&h.m->lock);
        if (q)
            break;
        dev_sleep_ms(1);
    }
    __atomic_store_n(&gate, 1, __ATOMIC_SEQ_CST);
    pthread_join(t, NULL);
}

/* The registers a driver can read (not the running counters), h.m's. */
static const uint32_t regs[] = {
    GPU_IRQ_RAWSTAT, GPU_IRQ_MASK, GPU_LATEST_FLUSH_ID, GPU_FAULT_STATUS, GPU_SHADER_READY_LO,
    GPU_TILER_READY_LO, GPU_L2_READY_LO, GPU_PRFCNT_CONFIG, GPU_TILER_CONFIG,
    JOB_IRQ_RAWSTAT, JOB_IRQ_MASK, JOB_IRQ_JS_STATE,
    JSR(1, JS_HEAD_LO), JSR(1, JS_TAIL_LO), JSR(1, JS_AFFINITY_LO), JSR(1, JS_CONFIG), JSR(1, JS_STATUS),
    JSR(1, JS_HEAD_NEXT_LO), JSR(1, JS_CONFIG_NEXT), JSR(1, JS_COMMAND_NEXT), JSR(1, JS_FLUSH_ID_NEXT),
    MMU_IRQ_RAWSTAT, MMU_IRQ_MASK,
    ASR(1, AS_TRANSTAB_LO), ASR(1, AS_TRANSTAB_HI), ASR(1, AS_MEMATTR_LO), ASR(1, AS_LOCKADDR_LO),
    ASR(1, AS_FAULTSTATUS), ASR(1, AS_FAULTADDRESS_LO), ASR(1, AS_FAULTADDRESS_HI), ASR(1, AS_TRANSCFG_LO),
};
#define NREGS (sizeof regs / sizeof regs[0])

static void read_regs(uint32_t *out)
{
    for (size_t i = 0; i < NREGS; i++)
        out[i] = rd(regs[i]);
}

static void assert_regs(const uint32_t *want)
{
    uint32_t got[NREGS];
    read_regs(got);
    for (size_t i = 0; i < NREGS; i++)
        ck_assert_msg(got[i] == want[i], "register 0x%x: 0x%x, saved 0x%x", regs[i], got[i], want[i]);
}

static char path[64], path2[64];

static void save_to(const char *p)
{
    char err[256];
    CkptWriter *w = ckpt_writer_open(p, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    mali_ckpt_save(h.m, w);
    ck_assert_msg(ckpt_writer_close(w, err, sizeof err), "%s", err);
}

static void save(void) { save_to(path); }

static void set_paths(void)
{
    snprintf(path, sizeof path, "/tmp/test_mali_ckpt.%d", (int)getpid());
    snprintf(path2, sizeof path2, "/tmp/test_mali_ckpt.%d.2", (int)getpid());
}

/* Load file p into h.m: NULL on success, else the reader's message (static). */
static const char *load_from(const char *p)
{
    static char msg[512];
    char err[256];
    CkptReader *r = ckpt_reader_open(p, err, sizeof err);
    ck_assert_msg(r != NULL, "%s", err);
    bool ok = mali_ckpt_load(h.m, r) && ckpt_finish(r);
    snprintf(msg, sizeof msg, "%s", ok ? "" : ckpt_error(r));
    ckpt_reader_close(r);
    return ok ? NULL : msg;
}

static const char *load(void) { return load_from(path); }

/* What the end of the chain left: status, IRQs, headers, the engine's words, the timestamp. */
typedef struct Outcome {
    uint32_t raw, status, head, tail, hdr[3];
    bool line;
    uint64_t data[3], ts;
} Outcome;

static Outcome finish(void)
{
    Outcome o;
    o.raw = h_wait(JOB_IRQ_RAWSTAT, 0x20002);
    o.line = h_line(H_INTID_JOB);
    o.status = rd(JSR(1, JS_STATUS));
    o.head = rd(JSR(1, JS_HEAD_LO));
    o.tail = rd(JSR(1, JS_TAIL_LO));
    for (int i = 0; i < 3; i++) {
        o.hdr[i] = h_job_status(J(i));
        o.data[i] = h_rd64(h_va2pa(D(i)));
    }
    o.ts = h_rd64(h_va2pa(D(10)));
    return o;
}

static void assert_same(const Outcome *a, const Outcome *b)
{
    ck_assert_uint_eq(a->raw, b->raw);
    ck_assert_int_eq(a->line, b->line);
    ck_assert_uint_eq(a->status, b->status);
    ck_assert_uint_eq(a->head, b->head);
    ck_assert_uint_eq(a->tail, b->tail);
    for (int i = 0; i < 3; i++) {
        ck_assert_uint_eq(a->hdr[i], b->hdr[i]);
        ck_assert_uint_eq(a->data[i], b->data[i]);
    }
    ck_assert_uint_eq(a->ts, b->ts);
}

static void teardown_pair(H *a, H *b)
{
    unlink(path);
    if (b->m) {
        h = *b;
        h_teardown();
    }
    h = *a;
    h_teardown();
}

START_TEST(chain_in_flight_continues_after_load)
{
    set_paths();
    entered = 0;
    gate = 0;
    fault_job = -1;
    counter_v = 1000;
    H a = new_device("g71", false, NULL);
    build_chain();
    h_submit(1, J(0), 1, false);           /* starts at counter 1000 */
    quiesce_after_job0();
    ck_assert_uint_eq(h_job_status(J(0)), MALI_EXC_DONE);
    ck_assert_uint_eq(h_job_status(J(1)), 0); /* parked before it */
    ck_assert_uint_eq(rd(JSR(1, JS_STATUS)), MALI_EXC_ACTIVE);
    char what[256];
    ck_assert_uint_eq(mali_ckpt_describe(h.m, what, sizeof what), 1);
    ck_assert_str_eq(what, "slot 1: 1 of 3 jobs done");
    uint32_t saved[NREGS];
    read_regs(saved);
    save();
    uint8_t *ram = malloc(H_RAM_SIZE);    /* the board's RAM section, in effect */
    ck_assert_ptr_nonnull(ram);
    memcpy(ram, h.ram, H_RAM_SIZE);
    /* the saved device goes on: the uninterrupted run */
    __atomic_store_n(&counter_v, 1000000, __ATOMIC_SEQ_CST);
    mali_ckpt_resume(h.m);
    Outcome want = finish();
    ck_assert_uint_eq(want.raw, 0x2);
    ck_assert(want.line);
    ck_assert_uint_eq(want.data[1], 0xC0DE0001u);
    /* warp-tuples at 6e9/s (G71 MP4: 4 cores x 3 engines x 500 MHz): 1000 = 166 ns, then
     * 2000 = 333 ns; 499 ns at 100 MHz = 49 ticks after the start */
    ck_assert_uint_eq(want.ts, 1000 + 49);
    a = h;

    H b = new_device("g71", false, NULL);
    memcpy(h.ram, ram, H_RAM_SIZE);
    free(ram);
    ck_assert_ptr_null(load());
    assert_regs(saved);
    ck_assert(!h_line(H_INTID_JOB));
    dev_sleep_ms(20); /* quiesced until resumed: the board loads its other devices meanwhile */
    ck_assert_uint_eq(h_job_status(J(1)), 0);
    mali_ckpt_resume(h.m);
    Outcome got = finish();
    assert_same(&got, &want);
    b = h;
    teardown_pair(&a, &b);
}
END_TEST

/* A chain of one job running when the checkpoint comes: the quiesce waits for its end (the slot
 * thread then parks nowhere), and the saved slot is done, its interrupt raised. */
START_TEST(quiesce_waits_for_a_chain_to_end)
{
    set_paths();
    entered = 0;
    gate = 0;
    fault_job = -1;
    counter_v = 1000;
    new_device("g71", false, NULL);
    build_chain();
    h_job_header(J(0), JOB_TYPE_COMPUTE, 1, 0, 0, false, 0);
    h_submit(1, J(0), 1, false);
    quiesce_after_job0();
    char what[256];
    ck_assert_uint_eq(mali_ckpt_describe(h.m, what, sizeof what), 1);
    ck_assert_str_eq(what, "slot 1: chain ended (status 0x1), its interrupt not yet handled");
    ck_assert_uint_eq(rd(JOB_IRQ_RAWSTAT), 0x2);
    ck_assert_uint_eq(rd(JSR(1, JS_STATUS)), MALI_EXC_DONE);
    mali_ckpt_resume(h.m);
    h_teardown();
}
END_TEST

/* A chain longer than the walker's first allocation (100 jobs: a compute job, then NULL jobs)
 * saved after its first job: the fresh device makes room for all of them and runs the rest. */
START_TEST(long_chain_loads_into_a_fresh_device)
{
    set_paths();
    entered = 0;
    gate = 0;
    fault_job = -1;
    counter_v = 1000;
    H a = new_device("g71", false, NULL);
    build_chain();
    h_job_header(J(0), JOB_TYPE_COMPUTE, 1, 0, 0, false, J(1));
    for (unsigned i = 1; i < 100; i++)
        h_job_header(J(i), JOB_TYPE_NULL, i + 1, i, 0, false, i < 99 ? J(i + 1) : 0);
    h_submit(1, J(0), 1, false);
    quiesce_after_job0();
    char what[256];
    mali_ckpt_describe(h.m, what, sizeof what);
    ck_assert_str_eq(what, "slot 1: 1 of 100 jobs done");
    save();
    uint8_t *ram = malloc(H_RAM_SIZE);
    ck_assert_ptr_nonnull(ram);
    memcpy(ram, h.ram, H_RAM_SIZE);
    mali_ckpt_resume(h.m);
    ck_assert_uint_eq(h_wait(JOB_IRQ_RAWSTAT, 0x20002), 0x2);
    a = h;

    H b = new_device("g71", false, NULL);
    memcpy(h.ram, ram, H_RAM_SIZE);
    free(ram);
    ck_assert_ptr_null(load());
    mali_ckpt_resume(h.m);
    ck_assert_uint_eq(h_wait(JOB_IRQ_RAWSTAT, 0x20002), 0x2);
    ck_assert_uint_eq(rd(JSR(1, JS_TAIL_LO)), (uint32_t)J(99));
    for (unsigned i = 0; i < 100; i++)
        ck_assert_uint_eq(h_job_status(J(i)), MALI_EXC_DONE);
    b = h;
    teardown_pair(&a, &b);
}
END_TEST

/* --clock icount: an end the host finished, published at its guest time after the load; and a
 * chain in flight keeps its start and modelled time (the same publication time). */
static uint64_t guest_ns;
static uint64_t now_ns(void *o) { (void)o; return __atomic_load_n(&guest_ns, __ATOMIC_SEQ_CST); }

static int wait_kind(int kind, uint64_t *ns)
{
    int k = MALI_ICOUNT_NONE;
    for (int i = 0; i < 5000 && (k = mali_icount_next(h.m, ns)) != kind; i++)
        dev_sleep_ms(1);
    return k;
}

START_TEST(icount_schedule_survives_a_load)
{
    set_paths();
    entered = 0;
    gate = 0;
    fault_job = -1;
    counter_v = 1000;
    guest_ns = 10000;
    MaliClockModel cm = { .now_ns = now_ns };
    H a = new_device("g71", true, &cm);
    build_chain();
    h_submit(1, J(0), 1, false);           /* starts at guest 10000 */
    quiesce_after_job0();
    uint64_t ns;
    ck_assert_int_eq(mali_icount_next(h.m, &ns), MALI_ICOUNT_BOUND);
    ck_assert_uint_eq(ns, 10000 + 166);    /* 1000 tuples so far */
    save();
    uint8_t *ram = malloc(H_RAM_SIZE);
    ck_assert_ptr_nonnull(ram);
    memcpy(ram, h.ram, H_RAM_SIZE);
    mali_ckpt_resume(h.m);
    ck_assert_int_eq(wait_kind(MALI_ICOUNT_PUBLISH, &ns), MALI_ICOUNT_PUBLISH);
    ck_assert_uint_eq(ns, 10499);
    /* finished, unpublished: a second checkpoint holds it as such */
    mali_ckpt_quiesce(h.m);
    save_to(path2);
    uint8_t *ram2 = malloc(H_RAM_SIZE);
    ck_assert_ptr_nonnull(ram2);
    memcpy(ram2, h.ram, H_RAM_SIZE);
    mali_ckpt_resume(h.m);
    guest_ns = 10499;
    mali_icount_publish(h.m, guest_ns);
    Outcome want = finish();
    ck_assert_uint_eq(want.raw, 0x2);
    a = h;

    /* the chain in flight: the same publication time, the same end */
    guest_ns = 10000;
    H b = new_device("g71", true, &cm);
    memcpy(h.ram, ram, H_RAM_SIZE);
    free(ram);
    ck_assert_ptr_null(load());
    mali_ckpt_resume(h.m);
    ck_assert_int_eq(wait_kind(MALI_ICOUNT_PUBLISH, &ns), MALI_ICOUNT_PUBLISH);
    ck_assert_uint_eq(ns, 10499);
    ck_assert_uint_eq(rd(JOB_IRQ_RAWSTAT), 0);
    guest_ns = 10499;
    mali_icount_publish(h.m, guest_ns);
    Outcome got = finish();
    assert_same(&got, &want);
    b = h;
    teardown_pair(&a, &b);

    /* the unpublished end: nothing visible until its guest time */
    a = new_device("g71", true, &cm);
    memcpy(h.ram, ram2, H_RAM_SIZE);
    free(ram2);
    ck_assert_ptr_null(load_from(path2));
    mali_ckpt_resume(h.m);
    ck_assert_int_eq(mali_icount_next(h.m, &ns), MALI_ICOUNT_PUBLISH);
    ck_assert_uint_eq(ns, 10499);
    mali_icount_publish(h.m, 10498);
    ck_assert_uint_eq(rd(JOB_IRQ_RAWSTAT), 0);
    mali_icount_publish(h.m, 10499);
    got = finish();
    assert_same(&got, &want);
    b = (H){ 0 };
    teardown_pair(&a, &b);
    unlink(path2);
}
END_TEST

/* A job waiting for the driver to map a page when the checkpoint comes: stopped, saved with the
 * MMU fault pending (MMU line high after the load), run again from its start once the driver
 * maps the page and flushes, in the saved device and the loaded one alike. */
static void driver_maps_fault(void)
{
    ck_assert_uint_eq(h_wait(MMU_IRQ_RAWSTAT, 0x2), 0x2);
    ck_assert_uint_eq(rd(ASR(1, AS_FAULTADDRESS_LO)), (uint32_t)UNMAPPED);
    h_map(1, UNMAPPED, h_alloc_page(), H_PTE_RW);
    wr(MMU_IRQ_CLEAR, 0x2);
    h_flush_range(1, UNMAPPED, 4096);
}

START_TEST(mmu_stalled_job_saved_with_its_fault)
{
    set_paths();
    entered = 0;
    gate = 1;
    fault_job = 1;
    counter_v = 1000;
    H a = new_device("g71", false, NULL);
    build_chain();
    h_submit(1, J(0), 1, false);
    ck_assert(h_wait_stalled(1));
    mali_ckpt_quiesce(h.m);
    ck_assert_uint_eq(h_job_status(J(0)), MALI_EXC_DONE);
    ck_assert_uint_eq(h_job_status(J(1)), 0);
    ck_assert(h_line(H_INTID_MMU));
    uint32_t saved[NREGS];
    read_regs(saved);
    ck_assert_uint_eq(saved[21], 0x2); /* MMU_IRQ_RAWSTAT: AS 1's fault */
    save();
    uint8_t *ram = malloc(H_RAM_SIZE);
    ck_assert_ptr_nonnull(ram);
    memcpy(ram, h.ram, H_RAM_SIZE);
    uint64_t next_page = h.next_page;
    __atomic_store_n(&counter_v, 1000000, __ATOMIC_SEQ_CST);
    mali_ckpt_resume(h.m);
    driver_maps_fault();
    Outcome want = finish();
    ck_assert_uint_eq(want.raw, 0x2);
    ck_assert_uint_eq(want.data[1], 0xC0DE0001u);
    a = h;

    H b = new_device("g71", false, NULL);
    memcpy(h.ram, ram, H_RAM_SIZE);
    free(ram);
    memcpy(h.root, a.root, sizeof h.root);
    h.next_page = next_page;
    ck_assert_ptr_null(load());
    assert_regs(saved);
    ck_assert(h_line(H_INTID_MMU)); /* re-driven by the load */
    mali_ckpt_resume(h.m);
    driver_maps_fault();
    Outcome got = finish();
    assert_same(&got, &want);
    b = h;
    teardown_pair(&a, &b);
}
END_TEST

/* A file from another model, and damaged fields: refused, the message naming what differs. */
static void expect_refused(const char *model, void (*damage)(Mali *), const char *what)
{
    set_paths();
    H a = new_device("g71", false, NULL);
    h_driver_init();
    if (damage)
        damage(h.m);
    save();
    a = h;
    H b = new_device(model, false, NULL);
    const char *msg = load();
    ck_assert_msg(msg && strstr(msg, what), "load: '%s', expected a message with '%s'", msg ? msg : "accepted", what);
    ck_assert_uint_eq(rd(JOB_IRQ_MASK), 0); /* nothing of the file applied */
    b = h;
    teardown_pair(&a, &b);
}

static void bad_stop(Mali *m) { m->slot[2].stop = 7; }
static void bad_job_irq(Mali *m) { m->job_irq_raw = 1u << 5; }
static void bad_lock(Mali *m) { m->as[0].locked = true; m->as[0].lock_base = 0x1000; m->as[0].lock_size = 0x3000; }
static void bad_tlb(Mali *m) { m->as[1].tlb[3] = (MaliTlbEntry){ .vpage = 4, .ppage = 9, .perm = TLB_VALID }; }
static void bad_pwr(Mali *m) { m->pwr_ready[0] = ~0ull; }

START_TEST(other_model_and_damaged_fields_refused)
{
    expect_refused("g52", NULL, "Mali-g71");
    expect_refused("g71", bad_stop, "'stop'");
    expect_refused("g71", bad_job_irq, "'job_irq_raw'");
    expect_refused("g71", bad_lock, "'lock_size'");
    expect_refused("g71", bad_tlb, "'tlb_vpage'");
    expect_refused("g71", bad_pwr, "'pwr_ready'");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mali_ckpt");
    TCase *tc = tcase_create("ckpt");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, chain_in_flight_continues_after_load);
    tcase_add_test(tc, quiesce_waits_for_a_chain_to_end);
    tcase_add_test(tc, long_chain_loads_into_a_fresh_device);
    tcase_add_test(tc, icount_schedule_survives_a_load);
    tcase_add_test(tc, mmu_stalled_job_saved_with_its_fault);
    tcase_add_test(tc, other_model_and_damaged_fields_refused);
    suite_add_tcase(s, tc);
    return dev_run_suite(s);
}
