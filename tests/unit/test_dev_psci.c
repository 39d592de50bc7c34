/* firmware/psci (return codes, actions, CPU states) and firmware/boot (stub words, Image
 * header parsing, initrd completeness). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>
#include "../devices/dev_check.h"
#include "../../firmware/boot.h"
#include "../../firmware/psci.h"

#define NOT_SUPPORTED 0xFFFFFFFFFFFFFFFFull

static uint64_t call(Psci *p, unsigned cpu, uint64_t fn, uint64_t a1, uint64_t a2, uint64_t a3,
                     PsciAction *act)
{
    return psci_call(p, cpu, fn, a1, a2, a3, act);
}

START_TEST(version_features_unknown)
{
    Psci *p = psci_new(2);
    PsciAction a;
    ck_assert_uint_eq(call(p, 0, PSCI_VERSION, 0, 0, 0, &a), 0x10000);
    ck_assert_int_eq(a.kind, PSCI_ACT_NONE);
    ck_assert_uint_eq(call(p, 0, PSCI_MIGRATE_INFO_TYPE, 0, 0, 0, &a), 2);
    static const uint32_t impl[] = { PSCI_VERSION, PSCI_CPU_SUSPEND, PSCI_CPU_OFF, PSCI_CPU_ON_32, PSCI_CPU_ON_64,
                                     PSCI_AFFINITY_INFO_32, PSCI_AFFINITY_INFO_64,
                                     PSCI_MIGRATE_INFO_TYPE, PSCI_SYSTEM_OFF, PSCI_SYSTEM_RESET,
                                     PSCI_FEATURES };
    for (unsigned i = 0; i < sizeof impl / sizeof impl[0]; i++)
        ck_assert_uint_eq(call(p, 0, PSCI_FEATURES, impl[i], 0, 0, &a), 0);
    static const uint64_t unknown[] = { 0x80000000, 0x80000001, 0xC4000002,
                                        0xC400000E, 0xC4000012, 0x84000050, 0x86006100,
                                        0x8400000B, 0, 0xFFFFFFFF, 0x184000000ull };
    for (unsigned i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        if (unknown[i] >> 32 == 0) /* FEATURES is SMC32: its argument is w1 */
            ck_assert_uint_eq(call(p, 0, PSCI_FEATURES, unknown[i], 0, 0, &a), NOT_SUPPORTED);
        ck_assert_uint_eq(call(p, 1, unknown[i], 1, 2, 3, &a), NOT_SUPPORTED);
        ck_assert_int_eq(a.kind, PSCI_ACT_NONE);
    }
    psci_free(p);
}
END_TEST

