/* Checkpoints of the Mali device (mali.h mali_ckpt_*; docs/checkpoint.md "The GPU").
 *
 * Quiesce: slot threads park at a job boundary (job_manager.c park_point), so a chain in flight
 * is its walked job list with done flags plus the modelled time it has used; a job waiting for
 * the CPU (MMU fault, locked region: the CPU is stopped for the save) is stopped instead and
 * runs again from its start, as after a soft stop.  A finished chain not yet published to the
 * guest (--clock icount) is saved as such and published at its saved guest time.
 *
 * Sections: "mali" (model, control block, IRQ raw/mask of the three blocks, cycle counter and
 * timestamp state), "mali-js" instance n (job slot n: registers, _NEXT registers, the modelled
 * schedule, the unpublished end, the chain in flight), "mali-as" instance n (address space n of
 * the model's AS_PRESENT: registers, latched configuration, lock, fault registers, TLB).  Page
 * tables and job descriptors are in RAM, saved by the board.  Loading fills a fresh device and
 * leaves it quiesced: the caller resumes it (mali_ckpt_resume) once the whole board is loaded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mali_int.h"

/* ---- the state saved, as field tables --------------------------------------------------- */

#define MF(member, type) CKPT_FIELD(Mali, member, type)
static const CkptField mali_fields[] = {
    MF(gpu_irq_raw, CKPT_T_U32), MF(gpu_irq_mask, CKPT_T_U32),
    MF(gpu_fault_status, CKPT_T_U32), MF(gpu_fault_address, CKPT_T_U64),
    MF(latest_flush, CKPT_T_U32), MF(pwr_ready, CKPT_T_U64),
    MF(prfcnt_base, CKPT_T_U64), MF(prfcnt_config, CKPT_T_U32), MF(prfcnt_en, CKPT_T_U32),
    MF(pwr_override, CKPT_T_U32), MF(coherency_enable, CKPT_T_U32),
    MF(jm_config, CKPT_T_U32), MF(shader_config, CKPT_T_U32), MF(tiler_config, CKPT_T_U32),
    MF(l2_mmu_config, CKPT_T_U32),
    MF(cycle_running, CKPT_T_BOOL), MF(cycle_base, CKPT_T_U64), MF(cycle_start_ns, CKPT_T_U64),
    MF(ts_stopped, CKPT_T_U64),
    MF(job_irq_raw, CKPT_T_U32), MF(job_irq_mask, CKPT_T_U32),
    MF(mmu_irq_raw, CKPT_T_U32), MF(mmu_irq_mask, CKPT_T_U32),
    CKPT_FIELDS_END
};

#define SF(member, type) CKPT_FIELD(MaliSlot, member, type)
static const CkptField slot_fields[] = {
    SF(active, CKPT_T_BOOL), SF(head, CKPT_T_U64), SF(tail, CKPT_T_U64),
    SF(affinity, CKPT_T_U64), SF(config, CKPT_T_U32), SF(xaffinity, CKPT_T_U32),
    SF(status, CKPT_T_U32), SF(flush_id, CKPT_T_U32), SF(stop, CKPT_T_I32),
    SF(next_head, CKPT_T_U64), SF(next_affinity, CKPT_T_U64), SF(next_config, CKPT_T_U32),
    SF(next_xaffinity, CKPT_T_U32), SF(next_command, CKPT_T_U32), SF(next_flush_id, CKPT_T_U32),
    SF(clock_seen, CKPT_T_BOOL), SF(next_anchor_ts, CKPT_T_U64), SF(anchor_ts, CKPT_T_U64),
    SF(model_end, CKPT_T_U64), SF(icount_start_ns, CKPT_T_U64),
    SF(pub_pending, CKPT_T_BOOL), SF(pub_ns, CKPT_T_U64), SF(pub_tail, CKPT_T_U64),
    SF(pub_model_end, CKPT_T_U64), SF(pub_status, CKPT_T_U32),
    CKPT_FIELDS_END
};

