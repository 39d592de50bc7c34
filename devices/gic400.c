/* GIC-400 (GICv2) distributor and CPU interfaces (see gic400.h). */
#include "gic400.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define PRIO_MASK 0xF8u /* 32 priority levels */
#define IDLE_PRIO 0xFFu

/* GICD register offsets */
enum {
    GICD_CTLR = 0x000, GICD_TYPER = 0x004, GICD_IIDR = 0x008,
    GICD_IGROUPR = 0x080, GICD_ISENABLER = 0x100, GICD_ICENABLER = 0x180,
    GICD_ISPENDR = 0x200, GICD_ICPENDR = 0x280, GICD_ISACTIVER = 0x300, GICD_ICACTIVER = 0x380,
    GICD_IPRIORITYR = 0x400, GICD_ITARGETSR = 0x800, GICD_ICFGR = 0xC00,
    GICD_SGIR = 0xF00, GICD_CPENDSGIR = 0xF10, GICD_SPENDSGIR = 0xF20, GICD_IDREGS = 0xFD0,
};
/* GICC register offsets */
enum {
    GICC_CTLR = 0x00, GICC_PMR = 0x04, GICC_BPR = 0x08, GICC_IAR = 0x0C, GICC_EOIR = 0x10,
    GICC_RPR = 0x14, GICC_HPPIR = 0x18, GICC_ABPR = 0x1C, GICC_AIAR = 0x20, GICC_AEOIR = 0x24,
    GICC_AHPPIR = 0x28, GICC_APR0 = 0xD0, GICC_NSAPR0 = 0xE0, GICC_IIDR = 0xFC, GICC_DIR = 0x1000,
};
/* GICC_CTLR bits (no Security Extensions) */
enum {
    CTLR_GRP0 = 1u << 0, CTLR_GRP1 = 1u << 1, CTLR_ACKCTL = 1u << 2, CTLR_FIQEN = 1u << 3,
    CTLR_CBPR = 1u << 4, CTLR_EOIMODE = 1u << 9, CTLR_MASK = 0x3FFu,
};

#define GICD_IIDR_VALUE 0x0200143Bu /* ProductID 0x02 (GIC-400), revision 1, implementer Arm */
#define GICC_IIDR_VALUE 0x0202143Bu /* ProductID 0x020, architecture v2, revision 1, Arm */

typedef struct IrqState {
    uint8_t enabled, pending, active, level, group, prio, edge;
} IrqState;

typedef struct CpuIf {
    uint32_t ctlr, pmr, bpr, abpr;
    uint32_t apr; /* active priorities: bit n = group priority n<<3 is active */
    bool irq_out, fiq_out;
} CpuIf;

struct Gic {
    pthread_mutex_t lock;
    unsigned ncpu;
    GicOutputFn out;
    void *opaque;
    uint32_t dctlr;
    IrqState priv[GIC_MAX_CPUS][32]; /* banked SGIs and PPIs */
    IrqState shared[GIC_NUM_IRQS];   /* SPIs (indices 32..) */
    uint8_t target[GIC_NUM_IRQS];
    uint8_t sgi_src[GIC_MAX_CPUS][16]; /* pending SGIs: bit per source CPU */
    CpuIf cpu[GIC_MAX_CPUS];
    atomic_bool irq_line[GIC_MAX_CPUS], fiq_line[GIC_MAX_CPUS];
};

static __thread unsigned cur_cpu;

void gic_set_current_cpu(unsigned cpu)
{
    cur_cpu = cpu;
}

unsigned gic_current_cpu(void)
{
    return cur_cpu;
}

static IrqState *irq_state(Gic *g, unsigned cpu, unsigned id)
{
    return id < 32 ? &g->priv[cpu][id] : &g->shared[id];
}

static bool is_pending(Gic *g, unsigned cpu, unsigned id)
{
    if (id < 16)
        return g->sgi_src[cpu][id] != 0;
    const IrqState *s = irq_state(g, cpu, id);
    return s->pending || (!s->edge && s->level);
}

static uint32_t group_prio_mask(const CpuIf *c, unsigned group)
{
    unsigned bpr = (group == 1 && !(c->ctlr & CTLR_CBPR)) ? (c->abpr ? c->abpr - 1 : 0) : c->bpr;
    return (0xFFu << (bpr + 1)) & PRIO_MASK;
}

