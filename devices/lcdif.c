/* NXP i.MX eLCDIF V4 (see lcdif.h). */
#include "lcdif.h"
#include "scanout_cache.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hosttimer.h"
#include "../emu/checkpoint/ckpt.h"

#define NREGS (0x200 / 0x10) /* one slot per 16-byte register (value, SET, CLR, TOG) */

struct Lcdif {
    pthread_mutex_t lock;
    Bus *bus;
    Gic *gic;
    unsigned intid;
    uint64_t pixel_clock_hz;
    HostTimer *frame_timer;
    uint32_t reg[NREGS];
    uint64_t generation, frames;
    uint64_t next_frame_ns;
    bool irq_out;
    bool dma_error_logged; /* one log line per bad programming, not one per frame */
    /* lcdif_render_changed: the framebuffer bytes and registers of the last frame it converted */
    ScanoutCache shown;
};

#define R(d, name) ((d)->reg[LCDIF_REG_##name / 0x10])

/* CTRL1 bits that do not change the picture: the interrupt bits and enables, FIFO control */
static const uint32_t CTRL1_NOT_PICTURE = 0xFF00 | LCDIF_CTRL1_BM_ERROR_IRQ | LCDIF_CTRL1_BM_ERROR_IRQ_EN |
                                          LCDIF_CTRL1_FIFO_CLEAR | LCDIF_CTRL1_RECOVER_ON_UNDERFLOW;

/* The registers with SET/CLR/TOG aliases (the reference manual's SCT registers). */
static bool has_sct(unsigned idx)
{
    unsigned off = idx * 0x10;
    return off == LCDIF_REG_CTRL || off == LCDIF_REG_CTRL1 || off == LCDIF_REG_CTRL2 ||
           off == LCDIF_REG_VDCTRL0;
}

static bool writable(unsigned idx)
{
    unsigned off = idx * 0x10;
    return off <= LCDIF_REG_VDCTRL4 || (off >= 0xC0 && off <= 0x180); /* DVICTRL, CSC, DATA: kept */
}

static void reset_values(uint32_t *reg)
{
    memset(reg, 0, NREGS * sizeof *reg);
    reg[LCDIF_REG_CTRL / 0x10] = LCDIF_CTRL_SFTRST | LCDIF_CTRL_CLKGATE;
    reg[LCDIF_REG_CTRL1 / 0x10] = 0xFu << LCDIF_CTRL1_PACKING_SHIFT;
    reg[LCDIF_REG_TRANSFER_COUNT / 0x10] = 1u << 16;
    reg[LCDIF_REG_VERSION / 0x10] = LCDIF_VERSION_VALUE;
}

static bool running(const Lcdif *d)
{
    uint32_t c = R(d, CTRL);
    return (c & LCDIF_CTRL_RUN) && !(c & (LCDIF_CTRL_SFTRST | LCDIF_CTRL_CLKGATE));
}

static bool irq_level(const Lcdif *d)
{
    uint32_t c1 = R(d, CTRL1);
    /* each status bit 8..11 has its enable 4 bits above; BM_ERROR's is the next bit */
    return ((c1 & 0xF00) & ((c1 >> 4) & 0xF00)) ||
           ((c1 & LCDIF_CTRL1_BM_ERROR_IRQ) && (c1 & LCDIF_CTRL1_BM_ERROR_IRQ_EN));
}

static void update_irq(Lcdif *d)
{
    bool level = irq_level(d);
    if (level != d->irq_out) {
        d->irq_out = level;
        if (d->gic)
            gic_set_spi(d->gic, d->intid, level);
    }
}

/* Frame period: VDCTRL1 lines of VDCTRL2 pixel clocks (or VDCTRL1 clocks), kept between 1000
 * and 1 frames per second whatever the guest programs. */
