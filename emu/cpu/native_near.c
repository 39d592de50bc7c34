/* Known ranges of guest register values in a block (NeFacts), for user mode with guest
 * addresses as host addresses: an access whose address they bound to the guest window, its guard
 * or the host kernel's half (native.h NATIVE_NEAR_*), where a host fault is a guest data abort,
 * needs no window check.
 *
 * Facts come from accesses that completed (their page was mapped: at or above NATIVE_NEAR_LOW,
 * below the window's end), from the checks a block makes on entry, and from the ops below
 * whose results they bound (moves, adds of a constant or of an extended or narrow register,
 * 32-bit results, masks, bitfield extracts).  Every other write of a register forgets its facts
 * (the rc_* writes, native.c), as does a call of C code.  A loop head assumes facts every way in
 * must bring; native.c compiles again, with the facts a way in did not bring widened (twice at
 * most) or dropped, until every way in brings them. */
#include <string.h>
#include "native_emit.h"

#define SPACE ((int64_t)NATIVE_NEAR_SPACE)
#define SAFE_HI ((int64_t)NATIVE_NEAR_GUARD - 4096) /* an access of up to 4 KiB ends in the guard */
#define BOUND (1ll << 46)                           /* |lo|, hi beyond this: forgotten */

static int64_t safe_lo; /* 0, or -2^46 where the host kernel's half faults (native_near_kernel_half) */

void native_near_kernel_half(bool faults)
{
    safe_lo = faults ? -(1ll << 46) : 0;
}

void ne_near_reset(NeFacts *f)
{
    f->near = f->narrow = 0;
}

/* Does op kind d use its n as an address: an access's base, or the source of a 64-bit move or
 * add? */
static bool pointer_source(const NativeDesc *d)
{
    return ne_is_mem_kind(d->kind) || (d->sf && (d->kind == NK_MOV || d->kind == NK_ADDSUB_IMM ||
                                              d->kind == NK_ADDSUB_EXT || d->kind == NK_ADDSUB_REG));
}

/* Kinds whose d is not a general register they write (a guess for ne_near_heads_init only). */
static bool writes_no_x(int k)
{
    return k == NK_STORE || k == NK_STOREP || k == NK_FSTORE || k == NK_FSTOREP || k == NK_FLOAD ||
           k == NK_FLOADP || k == NK_GOTO || k == NK_BL || k == NK_BR || k == NK_BLR || k == NK_RET ||
           k == NK_BCOND || k == NK_CB || k == NK_TB || k == NK_FP_UN || k == NK_FP_BIN || k == NK_FCMP ||
           k == NK_VEC || k == NK_VEC_PERM || k == NK_SHA512 || k == NK_DC_ZVA || k == NK_CONTEXT_SYNC;
}

/* Ops without host code of their own that forget no fact: labels and the block's branches. */
static bool is_marker(const Op *o)
{
    return o->fn == op_loop_head || o->fn == op_goto_through || o->fn == op_goto_next;
}

/* The general registers op kind d writes (a guess from the op's fields, for the scans below). */
static uint64_t op_writes(const Op *o, const NativeDesc *d)
{
    uint64_t w = 0;
    if (!writes_no_x(d->kind) && o->d <= REG_SP)
        w |= 1ull << o->d;
    if (d->kind == NK_BL || d->kind == NK_BLR)
        w |= 1ull << 30;
    if (d->kind == NK_LOADP && o->a <= REG_SP)
        w |= 1ull << o->a;
    if (ne_is_mem_kind(d->kind) && (d->sub == NAM_PRE || d->sub == NAM_POST) && o->n <= REG_SP)
        w |= 1ull << o->n;
    return w;
}

static bool is_near(const NeFacts *f, unsigned r) { return r <= REG_SP && (f->near >> r & 1); }
static bool is_narrow(const NeFacts *f, unsigned r) { return r <= REG_SP && (f->narrow >> r & 1); }

static void set_near(NeFacts *f, unsigned r, int64_t lo, int64_t hi)
{
    if (r > REG_SP)
        return;
    if (lo < -BOUND || lo > SPACE || hi < -SPACE || hi > BOUND) {
        f->near &= ~(1ull << r);
        return;
    }
    f->near |= 1ull << r;
    f->lo[r] = lo;
    f->hi[r] = hi;
}

