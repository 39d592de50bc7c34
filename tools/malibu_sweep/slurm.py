"""--slurm: the points not yet done as one `sbatch --array` job; each task runs
`malibu-sweep run-point DIR $SLURM_ARRAY_TASK_ID` (the local runner's own code).  Slurm
schedules; DIR/slurm.json keeps the job id for status."""
import os
import shlex
import subprocess
import sys

from . import runner


def submit(sweep_dir, tool, partition=None, time_limit=None, extra=(), max_parallel=None, out=sys.stderr):
    meta = runner.read_json(os.path.join(sweep_dir, "sweep.json"))
    n = len(meta["points"])
    todo = [i for i in range(n) if runner.state(sweep_dir, i) != "done"]
    if not todo:
        print("malibu-sweep: every point is done; nothing to submit", file=out)
        return None
    for i in todo:
        for name in ("started", "state.json"):
            p = os.path.join(runner.point_dir(sweep_dir, i), name)
            if os.path.exists(p):
                os.remove(p)
    logs = os.path.join(sweep_dir, "slurm")
    os.makedirs(logs, exist_ok=True)
    array = ",".join(map(str, todo)) + ("%%%d" % max_parallel if max_parallel else "")
    argv = ["sbatch", "--parsable", "--job-name", "malibu-sweep-" + meta["name"], "--array", array,
            "--output", os.path.join(logs, "task-%a.out"), "--chdir", sweep_dir]
    if partition:
        argv += ["--partition", partition]
    if time_limit:
        argv += ["--time", time_limit]
    argv += list(extra)
    argv += ["--wrap", "exec %s %s run-point %s $SLURM_ARRAY_TASK_ID" % (
        shlex.quote(sys.executable), shlex.quote(tool), shlex.quote(sweep_dir))]
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode:
        raise RuntimeError("sbatch failed (%d): %s" % (r.returncode, r.stdout.strip()))
    job = r.stdout.strip().split(";")[0]
    runner.write_json(os.path.join(sweep_dir, "slurm.json"), {"job": job, "array": array, "argv": argv})
    print("malibu-sweep: submitted job %s: %d point(s) as array %s" % (job, len(todo), array), file=out)
    return job


def queue(sweep_dir):
    """{state: count} of the sweep's array tasks Slurm still knows (squeue), {} when none."""
    info = runner.read_json(os.path.join(sweep_dir, "slurm.json"))
    if not info:
        return None, {}
    r = subprocess.run(["squeue", "--noheader", "--array", "--jobs", info["job"], "--format", "%T"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    c = {}
    for s in r.stdout.split():
        c[s] = c.get(s, 0) + 1
    return info["job"], c
