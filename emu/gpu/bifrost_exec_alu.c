/* Bifrost executor: one ALU or branch instruction for one lane (integer, float, vector
 * 16-bit / 8-bit forms, conversions, branches).  Semantics follow
 * /work/shared/reference/bifrost-isa.md; "assumption" marks points it leaves open. */
#include "bifrost_exec_int.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

static inline uint32_t lane_sel(uint32_t v, uint8_t lane, int sext)
{
    if (lane == 0xff)
        return v;
    if (lane & 0x10) {
        uint32_t h = (v >> (16 * (lane & 1))) & 0xffff;
        return sext ? (uint32_t)(int32_t)(int16_t)h : h;
    }
    uint32_t b = (v >> (8 * lane)) & 0xff;
    return sext ? (uint32_t)(int32_t)(int8_t)b : b;
}

static uint32_t bitrev(uint32_t v)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        if (v & (1u << i))
            r |= 1u << (31 - i);
    return r;
}

static uint32_t h16(uint32_t v, unsigned idx) { return (v >> (16 * (idx & 1))) & 0xffff; }

/* the 16-bit lane j of source value v after the source's lane selection */
static uint32_t vsel16(const bi_xinstr *x, unsigned s, uint32_t v, unsigned j, int sext)
{
    uint8_t sel = x->vsel[s][j];
    if (sel & 0x10) {
        uint32_t b = (v >> (8 * (sel & 3))) & 0xff;
        return (sext ? (uint32_t)(int32_t)(int8_t)b : b) & 0xffff;
    }
    return h16(v, sel);
}

static uint32_t vsel8(const bi_xinstr *x, unsigned s, uint32_t v, unsigned j)
{
    return (v >> (8 * (x->vsel[s][j] & 3))) & 0xff;
}

