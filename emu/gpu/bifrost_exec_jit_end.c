/* The clause compiler's clause ends for runs of chained clauses (bx_jit_run, fr->chain = 1):
 * after the last commit, the code runs the clause's message (a 32- to 128-bit global / WLS load
 * or store inline through the frame's mapping slots, anything else through bx_jit_msg), writes
 * the lanes' next PC and the statistics when the warp stays converged, and jumps straight into
 * the next clause's code when it knows it (bx_jit_code.succ) and may run it.  It returns to
 * bx_jit_run for everything else: divergence, a lane finishing, a barrier, the clause budget, an
 * unknown or interpreted successor.  What it does is clause_end's work (bifrost_exec_lanes.h),
 * in the same order. */
#include "bifrost_exec_jit_comp.h"

#define F_(field) ((int32_t)offsetof(bx_jit_frame, field))
#define F_STG(r) ((int32_t)(offsetof(bx_jit_frame, stg) + (size_t)(r) * NL * 4))
#define F_TLB(store, k, field) \
    ((int32_t)(offsetof(bx_jit_frame, tlb) + ((size_t)(store) * BX_JIT_TLB + (k)) * sizeof(bx_jit_tlb) + \
               offsetof(bx_jit_tlb, field)))
#define W_(field) ((int32_t)offsetof(bi_warp, field))
#define X_(field) ((int32_t)offsetof(bi_xclause, field))

/* whether bx_jc_compile_end can run message msg inline: a global / WLS load or store of whole
 * registers (bx_jit_rt.c's mem_fast_ok, decided now) or of 8 / 16 bits (bx_jit_narrow) */
static int inline_mem(const bi_xclause *x, const bi_xinstr *msg)
{
    if (bx_jit_whole_ldst(x, msg))
        return 1;
    return (msg->sem == BI_SEM_LOAD || msg->sem == BI_SEM_STORE) && (msg->seg == SEG_NONE || msg->seg == SEG_WLS) &&
           (msg->size == 1 || msg->size == 2) && x->c.hdr[BI_H_SR] + bx_jit_stg_regs(msg) <= 64;
}

/* call fn(rbx = w, r12 = fr, r13 = x, ecx = arg): its non-zero result leaves through the epilogue */
static void call_rt(jx_emit *e, const void *fn, uint32_t arg, size_t epilogue)
{
    bx_jc_emit_call(e, fn, arg);
    jx_jcc_to(e, CC_NZ, epilogue);
}

/* rdx = the host address of the size bytes at guest address rax when slot (kind, slot) maps them
 * all; else a jump to miss[0] / miss[1] (to be patched) */
static void slot_lookup(jx_emit *e, unsigned kind, unsigned slot, unsigned size, size_t miss[2])
{
    jx_mov(e, RDX, RAX);
    jx_gp_m(e, 1, GP_SUB_RM, RDX, R12, F_TLB(kind, slot, lo));          /* offset in the mapping */
    jx_gp_m(e, 1, GP_CMP_RM, RDX, R12, F_TLB(kind, slot, len));
    miss[0] = jx_jcc_fwd(e, CC_AE);
    jx_gp_m(e, 1, GP_LEA, RCX, RDX, (int32_t)size);
    jx_gp_m(e, 1, GP_CMP_RM, RCX, R12, F_TLB(kind, slot, len));
    miss[1] = jx_jcc_fwd(e, CC_A);
    jx_gp_m(e, 1, GP_ADD_RM, RDX, R12, F_TLB(kind, slot, host));
}

/* rax = lane l's address of a load / store (its message's source rows, or WLS) */
static void lane_address(jx_emit *e, const bi_xinstr *msg, unsigned l)
{
    jx_gp_m(e, 0, GP_MOV_RM, RAX, R12, F_ST(msg_src) + (int32_t)(4 * l));
    if (msg->seg == SEG_WLS) {
        jx_gp_m(e, 1, GP_ADD_RM, RAX, R12, F_(wls_base));
    } else {
        jx_gp_m(e, 0, GP_MOV_RM, RDX, R12, F_ST(msg_src) + (int32_t)(NL * 4 + 4 * l));
        jx_shl64(e, RDX, 32);
        jx_gp_r(e, 1, GP_OR, RDX, RAX);                                  /* or rax, rdx */
    }
}