static uint32_t running_prio(const CpuIf *c)
{
    return c->apr ? (uint32_t)__builtin_ctz(c->apr) << 3 : IDLE_PRIO;
}

/* Highest-priority pending, enabled, inactive interrupt that the distributor forwards to cpu;
 * GIC_SPURIOUS if none. */
static unsigned best_pending(Gic *g, unsigned cpu)
{
    unsigned best = GIC_SPURIOUS, best_prio = 0x100;
    for (unsigned id = 0; id < GIC_NUM_IRQS; id++) {
        const IrqState *s = irq_state(g, cpu, id);
        if (!s->enabled || s->active || s->prio >= best_prio || !is_pending(g, cpu, id))
            continue;
        if (!(g->dctlr & (1u << s->group)))
            continue;
        if (id >= 32 && !(g->target[id] & (1u << cpu)))
            continue;
        best = id;
        best_prio = s->prio;
    }
    return best;
}

/* Can interrupt id be signalled to cpu now (CPU interface enabled for its group, above the
 * priority mask and the running priority)? */
static bool can_signal(Gic *g, unsigned cpu, unsigned id)
{
    if (id == GIC_SPURIOUS)
        return false;
    const CpuIf *c = &g->cpu[cpu];
    const IrqState *s = irq_state(g, cpu, id);
    if (!(c->ctlr & (s->group ? CTLR_GRP1 : CTLR_GRP0)))
        return false;
    return s->prio < c->pmr && (s->prio & group_prio_mask(c, s->group)) < running_prio(c);
}

static void update_cpu(Gic *g, unsigned cpu)
{
    CpuIf *c = &g->cpu[cpu];
    unsigned id = best_pending(g, cpu);
    bool sig = can_signal(g, cpu, id);
    bool fiq = sig && irq_state(g, cpu, id)->group == 0 && (c->ctlr & CTLR_FIQEN);
    bool irq = sig && !fiq;
    if (irq != c->irq_out || fiq != c->fiq_out) {
        c->irq_out = irq;
        c->fiq_out = fiq;
        atomic_store(&g->irq_line[cpu], irq);
        atomic_store(&g->fiq_line[cpu], fiq);
        if (g->out)
            g->out(g->opaque, cpu, irq, fiq);
    }
}

static void update(Gic *g)
{
    for (unsigned cpu = 0; cpu < g->ncpu; cpu++)
        update_cpu(g, cpu);
}

static void reset_locked(Gic *g)
{
    g->dctlr = 0;
    for (unsigned cpu = 0; cpu < GIC_MAX_CPUS; cpu++) {
        for (unsigned id = 0; id < 32; id++)
            g->priv[cpu][id] = (IrqState){ .edge = id < 16 };
        for (unsigned id = 0; id < 16; id++)
            g->sgi_src[cpu][id] = 0;
        g->cpu[cpu].ctlr = 0;
        g->cpu[cpu].pmr = 0;
        g->cpu[cpu].bpr = 2;
        g->cpu[cpu].abpr = 3;
        g->cpu[cpu].apr = 0;
    }
    for (unsigned id = 0; id < GIC_NUM_IRQS; id++) {
        uint8_t level = g->shared[id].level; /* input lines keep their state */
        g->shared[id] = (IrqState){ .level = level };
        g->target[id] = 0;
    }
    update(g);
}

Gic *gic_new(unsigned ncpu, GicOutputFn out, void *opaque)
{
    if (ncpu == 0 || ncpu > GIC_MAX_CPUS)
        return NULL;
    Gic *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    pthread_mutex_init(&g->lock, NULL);
    g->ncpu = ncpu;
    g->out = out;
    g->opaque = opaque;
    reset_locked(g);
    return g;
}

void gic_free(Gic *g)
{
    if (g) {
        pthread_mutex_destroy(&g->lock);
        free(g);
    }
}

void gic_reset(Gic *g)
{
    pthread_mutex_lock(&g->lock);
    reset_locked(g);
    pthread_mutex_unlock(&g->lock);
}

void gic_set_irq(Gic *g, unsigned irq, unsigned cpu, bool level)
{
    if (irq < 16 || irq >= GIC_NUM_IRQS || (irq < 32 && cpu >= g->ncpu))
        return;
    pthread_mutex_lock(&g->lock);
    IrqState *s = irq_state(g, irq < 32 ? cpu : 0, irq);
    if (s->edge && level && !s->level)
        s->pending = 1;
    s->level = level;
    update(g);
    pthread_mutex_unlock(&g->lock);
}

