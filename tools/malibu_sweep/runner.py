"""Running points: one malibu process per point, in DIR/points/NNNN/ (cmd.sh: the exact command;
log.txt; stats.json; state.json).  The local runner runs N at a time; Slurm array tasks call
run_point for their index.  A point is done when state.json says so: that file is written last
(renamed into place), so a point killed halfway is not done and runs again on resume."""
import fcntl
import json
import os
import shlex
import signal
import subprocess
import sys
import time

from . import spec as specmod

ATTEMPTS = 2   # a crashed or timed-out point is retried once


def point_dir(sweep_dir, i):
    return os.path.join(sweep_dir, "points", "%04d" % i)


def start_dir(sweep_dir, key):
    return os.path.join(sweep_dir, "start", key)


def read_json(path, default=None):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


def write_json(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def state(sweep_dir, i):
    """'done', 'failed' (both attempts), 'running' (started, not finished: running now, or killed),
    or 'pending'."""
    st = read_json(os.path.join(point_dir(sweep_dir, i), "state.json"))
    if st:
        return st["state"]
    return "running" if os.path.exists(os.path.join(point_dir(sweep_dir, i), "started")) else "pending"


def setup(spec, sweep_dir):
    """DIR/sweep.json (the spec's path, points, columns) and each point's directory and command."""
    os.makedirs(os.path.join(sweep_dir, "points"), exist_ok=True)
    meta = {"spec": spec.path, "name": spec.name, "malibu": spec.malibu, "columns": spec.columns, "points": spec.points,
            "timeout": spec.timeout, "kernel": spec.kernel, "capture": spec.capture, "plots": spec.plots}
    old = read_json(os.path.join(sweep_dir, "sweep.json"))
    if old and old["points"] != spec.points:
        raise specmod.SpecError("%s holds another sweep (its points differ from %s): use another -o DIR"
                                % (sweep_dir, spec.path))
    write_json(os.path.join(sweep_dir, "sweep.json"), meta)
    for i, p in enumerate(spec.points):
        d = point_dir(sweep_dir, i)
        os.makedirs(d, exist_ok=True)
        key = specmod.start_key(spec, p)
        ck = None
        if key is not None:   # the board's start checkpoint: made by the first point that needs it
            sd = start_dir(sweep_dir, key)
            os.makedirs(sd, exist_ok=True)
            ck = os.path.join(sd, "start.ckpt")
            if os.path.exists(os.path.join(sd, "failed.json")):   # a new run tries again
                os.remove(os.path.join(sd, "failed.json"))
            with open(os.path.join(sd, "cmd.sh"), "w") as f:
                f.write("#!/bin/sh\n# the start checkpoint of a board of %s\nexec %s\n" % (spec.path, " ".join(
                    shlex.quote(a) for a in specmod.start_argv(spec, p, ck))))
            os.chmod(os.path.join(sd, "cmd.sh"), 0o755)
        write_json(os.path.join(d, "params.json"), dict(p, **({"start": key} if key else {})))
        with open(os.path.join(d, "cmd.sh"), "w") as f:
            f.write("#!/bin/sh\n# point %d of %s\nexec %s\n" % (i, spec.path, " ".join(
                shlex.quote(a) for a in specmod.point_argv(spec, p, d, ck))))
        os.chmod(os.path.join(d, "cmd.sh"), 0o755)


def ensure_start(sweep_dir, key, timeout, log=sys.stderr):
    """The start checkpoint of board key, made once: whoever takes the lock first (a local runner's
    point or a Slurm task, on any node of a shared file system) runs its cmd.sh; the others wait on
    the lock and find it made.  None when it exists, else why it could not be made (its log kept)."""
    sd = start_dir(sweep_dir, key)
    done = os.path.join(sd, "done")
    if os.path.exists(done):
        return None
    with open(os.path.join(sd, "lock"), "w") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        if os.path.exists(done):
            return None
        failed = read_json(os.path.join(sd, "failed.json"))
        if failed:
            return failed["why"]
        t0 = time.time()
        with open(os.path.join(sd, "log.txt"), "w") as lf:
            proc = subprocess.Popen(["sh", os.path.join(sd, "cmd.sh")], stdin=subprocess.DEVNULL, stdout=lf,
                                    stderr=subprocess.STDOUT, start_new_session=True)
            try:
                rc = proc.wait(timeout=timeout)
                why = "exit %d" % rc if rc else None
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                why = "timed out after %d s" % timeout
        if why is None and not os.path.exists(os.path.join(sd, "start.ckpt")):
            why = "no checkpoint written"
        if why:
            why = "the start checkpoint %s: %s (log: %s)" % (key, why, os.path.join(sd, "log.txt"))
            write_json(os.path.join(sd, "failed.json"), {"why": why})
            print("malibu-sweep: %s" % why, file=log)
            return why
        with open(done, "w") as f:
            f.write("%.1f s\n" % (time.time() - t0))
        return None


def run_point(sweep_dir, i, log=sys.stderr):
    """Run point i (twice at most); its state.json records the outcome.  True when done."""
    meta = read_json(os.path.join(sweep_dir, "sweep.json"))
    d = point_dir(sweep_dir, i)
    if state(sweep_dir, i) == "done":
        return True
    if os.path.exists(os.path.join(d, "state.json")):
        os.remove(os.path.join(d, "state.json"))
    with open(os.path.join(d, "started"), "w") as f:
        f.write("%d %s\n" % (os.getpid(), time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())))
    key = (read_json(os.path.join(d, "params.json")) or {}).get("start")
    if key is not None:
        why = ensure_start(sweep_dir, key, meta["timeout"], log)
        if why:
            write_json(os.path.join(d, "state.json"), {"state": "failed", "attempts": [{"attempt": 0, "result": why}]})
            return False
    attempts = []
    for attempt in range(1, ATTEMPTS + 1):
        t0 = time.time()
        if os.path.exists(os.path.join(d, "stats.json")):   # an earlier attempt's
            os.remove(os.path.join(d, "stats.json"))
        logpath = os.path.join(d, "log.txt")
        with open(logpath, "w") as lf:
            proc = subprocess.Popen(["sh", os.path.join(d, "cmd.sh")], stdin=subprocess.DEVNULL, stdout=lf,
                                    stderr=subprocess.STDOUT, start_new_session=True)
            try:
                rc = proc.wait(timeout=meta["timeout"])
                why = "exit %d" % rc if rc else None
                if rc < 0:
                    why = "killed by signal %d" % -rc
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                rc, why = None, "timed out after %d s" % meta["timeout"]
        stats = read_json(os.path.join(d, "stats.json"))
        if why is None and not (stats and stats.get("complete")):
            why = "no complete stats.json"
        attempts.append({"attempt": attempt, "seconds": round(time.time() - t0, 1), "result": why or "ok"})
        if why is None:
            write_json(os.path.join(d, "state.json"), {"state": "done", "attempts": attempts})
            return True
        # keep what went wrong: the log of the failed attempt
        os.replace(logpath, os.path.join(d, "log.attempt%d.txt" % attempt))
        print("malibu-sweep: point %d attempt %d: %s (log: %s)" % (
            i, attempt, why, os.path.join(d, "log.attempt%d.txt" % attempt)), file=log)
    write_json(os.path.join(d, "state.json"), {"state": "failed", "attempts": attempts})
    return False


