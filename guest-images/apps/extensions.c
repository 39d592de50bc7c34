/* extensions: the OpenCL extensions the device offers that change what kernels can do, each used
 * and checked against the CPU; an extension the device does not list is reported as not offered
 * (rusticl on panfrost offers them with Mesa 26.1, not with 25.0).
 *
 *   extensions [-d DEVICE] [N]                 (default N = 4096 inputs per check)
 *
 *   cl_khr_fp16                 half add, sub, mul, fma, min, max, compares and conversions from
 *                               and to float / int (saturating) (bit-exact: correctly rounded); half division
 *                               within 1 ulp, sqrt within 1.5 ulp (Mesa 26.1 on Bifrost computes
 *                               it as FRCP.f16(FRSQ.f16(x)): two rounded steps), or 0 for a
 *                               denormal result on a device without half denormals
 *   cl_khr_extended_bit_ops     bitfield_insert, bitfield_extract_signed / _unsigned, bit_reverse
 *   cl_khr_integer_dot_product  dot and dot_acc_sat of packed 8-bit vectors, every signedness
 *   cl_khr_kernel_clock         clock_read_device / _work_group / _sub_group (as the device's
 *                               features allow): never decreasing around a loop of work
 *   cl_khr_3d_image_writes      write_imagef / write_imageui to a 3D image, read back
 *   cl_khr_depth_images         CL_DEPTH images (float, unorm16) read and written
 *   cl_ext_image_unorm_int_2_101010  10:10:10:2 images read (within 1.5 ulp) and written
 *   cl_khr_priority_hints       kernels on high- and low-priority queues
 * A device offering none of them is a SKIP (exit status 77).
 */
