#!/usr/bin/env python3
"""Random AArch64 instruction-sequence generator for differential testing.

Emits a static, -nostdlib AArch64 assembly program.  The program runs a number
of *sequences*; before each one it loads a fresh random architectural state
(X0-X30, SP, NZCV, FPCR, FPSR, V0-V31, and -- for memory classes -- a scratch
buffer image), runs the sequence and then writes a fixed-size binary record to
stdout (write syscall) holding the resulting state.  Sequences are independent,
so any divergence between two runners is pinned to one sequence.

Record layout (little-endian), RECSZ bytes:
    0   u32 'DUMP' magic        4   u32 sequence index
    8   X0..X30 (31 x u64)    256   SP
  264   NZCV                  272   FPSR                 280   FPCR
  288   V0..V31 (32 x 16 bytes)
  800   scratch buffer (SCRATCH bytes; only for classes that touch memory)
UNDEF records (programs built with a SIGILL handler): u32 'UNDF', u32 0, u64 pc.
Last record: u32 'DONE', u32 number of sequences, u64 0.

The harness needs no general-purpose register: the sequence's X0 is parked in
TPIDR_EL0 while the dump code gets an address register, and the state loader
returns through TPIDR_EL0.

Instructions come from per-class encoding templates whose fields are randomised
(unallocated encodings are removed afterwards by running the program once under
the reference with a SIGILL handler -- see difftest.py), plus text templates for
branches and exclusives.  Everything is derived from the seed.
"""
import random
import struct
import sys

SCRATCH = 512          # bytes of scratch buffer that is reset, used and dumped
MAXACC = 64            # largest single access (LD4/LD1 of four Q registers)
SCRATCH_OFF = 3840     # scratch starts this far into a page, so accesses near offset 256 cross pages
REC_BASE = 800
MAGIC_DUMP = 0x504d5544  # 'DUMP'
MAGIC_UNDF = 0x46444e55  # 'UNDF'
MAGIC_DONE = 0x454e4f44  # 'DONE'

MEM_CLASSES = {'ldst', 'excl', 'lse'}
# Classes of Armv8.1+ instructions: the reference is qemu-aarch64 -cpu max (difftest.py), and the
# program is assembled with the extensions enabled.
MAX_CLASSES = {'lse', 'rdm', 'dotprod', 'sha512', 'sha3', 'fp16'}


def recsz(cls_list):
    return REC_BASE + (SCRATCH if any(c in MEM_CLASSES for c in cls_list) else 0)


# --------------------------------------------------------------------------
# random values


def rand_x(r):
    k = r.random()
    if k < 0.35:
        return r.getrandbits(64)
    if k < 0.55:
        return r.randrange(0, 256)
    if k < 0.65:
        return (-r.randrange(1, 256)) & (2**64 - 1)
    if k < 0.75:
        return r.getrandbits(32)
    if k < 0.85:
        return r.choice([0, 1, 2**63, 2**63 - 1, 2**64 - 1, 2**31, 2**31 - 1, 2**32 - 1, 2**32,
                         0xffffffff80000000, 0x7fffffff80000000, 0x8000000000000001])
    if k < 0.93:  # FP bit patterns, for FMOV / SCVTF etc.
        return struct.unpack('<Q', struct.pack('<d', rand_double(r)))[0]
    return 1 << r.randrange(64)


F64_SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1.5, 3.0, -2.5, float('inf'), float('-inf'), 1e300,
               -1e-300, 2.0**63, -2.0**63, 2.0**31, -2.0**31 - 1, 2.0**64, 4294967295.0, 65535.5,
               1e-310, -5e-324, 0.1, 1.0 / 3, 2.5, 3.5, -0.5, 1e10]


def rand_double(r):
    k = r.random()
    if k < 0.5:
        return r.choice(F64_SPECIAL)
    if k < 0.8:
        return r.uniform(-1000, 1000)
    return r.uniform(-1e12, 1e12) * r.choice([1, 1e-30, 1e30])


F32_BITS = [0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x3f000000, 0x40000000, 0x7f800000,
            0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x7fbfffff, 0x00000001, 0x807fffff,
            0x00800000, 0x7f7fffff, 0x4f000000, 0xcf000000, 0x4f800000, 0x3eaaaaab, 0x40490fdb,
            0x5f000000, 0x47800000, 0x3fc00000, 0x40200000, 0x00400000]
F64_BITS = [0x7ff8000000000000, 0xfff8000000000001, 0x7ff0000000000001, 0x7ff4000000000000,
            0x0000000000000001, 0x800fffffffffffff, 0x0010000000000000, 0x7fefffffffffffff]
F16_BITS = [0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x0001, 0x03ff,
            0x7bff, 0x3800, 0x4000, 0xfe01]


def rand_lanes(r, esize):
    n = 16 // esize
    out = bytearray()
    for _ in range(n):
        k = r.random()
        if esize == 8:
            if k < 0.3:
                v = r.getrandbits(64)
            elif k < 0.5:
                v = r.choice(F64_BITS)
            else:
                v = struct.unpack('<Q', struct.pack('<d', rand_double(r)))[0]
        elif esize == 4:
            if k < 0.3:
                v = r.getrandbits(32)
            elif k < 0.6:
                v = r.choice(F32_BITS)
            else:
                d = rand_double(r)
                try:
                    v = struct.unpack('<I', struct.pack('<f', d))[0]
                except OverflowError:
                    v = 0x7f800000 if d > 0 else 0xff800000
        elif esize == 2:
            v = r.getrandbits(16) if k < 0.6 else r.choice(F16_BITS)
        else:
            v = r.getrandbits(8) if k < 0.7 else r.choice([0, 0x7f, 0x80, 0xff, 1])
        out += v.to_bytes(esize, 'little')
    return bytes(out)


def rand_f16(r):
    """A half-precision operand: specials, subnormals, values near 1 and near the subnormal
    boundary (so sums, products and FMAs land on exact halfway cases), or random bits."""
    k = r.random()
    if k < 0.3:
        return r.choice(F16_BITS + [0x0400, 0x8400, 0x7dff, 0xfd00, 0x3555, 0x3bff, 0x3c01, 0x5bff,
                                    0x7800, 0x0200, 0x8001, 0x4900, 0xc900, 0x1400])
    if k < 0.55:  # exponent near 1.0, sparse fractions: products land exactly on ties, so a tiny
        # addend decides an FMA's rounding (an FMA rounded twice gets these wrong)
        return (r.getrandbits(1) << 15) | (r.randrange(13, 18) << 10) | r.choice([0, 1, 0x200, 0x3ff,
                                                                                  0x201, 0x300, 0x101,
                                                                                  r.getrandbits(10)])
    if k < 0.7:  # subnormal and smallest normals (FZ16, underflow)
        return (r.getrandbits(1) << 15) | (r.randrange(0, 3) << 10) | r.getrandbits(10)
    if k < 0.8:  # near overflow
        return (r.getrandbits(1) << 15) | (r.randrange(28, 31) << 10) | r.getrandbits(10)
    return r.getrandbits(16)


