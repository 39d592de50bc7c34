#!/usr/bin/env python3
"""Build the guest images from the fetched, pinned .debs (guest-images/fetch), without root and
without running any arm64 code.  Called by `make image` / `make initramfs` (mk/image.mk).

    build.py kernel      out/Image, out/modules/<release>/, out/kernel.release
    build.py initramfs   out/initramfs-busybox.cpio.gz   (board boot test)
    build.py initrd      out/initrd.img                   (modules + switch_root into /dev/vda)
    build.py apps        cache/work/apps/*                (guest-images/apps, cross-compiled)
    build.py rootfs      out/rootfs.ext4

The kernel and apps steps keep their outputs in cache/parts by what they were built from
(part_cache.py): another image of the same stack copies them.
"""
import glob
import lzma
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import time
import urllib.parse

sys.dont_write_bytecode = True   # no __pycache__ in guest-images/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elf_deps  # noqa: E402
import part_cache  # noqa: E402
from elf_deps import in_root  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.path.abspath(os.environ.get("GUEST_CACHE", os.path.join(HERE, "cache")))
OUT = os.path.abspath(os.environ.get("GUEST_OUT", os.path.join(HERE, "out")))
WORK = os.path.abspath(os.environ.get("GUEST_WORK", os.path.join(CACHE, "work")))
MKCPIO = os.path.join(HERE, "tools", "mkcpio.py")
EPOCH = int(os.environ.get("SOURCE_DATE_EPOCH", "1763769600"))   # 2025-11-22, fixed
CROSS = os.environ.get("CROSS_COMPILE", "aarch64-linux-gnu-")

# Modules the initrd loads (with their dependencies, in dependency order).
# "fixed" (regulator-fixed) provides the GPU's mali-supply from the board's device tree.
# mxsfb + panel_simple: the eLCDIF and its DPI panel (docs/display.md); without the lcdif node
# they load and bind nothing
INITRD_MODULES = ["virtio_mmio", "virtio_blk", "ext4", "fixed", "panfrost", "virtio_input", "evdev",
                  "panel_simple", "mxsfb"]
# Packages of which rootfs.ext4 takes only some paths (group "part" of packages.list, fetched
# without their dependencies): piglit's OpenCL and GLES suites out of the 2.2 GB piglit package
# (tests/piglit); the ELF check below proves the programs' libraries resolve.
#  - OpenCL (9 MB): the cl-* runners, libpiglitutil(_cl), the test trees, the profile cl.xml.gz.
#  - GLES: the shader runners and test programs built for GLES 2 and 3 (*_gles2, *_gles3) and the
#    oes_* ones (GLES 1, 2 or 3), libpiglitutil_gles1/2/3, the profiles that name them
#    (shader.xml.gz: the .shader_test files whose [require] asks for GL ES; opengl.xml.gz: the
#    programs with their arguments), those .shader_test trees, and the data the programs read
#    (the ASTC, ETC1 and ETC2 .ktx images, 56 MB of the 73 MB).
# PART_EXCLUDE: the EGL/GLES interop runner (its test reports "not installed"), and the two
# oes_* programs built for desktop GL (they link libpiglitutil_gl, which the image leaves out).
PIGLIT = "usr/lib/aarch64-linux-gnu/piglit/"
PIGLIT_CL = ["bin/cl-*", "lib/libpiglitutil.so*", "lib/libpiglitutil_cl.so*",
             "tests/cl", "tests/cl.xml.gz", "generated_tests/cl"]
PIGLIT_GLES = ["bin/*_gles2", "bin/*_gles3", "bin/oes_*", "lib/libpiglitutil_gles*.so*",
               "tests/shader.xml.gz", "tests/opengl.xml.gz",
               "tests/spec/glsl-es-1.00", "tests/spec/glsl-es-3.00", "tests/spec/glsl-es-3.10",
               "tests/spec/oes_geometry_shader", "tests/spec/oes_viewport_array",
               "generated_tests/spec/glsl-es-3.00",
               "generated_tests/spec/EXT_shader_framebuffer_fetch",
               "generated_tests/spec/EXT_shader_framebuffer_fetch_non_coherent",
               "tests/spec/khr_texture_compression_astc", "tests/spec/oes_texture_compression_astc",
               "tests/spec/oes_compressed_etc1_rgb8_texture", "tests/spec/gles-3.0"]
