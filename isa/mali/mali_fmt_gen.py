#!/usr/bin/env python3
"""Mali descriptor layouts -> C.

    mali_fmt_gen.py OUT_DIR FILE.fmt...   -> OUT_DIR/mali_formats.h, OUT_DIR/mali_formats_print.c

The .fmt files (isa/mali/bifrost.fmt) describe their own format.  mali_formats.h holds, per
descriptor, a struct with one member per field, static inline unpack (from little-endian bytes),
pack and reserved-bit check (unpack and pack take the arch when a field moves between v6 and v7),
per enum its constants and a name function, and per aggregate its length and section offsets;
the print functions (name = value lines) are in mali_formats_print.c, linked only by the tools
that print.  The generator refuses overlapping fields (except the arms of a union), sections that
overlap or do not fit, and names used twice.
"""
import os
import re
import sys

TYPES = ("uint", "int", "bool", "hex", "addr", "float", "pixfmt", "padded")


class Field:
    def __init__(self, name, word, bit, width, typ, mods, where):
        self.name, self.word, self.bit, self.width, self.type = name, word, bit, width, typ
        self.enum = typ[5:] if typ.startswith("enum:") else None
        self.minus1 = "minus1" in mods
        self.log2 = "log2" in mods
        self.v7 = "v7" in mods
        self.v6 = "v6" in mods
        self.view = "view" in mods
        self.raw = "raw" in mods
        self.union = "union" in mods
        self.shr = 0
        self.when = None          # (selector field, values): one arm of a union
        for m in mods:
            if m.startswith("shr="):
                self.shr = int(m[4:])
            elif m.startswith("when="):
                sel, _, vals = m[5:].partition(":")
                if not sel or not vals:
                    sys.exit("%s: expected when=FIELD:VALUE[/VALUE...]" % where)
                self.when = (sel, [int(v, 0) for v in vals.split("/")])
                self.union = True
            elif m not in ("minus1", "log2", "v7", "v6", "view", "raw", "union"):
                sys.exit("%s: unknown modifier %s" % (where, m))
        if self.v6 and self.v7:
            sys.exit("%s: a field is v6-only or v7-only, not both" % where)
        if self.log2 and (self.minus1 or self.shr):
            sys.exit("%s: log2 does not combine with minus1 or shr" % where)
        if typ not in TYPES and not self.enum:
            sys.exit("%s: unknown type %s" % (where, typ))
        if bit > 31 or width < 1 or bit + width > 64:
            sys.exit("%s: field %s does not fit in two words" % (where, name))
        if typ == "float" and (bit or width != 32):
            sys.exit("%s: float fields are whole words" % where)

    @property
    def packed(self):
        return not (self.view or self.raw)

    def on(self, arch):
        """Whether the field exists on arch 6 or 7."""
        return not ((self.v7 and arch < 7) or (self.v6 and arch >= 7))

    def ctype(self):
        if self.type == "bool":
            return "bool"
        if self.type == "float":
            return "float"
        if self.type == "addr":
            return "uint64_t"
        bits = self.width + self.shr + (1 if self.minus1 else 0)
        if self.log2:
            bits = 1 << self.width if self.width < 6 else 64
        if self.type == "int":
            return "int32_t" if self.width <= 32 else "int64_t"
        return "uint32_t" if bits <= 32 else "uint64_t"


class Struct:
    def __init__(self, name, size, align):
        self.name, self.size, self.align, self.fields = name, size, align, []

    @property
    def per_arch(self):
        """A field declared twice (v6 and v7 layouts): unpack and pack take the arch."""
        names = [fl.name for fl in self.fields]
        return len(set(names)) != len(names)

    def members(self):
        """One C member per field name (the widest type of its per-arch declarations)."""
        out = {}
        for fl in self.fields:
            t = fl.ctype()
            if fl.name in out and out[fl.name] != t:
                order = ("bool", "uint32_t", "int32_t", "uint64_t", "int64_t", "float")
                t = max(out[fl.name], t, key=order.index)
            out[fl.name] = t
        return out


class Aggregate:
    def __init__(self, name, size, align):
        self.name, self.size, self.align, self.sections = name, size, align, []


