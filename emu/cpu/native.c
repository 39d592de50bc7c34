/* Native x86-64 back end: code buffers, the block compiler, entry/exit and chaining.
 * (The per-operation emitters are in native_ops.c; the design is in native.h.) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "native.h"
#include "mem.h"

static Backend backend_choice = (Backend)-1;

Backend native_backend(void)
{
    if (backend_choice == (Backend)-1) {
        const char *e = getenv("MALIBU_BACKEND");
        backend_choice = MALIBU_HAVE_NATIVE ? BACKEND_NATIVE : BACKEND_PORTABLE;
        if (e && !strcmp(e, "portable"))
            backend_choice = BACKEND_PORTABLE;
    }
    return backend_choice;
}

void native_set_backend(Backend b)
{
    backend_choice = MALIBU_HAVE_NATIVE ? b : BACKEND_PORTABLE;
}

unsigned native_compile_after = 1;

void native_set_compile_after(unsigned runs)
{
    native_compile_after = runs ? runs : 1;
}

bool native_parse_compile_after(const char *s, unsigned *runs)
{
    char *end;
    unsigned long n = strtoul(s, &end, 10);
    if (!*s || *end || n < 1 || n > NATIVE_COMPILE_AFTER_MAX)
        return false;
    *runs = (unsigned)n;
    return true;
}

unsigned native_compile_after_default(void)
{
    const char *e = getenv("MALIBU_COMPILE_AFTER");
    unsigned runs;
    return e && native_parse_compile_after(e, &runs) ? runs : NATIVE_COMPILE_AFTER;
}

static bool insn_limit_check;

void native_set_insn_limit_check(bool on)
{
    insn_limit_check = on;
}

static bool insn_count_off;

void native_set_insn_count(bool on)
{
    insn_count_off = !on;
}

#if MALIBU_HAVE_NATIVE
#include "native_emit.h"

/* Does generated code keep CPUState.insn_count (asked for, or the quantum checks it)? */
static bool insn_counted(void) { return !insn_count_off || insn_limit_check; }

/* CPUState.insn_count as generated code updates it.  System mode counts every block (the PMU,
 * icount and the stats read it) and keeps the count in HR_INSN_COUNT: a register add per block
 * where a read-modify-write of one memory word chained every block to the one before through
 * store forwarding.  The register is loaded on entry and stored at the exit and around each
 * call out of generated code (the C it calls reads the count, or raises out of the block).
 * User mode counts only when asked (--debug stats, the quantum check), in memory.  System
 * mode's add is a lea, which leaves EFLAGS: a side exit's NZCV may still be there
 * (goto_tail_flags). */
#ifdef CONFIG_SYSTEM
static void insn_count_add(Asm *a, int32_t n) { x_lea(a, W64, HR_INSN_COUNT, HR_INSN_COUNT, X_NONE, n); }
static void insn_count_to_cpu(Asm *a) { x_store(a, W64, HR_CPU, CPU_OFF(insn_count), HR_INSN_COUNT); }
static void insn_count_from_cpu(Asm *a) { x_load(a, W64, HR_INSN_COUNT, HR_CPU, CPU_OFF(insn_count)); }
static void insn_count_into(Asm *a, int r) { x_mov_rr(a, W64, r, HR_INSN_COUNT); }
#else
static void insn_count_add(Asm *a, int32_t n) { x_alu_mi(a, W64, ALU_ADD, HR_CPU, CPU_OFF(insn_count), n); }
static void insn_count_to_cpu(Asm *a) { (void)a; }
static void insn_count_from_cpu(Asm *a) { (void)a; }
static void insn_count_into(Asm *a, int r) { x_load(a, W64, r, HR_CPU, CPU_OFF(insn_count)); }
#endif

/* ---- handler descriptions ---------------------------------------------------------------- */

#define BIND_BITS 13
static struct { OpFn fn; NativeDesc d; } bind_tab[1u << BIND_BITS];

static unsigned bind_hash(OpFn fn)
{
    return (unsigned)(((uintptr_t)fn * 0x9E3779B97F4A7C15ull) >> (64 - BIND_BITS));
}

void native_bind(OpFn fn, NativeDesc d)
{
    for (unsigned h = bind_hash(fn);; h = (h + 1) & ((1u << BIND_BITS) - 1)) {
        if (!bind_tab[h].fn || bind_tab[h].fn == fn) {
            bind_tab[h].fn = fn;
            bind_tab[h].d = d;
            return;
        }
    }
}

bool native_is_cond_branch(OpFn fn)
{
    const NativeDesc *d = native_desc(fn);
    return d && (d->kind == NK_BCOND || d->kind == NK_CB || d->kind == NK_TB || d->kind == NK_CMP_BRANCH);
}

const NativeDesc *native_desc(OpFn fn)
{
    for (unsigned h = bind_hash(fn); bind_tab[h].fn; h = (h + 1) & ((1u << BIND_BITS) - 1))
        if (bind_tab[h].fn == fn)
            return &bind_tab[h].d;
    return NULL;
}

/* The translators' describers (NATIVE_DESCRIBER), registered before main runs. */
#define MAX_DESCRIBERS 32
static NativeDescriber describers[MAX_DESCRIBERS];
static unsigned n_describers;

void native_add_describer(NativeDescriber describe)
{
    if (n_describers == MAX_DESCRIBERS) {
        fprintf(stderr, "native: more than %d translator describers\n", MAX_DESCRIBERS);
        abort();
    }
    describers[n_describers++] = describe;
}

static void bind_all(void)
{
    native_bind(op_goto_tb, (NativeDesc){ .kind = NK_GOTO });
    for (unsigned i = 0; i < n_describers; i++)
        describers[i]();
}

/* ---- code buffers ------------------------------------------------------------------------- */

struct NativeBuf {
    NativeFaultSite *sites;   /* user mode: guest accesses in code order (native_fault_site) */
    size_t n_sites, max_sites;
    uint8_t *code;
    size_t size, used, fixed; /* fixed: entry/exit code at the start, kept across flushes */
    Op *data;                 /* op copies called by generated code */
    size_t data_ops, data_used;
    uint8_t *enter, *epilogue;
    uint8_t *lookup;          /* jump to the block at c->pc (gen_lookup) */
    uint8_t *lookup_rax;      /* the same with c->pc in rax too (BR, RET): no reload of the
                               * value just stored, a store-to-load wait before the jump */
    uint8_t *slow_call;       /* an out-of-line slow path's call of a handler (gen_slow_call) */
#ifndef CONFIG_SYSTEM
    struct IndirectEntry *ibc; /* user mode: the indirect-branch cache (gen_ibc_probe) */
    uint8_t *lookup_call;     /* its miss: native_lookup, which fills it */
#endif
};

#ifndef CONFIG_SYSTEM
/* User mode's indirect-branch cache: a guest address and its block's host code, direct-mapped
 * by address, probed in line at each BR, BLR and unpredicted RET (gen_ibc_probe): one line
 * read and a jump of the site's own, which the host predicts per site, where the jump cache
 * (TBCache.jmp_cache) costs two dependent reads (slot, then the TB) and one shared jump.  An
 * empty entry (or one a flush emptied) sends its address to lookup_call, as a miss does. */
#define IBC_BITS 12
struct IndirectEntry {
    uint64_t pc;
    void *code;
};
_Static_assert(sizeof(struct IndirectEntry) == 16, "gen_ibc_probe scales the index by 16");

static void ibc_clear(struct NativeBuf *b)
{
    for (unsigned i = 0; i < 1u << IBC_BITS; i++)
        b->ibc[i] = (struct IndirectEntry){ .pc = 0, .code = b->lookup_call };
}

static struct IndirectEntry *ibc_entry(struct NativeBuf *b, uint64_t pc)
{
    return &b->ibc[(pc >> 2) & ((1u << IBC_BITS) - 1)];
}

/* rax = the guest address (also in c->pc), the cache registers free: jump to its block if
 * the cache has it, else to lookup_call.  Uses rcx and rdx. */
static void gen_ibc_probe(Asm *a, struct NativeBuf *b)
{
    x_mov_rr(a, W32, X_RCX, X_RAX);
    x_shift_ri(a, W32, SH_SHL, X_RCX, 2);
    x_alu_ri(a, W32, ALU_AND, X_RCX, (int32_t)(((1u << IBC_BITS) - 1) << 4));
    x_mov_imm(a, X_RDX, (uint64_t)(uintptr_t)b->ibc);
    x_alu_rr(a, W64, ALU_ADD, X_RCX, X_RDX);
    x_alu_rm(a, W64, ALU_CMP, X_RAX, X_RCX, (int32_t)offsetof(struct IndirectEntry, pc));
    x_patch(x_jcc(a, CC_NE), b->lookup_call);
    x_jmp_m(a, X_RCX, (int32_t)offsetof(struct IndirectEntry, code));
}
#endif

static void *native_lookup(CPUState *c);

/* How deep guest calls may nest on the host stack (16 bytes each, ne_call_*): past this the
 * frames are dropped (every pending return then takes the lookup). */
#define NATIVE_CALL_STACK_BYTES (64 * 1024)

#ifdef CONFIG_SYSTEM
#include "sys_cpu.h"
#endif
/* Continue at c->pc (stored; guest registers written back) without leaving generated code
 * when its block exists: system mode, the lookup of sys_tb_find inline (the execute tag of the
 * soft-TLB entry, then the jump-cache slot, checked for pc, physical address and CPU state);
 * user mode, the indirect-branch cache's probe (gen_ibc_probe); else native_lookup (the hash),
 * else back to the dispatcher to translate.  Used by indirect branches and, in system mode, by
 * direct branches leaving the page (not chained: the next page's mapping may change). */
