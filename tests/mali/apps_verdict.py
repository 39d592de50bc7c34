#!/usr/bin/env python3
"""Verdict of tests/mali/apps_test.sh from its work directory.

    apps_verdict.py WORK --runs "g71-t1 g71-t2 ..." --threads "1 2" --ref RUN/out/llvmpipe
                    --apps "NAME[:ARGS] ..." [--known-fail "NAME ..."]

WORK/RUN (RUN = MODEL-tTHREADS) holds status (malibu's exit status), console.log (APPS_RESULT
and APPS_SAVED lines of apps_guest.sh) and out/ (the guest's tar: panfrost/, llvmpipe/, dmesg.txt).
Per sample, it must PASS on panfrost in every run (and on llvmpipe), its values must agree with
llvmpipe's (apps_compare.py rules) in every run and be byte-identical across the thread counts of
a model.  Every run must end with status 0, deliver its outputs, and leave a kernel log without
errors, warnings or panfrost job timeouts.  Known failures are reported but not gated.
Prints a line per sample and a summary; exits 1 on a gated failure.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import apps_compare  # noqa: E402

P = "mali-apps-test:"
BAD_LOG = re.compile(r"error|warn|\bbug\b|oops|unhandled|unknown|timeout|\bfault", re.I)


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def results(console):
    """{(driver, sample): last line} from APPS_RESULT lines."""
    out = {}
    for m in re.finditer(r"^APPS_RESULT (\S+) (\S+) status=(\d+) (.*)$", console, re.M):
        out[(m.group(1), m.group(2))] = m.group(4).strip()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("work")
    ap.add_argument("--runs", required=True)
    ap.add_argument("--threads", required=True)
    ap.add_argument("--ref", required=True)
    ap.add_argument("--apps", required=True)
    ap.add_argument("--known-fail", default="")
    o = ap.parse_args()
    runs = o.runs.split()
    samples = [a.split(":")[0] for a in o.apps.split()]
    known = set(o.known_fail.split())
    ref_dir = os.path.join(o.work, o.ref)
    ref_run = o.ref.split("/")[0]
    gate = []  # messages of gated failures

    # ---- per boot: exit status, outputs delivered, kernel log ----
    verdicts = {}
    for r in runs:
        d = os.path.join(o.work, r)
        console = read(os.path.join(d, "console.log"))
        status = read(os.path.join(d, "status")).strip()
        res = results(console)
        verdicts[r] = res
        problems = []
        if status != "0":
            problems.append(f"malibu exit status {status or '?'}")
        if "APPS_SAVED" not in console:
            problems.append("outputs not saved (no APPS_SAVED)")
        dmesg = read(os.path.join(d, "out", "dmesg.txt"))
        timeouts = [ln for ln in dmesg.splitlines() if "sched timeout" in ln]
        bad = [ln for ln in dmesg.splitlines() if BAD_LOG.search(ln) and ln not in timeouts]
        if timeouts:
            problems.append(f"PANFROST JOB TIMEOUT ({len(timeouts)}x: the driver stopped a GPU job "
                            f"after 500 ms; host too slow or loaded?): {timeouts[0].strip()}")
        if bad:
            problems.append(f"{len(bad)} kernel log error/warning lines, first: {bad[0].strip()}")
        if problems:
            gate.extend(f"{r}: {p}" for p in problems)
            print(f"{P} {r}: " + "; ".join(problems))
            if status != "0" or "APPS_SAVED" not in console:
                print("\n".join("    | " + ln for ln in console.splitlines()[-20:]))

    # ---- per sample ----
    models = []
    for r in runs:
        m = r.rsplit("-t", 1)[0]
        if m not in models:
            models.append(m)
    failed_known, passed_known, failed = [], [], []
    for s in samples:
        problems, notes = [], []
        for r in runs:
            v = verdicts[r].get(("panfrost", s), "no result")
            if v != f"{s}: PASS":
                problems.append((r, v))
        v = verdicts.get(ref_run, {}).get(("llvmpipe", s), "no result")
        if v != f"{s}: PASS":
            problems.append(("llvmpipe", v))
        vs_ref = {}
        for r in runs:
            ok, det = apps_compare.compare(os.path.join(o.work, r, "out", "panfrost"), ref_dir,
                                           [s], False)[s]
            vs_ref[r] = det
            if not ok:
                problems.append((r, "vs llvmpipe: " + "; ".join(det)))
        groups = {}
        for r, det in vs_ref.items():
            groups.setdefault("; ".join(det), []).append(r)
        if len(groups) == 1:
            notes.append("vs llvmpipe: " + next(iter(groups)))
        else:
            notes.append("vs llvmpipe: " + " | ".join(f"{' '.join(rs)}: {det}"
                                                      for det, rs in groups.items()))
        threads_same = True
        for m in models:
            mruns = [r for r in runs if r.rsplit("-t", 1)[0] == m]
            for r in mruns[1:]:
                ok, det = apps_compare.compare(os.path.join(o.work, r, "out", "panfrost"),
                                               os.path.join(o.work, mruns[0], "out", "panfrost"),
                                               [s], True)[s]
                if not ok:
                    threads_same = False
                    problems.append((r, f"vs {mruns[0]}: " + "; ".join(det)))
        notes.append(f"--gpu-threads {'/'.join(o.threads.split())}: "
                     + ("identical" if threads_same else "DIFFER"))
        head = f"{P} {s}:"
        if not problems:
            print(f"{head} PASS on {' '.join(runs)} and llvmpipe; " + "; ".join(notes))
            if s in known:
                passed_known.append(s)
            continue
        label = "KNOWN FAILURE (not gated)" if s in known else "FAILED"
        print(f"{head} {label}: " + "; ".join(notes))
        grouped = {}
        for r, msg in problems:
            grouped.setdefault(msg, []).append(r)
        for msg, rs in grouped.items():
            print(f"    {' '.join(rs)}: {msg}")
        failed_runs = [r for r in runs if verdicts[r].get(("panfrost", s)) != f"{s}: PASS"]
        if failed_runs and s not in known:
            log = os.path.join(o.work, failed_runs[0], "out", "panfrost", s + ".log")
            tail = read(log).splitlines()[-12:] or ["(no log)"]
            print(f"    {log}:\n" + "\n".join("    | " + ln for ln in tail))
        (failed_known if s in known else failed).append(s)

    gate.extend(f"{s} failed" for s in failed)
    print(f"{P} {len(samples)} samples x {len(runs)} boots ({', '.join(runs)}), reference llvmpipe "
          f"({ref_run}): {len(samples) - len(failed) - len(failed_known)} passed everywhere"
          + (f", FAILED: {' '.join(failed)}" if failed else ""))
    for s in failed_known:
        print(f"{P} !!! KNOWN FAILURE, excluded from the gate: {s} (MALI_APPS_KNOWN_FAIL) !!!")
    for s in passed_known:
        print(f"{P} note: {s} passes now: remove it from MALI_APPS_KNOWN_FAIL (tests/mali/apps_test.sh)")
    if gate:
        print(f"{P} FAILED: " + "; ".join(gate))
        return 1
    print(f"{P} ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
