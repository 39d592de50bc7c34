/* Full-system execution: the vCPU loop, exception entry (VBAR_EL1 vectors, ESR/ELR/SPSR/FAR),
 * interrupts at block boundaries, WFI/WFE, and translated blocks keyed by physical address.
 *
 * Blocks: a TB records its guest VA (tb->pc), the physical address it was translated from
 * (tb->phys) and the state it depends on (tb->flags = EL | MMU-on).  sys_tb_find() looks a pc up
 * through the current regime's TLB (exec tag) and accepts a block only when all three match, so
 * remapping or switching address spaces never runs stale code.  Direct-branch chaining is kept
 * only within a page (tb.c: op_goto_tb); cross-page jumps go through sys_tb_find each time,
 * except in native code, where they are chained behind a guard that checks what sys_tb_find
 * checks (native.c: emit_cross_page).
 * Blocks never span pages (tb_translate stops at page ends). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "dispatch.h"
#include "env.h"
#include "sys_cpu.h"
#include "sys_debug.h"
#include "sys_timing.h"
#include "../../devices/bus.h"
#include "../../devices/gic400.h"
#include "../../devices/gtimer.h"
#include "../stats/timeline.h"

uint64_t sys_pstate(SysCPU *s)
{
    return cpu_get_nzcv(&s->cpu) | (s->pan ? PSTATE_PAN : 0) | s->daif | (s->el << 2) |
           (s->el ? s->spsel : 0);
}

void sys_sp_save(SysCPU *s)
{
    if (s->el && s->spsel)
        s->sp_el1 = s->cpu.x[REG_SP];
    else
        s->sp_el0 = s->cpu.x[REG_SP];
}

void sys_sp_load(SysCPU *s)
{
    s->cpu.x[REG_SP] = (s->el && s->spsel) ? s->sp_el1 : s->sp_el0;
}

void sys_cpu_reset(SysCPU *s, uint64_t pc)
{
    CPUState *c = &s->cpu;
    memset(c->x, 0, sizeof c->x);
    memset(c->v, 0, sizeof c->v);
    c->nf = c->zf = c->cf = c->vf = 0;
    c->fp.fpcr = c->fp.fpsr = 0;
    c->excl_size = 0;
    c->pc = pc;
    s->el = 1;
    s->spsel = 1;
    s->daif = 0x3c0;
    s->pan = false; /* PSTATE.PAN resets to 0 (and SCTLR_EL1.SPAN to 1) */
    if (unlikely(timeline_on))
        timeline_cpu_start(s->index);
    s->sp_el0 = s->sp_el1 = 0;
    s->sctlr = SCTLR_RESET;
    s->tcr = s->mair = s->amair = s->ttbr0 = s->ttbr1 = s->contextidr = s->vbar = 0;
    s->cpacr = s->esr = s->far = s->par = s->afsr0 = s->afsr1 = s->spsr = s->elr = 0;
    s->tpidr_el1 = s->cntkctl = s->csselr = s->mdscr = s->osdlr = s->mdccint = s->actlr = 0;
    s->oslsr = 2; /* OS lock set at reset */
    s->event = false;
    sys_pmu_reset(s);
    sys_tlb_flush(s);
    sys_update_mode(s);
}

/* --debug exc: the instruction at pc, disassembled, read without side effects (no TLB fill,
 * no code-page mark) in the regime it ran in; empty when it cannot be read. */
static void describe_insn(SysCPU *s, uint64_t pc, char *buf, size_t n)
{
    MmuResult r;
    uint8_t *h;
    uint32_t insn;
    buf[0] = 0;
    if (!cpu_disasm || (pc & 3) || !mmu_translate(s, pc, s->el, MMU_READ, &r) ||
        !(h = bus_ram_ptr(s->mach->bus, r.pa & SYS_PAGE_MASK, false)))
        return;
    memcpy(&insn, h + (r.pa & 0xfff), 4);
    char text[96];
    cpu_disasm(insn, pc, text, sizeof text);
    snprintf(buf, n, " insn %#llx: %08x %s", (unsigned long long)pc, insn, text);
}

