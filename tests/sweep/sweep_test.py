#!/usr/bin/python3
"""sweep-test: tools/malibu-sweep end to end (docs/sweeps.md).

1. Bad specs are refused, naming the file, line and key, before anything runs (no sweep
   directory is made): an unknown timing key, an impossible geometry (malibu's own dry run), an
   empty grid, a missing program.
2. The 4-point L2-size sweep tests/sweep/l2.toml runs locally (4 points at once).
3. The same sweep runs under a private single-node Slurm (munged, slurmctld, slurmd started here
   in the foreground, stopped at the end) as one sbatch --array job; `status` reports it while
   it runs and after; `collect` writes its table: identical to the local one, byte for byte.
4. The plot's data (plots/NAME.csv: the arrays given to matplotlib) equals the table's columns.
   Both sweeps start every point from one checkpoint of their board (the spec's `start`).
5. A point killed halfway (its runner and malibu SIGKILLed, as when a node dies) is resumed: only
   that point runs again, the others' records are untouched, the table is the same.
6. A point that times out is retried once, both attempts' logs kept, and is reported as failed.

usage: sweep_test.py MALIBU IMAGE_DIR"""
import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "..", "tools", "malibu-sweep")
sys.path.insert(0, HERE)
import slurm_cluster  # noqa: E402

fails = []


def check(cond, what):
    print("sweep-test: %s: %s" % ("ok" if cond else "FAIL", what))
    if not cond:
        fails.append(what)
    return cond


def spec_text(image, malibu, extra_top="", grid=None, timing=None):
    with open(os.path.join(HERE, "l2.toml")) as f:
        t = f.read().replace("@IMAGE@", image)
    t = t.replace('memory = "512M"', 'memory = "512M"\nmalibu = "%s"%s' % (malibu, extra_top))
    if grid:
        t = t.replace('run = "pointer_chase 64 {steps} 1 65536"', grid)
    if timing:
        t = t.replace('"gpu.l2.size" = ["16K", "32K", "64K", "128K"]', timing)
    return t


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def tool(*args, env=None, timeout=900):
    return subprocess.run([TOOL] + list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          env=env, timeout=timeout)


def line_of(text, needle):
    return next(i for i, l in enumerate(text.splitlines(), 1) if needle in l)


def bad_specs(tmp, image, malibu):
    cases = [
        ("unknown timing key", None, '"gpu.l3.size" = ["16K", "32K"]', "gpu.l3.size", "timing.gpu.l3.size"),
        ("impossible geometry", None, '"gpu.l2.size" = ["16K", "1000"]', "gpu.l2.size", "timing.gpu.l2.size"),
        ("empty grid", None, '"gpu.l2.size" = []', "gpu.l2.size", "timing.gpu.l2.size"),
        ("missing program", 'run = "pointer_chaser 64 {steps} 1 65536"', None, "run =", "grid.run"),
    ]
    for what, grid, timing, needle, key in cases:
        text = spec_text(image, malibu, grid=grid, timing=timing)
        path = write(os.path.join(tmp, "bad.toml"), text)
        out = os.path.join(tmp, "bad-out")
        r = tool(path, "-o", out, "-j", "1")
        want = "%s:%d: key '%s'" % (path, line_of(text, needle), key)
        check(r.returncode == 2 and want in r.stdout and not os.path.exists(out),
              "bad spec (%s) refused before running: %s" % (what, r.stdout.strip().replace(path, "SPEC")))


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def plot_equals_table(d):
    rows = read_csv(os.path.join(d, "results.csv"))
    head, body = rows[0], rows[1:]
    col = {h: i for i, h in enumerate(head)}
    plotted = read_csv(os.path.join(d, "plots", "ns_per_load.csv"))
    want = sorted((r[col["point"]], r[col["gpu.l2.size"]], float(r[col["ns_per_load"]])) for r in body)
    got = sorted((r[1], r[2], float(r[4])) for r in plotted[1:])
    svg_ok = os.path.getsize(os.path.join(d, "plots", "ns_per_load.svg")) > 0 and \
        os.path.getsize(os.path.join(d, "plots", "ns_per_load.png")) > 0
    check(got == want and len(got) == 4 and svg_ok, "the plot's data equals the table (%d points)" % len(got))
    page = open(os.path.join(d, "index.html")).read()
    reports = [os.path.join(d, "points", "%04d" % i, "report", "index.html") for i in range(4)]
    check("plots/ns_per_load.svg" in page and page.count("report/index.html") == 4
          and all(os.path.exists(r) for r in reports), "index.html links the plot and the 4 points' reports")