static void gen_lookup(Asm *a, struct NativeBuf *b)
{
#ifdef CONFIG_SYSTEM
    uint8_t *miss[6];
    unsigned n = 0;
    b->lookup = a->p;
    x_load(a, W64, X_RAX, HR_CPU, CPU_OFF(pc));
    b->lookup_rax = a->p;
    _Static_assert(sizeof(SysTlbEntry) == 64, "entry index scaling");
    ne_tlb_index(a, X_RCX, X_RAX);
    x_alu_rm(a, W64, ALU_ADD, X_RCX, HR_CPU, (int32_t)offsetof(SysCPU, tlb));
    x_mov_rr(a, W64, X_RDX, X_RAX);
    x_alu_ri(a, W64, ALU_AND, X_RDX, -4096);
    x_alu_rm(a, W64, ALU_CMP, X_RDX, X_RCX, (int32_t)offsetof(SysTlbEntry, tag_x));
    miss[n++] = x_jcc(a, CC_NE);
    x_mov_rr(a, W64, X_RSI, X_RAX); /* physical address of pc */
    x_alu_ri(a, W32, ALU_AND, X_RSI, 0xfff);
    x_alu_rm(a, W64, ALU_OR, X_RSI, X_RCX, (int32_t)offsetof(SysTlbEntry, pa));
    x_mov_rr(a, W64, X_RCX, X_RAX); /* jump-cache slot (pc >> 2) * 8 */
    x_shift_ri(a, W64, SH_SHL, X_RCX, 1);
    x_alu_ri(a, W32, ALU_AND, X_RCX, (int32_t)(((1u << JMP_CACHE_BITS) - 1) << 3));
    x_alu_rm(a, W64, ALU_ADD, X_RCX, HR_CPU, CPU_OFF(tbc));
    x_load(a, W64, X_RDI, X_RCX, (int32_t)offsetof(TBCache, jmp_cache));
    x_test_rr(a, W64, X_RDI, X_RDI);
    miss[n++] = x_jcc(a, CC_E);
    x_alu_rm(a, W64, ALU_CMP, X_RAX, X_RDI, (int32_t)offsetof(TB, pc));
    miss[n++] = x_jcc(a, CC_NE);
    x_alu_rm(a, W64, ALU_CMP, X_RSI, X_RDI, (int32_t)offsetof(TB, phys));
    miss[n++] = x_jcc(a, CC_NE);
    x_load(a, W32, X_RCX, HR_CPU, (int32_t)offsetof(SysCPU, tb_flags));
    x_alu_rm(a, W32, ALU_CMP, X_RCX, X_RDI, (int32_t)offsetof(TB, flags));
    miss[n++] = x_jcc(a, CC_NE);
    x_load(a, W64, X_RAX, X_RDI, (int32_t)offsetof(TB, native));
    x_test_rr(a, W64, X_RAX, X_RAX);
    uint8_t *none = x_jcc(a, CC_E);
    x_jmp_r(a, X_RAX);
    for (unsigned k = 0; k < n; k++)
        x_patch(miss[k], a->p);
#else
    b->lookup_call = a->p;
#endif
    x_mov_rr(a, W64, X_RDI, HR_CPU);
    x_mov_imm(a, X_RAX, (uint64_t)(uintptr_t)native_lookup);
    insn_count_to_cpu(a);
    x_call_r(a, X_RAX);
    insn_count_from_cpu(a);
    x_test_rr(a, W64, X_RAX, X_RAX);
    uint8_t *none2 = x_jcc(a, CC_E);
    x_jmp_r(a, X_RAX);
#ifdef CONFIG_SYSTEM
    x_patch(none, a->p);
#endif
    x_patch(none2, a->p);
    x_alu_rr(a, W32, ALU_XOR, X_RAX, X_RAX);
    x_patch(x_jmp(a), b->epilogue);
#ifndef CONFIG_SYSTEM
    b->lookup = a->p;
    x_load(a, W64, X_RAX, HR_CPU, CPU_OFF(pc));
    b->lookup_rax = a->p;
    gen_ibc_probe(a, b);
#endif
}

/* An out-of-line slow path (ne_slow_site; its dirty cache registers already stored) calls a
 * portable handler here, rax = the op's copy (ne_op_copy), whose return op carries in imm the
 * flags_op to run first (0: none).  The caller-saved cache registers are kept across the call;
 * one shared copy of this keeps every slow path at a few bytes. */
static void native_slow_call(CPUState *c, Op *op)
{
    native_flags_again(c, (const Op *)(uintptr_t)op[1].imm);
    op->fn(c, op);
}

static const int rc_host[NE_CACHE_REGS];

static void gen_slow_call(Asm *a, struct NativeBuf *b)
{
    /* the cache registers the host ABI lets a call clobber (rbp, r13-r15 it preserves) */
    int saved[NE_CACHE_REGS], n_saved = 0;
    for (int i = 0; i < NE_CACHE_REGS; i++)
        if (rc_host[i] != X_RBP && rc_host[i] < X_R12)
            saved[n_saved++] = rc_host[i];
    /* entered by a call from block code (rsp 16-byte aligned there): 16-byte aligned again at
     * the call below after the return address, the pushes and, for an even count, 8 more */
    b->slow_call = a->p;
    for (int k = 0; k < n_saved; k++)
        x_push(a, saved[k]);
    if (n_saved % 2 == 0)
        x_alu_ri(a, W64, ALU_SUB, X_RSP, 8);
    x_mov_rr(a, W64, X_RDI, HR_CPU);
    x_mov_rr(a, W64, X_RSI, X_RAX);
    x_mov_imm(a, X_RAX, (uint64_t)(uintptr_t)native_slow_call);
    insn_count_to_cpu(a);
    x_call_r(a, X_RAX);
    insn_count_from_cpu(a);
    if (n_saved % 2 == 0)
        x_alu_ri(a, W64, ALU_ADD, X_RSP, 8);
    for (int k = n_saved - 1; k >= 0; k--)
        x_pop(a, saved[k]);
    x_ret(a);
}

static void gen_entry_exit(struct NativeBuf *b)
{
    Asm a = x_asm(b->code, b->code + b->size);
    static const int saved[] = { X_RBP, X_RBX, X_R12, X_R13, X_R14, X_R15 };
    b->enter = a.p;
    for (int i = 0; i < 6; i++)
        x_push(&a, saved[i]);
    x_alu_ri(&a, W64, ALU_SUB, X_RSP, 8); /* keep rsp 16-byte aligned at calls */
    x_mov_rr(&a, W64, HR_CPU, X_RDI);
    x_store(&a, W64, HR_CPU, CPU_OFF(host_sp), X_RSP); /* guest call frames go below */
    x_lea(&a, W64, X_RAX, X_RSP, X_NONE, -NATIVE_CALL_STACK_BYTES);
    x_store(&a, W64, HR_CPU, CPU_OFF(host_sp_min), X_RAX);
#ifdef CONFIG_SYSTEM
    insn_count_from_cpu(&a);
#else
    x_load(&a, W64, HR_GUEST_BASE, HR_CPU, CPU_OFF(guest_base));
    _Static_assert(GUEST_ADDR_SPACE == NATIVE_NEAR_SPACE, "entry checks compare with guest_end");
    x_mov_imm(&a, X_RAX, GUEST_ADDR_SPACE);
    x_store(&a, W64, HR_CPU, CPU_OFF(guest_end), X_RAX);
#endif
    x_jmp_r(&a, X_RSI);
    b->epilogue = a.p;
    insn_count_to_cpu(&a);
    x_load(&a, W64, X_RSP, HR_CPU, CPU_OFF(host_sp)); /* drop the guest call frames */
    x_alu_ri(&a, W64, ALU_ADD, X_RSP, 8);
    for (int i = 5; i >= 0; i--)
        x_pop(&a, saved[i]);
    x_ret(&a);
    gen_lookup(&a, b);
    gen_slow_call(&a, b);
    b->fixed = b->used = (size_t)((a.p - b->code + 63) & ~63);
}

