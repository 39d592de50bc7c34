/* The board's side of the GDB stub (gdb_board.h).
 *
 * Parking: a vCPU that hits a breakpoint / watchpoint / finished step, or sees a halt request
 * at its loop top, calls hook() (sys_exec.c) on its own thread.  The first event asks the other
 * vCPUs to halt too; the last one to park tells the server why the machine stopped.  Each
 * waits until resume() releases it, then takes its step request.  Everything gdb does
 * (registers, memory, break/watchpoints) happens while every vCPU is parked.  With --smp, the
 * vCPUs that cannot get here count as parked (smp_stopped_with): in rr mode all the others (one
 * thread runs them all), in threads mode the powered-off ones (waiting for a CPU_ON). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gdb_board.h"
#include "smp.h"
#include "sys_debug.h"
#include "../debug/gdb_server.h"
#include "../../devices/board.h"
#include "../../devices/bus.h"
#include "../../devices/gtimer.h"
#include "../../devices/mali/mali.h"

static struct {
    SysDebug dbg;
    struct Board *board;
    SysMachine *m;
    SysCPU **cpus;
    unsigned ncpu;
    void (*quit)(int status);
    GdbServer *srv;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned parked;
    uint64_t gen;                 /* resume() count */
    bool released[GDB_MAX_CPUS];
    bool step[GDB_MAX_CPUS];
    bool have_event;
    GdbStop event;                /* the first event of this stop */
    int halt_signal;              /* stop without an event: 5 at start (--gdb-wait), 2 Ctrl-C */
} G = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };

/* ---- registers ------------------------------------------------------------------------ */

/* GDB register numbers: the order of target_xml below. */
enum { R_SP = 31, R_PC = 32, R_CPSR = 33, R_V0 = 34, R_FPSR = 66, R_FPCR = 67, R_SYS = 68 };

static uint64_t sp_bank(SysCPU *s, unsigned el)
{
    bool live = el == 0 ? !(s->el && s->spsel) : (s->el && s->spsel);
    return live ? s->cpu.x[REG_SP] : el == 0 ? s->sp_el0 : s->sp_el1;
}

#define SYSREGS(X) \
    X(sctlr_el1, s->sctlr) X(tcr_el1, s->tcr) X(ttbr0_el1, s->ttbr0) X(ttbr1_el1, s->ttbr1) \
    X(mair_el1, s->mair) X(vbar_el1, s->vbar) X(esr_el1, s->esr) X(far_el1, s->far) \
    X(elr_el1, s->elr) X(spsr_el1, s->spsr) X(sp_el0, sp_bank(s, 0)) X(sp_el1, sp_bank(s, 1)) \
    X(tpidr_el0, s->cpu.tpidr_el0) X(tpidrro_el0, s->cpu.tpidrro_el0) X(tpidr_el1, s->tpidr_el1) \
    X(contextidr_el1, s->contextidr) X(cpacr_el1, s->cpacr) X(par_el1, s->par) \
    X(currentel, (uint64_t)s->el << 2) X(daif, s->daif)

#define COUNT(name, expr) +1
enum { N_SYSREGS = 0 SYSREGS(COUNT) };
#undef COUNT

static uint64_t sysreg(SysCPU *s, unsigned i)
{
    unsigned n = 0;
#define GET(name, expr) if (n++ == i) return (expr);
    SYSREGS(GET)
#undef GET
    return 0;
}

static char target_xml[8192];