/* lane l of an inline load / store (inline_mem): its address from the message's source rows, the
 * slot's mapping when it covers the bytes, else bx_jit_mem_lane */
static void compile_mem_lane(jcomp *jc, const bi_xinstr *msg, unsigned l, size_t epilogue)
{
    jx_emit *e = &jc->e;
    const bi_clause *c = &jc->x->c;
    unsigned store = msg->sem == BI_SEM_STORE, slot = (c->offset >> 4) & (BX_JIT_TLB - 1);
    unsigned sr = c->hdr[BI_H_SR], words = msg->size / 4u;
    jx_gp_mi(e, 0, 0xf7, 0, R12, F_(exec), 1u << l);                 /* test: lane active? */
    size_t skip = jx_jcc_fwd(e, CC_Z);
    lane_address(e, msg, l);
    size_t miss[2];
    slot_lookup(e, store, slot, msg->size, miss);
    if (msg->size < 4 && store) {
        jx_gp_m(e, 0, GP_MOV_RM, RCX, RBX, W_REG(sr) + (int32_t)(4 * l));
        if (msg->size == 2)
            jx_b(e, 0x66);                                       /* mov word [rdx], cx */
        jx_gp_m(e, 0, msg->size == 1 ? 0x88 : GP_MOV_MR, RCX, RDX, 0);
    } else if (msg->size < 4) {
        /* bx_exec_mem's narrow load: extended, then placed as lane_dest says */
        unsigned op = msg->size == 1 ? (msg->ext == 1 ? 0x1be : 0x1b6) : (msg->ext == 1 ? 0x1bf : 0x1b7);
        jx_gp_m(e, 0, op, RCX, RDX, 0);                          /* movzx / movsx ecx, [rdx] */
        if (msg->dlane < 6) {
            unsigned sh = msg->dlane < 4 ? 8 * msg->dlane : 16 * (msg->dlane - 4u);
            uint32_t mask = (msg->dlane < 4 ? 0xffu : 0xffffu) << sh;
            jx_gp_m(e, 0, GP_MOV_RM, RAX, RBX, W_REG(sr) + (int32_t)(4 * l));
            jx_gp_r(e, 0, 0x81, 4, RAX);                         /* and eax, ~mask */
            jx_u32(e, ~mask);
            if (sh) {
                jx_gp_r(e, 0, 0xc1, 4, RCX);                     /* shl ecx, sh */
                jx_b(e, (uint8_t)sh);
            }
            jx_gp_r(e, 0, 0x81, 4, RCX);                         /* and ecx, mask */
            jx_u32(e, mask);
            jx_gp_r(e, 0, GP_OR, RAX, RCX);                      /* or ecx, eax */
        } else if (msg->dlane == DL_D0) {
            jx_mov_ri(e, RAX, 0);
            if (msg->ext == 1) {
                jx_gp_r(e, 0, 0x8b, RAX, RCX);                   /* mov eax, ecx; sar eax, 31 */
                jx_gp_r(e, 0, 0xc1, 7, RAX);
                jx_b(e, 31);
            }
            jx_gp_m(e, 0, GP_MOV_MR, RAX, R12, F_STG(1) + (int32_t)(4 * l));
        }
        jx_gp_m(e, 0, GP_MOV_MR, RCX, R12, F_STG(0) + (int32_t)(4 * l));
    }
    for (unsigned r = 0; msg->size >= 4 && r < words; r++) {
        if (store) {
            jx_gp_m(e, 0, GP_MOV_RM, RCX, RBX, W_REG(sr + r) + (int32_t)(4 * l));
            jx_gp_m(e, 0, GP_MOV_MR, RCX, RDX, (int32_t)(4 * r));
        } else {
            jx_gp_m(e, 0, GP_MOV_RM, RCX, RDX, (int32_t)(4 * r));
            jx_gp_m(e, 0, GP_MOV_MR, RCX, R12, F_STG(r) + (int32_t)(4 * l));
        }
    }
    size_t done = jx_jmp_fwd(e);
    jx_patch(e, miss[0]);
    jx_patch(e, miss[1]);
    call_rt(e, (const void *)bx_jit_mem_lane, l | slot << 8 | store << 16, epilogue);
    jx_patch(e, done);
    jx_patch(e, skip);
}

/* The load's words at rax, the same for every lane, broadcast into its staging rows when the
 * message's mapping slot covers them (else jumps to miss[0..1], to be patched) */