struct NativeBuf *native_buf_new(size_t code_bytes)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, bind_all);
    struct NativeBuf *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->size = code_bytes;
    b->code = mmap(NULL, code_bytes, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    b->max_sites = code_bytes / 32;
    b->sites = mmap(NULL, b->max_sites * sizeof(NativeFaultSite), PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
#ifndef CONFIG_SYSTEM
    b->ibc = aligned_alloc(64, sizeof(struct IndirectEntry) << IBC_BITS);
    if (!b->ibc && b->sites != MAP_FAILED) { /* as if the sites had failed */
        munmap(b->sites, b->max_sites * sizeof(NativeFaultSite));
        b->sites = MAP_FAILED;
    }
#endif
    if (b->sites == MAP_FAILED) {
        if (b->code != MAP_FAILED)
            munmap(b->code, code_bytes);
        free(b);
        return NULL;
    }
    b->data_ops = code_bytes / 4 / sizeof(Op);
    b->data = mmap(NULL, b->data_ops * sizeof(Op), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    /* Huge pages for the code, its ops and its fault sites where the host offers them (THP
     * "madvise" mode): tens of MB of generated code then take few host iTLB entries, and each
     * area one host page fault per 2 MiB filled instead of per 4 KiB.  Advice only. */
    if (b->code != MAP_FAILED)
        madvise(b->code, code_bytes, MADV_HUGEPAGE);
    if (b->data != MAP_FAILED)
        madvise(b->data, b->data_ops * sizeof(Op), MADV_HUGEPAGE);
    madvise(b->sites, b->max_sites * sizeof(NativeFaultSite), MADV_HUGEPAGE);
    if (b->code == MAP_FAILED || b->data == MAP_FAILED) {
        if (b->code != MAP_FAILED)
            munmap(b->code, code_bytes);
        if (b->data != MAP_FAILED)
            munmap(b->data, b->data_ops * sizeof(Op));
        munmap(b->sites, b->max_sites * sizeof(NativeFaultSite));
#ifndef CONFIG_SYSTEM
        free(b->ibc);
#endif
        free(b);
        return NULL;
    }
    gen_entry_exit(b);
#ifndef CONFIG_SYSTEM
    ibc_clear(b); /* every entry empty: to lookup_call, which gen_entry_exit placed */
#endif
    return b;
}

void native_buf_free(struct NativeBuf *b)
{
    if (!b)
        return;
    munmap(b->code, b->size);
    munmap(b->data, b->data_ops * sizeof(Op));
    munmap(b->sites, b->max_sites * sizeof(NativeFaultSite));
#ifndef CONFIG_SYSTEM
    free(b->ibc);
#endif
    free(b);
}

void native_buf_flush(struct NativeBuf *b)
{
    b->used = b->fixed;
    b->data_used = 0;
    b->n_sites = 0;
#ifndef CONFIG_SYSTEM
    ibc_clear(b);
#endif
}

static Op *data_alloc(struct NativeBuf *b, unsigned n)
{
    if (b->data_used + n > b->data_ops)
        return NULL;
    Op *p = b->data + b->data_used;
    b->data_used += n;
    return p;
}

/* ---- helpers called from generated code --------------------------------------------------- */

/* The op after a fallback op's copy: the handler's op_next() lands here and returns. */
static Op *op_native_return(CPUState *c, Op *o)
{
    (void)c;
    return o;
}

/* In copies of a block's ending ops: leave instead of chaining (the dispatcher continues). */
static Op *op_native_goto_exit(CPUState *c, Op *o)
{
    c->pc = o->imm;
    return NULL;
}

static void native_run_ops(CPUState *c, Op *op)
{
    while (op)
        op = op->fn(c, op);
}

void native_flags_again(CPUState *c, const Op *flags_op)
{
    uintptr_t p = (uintptr_t)flags_op;
    if (!p || ((p & 1) && !c->loop_nzcv_stale)) /* bit 0: a loop head's, entered from outside */
        return;
    Op *o = (Op *)(p & ~(uintptr_t)1);
    o->fn(c, o);
}

_Noreturn static void native_data_abort(CPUState *c, uint64_t addr, const Op *op, int write, const Op *flags_op)
{
    native_flags_again(c, flags_op); /* the flags the block left out of CPUState (ne_op_copy) */
    cpu_raise(c, (Op *)op, EXC_DATA_ABORT, addr, write != 0);
}

const NativeFaultSite *native_fault_site(TBCache *t, uintptr_t rip)
{
    struct NativeBuf *b = t ? t->nbuf : NULL;
    if (!b || rip < (uintptr_t)b->code || rip >= (uintptr_t)b->code + b->used)
        return NULL;
    size_t lo = 0, hi = b->n_sites;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (b->sites[mid].rip < rip)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < b->n_sites && b->sites[lo].rip == rip ? &b->sites[lo] : NULL;
}

/* Code for the block at c->pc if it exists and may run now, else NULL. */
static void *native_lookup(CPUState *c)
{
#ifdef CONFIG_SYSTEM
    TB *tb = sys_tb_find(c, c->pc);
#else
    TB *tb = tb_jmp_lookup(c->tbc, c->pc);
    if (tb && tb->native)
        *ibc_entry(c->tbc->nbuf, c->pc) = (struct IndirectEntry){ .pc = c->pc, .code = tb->native };
#endif
    return tb ? tb->native : NULL;
}

/* ---- emission helpers (native_emit.h) ----------------------------------------------------- */

static void fixup_add(NCtx *x, uint8_t **tab, unsigned *n, uint8_t *field)
{
    if (*n >= NE_MAX_FIXUPS) {
        x->failed = true;
        return;
    }
    tab[(*n)++] = field;
}

void ne_exit0_if(NCtx *x, int cc)
{
    fixup_add(x, x->exit0, &x->n_exit0, cc == CC_ALWAYS ? x_jmp(&x->a) : x_jcc(&x->a, cc));
}

void ne_call(NCtx *x, const void *fn)
{
    ne_near_reset(&x->facts); /* C code may write any guest register */
    x_mov_imm(&x->a, X_RAX, (uint64_t)(uintptr_t)fn);
    insn_count_to_cpu(&x->a);
    x_call_r(&x->a, X_RAX);
    insn_count_from_cpu(&x->a);
}

static void loop_back_edge(NCtx *x, struct NeLoopHead *h, unsigned uncount);
static void goto_tail(NCtx *x, uint64_t target, unsigned uncount);

/* A side exit: the block's instructions after it did not run. */
static void uncount_side_exit(Asm *a, unsigned uncount)
{
    if (uncount && insn_counted())
        insn_count_add(a, -(int32_t)uncount);
}

/* The loop head at target the block has already compiled, else NULL. */
static struct NeLoopHead *loop_head_at(NCtx *x, uint64_t target)
{
    for (unsigned k = 0; k < x->n_heads; k++)
        if (x->head[k].pc == target && x->head[k].label)
            return &x->head[k];
    return NULL;
}

void ne_goto(NCtx *x, uint64_t target)
{
    ne_goto_side(x, target, 0);
}

void ne_goto_side(NCtx *x, uint64_t target, unsigned uncount)
{
    struct NeLoopHead *h = loop_head_at(x, target);
    if (h) {
        loop_back_edge(x, h, uncount);
        return;
    }
    /* The path ends here: the code after it (a conditional branch's other side) still has
     * the dirty registers this path writes back. */
    bool dirty[NE_CACHE_REGS];
    for (int i = 0; i < NE_CACHE_REGS; i++)
        dirty[i] = x->rc[i].dirty;
    rc_spill(x);
    for (int i = 0; i < NE_CACHE_REGS; i++)
        x->rc[i].dirty = dirty[i];
    goto_tail(x, target, uncount);
}

/* A goto's code once CPUState holds the guest registers: leave when exit_request is set, else
 * the jump chaining patches (emit_stubs). */
static void goto_tail(NCtx *x, uint64_t target, unsigned uncount)
{
    if (x->n_gotos >= NE_MAX_GOTOS) {
        x->failed = true;
        return;
    }
    uncount_side_exit(&x->a, uncount);
    x_alu_mi(&x->a, W32, ALU_CMP, HR_CPU, CPU_OFF(exit_request), 0);
    x->gotos[x->n_gotos].exit_field = x_jcc(&x->a, CC_NE);
    x->gotos[x->n_gotos].chain_field = x_jmp(&x->a);
    x->gotos[x->n_gotos].flags_field = NULL;
    x->gotos[x->n_gotos].target = target;
#ifdef CONFIG_SYSTEM
    /* Only within the page: its mapping is the one this block was entered with. */
    x->gotos[x->n_gotos].chainable = ((target ^ x->tb->pc) >> 12) == 0;
#else
    x->gotos[x->n_gotos].chainable = true;
#endif
    x->n_gotos++;
}

bool ne_side_exit(NCtx *x, int cc, int flags_kind, uint64_t target, unsigned uncount)
{
    if (loop_head_at(x, target))
        return false;
    if (x->n_side >= sizeof x->side / sizeof x->side[0]) {
        x->failed = true;
        return true;
    }
    unsigned k = x->n_side++;
    x->side[k].field = x_jcc(&x->a, cc);
    x->side[k].flags_kind = flags_kind;
    x->side[k].uncount = uncount;
    x->side[k].target = target;
    ne_dirty_capture(x, &x->side[k].dirty);
    return true;
}

/* Can a side exit to target with NZCV still in EFLAGS keep them there up to its jump
 * (goto_tail_flags)?  Its chain must be a plain jump (system mode: within the page) and taking
 * back the instructions not run must leave EFLAGS alone (system mode: lea). */
static bool flags_goto_ok(const NCtx *x, uint64_t target, unsigned uncount)
{
#ifdef CONFIG_SYSTEM
    (void)uncount;
    return ((target ^ x->tb->pc) >> 12) == 0;
#else
    (void)x, (void)target;
    return !uncount || !insn_counted(); /* user mode's count is an add in memory */
#endif
}

/* goto_tail with NZCV (of that FL_* kind) still in EFLAGS: the exit_request test leaves them
 * there (jrcxz; the cache registers are dead past the side exit's stores), and leaving stores
 * them.  Going on, the stores are followed by flags_field's jump; a target block that does not
 * need them (TB.nzcv_dead_in) is chained by chain_field's jump after it instead, which the
 * jrcxz is then pointed at (native_chain: one byte). */
static void goto_tail_flags(NCtx *x, uint64_t target, unsigned uncount, int kind)
{
    Asm *a = &x->a;
    if (x->n_gotos >= NE_MAX_GOTOS) {
        x->failed = true;
        return;
    }
    uncount_side_exit(a, uncount);
    unsigned g = x->n_gotos++;
    x_load(a, W32, X_RCX, HR_CPU, CPU_OFF(exit_request));
    uint8_t *go_on = x_jrcxz(a);
    ne_store_all_flags(x, kind);
    x->gotos[g].exit_field = x_jmp(a);
    uint8_t *cont = a->p;
    ne_store_all_flags(x, kind);
    x->gotos[g].flags_field = x_jmp(a);
    x->gotos[g].chain_field = x_jmp(a);
    if (!x_patch8(go_on, x->gotos[g].chain_field - 1)) /* its target once chained: in reach? */
        x->failed = true;
    x_patch8(go_on, cont);
    x->gotos[g].jrcxz_field = go_on;
    x->gotos[g].target = target;
    x->gotos[g].chainable = true;
}

/* The side exits' code (ne_side_exit), entered with EFLAGS as the branch left them. */
static void emit_side_exits(NCtx *x)
{
    for (unsigned k = 0; k < x->n_side; k++) {
        int kind = x->side[k].flags_kind;
        x_patch(x->side[k].field, x->a.p);
        if (kind >= 0 && !flags_goto_ok(x, x->side[k].target, x->side[k].uncount)) {
            ne_store_all_flags(x, kind);
            kind = -1;
        }
        ne_dirty_store(x, &x->side[k].dirty); /* moves: EFLAGS stay */
        if (kind >= 0)
            goto_tail_flags(x, x->side[k].target, x->side[k].uncount, kind);
        else
            goto_tail(x, x->side[k].target, x->side[k].uncount);
    }
}

void ne_goto_indirect(NCtx *x, bool pc_in_rax)
{
    rc_drop(x);
    x_alu_mi(&x->a, W32, ALU_CMP, HR_CPU, CPU_OFF(exit_request), 0);
    ne_exit0_if(x, CC_NE);
#ifdef CONFIG_SYSTEM
    x_patch(x_jmp(&x->a), pc_in_rax ? x->buf->lookup_rax : x->buf->lookup);
#else
    if (!pc_in_rax)
        x_load(&x->a, W64, X_RAX, HR_CPU, CPU_OFF(pc));
    gen_ibc_probe(&x->a, x->buf); /* in line: a jump of this branch's own */
#endif
}

/* ---- return prediction: guest calls as host calls ------------------------------------------ */

/* A guest call pushes its return address, then makes a host call whose return address is
 * this call's return point (emit_return_points); the branch to the callee follows. */
static void call_frame(NCtx *x, uint64_t ret)
{
    Asm *a = &x->a;
    if (x->n_rets >= NE_MAX_GOTOS) {
        x->failed = true;
        return;
    }
    rc_spill(x);
    x_alu_rm(a, W64, ALU_CMP, X_RSP, HR_CPU, CPU_OFF(host_sp_min));
    uint8_t *room = x_jcc(a, CC_A);
    x_load(a, W64, X_RSP, HR_CPU, CPU_OFF(host_sp)); /* too deep: forget every frame */
    x_patch(room, a->p);
    x_mov_imm(a, X_RAX, ret);
    x_push(a, X_RAX);
    x_b(a, 0xE8); /* call the next instruction but one: the host return lands on the jmp */
    x_d32(a, 5);
    x->rets[x->n_rets].field = x_jmp(a);
    x->rets[x->n_rets++].ret = ret;
}

void ne_call_goto(NCtx *x, uint64_t ret, uint64_t target)
{
    call_frame(x, ret);
    ne_goto(x, target);
}

void ne_call_indirect(NCtx *x, uint64_t ret)
{
    call_frame(x, ret); /* rax: the return address */
    ne_goto_indirect(x, false);
}

void ne_ret(NCtx *x)
{
    Asm *a = &x->a;
    rc_drop(x);
    x_alu_mi(a, W32, ALU_CMP, HR_CPU, CPU_OFF(exit_request), 0);
    ne_exit0_if(x, CC_NE);
    x_alu_rm(a, W64, ALU_CMP, X_RSP, HR_CPU, CPU_OFF(host_sp));
    x_patch(x_jcc(a, CC_AE), x->buf->lookup_rax); /* no frame */
    x_alu_rm(a, W64, ALU_CMP, X_RAX, X_RSP, 8);
    uint8_t *other = x_jcc(a, CC_NE);
    x_ret(a);
    /* Returning elsewhere (longjmp, a frame dropped): the newest frame goes anyway, so
     * frames stay in step with the guest's returns. */
    x_patch(other, a->p);
    x_alu_ri(a, W64, ALU_ADD, X_RSP, 16);
    x_patch(x_jmp(a), x->buf->lookup_rax);
}

/* The return points of the block's calls: entered by a host `ret` from a RET whose target
 * (in c->pc, registers written back) is the call's return address; continue at the block
 * there, chained like a direct branch.  System mode: with no check that the return address's
 * page still maps to this block's physical page in this block's CPU state.  Frames live only
 * until the next exit to the dispatcher (exception entry, ERET, interrupts, writes to the
 * translation registers and to code all leave), so only a TLBI followed by an ISB inside
 * generated code could change what the return must fetch, and ISB drops every frame
 * (NK_CONTEXT_SYNC).  A return address in another page still goes through that page's guard. */
static void emit_return_points(NCtx *x)
{
    Asm *a = &x->a;
    unsigned n = x->n_rets;
    rc_reset(x); /* entered with every register in CPUState */
    for (unsigned k = 0; k < n; k++) {
        x_patch(x->rets[k].field, a->p);
        x_alu_ri(a, W64, ALU_ADD, X_RSP, 8); /* the frame's guest address */
        ne_goto(x, x->rets[k].ret);
    }
}

int ne_cond(NCtx *x, unsigned cond)
{
    Asm *a = &x->a;
    int cc;
    switch (cond >> 1) {
    case 0: x_cmp_m8i(a, HR_CPU, CPU_OFF(zf), 0); cc = CC_NE; break;
    case 1: x_cmp_m8i(a, HR_CPU, CPU_OFF(cf), 0); cc = CC_NE; break;
    case 2: x_cmp_m8i(a, HR_CPU, CPU_OFF(nf), 0); cc = CC_NE; break;
    case 3: x_cmp_m8i(a, HR_CPU, CPU_OFF(vf), 0); cc = CC_NE; break;
    case 4: /* HI: C && !Z, i.e. C > Z */
        x_load_byte(a, X_RAX, HR_CPU, CPU_OFF(cf));
        x_cmp_r8m(a, X_RAX, HR_CPU, CPU_OFF(zf));
        cc = CC_A;
        break;
    case 5: /* GE: N == V */
        x_load_byte(a, X_RAX, HR_CPU, CPU_OFF(nf));
        x_cmp_r8m(a, X_RAX, HR_CPU, CPU_OFF(vf));
        cc = CC_E;
        break;
    case 6: /* GT: N == V && !Z */
        x_load_byte(a, X_RAX, HR_CPU, CPU_OFF(nf));
        x_xor_r8m(a, X_RAX, HR_CPU, CPU_OFF(vf));
        x_or_r8m(a, X_RAX, HR_CPU, CPU_OFF(zf));
        cc = CC_E;
        break;
    default: return CC_ALWAYS;
    }
    return (cond & 1) ? cc ^ 1 : cc;
}

static int guest_site(NCtx *x, bool write)
{
    unsigned k = x->n_gsite;
    if (k >= sizeof x->gsite / sizeof x->gsite[0]) {
        x->failed = true;
        return 0;
    }
    x->n_gsite++;
    x->gsite[k].op = x->i;
    x->gsite[k].write = write;
    x->gsite[k].flags_op = x->flags_op;
    ne_dirty_capture(x, &x->gsite[k].dirty);
    x->gsite[k].field = NULL;
    return (int)k;
}

int ne_guest_access(NCtx *x, bool write)
{
    int k = guest_site(x, write);
    x_alu_rm(&x->a, W64, ALU_CMP, X_RAX, HR_CPU, CPU_OFF(guest_end));
    x->gsite[k].field = x_jcc(&x->a, CC_AE);
    return k;
}

int ne_guest_access_unchecked(NCtx *x, bool write)
{
    return guest_site(x, write);
}

void ne_fault_point(NCtx *x, int site)
{
    struct NativeBuf *b = x->buf;
    if (b->n_sites >= b->max_sites) {
        x->failed = true;
        return;
    }
    NativeFaultSite *f = &b->sites[b->n_sites++];
    f->rip = (uintptr_t)x->a.p;
    f->op = &x->tb->ops[x->gsite[site].op];
    f->flags_op = x->gsite[site].flags_op;
    f->n = x->gsite[site].dirty.n;
    memcpy(f->hreg, x->gsite[site].dirty.hreg, sizeof f->hreg);
    memcpy(f->slot, x->gsite[site].dirty.slot, sizeof f->slot);
}

void ne_slow_path(NCtx *x, uint8_t *field, uint8_t *resume)
{
    int k = ne_slow_site(x, field);
    if (k >= 0) {
        x->slow[k].dirty.n = 0; /* written back by the caller */
        ne_slow_resume(x, k, resume);
    }
}

int ne_slow_site(NCtx *x, uint8_t *field)
{
    if (x->n_slow >= sizeof x->slow / sizeof x->slow[0]) {
        x->failed = true;
        return -1;
    }
    unsigned k = x->n_slow++;
    x->slow[k].field = field;
    x->slow[k].resume = NULL;
    x->slow[k].op = x->i;
    x->slow[k].flags_op = x->flags_op;
    x->slow[k].n_ops = 1;
    x->slow[k].n_reload = 0;
    ne_dirty_capture(x, &x->slow[k].dirty);
    return (int)k;
}

void ne_slow_resume(NCtx *x, int site, uint8_t *resume)
{
    if (site >= 0)
        x->slow[site].resume = resume;
}

void ne_slow_ops(NCtx *x, int site, unsigned n)
{
    if (site >= 0)
        x->slow[site].n_ops = n;
}

void ne_slow_reload(NCtx *x, int site, int host, unsigned slot)
{
    if (site < 0)
        return;
    unsigned r = x->slow[site].n_reload;
    if (r >= sizeof x->slow[site].reload_hreg) {
        x->failed = true;
        return;
    }
    x->slow[site].reload_hreg[r] = (uint8_t)host;
    x->slow[site].reload_slot[r] = (uint8_t)slot;
    x->slow[site].n_reload++;
}

/* ---- register cache (native_emit.h) -------------------------------------------------------- */

/* Host registers holding cached guest registers: r8-r11, rsi and rdi are caller-saved (calls
 * are preceded by rc_drop; slow paths save them), rbp/r13/r14/r15 callee-saved; rax stays
 * scratch (rbx the CPUState, r12 the guest window's base).  User mode also caches in rdx and
 * rcx, which emitters use as scratch for some operands: an op that may write them says so
 * before it is compiled (rc_scratch, op_scratch in native_ops.c), which moves their entries
 * out; they come last, so a block fills them only when the others are taken.  System mode
 * keeps rcx/rdx for the soft-TLB probe (which leaves the entry's addend in rcx), so 10
 * registers; the LSE atomics take the host address in rsi, which op_scratch frees for them.
 * User mode caches in r12 too when guest addresses are host addresses (guest_base 0), else r12
 * holds guest_base (NCtx.rc_never). */
#define RC_BIT(r) (1u << (r))
#define RC_HOST_COMMON (RC_BIT(X_R8) | RC_BIT(X_R9) | RC_BIT(X_R10) | RC_BIT(X_R11) | RC_BIT(X_R14) | \
                        RC_BIT(X_R15) | RC_BIT(X_RBP) | RC_BIT(X_RDI) | RC_BIT(X_RSI) | RC_BIT(X_R13))
#ifdef CONFIG_SYSTEM
static const int rc_host[NE_CACHE_REGS] = { X_R8, X_R9, X_R10, X_R11, X_R14, X_R15, X_RBP, X_RDI, X_RSI, X_R13 };
#define RC_HOST_MASK RC_HOST_COMMON
#else
static const int rc_host[NE_CACHE_REGS] = { X_R8, X_R9, X_R10, X_R11, X_R14, X_R15, X_RBP, X_RDI, X_RSI, X_R13,
                                            X_R12, X_RDX, X_RCX };
#define RC_HOST_MASK (RC_HOST_COMMON | RC_BIT(X_R12) | RC_BIT(X_RDX) | RC_BIT(X_RCX))
#endif
_Static_assert(__builtin_popcount(RC_HOST_MASK) == NE_CACHE_REGS, "RC_HOST_MASK: the registers of rc_host");

void rc_reset(NCtx *x)
{
    ne_near_reset(&x->facts);
    for (int i = 0; i < NE_CACHE_REGS; i++)
        x->rc[i].slot = -1;
    memset(x->rc_of, -1, sizeof x->rc_of);
}

static void rc_store(NCtx *x, int i)
{
    x_store(&x->a, W64, HR_CPU, xoff((unsigned)x->rc[i].slot), rc_host[i]);
    x->rc[i].dirty = false;
}

void ne_dirty_capture(const NCtx *x, NeDirty *d)
{
    d->n = 0;
    for (int i = 0; i < NE_CACHE_REGS; i++)
        if (x->rc[i].slot >= 0 && x->rc[i].dirty) {
            d->hreg[d->n] = (uint8_t)rc_host[i];
            d->slot[d->n++] = (uint8_t)x->rc[i].slot;
        }
}

void ne_dirty_store(NCtx *x, const NeDirty *d)
{
    for (unsigned r = 0; r < d->n; r++)
        x_store(&x->a, W64, HR_CPU, xoff(d->slot[r]), d->hreg[r]);
}

void rc_spill(NCtx *x)
{
    for (int i = 0; i < NE_CACHE_REGS; i++)
        if (x->rc[i].slot >= 0 && x->rc[i].dirty)
            rc_store(x, i);
}

void rc_drop(NCtx *x)
{
    rc_spill(x);
    rc_reset(x);
}

void rc_scratch(NCtx *x, uint32_t mask)
{
    x->rc_busy = mask;
    if (!(mask & RC_HOST_MASK)) /* most ops in system mode: rcx/rdx, not cache registers */
        return;
    for (int i = 0; i < NE_CACHE_REGS; i++)
        if ((mask >> rc_host[i] & 1) && x->rc[i].slot >= 0) {
            if (x->rc[i].dirty)
                rc_store(x, i);
            x->rc_of[x->rc[i].slot] = -1;
            x->rc[i].slot = -1;
        }
}

/* Is cache entry i's host register scratch for the op being compiled (op_scratch)?  Such an
 * entry is empty and may not be taken. */
static bool rc_is_scratch(const NCtx *x, int i)
{
    return (x->rc_busy | x->rc_never) >> rc_host[i] & 1;
}

/* Distance in ops from the op being compiled to the next mention of each guest slot (0: the
 * current op), up to the next op that empties the cache (a portable handler's call, a goto)
 * or a horizon; slots not mentioned before it stay RC_FAR.  The first back edge to a loop head
 * goes on at the head, as the next round does. */
#define RC_FAR 255u
#define RC_HORIZON 48u
static void rc_next_uses(const NCtx *x, uint8_t dist[NUM_XREGS])
{
    memset(dist, RC_FAR, NUM_XREGS);
    unsigned want = 0; /* cached slots (outside this op's scratch) whose distance is not known */
    for (int i = 0; i < NE_CACHE_REGS; i++)
        want += x->rc[i].slot >= 0 && !rc_is_scratch(x, i);
    const TB *tb = x->tb;
    bool wrapped = false;
    for (unsigned j = x->i, k = 0; j < tb->n_ops && k < RC_HORIZON && want; j++, k++) {
        const Op *o = &tb->ops[j];
        if (o->fn == op_goto_tb && !wrapped) { /* a loop's back edge: on at its head, once */
            unsigned h = 0;
            while (h < x->n_heads && !(x->head[h].pc == o->imm && x->head[h].first_op <= j))
                h++;
            if (h < x->n_heads) {
                wrapped = true;
                j = x->head[h].first_op;
                o = &tb->ops[j];
            }
        }
        if ((o->fn == op_goto_tb && (j + 1 >= tb->n_ops || tb->ops[j + 1].fn != op_goto_next)) ||
            ((wrapped || j > x->i) && !native_desc(o->fn) && o->fn != op_goto_tb && o->fn != op_goto_next))
            return; /* a side exit's goto (followed by op_goto_next) keeps the cache */
        const uint8_t s[4] = { o->d, o->n, o->m, o->a };
        for (int r = 0; r < 4; r++)
            if (s[r] < NUM_XREGS && dist[s[r]] == RC_FAR) {
                dist[s[r]] = (uint8_t)k;
                int c = x->rc_of[s[r]];
                if (c >= 0 && !rc_is_scratch(x, c))
                    want--;
            }
    }
}

/* A cache entry for slot: a free one, else the one whose guest register is needed latest
 * (clean before dirty, which costs a store, then least recently used); written back if
 * dirty.  Operands of the current op are at distance 0 and so are never taken. */
static int rc_alloc(NCtx *x, unsigned slot)
{
    int best = -1;
    for (int i = 0; i < NE_CACHE_REGS; i++)
        if (x->rc[i].slot < 0 && !rc_is_scratch(x, i)) {
            best = i;
            break;
        }
    if (best < 0) {
        uint8_t dist[NUM_XREGS];
        rc_next_uses(x, dist);
        uint64_t best_key = 0;
        for (int i = 0; i < NE_CACHE_REGS; i++) {
            if (rc_is_scratch(x, i))
                continue;
            uint64_t key = (uint64_t)dist[x->rc[i].slot] << 40 | (uint64_t)!x->rc[i].dirty << 32 |
                           (uint32_t)~x->rc[i].used;
            if (best < 0 || key > best_key) {
                best = i;
                best_key = key;
            }
        }
        if (x->rc[best].dirty)
            rc_store(x, best);
        x->rc_of[x->rc[best].slot] = -1;
    }
    x->rc[best].slot = (int8_t)slot;
    x->rc[best].dirty = false;
    x->rc_of[slot] = (int8_t)best;
    return best;
}

void rc_read(NCtx *x, int host, unsigned slot, int w)
{
    if (slot == REG_ZR) {
        x_alu_rr(&x->a, W32, ALU_XOR, host, host);
        return;
    }
    int i = x->rc_of[slot];
    if (i >= 0) {
        x->rc[i].used = ++x->rc_clock;
        x_mov_rr(&x->a, w, host, rc_host[i]);
        return;
    }
    x_load(&x->a, w, host, HR_CPU, xoff(slot));
    if (w == W64 && !x->rc_frozen) { /* keep full values only */
        i = rc_alloc(x, slot);
        x->rc[i].used = ++x->rc_clock;
        x_mov_rr(&x->a, W64, rc_host[i], host);
    }
}

void rc_write(NCtx *x, unsigned slot, int host)
{
    ne_near_forget(x, slot);
    if (slot == REG_SINK)
        return; /* writes to XZR: never read */
    int i = x->rc_of[slot];
    if (i < 0) {
        if (x->rc_frozen) {
            x_store(&x->a, W64, HR_CPU, xoff(slot), host);
            return;
        }
        i = rc_alloc(x, slot);
    }
    x->rc[i].used = ++x->rc_clock;
    x->rc[i].dirty = true;
    x_mov_rr(&x->a, W64, rc_host[i], host);
}

int rc_src(NCtx *x, unsigned slot, int scratch)
{
    if (slot == REG_ZR) {
        x_alu_rr(&x->a, W32, ALU_XOR, scratch, scratch);
        return scratch;
    }
    int i = x->rc_of[slot];
    if (i < 0) {
        if (x->rc_frozen) {
            x_load(&x->a, W64, scratch, HR_CPU, xoff(slot));
            return scratch;
        }
        i = rc_alloc(x, slot);
        x_load(&x->a, W64, rc_host[i], HR_CPU, xoff(slot));
    }
    x->rc[i].used = ++x->rc_clock;
    return rc_host[i];
}

int rc_claim(NCtx *x, unsigned slot)
{
    ne_near_forget(x, slot);
    int i = x->rc_of[slot];
    if (i < 0)
        i = rc_alloc(x, slot);
    x->rc[i].used = ++x->rc_clock;
    return rc_host[i];
}

void rc_set_dirty(NCtx *x, unsigned slot)
{
    ne_near_forget(x, slot);
    x->rc[x->rc_of[slot]].dirty = true;
}

int rc_dst(NCtx *x, unsigned slot)
{
    ne_near_forget(x, slot);
    int i = x->rc_of[slot];
    if (i < 0)
        i = rc_alloc(x, slot);
    x->rc[i].used = ++x->rc_clock;
    x->rc[i].dirty = true;
    return rc_host[i];
}

void rc_write_mem(NCtx *x, unsigned slot, int host)
{
    ne_near_forget(x, slot);
    int i = x->rc_of[slot];
    if (i >= 0) {
        x->rc[i].slot = -1;
        x->rc_of[slot] = -1;
    }
    if (slot != REG_SINK)
        x_store(&x->a, W64, HR_CPU, xoff(slot), host);
}

/* ---- loops within a block ------------------------------------------------------------------ */

/* Does the block branch directly to its own start (a loop whose body is the block)? */
static bool block_loops(const TB *tb)
{
    for (unsigned i = 0; i < tb->n_ops; i++)
        if (tb->ops[i].fn == op_goto_tb && tb->ops[i].imm == tb->pc)
            return true;
    return false;
}

/* The compile-time cache: h's canonical state. */
static void loop_head_state(NCtx *x, const struct NeLoopHead *h)
{
    rc_reset(x);
    for (int k = 0; k < NE_CACHE_REGS; k++) {
        int8_t slot = h->slot[k];
        if (slot < 0)
            continue;
        x->rc[k].slot = slot;
        x->rc[k].dirty = h->dirty[k];
        x->rc[k].used = 0;
        x->rc_of[slot] = (int8_t)k;
    }
}

/* Entry code: the block start's canonical state, loaded from CPUState. */
static void loop_enter(NCtx *x, struct NeLoopHead *h)
{
    for (int k = 0; k < NE_CACHE_REGS; k++)
        if (h->slot[k] >= 0)
            x_load(&x->a, W64, rc_host[k], HR_CPU, xoff((unsigned)h->slot[k]));
    loop_head_state(x, h);
}

static void loop_reconcile(NCtx *x, const struct NeLoopHead *h);

/* A stale_copy as a fault site's flags_op: bit 0 says to run it only when loop_nzcv_stale is
 * set (native_flags_again). */
static const Op *stale_tag(const Op *copy)
{
    return copy ? (const Op *)((uintptr_t)copy | 1) : NULL;
}

/* Head h's label here, reached from above (the block's entry, or the code before an
 * op_loop_head) with NZCV in CPUState: the stale byte says so; the head's accesses up to the
 * next flag setter carry its tagged copy (a data abort or soft-TLB miss runs it when a stale
 * back edge came round). */
static void loop_label(NCtx *x, struct NeLoopHead *h)
{
    if (h->stale_copy)
        x_store_imm8(&x->a, HR_CPU, CPU_OFF(loop_nzcv_stale), 0);
    h->label = x->a.p;
    x->flags_op = stale_tag(h->stale_op);
    if (x->near_heads)
        ne_near_at_label(x, h); /* what every way in brings */
    else
        ne_near_reset(&x->facts);
}

/* The code before an op_loop_head label arrives in its canonical state, with NZCV in CPUState
 * (flags_needed stores them before a label), as its back edges do. */
static void loop_head_arrive(NCtx *x, struct NeLoopHead *h)
{
    if (x->near_heads)
        ne_near_way_in(x, h);
    loop_reconcile(x, h);
    loop_head_state(x, h);
    x->live_next = ~0u;
    x->pending_fl = -1;
    loop_label(x, h);
}

/* Bring the cache to the loop head's canonical state: store the dirty registers that are not
 * canonical or canonically clean, move the canonical ones held in another cache register into
 * place (a parallel move: a move waits until its destination's old value has been moved out;
 * a cycle goes through rax), then load the canonical ones not cached.  Emits code only; the
 * compile-time cache state is left as it was. */
static void loop_reconcile(NCtx *x, const struct NeLoopHead *h)
{
    Asm *a = &x->a;
    int src[NE_CACHE_REGS];     /* host register moved into canonical register k, -1 none */
    bool load[NE_CACHE_REGS];   /* canonical register k loaded from CPUState */
    for (int i = 0; i < NE_CACHE_REGS; i++) {
        int8_t slot = x->rc[i].slot;
        if (slot < 0 || !x->rc[i].dirty)
            continue;
        int k = 0;
        while (k < NE_CACHE_REGS && h->slot[k] != slot)
            k++;
        if (k == NE_CACHE_REGS || !h->dirty[k])
            rc_store(x, i);
    }
    for (int k = 0; k < NE_CACHE_REGS; k++) {
        int8_t slot = h->slot[k];
        int j = slot >= 0 ? x->rc_of[slot] : -1;
        src[k] = j >= 0 && j != k ? rc_host[j] : -1;
        load[k] = slot >= 0 && j < 0;
    }
    for (int pending = 1; pending;) {
        pending = 0;
        bool progress = false;
        for (int k = 0; k < NE_CACHE_REGS; k++) {
            if (src[k] < 0)
                continue;
            bool busy = false; /* k's old value is still to be moved elsewhere */
            for (int m = 0; m < NE_CACHE_REGS; m++)
                busy |= src[m] == rc_host[k];
            if (busy) {
                pending++;
                continue;
            }
            x_mov_rr(a, W64, rc_host[k], src[k]);
            src[k] = -1;
            progress = true;
        }
        if (pending && !progress) { /* only cycles left: free one register through rax */
            int k = 0;
            while (src[k] < 0)
                k++;
            x_mov_rr(a, W64, X_RAX, rc_host[k]);
            for (int m = 0; m < NE_CACHE_REGS; m++)
                if (src[m] == rc_host[k])
                    src[m] = X_RAX;
        }
    }
    for (int k = 0; k < NE_CACHE_REGS; k++)
        if (load[k])
            x_load(a, W64, rc_host[k], HR_CPU, xoff((unsigned)h->slot[k]));
}

/* A branch to loop head h: bring the cache to its canonical state (loop_reconcile),
 * then do what leaving and re-entering the block would do at that point: leave if exit_request
 * is set (interrupts, code invalidation, single step, stop requests) or, when the quantum is
 * checked, once insn_count reached insn_limit; count the block's instructions; go round.  The
 * path ends here, so the cache state of the code after it (the branch's other side) is the one
 * before. */
static void loop_back_edge(NCtx *x, struct NeLoopHead *h, unsigned uncount)
{
    Asm *a = &x->a;
    if (h->n_exit + 2 > sizeof h->exit / sizeof h->exit[0]) {
        x->failed = true;
        return;
    }
    if (x->near_heads)
        ne_near_way_in(x, h);
    if (!h->seen_set) {
        for (int i = 0; i < NE_CACHE_REGS; i++) {
            h->seen[i] = x->rc[i].slot;
            h->seen_dirty[i] = x->rc[i].slot >= 0 && x->rc[i].dirty;
        }
        h->seen_set = true;
    }
    struct { int8_t slot; bool dirty; uint32_t used; } saved[NE_CACHE_REGS];
    memcpy(saved, x->rc, sizeof saved);
    if (h->stale_copy && !x->stale_taken) /* another back edge: NZCV are in CPUState */
        x_store_imm8(a, HR_CPU, CPU_OFF(loop_nzcv_stale), 0);
    loop_reconcile(x, h);
    memcpy(x->rc, saved, sizeof saved); /* rc_store cleared dirty bits of the other path */
    /* A back edge before the block's end: the instructions after it did not run, so going
     * round counts the block from the head less those (one add); leaving takes them back out
     * (out of line, after the jump round: the exit code expects the count of a block not yet
     * entered). */
    bool count = insn_counted();
    uint8_t *leave[2];
    unsigned n_leave = 0;
    x_alu_mi(a, W32, ALU_CMP, HR_CPU, CPU_OFF(exit_request), 0);
    leave[n_leave++] = x_jcc(a, CC_NE);
    if (insn_limit_check) {
        insn_count_into(a, X_RAX);
        if (uncount)
            x_alu_ri(a, W64, ALU_SUB, X_RAX, (int32_t)uncount);
        x_alu_rm(a, W64, ALU_CMP, X_RAX, HR_CPU, CPU_OFF(insn_limit));
        leave[n_leave++] = x_jcc(a, CC_AE);
    }
    if (count)
        insn_count_add(a, (int32_t)(x->tb->n_insns - h->insns_before - uncount));
    x_patch(x_jmp(a), h->label);
    if (uncount && count) {
        for (unsigned k = 0; k < n_leave; k++)
            x_patch(leave[k], a->p);
        insn_count_add(a, -(int32_t)uncount);
        h->exit[h->n_exit++] = x_jmp(a);
    } else {
        for (unsigned k = 0; k < n_leave; k++)
            h->exit[h->n_exit++] = leave[k];
    }
}

/* A branch the block continues through: leave as its block boundary would when exit_request is
 * set (out of line, with the dirty registers of this point written back); else go on. */
static void emit_through(NCtx *x, const Op *o)
{
    unsigned k = x->n_through;
    if (k >= sizeof x->through / sizeof x->through[0]) {
        x->failed = true;
        return;
    }
    x->n_through++;
    x->through[k].op = x->i;
    ne_dirty_capture(x, &x->through[k].dirty);
    (void)o;
    x_alu_mi(&x->a, W32, ALU_CMP, HR_CPU, CPU_OFF(exit_request), 0);
    x->through[k].field = x_jcc(&x->a, CC_NE);
}

static void emit_through_exits(NCtx *x, struct NativeBuf *b)
{
    Asm *a = &x->a;
    for (unsigned k = 0; k < x->n_through; k++) {
        const Op *o = &x->tb->ops[x->through[k].op];
        x_patch(x->through[k].field, a->p);
        ne_dirty_store(x, &x->through[k].dirty);
        if (insn_counted())
            insn_count_add(a, -(int32_t)o->x);
        x_mov_imm(a, X_RCX, o->imm);
        x_store(a, W64, HR_CPU, CPU_OFF(pc), X_RCX);
        x_alu_rr(a, W32, ALU_XOR, X_RAX, X_RAX);
        x_patch(x_jmp(a), b->epilogue);
    }
}

/* The back edges' exits of each head, in its canonical state: write back its dirty
 * registers, leave with c->pc = the head. */
static void emit_loop_exits(NCtx *x, struct NativeBuf *b)
{
    Asm *a = &x->a;
    for (unsigned n = 0; n < x->n_heads; n++) {
        const struct NeLoopHead *h = &x->head[n];
        if (!h->n_exit)
            continue;
        for (unsigned k = 0; k < h->n_exit; k++)
            x_patch(h->exit[k], a->p);
        for (int k = 0; k < NE_CACHE_REGS; k++)
            if (h->slot[k] >= 0 && h->dirty[k])
                x_store(a, W64, HR_CPU, xoff((unsigned)h->slot[k]), rc_host[k]);
        if (h->stale_copy) { /* left out by ne_loop_stale_edge's back edge */
            x_cmp_m8i(a, HR_CPU, CPU_OFF(loop_nzcv_stale), 0);
            uint8_t *stored = x_jcc(a, CC_E);
            x_mov_rr(a, W64, X_RDI, HR_CPU);
            x_mov_imm(a, X_RSI, (uint64_t)(uintptr_t)h->stale_op);
            ne_call(x, (const void *)h->stale_op->fn);
            x_patch(stored, a->p);
        }
        x_mov_imm(a, X_RCX, h->pc);
        x_store(a, W64, HR_CPU, CPU_OFF(pc), X_RCX);
        x_alu_rr(a, W32, ALU_XOR, X_RAX, X_RAX);
        x_patch(x_jmp(a), b->epilogue);
    }
}

/* ---- the block compiler ------------------------------------------------------------------- */

static bool emit_handler_call(NCtx *x, unsigned i);

/* A portable op is the block's end when only the goto ops of its own instruction follow. */
static bool op_is_terminal(const TB *tb, unsigned i)
{
    for (unsigned j = i + 1; j < tb->n_ops; j++)
        if (tb->ops[j].fn != op_goto_tb || tb->ops[j].pc != tb->ops[i].pc)
            return false;
    return true;
}

/* Call the portable handler of op i.  Returns ops consumed, 0 when out of data space. */
static unsigned emit_fallback(NCtx *x, struct NativeBuf *b)
{
    const TB *tb = x->tb;
    unsigned i = x->i;
    Asm *a = &x->a;
    if (!op_is_terminal(tb, i)) {
        if (!emit_handler_call(x, i))
            return 0;
        x_test_rr(a, W64, X_RAX, X_RAX); /* NULL: the handler left the block */
        ne_exit0_if(x, CC_E);
        return 1;
    }
    /* The block's ending ops run portably, their gotos leaving to the dispatcher. */
    rc_drop(x);
    unsigned n = tb->n_ops - i;
    Op *copy = data_alloc(b, n);
    if (!copy)
        return 0;
    for (unsigned j = 0; j < n; j++) {
        copy[j] = tb->ops[i + j];
        if (copy[j].fn == op_goto_tb)
            copy[j].fn = op_native_goto_exit;
    }
    x_mov_rr(a, W64, X_RDI, HR_CPU);
    x_mov_imm(a, X_RSI, (uint64_t)(uintptr_t)copy);
    ne_call(x, native_run_ops);
    ne_exit0_if(x, CC_ALWAYS);
    return n;
}

Op *ne_op_copy(NCtx *x, unsigned i)
{
    Op *copy = data_alloc(x->buf, 2);
    if (copy) {
        copy[0] = x->tb->ops[i];
        copy[1] = (Op){ .fn = op_native_return, .pc = x->tb->ops[i].pc };
    }
    return copy;
}

/* Code calling op i's portable handler (through a copy followed by the return op), the
 * register cache written back and emptied first; false when out of data space. */
static bool emit_handler_call(NCtx *x, unsigned i)
{
    rc_drop(x);
    const Op *copy = ne_op_copy(x, i);
    if (!copy)
        return false;
    x_mov_rr(&x->a, W64, X_RDI, HR_CPU);
    x_mov_imm(&x->a, X_RSI, (uint64_t)(uintptr_t)copy);
    ne_call(x, (const void *)copy[0].fn);
    return true;
}

#ifdef CONFIG_SYSTEM
/* A direct branch into another page (system mode), chained with a guard: the page's mapping
 * may change under the block, so the chained jump is taken only while the target block is
 * the one at the target address in the current translation regime, what sys_tb_find
 * accepts: the block still has the target's address (a dropped block's is DEAD_PC), the soft
 * TLB has an execute entry for the target's page mapping it to the block's physical page, and
 * the CPU state is the block's.  Else the lookup stub.  Those checks run only when the vCPU's
 * chain_epoch moved since they last passed for this branch (a TLB flush or a block dropped:
 * sys_cpu.h); in between, the guard is one compare.  A soft-TLB entry evicted meanwhile does
 * not matter: without a TLBI the guest may not rely on fetching through a changed mapping,
 * and the CPU state of a block never changes (it leaves when the state does).
 * Unchained, the branch leaves with a tagged pointer to its CrossChain record, which
 * native_chain fills in (the block, the guard's jump, then the branch into the guard). */
typedef struct CrossChain {
    TB *tb;
    uint8_t *final_field; /* the guard's jump to tb's code */
    uint8_t *entry_field; /* the branch site's jump: exit stub, then the guard */
    uint8_t *guard;
    uint64_t epoch;       /* the chain_epoch the checks last passed in; ~0: not yet */
} CrossChain;
#define CROSS_SLOTS ((sizeof(CrossChain) + sizeof(Op) - 1) / sizeof(Op)) /* it lives in op slots */
#define CROSS_TAG (1ull << 63)

static bool emit_cross_page(NCtx *x, struct NativeBuf *b, unsigned g, uint8_t *join)
{
    Asm *a = &x->a;
    uint64_t target = x->gotos[g].target;
    CrossChain *r = (CrossChain *)(void *)data_alloc(b, CROSS_SLOTS);
    if (!r) {
        x->failed = true;
        return false;
    }
    r->tb = NULL;
    r->epoch = ~0ull;
    r->entry_field = x->gotos[g].chain_field;
    /* first: leave, asking the dispatcher to chain */
    x_patch(x->gotos[g].chain_field, a->p);
    x_mov_imm(a, X_RCX, target);
    x_store(a, W64, HR_CPU, CPU_OFF(pc), X_RCX);
    x_mov_imm(a, X_RAX, (uint64_t)(uintptr_t)r | CROSS_TAG);
    x_patch(x_jmp(a), b->epilogue);
    /* the guard (every cached register is written back: rax..rdi are free) */
    const int32_t epoch = (int32_t)offsetof(SysCPU, chain_epoch), r_epoch = (int32_t)offsetof(CrossChain, epoch);
    r->guard = a->p;
    x_load(a, W64, X_RAX, HR_CPU, epoch);
    x_mov_imm(a, X_RDX, (uint64_t)(uintptr_t)r);
    x_alu_rm(a, W64, ALU_CMP, X_RAX, X_RDX, r_epoch);
    uint8_t *check = x_jcc(a, CC_NE);
    uint8_t *final = a->p;
    r->final_field = x_jmp(a);
    /* the checks, once per epoch */
    x_patch(check, a->p);
    uint8_t *miss[4];
    int32_t e = (int32_t)(((target >> 12) & (SYS_TLB_SIZE - 1)) * sizeof(SysTlbEntry));
    x_load(a, W64, X_RDI, X_RDX, (int32_t)offsetof(CrossChain, tb));
    x_mov_imm(a, X_RCX, target);
    x_alu_rm(a, W64, ALU_CMP, X_RCX, X_RDI, (int32_t)offsetof(TB, pc));
    miss[0] = x_jcc(a, CC_NE);
    x_load(a, W64, X_RCX, HR_CPU, (int32_t)offsetof(SysCPU, tlb));
    x_mov_imm(a, X_RSI, target & ~0xfffull);
    x_alu_rm(a, W64, ALU_CMP, X_RSI, X_RCX, e + (int32_t)offsetof(SysTlbEntry, tag_x));
    miss[1] = x_jcc(a, CC_NE);
    x_load(a, W64, X_RSI, X_RCX, e + (int32_t)offsetof(SysTlbEntry, pa));
    x_alu_rm(a, W64, ALU_XOR, X_RSI, X_RDI, (int32_t)offsetof(TB, phys));
    x_shift_ri(a, W64, SH_SHR, X_RSI, 12);
    miss[2] = x_jcc(a, CC_NE);
    x_load(a, W32, X_RSI, HR_CPU, (int32_t)offsetof(SysCPU, tb_flags));
    x_alu_rm(a, W32, ALU_CMP, X_RSI, X_RDI, (int32_t)offsetof(TB, flags));
    miss[3] = x_jcc(a, CC_NE);
    x_store(a, W64, X_RDX, r_epoch, X_RAX);
    x_patch(x_jmp(a), final);
    for (unsigned k = 0; k < 4; k++)
        x_patch(miss[k], a->p);
    x_mov_imm(a, X_RCX, target);
    x_store(a, W64, HR_CPU, CPU_OFF(pc), X_RCX);
    x_patch(x_jmp(a), b->lookup);
    /* exit_request set: leave */
    x_patch(join, a->p);
    x_mov_imm(a, X_RCX, target);
    x_store(a, W64, HR_CPU, CPU_OFF(pc), X_RCX);
    x_patch(x_jmp(a), b->epilogue);
    return true;
}
#endif

/* A goto that left NZCV in EFLAGS (goto_tail_flags), unchained.  native_chain chains a target
 * block that does not need them (TB.nzcv_dead_in) at direct, then points the jrcxz (rel8) at
 * that jmp past the stores; else it chains their jmp, stores. */
typedef struct FlagsChain {
    uint8_t *jrcxz, *direct, *stores;
} FlagsChain;
_Static_assert(sizeof(FlagsChain) <= sizeof(Op), "FlagsChain lives in an op slot");
#define FLAGS_TAG (1ull << 62)

/* Out-of-line tails: slow paths, goto exits, the exit0 and data-abort stubs. */
static void emit_stubs(NCtx *x, struct NativeBuf *b)
{
    Asm *a = &x->a;
    if (x->n_entry_fail) { /* leave before the block ran: c->near_failed = this block */
        for (unsigned k = 0; k < x->n_entry_fail; k++)
            x_patch(x->entry_fail[k], a->p);
        x_mov_imm(a, X_RCX, (uint64_t)(uintptr_t)x->tb);
        x_store(a, W64, HR_CPU, CPU_OFF(near_failed), X_RCX);
        x_mov_imm(a, X_RCX, x->tb->pc);
        x_store(a, W64, HR_CPU, CPU_OFF(pc), X_RCX);
        x_alu_rr(a, W32, ALU_XOR, X_RAX, X_RAX);
        x_patch(x_jmp(a), b->epilogue);
    }
    emit_return_points(x);
    emit_side_exits(x); /* before the gotos: they add to them */
    for (unsigned k = 0; k < x->n_slow; k++) {
        x_patch(x->slow[k].field, a->p);
        ne_dirty_store(x, &x->slow[k].dirty); /* the handler reads CPUState */
        for (unsigned j = 0; j < x->slow[k].n_ops; j++) {
            Op *copy = ne_op_copy(x, x->slow[k].op + j);
            if (!copy) {
                x->failed = true;
                return;
            }
            /* native_slow_call: the flags copy before the first (the ops leave NZCV alone) */
            copy[1].imm = j ? 0 : (uint64_t)(uintptr_t)x->slow[k].flags_op;
            x_mov_imm(a, X_RAX, (uint64_t)(uintptr_t)copy);
            x_patch(x_call(a), b->slow_call);
        }
        for (unsigned r = 0; r < x->slow[k].n_reload; r++) /* after the saved registers' pops */
            x_load(a, W64, x->slow[k].reload_hreg[r], HR_CPU, xoff(x->slow[k].reload_slot[r]));
        x_patch(x_jmp(a), x->slow[k].resume);
    }
    for (unsigned g = 0; g < x->n_gotos; g++) {
        x_patch(x->gotos[g].exit_field, a->p);
        x_alu_rr(a, W32, ALU_XOR, X_RAX, X_RAX);
        uint8_t *join = x_jmp(a);
        uint64_t unchained = (uint64_t)(uintptr_t)x->gotos[g].chain_field; /* what native_chain gets */
        if (x->gotos[g].flags_field) { /* left through the flags' stores */
            FlagsChain *r = (FlagsChain *)(void *)data_alloc(b, 1);
            if (!r) {
                x->failed = true;
                return;
            }
            *r = (FlagsChain){ .jrcxz = x->gotos[g].jrcxz_field, .direct = x->gotos[g].chain_field,
                               .stores = x->gotos[g].flags_field };
            x_patch(x->gotos[g].flags_field, a->p);
            unchained = (uint64_t)(uintptr_t)r | FLAGS_TAG;
        }
        x_patch(x->gotos[g].chain_field, a->p);
#ifdef CONFIG_SYSTEM
        if (!x->gotos[g].chainable) { /* another page */
            if (!emit_cross_page(x, b, g, join))
                return;
            continue;
        }
#endif
        if (x->gotos[g].chainable)
            x_mov_imm(a, X_RAX, unchained);
        else
            x_alu_rr(a, W32, ALU_XOR, X_RAX, X_RAX);
        x_patch(join, a->p);
        x_mov_imm(a, X_RCX, x->gotos[g].target);
        x_store(a, W64, HR_CPU, CPU_OFF(pc), X_RCX);
        x_patch(x_jmp(a), b->epilogue);
    }
    if (x->n_exit0) {
        for (unsigned k = 0; k < x->n_exit0; k++)
            x_patch(x->exit0[k], a->p);
        x_alu_rr(a, W32, ALU_XOR, X_RAX, X_RAX);
        x_patch(x_jmp(a), b->epilogue);
    }
    for (unsigned k = 0; k < x->n_gsite; k++) { /* outside the guest window: data abort */
        if (!x->gsite[k].field)
            continue; /* unchecked (ne_guest_access_unchecked) */
        x_patch(x->gsite[k].field, a->p);
        ne_dirty_store(x, &x->gsite[k].dirty);
        x_mov_rr(a, W64, X_RDI, HR_CPU);
        x_mov_rr(a, W64, X_RSI, X_RAX);
        x_mov_imm(a, X_RDX, (uint64_t)(uintptr_t)&x->tb->ops[x->gsite[k].op]);
        x_mov_imm(a, X_RCX, x->gsite[k].write);
        x_mov_imm(a, X_R8, (uint64_t)(uintptr_t)x->gsite[k].flags_op);
        ne_call(x, native_data_abort);
    }
    emit_loop_exits(x, b);
    emit_through_exits(x, b);
}

/* MALIBU_PERF_MAP=1: name each block's host code in /tmp/perf-<pid>.map (the format perf reads
 * for JIT code), so `perf report` shows guest_<pc> instead of bare addresses. */
static FILE *perf_map;
/* MALIBU_NATIVE_DUMP, read once (not per block: getenv scans the environment) */
static const char *native_dump_dir;

static void profiling_open(void) /* MALIBU_PERF_MAP, MALIBU_NATIVE_DUMP */
{
    const char *d = getenv("MALIBU_NATIVE_DUMP");
    native_dump_dir = d && *d ? d : NULL;
    const char *e = getenv("MALIBU_PERF_MAP");
    if (!e || !*e || !strcmp(e, "0"))
        return;
    char path[64];
    snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
    perf_map = fopen(path, "w");
}

static void perf_map_add(const uint8_t *start, const uint8_t *end, const TB *tb)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, profiling_open);
    if (perf_map) {
        fprintf(perf_map, "%lx %lx guest_%llx\n", (unsigned long)(uintptr_t)start,
                (unsigned long)(end - start), (unsigned long long)tb->pc);
        fflush(perf_map);
    }
    /* MALIBU_NATIVE_DUMP=DIR: each block's host code in DIR/<pc>.bin (objdump -b binary
     * -m i386:x86-64 -D), to read what the hot blocks of a profile became. */
    if (native_dump_dir) {
        char path[512];
        snprintf(path, sizeof path, "%s/%llx.bin", native_dump_dir, (unsigned long long)tb->pc);
        FILE *f = fopen(path, "wb");
        if (f) {
            fwrite(start, 1, (size_t)(end - start), f);
            fclose(f);
        }
    }
}