static void build_target_xml(void)
{
    size_t o = 0;
#define P(...) o += (size_t)snprintf(target_xml + o, sizeof target_xml - o, __VA_ARGS__)
    P("<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n<target>\n"
      "<architecture>aarch64</architecture>\n<feature name=\"org.gnu.gdb.aarch64.core\">\n");
    for (int i = 0; i < 31; i++)
        P("<reg name=\"x%d\" bitsize=\"64\" type=\"int\"/>\n", i);
    P("<reg name=\"sp\" bitsize=\"64\" type=\"data_ptr\"/>\n<reg name=\"pc\" bitsize=\"64\" type=\"code_ptr\"/>\n"
      "<reg name=\"cpsr\" bitsize=\"32\" type=\"int\"/>\n</feature>\n"
      "<feature name=\"org.gnu.gdb.aarch64.fpu\">\n"
      "<vector id=\"v2d\" type=\"ieee_double\" count=\"2\"/><vector id=\"v2u\" type=\"uint64\" count=\"2\"/>\n"
      "<vector id=\"v4f\" type=\"ieee_single\" count=\"4\"/><vector id=\"v4u\" type=\"uint32\" count=\"4\"/>\n"
      "<vector id=\"v8u\" type=\"uint16\" count=\"8\"/><vector id=\"v16u\" type=\"uint8\" count=\"16\"/>\n"
      "<union id=\"vreg\"><field name=\"d\" type=\"v2d\"/><field name=\"ud\" type=\"v2u\"/>"
      "<field name=\"s\" type=\"v4f\"/><field name=\"us\" type=\"v4u\"/><field name=\"h\" type=\"v8u\"/>"
      "<field name=\"b\" type=\"v16u\"/><field name=\"q\" type=\"uint128\"/></union>\n");
    for (int i = 0; i < 32; i++)
        P("<reg name=\"v%d\" bitsize=\"128\" type=\"vreg\"/>\n", i);
    P("<reg name=\"fpsr\" bitsize=\"32\" type=\"int\"/>\n<reg name=\"fpcr\" bitsize=\"32\" type=\"int\"/>\n"
      "</feature>\n<feature name=\"org.malibu.aarch64.sysregs\">\n");
#define XML(name, expr) P("<reg name=\"" #name "\" bitsize=\"64\" type=\"uint64\" group=\"system\"/>\n");
    SYSREGS(XML)
#undef XML
    P("</feature>\n</target>\n");
#undef P
}

static unsigned t_ncpus(void *o) { (void)o; return G.ncpu; }
static unsigned t_nregs(void *o) { (void)o; return R_SYS + N_SYSREGS; }

static unsigned t_read_reg(void *o, unsigned cpu, unsigned r, uint8_t *buf)
{
    (void)o;
    if (cpu >= G.ncpu)
        return 0;
    SysCPU *s = G.cpus[cpu];
    CPUState *c = &s->cpu;
    uint64_t v;
    uint32_t w;
    if (r <= R_SP || r == R_PC || r >= R_SYS) {
        v = r <= R_SP ? c->x[r] : r == R_PC ? c->pc : sysreg(s, r - R_SYS);
        if (r >= R_SYS + N_SYSREGS)
            return 0;
        memcpy(buf, &v, 8);
        return 8;
    }
    if (r >= R_V0 && r < R_V0 + 32) {
        memcpy(buf, &c->v[r - R_V0], 16);
        return 16;
    }
    w = r == R_CPSR ? (uint32_t)sys_pstate(s) : r == R_FPSR ? c->fp.fpsr : c->fp.fpcr;
    memcpy(buf, &w, 4);
    return 4;
}

static bool t_write_reg(void *o, unsigned cpu, unsigned r, const uint8_t *buf)
{
    (void)o;
    if (cpu >= G.ncpu)
        return false;
    SysCPU *s = G.cpus[cpu];
    CPUState *c = &s->cpu;
    uint64_t v;
    uint32_t w;
    memcpy(&v, buf, 8);
    memcpy(&w, buf, 4);
    if (r <= R_SP)
        c->x[r] = v;
    else if (r == R_PC)
        c->pc = v;
    else if (r == R_CPSR) {
        /* NZCV and DAIF; EL and SPSel stay (the exception level is not gdb's to change) */
        if ((w & 0xf) != (sys_pstate(s) & 0xf))
            return false;
        cpu_set_nzcv(c, w);
        s->daif = w & 0x3c0;
    } else if (r >= R_V0 && r < R_V0 + 32)
        memcpy(&c->v[r - R_V0], buf, 16);
    else if (r == R_FPSR)
        c->fp.fpsr = w;
    else if (r == R_FPCR)
        c->fp.fpcr = w;
    else /* system registers are read-only through gdb: an unchanged value is accepted */
        return r < R_SYS + N_SYSREGS && sysreg(s, r - R_SYS) == v;
    return true;
}

/* ---- memory --------------------------------------------------------------------------- */

/* Host pointer of the RAM byte at va (through the vCPU's current tables, as EL1 sees them,
 * else as EL0 does); NULL for unmapped or MMIO (device reads have side effects). */
static uint8_t *va_host(SysCPU *s, uint64_t va, bool write, uint64_t *pa)
{
    MmuResult r;
    if (!mmu_translate(s, va, 1, MMU_READ, &r) && !mmu_translate(s, va, 0, MMU_READ, &r))
        return NULL;
    uint8_t *h = bus_ram_ptr(G.m->bus, r.pa & SYS_PAGE_MASK, write);
    *pa = r.pa;
    return h ? h + (r.pa & 0xfff) : NULL;
}

