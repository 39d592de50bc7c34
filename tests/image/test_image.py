#!/usr/bin/env python3
"""Checks of the guest images in GUEST_OUT, $(IMAGE_OUT) (`make image-test`; GUEST_OUT, GUEST_STACK and
GUEST_LOCK name another stack's images and lock).  Runs no arm64 code: archives are parsed on the
host, rootfs.ext4 is inspected with e2fsck/debugfs, the init scripts' command-line parsing runs
under the host's sh/awk.  The versions expected (kernel release, Mesa) are the lock's."""
import base64
import os
import re
import shutil
import stat
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GI = os.path.join(ROOT, "guest-images")
OUT = os.environ.get("GUEST_OUT", os.path.join(GI, "out"))
STACK = os.environ.get("GUEST_STACK", "backports")
LOCK = os.environ.get("GUEST_LOCK", os.path.join(
    GI, "packages.lock" if STACK == "stable" else "packages-backports.lock"))
sys.path.insert(0, os.path.join(GI, "tools"))
sys.path.insert(0, GI)
import mkcpio  # noqa: E402

failures = []
passes = 0


def lock_entries():
    """{package name: version} of the lock's entries."""
    pins = {}
    for line in open(LOCK):
        if line.startswith("#") or not line.strip():
            continue
        name, _, version = line.split()[0].partition("=")
        pins[name] = version
    return pins


def lock_kernel_release():
    """The kernel release the lock pins: linux-image-<release> (Linux 6.x) or
    linux-binary-<release> (Linux 7.x splits the kernel into -binary, -modules, -base)."""
    for name in lock_entries():
        m = re.fullmatch(r"linux-(?:image|binary)-(\d+\.\d+\.\d+\S*-arm64)", name)
        if m:
            return m.group(1)
    return None


def lock_mesa_version():
    """Mesa's upstream version (25.0.7, 26.1.6) from the pinned mesa-libgallium."""
    v = lock_entries().get("mesa-libgallium", "")
    m = re.match(r"(?:\d+:)?(\d+\.\d+\.\d+)", v)
    return m.group(1) if m else None


def check(cond, what):
    global passes
    if cond:
        passes += 1
    else:
        failures.append(what)
        print("FAIL: " + what)


def elf_info(data):
    """(e_machine, has PT_INTERP) of an ELF64 LE image, or None."""
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return None
    machine, = struct.unpack_from("<H", data, 0x12)
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    interp = any(struct.unpack_from("<I", data, phoff + i * phentsize)[0] == 3 for i in range(phnum))
    return machine, interp


EM_AARCH64 = 183


def test_kernel():
    img = os.path.join(OUT, "Image")
    with open(img, "rb") as f:
        hdr = f.read(64)
    check(hdr[0x38:0x3c] == b"ARM\x64", "Image: arm64 magic 'ARM\\x64' at 0x38")
    _, image_size, flags = struct.unpack_from("<QQQ", hdr, 8)
    check(image_size >= os.path.getsize(img), "Image: header image_size covers the file")
    check(flags & 1 == 0, "Image: little-endian kernel")
    rel = open(os.path.join(OUT, "kernel.release")).read().strip()
    # unmodified: byte-identical to the vmlinuz of the pinned package (Linux 6.x: linux-image-<rel>,
    # boot/vmlinuz-<rel>; Linux 7.x: linux-binary-<rel>, usr/lib/modules/<rel>/vmlinuz)
    fetch_env = dict(os.environ, GUEST_STACK=STACK, GUEST_LOCK=LOCK)
    debs = subprocess.run([sys.executable, os.path.join(GI, "fetch"), "list", "kernel"],
                          stdout=subprocess.PIPE, text=True, env=fetch_env).stdout.split()
    found = None
    for prefix, member in (("linux-image-", "./boot/vmlinuz-" + rel),
                           ("linux-binary-", "./usr/lib/modules/%s/vmlinuz" % rel)):
        deb = [p for p in debs if os.path.basename(p).startswith(prefix + rel + "_")]
        if deb:
            found = (deb[0], member)
    if found:
        r = subprocess.run("dpkg-deb --fsys-tarfile '%s' | tar -xO '%s' | sha256sum" % found,
                           shell=True, stdout=subprocess.PIPE, text=True)
        h = subprocess.run(["sha256sum", img], stdout=subprocess.PIPE, text=True).stdout.split()[0]
        check(r.stdout.split()[0] == h, "Image is %s from %s, unmodified"
              % (found[1], os.path.basename(found[0])))
    else:
        check(False, "kernel package for %s in %s" % (rel, os.path.basename(LOCK)))
    check(rel == lock_kernel_release(), "kernel release %s is the lock's (%s)"
          % (rel, lock_kernel_release()))
    if STACK == "stable":
        check(re.fullmatch(r"6\.12\.\d+\+deb13-arm64", rel) is not None, "kernel release 6.12.*-arm64")
    else:
        major_minor = tuple(int(x) for x in rel.split(".")[:2])
        check(major_minor >= (6, 13), "backports kernel %s newer than 6.12 (panfrost 1.3+: GPU "
              "timestamps)" % rel)
    moddir = os.path.join(OUT, "modules", rel)
    for m in ("drivers/virtio/virtio_mmio", "drivers/block/virtio_blk", "fs/ext4/ext4",
              "drivers/gpu/drm/panfrost/panfrost"):
        check(os.path.exists(os.path.join(moddir, "kernel", m + ".ko.xz")), "modules tree: " + m)
    cfg = open(os.path.join(OUT, "config")).read()
    for opt in ("CONFIG_BLK_DEV_INITRD=y", "CONFIG_RD_GZIP=y", "CONFIG_DEVTMPFS=y"):
        check(opt in cfg, "kernel config " + opt)
    return rel