/* Take an exception to EL1.  vec: 0 sync, 0x80 IRQ, 0x100 FIQ, 0x180 SError. */
static void take_exception(SysCPU *s, unsigned vec, uint32_t esr, bool set_far, uint64_t far,
                           uint64_t ret)
{
    CPUState *c = &s->cpu;
    char insn_text[160] = "";
    if ((s->mach->debug & SYS_DEBUG_EXC) && vec == 0) /* SVC, HVC, SMC: ret is the next insn */
        describe_insn(s, (esr >> 26) == 0x15 || (esr >> 26) == 0x16 || (esr >> 26) == 0x17 ? ret - 4 : ret,
                      insn_text, sizeof insn_text);
    uint64_t base = s->el == 0 ? 0x400 : s->spsel ? 0x200 : 0;
    s->spsr = sys_pstate(s);
    s->elr = ret;
    if (vec == 0)
        s->esr = esr;
    if (set_far)
        s->far = far;
    sys_pmu_el_change(&s->pmu, s->el, c->insn_count);
    sys_sp_save(s);
    s->el = 1;
    s->spsel = 1;
    sys_sp_load(s);
    s->daif = 0x3c0;
    if (cpu_feat_pan() && !(s->sctlr & SCTLR_SPAN)) {
        sys_set_pan(s, true);
        s->n_exc_pan++;
    }
    c->excl_size = 0;
    c->pc = s->vbar + base + vec;
    sys_update_mode(s);
    s->n_exc++;
    s->n_exc_vec[(vec >> 7) & 3]++;
    if (vec == 0)
        s->n_exc_ec[esr >> 26]++;
    if (unlikely(timeline_on))
        timeline_cpu_exception(s->index, vec, vec == 0 ? esr >> 26 : 0);
    if (s->mach->debug & SYS_DEBUG_EXC)
        fprintf(stderr, "malibu: exception vec=%#x esr=%#x far=%#llx elr=%#llx spsr=%#llx -> %#llx%s\n",
                vec, esr, (unsigned long long)s->far, (unsigned long long)ret,
                (unsigned long long)s->spsr, (unsigned long long)c->pc, insn_text);
}

#define ESR(ec, iss) (((uint32_t)(ec) << 26) | (1u << 25) | (uint32_t)(iss))

/* ---- translated blocks by physical address -------------------------------------------------- */

/* Same function as tb.c's bucket hash (by guest VA). */
static inline unsigned tb_bucket(uint64_t pc)
{
    return (unsigned)(((pc >> 2) * 0x9E3779B97F4A7C15ull) >> (64 - TB_HASH_BITS));
}

static TB *lookup(TBCache *t, uint64_t pc, uint64_t phys, uint32_t flags)
{
    for (TB *tb = t->hash[tb_bucket(pc)]; tb; tb = tb->hash_next)
        if (tb->pc == pc && tb->phys == phys && tb->flags == flags)
            return tb;
    return NULL;
}

TB *sys_tb_find(CPUState *c, uint64_t pc)
{
    SysCPU *s = sys_cpu(c);
    SysTlbEntry *e = &s->tlb[(pc >> 12) & (SYS_TLB_SIZE - 1)];
    if (unlikely(e->tag_x != (pc & SYS_PAGE_MASK)))
        return NULL;
    uint64_t phys = e->pa | (pc & 0xfff);
    TBCache *t = c->tbc;
    unsigned j = (pc >> 2) & ((1u << JMP_CACHE_BITS) - 1);
    TB *tb = t->jmp_cache[j];
    if (likely(tb && tb->pc == pc && tb->phys == phys && tb->flags == s->tb_flags))
        return tb;
    tb = lookup(t, pc, phys, s->tb_flags);
    if (tb)
        t->jmp_cache[j] = tb;
    return tb;
}