static uint32_t exec_vec(const bi_xinstr *x, const uint32_t *s, const fctx *fc)
{
    uint32_t r = 0;
    if (x->sem == BI_SEM_MKVEC4) {
        for (unsigned j = 0; j < 4; j++)
            r |= ((s[j] >> (x->lane[j] == 0xff ? 0 : 8 * (x->lane[j] & 3))) & 0xff) << (8 * j);
        return r;
    }
    if (x->sem == BI_SEM_V2F32_TO_V2F16) {
        for (unsigned j = 0; j < 2; j++) {
            uint32_t v = s[j];
            if (x->abs[j]) v &= 0x7fffffff;
            if (x->neg[j]) v ^= 0x80000000;
            uint32_t h = bx_f32_to_f16(v, x->round);
            uint32_t in = bx_f32_to_f16(v, R_RTZ);
            r |= bx_fout16(h, x, &in, 1, fc) << (16 * j);
        }
        return r;
    }
    if (x->sem == BI_SEM_F16_TO_F32) {
        uint32_t h = h16(s[0], x->lane[0] == 0xff ? 0 : x->lane[0] & 1);
        return bi_f16_to_f32((uint16_t)h);
    }
    if (x->sem == BI_SEM_VLSHIFT || x->sem == BI_SEM_VRSHIFT || x->sem == BI_SEM_VARSHIFT || x->sem == BI_SEM_VIMUL) {
        unsigned n = 32 / x->vw, wmask = (1u << x->vw) - 1;
        for (unsigned j = 0; j < n; j++) {
            uint32_t a, b, sh;
            if (x->vw == 8) {
                a = (s[0] >> (8 * j)) & 0xff;
                b = vsel8(x, 1, s[1], j);
                sh = vsel8(x, 2, s[2], j);
            } else {
                a = x->sem == BI_SEM_VIMUL ? vsel16(x, 0, s[0], j, 0) : h16(s[0], j);
                b = vsel16(x, 1, s[1], j, 0);
                sh = (s[2] >> (8 * (x->vsel[2][j] & 3))) & 0xff;     /* lanes2: a byte per lane */
            }
            sh &= x->vw - 1;     /* assumption: amount modulo the lane width */
            uint32_t v;
            if (x->sem == BI_SEM_VIMUL)
                v = a * b;
            else if (x->sem == BI_SEM_VARSHIFT)
                v = (uint32_t)((x->vw == 8 ? (int32_t)(int8_t)a : (int32_t)(int16_t)a) >> sh);
            else {
                v = x->sem == BI_SEM_VLSHIFT ? a << sh : a >> sh;
                uint32_t m = x->not1 ? ~b : b;
                v = x->logic == L_AND ? (v & m) : x->logic == L_OR ? (v | m) : (v ^ m);
                if (x->not_result)
                    v = ~v;
            }
            r |= (v & wmask) << (x->vw * j);
        }
        return r;
    }
    if (x->sem == BI_SEM_VCLZ || x->sem == BI_SEM_VIABS || x->sem == BI_SEM_VHADD) {
        unsigned n = 32 / x->vw, bits = x->vw, wmask = (1u << bits) - 1;
        for (unsigned j = 0; j < n; j++) {
            uint32_t a = bits == 8 ? vsel8(x, 0, s[0], j) : vsel16(x, 0, s[0], j, 0);
            uint32_t b = bits == 8 ? vsel8(x, 1, s[1], j) : vsel16(x, 1, s[1], j, 0);
            int32_t sa = bits == 8 ? (int8_t)a : (int16_t)a, sb = bits == 8 ? (int8_t)b : (int16_t)b;
            uint32_t v;
            if (x->sem == BI_SEM_VCLZ)
                v = a ? (uint32_t)__builtin_clz(a) - (32 - bits) : bits;
            else if (x->sem == BI_SEM_VIABS)
                v = (uint32_t)(sa < 0 ? -sa : sa);
            else {
                int32_t t = x->sext ? sa + sb : (int32_t)(a + b);
                if (x->round == R_RTP)
                    t += 1;
                v = (uint32_t)(t >> 1);
            }
            r |= (v & wmask) << (bits * j);
        }
        return r;
    }
    if (x->sem == BI_SEM_VFROUND) {
        for (unsigned j = 0; j < 2; j++) {
            uint32_t h = bx_fsrc16(x, 0, vsel16(x, 0, s[0], j, 0), fc);
            uint32_t in = h, v;
            if (is_nan16(h))
                v = h | 0x200;
            else
                v = bx_f32_to_f16(bx_fround(bi_f16_to_f32((uint16_t)h), x->round), R_NONE);    /* exact */
            r |= bx_fout16(v, x, &in, 1, fc) << (16 * j);
        }
        return r;
    }
    if (x->sem == BI_SEM_V8TO16F) {
        for (unsigned j = 0; j < 2; j++) {
            uint32_t byte = (s[0] >> (8 * (x->vsel[0][j] & 3))) & 0xff;
            float f = x->sext ? (float)(int8_t)byte : (float)byte;
            r |= (uint32_t)bx_f32_to_f16(u32(f), R_NONE) << (16 * j);
        }
        return r;
    }
    if (x->sem == BI_SEM_VI2F16 || x->sem == BI_SEM_VF16_2I || x->sem == BI_SEM_V8TO16) {
        for (unsigned j = 0; j < 2; j++) {
            uint32_t v;
            if (x->sem == BI_SEM_V8TO16) {
                uint32_t byte = (s[0] >> (8 * (x->vsel[0][j] & 3))) & 0xff;
                v = x->sext ? (uint32_t)(int32_t)(int8_t)byte : byte;
            } else if (x->sem == BI_SEM_VI2F16) {
                uint32_t h = vsel16(x, 0, s[0], j, 0);
                float f = x->sext ? (float)(int16_t)h : (float)h;      /* exact in f32 */
                v = bx_f32_to_f16(u32(f), x->round);
            } else {
                uint32_t f = bi_f16_to_f32((uint16_t)vsel16(x, 0, s[0], j, 0));
                int32_t t = (int32_t)bx_f2i(f, x->round, 1);
                if (x->sext)
                    v = (uint32_t)(t > 32767 ? 32767 : t < -32768 ? -32768 : t);
                else
                    v = (uint32_t)(t > 65535 ? 65535 : t < 0 ? 0 : t);
            }
            r |= (v & 0xffff) << (16 * j);
        }
        return r;
    }
    if (x->vw == 8 && (x->sem == BI_SEM_VICMP_I || x->sem == BI_SEM_VICMP_S || x->sem == BI_SEM_VICMP_U || x->sem == BI_SEM_VMUX)) {
        for (unsigned j = 0; j < 4; j++) {
            uint32_t a = (s[0] >> (8 * j)) & 0xff, b = (s[1] >> (8 * j)) & 0xff, v;
            if (x->sem == BI_SEM_VMUX) {
                uint32_t c = (s[2] >> (8 * j)) & 0xff;
                v = x->mux == 0 ? ((c & 0x80) ? a : b) : x->mux == 3 ? ((a & c) | (b & ~c)) : (c == 0 ? a : b);
            } else {
                int t;
                if (x->sem == BI_SEM_VICMP_I)
                    t = (a == b) == (x->cmp == C_EQ);
                else {
                    int32_t ia = x->sem == BI_SEM_VICMP_S ? (int8_t)a : (int32_t)a, ib = x->sem == BI_SEM_VICMP_S ? (int8_t)b : (int32_t)b;
                    t = x->cmp == C_GT ? ia > ib : x->cmp == C_GE ? ia >= ib : x->cmp == C_LT ? ia < ib : ia <= ib;
                }
                v = !t ? 0 : x->result_type == 0 ? 1 : 0xff;
            }
            r |= (v & 0xff) << (8 * j);
        }
        return r;
    }
    if (x->vw == 8 && x->sem == BI_SEM_SWZ) {
        for (unsigned j = 0; j < 4; j++)
            r |= vsel8(x, 0, s[0], j) << (8 * j);
        return r;
    }
    if (x->vw == 8) {
        for (unsigned j = 0; j < 4; j++) {
            uint32_t a = vsel8(x, 0, s[0], j), b = vsel8(x, 1, s[1], j);
            int32_t v;
            if (x->sext)
                v = x->sem == BI_SEM_VADD ? (int8_t)a + (int8_t)b : (int8_t)a - (int8_t)b;
            else
                v = x->sem == BI_SEM_VADD ? (int32_t)(a + b) : (int32_t)a - (int32_t)b;
            if (x->sat)
                v = x->sext ? (v > 127 ? 127 : v < -128 ? -128 : v) : (v > 255 ? 255 : v < 0 ? 0 : v);
            r |= ((uint32_t)v & 0xff) << (8 * j);
        }
        return r;
    }
    for (unsigned j = 0; j < 2; j++) {
        uint32_t a = vsel16(x, 0, s[0], j, x->sext), b = vsel16(x, 1, s[1], j, x->sext), v = 0;
        switch (x->sem) {
        case BI_SEM_VADD: case BI_SEM_VSUB: {
            int32_t t;
            if (x->sext)
                t = x->sem == BI_SEM_VADD ? (int16_t)a + (int16_t)b : (int16_t)a - (int16_t)b;
            else
                t = x->sem == BI_SEM_VADD ? (int32_t)(a + b) : (int32_t)a - (int32_t)b;
            if (x->sat)
                t = x->sext ? (t > 32767 ? 32767 : t < -32768 ? -32768 : t) : (t > 65535 ? 65535 : t < 0 ? 0 : t);
            v = (uint32_t)t & 0xffff;
            break;
        }
        case BI_SEM_VFADD: case BI_SEM_VFMA: {
            uint32_t in[3] = { bx_fsrc16(x, 0, a, fc), bx_fsrc16(x, 1, b, fc), 0 };
            double da = f32(bi_f16_to_f32((uint16_t)in[0])), db = f32(bi_f16_to_f32((uint16_t)in[1])), res;
            if (x->sem == BI_SEM_VFMA) {
                in[2] = bx_fsrc16(x, 2, vsel16(x, 2, s[2], j, 0), fc);
                double dc = f32(bi_f16_to_f32((uint16_t)in[2]));
                volatile double p = da, q = db, t = dc, o;
                fesetround(FE_TOWARDZERO);
                feclearexcept(FE_INEXACT);
                o = fma(p, q, t);
                int inexact = fetestexcept(FE_INEXACT) != 0;
                fesetround(FE_TONEAREST);
                uint64_t bits;
                double od = o;
                memcpy(&bits, &od, 8);
                if (inexact && (bits & 0x7fffffffffffffffull) < 0x7ff0000000000000ull)
                    bits |= 1;
                memcpy(&res, &bits, 8);
            } else {
                res = da + db;     /* exact in double */
            }
            v = bx_fout16(bx_f32_to_f16(bx_ro_f32(res), x->round), x, in, x->sem == BI_SEM_VFMA ? 3 : 2, fc);
            break;
        }
        case BI_SEM_VFMIN: case BI_SEM_VFMAX: {
            uint32_t fa = bi_f16_to_f32((uint16_t)bx_fsrc16(x, 0, a, fc)), fb = bi_f16_to_f32((uint16_t)bx_fsrc16(x, 1, b, fc));
            uint32_t m = bx_fminmax(fa, fb, x->sem == BI_SEM_VFMAX, x->minmax);
            v = is_nan(m) ? (((m >> 16) & 0x8000) | 0x7e00 | ((m >> 13) & 0x1ff)) : bx_f32_to_f16(m, R_NONE);
            if (x->clamp)
                v = bx_fout16(v, x, &v, 1, fc);
            break;
        }
        case BI_SEM_VFCMP: case BI_SEM_VCSEL_F: {
            uint32_t fa = bi_f16_to_f32((uint16_t)bx_fsrc16(x, 0, a, fc)), fb = bi_f16_to_f32((uint16_t)bx_fsrc16(x, 1, b, fc));
            int t = fcmp(fa, fb, x->cmp);
            if (x->sem == BI_SEM_VCSEL_F)
                v = t ? vsel16(x, 2, s[2], j, 0) : vsel16(x, 3, s[3], j, 0);
            else
                v = !t ? 0 : x->result_type == 0 ? 1 : x->result_type == 1 ? 0x3c00 : 0xffff;
            break;
        }
        case BI_SEM_VCSEL_I: case BI_SEM_VCSEL_S: case BI_SEM_VCSEL_U: case BI_SEM_VICMP_I: case BI_SEM_VICMP_S: case BI_SEM_VICMP_U: {
            int t;
            if (x->sem == BI_SEM_VCSEL_I || x->sem == BI_SEM_VICMP_I)
                t = (a == b) == (x->cmp == C_EQ);
            else {
                int32_t ia = x->sext ? (int16_t)a : (int32_t)a, ib = x->sext ? (int16_t)b : (int32_t)b;
                t = x->cmp == C_GT ? ia > ib : x->cmp == C_GE ? ia >= ib : x->cmp == C_LT ? ia < ib : ia <= ib;
            }
            if (x->sem >= BI_SEM_VICMP_I)
                v = !t ? 0 : x->result_type == 0 ? 1 : 0xffff;
            else
                v = t ? vsel16(x, 2, s[2], j, 0) : vsel16(x, 3, s[3], j, 0);
            break;
        }
        case BI_SEM_SWZ: v = a; break;
        case BI_SEM_VMUX: {
            uint32_t c = vsel16(x, 2, s[2], j, 0);
            switch (x->mux) {
            case 0: v = (c & 0x8000) ? a : b; break;
            case 1: v = c == 0 ? a : b; break;
            case 2: v = (c & 0x7fff) == 0 ? a : b; break;
            default: v = (a & c) | (b & ~c & 0xffff); break;
            }
            break;
        }
        }
        r |= (v & 0xffff) << (16 * j);
    }
    return r;
}

