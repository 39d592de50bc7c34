#!/usr/bin/env python3
"""Differential test of malibu-disasm against an outside Bifrost disassembler (Mesa's
`disassemble_bifrost`, built separately from a Mesa source tree; not part of this project).

    oracle.py --disasm build/malibu-disasm --mesa PATH-TO-MESA-DISASM-TOOL [--clauses N] [--seed S]

PATH-TO-MESA-DISASM-TOOL is any program `TOOL FILE` that prints Mesa's disassembly of the raw
clauses in FILE (e.g. a 5-line main() around disassemble_bifrost() linked with Mesa's
disassemble.c, bi_print_common.c and the gen_disasm.py output).  Random clauses are produced two
ways: (a) assembled from random valid instructions of every encoding (tests/bifrost/roundtrip.py's
generator), (b) random raw FMA/ADD bit patterns (every 23/20-bit value is meaningful to a decoder).
Instruction lines are compared after mapping Mesa's operand spelling onto ours.
"""
import argparse
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'isa', 'bifrost'))
import bifrost_asm as A  # noqa: E402
import roundtrip as R  # noqa: E402

SPECIAL = {'#0': 'zero', 'framebuffer_size': 'fb_extent', 'sample': 'sample_pos'}


def norm_mesa(line, cur):
    line = re.sub(r'\s*/\*.*?\*/', '', line).strip()
    m = re.fullmatch(r'INSTR_INVALID_ENC (fma|add) ([0-9A-F]+)', line)
    if m:
        return ('*' if m.group(1) == 'fma' else '+') + 'INVALID 0x' + m.group(2).lower()
    line = line.replace('(INVALID)', '')
    mn, _, rest = line.partition(' ')
    ops = [x.strip() for x in rest.split(',')] if rest else []
    out = []
    for o in ops:
        o = re.sub(r'^(r\d+):t[01]', r'\1', o)
        o = re.sub(r'^0x0*([0-9a-f]+)', r'#0x\1', o)
        o = re.sub(r'^(u\d+)\.w0', r'\1.lo', o)
        o = re.sub(r'^(u\d+)\.w1', r'\1.hi', o)
        m = re.match(r'^clause_(\d+)(.*)$', o)
        if m:
            off = (int(m.group(1)) - cur) * 16
            o = f'pc{off:+d}' + m.group(2)
        m = re.match(r'^(#0|lane_id|warp_id|core_id|framebuffer_size|atest_datum|sample|blend_descriptor_(\d)|XXX - reserved(\d+))\.([xy])(.*)$', o)
        if m:
            base = m.group(1)
            if m.group(2):
                base = 'blend_desc' + m.group(2)
            elif m.group(3):
                base = 'special' + m.group(3)
            else:
                base = SPECIAL.get(base, base)
            o = f'{base}.{"lo" if m.group(4) == "x" else "hi"}{m.group(5)}'
        out.append(o)
    return mn + (' ' + ', '.join(out) if out else '')


def drop_dest(isa, line):
    """Mesa prints a destination even for ops without one (dests=0)."""
    unit = {'*': 'FMA', '+': 'ADD'}.get(line[:1])
    mn, _, rest = line[1:].partition(' ')
    parts = mn.split('.')
    for n in range(len(parts), 0, -1):
        op = isa.by_name.get((unit, '.'.join(parts[:n])))
        if op:
            if op.dests == 0 and rest:
                ops = rest.split(', ')
                return line[0] + mn + (' ' + ', '.join(ops[1:]) if ops[1:] else '')
            break
    return line


FLOW = {'end': 'eos', 'nbtb_pc': 'nbb br_pc', 'nbtb_uncond': 'nbb r_uncond', 'nbtb': 'nbb',
        'btb_uncond': 'bb r_uncond', 'btb': 'bb', 'we_uncond': 'we r_uncond', 'we': 'we'}
MSG = {'varying': 'vary', 'attribute': 'attr', 'var_tex': 'vartex', '64bit': '64'}


def mesa_header(line):
    """Our `clause_N: field=value ...` line in the oracle's header spelling."""
    f = dict(kv.split('=', 1) for kv in line.split()[1:])
    out = [f'ds({f.get("slot", "0")})']
    if f.get('osrb') == '1':
        out.append('osrb')
    out.append(FLOW[f.get('flow', 'end')])
    if f.get('suppress_inf') == '1':
        out.append('inf_suppress')
    if f.get('suppress_nan') == '1':
        out.append('nan_suppress')
    out += {'dx11': ['ftz_dx11'], 'always': ['ftz_hsa'], 'abrupt': ['ftz_au']}.get(f.get('ftz'), [])
    out += {'disabled': ['fpe_ts'], 'precise_div': ['fpe_pd'], 'precise_sqrt': ['fpe_psqr']}.get(f.get('fexc'), [])
    if 'msg' in f:
        out.append(MSG.get(f['msg'], f['msg']))
    if f.get('td') == '1':
        out.append('td')
    if f.get('prefetch') == '1':
        out.append('ncph')
    if 'next_msg' in f:
        out.append('next_' + MSG.get(f['next_msg'], f['next_msg']))
    if 'wait' in f:
        w = int(f['wait'], 0)
        out.append('dwb(' + ', '.join(str(i) for i in range(8) if w >> i & 1) + ')')
    return ' '.join(out)


