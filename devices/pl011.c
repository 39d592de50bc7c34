/* PL011 UART (see pl011.h). */
#include "pl011.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum {
    UART_DR = 0x000, UART_RSR = 0x004, UART_FR = 0x018, UART_ILPR = 0x020, UART_IBRD = 0x024,
    UART_FBRD = 0x028, UART_LCR_H = 0x02C, UART_CR = 0x030, UART_IFLS = 0x034,
    UART_IMSC = 0x038, UART_RIS = 0x03C, UART_MIS = 0x040, UART_ICR = 0x044, UART_DMACR = 0x048,
    UART_ID = 0xFE0,
};
enum { FR_CTS = 1u << 0, FR_DSR = 1u << 1, FR_DCD = 1u << 2, FR_RXFE = 1u << 4, FR_TXFF = 1u << 5, FR_RXFF = 1u << 6, FR_TXFE = 1u << 7 };
enum { LCR_FEN = 1u << 4 };
enum { CR_LBE = 1u << 7 };
enum { INT_RX = 1u << 4, INT_TX = 1u << 5, INT_RT = 1u << 6, INT_OE = 1u << 10, INT_ALL = 0x7FF };

struct Pl011 {
    pthread_mutex_t lock;
    Gic *gic;
    unsigned irq;
    Pl011TxFn tx;
    void *tx_opaque;
    uint16_t fifo[PL011_FIFO_DEPTH]; /* data + error bits [11:8] */
    unsigned head, count;
    uint32_t rsr, ilpr, ibrd, fbrd, lcr_h, cr, ifls, imsc, dmacr;
    uint32_t latched; /* TX and OE interrupt bits, set by events, cleared by ICR */
    bool irq_out;
};

static const uint8_t pl011_id[8] = { 0x11, 0x10, 0x14, 0x00, 0x0D, 0xF0, 0x05, 0xB1 };

static unsigned depth(const Pl011 *u)
{
    return (u->lcr_h & LCR_FEN) ? PL011_FIFO_DEPTH : 1;
}

static unsigned rx_trigger(const Pl011 *u)
{
    static const unsigned eighths[8] = { 1, 2, 4, 6, 7, 7, 7, 7 };
    if (!(u->lcr_h & LCR_FEN))
        return 1;
    return PL011_FIFO_DEPTH * eighths[(u->ifls >> 3) & 7] / 8;
}

static uint32_t ris(const Pl011 *u)
{
    uint32_t r = u->latched;
    if (u->count >= rx_trigger(u))
        r |= INT_RX;
    if (u->count)
        r |= INT_RT; /* the receive timeout fires as soon as data waits */
    return r;
}

static void update_irq(Pl011 *u)
{
    bool level = (ris(u) & u->imsc) != 0;
    if (level != u->irq_out) {
        u->irq_out = level;
        if (u->gic)
            gic_set_spi(u->gic, u->irq, level);
    }
}

static void reset_locked(Pl011 *u)
{
    u->head = u->count = 0;
    u->rsr = u->ilpr = u->ibrd = u->fbrd = u->lcr_h = u->imsc = u->dmacr = 0;
    u->cr = 0x300; /* TXE | RXE */
    u->ifls = 0x12; /* 1/2 full both ways */
    u->latched = 0;
    update_irq(u);
}

Pl011 *pl011_new(Gic *gic, unsigned irq, Pl011TxFn tx, void *tx_opaque)
{
    Pl011 *u = calloc(1, sizeof *u);
    if (!u)
        return NULL;
    pthread_mutex_init(&u->lock, NULL);
    u->gic = gic;
    u->irq = irq;
    u->tx = tx;
    u->tx_opaque = tx_opaque;
    reset_locked(u);
    return u;
}

void pl011_free(Pl011 *u)
{
    if (u) {
        pthread_mutex_destroy(&u->lock);
        free(u);
    }
}

void pl011_reset(Pl011 *u)
{
    pthread_mutex_lock(&u->lock);
    reset_locked(u);
    pthread_mutex_unlock(&u->lock);
}

