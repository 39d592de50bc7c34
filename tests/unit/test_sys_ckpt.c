/* Checkpoint sections of the vCPU (emu/cpu/sys_ckpt.c), the GIC-400, the generic timer and PSCI:
 * each saved in a non-trivial state and loaded into a fresh instance behaves as the original
 * (registers read back, the program it runs computes the same, IRQ lines re-driven, timers fire
 * and guest time goes on), and a damaged field is refused with a message naming it. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "sys_cpu.h"
#include "sys_ckpt.h"
#include "tb.h"
#include "bus.h"
#include "gic400.h"
#include "gtimer.h"
#include "../../firmware/psci.h"

#define RAM 0x80000000ull

static void sleep_ms(unsigned ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static SysMachine mach;
static uint8_t *ram;
static uint64_t hvc_regs[32];
static char path[64];

static void hook(SysCPU *s, bool smc)
{
    (void)smc;
    memcpy(hvc_regs, s->cpu.x, sizeof hvc_regs);
    mach.stop_status = 0;
    mach.stop = 1;
}

static SysCPU *new_cpu(void)
{
    SysCPU *c = aligned_alloc(64, (sizeof(SysCPU) + 63) & ~(size_t)63);
    memset(c, 0, sizeof *c);
    cpu_init(&c->cpu);
    c->cpu.tbc = tbc_new(16 << 20);
    c->mach = &mach;
    c->mpidr = psci_cpu_mpidr(0);
    sys_cpu_reset(c, RAM);
    return c;
}

static void free_cpu(SysCPU *c)
{
    tbc_free(c->cpu.tbc);
    sys_code_free(c);
    free(c);
}

static void setup(void)
{
    memset(&mach, 0, sizeof mach);
    mach.bus = bus_new();
    ram = bus_add_ram(mach.bus, "ram", RAM, 1 << 20, false);
    ck_assert_ptr_nonnull(ram);
    bus_freeze(mach.bus);
    mach.gic = gic_new(1, NULL, NULL);
    mach.gtimer = gtimer_new(mach.gic, 1);
    mach.code_map = mmap(NULL, SYS_CODE_MAP_PA_LIMIT >> 12, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ck_assert(mach.code_map != MAP_FAILED);
    sys_firmware_call = hook;
    snprintf(path, sizeof path, "/tmp/test_sys_ckpt.%d", (int)getpid());
}

static void teardown(void)
{
    unlink(path);
    munmap(mach.code_map, SYS_CODE_MAP_PA_LIMIT >> 12);
    gtimer_free(mach.gtimer);
    gic_free(mach.gic);
    bus_free(mach.bus);
}

static CkptWriter *writer(void)
{
    char err[256];
    CkptWriter *w = ckpt_writer_open(path, err, sizeof err);
    ck_assert_msg(w != NULL, "%s", err);
    return w;
}

static void close_writer(CkptWriter *w)
{
    char err[256];
    ck_assert_msg(ckpt_writer_close(w, err, sizeof err), "%s", err);
}

static CkptReader *reader(void)
{
    char err[256];
    CkptReader *r = ckpt_reader_open(path, err, sizeof err);
    ck_assert_msg(r != NULL, "%s", err);
    return r;
}

/* The load fails and its message names want. */
static void expect_refused(CkptReader *r, bool loaded, const char *want)
{
    ck_assert(!loaded);
    ck_assert(!ckpt_ok(r));
    ck_assert_msg(strstr(ckpt_error(r), want) != NULL, "message '%s' does not name '%s'", ckpt_error(r), want);
    ckpt_reader_close(r);
}

/* ---- vCPU ---------------------------------------------------------------------------------- */