def split_clauses(text, mesa, isa=None):
    res = []
    for block in re.split(r'(?m)^(?=clause_\d+:)', text):
        if not block.strip():
            continue
        lines = block.strip().splitlines()
        cur = int(re.match(r'clause_(\d+):', lines[0]).group(1))
        ins = [l.strip() for l in lines if l.strip().startswith(('*', '+', 'INSTR_INVALID'))]
        if mesa:
            ins = [drop_dest(isa, norm_mesa(l, cur)) for l in ins]
            hdr = lines[1].strip()
        else:
            hdr = mesa_header(lines[0])
        res.append((hdr, ins))
    return res


def same(a, b):
    """Our line a vs Mesa's b; our ?selN (register port not enabled) matches any register."""
    pa = re.split(r'(, | )', a)
    pb = re.split(r'(, | )', b)
    if len(pa) != len(pb):
        return False
    for x, y in zip(pa, pb):
        if x == y:
            continue
        mx = re.fullmatch(r'\?sel[0-2](.*)', x)
        my = re.fullmatch(r'r\d+(.*)', y)
        if mx and my and mx.group(1) == my.group(1):
            continue
        return False
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--disasm', required=True)
    ap.add_argument('--mesa', required=True)
    ap.add_argument('--workdir', default='/tmp')
    ap.add_argument('--clauses', type=int, default=2000)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--show', type=int, default=20)
    args = ap.parse_args()
    isa = A.ISA()
    rng = random.Random(args.seed)
    g = R.Gen(isa, rng)
    fma, add = isa.order['FMA'], isa.order['ADD']
    chunks = []
    for i in range(args.clauses):
        n = rng.randint(1, 8)
        if i % 2:
            lines = []
            for _ in range(n):
                lines += [f'    *INVALID {rng.randrange(1 << 23):#x}', f'    +INVALID {rng.randrange(1 << 20):#x}']
            hdr = ' '.join(f'{k}={v}' for k, v in (
                ('ftz', rng.choice(['none', 'dx11', 'always', 'abrupt'])), ('suppress_inf', rng.randint(0, 1)),
                ('suppress_nan', rng.randint(0, 1)), ('fexc', rng.choice(['enabled', 'disabled', 'precise_div', 'precise_sqrt'])),
                ('flow', rng.choice(list(FLOW))), ('td', rng.randint(0, 1)), ('prefetch', rng.randint(0, 1)),
                ('osrb', rng.randint(0, 1)), ('sr', rng.randrange(64)), ('wait', rng.randrange(256)),
                ('slot', rng.randrange(8)), ('msg', rng.choice(['none', 'load', 'store', 'varying', 'attribute', 'var_tex', '64bit', 'atomic'])),
                ('next_msg', rng.choice(['none', 'tex', 'blend', 'tile', 'z_stencil', 'atest', 'job', 'barrier']))))
            text = f'clause_0: {hdr}\n{{\n' + '\n'.join(lines) + '\n}\n'
        else:
            text = g.clause([rng.choice(fma) for _ in range(n)], [rng.choice(add) for _ in range(n)])
        try:
            chunks.append(isa.assemble(text))
        except A.AsmError:
            pass
    # plus the hand-written test shaders (branches with PC-relative offsets, memory, ...)
    for fn in sorted(os.listdir(HERE)):
        if fn.endswith('.s'):
            chunks.append(isa.assemble(open(os.path.join(HERE, fn)).read(), fn))
    binary = b''.join(chunks)
    path = os.path.join(args.workdir, 'oracle.bin')
    with open(path, 'wb') as f:
        f.write(binary)
    ours = subprocess.run([args.disasm, path], capture_output=True, text=True).stdout
    theirs = subprocess.run([args.mesa, path], capture_output=True, text=True).stdout
    a, b = split_clauses(ours, False), split_clauses(theirs, True, isa)
    if len(a) != len(b):
        print(f'FAIL: {len(a)} clauses (malibu) vs {len(b)} (oracle)')
        sys.exit(1)
    nins = bad = nres = badh = 0
    diffs = {}
    for (ha, ca), (hb, cb) in zip(a, b):
        if ha != hb.strip():
            badh += 1
            if badh <= 5:
                print(f'header differs: malibu {ha!r} oracle {hb!r}')
        for x, y in zip(ca, cb):
            nins += 1
            if not same(x, y):
                if 'reserved' in y:
                    # the oracle prints encodings with reserved modifier values (or picks the first
                    # of several variants sharing an opcode); malibu rejects/refines them
                    nres += 1
                    continue
                bad += 1
                key = y.split(' ')[0] + ' | ' + x.split(' ')[0]
                diffs.setdefault(key, (x, y, 0))
                diffs[key] = (x, y, diffs[key][2] + 1)
    for k, (x, y, c) in sorted(diffs.items(), key=lambda kv: -kv[1][2])[:args.show]:
        print(f'{c:5d}x  malibu: {x}\n        oracle: {y}')
    print(f'oracle: {len(a)} clauses ({badh} headers differ), {nins} instructions, {bad} differ ({len(diffs)} kinds); '
          f'{nres} that the oracle prints with reserved modifier values not compared')
    sys.exit(1 if bad or badh else 0)


if __name__ == '__main__':
    main()
