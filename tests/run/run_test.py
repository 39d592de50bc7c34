#!/usr/bin/env python3
"""make run-test: one-command runs of the guest image, end to end.

    run_test.py MALIBU IMAGE_DIR WORKDIR

Boots IMAGE_DIR (Image, initrd.img, rootfs.ext4) with `MALIBU --image` four times:
  1. --run with shell syntax, quotes and variables: exactly the command's output, exit status 7
     passed through (guest init -> "malibu,exit" device -> malibu's exit status);
  2. --share DIR: a static aarch64 program (aarch64-linux-gnu-gcc; a shell script without the
     cross compiler) and a data file in /mnt/host; its output and exit status 5; the guest's writes
     to the share don't reach DIR;
  3. OpenCL: clinfo -l lists rusticl's llvmpipe device; vecadd and saxpy PASS on it;
  4. no --run: the interactive shell on the console (stdin), `exit 3` -> status 3.
"""
import os
import shutil
import subprocess
import sys
import time

TIMEOUT = float(os.environ.get("RUN_TEST_TIMEOUT", "900"))
failures = []


def fail(msg):
    print("run-test: FAIL: " + msg, flush=True)
    failures.append(msg)


def run(malibu, image, extra, what):
    argv = [malibu, "--image", image] + extra
    t0 = time.monotonic()
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        fail("%s: timeout after %gs" % (what, TIMEOUT))
        return None, "", ""
    out = p.stdout.decode("utf-8", "replace").replace("\r\n", "\n")
    err = p.stderr.decode("utf-8", "replace")
    print("run-test: %s: exit status %d in %.1f s" % (what, p.returncode, time.monotonic() - t0),
          flush=True)
    return p.returncode, out, err


def show(out, err):
    for line in out.splitlines()[-40:]:
        print("    | " + line)
    for line in err.splitlines()[-10:]:
        print("    ! " + line)


def test_exit_status(malibu, image):
    cmd = ("x='a  b'; printf '%s|%s|\\n' \"$x\" $HOME; echo \"q'uote \\$x\" `echo back`; "
           "for i in 1 2 3; do printf $i; done; echo; exit 7")
    rc, out, err = run(malibu, image, ["--run", cmd], "--run 'shell syntax; exit 7'")
    want = "a  b|/root|\nq'uote $x back\n123\n"
    if rc != 7:
        fail("--run '...; exit 7': exit status %r, expected 7" % rc)
        show(out, err)
    elif out != want:
        fail("--run output %r, expected exactly %r" % (out, want))
    rc, out, err = run(malibu, image, ["--run", "true"], "--run true")
    if rc != 0 or out != "":
        fail("--run true: status %r, output %r (expected 0, nothing)" % (rc, out))
        show(out, err)


def test_share(malibu, image, work):
    share = os.path.join(work, "share")
    shutil.rmtree(share, ignore_errors=True)
    os.makedirs(share)
    with open(os.path.join(share, "data.txt"), "w") as f:
        f.write("shared data 12345\n")
    gcc = shutil.which("aarch64-linux-gnu-gcc")
    if not gcc:
        fail("aarch64-linux-gnu-gcc not installed (tools/host-packages): no static program to run")
        return
    src = os.path.join(work, "hello.c")
    with open(src, "w") as f:
        f.write('#include <stdio.h>\n#include <stdlib.h>\n'
                'int main(int argc, char **argv)\n'
                '{ printf("hello from aarch64, argc=%d\\n", argc);\n'
                '  return argc > 1 ? atoi(argv[1]) : 0; }\n')
    subprocess.check_call([gcc, "-static", "-O2", "-o", os.path.join(share, "hello"), src])
    want_hello = "hello from aarch64, argc=2"
    before = sorted(os.listdir(share))
    cmd = ("cat /mnt/host/data.txt && echo guest-write > /mnt/host/new.txt && "
           "cat /mnt/host/new.txt && /mnt/host/hello 5")
    rc, out, err = run(malibu, image, ["--share", share, "--run", cmd],
                       "--share DIR --run '/mnt/host/hello 5'")
    lines = out.splitlines()
    if rc != 5:
        fail("--share: exit status %r, expected 5 (the program's)" % rc)
        show(out, err)
    for want in ("shared data 12345", "guest-write", want_hello):
        if want not in lines:
            fail("--share: no line %r in the output" % want)
            show(out, err)
    if sorted(os.listdir(share)) != before:
        fail("--share: the host directory changed: %r" % sorted(os.listdir(share)))


def test_opencl(malibu, image):
    cmd = "export RUSTICL_ENABLE=llvmpipe; clinfo -l && vecadd && saxpy"
    rc, out, err = run(malibu, image, ["--run", cmd], "clinfo -l; vecadd; saxpy (llvmpipe)")
    lines = out.splitlines()
    print("\n".join("    | " + l for l in lines if l.startswith(("Platform", " ")) or
                    l.endswith(("PASS", "FAIL"))), flush=True)
    if rc != 0:
        fail("OpenCL on llvmpipe: exit status %r, expected 0" % rc)
        show(out, err)
    if not any("Platform" in l and "rusticl" in l for l in lines) or \
            not any("Device" in l and "llvmpipe" in l for l in lines):
        fail("clinfo -l does not list rusticl's llvmpipe device")
    for name in ("vecadd", "saxpy"):
        if "%s: PASS" % name not in lines:
            fail("%s did not PASS on llvmpipe" % name)


def test_interactive(malibu, image):
    t0 = time.monotonic()
    p = subprocess.Popen([malibu, "--image", image], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    os.set_blocking(p.stdout.fileno(), False)
    out = b""
    sent = 0
    script = [b"echo inter-$((40+2))\n", b"exit 3\n"]
    deadline = time.monotonic() + TIMEOUT
    while p.poll() is None and time.monotonic() < deadline:
        chunk = p.stdout.read()
        if chunk:
            out += chunk
        elif sent < len(script) and out.count(b"# ") > sent:   # shell prompt "malibu:~# "
            p.stdin.write(script[sent])
            p.stdin.flush()
            sent += 1
        else:
            time.sleep(0.05)
    if p.poll() is None:
        p.kill()
        fail("interactive shell: timeout after %gs" % TIMEOUT)
    p.wait()
    out += p.stdout.read() or b""
    text = out.decode("utf-8", "replace").replace("\r\n", "\n")
    print("run-test: interactive shell: exit status %d in %.1f s"
          % (p.returncode, time.monotonic() - t0), flush=True)
    if p.returncode != 3 or "inter-42\n" not in text:
        fail("interactive shell: status %r (expected 3), 'inter-42' %s" %
             (p.returncode, "seen" if "inter-42\n" in text else "missing"))
        show(text, "")


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    malibu, image, work = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    t0 = time.monotonic()
    test_exit_status(malibu, image)
    test_share(malibu, image, work)
    test_opencl(malibu, image)
    test_interactive(malibu, image)
    print("run-test: %s in %.0f s" % ("%d failure(s)" % len(failures) if failures else "passed",
                                      time.monotonic() - t0))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