#define AF(member, type) CKPT_FIELD(MaliAs, member, type)
static const CkptField as_fields[] = {
    AF(transtab, CKPT_T_U64), AF(memattr, CKPT_T_U64), AF(lockaddr, CKPT_T_U64),
    AF(transcfg, CKPT_T_U64), AF(cur_transtab, CKPT_T_U64), AF(cur_memattr, CKPT_T_U64),
    AF(cur_transcfg, CKPT_T_U64), AF(faultstatus, CKPT_T_U32), AF(faultaddress, CKPT_T_U64),
    AF(locked, CKPT_T_BOOL), AF(lock_base, CKPT_T_U64), AF(lock_size, CKPT_T_U64),
    AF(tlb_hits, CKPT_T_U64), AF(tlb_misses, CKPT_T_U64), AF(walks, CKPT_T_U64),
    CKPT_FIELDS_END
};

/* Copy the members a table describes (a validated staging copy into the device). */
static void copy_fields(const CkptField *f, void *dst, const void *src)
{
    for (; f->name; f++)
        memcpy((char *)dst + f->offset, (const char *)src + f->offset, f->count * CKPT_ELEM_SIZE(f->type));
}

/* A walked job as one integer: index | dep1 << 16 | dep2 << 32 | type << 48 | barrier << 56 |
 * done << 57. */
static uint64_t job_meta(const MaliJobRec *j)
{
    return j->index | (uint64_t)j->dep[0] << 16 | (uint64_t)j->dep[1] << 32 |
           (uint64_t)j->type << 48 | (uint64_t)j->barrier << 56 | (uint64_t)j->done << 57;
}

static void job_unmeta(uint64_t v, uint64_t va, MaliJobRec *j)
{
    *j = (MaliJobRec){ .va = va, .index = (uint16_t)v, .dep = { (uint16_t)(v >> 16), (uint16_t)(v >> 32) },
                       .type = (uint8_t)(v >> 48), .barrier = v >> 56 & 1, .done = v >> 57 & 1 };
}

/* ---- quiesce --------------------------------------------------------------------------- */

/* Has slot s reached a point where its whole state is in the device?  m->lock held. */
static bool slot_quiet(const MaliSlot *s)
{
    /* run_ctx NULL: no chain on the thread (idle, latched, or finished and unpublished); while
     * m->quiesce the thread starts none */
    return !s->active || s->pub_pending || !s->run_ctx || s->parked;
}

void mali_ckpt_quiesce(Mali *m)
{
    pthread_mutex_lock(&m->lock);
    m->quiesce = true;
    pthread_cond_broadcast(&m->cond);
    for (;;) {
        bool quiet = true;
        for (unsigned i = 0; i < JS_NUM; i++) {
            MaliSlot *s = &m->slot[i];
            if (slot_quiet(s))
                continue;
            quiet = false;
            if (s->stalled && !s->park_abort) { /* waits for the CPU, which is stopped */
                s->park_abort = true;
                pthread_cond_broadcast(&m->cond);
            }
        }
        if (quiet)
            break;
        pthread_cond_wait(&m->cond, &m->lock); /* parking and stalling threads broadcast */
    }
    pthread_mutex_unlock(&m->lock);
}

void mali_ckpt_resume(Mali *m)
{
    pthread_mutex_lock(&m->lock);
    m->quiesce = false;
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
}

unsigned mali_ckpt_describe(Mali *m, char *buf, size_t len)
{
    unsigned busy = 0;
    size_t at = 0;
    if (len)
        buf[0] = 0;
    pthread_mutex_lock(&m->lock);
    for (unsigned i = 0; i < JS_NUM; i++) {
        const MaliSlot *s = &m->slot[i];
        char what[96];
        if (s->active && s->pub_pending) {
            snprintf(what, sizeof what, "ended, published at guest %llu ns", (unsigned long long)s->pub_ns);
        } else if (s->active && (s->run_ctx || s->resume) && s->walked) {
            size_t done = 0;
            for (size_t j = 0; j < s->njobs; j++)
                done += s->jobs[j].done;
            snprintf(what, sizeof what, "%zu of %zu jobs done", done, s->njobs);
        } else if (s->active) {
            snprintf(what, sizeof what, "not started");
        } else if (m->job_irq_raw & (0x10001u << i)) {
            snprintf(what, sizeof what, "chain ended (status 0x%x), its interrupt not yet handled", s->status);
        } else if (s->next_command == JS_CMD_START) {
            snprintf(what, sizeof what, "idle");
        } else {
            continue;
        }
        busy++;
        int n = snprintf(buf + at, len > at ? len - at : 0, "%sslot %u: %s%s", busy > 1 ? "; " : "", i, what,
                         s->next_command == JS_CMD_START ? ", a chain latched next" : "");
        if (n > 0)
            at += (size_t)n;
    }
    pthread_mutex_unlock(&m->lock);
    return busy;
}

