#!/usr/bin/env python3
"""guest-images/elf_deps.py on small arm64 ELF trees linked by the host's cross toolchain
(aarch64-linux-gnu-gcc, tools/host-packages): RUNPATH/RPATH with $ORIGIN and $LIB, RPATH
inherited from the loader and RUNPATH not, ld.so.conf only with an ld.so.cache, libraries of
another machine skipped, plugins outside every program's closure warned about, programs failed.

    tests/image/elf_deps_test.py WORKDIR
"""
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../guest-images"))
import elf_deps  # noqa: E402

CC = "aarch64-linux-gnu-gcc"
ML = "usr/lib/aarch64-linux-gnu"
failures = []
checks = []


def check(what, ok, detail=""):
    checks.append(what)
    print("%s: %s%s" % ("ok" if ok else "FAIL", what, "" if ok else "  [%r]" % (detail,)))
    if not ok:
        failures.append(what)


def link(root, path, needed=(), soname=None, rpath=None, runpath=None, program=False, cc=CC,
         libdirs=()):
    """An ELF at root/path needing `needed` (built in libdirs, link-time only)."""
    out = os.path.join(root, path)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    src = out + ".c"
    with open(src, "w") as f:
        f.write("void _start(void) {}\n" if program else "int f(void) { return 0; }\n")
    cmd = [cc, "-nostdlib", "-o", out, src, "-Wl,--no-as-needed"]
    cmd += ["-Wl,--dynamic-linker=/lib/ld-linux-aarch64.so.1", "-no-pie"] if program else \
        ["-shared", "-fPIC"]
    if soname:
        cmd.append("-Wl,-soname," + soname)
    if rpath:
        cmd += ["-Wl,--disable-new-dtags", "-Wl,-rpath," + rpath]
    if runpath:
        cmd += ["-Wl,--enable-new-dtags", "-Wl,-rpath," + runpath]
    for d in libdirs:
        cmd.append("-L" + os.path.join(root, d))
    # link-time lookup of the libraries' own dependencies (not recorded in the ELF)
    for d in (ML, ML + "/w", "opt/x/lib/aarch64-linux-gnu"):
        cmd.append("-Wl,-rpath-link," + os.path.join(root, d))
    cmd += ["-l:" + n for n in needed]
    subprocess.run(cmd, check=True)
    os.unlink(src)
    os.chmod(out, 0o755 if program else 0o644)


def build_tree(root):
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(os.path.join(root, "usr/lib"))
    # merged /usr, and the interpreter (only its presence is checked)
    os.symlink("usr/lib", os.path.join(root, "lib"))
    os.symlink("usr/bin", os.path.join(root, "bin"))
    link(root, "usr/lib/ld-linux-aarch64.so.1", soname="ld-linux-aarch64.so.1")
    link(root, ML + "/libbase.so.1", soname="libbase.so.1")
    # weston's shape: the program finds its private library by RUNPATH $ORIGIN; the plugin next
    # to that library has no RUNPATH and needs it (satisfied only because weston loaded it)
    link(root, ML + "/w/libexec_w.so.0", ["libbase.so.1"], soname="libexec_w.so.0", libdirs=[ML])
    link(root, "usr/bin/w", ["libexec_w.so.0"], program=True, runpath="$ORIGIN/../lib/aarch64-linux-gnu/w",
         libdirs=[ML + "/w", ML])
    link(root, ML + "/w/plugin.so", ["libexec_w.so.0"], libdirs=[ML + "/w", ML])
    # libcaca's shape: a dlopen()ed plugin whose dependency is only recommended, so absent
    link(root, "tmp/libgl_dep.so.1", soname="libgl_dep.so.1")
    link(root, ML + "/caca/libgl_plugin.so.0", ["libgl_dep.so.1"], libdirs=["tmp"])
    # $LIB in a DT_RPATH, which the library loaded by the program inherits
    link(root, "opt/x/lib/aarch64-linux-gnu/libinner.so.2", soname="libinner.so.2")
    link(root, "opt/x/lib/aarch64-linux-gnu/libouter.so.2", ["libinner.so.2"], soname="libouter.so.2",
         libdirs=["opt/x/lib/aarch64-linux-gnu"])
    shutil.move(os.path.join(root, "opt/x/lib/aarch64-linux-gnu/libouter.so.2"),
                os.path.join(root, ML, "libouter.so.2"))
    link(root, "usr/bin/rp", ["libouter.so.2"], program=True, rpath="/opt/x/$LIB", libdirs=[ML])
    # the same with DT_RUNPATH: not inherited, so libouter cannot find libinner
    link(root, "usr/bin/run", ["libouter.so.2"], program=True, runpath="/opt/x/$LIB", libdirs=[ML])
    # a library only in an ld.so.conf.d directory
    link(root, "opt/conf/libconf.so.3", soname="libconf.so.3")
    link(root, "usr/bin/conf", ["libconf.so.3"], program=True, libdirs=["opt/conf"])
    os.makedirs(os.path.join(root, "etc/ld.so.conf.d"))
    with open(os.path.join(root, "etc/ld.so.conf"), "w") as f:
        f.write("include /etc/ld.so.conf.d/*.conf\n")
    with open(os.path.join(root, "etc/ld.so.conf.d/opt.conf"), "w") as f:
        f.write("# a comment\n/opt/conf\n")
    # an x86-64 library of the same name earlier in the search path is skipped
    link(root, "usr/bin/mixed", ["libbase.so.1"], program=True, runpath="$ORIGIN/../x86", libdirs=[ML])
    link(root, "usr/x86/libbase.so.1", soname="libbase.so.1", cc="gcc")
    link(root, "tmp/libonly.so.1", soname="libonly.so.1")
    link(root, "usr/bin/mixed_only", ["libonly.so.1"], program=True, runpath="/usr/x86", libdirs=["tmp"])
    link(root, "usr/x86/libonly.so.1", soname="libonly.so.1", cc="gcc")
    shutil.rmtree(os.path.join(root, "tmp"))


