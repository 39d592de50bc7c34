/* GPU MMU (0x2000-0x2FFF): 8 address spaces in Mali-LPAE ("legacy") mode, the format 6.12
 * panfrost programs (io-pgtable ARM_MALI_LPAE): 4 KiB granule, 4 levels from level 0 (VA[47:39],
 * [38:30], [29:21], [20:12]), descriptor type 3 = table (levels 0-2), 1 = leaf at levels 1-3
 * (1 GiB / 2 MiB blocks, 4 KiB pages), anything else invalid.  Leaf permissions: bit 6 read,
 * bit 7 write, bits 53/54 execute-never; the access flag is not checked (Mali format does not
 * set it).  Output addresses above MMU_FEATURES' PA width are address-size faults.
 *
 * Each AS has a small direct-mapped TLB of successful translations.  It is invalidated by
 * UPDATE (whole AS) and FLUSH_PT / FLUSH_MEM (the locked region, or everything when no region
 * is locked), as on hardware: page-table edits are only seen after the driver's flush.
 * Commands complete synchronously (AS_STATUS reads 0).  LOCK blocks job accesses inside the
 * region until UNLOCK / FLUSH_PT / FLUSH_MEM.
 *
 * Faults: FAULTSTATUS = exception type | access type << 8, FAULTADDRESS = VA, MMU_IRQ_RAWSTAT
 * bit AS (page faults) or 16 + AS (bus faults: page-table reads outside RAM).  A translation
 * fault stalls the job (job_manager.c) until a later UPDATE/UNLOCK/FLUSH_* on that AS, then the
 * access is retried: the driver's growable-heap path maps pages and flushes, and the job goes
 * on; its unhandled-fault path disables the AS (TRANSTAB = 0 + UPDATE) and the job then ends
 * with the translation-fault status. */
#include <string.h>

#include "mali_int.h"

void mali_tlb_flush(MaliAs *a, bool all)
{
    if (all || !a->locked) {
        memset(a->tlb, 0, sizeof a->tlb);
        return;
    }
    for (unsigned i = 0; i < MALI_TLB_SIZE; i++) {
        uint64_t va = a->tlb[i].vpage << 12;
        if (va - a->lock_base < a->lock_size)
            a->tlb[i].perm = 0;
    }
}

void mali_mmu_reset_locked(Mali *m)
{
    m->mmu_irq_raw = 0;
    m->mmu_irq_mask = 0;
    for (unsigned i = 0; i < AS_NUM; i++) {
        MaliAs *a = &m->as[i];
        uint64_t gen = a->cmd_gen, xgen = a->xlate_gen;
        memset(a, 0, sizeof *a);
        a->cmd_gen = gen + 1;
        __atomic_store_n(&a->xlate_gen, xgen + 1, __ATOMIC_RELEASE);
    }
}

static uint32_t perm_bits(uint64_t pte)
{
    uint32_t p = TLB_VALID;
    if (pte & PTE_READ)
        p |= TLB_R;
    if (pte & PTE_WRITE)
        p |= TLB_W;
    if ((pte & PTE_READ) && !(pte & PTE_XN))
        p |= TLB_X;
    return p;
}

static bool perm_ok(uint32_t perm, unsigned access)
{
    switch (access) {
    case MALI_ACCESS_READ: return perm & TLB_R;
    case MALI_ACCESS_WRITE: return perm & TLB_W;
    case MALI_ACCESS_EXECUTE: return perm & TLB_X;
    default: return (perm & TLB_R) && (perm & TLB_W); /* atomic */
    }
}