static void set_bits(NeFacts *f, unsigned r, unsigned bits)
{
    if (r > REG_SP)
        return;
    if (bits >= 64) {
        f->narrow &= ~(1ull << r);
        return;
    }
    f->narrow |= 1ull << r;
    f->bits[r] = (uint8_t)bits;
}

/* The offsets [*omin, *omax] access o adds to its base register, when bounded. */
static bool offset_range(const NeFacts *f, const Op *o, int mode, int64_t *omin, int64_t *omax)
{
    unsigned s = o->x;
    switch (mode) {
    case NAM_OFF:
    case NAM_PRE:
        *omin = *omax = (int64_t)o->imm;
        return *omin >= -BOUND && *omin <= BOUND;
    case NAM_POST:
        *omin = *omax = 0;
        return true;
    case NAM_UXTW:
        if (s > 4)
            return false;
        *omin = 0;
        *omax = (int64_t)(((1ull << (is_narrow(f, o->m) && f->bits[o->m] < 32 ? f->bits[o->m] : 32)) - 1) << s);
        return true;
    case NAM_SXTW:
        if (s > 4)
            return false;
        *omin = -(int64_t)(1ull << (31 + s));
        *omax = (int64_t)(((1ull << 31) - 1) << s);
        return true;
    case NAM_XREG:
        if (s > 4 || o->m == REG_ZR) {
            *omin = *omax = 0;
            return s <= 4;
        }
        if (!is_narrow(f, o->m) || f->bits[o->m] > 36)
            return false;
        *omin = 0;
        *omax = (int64_t)(((1ull << f->bits[o->m]) - 1) << s);
        return true;
    }
    return false;
}

bool ne_near_extend_is_value(const NCtx *x, unsigned r, int opt)
{
    const NeFacts *f = &x->facts;
    if ((opt & 3) == 3) /* UXTX, SXTX */
        return true;
    if (!x->facts_on || !is_narrow(f, r))
        return false;
    unsigned from = 8u << (opt & 3);
    return f->bits[r] <= (opt & 4 ? from - 1 : from);
}

bool ne_near_covered(const NCtx *x, const Op *o, int mode)
{
    const NeFacts *f = &x->facts;
    int64_t omin, omax;
    if (!x->facts_on || !is_near(f, o->n) || !offset_range(f, o, mode, &omin, &omax))
        return false;
    return f->lo[o->n] + omin >= safe_lo && f->hi[o->n] + omax <= SAFE_HI;
}

static bool loads_into(const Op *o, const NativeDesc *d, unsigned slot)
{
    if (d->kind == NK_LOAD)
        return o->d == slot;
    if (d->kind == NK_LOADP)
        return o->d == slot || o->a == slot;
    return !ne_is_mem_kind(d->kind); /* the other accesses load V registers or store: another kind,
                                   * assume it does */
}

void ne_near_access(NCtx *x, const Op *o, const NativeDesc *d, int mode, bool base_written)
{
    NeFacts *f = &x->facts;
    if (!x->facts_on)
        return;
    /* Loads of 8, 16 and 32 bits zero-extended: narrow. */
    if ((d->kind == NK_LOAD || d->kind == NK_LOADP) && !d->sext && d->size <= 2) {
        set_bits(f, o->d, 8u << d->size);
        if (d->kind == NK_LOADP)
            set_bits(f, o->a, 8u << d->size);
    }
    if (loads_into(o, d, o->n))
        return;
    /* The address A (base + offset) was a mapped page: in [LOW, SPACE).  lo, hi: the base's
     * range before any writeback. */
    int64_t lo, hi;
    if (mode == NAM_UXTW || mode == NAM_SXTW || mode == NAM_XREG) {
        /* A register offset in [omin, omax]: its range from before the access, so not when the
         * access loaded that register */
        int64_t omin, omax;
        if (loads_into(o, d, o->m) || !offset_range(f, o, mode, &omin, &omax))
            return;
        lo = NATIVE_NEAR_LOW - omax, hi = -omin;
    } else { /* base + imm, or the base for POST */
        int64_t imm = (int64_t)o->imm;
        int64_t off = mode == NAM_POST ? 0 : imm;
        if (imm < -BOUND || imm > BOUND)
            return;
        lo = NATIVE_NEAR_LOW - off, hi = -off;
        if (base_written) { /* PRE: the base is A; POST: A + imm */
            set_near(f, o->n, NATIVE_NEAR_LOW + (mode == NAM_POST ? imm : 0), mode == NAM_POST ? imm : 0);
            return;
        }
    }
    if (is_near(f, o->n)) { /* the tighter of both */
        lo = lo > f->lo[o->n] ? lo : f->lo[o->n];
        hi = hi < f->hi[o->n] ? hi : f->hi[o->n];
    }
    set_near(f, o->n, lo, hi);
}