/* reads the state a checkpoint must carry into registers, then HVC */
static const uint32_t probe[] = {
    0xd538d08a, /* mrs x10, tpidr_el1 */
    0xd538c00b, /* mrs x11, vbar_el1 */
    0xd53bd04c, /* mrs x12, tpidr_el0 */
    0x8b02002d, /* add x13, x1, x2 */
    0x9e66006e, /* fmov x14, d3 */
    0xd53b420f, /* mrs x15, nzcv */
    0x1e632864, /* fadd d4, d3, d3 */
    0x9e660090, /* fmov x16, d4 */
    0xd5381011, /* mrs x17, sctlr_el1 */
    0x910003f2, /* mov x18, sp */
    0xd4000002, /* hvc #0 */
};

static void busy_state(SysCPU *s)
{
    for (unsigned i = 0; i < 31; i++)
        s->cpu.x[i] = 0x1111111111111111ull * (i % 15) + i;
    s->cpu.x[REG_SP] = RAM + 0x8000;
    s->sp_el0 = 0x4000;
    for (unsigned i = 0; i < 32; i++)
        s->cpu.v[i].d[0] = 0x4000000000000000ull + i, s->cpu.v[i].d[1] = ~(uint64_t)i;
    cpu_set_nzcv(&s->cpu, 0xa0000000u);
    s->cpu.fp.fpcr = FPCR_DN;
    s->cpu.fp.fpsr = FPSR_IXC;
    s->cpu.tpidr_el0 = 0xfeed;
    s->tpidr_el1 = 0xbeef;
    s->vbar = RAM + 0x800;
    s->cpacr = 3u << 20;
    s->el = 1;
    s->daif = 0x3c0;
    s->cpu.excl_addr = RAM + 0x100;
    s->cpu.excl_size = 8;
    s->cpu.insn_count = 123456;
    s->event = true;
    s->cpu.pc = RAM + 0x1000;
    sys_update_mode(s);
}

START_TEST(cpu_roundtrip_runs_the_same)
{
    memcpy(ram + 0x1000, probe, sizeof probe);
    SysCPU *a = new_cpu(), *b = new_cpu();
    busy_state(a);
    CkptWriter *w = writer();
    sys_cpu_ckpt_save(a, w);
    close_writer(w);
    CkptReader *r = reader();
    ck_assert_msg(sys_cpu_ckpt_load(b, r), "%s", ckpt_error(r));
    ck_assert(ckpt_finish(r));
    ckpt_reader_close(r);
    ck_assert_mem_eq(a->cpu.x, b->cpu.x, sizeof a->cpu.x);
    ck_assert_mem_eq(a->cpu.v, b->cpu.v, sizeof a->cpu.v);
    ck_assert_uint_eq(b->cpu.pc, a->cpu.pc);
    ck_assert_uint_eq(b->tb_flags, a->tb_flags);
    ck_assert_uint_eq(b->cpu.excl_addr, a->cpu.excl_addr);
    ck_assert_uint_eq(b->cpu.excl_size, 8);
    ck_assert_uint_eq(b->cpu.insn_count, 123456);
    ck_assert(b->event);
    /* the same program on both computes the same */
    ck_assert_int_eq(sys_cpu_run(a), 0);
    uint64_t ra[32];
    memcpy(ra, hvc_regs, sizeof ra);
    mach.stop = 0;
    ck_assert_int_eq(sys_cpu_run(b), 0);
    ck_assert_mem_eq(ra, hvc_regs, sizeof ra);
    ck_assert_uint_eq(hvc_regs[10], 0xbeef);
    ck_assert_uint_eq(hvc_regs[11], RAM + 0x800);
    ck_assert_uint_eq(hvc_regs[15], 0xa0000000u);
    ck_assert_uint_eq(hvc_regs[18], RAM + 0x8000);
    free_cpu(a);
    free_cpu(b);
}
END_TEST

