#!/usr/bin/env python3
"""The verdict of tests/piglit/piglit_test.sh: a piglit suite (OpenCL or GLES) on each Mali model
against the same tests on llvmpipe (rusticl's, or Mesa's GL one) in the same guest image.

    piglit_compare.py --run MODEL=CONSOLE... --known FILE [--list LIST] [--name NAME]
                      [--renderer] [--real-fails MODEL=FILE] [--sets DIR]

CONSOLE: a boot's console log with tests/piglit/piglit_guest.sh's lines: its panfrost results are
MODEL's, its llvmpipe results (from every boot together) the reference.  The rule: a test that
passes on llvmpipe and is not skipped on the Mali passes on the Mali, and no panfrost test leaves
a panfrost error, GPU fault, job timeout or oops in the kernel log, nor a job that Mesa found
faulted (PAN_MESA_DEBUG=sync).  With --real-fails MODEL=FILE, real hardware is a second oracle
for MODEL: a test FILE does not name (FILE: the tests of ours that Mesa's CI expects to fail on
that GPU) passes on real hardware, so it must not fail, crash or time out on MODEL either.
A test that breaks a rule is a difference; a difference passes the check only when FILE
(tests/piglit/known-differences*.txt) names it, for that model or for every model, with its
cause.  A listed test that ran and no longer differs fails the check too (stale: the list only
shrinks).  Every test of LIST must have a result on every device, every kernel-log error of a
boot must fall in one of its tests, and a PIGLIT_ERROR line (a stream on the wrong device) fails.
--renderer: each boot's panfrost renderer (PIGLIT_DEVICE) must be "Mali-MODEL (Panfrost)"
(Mesa may add the core count: "Mali-G72 MC3 (Panfrost)").
Prints the counts per device, each difference with its cause, and the tests the Mali passes and
llvmpipe does not (for the record); --sets DIR writes the sets of passing tests, one name a line,
to DIR/llvmpipe.pass and DIR/MODEL.pass."""
import argparse
import collections
import os
import re
import sys


def parse(path):
    """{device: {test: result}}, {test: [log line]} (panfrost), {test: klog errors}, total errors,
    {test: faulted jobs}, {device: renderer}, [PIGLIT_ERROR line]"""
    res = collections.defaultdict(collections.OrderedDict)
    why = collections.defaultdict(list)
    klog, joberr, renderer, errors = {}, {}, {}, []
    total = None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")   # the console's CRLF
            w = line.split(" ", 4)
            if w[0] == "PIGLIT_RESULT" and len(w) == 5:
                res[w[1]][w[4]] = w[2]
            elif w[0] in ("PIGLIT_KLOG", "PIGLIT_JOBERR") and len(w) >= 4 and w[2].isdigit():
                (klog if w[0] == "PIGLIT_KLOG" else joberr)[line.split(" ", 3)[3]] = int(w[2])
            elif w[0] == "PIGLIT_LOG" and len(w) >= 3 and w[1] == "panfrost":
                name, _, text = line.split(" ", 2)[2].partition(": ")
                why[name].append(text)
            elif w[0] == "PIGLIT_DMESG_BAD" and len(w) == 2 and w[1].isdigit():
                total = int(w[1])
            elif w[0] == "PIGLIT_DEVICE" and len(w) >= 3:
                renderer[w[1]] = line.split(" ", 2)[2]
            elif w[0] == "PIGLIT_ERROR":
                errors.append(line)
    return res, why, klog, total, joberr, renderer, errors


def name_list(path):
    """The test names of a file of names, one a line (# comments)."""
    with open(path) as f:
        return {l.strip() for l in f if l.strip() and not l.startswith("#")}


def known_list(path):
    """{(model or '*', test): cause}; lines "MODEL TEST-NAME -- CAUSE" (MODEL: g71, g52 or *)."""
    out = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            head, sep, cause = line.partition(" -- ")
            model, _, test = head.partition(" ")
            if not sep or not test.strip() or not cause.strip():
                sys.exit("piglit_compare: %s:%d: not \"MODEL TEST -- CAUSE\"" % (path, n))
            out[(model, test.strip())] = cause.strip()
    return out


