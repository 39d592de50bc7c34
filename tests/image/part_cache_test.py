#!/usr/bin/env python3
"""guest-images/part_cache.py: an entry is found only under the key of the inputs it was built
from, holds what was stored (files, trees, symlinks), is restored as new files for make, survives
its source's removal, is never half there, and only the newest KEEP entries of a part stay.

    tests/image/part_cache_test.py WORKDIR
"""
import os
import shutil
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../guest-images"))
import build  # noqa: E402
import part_cache  # noqa: E402

failures = []


def check(what, got, want):
    ok = got == want
    print("%s: %s%s" % ("ok" if ok else "FAIL", what, "" if ok else "  [got %r, want %r]" % (got, want)))
    if not ok:
        failures.append(what)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def read(path):
    with open(path) as f:
        return f.read()


def main():
    work = os.path.abspath(sys.argv[1])
    shutil.rmtree(work, ignore_errors=True)
    cache, src, out = (os.path.join(work, d) for d in ("cache", "src", "out"))
    write(os.path.join(src, "a.c"), "int a;\n")
    write(os.path.join(src, "b.c"), "int b;\n")
    files = [os.path.join(src, "a.c"), os.path.join(src, "b.c")]
    k = part_cache.key(files, ["x_1.0_arm64.deb 100"])

    # the key follows every input: contents, names, order, words
    check("the same inputs give the same key", part_cache.key(files, ["x_1.0_arm64.deb 100"]), k)
    write(os.path.join(src, "b.c"), "int b2;\n")
    check("a source's contents change the key", part_cache.key(files, ["x_1.0_arm64.deb 100"]) != k, True)
    write(os.path.join(src, "b.c"), "int b;\n")
    check("...and restored, give it back", part_cache.key(files, ["x_1.0_arm64.deb 100"]), k)
    check("another .deb version changes the key", part_cache.key(files, ["x_1.1_arm64.deb 100"]) != k, True)
    check("the files' order changes the key", part_cache.key(files[::-1], ["x_1.0_arm64.deb 100"]) != k, True)

    # put, then get and restore
    built = os.path.join(work, "built")
    write(os.path.join(built, "Image"), "kernel\n")
    write(os.path.join(built, "modules", "7.0", "modules.dep"), "kernel/x.ko:\n")
    os.symlink("modules.dep", os.path.join(built, "modules", "7.0", "link"))
    check("nothing before put", part_cache.get(cache, "kernel", k), None)
    part_cache.put(cache, "kernel", k, [(os.path.join(built, "Image"), "Image"),
                                        (os.path.join(built, "modules"), "modules")])
    shutil.rmtree(built)
    entry = part_cache.get(cache, "kernel", k)
    check("get finds the entry put stored", entry is not None, True)
    check("another part's entry is not found", part_cache.get(cache, "apps", k), None)
    other = part_cache.key(files, ["x_1.1_arm64.deb 100"])
    check("another key's entry is not found", part_cache.get(cache, "kernel", other), None)
    os.makedirs(out)
    write(os.path.join(out, "Image"), "stale\n")
    before = time.time() - 1
    part_cache.restore(entry, ["Image", "modules"], out)
    check("restore replaces an old output", read(os.path.join(out, "Image")), "kernel\n")
    check("restore copies trees", read(os.path.join(out, "modules", "7.0", "modules.dep")), "kernel/x.ko:\n")
    check("restore keeps symlinks", os.readlink(os.path.join(out, "modules", "7.0", "link")), "modules.dep")
    check("a restored output is newer than its inputs (for make)",
          os.stat(os.path.join(out, "Image")).st_mtime >= before, True)
    # an image restored from the entry later must not move this one's mtime (make would build
    # what depends on it again) nor the entry's
    old_time = time.time() - 3600
    os.utime(os.path.join(out, "Image"), (old_time, old_time))
    entry_time = os.stat(os.path.join(entry, "Image")).st_mtime
    out2 = os.path.join(work, "out2")
    os.makedirs(out2)
    part_cache.restore(entry, ["Image", "modules"], out2)
    check("restoring another image leaves the first one's mtime alone",
          os.stat(os.path.join(out, "Image")).st_mtime, old_time)
    check("...and the entry's", os.stat(os.path.join(entry, "Image")).st_mtime, entry_time)
    # build.py replaces the outputs it writes (kernel.release, modules.dep, ...): a rebuild into
    # the same directory must not write through the hard links into the entry
    build.write(os.path.join(out, "modules", "7.0", "modules.dep"), "rebuilt\n")
    check("build.write leaves the entry's hard-linked copy alone",
          read(os.path.join(entry, "modules", "7.0", "modules.dep")), "kernel/x.ko:\n")
    check("...and writes the output", read(os.path.join(out, "modules", "7.0", "modules.dep")), "rebuilt\n")
    os.environ["GUEST_PART_CACHE"] = "no"
    check("GUEST_PART_CACHE=no finds nothing", part_cache.get(cache, "kernel", k), None)
    del os.environ["GUEST_PART_CACHE"]

    # an entry without its completion mark (a builder killed mid-put) is not used
    half = os.path.join(cache, "parts", "apps-" + k[:32])
    os.makedirs(os.path.join(half, "apps"))
    check("an entry that was never completed is not found", part_cache.get(cache, "apps", k), None)
    shutil.rmtree(half)

    # only the newest KEEP entries of a part stay
    keys = [part_cache.key([], ["v%d" % i]) for i in range(part_cache.KEEP + 2)]
    for i, kk in enumerate(keys):
        write(os.path.join(work, "app%d" % i), "app %d\n" % i)
        part_cache.put(cache, "apps", kk, [(os.path.join(work, "app%d" % i), "vecadd")])
        os.utime(os.path.join(cache, "parts", "apps-" + kk[:32]), (1000 + i, 1000 + i))
    part_cache.put(cache, "apps", part_cache.key([], ["last"]), [(os.path.join(work, "app0"), "vecadd")])
    left = sorted(e for e in os.listdir(os.path.join(cache, "parts")) if e.startswith("apps-"))
    check("pruning keeps KEEP apps entries", len(left), part_cache.KEEP)
    check("the oldest apps entries went", part_cache.get(cache, "apps", keys[0]), None)
    check("the newest earlier apps entry stayed", part_cache.get(cache, "apps", keys[-1]) is not None, True)
    check("another part's entries are not pruned", part_cache.get(cache, "kernel", k) is not None, True)

    print("part-cache-test: %d failed" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