static uint64_t frame_ns(const Lcdif *d)
{
    uint64_t htotal = R(d, VDCTRL2) & 0x3FFFF, vperiod = R(d, VDCTRL1);
    uint64_t clocks = (R(d, VDCTRL0) & LCDIF_VDCTRL0_VSYNC_PERIOD_UNIT) ? htotal * vperiod : vperiod;
    uint64_t ns = clocks * 1000000000ull / (d->pixel_clock_hz ? d->pixel_clock_hz : 1);
    return ns < 1000000 ? 1000000 : ns > 1000000000ull ? 1000000000ull : ns;
}

static void arm_timer(Lcdif *d)
{
    if (!running(d)) {
        ht_timer_del(d->frame_timer);
        return;
    }
    uint64_t now = ht_now_ns();
    if (d->next_frame_ns <= now || d->next_frame_ns > now + frame_ns(d))
        d->next_frame_ns = now + frame_ns(d);
    ht_timer_mod(d->frame_timer, d->next_frame_ns);
}

/* Scanout geometry and bytes per pixel (0: a format this model does not show). */
typedef struct Scan {
    unsigned w, h, bpp;
    uint64_t base;
} Scan;

static Scan scan_of(const uint32_t *reg)
{
    uint32_t ctrl = reg[LCDIF_REG_CTRL / 0x10], tc = reg[LCDIF_REG_TRANSFER_COUNT / 0x10];
    unsigned word = (ctrl >> LCDIF_CTRL_WORD_LENGTH_SHIFT) & 3;
    unsigned pack = (reg[LCDIF_REG_CTRL1 / 0x10] >> LCDIF_CTRL1_PACKING_SHIFT) & 0xF;
    Scan s = { tc & 0xFFFF, tc >> 16, 0, reg[LCDIF_REG_CUR_BUF / 0x10] };
    if (word == 0 && pack == 0xF)
        s.bpp = 2;
    else if ((word == 3 || word == 2) && pack == 0x7)
        s.bpp = 4;
    else if (word == 3 && pack == 0xF)
        s.bpp = 3;
    return s;
}

/* Whether [pa, pa + len) is inside one RAM region. */
static bool in_ram(Bus *bus, uint64_t pa, uint64_t len)
{
    uint64_t base, size;
    bool ro;
    for (unsigned i = 0; bus_ram_region(bus, i, &base, &size, &ro); i++)
        if (pa >= base && pa - base <= size && len <= size - (pa - base))
            return true;
    return false;
}

static bool dma_ok(const Scan *s, Bus *bus)
{
    return s->bpp && s->w && s->h && s->w <= LCDIF_MAX_DIM && s->h <= LCDIF_MAX_DIM &&
           in_ram(bus, s->base, (uint64_t)s->w * s->h * s->bpp);
}

static void end_frame_locked(Lcdif *d)
{
    if (!running(d))
        return;
    d->frames++;
    uint32_t raise = LCDIF_CTRL1_CUR_FRAME_DONE_IRQ;
    Scan s = scan_of(d->reg);
    if (!dma_ok(&s, d->bus)) {
        raise |= LCDIF_CTRL1_BM_ERROR_IRQ | LCDIF_CTRL1_UNDERFLOW_IRQ;
        R(d, BM_ERROR_STAT) = (uint32_t)s.base;
        if (!d->dma_error_logged) {
            d->dma_error_logged = true;
            if (!s.bpp)
                fprintf(stderr, "malibu: lcdif: word length %u with byte packing 0x%x is not a pixel "
                        "format this model shows: underflow, the panel shows black\n",
                        (R(d, CTRL) >> LCDIF_CTRL_WORD_LENGTH_SHIFT) & 3,
                        (R(d, CTRL1) >> LCDIF_CTRL1_PACKING_SHIFT) & 0xF);
            else
                fprintf(stderr, "malibu: lcdif: scanout of %ux%u (%u bytes a pixel) at 0x%08llx is not "
                        "in RAM: bus error and underflow, the panel shows black\n", s.w, s.h, s.bpp,
                        (unsigned long long)s.base);
        }
    }
    /* the frame just sent used CUR_BUF; the next one starts from NEXT_BUF */
    if (R(d, CUR_BUF) != R(d, NEXT_BUF)) {
        R(d, CUR_BUF) = R(d, NEXT_BUF);
        d->generation++;
        d->dma_error_logged = false;
    }
    R(d, CTRL1) |= raise;
    update_irq(d);
}