def counts(sweep_dir, n):
    c = {"done": 0, "failed": 0, "running": 0, "pending": 0}
    for i in range(n):
        c[state(sweep_dir, i)] += 1
    return c


def progress_line(c, n, t0, done_now, elapsed_per_point):
    eta = ""
    if elapsed_per_point:
        left = n - c["done"] - c["failed"]
        eta = " ETA %ds" % int(left * elapsed_per_point)
    bar_w = 30
    fill = int(bar_w * (c["done"] + c["failed"]) / n) if n else bar_w
    return "[%s%s] %d/%d done, %d running, %d failed%s" % ("#" * fill, "." * (bar_w - fill), c["done"], n,
                                                          c["running"], c["failed"], eta)


def run_local(sweep_dir, jobs, tool, out=sys.stderr):
    """Every point not done, `jobs` at a time, each through `tool run-point DIR I` (the same
    runner a Slurm task uses).  A progress line on out.  Returns (done, failed)."""
    meta = read_json(os.path.join(sweep_dir, "sweep.json"))
    n = len(meta["points"])
    todo = [i for i in range(n) if state(sweep_dir, i) != "done"]
    for i in todo:   # a killed run's leftovers: these run again
        for name in ("started", "state.json"):
            if os.path.exists(os.path.join(point_dir(sweep_dir, i), name)):
                os.remove(os.path.join(point_dir(sweep_dir, i), name))
    if n - len(todo):
        print("malibu-sweep: %d of %d points already done (resumed)" % (n - len(todo), n), file=out)
    running = {}
    t0 = time.time()
    finished = 0
    tty = out.isatty()
    last = ""
    while todo or running:
        while todo and len(running) < jobs:
            i = todo.pop(0)
            running[i] = subprocess.Popen([sys.executable, tool, "run-point", sweep_dir, str(i)],
                                          stdin=subprocess.DEVNULL)
        time.sleep(0.5)
        for i, p in list(running.items()):
            if p.poll() is not None:
                del running[i]
                finished += 1
        c = counts(sweep_dir, n)
        # the time left: points left x the time per point so far (which includes the parallelism)
        line = progress_line(c, n, t0, finished, (time.time() - t0) / finished if finished else 0)
        key = line if tty else line.split(" ETA")[0]   # a log gets a line per change of counts
        if key != last:
            print(("\r" + line) if tty else line, end="" if tty else "\n", file=out, flush=True)
            last = key
    if tty:
        print(file=out)
    c = counts(sweep_dir, n)
    return c["done"], c["failed"]
