#!/usr/bin/env python3
"""checkpoint-gpu-test: a board saved with a chain of GPU kernels in flight resumes it exactly
(issue 37; docs/checkpoint.md "The GPU").

kernel_chain (guest-images/apps/kernel_chain.c, in the image's /usr/local/bin) queues 16
dependent kernels at once, flushes, and calls `malibu_checkpoint()` once the GPU has raised a
few job interrupts: kernels done, one on the GPU, the others queued in the driver.

1. The saving run ends with its save (--checkpoint-exit): the GPU quiesces with work in flight
   (its log line says what: a chain parked between jobs, or one that ended during the quiesce
   with its interrupt not yet handled) and stays at rest, so its --stats totals count the GPU's
   work up to the checkpoint.  Under the host clock the save can catch the GPU between jobs, the
   driver not yet having handed it the next: then the saving run is tried again (3 runs at most).
2. The resumed run: `malibu_checkpoint()` returns 1, the queued kernels run, the result is
   checked against the CPU (PASS) and its checksum printed; --stats counts from the load.
3. The uninterrupted run (no checkpoint: the call returns -95): the same checksum, and its GPU
   totals for the chain (jobs, clause executions, warp and thread instructions) are exactly the
   saving run's plus the resumed run's: no job lost, none run twice.
4. --clock icount: a saving run that goes on after its save and a run resumed from that file
   print the same after the checkpoint, to the guest nanosecond (the chain's wall time in guest
   time, /proc/uptime).

usage: gpu_chain_test.py MALIBU IMAGE_DIR WORK_DIR [SHARE_DIR]
(SHARE_DIR: run SHARE_DIR/kernel_chain instead of the image's, e.g. one built by hand for an older
image)"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

BASE = ["-m", "2G", "--gpu", "g52", "--display", "none"]
PROG = "RUSTICL_ENABLE=panfrost kernel_chain"
TOTALS = ("clause_executions", "thread_clause_executions", "warp_instructions", "thread_instructions")
# Under the host clock the GPU's threads race the guest's: the guest asks for the save once it has
# counted a few job interrupts, and now and then the GPU is between jobs then (the driver has not
# yet handed it the next; seen in CI beside the fuzzers).  The saving run is tried again then.
SAVE_ATTEMPTS = 3
# Host seconds one run may take: the saving run measured 25-31 s, the resumed one 2-4 s, the
# uninterrupted one 15-21 s on 2 shared cores; about 8x the longest, for a loaded host.
RUN_TIMEOUT = 240


def run(malibu, args, what):
    t0 = time.time()
    try:
        p = subprocess.run([malibu, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        print("== %s: no end after %d s" % (what, RUN_TIMEOUT))
        return None, "", ""
    out, err = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    print("== %s: exit %d, %.1f s" % (what, p.returncode, time.time() - t0))
    for line in err.splitlines():
        if "checkpoint" in line:
            print("   ", line.strip())
    return p.returncode, out.replace("\r\n", "\n"), err


def lines(out):
    """kernel_chain's lines: {'checkpoint': ..., 'sum': ..., 'verdict': ...}"""
    got = {}
    for line in out.splitlines():
        m = re.match(r"kernel_chain: checkpoint (-?\d+)$", line.strip())
        if m:
            got["checkpoint"] = int(m.group(1))
        m = re.search(r"kernel_chain: .* sum (0x[0-9a-f]+)", line)
        if m:
            got["sum"] = m.group(1)
        m = re.match(r"kernel_chain: (PASS|FAIL)$", line.strip())
        if m:
            got["verdict"] = m.group(1)
    return got


def output_after(out, marker):
    """The console output after the line holding marker (None if absent)."""
    i = out.find(marker)
    return None if i < 0 else out[out.index("\n", i) + 1:]


def chain_dump(stats):
    """The GPU counts of the guest's `chain` dump (kernel_chain: the chain's span)."""
    d = json.load(open(stats))
    dumps = [x for x in d["roi"]["dumps"] if x["tag"] == "chain"]
    if not dumps:
        return None
    g = dumps[0]["gpu"]
    return dict({k: g[k] for k in TOTALS}, jobs=g["jobs"])


def saved_jobs(stats):
    """The compute jobs a saving run's --stats counts, or '?' without the file."""
    try:
        return json.load(open(stats))["gpu"]["jobs"].get("compute", 0)
    except (OSError, ValueError, KeyError):
        return "?"