def parse(paths):
    enums, structs, aggs, cur = {}, [], [], None
    for path in paths:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                where = "%s:%d" % (path, n)
                line = line.split("#", 1)[0].rstrip()
                if not line.strip():
                    continue
                tok = line.split()
                if not line[0].isspace():
                    if tok[0] == "enum" and len(tok) == 2:
                        cur = enums.setdefault(tok[1], [])
                    elif tok[0] == "struct" and len(tok) == 4:
                        cur = Struct(tok[1], int(tok[2], 0), int(tok[3], 0))
                        if cur.size % 4:
                            sys.exit("%s: size is not a whole number of words" % where)
                        structs.append(cur)
                    elif tok[0] == "aggregate" and len(tok) == 4:
                        cur = Aggregate(tok[1], int(tok[2], 0), int(tok[3], 0))
                        aggs.append(cur)
                    else:
                        sys.exit("%s: expected 'enum NAME', 'struct NAME SIZE ALIGN' or 'aggregate NAME SIZE ALIGN'"
                                 % where)
                elif isinstance(cur, list):
                    if len(tok) != 2:
                        sys.exit("%s: expected 'VALUE LABEL'" % where)
                    cur.append((int(tok[0], 0), tok[1]))
                elif isinstance(cur, Struct):
                    m = re.fullmatch(r"(\d+):(\d+)", tok[1]) if len(tok) >= 4 else None
                    if not m:
                        sys.exit("%s: expected 'FIELD WORD:BIT WIDTH TYPE [MODIFIER...]'" % where)
                    fl = Field(tok[0], int(m.group(1)), int(m.group(2)), int(tok[2]), tok[3], tok[4:], where)
                    if (fl.word * 32 + fl.bit + fl.width) > cur.size * 8:
                        sys.exit("%s: field %s runs past the end of %s" % (where, fl.name, cur.name))
                    fl.where = where
                    for o in cur.fields:
                        if o.name == fl.name and not ((o.v6 and fl.v7) or (o.v7 and fl.v6)):
                            sys.exit("%s: field %s twice (only a v6 and a v7 layout may share a name)"
                                     % (where, fl.name))
                    cur.fields.append(fl)
                elif isinstance(cur, Aggregate):
                    if len(tok) != 4 or tok[0] != "section":
                        sys.exit("%s: expected 'section NAME STRUCT OFFSET'" % where)
                    cur.sections.append((tok[1], tok[2], int(tok[3], 0), where))
                else:
                    sys.exit("%s: field outside a struct or enum" % where)
    byname = {}
    for s in structs:
        for fl in s.fields:
            if fl.enum and fl.enum not in enums:
                sys.exit("%s: unknown enum %s" % (fl.where, fl.enum))
        if s.name in byname:
            sys.exit("struct %s twice" % s.name)
        byname[s.name] = s
        names = {fl.name: fl for fl in s.fields}
        for fl in s.fields:
            if fl.when and (fl.when[0] not in names or fl.when[0] == fl.name):
                sys.exit("%s.%s: when= names no other field of the struct" % (s.name, fl.name))
        # packed fields must not overlap (for a given architecture), except the arms of one union:
        # fields of a union (modifier union, or when= on the same selector with other values)
        for arch in (6, 7):
            used = {}
            for fl in s.fields:
                if not fl.packed or not fl.on(arch):
                    continue
                for b in range(fl.word * 32 + fl.bit, fl.word * 32 + fl.bit + fl.width):
                    for o in used.get(b, []):
                        if not union_arms(o, fl):
                            sys.exit("%s: fields %s and %s overlap at bit %d" % (s.name, o.name, fl.name, b))
                    used.setdefault(b, []).append(fl)
    for a in aggs:
        if a.name in byname:
            sys.exit("aggregate %s has the name of a struct" % a.name)
        spans = []
        for name, st, off, where in a.sections:
            if st not in byname:
                sys.exit("%s: unknown struct %s" % (where, st))
            t = byname[st]
            if off % t.align or off + t.size > a.size:
                sys.exit("%s: section %s (%s at %d) misaligned or past the end of %s" % (where, name, st, off, a.name))
            for n2, lo, hi in spans:
                if off < hi and lo < off + t.size:
                    sys.exit("%s: sections %s and %s overlap" % (where, n2, name))
            spans.append((name, off, off + t.size))
    return enums, structs, aggs


def union_arms(a, b):
    """Two packed fields that may share bits: both union members, and when both name a selector,
    the same selector with no value in common."""
    if not (a.union and b.union):
        return False
    if a.when and b.when:
        return a.when[0] == b.when[0] and not set(a.when[1]) & set(b.when[1])
    return True


def mask(n):
    return (1 << n) - 1


