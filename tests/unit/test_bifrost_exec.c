/* Bifrost warp executor (emu/gpu/bifrost_exec*.c) on shaders assembled from tests/bifrost/exec_*.s.
 * Expected values are computed here independently with plain C / the host FPU (rounding modes
 * via fesetround, binary16 via _Float16).  NaN convention (an assumption, see README): a NaN
 * result is the first NaN operand made quiet, else 0x7fc00000. */
#include <check.h>
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "bifrost_exec.h"
#include "workgroup.h"
#include "shaders.inc"

static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static int isnan_u(uint32_t u) { return (u & 0x7fffffff) > 0x7f800000; }

static void run(bi_warp *w, const uint8_t *code, size_t len)
{
    bi_fault f = { 0 };
    int rc = bi_exec_shader(w, code, len, w->lanes == 8 ? BI_ARCH_V7 : BI_ARCH_V6, 100, &f);
    ck_assert_msg(rc == BI_EXEC_END, "exec: %d %s", rc, f.msg);
}

/* ---- integer ---------------------------------------------------------------------------------- */

static const uint32_t ia[8] = { 5, 0x7fffffff, 0x80000000, 0xffffffff, 0x12345678, 0, 100, 0xdeadbeef };
static const uint32_t ib[8] = { 3, 1, 0xffffffff, 0xffffffff, 0x9abcdef0, 0, 0x00010023, 0x00ff0f05 };

static uint32_t sat_s(int64_t v) { return (uint32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v); }

static void check_int(unsigned lanes)
{
    bi_warp w;
    bi_warp_init(&w, lanes == 8 ? BI_ARCH_V7 : BI_ARCH_V6);
    ck_assert_uint_eq(w.lanes, lanes);
    for (unsigned l = 0; l < lanes; l++) {
        unsigned k = (l * 3 + (lanes == 4)) % 8;   /* different pairs on the two widths */
        w.reg[0][l] = ia[k];
        w.reg[1][l] = ib[k];
        w.reg[29][l] = 0xabcd1234;
    }
    run(&w, bi_shader_exec_int, sizeof(bi_shader_exec_int));
    for (unsigned l = 0; l < lanes; l++) {
        uint32_t a = w.reg[0][l], b = w.reg[1][l];
        int32_t sa = (int32_t)a, sb = (int32_t)b;
        uint32_t rev = 0;
        for (int i = 0; i < 32; i++)
            rev |= ((a >> i) & 1u) << (31 - i);
        const uint32_t want[][2] = {
            { 10, a + b }, { 11, a - b }, { 12, a * b }, { 13, sat_s((int64_t)sa + sb) },
            { 14, a << (b & 31) }, { 15, (uint64_t)a + b > UINT32_MAX ? UINT32_MAX : a + b },
            { 16, (a >> ((b >> 8) & 31)) ^ b }, { 17, sa > sb }, { 18, (uint32_t)(sa >> ((b >> 16) & 31)) },
            { 19, a >= b ? 0xffffffffu : 0 }, { 20, sa > sb ? a : b }, { 21, b == 0 ? a : b },
            { 22, a ? (uint32_t)__builtin_clz(a) : 32 }, { 23, a + (uint32_t)(int32_t)(int16_t)(b >> 16) },
            { 24, (uint32_t)__builtin_popcount(b) }, { 25, a >= b ? a - b : 0 }, { 26, rev },
            { 27, (a >> 16) | (b << 16) }, { 28, a + (b >> 24) }, { 29, 0xabcd0000u | (a != 0) },
        };
        for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++)
            ck_assert_msg(w.reg[want[i][0]][l] == want[i][1], "lane %u (a=%#x b=%#x): r%u = %#x, want %#x",
                          l, a, b, want[i][0], w.reg[want[i][0]][l], want[i][1]);
    }
}

START_TEST(test_int_v7) { check_int(8); }
END_TEST
START_TEST(test_int_v6) { check_int(4); }
END_TEST

/* ---- float ------------------------------------------------------------------------------------- */

static uint32_t nanfix(uint32_t r, uint32_t a, uint32_t b, uint32_t c)
{
    if (!isnan_u(r))
        return r;
    if (isnan_u(a)) return a | 0x400000;
    if (isnan_u(b)) return b | 0x400000;
    if (isnan_u(c)) return c | 0x400000;
    return 0x7fc00000;
}

static uint32_t add_rm(uint32_t a, uint32_t b, int mode)
{
    volatile float x = bf(a), y = bf(b), r;
    fesetround(mode);
    r = x + y;
    fesetround(FE_TONEAREST);
    return nanfix(fb(r), a, b, 0);
}

static uint32_t fma_rm(uint32_t a, uint32_t b, uint32_t c, int mode)
{
    volatile float x = bf(a), y = bf(b), z = bf(c), r;
    fesetround(mode);
    r = fmaf(x, y, z);
    fesetround(FE_TONEAREST);
    return nanfix(fb(r), a, b, c);
}

static uint32_t f2i_ref(float f, int mode, int is_signed)
{
    if (f != f)
        return 0;
    double d = mode == 1 ? floor(f) : mode == 2 ? round(f) : trunc(f);
    if (is_signed)
        return d >= 2147483647.0 ? 0x7fffffffu : d <= -2147483648.0 ? 0x80000000u : (uint32_t)(int32_t)d;
    return d <= 0 ? 0 : d >= 4294967295.0 ? 0xffffffffu : (uint32_t)d;
}

static const uint32_t fa[8] = { 0x3fc00000 /* 1.5 */, 0x3f800000, 0xc06ccccd /* -3.7 */, 0x7fc00001 /* qNaN */,
                                0x3dcccccd /* 0.1 */, 0x80000000 /* -0 */, 0x7e967699 /* 1e38 */, 0x000116c2 /* denormal */ };
static const uint32_t fbv[8] = { 0x40100000 /* 2.25 */, 0x322bcc77 /* 1e-8 */, 0x45354000 /* 2900 */, 0x3f800000,
                                 0x3e4ccccd /* 0.2 */, 0x00000000, 0x7e967699, 0xc0200000 /* -2.5 */ };
static const uint32_t fc[8] = { 0xbf400000, 0x40400000, 0x501502f9 /* 1e10 */, 0,
                                0x3e99999a /* 0.3 */, 0x80000000, 0xff800000 /* -inf */, 0x40e00000 };
static const uint32_t fh[8] = { 0x3c003e00, 0xc0007bff, 0x00010400, 0x7c00fc00, 0x35553555, 0x80000000, 0x7e003c01, 0x03ff8001 };

static uint32_t h2f(uint16_t h)
{
    _Float16 x;
    memcpy(&x, &h, 2);
    return fb((float)x);
}