/* ---- save ------------------------------------------------------------------------------ */

static void save_slot(MaliSlot *s, CkptWriter *w)
{
    ckpt_begin(w, "mali-js", s->n, MALI_CKPT_VERSION);
    ckpt_fields(w, slot_fields, s);
    /* the chain in flight: parked on its thread, or loaded and not yet resumed */
    bool chain = s->active && !s->pub_pending && (s->run_ctx || s->resume);
    ckpt_u64(w, "chain", chain);
    if (chain) {
        const MaliJobCtx *c = s->run_ctx;
        size_t n = s->walked ? s->njobs : 0;
        ckpt_u64(w, "chain_head", s->chain_head);
        ckpt_u64(w, "walked", s->walked);
        ckpt_u64(w, "walk_status", s->walked ? s->walk_status : 0);
        ckpt_u64(w, "walk_va", s->walk_va);
        ckpt_u64(w, "walk_fault", s->walk_fault);
        ckpt_u64(w, "chain_ns", c ? __atomic_load_n(&c->chain_ns, __ATOMIC_RELAXED) : s->resume_chain_ns);
        ckpt_u64(w, "ts_base", c ? c->ts_base : s->resume_ts_base);
        ckpt_u64(w, "mmu_fault", c ? c->mmu_fault : s->resume_mmu_fault);
        ckpt_u64(w, "njobs", n);
        if (n) {
            uint64_t *va = malloc(n * sizeof *va), *meta = malloc(n * sizeof *meta);
            if (va && meta) {
                for (size_t i = 0; i < n; i++) {
                    va[i] = s->jobs[i].va;
                    meta[i] = job_meta(&s->jobs[i]);
                }
                ckpt_u64s(w, "job_va", va, n);
                ckpt_u64s(w, "job_meta", meta, n);
            } else {
                ckpt_bytes(w, "job_va", NULL, 0); /* out of memory: a file the loader refuses */
            }
            free(va);
            free(meta);
        }
    }
    ckpt_end(w);
}

static void save_as(MaliAs *a, unsigned n, CkptWriter *w)
{
    uint64_t vpage[MALI_TLB_SIZE], ppage[MALI_TLB_SIZE];
    uint32_t perm[MALI_TLB_SIZE];
    for (unsigned i = 0; i < MALI_TLB_SIZE; i++) {
        vpage[i] = a->tlb[i].vpage;
        ppage[i] = a->tlb[i].ppage;
        perm[i] = a->tlb[i].perm | (uint32_t)a->tlb[i].level << 8;
    }
    ckpt_begin(w, "mali-as", n, MALI_CKPT_VERSION);
    ckpt_fields(w, as_fields, a);
    ckpt_u64s(w, "tlb_vpage", vpage, MALI_TLB_SIZE);
    ckpt_u64s(w, "tlb_ppage", ppage, MALI_TLB_SIZE);
    ckpt_u32s(w, "tlb_perm", perm, MALI_TLB_SIZE);
    ckpt_end(w);
}

void mali_ckpt_save(Mali *m, CkptWriter *w)
{
    pthread_mutex_lock(&m->lock);
    bool quiesced = m->quiesce;
    pthread_mutex_unlock(&m->lock);
    if (!quiesced) /* the board quiesces before its RAM is saved; a caller alone gets it here */
        mali_ckpt_quiesce(m);
    pthread_mutex_lock(&m->lock);
    ckpt_begin(w, "mali", 0, MALI_CKPT_VERSION);
    ckpt_str(w, "model", m->model->name);
    ckpt_u64(w, "gpu_id", m->model->gpu_id);
    ckpt_fields(w, mali_fields, m);
    ckpt_end(w);
    for (unsigned i = 0; i < JS_NUM; i++)
        save_slot(&m->slot[i], w);
    for (unsigned i = 0; i < AS_NUM; i++)
        if (m->model->as_present >> i & 1)
            save_as(&m->as[i], i, w);
    pthread_mutex_unlock(&m->lock);
    if (!quiesced)
        mali_ckpt_resume(m);
}

