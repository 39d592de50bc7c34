#!/usr/bin/env python3
"""--gpu-trace jobs is malibu-decode's output, live (make gpu-trace-test).

Runs vecadd with rusticl on the emulated Mali-G71 in the guest image with both --gpu-trace jobs
and --gpu-dump DIR, then prints DIR with build/malibu-decode: every chain the trace printed must
be one malibu-decode printed from the dump, line for line (the trace's lines carry "gpu: "), and
the other way round; the vecadd shader must be in it, disassembled; no GPU fault report.

usage: gpu_trace_test.py MALIBU MALIBU_DECODE IMAGE_DIR WORKDIR
"""
import collections
import os
import re
import shutil
import subprocess
import sys

MALIBU, DECODE, IMAGE, WORK = sys.argv[1:5]


def chains_from_trace(text):
    """'gpu: == job chain from 0xHEAD, ...' .. 'gpu: == N jobs' -> (head, body lines)."""
    out, cur, head = [], None, None
    for line in text.splitlines():
        if not line.startswith("gpu: "):
            continue
        line = line[5:]
        m = re.match(r"== job chain from (0x[0-9a-f]+), address space \d+, v\d descriptors$", line)
        if m:
            cur, head = [], m.group(1)
        elif cur is not None and re.match(r"== \d+ jobs?, \d+ problems?$", line):
            out.append((head, "\n".join(cur)))
            cur = None
        elif cur is not None:
            cur.append(line)
    return out


def chains_from_decode(text):
    out, cur, head = [], None, None
    for line in text.splitlines():
        m = re.match(r"== \S+: v\d descriptors, address space \d+, chain from job (0x[0-9a-f]+)$", line)
        if m:
            cur, head = [], m.group(1)
        elif cur is not None and re.match(r"== \d+ jobs?, \d+ problems?$", line):
            out.append((head, "\n".join(cur)))
            cur = None
        elif cur is not None and line:
            cur.append(line)
    return out


def main():
    dump = os.path.join(WORK, "dump")
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(dump)
    r = subprocess.run([MALIBU, "--image", IMAGE, "--gpu", "g71", "--gpu-trace", "jobs", "--gpu-dump", dump,
                        "--run", "RUSTICL_ENABLE=panfrost vecadd"], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=900)
    text = r.stdout.decode(errors="replace")
    open(os.path.join(WORK, "malibu.log"), "w").write(text)
    fails = []
    if r.returncode != 0 or "vecadd: PASS" not in text:
        fails.append("vecadd did not pass (exit status %d)" % r.returncode)
    if "GPU MMU fault" in text or "GPU job fault" in text:
        fails.append("a GPU fault report in a clean run")
    d = subprocess.run([DECODE, dump], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    decoded = d.stdout.decode(errors="replace")
    open(os.path.join(WORK, "decoded.txt"), "w").write(decoded)
    live, dumped = chains_from_trace(text), chains_from_decode(decoded)
    if not live:
        fails.append("--gpu-trace jobs printed no chain")
    if collections.Counter(live) != collections.Counter(dumped):
        only_live = collections.Counter(live) - collections.Counter(dumped)
        only_dump = collections.Counter(dumped) - collections.Counter(live)
        fails.append("trace and malibu-decode differ: %d chain(s) only in the trace (%s), %d only in the dump (%s)"
                     % (sum(only_live.values()), ", ".join(h for h, _ in only_live),
                        sum(only_dump.values()), ", ".join(h for h, _ in only_dump)))
    if not any("shader @ " in body and re.search(r"^\s+\S.*\br0\b", body, re.M) for _, body in live):
        fails.append("no disassembled shader in the trace")
    for f in fails:
        print("FAIL: " + f)
    if fails:
        sys.exit(1)
    print("gpu-trace test: %d chains printed live, identical to malibu-decode's" % len(live))


main()