START_TEST(test_float)
{
    bi_warp w;
    bi_warp_init(&w, BI_ARCH_V7);
    for (unsigned l = 0; l < 8; l++) {
        w.reg[0][l] = fa[l];
        w.reg[1][l] = fbv[l];
        w.reg[2][l] = fc[l];
        w.reg[3][l] = fh[l];
    }
    run(&w, bi_shader_exec_float, sizeof(bi_shader_exec_float));
    for (unsigned l = 0; l < 8; l++) {
        uint32_t a = fa[l], b = fbv[l], c = fc[l];
        float A = bf(a), B = bf(b);
        uint32_t sum = add_rm(a, b, FE_TONEAREST);
        uint32_t clamp01 = isnan_u(sum) ? 0 : bf(sum) < 0 ? 0 : bf(sum) > 1 ? 0x3f800000 : sum;
        uint32_t fmin_ref = isnan_u(a) ? b : isnan_u(b) ? a
                          : (A < B || (A == B && (a >> 31) > (b >> 31))) ? a : b;
        uint32_t fmax_ref = isnan_u(a) ? a | 0x400000 : isnan_u(b) ? b | 0x400000
                          : (A > B || (A == B && (a >> 31) < (b >> 31))) ? a : b;
        uint32_t prod = fma_rm(a, b, 0, FE_TONEAREST);
        uint32_t rz = add_rm(a, b, FE_TOWARDZERO), rp = add_rm(a, b, FE_UPWARD), rn = add_rm(a, b, FE_DOWNWARD);
        uint32_t rto = (bf(rz) == bf(rp) && bf(rz) == bf(rn)) || isnan_u(rz) || (rz & 0x7fffffff) == 0x7f800000 ? rz : rz | 1;
        volatile float bi = (float)(int32_t)b;
        float hsum = bf(h2f((uint16_t)fh[l])) + bf(h2f((uint16_t)(fh[l] >> 16)));
        uint32_t u2f_rz;   /* U32_TO_F32.rtz of b */
        {
            volatile double d = (double)b;
            volatile float r;
            fesetround(FE_TOWARDZERO);
            r = (float)d;
            fesetround(FE_TONEAREST);
            u2f_rz = fb(r);
        }
        const uint32_t want[][2] = {
            { 10, sum }, { 11, rp }, { 12, rn }, { 13, rz },
            { 14, fma_rm(a, b, c, FE_TONEAREST) }, { 15, fma_rm(a, fb(-fabsf(B)), c, FE_TOWARDZERO) },
            { 16, clamp01 }, { 17, fmin_ref }, { 18, fmax_ref }, { 19, add_rm(prod, c, FE_TONEAREST) },
            { 20, A < B }, { 21, !(A == B) ? 0xffffffffu : 0 }, { 22, A > B ? a : b },
            { 23, f2i_ref(A, 0, 1) }, { 24, f2i_ref(A, 1, 0) },
            { 25, isnan_u(a) ? a | 0x400000 : fb(roundf(A)) }, { 26, fb(bi) },
            { 27, nanfix(fb(hsum), h2f((uint16_t)fh[l]), h2f((uint16_t)(fh[l] >> 16)), 0) },
            { 28, u2f_rz }, { 29, add_rm(a & 0x7fffffff, b ^ 0x80000000, FE_UPWARD) },
            { 30, fb(nearbyintf(B)) }, { 31, rto },
        };
        for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++)
            ck_assert_msg(w.reg[want[i][0]][l] == want[i][1], "lane %u: r%u = %#x, want %#x",
                          l, want[i][0], w.reg[want[i][0]][l], want[i][1]);
    }
}
END_TEST

/* Lane-loop forms with modifiers (exec_lanes.s) on 4- and 8-lane warps; lanes 1 and 6 inactive
 * keep their registers. */
static void check_lanes(enum bi_arch arch)
{
    static const uint32_t in[3][8] = {
        { 0x3fc00000, 0xc0100000, 0x7fa00001, 0x80000000, 0x3f400000, 0x7f61b1e6, 0x00000003, 0xbf800000 },
        { 0xbf000000, 0x40000000, 0x3f800000, 0x7fc00002, 0xbf400000, 0x7f61b1e6, 0x80000001, 0x00000000 },
        { 0x80000000, 0x00000000, 0x12345678, 0xffff0000, 0x00000005, 0x0000001f, 0x80000021, 0x3f000000 },
    };
    bi_warp w;
    bi_warp_init(&w, arch);
    for (unsigned l = 0; l < w.lanes; l++) {
        for (unsigned r = 0; r < 3; r++)
            w.reg[r][l] = in[r][(l + (w.lanes == 4 ? 4 * (r == 1) : 0)) % 8];
        for (unsigned r = 10; r < 22; r++)
            w.reg[r][l] = 0xdead0000 + r;
        w.done[l] = l == 1 || l == 6;
    }
    run(&w, bi_shader_exec_lanes, sizeof(bi_shader_exec_lanes));
    for (unsigned l = 0; l < w.lanes; l++) {
        uint32_t a = w.reg[0][l], b = w.reg[1][l], c = w.reg[2][l];
        float A = bf(a), B = bf(b), absB = fabsf(B);
        uint32_t sum = add_rm(a & 0x7fffffff, b ^ 0x80000000, FE_TONEAREST);
        uint32_t clamp = isnan_u(sum) ? 0 : bf(sum) < -1 ? 0xbf800000 : bf(sum) > 1 ? 0x3f800000 : sum;
        unsigned sh = c & 31;
        const uint32_t want[][2] = {
            { 10, fma_rm(a & 0x7fffffff, b ^ 0x80000000, c | 0x80000000, FE_TONEAREST) },
            { 11, -A < B ? 0xffffffffu : 0 }, { 12, clamp }, { 13, (c & 0x80000000) ? a : b },
            { 14, A >= absB }, { 15, (c & 0x7fffffff) == 0 ? a : b }, { 16, ~((a << sh) & ~b) },
            { 17, (a & c) | (b & ~c) }, { 18, (a >> sh) ^ b }, { 19, (int32_t)a >= (int32_t)b ? 0xffffffffu : 0 },
            { 20, a >= b ? c : b }, { 21, (a >> 16) | (b & 0xffff0000) },
        };
        for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
            uint32_t wv = w.done[l] && (l == 1 || l == 6) ? 0xdead0000 + want[i][0] : want[i][1];
            ck_assert_msg(w.reg[want[i][0]][l] == wv, "%u lanes, lane %u (a=%#x b=%#x c=%#x): r%u = %#x, want %#x",
                          w.lanes, l, a, b, c, want[i][0], w.reg[want[i][0]][l], wv);
        }
    }
}

/* Cube-map coordinates (exec_cube.s): the face of GL's table 3.21 for directions along each
 * axis, either sign, ties (z before y before x) and off-axis ones; s and t before the division
 * (CUBE_SSEL / CUBE_TSEL), the magnitude they are divided by, and the face packed over s. */
static void check_cube(enum bi_arch arch)
{
    static const float dir[][3] = {
        { 2, 0.5f, -0.25f }, { -3, 1, 2 }, { 0.5f, 4, -1 }, { 0.25f, -2, 1 }, { 1, -1, 3 }, { -1, 0.5f, -5 },
        { 1, 1, 1 }, { -2, -2, 0.5f }, { 0.75f, -0.5f, 0.25f }, { 0, 0, -1 }, { -1, 1, 0 }, { 3, -3, -3 },
    };
    /* GL ES 3.0 table 3.21: sc, tc as (component, sign) by face */
    static const int sc[6][2] = { { 2, -1 }, { 2, 1 }, { 0, 1 }, { 0, 1 }, { 0, 1 }, { 0, -1 } };
    static const int tc[6][2] = { { 1, -1 }, { 1, -1 }, { 2, 1 }, { 2, -1 }, { 1, -1 }, { 1, -1 } };
    const unsigned ndir = sizeof(dir) / sizeof(dir[0]);
    for (unsigned base = 0; base < ndir; base += 4) {
        bi_warp w;
        bi_warp_init(&w, arch);
        for (unsigned l = 0; l < w.lanes; l++)
            for (unsigned r = 0; r < 3; r++)
                w.reg[r][l] = fb(dir[(base + l) % ndir][r]);
        run(&w, bi_shader_exec_cube, sizeof(bi_shader_exec_cube));
        for (unsigned l = 0; l < w.lanes; l++) {
            const float *d = dir[(base + l) % ndir];
            float ax = fabsf(d[0]), ay = fabsf(d[1]), az = fabsf(d[2]);
            unsigned face = az >= ax && az >= ay ? 4 + (d[2] < 0) : ay >= ax ? 2 + (d[1] < 0) : (d[0] < 0);
            float ma = fmaxf(ax, fmaxf(ay, az));
            uint32_t s = fb(sc[face][1] * d[sc[face][0]]), t = fb(tc[face][1] * d[tc[face][0]]);
            ck_assert_msg(w.reg[11][l] >> 29 == face && (w.reg[11][l] & 0x1fffffff) == 0,
                          "(%g %g %g): face word %#x, want face %u", d[0], d[1], d[2], w.reg[11][l], face);
            ck_assert_msg(w.reg[10][l] == fb(ma), "(%g %g %g): max %#x", d[0], d[1], d[2], w.reg[10][l]);
            ck_assert_msg(w.reg[12][l] == s && w.reg[13][l] == t, "(%g %g %g) face %u: s %#x t %#x, want %#x %#x",
                          d[0], d[1], d[2], face, w.reg[12][l], w.reg[13][l], s, t);
            ck_assert_msg(w.reg[14][l] == ((s & 0x1fffffff) | face << 29), "(%g %g %g): packed %#x", d[0], d[1], d[2],
                          w.reg[14][l]);
        }
    }
}