def kill_and_resume(spec, d):
    """Point 3 is made to run again, killed halfway with its runner, then the sweep resumed."""
    pd = os.path.join(d, "points", "0003")
    before = {i: os.stat(os.path.join(d, "points", "%04d" % i, "state.json")).st_mtime_ns for i in range(3)}
    table = open(os.path.join(d, "results.csv")).read()
    os.remove(os.path.join(pd, "state.json"))
    p = subprocess.Popen([TOOL, "run-point", d, "3"], start_new_session=True, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    log = os.path.join(pd, "log.txt")
    t = time.time() + 300
    while time.time() < t and not (os.path.exists(log) and "pointer_chase: device" in open(log, errors="replace").read()):
        time.sleep(0.3)   # until the guest program runs: halfway through the point
    os.killpg(p.pid, signal.SIGKILL)   # the runner and its malibu, as a dying node would
    p.wait()
    st = tool("status", d)
    check(st.returncode == 1 and "3 done, 1 running" in st.stdout, "a point killed halfway shows as not done: "
          + st.stdout.strip().splitlines()[0])
    r = tool(spec, "-o", d, "-j", "4")
    after = {i: os.stat(os.path.join(d, "points", "%04d" % i, "state.json")).st_mtime_ns for i in range(3)}
    st3 = json.load(open(os.path.join(pd, "state.json")))
    check(r.returncode == 0 and "3 of 4 points already done (resumed)" in r.stdout and before == after
          and st3["state"] == "done" and len(st3["attempts"]) == 1,
          "resumed: only the killed point ran again")
    check(open(os.path.join(d, "results.csv")).read() == table, "the resumed sweep's table is the same")


def timeout_retry(tmp, image, malibu):
    text = spec_text(image, malibu, timing='"gpu.l2.size" = "64K"').replace("timeout = 300", "timeout = 2")
    spec = write(os.path.join(tmp, "timeout.toml"), text)
    d = os.path.join(tmp, "timeout")
    r = tool(spec, "-o", d, "-j", "1")
    pd = os.path.join(d, "points", "0000")
    st = json.load(open(os.path.join(pd, "state.json")))
    logs = all(os.path.exists(os.path.join(pd, "log.attempt%d.txt" % a)) for a in (1, 2))
    status = tool("status", d)
    check(r.returncode == 1 and st["state"] == "failed" and [a["result"] for a in st["attempts"]] ==
          ["timed out after 2 s"] * 2 and logs and "point 0 failed" in status.stdout,
          "a timed-out point is retried once and recorded as failed with both logs")


def main():
    malibu, image = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    t0 = time.time()
    tmp = tempfile.mkdtemp(prefix="sweep-test-")
    cluster = None
    try:
        bad_specs(tmp, image, malibu)
        # every point resumes one checkpoint of its board, saved after `start` (made by the first
        # point that needs it: a local runner's, or a Slurm task's)
        spec = write(os.path.join(tmp, "l2.toml"), spec_text(image, malibu, extra_top='\nstart = "clinfo >/dev/null"'))
        local, viaslurm = os.path.join(tmp, "local"), os.path.join(tmp, "slurm")
        # Slurm first: its daemons start while the local points run
        cluster = slurm_cluster.Cluster(os.path.join(tmp, "cluster"))
        os.makedirs(cluster.tmp)
        cluster.start()
        env = cluster.env()
        r = tool(spec, "-o", viaslurm, "--slurm", "--partition", "sweep", "--time", "00:10:00",
                 "--sbatch-opt=--cpus-per-task=1", env=env)
        check(r.returncode == 0 and "submitted job" in r.stdout, "submitted as one job array: "
              + r.stdout.strip().splitlines()[-2 if len(r.stdout.strip().splitlines()) > 1 else -1])
        st = tool("status", viaslurm, env=env)
        check("Slurm job" in st.stdout, "status while it runs: " + st.stdout.strip())
        rl = tool(spec, "-o", local, "-j", "4")
        check(rl.returncode == 0, "local sweep: " + rl.stdout.strip().splitlines()[-1])
        cluster.wait_jobs(600)
        st = tool("status", viaslurm, env=env)
        check(st.returncode == 0 and "4 done" in st.stdout, "status after it ran: " + st.stdout.strip())
        rc = tool("collect", viaslurm, env=env)
        check(rc.returncode == 0, "collect: " + rc.stdout.strip())
        a = open(os.path.join(local, "results.csv")).read()
        b = open(os.path.join(viaslurm, "results.csv")).read()
        check(a == b and a.count("\n") == 5, "local and Slurm tables are identical (%d rows)" % (a.count("\n") - 1))
        if a != b:
            print("--- local\n%s--- slurm\n%s" % (a, b))
        print(a, end="")
        plot_equals_table(local)
        for d in (local, viaslurm):
            starts = [x for x in os.listdir(os.path.join(d, "start"))]
            loads = sum("--checkpoint-load" in open(os.path.join(d, "points", "%04d" % i, "cmd.sh")).read()
                        for i in range(4))
            made = [x for x in starts if os.path.exists(os.path.join(d, "start", x, "done"))]
            check(len(starts) == 1 and made == starts and loads == 4,
                  "%s: one start checkpoint (%d), made once, resumed by %d of 4 points"
                  % (os.path.basename(d), len(starts), loads))
        cluster.stop()
        cluster = None
        kill_and_resume(spec, local)
        timeout_retry(tmp, image, malibu)
    finally:
        if cluster:
            print(cluster.logs())
            cluster.stop()
    print("sweep-test: %.0f s" % (time.time() - t0))
    if fails:
        print("sweep-test: FAILED: %s (files in %s)" % ("; ".join(fails), tmp))
        sys.exit(1)
    shutil.rmtree(tmp, ignore_errors=True)
    print("sweep-test: PASS")


if __name__ == "__main__":
    main()
