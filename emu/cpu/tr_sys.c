/* Exception generation, system registers, hints and barriers. */
#include "translate.h"

bool trans_SYS_BRK(DisasCtx *s, arg_SYS_BRK *a)
{
    tr_raise(s, EXC_BRK, (uint32_t)a->imm16);
    return true;
}
