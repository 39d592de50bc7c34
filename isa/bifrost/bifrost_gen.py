#!/usr/bin/env python3
"""Bifrost ISA description reader and C table generator.

    bifrost_gen.py OUT_PREFIX ops.isa clause.isa exec.isa   -> OUT_PREFIX.h, OUT_PREFIX.c

The description files (isa/bifrost/ops.isa, clause.isa, exec.isa) explain their own format.
This module is also imported by bifrost_asm.py (the assembler), so both sides read the same data.
"""
import os
import re
import sys


class Mod:
    def __init__(self, name):
        self.name = name
        self.vals = []          # op-level value list (index = stored value)
        self.default = None
        self.src = -1           # source this modifier qualifies, or -1

    def index(self, v):
        if v not in self.vals:
            self.vals.append(v)
        return self.vals.index(v)


class Variant:
    def __init__(self, op, value, mask, where):
        self.op, self.value, self.mask, self.where = op, value, mask, where
        self.direct = []        # (mod, start, size, [value name per field value])
        self.dmods = []         # Mod objects in key order
        self.key = []           # (start, size)
        self.ord = False
        self.cases = {}         # key -> tuple of value names (dmod order)
        self.has_key = False


class Op:
    def __init__(self, unit, name):
        self.unit, self.name = unit, name
        self.srcs = []          # (start, allowed)
        self.imms = []          # (name, start, size)
        self.mods = {}          # name -> Mod (ordered by first appearance)
        self.flags = set()
        self.msg = 'none'
        self.staging = None     # (dir, count) count: int or 'sr_count' / 'format'
        self.dests = 1
        self.variants = []

    @property
    def full(self):
        return ('*' if self.unit == 'FMA' else '+') + self.name

    @property
    def cname(self):
        return self.unit + '_' + re.sub(r'[^A-Za-z0-9]', '_', self.name).upper()

    def mod(self, name):
        if name not in self.mods:
            self.mods[name] = Mod(name)
        return self.mods[name]


def isa_lines(path):
    """(where, line) for each line of a description file that has more than a # comment."""
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.split('#', 1)[0].strip()
            if line:
                yield f'{path}:{lineno}', line


def parse_ops(path):
    ops, by_key = [], {}
    cur = None
    for where, line in isa_lines(path):
        t = line.split()
        kw = t[0]
        if kw == 'op':
            unit, name, vm = t[1], t[2], t[3]
            value, mask = (int(x, 0) for x in vm.split('/'))
            key = (unit, name)
            op = by_key.get(key)
            fresh = op is None
            if fresh:
                op = by_key[key] = Op(unit, name)
                ops.append(op)
            for fl in t[4:]:
                if fl.startswith('msg='):
                    op.msg = fl[4:]
                elif fl.startswith('staging='):
                    d, c = fl[8:].split(':')
                    op.staging = (d, int(c) if c.isdigit() else c)
                elif fl.startswith('dests='):
                    op.dests = int(fl[6:])
                elif fl in ('last', 'table', 'unused', 'v7'):
                    op.flags.add(fl)
                else:
                    sys.exit(f'{where}: unknown flag {fl}')
            cur = Variant(op, value, mask, where)
            cur.fresh = fresh
            op.variants.append(cur)
        elif kw == 'src':
            if cur.fresh:
                cur.op.srcs.append((int(t[1]), int(t[2], 0) if len(t) > 2 else 0xff))
        elif kw == 'imm':
            if cur.fresh:
                s, z = t[2].split(':')
                cur.op.imms.append((t[1], int(s), int(z)))
        elif kw == 'mod':
            m = cur.op.mod(t[1])
            s, z = (int(x) for x in t[2].split(':'))
            names = []
            for v in t[3:]:
                if v.startswith('default='):
                    m.default = v[8:]
                else:
                    names.append(v)
            if len(names) != 1 << z:
                sys.exit(f'{where}: {t[1]} needs {1 << z} values')
            for v in names:
                if v != '-':
                    m.index(v)
            cur.direct.append((m, s, z, names))
        elif kw == 'dmod':
            m = cur.op.mod(t[1])
            for v in t[2:]:
                if v.startswith('default='):
                    m.default = v[8:]
                else:
                    m.index(v)
            cur.dmods.append(m)
        elif kw == 'key':
            cur.has_key = True
            for k in t[1:]:
                if k == 'ord':
                    cur.ord = True
                else:
                    s, z = k.split(':')
                    cur.key.append((int(s), int(z)))
        elif kw == 'case':
            vals = tuple(t[2:])
            if len(vals) != len(cur.dmods):
                sys.exit(f'{where}: case needs {len(cur.dmods)} values')
            cur.cases[int(t[1])] = vals
        else:
            sys.exit(f'{where}: unknown keyword {kw}')
    for op in ops:
        for m in op.mods.values():
            if m.name[-1].isdigit() and int(m.name[-1]) < len(op.srcs):
                m.src = int(m.name[-1])
            if m.default is not None and m.default not in m.vals:
                m.vals.append(m.default)
    return ops