PART_PATHS = {
    "piglit": [PIGLIT + p for p in PIGLIT_CL + PIGLIT_GLES] + ["usr/share/doc/piglit/copyright"],
}
PART_EXCLUDE = {"piglit": [PIGLIT + p for p in ("bin/cl-interop-*", "bin/oes_compressed_astc-miptree-3d_gl",
                                                "bin/oes_compressed_etc2_texture-miptree")]}
# Left out of rootfs.ext4 (documentation; copyright files are kept).
# udev's hwdb.d: the sources of hwdb.bin, which only `systemd-hwdb update` (a maintainer script
# we do not run) compiles; udev works without it (9 MB).
ROOTFS_DROP = ["usr/share/man", "usr/share/info", "usr/share/locale", "usr/share/lintian",
               "usr/share/bug", "usr/share/doc-base", "usr/lib/udev/hwdb.d"]


def log(msg):
    print("build: " + msg, flush=True)


def run(*cmd, **kw):
    r = subprocess.run(list(cmd), **kw)
    if r.returncode != 0:
        sys.exit("build: command failed (%d): %s" % (r.returncode, " ".join(cmd)))
    return r


def debs(group):
    out = subprocess.run([sys.executable, os.path.join(HERE, "fetch"), "list", group],
                         stdout=subprocess.PIPE, text=True, check=True).stdout.split()
    missing = [p for p in out if not os.path.exists(p)]
    if missing or not out:
        sys.exit("build: packages missing from the cache, run guest-images/fetch: %s"
                 % " ".join(os.path.basename(p) for p in missing))
    return out


def fresh(d):
    if os.path.lexists(d):
        # dpkg-deb may leave read-only directories
        for dp, dn, fn in os.walk(d):
            for n in dn:
                p = os.path.join(dp, n)
                if not os.path.islink(p):
                    os.chmod(p, 0o755)
        shutil.rmtree(d)
    os.makedirs(d)
    return d


def unpack(debfiles, root):
    for f in debfiles:
        run("dpkg-deb", "-x", f, root)


def unpack_part(debfile, root):
    """The paths of PART_PATHS[package] out of debfile (tar wildcards, directories recursively)."""
    name = urllib.parse.unquote(os.path.basename(debfile).split("_")[0])
    if name not in PART_PATHS:
        sys.exit("build: %s is in group part but PART_PATHS has no paths for it" % name)
    deb = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", debfile], stdout=subprocess.PIPE)
    tar = subprocess.run(["tar", "-x", "-C", root, "--wildcards", "--no-wildcards-match-slash"]
                         + ["--exclude=./" + p for p in PART_EXCLUDE.get(name, [])]
                         + ["./" + p for p in PART_PATHS[name]], stdin=deb.stdout)
    deb.stdout.close()
    if deb.wait() != 0 or tar.returncode != 0:
        sys.exit("build: unpacking %s of %s failed" % (" ".join(PART_PATHS[name]), debfile))


