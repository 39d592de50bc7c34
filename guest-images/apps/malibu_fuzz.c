/* malibu_fuzz: hostile calls through malibu's guest channel (malibu.h, docs/guest-channel.md),
 * from EL0: bad pointers (NULL, kernel addresses, unmapped and PROT_NONE pages), strings without
 * an end, huge and invalid sizes, nesting past the bound, floods, and random operation numbers
 * with random arguments.  Every call must come back with a result of the documented set (an id,
 * or a negative errno value), and malibu must go on running.  Prints one line per case and
 * "malibu_fuzz: PASS" (exit 0), or what went wrong (exit 1); exit 2 off malibu.
 *   malibu_fuzz [SEED] [RANDOM_CALLS] */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "malibu.h"

static int failures;

static void expect(const char *what, long got, long want)
{
    if (got != want) {
        printf("malibu_fuzz: FAIL %s: got %ld, want %ld\n", what, got, want);
        failures++;
    }
}

/* a call of any operation with any arguments: stubs generated at run time (op is in the
 * instruction), each "channel insn; ret" */
typedef long (*stub_fn)(uint64_t, uint64_t, uint64_t, uint64_t);
static uint32_t *stubs;

static long call_op(unsigned op, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
    return ((stub_fn)(void *)&stubs[2 * op])(a0, a1, a2, a3);
}