class Clause:
    def __init__(self):
        self.header, self.regs, self.tuple = [], {}, {}
        self.regmode, self.regidle, self.srcsel = {}, None, {}
        self.constidx, self.fauspecial = {}, {}
        self.formats, self.sequence, self.embedded = [], {}, []
        self.constpos, self.m1, self.m2 = {}, {}, {}


def parse_clause(path):
    c = Clause()
    for where, line in isa_lines(path):
        t = line.split()
        kw = t[0]
        if kw == 'header':
            s, z = (int(x) for x in t[2].split(':'))
            c.header.append((t[1], s, z, t[3:]))
        elif kw in ('regs', 'tuple'):
            s, z = (int(x) for x in t[2].split(':'))
            getattr(c, kw)[t[1]] = (s, z)
        elif kw == 'regmode':
            c.regmode[int(t[1])] = (t[2], t[3], t[4])
        elif kw == 'regidle':
            c.regidle = (int(t[1]), int(t[2]))
        elif kw == 'srcsel':
            c.srcsel[int(t[1])] = (t[2], t[3])
        elif kw == 'constidx':
            c.constidx[int(t[1])] = int(t[2])
        elif kw == 'fauspecial':
            c.fauspecial[int(t[1])] = t[2]
        elif kw == 'format':
            name, tag, final = t[1], t[2], int(t[3])
            pieces = []
            for p in t[4:]:
                m = re.fullmatch(r'([A-Z])(\d?):(\d+)\+(\d+)@(\d+)', p)
                if not m:
                    sys.exit(f'{path}:{lineno}: bad piece {p}')
                pieces.append((m.group(1), int(m.group(2) or 0), int(m.group(3)), int(m.group(4)), int(m.group(5))))
            c.formats.append((name, tag, final, pieces))
        elif kw == 'sequence':
            c.sequence[int(t[1])] = t[2:]
        elif kw == 'embedded':
            c.embedded = [int(x) for x in t[1:]]
        elif kw == 'constpos':
            c.constpos[int(t[1])] = (int(t[2]), int(t[3]))
        elif kw == 'm1':
            c.m1[int(t[1])] = (t[2], t[3])
        elif kw == 'm2':
            c.m2[int(t[1])] = (t[2], t[3])
        else:
            sys.exit(f'{path}:{lineno}: unknown keyword {kw}')
    return c


def tag_mask_value(tag):
    mask = value = 0
    for i, ch in enumerate(tag):
        bit = 7 - i
        if ch in '01':
            mask |= 1 << bit
            value |= int(ch) << bit
    return mask, value


def variant_order(ops, unit):
    """Variants of one unit in decode order: most fixed bits first, then file order."""
    vs = [v for op in ops if op.unit == unit for v in op.variants]
    return sorted(vs, key=lambda v: -bin(v.mask).count('1'))


def cstr(s):
    return '"' + s + '"'


class Exec:
    def __init__(self):
        self.classes = []       # semantic classes, in enum order
        self.sem = {}           # op name -> (class, set of flags)
        self.why = {}           # op name -> why it stays unimplemented


EXEC_FLAGS = ('one', 'return')


