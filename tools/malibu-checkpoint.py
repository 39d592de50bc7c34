#!/usr/bin/env python3
"""List and compare malibu checkpoint files (docs/checkpoint.md).

  malibu-checkpoint info FILE [--fields]   sections, versions, sizes (and every field)
  malibu-checkpoint diff A B               the sections and fields that differ

Both check the framing and every section's CRC, as malibu's loader does, and exit with status 1
naming the first problem of a damaged file.  diff exits 0 when the files hold the same state."""
import argparse
import struct
import sys
import zlib

MAGIC = b"MALIBUCK"
FORMAT_VERSION = 1


class Damaged(Exception):
    pass


def parse(path):
    """[(name, instance, version, [(field, kind, data)])] with the end marker checked."""
    with open(path, "rb") as f:
        b = f.read()
    if len(b) < 16 or b[:8] != MAGIC:
        raise Damaged("not a malibu checkpoint (no MALIBUCK magic)")
    fmt, reserved = struct.unpack_from("<II", b, 8)
    if fmt != FORMAT_VERSION:
        raise Damaged(f"checkpoint format version {fmt}; this tool reads version {FORMAT_VERSION}")
    if reserved:
        raise Damaged("damaged: the file header's reserved word is not 0")
    at, sections = 16, []
    while True:
        if at + 8 > len(b) or b[at:at + 4] != b"SECT":
            raise Damaged(f"truncated or damaged at byte {at}: no section, no end marker")
        (nl,) = struct.unpack_from("<I", b, at + 4)
        if not 1 <= nl <= 64 or at + 8 + nl + 16 > len(b):
            raise Damaged(f"damaged section header at byte {at}")
        name = b[at + 8:at + 8 + nl].decode("ascii", "replace")
        inst, ver, plen = struct.unpack_from("<IIQ", b, at + 8 + nl)
        data = at + 8 + nl + 16
        if data + plen + 4 > len(b):
            raise Damaged(f"truncated: section '{name}' {inst} needs {plen + 4} bytes")
        payload = b[data:data + plen]
        crc = zlib.crc32(b[at + 4:data], zlib.crc32(payload))
        (stored,) = struct.unpack_from("<I", b, data + plen)
        if crc != stored:
            raise Damaged(f"damaged: section '{name}' {inst} fails its CRC")
        fields, p = [], 0
        while p < plen:
            (fl,) = struct.unpack_from("<H", payload, p)
            fname = payload[p + 2:p + 2 + fl].decode("ascii", "replace")
            kind = chr(payload[p + 2 + fl])
            (dl,) = struct.unpack_from("<Q", payload, p + 3 + fl)
            fields.append((fname, kind, payload[p + 11 + fl:p + 11 + fl + dl]))
            p += 11 + fl + dl
        at = data + plen + 4
        if name == "end":
            count = next((struct.unpack("<Q", d)[0] for f, k, d in fields if f == "sections"), None)
            if count != len(sections) or at != len(b):
                raise Damaged("damaged end marker")
            return sections
        sections.append((name, inst, ver, fields))


def show_value(kind, data):
    if kind == "I":
        vals = struct.unpack(f"<{len(data) // 8}Q", data)
        if len(vals) <= 4:
            return " ".join(f"0x{v:x}" if v > 9 else str(v) for v in vals)
        return f"[{len(vals)} integers]"
    if len(data) <= 48 and all(32 <= c < 127 for c in data):
        return repr(data.decode())
    return f"[{len(data)} bytes]"


def info(path, with_fields):
    secs = parse(path)
    total = 0
    print(f"{path}: format {FORMAT_VERSION}, {len(secs)} sections")
    for name, inst, ver, fields in secs:
        size = sum(11 + len(f) + len(d) for f, k, d in fields)
        total += size
        print(f"  {name:<16} {inst:>3}  v{ver}  {len(fields):>6} fields  {size:>12} bytes")
        if with_fields:
            for f, k, d in fields:
                print(f"      {f:<24} {show_value(k, d)}")
    print(f"  payload total {total} bytes")


def diff(a, b):
    sa = {(n, i): (v, f) for n, i, v, f in parse(a)}
    sb = {(n, i): (v, f) for n, i, v, f in parse(b)}
    differences = 0
    for key in sorted(set(sa) | set(sb)):
        name = f"'{key[0]}' {key[1]}"
        if key not in sb or key not in sa:
            print(f"section {name}: only in {a if key in sa else b}")
            differences += 1
            continue
        (va, fa), (vb, fb) = sa[key], sb[key]
        if va != vb:
            print(f"section {name}: version {va} vs {vb}")
            differences += 1
        if fa == fb:
            continue
        da, db = {}, {}
        for f, k, d in fa:
            da.setdefault(f, []).append((k, d))
        for f, k, d in fb:
            db.setdefault(f, []).append((k, d))
        for f in sorted(set(da) | set(db)):
            if da.get(f) != db.get(f):
                if len(da.get(f, [])) == 1 and len(db.get(f, [])) == 1:
                    print(f"section {name}: field '{f}': {show_value(*da[f][0])} vs {show_value(*db[f][0])}")
                else:
                    print(f"section {name}: field '{f}' differs ({len(da.get(f, []))} vs {len(db.get(f, []))} entries)")
                differences += 1
    if not differences:
        print("the checkpoints hold the same state")
    return 1 if differences else 0


def main():
    ap = argparse.ArgumentParser(prog="malibu-checkpoint", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("info", help="sections, versions, sizes")
    p.add_argument("file")
    p.add_argument("--fields", action="store_true", help="every field, with scalar values")
    p = sub.add_parser("diff", help="what differs between two checkpoints")
    p.add_argument("a")
    p.add_argument("b")
    args = ap.parse_args()
    try:
        if args.cmd == "info":
            info(args.file, args.fields)
            return 0
        return diff(args.a, args.b)
    except (Damaged, struct.error) as e:
        print(f"malibu-checkpoint: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"malibu-checkpoint: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