/* One compile of tb at the buffer's free position; false when it did not fit. */
static bool compile_once(NCtx *x, CPUState *c, TB *tb, bool loops, uint8_t *at)
{
    struct NativeBuf *b = c->tbc->nbuf;
    /* Reset only the counters and the goto table: the big fixup tables are written before
     * they are read. */
    x->n_gotos = x->n_rets = x->n_exit0 = x->n_gsite = x->n_slow = x->n_through = x->n_side = 0;
    x->failed = false;
    x->rc_frozen = false;
    x->rc_busy = 0;
#ifdef CONFIG_SYSTEM
    x->rc_never = 0;
#else
    x->rc_never = c->guest_base ? RC_BIT(HR_GUEST_BASE) : 0;
#endif
    x->rc_clock = 0;
    x->live_next = ~0u;
    x->pending_fl = -1;
    x->flags_op = NULL;
    x->a = x_asm(at, b->code + b->size);
    x->c = c;
    x->tb = tb;
    x->buf = b;
    x->stale_taken = false;
    rc_reset(x);
    size_t data_mark = b->data_used, sites_mark = b->n_sites;
    for (unsigned k = 0; k < x->n_heads; k++) {
        struct NeLoopHead *h = &x->head[k];
        h->label = NULL;
        h->seen_set = false;
        h->n_exit = 0;
        h->stale_copy = h->stale_edge >= 0 ? ne_flags_copy(x, (unsigned)h->stale_edge, 0) : NULL;
        h->stale_adj_copy = h->stale_copy && h->stale_adj ? ne_flags_copy(x, (unsigned)h->stale_edge, h->stale_adj) : NULL;
        if (h->stale_adj && !h->stale_adj_copy)
            h->stale_copy = NULL;
        h->stale_copy2 = h->stale_copy && !h->stale_adj && h->stale_edge2 >= 0
                             ? ne_flags_copy(x, (unsigned)h->stale_edge2, 0) : NULL;
        h->stale_op = h->stale_copy2 ? ne_flags_select(x, h->stale_copy, h->stale_copy2) : NULL;
        if (!h->stale_op) /* one edge (or no data space for the selector) */
            h->stale_copy2 = NULL, h->stale_op = h->stale_copy;
    }

    if (insn_limit_check) {
        /* Quantum used up: leave before the block with pc = its address (chained and looked-up
         * entries come here without c->pc set). */
        insn_count_into(&x->a, X_RAX);
        x_alu_rm(&x->a, W64, ALU_CMP, X_RAX, HR_CPU, CPU_OFF(insn_limit));
        uint8_t *go = x_jcc(&x->a, CC_B);
        x_mov_imm(&x->a, X_RCX, tb->pc);
        x_store(&x->a, W64, HR_CPU, CPU_OFF(pc), X_RCX);
        x_alu_rr(&x->a, W32, ALU_XOR, X_RAX, X_RAX);
        x_patch(x_jmp(&x->a), b->epilogue);
        x_patch(go, x->a.p);
    }
    /* The facts head[0] assumes, checked before the block counts itself: a failure leaves, for
     * the block to be compiled without them (native_drop_head_facts). */
    x->n_entry_fail = 0;
    x->i = 0; /* the cache's next-use scans of the cached entry checks */
    const unsigned max_fail = sizeof x->entry_fail / sizeof x->entry_fail[0];
    NeFacts loaded = { 0 }; /* a looping block's: the plain near facts of registers its head loads */
    if (loops && x->near_heads && x->head[0].facts_set) {
        NeFacts before = x->head[0].facts;
        for (int k = 0; k < NE_CACHE_REGS; k++) {
            int8_t r = x->head[0].slot[k];
            if (r >= 0 && r <= REG_SP && (before.near >> r & 1) && !(before.narrow >> r & 1) && !before.lo[r] &&
                !before.hi[r])
                loaded.near |= 1ull << r;
        }
        before.near &= ~loaded.near;
        x->n_entry_fail = ne_near_entry_checks(x, &before, 0, x->entry_fail, max_fail);
    } else if (!loops && x->near_heads && x->entry.near) { /* into the cache registers they go */
        x->n_entry_fail = ne_near_entry_checks(x, &x->entry, ~0ull, x->entry_fail, max_fail);
    }
    /* In user mode the count is a read-modify-write of one memory word in every block, a
     * dependency chain through memory from block to block (6 % of python's time): only when
     * read. */
    if (insn_counted())
        insn_count_add(&x->a, (int32_t)tb->n_insns);
    if (loops) {
        loop_enter(x, &x->head[0]);
        if (loaded.near) /* from the registers just loaded: no second read of CPUState */
            x->n_entry_fail += ne_near_entry_checks(x, &loaded, ~0ull, x->entry_fail + x->n_entry_fail,
                                                    max_fail - x->n_entry_fail);
        loop_label(x, &x->head[0]);
    } else if (x->near_heads) {
        x->facts = x->entry;
    }
    for (unsigned i = 0; i < tb->n_ops && !x->failed;) {
        x->i = i;
        const Op *o = &tb->ops[i];
        for (unsigned k = 0; k < x->n_heads; k++) {
            const struct NeLoopHead *h = &x->head[k];
            if (h->stale_adj_copy && i > h->stale_adj_op && x->flags_op == stale_tag(h->stale_copy))
                x->flags_op = stale_tag(h->stale_adj_copy); /* Xn went up by adj */
        }
        if (o->fn == op_goto_through) {
            if (ne_through_needed(tb, i))
                emit_through(x, o);
            i++;
            continue;
        }
        if (o->fn == op_loop_head) {
            for (unsigned k = 0; k < x->n_heads; k++)
                if (x->head[k].pc == o->imm) /* not the start: translate.c puts none there */
                    loop_head_arrive(x, &x->head[k]);
            i++;
            continue;
        }
        const NativeDesc *d = native_desc(o->fn);
        NeNearPre pre = x->facts_on ? ne_near_pre(x, o) : (NeNearPre){ 0 };
        unsigned used = d ? ne_emit_op(x, o, d) : 0;
        if (used == 1 && x->facts_on)
            ne_near_after_op(x, o, d, &pre);
        if (used == 1 && x->live_next == i && ne_keeps_eflags(o, d))
            x->live_next = i + 1; /* EFLAGS still hold the flags for the op after it */
        if (!used)
            used = emit_fallback(x, b);
        if (!used) {
            x->failed = true;
            break;
        }
        i += used;
    }
    x_b(&x->a, 0x0F); /* ud2: every block ends in a jump; never reached */
    x_b(&x->a, 0x0B);
    emit_stubs(x, b);
    if (x->failed || x->a.overflow) {
        b->data_used = data_mark;
        b->n_sites = sites_mark;
        return false;
    }
    return true;
}