def fp16_state(r, st):
    """Class fp16: every V register holds half-precision lanes, FPCR.FZ16 is random."""
    st['v'] = [b''.join(rand_f16(r).to_bytes(2, 'little') for _ in range(8)) for _ in range(32)]
    for i in range(32):
        if r.random() < 0.15:  # an integer lane pattern for the xCVTF forms
            st['v'][i] = rand_lanes(r, 2)
    if r.random() < 0.8:
        st['fpcr'] = (r.randrange(4) << 22) | (r.randrange(2) << 24) | (r.randrange(2) << 25) | \
            (r.randrange(2) << 26) | (r.randrange(2) << 19)


def rand_v(r):
    k = r.random()
    if k < 0.25:
        return r.getrandbits(128).to_bytes(16, 'little')
    if k < 0.5:
        return rand_lanes(r, 4)
    if k < 0.7:
        return rand_lanes(r, 8)
    if k < 0.85:
        return rand_lanes(r, 2)
    if k < 0.93:
        return rand_lanes(r, 1)
    return bytes(16) if r.random() < 0.5 else rand_lanes(r, 4)[:8] + bytes(8)


def rand_state(r, sp_mem):
    st = {}
    st['x'] = [rand_x(r) for _ in range(31)]
    st['v'] = [rand_v(r) for _ in range(32)]
    # equal and adjacent values make comparisons, carries and min/max hit their edge cases
    for i in range(31):
        if r.random() < 0.12:
            st['x'][i] = (st['x'][r.randrange(31)] + r.choice([0, 0, 0, 1, -1])) & (2**64 - 1)
    for i in range(32):
        if r.random() < 0.1:
            j = r.randrange(32)
            st['v'][i] = st['v'][j] if r.random() < 0.7 else rand_lanes(r, 4)[:8] + st['v'][j][8:]
    # FPCR: RMode, FZ, DN, AHP random; trap enables / Len / Stride zero.
    st['fpcr'] = (r.randrange(4) << 22) | (r.randrange(2) << 24) | (r.randrange(2) << 25) | \
        (r.randrange(2) << 26) if r.random() < 0.8 else 0
    st['fpsr'] = 0 if r.random() < 0.7 else (r.choice([1, 2, 4, 8, 16, 128, 1 << 27, 0x9f, 0x0800009f]))
    st['nzcv'] = r.randrange(16) << 28
    if sp_mem and r.random() < 0.5:
        st['sp'] = None  # set to scratch + offset by the loader (see emit)
        st['sp_off'] = r.randrange(0, SCRATCH, 16)
    else:
        st['sp'] = rand_x(r) & ~0xf if r.random() < 0.5 else rand_x(r)
    return st


# --------------------------------------------------------------------------
# encoding templates
#
# A template is a 32-character string, most significant bit first.  '0'/'1'
# are fixed bits, 'x' random bits.  Letters name register fields that the
# memory templates fill in themselves: n base, t transfer, u second transfer,
# m index/post-increment register.  A predicate may reject a word.


def fill(r, pat, fields=None):
    assert len(pat) == 32, pat
    w = 0
    fields = fields or {}
    pos = {}
    for i, ch in enumerate(pat):
        bit = 31 - i
        if ch == '0':
            continue
        if ch == '1':
            w |= 1 << bit
        elif ch == 'x':
            w |= r.getrandbits(1) << bit
        else:
            pos.setdefault(ch, []).append(bit)
    for ch, bits in pos.items():
        val = fields[ch]
        for j, bit in enumerate(sorted(bits)):
            w |= ((val >> j) & 1) << bit
    return w


def bits(w, hi, lo):
    return (w >> lo) & ((1 << (hi - lo + 1)) - 1)


X = 'x'


def P(s):
    s = s.replace(' ', '')
    assert len(s) == 32, (s, len(s))
    return s


# Integer data processing (immediate and register).  Predicates keep most
# words allocated; the rest is removed by the UNDEF filter.
def _sf(w):
    return bits(w, 31, 31)


INT_T = [
    (P('xxx10000' + X * 24), 0.5, None),                            # ADR/ADRP
    (P('xxx1000100' + X * 22), 2, None),                            # add/sub immediate
    (P('xxx100100' + X * 23), 1.5, lambda w: _sf(w) or not bits(w, 22, 22)),    # logical immediate
    (P('xxx100101' + X * 23), 1, lambda w: bits(w, 30, 29) != 1 and (_sf(w) or bits(w, 22, 22) == 0)),
    (P('xxx100110' + X * 23), 1.5, lambda w: bits(w, 30, 29) != 3 and bits(w, 22, 22) == _sf(w) and
     (_sf(w) or (bits(w, 21, 21) == 0 and bits(w, 15, 15) == 0))),                 # bitfield
    (P('x00100111' + X * 23), 0.5, lambda w: bits(w, 22, 22) == _sf(w) and not bits(w, 21, 21) and
     (_sf(w) or not bits(w, 15, 15))),                                             # EXTR
    (P('xxx01010' + X * 24), 2, lambda w: _sf(w) or not bits(w, 15, 15)),           # logical (shifted)
    (P('xxx01011xx0' + X * 21), 2, lambda w: bits(w, 23, 22) != 3 and (_sf(w) or not bits(w, 15, 15))),
    (P('xxx0101100 1' + X * 21), 1, lambda w: bits(w, 12, 10) <= 4),              # add/sub extended
    (P('xxx11010000 xxxxx 000000 xxxxxxxxxx'), 1, None),           # ADC/SBC{S}
    (P('xx111010010xxxxxxxxxx0xxxxx0xxxx'), 1, None),               # CCMN/CCMP reg/imm
    (P('xx011010100xxxxxxxxx0x' + X * 10), 1.5, None),              # CSEL/CSINC/CSINV/CSNEG
    (P('x0011010110xxxxx' + X * 16), 2, lambda w: bits(w, 15, 10) in (2, 3, 8, 9, 10, 11) or
     (16 <= bits(w, 15, 10) <= 23 and (bits(w, 11, 10) == 3) == bool(_sf(w)))),     # DIV, shifts, CRC32
    (P('x101101011000000000xxx' + X * 10), 1, lambda w: bits(w, 12, 10) <= 5 and (bits(w, 12, 10) != 3 or _sf(w))),
    (P('x0011011' + X * 24), 2, lambda w: bits(w, 23, 21) == 0 or (_sf(w) and (
        bits(w, 23, 21) in (1, 5) or (bits(w, 23, 21) in (2, 6) and not bits(w, 15, 15))))),  # DP 3 source
]

# Scalar floating point (single/double mostly; one template with any type).
FP_T = [
    (P('x0011110 0x0' + X * 21), 1, lambda w: _sf(w) or bits(w, 15, 15)),          # FP <-> fixed point
    (P('x0011110 0x1xxxxx000000' + X * 10), 2, None),               # FP <-> integer, FMOV
    (P('00011110 0x1 0000xx 10000' + X * 10), 1.5, None),           # FMOV/FABS/FNEG/FSQRT/FCVT
    (P('00011110 0x1 001xxx 10000' + X * 10), 1.5, None),           # FRINT*
    (P('00011110 0x1xxxxxxx1000' + X * 10), 1, None),               # FCMP/FCMPE
    (P('00011110 0x1xxxxxxxx100' + X * 10), 0.5, None),             # FMOV immediate
    (P('00011110 0x1xxxxxxxxx01' + X * 10), 1, None),               # FCCMP/FCCMPE
    (P('00011110 0x1xxxxx0xxx10' + X * 10), 2, None),               # FP DP 2 source
    (P('00011110 0x1xxxxx1000 10' + X * 10), 0.3, None),            # FNMUL
    (P('00011110 0x1xxxxxxxxx11' + X * 10), 1, None),               # FCSEL
    (P('00011111 0x' + X * 22), 2, None),                           # FMADD/FMSUB/FNMADD/FNMSUB
    (P('x0x11110xx' + X * 22), 0.5, None),                          # anything, incl. half/invalid types
]