#include "common.h"
#include <CL/cl_ext.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int offered(app_t *a, const char *ext)
{
    static char list[8192];
    if (clGetDeviceInfo(a->device, CL_DEVICE_EXTENSIONS, sizeof list - 1, list, NULL) != CL_SUCCESS)
        return 0;
    size_t n = strlen(ext);
    for (const char *p = strstr(list, ext); p; p = strstr(p + 1, ext))
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

/* The kernel `name` of a program built from src, or NULL (the build log was printed). */
static cl_kernel build_kernel(app_t *a, const char *src, const char *name)
{
    cl_program p = app_build(a, src, NULL);
    return p ? app_kernel(a, p, name) : NULL;
}

/* ---- cl_khr_fp16 ------------------------------------------------------------------------------ */

static const char *fp16_src =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "__kernel void halves(__global const half *a, __global const half *b, __global const half *c,\n"
    "                     __global half *out, __global int *cmp, __global float *wide,\n"
    "                     __global int *ints, __global const float *f, __global half *narrow, uint n)\n"
    "{\n"
    "    uint i = get_global_id(0);\n"
    "    if (i >= n)\n"
    "        return;\n"
    "    half x = a[i], y = b[i], z = c[i];\n"
    "    out[8 * i + 0] = x + y;\n"
    "    out[8 * i + 1] = x - y;\n"
    "    out[8 * i + 2] = x * y;\n"
    "    out[8 * i + 3] = fma(x, y, z);\n"
    "    out[8 * i + 4] = fmin(x, y);\n"
    "    out[8 * i + 5] = fmax(x, y);\n"
    "    out[8 * i + 6] = x / y;\n"
    "    out[8 * i + 7] = sqrt(fabs(x));\n"
    "    cmp[i] = (x < y) | (x == y) << 1 | (x > y) << 2;\n"
    "    wide[i] = (float)x;\n"
    "    ints[i] = convert_int_sat_rtz(x);\n"
    "    narrow[i] = convert_half_rte(f[i]);\n"
    "}\n";

static uint16_t h_bits(_Float16 h) { uint16_t u; memcpy(&u, &h, 2); return u; }
static _Float16 h_of(uint16_t u) { _Float16 h; memcpy(&h, &u, 2); return h; }
static int h_nan(uint16_t u) { return (u & 0x7c00) == 0x7c00 && (u & 0x3ff); }

/* Finite halves of moderate range with every exponent and rounding situation, a few specials. */
static uint16_t gen_half(app_rng *r, unsigned i)
{
    static const uint16_t special[] = { 0x0000, 0x8000, 0x3c00, 0xbc00, 0x7bff, 0x0001, 0x03ff, 0x7c00, 0xfc00 };
    if (i < sizeof special / sizeof special[0])
        return special[i];
    uint16_t u;
    do
        u = (uint16_t)app_rand_u32(r);
    while ((u & 0x7c00) == 0x7c00);             /* no NaN / infinity from here */
    return u;
}

/* ulp of the half nearest to x (at least the smallest subnormal) */
static double half_ulp(double x)
{
    double ax = fabs(x);
    if (ax < 0x1p-14)
        return 0x1p-24;
    int e;
    frexp(ax, &e);
    return ldexp(1.0, e - 11);
}

static int check_fp16(app_t *a, unsigned n)
{
    cl_kernel k = build_kernel(a, fp16_src, "halves");
    if (!k)
        return 1;
    app_rng r;
    app_rng_seed(&r, 16);
    uint16_t *ha = malloc(n * 2), *hb = malloc(n * 2), *hc = malloc(n * 2), *out = malloc(n * 16), *narrow = malloc(n * 2);
    uint16_t *want = malloc(n * 16), *wnarrow = malloc(n * 2);
    int32_t *cmp = malloc(n * 4), *wcmp = malloc(n * 4), *ints = malloc(n * 4), *wints = malloc(n * 4);
    float *wide = malloc(n * 4), *wwide = malloc(n * 4), *f = malloc(n * 4);
    for (unsigned i = 0; i < n; i++) {
        ha[i] = gen_half(&r, i);
        hb[i] = gen_half(&r, (i + 3) % 9 == 0 ? i % 9 : 100);
        hc[i] = gen_half(&r, 100);
        uint32_t fb = app_rand_u32(&r) % 0x47800000u;      /* |f| < 65536: inside half's range */
        fb |= (i & 1) << 31;
        memcpy(&f[i], &fb, 4);
    }
    cl_mem ba = app_buffer(a, CL_MEM_READ_ONLY, n * 2, ha), bb = app_buffer(a, CL_MEM_READ_ONLY, n * 2, hb);
    cl_mem bc = app_buffer(a, CL_MEM_READ_ONLY, n * 2, hc), bf = app_buffer(a, CL_MEM_READ_ONLY, n * 4, f);
    cl_mem bo = app_buffer(a, CL_MEM_WRITE_ONLY, n * 16, NULL), bcmp = app_buffer(a, CL_MEM_WRITE_ONLY, n * 4, NULL);
    cl_mem bw = app_buffer(a, CL_MEM_WRITE_ONLY, n * 4, NULL), bi = app_buffer(a, CL_MEM_WRITE_ONLY, n * 4, NULL);
    cl_mem bn = app_buffer(a, CL_MEM_WRITE_ONLY, n * 2, NULL);
    size_t global = app_round_up(n, 64), wg = app_wg(a, k, 64);
    int bad = 1;
    if (!ba || !bb || !bc || !bf || !bo || !bcmp || !bw || !bi || !bn ||
        app_args(a, k, sizeof ba, &ba, sizeof bb, &bb, sizeof bc, &bc, sizeof bo, &bo, sizeof bcmp, &bcmp,
                 sizeof bw, &bw, sizeof bi, &bi, sizeof bf, &bf, sizeof bn, &bn, sizeof n, &n, (size_t)0) ||
        app_run(a, k, 1, &global, &wg, NULL) || app_read(a, bo, n * 16, out) || app_read(a, bcmp, n * 4, cmp) ||
        app_read(a, bw, n * 4, wide) || app_read(a, bi, n * 4, ints) || app_read(a, bn, n * 2, narrow))
        goto out;
    /* without CL_FP_DENORM for half the device may flush denormal results to zero */
    cl_device_fp_config hcfg = 0;
    clGetDeviceInfo(a->device, CL_DEVICE_HALF_FP_CONFIG, sizeof hcfg, &hcfg, NULL);
    int flush = !(hcfg & CL_FP_DENORM);
    size_t wrong = 0, approx_bad = 0;
    for (unsigned i = 0; i < n; i++) {
        _Float16 x = h_of(ha[i]), y = h_of(hb[i]), z = h_of(hc[i]);
        /* correctly rounded references: the exact value (long double holds it) rounded once */
        long double lx = x, ly = y, lz = z;
        want[8 * i + 0] = h_bits((_Float16)(lx + ly));
        want[8 * i + 1] = h_bits((_Float16)(lx - ly));
        want[8 * i + 2] = h_bits((_Float16)(lx * ly));
        want[8 * i + 3] = h_bits((_Float16)(lx * ly + lz));
        want[8 * i + 4] = h_bits(y < x ? y : x);
        want[8 * i + 5] = h_bits(y > x ? y : x);
        wcmp[i] = (x < y) | (x == y) << 1 | (x > y) << 2;
        wwide[i] = (float)x;
        double dx = (double)x;
        wints[i] = dx != dx ? 0 : dx >= 2147483647.0 ? INT32_MAX : dx <= -2147483648.0 ? INT32_MIN : (int32_t)dx;
        wnarrow[i] = h_bits((_Float16)f[i]);
        /* division and square root: within 1 ulp of the exact result, specials exact */
        for (int o = 6; o < 8; o++) {
            double ref = o == 6 ? (double)x / (double)y : sqrt(fabs((double)x));
            uint16_t g = out[8 * i + o];
            double gv = (double)h_of(g);
            int ok;
            if (isnan(ref))
                ok = h_nan(g);
            else if (isinf(ref) || fabs(ref) > 65504.0 + 16.0)
                ok = isinf(gv) && signbit(gv) == signbit(ref);
            else
                ok = !h_nan(g) && (fabs(gv - ref) <= (o == 6 ? 1.0 : 1.5) * half_ulp(ref) ||
                                   (flush && gv == 0.0 && fabs(ref) < 0x1p-14));
            if (!ok && approx_bad++ < 8)
                app_log(a, "fp16: %s = %a, want %a within %s ulp", o == 6 ? "div" : "sqrt", gv, ref,
                        o == 6 ? "1" : "1.5");
        }
    }
    for (unsigned i = 0; i < n; i++)
        for (int o = 0; o < 6; o++)
            if (out[8 * i + o] != want[8 * i + o] &&
                !(h_nan(out[8 * i + o]) && h_nan(want[8 * i + o])) && wrong++ < 8)
                app_log(a, "fp16: op %d of (%#06x, %#06x, %#06x) = %#06x, want %#06x", o, ha[i], hb[i], hc[i],
                        out[8 * i + o], want[8 * i + o]);
    if (wrong)
        app_log(a, "fp16: %zu of %u wrong (add sub mul fma min max)", wrong, 6 * n);
    if (approx_bad)
        app_log(a, "fp16: %zu of %u division / sqrt results outside 1 ulp", approx_bad, 2 * n);
    bad = wrong != 0 || approx_bad != 0;
    bad |= app_check_i32(a, "fp16.compare", cmp, wcmp, n) != 0;
    bad |= app_check_f32(a, "fp16.to_float", wide, wwide, n) != 0;
    bad |= app_check_i32(a, "fp16.to_int_sat_rtz", ints, wints, n) != 0;
    size_t nw = 0;
    for (unsigned i = 0; i < n; i++)
        if (narrow[i] != wnarrow[i] && nw++ < 8)
            app_log(a, "fp16: convert_half_rte(%a) = %#06x, want %#06x", (double)f[i], narrow[i], wnarrow[i]);
    bad |= nw != 0;
out:
    free(ha), free(hb), free(hc), free(out), free(narrow), free(want), free(wnarrow);
    free(cmp), free(wcmp), free(ints), free(wints), free(wide), free(wwide), free(f);
    return bad;
}

/* ---- cl_khr_extended_bit_ops -------------------------------------------------------------------- */

static const char *bits_src =
    "__kernel void bits(__global const uint *x, __global const uint *y, __global uint *out, uint n)\n"
    "{\n"
    "    uint i = get_global_id(0);\n"
    "    if (i >= n)\n"
    "        return;\n"
    "    uint a = x[i], b = y[i], off = b & 31, cnt = (b >> 8) % (33 - off);\n"
    "    out[4 * i + 0] = bitfield_insert(a, b, off, cnt);\n"
    "    out[4 * i + 1] = as_uint(bitfield_extract_signed(a, off, cnt));\n"
    "    out[4 * i + 2] = bitfield_extract_unsigned(a, off, cnt);\n"
    "    out[4 * i + 3] = bit_reverse(a);\n"
    "}\n";

static int check_bits(app_t *a, unsigned n)
{
    cl_kernel k = build_kernel(a, bits_src, "bits");
    if (!k)
        return 1;
    app_rng r;
    app_rng_seed(&r, 17);
    uint32_t *x = malloc(n * 4), *y = malloc(n * 4), *got = malloc(n * 16), *want = malloc(n * 16);
    for (unsigned i = 0; i < n; i++) {
        x[i] = app_rand_u32(&r);
        y[i] = app_rand_u32(&r);
        uint32_t av = x[i], b = y[i], off = b & 31, cnt = (b >> 8) % (33 - off);
        uint32_t mask = cnt == 32 ? ~0u : ((1u << cnt) - 1) << off;
        want[4 * i + 0] = (av & ~mask) | ((b << off) & mask);
        uint32_t field = cnt == 0 ? 0 : (uint32_t)((uint64_t)av >> off) & (cnt == 32 ? ~0u : (1u << cnt) - 1);
        want[4 * i + 2] = field;
        want[4 * i + 1] = cnt == 0 ? 0 : cnt == 32 ? field : (uint32_t)((int32_t)(field << (32 - cnt)) >> (32 - cnt));
        uint32_t rev = 0;
        for (int j = 0; j < 32; j++)
            rev |= ((av >> j) & 1u) << (31 - j);
        want[4 * i + 3] = rev;
    }
    cl_mem bx = app_buffer(a, CL_MEM_READ_ONLY, n * 4, x), by = app_buffer(a, CL_MEM_READ_ONLY, n * 4, y);
    cl_mem bo = app_buffer(a, CL_MEM_WRITE_ONLY, n * 16, NULL);
    size_t global = app_round_up(n, 64), wg = app_wg(a, k, 64);
    int bad = 1;
    if (bx && by && bo &&
        !app_args(a, k, sizeof bx, &bx, sizeof by, &by, sizeof bo, &bo, sizeof n, &n, (size_t)0) &&
        !app_run(a, k, 1, &global, &wg, NULL) && !app_read(a, bo, n * 16, got))
        bad = app_check_u32(a, "extended_bit_ops", got, want, 4 * (size_t)n) != 0;
    free(x), free(y), free(got), free(want);
    return bad;
}

/* ---- cl_khr_integer_dot_product ------------------------------------------------------------------ */

static const char *dot_src =
    "__kernel void dots(__global const uint *x, __global const uint *y, __global const int *acc,\n"
    "                   __global int *out, uint n)\n"
    "{\n"
    "    uint i = get_global_id(0);\n"
    "    if (i >= n)\n"
    "        return;\n"
    "    uchar4 ua = as_uchar4(x[i]), ub = as_uchar4(y[i]);\n"
    "    char4 sa = as_char4(x[i]), sb = as_char4(y[i]);\n"
    "    out[6 * i + 0] = (int)dot(ua, ub);\n"
    "    out[6 * i + 1] = dot(sa, sb);\n"
    "    out[6 * i + 2] = dot(sa, ub);\n"
    "    out[6 * i + 3] = dot_acc_sat(sa, sb, acc[i]);\n"
    "    out[6 * i + 4] = (int)dot_acc_sat(ua, ub, (uint)acc[i]);\n"
    "    out[6 * i + 5] = (int)dot_4x8packed_uu_uint(x[i], y[i]);\n"
    "}\n";

static int check_dot(app_t *a, unsigned n)
{
    cl_kernel k = build_kernel(a, dot_src, "dots");
    if (!k)
        return 1;
    app_rng r;
    app_rng_seed(&r, 18);
    uint32_t *x = malloc(n * 4), *y = malloc(n * 4);
    int32_t *acc = malloc(n * 4), *got = malloc(n * 24), *want = malloc(n * 24);
    for (unsigned i = 0; i < n; i++) {
        x[i] = app_rand_u32(&r);
        y[i] = app_rand_u32(&r);
        /* accumulators near both ends so that the saturating forms saturate */
        uint32_t s = app_rand_u32(&r);
        acc[i] = (int32_t)(i % 4 == 0 ? 0x7fff0000u + (s & 0xffffff) : i % 4 == 1 ? 0x80000000u + (s & 0xfffff) : s);
        int64_t uu = 0, ss = 0, su = 0;
        for (int j = 0; j < 4; j++) {
            uint8_t ua = (uint8_t)(x[i] >> (8 * j)), ub = (uint8_t)(y[i] >> (8 * j));
            uu += (int64_t)ua * ub;
            ss += (int64_t)(int8_t)ua * (int8_t)ub;
            su += (int64_t)(int8_t)ua * ub;
        }
        int64_t sat = ss + acc[i];
        uint64_t usat = (uint64_t)uu + (uint32_t)acc[i];
        want[6 * i + 0] = (int32_t)uu;
        want[6 * i + 1] = (int32_t)ss;
        want[6 * i + 2] = (int32_t)su;
        want[6 * i + 3] = sat > INT32_MAX ? INT32_MAX : sat < INT32_MIN ? INT32_MIN : (int32_t)sat;
        want[6 * i + 4] = (int32_t)(usat > UINT32_MAX ? UINT32_MAX : (uint32_t)usat);
        want[6 * i + 5] = (int32_t)uu;
    }
    cl_mem bx = app_buffer(a, CL_MEM_READ_ONLY, n * 4, x), by = app_buffer(a, CL_MEM_READ_ONLY, n * 4, y);
    cl_mem bacc = app_buffer(a, CL_MEM_READ_ONLY, n * 4, acc), bo = app_buffer(a, CL_MEM_WRITE_ONLY, n * 24, NULL);
    size_t global = app_round_up(n, 64), wg = app_wg(a, k, 64);
    int bad = 1;
    if (bx && by && bacc && bo &&
        !app_args(a, k, sizeof bx, &bx, sizeof by, &by, sizeof bacc, &bacc, sizeof bo, &bo, sizeof n, &n, (size_t)0) &&
        !app_run(a, k, 1, &global, &wg, NULL) && !app_read(a, bo, n * 24, got))
        bad = app_check_i32(a, "integer_dot_product", got, want, 6 * (size_t)n) != 0;
    free(x), free(y), free(acc), free(got), free(want);
    return bad;
}

/* ---- cl_khr_kernel_clock --------------------------------------------------------------------------- */

static const char *clock_src =
    "#pragma OPENCL EXTENSION cl_khr_kernel_clock : enable\n"
    "#if defined(__opencl_c_kernel_clock_scope_device)\n"
    "#define CLOCK() clock_read_device()\n"
    "#elif defined(__opencl_c_kernel_clock_scope_work_group)\n"
    "#define CLOCK() clock_read_work_group()\n"
    "#else\n"
    "#define CLOCK() clock_read_sub_group()\n"
    "#endif\n"
    "__kernel void clocks(__global ulong *out, __global uint *sink, uint iters)\n"
    "{\n"
    "    uint i = get_global_id(0), x = i;\n"
    "    ulong t0 = CLOCK();\n"
    "    for (uint k = 0; k < iters; k++)\n"
    "        x = x * 1664525u + 1013904223u;\n"
    "    sink[i] = x;\n"
    "    ulong t1 = CLOCK();\n"
    "    out[2 * i] = t0;\n"
    "    out[2 * i + 1] = t1;\n"
    "}\n";

static int check_clock(app_t *a, unsigned n)
{
    (void)n;
    cl_kernel k = build_kernel(a, clock_src, "clocks");
    if (!k)
        return 1;
    enum { N = 256 };
    cl_uint iters = 2000;
    uint64_t t[2 * N];
    uint32_t sink[N], want[N];
    for (unsigned i = 0; i < N; i++) {
        uint32_t x = i;
        for (cl_uint j = 0; j < iters; j++)
            x = x * 1664525u + 1013904223u;
        want[i] = x;
    }
    cl_mem bt = app_buffer(a, CL_MEM_WRITE_ONLY, sizeof t, NULL), bs = app_buffer(a, CL_MEM_WRITE_ONLY, sizeof sink, NULL);
    size_t global = N, wg = app_wg(a, k, 64);
    if (!bt || !bs || app_args(a, k, sizeof bt, &bt, sizeof bs, &bs, sizeof iters, &iters, (size_t)0) ||
        app_run(a, k, 1, &global, &wg, NULL) || app_read(a, bt, sizeof t, t) || app_read(a, bs, sizeof sink, sink))
        return 1;
    int bad = app_check_u32(a, "kernel_clock.work", sink, want, N) != 0;
    unsigned backwards = 0, moved = 0;
    for (unsigned i = 0; i < N; i++) {
        backwards += t[2 * i + 1] < t[2 * i];
        moved += t[2 * i + 1] > t[2 * i];
    }
    app_log(a, "kernel_clock: work-item 0 read %llu then %llu; %u of %d clocks moved, %u went backwards",
            (unsigned long long)t[0], (unsigned long long)t[1], moved, N, backwards);
    if (backwards || moved == 0 || t[0] == 0) {
        app_log(a, "kernel_clock: the clock must be non-zero, never decrease, and move across %u steps", iters);
        bad = 1;
    }
    return bad;
}

/* ---- cl_khr_3d_image_writes ------------------------------------------------------------------------ */

static const char *img3d_src =
    "#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable\n"
    "__kernel void fill(__write_only image3d_t f, __write_only image3d_t u)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
    "    float v = (float)((x * 7 + y * 13 + z * 29) % 256) / 255.0f;\n"
    "    write_imagef(f, (int4)(x, y, z, 0), (float4)(v, 1.0f - v, 0.5f, 1.0f));\n"
    "    write_imageui(u, (int4)(x, y, z, 0), (uint4)(x + 1000 * z, y * 3, z + 70000, 0));\n"
    "}\n";

static int check_img3d(app_t *a, unsigned n)
{
    (void)n;
    enum { W = 19, H = 7, D = 5 };
    cl_kernel k = build_kernel(a, img3d_src, "fill");
    if (!k)
        return 1;
    cl_image_format f8 = { CL_RGBA, CL_UNORM_INT8 }, u16 = { CL_RGBA, CL_UNSIGNED_INT16 };
    cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = W, .image_height = H, .image_depth = D };
    cl_mem i8 = app_image(a, CL_MEM_WRITE_ONLY, &f8, &d, NULL), i16 = app_image(a, CL_MEM_WRITE_ONLY, &u16, &d, NULL);
    static uint8_t got8[W * H * D * 4], want8[W * H * D * 4];
    static uint16_t got16[W * H * D * 4], want16[W * H * D * 4];
    size_t global[3] = { W, H, D };
    if (!i8 || !i16 || app_args(a, k, sizeof i8, &i8, sizeof i16, &i16, (size_t)0) ||
        app_run(a, k, 3, global, NULL, NULL) || app_read_image(a, i8, W, H, D, got8) ||
        app_read_image(a, i16, W, H, D, got16))
        return 1;
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                size_t o = 4 * ((size_t)(z * H + y) * W + x);
                unsigned c = (unsigned)((x * 7 + y * 13 + z * 29) % 256);
                /* c / 255 and 1 - c / 255 convert back to c and 255 - c (exact: OpenCL's rte) */
                want8[o + 0] = (uint8_t)c, want8[o + 1] = (uint8_t)(255 - c), want8[o + 2] = 128, want8[o + 3] = 255;
                want16[o + 0] = (uint16_t)(x + 1000 * z), want16[o + 1] = (uint16_t)(y * 3);
                want16[o + 2] = 65535, want16[o + 3] = 0;          /* z + 70000 saturates */
            }
    int bad = app_check_u8(a, "3d_image_writes.unorm8", got8, want8, sizeof got8) != 0;
    uint32_t g32[W * H * D * 4], w32[W * H * D * 4];
    for (size_t i = 0; i < W * H * D * 4; i++)
        g32[i] = got16[i], w32[i] = want16[i];
    bad |= app_check_u32(a, "3d_image_writes.uint16", g32, w32, W * H * D * 4) != 0;
    return bad;
}