bool gic_irq_line(Gic *g, unsigned cpu)
{
    return cpu < GIC_MAX_CPUS && atomic_load(&g->irq_line[cpu]);
}

bool gic_fiq_line(Gic *g, unsigned cpu)
{
    return cpu < GIC_MAX_CPUS && atomic_load(&g->fiq_line[cpu]);
}

/* ---- distributor ------------------------------------------------------------------------- */

static uint8_t dist_read_byte(Gic *g, unsigned cpu, unsigned off)
{
    if (off >= GICD_IPRIORITYR && off < GICD_IPRIORITYR + GIC_NUM_IRQS)
        return irq_state(g, cpu, off - GICD_IPRIORITYR)->prio;
    if (off >= GICD_ITARGETSR && off < GICD_ITARGETSR + GIC_NUM_IRQS) {
        unsigned id = off - GICD_ITARGETSR;
        return id < 32 ? (uint8_t)(1u << cpu) : g->target[id];
    }
    if (off >= GICD_CPENDSGIR && off < GICD_SPENDSGIR + 16)
        return g->sgi_src[cpu][(off - GICD_CPENDSGIR) & 15];
    static const uint8_t ids[12] = { 0x04, 0, 0, 0, 0x90, 0xB4, 0x2B, 0x00, 0x0D, 0xF0, 0x05, 0xB1 };
    if (off >= GICD_IDREGS && off < 0x1000 && (off & 3) == 0)
        return ids[(off - GICD_IDREGS) / 4];
    return 0;
}

static void dist_write_byte(Gic *g, unsigned cpu, unsigned off, uint8_t v)
{
    if (off >= GICD_IPRIORITYR && off < GICD_IPRIORITYR + GIC_NUM_IRQS) {
        irq_state(g, cpu, off - GICD_IPRIORITYR)->prio = v & PRIO_MASK;
    } else if (off >= GICD_ITARGETSR + 32 && off < GICD_ITARGETSR + GIC_NUM_IRQS) {
        g->target[off - GICD_ITARGETSR] = v & (uint8_t)((1u << g->ncpu) - 1);
    } else if (off >= GICD_CPENDSGIR && off < GICD_CPENDSGIR + 16) {
        g->sgi_src[cpu][off - GICD_CPENDSGIR] &= (uint8_t)~v;
    } else if (off >= GICD_SPENDSGIR && off < GICD_SPENDSGIR + 16) {
        g->sgi_src[cpu][off - GICD_SPENDSGIR] |= v & (uint8_t)((1u << g->ncpu) - 1);
    }
}

static bool byte_accessible(unsigned off)
{
    return (off >= GICD_IPRIORITYR && off < GICD_IPRIORITYR + 0x400) ||
           (off >= GICD_ITARGETSR && off < GICD_ITARGETSR + 0x400) ||
           (off >= GICD_CPENDSGIR && off < GICD_SPENDSGIR + 16);
}

/* Bit-per-interrupt registers: value of register n (interrupts 32n..32n+31) for cpu. */
static uint32_t read_bits(Gic *g, unsigned cpu, unsigned base, unsigned n)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < 32; i++) {
        unsigned id = n * 32 + i;
        const IrqState *s = irq_state(g, cpu, id);
        bool bit;
        switch (base) {
        case GICD_IGROUPR: bit = s->group; break;
        case GICD_ISENABLER: case GICD_ICENABLER: bit = s->enabled; break;
        case GICD_ISPENDR: case GICD_ICPENDR: bit = is_pending(g, cpu, id); break;
        default: bit = s->active; break;
        }
        v |= (uint32_t)bit << i;
    }
    return v;
}

static void write_bits(Gic *g, unsigned cpu, unsigned base, unsigned n, uint32_t v)
{
    for (unsigned i = 0; i < 32; i++) {
        unsigned id = n * 32 + i;
        IrqState *s = irq_state(g, cpu, id);
        bool bit = (v >> i) & 1;
        switch (base) {
        case GICD_IGROUPR: s->group = bit; break;
        case GICD_ISENABLER: if (bit) s->enabled = 1; break;
        case GICD_ICENABLER: if (bit) s->enabled = 0; break;
        case GICD_ISPENDR: if (bit && id >= 16) s->pending = 1; break;
        case GICD_ICPENDR: if (bit && id >= 16) s->pending = 0; break;
        case GICD_ISACTIVER: if (bit) s->active = 1; break;
        case GICD_ICACTIVER: if (bit) s->active = 0; break;
        }
    }
}