def cpio_checks(path, what):
    ents = {name: (mode, uid, gid, body, rdev)
            for name, mode, uid, gid, body, rdev in mkcpio.read_entries(path)}
    check(all(e[1] == 0 and e[2] == 0 for e in ents.values()), what + ": everything owned by 0:0")
    init = ents.get("init")
    check(init is not None and stat.S_ISREG(init[0]) and init[0] & 0o111, what + ": /init executable")
    check(init is not None and init[3].startswith(b"#!/bin/sh\n"), what + ": /init is a sh script")
    bb = ents.get("bin/busybox")
    info = elf_info(bb[3]) if bb else None
    check(info == (EM_AARCH64, False), what + ": /bin/busybox is a static arm64 ELF")
    for a in ("sh", "mount", "poweroff", "switch_root", "insmod", "awk", "base64", "setsid"):
        e = ents.get("bin/" + a)
        check(e is not None and stat.S_ISLNK(e[0]) and e[3] == b"busybox",
              what + ": /bin/%s -> busybox" % a)
    con = ents.get("dev/console")
    check(con is not None and stat.S_ISCHR(con[0]) and con[4] == (5, 1),
          what + ": /dev/console is char 5,1")
    check("lib/malibu/lib.sh" in ents, what + ": /lib/malibu/lib.sh")
    # every symlink target inside the archive exists
    for name, e in ents.items():
        if stat.S_ISLNK(e[0]):
            t = os.path.normpath(os.path.join(os.path.dirname(name), e[3].decode()))
            while t in ents and stat.S_ISLNK(ents[t][0]):
                t = os.path.normpath(os.path.join(os.path.dirname(t), ents[t][3].decode()))
            check(t in ents, what + ": symlink %s resolves" % name)
    return ents


