/* Checkpoint files (emu/checkpoint/ckpt.c) and the board's RAM and identity (devices/board_ckpt.c):
 * round trips, and every kind of damage refused with a message naming it. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../emu/checkpoint/ckpt.h"
#include "../../devices/board.h"
#include "../../devices/board_ckpt.h"

typedef struct Dev {
    uint8_t a;
    uint16_t b;
    uint32_t c[3];
    uint64_t d;
    bool e;
    int32_t f;
} Dev;

static const CkptField dev_fields[] = {
    CKPT_FIELD(Dev, a, CKPT_T_U8),   CKPT_FIELD(Dev, b, CKPT_T_U16), CKPT_FIELD(Dev, c, CKPT_T_U32),
    CKPT_FIELD(Dev, d, CKPT_T_U64),  CKPT_FIELD(Dev, e, CKPT_T_BOOL), CKPT_FIELD(Dev, f, CKPT_T_I32),
    CKPT_FIELDS_END,
};

static char path[64];

static void setup(void)
{
    snprintf(path, sizeof path, "/tmp/test_ckpt.%d.ck", (int)getpid());
}

static void teardown(void)
{
    unlink(path);
}

/* A file with a "dev" section (fields table + a blob + a string) and an "other" section. */
static void write_file(void)
{
    char err[256];
    CkptWriter *w = ckpt_writer_open(path, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    Dev d = { 7, 65535, { 1, 2, 0xFFFFFFFF }, 1ull << 63, true, -5 };
    ckpt_begin(w, "dev", 3, 2);
    ckpt_fields(w, dev_fields, &d);
    ckpt_bytes(w, "blob", "\x01\x02\x03", 3);
    ckpt_str(w, "name", "uart0");
    ckpt_u64(w, "count", 40);
    ckpt_end(w);
    ckpt_begin(w, "other", 0, 1);
    ckpt_u64(w, "x", 1);
    ckpt_end(w);
    ck_assert_msg(ckpt_writer_close(w, err, sizeof err), "%s", err);
}

static uint8_t *slurp(size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(*len);
    ck_assert_uint_eq(fread(buf, 1, *len, f), *len);
    fclose(f);
    return buf;
}

START_TEST(round_trip)
{
    write_file();
    char err[256];
    ck_assert(access(path, F_OK) == 0);
    char tmp[80];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    ck_assert(access(tmp, F_OK) != 0);
    CkptReader *r = ckpt_reader_open(path, err, sizeof err);
    ck_assert_msg(r != NULL, "%s", err);
    CkptSection *s = ckpt_section(r, "dev", 3, 2);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(ckpt_section_version(s), 2);
    Dev d;
    memset(&d, 0, sizeof d);
    ck_assert(ckpt_load_fields(s, dev_fields, &d));
    ck_assert_uint_eq(d.a, 7);
    ck_assert_uint_eq(d.b, 65535);
    ck_assert_uint_eq(d.c[2], 0xFFFFFFFF);
    ck_assert_uint_eq(d.d, 1ull << 63);
    ck_assert(d.e);
    ck_assert_int_eq(d.f, -5);
    uint8_t blob[3];
    ck_assert(ckpt_get_bytes(s, "blob", blob, 3));
    ck_assert_mem_eq(blob, "\x01\x02\x03", 3);
    char name[16];
    ck_assert(ckpt_get_str(s, "name", name, sizeof name));
    ck_assert_str_eq(name, "uart0");
    uint64_t count;
    ck_assert(ckpt_get_u64(s, "count", &count, 40));
    ck_assert_uint_eq(count, 40);
    /* every section must be claimed */
    ck_assert(!ckpt_finish(r));
    ck_assert_str_eq(ckpt_error(r), "section 'other' 0 belongs to no device of this board");
    ckpt_reader_close(r);
}
END_TEST

/* The first problem, by name; later calls do nothing. */
static void expect_error(const char *want, bool (*probe)(CkptReader *))
{
    write_file();
    char err[256];
    CkptReader *r = ckpt_reader_open(path, err, sizeof err);
    ck_assert_msg(r != NULL, "%s", err);
    ck_assert(!probe(r));
    ck_assert(!ckpt_ok(r));
    ck_assert_str_eq(ckpt_error(r), want);
    ckpt_reader_close(r);
}

static bool too_big(CkptReader *r)
{
    uint64_t v;
    CkptSection *s = ckpt_section(r, "dev", 3, 2);
    bool ok = ckpt_get_u64(s, "count", &v, 16);
    ck_assert(!ckpt_get_u64(s, "d", &v, UINT64_MAX)); /* sticky */
    return ok;
}
static bool missing_field(CkptReader *r)
{
    uint64_t v;
    return ckpt_get_u64(ckpt_section(r, "dev", 3, 2), "nope", &v, 1);
}
static bool wrong_kind(CkptReader *r)
{
    uint64_t v;
    return ckpt_get_u64(ckpt_section(r, "dev", 3, 2), "blob", &v, 1);
}
static bool newer_version(CkptReader *r)
{
    return ckpt_section(r, "dev", 3, 1) != NULL;
}
static bool missing_section(CkptReader *r)
{
    return ckpt_section(r, "dev", 0, 2) != NULL;
}
typedef struct Narrow {
    uint8_t a;
} Narrow;
static bool does_not_fit(CkptReader *r)
{
    static const CkptField f[] = { CKPT_FIELD_NAMED("b", Narrow, a, CKPT_T_U8), CKPT_FIELDS_END };
    Narrow n;
    return ckpt_load_fields(ckpt_section(r, "dev", 3, 2), f, &n);
}
static bool device_complaint(CkptReader *r)
{
    return ckpt_fail(ckpt_section(r, "dev", 3, 2), "queue %u is past the ring", 4u);
}

START_TEST(errors_name_the_problem)
{
    expect_error("section 'dev' 3: field 'count' is 40, at most 16", too_big);
    expect_error("section 'dev' 3: no field 'nope'", missing_field);
    expect_error("section 'dev' 3: field 'blob' holds bytes, expected integers", wrong_kind);
    expect_error("section 'dev' 3 has version 2; this malibu reads up to version 1", newer_version);
    expect_error("no section 'dev' 0 (the checkpoint is of a board without it)", missing_section);
    expect_error("section 'dev' 3: field 'b' is 65535, which does not fit", does_not_fit);
    expect_error("section 'dev' 3: queue 4 is past the ring", device_complaint);
}
END_TEST

START_TEST(truncated_and_flipped)
{
    write_file();
    size_t len;
    uint8_t *buf = slurp(&len);
    char err[256];
    CkptReader *r = ckpt_reader_open_mem(buf, len, err, sizeof err);
    ck_assert_msg(r != NULL, "%s", err);
    ckpt_reader_close(r);
    /* every truncation is refused */
    for (size_t n = 0; n < len; n++) {
        r = ckpt_reader_open_mem(buf, n, err, sizeof err);
        ck_assert_msg(r == NULL, "truncated to %zu bytes but accepted", n);
    }
    ck_assert_ptr_null(ckpt_reader_open_mem(buf, len - 1, err, sizeof err));
    ck_assert_msg(strstr(err, "truncated"), "%s", err);
    /* every single flipped byte is refused */
    for (size_t i = 0; i < len; i++) {
        buf[i] ^= 0x20;
        r = ckpt_reader_open_mem(buf, len, err, sizeof err);
        ck_assert_msg(r == NULL, "byte %zu flipped but accepted", i);
        buf[i] ^= 0x20;
    }
    buf[50] ^= 1; /* inside the "dev" section's payload (it starts at byte 43) */
    ck_assert_ptr_null(ckpt_reader_open_mem(buf, len, err, sizeof err));
    ck_assert_msg(strstr(err, "damaged: section 'dev' 3 fails its CRC"), "%s", err);
    free(buf);
    ck_assert_ptr_null(ckpt_reader_open_mem("MALIBUCK\x02\0\0\0\0\0\0\0", 16, err, sizeof err));
    ck_assert_str_eq(err, "checkpoint format version 2; this malibu reads version 1");
    ck_assert_ptr_null(ckpt_reader_open_mem("ELF", 3, err, sizeof err));
    ck_assert_str_eq(err, "not a malibu checkpoint (no MALIBUCK magic)");
}
END_TEST

START_TEST(write_error_leaves_no_file)
{
    char err[256];
    ck_assert_ptr_null(ckpt_writer_open("/nonexistent-dir/x.ck", err, sizeof err));
    ck_assert_msg(strstr(err, "No such file"), "%s", err);
    CkptWriter *w = ckpt_writer_open(path, err, sizeof err);
    ckpt_begin(w, "a", 0, 1);
    ckpt_begin(w, "b", 0, 1); /* a caller's bug: refused, and so is the file */
    ck_assert(!ckpt_writer_close(w, err, sizeof err));
    ck_assert_msg(strstr(err, "begun inside another section"), "%s", err);
    ck_assert(access(path, F_OK) != 0);
}
END_TEST

static Board *make_board(const char *gpu, uint64_t ram)
{
    BoardConfig cfg;
    board_config_default(&cfg);
    cfg.console_in = -1;
    cfg.console_out = -1;
    cfg.gpu = gpu;
    cfg.ram_size = ram;
    char err[256];
    Board *b = board_new(&cfg, err, sizeof err);
    ck_assert_msg(b != NULL, "%s", err);
    ck_assert_msg(board_realize(b, err, sizeof err), "%s", err);
    return b;
}

START_TEST(board_ram_round_trip)
{
    Board *b = make_board("none", 64ull << 20);
    uint8_t *ram = bus_ram_ptr(b->bus, BOARD_RAM_BASE, true);
    for (unsigned i = 0; i < 4096; i++)
        ram[(32u << 20) + i] = (uint8_t)(i * 7 + 1);
    ram[(64u << 20) - 1] = 0x5A;        /* the last byte of the region */
    char err[256];
    CkptWriter *w = ckpt_writer_open(path, err, sizeof err);
    board_ckpt_save(b, w);
    ck_assert_msg(ckpt_writer_close(w, err, sizeof err), "%s", err);

    Board *c = make_board("none", 64ull << 20);
    uint8_t *ram2 = bus_ram_ptr(c->bus, BOARD_RAM_BASE, true);
    ram2[(16u << 20)] = 0x77;           /* gone after the load: RAM is what was saved */
    CkptReader *r = ckpt_reader_open(path, err, sizeof err);
    ck_assert_msg(r != NULL, "%s", err);
    ck_assert_msg(board_ckpt_load(c, r), "%s", ckpt_error(r));
    ck_assert_mem_eq(ram2, ram, 64u << 20);
    ck_assert_uint_eq(ram2[(16u << 20)], 0);
    ckpt_reader_close(r);

    /* a board that differs is refused by name */
    Board *d = make_board("none", 128ull << 20);
    r = ckpt_reader_open(path, err, sizeof err);
    ck_assert(!board_ckpt_load(d, r));
    ck_assert_str_eq(ckpt_error(r), "the checkpoint was saved with -m 64M; this board has -m 128M");
    ckpt_reader_close(r);
    board_free(b);
    board_free(c);
    board_free(d);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ckpt");
    TCase *t = tcase_create("file");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, round_trip);
    tcase_add_test(t, errors_name_the_problem);
    tcase_add_test(t, truncated_and_flipped);
    tcase_add_test(t, write_error_leaves_no_file);
    tcase_add_test(t, board_ram_round_trip);
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);
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