NeNearPre ne_near_pre(const NCtx *x, const Op *o)
{
    const NeFacts *f = &x->facts;
    NeNearPre p = { .near_n = is_near(f, o->n), .narrow_n = is_narrow(f, o->n), .narrow_m = is_narrow(f, o->m) };
    if (p.near_n)
        p.lo_n = f->lo[o->n], p.hi_n = f->hi[o->n];
    p.bits_n = p.narrow_n ? f->bits[o->n] : 64;
    p.bits_m = p.narrow_m ? f->bits[o->m] : 64;
    if (o->n == REG_ZR)
        p.narrow_n = true, p.bits_n = 0;
    if (o->m == REG_ZR)
        p.narrow_m = true, p.bits_m = 0;
    return p;
}

/* d = the sum of values below 2^a and 2^b: below 2^(max + 1). */
static void narrow_sum(NeFacts *f, unsigned d, unsigned a, unsigned b)
{
    set_bits(f, d, (a > b ? a : b) + 1);
}

/* d = n + [amin, amax] (or n - that, sub). */
static void add_range(NeFacts *f, unsigned d, const NeNearPre *p, int64_t amin, int64_t amax, bool sub)
{
    if (!p->near_n)
        return;
    if (sub)
        set_near(f, d, p->lo_n - amax, p->hi_n - amin);
    else
        set_near(f, d, p->lo_n + amin, p->hi_n + amax);
}

void ne_near_after_op(NCtx *x, const Op *o, const NativeDesc *d, const NeNearPre *p)
{
    NeFacts *f = &x->facts;
    unsigned rd = o->d;
    if (!x->facts_on || rd > REG_SP)
        return;
    if (!d->sf && (d->kind == NK_MOV || d->kind == NK_ADDSUB_IMM || d->kind == NK_ADDSUB_REG ||
                   d->kind == NK_ADDSUB_EXT || d->kind == NK_LOGIC_IMM || d->kind == NK_LOGIC_REG ||
                   d->kind == NK_BFM || d->kind == NK_CSEL || d->kind == NK_SHIFT_IMM ||
                   d->kind == NK_SHIFT_REG || d->kind == NK_EXTR || d->kind == NK_CLZ || d->kind == NK_RBIT ||
                   d->kind == NK_MADD || d->kind == NK_DIV || d->kind == NK_ADC)) {
        set_bits(f, rd, 32); /* a W result, zero-extended */
        return;
    }
    switch (d->kind) {
    case NK_MOVI: { /* a constant (MOVZ, MOVN, ADR, ADRP): [c, c + 1) */
        uint64_t c = o->imm;
        set_bits(f, rd, c ? 64u - (unsigned)__builtin_clzll(c) : 0);
        if (c < (uint64_t)SPACE)
            set_near(f, rd, (int64_t)c, (int64_t)c + 1 - SPACE);
        break;
    }
    case NK_MOV: /* MOV Xd, Xn */
        if (p->near_n)
            set_near(f, rd, p->lo_n, p->hi_n);
        if (p->narrow_n)
            set_bits(f, rd, p->bits_n);
        break;
    case NK_ADDSUB_IMM: { /* ADD: imm (SUB as a negative one); ADDS/SUBS: op */
        int64_t imm = (int64_t)o->imm;
        bool sub = d->setf && d->op == 1;
        if (imm >= -BOUND && imm <= BOUND)
            add_range(f, rd, p, imm, imm, sub);
        if (!sub && imm >= 0 && p->narrow_n) /* below 2^max(bits) + 2^max(bits) */
            narrow_sum(f, rd, p->bits_n, imm ? 64u - (unsigned)__builtin_clzll((uint64_t)imm) : 0);
        break;
    }
    case NK_ADDSUB_EXT: { /* n +- extend(m, sub) << x */
        static const int8_t width[8] = { 8, 16, 32, 64, -8, -16, -32, -64 };
        int w = width[d->sub & 7];
        unsigned s = o->x;
        if (s > 4)
            break;
        if (w > 0) {
            unsigned b = (unsigned)w;
            if (p->narrow_m && p->bits_m < b)
                b = p->bits_m;
            if (b > 36)
                break;
            add_range(f, rd, p, 0, (int64_t)(((1ull << b) - 1) << s), d->op);
        } else if (w > -64) {
            unsigned b = (unsigned)-w;
            add_range(f, rd, p, -(int64_t)(1ull << (b - 1 + s)), (int64_t)(((1ull << (b - 1)) - 1) << s), d->op);
        }
        break;
    }
    case NK_ADDSUB_REG: /* n +- m (no shift, or LSL by x) */
        if ((d->sub == 4 || (d->sub == 0 && o->x <= 4)) && p->narrow_m && p->bits_m <= 36)
            add_range(f, rd, p, 0, (int64_t)(((1ull << p->bits_m) - 1) << (d->sub == 4 ? 0 : o->x)), d->op);
        if ((d->sub == 4 || (d->sub == 0 && o->x <= 4)) && !d->op && p->narrow_n && p->narrow_m)
            narrow_sum(f, rd, p->bits_n, p->bits_m + (d->sub == 4 ? 0 : o->x));
        break;
    case NK_LOGIC_IMM: /* AND / ANDS with a mask: below its top bit */
        if (d->op == 0 || d->op == 3)
            set_bits(f, rd, o->imm ? 64u - (unsigned)__builtin_clzll(o->imm) : 0);
        break;
    case NK_BFM: /* UBFM as ((n << p0) >> p1) << p2 */
        if (d->op == 0) {
            unsigned p1 = (o->x >> 8) & 63, p2 = (o->x >> 16) & 63;
            set_bits(f, rd, 64 - p1 + p2);
        }
        break;
    case NK_EXTEND: /* UXTB, UXTH; SXTB, SXTH into W */
        if (d->sext == 0)
            set_bits(f, rd, 8u << d->size);
        else if (d->sext == 2)
            set_bits(f, rd, 32);
        break;
    default:
        break;
    }
}

