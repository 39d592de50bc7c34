#!/usr/bin/env python3
"""The verdict of tests/piglit/piglit_test.sh: piglit's OpenCL tests on each Mali model against
the same tests on rusticl's llvmpipe in the same guest image.

    piglit_compare.py --run MODEL=CONSOLE... --known FILE [--list LIST]

CONSOLE: a boot's console log with tests/piglit/piglit_guest.sh's lines: its panfrost results are
MODEL's, its llvmpipe results (from every boot together) the reference.  The rule: a test that
passes on llvmpipe and is not skipped on the Mali passes on the Mali, and no panfrost test leaves
a panfrost error, GPU fault, job timeout or oops in the kernel log.  A test that breaks it is a
difference; a difference passes the check only when FILE (tests/piglit/known-differences.txt)
names it, for that model or for every model, with its cause.  A listed test that ran and no
longer differs fails the check too (stale: the list only shrinks).  Every test of LIST must have
a result on every device, and every kernel-log error of a boot must fall in one of its tests.
Prints the counts per device, each difference with its cause, and the tests the Mali passes and
llvmpipe does not (for the record)."""
import argparse
import collections
import sys


def parse(path):
    """{device: {test: result}}, {test: [log line]} (panfrost), {test: klog errors}, total errors"""
    res = collections.defaultdict(collections.OrderedDict)
    why = collections.defaultdict(list)
    klog = {}
    total = None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")   # the console's CRLF
            w = line.split(" ", 4)
            if w[0] == "PIGLIT_RESULT" and len(w) == 5:
                res[w[1]][w[4]] = w[2]
            elif w[0] == "PIGLIT_KLOG" and len(w) >= 4 and w[2].isdigit():
                klog[line.split(" ", 3)[3]] = int(w[2])
            elif w[0] == "PIGLIT_LOG" and len(w) >= 3 and w[1] == "panfrost":
                name, _, text = line.split(" ", 2)[2].partition(": ")
                why[name].append(text)
            elif w[0] == "PIGLIT_DMESG_BAD" and len(w) == 2 and w[1].isdigit():
                total = int(w[1])
    return res, why, klog, total


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
    a = ap.parse_args()
    known = known_list(a.known)
    want = None
    if a.list:
        with open(a.list) as f:
            want = [l.split("\t")[0] for l in f.read().splitlines() if l]
    runs = []
    ref = {}
    bad = []
    for spec in a.run:
        model, _, path = spec.partition("=")
        res, why, klog, total = parse(path)
        runs.append((model, res["panfrost"], why, klog))
        ref.update(res["llvmpipe"])
        if total is None:
            bad.append("%s: the guest did not finish (no PIGLIT_DMESG_BAD line in %s)" % (model, path))
        elif total != sum(klog.values()):
            bad.append("%s: %d kernel-log errors, %d of them during tests (boot or between tests?)"
                       % (model, total, sum(klog.values())))
    print("piglit-cl: llvmpipe: %d tests: %s" % (len(ref), counts(ref)))
    if want is not None and set(want) - set(ref):
        bad.append("llvmpipe: %d tests without a result" % len(set(want) - set(ref)))
    used = set()
    for model, res, why, klog in runs:
        print("piglit-cl: %s: %d tests: %s; %d with kernel-log errors"
              % (model, len(res), counts(res), len(klog)))
        if want is not None and set(want) - set(res):
            bad.append("%s: %d tests without a result" % (model, len(set(want) - set(res))))
        for test, r in res.items():
            entry = (model, test) if (model, test) in known else ("*", test)
            listed = entry in known
            what = []
            if ref.get(test) == "pass" and r not in ("pass", "skip", "notinstalled"):
                what.append("llvmpipe pass, %s %s" % (model, r))
            if test in klog:
                what.append("%d kernel-log errors" % klog[test])
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
        print("piglit-cl: FAILED: " + b)
    print("piglit-cl: %s (%d known differences used of %d listed)"
          % ("FAILED" if bad else "ok", len(used), len(known)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
