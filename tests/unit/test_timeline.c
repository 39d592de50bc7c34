/* --timeline (emu/stats/timeline.h): the ring and its limit (the newest events kept, the rest
 * counted as dropped, also with several threads recording at once), the recording API the guest
 * channel calls (nested regions, annotations, kernel names), vCPU state spans and the JSON the
 * writer makes of them.  A fake guest clock that advances 1 us per reading makes the guest-time
 * view's numbers exact. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "timeline.h"

static uint64_t fake_ns;
static uint64_t fake_clock(void *opaque)
{
    (void)opaque;
    return fake_ns += 1000;
}

static char path[64];

static void start(uint64_t limit)
{
    snprintf(path, sizeof path, "/tmp/test_timeline.%d.json", (int)getpid());
    timeline_reset();
    ck_assert(timeline_enable(NULL, limit));
    fake_ns = 0;
    timeline_set_guest_clock(fake_clock, NULL);
}

/* The file written now, as a string (freed by the caller). */
static char *written(void)
{
    ck_assert_int_eq(timeline_write(path, NULL), 0);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = 0;
    fclose(f);
    remove(path);
    return s;
}

static unsigned count(const char *s, const char *what)
{
    unsigned n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

/* 40 annotations into a ring of 16: the newest 16 are written (in each clock's view), the
 * older 24 counted as dropped, in the file and by timeline_get_counts. */
START_TEST(ring_keeps_newest)
{
    start(16);
    char text[32];
    for (int i = 0; i < 40; i++) {
        snprintf(text, sizeof text, "note %d", i);
        timeline_annotate(0, text);
    }
    timeline_counts k;
    timeline_get_counts(&k);
    ck_assert_uint_eq(k.recorded, 40);
    ck_assert_uint_eq(k.kept, 16);
    ck_assert_uint_eq(k.dropped, 24);
    char *s = written();
    ck_assert_ptr_nonnull(strstr(s, "\"recorded\":40,\"kept\":16,\"dropped\":24"));
    ck_assert_ptr_nonnull(strstr(s, "malibu timeline: 16 events kept of 40, 24 older dropped (--timeline-limit 16)"));
    for (int i = 0; i < 40; i++) {
        snprintf(text, sizeof text, "\"note %d\"", i);
        ck_assert_msg(count(s, text) == (i < 24 ? 0u : 2u), "%s written %u times", text, count(s, text));
    }
    ck_assert_uint_eq(count(s, "\"cat\":\"annotation\""), 32);
    free(s);
    timeline_reset();
}
END_TEST

enum { THREADS = 4, PER_THREAD = 20000, LIMIT = 1000 };

static void *flood(void *arg)
{
    unsigned cpu = (unsigned)(uintptr_t)arg;
    for (int i = 0; i < PER_THREAD; i++)
        timeline_gpu_irq(cpu % 3, (uint32_t)i);
    return NULL;
}

/* Several threads recording at once lose no event from the count and leave only complete
 * events in the ring. */
START_TEST(ring_threads)
{
    start(LIMIT);
    pthread_t t[THREADS];
    for (uintptr_t i = 0; i < THREADS; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, flood, (void *)i), 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    timeline_counts k;
    timeline_get_counts(&k);
    ck_assert_uint_eq(k.recorded, THREADS * PER_THREAD);
    ck_assert_uint_eq(k.kept, LIMIT);
    char *s = written();
    ck_assert_uint_eq(count(s, "\"cat\":\"irq\""), 2 * LIMIT);
    free(s);
    timeline_reset();
}
END_TEST

/* Nested regions are spans inside each other; ending more than began, or nesting deeper than
 * TIMELINE_REGION_DEPTH, is refused; a region still open is written as open. */
START_TEST(regions_nest)
{
    start(64);
    ck_assert_int_eq(timeline_region_end(1), -1);
    ck_assert_int_eq(timeline_region_begin(1, "outer"), 0);     /* guest 1 us */
    ck_assert_int_eq(timeline_region_begin(1, "inner"), 0);     /* 2 us */
    timeline_annotate(1, "mark");                               /* 3 us */
    ck_assert_int_eq(timeline_region_end(1), 0);                /* inner ends at 4 us */
    ck_assert_int_eq(timeline_region_end(1), 0);                /* outer at 5 us */
    ck_assert_int_eq(timeline_region_end(1), -1);
    ck_assert_int_eq(timeline_region_begin(1, NULL), -1);
    for (int i = 0; i < TIMELINE_REGION_DEPTH; i++)
        ck_assert_int_eq(timeline_region_begin(2, "deep"), 0);
    ck_assert_int_eq(timeline_region_begin(2, "too deep"), -1);
    char *s = written();
    ck_assert_ptr_nonnull(strstr(s, "{\"ph\":\"X\",\"pid\":1,\"tid\":201,\"cat\":\"region\",\"ts\":1.000,\"dur\":4.000,"
                                    "\"name\":\"outer\""));
    ck_assert_ptr_nonnull(strstr(s, "{\"ph\":\"X\",\"pid\":1,\"tid\":201,\"cat\":\"region\",\"ts\":2.000,\"dur\":2.000,"
                                    "\"name\":\"inner\""));
    ck_assert_ptr_nonnull(strstr(s, "{\"ph\":\"i\",\"pid\":1,\"tid\":201,\"cat\":\"annotation\",\"ts\":3.000,\"s\":\"t\","
                                    "\"name\":\"mark\""));
    ck_assert_ptr_nonnull(strstr(s, "\"name\":\"thread_name\",\"args\":{\"name\":\"vCPU 1 regions\"}"));
    ck_assert_uint_eq(count(s, "\"name\":\"deep\""), 2 * TIMELINE_REGION_DEPTH);
    ck_assert_uint_eq(count(s, "\"open_at_exit\":true"), 2 * TIMELINE_REGION_DEPTH);
    ck_assert_uint_eq(count(s, "too deep"), 0);
    free(s);
    timeline_reset();
}
END_TEST

/* A vCPU's spans: an exception (and one nested in it) until the outermost ERET, running, idle,
 * running again; a syscall that sleeps in WFI (the guest's idle loop) ends its exception span,
 * wakes up running, and its ERET, when the task resumes, is ignored. */
START_TEST(cpu_states)
{
    start(64);
    timeline_cpu_exception(0, 0x80, 0);  /* 1 us: exception (IRQ) begins */
    timeline_cpu_exception(0, 0, 0x15);  /* nested: no new span */
    timeline_cpu_eret(0);
    timeline_cpu_eret(0);                /* 2 us: running */
    timeline_cpu_eret(0);                /* an ERET without an entry: nothing */
    timeline_cpu_idle(0, true);          /* 3 us: idle */
    timeline_cpu_idle(0, false);         /* 4 us: running */
    timeline_cpu_exception(0, 0, 0x15);  /* 5 us: exception (SVC) */
    timeline_cpu_idle(0, true);          /* 6 us: idle inside it */
    timeline_cpu_idle(0, false);         /* 7 us: running, open when written at 8 us */
    timeline_cpu_eret(0);                /* the syscall's return: nothing open */
    char *s = written();
    ck_assert_ptr_nonnull(strstr(s, "\"pid\":1,\"tid\":100,\"cat\":\"cpu\",\"ts\":1.000,\"dur\":1.000,"
                                    "\"name\":\"exception (IRQ)\""));
    ck_assert_ptr_nonnull(strstr(s, "\"pid\":1,\"tid\":100,\"cat\":\"cpu\",\"ts\":2.000,\"dur\":1.000,\"name\":\"running\""));
    ck_assert_ptr_nonnull(strstr(s, "\"pid\":1,\"tid\":100,\"cat\":\"cpu\",\"ts\":3.000,\"dur\":1.000,"
                                    "\"name\":\"idle (WFI)\""));
    ck_assert_ptr_nonnull(strstr(s, "\"pid\":1,\"tid\":100,\"cat\":\"cpu\",\"ts\":4.000,\"dur\":1.000,\"name\":\"running\""));
    ck_assert_ptr_nonnull(strstr(s, "\"pid\":1,\"tid\":100,\"cat\":\"cpu\",\"ts\":5.000,\"dur\":1.000,"
                                    "\"name\":\"exception (SVC)\""));
    ck_assert_ptr_nonnull(strstr(s, "\"pid\":1,\"tid\":100,\"cat\":\"cpu\",\"ts\":6.000,\"dur\":1.000,"
                                    "\"name\":\"idle (WFI)\""));
    ck_assert_ptr_nonnull(strstr(s, "\"pid\":1,\"tid\":100,\"cat\":\"cpu\",\"ts\":7.000,\"dur\":1.000,"
                                    "\"name\":\"running\",\"args\":{\"open_at_exit\":true}"));
    ck_assert_uint_eq(count(s, "\"cat\":\"cpu\""), 14);
    free(s);
    timeline_reset();
}
END_TEST

/* A vCPU's lane begins when it starts; powering off ends its open exception; CPU_ON restarts it. */
START_TEST(cpu_start_off)
{
    start(64);
    timeline_cpu_start(3);               /* 1 us: running */
    timeline_cpu_exception(3, 0, 0x16);  /* 2 us: an HVC (synchronous) */
    timeline_cpu_off(3);                 /* 3 us: off */
    timeline_cpu_eret(3);                /* nothing open */
    timeline_cpu_start(3);               /* 4 us: running again, open when written at 5 us */
    char *s = written();
    ck_assert_ptr_nonnull(strstr(s, "\"pid\":1,\"tid\":103,\"cat\":\"cpu\",\"ts\":1.000,\"dur\":1.000,\"name\":\"running\""));
    ck_assert_ptr_nonnull(strstr(s, "\"pid\":1,\"tid\":103,\"cat\":\"cpu\",\"ts\":2.000,\"dur\":1.000,"
                                    "\"name\":\"exception (synchronous)\""));
    ck_assert_ptr_nonnull(strstr(s, "\"pid\":1,\"tid\":103,\"cat\":\"cpu\",\"ts\":3.000,\"dur\":1.000,\"name\":\"off\""));
    ck_assert_ptr_nonnull(strstr(s, "\"pid\":1,\"tid\":103,\"cat\":\"cpu\",\"ts\":4.000,\"dur\":1.000,"
                                    "\"name\":\"running\",\"args\":{\"open_at_exit\":true}"));
    ck_assert_ptr_nonnull(strstr(s, "\"thread_name\",\"args\":{\"name\":\"vCPU 3\"}"));
    ck_assert_uint_eq(count(s, "\"cat\":\"cpu\""), 8);
    free(s);
    timeline_reset();
}
END_TEST

/* Jobs are named by the name given for their shader before they began, else shader@VA/asN,
 * else their type; args carry type, chain, workgroups, status and the modelled schedule. */
START_TEST(job_names)
{
    start(64);
    static const unsigned local[3] = { 64, 1, 1 }, groups[3] = { 16, 2, 1 };
    timeline_gpu_job_begin(1, 5000);
    timeline_gpu_job_shader(0xa000, 2, 0);
    timeline_gpu_job_groups(local, groups);
    timeline_gpu_job_end(1, 2, 0x100, 0x140, 4, 1, 7000);
    timeline_job_named(2, 0xa000, "sgemm_tiled");
    timeline_gpu_job_begin(1, 7000);
    timeline_gpu_job_shader(0xa000, 2, 0);
    timeline_gpu_job_end(1, 2, 0x200, 0x200, 4, 0x58, 7500);
    timeline_gpu_job_begin(0, 7500);                       /* a job with no shader */
    timeline_gpu_job_end(0, 2, 0x300, 0x300, 2, 1, 7500);
    char *s = written();
    ck_assert_uint_eq(count(s, "\"name\":\"shader@0xa000/as2\""), 2);
    ck_assert_uint_eq(count(s, "\"name\":\"sgemm_tiled\""), 2);
    ck_assert_uint_eq(count(s, "\"name\":\"WRITE_VALUE\""), 2);
    ck_assert_ptr_nonnull(strstr(s, "\"args\":{\"type\":\"COMPUTE\",\"chain\":\"0x100\",\"job\":\"0x140\",\"as\":2,"
                                    "\"status\":\"DONE\",\"shader\":\"0xa000\",\"stage\":\"compute\","
                                    "\"workgroups\":[16,2,1],\"local_size\":[64,1,1],\"modelled_start_ns\":5000,"
                                    "\"modelled_ns\":2000"));
    ck_assert_ptr_nonnull(strstr(s, "\"status\":\"0x58\""));
    ck_assert_ptr_nonnull(strstr(s, "\"thread_name\",\"args\":{\"name\":\"GPU job slot 1\"}"));
    char buf[64];
    timeline_job_name(buf, sizeof buf, 0, 2, 0xa000, 4);   /* before any name */
    ck_assert_str_eq(buf, "shader@0xa000/as2");
    timeline_job_name(buf, sizeof buf, UINT64_MAX, 2, 0xa000, 4);
    ck_assert_str_eq(buf, "sgemm_tiled");
    timeline_job_name(buf, sizeof buf, UINT64_MAX, 3, 0xa000, 4);   /* another address space */
    ck_assert_str_eq(buf, "shader@0xa000/as3");
    free(s);
    timeline_reset();
}
END_TEST

/* Text from the guest reaches the file as well-formed UTF-8: bad bytes become '?', a long text
 * is cut between characters. */
START_TEST(hostile_text)
{
    start(64);
    timeline_annotate(0, "a\xff\xc3" "b\xed\xa0\x80" "z");        /* bad byte, lone lead, surrogate */
    char longer[100] = "";
    for (int i = 0; i < 40; i++)
        strcat(longer, "\xc3\xa9");                         /* 80 bytes of e-acute */
    timeline_region_begin(0, "x\xc3\xa9\"q\\\n");         /* JSON escapes */
    timeline_region_end(0);
    timeline_job_named(0, 0x40, longer);
    timeline_gpu_job_begin(0, 0);
    timeline_gpu_job_shader(0x40, 0, 0);
    timeline_gpu_job_end(0, 0, 0x100, 0x100, 4, 1, 0);
    char *s = written();
    ck_assert_ptr_nonnull(strstr(s, "\"name\":\"a??b???z\""));
    ck_assert_ptr_nonnull(strstr(s, "\"name\":\"x\xc3\xa9\\\"q\\\\\\n\""));
    char want[100] = "\"name\":\"";
    for (int i = 0; i < 31; i++)                            /* 62 bytes: the 32nd does not fit in 63 */
        strcat(want, "\xc3\xa9");
    strcat(want, "\"");
    ck_assert_ptr_nonnull(strstr(s, want));
    free(s);
    timeline_reset();
}
END_TEST

/* Off, the API records nothing and refuses regions. */
START_TEST(off)
{
    timeline_reset();
    ck_assert_int_eq(timeline_region_begin(0, "x"), -1);
    timeline_annotate(0, "x");
    ck_assert(!timeline_on);
    ck_assert(!timeline_enable("/tmp/x.json", TIMELINE_MIN_LIMIT - 1));
    ck_assert(!timeline_on);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("timeline");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, ring_keeps_newest);
    tcase_add_test(tc, ring_threads);
    tcase_add_test(tc, regions_nest);
    tcase_add_test(tc, cpu_states);
    tcase_add_test(tc, cpu_start_off);
    tcase_add_test(tc, job_names);
    tcase_add_test(tc, hostile_text);
    tcase_add_test(tc, off);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