#define LOOP_ROUNDS 3

/* Did a head's first back edge see another cache state than the head was compiled with? */
static bool loop_heads_moved(const NCtx *x)
{
    for (unsigned k = 0; k < x->n_heads; k++) {
        const struct NeLoopHead *h = &x->head[k];
        if (h->seen_set && (memcmp(h->slot, h->seen, sizeof h->slot) || memcmp(h->dirty, h->seen_dirty, sizeof h->dirty)))
            return true;
    }
    return false;
}

/* Rounds of compiling a block with loop heads until their states hold: the cache at the first
 * back edge (so that going round moves nothing, LOOP_ROUNDS at most), the value facts each way
 * in brings (native_near.c; when they do not settle, the heads assume none). */
#define NEAR_ROUNDS 6
static bool compile_converged(NCtx *x, CPUState *c, TB *tb, bool loops, uint8_t *at)
{
    struct NativeBuf *b = c->tbc->nbuf;
    size_t data_mark = b->data_used, sites_mark = b->n_sites;
    ne_near_heads_init(x, tb, loops);
    if (!compile_once(x, c, tb, loops, at))
        return false;
    for (int round = 0; round < LOOP_ROUNDS + NEAR_ROUNDS; round++) {
        bool moved = round < LOOP_ROUNDS && loop_heads_moved(x);
        bool facts = ne_near_heads_update(x);
        if (!moved && !facts)
            return true;
        for (unsigned k = 0; moved && k < x->n_heads; k++) {
            struct NeLoopHead *h = &x->head[k];
            if (h->seen_set) {
                memcpy(h->slot, h->seen, sizeof h->slot);
                memcpy(h->dirty, h->seen_dirty, sizeof h->dirty);
            }
        }
        b->data_used = data_mark;
        b->n_sites = sites_mark;
        if (!compile_once(x, c, tb, loops, at))
            return false;
    }
    if (!ne_near_heads_update(x))
        return true;
    x->near_heads = false; /* the facts did not settle: none at the heads */
    ne_near_heads_init(x, tb, loops);
    b->data_used = data_mark;
    b->n_sites = sites_mark;
    return compile_once(x, c, tb, loops, at);
}

