#!/usr/bin/env python3
"""make stats-test: a sample report (test_stats_gpu --json) validated against
emu/stats/schema.json and checked for internal consistency (totals = sums over kernels and
clauses, instructions = clause instructions x executions, edge threads = active lanes, each
kernel's counts = the sums over the jobs that ran it), for program identity (two different
shaders run at the same GPU VA are two kernels; the same shader run twice is one kernel with two
jobs), then rendered by malibu-report: the HTML must parse as XML, hold the SVG charts and one
CFG per kernel, and the DOT files must exist.  With rsvg-convert installed, every SVG is also
rasterised.  With --malibu: build/malibu --stats runs the bare-metal test to its end (a complete
report) and a spinning bare-metal kernel stopped by SIGTERM, SIGINT and SIGHUP (an incomplete
report, written all the same, and malibu dies of that signal)."""

import argparse
import json
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import time
import xml.dom.minidom

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "..", "emu", "stats", "schema.json")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def validate(report):
    with open(SCHEMA) as f:
        schema = json.load(f)
    try:
        import jsonschema
    except ImportError:
        check(False, "python3-jsonschema not installed (tools/host-packages): the report cannot be validated")
        return
    v = jsonschema.Draft7Validator(schema)
    errs = sorted(v.iter_errors(report), key=lambda e: list(e.path))
    for e in errs[:10]:
        check(False, "schema: %s at %s" % (e.message, "/".join(map(str, e.path))))
    # the schema must reject a damaged report
    bad = json.loads(json.dumps(report))
    bad["host_threads"] = -1
    if bad["gpu"]["kernels"] and bad["gpu"]["kernels"][0]["clauses"]:
        bad["gpu"]["kernels"][0]["clauses"][0]["tuples"] = 9
    check(sum(1 for _ in v.iter_errors(bad)) >= (2 if bad["gpu"]["kernels"] else 1), "schema rejects damaged values")


def consistency(report):
    gpu = report["gpu"]
    keys = ["clauses", "clause_executions", "thread_clause_executions", "warp_instructions", "thread_instructions"]
    for key in keys:
        check(gpu["totals"][key] == sum(k["totals"][key] for k in gpu["kernels"]), "totals.%s = sum over kernels" % key)
    for k in gpu["kernels"]:
        cl = k["clauses"]
        t = k["totals"]
        check(t["clauses"] == len(cl), "kernel %d: clause count" % k["id"])
        check(t["clause_executions"] == sum(c["executions"] for c in cl), "kernel %d: executions" % k["id"])
        check(t["warp_instructions"] == sum(c["instructions"] * c["executions"] for c in cl),
              "kernel %d: warp instructions = instructions x executions" % k["id"])
        check(t["thread_instructions"] == sum(c["instructions"] * c["active_lanes"] for c in cl),
              "kernel %d: thread instructions = instructions x active lanes" % k["id"])
        mix = sum(v["warp"] for n, v in t["instruction_mix"].items() if n not in ("nop_fma", "nop_add", "invalid"))
        check(mix == t["warp_instructions"], "kernel %d: mix adds up to warp instructions" % k["id"])
        for c in cl:
            check(sum(e["threads"] for e in c["edges"]) == c["active_lanes"],
                  "kernel %d clause %d: edge threads = active lanes" % (k["id"], c["pc"]))
            check(sum(c["classes"].values()) == 2 * c["tuples"], "kernel %d clause %d: 2 slots per tuple" % (k["id"], c["pc"]))
        check(k["cfg_dot"].startswith("digraph"), "kernel %d: DOT" % k["id"])
    jobs_and_kernels(report)
    # hand-worked values of the sample (tests/stats/stats_straight.s x 3 warps of 8, stats_branch.s)
    by_name = {k["name"]: k for k in gpu["kernels"]}
    s = by_name.get("shader@0x10000/as1")
    check(s is not None, "straight kernel named by stats_gpu_job_begin")
    if s:
        check(s["totals"]["warp_instructions"] == (4 + 1) * 3, "straight: (4 + 1) instructions x 3 executions")
        check(s["totals"]["instruction_mix"]["nop_fma"]["warp"] == 2 * 3, "straight: empty FMA slots")
    b = [k for k in gpu["kernels"] if k["shader_va"] is None]
    check(len(b) == 1, "branch kernel: the one no job announced")
    if b:
        b = b[0]
        c0 = b["clauses"][0]
        check(c0["divergent_executions"] == 1 and sorted((e["to"], e["threads"]) for e in c0["edges"]) == [(32, 2), (80, 6)],
              "branch: one divergent execution, 2 / 6 threads")
    check(report["gpu"]["mmu"]["pages_touched"] == 2, "pages touched")
    # vecadd, vecmul, vecadd at one shader VA (test_stats_gpu.c sample_report)
    at_va = [k for k in gpu["kernels"] if k["shader_va"] == 0x100000000]
    check(len(at_va) == 2, "two kernels at one shader VA (%d)" % len(at_va))
    if len(at_va) == 2:
        check(at_va[0]["code_hash"] != at_va[1]["code_hash"], "their code hashes differ")
        check(sorted(k["jobs"] for k in at_va) == [1, 2], "vecadd: 2 jobs, vecmul: 1 job")
        check(at_va[0]["totals"]["clause_executions"] == 2 * at_va[1]["totals"]["clause_executions"],
              "vecadd ran twice as many clauses as vecmul")


