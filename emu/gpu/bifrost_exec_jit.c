/* The clause compiler (its ALU units: bifrost_exec_jit_alu.c): a prepared clause (bi_xclause)
 * becomes x86-64 code that runs its tuples over all lanes of a warp at once, one AVX2 register per lane row (ymm: 8 lanes, xmm: 4;
 * or, on hosts without AVX2, one SSE register per 4-lane row: jx_emit.sse).  The
 * common ALU forms the interpreter runs as lane loops (fast_fma / fast_add kinds) are compiled;
 * every other unit, and a float unit whose result is a NaN in some lane, calls the interpreter's
 * code for that unit (bx_jit_unit); a single clause's end (bx_jit_exec) is the interpreter's,
 * and in runs of clauses (bx_jit_run) bifrost_exec_jit_end.c compiles it.
 * Integer ops are exact on any host; float ops are compiled only where the host's IEEE result
 * is the interpreter's: round to nearest (the host's default MXCSR, which the interpreter's
 * float helpers restore), no output clamp, FTZ clauses' denormals flushed with integer masks as
 * bx_fsrc / fout flush them, NaNs redone by the interpreter. */
#include "bifrost_exec_jit_comp.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- which back end runs ------------------------------------------------------------------- */

enum bx_jit_isa bx_jit_host_isa(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return BX_JIT_ISA_AVX2;
    if (__builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("ssse3"))
        return BX_JIT_ISA_SSE;
#endif
    return BX_JIT_ISA_NONE;
}

/* The host code compiled for programs with no choice of their own (bi_program_set_backend), as
 * the host's CPU features and MALIBU_GPU_JIT_ISA allow; -1: not looked at yet. */
static int isa = -1;          /* enum bx_jit_isa */

