/* Crypto extension (Armv8.0): AESE, AESD, AESMC, AESIMC; SHA1C/P/M/SU0/H/SU1;
 * SHA256H/H2/SU0/SU1.  Written from the Arm ARM pseudocode and FIPS-197/180-4.
 * The AES state is column-major: byte i of the register is row i%4, column i/4. */
#include "translate.h"

#define V(r) (c->v[(r)])

/* ---- AES tables, computed once at startup --------------------------------- */
static uint8_t aes_sbox[256], aes_inv_sbox[256];

static inline uint8_t xtime(uint8_t x) { return (uint8_t)((x << 1) ^ ((x & 0x80) ? 0x1b : 0)); }

static uint8_t gf_mul(uint8_t a, uint8_t b)
{
    uint8_t r = 0;
    while (b) {
        if (b & 1)
            r ^= a;
        a = xtime(a);
        b >>= 1;
    }
    return r;
}

__attribute__((constructor)) static void aes_tables_init(void)
{
    for (int i = 0; i < 256; i++) {
        /* multiplicative inverse in GF(2^8) (0 maps to 0): x^254 */
        uint8_t x = (uint8_t)i, inv = 1;
        for (int k = 0; k < 254; k++)
            inv = gf_mul(inv, x);
        if (i == 0)
            inv = 0;
        uint8_t s = inv;
        for (int k = 1; k < 5; k++)
            s ^= (uint8_t)((inv << k) | (inv >> (8 - k)));
        s ^= 0x63;
        aes_sbox[i] = s;
        aes_inv_sbox[s] = (uint8_t)i;
    }
}

/* AESE: SubBytes(ShiftRows(Vd ^ Vn)); AESD: InvSubBytes(InvShiftRows(Vd ^ Vn)). */
static Op *op_aese(CPUState *c, Op *o)
{
    VReg t, r;
    t.d[0] = V(o->d).d[0] ^ V(o->n).d[0];
    t.d[1] = V(o->d).d[1] ^ V(o->n).d[1];
    for (int col = 0; col < 4; col++)
        for (int row = 0; row < 4; row++)
            r.b[4 * col + row] = aes_sbox[t.b[4 * ((col + row) & 3) + row]];
    V(o->d) = r;
    return op_next(c, o);
}
static Op *op_aesd(CPUState *c, Op *o)
{
    VReg t, r;
    t.d[0] = V(o->d).d[0] ^ V(o->n).d[0];
    t.d[1] = V(o->d).d[1] ^ V(o->n).d[1];
    for (int col = 0; col < 4; col++)
        for (int row = 0; row < 4; row++)
            r.b[4 * col + row] = aes_inv_sbox[t.b[4 * ((col - row) & 3) + row]];
    V(o->d) = r;
    return op_next(c, o);
}
static Op *op_aesmc(CPUState *c, Op *o)
{
    VReg t = V(o->n), r;
    for (int col = 0; col < 4; col++) {
        uint8_t *b = &t.b[4 * col];
        uint8_t all = b[0] ^ b[1] ^ b[2] ^ b[3];
        for (int row = 0; row < 4; row++)
            r.b[4 * col + row] = b[row] ^ all ^ xtime(b[row] ^ b[(row + 1) & 3]);
    }
    V(o->d) = r;
    return op_next(c, o);
}
static Op *op_aesimc(CPUState *c, Op *o)
{
    VReg t = V(o->n), r;
    for (int col = 0; col < 4; col++) {
        const uint8_t *b = &t.b[4 * col];
        uint8_t x2[4], x4[4], x8[4];
        for (int k = 0; k < 4; k++) {
            x2[k] = xtime(b[k]);
            x4[k] = xtime(x2[k]);
            x8[k] = xtime(x4[k]);
        }
        for (int row = 0; row < 4; row++) {
            int i0 = row, i1 = (row + 1) & 3, i2 = (row + 2) & 3, i3 = (row + 3) & 3;
            /* 0e*b0 ^ 0b*b1 ^ 0d*b2 ^ 09*b3 */
            r.b[4 * col + row] = (x8[i0] ^ x4[i0] ^ x2[i0]) ^ (x8[i1] ^ x2[i1] ^ b[i1]) ^
                                 (x8[i2] ^ x4[i2] ^ b[i2]) ^ (x8[i3] ^ b[i3]);
        }
    }
    V(o->d) = r;
    return op_next(c, o);
}

