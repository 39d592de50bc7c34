#!/usr/bin/env python3
"""Checks of the report's names and regions (tests/stats/roi_test.sh, emu/stats/SCHEMA.md "roi").

  check_roi.py kernels REPORT.json   roi_kernels' run: per-name launch counts 1, 2, 5 (and the
                                     roi_outside launches outside every region), per-name totals
                                     equal to the sums of their rows, rows equal to the jobs of
                                     gpu.shader_jobs, nested regions holding only their own launches
  check_roi.py clpeak REPORT.json    clpeak --kernel-latency under the naming layer: its kernel
                                     named, every announced launch matched to a job
  check_roi.py fuzz REPORT.json      malibu_fuzz's run: channel errors counted, bounds kept
  check_roi.py timeline REPORT.json TIMELINE.json
                                     the same run's --timeline: its GPU jobs named by kernel as
                                     often as the report's names launched, and every region and
                                     annotation of the report on the region tracks
Prints what it checked; exit 1 with the failures listed."""
import json
import os
import sys

failures = []


def check(cond, what):
    print("  %s: %s" % ("ok" if cond else "FAIL", what))
    if not cond:
        failures.append(what)


def names_of(roi):
    return {n["name"]: n for n in roi["kernel_names"]}


def check_name_sums(rep):
    """every name's totals are the sums of its rows, and each row is its gpu.shader_jobs entry"""
    jobs = rep["gpu"]["shader_jobs"]
    kernels = rep["gpu"]["kernels"]
    for n in rep["roi"]["kernel_names"]:
        rows = n["rows"]
        check(n["launches"] == len(rows), "%s: launches %d = its %d rows" % (n["name"], n["launches"], len(rows)))
        for key in ("thread_instructions", "warp_instructions", "clause_executions"):
            s = sum(r[key] for r in rows)
            check(n[key] == s, "%s: %s %d = sum of rows %d" % (n["name"], key, n[key], s))
        # gpu.shader_jobs lists the first 10000 jobs (STATS_JOB_LIST_MAX)
        listed = [r for r in rows if r["job"] is not None and r["job"] < len(jobs)]
        bad = [r for r in rows if r["job"] is None] + [
            r for r in listed if jobs[r["job"]]["thread_instructions"] != r["thread_instructions"]
            or jobs[r["job"]]["clause_executions"] != r["clause_executions"]]
        check(not bad, "%s: every row equals its job in gpu.shader_jobs (%d listed there)" % (n["name"], len(listed)))
        check(all(jobs[r["job"]].get("name") == n["name"] for r in listed),
              "%s: gpu.shader_jobs names each of its jobs" % n["name"])
        ks = {kernels[r["kernel"]]["name"] for r in rows if r["kernel"] is not None}
        check(ks == ({n["name"]} if rows else set()), "%s: gpu.kernels names its program %s" % (n["name"], sorted(ks)))


def region_sum(rep, r):
    jobs = rep["gpu"]["shader_jobs"][r["first_job"]:r["end_job"]]
    return sum(j["thread_instructions"] for j in jobs), len(jobs)