START_TEST(cpu_damaged_fields_refused)
{
    SysCPU *a = new_cpu(), *b = new_cpu();
    static const struct { const char *field; unsigned what; } cases[] = {
        { "'el'", 0 }, { "'daif'", 1 }, { "'excl_size'", 2 }, { "'mpidr'", 3 }, { "'fpcr'", 4 },
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        busy_state(a);
        switch (cases[i].what) {
        case 0: a->el = 3; break;
        case 1: a->daif = 0x3c1; break;
        case 2: a->cpu.excl_size = 3; break;
        case 3: a->mpidr = 0x101; break;
        case 4: a->cpu.fp.fpcr = 1; break;
        }
        CkptWriter *w = writer();
        sys_cpu_ckpt_save(a, w);
        close_writer(w);
        a->mpidr = psci_cpu_mpidr(0);
        CkptReader *r = reader();
        expect_refused(r, sys_cpu_ckpt_load(b, r), cases[i].field);
    }
    free_cpu(a);
    free_cpu(b);
}
END_TEST

/* ---- GIC ----------------------------------------------------------------------------------- */

typedef struct { bool irq[GIC_MAX_CPUS]; } Lines;
static void lines_out(void *o, unsigned cpu, bool irq, bool fiq)
{
    (void)fiq;
    ((Lines *)o)->irq[cpu] = irq;
}

static void dw(Gic *g, unsigned cpu, unsigned off, uint32_t v) { gic_dist_write(g, cpu, off, v, 4); }
static void cw(Gic *g, unsigned cpu, unsigned off, uint32_t v) { gic_cpu_write(g, cpu, off, v, 4); }

/* Linux-like setup, an SPI and a PPI raised, one of them acknowledged (active, running priority). */
static Gic *busy_gic(Lines *l)
{
    Gic *g = gic_new(2, lines_out, l);
    dw(g, 0, 0x000, 1);
    for (unsigned c = 0; c < 2; c++) {
        dw(g, c, 0x100, 0xffffffffu);
        dw(g, c, 0x400 + 24, 0xa0908070u);
        cw(g, c, 0x04, 0xf0);
        cw(g, c, 0x00, 1);
    }
    dw(g, 0, 0x104, 1u << 8);     /* SPI 40 enabled */
    dw(g, 0, 0x800 + 40, 2);      /* to CPU 1 */
    dw(g, 0, 0x400 + 40, 0x50);
    dw(g, 0, 0xc08, 2u << 18);    /* SPI 41 edge: config bit */
    gic_set_spi(g, 40, true);
    gic_set_ppi(g, 0, 27, true);
    gic_set_ppi(g, 1, 27, true);
    ck_assert_uint_eq(gic_cpu_read(g, 0, 0x0c, 4), 27); /* CPU 0 takes its PPI: active */
    return g;
}

/* Every readable register without side effects, as each CPU sees it. */
static void gic_regs(Gic *g, uint32_t *v)
{
    unsigned n = 0;
    for (unsigned c = 0; c < 2; c++) {
        for (unsigned off = 0; off < 0x1000; off += 4)
            v[n++] = gic_dist_read(g, c, off, 4);
        static const unsigned cpu_regs[] = { 0x00, 0x04, 0x08, 0x14, 0x18, 0x1c, 0xd0 };
        for (unsigned i = 0; i < 7; i++)
            v[n++] = gic_cpu_read(g, c, cpu_regs[i], 4);
    }
}

START_TEST(gic_roundtrip)
{
    Lines la = { 0 }, lb = { 0 };
    Gic *a = busy_gic(&la), *b = gic_new(2, lines_out, &lb);
    CkptWriter *w = writer();
    gic_ckpt_save(a, w);
    close_writer(w);
    CkptReader *r = reader();
    ck_assert_msg(gic_ckpt_load(b, r), "%s", ckpt_error(r));
    ckpt_reader_close(r);
    static uint32_t va[2 * 1031], vb[2 * 1031];
    gic_regs(a, va);
    gic_regs(b, vb);
    for (unsigned i = 0; i < 2 * 1031; i++)
        ck_assert_msg(va[i] == vb[i], "register %u: 0x%x, loaded 0x%x", i, va[i], vb[i]);
    ck_assert_mem_eq(la.irq, lb.irq, sizeof la.irq); /* output lines re-driven */
    ck_assert(lb.irq[1]);
    /* behaves the same: CPU 1 acknowledges the same interrupts in the same order */
    for (unsigned k = 0; k < 3; k++) {
        uint32_t ia = gic_cpu_read(a, 1, 0x0c, 4), ib = gic_cpu_read(b, 1, 0x0c, 4);
        ck_assert_uint_eq(ia, ib);
        cw(a, 1, 0x10, ia);
        cw(b, 1, 0x10, ib);
    }
    cw(a, 0, 0x10, 27);
    cw(b, 0, 0x10, 27);
    ck_assert_uint_eq(gic_cpu_read(a, 0, 0x14, 4), gic_cpu_read(b, 0, 0x14, 4));
    gic_free(a);
    gic_free(b);
}
END_TEST

