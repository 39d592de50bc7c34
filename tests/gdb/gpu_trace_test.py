#!/usr/bin/env python3
"""--gpu-trace jobs decodes what the driver submitted (make gpu-trace-test).

Runs vecadd and reduce (workgroup memory, barriers) with rusticl on the emulated Mali-G71 in the
guest image with --gpu-trace jobs and --gpu-dump DIR, and with Mesa's own decoder in the guest
(PAN_MESA_DEBUG=trace: after each submit panfrost waits for the chain and prints it with
pandecode, into PANDECODE_DUMP_FILE.ctx-N.FRAME files that the guest then prints).  Checks:
  * against pandecode, an independent decoder: the same jobs in the same order, and for each the
    header (type, barrier, index, dependencies, next), the write-value payload, the invocation
    (local size, workgroup counts, shifts, splits), the draw descriptor's pointers, the renderer
    state (shader address, counts, preloads), the shader's address and size, the local storage
    and uniform buffers agree (tests/gdb/job_fields.py);
  * against build/malibu-decode of DIR: every chain the trace printed is one malibu-decode printed
    from the dump, line for line (the trace's lines carry "gpu: "), and the other way round
    (the same printer, so this checks the dump, not the decoding);
  * the vecadd shader is in the trace, disassembled; no GPU fault report.

usage: gpu_trace_test.py MALIBU MALIBU_DECODE IMAGE_DIR WORKDIR
"""
import collections
import os
import re
import shutil
import subprocess
import sys

import job_fields

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
    # one dump base per sample, printed in the order they ran (Mesa adds the process name and
    # context to the file names); the GPU is idle while the guest prints them
    script = ("cd /tmp && export RUSTICL_ENABLE=panfrost PAN_MESA_DEBUG=trace; "
              "PANDECODE_DUMP_FILE=/tmp/pd1 vecadd && PANDECODE_DUMP_FILE=/tmp/pd2 reduce 10000; "
              "echo samples-status: $?; echo '== pandecode begin'; cat /tmp/pd1* /tmp/pd2*; echo '== pandecode end'")
    r = subprocess.run([MALIBU, "--image", IMAGE, "--gpu", "g71", "--gpu-trace", "jobs", "--gpu-dump", dump,
                        "--run", script], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=900)
    text = r.stdout.decode(errors="replace").replace("\r\n", "\n")     # the guest console's line ends
    open(os.path.join(WORK, "malibu.log"), "w").write(text)
    fails = []
    if r.returncode != 0 or "vecadd: PASS" not in text or "reduce: PASS" not in text \
            or "samples-status: 0" not in text:
        fails.append("vecadd or reduce did not pass (exit status %d)" % r.returncode)
    m = re.search(r"^== pandecode begin$(.*)^== pandecode end$", text, re.M | re.S)
    live_jobs = job_fields.malibu_jobs(text[:m.start()] if m else text)
    mesa_jobs = job_fields.pandecode_jobs(m.group(1)) if m else []
    if not mesa_jobs:
        fails.append("Mesa's pandecode (PAN_MESA_DEBUG=trace) printed no job in the guest")
    elif not any(j["type"] == "compute" for j in mesa_jobs):
        fails.append("no compute job in pandecode's output")
    diffs = job_fields.compare(live_jobs, mesa_jobs)
    if diffs:
        fails.append("--gpu-trace jobs and pandecode disagree (%d differences):\n    %s"
                     % (len(diffs), "\n    ".join(diffs[:20])))
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
    print("gpu-trace test: %d jobs (%d compute), every compared field as Mesa's pandecode decodes it; "
          "%d chains printed live, identical to malibu-decode's"
          % (len(live_jobs), sum(j["type"] == "compute" for j in live_jobs), len(live)))


main()