/* ---- cl_khr_depth_images, cl_ext_image_unorm_int_2_101010 --------------------------------------- */

#ifndef CL_UNORM_INT_2_101010_EXT
#define CL_UNORM_INT_2_101010_EXT 0x10E5
#endif

static const char *depth_src =
    "__kernel void depth(__read_only image2d_depth_t f, __read_only image2d_depth_t u,\n"
    "                    __write_only image2d_depth_t w, __global float *out)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1), i = y * get_global_size(0) + x;\n"
    "    out[2 * i] = read_imagef(f, (int2)(x, y));\n"
    "    out[2 * i + 1] = read_imagef(u, (int2)(x, y));\n"
    "    write_imagef(w, (int2)(x, y), (float)i / 1024.0f);\n"
    "}\n";

static const char *packed_src =
    "__kernel void packed(__read_only image2d_t p, __write_only image2d_t w, __global float4 *out)\n"
    "{\n"
    "    int x = get_global_id(0), y = get_global_id(1), i = y * get_global_size(0) + x;\n"
    "    float4 v = read_imagef(p, (int2)(x, y));\n"
    "    out[i] = v;\n"
    "    write_imagef(w, (int2)(x, y), v.wzyx);\n"
    "}\n";

enum { IW = 13, IH = 6 };

