/* Native back end, system mode: context synchronization (NK_CONTEXT_SYNC) and DC ZVA
 * (NK_DC_ZVA).
 *
 * DC ZVA: four 16-byte stores of zero after the soft-TLB write probe.  Linux clears pages with it (clear_page: one DC ZVA per 64 bytes) and
 * glibc's memset uses it for large blocks; the portable handler cost a call with the register
 * cache written back and reloaded around it.  A miss (no write tag: not mapped, read-only, MMIO,
 * a page with translated code) calls the handler, which raises or takes the slow path. */
#include "native_emit.h"
#include "x64_sse.h"

#if MALIBU_HAVE_NATIVE

unsigned ne_emit_dc_zva(NCtx *x, const Op *o, const NativeDesc *d)
{
#ifndef CONFIG_SYSTEM
    (void)x, (void)o, (void)d;
    return 0;
#else
    Asm *a = &x->a;
    unsigned bytes = 1u << d->size;
    int rn = rc_src(x, o->n, X_RAX);
    if (rn != X_RAX)
        x_mov_rr(a, W64, X_RAX, rn);
    x_alu_ri(a, W64, ALU_AND, X_RAX, -(int32_t)bytes); /* the block the address is in */
    /* the miss path stores the dirty cached registers for the handler (ne_slow_site) */
    int miss = ne_slow_site(x, ne_tlb_probe(x, true, bytes, X_RCX));
    x_p66(a, 0xEF, 0, 0); /* pxor xmm0, xmm0 */
    for (unsigned off = 0; off < bytes; off += 16)
        x_movdqu_mx(a, X_RCX, X_RAX, (int32_t)off, 0);
    ne_slow_resume(x, miss, a->p);
    return 1;
#endif
}

/* ISB: instruction fetch after it sees the TLB maintenance and translation-table writes before
 * it.  A guest call's return point goes on into the calling block without checking that the
 * block's page is still mapped as when it was translated (native.c, emit_return_points): only a
 * context synchronization event lets a TLBI change what a return fetches, and ISB is the one
 * that does not leave to the dispatcher (exception entry, ERET and translation-register writes
 * do, and every exit drops the frames).  So ISB forgets every frame, as the dispatcher does:
 * the pending returns take the lookup stub. */
unsigned ne_emit_context_sync(NCtx *x)
{
#ifndef CONFIG_SYSTEM
    (void)x;
    return 0;
#else
    x_load(&x->a, W64, X_RSP, HR_CPU, CPU_OFF(host_sp));
    return 1;
#endif
}

#endif /* MALIBU_HAVE_NATIVE */
