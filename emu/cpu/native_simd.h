/* Shared by the AdvSIMD emitters (native_simd.c, native_simd_perm.c): the host's SSE level
 * and the V register moves around the SSE instructions.  Guest V registers live in
 * CPUState; each op loads its sources into xmm0..xmm3, computes there and stores Vd. */
#ifndef MALIBU_NATIVE_SIMD_H
#define MALIBU_NATIVE_SIMD_H

#include "native_emit.h"
#include "x64_sse.h"

/* Host extensions beyond SSE2 that some emitters use (else the portable handler runs, or a
 * longer host sequence); HOST_LAHF: LAHF/SAHF in 64-bit mode (CPUID 0x80000001 ECX bit 0,
 * absent on the first x86-64 CPUs), which CCMP's failed-condition path uses; HOST_BMI1 and
 * HOST_BMI2: ANDN for BIC, TZCNT for RBIT + CLZ and RORX for ROR into another register (one
 * instruction for two or more); HOST_LZCNT (CPUID 0x80000001 ECX bit 5): LZCNT for CLZ. */
enum { HOST_SSSE3 = 1, HOST_SSE41 = 2, HOST_SSE42 = 4, HOST_LAHF = 8, HOST_BMI1 = 16, HOST_BMI2 = 32, HOST_LZCNT = 64 };
/* What the host has (CPUID, read once), limited by native_host_limit_extensions. */
unsigned native_host_extensions(void);
/* Tests: pretend the host lacks the extensions not in mask, for blocks compiled from now on. */
void native_host_limit_extensions(unsigned mask);
/* Has the host all of ext (HOST_*)? */
static inline bool native_host_has(unsigned ext) { return (native_host_extensions() & ext) == ext; }

static inline void vload(NCtx *x, int xmm, unsigned reg) { x_movdqu_load(&x->a, xmm, HR_CPU, voff(reg)); }
/* Vd <- xmm; a 64-bit result (q = 0) has bits 127:64 zeroed first. */
static inline void vstore(NCtx *x, unsigned reg, int xmm, bool q)
{
    if (!q)
        x_movq_xx(&x->a, xmm, xmm);
    x_movdqu_store(&x->a, HR_CPU, voff(reg), xmm);
}
/* Partial writes of a V register are whole 16-byte stores: a later 16-byte load of Vd (the next
 * op's vload, a Q store) cannot forward from two 8-byte stores or an element store and stalls
 * until they retire (a store-forwarding stall, ~15 cycles; 16 % of busybox ash's hottest block
 * was one MOVI v31 then STUR q31).  Vd <- GPR r, bits 127:64 zeroed (xmm0 clobbered). */
static inline void vstore_gpr64(NCtx *x, unsigned reg, int r)
{
    x_movq_xr(&x->a, W64, 0, r);
    x_movdqu_store(&x->a, HR_CPU, voff(reg), 0);
}
/* Element idx (of 8 << size bits) of Vd <- GPR r, the rest kept (xmm0 clobbered); false without
 * SSE4.1's pinsrb/d/q (the caller stores the element alone). */
static inline bool vinsert_gpr(NCtx *x, unsigned reg, int size, unsigned idx, int r)
{
    if (size != 1 && !native_host_has(HOST_SSE41))
        return false;
    vload(x, 0, reg);
    x_pinsr(&x->a, size, 0, r, (uint8_t)idx);
    x_movdqu_store(&x->a, HR_CPU, voff(reg), 0);
    return true;
}
/* xmm <- the 64-bit pattern in both halves (through rax). */
static inline void vconst(NCtx *x, int xmm, uint64_t pattern)
{
    if (!pattern) {
        x_p66(&x->a, P_PXOR, xmm, xmm);
        return;
    }
    x_mov_imm(&x->a, X_RAX, pattern);
    x_movq_xr(&x->a, W64, xmm, X_RAX);
    x_p66(&x->a, P_PUNPCKLQDQ, xmm, xmm);
}
/* xmm <- all ones */
static inline void vones(NCtx *x, int xmm) { x_p66(&x->a, P_PCMPEQB, xmm, xmm); }
/* An element pattern replicated over 64 bits (size = log2 element bytes). */
static inline uint64_t vrep(uint64_t e, int size)
{
    switch (size) {
    case 0: return (e & 0xff) * 0x0101010101010101ull;
    case 1: return (e & 0xffff) * 0x0001000100010001ull;
    case 2: return (e & 0xffffffffu) * 0x0000000100000001ull;
    default: return e;
    }
}

#endif