static uint32_t dist_read32(Gic *g, unsigned cpu, unsigned off)
{
    if (off == GICD_CTLR)
        return g->dctlr;
    if (off == GICD_TYPER)
        return ((g->ncpu - 1) << 5) | (GIC_NUM_IRQS / 32 - 1);
    if (off == GICD_IIDR)
        return GICD_IIDR_VALUE;
    if (off >= GICD_IGROUPR && off < GICD_IPRIORITYR) {
        unsigned base = off & ~0x7Fu, n = (off & 0x7F) / 4;
        return n < GIC_NUM_IRQS / 32 ? read_bits(g, cpu, base, n) : 0;
    }
    if (off >= GICD_ICFGR && off < GICD_ICFGR + GIC_NUM_IRQS / 4) {
        unsigned first = (off - GICD_ICFGR) * 4;
        uint32_t v = 0;
        for (unsigned i = 0; i < 16; i++)
            v |= (uint32_t)irq_state(g, cpu, first + i)->edge << (2 * i + 1);
        return v;
    }
    uint32_t v = 0;
    for (unsigned i = 0; i < 4; i++)
        v |= (uint32_t)dist_read_byte(g, cpu, off + i) << (8 * i);
    return v;
}

static void send_sgi(Gic *g, unsigned cpu, uint32_t v)
{
    unsigned filter = (v >> 24) & 3, id = v & 15;
    uint8_t targets = (v >> 16) & 0xFF;
    if (filter == 1)
        targets = (uint8_t)~(1u << cpu);
    else if (filter == 2)
        targets = (uint8_t)(1u << cpu);
    else if (filter == 3)
        return;
    for (unsigned t = 0; t < g->ncpu; t++)
        if (targets & (1u << t))
            g->sgi_src[t][id] |= (uint8_t)(1u << cpu);
}

static void dist_write32(Gic *g, unsigned cpu, unsigned off, uint32_t v)
{
    if (off == GICD_CTLR) {
        g->dctlr = v & 3;
    } else if (off >= GICD_IGROUPR && off < GICD_IPRIORITYR) {
        unsigned base = off & ~0x7Fu, n = (off & 0x7F) / 4;
        if (n < GIC_NUM_IRQS / 32)
            write_bits(g, cpu, base, n, v);
    } else if (off >= GICD_ICFGR && off < GICD_ICFGR + GIC_NUM_IRQS / 4) {
        unsigned first = (off - GICD_ICFGR) * 4;
        if (first >= 16) /* SGI configuration is fixed (edge) */
            for (unsigned i = 0; i < 16; i++)
                irq_state(g, cpu, first + i)->edge = (v >> (2 * i + 1)) & 1;
    } else if (off == GICD_SGIR) {
        send_sgi(g, cpu, v);
    } else if (byte_accessible(off)) {
        for (unsigned i = 0; i < 4; i++)
            dist_write_byte(g, cpu, off + i, (uint8_t)(v >> (8 * i)));
    }
}

uint32_t gic_dist_read(Gic *g, unsigned cpu, uint64_t off, unsigned size)
{
    if (cpu >= g->ncpu || off >= 0x1000)
        return 0;
    uint32_t v = 0;
    pthread_mutex_lock(&g->lock);
    if (size == 4 && !(off & 3))
        v = dist_read32(g, cpu, (unsigned)off);
    else if (size == 1 && byte_accessible((unsigned)off))
        v = dist_read_byte(g, cpu, (unsigned)off);
    pthread_mutex_unlock(&g->lock);
    return v;
}

void gic_dist_write(Gic *g, unsigned cpu, uint64_t off, uint32_t val, unsigned size)
{
    if (cpu >= g->ncpu || off >= 0x1000)
        return;
    pthread_mutex_lock(&g->lock);
    if (size == 4 && !(off & 3))
        dist_write32(g, cpu, (unsigned)off, val);
    else if (size == 1 && byte_accessible((unsigned)off))
        dist_write_byte(g, cpu, (unsigned)off, (uint8_t)val);
    update(g);
    pthread_mutex_unlock(&g->lock);
}

/* ---- CPU interface ----------------------------------------------------------------------- */

