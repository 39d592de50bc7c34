/* devices/gic400: identification, banking, priority/acknowledge/EOI flow, SGIs, edge/level,
 * EOImode 1, hostile accesses. */
#include "../devices/dev_check.h"
#include "../../devices/gic400.h"

enum {
    D_CTLR = 0x000, D_TYPER = 0x004, D_IIDR = 0x008, D_IGROUPR = 0x080, D_ISENABLER = 0x100,
    D_ICENABLER = 0x180, D_ISPENDR = 0x200, D_ICPENDR = 0x280, D_ISACTIVER = 0x300,
    D_ICACTIVER = 0x380, D_IPRIORITYR = 0x400, D_ITARGETSR = 0x800, D_ICFGR = 0xC00,
    D_SGIR = 0xF00, D_CPENDSGIR = 0xF10, D_SPENDSGIR = 0xF20, D_PIDR2 = 0xFE8,
    C_CTLR = 0x00, C_PMR = 0x04, C_BPR = 0x08, C_IAR = 0x0C, C_EOIR = 0x10, C_RPR = 0x14,
    C_HPPIR = 0x18, C_APR0 = 0xD0, C_IIDR = 0xFC, C_DIR = 0x1000,
};

typedef struct Lines {
    bool irq[GIC_MAX_CPUS], fiq[GIC_MAX_CPUS];
    unsigned changes;
} Lines;

static void out(void *o, unsigned cpu, bool irq, bool fiq)
{
    Lines *l = o;
    l->irq[cpu] = irq;
    l->fiq[cpu] = fiq;
    l->changes++;
}

static Lines lines;

static uint32_t dr(Gic *g, unsigned cpu, unsigned off) { return gic_dist_read(g, cpu, off, 4); }
static void dw(Gic *g, unsigned cpu, unsigned off, uint32_t v) { gic_dist_write(g, cpu, off, v, 4); }
static uint32_t cr(Gic *g, unsigned cpu, unsigned off) { return gic_cpu_read(g, cpu, off, 4); }
static void cw(Gic *g, unsigned cpu, unsigned off, uint32_t v) { gic_cpu_write(g, cpu, off, v, 4); }

/* Linux-like init: distributor and both CPU interfaces on, PMR 0xF0, SPIs to CPU 0. */
static Gic *linux_gic(unsigned ncpu)
{
    lines = (Lines){ 0 };
    Gic *g = gic_new(ncpu, out, &lines);
    ck_assert_ptr_nonnull(g);
    dw(g, 0, D_CTLR, 1);
    for (unsigned c = 0; c < ncpu; c++) {
        dw(g, c, D_ISENABLER, 0x0000FFFF); /* SGIs */
        for (unsigned i = 0; i < 32; i += 4)
            dw(g, c, D_IPRIORITYR + i, 0xA0A0A0A0);
        cw(g, c, C_PMR, 0xF0);
        cw(g, c, C_CTLR, 1);
    }
    for (unsigned i = 32; i < GIC_NUM_IRQS; i += 4) {
        dw(g, 0, D_IPRIORITYR + i, 0xA0A0A0A0);
        dw(g, 0, D_ITARGETSR + i, 0x01010101);
    }
    return g;
}