/* ---- load ------------------------------------------------------------------------------ */

static uint64_t present(const MaliModel *md, unsigned d)
{
    return d == 0 ? md->shader_present : d == 1 ? md->tiler_present : md->l2_present;
}

/* The control block's values against the model and the registers' widths. */
static bool check_mali(CkptSection *s, const Mali *t, const MaliModel *md)
{
    if (t->gpu_irq_raw & ~GPU_IRQ_ALL)
        return ckpt_fail(s, "field 'gpu_irq_raw' 0x%x has bits no GPU interrupt has", t->gpu_irq_raw);
    if (t->gpu_irq_mask & ~GPU_IRQ_ALL)
        return ckpt_fail(s, "field 'gpu_irq_mask' 0x%x has bits no GPU interrupt has", t->gpu_irq_mask);
    if (t->job_irq_raw & ~0x70007u)
        return ckpt_fail(s, "field 'job_irq_raw' 0x%x has bits of job slots that do not exist", t->job_irq_raw);
    if (t->job_irq_mask & ~0x70007u)
        return ckpt_fail(s, "field 'job_irq_mask' 0x%x has bits of job slots that do not exist", t->job_irq_mask);
    uint32_t asp = md->as_present | md->as_present << 16;
    if (t->mmu_irq_raw & ~asp)
        return ckpt_fail(s, "field 'mmu_irq_raw' 0x%x has bits of address spaces the Mali-%s lacks",
                         t->mmu_irq_raw, md->name);
    for (unsigned d = 0; d < 3; d++)
        if (t->pwr_ready[d] & ~present(md, d))
            return ckpt_fail(s, "field 'pwr_ready' [%u] 0x%llx has cores the Mali-%s lacks", d,
                             (unsigned long long)t->pwr_ready[d], md->name);
    if (t->prfcnt_config & ~0x3FFu)
        return ckpt_fail(s, "field 'prfcnt_config' 0x%x is wider than the register", t->prfcnt_config);
    return true;
}

/* A slot's chain in flight into t (jobs into *jobs, malloc'd). */
static bool load_chain(CkptSection *s, MaliSlot *t, MaliJobRec **jobs)
{
    uint64_t walked, mmu_fault, walk_status, njobs;
    ckpt_get_u64(s, "chain_head", &t->chain_head, UINT64_MAX);
    ckpt_get_u64(s, "walked", &walked, 1);
    ckpt_get_u64(s, "walk_status", &walk_status, 0xFFFF); /* internal codes are never saved */
    ckpt_get_u64(s, "walk_va", &t->walk_va, UINT64_MAX);
    ckpt_get_u64(s, "walk_fault", &t->walk_fault, UINT64_MAX);
    ckpt_get_u64(s, "chain_ns", &t->resume_chain_ns, UINT64_MAX);
    ckpt_get_u64(s, "ts_base", &t->resume_ts_base, UINT64_MAX);
    ckpt_get_u64(s, "mmu_fault", &mmu_fault, 1);
    if (!ckpt_get_u64(s, "njobs", &njobs, MALI_MAX_CHAIN_JOBS))
        return false;
    t->walked = walked;
    t->walk_status = (uint32_t)walk_status;
    t->resume_mmu_fault = mmu_fault;
    t->njobs = (size_t)njobs;
    if (!walked && njobs)
        return ckpt_fail(s, "field 'njobs' is %llu for a chain not walked yet", (unsigned long long)njobs);
    if (!njobs)
        return true;
    uint64_t *va = malloc(njobs * sizeof *va), *meta = malloc(njobs * sizeof *meta);
    *jobs = malloc(njobs * sizeof **jobs);
    bool ok = va && meta && *jobs;
    if (!ok)
        ckpt_fail(s, "out of memory for %llu jobs", (unsigned long long)njobs);
    ok = ok && ckpt_get_u64s(s, "job_va", va, njobs) && ckpt_get_u64s(s, "job_meta", meta, njobs);
    for (size_t i = 0; ok && i < njobs; i++) {
        if (va[i] & 63)
            ok = ckpt_fail(s, "field 'job_va' [%zu] 0x%llx is not a 64-byte aligned job header", i,
                           (unsigned long long)va[i]);
        else if (meta[i] >> 58)
            ok = ckpt_fail(s, "field 'job_meta' [%zu] 0x%llx has unknown bits", i, (unsigned long long)meta[i]);
        else
            job_unmeta(meta[i], va[i], &(*jobs)[i]);
    }
    free(va);
    free(meta);
    return ok;
}