def op3same(w):
    return bits(w, 15, 11)


def is_fp_2misc(w):
    op = bits(w, 16, 12)
    return 0x0c <= op <= 0x0f or op >= 0x16


def is_fp_lanes(w):
    return bits(w, 16, 12) in (0x0c, 0x0f)


def is_fp_idx(w):
    return bits(w, 15, 12) in (1, 5, 9)


def is_fp_shift(w):
    return bits(w, 15, 11) in (0x1c, 0x1f)


SIMD_INT_T = [
    (P('0xx01110xx1xxxxxxxxxx1' + X * 10), 4, lambda w: op3same(w) < 0x18),   # three same
    (P('01x11110xx1xxxxxxxxxx1' + X * 10), 1.5, lambda w: op3same(w) < 0x18), # scalar three same
    (P('0xx01110xx1xxxxxxxxx00' + X * 10), 2.5, lambda w: bits(w, 15, 12) != 0xe),  # three different
    (P('01x11110xx1xxxxxxxxx00' + X * 10), 0.5, None),                      # scalar three different
    (P('0xx01110xx10000xxxxx10' + X * 10), 2, lambda w: not is_fp_2misc(w)),  # two-reg misc
    (P('01x11110xx10000xxxxx10' + X * 10), 1, lambda w: not is_fp_2misc(w)),  # scalar two-reg misc
    (P('0xx01110xx11000xxxxx10' + X * 10), 1, lambda w: not is_fp_lanes(w)),  # across lanes
    (P('0xx0111100000xxxxxxxx1' + X * 10), 1, None),                        # modified immediate
    (P('0xx011110xxxxxxxxxxxx1' + X * 10), 2.5, lambda w: not is_fp_shift(w)),  # shift by immediate
    (P('01x111110xxxxxxxxxxxx1' + X * 10), 1, lambda w: not is_fp_shift(w)),   # scalar shift by imm
    (P('0xx01111xxxxxxxxxxxxx0' + X * 10), 1.5, lambda w: not is_fp_idx(w)),   # by element
    (P('01x11111xxxxxxxxxxxxx0' + X * 10), 0.5, lambda w: not is_fp_idx(w)),   # scalar by element
]

SIMD_FP_T = [
    (P('0xx01110xx1xxxxx11xxx1' + X * 10), 4, None),                        # three same FP
    (P('01x11110xx1xxxxx11xxx1' + X * 10), 1.5, None),                      # scalar three same FP
    (P('0xx01110xx10000xxxxx10' + X * 10), 3, is_fp_2misc),                # two-reg misc FP
    (P('01x11110xx10000xxxxx10' + X * 10), 1.5, is_fp_2misc),              # scalar two-reg misc FP
    (P('0xx01110xx11000xxxxx10' + X * 10), 0.7, is_fp_lanes),              # FMAXV & co
    (P('01x11110xx11000xxxxx10' + X * 10), 0.7, None),                      # scalar pairwise
    (P('0xx011110xxxxxxx111xx1' + X * 10), 1, is_fp_shift),                # fixed-point convert
    (P('01x111110xxxxxxx111xx1' + X * 10), 0.5, is_fp_shift),              # scalar fixed-point
    (P('0xx01111xxxxxxxxxxxxx0' + X * 10), 1.5, is_fp_idx),                # FMLA/FMUL by element
    (P('01x11111xxxxxxxxxxxxx0' + X * 10), 0.7, is_fp_idx),                # scalar by element
    (P('0xx0111100000xxx1111x1' + X * 10), 0.3, None),                      # FMOV vector imm
]

SIMD_PERM_T = [
    (P('0x001110xx0xxxxx0xxx10' + X * 10), 3, None),                        # ZIP/UZP/TRN
    (P('0x101110xx0xxxxx0xxxx0' + X * 10), 1.5, None),                      # EXT
    (P('0x001110xx0xxxxx0xxx00' + X * 10), 2, None),                        # TBL/TBX
    (P('0xx01110000xxxxx0xxxx1' + X * 10), 3, None),                        # DUP/INS/UMOV/SMOV
    (P('01x11110000xxxxx0xxxx1' + X * 10), 0.7, None),                      # scalar DUP
]

CRYPTO_T = [
    (P('0100111000101000010x10' + X * 10), 2, None),                        # AESE/AESD
    (P('0100111000101000011x10' + X * 10), 2, None),                        # AESMC/AESIMC
    (P('01011110000xxxxx0xxx00' + X * 10), 3, None),                        # SHA 3-register
    (P('0101111000101000000x10' + X * 10), 1, None),                        # SHA1H / SHA1SU1 / SHA256SU0
    (P('01011110001010000010' + 'x' * 12), 0.5, None),                      # SHA 2-reg (rest)
    (P('0x001110xx1xxxxx111000' + X * 10), 1.5, None),                      # PMULL/PMULL2
]

# Whole data-processing / FP / SIMD encoding space (for UNDEF exactness).
UNDEF_T = [
    (P('xxx100' + X * 26), 1, None),
    (P('xxxx101' + X * 25), 1, None),
    (P('xxxx111' + X * 25), 3, None),
]

# Armv8.1 RDM: SQRDMLAH / SQRDMLSH (U = 1), vector and scalar, three-same-extra and by element;
# size 01 / 10 only (the others are unallocated).
RDM_SIZE = lambda w: bits(w, 23, 22) in (1, 2)  # noqa: E731
RDM_T = [
    (P('0x101110xx0xxxxx1000x1' + X * 10), 3, RDM_SIZE),                   # vector
    (P('01111110xx0xxxxx1000x1' + X * 10), 1.5, RDM_SIZE),                 # scalar
    (P('0x101111xxxxxxxx11x1x0' + X * 10), 3, RDM_SIZE),                   # vector by element
    (P('01111111xxxxxxxx11x1x0' + X * 10), 1.5, RDM_SIZE),                 # scalar by element
]

# Armv8.2 DotProd: SDOT / UDOT (U random), vector and by element; size 10.
DOTPROD_T = [
    (P('0xx01110100xxxxx100101' + X * 10), 3, None),                       # vector
    (P('0xx0111110xxxxxx1110x0' + X * 10), 3, None),                       # by element
]

# Armv8.2 SHA512: SHA512H / SHA512H2 / SHA512SU1 (opcode 11 is RAX1, class sha3), SHA512SU0.
SHA512_T = [
    (P('11001110011xxxxx1000xx' + X * 10), 3, lambda w: bits(w, 11, 10) != 3),
    (P('1100111011000000100000' + X * 10), 1, None),
]

