/* libFuzzer harness: the Bifrost clause decoder + executor + texture/image messages
 * (emu/gpu/bifrost_decode.c, bifrost_exec*.c, bifrost_tex.c) on hostile shader bytes.
 *
 * Input: byte 0 flags, byte 1 lanes, then GMEM_SIZE bytes of global memory (its first 64 bytes
 * are also the push uniforms, the next 128 the initial r0-r31), then the shader.  Memory: global
 * at GMEM_VA, local storage at WLS_VA, thread storage at TLS_VA (16 bytes per thread); accesses
 * elsewhere fault.  The descriptor tables point into global memory (textures at +0x100, samplers
 * +0x140, attributes +0x180, attribute buffers +0x1a0, UBO 1 at +0x1c0), so the input controls
 * them too.  Runs are bounded by a clause budget. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bifrost_exec.h"
#include "workgroup.h"

#define GMEM_VA 0x10000ull
#define GMEM_SIZE 512u
#define WLS_VA 0x20000ull
#define WLS_SIZE 64u
#define TLS_VA 0x30000ull
#define TLS_SIZE (16u * 64)
#define CLAUSE_BUDGET 4096u

enum {
    F_V7 = 1,          /* arch v7 (8 lanes), else v6 (4 lanes) */
    F_FETCH = 2,       /* program fetched through bi_mem.fetch (as the engine does) */
    F_ATOMIC = 4,      /* bi_mem.atomic callback (else the read + write fallback) */
    F_WORKGROUP = 8,   /* bi_run_workgroup with local size from byte 1, else one warp */
    F_DISASM = 16,     /* also disassemble the shader (malibu-disasm on guest dumps) */
};

typedef struct {
    uint8_t g[GMEM_SIZE], wls[WLS_SIZE], tls[TLS_SIZE];
    const uint8_t *code;
    size_t len;
} fmem;

static uint8_t *at(fmem *m, uint64_t a, unsigned size)
{
    if (a >= GMEM_VA && a - GMEM_VA <= GMEM_SIZE && size <= GMEM_SIZE - (a - GMEM_VA))
        return m->g + (a - GMEM_VA);
    if (a >= WLS_VA && a - WLS_VA <= WLS_SIZE && size <= WLS_SIZE - (a - WLS_VA))
        return m->wls + (a - WLS_VA);
    if (a >= TLS_VA && a - TLS_VA <= TLS_SIZE && size <= TLS_SIZE - (a - TLS_VA))
        return m->tls + (a - TLS_VA);
    return NULL;
}

static int f_read(void *ctx, uint64_t a, void *buf, unsigned size)
{
    uint8_t *p = at(ctx, a, size);
    if (!p)
        return -1;
    memcpy(buf, p, size);
    return 0;
}

static int f_write(void *ctx, uint64_t a, const void *buf, unsigned size)
{
    uint8_t *p = at(ctx, a, size);
    if (!p)
        return -1;
    memcpy(p, buf, size);
    return 0;
}

static int f_atomic(void *ctx, uint64_t a, unsigned size, uint64_t (*op)(uint64_t, void *), void *arg, uint64_t *old)
{
    uint8_t *p = at(ctx, a, size);
    uint64_t o = 0, n;
    if (!p || (size != 4 && size != 8) || (a & (size - 1)))
        return -1;
    memcpy(&o, p, size);
    n = op(o, arg);
    memcpy(p, &n, size);
    *old = o;
    return 0;
}

/* code pages of 64 bytes, so clauses straddle "page" ends as they do in GPU memory */
static unsigned f_fetch(void *ctx, uint64_t off, void *buf, unsigned size)
{
    fmem *m = ctx;
    if (off >= m->len)
        return 0;
    unsigned n = 64 - (unsigned)(off & 63);
    if (n > size)
        n = size;
    if (n > m->len - off)
        n = (unsigned)(m->len - off);
    memcpy(buf, m->code + off, n);
    return n;
}

