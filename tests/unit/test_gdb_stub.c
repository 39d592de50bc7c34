/* The GDB stub without a machine (emu/debug): packet framing, every command on a fake target
 * (tests/fuzz/gdb_fake_target.h), malformed packets, and a seeded random-packet run. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gdb_packet.h"
#include "gdb_stub.h"
#include "gdb_fake_target.h"

static GdbStub g;

/* Feed a whole string; the last event. */
static GdbPacketEvent feed(GdbPacketParser *p, const char *s, size_t n)
{
    GdbPacketEvent last = GP_NONE;
    for (size_t i = 0; i < n; i++) {
        GdbPacketEvent e = gdb_packet_feed(p, (uint8_t)s[i]);
        if (e != GP_NONE)
            last = e;
    }
    return last;
}

/* Handle one command; the reply (NULL when the command resumes). */
static const char *cmd(const char *pkt)
{
    gdb_stub_handle(&g, pkt, strlen(pkt));
    return g.resume ? NULL : g.reply;
}

static void setup(void)
{
    memset(&fake, 0, sizeof fake);
    gdb_stub_init(&g, &fake_target);
}

START_TEST(framing)
{
    static GdbPacketParser p;
    gdb_packet_init(&p);
    ck_assert_int_eq(feed(&p, "$g#67", 5), GP_PACKET);
    ck_assert_str_eq(p.buf, "g");
    ck_assert_int_eq(feed(&p, "$g#68", 5), GP_BAD);          /* checksum */
    ck_assert_int_eq(feed(&p, "$g#6z", 5), GP_BAD);          /* not hex */
    ck_assert_int_eq(feed(&p, "+", 1), GP_ACK);
    ck_assert_int_eq(feed(&p, "-", 1), GP_NAK);
    ck_assert_int_eq(feed(&p, "\x03", 1), GP_INTERRUPT);
    ck_assert_int_eq(feed(&p, "$m1$", 4), GP_BAD);           /* cut by a new packet */
    ck_assert_int_eq(feed(&p, "g#67", 4), GP_PACKET);        /* which then completes */
    /* escapes: "}]" is ']' ^ 0x20 = '}' */
    char f[64];
    size_t n = gdb_packet_frame("a}b#c$d*", 8, f, sizeof f);
    ck_assert_uint_gt(n, 0);
    ck_assert_int_eq(feed(&p, f, n), GP_PACKET);
    ck_assert_uint_eq(p.len, 8);
    ck_assert_mem_eq(p.buf, "a}b#c$d*", 8);
    ck_assert_uint_eq(gdb_packet_frame("abc", 3, f, 6), 0);  /* does not fit */
    /* a payload over GDB_PACKET_MAX is refused, the parser still works afterwards */
    char *big = malloc(GDB_PACKET_MAX + 16);
    big[0] = '$';
    memset(big + 1, 'a', GDB_PACKET_MAX + 8);
    memcpy(big + GDB_PACKET_MAX + 9, "#00", 3);
    ck_assert_int_eq(feed(&p, big, GDB_PACKET_MAX + 12), GP_BAD);
    free(big);
    ck_assert_int_eq(feed(&p, "$g#67", 5), GP_PACKET);
}
END_TEST

START_TEST(registers)
{
    fake.regs[0][0] = 0x1122334455667788ull;
    fake.regs[1][32] = 0xffff800080001000ull;
    const char *r = cmd("g");
    ck_assert_uint_eq(strlen(r), (33 * 8 + 4) * 2);
    ck_assert(!strncmp(r, "8877665544332211", 16));
    ck_assert_str_eq(cmd("P1=0100000000000000"), "OK");
    ck_assert_uint_eq(fake.regs[0][1], 1);
    ck_assert_str_eq(cmd("Hg2"), "OK");
    ck_assert_str_eq(cmd("p20"), "001000800080ffff");      /* vCPU 1's pc */
    ck_assert_str_eq(cmd("p21"), "00000000");
    ck_assert_str_eq(cmd("p22"), "E01");                      /* no such register */
    ck_assert_str_eq(cmd("P0=12"), "E01");                    /* short value */
    ck_assert_str_eq(cmd("P0=zz00000000000000"), "E01");
    ck_assert_str_eq(cmd("pzz"), "E01");
    ck_assert_str_eq(cmd("Hg3"), "E01");                      /* no thread 3 */
    ck_assert_str_eq(cmd("gx"), "E01");
    ck_assert_str_eq(cmd("G00"), "E01");                      /* short */
}
END_TEST

