#!/usr/bin/env python3
"""make image-packages-test: guest images survive Debian's updates and take the user's packages.

    packages_test.py MALIBU WORKDIR

1. A lock whose pin of clinfo names a version the mirror never had: guest-images/fetch warns once
   for it, takes clinfo's current version, records it in the local lock, and goes on.
2. A lock naming a package Debian does not have at all: fetch stops and names it.
   `fetch host debtest` (the host architecture's builds, bench/cpu-user.sh's native peer) with a
   stale pin of xz-utils: one warning, the current version instead, every path a .deb of the
   host's architecture; a second call answers from its cache without apt.
3. `make image` with that stale lock and IMAGE_PACKAGES=python3-numpy into WORKDIR/out builds (the
   numpy closure, dpkg alternatives for libblas.so.3/liblapack.so.3 applied at build time), and in
   the booted guest numpy's BLAS matrix product and LAPACK determinant give the known results.
"""
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GI = os.path.join(ROOT, "guest-images")
FETCH = [sys.executable, os.path.join(GI, "fetch")]
STALE = "0.0-0malibu.stale1"
failures = []


def check(cond, what, detail=""):
    print("image-packages-test: %s: %s" % ("ok" if cond else "FAIL", what), flush=True)
    if not cond:
        failures.append(what)
        for line in detail.splitlines()[-30:]:
            print("    | " + line)


def lock_with(path, edit):
    lines = open(os.path.join(GI, "packages.lock")).read().splitlines(True)
    with open(path, "w") as f:
        f.writelines(edit(lines))