/* A "gic" section written by hand for 2 CPUs, valid but for the field named broken. */
static void write_gic(const char *broken)
{
    uint8_t z[2 * 32 + 224] = { 0 }, edge[2 * 32 + 224] = { 0 };
    for (unsigned c = 0; c < 2; c++)
        memset(edge + 32 * c, 1, 16);
    uint64_t ctlr[2] = { 1, 1 }, pmr[2] = { 0xf0, 0xf0 }, bpr[2] = { 2, 2 }, abpr[2] = { 3, 3 }, apr[2] = { 0, 0 };
    uint8_t target[224] = { 0 }, sgi[32] = { 0 }, prio[sizeof z] = { 0 };
    if (!strcmp(broken, "bpr"))
        bpr[1] = 9;
    if (!strcmp(broken, "prio"))
        prio[70] = 0x13;
    if (!strcmp(broken, "target"))
        target[5] = 4;
    if (!strcmp(broken, "edge"))
        edge[3] = 0;
    CkptWriter *w = writer();
    ckpt_begin(w, "gic", 0, GIC_CKPT_VERSION);
    ckpt_u64(w, "ncpu", !strcmp(broken, "ncpu") ? 4 : 2);
    ckpt_u64(w, "dctlr", 1);
    static const char *const attrs[] = { "enabled", "pending", "active", "level", "group" };
    for (unsigned i = 0; i < 5; i++)
        ckpt_bytes(w, attrs[i], z, sizeof z);
    ckpt_bytes(w, "prio", prio, sizeof prio);
    ckpt_bytes(w, "edge", edge, sizeof edge);
    ckpt_bytes(w, "target", target, sizeof target);
    ckpt_bytes(w, "sgi_src", sgi, sizeof sgi);
    ckpt_u64s(w, "ctlr", ctlr, 2);
    ckpt_u64s(w, "pmr", pmr, 2);
    ckpt_u64s(w, "bpr", bpr, 2);
    ckpt_u64s(w, "abpr", abpr, 2);
    ckpt_u64s(w, "apr", apr, 2);
    ckpt_end(w);
    close_writer(w);
}

START_TEST(gic_damaged_fields_refused)
{
    Lines l = { 0 };
    Gic *g = gic_new(2, lines_out, &l);
    write_gic("none");
    CkptReader *r = reader();
    ck_assert_msg(gic_ckpt_load(g, r), "%s", ckpt_error(r)); /* the hand-made section is valid */
    ckpt_reader_close(r);
    static const char *const broken[] = { "bpr", "prio", "target", "edge", "ncpu" };
    for (unsigned i = 0; i < 5; i++) {
        write_gic(broken[i]);
        r = reader();
        char want[32];
        snprintf(want, sizeof want, "'%s'", broken[i]);
        expect_refused(r, gic_ckpt_load(g, r), want);
    }
    gic_free(g);
}
END_TEST

/* ---- generic timer ------------------------------------------------------------------------- */

static bool ppi_level(Gic *g, unsigned cpu, unsigned id)
{
    return (gic_dist_read(g, cpu, 0x200, 4) >> id) & 1; /* level-sensitive: pending while high */
}