bool native_compile(CPUState *c, TB *tb)
{
    struct NativeBuf *b = c->tbc->nbuf;
    static __thread NCtx ctx;
    NCtx *x = &ctx;
    uint8_t *start = b->code + b->used;
    bool loops = block_loops(tb);
    x->n_heads = 0;
    if (loops)
        x->head[x->n_heads++] = (struct NeLoopHead){ .pc = tb->pc };
    for (unsigned i = 0; i < tb->n_ops; i++)
        if (tb->ops[i].fn == op_loop_head && x->n_heads < NE_MAX_HEADS)
            x->head[x->n_heads++] = (struct NeLoopHead){ .pc = tb->ops[i].imm, .insns_before = tb->ops[i].x,
                                                         .first_op = i + 1 };
    for (unsigned k = 0; k < x->n_heads; k++) {
        struct NeLoopHead *h = &x->head[k];
        memset(h->slot, -1, sizeof h->slot);
        memset(h->dirty, 0, sizeof h->dirty);
        h->stale_edge = ne_loop_stale_edge(tb, h->first_op, h->pc, &h->stale_adj_op, &h->stale_adj);
        h->stale_edge2 = h->stale_edge >= 0 && !h->stale_adj
                             ? ne_loop_stale_edge_after(tb, h->first_op, h->pc, (unsigned)h->stale_edge) : -1;
    }
    x->c = c;
#ifdef CONFIG_SYSTEM
    x->facts_on = false; /* the soft TLB checks every access */
#else
    x->facts_on = !c->guest_base;
#endif
    x->near_heads = x->facts_on && !tb->plain;
    ne_near_entry_init(x, tb);
    if (!compile_converged(x, c, tb, loops, start))
        return false;
    tb->nzcv_dead_in = ne_flags_dead_at_entry(tb);
    tb->native = start;
#ifndef CONFIG_SYSTEM
    struct IndirectEntry *e = ibc_entry(b, tb->pc);
    if (e->pc == tb->pc)
        e->code = start; /* compiled again (native_drop_head_facts) */
#endif
    c->tbc->n_compiled++;
    b->used = (size_t)((x->a.p - b->code + 15) & ~15);
    perf_map_add(start, x->a.p, tb);
    return true;
}

