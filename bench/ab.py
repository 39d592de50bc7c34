"""Alternated A/B rounds of two emulator binaries (used by bench/clinfo-ab.py and
bench/boot-ab.py): binaries run A B, B A, ... so that the host's slow and fast phases fall on
both; CPU seconds (user + sys) of each run, medians, and the median of the per-pair ratios
NEW / BASE (< 1: NEW is faster), which a drifting host moves least.

ab(base, new, rounds, one) calls one(binary) for each run; it returns that run's CPU seconds
or exits with a message (a run that fails its check)."""
import resource


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


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
