#!/usr/bin/env python3
"""Write and list cpio archives in the kernel's initramfs ("newc", SVR4 without CRC) format.

    mkcpio.py create OUT DIR [--gzip] [--dev PATH:c|b:MAJOR:MINOR[:MODE]]... [--mtime T]
    mkcpio.py list ARCHIVE.cpio[.gz]        one line per entry: mode uid:gid size name [-> target]

No root needed: every entry is owned by 0:0 and device nodes are created in the archive itself
(--dev), not on the host.  Output is reproducible: entries sorted by name, inode numbers assigned
in that order, all mtimes = --mtime (default $SOURCE_DATE_EPOCH or 0), gzip header without a name
or time.  Hard links are stored as separate copies.
"""
import gzip
import os
import stat
import sys

TRAILER = "TRAILER!!!"


def _header(ino, mode, uid, gid, nlink, mtime, size, devmaj, devmin, rmaj, rmin, namesize):
    fields = (ino, mode, uid, gid, nlink, mtime, size, devmaj, devmin, rmaj, rmin, namesize, 0)
    return ("070701" + "".join("%08X" % f for f in fields)).encode()


def _pad(n):
    return b"\0" * ((4 - n % 4) % 4)


class Writer:
    def __init__(self, f, mtime):
        self.f, self.mtime, self.ino, self.off = f, mtime, 0, 0

    def _w(self, b):
        self.f.write(b)
        self.off += len(b)

    def entry(self, name, mode, data=b"", rdev=(0, 0), nlink=1):
        self.ino += 1
        nb = name.encode() + b"\0"
        self._w(_header(self.ino if name != TRAILER else 0, mode, 0, 0, nlink, self.mtime,
                        len(data), 0, 0, rdev[0], rdev[1], len(nb)))
        self._w(nb)
        self._w(_pad(self.off))
        self._w(data)
        self._w(_pad(self.off))

    def finish(self):
        self.ino = -1
        self.entry(TRAILER, 0, nlink=1)


def collect(root):
    """(archive name, lstat, host path) for everything under root, parents before children."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for n in sorted(dirnames + filenames):
            p = os.path.join(dirpath, n)
            out.append((os.path.relpath(p, root), os.lstat(p), p))
    out.sort(key=lambda e: e[0])
    return out


def create(out, root, devs, mtime, compress):
    entries = {}
    for name, st, p in collect(root):
        m = st.st_mode
        if stat.S_ISDIR(m):
            entries[name] = (stat.S_IFMT(m) | stat.S_IMODE(m), b"", (0, 0))
        elif stat.S_ISLNK(m):
            entries[name] = (m, os.readlink(p).encode(), (0, 0))
        elif stat.S_ISREG(m):
            with open(p, "rb") as f:
                entries[name] = (m, f.read(), (0, 0))
        else:
            sys.exit("mkcpio: %s: unsupported file type (use --dev for device nodes)" % p)
    for d in devs:
        parts = d.split(":")
        path, kind, maj, mnr = parts[0].strip("/"), parts[1], int(parts[2]), int(parts[3])
        perm = int(parts[4], 8) if len(parts) > 4 else 0o600
        ftype = stat.S_IFCHR if kind == "c" else stat.S_IFBLK
        entries[path] = (ftype | perm, b"", (maj, mnr))
    # make sure every parent directory exists in the archive
    for name in list(entries):
        parent = os.path.dirname(name)
        while parent and parent not in entries:
            entries[parent] = (stat.S_IFDIR | 0o755, b"", (0, 0))
            parent = os.path.dirname(parent)
    tmp = out + ".tmp"
    raw = open(tmp, "wb")
    f = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) \
        if compress else raw
    w = Writer(f, mtime)
    for name in sorted(entries):
        mode, data, rdev = entries[name]
        w.entry(name, mode, data, rdev, nlink=2 if stat.S_ISDIR(mode) else 1)
    w.finish()
    if f is not raw:
        f.close()
    raw.close()
    os.replace(tmp, out)


def read_entries(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    off = 0
    res = []
    while True:
        h = data[off:off + 110]
        if h[:6] != b"070701":
            raise ValueError("bad cpio magic at offset %d" % off)
        v = [int(h[6 + 8 * i:14 + 8 * i], 16) for i in range(13)]
        mode, uid, gid, size, rmaj, rmin, namesize = v[1], v[2], v[3], v[6], v[9], v[10], v[11]
        off += 110
        name = data[off:off + namesize - 1].decode()
        off += namesize
        off += (4 - off % 4) % 4
        body = data[off:off + size]
        off += size
        off += (4 - off % 4) % 4
        if name == TRAILER:
            return res
        res.append((name, mode, uid, gid, body, (rmaj, rmin)))


def list_archive(path):
    for name, mode, uid, gid, body, rdev in read_entries(path):
        extra = ""
        if stat.S_ISLNK(mode):
            extra = " -> " + body.decode()
        elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
            extra = " dev %d,%d" % rdev
        print("%s %d:%d %d %s%s" % (stat.filemode(mode), uid, gid, len(body), name, extra))


def main(argv):
    if len(argv) >= 2 and argv[0] == "list":
        list_archive(argv[1])
        return
    if len(argv) < 3 or argv[0] != "create":
        sys.exit(__doc__)
    out, root = argv[1], argv[2]
    devs, mtime, i = [], int(os.environ.get("SOURCE_DATE_EPOCH", "0")), 3
    compress = False
    while i < len(argv):
        if argv[i] == "--gzip":
            compress = True
            i += 1
            continue
        if argv[i] == "--dev":
            devs.append(argv[i + 1])
        elif argv[i] == "--mtime":
            mtime = int(argv[i + 1])
        else:
            sys.exit(__doc__)
        i += 2
    create(out, root, devs, mtime, compress)


if __name__ == "__main__":
    main(sys.argv[1:])
