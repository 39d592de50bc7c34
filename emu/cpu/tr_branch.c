/* Branches: translators and op handlers.
 *
 * Direct branches end the block with op_goto_tb (chained to the successor).
 * Conditional ones emit a test op followed by two goto ops (taken target,
 * then the fall-through); the test op tail-calls the goto op it selects
 * (o + 1 or o + 2) instead of returning it, saving a dispatch per branch.
 * Indirect branches set c->pc and continue through the jump cache. */
#include "translate.h"
#include "native.h"

/* Emit a block-ending goto op (like tr_goto, usable more than once per insn). */
static void emit_goto(DisasCtx *s, uint64_t target)
{
    Op *o = tr_emit(s, op_goto_tb);
    o->imm = target;
    o->link = NULL;
}

/* Emit test op fn (the caller fills its operands) and the two gotos after it. */
static Op *emit_cond_branch(DisasCtx *s, OpFn fn, uint64_t taken)
{
    unsigned idx = s->n_ops;
    tr_emit(s, fn);
    emit_goto(s, taken);
    emit_goto(s, s->pc + 4);
    s->end_block = true;
    return &s->ops[idx];
}

/* ---- B, BL --------------------------------------------------------------- */

static Op *op_bl(CPUState *c, Op *o)
{
    c->x[30] = o->pc + 4;
    return op_goto_tb(c, o);
}

bool trans_BR_B(DisasCtx *s, arg_BR_B *a)
{
    uint64_t target = s->pc + ((uint64_t)(int64_t)a->imm26 << 2);
    if (a->op) {
        Op *o = tr_emit(s, op_bl);
        o->imm = target;
        o->link = NULL;
        s->end_block = true;
    } else {
        tr_goto(s, target);
    }
    return true;
}

/* ---- B.cond -------------------------------------------------------------- */

/* Continue with goto op o + 1 when taken, o + 2 when not. */
static inline Op *branch_to(CPUState *c, Op *o, bool taken)
{
    Op *g = taken ? o + 1 : o + 2;
    return g->fn(c, g); /* op_goto_tb, or op_goto_next where the block goes on */
}

#define BCOND_DEF(cond)                                                                      \
    static Op *op_bcond_##cond(CPUState *c, Op *o)                                           \
    {                                                                                        \
        return branch_to(c, o, cpu_cond_holds(c, cond));                                     \
    }
#define BCOND_ENT(cond) [cond] = op_bcond_##cond,
#define COND14(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13)
COND14(BCOND_DEF)
static const OpFn bcond_tab[14] = { COND14(BCOND_ENT) };

/* tr_int.c: turn the compare op just before into a compare-and-branch op. */
bool tr_int_fuse_bcond(DisasCtx *s, int cond);

bool trans_BR_BCOND(DisasCtx *s, arg_BR_BCOND *a)
{
    uint64_t target = s->pc + ((uint64_t)(int64_t)a->imm19 << 2);
    if (a->cond >= 14) { /* AL, NV: always */
        tr_goto(s, target);
    } else if (tr_int_fuse_bcond(s, a->cond)) {
        emit_goto(s, target);
        emit_goto(s, s->pc + 4);
        s->end_block = true;
    } else {
        emit_cond_branch(s, bcond_tab[a->cond], target);
    }
    return true;
}

/* ---- CBZ/CBNZ, TBZ/TBNZ -------------------------------------------------- */

static Op *op_cbz64(CPUState *c, Op *o) { return branch_to(c, o, c->x[o->n] == 0); }
static Op *op_cbnz64(CPUState *c, Op *o) { return branch_to(c, o, c->x[o->n] != 0); }
static Op *op_cbz32(CPUState *c, Op *o) { return branch_to(c, o, (uint32_t)c->x[o->n] == 0); }
static Op *op_cbnz32(CPUState *c, Op *o) { return branch_to(c, o, (uint32_t)c->x[o->n] != 0); }
static Op *op_tbz(CPUState *c, Op *o) { return branch_to(c, o, (c->x[o->n] & o->imm) == 0); }
static Op *op_tbnz(CPUState *c, Op *o) { return branch_to(c, o, (c->x[o->n] & o->imm) != 0); }

bool trans_BR_CB(DisasCtx *s, arg_BR_CB *a)
{
    static const OpFn fns[2][2] = { { op_cbz32, op_cbnz32 }, { op_cbz64, op_cbnz64 } };
    uint64_t target = s->pc + ((uint64_t)(int64_t)a->imm19 << 2);
    Op *o = emit_cond_branch(s, fns[a->sf][a->op], target);
    o->n = xzr_src(a->rt);
    return true;
}

bool trans_BR_TB(DisasCtx *s, arg_BR_TB *a)
{
    uint64_t target = s->pc + ((uint64_t)(int64_t)a->imm14 << 2);
    Op *o = emit_cond_branch(s, a->op ? op_tbnz : op_tbz, target);
    o->n = xzr_src(a->rt);
    o->imm = 1ull << (a->b5 * 32 + a->b40);
    return true;
}

/* ---- BR, BLR, RET -------------------------------------------------------- */

static Op *op_br(CPUState *c, Op *o)
{
    c->pc = c->x[o->n];
    return tb_continue_at(c);
}

static Op *op_blr(CPUState *c, Op *o)
{
    c->pc = c->x[o->n]; /* read before writing X30: BLR X30 */
    c->x[30] = o->pc + 4;
    return tb_continue_at(c);
}

/* RET: as BR; the native back end predicts it from the return-address stack. */
static Op *op_ret(CPUState *c, Op *o)
{
    c->pc = c->x[o->n];
    return tb_continue_at(c);
}

static bool do_indirect(DisasCtx *s, OpFn fn, int rn)
{
    Op *o = tr_emit(s, fn);
    o->n = xzr_src(rn);
    s->end_block = true;
    return true;
}

bool trans_BR_BR(DisasCtx *s, arg_BR_BR *a) { return do_indirect(s, op_br, a->rn); }
bool trans_BR_BLR(DisasCtx *s, arg_BR_BLR *a) { return do_indirect(s, op_blr, a->rn); }
bool trans_BR_RET(DisasCtx *s, arg_BR_RET *a) { return do_indirect(s, op_ret, a->rn); }

/* ---- description for the native back end (native.h) ------------------------------------- */
#if MALIBU_HAVE_NATIVE
static void describe_branch_handlers(void)
{
    native_bind(op_bl, (NativeDesc){ .kind = NK_BL });
    native_bind(op_br, (NativeDesc){ .kind = NK_BR });
    native_bind(op_blr, (NativeDesc){ .kind = NK_BLR });
    native_bind(op_ret, (NativeDesc){ .kind = NK_RET });
    for (int cond = 0; cond < 14; cond++)
        native_bind(bcond_tab[cond], (NativeDesc){ .kind = NK_BCOND, .cond = (uint8_t)cond });
    /* CB: op = branch when non-zero; TB: op = branch when the bit (imm mask) is set. */
    native_bind(op_cbz64, (NativeDesc){ .kind = NK_CB, .sf = 1 });
    native_bind(op_cbnz64, (NativeDesc){ .kind = NK_CB, .sf = 1, .op = 1 });
    native_bind(op_cbz32, (NativeDesc){ .kind = NK_CB });
    native_bind(op_cbnz32, (NativeDesc){ .kind = NK_CB, .op = 1 });
    native_bind(op_tbz, (NativeDesc){ .kind = NK_TB });
    native_bind(op_tbnz, (NativeDesc){ .kind = NK_TB, .op = 1 });
}
NATIVE_DESCRIBER(describe_branch_handlers)
#endif