def used_masks(s, arch):
    words = [0] * (s.size // 4)
    for fl in s.fields:
        if not fl.packed or not fl.on(arch):
            continue
        m = mask(fl.width) << fl.bit
        words[fl.word] |= m & 0xffffffff
        if m >> 32:
            words[fl.word + 1] |= m >> 32
    return words


def extract(fl):
    """C expression of the raw field bits of buffer p."""
    if fl.bit + fl.width <= 32:
        e = "mali_w32(p, %d)" % fl.word
        if fl.bit:
            e = "(%s >> %d)" % (e, fl.bit)
        return e if fl.width == 32 else "(%s & 0x%xu)" % (e, mask(fl.width))
    e = "mali_w64(p, %d)" % fl.word
    if fl.bit:
        e = "(%s >> %d)" % (e, fl.bit)
    return e if fl.width == 64 else "(%s & 0x%xull)" % (e, mask(fl.width))


def unpack_expr(fl):
    raw = extract(fl)
    t = fl.ctype()
    if fl.type == "bool":
        return "%s != 0" % raw
    if fl.type == "float":
        return "mali_f32(%s)" % raw
    if fl.type == "int":
        sign = 1 << (fl.width - 1)
        if fl.width in (32, 64):
            return "(%s)%s" % (t, raw)
        return "(%s)((int64_t)%s - (int64_t)((%s & 0x%xull) << 1))" % (t, raw, raw, sign)
    e = "(%s)%s" % (t, raw)
    if fl.log2:
        return "(%s)((%s)1 << %s)" % (t, t, raw)
    if fl.shr:
        e = "(%s << %d)" % (e, fl.shr)
    if fl.minus1:
        e = "(%s + 1)" % e
    return e


def pack_stmt(fl):
    v = "s->%s" % fl.name
    if fl.type == "float":
        v = "(uint64_t)mali_u32(%s)" % v
    elif fl.type == "int":
        v = "(uint64_t)(int64_t)%s" % v
    else:
        v = "(uint64_t)%s" % v
        if fl.log2:
            v = "(uint64_t)(%s ? __builtin_ctzll(%s) : 0)" % (v, v)
        if fl.minus1:
            v = "(%s - 1)" % v
        if fl.shr:
            v = "(%s >> %d)" % (v, fl.shr)
    v = "(%s & 0x%xull) << %d" % (v, mask(fl.width), fl.bit)
    if fl.bit + fl.width <= 32:
        return "    w[%d] |= (uint32_t)(%s);" % (fl.word, v)
    return ("    { uint64_t t = %s; w[%d] |= (uint32_t)t; w[%d] |= (uint32_t)(t >> 32); }"
            % (v, fl.word, fl.word + 1))


def c_label(label):
    return re.sub(r"[^A-Za-z0-9]", "_", label).upper()


def gen_header(enums, structs, aggs):
    o = ["/* Generated by isa/mali/mali_fmt_gen.py from the isa/mali .fmt files: do not edit. */",
         "#ifndef MALIBU_MALI_FORMATS_H", "#define MALIBU_MALI_FORMATS_H", "",
         "#include <stdbool.h>", "#include <stdint.h>", "#include <stdio.h>", "#include <string.h>", "",
         "static inline uint32_t mali_w32(const uint8_t *p, unsigned word)",
         "{",
         "    p += 4 * word;",
         "    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;",
         "}",
         "static inline uint64_t mali_w64(const uint8_t *p, unsigned word)",
         "{",
         "    return mali_w32(p, word) | (uint64_t)mali_w32(p, word + 1) << 32;",
         "}",
         "static inline float mali_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }",
         "/* A 'padded' count (instance sizes, attribute divisors): (2 * v[7:5] + 1) << v[4:0]. */",
         "static inline uint64_t mali_padded_decode(uint32_t v) { return (uint64_t)(2 * (v >> 5 & 7) + 1) << (v & 31); }",
         "static inline uint32_t mali_u32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }",
         "static inline void mali_put_words(uint8_t *p, const uint32_t *w, unsigned n)",
         "{",
         "    for (unsigned i = 0; i < n; i++)",
         "        for (unsigned k = 0; k < 4; k++)",
         "            p[4 * i + k] = (uint8_t)(w[i] >> (8 * k));",
         "}", ""]
    for name, vals in enums.items():
        o.append("enum mali_%s {" % name)
        for v, label in vals:
            o.append("    MALI_%s_%s = %d," % (name.upper(), c_label(label), v))
        o.append("};")
        o.append("static inline const char *mali_%s_name(uint64_t v)" % name)
        o.append("{")
        o.append("    switch (v) {")
        for v, label in vals:
            o.append('    case %d: return "%s";' % (v, label))
        o.append("    default: return NULL;")
        o.append("    }")
        o.append("}")
        o.append("")
    for s in structs:
        N = s.name.upper()
        arch_arg = ", unsigned arch" if s.per_arch else ""
        o.append("#define MALI_%s_LENGTH %d" % (N, s.size))
        o.append("#define MALI_%s_ALIGN %d" % (N, s.align))
        o.append("struct mali_%s {" % s.name)
        for name, t in s.members().items():
            o.append("    %s %s;" % (t, name))
        if not s.fields:
            o.append("    char no_fields_;")
        o.append("};")
        o.append("")
        if s.per_arch:
            o.append("/* Its layout differs between v6 and v7: unpack and pack take the arch (6 or 7). */")
        o.append("static inline void mali_%s_unpack(const uint8_t *p, struct mali_%s *s%s)" % (s.name, s.name, arch_arg))
        o.append("{")
        o.append("    memset(s, 0, sizeof *s);")
        if not s.fields:
            o.append("    (void)p;")
        for fl in s.fields:
            st = "s->%s = %s;" % (fl.name, unpack_expr(fl))
            if s.per_arch and (fl.v6 or fl.v7):
                st = "if (arch %s 7)\n        %s" % (">=" if fl.v7 else "<", st)
            o.append("    " + st)
        o.append("}")
        o.append("")
        o.append("static inline void mali_%s_pack(uint8_t *p, const struct mali_%s *s%s)" % (s.name, s.name, arch_arg))
        o.append("{")
        o.append("    uint32_t w[%d] = { 0 };" % (s.size // 4))
        if not s.fields:
            o.append("    (void)s;")
        for fl in s.fields:
            if fl.packed and not fl.v7 and not fl.v6:
                o.append(pack_stmt(fl))
        if s.per_arch:
            for tag, cond in (("v6", "arch < 7"), ("v7", "arch >= 7")):
                arm = [fl for fl in s.fields if fl.packed and getattr(fl, tag)]
                if arm:
                    o.append("    if (%s) {" % cond)
                    o.extend("    " + pack_stmt(fl) for fl in arm)
                    o.append("    }")
        else:
            v7 = [fl for fl in s.fields if fl.packed and (fl.v7 or fl.v6)]
            if v7:
                o.append("    /* fields of one arch only: packed as given (zero them for the other arch) */")
                for fl in v7:
                    o.append(pack_stmt(fl))
        o.append("    mali_put_words(p, w, %d);" % (s.size // 4))
        o.append("}")
        o.append("")
        o.append("/* First word of p with reserved bits set (for arch 6 or 7), -1 if none; *bits = those bits. */")
        o.append("static inline int mali_%s_reserved(const uint8_t *p, unsigned arch, uint32_t *bits)" % s.name)
        o.append("{")
        m6, m7 = used_masks(s, 6), used_masks(s, 7)
        o.append("    static const uint32_t used6[%d] = { %s };" % (len(m6), ", ".join("0x%08xu" % m for m in m6)))
        o.append("    static const uint32_t used7[%d] = { %s };" % (len(m7), ", ".join("0x%08xu" % m for m in m7)))
        o.append("    for (unsigned i = 0; i < %d; i++) {" % len(m6))
        o.append("        uint32_t r = mali_w32(p, i) & ~(arch >= 7 ? used7[i] : used6[i]);")
        o.append("        if (r) {")
        o.append("            *bits = r;")
        o.append("            return (int)i;")
        o.append("        }")
        o.append("    }")
        o.append("    return -1;")
        o.append("}")
        o.append("")
        o.append("/* One 'name = value' line per field, indented by indent spaces (mali_formats_print.c). */")
        o.append("void mali_%s_print(FILE *f, const struct mali_%s *s, unsigned indent, unsigned arch);"
                 % (s.name, s.name))
        o.append("")
    for a in aggs:
        N = a.name.upper()
        o.append("/* aggregate %s: sections at fixed offsets */" % a.name)
        o.append("#define MALI_%s_LENGTH %d" % (N, a.size))
        o.append("#define MALI_%s_ALIGN %d" % (N, a.align))
        for name, st, off, _ in a.sections:
            o.append("#define MALI_%s_SECTION_%s_OFFSET %d  /* struct mali_%s */" % (N, name.upper(), off, st))
            o.append("#define MALI_%s_SECTION_%s_TYPE %s" % (N, name.upper(), st))
        o.append("")
    o.append("#endif")
    return "\n".join(o) + "\n"


def print_stmt(fl):
    v = "s->%s" % fl.name
    lead = 'fprintf(f, "%*s' + fl.name + ' = '
    if fl.type == "bool":
        return lead + '%s\\n", (int)indent, "", ' + v + ' ? "true" : "false");'
    if fl.type == "float":
        return lead + '%g (0x%08x)\\n", (int)indent, "", (double)' + v + ", mali_u32(" + v + "));"
    if fl.type == "int":
        return lead + '%lld\\n", (int)indent, "", (long long)' + v + ");"
    if fl.type == "uint":
        return lead + '%llu\\n", (int)indent, "", (unsigned long long)' + v + ");"
    if fl.type == "padded":
        return (lead + '%u (%llu)\\n", (int)indent, "", (unsigned)' + v +
                ", (unsigned long long)mali_padded_decode(" + v + "));")
    if fl.type in ("hex", "addr"):
        return lead + '0x%llx\\n", (int)indent, "", (unsigned long long)' + v + ");"
    if fl.type == "pixfmt":
        return "mali_print_pixfmt(f, indent, \"%s\", %s, arch);" % (fl.name, v)
    return ("mali_print_enum(f, indent, \"%s\", mali_%s_name(%s), %s);" % (fl.name, fl.enum, v, v))


def gen_print(structs):
    o = ["/* Generated by isa/mali/mali_fmt_gen.py from the isa/mali .fmt files: do not edit. */",
         '#include "mali_formats.h"', "",
         "static void mali_print_enum(FILE *f, unsigned indent, const char *name, const char *label, uint64_t v)",
         "{",
         "    if (label)",
         '        fprintf(f, "%*s%s = %s\\n", (int)indent, "", name, label);',
         "    else",
         '        fprintf(f, "%*s%s = unknown (%llu)\\n", (int)indent, "", name, (unsigned long long)v);',
         "}", "",
         "static void mali_print_pixfmt(FILE *f, unsigned indent, const char *name, uint32_t v, unsigned arch)",
         "{",
         "    const char *fmt = mali_format_name((v >> 12) & 0xff);",
         '    fprintf(f, "%*s%s = 0x%06x (", (int)indent, "", name, v);',
         "    if (fmt)",
         '        fprintf(f, "%s", fmt);',
         "    else",
         '        fprintf(f, "format %u", (v >> 12) & 0xff);',
         '    fprintf(f, "%s%s, %s 0x%03x", v >> 20 & 1 ? " srgb" : "", v >> 21 & 1 ? " big-endian" : "",',
         '            arch >= 7 ? "component order" : "swizzle", v & 0xfff);',
         "    if (arch >= 7 && mali_rgb_component_order_name(v & 0xfff))",
         '        fprintf(f, " %s", mali_rgb_component_order_name(v & 0xfff));',
         "    else if (arch < 7) {    /* four 3-bit channel selectors, R first */",
         "        fputc(' ', f);",
         "        for (unsigned c = 0; c < 4; c++)",
         '            fputc("rgba01??"[v >> (3 * c) & 7], f);',
         "    }",
         '    fprintf(f, ")\\n");',
         "}", ""]
    for s in structs:
        used = [fl for fl in s.fields if not fl.raw]
        uses_arch = any(fl.v7 or fl.v6 or fl.type == "pixfmt" for fl in used)
        o.append("void mali_%s_print(FILE *f, const struct mali_%s *s, unsigned indent, unsigned arch)"
                 % (s.name, s.name))
        o.append("{")
        if not uses_arch:
            o.append("    (void)arch;")
        if not s.fields:
            o.append("    (void)f; (void)s; (void)indent;")
        for fl in used:
            conds = []
            if fl.v7:
                conds.append("arch >= 7")
            if fl.v6:
                conds.append("arch < 7")
            if fl.when:
                conds.append("(%s)" % " || ".join("s->%s == %d" % (fl.when[0], v) for v in fl.when[1]))
            st = print_stmt(fl)
            o.append(("    if (%s)\n        " % " && ".join(conds) if conds else "    ") + st)
        o.append("}")
        o.append("")
    return "\n".join(o)


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: mali_fmt_gen.py OUT_DIR FILE.fmt...")
    enums, structs, aggs = parse(sys.argv[2:])
    if "format" not in enums or "rgb_component_order" not in enums:
        sys.exit("the pixel formats (enum format, enum rgb_component_order) are not described")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, text in (("mali_formats.h", gen_header(enums, structs, aggs)),
                       ("mali_formats_print.c", gen_print(structs))):
        with open(os.path.join(out, name), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