static int check_depth(app_t *a, unsigned n)
{
    (void)n;
    cl_kernel k = build_kernel(a, depth_src, "depth");
    if (!k)
        return 1;
    float fd[IW * IH], got[2 * IW * IH], want[2 * IW * IH], wd[IW * IH], wwd[IW * IH];
    uint16_t ud[IW * IH];
    for (int i = 0; i < IW * IH; i++) {
        fd[i] = (float)(i * 37 % 101) / 100.0f - 0.25f;     /* CL_FLOAT depth: any value */
        ud[i] = (uint16_t)(i * 2731u);
        want[2 * i] = fd[i];
        want[2 * i + 1] = (float)((double)ud[i] / 65535.0);
        wwd[i] = (float)i / 1024.0f;
    }
    cl_image_format ff = { CL_DEPTH, CL_FLOAT }, fu = { CL_DEPTH, CL_UNORM_INT16 };
    cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = IW, .image_height = IH };
    cl_mem i_f = app_image(a, CL_MEM_READ_ONLY, &ff, &d, fd), i_u = app_image(a, CL_MEM_READ_ONLY, &fu, &d, ud);
    cl_mem i_w = app_image(a, CL_MEM_WRITE_ONLY, &ff, &d, NULL);
    cl_mem out = app_buffer(a, CL_MEM_WRITE_ONLY, sizeof got, NULL);
    size_t global[2] = { IW, IH };
    if (!i_f || !i_u || !i_w || !out ||
        app_args(a, k, sizeof i_f, &i_f, sizeof i_u, &i_u, sizeof i_w, &i_w, sizeof out, &out, (size_t)0) ||
        app_run(a, k, 2, global, NULL, NULL) || app_read(a, out, sizeof got, got) ||
        app_read_image(a, i_w, IW, IH, 1, wd))
        return 1;
    int bad = app_check_f32(a, "depth_images.read", got, want, 2 * IW * IH) != 0;
    bad |= app_check_f32(a, "depth_images.write", wd, wwd, IW * IH) != 0;
    return bad;
}