bool env_fetch_insn(CPUState *c, uint64_t pc, uint32_t *insn)
{
    SysCPU *s = sys_cpu(c);
    uint64_t pa;
    uint8_t *h;
    if ((pc & 3) || !sys_translate_exec(s, pc, &pa, &h))
        return false;
    sys_mark_code(s, pa);
    memcpy(insn, h, 4);
    return true;
}

/* The block at c->pc, translated if needed; raises instruction aborts / PC alignment faults. */
static TB *tb_get(SysCPU *s)
{
    CPUState *c = &s->cpu;
    uint64_t pc = c->pc;
    TB *tb = sys_tb_find(c, pc);
    if (tb)
        return tb;
    s->n_tb_miss++;
    if (pc & 3) {
        s->pend_esr = ESR(0x22, 0);
        cpu_raise(c, NULL, EXC_SYS_SYNC, pc, false);
    }
    uint64_t pa;
    uint8_t *h;
    if (!sys_translate_exec(s, pc, &pa, &h))
        cpu_raise(c, NULL, EXC_INSN_ABORT, pc, false);
    tb = lookup(c->tbc, pc, pa, s->tb_flags);
    if (!tb) {
        tb = tb_translate(c, pc);
        tb->phys = pa;
        tb->flags = s->tb_flags;
        sys_code_add_tb(s, tb);
        /* The goto that ends a block at a page end carries the next page's address as its pc;
         * give it this page's so op_goto_tb does not chain across the page boundary. */
        for (unsigned i = 0; i < tb->n_ops; i++)
            if (tb->ops[i].fn == op_goto_tb && ((tb->ops[i].pc ^ pc) >> 12))
                tb->ops[i].pc = pc;
    }
    c->tbc->jmp_cache[(pc >> 2) & ((1u << JMP_CACHE_BITS) - 1)] = tb;
    return tb;
}

/* The dispatch loop's system parts (dispatch.h). */
static void sys_at_exit_request(CPUState *c)
{
    SysCPU *s = sys_cpu(c);
    sys_apply_remote(s);
    if (c->tbc->flush_pending)
        sys_code_apply(s);
}

static CpuException sys_before_block(CPUState *c)
{
    SysCPU *s = sys_cpu(c);
    if (unlikely(s->dbg_step)) {
        /* Debugger single step: one one-instruction block (or the exception it raises); the
         * exit request stops the block's goto and then the loop, which returns EXC_INTERRUPT. */
        s->dbg_step_done = true;
        c->exit_request = 1;
        return EXC_NONE;
    }
    if (unlikely(c->insn_count >= c->insn_limit))
        return EXC_INTERRUPT; /* quantum used up */
    return EXC_NONE;
}

static TB *sys_find_block(CPUState *c)
{
    return tb_get(sys_cpu(c));
}

static void sys_block_found(CPUState *c, TB *tb)
{
    SysCPU *s = sys_cpu(c);
    s->n_dispatch++;
    if (unlikely(sys_timing_hier)) {
        sys_timing_fetch(s, tb);
        c->exit_request = 1; /* no chaining: every block's lines are fed here */
    }
}

/* Separate from run_blocks so its locals live across the setjmp. */
static __attribute__((noinline)) CpuException dispatch(SysCPU *s)
{
    return cpu_dispatch(&s->cpu, sys_at_exit_request, sys_before_block, sys_find_block, sys_block_found);
}

static CpuException run_blocks(SysCPU *s)
{
    CPUState *c = &s->cpu;
    c->exception = EXC_NONE;
    if (sigsetjmp(c->jmp_env, 0)) {
        c->cur_op = NULL;
        return c->exception;
    }
    return dispatch(s);
}

/* Firmware call hook (HVC/SMC #0 at EL1) and stop request, set by the machine (main.c). */
SysFirmwareFn sys_firmware_call;