void native_drop_head_facts(CPUState *c, TB *tb)
{
    if (tb->plain || !tb->native)
        return; /* done already: a stale chain into the old code came here */
    tb->plain = true;
    if (!native_compile(c, tb))
        tbc_flush(c->tbc); /* no room: a fresh start (the old code must not run again) */
}

bool native_tier_up(CPUState *c, TB *tb)
{
    return ++tb->runs < native_compile_after || native_compile(c, tb);
}

uint8_t *native_run(CPUState *c, TB *tb)
{
    uint8_t *(*enter)(CPUState *, void *) = (uint8_t *(*)(CPUState *, void *))(void *)c->tbc->nbuf->enter;
    return enter(c, tb->native);
}

void native_chain(uint8_t *field, TB *tb)
{
    if ((uintptr_t)field & FLAGS_TAG) {
        const FlagsChain *r = (const FlagsChain *)((uintptr_t)field & ~FLAGS_TAG);
        if (tb->nzcv_dead_in) {
            x_patch(r->direct, tb->native);
            x_patch8(r->jrcxz, r->direct - 1); /* in reach: goto_tail_flags checked */
        } else {
            x_patch(r->stores, tb->native);
        }
        return;
    }
#ifdef CONFIG_SYSTEM
    if ((uintptr_t)field & CROSS_TAG) { /* a branch into another page: through its guard */
        CrossChain *r = (CrossChain *)((uintptr_t)field & ~CROSS_TAG);
        r->tb = tb;
        r->epoch = ~0ull; /* checked on its first run */
        x_patch(r->final_field, tb->native);
        x_patch(r->entry_field, r->guard);
        return;
    }
#endif
    x_patch(field, tb->native);
}

#endif /* MALIBU_HAVE_NATIVE */