static bool load_slot(Mali *m, CkptReader *r, unsigned n, MaliSlot *t, MaliJobRec **jobs)
{
    CkptSection *s = ckpt_section(r, "mali-js", n, MALI_CKPT_VERSION);
    if (!s)
        return false;
    uint64_t chain = 0;
    ckpt_load_fields(s, slot_fields, t);
    ckpt_get_u64(s, "chain", &chain, 1);
    if (!ckpt_ok(r))
        return false;
    if (t->stop < 0 || t->stop > 2)
        return ckpt_fail(s, "field 'stop' is %d, not 0 (none), 1 (soft) or 2 (hard)", t->stop);
    if (t->next_command != JS_CMD_NOP && t->next_command != JS_CMD_START)
        return ckpt_fail(s, "field 'next_command' is %u, not NOP or START", t->next_command);
    if (t->pub_pending && !t->active)
        return ckpt_fail(s, "field 'pub_pending' is set on an idle slot");
    if (t->pub_pending && !m->icount)
        return ckpt_fail(s, "field 'pub_pending': an unpublished chain end needs --clock icount");
    if (chain && (!t->active || t->pub_pending))
        return ckpt_fail(s, "field 'chain': a chain in flight on a slot that is %s",
                         t->active ? "done" : "idle");
    t->resume = chain;
    return !chain || load_chain(s, t, jobs);
}

static bool load_as(CkptReader *r, unsigned n, MaliAs *t)
{
    CkptSection *s = ckpt_section(r, "mali-as", n, MALI_CKPT_VERSION);
    if (!s)
        return false;
    uint64_t vpage[MALI_TLB_SIZE], ppage[MALI_TLB_SIZE];
    uint32_t perm[MALI_TLB_SIZE];
    ckpt_load_fields(s, as_fields, t);
    ckpt_get_u64s(s, "tlb_vpage", vpage, MALI_TLB_SIZE);
    ckpt_get_u64s(s, "tlb_ppage", ppage, MALI_TLB_SIZE);
    ckpt_get_u32s(s, "tlb_perm", perm, MALI_TLB_SIZE);
    if (!ckpt_ok(r))
        return false;
    if (t->locked) {
        bool all = t->lock_size == ~0ull && t->lock_base == 0;
        bool pow2 = t->lock_size >= 1ull << 15 && !(t->lock_size & (t->lock_size - 1)) &&
                    !(t->lock_base & (t->lock_size - 1));
        if (!all && !pow2)
            return ckpt_fail(s, "fields 'lock_base' 0x%llx / 'lock_size' 0x%llx are no region LOCK makes",
                             (unsigned long long)t->lock_base, (unsigned long long)t->lock_size);
    }
    for (unsigned i = 0; i < MALI_TLB_SIZE; i++) {
        unsigned p = perm[i] & 0xFF, level = perm[i] >> 8;
        if (p & ~0xFu || level > 3)
            return ckpt_fail(s, "field 'tlb_perm' [%u] 0x%x is no permission and level", i, perm[i]);
        if ((p & TLB_VALID) && (vpage[i] % MALI_TLB_SIZE != i || vpage[i] >> 52 || ppage[i] >> 52))
            return ckpt_fail(s, "field 'tlb_vpage' [%u]: page 0x%llx -> 0x%llx cannot be in this entry",
                             i, (unsigned long long)vpage[i], (unsigned long long)ppage[i]);
        t->tlb[i] = (MaliTlbEntry){ .vpage = vpage[i], .ppage = ppage[i], .perm = (uint8_t)p,
                                    .level = (uint8_t)level };
    }
    return true;
}

