#!/usr/bin/env python3
"""Bifrost assembler/disassembler round-trip tests (run by `make bifrost-test`).

1. vectors.txt clauses: disassemble -> assemble -> disassemble gives the same text.
2. tests/bifrost/*.s: assemble -> disassemble gives the source text back (canonical form).
3. Random clauses over every encoding variant in isa/bifrost/ops.isa (random modifier values,
   operands, register writes, constants, FAU): text -> assemble -> malibu-disasm -> same text.
"""
import argparse
import os
import random
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'isa', 'bifrost'))
import bifrost_asm as A  # noqa: E402


def disasm(tool, binary, workdir, name, arch='v7'):
    path = os.path.join(workdir, name + '.bin')
    with open(path, 'wb') as f:
        f.write(binary)
    r = subprocess.run([tool, '--arch', arch, path], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f'malibu-disasm failed on {path}: {r.stderr}{r.stdout}')
    return r.stdout


def canon(text):
    out = []
    for line in text.splitlines():
        line = re.sub(r'\s+#\s.*$', '', line.split(';')[0]).strip()
        if line.startswith('#') or not line:
            continue
        out.append(re.sub(r'\s+', ' ', line))
    return out


def fmt_mod(m, v):
    if v == m.default:
        return ''
    return f'.{m.name}={v}' if m.qualify else f'.{v}'


class Gen:
    def __init__(self, isa, rng):
        self.isa, self.rng = isa, rng

    def random_mods(self, v):
        r = self.rng
        op = v.op
        mods = {m.name: (m.default if m.default is not None else m.vals[0]) for m in op.mods.values()}
        for (m, s, z, names) in v.direct:
            mods[m.name] = r.choice([x for x in names if x != '-'])
        if v.has_key and v.cases:
            key = r.choice(sorted(v.cases))
            for m, x in zip(v.dmods, v.cases[key]):
                mods[m.name] = x
        return mods

    def instr(self, v, srcs_text, dest):
        op = v.op
        mods = self.random_mods(v)
        s = ('*' if op.unit == 'FMA' else '+') + op.name
        for m in op.mods.values():
            if m.src < 0:
                s += fmt_mod(m, mods[m.name])
        ops = []
        if op.dests:
            ops.append(dest)
        for i, t in enumerate(srcs_text):
            for m in op.mods.values():
                if m.src == i:
                    t += fmt_mod(m, mods[m.name])
            ops.append(t)
        for (n, st, z) in op.imms:
            ops.append(f'{n}:{self.rng.randrange(1 << z)}')
        if op.staging:
            ops.append('@r%d' % self.sr)
        return s + (' ' + ', '.join(ops) if ops else '')

    def clause(self, variants_fma, variants_add):
        r = self.rng
        n = len(variants_fma)
        self.sr = r.randrange(0, 60)
        lines = []
        consts_used = 0
        writes = []
        for ti in range(n):
            vf, va = variants_fma[ti], variants_add[ti]
            # FAU entry of the tuple
            kind = r.choice(['uniform', 'const', 'special', 'const'])
            if kind == 'const' and consts_used >= 3:
                kind = 'uniform'
            if kind == 'uniform':
                u = r.randrange(64)
                fau = [f'u{u}.lo', f'u{u}.hi']
            elif kind == 'special':
                name = r.choice(['lane_id', 'warp_id', 'core_id', 'zero'])
                fau = [f'{name}.lo', f'{name}.hi']
            else:
                consts_used += 1
                c = r.choice([0x3f800000, 0x12345678, 0xffffffff, 7, 0x80000000])
                fau = [f'#0x{c:x}', f'#0x{(c * 0x9e3779b1) & 0xffffffff:x}']
            regs = r.sample(range(64), 3)
            nregs = r.choice([0, 1, 2, 2, 3])
            regs = regs[:nregs]
            texts = []
            for v, unit in ((vf, 'FMA'), (va, 'ADD')):
                st = []
                for (start, allowed) in v.op.srcs:
                    opts = []
                    if allowed & 7 and regs:
                        opts += ['r'] * 3
                    if allowed & 8:
                        opts.append('#0' if unit == 'FMA' else 't')
                    if allowed & 0x30:
                        opts += ['fau'] * 2
                    if allowed & 0x40 and ti:
                        opts.append('t0')
                    if allowed & 0x80 and ti:
                        opts.append('t1')
                    if not opts:
                        opts = ['fau']
                    k = r.choice(opts)
                    if k == 'r':
                        st.append(f'r{r.choice(regs)}')
                    elif k == 'fau':
                        st.append(r.choice(fau))
                    else:
                        st.append(k)
                texts.append(st)
            last = ti == n - 1
            wf = r.random() < 0.4
            wa = r.random() < 0.4 and not (wf and last)
            used_regs = {int(x[1:].split('.')[0]) for st in texts for x in st if re.fullmatch(r'r\d+', x)}
            if wf and wa and len(used_regs) > 2:
                wa = False
            df = dest_text(r, 'FMA', wf)
            da = dest_text(r, 'ADD', wa, avoid=df)
            lines.append('    ' + self.instr(vf, texts[0], df))
            lines.append('    ' + self.instr(va, texts[1], da))
            writes.append((wf, wa))
        hdr = 'clause_0:'
        msgs = [v.op.msg for v in variants_add + variants_fma if v.op.msg != 'none']
        if any(v.op.staging for v in variants_add + variants_fma):
            hdr += f' sr={self.sr}' if self.sr else ''
        if msgs:
            hdr += f' msg={msgs[0]}'
        return '\n'.join([hdr, '{'] + lines + ['}']) + '\n'


