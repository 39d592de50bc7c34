/* What the CPU core needs from the runtime that hosts it (user-mode process or board). */
#ifndef MALIBU_ENV_H
#define MALIBU_ENV_H

#include "cpu.h"

/* Fetch the instruction at pc for translation.  False when pc is not mapped
 * executable.  The runtime also notes the page as holding translated code so
 * that a later write to it invalidates the translation (c->tbc->flush_pending
 * and c->exit_request). */
bool env_fetch_insn(CPUState *c, uint64_t pc, uint32_t *insn);

#endif