enum bx_jit_isa bx_jit_isa(void)
{
    int i = __atomic_load_n(&isa, __ATOMIC_RELAXED);
    if (i < 0) {
        i = (int)bx_jit_host_isa();
        const char *env = getenv("MALIBU_GPU_JIT_ISA");
        if (env && *env) {
            if (!strcmp(env, "sse")) {
                if (i > BX_JIT_ISA_SSE)
                    i = BX_JIT_ISA_SSE;
            } else if (strcmp(env, "avx2")) {
                fprintf(stderr, "gpu: jit: MALIBU_GPU_JIT_ISA=%s ignored (sse or avx2)\n", env);
            }
        }
        int unset = -1;
        if (!__atomic_compare_exchange_n(&isa, &unset, i, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            i = unset;           /* another thread chose first (the same) */
    }
    return (enum bx_jit_isa)i;
}

int bx_jit_set_isa(enum bx_jit_isa i)
{
    if (i > bx_jit_host_isa())
        return -1;
    __atomic_store_n(&isa, (int)i, __ATOMIC_RELAXED);
    return 0;
}

int bx_jit_host_ok(void) { return bx_jit_isa() != BX_JIT_ISA_NONE; }

int bi_set_jit_isa(const char *name)
{
    if (!strcmp(name, "avx2"))
        return bx_jit_set_isa(BX_JIT_ISA_AVX2);
    if (!strcmp(name, "sse"))
        return bx_jit_set_isa(BX_JIT_ISA_SSE);
    return -1;
}

int bi_jit_isa_code(const char *name)
{
    enum bx_jit_isa i = !strcmp(name, "avx2") ? BX_JIT_ISA_AVX2 : !strcmp(name, "sse") ? BX_JIT_ISA_SSE : BX_JIT_ISA_NONE;
    return i != BX_JIT_ISA_NONE && i <= bx_jit_host_isa() ? (int)i : -1;
}

/* The process's back end, for programs with none of their own (bi_program_set_backend): tests
 * and tools; the engines choose theirs. */
static int backend = -1;      /* enum bi_backend; -1: not chosen yet (the host's default) */

int bi_set_backend(enum bi_backend b)
{
    if (b == BI_BACKEND_JIT && !bx_jit_host_ok())
        return -1;
    __atomic_store_n(&backend, (int)b, __ATOMIC_RELAXED);
    return 0;
}

enum bi_backend bi_get_backend(void)
{
    int b = __atomic_load_n(&backend, __ATOMIC_RELAXED);
    if (b < 0) {
        b = bx_jit_host_ok() ? BI_BACKEND_JIT : BI_BACKEND_INTERP;
        __atomic_store_n(&backend, b, __ATOMIC_RELAXED);
    }
    return (enum bi_backend)b;
}

/* ---- code arenas ------------------------------------------------------------------------------ */

#define ARENA_CHUNK (256u << 10)

struct bx_jit_arena {
    uint8_t *chunk;
    size_t used;
    bx_jit_arena *prev;       /* earlier, full chunks */
};

void bx_jit_arena_free(bx_jit_arena *a)
{
    while (a) {
        bx_jit_arena *prev = a->prev;
        munmap(a->chunk, ARENA_CHUNK);
        free(a);
        a = prev;
    }
}

/* size bytes of executable memory, 32-byte aligned */
static void *arena_alloc(bx_jit_arena **ap, size_t size)
{
    bx_jit_arena *a = *ap;
    size = (size + 31) & ~(size_t)31;
    if (size > ARENA_CHUNK)
        return NULL;
    if (!a || a->used + size > ARENA_CHUNK) {
        bx_jit_arena *n = calloc(1, sizeof(*n));
        if (!n)
            return NULL;
        n->chunk = mmap(NULL, ARENA_CHUNK, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (n->chunk == MAP_FAILED) {
            free(n);
            return NULL;
        }
        n->prev = a;
        *ap = a = n;
    }
    void *p = a->chunk + a->used;
    a->used += size;
    return p;
}

/* ---- the compiler ----------------------------------------------------------------------------- */

/* Constant rows compiled code reads through r14. */
const uint32_t bx_jit_krows[KR_N][NL] __attribute__((aligned(32))) = {
    [KR_ABS] = { 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff },
    [KR_SIGN] = { 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000 },
    [KR_ONE] = { 1, 1, 1, 1, 1, 1, 1, 1 },
    [KR_FONE] = { 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000 },
    [KR_31] = { 31, 31, 31, 31, 31, 31, 31, 31 },
    [KR_FFFF] = { 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff },
    [KR_ONES] = { ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u },
    [KR_LANEBIT] = { 1, 2, 4, 8, 16, 32, 64, 128 },
    [KR_LANEID] = { 0, 1, 2, 3, 4, 5, 6, 7 },
    [KR_EXP] = { 0x7f800000, 0x7f800000, 0x7f800000, 0x7f800000, 0x7f800000, 0x7f800000, 0x7f800000, 0x7f800000 },
    [KR_FF] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff },
    [KR_2P16] = { 0x47800000, 0x47800000, 0x47800000, 0x47800000, 0x47800000, 0x47800000, 0x47800000, 0x47800000 },
    [KR_126] = { 126, 126, 126, 126, 126, 126, 126, 126 },
    [KR_BYTE_BASE] = { 0, 0x04040404, 0x08080808, 0x0c0c0c0c, 0, 0x04040404, 0x08080808, 0x0c0c0c0c },
    [KR_600] = { 600, 600, 600, 600, 600, 600, 600, 600 },
    [KR_M600] = { -600u, -600u, -600u, -600u, -600u, -600u, -600u, -600u },
    [KR_F2P31] = { 0x4f000000, 0x4f000000, 0x4f000000, 0x4f000000, 0x4f000000, 0x4f000000, 0x4f000000, 0x4f000000 },
    [KR_F2P32] = { 0x4f800000, 0x4f800000, 0x4f800000, 0x4f800000, 0x4f800000, 0x4f800000, 0x4f800000, 0x4f800000 },
    [KR_MANT_SIGN] = { 0x807fffff, 0x807fffff, 0x807fffff, 0x807fffff, 0x807fffff, 0x807fffff, 0x807fffff, 0x807fffff },
    [KR_HALF_EXP] = { 0x3f000000, 0x3f000000, 0x3f000000, 0x3f000000, 0x3f000000, 0x3f000000, 0x3f000000, 0x3f000000 },
    [KR_MANT_TOP] = { 0x400000, 0x400000, 0x400000, 0x400000, 0x400000, 0x400000, 0x400000, 0x400000 },
    [KR_Q_ABS] = { ~0u, 0x7fffffff, ~0u, 0x7fffffff, ~0u, 0x7fffffff, ~0u, 0x7fffffff },
    [KR_Q_INF] = { 0, 0x7ff00000, 0, 0x7ff00000, 0, 0x7ff00000, 0, 0x7ff00000 },
    [KR_Q_ONE] = { 1, 0, 1, 0, 1, 0, 1, 0 },
    [KR_Q_1023] = { 1023, 0, 1023, 0, 1023, 0, 1023, 0 },
    [KR_D_ONE] = { 0, 0x3ff00000, 0, 0x3ff00000, 0, 0x3ff00000, 0, 0x3ff00000 },
    [KR_D_4] = { 0, 0x40100000, 0, 0x40100000, 0, 0x40100000, 0, 0x40100000 },
    [KR_D_M4] = { 0, 0xc0100000, 0, 0xc0100000, 0, 0xc0100000, 0, 0xc0100000 },
};

/* The start of each clause's code: what the frame needs afresh per clause (cstate_init's state:
 * no branches, no message, no staging writes), the clause begun counted. */
static void compile_clause_init(jcomp *jc)
{
    jx_emit *e = &jc->e;
    jx_gp_m(e, 1, GP_MOV_MR, R13, R12, (int32_t)offsetof(bx_jit_frame, last));
    jx_gp_mi(e, 0, 0x81, 0, R12, (int32_t)offsetof(bx_jit_frame, nrun), 1);
    jx_gp_mi(e, 0, 0xc7, 0, R12, F_ST(stg.n), 0);
    jx_gp_mi(e, 1, 0xc7, 0, R12, F_ST(msg), 0);
    jx_gp_mi(e, 0, 0xc7, 0, R12, F_ST(fc.ftz), jc->x->c.hdr[BI_H_FTZ] != 0);
    int atomic = 0;              /* ATOM_C's address rows are read only by an atomic message */
    for (unsigned i = 0; i < jc->x->c.ntuples; i++)
        atomic |= jc->x->add[i].sem == BI_SEM_ATOM_CX || jc->x->fma[i].sem == BI_SEM_ATOM_C;
    if (!jc->may_branch && !atomic)
        return;
    jx_op(e, JX_VPXOR, 0, 0, 0);
    if (jc->may_branch) {
        jx_store(e, 0, R12, F_ST(branch));
        jx_store(e, 0, R12, F_ST(target));
    }
    for (unsigned k = 0; atomic && k < (e->l ? 64u : 32u); k += (e->l ? 32u : 16u))  /* 64-bit: two rows */
        jx_store(e, 0, R12, F_ST(atom_addr) + (int32_t)k);
}

int bx_jc_pool(jcomp *jc, uint32_t v)
{
    unsigned k = 0;
    while (k < jc->npool && jc->pool[k] != v)
        k++;
    if (k == BX_JIT_MAX_BC)
        return -1;
    if (k == jc->npool)
        jc->pool[jc->npool++] = v;
    return (int)k;
}

/* Whether source k of unit (i, add) is known to hold no denormal in the active lanes. */
int bx_jc_src_clean(const jcomp *jc, unsigned i, int add, unsigned k)
{
    const bi_xinstr *xi = add ? &jc->x->add[i] : &jc->x->fma[i];
    if (k >= xi->nsrcs)
        return 1;                                   /* the zero row */
    const bi_src *s = &(add ? &jc->x->c.t[i].add : &jc->x->c.t[i].fma)->src[k];
    switch (s->kind) {
    case BI_SRC_REG: return jc->clean_reg[s->index & 63];
    case BI_SRC_T: return !add || jc->clean_res[i + 1][0];
    case BI_SRC_T0: return jc->clean_res[i][0];
    case BI_SRC_T1: return jc->clean_res[i][1];
    default: return 0;
    }
}

/* the frame row of result (ri, u) (ri = tuple + 1), noted as read from memory: a result row
 * nothing reads is not stored (bx_jit_compile's second pass) */
static int32_t res_row(jcomp *jc, unsigned ri, unsigned u)
{
    jc->res_read[ri][u] = 1;
    return F_RES(ri, u);
}

/* Where source k of unit (i, add) is as a lane row, or base 0 when it needs a bc row but none is
 * left. */
row bx_jc_src_row(jcomp *jc, unsigned i, int add, unsigned k)
{
    const bi_tuple *t = &jc->x->c.t[i];
    const bi_xinstr *xi = add ? &jc->x->add[i] : &jc->x->fma[i];
    row r = { R12, F_ZERO };
    if (k >= xi->nsrcs)
        return r;
    const bi_src *s = &(add ? &t->add : &t->fma)->src[k];
    switch (s->kind) {
    case BI_SRC_REG: r.base = RBX; r.disp = W_REG(s->index); break;
    case BI_SRC_T: if (add && !jc->zero_res[i + 1][0]) r.disp = res_row(jc, i + 1, 0); break;
    case BI_SRC_T0: if (!jc->zero_res[i][0]) r.disp = res_row(jc, i, 0); break;
    case BI_SRC_T1: if (!jc->zero_res[i][1]) r.disp = res_row(jc, i, 1); break;
    case BI_SRC_UNIFORM: case BI_SRC_CONST: case BI_SRC_SPECIAL: {
        /* read_src's cases, resolved now where they do not depend on the warp; one row per value */
        uint8_t kind = BC_VALUE;
        uint32_t v = 0;
        if (s->kind == BI_SRC_UNIFORM) {
            kind = BC_UNIFORM;
            v = 2u * s->index + s->hi;
        } else if (s->kind == BI_SRC_CONST) {
            v = s->hi ? jc->x->fau_hi[i] : jc->x->fau_lo[i];
        } else if (s->index >= 4) {
            r.base = 0;                             /* graphics FAU values: the interpreter's unit */
            return r;
        } else if (!s->hi) {
            kind = s->index == 1 ? BC_LANE_ID : s->index == 2 ? BC_WARP_ID : s->index == 3 ? BC_CORE_ID : BC_VALUE;
        }
        if (kind == BC_VALUE && v == 0)
            break;                                  /* the zero row */
        if (kind == BC_LANE_ID) {
            r.base = R14;
            r.disp = KROW(KR_LANEID);
            break;
        }
        if (kind == BC_VALUE) {                     /* a constant: a row of the code's pool */
            int k = bx_jc_pool(jc, v);
            if (k >= 0) {
                r.base = JX_POOL;
                r.disp = k;
                break;
            }
        }
        unsigned k = 0;
        while (k < jc->nbc && !(jc->bc[k].kind == kind && jc->bc[k].value == v))
            k++;
        if (k == jc->nbc) {
            if (k == BX_JIT_MAX_BC) {
                r.base = 0;
                return r;
            }
            jc->bc[k].kind = kind;
            jc->bc[k].value = v;
            jc->nbc++;
        }
        r.disp = F_BC(k);
        break;
    }
    default: break;
    }
    return r;
}

/* the bc rows (read_src's values; emitted after the epilogue, reached from the prologue) */
static void compile_bc_fill(jcomp *jc)
{
    jx_emit *e = &jc->e;
    int uniforms = 0;
    for (unsigned k = 0; k < jc->nbc; k++) {
        uint32_t v = jc->bc[k].value;
        switch (jc->bc[k].kind) {
        case BC_UNIFORM: {          /* v < w->nuniforms ? w->uniforms[v] : 0 */
            if (!uniforms++)
                jx_load_rax_rbx(e, (int32_t)offsetof(bi_warp, uniforms));
            jx_op(e, JX_VPXOR, 1, 1, 1);
            jx_cmp_rbx_imm(e, (int32_t)offsetof(bi_warp, nuniforms), v);
            size_t skip = jx_jcc_fwd(e, CC_BE);
            jx_broadcast_m(e, 1, RAX, (int32_t)(4 * v));
            jx_patch(e, skip);
            break;
        }
        case BC_LANE_ID: jx_load(e, 1, R14, KROW(KR_LANEID)); break;
        case BC_WARP_ID: jx_broadcast_m(e, 1, RBX, (int32_t)offsetof(bi_warp, warp_id)); break;
        case BC_CORE_ID: jx_broadcast_m(e, 1, RBX, (int32_t)offsetof(bi_warp, core_id)); break;
        default:
            jx_mov_eax(e, v);
            jx_movd_from_eax(e, 1);
            jx_broadcast(e, 1, 1);
            break;
        }
        jx_store(e, 1, R12, F_BC(k));
    }
}


/* the register holding result row (ri, u) (ri = tuple + 1), or 0 */
static unsigned cached(const jcomp *jc, unsigned ri, int u)
{
    if (ri == 0)
        return 0;
    unsigned r = CACHE_REG(ri - 1, u);
    return jc->held[r - 8] == 1 + (ri << 1 | (unsigned)u) ? r : 0;
}

/* after a call (which clobbers every vector register): the held rows again, from the frame */
void bx_jc_reload_cached(jcomp *jc)
{
    for (unsigned k = 0; k < 4; k++)
        if (jc->held[k]) {
            unsigned v = jc->held[k] - 1;
            jx_load(&jc->e, 8 + k, R12, res_row(jc, v >> 1, v & 1));
        }
}

/* source q of unit (i, add) into ymm y: from its cached register, or loaded from its row */
void bx_jc_load_src(jcomp *jc, unsigned y, unsigned i, int add, unsigned q, row s)
{
    const bi_xinstr *xi = add ? &jc->x->add[i] : &jc->x->fma[i];
    unsigned r = 0;
    if (q < xi->nsrcs) {
        const bi_src *src = &(add ? &jc->x->c.t[i].add : &jc->x->c.t[i].fma)->src[q];
        if (src->kind == BI_SRC_REG)
            r = bx_jc_reg_cached(jc, src->index);
        else if (src->kind == BI_SRC_T && add)
            r = cached(jc, i + 1, 0);
        else if (src->kind == BI_SRC_T0)
            r = cached(jc, i, 0);
        else if (src->kind == BI_SRC_T1)
            r = cached(jc, i, 1);
    }
    if (r)
        jx_movr(&jc->e, y, r);
    else
        jx_load(&jc->e, y, s.base, s.disp);
}

/* the interpreter's code for unit iu; a failure (fault) leaves through the epilogue */
void bx_jc_call_unit(jcomp *jc, unsigned iu)
{
    jx_emit *e = &jc->e;
    unsigned i = iu >> 1;
    bx_jc_clobber_high(jc);
    /* the result rows the unit may read (T0, T1, and T for the ADD unit), zeros never stored */
    if (jc->zero_res[i][0] || jc->zero_res[i][1] || ((iu & 1) && jc->zero_res[i + 1][0])) {
        jx_op(e, JX_VPXOR, 0, 0, 0);
        for (unsigned u = 0; u < 2; u++)
            if (jc->zero_res[i][u])
                jx_store(e, 0, R12, F_RES(i, u));
        if ((iu & 1) && jc->zero_res[i + 1][0])
            jx_store(e, 0, R12, F_RES(i + 1, 0));
    }
    res_row(jc, i, 0);                      /* (what the interpreter's unit reads) */
    res_row(jc, i, 1);
    if (iu & 1)
        res_row(jc, i + 1, 0);
    bx_jc_emit_call(e, (const void *)bx_jit_unit, iu);
    if (jc->nexits == sizeof(jc->exits) / sizeof(jc->exits[0])) {
        jc->full = 1;
        return;
    }
    jc->exits[jc->nexits++] = jx_jcc_fwd(e, CC_NZ);
}

/* The ADD unit's message (add_unit's deferral): its sources and the FMA unit's atomic address
 * kept for the clause's end, the message remembered, a zero result.  Returns 0 when a source
 * needs a bc row but none is left. */
int bx_jc_compile_msg(jcomp *jc, unsigned i)
{
    jx_emit *e = &jc->e;
    unsigned nbc = jc->nbc;
    row s[4];
    for (unsigned q = 0; q < 4; q++) {
        s[q] = bx_jc_src_row(jc, i, 1, q);
        if (!s[q].base) {
            jc->nbc = nbc;
            return 0;
        }
    }
    /* loads and stores read only their address sources (bx_exec_mem's exec_ldst), and only
     * ATOM_CX the ATOM_C addresses */
    const bi_xinstr *xi = &jc->x->add[i];
    unsigned nsrc = xi->sem == BI_SEM_LOAD || xi->sem == BI_SEM_STORE ? 2 : 4;
    for (unsigned q = 0; q < nsrc; q++) {
        jx_load(e, 0, s[q].base, s[q].disp);
        jx_store(e, 0, R12, F_ST(msg_src) + (int32_t)(q * NL * 4));
    }
    for (int32_t k = 0; xi->sem == BI_SEM_ATOM_CX && k < (e->l ? 64 : 32); k += (e->l ? 32 : 16)) {
        jx_load(e, 0, R12, F_ST(atom_addr) + k);              /* n 64-bit addresses */
        jx_store(e, 0, R12, F_ST(msg_atom) + k);
    }
    jx_lea_rax_r13(e, (int32_t)(offsetof(bi_xclause, add) + i * sizeof(bi_xinstr)));
    jx_store_rax_r12(e, F_ST(msg));
    jc->zero_res[i + 1][1] = 1;                                 /* a zero result */
    jc->clean_res[i + 1][1] = 1;
    return 1;
}

/* BRANCHZ.i16 / .i32 and JUMP (bx_exec_op's cases): active lanes whose condition holds take the
 * branch (branch = 1, target = the target source, or PC_EXIT for an absolute target 0); the
 * result is 0.  Returns 0 when a source needs a bc row but none is left. */
int bx_jc_compile_branch(jcomp *jc, unsigned i, int add)
{
    jx_emit *e = &jc->e;
    const bi_xinstr *xi = add ? &jc->x->add[i] : &jc->x->fma[i];
    unsigned nbc = jc->nbc;
    row a = bx_jc_src_row(jc, i, add, 0), b = bx_jc_src_row(jc, i, add, 1);
    if (!a.base || !b.base) {
        jc->nbc = nbc;
        return 0;
    }
    int jump = xi->sem == BI_SEM_JUMP;
    row t = jump ? a : b;
    jx_load(e, 4, R12, F_KEEP(0));                /* ymm4: lanes taking the branch */
    if (!jump) {
        bx_jc_load_src(jc, 0, i, add, 0, a);
        if (xi->sem == BI_SEM_BRANCHZ16) {
            if (xi->widen[0] == 2)
                jx_shift_imm(e, 0, 0, 0, 16);
            jx_opm(e, JX_VPAND, 0, 0, R14, KROW(KR_FFFF));
        }
        jx_op(e, JX_VPXOR, 5, 5, 5);
        jx_op(e, JX_VPCMPEQD, 0, 0, 5);
        if (xi->cmp != C_EQ)
            jx_opm(e, JX_VPXOR, 0, 0, R14, KROW(KR_ONES));
        jx_op(e, JX_VPAND, 4, 4, 0);
    }
    bx_jc_load_src(jc, 1, i, add, jump ? 0 : 1, t);
    if (xi->abs_target) {                         /* 0 -> PC_EXIT (all ones) */
        jx_op(e, JX_VPXOR, 5, 5, 5);
        jx_op(e, JX_VPCMPEQD, 2, 1, 5);
        jx_op(e, JX_VPOR, 1, 1, 2);
    }
    jx_load(e, 2, R12, F_ST(target));
    jx_blendv(e, 1, 2, 2, 1, 4);
    jx_store(e, 2, R12, F_ST(target));
    jx_load(e, 3, R12, F_ST(branch));
    jx_shift_imm(e, 0, 4, 4, 31);
    jx_op(e, JX_VPOR, 3, 3, 4);
    jx_store(e, 3, R12, F_ST(branch));
    jx_op(e, JX_VPXOR, 0, 0, 0);
    jx_store(e, 0, R12, F_RES(i + 1, add));
    return 1;
}

/* commit tuple i's register writes for the active lanes (the interpreter's commit) */
static void compile_commit(jcomp *jc, unsigned i)
{
    jx_emit *e = &jc->e;
    const bi_tuple *t = &jc->x->c.t[i];
    for (unsigned k = 0; k < t->nwrites; k++) {
        const bi_write *wr = &t->writes[k];
        unsigned keep = wr->mask == 3 ? 0 : wr->mask == 1 ? 1 : 2;
        jc->clean_reg[wr->reg & 63] = wr->mask == 3 && jc->clean_res[i + 1][wr->from_add];
        unsigned res = cached(jc, i + 1, wr->from_add);          /* the result still in its register? */
        if (!res) {
            jx_load(e, 1, R12, jc->zero_res[i + 1][wr->from_add] ? F_ZERO : res_row(jc, i + 1, wr->from_add));
            res = 1;
        }
        if (jc->keep15 != (int)keep) {
            jx_load(e, 15, R12, F_KEEP(keep));
            jc->keep15 = (int)keep;
        }
        unsigned c = bx_jc_reg_cached(jc, wr->reg);
        if (!c) {
            jx_load(e, 0, RBX, W_REG(wr->reg));
            c = 12 + jc->rnext;                  /* (the oldest entry) */
            jc->rheld[jc->rnext] = (uint8_t)(1 + (wr->reg & 63));
            jc->rnext = (jc->rnext + 1) % jc->nrheld;
            jx_blendv(e, 1, 0, 0, res, 15);
        } else {
            jx_blendv(e, 1, 0, c, res, 15);
        }
        jx_store(e, 0, RBX, W_REG(wr->reg));
        jx_movr(e, c, 0);
    }
}

/* The clause's code into jc->e (its buffer set): prologue, units and commits, epilogue, the end
 * in runs, the bc rows, the pool.  dead: result rows not to store (bx_jit_compile's first pass
 * finds them); counting: the end counts runs for the observer; *body: where chained clauses enter. */
static void emit_clause(jcomp *jc, bi_xclause *x, unsigned lanes, enum bx_jit_isa isa, int counting, uint8_t *buf,
                        size_t cap, const uint8_t dead[9][2], size_t *body)
{
    memset(jc, 0, sizeof(*jc));
    jc->counting = counting;
    jc->e = (jx_emit){ .buf = buf, .cap = cap, .l = lanes == 8, .sse = isa == BX_JIT_ISA_SSE };
    jc->x = x;
    memcpy(jc->res_dead, dead, sizeof(jc->res_dead));
    jc->nrheld = jc->e.sse ? 2 : 3;                    /* SSE: xmm14 is the emitter's scratch */
    bx_jc_clobber_high(jc);
    jc->may_branch = bx_jc_may_branch(x);
    jc->clean_res[0][0] = jc->clean_res[0][1] = 1;    /* the first tuple's T0 / T1: zeros */
    jx_emit *e = &jc->e;
    jc->head = (sizeof(bx_jit_code) + 31) & ~(size_t)31;
    /* int entry(bi_warp *w = rbx, bx_jit_frame *fr = r12, const bi_xclause *x = r13), r14 = krows,
     * r15 = fr->count and rbp = fr->inc (--stats records, and what a run adds to one); chained
     * clauses jump to the body with the same registers and stack (six pushes and 8 bytes: rsp
     * 16-byte aligned for calls) */
    jx_push(e, RBX);
    jx_push(e, RBP);
    jx_push(e, R12);
    jx_push(e, R13);
    jx_push(e, R14);
    jx_push(e, R15);
    jx_rsp_adjust(e, 1, 8);
    jx_mov(e, RBX, RDI);
    jx_mov(e, R12, RSI);
    jx_mov(e, R13, RDX);
    jx_mov_imm64(e, R14, (uint64_t)(uintptr_t)bx_jit_krows);
    if (counting) {
        jx_gp_m(e, 1, GP_MOV_RM, R15, R12, (int32_t)offsetof(bx_jit_frame, count));
        jx_gp_m(e, 1, GP_MOV_RM, RBP, R12, (int32_t)offsetof(bx_jit_frame, inc));
    }
    *body = e->len;
    compile_clause_init(jc);
    size_t to_bc = jx_jmp_fwd(e);
    size_t bc_done = e->len;
    for (unsigned i = 0; i < x->c.ntuples; i++) {
        bx_jc_compile_unit(jc, i, 0);
        bx_jc_compile_unit(jc, i, 1);
        if (i > 0)
            compile_commit(jc, i - 1);
    }
    compile_commit(jc, x->c.ntuples - 1);
    jx_gp_mi(e, 0, 0x81, 7, R12, (int32_t)offsetof(bx_jit_frame, chain), 0);
    size_t to_end = jx_jcc_fwd(e, CC_NZ);
    bx_jc_no_branch(jc);
    jx_xor_eax(e);
    for (unsigned k = 0; k < jc->nexits; k++)
        jx_patch(e, jc->exits[k]);
    size_t epilogue = e->len;
    jx_vzeroupper(e);
    jx_rsp_adjust(e, 0, 8);
    jx_pop(e, R15);
    jx_pop(e, R14);
    jx_pop(e, R13);
    jx_pop(e, R12);
    jx_pop(e, RBP);
    jx_pop(e, RBX);
    jx_ret(e);
    jx_patch(e, to_end);
    bx_jc_compile_end(jc, epilogue);
    jx_patch(e, to_bc);
    compile_bc_fill(jc);
    jx_jmp_to(e, bc_done);
}

int bx_jit_compile(bx_jit_arena **arena, bi_xclause *x, unsigned lanes, int isa_choice, char *why, size_t whylen)
{
    static __thread uint8_t buf[16384];
    bx_jit_code code = { 0 };
    static __thread jcomp jc;
    enum bx_jit_isa i = isa_choice > 0 && isa_choice <= (int)bx_jit_host_isa() ? (enum bx_jit_isa)isa_choice : bx_jit_isa();
    x->jit = NULL;
    if (i == BX_JIT_ISA_NONE) {
        snprintf(why, whylen, "the host lacks AVX2 and FMA, or SSE4.1 and SSSE3");
        return -1;
    }
    if (i == BX_JIT_ISA_SSE && lanes == 8) {       /* no 8-lane SSE code: v7 warps run interpreted */
        static int said;
        if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
            fprintf(stderr, "gpu: jit: %s; 8-lane warps (v7 GPUs) run interpreted\n",
                    bx_jit_host_isa() == BX_JIT_ISA_SSE ? "the host lacks AVX2 or FMA"
                    : isa_choice == BX_JIT_ISA_SSE      ? "the engine chose the SSE code (jit-sse)"
                                                        : "SSE code chosen (MALIBU_GPU_JIT_ISA=sse)");
        return 0;
    }
    /* twice: the first pass finds the result rows nothing reads back, the second leaves out their
     * stores (the same code otherwise: the passes take the same decisions) */
    uint8_t dead[9][2] = { { 0 } };
    size_t body;
    int counting = bi_exec_hook && bi_exec_hook_run;       /* --stats: see bx_jit_frame.count */
    emit_clause(&jc, x, lanes, i, counting, buf, sizeof(buf), dead, &body);
    for (unsigned r = 0; r < 9; r++)
        for (unsigned u = 0; u < 2; u++)
            dead[r][u] = !jc.res_read[r][u];
    emit_clause(&jc, x, lanes, i, counting, buf, sizeof(buf), dead, &body);
    for (unsigned r = 0; r < 9; r++)
        for (unsigned u = 0; u < 2; u++)
            if (dead[r][u] && jc.res_read[r][u]) {      /* (never: then every row stored) */
                memset(dead, 0, sizeof(dead));
                emit_clause(&jc, x, lanes, i, counting, buf, sizeof(buf), dead, &body);
                r = 9;
                break;
            }
    jx_emit *e = &jc.e;
    size_t head = jc.head;
    code.size = (uint32_t)e->len;
    code.counts = (uint32_t)counting;
    jx_pool_place(e, jc.pool, jc.npool);
    if (e->bad) {                 /* a compiler bug: a unit it should have left to the interpreter */
        snprintf(why, whylen, "clause %#x: an instruction without an SSE form", x->c.offset);
        return -1;
    }
    if (jc.full || e->len > e->cap || e->nfix > JX_MAX_FIX) {
        snprintf(why, whylen, "clause %#x: too large to compile", x->c.offset);
        return -1;
    }
    uint8_t *mem = arena_alloc(arena, head + e->len);
    if (!mem) {
        snprintf(why, whylen, "out of executable memory");
        return -1;
    }
    memcpy(mem + head, buf, e->len);
    code.entry = (bx_jit_entry)(void *)(mem + head);
    code.body = mem + head + body;
    memcpy(mem, &code, sizeof(code));
    __atomic_store_n(&x->jit, (const void *)mem, __ATOMIC_RELEASE);
    return 0;
}
