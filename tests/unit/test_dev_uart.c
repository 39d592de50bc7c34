/* devices/pl011 (FIFO, flags, interrupt bits, GIC line, loopback, IDs) and devices/pl031
 * (host time, load, alarm interrupt, IDs); hostile accesses to both. */
#include <string.h>
#include <time.h>
#include "../devices/dev_check.h"
#include <unistd.h>
#include "../../devices/console.h"
#include "../../devices/gic400.h"
#include "../../devices/pl011.h"
#include "../../devices/pl031.h"

enum {
    DR = 0x000, RSR = 0x004, FR = 0x018, IBRD = 0x024, FBRD = 0x028, LCR_H = 0x02C, CR = 0x030,
    IFLS = 0x034, IMSC = 0x038, RIS = 0x03C, MIS = 0x040, ICR = 0x044, DMACR = 0x048,
};
enum { RXFE = 1 << 4, TXFF = 1 << 5, RXFF = 1 << 6, TXFE = 1 << 7, BUSY = 1 << 3 };
enum { I_RX = 1 << 4, I_TX = 1 << 5, I_RT = 1 << 6, I_OE = 1 << 10 };
#define UART_IRQ 115
#define RTC_IRQ 100

static char txbuf[256];
static unsigned ntx;

static void tx(void *o, uint8_t ch)
{
    (void)o;
    if (ntx < sizeof txbuf)
        txbuf[ntx++] = (char)ch;
}

static uint32_t rd(Pl011 *u, unsigned off) { return (uint32_t)pl011_ops.read(u, off, 4); }
static void wr(Pl011 *u, unsigned off, uint32_t v) { pl011_ops.write(u, off, v, 4); }

/* GIC with SPIs enabled and routed to CPU 0, so pending state is visible. */
static Gic *spi_gic(void)
{
    Gic *g = gic_new(1, NULL, NULL);
    gic_dist_write(g, 0, 0x000, 1, 4);
    for (unsigned i = 1; i < 8; i++)
        gic_dist_write(g, 0, 0x100 + 4 * i, 0xFFFFFFFF, 4);
    for (unsigned i = 32; i < 256; i += 4)
        gic_dist_write(g, 0, 0x800 + i, 0x01010101, 4);
    return g;
}

static bool spi_pending(Gic *g, unsigned intid)
{
    return (gic_dist_read(g, 0, 0x200 + 4 * (intid / 32), 4) >> (intid % 32)) & 1;
}

START_TEST(uart_ids_and_reset)
{
    Pl011 *u = pl011_new(NULL, 0, tx, NULL);
    static const uint8_t ids[8] = { 0x11, 0x10, 0x14, 0x00, 0x0D, 0xF0, 0x05, 0xB1 };
    for (int i = 0; i < 8; i++)
        ck_assert_uint_eq(rd(u, 0xFE0 + 4 * i), ids[i]);
    ck_assert_uint_eq(rd(u, CR), 0x300);
    ck_assert_uint_eq(rd(u, IFLS), 0x12);
    ck_assert_uint_eq(rd(u, FR), TXFE | RXFE | 7); /* CTS, DSR, DCD */
    ck_assert_uint_eq(pl011_ops.read(u, FR, 2), TXFE | RXFE | 7);
    pl011_ops.write(u, DR, 'b', 1);
    wr(u, IBRD, 0x12345);
    wr(u, FBRD, 0xFF);
    ck_assert_uint_eq(rd(u, IBRD), 0x2345);
    ck_assert_uint_eq(rd(u, FBRD), 0x3F);
    wr(u, DMACR, 7);
    ck_assert_uint_eq(rd(u, DMACR), 7);
    pl011_reset(u);
    ck_assert_uint_eq(rd(u, IBRD), 0);
    pl011_free(u);
}
END_TEST

START_TEST(uart_tx)
{
    Gic *g = spi_gic();
    ntx = 0;
    Pl011 *u = pl011_new(g, UART_IRQ, tx, NULL);
    const char *msg = "Booting Linux\r\n";
    for (const char *p = msg; *p; p++) {
        ck_assert_uint_eq(rd(u, FR) & (TXFF | BUSY), 0);
        wr(u, DR, (uint8_t)*p);
    }
    ck_assert_uint_eq(ntx, strlen(msg));
    ck_assert_mem_eq(txbuf, msg, ntx);
    ck_assert_uint_eq(rd(u, RIS) & I_TX, I_TX);
    ck_assert(!spi_pending(g, UART_IRQ)); /* masked */
    wr(u, IMSC, I_TX);
    ck_assert_uint_eq(rd(u, MIS), I_TX);
    ck_assert(spi_pending(g, UART_IRQ));
    wr(u, ICR, I_TX);
    ck_assert_uint_eq(rd(u, MIS), 0);
    ck_assert(!spi_pending(g, UART_IRQ));
    /* loopback: TX goes to the RX FIFO, not the host */
    wr(u, CR, 0x381);
    wr(u, DR, 'L');
    ck_assert_uint_eq(ntx, strlen(msg));
    ck_assert_uint_eq(rd(u, FR) & RXFE, 0);
    ck_assert_uint_eq(rd(u, DR), 'L');
    pl011_free(u);
    gic_free(g);
}
END_TEST