/* len bytes at addr through vCPU cpu's translation, page by page: copied into rd, or from wr
 * (then the translated code of each page written is dropped on every vCPU). */
static bool copy_mem(unsigned cpu, uint64_t addr, uint8_t *rd, const uint8_t *wr, size_t len)
{
    if (cpu >= G.ncpu)
        return false;
    while (len) {
        size_t n = 0x1000 - (addr & 0xfff);
        n = n < len ? n : len;
        uint64_t pa;
        uint8_t *h = va_host(G.cpus[cpu], addr, wr != NULL, &pa);
        if (!h)
            return false;
        if (wr) {
            memcpy(h, wr, n);
            for (unsigned i = 0; i < G.ncpu; i++)
                sys_code_modified(G.cpus[i], pa);
            wr += n;
        } else {
            memcpy(rd, h, n);
            rd += n;
        }
        addr += n;
        len -= n;
    }
    return true;
}

static bool t_read_mem(void *o, unsigned cpu, uint64_t addr, uint8_t *buf, size_t len)
{
    (void)o;
    return copy_mem(cpu, addr, buf, NULL, len);
}

static bool t_write_mem(void *o, unsigned cpu, uint64_t addr, const uint8_t *buf, size_t len)
{
    (void)o;
    return copy_mem(cpu, addr, NULL, buf, len);
}

/* ---- break / watchpoints ---------------------------------------------------------------- */

static bool t_point(void *o, unsigned type, uint64_t addr, uint64_t len, bool insert)
{
    (void)o;
    static const unsigned kind[] = { [GDB_WP_WRITE] = SYS_WATCH_WRITE, [GDB_WP_READ] = SYS_WATCH_READ,
                                     [GDB_WP_ACCESS] = SYS_WATCH_ACCESS };
    if (type == GDB_BP_SW || type == GDB_BP_HW)
        return insert ? sys_debug_bp_insert(&G.dbg, addr) : sys_debug_bp_remove(&G.dbg, addr);
    if (type > GDB_WP_ACCESS)
        return false;
    return insert ? sys_debug_wp_insert(&G.dbg, addr, len, kind[type])
                  : sys_debug_wp_remove(&G.dbg, addr, len, kind[type]);
}
static bool t_insert(void *o, unsigned type, uint64_t addr, uint64_t len) { return t_point(o, type, addr, len, true); }
static bool t_remove(void *o, unsigned type, uint64_t addr, uint64_t len) { return t_point(o, type, addr, len, false); }

static void t_remove_all(void *o)
{
    (void)o;
    G.dbg.n_bp = G.dbg.n_wp = 0;
    G.dbg.bp_gen++;
    G.dbg.wp_gen++;
}

/* ---- machine control -------------------------------------------------------------------- */

static void kick_all(void)
{
    for (unsigned i = 0; i < G.ncpu; i++) {
        G.cpus[i]->cpu.exit_request = 1;
        gtimer_kick(G.m->gtimer, i);
    }
}

static void t_halt(void *o)
{
    (void)o;
    pthread_mutex_lock(&G.mu);
    G.halt_signal = 2;
    G.dbg.halt = 1;
    kick_all();
    pthread_mutex_unlock(&G.mu);
}

static void t_resume(void *o, const uint8_t *actions)
{
    (void)o;
    pthread_mutex_lock(&G.mu);
    for (unsigned i = 0; i < G.ncpu; i++) {
        G.released[i] = actions[i] != GDB_ACT_STAY;
        G.step[i] = actions[i] == GDB_ACT_STEP;
    }
    G.have_event = false;
    G.dbg.halt = 0;
    G.gen++;
    pthread_cond_broadcast(&G.cv);
    pthread_mutex_unlock(&G.mu);
}

static void t_kill(void *o)
{
    (void)o;
    fprintf(stderr, "malibu: gdb: kill\n");
    G.quit(0);
}