static void load_same_words(jx_emit *e, const bi_xinstr *msg, unsigned slot, size_t miss[2])
{
    unsigned words = msg->size / 4u;
    slot_lookup(e, 0, slot, 4 * words, miss);
    for (unsigned r = 0; r < words; r++) {
        jx_broadcast_m(e, 0, RDX, (int32_t)(4 * r));
        jx_store(e, 0, R12, F_STG(r));
    }
}

/* A load / store with every lane active: of one word, whose lanes read or write consecutive words
 * (lane l at the first lane's address + 4 l: a[get_global_id(0)]), or a load of one to four
 * words whose lanes all read the same ones (a[get_global_id(1)] in a row of lanes): one vector
 * access (per word) when the message's mapping slot covers the bytes.  The accesses cannot fault
 * then, so doing them at once gives the lanes' results.  Otherwise the lane-by-lane code that
 * follows runs: the jumps to it are patched here, and the jumps past it (done[], 1 or 2 of them)
 * are returned for the caller. */
static unsigned compile_mem_rows(jcomp *jc, const bi_xinstr *msg, size_t done[2])
{
    jx_emit *e = &jc->e;
    const bi_clause *c = &jc->x->c;
    unsigned store = msg->sem == BI_SEM_STORE, slot = (c->offset >> 4) & (BX_JIT_TLB - 1);
    unsigned n = e->l ? 8u : 4u, global = msg->seg != SEG_WLS, ndone = 0, nlanes = 0;
    size_t lanes[7], same = 0;
    jx_gp_mi(e, 0, 0x81, 7, R12, F_(exec), (1u << n) - 1);          /* cmp: every lane active? */
    lanes[nlanes++] = jx_jcc_fwd(e, CC_NZ);
    jx_load(e, 0, R12, F_ST(msg_src));                               /* ymm0: the low words */
    jx_broadcast_m(e, 1, R12, F_ST(msg_src));                        /* ymm1: the first lane's */
    if (global) {                                                    /* ymm3: high words the same */
        jx_load(e, 3, R12, F_ST(msg_src) + (int32_t)(NL * 4));
        jx_broadcast_m(e, 2, R12, F_ST(msg_src) + (int32_t)(NL * 4));
        jx_op(e, JX_VPCMPEQD, 3, 3, 2);
    }
    if (!store) {                                                    /* every lane at one address? */
        jx_op(e, JX_VPCMPEQD, 4, 0, 1);
        if (global)
            jx_op(e, JX_VPAND, 4, 4, 3);
        jx_movmsk(e, RAX, 4);
        jx_cmp_ri(e, RAX, (1u << n) - 1);
        if (msg->size > 4) {                                         /* the only vector form */
            lanes[nlanes++] = jx_jcc_fwd(e, CC_NZ);
            lane_address(e, msg, 0);
            load_same_words(e, msg, slot, &lanes[nlanes]);
            nlanes += 2;
            done[ndone++] = jx_jmp_fwd(e);
            goto lane_by_lane;
        }
        same = jx_jcc_fwd(e, CC_Z);
    }
    /* the low words: the first one's + 4 l, without a carry out of it */
    jx_load(e, 2, R14, KROW(KR_LANEID));
    jx_shift_imm(e, 1, 2, 2, 2);
    jx_op(e, JX_VPADDD, 1, 1, 2);
    jx_op(e, JX_VPCMPEQD, 0, 0, 1);
    if (global)
        jx_op(e, JX_VPAND, 0, 0, 3);
    jx_movmsk(e, RAX, 0);
    jx_cmp_ri(e, RAX, (1u << n) - 1);
    lanes[nlanes++] = jx_jcc_fwd(e, CC_NZ);
    jx_gp_m(e, 0, GP_MOV_RM, RCX, R12, F_ST(msg_src));
    jx_gp_r(e, 0, 0x81, 0, RCX);                                     /* add ecx, 4 (n - 1) */
    jx_u32(e, 4 * (n - 1));
    lanes[nlanes++] = jx_jcc_fwd(e, CC_B);
    lane_address(e, msg, 0);
    slot_lookup(e, store, slot, 4 * n, &lanes[nlanes]);
    nlanes += 2;
    if (store) {
        unsigned sr = c->hdr[BI_H_SR], y = bx_jc_reg_cached(jc, sr);
        if (!y)
            jx_load(e, y = 0, RBX, W_REG(sr));
        jx_store(e, y, RDX, 0);
    } else {
        jx_load(e, 0, RDX, 0);
        jx_store(e, 0, R12, F_STG(0));
    }
    done[ndone++] = jx_jmp_fwd(e);
    if (same) {
        jx_patch(e, same);
        lane_address(e, msg, 0);
        load_same_words(e, msg, slot, &lanes[nlanes]);
        nlanes += 2;
        done[ndone++] = jx_jmp_fwd(e);
    }
lane_by_lane:
    for (unsigned k = 0; k < nlanes; k++)
        jx_patch(e, lanes[k]);
    return ndone;
}