def test_cpio_host_tool(path):
    """Cross-check our newc writer with GNU cpio (tools/host-packages)."""
    c = shutil.which(os.environ.get("CPIO", "cpio"))
    check(c is not None, "GNU cpio installed (tools/host-packages) for the cross-check")
    if not c:
        return
    r = subprocess.run("gzip -dc '%s' | '%s' -it" % (path, c), shell=True,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    names = set(r.stdout.split())
    check(r.returncode == 0 and {"init", "bin/busybox", "dev/console"} <= names,
          "GNU cpio lists init, bin/busybox, dev/console in " + os.path.basename(path))


def modinfo_depends(data):
    from build import modinfo
    return [d for v in modinfo(data).get("depends", []) for d in v.split(",") if d]


def test_initramfs():
    p = os.path.join(OUT, "initramfs-busybox.cpio.gz")
    ents = cpio_checks(p, "initramfs-busybox")
    check(b"run_or_shell" in ents["init"][3], "initramfs /init runs the command or a shell")
    test_cpio_host_tool(p)


def test_initrd(rel):
    p = os.path.join(OUT, "initrd.img")
    ents = cpio_checks(p, "initrd.img")
    check(b"switch_root" in ents["init"][3], "initrd /init switch_roots")
    order = [l for l in ents["etc/malibu/modules"][3].decode().splitlines()
             if l and not l.startswith("#")]
    names = [os.path.basename(l)[:-3] for l in order]
    for m in ("virtio_mmio", "virtio_blk", "jbd2", "mbcache", "crc16", "ext4",
              "drm", "gpu_sched", "drm_shmem_helper", "panfrost"):
        check(m in names, "initrd loads " + m)
    # ext4's crc32c: crc32c_generic up to Linux 6.x, crc32c_cryptoapi from 6.15 on
    check("crc32c_generic" in names or "crc32c_cryptoapi" in names,
          "initrd loads crc32c_generic or crc32c_cryptoapi")
    for i, l in enumerate(order):
        e = ents.get("lib/modules/" + l)
        check(e is not None, "initrd has lib/modules/" + l)
        if e is None:
            continue
        check(elf_info(e[3]) == (EM_AARCH64, False), "%s is an uncompressed arm64 module" % l)
        check(l.startswith(rel + "/"), "%s is for kernel %s" % (l, rel))
        for d in modinfo_depends(e[3]):
            d = d.replace("-", "_")
            check(d in names[:i], "initrd: %s loaded before %s" % (d, names[i]))


def debugfs(img, req):
    r = subprocess.run(["debugfs", "-R", req, img], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, errors="replace")
    return r.stdout, r.stderr


def test_rootfs():
    img = os.path.join(OUT, "rootfs.ext4")
    r = subprocess.run(["e2fsck", "-fn", img], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    check(r.returncode == 0, "rootfs.ext4: e2fsck -fn clean (%s)" % r.stdout.strip().splitlines()[-1])
    want = {
        "/usr/lib/aarch64-linux-gnu/libRusticlOpenCL.so.1": "rusticl",
        "/usr/lib/aarch64-linux-gnu/libOpenCL.so.1": "ICD loader",
        "/etc/OpenCL/vendors/rusticl.icd": "rusticl ICD file",
        "/usr/bin/clinfo": "clinfo",
        "/usr/bin/clpeak": "clpeak",
        "/usr/bin/busybox": "busybox",
        "/usr/bin/sh": "sh",
        "/usr/sbin/init": "init",
        "/usr/lib/malibu/init": "guest init",
        "/usr/lib/malibu/lib.sh": "guest init library",
        "/usr/local/bin/vecadd": "vecadd sample",
        "/usr/lib/ld-linux-aarch64.so.1": "dynamic linker",
        "/usr/lib/aarch64-linux-gnu/libc.so.6": "libc",
        "/usr/lib/aarch64-linux-gnu/libLLVM.so.19.1": "LLVM 19",
        "/usr/lib/aarch64-linux-gnu/libclang-cpp.so.19.1": "clang-cpp 19",
        "/usr/lib/aarch64-linux-gnu/libLLVMSPIRVLib.so.19.1": "SPIR-V translator",
        "/usr/lib/clc/spirv64-mesa3d-.spv": "libclc SPIR-V",
        "/usr/lib/aarch64-linux-gnu/libdrm.so.2": "libdrm",
        "/usr/bin/hashcat": "hashcat",
        "/usr/share/hashcat/OpenCL/m00000_a3-optimized.cl": "hashcat's MD5 kernel",
        "/usr/lib/aarch64-linux-gnu/libEGL.so.1": "libEGL (piglit's util library)",
        "/usr/lib/aarch64-linux-gnu/piglit/bin/cl-program-tester": "piglit's OpenCL program runner",
        "/usr/lib/aarch64-linux-gnu/piglit/lib/libpiglitutil_cl.so.0": "piglit's OpenCL library",
        "/usr/lib/aarch64-linux-gnu/piglit/tests/cl.xml.gz": "piglit's OpenCL profile",
        "/usr/lib/aarch64-linux-gnu/piglit/tests/cl/program/execute/sha256-Ch.cl": "a piglit test",
        "/usr/lib/aarch64-linux-gnu/piglit/generated_tests/cl/builtin/int/builtin-int-abs-1.0.generated.cl":
            "a generated piglit test",
        "/usr/local/lib/libcl_kernel_wg_bound.so": "the OpenCL work-group bound layer",
        "/usr/bin/eglinfo": "eglinfo",
        "/usr/lib/aarch64-linux-gnu/libGLESv2.so.2": "libGLESv2",
        "/usr/local/bin/gles_scene": "the GLES sample scene",
        "/usr/lib/aarch64-linux-gnu/piglit/bin/shader_runner_gles3": "piglit's GLES 3 shader runner",
        "/usr/lib/aarch64-linux-gnu/piglit/bin/oes_texture_float": "a piglit GLES program",
        "/usr/lib/aarch64-linux-gnu/piglit/lib/libpiglitutil_gles2.so.0": "piglit's GLES 2 library",
        "/usr/lib/aarch64-linux-gnu/piglit/tests/shader.xml.gz": "piglit's shader profile",
        "/usr/lib/aarch64-linux-gnu/piglit/tests/spec/glsl-es-3.00/execution/sanity.shader_test":
            "a GLES shader test",
    }
    for path, what in want.items():
        out, err = debugfs(img, "stat " + path)
        check("Inode:" in out, "rootfs.ext4 has %s (%s)" % (path, what))
        if "Inode:" in out:
            check(re.search(r"User:\s+0\s+Group:\s+0", out) is not None, path + " owned by 0:0")
    mesa = lock_mesa_version() or "?"
    gallium = r"libgallium-%s-\S+\.so" % re.escape(mesa)
    out, _ = debugfs(img, "ls -l /usr/lib/aarch64-linux-gnu")
    check(re.search(gallium, out) is not None, "rootfs.ext4: Mesa %s libgallium" % mesa)
    out, _ = debugfs(img, "ls -l /")
    check(re.search(r"\bbin\b", out) is not None and re.search(r"\blib\b", out) is not None,
          "rootfs.ext4: /bin and /lib (merged /usr symlinks)")
    # only piglit's OpenCL and GLES parts: not its desktop GL tests, nor the interop runner
    for path in ("/usr/lib/aarch64-linux-gnu/piglit/tests/spec/glsl-1.10",
                 "/usr/lib/aarch64-linux-gnu/piglit/bin/cl-interop-egl_khr_cl_event2",
                 "/usr/lib/aarch64-linux-gnu/piglit/bin/shader_runner"):
        out, _ = debugfs(img, "stat " + path)
        check("Inode:" not in out, "rootfs.ext4 has no %s (piglit: OpenCL and GLES parts only)" % path)
    out, _ = debugfs(img, "cat /etc/malibu-packages")
    for p in ("mesa-opencl-icd=" + mesa, "mesa-libgallium=" + mesa, "ocl-icd-libopencl1=",
              "clinfo=", "clpeak=", "busybox-static=", "libc6=", "hashcat=", "piglit="):
        check(p in out, "rootfs.ext4 manifest lists " + p)
    # the panfrost and llvmpipe drivers are in libgallium
    name = re.search(gallium, debugfs(img, "ls /usr/lib/aarch64-linux-gnu")[0])
    if name:
        r = subprocess.run(["debugfs", "-R", "cat /usr/lib/aarch64-linux-gnu/" + name.group(0), img],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        check(b"panfrost" in r.stdout and b"llvmpipe" in r.stdout,
              "libgallium contains the panfrost and llvmpipe drivers")
    r = subprocess.run(["debugfs", "-R", "cat /usr/local/bin/vecadd", img],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    check(elf_info(r.stdout) == (EM_AARCH64, True), "vecadd is a dynamic arm64 executable")


def test_lock():
    lock = os.path.basename(LOCK)
    r = subprocess.run([sys.executable, os.path.join(GI, "fetch"), "verify", "rootfs", "boot", "kernel", "sdk"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       env=dict(os.environ, GUEST_STACK=STACK, GUEST_LOCK=LOCK))
    check(r.returncode == 0, "every .deb in %s is cached with its SHA256: %s" % (lock, r.stdout.strip()))
    lines = [l.split() for l in open(LOCK) if not l.startswith("#")]
    names = [l[0].split("=")[0] for l in lines]
    check(names == sorted(names) and len(set(names)) == len(names), lock + " sorted, unique")
    check(all(len(l) == 6 and re.fullmatch(r"[0-9a-f]{64}", l[3]) for l in lines),
          lock + " lines: name=version arch size sha256 file groups")
    groups = {}
    for l in lines:
        for g in l[5].split(","):
            groups.setdefault(g, set()).add(l[0].split("=")[0])
    for line in open(os.path.join(GI, "packages.list")):
        w = line.split("#", 1)[0].split()
        if not w:
            continue
        for p in w[1:]:
            if p == "nodeps":
                continue
            if p == "linux-image-arm64":
                ok = any(re.fullmatch(r"linux-(?:image|binary)-\d+\.\d+\.\S+-arm64", n)
                         for n in groups.get(w[0], ()))
            else:
                ok = p in groups.get(w[0], ())
            check(ok, "%s group %s has %s" % (lock, w[0], p))


def test_cmdline():
    """The init scripts' kernel-command-line parsing, run with the host's sh and awk."""
    lib = os.path.join(GI, "init", "lib.sh")
    for s in ("lib.sh", "initramfs-init", "initrd-init", "rootfs-init"):
        r = subprocess.run(["sh", "-n", os.path.join(GI, "init", s)])
        check(r.returncode == 0, "sh -n " + s)
    cases = [
        ('console=ttyAMA0 malibu.run="echo hi  there" quiet', "malibu.run", "echo hi  there"),
        ("malibu.run=clinfo", "malibu.run", "clinfo"),
        ("root=/dev/vda malibu.keep", "malibu.keep", "1"),
        ("malibu.runx=1 quiet", "malibu.run", ""),
        ("malibu.run64=ZWNobyAiYSBiIg== rw", "malibu.run64", "ZWNobyAiYSBiIg=="),
        ('a malibu.run="vecadd 1024 rusticl" malibu.root=/dev/vdb', "malibu.root", "/dev/vdb"),
    ]
    tmp = os.path.join(os.environ.get("TMPDIR", "/tmp"), "malibu-cmdline-%d" % os.getpid())
    try:
        for line, key, want in cases:
            with open(tmp, "w") as f:
                f.write(line + "\n")
            r = subprocess.run(["sh", "-c", '. "$1"; cmdline_get "$2"', "sh", lib, key],
                               stdout=subprocess.PIPE, text=True,
                               env=dict(os.environ, MALIBU_CMDLINE_FILE=tmp))
            check(r.stdout.rstrip("\n") == want,
                  "cmdline_get %s from %r = %r (got %r)" % (key, line, want, r.stdout))
        # run_or_shell: command output, the exit-status marker, then poweroff (stubbed here)
        runs = [('malibu.run="echo hi; exit 3"', "hi\n", 3),
                ("malibu.run64=%s" % base64.b64encode(b'printf "%s|" "a b" \'c\'').decode(),
                 "a b|c|", 0),
                ("malibu.run=false", "", 1)]
        for line, out, rc in runs:
            with open(tmp, "w") as f:
                f.write("console=ttyAMA0 " + line + "\n")
            con = tmp + ".console"
            open(con, "w").close()
            r = subprocess.run(["sh", "-c", '. "$1"; poweroff() { echo POWEROFF "$@"; exit 0; }; '
                                'sync() { :; }; run_or_shell test', "sh", lib],
                               stdout=subprocess.PIPE, text=True,
                               env=dict(os.environ, MALIBU_CMDLINE_FILE=tmp, MALIBU_CONSOLE=con))
            got = open(con).read()
            os.unlink(con)
            lines = r.stdout.splitlines()
            check(lines[:1] == ["MALIBU_BOOT_OK test"] and "MALIBU_EXIT=%d" % rc in lines
                  and lines[-1] == "POWEROFF -f" and got == out,
                  "run_or_shell with %s: output %r, MALIBU_EXIT=%d, poweroff -f (got %r, %r)"
                  % (line, out, rc, r.stdout, got))
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def main():
    rel = test_kernel()
    test_initramfs()
    test_initrd(rel)
    test_rootfs()
    test_lock()
    test_cmdline()
    sizes = ", ".join("%s %.1f MB" % (n, os.path.getsize(os.path.join(OUT, n)) / 1e6)
                      for n in ("Image", "initramfs-busybox.cpio.gz", "initrd.img", "rootfs.ext4"))
    print("image-test: %d checks passed, %d failed (%s)" % (passes, len(failures), sizes))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
