#!/usr/bin/env python3
"""malibu-decode's text against Mesa's pandecode on the same submission (a manual check: it needs
a guest with a GLES program, see docs/gpu.md).

    compare_pandecode.py MALIBU_DECODE_OUTPUT PANDECODE_OUTPUT

For every field name both print (pandecode's "Key: value" lowercased with '_', malibu's
"name = value"), the sets of values must agree: each value one prints under a name the other
prints too.  Prints the names whose values differ and a count.  Known differences (not values):
names used by several descriptors on one side only (base, pointer, type, uniform_count), the
job header's exception status and fault pointer (pandecode reads them after the job ran),
wls_instances (malibu prints the stored log2), the render target swizzle (pandecode adds
channel names)."""
import collections
import re
import sys



def norm_val(v):
    v = v.strip()
    m = re.match(r"^(-?\d+) \((\d+)\)$", v)          # padded: "2 (4)"
    if m:
        return int(m.group(2))
    m = re.match(r"^(-?[\d.e+-]+|-?inf|nan) \(0x[0-9a-f]+\)$", v)   # float "1 (0x3f800000)"
    if m:
        v = m.group(1)
    if v in ("true", "false"):
        return v == "true"
    for conv in (lambda x: int(x, 0), float):
        try:
            return conv(v)
        except ValueError:
            pass
    return re.sub(r"[^a-z0-9]+", "_", v.lower()).strip("_")



def key(k):
    return re.sub(r"[^a-z0-9]+", "_", k.strip().lower()).strip("_")



def ours(text):
    c = collections.defaultdict(collections.Counter)
    for line in text.splitlines():
        line = line[5:] if line.startswith("gpu: ") else line
        m = re.match(r" *(\w+) = (.*)$", line)
        if m:
            c[m.group(1)][norm_val(m.group(2))] += 1
    return c



def theirs(text):
    c = collections.defaultdict(collections.Counter)
    for line in text.splitlines():
        m = re.match(r"( *)([A-Za-z][^:]*):(.*)$", line)
        if m and m.group(3).strip():
            c[key(m.group(2))][norm_val(m.group(3))] += 1
    return c



a, b = ours(open(sys.argv[1]).read()), theirs(open(sys.argv[2]).read())
common = sorted(set(a) & set(b))
same = diff = 0
for k in common:
    if set(a[k]) == set(b[k]):
        same += 1
    else:
        diff += 1
        print("DIFF %s: malibu %s / pandecode %s" % (k, dict(a[k]), dict(b[k])))
print("%d field names on both sides: %d agree, %d differ" % (len(common), same, diff))