START_TEST(gtimer_roundtrip)
{
    Gic *ga = gic_new(2, NULL, NULL), *gb = gic_new(2, NULL, NULL);
    GTimer *a = gtimer_new(ga, 2);
    gtimer_set_cntvoff(a, 1, 1000);
    uint64_t now = gtimer_count(a);
    gtimer_write_cval(a, 0, GT_PHYS, now + 100000000ull); /* 1 s away */
    gtimer_write_ctl(a, 0, GT_PHYS, GT_CTL_ENABLE);
    gtimer_write_cval(a, 1, GT_VIRT, 5);                  /* long due */
    gtimer_write_ctl(a, 1, GT_VIRT, GT_CTL_ENABLE);
    ck_assert(ppi_level(ga, 1, GIC_PPI_VIRT_TIMER));
    sleep_ms(20);
    uint64_t saved = gtimer_count(a);
    CkptWriter *w = writer();
    gtimer_ckpt_save(a, w);
    close_writer(w);
    sleep_ms(50); /* host time passing between save and load is no guest time */
    GTimer *b = gtimer_new(gb, 2);
    CkptReader *r = reader();
    ck_assert_msg(gtimer_ckpt_load(b, r), "%s", ckpt_error(r));
    ckpt_reader_close(r);
    uint64_t loaded = gtimer_count(b);
    ck_assert_uint_ge(loaded, saved);
    ck_assert_uint_lt(loaded, saved + 2000000); /* within 20 ms of ticks: not the 50 ms slept */
    for (unsigned c = 0; c < 2; c++)
        for (int k = 0; k < 2; k++) {
            ck_assert_uint_eq(gtimer_read_cval(b, c, k), gtimer_read_cval(a, c, k));
            ck_assert_uint_eq(gtimer_read_ctl(b, c, k), gtimer_read_ctl(a, c, k));
        }
    uint64_t vc = gtimer_vcount(b, 1), pc = gtimer_count(b); /* CNTVOFF 1000, read a moment apart */
    ck_assert_uint_ge(pc - vc, 1000);
    ck_assert_uint_lt(pc - vc, 1000 + 100000);
    ck_assert(ppi_level(gb, 1, GIC_PPI_VIRT_TIMER)); /* the due timer drives its PPI */
    ck_assert(!ppi_level(gb, 0, GIC_PPI_PHYS_TIMER));
    /* the armed one fires on the loaded board when its CVAL comes */
    gtimer_write_cval(a, 0, GT_PHYS, gtimer_count(a) + 2000000);
    gtimer_write_cval(b, 0, GT_PHYS, gtimer_read_cval(b, 0, GT_PHYS) - 98000000ull);
    sleep_ms(60);
    ck_assert(ppi_level(gb, 0, GIC_PPI_PHYS_TIMER));
    gtimer_free(a);
    gtimer_free(b);
    gic_free(ga);
    gic_free(gb);
}
END_TEST

static uint64_t insns;
static uint64_t count_insns(void *o)
{
    (void)o;
    return insns;
}

START_TEST(gtimer_icount_goes_on_from_saved_time)
{
    Gic *ga = gic_new(1, NULL, NULL), *gb = gic_new(1, NULL, NULL);
    GTimer *a = gtimer_new(ga, 1), *b = gtimer_new(gb, 1);
    insns = 5000;
    gtimer_set_icount(a, 1, count_insns, NULL);
    gtimer_icount_warp(a, 30000);              /* idle: 30000 ns */
    gtimer_write_cval(a, 0, GT_VIRT, 3500);    /* fires at 35000 ns */
    gtimer_write_ctl(a, 0, GT_VIRT, GT_CTL_ENABLE);
    uint64_t saved = gtimer_now_ns(a);
    ck_assert_uint_eq(saved, 30000);
    CkptWriter *w = writer();
    gtimer_ckpt_save(a, w);
    close_writer(w);
    insns = 0;                                 /* the resumed loop counts from 0 */
    gtimer_set_icount(b, 1, count_insns, NULL);
    CkptReader *r = reader();
    ck_assert_msg(gtimer_ckpt_load(b, r), "%s", ckpt_error(r));
    ckpt_reader_close(r);
    ck_assert_uint_eq(gtimer_now_ns(b), saved);
    ck_assert_uint_eq(gtimer_icount_next_ns(b), 35000);
    insns = 2499;                              /* 4998 ns later: not yet */
    gtimer_icount_update(b);
    ck_assert(!ppi_level(gb, 0, GIC_PPI_VIRT_TIMER));
    insns = 2500;
    gtimer_icount_update(b);
    ck_assert(ppi_level(gb, 0, GIC_PPI_VIRT_TIMER));
    gtimer_free(a);
    gtimer_free(b);
    gic_free(ga);
    gic_free(gb);
}
END_TEST