void lcdif_end_frame(Lcdif *d)
{
    pthread_mutex_lock(&d->lock);
    end_frame_locked(d);
    pthread_mutex_unlock(&d->lock);
}

static void frame_timer_fired(void *opaque)
{
    Lcdif *d = opaque;
    pthread_mutex_lock(&d->lock);
    if (running(d) && ht_now_ns() >= d->next_frame_ns) {
        end_frame_locked(d);
        d->next_frame_ns += frame_ns(d);
    }
    arm_timer(d);
    pthread_mutex_unlock(&d->lock);
}

static void reset_locked(Lcdif *d)
{
    reset_values(d->reg);
    d->frames = 0;
    d->generation++;
    d->dma_error_logged = false;
    ht_timer_del(d->frame_timer);
    update_irq(d);
}

Lcdif *lcdif_new(Bus *bus, Gic *gic, unsigned intid, uint64_t pixel_clock_hz)
{
    Lcdif *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    pthread_mutex_init(&d->lock, NULL);
    d->bus = bus;
    d->gic = gic;
    d->intid = intid;
    d->pixel_clock_hz = pixel_clock_hz;
    d->frame_timer = ht_timer_new(frame_timer_fired, d);
    if (!d->frame_timer) {
        free(d);
        return NULL;
    }
    reset_locked(d);
    return d;
}

void lcdif_free(Lcdif *d)
{
    if (d) {
        scanout_cache_free(&d->shown);
        ht_timer_free(d->frame_timer);
        pthread_mutex_destroy(&d->lock);
        free(d);
    }
}

void lcdif_reset(Lcdif *d)
{
    pthread_mutex_lock(&d->lock);
    reset_locked(d);
    pthread_mutex_unlock(&d->lock);
}

static uint64_t lcdif_read(void *opaque, uint64_t off, unsigned size)
{
    Lcdif *d = opaque;
    if (size != 4 || off >= NREGS * 0x10 || (off & 3))
        return 0;
    unsigned idx = (unsigned)(off / 0x10);
    pthread_mutex_lock(&d->lock);
    uint32_t v = d->reg[idx];
    if (idx * 0x10 == LCDIF_REG_STAT) /* PRESENT, LFIFO_EMPTY, TXFIFO_EMPTY: the FIFOs drain at once */
        v = 1u << 31 | 1u << 28 | 1u << 26;
    pthread_mutex_unlock(&d->lock);
    return v;
}

/* CTRL's side effects: SFTRST 0 -> 1 resets the block; clearing DOTCLK_MODE stops it. */
static void write_ctrl(Lcdif *d, uint32_t old, uint32_t v)
{
    if ((v & LCDIF_CTRL_SFTRST) && !(old & LCDIF_CTRL_SFTRST)) {
        reset_values(d->reg); /* leaves SFTRST | CLKGATE in CTRL */
        return;
    }
    if (!(v & LCDIF_CTRL_DOTCLK_MODE))
        v &= ~LCDIF_CTRL_RUN;
    R(d, CTRL) = v;
}

static void lcdif_write(void *opaque, uint64_t off, uint64_t value, unsigned size)
{
    Lcdif *d = opaque;
    if (size != 4 || off >= NREGS * 0x10 || (off & 3))
        return;
    unsigned idx = (unsigned)(off / 0x10), alias = off & 0xC;
    if (!writable(idx) || (alias && !has_sct(idx)))
        return;
    uint32_t v = (uint32_t)value;
    pthread_mutex_lock(&d->lock);
    uint32_t old = d->reg[idx];
    uint32_t nv = alias == LCDIF_SET ? old | v : alias == LCDIF_CLR ? old & ~v
                : alias == LCDIF_TOG ? old ^ v : v;
    bool was_running = running(d);
    if (idx * 0x10 == LCDIF_REG_CTRL)
        write_ctrl(d, old, nv);
    else
        d->reg[idx] = nv;
    /* a picture change (not the interrupt bits alone) */
    if ((d->reg[idx] ^ old) & (idx * 0x10 == LCDIF_REG_CTRL1 ? ~CTRL1_NOT_PICTURE : ~0u)) {
        d->generation++;
        d->dma_error_logged = false;
    }
    if (running(d) != was_running || (running(d) && (idx * 0x10 == LCDIF_REG_VDCTRL0 ||
        idx * 0x10 == LCDIF_REG_VDCTRL1 || idx * 0x10 == LCDIF_REG_VDCTRL2)))
        arm_timer(d);
    update_irq(d);
    pthread_mutex_unlock(&d->lock);
}

