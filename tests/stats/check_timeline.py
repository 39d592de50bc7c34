#!/usr/bin/env python3
"""Checks a --timeline file (emu/stats/timeline.h) against the Chrome trace-event format and,
given the --stats report of the same run, against the report's counts.

Format: the JSON object form (traceEvents, otherData); every event has the keys its phase needs;
ph is a known phase; X durations are >= 0; per track (pid, tid) timestamps never go back, B/E
pairs nest (each E ends the latest open B, which began no later) and X spans nest (a span that
starts inside another ends inside it); instants have a scope; every track and process is named
by metadata.  Against the report: the GPU jobs per clock view equal gpu.jobs.total, the jobs of
each type gpu.jobs.<type>, the JOB interrupts gpu.irqs.job, and every COMPUTE job is named after
a kernel the report lists (the same naming), or after a name the caller expects (--kernel).

With --same-gpu OTHER.json: the guest-time view's GPU jobs of the two files (two runs of the
same program, e.g. with different --gpu-threads) are the same, job for job: slot, name, type,
workgroups, status and modelled duration.

With --cpu-sequence NAME,NAME...: vCPU 0's spans in guest time are exactly these states, in
this order (a program whose exceptions are known, such as tests/boot/hello.S).

Usage: check_timeline.py TIMELINE.json [--stats STATS.json] [--kernel NAME]... [--cpus N]
                         [--same-gpu OTHER.json] [--cpu-sequence NAME,NAME...]
Prints one line per finding; exit status 1 if any."""
import argparse
import json
import sys

PHASES = set("BEXiIMCbensftPOND") | {"(", ")"}
META_NAMES = {"process_name", "thread_name", "process_sort_index", "thread_sort_index",
              "process_labels"}
CPU_STATES = {"running", "idle (WFI)", "off"}


def ns(ts):
    """µs with ns decimals, as written, to integer ns (no float drift in comparisons)"""
    return round(ts * 1000)


def check_format(doc, errors):
    if isinstance(doc, list):
        events = doc
    elif isinstance(doc, dict) and isinstance(doc.get("traceEvents"), list):
        events = doc["traceEvents"]
    else:
        errors.append("not a trace: neither a list nor an object with traceEvents")
        return []
    names = {}           # (pid, tid) -> thread name; (pid, None) -> process name
    tracks = {}          # (pid, tid) -> state
    for n, e in enumerate(events):
        where = f"event {n} ({e.get('name')!r})" if isinstance(e, dict) else f"event {n}"
        if not isinstance(e, dict):
            errors.append(f"{where}: not an object")
            continue
        ph = e.get("ph")
        if ph not in PHASES:
            errors.append(f"{where}: ph {ph!r} is not a trace-event phase")
            continue
        for k in ("name", "pid") + (("tid", "ts") if ph != "M" else ()):
            if k not in e:
                errors.append(f"{where}: ph {ph} without {k!r}")
        if ph == "M":
            if e.get("name") not in META_NAMES:
                errors.append(f"{where}: unknown metadata event")
            if not isinstance(e.get("args"), dict):
                errors.append(f"{where}: metadata without args")
            elif e.get("name") == "process_name":
                names[(e["pid"], None)] = e["args"].get("name")
            elif e.get("name") == "thread_name":
                names[(e["pid"], e.get("tid"))] = e["args"].get("name")
            continue
        if not isinstance(e.get("ts"), (int, float)):
            errors.append(f"{where}: ts {e.get('ts')!r} is not a number")
            continue
        key = (e.get("pid"), e.get("tid"))
        t = tracks.setdefault(key, {"last": None, "b": [], "x": [], "n": 0})
        t["n"] += 1
        ts = ns(e["ts"])
        if t["last"] is not None and ts < t["last"]:
            errors.append(f"{where}: ts {e['ts']} before the previous event of track {key} ({t['last'] / 1000})")
        t["last"] = ts
        if ph == "X":
            dur = e.get("dur")
            if not isinstance(dur, (int, float)) or dur < 0:
                errors.append(f"{where}: X with dur {dur!r} (must be a number >= 0)")
                continue
            end = ts + ns(dur)
            while t["x"] and t["x"][-1] <= ts:   # spans that ended by now
                t["x"].pop()
            if t["x"] and end > t["x"][-1]:
                errors.append(f"{where}: X span {e['ts']}+{dur} overlaps the end of its enclosing span on "
                              f"track {key} ({t['x'][-1] / 1000}): spans do not nest")
            t["x"].append(end)
        elif ph == "B":
            t["b"].append((ts, e.get("name")))
        elif ph == "E":
            if not t["b"]:
                errors.append(f"{where}: E without an open B on track {key}")
            else:
                bts, bname = t["b"].pop()
                if bts > ts:
                    errors.append(f"{where}: E at {e['ts']} before its B ({bname!r} at {bts / 1000})")
        elif ph in "iI":
            if e.get("s", "t") not in ("g", "p", "t"):
                errors.append(f"{where}: instant with scope {e.get('s')!r}")
    for key, t in tracks.items():
        for bts, bname in t["b"]:
            errors.append(f"track {key}: B {bname!r} at {bts / 1000} never ends")
        if key not in names:
            errors.append(f"track {key}: {t['n']} events but no thread_name metadata")
        if (key[0], None) not in names:
            errors.append(f"process {key[0]}: no process_name metadata")
    return events