def kernels(rep):
    roi = rep["roi"]
    names = names_of(roi)
    want = {"roi_outside": 2, "roi_once": 1, "roi_twice": 2, "roi_five": 5}
    for n, c in want.items():
        check(n in names and names[n]["launches"] == c and names[n]["announced"] == c,
              "%s: %d launches announced and named (got %s)" % (n, c, names.get(n, {}).get("launches")))
    for n in ("decoy_never_enqueued", "decoy_cancelled"):
        check(n in names and names[n]["announced"] == 1 and names[n]["launches"] == 0, "%s named no job" % n)
    l = roi["launches"]
    check(l["announced"] == 12 and l["matched"] == 10 and l["cancelled"] == 1 and l["pending"] == 1,
          "12 launches announced, 10 matched, 1 cancelled, the decoy pending: %s" % l)
    check(all(names[n]["thread_instructions"] > 0 for n in want if n in names), "every named kernel ran instructions")
    check_name_sums(rep)
    regs = {r["name"]: r for r in roi["regions"]}
    check(set(regs) >= {"outer", "inner"}, "regions outer and inner: %s" % sorted(regs))
    if failures:
        return
    outer, inner = regs["outer"], regs["inner"]
    check(outer["parent"] is None and outer["depth"] == 0 and inner["parent"] == outer["id"] and inner["depth"] == 1,
          "inner nests in outer")
    check(outer["closed"] and inner["closed"], "both regions closed")
    check(outer["first_job"] <= inner["first_job"] <= inner["end_job"] <= outer["end_job"],
          "inner's jobs [%d, %d) lie in outer's [%d, %d)" % (inner["first_job"], inner["end_job"], outer["first_job"],
                                                          outer["end_job"]))

    def launches_in(r):
        got = {}
        for n, v in names.items():
            for row in v["rows"]:
                if r["first_job"] <= row["job"] < r["end_job"]:
                    got[n] = got.get(n, 0) + 1
        return got
    check(launches_in(inner) == {"roi_twice": 2, "roi_five": 5}, "inner holds roi_twice x2, roi_five x5 only: %s"
          % launches_in(inner))
    check(launches_in(outer) == {"roi_once": 1, "roi_twice": 2, "roi_five": 5},
          "outer holds roi_once x1 and inner's launches only: %s" % launches_in(outer))
    for r in (outer, inner):
        s, n = region_sum(rep, r)
        check(r["gpu"]["jobs"] == n and r["gpu"]["thread_instructions"] == s,
              "%s: gpu totals = its %d jobs' (%d thread instructions)" % (r["name"], n, s))
        mix = sum(v["thread"] for k, v in r["gpu"]["instruction_mix"].items() if not k.startswith("nop"))
        check(mix > 0, "%s: instruction mix present" % r["name"])
        check(r["cpu_instructions"] > 0, "%s: %d CPU instructions" % (r["name"], r["cpu_instructions"]))
        if "timing" in rep:
            tj = [j for j in rep["timing"]["jobs"] if r["first_job"] <= j["job"] < r["end_job"]]
            got = r.get("timing", {})
            check(got.get("jobs") == len(tj) == n and got.get("messages") == sum(j["messages"] for j in tj)
                  and got.get("stall_cycles") == sum(j["stall_cycles"] for j in tj)
                  and got["counts"]["l2"]["accesses"] == sum(j["counts"]["l2"]["accesses"] for j in tj),
                  "%s: timing counts = its %d jobs' in timing.jobs (%s messages)" % (r["name"], n, got.get("messages")))
    named = sum(names[n]["thread_instructions"] for n in ("roi_twice", "roi_five"))
    check(inner["gpu"]["thread_instructions"] >= named, "inner's thread instructions %d >= its named launches' %d"
          % (inner["gpu"]["thread_instructions"], named))
    check(inner["gpu"]["divergence"]["divergent_executions"] > 0, "inner: roi_twice's divergence counted")
    check(outer["cpu_instructions"] > inner["cpu_instructions"], "outer ran more CPU instructions than inner")
    check(outer["end"]["guest_ns"] >= inner["end"]["guest_ns"] >= inner["begin"]["guest_ns"] >= outer["begin"]["guest_ns"],
          "guest times nest")
    texts = [a["text"] for a in roi["annotations"]]
    check(texts[:7] == ["roi_twice launch 1", "roi_twice launch 2"] + ["roi_five launch %d" % i for i in range(1, 6)],
          "annotations in order: %s" % texts[:7])
    dumps = {d["tag"]: d for d in roi["dumps"]}
    check("after-outer" in dumps and dumps["after-outer"]["end_job"] >= outer["end_job"], "dump after-outer")
    if "shell" in regs:
        check(regs["shell"]["closed"] and "hello from sh" in texts, "the malibu command's region and annotation")