/* whether bx_jc_compile_end runs atomic message msg inline: ATOM_CX on 32 bits */
static int inline_atomic(const bi_xclause *x, const bi_xinstr *msg)
{
    return msg->sem == BI_SEM_ATOM_CX && msg->size == 4 && msg->atom_opc >= A_ADD && msg->atom_opc <= A_XOR &&
           x->c.hdr[BI_H_SR] + (msg->atom_ret ? 2u : 1u) <= 64;
}

/* lane l of an inline ATOM_CX (exec_atom_cx's): a host atomic on the slot's mapping when the
 * address is aligned and inside it (lock xadd, or a lock cmpxchg loop), else bx_jit_mem_lane;
 * the RETURN form keeps the old value as staging row 0 */
static void compile_atomic_lane(jcomp *jc, const bi_xinstr *msg, unsigned l, size_t epilogue)
{
    jx_emit *e = &jc->e;
    const bi_clause *c = &jc->x->c;
    unsigned slot = (c->offset >> 4) & (BX_JIT_TLB - 1), sr = c->hdr[BI_H_SR];
    jx_gp_mi(e, 0, 0xf7, 0, R12, F_(exec), 1u << l);                 /* test: lane active? */
    size_t skip = jx_jcc_fwd(e, CC_Z);
    jx_gp_m(e, 1, GP_MOV_RM, RAX, R12, F_ST(msg_atom) + (int32_t)(8 * l));
    jx_b(e, 0xa8);                                                   /* test al, 3: aligned? */
    jx_b(e, 3);
    size_t miss0 = jx_jcc_fwd(e, CC_NZ);
    size_t miss[2];
    slot_lookup(e, 2, slot, 4, miss);
    if (msg->atom_one)
        jx_mov_ri(e, RCX, msg->atom_one == 2 ? 0xffffffffu : 1u);
    else
        jx_gp_m(e, 0, GP_MOV_RM, RCX, RBX, W_REG(sr) + (int32_t)(4 * l));
    if (msg->atom_opc == A_ADD) {
        /* memory private to this host thread (bi_mem.private_base: the workgroup's storage) needs
         * no bus lock: no other thread reads or writes it meanwhile */
        size_t locked[2], added;
        jx_gp_m(e, 1, GP_MOV_RM, RSI, R12, F_(private_base));
        jx_gp_r(e, 1, 0x85, RSI, RSI);                               /* test rsi, rsi */
        locked[0] = jx_jcc_fwd(e, CC_Z);
        jx_gp_r(e, 1, 0x3b, RAX, RSI);                               /* cmp rax, rsi */
        locked[1] = jx_jcc_fwd(e, CC_B);
        jx_gp_m(e, 0, 0x1c1, RCX, RDX, 0);                           /* xadd [rdx], ecx */
        added = jx_jmp_fwd(e);
        jx_patch(e, locked[0]);
        jx_patch(e, locked[1]);
        jx_b(e, 0xf0);
        jx_gp_m(e, 0, 0x1c1, RCX, RDX, 0);                           /* lock xadd [rdx], ecx */
        jx_patch(e, added);
    } else {
        jx_gp_m(e, 0, GP_MOV_RM, RAX, RDX, 0);
        size_t retry = e->len;
        jx_gp_r(e, 0, GP_MOV_RM, RSI, RAX);
        switch (msg->atom_opc) {
        case A_AND: jx_gp_r(e, 0, 0x23, RSI, RCX); break;
        case A_OR: jx_gp_r(e, 0, 0x0b, RSI, RCX); break;
        case A_XOR: jx_gp_r(e, 0, 0x33, RSI, RCX); break;
        default:                                                     /* min / max: cmov */
            jx_gp_r(e, 0, 0x3b, RSI, RCX);
            jx_gp_r(e, 0, msg->atom_opc == A_SMIN ? 0x14f : msg->atom_opc == A_SMAX ? 0x14c
                          : msg->atom_opc == A_UMIN ? 0x147 : 0x142, RSI, RCX);
            break;
        }
        jx_b(e, 0xf0);
        jx_gp_m(e, 0, 0x1b1, RSI, RDX, 0);                           /* lock cmpxchg [rdx], esi */
        jx_jcc_to(e, CC_NZ, retry);
        jx_gp_r(e, 0, GP_MOV_RM, RCX, RAX);
    }
    if (msg->atom_ret)
        jx_gp_m(e, 0, GP_MOV_MR, RCX, R12, F_STG(0) + (int32_t)(4 * l));
    size_t done = jx_jmp_fwd(e);
    jx_patch(e, miss0);
    jx_patch(e, miss[0]);
    jx_patch(e, miss[1]);
    call_rt(e, (const void *)bx_jit_mem_lane, l | slot << 8 | 2u << 16, epilogue);
    jx_patch(e, done);
    jx_patch(e, skip);
}