START_TEST(identification)
{
    Gic *g = linux_gic(4);
    ck_assert_uint_eq(dr(g, 0, D_TYPER), (3u << 5) | 7);
    ck_assert_uint_eq(dr(g, 0, D_IIDR), 0x0200143B);
    ck_assert_uint_eq(cr(g, 0, C_IIDR) & 0xff0fff, 0x02043B); /* Linux gic_check_gicv2 */
    ck_assert_uint_eq((dr(g, 0, D_PIDR2) >> 4) & 0xF, 2);
    ck_assert_uint_eq(dr(g, 0, 0xFF0), 0x0D);
    ck_assert_uint_eq(dr(g, 0, 0xFFC), 0xB1);
    for (unsigned c = 0; c < 4; c++) { /* ITARGETSR0-7 read as the reader's own bit */
        uint32_t m = dr(g, c, D_ITARGETSR);
        ck_assert_uint_eq(m, 0x01010101u << c);
        ck_assert_uint_eq(gic_dist_read(g, c, D_ITARGETSR + 29, 1), 1u << c);
    }
    dw(g, 0, D_ITARGETSR, 0xFFFFFFFF); /* read-only */
    ck_assert_uint_eq(dr(g, 0, D_ITARGETSR), 0x01010101);
    dw(g, 0, D_ITARGETSR + 32, 0xFFFFFFFF); /* only implemented CPUs stick */
    ck_assert_uint_eq(dr(g, 0, D_ITARGETSR + 32), 0x0F0F0F0F);
    ck_assert_uint_eq(dr(g, 0, D_ICFGR), 0xAAAAAAAA); /* SGIs edge, fixed */
    dw(g, 0, D_ICFGR, 0);
    ck_assert_uint_eq(dr(g, 0, D_ICFGR), 0xAAAAAAAA);
    dw(g, 0, D_IPRIORITYR + 32, 0xFFFFFFFF); /* 5 priority bits */
    ck_assert_uint_eq(dr(g, 0, D_IPRIORITYR + 32), 0xF8F8F8F8);
    gic_dist_write(g, 0, D_IPRIORITYR + 33, 0x48, 1);
    ck_assert_uint_eq(gic_dist_read(g, 0, D_IPRIORITYR + 33, 1), 0x48);
    ck_assert_uint_eq(cr(g, 0, C_RPR), 0xFF); /* idle */
    ck_assert_uint_eq(cr(g, 0, C_IAR), GIC_SPURIOUS);
    gic_free(g);
}
END_TEST

START_TEST(level_spi_flow)
{
    Gic *g = linux_gic(2);
    const unsigned irq = 40;
    dw(g, 0, D_ISENABLER + 4, 1u << (irq - 32));
    ck_assert(!lines.irq[0]);
    gic_set_spi(g, irq, true);
    ck_assert(lines.irq[0]);
    ck_assert(gic_irq_line(g, 0));
    ck_assert(!lines.irq[1]); /* targeted at CPU 0 only */
    ck_assert_uint_eq(dr(g, 0, D_ISPENDR + 4), 1u << (irq - 32));
    ck_assert_uint_eq(cr(g, 0, C_HPPIR), irq);
    ck_assert_uint_eq(cr(g, 0, C_IAR), irq);
    ck_assert(!lines.irq[0]); /* active: no longer signalled */
    ck_assert_uint_eq(cr(g, 0, C_RPR), 0xA0);
    ck_assert_uint_eq(dr(g, 0, D_ISACTIVER + 4), 1u << (irq - 32));
    ck_assert_uint_eq(cr(g, 0, C_IAR), GIC_SPURIOUS); /* active and pending: not again */
    cw(g, 0, C_EOIR, irq);
    ck_assert_uint_eq(cr(g, 0, C_RPR), 0xFF);
    ck_assert_uint_eq(dr(g, 0, D_ISACTIVER + 4), 0);
    ck_assert(lines.irq[0]); /* line still high: pending again */
    gic_set_spi(g, irq, false);
    ck_assert(!lines.irq[0]);
    ck_assert_uint_eq(dr(g, 0, D_ISPENDR + 4), 0);
    /* retarget to CPU 1 */
    gic_dist_write(g, 0, D_ITARGETSR + irq, 2, 1);
    gic_set_spi(g, irq, true);
    ck_assert(!lines.irq[0]);
    ck_assert(lines.irq[1]);
    ck_assert_uint_eq(cr(g, 1, C_IAR), irq);
    cw(g, 1, C_EOIR, irq);
    /* disabled interrupts are pending but not signalled */
    dw(g, 0, D_ICENABLER + 4, 1u << (irq - 32));
    ck_assert(!lines.irq[1]);
    ck_assert_uint_eq(cr(g, 1, C_IAR), GIC_SPURIOUS);
    gic_free(g);
}
END_TEST

