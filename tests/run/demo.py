#!/usr/bin/env python3
"""make run: boot the Debian guest image in build/malibu and run the OpenCL demo.

    demo.py MALIBU IMAGE_DIR [DEVICE]      DEVICE: panfrost (default) or llvmpipe

One `malibu --image IMAGE_DIR --run CMD`: clinfo (brief), then the vecadd and saxpy samples
(guest-images/apps) on rusticl with RUSTICL_ENABLE=DEVICE -- panfrost is the emulated Mali GPU
(Mesa's Bifrost compiler, malibu's shader-core engine), llvmpipe Mesa's CPU device (LLVM
JIT-compiles each kernel to AArch64 code that runs on malibu's emulated CPU).  The guest's output is passed through; each step prints a "== STEP" line,
timed here on the host.  A short report follows.  Exit status: malibu's (= the guest command's:
0 when every sample passed).  $RUN_DEMO_ARGS: more malibu options (e.g. --gpu g52).
$RUN_DEMO_STATS=FILE.json: run with --stats FILE.json, render it with malibu-report (found next
to MALIBU) into FILE.json's directory /report and list its GPU kernels.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import time

STEPS = [
    ("clinfo", "clinfo -l && clinfo | grep -E '^  (Device Name|Device Version|Driver Version|"
               "Max compute units|Global memory size) '"),
    ("vecadd", "vecadd"),
    ("saxpy", "saxpy"),
]


def guest_command(device):
    lines = ["export RUSTICL_ENABLE=%s" % device, "rc=0", 'echo "== guest up: $(uname -sr), '
             '$(nproc) CPU, $(awk \'/MemTotal/ {print int($2/1024)}\' /proc/meminfo) MiB"']
    for name, cmd in STEPS:
        lines.append('echo "== %s"; %s || { echo "== %s failed: $?"; rc=1; }' % (name, cmd, name))
    lines.append('echo "== done"; exit $rc')
    return "\n".join(lines)


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    malibu, image = sys.argv[1], sys.argv[2]
    device = sys.argv[3] if len(sys.argv) > 3 else "panfrost"
    stats = os.environ.get("RUN_DEMO_STATS")
    argv = [malibu, "--image", image] + shlex.split(os.environ.get("RUN_DEMO_ARGS", "")) + \
        (["--stats", stats] if stats else []) + ["--run", guest_command(device)]
    print("make run: %s --image %s --run '<demo: clinfo, vecadd, saxpy on RUSTICL_ENABLE=%s>'"
          % (malibu, image, device), flush=True)
    t0 = time.monotonic()
    marks = []            # (step, host seconds since start)
    results = {}          # sample -> PASS/FAIL
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    for raw in p.stdout:
        sys.stdout.buffer.write(raw)
        sys.stdout.flush()
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        m = re.match(r"== (\w+) failed: (\d+)$", line)
        if m:
            results[m.group(1)] = "FAIL (status %s)" % m.group(2)
        elif re.match(r"== (guest up|clinfo|vecadd|saxpy|done)\b", line):
            marks.append((line[3:].split(":")[0], time.monotonic() - t0))
        m = re.match(r"  Device Name +(.+)$", line)
        if m and "device" not in results:
            results["device"] = m.group(1).strip()
        m = re.match(r"(\w+): (PASS|FAIL)$", line)
        if m and not results.get(m.group(1), "").startswith("FAIL"):
            results[m.group(1)] = m.group(2)
    rc = p.wait()
    total = time.monotonic() - t0

    def at(step):
        for s, t in marks:
            if s == step:
                return t
        return None

    print("\n== make run report")
    rel = os.path.join(image, "kernel.release")
    print("  what:    Debian trixie arm64 guest (Linux %s) on %s, 1 vCPU; Mesa rusticl on %s"
          % (open(rel).read().strip() if os.path.exists(rel) else "?", malibu,
             "llvmpipe (CPU device: LLVM JIT-compiles the kernels for the emulated CPU)"
             if device == "llvmpipe" else "%s: %s (Mesa's Bifrost compiler, malibu's GPU)"
             % (device, results.get("device", "?"))))
    up = at("guest up")
    print("  %-8s %s  (malibu start -> the command's first line)"
          % ("boot:", "%5.1f s" % up if up is not None else "did not finish"))
    names = [s for s, _ in STEPS] + ["done"]
    for i, name in enumerate(names[:-1]):
        a, b = at(name), at(names[i + 1])
        verdict = results.get(name, "ok" if name == "clinfo" and b is not None else "?")
        print("  %-8s %s  %s%s" % (name + ":", "%5.1f s" % (b - a) if a is not None and b is not None
                                   else "    ? s", verdict, "  (first OpenCL use: Mesa and LLVM "
                                   "read from disk and translated)" if name == "clinfo" else ""))
    print("  %-8s %5.1f s  wall, malibu exit status %d%s"
          % ("total:", total, rc, "" if rc else " (all passed)"))
    if stats and os.path.exists(stats):
        out = os.path.join(os.path.dirname(os.path.abspath(stats)), "report")
        report = os.path.join(os.path.dirname(malibu), "malibu-report")
        r = subprocess.run([report, stats, "-o", out])
        print("  %-8s %s (JSON: %s)" % ("report:", os.path.join(out, "index.html")
                                        if r.returncode == 0 else "malibu-report failed", stats))
        print_kernels(stats)
        rc = rc or r.returncode
    return rc


def print_kernels(path):
    """The GPU kernels of the --stats report: one line each (programs are told apart by their
    code, so two samples whose shaders the driver put at the same GPU address are two lines)."""
    try:
        with open(path) as f:
            gpu = json.load(f)["gpu"]
    except (OSError, ValueError, KeyError) as e:
        print("  %-8s cannot read %s: %s" % ("kernels:", path, e))
        return
    kernels = gpu.get("kernels", [])
    print("  %-8s %d GPU kernel%s, %d shader job%s" % ("kernels:", len(kernels), "" if len(kernels) == 1 else "s",
                                                       len(gpu.get("shader_jobs", [])),
                                                       "" if len(gpu.get("shader_jobs", [])) == 1 else "s"))
    for k in kernels:
        t = k["totals"]
        print("    %d: %s code %s (%d clauses, %d bytes): %d job%s %s, %d clause executions, %d thread instructions"
              % (k["id"], k["name"], k.get("code_hash", "?")[:8], k.get("code_clauses", 0), k.get("code_bytes", 0),
                 k["jobs"], "" if k["jobs"] == 1 else "s", k.get("job_ids", []), t["clause_executions"],
                 t["thread_instructions"]))


if __name__ == "__main__":
    sys.exit(main())
