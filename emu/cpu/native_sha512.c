/* Native back end: x86-64 code for SHA512H, SHA512H2, SHA512SU0 and SHA512SU1 (NK_SHA512),
 * the same computation as tr_crypto_sha512.c's handlers on the two 64-bit lanes, in general
 * registers (rotates, and/xor, adds: base x86-64, no CPU feature to check).  The register
 * cache is emptied first, so r8-r11 are free scratch registers; every source lane is read
 * before Vd is written, as Vd may alias Vn or Vm. */
#include "native_emit.h"

#if MALIBU_HAVE_NATIVE

/* dst <- ror(src, r1) ^ ror(src, r2) ^ (shr ? src >> r3 : ror(src, r3)); tmp clobbered. */
static void sigma(Asm *a, int dst, int src, int tmp, uint8_t r1, uint8_t r2, uint8_t r3, bool shr)
{
    x_mov_rr(a, W64, dst, src);
    x_shift_ri(a, W64, SH_ROR, dst, r1);
    x_mov_rr(a, W64, tmp, src);
    x_shift_ri(a, W64, SH_ROR, tmp, r2);
    x_alu_rr(a, W64, ALU_XOR, dst, tmp);
    x_mov_rr(a, W64, tmp, src);
    x_shift_ri(a, W64, shr ? SH_SHR : SH_ROR, tmp, r3);
    x_alu_rr(a, W64, ALU_XOR, dst, tmp);
}
#define BIG_SIGMA0(a, d, s, t) sigma(a, d, s, t, 28, 34, 39, false)
#define BIG_SIGMA1(a, d, s, t) sigma(a, d, s, t, 14, 18, 41, false)
#define SMALL_SIGMA0(a, d, s, t) sigma(a, d, s, t, 1, 8, 7, true)
#define SMALL_SIGMA1(a, d, s, t) sigma(a, d, s, t, 19, 61, 6, true)

/* dst <- maj(p, q, r) = (p & (q | r)) | (q & r); tmp clobbered. */
/* dst = Ch(e, f, g) = g ^ (e & (f ^ g)) */
static void ch(Asm *a, int dst, int e, int f, int g)
{
    x_mov_rr(a, W64, dst, f);
    x_alu_rr(a, W64, ALU_XOR, dst, g);
    x_alu_rr(a, W64, ALU_AND, dst, e);
    x_alu_rr(a, W64, ALU_XOR, dst, g);
}

static void maj(Asm *a, int dst, int p, int q, int r, int tmp)
{
    x_mov_rr(a, W64, dst, q);
    x_alu_rr(a, W64, ALU_OR, dst, r);
    x_alu_rr(a, W64, ALU_AND, dst, p);
    x_mov_rr(a, W64, tmp, q);
    x_alu_rr(a, W64, ALU_AND, tmp, r);
    x_alu_rr(a, W64, ALU_OR, dst, tmp);
}

unsigned ne_emit_sha512(NCtx *x, const Op *o, const NativeDesc *d)
{
    Asm *a = &x->a;
    const int32_t vd = voff(o->d), vn = voff(o->n), vm = voff(o->m);
    rc_drop(x);
    switch (d->op) {
    case 0: /* SHA512H: x = Vn, y = Vm, w = Vd */
        x_load(a, W64, X_R8, HR_CPU, vn);      /* x0 */
        x_load(a, W64, X_R9, HR_CPU, vn + 8);  /* x1 */
        x_load(a, W64, X_R10, HR_CPU, vm);     /* y0 */
        x_load(a, W64, X_R11, HR_CPU, vm + 8); /* y1 */
        ch(a, X_RAX, X_R11, X_R8, X_R9); /* hi = Ch(y1, x0, x1) */
        BIG_SIGMA1(a, X_RCX, X_R11, X_RDX);
        x_alu_rr(a, W64, ALU_ADD, X_RAX, X_RCX);
        x_alu_rm(a, W64, ALU_ADD, X_RAX, HR_CPU, vd + 8); /* r1 */
        x_lea(a, W64, X_RCX, X_RAX, X_R10, 0);              /* t = r1 + y0 */
        ch(a, X_R9, X_RCX, X_R11, X_R8); /* lo = Ch(t, y1, x0) */
        BIG_SIGMA1(a, X_R10, X_RCX, X_RDX);
        x_alu_rr(a, W64, ALU_ADD, X_R9, X_R10);
        x_alu_rm(a, W64, ALU_ADD, X_R9, HR_CPU, vd); /* r0 */
        x_store(a, W64, HR_CPU, vd, X_R9);
        x_store(a, W64, HR_CPU, vd + 8, X_RAX);
        return 1;
    case 1: /* SHA512H2 */
        x_load(a, W64, X_R8, HR_CPU, vn);      /* x0 */
        x_load(a, W64, X_R10, HR_CPU, vm);     /* y0 */
        x_load(a, W64, X_R11, HR_CPU, vm + 8); /* y1 */
        maj(a, X_RAX, X_R8, X_R11, X_R10, X_RCX);
        BIG_SIGMA0(a, X_RCX, X_R10, X_RDX);
        x_alu_rr(a, W64, ALU_ADD, X_RAX, X_RCX);
        x_alu_rm(a, W64, ALU_ADD, X_RAX, HR_CPU, vd + 8); /* r1 */
        maj(a, X_R9, X_RAX, X_R10, X_R11, X_RCX);
        BIG_SIGMA0(a, X_R10, X_RAX, X_RDX);
        x_alu_rr(a, W64, ALU_ADD, X_R9, X_R10);
        x_alu_rm(a, W64, ALU_ADD, X_R9, HR_CPU, vd); /* r0 */
        x_store(a, W64, HR_CPU, vd, X_R9);
        x_store(a, W64, HR_CPU, vd + 8, X_RAX);
        return 1;
    case 2: /* SHA512SU1: r1 = w1 + s1(x1) + y1, r0 = w0 + s1(x0) + y0 */
        x_load(a, W64, X_R8, HR_CPU, vn + 8);
        SMALL_SIGMA1(a, X_RAX, X_R8, X_RDX);
        x_alu_rm(a, W64, ALU_ADD, X_RAX, HR_CPU, vd + 8);
        x_alu_rm(a, W64, ALU_ADD, X_RAX, HR_CPU, vm + 8);
        x_load(a, W64, X_R9, HR_CPU, vn);
        SMALL_SIGMA1(a, X_RCX, X_R9, X_RDX);
        x_alu_rm(a, W64, ALU_ADD, X_RCX, HR_CPU, vd);
        x_alu_rm(a, W64, ALU_ADD, X_RCX, HR_CPU, vm);
        x_store(a, W64, HR_CPU, vd, X_RCX);
        x_store(a, W64, HR_CPU, vd + 8, X_RAX);
        return 1;
    case 3: /* SHA512SU0: r0 = w0 + s0(w1), r1 = w1 + s0(x0) */
        x_load(a, W64, X_R8, HR_CPU, vd + 8); /* w1 */
        x_load(a, W64, X_R9, HR_CPU, vn);     /* x0 */
        SMALL_SIGMA0(a, X_RAX, X_R8, X_RDX);
        x_alu_rm(a, W64, ALU_ADD, X_RAX, HR_CPU, vd);
        SMALL_SIGMA0(a, X_RCX, X_R9, X_RDX);
        x_alu_rr(a, W64, ALU_ADD, X_RCX, X_R8);
        x_store(a, W64, HR_CPU, vd, X_RAX);
        x_store(a, W64, HR_CPU, vd + 8, X_RCX);
        return 1;
    default:
        return 0;
    }
}

#endif /* MALIBU_HAVE_NATIVE */