START_TEST(test_cube_v6) { check_cube(BI_ARCH_V6); }
END_TEST
START_TEST(test_cube_v7) { check_cube(BI_ARCH_V7); }
END_TEST

START_TEST(test_lanes_v6) { check_lanes(BI_ARCH_V6); }
END_TEST
START_TEST(test_lanes_v7) { check_lanes(BI_ARCH_V7); }
END_TEST

/* Divergent control flow: BRANCHZ on a per-lane value, min-PC reconvergence. */
START_TEST(test_branch)
{
    bi_warp w;
    bi_warp_init(&w, BI_ARCH_V7);
    for (unsigned l = 0; l < 8; l++)
        w.reg[0][l] = l & 1;
    run(&w, bi_shader_exec_branch, sizeof(bi_shader_exec_branch));
    for (unsigned l = 0; l < 8; l++) {
        ck_assert_uint_eq(w.reg[1][l], (l & 1) ? 20 : 10);   /* then/else arms */
        ck_assert_uint_eq(w.reg[2][l], 7);                   /* after the join */
        ck_assert_uint_eq(w.reg[3][l], 5);                   /* loop: r3 counts 5 iterations */
    }
    ck_assert(w.clauses_run > 0);
}
END_TEST

/* Passthrough registers and write timing: a register written by tuple i-1 is not yet visible to
 * tuple i's reads; T0/T1 carry the previous results; the last tuple's write lands at clause end. */
START_TEST(test_timing)
{
    bi_warp w;
    bi_warp_init(&w, BI_ARCH_V6);
    for (unsigned l = 0; l < 4; l++) {
        w.reg[0][l] = 100 + l;
        w.reg[1][l] = 1;
    }
    run(&w, bi_shader_exec_timing, sizeof(bi_shader_exec_timing));
    for (unsigned l = 0; l < 4; l++) {
        ck_assert_uint_eq(w.reg[0][l], 100 + l + 1);        /* r0 = r0 + r1 */
        ck_assert_uint_eq(w.reg[4][l], 100 + l);            /* read of r0 in the next tuple: old value */
        ck_assert_uint_eq(w.reg[5][l], 100 + l + 1 + 1);    /* T0 + r1 */
        ck_assert_uint_eq(w.reg[6][l], l);                  /* lane_id */
        ck_assert_uint_eq(w.reg[7][l], 100 + l + 1);        /* next clause sees the write */
    }
}
END_TEST

/* Global and workgroup-local loads/stores through bi_mem callbacks. */
static uint8_t gmem[0x200], wmem[0x40];

static uint8_t *mem_at(uint64_t addr, unsigned size)
{
    if (addr >= 0x10000 && addr + size <= 0x10000 + sizeof(gmem))
        return gmem + (addr - 0x10000);
    if (addr >= 0x20000 && addr + size <= 0x20000 + sizeof(wmem))
        return wmem + (addr - 0x20000);
    return NULL;
}
static int mem_read(void *ctx, uint64_t addr, void *buf, unsigned size)
{
    uint8_t *p = mem_at(addr, size);
    if (!p)
        return -1;
    memcpy(buf, p, size);
    return 0;
}
static int mem_write(void *ctx, uint64_t addr, const void *buf, unsigned size)
{
    uint8_t *p = mem_at(addr, size);
    if (!p)
        return -1;
    memcpy(p, buf, size);
    return 0;
}
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }

START_TEST(test_memory)
{
    bi_mem mem = { .read = mem_read, .write = mem_write, .wls_base = 0x20000 };
    uint32_t uni[4] = { 0x10000, 0, 0x10100, 0 };
    bi_warp w;
    memset(gmem, 0, sizeof(gmem));
    memset(wmem, 0, sizeof(wmem));
    for (unsigned i = 0; i < 9; i++) {
        uint32_t v = 0x8001f0a0u + i * 0x11u;
        memcpy(gmem + 4 * i, &v, 4);
    }
    bi_warp_init(&w, BI_ARCH_V7);
    w.mem = &mem;
    w.uniforms = uni;
    w.nuniforms = 4;
    for (unsigned l = 0; l < 8; l++) {
        w.reg[0][l] = 4 * l;
        w.reg[7][l] = 0x1234abcd;
    }
    run(&w, bi_shader_exec_mem, sizeof(bi_shader_exec_mem));
    for (unsigned l = 0; l < 8; l++) {
        uint32_t in = rd32(gmem + 4 * l);
        ck_assert_uint_eq(rd32(gmem + 0x100 + 4 * l), 2 * in);
        ck_assert_uint_eq(w.reg[6][l], (uint32_t)(int32_t)(int8_t)(in & 0xff));
        ck_assert_uint_eq(w.reg[7][l], 0xabcdu | (in & 0xffff) << 16);
        ck_assert_uint_eq(w.reg[8][l], in);
        ck_assert_uint_eq(w.reg[9][l], rd32(gmem + 4 * l + 4));
        ck_assert_uint_eq(rd32(wmem + 4 * l), 2 * in);
        ck_assert_uint_eq(w.reg[10][l], 2 * in);
    }
    /* no memory: a load faults cleanly */
    bi_warp_init(&w, BI_ARCH_V7);
    bi_fault f;
    ck_assert_int_eq(bi_exec_shader(&w, bi_shader_exec_mem, sizeof(bi_shader_exec_mem), BI_ARCH_V7, 100, &f),
                     BI_EXEC_FAULT);
    ck_assert_int_eq(f.kind, BI_FAULT_MEMORY);
}
END_TEST

/* ---- 16-bit float and vector lanes -------------------------------------------------------------- */

static uint16_t hbits(_Float16 h) { uint16_t u; memcpy(&u, &h, 2); return u; }
static _Float16 hval(uint16_t u) { _Float16 h; memcpy(&h, &u, 2); return h; }
static int hnan(uint16_t u) { return (u & 0x7fff) > 0x7c00; }

/* f16 arithmetic reference: exact in binary128, one rounding to binary16 in the host mode. */
static uint16_t h_ref(int op, uint16_t a, uint16_t b, uint16_t c, int mode)
{
    const uint16_t in[3] = { a, b, c };
    for (int i = 0; i < (op ? 3 : 2); i++)
        if (hnan(in[i]))
            return in[i] | 0x200;
    __float128 x = (__float128)hval(a), y = (__float128)hval(b), z = (__float128)hval(c);
    volatile __float128 r = op ? x * y + z : x + y;
    fesetround(mode);
    volatile _Float16 h = (_Float16)r;
    fesetround(FE_TONEAREST);
    uint16_t u = hbits(h);
    return hnan(u) ? 0x7e00 : u;
}

START_TEST(test_f32_to_f16)
{
    static const int modes[4] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };
    uint32_t seed = 12345;
    for (unsigned i = 0; i < 200000; i++) {
        seed = seed * 1103515245u + 12345u;
        uint32_t x = seed ^ (seed << 13);
        if (i % 4 == 1)
            x = (x & 0x80ffffffu) | ((uint32_t)(100 + (i / 4) % 50) << 23);   /* near the f16 range */
        if (i % 4 == 2)
            x = (x & 0x807fffffu) | ((uint32_t)(103 + (i / 4) % 13) << 23);   /* f16 subnormals */
        if (isnan_u(x))
            continue;
        for (int m = 0; m < 4; m++) {
            volatile float f = bf(x);
            fesetround(modes[m]);
            volatile _Float16 h = (_Float16)f;
            fesetround(FE_TONEAREST);
            ck_assert_msg(bi_f32_to_f16(x, m) == hbits(h), "%#x mode %d: %#x, want %#x", x, m,
                          bi_f32_to_f16(x, m), hbits(h));
        }
    }
}
END_TEST