START_TEST(uart_rx_fifo_and_interrupts)
{
    Gic *g = spi_gic();
    Pl011 *u = pl011_new(g, UART_IRQ, tx, NULL);
    uint8_t in[20];
    for (int i = 0; i < 20; i++)
        in[i] = (uint8_t)('a' + i);
    /* FIFO disabled: one character deep */
    ck_assert_int_eq(pl011_receive(u, in, 20), 1);
    ck_assert_uint_eq(rd(u, FR) & (RXFF | RXFE), RXFF);
    ck_assert_uint_eq(rd(u, RIS) & (I_RX | I_RT), I_RX | I_RT);
    ck_assert_uint_eq(rd(u, DR), 'a');
    ck_assert_uint_eq(rd(u, FR) & RXFE, RXFE);
    ck_assert_uint_eq(rd(u, DR), 0); /* empty */
    /* FIFO enabled, RX trigger 1/2 (8 of 16) */
    wr(u, LCR_H, 0x70);
    wr(u, IMSC, I_RX | I_RT);
    ck_assert_int_eq(pl011_receive(u, in, 3), 3);
    ck_assert_uint_eq(rd(u, RIS) & (I_RX | I_RT), I_RT); /* below trigger: timeout only */
    ck_assert(spi_pending(g, UART_IRQ));
    ck_assert_int_eq(pl011_receive(u, in + 3, 17), 13); /* fills to 16 */
    ck_assert_uint_eq(rd(u, FR) & RXFF, RXFF);
    ck_assert_uint_eq(rd(u, MIS), I_RX | I_RT);
    ck_assert_int_eq(pl011_receive(u, in, 1), 0); /* full */
    for (int i = 0; i < 16; i++)
        ck_assert_uint_eq(rd(u, DR), in[i]);
    ck_assert_uint_eq(rd(u, RIS) & (I_RX | I_RT), 0);
    ck_assert(!spi_pending(g, UART_IRQ));
    /* trigger level 7/8 = 14 */
    wr(u, IFLS, 4 << 3);
    pl011_receive(u, in, 13);
    ck_assert_uint_eq(rd(u, RIS) & I_RX, 0);
    pl011_receive(u, in, 1);
    ck_assert_uint_eq(rd(u, RIS) & I_RX, I_RX);
    /* changing FEN empties the FIFO */
    wr(u, LCR_H, 0x60);
    ck_assert_uint_eq(rd(u, FR) & RXFE, RXFE);
    pl011_free(u);
    gic_free(g);
}
END_TEST

START_TEST(uart_overrun_via_loopback)
{
    Pl011 *u = pl011_new(NULL, 0, tx, NULL);
    wr(u, CR, 0x381); /* loopback, FIFO off */
    wr(u, DR, 'x');
    wr(u, DR, 'y'); /* no room */
    ck_assert_uint_eq(rd(u, RIS) & I_OE, I_OE);
    ck_assert_uint_eq(rd(u, RSR) & 8, 8);
    wr(u, ICR, 0x7FF);
    wr(u, RSR, 0);
    ck_assert_uint_eq(rd(u, RIS) & I_OE, 0);
    ck_assert_uint_eq(rd(u, RSR), 0);
    ck_assert_uint_eq(rd(u, DR), 'x');
    pl011_free(u);
}
END_TEST

START_TEST(uart_hostile)
{
    Gic *g = spi_gic();
    Pl011 *u = pl011_new(g, UART_IRQ, tx, NULL);
    ntx = 0;
    dev_fuzz(&pl011_ops, u, 0x1000, 50000, 42);
    uint8_t b = 'z';
    pl011_receive(u, &b, 1);
    pl011_free(u);
    gic_free(g);
}
END_TEST

static uint32_t rtc_rd(Pl031 *r, unsigned off) { return (uint32_t)pl031_ops.read(r, off, 4); }
static void rtc_wr(Pl031 *r, unsigned off, uint32_t v) { pl031_ops.write(r, off, v, 4); }