/* BRANCH / BRANCHZ operand: 16-bit types take the half named by widenN (default low), extended by
 * type; floats compare as f32 (f16 converted). Returns the comparison of a with b. */
static int branch_cmp(const bi_xinstr *x, uint32_t a, uint32_t b)
{
    uint32_t v[2] = { a, b };
    for (unsigned i = 0; i < 2; i++) {
        unsigned half = x->widen[i] == 2;
        if (x->size == 16) {
            uint32_t h = (v[i] >> (16 * half)) & 0xffff;
            v[i] = x->ext == 3 ? bi_f16_to_f32((uint16_t)h) : x->ext == 1 ? (uint32_t)(int32_t)(int16_t)h : h;
        } else if (x->ext == 3 && x->widen[i]) {
            v[i] = bi_f16_to_f32((uint16_t)(v[i] >> (16 * half)));
        }
    }
    if (x->ext == 3)
        return fcmp(v[0], v[1], x->cmp);
    if (x->ext == 1) {
        int32_t p = (int32_t)v[0], q = (int32_t)v[1];
        switch (x->cmp) {
        case C_GT: return p > q;
        case C_GE: return p >= q;
        case C_LT: return p < q;
        case C_LE: return p <= q;
        case C_NE: return p != q;
        default: return p == q;
        }
    }
    switch (x->cmp) {
    case C_GT: return v[0] > v[1];
    case C_GE: return v[0] >= v[1];
    case C_LT: return v[0] < v[1];
    case C_LE: return v[0] <= v[1];
    case C_NE: return v[0] != v[1];
    default: return v[0] == v[1];
    }
}