def counts(res):
    c = collections.Counter(res.values())
    return ", ".join("%s %d" % (k, c[k]) for k in sorted(c)) or "nothing"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", action="append", default=[], required=True)
    ap.add_argument("--known", required=True)
    ap.add_argument("--list")
    ap.add_argument("--name", default="piglit-cl")
    ap.add_argument("--renderer", action="store_true")
    ap.add_argument("--real-fails", action="append", default=[])
    ap.add_argument("--sets")
    ap.add_argument("--split", action="store_true",
                    help="the I-th of N --run models ran list entries I, I+N, ... on the Mali")
    a = ap.parse_args()
    tag = a.name
    known = known_list(a.known)
    real = {m: name_list(p) for m, _, p in (r.partition("=") for r in a.real_fails)}
    want = None
    order = []
    if a.list:
        with open(a.list) as f:
            order = [l.split("\t")[0] for l in f.read().splitlines() if l]
        want = set(order)
    runs = []
    ref = {}
    bad = []
    for spec in a.run:
        model, _, path = spec.partition("=")
        res, why, klog, total, joberr, renderer, errors = parse(path)
        runs.append((model, res["panfrost"], why, klog, joberr))
        ref.update(res["llvmpipe"])
        bad += ["%s: %s" % (model, e) for e in errors]
        if a.renderer:
            r = renderer.get("panfrost", "none")
            print("%s: %s: panfrost renderer \"%s\", llvmpipe renderer \"%s\""
                  % (tag, model, r, renderer.get("llvmpipe", "none")))
            if not re.match(r"Mali-%s( MC\d+)? \(Panfrost\)$" % re.escape(model.upper()), r):
                bad.append("%s: the panfrost renderer is \"%s\", not Mali-%s (Panfrost)"
                           % (model, r, model.upper()))
        if total is None:
            bad.append("%s: the guest did not finish (no PIGLIT_DMESG_BAD line in %s)" % (model, path))
        elif total != sum(klog.values()):
            bad.append("%s: %d kernel-log errors, %d of them during tests (boot or between tests?)"
                       % (model, total, sum(klog.values())))
    print("%s: llvmpipe: %d tests: %s" % (tag, len(ref), counts(ref)))
    if want is not None and set(want) - set(ref):
        bad.append("llvmpipe: %d tests without a result" % len(set(want) - set(ref)))
    if a.sets:
        os.makedirs(a.sets, exist_ok=True)
        with open(os.path.join(a.sets, "llvmpipe.pass"), "w") as f:
            f.write("".join(t + "\n" for t in sorted(t for t, r in ref.items() if r == "pass")))
    used = set()
    for k, (model, res, why, klog, joberr) in enumerate(runs):
        mine = want
        if want is not None and a.split:
            mine = {t for i, t in enumerate(order) if i % len(runs) == k}
        print("%s: %s: %d tests: %s; %d with kernel-log errors, %d with faulted jobs"
              % (tag, model, len(res), counts(res), len(klog), len(joberr)))
        if a.sets:
            with open(os.path.join(a.sets, model + ".pass"), "w") as f:
                f.write("".join(t + "\n" for t in sorted(t for t, r in res.items() if r == "pass")))
        if mine is not None and mine - set(res):
            bad.append("%s: %d tests without a result" % (model, len(mine - set(res))))
        if mine is not None and set(res) - mine - {"malibu@gles_scene"}:
            bad.append("%s: %d tests not in its share of the list" % (model, len(set(res) - mine - {"malibu@gles_scene"})))
        for test, r in res.items():
            entry = (model, test) if (model, test) in known else ("*", test)
            listed = entry in known
            what = []
            if ref.get(test) == "pass" and r not in ("pass", "skip", "notinstalled"):
                what.append("llvmpipe pass, %s %s" % (model, r))
            # (the real-hardware oracle knows piglit's tests only, not our scene)
            if model in real and test not in real[model] and (want is None or test in want) \
                    and r in ("fail", "crash", "timeout", "warn"):
                what.append("real %s passes (not in Mesa CI's fails list), %s %s"
                            % (model.upper(), model, r))
            if test in klog:
                what.append("%d kernel-log errors" % klog[test])
            if test in joberr:
                what.append("%d faulted jobs" % joberr[test])
            if what and listed:
                used.add(entry)
                print("  known   %s %s: %s -- %s" % (model, test, "; ".join(what), known[entry]))
            elif what:
                detail = " | ".join(why.get(test, [])[-3:])
                bad.append("%s %s: %s (%s)" % (model, test, "; ".join(what), detail))
            elif listed:
                used.add(entry)
                bad.append("%s %s: listed as a known difference but %s %s, llvmpipe %s, clean "
                           "kernel log: remove it from %s" % (model, test, model, r, ref.get(test), a.known))
            elif r == "pass" and ref.get(test) not in (None, "pass"):
                print("  better  %s %s: %s pass, llvmpipe %s" % (model, test, model, ref[test]))
    for b in bad:
        print("%s: FAILED: %s" % (tag, b))
    print("%s: %s (%d known differences used of %d listed)"
          % (tag, "FAILED" if bad else "ok", len(used), len(known)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