def stale_pin(work, env):
    lock = os.path.join(work, "stale.lock")

    def edit(lines):
        out = []
        for l in lines:
            if l.startswith("clinfo="):
                w = l.split()
                w[0] = "clinfo=" + STALE
                w[4] = "clinfo_%s_arm64.deb" % STALE
                l = " ".join(w) + "\n"
            out.append(l)
        return out
    lock_with(lock, edit)
    env = dict(env, GUEST_LOCK=lock)
    r = subprocess.run(FETCH + ["fetch", "rootfs"], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    warns = [l for l in r.stderr.splitlines() if "WARNING" in l]
    check(r.returncode == 0, "fetch with a stale pin of clinfo succeeds", r.stdout + r.stderr)
    check(len(warns) == 1 and re.search(r"clinfo=%s has left the mirror: using \S+" % re.escape(STALE),
                                         warns[0]) is not None,
          "exactly one warning line, naming clinfo=%s and the version used" % STALE, r.stderr)
    local = open(env["GUEST_LOCAL_LOCK"]).read() if os.path.exists(env["GUEST_LOCAL_LOCK"]) else ""
    check(re.search(r"^clinfo=\S+ arm64 .* was=%s$" % re.escape(STALE), local, re.M) is not None,
          "the substitution is recorded in the local lock", local)
    return env


def gone_package(work, env):
    lock = os.path.join(work, "gone.lock")
    lock_with(lock, lambda lines: lines + ["malibu-no-such-package=1.0-1 arm64 1000 %s "
                                           "malibu-no-such-package_1.0-1_arm64.deb rootfs\n" % ("0" * 64)])
    r = subprocess.run(FETCH + ["fetch", "rootfs"], env=dict(env, GUEST_LOCK=lock),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(r.returncode != 0 and "malibu-no-such-package" in r.stdout.splitlines()[-1],
          "fetch stops on a package Debian does not have, naming it", r.stdout)


def host_builds(work, env):
    arch = subprocess.run(["dpkg", "--print-architecture"], stdout=subprocess.PIPE, text=True).stdout.strip()
    lock = os.path.join(work, "host.lock")

    def edit(lines):
        return [" ".join(["xz-utils=" + STALE] + l.split()[1:]) + "\n" if l.startswith("xz-utils=")
                else l for l in lines]
    lock_with(lock, edit)
    want = sum(1 for l in open(lock) if len(l.split("#")[0].split()) >= 6
               and "debtest" in l.split()[5].split(","))
    env = dict(env, GUEST_LOCK=lock, GUEST_CACHE=os.path.join(work, "cache-host"))
    runs = [subprocess.run(FETCH + ["host", "debtest"], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True) for _ in range(2)]
    r = runs[0]
    paths = r.stdout.split()
    check(r.returncode == 0 and len(paths) == want and want > 0 and all(os.path.exists(p) for p in paths),
          "fetch host debtest prints the %d .debs it downloaded" % want, r.stdout + r.stderr)
    archs = {subprocess.run(["dpkg-deb", "-f", p, "Architecture"], stdout=subprocess.PIPE,
                            text=True).stdout.strip() for p in paths}
    check(archs and archs <= {arch, "all"}, "each is built for %s (or all): %s" % (arch, sorted(archs)))
    warns = [l for l in r.stderr.splitlines() if "WARNING" in l]
    xz = [p for p in paths if os.path.basename(p).startswith("xz-utils_")]
    check(len(warns) == 1 and "xz-utils=" + STALE in warns[0] and len(xz) == 1 and STALE not in xz[0],
          "one warning for the stale pin of xz-utils, its current version used", r.stderr)
    check(runs[1].returncode == 0 and runs[1].stdout.split() == paths and "apt-get" not in runs[1].stderr,
          "a second call prints the same paths from its cache, without apt", runs[1].stderr)


def numpy_image(malibu, work, env):
    out = os.path.join(work, "out")
    t0 = time.monotonic()
    r = subprocess.run(["make", "--no-print-directory", "-C", ROOT, "image", "IMAGE_OUT=" + out,
                        "IMAGE_PACKAGES=python3-numpy"], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    check(r.returncode == 0, "make image IMAGE_PACKAGES=python3-numpy with the stale lock (%.0f s)"
          % (time.monotonic() - t0), r.stdout)
    if r.returncode:
        return
    alts = [l for l in r.stdout.splitlines() if l.startswith("build: alternative ")]
    check(any("libblas.so.3" in l for l in alts) and any("liblapack.so.3" in l for l in alts),
          "alternatives libblas.so.3 and liblapack.so.3 applied", r.stdout)
    manifest = subprocess.run(["debugfs", "-R", "cat /etc/malibu-packages", os.path.join(out, "rootfs.ext4")],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    check(re.search(r"^python3-numpy=", manifest, re.M) and re.search(r"^clinfo=(?!%s)" % re.escape(STALE),
                                                                        manifest, re.M),
          "the image lists python3-numpy and clinfo's current version", manifest)
    prog = ("import numpy as np; a = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 10]], dtype=np.float64); "
            "print('matmul', (a @ a.T).astype(int).tolist()); "
            "print('det', round(float(np.linalg.det(a)), 6)); print('numpy', np.__version__)")
    t0 = time.monotonic()
    try:
        p = subprocess.run([malibu, "--image", out, "--run", "python3 -c \"%s\"" % prog],
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=900)
        text, rc = p.stdout, p.returncode
    except subprocess.TimeoutExpired as e:
        text, rc = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or ""), None
    print("image-packages-test: guest numpy run: exit %s in %.1f s" % (rc, time.monotonic() - t0))
    check(rc == 0 and "matmul [[14, 32, 53], [32, 77, 128], [53, 128, 213]]" in text,
          "numpy matrix product in the guest = [[14, 32, 53], [32, 77, 128], [53, 128, 213]]", text)
    check("det -3.0" in text, "numpy LAPACK determinant in the guest = -3", text)
    for line in text.splitlines():
        if line.startswith(("matmul", "det", "numpy")):
            print("    guest: " + line)


def main():
    malibu, work = sys.argv[1], os.path.abspath(sys.argv[2])
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(work)
    env = dict(os.environ, GUEST_LOCAL_LOCK=os.path.join(work, "local.lock"))
    env.pop("IMAGE_PACKAGES", None)
    env.pop("MAKEFLAGS", None)
    env.pop("MFLAGS", None)
    env = stale_pin(work, env)
    gone_package(work, env)
    host_builds(work, env)
    numpy_image(malibu, work, env)
    print("image-packages-test: %d failed" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
