/* Full-system CPU (build/malibu core, -DCONFIG_SYSTEM): small guest programs run on a bare
 * machine (RAM at 0x8000_0000, GIC, generic timer) through sys_cpu_run().  They stop with an
 * HVC #0 that the test's firmware hook records.
 *
 * - exceptions: ERET to EL0, SVC (EC 0x15, ELR = next insn), HVC at EL0 and MRS MIDR_EL1 at EL0
 *   are UNDEFINED (EC 0), SPSR_EL1 of an EL0t caller, vector offset 0x400 (lower EL, AArch64);
 * - self-modifying code: a store over an already translated instruction is seen on the next pass;
 *   a store into another code page drops that page's blocks only (no full flush);
 *   code rewritten behind the CPU (device DMA) is seen after IC IVAU;
 * - ID registers: PFR0/MMFR0/MIDR values, unallocated ID space reads as zero, CurrentEL = EL1;
 * - data abort from EL1 with the MMU off beyond the 40-bit PA range (address size fault);
 * - WFI returns when the virtual timer interrupt is pending (host sleeps meanwhile);
 * - branches into another page (direct BL, indirect BLR and RET back) follow a remapping of
 *   that page after TLBI, once their targets were translated and looked up many times;
 * - one BR site with eight targets: a target rewritten by a store is seen at once; one BLR
 *   site into a remapped page takes the new page's block, not the old one still in the jump
 *   cache, once the page's execute entry is back in the TLB; a return into a page remapped
 *   (TLBI, ISB) inside the callee fetches the new page's code; a BL site chained into a page
 *   whose code a store rewrites runs the new code; a BLR site into a block
 *   translated with FP enabled traps once FP is disabled (the jump cache's CPU-state key);
 * - two vCPUs in one machine: a store by one into code the other translated makes the other
 *   run the new code; TLBI ...IS reaches the other vCPU's TLB, TLBI without IS does not;
 * - the PMU: ID values, exact instruction and cycle counts at EL1, a 32-bit counter's overflow
 *   flag and interrupt level;
 * - FEAT_PAN: EL1 accesses to EL0 pages fault with PSTATE.PAN set (TLB entries filled before
 *   included), LDTR/STTR do not, SPAN and ERET; absent on --cpu a57; LDTR/STTR at EL1 to an
 *   EL1-only page fault after an EL1 access filled its entry;
 * - a loop inside one block (native.c): the timer interrupt is taken during a tight loop, and
 *   with the quantum checked the loop stops within a block's length of insn_limit;
 * - LSE atomics and DC ZVA on RAM (native code after the soft-TLB write probe);
 * - a run of loads or stores off one base sharing one probe, which the end of RAM cuts: each
 *   access up to the faulting one completes, the abort names that one, NZCV as before the run. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "sys_cpu.h"
#include "sys_timing.h"
#include "tb.h"
#include "native.h"
#include "bus.h"
#include "gic400.h"
#include "gtimer.h"

#define RAM 0x80000000ull

static SysMachine mach;
static SysCPU *cpu;
static uint8_t *ram;
static uint64_t hvc_regs[32];
static int hvc_calls;

static void hook(SysCPU *s, bool smc)
{
    (void)smc;
    if (s->cpu.x[0] == 0x43) { /* "device DMA": rewrite the first instruction behind the CPU */
        static const uint32_t movz_x1_2 = 0xd2800041;
        memcpy(ram, &movz_x1_2, 4);
        return;
    }
    if (s->cpu.x[0] == 0x44) { /* remap VA 0x2000 to the second version of page B */
        uint64_t pte = RAM + 0x3000 + 3 + (1ull << 10);
        memcpy(ram + 0x13000 + 2 * 8, &pte, 8);
        return;
    }
    memcpy(hvc_regs, s->cpu.x, sizeof hvc_regs);
    hvc_calls++;
    mach.stop_status = 0;
    mach.stop = 1;
}

/* GIC output: what the board does (board.c gic_output + main.c irq_notify). */
static void gic_out(void *opaque, unsigned n, bool irq, bool fiq)
{
    (void)opaque;
    if ((irq || fiq) && mach.gtimer)
        gtimer_kick(mach.gtimer, n);
    if ((irq || fiq) && cpu)
        cpu->cpu.exit_request = 1;
}