START_TEST(priority_and_preemption)
{
    Gic *g = linux_gic(1);
    dw(g, 0, D_ISENABLER + 4, 0xFFFFFFFF);
    dw(g, 0, D_ISENABLER + 8, 0xFFFFFFFF);
    gic_dist_write(g, 0, D_IPRIORITYR + 50, 0x80, 1);
    gic_dist_write(g, 0, D_IPRIORITYR + 60, 0x40, 1);
    gic_dist_write(g, 0, D_IPRIORITYR + 61, 0x40, 1);
    gic_set_spi(g, 50, true);
    gic_set_spi(g, 61, true);
    gic_set_spi(g, 60, true);
    ck_assert_uint_eq(cr(g, 0, C_IAR), 60); /* highest priority, lowest ID on ties */
    ck_assert_uint_eq(cr(g, 0, C_RPR), 0x40);
    ck_assert(!lines.irq[0]); /* 61 has the same priority: no preemption */
    ck_assert_uint_eq(cr(g, 0, C_IAR), GIC_SPURIOUS);
    cw(g, 0, C_EOIR, 60);
    gic_set_spi(g, 60, false);
    ck_assert_uint_eq(cr(g, 0, C_IAR), 61);
    gic_set_spi(g, 61, false);
    /* 50 (0x80) cannot preempt 61 (0x40) ... */
    ck_assert(!lines.irq[0]);
    /* ... but a higher priority one can (nesting) */
    gic_dist_write(g, 0, D_IPRIORITYR + 70, 0x10, 1);
    gic_set_spi(g, 70, true);
    ck_assert(lines.irq[0]);
    ck_assert_uint_eq(cr(g, 0, C_IAR), 70);
    ck_assert_uint_eq(cr(g, 0, C_RPR), 0x10);
    ck_assert_uint_eq(cr(g, 0, C_APR0), (1u << (0x10 >> 3)) | (1u << (0x40 >> 3)));
    cw(g, 0, C_EOIR, 70);
    gic_set_spi(g, 70, false);
    ck_assert_uint_eq(cr(g, 0, C_RPR), 0x40);
    cw(g, 0, C_EOIR, 61);
    ck_assert_uint_eq(cr(g, 0, C_RPR), 0xFF);
    ck_assert(lines.irq[0]); /* 50 now */
    /* priority mask */
    cw(g, 0, C_PMR, 0x80);
    ck_assert(!lines.irq[0]);
    ck_assert_uint_eq(cr(g, 0, C_IAR), GIC_SPURIOUS);
    ck_assert_uint_eq(cr(g, 0, C_HPPIR), 50); /* HPPIR ignores the mask */
    cw(g, 0, C_PMR, 0x88);
    ck_assert_uint_eq(cr(g, 0, C_IAR), 50);
    cw(g, 0, C_EOIR, 50);
    /* writing APR0 = 0 (Linux cpu_if_up) clears active priorities */
    gic_set_spi(g, 70, true);
    ck_assert_uint_eq(cr(g, 0, C_IAR), 70);
    cw(g, 0, C_APR0, 0);
    ck_assert_uint_eq(cr(g, 0, C_RPR), 0xFF);
    /* CPU interface or distributor disabled: nothing signalled */
    dw(g, 0, D_ICACTIVER + 8, 0xFFFFFFFF);
    ck_assert(lines.irq[0]);
    cw(g, 0, C_CTLR, 0);
    ck_assert(!lines.irq[0]);
    cw(g, 0, C_CTLR, 1);
    dw(g, 0, D_CTLR, 0);
    ck_assert(!lines.irq[0]);
    gic_free(g);
}
END_TEST