static void push_locked(Pl011 *u, uint16_t v)
{
    if (u->count >= depth(u)) {
        u->latched |= INT_OE;
        u->rsr |= 8; /* overrun */
        return;
    }
    u->fifo[(u->head + u->count) % PL011_FIFO_DEPTH] = v;
    u->count++;
}

int pl011_receive(Pl011 *u, const uint8_t *buf, int len)
{
    int n = 0;
    pthread_mutex_lock(&u->lock);
    while (n < len && u->count < depth(u))
        push_locked(u, buf[n++]);
    update_irq(u);
    pthread_mutex_unlock(&u->lock);
    return n;
}

int pl011_receive_cb(void *u, const uint8_t *buf, int len)
{
    return pl011_receive(u, buf, len);
}

static uint64_t pl011_read(void *opaque, uint64_t off, unsigned size)
{
    Pl011 *u = opaque;
    uint32_t v = 0;
    if (size > 4)
        return 0;
    pthread_mutex_lock(&u->lock);
    switch (off) {
    case UART_DR:
        if (u->count) {
            v = u->fifo[u->head];
            u->head = (u->head + 1) % PL011_FIFO_DEPTH;
            u->count--;
            u->rsr = (v >> 8) & 0xF;
        }
        break;
    case UART_RSR: v = u->rsr; break;
    case UART_FR:
        v = FR_TXFE | FR_CTS | FR_DSR | FR_DCD; /* modem lines: a connected terminal */
        if (!u->count)
            v |= FR_RXFE;
        if (u->count >= depth(u))
            v |= FR_RXFF;
        break;
    case UART_ILPR: v = u->ilpr; break;
    case UART_IBRD: v = u->ibrd; break;
    case UART_FBRD: v = u->fbrd; break;
    case UART_LCR_H: v = u->lcr_h; break;
    case UART_CR: v = u->cr; break;
    case UART_IFLS: v = u->ifls; break;
    case UART_IMSC: v = u->imsc; break;
    case UART_RIS: v = ris(u); break;
    case UART_MIS: v = ris(u) & u->imsc; break;
    case UART_DMACR: v = u->dmacr; break;
    default:
        if (off >= UART_ID && off < 0x1000 && !(off & 3))
            v = pl011_id[(off - UART_ID) / 4];
        break;
    }
    update_irq(u);
    pthread_mutex_unlock(&u->lock);
    return v;
}

static void pl011_write(void *opaque, uint64_t off, uint64_t val, unsigned size)
{
    Pl011 *u = opaque;
    uint32_t v = (uint32_t)val;
    if (size > 4)
        return;
    pthread_mutex_lock(&u->lock);
    switch (off) {
    case UART_DR:
        if (u->cr & CR_LBE)
            push_locked(u, v & 0xFF);
        else if (u->tx)
            u->tx(u->tx_opaque, (uint8_t)v);
        u->latched |= INT_TX;
        break;
    case UART_RSR: u->rsr = 0; break;
    case UART_ILPR: u->ilpr = v & 0xFF; break;
    case UART_IBRD: u->ibrd = v & 0xFFFF; break;
    case UART_FBRD: u->fbrd = v & 0x3F; break;
    case UART_LCR_H:
        if ((v ^ u->lcr_h) & LCR_FEN)
            u->head = u->count = 0; /* FIFO mode change empties the FIFO */
        u->lcr_h = v & 0xFF;
        break;
    case UART_CR: u->cr = v & 0xFF87; break;
    case UART_IFLS: u->ifls = v & 0x3F; break;
    case UART_IMSC: u->imsc = v & INT_ALL; break;
    case UART_ICR: u->latched &= ~v; break;
    case UART_DMACR: u->dmacr = v & 7; break;
    default: break;
    }
    update_irq(u);
    pthread_mutex_unlock(&u->lock);
}

const MmioOps pl011_ops = { "pl011", pl011_read, pl011_write };

/* ---- checkpoint ---------------------------------------------------------------------------- */