# Armv8.2 SHA3: EOR3 / BCAX, RAX1, XAR.
SHA3_T = [
    (P('1100111000xxxxxx0' + X * 15), 2, None),                             # EOR3 / BCAX
    (P('11001110011xxxxx100011' + X * 10), 1, None),                       # RAX1
    (P('11001110100' + X * 21), 2, None),                                   # XAR
]

# Armv8.2 FEAT_FP16: scalar FP with ftype = 11 and the AdvSIMD half-precision groups.
# Two-reg misc FP16 words the reference gets wrong, kept out (qemu-aarch64 7.2, -cpu max): the
# unallocated vector FRECPX and scalar FABS / FSQRT abort qemu (g_assert_not_reached in
# disas_simd_two_reg_misc_fp16), and the unallocated scalar FNEG runs instead of UNDEFing.
def fp16_2misc_ok(w, scalar):
    key = (bits(w, 29, 29), bits(w, 23, 23), bits(w, 16, 12))
    return key not in ({(0, 1, 0x0f), (1, 1, 0x1f), (1, 1, 0x0f)} if scalar else {(0, 1, 0x1f)})


FP16_T = [
    (P('x0011110 110' + X * 21), 1, lambda w: _sf(w) or bits(w, 15, 15)),        # H <-> fixed point
    (P('x0011110 111xxxxx000000' + X * 10), 2, None),               # H <-> integer, FMOV H <-> W/X
    (P('00011110 111 000xxx 10000' + X * 10), 1.5, None),           # FMOV/FABS/FNEG/FSQRT/FCVT H
    (P('00011110 111 001xxx 10000' + X * 10), 1.5, None),           # FRINT* H
    (P('00011110 111xxxxxxx1000' + X * 10), 1, None),               # FCMP/FCMPE H
    (P('00011110 111xxxxxxxx100' + X * 10), 0.5, None),             # FMOV H, #imm
    (P('00011110 111xxxxxxxxx01' + X * 10), 1, None),               # FCCMP/FCCMPE H
    (P('00011110 111xxxxx0xxx10' + X * 10), 2, None),               # FP DP 2 source H
    (P('00011110 111xxxxx1000 10' + X * 10), 0.3, None),            # FNMUL H
    (P('00011110 111xxxxxxxxx11' + X * 10), 0.7, None),             # FCSEL H
    (P('00011111 11' + X * 22), 2.5, None),                         # FMADD/FMSUB/FNMADD/FNMSUB H
    (P('0xx01110x10xxxxx00xxx1' + X * 10), 4, None),                # three same FP16
    (P('01x11110x10xxxxx00xxx1' + X * 10), 1.5, None),              # scalar three same FP16
    (P('0xx01110x111100xxxxx10' + X * 10), 3, lambda w: fp16_2misc_ok(w, False)),  # two-reg misc FP16
    (P('01x11110x111100xxxxx10' + X * 10), 1.5, lambda w: fp16_2misc_ok(w, True)),  # scalar 2-reg misc
    (P('0x001110x011000011xx10' + X * 10), 0.7, None),              # FMAXV & co .4H/.8H
    (P('01011110x011000011xx10' + X * 10), 0.7, None),              # scalar pairwise H
    (P('0xx0111100xxxxxxxxxxx0' + X * 10), 1.5, is_fp_idx),         # FMLA/FMLS/FMUL/FMULX by element
    (P('01x1111100xxxxxxxxxxx0' + X * 10), 0.7, is_fp_idx),         # scalar by element
    (P('0xx011110001xxxx111xx1' + X * 10), 1, is_fp_shift),         # fixed-point convert .H
    # scalar SCVTF/UCVTF H only: qemu 7.2 writes a scalar FCVTZS/FCVTZU H, #fbits result as 32 bits
    (P('01x111110001xxxx11100 1' + X * 10), 0.5, None),             # scalar fixed-point H
    (P('0x00111100000xxx111111' + X * 10), 0.3, None),              # FMOV .4H/.8H, #imm
]

TEMPLATES = {
    'int': INT_T, 'fp': FP_T, 'simd_int': SIMD_INT_T, 'simd_fp': SIMD_FP_T,
    'simd_perm': SIMD_PERM_T, 'crypto': CRYPTO_T, 'undef': UNDEF_T, 'rdm': RDM_T,
    'dotprod': DOTPROD_T, 'sha512': SHA512_T, 'sha3': SHA3_T,
    'fp16': FP16_T,
}


# 'alias': integer data processing whose register fields are tied together or set to 31 (XZR, or
# SP where the encoding says so): Rd == Rn, Rd == Rm, all three, or one of them 31, for the
# native emitters' register cases (rd sharing a source's host register, XZR scratch, results
# to XZR).  Add/sub (immediate, shifted, extended), logical, bitfield, CCMP/CCMN (whose
# failed-condition flags a following CSEL may test), CSEL family, DP 3 source.
ALIAS_T = [INT_T[i] for i in (1, 2, 4, 6, 7, 8, 10, 11, 14)]


def gen_alias_word(r):
    while True:
        pat, _, pred = pick(r, ALIAS_T)
        w = fill(r, pat)
        rd, mode = w & 31, r.randrange(7)
        if mode in (0, 2):
            w = (w & ~(31 << 5)) | rd << 5
        if mode in (1, 2):
            w = (w & ~(31 << 16)) | rd << 16
        if mode == 3:
            w |= 31
        elif mode == 4:
            w |= 31 << 5
        elif mode == 5:
            w |= 31 << 16
        if pred is None or pred(w):
            return w


def pick(r, tmpls):
    tot = sum(t[1] for t in tmpls)
    x = r.uniform(0, tot)
    for t in tmpls:
        x -= t[1]
        if x <= 0:
            return t
    return tmpls[-1]


def gen_word(r, tmpls):
    while True:
        pat, _, pred = pick(r, tmpls)
        w = fill(r, pat)
        if pred is None or pred(w):
            return w


def signed(v, n):
    return v - (1 << n) if v & (1 << (n - 1)) else v


# --------------------------------------------------------------------------
# sequences: list of items (kind, text, is_setup) with kind 'i' (instruction)
# or 'l' (label).

class Seq:
    def __init__(self, k):
        self.k = k
        self.items = []
        self.nlabels = 0

    def ins(self, text, setup=False):
        self.items.append(('i', text, setup))

    def word(self, w, setup=False):
        self.items.append(('i', '.inst 0x%08x' % w, setup))

    def label(self):
        self.nlabels += 1
        return 'L%d_%d' % (self.k, self.nlabels)


def set_xreg(seq, reg, val):
    """movz/movk sequence setting X<reg> (0..30) to val."""
    val &= 2**64 - 1
    parts = [(val >> (16 * i)) & 0xffff for i in range(4)]
    seq.ins('movz x%d, #0x%x' % (reg, parts[0]), True)
    for i in range(1, 4):
        if parts[i]:
            seq.ins('movk x%d, #0x%x, lsl #%d' % (reg, parts[i], 16 * i), True)