def parse_exec(path, ops):
    ex = Exec()
    names = set(op.name for op in ops)
    for where, line in isa_lines(path):
        t = line.split()
        if t[0] == 'class':
            ex.classes += t[1:]
        elif t[0] == 'sem':
            if t[1] not in names or t[2] not in ex.classes or any(x not in EXEC_FLAGS for x in t[3:]):
                sys.exit(f'{where}: unknown op, class or flag')
            ex.sem[t[1]] = (t[2], set(t[3:]))
        elif t[0] == 'why':
            if t[1] not in names:
                sys.exit(f'{where}: unknown op {t[1]}')
            ex.why[t[1]] = line.split(None, 2)[2]
        else:
            sys.exit(f'{where}: unknown keyword {t[0]}')
    if not ex.classes or ex.classes[0] != 'NONE':
        sys.exit(f'{path}: the first class must be NONE')
    return ex


def name_facts(name):
    """What an op's name says: type suffix (kind, bits, lanes), shift logic, signed conversion."""
    base, _, suffix = name.partition('.')
    m = re.match(r'^(?:v(\d))?([isuf])(\d+)$', suffix)
    kind, bits, lanes = (m.group(2), int(m.group(3)), int(m.group(1) or 1)) if m else (None, 0, 1)
    logic = 'AND' if '_AND' in base else 'OR' if '_OR' in base else 'XOR' if '_XOR' in base else 'NONE'
    conv_signed = False
    if '_TO_' in base:
        sides = [re.sub(r'^V\d', '', x) for x in base.split('_TO_', 1)]
        conv_signed = any(x.startswith('S') for x in sides)
    return kind, bits, lanes, logic, conv_signed


def cident(s):
    return re.sub(r'[^A-Za-z0-9]', '_', s).upper()


def modifier_names(ops):
    """Every modifier name (source-qualified families such as abs0 for all of sources 0-3)."""
    names = set(m.name for op in ops for m in op.mods.values())
    for n in list(names):
        mm = re.match(r'^(.*?)(\d)$', n)
        if mm:
            names.update(mm.group(1) + str(i) for i in range(4))
    return sorted(names)


MSGS = ['none', 'varying', 'attribute', 'tex', 'var_tex', 'load', 'store', 'atomic', 'barrier',
        'blend', 'tile', '-', 'z_stencil', 'atest', 'job', '64bit']
SLOTOPS = {'idle': 0, 'read': 1, 'w': 2, 'wl': 3, 'wh': 4}
CONSTMODS = {'none': 0, 'pc_lo': 1, 'pc_hi': 2, 'pc_lo_hi': 3}