static uint32_t acknowledge(Gic *g, unsigned cpu)
{
    CpuIf *c = &g->cpu[cpu];
    unsigned id = best_pending(g, cpu);
    if (!can_signal(g, cpu, id))
        return GIC_SPURIOUS;
    IrqState *s = irq_state(g, cpu, id);
    if (s->group == 1 && (c->ctlr & CTLR_GRP0) && !(c->ctlr & CTLR_ACKCTL))
        return 1022; /* group 1 interrupt, acknowledged through GICC_AIAR only */
    uint32_t val = id;
    if (id < 16) {
        unsigned src = (unsigned)__builtin_ctz(g->sgi_src[cpu][id]);
        g->sgi_src[cpu][id] &= (uint8_t)~(1u << src);
        val |= src << 10;
    } else {
        s->pending = 0;
    }
    s->active = 1;
    c->apr |= 1u << ((s->prio & group_prio_mask(c, s->group)) >> 3);
    return val;
}

static void deactivate(Gic *g, unsigned cpu, unsigned id)
{
    if (id < GIC_NUM_IRQS)
        irq_state(g, cpu, id)->active = 0;
}

static uint32_t highest_pending_id(Gic *g, unsigned cpu)
{
    unsigned id = best_pending(g, cpu);
    if (id < 16)
        id |= (unsigned)__builtin_ctz(g->sgi_src[cpu][id]) << 10;
    return id;
}

static uint32_t cpu_read_locked(Gic *g, unsigned cpu, unsigned off)
{
    CpuIf *c = &g->cpu[cpu];
    switch (off) {
    case GICC_CTLR: return c->ctlr;
    case GICC_PMR: return c->pmr;
    case GICC_BPR: return c->bpr;
    case GICC_ABPR: return c->abpr;
    case GICC_IAR: return acknowledge(g, cpu);
    case GICC_RPR: return running_prio(c);
    case GICC_HPPIR: return highest_pending_id(g, cpu);
    case GICC_AIAR: case GICC_AHPPIR: return GIC_SPURIOUS;
    case GICC_APR0: return c->apr;
    case GICC_IIDR: return GICC_IIDR_VALUE;
    default: return 0;
    }
}

static void cpu_write_locked(Gic *g, unsigned cpu, unsigned off, uint32_t v)
{
    CpuIf *c = &g->cpu[cpu];
    switch (off) {
    case GICC_CTLR: c->ctlr = v & CTLR_MASK; break;
    case GICC_PMR: c->pmr = v & PRIO_MASK; break;
    case GICC_BPR: c->bpr = (v & 7) < 2 ? 2 : (v & 7); break;
    case GICC_ABPR: c->abpr = (v & 7) < 3 ? 3 : (v & 7); break;
    case GICC_EOIR:
        if ((v & 0x3FF) >= 1020 || !c->apr)
            break;
        c->apr &= c->apr - 1; /* priority drop: highest active priority */
        if (!(c->ctlr & CTLR_EOIMODE))
            deactivate(g, cpu, v & 0x3FF);
        break;
    case GICC_DIR: deactivate(g, cpu, v & 0x3FF); break;
    case GICC_APR0: c->apr = v; break;
    default: break;
    }
}

uint32_t gic_cpu_read(Gic *g, unsigned cpu, uint64_t off, unsigned size)
{
    if (cpu >= g->ncpu || size != 4 || (off & 3) || off >= 0x2000)
        return 0;
    pthread_mutex_lock(&g->lock);
    uint32_t v = cpu_read_locked(g, cpu, (unsigned)off);
    if (off == GICC_IAR)
        update(g);
    pthread_mutex_unlock(&g->lock);
    return v;
}

void gic_cpu_write(Gic *g, unsigned cpu, uint64_t off, uint32_t val, unsigned size)
{
    if (cpu >= g->ncpu || size != 4 || (off & 3) || off >= 0x2000)
        return;
    pthread_mutex_lock(&g->lock);
    cpu_write_locked(g, cpu, (unsigned)off, val);
    update(g);
    pthread_mutex_unlock(&g->lock);
}

static uint64_t dist_mmio_read(void *opaque, uint64_t off, unsigned size)
{
    return gic_dist_read(opaque, cur_cpu, off, size);
}

static void dist_mmio_write(void *opaque, uint64_t off, uint64_t val, unsigned size)
{
    gic_dist_write(opaque, cur_cpu, off, (uint32_t)val, size);
}