bool mali_ckpt_load(Mali *m, CkptReader *r)
{
    CkptSection *s = ckpt_section(r, "mali", 0, MALI_CKPT_VERSION);
    if (!s)
        return false;
    const MaliModel *md = m->model;
    char model[32];
    uint64_t gpu_id;
    ckpt_get_str(s, "model", model, sizeof model);
    ckpt_get_u64(s, "gpu_id", &gpu_id, UINT32_MAX);
    if (!ckpt_ok(r))
        return false;
    if (strcmp(model, md->name) || gpu_id != md->gpu_id)
        return ckpt_fail(s, "saved from a Mali-%s (GPU_ID 0x%08llx), this board has a Mali-%s (0x%08x)",
                         model, (unsigned long long)gpu_id, md->name, md->gpu_id);
    /* everything into a staging copy first: the device changes only when all of it is valid */
    Mali *t = calloc(1, sizeof *t);
    MaliJobRec *jobs[JS_NUM] = { 0 };
    bool ok = t != NULL;
    if (!ok)
        ckpt_fail(s, "out of memory");
    ok = ok && ckpt_load_fields(s, mali_fields, t) && check_mali(s, t, md);
    for (unsigned i = 0; ok && i < JS_NUM; i++)
        ok = load_slot(m, r, i, &t->slot[i], &jobs[i]);
    for (unsigned i = 0; ok && i < AS_NUM; i++)
        if (md->as_present >> i & 1)
            ok = load_as(r, i, &t->as[i]);

    pthread_mutex_lock(&m->lock);
    for (unsigned i = 0; ok && i < JS_NUM; i++)
        if (m->slot[i].active || m->slot[i].run_ctx)
            ok = ckpt_fail(s, "the GPU has a chain on job slot %u: a checkpoint loads into a fresh board", i);
    for (unsigned i = 0; ok && i < JS_NUM; i++)
        if (t->slot[i].njobs && !mali_slot_grow_jobs(&m->slot[i], t->slot[i].njobs))
            ok = ckpt_fail(s, "out of memory for job slot %u's chain", i);
    if (ok) {
        m->quiesce = true; /* nothing runs before mali_ckpt_resume: the board loads the rest first */
        copy_fields(mali_fields, m, t);
        for (unsigned i = 0; i < JS_NUM; i++) {
            MaliSlot *d = &m->slot[i], *ts = &t->slot[i];
            copy_fields(slot_fields, d, ts);
            d->resume = ts->resume;
            d->chain_head = ts->chain_head;
            d->walked = ts->walked;
            d->njobs = ts->njobs;
            d->walk_status = ts->walk_status;
            d->walk_va = ts->walk_va;
            d->walk_fault = ts->walk_fault;
            d->resume_chain_ns = ts->resume_chain_ns;
            d->resume_ts_base = ts->resume_ts_base;
            d->resume_mmu_fault = ts->resume_mmu_fault;
            if (ts->njobs)
                memcpy(d->jobs, jobs[i], ts->njobs * sizeof *jobs[i]);
        }
        for (unsigned i = 0; i < AS_NUM; i++) {
            MaliAs *a = &m->as[i];
            if (!(md->as_present >> i & 1))
                continue;
            copy_fields(as_fields, a, &t->as[i]);
            memcpy(a->tlb, t->as[i].tlb, sizeof a->tlb);
            a->cmd_gen++;
            __atomic_add_fetch(&a->xlate_gen, 1, __ATOMIC_RELEASE); /* engine caches: rebuilt */
        }
        mali_redrive_irqs(m);
        pthread_cond_broadcast(&m->cond);
    }
    pthread_mutex_unlock(&m->lock);
    for (unsigned i = 0; i < JS_NUM; i++)
        free(jobs[i]);
    free(t);
    return ok && ckpt_ok(r);
}
