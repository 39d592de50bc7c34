"""Shared-library resolution in an unpacked arm64 root, as the guest's ld.so would do it.

guest-images/build.py checks the rootfs with check_root(): a program (an ELF with PT_INTERP)
whose DT_NEEDED closure does not resolve could not start, which is an error; a library outside
every program's closure (a plugin loaded with dlopen, or a library nothing uses) whose own
dependencies do not resolve gets a warning, since whatever dlopens it may have them loaded.

Search order, after glibc's _dl_map_object (elf/dl-load.c): a name with a slash is a path; a
name an already loaded object answers to (its SONAME or the name it was loaded by) is that
object; then DT_RPATH of the object and of each object that loaded it up to the program (only
while the object has no DT_RUNPATH); DT_RUNPATH of the object itself (not inherited); the
ld.so.cache, which is built from /etc/ld.so.conf (only when the root has one: ld.so itself
never reads ld.so.conf); the default directories.  $ORIGIN, $LIB and $PLATFORM are expanded
as Debian's arm64 ld.so does.  A file of another ELF class or machine is skipped, as ld.so does.
"""
import glob
import os
import struct

EM_AARCH64 = 183
PT_LOAD, PT_DYNAMIC, PT_INTERP = 1, 2, 3
DT_NEEDED, DT_STRTAB, DT_SONAME, DT_RPATH, DT_RUNPATH = 1, 5, 14, 15, 29
# Debian's multiarch ld.so: system directories, $LIB and $PLATFORM on arm64
DEFAULT_DIRS = ["/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib", "/usr/lib"]
DST = {"LIB": "lib/aarch64-linux-gnu", "PLATFORM": "aarch64"}
# where check_root looks for programs and libraries
SCAN_DIRS = ("usr/bin", "usr/sbin", "usr/lib", "usr/libexec", "usr/local/bin", "usr/local/sbin",
             "usr/local/lib")


class Elf:
    """The dynamic-linking facts of one ELF file."""
    def __init__(self, machine, is_program, interp, needed, soname, rpath, runpath):
        self.machine, self.is_program, self.interp = machine, is_program, interp
        self.needed, self.soname, self.rpath, self.runpath = needed, soname, rpath, runpath