def set_base(seq, r, base, delta, avoid):
    """Point register `base` (0..31, 31 = SP) at scratch + delta."""
    if base == 31:
        tmp = r.choice([x for x in range(31) if x not in avoid])
        seq.ins('adrp x%d, scratch' % tmp, True)
        src = 'x%d' % tmp
        dst = 'sp'
    else:
        seq.ins('adrp x%d, scratch' % base, True)
        src = dst = 'x%d' % base
    delta += SCRATCH_OFF  # adrp gave the page; scratch is SCRATCH_OFF into it
    op = 'add' if delta >= 0 else 'sub'
    d = abs(delta)
    hi, lo = d >> 12, d & 0xfff
    if hi:
        seq.ins('%s %s, %s, #%d, lsl #12' % (op, dst, src, hi), True)
        src = dst
    if lo or src != dst:
        seq.ins('%s %s, %s, #%d' % (op, dst, src, lo), True)


def pick_ea(r, align):
    """An effective address offset inside the scratch buffer."""
    if align > 1 and r.random() < 0.75:
        return r.randrange(0, SCRATCH - MAXACC, align)
    return r.randrange(0, SCRATCH - MAXACC)


def reg_other(r, exclude, allow31=False):
    return r.choice([x for x in range(32 if allow31 else 31) if x not in exclude])


def gen_ldst(r, seq):
    kind = r.choices(['uimm', 'imm9', 'regoff', 'pair', 'lit', 'vmult', 'vsingle', 'dczva'],
                     [3, 3, 2.5, 3, 0.7, 1.5, 1.5, 0.3])[0]
    n = r.randrange(32)
    t = r.randrange(32)
    if kind == 'dczva':  # zeroes the 64-byte block (DCZID_EL0 on cortex-a57) holding the address
        n = r.randrange(31)
        set_base(seq, r, n, r.randrange(0, SCRATCH - MAXACC), set())
        seq.ins('dc zva, x%d' % n)
        return
    if kind == 'lit':
        opc = r.randrange(4)
        off = r.randrange(0, 256 - 16, 4)
        v = r.random() < 0.4
        if v:
            seq.ins('ldr %s%d, litpool+%d' % ('sdq'[min(opc, 2)], t, off))
        elif opc == 3:
            seq.ins('prfm pldl1keep, litpool+%d' % off)
        else:
            seq.ins('%s %s%d, litpool+%d' % (['ldr', 'ldr', 'ldrsw'][opc], 'wxx'[opc], min(t, 30), off))
        return
    if kind == 'uimm':
        size, v, opc = r.randrange(4), r.randrange(2), r.randrange(4)
        acc = 16 if (v and opc >= 2 and size == 0) else (1 << size)
        imm12 = r.randrange(4096) if r.random() < 0.3 else r.randrange(64)
        w = fill(r, 'ss111v01oo' + 'i' * 12 + 'n' * 5 + 't' * 5,
                 dict(s=size, v=v, o=opc, i=imm12, n=n, t=t))
        ea = pick_ea(r, acc)
        set_base(seq, r, n, ea - imm12 * acc, {t})
        seq.word(w)
        return
    if kind == 'imm9':
        size, v, opc = r.randrange(4), r.randrange(2), r.randrange(4)
        mode = r.randrange(4)  # 0 unscaled, 1 post, 2 unprivileged, 3 pre
        if mode in (1, 3) and not v and n == t and n != 31:
            t = reg_other(r, {n}, True)
        imm9 = r.randrange(512)
        off = signed(imm9, 9)
        acc = 16 if (v and opc >= 2 and size == 0) else (1 << size)
        w = fill(r, 'ss111v00oo0' + 'i' * 9 + 'mm' + 'n' * 5 + 't' * 5,
                 dict(s=size, v=v, o=opc, i=imm9, m=mode, n=n, t=t))
        ea = pick_ea(r, acc)
        set_base(seq, r, n, ea - (0 if mode == 1 else off), {t})
        seq.word(w)
        return
    if kind == 'regoff':
        size, v, opc = r.randrange(4), r.randrange(2), r.randrange(4)
        option = r.choice([2, 3, 6, 7, 2, 3, 6, 7, r.randrange(8)])
        s = r.randrange(2)
        m = reg_other(r, {n}, True)
        acc = 16 if (v and opc >= 2 and size == 0) else (1 << size)
        shift = (acc.bit_length() - 1) if s else 0
        if m == 31:
            idx = 0
        elif option == 2:
            idx = r.randrange(0, 32)
        else:
            idx = r.randrange(-24, 32)
        ea = pick_ea(r, acc)
        if m != 31:
            if option in (2, 6):  # 32-bit index: random upper half
                set_xreg(seq, m, (r.getrandbits(32) << 32) | (idx & 0xffffffff))
            else:
                set_xreg(seq, m, idx)
        set_base(seq, r, n, ea - (idx << shift), {t, m})
        seq.word(fill(r, 'ss111v00oo1' + 'm' * 5 + 'ppp' + 'S' + '10' + 'n' * 5 + 't' * 5,
                      dict(s=size, v=v, o=opc, m=m, p=option, S=s, n=n, t=t)))
        return
    if kind == 'pair':
        v = r.randrange(2)
        opc = r.choice([0, 1, 2]) if v else r.choice([0, 2, 2, 1])
        L = r.randrange(2)
        mode = r.randrange(4)  # 0 no-allocate, 1 post, 2 offset, 3 pre
        u = r.randrange(32)
        if L and u == t:
            u = reg_other(r, {t}, True)
        if mode in (1, 3) and not v and n != 31:
            if n in (t, u):
                n = reg_other(r, {t, u}, True)
        scale = (4 << opc) if v else (8 if opc == 2 else 4)
        imm7 = r.randrange(128)
        off = signed(imm7, 7) * scale
        ea = pick_ea(r, scale)
        set_base(seq, r, n, ea - (0 if mode == 1 else off), {t, u})
        seq.word(fill(r, 'oo101v0mmL' + 'i' * 7 + 'u' * 5 + 'n' * 5 + 't' * 5,
                      dict(o=opc, v=v, m=mode, L=L, i=imm7, u=u, n=n, t=t)))
        return
    # SIMD structure loads/stores
    Q, L = r.randrange(2), r.randrange(2)
    post = r.random() < 0.5
    m = 31
    if post and r.random() < 0.5:
        m = reg_other(r, {n}, False)
        set_xreg(seq, m, r.randrange(-32, 64))
    ea = pick_ea(r, r.choice([1, 4, 8, 16]))
    set_base(seq, r, n, ea, {m})
    if kind == 'vmult':
        opcode = r.choice([0, 2, 4, 6, 7, 8, 10, r.randrange(16)])
        size = r.randrange(4)
        if post:
            w = fill(r, '0Q0011001L0' + 'm' * 5 + 'oooo' + 'ss' + 'n' * 5 + 't' * 5,
                     dict(Q=Q, L=L, m=m, o=opcode, s=size, n=n, t=t))
        else:
            w = fill(r, '0Q0011000L000000' + 'oooo' + 'ss' + 'n' * 5 + 't' * 5,
                     dict(Q=Q, L=L, o=opcode, s=size, n=n, t=t))
    else:
        R = r.randrange(2)
        opcode, S, size = r.randrange(8), r.randrange(2), r.randrange(4)
        if post:
            w = fill(r, '0Q0011011LR' + 'm' * 5 + 'ooo' + 'S' + 'ss' + 'n' * 5 + 't' * 5,
                     dict(Q=Q, L=L, R=R, m=m, o=opcode, S=S, s=size, n=n, t=t))
        else:
            w = fill(r, '0Q0011010LR00000' + 'ooo' + 'S' + 'ss' + 'n' * 5 + 't' * 5,
                     dict(Q=Q, L=L, R=R, o=opcode, S=S, s=size, n=n, t=t))
    seq.word(w)