/* ---- loop heads ---------------------------------------------------------------------------- */

void ne_near_at_label(NCtx *x, const struct NeLoopHead *h)
{
    if (h->facts_set)
        x->facts = h->facts;
    else
        ne_near_reset(&x->facts);
}

/* A way into head h with the current facts: the first one in a compile sets what the head
 * assumes (when nothing does yet); any that does not bring a fact marks its slot bad. */
void ne_near_way_in(NCtx *x, struct NeLoopHead *h)
{
    const NeFacts *f = &x->facts;
    if (!h->facts_set) {
        h->facts = *f;
        h->facts_set = true;
        return;
    }
    for (unsigned r = 0; r <= REG_SP; r++) {
        uint64_t bit = 1ull << r;
        if ((h->facts.near & bit) &&
            (!(f->near & bit) || f->lo[r] < h->facts.lo[r] || f->hi[r] > h->facts.hi[r])) {
            if (!(f->near & bit)) {
                h->edge.near &= ~bit;
            } else if (!(h->bad_near & bit)) {
                h->edge.near |= bit;
                h->edge.lo[r] = f->lo[r] < h->facts.lo[r] ? f->lo[r] : h->facts.lo[r];
                h->edge.hi[r] = f->hi[r] > h->facts.hi[r] ? f->hi[r] : h->facts.hi[r];
            } else if (h->edge.near & bit) { /* the hull of every way in */
                h->edge.lo[r] = f->lo[r] < h->edge.lo[r] ? f->lo[r] : h->edge.lo[r];
                h->edge.hi[r] = f->hi[r] > h->edge.hi[r] ? f->hi[r] : h->edge.hi[r];
            }
            h->bad_near |= bit;
        }
        if ((h->facts.narrow & bit) && (!(f->narrow & bit) || f->bits[r] > h->facts.bits[r]))
            h->bad_narrow |= bit;
    }
}