START_TEST(rtc_time_and_ids)
{
    Pl031 *r = pl031_new(NULL, 0);
    static const uint8_t ids[8] = { 0x31, 0x10, 0x14, 0x00, 0x0D, 0xF0, 0x05, 0xB1 };
    for (int i = 0; i < 8; i++)
        ck_assert_uint_eq(rtc_rd(r, 0xFE0 + 4 * i), ids[i]);
    uint32_t now = (uint32_t)time(NULL);
    uint32_t dr = rtc_rd(r, 0x00);
    ck_assert(dr - now <= 1 || now - dr <= 1);
    ck_assert_uint_eq(rtc_rd(r, 0x0C), 1); /* started */
    rtc_wr(r, 0x08, 1000);                /* load */
    dr = rtc_rd(r, 0x00);
    ck_assert(dr >= 1000 && dr <= 1001);
    rtc_wr(r, 0x00, 5); /* DR is read-only */
    ck_assert(rtc_rd(r, 0x00) >= 1000);
    rtc_wr(r, 0x04, 0x12345678);
    ck_assert_uint_eq(rtc_rd(r, 0x04), 0x12345678);
    pl031_reset(r);
    dr = rtc_rd(r, 0x00);
    now = (uint32_t)time(NULL);
    ck_assert(dr - now <= 1 || now - dr <= 1);
    pl031_free(r);
}
END_TEST

START_TEST(rtc_alarm)
{
    Gic *g = spi_gic();
    Pl031 *r = pl031_new(g, RTC_IRQ);
    rtc_wr(r, 0x10, 1); /* IMSC */
    rtc_wr(r, 0x04, rtc_rd(r, 0x00) + 1);
    ck_assert_uint_eq(rtc_rd(r, 0x14), 0);
    for (int i = 0; i < 300 && !rtc_rd(r, 0x14); i++)
        dev_sleep_ms(10);
    ck_assert_uint_eq(rtc_rd(r, 0x14), 1);
    ck_assert_uint_eq(rtc_rd(r, 0x18), 1);
    ck_assert(spi_pending(g, RTC_IRQ));
    rtc_wr(r, 0x1C, 1); /* ICR */
    ck_assert_uint_eq(rtc_rd(r, 0x14), 0);
    ck_assert(!spi_pending(g, RTC_IRQ));
    dev_fuzz(&pl031_ops, r, 0x1000, 20000, 77);
    pl031_free(r);
    gic_free(g);
}
END_TEST

/* Console: escape handling and back-pressure, with pipes instead of a terminal. */
static char rxbuf[64];
static unsigned nrx, refuse;
static int quits;
#define QUITS() __atomic_load_n(&quits, __ATOMIC_SEQ_CST)

static int rx_capture(void *o, const uint8_t *b, int len)
{
    (void)o;
    if (refuse) { /* FIFO "full" a few times: the reader must wait, not drop */
        refuse--;
        return 0;
    }
    if (nrx < sizeof rxbuf)
        rxbuf[nrx++] = (char)b[0];
    (void)len;
    return 1;
}

static void on_quit(void *o)
{
    (void)o;
    __atomic_add_fetch(&quits, 1, __ATOMIC_SEQ_CST);
}

START_TEST(console_escapes)
{
    int in[2], outp[2];
    ck_assert_int_eq(pipe(in), 0);
    ck_assert_int_eq(pipe(outp), 0);
    Console *c = console_new(in[0], outp[1]);
    console_set_quit(c, on_quit, NULL);
    nrx = 0;
    refuse = 3;
    console_start(c, rx_capture, NULL);
    static const char keys[] = "ab\x01\x01" "c\x01" "zd\x01" "x";
    ck_assert_int_eq(write(in[1], keys, sizeof keys - 1), (ssize_t)(sizeof keys - 1));
    for (int i = 0; i < 200 && !QUITS(); i++)
        dev_sleep_ms(5);
    ck_assert_int_eq(QUITS(), 1);
    ck_assert_uint_eq(nrx, 7); /* ^A^A -> ^A; ^A z -> both; ^A x -> quit */
    ck_assert_mem_eq(rxbuf, "ab\x01" "c\x01" "zd", 7);
    console_putc(c, 'Q');
    char got[128];
    ssize_t n = read(outp[0], got, sizeof got);
    ck_assert_int_gt(n, 0);
    ck_assert_int_eq(got[n - 1], 'Q');
    close(in[1]); /* EOF ends the reader thread */
    dev_sleep_ms(20);
    close(outp[0]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dev_uart");
    TCase *tc = tcase_create("pl011");
    tcase_add_test(tc, uart_ids_and_reset);
    tcase_add_test(tc, uart_tx);
    tcase_add_test(tc, uart_rx_fifo_and_interrupts);
    tcase_add_test(tc, uart_overrun_via_loopback);
    tcase_add_test(tc, uart_hostile);
    tcase_add_test(tc, console_escapes);
    suite_add_tcase(s, tc);
    TCase *tr = tcase_create("pl031");
    tcase_set_timeout(tr, 10);
    tcase_add_test(tr, rtc_time_and_ids);
    tcase_add_test(tr, rtc_alarm);
    suite_add_tcase(s, tr);
    return dev_run_suite(s);
}