START_TEST(gtimer_damaged_fields_refused)
{
    Gic *g = gic_new(2, NULL, NULL);
    GTimer *t = gtimer_new(g, 2);
    uint64_t ctl[4] = { 1, 3, 0, 8 }, cval[4] = { 0 }, voff[2] = { 0 };
    CkptWriter *w = writer();
    ckpt_begin(w, "gtimer", 0, GTIMER_CKPT_VERSION);
    ckpt_u64(w, "ncpu", 2);
    ckpt_u64(w, "guest_ns", 1000);
    ckpt_u64s(w, "ctl", ctl, 4);
    ckpt_u64s(w, "cval", cval, 4);
    ckpt_u64s(w, "cntvoff", voff, 2);
    ckpt_end(w);
    close_writer(w);
    CkptReader *r = reader();
    expect_refused(r, gtimer_ckpt_load(t, r), "'ctl'");
    w = writer();
    ckpt_begin(w, "gtimer", 0, GTIMER_CKPT_VERSION);
    ckpt_u64(w, "ncpu", 2);
    ckpt_u64(w, "guest_ns", 1000);
    ckpt_u64s(w, "ctl", ctl, 2); /* one CPU's worth */
    ckpt_end(w);
    close_writer(w);
    r = reader();
    expect_refused(r, gtimer_ckpt_load(t, r), "'ctl'");
    gtimer_free(t);
    gic_free(g);
}
END_TEST

/* ---- PSCI ---------------------------------------------------------------------------------- */

START_TEST(psci_roundtrip_and_damage)
{
    Psci *a = psci_new(4), *b = psci_new(4);
    PsciAction act;
    ck_assert_uint_eq(psci_call(a, 0, PSCI_CPU_ON_64, psci_cpu_mpidr(2), RAM, 0, &act), 0);
    CkptWriter *w = writer();
    psci_ckpt_save(a, w);
    close_writer(w);
    CkptReader *r = reader();
    ck_assert_msg(psci_ckpt_load(b, r), "%s", ckpt_error(r));
    ckpt_reader_close(r);
    for (unsigned c = 0; c < 4; c++)
        ck_assert_int_eq(psci_cpu_state(b, c), psci_cpu_state(a, c));
    /* behaves the same: CPU 2 is on, so a second CPU_ON for it is refused */
    ck_assert_int_eq((int64_t)psci_call(b, 0, PSCI_CPU_ON_64, psci_cpu_mpidr(2), RAM, 0, &act), PSCI_RET_ALREADY_ON);
    uint64_t st[4] = { 0, 1, 7, 1 };
    w = writer();
    ckpt_begin(w, "psci", 0, PSCI_CKPT_VERSION);
    ckpt_u64s(w, "state", st, 4);
    ckpt_end(w);
    close_writer(w);
    r = reader();
    expect_refused(r, psci_ckpt_load(b, r), "'state'");
    psci_free(a);
    psci_free(b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sys_ckpt");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, cpu_roundtrip_runs_the_same);
    tcase_add_test(tc, cpu_damaged_fields_refused);
    tcase_add_test(tc, gic_roundtrip);
    tcase_add_test(tc, gic_damaged_fields_refused);
    tcase_add_test(tc, gtimer_roundtrip);
    tcase_add_test(tc, gtimer_icount_goes_on_from_saved_time);
    tcase_add_test(tc, gtimer_damaged_fields_refused);
    tcase_add_test(tc, psci_roundtrip_and_damage);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