static const uint16_t hvals[] = { 0x0000, 0x8000, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x0001, 0x83ff, 0x7c00, 0xfc00,
                                  0x7e01, 0x3555, 0x4248, 0xc8a1, 0x1400, 0x5bff, 0x3c01, 0xc000, 0x0400, 0x7000 };

START_TEST(test_vec)
{
    uint32_t seed = 777;
    for (unsigned round = 0; round < 200; round++) {
        bi_warp w;
        bi_warp_init(&w, BI_ARCH_V7);
        for (unsigned l = 0; l < 8; l++)
            for (unsigned r = 0; r < 5; r++) {
                seed = seed * 1103515245u + 12345u;
                uint32_t v = seed >> 3;
                if (r < 3 && (seed & 0x100))
                    v = hvals[(seed >> 9) % 20] | (uint32_t)hvals[(seed >> 17) % 20] << 16;
                w.reg[r][l] = v;
            }
        run(&w, bi_shader_exec_vec, sizeof(bi_shader_exec_vec));
        for (unsigned l = 0; l < 8; l++) {
            uint32_t a = w.reg[0][l], b = w.reg[1][l], c = w.reg[2][l];
            uint32_t want[24] = { 0 };
            for (unsigned j = 0; j < 2; j++) {
                uint16_t aj = (uint16_t)(a >> (16 * j)), bj = (uint16_t)(b >> (16 * j)), cj = (uint16_t)(c >> (16 * j));
                uint16_t aswap = (uint16_t)(a >> (16 * (1 - j)));
                int32_t ssum = (int16_t)aj + (int16_t)bj;
                ssum = ssum > 32767 ? 32767 : ssum < -32768 ? -32768 : ssum;
                uint32_t fa = bi_f16_to_f32(aj), fbb = bi_f16_to_f32(bj);
                uint16_t mn = hnan(aj) ? (hnan(bj) ? aj | 0x200 : bj) : hnan(bj) ? aj
                            : (bf(fa) < bf(fbb) || (bf(fa) == bf(fbb) && (aj >> 15) > (bj >> 15))) ? aj : bj;
                want[10] |= (uint32_t)h_ref(0, aj, bj, 0, FE_TONEAREST) << (16 * j);
                want[11] |= ((uint32_t)ssum & 0xffff) << (16 * j);
                want[12] |= (uint32_t)h_ref(0, aswap, bj, 0, FE_TOWARDZERO) << (16 * j);
                want[15] |= (uint32_t)mn << (16 * j);
                want[17] |= (bf(fa) < bf(fbb) ? 0xffffu : 0) << (16 * j);
                want[18] |= (uint32_t)((int16_t)aj > (int16_t)bj ? aj : bj) << (16 * j);
                want[20] |= (uint32_t)aswap << (16 * j);
                want[21] |= (uint32_t)h_ref(1, aj, bj, cj, FE_TONEAREST) << (16 * j);
                want[22] |= ((uint32_t)(aj + (uint16_t)b) & 0xffff) << (16 * j);
                want[23] |= (aj >= bj ? 0xffffu : 0) << (16 * j);
            }
            for (unsigned k = 0; k < 4; k++) {
                int d = (int)((a >> (8 * k)) & 0xff) - (int)((b >> (8 * k)) & 0xff);
                want[13] |= (uint32_t)(d < 0 ? 0 : d) << (8 * k);
            }
            {
                volatile float f3 = bf(w.reg[3][l]), f4 = bf(w.reg[4][l]);
                volatile _Float16 h3 = (_Float16)f3, h4 = (_Float16)f4;
                uint16_t u3 = hbits(h3), u4 = hbits(h4);
                if (isnan_u(w.reg[3][l])) u3 = (uint16_t)(((w.reg[3][l] >> 16) & 0x8000) | 0x7e00 | ((w.reg[3][l] >> 13) & 0x3ff));
                if (isnan_u(w.reg[4][l])) u4 = (uint16_t)(((w.reg[4][l] >> 16) & 0x8000) | 0x7e00 | ((w.reg[4][l] >> 13) & 0x3ff));
                want[14] = u3 | (uint32_t)u4 << 16;
            }
            want[16] = (a & 0xff) | (b & 0xff) << 8 | ((a >> 16) & 0xff) << 16 | (b & 0xff) << 24;
            want[19] = bi_f16_to_f32((uint16_t)(a >> 16));
            {
                _Float16 hh = hval((uint16_t)(a >> 16));
                ck_assert(isnan_u(want[19]) || want[19] == fb((float)hh));
            }
            for (unsigned r = 10; r < 24; r++)
                ck_assert_msg(w.reg[r][l] == want[r], "round %u lane %u (a=%#x b=%#x c=%#x): r%u = %#x, want %#x",
                              round, l, a, b, c, r, w.reg[r][l], want[r]);
        }
    }
}
END_TEST

START_TEST(test_vec2)
{
    uint32_t seed = 4242;
    for (unsigned round = 0; round < 200; round++) {
        bi_warp w;
        bi_warp_init(&w, BI_ARCH_V7);
        for (unsigned l = 0; l < 8; l++) {
            for (unsigned r = 0; r < 3; r++) {
                seed = seed * 1103515245u + 12345u;
                w.reg[r][l] = (seed >> 7) ^ (seed << 19);
            }
            if (l & 1)
                w.reg[1][l] = hvals[(seed >> 3) % 20] | (uint32_t)hvals[(seed >> 11) % 20] << 16;
            w.reg[3][l] = (uint32_t)((int32_t)((seed >> 5) % 321) - 160);
        }
        run(&w, bi_shader_exec_vec2, sizeof(bi_shader_exec_vec2));
        for (unsigned l = 0; l < 8; l++) {
            uint32_t a = w.reg[0][l], b = w.reg[1][l], want[22] = { 0 };
            for (unsigned j = 0; j < 2; j++) {
                uint32_t aj = (a >> (16 * j)) & 0xffff, bj = (b >> (16 * j)) & 0xffff;
                unsigned sh = (b >> (16 * j)) & 15;                       /* lanes2 b02: bytes 0 and 2 */
                want[10] |= ((aj << sh) & 0xffff) << (16 * j);
                want[14] |= ((aj * bj) & 0xffff) << (16 * j);
                volatile float fl = (float)(int16_t)aj;
                fesetround(FE_TOWARDZERO);
                volatile _Float16 hz = (_Float16)fl;
                fesetround(FE_TONEAREST);
                want[17] |= (uint32_t)hbits(hz) << (16 * j);
                float fb16 = (float)hval((uint16_t)bj);
                uint32_t u = fb16 != fb16 || fb16 <= 0 ? 0 : fb16 >= 65535.0f ? 65535 : (uint32_t)fb16;
                want[18] |= u << (16 * j);
                int8_t byte = (int8_t)(a >> (8 * (j ? 1 : 2)));             /* b21: lane0 <- byte 2, lane1 <- byte 1 */
                want[21] |= ((uint32_t)(int32_t)byte & 0xffff) << (16 * j);
            }
            for (unsigned k = 0; k < 4; k++) {
                int8_t ak = (int8_t)(a >> (8 * k)), bk = (int8_t)(b >> (8 * k));
                want[12] |= ((uint32_t)(ak >> (bk & 7)) & 0xff) << (8 * k);
                want[16] |= ((((uint32_t)(uint8_t)ak >> (bk & 7)) & (uint8_t)bk) & 0xff) << (8 * k);
                want[20] |= (uint32_t)(ak > bk) << (8 * k);
            }
            want[11] = (int32_t)a < 0 ? 0u - a : a;
            want[13] = (uint32_t)(((int64_t)(int32_t)a + (int32_t)b) >> 1);
            want[15] = fb((float)(int16_t)(a >> 16));
            {
                float f = bf(w.reg[2][l]);
                volatile double d = ldexp((double)f, (int32_t)w.reg[3][l]);
                volatile float r = (float)d;
                want[19] = f != f ? w.reg[2][l] | 0x400000 : fb(r);
            }
            for (unsigned r = 10; r < 22; r++)
                ck_assert_msg(w.reg[r][l] == want[r], "round %u lane %u (a=%#x b=%#x): r%u = %#x, want %#x",
                              round, l, a, b, r, w.reg[r][l], want[r]);
        }
    }
}
END_TEST

