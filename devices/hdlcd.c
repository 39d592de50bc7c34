/* Arm HDLCD display controller (see hdlcd.h). */
#include "hdlcd.h"
#include "scanout_cache.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hosttimer.h"
#include "../emu/checkpoint/ckpt.h"

#define NREGS (0x250 / 4)

struct Hdlcd {
    pthread_mutex_t lock;
    Bus *bus;
    Gic *gic;
    unsigned intid;
    uint64_t pixel_clock_hz;
    HostTimer *vsync;
    uint32_t reg[NREGS];
    uint64_t generation, frames;
    uint64_t next_frame_ns;
    bool irq_out;
    bool dma_error_logged; /* one log line per bad programming, not one per frame */
    /* hdlcd_render_changed: the framebuffer bytes and registers of the last frame it converted */
    ScanoutCache shown;
};

/* Registers the guest can write (the rest read as zero / are read-only). */
static bool writable(uint64_t off)
{
    switch (off) {
    case HDLCD_REG_INT_RAWSTAT: case HDLCD_REG_INT_MASK: case HDLCD_REG_FB_BASE:
    case HDLCD_REG_FB_LINE_LENGTH: case HDLCD_REG_FB_LINE_COUNT: case HDLCD_REG_FB_LINE_PITCH:
    case HDLCD_REG_BUS_OPTIONS: case HDLCD_REG_V_SYNC: case HDLCD_REG_V_BACK_PORCH:
    case HDLCD_REG_V_DATA: case HDLCD_REG_V_FRONT_PORCH: case HDLCD_REG_H_SYNC:
    case HDLCD_REG_H_BACK_PORCH: case HDLCD_REG_H_DATA: case HDLCD_REG_H_FRONT_PORCH:
    case HDLCD_REG_POLARITIES: case HDLCD_REG_COMMAND: case HDLCD_REG_PIXEL_FORMAT:
    case HDLCD_REG_RED_SELECT: case HDLCD_REG_GREEN_SELECT: case HDLCD_REG_BLUE_SELECT:
        return true;
    default:
        return false;
    }
}

/* Field widths of the timing and framebuffer registers (12 bits: up to 4096 pixels/lines). */
static uint32_t field(uint64_t off, uint32_t v)
{
    switch (off) {
    case HDLCD_REG_INT_RAWSTAT: case HDLCD_REG_INT_MASK: return v & 0xF;
    case HDLCD_REG_FB_LINE_COUNT: case HDLCD_REG_V_SYNC: case HDLCD_REG_V_BACK_PORCH:
    case HDLCD_REG_V_DATA: case HDLCD_REG_V_FRONT_PORCH: case HDLCD_REG_H_SYNC:
    case HDLCD_REG_H_BACK_PORCH: case HDLCD_REG_H_DATA: case HDLCD_REG_H_FRONT_PORCH:
        return v & 0xFFF;
    case HDLCD_REG_COMMAND: return v & 1;
    case HDLCD_REG_POLARITIES: return v & 0x1F;
    case HDLCD_REG_PIXEL_FORMAT: return v & 0x80000018u;
    case HDLCD_REG_RED_SELECT: case HDLCD_REG_GREEN_SELECT: case HDLCD_REG_BLUE_SELECT:
        return v & 0x00FF0F1F;
    default: return v;
    }
}

#define R(d, name) ((d)->reg[HDLCD_REG_##name / 4])

static bool irq_level(const Hdlcd *d)
{
    return (R(d, INT_RAWSTAT) & R(d, INT_MASK)) != 0;
}

static void update_irq(Hdlcd *d)
{
    bool level = irq_level(d);
    if (level != d->irq_out) {
        d->irq_out = level;
        if (d->gic)
            gic_set_spi(d->gic, d->intid, level);
    }
}

static uint64_t frame_ns(const Hdlcd *d)
{
    uint64_t htotal = (uint64_t)R(d, H_SYNC) + R(d, H_BACK_PORCH) + R(d, H_DATA) + R(d, H_FRONT_PORCH) + 4;
    uint64_t vtotal = (uint64_t)R(d, V_SYNC) + R(d, V_BACK_PORCH) + R(d, V_DATA) + R(d, V_FRONT_PORCH) + 4;
    uint64_t ns = htotal * vtotal * 1000000000ull / (d->pixel_clock_hz ? d->pixel_clock_hz : 1);
    /* a pixel clock too fast or slow for the mode would not sync a monitor: keep the host
     * timer between 1000 and 1 frames per second */
    return ns < 1000000 ? 1000000 : ns > 1000000000ull ? 1000000000ull : ns;
}