def run_totals(stats):
    """The whole run's GPU counts (a run that ended with its save: the work before it)."""
    d = json.load(open(stats))
    t = d["gpu"]["totals"]
    return dict({k: t[k] for k in TOTALS}, jobs=d["gpu"]["jobs"].get("compute", 0))


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    malibu, image, work = sys.argv[1:4]
    global PROG
    share = sys.argv[4] if len(sys.argv) == 5 else None
    if share:
        PROG = PROG.replace("kernel_chain", "/mnt/host/kernel_chain")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    ck = os.path.join(work, "chain.ckpt")
    common = BASE + ["--image", image] + (["--share", share] if share else [])
    bad = []

    # 1. save with the chain in flight, and end there; again while the save caught the GPU at rest
    st_save = os.path.join(work, "save.json")
    for attempt in range(1, SAVE_ATTEMPTS + 1):
        if os.path.exists(ck):
            os.unlink(ck)
        rc, out, err = run(malibu, common + ["--checkpoint-save", ck, "--checkpoint-exit", "--stats", st_save,
                                             "--run", PROG], "save with the kernel chain in flight")
        if re.search(r"kernel_chain: (command )?not found", out):
            print("FAIL: kernel_chain is not in %s's rootfs (make image builds it from guest-images/apps)" % image)
            sys.exit(1)
        if rc != 0 or not os.path.exists(ck) or "GPU work in flight" in err:
            break
        print("   the save caught the GPU at rest (%s compute jobs done): attempt %d of %d" %
              (saved_jobs(st_save), attempt, SAVE_ATTEMPTS))
    if rc != 0 or not os.path.exists(ck):
        bad.append("saving run exited %s (checkpoint %s): %s" % (rc, "written" if os.path.exists(ck) else "missing",
                                                                 err.strip()[-400:]))
    elif "GPU work in flight" not in err:
        bad.append("in %d saving runs the save found no GPU work in flight (no 'GPU work in flight' line)" %
                   SAVE_ATTEMPTS)
    # 2. resumed
    st_load = os.path.join(work, "load.json")
    resumed = {}
    if os.path.exists(ck):
        rc, out, err = run(malibu, common + ["--checkpoint-load", ck, "--stats", st_load], "resume")
        resumed = lines(out)
        if rc != 0 or resumed.get("checkpoint") != 1 or resumed.get("verdict") != "PASS":
            bad.append("resumed run: exit %s, %s: %s" % (rc, resumed, (out + err).strip()[-400:]))
    # 3. uninterrupted
    st_full = os.path.join(work, "full.json")
    rc, out, err = run(malibu, common + ["--stats", st_full, "--run", PROG], "uninterrupted")
    full = lines(out)
    if rc != 0 or full.get("checkpoint") != -95 or full.get("verdict") != "PASS":
        bad.append("uninterrupted run: exit %s, %s: %s" % (rc, full, (out + err).strip()[-400:]))
    if "sum" in full and "sum" in resumed:
        print("   checksum: uninterrupted %s, resumed %s" % (full["sum"], resumed["sum"]))
        if full["sum"] != resumed["sum"]:
            bad.append("checksums differ: uninterrupted %s, resumed %s" % (full["sum"], resumed["sum"]))
    if not bad:
        before, after, whole = run_totals(st_save), chain_dump(st_load), chain_dump(st_full)
        if after is None or whole is None:
            bad.append("no 'chain' dump in the resumed or the uninterrupted run's --stats")
        else:
            print("   before the save: %s" % before)
            print("   after the load:  %s" % after)
            print("   uninterrupted:   %s" % whole)
            if not before["jobs"] or not after["jobs"]:
                bad.append("the checkpoint did not split the chain (%d jobs before, %d after)" %
                           (before["jobs"], after["jobs"]))
            summed = {k: before[k] + after[k] for k in whole}
            if summed != whole:
                bad.append("GPU totals before the save + after the load %s differ from the uninterrupted "
                           "run's %s" % (summed, whole))
    # 4. --clock icount: the saving run's output after the save equals the resumed run's
    ck_i = os.path.join(work, "icount.ckpt")
    icount = ["--clock", "icount", "--gpu-time", "model"]
    rc, out_s, err = run(malibu, common + icount + ["--checkpoint-save", ck_i, "--run", PROG + "; cat /proc/uptime"],
                         "--clock icount: save with the chain in flight, go on")
    if rc != 0:
        bad.append("--clock icount saving run exited %s: %s" % (rc, err.strip()[-400:]))
    elif "GPU work in flight" not in err:
        bad.append("--clock icount: the save found no GPU work in flight")
    rc, out_l, err = run(malibu, common + icount + ["--checkpoint-load", ck_i], "--clock icount: resume")
    a, b = output_after(out_s, "kernel_chain: checkpoint 0"), output_after(out_l, "kernel_chain: checkpoint 1")
    if rc != 0 or a is None or b is None:
        bad.append("--clock icount: resumed run exited %s, checkpoint lines %s %s" % (rc, a is not None, b is not None))
    elif a != b or "kernel_chain: PASS" not in a:
        x, y = a.splitlines(), b.splitlines()
        bad.append("--clock icount: output after the checkpoint differs: %r" %
                   ([(p, q) for p, q in zip(x, y) if p != q][:2] or (x[-2:], y[-2:])))
    else:
        print("   --clock icount, identical after the checkpoint: %s" %
              [line for line in a.splitlines() if "wall_ns" in line or re.match(r"^[0-9.]+ [0-9.]+$", line)])
    for m in bad:
        print("FAIL:", m)
    print("checkpoint-gpu-test: %s" % ("FAIL" if bad else "PASS"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
