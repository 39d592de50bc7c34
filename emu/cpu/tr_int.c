/* Integer data processing: translators and op handlers. */
#include "translate.h"

/* ADD/SUB (immediate), no flags: Rd|SP = Rn|SP +- imm. */
static Op *op_add64_imm(CPUState *c, Op *o) { c->x[o->d] = c->x[o->n] + o->imm; return o + 1; }
static Op *op_add32_imm(CPUState *c, Op *o) { c->x[o->d] = (uint32_t)(c->x[o->n] + o->imm); return o + 1; }

bool trans_INT_ADDSUB_imm(DisasCtx *s, arg_INT_ADDSUB_imm *a)
{
    if (a->s)
        return false; /* flag-setting forms: not yet */
    uint64_t imm = (uint64_t)a->imm12 << (a->sh ? 12 : 0);
    if (a->op)
        imm = -imm;
    Op *o = tr_emit(s, a->sf ? op_add64_imm : op_add32_imm);
    o->d = xsp(a->rd);
    o->n = xsp(a->rn);
    o->imm = imm;
    return true;
}