def generate(prefix, ops, cl, ex):
    h, c = [], []
    base = os.path.basename(prefix)
    h.append('/* Generated by isa/bifrost/bifrost_gen.py from isa/bifrost/ops.isa, clause.isa and exec.isa; do not edit. */')
    h.append('#ifndef BIFROST_ISA_GEN_H\n#define BIFROST_ISA_GEN_H\n#include <stdint.h>\n')
    maxmods = max(len(op.mods) for op in ops)
    maxkeyd = max(len(v.dmods) for op in ops for v in op.variants)
    h.append(f'#define BI_MAX_SRCS {max(len(op.srcs) for op in ops)}')
    h.append(f'#define BI_MAX_MODS {maxmods}')
    h.append(f'#define BI_MAX_IMMS {max(len(op.imms) for op in ops)}')
    h.append(f'#define BI_MAX_DMODS {maxkeyd}')
    h.append('enum bi_op {\n    BI_OP_INVALID = 0,')
    for op in ops:
        h.append(f'    BI_OP_{op.cname},')
    h.append('    BI_NUM_OPS\n};')
    h.append('''
enum { BI_UNIT_FMA = 0, BI_UNIT_ADD = 1 };
enum { BI_OPF_LAST = 1, BI_OPF_TABLE = 2, BI_OPF_UNUSED = 4, BI_OPF_V7 = 8 };
enum { BI_STAGING_NONE = 0, BI_STAGING_R = 1, BI_STAGING_W = 2, BI_STAGING_RW = 3 };
enum { BI_STAGING_SR_COUNT = -1, BI_STAGING_FORMAT = -2 };
enum { BI_SLOT_IDLE = 0, BI_SLOT_READ = 1, BI_SLOT_W = 2, BI_SLOT_WL = 3, BI_SLOT_WH = 4 };
enum { BI_CONSTMOD_NONE = 0, BI_CONSTMOD_PC_LO = 1, BI_CONSTMOD_PC_HI = 2, BI_CONSTMOD_PC_LO_HI = 3,
       BI_CONSTMOD_RESERVED = 255 };

struct bi_mod_desc {
    const char *name;
    const char *const *vals;    /* value names, index = stored value */
    uint8_t nvals;
    int8_t dflt;                /* default value index (not printed) or -1 */
    int8_t src;                 /* source qualified by this modifier, or -1 */
    uint8_t qualify;            /* value names are ambiguous: print as name=value */
    const uint8_t *mv;          /* stored value -> BI_MV_* (the value's name as a number) */
};
struct bi_imm_desc { const char *name; uint8_t start, size; };
struct bi_op_desc {
    const char *name;           /* e.g. "FADD.f32" */
    uint8_t unit, nsrcs, nmods, nimms, flags, msg, dests;
    int8_t staging_dir, staging_count;
    uint8_t src_start[BI_MAX_SRCS], src_allowed[BI_MAX_SRCS];
    const struct bi_mod_desc *mods;
    const struct bi_imm_desc *imms;
};
struct bi_direct_field { uint8_t mod, start, size; const int8_t *map; /* field value -> mod value, -1 reserved */ };
struct bi_variant_desc {
    uint16_t op;
    uint32_t mask, value;
    uint8_t ndirect, nkey, ord, ndmods, keybits;
    struct bi_direct_field direct[BI_MAX_MODS];
    uint8_t key_start[4], key_size[4];
    uint8_t dmods[BI_MAX_DMODS];
    const int16_t *cases;       /* (1 << keybits) entries: index into case_vals / ndmods, -1 reserved */
    const uint8_t *case_vals;
};
struct bi_header_field { const char *name; uint8_t start, size, nvals; const char *const *vals; };
struct bi_regmode_desc { uint8_t valid, slot2, slot3, slot3_add; };
struct bi_piece { char dest; uint8_t index, lo, width, qwbit; };
struct bi_format_desc {
    const char *name; uint8_t tag_mask, tag_value, has_z, final_tuples, npieces;
    struct bi_piece pieces[6];
};
''')
    h.append('extern const struct bi_op_desc bi_ops[BI_NUM_OPS];')
    # executor semantics (exec.isa) and modifiers as numbers
    modnames = modifier_names(ops)
    mvals = sorted(set(v for op in ops for m in op.mods.values() for v in m.vals))
    h.append('\n/* Semantic classes (exec.isa) */\nenum bi_sem {')
    h += [f'    BI_SEM_{c},' for c in ex.classes]
    h.append('    BI_NUM_SEMS\n};')
    h.append('''enum { BI_SEMF_ONE = 1, BI_SEMF_RETURN = 2 };
enum { BI_LOGIC_NONE, BI_LOGIC_AND, BI_LOGIC_OR, BI_LOGIC_XOR };
/* What the executor needs of each op, found without looking at its name */
struct bi_op_exec {
    uint8_t sem;                /* enum bi_sem */
    uint8_t flags;              /* BI_SEMF_* */
    char tkind;                 /* type suffix .[vN]KBITS: kind 'i', 's', 'u', 'f' (0: none) */
    uint8_t tbits, tlanes;      /* its bits per lane, lanes (1 scalar) */
    uint8_t logic;              /* BI_LOGIC_*: _AND / _OR / _XOR in the name */
    uint8_t conv_signed;        /* conversion A_TO_B with a signed side */
    const char *why;            /* no class: why (NULL: not known) */
};
extern const struct bi_op_exec bi_op_exec[BI_NUM_OPS];''')
    h.append('\n/* Modifier names */\nenum bi_mod_name {')
    h += [f'    BI_MOD_{cident(n)},' for n in modnames]
    h.append('    BI_NUM_MOD_NAMES\n};')
    h.append('/* bi_ops[op].mods index of each modifier name, -1: the op has none */')
    h.append('extern const int8_t bi_op_mod_slot[BI_NUM_OPS][BI_NUM_MOD_NAMES];')
    h.append('\n/* Modifier value names, as numbers (bi_mod_desc.mv) */\nenum bi_mv {')
    h += [f'    BI_MV_{cident(v)},' for v in mvals]
    h.append('    BI_NUM_MV\n};')
    h.append('extern const char *const bi_mv_names[BI_NUM_MV];')
    h.append('/* Lane selections spelled hDD.. / bDDDD: kind \'h\' or \'b\' (0: another name), digits */')
    h.append('struct bi_mv_lanes { char kind; uint8_t n; uint8_t d[4]; };')
    h.append('extern const struct bi_mv_lanes bi_mv_lanes[BI_NUM_MV];')
    for u in ('FMA', 'ADD'):
        h.append(f'extern const struct bi_variant_desc bi_variants_{u.lower()}[];')
        h.append(f'extern const unsigned bi_num_variants_{u.lower()};')
    h.append(f'#define BI_NUM_HEADER_FIELDS {len(cl.header)}')
    h.append('extern const struct bi_header_field bi_header_fields[BI_NUM_HEADER_FIELDS];')
    h.append('extern const struct bi_regmode_desc bi_regmodes[32];')
    h.append(f'#define BI_NUM_FORMATS {len(cl.formats)}')
    h.append('extern const struct bi_format_desc bi_formats[BI_NUM_FORMATS];')
    h.append('extern const int8_t bi_sequences[9][8];      /* tuple count -> format indices, -1 ends */')
    h.append('extern const int8_t bi_const_index[16];      /* fau_idx >> 4 -> constant, -1 */')
    h.append('extern const char *const bi_fau_special[32]; /* NULL = reserved */')
    h.append('extern const int8_t bi_constpos_first[16], bi_constpos_tuples[16];')
    h.append('extern const uint8_t bi_m1_table[16][2], bi_m2_table[16][2];')
    h.append('extern const char *const bi_msg_names[32];')
    for name, (s, z) in cl.regs.items():
        h.append(f'#define BI_REGS_{name.upper()}_START {s}\n#define BI_REGS_{name.upper()}_SIZE {z}')
    for name, (s, z) in cl.tuple.items():
        h.append(f'#define BI_TUPLE_{name.upper()}_START {s}\n#define BI_TUPLE_{name.upper()}_SIZE {z}')
    for name, s, z, _ in cl.header:
        h.append(f'#define BI_HDR_{name.upper()}_START {s}\n#define BI_HDR_{name.upper()}_SIZE {z}')
    h.append('#endif')

    c.append('/* Generated by isa/bifrost/bifrost_gen.py from isa/bifrost/ops.isa, clause.isa and exec.isa; do not edit. */')
    c.append(f'#include <stddef.h>\n#include "{base}.h"\n')
    # modifiers
    for op in ops:
        mods = list(op.mods.values())
        for m in mods:
            c.append(f'static const char *const v_{op.cname}_{m.name}[] = {{ ' + ', '.join(cstr(v) for v in m.vals) + ' };')
            c.append(f'static const uint8_t mv_{op.cname}_{m.name}[] = {{ ' +
                     ', '.join(f'BI_MV_{cident(v)}' for v in m.vals) + ' };')
        if mods:
            c.append(f'static const struct bi_mod_desc m_{op.cname}[] = {{')
            for m in mods:
                others = [x for x in mods if x is not m and x.src == m.src]
                amb = any(v in x.vals and v != m.default for x in others for v in m.vals)
                dflt = m.vals.index(m.default) if m.default is not None else -1
                c.append(f'    {{ {cstr(m.name)}, v_{op.cname}_{m.name}, {len(m.vals)}, {dflt}, {m.src}, {int(amb)}, '
                         f'mv_{op.cname}_{m.name} }},')
            c.append('};')
        if op.imms:
            c.append(f'static const struct bi_imm_desc i_{op.cname}[] = {{ ' +
                     ', '.join(f'{{ {cstr(n)}, {s}, {z} }}' for n, s, z in op.imms) + ' };')
    c.append('const struct bi_op_desc bi_ops[BI_NUM_OPS] = {')
    c.append('    [BI_OP_INVALID] = { .name = "INVALID" },')
    for op in ops:
        fl = ' | '.join('BI_OPF_' + f.upper() for f in sorted(op.flags)) or '0'
        sd, sc = 'BI_STAGING_NONE', 0
        if op.staging:
            sd = 'BI_STAGING_' + op.staging[0].upper()
            sc = op.staging[1] if isinstance(op.staging[1], int) else \
                ('BI_STAGING_SR_COUNT' if op.staging[1] == 'sr_count' else 'BI_STAGING_FORMAT')
        ss = ', '.join(str(s) for s, _ in op.srcs) or '0'
        sa = ', '.join(hex(a) for _, a in op.srcs) or '0'
        c.append(f'    [BI_OP_{op.cname}] = {{ {cstr(op.name)}, BI_UNIT_{op.unit}, {len(op.srcs)}, {len(op.mods)}, '
                 f'{len(op.imms)}, {fl}, {MSGS.index(op.msg)}, {op.dests}, {sd}, {sc}, {{ {ss} }}, {{ {sa} }}, '
                 f'{"m_" + op.cname if op.mods else "NULL"}, {"i_" + op.cname if op.imms else "NULL"} }},')
    c.append('};')
    # executor semantics, modifier slots and value names
    c.append('const struct bi_op_exec bi_op_exec[BI_NUM_OPS] = {')
    for op in ops:
        cls, flags = ex.sem.get(op.name, ('NONE', set()))
        kind, bits, lanes, logic, conv = name_facts(op.name)
        fl = ' | '.join('BI_SEMF_' + f.upper() for f in sorted(flags)) or '0'
        why = cstr(ex.why[op.name]) if op.name in ex.why else 'NULL'
        c.append(f"    [BI_OP_{op.cname}] = {{ BI_SEM_{cls}, {fl}, {repr(kind) if kind else 0}, {bits}, {lanes}, "
                 f"BI_LOGIC_{logic}, {int(conv)}, {why} }},")
    c.append('};')
    c.append('const int8_t bi_op_mod_slot[BI_NUM_OPS][BI_NUM_MOD_NAMES] = {')
    c.append('    [BI_OP_INVALID] = { ' + ', '.join(['-1'] * len(modnames)) + ' },')
    for op in ops:
        mods = [m.name for m in op.mods.values()]
        c.append(f'    [BI_OP_{op.cname}] = {{ ' +
                 ', '.join(str(mods.index(n)) if n in mods else '-1' for n in modnames) + ' },')
    c.append('};')
    c.append('const char *const bi_mv_names[BI_NUM_MV] = { ' + ', '.join(cstr(v) for v in mvals) + ' };')
    c.append('const struct bi_mv_lanes bi_mv_lanes[BI_NUM_MV] = {')
    for v in mvals:
        if re.match(r'^[hb]\d{1,4}$', v):
            d = [int(x) for x in v[1:]]
            c.append(f"    [BI_MV_{cident(v)}] = {{ '{v[0]}', {len(d)}, {{ {', '.join(map(str, d))} }} }},")
    c.append('};')
    # variants
    for u in ('FMA', 'ADD'):
        vs = variant_order(ops, u)
        body = []
        for n, v in enumerate(vs):
            op = v.op
            mods = list(op.mods.values())
            tag = f'{u.lower()}{n}'
            dfs = []
            for (m, s, z, names) in v.direct:
                c.append(f'static const int8_t d_{tag}_{m.name}[] = {{ ' +
                         ', '.join(str(-1 if x == '-' else m.vals.index(x)) for x in names) + ' };')
                dfs.append(f'{{ {mods.index(m)}, {s}, {z}, d_{tag}_{m.name} }}')
            keybits = sum(z for _, z in v.key) + (1 if v.ord else 0)
            cases = 'NULL'
            cvals = 'NULL'
            if v.has_key:
                idx = [-1] * (1 << keybits)
                flat = []
                for k, vals in sorted(v.cases.items()):
                    idx[k] = len(flat) // max(1, len(v.dmods))
                    flat += [m.vals.index(x) for m, x in zip(v.dmods, vals)]
                    if not v.dmods:
                        flat.append(0)
                c.append(f'static const int16_t k_{tag}[] = {{ ' + ', '.join(map(str, idx)) + ' };')
                c.append(f'static const uint8_t c_{tag}[] = {{ ' + (', '.join(map(str, flat)) or '0') + ' };')
                cases, cvals = f'k_{tag}', f'c_{tag}'
            ks = ', '.join(str(s) for s, _ in v.key) or '0'
            kz = ', '.join(str(z) for _, z in v.key) or '0'
            dm = ', '.join(str(mods.index(m)) for m in v.dmods) or '0'
            body.append(f'    {{ BI_OP_{op.cname}, {v.mask:#x}, {v.value:#x}, {len(v.direct)}, {len(v.key)}, {int(v.ord)}, '
                        f'{len(v.dmods)}, {keybits}, {{ {", ".join(dfs) or "{0}"} }}, {{ {ks} }}, {{ {kz} }}, {{ {dm} }}, '
                        f'{cases}, {cvals} }},  /* {op.full} {v.where} */')
        c.append(f'const struct bi_variant_desc bi_variants_{u.lower()}[] = {{')
        c += body
        c.append('};')
        c.append(f'const unsigned bi_num_variants_{u.lower()} = {len(vs)};')
    # clause-level tables
    c.append('const struct bi_header_field bi_header_fields[BI_NUM_HEADER_FIELDS] = {')
    for name, s, z, vals in cl.header:
        if vals:
            c.append(f'    {{ {cstr(name)}, {s}, {z}, {len(vals)}, (const char *const[]){{ ' + ', '.join(cstr(x) for x in vals) + ' } },')
        else:
            c.append(f'    {{ {cstr(name)}, {s}, {z}, 0, NULL }},')
    c.append('};')
    c.append('const struct bi_regmode_desc bi_regmodes[32] = {')
    for m, (s2, s3, u) in sorted(cl.regmode.items()):
        c.append(f'    [{m}] = {{ 1, {SLOTOPS[s2]}, {SLOTOPS[s3]}, {int(u == "add")} }},')
    c.append('};')
    c.append('const struct bi_format_desc bi_formats[BI_NUM_FORMATS] = {')
    for name, tag, final, pieces in cl.formats:
        mask, value = tag_mask_value(tag)
        ps = ', '.join(f"{{ '{d}', {i}, {lo}, {w}, {q} }}" for d, i, lo, w, q in pieces)
        c.append(f'    {{ {cstr(name)}, {mask:#x}, {value:#x}, {int("z" in tag)}, {final}, {len(pieces)}, {{ {ps} }} }},')
    c.append('};')
    names = [f[0] for f in cl.formats]
    rows = []
    for n in range(9):
        seq = [names.index(x) for x in cl.sequence.get(n, [])]
        rows.append('{ ' + ', '.join(map(str, seq + [-1] * (8 - len(seq)))) + ' }')
    c.append('const int8_t bi_sequences[9][8] = { ' + ', '.join(rows) + ' };')
    ci = [-1] * 16
    for k, v in cl.constidx.items():
        ci[k] = v
    c.append('const int8_t bi_const_index[16] = { ' + ', '.join(map(str, ci)) + ' };')
    c.append('const char *const bi_fau_special[32] = { ' +
             ', '.join(f'[{k}] = {cstr(v)}' for k, v in sorted(cl.fauspecial.items())) + ' };')
    cf, ct = [-1] * 16, [-1] * 16
    for p, (f_, t_) in cl.constpos.items():
        cf[p], ct[p] = f_, t_
    c.append('const int8_t bi_constpos_first[16] = { ' + ', '.join(map(str, cf)) + ' };')
    c.append('const int8_t bi_constpos_tuples[16] = { ' + ', '.join(map(str, ct)) + ' };')
    for nm, tab in (('m1', cl.m1), ('m2', cl.m2)):
        rows = []
        for i in range(16):
            if i in tab:
                rows.append('{ ' + ', '.join(str(CONSTMODS[x]) for x in tab[i]) + ' }')
            elif nm == 'm1' and i >= 8:
                rows.append('{ 0, 0 }')
            else:
                rows.append('{ 255, 255 }')
        c.append(f'const uint8_t bi_{nm}_table[16][2] = {{ ' + ', '.join(rows) + ' };')
    msgf = next(vals for name, s, z, vals in cl.header if name == 'msg')
    c.append('const char *const bi_msg_names[32] = { ' + ', '.join(cstr(x) for x in msgf) + ' };')
    with open(prefix + '.h', 'w') as f:
        f.write('\n'.join(h) + '\n')
    with open(prefix + '.c', 'w') as f:
        f.write('\n'.join(c) + '\n')


def main():
    if len(sys.argv) != 5:
        sys.exit('usage: bifrost_gen.py OUT_PREFIX ops.isa clause.isa exec.isa')
    ops = parse_ops(sys.argv[2])
    cl = parse_clause(sys.argv[3])
    generate(sys.argv[1], ops, cl, parse_exec(sys.argv[4], ops))


if __name__ == '__main__':
    main()