START_TEST(memory)
{
    ck_assert_str_eq(cmd("M10000,4:deadbeef"), "OK");
    ck_assert_str_eq(cmd("m10000,4"), "deadbeef");
    ck_assert_str_eq(cmd("m1fffe,2"), "0000");
    ck_assert_str_eq(cmd("m1ffff,2"), "E14");                 /* runs past the end */
    ck_assert_str_eq(cmd("m0,4"), "E14");
    ck_assert_str_eq(cmd("m10000,ffffffffffffffff"), "E01");  /* too long */
    ck_assert_str_eq(cmd("m10000"), "E01");
    ck_assert_str_eq(cmd("m10000,4x"), "E01");
    ck_assert_str_eq(cmd("m11111111111111111,4"), "E01");    /* 17 digits */
    ck_assert_str_eq(cmd("M10000,4:dead"), "E01");            /* short data */
    ck_assert_str_eq(cmd("M10000,2:zzzz"), "E01");
    const char x[] = "X10004,3:a}]b";                         /* binary: a } b */
    gdb_stub_handle(&g, x, sizeof x - 1);
    ck_assert_str_eq(g.reply, "E01");                         /* escapes are the framing's job */
    const char x2[] = "X10004,3:a}b";
    gdb_stub_handle(&g, x2, sizeof x2 - 1);
    ck_assert_str_eq(g.reply, "OK");
    ck_assert_mem_eq(fake.mem + 4, "a}b", 3);
    const char x3[] = "X10008,2:\0\0";                        /* NUL bytes in binary data */
    gdb_stub_handle(&g, x3, sizeof x3 - 1);
    ck_assert_str_eq(g.reply, "OK");
    const char nul[] = "m10\0000,4";
    gdb_stub_handle(&g, nul, sizeof nul - 1);
    ck_assert_str_eq(g.reply, "E01");
}
END_TEST

START_TEST(points_and_resume)
{
    ck_assert_str_eq(cmd("Z0,10000,4"), "OK");
    ck_assert_str_eq(cmd("Z2,10008,8"), "OK");
    ck_assert_int_eq(fake.points, 2);
    ck_assert_str_eq(cmd("z0,10000,4"), "OK");
    ck_assert_str_eq(cmd("Z5,0,0"), "");                      /* unsupported type */
    ck_assert_str_eq(cmd("Z0,10000"), "E01");
    ck_assert_str_eq(cmd("Z0,,4"), "E01");
    ck_assert_ptr_null(cmd("c"));
    ck_assert_int_eq(g.action[0], GDB_ACT_CONTINUE);
    ck_assert_int_eq(g.action[1], GDB_ACT_CONTINUE);
    ck_assert_ptr_null(cmd("s"));                             /* steps the Hg thread only */
    ck_assert_int_eq(g.action[0], GDB_ACT_STEP);
    ck_assert_int_eq(g.action[1], GDB_ACT_STAY);
    ck_assert_ptr_null(cmd("vCont;s:2;c"));
    ck_assert_int_eq(g.action[0], GDB_ACT_CONTINUE);
    ck_assert_int_eq(g.action[1], GDB_ACT_STEP);
    ck_assert_ptr_null(cmd("vCont;c:1"));
    ck_assert_int_eq(g.action[0], GDB_ACT_CONTINUE);
    ck_assert_int_eq(g.action[1], GDB_ACT_STAY);
    ck_assert_str_eq(cmd("vCont;x"), "E01");
    ck_assert_str_eq(cmd("vCont;c:3"), "E01");
    ck_assert_str_eq(cmd("vCont;"), "E01");
    ck_assert_str_eq(cmd("vCont"), "");
    ck_assert_str_eq(cmd("vCont?"), "vCont;c;C;s;S;t");
    ck_assert_str_eq(cmd("c10000"), "E01");                   /* resume address: unsupported */
    ck_assert_ptr_null(cmd("C05"));
    ck_assert_str_eq(cmd("Cxx"), "E01");
    cmd("k");
    ck_assert(g.kill);
}
END_TEST

START_TEST(queries)
{
    ck_assert(strstr(cmd("qSupported:xmlRegisters=aarch64"), "qXfer:features:read+"));
    const char *r = cmd("qXfer:features:read:target.xml:0,10");
    ck_assert_int_eq(r[0], 'm');
    ck_assert_uint_eq(strlen(r), 0x11);
    r = cmd("qXfer:features:read:target.xml:10,1000");
    ck_assert_int_eq(r[0], 'l');
    ck_assert(strstr(r, "</target>"));
    ck_assert_str_eq(cmd("qXfer:features:read:target.xml:ffff,10"), "l");
    ck_assert_str_eq(cmd("qXfer:features:read:target.xml:0"), "E01");
    ck_assert_str_eq(cmd("qfThreadInfo"), "m1,2");
    ck_assert_str_eq(cmd("qsThreadInfo"), "l");
    ck_assert_str_eq(cmd("qC"), "QC1");
    ck_assert_str_eq(cmd("qThreadExtraInfo,2"), "764350552031");   /* "vCPU 1" */
    ck_assert_str_eq(cmd("qThreadExtraInfo,9"), "E01");
    ck_assert_str_eq(cmd("qRcmd,74 6c62"), "E01");
    ck_assert_str_eq(cmd("qRcmd,746c6"), "E01");                   /* odd length */
    ck_assert_str_eq(cmd("qRcmd,746c62"), "63707520303a20746c620a"); /* "cpu 0: tlb\n" */
    ck_assert_str_eq(fake.last_monitor, "tlb");
    ck_assert_str_eq(cmd("qRcmd,7400"), "E01");                    /* NUL inside */
    ck_assert_str_eq(cmd("T2"), "OK");
    ck_assert_str_eq(cmd("T3"), "E01");
    ck_assert_str_eq(cmd("?"), "T05thread:1;");
    ck_assert_str_eq(cmd("qUnknown"), "");
    ck_assert_str_eq(cmd("!"), "");
    cmd("D");
    ck_assert(g.detach);
    char out[96];
    GdbStop st = { .cpu = 1, .signal = 5, .watch_type = GDB_WP_WRITE, .watch_addr = 0xffff800082057a00ull };
    gdb_stub_stop_reply(&st, out, sizeof out);
    ck_assert_str_eq(out, "T05watch:ffff800082057a00;thread:2;");
    st = (GdbStop){ .exited = true, .status = 300 };
    gdb_stub_stop_reply(&st, out, sizeof out);
    ck_assert_str_eq(out, "W2c");
}
END_TEST