static void arm_timer(Hdlcd *d)
{
    if (!(R(d, COMMAND) & 1)) {
        ht_timer_del(d->vsync);
        return;
    }
    uint64_t now = ht_now_ns();
    if (d->next_frame_ns <= now || d->next_frame_ns > now + frame_ns(d))
        d->next_frame_ns = now + frame_ns(d);
    ht_timer_mod(d->vsync, d->next_frame_ns);
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

/* The memory the controller reads each frame: LINE_COUNT + 1 lines of LINE_LENGTH bytes. */
static bool dma_ok(const Hdlcd *d, Bus *bus)
{
    uint64_t lines = (uint64_t)R(d, FB_LINE_COUNT) + 1, len = R(d, FB_LINE_LENGTH);
    uint64_t span = (lines - 1) * R(d, FB_LINE_PITCH) + len;
    return len > 0 && len <= HDLCD_MAX_DIM * 4 && in_ram(bus, R(d, FB_BASE), span);
}

static void end_frame_locked(Hdlcd *d)
{
    if (!(R(d, COMMAND) & 1))
        return;
    d->frames++;
    uint32_t raise = HDLCD_INT_VSYNC;
    if (dma_ok(d, d->bus)) {
        raise |= HDLCD_INT_DMA_END;
    } else {
        raise |= HDLCD_INT_BUS_ERROR | HDLCD_INT_UNDERRUN;
        if (!d->dma_error_logged) {
            d->dma_error_logged = true;
            fprintf(stderr, "malibu: hdlcd: framebuffer 0x%08x (%u lines of %u bytes, pitch %u) is "
                    "not in RAM: bus error, screen shows the default colour\n", R(d, FB_BASE),
                    R(d, FB_LINE_COUNT) + 1, R(d, FB_LINE_LENGTH), R(d, FB_LINE_PITCH));
        }
    }
    R(d, INT_RAWSTAT) |= raise;
    update_irq(d);
}

void hdlcd_end_frame(Hdlcd *d)
{
    pthread_mutex_lock(&d->lock);
    end_frame_locked(d);
    pthread_mutex_unlock(&d->lock);
}

static void vsync_fired(void *opaque)
{
    Hdlcd *d = opaque;
    pthread_mutex_lock(&d->lock);
    if ((R(d, COMMAND) & 1) && ht_now_ns() >= d->next_frame_ns) {
        end_frame_locked(d);
        d->next_frame_ns += frame_ns(d);
    }
    arm_timer(d);
    pthread_mutex_unlock(&d->lock);
}

static void reset_locked(Hdlcd *d)
{
    memset(d->reg, 0, sizeof d->reg);
    R(d, VERSION) = HDLCD_VERSION_VALUE;
    d->generation++;
    d->dma_error_logged = false;
    ht_timer_del(d->vsync);
    update_irq(d);
}

Hdlcd *hdlcd_new(Bus *bus, Gic *gic, unsigned intid, uint64_t pixel_clock_hz)
{
    Hdlcd *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    pthread_mutex_init(&d->lock, NULL);
    d->bus = bus;
    d->gic = gic;
    d->intid = intid;
    d->pixel_clock_hz = pixel_clock_hz;
    d->vsync = ht_timer_new(vsync_fired, d);
    if (!d->vsync) {
        free(d);
        return NULL;
    }
    reset_locked(d);
    return d;
}

void hdlcd_free(Hdlcd *d)
{
    if (d) {
        scanout_cache_free(&d->shown);
        ht_timer_free(d->vsync);
        pthread_mutex_destroy(&d->lock);
        free(d);
    }
}

void hdlcd_reset(Hdlcd *d)
{
    pthread_mutex_lock(&d->lock);
    reset_locked(d);
    pthread_mutex_unlock(&d->lock);
}

static uint64_t hdlcd_read(void *opaque, uint64_t off, unsigned size)
{
    Hdlcd *d = opaque;
    if (size != 4 || off >= NREGS * 4)
        return 0;
    pthread_mutex_lock(&d->lock);
    uint32_t v = off == HDLCD_REG_INT_STATUS ? R(d, INT_RAWSTAT) & R(d, INT_MASK)
               : off == HDLCD_REG_INT_CLEAR ? 0 : d->reg[off / 4];
    pthread_mutex_unlock(&d->lock);
    return v;
}

static void hdlcd_write(void *opaque, uint64_t off, uint64_t value, unsigned size)
{
    Hdlcd *d = opaque;
    if (size != 4 || off >= NREGS * 4)
        return;
    uint32_t v = (uint32_t)value;
    pthread_mutex_lock(&d->lock);
    if (off == HDLCD_REG_INT_CLEAR) {
        R(d, INT_RAWSTAT) &= ~v;
    } else if (writable(off)) {
        uint32_t old = d->reg[off / 4];
        d->reg[off / 4] = field(off, v);
        if (off != HDLCD_REG_INT_RAWSTAT && off != HDLCD_REG_INT_MASK && old != d->reg[off / 4]) {
            d->generation++;
            d->dma_error_logged = false;
        }
        if (off == HDLCD_REG_COMMAND || (off >= HDLCD_REG_V_SYNC && off <= HDLCD_REG_H_FRONT_PORCH))
            arm_timer(d);
    }
    update_irq(d);
    pthread_mutex_unlock(&d->lock);
}

const MmioOps hdlcd_ops = { "hdlcd", hdlcd_read, hdlcd_write };

uint64_t hdlcd_generation(Hdlcd *d)
{
    pthread_mutex_lock(&d->lock);
    uint64_t g = d->generation;
    pthread_mutex_unlock(&d->lock);
    return g;
}

uint64_t hdlcd_frames(Hdlcd *d)
{
    pthread_mutex_lock(&d->lock);
    uint64_t f = d->frames;
    pthread_mutex_unlock(&d->lock);
    return f;
}

uint32_t hdlcd_refresh_mhz(Hdlcd *d)
{
    pthread_mutex_lock(&d->lock);
    uint32_t r = (R(d, COMMAND) & 1) ? (uint32_t)(1000000000000ull / frame_ns(d)) : 0;
    pthread_mutex_unlock(&d->lock);
    return r;
}

/* One colour component from a pixel: its SELECT register's bits, scaled to 8 bits (a wider
 * component keeps its top 8 bits, a narrower one repeats its bits, as a DAC would). */
static uint32_t component(uint32_t sel, uint32_t pixel)
{
    unsigned bits = (sel >> 8) & 0xF, lo = sel & 0x1F;
    if (bits == 0)
        return (sel >> 16) & 0xFF;
    uint32_t v = (uint32_t)(((uint64_t)pixel >> lo) & ((1u << bits) - 1));
    if (bits >= 8)
        return (v >> (bits - 8)) & 0xFF;
    uint32_t out = 0;
    for (int shift = 8 - (int)bits; shift > -(int)bits; shift -= (int)bits)
        out |= shift >= 0 ? v << shift : v >> -shift;
    return out & 0xFF;
}

/* What a frame reads: LINE_COUNT + 1 lines of LINE_LENGTH bytes (when the DMA works). */
static size_t raw_bytes(const uint32_t *reg, bool ok)
{
    return ok ? (size_t)(reg[HDLCD_REG_FB_LINE_COUNT / 4] + 1) * reg[HDLCD_REG_FB_LINE_LENGTH / 4] : 0;
}

int hdlcd_render_changed(Hdlcd *d, uint32_t *pixels, uint64_t max_pixels, unsigned *width,
                         unsigned *height)
{
    pthread_mutex_lock(&d->lock);
    uint32_t reg[NREGS];
    memcpy(reg, d->reg, sizeof reg);
    bool ok = dma_ok(d, d->bus);
    pthread_mutex_unlock(&d->lock);
    if (!(reg[HDLCD_REG_COMMAND / 4] & 1)) {
        scanout_cache_invalidate(&d->shown);
        return -1;
    }
    /* the vsync timer sets interrupt bits every frame; they say nothing about the picture */
    reg[HDLCD_REG_INT_RAWSTAT / 4] = reg[HDLCD_REG_INT_CLEAR / 4] = 0;
    reg[HDLCD_REG_INT_MASK / 4] = reg[HDLCD_REG_INT_STATUS / 4] = 0;
    size_t line = reg[HDLCD_REG_FB_LINE_LENGTH / 4];
    int r = scanout_cache_update(&d->shown, d->bus, reg, NREGS, reg[HDLCD_REG_FB_BASE / 4],
                                 reg[HDLCD_REG_FB_LINE_PITCH / 4], line, line ? raw_bytes(reg, ok) / line : 0);
    if (r <= 0)
        return r ? (hdlcd_render(d, pixels, max_pixels, width, height) ? 1 : -1) : 0;
    bool shown = hdlcd_render(d, pixels, max_pixels, width, height);
    scanout_cache_converted(&d->shown, reg, NREGS, shown);
    return shown ? 1 : -1;
}

bool hdlcd_render(Hdlcd *d, uint32_t *pixels, uint64_t max_pixels, unsigned *width, unsigned *height)
{
    pthread_mutex_lock(&d->lock);
    uint32_t reg[NREGS];
    memcpy(reg, d->reg, sizeof reg);
    bool ok = dma_ok(d, d->bus);
    pthread_mutex_unlock(&d->lock);
    if (!(reg[HDLCD_REG_COMMAND / 4] & 1))
        return false;
    unsigned w = reg[HDLCD_REG_H_DATA / 4] + 1, h = reg[HDLCD_REG_V_DATA / 4] + 1;
    if ((uint64_t)w * h > max_pixels)
        return false;
    *width = w;
    *height = h;
    uint32_t fmt = reg[HDLCD_REG_PIXEL_FORMAT / 4];
    unsigned bpp = ((fmt >> 3) & 3) + 1;
    bool big = fmt >> 31;
    uint32_t rs = reg[HDLCD_REG_RED_SELECT / 4], gs = reg[HDLCD_REG_GREEN_SELECT / 4],
             bs = reg[HDLCD_REG_BLUE_SELECT / 4];
    uint32_t dflt = (rs >> 16 & 0xFF) << 16 | (gs >> 16 & 0xFF) << 8 | (bs >> 16 & 0xFF);
    unsigned lines = reg[HDLCD_REG_FB_LINE_COUNT / 4] + 1, len = reg[HDLCD_REG_FB_LINE_LENGTH / 4];
    unsigned fb_w = len / bpp;
    /* XRGB8888 as Linux sets it: the pixel word is the output colour */
    bool xrgb = bpp == 4 && !big && rs == (8 << 8 | 16) && gs == (8 << 8 | 8) && bs == (8 << 8);
    static _Thread_local uint8_t line[HDLCD_MAX_DIM * 4];
    for (unsigned y = 0; y < h; y++) {
        uint32_t *out = pixels + (uint64_t)y * w;
        unsigned x = 0;
        /* outside the framebuffer (or when its DMA fails): the default colour */
        if (ok && y < lines &&
            bus_dma_read(d->bus, reg[HDLCD_REG_FB_BASE / 4] + (uint64_t)y * reg[HDLCD_REG_FB_LINE_PITCH / 4],
                         line, len) == BUS_OK) {
            for (; xrgb && x < w && x < fb_w; x++) {
                uint32_t px;
                memcpy(&px, line + 4 * x, 4);
                out[x] = px & 0xFFFFFF;
            }
            for (; x < w && x < fb_w; x++) {
                const uint8_t *p = line + x * bpp;
                uint32_t px = 0;
                for (unsigned i = 0; i < bpp; i++)
                    px |= (uint32_t)p[big ? bpp - 1 - i : i] << (8 * i);
                out[x] = component(rs, px) << 16 | component(gs, px) << 8 | component(bs, px);
            }
        }
        for (; x < w; x++)
            out[x] = dflt;
    }
    return true;
}

/* ---- checkpoint ---------------------------------------------------------------------------- */

void hdlcd_ckpt_save(Hdlcd *d, CkptWriter *w)
{
    pthread_mutex_lock(&d->lock);
    ckpt_begin(w, "hdlcd", 0, HDLCD_CKPT_VERSION);
    ckpt_u32s(w, "reg", d->reg, NREGS);
    ckpt_u64(w, "frames", d->frames);
    ckpt_end(w);
    pthread_mutex_unlock(&d->lock);
}

bool hdlcd_ckpt_load(Hdlcd *d, CkptReader *r)
{
    CkptSection *s = ckpt_section(r, "hdlcd", 0, HDLCD_CKPT_VERSION);
    uint32_t reg[NREGS];
    uint64_t frames = 0;
    if (!s || !ckpt_get_u32s(s, "reg", reg, NREGS) || !ckpt_get_u64(s, "frames", &frames, UINT64_MAX))
        return false;
    for (unsigned i = 0; i < NREGS; i++) {
        uint64_t off = 4ull * i;
        uint32_t want = writable(off) ? field(off, reg[i]) : off == HDLCD_REG_VERSION ? HDLCD_VERSION_VALUE : 0;
        if (reg[i] != want)
            return ckpt_fail(s, "field 'reg': register %#llx is %#x, a guest cannot make it other than %#x",
                             (unsigned long long)off, reg[i], want);
    }
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