/* Branch targets: a PC-relative constant gives the target clause's offset; any other source
 * (register, the zero FAU slot, a plain constant) is an absolute address, and address 0 ends the
 * thread: Mesa encodes branches to the end of the shader as a jump to zero (assumption that
 * matches its output: such branches skip the last blocks of a kernel). */
static inline uint32_t branch_target(const bi_xinstr *x, uint32_t v)
{
    return x->abs_target && v == 0 ? PC_EXIT : v;
}

/* Execute one instruction for one lane. s[] = raw source values. Returns the 32-bit result;
 * *branch is set to 1 and *target to the byte offset when a branch is taken. */
/* The cube face of the direction (x, y, z), GL's order +X -X +Y -Y +Z -Z: the axis of largest
 * magnitude, z before y before x on ties (llvmpipe's choice, D3D10's rule; GL leaves ties open),
 * its negative face when that component is below zero.  Mesa reads it from bits 31:29 of
 * CUBEFACE2's result (bi_emit_texc_cube_coord ORs it over s; the CUBE_*SEL ops read it too). */
static unsigned cube_face(uint32_t x, uint32_t y, uint32_t z)
{
    float ax = fabsf(f32(x)), ay = fabsf(f32(y)), az = fabsf(f32(z));
    if (az >= ax && az >= ay)
        return 4 + (f32(z) < 0);
    if (ay >= ax)
        return 2 + (f32(y) < 0);
    return f32(x) < 0;
}