bool trans_CRYPTO_AES(DisasCtx *s, arg_CRYPTO_AES *a)
{
    static const OpFn fns[2][2] = { { op_aese, op_aesd }, { op_aesmc, op_aesimc } };
    Op *o = tr_emit(s, fns[a->mc][a->dec]);
    o->d = a->rd;
    o->n = a->rn;
    return true;
}

/* ---- SHA-1 ------------------------------------------------------------------ */
static inline uint32_t rol32(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
static inline uint32_t ror32(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
static inline uint32_t sha_choose(uint32_t x, uint32_t y, uint32_t z) { return ((y ^ z) & x) ^ z; }
static inline uint32_t sha_parity(uint32_t x, uint32_t y, uint32_t z) { return x ^ y ^ z; }
static inline uint32_t sha_majority(uint32_t x, uint32_t y, uint32_t z) { return (x & y) | ((x | y) & z); }

/* SHA1C/SHA1P/SHA1M Qd, Sn, Vm.4S: four rounds on (Qd, Sn) with W = Vm. */
#define SHA1_ROUNDS(NAME, FN)                                                     \
    static Op *op_##NAME(CPUState *c, Op *o)                                      \
    {                                                                             \
        uint32_t x0 = V(o->d).s[0], x1 = V(o->d).s[1], x2 = V(o->d).s[2];         \
        uint32_t x3 = V(o->d).s[3], y = V(o->n).s[0];                             \
        VReg w = V(o->m), r;                                                      \
        for (int e = 0; e < 4; e++) {                                             \
            y += rol32(x0, 5) + FN(x1, x2, x3) + w.s[e];                          \
            x1 = rol32(x1, 30);                                                   \
            uint32_t t = x3;                                                      \
            x3 = x2; x2 = x1; x1 = x0; x0 = y; y = t;                             \
        }                                                                         \
        r.s[0] = x0; r.s[1] = x1; r.s[2] = x2; r.s[3] = x3;                       \
        V(o->d) = r;                                                              \
        return op_next(c, o);                                                             \
    }
SHA1_ROUNDS(sha1c, sha_choose)
SHA1_ROUNDS(sha1p, sha_parity)
SHA1_ROUNDS(sha1m, sha_majority)
#undef SHA1_ROUNDS

/* SHA1SU0 Vd, Vn, Vm: (Vn<63:0>:Vd<127:64>) ^ Vd ^ Vm */
static Op *op_sha1su0(CPUState *c, Op *o)
{
    uint64_t d0 = V(o->d).d[0], d1 = V(o->d).d[1];
    uint64_t r0 = d1 ^ d0 ^ V(o->m).d[0];
    uint64_t r1 = V(o->n).d[0] ^ d1 ^ V(o->m).d[1];
    V(o->d).d[0] = r0;
    V(o->d).d[1] = r1;
    return op_next(c, o);
}

/* SHA1H Sd, Sn: ROL(Sn, 30), rest of the register zero. */
static Op *op_sha1h(CPUState *c, Op *o)
{
    uint32_t v = rol32(V(o->n).s[0], 30);
    V(o->d).d[0] = v;
    V(o->d).d[1] = 0;
    return op_next(c, o);
}

/* SHA1SU1 Vd, Vn: T = Vd ^ (Vn >> 32); rotate each word left 1, word 3 ^= ROL(T0, 2). */
static Op *op_sha1su1(CPUState *c, Op *o)
{
    VReg x = V(o->d), y = V(o->n), r;
    uint32_t t0 = x.s[0] ^ y.s[1], t1 = x.s[1] ^ y.s[2], t2 = x.s[2] ^ y.s[3], t3 = x.s[3];
    r.s[0] = rol32(t0, 1);
    r.s[1] = rol32(t1, 1);
    r.s[2] = rol32(t2, 1);
    r.s[3] = rol32(t3, 1) ^ rol32(t0, 2);
    V(o->d) = r;
    return op_next(c, o);
}

/* ---- SHA-256 ---------------------------------------------------------------- */
static inline uint32_t sigma0_big(uint32_t x) { return ror32(x, 2) ^ ror32(x, 13) ^ ror32(x, 22); }
static inline uint32_t sigma1_big(uint32_t x) { return ror32(x, 6) ^ ror32(x, 11) ^ ror32(x, 25); }

/* Four SHA-256 rounds: X = {a,b,c,d}, Y = {e,f,g,h} (element 0 first). */
static inline void sha256_rounds(uint32_t x[4], uint32_t y[4], const uint32_t w[4])
{
    for (int e = 0; e < 4; e++) {
        uint32_t chs = sha_choose(y[0], y[1], y[2]);
        uint32_t maj = sha_majority(x[0], x[1], x[2]);
        uint32_t t = y[3] + sigma1_big(y[0]) + chs + w[e];
        x[3] = t + x[3];
        y[3] = t + sigma0_big(x[0]) + maj;
        /* <Y, X> = ROL(Y:X, 32) */
        uint32_t x3 = x[3], y3 = y[3];
        x[3] = x[2]; x[2] = x[1]; x[1] = x[0]; x[0] = y3;
        y[3] = y[2]; y[2] = y[1]; y[1] = y[0]; y[0] = x3;
    }
}

/* SHA256H Qd, Qn, Vm: X = Qd, Y = Qn, result X.  SHA256H2 Qd, Qn, Vm: X = Qn, Y = Qd, result Y. */
static Op *op_sha256h(CPUState *c, Op *o)
{
    VReg x = V(o->d), y = V(o->n), w = V(o->m);
    sha256_rounds(x.s, y.s, w.s);
    V(o->d) = x;
    return op_next(c, o);
}
static Op *op_sha256h2(CPUState *c, Op *o)
{
    VReg x = V(o->n), y = V(o->d), w = V(o->m);
    sha256_rounds(x.s, y.s, w.s);
    V(o->d) = y;
    return op_next(c, o);
}

static inline uint32_t sigma0_small(uint32_t x) { return ror32(x, 7) ^ ror32(x, 18) ^ (x >> 3); }
static inline uint32_t sigma1_small(uint32_t x) { return ror32(x, 17) ^ ror32(x, 19) ^ (x >> 10); }

/* SHA256SU0 Vd, Vn: T = Vn<31:0>:Vd<127:32>; Vd[e] += sigma0(T[e]). */
static Op *op_sha256su0(CPUState *c, Op *o)
{
    VReg x = V(o->d), r;
    uint32_t t[4] = { x.s[1], x.s[2], x.s[3], V(o->n).s[0] };
    for (int e = 0; e < 4; e++)
        r.s[e] = sigma0_small(t[e]) + x.s[e];
    V(o->d) = r;
    return op_next(c, o);
}

/* SHA256SU1 Vd, Vn, Vm: T0 = Vm<31:0>:Vn<127:32>; W[e] = sigma1(W[e-2]) + Vd[e] + T0[e],
 * with W[-2], W[-1] = Vm[2], Vm[3]. */
static Op *op_sha256su1(CPUState *c, Op *o)
{
    VReg x = V(o->d), y = V(o->n), z = V(o->m), r;
    uint32_t t0[4] = { y.s[1], y.s[2], y.s[3], z.s[0] };
    r.s[0] = sigma1_small(z.s[2]) + x.s[0] + t0[0];
    r.s[1] = sigma1_small(z.s[3]) + x.s[1] + t0[1];
    r.s[2] = sigma1_small(r.s[0]) + x.s[2] + t0[2];
    r.s[3] = sigma1_small(r.s[1]) + x.s[3] + t0[3];
    V(o->d) = r;
    return op_next(c, o);
}

bool trans_CRYPTO_SHA3(DisasCtx *s, arg_CRYPTO_SHA3 *a)
{
    static const OpFn fns[8] = { op_sha1c, op_sha1p, op_sha1m, op_sha1su0,
                                 op_sha256h, op_sha256h2, op_sha256su1, NULL };
    if (!fns[a->opc])
        return false;
    Op *o = tr_emit(s, fns[a->opc]);
    o->d = a->rd;
    o->n = a->rn;
    o->m = a->rm;
    return true;
}

bool trans_CRYPTO_SHA2(DisasCtx *s, arg_CRYPTO_SHA2 *a)
{
    static const OpFn fns[3] = { op_sha1h, op_sha1su1, op_sha256su0 };
    if (a->opc > 2)
        return false;
    Op *o = tr_emit(s, fns[a->opc]);
    o->d = a->rd;
    o->n = a->rn;
    return true;
}