const MmioOps lcdif_ops = { "lcdif", lcdif_read, lcdif_write };

bool lcdif_running(Lcdif *d)
{
    pthread_mutex_lock(&d->lock);
    bool r = running(d);
    pthread_mutex_unlock(&d->lock);
    return r;
}

uint64_t lcdif_generation(Lcdif *d)
{
    pthread_mutex_lock(&d->lock);
    uint64_t g = d->generation;
    pthread_mutex_unlock(&d->lock);
    return g;
}

uint64_t lcdif_frames(Lcdif *d)
{
    pthread_mutex_lock(&d->lock);
    uint64_t f = d->frames;
    pthread_mutex_unlock(&d->lock);
    return f;
}

uint32_t lcdif_refresh_mhz(Lcdif *d)
{
    pthread_mutex_lock(&d->lock);
    uint32_t r = running(d) ? (uint32_t)(1000000000000ull / frame_ns(d)) : 0;
    pthread_mutex_unlock(&d->lock);
    return r;
}

/* One pixel of bpp bytes at p to XRGB8888 (n-bit components widened by repeating their bits). */
static uint32_t to_xrgb(const uint8_t *p, unsigned bpp, bool argb1555)
{
    if (bpp >= 3) /* XRGB8888 (the X byte ignored) or packed RGB888 */
        return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8, r, g, b;
    if (argb1555) {
        r = (v >> 10) & 31;
        g = (v >> 5) & 31;
        b = v & 31;
        return (r << 3 | r >> 2) << 16 | (g << 3 | g >> 2) << 8 | (b << 3 | b >> 2);
    }
    r = (v >> 11) & 31;
    g = (v >> 5) & 63;
    b = v & 31;
    return (r << 3 | r >> 2) << 16 | (g << 2 | g >> 4) << 8 | (b << 3 | b >> 2);
}

/* 18-bit words (WORD_LENGTH 18, unpacked): RGB666 in bits 17:0. */
static uint32_t rgb666(const uint8_t *p)
{
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
    uint32_t r = (v >> 12) & 63, g = (v >> 6) & 63, b = v & 63;
    return (r << 2 | r >> 4) << 16 | (g << 2 | g >> 4) << 8 | (b << 2 | b >> 4);
}

bool lcdif_render(Lcdif *d, uint32_t *pixels, uint64_t max_pixels, unsigned *width, unsigned *height)
{
    pthread_mutex_lock(&d->lock);
    uint32_t reg[NREGS];
    memcpy(reg, d->reg, sizeof reg);
    bool run = running(d);
    pthread_mutex_unlock(&d->lock);
    Scan s = scan_of(reg);
    if (!run || !s.w || !s.h || s.w > LCDIF_MAX_DIM || s.h > LCDIF_MAX_DIM ||
        (uint64_t)s.w * s.h > max_pixels)
        return false;
    *width = s.w;
    *height = s.h;
    bool ok = dma_ok(&s, d->bus);
    bool word18 = ((reg[LCDIF_REG_CTRL / 0x10] >> LCDIF_CTRL_WORD_LENGTH_SHIFT) & 3) == 2;
    bool df16 = reg[LCDIF_REG_CTRL / 0x10] & LCDIF_CTRL_DF16;
    static _Thread_local uint8_t line[LCDIF_MAX_DIM * 4];
    size_t len = (size_t)s.w * s.bpp;
    for (unsigned y = 0; y < s.h; y++) {
        uint32_t *out = pixels + (uint64_t)y * s.w;
        if (!ok || bus_dma_read(d->bus, s.base + (uint64_t)y * len, line, len) != BUS_OK) {
            memset(out, 0, (size_t)s.w * 4); /* a failed DMA: black */
            continue;
        }
        for (unsigned x = 0; x < s.w; x++)
            out[x] = word18 ? rgb666(line + 4 * x) : to_xrgb(line + (size_t)x * s.bpp, s.bpp, df16);
    }
    return true;
}

