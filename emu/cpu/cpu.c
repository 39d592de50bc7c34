/* CPU reset state and the execution loop. */
#include <string.h>
#include "dispatch.h"

void (*cpu_trace_translated)(CPUState *c, const struct TB *tb);
void (*cpu_trace_exec)(CPUState *c, const struct TB *tb);
bool (*cpu_disasm)(uint32_t insn, uint64_t pc, char *buf, size_t n);

CpuModel cpu_model = CPU_MODEL_MAX;

bool cpu_model_set(const char *name)
{
    if (!strcmp(name, "a57"))
        cpu_model = CPU_MODEL_A57;
    else if (!strcmp(name, "max"))
        cpu_model = CPU_MODEL_MAX;
    else
        return false;
    return true;
}

uint64_t cpu_id_aa64isar0(void)
{
    uint64_t v = 0x11120; /* AES+PMULL (2), SHA1 (1), SHA2 (1), CRC32 (1) */
    if (cpu_feat_lse())
        v |= 2ull << 20; /* Atomic: FEAT_LSE */
    if (cpu_feat_rdm())
        v |= 1ull << 28; /* RDM: FEAT_RDM */
    if (cpu_feat_sha512())
        v += 1ull << 12; /* SHA2 = 2: SHA256 and FEAT_SHA512 */
    if (cpu_feat_sha3())
        v |= 1ull << 32; /* SHA3: FEAT_SHA3 */
    if (cpu_feat_dotprod())
        v |= 1ull << 44; /* DP: FEAT_DotProd */
    return v;
}

uint64_t cpu_id_aa64pfr0_fp(void)
{
    return cpu_feat_fp16() ? 0x110000ull : 0; /* FP = 1, AdvSIMD = 1: half precision too */
}

void cpu_init(CPUState *c)
{
    memset(c, 0, sizeof *c);
    c->insn_limit = UINT64_MAX;
}

_Noreturn void cpu_raise(CPUState *c, Op *op, CpuException exc, uint64_t fault_addr, bool write)
{
    c->pc = op ? op->pc : c->pc;
    c->exception = exc;
    c->fault_addr = fault_addr;
    c->fault_write = write;
    siglongjmp(c->jmp_env, 1);
}

/* The dispatch loop's user-mode parts (dispatch.h). */
static void user_at_exit_request(CPUState *c)
{
    if (c->tbc->flush_pending)
        tbc_flush(c->tbc);
    c->exception = EXC_INTERRUPT;
}

static CpuException user_before_block(CPUState *c)
{
#if MALIBU_HAVE_NATIVE
    if (unlikely(c->near_failed != NULL)) {
        TB *tb = c->near_failed; /* still the block at its pc, unless a flush came between */
        c->near_failed = NULL;
        if (tb_lookup(c->tbc, tb->pc) == tb)
            native_drop_head_facts(c, tb);
    }
#endif
    return EXC_NONE;
}

static TB *user_find_block(CPUState *c)
{
    TB *tb = tb_jmp_lookup(c->tbc, c->pc); /* the jump cache first: one read when it has it */
    return tb ? tb : tb_translate(c, c->pc);
}

static void user_block_found(CPUState *c, TB *tb)
{
}

/* Returns when an exception or exit request ends execution. */
static __attribute__((noinline)) CpuException exec_loop(CPUState *c)
{
    return cpu_dispatch(c, user_at_exit_request, user_before_block, user_find_block, user_block_found);
}

CpuException cpu_exec(CPUState *c)
{
    c->exception = EXC_NONE;
    if (sigsetjmp(c->jmp_env, 0)) {
        c->cur_op = NULL;
        return c->exception;
    }
    CpuException e = exec_loop(c);
    c->cur_op = NULL;
    return e;
}