def check_against_stats(doc, events, stats, kernels, cpus, errors):
    other = doc.get("otherData", {}) if isinstance(doc, dict) else {}
    if other.get("dropped", 0):
        errors.append(f"the timeline dropped {other['dropped']} events: counts cannot match the report")
    pids = sorted({e["pid"] for e in events if e.get("ph") == "X"})
    if len(pids) != 2:
        errors.append(f"expected two clock views (processes), found {pids}")
    gjobs = stats["gpu"]["jobs"]
    names = {k["name"] for k in stats["gpu"].get("kernels", [])} | set(kernels)
    for pid in pids:
        jobs = [e for e in events if e.get("pid") == pid and e.get("cat") == "gpu" and e.get("ph") == "X"]
        if len(jobs) != gjobs["total"]:
            errors.append(f"pid {pid}: {len(jobs)} GPU jobs, the --stats report counts {gjobs['total']}")
        by_type = {}
        for j in jobs:
            ty = j.get("args", {}).get("type", "?").lower()
            by_type[ty] = by_type.get(ty, 0) + 1
        for ty, n in gjobs.items():
            if ty not in ("total", "failed") and by_type.get(ty, 0) != n:
                errors.append(f"pid {pid}: {by_type.get(ty, 0)} {ty} jobs, the report counts {n}")
        for j in jobs:
            if j["args"].get("type") == "COMPUTE" and j["name"] not in names:
                errors.append(f"pid {pid}: compute job named {j['name']!r}, not a kernel of the report "
                              f"({sorted(names)})")
        irqs = [e for e in events if e.get("pid") == pid and e.get("cat") == "irq" and e["name"] == "JOB interrupt"]
        if len(irqs) != stats["gpu"]["irqs"]["job"]:
            errors.append(f"pid {pid}: {len(irqs)} JOB interrupts, the report counts {stats['gpu']['irqs']['job']}")
        vcpus = {e["tid"] for e in events if e.get("pid") == pid and e.get("cat") == "cpu" and e.get("ph") == "X"}
        if len(vcpus) != cpus:
            errors.append(f"pid {pid}: {len(vcpus)} vCPU tracks, expected {cpus}")
        for e in events:
            if e.get("pid") == pid and e.get("cat") == "cpu" and not (
                    e["name"] in CPU_STATES or e["name"].startswith("exception (")):
                errors.append(f"pid {pid}: vCPU span named {e['name']!r}")
                break
    return len([e for e in events if e.get("cat") == "gpu" and e.get("pid") == 1])


def gpu_jobs(events):
    """the guest-time view's GPU jobs, in order, as what must not depend on the host"""
    return [(e["tid"], e["name"], e["args"].get("type"), e["args"].get("workgroups"), e["args"].get("local_size"),
             e["args"].get("status"), e["args"].get("modelled_ns"))
            for e in events if e.get("pid") == 1 and e.get("cat") == "gpu" and e.get("ph") == "X"]


def check_same_gpu(events, other_path, errors):
    with open(other_path) as f:
        doc = json.load(f)
    other = doc["traceEvents"] if isinstance(doc, dict) else doc
    a, b = gpu_jobs(events), gpu_jobs(other)
    if len(a) != len(b):
        errors.append(f"{len(a)} GPU jobs, {other_path} has {len(b)}")
    for n, (x, y) in enumerate(zip(a, b)):
        if x != y:
            errors.append(f"GPU job {n}: {x} here, {y} in {other_path}")
            break


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("timeline")
    ap.add_argument("--stats")
    ap.add_argument("--kernel", action="append", default=[])
    ap.add_argument("--cpus", type=int, default=1)
    ap.add_argument("--same-gpu", metavar="OTHER.json")
    ap.add_argument("--cpu-sequence", metavar="NAME,NAME...")
    a = ap.parse_args()
    errors = []
    try:
        with open(a.timeline) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"check_timeline: FAIL: {a.timeline}: {e}")
        return 1
    events = check_format(doc, errors)
    jobs = None
    if a.stats:
        with open(a.stats) as f:
            stats = json.load(f)
        jobs = check_against_stats(doc, events, stats, a.kernel, a.cpus, errors)
    if a.same_gpu:
        check_same_gpu(events, a.same_gpu, errors)
    if a.cpu_sequence:
        seq = [e["name"] for e in events if e.get("pid") == 1 and e.get("tid") == 100 and e.get("cat") == "cpu"]
        if seq != a.cpu_sequence.split(","):
            errors.append(f"vCPU 0's spans are {seq}, expected {a.cpu_sequence.split(',')}")
    for e in errors[:40]:
        print(f"check_timeline: FAIL: {e}")
    if len(errors) > 40:
        print(f"check_timeline: ... {len(errors) - 40} more")
    if not errors:
        print(f"check_timeline: ok: {len(events)} events{f', {jobs} GPU jobs as in the report' if jobs is not None else ''}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
