/* AdvSIMD structure loads and stores: LD1-LD4 / ST1-ST4 (multiple structures),
 * single-structure lane forms and LD1R-LD4R, with optional post-index.
 *
 * Every load reads the whole transfer into a temporary before any V register
 * is written, so a fault leaves the registers untouched; a store gathers the
 * registers first and writes memory with one copy.  Register lists wrap from
 * V31 to V0.
 *
 * Op operands: d = first Vt, n = Rn slot (31 = SP), m = Rm slot for register
 * post-index (REG_ZR for the immediate form), imm = immediate post-index amount
 * (0 for the register form), a = number of structure elements (lane forms),
 * x = elements per register (replicate) or lane index. */
#include "translate.h"
#include "mem.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* Handler without and with post-index writeback. */
#define GEN_WB(K, CALL)                                                                         \
    static Op *op_##K(CPUState *c, Op *o)                                                       \
    {                                                                                           \
        uint64_t a = c->x[o->n];                                                                \
        CALL;                                                                                   \
        return op_next(c, o);                                                                           \
    }                                                                                           \
    static Op *op_##K##_post(CPUState *c, Op *o)                                                \
    {                                                                                           \
        uint64_t a = c->x[o->n];                                                                \
        CALL;                                                                                   \
        c->x[o->n] = a + o->imm + c->x[o->m];                                                   \
        return op_next(c, o);                                                                           \
    }                                                                                           \
    static const OpFn K##_fns[2] = { op_##K, op_##K##_post };

static inline VReg *vreg(CPUState *c, unsigned r) { return &c->v[r & 31]; }

/* Copy a transfer of n <= 64 guest bytes at a to / from buf.  One host copy when it
 * stays inside a 4 KiB page; otherwise one per page (the full-system build maps each
 * page separately).  A store that faults on its second page has done its first. */
ALWAYS_INLINE void guest_read(CPUState *c, Op *o, uint64_t a, uint8_t *buf, unsigned n)
{
    unsigned first = 0x1000 - (unsigned)(a & 0xfff);
    if (likely(n <= first)) {
        memcpy(buf, mem_host(c, o, a, n, false), n);
    } else {
        memcpy(buf, mem_host(c, o, a, first, false), first);
        memcpy(buf + first, mem_host(c, o, a + first, n - first, false), n - first);
    }
}

ALWAYS_INLINE void guest_write(CPUState *c, Op *o, uint64_t a, const uint8_t *buf, unsigned n)
{
    unsigned first = 0x1000 - (unsigned)(a & 0xfff);
    if (likely(n <= first)) {
        memcpy(mem_host(c, o, a, n, true), buf, n);
    } else {
        memcpy(mem_host(c, o, a, first, true), buf, first);
        memcpy(mem_host(c, o, a + first, n - first, true), buf + first, n - first);
    }
}

/* ---- multiple structures -------------------------------------------------------- */

/* LD1/ST1 with n consecutive registers of rb (8 or 16) bytes each. */
ALWAYS_INLINE void ld1_multi(CPUState *c, Op *o, uint64_t a, unsigned rb, unsigned n)
{
    uint8_t buf[64];
    guest_read(c, o, a, buf, n * rb);
    for (unsigned i = 0; i < n; i++) {
        VReg t = { 0 };
        memcpy(&t, buf + i * rb, rb);
        *vreg(c, o->d + i) = t;
    }
}

ALWAYS_INLINE void st1_multi(CPUState *c, Op *o, uint64_t a, unsigned rb, unsigned n)
{
    uint8_t buf[64];
    for (unsigned i = 0; i < n; i++)
        memcpy(buf + i * rb, vreg(c, o->d + i), rb);
    guest_write(c, o, a, buf, n * rb);
}