START_TEST(sgis)
{
    Gic *g = linux_gic(4);
    dw(g, 0, D_SGIR, (0u << 24) | (0x6u << 16) | 3); /* list: CPUs 1, 2 */
    ck_assert(!lines.irq[0]);
    ck_assert(lines.irq[1] && lines.irq[2]);
    ck_assert(!lines.irq[3]);
    ck_assert_uint_eq(cr(g, 1, C_IAR), 3); /* source CPU 0 */
    cw(g, 1, C_EOIR, 3);
    ck_assert_uint_eq(gic_dist_read(g, 2, D_SPENDSGIR + 3, 1), 1); /* pending from CPU 0 */
    dw(g, 3, D_SGIR, (1u << 24) | 5); /* all but self, from CPU 3 */
    ck_assert(lines.irq[0] && !lines.irq[3]);
    ck_assert_uint_eq(cr(g, 0, C_IAR), (3u << 10) | 5);
    cw(g, 0, C_EOIR, (3u << 10) | 5);
    dw(g, 1, D_SGIR, (2u << 24) | 7); /* self */
    ck_assert_uint_eq(cr(g, 2, C_IAR), 3); /* CPU 2 still has SGI 3 (lower ID first) */
    cw(g, 2, C_EOIR, 3);
    ck_assert_uint_eq(cr(g, 2, C_IAR), (3u << 10) | 5);
    cw(g, 2, C_EOIR, (3u << 10) | 5);
    ck_assert_uint_eq(cr(g, 1, C_IAR), (3u << 10) | 5);
    cw(g, 1, C_EOIR, (3u << 10) | 5);
    ck_assert_uint_eq(cr(g, 1, C_IAR), (1u << 10) | 7);
    cw(g, 1, C_EOIR, (1u << 10) | 7);
    ck_assert(!lines.irq[1]);
    /* two sources for the same SGI: acknowledged one at a time */
    dw(g, 0, D_SGIR, (0x4u << 16) | 1);
    dw(g, 1, D_SGIR, (0x4u << 16) | 1);
    ck_assert_uint_eq(gic_dist_read(g, 2, D_SPENDSGIR + 1, 1), 3);
    ck_assert_uint_eq(cr(g, 2, C_IAR), 1);
    cw(g, 2, C_EOIR, 1);
    ck_assert_uint_eq(cr(g, 2, C_IAR), (1u << 10) | 1);
    cw(g, 2, C_EOIR, (1u << 10) | 1);
    ck_assert(!lines.irq[2]);
    /* SPENDSGIR / CPENDSGIR */
    gic_dist_write(g, 3, D_SPENDSGIR + 2, 0x5, 1);
    ck_assert(lines.irq[3]);
    gic_dist_write(g, 3, D_CPENDSGIR + 2, 0xFF, 1);
    ck_assert(!lines.irq[3]);
    gic_free(g);
}
END_TEST

START_TEST(ppis_banked)
{
    Gic *g = linux_gic(2);
    dw(g, 1, D_ISENABLER, 1u << GIC_PPI_VIRT_TIMER);
    gic_set_ppi(g, 1, GIC_PPI_VIRT_TIMER, true);
    ck_assert(lines.irq[1]);
    ck_assert(!lines.irq[0]);
    ck_assert_uint_eq(dr(g, 0, D_ISPENDR), 0);
    ck_assert_uint_eq(dr(g, 1, D_ISPENDR), 1u << GIC_PPI_VIRT_TIMER);
    gic_set_ppi(g, 0, GIC_PPI_VIRT_TIMER, true); /* pending on CPU 0 but not enabled there */
    ck_assert(!lines.irq[0]);
    ck_assert_uint_eq(cr(g, 1, C_IAR), GIC_PPI_VIRT_TIMER);
    cw(g, 1, C_EOIR, GIC_PPI_VIRT_TIMER);
    gic_set_ppi(g, 1, GIC_PPI_VIRT_TIMER, false);
    ck_assert(!lines.irq[1]);
    gic_set_irq(g, GIC_PPI_VIRT_TIMER, 7, true); /* no such CPU: ignored */
    gic_set_irq(g, 5, 0, true);                 /* SGIs are not lines: ignored */
    gic_set_irq(g, 999, 0, true);
    ck_assert(!lines.irq[0] && !lines.irq[1]);
    gic_free(g);
}
END_TEST

START_TEST(edge_and_software_pending)
{
    Gic *g = linux_gic(1);
    const unsigned irq = 100;
    dw(g, 0, D_ICFGR + (irq / 16) * 4, 2u << ((irq % 16) * 2));
    dw(g, 0, D_ISENABLER + 12, 1u << (irq - 96));
    gic_set_spi(g, irq, true);
    gic_set_spi(g, irq, false); /* pulse: latched */
    ck_assert(lines.irq[0]);
    ck_assert_uint_eq(cr(g, 0, C_IAR), irq);
    ck_assert(!lines.irq[0]);
    gic_set_spi(g, irq, true); /* new edge while active: pending again */
    cw(g, 0, C_EOIR, irq);
    ck_assert(lines.irq[0]);
    ck_assert_uint_eq(cr(g, 0, C_IAR), irq);
    cw(g, 0, C_EOIR, irq);
    ck_assert(!lines.irq[0]); /* level stays high, but edge-triggered: nothing new */
    /* software pending on a level interrupt (Linux retrigger) */
    dw(g, 0, D_ISENABLER + 4, 1);
    dw(g, 0, D_ISPENDR + 4, 1);
    ck_assert(lines.irq[0]);
    dw(g, 0, D_ICPENDR + 4, 1);
    ck_assert(!lines.irq[0]);
    gic_free(g);
}
END_TEST

