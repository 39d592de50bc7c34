/* Bifrost executor: memory and message instructions (loads, stores, segment addresses,
 * atomics, texture / image messages through bifrost_tex.c) for one lane. */
#include "bifrost_exec_int.h"
#include "bifrost_tex.h"

#include <string.h>

typedef struct {
    unsigned opc, size;       /* opc A_*: RMW; 0: exchange; 0xff: compare-exchange */
    uint64_t v, cmp;
} atom_arg;

static uint64_t atom_apply(uint64_t old, void *arg)
{
    const atom_arg *a = arg;
    if (a->opc == 0)
        return a->v;
    if (a->opc == 0xff)
        return old == a->cmp ? a->v : old;
    if (a->size == 8)
        return atom_op64(a->opc, old, a->v);
    return atom_op32(a->opc, (uint32_t)old, (uint32_t)a->v);
}

/* The atomic on host memory from bi_mem.map (write = 2: mapped for atomics), when the aligned
 * 4 / 8 bytes lie in the mapped range: a compare-and-swap loop, atomic against other host threads,
 * without the atomic callback's layers (the op a direct call).  0: not mapped, use the callbacks. */
static int mapped_atomic(const bi_mem *m, uint64_t addr, atom_arg *a, uint64_t *old)
{
    uint64_t lo = 1, hi = 0;
    if ((a->size != 4 && a->size != 8) || (addr & (a->size - 1)))
        return 0;
    uint8_t *h = m->map(m->ctx, addr, 2, &lo, &hi);
    if (!h || addr < lo || hi < a->size || addr > hi - a->size)
        return 0;
    if (a->size == 4) {
        uint32_t *p = (uint32_t *)(void *)h, o = __atomic_load_n(p, __ATOMIC_SEQ_CST), n;
        do
            n = (uint32_t)atom_apply(o, a);
        while (!__atomic_compare_exchange_n(p, &o, n, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
        *old = o;
    } else {
        uint64_t *p = (uint64_t *)(void *)h, o = __atomic_load_n(p, __ATOMIC_SEQ_CST), n;
        do
            n = atom_apply(o, a);
        while (!__atomic_compare_exchange_n(p, &o, n, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
        *old = o;
    }
    return 1;
}

static int do_atomic(const bi_mem *m, uint64_t addr, atom_arg *a, uint64_t *old)
{
    /* global memory (below the storage windows): mapped, host atomics; the workgroup's storage
     * through the callback, which need not lock the bus for memory no other thread sees */
    if (m->map && addr < m->wls_base && mapped_atomic(m, addr, a, old))
        return 0;
    if (m->atomic)
        return m->atomic(m->ctx, addr, a->size, atom_apply, a, old);
    uint8_t b[8] = { 0 };
    if (m->read(m->ctx, addr, b, a->size))
        return -1;
    uint64_t o = 0, n;
    for (unsigned i = 0; i < a->size; i++)
        o |= (uint64_t)b[i] << (8 * i);
    n = atom_apply(o, a);
    for (unsigned i = 0; i < a->size; i++)
        b[i] = (uint8_t)(n >> (8 * i));
    if (m->write(m->ctx, addr, b, a->size))
        return -1;
    *old = o;
    return 0;
}

/* Texture / image messages (bifrost_tex.c): like loads, they read their staging registers and
 * write their results at the end of the clause. */
static int exec_tex(bi_warp *w, const bi_xinstr *x, const bi_clause *c, unsigned lane, const uint32_t *s,
                    const bi_tex_grad *g, staging *stg, bi_fault *f)
{
    const bi_mem *m = w->mem;
    unsigned sr = c->hdr[BI_H_SR], n = 0;
    uint32_t in[8] = { 0 }, out[4] = { 0 };
    int rc;
    char why[160];      /* set on failure only: no 160-byte clear per lane */
    why[0] = 0;
    switch (x->sem) {
    case BI_SEM_TEXC:
    case BI_SEM_TEXS: {
        uint32_t desc = x->sem == BI_SEM_TEXS ? x->texdesc : s[2];
        int k = x->sem == BI_SEM_TEXS ? 0 : bi_tex_staging_count(desc);
        if (k > 8 || sr + (k > 4 ? k : 4) > 64)
            return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: staging registers out of range", c->offset);
        for (int i = 0; i < k; i++)
            in[i] = w->reg[sr + i][lane];
        rc = bi_tex_texc_grad(m, desc, s[0], s[1], in, k < 0 ? 0 : (unsigned)k, g, out, &n, why, sizeof(why));
        break;
    }
    case BI_SEM_LEA_TEX:
    case BI_SEM_LEA_ATTR:
        if (sr + 3 > 64)
            return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: staging registers out of range", c->offset);
    {
        /* vertex outputs (LEA_ATTR with vertex and instance ids): the linear index of an
         * instanced draw (bifrost_gfx.h) */
        uint32_t s0 = s[0];
        if (x->sem == BI_SEM_LEA_ATTR && m->attr_instance_size)
            s0 += s[1] * m->attr_instance_size;
        bi_mem vm;
        if (x->sem == BI_SEM_LEA_ATTR && !x->table) {       /* the varying table */
            vm = *m;
            vm.attributes = m->varyings;
            vm.attr_bufs = m->vary_bufs;
            m = &vm;
        }
        rc = bi_tex_lea_attr(m, x->attr_imm ? x->attr_index : s[2], x->sem == BI_SEM_LEA_TEX, s0, s[1], x->regfmt,
                             out, why, sizeof(why));
    }
        n = 3;
        break;
    case BI_SEM_LD_ATTR_TEX: {
        /* an image texel's address and conversion as LEA_ATTR_TEX finds them, loaded as LD_CVT
         * loads (src0 = x | y << 16, src1 = z, src2 = the attribute) */
        uint32_t lea[3];
        if (sr + x->size > 64)
            return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: staging registers out of range", c->offset);
        rc = bi_tex_lea_attr(m, s[2], 1, s[0], s[1], x->regfmt, lea, why, sizeof(why));
        if (!rc)
            rc = bi_tex_ld_cvt(m, lea[0] | (uint64_t)lea[1] << 32, lea[2], out, x->size, why, sizeof(why));
        n = x->size;
        break;
    }
    case BI_SEM_LD_GCLK: {
        if (sr + 2 > 64)
            return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: staging registers out of range", c->offset);
        uint64_t t = w->tuples_run, v;
        if (x->clock_cycles)
            v = m->clock_cycles + (m->clock_running ? t : 0);
        else
            v = m->clock_ts + (m->clock_running && m->gpu_hz ? (uint64_t)((unsigned __int128)t * m->ts_hz / m->gpu_hz) : 0);
        out[0] = (uint32_t)v;
        out[1] = (uint32_t)(v >> 32);
        n = 2;
        rc = 0;
        break;
    }
    case BI_SEM_LD_CVT:
        if (sr + x->size > 64)
            return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: staging registers out of range", c->offset);
        rc = bi_tex_ld_cvt(m, s[0] | (uint64_t)s[1] << 32, s[2], out, x->size, why, sizeof(why));
        n = x->size;
        break;
    default:            /* BI_SEM_ST_CVT */
        if (sr + x->size > 64)
            return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: staging registers out of range", c->offset);
        for (unsigned i = 0; i < x->size; i++)
            in[i] = w->reg[sr + i][lane];
        rc = bi_tex_st_cvt(m, s[0] | (uint64_t)s[1] << 32, s[2], in, x->size, why, sizeof(why));
        break;
    }
    if (rc)
        return bx_fault(f, rc == BI_EXEC_UNIMPLEMENTED ? BI_FAULT_UNIMPLEMENTED : BI_FAULT_MEMORY, 0, "clause %#x lane %u: %s", c->offset, lane, why);
    stg->n = n;
    for (unsigned i = 0; i < n; i++)
        stg->val[lane][i] = out[i];
    return BI_EXEC_OK;
}

/* ATOM_C (FMA, address) + ATOM_CX (ADD, message).  RETURN forms write two staging registers
 * (assumption, the layout is undocumented): the memory value before this thread's operation and
 * the operation's identity, which ATOM_POST combines.  .i64 (staging as Mesa fills it: the 64-bit
 * operand in the first two registers, four staging registers in RETURN form): the same with
 * 64-bit values, two registers each. */
static __attribute__((noinline)) int exec_atom_cx(bi_warp *w, const bi_xinstr *x, const bi_clause *c,
                                                  unsigned lane, uint64_t atom_addr, staging *stg, bi_fault *f)
{
    const bi_mem *m = w->mem;
    unsigned sr = c->hdr[BI_H_SR], words = x->size / 4;
    if (sr + (x->atom_ret ? 2 : 1) * words > 64)
        return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: staging registers out of range", c->offset);
    uint64_t arg = w->reg[sr][lane] | (words > 1 ? (uint64_t)w->reg[sr + 1][lane] << 32 : 0);
    if (x->atom_one)
        arg = x->atom_one == 2 ? ~0ull : 1;
    atom_arg a = { .opc = x->atom_opc, .size = x->size, .v = arg };
    uint64_t old = 0;
    if ((x->size == 8 && (atom_addr & 7)) || do_atomic(m, atom_addr, &a, &old))
        return bx_fault(f, BI_FAULT_MEMORY, atom_addr, "clause %#x lane %u: atomic fault at %#llx", c->offset, lane,
                    (unsigned long long)atom_addr);
    if (x->atom_ret) {
        uint64_t id = atom_identity(x->atom_opc, x->size);
        stg->n = 2 * words;
        stg->val[lane][0] = (uint32_t)old;
        stg->val[lane][words] = (uint32_t)id;
        if (words > 1) {
            stg->val[lane][1] = (uint32_t)(old >> 32);
            stg->val[lane][3] = (uint32_t)(id >> 32);
        }
    }
    return BI_EXEC_OK;
}

/* Loads, stores, AXCHG and ACMPXCHG of one lane */
static __attribute__((noinline)) int exec_ldst(bi_warp *w, const bi_xinstr *x, const bi_clause *c, unsigned lane,
                                               const uint32_t *s, staging *stg, bi_fault *f)
{
    const bi_mem *m = w->mem;
    unsigned sr = c->hdr[BI_H_SR];
    uint64_t addr = 0;
    uint8_t buf[16] = { 0 };

    switch (x->seg) {
    case SEG_NONE: addr = s[0] | (uint64_t)s[1] << 32; break;
    case SEG_WLS: addr = m->wls_base + s[0]; break;
    case SEG_TL: addr = w->tls_base[lane] + s[0]; break;
    case SEG_UBO:
        if (s[1] >= m->nubos || (uint64_t)s[0] + x->size > m->ubo_size[s[1]])
            return bx_fault(f, BI_FAULT_MEMORY, 0, "clause %#x lane %u: UBO %u offset %#x out of range",
                        c->offset, lane, s[1], s[0]);
        addr = m->ubo_addr[s[1]] + s[0];
        break;
    }
    unsigned nregs = (x->size + 3) / 4;
    if (x->sem == BI_SEM_LOAD && x->size < 4 && x->dlane == DL_D0)
        nregs = 2;
    if (sr + nregs > 64)
        return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: staging registers r%u+%u out of range", c->offset, sr, nregs);
    if (x->sem == BI_SEM_AXCHG || x->sem == BI_SEM_ACMPXCHG) {
        /* AXCHG: the staging registers go to memory, the old memory value comes back in them
         * (lanes run in order, so lanes of a warp exchanging one address chain).
         * ACMPXCHG (staging as Mesa fills it): new value in the first half, comparison value in
         * the second; memory takes the new value if it equals the comparison value; the old
         * value comes back in the first half, the second half is kept. */
        unsigned words = x->size / 4;
        if (sr + (x->sem == BI_SEM_ACMPXCHG ? 2 * words : words) > 64)
            return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: staging registers out of range", c->offset);
        atom_arg a = { .opc = x->sem == BI_SEM_AXCHG ? 0 : 0xff, .size = x->size };
        a.v = w->reg[sr][lane] | (words > 1 ? (uint64_t)w->reg[sr + 1][lane] << 32 : 0);
        if (x->sem == BI_SEM_ACMPXCHG)
            a.cmp = w->reg[sr + words][lane] | (words > 1 ? (uint64_t)w->reg[sr + words + 1][lane] << 32 : 0);
        uint64_t old = 0;
        if ((addr & (x->size - 1)) || do_atomic(m, addr, &a, &old))
            return bx_fault(f, BI_FAULT_MEMORY, addr, "clause %#x lane %u: atomic fault at %#llx", c->offset, lane,
                        (unsigned long long)addr);
        stg->n = x->sem == BI_SEM_ACMPXCHG ? 2 * words : words;
        stg->val[lane][0] = (uint32_t)old;
        if (words > 1)
            stg->val[lane][1] = (uint32_t)(old >> 32);
        for (unsigned r = words; r < stg->n; r++)
            stg->val[lane][r] = w->reg[sr + r][lane];
        return BI_EXEC_OK;
    }
    if (x->sem == BI_SEM_STORE) {
        for (unsigned i = 0; i < x->size; i++)
            buf[i] = (uint8_t)(w->reg[sr + i / 4][lane] >> (8 * (i % 4)));
        if (m->write(m->ctx, addr, buf, x->size))
            return bx_fault(f, BI_FAULT_MEMORY, addr, "clause %#x lane %u: store fault at %#llx", c->offset, lane,
                        (unsigned long long)addr);
        return BI_EXEC_OK;
    }
    if (m->read(m->ctx, addr, buf, x->size))
        return bx_fault(f, BI_FAULT_MEMORY, addr, "clause %#x lane %u: load fault at %#llx", c->offset, lane,
                    (unsigned long long)addr);
    stg->n = nregs;
    if (x->size >= 4) {
        for (unsigned r = 0; r < nregs; r++) {
            uint32_t v = 0;
            for (unsigned b = 0; b < 4 && 4 * r + b < x->size; b++)
                v |= (uint32_t)buf[4 * r + b] << (8 * b);
            stg->val[lane][r] = v;
        }
        return BI_EXEC_OK;
    }
    /* narrow loads: extend, then place per lane_dest (byte/half keep the rest of the register) */
    uint64_t v = 0;
    for (unsigned b = 0; b < x->size; b++)
        v |= (uint64_t)buf[b] << (8 * b);
    unsigned bits = 8 * x->size;
    if (x->ext == 1 && (v >> (bits - 1)) & 1)
        v |= ~0ull << bits;
    uint32_t old = w->reg[sr][lane];
    if (x->dlane < 4)
        stg->val[lane][0] = (old & ~(0xffu << (8 * x->dlane))) | (uint32_t)(v & 0xff) << (8 * x->dlane);
    else if (x->dlane < 6)
        stg->val[lane][0] = (old & ~(0xffffu << (16 * (x->dlane - 4)))) | (uint32_t)(v & 0xffff) << (16 * (x->dlane - 4));
    else {
        stg->val[lane][0] = (uint32_t)v;
        stg->val[lane][1] = (uint32_t)(v >> 32);
    }
    return BI_EXEC_OK;
}

/* The dispatch: the frequent small cases (barriers, segment addresses) without the set-up of the
 * memory paths, which are out of line. */
int bx_exec_mem(bi_warp *w, const bi_xinstr *x, const bi_clause *c, unsigned lane, const uint32_t *s,
                    uint64_t atom_addr, staging *stg, uint32_t *res, bi_fault *f)
{
    const bi_mem *m = w->mem;

    *res = 0;
    if (x->sem == BI_SEM_BARRIER)
        return BI_EXEC_OK;
    if (!m)
        return bx_fault(f, BI_FAULT_MEMORY, 0, "clause %#x: memory instruction without memory", c->offset);
    if (x->sem >= BI_SEM_TEXC)
        return exec_tex(w, x, c, lane, s, NULL, stg, f);
    if (x->sem == BI_SEM_SEG_ADD_LO || x->sem == BI_SEM_SEG_ADD_HI) {
        /* the address LOAD/STORE with this segment would use for offset s[0] */
        uint64_t a = (x->seg == SEG_TL ? w->tls_base[lane] : m->wls_base) + s[0];
        if (x->preserve_null && s[0] == 0)      /* assumption: a null offset stays null */
            a = 0;
        *res = x->sem == BI_SEM_SEG_ADD_LO ? (uint32_t)a : (uint32_t)(a >> 32);
        return BI_EXEC_OK;
    }
    if (x->sem == BI_SEM_ATOM_CX)
        return exec_atom_cx(w, x, c, lane, atom_addr, stg, f);
    return exec_ldst(w, x, c, lane, s, stg, f);
}

/* TEXC / TEXS for the warp's lanes in exec (n lanes): a lookup with a computed LOD takes the
 * coarse derivatives of its 2x2 quad (lanes 4q .. 4q+3, bifrost_gfx.h) from the quad's sources
 * and Z staging register; the others go lane by lane as before. */
int bx_exec_tex(bi_warp *w, const bi_xinstr *x, const bi_clause *c, uint32_t exec, const uint32_t (*src)[BI_MAX_LANES],
                unsigned n, staging *stg, bi_fault *f)
{
    if (!w->mem)
        return bx_fault(f, BI_FAULT_MEMORY, 0, "clause %#x: memory instruction without memory", c->offset);
    uint32_t desc0 = x->sem == BI_SEM_TEXS ? x->texdesc : 0;
    unsigned sr = c->hdr[BI_H_SR];
    uint32_t cube[4][BI_MAX_LANES];
    if (x->sem == BI_SEM_TEXS && ((desc0 >> 18) & 3) == 0) {
        /* TEXS_CUBE's s, t and CUBEFACE2's face word (Mesa's bi_emit_texs): TEXC's cube sources,
         * the face in bits 31:29 over s (as bi_emit_texc_cube_coord packs them) */
        for (unsigned l = 0; l < n; l++) {
            cube[0][l] = (src[0][l] & 0x1fffffffu) | (src[2][l] & 0xe0000000u);
            cube[1][l] = src[1][l];
            cube[2][l] = src[2][l];
            cube[3][l] = src[3][l];
        }
        src = (const uint32_t(*)[BI_MAX_LANES])cube;
    }
    /* dual texturing (TEXC with a dual descriptor): the second lookup's results, written to
     * their register once every lane has run, as the staging writes land at the clause's end */
    uint32_t dual_out[BI_MAX_LANES][4];
    unsigned dual_reg = 0, dual_n = 0;
    uint32_t dual_exec = 0;
    for (unsigned l = 0; l < n; l++) {
        if (!(exec & (1u << l)))
            continue;
        uint32_t desc = x->sem == BI_SEM_TEXS ? desc0 : src[2][l], d2 = 0;
        uint32_t sv[4] = { src[0][l], src[1][l], src[2][l], src[3][l] };
        int dual = x->sem == BI_SEM_TEXC && bi_tex_dual_split(desc, w->gfx_ctx != NULL, &sv[2], &d2, &dual_reg);
        if (dual)
            desc = sv[2];
        bi_tex_grad g, *gp = NULL;
        unsigned q = l & ~3u;
        if (bi_tex_needs_grad(desc) && q + 3 < n) {
            uint32_t z[4];
            int has_z = ((desc >> 18) & 3) == 3 && sr < 64;
            for (unsigned i = 0; i < 4 && has_z; i++)
                z[i] = w->reg[sr][q + i];
            bi_tex_quad_grad(((desc >> 18) & 3) == 0, &src[0][q], &src[1][q], has_z ? z : NULL, &g);
            gp = &g;
        }
        int rc = exec_tex(w, x, c, l, sv, gp, stg, f);
        if (rc)
            return rc;
        if (dual) {
            char why[160];
            why[0] = 0;
            rc = bi_tex_texc_grad(w->mem, d2, sv[0], sv[1], NULL, 0, gp, dual_out[l], &dual_n, why, sizeof why);
            if (rc)
                return bx_fault(f, rc == BI_EXEC_UNIMPLEMENTED ? BI_FAULT_UNIMPLEMENTED : BI_FAULT_MEMORY, 0,
                                "clause %#x lane %u: dual texture: %s", c->offset, l, why);
            if (dual_reg + dual_n > 64)
                return bx_fault(f, BI_FAULT_INVALID, 0, "clause %#x: dual texture register r%u out of range", c->offset,
                                dual_reg);
            dual_exec |= 1u << l;
        }
    }
    for (unsigned r = 0; r < dual_n; r++)
        for (unsigned l = 0; l < n; l++)
            if (dual_exec & (1u << l))
                w->reg[dual_reg + r][l] = dual_out[l][r];
    return BI_EXEC_OK;
}
