#!/usr/bin/env python3
"""checkpoint-test: a board saved where the guest asks (`malibu checkpoint`) resumes exactly
(issue 37; docs/checkpoint.md).

1. Save: boot, clinfo, `malibu checkpoint` (prints 0), then in the same run `malibu stats-reset`,
   vecadd, saxpy, `malibu stats-dump work`: the uninterrupted run.
2. Resume it twice with --run 'the same commands' and two --timing configurations: the saved
   `malibu checkpoint` returns 1 in the guest, fetches the command, runs it and ends the run with
   its status.  vecadd and saxpy PASS, and the dump's GPU totals (jobs, clause executions, warp and
   thread instructions) equal the uninterrupted run's, while the timing counts of the two
   configurations differ (32-byte GPU L1 lines miss twice as often as the preset's 64).
3. --smp 4 --smp-mode rr --clock icount: saved after boot, then the same commands (uptime, timer
   interrupt counts, the date, a checksum of a CPU-bound loop) in the saving run and in the resumed
   one (no --run: `malibu checkpoint` prints 1 and the script goes on): the guest's console output
   after the checkpoint is identical.

usage: checkpoint_test.py MALIBU IMAGE_DIR WORK_DIR"""
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MALIBU_C = os.path.join(HERE, "..", "..", "guest-images", "apps", "malibu.c")
CROSS = os.environ.get("CROSS_COMPILE", "aarch64-linux-gnu-")
M = "/mnt/host/malibu"
WORK = "%s stats-reset; RUSTICL_ENABLE=panfrost vecadd; RUSTICL_ENABLE=panfrost saxpy; %s stats-dump work" % (M, M)
SAVE_GPU = "RUSTICL_ENABLE=panfrost clinfo >/dev/null; echo clinfo $?; %s checkpoint; %s" % (M, WORK)
SMP_CMDS = ("cat /proc/uptime; grep arch_timer /proc/interrupts; date -u; "
            "i=0; s=0; while [ $i -lt 3000 ]; do s=$(( (s * 31 + i) % 1000003 )); i=$((i+1)); done; echo sum $s")
SAVE_SMP = "%s checkpoint; %s" % (M, SMP_CMDS)
BASE = ["-m", "2G", "--gpu", "g52", "--display", "none"]
SMP = ["--smp", "4", "--smp-mode", "rr", "--clock", "icount"]
TIMING = ["preset=g52", "preset=g52,gpu.l1.line=32"]
# Host seconds one run may take: the saving runs measured ~25 s, resumed ones ~10 s on 2 cores;
# about 8x, for a loaded host.
RUN_TIMEOUT = 240