START_TEST(test_axchg)
{
    bi_mem mem = { .read = mem_read, .write = mem_write, .wls_base = 0x20000 };
    uint32_t uni[2] = { 0x10000, 0 };
    bi_warp w;
    for (unsigned i = 0; i < 8; i++) {
        uint32_t g = 0x1000 + i, l = 0x2000 + i;
        memcpy(gmem + 4 * i, &g, 4);
        memcpy(wmem + 4 * i, &l, 4);
    }
    bi_warp_init(&w, BI_ARCH_V7);
    w.mem = &mem;
    w.uniforms = uni;
    w.nuniforms = 2;
    for (unsigned l = 0; l < 8; l++) {
        w.reg[0][l] = 4 * l;
        w.reg[4][l] = 100 + l;
        w.reg[5][l] = 200 + l;
    }
    run(&w, bi_shader_exec_atomic, sizeof(bi_shader_exec_atomic));
    for (unsigned l = 0; l < 8; l++) {
        ck_assert_uint_eq(rd32(gmem + 4 * l), 100 + l);
        ck_assert_uint_eq(w.reg[4][l], 0x1000 + l);
        ck_assert_uint_eq(rd32(wmem + 4 * l), 200 + l);
        ck_assert_uint_eq(w.reg[5][l], 0x2000 + l);
    }
}
END_TEST

/* ---- cross-lane permute (CLPER, CLPER_OLD) ------------------------------------------------------ */

/* The lane whose value lane l reads: idx (xor: l ^ idx) within l's group of `group` lanes. */
static unsigned clper_from(unsigned l, uint32_t idx, int xor, unsigned group)
{
    return (l & ~(group - 1)) | (((xor ? l : 0) ^ idx) & (group - 1));
}

static void check_clper(enum bi_arch arch)
{
    static const uint32_t lane8[8] = { 3, 0, 7, 1, 6, 2, 5, 4 }, xor4[8] = { 1, 3, 0, 2, 1, 2, 3, 0 };
    static const uint32_t lane4[8] = { 2, 0, 3, 1, 1, 3, 0, 2 }, xor2[8] = { 1, 0, 0, 1, 1, 1, 0, 0 };
    static const uint32_t active[8] = { 1, 0, 1, 1, 0, 1, 0, 0 };   /* lanes running the divergent part */
    bi_warp w;
    bi_warp_init(&w, arch);
    unsigned n = w.lanes;
    for (unsigned l = 0; l < n; l++) {
        w.reg[0][l] = 0x1000 + 0x111 * l;
        w.reg[1][l] = lane8[l];
        w.reg[2][l] = xor4[l];
        w.reg[3][l] = active[l];
        w.reg[4][l] = lane4[l];
        w.reg[5][l] = xor2[l];
        for (unsigned r = 10; r < 18; r++)
            w.reg[r][l] = 0xdead0000 + r;
    }
    if (arch == BI_ARCH_V7)
        run(&w, bi_shader_exec_clper, sizeof(bi_shader_exec_clper));
    else
        run(&w, bi_shader_exec_clper_v6, sizeof(bi_shader_exec_clper_v6));
    for (unsigned l = 0; l < n; l++) {
        uint32_t want[18];
        for (unsigned r = 10; r < 18; r++)
            want[r] = 0xdead0000 + r;
        unsigned f;
        want[13] = w.reg[0][clper_from(l, lane4[l], 0, 4)];
        if (arch == BI_ARCH_V7) {
            want[10] = w.reg[0][clper_from(l, lane8[l], 0, 8)];
            want[11] = w.reg[0][clper_from(l, xor4[l], 1, 4)];
            want[12] = w.reg[0][clper_from(l, xor2[l], 1, 2)];
        }
        if (active[l]) {       /* a lane that is not running this clause gives inactive_result */
            f = clper_from(l, lane4[l], 0, 4);
            want[16] = active[f] ? w.reg[0][f] : 0;
            if (arch == BI_ARCH_V7) {
                f = clper_from(l, lane8[l], 0, 8);
                want[14] = active[f] ? w.reg[0][f] : 0x7fffffff;
                f = clper_from(l, xor4[l], 1, 4);
                want[15] = active[f] ? w.reg[0][f] : 0x7c007c00;
                f = clper_from(l, lane4[l], 0, 4);
                want[17] = active[f] ? w.reg[0][f] : 0xff800000;
            }
        }
        for (unsigned r = 10; r < 18; r++)
            ck_assert_msg(w.reg[r][l] == want[r], "arch %d lane %u: r%u = %#x, want %#x", arch, l, r, w.reg[r][l],
                          want[r]);
    }
}

START_TEST(test_clper_v7) { check_clper(BI_ARCH_V7); }
END_TEST
START_TEST(test_clper_v6) { check_clper(BI_ARCH_V6); }
END_TEST

/* Variants whose semantics are not established are refused, with the reason in the message. */
START_TEST(test_refused)
{
    bi_warp w;
    bi_fault f;
    bi_warp_init(&w, BI_ARCH_V7);
    int rc = bi_exec_shader(&w, bi_shader_exec_clper_acc, sizeof(bi_shader_exec_clper_acc), BI_ARCH_V7, 100, &f);
    ck_assert_int_eq(rc, BI_EXEC_FAULT);
    ck_assert_int_eq(f.kind, BI_FAULT_UNIMPLEMENTED);
    ck_assert_msg(strstr(f.msg, "CLPER.accumulate not implemented"), "%s", f.msg);
    /* subgroup8 on a 4-lane warp: refused at run time, not misread */
    bi_warp_init(&w, BI_ARCH_V6);
    rc = bi_exec_shader(&w, bi_shader_exec_clper, sizeof(bi_shader_exec_clper), BI_ARCH_V7, 100, &f);
    ck_assert_int_eq(rc, BI_EXEC_FAULT);
    ck_assert_int_eq(f.kind, BI_FAULT_UNIMPLEMENTED);
    ck_assert_msg(strstr(f.msg, "CLPER.subgroup8 on a 4-lane warp"), "%s", f.msg);
    bi_warp_init(&w, BI_ARCH_V7);
    rc = bi_exec_shader(&w, bi_shader_exec_fcmp_total, sizeof(bi_shader_exec_fcmp_total), BI_ARCH_V7, 100, &f);
    ck_assert_int_eq(rc, BI_EXEC_FAULT);
    ck_assert_int_eq(f.kind, BI_FAULT_UNIMPLEMENTED);
    ck_assert_msg(strstr(f.msg, "FCMP.total not implemented"), "%s", f.msg);
}
END_TEST

/* SEG_ADD: the 64-bit address of a thread-local (tl) or workgroup-local (wls) offset. */
START_TEST(test_seg_add)
{
    bi_mem mem = { .read = mem_read, .write = mem_write, .wls_base = 0x20000 };
    bi_warp w;
    bi_warp_init(&w, BI_ARCH_V7);
    w.mem = &mem;
    for (unsigned l = 0; l < 8; l++) {
        w.tls_base[l] = 0x3ffff0000ull + 0x100 * l;
        w.reg[7][l] = 8 * l + 0x40;
    }
    run(&w, bi_shader_exec_seg, sizeof(bi_shader_exec_seg));
    for (unsigned l = 0; l < 8; l++) {
        uint64_t tl = w.tls_base[l] + 8 * l + 0x40, wls = 0x20000 + 8 * l + 0x40;
        ck_assert_uint_eq(w.reg[5][l], (uint32_t)tl);
        ck_assert_uint_eq(w.reg[6][l], (uint32_t)(tl >> 32));
        ck_assert_uint_eq(w.reg[8][l], (uint32_t)wls);
        ck_assert_uint_eq(w.reg[9][l], (uint32_t)(wls >> 32));
    }
}
END_TEST