/* A stop on vCPU 1 makes thread 2 the general thread: gdb sends no Hg for the thread its stop
 * reply named before it reads registers (a breakpoint hit on the second vCPU). */
START_TEST(stop_selects_thread)
{
    ck_assert_str_eq(cmd("Hg1"), "OK");
    ck_assert_str_eq(cmd("qC"), "QC1");
    GdbStop st = { .cpu = 1, .signal = 5 };
    gdb_stub_stopped(&g, &st);
    ck_assert_str_eq(cmd("qC"), "QC2");
    ck_assert_str_eq(cmd("?"), "T05thread:2;");
    fake.regs[0][32] = 0x1000;
    fake.regs[1][32] = 0x2211;
    ck_assert_str_eq(cmd("p20"), "1122000000000000");   /* vCPU 1's pc */
    st = (GdbStop){ .cpu = 7, .signal = 5 };   /* no such vCPU: the general thread stays */
    gdb_stub_stopped(&g, &st);
    ck_assert_str_eq(cmd("qC"), "QC2");
    st = (GdbStop){ .exited = true, .status = 0 };
    gdb_stub_stopped(&g, &st);
    ck_assert_str_eq(cmd("qC"), "QC2");
}
END_TEST

/* Seeded random packets (the live equivalent is make fuzz's fuzz_gdb): replies stay in bounds
 * and framable; under SAN=1 any overflow fails here. */
START_TEST(random_packets)
{
    static GdbPacketParser p;
    static char frame[2 * GDB_PACKET_MAX + 8];
    static const char alphabet[] = "0123456789abcdefxyz,:;=-}$#*qQvVCcSsmMXxgGpPZzHT?!Dk~ \x03";
    static const char *const heads[] = { "m", "M", "X", "p", "P", "G", "Z", "z", "H", "T", "vCont;", "qRcmd,",
                                         "qXfer:features:read:target.xml:", "qThreadExtraInfo,", "C", "S" };
    unsigned seed = 12345;
    gdb_packet_init(&p);
    for (int i = 0; i < 200000; i++) {
        char pkt[300];
        size_t n = (size_t)snprintf(pkt, sizeof pkt, "%s", heads[rand_r(&seed) % (sizeof heads / sizeof *heads)]);
        size_t extra = (size_t)(rand_r(&seed) % 64);
        for (size_t j = 0; j < extra; j++)
            pkt[n++] = alphabet[rand_r(&seed) % (sizeof alphabet - 1)];
        pkt[n] = 0;
        size_t fl = gdb_packet_frame(pkt, n, frame, sizeof frame);
        ck_assert_uint_gt(fl, 0);
        if (rand_r(&seed) % 8 == 0)
            frame[rand_r(&seed) % fl] ^= (char)(1 + rand_r(&seed) % 255); /* damage the frame */
        for (size_t j = 0; j < fl; j++)
            if (gdb_packet_feed(&p, (uint8_t)frame[j]) == GP_PACKET) {
                gdb_stub_handle(&g, p.buf, p.len);
                ck_assert_uint_le(g.reply_len, GDB_PACKET_MAX);
                if (!g.resume && !g.kill)
                    ck_assert_uint_gt(gdb_packet_frame(g.reply, g.reply_len, frame + fl, sizeof frame - fl), 0);
            }
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gdb_stub");
    TCase *tc = tcase_create("stub");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, framing);
    tcase_add_test(tc, registers);
    tcase_add_test(tc, memory);
    tcase_add_test(tc, points_and_resume);
    tcase_add_test(tc, queries);
    tcase_add_test(tc, stop_selects_thread);
    tcase_add_test(tc, random_packets);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
