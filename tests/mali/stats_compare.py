#!/usr/bin/env python3
"""Compare the shader-core counts of two malibu --stats reports (tests/mali/apps_test.sh with
MALI_APPS_STATS=1).

    stats_compare.py [--apps "NAME..."] RUN_A RUN_B

RUN is a boot's directory of apps_test.sh: RUN/stats.json is the report, RUN/console.log the
console with one "APPS_RESULT panfrost NAME status=N ..." line per sample (apps_guest.sh).
Every sample must have status 0 in both runs,
both reports must be complete, and their "gpu" members "kernels", "shader_jobs",
"shader_jobs_omitted" and "totals" must be identical (the device's register, IRQ and MMU counts
depend on the driver's timing and are not compared).  Prints the differences and exits 1 on any.
"""
import argparse
import json
import os
import re
import sys

COMPARED = ("kernels", "shader_jobs", "shader_jobs_omitted", "totals")


def differences(a, b, path, out):
    if type(a) is not type(b):
        out.append(f"{path}: {a!r:.60} vs {b!r:.60}")
    elif isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}/{k}: only in {'B' if k not in a else 'A'}")
            else:
                differences(a[k], b[k], f"{path}/{k}", out)
    elif isinstance(a, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} vs {len(b)} entries")
        for i, (x, y) in enumerate(zip(a, b)):
            differences(x, y, f"{path}[{i}]", out)
    elif a != b:
        out.append(f"{path}: {a!r:.60} vs {b!r:.60}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--apps", default="")
    ap.add_argument("runs", nargs=2)
    args = ap.parse_args()
    bad = []
    reports = []
    for run in args.runs:
        try:
            with open(os.path.join(run, "console.log"), errors="replace") as f:
                log = f.read()
            with open(os.path.join(run, "stats.json")) as f:
                reports.append(json.load(f))
        except (OSError, ValueError) as e:
            print(f"mali-apps-test: {run}: {e}")
            return 1
        status = dict(re.findall(r"^APPS_RESULT panfrost (\S+) status=(\d+)", log, re.M))
        for app in args.apps.split():
            if status.get(app) != "0":
                bad.append(f"{run}: {app}: status {status.get(app, 'missing')}")
        if not reports[-1].get("complete"):
            bad.append(f"{run}/stats.json: incomplete report ({reports[-1].get('exit_reason')})")
    a, b = (r.get("gpu", {}) for r in reports)
    diff = []
    for k in COMPARED:
        differences(a.get(k), b.get(k), k, diff)
    if not a.get("kernels"):
        bad.append(f"{args.runs[0]}/stats.json: no kernels counted")
    for line in bad + diff[:40]:
        print("mali-apps-test: --stats", line)
    if len(diff) > 40:
        print(f"mali-apps-test: --stats ... {len(diff) - 40} more differences")
    t = a.get("totals", {})
    name = " vs ".join(r.rsplit("/", 1)[-1] for r in args.runs)
    if bad or diff:
        print(f"mali-apps-test: --stats {name}: DIFFERS")
        return 1
    print(f"mali-apps-test: --stats {name}: identical: {len(a['kernels'])} kernels, {len(a.get('shader_jobs', []))} "
          f"shader jobs, {t.get('clause_executions')} clause executions, {t.get('thread_instructions')} "
          f"thread instructions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