/* A workgroup of 16 threads (4 warps on v6, 2 on v7) exchanging values through local memory across
 * a barrier; preloads per the compute ABI. */
static void check_wg(enum bi_arch arch)
{
    bi_mem mem = { .read = mem_read, .write = mem_write, .wls_base = 0x20000 };
    uint32_t uni[2] = { 0x10040, 0 };
    memset(gmem, 0, sizeof(gmem));
    memset(wmem, 0, sizeof(wmem));
    bi_program *p = bi_program_new(bi_shader_exec_wg, sizeof(bi_shader_exec_wg), arch);
    ck_assert_ptr_nonnull(p);
    for (uint32_t g = 0; g < 2; g++) {
        bi_workgroup wg = { .local_size = { 16, 1, 1 }, .wg_id = { g, 0, 0 }, .uniforms = uni, .nuniforms = 2,
                            .mem = &mem, .max_clauses = 1000 };
        bi_wg_stats st;
        bi_fault f = { 0 };
        ck_assert_msg(bi_run_workgroup(&wg, p, NULL, &st, &f) == BI_EXEC_END, "%s", f.msg);
        ck_assert_uint_eq(st.warps, arch == BI_ARCH_V7 ? 2 : 4);
        ck_assert_uint_eq(st.barriers, st.warps);
        ck_assert_uint_eq(st.clauses, 5 * st.warps);
        ck_assert_uint_eq(st.lane_clauses, 5 * 16);
    }
    for (unsigned t = 0; t < 32; t++)
        ck_assert_uint_eq(rd32(gmem + 0x40 + 4 * t), (t % 16 + 1) % 16);
    bi_program_free(p);
}

/* Preloads of a 3 x 2 x 3 workgroup (18 threads: the last warp partly empty): r55 = local x | y <<
 * 16, r56 = local z, r57-r59 = workgroup id, r60-r62 = global id, thread t = x + 3 (y + 2 z).  Every
 * warp waits at a barrier, then the first one released faults (no clause after it): each warp's
 * slot still holds its set-up. */
static void check_wg_preload(enum bi_arch arch)
{
    bi_program *p = bi_program_new(bi_shader_exec_barrier_stop, sizeof(bi_shader_exec_barrier_stop), arch);
    ck_assert_ptr_nonnull(p);
    bi_wg_warps ws = { 0 };
    bi_workgroup wg = { .local_size = { 3, 2, 3 }, .wg_id = { 5, 7, 2 }, .max_clauses = 100 };
    bi_fault f = { 0 };
    ck_assert_int_eq(bi_run_workgroup(&wg, p, &ws, NULL, &f), BI_EXEC_FAULT);
    ck_assert_int_eq(f.kind, BI_FAULT_BAD_PC);
    unsigned lanes = arch == BI_ARCH_V7 ? 8 : 4;
    ck_assert_uint_ge(ws.cap, (18 + lanes - 1) / lanes);
    for (unsigned t = 0; t < 24 && t / lanes < ws.cap; t++) {
        const bi_warp *w = &ws.warps[ws.slot[t / lanes]];
        unsigned l = t % lanes, x = t % 3, y = t / 3 % 2, z = t / 6;
        ck_assert_uint_eq(w->warp_id, t / lanes);
        if (t >= 18) {
            ck_assert(w->done[l]);
            continue;
        }
        ck_assert_uint_eq(w->reg[55][l], x | y << 16);
        ck_assert_uint_eq(w->reg[56][l], z);
        ck_assert_uint_eq(w->reg[57][l], 5);
        ck_assert_uint_eq(w->reg[58][l], 7);
        ck_assert_uint_eq(w->reg[59][l], 2);
        ck_assert_uint_eq(w->reg[60][l], 5 * 3 + x);
        ck_assert_uint_eq(w->reg[61][l], 7 * 2 + y);
        ck_assert_uint_eq(w->reg[62][l], 2 * 3 + z);
    }
    bi_wg_warps_free(&ws);
    bi_program_free(p);
}

/* Warp storage reused from one workgroup to the next: a workgroup of 16 threads runs exec_wg.s
 * (registers written), then one of 3 threads (fewer warps) waits at a barrier and stops: the
 * registers of its warp are zero again but for its preloads, as with fresh storage. */
static void check_wg_reuse(enum bi_arch arch)
{
    bi_mem mem = { .read = mem_read, .write = mem_write, .wls_base = 0x20000 };
    uint32_t uni[2] = { 0x10040, 0 };
    memset(gmem, 0, sizeof(gmem));
    memset(wmem, 0, sizeof(wmem));
    bi_program *p = bi_program_new(bi_shader_exec_wg, sizeof(bi_shader_exec_wg), arch);
    bi_program *stop = bi_program_new(bi_shader_exec_barrier_stop, sizeof(bi_shader_exec_barrier_stop), arch);
    ck_assert(p && stop);
    bi_wg_warps ws = { 0 };
    bi_workgroup wg = { .local_size = { 16, 1, 1 }, .wg_id = { 1, 0, 0 }, .uniforms = uni, .nuniforms = 2,
                        .mem = &mem, .max_clauses = 1000 };
    bi_fault f = { 0 };
    ck_assert_msg(bi_run_workgroup(&wg, p, &ws, NULL, &f) == BI_EXEC_END, "%s", f.msg);
    unsigned lanes = arch == BI_ARCH_V7 ? 8 : 4, used = 16 / lanes, written = 0;
    for (unsigned k = 0; k < used; k++)
        for (unsigned r = 0; r < 55; r++)
            for (unsigned l = 0; l < lanes; l++)
                written += ws.warps[k].reg[r][l] != 0;
    ck_assert_uint_gt(written, 0);            /* the shader left registers to clear */
    bi_workgroup wg2 = { .local_size = { 3, 1, 1 }, .wg_id = { 2, 0, 0 }, .max_clauses = 10 };
    ck_assert_int_eq(bi_run_workgroup(&wg2, stop, &ws, NULL, &f), BI_EXEC_FAULT);
    const bi_warp *w = &ws.warps[ws.slot[0]];
    for (unsigned r = 0; r < 64; r++)
        for (unsigned l = 0; l < BI_MAX_LANES; l++) {
            uint32_t want = 0;
            if (l < 3 && r >= 55 && r <= 62)
                want = r == 55 ? l : r == 57 ? 2 : r == 60 ? 6 + l : 0;
            ck_assert_msg(w->reg[r][l] == want, "r%u lane %u: %#x", r, l, w->reg[r][l]);
        }
    ck_assert_uint_eq(w->clauses_run, 1);
    ck_assert_uint_eq(w->barriers, 1);
    bi_wg_warps_free(&ws);
    bi_program_free(stop);
    bi_program_free(p);
}

/* Warps that end within their turn hand their slot to the next warp: exec_slots.s stores r1 as
 * each thread found it, then writes it.  Every thread must find zero (the slot cleared), in one
 * workgroup and in the next on the same storage; the stores are every thread's. */