START_TEST(cpu_on_off_affinity)
{
    Psci *p = psci_new(4);
    PsciAction a;
    ck_assert_uint_eq(call(p, 0, PSCI_AFFINITY_INFO_64, 0, 0, 0, &a), PSCI_AFF_ON);
    ck_assert_uint_eq(call(p, 0, PSCI_AFFINITY_INFO_64, 0x100, 0, 0, &a), PSCI_AFF_OFF);
    ck_assert_uint_eq(call(p, 0, PSCI_CPU_ON_64, 0x100, 0x80201000, 0xabcdef, &a), 0);
    ck_assert_int_eq(a.kind, PSCI_ACT_CPU_ON);
    ck_assert_uint_eq(a.cpu, 2);
    ck_assert_uint_eq(a.entry, 0x80201000);
    ck_assert_uint_eq(a.context, 0xabcdef);
    ck_assert_int_eq(psci_cpu_state(p, 2), PSCI_AFF_ON);
    ck_assert_uint_eq(call(p, 0, PSCI_AFFINITY_INFO_64, 0x100, 0, 0, &a), PSCI_AFF_ON);
    ck_assert_uint_eq(call(p, 0, PSCI_CPU_ON_64, 0x100, 0x80201000, 0, &a), (uint64_t)(int64_t)PSCI_RET_ALREADY_ON);
    ck_assert_int_eq(a.kind, PSCI_ACT_NONE);
    ck_assert_uint_eq(call(p, 0, PSCI_CPU_ON_64, 0, 0x80201000, 0, &a), (uint64_t)(int64_t)PSCI_RET_ALREADY_ON);
    ck_assert_uint_eq(call(p, 0, PSCI_CPU_ON_64, 0x102, 0x80201000, 0, &a), (uint64_t)(int64_t)PSCI_RET_INVALID_PARAMS);
    ck_assert_uint_eq(call(p, 0, PSCI_CPU_ON_64, 2, 0x80201000, 0, &a), (uint64_t)(int64_t)PSCI_RET_INVALID_PARAMS);
    ck_assert_uint_eq(call(p, 0, PSCI_CPU_ON_64, 0x101, 0x80201002, 0, &a), (uint64_t)(int64_t)PSCI_RET_INVALID_ADDRESS);
    /* MPIDR with bit 31 set (as read from MPIDR_EL1) is accepted */
    ck_assert_uint_eq(call(p, 0, PSCI_CPU_ON_64, 0x80000101, 0x80202000, 0, &a), 0);
    ck_assert_uint_eq(a.cpu, 3);
    /* CPU_OFF from CPU 2 */
    ck_assert_uint_eq(call(p, 2, PSCI_CPU_OFF, 0, 0, 0, &a), 0);
    ck_assert_int_eq(a.kind, PSCI_ACT_CPU_OFF);
    ck_assert_uint_eq(a.cpu, 2);
    ck_assert_uint_eq(call(p, 0, PSCI_AFFINITY_INFO_32, 0x100, 0, 0, &a), PSCI_AFF_OFF);
    ck_assert_uint_eq(call(p, 0, PSCI_AFFINITY_INFO_64, 0x100, 1, 0, &a), (uint64_t)(int64_t)PSCI_RET_INVALID_PARAMS);
    ck_assert_uint_eq(call(p, 0, PSCI_AFFINITY_INFO_64, 9, 0, 0, &a), (uint64_t)(int64_t)PSCI_RET_INVALID_PARAMS);
    /* SMC32 CPU_ON: upper halves of the arguments are ignored */
    ck_assert_uint_eq(call(p, 0, PSCI_CPU_ON_32, 0xFFFFFFFF00000100ull, 0x1280200000ull, 5, &a), 0);
    ck_assert_uint_eq(a.entry, 0x80200000);
    /* CPU_SUSPEND: every power state waits as standby; reserved bits are invalid */
    ck_assert_uint_eq(call(p, 1, PSCI_CPU_SUSPEND, 0x00010000, 0x80203000, 0, &a), 0);
    ck_assert_int_eq(a.kind, PSCI_ACT_CPU_SUSPEND);
    ck_assert_uint_eq(a.cpu, 1);
    ck_assert_uint_eq(call(p, 1, PSCI_CPU_SUSPEND_64, 0x01000001, 0x80203000, 0, &a), 0);
    ck_assert_int_eq(a.kind, PSCI_ACT_CPU_SUSPEND);
    ck_assert_uint_eq(call(p, 1, PSCI_CPU_SUSPEND, 0x00020000, 0, 0, &a), (uint64_t)(int64_t)PSCI_RET_INVALID_PARAMS);
    ck_assert_int_eq(a.kind, PSCI_ACT_NONE);
    psci_reset(p);
    ck_assert_int_eq(psci_cpu_state(p, 0), PSCI_AFF_ON);
    ck_assert_int_eq(psci_cpu_state(p, 2), PSCI_AFF_OFF);
    ck_assert_int_eq(psci_cpu_state(p, 99), PSCI_AFF_OFF);
    psci_free(p);
    ck_assert_ptr_null(psci_new(0));
    ck_assert_ptr_null(psci_new(PSCI_MAX_CPUS + 1));
}
END_TEST

START_TEST(juno_mpidr_layout)
{
    static const uint64_t want[PSCI_MAX_CPUS] = { 0x0, 0x1, 0x100, 0x101, 0x102, 0x103, 0x104, 0x105 };
    for (unsigned i = 0; i < PSCI_MAX_CPUS; i++) {
        ck_assert_uint_eq(psci_cpu_mpidr(i), want[i]);
        ck_assert_int_eq(psci_mpidr_cpu(want[i], PSCI_MAX_CPUS), (int)i);
        ck_assert_int_eq(psci_mpidr_cpu(want[i] | 0x80000000u, PSCI_MAX_CPUS), (int)i);
        ck_assert_int_eq(psci_mpidr_cpu(want[i], i), -1); /* beyond --smp */
    }
    ck_assert_int_eq(psci_mpidr_cpu(0x2, 8), -1);
    ck_assert_int_eq(psci_mpidr_cpu(0x200, 8), -1);
    ck_assert_int_eq(psci_mpidr_cpu(0x10000, 8), -1);
}
END_TEST

static Psci *mailbox;
static uint64_t got_entry[3], got_ctx[3];
static int starts;

static void *secondary(void *arg)
{
    unsigned cpu = (unsigned)(uintptr_t)arg;
    uint64_t e, c;
    while (psci_wait_start(mailbox, cpu, &e, &c)) { /* "run" until CPU_OFF */
        got_entry[cpu] = e;
        got_ctx[cpu] = c;
        __atomic_add_fetch(&starts, 1, __ATOMIC_SEQ_CST);
        PsciAction a;
        psci_call(mailbox, cpu, PSCI_CPU_OFF, 0, 0, 0, &a);
    }
    return NULL;
}