/* RGBA with 10-bit R, G, B and 2-bit A packed in 32 bits (R in the low bits) */
static int check_packed(app_t *a, unsigned n)
{
    (void)n;
    cl_kernel k = build_kernel(a, packed_src, "packed");
    if (!k)
        return 1;
    uint32_t px[IW * IH], wpx[IW * IH], gpx[IW * IH];
    float got[4 * IW * IH], want[4 * IW * IH];
    double ref[4 * IW * IH];
    for (int i = 0; i < IW * IH; i++) {
        px[i] = (uint32_t)i * 0x9e3779b9u;
        unsigned c[4] = { px[i] & 1023, px[i] >> 10 & 1023, px[i] >> 20 & 1023, px[i] >> 30 };
        for (int j = 0; j < 4; j++) {
            ref[4 * i + j] = (double)c[j] / (j < 3 ? 1023.0 : 3.0);
            want[4 * i + j] = (float)ref[4 * i + j];
        }
        /* written back reversed (w, z, y, x): each converted with round to nearest */
        unsigned r[4];
        for (int j = 0; j < 4; j++) {
            double v = (double)want[4 * i + (3 - j)] * (j < 3 ? 1023.0 : 3.0);
            r[j] = (unsigned)nearbyint(v);
        }
        wpx[i] = r[0] | r[1] << 10 | r[2] << 20 | r[3] << 30;
    }
    /* the channel order the device pairs with the packed type */
    cl_image_format fmts[256], f = { 0, CL_UNORM_INT_2_101010_EXT };
    cl_uint nf = 0;
    clGetSupportedImageFormats(a->ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 256, fmts, &nf);
    for (cl_uint i = 0; i < nf && i < 256; i++)
        if (fmts[i].image_channel_data_type == CL_UNORM_INT_2_101010_EXT)
            app_log(a, "unorm_int_2_101010: channel order %#x", fmts[i].image_channel_order), f.image_channel_order = fmts[i].image_channel_order;
    if (!f.image_channel_order) {
        app_log(a, "unorm_int_2_101010: no read-write 2D image format with this type");
        return 1;
    }
    cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = IW, .image_height = IH };
    cl_mem src = app_image(a, CL_MEM_READ_ONLY, &f, &d, px), dst = app_image(a, CL_MEM_WRITE_ONLY, &f, &d, NULL);
    cl_mem out = app_buffer(a, CL_MEM_WRITE_ONLY, sizeof got, NULL);
    size_t global[2] = { IW, IH };
    if (!src || !dst || !out || app_args(a, k, sizeof src, &src, sizeof dst, &dst, sizeof out, &out, (size_t)0) ||
        app_run(a, k, 2, global, NULL, NULL) || app_read(a, out, sizeof got, got) ||
        app_read_image(a, dst, IW, IH, 1, gpx))
        return 1;
    /* normalized to float: within 1.5 ulp (the spec's bound; llvmpipe is 1 ulp off on some) */
    int bad = app_check_f32_ulp(a, "unorm_int_2_101010.read", got, ref, 4 * IW * IH, 1.5) != 0;
    bad |= app_check_u32(a, "unorm_int_2_101010.write", gpx, wpx, IW * IH) != 0;
    return bad;
}