def jobs_and_kernels(report):
    """Each job refers to the kernel that lists it; a kernel's counts are its jobs' sums."""
    gpu = report["gpu"]
    jobs = gpu["shader_jobs"]
    check([j["id"] for j in jobs] == list(range(len(jobs))), "shader_jobs ids 0..n-1")
    hashes = [k["code_hash"] for k in gpu["kernels"]]
    check(len(set(zip(hashes, (k["lanes_per_warp"] for k in gpu["kernels"])))) == len(hashes),
          "one kernel per program (code hash)")
    for k in gpu["kernels"]:
        mine = [j for j in jobs if j["kernel"] == k["id"]]
        check([j["id"] for j in mine] == k["job_ids"], "kernel %d: job_ids = the jobs naming it" % k["id"])
        if gpu["shader_jobs_omitted"]:
            continue
        check(len(mine) == k["jobs"], "kernel %d: %d jobs" % (k["id"], k["jobs"]))
        for key in ("clause_executions", "thread_clause_executions", "warp_instructions", "thread_instructions"):
            check(sum(j[key] for j in mine) == k["totals"][key],
                  "kernel %d: %s = sum over its jobs" % (k["id"], key))
        check(k["code_clauses"] == k["totals"]["clauses"], "kernel %d: the clauses that identify it ran" % k["id"])
        check(k["code_bytes"] == sum(c["size"] for c in k["clauses"]), "kernel %d: code bytes" % k["id"])
    for j in jobs:
        check(j["kernel"] is None or 0 <= j["kernel"] < len(gpu["kernels"]), "job %d: kernel id" % j["id"])