/* sys_exec.c's debug hook, on the vCPU's thread. */
static void hook(SysCPU *s, SysDebugEvent ev, void *opaque)
{
    (void)opaque;
    pthread_mutex_lock(&G.mu);
    if (ev != SYS_DBG_POLL && !G.have_event) {
        G.have_event = true;
        G.event = (GdbStop){ .cpu = s->index, .signal = 5 };
        if (ev == SYS_DBG_WATCH) {
            unsigned k = sys_debug_watch_hit(&G.dbg, s->cpu.fault_addr, 1, s->cpu.fault_write);
            G.event.watch_type = k == SYS_WATCH_ACCESS ? GDB_WP_ACCESS : k == SYS_WATCH_READ ? GDB_WP_READ
                                                                                          : GDB_WP_WRITE;
            G.event.watch_addr = s->cpu.fault_addr;
        }
        G.dbg.halt = 1;
        kick_all();
    }
    uint64_t gen = G.gen;
    G.released[s->index] = false;
    /* stopped: every vCPU parked here, or unable to run (smp_stopped_with) */
    bool last = ++G.parked + smp_stopped_with(s->index) == G.ncpu;
    GdbStop st = G.have_event ? G.event : (GdbStop){ .cpu = s->index, .signal = G.halt_signal };
    pthread_mutex_unlock(&G.mu);
    if (last)
        gdb_server_stopped(G.srv, &st);
    pthread_mutex_lock(&G.mu);
    while (!(G.gen != gen && G.released[s->index]) && !G.m->stop)
        pthread_cond_wait(&G.cv, &G.mu);
    G.parked--;
    s->dbg_step = G.step[s->index];
    pthread_mutex_unlock(&G.mu);
}

void gdb_board_wake(void)
{
    pthread_mutex_lock(&G.mu);
    pthread_cond_broadcast(&G.cv);
    pthread_mutex_unlock(&G.mu);
}

void gdb_board_exited(int status)
{
    if (G.srv)
        gdb_server_exited(G.srv, status);
}

/* ---- monitor commands ------------------------------------------------------------------- */

static void mon_tlb(SysCPU *s, GdbOut *out)
{
    unsigned n = 0;
    gdb_printf(out, "vCPU %u soft TLB, EL%u regime (VA -> PA, r/w/x allowed on the fast path):\n", s->index, s->el);
    for (unsigned i = 0; i < SYS_TLB_SIZE; i++) {
        SysTlbEntry *e = &s->tlb[i];
        uint64_t va = e->tag_r != SYS_TLB_INVALID ? e->tag_r : e->tag_w != SYS_TLB_INVALID ? e->tag_w : e->tag_x;
        if (va == SYS_TLB_INVALID)
            continue;
        if (n++ < 64)
            gdb_printf(out, "  %016llx -> %010llx %c%c%c%s\n", (unsigned long long)va, (unsigned long long)e->pa,
                       e->tag_r == va ? 'r' : '-', e->tag_w == va ? 'w' : '-', e->tag_x == va ? 'x' : '-',
                       e->global ? " global" : "");
    }
    gdb_printf(out, "%u valid entries%s\n", n, n > 64 ? " (first 64 shown)" : "");
}

static void mon_translate(SysCPU *s, const char *arg, GdbOut *out)
{
    char *end;
    uint64_t va = strtoull(arg, &end, 0);
    if (end == arg) {
        gdb_printf(out, "usage: monitor translate VA\n");
        return;
    }
    for (unsigned el = 0; el < 2; el++) {
        MmuResult r;
        if (mmu_translate(s, va, el, MMU_READ, &r) || r.fsc == 0)
            gdb_printf(out, "EL%u: %#llx -> PA %#llx, %s%s%s, %llu KB mapping, attr %u%s\n", el,
                       (unsigned long long)va, (unsigned long long)r.pa, r.perm & MMU_READ ? "r" : "-",
                       r.perm & MMU_WRITE ? "w" : "-", r.perm & MMU_EXEC ? "x" : "-",
                       (unsigned long long)(r.size >> 10), r.attr, r.ng ? ", not global" : "");
        else
            gdb_printf(out, "EL%u: %#llx: fault, FSC %#x%s\n", el, (unsigned long long)va, r.fsc,
                       r.s1ptw ? " (on a table walk)" : "");
    }
}

static void mon_xp(const char *arg, GdbOut *out)
{
    char *end;
    uint64_t pa = strtoull(arg, &end, 0), len = 64;
    if (end == arg) {
        gdb_printf(out, "usage: monitor xp PHYS-ADDR [LEN]   (RAM only, LEN <= 4096)\n");
        return;
    }
    if (*end)
        len = strtoull(end, NULL, 0);
    if (len > 4096)
        len = 4096;
    for (uint64_t o = 0; o < len; o += 16) {
        gdb_printf(out, "%010llx:", (unsigned long long)(pa + o));
        for (uint64_t i = o; i < len && i < o + 16; i++) {
            uint8_t *h = bus_ram_ptr(G.m->bus, (pa + i) & SYS_PAGE_MASK, false);
            if (!h) {
                gdb_printf(out, " (not RAM)\n");
                return;
            }
            gdb_printf(out, " %02x", h[(pa + i) & 0xfff]);
        }
        gdb_printf(out, "\n");
    }
}