static const CkptField pl011_fields[] = {
    CKPT_FIELD(Pl011, fifo, CKPT_T_U16),   CKPT_FIELD(Pl011, head, CKPT_T_U32),
    CKPT_FIELD(Pl011, count, CKPT_T_U32),  CKPT_FIELD(Pl011, rsr, CKPT_T_U32),
    CKPT_FIELD(Pl011, ilpr, CKPT_T_U32),   CKPT_FIELD(Pl011, ibrd, CKPT_T_U32),
    CKPT_FIELD(Pl011, fbrd, CKPT_T_U32),   CKPT_FIELD(Pl011, lcr_h, CKPT_T_U32),
    CKPT_FIELD(Pl011, cr, CKPT_T_U32),     CKPT_FIELD(Pl011, ifls, CKPT_T_U32),
    CKPT_FIELD(Pl011, imsc, CKPT_T_U32),   CKPT_FIELD(Pl011, dmacr, CKPT_T_U32),
    CKPT_FIELD(Pl011, latched, CKPT_T_U32),
    CKPT_FIELDS_END,
};

void pl011_ckpt_save(Pl011 *u, CkptWriter *w)
{
    pthread_mutex_lock(&u->lock);
    ckpt_begin(w, "pl011", 0, PL011_CKPT_VERSION);
    ckpt_fields(w, pl011_fields, u);
    ckpt_end(w);
    pthread_mutex_unlock(&u->lock);
}

bool pl011_ckpt_load(Pl011 *u, CkptReader *r)
{
    CkptSection *s = ckpt_section(r, "pl011", 0, PL011_CKPT_VERSION);
    Pl011 v = { 0 };
    if (!s || !ckpt_load_fields(s, pl011_fields, &v))
        return false;
    /* each register as the write masks of pl011_write leave it */
    static const struct { const char *name; size_t off; uint32_t mask; } regs[] = {
        { "rsr", offsetof(Pl011, rsr), 0xF },       { "ilpr", offsetof(Pl011, ilpr), 0xFF },
        { "ibrd", offsetof(Pl011, ibrd), 0xFFFF },  { "fbrd", offsetof(Pl011, fbrd), 0x3F },
        { "lcr_h", offsetof(Pl011, lcr_h), 0xFF },  { "cr", offsetof(Pl011, cr), 0xFF87 },
        { "ifls", offsetof(Pl011, ifls), 0x3F },    { "imsc", offsetof(Pl011, imsc), INT_ALL },
        { "dmacr", offsetof(Pl011, dmacr), 7 },     { "latched", offsetof(Pl011, latched), INT_TX | INT_OE },
    };
    for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++) {
        uint32_t val;
        memcpy(&val, (const uint8_t *)&v + regs[i].off, sizeof val);
        if (val & ~regs[i].mask)
            return ckpt_fail(s, "field '%s' is %#x: bits outside %#x", regs[i].name, val, regs[i].mask);
    }
    if (v.head >= PL011_FIFO_DEPTH)
        return ckpt_fail(s, "field 'head' is %u, at most %u", v.head, PL011_FIFO_DEPTH - 1);
    if (v.count > depth(&v))
        return ckpt_fail(s, "field 'count' is %u, the FIFO holds %u (lcr_h %#x)", v.count, depth(&v), v.lcr_h);
    for (unsigned i = 0; i < v.count; i++)
        if (v.fifo[(v.head + i) % PL011_FIFO_DEPTH] & ~0xFFFu)
            return ckpt_fail(s, "field 'fifo': entry %u is %#x (8 data + 4 error bits)", i,
                             v.fifo[(v.head + i) % PL011_FIFO_DEPTH]);
    pthread_mutex_lock(&u->lock);
    memcpy(u->fifo, v.fifo, sizeof u->fifo);
    u->head = v.head;
    u->count = v.count;
    u->rsr = v.rsr;
    u->ilpr = v.ilpr;
    u->ibrd = v.ibrd;
    u->fbrd = v.fbrd;
    u->lcr_h = v.lcr_h;
    u->cr = v.cr;
    u->ifls = v.ifls;
    u->imsc = v.imsc;
    u->dmacr = v.dmacr;
    u->latched = v.latched;
    u->irq_out = !((ris(u) & u->imsc) != 0); /* re-drive the line whatever the GIC holds */
    update_irq(u);
    pthread_mutex_unlock(&u->lock);
    return ckpt_ok(r);
}