static void check_wg_slots(enum bi_arch arch)
{
    bi_mem mem = { .read = mem_read, .write = mem_write, .wls_base = 0x20000 };
    uint32_t uni[2] = { 0x10040, 0 };
    bi_program *p = bi_program_new(bi_shader_exec_slots, sizeof(bi_shader_exec_slots), arch);
    ck_assert_ptr_nonnull(p);
    bi_wg_warps ws = { 0 };
    for (uint32_t g = 0; g < 2; g++) {
        memset(gmem, 0xa5, sizeof(gmem));
        bi_workgroup wg = { .local_size = { 16, 2, 1 }, .wg_id = { g, 0, 0 }, .uniforms = uni, .nuniforms = 2,
                            .mem = &mem, .max_clauses = 1000 };
        bi_wg_stats st;
        bi_fault f = { 0 };
        ck_assert_msg(bi_run_workgroup(&wg, p, &ws, &st, &f) == BI_EXEC_END, "%s", f.msg);
        unsigned lanes = arch == BI_ARCH_V7 ? 8 : 4;
        ck_assert_uint_eq(st.warps, 32 / lanes);
        ck_assert_uint_eq(st.clauses, 2 * st.warps);
        ck_assert_uint_eq(st.lane_clauses, 2 * 32);
        for (unsigned t = 0; t < 32; t++) {
            unsigned gid = 16 * g + t % 16;          /* (the y rows share global x ids) */
            ck_assert_msg(rd32(gmem + 0x40 + 4 * gid) == 0, "group %u thread %u: %#x", g, t,
                          rd32(gmem + 0x40 + 4 * gid));
        }
        ck_assert_uint_eq(rd32(gmem + 0x40 + 4 * (16 * g + 16)), 0xa5a5a5a5u);
    }
    bi_wg_warps_free(&ws);
    bi_program_free(p);
}

START_TEST(test_workgroup_slots)
{
    check_wg_slots(BI_ARCH_V6);
    check_wg_slots(BI_ARCH_V7);
}
END_TEST

START_TEST(test_workgroup_reuse)
{
    check_wg_reuse(BI_ARCH_V6);
    check_wg_reuse(BI_ARCH_V7);
}
END_TEST

START_TEST(test_workgroup_preload)
{
    check_wg_preload(BI_ARCH_V6);
    check_wg_preload(BI_ARCH_V7);
}
END_TEST

START_TEST(test_workgroup_v6) { check_wg(BI_ARCH_V6); }
END_TEST
START_TEST(test_workgroup_v7) { check_wg(BI_ARCH_V7); }
END_TEST

/* A WLS load after a store to the same address returns the stored value (program order), with the
 * load's staging register also its address register: the clauses of Mesa 25.0.7's scan_block
 * down-sweep (exec_wls_order.s), whose reordered load makes the guest's scan sample fail on
 * hardware semantics too.  One warp; off spreads the lanes' pairs over the 16 words of wmem. */
static void check_wls_order(enum bi_arch arch)
{
    bi_mem mem = { .read = mem_read, .write = mem_write, .wls_base = 0x20000 };
    uint32_t uni[2] = { 0x10, 0 }, before[16];
    bi_warp w;
    bi_warp_init(&w, arch);
    unsigned off = w.lanes == 8 ? 1 : 2;
    w.mem = &mem;
    w.uniforms = uni;
    w.nuniforms = 2;
    memset(wmem, 0, sizeof(wmem));
    for (unsigned i = 0; i < 12; i++) {       /* tmp[i] at WLS offset 0x10 + 4 i */
        before[i] = 1000 + 37 * i;
        memcpy(wmem + 0x10 + 4 * i, &before[i], 4);
    }
    for (unsigned l = 0; l < w.lanes; l++) {
        w.reg[0][l] = l;
        w.reg[8][l] = off;
    }
    /* 12 words hold tmp: the lanes whose pair would fall outside it are inactive */
    uint32_t exec_lanes = 0;
    for (unsigned l = 0; l < w.lanes; l++)
        if (off * (2 * l + 2) - 1 < 12)
            exec_lanes |= 1u << l;
    for (unsigned l = 0; l < w.lanes; l++)
        w.done[l] = !(exec_lanes & (1u << l));
    run(&w, bi_shader_exec_wls_order, sizeof(bi_shader_exec_wls_order));
    uint32_t want[12];
    memcpy(want, before, sizeof(want));
    for (unsigned l = 0; l < w.lanes; l++) {
        if (!(exec_lanes & (1u << l)))
            continue;
        unsigned ai = off * (2 * l + 1) - 1, bi = off * (2 * l + 2) - 1;
        want[ai] = before[bi];
        want[bi] = 2 * before[bi];
        ck_assert_uint_eq(w.reg[11][l], 0x10 + 4 * bi);
        ck_assert_uint_eq(w.reg[12][l], before[bi]);
        ck_assert_uint_eq(w.reg[10][l], 2 * before[bi]);
    }
    for (unsigned i = 0; i < 12; i++)
        ck_assert_msg(rd32(wmem + 0x10 + 4 * i) == want[i], "tmp[%u] = %u, want %u", i,
                      rd32(wmem + 0x10 + 4 * i), want[i]);
    ck_assert_uint_eq(rd32(wmem), 0);
}

START_TEST(test_wls_order_v6) { check_wls_order(BI_ARCH_V6); }
END_TEST
START_TEST(test_wls_order_v7) { check_wls_order(BI_ARCH_V7); }
END_TEST

START_TEST(test_misc)
{
    uint32_t seed = 99;
    static const uint32_t f32s[] = { 0x3fc00000, 0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fa00001,
                                     0x7fc00002, 0x00000001, 0x807fffff, 0x42f60000, 0xc2f70000, 0x3effffff };
    for (unsigned round = 0; round < 100; round++) {
        bi_warp w;
        bi_warp_init(&w, BI_ARCH_V7);
        for (unsigned l = 0; l < 8; l++) {
            for (unsigned r = 0; r < 4; r++) {
                seed = seed * 1103515245u + 12345u;
                w.reg[r][l] = (seed >> 5) ^ (seed << 21);
            }
            w.reg[2][l] = hvals[(seed >> 3) % 20] | (uint32_t)hvals[(seed >> 13) % 20] << 16;
            if (l & 1)
                w.reg[3][l] = f32s[(seed >> 7) % 12];
        }
        run(&w, bi_shader_exec_misc, sizeof(bi_shader_exec_misc));
        for (unsigned l = 0; l < 8; l++) {
            uint32_t a = w.reg[0][l], b = w.reg[1][l], h = w.reg[2][l], f = w.reg[3][l], want[23] = { 0 };
            for (unsigned k = 0; k < 4; k++) {
                uint32_t ab = (a >> (8 * k)) & 0xff, bb = (b >> (8 * k)) & 0xff;
                want[10] |= ((a >> (8 * (3 - k))) & 0xff) << (8 * k);
                want[11] |= (ab ? (uint32_t)__builtin_clz(ab) - 24 : 8) << (8 * k);
                want[14] |= (((ab + bb + 1) >> 1) & 0xff) << (8 * k);
            }
            for (unsigned j = 0; j < 2; j++) {
                int16_t aj = (int16_t)(a >> (16 * j)), bj = (int16_t)(b >> (16 * j));
                uint16_t hj = (uint16_t)(h >> (16 * j));
                want[12] |= ((uint32_t)(aj < 0 ? -aj : aj) & 0xffff) << (16 * j);
                want[13] |= ((uint32_t)(((int32_t)aj + bj) >> 1) & 0xffff) << (16 * j);
                uint16_t fr = hnan(hj) ? hj | 0x200 : hbits((_Float16)floorf((float)hval(hj)));
                want[15] |= (uint32_t)fr << (16 * j);
                want[16] |= (uint32_t)hbits((_Float16)(float)((a >> (8 * (j ? 3 : 2))) & 0xff)) << (16 * j);
            }
            float hv = (float)hval((uint16_t)(h >> 16));
            want[17] = hv != hv ? 0 : floorf(hv) >= 2147483647.0f ? 0x7fffffffu : floorf(hv) <= -2147483648.0f
                       ? 0x80000000u : (uint32_t)(int32_t)floorf(hv);
            want[18] = isnan_u(f) ? f | 0x400000 : f;
            want[19] = fb(logbf(bf(f)));
            want[20] = (uint32_t)ilogbf(bf(f));
            int e = 0;
            float m = frexpf(bf(f), &e);
            want[21] = (uint32_t)e;
            want[22] = isnan_u(f) ? f | 0x400000 : fb(m);
            for (unsigned r = 10; r < 23; r++)
                ck_assert_msg(w.reg[r][l] == want[r], "round %u lane %u (a=%#x b=%#x h=%#x f=%#x): r%u = %#x, want %#x",
                              round, l, a, b, h, f, r, w.reg[r][l], want[r]);
        }
    }
}
END_TEST

