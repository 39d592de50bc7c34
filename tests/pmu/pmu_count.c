/* Guest check of the PMU (emu/cpu/sys_pmu.c) through Linux's perf events: counts instructions and
 * cycles at EL0 around a loop of a known length, and samples on instruction-counter overflows.
 *
 *   pmu_count count N     instructions and cycles (user only) of the loop run N times, minus the same
 *                         measurement of the loop run 0 times: prints both, exits 1 unless both are
 *                         exactly 2N (two instructions per iteration, one cycle per instruction)
 *   pmu_count sample N P  runs the loop N times with the instruction counter overflowing every P
 *                         instructions (the PMU interrupt reprograms it); prints the count */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int open_counter(uint64_t config, int group, uint64_t period)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_HARDWARE;
    a.config = config;
    a.disabled = group < 0;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    a.sample_period = period;
    int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, group, 0);
    if (fd < 0) {
        perror("perf_event_open");
        exit(2);
    }
    return fd;
}

/* 1 + 2n instructions: MOV, then SUBS + B.NE per iteration (n >= 1; n = 0 runs 3). */
static void loop(uint64_t n)
{
    __asm__ volatile("mov x9, %0\n"
                     "cbz x9, 2f\n"
                     "1: subs x9, x9, #1\n"
                     "b.ne 1b\n"
                     "2:\n" : : "r"(n) : "x9", "cc");
}

static void measure(int fi, int fc, uint64_t n, uint64_t *insns, uint64_t *cycles)
{
    ioctl(fi, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
    ioctl(fi, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
    loop(n);
    ioctl(fi, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
    if (read(fi, insns, 8) != 8 || read(fc, cycles, 8) != 8) {
        perror("read");
        exit(2);
    }
}

int main(int argc, char **argv)
{
    if (argc >= 3 && !strcmp(argv[1], "count")) {
        uint64_t n = strtoull(argv[2], NULL, 0), i0, c0, i1, c1;
        int fi = open_counter(PERF_COUNT_HW_INSTRUCTIONS, -1, 0);
        int fc = open_counter(PERF_COUNT_HW_CPU_CYCLES, fi, 0);
        /* MOV, CBZ taken: 2 instructions, against 2 + 2n with the loop */
        measure(fi, fc, 0, &i0, &c0);
        measure(fi, fc, n, &i1, &c1);
        uint64_t di = i1 - i0, dc = c1 - c0;
        printf("pmu_count: n=%llu base insns=%llu cycles=%llu; loop insns=%llu cycles=%llu (expected %llu)\n",
               (unsigned long long)n, (unsigned long long)i0, (unsigned long long)c0,
               (unsigned long long)di, (unsigned long long)dc, (unsigned long long)(2 * n));
        if (i0 == 0 || di != 2 * n || dc != 2 * n) {
            printf("pmu_count: FAIL\n");
            return 1;
        }
        printf("pmu_count: OK\n");
        return 0;
    }
    if (argc >= 4 && !strcmp(argv[1], "sample")) {
        uint64_t n = strtoull(argv[2], NULL, 0), p = strtoull(argv[3], NULL, 0), v;
        int fi = open_counter(PERF_COUNT_HW_INSTRUCTIONS, -1, p);
        ioctl(fi, PERF_EVENT_IOC_ENABLE, 0);
        loop(n);
        ioctl(fi, PERF_EVENT_IOC_DISABLE, 0);
        if (read(fi, &v, 8) != 8) {
            perror("read");
            return 2;
        }
        printf("pmu_count: sampled insns=%llu (loop %llu, period %llu)\n", (unsigned long long)v,
               (unsigned long long)(2 * n), (unsigned long long)p);
        return 0;
    }
    fprintf(stderr, "usage: pmu_count count N | sample N PERIOD\n");
    return 2;
}