/* Block entry: check each fact f holds of a register; a failed check jumps to *fail[k],
 * patched to leave for the block to be compiled without entry facts.  The value comes from
 * CPUState into rax or, for the registers in from_cache, from its cache register: a block
 * without a loop loads them there (then every near fact is [0, NATIVE_NEAR_SPACE): rcx may be a
 * cache register); a looping block checks its head's loaded registers so, after loop_enter. */
unsigned ne_near_entry_checks(NCtx *x, const NeFacts *f, uint64_t from_cache, uint8_t **fail, unsigned max)
{
    Asm *a = &x->a;
    unsigned n = 0;
    if ((unsigned)(__builtin_popcountll(f->near) + __builtin_popcountll(f->narrow)) > max) {
        x->failed = true; /* not all checked: must not run */
        return 0;
    }
    for (unsigned r = 0; r <= REG_SP; r++) {
        uint64_t bit = 1ull << r;
        bool cached = from_cache & bit;
        if (f->near & bit) { /* value - lo < SPACE + hi - lo, unsigned */
            int v = X_RAX;
            if (cached)
                v = rc_src(x, r, X_RAX);
            else
                x_load(a, W64, X_RAX, HR_CPU, xoff(r));
            if (!f->lo[r] && !f->hi[r]) { /* value < guest_end (NATIVE_NEAR_SPACE) */
                x_alu_rm(a, W64, ALU_CMP, v, HR_CPU, CPU_OFF(guest_end));
            } else {
                if (cached) {
                    x->failed = true;
                    return 0;
                }
                if (f->lo[r]) {
                    x_mov_imm(a, X_RCX, (uint64_t)-f->lo[r]);
                    x_alu_rr(a, W64, ALU_ADD, X_RAX, X_RCX);
                }
                x_mov_imm(a, X_RCX, (uint64_t)(SPACE + f->hi[r] - f->lo[r]));
                x_alu_rr(a, W64, ALU_CMP, X_RAX, X_RCX);
            }
            fail[n++] = x_jcc(a, CC_AE);
        }
        if (f->narrow & bit) { /* value >> bits == 0 */
            if (cached) {
                x->failed = true;
                return 0;
            }
            x_load(a, W64, X_RAX, HR_CPU, xoff(r));
            if (f->bits[r])
                x_shift_ri(a, W64, SH_SHR, X_RAX, f->bits[r]);
            else
                x_test_rr(a, W64, X_RAX, X_RAX); /* a shift by 0 sets no flags */
            fail[n++] = x_jcc(a, CC_NE);
        }
    }
    return n;
}

/* After a compile: the slots some way into a head did not bring widened to the hull (twice per
 * slot at most) or dropped.  True when a head changed (compile again). */
bool ne_near_heads_update(NCtx *x)
{
    bool changed = false;
    for (unsigned k = 0; k < x->n_heads; k++) {
        struct NeLoopHead *h = &x->head[k];
        if (!(h->bad_near | h->bad_narrow))
            continue;
        changed = true;
        h->facts.narrow &= ~h->bad_narrow;
        for (unsigned r = 0; r <= REG_SP; r++) {
            uint64_t bit = 1ull << r;
            if (!(h->bad_near & bit))
                continue;
            if ((h->edge.near & bit) && h->widened[r] < 2) {
                h->widened[r]++;
                h->facts.lo[r] = h->edge.lo[r];
                h->facts.hi[r] = h->edge.hi[r];
            } else {
                h->facts.near &= ~bit;
            }
        }
        h->bad_near = h->bad_narrow = 0;
        h->edge.near = 0;
    }
    return changed;
}

/* The index of the block's first side exit's fall-through (op_goto_next), else n_ops: the ops
 * before it run on every entry that gets that far. */
static unsigned before_first_side_exit(const TB *tb)
{
    unsigned i = 0;
    while (i < tb->n_ops && tb->ops[i].fn != op_goto_next)
        i++;
    return i;
}

/* Before the first compile: head[0] of a looping block assumes within [0, NATIVE_NEAR_SPACE)
 * (its entry checks test that) each register the block uses as an access's base or adds to or
 * moves before its first side exit, when the loop seems not to write it, or when such a use is
 * its first mention; the other heads assume what the first way in brings.  A wrong guess costs
 * compile rounds or, when an entry check fails, a compile without head facts: never a missing
 * check.  Not the registers only the code after a side exit uses: as for a block without a loop
 * (ne_near_entry_init), their checks would run on every entry, and a block that loops is often
 * left by a side exit before its first round is done (xz's match finder: 12.7 M entries, 11 M
 * rounds); such an access is checked where it is. */