/* FRCP.f16 / FRSQ.f16 over every half (h0 and h1, abs and neg) are correctly rounded: the exact
 * result lies between the midpoints to the result's neighbours (m * x and m * m * x are exact in
 * double for 12-bit midpoints m); LD_GCLK reads the job's counters advanced by the tuples the
 * warp issued (4 before the first read, 5 before the second), held when they do not run. */
static double hmid(uint16_t r, int up)      /* midpoint between positive half r and its neighbour */
{
    uint16_t n = (uint16_t)(up ? r + 1 : r - 1);
    double v = (double)hval(r), nv = up && r == 0x7bff ? 65536.0 : (double)hval(n);
    return (v + nv) / 2;
}

static void check_rounded(uint16_t x, uint16_t r, int rsq)
{
    double xv = (double)hval(x);
    if (hnan(x)) {
        ck_assert_uint_eq(r, x | 0x200);
        return;
    }
    if (rsq && (x & 0x7fff) == 0) {
        ck_assert_uint_eq(r, (x & 0x8000) | 0x7c00);
        return;
    }
    if (rsq && (x & 0x8000)) {
        ck_assert_uint_eq(r, 0x7e00);
        return;
    }
    if (!rsq && (x & 0x7fff) == 0) {
        ck_assert_uint_eq(r, (x & 0x8000) | 0x7c00);
        return;
    }
    if ((x & 0x7fff) == 0x7c00) {
        ck_assert_uint_eq(r, rsq ? 0 : x & 0x8000);
        return;
    }
    ck_assert_msg((r & 0x8000) == (x & 0x8000), "%s(%#06x) = %#06x: sign", rsq ? "rsq" : "rcp", x, r);
    uint16_t ra = r & 0x7fff;
    double ax = fabs(xv);
    /* y = 1/ax (rcp) or 1/sqrt(ax) (rsq) lies in (lo, hi): m < y <=> m * ax < 1 (m * m * ax for rsq) */
#define BELOW(m) (rsq ? (m) * (m) * ax < 1.0 : (m) * ax < 1.0)
    if (ra == 0x7c00) {
        /* y >= 65520, the midpoint to the next binade (a tie rounds to even: infinity) */
        ck_assert_msg(rsq ? 65520.0 * 65520.0 * ax <= 1.0 : 65520.0 * ax <= 1.0, "%s(%#06x) = inf",
                      rsq ? "rsq" : "rcp", x);
        return;
    }
    ck_assert_msg(ra != 0 && ra < 0x7c00, "%s(%#06x) = %#06x", rsq ? "rsq" : "rcp", x, r);
    ck_assert_msg(BELOW(hmid(ra, 0)) && !BELOW(hmid(ra, 1)), "%s(%#06x) = %#06x: not correctly rounded",
                  rsq ? "rsq" : "rcp", x, r);
#undef BELOW
}

START_TEST(test_f16_special_and_clock)
{
    bi_mem mem = { .clock_cycles = 1000, .clock_ts = 50, .gpu_hz = 2, .ts_hz = 4, .clock_running = 1 };
    for (unsigned base = 0; base < 0x10000; base += 16) {
        bi_warp w;
        bi_warp_init(&w, BI_ARCH_V7);
        w.mem = &mem;
        for (unsigned l = 0; l < 8; l++)
            w.reg[2][l] = (base + 2 * l) | (uint32_t)(base + 2 * l + 1) << 16;
        run(&w, bi_shader_exec_f16_clock, sizeof(bi_shader_exec_f16_clock));
        for (unsigned l = 0; l < 8; l++) {
            uint16_t h0 = (uint16_t)(base + 2 * l), h1 = (uint16_t)(h0 + 1);
            for (unsigned r = 10; r <= 13; r++)
                ck_assert_msg((w.reg[r][l] >> 16) == (w.reg[r][l] & 0xffff), "r%u = %#x: halves differ", r, w.reg[r][l]);
            check_rounded(h0, (uint16_t)w.reg[10][l], 0);
            check_rounded(h1, (uint16_t)w.reg[11][l], 1);
            check_rounded((uint16_t)((h0 & 0x7fff) | 0x8000), (uint16_t)w.reg[12][l], 1);
            check_rounded((uint16_t)(h1 ^ 0x8000), (uint16_t)w.reg[13][l], 0);
            ck_assert_uint_eq(w.reg[14][l] | (uint64_t)w.reg[15][l] << 32, 1004);
            ck_assert_uint_eq(w.reg[16][l] | (uint64_t)w.reg[17][l] << 32, 60);
        }
    }
    /* cycle counting off: the counters hold */
    mem.clock_running = 0;
    bi_warp w;
    bi_warp_init(&w, BI_ARCH_V6);
    w.mem = &mem;
    run(&w, bi_shader_exec_f16_clock, sizeof(bi_shader_exec_f16_clock));
    ck_assert_uint_eq(w.reg[14][0], 1000);
    ck_assert_uint_eq(w.reg[16][3], 50);
}
END_TEST

START_TEST(test_branch2)
{
    static const uint32_t r0[8] = { 1, 5, 0xffffffff, 7, 0x80000000, 3, 0, 9 };
    static const uint32_t r1[8] = { 2, 5, 1, 0x80000000, 0, 4, 0xffffffff, 9 };
    static const uint32_t r2[8] = { 0x3f800000, 0x00000000, 0x80000000, 0xbf800000, 0x7fc00000, 0xff800000,
                                    0x00000001, 0x80000001 };
    bi_warp w;
    bi_warp_init(&w, BI_ARCH_V7);
    for (unsigned l = 0; l < 8; l++) {
        w.reg[0][l] = r0[l];
        w.reg[1][l] = r1[l];
        w.reg[2][l] = r2[l];
    }
    run(&w, bi_shader_exec_branch2, sizeof(bi_shader_exec_branch2));
    for (unsigned l = 0; l < 8; l++) {
        ck_assert_uint_eq(w.reg[5][l], (int32_t)r0[l] < (int32_t)r1[l] ? 1 : 2);
        ck_assert_uint_eq(w.reg[6][l], bf(r2[l]) <= 0.0f ? 3 : 4);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("bifrost_exec");
    TCase *tc = tcase_create("exec");
    tcase_set_timeout(tc, 60);   /* exhaustive f16 checks, slower under ASan on a loaded host */
    tcase_add_test(tc, test_int_v7);
    tcase_add_test(tc, test_int_v6);
    tcase_add_test(tc, test_float);
    tcase_add_test(tc, test_lanes_v6);
    tcase_add_test(tc, test_lanes_v7);
    tcase_add_test(tc, test_cube_v6);
    tcase_add_test(tc, test_cube_v7);
    tcase_add_test(tc, test_branch);
    tcase_add_test(tc, test_timing);
    tcase_add_test(tc, test_memory);
    tcase_add_test(tc, test_f32_to_f16);
    tcase_add_test(tc, test_vec);
    tcase_add_test(tc, test_vec2);
    tcase_add_test(tc, test_misc);
    tcase_add_test(tc, test_branch2);
    tcase_add_test(tc, test_f16_special_and_clock);
    tcase_add_test(tc, test_axchg);
    tcase_add_test(tc, test_clper_v7);
    tcase_add_test(tc, test_clper_v6);
    tcase_add_test(tc, test_refused);
    tcase_add_test(tc, test_seg_add);
    tcase_add_test(tc, test_workgroup_preload);
    tcase_add_test(tc, test_workgroup_reuse);
    tcase_add_test(tc, test_workgroup_slots);
    tcase_add_test(tc, test_workgroup_v6);
    tcase_add_test(tc, test_workgroup_v7);
    tcase_add_test(tc, test_wls_order_v6);
    tcase_add_test(tc, test_wls_order_v7);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