/* ---- cl_khr_priority_hints -------------------------------------------------------------------------- */

static const char *prio_src =
    "__kernel void sq(__global uint *x) { uint i = get_global_id(0); x[i] = i * i + 1u; }\n";

static int check_priority(app_t *a, unsigned n)
{
    (void)n;
    enum { N = 1024 };
    cl_kernel k = build_kernel(a, prio_src, "sq");
    if (!k)
        return 1;
    static const cl_queue_priority_khr prio[] = { CL_QUEUE_PRIORITY_HIGH_KHR, CL_QUEUE_PRIORITY_MED_KHR,
                                                  CL_QUEUE_PRIORITY_LOW_KHR };
    static const char *names[] = { "high", "medium", "low" };
    uint32_t got[N], want[N];
    for (unsigned i = 0; i < N; i++)
        want[i] = i * i + 1u;
    int bad = 0;
    for (int q = 0; q < 3; q++) {
        cl_int err;
        cl_queue_properties props[] = { CL_QUEUE_PRIORITY_KHR, prio[q], 0 };
        cl_command_queue queue = clCreateCommandQueueWithProperties(a->ctx, a->device, props, &err);
        if (!queue)
            return app_cl_fail(a, err, "clCreateCommandQueueWithProperties(CL_QUEUE_PRIORITY_KHR)");
        cl_mem b = app_buffer(a, CL_MEM_READ_WRITE, sizeof got, NULL);
        size_t global = N;
        memset(got, 0, sizeof got);
        err = b ? clSetKernelArg(k, 0, sizeof b, &b) : CL_OUT_OF_RESOURCES;
        if (err == CL_SUCCESS)
            err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL);
        if (err == CL_SUCCESS)
            err = clEnqueueReadBuffer(queue, b, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
        clReleaseCommandQueue(queue);
        if (err != CL_SUCCESS)
            return app_cl_fail(a, err, names[q]);
        char what[48];
        snprintf(what, sizeof what, "priority_hints.%s", names[q]);
        bad |= app_check_u32(a, what, got, want, N) != 0;
    }
    return bad;
}