def gen_int_filler(r, seq):
    seq.word(gen_word(r, INT_T))


def gen_excl(r, seq, state):
    """Exclusive pairs (and acquire/release) on aligned scratch addresses."""
    k = r.random()
    sizes = [(0, 'b', 'w'), (1, 'h', 'w'), (2, '', 'w'), (3, '', 'x')]
    if k < 0.15:  # load-acquire / store-release
        lg, suf, rp = r.choice(sizes)
        n = r.randrange(32)
        t = reg_other(r, set(), False) if r.random() < 0.9 else 31
        set_base(seq, r, n, pick_ea(r, 1 << lg) & ~((1 << lg) - 1), {t})
        op = r.choice(['ldar', 'stlr'])
        seq.ins('%s%s %s, [%s]' % (op, suf, reg_name(rp, t), 'sp' if n == 31 else 'x%d' % n))
        return
    if state.get('armed') and k < 0.8:
        lg, suf, rp, pair, ea, t, t2 = state.pop('armed')
        n = r.randrange(32)
        s = reg_other(r, {t, t2, n}, False)
        if r.random() < 0.1:
            seq.ins('clrex')
        set_base(seq, r, n, ea, {t, t2, s})
        op = r.choice(['stxr', 'stlxr'])
        nb = 'sp' if n == 31 else 'x%d' % n
        if pair:
            seq.ins('%sp w%d, %s, %s, [%s]' % (op[:-1], s, reg_name(rp, t), reg_name(rp, t2), nb))
        else:
            seq.ins('%s%s w%d, %s, [%s]' % (op, suf, s, reg_name(rp, t), nb))
        return
    if state.get('armed'):
        for _ in range(r.randrange(1, 3)):
            gen_int_filler(r, seq)
        return
    pair = r.random() < 0.3
    lg, suf, rp = r.choice(sizes[2:] if pair else sizes)
    n = r.randrange(32)
    t = r.randrange(32)
    t2 = reg_other(r, {t}, True) if pair else 31
    align = (1 << lg) * (2 if pair else 1)
    ea = r.randrange(0, SCRATCH - MAXACC, align)
    set_base(seq, r, n, ea, {t, t2})
    op = r.choice(['ldxr', 'ldaxr'])
    nb = 'sp' if n == 31 else 'x%d' % n
    if pair:
        seq.ins('%sp %s, %s, [%s]' % (op[:-1], reg_name(rp, t), reg_name(rp, t2), nb))
    else:
        seq.ins('%s%s %s, [%s]' % (op, suf, reg_name(rp, t), nb))
    if r.random() < 0.85:
        state['armed'] = (lg, suf, rp, pair, ea, t, t2)
    elif r.random() < 0.5:
        seq.ins('clrex')


LSE_OPS = ['add', 'clr', 'eor', 'set', 'smax', 'smin', 'umax', 'umin']
LSE_ORD = ['', 'a', 'l', 'al']


def gen_lse(r, seq):
    """Armv8.1 LSE atomics on aligned scratch addresses: LD<op>/ST<op>, SWP, CAS, CASP, every
    size and ordering; a CAS / CASP often compares equal (its compare register loaded first)."""
    k = r.random()
    lg, suf, rp = r.choice([(0, 'b', 'w'), (1, 'h', 'w'), (2, '', 'w'), (3, '', 'x')])
    order = r.choice(LSE_ORD)
    n = r.randrange(32)
    nb = 'sp' if n == 31 else 'x%d' % n
    if k < 0.2:  # CASP: even register pairs, W pairs 8-byte, X pairs 16-byte aligned
        rp = r.choice('wx')
        size = 8 if rp == 'w' else 16
        s_ = r.choice([x for x in range(0, 31, 2) if x not in (n, n - 1)])
        t = r.choice([x for x in range(0, 31, 2) if x not in (n, n - 1)])
        ea = r.randrange(0, SCRATCH - MAXACC, size)
        set_base(seq, r, n, ea, {s_, s_ + 1, t, t + 1})
        if r.random() < 0.6 and s_ < 30:
            seq.ins('ldp %s, %s, [%s]' % (reg_name(rp, s_), reg_name(rp, s_ + 1), nb))
        seq.ins('casp%s %s, %s, %s, %s, [%s]' % (order, reg_name(rp, s_), reg_name(rp, s_ + 1),
                                                 reg_name(rp, t), reg_name(rp, t + 1), nb))
        return
    ea = r.randrange(0, SCRATCH - MAXACC, 1 << lg)
    s_ = r.randrange(32)
    t = r.randrange(32)
    set_base(seq, r, n, ea, {s_, t})
    if k < 0.45:  # CAS
        if r.random() < 0.5 and s_ != 31 and s_ != n:
            seq.ins('ldr%s %s, [%s]' % (suf, reg_name(rp, s_), nb))
        seq.ins('cas%s%s %s, %s, [%s]' % (order, suf, reg_name(rp, s_), reg_name(rp, t), nb))
    elif k < 0.6:
        seq.ins('swp%s%s %s, %s, [%s]' % (order, suf, reg_name(rp, s_), reg_name(rp, t), nb))
    elif k < 0.7:  # ST<op> alias: no acquire forms
        seq.ins('st%s%s%s %s, [%s]' % (r.choice(LSE_OPS), r.choice(['', 'l']), suf, reg_name(rp, s_), nb))
    else:
        seq.ins('ld%s%s%s %s, %s, [%s]' % (r.choice(LSE_OPS), order, suf, reg_name(rp, s_), reg_name(rp, t), nb))


def reg_name(p, n):
    return ('wzr' if p == 'w' else 'xzr') if n == 31 else '%s%d' % (p, n)


CONDS = ['eq', 'ne', 'cs', 'cc', 'mi', 'pl', 'vs', 'vc', 'hi', 'ls', 'ge', 'lt', 'gt', 'le', 'al', 'nv']


def gen_branch_seq(r, seq, n):
    """Integer filler with forward branches to labels inside the sequence."""
    slots = []   # list of (text or None for filler, target slot)
    for i in range(n):
        if r.random() < 0.35:
            slots.append(('br', r.randrange(i + 1, n + 1)))
        else:
            slots.append(('int', None))
    labels = {}
    for kind, tgt in slots:
        if kind == 'br' and tgt not in labels:
            labels[tgt] = seq.label()
    for i, (kind, tgt) in enumerate(slots):
        if i in labels:
            seq.items.append(('l', labels[i], False))
        if kind == 'int':
            gen_int_filler(r, seq)
            continue
        L = labels[tgt]
        reg = r.randrange(32)
        rn = reg_name(r.choice('wx'), reg)
        b = r.choices(['bcond', 'ccmp', 'cb', 'tb', 'b', 'bl', 'br', 'blr', 'ret'], [4, 1.5, 2, 2, 1, 1, 1, 1, 0.7])[0]
        if b == 'bcond':
            seq.ins('b.%s %s' % (r.choice(CONDS), L))
        elif b == 'ccmp':
            # CCMP/CCMN straight before the B.cond that reads it (compiled as one branch)
            sz = r.choice('wx')
            src = reg_name(sz, r.randrange(32)) if r.random() < 0.5 else '#%d' % r.randrange(32)
            seq.ins('%s %s, %s, #%d, %s' % (r.choice(['ccmp', 'ccmn']), reg_name(sz, r.randrange(32)), src,
                                            r.randrange(16), r.choice(CONDS)))
            seq.ins('b.%s %s' % (r.choice(CONDS), L))
        elif b == 'cb':
            seq.ins('%s %s, %s' % (r.choice(['cbz', 'cbnz']), rn, L))
        elif b == 'tb':
            bit = r.randrange(64)
            seq.ins('%s %s, #%d, %s' % (r.choice(['tbz', 'tbnz']), reg_name('x' if bit >= 32 else 'w', reg), bit, L))
        elif b in ('b', 'bl'):
            seq.ins('%s %s' % (b, L))
        else:
            reg = r.randrange(31)
            seq.ins('adr x%d, %s' % (reg, L))
            seq.ins('%s x%d' % (b, reg))
    if n in labels:
        seq.items.append(('l', labels[n], False))