def clpeak(rep):
    roi = rep["roi"]
    names = names_of(roi)
    lat = [n for n in names if n.startswith("global_bandwidth_v1")]
    check(len(lat) == 1, "clpeak's latency kernel named: %s" % sorted(names))
    if lat:
        n = names[lat[0]]
        check(n["launches"] == n["announced"] and n["launches"] >= 3,
              "%s: all %d announced launches named a job (%d)" % (lat[0], n["announced"], n["launches"]))
        ks = [k for k in rep["gpu"]["kernels"] if k["name"] == lat[0]]
        check(len(ks) == 1 and ks[0]["jobs"] == n["launches"],
              "gpu.kernels lists it by name with its %d jobs" % n["launches"])
    check(roi["launches"]["pending"] == 0 and roi["launches"]["unmatched"] == 0, "nothing left unmatched: %s"
          % roi["launches"])
    check_name_sums(rep)


def timeline(rep):
    with open(sys.argv[3]) as f:
        t = json.load(f)
    ev = [e for e in (t["traceEvents"] if isinstance(t, dict) else t) if e.get("pid") == 1]  # guest time
    jobs = {}
    for e in ev:
        if e.get("cat") == "gpu" and e.get("ph") == "X":
            jobs[e["name"]] = jobs.get(e["name"], 0) + 1
    for n in rep["roi"]["kernel_names"]:
        check(jobs.get(n["name"], 0) == n["launches"], "timeline: %d GPU jobs named %s, the report's %d launches"
              % (jobs.get(n["name"], 0), n["name"], n["launches"]))
    spans = sorted(e["name"] for e in ev if e.get("cat") == "region" and e.get("ph") == "X")
    want = sorted(r["name"] for r in rep["roi"]["regions"])
    check(spans == want, "timeline: region spans %s, the report's regions %s" % (spans, want))
    notes = {e["name"] for e in ev if e.get("cat") == "annotation"}
    texts = {a["text"] for a in rep["roi"]["annotations"]}
    check(texts <= notes, "timeline: the report's %d annotations on the region tracks (missing: %s)"
          % (len(texts), sorted(texts - notes)))


def fuzz(rep):
    ch = rep["roi"]["channel"]
    check(ch["errors"] >= 100000, "%d channel errors counted" % ch["errors"])
    e = ch["errors_by_code"]
    check(e["fault"] > 0 and e["too_long"] > 0 and e["invalid"] > 0 and e["no_space"] > 0,
          "every kind of error seen: %s" % e)
    check(len(rep["roi"]["annotations"]) == 4096, "annotations bounded at 4096")
    check(rep["roi"]["launches"]["pending"] <= 256, "pending launches bounded at 256")
    check(all(r["closed"] for r in rep["roi"]["regions"]), "every region closed")


def main():
    if len(sys.argv) != (4 if sys.argv[1:2] == ["timeline"] else 3) or \
            sys.argv[1] not in ("kernels", "clpeak", "fuzz", "timeline"):
        sys.exit(__doc__)
    with open(sys.argv[2]) as f:
        rep = json.load(f)
    print("check_roi %s %s" % (sys.argv[1], sys.argv[2]))
    try:
        import jsonschema
        schema = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "emu", "stats", "schema.json")
        with open(schema) as f:
            errs = [e.message for e in jsonschema.Draft7Validator(json.load(f)).iter_errors(rep)]
        check(not errs, "the report matches emu/stats/schema.json%s" % ("" if not errs else ": " + "; ".join(errs[:3])))
    except ImportError:
        check(False, "python3-jsonschema not installed (tools/host-packages): the report cannot be validated")
    globals()[sys.argv[1]](rep)
    if failures:
        print("check_roi: FAIL: %d check(s):\n  %s" % (len(failures), "\n  ".join(failures)))
        sys.exit(1)
    print("check_roi: PASS")


if __name__ == "__main__":
    main()
