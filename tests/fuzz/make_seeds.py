#!/usr/bin/env python3
"""Seed corpora for the fuzz harnesses (tests/fuzz/fuzz_*.c) from the assembled test shaders.

    make_seeds.py OUTDIR SHADER.s...

OUTDIR/bifrost/: each shader as fuzz_bifrost input (flags, lanes, global memory, code) for v6 and v7,
single warp and workgroup.  OUTDIR/compute/: each shader as fuzz_compute input: a COMPUTE job laid
out as Mesa does (job header at 0x40, DCD, RSD, push uniforms pointing at buffers, thread/local
storage, a 4x4 RGBA8 texture + nearest sampler, an image attribute + linear attribute buffer) in the
flat address space, for v6 and v7.  OUTDIR/mali/: fuzz_mali inputs: the compute job in guest RAM
behind 4-level page tables (VA x -> PA RAM_BASE + 0x4000 + x) chained after a WRITE_VALUE and a
NULL job, and a WRITE_VALUE chain with the AS in identity mode.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'isa', 'bifrost'))
import bifrost_asm  # noqa: E402

GMEM_VA = 0x10000


def bifrost_seed(flags, lanes, code, name):
    """Global memory (fuzz_bifrost.c): uniforms, r0-r31, then the descriptor tables: two 2x2 RGBA8
    textures (+0x100) on texels at +0x1e0, three nearest samplers (+0x140), an image attribute
    (+0x180) and linear attribute buffer (+0x1a0) on the same texels."""
    g = bytearray(512)
    u = [GMEM_VA, 0, GMEM_VA + 0x80, 0, GMEM_VA + 0xc0, 0, 1, 2]
    if name.startswith('gpu_tex'):        # u0 out, u1 coordinate scale/bias, u2 TEXC + row, u3 staging
        desc = TEXC_FETCH if 'fetch' in name else TEXC_TEX
        u[2:8] = ([1, 0] if 'fetch' in name else [f32(1.0), f32(0.5)]) + [desc, 2, 0, 0]
    elif name.startswith('gpu_img_store'):
        u[2:8] = [0, 0, 2, 0, 0, 0]
    struct.pack_into('<8I', g, 0, *u)
    for r in range(32):       # r0-r31: small offsets
        struct.pack_into('<I', g, 64 + 4 * r, 4 * r)
    pf = 187 << 12 | (0 if flags & 1 else 0 | 1 << 3 | 2 << 6 | 3 << 9)
    for t in range(2):
        struct.pack_into('<8I', g, 0x100 + 32 * t, 2 | 2 << 4 | pf << 10, 1 | 1 << 16, 0x688 | 2 << 12, 0,
                         GMEM_VA + 0x1c0, 0, 0, 0)
    struct.pack_into('<QII', g, 0x1c0, GMEM_VA + 0x1e0, 8, 16)            # surface
    for s in range(2):
        struct.pack_into('<I', g, 0x140 + 32 * s, 1 | 9 << 8 | 9 << 12 | 9 << 16 | 1 << 27 | 1 << 28)
    struct.pack_into('<II', g, 0x180, pf << 10, 0)
    struct.pack_into('<QII', g, 0x1a0, 1 | GMEM_VA + 0x1c0, 4, 16)
    for i in range(16):
        g[0x1e0 + i] = 16 * i
    return bytes([flags, lanes]) + bytes(g) + code


def log2ceil(v):
    n = 0
    while (1 << n) < v:
        n += 1
    return n


def f32(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


# TEXC descriptors: texture 0 / sampler 0 immediates, 2D, f32 results, all channels
TEXC_TEX = 0 | 1 << 11 | 7 << 12 | 2 << 18 | 6 << 20 | 4 << 24 | 0xf << 28      # sample, zero LOD
TEXC_FETCH = 0 | 1 << 11 | 6 << 12 | 2 << 18 | 1 << 20 | 4 << 24 | 0xf << 28    # texel fetch


def push_uniforms(name, data):
    """u0-u4 as the test shaders expect them (tests/unit/test_gpu_*.c)."""
    if name.startswith('gpu_tex'):
        desc = TEXC_FETCH if 'fetch' in name else TEXC_TEX
        xy = (1 | 0 << 32) if 'fetch' in name else (f32(1.0) | f32(0.5) << 32)
        return [data, xy, desc | 4 << 32, 0, 0]
    if name.startswith('gpu_img_store'):
        return [data, 0, 4, 0, 0]
    return [data, data + 0x400, data + 0x800, 1 | 1 << 32, 0]


def compute_seed(flags, code, name, local=(4, 2, 1), groups=(2, 1, 1)):
    mem = bytearray(0x8000)

    def w32(va, v):
        struct.pack_into('<I', mem, va, v & 0xffffffff)

    def w64(va, v):
        struct.pack_into('<Q', mem, va, v)

    job, rsd, ls, push, ubo_tab = 0x40, 0x100, 0x140, 0x180, 0x1c0
    tex, smp, attr, abuf, surf = 0x200, 0x240, 0x280, 0x2c0, 0x300
    shader, data, img = 0x1000, 0x4000, 0x6000
    w32(job + 16, 1 | 4 << 1 | 1 << 8 | 1 << 16)     # 64-bit, COMPUTE, barrier, index 1
    vals = list(local) + list(groups)
    inv, bit, shifts = 0, 0, []
    for v in vals:
        shifts.append(bit)
        inv |= (v - 1) << bit
        bit += log2ceil(v)
    w32(job + 32, inv)
    w32(job + 36, shifts[1] | shifts[2] << 5 | shifts[3] << 10 | shifts[4] << 16 | shifts[5] << 22 | shifts[3] << 28)
    w32(job + 64, 3)
    w64(job + 88, ubo_tab)
    w64(job + 96, tex)
    w64(job + 104, smp)
    w64(job + 112, push)
    w64(job + 120, rsd)
    w64(job + 128, abuf)
    w64(job + 136, attr)
    w64(job + 176, ls)
    w64(rsd, shader)
    w32(rsd + 16, 1)                                  # one UBO
    w32(rsd + 48, 0x7fc0 | 5 << 15)                   # compute preloads, 5 uniform pairs
    w64(ubo_tab, (0x100 // 16 - 1) | (data >> 4) << 12)
    for i, v in enumerate(push_uniforms(name, data)):
        w64(push + 8 * i, v)
    w32(ls, 2)                                        # 64 bytes of TLS per thread
    w64(ls + 8, 0x7000)
    w32(ls + 4, 1 | (log2ceil(2048) + 1) << 8)        # 2 KiB of WLS per workgroup
    w64(ls + 16, 0x7800)
    rgba8 = 187 << 12
    v6swz = 0 | 1 << 3 | 2 << 6 | 3 << 9
    pf = rgba8 | (v6swz if not flags & 1 else 0)
    w32(tex, 2 | 2 << 4 | pf << 10)                   # 2D texture
    w32(tex + 4, 3 | 3 << 16)                         # 4x4
    w32(tex + 8, v6swz | 2 << 12)                     # identity swizzle, linear
    w64(tex + 16, surf)
    w64(surf, img)
    w32(surf + 8, 16)
    w32(surf + 12, 64)
    w32(tex + 32, mem[tex] | 0)                       # texture 1 = copy of texture 0
    mem[tex + 32:tex + 64] = mem[tex:tex + 32]
    w32(smp, 1 | 9 << 8 | 9 << 12 | 9 << 16 | 1 << 27 | 1 << 28)   # clamp to edge, nearest
    mem[smp + 32:smp + 96] = mem[smp:smp + 32] * 2
    w32(attr, 0 | pf << 10)
    w32(abuf, 1 | img)                                # linear attribute buffer
    w32(abuf + 8, 4)
    w32(abuf + 12, 64)
    for i in range(64):
        mem[img + i] = i * 4 & 0xff
        w32(data + 4 * i, i)
    mem[shader:shader + len(code)] = code
    end = max(shader + len(code) + 128, 0x6000 + 64)
    return bytes([flags, 0xff]) + bytes(mem[:end])


RAM_BASE = 0x80000000
PTE_RW = 1 | 1 << 6 | 1 << 7 | 2 << 8


def mali_seed(flags, compute):
    """compute: a fuzz_compute seed (flags, unmapped page, flat memory from VA 0)."""
    ram = bytearray(0x4000) + bytearray(compute[2:]).ljust(0x8000, b"\0")
    for level in range(3):         # root, L1, L2: entry 0 -> the next table
        struct.pack_into('<Q', ram, 0x1000 * level, RAM_BASE + 0x1000 * (level + 1) | 3)
    pages = (len(ram) - 0x4000 + 4095) // 4096 + 1
    for i in range(pages):
        struct.pack_into('<Q', ram, 0x3000 + 8 * i, RAM_BASE + 0x4000 + 4096 * i | PTE_RW)
    # WRITE_VALUE (index 1, imm32 to VA 0x7f00) -> NULL (index 2) -> the compute job (index 3) at VA 0x40
    wv, nj = 0x7e00, 0x7e80
    for va, typ, idx, nxt in ((wv, 2, 1, nj), (nj, 1, 2, 0x40)):
        struct.pack_into('<IIQ', ram, 0x4000 + va + 16, 1 | typ << 1 | idx << 16, 0, nxt)
    struct.pack_into('<QIIQ', ram, 0x4000 + wv + 32, 0x7f00, 6, 0, 0x12345678)
    struct.pack_into('<I', ram, 0x4000 + 0x40 + 16, 1 | 4 << 1 | 1 << 8 | 3 << 16)
    return bytes([flags]) + struct.pack('<Q', wv) + bytes(ram)


def mali_identity_seed():
    ram = bytearray(0x2000)
    head = RAM_BASE + 0x1000
    struct.pack_into('<IIQ', ram, 0x1000 + 16, 1 | 2 << 1 | 1 << 16, 0, head + 0x80)
    struct.pack_into('<QIIQ', ram, 0x1000 + 32, RAM_BASE + 0x1f00, 6, 0, 0x12345678)
    struct.pack_into('<IIQ', ram, 0x1080 + 16, 1 | 1 << 1 | 2 << 16, 1, 0)
    return bytes([2]) + struct.pack('<Q', head) + bytes(ram)


def main(argv):
    out, files = argv[0], argv[1:]
    isa = bifrost_asm.ISA()
    for d in ('bifrost', 'compute', 'mali'):
        os.makedirs(os.path.join(out, d), exist_ok=True)
    for path in files:
        name = os.path.splitext(os.path.basename(path))[0]
        with open(path) as f:
            code = isa.assemble(f.read(), path)
        for flags in (0, 1, 3, 5, 8 | 1, 16):
            with open(os.path.join(out, 'bifrost', f'{name}-{flags}.bin'), 'wb') as f:
                f.write(bifrost_seed(flags, 0x35 if flags & 8 else 0, code, name))
        for flags in (0, 1, 2 | 1):
            with open(os.path.join(out, 'compute', f'{name}-{flags}.bin'), 'wb') as f:
                f.write(compute_seed(flags, code, name))
        if name.startswith('gpu_'):
            for flags in (0, 1 | 16):
                with open(os.path.join(out, 'mali', f'{name}-{flags}.bin'), 'wb') as f:
                    f.write(mali_seed(flags, compute_seed(flags & 1, code, name)))
    with open(os.path.join(out, 'mali', 'identity.bin'), 'wb') as f:
        f.write(mali_identity_seed())


if __name__ == '__main__':
    main(sys.argv[1:])