START_TEST(start_mailbox)
{
    mailbox = psci_new(3);
    pthread_t th[3];
    for (uintptr_t i = 1; i < 3; i++)
        pthread_create(&th[i], NULL, secondary, (void *)i);
    PsciAction a;
    ck_assert_uint_eq(call(mailbox, 0, PSCI_CPU_ON_64, 1, 0x80001000, 11, &a), 0);
    ck_assert_uint_eq(call(mailbox, 0, PSCI_CPU_ON_64, 0x100, 0x80002000, 22, &a), 0);
    for (int i = 0; i < 400 && __atomic_load_n(&starts, __ATOMIC_SEQ_CST) < 2; i++)
        dev_sleep_ms(5);
    ck_assert_int_eq(starts, 2);
    ck_assert_uint_eq(got_entry[1], 0x80001000);
    ck_assert_uint_eq(got_ctx[2], 22);
    /* after its CPU_OFF, CPU 1 can be started again */
    for (int i = 0; i < 400 && psci_cpu_state(mailbox, 1) != PSCI_AFF_OFF; i++)
        dev_sleep_ms(5);
    ck_assert_uint_eq(call(mailbox, 0, PSCI_CPU_ON_64, 1, 0x80003000, 33, &a), 0);
    for (int i = 0; i < 400 && __atomic_load_n(&starts, __ATOMIC_SEQ_CST) < 3; i++)
        dev_sleep_ms(5);
    ck_assert_uint_eq(got_entry[1], 0x80003000);
    psci_shutdown(mailbox);
    for (int i = 1; i < 3; i++)
        pthread_join(th[i], NULL);
    uint64_t e, c;
    ck_assert(!psci_wait_start(mailbox, 1, &e, &c));
    ck_assert(!psci_wait_start(mailbox, 7, &e, &c));
    psci_free(mailbox);
}
END_TEST

START_TEST(system_off_reset)
{
    Psci *p = psci_new(1);
    PsciAction a;
    ck_assert_uint_eq(call(p, 0, PSCI_SYSTEM_OFF, 0, 0, 0, &a), 0);
    ck_assert_int_eq(a.kind, PSCI_ACT_SYSTEM_OFF);
    ck_assert_uint_eq(call(p, 0, PSCI_SYSTEM_RESET, 0, 0, 0, &a), 0);
    ck_assert_int_eq(a.kind, PSCI_ACT_SYSTEM_RESET);
    psci_free(p);
}
END_TEST

START_TEST(boot_stub_words)
{
    uint32_t w[BOOT_STUB_WORDS];
    boot_stub_build(w, 0x9FE00000ull, 0x80000000ull);
    ck_assert_uint_eq(w[0], 0xD5034FDF); /* msr daifset, #0xf */
    ck_assert_uint_eq(w[1], 0x580000E0); /* ldr x0, #0x1c */
    ck_assert_uint_eq(w[5], 0x580000A4); /* ldr x4, #0x14 */
    ck_assert_uint_eq(w[6], 0xD61F0080); /* br x4 */
    ck_assert_uint_eq(w[8], 0x9FE00000);
    ck_assert_uint_eq(w[9], 0);
    ck_assert_uint_eq(w[10], 0x80000000);
    boot_stub_build(w, 0x880000000ull, 0x123456789ull);
    ck_assert_uint_eq(w[9], 8);
    ck_assert_uint_eq(w[11], 1);
}
END_TEST

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

START_TEST(image_header)
{
    static uint8_t img[4096];
    char err[128];
    BootImage bi;
    memset(img, 0, sizeof img);
    put64(img + 0x08, 0);        /* text_offset */
    put64(img + 0x10, 0x2000000); /* image_size 32 MB */
    put64(img + 0x18, 0xA);      /* LE, 4K pages, anywhere */
    memcpy(img + 0x38, "ARM\x64", 4);
    ck_assert(boot_parse_image(img, sizeof img, &bi, err, sizeof err));
    ck_assert_uint_eq(bi.text_offset, 0);
    ck_assert_uint_eq(bi.image_size, 0x2000000);
    put64(img + 0x18, 0x1); /* big-endian */
    ck_assert(!boot_parse_image(img, sizeof img, &bi, err, sizeof err));
    put64(img + 0x18, 0x6); /* 64K pages */
    ck_assert(!boot_parse_image(img, sizeof img, &bi, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "64 KB"));
    put64(img + 0x18, 0x0);
    put64(img + 0x08, 0x80000);
    ck_assert(boot_parse_image(img, sizeof img, &bi, err, sizeof err));
    ck_assert_uint_eq(bi.text_offset, 0x80000);
    put64(img + 0x08, 0x1234); /* not page aligned */
    ck_assert(!boot_parse_image(img, sizeof img, &bi, err, sizeof err));
    put64(img + 0x10, 0); /* pre-3.17: image_size 0 -> text_offset 0x80000 */
    ck_assert(boot_parse_image(img, sizeof img, &bi, err, sizeof err));
    ck_assert_uint_eq(bi.text_offset, 0x80000);
    ck_assert_uint_eq(bi.image_size, sizeof img);
    ck_assert(!boot_parse_image(img, 63, &bi, err, sizeof err)); /* shorter than the header */
    ck_assert_ptr_nonnull(strstr(err, "64-byte header"));
    memset(img + 0x38, 0, 4); /* raw binary: refused */
    ck_assert(!boot_parse_image(img, 100, &bi, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "not an arm64 Linux Image"));
    memcpy(img, "\177ELF", 4); /* vmlinux */
    ck_assert(!boot_parse_image(img, sizeof img, &bi, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "ELF"));
    img[0] = 0x1f; img[1] = 0x8b; /* vmlinuz.gz */
    ck_assert(!boot_parse_image(img, sizeof img, &bi, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "gzip"));
    ck_assert(!boot_parse_image(img, 0, &bi, err, sizeof err));
}
END_TEST

