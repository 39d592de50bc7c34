#!/usr/bin/env python3
"""Deterministic input files for the Debian tests and the CPU benchmark.

    gen_data.py text SIZE OUT    compressible pseudo-text (words, numbers, lines)
    gen_data.py binary SIZE OUT  half random bytes, half structured records
Same output on every machine and Python 3 version (own xorshift generator)."""
import sys

WORDS = ('alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november '
         'oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu emulator '
         'translate block register vector float cache branch memory syscall signal page table '
         'the of and to in is it for on with as by at from').split()


class Rng:
    def __init__(self, seed):
        self.s = seed or 1

    def next(self):
        s = self.s
        s ^= (s << 13) & 0xffffffffffffffff
        s ^= s >> 7
        s ^= (s << 17) & 0xffffffffffffffff
        self.s = s
        return s


def text(size, out):
    r = Rng(0x9e3779b97f4a7c15)
    buf = []
    n = 0
    line = 0
    while n < size:
        line += 1
        k = 4 + r.next() % 12
        ws = [WORDS[r.next() % len(WORDS)] for _ in range(k)]
        if r.next() % 3 == 0:
            ws.insert(r.next() % k, str(r.next() % 100000))
        s = '%d %s\n' % (line, ' '.join(ws))
        buf.append(s)
        n += len(s)
    data = ''.join(buf).encode()[:size]
    out.write(data)


def binary(size, out):
    r = Rng(12345)
    data = bytearray()
    while len(data) < size:
        if (len(data) // 65536) % 2:
            for _ in range(8192):
                data += r.next().to_bytes(8, 'little')
        else:
            for i in range(4096):
                v = r.next()
                data += (i).to_bytes(4, 'little') + (v & 0xffff).to_bytes(4, 'little') + bytes(8)
    out.write(bytes(data[:size]))


if __name__ == '__main__':
    kind, size, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(path, 'wb') as f:
        {'text': text, 'binary': binary}[kind](size, f)