_Static_assert(SYS_DEBUG_MAX_BP <= sizeof ((SysCPU *)0)->dbg_bp / sizeof(uint64_t), "SysCPU.dbg_bp too small");

static bool in_list(const uint64_t *list, unsigned n, uint64_t va)
{
    for (unsigned i = 0; i < n; i++)
        if (list[i] == va)
            return true;
    return false;
}

/* Drop the translations a breakpoint change affects: the code pages of the breakpoints added or
 * removed since this vCPU last looked, when they are kernel addresses (TTBR1: the same page in
 * every address space); for any other change (a user address, which other processes map
 * elsewhere, or an unmapped one) every translation.  gdb removes and re-inserts its breakpoints
 * at each stop, so this keeps a breakpoint hit from retranslating the whole kernel. */
static void debug_bp_changed(SysCPU *s, const SysDebug *d)
{
    bool all = false;
    for (unsigned pass = 0; pass < 2 && !all; pass++) {
        const uint64_t *a = pass ? d->bp : s->dbg_bp, *b = pass ? s->dbg_bp : d->bp;
        unsigned na = pass ? d->n_bp : s->dbg_n_bp, nb = pass ? s->dbg_n_bp : d->n_bp;
        for (unsigned i = 0; i < na && !all; i++) {
            if (in_list(b, nb, a[i]))
                continue;
            MmuResult r;
            if (!((a[i] >> 55) & 1) || !(s->sctlr & SCTLR_M) || !mmu_translate(s, a[i], 1, MMU_READ, &r))
                all = true;
            else
                sys_code_modified(s, r.pa);
        }
    }
    if (all)
        sys_flush_code(s);
    s->dbg_n_bp = d->n_bp;
    memcpy(s->dbg_bp, d->bp, d->n_bp * sizeof *d->bp);
}

/* Report a debug event and wait for the debugger; then apply its breakpoint / watchpoint
 * changes to this vCPU's translations and TLB, and its step request to tb_flags. */
static void debug_event(SysCPU *s, SysDebugEvent ev)
{
    SysDebug *d = s->mach->dbg;
    s->dbg_step = s->dbg_step_done = false;
    d->hook(s, ev, d->opaque);
    if (s->dbg_bp_gen != d->bp_gen) {
        s->dbg_bp_gen = d->bp_gen;
        debug_bp_changed(s, d);
    }
    if (s->dbg_wp_gen != d->wp_gen) {
        s->dbg_wp_gen = d->wp_gen;
        sys_tlb_flush(s);
    }
    sys_update_mode(s);
}

static bool irq_or_fiq(SysCPU *s)
{
    return gic_irq_line(s->mach->gic, s->index) || gic_fiq_line(s->mach->gic, s->index);
}