SYSREG_T = ['mrs x{t}, nzcv', 'msr nzcv, x{t}', 'mrs x{t}, fpsr', 'msr fpsr, x{t}', 'mrs x{t}, fpcr',
            'nop', 'yield', 'dmb ish', 'dsb sy', 'isb', 'clrex', 'mrs x{t}, tpidr_el0', 'msr tpidr_el0, x{t}',
            'mrs x{t}, ctr_el0', 'mrs x{t}, dczid_el0', 'mrs x{t}, tpidrro_el0']


def gen_fpcr(r, seq, wild=False, fz16=False):
    """Change FPCR mid-sequence (translations must not bake in the rounding mode / FZ / DN)."""
    t = r.randrange(31)
    if wild:
        # FZ16 (bit 19) is FEAT_FP16's: the sys class's reference, cortex-a57, has no such bit
        val = r.getrandbits(32) & ~(1 << 19)
    else:
        val = (r.randrange(4) << 22) | (r.randrange(2) << 24) | (r.randrange(2) << 25) | (r.randrange(2) << 26)
    if fz16:
        val |= r.randrange(2) << 19
    set_xreg(seq, t, val)
    seq.ins('msr fpcr, x%d' % t)


def gen_sys(r, seq):
    if r.random() < 0.5:
        gen_int_filler(r, seq)
        return
    if r.random() < 0.1:
        gen_fpcr(r, seq, wild=r.random() < 0.5)
        seq.ins('mrs x%d, fpcr' % r.randrange(31))
        return
    seq.ins(r.choice(SYSREG_T).format(t=r.randrange(32)).replace('x31', 'xzr'))


CLASSES = ['int', 'branch', 'ldst', 'excl', 'fp', 'simd_int', 'simd_fp', 'simd_perm', 'crypto', 'sys', 'undef',
           'lse', 'rdm', 'dotprod', 'sha512', 'sha3', 'fp16', 'alias']


def gen_seq(r, k, cls, length):
    seq = Seq(k)
    if cls == 'branch':
        gen_branch_seq(r, seq, length)
        return seq
    state = {}
    ntest = 0
    while ntest < length:
        before = len(seq.items)
        if cls == 'ldst':
            if r.random() < 0.8:
                gen_ldst(r, seq)
            else:
                gen_int_filler(r, seq)
        elif cls == 'excl':
            gen_excl(r, seq, state)
        elif cls == 'lse':
            if r.random() < 0.85:
                gen_lse(r, seq)
            else:
                gen_int_filler(r, seq)
        elif cls == 'sys':
            gen_sys(r, seq)
        elif cls in ('fp', 'simd_fp', 'fp16') and r.random() < 0.04:
            gen_fpcr(r, seq, fz16=cls == 'fp16')
        elif cls == 'alias':
            seq.word(gen_alias_word(r))
        else:
            seq.word(gen_word(r, TEMPLATES[cls]))
        ntest += sum(1 for it in seq.items[before:] if it[0] == 'i' and not it[2])
    return seq


# --------------------------------------------------------------------------
# program emission


def q(v):
    return '.quad 0x%016x' % (v & (2**64 - 1))