def dest_text(r, unit, write, avoid=None):
    if not write:
        return 't0' if unit == 'FMA' else 't1'
    while True:
        reg = r.randrange(64)
        d = f'r{reg}' + r.choice(['', '', '.h0', '.h1'])
        if not avoid or not avoid.startswith(f'r{reg}'):
            return d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--disasm', required=True)
    ap.add_argument('--workdir', required=True)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--rounds', type=int, default=3, help='random clauses per encoding variant')
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    isa = A.ISA()
    fails = 0

    # 1. vectors
    here = os.path.dirname(os.path.abspath(__file__))
    nvec = 0
    for line in open(os.path.join(here, 'vectors.txt')):
        if line.startswith('#') or not line.strip():
            continue
        name, *words = line.split()
        binary = b''.join(int(w, 16).to_bytes(8, 'little') for w in words)
        t1 = disasm(args.disasm, binary, args.workdir, name)
        try:
            t2 = disasm(args.disasm, isa.assemble(t1, name), args.workdir, name + '.rt')
        except A.AsmError as e:
            print(f'FAIL vector {name}: {e}\n{t1}')
            fails += 1
            continue
        if t1 != t2:
            print(f'FAIL vector {name}: round trip differs\n{t1}---\n{t2}')
            fails += 1
        # no v7-only encodings in the vectors: v6 decodes them identically
        if disasm(args.disasm, binary, args.workdir, name, arch='v6') != t1:
            print(f'FAIL vector {name}: --arch v6 disassembly differs')
            fails += 1
        nvec += 1

    # 2. assembly sources
    nsrc = 0
    for fn in sorted(os.listdir(here)):
        if not fn.endswith('.s'):
            continue
        text = open(os.path.join(here, fn)).read()
        try:
            out = disasm(args.disasm, isa.assemble(text, fn), args.workdir, fn[:-2])
        except A.AsmError as e:
            print(f'FAIL {fn}: {e}')
            fails += 1
            continue
        if canon(text) != canon(out):
            print(f'FAIL {fn}: disassembly differs from the source')
            for a, b in zip(canon(text) + [''] * 99, canon(out)):
                if a != b:
                    print(f'  source: {a}\n  disasm: {b}')
                    break
            fails += 1
        nsrc += 1

    # 3. random clauses over every variant
    rng = random.Random(args.seed)
    g = Gen(isa, rng)
    fma = [v for v in isa.order['FMA']]
    add = [v for v in isa.order['ADD']]
    nop_f = isa.by_name[('FMA', 'NOP')].variants[0]
    nop_a = isa.by_name[('ADD', 'NOP')].variants[0]
    texts, skipped = [], 0
    for rnd in range(args.rounds):
        for v in fma + add:
            n = rng.randint(1, 8)
            vf = [rng.choice(fma) for _ in range(n)]
            va = [rng.choice(add) for _ in range(n)]
            # at most one message/last instruction per clause, in the last tuple
            for i in range(n):
                if vf[i].op.msg != 'none' or 'last' in vf[i].op.flags or vf[i].op.staging:
                    vf[i] = nop_f
                if va[i].op.msg != 'none' or 'last' in va[i].op.flags or va[i].op.staging:
                    va[i] = nop_a
            pos = n - 1 if ('last' in v.op.flags or v.op.msg != 'none' or v.op.staging) else rng.randrange(n)
            (vf if v.op.unit == 'FMA' else va)[pos] = v
            text = g.clause(vf, va)
            try:
                binary = isa.assemble(text, 'random')
            except A.AsmError:
                skipped += 1
                continue
            texts.append((text, binary))
    # disassemble in one batch per 200 clauses (one file of concatenated clauses)
    nrand = 0
    for i in range(0, len(texts), 200):
        chunk = texts[i:i + 200]
        out = disasm(args.disasm, b''.join(b for _, b in chunk), args.workdir, 'random')
        got = re.split(r'(?m)^(?=clause_)', out)
        got = [x for x in got if x.strip()]
        if len(got) != len(chunk):
            print(f'FAIL random: {len(chunk)} clauses assembled, {len(got)} disassembled')
            fails += 1
            continue
        for (text, _), o in zip(chunk, got):
            a = canon(text)[1:]
            b = canon(o)[1:]
            ha = canon(text)[0].split()[1:]
            hb = [x for x in canon(o)[0].split()[1:] if not x.startswith('msg=') or x in ha]
            if a != b or sorted(ha) != sorted(hb):
                print('FAIL random clause:\n' + text + '--- disassembles as:\n' + o)
                fails += 1
                if fails > 10:
                    sys.exit(1)
            nrand += 1
    total = len(fma) + len(add)
    print(f'bifrost round trip: {nvec} vectors, {nsrc} sources, {nrand} random clauses '
          f'({total} encoding variants x {args.rounds}; {skipped} random clauses not encodable, skipped); '
          f'{fails} failures')
    if skipped > len(texts) // 4:
        print('FAIL: too many random clauses were not encodable')
        fails += 1
    sys.exit(1 if fails else 0)


if __name__ == '__main__':
    main()