void ne_near_heads_init(NCtx *x, const TB *tb, bool loops)
{
    for (unsigned k = 0; k < x->n_heads; k++) {
        struct NeLoopHead *h = &x->head[k];
        ne_near_reset(&h->facts);
        ne_near_reset(&h->edge);
        h->facts_set = false;
        h->bad_near = h->bad_narrow = 0;
        memset(h->widened, 0, sizeof h->widened);
    }
    if (!loops || !x->near_heads)
        return;
    struct NeLoopHead *h = &x->head[0];
    h->facts_set = true;
    uint64_t used = 0, written = 0; /* a guess from the ops' fields: the rounds decide */
    unsigned last_edge = 0;         /* writes after the last branch back do not go round */
    for (unsigned i = 0; i < tb->n_ops; i++)
        if (tb->ops[i].fn == op_goto_tb && tb->ops[i].imm == tb->pc)
            last_edge = i;
    const unsigned early = before_first_side_exit(tb);
    for (unsigned i = 0; i <= last_edge; i++) {
        const Op *o = &tb->ops[i];
        const NativeDesc *d = native_desc(o->fn);
        if (!d) { /* C code: it forgets every fact */
            if (!is_marker(o))
                written = ~0ull;
            continue;
        }
        written |= op_writes(o, d);
        if (pointer_source(d) && o->n <= REG_SP && i < early)
            used |= 1ull << o->n;
    }
    /* and those whose first mention is as a base: what they hold on entry is addressed */
    uint64_t seen = 0, first_base = 0;
    for (unsigned i = 0; i < early; i++) {
        const Op *o = &tb->ops[i];
        const NativeDesc *d = native_desc(o->fn);
        if (!d && is_marker(o))
            continue;
        if (!d)
            break;
        if (pointer_source(d) && o->n <= REG_SP && !(seen >> o->n & 1))
            first_base |= 1ull << o->n;
        const uint8_t r[4] = { o->d, o->n, o->m, o->a };
        for (int k = 0; k < 4; k++)
            if (r[k] <= REG_SP)
                seen |= 1ull << r[k];
    }
    for (unsigned r = 0; r <= REG_SP; r++)
        if (((used & ~written) | first_base) >> r & 1)
            set_near(&h->facts, r, 0, 0);
}

/* A block that does not loop: within [0, NATIVE_NEAR_SPACE) (its entry checks test that) each
 * register it uses as an address before writing it: an access's base, or the source of the 64-bit
 * moves and adds that lead to one.  Up to the first call of C code, which forgets every fact, and
 * up to the first side exit: a block that goes on past conditional branches is often left by one
 * of them after a few instructions (xz's match finder leaves through its first one on most
 * entries), and checks of the registers only the code after it uses would run on every entry
 * for nothing.  An access there whose base has no fact is checked where it is (the window
 * check), which then gives the fact to the accesses after it. */
void ne_near_entry_init(NCtx *x, const TB *tb)
{
    ne_near_reset(&x->entry);
    if (!x->near_heads)
        return;
    uint64_t written = 0, bases = 0, from[32] = { 0 }; /* from[r]: unwritten registers r derives from */
    for (unsigned i = 0, early = before_first_side_exit(tb); i < early; i++) {
        const Op *o = &tb->ops[i];
        const NativeDesc *d = native_desc(o->fn);
        if (!d) {
            if (is_marker(o))
                continue;
            break;
        }
        uint64_t n_from = 0;
        if (o->n <= REG_SP)
            n_from = (written >> o->n & 1 ? 0 : 1ull << o->n) | from[o->n];
        if (ne_is_mem_kind(d->kind))
            bases |= n_from;
        uint64_t w = op_writes(o, d);
        for (uint64_t m = w & ((2ull << REG_SP) - 1); m; m &= m - 1)
            from[__builtin_ctzll(m)] = 0;
        if (!ne_is_mem_kind(d->kind) && pointer_source(d) && o->d <= REG_SP)
            from[o->d] = n_from;
        written |= w;
    }
    for (unsigned r = 0; r <= REG_SP; r++)
        if (bases >> r & 1)
            set_near(&x->entry, r, 0, 0);
}