def render(report_path, tool, workdir):
    out = os.path.join(workdir, "report")
    shutil.rmtree(out, ignore_errors=True)
    r = subprocess.run([sys.executable, tool, report_path, "-o", out], capture_output=True, text=True)
    check(r.returncode == 0, "malibu-report ran: %s" % r.stderr.strip())
    if r.returncode:
        return
    page = open(os.path.join(out, "index.html")).read()
    try:
        doc = xml.dom.minidom.parseString(page.replace("<!DOCTYPE html>", ""))
    except Exception as e:  # noqa: BLE001 -- any parse error is a failure
        check(False, "index.html is well-formed XML: %s" % e)
        return
    svgs = doc.getElementsByTagName("svg")
    report = json.load(open(report_path))
    nk = len(report["gpu"]["kernels"])
    titles = [t.firstChild.data for t in doc.getElementsByTagName("text")
              if t.getAttribute("class") == "title" and t.firstChild]
    if report["gpu"]["totals"]["clause_executions"]:
        check(len(svgs) >= 3 + 4 * nk, "SVG charts: %d" % len(svgs))   # totals: 3; per kernel: 3 charts + CFG
        for want in ("Instruction mix", "Clause sizes", "Operand accesses"):
            check(any(t.startswith(want) for t in titles), "chart %r present" % want)
    for k in report["gpu"]["kernels"]:
        check(os.path.exists(os.path.join(out, "kernel%d.dot" % k["id"])), "kernel%d.dot" % k["id"])
    # a damaged schema name is refused
    bad = os.path.join(workdir, "bad.json")
    with open(bad, "w") as f:
        json.dump(dict(report, schema="malibu-stats/0"), f)
    r = subprocess.run([sys.executable, tool, bad, "-o", os.path.join(workdir, "bad")], capture_output=True, text=True)
    check(r.returncode != 0, "malibu-report refuses another schema")
    rsvg = shutil.which("rsvg-convert")
    check(rsvg is not None, "rsvg-convert not installed (librsvg2-bin, tools/host-packages): the SVG charts "
          "cannot be rendered")
    if rsvg:
        for i, s in enumerate(re.findall(r"<svg.*?</svg>", page, re.S)):
            p = os.path.join(workdir, "svg%d.svg" % i)
            with open(p, "w") as f:
                f.write(s)
            r = subprocess.run([rsvg, "-o", p[:-4] + ".png", p], capture_output=True, text=True)
            check(r.returncode == 0, "rsvg-convert svg %d: %s" % (i, r.stderr.strip()))
    print("stats-test: %s (%d SVG)" % (os.path.join(out, "index.html"), len(svgs)))


def full_system(malibu, hello, workdir):
    """build/malibu --stats on the bare-metal smoke test: exit status 0, a valid report with the
    CPU's instructions and exceptions (SVC + UNDEF) and the UART's MMIO writes."""
    path = os.path.join(workdir, "hello.json")
    if os.path.exists(path):
        os.unlink(path)
    r = subprocess.run([malibu, "--kernel", hello, "--stats", path], stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, timeout=60)
    check(r.returncode == 0, "malibu --stats hello: exit status %d" % r.returncode)
    check("malibu stats -> " in r.stderr, "summary on stderr")
    if not os.path.exists(path):
        check(False, "malibu --stats wrote %s" % path)
        return
    report = json.load(open(path))
    validate(report)
    check(report["complete"] is True and report["exit_reason"] == "exit", "full system: a complete report")
    cpu = report["cpu"]
    check(cpu["instructions"] > 0, "full system: guest instructions")
    check(cpu["exceptions"] >= 2, "full system: SVC and UNDEF exceptions (%d)" % cpu["exceptions"])
    uart = [d for d in cpu["mmio"] if d["device"] == "pl011"]
    out = "hello: mmu off\nhello: mmu on\nhello: svc\nhello: after svc\nhello: after undef, EL4\n"
    check(uart and uart[0]["writes"] >= len(out), "full system: UART writes (%s)" % (uart[0]["writes"] if uart else None))
    check(report["config"].get("gpu") == "g71", "full system: config.gpu")
    os.makedirs(os.path.join(workdir, "hello"), exist_ok=True)
    render(path, REPORT_TOOL[0], os.path.join(workdir, "hello"))


