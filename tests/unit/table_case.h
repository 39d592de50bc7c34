/* Runner for the qemu-recorded integer/branch tables (test_int.c,
 * test_branch_sys.c): a few instructions run on X0..X7 and NZCV, then the
 * expected X0..X7 and NZCV (or UNDEFINED at the first instruction) are
 * checked.  The tables stay in the test files. */
#ifndef MALIBU_TABLE_CASE_H
#define MALIBU_TABLE_CASE_H

#include "cpu_harness.h"

typedef struct {
    const char *name;
    uint32_t code[16];
    unsigned n;
    uint64_t in[8];
    uint32_t nzcv_in;
    int undef;
    uint64_t out[8];
    uint32_t nzcv_out;
} TableCase;

#define TEST_SP 0x10080000ull

static inline void table_case_run(const TableCase *t)
{
    CPUState *c = harness_cpu();
    uint32_t code[18];
    memcpy(code, t->code, t->n * 4);
    code[t->n] = BRK0;
    for (int i = 0; i < 8; i++)
        c->x[i] = t->in[i];
    c->x[REG_SP] = TEST_SP;
    cpu_set_nzcv(c, t->nzcv_in << 28);
    CpuException e = harness_run(c, code, t->n + 1);
    if (t->undef) {
        ck_assert_msg(e == EXC_UDEF, "%s (%08x): expected UNDEF, got %d", t->name, t->code[0], e);
        ck_assert_uint_eq(c->pc, HARNESS_CODE);
        return;
    }
    ck_assert_msg(e == EXC_BRK, "%s (%08x): exception %d at pc %llx", t->name, t->code[0], e,
                  (unsigned long long)c->pc);
    ck_assert_uint_eq(c->pc, HARNESS_CODE + 4 * t->n);
    for (int i = 0; i < 8; i++)
        ck_assert_msg(c->x[i] == t->out[i], "%s (%08x): x%d = %llx, want %llx", t->name, t->code[0], i,
                      (unsigned long long)c->x[i], (unsigned long long)t->out[i]);
    ck_assert_msg(cpu_get_nzcv(c) >> 28 == t->nzcv_out, "%s (%08x): nzcv %x, want %x", t->name, t->code[0],
                  cpu_get_nzcv(c) >> 28, t->nzcv_out);
    ck_assert_uint_eq(c->x[REG_SP], TEST_SP);
}

#endif