int lcdif_render_changed(Lcdif *d, uint32_t *pixels, uint64_t max_pixels, unsigned *width,
                         unsigned *height)
{
    pthread_mutex_lock(&d->lock);
    uint32_t reg[NREGS];
    memcpy(reg, d->reg, sizeof reg);
    bool run = running(d);
    pthread_mutex_unlock(&d->lock);
    if (!run) {
        scanout_cache_invalidate(&d->shown);
        return -1;
    }
    /* the interrupt status bits change every frame and say nothing about the picture */
    reg[LCDIF_REG_CTRL1 / 0x10] &= ~CTRL1_NOT_PICTURE;
    reg[LCDIF_REG_BM_ERROR_STAT / 0x10] = 0;
    Scan s = scan_of(reg);
    size_t line = (size_t)s.w * s.bpp;
    int r = scanout_cache_update(&d->shown, d->bus, reg, NREGS, s.base, line, line,
                                 dma_ok(&s, d->bus) ? s.h : 0);
    if (r <= 0)
        return r ? (lcdif_render(d, pixels, max_pixels, width, height) ? 1 : -1) : 0;
    bool shown = lcdif_render(d, pixels, max_pixels, width, height);
    scanout_cache_converted(&d->shown, reg, NREGS, shown);
    return shown ? 1 : -1;
}

/* ---- checkpoint ---------------------------------------------------------------------------- */

void lcdif_ckpt_save(Lcdif *d, CkptWriter *w)
{
    pthread_mutex_lock(&d->lock);
    ckpt_begin(w, "lcdif", 0, LCDIF_CKPT_VERSION);
    ckpt_u32s(w, "reg", d->reg, NREGS);
    ckpt_u64(w, "frames", d->frames);
    ckpt_end(w);
    pthread_mutex_unlock(&d->lock);
}

bool lcdif_ckpt_load(Lcdif *d, CkptReader *r)
{
    CkptSection *s = ckpt_section(r, "lcdif", 0, LCDIF_CKPT_VERSION);
    uint32_t reg[NREGS], reset[NREGS];
    uint64_t frames = 0;
    if (!s || !ckpt_get_u32s(s, "reg", reg, NREGS) || !ckpt_get_u64(s, "frames", &frames, UINT64_MAX))
        return false;
    reset_values(reset);
    for (unsigned i = 0; i < NREGS; i++)
        if (!writable(i) && i * 0x10 != LCDIF_REG_BM_ERROR_STAT && reg[i] != reset[i])
            return ckpt_fail(s, "field 'reg': register %#x is %#x, read-only at %#x", i * 0x10, reg[i], reset[i]);
    uint32_t ctrl = reg[LCDIF_REG_CTRL / 0x10];
    if ((ctrl & LCDIF_CTRL_RUN) && !(ctrl & LCDIF_CTRL_DOTCLK_MODE))
        return ckpt_fail(s, "field 'reg': CTRL %#x runs outside DOTCLK mode", ctrl);
    pthread_mutex_lock(&d->lock);
    memcpy(d->reg, reg, sizeof reg);
    d->frames = frames;
    d->generation++;
    d->dma_error_logged = false;
    d->next_frame_ns = 0;
    arm_timer(d);
    d->irq_out = !irq_level(d); /* re-drive the line whatever the GIC holds */
    update_irq(d);
    pthread_mutex_unlock(&d->lock);
    return true;
}