/* ---------------------------------------------------------------------------------------------------- */

static int run(app_t *a)
{
    unsigned n = (unsigned)app_arg(a, 0, 4096);
    static const struct { const char *ext; int (*check)(app_t *, unsigned); } t[] = {
        { "cl_khr_fp16", check_fp16 },
        { "cl_khr_extended_bit_ops", check_bits },
        { "cl_khr_integer_dot_product", check_dot },
        { "cl_khr_kernel_clock", check_clock },
        { "cl_khr_3d_image_writes", check_img3d },
        { "cl_khr_depth_images", check_depth },
        { "cl_ext_image_unorm_int_2_101010", check_packed },
        { "cl_khr_priority_hints", check_priority },
    };
    int tested = 0, failed = 0;
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++) {
        if (!offered(a, t[i].ext)) {
            app_log(a, "%s: not offered", t[i].ext);
            continue;
        }
        int bad = t[i].check(a, n);
        app_log(a, "%s: %s", t[i].ext, bad ? "FAIL" : "ok");
        tested++;
        failed += bad != 0;
    }
    if (!tested) {
        app_log(a, "SKIP: the device offers none of the extensions checked");
        return APP_SKIP;
    }
    app_log(a, "%d extensions checked, %d failed", tested, failed);
    return failed != 0;
}

int main(int argc, char **argv)
{
    return app_main(argc, argv, "extensions", "[N]", run);
}