/* staging rows 0..n-1 of the frame into the clause's staging registers, for the active lanes
 * (clause_msg's staging writes) */
static void commit_staging(jcomp *jc, unsigned n)
{
    jx_emit *e = &jc->e;
    unsigned sr = jc->x->c.hdr[BI_H_SR];
    jx_load(e, 2, R12, F_KEEP(0));
    for (unsigned r = 0; r < n; r++) {
        jx_load(e, 0, RBX, W_REG(sr + r));
        jx_load(e, 1, R12, F_STG(r));
        jx_blendv(e, 1, 0, 0, 1, 2);
        jx_store(e, 0, RBX, W_REG(sr + r));
    }
}

/* the clause's message, when it has one: inline (when the warp's memory has map) or through
 * bx_jit_msg; a load's staging rows then land in its registers for the active lanes */
static void compile_message(jcomp *jc, size_t epilogue)
{
    jx_emit *e = &jc->e;
    const bi_xclause *x = jc->x;
    const bi_xinstr *msg = NULL;
    for (unsigned i = 0; i < x->c.ntuples; i++) {
        const bi_xinstr *a = &x->add[i];
        if ((a->sem >= BI_SEM_LOAD && a->sem <= BI_SEM_ACMPXCHG) || a->sem >= BI_SEM_TEXC)
            msg = a;                                   /* the last one is the clause's (add_unit) */
    }
    if (!msg)
        return;
    size_t slow = 0, done = 0;
    if (inline_mem(x, msg)) {
        jx_gp_mi(e, 0, 0x81, 7, R12, F_(map_ok), 0);
        slow = jx_jcc_fwd(e, CC_Z);
        size_t rows[2];
        unsigned nrows = bx_jit_whole_ldst(x, msg) && (msg->size == 4 || msg->sem == BI_SEM_LOAD)
                         ? compile_mem_rows(jc, msg, rows) : 0;
        for (unsigned l = 0; l < (e->l ? 8u : 4u); l++)
            compile_mem_lane(jc, msg, l, epilogue);
        for (unsigned k = 0; k < nrows; k++)
            jx_patch(e, rows[k]);
        if (msg->sem == BI_SEM_LOAD)
            commit_staging(jc, bx_jit_stg_regs(msg));
        done = jx_jmp_fwd(e);
        jx_patch(e, slow);
    } else if (inline_atomic(x, msg)) {
        jx_gp_mi(e, 0, 0x81, 7, R12, F_(map_ok), 0);
        slow = jx_jcc_fwd(e, CC_Z);
        for (unsigned l = 0; l < (e->l ? 8u : 4u); l++)
            compile_atomic_lane(jc, msg, l, epilogue);
        if (msg->atom_ret) {         /* staging: the old values, then the operation's identity */
            jx_mov_ri(e, RAX, (uint32_t)atom_identity(msg->atom_opc, 4));
            jx_movd_from(e, 1, RAX);
            jx_broadcast(e, 1, 1);
            jx_store(e, 1, R12, F_STG(1));
            commit_staging(jc, 2);
        }
        done = jx_jmp_fwd(e);
        jx_patch(e, slow);
    }
    call_rt(e, (const void *)bx_jit_msg, 0, epilogue);
    if (done)
        jx_patch(e, done);
}