/* CUBE_SSEL (a = z, b = x) and CUBE_TSEL (a = y, b = z): the face's s or t before the division
 * by the major axis' magnitude (CUBEFACE1), GL's table of sc / tc (ES 3.0 table 3.21). */
static uint32_t cube_sel(int t, uint32_t a, uint32_t b, uint32_t face)
{
    static const int8_t s_src[6] = { -1, 1, 2, 2, 2, -2 }, t_src[6] = { -1, -1, 2, -2, -1, -1 };
    unsigned fi = (face >> 29) % 6;     /* faces 6 and 7 do not exist: hostile input, any value */
    int sel = t ? t_src[fi] : s_src[fi];
    uint32_t v = (sel == 1 || sel == -1) ? a : b;
    return sel < 0 ? v ^ 0x80000000u : v;
}

uint32_t bx_exec_op(const bi_xinstr *x, const uint32_t *s, const fctx *fc, int *branch, uint32_t *target)
{
    uint32_t a = s[0], b = s[1], c = s[2];
    uint32_t f[4];
    if (x->sem >= BI_SEM_VADD && x->sem < BI_SEM_I2F_NARROW)
        return exec_vec(x, s, fc);
    switch (x->sem) {
    case BI_SEM_NOP: return 0;
    case BI_SEM_MOV: case BI_SEM_DTSEL: return a;      /* DTSEL_IMM: passes src0, tags the tuple's message */
    case BI_SEM_IADD: case BI_SEM_ISUB: {
        b = lane_sel(b, x->lane[1], x->sext);
        int64_t r;
        if (x->sext)
            r = x->sem == BI_SEM_IADD ? (int64_t)(int32_t)a + (int32_t)b : (int64_t)(int32_t)a - (int32_t)b;
        else
            r = x->sem == BI_SEM_IADD ? (int64_t)a + b : (int64_t)a - b;
        if (x->sat) {
            if (x->sext)
                r = r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r;
            else
                r = r > UINT32_MAX ? UINT32_MAX : r < 0 ? 0 : r;
        }
        return (uint32_t)r;
    }
    case BI_SEM_IADDC: return a + b + c;
    case BI_SEM_ISUBB: return a - b - c;
    case BI_SEM_IMUL: return a * lane_sel(b, x->lane[1], x->sext);
    case BI_SEM_LSHIFT: case BI_SEM_RSHIFT: {
        unsigned sh = lane_sel(c, x->lane[2] == 0xff ? 0 : x->lane[2], 0) & 31;   /* assumption: 5 bits */
        uint32_t v = x->sem == BI_SEM_LSHIFT ? a << sh : a >> sh;
        uint32_t m = x->not1 ? ~b : b;
        uint32_t r = x->logic == L_AND ? (v & m) : x->logic == L_OR ? (v | m) : (v ^ m);
        return x->not_result ? ~r : r;
    }
    case BI_SEM_ARSHIFT: {
        unsigned sh = lane_sel(c, x->lane[2] == 0xff ? 0 : x->lane[2], 0) & 31;
        return (uint32_t)((int32_t)a >> sh);
    }
    case BI_SEM_CSEL_I: return ((a == b) == (x->cmp == C_EQ)) ? c : s[3];
    case BI_SEM_CSEL_S: {
        int32_t sa = (int32_t)a, sb = (int32_t)b;
        int t = x->cmp == C_GT ? sa > sb : x->cmp == C_GE ? sa >= sb : x->cmp == C_LT ? sa < sb : sa <= sb;
        return t ? c : s[3];
    }
    case BI_SEM_CSEL_U: {
        int t = x->cmp == C_GT ? a > b : x->cmp == C_GE ? a >= b : x->cmp == C_LT ? a < b : a <= b;
        return t ? c : s[3];
    }
    case BI_SEM_CSEL_F: return fcmp(a, b, x->cmp) ? c : s[3];
    case BI_SEM_MUX:
        switch (x->mux) {
        /* src0 where the condition holds (Mesa's bi_csel_from_mux: MUX.neg(x, y, c) is
         * CSEL.s.lt(c, 0, x, y); MUX.bit takes src0's bits where the mask is set, as
         * bi_emit_texc_cube_coord packs s under the cube face) */
        case 0: return (c & 0x80000000) ? a : b;              /* neg */
        case 1: return c == 0 ? a : b;                        /* int_zero */
        case 2: return (c & 0x7fffffff) == 0 ? a : b;         /* fp_zero */
        default: return (a & c) | (b & ~c);                   /* bit */
        }
    case BI_SEM_ICMP_I: return bool_result((a == b) == (x->cmp == C_EQ), x->result_type == 0 ? 0 : 2);
    case BI_SEM_ICMP_S: case BI_SEM_ICMP_U: {
        int t;
        if (x->sem == BI_SEM_ICMP_S) {
            int32_t sa = (int32_t)a, sb = (int32_t)b;
            t = x->cmp == C_GT ? sa > sb : x->cmp == C_GE ? sa >= sb : x->cmp == C_LT ? sa < sb : sa <= sb;
        } else {
            t = x->cmp == C_GT ? a > b : x->cmp == C_GE ? a >= b : x->cmp == C_LT ? a < b : a <= b;
        }
        return bool_result(t, x->result_type == 0 ? 0 : 2);
    }
    case BI_SEM_FCMP:
        f[0] = bx_fsrc(x, 0, a, fc);
        f[1] = bx_fsrc(x, 1, b, fc);
        return bool_result(fcmp(f[0], f[1], x->cmp), x->result_type);
    case BI_SEM_FADD:
        f[0] = bx_fsrc(x, 0, a, fc);
        f[1] = bx_fsrc(x, 1, b, fc);
        return fout(bx_farith(0, f[0], f[1], 0, x->round), x, f, 2, fc);
    case BI_SEM_FMA:
        f[0] = bx_fsrc(x, 0, a, fc);
        f[1] = bx_fsrc(x, 1, b, fc);
        f[2] = bx_fsrc(x, 2, c, fc);
        return fout(bx_farith(1, f[0], f[1], f[2], x->round), x, f, 3, fc);
    case BI_SEM_FMIN: case BI_SEM_FMAX:
        f[0] = bx_fsrc(x, 0, a, fc);
        f[1] = bx_fsrc(x, 1, b, fc);
        return fclamp(bx_fminmax(f[0], f[1], x->sem == BI_SEM_FMAX, x->minmax), x->clamp);
    case BI_SEM_F2S: case BI_SEM_F2U:
        f[0] = bx_fsrc(x, 0, a, fc);
        return bx_f2i(f[0], x->round, x->sem == BI_SEM_F2S);
    case BI_SEM_S2F: return bx_i2f(a, x->round, 1);
    case BI_SEM_U2F: return bx_i2f(a, x->round, 0);
    case BI_SEM_ZEXT16: return lane_sel(a, 0x10 | (x->lane[0] == 0xff ? 0 : (x->lane[0] & 1)), 0);
    case BI_SEM_SEXT16: return lane_sel(a, 0x10 | (x->lane[0] == 0xff ? 0 : (x->lane[0] & 1)), 1);
    case BI_SEM_ZEXT8: return lane_sel(a, x->lane[0] == 0xff ? 0 : x->lane[0], 0);
    case BI_SEM_SEXT8: return lane_sel(a, x->lane[0] == 0xff ? 0 : x->lane[0], 1);
    case BI_SEM_MKVEC: {
        uint32_t lo = lane_sel(a, 0x10 | (x->lane[0] == 0xff ? 0 : (x->lane[0] & 1)), 0);
        uint32_t hi = lane_sel(b, 0x10 | (x->lane[1] == 0xff ? 0 : (x->lane[1] & 1)), 0);
        return lo | hi << 16;
    }
    case BI_SEM_I2F_NARROW: {
        uint32_t v = lane_sel(a, x->lane[0] == 0xff ? 0 : x->lane[0], x->sext);
        return u32(x->sext ? (float)(int32_t)v : (float)v);    /* exact */
    }
    case BI_SEM_IABS: return (int32_t)a < 0 ? 0u - a : a;
    case BI_SEM_HADD: {
        int64_t t = x->sext ? (int64_t)(int32_t)a + (int32_t)b : (int64_t)a + b;
        if (x->round == R_RTP)
            t += 1;
        return (uint32_t)(t >> 1);      /* arithmetic shift: floor */
    }
    case BI_SEM_LDEXP: {
        f[0] = bx_fsrc(x, 0, a, fc);
        if (is_nan(f[0]))
            return f[0] | 0x00400000;
        int32_t e = (int32_t)b;
        e = e > 400 ? 400 : e < -400 ? -400 : e;
        volatile double d = ldexp((double)f32(f[0]), e);     /* exact in double */
        volatile float r;
        if (x->round == R_RTNA)
            return fout(u32((float)d), x, f, 1, fc);          /* ties: unreachable for exact powers of 2 */
        if (x->round != R_NONE)
            fesetround(bx_fe_mode(x->round));
        r = (float)d;
        if (x->round != R_NONE)
            fesetround(FE_TONEAREST);
        return fout(u32(r), x, f, 1, fc);
    }
    case BI_SEM_BRANCHZ:
        if (branch_cmp(x, a, 0)) {
            *branch = 1;
            *target = branch_target(x, b);
        }
        return 0;
    case BI_SEM_BRANCH:
        if (branch_cmp(x, a, b)) {
            *branch = 1;
            *target = branch_target(x, c);
        }
        return 0;
    case BI_SEM_QUIET:
        return is_nan(a) ? a | 0x00400000 : a;
    case BI_SEM_F16_2I: {
        uint32_t h = lane_sel(a, 0x10 | (x->lane[0] == 0xff ? 0 : (x->lane[0] & 1)), 0);
        return bx_f2i(bi_f16_to_f32((uint16_t)h), x->round, x->sext);
    }
    case BI_SEM_LOGB: case BI_SEM_ILOGB: case BI_SEM_FREXPM: {
        f[0] = bx_fsrc(x, 0, a, fc);
        float v = f32(f[0]);
        if (x->sem == BI_SEM_LOGB)
            return u32(logbf(v));                   /* assumption: C logb (0 -> -inf, inf -> inf) */
        if (x->sem == BI_SEM_ILOGB)
            return (uint32_t)ilogbf(v);             /* assumption: C ilogb special values */
        int e = 0;
        return is_nan(f[0]) ? f[0] | 0x00400000 : bx_frexp_mode(f[0], x->fmode, &e);
    }
    case BI_SEM_FREXPE: {
        /* neg0 negates the exponent (the value's sign does not change it): Mesa's reciprocal
         * lowering scales by FREXPE(-x) */
        bi_xinstr y = *x;
        y.neg[0] = 0;
        f[0] = bx_fsrc(&y, 0, a, fc);
        int e = 0;
       bx_frexp_mode(f[0], x->fmode, &e);           /* assumption: 0 for 0/inf/NaN (C frexp) */
        return (uint32_t)(x->neg[0] ? -e : e);
    }
    case BI_SEM_FRCP_APPROX: case BI_SEM_FRSQ_APPROX: case BI_SEM_FLOGD: case BI_SEM_FLOG_TABLE: {
        f[0] = bx_fsrc(x, 0, a, fc);
        return fout(bx_table_op(x, f[0]), x, f, 1, fc);
    }
    case BI_SEM_FADD_LSCALE: {
        f[0] = bx_fsrc(x, 0, a, fc);
        f[1] = bx_fsrc(x, 1, b, fc);
        int e = 0;
        uint32_t m = is_nan(f[1]) || (f[1] & 0x7fffffff) == 0x7f800000 ? f[1] : bx_frexp_mode(f[1], FM_LOG, &e);
        return fout(bx_farith(0, f[0], m, 0, x->round), x, f, 2, fc);
    }
    case BI_SEM_FMA_RSCALE:
        f[0] = bx_fsrc(x, 0, a, fc);
        f[1] = bx_fsrc(x, 1, b, fc);
        f[2] = bx_fsrc(x, 2, c, fc);
        return fout(bx_fma_rscale(f[0], f[1], f[2], (int32_t)s[3], x->round, x->fmode), x, f, 3, fc);
    case BI_SEM_FEXP: {
        /* 2^(a / 2^24), a = 8:24 fixed point; b = the float it came from (NaN and range) */
        if (is_nan(b))
            return b | 0x00400000;
        float fb = f32(b);
        if (fb >= 2147483648.0f)
            return 0x7f800000;
        if (fb <= -2147483648.0f)
            return 0;
        volatile float r = (float)exp2(ldexp((double)(int32_t)a, -24));
        return fout(u32(r), x, &b, 1, fc);
    }
    case BI_SEM_FEXP_TABLE: {
        volatile float r = (float)exp2((double)(a & 15) / 16.0);     /* 2^(low 4 bits / 16) */
        return u32(r);
    }
    case BI_SEM_FSIN_TABLE: case BI_SEM_FCOS_TABLE: {
        double ang = (double)(a & 63) * M_PI / 32.0;                    /* low 6 bits x pi/32 */
        volatile float r = (float)(x->sem == BI_SEM_FSIN_TABLE ? sin(ang) : cos(ang));
        return u32(r);
    }
    case BI_SEM_ATOM_POST: return atom_op32(x->atom_opc, a, b);
    case BI_SEM_CUBEFACE1: {
        /* max(|x|, |y|, |z|), the magnitude Mesa divides s and t by */
        float m = fmaxf(fabsf(f32(bx_fsrc(x, 0, a, fc))),
                        fmaxf(fabsf(f32(bx_fsrc(x, 1, b, fc))), fabsf(f32(bx_fsrc(x, 2, c, fc)))));
        return u32(m);
    }
    case BI_SEM_CUBEFACE2:      /* sources: the tuple's CUBEFACE1 sources (bifrost_exec_prepare.c) */
        return (uint32_t)cube_face(bx_fsrc(x, 0, a, fc), bx_fsrc(x, 1, b, fc), bx_fsrc(x, 2, c, fc)) << 29;
    case BI_SEM_CUBE_SSEL: case BI_SEM_CUBE_TSEL:
        return cube_sel(x->sem == BI_SEM_CUBE_TSEL, bx_fsrc(x, 0, a, fc), bx_fsrc(x, 1, b, fc), c);
    case BI_SEM_FRCP16: case BI_SEM_FRSQ16: {
        /* the 16-bit half lane0 selects, abs then neg; the result in both halves (assumption:
         * Mesa reads 16-bit values from the low half) */
        uint32_t h = (x->lane[0] == 0x11 ? a >> 16 : a) & 0xffff;
        if (x->abs[0])
            h &= 0x7fff;
        if (x->neg[0])
            h ^= 0x8000;
        uint32_t r = x->sem == BI_SEM_FRCP16 ? bx_frcp16((uint16_t)h) : bx_frsq16((uint16_t)h);
        return r | r << 16;
    }
    case BI_SEM_FRCP: case BI_SEM_FRSQ:
        f[0] = bx_fsrc(x, 0, a, fc);
        return fout(x->sem == BI_SEM_FRCP ? bx_frcp(f[0]) : bx_frsq(f[0]), x, f, 1, fc);
    case BI_SEM_CLZ: return a ? (uint32_t)__builtin_clz(a) : 32;
    case BI_SEM_POPCOUNT: return (uint32_t)__builtin_popcount(a);
    case BI_SEM_BITREV: return bitrev(a);
    case BI_SEM_FROUND:
        f[0] = bx_fsrc(x, 0, a, fc);
        return fout(bx_fround(f[0], x->round), x, f, 1, fc);
    case BI_SEM_BRANCHZ32: case BI_SEM_BRANCHZ16: {
        uint32_t v = x->sem == BI_SEM_BRANCHZ16 ? lane_sel(a, 0x10 | (x->widen[0] == 2), 0) : a;
        if ((v == 0) == (x->cmp == C_EQ)) {
            *branch = 1;
            *target = branch_target(x, b);
        }
        return 0;
    }
    case BI_SEM_JUMP:
        *branch = 1;
        *target = branch_target(x, a);
        return 0;
    }
    return 0;
}