def merged_usr(root):
    for d in ("usr/bin", "usr/sbin", "usr/lib"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    for l in ("bin", "sbin", "lib"):
        if not os.path.lexists(os.path.join(root, l)):
            os.symlink("usr/" + l, os.path.join(root, l))


def write(path, text, mode=0o644):
    """Replaces path (never writes through it: outputs may be hard links into the part cache
    or the unpacked packages)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.chmod(tmp, mode)
    os.replace(tmp, path)


def install(src, dst, mode=0o755):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copyfile(src, dst)
    os.chmod(dst, mode)


def set_times(root):
    """Fixed mtimes for reproducible archives/filesystems."""
    for dp, dn, fn in os.walk(root):
        for n in dn + fn:
            os.utime(os.path.join(dp, n), (EPOCH, EPOCH), follow_symlinks=False)
    os.utime(root, (EPOCH, EPOCH))


def replace_out(tmp, final):
    os.makedirs(os.path.dirname(final), exist_ok=True)
    os.replace(tmp, final)
    log("wrote %s (%.1f MB)" % (os.path.relpath(final), os.path.getsize(final) / 1e6))


# ---- busybox ---------------------------------------------------------------------------------

def busybox_applets(binary):
    """Applet names, read from the static binary's sorted applet_names[] table (we can't run the
    arm64 busybox to ask it --list)."""
    d = open(binary, "rb").read()
    i = d.find(b"[\0[[\0")
    if i < 0:
        sys.exit("build: no applet table in " + binary)
    names, j = [], i
    while True:
        k = d.index(b"\0", j)
        if k == j:
            break
        names.append(d[j:k].decode("ascii"))
        j = k + 1
    if names != sorted(names) or not {"sh", "mount", "switch_root", "poweroff"} <= set(names):
        sys.exit("build: unexpected busybox applet table")
    return names


def busybox_tree(root):
    """A busybox-only root: /bin/busybox + a symlink per applet, /sbin /usr/* -> bin."""
    tmp = fresh(root + "-busybox-deb")      # per image: make -j builds them in parallel
    unpack(debs("boot"), tmp)
    bb = os.path.join(tmp, "usr/bin/busybox")
    for d in ("bin", "dev", "etc", "proc", "sys", "run", "tmp", "root", "mnt", "lib/malibu", "usr"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    install(bb, os.path.join(root, "bin/busybox"))
    for a in busybox_applets(bb):
        if a != "busybox":
            os.symlink("busybox", os.path.join(root, "bin", a))
    os.symlink("bin", os.path.join(root, "sbin"))
    os.symlink("../bin", os.path.join(root, "usr/bin"))
    os.symlink("../bin", os.path.join(root, "usr/sbin"))
    os.chmod(os.path.join(root, "tmp"), 0o1777)
    os.chmod(os.path.join(root, "root"), 0o700)
    write(os.path.join(root, "etc/passwd"), "root:x:0:0:root:/root:/bin/sh\n")
    write(os.path.join(root, "etc/group"), "root:x:0:\ntty:x:5:\n")
    install(os.path.join(HERE, "init/lib.sh"), os.path.join(root, "lib/malibu/lib.sh"), 0o644)


def make_cpio(root, out):
    set_times(root)
    tmp = out + ".part"
    run(sys.executable, MKCPIO, "create", tmp, root, "--gzip", "--dev", "dev/console:c:5:1:600",
        "--dev", "dev/null:c:1:3:666", "--mtime", str(EPOCH))
    replace_out(tmp, out)


def build_initramfs():
    root = fresh(os.path.join(WORK, "initramfs"))
    busybox_tree(root)
    install(os.path.join(HERE, "init/initramfs-init"), os.path.join(root, "init"))
    make_cpio(root, os.path.join(OUT, "initramfs-busybox.cpio.gz"))


# ---- kernel ----------------------------------------------------------------------------------

def kernel_root():
    return os.path.join(WORK, "kernel")


def kernel_release():
    with open(os.path.join(OUT, "kernel.release")) as f:
        return f.read().strip()


KERNEL_OUTPUTS = ["Image", "config", "kernel.release", "modules"]


def debs_words(debfiles):
    return ["%s %d" % (os.path.basename(f), os.path.getsize(f)) for f in debfiles]


def build_kernel():
    pk = debs("kernel")
    key = part_cache.key([os.path.abspath(__file__)], ["kernel"] + debs_words(pk))
    entry = part_cache.get(CACHE, "kernel", key)
    if entry:
        os.makedirs(OUT, exist_ok=True)
        part_cache.restore(entry, KERNEL_OUTPUTS, OUT)
        log("kernel %s from the part cache (%s)" % (kernel_release(), os.path.relpath(entry)))
        return
    root = fresh(kernel_root())
    unpack(pk, root)
    # Linux 6.x packages: boot/vmlinuz-<release>, boot/config-<release>; Linux 7.x (split into
    # linux-binary/-modules/-base): usr/lib/modules/<release>/vmlinuz and .../config
    vmlinuz = glob.glob(os.path.join(root, "boot/vmlinuz-*"))
    if vmlinuz:
        rel = os.path.basename(vmlinuz[0])[len("vmlinuz-"):]
        config = os.path.join(root, "boot/config-" + rel)
    else:
        vmlinuz = glob.glob(os.path.join(root, "usr/lib/modules/*/vmlinuz"))
        rel = os.path.basename(os.path.dirname(vmlinuz[0])) if vmlinuz else ""
        config = os.path.join(root, "usr/lib/modules", rel, "config")
    if len(vmlinuz) != 1:
        sys.exit("build: expected one kernel (boot/vmlinuz-* or usr/lib/modules/*/vmlinuz) in the "
                 "kernel packages")
    with open(vmlinuz[0], "rb") as f:
        hdr = f.read(64)
    # arm64 Image header: magic "ARM\x64" at 0x38 (uncompressed Image, not a gzip'd vmlinuz)
    if hdr[0x38:0x3c] != b"ARM\x64":
        sys.exit("build: %s is not an uncompressed arm64 Image" % vmlinuz[0])
    text_offset, image_size, flags = struct.unpack_from("<QQQ", hdr, 8)
    log("kernel %s: Image %d bytes, image_size %d, flags %#x (4K pages: %s)"
        % (rel, os.path.getsize(vmlinuz[0]), image_size, flags, (flags >> 1) & 3 == 1))
    os.makedirs(OUT, exist_ok=True)
    mods = os.path.join(OUT, "modules")
    fresh(mods)
    shutil.copytree(os.path.join(root, "usr/lib/modules", rel), os.path.join(mods, rel),
                    symlinks=True, copy_function=os.link,
                    ignore=lambda d, names: [n for n in names if n in ("vmlinuz", "System.map")])
    t0 = time.time()
    n = write_depmod(os.path.join(mods, rel))
    log("modules.dep/.alias/.softdep for %d modules in %.1fs" % (n, time.time() - t0))
    shutil.copyfile(config, os.path.join(OUT, "config.part"))   # replaced, as write() does
    os.replace(os.path.join(OUT, "config.part"), os.path.join(OUT, "config"))
    write(os.path.join(OUT, "kernel.release"), rel + "\n")
    shutil.copyfile(vmlinuz[0], os.path.join(OUT, "Image.part"))
    replace_out(os.path.join(OUT, "Image.part"), os.path.join(OUT, "Image"))
    part_cache.put(CACHE, "kernel", key, [(os.path.join(OUT, n), n) for n in KERNEL_OUTPUTS])