/* every active lane's next PC = ecx, and clause_next's statistics */
static void emit_pcs(jcomp *jc)
{
    jx_emit *e = &jc->e;
    jx_movd_from(e, 1, RCX);
    jx_broadcast(e, 1, 1);
    jx_load(e, 0, RBX, W_(pc));
    jx_load(e, 2, R12, F_KEEP(0));
    jx_blendv(e, 1, 0, 0, 1, 2);
    jx_store(e, 0, RBX, W_(pc));
}

static void emit_stats(jcomp *jc)
{
    jx_emit *e = &jc->e;
    jx_gp_mi(e, 1, 0x81, 0, RBX, W_(clauses_run), 1);
    jx_gp_mi(e, 1, 0x81, 0, RBX, W_(tuples_run), jc->x->c.ntuples);
    jx_gp_m(e, 1, GP_MOV_RM, RAX, R12, F_(active));
    jx_gp_m(e, 1, GP_ADD_M, RAX, RBX, W_(lanes_run));
    jx_imul_imm(e, RAX, RAX, jc->x->ninstrs);
    jx_gp_m(e, 1, GP_ADD_M, RAX, RBX, W_(lane_instrs));
}

#define C_(field) ((int32_t)offsetof(bx_count, field))

/* --stats (jc->counting): this run of the clause (r13) added to the frame's record of the clause
 * (bx_jit_frame.count, in r15: bx_count, at the clause's index; what a run adds,
 * bx_jit_frame.inc, in rbp; bx_jit_run never runs counting code without records, and hands them
 * over before any field can overflow), on a path where the code knows the lanes' way: to the
 * record's fall word (taken = 0), or (taken = 1; ecx: the target) to its taken word where the
 * record holds that target.  Else (another target, or no record: an index past BX_COUNT_MAX) a
 * jump in *miss, to be patched to where the code leaves the run to bx_jit_run (fr->uncounted);
 * returns whether there is one. */
static unsigned emit_count_way(jcomp *jc, int taken, size_t *miss)
{
    jx_emit *e = &jc->e;
    uint32_t index = jc->x->index;
    int32_t rec = (int32_t)(index * sizeof(bx_count));
    if (index >= BX_COUNT_MAX) {
        *miss = jx_jmp_fwd(e);
        return 1;
    }
    if (!taken) {
        jx_gp_m(e, 1, GP_ADD_M, RBP, R15, rec + C_(fall));
        return 0;
    }
    jx_gp_m(e, 0, GP_CMP_RM, RCX, R15, rec + C_(taken_pc));
    *miss = jx_jcc_fwd(e, CC_NZ);
    jx_gp_m(e, 1, GP_ADD_M, RBP, R15, rec + C_(taken));
    return 1;
}

/* --stats where the lanes finish (ecx: the pc they went on to, all ones where a branch ended
 * them): the way found by comparing ecx with the next clause's pc, then counted as
 * emit_count_way does; a run the record cannot hold marked for bx_jit_run.  The code goes on
 * after it either way. */
static void emit_count_finish(jcomp *jc, int may_branch)
{
    jx_emit *e = &jc->e;
    const bi_clause *c = &jc->x->c;
    size_t miss[2] = { 0 }, counted = 0;
    unsigned nmiss = 0;
    if (may_branch) {
        jx_cmp_ri(e, RCX, c->offset + c->size);
        size_t to_taken = jx_jcc_fwd(e, CC_NZ);
        nmiss += emit_count_way(jc, 0, miss + nmiss);
        counted = jx_jmp_fwd(e);
        jx_patch(e, to_taken);
        nmiss += emit_count_way(jc, 1, miss + nmiss);
    } else {
        nmiss += emit_count_way(jc, 0, miss + nmiss);
    }
    if (nmiss) {
        size_t over = jx_jmp_fwd(e);
        for (unsigned k = 0; k < nmiss; k++)
            jx_patch(e, miss[k]);
        jx_gp_mi(e, 0, 0xc7, 0, R12, F_(uncounted), BX_COUNT_RUN);
        jx_patch(e, over);
    }
    if (counted)
        jx_patch(e, counted);
}