static uint64_t rng = 0x36;
static uint64_t next(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
    if (!malibu_available()) {
        printf("malibu_fuzz: no malibu channel here: nothing to fuzz\n");
        return 2;
    }
    if (argc > 1)
        rng = strtoull(argv[1], NULL, 0);
    long ncalls = argc > 2 ? strtol(argv[2], NULL, 0) : 20000;
    long page = sysconf(_SC_PAGESIZE);
    stubs = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    uint8_t *pages = mmap(NULL, 4 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *big = malloc(1 << 20);
    if (stubs == MAP_FAILED || pages == MAP_FAILED || !big) {
        printf("malibu_fuzz: FAIL: out of memory\n");
        return 1;
    }
    for (unsigned op = 0; op < 256; op++) {
        stubs[2 * op] = MALIBU_CHANNEL_INSN | op;
        stubs[2 * op + 1] = 0xd65f03c0u; /* ret */
    }
    __builtin___clear_cache((char *)stubs, (char *)stubs + page);
    if (mprotect(stubs, (size_t)page, PROT_READ | PROT_EXEC)) {
        printf("malibu_fuzz: FAIL: mprotect: %s\n", strerror(errno));
        return 1;
    }
    /* pages[0]: readable; pages[1]: PROT_NONE; pages[2]: unmapped; pages[3]: readable */
    memset(pages, 'A', 4 * (size_t)page);
    mprotect(pages + page, (size_t)page, PROT_NONE);
    munmap(pages + 2 * page, (size_t)page);
    memset(big, 'B', 1 << 20);  /* no NUL anywhere */

    expect("probe", call_op(0, 0, 0, 0, 0), MALIBU_CHANNEL_MAGIC);
    printf("malibu_fuzz: probe ok\n");

    /* bad pointers for every string-taking operation */
    const uint64_t bad[] = { 0, 1, 0xfff, 0xffff000000000000ull, 0xffffffffffffffffull, 0x0000fffffffff000ull,
                             (uint64_t)(pages + page), (uint64_t)(pages + 2 * page), (uint64_t)(pages + page - 10) };
    const unsigned str_ops[] = { MALIBU_OP_ROI_BEGIN, MALIBU_OP_STATS_DUMP, MALIBU_OP_ANNOTATE, MALIBU_OP_KERNEL_NAME };
    uint64_t g1[3] = { 64, 1, 1 };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        for (size_t o = 0; o < 4; o++) {
            char what[64];
            snprintf(what, sizeof what, "op %u pointer 0x%llx", str_ops[o], (unsigned long long)bad[i]);
            expect(what, call_op(str_ops[o], bad[i], 1, (uint64_t)g1, 0), -14);
        }
    printf("malibu_fuzz: bad pointers ok\n");

    /* strings without an end: 1 MiB of bytes, and one running into a PROT_NONE page */
    for (size_t o = 0; o < 4; o++) {
        expect("endless string", call_op(str_ops[o], (uint64_t)big, 1, (uint64_t)g1, 0), -36);
        expect("string into PROT_NONE", call_op(str_ops[o], (uint64_t)(pages + page - 500), 1, (uint64_t)g1, 0),
               o == 2 ? -14 : -36);   /* names stop at 256 bytes, annotations read on to the hole */
    }
    printf("malibu_fuzz: endless strings ok\n");

    /* kernel_name: bad dimensions, queue, sizes, arrays */
    uint64_t g0[3] = { 0, 0, 0 };
    expect("dims 0", malibu_kernel_name("k", 0, g1, NULL, 1), -22);
    expect("dims 4", call_op(6, (uint64_t)"k", 4, (uint64_t)g1, 0), -22);
    expect("dims 255", call_op(6, (uint64_t)"k", 255, (uint64_t)g1, 0), -22);
    expect("queue 2^40", call_op(6, (uint64_t)"k", 1 | (1ull << 48), (uint64_t)g1, 0), -22);
    expect("global 0", malibu_kernel_name("k", 1, g0, NULL, 1), -22);
    expect("global unmapped", call_op(6, (uint64_t)"k", 3, (uint64_t)(pages + 2 * page), 0), -14);
    expect("local PROT_NONE", call_op(6, (uint64_t)"k", 3, (uint64_t)g1, (uint64_t)(pages + page)), -14);
    expect("global across a hole", call_op(6, (uint64_t)"k", 3, (uint64_t)(pages + page - 8), 0), -14);
    expect("cancel bogus", malibu_kernel_cancel(123456789), -22);
    expect("cancel -1", malibu_kernel_cancel(-1), -22);
    long t = malibu_kernel_name("never_launched", 1, g1, NULL, 1);
    if (t < 0)
        expect("kernel_name valid", t, 0);
    expect("cancel valid", malibu_kernel_cancel(t), 0);
    expect("cancel twice", malibu_kernel_cancel(t), -22);
    printf("malibu_fuzz: kernel_name arguments ok\n");

    /* nesting past the bound, ends without a begin */
    expect("end without begin", malibu_roi_end(), -22);
    long ok = 0, full = 0;
    for (int i = 0; i < 100; i++) {
        long r = malibu_roi_begin("deep");
        ok += r >= 0;
        full += r == -28;
    }
    expect("nested begins accepted", ok, 64);
    expect("nested begins refused", full, 36);
    for (int i = 0; i < 64; i++)
        if (malibu_roi_end() < 0)
            expect("end of nested", -1, 0);
    expect("end past the last", malibu_roi_end(), -22);
    printf("malibu_fuzz: nesting ok\n");

    /* floods: bad calls (counted, one log line), announcements that never become jobs (the
     * pending list is bounded), annotations until the table is full */
    for (int i = 0; i < 100000; i++)
        if (call_op(MALIBU_OP_ANNOTATE, 8, 0, 0, 0) != -14) {
            expect("flood of bad annotations", 0, -14);
            break;
        }
    for (int i = 0; i < 2000; i++)
        if (malibu_kernel_name("flood", 1, g1, NULL, 2) < 0) {
            expect("flood of announcements", -1, 0);
            break;
        }
    long noted = 0, refused = 0;
    for (int i = 0; i < 5000; i++) {
        long r = malibu_annotate("flood %d", i);
        noted += r >= 0;
        refused += r == -28;
    }
    if (noted + refused != 5000 || refused == 0) {
        printf("malibu_fuzz: FAIL annotation flood: %ld kept, %ld refused of 5000\n", noted, refused);
        failures++;
    }
    printf("malibu_fuzz: floods ok (annotations kept %ld, refused %ld)\n", noted, refused);

    /* random operations with random arguments: pointers anywhere, into our pages, small numbers */
    long by_result[4] = { 0 };   /* magic, >= 0, known error, other */
    for (long i = 0; i < ncalls; i++) {
        unsigned op = (unsigned)(next() & 255);
        if (next() & 1)
            op &= 7;
        uint64_t a[4];
        for (int k = 0; k < 4; k++) {
            switch (next() % 5) {
            case 0: a[k] = next(); break;
            case 1: a[k] = (uint64_t)(pages + next() % (4 * (uint64_t)page)); break;
            case 2: a[k] = next() & 0xff; break;
            case 3: a[k] = (uint64_t)(big + next() % (1 << 20)); break;
            default: a[k] = (uint64_t)"name"; break;
            }
        }
        if (op == MALIBU_OP_ROI_BEGIN || op == MALIBU_OP_STATS_RESET)
            continue;   /* keep the region stack and stats marks meaningful for the report */
        long r = call_op(op, a[0], a[1], a[2], a[3]);
        if (op == 0 && r == MALIBU_CHANNEL_MAGIC)
            by_result[0]++;
        else if (r >= 0 && op >= 1 && op <= MALIBU_OP_CHECKPOINT_COMMAND && op != MALIBU_OP_CHECKPOINT)
            by_result[1]++;
        /* op 8 (checkpoint) only as malibu runs the fuzzer, without --checkpoint-save: -95 (or -16
         * while stopping), never a save; op 9 gives 0 (no command) or copies one */
        else if (r == -14 || r == -22 || r == -28 || r == -36 || (r == -38 && op > MALIBU_OP_CHECKPOINT_COMMAND) ||
                 (op == MALIBU_OP_CHECKPOINT && (r == -95 || r == -16)))
            by_result[2]++;
        else {
            by_result[3]++;
            if (by_result[3] < 10)
                printf("malibu_fuzz: FAIL op %u (0x%llx, 0x%llx, 0x%llx, 0x%llx) returned %ld\n", op,
                       (unsigned long long)a[0], (unsigned long long)a[1], (unsigned long long)a[2],
                       (unsigned long long)a[3], r);
            failures++;
        }
    }
    printf("malibu_fuzz: random calls: %ld probes, %ld accepted, %ld refused with an error code, %ld unexpected\n",
           by_result[0], by_result[1], by_result[2], by_result[3]);
    printf("malibu_fuzz: %s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