uint32_t mali_as_translate(Mali *m, unsigned asn, uint64_t va, unsigned access, uint64_t *pa,
                           bool *bus_fault)
{
    *bus_fault = false;
    if (asn >= AS_NUM || !(m->model->as_present >> asn & 1))
        return MALI_EXC_TRANSLATION_FAULT(0);
    MaliAs *a = &m->as[asn];
    unsigned pa_bits = (m->model->mmu_features >> 8) & 0xFF;
    unsigned va_bits = m->model->mmu_features & 0xFF;
    uint64_t pa_limit = pa_bits >= 64 ? ~0ull : (1ull << pa_bits) - 1;

    unsigned mode = a->cur_transcfg & AS_TRANSCFG_ADRMODE_MASK;
    if (mode == 0) /* legacy: TRANSTAB[1:0] */
        mode = a->cur_transtab & AS_TRANSTAB_ADRMODE_MASK;
    else if (mode > AS_TRANSTAB_ADRMODE_IDENTITY)
        return MALI_EXC_TRANSLATION_FAULT(0); /* AArch64 formats: not used by 6.12 panfrost */
    if (mode == AS_TRANSTAB_ADRMODE_IDENTITY) {
        if (va > pa_limit)
            return MALI_EXC_TRANSLATION_FAULT_IDENTITY;
        *pa = va;
        return 0;
    }
    if (mode != AS_TRANSTAB_ADRMODE_TABLE)
        return MALI_EXC_TRANSLATION_FAULT(0); /* unmapped / disabled */
    if (va_bits < 64 && (va >> va_bits) != 0)
        return MALI_EXC_TRANSLATION_FAULT(0);

    uint64_t vpage = va >> 12;
    MaliTlbEntry *e = &a->tlb[vpage % MALI_TLB_SIZE];
    if ((e->perm & TLB_VALID) && e->vpage == vpage) {
        a->tlb_hits++;
        if (!perm_ok(e->perm, access))
            return MALI_EXC_PERM_FAULT(e->level);
        *pa = (e->ppage << 12) | (va & 0xFFF);
        return 0;
    }
    a->tlb_misses++;
    a->walks++;

    uint64_t table = a->cur_transtab & AS_TRANSTAB_ADDR_MASK;
    for (unsigned level = 0; level < 4; level++) {
        unsigned shift = 39 - 9 * level;
        uint64_t pte;
        if (table > pa_limit) {
            return MALI_EXC_ADDR_SIZE_FAULT_OUT(level);
        }
        if (!m->host.dma_read(m->host.mem, table + ((va >> shift) & 511) * 8, &pte, 8)) {
            *bus_fault = true;
            return MALI_EXC_TRANSTAB_BUS_FAULT(level);
        }
        uint64_t type = pte & PTE_TYPE_MASK;
        if (level < 3 && type == PTE_TYPE_TABLE) {
            table = pte & PTE_ADDR_MASK;
            continue;
        }
        if (type != PTE_TYPE_LEAF || level == 0)
            return MALI_EXC_TRANSLATION_FAULT(level);
        uint64_t bsize = 1ull << shift;
        uint64_t out = (pte & PTE_ADDR_MASK & ~(bsize - 1)) | (va & (bsize - 1));
        if (out > pa_limit)
            return MALI_EXC_ADDR_SIZE_FAULT_OUT(level);
        uint32_t perm = perm_bits(pte);
        e->vpage = vpage;
        e->ppage = out >> 12;
        e->perm = (uint8_t)perm;
        e->level = (uint8_t)level;
        if (!perm_ok(perm, access))
            return MALI_EXC_PERM_FAULT(level);
        *pa = out;
        return 0;
    }
    return MALI_EXC_TRANSLATION_FAULT(3); /* not reached */
}

static void as_command(Mali *m, unsigned n, uint32_t cmd)
{
    MaliAs *a = &m->as[n];
    __atomic_add_fetch(&a->xlate_gen, 1, __ATOMIC_RELEASE); /* engine host-pointer caches */
    switch (cmd) {
    case AS_CMD_UPDATE:
        a->cur_transtab = a->transtab;
        a->cur_memattr = a->memattr;
        a->cur_transcfg = a->transcfg;
        mali_tlb_flush(a, true);
        a->cmd_gen++;
        break;
    case AS_CMD_LOCK: {
        /* LOCKADDR[5:0] = log2(size) - 1 (regions of at least 32 KiB), base = upper bits */
        unsigned w = (unsigned)(a->lockaddr & 0x3F);
        if (w < 14)
            w = 14;
        a->lock_size = w >= 63 ? ~0ull : 1ull << (w + 1);
        a->lock_base = w >= 63 ? 0 : a->lockaddr & ~(a->lock_size - 1);
        a->locked = true;
        break;
    }
    case AS_CMD_UNLOCK:
        a->locked = false;
        a->cmd_gen++;
        break;
    case AS_CMD_FLUSH_PT:
    case AS_CMD_FLUSH_MEM:
        mali_tlb_flush(a, false);
        a->locked = false;
        a->cmd_gen++;
        break;
    default:
        return;
    }
    pthread_cond_broadcast(&m->cond);
}

uint32_t mali_mmu_read_reg(Mali *m, uint32_t off)
{
    switch (off) {
    case MMU_IRQ_RAWSTAT: return m->mmu_irq_raw;
    case MMU_IRQ_MASK: return m->mmu_irq_mask;
    case MMU_IRQ_STATUS: return m->mmu_irq_raw & m->mmu_irq_mask;
    default: break;
    }
    if (off < AS_BASE || off >= AS_BASE + AS_NUM * AS_STRIDE)
        return 0;
    unsigned n = (off - AS_BASE) / AS_STRIDE;
    if (!(m->model->as_present >> n & 1))
        return 0;
    MaliAs *a = &m->as[n];
    switch ((off - AS_BASE) % AS_STRIDE) {
    case AS_TRANSTAB_LO: return (uint32_t)a->transtab;
    case AS_TRANSTAB_HI: return (uint32_t)(a->transtab >> 32);
    case AS_MEMATTR_LO: return (uint32_t)a->memattr;
    case AS_MEMATTR_HI: return (uint32_t)(a->memattr >> 32);
    case AS_LOCKADDR_LO: return (uint32_t)a->lockaddr;
    case AS_LOCKADDR_HI: return (uint32_t)(a->lockaddr >> 32);
    case AS_FAULTSTATUS: return a->faultstatus;
    case AS_FAULTADDRESS_LO: return (uint32_t)a->faultaddress;
    case AS_FAULTADDRESS_HI: return (uint32_t)(a->faultaddress >> 32);
    case AS_STATUS: return 0; /* commands complete synchronously */
    case AS_TRANSCFG_LO: return (uint32_t)a->transcfg;
    case AS_TRANSCFG_HI: return (uint32_t)(a->transcfg >> 32);
    default: return 0;
    }
}