void bx_jc_compile_end(jcomp *jc, size_t epilogue)
{
    jx_emit *e = &jc->e;
    const bi_xclause *x = jc->x;
    const bi_clause *c = &x->c;
    int may_branch = 0, barrier = 0;
    for (unsigned i = 0; i < c->ntuples; i++)
        for (int add = 0; add < 2; add++) {
            uint8_t sem = add ? x->add[i].sem : x->fma[i].sem;
            may_branch |= sem == BI_SEM_BRANCHZ || sem == BI_SEM_BRANCH || sem == BI_SEM_BRANCHZ32 ||
                          sem == BI_SEM_BRANCHZ16 || sem == BI_SEM_JUMP;
            /* (BLEND may call a blend shader, DISCARD make helper lanes: bx_jit_run sees to both) */
            barrier |= sem == BI_SEM_BARRIER || sem == BI_SEM_BLEND || sem == BI_SEM_DISCARD;
        }
    compile_message(jc, epilogue);

    /* the next PC of every active lane (ecx), or back to bx_jit_run (end_c) */
    size_t end_c[4] = { 0 }, have_pc[2] = { 0 }, finish[3] = { 0 }, miss[2] = { 0 };
    size_t to_fall = 0;
    unsigned nend = 0, nhave = 0, nfinish = 0, nmiss = 0;
    int ends = c->hdr[BI_H_FLOW] == 0;          /* an END clause: its lanes finish (clause_next) */
    if (may_branch) {
        jx_op(e, JX_VPXOR, 5, 5, 5);
        jx_load(e, 0, R12, F_ST(branch));
        jx_op(e, JX_VPCMPEQD, 0, 0, 5);
        jx_movmsk(e, RAX, 0);                                      /* lanes not branching */
        jx_gp_r(e, 0, 0xf7, 2, RAX);                               /* not eax */
        jx_gp_m(e, 0, GP_AND_RM, RAX, R12, F_(exec));
        size_t none = jx_jcc_fwd(e, CC_Z);
        jx_gp_m(e, 0, GP_CMP_RM, RAX, R12, F_(exec));
        end_c[nend++] = jx_jcc_fwd(e, CC_NZ);                      /* some lanes branch */
        jx_gp_m(e, 0, GP_MOV_RM, RDX, R12, F_(first4));
        jx_gp_r(e, 1, 0x03, RDX, R12);                             /* add rdx, r12 */
        jx_gp_m(e, 0, GP_MOV_RM, RCX, RDX, F_ST(target));
        jx_movd_from(e, 1, RCX);
        jx_broadcast(e, 1, 1);
        jx_opm(e, JX_VPCMPEQD, 1, 1, R12, F_ST(target));
        jx_movmsk(e, RAX, 1);
        jx_gp_m(e, 0, GP_AND_RM, RAX, R12, F_(exec));
        jx_gp_m(e, 0, GP_CMP_RM, RAX, R12, F_(exec));
        end_c[nend++] = jx_jcc_fwd(e, CC_NZ);                      /* different targets */
        if (ends) {
            finish[nfinish++] = jx_jmp_fwd(e);
        } else {
            jx_cmp_ri(e, RCX, 0xffffffffu);
            finish[nfinish++] = jx_jcc_fwd(e, CC_Z);               /* the threads end */
            if (jc->counting) {
                /* a branch to the next clause counts as falling through (the interpreter's
                 * edge is the same): the record's one target stays the other one */
                jx_cmp_ri(e, RCX, c->offset + c->size);
                to_fall = jx_jcc_fwd(e, CC_Z);
                nmiss += emit_count_way(jc, 1, miss + nmiss);
            }
            have_pc[nhave++] = jx_jmp_fwd(e);
        }
        jx_patch(e, none);
    }
    jx_mov_ri(e, RCX, c->offset + c->size);
    if (to_fall)
        jx_patch(e, to_fall);
    if (ends)
        finish[nfinish++] = jx_jmp_fwd(e);
    else if (jc->counting)
        nmiss += emit_count_way(jc, 0, miss + nmiss);
    for (unsigned k = 0; k < nhave; k++)
        jx_patch(e, have_pc[k]);
    if (!ends) {
        /* the lanes' next pc (ecx) is written to the warp only when the run stops here: a chained
         * clause's own end writes it, and bx_jit_run puts a faulting clause's pc back */
        emit_stats(jc);
        size_t ended[10] = { 0 };
        unsigned nended = 0;
        if (barrier) {
            ended[nended++] = jx_jmp_fwd(e);
        } else {
            jx_gp_m(e, 0, GP_MOV_RM, RAX, R12, F_(nrun));
            jx_gp_m(e, 0, GP_CMP_RM, RAX, R12, F_(budget));
            ended[nended++] = jx_jcc_fwd(e, CC_AE);
            jx_gp_m(e, 0, GP_CMP_RM, RCX, R12, F_(wait_pc));          /* other lanes wait lower */
            ended[nended++] = jx_jcc_fwd(e, CC_AE);
            if (!jc->counting) {      /* the observer sees each clause this code runs from C */
                jx_gp_mi(e, 0, 0x81, 7, R12, F_(observed), 0);
                ended[nended++] = jx_jcc_fwd(e, CC_NZ);
            }
            /* the successor at pc ecx, from the code's two cached ones */
            size_t found[2] = { 0 };
            for (unsigned k = 0; k < 2; k++) {
                jx_gp_rip(e, 1, GP_MOV_RM, RAX, (int64_t)jc->head,
                          (int64_t)(offsetof(bx_jit_code, succ) + k * sizeof(bi_xclause *)));
                jx_gp_r(e, 1, 0x85, RAX, RAX);                     /* test rax, rax */
                size_t empty = jx_jcc_fwd(e, CC_Z);
                jx_gp_m(e, 0, GP_CMP_RM, RCX, RAX, X_(c.offset));
                found[k] = jx_jcc_fwd(e, CC_Z);
                jx_patch(e, empty);
            }
            ended[nended++] = jx_jmp_fwd(e);
            jx_patch(e, found[0]);
            jx_patch(e, found[1]);
            /* fetched code: valid under the warp's current epoch only */
            jx_gp_mi(e, 1, 0x81, 7, RAX, X_(raw), 0);
            size_t fixed = jx_jcc_fwd(e, CC_Z);
            jx_gp_m(e, 1, GP_MOV_RM, RDX, RBX, W_(mem));
            jx_gp_m(e, 1, GP_MOV_RM, RDX, RDX, (int32_t)offsetof(bi_mem, epoch));
            jx_gp_m(e, 1, GP_CMP_RM, RDX, RAX, X_(epoch));
            ended[nended++] = jx_jcc_fwd(e, CC_NZ);
            jx_patch(e, fixed);
            jx_gp_m(e, 1, GP_MOV_RM, RDX, RAX, X_(jit));
            jx_gp_r(e, 1, 0x85, RDX, RDX);
            ended[nended++] = jx_jcc_fwd(e, CC_Z);
            jx_mov(e, R13, RAX);
            jx_jmp_m(e, RDX, (int32_t)offsetof(bx_jit_code, body));
        }
        if (nmiss) {          /* a run the record cannot hold: counted by bx_jit_run (fr->uncounted) */
            for (unsigned k = 0; k < nmiss; k++)
                jx_patch(e, miss[k]);
            emit_stats(jc);
            jx_gp_mi(e, 0, 0xc7, 0, R12, F_(uncounted), BX_COUNT_RUN);
        }
        for (unsigned k = 0; k < nended; k++)
            jx_patch(e, ended[k]);
        emit_pcs(jc);
        jx_mov_ri(e, RAX, BX_JIT_ENDED);
        jx_jmp_to(e, epilogue);
    }
    if (nfinish) {               /* the lanes finish: pcs, done, statistics, back to bx_jit_run */
        for (unsigned k = 0; k < nfinish; k++)
            jx_patch(e, finish[k]);
        emit_pcs(jc);
        emit_stats(jc);
        if (jc->counting)
            emit_count_finish(jc, may_branch);
        jx_gp_m(e, 1, GP_MOV_RM, RAX, R12, F_(done_bytes));
        jx_gp_m(e, 1, GP_OR, RAX, RBX, W_(done));                 /* or [rbx + done], rax */
        jx_mov_ri(e, RAX, BX_JIT_ENDED);
        jx_jmp_to(e, epilogue);
    }
    for (unsigned k = 0; k < nend; k++)
        jx_patch(e, end_c[k]);
    bx_jc_no_branch(jc);
    jx_mov_ri(e, RAX, BX_JIT_END_C);
    jx_jmp_to(e, epilogue);
}
