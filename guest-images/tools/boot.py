#!/usr/bin/env python3
"""Boot a guest image in an emulator, run one command, return its exit status.

    boot.py [--image initramfs|initrd] [--timeout S] [--append EXTRA] [--] COMMAND...
    boot.py --emulator 'build/malibu --kernel {kernel} --initrd {initrd} --append {append}' ...

The command goes to the guest as malibu.run64=<base64> (see guest-images/README.md); the console
is copied to stdout and scanned for MALIBU_EXIT=<n>, which becomes this script's exit status.
No command: boots to the interactive shell (console passed through).  Exit 124 on timeout, 125
if the emulator ended without a MALIBU_EXIT line.  Placeholders in --emulator: {kernel},
{initrd}, {rootfs}, {append} (each one argument; the template is split like a shell would).
"""
import argparse
import base64
import os
import re
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.environ.get("GUEST_OUT", os.path.join(HERE, "out"))
DEFAULT_EMU = os.environ.get(
    "MALIBU_EMULATOR", "build/malibu --kernel {kernel} --initrd {initrd} --append {append}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--image", choices=("initramfs", "initrd"), default="initramfs")
    ap.add_argument("--emulator", default=DEFAULT_EMU)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--append", default="console=ttyAMA0 panic=-1",
                    help="kernel parameters besides ours (panic=-1: a panic ends the run)")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    append = a.append
    if cmd:
        append += " malibu.run64=" + base64.b64encode(" ".join(cmd).encode()).decode()
    files = {"kernel": os.path.join(OUT, "Image"), "rootfs": os.path.join(OUT, "rootfs.ext4"),
             "initrd": os.path.join(OUT, "initramfs-busybox.cpio.gz" if a.image == "initramfs"
                                    else "initrd.img"), "append": append}
    argv = [w.format(**files) for w in shlex.split(a.emulator)]
    if not cmd:
        os.execvp(argv[0], argv)
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL)
    deadline = time.time() + a.timeout
    status = None
    os.set_blocking(p.stdout.fileno(), False)
    buf = b""
    while True:
        if time.time() > deadline:
            p.kill()
            print("boot.py: timeout after %gs" % a.timeout, file=sys.stderr)
            return 124
        chunk = p.stdout.read()
        if chunk:
            sys.stdout.buffer.write(chunk)
            sys.stdout.flush()
            buf = (buf + chunk)[-4096:]
            m = re.search(rb"MALIBU_EXIT=(\d+)\r?\n", buf)
            if m and status is None:
                status = int(m.group(1))
                # the guest powers off next; don't wait for ever if the emulator doesn't exit
                deadline = min(deadline, time.time() + 30)
        elif p.poll() is not None:
            break
        else:
            time.sleep(0.02)
    if status is None:
        print("boot.py: emulator exited (%s) without MALIBU_EXIT" % p.returncode, file=sys.stderr)
        return 125
    return status


if __name__ == "__main__":
    sys.exit(main())