def read_elf(path):
    """Elf of an ELF64 little-endian file with a dynamic section, else None (not ELF, static,
    32-bit, or malformed)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
        if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
            return None
        machine, = struct.unpack_from("<H", data, 0x12)
        phoff, = struct.unpack_from("<Q", data, 0x20)
        phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
        loads, dyn, interp = [], None, None
        for i in range(phnum):
            p_type, _, p_off, p_vaddr, _, p_filesz, _, _ = struct.unpack_from(
                "<IIQQQQQQ", data, phoff + i * phentsize)
            if p_type == PT_LOAD:
                loads.append((p_vaddr, p_off, p_filesz))
            elif p_type == PT_DYNAMIC:
                dyn = (p_off, p_filesz)
            elif p_type == PT_INTERP:
                interp = data[p_off:p_off + p_filesz].split(b"\0")[0].decode()
        if dyn is None:
            return None
        ents = []
        for i in range(dyn[1] // 16):
            tag, val = struct.unpack_from("<qQ", data, dyn[0] + 16 * i)
            if tag == 0:
                break
            ents.append((tag, val))
        strtab_va = next((v for t, v in ents if t == DT_STRTAB), None)
        strtab = next((va_off - va + off for va, off, sz in loads
                       for va_off in [strtab_va] if va_off is not None and va <= va_off < va + sz),
                      None)
        if strtab is None:
            return None

        def s(o):
            return data[strtab + o:data.index(b"\0", strtab + o)].decode()

        def path_list(tag):
            vals = [s(v) for t, v in ents if t == tag]
            return None if not vals else [p for v in vals for p in v.split(":") if p]
        sonames = [s(v) for t, v in ents if t == DT_SONAME]
        return Elf(machine, interp is not None, interp, [s(v) for t, v in ents if t == DT_NEEDED],
                   sonames[0] if sonames else None, path_list(DT_RPATH), path_list(DT_RUNPATH))
    except (struct.error, ValueError, UnicodeDecodeError, OSError):
        return None


def in_root(root, path, hops=40):
    """The host path of guest path `path` with symlinks resolved inside root (an absolute link
    target means root's /, as in the guest), or None if it does not resolve to an existing file."""
    parts = [p for p in path.split("/") if p not in ("", ".")]
    cur = root
    while parts:
        p = parts.pop(0)
        if p == "..":
            if cur != root:
                cur = os.path.dirname(cur)
            continue
        nxt = os.path.join(cur, p)
        if os.path.islink(nxt):
            if hops == 0:
                return None
            hops -= 1
            t = os.readlink(nxt)
            parts = [q for q in t.split("/") if q not in ("", ".")] + parts
            if t.startswith("/"):
                cur = root
            continue
        if not os.path.lexists(nxt):
            return None
        cur = nxt
    return cur


def expand(entry, origin):
    """A DT_RPATH/DT_RUNPATH entry with $ORIGIN, $LIB, $PLATFORM (or ${...}) expanded."""
    for name, val in dict(DST, ORIGIN=origin).items():
        entry = entry.replace("${%s}" % name, val).replace("$" + name, val)
    return entry


def ld_so_conf_dirs(root, conf="/etc/ld.so.conf", depth=0):
    """The directories /etc/ld.so.conf names (with its `include` globs), in order."""
    host = in_root(root, conf)
    if host is None or depth > 8 or not os.path.isfile(host):
        return []
    dirs = []
    for line in open(host, errors="replace"):
        words = line.split("#")[0].split()
        if not words:
            continue
        if words[0] == "include":
            for pat in words[1:]:
                pat = pat if pat.startswith("/") else os.path.join(os.path.dirname(conf), pat)
                for inc in sorted(glob.glob(root + pat)):
                    dirs += ld_so_conf_dirs(root, "/" + os.path.relpath(inc, root), depth + 1)
        elif words[0].startswith("/"):
            dirs.append(words[0].split("=")[0])
    return dirs


class Resolver:
    """Loads programs' and libraries' DT_NEEDED closures in an unpacked root."""
    def __init__(self, root):
        self.root = root
        self.elfs = {}
        self.has_cache = in_root(root, "/etc/ld.so.cache") is not None
        self.conf_dirs = ld_so_conf_dirs(root)

    def elf(self, guest_path):
        host = in_root(self.root, guest_path)
        if host is None or not os.path.isfile(host):
            return None
        real = os.path.realpath(host)
        if real not in self.elfs:
            self.elfs[real] = read_elf(real)
        return self.elfs[real]

    def find(self, name, obj_path, obj, chain, machine):
        """Guest path of DT_NEEDED `name` of obj (at guest path obj_path, loaded through chain:
        [(path, Elf)] from the program down to obj's loader), or None."""
        if "/" in name:
            e = self.elf(name)
            return name if e is not None and e.machine == machine else None
        dirs = []
        if obj.runpath is None:
            for p, o in [(obj_path, obj)] + chain[::-1]:
                dirs += [expand(d, os.path.dirname(p)) for d in o.rpath or []]
        dirs += [expand(d, os.path.dirname(obj_path)) for d in obj.runpath or []]
        if self.has_cache:
            dirs += self.conf_dirs
        dirs += DEFAULT_DIRS
        for d in dirs:
            cand = os.path.normpath(os.path.join(d, name))
            e = self.elf(cand)
            if e is not None and e.machine == machine:
                return cand
        return None

    def closure(self, path):
        """Load `path` (a program, or a library as dlopen by its path loads it) and its DT_NEEDED
        closure breadth-first, as ld.so does.  Returns (loaded guest paths, missing: [(needed
        name, guest path of the object that needs it)])."""
        top = self.elf(path)
        if top is None:
            return [], []
        loaded = [(path, top, [])]          # (guest path, Elf, loader chain)
        names = {os.path.basename(path)}    # what the loaded objects answer to
        if top.soname:
            names.add(top.soname)
        missing = []
        i = 0
        while i < len(loaded):
            p, o, chain = loaded[i]
            i += 1
            for n in o.needed:
                if n in names:
                    continue
                found = self.find(n, p, o, chain, top.machine)
                if found is None:
                    missing.append((n, p))
                    names.add(n)            # reported once per closure
                    continue
                e = self.elf(found)
                names.add(n)
                if e.soname:
                    names.add(e.soname)
                loaded.append((found, e, chain + [(p, o)]))
        return [p for p, _, _ in loaded], missing


def dlopen_path(root, name):
    """Guest path that dlopen(name) from a program without RPATH/RUNPATH opens, or None."""
    if "/" in name:
        return name if in_root(root, name) else None
    r = Resolver(root)
    dirs = (r.conf_dirs if r.has_cache else []) + DEFAULT_DIRS
    return next((os.path.join(d, name) for d in dirs if r.elf(os.path.join(d, name))), None)


def scan(root):
    """Guest paths of the dynamic ELF files under SCAN_DIRS (symlinks not followed), sorted."""
    out = []
    for top in SCAN_DIRS:
        for dp, dn, fn in os.walk(os.path.join(root, top)):
            dn.sort()
            for n in sorted(fn):
                p = os.path.join(dp, n)
                if os.path.islink(p) or not os.path.isfile(p):
                    continue
                if not (os.access(p, os.X_OK) or ".so" in n):
                    continue
                if read_elf(p) is not None:
                    out.append("/" + os.path.relpath(p, root))
    return out


def check_root(root, dlopen_roots=()):
    """(number of dynamic ELF files, errors, warnings) for an unpacked root.  Errors: a program
    whose interpreter or DT_NEEDED closure does not resolve, or one of dlopen_roots (guest paths
    of libraries the image relies on, e.g. OpenCL ICDs) that does not.  Warnings: a library in
    no program's closure whose own closure does not resolve."""
    r = Resolver(root)
    files = scan(root)
    reached, errors, warnings = set(), [], []

    def report(out, path, missing):
        for n, by in missing:
            why = "" if by == path else " (needed by %s)" % by.lstrip("/")
            # ld.so reads the cache, never ld.so.conf: say so where that is the reason
            idle = [d for d in r.conf_dirs if not r.has_cache and r.elf(os.path.join(d, n))]
            if idle:
                why += " (in %s of ld.so.conf, but the image has no ld.so.cache)" % idle[0]
            out.append("%s: %s not found%s" % (path.lstrip("/"), n, why))

    def real(p):
        h = in_root(root, p)
        return os.path.realpath(h) if h else p
    for p in files:
        e = r.elf(p)
        if not e.is_program:
            continue
        if in_root(root, e.interp) is None:
            errors.append("%s: interpreter %s not found" % (p.lstrip("/"), e.interp))
        loaded, missing = r.closure(p)
        reached.update(real(q) for q in loaded)
        report(errors, p, missing)
    for p in dlopen_roots:
        loaded, missing = r.closure(p)
        if not loaded:
            errors.append("%s: not found" % p.lstrip("/"))
        reached.update(real(q) for q in loaded)
        report(errors, p, missing)
    for p in files:
        if r.elf(p).is_program or real(p) in reached:
            continue
        report(warnings, p, r.closure(p)[1])
    return len(files), errors, warnings
