#!/usr/bin/env python3
"""One-off import tool: reads an ISA.xml encoding description (Mesa, src/panfrost/.../ISA.xml) and
prints the encoding facts (opcode masks/values, operand and modifier fields, derived-field tables
fully evaluated into key -> value rows) in malibu's own format (isa/bifrost/ops.isa).
Not used by the build; ops.isa is the source of truth and is edited by hand afterwards.
Usage: import_isa_xml.py ISA.xml > ops.isa.new"""
import sys, itertools, xml.etree.ElementTree as ET

def cond(c):
    if c.tag == 'reserved': return None
    if c.attrib.get('alias'): return ('false',)
    if 'left' in c.attrib: return (c.tag, c.attrib['left'], c.attrib['right'])
    return (c.tag,) + tuple(cond(x) for x in c)

def keys_of(e, acc):
    if e is None or e == () : return
    if e[0] in ('and', 'or'):
        for x in e[1:]: keys_of(x, acc)
    elif e[0] in ('eq', 'neq'):
        for s in e[1:]:
            if not s.startswith('#'): acc.add(s)

def ev(e, ctx):
    if e is None: return False
    if e == (): return True
    t = e[0]
    if t == 'false': return False
    if t == 'and': return all(ev(x, ctx) for x in e[1:])
    if t == 'or': return any(ev(x, ctx) for x in e[1:])
    l = ctx[e[1]]
    r = e[2][1:] if e[2].startswith('#') else ctx[e[2]]
    return (l == r) if t == 'eq' else (l != r)

MSG = {'job_management': 'job', 'vartex': 'var_tex'}
# v7-only encodings (reference: CLPER on v7 except G31; IMULD on v7)
V7_ONLY = {'+CLPER.i32', '*IMULD'}

out = []
def emit(s): out.append(s)

root = ET.parse(sys.argv[1]).getroot()
for ins in root.findall('ins'):
    a = ins.attrib
    if a.get('pseudo'): continue
    name = a['name']
    unit = 'FMA' if name[0] == '*' else 'ADD'
    srcs = [(int(s.attrib['start']), int(s.attrib.get('mask', '0xff'), 0)) for s in ins.findall('src') if not s.attrib.get('pseudo')]
    imms = [(i.attrib['name'], int(i.attrib['start']), int(i.attrib['size'])) for i in ins.findall('immediate') if not i.attrib.get('pseudo')]
    mods = []
    for m in ins.findall('mod'):
        if m.attrib.get('pseudo'): continue
        opts = [x.text if x.tag == 'opt' else '-' for x in m]
        if not opts: opts = ['none', m.attrib['opt']]
        size = int(m.attrib['size'])
        opts = (opts + ['-'] * (1 << size))[:1 << size]
        default = m.attrib.get('default', 'none' if 'none' in opts else None)
        st = m.attrib.get('start')
        mods.append([m.attrib['name'], None if st is None else int(st), size, opts, default])
    encs = ins.findall('encoding')
    variants = []
    if not encs:
        variants.append((int(a['mask'], 0), int(a['exact'], 0), (), ins.findall('derived'), {}))
    else:
        for e in encs:
            copies = {c.attrib['name']: int(c.attrib['start']) for c in e.findall('copy')}
            tst = cond([x for x in e if x.tag not in ('derived', 'copy')][0])
            variants.append((int(e.attrib['mask'], 0), int(e.attrib['exact'], 0), tst, e.findall('derived'), copies))
    flags = []
    if a.get('staging'):
        d, n = a['staging'].split('=')
        flags.append(f'staging={d}:{n}')
    if a.get('message'): flags.append('msg=' + MSG.get(a['message'], a['message']))
    if a.get('last'): flags.append('last')
    if a.get('table'): flags.append('table')
    if a.get('unused'): flags.append('unused')
    if a.get('dests'): flags.append('dests=' + a['dests'])
    if name in V7_ONLY: flags.append('v7')
    for (mask, exact, tst, derived, copies) in variants:
        dv = []
        for d in derived:
            st, sz = int(d.attrib['start']), int(d.attrib['size'])
            opts = [cond(x) for x in d]
            opts = (opts + [None] * (1 << sz))[:1 << sz]
            dv.append((st, sz, opts))
        vm = []
        for (n, st, sz, opts, dflt) in mods:
            vm.append([n, copies.get(n, st), sz, opts, dflt])
        keys = set()
        keys_of(tst, keys)
        for (_, _, opts) in dv:
            for o in opts: keys_of(o, keys)
        ordered = 'ordering' in keys
        keys.discard('ordering')
        keys = sorted(keys)
        mm = {m[0]: m for m in vm}
        for k in keys:
            assert k in mm, (name, k)
        emit(f'op {unit} {name[1:]} {exact:#x}/{mask:#x}' + ''.join(' ' + f for f in flags))
        for (st, msk) in srcs:
            emit(f'  src {st}' + (f' {msk:#04x}' if msk != 0xff else ''))
        for (n, st, sz) in imms:
            emit(f'  imm {n} {st}:{sz}')
        dmods = [k for k in keys if mm[k][1] is None]
        # modifiers in declaration order (the disassembler prints them in this order)
        for (n, st, sz, opts, dflt) in vm:
            if st is not None:
                emit(f'  mod {n} {st}:{sz} ' + ' '.join(opts) + (f' default={dflt}' if dflt else ''))
            elif n in dmods:
                emit(f'  dmod {n} ' + ' '.join(o for o in opts if o != '-') + (f' default={dflt}' if dflt else ''))
        dmods = [m[0] for m in vm if m[0] in dmods]
        if dmods or dv or ordered:
            emit('  key ' + ' '.join(f'{st}:{sz}' for (st, sz, _) in dv) + (' ord' if ordered else ''))
            # forward-evaluate every modifier state, invert into key -> state
            table = {}
            width = sum(sz for (_, sz, _) in dv)
            vals = [[o for o in mm[k][3] if o != '-'] for k in keys]
            for order in ([False, True] if ordered else [False]):
                for combo in itertools.product(*vals):
                    ctx = dict(zip(keys, combo)); ctx['ordering'] = 'gt' if order else 'lt'
                    if not ev(tst, ctx): continue
                    key = 0; sh = 0; ok = True
                    for (st, sz, opts) in dv:
                        j = next((j for j, o in enumerate(opts) if o is not None and ev(o, ctx)), None)
                        if j is None: ok = False; break
                        key |= j << sh; sh += sz
                    if not ok: continue
                    if order: key |= 1 << width
                    
                    if key in table and any(table[key][k]!=ctx[k] for k in dmods): print('COLLIDE', name, key, file=sys.stderr)
                    table.setdefault(key, ctx)
            for key in sorted(table):
                emit(f'  case {key} ' + ' '.join(table[key][k] for k in dmods))
        emit('')
print('\n'.join(out))