def emit_program(seed_str, cls_list, nseq, seqlen, handler, drop=frozenset()):
    """Return (assembly text, sequences, class per sequence, number of test instructions).

    drop: set of (k, insn_index) to omit (instructions that UNDEF under the reference)."""
    r = random.Random(seed_str)
    mem = any(c in MEM_CLASSES for c in cls_list)
    rs = recsz(cls_list)
    seqs, classes, states = [], [], []
    for k in range(nseq):
        cls = cls_list[k % len(cls_list)]
        states.append(rand_state(r, mem))
        if cls == 'fp16':
            fp16_state(r, states[-1])
        seqs.append(gen_seq(r, k, cls, seqlen))
        classes.append(cls)
    scratch_init = bytes(r.getrandbits(8) for _ in range(SCRATCH))
    litpool = bytes(r.getrandbits(8) for _ in range(256))

    o = []
    a = o.append
    a('// generated by tests/diff/gen.py: seed %s classes %s' % (seed_str, ','.join(cls_list)))
    if any(c in MAX_CLASSES for c in cls_list):
        a('\t.arch armv8.2-a')
    a('\t.text\n\t.globl _start\n_start:')
    if handler:
        a('\tadrp x0, sigstk_desc\n\tadd x0, x0, :lo12:sigstk_desc\n\tmov x1, #0\n\tmov x8, #132\n\tsvc #0')
        a('\tmov x0, #4\n\tadrp x1, sigact\n\tadd x1, x1, :lo12:sigact\n\tmov x2, #0\n\tmov x3, #8\n'
          '\tmov x8, #134\n\tsvc #0')
    # optional argv[1]: index of the first sequence to run (restart after a crash)
    a('\tldr x0, [sp]\n\tcmp x0, #2\n\tb.lt 2f\n\tldr x1, [sp, #16]\n\tmov x2, #0\n\tmov x4, #10\n'
      '1:\tldrb w3, [x1], #1\n\tcbz w3, 3f\n\tsub w3, w3, #48\n\tmadd x2, x2, x4, x3\n\tb 1b\n'
      '3:\tcmp x2, #%d\n\tb.hs seq_end\n\tadrp x4, seqtab\n\tadd x4, x4, :lo12:seqtab\n'
      '\tldr x4, [x4, x2, lsl #3]\n\tbr x4\n2:' % nseq)
    ntest = 0
    for k, seq in enumerate(seqs):
        a('// ---- sequence %d (%s)' % (k, classes[k]))
        a('Q_%d:' % k)
        a('\tadr x0, P_%d\n\tmsr tpidr_el0, x0\n\tadrp x0, init_%d\n\tadd x0, x0, :lo12:init_%d\n'
          '\tb load_state\nP_%d:\n\tldr x30, [x0, #240]\n\tldr x0, [x0]' % (k, k, k, k))
        a('s_%d:' % k)
        idx = 0
        for kind, text, setup in seq.items:
            if kind == 'l':
                a('%s:' % text)
                continue
            if (k, idx) not in drop:
                a('\t' + text)
                if not setup:
                    ntest += 1
            else:
                a('\t// dropped (UNDEF): ' + text)
            idx += 1
        a('e_%d:' % k)
        a('\tmsr tpidr_el0, x0\n\tadrp x0, rec\n\tadd x0, x0, :lo12:rec')
        for i in range(1, 31, 2):
            a('\tstp x%d, x%d, [x0, #%d]' % (i, i + 1, 8 + 8 * i))
        a('\tmrs x1, tpidr_el0\n\tstr x1, [x0, #8]\n\tmov x1, sp\n\tstr x1, [x0, #256]')
        a('\tmovz w1, #%d\n\tmovk w1, #%d, lsl #16\n\tstr w1, [x0, #4]' % (k & 0xffff, k >> 16))
        a('\tadr x19, R_%d\n\tb dump_rest\nR_%d:' % (k, k))
    # end: DONE record, exit
    a('seq_end:')
    a('\tadrp x1, rec\n\tadd x1, x1, :lo12:rec')
    a('\tmovz w2, #0x%x\n\tmovk w2, #0x%x, lsl #16\n\tstr w2, [x1]' % (MAGIC_DONE & 0xffff, MAGIC_DONE >> 16))
    a('\tmovz w2, #%d\n\tmovk w2, #%d, lsl #16\n\tstr w2, [x1, #4]\n\tstr xzr, [x1, #8]' % (nseq & 0xffff, nseq >> 16))
    a('\tmov x0, #1\n\tmov x2, #16\n\tmov x8, #64\n\tsvc #0\n\tmov x0, #0\n\tmov x8, #94\n\tsvc #0')
    # state loader: x0 = init block, returns through TPIDR_EL0 with x0 = init + 544
    a('load_state:')
    if mem:
        a('\tadrp x1, scratch_init\n\tadd x1, x1, :lo12:scratch_init\n\tadrp x2, scratch\n'
          '\tadd x2, x2, :lo12:scratch\n\tmov x3, #%d\n'
          '1:\tldp q0, q1, [x1], #32\n\tstp q0, q1, [x2], #32\n\tsubs x3, x3, #32\n\tb.ne 1b' % SCRATCH)
    a('\tclrex')
    for i in range(0, 32, 2):
        a('\tldp q%d, q%d, [x0, #%d]' % (i, i + 1, 16 * i))
    a('\tldr x1, [x0, #512]\n\tmsr fpcr, x1\n\tldr x1, [x0, #520]\n\tmsr fpsr, x1')
    a('\tldr x1, [x0, #528]\n\tmsr nzcv, x1\n\tldr x1, [x0, #536]\n\tmov sp, x1\n\tadd x0, x0, #544')
    for i in range(1, 29, 2):
        a('\tldp x%d, x%d, [x0, #%d]' % (i, i + 1, 8 * i))
    a('\tldr x29, [x0, #232]\n\tmrs x30, tpidr_el0\n\tbr x30')
    # dump: x0 = rec with X regs, SP and index filled in; returns to x19
    a('dump_rest:')
    a('\tmrs x1, nzcv\n\tstr x1, [x0, #264]\n\tmrs x1, fpsr\n\tstr x1, [x0, #272]\n\tmrs x1, fpcr\n'
      '\tstr x1, [x0, #280]\n\tadd x2, x0, #288')
    for i in range(0, 32, 2):
        a('\tstp q%d, q%d, [x2, #%d]' % (i, i + 1, 16 * i))
    if mem:
        a('\tadrp x1, scratch\n\tadd x1, x1, :lo12:scratch\n\tadd x2, x0, #%d\n\tmov x3, #%d\n'
          '1:\tldp q0, q1, [x1], #32\n\tstp q0, q1, [x2], #32\n\tsubs x3, x3, #32\n\tb.ne 1b' % (REC_BASE, SCRATCH))
    a('\tmovz w1, #0x%x\n\tmovk w1, #0x%x, lsl #16\n\tstr w1, [x0]' % (MAGIC_DUMP & 0xffff, MAGIC_DUMP >> 16))
    a('\tmov x1, x0\n\tmov x0, #1\n\tmov x2, #%d\n\tmov x8, #64\n\tsvc #0\n\tbr x19' % rs)
    if handler:
        a('sigill_handler:\n\tmov x12, x2\n\tldr x9, [x12, #440]\n\tadrp x10, urec\n\tadd x10, x10, :lo12:urec')
        a('\tmovz w11, #0x%x\n\tmovk w11, #0x%x, lsl #16\n\tstr w11, [x10]\n\tstr wzr, [x10, #4]\n'
          '\tstr x9, [x10, #8]' % (MAGIC_UNDF & 0xffff, MAGIC_UNDF >> 16))
        a('\tmov x0, #1\n\tmov x1, x10\n\tmov x2, #16\n\tmov x8, #64\n\tsvc #0')
        a('\tadd x9, x9, #4\n\tstr x9, [x12, #440]\n\tret')
        a('sig_restorer:\n\tmov x8, #139\n\tsvc #0')
    a('\t.balign 16\nlitpool:')
    for i in range(0, 256, 8):
        a('\t' + q(int.from_bytes(litpool[i:i + 8], 'little')))

    a('\t.data\n\t.balign 16')
    if handler:
        a('sigact:\n\t.quad sigill_handler\n\t.quad 0x0c000004\n\t.quad sig_restorer\n\t.quad 0')
        a('sigstk_desc:\n\t.quad sigstk\n\t.quad 0\n\t.quad 65536')
    a('seqtab:')
    for k in range(nseq):
        a('\t.quad Q_%d' % k)
    a('scratch_init:')
    for i in range(0, SCRATCH, 8):
        a('\t' + q(int.from_bytes(scratch_init[i:i + 8], 'little')))
    for k, st in enumerate(states):
        a('init_%d:' % k)
        for v in st['v']:
            a('\t' + q(int.from_bytes(v[:8], 'little')) + '\n\t' + q(int.from_bytes(v[8:], 'little')))
        a('\t' + q(st['fpcr']) + '\n\t' + q(st['fpsr']) + '\n\t' + q(st['nzcv']))
        if st['sp'] is None:
            a('\t.quad scratch + %d' % st['sp_off'])
        else:
            a('\t' + q(st['sp']))
        for x in st['x']:
            a('\t' + q(x))
    a('\t.bss\n\t.balign 4096\nscratch_page:\n\t.space %d\nscratch:\n\t.space 4096\n'
      'rec:\n\t.space %d\nurec:\n\t.space 16' % (SCRATCH_OFF, rs + 16))
    if handler:
        a('\t.balign 16\nsigstk:\n\t.space 65536')
    return '\n'.join(o) + '\n', seqs, classes, states, ntest


def main():
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seed', default='1')
    ap.add_argument('--classes', default='int')
    ap.add_argument('--nseq', type=int, default=100)
    ap.add_argument('--seqlen', type=int, default=16)
    ap.add_argument('--handler', action='store_true')
    ap.add_argument('-o', '--output', default='-')
    a = ap.parse_args()
    text = emit_program(a.seed, a.classes.split(','), a.nseq, a.seqlen, a.handler)[0]
    (sys.stdout if a.output == '-' else open(a.output, 'w')).write(text)


if __name__ == '__main__':
    main()