SysRunResult sys_cpu_exec(SysCPU *s)
{
    CPUState *c = &s->cpu;
    SysMachine *m = s->mach;
    for (;;) {
        if (m->stop)
            return SYS_RUN_STOP;
        if (unlikely(m->dbg)) {
            if (s->dbg_step_done)
                debug_event(s, SYS_DBG_STEPPED);
            else if (m->dbg->halt)
                debug_event(s, SYS_DBG_POLL);
            if (m->stop)
                return SYS_RUN_STOP;
        }
        if (s->powered_off)
            return SYS_RUN_OFF;
        if (c->insn_count >= c->insn_limit)
            return SYS_RUN_QUANTUM;
        if (unlikely(s->pmu.pmcr & 1)) /* PMCR_EL0.E: overflows since the last return here */
            sys_pmu_poll(s);
        if (unlikely(s->dbg_step)) {
            /* no interrupt while stepping (gdb would land in the vector, not the next insn) */
        } else if (!(s->daif & PSTATE_I) && gic_irq_line(m->gic, s->index)) {
            s->n_irq++;
            take_exception(s, 0x80, 0, false, 0, c->pc);
        } else if (!(s->daif & PSTATE_F) && gic_fiq_line(m->gic, s->index)) {
            take_exception(s, 0x100, 0, false, 0, c->pc);
        }
        CpuException e = run_blocks(s);
        bool lower = s->el == 0;
        switch ((int)e) {
        case EXC_NONE:
        case EXC_INTERRUPT:
            break;
        case EXC_SVC:
            take_exception(s, 0, ESR(0x15, c->syndrome & 0xffff), false, 0, c->pc);
            break;
        case EXC_UDEF:
        case EXC_HLT:
            take_exception(s, 0, ESR(0x00, 0), false, 0, c->pc);
            break;
        case EXC_BRK:
            take_exception(s, 0, ESR(0x3C, c->syndrome & 0xffff), false, 0, c->pc);
            break;
        case EXC_DATA_ABORT:
        case EXC_ALIGN: {
            uint32_t fsc = e == EXC_ALIGN ? 0x21 : s->fault_fsc;
            uint32_t iss = fsc | (c->fault_write ? 1u << 6 : 0) | (s->fault_s1ptw && e != EXC_ALIGN ? 1u << 7 : 0);
            take_exception(s, 0, ESR(lower ? 0x24 : 0x25, iss), true, c->fault_addr, c->pc);
            break;
        }
        case EXC_INSN_ABORT:
            take_exception(s, 0, ESR(lower ? 0x20 : 0x21, s->fault_fsc | (s->fault_s1ptw ? 1u << 7 : 0)),
                           true, c->pc, c->pc);
            break;
        case EXC_SYS_SYNC:
            take_exception(s, 0, s->pend_esr, (s->pend_esr >> 26) == 0x22, c->fault_addr, c->pc);
            break;
        case EXC_SYS_HVC:
        case EXC_SYS_SMC:
            if (sys_firmware_call)
                sys_firmware_call(s, e == EXC_SYS_SMC);
            else
                c->x[0] = ~0ull;
            if (s->fw_wait) {
                s->fw_wait = false;
                if (!irq_or_fiq(s) && !m->stop)
                    return SYS_RUN_WFI;
            }
            break;
        case EXC_SYS_BKPT:
            debug_event(s, SYS_DBG_BKPT);
            break;
        case EXC_SYS_WATCH:
            debug_event(s, SYS_DBG_WATCH);
            break;
        case EXC_SYS_WFI:
            if (!irq_or_fiq(s) && !m->stop)
                return SYS_RUN_WFI;
            break;
        case EXC_SYS_WFE:
            if (s->event)
                s->event = false;
            else if (!gic_irq_line(m->gic, s->index) && !m->stop)
                return SYS_RUN_WFE;
            break;
        default:
            fprintf(stderr, "malibu: unexpected CPU exit %d at pc=%#llx\n", (int)e,
                    (unsigned long long)c->pc);
            m->stop_status = 2;
            m->stop = 1;
            return SYS_RUN_STOP;
        }
    }
}

static uint64_t host_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int sys_cpu_run(SysCPU *s)
{
    SysMachine *m = s->mach;
    for (;;) {
        s->in_guest = 1; /* other threads' TLBI ...IS wait for us (sys_smp.c) */
        SysRunResult r = sys_cpu_exec(s);
        __atomic_store_n(&s->in_guest, 0, __ATOMIC_RELEASE);
        if (r == SYS_RUN_STOP || r == SYS_RUN_OFF)
            return m->stop_status;
        if (r == SYS_RUN_QUANTUM)
            continue;
        uint64_t t0 = host_ns();
        bool tl_idle = unlikely(timeline_on) && r == SYS_RUN_WFI;   /* WFE: a short wait, not idle */
        if (tl_idle)
            timeline_cpu_idle(s->index, true);
        gtimer_wfi(m->gtimer, s->index, r == SYS_RUN_WFE ? 100000 : 0);
        if (tl_idle)
            timeline_cpu_idle(s->index, false);
        s->n_wfi++;
        s->idle_ns += host_ns() - t0;
    }
}