static uint64_t cpu_mmio_read(void *opaque, uint64_t off, unsigned size)
{
    return gic_cpu_read(opaque, cur_cpu, off, size);
}

static void cpu_mmio_write(void *opaque, uint64_t off, uint64_t val, unsigned size)
{
    gic_cpu_write(opaque, cur_cpu, off, (uint32_t)val, size);
}

const MmioOps gic_dist_ops = { "gic-dist", dist_mmio_read, dist_mmio_write };
const MmioOps gic_cpu_ops = { "gic-cpu", cpu_mmio_read, cpu_mmio_write };

/* ---- checkpoint ---------------------------------------------------------------------------- */

/* One attribute of every interrupt, as bytes: the banked SGIs/PPIs of each CPU (ncpu x 32), then
 * the SPIs (IDs 32..255). */
typedef enum { ATTR_ENABLED, ATTR_PENDING, ATTR_ACTIVE, ATTR_LEVEL, ATTR_GROUP, ATTR_PRIO, ATTR_EDGE, ATTR_N } IrqAttr;
static const char *const attr_name[ATTR_N] = { "enabled", "pending", "active", "level", "group", "prio", "edge" };
#define GIC_CKPT_IRQS (GIC_MAX_CPUS * 32 + GIC_NUM_IRQS - 32)

static uint8_t *attr_of(IrqState *s, IrqAttr a)
{
    switch (a) {
    case ATTR_ENABLED: return &s->enabled;
    case ATTR_PENDING: return &s->pending;
    case ATTR_ACTIVE: return &s->active;
    case ATTR_LEVEL: return &s->level;
    case ATTR_GROUP: return &s->group;
    case ATTR_PRIO: return &s->prio;
    default: return &s->edge;
    }
}

/* The i-th saved interrupt: CPU i / 32's banked one, then the SPIs. */
static IrqState *ckpt_irq(Gic *g, size_t i)
{
    return i < g->ncpu * 32u ? &g->priv[i / 32][i % 32] : &g->shared[32 + i - g->ncpu * 32u];
}

void gic_ckpt_save(Gic *g, CkptWriter *w)
{
    pthread_mutex_lock(&g->lock);
    size_t n = g->ncpu * 32u + GIC_NUM_IRQS - 32;
    uint8_t buf[GIC_CKPT_IRQS];
    ckpt_begin(w, "gic", 0, GIC_CKPT_VERSION);
    ckpt_u64(w, "ncpu", g->ncpu);
    ckpt_u64(w, "dctlr", g->dctlr);
    for (IrqAttr a = 0; a < ATTR_N; a++) {
        for (size_t i = 0; i < n; i++)
            buf[i] = *attr_of(ckpt_irq(g, i), a);
        ckpt_bytes(w, attr_name[a], buf, n);
    }
    ckpt_bytes(w, "target", g->target + 32, GIC_NUM_IRQS - 32);
    ckpt_bytes(w, "sgi_src", g->sgi_src, g->ncpu * 16u);
    uint64_t c[GIC_MAX_CPUS];
    static const char *const cif[] = { "ctlr", "pmr", "bpr", "abpr", "apr" };
    for (unsigned f = 0; f < 5; f++) {
        for (unsigned k = 0; k < g->ncpu; k++) {
            const CpuIf *ci = &g->cpu[k];
            c[k] = f == 0 ? ci->ctlr : f == 1 ? ci->pmr : f == 2 ? ci->bpr : f == 3 ? ci->abpr : ci->apr;
        }
        ckpt_u64s(w, cif[f], c, g->ncpu);
    }
    ckpt_end(w);
    pthread_mutex_unlock(&g->lock);
}

/* Every value as the register interface could have left it (the file is hostile). */
static bool check_irqs(Gic *g, CkptSection *s, uint8_t v[ATTR_N][GIC_CKPT_IRQS], size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned id = i < g->ncpu * 32u ? (unsigned)(i % 32) : (unsigned)(32 + i - g->ncpu * 32u);
        for (IrqAttr a = 0; a < ATTR_N; a++) {
            unsigned x = v[a][i];
            bool ok = a == ATTR_PRIO ? (x & ~PRIO_MASK) == 0 : a == ATTR_EDGE && id < 16 ? x == 1 : x <= 1;
            if (a == ATTR_PENDING && id < 16)
                ok = x == 0; /* SGIs pend per source (sgi_src) */
            if (!ok)
                return ckpt_fail(s, "field '%s': interrupt %u%s has %u", attr_name[a], id,
                                 id < 32 ? " (banked)" : "", x);
        }
    }
    return true;
}