def run(malibu, args, what):
    t0 = time.time()
    p = subprocess.run([malibu, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=RUN_TIMEOUT)
    out, err = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    print("== %s: exit %d, %.1f s" % (what, p.returncode, time.time() - t0))
    for line in err.splitlines():
        if "checkpoint" in line:
            print("   ", line.strip())
    return p.returncode, out.replace("\r\n", "\n"), err


def dump(stats):
    d = json.load(open(stats))
    dumps = [x for x in d["roi"]["dumps"] if x["tag"] == "work"]
    return dumps[0] if dumps else None


def gpu_totals(dp):
    g = dp["gpu"]
    return {k: g[k] for k in ("jobs", "clause_executions", "thread_clause_executions", "warp_instructions",
                              "thread_instructions")}


def after(out, marker):
    """The console output after the line holding marker (None if absent)."""
    i = out.find(marker)
    return None if i < 0 else out[out.index("\n", i) + 1:]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    malibu, image, work = sys.argv[1:]
    share = os.path.join(work, "share")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(share)
    gcc = CROSS + "gcc"
    if not shutil.which(gcc):
        print("FAIL: %s (the cross compiler for the guest's malibu tool) is missing" % gcc)
        sys.exit(1)
    subprocess.run([gcc, "-O2", "-static", "-Wall", "-Wextra", "-Werror", "-o", os.path.join(share, "malibu"),
                    MALIBU_C], check=True)
    bad = []
    ck = os.path.join(work, "gpu.ckpt")
    common = BASE + ["--image", image, "--share", share]

    # 1. the saving run, which goes on: the uninterrupted run
    st0 = os.path.join(work, "save.json")
    rc, out, err = run(malibu, common + ["--checkpoint-save", ck, "--stats", st0, "--run", SAVE_GPU],
                       "boot + clinfo, save, vecadd + saxpy")
    if rc != 0 or not os.path.exists(ck):
        bad.append("saving run exited %d (checkpoint %s): %s" % (rc, "written" if os.path.exists(ck) else "missing",
                                                                 err.strip()[-400:]))
    for want in ("clinfo 0", "malibu: checkpoint: 0", "vecadd: PASS", "saxpy: PASS"):
        if want not in out:
            bad.append("saving run: no %r in its output" % want)
    d0 = dump(st0) if rc == 0 else None
    # 2. resumed under two timing configurations
    resumed = []
    for i, cfg in enumerate(TIMING):
        st = os.path.join(work, "load%d.json" % i)
        rc, out, err = run(malibu, common + ["--checkpoint-load", ck, "--timing", cfg, "--stats", st, "--run", WORK],
                           "resume with --timing %s" % cfg)
        if rc != 0:
            bad.append("resumed run (--timing %s) exited %d: %s" % (cfg, rc, err.strip()[-400:]))
            continue
        for want in ("vecadd: PASS", "saxpy: PASS"):
            if want not in out:
                bad.append("resumed run (--timing %s): no %r in its output" % (cfg, want))
        if "clinfo" in out:
            bad.append("resumed run (--timing %s) booted again (clinfo ran)" % cfg)
        resumed.append(dump(st))
    if d0 and len(resumed) == 2 and all(resumed):
        t0 = gpu_totals(d0)
        print("   uninterrupted: %s" % t0)
        for cfg, d in zip(TIMING, resumed):
            t = gpu_totals(d)
            print("   --timing %-28s %s" % (cfg + ":", t))
            if t != t0:
                bad.append("GPU totals after resuming with --timing %s differ: %s vs %s" % (cfg, t, t0))
        l1 = [d["timing"]["counts"]["l1"]["misses"] if "counts" in d.get("timing", {}) else None for d in resumed]
        print("   GPU L1 misses: %s" % l1)
        if None in l1 or l1[0] >= l1[1]:
            bad.append("timing counts do not differ as they should (L1 misses %s, want the 32-byte lines' higher)" % l1)

    # 3. --smp 4 --smp-mode rr --clock icount: the same output after the checkpoint
    ck4 = os.path.join(work, "smp.ckpt")
    rc, out_s, err = run(malibu, common + SMP + ["--checkpoint-save", ck4, "--run", SAVE_SMP],
                         "--smp 4 rr icount: boot, save, commands")
    if rc != 0:
        bad.append("--smp 4 saving run exited %d: %s" % (rc, err.strip()[-400:]))
    rc, out_l, err = run(malibu, common + SMP + ["--checkpoint-load", ck4], "--smp 4 rr icount: resume")
    if rc != 0:
        bad.append("--smp 4 resumed run exited %d: %s" % (rc, err.strip()[-400:]))
    a, b = after(out_s, "malibu: checkpoint: 0"), after(out_l, "malibu: checkpoint: 1")
    if a is None or b is None:
        bad.append("--smp 4: checkpoint line missing (saving: %s, resumed: %s)" % (a is not None, b is not None))
    elif a != b or "sum " not in a:
        x, y = a.splitlines(), b.splitlines()
        bad.append("--smp 4: output after the checkpoint differs (%d vs %d lines), first: %r" %
                   (len(x), len(y), [(p, q) for p, q in zip(x, y) if p != q][:2] or (x[-2:], y[-2:])))
    else:
        print("   identical after the checkpoint: %d lines, %s" % (len(a.splitlines()),
                                                                   [l for l in a.splitlines() if "sum" in l]))
    for m in bad:
        print("FAIL:", m)
    print("checkpoint-test: %s" % ("FAIL" if bad else "PASS"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