static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }

static fmem fm;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t hdr[2 + GMEM_SIZE] = { 0 };
    size_t nh = size < sizeof(hdr) ? size : sizeof(hdr);
    memcpy(hdr, data, nh);
    unsigned flags = hdr[0], lanebits = hdr[1];
    enum bi_arch arch = flags & F_V7 ? BI_ARCH_V7 : BI_ARCH_V6;
    unsigned lanes = arch == BI_ARCH_V7 ? 8 : 4;

    memset(&fm, 0, sizeof(fm));
    memcpy(fm.g, hdr + 2, GMEM_SIZE);
    fm.code = data + nh;
    fm.len = size - nh;

    static const uint64_t ubo_addr[2] = { GMEM_VA, GMEM_VA + 0x1c0 };
    static const uint32_t ubo_size[2] = { GMEM_SIZE, 0x40 };
    uint32_t uniforms[16];
    for (unsigned i = 0; i < 16; i++)
        uniforms[i] = rd32(fm.g + 4 * i);
    bi_mem mem = {
        .ctx = &fm, .read = f_read, .write = f_write, .atomic = flags & F_ATOMIC ? f_atomic : NULL,
        .fetch = f_fetch, .epoch = 1, .wls_base = WLS_VA, .nubos = 2, .ubo_addr = ubo_addr, .ubo_size = ubo_size,
        .arch_major = arch, .textures = GMEM_VA + 0x100, .samplers = GMEM_VA + 0x140,
        .attributes = GMEM_VA + 0x180, .attr_bufs = GMEM_VA + 0x1a0,
    };
    bi_program *p = flags & F_FETCH ? bi_program_new_fetch(arch) : bi_program_new(fm.code, fm.len, arch);
    if (!p)
        return 0;
    bi_fault f = { 0 };
    int rc;
    if (flags & F_WORKGROUP) {
        bi_workgroup wg = {
            .local_size = { 1 + (lanebits & 15), 1 + ((lanebits >> 4) & 3), 1 + (lanebits >> 6) },
            .wg_id = { 1, 2, 3 }, .uniforms = uniforms, .nuniforms = 16, .mem = &mem,
            .tls_base = TLS_VA, .tls_stride = 16, .max_clauses = CLAUSE_BUDGET,
        };
        bi_wg_stats st;
        rc = bi_run_workgroup(&wg, p, NULL, &st, &f);
    } else {
        static bi_warp w;
        bi_warp_init(&w, arch);
        w.mem = &mem;
        w.uniforms = uniforms;
        w.nuniforms = 16;
        for (unsigned l = 0; l < lanes; l++) {
            uint32_t lid[3] = { l, 0, 0 }, wg[3] = { 1, 2, 3 }, gid[3] = { 8 + l, 2, 3 };
            for (unsigned r = 0; r < 32; r++)
                w.reg[r][l] = rd32(fm.g + 64 + 4 * (r % 32)) + (r < 4 ? 4 * l : 0);
            bi_compute_preload(&w, l, lid, wg, gid);
            w.tls_base[l] = TLS_VA + 16ull * l;
            w.done[l] = lanebits && !(lanebits >> l & 1);
        }
        unsigned left = CLAUSE_BUDGET;
        do {       /* a lone warp passes barriers */
            uint64_t before = w.clauses_run;
            rc = bi_exec_program(&w, p, left, &f);
            left -= (unsigned)(w.clauses_run - before);
        } while (rc == BI_EXEC_BARRIER && left);
    }
    bi_program_free(p);
    if (getenv("FUZZ_VERBOSE"))         /* the run's result, on stdout */
        printf("rc %d %s\n", rc, rc < 0 ? f.msg : "");
    if (flags & F_DISASM) {
        FILE *f = fopen("/dev/null", "w");
        if (f) {
            bi_disasm_shader_verbose(f, fm.code, fm.len, arch, true);
            fclose(f);
        }
    }
    return 0;
}
