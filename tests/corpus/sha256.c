/* SHA-256 (FIPS 180-4) and CRC-32 over generated data; prints digests. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

typedef struct { uint32_t h[8]; uint64_t len; uint8_t buf[64]; size_t n; } Sha;

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void block(Sha *s, const uint8_t *p)
{
    uint32_t w[64], a, b, c, d, e, f, g, h;
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    a = s->h[0]; b = s->h[1]; c = s->h[2]; d = s->h[3]; e = s->h[4]; f = s->h[5]; g = s->h[6]; h = s->h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d; s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}

static void sha_init(Sha *s)
{
    static const uint32_t iv[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
    memcpy(s->h, iv, sizeof iv);
    s->len = 0;
    s->n = 0;
}

static void sha_update(Sha *s, const uint8_t *p, size_t n)
{
    s->len += n;
    while (n) {
        size_t k = 64 - s->n < n ? 64 - s->n : n;
        memcpy(s->buf + s->n, p, k);
        s->n += k; p += k; n -= k;
        if (s->n == 64) { block(s, s->buf); s->n = 0; }
    }
}

static void sha_final(Sha *s, uint8_t out[32])
{
    uint64_t bits = s->len * 8;
    uint8_t pad = 0x80, z = 0, l[8];
    sha_update(s, &pad, 1);
    while (s->n != 56) sha_update(s, &z, 1);
    for (int i = 0; i < 8; i++) l[i] = bits >> (56 - 8 * i);
    sha_update(s, l, 8);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = s->h[i] >> 24; out[4 * i + 1] = s->h[i] >> 16; out[4 * i + 2] = s->h[i] >> 8; out[4 * i + 3] = s->h[i];
    }
}

static uint32_t crc32(const uint8_t *p, size_t n)
{
    uint32_t c = ~0u;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & -(c & 1));
    }
    return ~c;
}

static void hex(const char *tag, const uint8_t *d)
{
    printf("%s ", tag);
    for (int i = 0; i < 32; i++) printf("%02x", d[i]);
    printf("\n");
}

int main(void)
{
    static uint8_t data[1 << 20];
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < sizeof data; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        data[i] = (i & 4096) ? (uint8_t)x : (uint8_t)(i * 7);
    }
    uint8_t d[32];
    Sha s;
    sha_init(&s); sha_update(&s, (const uint8_t *)"abc", 3); sha_final(&s, d); hex("abc", d);
    sha_init(&s); sha_final(&s, d); hex("empty", d);
    size_t sizes[] = { 1, 55, 56, 63, 64, 65, 1000, 65536, sizeof data };
    for (unsigned i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        char tag[32];
        sha_init(&s);
        /* feed in odd-sized chunks */
        for (size_t off = 0; off < sizes[i];) {
            size_t k = 1 + (off * 31 + 7) % 1000;
            if (k > sizes[i] - off) k = sizes[i] - off;
            sha_update(&s, data + off, k);
            off += k;
        }
        sha_final(&s, d);
        snprintf(tag, sizeof tag, "data[%zu]", sizes[i]);
        hex(tag, d);
    }
    for (int r = 0; r < 20; r++) { /* iterate for some CPU time */
        sha_init(&s); sha_update(&s, data, sizeof data); sha_update(&s, d, 32); sha_final(&s, d);
    }
    hex("iter20", d);
    printf("crc32 %08x %08x\n", crc32(data, sizeof data), crc32((const uint8_t *)"123456789", 9));
    return d[0] & 3;
}
