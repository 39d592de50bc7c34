#!/usr/bin/env python3
"""timing-guest-test: the pointer-chase microbenchmark (guest-images/apps/pointer_chase) under
build/malibu --timing recovers the configured L1 and L2 sizes (the knee of the guest-visible time
per dependent load lies within one line of each capacity) and the L1 line size (stride sweep), for
a few small geometries and replacement policies; the L1-hit, L2-hit and DRAM plateaus equal the
latencies the configuration implies (hit latencies, DRAM timings at the DRAM clock, in GPU cycles
at the GPU clock).

Then the --stats "timing" section: valid against emu/stats/schema.json, consistent (hits + misses
= accesses, cold + capacity + conflict = misses, L2 fills = DRAM reads, kernels and jobs sum to
the totals) and identical for --gpu-threads 1 and 4; tools/malibu-report.py renders it.

usage: chase_test.py MALIBU IMAGE_DIR [GPU] [WORKDIR]"""
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# (name, L1 size, L1 line, L1 assoc, L1 policy, L2 size, L2 assoc)
GEOMETRIES = [
    ("l1 1K/64B/2-way lru, l2 4K/4-way", 1024, 64, 2, "lru", 4096, 4),
    ("l1 2K/32B/4-way plru, l2 8K/8-way", 2048, 32, 4, "plru", 8192, 8),
]
# Latencies far above the loop's issue time, so a dependent load costs exactly its latency.  DRAM
# with closed pages: every access opens its row (tRCD + tCL + tBURST), whatever the address map.
L1_LAT, L2_LAT, L2_LINE = 200, 600, 64
GPU_MHZ = 500
DRAM = {"tCL": 28, "tRCD": 29, "tRP": 29, "tBURST": 8, "burst": 64, "overhead": 16000, "mhz": 1600,
        "page": "closed"}
STEPS, REPS = 250000, 5
# Tolerances of the plateaus around the configured latencies.  The model alone gives them exactly
# (the difference of two runs cancels launch costs), but host time still enters a kernel's
# END - START (issue 32, item 6; pointer_chase falls back to host time when a profiling read
# fails, "source=host").  Measured in four runs on a loaded host (load average 12 on 2 cores):
# DRAM 11542, 11717, 11784, 12256 ns for 11642 configured (-0.9 % .. +5.3 %, the last with host
# time), L2 hits 1587-1683 for 1600, L1 hits 94-562 for 400: an error of a few hundred ns, small
# against DRAM.  Once item 6 makes guest-visible time follow the model alone, these shrink to
# the model's rounding.
L1_L2_TOL, DRAM_TOL = 0.15, 0.08
# One line past a capacity the time per load rises by at least this share of the level's plateau.
# Measured steps: L1 (394 ns plateau) 93 ns (PLRU) and 212 ns (LRU); L2 (about 1600 ns) with LRU
# 772-778 ns, with PLRU 312, 370 and, in a clean-clone `make test` on a loaded host (1686 ns at
# the capacity, 1894 one line on), 207 ns.  A knee one line off gives a step near 0.
KNEE_STEP = 0.1


def config(g):
    _, s1, line1, a1, pol, s2, a2 = g
    return ("preset=g71,gpu.mhz=%d,gpu.l1.size=%d,gpu.l1.line=%d,gpu.l1.assoc=%d,gpu.l1.policy=%s,gpu.l1.latency=%d,"
            "gpu.l2.size=%d,gpu.l2.line=%d,gpu.l2.assoc=%d,gpu.l2.slices=1,gpu.l2.latency=%d,"
            % (GPU_MHZ, s1, line1, a1, pol, L1_LAT, s2, L2_LINE, a2, L2_LAT)
            + ",".join("dram.%s=%s" % kv for kv in DRAM.items()))