/* Mali job slots and address spaces from the device's registers (read-only ones). */
static void mon_gpu(GdbOut *out)
{
    Mali *gpu = G.board->gpu;
    if (!gpu) {
        gdb_printf(out, "no GPU on this board (--gpu none)\n");
        return;
    }
#define R(off) ((uint32_t)mali_mmio_read(gpu, (off), 4))
    gdb_printf(out, "%s: GPU_IRQ_RAWSTAT %08x JOB_IRQ_RAWSTAT %08x MMU_IRQ_RAWSTAT %08x\n",
               mali_model(gpu)->name, R(0x20), R(0x1000), R(0x2000));
    for (unsigned js = 0; js < 3; js++) {
        uint32_t b = 0x1800 + js * 0x80;
        gdb_printf(out, "job slot %u: HEAD %08x%08x TAIL %08x%08x CONFIG %08x STATUS %08x HEAD_NEXT %08x%08x\n",
                   js, R(b + 4), R(b), R(b + 0xc), R(b + 8), R(b + 0x18), R(b + 0x24), R(b + 0x44), R(b + 0x40));
    }
    for (unsigned as = 0; as < 8; as++) {
        uint32_t b = 0x2400 + as * 0x40;
        uint64_t tt = (uint64_t)R(b + 4) << 32 | R(b);
        uint32_t fs = R(b + 0x1c);
        if (!tt && !fs)
            continue;
        gdb_printf(out, "address space %u: TRANSTAB %016llx MEMATTR %08x%08x STATUS %08x FAULTSTATUS %08x FAULTADDRESS %08x%08x\n",
                   as, (unsigned long long)tt, R(b + 0xc), R(b + 8), R(b + 0x28), fs, R(b + 0x24), R(b + 0x20));
    }
#undef R
}

static void t_monitor(void *o, unsigned cpu, const char *cmd, GdbOut *out)
{
    (void)o;
    SysCPU *s = G.cpus[cpu < G.ncpu ? cpu : 0];
    while (*cmd == ' ')
        cmd++;
    size_t w = strcspn(cmd, " ");
    const char *arg = cmd + w + strspn(cmd + w, " ");
    if (w == 3 && !strncmp(cmd, "tlb", 3))
        mon_tlb(s, out);
    else if (w == 9 && !strncmp(cmd, "translate", 9))
        mon_translate(s, arg, out);
    else if (w == 2 && !strncmp(cmd, "xp", 2))
        mon_xp(arg, out);
    else if (w == 3 && !strncmp(cmd, "gpu", 3))
        mon_gpu(out);
    else
        gdb_printf(out, "malibu monitor commands:\n"
                        "  tlb              the selected vCPU's soft-TLB entries (current regime)\n"
                        "  translate VA     stage-1 translation of VA at EL0 and EL1\n"
                        "  xp PA [LEN]      physical memory (RAM), hex\n"
                        "  gpu              Mali job slots and address spaces\n");
}

static const GdbTarget target = {
    .target_xml = target_xml,
    .ncpus = t_ncpus, .nregs = t_nregs, .read_reg = t_read_reg, .write_reg = t_write_reg,
    .read_mem = t_read_mem, .write_mem = t_write_mem,
    .insert_point = t_insert, .remove_point = t_remove, .remove_all_points = t_remove_all,
    .monitor = t_monitor, .halt = t_halt, .resume = t_resume, .kill = t_kill,
};

bool gdb_board_start(const char *spec, bool wait, struct Board *board, SysMachine *m, SysCPU **cpus,
                     unsigned ncpu, void (*quit)(int status), char *err, size_t errlen)
{
    if (ncpu > GDB_MAX_CPUS) {
        snprintf(err, errlen, "--gdb: at most %d vCPUs", GDB_MAX_CPUS);
        return false;
    }
    build_target_xml();
    G.board = board;
    G.m = m;
    G.cpus = cpus;
    G.ncpu = ncpu;
    G.quit = quit;
    G.halt_signal = 5;
    G.dbg.hook = hook;
    G.srv = gdb_server_start(spec, &target, err, errlen);
    if (!G.srv)
        return false;
    G.dbg.halt = wait;
    if (wait)
        fprintf(stderr, "malibu: gdb: the CPU waits for gdb (--gdb-wait)\n");
    m->dbg = &G.dbg;
    return true;
}