# Bare-metal kernel for the signal test: writes "R" to the PL011, then spins (b .).
# arm64 Image header (b +64; text_offset 0x80000; image_size; LE, 4K pages; magic) + the loop
SPIN = struct.pack("<IIQQQQQQ4sI", 0x14000010, 0, 0x80000, 80, 2, 0, 0, 0, b"ARM\x64", 0) + \
       struct.pack("<4I", 0xD2AFFF01,    # mov  x1, #0x7ff80000   (PL011 data register)
                   0x52800A42,           # mov  w2, #'R'
                   0xB9000022,           # str  w2, [x1]
                   0x14000000)           # b    .


def stopped_by_signal(malibu, workdir):
    """malibu --stats on a kernel that never stops, then SIGTERM / SIGINT / SIGHUP once it runs:
    the report is written all the same, valid and marked incomplete with the signal's name, the
    summary goes to stderr, and malibu dies of the signal."""
    spin = os.path.join(workdir, "spin.bin")
    with open(spin, "wb") as f:
        f.write(SPIN)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        name = signal.Signals(sig).name
        path = os.path.join(workdir, "signal-%s.json" % name)
        if os.path.exists(path):
            os.unlink(path)
        p = subprocess.Popen([malibu, "--kernel", spin, "--stats", path], stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             preexec_fn=lambda: [signal.signal(s, signal.SIG_DFL)
                                                 for s in (signal.SIGINT, signal.SIGHUP)])
        out, deadline = b"", time.time() + 60
        while b"R" not in out and time.time() < deadline:     # the guest runs
            if select.select([p.stdout], [], [], 1)[0]:
                chunk = os.read(p.stdout.fileno(), 64)
                if not chunk:
                    break
                out += chunk
        check(b"R" in out, "%s: the spinning kernel started" % name)
        time.sleep(0.2)
        p.send_signal(sig)
        try:
            _, err = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            _, err = p.communicate()
            check(False, "%s: malibu stopped within 60 s" % name)
        err = err.decode("utf-8", "replace")
        check(p.returncode == -sig, "%s: malibu died of the signal (status %s)" % (name, p.returncode))
        check("malibu stats -> %s" % path in err and "incomplete" in err, "%s: summary on stderr" % name)
        if not os.path.exists(path):
            check(False, "%s: report %s written" % (name, path))
            continue
        try:
            report = json.load(open(path))
        except ValueError as e:
            check(False, "%s: report parses: %s" % (name, e))
            continue
        validate(report)
        check(report["complete"] is False, "%s: report marked incomplete" % name)
        check(report["exit_reason"] == name, "%s: exit_reason %r" % (name, report["exit_reason"]))
        check(report["cpu"]["instructions"] > 1000, "%s: the guest's instructions counted" % name)
    print("stats-test: SIGTERM, SIGINT, SIGHUP: incomplete reports written")


REPORT_TOOL = [None]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--unit", required=True, help="test_stats_gpu binary (writes the sample with --json)")
    ap.add_argument("--report", required=True, help="malibu-report")
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--json", help="check this report instead of the sample (no hand-worked values)")
    ap.add_argument("--malibu", help="build/malibu: run --hello with --stats")
    ap.add_argument("--hello", help="bare-metal test kernel (tests/boot/hello.S)")
    a = ap.parse_args()
    REPORT_TOOL[0] = a.report
    os.makedirs(a.workdir, exist_ok=True)
    path = a.json
    if not path:
        path = os.path.join(a.workdir, "sample.json")
        r = subprocess.run([a.unit, "--json", path])
        check(r.returncode == 0 and os.path.exists(path), "test_stats_gpu --json")
    if os.path.exists(path):
        report = json.load(open(path))
        validate(report)
        if not a.json:
            consistency(report)
        else:
            jobs_and_kernels(report)
        render(path, a.report, a.workdir)
    if a.malibu and a.hello:
        full_system(a.malibu, a.hello, a.workdir)
    if a.malibu:
        stopped_by_signal(a.malibu, a.workdir)
    if failures:
        print("stats-test: %d failure(s)" % len(failures))
        sys.exit(1)
    print("stats-test: ok")


if __name__ == "__main__":
    main()
