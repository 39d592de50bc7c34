"""Built parts of a guest image (the kernel step's outputs, the cross-compiled apps) kept under
CACHE/parts by a hash of everything they were built from, so that another image of the same
stack copies them instead of building them again (`make test` builds four images: two stacks,
then image-packages-test's and install-test's).

An entry is PART-KEY/, KEY the SHA-256 of the inputs the caller names: build.py itself, the
source files, the .deb file names (each names its package's version; fetch checked their
SHA-256 against the lock) and sizes, the cross compiler's identity.  Entries are written to a
temporary name and renamed whole, so a reader never sees half of one and two builders may race.
The newest KEEP entries of each part stay.  GUEST_PART_CACHE=no builds every part afresh.
"""
import hashlib
import os
import shutil

KEEP = 3


def enabled():
    return os.environ.get("GUEST_PART_CACHE", "yes") != "no"


def key(files=(), words=()):
    """SHA-256 of the files' names and contents and of the words, in the order given."""
    h = hashlib.sha256()
    for f in files:
        h.update(b"file\0%s\0" % os.path.basename(f).encode())
        with open(f, "rb") as fh:
            h.update(hashlib.sha256(fh.read()).digest())
    for w in words:
        h.update(b"word\0%s\0" % str(w).encode())
    return h.hexdigest()


def _entry(cache, part, k):
    return os.path.join(cache, "parts", "%s-%s" % (part, k[:32]))


def _link_or_copy(src, dst):
    try:
        os.link(src, dst)
    except OSError:   # another file system, or no hard links there
        shutil.copy2(src, dst)


def _copy(src, dst):
    if os.path.isdir(src) and not os.path.islink(src):
        shutil.copytree(src, dst, symlinks=True, copy_function=_link_or_copy)
    else:
        _link_or_copy(src, dst)


def get(cache, part, k):
    """The entry's directory, or None."""
    d = _entry(cache, part, k)
    if not enabled() or not os.path.isfile(os.path.join(d, ".complete")):
        return None
    os.utime(d)   # recently used: pruned last
    return d


def restore(entry, names, dst_dir):
    """Copies entry/NAME to dst_dir/NAME for each name (the files inside a tree as hard links
    where it can); the copies get the current time as mtime, so make sees them as new outputs.
    A NAME that is a file gets an inode of its own: the entry's inode is shared with the image
    that stored it and every image restored from it before, and touching it made make build
    their initrd and rootfs again (make test rebuilt both stacks' images that way)."""
    for n in names:
        src, dst = os.path.join(entry, n), os.path.join(dst_dir, n)
        if os.path.isdir(dst) and not os.path.islink(dst):
            shutil.rmtree(dst)
        elif os.path.lexists(dst):
            os.unlink(dst)
        if os.path.isdir(src) and not os.path.islink(src):
            _copy(src, dst)   # a new directory: its own inode to touch
        else:
            shutil.copy2(src, dst, follow_symlinks=False)
        os.utime(dst, follow_symlinks=False)


def put(cache, part, k, sources):
    """Stores each (path, name) of sources in the entry PART-KEY, unless it is there already."""
    if not enabled():
        return
    final = _entry(cache, part, k)
    if os.path.isdir(final):
        return
    parts = os.path.dirname(final)
    os.makedirs(parts, exist_ok=True)
    tmp = "%s.tmp-%d" % (final, os.getpid())
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    for src, name in sources:
        _copy(src, os.path.join(tmp, name))
    open(os.path.join(tmp, ".complete"), "w").close()
    try:
        os.rename(tmp, final)
    except OSError:   # another build stored it first
        shutil.rmtree(tmp, ignore_errors=True)
    same = sorted((e for e in os.listdir(parts) if e.startswith(part + "-") and ".tmp-" not in e),
                  key=lambda e: os.stat(os.path.join(parts, e)).st_mtime, reverse=True)
    for old in same[KEEP:]:
        shutil.rmtree(os.path.join(parts, old), ignore_errors=True)