START_TEST(eoimode1_and_fiq)
{
    Gic *g = linux_gic(1);
    cw(g, 0, C_CTLR, 1 | (1u << 9));
    dw(g, 0, D_ISENABLER + 4, 1);
    gic_set_spi(g, 32, true);
    ck_assert_uint_eq(cr(g, 0, C_IAR), 32);
    cw(g, 0, C_EOIR, 32); /* priority drop only */
    ck_assert_uint_eq(cr(g, 0, C_RPR), 0xFF);
    ck_assert_uint_eq(dr(g, 0, D_ISACTIVER + 4), 1);
    ck_assert(!lines.irq[0]);
    cw(g, 0, C_DIR, 32);
    ck_assert_uint_eq(dr(g, 0, D_ISACTIVER + 4), 0);
    ck_assert(lines.irq[0]);
    /* FIQEn: group 0 goes to FIQ */
    cw(g, 0, C_CTLR, 1 | (1u << 3));
    ck_assert(!lines.irq[0]);
    ck_assert(lines.fiq[0]);
    ck_assert(gic_fiq_line(g, 0));
    /* group 1 interrupt with only group 0 enabled: not signalled */
    dw(g, 0, D_IGROUPR + 4, 1);
    ck_assert(!lines.fiq[0] && !lines.irq[0]);
    dw(g, 0, D_CTLR, 3);
    ck_assert(!lines.fiq[0] && !lines.irq[0]); /* CPU interface has group 1 off */
    cw(g, 0, C_CTLR, 3 | (1u << 3)); /* both groups: group 1 -> IRQ */
    ck_assert(lines.irq[0] && !lines.fiq[0]);
    ck_assert_uint_eq(cr(g, 0, C_IAR), 1022); /* AckCtl = 0 */
    cw(g, 0, C_CTLR, 3 | (1u << 2));
    ck_assert_uint_eq(cr(g, 0, C_IAR), 32);
    gic_free(g);
}
END_TEST

START_TEST(reset_clears_state)
{
    Gic *g = linux_gic(2);
    dw(g, 0, D_ISENABLER + 4, 1);
    gic_set_spi(g, 32, true);
    ck_assert(lines.irq[0]);
    gic_reset(g);
    ck_assert(!lines.irq[0]);
    ck_assert_uint_eq(dr(g, 0, D_CTLR), 0);
    ck_assert_uint_eq(cr(g, 0, C_BPR), 2);
    gic_free(g);
}
END_TEST

START_TEST(hostile_accesses)
{
    Gic *g = linux_gic(GIC_MAX_CPUS);
    for (unsigned c = 0; c < GIC_MAX_CPUS; c++) {
        gic_set_current_cpu(c);
        dev_fuzz(&gic_dist_ops, g, 0x1000, 20000, 0x1234 + c);
        dev_fuzz(&gic_cpu_ops, g, 0x2000, 20000, 0x9876 + c);
        gic_set_irq(g, 32 + c * 20, c, true);
    }
    gic_set_current_cpu(99); /* bogus CPU number: ignored */
    dev_fuzz(&gic_dist_ops, g, 0x1000, 1000, 7);
    dev_fuzz(&gic_cpu_ops, g, 0x2000, 1000, 8);
    gic_set_current_cpu(0);
    ck_assert_uint_eq(gic_dist_read(g, 0, 0x100000, 4), 0);
    gic_free(g);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dev_gic");
    TCase *tc = tcase_create("gic");
    tcase_add_test(tc, identification);
    tcase_add_test(tc, level_spi_flow);
    tcase_add_test(tc, priority_and_preemption);
    tcase_add_test(tc, sgis);
    tcase_add_test(tc, ppis_banked);
    tcase_add_test(tc, edge_and_software_pending);
    tcase_add_test(tc, eoimode1_and_fiq);
    tcase_add_test(tc, reset_clears_state);
    tcase_add_test(tc, hostile_accesses);
    suite_add_tcase(s, tc);
    return dev_run_suite(s);
}