def expected_ns():
    """ns per dependent load that hits L1, hits L2, goes to DRAM, from the configuration alone:
    an L2 line of L2_LINE bytes is L2_LINE / burst bursts; DRAM cycles become GPU cycles rounded
    up (docs/timing.md, "Models")."""
    ns = 1000.0 / GPU_MHZ
    dram = DRAM["tRCD"] + DRAM["tCL"] + DRAM["tBURST"] * (L2_LINE // DRAM["burst"]) + DRAM["overhead"]
    dram_gpu = -(-dram * GPU_MHZ // DRAM["mhz"])
    return L1_LAT * ns, (L1_LAT + L2_LAT) * ns, (L1_LAT + L2_LAT + dram_gpu) * ns


def run(malibu, image, gpu, g):
    _, s1, line1, _, _, s2, _ = g
    sizes = [s1 // 2, s1, s1 + line1, 2 * s1, s2, s2 + L2_LINE]
    cmds = ["pointer_chase %d %d %d %s" % (line1, STEPS, REPS, " ".join(map(str, sizes))),
            # the DRAM plateau: twice L2 (LRU: every load misses both levels), one load per L2 line
            "pointer_chase %d %d %d %d" % (L2_LINE, STEPS, REPS, 2 * s2)]
    for stride in (line1 // 4, line1 // 2, line1, 2 * line1):
        cmds.append("pointer_chase %d %d %d %d" % (stride, STEPS, REPS, 2 * s1))
    out = subprocess.run([malibu, "--image", image, "--gpu", gpu, "--gpu-threads", "2",
                          "--timing", config(g), "--run", "; ".join(cmds)],
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, timeout=900).stdout
    t = {}
    for m in re.finditer(r"chase size=(\d+) stride=(\d+) ns_per_load=([\d.]+)", out):
        t[(int(m.group(1)), int(m.group(2)))] = float(m.group(3))
    return out, t


def check_counts(where, x, bad):
    k = x["counts"]
    for lvl in ("l1", "l2"):
        c = k[lvl]
        if c["hits"] + c["misses"] != c["accesses"] or c["cold"] + c["capacity"] + c["conflict"] != c["misses"] \
                or sum(c["banks"]) != c["accesses"]:
            bad.append("%s %s: hits/misses/3C/banks do not add up: %s" % (where, lvl, c))
    if k["l2"]["fills"] != k["dram"]["reads"] or k["l2"]["writebacks"] != k["dram"]["writes"]:
        bad.append("%s: L2 fills %d / write-backs %d != DRAM reads %d / writes %d" % (
            where, k["l2"]["fills"], k["l2"]["writebacks"], k["dram"]["reads"], k["dram"]["writes"]))
    d = k["dram"]
    if d["row_hits"] + d["row_empty"] + d["row_conflicts"] != d["reads"] + d["writes"]:
        bad.append("%s: DRAM row outcomes do not add up" % where)


def stats_check(malibu, image, gpu, workdir):
    """The report's timing section: schema, sums, the same for 1 and 4 host threads."""
    bad, reports = [], []
    paths = [os.path.join(workdir, "timing-stats-%s-%d.json" % (gpu, threads)) for threads in (1, 4)]

    def boot(threads, path):
        subprocess.run([malibu, "--image", image, "--gpu", gpu, "--gpu-threads", str(threads), "--timing",
                        "preset=%s" % gpu, "--stats", path, "--run", "vecadd; reduce 10000; histogram 16384"],
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=900)
    # both boots at once: the report does not depend on host load (timing-repro-test)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        list(pool.map(boot, (1, 4), paths))
    for path in paths:
        try:
            with open(path) as f:
                reports.append(json.load(f))
        except (OSError, ValueError) as e:
            return ["no report %s: %s" % (path, e)]
    import jsonschema       # main() checked that it is there
    try:
        with open(os.path.join(HERE, "..", "..", "emu", "stats", "schema.json")) as f:
            jsonschema.validate(reports[0], json.load(f))
    except Exception as e:      # jsonschema.ValidationError
        bad.append("schema: %s" % str(e).splitlines()[0])
    tm = reports[0].get("timing")
    if not tm or not tm["jobs"]:
        return bad + ["no timing section / no jobs"]
    check_counts("totals", tm["totals"], bad)
    for j in tm["jobs"]:
        check_counts("job %d" % j["job"], j, bad)
    for key in ("accesses", "misses"):
        for lvl in ("l1", "l2"):
            per_job = sum(j["counts"][lvl][key] for j in tm["jobs"])
            per_kernel = sum(k["counts"][lvl][key] for k in tm["kernels"])
            if per_job != tm["totals"]["counts"][lvl][key] or per_kernel != per_job:
                bad.append("%s %s: jobs %d, kernels %d, totals %d" % (lvl, key, per_job, per_kernel,
                                                                      tm["totals"]["counts"][lvl][key]))
    if reports[0]["timing"] != reports[1]["timing"]:
        bad.append("timing section differs between --gpu-threads 1 and 4")
    r = subprocess.run([sys.executable, os.path.join(HERE, "..", "..", "tools", "malibu-report.py"),
                        os.path.join(workdir, "timing-stats-%s-1.json" % gpu), "-o",
                        os.path.join(workdir, "timing-report-%s" % gpu)], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    html = os.path.join(workdir, "timing-report-%s" % gpu, "index.html")
    if r.returncode or "Timing model" not in open(html).read():
        bad.append("malibu-report: no timing section (%s)" % r.stdout.strip())
    print("timing-guest-test: --stats timing section (%s): %d jobs, L1 %d accesses, DRAM %d reads: %s" % (
        gpu, len(tm["jobs"]), tm["totals"]["counts"]["l1"]["accesses"], tm["totals"]["counts"]["dram"]["reads"],
        "FAIL: " + "; ".join(bad) if bad else "ok (same for 1 and 4 threads)"))
    return bad


def main():
    try:
        import jsonschema   # noqa: F401  (stats_check's schema check; fail before the long runs)
    except ImportError:
        print("timing-guest-test: FAIL: python module jsonschema missing for %s "
              "(Debian package python3-jsonschema, in tools/host-packages)" % sys.executable)
        return 1
    malibu, image = sys.argv[1], sys.argv[2]
    gpu = sys.argv[3] if len(sys.argv) > 3 else "g71"
    workdir = sys.argv[4] if len(sys.argv) > 4 else tempfile.mkdtemp(prefix="timing-test-")
    os.makedirs(workdir, exist_ok=True)
    l1, l2, dram = expected_ns()
    fails = 0
    # the geometries' boots two at once: guest-visible time is modelled, not the host's
    # (timing-repro-test), so load from the other boot does not move the figures
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(lambda g: run(malibu, image, gpu, g), GEOMETRIES))
    for g, (out, t) in zip(GEOMETRIES, runs):
        name, s1, line1, _, _, s2, _ = g
        bad = []
        if out.count("pointer_chase: PASS") != 6:
            bad.append("not every pointer_chase run passed")
        try:
            p1 = t[(s1 // 2, line1)]
            # plateaus: the configured latencies
            for what, got, want, tol in (("L1 hit", p1, l1, L1_L2_TOL), ("L2 hit", t[(2 * s1, line1)], l2, L1_L2_TOL),
                                         ("DRAM", t[(2 * s2, L2_LINE)], dram, DRAM_TOL)):
                if abs(got - want) > tol * want:
                    bad.append("%s %.1f ns per load, configured %.1f" % (what, got, want))
            # knees: at the capacity still the plateau, one line more clearly above it (by
            # KNEE_STEP of the plateau: host time moves both figures, see L1_L2_TOL)
            for what, cap, line, base in (("L1", s1, line1, p1), ("L2", s2, 64, t[(2 * s1, line1)])):
                at, over = t[(cap, line1)], t[(cap + line, line1)]
                if not (at < 1.1 * base and over > at + KNEE_STEP * base):
                    bad.append("%s knee: %.1f ns at %d bytes, %.1f at +%d (plateau %.1f)"
                               % (what, at, cap, over, line, base))
            # line size: below it neighbouring loads share lines; from it on every load misses
            s = [t[(2 * s1, x)] for x in (line1 // 4, line1 // 2, line1, 2 * line1)]
            if not (s[0] < 0.8 * s[1] < 0.8 * 0.8 * s[2] and abs(s[3] - s[2]) < 0.1 * s[2]):
                bad.append("stride sweep %s does not step up to %d bytes and stay" %
                           (["%.0f" % x for x in s], line1))
        except KeyError as e:
            bad.append("no time for size/stride %s" % (e,))
        times = " ".join("%d/%d:%.0f" % (k[0], k[1], v) for k, v in sorted(t.items()))
        if bad:
            fails += 1
            print("timing-guest-test: %s (%s): FAIL: %s\n  ns per load: %s" % (name, gpu, "; ".join(bad), times))
            print("\n".join(out.splitlines()[-30:]))
        else:
            print("timing-guest-test: %s (%s): knees at %d and %d bytes, line %d, plateaus %.0f / %.0f / %.0f ns "
                  "(configured %.0f / %.0f / %.0f): ok\n  ns per load: %s"
                  % (name, gpu, s1, s2, line1, p1, t[(2 * s1, line1)], t[(2 * s2, L2_LINE)], l1, l2, dram, times))
    if stats_check(malibu, image, gpu, workdir):
        fails += 1
    return 1 if fails else 0


# Reproducibility (timing-repro-test): the guest-visible figures do not depend on the host.
REPRO_CONFIG = "preset=g71,gpu.l1.size=16K"
REPRO_SIZES = ["8K", "1M", "8K"]                          # L1, DRAM, L1 again
REPRO_CMD = "pointer_chase 64 131072 3 " + " ".join(REPRO_SIZES)   # 262,144 loads at 2 x STEPS
HOST_LOAD = 2                                             # busy-looping host processes


def chase_figures(malibu, image, gpu, threads, busy):
    """One malibu run of REPRO_CMD: its 'chase size=...' lines (None if a run failed), the output."""
    hogs = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(HOST_LOAD if busy else 0)]
    try:
        out = subprocess.run([malibu, "--image", image, "--gpu", gpu, "--gpu-threads", str(threads),
                              "--timing", REPRO_CONFIG, "--run", REPRO_CMD],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, timeout=900).stdout
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    lines = re.findall(r"chase size=\d+ stride=\d+ ns_per_load=[\d.]+", out)
    ok = "pointer_chase: PASS" in out and len(lines) == len(REPRO_SIZES) and "source=profiling" in out \
        and "source=host" not in out       # host time: a launch lost its profiling timestamps
    return (lines if ok else None), out


def repro_main():
    """Two runs of the same pointer chase, one on an idle host with one GPU thread, one with
    HOST_LOAD busy-looping processes and two GPU threads: every ns-per-load figure must be the
    same and above 0, and within a run the 8 KiB array must read the same before and after the
    1 MiB one."""
    malibu, image = sys.argv[2], sys.argv[3]
    gpu = sys.argv[4] if len(sys.argv) > 4 else "g71"
    if not shutil.which("yes"):
        print("timing-repro-test: FAIL: no 'yes' on the host (coreutils) to load it with")
        return 1
    runs = [("idle host, --gpu-threads 1", 1, False), ("%d busy host processes, --gpu-threads 2" % HOST_LOAD, 2, True)]
    got, bad = [], []
    for what, threads, busy in runs:
        lines, out = chase_figures(malibu, image, gpu, threads, busy)
        if lines is None:
            print("timing-repro-test: %s: FAIL: pointer_chase failed or timed by host time, not OpenCL "
                  "profiling\n%s" % (what, "\n".join(out.splitlines()[-30:])))
            return 1
        print("timing-repro-test: %s:\n  %s" % (what, "\n  ".join(lines)))
        if any(re.search(r"ns_per_load=0\.000$", x) for x in lines):
            bad.append("%s: a load took no time (2 x STEPS loads no slower than STEPS)" % what)
        if lines[0] != lines[-1]:
            bad.append("%s: the 8 KiB array read differently in one run: %s / %s" % (what, lines[0], lines[-1]))
        got.append(lines)
    if got[0] != got[1]:
        bad.append("the figures differ between the runs")
    print("timing-repro-test (%s): %s" % (gpu, "FAIL: " + "; ".join(bad) if bad else
                                          "ok: the same ns per load in both runs"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(repro_main() if sys.argv[1:2] == ["--repro"] else main())
