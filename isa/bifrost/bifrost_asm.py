#!/usr/bin/env python3
"""Bifrost test assembler: text in malibu-disasm's syntax -> raw clauses.

    bifrost_asm.py [-o OUT.bin] FILE.s           assemble one file
    bifrost_asm.py --c-include OUT.inc FILE.s... C arrays `bi_shader_<name>[]` for unit tests

Syntax (one clause):
    clause_0: flow=nbtb msg=load sr=4 ...     header fields by name (bifrost_isa clause.isa),
    {                                         missing ones are 0 (msg/sr derived if absent)
        *FADD.f32 r4, r1.abs, u2.lo           FMA then ADD instruction of each tuple
        +IADD.s32 t1, t, #0x10
    }
Operands: rN (register), t (ADD: FMA result of this tuple), t0/t1 (previous tuple's FMA/ADD
result), #0 (FMA: zero), uN.lo/uN.hi (uniform pair N), #0xV (32-bit constant half),
pc+N / pc-N (PC-relative branch offset, upper word of a constant; pc:LABEL = offset to the
clause labelled LABEL:, e.g. clause_96), NAME.lo/.hi (special FAU
value: lane_id, warp_id, ...).  Destination: rN, rN.h0, rN.h1 (register write) or t0/t1 (none).
Immediates NAME:V, staging @rN.  Modifiers: .VALUE or .NAME=VALUE, after the opcode or a source.
Encodings come from isa/bifrost/ops.isa and clause.isa (shared with the C decoder).
"""
import itertools
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bifrost_gen as G  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


class AsmError(Exception):
    pass