/* LDn/STn (n = sel >= 2): element e of structure register s is at (e*sel + s)*esz. */
ALWAYS_INLINE void ldn_multi(CPUState *c, Op *o, uint64_t a, unsigned sel, unsigned esz, unsigned rb)
{
    unsigned ne = rb / esz, total = sel * rb;
    uint8_t buf[64];
    VReg r[4];
    guest_read(c, o, a, buf, total);
    memset(r, 0, sizeof r);
    for (unsigned e = 0; e < ne; e++)
        for (unsigned s = 0; s < sel; s++)
            memcpy(&r[s].b[e * esz], buf + (e * sel + s) * esz, esz);
    for (unsigned s = 0; s < sel; s++)
        *vreg(c, o->d + s) = r[s];
}

ALWAYS_INLINE void stn_multi(CPUState *c, Op *o, uint64_t a, unsigned sel, unsigned esz, unsigned rb)
{
    unsigned ne = rb / esz, total = sel * rb;
    uint8_t buf[64];
    for (unsigned e = 0; e < ne; e++)
        for (unsigned s = 0; s < sel; s++)
            memcpy(buf + (e * sel + s) * esz, &vreg(c, o->d + s)->b[e * esz], esz);
    guest_write(c, o, a, buf, total);
}

#define GEN_LDST1(N)                                                                            \
    GEN_WB(ld1m_d##N, ld1_multi(c, o, a, 8, N))                                                 \
    GEN_WB(ld1m_q##N, ld1_multi(c, o, a, 16, N))                                                \
    GEN_WB(st1m_d##N, st1_multi(c, o, a, 8, N))                                                 \
    GEN_WB(st1m_q##N, st1_multi(c, o, a, 16, N))
GEN_LDST1(1)
GEN_LDST1(2)
GEN_LDST1(3)
GEN_LDST1(4)

/* Handlers per structure size N, element size and register width (d: 64, q: 128 bits);
 * there is no 1D arrangement for N >= 2. */
#define GEN_LDSTN(N)                                                                            \
    GEN_WB(ld##N##_bd, ldn_multi(c, o, a, N, 1, 8))                                             \
    GEN_WB(ld##N##_hd, ldn_multi(c, o, a, N, 2, 8))                                             \
    GEN_WB(ld##N##_sd, ldn_multi(c, o, a, N, 4, 8))                                             \
    GEN_WB(ld##N##_bq, ldn_multi(c, o, a, N, 1, 16))                                            \
    GEN_WB(ld##N##_hq, ldn_multi(c, o, a, N, 2, 16))                                            \
    GEN_WB(ld##N##_sq, ldn_multi(c, o, a, N, 4, 16))                                            \
    GEN_WB(ld##N##_dq, ldn_multi(c, o, a, N, 8, 16))                                            \
    GEN_WB(st##N##_bd, stn_multi(c, o, a, N, 1, 8))                                             \
    GEN_WB(st##N##_hd, stn_multi(c, o, a, N, 2, 8))                                             \
    GEN_WB(st##N##_sd, stn_multi(c, o, a, N, 4, 8))                                             \
    GEN_WB(st##N##_bq, stn_multi(c, o, a, N, 1, 16))                                            \
    GEN_WB(st##N##_hq, stn_multi(c, o, a, N, 2, 16))                                            \
    GEN_WB(st##N##_sq, stn_multi(c, o, a, N, 4, 16))                                            \
    GEN_WB(st##N##_dq, stn_multi(c, o, a, N, 8, 16))                                            \
    static const OpFn *const ld##N##_fns[2][4] = {                                              \
        { ld##N##_bd_fns, ld##N##_hd_fns, ld##N##_sd_fns, NULL },                               \
        { ld##N##_bq_fns, ld##N##_hq_fns, ld##N##_sq_fns, ld##N##_dq_fns } };                   \
    static const OpFn *const st##N##_fns[2][4] = {                                              \
        { st##N##_bd_fns, st##N##_hd_fns, st##N##_sd_fns, NULL },                               \
        { st##N##_bq_fns, st##N##_hq_fns, st##N##_sq_fns, st##N##_dq_fns } };
GEN_LDSTN(2)
GEN_LDSTN(3)
GEN_LDSTN(4)

static void set_postindex(Op *o, bool post, int rm, uint64_t total)
{
    if (!post)
        return;
    if (rm == 31) {
        o->m = REG_ZR;
        o->imm = total;
    } else {
        o->m = (uint8_t)rm;
        o->imm = 0;
    }
}

static bool do_multi(DisasCtx *s, int q, int l, int opcode, int size, int rn, int rt, bool post, int rm)
{
    static const OpFn *const (*const ldn[3])[4] = { ld2_fns, ld3_fns, ld4_fns };
    static const OpFn *const (*const stn[3])[4] = { st2_fns, st3_fns, st4_fns };
    static const OpFn *const ld1[2][4] = { { ld1m_d1_fns, ld1m_d2_fns, ld1m_d3_fns, ld1m_d4_fns },
                                           { ld1m_q1_fns, ld1m_q2_fns, ld1m_q3_fns, ld1m_q4_fns } };
    static const OpFn *const st1[2][4] = { { st1m_d1_fns, st1m_d2_fns, st1m_d3_fns, st1m_d4_fns },
                                           { st1m_q1_fns, st1m_q2_fns, st1m_q3_fns, st1m_q4_fns } };
    unsigned rpt, sel;
    switch (opcode) {
    case 0x0: rpt = 1; sel = 4; break; /* LD4/ST4 */
    case 0x2: rpt = 4; sel = 1; break; /* LD1/ST1, 4 registers */
    case 0x4: rpt = 1; sel = 3; break; /* LD3/ST3 */
    case 0x6: rpt = 3; sel = 1; break; /* LD1/ST1, 3 registers */
    case 0x7: rpt = 1; sel = 1; break; /* LD1/ST1, 1 register */
    case 0x8: rpt = 1; sel = 2; break; /* LD2/ST2 */
    case 0xa: rpt = 2; sel = 1; break; /* LD1/ST1, 2 registers */
    default: return false;
    }
    if (size == 3 && !q && sel != 1)
        return false; /* reserved: 1D arrangement for LD2-4/ST2-4 */
    unsigned rb = q ? 16 : 8;
    const OpFn *fns;
    Op *o;
    if (sel == 1 && (!post || rm == 31) && tr_vec_whole_regs(s, l, q, rpt, rt, rn, post))
        return true;
    if (sel == 1) {
        fns = (l ? ld1 : st1)[q][rpt - 1];
        o = tr_emit(s, fns[post]);
    } else {
        fns = (l ? ldn : stn)[sel - 2][q][size];
        o = tr_emit(s, fns[post]);
    }
    o->d = (uint8_t)rt;
    o->n = xsp(rn);
    set_postindex(o, post, rm, rb * rpt * sel);
    return true;
}

bool trans_MEM_SIMD_mult(DisasCtx *s, arg_MEM_SIMD_mult *a)
{
    return do_multi(s, a->q, a->l, a->opcode, a->size, a->rn, a->rt, false, 0);
}

bool trans_MEM_SIMD_mult_post(DisasCtx *s, arg_MEM_SIMD_mult_post *a)
{
    return do_multi(s, a->q, a->l, a->opcode, a->size, a->rn, a->rt, true, a->rm);
}

/* ---- single structure ------------------------------------------------------------ */

/* One lane (index o->x) of o->a consecutive registers. */
ALWAYS_INLINE void ld_lane(CPUState *c, Op *o, uint64_t a, unsigned esz)
{
    unsigned sel = o->a, idx = o->x;
    uint8_t buf[32];
    guest_read(c, o, a, buf, sel * esz);
    for (unsigned s = 0; s < sel; s++)
        memcpy(&vreg(c, o->d + s)->b[idx * esz], buf + s * esz, esz);
}

ALWAYS_INLINE void st_lane(CPUState *c, Op *o, uint64_t a, unsigned esz)
{
    unsigned sel = o->a, idx = o->x;
    uint8_t buf[32];
    for (unsigned s = 0; s < sel; s++)
        memcpy(buf + s * esz, &vreg(c, o->d + s)->b[idx * esz], esz);
    guest_write(c, o, a, buf, sel * esz);
}

/* LD1R-LD4R: each element replicated to the o->x lanes of its register. */
ALWAYS_INLINE void ld_repl(CPUState *c, Op *o, uint64_t a, unsigned esz)
{
    unsigned sel = o->a, ne = o->x;
    uint8_t buf[32];
    guest_read(c, o, a, buf, sel * esz);
    for (unsigned s = 0; s < sel; s++) {
        VReg t = { 0 };
        for (unsigned e = 0; e < ne; e++)
            memcpy(&t.b[e * esz], buf + s * esz, esz);
        *vreg(c, o->d + s) = t;
    }
}

GEN_WB(ldl_b, ld_lane(c, o, a, 1))
GEN_WB(ldl_h, ld_lane(c, o, a, 2))
GEN_WB(ldl_s, ld_lane(c, o, a, 4))
GEN_WB(ldl_d, ld_lane(c, o, a, 8))
GEN_WB(stl_b, st_lane(c, o, a, 1))
GEN_WB(stl_h, st_lane(c, o, a, 2))
GEN_WB(stl_s, st_lane(c, o, a, 4))
GEN_WB(stl_d, st_lane(c, o, a, 8))
GEN_WB(ldr_b, ld_repl(c, o, a, 1))
GEN_WB(ldr_h, ld_repl(c, o, a, 2))
GEN_WB(ldr_s, ld_repl(c, o, a, 4))
GEN_WB(ldr_d, ld_repl(c, o, a, 8))

static bool do_single(DisasCtx *s, int q, int l, int r, int opcode, int S, int size, int rn, int rt,
                      bool post, int rm)
{
    static const OpFn *const ldl[4] = { ldl_b_fns, ldl_h_fns, ldl_s_fns, ldl_d_fns };
    static const OpFn *const stl[4] = { stl_b_fns, stl_h_fns, stl_s_fns, stl_d_fns };
    static const OpFn *const ldr[4] = { ldr_b_fns, ldr_h_fns, ldr_s_fns, ldr_d_fns };
    unsigned scale = (unsigned)opcode >> 1;
    unsigned sel = ((((unsigned)opcode & 1) << 1) | (unsigned)r) + 1;
    unsigned index = ((unsigned)q << 3) | ((unsigned)S << 2) | (unsigned)size;
    bool replicate = false;
    switch (scale) {
    case 3:
        if (!l || S)
            return false;
        scale = (unsigned)size;
        replicate = true;
        break;
    case 0:
        break;
    case 1:
        if (size & 1)
            return false;
        index >>= 1;
        break;
    default: /* 2 */
        if (size & 2)
            return false;
        if (!(size & 1)) {
            index >>= 2;
        } else {
            if (S)
                return false;
            index >>= 3;
            scale = 3;
        }
        break;
    }
    Op *o;
    if (replicate) {
        o = tr_emit(s, ldr[scale][post]);
        o->x = (q ? 16u : 8u) >> scale;
    } else {
        o = tr_emit(s, (l ? ldl : stl)[scale][post]);
        o->x = index;
    }
    o->a = (uint8_t)sel;
    o->d = (uint8_t)rt;
    o->n = xsp(rn);
    set_postindex(o, post, rm, sel << scale);
    return true;
}

bool trans_MEM_SIMD_single(DisasCtx *s, arg_MEM_SIMD_single *a)
{
    return do_single(s, a->q, a->l, a->r, a->opcode, a->s, a->size, a->rn, a->rt, false, 0);
}

bool trans_MEM_SIMD_single_post(DisasCtx *s, arg_MEM_SIMD_single_post *a)
{
    return do_single(s, a->q, a->l, a->r, a->opcode, a->s, a->size, a->rn, a->rt, true, a->rm);
}