static void setup(void)
{
    memset(&mach, 0, sizeof mach);
    mach.bus = bus_new();
    ram = bus_add_ram(mach.bus, "ram", RAM, 16 << 20, false);
    ck_assert_ptr_nonnull(ram);
    bus_freeze(mach.bus);
    cpu = NULL;
    mach.gic = gic_new(1, gic_out, NULL);
    mach.gtimer = gtimer_new(mach.gic, 1);
    mach.code_map = mmap(NULL, SYS_CODE_MAP_PA_LIMIT >> 12, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ck_assert(mach.code_map != MAP_FAILED);
    cpu = aligned_alloc(64, (sizeof(SysCPU) + 63) & ~(size_t)63);
    memset(cpu, 0, sizeof *cpu);
    cpu_init(&cpu->cpu);
    cpu->cpu.tbc = tbc_new(16 << 20);
    cpu->mach = &mach;
    sys_firmware_call = hook;
    hvc_calls = 0;
    sys_cpu_reset(cpu, RAM);
}

static void teardown(void)
{
    tbc_free(cpu->cpu.tbc);
    sys_code_free(cpu);
    free(cpu);
    munmap(mach.code_map, SYS_CODE_MAP_PA_LIMIT >> 12);
    gtimer_free(mach.gtimer);
    gic_free(mach.gic);
    bus_free(mach.bus);
}

static void load(uint64_t off, const uint32_t *w, size_t n)
{
    memcpy(ram + off, w, n * 4);
}

static uint64_t rd64(uint64_t off)
{
    uint64_t v;
    memcpy(&v, ram + off, 8);
    return v;
}

START_TEST(svc_undef_eret)
{
    static const uint32_t main_code[] = {
        0xd2b00000, /* movz x0, #0x8000, lsl #16 */
        0x91200000, /* add x0, x0, #0x800 */
        0xd518c000, /* msr vbar_el1, x0 */
        0xd2b00014, /* movz x20, #0x8000, lsl #16 */
        0x91400694, /* add x20, x20, #0x1000 (log) */
        0x10000081, /* adr x1, el0 */
        0xd5184021, /* msr elr_el1, x1 */
        0xd518401f, /* msr spsr_el1, xzr */
        0xd69f03e0, /* eret */
        0xd4002461, /* el0: svc #0x123 */
        0xd4000002, /* hvc #0 (UNDEFINED at EL0) */
        0xd5380005, /* mrs x5, midr_el1 (UNDEFINED at EL0) */
        0xd4000021, /* svc #1 */
        0x14000000, /* b . */
    };
    static const uint32_t lower_sync[] = { /* VBAR + 0x400 */
        0xd538520a, /* mrs x10, esr_el1 */
        0xf800868a, /* str x10, [x20], #8 */
        0xd538402b, /* mrs x11, elr_el1 */
        0xf800868b, /* str x11, [x20], #8 */
        0xd538400c, /* mrs x12, spsr_el1 */
        0xf800868c, /* str x12, [x20], #8 */
        0xd2aac00d, /* movz x13, #0x5600, lsl #16 */
        0x910005ad, /* add x13, x13, #1 */
        0xeb0d015f, /* cmp x10, x13 */
        0x540000e0, /* b.eq done */
        0xd35afd4e, /* lsr x14, x10, #26 */
        0xf10055df, /* cmp x14, #0x15 */
        0x54000060, /* b.eq 1f */
        0x9100116b, /* add x11, x11, #4 */
        0xd518402b, /* msr elr_el1, x11 */
        0xd69f03e0, /* 1: eret */
        0xd2b08000, /* done: movz x0, #0x8400, lsl #16 */
        0x91002000, /* add x0, x0, #8 */
        0xd4000002, /* hvc #0 */
        0x14000000, /* b . */
    };
    load(0, main_code, sizeof main_code / 4);
    load(0xc00, lower_sync, sizeof lower_sync / 4);
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_int_eq(hvc_calls, 1);
    ck_assert_uint_eq(hvc_regs[0], 0x84000008);
    static const uint64_t want[][3] = {
        { 0x56000123, RAM + 0x28, 0 }, /* SVC: ELR = next insn, SPSR = EL0t */
        { 0x02000000, RAM + 0x28, 0 }, /* HVC at EL0: UNDEFINED, ELR = the HVC */
        { 0x02000000, RAM + 0x2c, 0 }, /* MRS MIDR_EL1 at EL0: UNDEFINED */
        { 0x56000001, RAM + 0x34, 0 },
    };
    for (unsigned i = 0; i < 4; i++)
        for (unsigned j = 0; j < 3; j++)
            ck_assert_msg(rd64(0x1000 + (i * 3 + j) * 8) == want[i][j], "log[%u][%u] = %#llx, want %#llx",
                          i, j, (unsigned long long)rd64(0x1000 + (i * 3 + j) * 8),
                          (unsigned long long)want[i][j]);
    ck_assert_uint_eq(cpu->el, 1);
    ck_assert_uint_eq(cpu->daif, 0x3c0); /* masked on exception entry */
}
END_TEST

START_TEST(self_modifying_and_id_regs)
{
    static const uint32_t code[] = {
        0xd2800021, /* movz x1, #1 */
        0xb50000c2, /* cbnz x2, 1f */
        0xd2800022, /* movz x2, #1 */
        0x18000163, /* ldr w3, newinsn */
        0xd2b00004, /* movz x4, #0x8000, lsl #16 (_start) */
        0xb9000083, /* str w3, [x4] */
        0x17fffffa, /* b _start */
        0xd5380405, /* 1: mrs x5, id_aa64pfr0_el1 */
        0xd5380706, /* mrs x6, id_aa64mmfr0_el1 */
        0xd53807e7, /* mrs x7, s3_0_c0_c7_7 (unallocated: RAZ) */
        0xd5380008, /* mrs x8, midr_el1 */
        0xd5384249, /* mrs x9, currentel */
        0xd2800840, /* movz x0, #0x42 */
        0xd4000002, /* hvc #0 */
        0xd2800041, /* newinsn: movz x1, #2 */
    };
    load(0, code, sizeof code / 4);
    cpu->cpu.x[7] = 0x1234;
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_uint_eq(hvc_regs[0], 0x42);
    ck_assert_uint_eq(hvc_regs[1], 2); /* the rewritten instruction ran */
    ck_assert_uint_eq(hvc_regs[5], 0x1100000000110011ull); /* FP, AdvSIMD = 1: FEAT_FP16 (max) */
    ck_assert_uint_eq(hvc_regs[6], 0x0F000022ull);
    ck_assert_uint_eq(hvc_regs[7], 0);
    ck_assert_uint_eq(hvc_regs[8], 0x411FD070ull);
    ck_assert_uint_eq(hvc_regs[9], 4);
}
END_TEST

START_TEST(store_drops_only_that_page)
{
    static const uint32_t page_b[] = { 0xd2800021 /* movz x1, #1 */, 0xd65f03c0 /* ret */ };
    static const uint32_t code[] = {
        0xd2b00005, /* movz x5, #0x8000, lsl #16 */
        0x914004a5, /* add x5, x5, #1, lsl #12: page B */
        0xd2800003, /* movz x3, #0 */
        0xd2800004, /* movz x4, #0 */
        0xd63f00a0, /* 1: blr x5 */
        0x8b010063, /* add x3, x3, x1 */
        0x91000484, /* add x4, x4, #1 */
        0xf100209f, /* cmp x4, #8 */
        0x54ffff81, /* b.ne 1b */
        0x180001a6, /* ldr w6, newinsn */
        0xb90000a6, /* str w6, [x5]: rewrites page B's first instruction */
        0xd50b7525, /* ic ivau, x5 */
        0xd5033b9f, /* dsb ish */
        0xd5033fdf, /* isb */
        0xd2800004, /* movz x4, #0 */
        0xd63f00a0, /* 2: blr x5 */
        0x8b010063, /* add x3, x3, x1 */
        0x91000484, /* add x4, x4, #1 */
        0xf100209f, /* cmp x4, #8 */
        0x54ffff81, /* b.ne 2b */
        0xd2800840, /* movz x0, #0x42 */
        0xd4000002, /* hvc #0 */
        0xd2800041, /* newinsn: movz x1, #2 */
    };
    load(0, code, sizeof code / 4);
    load(0x1000, page_b, 2);
    uint64_t flushes = cpu->cpu.tbc->n_flushes;
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_uint_eq(hvc_regs[0], 0x42);
    ck_assert_uint_eq(hvc_regs[3], 8 * 1 + 8 * 2);
    ck_assert_uint_eq(cpu->cpu.tbc->n_flushes, flushes); /* no full flush */
    ck_assert_uint_eq(cpu->n_tb_dropped, 1);            /* page B's one block */
}
END_TEST

START_TEST(ic_ivau_after_dma)
{
    static const uint32_t code[] = {
        0xd2800021, /* movz x1, #1 */
        0xb5000122, /* cbnz x2, 3f */
        0xd2800022, /* movz x2, #1 */
        0xd2800860, /* movz x0, #0x43 */
        0xd4000002, /* hvc #0: the hook rewrites word 0 in RAM (not a CPU store) */
        0xd2b00004, /* movz x4, #0x8000, lsl #16 */
        0xd50b7524, /* ic ivau, x4 */
        0xd5033b9f, /* dsb ish */
        0xd5033fdf, /* isb */
        0x17fffff7, /* b _start */
        0xd2800840, /* 3: movz x0, #0x42 */
        0xd4000002, /* hvc #0 */
    };
    load(0, code, sizeof code / 4);
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_uint_eq(hvc_regs[0], 0x42);
    ck_assert_uint_eq(hvc_regs[1], 2);
}
END_TEST

START_TEST(miss_path_keeps_cached_registers)
{
    /* One block whose loads miss the soft TLB (fresh pages): the miss path writes the cached
     * registers back for the handler and reloads what it loaded (LDP, a post-indexed LDR's
     * value and base) into the registers the rest of the block reads. */
    static const uint32_t code[] = {
        0xd2b00005, /* movz x5, #0x8000, lsl #16 */
        0x914008a5, /* add x5, x5, #2, lsl #12 */
        0xd28000e1, /* movz x1, #7 */
        0x91000421, /* add x1, x1, #1: x1 cached, dirty */
        0xa9400ca2, /* ldp x2, x3, [x5]: miss */
        0x8b030044, /* add x4, x2, x3 */
        0x914004a5, /* add x5, x5, #1, lsl #12 */
        0xf84084a7, /* ldr x7, [x5], #8: miss */
        0x8b0500e8, /* add x8, x7, x5 */
        0x8b040029, /* add x9, x1, x4 */
        0x69412caa, /* ldpsw x10, x11, [x5, #8] */
        0x8b0b014c, /* add x12, x10, x11 */
        0xd2800840, /* movz x0, #0x42 */
        0xd4000002, /* hvc #0 */
    };
    load(0, code, sizeof code / 4);
    const uint64_t a = 0x0123456789abcdefull, b = 0x1000000000000001ull, c = 0x55;
    const int32_t w[2] = { -5, 9 };
    memcpy(ram + 0x2000, &a, 8);
    memcpy(ram + 0x2008, &b, 8);
    memcpy(ram + 0x3000, &c, 8);
    memcpy(ram + 0x3010, w, 8);
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_uint_eq(hvc_regs[0], 0x42);
    ck_assert_uint_eq(hvc_regs[2], a);
    ck_assert_uint_eq(hvc_regs[3], b);
    ck_assert_uint_eq(hvc_regs[4], a + b);
    ck_assert_uint_eq(hvc_regs[5], RAM + 0x3008);
    ck_assert_uint_eq(hvc_regs[7], c);
    ck_assert_uint_eq(hvc_regs[8], c + RAM + 0x3008);
    ck_assert_uint_eq(hvc_regs[9], 8 + a + b);
    ck_assert_uint_eq(hvc_regs[10], (uint64_t)-5);
    ck_assert_uint_eq(hvc_regs[12], 4);
    ck_assert_uint_ge(cpu->n_tlb_miss, 3); /* code, the LDP's page, the LDR's page */
}
END_TEST

START_TEST(atomics_and_dc_zva_on_ram)
{
    /* LSE atomics and DC ZVA at EL1 on RAM (native code: host locked instructions and stores
     * after the soft-TLB write probe, native_atomic.c, native_sys.c): every operation and
     * size kind, results in registers the block reads on, a CAS that fails, ST<op> (XZR
     * destination), and an atomic whose page misses the TLB (the handler on the miss path). */
    static const uint32_t code[] = {
        0xd2b00005, /* movz x5, #0x8000, lsl #16: RAM */
        0x914010a5, /* add x5, x5, #4, lsl #12: data at RAM + 0x4000 */
        0xf90100bf, /* str xzr, [x5, #512]: the page's write tag, so the atomics below hit */
        0xd28000a1, /* mov x1, #5 */
        0xd2822228, /* mov x8, #4369 */
        0xd2844449, /* mov x9, #8738 */
        0xd28000ea, /* mov x10, #7 */
        0xd286666b, /* mov x11, #13107 */
        0xd2801fef, /* mov x15, #255 */
        0x91000421, /* add x1, x1, #1: x1 = 6, cached and dirty */
        0xf8e100a2, /* ldaddal x1, x2, [x5] */
        0x8b010043, /* add x3, x2, x1 */
        0x910020a6, /* add x6, x5, #8 */
        0xb8e380c4, /* swpal w3, w4, [x6] */
        0x910040a7, /* add x7, x5, #16 */
        0xc8e8fce9, /* casal x8, x9, [x7] */
        0xc8aa7ceb, /* cas x10, x11, [x7] */
        0x910060ac, /* add x12, x5, #24 */
        0x3821318d, /* ldsetb w1, w13, [x12] */
        0x910068ae, /* add x14, x5, #26 */
        0x782f11d0, /* ldclrh w15, w16, [x14] */
        0x910080b1, /* add x17, x5, #32 */
        0xf8222232, /* ldeor x2, x18, [x17] */
        0xf82100bf, /* stadd x1, [x5] */
        0x910114b3, /* add x19, x5, #69 */
        0xd50b7433, /* dc zva, x19 */
        0x914004b4, /* add x20, x5, #1, lsl #12 */
        0xf8210295, /* ldadd x1, x21, [x20]: a fresh page, the miss path */
        0x8b0102b6, /* add x22, x21, x1 */
        0xd2800840, /* movz x0, #0x42 */
        0xd4000002, /* hvc #0 */
    };
    load(0, code, sizeof code / 4);
    uint8_t *m = ram + 0x4000;
    const uint64_t w0 = 100, w16 = 0x1111, w32 = 0x0123456789abcdefull, w1000 = 40;
    const uint32_t w8 = 0xdeadbeef;
    const uint8_t b24 = 0xf0;
    const uint16_t h26 = 0xffff;
    memcpy(m, &w0, 8);
    memcpy(m + 8, &w8, 4);
    memcpy(m + 16, &w16, 8);
    memcpy(m + 24, &b24, 1);
    memcpy(m + 26, &h26, 2);
    memcpy(m + 32, &w32, 8);
    memset(m + 0x3f, 0xaa, 0x42);
    memcpy(m + 0x1000, &w1000, 8);
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_uint_eq(hvc_regs[0], 0x42);
    ck_assert_uint_eq(hvc_regs[2], 100);                 /* LDADDAL: old */
    ck_assert_uint_eq(hvc_regs[3], 106);
    ck_assert_uint_eq(hvc_regs[4], 0xdeadbeef);          /* SWPAL W: old */
    uint32_t v32;
    memcpy(&v32, m + 8, 4);
    ck_assert_uint_eq(v32, 106);
    ck_assert_uint_eq(hvc_regs[8], 0x1111);              /* CASAL: compared equal */
    ck_assert_uint_eq(hvc_regs[10], 0x2222);             /* CAS: failed, Rs = the memory */
    ck_assert_uint_eq(rd64(0x4010), 0x2222);
    ck_assert_uint_eq(hvc_regs[13], 0xf0);               /* LDSETB */
    ck_assert_uint_eq(m[24], 0xf6);
    ck_assert_uint_eq(hvc_regs[16], 0xffff);             /* LDCLRH */
    uint16_t v16;
    memcpy(&v16, m + 26, 2);
    ck_assert_uint_eq(v16, 0xff00);
    ck_assert_uint_eq(m[25], 0);
    ck_assert_uint_eq(m[28], 0);
    ck_assert_uint_eq(hvc_regs[18], w32);                /* LDEOR X */
    ck_assert_uint_eq(rd64(0x4020), w32 ^ 100);
    ck_assert_uint_eq(rd64(0x4000), 112);                /* LDADDAL, then STADD */
    ck_assert_uint_eq(hvc_regs[21], 40);                 /* LDADD on the miss path */
    ck_assert_uint_eq(hvc_regs[22], 46);
    ck_assert_uint_eq(rd64(0x5000), 46);
    for (unsigned i = 0x40; i < 0x80; i++)               /* DC ZVA: the aligned 64 bytes */
        ck_assert_uint_eq(m[i], 0);
    ck_assert_uint_eq(m[0x3f], 0xaa);
    ck_assert_uint_eq(m[0x80], 0xaa);
}
END_TEST

static uint32_t a64_bl(unsigned from, unsigned to) { return 0x94000000u | (((to - from) >> 2) & 0x3ffffff); }
static uint32_t a64_bne(unsigned from, unsigned to) { return 0x54000001u | ((((to - from) >> 2) & 0x7ffff) << 5); }

/* The two cross-page tests' memory: VA page 0x1000 -> RAM + 0x1000 (the test's code), VA page
 * 0x2000 -> RAM + 0x2000 ("movz x1, #1; ret"); RAM + 0x3000 holds "movz x1, #2; ret", where the
 * remap hook (hvc #0 with x0 = 0x44) points VA 0x2000. */
static void cross_page_tables(void)
{
    uint64_t d[] = { RAM + 0x11000 + 3, RAM + 0x12000 + 3, RAM + 0x13000 + 3,
                     RAM + 0x1000 + 3 + (1ull << 10), RAM + 0x2000 + 3 + (1ull << 10) };
    memcpy(ram + 0x10000, &d[0], 8);          /* L0[0] */
    memcpy(ram + 0x11000, &d[1], 8);          /* L1[0] */
    memcpy(ram + 0x12000, &d[2], 8);          /* L2[0] */
    memcpy(ram + 0x13000 + 1 * 8, &d[3], 8);  /* L3[1]: VA 0x1000 */
    memcpy(ram + 0x13000 + 2 * 8, &d[4], 8);  /* L3[2]: VA 0x2000 -> RAM + 0x2000, then 0x3000 */
    static const uint32_t page_b1[] = { 0xd2800021 /* movz x1, #1 */, 0xd65f03c0 /* ret */ };
    static const uint32_t page_b2[] = { 0xd2800041 /* movz x1, #2 */, 0xd65f03c0 /* ret */ };
    load(0x2000, page_b1, 2);
    load(0x3000, page_b2, 2);
}

/* Load code at VA 0x1000, turn the MMU on with cross_page_tables' tables and run it. */
static void cross_page_run(const uint32_t *a, unsigned n)
{
    load(0x1000, a, n);
    cpu->ttbr0 = RAM + 0x10000;
    cpu->tcr = 16 | (1ull << 23); /* T0SZ = 16, 4 KB granule, TTBR1 walks disabled */
    cpu->mair = 0xff;
    cpu->sctlr |= SCTLR_M;
    sys_update_mode(cpu);
    cpu->cpu.pc = 0x1000;
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
}

START_TEST(cross_page_branch_after_remap)
{
    cross_page_tables();
    uint32_t a[32];
    unsigned n = 0, va = 0x1000;
#define AT (va + 4 * n)
    a[n++] = 0xd2840005; /* movz x5, #0x2000 */
    a[n++] = 0xd2800003; /* movz x3, #0 */
    a[n++] = 0xd2800004; /* movz x4, #0 */
    for (int pass = 0; pass < 2; pass++) {
        unsigned loop = AT;
        a[n] = a64_bl(AT, 0x2000), n++;
        a[n++] = 0x8b010063; /* add x3, x3, x1 */
        a[n++] = 0xd63f00a0; /* blr x5 */
        a[n++] = 0x8b010063; /* add x3, x3, x1 */
        a[n++] = 0x91000484; /* add x4, x4, #1 */
        a[n++] = 0xf100209f; /* cmp x4, #8 */
        a[n] = a64_bne(AT, loop), n++;
        if (pass == 0) {
            a[n++] = 0xd2800880; /* movz x0, #0x44 */
            a[n++] = 0xd4000002; /* hvc #0: the hook remaps VA 0x2000 */
            a[n++] = 0xd508871f; /* tlbi vmalle1 */
            a[n++] = 0xd5033b9f; /* dsb ish */
            a[n++] = 0xd5033fdf; /* isb */
            a[n++] = 0xf94000a6; /* ldr x6, [x5]: refills the TLB entry before any branch does */
            a[n++] = 0xd2800004; /* movz x4, #0 */
        }
    }
    a[n++] = 0xd2800840; /* movz x0, #0x42 */
    a[n++] = 0xd4000002; /* hvc #0 */
#undef AT
    ck_assert_uint_le(n, 32);
    cross_page_run(a, n);
    ck_assert_uint_eq(hvc_regs[0], 0x42);
    ck_assert_uint_eq(hvc_regs[3], 16 * 1 + 16 * 2); /* 8 x (BL + BLR) before, 8 after the remap */
    ck_assert_uint_eq(hvc_regs[1], 2);
    ck_assert_uint_eq(hvc_regs[6], 0xd65f03c0d2800041ull); /* the new page's bytes */
}
END_TEST

/* The program of the loop tests below: a call site in a loop of 8 rounds into the page at VA
 * 0x2000 (x5 = 0x2000, x8 = 0x2008; each call adds its x1 to x3), then `between` (nb
 * instructions: a remap, a code write), and the loop's 8 rounds again.  site_bl: the site is
 * `bl 0x2000`, else `blr x5`.  Returns the instruction count. */
static unsigned two_pass_program(uint32_t *a, bool site_bl, const uint32_t *between, unsigned nb)
{
    unsigned n = 0, va = 0x1000;
#define AT (va + 4 * n)
    a[n++] = 0xd2840005; /* movz x5, #0x2000 */
    a[n++] = 0xd2840108; /* movz x8, #0x2008 */
    a[n++] = 0xd2800003; /* movz x3, #0 */
    a[n++] = 0xd2800004; /* movz x4, #0 */
    a[n++] = 0xd2800007; /* movz x7, #0: pass */
    unsigned loop = AT;
    a[n] = site_bl ? a64_bl(AT, 0x2000) : 0xd63f00a0 /* blr x5 */, n++;
    a[n++] = 0x8b010063; /* add x3, x3, x1 */
    a[n++] = 0x91000484; /* add x4, x4, #1 */
    a[n++] = 0xf100209f; /* cmp x4, #8 */
    a[n] = a64_bne(AT, loop), n++;
    unsigned cbnz = n++;
    a[n++] = 0xd2800027; /* movz x7, #1 */
    for (unsigned k = 0; k < nb; k++)
        a[n++] = between[k];
    a[n++] = 0xd2800004; /* movz x4, #0 */
    a[n] = 0x14000000u | (((loop - AT) >> 2) & 0x3ffffff), n++; /* b loop */
    a[cbnz] = 0xb5000007u | ((((AT - (va + 4 * cbnz)) >> 2) & 0x7ffff) << 5); /* cbnz x7, done */
    a[n++] = 0xd2800840; /* done: movz x0, #0x42 */
    a[n++] = 0xd4000002; /* hvc #0 */
#undef AT
    ck_assert_uint_le(n, 32);
    return n;
}

/* Between the passes of the remap tests: the hook remaps VA 0x2000, the TLB is flushed, and
 * `refill` (a BLR) runs to refill the execute entry with the new page; add_refill: the
 * refill's x1 is added to x3 too. */
static unsigned remap_loop_program(uint32_t *a, bool site_bl, uint32_t refill, bool add_refill)
{
    const uint32_t between[] = {
        0xd2800880, /* movz x0, #0x44 */
        0xd4000002, /* hvc #0: the hook remaps VA 0x2000 */
        0xd508871f, /* tlbi vmalle1 */
        0xd5033b9f, /* dsb ish */
        0xd5033fdf, /* isb */
        refill,
        0x8b010063, /* add x3, x3, x1: the last, left out without add_refill */
    };
    unsigned nb = sizeof between / sizeof between[0];
    return two_pass_program(a, site_bl, between, add_refill ? nb : nb - 1);
}

/* One BL site into another page, run before and after that page is remapped: once chained
 * (native code: a guarded cross-page chain), it must still follow the new mapping, even
 * with the TLB's execute entry refilled (by a BLR) before it runs again. */
START_TEST(cross_page_chain_same_site_after_remap)
{
    cross_page_tables();
    uint32_t a[32];
    unsigned n = remap_loop_program(a, true, 0xd63f00a0 /* blr x5 */, true);
    cross_page_run(a, n);
    ck_assert_uint_eq(hvc_regs[0], 0x42);
    ck_assert_uint_eq(hvc_regs[3], 8 * 1 + 2 + 8 * 2); /* 8 BLs, the BLR, 8 BLs after the remap */
}
END_TEST

/* One BLR site into another page, run before and after that page is remapped, with the TLB's
 * execute entry for the page refilled by a branch to another address in it: the jump-cache
 * probe then finds the old block (same pc, same page tag) and must see that its physical
 * address is not the page's new one. */
START_TEST(indirect_site_after_remap)
{
    cross_page_tables();
    static const uint32_t b1_other[] = { 0xd28000e2 /* movz x2, #7 */, 0xd65f03c0 /* ret */ };
    static const uint32_t b2_other[] = { 0xd2800102 /* movz x2, #8 */, 0xd65f03c0 /* ret */ };
    load(0x2008, b1_other, 2);
    load(0x3008, b2_other, 2);
    uint32_t a[32];
    unsigned n = remap_loop_program(a, false, 0xd63f0100 /* blr x8 */, false);
    cross_page_run(a, n);
    ck_assert_uint_eq(hvc_regs[0], 0x42);
    ck_assert_uint_eq(hvc_regs[2], 8);               /* the new page's other function */
    ck_assert_uint_eq(hvc_regs[3], 8 * 1 + 8 * 2);   /* 8 calls before the remap, 8 after */
}
END_TEST

/* One BL site chained into another page whose code is then rewritten by a store (its blocks
 * dropped at the next block boundary): the chained jump's guard must see the dropped block
 * even though the TLB did not change (chain_epoch moves with the drop). */
START_TEST(cross_page_chain_after_code_write)
{
    cross_page_tables();
    static const uint32_t write[] = {
        0x52800826, /* movz w6, #0x41 */
        0x72ba5006, /* movk w6, #0xd280, lsl #16: movz x1, #2 */
        0xb90000a6, /* str w6, [x5]: over the callee's first instruction */
        0xd5033b9f, /* dsb ish */
        0xd5033fdf, /* isb */
    };
    uint32_t a[32];
    unsigned n = two_pass_program(a, true, write, sizeof write / sizeof write[0]);
    cross_page_run(a, n);
    ck_assert_uint_eq(hvc_regs[0], 0x42);
    ck_assert_uint_eq(hvc_regs[3], 8 * 1 + 8 * 2); /* 8 calls before the store, 8 after */
}
END_TEST

/* A guest call's return point after the calling block's page is remapped inside the callee
 * (a PTE store through a mapping of the table, TLBI, DSB, ISB, then RET, with no exit to the
 * dispatcher in between): the return must fetch the new page's code.  VA 0x2000 holds
 * "mov x9, x30; bl remap; add x3, x3, #k; mov x30, x9; ret" with k = 1 in the first version and
 * 16 in the second; main calls it 16 times.  The callee writes the PTE of VA 0x2000 every time
 * (the same one until round 12, the second version's from then on), so that every path is
 * translated and chained before the remap.  Native code goes on from a return point into the
 * calling block unchecked, so the ISB must drop the call frames. */
START_TEST(return_point_after_remap_and_isb)
{
    cross_page_tables();
    uint64_t l3_map = RAM + 0x13000 + 3 + (1ull << 10);
    memcpy(ram + 0x13000 + 3 * 8, &l3_map, 8); /* L3[3]: VA 0x3000 -> the L3 table itself */
    enum { REMAP = 0x1040 };
    uint32_t caller[] = { 0xaa1e03e9 /* mov x9, x30 */, a64_bl(0x2004, REMAP), 0x91000463 /* add x3, x3, #1 */,
                          0xaa0903fe /* mov x30, x9 */, 0xd65f03c0 /* ret */ };
    load(0x2000, caller, 5);
    caller[2] = 0x91004063; /* add x3, x3, #16 */
    load(0x3000, caller, 5);
    uint32_t a[32];
    unsigned n = 0, va = 0x1000;
#define AT (va + 4 * n)
    a[n++] = 0xd2800003; /* movz x3, #0 */
    a[n++] = 0xd2800004; /* movz x4, #0 */
    a[n++] = 0xd2840005; /* movz x5, #0x2000 */
    a[n++] = 0xd284806c; /* movz x12, #0x2403 */
    a[n++] = 0xf2b0000c; /* movk x12, #0x8000, lsl #16: the PTE of RAM + 0x2000 */
    a[n++] = 0xd286806d; /* movz x13, #0x3403 */
    a[n++] = 0xf2b0000d; /* movk x13, #0x8000, lsl #16: the PTE of RAM + 0x3000 */
    unsigned loop = AT;
    a[n++] = 0xd63f00a0; /* blr x5 */
    a[n++] = 0x91000484; /* add x4, x4, #1 */
    a[n++] = 0xf100409f; /* cmp x4, #16 */
    a[n] = a64_bne(AT, loop), n++;
    a[n++] = 0xd2800840; /* movz x0, #0x42 */
    a[n++] = 0xd4000002; /* hvc #0 */
    while (AT < REMAP)
        a[n++] = 0xd503201f; /* nop */
    a[n++] = 0xf100309f; /* cmp x4, #12 */
    a[n++] = 0x9a8c21aa; /* csel x10, x13, x12, hs */
    a[n++] = 0xd286020b; /* movz x11, #0x3010: L3[2] through VA 0x3000 */
    a[n++] = 0xf900016a; /* str x10, [x11] */
    a[n++] = 0xd5033b9f; /* dsb ish */
    a[n++] = 0xd508871f; /* tlbi vmalle1 */
    a[n++] = 0xd5033b9f; /* dsb ish */
    a[n++] = 0xd5033fdf; /* isb */
    a[n++] = 0xd65f03c0; /* ret */
#undef AT
    ck_assert_uint_le(n, 32);
    cross_page_run(a, n);
    ck_assert_uint_eq(hvc_regs[0], 0x42);
    ck_assert_uint_eq(hvc_regs[4], 16);
    ck_assert_uint_eq(hvc_regs[3], 12 * 1 + 4 * 16); /* round 12's return is already in the new page */
}
END_TEST

/* One BR site (a jump table's dispatch, as in an interpreter) sends control to eight targets
 * in another page, 64 times; then one target is rewritten by a store (its block dropped while
 * the jump cache still holds it) and the same site runs 64 times again: the jump-cache probe
 * (native.c's lookup, sys_tb_find) must not take the dropped block. */
START_TEST(indirect_site_many_targets_after_rewrite)
{
    uint32_t a[32];
    unsigned n = 0;
    a[n++] = 0xd2b00005; /* movz x5, #0x8000, lsl #16 */
    a[n++] = 0x914004a5; /* add x5, x5, #1, lsl #12: the targets' page */
    a[n++] = 0xd2800003; /* movz x3, #0 */
    a[n++] = 0xd2800004; /* movz x4, #0 */
    unsigned loop = 4 * n;
    a[n++] = 0x92400886; /* and x6, x4, #7 */
    a[n++] = 0x8b0610a6; /* add x6, x5, x6, lsl #4 */
    a[n++] = 0xd61f00c0; /* br x6 */
    unsigned back = 4 * n;
    a[n++] = 0x91000484; /* add x4, x4, #1 */
    a[n++] = 0xf101009f; /* cmp x4, #64 */
    a[n] = a64_bne(4 * n, loop), n++;
    unsigned cbnz = n++;
    a[n++] = 0xd2800027; /* movz x7, #1 */
    unsigned ldr = n++;
    a[n++] = 0xb90030a6; /* str w6, [x5, #48]: target 3's first instruction */
    a[n++] = 0xd50b7525; /* ic ivau, x5 */
    a[n++] = 0xd5033b9f; /* dsb ish */
    a[n++] = 0xd5033fdf; /* isb */
    a[n++] = 0xd2800004; /* movz x4, #0 */
    a[n] = 0x14000000u | (((loop - 4 * n) >> 2) & 0x3ffffff), n++; /* b loop */
    a[cbnz] = 0xb5000007u | ((((4 * n - 4 * cbnz) >> 2) & 0x7ffff) << 5); /* cbnz x7, done */
    a[n++] = 0xd2800840; /* done: movz x0, #0x42 */
    a[n++] = 0xd4000002; /* hvc #0 */
    a[ldr] = 0x18000006u | (((n - ldr) & 0x7ffff) << 5); /* ldr w6, newinsn */
    a[n++] = 0x91019063; /* newinsn: add x3, x3, #100 */
    load(0, a, n);
    for (unsigned k = 0; k < 8; k++) { /* target k: add x3, x3, #k+1; b back */
        unsigned at = 0x1000 + 16 * k;
        uint32_t t[4] = { 0x91000063u | ((k + 1) << 10),
                          0x14000000u | (((back - (at + 4)) >> 2) & 0x3ffffff), 0xd503201f, 0xd503201f };
        load(at, t, 4);
    }
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_uint_eq(hvc_regs[0], 0x42);
    ck_assert_uint_eq(hvc_regs[3], 8 * 36 + (8 * 36 - 8 * 4 + 8 * 100));
}
END_TEST

/* A BLR site into a block translated with FP enabled (CPACR_EL1.FPEN = 3), called 8 times,
 * then FP disabled: the next BLR to it must not take that block from the jump cache (whose
 * key holds the CPU state, tb_flags), but a new one whose FMOV traps (EC 0x07). */
START_TEST(indirect_site_after_fp_trap_change)
{
    static const uint32_t code[] = {
        0xd2b00000, /* movz x0, #0x8000, lsl #16 */
        0x91200000, /* add x0, x0, #0x800 */
        0xd518c000, /* msr vbar_el1, x0 */
        0xd2a00601, /* movz x1, #0x30, lsl #16: FPEN = 3 */
        0xd5181041, /* msr cpacr_el1, x1 */
        0xd5033fdf, /* isb */
        0xd2b00005, /* movz x5, #0x8000, lsl #16 */
        0x910400a5, /* add x5, x5, #0x100: the FP function */
        0xd2800003, /* movz x3, #0 */
        0xd2800004, /* movz x4, #0 */
        0xd63f00a0, /* 1: blr x5 */
        0x91000484, /* add x4, x4, #1 */
        0xf100209f, /* cmp x4, #8 */
        0x54ffffa1, /* b.ne 1b */
        0xd518105f, /* msr cpacr_el1, xzr: FP traps */
        0xd5033fdf, /* isb */
        0xd63f00a0, /* blr x5 */
        0xd2800840, /* movz x0, #0x42: not trapped */
        0xd4000002, /* hvc #0 */
    };
    static const uint32_t fp_fn[] = {
        0x9e670020, /* fmov d0, x1 */
        0x91000463, /* add x3, x3, #1 */
        0xd65f03c0, /* ret */
    };
    static const uint32_t cur_sync[] = { /* VBAR + 0x200 */
        0xd538520a, /* mrs x10, esr_el1 */
        0xd28008a0, /* movz x0, #0x45 */
        0xd4000002, /* hvc #0 */
    };
    load(0, code, sizeof code / 4);
    load(0x100, fp_fn, sizeof fp_fn / 4);
    load(0xa00, cur_sync, sizeof cur_sync / 4);
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_uint_eq(hvc_regs[0], 0x45);
    ck_assert_uint_eq(hvc_regs[10] >> 26, 0x07);
    ck_assert_uint_eq(hvc_regs[3], 8);
}
END_TEST

/* A synchronous exception from the current EL (VBAR_EL1 + 0x200, VBAR at RAM + 0x800): ESR,
 * FAR, ELR and SPSR into x10-x13, then HVC to the test. */
static const uint32_t sync_log[] = {
    0xd538520a, /* mrs x10, esr_el1 */
    0xd538600b, /* mrs x11, far_el1 */
    0xd538402c, /* mrs x12, elr_el1 */
    0xd538400d, /* mrs x13, spsr_el1 */
    0xd4000002, /* hvc #0 */
};

START_TEST(data_abort_pa_range)
{
    /* MMU off: a data access at or above 2^40 is an address size fault (level 0, DFSC 0). */
    static const uint32_t prog[] = {
        0xd2b00000, /* movz x0, #0x8000, lsl #16 */
        0x91200000, /* add x0, x0, #0x800 */
        0xd518c000, /* msr vbar_el1, x0 */
        0xd2e00201, /* movz x1, #0x10, lsl #48 */
        0xf9400022, /* ldr x2, [x1] */
        0x14000000, /* b . */
    };
    load(0, prog, sizeof prog / 4);
    load(0xa00, sync_log, sizeof sync_log / 4);
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_uint_eq(hvc_regs[10], 0x96000000); /* EC 0x25, IL, DFSC 0 */
    ck_assert_uint_eq(hvc_regs[11], 0x0010000000000000ull);
    ck_assert_uint_eq(hvc_regs[12], RAM + 0x10);
}
END_TEST

/* A flag setter, then a load that misses the soft TLB and faults (MMU off, PA >= 2^40): the
 * block stores only the flags a later op reads (N, for the CSEL) and leaves the rest to the
 * miss path, which must put all four into CPUState before the handler raises, so SPSR_EL1
 * holds the setter's NZCV (1000: 5 - 7), not what MSR NZCV left there before (0111). */
static void run_setter_then_faulting_load(uint32_t setter, bool fused)
{
    uint32_t prog[] = {
        0xd2b00000, /* movz x0, #0x8000, lsl #16 */
        0x91200000, /* add x0, x0, #0x800 */
        0xd518c000, /* msr vbar_el1, x0 */
        0xd2e00201, /* movz x1, #0x10, lsl #48 */
        0xd28000a2, /* movz x2, #5 */
        0xd28000e3, /* movz x3, #7 */
        0xd2ae0009, /* movz x9, #0x7000, lsl #16 */
        0xd51b4209, /* msr nzcv, x9: Z, C, V */
        setter,     /* 5 - 7 */
        0x54000080, /* b.eq +16 (not taken; a fused compare-and-branch with the setter) */
        0xf9400025, /* ldr x5, [x1]: data abort from the miss path */
        0x9a834046, /* csel x6, x2, x3, mi: reads N */
        0xeb02005f, /* cmp x2, x2: all four written again */
        0xd4000002, /* hvc #0 */
    };
    if (!fused)
        prog[9] = 0xd503201f; /* nop */
    load(0, prog, sizeof prog / 4);
    load(0xa00, sync_log, sizeof sync_log / 4);
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_uint_eq(hvc_regs[10] >> 26, 0x25); /* data abort, same EL */
    ck_assert_uint_eq(hvc_regs[13] >> 28, 0x8);  /* NZCV of 5 - 7 */
}

START_TEST(miss_path_flags_of_setter)
{
    run_setter_then_faulting_load(0xeb030044 /* subs x4, x2, x3 */, false);
}
END_TEST

/* The setter overwrote its first source: the miss path recovers it as the result + x3. */
START_TEST(miss_path_flags_of_setter_into_its_source)
{
    run_setter_then_faulting_load(0xeb030042 /* subs x2, x2, x3 */, false);
}
END_TEST

START_TEST(miss_path_flags_of_fused_compare)
{
    run_setter_then_faulting_load(0xeb03005f /* cmp x2, x3 */, true);
}
END_TEST

/* Three accesses off one base register, op after op, share one soft-TLB probe (native_ops.c
 * access_run) over the 24 bytes they span; the last 8 lie past the end of RAM.  The probe
 * misses (an access before filled the entry for the first 16 bytes' page) and its slow path runs each access's handler in turn: the first two complete, the
 * third takes the data abort (bus error) with its own pc and address.  Loads: SPSR holds
 * cmp 5, 7's NZCV (N), which the miss path recomputes before the handlers (the block left
 * them out of CPUState, which still holds MSR NZCV's Z C V). */
static void run_of_accesses_past_ram_end(bool stores)
{
    uint32_t prog[] = {
        0xd2b00000, /* movz x0, #0x8000, lsl #16 */
        0x91200000, /* add x0, x0, #0x800 */
        0xd518c000, /* msr vbar_el1, x0 */
        0xd2b02005, /* movz x5, #0x8100, lsl #16: the end of RAM */
        0xd10040a5, /* sub x5, x5, #16 */
        0xf94000a8, /* ldr x8, [x5]: fills the soft-TLB entry the run's probe then looks at */
        0xd28000a2, /* movz x2, #5 */
        0xd28000e3, /* movz x3, #7 */
        0xd2ae0009, /* movz x9, #0x7000, lsl #16 */
        0xd51b4209, /* msr nzcv, x9: Z, C, V */
        0xeb03005f, /* cmp x2, x3: N, its stores left out (the flags die at cmp x2, x2) */
        0xf94000a4, /* ldr x4, [x5] */
        0xf94004a6, /* ldr x6, [x5, #8] */
        0xf94008a7, /* ldr x7, [x5, #16]: past the end */
        0xeb02005f, /* cmp x2, x2 */
        0xd4000002, /* hvc #0 */
    };
    if (stores) {
        prog[5] = 0xf90000bf;  /* str xzr, [x5]: the entry's write tag */
        prog[11] = 0xf90000a2; /* str x2, [x5] */
        prog[12] = 0xf90004a3; /* str x3, [x5, #8] */
        prog[13] = 0xf90008a9; /* str x9, [x5, #16]: past the end */
    }
    const uint64_t end = 16 << 20, a = 100, b = 200;
    memcpy(ram + end - 16, &a, 8);
    memcpy(ram + end - 8, &b, 8);
    load(0, prog, sizeof prog / 4);
    load(0xa00, sync_log, sizeof sync_log / 4);
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_uint_eq(hvc_regs[10] >> 26, 0x25);  /* data abort, same EL */
    ck_assert_uint_eq(hvc_regs[11], RAM + end);   /* FAR: the third access's address */
    ck_assert_uint_eq(hvc_regs[12], RAM + 0x34);  /* ELR: the third access */
    if (stores) {
        ck_assert_uint_eq(rd64(end - 16), 5);
        ck_assert_uint_eq(rd64(end - 8), 7);
    } else {
        ck_assert_uint_eq(hvc_regs[4], a);
        ck_assert_uint_eq(hvc_regs[6], b);
        ck_assert_uint_eq(hvc_regs[13] >> 28, 0x8); /* NZCV of 5 - 7 */
    }
}

START_TEST(run_of_loads_past_ram_end)
{
    run_of_accesses_past_ram_end(false);
}
END_TEST

START_TEST(run_of_stores_past_ram_end)
{
    run_of_accesses_past_ram_end(true);
}
END_TEST

/* A loop of 1000 rounds whose 8-byte load and store cross from VA page 0x3000 into VA page
 * 0x4000, mapped to physical pages in the other order (so the two halves are not
 * host-contiguous): the values are those of the guest program, and after the first round the
 * halves come from the soft-TLB entries, as an access inside one page would, instead of a
 * page-table walk for every byte (16 walks a round before). */
START_TEST(page_crossing_accesses_use_the_tlb)
{
    cross_page_tables();
    uint64_t l3[] = { RAM + 0x6000 + 3 + (1ull << 10), RAM + 0x5000 + 3 + (1ull << 10) };
    memcpy(ram + 0x13000 + 3 * 8, l3, sizeof l3); /* L3[3], L3[4]: VA 0x3000, 0x4000 */
    static const uint32_t a[] = {
        0xd2880005, /* movz x5, #0x4000 */
        0xd10010a5, /* sub x5, x5, #4: VA 0x3ffc */
        0xd2807d06, /* movz x6, #1000 */
        0xd2800007, /* movz x7, #0 */
        0xf94000a8, /* loop: ldr x8, [x5] */
        0x8b0800e7, /* add x7, x7, x8 */
        0xf90000a6, /* str x6, [x5] */
        0xf10004c6, /* subs x6, x6, #1 */
        0x54ffff81, /* b.ne loop */
        0xd2800840, /* movz x0, #0x42 */
        0xd4000002, /* hvc #0 */
    };
    cross_page_run(a, sizeof a / 4);
    ck_assert_uint_eq(hvc_regs[0], 0x42);
    ck_assert_uint_eq(hvc_regs[7], 500499); /* 0 + 1000 + 999 + ... + 2 */
    uint32_t lo, hi;
    memcpy(&lo, ram + 0x6ffc, 4);
    memcpy(&hi, ram + 0x5000, 4);
    ck_assert_uint_eq(lo, 1); /* the last store: x6 = 1 */
    ck_assert_uint_eq(hi, 0);
    /* measured: 3 walks (the code page and the two data pages); 16,001 when every byte of
     * the crossing accesses walked */
    ck_assert_uint_le(cpu->n_tlb_miss, 3);
}
END_TEST

/* A loop from RAM + 0x1c whose load (RAM + 0x24) reads RAM in the first round and RAM + 2^44
 * (beyond the PA range, an address size fault from the soft-TLB miss path) once x4 is 1, after
 * MSR NZCV left Z C in CPUState; body: what follows the load up to the loop's end, at most 8
 * instructions.  The abort's SPSR_EL1 NZCV must be nzcv, what the back edge that came round
 * left out and the miss path recomputed. */
static void run_loop_faulting_in_second_round(const uint32_t *body, unsigned n, uint32_t nzcv)
{
    uint32_t prog[19] = {
        0xd2b00000, /* movz x0, #0x8000, lsl #16 */
        0x91200000, /* add x0, x0, #0x800 */
        0xd518c000, /* msr vbar_el1, x0 */
        0xd2b00007, /* movz x7, #0x8000, lsl #16: RAM */
        0xd2800004, /* movz x4, #0 */
        0xd2ac0009, /* movz x9, #0x6000, lsl #16: Z C */
        0xd51b4209, /* msr nzcv, x9 */
        0xd3544c86, /* 1: lsl x6, x4, #44 */
        0x8b0700c6, /* add x6, x6, x7 */
        0xf94000c5, /* ldr x5, [x6] */
    };
    ck_assert_uint_le(n, 8);
    memcpy(prog + 10, body, n * sizeof *body);
    prog[10 + n] = 0xd4000002; /* hvc #0 */
    load(0, prog, 11 + n);
    load(0xa00, sync_log, sizeof sync_log / 4);
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_uint_eq(hvc_regs[10] >> 26, 0x25);   /* data abort, same EL */
    ck_assert_uint_eq(hvc_regs[12], RAM + 0x24);   /* at the load, in the second round */
    ck_assert_uint_eq(hvc_regs[4], 1);
    ck_assert_uint_eq(hvc_regs[13] >> 28, nzcv);
}

/* One back edge (cmp x4, #5; b.ne to a head inside the block) goes round without storing NZCV
 * (ne_loop_stale_edge): SPSR_EL1 must hold that compare's NZCV (1 - 5: N), not MSR NZCV's. */
START_TEST(miss_path_flags_of_stale_back_edge)
{
    static const uint32_t body[] = {
        0x91000484, /* add x4, x4, #1 */
        0xf100149f, /* cmp x4, #5 */
        0x54ffff61, /* b.ne 1b */
    };
    run_loop_faulting_in_second_round(body, sizeof body / 4, 0x8);
}
END_TEST

/* Two back edges to one head that both go round without storing NZCV (ne_loop_stale_edge,
 * ne_loop_stale_edge_after): the first round leaves by the second (cmp x4, #0 with x4 = 1: C);
 * SPSR_EL1 must hold that compare's NZCV (0010), not the first edge's compare's (cmp 1, #7:
 * 1000) nor MSR NZCV's (0110). */
START_TEST(miss_path_flags_of_second_stale_back_edge)
{
    static const uint32_t body[] = {
        0xf1001c9f, /* cmp x4, #7 */
        0x54ffff80, /* b.eq 1b: the first edge, not taken */
        0x91000484, /* add x4, x4, #1 */
        0xf100009f, /* cmp x4, #0 */
        0x54ffff21, /* b.ne 1b: the second edge */
    };
    run_loop_faulting_in_second_round(body, sizeof body / 4, 0x2);
}
END_TEST

START_TEST(smc_and_hvc_imm_undef)
{
    /* The DT's conduit is HVC: SMC #0 and HVC #1 at EL1 are UNDEFINED (no EL2/EL3). */
    static const uint32_t prog[] = {
        0xd2b00000, /* movz x0, #0x8000, lsl #16 */
        0x91200000, /* add x0, x0, #0x800 */
        0xd518c000, /* msr vbar_el1, x0 */
        0xd4000003, /* smc #0 */
        0xd4000022, /* hvc #1 */
        0xd2800840, /* movz x0, #0x42 */
        0xd4000002, /* hvc #0 */
    };
    static const uint32_t cur_sync[] = { /* VBAR + 0x200: count, skip the insn */
        0x91000694, /* add x20, x20, #1 */
        0xd538520a, /* mrs x10, esr_el1 */
        0xd538402c, /* mrs x12, elr_el1 */
        0x9100118c, /* add x12, x12, #4 */
        0xd518402c, /* msr elr_el1, x12 */
        0xd69f03e0, /* eret */
    };
    load(0, prog, sizeof prog / 4);
    load(0xa00, cur_sync, sizeof cur_sync / 4);
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_uint_eq(hvc_regs[0], 0x42);
    ck_assert_uint_eq(hvc_regs[20], 2);
    ck_assert_uint_eq(hvc_regs[10], 0x02000000);
    ck_assert_uint_eq(hvc_regs[12], RAM + 0x14);
}
END_TEST

START_TEST(wfi_timer_irq)
{
    /* Enable the GIC (distributor + CPU interface, PPI 27), arm the virtual timer 2 ms ahead,
     * WFI with IRQs masked: WFI completes when the interrupt is pending; ISR_EL1.I is set. */
    gic_dist_write(mach.gic, 0, 0x000, 1, 4);          /* GICD_CTLR */
    gic_dist_write(mach.gic, 0, 0x100, 1u << 27, 4);   /* ISENABLER0: PPI 27 */
    gic_cpu_write(mach.gic, 0, 0x004, 0xf0, 4);        /* GICC_PMR */
    gic_cpu_write(mach.gic, 0, 0x000, 1, 4);           /* GICC_CTLR */
    static const uint32_t prog[] = {
        0xd2a00060, /* movz x0, #0x3, lsl #16  (200000 ticks = 2 ms at 100 MHz) */
        0xd51be300, /* msr cntv_tval_el0, x0 */
        0xd2800021, /* movz x1, #1 */
        0xd51be321, /* msr cntv_ctl_el0, x1 */
        0xd503207f, /* wfi */
        0xd538c105, /* mrs x5, isr_el1 */
        0xd2800840, /* movz x0, #0x42 */
        0xd4000002, /* hvc #0 */
    };
    load(0, prog, sizeof prog / 4);
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_uint_eq(hvc_regs[5] & 0x80, 0x80);
}
END_TEST

START_TEST(irq_during_tight_loop)
{
    gic_dist_write(mach.gic, 0, 0x000, 1, 4);          /* GICD_CTLR */
    gic_dist_write(mach.gic, 0, 0x100, 1u << 27, 4);   /* ISENABLER0: PPI 27 */
    gic_cpu_write(mach.gic, 0, 0x004, 0xf0, 4);        /* GICC_PMR */
    gic_cpu_write(mach.gic, 0, 0x000, 1, 4);           /* GICC_CTLR */
    static const uint32_t prog[] = {
        0xd2b00000, /* movz x0, #0x8000, lsl #16 */
        0x91200000, /* add x0, x0, #0x800 */
        0xd518c000, /* msr vbar_el1, x0 */
        0xd2a00060, /* movz x0, #0x3, lsl #16  (2 ms) */
        0xd51be300, /* msr cntv_tval_el0, x0 */
        0xd2800021, /* movz x1, #1 */
        0xd51be321, /* msr cntv_ctl_el0, x1 */
        0xd50342ff, /* msr daifclr, #2 */
        0x910004a5, /* 1: add x5, x5, #1 */
        0x17ffffff, /* b 1b: a block that branches to its own start */
    };
    static const uint32_t irq[] = {
        0xd2800840, /* movz x0, #0x42 */
        0xd4000002, /* hvc #0 */
    };
    load(0, prog, sizeof prog / 4);
    load(0x880, irq, 2); /* IRQ, current EL with SP0 */
    load(0xa80, irq, 2); /* IRQ, current EL with SPx */
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_uint_eq(hvc_regs[0], 0x42);
    ck_assert_uint_gt(hvc_regs[5], 0);
}
END_TEST

START_TEST(quantum_stops_a_loop)
{
    /* 2^18 times round a 3-instruction loop block, in quanta of 1000 instructions */
    static const uint32_t prog[] = {
        0xd2a00081, /* movz x1, #0x4, lsl #16 */
        0x91000400, /* 1: add x0, x0, #1 */
        0xf1000421, /* subs x1, x1, #1 */
        0x54ffffc1, /* b.ne 1b */
        0xd4000002, /* hvc #0 */
    };
    load(0, prog, sizeof prog / 4);
    native_set_insn_limit_check(true);
    unsigned quanta = 0;
    SysRunResult r;
    for (;;) {
        cpu->cpu.insn_limit = cpu->cpu.insn_count + 1000;
        r = sys_cpu_exec(cpu);
        if (r != SYS_RUN_QUANTUM)
            break;
        quanta++;
        /* stopped at a block boundary or a back edge, within one block's length (4) */
        ck_assert_msg(cpu->cpu.insn_count < cpu->cpu.insn_limit + 4, "quantum %u: %llu instructions, limit %llu",
                      quanta, (unsigned long long)cpu->cpu.insn_count, (unsigned long long)cpu->cpu.insn_limit);
    }
    native_set_insn_limit_check(false);
    ck_assert_int_eq(r, SYS_RUN_STOP);
    ck_assert_uint_eq(hvc_regs[0], 1u << 18);
    ck_assert_uint_eq(cpu->cpu.insn_count, 4 + 3 * ((1u << 18) - 1) + 1);
    ck_assert_uint_ge(quanta, 780);
}
END_TEST

/* A second vCPU in the same machine (SMP): cpus[] lists both. */
static SysCPU *second_cpu(void)
{
    SysCPU *c2 = aligned_alloc(64, (sizeof(SysCPU) + 63) & ~(size_t)63);
    memset(c2, 0, sizeof *c2);
    cpu_init(&c2->cpu);
    c2->cpu.tbc = tbc_new(16 << 20);
    c2->mach = &mach;
    c2->index = 1;
    mach.cpus[0] = cpu;
    mach.cpus[1] = c2;
    mach.ncpu = 2;
    sys_cpu_reset(c2, RAM + 0x4000);
    return c2;
}

static void free_cpu(SysCPU *c2)
{
    tbc_free(c2->cpu.tbc);
    sys_code_free(c2);
    free(c2);
}

START_TEST(smp_code_write_reaches_other_cpu)
{
    SysCPU *c2 = second_cpu();
    static const uint32_t other[] = {
        0xd28000e1, /* movz x1, #7 */
        0xd4000002, /* hvc #0 */
    };
    load(0x4000, other, 2);
    ck_assert_int_eq(sys_cpu_run(c2), 0); /* CPU 1 translates page 0x80004000 */
    ck_assert_uint_eq(hvc_regs[1], 7);
    static const uint32_t writer[] = {
        0xd2b00003, /* movz x3, #0x8000, lsl #16 */
        0x91401063, /* add x3, x3, #4, lsl #12 */
        0x52802422, /* movz w2, #0x121 */
        0x72ba5002, /* movk w2, #0xd280, lsl #16: w2 = movz x1, #9 */
        0xb9000062, /* str w2, [x3] */
        0xd2800840, /* movz x0, #0x42 */
        0xd4000002, /* hvc #0 */
    };
    load(0, writer, sizeof writer / 4);
    mach.stop = 0;
    ck_assert_int_eq(sys_cpu_run(cpu), 0); /* CPU 0 stores over CPU 1's translated code */
    ck_assert_uint_eq(c2->n_inval, 1);
    ck_assert_int_eq(c2->cpu.exit_request, 1);
    mach.stop = 0;
    c2->cpu.pc = RAM + 0x4000;
    ck_assert_int_eq(sys_cpu_run(c2), 0);
    ck_assert_uint_eq(hvc_regs[1], 9); /* the new instruction, not the stale block */
    ck_assert_uint_ge(c2->n_tb_dropped, 1);
    free_cpu(c2);
}
END_TEST

START_TEST(smp_tlbi_is_reaches_other_cpu)
{
    SysCPU *c2 = second_cpu();
    static const uint32_t other[] = { 0xd2800841, 0xd4000002 }; /* movz x1, #0x42; hvc #0 */
    load(0x4000, other, 2);
    ck_assert_int_eq(sys_cpu_run(c2), 0); /* fills CPU 1's TLB entry for 0x80004000 */
    SysTlbEntry *e = &c2->tlbs[1][((RAM + 0x4000) >> 12) & (SYS_TLB_SIZE - 1)];
    ck_assert_uint_eq(e->tag_x, RAM + 0x4000);
    static const uint32_t local[] = {
        0xd508871f, /* tlbi vmalle1 (this CPU only) */
        0xd2800840, 0xd4000002,
    };
    load(0, local, 3);
    mach.stop = 0;
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert(!c2->remote_tlb_all);
    ck_assert_uint_eq(c2->n_remote_tlbi, 0);
    static const uint32_t by_va[] = {
        0xd2a00101, /* movz x1, #0x8, lsl #16 */
        0x91001021, /* add x1, x1, #4: VA 0x80004000 >> 12 */
        0xd5088321, /* tlbi vae1is, x1 */
        0xd2800840, 0xd4000002,
    };
    load(0x1000, by_va, 5);
    mach.stop = 0;
    cpu->cpu.pc = RAM + 0x1000;
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_uint_eq(c2->n_remote_tlbi, 1);
    ck_assert_uint_eq(c2->remote_tlbi_va[0], RAM + 0x4000);
    ck_assert_int_eq(c2->cpu.exit_request, 1);
    ck_assert_uint_eq(e->tag_x, RAM + 0x4000); /* applied at CPU 1's block boundary, not here */
    sys_apply_remote(c2);
    ck_assert_uint_eq(e->tag_x, SYS_TLB_INVALID);
    ck_assert_uint_eq(c2->remote_tlbi_done, c2->remote_tlbi_posted);
    static const uint32_t all[] = { 0xd508831f, 0xd2800840, 0xd4000002 }; /* tlbi vmalle1is */
    load(0x2000, all, 3);
    mach.stop = 0;
    cpu->cpu.pc = RAM + 0x2000;
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert(c2->remote_tlb_all);
    uint64_t flushes = c2->n_tlb_flush;
    sys_apply_remote(c2);
    ck_assert_uint_eq(c2->n_tlb_flush, flushes + 1);
    ck_assert(!c2->remote_tlb_all);
    free_cpu(c2);
}
END_TEST

/* --timing's CPU feed (sys_timing.h): 64 loads walking a 512-byte array, through L1D / L1I / L2. */
START_TEST(timing_cpu_feed)
{
    static const uint32_t code[] = {
        0xd2b00021, /* movz x1, #0x8001, lsl #16: the array at RAM + 0x10000 */
        0xd2800803, /* movz x3, #64 */
        0xf8408422, /* loop: ldr x2, [x1], #8 */
        0x8b020084, /* add x4, x4, x2 */
        0xf1000463, /* subs x3, x3, #1 */
        0,          /* b.ne loop */
        0xd2b08000, /* movz x0, #0x8400, lsl #16 */
        0x91002000, /* add x0, x0, #8 */
        0xd4000002, /* hvc #0 */
        0x14000000, /* b . */
    };
    uint32_t c[10];
    memcpy(c, code, sizeof c);
    c[5] = a64_bne(5 * 4, 2 * 4);
    load(0, c, 10);
    for (uint64_t i = 0; i < 64; i++) {
        uint64_t v = i + 1;
        memcpy(ram + 0x10000 + 8 * i, &v, 8);
    }
    tm_cache_cfg l1 = { .size = 1024, .line = 64, .assoc = 2, .policy = TM_LRU, .write_back = true,
                        .write_allocate = true, .mshrs = 4, .banks = 1, .latency = 2 };
    tm_cache_cfg l2 = l1;
    l2.size = 8192;
    l2.latency = 10;
    tm_dram_cfg d = { .channels = 1, .banks = 4, .row = 1024, .burst = 64, .tCL = 10, .tRCD = 10, .tRP = 10,
                      .tRAS = 20, .tBURST = 4, .mhz = 800 };
    const tm_cache_cfg *l1s[2] = { &l1, &l1 };
    char err[128];
    tm_hier *h = tm_hier_new(2, l1s, &l2, 1, &d, 1000, err, sizeof err);
    ck_assert_msg(h, "%s", err);
    sys_timing_set(h);
    int rc = sys_cpu_run(cpu);
    sys_timing_set(NULL);
    ck_assert_int_eq(rc, 0);
    ck_assert_uint_eq(hvc_regs[4], 64 * 65 / 2);          /* the loads' values, through the slow path */
    const tm_cache_stats *ld = tm_cache_get_stats(tm_hier_l1(h, 0)), *li = tm_cache_get_stats(tm_hier_l1(h, 1));
    ck_assert_uint_eq(ld->reads, 64);                      /* every load, nothing else touched data */
    ck_assert_uint_eq(ld->writes, 0);
    ck_assert_uint_eq(ld->misses, 512 / 64);               /* one cold miss per line */
    ck_assert_uint_eq(ld->cold, 512 / 64);
    ck_assert_uint_gt(li->accesses, 64);                   /* the loop's block, fed every iteration */
    ck_assert_uint_eq(li->hits + li->misses, li->accesses);
    tm_totals t;
    tm_hier_totals(h, &t);
    ck_assert_uint_eq(t.l2.accesses, ld->fills + li->fills);
    ck_assert_uint_eq(t.dram.reads, t.l2.misses);
    tm_hier_free(h);
}
END_TEST

START_TEST(pmu_counts_and_overflow)
{
    static const uint32_t code[] = {
        0xd53b9c01, /* mrs x1, pmcr_el0 */
        0xd53b9cc2, /* mrs x2, pmceid0_el0 */
        0xd5380503, /* mrs x3, id_aa64dfr0_el1 */
        0xd51befff, /* msr pmccfiltr_el0, xzr */
        0xd2800100, /* mov x0, #8 (INST_RETIRED) */
        0xd51bec00, /* msr pmevtyper0_el0, x0 */
        0xd51bec20, /* msr pmevtyper1_el0, x0 */
        0xd29fff00, /* mov x0, #0xfff8 */
        0xf2bfffe0, /* movk x0, #0xffff, lsl #16 */
        0xd51be820, /* msr pmevcntr1_el0, x0 (8 events before it wraps) */
        0xd2800060, /* mov x0, #3 */
        0xf2b00000, /* movk x0, #0x8000, lsl #16 */
        0xd51b9c20, /* msr pmcntenset_el0, x0 (counters 0, 1, cycles) */
        0xd5189e20, /* msr pmintenset_el1, x0 */
        0xd2800020, /* mov x0, #1 */
        0xd51b9c00, /* msr pmcr_el0, x0 (E: counts from this instruction on) */
        0xd503201f, 0xd503201f, 0xd503201f, 0xd503201f, 0xd503201f, /* 10 nops */
        0xd503201f, 0xd503201f, 0xd503201f, 0xd503201f, 0xd503201f,
        0xd53b9d04, /* mrs x4, pmccntr_el0 */
        0xd53be805, /* mrs x5, pmevcntr0_el0 */
        0xd53b9e66, /* mrs x6, pmovsset_el0 */
        0xd53be827, /* mrs x7, pmevcntr1_el0 */
        0xd2800840, /* mov x0, #0x42 */
        0xd4000002, /* hvc #0 */
    };
    load(0, code, sizeof code / 4);
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_uint_eq(hvc_regs[0], 0x42);
    ck_assert_uint_eq(hvc_regs[1], 0x41013000); /* Arm, Cortex-A57, N = 6, E = 0 */
    ck_assert_uint_eq(hvc_regs[2], 0x20101);    /* SW_INCR, INST_RETIRED, CPU_CYCLES */
    ck_assert_uint_eq(hvc_regs[3], 0x10305106); /* PMUVer 1 */
    ck_assert_uint_eq(hvc_regs[4], 11);         /* MSR PMCR + 10 NOPs, exact to the instruction */
    ck_assert_uint_eq(hvc_regs[5], 12);
    ck_assert_uint_eq(hvc_regs[6], 2);          /* counter 1 wrapped */
    ck_assert_uint_eq(hvc_regs[7], 6);          /* 0xfffffff8 + 14, in 32 bits */
    ck_assert(cpu->pmu.irq);                    /* PPI 23 driven (E, overflow, interrupt enabled) */
}
END_TEST

/* FEAT_PAN (--cpu max): with PSTATE.PAN = 1, EL1 loads and stores to a page EL0 may access take a
 * permission fault, also when the page's TLB entry was filled while PAN was 0; LDTR/STTR (EL0's
 * view) do not; MRS PAN reads it; with SCTLR_EL1.SPAN = 0 an exception to EL1 sets it and SPSR
 * keeps the old value for ERET.  On --cpu a57, MSR PAN is UNDEFINED and MMFR1.PAN reads 0. */
static const uint32_t pan_code[] = {
    0xd28a0014, /* movz x20, #0x5000 (log) */
    0xd2880005, /* movz x5, #0x4000 (EL0 RW page) */
    0xf94000a1, /* ldr x1, [x5]: PAN = 0, allowed (fills the TLB entry) */
    0xd500419f, /* msr pan, #1 */
    0xf94000a2, /* ldr x2, [x5]: permission fault */
    0xf84008a3, /* ldtr x3, [x5]: EL0's access, allowed */
    0xf80088a3, /* sttr x3, [x5, #8] */
    0xd5384266, /* mrs x6, pan */
    0xf90008a7, /* str x7, [x5, #16]: permission fault */
    0xd500409f, /* msr pan, #0 */
    0xf9000ca7, /* str x7, [x5, #24]: allowed */
    0xd5381009, /* mrs x9, sctlr_el1 */
    0x9268f929, /* and x9, x9, #~(1 << 23): SPAN = 0 */
    0xd5181009, /* msr sctlr_el1, x9 */
    0xd5033fdf, /* isb */
    0xd4000001, /* svc #0: entry sets PAN, ERET restores 0 */
    0xd538426b, /* mrs x11, pan */
    0xd2800840, /* movz x0, #0x42 */
    0xd4000002, /* hvc #0 */
};
static const uint32_t pan_handler[] = { /* VBAR 0x1800 + 0x200: log ESR, FAR, PAN, SPSR */
    0xd538520a, /* mrs x10, esr_el1 */
    0xf800868a, /* str x10, [x20], #8 */
    0xd538600a, /* mrs x10, far_el1 */
    0xf800868a, /* str x10, [x20], #8 */
    0xd538426a, /* mrs x10, pan */
    0xf800868a, /* str x10, [x20], #8 */
    0xd538400a, /* mrs x10, spsr_el1 */
    0xf800868a, /* str x10, [x20], #8 */
    0xd538520a, /* mrs x10, esr_el1 */
    0xd35afd4a, /* lsr x10, x10, #26 */
    0xf100555f, /* cmp x10, #0x15 */
    0x54000080, /* b.eq 1f (SVC: ELR is the next insn already) */
    0xd538402a, /* mrs x10, elr_el1 */
    0x9100114a, /* add x10, x10, #4: skip the faulting access */
    0xd518402a, /* msr elr_el1, x10 */
    0xd69f03e0, /* 1: eret */
};

/* VA = PA - RAM for pages 0x1000 (code, EL1), 0x4000 (EL0 RW), 0x5000 (EL1 RW). */
static void pan_map(void)
{
    uint64_t d[] = { RAM + 0x11000 + 3, RAM + 0x12000 + 3, RAM + 0x13000 + 3 };
    memcpy(ram + 0x10000, &d[0], 8);
    memcpy(ram + 0x11000, &d[1], 8);
    memcpy(ram + 0x12000, &d[2], 8);
    static const uint64_t l3[][2] = { { 1, 0x1000 }, { 4, 0x4000 | (1u << 6) }, { 5, 0x5000 } };
    for (unsigned i = 0; i < 3; i++) {
        uint64_t pte = RAM + l3[i][1] + 3 + (1ull << 10);
        memcpy(ram + 0x13000 + l3[i][0] * 8, &pte, 8);
    }
    load(0x1000, pan_code, sizeof pan_code / 4);
    load(0x1a00, pan_handler, sizeof pan_handler / 4);
    cpu->ttbr0 = RAM + 0x10000;
    cpu->tcr = 16 | (1ull << 23);
    cpu->mair = 0xff;
    cpu->vbar = 0x1800;
    cpu->sctlr |= SCTLR_M;
    sys_update_mode(cpu);
    cpu->cpu.pc = 0x1000;
}

START_TEST(pan_faults_el1_data_access)
{
    ck_assert(cpu_model == CPU_MODEL_MAX);
    pan_map();
    uint64_t v = 0x1234, seven = 0x77;
    memcpy(ram + 0x4000, &v, 8);
    cpu->cpu.x[7] = seven;
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_uint_eq(hvc_regs[0], 0x42);
    ck_assert_uint_eq(hvc_regs[1], 0x1234);
    ck_assert_uint_eq(hvc_regs[2], 0);          /* the faulting load wrote nothing */
    ck_assert_uint_eq(hvc_regs[3], 0x1234);     /* LDTR */
    ck_assert_uint_eq(rd64(0x4008), 0x1234);    /* STTR */
    ck_assert_uint_eq(hvc_regs[6], 1u << 22);   /* MRS PAN */
    ck_assert_uint_eq(rd64(0x4010), 0);         /* the faulting store */
    ck_assert_uint_eq(rd64(0x4018), seven);     /* PAN = 0 again */
    ck_assert_uint_eq(hvc_regs[11], 0);         /* ERET restored SPSR.PAN = 0 */
    /* log: load fault, store fault (EC 0x25, permission fault level 3, WnR), SVC */
    uint64_t esr0 = rd64(0x5000), esr1 = rd64(0x5020), esr2 = rd64(0x5040);
    ck_assert_uint_eq(esr0 >> 26, 0x25);
    ck_assert_uint_eq(esr0 & 0x3f, 0x0f);
    ck_assert_uint_eq((esr0 >> 6) & 1, 0);
    ck_assert_uint_eq(rd64(0x5008), 0x4000);    /* FAR */
    ck_assert_uint_eq(rd64(0x5010), 1u << 22);  /* PAN in the handler (SPAN = 1: unchanged) */
    ck_assert_uint_eq(rd64(0x5018), (1u << 22) | 0x3c5); /* SPSR: PAN, DAIF masked, EL1h */
    ck_assert_uint_eq(esr1 >> 26, 0x25);
    ck_assert_uint_eq(esr1 & 0x3f, 0x0f);
    ck_assert_uint_eq((esr1 >> 6) & 1, 1);
    ck_assert_uint_eq(rd64(0x5028), 0x4010);
    ck_assert_uint_eq(esr2 >> 26, 0x15);
    ck_assert_uint_eq(rd64(0x5050), 1u << 22);  /* SPAN = 0: the SVC set PAN */
    ck_assert_uint_eq(rd64(0x5058) & (1u << 22), 0); /* and SPSR kept the caller's 0 */
    ck_assert_uint_eq(rd64(0x5060), 0);         /* nothing else was logged */
}
END_TEST

START_TEST(unpriv_access_after_el1_fill)
{
    /* LDTR/STTR at EL1 check EL0's permissions through the EL0 table: an EL1-only page whose
     * EL1 table entry was just filled by a store (the native probe names its table when the
     * block is compiled: tlbs[0] between the unprivileged begin and end ops) still faults. */
    static const uint32_t code[] = {
        0xd28a0014, /* movz x20, #0x5000 (log) */
        0xd28b0005, /* movz x5, #0x5800 (EL1 RW, no EL0 access) */
        0xf90000a7, /* str x7, [x5]: fills the EL1 table's write tag */
        0xf80088a7, /* sttr x7, [x5, #8]: permission fault */
        0xf84008a3, /* ldtr x3, [x5]: permission fault */
        0xf94000a4, /* ldr x4, [x5] */
        0xd2800840, /* movz x0, #0x42 */
        0xd4000002, /* hvc #0 */
    };
    ck_assert(cpu_model == CPU_MODEL_MAX);
    pan_map();
    load(0x1000, code, sizeof code / 4);
    cpu->cpu.x[7] = 0x77;
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_uint_eq(hvc_regs[0], 0x42);
    ck_assert_uint_eq(rd64(0x5800), 0x77);
    ck_assert_uint_eq(rd64(0x5808), 0);         /* the STTR wrote nothing */
    ck_assert_uint_eq(hvc_regs[3], 0);          /* nor did the LDTR load */
    ck_assert_uint_eq(hvc_regs[4], 0x77);
    uint64_t esr0 = rd64(0x5000), esr1 = rd64(0x5020);
    ck_assert_uint_eq(esr0 >> 26, 0x25);        /* data abort, permission fault, write */
    ck_assert_uint_eq(esr0 & 0x3c, 0x0c);
    ck_assert_uint_eq((esr0 >> 6) & 1, 1);
    ck_assert_uint_eq(rd64(0x5008), 0x5808);
    ck_assert_uint_eq(esr1 >> 26, 0x25);
    ck_assert_uint_eq((esr1 >> 6) & 1, 0);
    ck_assert_uint_eq(rd64(0x5028), 0x5800);
    ck_assert_uint_eq(rd64(0x5040), 0);         /* nothing else was logged */
}
END_TEST

START_TEST(pan_id_and_undef_on_a57)
{
    static const uint32_t code[] = {
        0xd5380721, /* mrs x1, id_aa64mmfr1_el1 */
        0xd500419f, /* msr pan, #1 */
        0xd2800840, /* movz x0, #0x42 */
        0xd4000002, /* hvc #0 */
    };
    static const uint32_t handler[] = { /* VBAR RAM + 0x800, + 0x200: x21 = ESR, skip */
        0xd5385215, /* mrs x21, esr_el1 */
        0xd538402c, /* mrs x12, elr_el1 */
        0x9100118c, /* add x12, x12, #4 */
        0xd518402c, /* msr elr_el1, x12 */
        0xd69f03e0, /* eret */
    };
    load(0, code, 4);
    load(0xa00, handler, 5);
    cpu->vbar = RAM + 0x800;
    ck_assert_int_eq(sys_cpu_run(cpu), 0);
    ck_assert_uint_eq((hvc_regs[1] >> 20) & 15, 1); /* max: MMFR1.PAN = 1 */
    ck_assert_uint_eq(hvc_regs[21], 0);
    ck_assert(cpu->pan);
    teardown();
    free(mach.code_list); /* setup() forgets it */
    setup();
    cpu_model = CPU_MODEL_A57;
    load(0, code, 4);
    load(0xa00, handler, 5);
    cpu->vbar = RAM + 0x800;
    int rc = sys_cpu_run(cpu);
    cpu_model = CPU_MODEL_MAX;
    ck_assert_int_eq(rc, 0);
    ck_assert_uint_eq((hvc_regs[1] >> 20) & 15, 0);
    ck_assert_uint_eq(hvc_regs[21], 0x02000000); /* UNDEFINED (EC 0, IL) */
    ck_assert(!cpu->pan);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sysemu");
    TCase *tc = tcase_create("sysemu");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, svc_undef_eret);
    tcase_add_test(tc, miss_path_flags_of_setter);
    tcase_add_test(tc, miss_path_flags_of_fused_compare);
    tcase_add_test(tc, miss_path_flags_of_setter_into_its_source);
    tcase_add_test(tc, miss_path_flags_of_stale_back_edge);
    tcase_add_test(tc, miss_path_flags_of_second_stale_back_edge);
    tcase_add_test(tc, run_of_loads_past_ram_end);
    tcase_add_test(tc, run_of_stores_past_ram_end);
    tcase_add_test(tc, page_crossing_accesses_use_the_tlb);
    tcase_add_test(tc, pmu_counts_and_overflow);
    tcase_add_test(tc, self_modifying_and_id_regs);
    tcase_add_test(tc, ic_ivau_after_dma);
    tcase_add_test(tc, store_drops_only_that_page);
    tcase_add_test(tc, data_abort_pa_range);
    tcase_add_test(tc, cross_page_branch_after_remap);
    tcase_add_test(tc, cross_page_chain_same_site_after_remap);
    tcase_add_test(tc, indirect_site_many_targets_after_rewrite);
    tcase_add_test(tc, indirect_site_after_remap);
    tcase_add_test(tc, return_point_after_remap_and_isb);
    tcase_add_test(tc, cross_page_chain_after_code_write);
    tcase_add_test(tc, indirect_site_after_fp_trap_change);
    tcase_add_test(tc, smc_and_hvc_imm_undef);
    tcase_add_test(tc, wfi_timer_irq);
    tcase_add_test(tc, irq_during_tight_loop);
    tcase_add_test(tc, quantum_stops_a_loop);
    tcase_add_test(tc, smp_code_write_reaches_other_cpu);
    tcase_add_test(tc, smp_tlbi_is_reaches_other_cpu);
    tcase_add_test(tc, timing_cpu_feed);
    tcase_add_test(tc, pan_faults_el1_data_access);
    tcase_add_test(tc, unpriv_access_after_el1_fill);
    tcase_add_test(tc, pan_id_and_undef_on_a57);
    tcase_add_test(tc, miss_path_keeps_cached_registers);
    tcase_add_test(tc, atomics_and_dc_zva_on_ram);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
