"""Run emulator commands and time console markers (used by bench/boot.sh and bench/driver.sh).

run(cmd, markers) starts cmd, reads its console output and records the wall time at which each
marker (bytes) first appears; it returns (times by marker, output, total wall seconds, CPU seconds
of the child: user + sys), or exits with the output tail when a marker never appears."""
import os
import resource
import select
import subprocess
import sys
import time


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd, markers, timeout=1800, must_contain=b""):
    c0 = cpu_children()
    t0 = time.time()
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out, seen = b"", {}
    while p.poll() is None or select.select([p.stdout], [], [], 0)[0]:
        r, _, _ = select.select([p.stdout], [], [], 1.0)
        if r:
            d = os.read(p.stdout.fileno(), 65536)
            if not d:
                break
            out += d
            for m in markers:
                if m not in seen and m in out:
                    seen[m] = time.time() - t0
        if time.time() - t0 > timeout:
            p.kill()
            break
    p.wait()
    if len(seen) != len(markers) or must_contain not in out:
        sys.stdout.write(out.decode(errors="replace")[-3000:])
        sys.exit("%s did not complete the workload" % cmd[0])
    return seen, out, time.time() - t0, cpu_children() - c0


def table(rows, best):
    """rows: [(label, function of a result -> seconds)]; best: {"malibu": r, "qemu": r}."""
    print("%-30s %10s %10s %8s" % ("seconds", "malibu", "qemu", "ratio"))
    for label, f in rows:
        m, q = f(best["malibu"]), f(best["qemu"])
        print("%-30s %10.2f %10.2f %8.2f" % (label, m, q, m / q if q else 0))


def table_n(rows, best, names, ref):
    """Like table() for any emulator names; ratios are each other name's time over ref's."""
    others = [n for n in names if n != ref]
    print("%-30s" % "seconds" + "".join("%16s" % n for n in names) +
          "".join("%16s" % ("%s/%s" % (n.split()[-1], ref)) for n in others))
    for label, f in rows:
        v = {n: f(best[n]) for n in names}
        print("%-30s" % label + "".join("%16.2f" % v[n] for n in names) +
              "".join("%16.2f" % (v[n] / v[ref] if v[ref] else 0) for n in others))
