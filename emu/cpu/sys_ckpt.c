/* A vCPU's checkpoint section (sys_ckpt.h). */
#include "sys_ckpt.h"

#include <inttypes.h>

#define F(member, type) CKPT_FIELD(SysCPU, member, type)
#define C(name, member, type) CKPT_FIELD_NAMED(name, SysCPU, cpu.member, type)

static const CkptField cpu_fields[] = {
    /* X0-X30 and the current SP (REG_SP = 31); XZR and the sink are no state */
    { "x", CKPT_T_U64, offsetof(SysCPU, cpu.x), REG_SP + 1 },
    C("pc", pc, CKPT_T_U64),
    C("n", nf, CKPT_T_BOOL), C("z", zf, CKPT_T_BOOL), C("c", cf, CKPT_T_BOOL), C("v_flag", vf, CKPT_T_BOOL),
    C("fpcr", fp.fpcr, CKPT_T_U32), C("fpsr", fp.fpsr, CKPT_T_U32),
    C("v", v, CKPT_T_U64), /* V0-V31, low then high doubleword */
    C("tpidr_el0", tpidr_el0, CKPT_T_U64), C("tpidrro_el0", tpidrro_el0, CKPT_T_U64),
    C("excl_addr", excl_addr, CKPT_T_U64), C("excl_val", excl_val, CKPT_T_U64),
    C("excl_size", excl_size, CKPT_T_U32),
    C("insn_count", insn_count, CKPT_T_U64), C("insn_limit", insn_limit, CKPT_T_U64),
    F(el, CKPT_T_U32), F(spsel, CKPT_T_U32), F(daif, CKPT_T_U32), F(event, CKPT_T_BOOL),
    F(sp_el0, CKPT_T_U64), F(sp_el1, CKPT_T_U64),
    F(sctlr, CKPT_T_U64), F(tcr, CKPT_T_U64), F(mair, CKPT_T_U64), F(amair, CKPT_T_U64),
    F(ttbr0, CKPT_T_U64), F(ttbr1, CKPT_T_U64), F(contextidr, CKPT_T_U64), F(vbar, CKPT_T_U64),
    F(cpacr, CKPT_T_U64), F(esr, CKPT_T_U64), F(far, CKPT_T_U64), F(par, CKPT_T_U64),
    F(afsr0, CKPT_T_U64), F(afsr1, CKPT_T_U64), F(spsr, CKPT_T_U64), F(elr, CKPT_T_U64),
    F(tpidr_el1, CKPT_T_U64), F(cntkctl, CKPT_T_U64), F(csselr, CKPT_T_U64), F(mdscr, CKPT_T_U64),
    F(osdlr, CKPT_T_U64), F(oslsr, CKPT_T_U64), F(mdccint, CKPT_T_U64), F(actlr, CKPT_T_U64),
    F(powered_off, CKPT_T_BOOL), F(fw_wait, CKPT_T_BOOL), F(wfi_halted, CKPT_T_BOOL),
    CKPT_FIELDS_END
};

/* Version 2: the PMU (sys_pmu.h).  A version 1 section loads with the PMU at reset. */
static const CkptField pmu_fields[] = {
    F(pmu.pmcr, CKPT_T_U32), F(pmu.cnten, CKPT_T_U32), F(pmu.inten, CKPT_T_U32), F(pmu.ovs, CKPT_T_U32),
    F(pmu.selr, CKPT_T_U32), F(pmu.userenr, CKPT_T_U32), F(pmu.ccfiltr, CKPT_T_U32),
    F(pmu.evtyper, CKPT_T_U32), F(pmu.val, CKPT_T_U64), F(pmu.snap, CKPT_T_U64),
    F(pmu.el_insns, CKPT_T_U64), F(pmu.mark, CKPT_T_U64), F(pmu.irq, CKPT_T_BOOL),
    CKPT_FIELDS_END
};

/* Version 3: PSTATE.PAN (FEAT_PAN).  Older sections load with PAN = 0. */
static const CkptField pan_fields[] = {
    F(pan, CKPT_T_BOOL),
    CKPT_FIELDS_END
};

