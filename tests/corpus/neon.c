/* NEON intrinsics (arm_neon.h): integer, saturating, FP, permutes, table lookups, reductions. */
#include <arm_neon.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t hsum = 0;
static void acc(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) hsum = (hsum ^ b[i]) * 16777619u;
}
#define ACC(v) do { __typeof__(v) t_ = (v); acc(&t_, sizeof t_); } while (0)

static void print_u8(const char *tag, uint8x16_t v)
{
    uint8_t b[16];
    vst1q_u8(b, v);
    printf("%-10s", tag);
    for (int i = 0; i < 16; i++) printf(" %02x", b[i]);
    printf("\n");
}

static void print_f32(const char *tag, float32x4_t v)
{
    float f[4];
    vst1q_f32(f, v);
    printf("%-10s %.9g %.9g %.9g %.9g\n", tag, f[0], f[1], f[2], f[3]);
}

int main(void)
{
    uint8_t in[64];
    for (int i = 0; i < 64; i++) in[i] = (uint8_t)(i * 37 + 11);
    uint8x16_t a = vld1q_u8(in), b = vld1q_u8(in + 16);
    print_u8("add", vaddq_u8(a, b));
    print_u8("qadd", vqaddq_u8(a, b));
    print_u8("qsub", vqsubq_u8(a, b));
    print_u8("hadd", vhaddq_u8(a, b));
    print_u8("rhadd", vrhaddq_u8(a, b));
    print_u8("abd", vabdq_u8(a, b));
    print_u8("max", vmaxq_u8(a, b));
    print_u8("cnt", vcntq_u8(a));
    print_u8("clz", vclzq_u8(a));
    print_u8("rbit", vrbitq_u8(a));
    print_u8("zip1", vzip1q_u8(a, b));
    print_u8("uzp2", vuzp2q_u8(a, b));
    print_u8("trn1", vtrn1q_u8(a, b));
    print_u8("ext5", vextq_u8(a, b, 5));
    print_u8("rev64", vrev64q_u8(a));
    print_u8("tbl", vqtbl1q_u8(a, vandq_u8(b, vdupq_n_u8(0x1f))));
    uint8x16x2_t t2 = { { a, b } };
    print_u8("tbl2", vqtbl2q_u8(t2, vandq_u8(vld1q_u8(in + 32), vdupq_n_u8(0x3f))));
    print_u8("tbx", vqtbx1q_u8(b, a, vld1q_u8(in + 40)));
    print_u8("cmhi", vcgtq_u8(a, b));
    print_u8("bsl", vbslq_u8(vcgtq_u8(a, b), a, vmvnq_u8(b)));
    uint8x16x3_t l3 = vld3q_u8(in);
    print_u8("ld3.1", l3.val[1]);
    uint8x8x4_t l4 = vld4_u8(in);
    print_u8("ld4comb", vcombine_u8(l4.val[0], l4.val[3]));

    int16x8_t s16a = vreinterpretq_s16_u8(a), s16b = vreinterpretq_s16_u8(b);
    ACC(vqdmulhq_s16(s16a, s16b)); ACC(vqrdmulhq_s16(s16a, s16b)); ACC(vmlaq_s16(s16a, s16b, s16a));
    ACC(vshlq_s16(s16a, vandq_s16(s16b, vdupq_n_s16(15)))); ACC(vqshlq_s16(s16a, vdupq_n_s16(3)));
    ACC(vrshrq_n_s16(s16a, 5)); ACC(vsraq_n_s16(s16a, s16b, 3)); ACC(vqrshrn_n_s16(s16a, 4));
    ACC(vqmovun_s16(s16a)); ACC(vmovl_s8(vget_low_s8(vreinterpretq_s8_u8(a)))); ACC(vabsq_s16(s16a));
    ACC(vqnegq_s16(s16a)); ACC(vpaddq_s16(s16a, s16b)); ACC(vaddvq_s16(s16a)); ACC(vmaxvq_u8(a));
    ACC(vaddlvq_u8(a)); ACC(vmull_s16(vget_low_s16(s16a), vget_high_s16(s16b)));
    ACC(vmull_high_u8(a, b)); ACC(vqdmull_s16(vget_low_s16(s16a), vget_low_s16(s16b)));
    ACC(vmlal_lane_s16(vdupq_n_s32(7), vget_low_s16(s16a), vget_low_s16(s16b), 2));
    ACC(vsliq_n_u8(a, b, 3)); ACC(vsriq_n_u8(a, b, 2)); ACC(vpadalq_u8(vdupq_n_u16(1), a));
    int32x4_t s32 = vreinterpretq_s32_u8(a);
    ACC(vmulq_s32(s32, vreinterpretq_s32_u8(b))); ACC(vqdmulhq_laneq_s32(s32, s32, 3));
    ACC(vcltzq_s32(s32)); ACC(vnegq_s64(vreinterpretq_s64_u8(b))); ACC(vsubhn_s32(s32, vreinterpretq_s32_u8(b)));
    poly8x8_t pa = vreinterpret_p8_u8(vget_low_u8(a)), pb = vreinterpret_p8_u8(vget_low_u8(b));
    ACC(vmull_p8(pa, pb));
    ACC(vmull_p64(vgetq_lane_u64(vreinterpretq_u64_u8(a), 0), vgetq_lane_u64(vreinterpretq_u64_u8(b), 1)));
    printf("int hash %08x\n", hsum);

    float fin[16];
    for (int i = 0; i < 16; i++) fin[i] = (i - 7) * 1.375f + (float)i / 3;
    float32x4_t fa = vld1q_f32(fin), fb = vld1q_f32(fin + 4), fc = vld1q_f32(fin + 8);
    print_f32("fadd", vaddq_f32(fa, fb));
    print_f32("fmla", vfmaq_f32(fc, fa, fb));
    print_f32("fdiv", vdivq_f32(fa, fb));
    print_f32("fsqrt", vsqrtq_f32(vabsq_f32(fa)));
    print_f32("frecpe", vrecpeq_f32(fb));
    print_f32("frsqrts", vrsqrtsq_f32(fa, fb));
    print_f32("fmaxnm", vmaxnmq_f32(fa, fc));
    print_f32("fpadd", vpaddq_f32(fa, fb));
    print_f32("frinta", vrndaq_f32(vmulq_n_f32(fa, 0.5f)));
    print_f32("frintn", vrndnq_f32(vmulq_n_f32(fa, 0.5f)));
    print_f32("cvt", vcvtq_f32_s32(vcvtq_s32_f32(vmulq_n_f32(fa, 1000.7f))));
    print_f32("fmul_lane", vmulq_laneq_f32(fa, fb, 3));
    printf("fmaxv %.9g faddv %.9g\n", vmaxvq_f32(fa), vaddvq_f32(fb));
    uint32x4_t cv = vcvtnq_u32_f32(vmulq_n_f32(fc, 3.3f));
    printf("fcvtnu %u %u %u %u\n", vgetq_lane_u32(cv, 0), vgetq_lane_u32(cv, 1), vgetq_lane_u32(cv, 2), vgetq_lane_u32(cv, 3));
    float64x2_t da = vcvt_f64_f32(vget_low_f32(fa)), db = vcvt_high_f64_f32(fb);
    float64x2_t dr = vfmsq_f64(vmulq_f64(da, db), da, vdupq_n_f64(1.0 / 3));
    printf("f64 %.17g %.17g %.17g\n", vgetq_lane_f64(dr, 0), vgetq_lane_f64(dr, 1), vaddvq_f64(vsqrtq_f64(vabsq_f64(dr))));
    float32x2_t nf = vcvt_f32_f64(dr);
    printf("fcvtn %.9g %.9g\n", vget_lane_f32(nf, 0), vget_lane_f32(nf, 1));
    float16x4_t h = vcvt_f16_f32(fa);
    print_f32("f16rt", vcvt_f32_f16(h));

    /* a vectorised loop */
    static float x[4096], y[4096];
    for (int i = 0; i < 4096; i++) { x[i] = (float)i * 0.25f; y[i] = 1.0f / (i + 1); }
    float32x4_t s = vdupq_n_f32(0);
    for (int r = 0; r < 50; r++)
        for (int i = 0; i < 4096; i += 4) s = vfmaq_f32(s, vld1q_f32(x + i), vld1q_f32(y + i));
    print_f32("dot", s);
    return 0;
}
