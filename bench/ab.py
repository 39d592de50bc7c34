"""Alternated A/B rounds of two emulator binaries (used by bench/clinfo-ab.py and
bench/boot-ab.py): binaries run A B, B A, ... so that the host's slow and fast phases fall on
both; CPU seconds (user + sys) of each run, medians, and the median of the per-pair ratios
NEW / BASE (< 1: NEW is faster), which a drifting host moves least.

args(doc, name, files) reads BASE NEW [ROUNDS] from the command line (else exits with doc) and
checks that both binaries and the given input files exist; ab(base, new, rounds, one) calls
one(binary) for each run, which returns that run's CPU seconds or exits with a message (a run
that fails its check)."""
import os
import resource
import sys


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def args(doc, name, files, hint=''):
    if len(sys.argv) not in (3, 4):
        sys.exit(doc)
    base, new = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) == 4 else 6
    for f in [base, new] + list(files):
        if not os.path.exists(f):
            sys.exit('%s: missing %s%s' % (name, f, hint))
    return base, new, rounds


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2


def ab(base, new, rounds, one):
    times = {base: [], new: []}
    print('%-6s %10s %10s %8s' % ('round', 'base (s)', 'new (s)', 'new/base'))
    for r in range(rounds):
        for b in ((base, new) if r % 2 == 0 else (new, base)):
            times[b].append(one(b))
        print('%-6d %10.2f %10.2f %8.3f' % (r + 1, times[base][-1], times[new][-1],
                                            times[new][-1] / times[base][-1]), flush=True)
    ratios = [n / b for b, n in zip(times[base], times[new])]
    print('%-6s %10.2f %10.2f %8.3f   (medians; the ratio is the median of the pairs)' % (
        'median', median(times[base]), median(times[new]), median(ratios)))