void sys_cpu_ckpt_save(SysCPU *s, CkptWriter *w)
{
    ckpt_begin(w, "cpu", s->index, SYS_CPU_CKPT_VERSION);
    ckpt_u64(w, "mpidr", s->mpidr);
    ckpt_fields(w, cpu_fields, s);
    ckpt_fields(w, pmu_fields, s);
    ckpt_fields(w, pan_fields, s);
    ckpt_end(w);
}

#define FPSR_BITS (FPSR_IOC | FPSR_DZC | FPSR_OFC | FPSR_UFC | FPSR_IXC | FPSR_IDC | FPSR_QC | 0xf0000000u)

/* The relations the CPU keeps itself (the register writes mask what they take). */
static bool check(SysCPU *s, CkptSection *sec)
{
    const CPUState *c = &s->cpu;
    unsigned n = s->index;
    if (s->el > 1)
        return ckpt_fail(sec, "field 'el': vCPU %u at EL%u (EL0 and EL1 are implemented)", n, s->el);
    if (s->spsel > 1)
        return ckpt_fail(sec, "field 'spsel': vCPU %u has %u", n, s->spsel);
    if (s->daif & ~0x3c0u)
        return ckpt_fail(sec, "field 'daif': vCPU %u has 0x%x (bits 9:6 only)", n, s->daif);
    if (c->excl_size > 16 || (c->excl_size & (c->excl_size - 1)))
        return ckpt_fail(sec, "field 'excl_size': vCPU %u has %u (0, 1, 2, 4, 8 or 16)", n, c->excl_size);
    if (c->fp.fpcr & ~cpu_fpcr_writable())
        return ckpt_fail(sec, "field 'fpcr': vCPU %u has 0x%x", n, c->fp.fpcr);
    if (c->fp.fpsr & ~(uint32_t)FPSR_BITS)
        return ckpt_fail(sec, "field 'fpsr': vCPU %u has 0x%x", n, c->fp.fpsr);
    if (s->powered_off && (s->fw_wait || s->wfi_halted))
        return ckpt_fail(sec, "field 'powered_off': vCPU %u is off and waiting at once", n);
    if (s->pan && !cpu_feat_pan())
        return ckpt_fail(sec, "field 'pan': vCPU %u has PSTATE.PAN set on a core without FEAT_PAN", n);
    if (s->pmu.mark > c->insn_count)
        return ckpt_fail(sec, "field 'pmu.mark': vCPU %u has %" PRIu64 ", past insn_count %" PRIu64, n,
                         s->pmu.mark, c->insn_count);
    if (s->pmu.selr > 31 || s->pmu.userenr > 15)
        return ckpt_fail(sec, "field 'pmu.selr'/'pmu.userenr': vCPU %u has %u/%u", n, s->pmu.selr,
                         s->pmu.userenr);
    return true;
}

bool sys_cpu_ckpt_load(SysCPU *s, CkptReader *r)
{
    CkptSection *sec = ckpt_section(r, "cpu", s->index, SYS_CPU_CKPT_VERSION);
    if (!sec)
        return false;
    uint64_t mpidr;
    if (!ckpt_get_u64(sec, "mpidr", &mpidr, UINT64_MAX))
        return false;
    if (mpidr != s->mpidr)
        return ckpt_fail(sec, "field 'mpidr': vCPU %u was 0x%" PRIx64 ", this board's is 0x%" PRIx64,
                         s->index, mpidr, s->mpidr);
    if (!ckpt_load_fields(sec, cpu_fields, s))
        return false;
    if (ckpt_section_version(sec) >= 2) {
        if (!ckpt_load_fields(sec, pmu_fields, s))
            return false;
    } else {
        sys_pmu_reset(s);
    }
    s->pan = false;
    if (ckpt_section_version(sec) >= 3 && !ckpt_load_fields(sec, pan_fields, s))
        return false;
    if (!check(s, sec))
        return false;
    s->cpu.x[REG_ZR] = 0;
    s->cpu.exception = EXC_NONE;
    s->cpu.exit_request = 0;
    sys_update_mode(s);
    sys_cpu_ckpt_drop_caches(s);
    return true;
}

void sys_cpu_ckpt_drop_caches(SysCPU *s)
{
    sys_tlb_flush(s);
    sys_flush_code(s);
}