bool gic_ckpt_load(Gic *g, CkptReader *r)
{
    CkptSection *s = ckpt_section(r, "gic", 0, GIC_CKPT_VERSION);
    if (!s)
        return false;
    uint64_t ncpu, dctlr;
    ckpt_get_u64(s, "ncpu", &ncpu, GIC_MAX_CPUS);
    ckpt_get_u64(s, "dctlr", &dctlr, 3);
    if (ckpt_ok(r) && ncpu != g->ncpu)
        return ckpt_fail(s, "field 'ncpu': saved with %u CPU interfaces, this GIC has %u", (unsigned)ncpu, g->ncpu);
    size_t n = g->ncpu * 32u + GIC_NUM_IRQS - 32;
    static uint8_t v[ATTR_N][GIC_CKPT_IRQS];
    uint8_t target[GIC_NUM_IRQS - 32], sgi[GIC_MAX_CPUS][16];
    for (IrqAttr a = 0; a < ATTR_N; a++)
        ckpt_get_bytes(s, attr_name[a], v[a], n);
    ckpt_get_bytes(s, "target", target, sizeof target);
    ckpt_get_bytes(s, "sgi_src", sgi, g->ncpu * 16u);
    uint64_t c[5][GIC_MAX_CPUS];
    static const char *const cif[] = { "ctlr", "pmr", "bpr", "abpr", "apr" };
    for (unsigned f = 0; f < 5; f++)
        ckpt_get_u64s(s, cif[f], c[f], g->ncpu);
    if (!ckpt_ok(r) || !check_irqs(g, s, v, n))
        return false;
    uint8_t cpus = (uint8_t)((1u << g->ncpu) - 1);
    for (unsigned i = 0; i < GIC_NUM_IRQS - 32; i++)
        if (target[i] & ~cpus)
            return ckpt_fail(s, "field 'target': interrupt %u targets CPUs 0x%x, only 0x%x exist", i + 32,
                             target[i], cpus);
    for (unsigned k = 0; k < g->ncpu; k++)
        for (unsigned i = 0; i < 16; i++)
            if (sgi[k][i] & ~cpus)
                return ckpt_fail(s, "field 'sgi_src': SGI %u of CPU %u from CPUs 0x%x, only 0x%x exist", i, k,
                                 sgi[k][i], cpus);
    for (unsigned k = 0; k < g->ncpu; k++) {
        if (c[0][k] & ~(uint64_t)CTLR_MASK)
            return ckpt_fail(s, "field 'ctlr': CPU %u has 0x%llx", k, (unsigned long long)c[0][k]);
        if (c[1][k] & ~(uint64_t)PRIO_MASK)
            return ckpt_fail(s, "field 'pmr': CPU %u has 0x%llx", k, (unsigned long long)c[1][k]);
        if (c[2][k] < 2 || c[2][k] > 7)
            return ckpt_fail(s, "field 'bpr': CPU %u has %llu (2..7)", k, (unsigned long long)c[2][k]);
        if (c[3][k] < 3 || c[3][k] > 7)
            return ckpt_fail(s, "field 'abpr': CPU %u has %llu (3..7)", k, (unsigned long long)c[3][k]);
        if (c[4][k] > UINT32_MAX)
            return ckpt_fail(s, "field 'apr': CPU %u has 0x%llx", k, (unsigned long long)c[4][k]);
    }
    pthread_mutex_lock(&g->lock);
    g->dctlr = (uint32_t)dctlr;
    for (size_t i = 0; i < n; i++)
        for (IrqAttr a = 0; a < ATTR_N; a++)
            *attr_of(ckpt_irq(g, i), a) = v[a][i];
    memcpy(g->target + 32, target, sizeof target);
    memcpy(g->sgi_src, sgi, g->ncpu * 16u);
    for (unsigned k = 0; k < g->ncpu; k++)
        g->cpu[k] = (CpuIf){ (uint32_t)c[0][k], (uint32_t)c[1][k], (uint32_t)c[2][k], (uint32_t)c[3][k],
                             (uint32_t)c[4][k], g->cpu[k].irq_out, g->cpu[k].fiq_out };
    update(g); /* the output lines follow the loaded state (the CPUs see their IRQs) */
    pthread_mutex_unlock(&g->lock);
    return true;
}
