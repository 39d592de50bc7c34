#!/usr/bin/env python3
"""clock-icount-test: --clock icount makes every guest-visible time reproducible (issue 37, items 4
and 5; docs/gpu.md "Deterministic guest time").

The same boot + OpenCL `profiling` + `pointer_chase` run, with --clock icount --smp 2 --smp-mode rr
--gpu-time model, three times: on an idle host, with two busy-looping host processes (one per host
core) and a different --gpu-threads, and idle again.  Required:
  - the guest's whole console output is identical in the three runs: the samples' figures
    (QUEUED/SUBMIT/START/END of every profiled kernel, ns per load, the guest's wall-clock time of
    the run), the guest's uptime and its timer interrupt counts, the date (the RTC's fixed epoch);
  - the --stats report's per-vCPU instruction, exception and IRQ counts and its whole "gpu"
    section (jobs, registers, IRQs, totals, kernels) are identical;
  - the samples PASS and their figures are above 0.
And the option's checks refuse what cannot be deterministic (--smp 2 without rr, --icount-shift
without icount), naming the option.

usage: icount_test.py MALIBU IMAGE_DIR"""
import json
import os
import subprocess
import sys
import tempfile
import time

GUEST = ("RUSTICL_ENABLE=panfrost profiling; echo profiling-status $?; "
         "RUSTICL_ENABLE=panfrost pointer_chase 64 16384 2 8K 64K; echo chase-status $?; "
         "cat /proc/uptime; date -u; grep -E 'arch_timer|panfrost' /proc/interrupts")
BASE = ["-m", "2G", "--gpu", "g52", "--display", "none", "--clock", "icount", "--smp", "2",
        "--smp-mode", "rr", "--gpu-time", "model"]
# Host seconds one run may take: measured 115-136 s beside the busy loops on 2 cores, 16-77 s
# without (the machine shared with other jobs, load average ~10); about 3x the longest.
RUN_TIMEOUT = 400


def run(malibu, image, stats, busy, gpu_threads):
    hogs = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(2)] if busy else []
    try:
        t0 = time.time()
        p = subprocess.run([malibu, *BASE, "--image", image, "--gpu-threads", str(gpu_threads),
                            "--stats", stats, "--run", GUEST],
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=RUN_TIMEOUT)
        dt = time.time() - t0
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace"), dt


def stable_stats(path):
    """What of the report must repeat: per-vCPU counts of guest events, and the GPU section but for
    mmu.translations (page walks of the engine threads' own translation caches: one per thread
    and page, so it follows --gpu-threads, which the busy run changes; measured 64 with 2 threads)."""
    d = json.load(open(path))
    cpus = [{k: c[k] for k in ("index", "instructions", "exceptions", "irqs", "exceptions_by_class")}
            for c in d["cpu"]["cpus"]]
    gpu = dict(d["gpu"])
    gpu["mmu"] = {k: v for k, v in gpu["mmu"].items() if k != "translations"}
    return {"cpus": cpus, "gpu": gpu}


def refused(malibu, args, want):
    p = subprocess.run([malibu, *args, "--kernel", "/dev/null"], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
    err = p.stderr.decode(errors="replace")
    ok = p.returncode != 0 and want in err
    print("  %s: %s" % (" ".join(args), "refused" if ok else "NOT refused as expected: %r" % err.strip()))
    return ok


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    malibu, image = sys.argv[1:]
    bad = []
    print("== option checks")
    if not refused(malibu, ["--clock", "icount", "--smp", "2"], "--clock icount: with --smp 2 or more needs --smp-mode rr"):
        bad.append("--clock icount --smp 2 (threads) accepted")
    if not refused(malibu, ["--icount-shift", "3"], "--icount-shift: needs --clock icount"):
        bad.append("--icount-shift without --clock icount accepted")
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (busy, threads) in enumerate([(False, 2), (True, 1), (False, 2)]):
            stats = os.path.join(tmp, "stats%d.json" % i)
            rc, out, err, dt = run(malibu, image, stats, busy, threads)
            print("== run %d (%s host, --gpu-threads %d): exit %d, %.1f s" %
                  (i + 1, "busy" if busy else "idle", threads, rc, dt))
            for line in out.splitlines():
                if any(k in line for k in ("profiling: N:", "profiling: 4N:", "ns_per_load", "wall_ns",
                                           "status", "UTC", "arch_timer")) or line[:1].isdigit():
                    print("   ", line.rstrip())
            if rc != 0:
                bad.append("run %d exited %d: %s" % (i + 1, rc, err.strip()[-400:]))
                continue
            runs.append((out, stable_stats(stats)))
    if len(runs) == 3:
        out0, st0 = runs[0]
        for want in ("profiling-status 0", "chase-status 0", "profiling: PASS", "pointer_chase: PASS"):
            if want not in out0:
                bad.append("run 1 lacks %r" % want)
        loads = [float(l.split("ns_per_load=")[1]) for l in out0.splitlines() if "ns_per_load=" in l]
        if len(loads) != 2 or min(loads) <= 0:
            bad.append("pointer_chase ns_per_load figures: %r" % loads)
        up = [l for l in out0.splitlines() if l[:1].isdigit() and "." in l.split()[0]]
        if not up or float(up[0].split()[0]) <= 0:
            bad.append("guest uptime not above 0: %r" % up)
        for i, (out, st) in enumerate(runs[1:], 2):
            if out != out0:
                a, b = out0.splitlines(), out.splitlines()
                diff = [(x, y) for x, y in zip(a, b) if x != y][:3]
                bad.append("console output of run %d differs from run 1 (%d vs %d lines), first: %r" %
                           (i, len(a), len(b), diff))
            if st != st0:
                keys = [k for k in ("cpus", "gpu") if st[k] != st0[k]]
                sub = [k for k in st0["gpu"] if st["gpu"].get(k) != st0["gpu"][k]]
                bad.append("--stats of run %d differs from run 1 in %s (gpu: %s)" % (i, keys, sub))
        if not bad:
            print("== identical in 3 runs: %d console lines, %d vCPU instructions, %d GPU warp instructions" %
                  (len(out0.splitlines()), sum(c["instructions"] for c in st0["cpus"]),
                   st0["gpu"]["totals"]["warp_instructions"]))
    for b in bad:
        print("FAIL:", b)
    print("clock-icount-test: %s" % ("FAIL" if bad else "PASS"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
