/* Test harness: run a few hand-assembled A64 instructions on a fresh CPU in
 * the user-mode address space and inspect the resulting state. */
#ifndef MALIBU_CPU_HARNESS_H
#define MALIBU_CPU_HARNESS_H

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "guest_mem.h"
#include "tb.h"

#define HARNESS_CODE 0x100000ull
#define HARNESS_DATA 0x200000ull
#define HARNESS_DATA_SIZE 0x10000ull

static inline CPUState *harness_cpu(void)
{
    static CPUState *c;
    if (!c) {
        ck_assert_int_eq(guest_mem_init(true), 0);
        ck_assert_int_eq(guest_map_anon(HARNESS_CODE, 0x10000, GP_READ | GP_EXEC), 0);
        ck_assert_int_eq(guest_map_anon(HARNESS_DATA, HARNESS_DATA_SIZE, GP_READ | GP_WRITE), 0);
        c = aligned_alloc(64, (sizeof *c + 63) & ~(size_t)63);
        memset(c, 0, sizeof *c);
    }
    TBCache *t = c->tbc;
    cpu_init(c);
    /* The recorded vectors are qemu -cpu cortex-a57's (UNDEF where Armv8.1 adds encodings, its
     * ID registers): the Armv8.0 core.  Tests of the newer core set CPU_MODEL_MAX after this. */
    cpu_model = CPU_MODEL_A57;
    c->tbc = t ? t : tbc_new(64 << 20);
    tbc_flush(c->tbc);
    c->guest_base = guest_base;
    guest_mem_set_current_cpu(c);
    return c;
}

/* Copy code (terminated by the caller, e.g. with BRK #0) and run it from the start. */
static inline CpuException harness_run(CPUState *c, const uint32_t *code, size_t n)
{
    ck_assert_int_eq(guest_protect(HARNESS_CODE, 0x10000, GP_READ | GP_WRITE), 0);
    memcpy(g2h(HARNESS_CODE), code, n * 4);
    ck_assert_int_eq(guest_protect(HARNESS_CODE, 0x10000, GP_READ | GP_EXEC), 0);
    tbc_flush(c->tbc);
    c->exit_request = 0; /* the code write above invalidated translations */
    c->pc = HARNESS_CODE;
    return cpu_exec(c);
}

#define BRK0 0xd4200000u

/* Run the code already at HARNESS_CODE on a CPU of its own (its own translation cache), in
 * the calling host thread, with x0-x7 from x and every other register zero, until it stops:
 * the exception that stopped it.  For tests where several host threads run guest code at once. */
static inline CpuException harness_run_own_cpu(const uint64_t x[8])
{
    CPUState *c = aligned_alloc(64, (sizeof *c + 63) & ~(size_t)63);
    cpu_init(c);
    c->tbc = tbc_new(4 << 20);
    c->guest_base = guest_base;
    guest_mem_set_current_cpu(c);
    memcpy(c->x, x, 8 * sizeof x[0]);
    c->pc = HARNESS_CODE;
    CpuException e;
    while ((e = cpu_exec(c)) == EXC_INTERRUPT)
        ;
    tbc_free(c->tbc);
    free(c);
    return e;
}

/* Encoding k of a sweep over the bits `vary` of `base`: the low bits of k,
 * in order, go to the set bits of vary, lowest first. */
static inline uint32_t sweep_encoding(uint32_t base, uint32_t vary, unsigned k)
{
    uint32_t insn = base;
    for (int b = 0; b < 32; b++)
        if (vary & (1u << b)) {
            if (k & 1)
                insn |= 1u << b;
            k >>= 1;
        }
    return insn;
}

#endif