static void set_lo(uint64_t *r, uint32_t v) { *r = (*r & ~0xFFFFFFFFull) | v; }
static void set_hi(uint64_t *r, uint32_t v) { *r = (*r & 0xFFFFFFFFull) | (uint64_t)v << 32; }

void mali_mmu_write_reg(Mali *m, uint32_t off, uint32_t v)
{
    switch (off) {
    case MMU_IRQ_CLEAR:
        m->mmu_irq_raw &= ~v;
        mali_update_irqs(m);
        return;
    case MMU_IRQ_MASK:
        m->mmu_irq_mask = v;
        mali_update_irqs(m);
        return;
    default: break;
    }
    if (off < AS_BASE || off >= AS_BASE + AS_NUM * AS_STRIDE)
        return;
    unsigned n = (off - AS_BASE) / AS_STRIDE;
    if (!(m->model->as_present >> n & 1))
        return;
    MaliAs *a = &m->as[n];
    switch ((off - AS_BASE) % AS_STRIDE) {
    case AS_TRANSTAB_LO: set_lo(&a->transtab, v); break;
    case AS_TRANSTAB_HI: set_hi(&a->transtab, v); break;
    case AS_MEMATTR_LO: set_lo(&a->memattr, v); break;
    case AS_MEMATTR_HI: set_hi(&a->memattr, v); break;
    case AS_LOCKADDR_LO: set_lo(&a->lockaddr, v); break;
    case AS_LOCKADDR_HI: set_hi(&a->lockaddr, v); break;
    case AS_COMMAND: as_command(m, n, v); break;
    case AS_TRANSCFG_LO: set_lo(&a->transcfg, v); break;
    case AS_TRANSCFG_HI: set_hi(&a->transcfg, v); break;
    default: break;
    }
}

void mali_job_walk(MaliJobCtx *c, uint64_t va, MaliWalk *w)
{
    Mali *m = c->m;
    memset(w, 0, sizeof *w);
    pthread_mutex_lock(&m->lock);
    unsigned asn = c->as;
    if (asn >= AS_NUM || !(m->model->as_present >> asn & 1)) {
        w->code = MALI_EXC_TRANSLATION_FAULT(0);
        pthread_mutex_unlock(&m->lock);
        return;
    }
    MaliAs *a = &m->as[asn];
    unsigned pa_bits = (m->model->mmu_features >> 8) & 0xFF;
    unsigned va_bits = m->model->mmu_features & 0xFF;
    uint64_t pa_limit = pa_bits >= 64 ? ~0ull : (1ull << pa_bits) - 1;
    unsigned mode = a->cur_transcfg & AS_TRANSCFG_ADRMODE_MASK;
    if (mode == 0)
        mode = a->cur_transtab & AS_TRANSTAB_ADRMODE_MASK;
    w->mode = mode;
    w->transtab = a->cur_transtab;
    if (mode == AS_TRANSTAB_ADRMODE_IDENTITY) {
        w->code = va > pa_limit ? MALI_EXC_TRANSLATION_FAULT_IDENTITY : 0;
        w->pa = va;
    } else if (mode != AS_TRANSTAB_ADRMODE_TABLE || (va_bits < 64 && (va >> va_bits) != 0)) {
        w->code = MALI_EXC_TRANSLATION_FAULT(0);
    } else {
        /* the same walk as mali_as_translate, recording each level */
        uint64_t table = a->cur_transtab & AS_TRANSTAB_ADDR_MASK;
        w->code = MALI_EXC_TRANSLATION_FAULT(3);
        for (unsigned level = 0; level < 4; level++) {
            unsigned shift = 39 - 9 * level;
            uint64_t pte, slot = table + ((va >> shift) & 511) * 8;
            if (table > pa_limit) {
                w->code = MALI_EXC_ADDR_SIZE_FAULT_OUT(level);
                break;
            }
            if (!m->host.dma_read(m->host.mem, slot, &pte, 8)) {
                w->code = MALI_EXC_TRANSTAB_BUS_FAULT(level);
                break;
            }
            w->step[w->n].table = slot;
            w->step[w->n].pte = pte;
            w->n++;
            uint64_t type = pte & PTE_TYPE_MASK;
            if (level < 3 && type == PTE_TYPE_TABLE) {
                table = pte & PTE_ADDR_MASK;
                continue;
            }
            if (type != PTE_TYPE_LEAF || level == 0) {
                w->code = MALI_EXC_TRANSLATION_FAULT(level);
                break;
            }
            uint64_t bsize = 1ull << shift;
            w->pa = (pte & PTE_ADDR_MASK & ~(bsize - 1)) | (va & (bsize - 1));
            w->code = w->pa > pa_limit ? MALI_EXC_ADDR_SIZE_FAULT_OUT(level) : 0;
            break;
        }
    }
    pthread_mutex_unlock(&m->lock);
}