/* One newc cpio entry (header, name, data, each padded to 4 bytes) appended at buf + off. */
static size_t cpio_entry(uint8_t *buf, size_t off, const char *name, const char *data)
{
    size_t nlen = strlen(name) + 1, dlen = strlen(data);
    off += (size_t)sprintf((char *)buf + off, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
                           1u, 0100644u, 0u, 0u, 1u, 0u, dlen, 0u, 0u, 0u, 0u, nlen, 0u);
    memcpy(buf + off, name, nlen);
    off = (off + nlen + 3) & ~(size_t)3;
    memcpy(buf + off, data, dlen);
    return (off + dlen + 3) & ~(size_t)3;
}

static size_t gzip_bytes(const uint8_t *in, size_t len, uint8_t *out, size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    ck_assert_int_eq(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    size_t n = z.total_out;
    deflateEnd(&z);
    return n;
}

START_TEST(initrd_complete)
{
    static uint8_t cpio[4096], gz[4096], xz[64];
    char err[160];
    size_t n = cpio_entry(cpio, 0, "init", "#!/bin/sh\necho hi\n");
    n = cpio_entry(cpio, n, "etc/motd", "malibu\n");
    size_t before_trailer = n;
    n = cpio_entry(cpio, n, "TRAILER!!!", "");
    ck_assert(boot_check_initrd(cpio, n, err, sizeof err));
    ck_assert(!boot_check_initrd(cpio, before_trailer, err, sizeof err)); /* cut before the trailer */
    ck_assert_ptr_nonnull(strstr(err, "truncated"));
    ck_assert(!boot_check_initrd(cpio, 150, err, sizeof err));            /* cut inside file data */
    ck_assert(!boot_check_initrd(cpio, 0, err, sizeof err));
    size_t g = gzip_bytes(cpio, n, gz, sizeof gz);
    ck_assert(boot_check_initrd(gz, g, err, sizeof err));
    ck_assert(!boot_check_initrd(gz, g - 9, err, sizeof err));             /* CRC/length cut off */
    ck_assert_ptr_nonnull(strstr(err, "truncated gzip"));
    ck_assert(!boot_check_initrd(gz, g / 2, err, sizeof err));
    g = gzip_bytes(cpio, before_trailer, gz, sizeof gz);                   /* complete gzip, cut cpio */
    ck_assert(!boot_check_initrd(gz, g, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "inside gzip"));
    /* xz: checked for its stream footer ("YZ" at the end, after 4-byte padding) */
    static const uint8_t magic[6] = { 0xFD, '7', 'z', 'X', 'Z', 0 };
    memcpy(xz, magic, 6);
    xz[30] = 'Y'; xz[31] = 'Z';
    ck_assert(boot_check_initrd(xz, 32, err, sizeof err));
    ck_assert(boot_check_initrd(xz, 40, err, sizeof err));                /* zero padding */
    ck_assert(!boot_check_initrd(xz, 30, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "xz"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dev_psci");
    TCase *tc = tcase_create("psci");
    tcase_add_test(tc, version_features_unknown);
    tcase_add_test(tc, cpu_on_off_affinity);
    tcase_add_test(tc, juno_mpidr_layout);
    tcase_add_test(tc, system_off_reset);
    tcase_add_test(tc, start_mailbox);
    tcase_add_test(tc, boot_stub_words);
    tcase_add_test(tc, image_header);
    tcase_add_test(tc, initrd_complete);
    suite_add_tcase(s, tc);
    return dev_run_suite(s);
}
