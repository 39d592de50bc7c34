# Fixed compute workload for python3 (benchmark and Debian differential test).
# usage: python3 compute.py [SCALE]   -- output depends only on SCALE
import sys, json, math, struct, zlib, hashlib, re, random
from fractions import Fraction
from decimal import Decimal, getcontext

scale = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
N = lambda n: max(1, int(n * scale))

def sieve(n):
    s = bytearray([1]) * (n + 1)
    s[0:2] = b'\0\0'
    for i in range(2, int(n ** 0.5) + 1):
        if s[i]:
            s[i * i::i] = bytes(len(range(i * i, n + 1, i)))
    return [i for i in range(n + 1) if s[i]]

def nbody(steps):
    bodies = [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 39.47841760435743],
              [4.84, -1.16, -0.10, 0.606, 2.81, -0.02, 0.037],
              [8.34, 4.12, -0.40, -1.01, 1.82, 0.008, 0.011],
              [12.89, -15.11, -0.22, 1.08, 0.868, -0.01, 0.0017],
              [15.37, -25.91, 0.179, 0.979, 0.594, -0.034, 0.002]]
    dt = 0.01
    for _ in range(steps):
        for i, a in enumerate(bodies):
            for b in bodies[i + 1:]:
                dx, dy, dz = a[0] - b[0], a[1] - b[1], a[2] - b[2]
                d2 = dx * dx + dy * dy + dz * dz
                mag = dt / (d2 * math.sqrt(d2))
                a[3] -= dx * b[6] * mag; a[4] -= dy * b[6] * mag; a[5] -= dz * b[6] * mag
                b[3] += dx * a[6] * mag; b[4] += dy * a[6] * mag; b[5] += dz * a[6] * mag
        for b in bodies:
            b[0] += dt * b[3]; b[1] += dt * b[4]; b[2] += dt * b[5]
    return sum(b[0] + b[1] + b[2] for b in bodies)

out = {}
p = sieve(N(200000))
out['primes'] = [len(p), p[-1], sum(p) % 1000003]
out['nbody'] = '%.12e' % nbody(N(3000))
rng = random.Random(42)
data = [rng.random() for _ in range(N(50000))]
data.sort()
out['sort'] = [data[0], data[len(data) // 2], sum(data)]
words = ' '.join('w%d' % (rng.randrange(5000)) for _ in range(N(60000)))
cnt = {}
for w in re.findall(r'w(\d+)', words):
    cnt[w] = cnt.get(w, 0) + 1
out['words'] = sorted(cnt.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
blob = words.encode() * 3
out['zlib'] = [len(zlib.compress(blob, 9)), zlib.crc32(blob), zlib.adler32(blob)]
out['sha256'] = hashlib.sha256(blob).hexdigest()
out['md5'] = hashlib.md5(blob).hexdigest()
out['bigint'] = str(math.factorial(N(2000)) % (10 ** 40 + 7))
out['fraction'] = str(sum(Fraction(1, k) for k in range(1, 300)))[-30:]
getcontext().prec = 60
out['decimal'] = str(Decimal(2).sqrt() * Decimal(3).ln())
out['math'] = [math.sin(1e10), math.exp(-3.5), math.log1p(1e-10), math.atan2(-1, -2), math.gamma(4.5),
               math.fsum([0.1] * 10), 1e308 * 10, struct.unpack('<d', struct.pack('<q', 0x7ff0000000000001))[0] != 0]
out['fmt'] = ['%.17g' % (x / 7) for x in range(1, 12)] + [repr(0.1 + 0.2), '%e' % 1.5e-310, float('1e-320').hex()]
print(json.dumps(out, indent=1, sort_keys=True, default=str))