def main():
    if shutil.which(CC) is None:
        sys.exit("elf_deps_test: %s not found (Debian package gcc-aarch64-linux-gnu)" % CC)
    root = os.path.abspath(sys.argv[1])
    build_tree(root)
    r = elf_deps.Resolver(root)
    e = r.elf("/usr/bin/w")
    check("read_elf: program, interpreter, DT_NEEDED, DT_RUNPATH",
          e.is_program and e.interp == "/lib/ld-linux-aarch64.so.1" and e.needed == ["libexec_w.so.0"]
          and e.runpath == ["$ORIGIN/../lib/aarch64-linux-gnu/w"] and e.rpath is None,
          vars(e))
    loaded, missing = r.closure("/usr/bin/w")
    check("RUNPATH $ORIGIN finds a program's private library", missing == [] and
          "/usr/lib/aarch64-linux-gnu/w/libexec_w.so.0" in loaded, (loaded, missing))
    loaded, missing = r.closure("/usr/bin/rp")
    check("DT_RPATH with $LIB is inherited by the libraries the program loads",
          missing == [] and "/opt/x/lib/aarch64-linux-gnu/libinner.so.2" in loaded, (loaded, missing))
    loaded, missing = r.closure("/usr/bin/run")
    check("DT_RUNPATH is not inherited", missing == [("libinner.so.2", "/lib/aarch64-linux-gnu/libouter.so.2")],
          (loaded, missing))
    check("ld.so.conf include globs read", r.conf_dirs == ["/opt/conf"], r.conf_dirs)
    loaded, missing = r.closure("/usr/bin/mixed")
    check("a library of another machine is skipped", missing == [] and
          loaded[1:] == ["/lib/aarch64-linux-gnu/libbase.so.1"], (loaded, missing))
    loaded, missing = r.closure("/usr/bin/mixed_only")
    check("a library only of another machine does not resolve", missing == [("libonly.so.1", "/usr/bin/mixed_only")],
          (loaded, missing))

    n, errors, warnings = elf_deps.check_root(root)
    print("check_root: %d files\n  errors: %s\n  warnings: %s" % (n, errors, warnings))
    check("programs that resolve are not errors",
          not any(x.startswith(("usr/bin/w:", "usr/bin/rp:", "usr/bin/mixed:")) for x in errors), errors)
    check("a program whose closure breaks is an error (RUNPATH not inherited)",
          "usr/bin/run: libinner.so.2 not found (needed by lib/aarch64-linux-gnu/libouter.so.2)" in errors, errors)
    check("without ld.so.cache, ld.so.conf does not count, and the error says so",
          "usr/bin/conf: libconf.so.3 not found (in /opt/conf of ld.so.conf, but the image has no ld.so.cache)"
          in errors, errors)
    check("plugins outside every program's closure are warnings, not errors",
          not any("plugin" in x for x in errors) and
          "usr/lib/aarch64-linux-gnu/w/plugin.so: libexec_w.so.0 not found" in warnings and
          "usr/lib/aarch64-linux-gnu/caca/libgl_plugin.so.0: libgl_dep.so.1 not found" in warnings,
          (errors, warnings))
    check("a library in a program's closure is not re-checked as a plugin",
          not any(x.startswith("usr/lib/aarch64-linux-gnu/libouter") for x in warnings), warnings)
    open(os.path.join(root, "etc/ld.so.cache"), "w").close()
    n, errors, warnings = elf_deps.check_root(root)
    check("with an ld.so.cache, ld.so.conf directories are searched",
          not any(x.startswith("usr/bin/conf:") for x in errors), errors)
    os.unlink(os.path.join(root, "usr/lib/ld-linux-aarch64.so.1"))
    n, errors, warnings = elf_deps.check_root(root)
    check("a missing interpreter is an error",
          "usr/bin/w: interpreter /lib/ld-linux-aarch64.so.1 not found" in errors, errors)
    check("the resolver's dlopen search finds a library by name",
          elf_deps.dlopen_path(root, "libouter.so.2") == "/lib/aarch64-linux-gnu/libouter.so.2",
          elf_deps.dlopen_path(root, "libouter.so.2"))
    print("%d passed, %d failed" % (len(checks) - len(failures), len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
