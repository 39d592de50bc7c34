/* Integer-heavy loops: collatz, sieve, matrix multiply, division, 128-bit, bit tricks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int collatz_len(uint64_t n)
{
    int k = 0;
    while (n != 1) { n = (n & 1) ? 3 * n + 1 : n / 2; k++; }
    return k;
}

static uint64_t rng = 0x123456789abcdefull;
static uint64_t next(void) { rng = rng * 6364136223846793005ull + 1442695040888963407ull; return rng; }

int main(void)
{
    int best = 0; uint64_t arg = 0;
    for (uint64_t n = 1; n < 300000; n++) { int l = collatz_len(n); if (l > best) { best = l; arg = n; } }
    printf("collatz %llu %d\n", (unsigned long long)arg, best);

    static char comp[2000001];
    long count = 0, sum = 0;
    for (long i = 2; i <= 2000000; i++) {
        if (comp[i]) continue;
        count++; sum += i;
        for (long j = i * i; j <= 2000000; j += i) comp[j] = 1;
    }
    printf("primes %ld %ld\n", count, sum);

    enum { N = 96 };
    static int32_t a[N][N], b[N][N], c[N][N];
    for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) { a[i][j] = (int32_t)next() >> 20; b[i][j] = (int32_t)next() >> 22; }
    for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) {
        int64_t s = 0;
        for (int k = 0; k < N; k++) s += (int64_t)a[i][k] * b[k][j];
        c[i][j] = (int32_t)(s ^ (s >> 32));
    }
    uint32_t h = 0;
    for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) h = h * 31 + (uint32_t)c[i][j];
    printf("matmul %08x\n", h);

    uint64_t acc = 0; int64_t sacc = 0;
    for (int i = 0; i < 200000; i++) {
        uint64_t x = next(), y = next() >> (i % 63);
        int64_t sx = (int64_t)next(), sy = (int64_t)(next() >> (i % 61)) - (1ll << 20);
        if (y) acc += x / y + x % y;
        if (sy && !(sx == INT64_MIN && sy == -1)) sacc += sx / sy + sx % sy;
        uint32_t x32 = (uint32_t)x, y32 = (uint32_t)y | 1;
        acc ^= x32 / y32 * 3 + (int32_t)x32 % (int32_t)y32;
        unsigned __int128 p = (unsigned __int128)x * y;
        __int128 sp = (__int128)sx * sy;
        acc += (uint64_t)(p >> 64) ^ (uint64_t)(sp >> 64) ^ (uint64_t)sp;
        acc += __builtin_popcountll(x) + __builtin_clzll(x | 1) + __builtin_ctzll(y | (1ull << 63));
        acc = (acc << 7 | acc >> 57) ^ __builtin_bswap64(x) ^ __builtin_bswap32(y32);
        acc += (uint16_t)(x >> 3) * (int8_t)(y >> 5) - (int16_t)(sx >> 40);
    }
    printf("div %016llx %lld\n", (unsigned long long)acc, (long long)sacc);

    /* bit reversal and trailing zeros (RBIT alone, RBIT + CLZ into one register), zero included */
    uint64_t r = 0;
    for (int i = 0; i < 100000; i++) {
        uint64_t x = i % 97 == 0 ? 0 : next() >> (i % 64), rx, t;
        uint32_t rx32, t32;
        __asm__("rbit %0, %1" : "=r"(rx) : "r"(x));
        __asm__("rbit %w0, %w1" : "=r"(rx32) : "r"((uint32_t)x));
        __asm__("rbit %0, %1\n\tclz %0, %0" : "=&r"(t) : "r"(x));
        __asm__("rbit %w0, %w1\n\tclz %w0, %w0" : "=&r"(t32) : "r"((uint32_t)(x >> 7)));
        r = (r * 31) ^ rx ^ rx32 ^ t ^ ((uint64_t)t32 << 7) ^ (uint64_t)__builtin_ctzll(x | (1ull << 40));
    }
    printf("rbit %016llx\n", (unsigned long long)r);

    /* shifts and extensions with variable amounts, signed overflow-free arithmetic */
    uint64_t z = 0;
    for (int i = 0; i < 100000; i++) {
        uint64_t x = next();
        int sh = (int)(x & 63);
        z += (x >> sh) ^ (x << (63 - sh)) ^ (uint64_t)((int64_t)x >> sh) ^ (uint32_t)((uint32_t)x >> (sh & 31));
        z += (int64_t)(int32_t)x + (int64_t)(int16_t)(x >> 16) + (uint64_t)(uint8_t)(x >> 9);
        z = z < x ? z + 1 : z - 1;
        z += (x & 0xff00ff00ff00ff00ull) ? 3 : 5;
    }
    printf("shift %016llx\n", (unsigned long long)z);
    return (int)(z & 7);
}