class ISA:
    def __init__(self, ops_path=None, clause_path=None):
        self.ops = G.parse_ops(ops_path or os.path.join(HERE, 'ops.isa'))
        self.cl = G.parse_clause(clause_path or os.path.join(HERE, 'clause.isa'))
        self.by_name = {}
        for op in self.ops:
            self.by_name[(op.unit, op.name)] = op
            for m in op.mods.values():
                others = [x for x in op.mods.values() if x is not m and x.src == m.src]
                m.qualify = any(v in x.vals and v != m.default for x in others for v in m.vals)
        self.order = {u: G.variant_order(self.ops, u) for u in ('FMA', 'ADD')}
        self.fmt = {f[0]: f for f in self.cl.formats}
        self.special = {v: k for k, v in self.cl.fauspecial.items()}
        self.const_code = {v: k for k, v in self.cl.constidx.items()}
        self.hdr = {h[0]: h for h in self.cl.header}

    # ---- instruction level -------------------------------------------------------------------
    def decode(self, unit, bits, arch=7):
        """Same algorithm as bi_decode_instr: returns (op, {mod: value}, [selectors]) or None."""
        for v in self.order[unit]:
            if bits & v.mask != v.value:
                continue
            op = v.op
            if 'v7' in op.flags and arch < 7:
                continue
            mods = {m.name: m.default if m.default is not None else m.vals[0] for m in op.mods.values()}
            ok = True
            for (m, s, z, names) in v.direct:
                x = names[(bits >> s) & ((1 << z) - 1)]
                if x == '-':
                    ok = False
                    break
                mods[m.name] = x
            if not ok:
                continue
            if v.has_key:
                key, sh = 0, 0
                for s, z in v.key:
                    key |= ((bits >> s) & ((1 << z) - 1)) << sh
                    sh += z
                if v.ord:
                    key |= int(((bits >> op.srcs[0][0]) & 7) > ((bits >> op.srcs[1][0]) & 7)) << sh
                if key not in v.cases:
                    continue
                for m, x in zip(v.dmods, v.cases[key]):
                    mods[m.name] = x
            sels = [(bits >> s) & 7 for s, _ in op.srcs]
            return op, mods, sels
        return None

    def encode(self, op, mods, sels, imms):
        """Encode one instruction; mods: complete {name: value}. Returns bits or None."""
        for v in op.variants:
            bits = v.value
            ok = True
            used = set()
            for (m, s, z, names) in v.direct:
                val = mods[m.name]
                if val not in names:
                    ok = False
                    break
                bits |= names.index(val) << s
                used.add(m.name)
            if not ok:
                continue
            for m in v.dmods:
                used.add(m.name)
            for m in op.mods.values():
                if m.name not in used and mods[m.name] != (m.default if m.default is not None else m.vals[0]):
                    ok = False
            if not ok:
                continue
            for (s, _), sel in zip(op.srcs, sels):
                bits |= sel << s
            for (n, s, z), val in zip(op.imms, imms):
                if val >> z:
                    raise AsmError(f'immediate {n}:{val} does not fit {z} bits')
                bits |= val << s
            if v.has_key:
                want = tuple(mods[m.name] for m in v.dmods)
                width = sum(z for _, z in v.key)
                ordv = int(sels[0] > sels[1]) if v.ord else 0
                found = None
                for k, vals in sorted(v.cases.items()):
                    if vals == want and (not v.ord or (k >> width) == ordv):
                        found = k
                        break
                if found is None:
                    continue
                sh = 0
                for s, z in v.key:
                    bits |= ((found >> sh) & ((1 << z) - 1)) << s
                    sh += z
            if bits & v.mask != v.value:
                continue
            d = self.decode(op.unit, bits)
            if d and d[0] is op and d[1] == mods and d[2] == list(sels):
                return bits
        return None

    def parse_mods(self, op, toks, src, mods, where):
        for t in toks:
            if '=' in t:
                n, val = t.split('=', 1)
                m = op.mods.get(n)
                if not m or m.src != src or val not in m.vals:
                    raise AsmError(f'{where}: bad modifier .{t}')
                mods[n] = val
                continue
            cands = [m for m in op.mods.values() if m.src == src and t in m.vals and not m.qualify and t != m.default]
            if len(cands) != 1:
                cands = [m for m in op.mods.values() if m.src == src and t in m.vals]
            if len(cands) != 1:
                raise AsmError(f'{where}: {"ambiguous" if cands else "unknown"} modifier .{t}')
            mods[cands[0].name] = t

    def parse_instr(self, line, where):
        """-> dict(unit, op, mods, dest, srcs, imms, staging, raw)"""
        unit = {'*': 'FMA', '+': 'ADD'}.get(line[0])
        if not unit:
            raise AsmError(f'{where}: instruction must start with * (FMA) or + (ADD)')
        body = line[1:].strip()
        mn, _, rest = body.partition(' ')
        operands = [x.strip() for x in rest.split(',')] if rest.strip() else []
        if mn == 'INVALID':
            return dict(unit=unit, raw=int(operands[0], 0))
        parts = mn.split('.')
        op = None
        for n in range(len(parts), 0, -1):
            op = self.by_name.get((unit, '.'.join(parts[:n])))
            if op:
                break
        if not op:
            raise AsmError(f'{where}: unknown {unit} instruction {mn}')
        mods = {}
        self.parse_mods(op, parts[n:], -1, mods, where)
        ins = dict(unit=unit, op=op, mods=mods, dest=None, srcs=[], imms=[0] * len(op.imms), staging=None, raw=None)
        if op.dests:
            if not operands:
                raise AsmError(f'{where}: missing destination')
            d = operands.pop(0)
            m = re.fullmatch(r'r(\d+)(?:\.(h0|h1))?', d)
            if m:
                ins['dest'] = (int(m.group(1)), {None: 3, 'h0': 1, 'h1': 2}[m.group(2)])
            elif d != ('t0' if unit == 'FMA' else 't1'):
                raise AsmError(f'{where}: bad destination {d}')
        for i in range(len(op.srcs)):
            if not operands:
                raise AsmError(f'{where}: {op.full} needs {len(op.srcs)} sources')
            tok = operands.pop(0)
            sp = tok.split('.')
            base, smods = sp[0], sp[1:]
            if smods and smods[0] in ('lo', 'hi') and not re.fullmatch(r'r\d+|t|t0|t1', base):
                base += '.' + smods.pop(0)
            self.parse_mods(op, smods, i, mods, where)
            ins['srcs'].append(self.parse_src(base, unit, where))
        for tok in operands:
            if tok.startswith('@r'):
                ins['staging'] = int(tok[2:])
                continue
            n, _, val = tok.partition(':')
            names = [x[0] for x in op.imms]
            if n not in names or not val:
                raise AsmError(f'{where}: unexpected operand {tok}')
            ins['imms'][names.index(n)] = int(val, 0)
        if op.staging and ins['staging'] is None:
            raise AsmError(f'{where}: {op.full} needs a staging register @rN')
        for m in op.mods.values():
            if m.name not in mods:
                if m.default is None:
                    raise AsmError(f'{where}: {op.full} needs modifier {m.name} ({" ".join(v for v in m.vals)})')
                mods[m.name] = m.default
        return ins

    def parse_src(self, tok, unit, where):
        if re.fullmatch(r'r\d+', tok):
            r = int(tok[1:])
            if r > 63:
                raise AsmError(f'{where}: no register {tok}')
            return ('reg', r)
        if tok == 't' and unit == 'ADD':
            return ('sel', 3)
        if tok == '#0' and unit == 'FMA':
            return ('sel', 3)
        if tok == 't0':
            return ('sel', 6)
        if tok == 't1':
            return ('sel', 7)
        m = re.fullmatch(r'u(\d+)\.(lo|hi)', tok)
        if m:
            return ('fau', 0x80 | int(m.group(1)), m.group(2) == 'hi')
        m = re.fullmatch(r'#(0x[0-9a-fA-F]+|\d+)', tok)
        if m:
            return ('const', int(m.group(1), 0) & 0xffffffff)
        m = re.fullmatch(r'pc([+-]\d+)', tok)
        if m:
            return ('pc', int(m.group(1)))
        m = re.fullmatch(r'pc:([A-Za-z_]\w*)', tok)
        if m:
            if self.labels is None:
                return ('pc', 0)
            if m.group(1) not in self.labels:
                raise AsmError(f'{where}: unknown label {m.group(1)}')
            return ('pc', self.labels[m.group(1)] - self.cur)
        m = re.fullmatch(r'(\w+)\.(lo|hi)', tok)
        if m and (m.group(1) in self.special or re.fullmatch(r'special\d+', m.group(1))):
            idx = self.special.get(m.group(1))
            if idx is None:
                idx = int(m.group(1)[7:])
            return ('fau', idx, m.group(2) == 'hi')
        raise AsmError(f'{where}: bad source {tok}')

    # ---- clause level --------------------------------------------------------------------------
    def assemble_clause(self, hdr_fields, lines, where):
        if len(lines) % 2 or not lines:
            raise AsmError(f'{where}: a clause needs FMA/ADD instruction pairs (1..8 tuples)')
        tuples = []
        for i in range(0, len(lines), 2):
            f = self.parse_instr(lines[i][1], lines[i][0])
            a = self.parse_instr(lines[i + 1][1], lines[i + 1][0])
            if f['unit'] != 'FMA' or a['unit'] != 'ADD':
                raise AsmError(f'{lines[i][0]}: each tuple is an FMA (*) then an ADD (+) instruction')
            tuples.append((f, a))
        n = len(tuples)
        if n > 8:
            raise AsmError(f'{where}: more than 8 tuples')
        # header
        hdr = {}
        for k, v in hdr_fields.items():
            h = self.hdr.get(k)
            if not h:
                raise AsmError(f'{where}: unknown header field {k}')
            hdr[k] = h[3].index(v) if v in h[3] else int(v, 0)
        staging = {x['staging'] for t in tuples for x in t if x.get('staging') is not None}
        if len(staging) > 1:
            raise AsmError(f'{where}: several staging registers {staging}')
        if staging and 'sr' not in hdr:
            hdr['sr'] = staging.pop()
        elif staging and staging.pop() != hdr['sr']:
            raise AsmError(f'{where}: staging register does not match sr=')
        if 'msg' not in hdr:
            msgs = [x['op'].msg for t in tuples for x in t if x.get('op') and x['op'].msg != 'none']
            if msgs:
                hdr['msg'] = self.hdr['msg'][3].index(msgs[0])
        header = 0
        for k, v in hdr.items():
            _, s, z, _ = self.hdr[k]
            if v >> z:
                raise AsmError(f'{where}: header {k}={v} too large')
            header |= v << s

        # FAU use per tuple: uniform/special index, or constant values (placed in lo/hi halves)
        plans = []
        for ti, (f, a) in enumerate(tuples):
            idx, vals, pc = None, [], None
            for x in (f, a):
                for s in x.get('srcs', []):
                    kind = 'fau' if s[0] == 'fau' else 'const' if s[0] in ('const', 'pc') else None
                    if not kind:
                        continue
                    if idx is not None and idx != (kind, s[1] if kind == 'fau' else None):
                        raise AsmError(f'{where}: tuple {ti}: more than one FAU entry')
                    idx = (kind, s[1] if kind == 'fau' else None)
                    if s[0] == 'const' and s[1] not in vals:
                        vals.append(s[1])
                    if s[0] == 'pc':
                        if pc is not None and pc != s[1]:
                            raise AsmError(f'{where}: tuple {ti}: two PC offsets')
                        pc = s[1]
            if len(vals) + (pc is not None) > 2:
                raise AsmError(f'{where}: tuple {ti}: more than two constant words')
            if pc is not None:
                layouts = [{v: False for v in vals}]
            elif len(vals) == 2:
                layouts = [{vals[0]: False, vals[1]: True}, {vals[0]: True, vals[1]: False}]
            elif vals:
                layouts = [{vals[0]: False}, {vals[0]: True}]
            else:
                layouts = [{}]
            plans.append((idx, layouts, pc))

        packed, chosen = [], []
        for ti, (f, a) in enumerate(tuples):
            prev = tuples[(ti - 1) % n]
            idx, layouts, pc = plans[ti]
            bits, lay = self.pack_tuple(ti, f, a, prev[0].get('dest'), prev[1].get('dest'),
                                        idx[1] if idx and idx[0] == 'fau' else 0, layouts, where)
            packed.append(bits)
            chosen.append(lay)

        # constant pool: entries [value, fixed-mask, pc] (bits 3..0 come from each tuple's fau_idx)
        consts, refs = [], []
        for ti, (idx, layouts, pc) in enumerate(plans):
            if not idx or idx[0] != 'const':
                refs.append(None)
                continue
            val = mask = 0
            nib = 0
            for v, hi in chosen[ti].items():
                if hi:
                    val |= v << 32
                    mask |= 0xffffffff << 32
                else:
                    val |= v & ~15
                    mask |= 0xfffffff0
                    nib = v & 15
            if pc is not None:
                val |= (pc & 0x0fffffff) << 32
                mask |= 0x0fffffff << 32
            pcf = pc is not None
            for ci, e in enumerate(consts):
                if e[2] == pcf and not ((e[0] ^ val) & e[1] & mask):
                    e[0] |= val & mask & ~e[1]
                    e[1] |= mask
                    break
            else:
                consts.append([val, mask, pcf])
                ci = len(consts) - 1
            refs.append((ci, nib))
        slots, words, cmod0 = self.place_constants(consts, n, where)
        for ti, r in enumerate(refs):
            if r:
                packed[ti] |= (self.const_code[slots[r[0]]] << 4) | r[1]
        return self.pack_words(n, packed, header, words, cmod0)

    def place_constants(self, consts, n, where):
        """Order the constants into slots; returns (slot per entry, constant-word pairs, M of EC0)."""
        emb = n in self.cl.embedded
        emb_has_m = any(p[0] == 'M' for p in self.fmt[self.cl.sequence[n][-1]][3]) if emb else False
        order = list(range(len(consts)))
        vals = [list(e) for e in consts]
        ec0 = None
        if emb and vals:
            pick = next((i for i in order if emb_has_m or not vals[i][2]), None)
            if pick is None:
                vals.append([0, 0, False])
                pick = len(vals) - 1
            order.remove(pick) if pick in order else None
            ec0 = pick
        elif emb:
            vals.append([0, 0, False])
            ec0 = len(vals) - 1
        slots = {}
        words = []
        nxt = 0
        if emb:
            slots[ec0] = 0
            nxt = 1
        rest = order
        avail = [first for pos, (first, tup) in sorted(self.cl.constpos.items()) if tup == n]
        for i in range(0, len(rest), 2):
            A = rest[i]
            B = rest[i + 1] if i + 1 < len(rest) else None
            if B is None:
                vals.append([0, 0, False])
                B = len(vals) - 1
            if vals[B][2] and not vals[A][2]:
                A, B = B, A
            a, b = vals[A], vals[B]
            top = 0xf << 60
            if a[2]:
                if b[1] & top and not b[2]:
                    bt = b[0] >> 60
                else:
                    bt = 0
                    b[0] &= ~top
                    b[1] |= top
                if b[2]:
                    b[0] &= ~top
                    bt = 0
                a[0] = (a[0] & ~top) | (((bt + (5 if b[2] else 4)) & 15) << 60)
            else:
                m1 = ((a[0] >> 60) - (b[0] >> 60)) & 15
                if 1 <= m1 <= 7:
                    if not (b[1] & top):
                        b[0] = (b[0] & ~top) | (a[0] & top)
                    elif not (a[1] & top):
                        a[0] = (a[0] & ~top) | (b[0] & top)
                    else:
                        A, B = B, A
                        a, b = b, a
            if nxt not in avail:
                raise AsmError(f'{where}: too many constants for {n} tuples')
            slots[A], slots[B] = nxt, nxt + 1
            words.append((nxt, vals[A][0], vals[B][0]))
            nxt += 2
        cmod0 = 0
        if emb:
            e = vals[ec0]
            cmod0 = 4 if e[2] else 0
            words.insert(0, ('E', e[0]))
        return slots, words, cmod0

    def pack_tuple(self, ti, f, a, wf, wa, fau_idx, layouts, where):
        n_first = ti == 0
        reads = []
        for x in (f, a):
            for s in x.get('srcs', []):
                if s[0] == 'reg' and s[1] not in reads:
                    reads.append(s[1])
        if len(reads) > 3:
            raise AsmError(f'{where}: tuple {ti} reads more than 3 registers')
        # port assignments (port0, port1, port2): port0 < port1 (equal allowed below r32); a
        # register may sit in two ports so that two sources can use different selectors
        cands = []
        for p2 in [None] + reads:
            for k in range(3):
                for p01 in itertools.combinations_with_replacement(sorted(reads), k):
                    if len(p01) == 2 and p01[0] == p01[1] and p01[0] > 31:
                        continue
                    if set(reads) - set(p01) - {p2}:
                        continue
                    cands.append((len(p01) + (p2 is not None),
                                  (p01[0] if p01 else None, p01[1] if len(p01) > 1 else None, p2)))
        cands = [c for _, c in sorted(cands, key=lambda x: x[0])]
        errs = []
        for (p0, p1, p2), lay in [(c, l) for c in cands for l in layouts]:
            try:
                regs = self.pack_regs(n_first, p0, p1, p2, wf, wa, fau_idx)
            except AsmError as e:
                errs.append(str(e))
                continue
            ports = {}
            for i, p in enumerate((p0, p1, p2)):
                if p is not None:
                    ports.setdefault(p, []).append(i)
            for choice in itertools.product(*[ports[s[1]] for x in (f, a) for s in x.get('srcs', []) if s[0] == 'reg']):
                choice = list(choice)
                bits = []
                for x in (f, a):
                    if x.get('raw') is not None:
                        bits.append(x['raw'])
                        continue
                    sels = []
                    for s in x['srcs']:
                        if s[0] == 'reg':
                            sels.append(choice.pop(0))
                        elif s[0] == 'sel':
                            sels.append(s[1])
                        elif s[0] == 'fau':
                            sels.append(5 if s[2] else 4)
                        elif s[0] == 'pc':
                            sels.append(5)
                        else:
                            sels.append(5 if lay[s[1]] else 4)
                    if any(not (allowed >> sel) & 1 for (st, allowed), sel in zip(x['op'].srcs, sels)):
                        errs.append(f'{x["op"].full}: source selector not allowed')
                        break
                    b = self.encode(x['op'], x['mods'], sels, x['imms'])
                    if b is None:
                        errs.append(f'{x["op"].full}: no encoding for these modifiers and operands')
                        break
                    bits.append(b)
                else:
                    return regs | bits[0] << 35 | bits[1] << 58, lay
        raise AsmError(f'{where}: tuple {ti}: cannot encode ' +
                       (errs[-1] if errs else 'the instructions with any register port assignment'))

    def pack_regs(self, first, p0, p1, p2, wf, wa, fau_idx):
        SL = {3: 'w', 1: 'wl', 2: 'wh'}
        want2 = 'read' if p2 is not None else 'idle'
        want3, unit3 = 'idle', '-'
        r2 = p2
        r3 = None
        if wf and wa:
            if p2 is not None:
                raise AsmError('port 2 read with two writes')
            want2, r2 = SL[wf[1]], wf[0]
            want3, unit3, r3 = SL[wa[1]], 'add', wa[0]
        elif wf:
            want3, unit3, r3 = SL[wf[1]], 'fma', wf[0]
        elif wa:
            want3, unit3, r3 = SL[wa[1]], 'add', wa[0]
        modes = [m for m in sorted(self.cl.regmode) if (m < 8 or m >= 16 and m < 24) == True] if first else \
            [m for m in sorted(self.cl.regmode) if m != 16]
        for mode in modes:
            s2, s3, u = self.cl.regmode[mode]
            if (s2, s3) != (want2, want3) or (s3 != 'idle' and u != unit3):
                continue
            if mode == self.cl.regidle[1 if first else 0]:
                continue
            x2, x3 = r2, r3
            if first:
                c = (mode & 7) | ((mode & 16) >> 1)
                if not (want2 != 'idle' and want3 != 'idle'):
                    if x2 is None:
                        x2 = x3
                    elif x3 is None:
                        x3 = x2
                    elif x2 != x3:
                        continue
            else:
                c = mode & 15
                if mode >= 16:
                    if x2 is None:
                        x2 = x3
                    elif x3 is None:
                        x3 = x2
                    elif x2 != x3:
                        continue
                else:
                    if x2 is not None and x2 == x3:
                        continue
                    if x2 is None:
                        x2 = (x3 + 1) & 63 if x3 is not None else 1
                    if x3 is None:
                        x3 = (x2 + 1) & 63
            x2 = x2 or 0
            x3 = x3 or 0
            if p1 is not None:
                if p0 > 31:
                    reg0, reg1 = 63 - p0, 63 - p1
                else:
                    reg0, reg1 = p0, p1
                ctrl = c
                if ctrl == 0:
                    continue
            else:
                ctrl = 0
                reg1 = c << 2
                if p0 is not None:
                    reg1 |= p0 >> 5
                    reg0 = p0 & 31
                else:
                    reg1 |= 2
                    reg0 = 0
            R = self.cl.regs
            return (fau_idx << R['fau_idx'][0] | x3 << R['reg3'][0] | x2 << R['reg2'][0] |
                    reg0 << R['reg0'][0] | reg1 << R['reg1'][0] | ctrl << R['ctrl'][0])
        raise AsmError(f'no register mode for slot2={want2} slot3={want3}/{unit3}')

    def pack_words(self, n, tuples, header, cwords, cmod0):
        seq = self.cl.sequence[n]
        E = None
        pairs = []
        for w in cwords:
            if w[0] == 'E':
                E = w[1]
            else:
                pairs.append(w)
        out = []
        fmts = [self.fmt[s] for s in seq]
        for i, (name, tag, final, pieces) in enumerate(fmts):
            q = 0
            for d, idx, lo, width, qb in pieces:
                if d == 'T':
                    v = tuples[idx] >> lo
                elif d == 'H':
                    v = header >> lo
                elif d == 'E':
                    v = (E or 0) >> (4 + lo)
                elif d == 'M':
                    v = cmod0
                else:
                    raise AsmError('bad piece')
                q |= (v & ((1 << width) - 1)) << qb
            m, val = G.tag_mask_value(tag)
            q |= val
            if 'z' in tag and final and not pairs:
                q |= 0x40
            out.append(q)
        ctag = self.fmt['c'][1]
        for k, (first, A, B) in enumerate(pairs):
            pos = next(p for p, (f_, t_) in self.cl.constpos.items() if f_ == first and t_ == n)
            _, val = G.tag_mask_value(ctag)
            q = val | pos | (0x40 if k == len(pairs) - 1 else 0)
            q |= ((A >> 4) & ((1 << 60) - 1)) << 8
            q |= ((B >> 4) & ((1 << 60) - 1)) << 68
            out.append(q)
        return b''.join(x.to_bytes(16, 'little') for x in out)

    labels = None     # label -> byte offset (None during the first pass)
    cur = 0           # byte offset of the clause being assembled

    def assemble(self, text, name='<input>'):
        """Assemble; `pc:LABEL` operands need the clause offsets, so assemble until they settle."""
        self.labels = None
        prev = None
        for _ in range(4):
            out, found = self.assemble_pass(text, name)
            if found == prev:
                self.labels = None
                return out
            self.labels = prev = found
        raise AsmError(f'{name}: label offsets do not settle')

    def assemble_pass(self, text, name):
        out = b''
        found = {}
        hdr = None
        lines = []
        inside = False
        for lineno, raw in enumerate(text.splitlines(), 1):
            line = raw.split('#', 1)[0].strip() if not raw.strip().startswith('+') and not raw.strip().startswith('*') \
                else re.sub(r'\s+#\s.*$', '', raw.strip())
            line = line.split(';', 1)[0].strip()
            where = f'{name}:{lineno}'
            if not line:
                continue
            m = re.fullmatch(r'([A-Za-z_]\w*):(.*)', line)
            if m and not inside:
                if m.group(1) in found:
                    raise AsmError(f'{where}: label {m.group(1)} defined twice')
                found[m.group(1)] = len(out)
                hdr = {}
                for kv in m.group(2).split():
                    k, _, v = kv.partition('=')
                    hdr[k] = v
                cwhere = where
                continue
            if line == '{':
                if hdr is None:
                    hdr, cwhere = {}, where
                inside = True
                lines = []
                continue
            if line == '}':
                self.cur = len(out)
                out += self.assemble_clause(hdr, lines, cwhere)
                hdr, inside = None, False
                continue
            if not inside:
                raise AsmError(f'{where}: instruction outside a clause')
            lines.append((where, line))
        if inside:
            raise AsmError(f'{name}: missing }}')
        return out, found


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description='Bifrost test assembler')
    ap.add_argument('-o', '--output')
    ap.add_argument('--c-include')
    ap.add_argument('files', nargs='+')
    args = ap.parse_args(argv)
    isa = ISA()
    inc = ['/* Generated by isa/bifrost/bifrost_asm.py; do not edit. */']
    try:
        for path in args.files:
            with open(path) as f:
                binary = isa.assemble(f.read(), path)
            if args.output:
                with open(args.output, 'wb') as f:
                    f.write(binary)
            if args.c_include:
                cname = re.sub(r'\W', '_', os.path.splitext(os.path.basename(path))[0])
                inc.append(f'static const unsigned char bi_shader_{cname}[] = {{')
                for i in range(0, len(binary), 16):
                    inc.append('    ' + ', '.join(f'0x{b:02x}' for b in binary[i:i + 16]) + ',')
                inc.append('};')
    except AsmError as e:
        sys.exit(f'bifrost_asm: {e}')
    if args.c_include:
        with open(args.c_include, 'w') as f:
            f.write('\n'.join(inc) + '\n')


if __name__ == '__main__':
    main(sys.argv[1:])