# ---- modules ---------------------------------------------------------------------------------

def ko_bytes(path):
    with open(path, "rb") as f:
        data = f.read()
    return lzma.decompress(data) if path.endswith(".xz") else data


def modinfo(data):
    """key -> [values] from the .modinfo section of an ELF64 little-endian module."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not an ELF64 LE module")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    secs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strtab_off = secs[shstrndx][4]
    res = {}
    for s in secs:
        name = data[strtab_off + s[0]:data.index(b"\0", strtab_off + s[0])]
        if name == b".modinfo":
            for item in data[s[4]:s[4] + s[5]].split(b"\0"):
                if b"=" in item:
                    k, v = item.decode("utf-8", "replace").split("=", 1)
                    res.setdefault(k, []).append(v)
    return res


def norm(name):
    return name.replace("-", "_")


def module_closure(moddir, wanted):
    """Dependency-ordered [(name, path, data, info)] for the wanted modules: modinfo depends=
    (what depmod turns into modules.dep) and softdep= pre: modules, resolved through
    modules.alias (ext4/jbd2 want "crypto-crc32c" = crc32c_generic on this kernel)."""
    paths = {}
    for p in glob.glob(os.path.join(moddir, "kernel/**/*.ko*"), recursive=True):
        paths[norm(re.sub(r"\.ko(\.xz|\.zst|\.gz)?$", "", os.path.basename(p)))] = p
    builtin = set()
    with open(os.path.join(moddir, "modules.builtin")) as f:
        for line in f:
            builtin.add(norm(os.path.basename(line.strip())[:-3]))
    aliases = {}
    with open(os.path.join(moddir, "modules.alias")) as f:
        for line in f:
            w = line.split()
            if len(w) == 3 and w[0] == "alias" and not any(c in w[1] for c in "*?["):
                aliases.setdefault(w[1], w[2])
    order, state = [], {}

    def visit(name, chain):
        name = norm(name)
        if name in builtin or state.get(name) == "done":
            return
        if state.get(name) == "visiting":
            sys.exit("build: module dependency cycle: " + " -> ".join(chain + [name]))
        if name not in paths:
            sys.exit("build: module %s not found (wanted by %s)" % (name, " -> ".join(chain)))
        state[name] = "visiting"
        data = ko_bytes(paths[name])
        info = modinfo(data)
        deps = [d for v in info.get("depends", []) for d in v.split(",") if d]
        for sd in info.get("softdep", []):
            m = re.search(r"pre:\s*([^:]*?)(\s+post:|$)", sd)
            if m:
                for d in m.group(1).split():
                    d = norm(d) if norm(d) in paths else aliases.get(d)
                    if d:           # else built in (or absent): nothing to load
                        deps.append(d)
        for d in deps:
            visit(d, chain + [name])
        state[name] = "done"
        order.append((name, paths[name], data, info))

    for w in wanted:
        visit(w, [])
    return order


def write_depmod(moddir):
    """What depmod (run by the package's postinst) would write: modules.dep (all dependencies,
    the one to load first last), modules.alias, modules.softdep; from each module's .modinfo
    (no host depmod needed; the files are replaced, never hard-linked into the package tree)."""
    mods = {}
    for p in sorted(glob.glob(os.path.join(moddir, "kernel/**/*.ko*"), recursive=True)):
        name = norm(re.sub(r"\.ko(\.xz|\.zst|\.gz)?$", "", os.path.basename(p)))
        mods[name] = (os.path.relpath(p, moddir), modinfo(ko_bytes(p)))
    dep_lines, alias_lines, soft_lines = [], [], []
    for name, (rel, info) in mods.items():
        order, seen = [], set()

        def visit(m):
            for d in (x for v in mods[m][1].get("depends", []) for x in v.split(",") if x):
                d = norm(d)
                if d in mods and d not in seen:
                    seen.add(d)
                    visit(d)
                    order.append(d)
        visit(name)
        dep_lines.append("%s:%s" % (rel, "".join(" " + mods[d][0] for d in reversed(order))))
        alias_lines += ["alias %s %s" % (a, name) for a in info.get("alias", [])]
        soft_lines += ["softdep %s %s" % (name, sd) for sd in info.get("softdep", [])]
    for fn, lines in (("modules.dep", dep_lines), ("modules.alias", alias_lines),
                      ("modules.softdep", soft_lines)):
        header = "# generated by guest-images/build.py\n" * (fn != "modules.dep")
        write(os.path.join(moddir, fn), header + "\n".join(lines) + "\n")
    return len(mods)


def build_initrd():
    rel = kernel_release()
    moddir = os.path.join(OUT, "modules", rel)
    root = fresh(os.path.join(WORK, "initrd"))
    busybox_tree(root)
    install(os.path.join(HERE, "init/initrd-init"), os.path.join(root, "init"))
    dst = os.path.join(root, "lib/modules", rel)
    os.makedirs(dst)
    lines = ["# generated by guest-images/build.py: insmod order (dependencies first)"]
    for name, path, data, info in module_closure(moddir, INITRD_MODULES):
        # stored uncompressed: no need for xz support in busybox insmod or the kernel, and the
        # emulated CPU doesn't spend boot time in the xz decoder
        fn = name + ".ko"
        with open(os.path.join(dst, fn), "wb") as f:
            f.write(data)
        lines.append("%s/%s" % (rel, fn))
        log("initrd module %-18s depends=%s" % (name, ",".join(info.get("depends", [""]))))
    write(os.path.join(root, "etc/malibu/modules"), "\n".join(lines) + "\n")
    make_cpio(root, os.path.join(OUT, "initrd.img"))


# ---- apps (cross-compiled OpenCL and GLES samples) ----------------------------------------------

def libs_dir():
    return os.path.join(WORK, "apps-lib")


def cross_compiler():
    """The cross compiler's identity for the part cache: its path and version line."""
    gcc = shutil.which(CROSS + "gcc") or CROSS + "gcc"
    r = subprocess.run([gcc, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return [gcc, r.stdout.splitlines()[0] if r.stdout else "", str(r.returncode)]


def build_apps():
    pk = debs("sdk")
    sources = sorted(glob.glob(os.path.join(HERE, "apps", "*")))
    key = part_cache.key([os.path.abspath(__file__)] + [s for s in sources if os.path.isfile(s)],
                         ["apps"] + debs_words(pk) + cross_compiler())
    entry = part_cache.get(CACHE, "apps", key)
    if entry:
        os.makedirs(WORK, exist_ok=True)
        part_cache.restore(entry, ["apps", "apps-lib"], WORK)
        log("apps from the part cache (%s): %s" % (os.path.relpath(entry),
                                                    " ".join(sorted(os.listdir(os.path.join(WORK, "apps"))))))
        return
    sdk = fresh(os.path.join(WORK, "sdk"))
    unpack(pk, sdk)
    libdir = os.path.join(sdk, "usr/lib/aarch64-linux-gnu")
    outdir = fresh(os.path.join(WORK, "apps"))
    fresh(libs_dir())
    # every apps/*.c with a main() is a program: gles_*.c an EGL + GLES one (EGL surfaceless, no
    # X11 headers), the others OpenCL ones linked with the shared helper apps/common.c
    common = os.path.join(HERE, "apps", "common.c")
    srcs = [s for s in sorted(glob.glob(os.path.join(HERE, "apps", "*.c")))
            if s != common and re.search(r"\bint\s+main\s*\(", open(s).read())]
    for src in srcs:
        name = os.path.basename(src)[:-2]
        if name.startswith("gles_"):
            # glvnd's libraries need trixie's glibc (2.38+ symbols), newer than the cross
            # toolchain's: ld leaves their own references to the guest's ld.so
            extra, libs = ["-DEGL_NO_X11", "-Wl,--allow-shlib-undefined"], ["-lEGL", "-lGLESv2"]
        else:
            extra, libs = ["-DCL_TARGET_OPENCL_VERSION=300", common], ["-lOpenCL"]
        # headers and link libraries (libOpenCL.so: the ICD loader; libEGL/libGLESv2: glvnd's)
        # from Debian arm64; the program links against the cross toolchain's (older) glibc, so it
        # runs on trixie's; -rpath-link lets ld resolve the libraries' own needs from trixie's.
        run(CROSS + "gcc", "-O2", "-g0", "-Wall", "-Wextra", "-Werror",
            "-isystem", os.path.join(sdk, "usr/include"), "-o", os.path.join(outdir, name), src,
            *extra, "-L" + libdir, "-Wl,-rpath-link," + libdir, *libs, "-lm")
        log("app %s" % name)
    # every apps/lib*.c is a shared library (an OpenCL layer), installed in /usr/local/lib
    for src in sorted(glob.glob(os.path.join(HERE, "apps", "lib*.c"))):
        name = os.path.basename(src)[:-2] + ".so"
        run(CROSS + "gcc", "-O2", "-g0", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
            "-DCL_TARGET_OPENCL_VERSION=300", "-isystem", os.path.join(sdk, "usr/include"),
            "-o", os.path.join(libs_dir(), name), src)
        log("library %s" % name)
    part_cache.put(CACHE, "apps", key, [(outdir, "apps"), (libs_dir(), "apps-lib")])


# ---- rootfs ----------------------------------------------------------------------------------

def postinst_alternatives(deb):
    """[(link, name, path, priority, [(slave link, slave name, slave path)])] of the
    `update-alternatives --install` calls in a package's postinst."""
    r = subprocess.run(["dpkg-deb", "--info", deb, "postinst"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    if r.returncode != 0 or "update-alternatives" not in r.stdout:
        return []
    out = []
    for cmd in r.stdout.replace("\\\n", " ").splitlines():
        if "update-alternatives" not in cmd or "--install" not in cmd:
            continue
        try:
            w = shlex.split(cmd, comments=True)
        except ValueError:
            w = []
        i = w.index("--install") if "--install" in w else -1
        if i < 0 or len(w) < i + 5 or any("$" in x for x in w[i + 1:]) or not w[i + 4].isdigit():
            log("alternatives: %s: cannot read: %s" % (os.path.basename(deb), cmd.strip()))
            continue
        slaves, j = [], i + 5
        while j + 3 < len(w) and w[j] == "--slave":
            slaves.append((w[j + 1], w[j + 2], w[j + 3]))
            j += 4
        out.append((w[i + 1], w[i + 2], w[i + 3], int(w[i + 4]), slaves))
    return out


def apply_alternatives(debfiles, root):
    """What dpkg's update-alternatives does when the postinst scripts run (we run none): for each
    alternative name the highest-priority candidate whose file exists wins (auto mode), linked as
    link -> /etc/alternatives/name -> path, with its slaves."""
    cands = {}
    for deb in debfiles:
        for link, name, path, prio, slaves in postinst_alternatives(deb):
            cands.setdefault(name, []).append((prio, path, link, slaves))
    for name in sorted(cands):
        ok = [c for c in cands[name] if in_root(root, c[1])]
        if not ok:
            log("alternatives: %s: no candidate file exists" % name)
            continue
        prio, path, link, slaves = max(ok, key=lambda c: (c[0], c[1]))
        for l, n, t in [(link, name, path)] + slaves:
            if l != link and not in_root(root, t):
                continue            # dpkg drops a slave whose file is missing
            host_link = os.path.join(root, l.lstrip("/"))
            if os.path.lexists(host_link) and not os.path.islink(host_link):
                log("alternatives: %s is a file, left as it is" % l)
                continue
            alt = os.path.join(root, "etc/alternatives", n)
            os.makedirs(os.path.dirname(alt), exist_ok=True)
            os.makedirs(os.path.dirname(host_link), exist_ok=True)
            for p_, target in ((alt, t), (host_link, "/etc/alternatives/" + n)):
                if os.path.lexists(p_):
                    os.unlink(p_)
                os.symlink(target, p_)
        log("alternative %s -> %s (priority %d of %d candidates)" % (name, path, prio, len(cands[name])))


def check_elf_closure(root):
    """Shared libraries as the guest's ld.so resolves them (guest-images/elf_deps.py): a program
    that could not start, or an OpenCL ICD (dlopen()ed by the name in its .icd file) that could
    not load, fails the build; a plugin outside every program's closure gets a warning."""
    icds = []
    errors = []
    for icd in sorted(glob.glob(os.path.join(root, "etc/OpenCL/vendors/*.icd"))):
        lib = open(icd).read().strip()
        path = elf_deps.dlopen_path(root, lib)
        if path is None:
            errors.append("%s: %s not found" % (os.path.relpath(icd, root), lib))
        else:
            icds.append(path)
    checked, errs, warnings = elf_deps.check_root(root, icds)
    return checked, errors + errs, warnings


def build_rootfs():
    rel = kernel_release()
    root = fresh(os.path.join(WORK, "rootfs"))
    merged_usr(root)
    pk = debs("rootfs")
    t0 = time.time()
    unpack(pk, root)
    parts = debs("part")
    for f in parts:
        unpack_part(f, root)
    log("unpacked %d packages and parts of %d in %.1fs" % (len(pk), len(parts), time.time() - t0))
    apply_alternatives(pk, root)
    for d in ROOTFS_DROP:
        shutil.rmtree(os.path.join(root, d), ignore_errors=True)
    for dp, dn, fn in os.walk(os.path.join(root, "usr/share/doc")):
        for n in fn:
            if n != "copyright":
                os.unlink(os.path.join(dp, n))
    # busybox provides the shell and the basic tools (no dash/coreutils in the image)
    applets = busybox_applets(os.path.join(root, "usr/bin/busybox"))
    for a in applets:
        if a in ("busybox", "init", "linuxrc"):
            continue
        p = os.path.join(root, "usr/bin", a)
        if not os.path.lexists(p) and not os.path.lexists(os.path.join(root, "usr/sbin", a)):
            os.symlink("busybox", p)
    # our init
    install(os.path.join(HERE, "init/lib.sh"), os.path.join(root, "usr/lib/malibu/lib.sh"), 0o644)
    install(os.path.join(HERE, "init/rootfs-init"), os.path.join(root, "usr/lib/malibu/init"))
    os.symlink("../lib/malibu/init", os.path.join(root, "usr/sbin/init"))
    for d, mode in (("dev", 0o755), ("proc", 0o555), ("sys", 0o555), ("run", 0o755),
                    ("tmp", 0o1777), ("root", 0o700), ("mnt", 0o755), ("var/tmp", 0o1777),
                    ("usr/local/bin", 0o755), ("etc", 0o755)):
        os.makedirs(os.path.join(root, d), exist_ok=True)
        os.chmod(os.path.join(root, d), mode)
    etc = os.path.join(root, "etc")
    write(os.path.join(etc, "passwd"), "root:x:0:0:root:/root:/bin/sh\n")
    write(os.path.join(etc, "group"), "root:x:0:\ntty:x:5:\nvideo:x:44:\nrender:x:105:\n")
    write(os.path.join(etc, "hostname"), "malibu\n")
    write(os.path.join(etc, "hosts"), "127.0.0.1 localhost\n127.0.1.1 malibu\n")
    write(os.path.join(etc, "fstab"), "/dev/vda / ext4 rw 0 1\n")
    write(os.path.join(etc, "profile"),
          "export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"
          "export RUSTICL_ENABLE=${RUSTICL_ENABLE:-panfrost,llvmpipe}\n"
          "PS1='malibu:\\w# '\n")
    write(os.path.join(etc, "os-release"),
          'PRETTY_NAME="malibu guest (Debian trixie packages)"\nID=malibu\nID_LIKE=debian\n')
    write(os.path.join(etc, "malibu-release"), "kernel %s\n" % rel)
    # weston on the eLCDIF: the wrapper that sets up udev, the seat and the card
    # (/usr/local/bin comes first in PATH: `--run weston`), and its weston.ini
    install(os.path.join(HERE, "init/weston"), os.path.join(root, "usr/local/bin/weston"))
    install(os.path.join(HERE, "init/weston.ini"), os.path.join(root, "etc/xdg/weston/weston.ini"), 0o644)
    # the OpenCL samples
    for p in sorted(glob.glob(os.path.join(WORK, "apps", "*"))):
        install(p, os.path.join(root, "usr/local/bin", os.path.basename(p)))
    for p in sorted(glob.glob(os.path.join(libs_dir(), "*.so"))):
        install(p, os.path.join(root, "usr/local/lib", os.path.basename(p)), 0o644)
    # the guest channel's header (apps/malibu.h, docs/guest-channel.md) for the guest's programs
    install(os.path.join(HERE, "apps", "malibu.h"), os.path.join(root, "usr/local/include", "malibu.h"), 0o644)
    # manifest of what went in (name=version, from the .debs' file names; parts of packages too)
    names = sorted(urllib.parse.unquote("%s=%s" % tuple(os.path.basename(p).split("_")[:2]))
                   for p in pk + parts)
    write(os.path.join(etc, "malibu-packages"), "\n".join(names) + "\n")
    checked, missing, plugins = check_elf_closure(root)
    for w in plugins[:20]:
        log("WARNING: plugin or unused library: " + w)
    if len(plugins) > 20:
        log("WARNING: %d more unresolved dependencies of plugins or unused libraries" % (len(plugins) - 20))
    if missing:
        sys.exit("build: programs whose shared libraries do not resolve:\n  " + "\n  ".join(missing))
    log("ELF check: %d dynamic ELF files; every program's and ICD's DT_NEEDED closure resolves "
        "(%d warnings)" % (checked, len(plugins)))
    mkext4(root, os.path.join(OUT, "rootfs.ext4"))


def du(root):
    total, n = 0, 0
    for dp, dn, fn in os.walk(root):
        for x in dn + fn:
            st = os.lstat(os.path.join(dp, x))
            total += (st.st_size + 4095) // 4096 * 4096
            n += 1
    return total, n


def mkext4(root, out):
    set_times(root)
    used, nfiles = du(root)
    size_mb = int(used * 1.10 / 2**20) + 64 + int(os.environ.get("ROOTFS_EXTRA_MB", "256"))
    tmp = out + ".part"
    if os.path.exists(tmp):
        os.unlink(tmp)
    open(tmp, "wb").close()
    env = dict(os.environ, E2FSPROGS_FAKE_TIME=str(EPOCH))
    run("mke2fs", "-q", "-F", "-t", "ext4", "-b", "4096", "-m", "0", "-L", "malibu-root",
        "-U", "6d616c69-6275-4000-8000-726f6f746673", "-N", str(nfiles + 16384),
        "-E", "hash_seed=6d616c69-6275-4000-8000-686173680000,root_owner=0:0,lazy_itable_init=0",
        "-d", root, tmp, "%dM" % size_mb, env=env)
    fix_inodes(root, tmp, env)
    replace_out(tmp, out)
    log("rootfs: %d files, %.0f MB used, image %d MB" % (nfiles, used / 2**20, size_mb))


def fix_inodes(root, img, env):
    """mke2fs -d copies each file's owner and ctime from the host: make everything root:root
    (the builder needn't be root) and set ctime to the fixed epoch (reproducible image)."""
    cmds = []
    for dp, dn, fn in os.walk(root):
        for x in sorted(dn + fn):
            g = "/" + os.path.relpath(os.path.join(dp, x), root)
            # the same commands whoever builds: debugfs' write count lands in the superblock
            cmds += ['sif "%s" %s 0' % (g, f) for f in ("uid", "gid", "ctime_extra", "atime_extra")]
            cmds += ['sif "%s" %s @%d' % (g, f, EPOCH) for f in ("ctime", "atime")]
    r = run("debugfs", "-w", "-f", "-", img, input="\n".join(cmds) + "\n", text=True, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    errs = [l for l in r.stderr.splitlines() if l and not l.startswith("debugfs ")]
    if errs:
        sys.exit("build: debugfs: " + "\n".join(errs[:10]))


def main():
    steps = {"kernel": build_kernel, "initramfs": build_initramfs, "initrd": build_initrd,
             "apps": build_apps, "rootfs": build_rootfs}
    if len(sys.argv) < 2 or any(a not in steps for a in sys.argv[1:]):
        sys.exit(__doc__)
    for a in sys.argv[1:]:
        t0 = time.time()
        steps[a]()
        log("%s done in %.1fs" % (a, time.time() - t0))


if __name__ == "__main__":
    main()
